/* test_store_ledger.c — the spend ledger of the state store (store.h, "the spend ledger"): every
 * shared test runs against both backends, plus SQLite-only checks of transactions (rollback,
 * a failure half-way through a record), reopening and the migration from schema version 2. */
#include <dirent.h>
#include <limits.h>
#include <math.h>
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
#include "core/clock.h"
#include "store/store.h"
#include "store/store_schema.h"
#include "remove_tree.h"

typedef struct fixture {
    bool sqlite;
    char base[128];
    char state_dir[160];
    rp_store *s;
    rp_arena arena;
} fixture;

/* ---- helpers ---- */

static rp_store *open_sqlite_or_fail(const char *dir)
{
    char err[1024] = "";
    rp_store *s = rp_store_open_sqlite(dir, err, sizeof err);
    if (s == NULL) {
        fail_msg("open %s: %s", dir, err);
    }
    return s;
}

static void make_base(fixture *f)
{
    snprintf(f->base, sizeof f->base, "/tmp/rampart-test-ledger-XXXXXX");
    assert_non_null(mkdtemp(f->base));
    snprintf(f->state_dir, sizeof f->state_dir, "%s/state", f->base);
}

static void db_path(const fixture *f, char *out, size_t size)
{
    snprintf(out, size, "%s/state.db", f->state_dir);
}

/* Runs SQL against the database behind the store's back. */
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

/* The single integer a raw query answers. */
static int64_t raw_int(const fixture *f, const char *sql)
{
    char path[400];
    db_path(f, path, sizeof path);
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        fail_msg("raw query failed: %s: %s", sql, sqlite3_errmsg(db));
    }
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int64_t v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

static void assert_contains(const char *haystack, const char *needle)
{
    if (haystack == NULL || strstr(haystack, needle) == NULL) {
        fail_msg("'%s' does not contain '%s'", haystack ? haystack : "(null)", needle);
    }
}

static void assert_str_or_null(const char *got, const char *want)
{
    if (want == NULL) {
        if (got != NULL) {
            fail_msg("got '%s', want NULL", got);
        }
        return;
    }
    if (got == NULL) {
        fail_msg("got NULL, want '%s'", want);
    }
    assert_string_equal(got, want);
}

static int64_t at(const char *rfc3339)
{
    int64_t us = 0;
    if (rp_rfc3339_parse(rfc3339, &us) != 0) {
        fail_msg("bad test time %s", rfc3339);
    }
    return us;
}

#define NOON "2026-03-15T12:00:00Z"

/* A priced record of 100/10/1/2 tokens (113 in all). */
static rp_usage_record usage(const char *session, const char *time, int64_t cost_nusd)
{
    rp_usage_record r = {
        .time_us = at(time),
        .session_id = session,
        .model = "m1",
        .input_tokens = 100,
        .output_tokens = 10,
        .cache_read_input_tokens = 1,
        .cache_creation_input_tokens = 2,
        .priced = true,
        .cost_nusd = cost_nusd,
    };
    return r;
}

static void record(fixture *f, const rp_usage_record *r)
{
    bool dup = true;
    if (rp_store_record_usage(f->s, r, &dup) != 0) {
        fail_msg("record %s: %s", r->session_id, rp_store_error(f->s));
    }
    assert_false(dup);
}

static rp_store_session_link link_of(fixture *f, const char *sid, const char *parent,
                                     const char *root, const char *user)
{
    rp_store_session_link l;
    if (rp_store_link_session(f->s, sid, parent, root, user, at(NOON), &f->arena, &l) != 0) {
        fail_msg("link %s: %s", sid, rp_store_error(f->s));
    }
    assert_string_equal(l.session_id, sid);
    return l;
}

static void assert_link(const rp_store_session_link *l, const char *parent, const char *root,
                        const char *user, const char *owner)
{
    assert_str_or_null(l->parent_session_id, parent);
    assert_str_or_null(l->root_session_id, root);
    assert_str_or_null(l->user_id, user);
    assert_str_or_null(l->owner_id, owner);
}

static rp_usage_totals tree(fixture *f, const char *root)
{
    rp_usage_totals t;
    if (rp_store_usage_tree(f->s, root, &t) != 0) {
        fail_msg("tree %s: %s", root, rp_store_error(f->s));
    }
    return t;
}

static rp_usage_totals subtree(fixture *f, const char *sid)
{
    rp_usage_totals t;
    if (rp_store_usage_subtree(f->s, sid, &t) != 0) {
        fail_msg("subtree %s: %s", sid, rp_store_error(f->s));
    }
    return t;
}

static rp_usage_totals user_spend(fixture *f, const char *user, const char *first, const char *last)
{
    rp_usage_totals t;
    if (rp_store_user_spend(f->s, user, first, last, &t) != 0) {
        fail_msg("user spend %s: %s", user, rp_store_error(f->s));
    }
    return t;
}

static char *budget_of(fixture *f, const char *sid)
{
    char *json = (char *)"sentinel";
    if (rp_store_session_budget(f->s, sid, &f->arena, &json) != 0) {
        fail_msg("budget %s: %s", sid, rp_store_error(f->s));
    }
    return json;
}

static double approval(fixture *f, const char *user, const char *period, const char *start)
{
    double v = -1.0;
    if (rp_store_get_user_approval(f->s, user, period, start, &v) != 0) {
        fail_msg("approval: %s", rp_store_error(f->s));
    }
    return v;
}

static void approve(fixture *f, const char *user, const char *period, const char *start, double usd)
{
    if (rp_store_set_user_approval(f->s, user, period, start, usd, at(NOON)) != 0) {
        fail_msg("approve: %s", rp_store_error(f->s));
    }
}

/* Collected spend rows (keys copied). */
typedef struct spend_rows {
    rp_store *store;
    int n;
    char keys[64][64];
    rp_usage_totals totals[64];
    int stop_after; /* 0 = never */
    int reentry_rc;
} spend_rows;

static int collect_spend(void *self, const rp_spend_row *row)
{
    spend_rows *r = self;
    if (r->n >= 64) {
        fail_msg("too many spend rows");
    }
    snprintf(r->keys[r->n], sizeof r->keys[r->n], "%s", row->key);
    r->totals[r->n] = row->totals;
    r->n++;
    if (r->store != NULL) {
        rp_usage_totals t;
        r->reentry_rc = rp_store_usage_tree(r->store, "x", &t);
    }
    return r->stop_after != 0 && r->n >= r->stop_after;
}

static spend_rows *spend(fixture *f, const char *user, const char *session, const char *first,
                         const char *last, rp_spend_group group)
{
    static spend_rows rows;
    memset(&rows, 0, sizeof rows);
    rp_spend_query q = {.user_id = user,
                        .session_id = session,
                        .first_day = first,
                        .last_day = last,
                        .group = group};
    if (rp_store_spend(f->s, &q, collect_spend, &rows) != 0) {
        fail_msg("spend: %s", rp_store_error(f->s));
    }
    return &rows;
}

/* A rejected argument's message names the backend ("memory store: …", "sqlite store: …");
 * SQL failures name the database path instead (test_sqlite_failed_record_leaves_nothing). */
static void assert_error_names_backend(fixture *f)
{
    assert_contains(rp_store_error(f->s), f->sqlite ? "sqlite store: " : "memory store: ");
}

/* ---- fixtures ---- */

