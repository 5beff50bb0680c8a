/* test_hosts_gemini.c — the Gemini CLI adapter (src/hosts/gemini.c) called directly: the exact
 * PolicyEvent of every event kind, the AfterModel usage rule (no usage on a streamed chunk,
 * usage once on the final chunk, cached tokens taken out of the prompt count), the exact answer
 * bytes for ALLOW, ASK, DENY and rewrites per phase, and bad input. */
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
static const rp_hook_adapter *H;
static const rp_hook_env ENV = {
    .os_user = "alice", .home = "/home/alice", .process_cwd = "/proc-cwd"};

static int setup(void **state)
{
    (void)state;
    rp_arena_init(&A, 1 << 14);
    H = rp_hook_host_find("gemini");
    return H ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    rp_arena_free(&A);
    return 0;
}

/* Parses text with the adapter; asserts the return code. */
static rp_hook_call parse_text(const char *text, int want_rc, char *err, size_t err_size)
{
    rp_json_error jerr;
    rp_json *payload = rp_json_parse(&A, text, strlen(text), &jerr);
    assert_non_null(payload);
    rp_hook_call call;
    err[0] = '\0';
    int rc = H->parse(payload, &ENV, &A, &call, err, err_size);
    if (rc != want_rc)
        fail_msg("parse returned %d (%s), want %d", rc, err, want_rc);
    return call;
}

static rp_hook_call parse_ok(const char *text)
{
    char err[256];
    return parse_text(text, 0, err, sizeof err);
}

static void assert_json(const rp_json *v, const char *want)
{
    rp_buf b = {0};
    rp_json_write_sorted(&b, v);
    assert_string_equal(b.data, want);
    rp_buf_free(&b);
}

static void assert_event(const char *text, rp_hook_phase phase, const char *want)
{
    rp_hook_call call = parse_ok(text);
    assert_int_equal(call.phase, phase);
    assert_json(&call.event, want);
}

/* The answer for a verdict on the call parsed from text. */
typedef struct answer_want {
    const char *out, *err;
    int exit_code;
} answer_want;

static void assert_answer(const char *text, rp_verdict result, const char *reason,
                          const char *data_json, const rp_host_settings *s, answer_want want)
{
    rp_hook_call call = parse_ok(text);
    rp_hook_verdict v = {.result = result, .reason = reason};
    if (data_json) {
        rp_json_error jerr;
        v.data = rp_json_parse(&A, data_json, strlen(data_json), &jerr);
        assert_non_null(v.data);
    }
    rp_hook_answer ans = {0};
    H->answer(&call, &v, s, &A, &ans);
    assert_string_equal(ans.out.data ? ans.out.data : "", want.out);
    assert_string_equal(ans.err.data ? ans.err.data : "", want.err ? want.err : "");
    assert_int_equal(ans.exit_code, want.exit_code);
    rp_buf_free(&ans.out);
    rp_buf_free(&ans.err);
}

#define BASE_NO_TS "\"session_id\":\"g1\",\"cwd\":\"/w\","
#define BASE       BASE_NO_TS "\"timestamp\":\"2026-12-01T10:00:00Z\","
#define CTX                                                                                        \
    "\"context\":{\"cwd\":\"/w\",\"harness\":\"gemini\",\"home\":\"/home/alice\","                 \
    "\"host\":\"gemini\","
#define SHELL_LS                                                                                   \
    "{" BASE "\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"run_shell_command\","             \
    "\"tool_input\":{\"command\":\"ls\",\"dir_path\":\"/w\"}}"
/* rp_hook_call_key("run_shell_command", {command: ls, dir_path: /w}) */
#define SHELL_LS_KEY "h:30904925fef3906a4b1e69f987ee7c45"

static void test_before_tool_event(void **state)
{
    (void)state;
    rp_hook_call call = parse_ok(SHELL_LS);
    assert_int_equal(call.phase, RP_HOOK_PRE_TOOL);
    assert_string_equal(call.host_event, "BeforeTool");
    assert_string_equal(call.session_id, "g1");
    assert_string_equal(call.tool_name, "run_shell_command");
    assert_non_null(call.tool_input);
    assert_false(call.can_ask);
    assert_true(call.can_rewrite);
    assert_null(call.usage);
    const char *key = rp_json_get_str(rp_json_get(&call.event, "context"), "tool_use_id");
    assert_string_equal(key, SHELL_LS_KEY);
    assert_json(&call.event, "{" CTX "\"tool_use_id\":\"" SHELL_LS_KEY "\",\"user\":\"alice\"},"
                             "\"data\":{\"arguments\":{\"command\":\"ls\",\"dir_path\":\"/w\"},"
                             "\"name\":\"run_shell_command\"},\"session_id\":\"g1\","
                             "\"target\":\"run_shell_command\",\"type\":\"tool_call\"}");
}

