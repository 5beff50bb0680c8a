/* test_policy_deny_secrets.c — credentials in requests, LLM requests, tool-call arguments and
 * tool results (issue 7): every phase, JSON-path reasons, masks that never reveal the value,
 * types, allow_patterns, a token split by shell quotes, ASK, REDACT shapes and the failure
 * path. Every secret-shaped value is generated at run time (scan_secret_gen.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <unistd.h>

#include "config/config.h"
#include "policies/builtins.h"
#include "policies/content/scan_common.h"
#include "policy_test_util.h"
#include "scan_secret_gen.h"

#define T (&rp_policy_deny_secrets)

static rp_arena g_arena; /* the test's strings: generated secrets, events, expected reasons */

/* A fresh fake secret of `type` (seeded, so every run sees the same values). */
static const char *secret(rp_scan_type type, uint64_t seed)
{
    char buf[RP_GEN_SECRET_MAX];
    size_t n = rp_gen_secret(type, &seed, buf, sizeof buf);
    assert_true(n > 0);
    return rp_arena_strndup(&g_arena, buf, n);
}

/* A classic ghp_ token (the generator sometimes makes a github_pat_ one). */
static const char *ghp_token(uint64_t seed)
{
    for (;; seed++) {
        const char *t = secret(RP_SCAN_GITHUB_TOKEN, seed);
        if (t[2] == 'p' && t[3] == '_')
            return t;
    }
}

/* s as a JSON string literal. */
static const char *js(const char *s)
{
    rp_buf b = {0};
    rp_json_write_string(&b, s, strlen(s));
    char *r = rp_arena_strndup(&g_arena, b.data, b.len);
    rp_buf_free(&b);
    return r;
}

static const char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static const char *fmt(const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    char *r = rp_arena_vsprintf(&g_arena, f, ap);
    va_end(ap);
    return r;
}

static const char *request(const char *text)
{
    return fmt("{\"type\":\"request\",\"data\":%s}", js(text));
}

static const char *tool_call(const char *name, const char *arguments_json)
{
    return fmt("{\"type\":\"tool_call\",\"data\":{\"name\":\"%s\",\"arguments\":%s}}", name,
               arguments_json);
}

/* The masked preview the scanner gives the first finding in text. */
static const char *preview_of(const char *text)
{
    rp_scan_options opt = {.types = RP_SCAN_SECRETS_ALL};
    rp_scanner *s;
    char err[256];
    rp_scan_result r;
    assert_int_equal(rp_scanner_open(&opt, &s, err, sizeof err), 0);
    assert_int_equal(rp_scanner_scan(s, &g_arena, text, strlen(text), &r), 0);
    if (r.n == 0)
        fail_msg("the scanner finds nothing in a test value: %s", text);
    const char *p = rp_arena_strdup(&g_arena, r.findings[0].preview);
    rp_scanner_free(s);
    return p;
}

static const char *reason(rp_scan_type type, const char *where, const char *value)
{
    return fmt("Secret detected (%s) in %s: '%s'", rp_scan_type_label(type), where,
               preview_of(value));
}

static void test_schema(void **unused)
{
    (void)unused;
    const rp_param_spec *types = pt_param(T, "types");
    char handler[128];
    assert_int_equal(T->n_params, 4);
    assert_int_equal(types->kind, RP_PARAM_STRING_LIST);
    assert_null(types->default_json);
    /* the enum is every secret type of scan.h, in its order */
    size_t n = 0;
    for (int t = RP_SCAN_FIRST_SECRET; t < RP_SCAN_N_TYPES; t++, n++)
        assert_string_equal(types->enum_values[n], rp_scan_type_name(t));
    assert_null(types->enum_values[n]);
    assert_string_equal(pt_param(T, "action")->default_json, "\"DENY\"");
    assert_string_equal(pt_param(T, "scan_results")->default_json, "false");
    assert_int_equal(pt_param(T, "allow_patterns")->kind, RP_PARAM_STRING_LIST);
    assert_string_equal(rp_policy_handler(T, handler, sizeof handler),
                        "rampart.policies.safety.deny_secrets");
}

