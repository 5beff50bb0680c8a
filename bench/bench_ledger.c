/* bench_ledger — cost of the spend ledger on the hook path, on a store of ROWS usage rows
 * (default 100,000: 200 users, 2,000 spawn trees of a root and two children, over 90 days).
 *
 *   1. record_usage alone (its own transaction), through one open handle;
 *   2. the hook sequence through one open handle: begin, link, record, tree totals, the user's
 *      month, the approval, commit;
 *   3. the same sequence in a freshly opened handle, open and close included (what a hook
 *      process pays, minus process start-up: statements are prepared again each time);
 *   4. the reads alone: tree, subtree, a user's month, approval;
 *   5. `rampart spend` queries over every row (reporting: scans).
 *
 * Runs in a fresh temporary directory, removed afterwards; with KEEP_DIR the populated store is
 * left there for inspection instead (sqlite3 KEEP_DIR/state.db). Usage: bench_ledger [ROWS
 * [KEEP_DIR]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "core/arena.h"
#include "store/store.h"

#define USERS        200
#define TREES        2000
#define DAYS         90
#define DAY_US       86400000000LL
#define START_US     1767225600000000LL /* 2026-01-01T00:00:00Z */
#define HOOK_ROUNDS  2000
#define FRESH_ROUNDS 200

static int64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int compare_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void die(const char *what, rp_store *s)
{
    fprintf(stderr, "bench_ledger: %s: %s\n", what, s != NULL ? rp_store_error(s) : "");
    exit(1);
}

static rp_store *open_or_die(const char *dir)
{
    char err[1024];
    rp_store *s = rp_store_open_sqlite(dir, err, sizeof err);
    if (s == NULL) {
        fprintf(stderr, "bench_ledger: open: %s\n", err);
        exit(1);
    }
    return s;
}

static void report(const char *what, int64_t *ns, int n)
{
    qsort(ns, (size_t)n, sizeof ns[0], compare_i64);
    double sum = 0;
    for (int i = 0; i < n; i++) {
        sum += (double)ns[i];
    }
    printf("%-28s n=%d  mean %7.1f µs  median %7.1f µs  p95 %7.1f µs\n", what, n, sum / n / 1e3,
           (double)ns[n / 2] / 1e3, (double)ns[(n * 95) / 100] / 1e3);
}

/* Session ids of tree t: the root "t<t>", children "t<t>.1" and "t<t>.2". */
static void session_name(char *buf, size_t size, int tree, int member)
{
    if (member == 0) {
        snprintf(buf, size, "tree-%05d", tree);
    } else {
        snprintf(buf, size, "tree-%05d.%d", tree, member);
    }
}

static rp_usage_record make_record(const char *sid, const char *parent, int64_t time_us,
                                   const char *record_id)
{
    rp_usage_record r = {
        .time_us = time_us,
        .session_id = sid,
        .parent_session_id = parent,
        .model = "claude-sonnet-4-5",
        .record_id = record_id,
        .input_tokens = 3000,
        .output_tokens = 800,
        .cache_read_input_tokens = 20000,
        .cache_creation_input_tokens = 1500,
        .priced = true,
        .cost_nusd = 27000000, /* $0.027 */
    };
    return r;
}

static void populate(rp_store *s, int rows)
{
    rp_arena a = {0};
    char sid[32], parent[32], user[32], rid[32];
    for (int t = 0; t < TREES; t++) {
        session_name(sid, sizeof sid, t, 0);
        snprintf(user, sizeof user, "user-%03d", t % USERS);
        rp_store_session_link l;
        if (rp_store_link_session(s, sid, NULL, NULL, user, START_US, &a, &l) != 0) {
            die("link", s);
        }
        rp_arena_reset(&a);
    }
    for (int i = 0; i < rows; i++) {
        if (i % 5000 == 0 && rp_store_begin(s) != 0) {
            die("begin", s);
        }
        int t = i % TREES, member = (i / TREES) % 3;
        session_name(sid, sizeof sid, t, member);
        session_name(parent, sizeof parent, t, 0);
        snprintf(rid, sizeof rid, "msg_%d", i);
        int64_t when = START_US + (int64_t)(i % DAYS) * DAY_US + (i % 86400) * 1000000LL;
        rp_usage_record r = make_record(sid, member != 0 ? parent : NULL, when, rid);
        if (rp_store_record_usage(s, &r, NULL) != 0) {
            die("record", s);
        }
        if ((i % 5000 == 4999 || i == rows - 1) && rp_store_commit(s) != 0) {
            die("commit", s);
        }
    }
    rp_arena_free(&a);
}

/* One hook: the session tree-00042.1 of user-042 records a response and reads what the three
 * per-user policies and cost_budget need. */
static void hook(rp_store *s, rp_arena *a, int i, int64_t now_us)
{
    char rid[32];
    snprintf(rid, sizeof rid, "hook_%d", i);
    if (rp_store_begin(s) != 0) {
        die("begin", s);
    }
    rp_store_session_link l;
    if (rp_store_link_session(s, "tree-00042.1", "tree-00042", NULL, NULL, now_us, a, &l) != 0) {
        die("link", s);
    }
    rp_usage_record r = make_record("tree-00042.1", "tree-00042", now_us, rid);
    bool dup = false;
    if (rp_store_record_usage(s, &r, &dup) != 0 || dup) {
        die("record", s);
    }
    rp_usage_totals tree, user;
    double approved = 0;
    if (rp_store_usage_tree(s, l.root_session_id, &tree) != 0 ||
        rp_store_user_spend(s, l.owner_id, "2026-03-01", "2026-03-31", &user) != 0 ||
        rp_store_get_user_approval(s, l.owner_id, "month", "2026-03-01", &approved) != 0) {
        die("read", s);
    }
    if (rp_store_commit(s) != 0) {
        die("commit", s);
    }
    rp_arena_reset(a);
}