static void test_after_tool_events(void **state)
{
    (void)state;
    /* The same call: the same key as its BeforeTool. */
    assert_event("{" BASE "\"hook_event_name\":\"AfterTool\",\"tool_name\":\"run_shell_command\","
                 "\"tool_input\":{\"command\":\"ls\",\"dir_path\":\"/w\"},"
                 "\"tool_response\":{\"llmContent\":\"a\\nb\\n\",\"returnDisplay\":\"a b\"}}",
                 RP_HOOK_POST_TOOL,
                 "{" CTX "\"tool_use_id\":\"" SHELL_LS_KEY "\",\"user\":\"alice\"},"
                 "\"data\":{\"is_error\":false,\"result\":\"a\\nb\\n\"},\"request_data\":{"
                 "\"arguments\":{\"command\":\"ls\","
                 "\"dir_path\":\"/w\"},\"name\":\"run_shell_command\"},\"session_id\":\"g1\","
                 "\"target\":\"run_shell_command\",\"type\":\"tool_result\"}");
    /* No llmContent: the whole tool_response. */
    rp_hook_call c = parse_ok("{" BASE "\"hook_event_name\":\"AfterTool\",\"tool_name\":\"glob\","
                              "\"tool_input\":{\"pattern\":\"*.c\"},"
                              "\"tool_response\":{\"returnDisplay\":\"2 files\"}}");
    assert_json(rp_json_get(&c.event, "data"),
                "{\"is_error\":false,\"result\":{\"returnDisplay\":\"2 files\"}}");
    /* A failed command: the shell's "Exit Code: N" line after the output (the recorded shape:
     * Gemini sets no error for it). A line in the output before it does not count. */
    c = parse_ok("{" BASE "\"hook_event_name\":\"AfterTool\",\"tool_name\":\"run_shell_command\","
                 "\"tool_input\":{\"command\":\"ls /nonexistent-1\"},\"tool_response\":{"
                 "\"llmContent\":\"<untrusted_context>\\nOutput: ls: cannot access "
                 "'/nonexistent-1': No such file or directory\\nExit Code: 2\\nProcess Group "
                 "PGID: 4242\\n</untrusted_context>\",\"returnDisplay\":\"ls: cannot access\"}}");
    assert_json(rp_json_get(&c.event, "data"),
                "{\"is_error\":true,\"result\":\"<untrusted_context>\\nOutput: ls: cannot "
                "access '/nonexistent-1': No such file or directory\\nExit Code: 2\\nProcess "
                "Group PGID: 4242\\n</untrusted_context>\"}");
    c = parse_ok(
        "{" BASE "\"hook_event_name\":\"AfterTool\",\"tool_name\":\"run_shell_command\","
        "\"tool_input\":{\"command\":\"cat log\"},\"tool_response\":{"
        "\"llmContent\":\"Output: Exit Code: 3\\nExit Code: 0\\nProcess Group PGID: 1\"}}");
    assert_json(rp_json_get(&c.event, "data"),
                "{\"is_error\":false,\"result\":\"Output: Exit Code: 3\\nExit Code: 0\\nProcess "
                "Group PGID: 1\"}");
    /* A command killed by a signal has no exit code: no success either (the heuristics judge). */
    c = parse_ok("{" BASE "\"hook_event_name\":\"AfterTool\",\"tool_name\":\"run_shell_command\","
                 "\"tool_input\":{\"command\":\"sleep 9\"},\"tool_response\":{\"llmContent\":"
                 "\"Output: (empty)\\nExit Code: (none)\\nSignal: 9\"}}");
    assert_json(rp_json_get(&c.event, "data"),
                "{\"result\":\"Output: (empty)\\nExit Code: (none)\\nSignal: 9\"}");
    /* Another tool's text is not read for an exit code. */
    c = parse_ok("{" BASE "\"hook_event_name\":\"AfterTool\",\"tool_name\":\"read_file\","
                 "\"tool_input\":{\"path\":\"x\"},\"tool_response\":{\"llmContent\":"
                 "\"Exit Code: 1\"}}");
    assert_json(rp_json_get(&c.event, "data"), "{\"is_error\":false,\"result\":\"Exit Code: 1\"}");
    /* An error, as a string or an object with a message. */
    c = parse_ok("{" BASE "\"hook_event_name\":\"AfterTool\",\"tool_name\":\"read_file\","
                 "\"tool_input\":{\"path\":\"x\"},\"tool_response\":{\"llmContent\":\"\","
                 "\"error\":{\"message\":\"File not found: x\",\"type\":\"enoent\"}}}");
    assert_json(rp_json_get(&c.event, "data"),
                "{\"is_error\":true,\"result\":\"File not found: x\"}");
    c = parse_ok("{" BASE "\"hook_event_name\":\"AfterTool\",\"tool_name\":\"read_file\","
                 "\"tool_input\":{\"path\":\"x\"},\"tool_response\":{\"llmContent\":\"partial\","
                 "\"error\":\"denied\"}}");
    assert_json(rp_json_get(&c.event, "data"),
                "{\"is_error\":true,\"result\":\"partial\\ndenied\"}");
    /* error null or "": not an error. */
    c = parse_ok("{" BASE "\"hook_event_name\":\"AfterTool\",\"tool_name\":\"read_file\","
                 "\"tool_input\":{\"path\":\"x\"},\"tool_response\":{\"llmContent\":\"ok\","
                 "\"error\":null}}");
    assert_json(rp_json_get(&c.event, "data"), "{\"is_error\":false,\"result\":\"ok\"}");
    assert_false(c.can_rewrite);
}

