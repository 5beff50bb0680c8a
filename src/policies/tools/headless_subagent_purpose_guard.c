/* headless_subagent_purpose_guard — DENY a sys_session_send that does not say what kind of work
 * the sub-agent is for (reference §5.15): arguments.args.purpose must be exactly one of
 * `allowed_purposes` (case-sensitive). sys_session_create is not covered, as in the reference. */
#include <string.h>

#include "engine/policy.h"
#include "policies/builtins.h"
#include "policies/common/common.h"
#include "core/pyrepr.h"

#define DISPATCH_TOOL "sys_session_send"

#define DEFAULT_DENY_REASON                                                                        \
    "Every sys_session_send must declare what kind of work it is. Set args.purpose to one of "     \
    "`implement` (write product code \xe2\x80\x94 any code change, however small), `review` "      \
    "(judge a diff against its contract), or `explore` / `search` (read-only investigation). "     \
    "All sub-agents (`claude_code`, `codex`, `pi`) accept all of these."

typedef struct purpose_guard {
    const char **allowed;
    size_t n_allowed;
    const char *missing_args_reason; /* both reasons are fixed per instance: built once */
    const char *bad_purpose_reason;
} purpose_guard;

static const rp_param_spec purpose_guard_params[] = {
    {.name = "allowed_purposes",
     .kind = RP_PARAM_STRING_LIST,
     .default_json = "[\"implement\", \"review\", \"explore\", \"search\"]",
     .description = "Values accepted in arguments.args.purpose (case-sensitive)."},
    {.name = "deny_reason",
     .kind = RP_PARAM_STRING,
     .default_json = "\"" DEFAULT_DENY_REASON "\"",
     .description = "The start of every DENY reason."},
};

static int purpose_guard_create(const rp_json *params, rp_arena *a, void **instance,
                                rp_param_error *err)
{
    const rp_json *allowed = rp_json_get(params, "allowed_purposes");
    const rp_json *reason = rp_json_get(params, "deny_reason");

    if (!rp_json_is_array(allowed))
        return rp_param_fail(err, "allowed_purposes", "allowed_purposes must be a list of strings");
    for (uint32_t i = 0; i < allowed->len; i++)
        if (!rp_json_is_string(&allowed->v.items[i]))
            return rp_param_fail(err, "allowed_purposes", "allowed_purposes[%u] must be a string",
                                 (unsigned)i);
    if (!rp_json_is_string(reason))
        return rp_param_fail(err, "deny_reason", "deny_reason must be a string");

    purpose_guard *g = rp_arena_calloc(a, sizeof *g);
    g->allowed = rp_pol_string_list(allowed, a, &g->n_allowed);

    rp_buf b = {0};
    rp_buf_printf(&b, "%s Missing object args with purpose.", reason->v.s);
    g->missing_args_reason = rp_buf_to_arena(&b, a);
    rp_buf_printf(&b, "%s Set args.purpose to one of ", reason->v.s);
    rp_py_repr_sorted_strs(&b, g->allowed, g->n_allowed);
    rp_buf_puts(&b, " when this is a legitimate sub-agent task.");
    g->bad_purpose_reason = rp_buf_to_arena(&b, a);
    *instance = g;
    return 0;
}

static bool purpose_allowed(const purpose_guard *g, const rp_json *purpose)
{
    if (!rp_json_is_string(purpose))
        return false;
    for (size_t i = 0; i < g->n_allowed; i++)
        if (strlen(g->allowed[i]) == purpose->len &&
            memcmp(g->allowed[i], purpose->v.s, purpose->len) == 0)
            return true;
    return false;
}

static int purpose_guard_evaluate(const void *instance, const rp_event *ev, const rp_json *state,
                                  rp_eval_ctx *ctx, rp_result *out)
{
    const purpose_guard *g = instance;

    (void)state;
    (void)ctx;
    out->verdict = RP_ALLOW;
    if (ev->type != RP_EV_TOOL_CALL || ev->tool_name == NULL ||
        strcmp(ev->tool_name, DISPATCH_TOOL) != 0)
        return 0;

    const rp_json *args = rp_json_get(ev->arguments, "args");
    if (!rp_json_is_object(args)) {
        out->verdict = RP_DENY;
        out->reason = g->missing_args_reason;
    } else if (!purpose_allowed(g, rp_json_get(args, "purpose"))) {
        out->verdict = RP_DENY;
        out->reason = g->bad_purpose_reason;
    }
    return 0;
}

const rp_policy_type rp_policy_headless_subagent_purpose_guard = {
    .name = "headless_subagent_purpose_guard",
    .module = "omnigent.policies.builtins.orchestration",
    .description = "Deny sub-agent dispatches that do not declare an allowed purpose.",
    .params = purpose_guard_params,
    .n_params = sizeof purpose_guard_params / sizeof purpose_guard_params[0],
    .create = purpose_guard_create,
    .evaluate = purpose_guard_evaluate,
};
