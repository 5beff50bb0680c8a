/* test_hosts_claude.c — the Claude Code adapter (src/hosts/claude_code.c, claude_shape.c):
 * the exact PolicyEvent of every event it evaluates (the documented A.1.4 and A.1.6 payloads of
 * agent-hosts.md among them), the errors of malformed payloads with the phase they are answered
 * in, and the exact answer bytes for ALLOW, ASK, DENY and rewrites per phase and setting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "hosts/host.h"

static const char fixture_host_name[] = "claude-code";
#include "hosts_fixture.h"

/* agent-hosts.md A.1.4, verbatim. */
static const char doc_bash[] =
    "{\"session_id\":\"abc123\",\"prompt_id\":\"550e8400-e29b-41d4-a716-446655440000\","
    "\"transcript_path\":\"/home/user/.claude/projects/.../transcript.jsonl\","
    "\"cwd\":\"/home/user/my-project\",\"permission_mode\":\"default\","
    "\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":"
    "\"npm test\",\"description\":\"Run test suite\",\"timeout\":120000,"
    "\"run_in_background\":false},\"tool_use_id\":\"toolu_01ABC123...\"}";

/* agent-hosts.md A.1.6, the input of the minimal pair, verbatim. */
static const char doc_pair[] =
    "{\"session_id\":\"s1\",\"transcript_path\":\"/home/u/.claude/projects/p/s1.jsonl\","
    "\"cwd\":\"/home/u/proj\",\n \"permission_mode\":\"default\",\"hook_event_name\":"
    "\"PreToolUse\",\"tool_name\":\"Bash\",\n \"tool_input\":{\"command\":\"git push --force "
    "origin main\",\"description\":\"Force push\"},\n \"tool_use_id\":\"toolu_01\"}";

#define CTX_S1                                                                                     \
    "\"context\":{\"cwd\":\"/p\",\"harness\":\"claude-code\",\"home\":\"/home/u\",\"host\":"       \
    "\"claude-code\",\"user\":\"os-user\"}"
/* The same context with a tool_use_id: the call key of a tool event that came without one. */
#define CTX_S1_ID(id)                                                                              \
    "\"context\":{\"cwd\":\"/p\",\"harness\":\"claude-code\",\"home\":\"/home/u\",\"host\":"       \
    "\"claude-code\",\"tool_use_id\":\"" id "\",\"user\":\"os-user\"}"
/* The contexts of the tool events below that came without a tool_use_id: the call key
 * "h:" + the first 32 hex digits of SHA-256 over {"input":TOOL_INPUT,"tool":NAME},
 * computed independently. */
#define CTX_S1_K1 CTX_S1_ID("h:34225da5287936287dccb226c41435be")
#define CTX_S1_K2 CTX_S1_ID("h:43749a36369512650a9af439c381b16d")
#define CTX_S1_K3 CTX_S1_ID("h:b31b74019a652a27a3cfca9780f3a95c")

static void test_pre_tool_documented(void **state)
{
    fx *f = *state;
    expect_event(f, doc_bash, RP_HOOK_PRE_TOOL,
                 "{\"context\":{\"cwd\":\"/home/user/my-project\",\"harness\":\"claude-code\","
                 "\"home\":\"/home/u\",\"host\":\"claude-code\",\"permission_mode\":\"default\","
                 "\"tool_use_id\":\"toolu_01ABC123...\",\"user\":\"os-user\"},\"data\":{"
                 "\"arguments\":{\"command\":\"npm test\",\"description\":\"Run test suite\","
                 "\"run_in_background\":false,\"timeout\":120000},\"name\":\"Bash\"},"
                 "\"session_id\":\"abc123\",\"target\":\"Bash\",\"type\":\"tool_call\"}");
    assert_string_equal(f->call.host_event, "PreToolUse");
    assert_string_equal(f->call.session_id, "abc123");
    assert_string_equal(f->call.tool_name, "Bash");
    assert_string_equal(f->call.transcript_path,
                        "/home/user/.claude/projects/.../transcript.jsonl");
    assert_string_equal(rp_json_get_str(f->call.tool_input, "command"), "npm test");
    assert_true(f->call.can_ask);
    assert_true(f->call.can_rewrite);
    assert_null(f->call.usage);
}