/* An MCP tool (the recorded shape: mcp_<server>_<tool> with mcp_context) is named as the
 * policies know MCP tools, mcp__<server>__<tool>; the call keeps Gemini's name. */
static void test_mcp_tools(void **state)
{
    (void)state;
    const char *pre = "{" BASE "\"hook_event_name\":\"BeforeTool\",\"tool_name\":"
                      "\"mcp_github_create_pull_request\",\"tool_input\":{\"owner\":\"evil-org\","
                      "\"repo\":\"x\"},\"mcp_context\":{\"server_name\":\"github\",\"tool_name\":"
                      "\"create_pull_request\",\"command\":\"node\",\"args\":[\"/m.mjs\"]}}";
    rp_hook_call call = parse_ok(pre);
    assert_string_equal(call.tool_name, "mcp_github_create_pull_request");
    assert_json(rp_json_get(&call.event, "data"),
                "{\"arguments\":{\"owner\":\"evil-org\",\"repo\":\"x\"},\"name\":"
                "\"mcp__github__create_pull_request\"}");
    assert_json(rp_json_get(&call.event, "target"), "\"mcp__github__create_pull_request\"");
    const char *key = rp_json_get_str(rp_json_get(&call.event, "context"), "tool_use_id");
    call = parse_ok("{" BASE "\"hook_event_name\":\"AfterTool\",\"tool_name\":"
                    "\"mcp_github_create_pull_request\",\"tool_input\":{\"owner\":\"evil-org\","
                    "\"repo\":\"x\"},\"tool_response\":{\"llmContent\":\"ok\"},\"mcp_context\":{"
                    "\"server_name\":\"github\",\"tool_name\":\"create_pull_request\"}}");
    assert_json(rp_json_get(rp_json_get(&call.event, "request_data"), "name"),
                "\"mcp__github__create_pull_request\"");
    assert_string_equal(rp_json_get_str(rp_json_get(&call.event, "context"), "tool_use_id"), key);
    /* Without mcp_context the name is Gemini's own. */
    call = parse_ok("{" BASE "\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"mcp_x_y\","
                    "\"tool_input\":{}}");
    assert_json(rp_json_get(rp_json_get(&call.event, "data"), "name"), "\"mcp_x_y\"");
    /* A malformed mcp_context is refused (a deny on the pre-tool phase). */
    char err[256];
    parse_text("{" BASE "\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"mcp_x_y\","
               "\"tool_input\":{},\"mcp_context\":{\"server_name\":\"x\"}}",
               -1, err, sizeof err);
    assert_string_equal(err, "mcp_context must name server_name and tool_name");
    parse_text("{" BASE "\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"mcp_x_y\","
               "\"tool_input\":{},\"mcp_context\":\"x\"}",
               -1, err, sizeof err);
    assert_string_equal(err, "mcp_context must be an object, not string");
}

