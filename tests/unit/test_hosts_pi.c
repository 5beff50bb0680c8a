/* test_hosts_pi.c — the Pi and opencode adapters (src/hosts/pi.c, opencode.c, pi_shape.c)
 * called directly: the exact PolicyEvent of every protocol event (and opencode's own event
 * names), the message_end usage mapping, the exact answer line for ALLOW, ASK, DENY and
 * rewrites per phase, and bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"
#include "hosts/host.h"

static rp_arena A;
static const rp_hook_adapter *PI, *OC;
static const rp_hook_env ENV = {.config_user = "cfg-user",
                                .os_user = "alice",
                                .home = "/home/alice",
                                .process_cwd = "/proc-cwd"};

static int setup(void **state)
{
    (void)state;
    rp_arena_init(&A, 1 << 14);
    PI = rp_hook_host_find("pi");
    OC = rp_hook_host_find("opencode");
    return PI && OC ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    rp_arena_free(&A);
    return 0;
}

static rp_hook_call parse_text(const rp_hook_adapter *h, const char *text, int want_rc, char *err,
                               size_t err_size)
{
    rp_json_error jerr;
    rp_json *payload = rp_json_parse(&A, text, strlen(text), &jerr);
    assert_non_null(payload);
    rp_hook_call call;
    err[0] = '\0';
    int rc = h->parse(payload, &ENV, &A, &call, err, err_size);
    if (rc != want_rc)
        fail_msg("%s parse returned %d (%s), want %d", h->name, rc, err, want_rc);
    return call;
}

static rp_hook_call parse_ok(const rp_hook_adapter *h, const char *text)
{
    char err[256];
    return parse_text(h, text, 0, err, sizeof err);
}

static void assert_json(const rp_json *v, const char *want)
{
    rp_buf b = {0};
    rp_json_write_sorted(&b, v);
    assert_string_equal(b.data, want);
    rp_buf_free(&b);
}

static void assert_event(const rp_hook_adapter *h, const char *text, rp_hook_phase phase,
                         const char *want)
{
    rp_hook_call call = parse_ok(h, text);
    assert_int_equal(call.phase, phase);
    assert_json(&call.event, want);
}

static void assert_answer(const rp_hook_adapter *h, const char *text, rp_verdict result,
                          const char *reason, const char *data_json, const char *want)
{
    rp_hook_call call = parse_ok(h, text);
    rp_hook_verdict v = {.result = result, .reason = reason};
    if (data_json) {
        rp_json_error jerr;
        v.data = rp_json_parse(&A, data_json, strlen(data_json), &jerr);
        assert_non_null(v.data);
    }
    rp_host_settings s = {.deny_exit_code = true, .allow_overrides = true};
    rp_hook_answer ans = {0};
    h->answer(&call, &v, &s, &A, &ans); /* no setting changes this protocol's answer */
    assert_string_equal(ans.out.data ? ans.out.data : "", want);
    assert_int_equal(ans.err.len, 0);
    assert_int_equal(ans.exit_code, 0);
    rp_buf_free(&ans.out);
    rp_buf_free(&ans.err);
}

#define BASE "\"session_id\":\"p1\",\"cwd\":\"/w\","
#define CTX(host)                                                                                  \
    "\"context\":{\"cwd\":\"/w\",\"harness\":\"" host                                              \
    "\",\"home\":\"/home/alice\",\"host\":\"" host "\","
#define BASH_LS                                                                                    \
    "{\"event\":\"tool_call\"," BASE "\"tool_name\":\"bash\",\"tool_call_id\":\"tc1\","            \
    "\"input\":{\"command\":\"ls\"}}"
/* rp_hook_call_key("bash", {command: ls}) */
#define BASH_LS_KEY "h:0e0c57e03758869e217edfec236cfc26"

