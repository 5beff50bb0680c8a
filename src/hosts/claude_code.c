/* claude_code.c — the Claude Code adapter (agent-hosts.md A.1.2-A.1.7).
 *
 * Parsing is the Claude-shaped payload of claude_shape.c. The answers:
 *   PreToolUse   DENY  hookSpecificOutput permissionDecision "deny" with the reason (shown to
 *                      Claude), or, with hosts.claude-code.deny_exit_code, exit 2 and the
 *                      reason on stderr (blocks before Claude's own rules are evaluated).
 *                ASK   permissionDecision "ask" with the reason (shown to the user), and
 *                      with a rewrite its updatedInput (what the person approves is what runs).
 *                ALLOW nothing: Claude's own permission rules and prompts still apply. With
 *                      allow_overrides, permissionDecision "allow". A rewrite is updatedInput
 *                      alone (it replaces the whole tool input): without a permissionDecision
 *                      Claude applies the new input and its own rules and prompts still decide
 *                      (an "allow" would skip them, auto-approving any command that happened to
 *                      carry a secret). With allow_overrides it is "allow" + updatedInput.
 *   UserPromptSubmit   DENY/ASK {"decision":"block","reason"}: Claude can only block a prompt
 *                      (the lead's hook adds how to approve an ASK), and cannot rewrite one,
 *                      so a rewrite blocks too.
 *   PostToolUse  DENY/ASK {"decision":"block","reason"} (feedback to Claude). A rewrite of the
 *                      result is updatedToolOutput (it changes only what Claude sees); a
 *                      rewrite of a failure, which has no output schema, blocks instead.
 *   Stop, SubagentStop, SessionStart, SessionEnd: never blocked (blocking a Stop keeps the
 *                      agent running): nothing, exit 0. */
#include <string.h>

#include "hosts/claude_shape.h"

extern const rp_hook_adapter rp_host_claude_code;

static int parse(const rp_json *payload, const rp_hook_env *env, rp_arena *a, rp_hook_call *call,
                 char *err, size_t err_size)
{
    return rp_hook_claude_shape_parse(&rp_host_claude_code, RP_HOOK_DIALECT_CLAUDE, payload, env, a,
                                      call, err, err_size);
}

static void answer_pre_tool(const rp_hook_call *call, const rp_hook_verdict *v,
                            const rp_host_settings *s, rp_arena *a, rp_hook_answer *out)
{
    const char *reason = v->reason;
    const rp_json *updated = NULL;
    rp_verdict result = v->result;
    /* A rewrite rides with an ASK too (a REDACT policy and an asking one): the person approves
     * the rewritten input, never the original, so "ask" carries updatedInput as "allow" does. */
    if (result != RP_DENY && v->data) {
        updated = call->can_rewrite ? rp_hook_shape_updated_input(a, call, v->data) : NULL;
        if (updated == NULL) {
            result = RP_DENY; /* a rewrite that cannot be applied must not run as it was */
            reason = rp_hook_shape_rewrite_reason(a, "the tool input would have to be rewritten",
                                                  v->reason);
        }
    }
    if (result == RP_DENY) {
        if (reason == NULL || reason[0] == '\0')
            reason = "denied by rampart";
        rp_hook_told(out, RP_DENY, reason);
        if (s && s->deny_exit_code) {
            rp_buf_printf(&out->err, "%s\n", reason);
            out->exit_code = 2;
            return;
        }
        rp_hook_shape_write_decision(&out->out, a, "PreToolUse", "deny", reason, NULL);
    } else if (result == RP_ASK) {
        rp_hook_shape_write_decision(&out->out, a, "PreToolUse", "ask",
                                     reason && reason[0] ? reason : "rampart asks for approval",
                                     updated);
    } else if (updated) {
        rp_hook_shape_write_decision(&out->out, a, "PreToolUse",
                                     s && s->allow_overrides ? "allow" : NULL, reason, updated);
    } else if (s && s->allow_overrides) {
        rp_hook_shape_write_decision(&out->out, a, "PreToolUse", "allow", reason, NULL);
    }
}

static void answer_post_tool(const rp_hook_call *call, const rp_hook_verdict *v, rp_arena *a,
                             rp_hook_answer *out)
{
    if (v->result != RP_ALLOW) {
        rp_hook_shape_write_block(&out->out, a,
                                  v->reason && v->reason[0] ? v->reason : "blocked by rampart");
        return;
    }
    if (v->data == NULL)
        return;
    /* The rewrite is of the normalised data ({result, is_error}): back into the tool's shape. */
    const rp_json *output = rp_hook_tool_result_host_output(a, call->tool_output, v->data);
    if (output && call->host_event && strcmp(call->host_event, "PostToolUse") == 0) {
        rp_json hso = rp_json_make_object();
        rp_json_object_set(a, &hso, "hookEventName", rp_json_make_string_ref("PostToolUse"));
        rp_json_object_set(a, &hso, "updatedToolOutput", *output);
        rp_json top = rp_json_make_object();
        rp_json_object_set(a, &top, "hookSpecificOutput", hso);
        rp_json_write(&out->out, &top);
        rp_buf_putc(&out->out, '\n');
        return;
    }
    const char *reason =
        rp_hook_shape_rewrite_reason(a, "the tool output would have to be redacted", v->reason);
    rp_hook_told(out, RP_DENY, reason);
    rp_hook_shape_write_block(&out->out, a, reason);
}

static void answer(const rp_hook_call *call, const rp_hook_verdict *v,
                   const rp_host_settings *settings, rp_arena *a, rp_hook_answer *out)
{
    switch (call->phase) {
    case RP_HOOK_PRE_TOOL:
        answer_pre_tool(call, v, settings, a, out);
        break;
    case RP_HOOK_PROMPT:
        if (v->result != RP_ALLOW)
            rp_hook_shape_write_block(&out->out, a,
                                      v->reason && v->reason[0] ? v->reason : "blocked by rampart");
        else if (v->data) {
            const char *reason =
                rp_hook_shape_rewrite_reason(a, "the prompt would have to be redacted", v->reason);
            rp_hook_told(out, RP_DENY, reason);
            rp_hook_shape_write_block(&out->out, a, reason);
        }
        break;
    case RP_HOOK_POST_TOOL:
        answer_post_tool(call, v, a, out);
        break;
    default:
        break; /* stop and session events are never blocked */
    }
}

const rp_hook_adapter rp_host_claude_code = {.name = "claude-code",
                                             .harness = "claude-code",
                                             .deadline_ms = 1000,
                                             .parse = parse,
                                             .answer = answer};
