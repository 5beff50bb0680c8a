/* test_hosts_cursor.c — the Cursor adapter (src/hosts/cursor.c): the exact PolicyEvent of
 * every event it evaluates (payloads synthesized from the fields agent-hosts.md A.3 lists: it
 * quotes no full example), the call key shared by a before- and after-event, errors, and the
 * exact answer bytes per event: ask only on shell and MCP, no messages on beforeReadFile,
 * continue on prompts, {} on the rest. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "hosts/host.h"

static const char fixture_host_name[] = "cursor";
#include "hosts_fixture.h"

#define COMMON                                                                                     \
    "\"conversation_id\":\"c1\",\"generation_id\":\"g1\",\"workspace_roots\":[\"/ws\"],"           \
    "\"model\":\"claude-4-sonnet\",\"cursor_version\":\"2.1.0\",\"user_email\":"                   \
    "\"dev@example.com\""

#define CTX(key)                                                                                   \
    "\"context\":{\"cwd\":\"/ws\",\"harness\":\"cursor\",\"home\":\"/home/u\",\"host\":"           \
    "\"cursor\",\"model\":\"claude-4-sonnet\",\"tool_use_id\":\"" key "\",\"user\":"               \
    "\"dev@example.com\"}"
#define CTX_NOKEY                                                                                  \
    "\"context\":{\"cwd\":\"/ws\",\"harness\":\"cursor\",\"home\":\"/home/u\",\"host\":"           \
    "\"cursor\",\"model\":\"claude-4-sonnet\",\"user\":\"dev@example.com\"}"

/* SHA-256 of {"input":{"command":"npm test"},"tool":"Shell"}, the first 32 hex digits. */
#define SHELL_KEY "h:1cb7c6122d6c3e21d66880f284c2cc78"

static const char *ctx_key(fx *f)
{
    return rp_json_get_str(rp_json_get(&f->call.event, "context"), "tool_use_id");
}

static void test_shell(void **state)
{
    fx *f = *state;
    expect_event(f,
                 "{" COMMON ",\"hook_event_name\":\"beforeShellExecution\",\"command\":"
                 "\"npm test\",\"cwd\":\"\"}",
                 RP_HOOK_PRE_TOOL,
                 "{" CTX(SHELL_KEY) ",\"data\":{\"arguments\":{\"command\":\"npm test\"},"
                                    "\"name\":\"Shell\"},\"session_id\":\"c1\",\"target\":"
                                    "\"Shell\",\"type\":\"tool_call\"}");
    assert_true(f->call.can_ask);
    assert_false(f->call.can_rewrite);
    assert_string_equal(f->call.session_id, "c1");
    assert_string_equal(f->call.tool_name, "Shell");
    assert_null(f->call.transcript_path);
    /* The after-event of the same call has the same key. */
    expect_event(
        f,
        "{" COMMON ",\"hook_event_name\":\"afterShellExecution\",\"command\":"
        "\"npm test\",\"output\":\"ok\\n\",\"duration\":640}",
        RP_HOOK_POST_TOOL,
        "{" CTX(SHELL_KEY) ",\"data\":{\"result\":\"ok\\n\"},\"request_data\":{\"arguments\":{"
                           "\"command\":\"npm test\"},\"name\":\"Shell\"},"
                           "\"session_id\":\"c1\",\"target\":\"Shell\",\"type\":"
                           "\"tool_result\"}");
    assert_string_equal(ctx_key(f), rp_hook_call_key(&f->a, "Shell", f->call.tool_input));
}

