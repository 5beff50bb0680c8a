/* perm_policy.h — what permissions.c (parameters, events, session approvals) and perm_gates.c
 * (the gate pipeline, reference permissions.md §3.3) share. */
#ifndef RAMPART_PERMISSIONS_PERM_POLICY_H
#define RAMPART_PERMISSIONS_PERM_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"
#include "core/fs.h"
#include "core/json.h"
#include "permissions/perm.h"
#include "permissions/perm_tools.h"

#define RP_PERM_SESSION_KEY "_permissions_session_rules"

typedef struct rp_perm_shell_alias {
    const char *tool;
    const char *command_arg;
    const char *workdir_arg; /* NULL = none */
} rp_perm_shell_alias;

typedef struct rp_perm_skill {
    const char *name;
    const char *dir;      /* absolute base directory */
    const char *location; /* the SKILL.md file, or NULL */
} rp_perm_skill;

/* The configuration a check runs with (from the params, or from pi's files at check time). */
typedef struct rp_perm_settings {
    rp_perm_ruleset rules;
    bool yolo;
    rp_path_flavor flavor;
    const char **infra; /* piInfrastructureReadPaths (the agent dir and its git/ are added by
                           the gate) */
    size_t n_infra;
    const rp_perm_shell_alias *aliases;
    size_t n_aliases;
    const char **mcp_servers;
    size_t n_mcp_servers;
    const rp_perm_skill *skills;
    size_t n_skills;
} rp_perm_settings;

/* One suggested session rule ("approve for this session" would record it). */
typedef struct rp_perm_suggestion {
    const char *surface;
    const char *pattern;
} rp_perm_suggestion;

/* The outcome of the whole pipeline for one call. */
typedef struct rp_perm_outcome {
    rp_perm_action action;
    const char *reason;              /* NULL when allow */
    rp_perm_suggestion *suggestions; /* of every gate that asked */
    size_t n_suggestions, cap_suggestions;
} rp_perm_outcome;

/* The call as the gates see it. */
typedef struct rp_perm_call {
    const char *tool;     /* the host's tool name */
    const rp_json *input; /* the arguments object (never NULL: an empty object) */
    const rp_path_ctx *pc;
    const char *agent_dir; /* pi's agent directory (an infrastructure read path); NULL =
                              <HOME>/.pi/agent */
    /* The evaluation's one shell parse (rp_shell_parse_once in src/policies/common), so that
     * a command is parsed once for every policy; NULL: the gates parse it themselves. */
    int (*parse_shell)(void *self, const char *command, struct rp_sh_parse *out);
    void *parse_self;
} rp_perm_call;

/* Runs the gates for one call. Returns 0, or -1 with ctx error set (the caller fails closed). */
int rp_perm_run_gates(rp_arena *a, const rp_perm_settings *s, const rp_perm_rule *session,
                      size_t n_session, const rp_perm_call *call, rp_perm_outcome *out);

#endif