static void test_pre_tool_config_user_and_process_cwd(void **state)
{
    fx *f = *state;
    rp_hook_env e = env;
    e.config_user = "alice";
    assert_int_equal(parse_env(f,
                               "{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\","
                               "\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":\"/a\"}}",
                               &e),
                     0);
    assert_string_equal(event(f), "{\"context\":{\"cwd\":\"/proc-cwd\",\"harness\":\"claude-code\","
                                  "\"home\":\"/home/u\",\"host\":\"claude-code\",\"tool_use_id\":"
                                  "\"h:5c7f0990675bf4774f2880f0e58b01ae\",\"user\":\"alice\"},"
                                  "\"data\":{\"arguments\":{\"file_path\":\"/a\"},"
                                  "\"name\":\"Read\"},\"session_id\":\"s\",\"target\":\"Read\","
                                  "\"type\":\"tool_call\"}");
    assert_null(f->call.transcript_path);
}

static void test_pre_tool_dispatch(void **state)
{
    fx *f = *state;
    expect_event(f,
                 "{\"session_id\":\"s\",\"cwd\":\"/p\",\"hook_event_name\":\"PreToolUse\","
                 "\"tool_name\":\"Agent\",\"tool_use_id\":\"t1\",\"tool_input\":{\"description\":"
                 "\"Find it\",\"prompt\":\"Where?\",\"subagent_type\":\"Explore\"}}",
                 RP_HOOK_PRE_TOOL,
                 "{\"context\":{\"cwd\":\"/p\",\"harness\":\"claude-code\",\"home\":\"/home/u\","
                 "\"host\":\"claude-code\",\"tool_use_id\":\"t1\",\"user\":\"os-user\"},\"data\":"
                 "{\"arguments\":{\"args\":{\"description\":\"Find it\",\"prompt\":\"Where?\","
                 "\"purpose\":\"explore\",\"subagent_type\":\"Explore\"},\"host_tool\":\"Agent\"},"
                 "\"name\":\"sys_session_send\"},\"session_id\":\"s\",\"target\":"
                 "\"sys_session_send\",\"type\":\"tool_call\"}");
    assert_string_equal(f->call.tool_name, "Agent");
    /* The older name, and a type without a purpose: the key is left out. */
    expect_event(f,
                 "{\"session_id\":\"s\",\"cwd\":\"/p\",\"hook_event_name\":\"PreToolUse\","
                 "\"tool_name\":\"Task\",\"tool_input\":{\"prompt\":\"x\",\"subagent_type\":"
                 "\"custom\"}}",
                 RP_HOOK_PRE_TOOL,
                 "{" CTX_S1_K1 ",\"data\":{\"arguments\":{\"args\":{\"prompt\":\"x\","
                 "\"subagent_type\":\"custom\"},\"host_tool\":\"Task\"},"
                 "\"name\":\"sys_session_send\"},\"session_id\":\"s\","
                 "\"target\":\"sys_session_send\",\"type\":\"tool_call\"}");
}

static void test_subagent_session(void **state)
{
    fx *f = *state;
    expect_event(f,
                 "{\"session_id\":\"s\",\"agent_id\":\"a7\",\"agent_type\":\"Explore\",\"cwd\":"
                 "\"/p\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Grep\","
                 "\"tool_input\":{\"pattern\":\"x\"},\"tool_use_id\":\"t\"}",
                 RP_HOOK_PRE_TOOL,
                 "{\"context\":{\"cwd\":\"/p\",\"harness\":\"claude-code\",\"home\":\"/home/u\","
                 "\"host\":\"claude-code\",\"parent_session_id\":\"s\",\"root_session_id\":\"s\","
                 "\"tool_use_id\":\"t\",\"user\":\"os-user\"},\"data\":{\"arguments\":{"
                 "\"pattern\":\"x\"},\"name\":\"Grep\"},\"session_id\":\"s/agent/a7\",\"target\":"
                 "\"Grep\",\"type\":\"tool_call\"}");
    assert_string_equal(f->call.session_id, "s/agent/a7");
    expect_event(f,
                 "{\"session_id\":\"s\",\"agent_id\":\"a7\",\"cwd\":\"/p\",\"hook_event_name\":"
                 "\"SubagentStop\",\"stop_hook_active\":false,\"transcript_path\":null}",
                 RP_HOOK_STOP,
                 "{\"context\":{\"cwd\":\"/p\",\"harness\":\"claude-code\",\"home\":\"/home/u\","
                 "\"host\":\"claude-code\",\"parent_session_id\":\"s\",\"root_session_id\":\"s\","
                 "\"user\":\"os-user\"},\"data\":null,\"session_id\":\"s/agent/a7\",\"type\":"
                 "\"stop\"}");
    assert_null(f->call.transcript_path);
}

