/* risk_score_policy — a per-session risk score that tool calls and sensitive results raise, and
 * that gates the guarded tools once it reaches a threshold (reference §5.21).
 *
 * The score is initial_scores_by_actor[context.actor.run_as] (default 0) plus int() of the value
 * stored under `state_key`. A guarded tool at or above the threshold gets `escalate_action`
 * and scores nothing; otherwise a tool call adds the points of every tool_points entry it
 * matches. A tool result whose labels (under `label_keys`, at any depth up to 20) match
 * `sensitive_labels` adds the highest matching points. A tool name matches an entry when it is
 * that name or ends with "__" + name, so MCP prefixes do not matter. */
#include <math.h>
#include <string.h>

#include "engine/policy.h"
#include "policies/builtins.h"
#include "policies/common/common.h"
#include "core/pynum.h"
#include "core/pyrepr.h"
#include "policies/registry.h"

#define LABEL_MAX_DEPTH 20

typedef struct named_points {
    const char *name;
    size_t len;
    rp_pynum points;
} named_points;

typedef struct risk_score {
    rp_pynum threshold;
    named_points *tool_points;
    size_t n_tool_points;
    named_points *sensitive; /* label keys lower-cased */
    size_t n_sensitive;
    const char **guarded;
    size_t n_guarded;
    rp_verdict escalate;
    const rp_json *initial_scores; /* object actor → number */
    const char *state_key;
    const char **label_keys;
    size_t n_label_keys;
    const char *reason;
} risk_score;

static const char *const escalate_values[] = {"ASK", "DENY", NULL};

static const rp_param_spec risk_score_params[] = {
    {.name = "threshold",
     .kind = RP_PARAM_NUMBER,
     .default_json = "50",
     .description = "Score at which guarded tools escalate."},
    {.name = "tool_points",
     .kind = RP_PARAM_OBJECT,
     .default_json = "{}",
     .description = "Tool name → points added when it is called."},
    {.name = "sensitive_labels",
     .kind = RP_PARAM_OBJECT,
     .default_json = "{}",
     .description = "Label → points added when a tool result carries it (case-insensitive)."},
    {.name = "guarded_tools",
     .kind = RP_PARAM_STRING_LIST,
     .default_json = "[]",
     .description = "Tools that escalate once the score reaches the threshold."},
    {.name = "escalate_action",
     .kind = RP_PARAM_STRING,
     .default_json = "\"ASK\"",
     .enum_values = escalate_values,
     .description = "ASK or DENY."},
    {.name = "initial_scores_by_actor",
     .kind = RP_PARAM_OBJECT,
     .default_json = "{}",
     .description = "context.actor.run_as → starting score."},
    {.name = "state_key",
     .kind = RP_PARAM_STRING,
     .default_json = "\"risk_score\"",
     .description = "Session-state key holding the accumulated score."},
    {.name = "label_keys",
     .kind = RP_PARAM_STRING_LIST,
     .default_json = "[\"label_classification\", \"classification\", \"sensitivity\", "
                     "\"sensitivity_label\", \"dlp_label\"]",
     .description = "Keys whose string values are read as labels in tool results."},
    {.name = "reason",
     .kind = RP_PARAM_STRING,
     .default_json = "\"Elevated session risk.\"",
     .description = "The start of the escalation reason."},
};

/* ---- create ---- */

static bool key_seen_before(const rp_json *obj, uint32_t i)
{
    for (uint32_t j = 0; j < i; j++)
        if (obj->v.members[j].key_len == obj->v.members[i].key_len &&
            memcmp(obj->v.members[j].key, obj->v.members[i].key, obj->v.members[i].key_len) == 0)
            return true;
    return false;
}

/* name → number object as a Python dict would hold it (last duplicate wins); lower-cases the
 * names when `lower` (later keys that lower the same replace earlier ones). */