static void test_prompt_and_lifecycle_events(void **state)
{
    (void)state;
    assert_event("{" BASE "\"hook_event_name\":\"BeforeAgent\",\"prompt\":\"hi there\"}",
                 RP_HOOK_PROMPT,
                 "{" CTX "\"tool_use_id\":\"prompt:9b96a1fe1d548cbbc960cc6a0286668f\","
                 "\"user\":\"alice\"},\"data\":{\"user_content\":\"hi there\"},"
                 "\"session_id\":\"g1\",\"type\":\"request\"}");
    const char *names[][2] = {
        {"SessionStart", "session_start"}, {"SessionEnd", "session_end"}, {"AfterAgent", "stop"}};
    const rp_hook_phase phases[] = {RP_HOOK_SESSION_START, RP_HOOK_SESSION_END, RP_HOOK_STOP};
    for (size_t i = 0; i < 3; i++) {
        char text[256], want[512];
        snprintf(text, sizeof text, "{" BASE "\"hook_event_name\":\"%s\"}", names[i][0]);
        snprintf(want, sizeof want,
                 "{" CTX "\"user\":\"alice\"},\"data\":null,\"session_id\":\"g1\","
                 "\"type\":\"%s\"}",
                 names[i][1]);
        assert_event(text, phases[i], want);
    }
    /* No cwd in the payload: the hook's own. */
    assert_event("{\"session_id\":\"g1\",\"hook_event_name\":\"SessionStart\"}",
                 RP_HOOK_SESSION_START,
                 "{\"context\":{\"cwd\":\"/proc-cwd\",\"harness\":\"gemini\","
                 "\"home\":\"/home/alice\",\"host\":\"gemini\",\"user\":\"alice\"},"
                 "\"data\":null,\"session_id\":\"g1\",\"type\":\"session_start\"}");
    /* Ignored events, even without a session. */
    const char *ignored[] = {"Notification", "PreCompress", "BeforeToolSelection", "Future"};
    for (size_t i = 0; i < 4; i++) {
        char text[128];
        snprintf(text, sizeof text, "{\"hook_event_name\":\"%s\"}", ignored[i]);
        rp_hook_call c = parse_ok(text);
        assert_int_equal(c.phase, RP_HOOK_IGNORED);
        assert_string_equal(c.host_event, ignored[i]);
        assert_string_equal(c.session_id, "");
    }
}

#define LLM_REQ                                                                                    \
    "\"llm_request\":{\"model\":\"gemini-2.5-pro\",\"messages\":[{\"role\":\"system\","            \
    "\"content\":\"Be brief\"},{\"role\":\"user\",\"content\":\"one\"},{\"role\":\"model\","       \
    "\"content\":\"ok\"},{\"role\":\"user\",\"content\":[{\"text\":\"two\"},{\"text\":\"three\"}]" \
    "}]}"

static void test_before_model_event(void **state)
{
    (void)state;
    rp_hook_call c = parse_ok("{" BASE "\"hook_event_name\":\"BeforeModel\"," LLM_REQ "}");
    assert_int_equal(c.phase, RP_HOOK_LLM_REQUEST);
    assert_true(c.can_rewrite);
    assert_json(&c.event, "{" CTX "\"model\":\"gemini-2.5-pro\",\"user\":\"alice\"},"
                          "\"data\":{\"last_user_message\":\"two\\nthree\",\"messages\":["
                          "{\"content\":\"Be brief\",\"role\":\"system\"},{\"content\":\"one\","
                          "\"role\":\"user\"},{\"content\":\"ok\",\"role\":\"model\"},{\"content\":"
                          "[{\"text\":\"two\"},{\"text\":\"three\"}],\"role\":\"user\"}],"
                          "\"messages_count\":4,\"model\":\"gemini-2.5-pro\","
                          "\"system_prompt_preview\":\"Be brief\"},\"session_id\":\"g1\","
                          "\"type\":\"llm_request\"}");
}

#define FINAL_CHUNK                                                                                \
    "{" BASE "\"hook_event_name\":\"AfterModel\",\"llm_request\":{\"model\":\"gemini-2.5-pro\","   \
    "\"messages\":[]},\"llm_response\":{\"candidates\":[{\"content\":{\"parts\":[\"x\"]}},"        \
    "{\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":1200,"                   \
    "\"candidatesTokenCount\":80,\"cachedContentTokenCount\":1000,\"thoughtsTokenCount\":5,"       \
    "\"totalTokenCount\":1285}}}"
/* rp_hook_call_key("llm_response", {request, timestamp, usage} of FINAL_CHUNK) */
#define FINAL_ID "g1:h:33844c94c652281bd39ee70abad7ce39"