static void expect_create_error(const char *params, const char *param, const char *needle)
{
    pt_policy p;
    pt_create(&p, T, params);
    assert_int_equal(p.create_rc, -1);
    assert_string_equal(p.err.param, param);
    if (strstr(p.err.message, needle) == NULL)
        fail_msg("'%s' lacks '%s'", p.err.message, needle);
    pt_policy_free(&p);
}

static void collect(void *self, const char *param, const char *message)
{
    rp_buf *b = self;
    rp_buf_printf(b, "%s: %s\n", param ? param : "", message);
}

static void test_param_errors(void **unused)
{
    (void)unused;
    expect_create_error("{\"types\":[\"github_token\",\"nope\"]}", "types",
                        "types[1]: unknown secret type 'nope'");
    expect_create_error("{\"types\":[\"email\"]}", "types", "unknown secret type 'email'");
    expect_create_error("{\"types\":[]}", "types", "at least one secret type");
    expect_create_error("{\"allow_patterns\":[\"^AKIA\",\"(unclosed\"]}", "allow_patterns",
                        "allow_patterns[1] '(unclosed': invalid regex");
    expect_create_error("{\"allow_patterns\":[\"(?=x)\"]}", "allow_patterns", "allow_patterns[0]");

    /* through the config validator: the unknown name is named and the known ones listed */
    rp_arena a = {0};
    rp_buf diags = {0};
    const rp_json *params =
        rp_params_validate(T, pt_parse(&a, "{\"types\":[\"gitub_token\"]}"), &a, collect, &diags);
    assert_null(params);
    assert_non_null(strstr(diags.data, "gitub_token"));
    assert_non_null(strstr(diags.data, "'github_token'"));
    assert_non_null(strstr(diags.data, "'generic_secret'"));
    rp_buf_free(&diags);
    /* and names are case-insensitive */
    params = rp_params_validate(
        T, pt_parse(&a, "{\"types\":[\"GitHub_Token\"],\"action\":\"ask\"}"), &a, collect, &diags);
    assert_non_null(params);
    rp_buf_free(&diags);
    rp_arena_free(&a);

    pt_policy p;
    pt_create(&p, T, "{\"types\":[\"GITHUB_TOKEN\"],\"allow_patterns\":[\"^x\"]}");
    assert_int_equal(p.create_rc, 0);
    pt_policy_free(&p);
}

static void test_request_and_llm_request(void **unused)
{
    (void)unused;
    const char *gh = ghp_token(1);
    const char *stripe = secret(RP_SCAN_STRIPE_KEY, 2);
    pt_policy p;
    pt_create(&p, T, "{}");

    PT_EXPECT(&p, request(fmt("use %s please", gh)), RP_DENY,
              reason(RP_SCAN_GITHUB_TOKEN, "request text", gh), NULL);
    PT_EXPECT(&p, request("nothing secret here"), RP_ALLOW, NULL, NULL);
    /* attachments, named by filename or by position */
    PT_EXPECT(&p,
              fmt("{\"type\":\"request\",\"data\":{\"user_content\":\"deploy\",\"attachments\":"
                  "[{\"filename\":\"notes.txt\",\"text\":\"fine\"},{\"filename\":\"a.env\","
                  "\"text\":%s}]}}",
                  js(fmt("STRIPE=%s\n", stripe))),
              RP_DENY, reason(RP_SCAN_STRIPE_KEY, "attachment 'a.env'", stripe), NULL);
    PT_EXPECT(&p,
              fmt("{\"type\":\"request\",\"data\":{\"user_content\":\"x\",\"attachments\":[{"
                  "\"text\":%s}]}}",
                  js(stripe)),
              RP_DENY, reason(RP_SCAN_STRIPE_KEY, "attachment 1", stripe), NULL);
    /* llm_request: the system prompt preview, then the last user message */
    PT_EXPECT(&p,
              fmt("{\"type\":\"llm_request\",\"data\":{\"system_prompt_preview\":\"be nice\","
                  "\"last_user_message\":%s}}",
                  js(fmt("my key %s", stripe))),
              RP_DENY, reason(RP_SCAN_STRIPE_KEY, "llm_request last_user_message", stripe), NULL);
    PT_EXPECT(&p,
              fmt("{\"type\":\"llm_request\",\"data\":{\"system_prompt_preview\":%s,"
                  "\"last_user_message\":%s}}",
                  js(gh), js(stripe)),
              RP_DENY, reason(RP_SCAN_GITHUB_TOKEN, "llm_request system_prompt_preview", gh), NULL);
    /* the first finding in reading order */
    PT_EXPECT(&p, request(fmt("%s and %s", stripe, gh)), RP_DENY,
              reason(RP_SCAN_STRIPE_KEY, "request text", stripe), NULL);
    pt_policy_free(&p);
}