static int setup_memory(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    make_base(f);
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

/* ---- links ---- */

static void test_link_root_resolution(void **state)
{
    fixture *f = *state;
    rp_store_session_link l = link_of(f, "r", NULL, NULL, "alice");
    assert_link(&l, NULL, "r", "alice", "alice");

    /* A child takes the parent's root and, without an owner, the root's owner. */
    l = link_of(f, "c", "r", NULL, NULL);
    assert_link(&l, "r", "r", NULL, "alice");
    l = link_of(f, "g", "c", NULL, NULL);
    assert_link(&l, "c", "r", NULL, "alice");
    /* A sub-agent naming its own user is still charged to its root's owner. */
    l = link_of(f, "g2", "c", NULL, "bob");
    assert_link(&l, "c", "r", "bob", "alice");

    /* A stated root wins over the parent; a stated root that is itself a child resolves to the
     * true root and becomes the parent (the nearest ancestor known: its subtree must hold y). */
    l = link_of(f, "x", NULL, "r", NULL);
    assert_link(&l, NULL, "r", NULL, "alice");
    l = link_of(f, "y", NULL, "c", NULL);
    assert_link(&l, "c", "r", NULL, "alice");

    /* Known facts are never replaced by NULL or "", nor changed: the parent and the user. */
    l = link_of(f, "c", NULL, NULL, NULL);
    assert_link(&l, "r", "r", NULL, "alice");
    l = link_of(f, "c", "", "", "");
    assert_link(&l, "r", "r", NULL, "alice");
    link_of(f, "other", NULL, NULL, "mallory");
    l = link_of(f, "c", "other", "other", NULL);
    assert_link(&l, "r", "r", NULL, "alice");
    l = link_of(f, "c", NULL, NULL, "carol"); /* a missing user is filled in… */
    assert_link(&l, "r", "r", "carol",
                "alice"); /* …but the tree's spend stays its root's owner's */
    l = link_of(f, "c", NULL, NULL, "dave");
    assert_link(&l, "r", "r", "carol", "alice");

    /* A session stated as its own parent or root is a root. */
    l = link_of(f, "self", "self", "self", NULL);
    assert_link(&l, NULL, "self", NULL, NULL);

    /* Unknown everything: a root without an owner. */
    l = link_of(f, "lonely", NULL, NULL, NULL);
    assert_link(&l, NULL, "lonely", NULL, NULL);

    /* A session with a root but no parent yet may still get its parent, once. */
    l = link_of(f, "x", "c", NULL, NULL);
    assert_link(&l, "c", "r", NULL, "alice");
    l = link_of(f, "x", "g", NULL, NULL);
    assert_link(&l, "c", "r", NULL, "alice");
}

static void test_link_child_before_parent(void **state)
{
    fixture *f = *state;
    link_of(f, "r", NULL, NULL, "alice");
    /* The child is seen first: its parent is unknown, so the parent is its root for now. */
    rp_store_session_link l = link_of(f, "k", "p", NULL, NULL);
    assert_link(&l, "p", "p", NULL, NULL);
    record(f, &(rp_usage_record){.time_us = at(NOON),
                                 .session_id = "k",
                                 .priced = true,
                                 .cost_nusd = 5,
                                 .input_tokens = 1});
    assert_int_equal(tree(f, "p").cost_nusd, 5);

    /* When the parent links under r, the whole tree moves: k's root, owner and spend. */
    l = link_of(f, "p", "r", NULL, NULL);
    assert_link(&l, "r", "r", NULL, "alice");
    l = link_of(f, "k", NULL, NULL, NULL);
    assert_link(&l, "p", "r", NULL, "alice");
    assert_int_equal(tree(f, "r").cost_nusd, 5);
    assert_int_equal(tree(f, "p").records, 0);
    assert_int_equal(subtree(f, "p").cost_nusd, 5);
    assert_int_equal(subtree(f, "r").cost_nusd, 5);

    /* An open root joins a tree once; a later parent is ignored. */
    link_of(f, "solo", NULL, NULL, NULL);
    l = link_of(f, "solo", "r", NULL, NULL);
    assert_link(&l, "r", "r", NULL, "alice");
    link_of(f, "r2", NULL, NULL, "bob");
    l = link_of(f, "solo", "r2", NULL, NULL);
    assert_link(&l, "r", "r", NULL, "alice");
}

static void test_link_refuses_cycles(void **state)
{
    fixture *f = *state;
    link_of(f, "r", NULL, NULL, "alice");
    link_of(f, "c", "r", NULL, NULL);
    link_of(f, "g", "c", NULL, NULL);
    /* The root cannot become a child of its own descendant, by parent or by root. */
    rp_store_session_link l = link_of(f, "r", "g", NULL, NULL);
    assert_link(&l, NULL, "r", "alice", "alice");
    l = link_of(f, "r", NULL, "g", NULL);
    assert_link(&l, NULL, "r", "alice", "alice");

    /* A child linked before its parent cannot make the parent its own child either. */
    link_of(f, "b", "a", NULL, NULL); /* a unknown: b's root is a */
    l = link_of(f, "a", "b", NULL, NULL);
    assert_link(&l, NULL, "a", NULL, NULL);

    /* A session whose root is stated but whose descendant is offered as its parent. */
    link_of(f, "t", NULL, "r", NULL);
    link_of(f, "tc", "t", NULL, NULL);
    l = link_of(f, "t", "tc", NULL, NULL);
    assert_link(&l, NULL, "r", NULL, "alice");

    /* Sums still end. */
    assert_int_equal(subtree(f, "a").records, 0);
    assert_int_equal(subtree(f, "r").records, 0);
}

static void test_budget_claim_order(void **state)
{
    fixture *f = *state;
    link_of(f, "p", NULL, NULL, "alice");
    assert_int_equal(rp_store_attach_budget(f->s, "p", NULL, "{\"max_cost_usd\":1}", 10), 0);
    assert_int_equal(rp_store_attach_budget(f->s, "p", NULL, "{\"max_cost_usd\":2}", 20), 0);
    assert_int_equal(rp_store_attach_budget(f->s, "q", NULL, "{\"max_cost_usd\":9}", 5), 0);
    assert_null(budget_of(f, "c1"));

    link_of(f, "c1", "p", NULL, NULL);
    assert_string_equal(budget_of(f, "c1"), "{\"max_cost_usd\":1}");
    /* Linking again claims nothing more. */
    link_of(f, "c1", "p", NULL, NULL);
    link_of(f, "c2", "p", NULL, NULL);
    assert_string_equal(budget_of(f, "c1"), "{\"max_cost_usd\":1}");
    assert_string_equal(budget_of(f, "c2"), "{\"max_cost_usd\":2}");
    link_of(f, "c3", "p", NULL, NULL);
    assert_null(budget_of(f, "c3")); /* q's budget is not p's */
    assert_null(budget_of(f, "p"));

    /* A budget attached to a named child is that child's; it does not take another. */
    assert_int_equal(rp_store_attach_budget(f->s, "p", "c4", "{\"max_cost_usd\":4}", 30), 0);
    assert_int_equal(rp_store_attach_budget(f->s, "p", NULL, "{\"max_cost_usd\":5}", 40), 0);
    link_of(f, "c4", "p", NULL, NULL);
    assert_string_equal(budget_of(f, "c4"), "{\"max_cost_usd\":4}");
    link_of(f, "c5", "p", NULL, NULL);
    assert_string_equal(budget_of(f, "c5"), "{\"max_cost_usd\":5}");

    /* A child seen before it ever states its parent claims when it first does. */
    assert_int_equal(rp_store_attach_budget(f->s, "p", NULL, "{\"max_cost_usd\":6}", 50), 0);
    link_of(f, "late", NULL, NULL, NULL);
    assert_null(budget_of(f, "late"));
    link_of(f, "late", "p", NULL, NULL);
    assert_string_equal(budget_of(f, "late"), "{\"max_cost_usd\":6}");

    /* A record that links a new child claims too. */
    assert_int_equal(rp_store_attach_budget(f->s, "p", NULL, "{\"max_cost_usd\":7}", 60), 0);
    rp_usage_record r = usage("c7", NOON, 1);
    r.parent_session_id = "p";
    record(f, &r);
    assert_string_equal(budget_of(f, "c7"), "{\"max_cost_usd\":7}");

    /* Only JSON objects are budgets. */
    assert_int_equal(rp_store_attach_budget(f->s, "p", NULL, "[1]", 70), -1);
    assert_contains(rp_store_error(f->s), "must be a JSON object");
    assert_int_equal(rp_store_attach_budget(f->s, "p", NULL, "{", 70), -1);
    assert_int_equal(rp_store_attach_budget(f->s, "", NULL, "{}", 70), -1);
    assert_contains(rp_store_error(f->s), "parent session id is empty");
    link_of(f, "c8", "p", NULL, NULL);
    assert_null(budget_of(f, "c8"));
}

/* ---- usage ---- */

static void test_record_and_aggregates(void **state)
{
    fixture *f = *state;
    link_of(f, "r", NULL, NULL, "alice");
    link_of(f, "c", "r", NULL, NULL);
    link_of(f, "g", "c", NULL, NULL);
    link_of(f, "c2", "r", NULL, "bob");
    for (int i = 0; i < 3; i++) {
        rp_usage_record r = usage("r", NOON, 1000);
        record(f, &r);
    }
    rp_usage_record r = usage("c", NOON, 200);
    record(f, &r);
    record(f, &r);
    r = usage("g", NOON, 30);
    r.input_tokens = 7;
    record(f, &r);
    r = usage("c2", NOON, 4);
    record(f, &r);

    rp_usage_totals t = tree(f, "r");
    assert_int_equal(t.records, 7);
    assert_int_equal(t.input_tokens, 6 * 100 + 7);
    assert_int_equal(t.output_tokens, 70);
    assert_int_equal(t.cache_read_input_tokens, 7);
    assert_int_equal(t.cache_creation_input_tokens, 14);
    assert_int_equal(t.cost_nusd, 3434);
    assert_int_equal(t.priced_records, 7);
    assert_int_equal(t.unpriced_records, 0);
    assert_int_equal(t.unpriced_tokens, 0);

    /* Subtrees: the session and its descendants only. */
    assert_int_equal(subtree(f, "c").cost_nusd, 430);
    assert_int_equal(subtree(f, "c").records, 3);
    assert_int_equal(subtree(f, "g").cost_nusd, 30);
    assert_int_equal(subtree(f, "c2").cost_nusd, 4);
    assert_int_equal(subtree(f, "r").cost_nusd, 3434);
    assert_int_equal(subtree(f, "unknown").records, 0);
    assert_int_equal(tree(f, "unknown").records, 0);
    assert_int_equal(tree(f, "c").records, 0); /* c is not a root */

    /* Per user: the whole tree charges its root's owner, whatever user a sub-agent names. */
    assert_int_equal(user_spend(f, "alice", "2026-03-15", "2026-03-15").cost_nusd, 3434);
    assert_int_equal(user_spend(f, "alice", "2026-03-15", "2026-03-15").records, 7);
    assert_int_equal(user_spend(f, "bob", "2026-03-15", "2026-03-15").records, 0);
    assert_int_equal(user_spend(f, "carol", "2026-03-15", "2026-03-15").records, 0);

    /* A record's own user links the session's user when it has none, but cannot move spend
     * off the tree's owner: neither for a new session joining the tree nor for a known one. */
    r = usage("new", NOON, 9);
    r.user_id = "dave";
    r.root_session_id = "r";
    record(f, &r);
    assert_int_equal(user_spend(f, "dave", "2026-03-15", "2026-03-15").records, 0);
    assert_int_equal(user_spend(f, "alice", "2026-03-15", "2026-03-15").cost_nusd, 3443);
    assert_int_equal(tree(f, "r").cost_nusd, 3443);
    rp_store_session_link l = link_of(f, "new", NULL, NULL, NULL);
    assert_link(&l, NULL, "r", "dave", "alice");
    r = usage("c", NOON, 1);
    r.user_id = "erin";
    record(f, &r);
    assert_int_equal(user_spend(f, "erin", "2026-03-15", "2026-03-15").records, 0);
    assert_int_equal(user_spend(f, "alice", "2026-03-15", "2026-03-15").cost_nusd, 3444);

    /* A root session's record charges that session's own first user, not a later one. */
    r = usage("solo", NOON, 5);
    r.user_id = "frank";
    record(f, &r);
    r.user_id = "Frank";
    record(f, &r);
    assert_int_equal(user_spend(f, "frank", "2026-03-15", "2026-03-15").cost_nusd, 10);
    assert_int_equal(user_spend(f, "Frank", "2026-03-15", "2026-03-15").records, 0);

    /* A session without any owner charges no user; the session is still summed. */
    r = usage("nobody", NOON, 11);
    record(f, &r);
    assert_int_equal(tree(f, "nobody").cost_nusd, 11);
    spend_rows *rows = spend(f, NULL, NULL, NULL, NULL, RP_SPEND_BY_USER);
    assert_int_equal(rows->n, 3);
    assert_string_equal(rows->keys[0], ""); /* nobody's */
    assert_int_equal(rows->totals[0].cost_nusd, 11);
}

static void test_record_dedupe(void **state)
{
    fixture *f = *state;
    rp_usage_record r = usage("s", NOON, 100);
    r.user_id = "alice";
    r.record_id = "msg_1";
    bool dup = true;
    assert_int_equal(rp_store_record_usage(f->s, &r, &dup), 0);
    assert_false(dup);
    r.cost_nusd = 999; /* a replay with different numbers changes nothing either */
    r.parent_session_id = "p";
    r.time_us = at("2026-03-16T12:00:00Z");
    assert_int_equal(rp_store_record_usage(f->s, &r, &dup), 0);
    assert_true(dup);
    assert_int_equal(rp_store_record_usage(f->s, &r, NULL), 0);
    assert_int_equal(tree(f, "s").records, 1);
    assert_int_equal(tree(f, "s").cost_nusd, 100);
    assert_int_equal(user_spend(f, "alice", "2026-03-01", "2026-03-31").cost_nusd, 100);
    rp_store_session_link l = link_of(f, "s", NULL, NULL, NULL);
    assert_link(&l, NULL, "s", "alice", "alice"); /* the duplicate's parent was not linked */

    /* The same id in another session is another record. */
    r = usage("s2", NOON, 5);
    r.record_id = "msg_1";
    record(f, &r);
    assert_int_equal(tree(f, "s2").records, 1);

    /* Without an id ("" counts as none) nothing is deduplicated. */
    r = usage("s", NOON, 1);
    record(f, &r);
    record(f, &r);
    r.record_id = "";
    record(f, &r);
    record(f, &r);
    assert_int_equal(tree(f, "s").records, 5);
    assert_int_equal(tree(f, "s").cost_nusd, 104);
}

static void test_unpriced_accounting(void **state)
{
    fixture *f = *state;
    link_of(f, "r", NULL, NULL, "alice");
    link_of(f, "c", "r", NULL, NULL);
    rp_usage_record r = usage("r", NOON, 500);
    record(f, &r);
    r = usage("c", NOON, 12345); /* the cost of an unpriced record is ignored */
    r.priced = false;
    r.model = "gateway-model";
    record(f, &r);
    record(f, &r);

    rp_usage_totals t = tree(f, "r");
    assert_int_equal(t.records, 3);
    assert_int_equal(t.cost_nusd, 500);
    assert_int_equal(t.priced_records, 1);
    assert_int_equal(t.unpriced_records, 2);
    assert_int_equal(t.unpriced_tokens, 2 * 113);
    assert_int_equal(t.input_tokens, 300);

    t = subtree(f, "c");
    assert_int_equal(t.priced_records, 0);
    assert_int_equal(t.unpriced_records, 2);
    assert_int_equal(t.cost_nusd, 0);

    t = user_spend(f, "alice", "2026-03-15", "2026-03-15");
    assert_int_equal(t.unpriced_records, 2);
    assert_int_equal(t.unpriced_tokens, 226);
    assert_int_equal(t.cost_nusd, 500);

    spend_rows *rows = spend(f, NULL, NULL, NULL, NULL, RP_SPEND_BY_MODEL);
    assert_int_equal(rows->n, 2);
    assert_string_equal(rows->keys[0], "gateway-model");
    assert_int_equal(rows->totals[0].unpriced_records, 2);
    assert_int_equal(rows->totals[0].unpriced_tokens, 226);
    assert_int_equal(rows->totals[0].priced_records, 0);
    assert_int_equal(rows->totals[0].cost_nusd, 0);
    assert_string_equal(rows->keys[1], "m1");
    assert_int_equal(rows->totals[1].unpriced_tokens, 0);
}

static void test_day_split_at_midnight(void **state)
{
    fixture *f = *state;
    link_of(f, "s", NULL, NULL, "alice");
    rp_usage_record r = usage("s", "2026-03-15T23:59:59.999999Z", 7);
    record(f, &r);
    r = usage("s", "2026-03-16T00:00:00Z", 11);
    record(f, &r);
    /* An offset time is converted to UTC first: 00:30+01:00 is 23:30 UTC on the 15th. */
    r = usage("s", "2026-03-16T00:30:00+01:00", 100);
    record(f, &r);

    assert_int_equal(user_spend(f, "alice", "2026-03-15", "2026-03-15").cost_nusd, 107);
    assert_int_equal(user_spend(f, "alice", "2026-03-16", "2026-03-16").cost_nusd, 11);
    assert_int_equal(user_spend(f, "alice", "2026-03-15", "2026-03-16").cost_nusd, 118);
    assert_int_equal(tree(f, "s").cost_nusd, 118); /* the session is one, its days two */

    spend_rows *rows = spend(f, NULL, NULL, NULL, NULL, RP_SPEND_BY_DAY);
    assert_int_equal(rows->n, 2);
    assert_string_equal(rows->keys[0], "2026-03-15");
    assert_int_equal(rows->totals[0].cost_nusd, 107);
    assert_string_equal(rows->keys[1], "2026-03-16");
    assert_int_equal(rows->totals[1].cost_nusd, 11);
}

static void test_user_spend_over_days(void **state)
{
    fixture *f = *state;
    link_of(f, "a", NULL, NULL, "alice");
    link_of(f, "b", NULL, NULL, "bob");
    /* alice spends (day) nUSD on each day 1..10 of March; bob 1000 on each. */
    for (int day = 1; day <= 10; day++) {
        char when[40];
        snprintf(when, sizeof when, "2026-03-%02dT08:00:00Z", day);
        rp_usage_record r = usage("a", when, day);
        record(f, &r);
        r = usage("b", when, 1000);
        record(f, &r);
    }
    /* And one on the last day of February, outside a March window. */
    rp_usage_record r = usage("a", "2026-02-28T23:00:00Z", 100000);
    record(f, &r);

    assert_int_equal(user_spend(f, "alice", "2026-03-01", "2026-03-10").cost_nusd, 55);
    assert_int_equal(user_spend(f, "alice", "2026-03-01", "2026-03-31").records, 10);
    assert_int_equal(user_spend(f, "alice", "2026-03-02", "2026-03-04").cost_nusd, 2 + 3 + 4);
    assert_int_equal(user_spend(f, "alice", "2026-03-10", "2026-03-10").cost_nusd, 10);
    assert_int_equal(user_spend(f, "alice", "2026-01-01", "2026-12-31").cost_nusd, 100055);
    assert_int_equal(user_spend(f, "alice", "2026-03-11", "2026-03-31").records, 0);
    assert_int_equal(user_spend(f, "alice", "2026-03-05", "2026-03-04").records, 0); /* empty */
    assert_int_equal(user_spend(f, "bob", "2026-03-01", "2026-03-07").cost_nusd, 7000);

    /* Malformed days are errors naming the argument. */
    rp_usage_totals t;
    assert_int_equal(rp_store_user_spend(f->s, "alice", "2026-3-1", "2026-03-10", &t), -1);
    assert_contains(rp_store_error(f->s), "first day '2026-3-1' is not a YYYY-MM-DD date");
    assert_error_names_backend(f);
    assert_int_equal(rp_store_user_spend(f->s, "alice", "2026-03-01", "2026-13-01", &t), -1);
    assert_contains(rp_store_error(f->s), "last day");
    assert_int_equal(rp_store_user_spend(f->s, "", "2026-03-01", "2026-03-10", &t), -1);
    assert_contains(rp_store_error(f->s), "user id is empty");
}

static void test_exact_cents(void **state)
{
    fixture *f = *state;
    link_of(f, "r", NULL, NULL, "alice");
    link_of(f, "c", "r", NULL, NULL);
    /* 1000 × $0.01, half in a child: exactly $10.00, where 1000 additions of the double 0.01
     * give 9.999999999999831. */
    const int64_t cent = RP_NUSD_PER_USD / 100;
    double drift = 0.0;
    for (int i = 0; i < 1000; i++) {
        rp_usage_record r = usage(i % 2 ? "c" : "r", NOON, cent);
        record(f, &r);
        drift += 0.01;
    }
    assert_true(drift != 10.0);
    assert_int_equal(tree(f, "r").cost_nusd, 10 * RP_NUSD_PER_USD);
    assert_int_equal(tree(f, "r").records, 1000);
    assert_int_equal(subtree(f, "c").cost_nusd, 5 * RP_NUSD_PER_USD);
    assert_int_equal(user_spend(f, "alice", "2026-03-15", "2026-03-15").cost_nusd,
                     10 * RP_NUSD_PER_USD);
    spend_rows *rows = spend(f, "alice", NULL, NULL, NULL, RP_SPEND_BY_NONE);
    assert_int_equal(rows->n, 1);
    assert_int_equal(rows->totals[0].cost_nusd, 10 * RP_NUSD_PER_USD);
    assert_true((double)tree(f, "r").cost_nusd / RP_NUSD_PER_USD == 10.0);
}

static void test_bad_records_change_nothing(void **state)
{
    fixture *f = *state;
    rp_usage_record good = usage("s", NOON, 1);
    rp_usage_record r = good;
    r.input_tokens = -1;
    assert_int_equal(rp_store_record_usage(f->s, &r, NULL), -1);
    assert_contains(rp_store_error(f->s), "input_tokens -1 is out of range");
    assert_error_names_backend(f);
    r = good;
    r.cache_creation_input_tokens = 2000000000000LL;
    assert_int_equal(rp_store_record_usage(f->s, &r, NULL), -1);
    assert_contains(rp_store_error(f->s), "cache_creation_input_tokens");
    r = good;
    r.cost_nusd = -5;
    assert_int_equal(rp_store_record_usage(f->s, &r, NULL), -1);
    assert_contains(rp_store_error(f->s), "cost_nusd");
    r = good;
    r.time_us = -1;
    assert_int_equal(rp_store_record_usage(f->s, &r, NULL), -1);
    assert_contains(rp_store_error(f->s), "usage time");
    r = good;
    r.session_id = "";
    assert_int_equal(rp_store_record_usage(f->s, &r, NULL), -1);
    assert_contains(rp_store_error(f->s), "usage session id is empty");
    assert_int_equal(rp_store_record_usage(f->s, NULL, NULL), -1);

    /* None of it reached the ledger, not even a link. */
    assert_int_equal(tree(f, "s").records, 0);
    spend_rows *rows = spend(f, NULL, NULL, NULL, NULL, RP_SPEND_BY_NONE);
    assert_int_equal(rows->n, 1);
    assert_int_equal(rows->totals[0].records, 0);
    rp_store_session_link l;
    assert_int_equal(rp_store_link_session(f->s, "", NULL, NULL, NULL, 0, &f->arena, &l), -1);
    assert_contains(rp_store_error(f->s), "session id is empty");
    assert_int_equal(rp_store_usage_tree(f->s, NULL, &(rp_usage_totals){0}), -1);
    assert_int_equal(rp_store_usage_subtree(f->s, "", &(rp_usage_totals){0}), -1);

    /* An unpriced record's reported cost is not range-checked: it is ignored. */
    r = good;
    r.priced = false;
    r.cost_nusd = -7;
    record(f, &r);
    assert_int_equal(tree(f, "s").cost_nusd, 0);
    assert_int_equal(tree(f, "s").unpriced_records, 1);
}

/* ---- approvals ---- */

static void test_approvals(void **state)
{
    fixture *f = *state;
    assert_true(approval(f, "alice", "day", "2026-03-15") == 0.0);
    approve(f, "alice", "day", "2026-03-15", 5.0);
    assert_true(approval(f, "alice", "day", "2026-03-15") == 5.0);
    /* Approving a lower checkpoint later never un-approves a higher one. */
    approve(f, "alice", "day", "2026-03-15", 2.5);
    assert_true(approval(f, "alice", "day", "2026-03-15") == 5.0);
    approve(f, "alice", "day", "2026-03-15", 7.25);
    assert_true(approval(f, "alice", "day", "2026-03-15") == 7.25);

    /* Per user, per period, per window. */
    assert_true(approval(f, "alice", "day", "2026-03-16") == 0.0);
    assert_true(approval(f, "bob", "day", "2026-03-15") == 0.0);
    assert_true(approval(f, "alice", "month", "2026-03-15") == 0.0);
    approve(f, "alice", "month", "2026-03-01", 10.0);
    approve(f, "alice", "week", "2026-03-09", 1.0);
    assert_true(approval(f, "alice", "month", "2026-03-01") == 10.0);
    assert_true(approval(f, "alice", "week", "2026-03-09") == 1.0);
    assert_true(approval(f, "alice", "day", "2026-03-15") == 7.25);
    approve(f, "alice", "quarter", "2026-01-01", 0.0);
    approve(f, "alice", "year", "2026-01-01", 100.0);
    assert_true(approval(f, "alice", "quarter", "2026-01-01") == 0.0);
    assert_true(approval(f, "alice", "year", "2026-01-01") == 100.0);

    /* Inside the caller's transaction, like the hook path. */
    assert_int_equal(rp_store_begin(f->s), 0);
    approve(f, "carol", "day", "2026-03-15", 3.0);
    assert_true(approval(f, "carol", "day", "2026-03-15") == 3.0);
    assert_int_equal(rp_store_commit(f->s), 0);
    assert_true(approval(f, "carol", "day", "2026-03-15") == 3.0);

    double v = 0;
    assert_int_equal(rp_store_set_user_approval(f->s, "alice", "fortnight", "2026-03-15", 1, 0),
                     -1);
    assert_contains(rp_store_error(f->s),
                    "period 'fortnight' is not day, week, month, quarter or year");
    assert_error_names_backend(f);
    assert_int_equal(rp_store_get_user_approval(f->s, "alice", "Day", "2026-03-15", &v), -1);
    assert_int_equal(rp_store_get_user_approval(f->s, "alice", "day", "15.03.2026", &v), -1);
    assert_contains(rp_store_error(f->s), "window start");
    assert_int_equal(rp_store_set_user_approval(f->s, "alice", "day", "2026-03-15", NAN, 0), -1);
    assert_int_equal(rp_store_set_user_approval(f->s, "alice", "day", "2026-03-15", -1.0, 0), -1);
    assert_int_equal(rp_store_set_user_approval(f->s, "alice", "day", "2026-03-15", INFINITY, 0),
                     -1);
    assert_int_equal(rp_store_set_user_approval(f->s, NULL, "day", "2026-03-15", 1.0, 0), -1);
    assert_true(approval(f, "alice", "day", "2026-03-15") == 7.25);
}

/* ---- subtrees and reports ---- */

static void test_subtree_with_grandchildren(void **state)
{
    fixture *f = *state;
    /* r ─ a ─ a1 ─ a11
     *   │     └ a2
     *   └ b ─ b1 */
    link_of(f, "r", NULL, NULL, "alice");
    link_of(f, "a", "r", NULL, NULL);
    link_of(f, "a1", "a", NULL, NULL);
    link_of(f, "a11", "a1", NULL, NULL);
    link_of(f, "a2", "a", NULL, NULL);
    link_of(f, "b", "r", NULL, NULL);
    link_of(f, "b1", "b", NULL, NULL);
    const char *ids[] = {"r", "a", "a1", "a11", "a2", "b", "b1"};
    const int64_t cost[] = {1, 10, 100, 1000, 10000, 100000, 1000000};
    for (int i = 0; i < 7; i++) {
        rp_usage_record r = usage(ids[i], NOON, cost[i]);
        record(f, &r);
    }
    assert_int_equal(subtree(f, "r").cost_nusd, 1111111);
    assert_int_equal(subtree(f, "a").cost_nusd, 11110);
    assert_int_equal(subtree(f, "a1").cost_nusd, 1100);
    assert_int_equal(subtree(f, "a11").cost_nusd, 1000);
    assert_int_equal(subtree(f, "b").cost_nusd, 1100000);
    assert_int_equal(subtree(f, "a").records, 4);
    assert_int_equal(tree(f, "r").cost_nusd, 1111111);
    assert_int_equal(user_spend(f, "alice", "2026-03-15", "2026-03-15").cost_nusd, 1111111);

    /* spend --session: the subtree too. */
    spend_rows *rows = spend(f, NULL, "a", NULL, NULL, RP_SPEND_BY_SESSION);
    assert_int_equal(rows->n, 4);
    assert_string_equal(rows->keys[0], "a");
    assert_string_equal(rows->keys[1], "a1");
    assert_string_equal(rows->keys[2], "a11");
    assert_string_equal(rows->keys[3], "a2");
    assert_int_equal(rows->totals[2].cost_nusd, 1000);
}

/* What priced each row is kept and grouped on (issue 15): a name other than host, table and
 * config is not kept; an unpriced row is "unpriced" whatever it says. */
static void test_spend_by_source(void **state)
{
    fixture *f = *state;
    const char *sources[] = {RP_PRICED_BY_HOST,
                             RP_PRICED_BY_TABLE,
                             RP_PRICED_BY_TABLE,
                             RP_PRICED_BY_CONFIG,
                             "guess",
                             NULL};
    for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++) {
        rp_usage_record r = usage("s1", "2026-03-01T10:00:00Z", (int64_t)(i + 1));
        r.priced_by = sources[i];
        record(f, &r);
    }
    rp_usage_record u = usage("s1", "2026-03-01T10:00:00Z", 100);
    u.priced = false;
    u.priced_by = RP_PRICED_BY_TABLE;
    record(f, &u);
    spend_rows *r = spend(f, NULL, NULL, NULL, NULL, RP_SPEND_BY_SOURCE);
    assert_int_equal(r->n, 5);
    assert_string_equal(r->keys[0], ""); /* not said: "guess" and NULL */
    assert_int_equal(r->totals[0].cost_nusd, 5 + 6);
    assert_string_equal(r->keys[1], "config");
    assert_int_equal(r->totals[1].cost_nusd, 4);
    assert_string_equal(r->keys[2], "host");
    assert_int_equal(r->totals[2].cost_nusd, 1);
    assert_string_equal(r->keys[3], "table");
    assert_int_equal(r->totals[3].cost_nusd, 2 + 3);
    assert_string_equal(r->keys[4], "unpriced");
    assert_int_equal(r->totals[4].unpriced_records, 1);
}