static void test_post_tool(void **state)
{
    fx *f = *state;
    expect_event(f,
                 "{\"session_id\":\"s\",\"cwd\":\"/p\",\"hook_event_name\":\"PostToolUse\","
                 "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"},\"tool_response\":{"
                 "\"stdout\":\"a\\n\",\"stderr\":\"\"},\"tool_use_id\":\"t3\",\"duration_ms\":4}",
                 RP_HOOK_POST_TOOL,
                 "{\"context\":{\"cwd\":\"/p\",\"harness\":\"claude-code\",\"home\":\"/home/u\","
                 "\"host\":\"claude-code\",\"tool_use_id\":\"t3\",\"user\":\"os-user\"},\"data\":"
                 "{\"is_error\":false,\"result\":\"a\\n\"},\"request_data\":{\"arguments\":{"
                 "\"command\":\"ls\"},\"name\":\"Bash\"},\"session_id\":\"s\",\"target\":\"Bash\","
                 "\"type\":\"tool_result\"}");
    assert_false(f->call.can_ask);
    /* The one shape of every host's result (tool_result.h): {result: the text, is_error}. An
     * interrupted command is an error; its two streams are one text. */
    expect_event(f,
                 "{\"session_id\":\"s\",\"cwd\":\"/p\",\"hook_event_name\":\"PostToolUse\","
                 "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"},\"tool_response\":{"
                 "\"stdout\":\"a\",\"stderr\":\"b\",\"interrupted\":true},\"tool_use_id\":\"t3\"}",
                 RP_HOOK_POST_TOOL,
                 "{\"context\":{\"cwd\":\"/p\",\"harness\":\"claude-code\",\"home\":\"/home/u\","
                 "\"host\":\"claude-code\",\"tool_use_id\":\"t3\",\"user\":\"os-user\"},\"data\":"
                 "{\"is_error\":true,\"result\":\"a\\nb\"},\"request_data\":{\"arguments\":{"
                 "\"command\":\"ls\"},\"name\":\"Bash\"},\"session_id\":\"s\",\"target\":\"Bash\","
                 "\"type\":\"tool_result\"}");
    /* A string response is the text. */
    expect_event(
        f,
        "{\"session_id\":\"s\",\"cwd\":\"/p\",\"hook_event_name\":\"PostToolUse\","
        "\"tool_name\":\"Read\",\"tool_input\":{},\"tool_response\":\"text\"}",
        RP_HOOK_POST_TOOL,
        "{" CTX_S1_K2
        ",\"data\":{\"is_error\":false,\"result\":\"text\"},\"request_data\":{\"arguments\":{},"
        "\"name\":\"Read\"},"
        "\"session_id\":\"s\",\"target\":\"Read\",\"type\":\"tool_result\"}");
    expect_event(f,
                 "{\"session_id\":\"s\",\"cwd\":\"/p\",\"hook_event_name\":\"PostToolUseFailure\","
                 "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"make\"},\"error\":"
                 "\"Exit code 2\",\"is_interrupt\":false}",
                 RP_HOOK_POST_TOOL,
                 "{" CTX_S1_K3 ",\"data\":{\"is_error\":true,\"result\":\"Exit code 2\"},"
                 "\"request_data\":{\"arguments\":{\"command\":\"make\"},\"name\":\"Bash\"},"
                 "\"session_id\":\"s\",\"target\":\"Bash\",\"type\":\"tool_result\"}");
}

