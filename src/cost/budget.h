/* budget.h — what the four cost policies share (reference §5.8–5.10 and issue 6): the
 * validation of max_cost_usd / ask_thresholds_usd / expensive_models, one evaluation routine
 * parametrised by where the spend and the approval come from and by the labels of the texts,
 * and the check of a sub-agent's `cost_budget` argument.
 *
 * The order every cost policy follows: phase gate (request and tool_call only; others ALLOW),
 * the unpriced check, the hard cap (DENY unless the model is a cheaper one), the soft
 * checkpoints (ASK once per approval). */
#ifndef RAMPART_COST_BUDGET_H
#define RAMPART_COST_BUDGET_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"
#include "core/json.h"
#include "engine/event.h"
#include "engine/policy.h"

#define RP_COST_UNPRICED_KEY         "_policy_cost_unpriced_approved"
#define RP_COST_SESSION_APPROVED     "_policy_cost_ask_approved_usd"
#define RP_COST_SUBAGENT_APPROVED    "subagent_cost_ask_approved_usd"
#define RP_COST_USER_DAILY_APPROVED  "_policy_user_daily_ask_approved_usd"
#define RP_COST_USER_PERIOD_APPROVED "_policy_user_period_ask_approved_usd"

/* The validated limits of one instance. */
typedef struct rp_cost_limits {
    bool has_max;
    double max;
    double *thresholds; /* sorted ascending, no duplicates */
    size_t n_thresholds;
    const char **expensive; /* lower-cased substring tokens, in the given order */
    size_t n_expensive;     /* 0 = every model is blocked over the cap (null or []) */
} rp_cost_limits;

/* Validates params {max_cost_usd, ask_thresholds_usd, expensive_models} with the reference's
 * messages. `requires_name` non-NULL: max is optional but one of max and a non-empty threshold
 * list is required ("<requires_name> requires max_cost_usd and/or ask_thresholds_usd");
 * NULL: max is required (the schema says so). Returns 0 or rp_param_fail(). */
int rp_cost_limits_create(const rp_json *params, const char *requires_name, rp_arena *a,
                          rp_cost_limits *out, rp_param_error *err);

/* The soft checkpoint's text shape. */
typedef enum rp_cost_ask_style {
    RP_COST_ASK_SESSION = 0, /* "Session cost $X passed the $T warning threshold (limit $M)." */
    RP_COST_ASK_SUBAGENT,    /* "Subagent subtree cost $X passed …" */
    RP_COST_ASK_USER         /* "<owner>'s spend <phrase> $X passed the $T <adj> warning …" */
} rp_cost_ask_style;

/* Where one policy reads its numbers and what it calls them. */
typedef struct rp_cost_view {
    /* context.usage or context.subtree_usage: the unpriced check (NULL = none recorded). */
    const rp_json *usage;
    /* The unpriced flag was approved while total_cost_usd is absent: the reference ALLOWs there
     * (the spend cannot be measured). true makes the evaluation go on to the cap instead, for a
     * policy whose spend does not come from `usage` (user_period_cost_budget). */
    bool continue_after_unpriced_approval;
    /* The spend the limits apply to. */
    double cost;
    /* The highest approved checkpoint: read from session state under approval_state_key when
     * that is non-NULL (float(state.get(key, 0.0) or 0.0)), else `approved`. */
    const char *approval_state_key;
    double approved;
    const char *approval_update_key; /* SET to the crossed checkpoint on a soft ASK */
    bool abstain_on_zero;            /* spend 0.0 → ABSTAIN (user_period_cost_budget only) */
    const char *policy_label;        /* "session cost-budget" */
    const char *budget_label;        /* "cost budget" */
    const char *owner;               /* "<owner>'s spend" in DENY texts; NULL = "spend" */
    rp_cost_ask_style ask_style;
    const char *adjective; /* RP_COST_ASK_USER: "daily" */
    const char *phrase;    /* RP_COST_ASK_USER: "today" */
} rp_cost_view;

/* The whole decision. Returns 0 or rp_fail() (an approval value float() cannot convert). */
int rp_cost_evaluate(const rp_cost_limits *lim, const rp_cost_view *view, const rp_event *ev,
                     const rp_json *state, rp_eval_ctx *ctx, rp_result *out);

/* float(raw) of the reference with its fallback: numbers, bools and numeric strings convert,
 * anything else (absent, null, other strings, lists) gives 0.0. */
double rp_cost_float(const rp_json *raw);

/* context.<name> when it is an object, else NULL. */
const rp_json *rp_cost_context_block(const rp_event *ev, const char *name);

/* Validates a sub-agent's `cost_budget` argument (reference §5.10 runner rules): an object whose
 * values are numbers (not bools), max_cost_usd > 0, each threshold > 0 and < max, at least one
 * of the two present (null counts as absent), no other keys. *normalized becomes
 * {max_cost_usd?, ask_thresholds_usd?} with doubles, allocated in `a`. Returns 0, or -1 with
 * err set, e.g. "cost_budget.max_cost_usd must be > 0, got -1". */
int rp_cost_subagent_budget_check(const rp_json *budget, rp_arena *a, rp_json *normalized,
                                  char *err, size_t err_size);

#endif
