/* store_schema.h — versioned schema of the SQLite state store (private to src/store). */
#ifndef RAMPART_STORE_STORE_SCHEMA_H
#define RAMPART_STORE_STORE_SCHEMA_H

#include <stddef.h>

#include <sqlite3.h>

/* The schema version this binary writes. */
int rp_store_schema_latest(void);

/* Brings db up to the latest version. Cheap when it is already current (one PRAGMA read, no
 * DDL). A database written by a newer rampart is refused, never downgraded. path is only used
 * in messages. Returns 0, or -1 with a message in err. */
int rp_store_schema_migrate(sqlite3 *db, const char *path, char *err, size_t err_size);

#endif
