/* shell_policy_test_util.h — shell-command events for the shell policy tests: builds a
 * tool_call JSON for any command text (escaped), optionally with context.cwd/home, and
 * evaluates it with an optional fake filesystem. Include after policy_test_util.h. */
#ifndef RAMPART_TESTS_SHELL_POLICY_TEST_UTIL_H
#define RAMPART_TESTS_SHELL_POLICY_TEST_UTIL_H

#include "core/buf.h"
#include "core/json.h"

/* {"type":"tool_call","data":{"name":TOOL,"arguments":{KEY:TEXT}},"context":{…}} in a static
 * buffer (the tests are single-threaded). cwd/home NULL = absent. */
static inline const char *st_event(const char *tool, const char *key, const char *text,
                                   const char *cwd, const char *home)
{
    static char out[65536];
    rp_buf b = {0};
    rp_buf_puts(&b, "{\"type\":\"tool_call\",\"data\":{\"name\":");
    rp_json_write_string(&b, tool, strlen(tool));
    rp_buf_puts(&b, ",\"arguments\":{");
    rp_json_write_string(&b, key, strlen(key));
    rp_buf_putc(&b, ':');
    rp_json_write_string(&b, text, strlen(text));
    rp_buf_puts(&b, "}},\"context\":{");
    bool comma = false;
    if (cwd != NULL) {
        rp_buf_puts(&b, "\"cwd\":");
        rp_json_write_string(&b, cwd, strlen(cwd));
        comma = true;
    }
    if (home != NULL) {
        rp_buf_puts(&b, comma ? ",\"home\":" : "\"home\":");
        rp_json_write_string(&b, home, strlen(home));
    }
    rp_buf_puts(&b, "}}");
    snprintf(out, sizeof out, "%.*s", (int)b.len, b.data);
    rp_buf_free(&b);
    return out;
}

/* Evaluates event_json with ctx.fs = fs; returns the verdict, *reason (copied to a static
 * buffer, "" when none). */
static inline rp_verdict st_eval(const pt_policy *p, const char *event_json, const rp_fs_view *fs,
                                 const char **reason)
{
    static char reason_buf[8192];
    static const rp_json empty = {.type = RP_JSON_OBJECT};
    rp_arena a = {0};
    rp_eval_ctx ctx = {.arena = &a, .now_us = 1773576000000000LL, .fs = fs, .config = &empty};
    rp_result r = {.verdict = RP_ABSTAIN};
    rp_event ev;
    ctx.policy_name = p->type->name;
    if (!rp_event_from_json(pt_parse(&a, event_json), &ev))
        abort();
    int rc = p->type->evaluate(p->instance, &ev, &empty, &ctx, &r);
    assert_int_equal(rc, 0);
    snprintf(reason_buf, sizeof reason_buf, "%s", r.reason ? r.reason : "");
    if (reason != NULL)
        *reason = reason_buf;
    rp_arena_free(&a);
    return r.verdict;
}

#endif
