/* store_sqlite_ledger.c — the SQLite backend's half of the spend ledger (rp_store_ops, "the
 * spend ledger", in store_backend.h): session links and their re-rooting, usage rows and the
 * per-session and per-user-day aggregates they add to, user approvals, sub-agent budgets, the
 * `rampart spend` query, and the transcript bookmarks (how far each session's transcript has
 * been read and charged).
 *
 * It binds, steps and reads; the statements' SQL and the cache that prepares them are in
 * store_sqlite.c, the rules of the ledger in store_ledger.c, and what both files of the backend
 * promise in store_sqlite_internal.h. */
#include <stdbool.h>
#include <stdint.h>

#include <sqlite3.h>

#include "store/store_sqlite_internal.h"

/* ---- the spend ledger ---- */

static const char *arena_column(sqlite3_stmt *st, int col, rp_arena *a)
{
    const char *v = sq_column_str(st, col);
    return v != NULL ? rp_arena_strdup(a, v) : NULL;
}

int sq_get_link(rp_store *s, const char *session_id, rp_arena *a, bool *found, rp_link_row *out)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_GET_LINK);
    *found = false;
    if (st == NULL || sq_bind_str(q, st, 1, session_id) != 0) {
        return -1;
    }
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *found = true;
        out->parent_session_id = arena_column(st, 0, a);
        out->root_session_id = arena_column(st, 1, a);
        out->user_id = arena_column(st, 2, a);
        out->root_user_id = arena_column(st, 3, a);
        if (out->root_session_id == NULL) {
            rp_store_set_error(s, "%s: corrupt session link of '%s': no root", q->path, session_id);
            rc = SQLITE_ERROR;
        }
    } else if (rc != SQLITE_DONE) {
        sq_set_sql_error(q, "cannot read session link");
    }
    sqlite3_reset(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

int sq_put_link(rp_store *s, const char *session_id, const char *parent_session_id,
                const char *root_session_id, const char *user_id, int64_t now_us)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_PUT_LINK);
    if (st == NULL || sq_bind_str(q, st, 1, session_id) != 0 ||
        sq_bind_str(q, st, 2, parent_session_id) != 0 ||
        sq_bind_str(q, st, 3, root_session_id) != 0 || sq_bind_str(q, st, 4, user_id) != 0) {
        return -1;
    }
    sqlite3_bind_int64(st, 5, now_us);
    return sq_run(q, st, "cannot record session link");
}

int sq_reroot(rp_store *s, const char *old_root, const char *new_root)
{
    sqlite_store *q = sq(s);
    enum stmt_id ids[] = {ST_REROOT_LINKS, ST_REROOT_SESSIONS, ST_REROOT_ROWS};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        sqlite3_stmt *st = sq_stmt(q, ids[i]);
        if (st == NULL || sq_bind_str(q, st, 1, old_root) != 0 ||
            sq_bind_str(q, st, 2, new_root) != 0 ||
            sq_run(q, st, "cannot move a spawn tree to its new root") != 0) {
            return -1;
        }
    }
    return 0;
}

int sq_adopt_rows(rp_store *s, const char *root, const char *owner, int64_t now_us)
{
    sqlite_store *q = sq(s);
    enum stmt_id ids[] = {ST_ADOPT_DAYS, ST_ADOPT_ROWS};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        sqlite3_stmt *st = sq_stmt(q, ids[i]);
        if (st == NULL || sq_bind_str(q, st, 1, root) != 0 || sq_bind_str(q, st, 2, owner) != 0) {
            return -1;
        }
        if (ids[i] == ST_ADOPT_DAYS) {
            sqlite3_bind_int64(st, 3, now_us);
        }
        if (sq_run(q, st, "cannot charge earlier spend to the tree's owner") != 0) {
            return -1;
        }
    }
    return 0;
}

int sq_claim_budget(rp_store *s, const char *parent_session_id, const char *child_session_id)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_CLAIM_BUDGET);
    if (st == NULL || sq_bind_str(q, st, 1, parent_session_id) != 0 ||
        sq_bind_str(q, st, 2, child_session_id) != 0) {
        return -1;
    }
    return sq_run(q, st, "cannot claim sub-agent budget");
}

