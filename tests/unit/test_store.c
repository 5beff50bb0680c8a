/* test_store.c — the state store, each shared test run against both backends, plus the
 * SQLite-only properties (file modes, corrupt rows, schema versions, locking, reopening). */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "core/arena.h"
#include "core/json.h"
#include "store/store.h"
#include "store/store_backend.h"
#include "store/store_schema.h"
#include "remove_tree.h"

typedef struct fixture {
    bool sqlite;
    char base[128];      /* private temp directory, removed by teardown */
    char state_dir[160]; /* base/state (sqlite) */
    rp_store *s;
    rp_arena arena;
} fixture;

/* ---- helpers ---- */

static void make_base(fixture *f)
{
    snprintf(f->base, sizeof f->base, "/tmp/rampart-test-store-XXXXXX");
    assert_non_null(mkdtemp(f->base));
    snprintf(f->state_dir, sizeof f->state_dir, "%s/state", f->base);
}

static void db_path(const fixture *f, char *out, size_t size)
{
    snprintf(out, size, "%s/state.db", f->state_dir);
}

static rp_store *open_sqlite_or_fail(const char *dir)
{
    char err[1024] = "";
    rp_store *s = rp_store_open_sqlite(dir, err, sizeof err);
    if (s == NULL) {
        fail_msg("open %s: %s", dir, err);
    }
    return s;
}

static rp_json *parse(rp_arena *a, const char *text)
{
    rp_json_error err;
    rp_json *v = rp_json_parse(a, text, strlen(text), &err);
    if (v == NULL) {
        fail_msg("test JSON does not parse: %s: %s", text, err.msg);
    }
    return v;
}

static void assert_json_equal(rp_arena *a, const rp_json *got, const char *want_text)
{
    assert_non_null(got);
    rp_json *want = parse(a, want_text);
    if (!rp_json_equal(got, want, false)) {
        fail_msg("JSON differs: got %s, want %s", rp_json_to_string(a, got), want_text);
    }
}

static void assert_contains(const char *haystack, const char *needle)
{
    if (haystack == NULL || strstr(haystack, needle) == NULL) {
        fail_msg("'%s' does not contain '%s'", haystack ? haystack : "(null)", needle);
    }
}

/* Runs SQL against the database behind the store's back (to plant bad data). */
static void raw_sql(const fixture *f, const char *sql)
{
    char path[400];
    db_path(f, path, sizeof path);
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        fail_msg("raw SQL failed: %s", msg);
    }
    sqlite3_close(db);
}

static mode_t mode_of(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fail_msg("stat %s: %s", path, strerror(errno));
    }
    return st.st_mode & 07777;
}

/* ---- fixtures ---- */

static int setup_memory(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    make_base(f); /* trust tests need real directories with either backend */
    f->s = rp_store_open_memory();
    assert_non_null(f->s);
    *state = f;
    return 0;
}

static int setup_sqlite(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->sqlite = true;
    make_base(f);
    f->s = open_sqlite_or_fail(f->state_dir);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    rp_store_close(f->s);
    rp_arena_free(&f->arena);
    remove_tree(f->base);
    free(f);
    return 0;
}

/* ---- shared tests (both backends) ---- */