static void test_spend_grouping_and_filters(void **state)
{
    fixture *f = *state;
    link_of(f, "ra", NULL, NULL, "alice");
    link_of(f, "ca", "ra", NULL, NULL);
    link_of(f, "rb", NULL, NULL, "bob");
    link_of(f, "rn", NULL, NULL, NULL);
    struct {
        const char *session, *time, *model;
        int64_t cost;
    } rows_in[] = {
        {"ra", "2026-03-01T10:00:00Z", "opus", 1}, {"ra", "2026-03-02T10:00:00Z", "haiku", 2},
        {"ca", "2026-03-02T11:00:00Z", "opus", 4}, {"rb", "2026-03-02T12:00:00Z", "opus", 8},
        {"rb", "2026-03-03T12:00:00Z", NULL, 16},  {"rn", "2026-03-03T13:00:00Z", "haiku", 32},
    };
    for (size_t i = 0; i < sizeof rows_in / sizeof rows_in[0]; i++) {
        rp_usage_record r = usage(rows_in[i].session, rows_in[i].time, rows_in[i].cost);
        r.model = rows_in[i].model;
        record(f, &r);
    }

    spend_rows *r = spend(f, NULL, NULL, NULL, NULL, RP_SPEND_BY_MODEL);
    assert_int_equal(r->n, 3);
    assert_string_equal(r->keys[0], ""); /* unknown model */
    assert_int_equal(r->totals[0].cost_nusd, 16);
    assert_string_equal(r->keys[1], "haiku");
    assert_int_equal(r->totals[1].cost_nusd, 34);
    assert_int_equal(r->totals[1].records, 2);
    assert_string_equal(r->keys[2], "opus");
    assert_int_equal(r->totals[2].cost_nusd, 13);
    assert_int_equal(r->totals[2].input_tokens, 300);

    r = spend(f, NULL, NULL, NULL, NULL, RP_SPEND_BY_USER);
    assert_int_equal(r->n, 3);
    assert_string_equal(r->keys[0], "");
    assert_int_equal(r->totals[0].cost_nusd, 32);
    assert_string_equal(r->keys[1], "alice");
    assert_int_equal(r->totals[1].cost_nusd, 7);
    assert_string_equal(r->keys[2], "bob");
    assert_int_equal(r->totals[2].cost_nusd, 24);

    r = spend(f, NULL, NULL, NULL, NULL, RP_SPEND_BY_DAY);
    assert_int_equal(r->n, 3);
    assert_string_equal(r->keys[0], "2026-03-01");
    assert_int_equal(r->totals[0].cost_nusd, 1);
    assert_string_equal(r->keys[1], "2026-03-02");
    assert_int_equal(r->totals[1].cost_nusd, 14);
    assert_string_equal(r->keys[2], "2026-03-03");
    assert_int_equal(r->totals[2].cost_nusd, 48);

    r = spend(f, NULL, NULL, NULL, NULL, RP_SPEND_BY_SESSION);
    assert_int_equal(r->n, 4);
    assert_string_equal(r->keys[0], "ca");
    assert_string_equal(r->keys[1], "ra");
    assert_string_equal(r->keys[2], "rb");
    assert_string_equal(r->keys[3], "rn");
    assert_int_equal(r->totals[1].cost_nusd, 3);

    r = spend(f, NULL, NULL, NULL, NULL, RP_SPEND_BY_NONE);
    assert_int_equal(r->n, 1);
    assert_string_equal(r->keys[0], "");
    assert_int_equal(r->totals[0].cost_nusd, 63);
    assert_int_equal(r->totals[0].records, 6);

    /* Filters: user, session subtree, days, and all together. */
    r = spend(f, "alice", NULL, NULL, NULL, RP_SPEND_BY_MODEL);
    assert_int_equal(r->n, 2);
    assert_string_equal(r->keys[0], "haiku");
    assert_int_equal(r->totals[0].cost_nusd, 2);
    assert_string_equal(r->keys[1], "opus");
    assert_int_equal(r->totals[1].cost_nusd, 5);
    r = spend(f, NULL, "ra", NULL, NULL, RP_SPEND_BY_NONE);
    assert_int_equal(r->totals[0].cost_nusd, 7);
    r = spend(f, NULL, "ca", NULL, NULL, RP_SPEND_BY_NONE);
    assert_int_equal(r->totals[0].cost_nusd, 4);
    r = spend(f, NULL, NULL, "2026-03-02", NULL, RP_SPEND_BY_NONE);
    assert_int_equal(r->totals[0].cost_nusd, 62);
    r = spend(f, NULL, NULL, NULL, "2026-03-02", RP_SPEND_BY_NONE);
    assert_int_equal(r->totals[0].cost_nusd, 15);
    r = spend(f, NULL, NULL, "2026-03-02", "2026-03-02", RP_SPEND_BY_USER);
    assert_int_equal(r->n, 2);
    assert_string_equal(r->keys[0], "alice");
    assert_int_equal(r->totals[0].cost_nusd, 6);
    assert_string_equal(r->keys[1], "bob");
    assert_int_equal(r->totals[1].cost_nusd, 8);
    r = spend(f, "bob", "rb", "2026-03-03", "2026-03-03", RP_SPEND_BY_DAY);
    assert_int_equal(r->n, 1);
    assert_int_equal(r->totals[0].cost_nusd, 16);
    r = spend(f, "alice", "rb", NULL, NULL, RP_SPEND_BY_DAY);
    assert_int_equal(r->n, 0);
    r = spend(f, "nobody", NULL, NULL, NULL, RP_SPEND_BY_NONE);
    assert_int_equal(r->n, 1); /* one row, even when nothing matches */
    assert_int_equal(r->totals[0].records, 0);

    /* The callback may stop early, and may not call back into the store. */
    spend_rows stop = {.stop_after = 2, .store = f->s};
    rp_spend_query q = {.group = RP_SPEND_BY_DAY};
    assert_int_equal(rp_store_spend(f->s, &q, collect_spend, &stop), 0);
    assert_int_equal(stop.n, 2);
    assert_int_equal(stop.reentry_rc, -1);
    assert_int_equal(tree(f, "ra").cost_nusd, 7); /* usable again afterwards */

    /* Bad queries. */
    q = (rp_spend_query){.first_day = "yesterday"};
    assert_int_equal(rp_store_spend(f->s, &q, collect_spend, &stop), -1);
    assert_contains(rp_store_error(f->s), "first day 'yesterday'");
    q = (rp_spend_query){.group = (rp_spend_group)42};
    assert_int_equal(rp_store_spend(f->s, &q, collect_spend, &stop), -1);
    assert_int_equal(rp_store_spend(f->s, NULL, collect_spend, &stop), -1);
    q = (rp_spend_query){.user_id = ""};
    assert_int_equal(rp_store_spend(f->s, &q, collect_spend, &stop), -1);
}