static void test_tool_events(void **state)
{
    (void)state;
    rp_hook_call c = parse_ok(PI, BASH_LS);
    assert_int_equal(c.phase, RP_HOOK_PRE_TOOL);
    assert_string_equal(c.host_event, "tool_call");
    assert_string_equal(c.session_id, "p1");
    assert_string_equal(c.tool_name, "bash");
    assert_true(c.can_ask);
    assert_true(c.can_rewrite);
    assert_null(c.usage);
    assert_json(&c.event,
                "{" CTX("pi") "\"tool_use_id\":\"tc1\",\"user\":\"cfg-user\"},"
                              "\"data\":{\"arguments\":{\"command\":\"ls\"},\"name\":\"bash\"},"
                              "\"session_id\":\"p1\",\"target\":\"bash\",\"type\":\"tool_call\"}");
    /* No call id: a hash of the call, the same before and after. */
    assert_event(PI,
                 "{\"event\":\"tool_call\"," BASE "\"tool_name\":\"bash\","
                 "\"input\":{\"command\":\"ls\"},\"model\":\"claude-sonnet-4-5\"}",
                 RP_HOOK_PRE_TOOL,
                 "{" CTX("pi") "\"model\":\"claude-sonnet-4-5\",\"tool_use_id\":\"" BASH_LS_KEY
                               "\",\"user\":\"cfg-user\"},\"data\":{\"arguments\":{\"command\":"
                               "\"ls\"},\"name\":\"bash\"},\"session_id\":\"p1\",\"target\":"
                               "\"bash\",\"type\":\"tool_call\"}");
    c = parse_ok(PI, "{\"event\":\"tool_result\"," BASE "\"tool_name\":\"bash\","
                     "\"input\":{\"command\":\"ls\"},\"output\":\"a\\nb\\n\",\"is_error\":false}");
    assert_int_equal(c.phase, RP_HOOK_POST_TOOL);
    assert_false(c.can_ask);
    assert_false(c.can_rewrite);
    assert_json(&c.event,
                "{" CTX("pi") "\"tool_use_id\":\"" BASH_LS_KEY "\",\"user\":"
                              "\"cfg-user\"},\"data\":{\"is_error\":false,\"result\":\"a\\nb\\n\"},"
                              "\"request_data\":{\"arguments\":"
                              "{\"command\":\"ls\"},\"name\":\"bash\"},\"session_id\":\"p1\","
                              "\"target\":\"bash\",\"type\":\"tool_result\"}");
    /* A failed tool: the host's flag; structured output as it is. */
    c = parse_ok(PI, "{\"event\":\"tool_result\"," BASE "\"tool_name\":\"read\","
                     "\"tool_call_id\":\"tc2\",\"input\":{\"path\":\"x\"},\"output\":\"ENOENT\","
                     "\"is_error\":true}");
    assert_json(rp_json_get(&c.event, "data"), "{\"is_error\":true,\"result\":\"ENOENT\"}");
    c = parse_ok(PI, "{\"event\":\"tool_result\"," BASE "\"tool_name\":\"read\","
                     "\"tool_call_id\":\"tc2\",\"input\":{\"path\":\"x\"},\"output\":{\"code\":2},"
                     "\"is_error\":true}");
    assert_json(rp_json_get(&c.event, "data"), "{\"is_error\":true,\"result\":{\"code\":2}}");
    c = parse_ok(PI, "{\"event\":\"tool_result\"," BASE "\"tool_name\":\"read\","
                     "\"tool_call_id\":\"tc2\",\"input\":{\"path\":\"x\"},\"is_error\":true}");
    assert_json(rp_json_get(&c.event, "data"), "{\"is_error\":true,\"result\":null}");
    /* Without is_error the host gave no signal: the key is left out (the text heuristics
     * decide). */
    c = parse_ok(PI, "{\"event\":\"tool_result\"," BASE "\"tool_name\":\"read\","
                     "\"tool_call_id\":\"tc2\",\"input\":{\"path\":\"x\"},\"output\":[1]}");
    assert_json(rp_json_get(&c.event, "data"), "{\"result\":[1]}");
}