static void test_after_model_usage(void **state)
{
    (void)state;
    /* A streamed chunk: usageMetadata, but no finishReason yet — ignored: no usage, no event
     * to evaluate or audit (issue 15: one answer was 61 evaluations and audit rows). */
    rp_hook_call c = parse_ok(
        "{" BASE "\"hook_event_name\":\"AfterModel\",\"llm_request\":{\"model\":\"gemini-2.5-pro\","
        "\"messages\":[]},\"llm_response\":{\"candidates\":[{\"content\":{\"parts\":[\"x\"]},"
        "\"finishReason\":null}],\"usageMetadata\":{\"promptTokenCount\":1200}}}");
    assert_int_equal(c.phase, RP_HOOK_IGNORED);
    assert_null(c.usage);
    /* A finishReason but no usageMetadata: no usage either. */
    c = parse_ok("{" BASE "\"hook_event_name\":\"AfterModel\",\"llm_response\":{\"model\":\"m\","
                 "\"candidates\":[{\"finishReason\":\"STOP\"}]}}");
    assert_null(c.usage);
    assert_json(rp_json_get(&c.event, "data"), "{\"model\":\"m\"}");

    /* The final chunk: usage once, cached tokens out of the prompt count, thinking tokens in
     * the output; the id names the session and the request. */
    c = parse_ok(FINAL_CHUNK);
    assert_non_null(c.usage);
    const char *want = "{\"id\":\"" FINAL_ID "\",\"model\":\"gemini-2.5-pro\",\"usage\":{"
                       "\"cache_read_input_tokens\":1000,\"input_tokens\":200,"
                       "\"output_tokens\":85}}";
    assert_json(c.usage, want);
    assert_json(rp_json_get(&c.event, "data"), want);
    /* The same final chunk again: the same id, so the ledger counts it once. */
    rp_hook_call again = parse_ok(FINAL_CHUNK);
    assert_string_equal(rp_json_get_str(again.usage, "id"), FINAL_ID);

    /* Without the request: still an id, from the time and the counts. */
    c = parse_ok("{" BASE "\"hook_event_name\":\"AfterModel\",\"llm_response\":{\"candidates\":"
                 "[{\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":10,"
                 "\"candidatesTokenCount\":2}}}");
    assert_json(rp_json_get(c.usage, "usage"), "{\"cache_read_input_tokens\":0,"
                                               "\"input_tokens\":10,\"output_tokens\":2}");
    assert_true(strncmp(rp_json_get_str(c.usage, "id"), "g1:h:", 5) == 0);
}

/* Gemini CLI 0.61's final chunk, as recorded: only prompt, candidates and total counts, and the
 * same text-only llm_request at every step of a tool loop (issue 15: six responses became one
 * ledger row, and the thinking tokens were lost). */
#define LOOP_CHUNK(ts)                                                                             \
    "{" BASE_NO_TS "\"timestamp\":\"" ts "\",\"hook_event_name\":\"AfterModel\",\"llm_request\":"  \
    "{\"model\":\"gemini-2.5-flash\",\"messages\":[{\"role\":\"user\",\"content\":\"go\"}]},"      \
    "\"llm_response\":{\"text\":\"\",\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[" \
    "]},"                                                                                          \
    "\"finishReason\":\"STOP\",\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":1000,"        \
    "\"candidatesTokenCount\":50,\"totalTokenCount\":1070}}}"

static void test_after_model_tool_loop(void **state)
{
    (void)state;
    rp_hook_call first = parse_ok(LOOP_CHUNK("2026-12-03T08:57:45.784Z"));
    rp_hook_call second = parse_ok(LOOP_CHUNK("2026-12-03T08:57:46.733Z"));
    /* Thinking tokens: the total beyond prompt and candidates, billed as output. */
    assert_json(rp_json_get(first.usage, "usage"), "{\"cache_read_input_tokens\":0,"
                                                   "\"input_tokens\":1000,\"output_tokens\":70}");
    /* Two responses of one loop: two ids. The same chunk twice: one. */
    assert_string_not_equal(rp_json_get_str(first.usage, "id"),
                            rp_json_get_str(second.usage, "id"));
    rp_hook_call again = parse_ok(LOOP_CHUNK("2026-12-03T08:57:45.784Z"));
    assert_string_equal(rp_json_get_str(first.usage, "id"), rp_json_get_str(again.usage, "id"));
    /* thoughtsTokenCount, when given, wins over the difference. */
    rp_hook_call given =
        parse_ok("{" BASE "\"hook_event_name\":\"AfterModel\",\"llm_response\":{\"candidates\":[{"
                 "\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":10,"
                 "\"candidatesTokenCount\":2,\"thoughtsTokenCount\":3,\"totalTokenCount\":99}}}");
    assert_int_equal(rp_json_get(rp_json_get(given.usage, "usage"), "output_tokens")->v.i, 5);
}

