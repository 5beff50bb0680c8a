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

/* A session_link row as the backend returns it (see get_link). */
typedef struct rp_link_row {
    const char *parent_session_id;
    const char *root_session_id;
    const char *user_id;
    const char *root_user_id;
} rp_link_row;

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
    /* Deletes the entry; *text is its updates (copied into a) or NULL when there was none,
     * *created_us its put_pending now_us (untouched when none). */
    int (*take_pending_at)(rp_store *s, const char *session_id, const char *ask_key, rp_arena *a,
                           char **text, size_t *len, int64_t *created_us);
    int (*audit)(rp_store *s, const rp_audit_row *row); /* row already validated */
    int (*audit_query)(rp_store *s, const char *session_id, int64_t since_us,
                       int (*fn)(void *self, const rp_audit_row *row), void *self);
    int (*audit_prune)(rp_store *s, int64_t before_us);
    /* dir is canonical (absolute, resolved) here. */
    int (*trust)(rp_store *s, const char *dir, int64_t now_us);
    int (*untrust)(rp_store *s, const char *dir);
    int (*is_trusted)(rp_store *s, const char *dir, bool *trusted);

    /* ---- the spend ledger. store_ledger.c owns the rules (link resolution, validation, the
     * transaction around a record); a backend stores and sums. Arguments are validated. ---- */
    /* The session_link row of session_id (*found false when none) and the user_id of its root's
     * row (NULL when the root has no row or no user). Strings copied into a. */
    int (*get_link)(rp_store *s, const char *session_id, rp_arena *a, bool *found,
                    rp_link_row *out);
    /* Inserts the row, or replaces parent/root/user of the existing one (created_us kept). */
    int (*put_link)(rp_store *s, const char *session_id, const char *parent_session_id,
                    const char *root_session_id, const char *user_id, int64_t now_us);
    /* Every link and per-session aggregate whose root is old_root gets new_root. */
    int (*reroot)(rp_store *s, const char *old_root, const char *new_root);
    /* The tree of root now has an owner: its usage rows charged to no one are charged to owner
     * (the rows, and owner's per-day sums), so spend recorded before the owner was known
     * counts against the owner's budgets. */
    int (*adopt_rows)(rp_store *s, const char *root, const char *owner, int64_t now_us);
    /* When child has no budget yet: it claims the oldest unclaimed budget parent attached. */
    int (*claim_budget)(rp_store *s, const char *parent_session_id, const char *child_session_id);
    int (*usage_exists)(rp_store *s, const char *session_id, const char *record_id, bool *exists);
    /* r's root_session_id is resolved (never NULL); user_id is the owner charged (NULL = none).
     * Appends the row and adds it to the per-session and (with a user) per-user-day sums. */
    int (*insert_usage)(rp_store *s, const rp_usage_record *r, const char *day);
    int (*usage_tree)(rp_store *s, const char *root_session_id, rp_usage_totals *out);
    int (*usage_subtree)(rp_store *s, const char *session_id, rp_usage_totals *out);
    int (*user_spend)(rp_store *s, const char *user_id, const char *first_day, const char *last_day,
                      rp_usage_totals *out);
    int (*get_approval)(rp_store *s, const char *user_id, const char *period,
                        const char *window_start, double *approved_usd);
    /* Keeps the larger of the stored and the new value. */
    int (*set_approval)(rp_store *s, const char *user_id, const char *period,
                        const char *window_start, double approved_usd, int64_t now_us);
    int (*attach_budget)(rp_store *s, const char *parent_session_id, const char *child_session_id,
                         const char *budget_json, int64_t now_us);
    /* The oldest budget whose child is session_id, copied into a; NULL when none. */
    int (*session_budget)(rp_store *s, const char *session_id, rp_arena *a, char **budget_json);
    /* Groups ordered by key (byte order). */
    int (*spend)(rp_store *s, const rp_spend_query *q,
                 int (*fn)(void *self, const rp_spend_row *row), void *self);

    /* A session's transcript bookmark (path NULL: the one written last), strings in a; 1 when
     * none is stored. set keeps the stored model when model is NULL. */
    int (*get_transcript)(rp_store *s, const char *session_id, const char *path, rp_arena *a,
                          rp_transcript_mark *out);
    int (*set_transcript_offset)(rp_store *s, const char *session_id, const char *path,
                                 int64_t offset, const char *model, int64_t now_us);
} rp_store_ops;

struct rp_store {
    const rp_store_ops *ops;
    bool in_transaction; /* between a successful begin and commit/rollback */
    bool in_callback;    /* inside an audit_query or spend callback: re-entry is refused */
    rp_buf text;         /* reused for the JSON text being written */
    rp_buf text2;        /* second value of put_pending */
    char error[RP_STORE_ERROR_SIZE];
};

/* Zeroes the shared part and sets the ops. */
void rp_store_base_init(rp_store *s, const rp_store_ops *ops);
/* Frees the shared part (not s itself). */
void rp_store_base_free(rp_store *s);
void rp_store_set_error(rp_store *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* What every public entry point does first: refuses re-entry from a query callback and clears
 * the last error. 0, or -1 with the error set. */
int rp_store_enter(rp_store *s);
/* -1 with "<what> is empty" when id is NULL or "". */
int rp_store_check_id(rp_store *s, const char *what, const char *id);

/* Backend constructors. */
rp_store *rp_store_memory_create(void);
rp_store *rp_store_sqlite_create(const char *dir, char *err, size_t err_size);

/* Test hook: how long rp_store_begin keeps retrying a busy SQLite database (default 5000 ms).
 * Lets a unit test prove the "busy → clear error" path without waiting five seconds. No effect
 * on the memory backend. */
void rp_store_sqlite_set_busy_budget_ms(rp_store *s, int ms);

#endif