static void test_state_round_trip(void **state)
{
    fixture *f = *state;
    rp_arena *a = &f->arena;
    const char *text = "{\"n\":1,\"f\":1.0,\"neg\":-9223372036854775808,"
                       "\"big\":18446744073709551615,\"s\":\"h\\u00e9llo \xe6\x97\xa5\xe6\x9c\xac "
                       "\xf0\x9f\x98\x80\",\"esc\":\"q\\\"b\\\\n\\nnul\\u0000end\","
                       "\"nested\":{\"a\":[1,2.5,{\"b\":null,\"t\":true}],\"e\":{},\"l\":[]}}";
    rp_json *in = parse(a, text);
    assert_int_equal(rp_store_save_state(f->s, "sess-1", in), 0);

    rp_json *out = NULL;
    assert_int_equal(rp_store_load_state(f->s, "sess-1", a, &out), 0);
    assert_json_equal(a, out, text);
    /* The number kinds survive: 1 stays an integer, 1.0 a double. */
    assert_int_equal(rp_json_get(out, "n")->type, RP_JSON_INT);
    assert_int_equal(rp_json_get(out, "f")->type, RP_JSON_DOUBLE);
    assert_int_equal(rp_json_get(out, "big")->type, RP_JSON_UINT);

    /* Saving again replaces; another session is independent. */
    assert_int_equal(rp_store_save_state(f->s, "sess-1", parse(a, "{\"n\":2}")), 0);
    assert_int_equal(rp_store_save_state(f->s, "sess-2", parse(a, "{\"other\":\"x\"}")), 0);
    assert_int_equal(rp_store_load_state(f->s, "sess-1", a, &out), 0);
    assert_json_equal(a, out, "{\"n\":2}");
    assert_int_equal(rp_store_load_state(f->s, "sess-2", a, &out), 0);
    assert_json_equal(a, out, "{\"other\":\"x\"}");
}

static void test_missing_session_is_empty_object(void **state)
{
    fixture *f = *state;
    rp_json *out = NULL;
    assert_int_equal(rp_store_load_state(f->s, "never-seen", &f->arena, &out), 0);
    assert_non_null(out);
    assert_int_equal(out->type, RP_JSON_OBJECT);
    assert_int_equal(out->len, 0);
}

static void test_bad_arguments_are_errors(void **state)
{
    fixture *f = *state;
    rp_arena *a = &f->arena;
    rp_json *out = NULL;

    assert_int_equal(rp_store_save_state(f->s, "s", parse(a, "[1]")), -1);
    assert_contains(rp_store_error(f->s), "must be an object");
    assert_int_equal(rp_store_save_state(f->s, "s", NULL), -1);
    assert_int_equal(rp_store_save_state(f->s, "", parse(a, "{}")), -1);
    assert_contains(rp_store_error(f->s), "session id is empty");
    assert_int_equal(rp_store_load_state(f->s, NULL, a, &out), -1);
    assert_null(out);
    assert_int_equal(rp_store_put_pending(f->s, "s", "k", parse(a, "{}"), NULL, 1), -1);
    assert_contains(rp_store_error(f->s), "must be an array");
    assert_int_equal(rp_store_put_pending(f->s, "s", "k", parse(a, "[]"), parse(a, "\"p\""), 1),
                     -1);
    assert_int_equal(rp_store_put_pending(f->s, "s", "", parse(a, "[]"), NULL, 1), -1);
    assert_contains(rp_store_error(f->s), "ask key is empty");

    /* Nothing of the rejected calls was stored. */
    assert_int_equal(rp_store_load_state(f->s, "s", a, &out), 0);
    assert_int_equal(out->len, 0);
    assert_int_equal(rp_store_take_pending(f->s, "s", "k", a, &out), 0);
    assert_null(out);
}