static void test_prompt(void **state)
{
    fx *f = *state;
    /* SHA-256("hello") = 2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c... */
    expect_event(f,
                 "{\"session_id\":\"s\",\"cwd\":\"/p\",\"hook_event_name\":\"UserPromptSubmit\","
                 "\"prompt\":\"hello\",\"transcript_path\":\"/t.jsonl\"}",
                 RP_HOOK_PROMPT,
                 "{\"context\":{\"cwd\":\"/p\",\"harness\":\"claude-code\",\"home\":\"/home/u\","
                 "\"host\":\"claude-code\",\"tool_use_id\":"
                 "\"prompt:2cf24dba5fb0a30e26e83b2ac5b9e29e\",\"user\":\"os-user\"},\"data\":{"
                 "\"user_content\":\"hello\"},\"session_id\":\"s\",\"type\":\"request\"}");
    assert_false(f->call.can_ask);
    assert_false(f->call.can_rewrite);
    assert_string_equal(f->call.transcript_path, "/t.jsonl");
}

static void test_lifecycle_events(void **state)
{
    fx *f = *state;
    static const struct {
        const char *name;
        rp_hook_phase phase;
        const char *type;
    } cases[] = {
        {"SessionStart", RP_HOOK_SESSION_START, "session_start"},
        {"SessionEnd", RP_HOOK_SESSION_END, "session_end"},
        {"Stop", RP_HOOK_STOP, "stop"},
        {"SubagentStop", RP_HOOK_STOP, "stop"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char in[256], want[512];
        snprintf(in, sizeof in,
                 "{\"session_id\":\"s\",\"cwd\":\"/p\",\"hook_event_name\":\"%s\",\"model\":\"m\"}",
                 cases[i].name);
        snprintf(want, sizeof want,
                 "{\"context\":{\"cwd\":\"/p\",\"harness\":\"claude-code\",\"home\":\"/home/u\","
                 "\"host\":\"claude-code\",\"model\":\"m\",\"user\":\"os-user\"},\"data\":null,"
                 "\"session_id\":\"s\",\"type\":\"%s\"}",
                 cases[i].type);
        expect_event(f, in, cases[i].phase, want);
        assert_string_equal(f->call.host_event, cases[i].name);
    }
}

static void test_ignored_events(void **state)
{
    fx *f = *state;
    static const char *const names[] = {"Notification", "PreCompact", "PermissionRequest",
                                        "SubagentStart", "NoSuchEvent"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char in[256];
        snprintf(in, sizeof in, "{\"session_id\":\"s\",\"hook_event_name\":\"%s\"}", names[i]);
        assert_int_equal(parse(f, in), 0);
        assert_int_equal(f->call.phase, RP_HOOK_IGNORED);
        assert_string_equal(f->call.host_event, names[i]);
        assert_non_null(f->call.session_id);
    }
}

static void test_errors(void **state)
{
    fx *f = *state;
    expect_error(f, "[1,2]", RP_HOOK_PRE_TOOL, "the hook input must be a JSON object, not array");
    expect_error(f, "{\"session_id\":\"s\"}", RP_HOOK_PRE_TOOL, "hook_event_name is missing");
    expect_error(f, "{\"session_id\":\"s\",\"hook_event_name\":7}", RP_HOOK_PRE_TOOL,
                 "hook_event_name must be a string, not integer");
    expect_error(f,
                 "{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":"
                 "\"Bash\",\"tool_input\":\"rm -rf /\"}",
                 RP_HOOK_PRE_TOOL, "tool_input must be an object, not string");
    expect_error(f,
                 "{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":"
                 "\"Bash\"}",
                 RP_HOOK_PRE_TOOL, "tool_input must be an object, not missing");
    expect_error(f, "{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"tool_input\":{}}",
                 RP_HOOK_PRE_TOOL, "tool_name is missing");
    expect_error(f, "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{}}",
                 RP_HOOK_PRE_TOOL, "session_id is missing");
    expect_error(f, "{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"x\"}", RP_HOOK_PROMPT,
                 "session_id is missing");
    expect_error(f, "{\"session_id\":42,\"hook_event_name\":\"Stop\"}", RP_HOOK_STOP,
                 "session_id must be a string, not integer");
    expect_error(f,
                 "{\"session_id\":\"s\",\"cwd\":5,\"hook_event_name\":\"PreToolUse\","
                 "\"tool_name\":\"Bash\",\"tool_input\":{}}",
                 RP_HOOK_PRE_TOOL, "cwd must be a string, not integer");
    expect_error(f,
                 "{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":"
                 "\"Agent\",\"tool_input\":{\"subagent_type\":[]}}",
                 RP_HOOK_PRE_TOOL, "subagent_type must be a string, not array");
    expect_error(f, "{\"session_id\":\"s\",\"hook_event_name\":\"UserPromptSubmit\"}",
                 RP_HOOK_PROMPT, "prompt is missing");
    expect_error(f, "{\"session_id\":\"s\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":{}}",
                 RP_HOOK_PROMPT, "prompt must be a string, not object");
    expect_error(f,
                 "{\"session_id\":\"s\",\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"B\","
                 "\"tool_input\":{}}",
                 RP_HOOK_POST_TOOL, "tool_response is missing");
    expect_error(f,
                 "{\"session_id\":\"s\",\"hook_event_name\":\"PostToolUseFailure\",\"tool_name\":"
                 "\"B\",\"tool_input\":{}}",
                 RP_HOOK_POST_TOOL, "error is missing");
}

