/* bench_hook.c — wall time of a fresh hook process evaluating one event statefully on SQLite
 * (issue 2 §9 and issue 8: target ≤ 2 ms median, p95 reported).
 *
 *   bench_hook RAMPART CONFIG [RUNS]        default 300 runs
 *
 * Three figures, each RUNS fresh processes (fork, exec, pipe the payload, wait):
 *   - `RAMPART --version`: the floor, process start of this binary and nothing else;
 *   - `RAMPART eval -c CONFIG --state-dir DIR -` on one tool_call PolicyEvent;
 *   - `RAMPART hook claude-code -c CONFIG --state-dir DIR` on Claude Code's PreToolUse payload
 *     for a Bash call: what Claude Code actually runs; it adds the adapter and the answer.
 * The time covers exec, config load, store open, evaluation, audit, commit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char hook_payload[] =
    "{\"session_id\":\"hook-bench\",\"transcript_path\":null,\"cwd\":\"/tmp\","
    "\"permission_mode\":\"default\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":"
    "\"Bash\",\"tool_input\":{\"command\":\"git status\",\"description\":\"Show the "
    "working tree status\"},\"tool_use_id\":\"toolu_01ABC\"}\n";

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

typedef enum mode { MODE_VERSION, MODE_EVAL, MODE_HOOK } mode;

static int run_once(mode m, const char *rampart, const char *config, const char *dir)
{
    const char *input = m == MODE_HOOK ? hook_payload : m == MODE_EVAL ? event : "";
    size_t input_len = strlen(input);
    fflush(stdout); /* else the child's freopen writes out what the parent had buffered */
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
        if (m == MODE_VERSION)
            execl(rampart, rampart, "--version", (char *)NULL);
        else if (m == MODE_EVAL)
            execl(rampart, rampart, "eval", "-c", config, "--state-dir", dir, "-", (char *)NULL);
        else
            execl(rampart, rampart, "hook", "claude-code", "-c", config, "--state-dir", dir,
                  (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    if (input_len > 0 && write(in[1], input, input_len) != (ssize_t)input_len)
        return -1;
    close(in[1]);
    int status;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return 0;
}

static int measure(mode m, const char *label, const char *rampart, const char *config,
                   const char *dir, int runs, double *t)
{
    /* The first run creates the database and runs migrations; it is not the steady hook case. */
    if (run_once(m, rampart, config, dir) != 0)
        return fprintf(stderr, "bench_hook: %s failed\n", label), -1;
    for (int i = 0; i < runs; i++) {
        double t0 = now_ms();
        if (run_once(m, rampart, config, dir) != 0)
            return fprintf(stderr, "bench_hook: %s, run %d failed\n", label, i), -1;
        t[i] = now_ms() - t0;
    }
    qsort(t, (size_t)runs, sizeof(double), cmp_double);
    printf("%-52s %d runs: median %.2f ms, p95 %.2f ms, min %.2f ms, max %.2f ms\n", label, runs,
           t[runs / 2], t[(runs * 95) / 100], t[0], t[runs - 1]);
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
    if (t == NULL)
        return 1;
    if (measure(MODE_VERSION, "rampart --version (process start only)", argv[1], argv[2], dir, runs,
                t) != 0 ||
        measure(MODE_EVAL, "rampart eval, one tool_call, stateful SQLite", argv[1], argv[2], dir,
                runs, t) != 0 ||
        measure(MODE_HOOK, "rampart hook claude-code, PreToolUse Bash, SQLite", argv[1], argv[2],
                dir, runs, t) != 0)
        return 1;
    free(t);
    char cmd[512];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}
