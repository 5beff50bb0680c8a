/* detect_thrashing — ASK (or DENY) when tool results keep failing: `consecutive_threshold`
 * errors in a row, or an error rate of at least `window_error_rate` over the last `window`
 * results (reference §5.22).
 *
 * Whether a result is an error is the host's own signal when the event carries one
 * (data.is_error, a boolean: the adapters read it from failure events, exit codes and error
 * flags, src/hosts/tool_result.h); without it, the reference's textual heuristic on the first
 * 500 characters of data.result. The history of 0/1 outcomes lives in session state and is
 * written back with every verdict; it is not reset when the policy fires.
 *
 * Beyond the reference: a result comes after its tool ran, so nobody can be asked then. While
 * the history shows the agent thrashing, the next tool_call gets the verdict too, where the
 * host can ask a person (an approval clears the history: the person has looked); a new user
 * prompt (request) clears it as well, as the redirect the reason asks for. */
#include <math.h>
#include <string.h>

#include "engine/policy.h"
#include "policies/builtins.h"
#include "policies/common/common.h"
#include "core/pyrepr.h"
#include "core/utf8.h"

#define RESULTS_KEY "_thrashing_results"
#define SCAN_CHARS  500

typedef struct detect_thrashing {
    int64_t consecutive_threshold;
    int64_t window; /* max(window, 1) */
    double window_error_rate;
    rp_verdict action;
} detect_thrashing;

static const char *const action_values[] = {"ASK", "DENY", NULL};

static const rp_param_spec detect_thrashing_params[] = {
    {.name = "consecutive_threshold",
     .kind = RP_PARAM_INT,
     .default_json = "5",
     .has_min = true,
     .min = 0,
     .description = "Errors in a row that trigger the action; 0 disables this check."},
    {.name = "window",
     .kind = RP_PARAM_INT,
     .default_json = "10",
     .has_min = true,
     .min = 0,
     .description = "Results the error rate is computed over (0 behaves as 1)."},
    {.name = "window_error_rate",
     .kind = RP_PARAM_NUMBER,
     .default_json = "0.8",
     .has_min = true,
     .min = 0,
     .has_max = true,
     .max = 1,
     .description = "Error rate over the window that triggers the action; 0 disables it."},
    {.name = "action",
     .kind = RP_PARAM_STRING,
     .default_json = "\"ASK\"",
     .enum_values = action_values,
     .description = "ASK or DENY."},
};

static const char *const detect_thrashing_keys[] = {RESULTS_KEY, NULL};

static int detect_thrashing_create(const rp_json *params, rp_arena *a, void **instance,
                                   rp_param_error *err)
{
    const rp_json *ct = rp_json_get(params, "consecutive_threshold");
    const rp_json *window = rp_json_get(params, "window");
    const rp_json *rate = rp_json_get(params, "window_error_rate");
    const char *action = rp_json_get_str(params, "action");
    double rate_value;

    if (ct == NULL || ct->type != RP_JSON_INT || ct->v.i < 0)
        return rp_param_fail(err, "consecutive_threshold",
                             "consecutive_threshold must be an integer >= 0");
    if (window == NULL || window->type != RP_JSON_INT || window->v.i < 0)
        return rp_param_fail(err, "window", "window must be an integer >= 0");
    if (!rp_json_number(rate, &rate_value) || !(rate_value >= 0 && rate_value <= 1))
        return rp_param_fail(err, "window_error_rate",
                             "window_error_rate must be a number in [0, 1]");
    if (action == NULL || (strcmp(action, "ASK") != 0 && strcmp(action, "DENY") != 0))
        return rp_param_fail(err, "action", "action must be 'ASK' or 'DENY', got '%s'",
                             action ? action : "");

    detect_thrashing *d = rp_arena_calloc(a, sizeof *d);
    d->consecutive_threshold = ct->v.i;
    d->window = window->v.i < 1 ? 1 : window->v.i; /* the reference uses max(window, 1) */
    d->window_error_rate = rate_value;
    d->action = strcmp(action, "DENY") == 0 ? RP_DENY : RP_ASK;
    *instance = d;
    return 0;
}

