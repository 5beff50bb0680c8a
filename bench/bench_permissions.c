/* bench_permissions.c — the permissions policy: one path check and one bash path check, on
 * paths that do not exist (no filesystem calls), and again with realpath lookups of existing
 * paths through the real filesystem view.
 *
 * Usage: bench_permissions [ITERATIONS]   (default 20000)
 *
 * What is timed is the policy's evaluate() of one parsed tool_call event into an arena that is
 * then reset: every alias derivation, rule match, bash parse and cd fold. Each iteration is
 * timed on its own (CLOCK_MONOTONIC); the figure printed is the median (and p99). The
 * reference, pi-permission-system, takes about 190 µs and 490 µs for these two checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/arena.h"
#include "core/json.h"
#include "engine/event.h"
#include "engine/policy.h"
#include "policies/registry.h"

static const char config[] =
    "{\"permission\": {\"*\": \"ask\","
    " \"read\": {\"*\": \"allow\", \"*.env\": \"deny\", \"*.pem\": \"deny\"},"
    " \"path\": {\"*\": \"allow\", \"*.env\": \"deny\", \"*.env.*\": \"deny\","
    "            \"*.env.example\": \"allow\", \"~/.ssh/*\": \"deny\"},"
    " \"external_directory\": {\"*\": \"ask\", \"~/.cargo/registry/*\": \"allow\", \"/tmp/*\": "
    "\"allow\"},"
    " \"bash\": {\"*\": \"ask\", \"git *\": \"allow\", \"cat *\": \"allow\", \"cd *\": \"allow\","
    "          \"ls *\": \"allow\", \"rm *\": \"deny\", \"git push *\": \"ask\"}},"
    " \"platform\": \"posix\"}";

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static rp_json *params_with_defaults(rp_arena *a, const rp_policy_type *t, const char *given)
{
    rp_json_error err;
    rp_json *params = rp_json_parse(a, given, strlen(given), &err);
    if (params == NULL) {
        fprintf(stderr, "bench_permissions: bad params: %s\n", err.msg);
        exit(2);
    }
    for (size_t i = 0; i < t->n_params; i++) {
        if (rp_json_get(params, t->params[i].name))
            continue;
        const char *d = t->params[i].default_json;
        rp_json *v = d ? rp_json_parse(a, d, strlen(d), &err) : NULL;
        rp_json_object_set(a, params, t->params[i].name, v ? *v : rp_json_make_null());
    }
    return params;
}

static void run(const char *label, const rp_policy_type *t, void *inst, const char *event_json,
                const rp_fs_view *fs, int iterations)
{
    rp_arena keep = {0};
    rp_json_error err;
    rp_json *root = rp_json_parse(&keep, event_json, strlen(event_json), &err);
    rp_event ev;
    if (root == NULL || !rp_event_from_json(root, &ev)) {
        fprintf(stderr, "bench_permissions: bad event for %s\n", label);
        exit(2);
    }
    rp_json state = rp_json_make_object();
    double *times = malloc((size_t)iterations * sizeof *times);
    rp_arena arena = {0};
    const char *verdict = "";
    for (int i = 0; i < iterations; i++) {
        rp_eval_ctx ctx = {.arena = &arena, .fs = fs, .config = &state, .policy_name = "bench"};
        rp_result out = {0};
        double t0 = now_ns();
        int rc = t->evaluate(inst, &ev, &state, &ctx, &out);
        double t1 = now_ns();
        if (rc != 0) {
            fprintf(stderr, "bench_permissions: %s failed: %s\n", label, ctx.error);
            exit(1);
        }
        verdict = rp_verdict_name(out.verdict);
        times[i] = t1 - t0;
        rp_arena_reset(&arena);
    }
    qsort(times, (size_t)iterations, sizeof *times, cmp_double);
    printf("%-48s median %7.3f us   p99 %7.3f us   (%s)\n", label, times[iterations / 2] / 1000,
           times[iterations * 99 / 100] / 1000, verdict);
    free(times);
    rp_arena_free(&arena);
    rp_arena_free(&keep);
}

int main(int argc, char **argv)
{
    int iterations = argc > 1 ? atoi(argv[1]) : 20000;
    if (iterations <= 0) {
        fprintf(stderr, "usage: bench_permissions [ITERATIONS]\n");
        return 2;
    }
    const rp_policy_type *t = rp_registry_find("permissions");
    if (t == NULL) {
        printf("skipped: permissions (not registered)\n");
        return 0;
    }
    rp_arena keep = {0};
    rp_param_error perr;
    void *inst = NULL;
    if (t->create(params_with_defaults(&keep, t, config), &keep, &inst, &perr) != 0) {
        fprintf(stderr, "bench_permissions: create: %s: %s\n", perr.param, perr.message);
        return 1;
    }

    /* Paths that do not exist: no filesystem view, so no calls at all. */
    run("path check, read src/App.jsx (no fs)", t, inst,
        "{\"type\":\"tool_call\",\"data\":{\"name\":\"read\",\"arguments\":{\"path\":"
        "\"src/App.jsx\"}},\"context\":{\"cwd\":\"/workspace/project\",\"home\":\"/home/user\"}}",
        NULL, iterations);
    run("bash path check, cd src && cat App.jsx && git status (no fs)", t, inst,
        "{\"type\":\"tool_call\",\"data\":{\"name\":\"bash\",\"arguments\":{\"command\":"
        "\"cd src && cat App.jsx && git status\"}},\"context\":{\"cwd\":\"/workspace/project\","
        "\"home\":\"/home/user\"}}",
        NULL, iterations);

    /* Existing paths through the real filesystem: realpath of the longest existing ancestor. */
    char dir[] = "/tmp/rampart-bench-XXXXXX";
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    char path[256], event[1024];
    snprintf(path, sizeof path, "%s/src", dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/src/App.jsx", dir);
    fclose(fopen(path, "w"));
    snprintf(event, sizeof event,
             "{\"type\":\"tool_call\",\"data\":{\"name\":\"read\",\"arguments\":{\"path\":"
             "\"src/App.jsx\"}},\"context\":{\"cwd\":\"%s\",\"home\":\"/home/user\"}}",
             dir);
    run("path check, existing file (realpath)", t, inst, event, &rp_fs_view_real, iterations);
    snprintf(event, sizeof event,
             "{\"type\":\"tool_call\",\"data\":{\"name\":\"bash\",\"arguments\":{\"command\":"
             "\"cd src && cat App.jsx && git status\"}},\"context\":{\"cwd\":\"%s\","
             "\"home\":\"/home/user\"}}",
             dir);
    run("bash path check, existing files (realpath, lstat)", t, inst, event, &rp_fs_view_real,
        iterations);
    unlink(path);
    snprintf(path, sizeof path, "%s/src", dir);
    rmdir(path);
    rmdir(dir);
    rp_arena_free(&keep);
    return 0;
}
