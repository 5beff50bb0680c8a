/* bench_cost.c — the cost hook case (issue 6): wall time of a fresh `rampart eval` process that
 * records one usage row (an llm_response with token counts, priced from the config's table) and
 * then evaluates a tool call of a sub-agent session against the budget policies, statefully on
 * SQLite, with a ledger that already holds a month of spend. Target ≤ 2 ms median.
 *
 *   bench_cost RAMPART [RUNS]        default 300 runs per config
 *
 * Two configs, because user_daily_cost_budget and user_period_cost_budget may not be combined:
 *   daily:  cost_budget + user_daily_cost_budget + the dispatch's subagent_cost_budget
 *   period: cost_budget + user_period_cost_budget (month) + the dispatch's subagent_cost_budget */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define HISTORY_ROWS 20000

static const char events[] =
    "{\"type\":\"llm_response\",\"session_id\":\"bench-child\",\"data\":{\"model\":\"bench-model\","
    "\"usage\":{\"input_tokens\":1200,\"output_tokens\":300,\"cache_read_input_tokens\":4000}},"
    "\"context\":{\"parent_session_id\":\"bench-root\"}}\n"
    "{\"type\":\"tool_call\",\"target\":\"Bash\",\"session_id\":\"bench-child\",\"data\":{"
    "\"name\":\"Bash\",\"arguments\":{\"command\":\"git status\"}},\"context\":{\"cwd\":\"/tmp\","
    "\"parent_session_id\":\"bench-root\",\"model\":\"bench-model\",\"tool_use_id\":\"t1\"}}\n";

static const char pricing[] = "pricing:\n"
                              "  bench-model: {input: 0.0001, output: 0.0001}\n";

static const char daily_policies[] = "policies:\n"
                                     "  session:\n"
                                     "    type: function\n"
                                     "    handler: cost_budget\n"
                                     "    factory_params: {max_cost_usd: 100000}\n"
                                     "  daily:\n"
                                     "    type: function\n"
                                     "    handler: user_daily_cost_budget\n"
                                     "    factory_params: {max_cost_usd: 100000}\n";

static const char period_policies[] = "policies:\n"
                                      "  session:\n"
                                      "    type: function\n"
                                      "    handler: cost_budget\n"
                                      "    factory_params: {max_cost_usd: 100000}\n"
                                      "  monthly:\n"
                                      "    type: function\n"
                                      "    handler: user_period_cost_budget\n"
                                      "    factory_params: {period: month, max_cost_usd: 100000}\n";

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Runs RAMPART with argv, feeding `input` on stdin; 0 when it exits 0. */
static int run(char *const argv[], const char *input, size_t len)
{
    int in[2];
    if (pipe(in) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(in[0], 0);
        close(in[0]);
        close(in[1]);
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    close(in[0]);
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(in[1], input + off, len - off);
        if (w <= 0)
            return -1;
        off += (size_t)w;
    }
    close(in[1]);
    int status;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return 0;
}

static int write_file(const char *path, const char *a, const char *b)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(a, f);
    fputs(b, f);
    return fclose(f);
}

/* A month of history for the owner (spread over 30 days and 200 sessions), and the dispatch
 * that gives bench-child its budget. */
static int seed(const char *rampart, const char *config, const char *dir)
{
    size_t cap = (size_t)HISTORY_ROWS * 200 + 1024;
    char *lines = malloc(cap);
    size_t len = 0;
    for (int i = 0; i < HISTORY_ROWS; i++) {
        len += (size_t)snprintf(lines + len, cap - len,
                                "{\"session_id\":\"hist-%d\",\"user\":\"bench-user\",\"model\":"
                                "\"bench-model\",\"input_tokens\":1000,\"output_tokens\":100,"
                                "\"time\":\"2026-03-%02dT10:00:00Z\",\"id\":\"h%d\"}\n",
                                i % 200, 1 + i % 28, i);
    }
    char *rec[] = {(char *)rampart, "usage",       "record",    "-q", "-c",
                   (char *)config,  "--state-dir", (char *)dir, "-",  NULL};
    int rc = run(rec, lines, len);
    free(lines);
    if (rc != 0)
        return -1;
    static const char dispatch[] =
        "{\"type\":\"tool_call\",\"target\":\"sys_session_send\",\"session_id\":\"bench-root\","
        "\"data\":{\"name\":\"sys_session_send\",\"arguments\":{\"cost_budget\":{"
        "\"max_cost_usd\":100000}}},\"context\":{\"user\":\"bench-user\"}}\n";
    char *ev[] = {(char *)rampart, "eval",      "-c", (char *)config,
                  "--state-dir",   (char *)dir, "-",  NULL};
    return run(ev, dispatch, sizeof dispatch - 1);
}

static int bench(const char *rampart, const char *label, const char *policies, int runs)
{
    char dir[] = "/tmp/rampart-cost-bench-XXXXXX";
    if (!mkdtemp(dir))
        return perror("mkdtemp"), 1;
    char config[600];
    snprintf(config, sizeof config, "%s/rampart.yaml", dir);
    if (write_file(config, policies, pricing) != 0)
        return perror(config), 1;
    setenv("RAMPART_NOW", "2026-03-28T12:00:00Z", 1);
    if (seed(rampart, config, dir) != 0)
        return fprintf(stderr, "bench_cost: seeding the ledger failed\n"), 1;
    char *ev[] = {(char *)rampart, "eval", "-c", config, "--state-dir", dir, "-", NULL};
    double *t = calloc((size_t)runs, sizeof(double));
    for (int i = 0; i < runs; i++) {
        double t0 = now_ms();
        if (run(ev, events, sizeof events - 1) != 0)
            return fprintf(stderr, "bench_cost: run %d failed\n", i), 1;
        t[i] = now_ms() - t0;
    }
    qsort(t, (size_t)runs, sizeof(double), cmp_double);
    printf("cost hook, %s (fresh process: record 1 usage row + evaluate a sub-agent's tool call; "
           "ledger %d rows): %d runs: median %.2f ms, p95 %.2f ms, min %.2f ms\n",
           label, HISTORY_ROWS, runs, t[runs / 2], t[(runs * 95) / 100], t[0]);
    fflush(stdout); /* before the next fork: a child's freopen would flush a copy */
    free(t);
    char cmd[700];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return fprintf(stderr, "usage: bench_cost RAMPART [RUNS]\n"), 2;
    int runs = argc > 2 ? atoi(argv[2]) : 300;
    if (runs < 10)
        runs = 10;
    int rc = bench(argv[1], "cost_budget + user_daily_cost_budget + subagent_cost_budget",
                   daily_policies, runs);
    if (rc == 0)
        rc = bench(argv[1], "cost_budget + user_period_cost_budget(month) + subagent_cost_budget",
                   period_policies, runs);
    return rc;
}
