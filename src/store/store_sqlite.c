/* store_sqlite.c — the SQLite backend: <dir>/state.db in WAL mode. This file opens and closes
 * it, holds every statement's SQL and the statement cache, and runs transactions, session state,
 * pending asks, the audit log and trust; store_sqlite_ledger.c runs the spend ledger's
 * statements. What the two share, and the rules both keep, is store_sqlite_internal.h.
 *
 * Files. The directory is resolved once with realpath() (a symlinked $HOME or ~/.local/state is
 * fine) and SQLite is given the resolved path, so its no-symlink rule (SQLITE_OPEN_NOFOLLOW)
 * only bites where a link is a risk: at state.db and its -wal/-shm/-journal. Missing directories
 * are created 0700 and the database file 0600, with umask(077) held for the whole open so that
 * SQLite's -wal and -shm files (created by the first read in WAL mode, with the database's mode)
 * cannot come out wider either. The directory and every one of those files must be ours and not
 * writable by group or others, with no second hard link (store_files.c); a file of ours that
 * others may only read is narrowed to 0600 through its open descriptor. umask is process-wide:
 * open stores from one thread at a time.
 *
 * Full disk. A write that fails with SQLITE_FULL (or an I/O error) is a store error, and the
 * WAL is then checkpointed with TRUNCATE once the transaction is rolled back: otherwise a file
 * system with less room than WAL_CHECKPOINT_FRAMES frames wedges, since the WAL can neither grow
 * nor reach the size at which after_commit() would empty it. after_commit() also empties it
 * early when the file system is short of room (short_of_space), so that it never gets there.
 *
 * Locking. rp_store_begin runs BEGIN IMMEDIATE, which takes the database's single write lock up
 * front, so a load → evaluate → save cycle cannot interleave with another process's. While the
 * lock is held elsewhere it retries with a short jittered backoff (100 µs doubling to 5 ms, for
 * about 5 s in all) instead of SQLite's busy handler, whose sleeps grow to 100 ms and would make
 * a hook wait far longer than the lock is actually held. Other statements rely on busy_timeout.
 *
 * Speed. Every evaluation in the hook case is a fresh process, so open must be cheap: the schema
 * check is one PRAGMA read, and statements are prepared on first use and cached for the life of
 * the handle. synchronous=NORMAL in WAL mode never corrupts the database; a power cut can lose
 * the last transactions, which for counters and an audit log is the right trade. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store/store_files.h"
#include "store/store_schema.h"
#include "store/store_sqlite_internal.h"

#define BUSY_TIMEOUT_MS        5000 /* for statements outside rp_store_begin's own loop */
#define BEGIN_BUDGET_MS        5000
#define BEGIN_FIRST_DELAY_US   100
#define BEGIN_MAX_DELAY_US     5000
#define WAL_CHECKPOINT_FRAMES  100         /* ~400 KiB: a fresh process scans the whole WAL */
#define WAL_SPACE_CHECK_FRAMES 8           /* below this, short_of_space() does not look */
#define WAL_FRAME_BYTES        (4096 + 24) /* the default page size and a frame header */

/* The nine counters of an aggregate row, in rp_usage_totals order. The hook path's reads select
 * the rows and add them up in C: a statement of nine SUM()s cost ~45 µs to prepare and ~40 µs
 * to run in a fresh process, against ~15 and ~10 for the plain rows (a month is ≤ 31 rows, a
 * spawn tree one row per session). */
#define AGGREGATE_COLUMNS                                                                          \
    "records, input_tokens, output_tokens, cache_read_input_tokens, "                              \
    "cache_creation_input_tokens, cost_nusd, priced_records, unpriced_records, unpriced_tokens"

/* Adding one usage row to an aggregate keyed by (?1) or (?1, ?2): ?3..?6 tokens, ?7 cost,
 * ?8 priced (0/1), ?9 unpriced (0/1), ?10 unpriced tokens, ?11 time.
 *
 * A record first tries a plain UPDATE of the existing aggregate row (BUMP) and only runs the
 * UPSERT (ADD) when there was none: in a fresh process the UPSERT costs ~45 µs to prepare, the
 * UPDATE ~15, and the aggregate row exists for every record but a session's or a day's first.
 * The fallback is the UPSERT, not a plain INSERT, so it stays right without the write lock. */
#define AGGREGATE_BUMP                                                                             \
    "records = records + 1, input_tokens = input_tokens + ?3, "                                    \
    "output_tokens = output_tokens + ?4, "                                                         \
    "cache_read_input_tokens = cache_read_input_tokens + ?5, "                                     \
    "cache_creation_input_tokens = cache_creation_input_tokens + ?6, "                             \
    "cost_nusd = cost_nusd + ?7, priced_records = priced_records + ?8, "                           \
    "unpriced_records = unpriced_records + ?9, unpriced_tokens = unpriced_tokens + ?10, "          \
    "updated_us = ?11"

#define AGGREGATE_ADD(table)                                                                       \
    "records = " table ".records + 1, "                                                            \
    "input_tokens = " table ".input_tokens + excluded.input_tokens, "                              \
    "output_tokens = " table ".output_tokens + excluded.output_tokens, "                           \
    "cache_read_input_tokens = " table ".cache_read_input_tokens + "                               \
    "excluded.cache_read_input_tokens, "                                                           \
    "cache_creation_input_tokens = " table ".cache_creation_input_tokens + "                       \
    "excluded.cache_creation_input_tokens, "                                                       \
    "cost_nusd = " table ".cost_nusd + excluded.cost_nusd, "                                       \
    "priced_records = " table ".priced_records + excluded.priced_records, "                        \
    "unpriced_records = " table ".unpriced_records + excluded.unpriced_records, "                  \
    "unpriced_tokens = " table ".unpriced_tokens + excluded.unpriced_tokens, "                     \
    "updated_us = excluded.updated_us"

