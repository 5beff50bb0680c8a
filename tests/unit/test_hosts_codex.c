/* test_hosts_codex.c — the Codex adapter (src/hosts/codex.c, claude_shape.c): the exact
 * PolicyEvent of the documented A.2.1 payload of agent-hosts.md and of apply_patch (its file
 * headers as arguments.paths), the events Codex has and has not, errors, and the exact answer
 * bytes of a deny-only host: ASK as a deny or deferred, ALLOW as nothing, rewrites. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "hosts/host.h"

static const char fixture_host_name[] = "codex";
#include "hosts_fixture.h"

/* agent-hosts.md A.2.1, verbatim. */
static const char doc_pre[] =
    "{\"session_id\":\"<thread id>\",\"turn_id\":\"<turn id>\",\"transcript_path\":"
    "\"/home/u/.codex/sessions/.../rollout.jsonl\",\"cwd\":\"/home/u/proj\","
    "\"hook_event_name\":\"PreToolUse\",\"model\":\"gpt-5-codex\",\"permission_mode\":"
    "\"default\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"git push --force\"},"
    "\"tool_use_id\":\"call_abc\"}";

static const char patch_pre[] =
    "{\"session_id\":\"t\",\"cwd\":\"/p\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":"
    "\"apply_patch\",\"tool_use_id\":\"c1\",\"tool_input\":{\"command\":\"*** Begin Patch\\n"
    "*** Update File: src/a.rs\\n@@\\n-x\\n+y\\n*** Update File: src/b.rs\\r\\n*** Move to: "
    "src/c.rs\\n*** Add File: new.txt\\n+hi\\n*** Delete File: old.txt\\n*** Update File: "
    "src/a.rs\\n*** End Patch\"}}";

#define CTX_T                                                                                      \
    "\"context\":{\"cwd\":\"/p\",\"harness\":\"codex-native\",\"home\":\"/home/u\",\"host\":"      \
    "\"codex\",\"user\":\"os-user\"}"
/* The same context with a tool_use_id: the call key of a tool event that came without one. */
#define CTX_T_ID(id)                                                                               \
    "\"context\":{\"cwd\":\"/p\",\"harness\":\"codex-native\",\"home\":\"/home/u\",\"host\":"      \
    "\"codex\",\"tool_use_id\":\"" id "\",\"user\":\"os-user\"}"
/* The contexts of the tool events below that came without a tool_use_id: the call key
 * "h:" + the first 32 hex digits of SHA-256 over {"input":TOOL_INPUT,"tool":NAME},
 * computed independently. */
#define CTX_T_K1 CTX_T_ID("h:af821ee4cc0ad23b29b73a64b9420229")
#define CTX_T_K2 CTX_T_ID("h:41e3875c5244ecc424d98654a3743d9e")
#define CTX_T_K3 CTX_T_ID("h:d72fa9403af757557570b32f1af468d0")

static void test_pre_tool_documented(void **state)
{
    fx *f = *state;
    expect_event(f, doc_pre, RP_HOOK_PRE_TOOL,
                 "{\"context\":{\"cwd\":\"/home/u/proj\",\"harness\":\"codex-native\",\"home\":"
                 "\"/home/u\",\"host\":\"codex\",\"model\":\"gpt-5-codex\",\"permission_mode\":"
                 "\"default\",\"tool_use_id\":\"call_abc\",\"user\":\"os-user\"},\"data\":{"
                 "\"arguments\":{\"command\":\"git push --force\"},\"name\":\"Bash\"},"
                 "\"session_id\":\"<thread id>\",\"target\":\"Bash\",\"type\":\"tool_call\"}");
    assert_string_equal(host()->harness, "codex-native");
    assert_false(f->call.can_ask); /* "ask" is a hook failure in Codex */
    assert_true(f->call.can_rewrite);
    assert_string_equal(f->call.transcript_path, "/home/u/.codex/sessions/.../rollout.jsonl");
}

