/* codex.c — the Codex CLI adapter (agent-hosts.md A.2.1). Codex's hooks take Claude Code's
 * payload shape (claude_shape.c), with `model`, `turn_id`, every shell tool as `Bash` and
 * `apply_patch` carrying the raw patch in tool_input.command (its file headers become
 * arguments.paths and arguments.file_path).
 *
 * Codex is deny-only, and every hook failure fails open, so every answer is one Codex accepts:
 *   PreToolUse   DENY  permissionDecision "deny" with a non-empty reason (an empty one counts
 *                      as a failure, which lets the call run).
 *                ASK   "ask" is a hook failure in Codex (the call runs): by default a deny
 *                      whose reason says rampart wanted approval; with hosts.codex.ask_as:
 *                      defer, nothing, so Codex's own approval flow decides (but still the
 *                      deny when the ASK carries a rewrite, which deferring would drop).
 *                ALLOW nothing ("allow" alone is rejected), even with allow_overrides; a
 *                      rewrite is "allow" with updatedInput, the one allow Codex takes and the
 *                      only way to rewrite (Codex drops an updatedInput without it). Unlike
 *                      Claude Code's, this "allow" approves nothing: Codex's hook output has no
 *                      approval (output_parser.rs keeps only the new input), so its sandbox and
 *                      approval policy still decide about the rewritten call.
 *   UserPromptSubmit, PostToolUse: DENY/ASK {"decision":"block","reason"}; a rewrite, which
 *                      Codex cannot apply there, blocks too.
 *   SessionStart, Stop, SubagentStop: never blocked. */
#include <string.h>

#include "hosts/claude_shape.h"

extern const rp_hook_adapter rp_host_codex;

#define ASK_PREFIX "rampart asks for approval, which Codex hooks cannot do: "

static int parse(const rp_json *payload, const rp_hook_env *env, rp_arena *a, rp_hook_call *call,
                 char *err, size_t err_size)
{
    return rp_hook_claude_shape_parse(&rp_host_codex, RP_HOOK_DIALECT_CODEX, payload, env, a, call,
                                      err, err_size);
}

static const char *nonempty(const char *reason, const char *fallback)
{
    return reason && reason[0] ? reason : fallback;
}

static void answer_pre_tool(const rp_hook_call *call, const rp_hook_verdict *v,
                            const rp_host_settings *s, rp_arena *a, rp_hook_answer *out)
{
    const char *reason = nonempty(v->reason, "denied by rampart");
    if (v->result == RP_ASK) {
        /* Deferring hands Codex the original input: with a rewrite pending it would run
         * unredacted once approved, so then it is the deny. */
        if (s && s->ask_as && strcmp(s->ask_as, "defer") == 0 && v->data == NULL)
            return;
        reason =
            rp_arena_sprintf(a, "%s%s", ASK_PREFIX, nonempty(v->reason, "no reason was given"));
    } else if (v->result == RP_ALLOW) {
        if (v->data == NULL)
            return;
        const rp_json *updated =
            call->can_rewrite ? rp_hook_shape_updated_input(a, call, v->data) : NULL;
        if (updated) {
            rp_hook_shape_write_decision(&out->out, a, "PreToolUse", "allow", NULL, updated);
            return;
        }
        reason =
            rp_hook_shape_rewrite_reason(a, "the tool input would have to be rewritten", v->reason);
    }
    rp_hook_told(out, RP_DENY, reason);
    rp_hook_shape_write_decision(&out->out, a, "PreToolUse", "deny", reason, NULL);
}

static void answer(const rp_hook_call *call, const rp_hook_verdict *v,
                   const rp_host_settings *settings, rp_arena *a, rp_hook_answer *out)
{
    switch (call->phase) {
    case RP_HOOK_PRE_TOOL:
        answer_pre_tool(call, v, settings, a, out);
        break;
    case RP_HOOK_PROMPT:
    case RP_HOOK_POST_TOOL:
        if (v->result != RP_ALLOW)
            rp_hook_shape_write_block(&out->out, a, nonempty(v->reason, "blocked by rampart"));
        else if (v->data) {
            const char *reason = rp_hook_shape_rewrite_reason(
                a,
                call->phase == RP_HOOK_PROMPT ? "the prompt would have to be redacted"
                                              : "the tool output would have to be redacted",
                v->reason);
            rp_hook_told(out, RP_DENY, reason);
            rp_hook_shape_write_block(&out->out, a, reason);
        }
        break;
    default:
        break; /* stop and session events are never blocked */
    }
}

const rp_hook_adapter rp_host_codex = {.name = "codex",
                                       .harness = "codex-native",
                                       .deadline_ms = 1000,
                                       .parse = parse,
                                       .answer = answer};