static void test_pending_put_take(void **state)
{
    fixture *f = *state;
    rp_arena *a = &f->arena;
    const char *updates = "[{\"key\":\"_policy_cost\",\"action\":\"set\",\"value\":1.5,"
                          "\"policy\":\"cost checkpoint\"}]";
    assert_int_equal(rp_store_put_pending(f->s, "s1", "toolu_1", parse(a, updates),
                                          parse(a, "[\"cost checkpoint\"]"), 1000),
                     0);
    assert_int_equal(
        rp_store_put_pending(f->s, "s2", "toolu_1", parse(a, "[{\"key\":\"x\"}]"), NULL, 1000), 0);

    rp_json *out = parse(a, "\"sentinel\"");
    assert_int_equal(rp_store_take_pending(f->s, "s1", "toolu_other", a, &out), 0);
    assert_null(out);

    assert_int_equal(rp_store_take_pending(f->s, "s1", "toolu_1", a, &out), 0);
    assert_json_equal(a, out, updates);
    assert_int_equal(rp_store_take_pending(f->s, "s1", "toolu_1", a, &out), 0);
    assert_null(out); /* taken means gone */

    /* The other session's entry with the same key is untouched. */
    assert_int_equal(rp_store_take_pending(f->s, "s2", "toolu_1", a, &out), 0);
    assert_json_equal(a, out, "[{\"key\":\"x\"}]");

    /* Putting the same key twice keeps the latest. */
    assert_int_equal(rp_store_put_pending(f->s, "s1", "k", parse(a, "[1]"), NULL, 1), 0);
    assert_int_equal(rp_store_put_pending(f->s, "s1", "k", parse(a, "[2]"), NULL, 2), 0);
    assert_int_equal(rp_store_take_pending(f->s, "s1", "k", a, &out), 0);
    assert_json_equal(a, out, "[2]");
    assert_int_equal(rp_store_take_pending(f->s, "s1", "k", a, &out), 0);
    assert_null(out);
}

typedef struct audit_log {
    int n;
    int stop_after; /* 0 = never */
    int64_t times[16];
    char sessions[16][32];
    char targets[16][32]; /* "(null)" for NULL */
    char reasons[16][64];
    char policies[16][64];
    rp_store *store; /* for the re-entry test */
    int reentry_rc;
} audit_log;

static int collect_audit(void *self, const rp_audit_row *row)
{
    audit_log *log = self;
    if (log->store != NULL) {
        rp_arena a = {0};
        rp_json *st = NULL;
        log->reentry_rc = rp_store_load_state(log->store, "s1", &a, &st);
        rp_arena_free(&a);
    }
    if (log->n < 16) {
        log->times[log->n] = row->time_us;
        snprintf(log->sessions[log->n], 32, "%s", row->session_id);
        snprintf(log->targets[log->n], 32, "%s", row->target ? row->target : "(null)");
        snprintf(log->reasons[log->n], 64, "%s", row->reason ? row->reason : "(null)");
        snprintf(log->policies[log->n], 64, "%s", row->policies);
    }
    log->n++;
    return log->stop_after != 0 && log->n >= log->stop_after;
}

static void add_audit(rp_store *s, int64_t t, const char *session, const char *result,
                      const char *reason)
{
    rp_audit_row row = {.time_us = t,
                        .session_id = session,
                        .event_type = "tool_call",
                        .target = strcmp(result, "ALLOW") == 0 ? NULL : "Bash",
                        .result = result,
                        .reason = reason,
                        .policies = reason ? "[\"detect_loop\"]" : NULL};
    if (rp_store_audit(s, &row) != 0) {
        fail_msg("audit insert: %s", rp_store_error(s));
    }
}

