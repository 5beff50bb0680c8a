/* scan_cache.h — the on-disk cache of compiled vectorscan databases.
 *
 * Compiling the scanner's patterns takes milliseconds; deserializing them takes microseconds. A
 * hook is a fresh process per event, so the compiled database is kept in a file named after a
 * hash of everything that determines it (the library version, each expression and its flags, in
 * order: the expression ids are indexes into that order). A missing, foreign, damaged or
 * unsafe file is a cache miss, never an error: the caller compiles and stores again. */
#ifndef RAMPART_SCAN_SCAN_CACHE_H
#define RAMPART_SCAN_SCAN_CACHE_H

#include <hs.h>
#include <stddef.h>

#define RP_SCAN_CACHE_KEY_HEX 65 /* 64 hex digits and a NUL */

void rp_scan_cache_key(const char *const *expressions, const unsigned *flags, size_t n,
                       char key[RP_SCAN_CACHE_KEY_HEX]);
/* The database cached under key in dir, or NULL. Only a regular file owned by this user and
 * writable by nobody else is trusted: vectorscan's deserializer is not meant for hostile input. */
hs_database_t *rp_scan_cache_load(const char *dir, const char *key);
/* Stores db under key in dir (created 0700 if missing), atomically (a temporary file renamed
 * into place). Failures are ignored: the cache is an optimisation. */
void rp_scan_cache_store(const char *dir, const char *key, const hs_database_t *db);

#endif