static void test_cwd_and_user(void **state)
{
    fx *f = *state;
    rp_hook_env e = env;
    e.config_user = "cfg-user";
    assert_int_equal(parse_env(f,
                               "{\"conversation_id\":\"c\",\"hook_event_name\":\"stop\","
                               "\"cwd\":\"/here\",\"workspace_roots\":[\"/ws\"],\"user_email\":"
                               "\"dev@example.com\",\"status\":\"completed\"}",
                               &e),
                     0);
    assert_string_equal(event(f), "{\"context\":{\"cwd\":\"/here\",\"harness\":\"cursor\","
                                  "\"home\":\"/home/u\",\"host\":\"cursor\",\"user\":"
                                  "\"cfg-user\"},\"data\":null,\"session_id\":\"c\",\"type\":"
                                  "\"stop\"}");
    /* Neither cwd nor a workspace root: the hook's own cwd; no user_email: the OS user. */
    expect_event(f, "{\"conversation_id\":\"c\",\"hook_event_name\":\"sessionEnd\"}",
                 RP_HOOK_SESSION_END,
                 "{\"context\":{\"cwd\":\"/proc-cwd\",\"harness\":\"cursor\",\"home\":"
                 "\"/home/u\",\"host\":\"cursor\",\"user\":\"os-user\"},\"data\":null,"
                 "\"session_id\":\"c\",\"type\":\"session_end\"}");
}

static void test_mcp(void **state)
{
    fx *f = *state;
    /* tool_input as a JSON string (some versions): parsed. */
    expect_event(f,
                 "{" COMMON ",\"hook_event_name\":\"beforeMCPExecution\",\"tool_name\":"
                 "\"search\",\"tool_input\":\"{\\\"query\\\":\\\"q\\\",\\\"limit\\\":5}\","
                 "\"url\":\"https://mcp.example.com\"}",
                 RP_HOOK_PRE_TOOL,
                 "{" CTX("h:f1d9992657a9cc23b7d9c6babe5e6977") ",\"data\":{\"arguments\":{"
                                                               "\"limit\":5,\"query\":\"q\"},"
                                                               "\"name\":\"search\"},"
                                                               "\"session_id\":\"c1\","
                                                               "\"target\":\"search\",\"type\":"
                                                               "\"tool_call\"}");
    assert_true(f->call.can_ask);
    const char *pre_key = ctx_key(f);
    expect_event(
        f,
        "{" COMMON ",\"hook_event_name\":\"afterMCPExecution\",\"tool_name\":"
        "\"search\",\"tool_input\":{\"query\":\"q\",\"limit\":5},\"result_json\":"
        "\"{\\\"hits\\\":0}\"}",
        RP_HOOK_POST_TOOL,
        "{" CTX("h:f1d9992657a9cc23b7d9c6babe5e6977") ",\"data\":{\"result\":\"{\\\"hits\\\":0}\"},"
                                                      "\"request_data\":{\"arguments\":"
                                                      "{\"limit\":5,\"query\":\"q\"},"
                                                      "\"name\":\"search\"},"
                                                      "\"session_id\":\"c1\","
                                                      "\"target\":\"search\",\"type\":"
                                                      "\"tool_result\"}");
    assert_string_equal(ctx_key(f), pre_key);
    /* Not an object: {} with the raw value kept where the policies see it. */
    assert_int_equal(parse(f, "{\"conversation_id\":\"c\",\"hook_event_name\":"
                              "\"beforeMCPExecution\",\"tool_name\":\"t\",\"tool_input\":"
                              "\"not json DENYME\"}"),
                     0);
    assert_string_equal(rp_json_to_string(&f->a, f->call.tool_input),
                        "{\"raw_input\":\"not json DENYME\"}");
    assert_int_equal(parse(f, "{\"conversation_id\":\"c\",\"hook_event_name\":"
                              "\"beforeMCPExecution\",\"tool_name\":\"t\",\"tool_input\":[1]}"),
                     0);
    assert_string_equal(rp_json_to_string(&f->a, f->call.tool_input), "{\"raw_input\":[1]}");
    assert_int_equal(parse(f, "{\"conversation_id\":\"c\",\"hook_event_name\":"
                              "\"beforeMCPExecution\",\"tool_name\":\"t\"}"),
                     0);
    assert_string_equal(rp_json_to_string(&f->a, f->call.tool_input), "{}");
}

