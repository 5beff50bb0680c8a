/* store_sqlite.c — the SQLite backend: <dir>/state.db in WAL mode.
 *
 * Files. The directory tree is created 0700 and the database file 0600, with umask(077) held
 * for the whole open so that SQLite's -wal and -shm files (created by the first read in WAL
 * mode) cannot come out wider either. An existing directory keeps its mode (the user chose it,
 * perhaps a shared RAMPART_STATE_DIR); an existing database file owned by us is narrowed to 0600
 * because it holds session state and the audit log. umask is process-wide: open stores from one
 * thread at a time.
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
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store/store_backend.h"
#include "store/store_schema.h"

#define BUSY_TIMEOUT_MS       5000 /* for statements outside rp_store_begin's own loop */
#define BEGIN_BUDGET_MS       5000
#define BEGIN_FIRST_DELAY_US  100
#define BEGIN_MAX_DELAY_US    5000
#define WAL_CHECKPOINT_FRAMES 100 /* ~400 KiB: a fresh process scans the whole WAL */

enum stmt_id {
    ST_BEGIN,
    ST_COMMIT,
    ST_ROLLBACK,
    ST_LOAD_STATE,
    ST_SAVE_STATE,
    ST_PUT_PENDING,
    ST_TAKE_PENDING,
    ST_AUDIT_INSERT,
    ST_AUDIT_QUERY_ALL,
    ST_AUDIT_QUERY_SESSION,
    ST_AUDIT_PRUNE,
    ST_TRUST,
    ST_UNTRUST,
    ST_IS_TRUSTED,
    ST_COUNT
};

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
    /* RETURNING (SQLite ≥ 3.35, PostgreSQL): take is one atomic statement even outside a
     * transaction, so two processes can never both take the same approval. */
    [ST_TAKE_PENDING] = "DELETE FROM pending_ask WHERE session_id = ?1 AND ask_key = ?2 "
                        "RETURNING updates",
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
};

typedef struct sqlite_store {
    rp_store base; /* first: rp_store * and sqlite_store * convert */
    sqlite3 *db;
    char *path; /* <dir>/state.db, for messages */
    sqlite3_stmt *stmts[ST_COUNT];
    int begin_budget_ms;
    uint64_t jitter_state; /* xorshift64: spreads two waiters' retries apart */
} sqlite_store;

static sqlite_store *sq(rp_store *s)
{
    return (sqlite_store *)s;
}

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
    const char *home = getenv("HOME");
    if (home == NULL || home[0] == '\0') {
        struct passwd *pw = getpwuid(getuid());
        home = pw != NULL ? pw->pw_dir : NULL;
    }
    if (home == NULL || home[0] == '\0') {
        return NULL;
    }
    int n = snprintf(buf, size, "%s/.local/state/rampart", home);
    return n >= 0 && (size_t)n < size ? buf : NULL;
}

/* mkdir -p. Components created here get 0700 (umask is 077 during open); existing ones are
 * left alone. */
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
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, err_size, "state directory %s is not a directory", path);
        return -1;
    }
    return 0;
}

/* Creates the database file 0600 before SQLite sees it, or narrows an existing one of ours.
 * O_NOFOLLOW: a symlink planted at state.db must not redirect our writes. */
static int prepare_db_file(const char *path, char *err, size_t err_size)
{
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        snprintf(err, err_size, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) != 0) {
        snprintf(err, err_size, "cannot stat %s: %s", path, strerror(errno));
        rc = -1;
    } else if (!S_ISREG(st.st_mode)) {
        snprintf(err, err_size, "%s is not a regular file", path);
        rc = -1;
    } else if ((st.st_mode & 077) != 0 && st.st_uid == geteuid() && fchmod(fd, 0600) != 0) {
        snprintf(err, err_size, "cannot chmod %s to 0600: %s", path, strerror(errno));
        rc = -1;
    }
    close(fd);
    return rc;
}

/* ---- statements and errors ---- */

static void set_sql_error(sqlite_store *q, const char *what)
{
    rp_store_set_error(&q->base, "%s: %s: %s", q->path, what, sqlite3_errmsg(q->db));
}

static sqlite3_stmt *stmt(sqlite_store *q, enum stmt_id id)
{
    if (q->stmts[id] == NULL &&
        sqlite3_prepare_v3(q->db, stmt_sql[id], -1, SQLITE_PREPARE_PERSISTENT, &q->stmts[id],
                           NULL) != SQLITE_OK) {
        set_sql_error(q, "cannot prepare statement");
        q->stmts[id] = NULL;
    }
    return q->stmts[id];
}