#define DENY_JSON(r)                                                                               \
    "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":"            \
    "\"deny\",\"permissionDecisionReason\":\"" r "\"}}\n"

static void test_answer_pre_tool(void **state)
{
    fx *f = *state;
    rp_host_settings exit2 = {.deny_exit_code = true};
    rp_host_settings overrides = {.allow_overrides = true};
    assert_int_equal(parse(f, doc_pair), 0);
    expect_answer(f, RP_DENY, "no force push", NULL, NULL, DENY_JSON("no force push"), "", 0);
    expect_answer(f, RP_DENY, "no force push", NULL, &exit2, "", "no force push\n", 2);
    expect_answer(f, RP_DENY, "", NULL, NULL, DENY_JSON("denied by rampart"), "", 0);
    /* The A.1.6 pair's output, exactly. */
    expect_answer(f, RP_ASK, "Force-push to main requires confirmation (policy git.force_push)",
                  NULL, NULL,
                  "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
                  "\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"Force-push to "
                  "main requires confirmation (policy git.force_push)\"}}\n",
                  "", 0);
    /* ALLOW says nothing, so Claude's own rules and prompts still apply. */
    expect_answer(f, RP_ALLOW, NULL, NULL, NULL, "", "", 0);
    expect_answer(f, RP_ALLOW, NULL, NULL, &exit2, "", "", 0);
    expect_answer(f, RP_ALLOW, NULL, NULL, &overrides,
                  "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
                  "\"permissionDecision\":\"allow\"}}\n",
                  "", 0);
}

