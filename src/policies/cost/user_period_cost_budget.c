/* user_period_cost_budget — the owner's spend over all their sessions in the current UTC day,
 * ISO week, month, quarter or year against a cap and checkpoints (issue 6, from the seed; the
 * reference has no such policy). The daily policy's gate with the period's words. It reads
 * context.user_period_cost {cost_usd, ask_approved_usd, user_id, period, window_start}, which
 * the stateful engine fills from the ledger; its approval key is routed by the session layer to
 * the per-user-per-window store.
 *
 * Order (issue 6): no owner → abstain; unpriced usage → the unpriced ASK; window spend 0.0 →
 * abstain; hard limit; soft checkpoints. */
#include <string.h>

#include "cost/period.h"
#include "engine/policy.h"
#include "policies/builtins.h"
#include "cost/budget.h"

typedef struct user_period {
    rp_cost_limits lim;
    rp_cost_period period;
} user_period;

static const char *const period_names[] = {"day", "week", "month", "quarter", "year", NULL};

static const rp_param_spec user_period_cost_budget_params[] = {
    {.name = "period",
     .kind = RP_PARAM_STRING,
     .required = true,
     .enum_values = period_names,
     .description = "The UTC window: day, week (ISO, from Monday), month, quarter or year."},
    {.name = "max_cost_usd",
     .kind = RP_PARAM_NUMBER,
     .required = true,
     .description = "Hard limit in USD for the owner's spend in the window, > 0."},
    {.name = "ask_thresholds_usd",
     .kind = RP_PARAM_ARRAY,
     .description = "Soft checkpoints in USD, each in (0, max_cost_usd); an approval is "
                    "remembered per user and window."},
    {.name = "expensive_models",
     .kind = RP_PARAM_ARRAY,
     .description = "Case-insensitive substrings of the model tiers denied over the cap; omit "
                    "or [] to deny every model."},
};

static const char *const user_period_cost_budget_keys[] = {RP_COST_USER_PERIOD_APPROVED,
                                                           RP_COST_UNPRICED_KEY, NULL};

static int user_period_cost_budget_create(const rp_json *params, rp_arena *a, void **instance,
                                          rp_param_error *err)
{
    user_period *up = rp_arena_calloc(a, sizeof *up);
    const char *period = rp_json_get_str(params, "period");
    if (period == NULL || rp_cost_period_parse(period, &up->period) != 0)
        return rp_param_fail(err, "period",
                             "period must be one of day, week, month, quarter, year");
    if (rp_cost_limits_create(params, NULL, a, &up->lim, err) != 0)
        return -1;
    *instance = up;
    return 0;
}

static int user_period_cost_budget_evaluate(const void *instance, const rp_event *ev,
                                            const rp_json *state, rp_eval_ctx *ctx, rp_result *out)
{
    const user_period *up = instance;
    const char *want = rp_cost_period_name(up->period);
    const rp_json *block = rp_cost_context_block(ev, "user_period_cost");

    out->verdict = RP_ALLOW;
    if (ev->type != RP_EV_REQUEST && ev->type != RP_EV_TOOL_CALL)
        return 0;

    /* A sum over another window (a caller bug) must not be held against this limit. */
    const rp_json *given = rp_json_get(block, "period");
    if (given != NULL && !(rp_json_is_string(given) && strcmp(given->v.s, want) == 0)) {
        out->note = rp_arena_sprintf(ctx->arena,
                                     "context.user_period_cost is for another period than '%s': "
                                     "ignored",
                                     want);
        block = NULL;
    }

    const rp_json *user = rp_json_get(block, "user_id");
    const char *owner = rp_json_is_string(user) && user->len > 0 ? user->v.s : NULL;
    if (owner == NULL && ev->user != NULL && ev->user[0] != '\0')
        owner = ev->user;
    if (owner == NULL) {
        out->verdict = RP_ABSTAIN;
        return 0;
    }

    rp_cost_view view = {
        .usage = rp_cost_context_block(ev, "usage"),
        /* The window's spend comes from the ledger, not from context.usage, so an approved
         * unpriced session does not exempt the window's priced spend. */
        .continue_after_unpriced_approval = true,
        .cost = rp_cost_float(rp_json_get(block, "cost_usd")),
        .approved = rp_cost_float(rp_json_get(block, "ask_approved_usd")),
        .approval_update_key = RP_COST_USER_PERIOD_APPROVED,
        .abstain_on_zero = true,
        .policy_label = rp_arena_sprintf(ctx->arena, "per-user %s cost-budget",
                                         rp_cost_period_adjective(up->period)),
        .budget_label =
            rp_arena_sprintf(ctx->arena, "%s cost budget", rp_cost_period_adjective(up->period)),
        .owner = owner,
        .ask_style = RP_COST_ASK_USER,
        .adjective = rp_cost_period_adjective(up->period),
        .phrase = rp_cost_period_phrase(up->period),
    };
    const char *note = out->note;
    int rc = rp_cost_evaluate(&up->lim, &view, ev, state, ctx, out);
    out->note = note;
    return rc;
}

const rp_policy_type rp_policy_user_period_cost_budget = {
    .name = "user_period_cost_budget",
    .module = "omnigent.policies.builtins.cost",
    .description = "Gate the session owner's LLM spend across all their sessions in the current "
                   "UTC day, week, month, quarter or year.",
    .params = user_period_cost_budget_params,
    .n_params = sizeof user_period_cost_budget_params / sizeof user_period_cost_budget_params[0],
    .owned_keys = user_period_cost_budget_keys,
    .create = user_period_cost_budget_create,
    .evaluate = user_period_cost_budget_evaluate,
};
