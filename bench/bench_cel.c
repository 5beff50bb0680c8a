/* bench_cel.c — CEL compile and evaluation times (issue 5's targets: compile < 20 µs median,
 * the tool_call check < 200 ns median).
 *
 * Usage: bench_cel [SAMPLES]   (default 301)
 *
 * (a) parse+compile: each of ten expressions written the way cel_policy users write them is
 *     compiled and freed SAMPLES times, each timed on its own; the figure per
 *     expression is the median, and the overall figure is the median of those.
 * (b) evaluation: the expression on an event parsed once (rp_json, reached through
 *     cel_from_json without copying), with rp_arena_reset after every evaluation as cel_policy
 *     does. One evaluation is too short to time alone, so each sample times a batch of
 *     EVAL_BATCH evaluations; the figure is the median over SAMPLES batches.
 * (d) regex: a CEL `matches()` with a constant pattern (compiled once with the program) on the
 *     event's command, timed per evaluation as in (b); and rp_regex_search with a
 *     secret-detection pattern of the kind deny_secrets' allow_patterns hold, over a 100-byte
 *     command, timed per search (batches of EVAL_BATCH, arena reset after each search).
 * Compiles are timed with CLOCK_MONOTONIC (cheap to read); batches with the thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID), so that on a busy machine time spent descheduled is not counted.
 * Medians discard the samples a preemption still spoils. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cel/cel.h"
#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"
#include "core/regex.h"

#define EVAL_BATCH 1000

static const char event_text[] =
    "{\"type\":\"tool_call\",\"session_id\":\"7f3c2a9e-5b1d-4c8e-9a2f-1e6d3b7c4a05\","
    "\"target\":\"Bash\",\"data\":{\"name\":\"Bash\",\"arguments\":{\"command\":"
    "\"rm -rf build && npm test -- --watch=false\",\"timeout\":120000,"
    "\"files\":[\"src/a.c\",\"/etc/hosts\"],\"path\":\"/home/alice/.env\"}},"
    "\"context\":{\"actor\":{\"id\":\"agent-main\",\"run_as\":\"alice\"},"
    "\"usage\":{\"input_tokens\":18234,\"output_tokens\":2210,\"total_cost_usd\":0.4213,"
    "\"tool_calls\":37},\"model\":\"claude-sonnet-4-5\",\"harness\":\"claude-code\","
    "\"cwd\":\"/home/alice/src/web-frontend\"},"
    "\"session_state\":{\"call_count\":36,\"budget_usd\":5,"
    "\"recent_tools\":[\"Bash\",\"Read\",\"Bash\",\"Edit\",\"Bash\"]}}";

/* Ten realistic policy expressions: the seed's count_tool_calls, budget checks, a regex on a
 * command, comprehensions over lists, map results. */
static const char *const compile_exprs[] = {
    /* the seed's count_tool_calls */
    "event.type == \"tool_call\" ? {\n"
    "  \"result\": \"ALLOW\",\n"
    "  \"state_updates\": [\n"
    "    {\"key\": \"call_count\", \"action\": \"increment\", \"value\": 1},\n"
    "    {\"key\": \"last_tool\", \"action\": \"set\", \"value\": event.data.name}\n"
    "  ]\n"
    "} : {\"result\": \"ALLOW\"}",
    "event.context.usage.total_cost_usd > 5.0 ? {\"result\": \"DENY\", \"reason\": "
    "\"session budget exceeded\"} : {\"result\": \"ALLOW\"}",
    "event.context.usage.total_cost_usd * 1.1 >= double(event.session_state.budget_usd)",
    "event.type == \"tool_call\" && event.data.name == \"Bash\" && "
    "event.data.arguments.command.matches('^\\\\s*rm\\\\s+-[a-zA-Z]*r[a-zA-Z]*f?\\\\s+/')",
    "event.data.arguments.files.exists(f, f.startsWith(\"/etc/\") || f.endsWith(\".pem\"))",
    "{\"result\": event.session_state.call_count + 1 > 100 ? \"DENY\" : \"ALLOW\", "
    "\"reason\": \"too many tool calls in this session\"}",
    "has(event.data.arguments.path) && event.data.arguments.path.endsWith(\".env\") ? "
    "{\"result\": \"ASK\", \"reason\": \"reads a secrets file\"} : {}",
    "event.type == \"request\" && event.data.lowerAscii().contains(\"ignore previous "
    "instructions\")",
    "event.data.name in [\"Bash\", \"Shell\"] && !(event.data.arguments.command.split(\" \")[0] "
    "in [\"ls\", \"cat\", \"git\", \"grep\"])",
    "event.session_state.recent_tools.filter(t, t == \"Bash\").size() >= 3 ? "
    "{\"result\": \"ASK\", \"reason\": \"many shell calls in a row\", \"state_updates\": "
    "[{\"key\": \"shell_streak\", \"action\": \"set\", \"value\": true}]} : {\"result\": "
    "\"ALLOW\"}",
};

