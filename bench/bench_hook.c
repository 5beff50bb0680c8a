/* bench_hook.c — wall time of a fresh `rampart eval` process evaluating one event statefully on
 * SQLite: the hook case (issue 2 §9; target ≤ 2 ms median, p95 reported).
 *
 *   bench_hook RAMPART CONFIG [RUNS]        default 300 runs
 *
 * Each run forks, pipes one tool_call event to `RAMPART eval -c CONFIG --state-dir DIR -`, and
 * waits; the time covers exec, dynamic linking, config load, store open, evaluation, commit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char event[] =
    "{\"type\":\"tool_call\",\"target\":\"Bash\",\"session_id\":\"hook-bench\",\"data\":{"
    "\"name\":\"Bash\",\"arguments\":{\"command\":\"git status\"}},\"context\":{\"cwd\":"
    "\"/tmp\",\"tool_use_id\":\"toolu_1\"}}\n";

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

static int run_once(const char *rampart, const char *config, const char *dir)
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
        execl(rampart, rampart, "eval", "-c", config, "--state-dir", dir, "-", (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    if (write(in[1], event, sizeof(event) - 1) != (ssize_t)(sizeof(event) - 1))
        return -1;
    close(in[1]);
    int status;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return fprintf(stderr, "usage: bench_hook RAMPART CONFIG [RUNS]\n"), 2;
    int runs = argc > 3 ? atoi(argv[3]) : 300;
    if (runs < 10)
        runs = 10;
    char dir[] = "/tmp/rampart-hook-bench-XXXXXX";
    if (!mkdtemp(dir))
        return perror("mkdtemp"), 1;
    double *t = calloc((size_t)runs, sizeof(double));
    /* The first run creates the database and runs migrations; it is not the steady hook case. */
    if (run_once(argv[1], argv[2], dir) != 0)
        return fprintf(stderr, "bench_hook: %s eval failed\n", argv[1]), 1;
    for (int i = 0; i < runs; i++) {
        double t0 = now_ms();
        if (run_once(argv[1], argv[2], dir) != 0)
            return fprintf(stderr, "bench_hook: run %d failed\n", i), 1;
        t[i] = now_ms() - t0;
    }
    qsort(t, (size_t)runs, sizeof(double), cmp_double);
    printf("hook (fresh process, stateful SQLite, one event): %d runs: median %.2f ms, "
           "p95 %.2f ms, min %.2f ms, max %.2f ms\n",
           runs, t[runs / 2], t[(runs * 95) / 100], t[0], t[runs - 1]);
    free(t);
    char cmd[512];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}
