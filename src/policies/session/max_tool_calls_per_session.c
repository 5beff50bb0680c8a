/* max_tool_calls_per_session — DENY once a session has made `limit` tool calls (reference §5.3).
 *
 * The count lives in session state under _policy_tool_call_count, so it survives fresh
 * processes. Every tool call counts, whatever the tool; the DENY itself adds nothing. */
#include "engine/policy.h"
#include "policies/builtins.h"
#include "policies/common/common.h"

#define COUNT_KEY "_policy_tool_call_count"

typedef struct max_calls {
    int64_t limit;
} max_calls;

static const rp_param_spec max_calls_params[] = {
    {.name = "limit",
     .kind = RP_PARAM_INT,
     .default_json = "100",
     .required = true,
     .has_min = true,
     .min = 0,
     .description = "Tool calls allowed in one session; 0 denies the first one."},
};

static const char *const max_calls_keys[] = {COUNT_KEY, NULL};

static int max_calls_create(const rp_json *params, rp_arena *a, void **instance,
                            rp_param_error *err)
{
    const rp_json *limit = rp_json_get(params, "limit");
    if (limit == NULL || limit->type != RP_JSON_INT)
        return rp_param_fail(err, "limit", "limit must be an integer");
    if (limit->v.i < 0)
        return rp_param_fail(err, "limit", "limit must be >= 0, got %lld", (long long)limit->v.i);

    max_calls *m = rp_arena_calloc(a, sizeof *m);
    m->limit = limit->v.i;
    *instance = m;
    return 0;
}

static int max_calls_evaluate(const void *instance, const rp_event *ev, const rp_json *state,
                              rp_eval_ctx *ctx, rp_result *out)
{
    const max_calls *m = instance;
    int64_t count;

    out->verdict = RP_ALLOW; /* the reference answers ALLOW, not None, on every other phase */
    if (ev->type != RP_EV_TOOL_CALL)
        return 0;
    if (rp_pol_state_int(ctx, state, COUNT_KEY, &count) < 0)
        return -1;
    if (count >= m->limit) {
        out->verdict = RP_DENY;
        out->reason = rp_arena_sprintf(ctx->arena, "Exceeded %lld tool calls this session",
                                       (long long)m->limit);
        return 0;
    }
    rp_result_add_update(ctx->arena, out, COUNT_KEY, RP_UPDATE_INCREMENT, rp_json_make_int(1));
    return 0;
}

const rp_policy_type rp_policy_max_tool_calls_per_session = {
    .name = "max_tool_calls_per_session",
    .module = "omnigent.policies.builtins.safety",
    .description = "Deny tool calls once the session has made `limit` of them.",
    .params = max_calls_params,
    .n_params = sizeof max_calls_params / sizeof max_calls_params[0],
    .owned_keys = max_calls_keys,
    .create = max_calls_create,
    .evaluate = max_calls_evaluate,
};