static void test_read_file(void **state)
{
    fx *f = *state;
    assert_int_equal(parse(f, "{" COMMON ",\"hook_event_name\":\"beforeReadFile\",\"file_path\":"
                              "\"/ws/.env\",\"content\":\"KEY=1\\n\",\"attachments\":[]}"),
                     0);
    assert_int_equal(f->call.phase, RP_HOOK_PRE_TOOL);
    assert_false(f->call.can_ask);
    assert_string_equal(f->call.tool_name, "Read");
    assert_string_equal(rp_json_to_string(&f->a, rp_json_get(&f->call.event, "data")),
                        "{\"name\":\"Read\",\"arguments\":{\"file_path\":\"/ws/.env\","
                        "\"content\":\"KEY=1\\n\"}}");
    assert_string_equal(ctx_key(f), rp_hook_call_key(&f->a, "Read", f->call.tool_input));
}

static void test_generic_tools(void **state)
{
    fx *f = *state;
    /* Cursor 1.7's camelCase names are read too. */
    assert_int_equal(parse(f, "{" COMMON ",\"hook_event_name\":\"preToolUse\",\"toolName\":"
                              "\"Write\",\"toolInput\":{\"file_path\":\"/ws/a\",\"content\":"
                              "\"x\"}}"),
                     0);
    assert_int_equal(f->call.phase, RP_HOOK_PRE_TOOL);
    assert_false(f->call.can_ask);
    assert_string_equal(rp_json_to_string(&f->a, rp_json_get(&f->call.event, "data")),
                        "{\"name\":\"Write\",\"arguments\":{\"file_path\":\"/ws/a\",\"content\":"
                        "\"x\"}}");
    const char *pre_key = ctx_key(f);
    assert_int_equal(parse(f, "{" COMMON ",\"hook_event_name\":\"postToolUse\",\"tool_name\":"
                              "\"Write\",\"tool_input\":{\"file_path\":\"/ws/a\",\"content\":"
                              "\"x\"},\"tool_output\":\"{\\\"ok\\\":true}\"}"),
                     0);
    assert_int_equal(f->call.phase, RP_HOOK_POST_TOOL);
    assert_string_equal(ctx_key(f), pre_key);
    assert_string_equal(rp_json_to_string(&f->a, rp_json_get(&f->call.event, "data")),
                        "{\"result\":\"{\\\"ok\\\":true}\",\"is_error\":false}");
    assert_int_equal(parse(f, "{" COMMON ",\"hook_event_name\":\"postToolUseFailure\","
                              "\"tool_name\":\"Shell\",\"tool_input\":{\"command\":\"make\"},"
                              "\"error_message\":\"Exit code 2\"}"),
                     0);
    assert_string_equal(rp_json_to_string(&f->a, rp_json_get(&f->call.event, "data")),
                        "{\"result\":\"Exit code 2\",\"is_error\":true}");
    /* The key: SHA-256 of {"input":{"edits":[...],"file_path":"/ws/a"},"tool":"Edit"}. */
    expect_event(
        f,
        "{" COMMON ",\"hook_event_name\":\"afterFileEdit\",\"file_path\":\"/ws/a\","
        "\"edits\":[{\"old_string\":\"a\",\"new_string\":\"b\"}]}",
        RP_HOOK_POST_TOOL,
        "{\"context\":{\"cwd\":\"/ws\",\"harness\":\"cursor\",\"home\":\"/home/u\","
        "\"host\":\"cursor\",\"model\":\"claude-4-sonnet\",\"tool_use_id\":\"h:"
        "3491ab11591e48caf6e79d1132d6e247\",\"user\":\"dev@example.com\"},\"data\":{\"is_error\":"
        "false,\"result\":[{\"new_string\":\"b\",\"old_string\":\"a\"}]},\"request_data\":{"
        "\"arguments\":{"
        "\"edits\":[{\"new_string\":\"b\",\"old_string\":\"a\"}],\"file_path\":"
        "\"/ws/a\"},\"name\":\"Edit\"},\"session_id\":\"c1\",\"target\":\"Edit\","
        "\"type\":\"tool_result\"}");
}