/* Steps a statement that returns no rows, then resets it. */
static int run(sqlite_store *q, sqlite3_stmt *st, const char *what)
{
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) {
        set_sql_error(q, what);
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int bind_text(sqlite_store *q, sqlite3_stmt *st, int index, const char *text, size_t len)
{
    if (len > INT_MAX) {
        rp_store_set_error(&q->base, "%s: value of %zu bytes is too large", q->path, len);
        return -1;
    }
    if (sqlite3_bind_text(st, index, text, (int)len, SQLITE_STATIC) != SQLITE_OK) {
        set_sql_error(q, "cannot bind value");
        return -1;
    }
    return 0;
}

static int bind_str(sqlite_store *q, sqlite3_stmt *st, int index, const char *s)
{
    if (s == NULL) {
        return sqlite3_bind_null(st, index) == SQLITE_OK ? 0 : -1;
    }
    return bind_text(q, st, index, s, strlen(s));
}

/* Copies column 0 of the current row into the arena. Lengths come from SQLite, so a value
 * written by something else (a blob with NUL bytes) still reaches the JSON parser whole. */
static void column_to_arena(sqlite3_stmt *st, rp_arena *a, char **text, size_t *len)
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
    sqlite3_stmt *st = stmt(q, ST_BEGIN);
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
        set_sql_error(q, "cannot begin transaction");
    }
    sqlite3_reset(st);
    sqlite3_busy_timeout(q->db, BUSY_TIMEOUT_MS);
    return rc == SQLITE_DONE ? 0 : -1;
}

static void sq_rollback(rp_store *s)
{
    sqlite_store *q = sq(s);
    /* SQLite may already have rolled back on its own (e.g. after SQLITE_FULL). */
    if (sqlite3_get_autocommit(q->db)) {
        return;
    }
    sqlite3_stmt *st = stmt(q, ST_ROLLBACK);
    if (st != NULL) {
        sqlite3_step(st);
        sqlite3_reset(st);
    }
}

static int sq_commit(rp_store *s)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = stmt(q, ST_COMMIT);
    if (st == NULL || run(q, st, "cannot commit") != 0) {
        sq_rollback(s);
        return -1;
    }
    return 0;
}

/* ---- data ---- */

static int sq_load_state(rp_store *s, const char *session_id, rp_arena *a, char **text, size_t *len)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = stmt(q, ST_LOAD_STATE);
    *text = NULL;
    *len = 0;
    if (st == NULL || bind_str(q, st, 1, session_id) != 0) {
        return -1;
    }
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        column_to_arena(st, a, text, len);
    } else if (rc != SQLITE_DONE) {
        set_sql_error(q, "cannot load session state");
    }
    sqlite3_reset(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

static int sq_save_state(rp_store *s, const char *session_id, const char *text, size_t len,
                         int64_t now_us)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = stmt(q, ST_SAVE_STATE);
    if (st == NULL || bind_str(q, st, 1, session_id) != 0 || bind_text(q, st, 2, text, len) != 0) {
        return -1;
    }
    sqlite3_bind_int64(st, 3, now_us);
    return run(q, st, "cannot save session state");
}

static int sq_put_pending(rp_store *s, const char *session_id, const char *ask_key,
                          const char *updates, size_t updates_len, const char *policies,
                          size_t policies_len, int64_t now_us)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = stmt(q, ST_PUT_PENDING);
    if (st == NULL || bind_str(q, st, 1, session_id) != 0 || bind_str(q, st, 2, ask_key) != 0 ||
        bind_text(q, st, 3, updates, updates_len) != 0 ||
        bind_text(q, st, 4, policies, policies_len) != 0) {
        return -1;
    }
    sqlite3_bind_int64(st, 5, now_us);
    return run(q, st, "cannot store pending ask");
}

static int sq_take_pending(rp_store *s, const char *session_id, const char *ask_key, rp_arena *a,
                           char **text, size_t *len)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = stmt(q, ST_TAKE_PENDING);
    *text = NULL;
    *len = 0;
    if (st == NULL || bind_str(q, st, 1, session_id) != 0 || bind_str(q, st, 2, ask_key) != 0) {
        return -1;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        column_to_arena(st, a, text, len); /* at most one row: (session, key) is the key */
    }
    if (rc != SQLITE_DONE) {
        set_sql_error(q, "cannot take pending ask");
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int sq_audit(rp_store *s, const rp_audit_row *row)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = stmt(q, ST_AUDIT_INSERT);
    if (st == NULL) {
        return -1;
    }
    sqlite3_bind_int64(st, 1, row->time_us);
    if (bind_str(q, st, 2, row->session_id) != 0 || bind_str(q, st, 3, row->event_type) != 0 ||
        bind_str(q, st, 4, row->target) != 0 || bind_str(q, st, 5, row->result) != 0 ||
        bind_str(q, st, 6, row->reason) != 0 || bind_str(q, st, 7, row->policies) != 0 ||
        bind_str(q, st, 8, row->note) != 0) {
        return -1;
    }
    return run(q, st, "cannot write audit row");
}