int sq_usage_exists(rp_store *s, const char *session_id, const char *record_id, bool *exists)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_USAGE_EXISTS);
    *exists = false;
    if (st == NULL || sq_bind_str(q, st, 1, session_id) != 0 ||
        sq_bind_str(q, st, 2, record_id) != 0) {
        return -1;
    }
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *exists = true;
    } else if (rc != SQLITE_DONE) {
        sq_set_sql_error(q, "cannot look up usage record");
    }
    sqlite3_reset(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

/* Binds ?3..?11 of an AGGREGATE_ADD upsert from one usage row. */
static void bind_aggregate_add(sqlite3_stmt *st, const rp_usage_record *r)
{
    int64_t tokens = r->input_tokens + r->output_tokens + r->cache_read_input_tokens +
                     r->cache_creation_input_tokens;
    sqlite3_bind_int64(st, 3, r->input_tokens);
    sqlite3_bind_int64(st, 4, r->output_tokens);
    sqlite3_bind_int64(st, 5, r->cache_read_input_tokens);
    sqlite3_bind_int64(st, 6, r->cache_creation_input_tokens);
    sqlite3_bind_int64(st, 7, r->priced ? r->cost_nusd : 0);
    sqlite3_bind_int64(st, 8, r->priced ? 1 : 0);
    sqlite3_bind_int64(st, 9, r->priced ? 0 : 1);
    sqlite3_bind_int64(st, 10, r->priced ? 0 : tokens);
    sqlite3_bind_int64(st, 11, r->time_us);
}

/* Adds r to the aggregate row (key1, key2): the UPDATE, then the UPSERT when no row changed. */
static int add_to_aggregate(sqlite_store *q, enum stmt_id bump, enum stmt_id add, const char *key1,
                            const char *key2, const rp_usage_record *r, const char *what)
{
    sqlite3_stmt *st = sq_stmt(q, bump);
    if (st == NULL || sq_bind_str(q, st, 1, key1) != 0 || sq_bind_str(q, st, 2, key2) != 0) {
        return -1;
    }
    bind_aggregate_add(st, r);
    if (sq_run(q, st, what) != 0) {
        return -1;
    }
    if (sqlite3_changes(q->db) > 0) {
        return 0;
    }
    st = sq_stmt(q, add);
    if (st == NULL || sq_bind_str(q, st, 1, key1) != 0 || sq_bind_str(q, st, 2, key2) != 0) {
        return -1;
    }
    bind_aggregate_add(st, r);
    return sq_run(q, st, what);
}

int sq_insert_usage(rp_store *s, const rp_usage_record *r, const char *day)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_INSERT_USAGE);
    if (st == NULL) {
        return -1;
    }
    sqlite3_bind_int64(st, 1, r->time_us);
    if (sq_bind_str(q, st, 2, day) != 0 || sq_bind_str(q, st, 3, r->session_id) != 0 ||
        sq_bind_str(q, st, 4, r->root_session_id) != 0 ||
        sq_bind_str(q, st, 5, r->parent_session_id) != 0 ||
        sq_bind_str(q, st, 6, r->user_id) != 0 || sq_bind_str(q, st, 7, r->model) != 0 ||
        sq_bind_str(q, st, 8, r->record_id) != 0 || sq_bind_str(q, st, 15, r->priced_by) != 0) {
        return -1;
    }
    sqlite3_bind_int64(st, 9, r->input_tokens);
    sqlite3_bind_int64(st, 10, r->output_tokens);
    sqlite3_bind_int64(st, 11, r->cache_read_input_tokens);
    sqlite3_bind_int64(st, 12, r->cache_creation_input_tokens);
    sqlite3_bind_int64(st, 13, r->priced ? 1 : 0);
    sqlite3_bind_int64(st, 14, r->priced ? r->cost_nusd : 0);
    if (sq_run(q, st, "cannot record usage") != 0) {
        return -1;
    }

    if (add_to_aggregate(q, ST_BUMP_SESSION, ST_ADD_SESSION, r->session_id, r->root_session_id, r,
                         "cannot update session usage") != 0) {
        return -1;
    }
    if (r->user_id == NULL) {
        return 0;
    }
    return add_to_aggregate(q, ST_BUMP_USER_DAY, ST_ADD_USER_DAY, r->user_id, day, r,
                            "cannot update daily user usage");
}