static void test_prompt_and_lifecycle(void **state)
{
    fx *f = *state;
    /* SHA-256("explain") = 0818ab2593f5cb6c2daa8ffdd20578aa... */
    expect_event(f,
                 "{" COMMON ",\"hook_event_name\":\"beforeSubmitPrompt\",\"prompt\":\"explain\","
                 "\"attachments\":[]}",
                 RP_HOOK_PROMPT,
                 "{" CTX("prompt:0818ab2593f5cb6c2daa8ffdd20578aa") ",\"data\":{\"user_content\":"
                                                                    "\"explain\"},"
                                                                    "\"session_id\":\"c1\","
                                                                    "\"type\":\"request\"}");
    assert_false(f->call.can_ask);
    expect_event(f, "{" COMMON ",\"hook_event_name\":\"sessionStart\"}", RP_HOOK_SESSION_START,
                 "{" CTX_NOKEY ",\"data\":null,\"session_id\":\"c1\",\"type\":\"session_start\"}");
    static const char *const ignored[] = {"afterAgentResponse", "afterAgentThought",
                                          "beforeTabFileRead", "subagentStop", "preCompact"};
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++) {
        char in[128];
        snprintf(in, sizeof in, "{\"hook_event_name\":\"%s\"}", ignored[i]);
        assert_int_equal(parse(f, in), 0);
        assert_int_equal(f->call.phase, RP_HOOK_IGNORED);
    }
}

static void test_errors(void **state)
{
    fx *f = *state;
    expect_error(f, "7", RP_HOOK_PRE_TOOL, "the hook input must be a JSON object, not integer");
    expect_error(f, "{\"conversation_id\":\"c\"}", RP_HOOK_PRE_TOOL, "hook_event_name is missing");
    expect_error(f, "{\"hook_event_name\":\"beforeShellExecution\",\"command\":\"ls\"}",
                 RP_HOOK_PRE_TOOL, "conversation_id is missing");
    expect_error(f, "{\"hook_event_name\":\"beforeSubmitPrompt\",\"prompt\":\"x\"}", RP_HOOK_PROMPT,
                 "conversation_id is missing");
    expect_error(f,
                 "{\"conversation_id\":\"c\",\"hook_event_name\":\"beforeShellExecution\","
                 "\"command\":[\"rm\"]}",
                 RP_HOOK_PRE_TOOL, "command must be a string, not array");
    expect_error(f, "{\"conversation_id\":\"c\",\"hook_event_name\":\"beforeShellExecution\"}",
                 RP_HOOK_PRE_TOOL, "command is missing");
    expect_error(f,
                 "{\"conversation_id\":\"c\",\"hook_event_name\":\"beforeShellExecution\","
                 "\"command\":\"ls\",\"workspace_roots\":\"/ws\"}",
                 RP_HOOK_PRE_TOOL, "workspace_roots must be an array, not string");
    expect_error(f,
                 "{\"conversation_id\":\"c\",\"hook_event_name\":\"beforeReadFile\","
                 "\"file_path\":\"/a\",\"content\":3}",
                 RP_HOOK_PRE_TOOL, "content must be a string, not integer");
    expect_error(f, "{\"conversation_id\":\"c\",\"hook_event_name\":\"beforeMCPExecution\"}",
                 RP_HOOK_PRE_TOOL, "tool_name is missing");
    expect_error(f,
                 "{\"conversation_id\":\"c\",\"hook_event_name\":\"beforeSubmitPrompt\","
                 "\"prompt\":1}",
                 RP_HOOK_PROMPT, "prompt must be a string, not integer");
    expect_error(f,
                 "{\"conversation_id\":\"c\",\"hook_event_name\":\"afterShellExecution\","
                 "\"command\":\"ls\"}",
                 RP_HOOK_POST_TOOL, "output is missing");
    expect_error(f,
                 "{\"conversation_id\":\"c\",\"hook_event_name\":\"postToolUseFailure\","
                 "\"tool_name\":\"t\"}",
                 RP_HOOK_POST_TOOL, "error is missing");
    expect_error(f,
                 "{\"conversation_id\":\"c\",\"hook_event_name\":\"afterFileEdit\","
                 "\"file_path\":\"/a\",\"edits\":{}}",
                 RP_HOOK_POST_TOOL, "edits must be an array, not object");
}