static void test_record_in_caller_transaction(void **state)
{
    fixture *f = *state;
    assert_int_equal(rp_store_begin(f->s), 0);
    rp_store_session_link l;
    assert_int_equal(rp_store_link_session(f->s, "s", NULL, NULL, "alice", 1, &f->arena, &l), 0);
    rp_usage_record r = usage("s", NOON, 3);
    record(f, &r);
    assert_int_equal(tree(f, "s").cost_nusd, 3); /* visible inside the transaction */
    assert_int_equal(rp_store_commit(f->s), 0);
    assert_int_equal(tree(f, "s").cost_nusd, 3);
    assert_int_equal(user_spend(f, "alice", "2026-03-15", "2026-03-15").cost_nusd, 3);
    /* Still not nested: the own transaction of a record is over. */
    assert_int_equal(rp_store_begin(f->s), 0);
    assert_int_equal(rp_store_commit(f->s), 0);
}

/* ---- SQLite only ---- */

static void test_sqlite_rollback_discards_record(void **state)
{
    fixture *f = *state;
    assert_int_equal(rp_store_begin(f->s), 0);
    rp_usage_record r = usage("s", NOON, 5);
    r.user_id = "alice";
    r.record_id = "msg_1";
    r.parent_session_id = "p";
    record(f, &r);
    assert_int_equal(rp_store_attach_budget(f->s, "s", NULL, "{}", 1), 0);
    approve(f, "alice", "day", "2026-03-15", 1.0);
    rp_store_rollback(f->s);

    assert_int_equal(tree(f, "p").records, 0);
    assert_int_equal(user_spend(f, "alice", "2026-03-15", "2026-03-15").records, 0);
    assert_true(approval(f, "alice", "day", "2026-03-15") == 0.0);
    assert_int_equal(raw_int(f, "SELECT COUNT(*) FROM usage_row"), 0);
    assert_int_equal(raw_int(f, "SELECT COUNT(*) FROM usage_session"), 0);
    assert_int_equal(raw_int(f, "SELECT COUNT(*) FROM session_link"), 0);
    assert_int_equal(raw_int(f, "SELECT COUNT(*) FROM subagent_budget"), 0);
    /* The id was never recorded, so it is not a duplicate now. */
    record(f, &r);
    assert_int_equal(tree(f, "p").cost_nusd, 5);
}