static void test_audit_insert_query_prune(void **state)
{
    fixture *f = *state;
    add_audit(f->s, 100, "s1", "ALLOW", NULL);
    add_audit(f->s, 200, "s2", "DENY", "loop detected");
    add_audit(f->s, 300, "s1", "ASK", "approval required");
    add_audit(f->s, 150, "s1", "DENY", "late writer"); /* out of order: queries sort by time */

    audit_log all = {0};
    assert_int_equal(rp_store_audit_query(f->s, NULL, 0, collect_audit, &all), 0);
    assert_int_equal(all.n, 4);
    assert_int_equal(all.times[0], 100);
    assert_int_equal(all.times[1], 150);
    assert_int_equal(all.times[2], 200);
    assert_int_equal(all.times[3], 300);
    assert_string_equal(all.targets[0], "(null)");
    assert_string_equal(all.reasons[0], "(null)");
    assert_string_equal(all.policies[0], "[]");
    assert_string_equal(all.sessions[2], "s2");
    assert_string_equal(all.targets[2], "Bash");
    assert_string_equal(all.reasons[2], "loop detected");
    assert_string_equal(all.policies[2], "[\"detect_loop\"]");

    audit_log s1 = {0};
    assert_int_equal(rp_store_audit_query(f->s, "s1", 0, collect_audit, &s1), 0);
    assert_int_equal(s1.n, 3);
    assert_int_equal(s1.times[0], 100);
    assert_int_equal(s1.times[1], 150);
    assert_int_equal(s1.times[2], 300);

    audit_log since = {0};
    assert_int_equal(rp_store_audit_query(f->s, NULL, 150, collect_audit, &since), 0);
    assert_int_equal(since.n, 3);
    assert_int_equal(since.times[0], 150);

    audit_log s1_since = {0};
    assert_int_equal(rp_store_audit_query(f->s, "s1", 200, collect_audit, &s1_since), 0);
    assert_int_equal(s1_since.n, 1);
    assert_int_equal(s1_since.times[0], 300);

    audit_log first = {.stop_after = 1};
    assert_int_equal(rp_store_audit_query(f->s, NULL, 0, collect_audit, &first), 0);
    assert_int_equal(first.n, 1);

    assert_int_equal(rp_store_audit_prune(f->s, 200), 0);
    audit_log kept = {0};
    assert_int_equal(rp_store_audit_query(f->s, NULL, 0, collect_audit, &kept), 0);
    assert_int_equal(kept.n, 2);
    assert_int_equal(kept.times[0], 200);
    assert_int_equal(kept.times[1], 300);
}

static void test_audit_rejects_bad_rows(void **state)
{
    fixture *f = *state;
    rp_audit_row row = {
        .time_us = 1, .session_id = "s", .event_type = "tool_call", .result = "MAYBE"};
    assert_int_equal(rp_store_audit(f->s, &row), -1);
    assert_contains(rp_store_error(f->s), "MAYBE");
    row.result = "DENY";
    row.policies = "not json";
    assert_int_equal(rp_store_audit(f->s, &row), -1);
    assert_contains(rp_store_error(f->s), "JSON array");
    row.policies = "{\"a\":1}";
    assert_int_equal(rp_store_audit(f->s, &row), -1);
    row.policies = NULL;
    row.event_type = NULL;
    assert_int_equal(rp_store_audit(f->s, &row), -1);
    assert_int_equal(rp_store_audit(f->s, NULL), -1);
    assert_int_equal(rp_store_audit_query(f->s, NULL, 0, NULL, NULL), -1);

    audit_log none = {0};
    assert_int_equal(rp_store_audit_query(f->s, NULL, 0, collect_audit, &none), 0);
    assert_int_equal(none.n, 0);
}

static void test_audit_callback_cannot_reenter(void **state)
{
    fixture *f = *state;
    add_audit(f->s, 1, "s1", "ALLOW", NULL);
    audit_log log = {.store = f->s, .reentry_rc = 0};
    assert_int_equal(rp_store_audit_query(f->s, NULL, 0, collect_audit, &log), 0);
    assert_int_equal(log.n, 1);
    assert_int_equal(log.reentry_rc, -1);
    /* Usable again once the query is over. */
    rp_json *st = NULL;
    assert_int_equal(rp_store_load_state(f->s, "s1", &f->arena, &st), 0);
}