static void test_other_phases(void **unused)
{
    (void)unused;
    const char *gh = ghp_token(3);
    pt_policy p;
    pt_create(&p, T, "{}");
    PT_EXPECT(&p, fmt("{\"type\":\"response\",\"data\":%s}", js(gh)), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, fmt("{\"type\":\"llm_response\",\"data\":{\"text\":%s}}", js(gh)), RP_ALLOW, NULL,
              NULL);
    PT_EXPECT(&p, fmt("{\"type\":\"session_start\",\"data\":%s}", js(gh)), RP_ALLOW, NULL, NULL);
    /* tool results only with scan_results */
    PT_EXPECT(&p, fmt("{\"type\":\"tool_result\",\"data\":{\"result\":%s}}", js(gh)), RP_ALLOW,
              NULL, NULL);
    pt_policy_free(&p);
}

static void test_tool_call_arguments(void **unused)
{
    (void)unused;
    const char *gh = ghp_token(4);
    const char *aws = secret(RP_SCAN_AWS_ACCESS_KEY_ID, 5);
    const char *pem = secret(RP_SCAN_PRIVATE_KEY, 6);
    pt_policy p;
    pt_create(&p, T, "{}");

    /* a command that echoes a token */
    PT_EXPECT(&p, tool_call("Bash", fmt("{\"command\":%s}", js(fmt("echo %s", gh)))), RP_DENY,
              reason(RP_SCAN_GITHUB_TOKEN, "tool_call argument 'command'", gh), NULL);
    /* a file write that embeds a key */
    PT_EXPECT(&p, tool_call("Write", fmt("{\"file_path\":\"/tmp/k.pem\",\"content\":%s}", js(pem))),
              RP_DENY, reason(RP_SCAN_PRIVATE_KEY, "tool_call argument 'content'", pem), NULL);
    /* an MCP call that posts one, deep inside the arguments */
    PT_EXPECT(
        &p,
        tool_call("mcp__slack__post",
                  fmt("{\"channel\":\"ops\",\"blocks\":[{\"type\":\"text\"},{\"fields\":"
                      "[1,{\"text\":%s}]}]}",
                      js(fmt("key: %s", aws)))),
        RP_DENY,
        reason(RP_SCAN_AWS_ACCESS_KEY_ID, "tool_call argument 'blocks[1].fields[1].text'", aws),
        NULL);
    /* arguments that are themselves a string or a list */
    PT_EXPECT(&p, tool_call("x", js(gh)), RP_DENY,
              reason(RP_SCAN_GITHUB_TOKEN, "tool_call arguments", gh), NULL);
    PT_EXPECT(&p, tool_call("x", fmt("[\"a\",%s]", js(gh))), RP_DENY,
              reason(RP_SCAN_GITHUB_TOKEN, "tool_call argument '[1]'", gh), NULL);
    /* only the arguments are read (the tool name is not a secret's place) */
    PT_EXPECT(&p, tool_call("Read", "{\"file_path\":\"/etc/hosts\"}"), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":{\"name\":\"x\"}}", RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
}

static void test_masks_never_reveal(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{}");
    for (int t = RP_SCAN_FIRST_SECRET; t < RP_SCAN_N_TYPES; t++) {
        const char *value = secret(t, 100 + (uint64_t)t);
        size_t start, end;
        rp_gen_secret_span(t, value, strlen(value), &start, &end);
        /* the contexts the generator leaves to the caller */
        const char *text = t == RP_SCAN_AWS_SECRET_ACCESS_KEY
                               ? fmt("aws_secret_access_key=%s", value)
                           : t == RP_SCAN_GENERIC_SECRET ? fmt("password=%s", value)
                                                         : value;
        pt_eval e;
        pt_eval_event(&e, &p, tool_call("x", fmt("{\"v\":%s}", js(text))));
        assert_int_equal(e.rc, 0);
        if (e.result.verdict != RP_DENY)
            fail_msg("%s not found in %s", rp_scan_type_name(t), text);
        /* no 12-byte window of the secret's span shows in the reason */
        for (size_t k = start; k + 12 <= end; k++) {
            char window[13];
            memcpy(window, value + k, 12);
            window[12] = '\0';
            if (strstr(e.result.reason, window) != NULL)
                fail_msg("reason for %s reveals '%s': %s", rp_scan_type_name(t), window,
                         e.result.reason);
        }
        pt_eval_free(&e);
    }
    pt_policy_free(&p);
}

static void test_shell_quote_split(void **unused)
{
    (void)unused;
    const char *gh = ghp_token(7);
    /* echo "gh""p_…": no token in the text as written, one after quote removal */
    const char *split = fmt("echo \"%.2s\"\"%s\" > /tmp/t", gh, gh + 2);
    const char *escaped = fmt("echo %.3s\\%s", gh, gh + 3);
    const char *nested = fmt("bash -c 'curl -H \"Authorization: token %.5s\"\"%s\" x'", gh, gh + 5);
    const char *words = "tool_call argument 'command' after shell quote removal";
    pt_policy p;

    pt_create(&p, T, "{}");
    PT_EXPECT(&p, tool_call("Bash", fmt("{\"command\":%s}", js(split))), RP_DENY,
              reason(RP_SCAN_GITHUB_TOKEN, words, gh), NULL);
    PT_EXPECT(&p, tool_call("Bash", fmt("{\"command\":%s}", js(escaped))), RP_DENY,
              reason(RP_SCAN_GITHUB_TOKEN, words, gh), NULL);
    PT_EXPECT(&p, tool_call("Bash", fmt("{\"command\":%s}", js(nested))), RP_DENY,
              reason(RP_SCAN_GITHUB_TOKEN, words, gh), NULL);
    /* other shell tools of the default set too */
    PT_EXPECT(&p, tool_call("sys_os_shell", fmt("{\"command\":%s}", js(split))), RP_DENY,
              reason(RP_SCAN_GITHUB_TOKEN, words, gh), NULL);
    /* not a shell tool: its "command" is just a string */
    PT_EXPECT(&p, tool_call("Write", fmt("{\"command\":%s}", js(split))), RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);

    /* REDACT cannot cut such a token out of the command as written: DENY, saying why */
    pt_create(&p, T, "{\"action\":\"REDACT\"}");
    PT_EXPECT(&p, tool_call("Bash", fmt("{\"command\":%s}", js(split))), RP_DENY,
              fmt("%s (visible only after shell quote removal: it cannot be redacted in place)",
                  reason(RP_SCAN_GITHUB_TOKEN, words, gh)),
              NULL);
    pt_policy_free(&p);
}

static void test_tool_results(void **unused)
{
    (void)unused;
    const char *gh = ghp_token(8);
    pt_policy p;
    pt_create(&p, T, "{\"scan_results\":true}");
    PT_EXPECT(&p,
              fmt("{\"type\":\"tool_result\",\"data\":{\"result\":%s,\"is_error\":false}}",
                  js(fmt("token=%s", gh))),
              RP_DENY, reason(RP_SCAN_GITHUB_TOKEN, "tool_result field 'result'", gh), NULL);
    PT_EXPECT(&p, fmt("{\"type\":\"tool_result\",\"data\":%s}", js(gh)), RP_DENY,
              reason(RP_SCAN_GITHUB_TOKEN, "tool_result", gh), NULL);
    PT_EXPECT(
        &p, fmt("{\"type\":\"tool_result\",\"data\":{\"output\":{\"lines\":[\"a\",%s]}}}", js(gh)),
        RP_DENY, reason(RP_SCAN_GITHUB_TOKEN, "tool_result field 'output.lines[1]'", gh), NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_result\",\"data\":{\"result\":\"ok\"}}", RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
}

static void test_types(void **unused)
{
    (void)unused;
    const char *gh = ghp_token(9);
    const char *aws = secret(RP_SCAN_AWS_ACCESS_KEY_ID, 10);
    pt_policy p;
    pt_create(&p, T, "{\"types\":[\"aws_access_key_id\"]}");
    PT_EXPECT(&p, request(gh), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, request(fmt("%s %s", gh, aws)), RP_DENY,
              reason(RP_SCAN_AWS_ACCESS_KEY_ID, "request text", aws), NULL);
    pt_policy_free(&p);
    /* PII is not this policy's business */
    pt_create(&p, T, "{}");
    PT_EXPECT(&p, request("SSN 123-45-6789, mail alice@example.com"), RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
}

static void test_allow_patterns(void **unused)
{
    (void)unused;
    const char *gh = ghp_token(11);
    const char *stripe = secret(RP_SCAN_STRIPE_KEY, 12);
    /* the known test key's last 8 characters, as a pattern */
    const char *params = fmt("{\"allow_patterns\":[\"^nomatch$\",\"%s$\"]}", gh + strlen(gh) - 8);
    pt_policy p;
    pt_create(&p, T, params);
    assert_int_equal(p.create_rc, 0);
    PT_EXPECT(&p, request(fmt("test key %s", gh)), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, tool_call("Bash", fmt("{\"command\":%s}", js(fmt("echo %s", gh)))), RP_ALLOW,
              NULL, NULL);
    /* other findings still count, and the pattern is searched in the finding only */
    PT_EXPECT(&p, request(fmt("%s %s", gh, stripe)), RP_DENY,
              reason(RP_SCAN_STRIPE_KEY, "request text", stripe), NULL);
    pt_policy_free(&p);

    pt_create(&p, T, "{\"allow_patterns\":[\"^test key\"]}"); /* text around it is not seen */
    PT_EXPECT(&p, request(fmt("test key %s", gh)), RP_DENY,
              reason(RP_SCAN_GITHUB_TOKEN, "request text", gh), NULL);
    pt_policy_free(&p);
}

static void test_ask(void **unused)
{
    (void)unused;
    const char *gh = ghp_token(13);
    pt_policy p;
    pt_create(&p, T, "{\"action\":\"ask\"}");
    PT_EXPECT(&p, request(gh), RP_ASK, reason(RP_SCAN_GITHUB_TOKEN, "request text", gh), NULL);
    PT_EXPECT(&p, request("fine"), RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
}

static void expect_redact(const pt_policy *p, const char *event, const char *data, const char *why)
{
    pt_eval e;
    pt_eval_event(&e, p, event);
    assert_int_equal(e.rc, 0);
    assert_string_equal(rp_verdict_name(e.result.verdict), "ALLOW");
    assert_string_equal(e.result.data ? rp_json_to_string(&e.arena, e.result.data) : "", data);
    if (why == NULL)
        assert_null(e.result.reason);
    else
        assert_string_equal(e.result.reason, why);
    pt_eval_free(&e);
}

static void test_scan_redact(void **unused)
{
    (void)unused;
    const char *gh = ghp_token(14);
    const char *stripe = secret(RP_SCAN_STRIPE_KEY, 15);
    const char *gh_p = preview_of(gh), *stripe_p = preview_of(stripe);
    pt_policy p;
    pt_create(&p, T, "{\"action\":\"REDACT\",\"scan_results\":true}");

    /* tool_call: {name, arguments} with the same shape, every other key kept */
    expect_redact(&p,
                  fmt("{\"type\":\"tool_call\",\"data\":{\"name\":\"Bash\",\"arguments\":{"
                      "\"command\":%s,\"timeout\":5},\"id\":\"t1\"}}",
                      js(fmt("curl -H 'Authorization: token %s' -d %s x", gh, stripe))),
                  "{\"name\":\"Bash\",\"arguments\":{\"command\":\"curl -H 'Authorization: "
                  "token [REDACTED:github_token]' -d [REDACTED:stripe_key] x\",\"timeout\":5},"
                  "\"id\":\"t1\"}",
                  fmt("Secrets redacted: GitHub Token (1: '%s'), Stripe Secret Key (1: '%s')", gh_p,
                      stripe_p));
    expect_redact(&p, tool_call("mcp__x__post", fmt("{\"body\":{\"items\":[%s,7]}}", js(gh))),
                  "{\"name\":\"mcp__x__post\",\"arguments\":{\"body\":{\"items\":[\"[REDACTED:"
                  "github_token]\",7]}}}",
                  fmt("Secrets redacted: GitHub Token (1: '%s')", gh_p));
    /* request: a string stays a string */
    expect_redact(&p, request(fmt("a %s b %s", gh, gh)),
                  "\"a [REDACTED:github_token] b [REDACTED:github_token]\"",
                  fmt("Secrets redacted: GitHub Token (2: '%s', '%s')", gh_p, gh_p));
    /* tool_result */
    expect_redact(&p, fmt("{\"type\":\"tool_result\",\"data\":{\"result\":%s}}", js(stripe)),
                  "{\"result\":\"[REDACTED:stripe_key]\"}",
                  fmt("Secrets redacted: Stripe Secret Key (1: '%s')", stripe_p));
    /* a clean shell command: plain ALLOW */
    expect_redact(&p, tool_call("Bash", "{\"command\":\"ls -la\"}"), "", NULL);
    pt_policy_free(&p);
}

/* ---- failure path ---- */

static int failing_open(const rp_scan_options *opt, rp_scanner **out, char *err, size_t n)
{
    (void)opt;
    *out = NULL;
    snprintf(err, n, "fake: database rejected");
    return -1;
}

static void test_scanner_failure(void **unused)
{
    (void)unused;
    const rp_content_backend saved = rp_content_policy_backend;
    pt_policy p;
    pt_create(&p, T, "{}");
    rp_content_policy_backend.open = failing_open;
    PT_EXPECT_FAIL(&p, tool_call("Bash", "{\"command\":\"ls\"}"),
                   "cannot open the content scanner: fake: database rejected");
    /* nothing to scan: no scanner needed */
    PT_EXPECT(&p, "{\"type\":\"response\",\"data\":\"x\"}", RP_ALLOW, NULL, NULL);
    rp_content_policy_backend = saved;
    PT_EXPECT(&p, tool_call("Bash", "{\"command\":\"ls\"}"), RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
}

/* ---- a private cache directory: no test writes the developer's ~/.cache ---- */

#include "scan_cache_fixture.h"

static int teardown(void **state)
{
    rp_arena_free(&g_arena);
    return teardown_cache(state);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schema),
        cmocka_unit_test(test_param_errors),
        cmocka_unit_test(test_request_and_llm_request),
        cmocka_unit_test(test_other_phases),
        cmocka_unit_test(test_tool_call_arguments),
        cmocka_unit_test(test_masks_never_reveal),
        cmocka_unit_test(test_shell_quote_split),
        cmocka_unit_test(test_tool_results),
        cmocka_unit_test(test_types),
        cmocka_unit_test(test_allow_patterns),
        cmocka_unit_test(test_ask),
        cmocka_unit_test(test_scan_redact),
        cmocka_unit_test(test_scanner_failure),
    };
    return cmocka_run_group_tests(tests, setup_cache, teardown);
}