static void test_prompt_usage_and_lifecycle(void **state)
{
    (void)state;
    rp_hook_call c = parse_ok(PI, "{\"event\":\"input\"," BASE "\"prompt\":\"hello\"}");
    assert_int_equal(c.phase, RP_HOOK_PROMPT);
    assert_true(c.can_ask);
    assert_true(c.can_rewrite); /* Pi's input handler returns {action: "transform", text} */
    assert_false(
        parse_ok(OC, "{\"event\":\"chat.message\"," BASE "\"prompt\":\"hello\"}").can_rewrite);
    assert_json(&c.event, "{" CTX("pi") "\"tool_use_id\":\"prompt:2cf24dba5fb0a30e26e83b2ac5b9e29e"
                                        "\",\"user\":\"cfg-user\"},\"data\":{\"user_content\":"
                                        "\"hello\"},\"session_id\":\"p1\",\"type\":\"request\"}");

    /* message_end: Pi's usage in the ledger's names, the cost as reported, the message id. */
    c = parse_ok(PI, "{\"event\":\"message_end\"," BASE "\"model\":\"claude-sonnet-4-5\","
                     "\"message_id\":\"m1\",\"usage\":{\"input\":12,\"output\":5,\"cacheRead\":100,"
                     "\"cacheWrite\":7,\"totalTokens\":124,\"cost\":{\"input\":0.1,"
                     "\"total\":0.25}}}");
    assert_int_equal(c.phase, RP_HOOK_LLM_RESPONSE);
    const char *want = "{\"id\":\"m1\",\"model\":\"claude-sonnet-4-5\",\"usage\":{"
                       "\"cache_creation_input_tokens\":7,\"cache_read_input_tokens\":100,"
                       "\"cost_usd\":0.25,\"input_tokens\":12,\"output_tokens\":5}}";
    assert_non_null(c.usage);
    assert_json(c.usage, want);
    assert_json(&c.event, "{" CTX("pi") "\"model\":\"claude-sonnet-4-5\",\"user\":\"cfg-user\"},"
                                        "\"data\":"
                                        "{\"id\":\"m1\",\"model\":"
                                        "\"claude-sonnet-4-5\",\"usage\":{"
                                        "\"cache_creation_input_tokens\":7,"
                                        "\"cache_read_input_tokens\":100,\"cost_usd\":0.25,"
                                        "\"input_tokens\":12,\"output_tokens\":5}},"
                                        "\"session_id\":\"p1\",\"type\":\"llm_response\"}");
    /* Without usage: no usage; without a cost: no cost_usd. */
    c = parse_ok(PI, "{\"event\":\"message_end\"," BASE "\"model\":\"m\"}");
    assert_null(c.usage);
    assert_json(rp_json_get(&c.event, "data"), "{\"model\":\"m\"}");
    c = parse_ok(PI, "{\"event\":\"message_end\"," BASE "\"usage\":{\"input\":1,\"output\":2}}");
    assert_json(c.usage, "{\"usage\":{\"input_tokens\":1,\"output_tokens\":2}}");

    const char *names[][2] = {{"session_start", "session_start"},
                              {"session_shutdown", "session_end"},
                              {"turn_end", "stop"}};
    const rp_hook_phase phases[] = {RP_HOOK_SESSION_START, RP_HOOK_SESSION_END, RP_HOOK_STOP};
    for (size_t i = 0; i < 3; i++) {
        char text[128], wantev[512];
        snprintf(text, sizeof text, "{\"event\":\"%s\"," BASE "\"x\":1}", names[i][0]);
        snprintf(wantev, sizeof wantev,
                 "{" CTX("pi") "\"user\":\"cfg-user\"},\"data\":null,\"session_id\":\"p1\","
                               "\"type\":\"%s\"}",
                 names[i][1]);
        assert_event(PI, text, phases[i], wantev);
    }
}