static void test_trust_with_symlink(void **state)
{
    fixture *f = *state;
    char real[400], link[400], other[400], gone[400], dotted[600];
    snprintf(real, sizeof real, "%s/project", f->base);
    snprintf(link, sizeof link, "%s/project-link", f->base);
    snprintf(other, sizeof other, "%s/other", f->base);
    snprintf(gone, sizeof gone, "%s/gone", f->base);
    snprintf(dotted, sizeof dotted, "%s/other/../project/", f->base);
    assert_int_equal(mkdir(real, 0700), 0);
    assert_int_equal(mkdir(other, 0700), 0);
    assert_int_equal(mkdir(gone, 0700), 0);
    assert_int_equal(symlink(real, link), 0);

    assert_false(rp_store_is_trusted(f->s, real));
    assert_int_equal(rp_store_trust(f->s, link, 42), 0);
    assert_true(rp_store_is_trusted(f->s, real));
    assert_true(rp_store_is_trusted(f->s, link));
    assert_true(rp_store_is_trusted(f->s, dotted));
    assert_false(rp_store_is_trusted(f->s, other));
    assert_int_equal(rp_store_trust(f->s, real, 43), 0); /* again: still one entry */

    assert_int_equal(rp_store_untrust(f->s, dotted), 0);
    assert_false(rp_store_is_trusted(f->s, link));
    assert_false(rp_store_is_trusted(f->s, real));
    assert_int_equal(rp_store_untrust(f->s, real), 0); /* untrusting twice is fine */

    /* A directory that does not exist cannot be trusted, nor is it trusted. */
    char missing[600];
    snprintf(missing, sizeof missing, "%s/missing", f->base);
    assert_int_equal(rp_store_trust(f->s, missing, 1), -1);
    assert_contains(rp_store_error(f->s), "missing");
    assert_false(rp_store_is_trusted(f->s, missing));
    assert_int_equal(rp_store_trust(f->s, "", 1), -1);

    /* A trusted directory that was deleted can still be untrusted by its absolute path; if it
     * reappears it is no longer trusted. */
    char gone_canon[PATH_MAX];
    assert_non_null(realpath(gone, gone_canon));
    assert_int_equal(rp_store_trust(f->s, gone, 1), 0);
    assert_int_equal(rmdir(gone), 0);
    assert_int_equal(rp_store_untrust(f->s, gone_canon), 0);
    assert_int_equal(mkdir(gone, 0700), 0);
    assert_false(rp_store_is_trusted(f->s, gone));
}

static void test_begin_twice_is_an_error(void **state)
{
    fixture *f = *state;
    assert_int_equal(rp_store_commit(f->s), -1);
    assert_contains(rp_store_error(f->s), "commit without begin");
    assert_int_equal(rp_store_begin(f->s), 0);
    assert_int_equal(rp_store_begin(f->s), -1);
    assert_contains(rp_store_error(f->s), "begin inside an open transaction");
    assert_int_equal(rp_store_save_state(f->s, "s", parse(&f->arena, "{\"n\":1}")), 0);
    assert_int_equal(rp_store_commit(f->s), 0);
    assert_int_equal(rp_store_commit(f->s), -1);
    rp_store_rollback(f->s); /* nothing open: harmless */
    assert_int_equal(rp_store_begin(f->s), 0);
    rp_store_rollback(f->s);
    assert_int_equal(rp_store_begin(f->s), 0);
    assert_int_equal(rp_store_commit(f->s), 0);

    rp_json *out = NULL;
    assert_int_equal(rp_store_load_state(f->s, "s", &f->arena, &out), 0);
    assert_json_equal(&f->arena, out, "{\"n\":1}");
}

/* ---- SQLite only ---- */

static void test_sqlite_rollback_discards(void **state)
{
    fixture *f = *state;
    rp_arena *a = &f->arena;
    assert_int_equal(rp_store_save_state(f->s, "s", parse(a, "{\"n\":1}")), 0);
    assert_int_equal(rp_store_begin(f->s), 0);
    assert_int_equal(rp_store_save_state(f->s, "s", parse(a, "{\"n\":2}")), 0);
    rp_store_rollback(f->s);
    rp_json *out = NULL;
    assert_int_equal(rp_store_load_state(f->s, "s", a, &out), 0);
    assert_json_equal(a, out, "{\"n\":1}");
}