/* ---- answers ---- */

#define WRITE_ENV                                                                                  \
    "{" BASE "\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"write_file\","                    \
    "\"tool_input\":{\"file_path\":\"/w/.env\",\"content\":\"KEY=AKIA\"}}"

static void test_answers_before_tool(void **state)
{
    (void)state;
    rp_host_settings overrides = {.allow_overrides = true};
    rp_host_settings exit2 = {.deny_exit_code = true};
    assert_answer(SHELL_LS, RP_ALLOW, NULL, NULL, NULL, (answer_want){"{}\n", NULL, 0});
    assert_answer(SHELL_LS, RP_ALLOW, NULL, NULL, &overrides,
                  (answer_want){"{\"decision\":\"allow\"}\n", NULL, 0});
    assert_answer(SHELL_LS, RP_DENY, "no ls", NULL, NULL,
                  (answer_want){"{\"decision\":\"deny\",\"reason\":\"no ls\"}\n", NULL, 0});
    assert_answer(SHELL_LS, RP_DENY, "no ls", NULL, &exit2, (answer_want){"", "no ls\n", 2});
    /* ASK: Gemini hooks cannot ask (and deny_exit_code is for DENY only). */
    const answer_want ask = {"{\"decision\":\"deny\",\"reason\":\"rampart asks for approval, "
                             "which Gemini CLI hooks cannot do: check ls\"}\n",
                             NULL, 0};
    assert_answer(SHELL_LS, RP_ASK, "check ls", NULL, NULL, ask);
    assert_answer(SHELL_LS, RP_ASK, "check ls", NULL, &exit2, ask);
    /* A rewrite: the new arguments, which Gemini merges over the model's whatever the
     * decision, so there is none: Gemini's own policy still decides (an explicit allow only
     * with allow_overrides). */
    assert_answer(WRITE_ENV, RP_ALLOW, "Secrets redacted",
                  "{\"name\":\"write_file\",\"arguments\":{\"file_path\":\"/w/.env\","
                  "\"content\":\"KEY=[REDACTED]\"}}",
                  NULL,
                  (answer_want){"{\"hookSpecificOutput\":{"
                                "\"hookEventName\":\"BeforeTool\",\"tool_input\":{"
                                "\"file_path\":\"/w/.env\",\"content\":\"KEY=[REDACTED]\"}}}\n",
                                NULL, 0});
    assert_answer(WRITE_ENV, RP_ALLOW, "Secrets redacted",
                  "{\"name\":\"write_file\",\"arguments\":{\"file_path\":\"/w/.env\","
                  "\"content\":\"KEY=[REDACTED]\"}}",
                  &overrides,
                  (answer_want){"{\"decision\":\"allow\",\"hookSpecificOutput\":{"
                                "\"hookEventName\":\"BeforeTool\",\"tool_input\":{"
                                "\"file_path\":\"/w/.env\",\"content\":\"KEY=[REDACTED]\"}}}\n",
                                NULL, 0});
    /* A rewrite without an arguments object cannot be applied: deny. */
    assert_answer(WRITE_ENV, RP_ALLOW, NULL, "\"text\"", NULL,
                  (answer_want){"{\"decision\":\"deny\",\"reason\":\"the tool input would have "
                                "to be rewritten, which rampart cannot do here: a policy "
                                "rewrote it\"}\n",
                                NULL, 0});
}

#define AFTER_TOOL                                                                                 \
    "{" BASE "\"hook_event_name\":\"AfterTool\",\"tool_name\":\"read_file\","                      \
    "\"tool_input\":{\"path\":\"x\"},\"tool_response\":{\"llmContent\":\"secret\"}}"
#define PROMPT "{" BASE "\"hook_event_name\":\"BeforeAgent\",\"prompt\":\"hi\"}"