static int points_table(const rp_json *obj, const char *param, bool lower, rp_arena *a,
                        named_points **out, size_t *n, rp_param_error *err)
{
    if (!rp_json_is_object(obj))
        return rp_param_fail(err, param, "%s must be an object of name to points", param);
    named_points *t = rp_arena_calloc(a, (obj->len + 1) * sizeof *t);
    size_t count = 0;
    for (uint32_t i = 0; i < obj->len; i++) {
        const rp_json_member *m = &obj->v.members[i];
        rp_pynum points;
        if (rp_pynum_from_json(&m->value, RP_PYNUM_BOOL_NOT_NUMBER, &points) != RP_PYNUM_OK)
            return rp_param_fail(err, param, "%s['%s'] must be a number, got %s", param, m->key,
                                 rp_json_type_name(m->value.type));
        /* Stricter than the reference: negative points would let a tool (or a label an agent
         * can plant in a result) lower the session's score. */
        double as_double = 0;
        if (rp_json_number(&m->value, &as_double) && as_double < 0)
            return rp_param_fail(err, param, "%s['%s'] must be >= 0, got %g", param, m->key,
                                 as_double);
        size_t len = m->key_len;
        const char *name = lower ? rp_py_lower(a, m->key, m->key_len, &len)
                                 : rp_arena_strndup(a, m->key, m->key_len);
        size_t k;
        for (k = 0; k < count; k++)
            if (t[k].len == len && memcmp(t[k].name, name, len) == 0)
                break;
        if (k == count) {
            t[count].name = name;
            t[count].len = len;
            count++;
        }
        t[k].points = points;
    }
    *out = t;
    *n = count;
    return 0;
}

static int risk_score_create(const rp_json *params, rp_arena *a, void **instance,
                             rp_param_error *err)
{
    risk_score *r = rp_arena_calloc(a, sizeof *r);

    if (rp_pynum_from_json(rp_json_get(params, "threshold"), RP_PYNUM_BOOL_NOT_NUMBER,
                           &r->threshold) != RP_PYNUM_OK)
        return rp_param_fail(err, "threshold", "threshold must be a number");
    if (points_table(rp_json_get(params, "tool_points"), "tool_points", false, a, &r->tool_points,
                     &r->n_tool_points, err) < 0)
        return -1;
    if (points_table(rp_json_get(params, "sensitive_labels"), "sensitive_labels", true, a,
                     &r->sensitive, &r->n_sensitive, err) < 0)
        return -1;

    const rp_json *initial = rp_json_get(params, "initial_scores_by_actor");
    if (!rp_json_is_object(initial))
        return rp_param_fail(err, "initial_scores_by_actor",
                             "initial_scores_by_actor must be an object of actor to score");
    for (uint32_t i = 0; i < initial->len; i++) {
        rp_pynum ignored;
        if (rp_pynum_from_json(&initial->v.members[i].value, RP_PYNUM_BOOL_NOT_NUMBER, &ignored) !=
            RP_PYNUM_OK)
            return rp_param_fail(err, "initial_scores_by_actor",
                                 "initial_scores_by_actor['%s'] must be a number",
                                 initial->v.members[i].key);
    }
    r->initial_scores = initial;

    const rp_json *escalate = rp_json_get(params, "escalate_action");
    const char *action = rp_json_str(escalate);
    if (action != NULL && strcmp(action, "ASK") == 0) {
        r->escalate = RP_ASK;
    } else if (action != NULL && strcmp(action, "DENY") == 0) {
        r->escalate = RP_DENY;
    } else {
        rp_buf b = {0};
        rp_py_repr(&b, escalate);
        rp_param_fail(err, "escalate_action",
                      "risk_score_policy: escalate_action must be one of ['ASK', 'DENY'], got %s",
                      b.data ? b.data : "None");
        rp_buf_free(&b);
        return -1;
    }

    const char *state_key = rp_json_get_str(params, "state_key");
    if (state_key == NULL || state_key[0] == '\0')
        return rp_param_fail(err, "state_key", "state_key must be a non-empty string");
    /* Another builtin's key would let this policy rewrite, say, the tool-call budget. */
    if (strcmp(state_key, "risk_score") != 0 && rp_registry_key_reserved(state_key))
        return rp_param_fail(err, "state_key",
                             "state_key '%s' is reserved by another builtin policy", state_key);
    r->state_key = rp_arena_strdup(a, state_key);

    const char *reason = rp_json_get_str(params, "reason");
    if (reason == NULL)
        return rp_param_fail(err, "reason", "reason must be a string");
    r->reason = rp_arena_strdup(a, reason);

    const rp_json *guarded = rp_json_get(params, "guarded_tools");
    const rp_json *label_keys = rp_json_get(params, "label_keys");
    if (!rp_json_is_array(guarded))
        return rp_param_fail(err, "guarded_tools", "guarded_tools must be a list of tool names");
    if (!rp_json_is_array(label_keys))
        return rp_param_fail(err, "label_keys", "label_keys must be a list of strings");
    r->guarded = rp_pol_string_list(guarded, a, &r->n_guarded);
    r->label_keys = rp_pol_string_list(label_keys, a, &r->n_label_keys);
    *instance = r;
    return 0;
}