static void test_sqlite_corrupt_rows_are_errors(void **state)
{
    fixture *f = *state;
    rp_arena *a = &f->arena;
    raw_sql(f, "INSERT INTO session_state VALUES ('broken', '{\"n\":', 1);"
               "INSERT INTO session_state VALUES ('array', '[1,2]', 1);"
               "INSERT INTO session_state VALUES ('blob', CAST(X'7B7D00' AS BLOB), 1);"
               "INSERT INTO pending_ask VALUES ('broken', 'k', 'nope', '[]', 1);"
               "INSERT INTO pending_ask VALUES ('object', 'k', '{}', '[]', 1);");
    rp_json *out = parse(a, "{}");
    assert_int_equal(rp_store_load_state(f->s, "broken", a, &out), -1);
    assert_null(out);
    assert_contains(rp_store_error(f->s), "corrupt state of session 'broken'");
    assert_int_equal(rp_store_load_state(f->s, "array", a, &out), -1);
    assert_contains(rp_store_error(f->s), "not an object");
    assert_int_equal(rp_store_load_state(f->s, "blob", a, &out), -1); /* "{}\0": trailing NUL */
    assert_contains(rp_store_error(f->s), "corrupt state");
    assert_int_equal(rp_store_take_pending(f->s, "broken", "k", a, &out), -1);
    assert_null(out);
    assert_contains(rp_store_error(f->s), "corrupt pending updates");
    assert_int_equal(rp_store_take_pending(f->s, "object", "k", a, &out), -1);
    assert_contains(rp_store_error(f->s), "not an array");
}

static void test_sqlite_file_and_dir_modes(void **state)
{
    fixture *f = *state;
    char dir[400], path[600];
    snprintf(dir, sizeof dir, "%s/a/b/rampart", f->base);

    mode_t old = umask(022); /* a typical permissive umask must not leak into our files */
    rp_store *s = open_sqlite_or_fail(dir);
    umask(old);
    assert_int_equal(rp_store_save_state(s, "s", parse(&f->arena, "{\"n\":1}")), 0);

    snprintf(path, sizeof path, "%s/a", f->base);
    assert_int_equal(mode_of(path), 0700);
    snprintf(path, sizeof path, "%s/a/b", f->base);
    assert_int_equal(mode_of(path), 0700);
    assert_int_equal(mode_of(dir), 0700);
    snprintf(path, sizeof path, "%s/state.db", dir);
    assert_int_equal(mode_of(path), 0600);
    snprintf(path, sizeof path, "%s/state.db-wal", dir);
    assert_int_equal(mode_of(path), 0600);
    snprintf(path, sizeof path, "%s/state.db-shm", dir);
    assert_int_equal(mode_of(path), 0600);
    rp_store_close(s);

    /* An existing directory keeps its mode; an existing database file of ours is narrowed. */
    char shared[400];
    snprintf(shared, sizeof shared, "%s/shared", f->base);
    assert_int_equal(mkdir(shared, 0700), 0);
    assert_int_equal(chmod(shared, 0750), 0);
    snprintf(path, sizeof path, "%s/state.db", shared);
    int fd = open(path, O_CREAT | O_WRONLY, 0600);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(chmod(path, 0644), 0);
    s = open_sqlite_or_fail(shared);
    assert_int_equal(mode_of(shared), 0750);
    assert_int_equal(mode_of(path), 0600);
    rp_store_close(s);
}

static void test_sqlite_future_schema_is_refused(void **state)
{
    fixture *f = *state;
    rp_store_close(f->s);
    f->s = NULL;
    raw_sql(f, "PRAGMA user_version = 99");

    char err[1024] = "";
    rp_store *s = rp_store_open_sqlite(f->state_dir, err, sizeof err);
    assert_null(s);
    assert_contains(err, "schema version 99 is newer");
    assert_contains(err, f->state_dir);
}