static void test_opencode_names(void **state)
{
    (void)state;
    /* opencode's own names and the protocol's both work, with host/harness opencode. */
    const char *pre = "{\"event\":\"tool.execute.before\"," BASE "\"tool_name\":\"edit\","
                      "\"tool_call_id\":\"call_1\",\"input\":{\"filePath\":\"/w/a.c\"}}";
    const char *want = "{" CTX("opencode") "\"tool_use_id\":\"call_1\",\"user\":\"cfg-user\"},"
                                           "\"data\":{\"arguments\":{\"filePath\":\"/w/a.c\"},"
                                           "\"name\":\"edit\"},\"session_id\":\"p1\",\"target\":"
                                           "\"edit\",\"type\":\"tool_call\"}";
    assert_event(OC, pre, RP_HOOK_PRE_TOOL, want);
    assert_event(OC,
                 "{\"event\":\"tool_call\"," BASE "\"tool_name\":\"edit\","
                 "\"tool_call_id\":\"call_1\",\"input\":{\"filePath\":\"/w/a.c\"}}",
                 RP_HOOK_PRE_TOOL, want);
    /* tool.execute.after without the arguments: request_data.arguments is {}. */
    assert_event(
        OC,
        "{\"event\":\"tool.execute.after\"," BASE "\"tool_name\":\"read\","
        "\"tool_call_id\":\"call_2\",\"output\":\"text\"}",
        RP_HOOK_POST_TOOL,
        "{" CTX("opencode") "\"tool_use_id\":\"call_2\",\"user\":\"cfg-user\"},"
                            "\"data\":{\"result\":\"text\"},\"request_data\":{\"arguments\":{},"
                            "\"name\":\"read\"},\"session_id\":\"p1\",\"target\":"
                            "\"read\",\"type\":\"tool_result\"}");
    /* An MCP tool (opencode names it <server>_<tool>; the plugin sends `mcp`): the name the
     * policies know MCP tools by. The call keeps opencode's name. */
    rp_hook_call c = parse_ok(OC, "{\"event\":\"tool.execute.before\"," BASE "\"tool_name\":"
                                  "\"github_create_pull_request\",\"tool_call_id\":\"call_3\","
                                  "\"input\":{\"owner\":\"evil-org\",\"repo\":\"x\"},\"mcp\":{"
                                  "\"server\":\"github\",\"tool\":\"create_pull_request\"}}");
    assert_string_equal(c.tool_name, "github_create_pull_request");
    assert_json(rp_json_get(&c.event, "data"),
                "{\"arguments\":{\"owner\":\"evil-org\",\"repo\":\"x\"},\"name\":"
                "\"mcp__github__create_pull_request\"}");
    c = parse_ok(OC, "{\"event\":\"tool.execute.after\"," BASE "\"tool_name\":"
                     "\"github_create_pull_request\",\"tool_call_id\":\"call_3\",\"output\":\"ok\","
                     "\"mcp\":{\"server\":\"github\",\"tool\":\"create_pull_request\"}}");
    assert_json(rp_json_get(rp_json_get(&c.event, "request_data"), "name"),
                "\"mcp__github__create_pull_request\"");
    c = parse_ok(OC, "{\"event\":\"chat.message\"," BASE "\"prompt\":\"hello\"}");
    assert_int_equal(c.phase, RP_HOOK_PROMPT);
    assert_string_equal(c.host_event, "chat.message");
    c = parse_ok(OC, "{\"event\":\"session.idle\"," BASE "\"x\":1}");
    assert_int_equal(c.phase, RP_HOOK_STOP);
    assert_json(rp_json_get(&c.event, "type"), "\"stop\"");
    c = parse_ok(OC, "{\"event\":\"message_end\"," BASE "\"usage\":{\"input\":3}}");
    assert_json(c.usage, "{\"usage\":{\"input_tokens\":3}}");
    /* Pi does not take opencode's names. */
    char err[256];
    c = parse_text(PI, pre, -1, err, sizeof err);
    assert_string_equal(err, "unknown event 'tool.execute.before' (known: tool_call, tool_result, "
                             "input, session_start, session_shutdown, turn_end, message_end)");
}