static const char *risk_score_owned_key(const void *instance)
{
    const risk_score *r = instance;
    return r ? r->state_key : "risk_score";
}

/* ---- evaluate ---- */

static bool tool_matches(const char *raw, const char *name, size_t name_len)
{
    size_t raw_len = strlen(raw);
    if (raw_len == name_len && memcmp(raw, name, name_len) == 0)
        return true;
    return raw_len >= name_len + 2 && memcmp(raw + raw_len - name_len, name, name_len) == 0 &&
           raw[raw_len - name_len - 1] == '_' && raw[raw_len - name_len - 2] == '_';
}

static int current_score(const risk_score *r, const rp_event *ev, const rp_json *state,
                         rp_eval_ctx *ctx, rp_pynum *score)
{
    int64_t acc;
    rp_pynum initial = {0}, stored = {0};
    const char *actor = rp_json_get_str(ev->actor, "run_as");

    if (rp_pol_state_int(ctx, state, r->state_key, &acc) < 0)
        return -1;
    if (actor != NULL)
        rp_pynum_from_json(rp_json_get(r->initial_scores, actor), RP_PYNUM_BOOL_NOT_NUMBER,
                           &initial); /* checked at create */
    stored.i = acc;
    if (rp_pynum_add(initial, stored, score) != RP_PYNUM_OK)
        return rp_fail(ctx, "the risk score is beyond a 64-bit integer");
    return 0;
}

static int score_tool_call(const risk_score *r, const rp_event *ev, const rp_json *state,
                           rp_eval_ctx *ctx, rp_result *out)
{
    const char *raw = ev->tool_name ? ev->tool_name : "";
    rp_pynum score;

    /* Computed first, as the reference does, so a corrupt stored score fails every tool call. */
    if (current_score(r, ev, state, ctx, &score) < 0)
        return -1;
    bool guarded = false;
    for (size_t i = 0; i < r->n_guarded && !guarded; i++)
        guarded = tool_matches(raw, r->guarded[i], strlen(r->guarded[i]));
    if (guarded) {
        if (rp_pynum_ge(score, r->threshold)) {
            rp_buf b = {0};
            rp_buf_printf(&b, "%s Session risk score ", r->reason);
            rp_pynum_repr(&b, score);
            rp_buf_puts(&b, " \xe2\x89\xa5 threshold ");
            rp_pynum_repr(&b, r->threshold);
            rp_buf_printf(&b, "; %s requires review.", raw);
            out->verdict = r->escalate;
            out->reason = rp_buf_to_arena(&b, ctx->arena);
            return 0;
        }
    }

    rp_pynum points = {0};
    for (size_t i = 0; i < r->n_tool_points; i++)
        if (tool_matches(raw, r->tool_points[i].name, r->tool_points[i].len))
            if (rp_pynum_add(points, r->tool_points[i].points, &points) != RP_PYNUM_OK)
                return rp_fail(ctx, "the points of this tool are beyond a 64-bit integer");
    if (rp_pynum_as_double(points) > 0) {
        out->verdict = RP_ALLOW;
        rp_result_add_update(ctx->arena, out, r->state_key, RP_UPDATE_INCREMENT,
                             rp_pynum_to_json(points));
    }
    return 0;
}