static void test_answers_after_tool_and_prompt(void **state)
{
    (void)state;
    rp_host_settings exit2 = {.deny_exit_code = true};
    const char *texts[] = {AFTER_TOOL, PROMPT};
    const char *what[] = {"the tool output", "the prompt"};
    for (size_t i = 0; i < 2; i++) {
        assert_answer(texts[i], RP_ALLOW, NULL, NULL, NULL, (answer_want){"{}\n", NULL, 0});
        assert_answer(texts[i], RP_DENY, "bad", NULL, &exit2,
                      (answer_want){"{\"decision\":\"deny\",\"reason\":\"bad\"}\n", NULL, 0});
        assert_answer(texts[i], RP_ASK, "sure?", NULL, NULL,
                      (answer_want){"{\"decision\":\"deny\",\"reason\":\"sure?\"}\n", NULL, 0});
        char want[256];
        snprintf(want, sizeof want,
                 "{\"decision\":\"deny\",\"reason\":\"%s would have to be rewritten, which "
                 "rampart cannot do here: Secrets redacted\"}\n",
                 what[i]);
        assert_answer(texts[i], RP_ALLOW, "Secrets redacted", "{\"user_content\":\"[R]\"}", NULL,
                      (answer_want){want, NULL, 0});
    }
}

#define BEFORE_MODEL "{" BASE "\"hook_event_name\":\"BeforeModel\"," LLM_REQ "}"

static void test_answers_before_model(void **state)
{
    (void)state;
    assert_answer(BEFORE_MODEL, RP_ALLOW, NULL, NULL, NULL, (answer_want){"{}\n", NULL, 0});
    assert_answer(BEFORE_MODEL, RP_DENY, "PII", NULL, NULL,
                  (answer_want){"{\"decision\":\"deny\",\"reason\":\"PII\"}\n", NULL, 0});
    assert_answer(BEFORE_MODEL, RP_ASK, "budget", NULL, NULL,
                  (answer_want){"{\"decision\":\"deny\",\"reason\":\"rampart asks for approval, "
                                "which Gemini CLI hooks cannot do: budget\"}\n",
                                NULL, 0});
    /* A redacted system prompt goes back into the system message; the summary is dropped. */
    assert_answer(
        BEFORE_MODEL, RP_ALLOW, NULL,
        "{\"model\":\"gemini-2.5-pro\",\"messages\":[{\"role\":\"system\",\"content\":\"Be "
        "brief\"},"
        "{\"role\":\"user\",\"content\":\"one\"},{\"role\":\"model\",\"content\":\"ok\"},"
        "{\"role\":\"user\",\"content\":[{\"text\":\"two\"},{\"text\":\"three\"}]}],"
        "\"messages_count\":4,\"system_prompt_preview\":\"Be [R]\","
        "\"last_user_message\":\"two\\nthree\"}",
        NULL,
        (answer_want){"{\"hookSpecificOutput\":{\"hookEventName\":\"BeforeModel\",\"llm_request\":"
                      "{\"model\":\"gemini-2.5-pro\",\"messages\":[{\"role\":\"system\","
                      "\"content\":\"Be [R]\"},{\"role\":\"user\",\"content\":\"one\"},"
                      "{\"role\":\"model\",\"content\":\"ok\"},{\"role\":\"user\",\"content\":"
                      "[{\"text\":\"two\"},{\"text\":\"three\"}]}]}}}\n",
                      NULL, 0});
    /* The last user message is made of parts: a rewrite of it cannot be put back. */
    assert_answer(BEFORE_MODEL, RP_ALLOW, "Secrets redacted",
                  "{\"model\":\"gemini-2.5-pro\",\"messages\":[],\"last_user_message\":\"[R]\"}",
                  NULL,
                  (answer_want){"{\"decision\":\"deny\",\"reason\":\"the model request would "
                                "have to be rewritten, which rampart cannot do here: Secrets "
                                "redacted\"}\n",
                                NULL, 0});
    /* A string last user message is rewritten in place. */
    const char *simple =
        "{" BASE "\"hook_event_name\":\"BeforeModel\",\"llm_request\":{"
        "\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"k=AKIA\"}]}}";
    assert_answer(simple, RP_ALLOW, NULL,
                  "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"k=AKIA\"}],"
                  "\"messages_count\":1,\"last_user_message\":\"k=[R]\"}",
                  NULL,
                  (answer_want){"{\"hookSpecificOutput\":{\"hookEventName\":\"BeforeModel\","
                                "\"llm_request\":{\"model\":\"m\",\"messages\":[{\"role\":"
                                "\"user\",\"content\":\"k=[R]\"}]}}}\n",
                                NULL, 0});
}

static void test_answers_never_block(void **state)
{
    (void)state;
    rp_host_settings exit2 = {.deny_exit_code = true};
    const char *texts[] = {FINAL_CHUNK, "{" BASE "\"hook_event_name\":\"AfterAgent\"}",
                           "{" BASE "\"hook_event_name\":\"SessionStart\"}",
                           "{" BASE "\"hook_event_name\":\"SessionEnd\"}"};
    for (size_t i = 0; i < 4; i++) {
        assert_answer(texts[i], RP_DENY, "no", NULL, &exit2, (answer_want){"{}\n", NULL, 0});
        assert_answer(texts[i], RP_ALLOW, NULL, NULL, NULL, (answer_want){"{}\n", NULL, 0});
    }
}