static void test_answer_rewrite(void **state)
{
    fx *f = *state;
    assert_int_equal(parse(f, doc_bash), 0);
    /* updatedInput replaces the whole input: the unchanged fields are copied. It comes without
     * a permissionDecision, so Claude's own rules and prompts still decide about the rewritten
     * call (an "allow" would approve it); allow_overrides makes it the explicit allow. */
    rp_host_settings overrides = {.allow_overrides = true};
    expect_answer(f, RP_ALLOW, "deny_secrets: Secrets redacted",
                  "{\"name\":\"Bash\",\"arguments\":{\"command\":\"npm test [REDACTED]\","
                  "\"description\":\"Run test suite\",\"timeout\":120000,"
                  "\"run_in_background\":false}}",
                  NULL,
                  "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
                  "\"updatedInput\":{\"command\":\"npm test "
                  "[REDACTED]\",\"description\":\"Run test suite\",\"timeout\":120000,"
                  "\"run_in_background\":false}}}\n",
                  "", 0);
    expect_answer(f, RP_ALLOW, NULL,
                  "{\"name\":\"Bash\",\"arguments\":{\"command\":\"npm test [REDACTED]\","
                  "\"description\":\"Run test suite\",\"timeout\":120000,"
                  "\"run_in_background\":false}}",
                  &overrides,
                  "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
                  "\"permissionDecision\":\"allow\",\"updatedInput\":{\"command\":\"npm test "
                  "[REDACTED]\",\"description\":\"Run test suite\",\"timeout\":120000,"
                  "\"run_in_background\":false}}}\n",
                  "", 0);
    /* A rewrite that cannot be applied (no arguments object) must not let the call run. */
    expect_answer(f, RP_ALLOW, "Secrets redacted", "{\"name\":\"Bash\"}", NULL,
                  DENY_JSON("the tool input would have to be rewritten: Secrets redacted"), "", 0);
    expect_answer(f, RP_ALLOW, NULL, "\"x\"", NULL,
                  DENY_JSON("the tool input would have to be rewritten: a policy rewrote it"), "",
                  0);
    /* An ASK with a rewrite: the person is asked about the rewritten input, which is what runs
     * once approved; when it cannot be expressed, the call is denied. */
    expect_answer(f, RP_ASK, "markers: deploy",
                  "{\"name\":\"Bash\",\"arguments\":{\"command\":\"npm test [REDACTED]\","
                  "\"description\":\"Run test suite\",\"timeout\":120000,"
                  "\"run_in_background\":false}}",
                  NULL,
                  "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
                  "\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"markers: "
                  "deploy\",\"updatedInput\":{\"command\":\"npm test [REDACTED]\","
                  "\"description\":\"Run test suite\",\"timeout\":120000,"
                  "\"run_in_background\":false}}}\n",
                  "", 0);
    expect_answer(f, RP_ASK, "markers: deploy", "{\"name\":\"Bash\"}", NULL,
                  DENY_JSON("the tool input would have to be rewritten: markers: deploy"), "", 0);
    /* The dispatch shape: the host's input is under arguments.args; purpose is rampart's. */
    assert_int_equal(parse(f, "{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\","
                              "\"tool_name\":\"Agent\",\"tool_input\":{\"prompt\":\"key AKIA\","
                              "\"subagent_type\":\"Plan\"}}"),
                     0);
    expect_answer(f, RP_ALLOW, NULL,
                  "{\"name\":\"sys_session_send\",\"arguments\":{\"host_tool\":\"Agent\",\"args\":"
                  "{\"purpose\":\"review\",\"subagent_type\":\"Plan\",\"prompt\":\"key [R]\"}}}",
                  NULL,
                  "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
                  "\"updatedInput\":{\"prompt\":\"key [R]\","
                  "\"subagent_type\":\"Plan\"}}}\n",
                  "", 0);
}

static void test_answer_prompt(void **state)
{
    fx *f = *state;
    rp_host_settings exit2 = {.deny_exit_code = true};
    assert_int_equal(
        parse(f,
              "{\"session_id\":\"s\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"p\"}"),
        0);
    expect_answer(f, RP_DENY, "no", NULL, &exit2, "{\"decision\":\"block\",\"reason\":\"no\"}\n",
                  "", 0);
    expect_answer(f, RP_ASK, "budget checkpoint. To approve, ...", NULL, NULL,
                  "{\"decision\":\"block\",\"reason\":\"budget checkpoint. To approve, ...\"}\n",
                  "", 0);
    expect_answer(f, RP_ALLOW, NULL, NULL, NULL, "", "", 0);
    expect_answer(f, RP_ALLOW, NULL, "{\"user_content\":\"[REDACTED]\"}", NULL,
                  "{\"decision\":\"block\",\"reason\":\"the prompt would have to be redacted: a "
                  "policy rewrote it\"}\n",
                  "", 0);
    expect_answer(f, RP_ALLOW, "Secrets: aws key", "{\"user_content\":\"[REDACTED]\"}", NULL,
                  "{\"decision\":\"block\",\"reason\":\"the prompt would have to be redacted: "
                  "Secrets: aws key\"}\n",
                  "", 0);
}