static const char *const stmt_sql[ST_COUNT] = {
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
    [ST_LOAD_STATE] = "SELECT state FROM session_state WHERE session_id = ?1",
    [ST_SAVE_STATE] = "INSERT INTO session_state (session_id, state, updated_us) "
                      "VALUES (?1, ?2, ?3) ON CONFLICT (session_id) DO UPDATE "
                      "SET state = excluded.state, updated_us = excluded.updated_us",
    [ST_PUT_PENDING] = "INSERT INTO pending_ask (session_id, ask_key, updates, policies, "
                       "created_us) VALUES (?1, ?2, ?3, ?4, ?5) "
                       "ON CONFLICT (session_id, ask_key) DO UPDATE "
                       "SET updates = excluded.updates, policies = excluded.policies, "
                       "created_us = excluded.created_us",
    [ST_AUDIT_INSERT] = "INSERT INTO audit (time_us, session_id, event_type, target, result, "
                        "reason, policies, note) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    [ST_AUDIT_QUERY_ALL] = "SELECT time_us, session_id, event_type, target, result, reason, "
                           "policies, note FROM audit WHERE time_us >= ?1 ORDER BY time_us, id",
    [ST_AUDIT_QUERY_SESSION] = "SELECT time_us, session_id, event_type, target, result, reason, "
                               "policies, note FROM audit WHERE session_id = ?2 AND "
                               "time_us >= ?1 ORDER BY time_us, id",
    [ST_AUDIT_PRUNE] = "DELETE FROM audit WHERE time_us < ?1",
    [ST_TRUST] = "INSERT INTO trusted_dir (dir, added_us) VALUES (?1, ?2) "
                 "ON CONFLICT (dir) DO NOTHING",
    [ST_UNTRUST] = "DELETE FROM trusted_dir WHERE dir = ?1",
    [ST_IS_TRUSTED] = "SELECT 1 FROM trusted_dir WHERE dir = ?1",
    /* The ledger. The hook path runs GET_LINK, USAGE_EXISTS, INSERT_USAGE, ADD_SESSION,
     * ADD_USER_DAY, USAGE_TREE, USER_SPEND and GET_APPROVAL: each an index lookup or a short
     * range of aggregate rows. */
    [ST_GET_LINK] = "SELECT l.parent_session_id, l.root_session_id, l.user_id, r.user_id "
                    "FROM session_link l LEFT JOIN session_link r "
                    "ON r.session_id = l.root_session_id WHERE l.session_id = ?1",
    [ST_PUT_LINK] = "INSERT INTO session_link (session_id, parent_session_id, root_session_id, "
                    "user_id, created_us) VALUES (?1, ?2, ?3, ?4, ?5) "
                    "ON CONFLICT (session_id) DO UPDATE "
                    "SET parent_session_id = excluded.parent_session_id, "
                    "root_session_id = excluded.root_session_id, user_id = excluded.user_id",
    [ST_REROOT_LINKS] = "UPDATE session_link SET root_session_id = ?2 WHERE root_session_id = ?1",
    [ST_REROOT_SESSIONS] = "UPDATE usage_session SET root_session_id = ?2 "
                           "WHERE root_session_id = ?1",
    /* Rare (a session seen before its parent joins the tree): a scan of the rows is fine. */
    [ST_REROOT_ROWS] = "UPDATE usage_row SET root_session_id = ?2 WHERE root_session_id = ?1",
    /* Spend recorded before the tree had an owner: add it to the owner's days, then mark it. */
    [ST_ADOPT_DAYS] =
        "INSERT INTO usage_user_day (user_id, day, records, input_tokens, output_tokens, "
        "cache_read_input_tokens, cache_creation_input_tokens, cost_nusd, priced_records, "
        "unpriced_records, unpriced_tokens, updated_us) "
        "SELECT CAST(?2 AS TEXT), day, count(*), sum(input_tokens), sum(output_tokens), "
        "sum(cache_read_input_tokens), sum(cache_creation_input_tokens), sum(cost_nusd), "
        "sum(priced), sum(1 - priced), sum(CASE WHEN priced = 0 THEN input_tokens + "
        "output_tokens + cache_read_input_tokens + cache_creation_input_tokens ELSE 0 END), "
        "CAST(?3 AS BIGINT) FROM usage_row WHERE user_id IS NULL AND session_id IN "
        "(SELECT session_id FROM session_link WHERE root_session_id = ?1) GROUP BY day "
        "ON CONFLICT (user_id, day) DO UPDATE SET "
        "records = usage_user_day.records + excluded.records, "
        "input_tokens = usage_user_day.input_tokens + excluded.input_tokens, "
        "output_tokens = usage_user_day.output_tokens + excluded.output_tokens, "
        "cache_read_input_tokens = usage_user_day.cache_read_input_tokens + "
        "excluded.cache_read_input_tokens, "
        "cache_creation_input_tokens = usage_user_day.cache_creation_input_tokens + "
        "excluded.cache_creation_input_tokens, "
        "cost_nusd = usage_user_day.cost_nusd + excluded.cost_nusd, "
        "priced_records = usage_user_day.priced_records + excluded.priced_records, "
        "unpriced_records = usage_user_day.unpriced_records + excluded.unpriced_records, "
        "unpriced_tokens = usage_user_day.unpriced_tokens + excluded.unpriced_tokens, "
        "updated_us = excluded.updated_us",
    [ST_ADOPT_ROWS] = "UPDATE usage_row SET user_id = ?2 WHERE user_id IS NULL AND session_id IN "
                      "(SELECT session_id FROM session_link WHERE root_session_id = ?1)",
    [ST_CLAIM_BUDGET] = "UPDATE subagent_budget SET child_session_id = ?2 WHERE id = "
                        "(SELECT id FROM subagent_budget WHERE parent_session_id = ?1 AND "
                        "child_session_id IS NULL ORDER BY created_us, id LIMIT 1) "
                        "AND NOT EXISTS (SELECT 1 FROM subagent_budget "
                        "WHERE child_session_id = ?2)",
    [ST_USAGE_EXISTS] = "SELECT 1 FROM usage_row WHERE session_id = ?1 AND record_id = ?2",
    [ST_INSERT_USAGE] = "INSERT INTO usage_row (time_us, day, session_id, root_session_id, "
                        "parent_session_id, user_id, model, record_id, input_tokens, "
                        "output_tokens, cache_read_input_tokens, cache_creation_input_tokens, "
                        "priced, cost_nusd, priced_by) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
                        "?9, ?10, ?11, ?12, ?13, ?14, ?15)",
    [ST_BUMP_SESSION] =
        "UPDATE usage_session SET root_session_id = ?2, " AGGREGATE_BUMP " WHERE session_id = ?1",
    [ST_BUMP_USER_DAY] =
        "UPDATE usage_user_day SET " AGGREGATE_BUMP " WHERE user_id = ?1 AND day = ?2",
    [ST_ADD_SESSION] =
        "INSERT INTO usage_session (session_id, root_session_id, records, "
        "input_tokens, output_tokens, cache_read_input_tokens, "
        "cache_creation_input_tokens, cost_nusd, priced_records, "
        "unpriced_records, unpriced_tokens, updated_us) "
        "VALUES (?1, ?2, 1, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) "
        "ON CONFLICT (session_id) DO UPDATE "
        "SET root_session_id = excluded.root_session_id, " AGGREGATE_ADD("usage_session"),
    [ST_ADD_USER_DAY] = "INSERT INTO usage_user_day (user_id, day, records, input_tokens, "
                        "output_tokens, cache_read_input_tokens, cache_creation_input_tokens, "
                        "cost_nusd, priced_records, unpriced_records, unpriced_tokens, "
                        "updated_us) VALUES (?1, ?2, 1, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) "
                        "ON CONFLICT (user_id, day) DO UPDATE SET " AGGREGATE_ADD("usage_user_day"),
    [ST_USAGE_TREE] = "SELECT " AGGREGATE_COLUMNS " FROM usage_session "
                      "WHERE root_session_id = ?1",
    /* CROSS JOIN fixes the join order: walk the links first, then look each session up. */
    [ST_USAGE_SUBTREE] =
        "WITH RECURSIVE sub(id) AS (SELECT CAST(?1 AS TEXT) UNION SELECT l.session_id "
        "FROM session_link l JOIN sub ON l.parent_session_id = sub.id) "
        "SELECT " AGGREGATE_COLUMNS " FROM sub CROSS JOIN usage_session u "
        "ON u.session_id = sub.id",
    [ST_USER_SPEND] = "SELECT " AGGREGATE_COLUMNS " FROM usage_user_day "
                      "WHERE user_id = ?1 AND day >= ?2 AND day <= ?3",
    [ST_GET_APPROVAL] = "SELECT approved_usd FROM user_approval WHERE user_id = ?1 AND "
                        "period = ?2 AND window_start = ?3",
    /* The WHERE of DO UPDATE keeps the larger value (GREATEST and SQLite's MAX differ). */
    [ST_SET_APPROVAL] = "INSERT INTO user_approval (user_id, period, window_start, "
                        "approved_usd, updated_us) VALUES (?1, ?2, ?3, ?4, ?5) "
                        "ON CONFLICT (user_id, period, window_start) DO UPDATE "
                        "SET approved_usd = excluded.approved_usd, "
                        "updated_us = excluded.updated_us "
                        "WHERE excluded.approved_usd > user_approval.approved_usd",
    [ST_ATTACH_BUDGET] = "INSERT INTO subagent_budget (parent_session_id, child_session_id, "
                         "budget, created_us) VALUES (?1, ?2, ?3, ?4)",
    [ST_SESSION_BUDGET] = "SELECT budget FROM subagent_budget WHERE child_session_id = ?1 "
                          "ORDER BY created_us, id LIMIT 1",
    /* RETURNING (SQLite ≥ 3.35, PostgreSQL): take is one atomic statement even outside a
     * transaction, so two processes can never both take the same approval. */
    [ST_TAKE_PENDING_AT] = "DELETE FROM pending_ask WHERE session_id = ?1 AND ask_key = ?2 "
                           "RETURNING updates, created_us",
    [ST_GET_TRANSCRIPT_OFFSET] = "SELECT path, read_offset, model FROM transcript_offset "
                                 "WHERE session_id = ?1 AND path = ?2",
    /* The primary key's session_id prefix finds the session's few rows. */
    [ST_LAST_TRANSCRIPT] = "SELECT path, read_offset, model FROM transcript_offset "
                           "WHERE session_id = ?1 ORDER BY updated_us DESC, path LIMIT 1",
    [ST_SET_TRANSCRIPT_OFFSET] = "INSERT INTO transcript_offset (session_id, path, read_offset, "
                                 "model, updated_us) VALUES (?1, ?2, ?3, ?4, ?5) "
                                 "ON CONFLICT (session_id, path) DO UPDATE "
                                 "SET read_offset = excluded.read_offset, "
                                 "model = COALESCE(excluded.model, transcript_offset.model), "
                                 "updated_us = excluded.updated_us",
};