static void test_sqlite_failed_record_leaves_nothing(void **state)
{
    fixture *f = *state;
    rp_usage_record r = usage("s", NOON, 5);
    r.user_id = "alice";
    record(f, &r);
    /* Break the last step of a record (the per-user-day sum) behind the store's back: the row
     * and the per-session sum written before it must go too. */
    raw_sql(f, "DROP TABLE usage_user_day");
    r.record_id = "msg_2";
    bool dup = true;
    assert_int_equal(rp_store_record_usage(f->s, &r, &dup), -1);
    assert_false(dup);
    assert_contains(rp_store_error(f->s), "state.db");
    assert_int_equal(raw_int(f, "SELECT COUNT(*) FROM usage_row"), 1);
    assert_int_equal(raw_int(f, "SELECT records FROM usage_session"), 1);
    /* A record without a user does not touch that table and still works. */
    r = usage("t", NOON, 1);
    record(f, &r);
    assert_int_equal(tree(f, "t").records, 1);
}

static void test_sqlite_ledger_survives_reopen(void **state)
{
    fixture *f = *state;
    link_of(f, "r", NULL, NULL, "alice");
    assert_int_equal(rp_store_attach_budget(f->s, "r", NULL, "{\"max_cost_usd\":1.5}", 1), 0);
    rp_usage_record r = usage("c", NOON, 42);
    r.parent_session_id = "r";
    r.record_id = "m1";
    record(f, &r);
    approve(f, "alice", "week", "2026-03-09", 2.0);
    rp_store_close(f->s);
    f->s = open_sqlite_or_fail(f->state_dir);

    assert_int_equal(tree(f, "r").cost_nusd, 42);
    assert_int_equal(user_spend(f, "alice", "2026-03-09", "2026-03-15").cost_nusd, 42);
    assert_true(approval(f, "alice", "week", "2026-03-09") == 2.0);
    assert_string_equal(budget_of(f, "c"), "{\"max_cost_usd\":1.5}");
    bool dup = false;
    assert_int_equal(rp_store_record_usage(f->s, &r, &dup), 0);
    assert_true(dup);
}