static int count_rows(void *self, const rp_spend_row *row)
{
    (void)row;
    (*(int *)self)++;
    return 0;
}

int main(int argc, char **argv)
{
    int rows = argc > 1 ? atoi(argv[1]) : 100000;
    if (rows <= 0) {
        fprintf(stderr, "usage: bench_ledger [ROWS]\n");
        return 2;
    }
    const char *keep = argc > 2 ? argv[2] : NULL;
    char base[] = "/tmp/rampart-bench-ledger-XXXXXX";
    if (keep == NULL && mkdtemp(base) == NULL) {
        perror("bench_ledger: mkdtemp");
        return 1;
    }
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/state", keep != NULL ? keep : base);
    printf("bench_ledger: sqlite %s, %d rows, state dir %s\n", sqlite3_libversion(), rows, dir);

    rp_store *s = open_or_die(dir);
    int64_t t0 = monotonic_ns();
    populate(s, rows);
    double fill_s = (double)(monotonic_ns() - t0) / 1e9;
    printf("%-28s %d rows in %.2f s (%.1f µs/row, batches of 5000)\n", "populate", rows, fill_s,
           fill_s * 1e6 / rows);

    static int64_t samples[HOOK_ROUNDS];
    int64_t now_us = START_US + 70 * DAY_US; /* 2026-03-12 */
    char rid[32];
    for (int i = 0; i < HOOK_ROUNDS; i++) {
        snprintf(rid, sizeof rid, "solo_%d", i);
        rp_usage_record r = make_record("tree-00007", NULL, now_us, rid);
        int64_t t = monotonic_ns();
        if (rp_store_record_usage(s, &r, NULL) != 0) {
            die("record", s);
        }
        samples[i] = monotonic_ns() - t;
    }
    report("record_usage (own tx)", samples, HOOK_ROUNDS);

    rp_arena a = {0};
    hook(s, &a, -1, now_us); /* warm: statements prepared */
    for (int i = 0; i < HOOK_ROUNDS; i++) {
        int64_t t = monotonic_ns();
        hook(s, &a, i, now_us);
        samples[i] = monotonic_ns() - t;
    }
    report("hook sequence (open handle)", samples, HOOK_ROUNDS);

    for (int i = 0; i < HOOK_ROUNDS; i++) {
        rp_usage_totals tree, user;
        double approved;
        int64_t t = monotonic_ns();
        if (rp_store_usage_tree(s, "tree-00042", &tree) != 0 ||
            rp_store_user_spend(s, "user-042", "2026-03-01", "2026-03-31", &user) != 0 ||
            rp_store_get_user_approval(s, "user-042", "month", "2026-03-01", &approved) != 0) {
            die("read", s);
        }
        samples[i] = monotonic_ns() - t;
    }
    report("reads: tree+month+approval", samples, HOOK_ROUNDS);
    for (int i = 0; i < HOOK_ROUNDS; i++) {
        rp_usage_totals sub;
        int64_t t = monotonic_ns();
        if (rp_store_usage_subtree(s, "tree-00042", &sub) != 0) {
            die("subtree", s);
        }
        samples[i] = monotonic_ns() - t;
    }
    report("reads: subtree", samples, HOOK_ROUNDS);

    rp_spend_query q = {.group = RP_SPEND_BY_DAY};
    int n = 0;
    t0 = monotonic_ns();
    if (rp_store_spend(s, &q, count_rows, &n) != 0) {
        die("spend", s);
    }
    printf("%-28s %d groups in %.1f ms\n", "spend --by day (all rows)", n,
           (double)(monotonic_ns() - t0) / 1e6);
    q = (rp_spend_query){.user_id = "user-042", .group = RP_SPEND_BY_MODEL};
    n = 0;
    t0 = monotonic_ns();
    if (rp_store_spend(s, &q, count_rows, &n) != 0) {
        die("spend", s);
    }
    printf("%-28s %d groups in %.1f ms\n", "spend --user --by model", n,
           (double)(monotonic_ns() - t0) / 1e6);
    rp_store_close(s);

    for (int i = 0; i < FRESH_ROUNDS; i++) {
        int64_t t = monotonic_ns();
        s = open_or_die(dir);
        hook(s, &a, HOOK_ROUNDS + i, now_us);
        rp_store_close(s);
        samples[i] = monotonic_ns() - t;
    }
    report("open+hook+close", samples, FRESH_ROUNDS);
    for (int i = 0; i < FRESH_ROUNDS; i++) {
        int64_t t = monotonic_ns();
        rp_store_close(open_or_die(dir));
        samples[i] = monotonic_ns() - t;
    }
    report("open+close", samples, FRESH_ROUNDS);
    rp_arena_free(&a);
    if (keep != NULL) {
        return 0;
    }

    const char *suffixes[] = {"/state.db", "/state.db-wal", "/state.db-shm"};
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        char path[sizeof dir + 16];
        snprintf(path, sizeof path, "%s%s", dir, suffixes[i]);
        unlink(path);
    }
    rmdir(dir);
    rmdir(base);
    return 0;
}