/* `rampart spend`: one statement per grouping, built on first use. The key expression and GROUP
 * BY differ; RP_SPEND_BY_NONE has no GROUP BY, so it yields exactly one row even when nothing
 * matches. ?1 user, ?2 session (its subtree), ?3 first day, ?4 last day; NULL = no filter. */
static const char *const spend_key_sql[SPEND_GROUPS] = {
    [RP_SPEND_BY_NONE] = "''",
    [RP_SPEND_BY_MODEL] = "COALESCE(model, '')",
    [RP_SPEND_BY_USER] = "COALESCE(user_id, '')",
    [RP_SPEND_BY_DAY] = "day",
    [RP_SPEND_BY_SESSION] = "session_id",
    [RP_SPEND_BY_SOURCE] = "CASE WHEN priced = 0 THEN 'unpriced' ELSE COALESCE(priced_by, '') END",
};

static const char spend_sql_format[] =
    "WITH RECURSIVE sub(id) AS (SELECT CAST(?2 AS TEXT) WHERE ?2 IS NOT NULL UNION "
    "SELECT l.session_id FROM session_link l JOIN sub ON l.parent_session_id = sub.id) "
    "SELECT %s AS k, COUNT(*), COALESCE(SUM(input_tokens), 0), COALESCE(SUM(output_tokens), 0), "
    "COALESCE(SUM(cache_read_input_tokens), 0), COALESCE(SUM(cache_creation_input_tokens), 0), "
    "COALESCE(SUM(cost_nusd), 0), COALESCE(SUM(priced), 0), "
    "COALESCE(SUM(1 - priced), 0), "
    "COALESCE(SUM(CASE WHEN priced = 0 THEN input_tokens + output_tokens + "
    "cache_read_input_tokens + cache_creation_input_tokens ELSE 0 END), 0) "
    "FROM usage_row WHERE (?1 IS NULL OR user_id = ?1) "
    "AND (?2 IS NULL OR session_id IN (SELECT id FROM sub)) "
    "AND (?3 IS NULL OR day >= ?3) AND (?4 IS NULL OR day <= ?4)%s";