static void test_answers(void **state)
{
    (void)state;
    const rp_hook_adapter *hosts[] = {PI, OC};
    for (size_t i = 0; i < 2; i++) {
        const rp_hook_adapter *h = hosts[i];
        assert_answer(h, BASH_LS, RP_ALLOW, NULL, NULL, "{\"result\":\"ALLOW\",\"reason\":null}\n");
        assert_answer(h, BASH_LS, RP_DENY, "no ls", NULL,
                      "{\"result\":\"DENY\",\"reason\":\"no ls\"}\n");
        assert_answer(h, BASH_LS, RP_DENY, NULL, NULL,
                      "{\"result\":\"DENY\",\"reason\":\"denied by rampart\"}\n");
        assert_answer(h, BASH_LS, RP_ASK, "sure?", NULL,
                      "{\"result\":\"ASK\",\"reason\":\"sure?\"}\n");
        /* A rewrite: the new arguments as `input`. */
        assert_answer(h, BASH_LS, RP_ALLOW, "Secrets redacted",
                      "{\"name\":\"bash\",\"arguments\":{\"command\":\"echo [R]\"}}",
                      "{\"result\":\"ALLOW\",\"reason\":\"Secrets redacted\",\"input\":"
                      "{\"command\":\"echo [R]\"}}\n");
        assert_answer(h, BASH_LS, RP_ALLOW, NULL, "[1]",
                      "{\"result\":\"DENY\",\"reason\":\"the input would have to be rewritten, "
                      "which rampart cannot do here: a policy rewrote it\"}\n");
        /* An ASK carries its rewrite: the extension applies it once the person approved. */
        assert_answer(h, BASH_LS, RP_ASK, "sure?",
                      "{\"name\":\"bash\",\"arguments\":{\"command\":\"echo [R]\"}}",
                      "{\"result\":\"ASK\",\"reason\":\"sure?\",\"input\":"
                      "{\"command\":\"echo [R]\"}}\n");
        /* A prompt rewrite: Pi transforms the prompt (its input handler); opencode cannot,
         * so it blocks. */
        if (h == PI) {
            assert_answer(h, "{\"event\":\"input\"," BASE "\"prompt\":\"k\"}", RP_ALLOW, "Secrets",
                          "{\"user_content\":\"[R]\"}",
                          "{\"result\":\"ALLOW\",\"reason\":\"Secrets\",\"prompt\":\"[R]\"}\n");
            assert_answer(h, "{\"event\":\"input\"," BASE "\"prompt\":\"k\"}", RP_ASK, "budget",
                          "{\"user_content\":\"[R]\"}",
                          "{\"result\":\"ASK\",\"reason\":\"budget\",\"prompt\":\"[R]\"}\n");
            assert_answer(h, "{\"event\":\"input\"," BASE "\"prompt\":\"k\"}", RP_ALLOW, NULL,
                          "{\"other\":1}",
                          "{\"result\":\"DENY\",\"reason\":\"the prompt would have to be "
                          "rewritten, which rampart cannot do here: a policy rewrote it\"}\n");
        } else {
            assert_answer(h, "{\"event\":\"chat.message\"," BASE "\"prompt\":\"k\"}", RP_ALLOW,
                          "Secrets", "{\"user_content\":\"[R]\"}",
                          "{\"result\":\"DENY\",\"reason\":\"the prompt would have to be "
                          "rewritten, which rampart cannot do here: Secrets\"}\n");
        }
        /* A tool output rewrite cannot be applied: DENY. */
        assert_answer(h,
                      "{\"event\":\"tool_result\"," BASE "\"tool_name\":\"bash\","
                      "\"tool_call_id\":\"t\",\"output\":\"k\"}",
                      RP_ALLOW, NULL, "\"[R]\"",
                      "{\"result\":\"DENY\",\"reason\":\"the tool output would have to be "
                      "rewritten, which rampart cannot do here: a policy rewrote it\"}\n");
        assert_answer(h,
                      "{\"event\":\"tool_result\"," BASE "\"tool_name\":\"bash\","
                      "\"tool_call_id\":\"t\",\"output\":\"k\"}",
                      RP_ASK, "hm", NULL, "{\"result\":\"ASK\",\"reason\":\"hm\"}\n");
        /* Events that never block still get their line; a rewrite there is not applied. */
        assert_answer(h, "{\"event\":\"turn_end\"," BASE "\"x\":1}", RP_ALLOW, NULL, "{\"a\":1}",
                      "{\"result\":\"ALLOW\",\"reason\":null}\n");
        assert_answer(h, "{\"event\":\"message_end\"," BASE "\"x\":1}", RP_ALLOW,
                      "rampart: store error", NULL,
                      "{\"result\":\"ALLOW\",\"reason\":\"rampart: store error\"}\n");
    }
}

static void assert_bad(const rp_hook_adapter *h, const char *text, rp_hook_phase phase,
                       const char *want_err)
{
    char err[512];
    rp_hook_call c = parse_text(h, text, -1, err, sizeof err);
    assert_int_equal(c.phase, phase);
    assert_string_equal(err, want_err);
}