/* The schema of version 2 as released (migrations 1 and 2), with some data in it. */
static const char v2_schema[] =
    "CREATE TABLE session_state (session_id TEXT NOT NULL PRIMARY KEY, state TEXT NOT NULL,"
    " updated_us BIGINT NOT NULL);"
    "CREATE TABLE pending_ask (session_id TEXT NOT NULL, ask_key TEXT NOT NULL,"
    " updates TEXT NOT NULL, policies TEXT NOT NULL, created_us BIGINT NOT NULL,"
    " PRIMARY KEY (session_id, ask_key));"
    "CREATE TABLE usage (session_id TEXT NOT NULL PRIMARY KEY, parent_session_id TEXT,"
    " root_session_id TEXT, user_id TEXT, input_tokens BIGINT NOT NULL DEFAULT 0,"
    " output_tokens BIGINT NOT NULL DEFAULT 0, cache_read_input_tokens BIGINT NOT NULL DEFAULT 0,"
    " cache_creation_input_tokens BIGINT NOT NULL DEFAULT 0, total_cost_usd DOUBLE PRECISION,"
    " updated_us BIGINT NOT NULL);"
    "CREATE INDEX usage_root ON usage (root_session_id);"
    "CREATE TABLE audit (id INTEGER PRIMARY KEY, time_us BIGINT NOT NULL,"
    " session_id TEXT NOT NULL, event_type TEXT NOT NULL, target TEXT, result TEXT NOT NULL,"
    " reason TEXT, policies TEXT NOT NULL);"
    "CREATE INDEX audit_session_time ON audit (session_id, time_us);"
    "CREATE INDEX audit_time ON audit (time_us);"
    "CREATE TABLE trusted_dir (dir TEXT NOT NULL PRIMARY KEY, added_us BIGINT NOT NULL);"
    "ALTER TABLE audit ADD COLUMN note TEXT;"
    "INSERT INTO session_state VALUES ('old', '{\"_policy_tool_call_count\":3}', 1);"
    "INSERT INTO audit (time_us, session_id, event_type, result, policies, note)"
    " VALUES (5, 'old', 'tool_call', 'ALLOW', '[]', NULL);"
    "PRAGMA user_version = 2;";