/* ---- paths and files ---- */

static int copy_path(char *buf, size_t size, const char *s)
{
    size_t n = strlen(s);
    if (n + 1 > size) {
        return -1;
    }
    memcpy(buf, s, n + 1);
    return 0;
}

const char *rp_store_default_dir(char *buf, size_t size)
{
    const char *env = getenv("RAMPART_STATE_DIR");
    if (env != NULL && env[0] != '\0') {
        return copy_path(buf, size, env) == 0 ? buf : NULL;
    }
    /* The XDG spec says relative values are invalid and must be ignored. */
    env = getenv("XDG_STATE_HOME");
    if (env != NULL && env[0] == '/') {
        int n = snprintf(buf, size, "%s/rampart", env);
        return n >= 0 && (size_t)n < size ? buf : NULL;
    }
    /* No passwd lookup when $HOME is unset: the static binary must not load NSS (issue 16). */
    const char *home = getenv("HOME");
    if (home == NULL || home[0] == '\0') {
        return NULL;
    }
    int n = snprintf(buf, size, "%s/.local/state/rampart", home);
    return n >= 0 && (size_t)n < size ? buf : NULL;
}

/* mkdir -p. Components created here get 0700 (umask is 077 during open); existing ones are
 * left alone, and symlinks on the way are followed (the path is resolved afterwards). */