static bool starts_with(const char *s, size_t n, const char *prefix)
{
    size_t len = strlen(prefix);
    return n >= len && memcmp(s, prefix, len) == 0;
}

/* re.match(r'\s*\{[^}]*"error"\s*:', text, re.DOTALL) */
static bool looks_like_json_error(const char *s, size_t n)
{
    size_t pos = 0;
    uint32_t cp;

    while (pos < n) {
        size_t len = rp_utf8_decode(s + pos, n - pos, &cp, RP_UTF8_AS_BYTE);
        if (!rp_py_isspace(cp))
            break;
        pos += len;
    }
    if (pos >= n || s[pos] != '{')
        return false;
    for (pos++; pos < n && s[pos] != '}'; pos++) {
        if (!starts_with(s + pos, n - pos, "\"error\""))
            continue;
        size_t after = pos + 7;
        while (after < n) {
            size_t len = rp_utf8_decode(s + after, n - after, &cp, RP_UTF8_AS_BYTE);
            if (!rp_py_isspace(cp))
                break;
            after += len;
        }
        if (after < n && s[after] == ':')
            return true;
    }
    return false;
}

static bool is_error_result(const char *text, size_t n, rp_arena *a)
{
    static const char *const prefixes[] = {
        "error:",
        "error -",
        "failed:",
        "traceback (most recent call last)",
        "exception:",
        "fatal:",
        "command failed",
        "permission denied",
        "no such file or directory",
        "enoent:",
        "eacces:",
        "eperm:",
    };

    if (n == 0)
        return false;
    size_t head = rp_py_prefix_bytes(text, n, SCAN_CHARS);
    size_t lower_len, start, stripped_len;
    char *lower = rp_py_lower(a, text, head, &lower_len);
    /* lstrip only: rp_py_strip also trims the end, which cannot change a prefix test. */
    rp_py_strip(lower, lower_len, &start, &stripped_len);
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (starts_with(lower + start, stripped_len, prefixes[i]))
            return true;
    return looks_like_json_error(text, head);
}

/* The stored history is used only when it is a list of ints (bools count, as in Python). */
static bool history_is_valid(const rp_json *h)
{
    if (!rp_json_is_array(h))
        return false;
    for (uint32_t i = 0; i < h->len; i++) {
        rp_json_type t = h->v.items[i].type;
        if (t != RP_JSON_INT && t != RP_JSON_UINT && t != RP_JSON_BOOL)
            return false;
    }
    return true;
}

static double outcome_value(const rp_json *v)
{
    switch (v->type) {
    case RP_JSON_BOOL:
        return v->v.b ? 1.0 : 0.0;
    case RP_JSON_INT:
        return (double)v->v.i;
    case RP_JSON_UINT:
        return (double)v->v.u;
    default:
        return 0.0;
    }
}

static bool outcome_is_one(const rp_json *v)
{
    return (v->type == RP_JSON_INT && v->v.i == 1) || (v->type == RP_JSON_BOOL && v->v.b);
}

/* The verdict the outcomes items[0..n) call for: RP_ALLOW, or d->action with *reason. */
static rp_verdict judge(const detect_thrashing *d, const rp_json *items, size_t n, rp_arena *a,
                        const char **reason)
{
    bool consecutive = false;
    if (d->consecutive_threshold > 0 && n >= (size_t)d->consecutive_threshold) {
        consecutive = true;
        for (size_t i = n - (size_t)d->consecutive_threshold; i < n; i++)
            if (!outcome_is_one(&items[i]))
                consecutive = false;
    }
    if (consecutive) {
        *reason = rp_arena_sprintf(
            a,
            "The agent has hit %lld consecutive tool errors. It may be stuck \xe2\x80\x94 review "
            "and redirect, or start a fresh session.",
            (long long)d->consecutive_threshold);
        return d->action;
    }
    if (d->window_error_rate > 0 && n >= (size_t)d->window) {
        double errors = 0;
        for (size_t i = n - (size_t)d->window; i < n; i++)
            errors += outcome_value(&items[i]);
        double rate = errors / (double)d->window;
        if (rate >= d->window_error_rate) {
            /* int(rate * 100): truncation toward zero, as Python prints it. */
            *reason = rp_arena_sprintf(
                a,
                "The agent has a %.0f%% error rate over the last %lld tool calls. It may be "
                "stuck \xe2\x80\x94 review and redirect, or start a fresh session.",
                trunc(rate * 100.0), (long long)d->window);
            return d->action;
        }
    }
    return RP_ALLOW;
}