static const char eval_expr[] = "event.type == \"tool_call\" && event.data.name in [\"Bash\", "
                                "\"Shell\"] && event.data.arguments.command.contains(\"rm\")";

/* Wall time: a vDSO call of ~20 ns, cheap enough to bracket one compile. */
static double wall_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* The thread's CPU time: a system call, so only around whole batches. */
static double cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static const char matches_expr[] =
    "event.data.arguments.command.matches('^\\\\s*rm\\\\s+-[a-zA-Z]*r[a-zA-Z]*f?\\\\s+\\\\S')";

/* A secret-detection pattern in RE2 syntax, the kind deny_secrets' allow_patterns hold, and a
 * command it does not match (the common case: the whole subject is searched). */
static const char secret_pattern[] = "(?i)(?:api[_-]?key|secret|token)[\"']?\\s*[:=]\\s*[\"']?"
                                     "[A-Za-z0-9_\\-]{16,}";
static const char secret_subject[] = "curl -H 'Authorization: Bearer xyz' "
                                     "https://example.com/api/v1/items?page=2&limit=50 -o out.json";

static cel_program *compile_or_die(const char *src)
{
    cel_program *p = NULL;
    cel_source_error err;
    if (cel_compile(src, strlen(src), NULL, &p, &err) != 0) {
        fprintf(stderr, "bench_cel: does not compile (%d:%d %s):\n%s\n", err.line, err.col,
                err.message, src);
        exit(1);
    }
    return p;
}

/* (d): a matches() evaluation, and one search with a secret-detection pattern. */
static void bench_regex(const cel_activation *act, rp_arena *arena, double *times, long samples)
{
    cel_program *p = compile_or_die(matches_expr);
    cel_value r = cel_eval(p, act, arena);
    char err[256];
    rp_regex *re = rp_regex_compile(secret_pattern, sizeof secret_pattern - 1, err, sizeof err);
    if (r.kind != CEL_BOOL || !r.v.b || !re ||
        rp_regex_search(re, secret_subject, sizeof secret_subject - 1, arena, err, sizeof err) !=
            0) {
        fprintf(stderr, "bench_cel: the regex benchmark does not give the expected answers\n");
        exit(1);
    }
    rp_arena_reset(arena);
    for (long s = 0; s < samples; s++) {
        double t0 = cpu_ns();
        for (int k = 0; k < EVAL_BATCH; k++) {
            cel_eval(p, act, arena);
            rp_arena_reset(arena);
        }
        times[s] = (cpu_ns() - t0) / EVAL_BATCH;
    }
    printf("eval: %s\n  median %.1f ns per evaluation (%ld batches of %d)\n", matches_expr,
           median(times, (size_t)samples), samples, EVAL_BATCH);
    for (long s = 0; s < samples; s++) {
        double t0 = cpu_ns();
        for (int k = 0; k < EVAL_BATCH; k++) {
            rp_regex_search(re, secret_subject, sizeof secret_subject - 1, arena, err, sizeof err);
            rp_arena_reset(arena);
        }
        times[s] = (cpu_ns() - t0) / EVAL_BATCH;
    }
    printf("regex: %s over a %zu-byte command (no match)\n  median %.1f ns per search (%ld "
           "batches of %d)\n",
           secret_pattern, sizeof secret_subject - 1, median(times, (size_t)samples), samples,
           EVAL_BATCH);
    rp_regex_free(re);
    cel_program_free(p);
}

