/* test_deep_inputs.c — every parser answers hostile nesting with an error, on a small stack:
 * 60,000-deep shell (each construct that nests), JSON, YAML and CEL input is parsed on a thread
 * with a 512 KiB stack (4 MiB under ASan), where unbounded recursion would overflow. Also the
 * bounds in time and memory that sharing makes necessary: many here-documents on one line
 * (pending-list growth was quadratic), a YAML alias bomb, YAML depth through aliases, and
 * CEL lists built by sharing
 * (cel.bind(a1, [a0, a0], ...) is 2^n elements long: equality, JSON conversion, printing
 * and string.format). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cel/cel.h"
#include "core/buf.h"
#include "core/json.h"
#include "config/yaml_load.h"
#include "shell/shell.h"

#define DEEP 60000

#if defined(__SANITIZE_ADDRESS__)
#define SMALL_STACK (4u << 20)
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SMALL_STACK (4u << 20)
#endif
#endif
#ifndef SMALL_STACK
#define SMALL_STACK (512u << 10)
#endif

/* pre * n + mid + post * n (heap). */
static char *nest(const char *pre, const char *mid, const char *post, size_t n)
{
    rp_buf b = {0};
    for (size_t i = 0; i < n; i++)
        rp_buf_puts(&b, pre);
    rp_buf_puts(&b, mid);
    for (size_t i = 0; i < n; i++)
        rp_buf_puts(&b, post);
    return b.data; /* rp_buf data is heap memory, NUL-terminated */
}

typedef void (*job_fn)(void);

static void *run_job(void *arg)
{
    ((job_fn)arg)();
    return NULL;
}

