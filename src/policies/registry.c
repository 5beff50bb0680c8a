/* registry.c — the table of builtin policy types, their handler paths (the state keys they
 * reserve are checked by engine/reserved.c). Adding a builtin is one line in `builtins` below (and
 * one in builtins.h). */
#include "policies/registry.h"

#include <string.h>

#include "policies/builtins.h"

#define LEGACY_ORCHESTRATION_MODULE "omnigent.inner.nessie.policies"
#define ORCHESTRATION_MODULE        "omnigent.policies.builtins.orchestration"

/* Listing order: the reference's §5 order. */
static const rp_policy_type *const builtins[] = {
    &rp_policy_ask_on_os_tools,
    &rp_policy_max_tool_calls_per_session,
    &rp_policy_block_skills,
    &rp_policy_detect_loop,
    &rp_policy_deny_pii_in_llm_request,
    &rp_policy_deny_secrets, /* rampart's, next to its PII sibling */
    &rp_policy_cost_budget,
    &rp_policy_user_daily_cost_budget,
    &rp_policy_user_period_cost_budget, /* rampart's, next to its daily sibling */
    &rp_policy_subagent_cost_budget,
    &rp_policy_github_policy,
    &rp_policy_block_working_dir_changes,
    &rp_policy_blast_radius,
    &rp_policy_spawn_bounds,
    &rp_policy_headless_subagent_purpose_guard,
    &rp_policy_worktree_guard,
    &rp_policy_read_only_os,
    &rp_policy_risk_score_policy,
    &rp_policy_detect_thrashing,
    &rp_policy_permissions,
    &rp_policy_cel_policy,
};

#define N_BUILTINS (sizeof builtins / sizeof builtins[0])

const rp_policy_type *const *rp_registry_all(size_t *count)
{
    *count = N_BUILTINS;
    return builtins;
}

/* Whether `s` is "<module>.<name>" (without building the string). */
static bool is_dotted(const char *s, const char *module, const char *name)
{
    size_t module_len = strlen(module);
    return strncmp(s, module, module_len) == 0 && s[module_len] == '.' &&
           strcmp(s + module_len + 1, name) == 0;
}

const rp_policy_type *rp_registry_find(const char *name_or_handler)
{
    if (name_or_handler == NULL)
        return NULL;
    for (size_t i = 0; i < N_BUILTINS; i++) {
        const rp_policy_type *t = builtins[i];
        if (strcmp(name_or_handler, t->name) == 0 || is_dotted(name_or_handler, t->module, t->name))
            return t;
        /* The five orchestration policies are also registered under their legacy nessie
         * paths (reference §0.2). */
        if (strcmp(t->module, ORCHESTRATION_MODULE) == 0 &&
            is_dotted(name_or_handler, LEGACY_ORCHESTRATION_MODULE, t->name))
            return t;
    }
    return NULL;
}

bool rp_registry_key_reserved(const char *key)
{
    return rp_state_key_reserved(builtins, N_BUILTINS, key);
}