static void test_sqlite_not_a_database(void **state)
{
    fixture *f = *state;
    char dir[400], path[600];
    snprintf(dir, sizeof dir, "%s/junk", f->base);
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(path, sizeof path, "%s/state.db", dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    for (int i = 0; i < 64; i++) {
        fputs("this is not an sqlite database. ", fp);
    }
    fclose(fp);

    char err[1024] = "";
    assert_null(rp_store_open_sqlite(dir, err, sizeof err));
    assert_contains(err, path);
    assert_contains(err, "not a database");
}

static void test_sqlite_symlinked_db_is_refused(void **state)
{
    fixture *f = *state;
    char dir[400], target[600], path[600];
    snprintf(dir, sizeof dir, "%s/planted", f->base);
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(target, sizeof target, "%s/elsewhere.db", f->base);
    snprintf(path, sizeof path, "%s/state.db", dir);
    assert_int_equal(symlink(target, path), 0);

    char err[1024] = "";
    assert_null(rp_store_open_sqlite(dir, err, sizeof err));
    assert_contains(err, path);
    assert_int_equal(access(target, F_OK), -1); /* nothing was created through the link */
}

static void test_sqlite_reopen_keeps_data(void **state)
{
    fixture *f = *state;
    rp_arena *a = &f->arena;
    char project[400];
    snprintf(project, sizeof project, "%s/project", f->base);
    assert_int_equal(mkdir(project, 0700), 0);

    assert_int_equal(rp_store_begin(f->s), 0);
    assert_int_equal(rp_store_save_state(f->s, "s", parse(a, "{\"n\":7,\"u\":\"\xc3\xa9\"}")), 0);
    assert_int_equal(rp_store_put_pending(f->s, "s", "k", parse(a, "[{\"key\":\"a\"}]"), NULL, 5),
                     0);
    add_audit(f->s, 10, "s", "DENY", "because");
    assert_int_equal(rp_store_trust(f->s, project, 5), 0);
    assert_int_equal(rp_store_commit(f->s), 0);
    rp_store_close(f->s);

    f->s = open_sqlite_or_fail(f->state_dir);
    rp_json *out = NULL;
    assert_int_equal(rp_store_load_state(f->s, "s", a, &out), 0);
    assert_json_equal(a, out, "{\"n\":7,\"u\":\"\xc3\xa9\"}");
    assert_int_equal(rp_store_take_pending(f->s, "s", "k", a, &out), 0);
    assert_json_equal(a, out, "[{\"key\":\"a\"}]");
    assert_true(rp_store_is_trusted(f->s, project));
    audit_log log = {0};
    assert_int_equal(rp_store_audit_query(f->s, "s", 0, collect_audit, &log), 0);
    assert_int_equal(log.n, 1);
    assert_string_equal(log.reasons[0], "because");

    /* The schema is at the version this binary writes. */
    char path[400];
    db_path(f, path, sizeof path);
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(st, 0), rp_store_schema_latest());
    sqlite3_finalize(st);
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "wal");
    sqlite3_finalize(st);
    sqlite3_close(db);
}

static void test_sqlite_busy_gives_up_with_message(void **state)
{
    fixture *f = *state;
    rp_store *other = open_sqlite_or_fail(f->state_dir);
    assert_int_equal(rp_store_begin(f->s), 0);

    /* A short budget: the outcome (a clear error) does not depend on how long it is. */
    rp_store_sqlite_set_busy_budget_ms(other, 20);
    assert_int_equal(rp_store_begin(other), -1);
    assert_contains(rp_store_error(other), "locked by another process");
    assert_contains(rp_store_error(other), f->state_dir);

    assert_int_equal(rp_store_commit(f->s), 0);
    assert_int_equal(rp_store_begin(other), 0);
    assert_int_equal(rp_store_commit(other), 0);
    rp_store_close(other);
}

static void test_sqlite_open_errors(void **state)
{
    fixture *f = *state;
    char err[1024] = "";
    char file[400];
    snprintf(file, sizeof file, "%s/plainfile", f->base);
    FILE *fp = fopen(file, "w");
    assert_non_null(fp);
    fclose(fp);

    assert_null(rp_store_open_sqlite(file, err, sizeof err));
    assert_contains(err, "not a directory");
    assert_null(rp_store_open_sqlite("", err, sizeof err));
    assert_contains(err, "empty");
    char below_file[600];
    snprintf(below_file, sizeof below_file, "%s/sub/dir", file);
    assert_null(rp_store_open_sqlite(below_file, err, sizeof err));
    assert_contains(err, file);
}