/* Reads the nine sums starting at column `col` into out. */
static void column_totals(sqlite3_stmt *st, int col, rp_usage_totals *out)
{
    out->records = sqlite3_column_int64(st, col);
    out->input_tokens = sqlite3_column_int64(st, col + 1);
    out->output_tokens = sqlite3_column_int64(st, col + 2);
    out->cache_read_input_tokens = sqlite3_column_int64(st, col + 3);
    out->cache_creation_input_tokens = sqlite3_column_int64(st, col + 4);
    out->cost_nusd = sqlite3_column_int64(st, col + 5);
    out->priced_records = sqlite3_column_int64(st, col + 6);
    out->unpriced_records = sqlite3_column_int64(st, col + 7);
    out->unpriced_tokens = sqlite3_column_int64(st, col + 8);
}

/* Steps a bound query of AGGREGATE_COLUMNS rows and adds them into out (zeroed by the caller). */
static int read_totals(sqlite_store *q, sqlite3_stmt *st, rp_usage_totals *out, const char *what)
{
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        rp_usage_totals row;
        column_totals(st, 0, &row);
        out->records += row.records;
        out->input_tokens += row.input_tokens;
        out->output_tokens += row.output_tokens;
        out->cache_read_input_tokens += row.cache_read_input_tokens;
        out->cache_creation_input_tokens += row.cache_creation_input_tokens;
        out->cost_nusd += row.cost_nusd;
        out->priced_records += row.priced_records;
        out->unpriced_records += row.unpriced_records;
        out->unpriced_tokens += row.unpriced_tokens;
    }
    if (rc != SQLITE_DONE) {
        sq_set_sql_error(q, what);
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int sq_usage_tree(rp_store *s, const char *root_session_id, rp_usage_totals *out)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_USAGE_TREE);
    if (st == NULL || sq_bind_str(q, st, 1, root_session_id) != 0) {
        return -1;
    }
    return read_totals(q, st, out, "cannot sum spawn tree usage");
}

int sq_usage_subtree(rp_store *s, const char *session_id, rp_usage_totals *out)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_USAGE_SUBTREE);
    if (st == NULL || sq_bind_str(q, st, 1, session_id) != 0) {
        return -1;
    }
    return read_totals(q, st, out, "cannot sum subtree usage");
}

int sq_user_spend(rp_store *s, const char *user_id, const char *first_day, const char *last_day,
                  rp_usage_totals *out)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_USER_SPEND);
    if (st == NULL || sq_bind_str(q, st, 1, user_id) != 0 ||
        sq_bind_str(q, st, 2, first_day) != 0 || sq_bind_str(q, st, 3, last_day) != 0) {
        return -1;
    }
    return read_totals(q, st, out, "cannot sum user spend");
}

static int bind_window(sqlite_store *q, sqlite3_stmt *st, const char *user_id, const char *period,
                       const char *window_start)
{
    return sq_bind_str(q, st, 1, user_id) != 0 || sq_bind_str(q, st, 2, period) != 0 ||
                   sq_bind_str(q, st, 3, window_start) != 0
               ? -1
               : 0;
}

int sq_get_approval(rp_store *s, const char *user_id, const char *period, const char *window_start,
                    double *approved_usd)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_GET_APPROVAL);
    *approved_usd = 0.0;
    if (st == NULL || bind_window(q, st, user_id, period, window_start) != 0) {
        return -1;
    }
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *approved_usd = sqlite3_column_double(st, 0);
    } else if (rc != SQLITE_DONE) {
        sq_set_sql_error(q, "cannot read user approval");
    }
    sqlite3_reset(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

int sq_set_approval(rp_store *s, const char *user_id, const char *period, const char *window_start,
                    double approved_usd, int64_t now_us)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_SET_APPROVAL);
    if (st == NULL || bind_window(q, st, user_id, period, window_start) != 0) {
        return -1;
    }
    sqlite3_bind_double(st, 4, approved_usd);
    sqlite3_bind_int64(st, 5, now_us);
    return sq_run(q, st, "cannot record user approval");
}