static void test_answer_post_tool(void **state)
{
    fx *f = *state;
    assert_int_equal(parse(f, "{\"session_id\":\"s\",\"hook_event_name\":\"PostToolUse\","
                              "\"tool_name\":\"Bash\",\"tool_input\":{},\"tool_response\":{"
                              "\"stdout\":\"k\"}}"),
                     0);
    expect_answer(f, RP_DENY, "loop", NULL, NULL, "{\"decision\":\"block\",\"reason\":\"loop\"}\n",
                  "", 0);
    expect_answer(f, RP_ASK, "thrashing", NULL, NULL,
                  "{\"decision\":\"block\",\"reason\":\"thrashing\"}\n", "", 0);
    expect_answer(f, RP_ALLOW, NULL, NULL, NULL, "", "", 0);
    /* A rewrite of the normalised result goes back into the tool's own output shape. */
    expect_answer(f, RP_ALLOW, NULL, "{\"result\":\"[REDACTED]\",\"is_error\":false}", NULL,
                  "{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\","
                  "\"updatedToolOutput\":{\"stdout\":\"[REDACTED]\"}}}\n",
                  "", 0);
    assert_int_equal(parse(f, "{\"session_id\":\"s\",\"hook_event_name\":\"PostToolUse\","
                              "\"tool_name\":\"Bash\",\"tool_input\":{},\"tool_response\":{"
                              "\"stdout\":\"k\",\"stderr\":\"e\",\"interrupted\":false}}"),
                     0);
    expect_answer(f, RP_ALLOW, NULL, "{\"result\":\"k\\n[REDACTED]\",\"is_error\":false}", NULL,
                  "{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\","
                  "\"updatedToolOutput\":{\"stdout\":\"k\\n[REDACTED]\",\"stderr\":\"\","
                  "\"interrupted\":false}}}\n",
                  "", 0);
    /* A result that is no longer text has no place in the tool's shape: blocked. */
    expect_answer(f, RP_ALLOW, NULL, "{\"result\":{\"x\":1}}", NULL,
                  "{\"decision\":\"block\",\"reason\":\"the tool output would have to be "
                  "redacted: a policy rewrote it\"}\n",
                  "", 0);
    assert_int_equal(parse(f, "{\"session_id\":\"s\",\"hook_event_name\":\"PostToolUseFailure\","
                              "\"tool_name\":\"Bash\",\"tool_input\":{},\"error\":\"e\"}"),
                     0);
    expect_answer(f, RP_ALLOW, NULL, "{\"result\":\"[REDACTED]\",\"is_error\":true}", NULL,
                  "{\"decision\":\"block\",\"reason\":\"the tool output would have to be "
                  "redacted: a policy rewrote it\"}\n",
                  "", 0);
}

static void test_answer_never_blocks_stop(void **state)
{
    fx *f = *state;
    static const char *const events[] = {"Stop", "SubagentStop", "SessionStart", "SessionEnd"};
    rp_host_settings exit2 = {.deny_exit_code = true, .allow_overrides = true};
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) {
        char in[128];
        snprintf(in, sizeof in, "{\"session_id\":\"s\",\"hook_event_name\":\"%s\"}", events[i]);
        assert_int_equal(parse(f, in), 0);
        expect_answer(f, RP_DENY, "budget", NULL, &exit2, "", "", 0);
        expect_answer(f, RP_ASK, "budget", NULL, NULL, "", "", 0);
        expect_answer(f, RP_ALLOW, NULL, NULL, NULL, "", "", 0);
    }
}

/* The hook answers errors with the call as far as parse got (no tool input, no event). */
static void test_answer_after_failed_parse(void **state)
{
    fx *f = *state;
    assert_int_equal(parse(f, "\"garbage\""), -1);
    rp_hook_verdict v = {.result = RP_DENY, .reason = "rampart: bad input", .internal_error = true};
    rp_hook_answer ans = {0};
    host()->answer(&f->call, &v, NULL, &f->a, &ans);
    assert_string_equal(ans.out.data, DENY_JSON("rampart: bad input"));
    assert_int_equal(ans.exit_code, 0);
    rp_buf_free(&ans.out);
    rp_buf_free(&ans.err);
    rp_hook_call bare = {.phase = RP_HOOK_PRE_TOOL};
    f->call = bare;
    expect_answer(f, RP_ALLOW, NULL, "{\"arguments\":{}}", NULL,
                  DENY_JSON("the tool input would have to be rewritten: a policy rewrote it"), "",
                  0);
}