static void test_bad_input(void **state)
{
    (void)state;
    assert_bad(PI, "[]", RP_HOOK_PRE_TOOL, "the hook input must be a JSON object, not array");
    assert_bad(PI, "null", RP_HOOK_PRE_TOOL, "the hook input must be a JSON object, not null");
    assert_bad(PI, "{\"session_id\":\"p1\"}", RP_HOOK_PRE_TOOL, "event is missing");
    assert_bad(PI, "{\"event\":3}", RP_HOOK_PRE_TOOL, "event must be a string, not integer");
    assert_bad(OC,
               "{\"event\":\"tool_call\"," BASE "\"tool_name\":\"x_y\",\"input\":{},\"mcp\":\"x\"}",
               RP_HOOK_PRE_TOOL, "mcp must be an object, not string");
    assert_bad(OC,
               "{\"event\":\"tool_call\"," BASE "\"tool_name\":\"x_y\",\"input\":{},\"mcp\":{"
               "\"server\":\"x\"}}",
               RP_HOOK_PRE_TOOL, "mcp must name server and tool");
    assert_bad(PI, "{\"event\":\"tool_execute\"," BASE "\"x\":1}", RP_HOOK_PRE_TOOL,
               "unknown event 'tool_execute' (known: tool_call, tool_result, input, "
               "session_start, session_shutdown, turn_end, message_end)");
    assert_bad(OC, "{\"event\":\"permission.asked\"}", RP_HOOK_PRE_TOOL,
               "unknown event 'permission.asked' (known: tool_call, tool_result, input, "
               "session_start, session_shutdown, turn_end, message_end, tool.execute.before, "
               "tool.execute.after, chat.message, session.idle)");
    assert_bad(PI, "{\"event\":\"tool_call\",\"tool_name\":\"bash\",\"input\":{}}",
               RP_HOOK_PRE_TOOL, "session_id is missing");
    assert_bad(PI, "{\"event\":\"turn_end\",\"session_id\":\"\"}", RP_HOOK_STOP,
               "session_id is missing");
    assert_bad(PI, "{\"event\":\"tool_call\"," BASE "\"tool_name\":\"bash\",\"input\":\"ls\"}",
               RP_HOOK_PRE_TOOL, "input must be an object, not string");
    assert_bad(PI, "{\"event\":\"tool_call\"," BASE "\"tool_name\":\"bash\"}", RP_HOOK_PRE_TOOL,
               "input must be an object, not missing");
    assert_bad(PI, "{\"event\":\"tool_call\"," BASE "\"input\":{}}", RP_HOOK_PRE_TOOL,
               "tool_name is missing");
    assert_bad(PI,
               "{\"event\":\"tool_call\"," BASE "\"tool_name\":\"bash\",\"tool_call_id\":5,"
               "\"input\":{}}",
               RP_HOOK_PRE_TOOL, "tool_call_id must be a string, not integer");
    assert_bad(PI,
               "{\"event\":\"tool_result\"," BASE "\"tool_name\":\"bash\",\"input\":[],"
               "\"output\":\"\"}",
               RP_HOOK_POST_TOOL, "input must be an object, not array");
    assert_bad(PI,
               "{\"event\":\"tool_result\"," BASE "\"tool_name\":\"bash\",\"output\":\"\","
               "\"is_error\":\"yes\"}",
               RP_HOOK_POST_TOOL, "is_error must be a boolean, not string");
    assert_bad(PI, "{\"event\":\"input\"," BASE "\"prompt\":null}", RP_HOOK_PROMPT,
               "prompt must be a string, not null");
    assert_bad(PI, "{\"event\":\"message_end\"," BASE "\"usage\":[1]}", RP_HOOK_LLM_RESPONSE,
               "usage must be an object, not array");
    assert_bad(PI, "{\"event\":\"message_end\"," BASE "\"usage\":{\"cost\":0.5}}",
               RP_HOOK_LLM_RESPONSE, "usage.cost must be an object with a number total");
    assert_bad(PI, "{\"event\":\"message_end\"," BASE "\"message_id\":1,\"usage\":{}}",
               RP_HOOK_LLM_RESPONSE, "message_id must be a string, not integer");
    assert_bad(OC, "{\"event\":\"session.idle\",\"session_id\":\"p1\",\"cwd\":[]}", RP_HOOK_STOP,
               "cwd must be a string, not array");
}

static void test_registered(void **state)
{
    (void)state;
    assert_string_equal(PI->name, "pi");
    assert_string_equal(PI->harness, "pi");
    assert_string_equal(OC->name, "opencode");
    assert_string_equal(OC->harness, "opencode");
    assert_int_equal(PI->deadline_ms, 1000);
    assert_int_equal(OC->deadline_ms, 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_registered, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tool_events, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prompt_usage_and_lifecycle, setup, teardown),
        cmocka_unit_test_setup_teardown(test_opencode_names, setup, teardown),
        cmocka_unit_test_setup_teardown(test_answers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_input, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