int main(int argc, char **argv)
{
    long samples = argc > 1 ? strtol(argv[1], NULL, 10) : 301;
    if (samples <= 0) {
        fprintf(stderr, "usage: bench_cel [SAMPLES]\n");
        return 2;
    }
    size_t n_exprs = sizeof compile_exprs / sizeof compile_exprs[0];
    double *times = malloc((size_t)samples * sizeof *times);
    double medians[sizeof compile_exprs / sizeof compile_exprs[0]];

    rp_arena event_arena, arena;
    rp_arena_init(&event_arena, 16 * 1024);
    rp_arena_init(&arena, 16 * 1024);
    rp_json_error jerr;
    rp_json *event = rp_json_parse(&event_arena, event_text, sizeof event_text - 1, &jerr);
    if (!times || !event) {
        fprintf(stderr, "bench_cel: setup failed\n");
        return 1;
    }
    cel_binding vars[] = {{"event", cel_from_json(event)}};
    cel_activation act = {vars, 1, NULL, NULL};

    /* (a) compile. Each expression must also evaluate without error on the event (a sanity
     * check that the bench measures expressions that work). */
    printf("parse+compile, median of %ld per expression:\n", samples);
    for (size_t e = 0; e < n_exprs; e++) {
        cel_program *check = compile_or_die(compile_exprs[e]);
        cel_value r = cel_eval(check, &act, &arena);
        if (r.kind == CEL_ERROR) {
            fprintf(stderr, "bench_cel: expression %zu fails on the event: %s\n", e + 1,
                    r.v.err->message);
            return 1;
        }
        rp_arena_reset(&arena);
        cel_program_free(check);
        for (long s = 0; s < samples; s++) {
            double t0 = wall_ns();
            cel_program *p = compile_or_die(compile_exprs[e]);
            cel_program_free(p);
            times[s] = wall_ns() - t0;
        }
        medians[e] = median(times, (size_t)samples);
        printf("  #%-2zu %4zu bytes  %8.2f us\n", e + 1, strlen(compile_exprs[e]),
               medians[e] / 1e3);
    }
    printf("compile: median over the expressions %.2f us (target < 20 us)\n",
           median(medians, n_exprs) / 1e3);

    /* (b) evaluation. */
    cel_program *p = compile_or_die(eval_expr);
    cel_value r = cel_eval(p, &act, &arena);
    if (r.kind != CEL_BOOL || !r.v.b) {
        rp_buf b = {0};
        cel_value_format(&b, &r);
        fprintf(stderr, "bench_cel: the expression gives %s, expected true\n",
                b.data ? b.data : "?");
        return 1;
    }
    rp_arena_reset(&arena);
    unsigned long trues = 0;
    for (long s = 0; s < samples; s++) {
        double t0 = cpu_ns();
        for (int k = 0; k < EVAL_BATCH; k++) {
            cel_value v = cel_eval(p, &act, &arena);
            trues += v.kind == CEL_BOOL && v.v.b;
            rp_arena_reset(&arena);
        }
        times[s] = (cpu_ns() - t0) / EVAL_BATCH;
    }
    printf("eval: %s\n  median %.1f ns per evaluation (%ld batches of %d, %lu true; target < "
           "200 ns)\n",
           eval_expr, median(times, (size_t)samples), samples, EVAL_BATCH, trues);

    cel_program_free(p);
    bench_regex(&act, &arena, times, samples);

    /* (c) a comprehension over a big list: map must accumulate in amortised O(1) per element
     * (it used to copy the accumulator every step: quadratic). */
    enum { BIG_ITEMS = 10000 };
    rp_buf items = {0};
    rp_buf_puts(&items, "{\"items\": [");
    for (int i = 0; i < BIG_ITEMS; i++)
        rp_buf_printf(&items, "%s%d", i ? "," : "", i);
    rp_buf_puts(&items, "]}");
    rp_json *big = rp_json_parse(&event_arena, items.data, items.len, &jerr);
    rp_buf_free(&items);
    if (!big) {
        fprintf(stderr, "bench_cel: setup failed\n");
        return 1;
    }
    cel_binding big_vars[] = {{"event", cel_from_json(big)}};
    cel_activation big_act = {big_vars, 1, NULL, NULL};
    const char *map_expr = "event.items.map(x, x * 2)";
    p = compile_or_die(map_expr);
    long map_samples = samples < 51 ? samples : 51;
    for (long s = 0; s < map_samples; s++) {
        double t0 = cpu_ns();
        cel_value v = cel_eval(p, &big_act, &arena);
        times[s] = cpu_ns() - t0;
        if (v.kind != CEL_LIST || cel_list_size(&v) != BIG_ITEMS) {
            fprintf(stderr, "bench_cel: %s gives a wrong result\n", map_expr);
            return 1;
        }
        rp_arena_reset(&arena);
    }
    printf("eval: %s over %d items\n  median %.1f us per evaluation (%ld runs)\n", map_expr,
           BIG_ITEMS, median(times, (size_t)map_samples) / 1e3, map_samples);

    cel_program_free(p);
    rp_arena_free(&arena);
    rp_arena_free(&event_arena);
    free(times);
    return 0;
}
