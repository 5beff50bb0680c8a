/* bench_hook_inproc.c — the hook's in-process work per call (issue 17, "the hot path"): from
 * the host's payload to the host's answer, without process start, config load or store open.
 *
 *   bench_hook_inproc [ROUNDS] [DATA_DIR] [CONFIG] [memory|sqlite]
 *       defaults: 200, tests/data/hosts, tests/data/hosts/config.yaml (run from the repo root),
 *       both stores
 *
 * The payloads are the recorded host payloads of the hook end-to-end tests
 * (DATA_DIR/<host>/NN-*.json, every host rampart has an adapter for). Each round answers every
 * payload once through rp_hook_answer_in_process, on a store opened before the round:
 *   - memory: rp_store_open_memory, so the figure is rampart's own work (adapter, transcript
 *     check, session, policies, audit row, answer) and no SQLite;
 *   - sqlite: a new database in a temporary directory, what a hook call does after the open.
 * Figures: process CPU time (steadier than wall time on a shared machine), mean µs per call
 * over all payloads (the median round, and the best), and per host.
 * Transcript paths in the payloads do not exist here: their reads fail fast, as on a machine
 * where the host wrote none, and the hook's stderr notes are discarded while timing. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config/stack.h"
#include "hosts/hook.h"
#include "hosts/host.h"
#include "store/store.h"

#define MAX_CASES 512

typedef struct bench_case {
    const rp_hook_adapter *host;
    char *payload;
    size_t len;
} bench_case;

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU time: steadier on a shared machine */
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n + 4096 > cap) {
            cap = cap ? cap * 2 : 8192;
            buf = realloc(buf, cap);
            if (buf == NULL)
                abort();
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *len = n;
    return buf;
}

/* Every DATA_DIR/<host>/NAME.json that is a case (it has a .stdout beside it), sorted. */
static size_t load_host(const char *data, const rp_hook_adapter *host, bench_case *cases, size_t n)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", data, host->name);
    DIR *d = opendir(dir);
    if (d == NULL)
        return n;
    char *names[MAX_CASES];
    size_t k = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && k < MAX_CASES) {
        size_t l = strlen(e->d_name);
        if (l > 5 && strcmp(e->d_name + l - 5, ".json") == 0)
            names[k++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, k, sizeof names[0], cmp_name);
    for (size_t i = 0; i < k; i++) {
        char path[8192], out[8192];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        snprintf(out, sizeof out, "%.*s.stdout", (int)(strlen(path) - 5), path);
        if (n < MAX_CASES && access(out, F_OK) == 0) {
            cases[n].host = host;
            cases[n].payload = slurp(path, &cases[n].len);
            if (cases[n].payload)
                n++;
        }
        free(names[i]);
    }
    return n;
}

/* One round: every case once, timed host by host (the cases of a host are contiguous), so
 * that reading the clock costs little beside the calls. Adds each host's time to per_host. */
static double round_us(const rp_config *cfg, rp_store *store, rp_cost_pricing_once *prices,
                       const bench_case *cases, size_t n, const rp_hook_adapter *const *hosts,
                       size_t n_hosts, double *per_host)
{
    rp_hook_answer ans = {0};
    double total = 0;
    for (size_t h = 0; h < n_hosts && h < 16; h++) {
        double t0 = now_us();
        for (size_t i = 0; i < n; i++) {
            if (cases[i].host != hosts[h])
                continue;
            rp_hook_in_process o = {
                .host = cases[i].host, .cfg = cfg, .store = store, .pricing = prices};
            rp_hook_answer_in_process(&o, cases[i].payload, cases[i].len, &ans);
        }
        double dt = now_us() - t0;
        per_host[h] += dt;
        total += dt;
    }
    rp_buf_free(&ans.out);
    rp_buf_free(&ans.err);
    return total;
}

/* A fresh store per round (opened outside the timing), so that every round starts from the
 * same state: the sessions' counters and the audit trail would otherwise grow round by round. */
typedef struct store_maker {
    const char *kind; /* "memory" or "sqlite" */
    char root[64];    /* sqlite: the temporary directory holding one directory per round */
    int made;
} store_maker;