static void test_apply_patch_paths(void **state)
{
    fx *f = *state;
    expect_event(f, patch_pre, RP_HOOK_PRE_TOOL,
                 "{\"context\":{\"cwd\":\"/p\",\"harness\":\"codex-native\",\"home\":\"/home/u\","
                 "\"host\":\"codex\",\"tool_use_id\":\"c1\",\"user\":\"os-user\"},\"data\":{"
                 "\"arguments\":{\"command\":\"*** Begin Patch\\n*** Update File: src/a.rs\\n@@\\n"
                 "-x\\n+y\\n*** Update File: src/b.rs\\r\\n*** Move to: src/c.rs\\n*** Add File: "
                 "new.txt\\n+hi\\n*** Delete File: old.txt\\n*** Update File: src/a.rs\\n*** End "
                 "Patch\",\"file_path\":\"src/a.rs\",\"paths\":[\"src/a.rs\",\"src/b.rs\","
                 "\"src/c.rs\",\"new.txt\",\"old.txt\"]},\"name\":\"apply_patch\"},\"session_id\":"
                 "\"t\",\"target\":\"apply_patch\",\"type\":\"tool_call\"}");
    /* The host's own input is untouched (updatedInput is built from it). */
    assert_null(rp_json_get(f->call.tool_input, "paths"));
    /* No headers: no paths, no file_path. */
    expect_event(f,
                 "{\"session_id\":\"t\",\"cwd\":\"/p\",\"hook_event_name\":\"PreToolUse\","
                 "\"tool_name\":\"apply_patch\",\"tool_input\":{\"command\":\"garbage\"}}",
                 RP_HOOK_PRE_TOOL,
                 "{" CTX_T_K1 ",\"data\":{\"arguments\":{\"command\":\"garbage\",\"paths\":[]},"
                 "\"name\":\"apply_patch\"},\"session_id\":\"t\",\"target\":\"apply_patch\","
                 "\"type\":\"tool_call\"}");
    /* After the patch ran, the result's request carries the same paths. */
    expect_event(f,
                 "{\"session_id\":\"t\",\"cwd\":\"/p\",\"hook_event_name\":\"PostToolUse\","
                 "\"tool_name\":\"apply_patch\",\"tool_input\":{\"command\":\"*** Add File: "
                 "x.txt\\n+1\"},\"tool_response\":\"Success\"}",
                 RP_HOOK_POST_TOOL,
                 "{" CTX_T_K2 ",\"data\":{\"result\":\"Success\"},"
                 "\"request_data\":{\"arguments\":{\"command\":\"*** Add File: x.txt\\n+1\","
                 "\"file_path\":\"x.txt\",\"paths\":[\"x.txt\"]},\"name\":\"apply_patch\"},"
                 "\"session_id\":\"t\",\"target\":\"apply_patch\",\"type\":\"tool_result\"}");
}

/* Codex trims each patch line (Rust's str::trim, Unicode whitespace) before it matches a
 * header, so indented headers count and the paths are without the tab, the no-break space
 * (U+00A0) or the ideographic space (U+3000) around them. Whitespace after the marker's one
 * space stays in Codex's path (`*** Update File: \u2003b.rs` writes "\u2003b.rs"): both
 * readings are listed, the trimmed one first (shell/patch.h). */
static void test_apply_patch_paths_trimmed(void **state)
{
    fx *f = *state;
    assert_int_equal(parse(f,
                           "{\"session_id\":\"t\",\"hook_event_name\":\"PreToolUse\","
                           "\"tool_name\":\"apply_patch\",\"tool_use_id\":\"c\",\"tool_input\":{"
                           "\"command\":\"*** Begin Patch\\n   *** Add File: .env\\u00a0\\n+K=v\\n"
                           "\\t*** Delete File: a.txt \\r\\n\\u3000*** Update File: \\u2003b.rs"
                           "\\u3000\\n@@\\n-x\\n+y\\n*** Add File: \\u00a0\\n*** End Patch\"}}"),
                     0);
    const rp_json *args = rp_json_get(rp_json_get(&f->call.event, "data"), "arguments");
    rp_buf b = {0};
    rp_json_write(&b, rp_json_get(args, "paths"));
    assert_string_equal(b.data, "[\".env\",\"a.txt\",\"b.rs\",\"\xe2\x80\x83"
                                "b.rs\"]");
    assert_string_equal(rp_json_get_str(args, "file_path"), ".env");
    rp_buf_free(&b);
}

static void test_no_dispatch_shape(void **state)
{
    fx *f = *state;
    /* Codex has no Agent tool: a tool of that name is an ordinary tool call. */
    expect_event(f,
                 "{\"session_id\":\"t\",\"cwd\":\"/p\",\"hook_event_name\":\"PreToolUse\","
                 "\"tool_name\":\"Agent\",\"tool_input\":{\"subagent_type\":\"Explore\"}}",
                 RP_HOOK_PRE_TOOL,
                 "{" CTX_T_K3
                 ",\"data\":{\"arguments\":{\"subagent_type\":\"Explore\"},\"name\":\"Agent\"},"
                 "\"session_id\":\"t\",\"target\":\"Agent\",\"type\":\"tool_call\"}");
}

