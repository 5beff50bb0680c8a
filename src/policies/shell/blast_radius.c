/* blast_radius — DENY irreversible shell commands, risky_action on recoverable but risky ones
 * (reference §5.13, issue 3).
 *
 * Same parameters, validation and reason texts as the reference. The reference splits commands
 * with its own quote-blind splitter and misses `bash -c 'rm -rf /'`, `/bin/rm -rf /`,
 * `env rm -rf /`, `echo x & rm -rf /`, `(rm -rf /)`, `rm -rf /./` and more (Known weaknesses):
 * rampart reads the command with rp_sh_parse and classifies every simple command in it
 * (blast_classify.c). A command the parser cannot read is never a silent ALLOW: it is read the
 * reference's way (blast_fallback.c) and, when that finds nothing but the text still mentions
 * rm, git push, mkfs or dd, answered with risky_action. */
#include <ctype.h>
#include <string.h>

#include "core/buf.h"
#include "engine/policy.h"
#include "policies/shell/blast_radius.h"
#include "policies/builtins.h"
#include "policies/common/common.h"
#include "core/pyrepr.h"
#include "policies/common/shell_input.h"
#include "shell/shell.h"

#define DEFAULT_DENY_REASON "Blocked by the blast-radius policy."

typedef struct blast_radius {
    bool gate_pushes;
    rp_verdict risky_action; /* RP_ASK or RP_DENY */
    const char *deny_reason;
} blast_radius;

static const rp_param_spec blast_radius_params[] = {
    {.name = "gate_pushes",
     .kind = RP_PARAM_BOOL,
     .default_json = "true",
     .description = "Apply risky_action to risky commands (pushes, recursive rm, deploys); "
                    "false keeps only the irreversible DENY set."},
    {.name = "risky_action",
     .kind = RP_PARAM_STRING,
     .default_json = "\"ASK\"",
     .description = "ASK or DENY (stripped, case-insensitive) for risky commands."},
    {.name = "deny_reason",
     .kind = RP_PARAM_STRING,
     .default_json = "\"" DEFAULT_DENY_REASON "\"",
     .description = "Reason prefix of every DENY."},
};

static int blast_radius_create(const rp_json *params, rp_arena *a, void **instance,
                               rp_param_error *err)
{
    const rp_json *gate = rp_json_get(params, "gate_pushes");
    const rp_json *action = rp_json_get(params, "risky_action");
    const rp_json *reason = rp_json_get(params, "deny_reason");

    if (action == NULL || !rp_json_is_string(action))
        return rp_param_fail(err, "risky_action", "risky_action must be a string");
    if (!rp_json_is_string(reason))
        return rp_param_fail(err, "deny_reason", "deny_reason must be a string");

    /* The reference: risky_action.strip().upper() must be ASK or DENY. */
    size_t start, len;
    rp_py_strip(action->v.s, action->len, &start, &len);
    char upper[8] = "";
    if (len < sizeof upper) {
        for (size_t i = 0; i < len; i++)
            upper[i] = (char)toupper((unsigned char)action->v.s[start + i]);
        upper[len] = '\0';
    }
    if (strcmp(upper, "ASK") != 0 && strcmp(upper, "DENY") != 0) {
        rp_buf b = {0};
        rp_py_repr_str(&b, action->v.s, action->len);
        rp_param_fail(err, "risky_action",
                      "blast_radius: risky_action must be 'ASK' or 'DENY', "
                      "got %s",
                      b.data ? b.data : "''");
        rp_buf_free(&b);
        return -1;
    }

    blast_radius *br = rp_arena_calloc(a, sizeof *br);
    br->gate_pushes = gate == NULL || rp_json_truthy(gate);
    br->risky_action = strcmp(upper, "DENY") == 0 ? RP_DENY : RP_ASK;
    br->deny_reason = rp_arena_strndup(a, reason->v.s, reason->len);
    *instance = br;
    return 0;
}

/* "<prefix><repr(command)><suffix>" in the arena. */
static const char *reason_with_command(rp_arena *a, const char *prefix, const char *command,
                                       const char *suffix)
{
    rp_buf b = {0};
    rp_buf_puts(&b, prefix);
    rp_py_repr_str(&b, command, strlen(command));
    rp_buf_puts(&b, suffix);
    return rp_buf_to_arena(&b, a);
}

static int blast_radius_evaluate(const void *instance, const rp_event *ev, const rp_json *state,
                                 rp_eval_ctx *ctx, rp_result *out)
{
    const blast_radius *br = instance;
    (void)state;

    out->verdict = RP_ALLOW; /* the reference always answers */
    if (ev->type != RP_EV_TOOL_CALL || !rp_is_shell_tool(ev->tool_name, NULL))
        return 0;
    const char *command = rp_json_str(rp_json_get(ev->arguments, "command"));
    if (command == NULL)
        return 0;

    rp_blast_severity severity = RP_BLAST_NONE;
    bool unreadable = !rp_shell_tool_is_bash(ev->tool_name);
    if (!unreadable) {
        struct rp_sh_parse parse;
        unreadable =
            rp_shell_parse_once(ctx, command, &parse) != 0 || parse.unreadable;
        severity = rp_blast_classify(ctx->arena, &parse, command, ev->home);
    }
    bool mentioned_unread = false;
    if (unreadable && severity < RP_BLAST_CATASTROPHIC) {
        rp_blast_severity fallback = rp_blast_fallback(ctx->arena, command, ev->home);
        if (fallback > severity)
            severity = fallback;
        mentioned_unread = severity == RP_BLAST_NONE && rp_blast_mentions_guarded(command);
    }

    if (severity == RP_BLAST_CATASTROPHIC) {
        out->verdict = RP_DENY;
        out->reason = reason_with_command(
            ctx->arena, rp_arena_sprintf(ctx->arena, "%s (irreversible: ", br->deny_reason),
            command, ")");
        return 0;
    }
    /* An unreadable command that mentions what this policy guards is asked about even with
     * gate_pushes off: nothing says it is not the catastrophic kind. */
    if ((severity == RP_BLAST_RISKY && br->gate_pushes) || mentioned_unread) {
        out->verdict = br->risky_action;
        if (br->risky_action == RP_ASK)
            out->reason = reason_with_command(
                ctx->arena, "High-blast-radius command needs approval: ", command, "");
        else
            out->reason = reason_with_command(
                ctx->arena, rp_arena_sprintf(ctx->arena, "%s: ", br->deny_reason), command, "");
    }
    return 0;
}

const rp_policy_type rp_policy_blast_radius = {
    .name = "blast_radius",
    .module = "omnigent.policies.builtins.orchestration",
    .description = "Deny irreversible shell commands (rm -rf /, force pushes, disk writes) and "
                   "ask before risky ones (pushes, deploys, recursive rm).",
    .params = blast_radius_params,
    .n_params = sizeof blast_radius_params / sizeof blast_radius_params[0],
    .create = blast_radius_create,
    .evaluate = blast_radius_evaluate,
};
