/* bench_eval.c — end-to-end evaluation throughput (issue 2 §9).
 *
 *   bench_eval [EVENTS [stateless]]   default 100000; "stateless" skips part 2 (profiling)
 *
 * 1. Stateless: all nine policies of the foundation in one config, EVENTS mixed events written to
 *    a file and read back line by line, JSON parsing included (target ≥ 500k events/s).
 * 2. Stateful on SQLite: 10,000 events of one session, one transaction each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config/config.h"
#include "session/session.h"
#include "store/store.h"

static const char config_yaml[] =
    "policies:\n"
    "  budget:\n"
    "    handler: max_tool_calls_per_session\n"
    "    factory_params: {limit: 1000000000}\n"
    "  loop:\n"
    "    handler: detect_loop\n"
    "    factory_params: {window: 10, threshold: 3}\n"
    "  thrash:\n"
    "    handler: detect_thrashing\n"
    "  os:\n"
    "    handler: ask_on_os_tools\n"
    "  skills:\n"
    "    handler: block_skills\n"
    "    factory_params: {blocked: [deploy, admin]}\n"
    "  spawn:\n"
    "    handler: spawn_bounds\n"
    "  purpose:\n"
    "    handler: headless_subagent_purpose_guard\n"
    "  readonly:\n"
    "    handler: read_only_os\n"
    "  risk:\n"
    "    handler: risk_score_policy\n"
    "    factory_params: {tool_points: {Bash: 1, Write: 5}, guarded_tools: [Write]}\n";

/* Typical events of a coding agent, ~300-800 bytes each. */
static const char *const templates[] = {
    "{\"type\":\"tool_call\",\"target\":\"Bash\",\"session_id\":\"bench\",\"data\":{\"name\":"
    "\"Bash\",\"arguments\":{\"command\":\"npm test -- --run %d\",\"description\":\"Run the "
    "tests\"}},\"context\":{\"actor\":{\"run_as\":\"dev@example.com\"},\"usage\":{"
    "\"input_tokens\":1200,\"output_tokens\":340,\"total_tokens\":1540,"
    "\"cache_read_input_tokens\":0,\"cache_creation_input_tokens\":0,\"total_cost_usd\":0.012},"
    "\"model\":\"claude-sonnet-4-5\",\"harness\":\"claude-code\",\"labels\":{},\"cwd\":"
    "\"/home/dev/project\",\"host\":\"claude-code\",\"tool_use_id\":\"toolu_%d\"},"
    "\"session_state\":{\"_policy_tool_call_count\":%d,\"_policy_loop_recent_hashes\":["
    "\"a52074d1ebc058e0ae9d94bc7c67f985268aeadcff79d86f67dbaff53a799d7e\"]}}",
    "{\"type\":\"tool_result\",\"target\":\"Bash\",\"session_id\":\"bench\",\"data\":{"
    "\"result\":\"Error: test %d failed\\n  at Object.<anonymous> (src/app.test.js:12:5)\"},"
    "\"request_data\":{\"name\":\"Bash\",\"arguments\":{\"command\":\"npm test\"}},"
    "\"context\":{\"actor\":{},\"usage\":{},\"tool_use_id\":\"toolu_%d\"},\"session_state\":{"
    "\"_thrashing_results\":[0,1,0,%d]}}",
    "{\"type\":\"tool_call\",\"target\":\"Read\",\"session_id\":\"bench\",\"data\":{\"name\":"
    "\"Read\",\"arguments\":{\"file_path\":\"/home/dev/project/src/module_%d.c\"}},\"context\":"
    "{\"cwd\":\"/home/dev/project\",\"tool_use_id\":\"toolu_%d\"},\"session_state\":{\"n\":%d}}",
    "{\"type\":\"request\",\"session_id\":\"bench\",\"data\":{\"user_content\":\"/review the "
    "change %d please\",\"attachments\":[]},\"context\":{\"actor\":{\"run_as\":"
    "\"dev@example.com\"},\"tool_use_id\":\"t%d\"},\"session_state\":{\"k\":%d}}",
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *make_event(int i, size_t *len)
{
    const char *t = templates[i % (int)(sizeof(templates) / sizeof(templates[0]))];
    char *buf = malloc(2048);
    int n = snprintf(buf, 2048, t, i % 7, i, i % 3);
    *len = (size_t)n;
    return buf;
}

static int bench_stateless(const rp_config *cfg, int events)
{
    char path[] = "/tmp/rampart-bench-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return perror("mkstemp"), 1;
    FILE *f = fdopen(fd, "w+");
    size_t bytes = 0;
    for (int i = 0; i < events; i++) {
        size_t len;
        char *e = make_event(i, &len);
        fwrite(e, 1, len, f);
        fputc('\n', f);
        bytes += len + 1;
        free(e);
    }
    rewind(f);

    rp_arena arena;
    rp_arena_init(&arena, 64 * 1024);
    rp_session_opts opts = {.arena = &arena};
    rp_buf out = {0};
    char err[256];
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int counts[4] = {0};
    double t0 = now_s();
    while ((n = getline(&line, &cap, f)) > 0) {
        rp_buf_reset(&out);
        if (rp_session_eval(cfg, &opts, line, (size_t)n - 1, &out, err, sizeof(err)) !=
            RP_SESSION_OK)
            return fprintf(stderr, "bench: %s\n", err), 1;
        const char *verdict = out.data + strlen("{\"result\":\"");
        counts[strncmp(verdict, "ALLOW", 5) == 0 ? 0 : strncmp(verdict, "ASK", 3) == 0 ? 1 : 2]++;
    }
    double dt = now_s() - t0;
    printf("stateless: %d events (%.0f bytes avg), 9 policies: %.3f s, %.0f events/s, "
           "%.2f us/event\n",
           events, (double)bytes / events, dt, events / dt, dt * 1e6 / events);
    printf("  (decisions: %d ALLOW, %d ASK, %d other)\n", counts[0], counts[1], counts[2]);
    free(line);
    fclose(f);
    unlink(path);
    rp_buf_free(&out);
    rp_arena_free(&arena);
    return 0;
}

static int bench_stateful(const rp_config *cfg, int events)
{
    char dir[] = "/tmp/rampart-bench-state-XXXXXX";
    if (!mkdtemp(dir))
        return perror("mkdtemp"), 1;
    char err[256];
    rp_store *store = rp_store_open_sqlite(dir, err, sizeof(err));
    if (!store)
        return fprintf(stderr, "bench: %s\n", err), 1;
    rp_arena arena;
    rp_arena_init(&arena, 64 * 1024);
    rp_session_opts opts = {.arena = &arena, .store = store, .audit = true};
    rp_buf out = {0};
    double t0 = now_s();
    for (int i = 0; i < events; i++) {
        size_t len;
        char *e = make_event(i, &len);
        rp_buf_reset(&out);
        if (rp_session_eval(cfg, &opts, e, len, &out, err, sizeof(err)) != RP_SESSION_OK)
            return fprintf(stderr, "bench: %s\n", err), 1;
        free(e);
    }
    double dt = now_s() - t0;
    printf("stateful (SQLite, WAL, audit on): %d events of one session: %.3f s, %.0f events/s, "
           "%.1f us/event\n",
           events, dt, events / dt, dt * 1e6 / events);
    rp_store_close(store);
    rp_buf_free(&out);
    rp_arena_free(&arena);
    char cmd[512];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    int events = argc > 1 ? atoi(argv[1]) : 100000;
    if (events <= 0)
        return fprintf(stderr, "usage: bench_eval [EVENTS]\n"), 2;
    rp_config *cfg = rp_config_load_string("bench.yaml", config_yaml, strlen(config_yaml),
                                           RP_LEVEL_EXPLICIT);
    if (cfg->n_errors) {
        rp_buf b = {0};
        for (size_t i = 0; i < cfg->n_diags; i++) {
            rp_diag_format(&cfg->diags[i], &b);
            rp_buf_putc(&b, '\n');
        }
        fprintf(stderr, "%s", b.data ? b.data : "");
        return 1;
    }
    int rc = bench_stateless(cfg, events);
    if (rc == 0 && !(argc > 2 && strcmp(argv[2], "stateless") == 0))
        rc = bench_stateful(cfg, 10000);
    rp_config_free(cfg);
    return rc;
}