int sq_attach_budget(rp_store *s, const char *parent_session_id, const char *child_session_id,
                     const char *budget_json, int64_t now_us)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_ATTACH_BUDGET);
    if (st == NULL || sq_bind_str(q, st, 1, parent_session_id) != 0 ||
        sq_bind_str(q, st, 2, child_session_id) != 0 || sq_bind_str(q, st, 3, budget_json) != 0) {
        return -1;
    }
    sqlite3_bind_int64(st, 4, now_us);
    return sq_run(q, st, "cannot attach sub-agent budget");
}

int sq_session_budget(rp_store *s, const char *session_id, rp_arena *a, char **budget_json)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_SESSION_BUDGET);
    *budget_json = NULL;
    if (st == NULL || sq_bind_str(q, st, 1, session_id) != 0) {
        return -1;
    }
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        size_t len = 0;
        sq_column_to_arena(st, a, budget_json, &len);
    } else if (rc != SQLITE_DONE) {
        sq_set_sql_error(q, "cannot read sub-agent budget");
    }
    sqlite3_reset(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

int sq_spend(rp_store *s, const rp_spend_query *query,
             int (*fn)(void *self, const rp_spend_row *row), void *self)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_spend_stmt(q, query->group);
    if (st == NULL || sq_bind_str(q, st, 1, query->user_id) != 0 ||
        sq_bind_str(q, st, 2, query->session_id) != 0 ||
        sq_bind_str(q, st, 3, query->first_day) != 0 ||
        sq_bind_str(q, st, 4, query->last_day) != 0) {
        return -1;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        rp_spend_row row = {.key = sq_column_str(st, 0)};
        if (row.key == NULL) {
            row.key = "";
        }
        column_totals(st, 1, &row.totals);
        if (fn(self, &row) != 0) {
            rc = SQLITE_DONE;
            break;
        }
    }
    if (rc != SQLITE_DONE) {
        sq_set_sql_error(q, "cannot read spend");
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* ---- transcript bookmarks ---- */

int sq_get_transcript(rp_store *s, const char *session_id, const char *path, rp_arena *a,
                      rp_transcript_mark *out)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, path ? ST_GET_TRANSCRIPT_OFFSET : ST_LAST_TRANSCRIPT);
    if (st == NULL || sq_bind_str(q, st, 1, session_id) != 0 ||
        (path != NULL && sq_bind_str(q, st, 2, path) != 0)) {
        return -1;
    }
    int rc = sqlite3_step(st);
    int found = 1;
    if (rc == SQLITE_ROW) {
        const char *p = sq_column_str(st, 0), *model = sq_column_str(st, 2);
        out->path = p ? rp_arena_strdup(a, p) : NULL;
        out->offset = sqlite3_column_int64(st, 1);
        out->model = model ? rp_arena_strdup(a, model) : NULL;
        found = 0;
        rc = SQLITE_DONE;
    }
    if (rc != SQLITE_DONE) {
        sq_set_sql_error(q, "cannot read transcript offset");
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? found : -1;
}

int sq_set_transcript_offset(rp_store *s, const char *session_id, const char *path, int64_t offset,
                             const char *model, int64_t now_us)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_SET_TRANSCRIPT_OFFSET);
    if (st == NULL || sq_bind_str(q, st, 1, session_id) != 0 || sq_bind_str(q, st, 2, path) != 0 ||
        sq_bind_str(q, st, 4, model) != 0) {
        return -1;
    }
    sqlite3_bind_int64(st, 3, offset);
    sqlite3_bind_int64(st, 5, now_us);
    return sq_run(q, st, "cannot save transcript offset");
}
