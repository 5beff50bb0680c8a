/* read_only_os — DENY every write-capable file tool, for report-only agents (reference §5.17).
 *
 * The reference gates seven names and misses NotebookEdit, write_file, apply_patch, the Goose
 * and Cursor tools (a known weakness); rampart gates the whole RP_TOOLS_WRITE set of
 * src/policies/tools.c. Shell stays allowed: a report-only agent still runs its tests. */
#include "engine/policy.h"
#include "policies/builtins.h"
#include "policies/common/tools.h"

#define DEFAULT_DENY_REASON                                                                        \
    "This agent is report-only: it may read files and run shell, but never write or edit "         \
    "them. Describe the change in your report instead of applying it."

typedef struct read_only_os {
    const char *deny_reason;
} read_only_os;

static const rp_param_spec read_only_os_params[] = {
    {.name = "deny_reason",
     .kind = RP_PARAM_STRING,
     .default_json = "\"" DEFAULT_DENY_REASON "\"",
     .description = "The reason given with every DENY."},
};

static int read_only_os_create(const rp_json *params, rp_arena *a, void **instance,
                               rp_param_error *err)
{
    const rp_json *reason = rp_json_get(params, "deny_reason");
    if (!rp_json_is_string(reason))
        return rp_param_fail(err, "deny_reason", "deny_reason must be a string");

    read_only_os *r = rp_arena_calloc(a, sizeof *r);
    r->deny_reason = rp_arena_strndup(a, reason->v.s, reason->len);
    *instance = r;
    return 0;
}

static int read_only_os_evaluate(const void *instance, const rp_event *ev, const rp_json *state,
                                 rp_eval_ctx *ctx, rp_result *out)
{
    const read_only_os *r = instance;

    (void)state;
    (void)ctx;
    out->verdict = RP_ALLOW;
    if (ev->type == RP_EV_TOOL_CALL && rp_tool_in_set(RP_TOOLS_WRITE, ev->tool_name)) {
        out->verdict = RP_DENY;
        out->reason = r->deny_reason;
    }
    return 0;
}

const rp_policy_type rp_policy_read_only_os = {
    .name = "read_only_os",
    .module = "omnigent.policies.builtins.orchestration",
    .description = "Deny every write-capable file tool; reading and shell stay allowed.",
    .params = read_only_os_params,
    .n_params = sizeof read_only_os_params / sizeof read_only_os_params[0],
    .create = read_only_os_create,
    .evaluate = read_only_os_evaluate,
};