static void test_events(void **state)
{
    fx *f = *state;
    expect_event(f,
                 "{\"session_id\":\"t\",\"cwd\":\"/p\",\"hook_event_name\":\"UserPromptSubmit\","
                 "\"prompt\":\"hello\",\"turn_id\":\"u\"}",
                 RP_HOOK_PROMPT,
                 "{\"context\":{\"cwd\":\"/p\",\"harness\":\"codex-native\",\"home\":\"/home/u\","
                 "\"host\":\"codex\",\"tool_use_id\":\"prompt:2cf24dba5fb0a30e26e83b2ac5b9e29e\","
                 "\"user\":\"os-user\"},\"data\":{\"user_content\":\"hello\"},\"session_id\":"
                 "\"t\",\"type\":\"request\"}");
    assert_false(f->call.can_ask);
    expect_event(f,
                 "{\"session_id\":\"t\",\"cwd\":\"/p\",\"hook_event_name\":\"SubagentStop\","
                 "\"agent_id\":\"w1\"}",
                 RP_HOOK_STOP,
                 "{\"context\":{\"cwd\":\"/p\",\"harness\":\"codex-native\",\"home\":\"/home/u\","
                 "\"host\":\"codex\",\"parent_session_id\":\"t\",\"root_session_id\":\"t\","
                 "\"user\":\"os-user\"},\"data\":null,\"session_id\":\"t/agent/w1\",\"type\":"
                 "\"stop\"}");
    expect_event(f, "{\"session_id\":\"t\",\"cwd\":\"/p\",\"hook_event_name\":\"SessionStart\"}",
                 RP_HOOK_SESSION_START,
                 "{" CTX_T ",\"data\":null,\"session_id\":\"t\",\"type\":\"session_start\"}");
    expect_event(f, "{\"session_id\":\"t\",\"cwd\":\"/p\",\"hook_event_name\":\"Stop\"}",
                 RP_HOOK_STOP, "{" CTX_T ",\"data\":null,\"session_id\":\"t\",\"type\":\"stop\"}");
    /* Events Codex does not have (or rampart does not evaluate) say nothing. */
    static const char *const ignored[] = {"PostToolUseFailure", "SessionEnd", "PreCompact",
                                          "PermissionRequest", "SubagentStart"};
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++) {
        char in[128];
        snprintf(in, sizeof in, "{\"session_id\":\"t\",\"hook_event_name\":\"%s\"}", ignored[i]);
        assert_int_equal(parse(f, in), 0);
        assert_int_equal(f->call.phase, RP_HOOK_IGNORED);
    }
}

static void test_errors(void **state)
{
    fx *f = *state;
    expect_error(f, "null", RP_HOOK_PRE_TOOL, "the hook input must be a JSON object, not null");
    expect_error(f,
                 "{\"session_id\":\"t\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":"
                 "\"Bash\",\"tool_input\":[\"ls\"]}",
                 RP_HOOK_PRE_TOOL, "tool_input must be an object, not array");
    expect_error(f,
                 "{\"session_id\":\"t\",\"hook_event_name\":\"PreToolUse\",\"model\":1,"
                 "\"tool_name\":\"Bash\",\"tool_input\":{}}",
                 RP_HOOK_PRE_TOOL, "model must be a string, not integer");
    expect_error(f, "{\"session_id\":\"\",\"hook_event_name\":\"UserPromptSubmit\"}",
                 RP_HOOK_PROMPT, "session_id is missing");
    expect_error(f, "{\"session_id\":\"t\",\"transcript_path\":false,\"hook_event_name\":\"Stop\"}",
                 RP_HOOK_STOP, "transcript_path must be a string, not bool");
}

#define DENY_JSON(r)                                                                               \
    "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":"            \
    "\"deny\",\"permissionDecisionReason\":\"" r "\"}}\n"
#define BLOCK(r) "{\"decision\":\"block\",\"reason\":\"" r "\"}\n"

static void test_answer_pre_tool(void **state)
{
    fx *f = *state;
    rp_host_settings defer = {.ask_as = "defer"};
    rp_host_settings overrides = {.allow_overrides = true, .deny_exit_code = true};
    assert_int_equal(parse(f, doc_pre), 0);
    expect_answer(f, RP_DENY, "no force push", NULL, NULL, DENY_JSON("no force push"), "", 0);
    /* Codex counts an empty reason as a failure, which fails open. */
    expect_answer(f, RP_DENY, "", NULL, NULL, DENY_JSON("denied by rampart"), "", 0);
    expect_answer(f, RP_DENY, NULL, NULL, NULL, DENY_JSON("denied by rampart"), "", 0);
    expect_answer(f, RP_ASK, "force push", NULL, NULL,
                  DENY_JSON("rampart asks for approval, which Codex hooks cannot do: force push"),
                  "", 0);
    expect_answer(f, RP_ASK, "force push", NULL, &defer, "", "", 0);
    /* Deferring would hand Codex the input unredacted: an ASK with a rewrite stays a deny. */
    expect_answer(f, RP_ASK, "force push",
                  "{\"name\":\"Bash\",\"arguments\":{\"command\":"
                  "\"git push --force [R]\"}}",
                  &defer,
                  DENY_JSON("rampart asks for approval, which Codex hooks cannot do: force push"),
                  "", 0);
    /* "allow" alone is rejected by Codex: nothing, whatever the settings. */
    expect_answer(f, RP_ALLOW, NULL, NULL, NULL, "", "", 0);
    expect_answer(f, RP_ALLOW, NULL, NULL, &overrides, "", "", 0);
}