static const char *column_str(sqlite3_stmt *st, int col)
{
    return (const char *)sqlite3_column_text(st, col); /* NULL for SQL NULL */
}

static int sq_audit_query(rp_store *s, const char *session_id, int64_t since_us,
                          int (*fn)(void *self, const rp_audit_row *row), void *self)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = stmt(q, session_id != NULL ? ST_AUDIT_QUERY_SESSION : ST_AUDIT_QUERY_ALL);
    if (st == NULL) {
        return -1;
    }
    sqlite3_bind_int64(st, 1, since_us);
    if (session_id != NULL && bind_str(q, st, 2, session_id) != 0) {
        return -1;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        rp_audit_row row = {
            .time_us = sqlite3_column_int64(st, 0),
            .session_id = column_str(st, 1),
            .event_type = column_str(st, 2),
            .target = column_str(st, 3),
            .result = column_str(st, 4),
            .reason = column_str(st, 5),
            .policies = column_str(st, 6),
            .note = column_str(st, 7),
        };
        if (fn(self, &row) != 0) {
            rc = SQLITE_DONE;
            break;
        }
    }
    if (rc != SQLITE_DONE) {
        set_sql_error(q, "cannot read audit log");
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int sq_audit_prune(rp_store *s, int64_t before_us)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = stmt(q, ST_AUDIT_PRUNE);
    if (st == NULL) {
        return -1;
    }
    sqlite3_bind_int64(st, 1, before_us);
    return run(q, st, "cannot prune audit log");
}

static int sq_trust(rp_store *s, const char *dir, int64_t now_us)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = stmt(q, ST_TRUST);
    if (st == NULL || bind_str(q, st, 1, dir) != 0) {
        return -1;
    }
    sqlite3_bind_int64(st, 2, now_us);
    return run(q, st, "cannot record trusted directory");
}

static int sq_untrust(rp_store *s, const char *dir)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = stmt(q, ST_UNTRUST);
    if (st == NULL || bind_str(q, st, 1, dir) != 0) {
        return -1;
    }
    return run(q, st, "cannot remove trusted directory");
}

static int sq_is_trusted(rp_store *s, const char *dir, bool *trusted)
{
    sqlite_store *q = sq(s);
    sqlite3_stmt *st = stmt(q, ST_IS_TRUSTED);
    *trusted = false;
    if (st == NULL || bind_str(q, st, 1, dir) != 0) {
        return -1;
    }
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *trusted = true;
    } else if (rc != SQLITE_DONE) {
        set_sql_error(q, "cannot read trusted directories");
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
    .take_pending = sq_take_pending,
    .audit = sq_audit,
    .audit_query = sq_audit_query,
    .audit_prune = sq_audit_prune,
    .trust = sq_trust,
    .untrust = sq_untrust,
    .is_trusted = sq_is_trusted,
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

/* Runs after each commit in WAL mode. A checkpoint here TRUNCATEs the WAL rather than leaving
 * it to be reused (SQLite's automatic checkpoint is PASSIVE): every fresh process rebuilds the WAL
 * index by reading the whole WAL, and forgets how much of it was already checkpointed, so a WAL
 * left long would be re-checkpointed (and fsynced) by every hook process. If readers prevent the
 * truncation the frames are still copied, and a later commit tries again. Non-blocking. */
static int after_commit(void *self, sqlite3 *db, const char *name, int frames)
{
    if (frames < WAL_CHECKPOINT_FRAMES) {
        return SQLITE_OK;
    }
    sqlite3_busy_timeout(db, 0);
    sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
    sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
    return SQLITE_OK; /* a failed checkpoint is not a failed commit */
}

static int open_db(sqlite_store *q, char *err, size_t err_size)
{
    int rc = sqlite3_open_v2(
        q->path, &q->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, err_size, "%s: cannot open database: %s", q->path,
                 q->db != NULL ? sqlite3_errmsg(q->db) : sqlite3_errstr(rc));
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

    /* "dir/" and "dir" name the same file; keep messages tidy. */
    size_t dir_len = strlen(dir);
    while (dir_len > 1 && dir[dir_len - 1] == '/') {
        dir_len--;
    }
    q->path = malloc(dir_len + sizeof "/state.db");
    if (q->path == NULL) {
        abort();
    }
    memcpy(q->path, dir, dir_len);
    strcpy(q->path + dir_len, dir_len == 1 && dir[0] == '/' ? "state.db" : "/state.db");

    mode_t old_umask = umask(077);
    int rc = make_dirs(dir, err, err_size);
    if (rc == 0) {
        rc = prepare_db_file(q->path, err, err_size);
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
