/* store.h — durable state around the pure engine: per-session state JSON, withheld updates of
 * pending ASKs, usage counters, the audit log and trusted project directories.
 *
 * Two backends: in-memory (tests) and SQLite (default; WAL; $RAMPART_STATE_DIR/state.db, else
 * $XDG_STATE_HOME/rampart/state.db, else ~/.local/state/rampart/state.db; directory 0700, file
 * 0600). SQL is kept portable (PostgreSQL comes later).
 *
 * Concurrency: callers wrap load → evaluate → apply in rp_store_begin/rp_store_commit. begin
 * takes the write lock up front (BEGIN IMMEDIATE) and retries while the database is busy, so two
 * processes evaluating one session never lose an update.
 *
 * Every function returns 0 on success and -1 on failure with rp_store_error() describing it. */
#ifndef RAMPART_STORE_STORE_H
#define RAMPART_STORE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/json.h"

typedef struct rp_store rp_store;

rp_store *rp_store_open_memory(void);
/* dir NULL = the default directory. Creates it (0700) and the database (0600), runs
 * migrations. NULL on failure with a message in err. */
rp_store *rp_store_open_sqlite(const char *dir, char *err, size_t err_size);
/* The directory rp_store_open_sqlite(NULL) would use, into buf; NULL when it cannot be
 * determined (no HOME) or does not fit. */
const char *rp_store_default_dir(char *buf, size_t size);
void rp_store_close(rp_store *s);
const char *rp_store_error(const rp_store *s);

int rp_store_begin(rp_store *s); /* exclusive write transaction, retried while busy */
int rp_store_commit(rp_store *s);
void rp_store_rollback(rp_store *s);

/* Session state: an object; {} when the session is unknown. */
int rp_store_load_state(rp_store *s, const char *session_id, rp_arena *a, rp_json **state);
int rp_store_save_state(rp_store *s, const char *session_id, const rp_json *state);

/* Withheld updates of a pending ASK, keyed by (session, ask_key). `updates` is the JSON array
 * of {"key","action","value","policy"} objects; `policies` the asking policies (array). */
int rp_store_put_pending(rp_store *s, const char *session_id, const char *ask_key,
                         const rp_json *updates, const rp_json *policies, int64_t now_us);
/* Removes and returns a pending entry. *updates is NULL when there was none. */
int rp_store_take_pending(rp_store *s, const char *session_id, const char *ask_key, rp_arena *a,
                          rp_json **updates);

/* One audited decision. */
typedef struct rp_audit_row {
    int64_t time_us;
    const char *session_id;
    const char *event_type;
    const char *target;   /* tool name or NULL */
    const char *result;   /* "ALLOW" | "ASK" | "DENY" */
    const char *reason;   /* NULL on ALLOW */
    const char *policies; /* JSON array text of the deciding policies */
    const char *note;     /* what policies noted beyond the verdict (rp_decision.notes), or NULL */
} rp_audit_row;

int rp_store_audit(rp_store *s, const rp_audit_row *row);
/* Calls fn for each row with time ≥ since_us (0 = all), of session_id (NULL = all), oldest
 * first. fn returns non-zero to stop. Row strings are valid only during the call. */
int rp_store_audit_query(rp_store *s, const char *session_id, int64_t since_us,
                         int (*fn)(void *self, const rp_audit_row *row), void *self);
int rp_store_audit_prune(rp_store *s, int64_t before_us);

/* Project directories whose .rampart.yaml the user trusts (`rampart trust`). */
int rp_store_trust(rp_store *s, const char *dir, int64_t now_us);
int rp_store_untrust(rp_store *s, const char *dir);
bool rp_store_is_trusted(rp_store *s, const char *dir);

#endif