/* ---- default directory (no fixture) ---- */

static void restore_env(const char *name, const char *saved)
{
    if (saved != NULL) {
        setenv(name, saved, 1);
    } else {
        unsetenv(name);
    }
}

static char *saved_env(const char *name)
{
    const char *v = getenv(name);
    return v != NULL ? strdup(v) : NULL;
}

static void test_default_dir(void **state)
{
    char *state_dir = saved_env("RAMPART_STATE_DIR");
    char *xdg = saved_env("XDG_STATE_HOME");
    char *home = saved_env("HOME");
    char buf[PATH_MAX];

    setenv("RAMPART_STATE_DIR", "/srv/rampart-state", 1);
    setenv("XDG_STATE_HOME", "/x/state", 1);
    setenv("HOME", "/home/u", 1);
    assert_string_equal(rp_store_default_dir(buf, sizeof buf), "/srv/rampart-state");
    setenv("RAMPART_STATE_DIR", "", 1); /* empty = unset */
    assert_string_equal(rp_store_default_dir(buf, sizeof buf), "/x/state/rampart");
    setenv("XDG_STATE_HOME", "relative/state", 1); /* invalid per XDG: ignored */
    assert_string_equal(rp_store_default_dir(buf, sizeof buf), "/home/u/.local/state/rampart");
    unsetenv("XDG_STATE_HOME");
    assert_string_equal(rp_store_default_dir(buf, sizeof buf), "/home/u/.local/state/rampart");
    char tiny[8];
    assert_null(rp_store_default_dir(tiny, sizeof tiny));

    restore_env("RAMPART_STATE_DIR", state_dir);
    restore_env("XDG_STATE_HOME", xdg);
    restore_env("HOME", home);
    free(state_dir);
    free(xdg);
    free(home);
}

static void test_memory_store_basics(void **state)
{
    rp_store *s = rp_store_open_memory();
    assert_non_null(s);
    assert_string_equal(rp_store_error(s), "");
    rp_store_close(s);
    rp_store_close(NULL);
    assert_string_equal(rp_store_error(NULL), "no store");
    assert_int_equal(rp_store_begin(NULL), -1);
}

/* Each shared test runs twice, named after its backend so a failure says which one. */
#define BOTH(test)                                                                                 \
    {"memory/" #test, test, setup_memory, teardown, NULL},                                         \
    {                                                                                              \
        "sqlite/" #test, test, setup_sqlite, teardown, NULL                                        \
    }
#define SQLITE(test)                                                                               \
    {                                                                                              \
        "sqlite/" #test, test, setup_sqlite, teardown, NULL                                        \
    }

int main(void)
{
    const struct CMUnitTest tests[] = {
        BOTH(test_state_round_trip),
        BOTH(test_missing_session_is_empty_object),
        BOTH(test_bad_arguments_are_errors),
        BOTH(test_pending_put_take),
        BOTH(test_audit_insert_query_prune),
        BOTH(test_audit_rejects_bad_rows),
        BOTH(test_audit_callback_cannot_reenter),
        BOTH(test_trust_with_symlink),
        BOTH(test_begin_twice_is_an_error),
        SQLITE(test_sqlite_rollback_discards),
        SQLITE(test_sqlite_corrupt_rows_are_errors),
        SQLITE(test_sqlite_file_and_dir_modes),
        SQLITE(test_sqlite_future_schema_is_refused),
        SQLITE(test_sqlite_not_a_database),
        SQLITE(test_sqlite_symlinked_db_is_refused),
        SQLITE(test_sqlite_reopen_keeps_data),
        SQLITE(test_sqlite_busy_gives_up_with_message),
        SQLITE(test_sqlite_open_errors),
        cmocka_unit_test(test_default_dir),
        cmocka_unit_test(test_memory_store_basics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
