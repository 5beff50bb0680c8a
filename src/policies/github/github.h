/* github.h — the pieces of github_policy (reference §5.11), shared by its files:
 *
 *   github_policy.c  params, create, evaluate, the per-operation decision and reason texts
 *   github_remote.c  URL / scp / API-path / bare "owner/repo" → owner/repo; branch names
 *   github_git.c     a `git` simple command → an operation (global options, aliases, push)
 *   github_gh.c      a `gh` simple command → an operation (groups, actions, `gh api`)
 *   github_mcp.c     GitHub MCP tools: name classification and the repos/branches in arguments
 *
 * A shell command becomes a list of operations (one per git/gh simple command the parser lists);
 * each is decided on its own and the most restrictive verdict wins. */
#ifndef RAMPART_POLICIES_GITHUB_GITHUB_H
#define RAMPART_POLICIES_GITHUB_GITHUB_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"
#include "core/json.h"
#include "engine/policy.h"
#include "shell/shell.h"

typedef struct rp_gh_policy {
    bool read_all;
    bool allow_destructive;
    bool deny_tag_push;
    bool deny_force_push;
    const char **read_repos; /* normalised owner/repo, lower case */
    size_t n_read_repos;
    const char **write_repos;
    size_t n_write_repos;
    const char **write_branches; /* normalised; fnmatch-style globs; n == 0 means unrestricted */
    size_t n_write_branches;
    const char **prefixes; /* MCP tool-name prefixes, tried in order */
    size_t n_prefixes;
    const rp_json *shell_tools;
    const char *deny_reason;
} rp_gh_policy;

typedef enum rp_gh_op_kind {
    RP_GH_OP_UNPARSEABLE = 0, /* the command cannot be read well enough: ASK */
    RP_GH_OP_READ,
    RP_GH_OP_WRITE
} rp_gh_op_kind;

/* One git/gh invocation, as the reference's decision table sees it. */
typedef struct rp_gh_op {
    rp_gh_op_kind kind;
    const char *detail;    /* "git push", "gh pr merge", "gh api" (quoted in reasons) */
    const char *segment;   /* UNPARSEABLE: the command text the reason quotes */
    const char *repo;      /* owner/repo, lower case; NULL when it cannot be determined */
    const char **branches; /* normalised target branches (arena array) */
    size_t n_branches;
    bool branch_targeted; /* a push: with restricted branches, no branch means ASK */
    bool force;
    bool destructive;
    bool tag_push;
    /* A dynamic word (variable, substitution) could hide a force flag or a different target:
     * an operation that would otherwise pass is asked about instead. */
    bool unresolved;
} rp_gh_op;

/* ---- github_remote.c ---- */

/* owner/repo (lower case) of the first github.com URL or scp-style remote inside text: "github.com"
 * not preceded by [A-Za-z0-9._-], then ':' or '/' characters, owner, '/', repo, optional ".git",
 * then '/', '?', '#' or the end. NULL when there is none. */
char *rp_gh_repo_from_url(rp_arena *a, const char *text);
/* owner/repo of an API path "(^|/)repos/<owner>/<repo>", or NULL. */
char *rp_gh_repo_from_api_path(rp_arena *a, const char *text);
/* A bare "owner/repo" (optional ".git", surrounding whitespace ignored), lower case, or NULL. */
char *rp_gh_repo_from_bare(rp_arena *a, const char *text);
/* What allowlist entries, --repo values and MCP repository fields accept: a URL, else a bare
 * owner/repo. NULL when neither. */
char *rp_gh_repo_from_spec(rp_arena *a, const char *text);
/* Branch normalisation: the part after the first ':', trimmed, without a leading "refs/heads/" or
 * "heads/". NULL when nothing is left. */
char *rp_gh_branch_normalize(rp_arena *a, const char *text);
/* Whether branch matches one of the patterns (fnmatch-style globs, see github_remote.c). */
bool rp_gh_branch_allowed(const char *branch, const char *const *patterns, size_t n);
/* Whether repo (may be NULL) is one of the n entries. */
bool rp_gh_repo_in(const char *repo, const char *const *repos, size_t n);

/* ---- github_git.c / github_gh.c ---- */

/* Classifies a simple command whose program is `git` (resp. `gh`). Returns true and fills *op
 * when it is an operation the policy decides; false for local or ignored commands. `src` is the
 * top-level command string (for the text an UNPARSEABLE reason quotes). */
bool rp_gh_classify_git(rp_arena *a, const rp_sh_command *c, const char *src, rp_gh_op *op);
bool rp_gh_classify_gh(rp_arena *a, const rp_sh_command *c, const char *src, rp_gh_op *op);
/* The source text of c (its outermost command's span in src), for UNPARSEABLE reasons. */
const char *rp_gh_command_text(rp_arena *a, const rp_sh_command *c, const char *src);

/* ---- github_mcp.c ---- */

/* The MCP path for a tool that is not a shell tool. */
void rp_gh_evaluate_mcp(const rp_gh_policy *p, const char *raw_name, const rp_json *arguments,
                        rp_arena *a, rp_result *out);

/* ---- github_policy.c: reason texts both paths share ---- */

/* "{deny_reason} Read is restricted to the configured repos; this call targets [...]." */
const char *rp_gh_reason_read_repos(const rp_gh_policy *p, rp_arena *a, const char *const *repos,
                                    size_t n);
/* "{deny_reason} Write is restricted to the configured repos; this call targets [...]." */
const char *rp_gh_reason_write_repos(const rp_gh_policy *p, rp_arena *a, const char *const *repos,
                                     size_t n);
/* "{deny_reason} Write is restricted to branches [...]; this call targets [...]." */
const char *rp_gh_reason_bad_branches(const rp_gh_policy *p, rp_arena *a, const char *const *bad,
                                      size_t n_bad);
/* "{deny_reason} <text>" */
const char *rp_gh_reason_prefixed(const rp_gh_policy *p, rp_arena *a, const char *text);

#endif