/* A tool_call or a request while the stored history shows thrashing (see the top). Otherwise
 * abstain, as the reference does on every event but tool_result. */
static int judge_stored(const detect_thrashing *d, const rp_event *ev, const rp_json *state,
                        rp_eval_ctx *ctx, rp_result *out)
{
    const rp_json *stored = rp_json_get(state, RESULTS_KEY);
    if (!history_is_valid(stored) || stored->len == 0)
        return 0;
    const char *reason = NULL;
    rp_verdict v = judge(d, stored->v.items, stored->len, ctx->arena, &reason);
    if (v == RP_ALLOW)
        return 0;
    if (ev->type == RP_EV_REQUEST) {
        out->verdict = RP_ALLOW;
    } else {
        out->verdict = v;
        out->reason = reason;
        if (v == RP_DENY)
            return 0; /* DENY keeps blocking until a prompt redirects the agent */
    }
    /* On an ASK this is withheld and applies only when the person approves. */
    rp_result_add_update(ctx->arena, out, RESULTS_KEY, RP_UPDATE_SET, rp_json_make_array());
    return 0;
}

static int detect_thrashing_evaluate(const void *instance, const rp_event *ev, const rp_json *state,
                                     rp_eval_ctx *ctx, rp_result *out)
{
    const detect_thrashing *d = instance;

    if (ev->type == RP_EV_TOOL_CALL || ev->type == RP_EV_REQUEST)
        return judge_stored(d, ev, state, ctx, out);
    if (ev->type != RP_EV_TOOL_RESULT || !rp_json_is_object(ev->data))
        return 0; /* abstain */

    /* The host's signal when it gave one, else the reference's heuristic on data.result
     * (stringified when it is not a string; absent means ""). */
    const rp_json *is_error = rp_json_get(ev->data, "is_error");
    int outcome;
    if (is_error && is_error->type == RP_JSON_BOOL) {
        outcome = is_error->v.b ? 1 : 0;
    } else {
        const rp_json *result = rp_json_get(ev->data, "result");
        const char *text = "";
        size_t text_len = 0;
        rp_buf str = {0};
        if (rp_json_is_string(result)) {
            text = result->v.s;
            text_len = result->len;
        } else if (result != NULL) {
            rp_py_str(&str, result);
            text_len = str.len;
            text = rp_buf_to_arena(&str, ctx->arena);
        }
        outcome = is_error_result(text, text_len, ctx->arena) ? 1 : 0;
    }

    const rp_json *stored = rp_json_get(state, RESULTS_KEY);
    uint32_t n_history = history_is_valid(stored) ? stored->len : 0;
    size_t keep =
        (size_t)(d->window > d->consecutive_threshold ? d->window : d->consecutive_threshold);
    size_t total = (size_t)n_history + 1;
    size_t skip = total > keep ? total - keep : 0;

    rp_json updated = rp_json_make_array();
    for (uint32_t i = (uint32_t)skip; i < n_history; i++)
        rp_json_array_push(ctx->arena, &updated, stored->v.items[i]);
    rp_json_array_push(ctx->arena, &updated, rp_json_make_int(outcome));

    out->verdict = judge(d, updated.v.items, updated.len, ctx->arena, &out->reason);
    rp_result_add_update(ctx->arena, out, RESULTS_KEY, RP_UPDATE_SET, updated);
    return 0;
}

const rp_policy_type rp_policy_detect_thrashing = {
    .name = "detect_thrashing",
    .module = "omnigent.policies.builtins.context",
    .description = "Ask or deny when tool results keep failing (a streak or a high error rate).",
    .params = detect_thrashing_params,
    .n_params = sizeof detect_thrashing_params / sizeof detect_thrashing_params[0],
    .owned_keys = detect_thrashing_keys,
    .create = detect_thrashing_create,
    .evaluate = detect_thrashing_evaluate,
};