#define DENY_MSG(r)                                                                                \
    "{\"permission\":\"deny\",\"user_message\":\"" r "\",\"agent_message\":\"" r "\"}\n"
#define ASK_MSG(r)                                                                                 \
    "{\"permission\":\"ask\",\"user_message\":\"" r "\",\"agent_message\":\"" r "\"}\n"

static void test_answer_pre_tool(void **state)
{
    fx *f = *state;
    rp_host_settings overrides = {.allow_overrides = true};
    static const char *const asking[] = {
        "{\"conversation_id\":\"c\",\"hook_event_name\":\"beforeShellExecution\",\"command\":"
        "\"ls\"}",
        "{\"conversation_id\":\"c\",\"hook_event_name\":\"beforeMCPExecution\",\"tool_name\":"
        "\"t\",\"tool_input\":{}}"};
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(parse(f, asking[i]), 0);
        expect_answer(f, RP_DENY, "no", NULL, NULL, DENY_MSG("no"), "", 0);
        expect_answer(f, RP_ASK, "sure?", NULL, NULL, ASK_MSG("sure?"), "", 0);
        expect_answer(f, RP_ALLOW, NULL, NULL, NULL, "{}\n", "", 0);
        expect_answer(f, RP_ALLOW, NULL, NULL, &overrides, "{\"permission\":\"allow\"}\n", "", 0);
        expect_answer(f, RP_ALLOW, NULL, "{\"name\":\"Shell\",\"arguments\":{}}", &overrides,
                      DENY_MSG("the tool input would have to be rewritten: a policy rewrote it"),
                      "", 0);
        /* An ASK with a rewrite: approving would run the unredacted call, so it is a deny. */
        expect_answer(f, RP_ASK, "sure?", "{\"name\":\"Shell\",\"arguments\":{}}", NULL,
                      DENY_MSG("the tool input would have to be rewritten: sure?"), "", 0);
    }
    /* preToolUse cannot ask. */
    assert_int_equal(parse(f, "{\"conversation_id\":\"c\",\"hook_event_name\":\"preToolUse\","
                              "\"tool_name\":\"Edit\",\"tool_input\":{}}"),
                     0);
    expect_answer(f, RP_ASK, "sure?", NULL, NULL, DENY_MSG("sure?"), "", 0);
    expect_answer(f, RP_DENY, NULL, NULL, NULL, DENY_MSG("denied by rampart"), "", 0);
    expect_answer(f, RP_ALLOW, NULL, NULL, NULL, "{}\n", "", 0);
    /* beforeReadFile takes no messages and cannot ask. */
    assert_int_equal(parse(f, "{\"conversation_id\":\"c\",\"hook_event_name\":\"beforeReadFile\","
                              "\"file_path\":\"/a\",\"content\":\"k\"}"),
                     0);
    expect_answer(f, RP_DENY, "secret", NULL, NULL, "{\"permission\":\"deny\"}\n", "", 0);
    expect_answer(f, RP_ASK, "secret", NULL, NULL, "{\"permission\":\"deny\"}\n", "", 0);
    expect_answer(f, RP_ALLOW, "Secrets", "{\"name\":\"Read\",\"arguments\":{}}", NULL,
                  "{\"permission\":\"deny\"}\n", "", 0);
    expect_answer(f, RP_ALLOW, NULL, NULL, NULL, "{}\n", "", 0);
    expect_answer(f, RP_ALLOW, NULL, NULL, &overrides, "{\"permission\":\"allow\"}\n", "", 0);
    /* An error before the event was known: the shell form. */
    rp_hook_call bare = {.phase = RP_HOOK_PRE_TOOL};
    f->call = bare;
    expect_answer(f, RP_DENY, "rampart: bad input", NULL, NULL, DENY_MSG("rampart: bad input"), "",
                  0);
}