/* Runs fn on a thread with a small stack: a stack overflow crashes the test. */
static void on_small_stack(job_fn fn)
{
    pthread_attr_t attr;
    pthread_t t;
    assert_int_equal(pthread_attr_init(&attr), 0);
    assert_int_equal(pthread_attr_setstacksize(&attr, SMALL_STACK), 0);
    assert_int_equal(pthread_create(&t, &attr, run_job, (void *)fn), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    pthread_attr_destroy(&attr);
}

/* ---- shell ---- */

static const struct {
    const char *pre, *mid, *post;
} shell_cases[] = {
    {"$(", "x", ")"},
    {"${", "a", "}"},
    {"${a[", "0", "]}"},
    {"$[", "1", "]"},
    {"${#", "a", "}"},
    {"${a/", "b", "}"},
    {"${a:-$(", "x", ")}"},
    {"$((", "1", "))"},
    {"(( (", "1", ") ))"},
    {"[[ ( ", "a", " ) ]]"},
    {"(", "x", ")"},
    {"{ ", "x; ", "}; "},
    {"a=(", "", ")"},
    {"if x; then ", "y; ", "fi; "},
    {"while x; do ", "y; ", "done; "},
    {"case a in a) ", "x;; ", "esac "},
    {"cat <(", "x", ")"},
    {"\"$(", "x", ")\""},
    {"f() { ", "x; ", "}; "},
    {"`", "x", "`"},
    {"bash -c \"", "x", "\""},
    {"$(cat <<E\n", "x\nE\n", ")"},
    {"! ", "x", ""},
    {"{a,", "b", "}"},
    {"sudo ", "x", ""},
};

static void shell_job(void)
{
    for (size_t i = 0; i < sizeof shell_cases / sizeof *shell_cases; i++) {
        char *src = nest(shell_cases[i].pre, shell_cases[i].mid, shell_cases[i].post, DEEP);
        rp_arena a = {0};
        struct rp_sh_parse out;
        (void)rp_sh_parse(&a, src, strlen(src), &out);
        rp_arena_free(&a);
        free(src);
    }
}

static void test_shell_deep(void **state)
{
    (void)state;
    on_small_stack(shell_job);
}

/* A 60k-deep command substitution is unreadable (the policies then ask), not read in part. */
static void test_shell_deep_unreadable(void **state)
{
    (void)state;
    char *src = nest("$(", "rm -rf /", ")", DEEP);
    rp_arena a = {0};
    struct rp_sh_parse out;
    assert_int_equal(rp_sh_parse(&a, src, strlen(src), &out), -1);
    assert_true(out.unreadable);
    assert_non_null(out.error);
    rp_arena_free(&a);
    free(src);
}

/* 17,000 here-documents on one line: the pending list grew by one element at a time in the
 * arena, which keeps every old copy (650 MB here, 20 GB at 32,000). Now linear. */
static void test_shell_many_heredocs(void **state)
{
    (void)state;
    char *src = nest("cat <<E ", "\n", "E\n", 17000);
    rp_arena a = {0};
    struct rp_sh_parse out;
    (void)rp_sh_parse(&a, src, strlen(src), &out);
    assert_true(a.total < ((size_t)64 << 20));
    rp_arena_free(&a);
    free(src);
}

/* ---- JSON ---- */

static void json_job(void)
{
    static const char *const pre[] = {"[", "{\"a\":", "[{\"a\":"};
    static const char *const post[] = {"]", "}", "}]"};
    for (size_t i = 0; i < 3; i++) {
        char *src = nest(pre[i], "1", post[i], DEEP);
        rp_arena a = {0};
        rp_json_error err;
        assert_null(rp_json_parse(&a, src, strlen(src), &err));
        assert_non_null(strstr(err.msg, "nesting deeper than"));
        rp_arena_free(&a);
        free(src);
    }
}

static void test_json_deep(void **state)
{
    (void)state;
    on_small_stack(json_job);
}

/* ---- YAML ---- */

static size_t yaml_errors;
static char yaml_first[256];

static void yaml_report(void *self, int line, int col, const char *message)
{
    (void)self, (void)line, (void)col;
    if (yaml_errors++ == 0)
        snprintf(yaml_first, sizeof yaml_first, "%s", message);
}

static void yaml_expect_error(const char *src, const char *what)
{
    rp_arena a = {0};
    rp_yaml_doc doc = {0};
    yaml_errors = 0;
    yaml_first[0] = '\0';
    assert_true(rp_yaml_load(&a, src, strlen(src), &doc, yaml_report, NULL) > 0);
    if (!strstr(yaml_first, what))
        fail_msg("expected \"%s\", got \"%s\"", what, yaml_first);
    rp_yaml_doc_free(&doc);
    rp_arena_free(&a);
}

static void yaml_job(void)
{
    char *flow_seq = nest("[", "", "]", DEEP);
    char *flow_map = nest("{a: ", "1", "}", DEEP);
    yaml_expect_error(flow_seq, "nesting deeper than");
    yaml_expect_error(flow_map, "nesting deeper than");
    free(flow_seq);
    free(flow_map);
    /* Block nesting: "a:\n  a:\n    a: ..." */
    rp_buf b = {0};
    for (int i = 0; i < 3000; i++) {
        for (int j = 0; j < i; j++)
            rp_buf_puts(&b, " ");
        rp_buf_puts(&b, "a:\n");
    }
    yaml_expect_error(b.data, "nesting deeper than");
    rp_buf_free(&b);
}

static void test_yaml_deep(void **state)
{
    (void)state;
    on_small_stack(yaml_job);
}

/* The billion laughs: 10^12 nodes by aliases, refused by counting, in no time. */
static void test_yaml_alias_bomb(void **state)
{
    (void)state;
    rp_buf b = {0};
    rp_buf_puts(&b, "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int i = 1; i < 12; i++) {
        rp_buf_printf(&b, "a%d: &a%d [", i, i);
        for (int j = 0; j < 10; j++)
            rp_buf_printf(&b, "%s*a%d", j ? ", " : "", i - 1);
        rp_buf_puts(&b, "]\n");
    }
    yaml_expect_error(b.data, "document too large");
    rp_buf_free(&b);
}

/* Aliases nested in anchored values: 50 anchors of 60 levels each made a 3,000-deep tree
 * within the node cap. An alias is as deep as the value it stands for. */
static void test_yaml_alias_depth(void **state)
{
    (void)state;
    rp_buf b = {0};
    rp_buf_puts(&b, "a0: &a0 [");
    for (int j = 0; j < 59; j++)
        rp_buf_putc(&b, '[');
    for (int j = 0; j < 60; j++)
        rp_buf_putc(&b, ']');
    rp_buf_putc(&b, '\n');
    for (int i = 1; i < 50; i++) {
        rp_buf_printf(&b, "a%d: &a%d ", i, i);
        for (int j = 0; j < 60; j++)
            rp_buf_putc(&b, '[');
        rp_buf_printf(&b, "*a%d", i - 1);
        for (int j = 0; j < 60; j++)
            rp_buf_putc(&b, ']');
        rp_buf_putc(&b, '\n');
    }
    yaml_expect_error(b.data, "through alias '*a0'");
    rp_buf_free(&b);
    /* An alias that fits is fine. */
    rp_arena a = {0};
    rp_yaml_doc doc = {0};
    const char *ok = "a: &x [[1]]\nb: [[[*x]]]\n";
    assert_int_equal(rp_yaml_load(&a, ok, strlen(ok), &doc, yaml_report, NULL), 0);
    rp_yaml_doc_free(&doc);
    rp_arena_free(&a);
}

/* ---- CEL ---- */

static void cel_expect_compile_error(const char *src)
{
    cel_program *p = NULL;
    cel_source_error err;
    assert_int_not_equal(cel_compile(src, strlen(src), NULL, &p, &err), 0);
    cel_program_free(p);
}

static void cel_job(void)
{
    /* The source limit is 100,000 bytes: as deep as fits. */
    static const struct {
        const char *pre, *mid, *post;
    } cases[] = {
        {"(", "1", ")"},
        {"[", "", "]"},
        {"{1: ", "1", "}"},
        {"f(", "", ")"},
        {"", "a", ".b"},
        {"", "a", "[0]"},
        {"", "1", " + 1"},
        {"", "x", ".y()"},
        {"[1].all(x, ", "true", ")"},
        {"has(", "a.b", ")"},
        {"", "a", ".?b"},
        {"true ? ", "1", " : 2"},
        {"cel.bind(x, 1, ", "x", ")"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t unit = strlen(cases[i].pre) + strlen(cases[i].post);
        char *src = nest(cases[i].pre, cases[i].mid, cases[i].post, 99000 / unit);
        cel_expect_compile_error(src);
        free(src);
    }
    /* Unary chains are folded, not nested: they compile and run. */
    char *nots = nest("!", "true", "", 90000);
    cel_program *p = NULL;
    cel_source_error err;
    assert_int_equal(cel_compile(nots, strlen(nots), NULL, &p, &err), 0);
    rp_arena a = {0};
    cel_value v = cel_eval(p, NULL, &a);
    assert_int_equal(v.kind, CEL_BOOL);
    rp_arena_free(&a);
    cel_program_free(p);
    free(nots);
}

static void test_cel_deep(void **state)
{
    (void)state;
    on_small_stack(cel_job);
}

/* cel.bind(a0, [1], cel.bind(a1, [a0, a0], ... BODY)): a list of 2^n ones built in n steps. */
static char *doubled(const char *var, int n, const char *body)
{
    rp_buf b = {0};
    rp_buf_printf(&b, "cel.bind(%s0, [1], ", var);
    for (int i = 1; i <= n; i++)
        rp_buf_printf(&b, "cel.bind(%s%d, [%s%d, %s%d], ", var, i, var, i - 1, var, i - 1);
    rp_buf_puts(&b, body);
    for (int i = 0; i <= n; i++)
        rp_buf_putc(&b, ')');
    return b.data;
}

/* The value may point into the program (constants): free *prog after using it. */
static cel_value eval_src(const char *src, rp_arena *a, cel_program **prog)
{
    cel_source_error err;
    *prog = NULL;
    if (cel_compile(src, strlen(src), NULL, prog, &err) != 0)
        fail_msg("compile error: %s", err.message);
    return cel_eval(*prog, NULL, a);
}

static void expect_budget_error(const char *src)
{
    rp_arena a = {0};
    cel_program *p;
    cel_value v = eval_src(src, &a, &p);
    if (v.kind != CEL_ERROR || strcmp(v.v.err->message, "evaluation budget exceeded") != 0)
        fail_msg("expected the budget error for %.120s...", src);
    rp_arena_free(&a);
    cel_program_free(p);
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "test_deep_inputs: took more than 60 s (unbounded work)\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(1);
}

/* Each of these took 2^40 steps (hours, or all memory) before. */
static void test_cel_shared_values(void **state)
{
    (void)state;
    signal(SIGALRM, on_alarm);
    alarm(60);
    /* Equality of two separately built 2^40-element lists, and `in`. */
    char *inner = doubled("b", 40, "a40 == b40");
    char *src = doubled("a", 40, inner);
    expect_budget_error(src);
    free(inner);
    free(src);
    inner = doubled("b", 40, "a40 in [b40]");
    src = doubled("a", 40, inner);
    expect_budget_error(src);
    free(inner);
    free(src);
    /* string.format's %s of it stops at the memory limit. */
    src = doubled("a", 40, "size('%s'.format([a40]))");
    rp_arena a = {0};
    cel_program *p;
    cel_value v = eval_src(src, &a, &p);
    if (v.kind != CEL_ERROR || strcmp(v.v.err->message, "evaluation memory limit exceeded") != 0)
        fail_msg("expected the memory limit error from format");
    rp_arena_free(&a);
    cel_program_free(p);
    free(src);
    /* Sharing within one value still compares fast where it is small. */
    src = doubled("a", 2, "a2 == [[[1], [1]], [[1], [1]]]");
    v = eval_src(src, &a, &p);
    assert_int_equal(v.kind, CEL_BOOL);
    assert_true(v.v.b);
    rp_arena_free(&a);
    cel_program_free(p);
    free(src);

    /* Conversion to JSON (a state update's value) is refused by node count. */
    src = doubled("a", 40, "a40");
    v = eval_src(src, &a, &p);
    assert_int_equal(v.kind, CEL_LIST);
    rp_arena out = {0};
    rp_json j;
    char err[160];
    assert_int_equal(cel_to_json(&out, &v, &j, err, sizeof err), -1);
    assert_non_null(strstr(err, "too large"));
    assert_true(out.total < ((size_t)256 << 20));
    /* Printing stops at CEL_FORMAT_MAX_BYTES. */
    rp_buf text = {0};
    cel_value_format(&text, &v);
    assert_true(text.len >= CEL_FORMAT_MAX_BYTES && text.len < CEL_FORMAT_MAX_BYTES + 4096);
    rp_buf_free(&text);
    rp_arena_free(&out);
    rp_arena_free(&a);
    cel_program_free(p);
    free(src);
    alarm(0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shell_deep),          cmocka_unit_test(test_shell_deep_unreadable),
        cmocka_unit_test(test_shell_many_heredocs), cmocka_unit_test(test_json_deep),
        cmocka_unit_test(test_yaml_deep),           cmocka_unit_test(test_yaml_alias_bomb),
        cmocka_unit_test(test_yaml_alias_depth),    cmocka_unit_test(test_cel_deep),
        cmocka_unit_test(test_cel_shared_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