static void assert_bad(const char *text, rp_hook_phase phase, const char *want_err)
{
    char err[256];
    rp_hook_call c = parse_text(text, -1, err, sizeof err);
    assert_int_equal(c.phase, phase);
    assert_string_equal(err, want_err);
}

static void test_bad_input(void **state)
{
    (void)state;
    assert_bad("[1,2]", RP_HOOK_PRE_TOOL, "the hook input must be a JSON object, not array");
    assert_bad("\"BeforeTool\"", RP_HOOK_PRE_TOOL,
               "the hook input must be a JSON object, not string");
    assert_bad("{\"session_id\":\"g1\"}", RP_HOOK_PRE_TOOL, "hook_event_name is missing");
    assert_bad("{\"hook_event_name\":7}", RP_HOOK_PRE_TOOL,
               "hook_event_name must be a string, not integer");
    assert_bad("{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"x\",\"tool_input\":{}}",
               RP_HOOK_PRE_TOOL, "session_id is missing");
    assert_bad("{\"hook_event_name\":\"AfterAgent\",\"session_id\":5}", RP_HOOK_STOP,
               "session_id must be a string, not integer");
    assert_bad("{" BASE "\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"x\","
               "\"tool_input\":\"ls\"}",
               RP_HOOK_PRE_TOOL, "tool_input must be an object, not string");
    assert_bad("{" BASE "\"hook_event_name\":\"BeforeTool\",\"tool_input\":{}}", RP_HOOK_PRE_TOOL,
               "tool_name is missing");
    assert_bad("{" BASE "\"hook_event_name\":\"AfterTool\",\"tool_name\":\"x\",\"tool_input\":{}}",
               RP_HOOK_POST_TOOL, "tool_response must be an object, not missing");
    assert_bad("{" BASE "\"hook_event_name\":\"BeforeAgent\",\"prompt\":[\"hi\"]}", RP_HOOK_PROMPT,
               "prompt must be a string, not array");
    assert_bad("{" BASE "\"hook_event_name\":\"BeforeModel\",\"llm_request\":\"x\"}",
               RP_HOOK_LLM_REQUEST, "llm_request must be an object, not string");
    assert_bad("{" BASE "\"hook_event_name\":\"AfterModel\"}", RP_HOOK_LLM_RESPONSE,
               "llm_response must be an object, not missing");
    assert_bad("{" BASE "\"hook_event_name\":\"AfterModel\",\"llm_response\":{\"candidates\":"
               "[{\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":-1}}}",
               RP_HOOK_LLM_RESPONSE,
               "llm_response.usageMetadata.promptTokenCount must be an integer >= 0");
    assert_bad("{" BASE "\"hook_event_name\":\"AfterModel\",\"llm_response\":{\"candidates\":"
               "[{\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"candidatesTokenCount\":1.5}}}",
               RP_HOOK_LLM_RESPONSE,
               "llm_response.usageMetadata.candidatesTokenCount must be an integer >= 0");
    assert_bad("{" BASE "\"hook_event_name\":\"BeforeTool\",\"cwd\":1,\"tool_name\":\"x\","
               "\"tool_input\":{}}",
               RP_HOOK_PRE_TOOL, "cwd must be a string, not integer");
}

static void test_registered(void **state)
{
    (void)state;
    assert_string_equal(H->name, "gemini");
    assert_string_equal(H->harness, "gemini");
    assert_int_equal(H->deadline_ms, 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_registered, setup, teardown),
        cmocka_unit_test_setup_teardown(test_before_tool_event, setup, teardown),
        cmocka_unit_test_setup_teardown(test_after_tool_events, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mcp_tools, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prompt_and_lifecycle_events, setup, teardown),
        cmocka_unit_test_setup_teardown(test_before_model_event, setup, teardown),
        cmocka_unit_test_setup_teardown(test_after_model_usage, setup, teardown),
        cmocka_unit_test_setup_teardown(test_after_model_tool_loop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_answers_before_tool, setup, teardown),
        cmocka_unit_test_setup_teardown(test_answers_after_tool_and_prompt, setup, teardown),
        cmocka_unit_test_setup_teardown(test_answers_before_model, setup, teardown),
        cmocka_unit_test_setup_teardown(test_answers_never_block, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_input, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
