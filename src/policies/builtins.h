/* builtins.h — every builtin policy type, one definition per file in src/policies/. The
 * registry (registry.c) lists them; tests call their create/evaluate directly. */
#ifndef RAMPART_POLICIES_BUILTINS_H
#define RAMPART_POLICIES_BUILTINS_H

#include "engine/policy.h"

extern const rp_policy_type rp_policy_ask_on_os_tools;
extern const rp_policy_type rp_policy_max_tool_calls_per_session;
extern const rp_policy_type rp_policy_block_skills;
extern const rp_policy_type rp_policy_detect_loop;
extern const rp_policy_type rp_policy_deny_pii_in_llm_request;
extern const rp_policy_type rp_policy_deny_secrets;
extern const rp_policy_type rp_policy_cost_budget;
extern const rp_policy_type rp_policy_user_daily_cost_budget;
extern const rp_policy_type rp_policy_user_period_cost_budget;
extern const rp_policy_type rp_policy_subagent_cost_budget;
extern const rp_policy_type rp_policy_github_policy;
extern const rp_policy_type rp_policy_block_working_dir_changes;
extern const rp_policy_type rp_policy_blast_radius;
extern const rp_policy_type rp_policy_spawn_bounds;
extern const rp_policy_type rp_policy_headless_subagent_purpose_guard;
extern const rp_policy_type rp_policy_worktree_guard;
extern const rp_policy_type rp_policy_read_only_os;
extern const rp_policy_type rp_policy_risk_score_policy;
extern const rp_policy_type rp_policy_detect_thrashing;
extern const rp_policy_type rp_policy_permissions;
extern const rp_policy_type rp_policy_cel_policy;

#endif
