/* budget.c — the validation and the one evaluation routine of the cost policies
 * (reference §5.8–5.10, issue 6). Each policy file only says where its spend and approval come
 * from and what its texts call them. */
#include "cost/budget.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/pynum.h"
#include "core/pyrepr.h"

#define UNPRICED_REASON                                                                            \
    "The active model has no catalog pricing so cumulative spend cannot be tracked. Continuing "   \
    "will allow untracked spend that counts against neither the cap nor the warning thresholds. "  \
    "Switch to a priced model to restore budget enforcement, or approve to continue without it."

/* The relay wrapper of a tool_call DENY, shared by both hard-cap texts. */
#define RELAY_TEXT                                                                                 \
    "Relay this to the user verbatim, then stop and wait for them \xe2\x80\x94 do not silently "   \
    "re-run the tool right now: "

/* ---- validation ---- */

static void repr_double(rp_buf *b, double d)
{
    rp_json v = rp_json_make_double(d);
    rp_py_repr(b, &v);
}

/* "<prefix><repr(value)>", or of the double when value is NULL (a threshold after float()). */
static int fail_with_value(rp_param_error *err, const char *param, const char *prefix,
                           const rp_json *value, double as_double)
{
    rp_buf b = {0};
    rp_buf_puts(&b, prefix);
    if (value == NULL)
        repr_double(&b, as_double);
    else
        rp_py_repr(&b, value);
    rp_param_fail(err, param, "%s", b.data ? b.data : "");
    rp_buf_free(&b);
    return -1;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static int thresholds_create(const rp_json *list, const rp_json *max_json, bool has_max, double max,
                             rp_arena *a, rp_cost_limits *out, rp_param_error *err)
{
    if (!rp_json_is_array(list) || list->len == 0)
        return 0;
    double *t = rp_arena_alloc(a, list->len * sizeof *t);
    for (uint32_t i = 0; i < list->len; i++) {
        const rp_json *item = &list->v.items[i];
        if (!rp_json_number(item, &t[i]) || !isfinite(t[i]))
            return fail_with_value(err, "ask_thresholds_usd",
                                   "each ask_thresholds_usd value must be a finite number, got ",
                                   item, 0);
    }
    qsort(t, list->len, sizeof *t, cmp_double);
    size_t n = 0;
    for (uint32_t i = 0; i < list->len; i++)
        if (n == 0 || t[n - 1] != t[i])
            t[n++] = t[i];
    for (size_t i = 0; i < n; i++) {
        if (has_max && !(t[i] > 0 && t[i] < max)) {
            rp_buf b = {0};
            rp_buf_puts(&b, "each ask_thresholds_usd value must be in (0, max_cost_usd=");
            rp_py_str(&b, max_json);
            rp_buf_puts(&b, "), got ");
            repr_double(&b, t[i]);
            rp_param_fail(err, "ask_thresholds_usd", "%s", b.data);
            rp_buf_free(&b);
            return -1;
        }
        /* The reference accepts any threshold when there is no cap, so a threshold <= 0 would
         * ask at zero spend on every call; rampart refuses it. */
        if (!has_max && !(t[i] > 0))
            return fail_with_value(err, "ask_thresholds_usd",
                                   "each ask_thresholds_usd value must be > 0, got ", NULL, t[i]);
    }
    out->thresholds = t;
    out->n_thresholds = n;
    return 0;
}

static int expensive_create(const rp_json *list, rp_arena *a, rp_cost_limits *out,
                            rp_param_error *err)
{
    if (!rp_json_is_array(list) || list->len == 0)
        return 0; /* null or []: every model is blocked over the cap */
    const char **tokens = rp_arena_alloc(a, list->len * sizeof *tokens);
    for (uint32_t i = 0; i < list->len; i++) {
        const rp_json *item = &list->v.items[i];
        if (!rp_json_is_string(item) || item->len == 0)
            return fail_with_value(err, "expensive_models",
                                   "each expensive_models value must be a non-empty string, got ",
                                   item, 0);
        tokens[i] = rp_py_lower(a, item->v.s, item->len, NULL);
    }
    out->expensive = tokens;
    out->n_expensive = list->len;
    return 0;
}

int rp_cost_limits_create(const rp_json *params, const char *requires_name, rp_arena *a,
                          rp_cost_limits *out, rp_param_error *err)
{
    const rp_json *max = rp_json_get(params, "max_cost_usd");
    const rp_json *thresholds = rp_json_get(params, "ask_thresholds_usd");
    const rp_json *expensive = rp_json_get(params, "expensive_models");
    bool has_max = max != NULL && max->type != RP_JSON_NULL;

    memset(out, 0, sizeof *out);
    if (requires_name != NULL && !has_max && !rp_json_truthy(thresholds))
        return rp_param_fail(err, "", "%s requires max_cost_usd and/or ask_thresholds_usd",
                             requires_name);
    if (!has_max && requires_name == NULL)
        return rp_param_fail(err, "max_cost_usd", "max_cost_usd is required");
    if (has_max) {
        if (!rp_json_number(max, &out->max))
            return fail_with_value(err, "max_cost_usd", "max_cost_usd must be a number, got ", max,
                                   0);
        if (out->max <= 0)
            return fail_with_value(err, "max_cost_usd", "max_cost_usd must be > 0, got ", max, 0);
        if (!isfinite(out->max))
            return fail_with_value(err, "max_cost_usd", "max_cost_usd must be finite, got ", max,
                                   0);
        out->has_max = true;
    }
    if (thresholds != NULL && thresholds->type != RP_JSON_NULL && !rp_json_is_array(thresholds))
        return fail_with_value(err, "ask_thresholds_usd",
                               "ask_thresholds_usd must be a list of numbers, got ", thresholds, 0);
    if (thresholds_create(thresholds, max, out->has_max, out->max, a, out, err) != 0)
        return -1;
    if (expensive != NULL && expensive->type != RP_JSON_NULL && !rp_json_is_array(expensive))
        return fail_with_value(err, "expensive_models",
                               "expensive_models must be a list of strings, got ", expensive, 0);
    return expensive_create(expensive, a, out, err);
}

/* ---- reading numbers as the reference does ---- */

double rp_cost_float(const rp_json *raw)
{
    double d;
    rp_pynum_float(raw, &d); /* 0.0 when float() would raise or raw is absent */
    return d;
}

const rp_json *rp_cost_context_block(const rp_event *ev, const char *name)
{
    const rp_json *v = rp_json_get(ev->context, name);
    return rp_json_is_object(v) ? v : NULL;
}

/* float(state.get(key, 0.0) or 0.0): a falsy value is 0.0, one float() refuses fails the
 * evaluation (the reference raises, and its engine turns that into DENY). */
static int state_approved(rp_eval_ctx *ctx, const rp_json *state, const char *key, double *out)
{
    const rp_json *v = rp_json_get(state, key);
    *out = 0.0;
    if (!rp_json_truthy(v))
        return 0;
    if (rp_pynum_float(v, out) != RP_PYNUM_OK)
        return rp_fail(ctx, "session state '%s' is not a number", key);
    return 0;
}

/* ---- evaluation ---- */

typedef enum unpriced_kind {
    PRICED = 0,
    UNPRICED_ALL,    /* tokens but no total_cost_usd: nothing was ever priced (reference) */
    UNPRICED_PARTIAL /* total_cost_usd present, unpriced_tokens > 0 (rampart, issue 6) */
} unpriced_kind;

static unpriced_kind usage_unpriced(const rp_json *usage)
{
    if (usage == NULL)
        return PRICED;
    if (rp_json_get(usage, "total_cost_usd") == NULL) {
        bool tokens = rp_json_truthy(rp_json_get(usage, "input_tokens")) ||
                      rp_json_truthy(rp_json_get(usage, "output_tokens")) ||
                      rp_json_truthy(rp_json_get(usage, "total_tokens"));
        return tokens ? UNPRICED_ALL : PRICED;
    }
    double unpriced = 0;
    if (rp_json_number(rp_json_get(usage, "unpriced_tokens"), &unpriced) && unpriced > 0)
        return UNPRICED_PARTIAL;
    return PRICED;
}

/* Whether the model must stop over the cap: every model when no tier is named, an unknown
 * model (fail closed), or one whose lower-cased id contains an expensive token. */
static bool model_blocked(const rp_cost_limits *lim, const char *model, rp_arena *a)
{
    if (lim->n_expensive == 0 || model == NULL || model[0] == '\0')
        return true;
    const char *low = rp_py_lower(a, model, strlen(model), NULL);
    for (size_t i = 0; i < lim->n_expensive; i++)
        if (strstr(low, lim->expensive[i]) != NULL)
            return true;
    return false;
}

static const char *deny_reason(const rp_cost_limits *lim, const rp_cost_view *view,
                               const rp_event *ev, double cost, rp_arena *a)
{
    rp_buf verbatim = {0}, b = {0};
    bool request = ev->type == RP_EV_REQUEST;

    rp_buf_printf(&verbatim, "You've hit the $%.2f %s. ", lim->max, view->budget_label);
    if (lim->n_expensive == 0) {
        rp_buf_puts(&verbatim, "All model calls are blocked over budget.");
    } else {
        rp_buf_puts(&verbatim, "High-cost models (");
        for (size_t i = 0; i < lim->n_expensive; i++)
            rp_buf_printf(&verbatim, "%s%s", i ? ", " : "", lim->expensive[i]);
        bool codex = ev->harness != NULL && strstr(ev->harness, "codex") != NULL;
        rp_buf_printf(&verbatim, ") are blocked over budget \xe2\x80\x94 %s.",
                      codex ? "in the terminal, run /model and pick a cheaper model to continue"
                            : "switch to a cheaper model to continue");
    }

    rp_buf_printf(&b, "Blocked by the %s policy: ", view->policy_label);
    if (view->owner != NULL)
        rp_buf_printf(&b, "%s's ", view->owner);
    rp_buf_printf(&b, "spend $%.2f reached the $%.2f limit", cost, lim->max);
    if (request) {
        rp_buf_printf(&b, ". %s", verbatim.data);
    } else if (lim->n_expensive == 0) {
        rp_buf_printf(&b, ", and all further tool calls are blocked. " RELAY_TEXT "\"%s\"",
                      verbatim.data);
    } else {
        rp_buf_printf(&b,
                      ", and tool calls are blocked while on a high-cost model. " RELAY_TEXT
                      "\"%s\" This block is NOT permanent: once the user switches to a cheaper "
                      "model and asks you to continue, actually re-issue the tool call (it will "
                      "be allowed) \xe2\x80\x94 do not just repeat this message.",
                      verbatim.data);
    }
    rp_buf_free(&verbatim);
    return rp_buf_to_arena(&b, a);
}

static const char *ask_reason(const rp_cost_limits *lim, const rp_cost_view *view, double cost,
                              double crossed, rp_arena *a)
{
    rp_buf b = {0};
    switch (view->ask_style) {
    case RP_COST_ASK_SESSION:
    case RP_COST_ASK_SUBAGENT:
        rp_buf_printf(&b, "%s $%.2f passed the $%.2f warning threshold",
                      view->ask_style == RP_COST_ASK_SESSION ? "Session cost"
                                                             : "Subagent subtree cost",
                      cost, crossed);
        if (lim->has_max)
            rp_buf_printf(&b, " (limit $%.2f)", lim->max);
        rp_buf_puts(&b, ". Continue?");
        break;
    case RP_COST_ASK_USER:
        if (view->owner != NULL) {
            rp_buf_printf(&b, "%s's spend %s", view->owner, view->phrase);
        } else {
            /* "Today's spend", "This month's spend" */
            rp_buf_printf(&b, "%c%s's spend", toupper((unsigned char)view->phrase[0]),
                          view->phrase + 1);
        }
        rp_buf_printf(&b,
                      " $%.2f passed the $%.2f %s warning threshold (%s limit $%.2f). Continue?",
                      cost, crossed, view->adjective, view->adjective, lim->max);
        break;
    }
    return rp_buf_to_arena(&b, a);
}

int rp_cost_evaluate(const rp_cost_limits *lim, const rp_cost_view *view, const rp_event *ev,
                     const rp_json *state, rp_eval_ctx *ctx, rp_result *out)
{
    out->verdict = RP_ALLOW;
    if (ev->type != RP_EV_REQUEST && ev->type != RP_EV_TOOL_CALL)
        return 0;

    unpriced_kind unpriced = usage_unpriced(view->usage);
    if (unpriced != PRICED) {
        if (!rp_json_truthy(rp_json_get(state, RP_COST_UNPRICED_KEY))) {
            out->verdict = RP_ASK;
            out->reason = UNPRICED_REASON;
            rp_result_add_update(ctx->arena, out, RP_COST_UNPRICED_KEY, RP_UPDATE_SET,
                                 rp_json_make_bool(true));
            return 0;
        }
        /* Approved. With nothing priced there is nothing to measure (the reference ALLOWs);
         * with a priced part, that part still goes through the cap and the checkpoints. */
        if (unpriced == UNPRICED_ALL && !view->continue_after_unpriced_approval)
            return 0;
    }

    double cost = view->cost;
    if (view->abstain_on_zero && cost == 0.0) {
        out->verdict = RP_ABSTAIN;
        return 0;
    }

    if (lim->has_max && cost >= lim->max) {
        if (model_blocked(lim, ev->model, ctx->arena)) {
            out->verdict = RP_DENY;
            out->reason = deny_reason(lim, view, ev, cost, ctx->arena);
        }
        return 0; /* over the cap on a cheaper model: the downgrade gate is satisfied */
    }

    double crossed = 0;
    bool any = false;
    for (size_t i = 0; i < lim->n_thresholds; i++) {
        if (cost >= lim->thresholds[i]) {
            crossed = lim->thresholds[i];
            any = true;
        }
    }
    if (!any)
        return 0;
    double approved = view->approved;
    if (view->approval_state_key != NULL &&
        state_approved(ctx, state, view->approval_state_key, &approved) != 0)
        return -1;
    if (crossed > approved) {
        out->verdict = RP_ASK;
        out->reason = ask_reason(lim, view, cost, crossed, ctx->arena);
        rp_result_add_update(ctx->arena, out, view->approval_update_key, RP_UPDATE_SET,
                             rp_json_make_double(crossed));
    }
    return 0;
}

/* ---- a sub-agent's cost_budget argument ---- */

static int budget_fail(char *err, size_t err_size, const char *prefix, const rp_json *value)
{
    rp_buf b = {0};
    rp_buf_puts(&b, prefix);
    if (value != NULL)
        rp_py_repr(&b, value);
    snprintf(err, err_size, "%s", b.data ? b.data : "");
    rp_buf_free(&b);
    return -1;
}

int rp_cost_subagent_budget_check(const rp_json *budget, rp_arena *a, rp_json *normalized,
                                  char *err, size_t err_size)
{
    if (err_size > 0)
        err[0] = '\0';
    if (!rp_json_is_object(budget))
        return budget_fail(err, err_size, "cost_budget must be an object, got ", budget);
    for (uint32_t i = 0; i < budget->len; i++) {
        const char *k = budget->v.members[i].key;
        if (strcmp(k, "max_cost_usd") != 0 && strcmp(k, "ask_thresholds_usd") != 0) {
            snprintf(err, err_size,
                     "cost_budget: unknown key '%s' (known: max_cost_usd, ask_thresholds_usd)", k);
            return -1;
        }
    }
    const rp_json *max = rp_json_get(budget, "max_cost_usd");
    const rp_json *thr = rp_json_get(budget, "ask_thresholds_usd");
    if (max != NULL && max->type == RP_JSON_NULL)
        max = NULL;
    if (thr != NULL && thr->type == RP_JSON_NULL)
        thr = NULL;
    if (max == NULL && thr == NULL)
        return budget_fail(err, err_size,
                           "cost_budget needs max_cost_usd and/or ask_thresholds_usd", NULL);

    rp_json out = rp_json_make_object();
    double m = 0;
    if (max != NULL) {
        if (!rp_json_number(max, &m) || !isfinite(m))
            return budget_fail(err, err_size, "cost_budget.max_cost_usd must be a number, got ",
                               max);
        if (!(m > 0))
            return budget_fail(err, err_size, "cost_budget.max_cost_usd must be > 0, got ", max);
        rp_json_object_set(a, &out, "max_cost_usd", rp_json_make_double(m));
    }
    if (thr != NULL) {
        if (!rp_json_is_array(thr))
            return budget_fail(err, err_size,
                               "cost_budget.ask_thresholds_usd must be a list of numbers, got ",
                               thr);
        rp_json list = rp_json_make_array();
        for (uint32_t i = 0; i < thr->len; i++) {
            const rp_json *item = &thr->v.items[i];
            double t = 0;
            if (!rp_json_number(item, &t) || !isfinite(t))
                return budget_fail(err, err_size,
                                   "cost_budget.ask_thresholds_usd values must be numbers, got ",
                                   item);
            if (!(t > 0))
                return budget_fail(err, err_size,
                                   "cost_budget.ask_thresholds_usd values must be > 0, got ", item);
            if (max != NULL && !(t < m)) {
                rp_buf b = {0};
                rp_buf_puts(&b, "cost_budget.ask_thresholds_usd values must be < max_cost_usd (");
                rp_py_repr(&b, max);
                rp_buf_puts(&b, "), got ");
                rp_py_repr(&b, item);
                snprintf(err, err_size, "%s", b.data);
                rp_buf_free(&b);
                return -1;
            }
            rp_json_array_push(a, &list, rp_json_make_double(t));
        }
        if (list.len == 0 && max == NULL)
            return budget_fail(err, err_size,
                               "cost_budget needs max_cost_usd and/or ask_thresholds_usd", NULL);
        if (list.len > 0)
            rp_json_object_set(a, &out, "ask_thresholds_usd", list);
    }
    *normalized = out;
    return 0;
}
