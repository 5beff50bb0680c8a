/* hosts_fixture.h — the harness of the adapter tests (test_hosts_claude.c, _codex.c,
 * _cursor.c): parse a payload with one host's adapter, compare the canonical PolicyEvent, the
 * error and its phase, and the exact answer bytes. Included once per test program, after the
 * program defines `fixture_host_name` (the adapter under test) and includes cmocka. */
#ifndef RAMPART_TESTS_HOSTS_FIXTURE_H
#define RAMPART_TESTS_HOSTS_FIXTURE_H

#include <stdio.h>
#include <string.h>

#include "hosts/host.h"

static const rp_hook_env env = {
    .os_user = "os-user", .home = "/home/u", .process_cwd = "/proc-cwd"};

typedef struct fx {
    rp_arena a;
    rp_hook_call call;
    char err[256];
} fx;

static int setup(void **state)
{
    static fx f;
    memset(&f, 0, sizeof f);
    rp_arena_init(&f.a, 0);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    rp_arena_free(&f->a);
    return 0;
}

static const rp_hook_adapter *host(void)
{
    const rp_hook_adapter *h = rp_hook_host_find(fixture_host_name);
    assert_non_null(h);
    return h;
}

/* Parses text with the adapter; returns parse's result. */
static int parse_env(fx *f, const char *text, const rp_hook_env *e)
{
    rp_json_error jerr;
    rp_json *payload = rp_json_parse(&f->a, text, strlen(text), &jerr);
    assert_non_null(payload);
    f->err[0] = '\0';
    return host()->parse(payload, e, &f->a, &f->call, f->err, sizeof f->err);
}

static int parse(fx *f, const char *text)
{
    return parse_env(f, text, &env);
}

/* The parsed event, canonical. */
static const char *event(fx *f)
{
    rp_buf b = {0};
    rp_json_write_sorted(&b, &f->call.event);
    char *s = rp_arena_strdup(&f->a, b.data);
    rp_buf_free(&b);
    return s;
}

static void expect_event(fx *f, const char *text, rp_hook_phase phase, const char *want)
{
    assert_int_equal(parse(f, text), 0);
    assert_string_equal(f->err, "");
    assert_int_equal(f->call.phase, phase);
    assert_string_equal(event(f), want);
}

static void expect_error(fx *f, const char *text, rp_hook_phase phase, const char *want)
{
    assert_int_equal(parse(f, text), -1);
    assert_int_equal(f->call.phase, phase);
    assert_string_equal(f->err, want);
}

/* Answers v for the parsed call and compares stdout, stderr and the exit code exactly. */
static void expect_answer(fx *f, rp_verdict result, const char *reason, const char *data,
                          const rp_host_settings *s, const char *out, const char *err, int code)
{
    rp_hook_verdict v = {.result = result, .reason = reason};
    if (data) {
        rp_json_error jerr;
        v.data = rp_json_parse(&f->a, data, strlen(data), &jerr);
        assert_non_null(v.data);
    }
    rp_hook_answer ans = {0};
    host()->answer(&f->call, &v, s, &f->a, &ans);
    assert_string_equal(ans.out.data ? ans.out.data : "", out);
    assert_string_equal(ans.err.data ? ans.err.data : "", err);
    assert_int_equal(ans.exit_code, code);
    rp_buf_free(&ans.out);
    rp_buf_free(&ans.err);
}

#endif
