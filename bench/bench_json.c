/* bench_json.c — JSON reader and writer throughput on a typical PolicyEvent.
 *
 * Usage: bench_json [ITERATIONS]   (default 1,000,000)
 *
 * The event is what a Claude Code PreToolUse hook turns into: a tool_call with its arguments,
 * context (actor, usage, model, harness, labels, cwd, …) and session_state. Each iteration
 * parses it into an arena that is then reset, as the engine does per evaluation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"

static const char event_text[] =
    "{\"type\":\"tool_call\",\"session_id\":\"7f3c2a9e-5b1d-4c8e-9a2f-1e6d3b7c4a05\","
    "\"target\":\"Bash\",\"data\":{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":"
    "\"git status --porcelain && npm test -- "
    "--watch=false\",\"timeout\":120000}},\"context\":{\"actor\":{\"id\":"
    "\"agent-main\",\"run_as\":\"alice\"},\"usage\":{\"input_tokens\":18234,"
    "\"output_tokens\":2210,\"cost_usd\":0.4213,\"tool_calls\":37},"
    "\"model\":\"claude-sonnet-4-5\",\"harness\":\"claude-code\",\"labels\":{\"project\":"
    "\"web-frontend\"},\"cwd\":\"/home/alice/src/web-frontend\",\"home\":"
    "\"/home/alice\",\"tool_use_id\":\"toolu_01HXk4mB9vQe7Zt2aR8wYc3N\","
    "\"permission_mode\":\"default\"},\"session_state\":{\"_policy_call_count\":36,"
    "\"_policy_recent_calls\":[\"a52074d1ebc058e0\",\"389a328fdd2df8d6\",\"a52074d1ebc058e0\"],"
    "\"_thrashing_results\":[true,false],\"risk_score\":12.5}}";

static double seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

int main(int argc, char **argv)
{
    long iterations = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000;
    if (iterations <= 0) {
        fprintf(stderr, "usage: bench_json [ITERATIONS]\n");
        return 2;
    }
    size_t len = sizeof event_text - 1;
    rp_arena arena;
    rp_arena_init(&arena, 16 * 1024);
    rp_json_error err;

    /* Sanity and warm-up: the event must parse, and to what we expect. */
    rp_json *v = rp_json_parse(&arena, event_text, len, &err);
    if (!v || !rp_json_get_str(v, "target")) {
        fprintf(stderr, "bench_json: event does not parse: %s\n", err.msg);
        return 1;
    }
    rp_arena_reset(&arena);

    struct timespec start;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
    size_t checksum = 0;
    for (long i = 0; i < iterations; i++) {
        v = rp_json_parse(&arena, event_text, len, &err);
        checksum += v->len;
        rp_arena_reset(&arena);
    }
    double parse_s = seconds_since(&start);

    v = rp_json_parse(&arena, event_text, len, &err);
    rp_buf out = {0};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
    for (long i = 0; i < iterations; i++) {
        rp_buf_reset(&out);
        rp_json_write(&out, v);
        checksum += out.len;
    }
    double write_s = seconds_since(&start);

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
    for (long i = 0; i < iterations; i++) {
        rp_buf_reset(&out);
        rp_json_write_python(&out, v);
        checksum += out.len;
    }
    double python_s = seconds_since(&start);

    printf("event: %zu bytes, %ld iterations (checksum %zu)\n", len, iterations, checksum);
    printf("parse:        %7.1f ns/event  %7.1f MB/s\n", parse_s * 1e9 / (double)iterations,
           (double)len * (double)iterations / parse_s / 1e6);
    printf("write:        %7.1f ns/event  %7.1f MB/s\n", write_s * 1e9 / (double)iterations,
           (double)len * (double)iterations / write_s / 1e6);
    printf("write_python: %7.1f ns/event  %7.1f MB/s\n", python_s * 1e9 / (double)iterations,
           (double)len * (double)iterations / python_s / 1e6);
    rp_buf_free(&out);
    rp_arena_free(&arena);
    return 0;
}