static void test_sqlite_migrates_from_v2(void **state)
{
    fixture *f = *state;
    rp_store_close(f->s);
    f->s = NULL;
    remove_tree(f->state_dir);
    assert_int_equal(mkdir(f->state_dir, 0700), 0);
    raw_sql(f, v2_schema);
    assert_int_equal(raw_int(f, "PRAGMA user_version"), 2);

    f->s = open_sqlite_or_fail(f->state_dir);
    assert_int_equal(raw_int(f, "PRAGMA user_version"), rp_store_schema_latest());
    /* The placeholder table is gone, the ledger's are there, old data is kept. */
    assert_int_equal(raw_int(f, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'usage'"), 0);
    assert_int_equal(raw_int(f, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND "
                                "name IN ('session_link', 'usage_row', 'usage_session', "
                                "'usage_user_day', 'user_approval', 'subagent_budget')"),
                     6);
    rp_json *st = NULL;
    assert_int_equal(rp_store_load_state(f->s, "old", &f->arena, &st), 0);
    assert_int_equal(rp_json_get(st, "_policy_tool_call_count")->v.i, 3);
    assert_int_equal(raw_int(f, "SELECT COUNT(*) FROM audit"), 1);

    rp_usage_record r = usage("old", NOON, 8);
    r.user_id = "alice";
    record(f, &r);
    assert_int_equal(tree(f, "old").cost_nusd, 8);
    assert_int_equal(user_spend(f, "alice", "2026-03-15", "2026-03-15").cost_nusd, 8);

    /* Opening again runs nothing more. */
    rp_store_close(f->s);
    f->s = open_sqlite_or_fail(f->state_dir);
    assert_int_equal(tree(f, "old").cost_nusd, 8);
}

static void test_sqlite_queries_use_indexes(void **state)
{
    fixture *f = *state;
    record(f, &(rp_usage_record){.time_us = 1, .session_id = "s", .priced = true});
    /* The hook path's reads must not scan a table: EXPLAIN QUERY PLAN says SCAN for that. */
    const char *queries[] = {
        "SELECT 1 FROM usage_row WHERE session_id = 'a' AND record_id = 'b'",
        "SELECT SUM(cost_nusd) FROM usage_session WHERE root_session_id = 'r'",
        "SELECT SUM(cost_nusd) FROM usage_user_day WHERE user_id = 'u' AND day >= '2026-01-01' "
        "AND day <= '2026-01-31'",
        "SELECT approved_usd FROM user_approval WHERE user_id = 'u' AND period = 'day' AND "
        "window_start = '2026-01-01'",
        "SELECT l.root_session_id, r.user_id FROM session_link l LEFT JOIN session_link r ON "
        "r.session_id = l.root_session_id WHERE l.session_id = 's'",
        "SELECT session_id FROM session_link WHERE parent_session_id = 'p'",
        "SELECT budget FROM subagent_budget WHERE child_session_id = 'c' ORDER BY created_us",
        "SELECT id FROM subagent_budget WHERE parent_session_id = 'p' AND child_session_id IS NULL "
        "ORDER BY created_us",
    };
    char path[400];
    db_path(f, path, sizeof path);
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
        char sql[600];
        snprintf(sql, sizeof sql, "EXPLAIN QUERY PLAN %s", queries[i]);
        sqlite3_stmt *st = NULL;
        assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
        while (sqlite3_step(st) == SQLITE_ROW) {
            const char *detail = (const char *)sqlite3_column_text(st, 3);
            if (detail != NULL && strncmp(detail, "SCAN", 4) == 0) {
                fail_msg("%s: %s", queries[i], detail);
            }
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
}

/* Spend recorded before its tree had an owner is charged to the owner once one is known. */
static void test_owner_adopts_earlier_spend(void **state)
{
    fixture *f = *state;
    /* A root whose user arrives on a later event. */
    rp_usage_record r = usage("q", NOON, 6);
    record(f, &r);
    assert_int_equal(user_spend(f, "henry", "2026-03-15", "2026-03-15").records, 0);
    link_of(f, "q", NULL, NULL, "henry");
    assert_int_equal(user_spend(f, "henry", "2026-03-15", "2026-03-15").cost_nusd, 6);
    assert_int_equal(user_spend(f, "henry", "2026-03-15", "2026-03-15").records, 1);
    /* A sub-agent seen before its (owned) parent's tree. */
    r = usage("c9", NOON, 4);
    record(f, &r);
    r = usage("p9", NOON, 1);
    r.user_id = "ida";
    record(f, &r);
    r = usage("c9", NOON, 2);
    r.parent_session_id = "p9";
    record(f, &r);
    rp_usage_totals t = user_spend(f, "ida", "2026-03-15", "2026-03-15");
    assert_int_equal(t.cost_nusd, 7);
    assert_int_equal(t.records, 3);
    /* Nothing is charged twice when the link is restated. */
    link_of(f, "c9", "p9", NULL, "ida");
    link_of(f, "q", NULL, NULL, "henry");
    assert_int_equal(user_spend(f, "ida", "2026-03-15", "2026-03-15").cost_nusd, 7);
    assert_int_equal(user_spend(f, "henry", "2026-03-15", "2026-03-15").cost_nusd, 6);
    assert_int_equal(tree(f, "p9").cost_nusd, 7);
}

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
        BOTH(test_link_root_resolution),
        BOTH(test_link_child_before_parent),
        BOTH(test_link_refuses_cycles),
        BOTH(test_budget_claim_order),
        BOTH(test_record_and_aggregates),
        BOTH(test_owner_adopts_earlier_spend),
        BOTH(test_record_dedupe),
        BOTH(test_unpriced_accounting),
        BOTH(test_day_split_at_midnight),
        BOTH(test_user_spend_over_days),
        BOTH(test_exact_cents),
        BOTH(test_bad_records_change_nothing),
        BOTH(test_approvals),
        BOTH(test_subtree_with_grandchildren),
        BOTH(test_spend_grouping_and_filters),
        BOTH(test_spend_by_source),
        BOTH(test_record_in_caller_transaction),
        SQLITE(test_sqlite_rollback_discards_record),
        SQLITE(test_sqlite_failed_record_leaves_nothing),
        SQLITE(test_sqlite_ledger_survives_reopen),
        SQLITE(test_sqlite_migrates_from_v2),
        SQLITE(test_sqlite_queries_use_indexes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