static rp_store *make_store(store_maker *m)
{
    if (strcmp(m->kind, "memory") == 0)
        return rp_store_open_memory();
    char dir[128], err[512] = "";
    snprintf(dir, sizeof dir, "%s/%d", m->root, m->made++);
    rp_store *s = rp_store_open_sqlite(dir, err, sizeof err);
    if (s == NULL) {
        fprintf(stdout, "bench_hook_inproc: %s\n", err);
        exit(1);
    }
    return s;
}

static void measure(store_maker *m, const rp_config *cfg, const bench_case *cases, size_t n,
                    int rounds)
{
    size_t n_hosts;
    const rp_hook_adapter *const *hosts = rp_hook_host_all(&n_hosts);
    double per_host[16] = {0}, discard[16] = {0};
    size_t count[16] = {0};
    for (size_t i = 0; i < n; i++)
        for (size_t h = 0; h < n_hosts && h < 16; h++)
            count[h] += hosts[h] == cases[i].host;
    double *t = calloc((size_t)rounds, sizeof *t);
    if (t == NULL)
        abort();
    /* One price table for the run, as one hook process keeps one for its call. */
    rp_cost_pricing_once prices = {.config_pricing = cfg->pricing};
    fflush(stderr);
    int saved = dup(2), null = open("/dev/null", O_WRONLY);
    dup2(null, 2);
    for (int r = -1; r < rounds; r++) { /* round -1 warms up: tables, caches */
        rp_store *store = make_store(m);
        double total =
            round_us(cfg, store, &prices, cases, n, hosts, n_hosts, r < 0 ? discard : per_host);
        if (r >= 0)
            t[r] = total / (double)n;
        rp_store_close(store);
    }
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(null);
    rp_cost_pricing_once_free(&prices);
    qsort(t, (size_t)rounds, sizeof *t, cmp_double);
    printf("%-8s %zu payloads x %d rounds: median %.1f us/call, best %.1f us/call\n", m->kind, n,
           rounds, t[rounds / 2], t[0]);
    for (size_t h = 0; h < n_hosts && h < 16; h++)
        if (count[h])
            printf("         %-12s %3zu payloads: mean %.1f us/call\n", hosts[h]->name, count[h],
                   per_host[h] / (double)(count[h] * (size_t)rounds));
    free(t);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 200;
    const char *data = argc > 2 ? argv[2] : "tests/data/hosts";
    const char *config = argc > 3 ? argv[3] : "tests/data/hosts/config.yaml";
    if (rounds < 3)
        rounds = 3;

    rp_config_file file = {.path = config, .level = RP_LEVEL_EXPLICIT};
    rp_config_trust_probe probe = {.prog = "bench_hook_inproc", .dir = NULL};
    rp_config *cfg = rp_config_load_stack(&file, 1, &probe, false);
    if (cfg->n_errors > 0) {
        rp_config_print_diags(cfg, stderr);
        return 1;
    }
    static bench_case cases[MAX_CASES];
    size_t n = 0, n_hosts;
    const rp_hook_adapter *const *hosts = rp_hook_host_all(&n_hosts);
    for (size_t h = 0; h < n_hosts; h++)
        n = load_host(data, hosts[h], cases, n);
    if (n == 0) {
        fprintf(stderr, "bench_hook_inproc: no payloads under %s\n", data);
        return 1;
    }
    setenv("RAMPART_NOW", "2026-12-01T10:00:00Z", 1); /* the e2e tests' clock */

    const char *only = argc > 4 ? argv[4] : "";
    store_maker mem = {.kind = "memory"};
    if (strcmp(only, "sqlite") != 0)
        measure(&mem, cfg, cases, n, rounds);
    if (strcmp(only, "memory") == 0)
        goto done;
    store_maker db = {.kind = "sqlite"};
    snprintf(db.root, sizeof db.root, "/tmp/rampart-hook-inproc-XXXXXX");
    if (mkdtemp(db.root) == NULL)
        return perror("mkdtemp"), 1;
    measure(&db, cfg, cases, n, rounds / 4 > 3 ? rounds / 4 : 3);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", db.root);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_hook_inproc: could not remove %s\n", db.root);
done:
    for (size_t i = 0; i < n; i++)
        free(cases[i].payload);
    if (probe.store)
        rp_store_close(probe.store);
    rp_config_free(cfg);
    return 0;
}