/* Highest points of any sensitive label found under label_keys, walking up to depth 20. */
static void collect_labels(const risk_score *r, const rp_json *node, int depth, rp_arena *a,
                           bool *found, rp_pynum *best)
{
    if (node == NULL || depth > LABEL_MAX_DEPTH)
        return;
    if (node->type == RP_JSON_OBJECT) {
        for (size_t k = 0; k < r->n_label_keys; k++) {
            const rp_json *v = rp_json_get(node, r->label_keys[k]);
            if (!rp_json_is_string(v))
                continue;
            size_t start, len, lower_len;
            rp_py_strip(v->v.s, v->len, &start, &len);
            const char *label = rp_py_lower(a, v->v.s + start, len, &lower_len);
            for (size_t i = 0; i < r->n_sensitive; i++) {
                if (r->sensitive[i].len != lower_len ||
                    memcmp(r->sensitive[i].name, label, lower_len) != 0)
                    continue;
                if (!*found || !rp_pynum_ge(*best, r->sensitive[i].points))
                    *best = r->sensitive[i].points;
                *found = true;
            }
        }
        for (uint32_t i = 0; i < node->len; i++)
            if (!key_seen_before(node, i))
                collect_labels(
                    r, rp_json_getn(node, node->v.members[i].key, node->v.members[i].key_len),
                    depth + 1, a, found, best);
    } else if (node->type == RP_JSON_ARRAY) {
        for (uint32_t i = 0; i < node->len; i++)
            collect_labels(r, &node->v.items[i], depth + 1, a, found, best);
    }
}

static int score_tool_result(const risk_score *r, const rp_event *ev, rp_eval_ctx *ctx,
                             rp_result *out)
{
    if (r->n_sensitive == 0)
        return 0;
    /* data.result (or the raw data), parsed as JSON when it is text. */
    const rp_json *payload =
        rp_json_is_object(ev->data) ? rp_json_get(ev->data, "result") : ev->data;
    if (rp_json_is_string(payload)) {
        rp_json_error jerr;
        const rp_json *parsed = rp_json_parse(ctx->arena, payload->v.s, payload->len, &jerr);
        if (parsed != NULL)
            payload = parsed;
    }
    bool found = false;
    rp_pynum best = {0};
    collect_labels(r, payload, 0, ctx->arena, &found, &best);
    if (found) {
        out->verdict = RP_ALLOW;
        rp_result_add_update(ctx->arena, out, r->state_key, RP_UPDATE_INCREMENT,
                             rp_pynum_to_json(best));
    }
    return 0;
}

static int risk_score_evaluate(const void *instance, const rp_event *ev, const rp_json *state,
                               rp_eval_ctx *ctx, rp_result *out)
{
    const risk_score *r = instance;

    if (ev->type == RP_EV_TOOL_CALL)
        return score_tool_call(r, ev, state, ctx, out);
    if (ev->type == RP_EV_TOOL_RESULT)
        return score_tool_result(r, ev, ctx, out);
    return 0; /* abstain */
}

const rp_policy_type rp_policy_risk_score_policy = {
    .name = "risk_score_policy",
    .module = "omnigent.policies.builtins.risk_score",
    .description = "Accumulate a session risk score and escalate guarded tools past a threshold.",
    .params = risk_score_params,
    .n_params = sizeof risk_score_params / sizeof risk_score_params[0],
    .instance_owned_key = risk_score_owned_key,
    .create = risk_score_create,
    .evaluate = risk_score_evaluate,
};