static int make_dirs(const char *dir, char *err, size_t err_size)
{
    char path[PATH_MAX];
    if (copy_path(path, sizeof path, dir) != 0) {
        snprintf(err, err_size, "state directory path too long: %.100s...", dir);
        return -1;
    }
    for (char *p = path + 1; *p != '\0'; p++) {
        if (*p != '/') {
            continue;
        }
        *p = '\0';
        if (mkdir(path, 0700) != 0 && errno != EEXIST) {
            snprintf(err, err_size, "cannot create directory %s: %s", path, strerror(errno));
            return -1;
        }
        *p = '/';
    }
    if (mkdir(path, 0700) != 0 && errno != EEXIST) {
        snprintf(err, err_size, "cannot create state directory %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Resolves dir into real (PATH_MAX bytes) and checks it is a directory of ours, closed to
 * others. */
static int resolve_dir(const char *dir, char *real, char *err, size_t err_size)
{
    if (realpath(dir, real) == NULL) {
        snprintf(err, err_size, "cannot resolve state directory %s: %s", dir, strerror(errno));
        return -1;
    }
    struct stat st;
    if (stat(real, &st) != 0) {
        snprintf(err, err_size, "cannot stat state directory %s: %s", real, strerror(errno));
        return -1;
    }
    return rp_store_check_dir(real, &st, err, err_size);
}

/* The database file (created 0600 before SQLite sees it) and whatever -wal/-shm/-journal files
 * are already there, each checked on its open descriptor. */
static int prepare_files(const char *db_path, char *err, size_t err_size)
{
    if (rp_store_prepare_file(db_path, 1, err, err_size) != 0) {
        return -1;
    }
    char path[PATH_MAX + 32];
    for (size_t i = 0; i < sizeof rp_store_sidecars / sizeof rp_store_sidecars[0]; i++) {
        int n = snprintf(path, sizeof path, "%s%s", db_path, rp_store_sidecars[i]);
        if (n < 0 || (size_t)n >= sizeof path) {
            snprintf(err, err_size, "state path too long: %.100s...", db_path);
            return -1;
        }
        if (rp_store_prepare_file(path, 0, err, err_size) != 0) {
            return -1;
        }
    }
    return 0;
}

/* ---- statements and errors ---- */

static void checkpoint_truncate(sqlite_store *q);

/* SQLite's message, with the system error behind it when the failure was the file system's
 * ("unable to open database file" alone does not say why). */
static void describe_sql_error(sqlite3 *db, char *buf, size_t size)
{
    int code = sqlite3_extended_errcode(db) & 0xff;
    int sys = sqlite3_system_errno(db);
    if (sys != 0 && (code == SQLITE_CANTOPEN || code == SQLITE_IOERR || code == SQLITE_FULL ||
                     code == SQLITE_READONLY || code == SQLITE_PERM)) {
        snprintf(buf, size, "%s (%s)", sqlite3_errmsg(db), strerror(sys));
    } else {
        snprintf(buf, size, "%s", sqlite3_errmsg(db));
    }
}

void sq_set_sql_error(sqlite_store *q, const char *what)
{
    char cause[256];
    describe_sql_error(q->db, cause, sizeof cause);
    rp_store_set_error(&q->base, "%s: %s: %s", q->path, what, cause);
    int code = sqlite3_extended_errcode(q->db) & 0xff;
    if (code == SQLITE_FULL || code == SQLITE_IOERR) {
        /* done by sq_run() or sq_rollback(), once the statement is reset */
        q->checkpoint_due = true;
    }
}

sqlite3_stmt *sq_stmt(sqlite_store *q, enum stmt_id id)
{
    if (q->stmts[id] == NULL &&
        sqlite3_prepare_v3(q->db, stmt_sql[id], -1, SQLITE_PREPARE_PERSISTENT, &q->stmts[id],
                           NULL) != SQLITE_OK) {
        sq_set_sql_error(q, "cannot prepare statement");
        q->stmts[id] = NULL;
    }
    return q->stmts[id];
}

sqlite3_stmt *sq_spend_stmt(sqlite_store *q, rp_spend_group group)
{
    if (q->spend_stmts[group] != NULL) {
        return q->spend_stmts[group];
    }
    char sql[sizeof spend_sql_format + 128];
    snprintf(sql, sizeof sql, spend_sql_format, spend_key_sql[group],
             group == RP_SPEND_BY_NONE ? "" : " GROUP BY k ORDER BY k");
    if (sqlite3_prepare_v3(q->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &q->spend_stmts[group],
                           NULL) != SQLITE_OK) {
        sq_set_sql_error(q, "cannot prepare spend query");
        q->spend_stmts[group] = NULL;
    }
    return q->spend_stmts[group];
}

/* Steps a statement that returns no rows, then resets it. */
int sq_run(sqlite_store *q, sqlite3_stmt *st, const char *what)
{
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) {
        sq_set_sql_error(q, what);
    }
    sqlite3_reset(st);
    if (q->checkpoint_due) {
        checkpoint_truncate(q); /* only outside a transaction: else after the rollback */
    }
    return rc == SQLITE_DONE ? 0 : -1;
}

static int bind_text(sqlite_store *q, sqlite3_stmt *st, int index, const char *text, size_t len)
{
    if (len > INT_MAX) {
        rp_store_set_error(&q->base, "%s: value of %zu bytes is too large", q->path, len);
        return -1;
    }
    if (sqlite3_bind_text(st, index, text, (int)len, SQLITE_STATIC) != SQLITE_OK) {
        sq_set_sql_error(q, "cannot bind value");
        return -1;
    }
    return 0;
}

int sq_bind_str(sqlite_store *q, sqlite3_stmt *st, int index, const char *s)
{
    if (s == NULL) {
        return sqlite3_bind_null(st, index) == SQLITE_OK ? 0 : -1;
    }
    return bind_text(q, st, index, s, strlen(s));
}

/* Copies column 0 of the current row into the arena. Lengths come from SQLite, so a value
 * written by something else (a blob with NUL bytes) still reaches the JSON parser whole. */
void sq_column_to_arena(sqlite3_stmt *st, rp_arena *a, char **text, size_t *len)
{
    const unsigned char *data = sqlite3_column_text(st, 0);
    size_t n = (size_t)sqlite3_column_bytes(st, 0);
    char *copy = rp_arena_alloc(a, n + 1);
    if (n > 0) {
        memcpy(copy, data, n);
    }
    copy[n] = '\0';
    *text = copy;
    *len = n;
}

/* ---- transactions ---- */

static int64_t monotonic_us(void)
{
    /* Not rp_now_us(): RAMPART_NOW may freeze that clock, and this one measures waiting. */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static uint64_t next_jitter(sqlite_store *q)
{
    uint64_t x = q->jitter_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    q->jitter_state = x;
    return x;
}

static void sleep_us(int64_t us)
{
    struct timespec ts = {.tv_sec = (time_t)(us / 1000000), .tv_nsec = (long)(us % 1000000) * 1000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* Retrying while another process holds a lock: sleeps uniform in [delay/2, delay], the delay
 * doubling from 100 µs to 5 ms, never past the budget. */
typedef struct backoff {
    int64_t start_us;
    int64_t budget_us;
    int64_t delay_us;
    int attempts;
} backoff;

static void backoff_start(backoff *b, int budget_ms)
{
    b->start_us = monotonic_us();
    b->budget_us = (int64_t)budget_ms * 1000;
    b->delay_us = BEGIN_FIRST_DELAY_US;
    b->attempts = 1;
}

/* false when the budget is spent; otherwise sleeps and returns true (try again). */
static bool backoff_wait(sqlite_store *q, backoff *b)
{
    int64_t elapsed = monotonic_us() - b->start_us;
    if (elapsed >= b->budget_us) {
        return false;
    }
    int64_t pause = b->delay_us / 2 + (int64_t)(next_jitter(q) % (uint64_t)(b->delay_us / 2 + 1));
    if (pause > b->budget_us - elapsed) {
        pause = b->budget_us - elapsed;
    }
    sleep_us(pause);
    if (b->delay_us < BEGIN_MAX_DELAY_US) {
        b->delay_us *= 2;
    }
    b->attempts++;
    return true;
}

static double backoff_elapsed_s(const backoff *b)
{
    return (double)(monotonic_us() - b->start_us) / 1e6;
}

static int sq_begin(rp_store *s)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_BEGIN);
    if (st == NULL) {
        return -1;
    }
    backoff b;
    backoff_start(&b, q->begin_budget_ms);
    sqlite3_busy_timeout(q->db, 0); /* this loop does the waiting */
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_BUSY) {
        sqlite3_reset(st);
        if (!backoff_wait(q, &b)) {
            break;
        }
    }
    if (rc == SQLITE_BUSY) {
        rp_store_set_error(s,
                           "%s: database is locked by another process; gave up after %.1f s "
                           "(%d attempts)",
                           q->path, backoff_elapsed_s(&b), b.attempts);
    } else if (rc != SQLITE_DONE) {
        sq_set_sql_error(q, "cannot begin transaction");
    }
    sqlite3_reset(st);
    sqlite3_busy_timeout(q->db, BUSY_TIMEOUT_MS);
    return rc == SQLITE_DONE ? 0 : -1;
}

static void sq_rollback(rp_store *s)
{
    sqlite_store *q = sq(s);
    /* SQLite may already have rolled back on its own (e.g. after SQLITE_FULL). */
    if (!sqlite3_get_autocommit(q->db)) {
        sqlite3_stmt *st = sq_stmt(q, ST_ROLLBACK);
        if (st != NULL) {
            sqlite3_step(st);
            sqlite3_reset(st);
        }
    }
    if (q->checkpoint_due) {
        checkpoint_truncate(q);
    }
}

static int sq_commit(rp_store *s)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_COMMIT);
    if (st == NULL || sq_run(q, st, "cannot commit") != 0) {
        sq_rollback(s);
        return -1;
    }
    return 0;
}

