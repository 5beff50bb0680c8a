/* subagent_cost_budget — a sub-agent's own subtree spend (itself and its descendants) against
 * the budget its parent gave it in sys_session_send's `cost_budget` (reference §5.10). Reads
 * context.subtree_usage for both the unpriced check and the spend; its approval key stays in
 * the child's own state. Attached by the session layer, hence internal_only. */
#include "engine/policy.h"
#include "policies/builtins.h"
#include "cost/budget.h"

static const rp_param_spec subagent_cost_budget_params[] = {
    {.name = "max_cost_usd",
     .kind = RP_PARAM_NUMBER,
     .description = "Hard limit in USD for the sub-agent's subtree (optional when thresholds "
                    "are given)."},
    {.name = "ask_thresholds_usd",
     .kind = RP_PARAM_ARRAY,
     .description = "Soft checkpoints in USD for the subtree's spend; each in (0, max_cost_usd)."},
    {.name = "expensive_models",
     .kind = RP_PARAM_ARRAY,
     .description = "Case-insensitive substrings of the model tiers denied over the cap; omit "
                    "or [] to deny every model."},
};

static const char *const subagent_cost_budget_keys[] = {RP_COST_SUBAGENT_APPROVED,
                                                        RP_COST_UNPRICED_KEY, NULL};

static int subagent_cost_budget_create(const rp_json *params, rp_arena *a, void **instance,
                                       rp_param_error *err)
{
    rp_cost_limits *lim = rp_arena_calloc(a, sizeof *lim);
    if (rp_cost_limits_create(params, "subagent_cost_budget", a, lim, err) != 0)
        return -1;
    *instance = lim;
    return 0;
}

static int subagent_cost_budget_evaluate(const void *instance, const rp_event *ev,
                                         const rp_json *state, rp_eval_ctx *ctx, rp_result *out)
{
    const rp_json *usage = rp_cost_context_block(ev, "subtree_usage");
    rp_cost_view view = {
        .usage = usage,
        .cost = rp_cost_float(rp_json_get(usage, "total_cost_usd")),
        .approval_state_key = RP_COST_SUBAGENT_APPROVED,
        .approval_update_key = RP_COST_SUBAGENT_APPROVED,
        .policy_label = "subagent cost-budget",
        .budget_label = "subagent cost budget",
        .ask_style = RP_COST_ASK_SUBAGENT,
    };
    return rp_cost_evaluate(instance, &view, ev, state, ctx, out);
}

const rp_policy_type rp_policy_subagent_cost_budget = {
    .name = "subagent_cost_budget",
    .module = "omnigent.policies.builtins.cost",
    .description = "Gate a sub-agent on its own subtree's LLM spend, as set by its parent's "
                   "cost_budget.",
    .params = subagent_cost_budget_params,
    .n_params = sizeof subagent_cost_budget_params / sizeof subagent_cost_budget_params[0],
    .internal_only = true,
    .owned_keys = subagent_cost_budget_keys,
    .create = subagent_cost_budget_create,
    .evaluate = subagent_cost_budget_evaluate,
};