static void test_answer_other_phases(void **state)
{
    fx *f = *state;
    rp_host_settings overrides = {.allow_overrides = true};
    assert_int_equal(parse(f, "{\"conversation_id\":\"c\",\"hook_event_name\":"
                              "\"beforeSubmitPrompt\",\"prompt\":\"p\"}"),
                     0);
    expect_answer(f, RP_DENY, "no", NULL, NULL, "{\"continue\":false,\"user_message\":\"no\"}\n",
                  "", 0);
    expect_answer(f, RP_ASK, "checkpoint", NULL, NULL,
                  "{\"continue\":false,\"user_message\":\"checkpoint\"}\n", "", 0);
    expect_answer(f, RP_ALLOW, NULL, NULL, &overrides, "{\"continue\":true}\n", "", 0);
    expect_answer(f, RP_ALLOW, "Secrets", "{\"user_content\":\"x\"}", NULL,
                  "{\"continue\":false,\"user_message\":\"the prompt would have to be redacted: "
                  "Secrets\"}\n",
                  "", 0);
    static const char *const quiet[] = {
        "{\"conversation_id\":\"c\",\"hook_event_name\":\"stop\",\"status\":\"completed\"}",
        "{\"conversation_id\":\"c\",\"hook_event_name\":\"sessionStart\"}",
        ("{\"conversation_id\":\"c\",\"hook_event_name\":\"afterShellExecution\",\"command\":"
         "\"ls\",\"output\":\"\"}")};
    for (size_t i = 0; i < sizeof quiet / sizeof quiet[0]; i++) {
        assert_int_equal(parse(f, quiet[i]), 0);
        expect_answer(f, RP_DENY, "loop", NULL, NULL, "{}\n", "", 0);
        expect_answer(f, RP_ASK, "loop", NULL, NULL, "{}\n", "", 0);
        expect_answer(f, RP_ALLOW, NULL, NULL, NULL, "{}\n", "", 0);
    }
}

/* A NUL is refused on the events that protect (the policies would read only its head), and
 * accepted on the after-events. */
static void test_nul_characters(void **state)
{
    fx *f = *state;
    expect_error(f,
                 "{\"conversation_id\":\"c\",\"hook_event_name\":\"beforeSubmitPrompt\","
                 "\"prompt\":\"hi\\u0000DENYME\"}",
                 RP_HOOK_PROMPT, "prompt holds a NUL character, which rampart cannot judge past");
    expect_error(f,
                 "{\"conversation_id\":\"c\",\"hook_event_name\":\"beforeShellExecution\","
                 "\"command\":\"ls\\u0000; rm -rf /\",\"cwd\":\"/w\"}",
                 RP_HOOK_PRE_TOOL,
                 "command holds a NUL character, which rampart cannot judge past");
    expect_error(f,
                 "{\"conversation_id\":\"c\",\"hook_event_name\":\"beforeReadFile\","
                 "\"file_path\":\"/w/a\",\"content\":\"x\\u0000y\",\"workspace_roots\":[\"/w\"]}",
                 RP_HOOK_PRE_TOOL,
                 "content holds a NUL character, which rampart cannot judge past");
    expect_error(f,
                 "{\"conversation_id\":\"c\",\"hook_event_name\":\"beforeShellExecution\","
                 "\"command\":\"ls\",\"workspace_roots\":[\"/w\",\"/v\\u0000\"]}",
                 RP_HOOK_PRE_TOOL,
                 "workspace_roots[1] holds a NUL character, which rampart cannot judge past");
    assert_int_equal(parse(f, "{\"conversation_id\":\"c\",\"hook_event_name\":"
                              "\"afterShellExecution\",\"command\":\"cat b\",\"output\":"
                              "\"\\u0000\"}"),
                     0);
    assert_int_equal(f->call.phase, RP_HOOK_POST_TOOL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_shell, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cwd_and_user, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mcp, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_generic_tools, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prompt_and_lifecycle, setup, teardown),
        cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nul_characters, setup, teardown),
        cmocka_unit_test_setup_teardown(test_answer_pre_tool, setup, teardown),
        cmocka_unit_test_setup_teardown(test_answer_other_phases, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
