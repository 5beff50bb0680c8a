/* user_daily_cost_budget — the session owner's spend over all their sessions today (UTC)
 * against a daily cap and checkpoints (reference §5.9). Spend and approval come from
 * context.user_daily_cost, which the stateful engine fills from the ledger; the approval key is
 * routed by the session layer to the per-user-per-day store. The unpriced check reads
 * context.usage and the session flag, as in the reference. */
#include "engine/policy.h"
#include "policies/builtins.h"
#include "cost/budget.h"

static const rp_param_spec user_daily_cost_budget_params[] = {
    {.name = "max_cost_usd",
     .kind = RP_PARAM_NUMBER,
     .required = true,
     .description = "Hard daily limit in USD for the owner's spend (UTC day), > 0."},
    {.name = "ask_thresholds_usd",
     .kind = RP_PARAM_ARRAY,
     .description = "Soft daily checkpoints in USD, each in (0, max_cost_usd); an approval is "
                    "remembered per user and day."},
    {.name = "expensive_models",
     .kind = RP_PARAM_ARRAY,
     .description = "Case-insensitive substrings of the model tiers denied over the cap; omit "
                    "or [] to deny every model."},
};

static const char *const user_daily_cost_budget_keys[] = {RP_COST_USER_DAILY_APPROVED,
                                                          RP_COST_UNPRICED_KEY, NULL};

static int user_daily_cost_budget_create(const rp_json *params, rp_arena *a, void **instance,
                                         rp_param_error *err)
{
    rp_cost_limits *lim = rp_arena_calloc(a, sizeof *lim);
    if (rp_cost_limits_create(params, NULL, a, lim, err) != 0)
        return -1;
    *instance = lim;
    return 0;
}

static int user_daily_cost_budget_evaluate(const void *instance, const rp_event *ev,
                                           const rp_json *state, rp_eval_ctx *ctx, rp_result *out)
{
    const rp_json *daily = rp_cost_context_block(ev, "user_daily_cost");
    const rp_json *user = rp_json_get(daily, "user_id");
    rp_cost_view view = {
        .usage = rp_cost_context_block(ev, "usage"),
        .cost = rp_cost_float(rp_json_get(daily, "cost_usd")),
        .approved = rp_cost_float(rp_json_get(daily, "ask_approved_usd")),
        .approval_update_key = RP_COST_USER_DAILY_APPROVED,
        .policy_label = "per-user daily cost-budget",
        .budget_label = "daily cost budget",
        .owner = rp_json_is_string(user) && user->len > 0 ? user->v.s : NULL,
        .ask_style = RP_COST_ASK_USER,
        .adjective = "daily",
        .phrase = "today",
    };
    return rp_cost_evaluate(instance, &view, ev, state, ctx, out);
}

const rp_policy_type rp_policy_user_daily_cost_budget = {
    .name = "user_daily_cost_budget",
    .module = "omnigent.policies.builtins.cost",
    .description = "Gate the session owner's LLM spend across all their sessions for the "
                   "current UTC day.",
    .params = user_daily_cost_budget_params,
    .n_params = sizeof user_daily_cost_budget_params / sizeof user_daily_cost_budget_params[0],
    .owned_keys = user_daily_cost_budget_keys,
    .create = user_daily_cost_budget_create,
    .evaluate = user_daily_cost_budget_evaluate,
};
