/* store_backend.h — what a state store backend implements (private to src/store and its tests).
 *
 * store.c owns everything the backends share: argument checks, the transaction nesting check,
 * JSON encoding and decoding, path canonicalisation for trust. A backend only moves text and
 * integers in and out of its storage, so the memory and SQLite backends cannot drift apart in
 * what they accept or how they report corrupt data.
 *
 * A backend struct embeds rp_store as its first member and is freed by its own close(). */
#ifndef RAMPART_STORE_STORE_BACKEND_H
#define RAMPART_STORE_STORE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/buf.h"
#include "store/store.h"

#define RP_STORE_ERROR_SIZE 1024

typedef struct rp_store_ops {
    const char *name; /* "memory", "sqlite" */
    void (*close)(rp_store *s);
    int (*begin)(rp_store *s);
    int (*commit)(rp_store *s);
    void (*rollback)(rp_store *s);
    /* *text (copied into a, NUL-terminated) or NULL when the session has no row. */
    int (*load_state)(rp_store *s, const char *session_id, rp_arena *a, char **text, size_t *len);
    int (*save_state)(rp_store *s, const char *session_id, const char *text, size_t len,
                      int64_t now_us);
    /* Inserts or replaces the (session_id, ask_key) entry. */
    int (*put_pending)(rp_store *s, const char *session_id, const char *ask_key,
                       const char *updates, size_t updates_len, const char *policies,
                       size_t policies_len, int64_t now_us);
    /* Deletes the entry; *text is its updates (copied into a) or NULL when there was none. */
    int (*take_pending)(rp_store *s, const char *session_id, const char *ask_key, rp_arena *a,
                        char **text, size_t *len);
    int (*audit)(rp_store *s, const rp_audit_row *row); /* row already validated */
    int (*audit_query)(rp_store *s, const char *session_id, int64_t since_us,
                       int (*fn)(void *self, const rp_audit_row *row), void *self);
    int (*audit_prune)(rp_store *s, int64_t before_us);
    /* dir is canonical (absolute, resolved) here. */
    int (*trust)(rp_store *s, const char *dir, int64_t now_us);
    int (*untrust)(rp_store *s, const char *dir);
    int (*is_trusted)(rp_store *s, const char *dir, bool *trusted);
} rp_store_ops;

struct rp_store {
    const rp_store_ops *ops;
    bool in_transaction; /* between a successful begin and commit/rollback */
    bool in_callback;    /* inside an audit_query callback: re-entry is refused */
    rp_buf text;         /* reused for the JSON text being written */
    rp_buf text2;        /* second value of put_pending */
    char error[RP_STORE_ERROR_SIZE];
};

/* Zeroes the shared part and sets the ops. */
void rp_store_base_init(rp_store *s, const rp_store_ops *ops);
/* Frees the shared part (not s itself). */
void rp_store_base_free(rp_store *s);
void rp_store_set_error(rp_store *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Backend constructors. */
rp_store *rp_store_memory_create(void);
rp_store *rp_store_sqlite_create(const char *dir, char *err, size_t err_size);

/* Test hook: how long rp_store_begin keeps retrying a busy SQLite database (default 5000 ms).
 * Lets a unit test prove the "busy → clear error" path without waiting five seconds. No effect
 * on the memory backend. */
void rp_store_sqlite_set_busy_budget_ms(rp_store *s, int ms);

#endif