static void test_answer_rewrite(void **state)
{
    fx *f = *state;
    assert_int_equal(parse(f, patch_pre), 0);
    /* The paths rampart added are not part of Codex's apply_patch input. */
    expect_answer(f, RP_ALLOW, NULL,
                  "{\"name\":\"apply_patch\",\"arguments\":{\"command\":\"[REDACTED]\","
                  "\"file_path\":\"src/a.rs\",\"paths\":[\"src/a.rs\"]}}",
                  NULL,
                  "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
                  "\"permissionDecision\":\"allow\",\"updatedInput\":{\"command\":"
                  "\"[REDACTED]\"}}}\n",
                  "", 0);
    expect_answer(f, RP_ALLOW, "Secrets", "{\"name\":\"apply_patch\",\"arguments\":[]}", NULL,
                  DENY_JSON("the tool input would have to be rewritten: Secrets"), "", 0);
}

static void test_answer_other_phases(void **state)
{
    fx *f = *state;
    assert_int_equal(
        parse(f,
              "{\"session_id\":\"t\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"p\"}"),
        0);
    expect_answer(f, RP_DENY, "no", NULL, NULL, BLOCK("no"), "", 0);
    expect_answer(f, RP_ASK, "checkpoint", NULL, NULL, BLOCK("checkpoint"), "", 0);
    expect_answer(f, RP_ALLOW, NULL, NULL, NULL, "", "", 0);
    expect_answer(f, RP_ALLOW, NULL, "{\"user_content\":\"x\"}", NULL,
                  BLOCK("the prompt would have to be redacted: a policy rewrote it"), "", 0);
    assert_int_equal(parse(f, "{\"session_id\":\"t\",\"hook_event_name\":\"PostToolUse\","
                              "\"tool_name\":\"Bash\",\"tool_input\":{},\"tool_response\":\"o\"}"),
                     0);
    expect_answer(f, RP_DENY, "loop", NULL, NULL, BLOCK("loop"), "", 0);
    expect_answer(f, RP_ASK, "loop", NULL, NULL, BLOCK("loop"), "", 0);
    expect_answer(f, RP_ALLOW, NULL, NULL, NULL, "", "", 0);
    expect_answer(f, RP_ALLOW, "Secrets", "\"[REDACTED]\"", NULL,
                  BLOCK("the tool output would have to be redacted: Secrets"), "", 0);
    assert_int_equal(parse(f, "{\"session_id\":\"t\",\"hook_event_name\":\"Stop\"}"), 0);
    expect_answer(f, RP_DENY, "budget", NULL, NULL, "", "", 0);
    expect_answer(f, RP_ASK, "budget", NULL, NULL, "", "", 0);
}

/* A NUL is refused where Codex would act on what the policies could not read. */
static void test_nul_characters(void **state)
{
    fx *f = *state;
    expect_error(f,
                 "{\"session_id\":\"t\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":"
                 "\"apply_patch\",\"tool_input\":{\"command\":\"*** Begin Patch\\n*** Add File: "
                 "a\\u0000/../../etc/passwd\\n\"}}",
                 RP_HOOK_PRE_TOOL,
                 "tool_input.command holds a NUL character, which rampart cannot judge past");
    expect_error(f,
                 "{\"session_id\":\"t\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":"
                 "\"\\u0000\"}",
                 RP_HOOK_PROMPT, "prompt holds a NUL character, which rampart cannot judge past");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_pre_tool_documented, setup, teardown),
        cmocka_unit_test_setup_teardown(test_apply_patch_paths, setup, teardown),
        cmocka_unit_test_setup_teardown(test_apply_patch_paths_trimmed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_dispatch_shape, setup, teardown),
        cmocka_unit_test_setup_teardown(test_events, setup, teardown),
        cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nul_characters, setup, teardown),
        cmocka_unit_test_setup_teardown(test_answer_pre_tool, setup, teardown),
        cmocka_unit_test_setup_teardown(test_answer_rewrite, setup, teardown),
        cmocka_unit_test_setup_teardown(test_answer_other_phases, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