/* ---- data ---- */

static int sq_load_state(rp_store *s, const char *session_id, rp_arena *a, char **text, size_t *len)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_LOAD_STATE);
    *text = NULL;
    *len = 0;
    if (st == NULL || sq_bind_str(q, st, 1, session_id) != 0) {
        return -1;
    }
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        sq_column_to_arena(st, a, text, len);
    } else if (rc != SQLITE_DONE) {
        sq_set_sql_error(q, "cannot load session state");
    }
    sqlite3_reset(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

static int sq_save_state(rp_store *s, const char *session_id, const char *text, size_t len,
                         int64_t now_us)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_SAVE_STATE);
    if (st == NULL || sq_bind_str(q, st, 1, session_id) != 0 ||
        bind_text(q, st, 2, text, len) != 0) {
        return -1;
    }
    sqlite3_bind_int64(st, 3, now_us);
    return sq_run(q, st, "cannot save session state");
}

static int sq_put_pending(rp_store *s, const char *session_id, const char *ask_key,
                          const char *updates, size_t updates_len, const char *policies,
                          size_t policies_len, int64_t now_us)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_PUT_PENDING);
    if (st == NULL || sq_bind_str(q, st, 1, session_id) != 0 ||
        sq_bind_str(q, st, 2, ask_key) != 0 || bind_text(q, st, 3, updates, updates_len) != 0 ||
        bind_text(q, st, 4, policies, policies_len) != 0) {
        return -1;
    }
    sqlite3_bind_int64(st, 5, now_us);
    return sq_run(q, st, "cannot store pending ask");
}

static int sq_take_pending_at(rp_store *s, const char *session_id, const char *ask_key, rp_arena *a,
                              char **text, size_t *len, int64_t *created_us)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_TAKE_PENDING_AT);
    if (st == NULL || sq_bind_str(q, st, 1, session_id) != 0 ||
        sq_bind_str(q, st, 2, ask_key) != 0) {
        return -1;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        sq_column_to_arena(st, a, text, len); /* at most one row: (session, key) is the key */
        *created_us = sqlite3_column_int64(st, 1);
    }
    if (rc != SQLITE_DONE) {
        sq_set_sql_error(q, "cannot take pending ask");
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int sq_audit(rp_store *s, const rp_audit_row *row)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_AUDIT_INSERT);
    if (st == NULL) {
        return -1;
    }
    sqlite3_bind_int64(st, 1, row->time_us);
    if (sq_bind_str(q, st, 2, row->session_id) != 0 ||
        sq_bind_str(q, st, 3, row->event_type) != 0 || sq_bind_str(q, st, 4, row->target) != 0 ||
        sq_bind_str(q, st, 5, row->result) != 0 || sq_bind_str(q, st, 6, row->reason) != 0 ||
        sq_bind_str(q, st, 7, row->policies) != 0 || sq_bind_str(q, st, 8, row->note) != 0) {
        return -1;
    }
    return sq_run(q, st, "cannot write audit row");
}

static int sq_audit_query(rp_store *s, const char *session_id, int64_t since_us,
                          int (*fn)(void *self, const rp_audit_row *row), void *self)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, session_id != NULL ? ST_AUDIT_QUERY_SESSION : ST_AUDIT_QUERY_ALL);
    if (st == NULL) {
        return -1;
    }
    sqlite3_bind_int64(st, 1, since_us);
    if (session_id != NULL && sq_bind_str(q, st, 2, session_id) != 0) {
        return -1;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        rp_audit_row row = {
            .time_us = sqlite3_column_int64(st, 0),
            .session_id = sq_column_str(st, 1),
            .event_type = sq_column_str(st, 2),
            .target = sq_column_str(st, 3),
            .result = sq_column_str(st, 4),
            .reason = sq_column_str(st, 5),
            .policies = sq_column_str(st, 6),
            .note = sq_column_str(st, 7),
        };
        if (fn(self, &row) != 0) {
            rc = SQLITE_DONE;
            break;
        }
    }
    if (rc != SQLITE_DONE) {
        sq_set_sql_error(q, "cannot read audit log");
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int sq_audit_prune(rp_store *s, int64_t before_us)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_AUDIT_PRUNE);
    if (st == NULL) {
        return -1;
    }
    sqlite3_bind_int64(st, 1, before_us);
    return sq_run(q, st, "cannot prune audit log");
}

