/* bench_store — cost of the SQLite state store on the stateful path.
 *
 *   1. 10,000 begin → load → save → commit cycles on one session through one open handle
 *      (the `rampart eval` of a long session, or a server);
 *   2. open + close, 200 times (a fresh hook process opens the store once; this approximates
 *      that part of its cost without process start-up);
 *   3. open + one cycle + close, 200 times (what a hook process does with the store).
 *
 * The state is a small realistic object: a counter and a 10-entry history, ~300 bytes. Runs in
 * a fresh temporary directory, removed afterwards. Usage: bench_store [CYCLES] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "core/arena.h"
#include "core/json.h"
#include "store/store.h"

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
    fprintf(stderr, "bench_store: %s: %s\n", what, s != NULL ? rp_store_error(s) : "");
    exit(1);
}

/* One hook-style cycle: load, bump the counter, push to the history, save. */
static void cycle(rp_store *s, rp_arena *a, int64_t i)
{
    if (rp_store_begin(s) != 0) {
        die("begin", s);
    }
    rp_json *state = NULL;
    if (rp_store_load_state(s, "bench-session", a, &state) != 0) {
        die("load", s);
    }
    rp_json history = rp_json_make_array();
    const rp_json *old = rp_json_get(state, "_policy_history");
    size_t first = old != NULL && old->len >= 10 ? old->len - 9 : 0;
    for (size_t k = first; old != NULL && k < old->len; k++) {
        rp_json_array_push(a, &history, old->v.items[k]);
    }
    rp_json_array_push(a, &history,
                       rp_json_make_string(a, "Bash:8f14e45fceea167a5a36dedd4bea2543"));
    rp_json_object_set(a, state, "_policy_history", history);
    rp_json_object_set(a, state, "_policy_tool_calls", rp_json_make_int(i));
    if (rp_store_save_state(s, "bench-session", state) != 0) {
        die("save", s);
    }
    if (rp_store_commit(s) != 0) {
        die("commit", s);
    }
    rp_arena_reset(a);
}

static rp_store *open_or_die(const char *dir)
{
    char err[1024];
    rp_store *s = rp_store_open_sqlite(dir, err, sizeof err);
    if (s == NULL) {
        fprintf(stderr, "bench_store: open: %s\n", err);
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

int main(int argc, char **argv)
{
    int cycles = argc > 1 ? atoi(argv[1]) : 10000;
    if (cycles <= 0) {
        fprintf(stderr, "usage: bench_store [CYCLES]\n");
        return 2;
    }
    char base[] = "/tmp/rampart-bench-store-XXXXXX";
    if (mkdtemp(base) == NULL) {
        perror("bench_store: mkdtemp");
        return 1;
    }
    char dir[sizeof base + 16];
    snprintf(dir, sizeof dir, "%s/state", base);
    printf("bench_store: sqlite %s, state dir %s\n", sqlite3_libversion(), dir);

    rp_store *s = open_or_die(dir);
    rp_arena a = {0};
    cycle(s, &a, 0); /* warm up: schema created, statements prepared */
    int64_t start = monotonic_ns();
    for (int i = 1; i <= cycles; i++) {
        cycle(s, &a, i);
    }
    int64_t elapsed = monotonic_ns() - start;
    printf("%-28s n=%d  %.1f µs/cycle  %.0f cycles/s\n", "begin/load/save/commit", cycles,
           (double)elapsed / cycles / 1e3, cycles / ((double)elapsed / 1e9));
    rp_store_close(s);

    enum { ROUNDS = 200 };
    static int64_t samples[ROUNDS];
    for (int i = 0; i < ROUNDS; i++) {
        int64_t t0 = monotonic_ns();
        rp_store_close(open_or_die(dir));
        samples[i] = monotonic_ns() - t0;
    }
    report("open+close", samples, ROUNDS);

    for (int i = 0; i < ROUNDS; i++) {
        int64_t t0 = monotonic_ns();
        s = open_or_die(dir);
        cycle(s, &a, i);
        rp_store_close(s);
        samples[i] = monotonic_ns() - t0;
    }
    report("open+cycle+close", samples, ROUNDS);
    rp_arena_free(&a);

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
