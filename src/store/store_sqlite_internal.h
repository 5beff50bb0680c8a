/* store_sqlite_internal.h — private to the SQLite backend: what store_sqlite.c (files, the
 * statement cache, transactions, session data, the audit log, trust, open and close) and
 * store_sqlite_ledger.c (the spend ledger and the transcript bookmarks) share.
 *
 * Invariants every function of the backend keeps:
 *   - All SQL text lives in store_sqlite.c (stmt_sql[] and the spend query's template): a
 *     statement is named by its stmt_id here, prepared on first use by sq_stmt() or
 *     sq_spend_stmt() and cached, SQLITE_PREPARE_PERSISTENT, for the life of the handle.
 *   - A statement that was stepped is reset before its function returns, on every path, so
 *     that the next use can bind afresh and no read lock outlives the call. Strings are bound
 *     SQLITE_STATIC (they only need to outlive the step); a NULL string binds SQL NULL.
 *   - A statement that returns no rows is stepped through sq_run() (the transaction's own
 *     BEGIN and ROLLBACK aside), and a failed SQLite call is reported by sq_set_sql_error(),
 *     which names the database and marks checkpoint_due on SQLITE_FULL or an I/O error: sq_run()
 *     (or the rollback, inside a transaction) then empties the WAL, so that a full disk cannot
 *     wedge it.
 *   - Text handed back is copied into the caller's arena before the statement is reset (a
 *     query callback's row is valid only during the callback).
 *   - A handle is used from one thread at a time (SQLITE_OPEN_NOMUTEX). */
#ifndef RAMPART_STORE_STORE_SQLITE_INTERNAL_H
#define RAMPART_STORE_STORE_SQLITE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "store/store_backend.h"

/* The cached statements; their SQL is stmt_sql[] in store_sqlite.c. */
enum stmt_id {
    ST_BEGIN,
    ST_COMMIT,
    ST_ROLLBACK,
    ST_LOAD_STATE,
    ST_SAVE_STATE,
    ST_PUT_PENDING,
    ST_AUDIT_INSERT,
    ST_AUDIT_QUERY_ALL,
    ST_AUDIT_QUERY_SESSION,
    ST_AUDIT_PRUNE,
    ST_TRUST,
    ST_UNTRUST,
    ST_IS_TRUSTED,
    ST_GET_LINK,
    ST_PUT_LINK,
    ST_REROOT_LINKS,
    ST_REROOT_SESSIONS,
    ST_REROOT_ROWS,
    ST_ADOPT_DAYS,
    ST_ADOPT_ROWS,
    ST_CLAIM_BUDGET,
    ST_USAGE_EXISTS,
    ST_INSERT_USAGE,
    ST_BUMP_SESSION,
    ST_ADD_SESSION,
    ST_BUMP_USER_DAY,
    ST_ADD_USER_DAY,
    ST_USAGE_TREE,
    ST_USAGE_SUBTREE,
    ST_USER_SPEND,
    ST_GET_APPROVAL,
    ST_SET_APPROVAL,
    ST_ATTACH_BUDGET,
    ST_SESSION_BUDGET,
    ST_TAKE_PENDING_AT,
    ST_GET_TRANSCRIPT_OFFSET,
    ST_LAST_TRANSCRIPT,
    ST_SET_TRANSCRIPT_OFFSET,
    ST_COUNT
};

/* One cached `rampart spend` statement per grouping (sq_spend_stmt). */
#define SPEND_GROUPS (RP_SPEND_BY_SOURCE + 1)

typedef struct sqlite_store {
    rp_store base; /* first: rp_store * and sqlite_store * convert */
    sqlite3 *db;
    char *path; /* <dir>/state.db, for messages */
    sqlite3_stmt *stmts[ST_COUNT];
    sqlite3_stmt *spend_stmts[SPEND_GROUPS];
    int begin_budget_ms;
    bool checkpoint_due;   /* a write failed for want of space: empty the WAL after rollback */
    uint64_t jitter_state; /* xorshift64: spreads two waiters' retries apart */
} sqlite_store;

static inline sqlite_store *sq(rp_store *s)
{
    return (sqlite_store *)s;
}

/* NULL for SQL NULL. Valid until the statement steps again or is reset. */
static inline const char *sq_column_str(sqlite3_stmt *st, int col)
{
    return (const char *)sqlite3_column_text(st, col);
}

/* ---- the statement cache and errors (store_sqlite.c) ---- */

/* The store's error: "<path>: <what>: <SQLite's message>". */
void sq_set_sql_error(sqlite_store *q, const char *what);
/* The cached statement id, prepared on first use; NULL with the error set. */
sqlite3_stmt *sq_stmt(sqlite_store *q, enum stmt_id id);
/* The cached `rampart spend` statement of a grouping; NULL with the error set. */
sqlite3_stmt *sq_spend_stmt(sqlite_store *q, rp_spend_group group);
/* Steps a statement that returns no rows, then resets it. 0, or -1 with the error set. */
int sq_run(sqlite_store *q, sqlite3_stmt *st, const char *what);
/* Binds s (NULL: SQL NULL) at index. 0, or -1 with the error set. */
int sq_bind_str(sqlite_store *q, sqlite3_stmt *st, int index, const char *s);
/* Copies column 0 of the current row into the arena, NUL-terminated. */
void sq_column_to_arena(sqlite3_stmt *st, rp_arena *a, char **text, size_t *len);

/* ---- the spend ledger and transcript bookmarks (store_sqlite_ledger.c): rp_store_ops entries,
 * documented in store_backend.h ---- */

int sq_get_link(rp_store *s, const char *session_id, rp_arena *a, bool *found, rp_link_row *out);
int sq_put_link(rp_store *s, const char *session_id, const char *parent_session_id,
                const char *root_session_id, const char *user_id, int64_t now_us);
int sq_reroot(rp_store *s, const char *old_root, const char *new_root);
int sq_adopt_rows(rp_store *s, const char *root, const char *owner, int64_t now_us);
int sq_claim_budget(rp_store *s, const char *parent_session_id, const char *child_session_id);
int sq_usage_exists(rp_store *s, const char *session_id, const char *record_id, bool *exists);
int sq_insert_usage(rp_store *s, const rp_usage_record *r, const char *day);
int sq_usage_tree(rp_store *s, const char *root_session_id, rp_usage_totals *out);
int sq_usage_subtree(rp_store *s, const char *session_id, rp_usage_totals *out);
int sq_user_spend(rp_store *s, const char *user_id, const char *first_day, const char *last_day,
                  rp_usage_totals *out);
int sq_get_approval(rp_store *s, const char *user_id, const char *period, const char *window_start,
                    double *approved_usd);
int sq_set_approval(rp_store *s, const char *user_id, const char *period, const char *window_start,
                    double approved_usd, int64_t now_us);
int sq_attach_budget(rp_store *s, const char *parent_session_id, const char *child_session_id,
                     const char *budget_json, int64_t now_us);
int sq_session_budget(rp_store *s, const char *session_id, rp_arena *a, char **budget_json);
int sq_spend(rp_store *s, const rp_spend_query *query,
             int (*fn)(void *self, const rp_spend_row *row), void *self);
int sq_get_transcript(rp_store *s, const char *session_id, const char *path, rp_arena *a,
                      rp_transcript_mark *out);
int sq_set_transcript_offset(rp_store *s, const char *session_id, const char *path, int64_t offset,
                             const char *model, int64_t now_us);

#endif