static int sq_trust(rp_store *s, const char *dir, int64_t now_us)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_TRUST);
    if (st == NULL || sq_bind_str(q, st, 1, dir) != 0) {
        return -1;
    }
    sqlite3_bind_int64(st, 2, now_us);
    return sq_run(q, st, "cannot record trusted directory");
}

static int sq_untrust(rp_store *s, const char *dir)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_UNTRUST);
    if (st == NULL || sq_bind_str(q, st, 1, dir) != 0) {
        return -1;
    }
    return sq_run(q, st, "cannot remove trusted directory");
}

static int sq_is_trusted(rp_store *s, const char *dir, bool *trusted)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = sq_stmt(q, ST_IS_TRUSTED);
    *trusted = false;
    if (st == NULL || sq_bind_str(q, st, 1, dir) != 0) {
        return -1;
    }
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *trusted = true;
    } else if (rc != SQLITE_DONE) {
        sq_set_sql_error(q, "cannot read trusted directories");
    }
    sqlite3_reset(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

/* ---- open and close ---- */

static void sq_close(rp_store *s)
{
    sqlite_store *q = sq(s);
    for (int i = 0; i < ST_COUNT; i++) {
        sqlite3_finalize(q->stmts[i]);
    }
    for (int i = 0; i < SPEND_GROUPS; i++) {
        sqlite3_finalize(q->spend_stmts[i]);
    }
    sqlite3_close_v2(q->db);
    free(q->path);
    rp_store_base_free(s);
    free(q);
}

static const rp_store_ops sqlite_ops = {
    .name = "sqlite",
    .close = sq_close,
    .begin = sq_begin,
    .commit = sq_commit,
    .rollback = sq_rollback,
    .load_state = sq_load_state,
    .save_state = sq_save_state,
    .put_pending = sq_put_pending,
    .take_pending_at = sq_take_pending_at,
    .audit = sq_audit,
    .audit_query = sq_audit_query,
    .audit_prune = sq_audit_prune,
    .trust = sq_trust,
    .untrust = sq_untrust,
    .is_trusted = sq_is_trusted,
    .get_link = sq_get_link,
    .put_link = sq_put_link,
    .reroot = sq_reroot,
    .adopt_rows = sq_adopt_rows,
    .claim_budget = sq_claim_budget,
    .usage_exists = sq_usage_exists,
    .insert_usage = sq_insert_usage,
    .usage_tree = sq_usage_tree,
    .usage_subtree = sq_usage_subtree,
    .user_spend = sq_user_spend,
    .get_approval = sq_get_approval,
    .set_approval = sq_set_approval,
    .attach_budget = sq_attach_budget,
    .session_budget = sq_session_budget,
    .spend = sq_spend,
    .get_transcript = sq_get_transcript,
    .set_transcript_offset = sq_set_transcript_offset,
};

/* PRAGMA journal_mode answers with the mode actually in effect; anything but "wal" (a file
 * system without shared memory, say) would silently change the locking story, so it fails.
 *
 * Two processes creating the database at once both switch it from the rollback journal to WAL,
 * which needs an exclusive lock; SQLite then reports SQLITE_BUSY without calling the busy
 * handler (waiting could deadlock), so this retries on its own like rp_store_begin. */
static int enable_wal(sqlite_store *q, char *err, size_t err_size)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(q->db, "PRAGMA journal_mode=WAL", -1, &st, NULL) != SQLITE_OK) {
        snprintf(err, err_size, "%s: cannot enable WAL: %s", q->path, sqlite3_errmsg(q->db));
        sqlite3_finalize(st);
        return -1;
    }
    backoff b;
    backoff_start(&b, q->begin_budget_ms);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_BUSY) {
        sqlite3_reset(st);
        if (!backoff_wait(q, &b)) {
            break;
        }
    }
    if (rc != SQLITE_ROW) {
        snprintf(err, err_size, "%s: cannot enable WAL: %s", q->path, sqlite3_errmsg(q->db));
        sqlite3_finalize(st);
        return -1;
    }
    const char *mode = (const char *)sqlite3_column_text(st, 0);
    int ok = mode != NULL && strcmp(mode, "wal") == 0;
    if (!ok) {
        snprintf(err, err_size, "%s: cannot enable WAL (journal mode stays '%s')", q->path,
                 mode != NULL ? mode : "?");
    }
    sqlite3_finalize(st);
    return ok ? 0 : -1;
}

/* Copies the WAL into the database and truncates it, without waiting for readers (busy handler
 * off for the call): if they prevent it, the frames are still copied and a later call tries
 * again. A failed checkpoint is never an error of its own. */
static void truncate_wal(sqlite3 *db, const char *name)
{
    sqlite3_busy_timeout(db, 0);
    sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
    sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
}

/* After a write failed for want of space: copy the WAL into the database and truncate it, so
 * that the space it held is free for the next call. Runs outside any transaction, without
 * waiting for readers; if it cannot finish now, the next failed write tries again. */
static void checkpoint_truncate(sqlite_store *q)
{
    if (q->db == NULL || !sqlite3_get_autocommit(q->db)) {
        return;
    }
    q->checkpoint_due = false;
    truncate_wal(q->db, NULL);
}

/* True when the file system holding the database has less room than twice what the WAL holds:
 * a checkpoint may need to grow the database by as much as the WAL (each frame a page), and the
 * WAL keeps growing until then. Past that point the WAL could fill the disk and leave no room to
 * checkpoint it, and every later write would fail. One statvfs per commit, only once the WAL
 * holds a few frames. */
