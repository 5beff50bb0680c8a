/* spawn_bounds — DENY worker dispatches beyond `max_dispatches_per_turn` in one turn
 * (reference §5.14).
 *
 * The reference counts in a closure, which a fresh engine per evaluation resets to zero, so on
 * its server paths the bound never fires (a known weakness, §4.1). rampart keeps the count in
 * session state instead: every `request` event (a new user turn) sets it back to 0, every
 * dispatch adds one, a denied dispatch included, so it holds when every evaluation is a fresh
 * process. */
#include <string.h>

#include "engine/policy.h"
#include "policies/builtins.h"
#include "policies/common/common.h"

#define COUNT_KEY "_policy_spawn_dispatch_count"

typedef struct spawn_bounds {
    int64_t max_dispatches;
    const char **dispatch_tools;
    size_t n_dispatch_tools;
} spawn_bounds;

static const rp_param_spec spawn_bounds_params[] = {
    {.name = "max_dispatches_per_turn",
     .kind = RP_PARAM_INT,
     .default_json = "5",
     .has_min = true,
     .min = 0,
     .description = "Dispatches allowed per user turn."},
    {.name = "dispatch_tools",
     .kind = RP_PARAM_STRING_LIST,
     .default_json = "[\"sys_session_send\"]",
     .description = "Tool names that count as a worker dispatch."},
};

static const char *const spawn_bounds_keys[] = {COUNT_KEY, NULL};

static int spawn_bounds_create(const rp_json *params, rp_arena *a, void **instance,
                               rp_param_error *err)
{
    const rp_json *max = rp_json_get(params, "max_dispatches_per_turn");
    const rp_json *tools = rp_json_get(params, "dispatch_tools");

    if (max == NULL || max->type != RP_JSON_INT || max->v.i < 0)
        return rp_param_fail(err, "max_dispatches_per_turn",
                             "max_dispatches_per_turn must be an integer >= 0");
    if (!rp_json_is_array(tools))
        return rp_param_fail(err, "dispatch_tools", "dispatch_tools must be a list of tool names");
    for (uint32_t i = 0; i < tools->len; i++)
        if (!rp_json_is_string(&tools->v.items[i]))
            return rp_param_fail(err, "dispatch_tools", "dispatch_tools[%u] must be a string",
                                 (unsigned)i);

    spawn_bounds *s = rp_arena_calloc(a, sizeof *s);
    s->max_dispatches = max->v.i;
    s->dispatch_tools = rp_pol_string_list(tools, a, &s->n_dispatch_tools);
    *instance = s;
    return 0;
}

static bool is_dispatch(const spawn_bounds *s, const char *tool)
{
    if (tool == NULL)
        return false;
    for (size_t i = 0; i < s->n_dispatch_tools; i++)
        if (strcmp(s->dispatch_tools[i], tool) == 0)
            return true;
    return false;
}

static int spawn_bounds_evaluate(const void *instance, const rp_event *ev, const rp_json *state,
                                 rp_eval_ctx *ctx, rp_result *out)
{
    const spawn_bounds *s = instance;
    int64_t count;

    out->verdict = RP_ALLOW;
    if (ev->type == RP_EV_REQUEST) {
        /* A new turn: the reference's reset_turn hook. */
        rp_result_add_update(ctx->arena, out, COUNT_KEY, RP_UPDATE_SET, rp_json_make_int(0));
        return 0;
    }
    if (ev->type != RP_EV_TOOL_CALL || !is_dispatch(s, ev->tool_name))
        return 0;
    if (rp_pol_state_int(ctx, state, COUNT_KEY, &count) < 0)
        return -1;
    if (count < INT64_MAX)
        count++;
    if (count > s->max_dispatches) {
        out->verdict = RP_DENY;
        out->reason = rp_arena_sprintf(ctx->arena,
                                       "Exceeded %lld worker dispatches this turn; fan out in "
                                       "waves (collect the running batch before dispatching "
                                       "more).",
                                       (long long)s->max_dispatches);
    }
    rp_result_add_update(ctx->arena, out, COUNT_KEY, RP_UPDATE_INCREMENT, rp_json_make_int(1));
    return 0;
}

const rp_policy_type rp_policy_spawn_bounds = {
    .name = "spawn_bounds",
    .module = "omnigent.policies.builtins.orchestration",
    .description = "Deny worker dispatches beyond a per-turn bound.",
    .params = spawn_bounds_params,
    .n_params = sizeof spawn_bounds_params / sizeof spawn_bounds_params[0],
    .owned_keys = spawn_bounds_keys,
    .create = spawn_bounds_create,
    .evaluate = spawn_bounds_evaluate,
};