/* A NUL inside a string would cut what the policies read short of what the host acts on:
 * refused on the phases that protect, wherever it is, and accepted on the others. */
static void test_nul_characters(void **state)
{
    fx *f = *state;
    expect_error(f,
                 "{\"session_id\":\"s\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":"
                 "\"hello\\u0000DENYME\"}",
                 RP_HOOK_PROMPT, "prompt holds a NUL character, which rampart cannot judge past");
    expect_error(f,
                 "{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
                 "\"tool_input\":{\"command\":\"echo hi\\u0000; rm -rf /\"},\"tool_use_id\":\"t\"}",
                 RP_HOOK_PRE_TOOL,
                 "tool_input.command holds a NUL character, which rampart cannot judge past");
    expect_error(f,
                 "{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":"
                 "\"MultiEdit\",\"tool_input\":{\"file_path\":\"/a\",\"edits\":[{\"old_string\":"
                 "\"a\"},{\"old_string\":\"b\",\"new_string\":\"x\\u0000y\"}]}}",
                 RP_HOOK_PRE_TOOL,
                 "tool_input.edits[1].new_string holds a NUL character, which rampart cannot "
                 "judge past");
    expect_error(f,
                 "{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":"
                 "\"Bash\",\"tool_input\":{\"com\\u0000mand\":\"ls\"}}",
                 RP_HOOK_PRE_TOOL,
                 "tool_input.com holds a NUL character, which rampart cannot judge past");
    expect_error(f,
                 "{\"session_id\":\"s\",\"cwd\":\"/p\\u0000/q\",\"hook_event_name\":\"PreToolUse\","
                 "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}",
                 RP_HOOK_PRE_TOOL, "cwd holds a NUL character, which rampart cannot judge past");
    /* A binary file's output may well hold one; a result is judged, not refused. */
    assert_int_equal(parse(f, "{\"session_id\":\"s\",\"hook_event_name\":\"PostToolUse\","
                              "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"cat b\"},"
                              "\"tool_response\":{\"stdout\":\"\\u0000\\u0001\"},"
                              "\"tool_use_id\":\"t\"}"),
                     0);
    assert_int_equal(f->call.phase, RP_HOOK_POST_TOOL);
    assert_int_equal(parse(f, "{\"session_id\":\"s\",\"hook_event_name\":\"Stop\","
                              "\"last_assistant_message\":\"a\\u0000b\"}"),
                     0);
    assert_int_equal(f->call.phase, RP_HOOK_STOP);
}

/* A tool event without tool_use_id gets the call key, the same for its pre- and post-event
 * (sha256 of {"input":{"command":"ls"},"tool":"Bash"}, computed independently). */
static void test_missing_tool_use_id(void **state)
{
    fx *f = *state;
    static const char *const want = "h:78932af53c2f206888f04ea464514a5a";
    assert_int_equal(parse(f, "{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\","
                              "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}"),
                     0);
    assert_string_equal(rp_json_get_str(rp_json_get(&f->call.event, "context"), "tool_use_id"),
                        want);
    assert_int_equal(parse(f, "{\"session_id\":\"s\",\"hook_event_name\":\"PostToolUse\","
                              "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"},"
                              "\"tool_response\":{\"stdout\":\"a\"}}"),
                     0);
    assert_string_equal(rp_json_get_str(rp_json_get(&f->call.event, "context"), "tool_use_id"),
                        want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_pre_tool_documented, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pre_tool_config_user_and_process_cwd, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pre_tool_dispatch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_subagent_session, setup, teardown),
        cmocka_unit_test_setup_teardown(test_post_tool, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prompt, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lifecycle_events, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ignored_events, setup, teardown),
        cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nul_characters, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_tool_use_id, setup, teardown),
        cmocka_unit_test_setup_teardown(test_answer_pre_tool, setup, teardown),
        cmocka_unit_test_setup_teardown(test_answer_rewrite, setup, teardown),
        cmocka_unit_test_setup_teardown(test_answer_prompt, setup, teardown),
        cmocka_unit_test_setup_teardown(test_answer_post_tool, setup, teardown),
        cmocka_unit_test_setup_teardown(test_answer_never_blocks_stop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_answer_after_failed_parse, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