static bool short_of_space(const sqlite_store *q, int frames)
{
    if (frames < WAL_SPACE_CHECK_FRAMES) {
        return false;
    }
    struct statvfs fs;
    if (statvfs(q->path, &fs) != 0) {
        return false;
    }
    unsigned long long room = (unsigned long long)fs.f_bavail * fs.f_frsize;
    return room < 2ULL * (unsigned long long)frames * WAL_FRAME_BYTES;
}

/* Runs after each commit in WAL mode. A checkpoint here TRUNCATEs the WAL rather than leaving
 * it to be reused (SQLite's automatic checkpoint is PASSIVE): every fresh process rebuilds the WAL
 * index by reading the whole WAL, and forgets how much of it was already checkpointed, so a WAL
 * left long would be re-checkpointed (and fsynced) by every hook process. If readers prevent the
 * truncation the frames are still copied, and a later commit tries again. Non-blocking. */
static int after_commit(void *self, sqlite3 *db, const char *name, int frames)
{
    if (frames < WAL_CHECKPOINT_FRAMES && !short_of_space(self, frames)) {
        return SQLITE_OK;
    }
    truncate_wal(db, name);
    return SQLITE_OK; /* a failed checkpoint is not a failed commit */
}

static int open_db(sqlite_store *q, char *err, size_t err_size)
{
    int rc = sqlite3_open_v2(
        q->path, &q->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW, NULL);
    if (rc != SQLITE_OK) {
        char cause[256];
        if (q->db != NULL) {
            describe_sql_error(q->db, cause, sizeof cause);
        } else {
            snprintf(cause, sizeof cause, "%s", sqlite3_errstr(rc));
        }
        snprintf(err, err_size, "%s: cannot open database: %s", q->path, cause);
        return -1;
    }
    sqlite3_busy_timeout(q->db, BUSY_TIMEOUT_MS);
    /* By default the last connection to close checkpoints the WAL into the database and
     * fsyncs it: in the hook case that is every process, ~10 ms each. Instead after_commit()
     * checkpoints once the WAL holds WAL_CHECKPOINT_FRAMES frames (replacing SQLite's automatic
     * checkpoint). */
    sqlite3_wal_hook(q->db, after_commit, q);
    if (sqlite3_db_config(q->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)NULL) != SQLITE_OK) {
        snprintf(err, err_size, "%s: cannot configure checkpointing: %s", q->path,
                 sqlite3_errmsg(q->db));
        return -1;
    }
    if (enable_wal(q, err, err_size) != 0) {
        return -1;
    }
    if (sqlite3_exec(q->db, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(err, err_size, "%s: cannot set synchronous=NORMAL: %s", q->path,
                 sqlite3_errmsg(q->db));
        return -1;
    }
    /* Temporary b-trees (the UNION of the ledger's recursive subtree walk, GROUP BY sorts) in
     * memory: with the default, a temporary file is created for each execution, and the subtree
     * sum took ~1.4 ms instead of ~20 µs (bench_ledger). */
    if (sqlite3_exec(q->db, "PRAGMA temp_store=MEMORY", NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(err, err_size, "%s: cannot set temp_store=MEMORY: %s", q->path,
                 sqlite3_errmsg(q->db));
        return -1;
    }
    return rp_store_schema_migrate(q->db, q->path, err, err_size);
}

rp_store *rp_store_sqlite_create(const char *dir, char *err, size_t err_size)
{
    char fallback_err[RP_STORE_ERROR_SIZE];
    if (err == NULL || err_size == 0) {
        err = fallback_err;
        err_size = sizeof fallback_err;
    }
    err[0] = '\0';

    char default_dir[PATH_MAX];
    if (dir == NULL) {
        dir = rp_store_default_dir(default_dir, sizeof default_dir);
        if (dir == NULL) {
            snprintf(err, err_size,
                     "cannot determine the state directory: set RAMPART_STATE_DIR or HOME");
            return NULL;
        }
    }
    if (dir[0] == '\0') {
        snprintf(err, err_size, "state directory is empty");
        return NULL;
    }

    sqlite_store *q = calloc(1, sizeof *q);
    if (q == NULL) {
        abort();
    }
    rp_store_base_init(&q->base, &sqlite_ops);
    q->begin_budget_ms = BEGIN_BUDGET_MS;
    q->jitter_state = ((uint64_t)getpid() << 32) ^ (uint64_t)monotonic_us() ^ 0x9e3779b97f4a7c15u;

    mode_t old_umask = umask(077);
    char real[PATH_MAX];
    int rc = make_dirs(dir, err, err_size);
    if (rc == 0) {
        rc = resolve_dir(dir, real, err, err_size);
    }
    if (rc == 0) {
        /* realpath() gives no trailing slash; "/" is the one directory ending in one. */
        size_t dir_len = strlen(real);
        q->path = malloc(dir_len + sizeof "/state.db");
        if (q->path == NULL) {
            abort();
        }
        memcpy(q->path, real, dir_len);
        strcpy(q->path + dir_len, strcmp(real, "/") == 0 ? "state.db" : "/state.db");
        rc = prepare_files(q->path, err, err_size);
    }
    if (rc == 0) {
        rc = open_db(q, err, err_size);
    }
    umask(old_umask);

    if (rc != 0) {
        sq_close(&q->base);
        return NULL;
    }
    return &q->base;
}

void rp_store_sqlite_set_busy_budget_ms(rp_store *s, int ms)
{
    if (s != NULL && s->ops == &sqlite_ops && ms >= 0) {
        sq(s)->begin_budget_ms = ms;
    }
}
