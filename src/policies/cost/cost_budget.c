/* cost_budget — the session's (whole spawn tree's) spend against a hard cap and soft
 * checkpoints (reference §5.8). Spend is context.usage.total_cost_usd; the approved checkpoint
 * is session state, which the session layer routes to the root so one approval covers the
 * tree. The logic is src/cost/budget.c's. */
#include "engine/policy.h"
#include "policies/builtins.h"
#include "cost/budget.h"

static const rp_param_spec cost_budget_params[] = {
    {.name = "max_cost_usd",
     .kind = RP_PARAM_NUMBER,
     .description = "Hard limit in USD for the session's spend (optional when thresholds are "
                    "given); over it, expensive models (or every model) are denied."},
    {.name = "ask_thresholds_usd",
     .kind = RP_PARAM_ARRAY,
     .description = "Soft checkpoints in USD; each asks once (per approval) when spend first "
                    "passes it. Each must be in (0, max_cost_usd)."},
    {.name = "expensive_models",
     .kind = RP_PARAM_ARRAY,
     .description = "Case-insensitive substrings of the model tiers denied over the cap; omit "
                    "or [] to deny every model."},
};

static const char *const cost_budget_keys[] = {RP_COST_SESSION_APPROVED, RP_COST_UNPRICED_KEY,
                                               NULL};

static int cost_budget_create(const rp_json *params, rp_arena *a, void **instance,
                              rp_param_error *err)
{
    rp_cost_limits *lim = rp_arena_calloc(a, sizeof *lim);
    if (rp_cost_limits_create(params, "cost_budget", a, lim, err) != 0)
        return -1;
    *instance = lim;
    return 0;
}

static int cost_budget_evaluate(const void *instance, const rp_event *ev, const rp_json *state,
                                rp_eval_ctx *ctx, rp_result *out)
{
    const rp_json *usage = rp_cost_context_block(ev, "usage");
    rp_cost_view view = {
        .usage = usage,
        .cost = rp_cost_float(rp_json_get(usage, "total_cost_usd")),
        .approval_state_key = RP_COST_SESSION_APPROVED,
        .approval_update_key = RP_COST_SESSION_APPROVED,
        .policy_label = "session cost-budget",
        .budget_label = "cost budget",
        .ask_style = RP_COST_ASK_SESSION,
    };
    return rp_cost_evaluate(instance, &view, ev, state, ctx, out);
}

const rp_policy_type rp_policy_cost_budget = {
    .name = "cost_budget",
    .module = "omnigent.policies.builtins.cost",
    .description = "Gate a session on its cumulative LLM spend: ask at soft checkpoints, deny "
                   "expensive models over a hard cap.",
    .params = cost_budget_params,
    .n_params = sizeof cost_budget_params / sizeof cost_budget_params[0],
    .owned_keys = cost_budget_keys,
    .create = cost_budget_create,
    .evaluate = cost_budget_evaluate,
};
