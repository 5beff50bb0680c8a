/* github_mcp.c — github_policy for GitHub MCP tools (reference §5.11 "MCP path").
 *
 * The tool name, after the first configured prefix (default `mcp__github__`, `github__`) and a
 * leading `github_`, is classified read / write / allow / unknown; the repositories and branches
 * a call targets come from well-known argument keys, at the top level and one level down inside
 * the usual wrapper objects. Unknown tools under a GitHub prefix fail closed. */
#include <string.h>

#include "policies/common/common.h"
#include "policies/github/github.h"
#include "core/pyrepr.h"

typedef enum tool_class { TOOL_UNKNOWN = 0, TOOL_ALLOW, TOOL_READ, TOOL_WRITE } tool_class;

static const char *const allow_tools[] = {"get_service_info", "get_api_info", NULL};

static const char *const read_tools[] = {"get_file_contents", "get_me", "pull_request_read",
                                         "issue_read", NULL};

static const char *const write_tools[] = {
    "create_or_update_file",
    "push_files",
    "delete_file",
    "create_repository",
    "fork_repository",
    "create_branch",
    "delete_branch",
    "update_repository",
    "create_pull_request",
    "update_pull_request",
    "merge_pull_request",
    "create_pull_request_review",
    "add_pull_request_review_comment_to_pending_review",
    "request_copilot_review",
    "update_pull_request_branch",
    "create_issue",
    "update_issue",
    "add_issue_comment",
    "create_release",
    "delete_release",
    "create_gist",
    "update_gist",
    "run_workflow",
    "rerun_workflow_run",
    "rerun_failed_jobs",
    "cancel_workflow_run",
    "delete_workflow_run_logs",
    "assign_copilot_to_issue",
    NULL,
};

/* Verb prefixes of the heuristic, used only for names under a GitHub prefix. */
static const char *const write_verbs[] = {
    "create_",  "update_",  "delete_", "merge_",   "push_",    "add_",       "remove_",   "set_",
    "fork_",    "run_",     "rerun_",  "cancel_",  "assign_",  "submit_",    "request_",  "edit_",
    "close_",   "reopen_",  "lock_",   "unlock_",  "resolve_", "unresolve_", "transfer_", "rename_",
    "dismiss_", "approve_", "enable_", "disable_", "upload_",  "star_",      "pin_",      NULL,
};
static const char *const read_verbs[] = {"get_", "list_", "search_", "find_", "fetch_", NULL};

/* Writes that name a branch: with write_branches set, a missing branch is a DENY. */
static const char *const branch_targeted_tools[] = {
    "create_or_update_file",      "push_files", "delete_file", "create_branch", "delete_branch",
    "update_pull_request_branch", NULL,
};
static const char *const destructive_tools[] = {"delete_file", "delete_branch", "delete_release",
                                                NULL};

/* Where the arguments name repositories and branches. `head`/`headRefName` are deliberately not
 * branches: a PR's head is read, not written. */
static const char *const owner_keys[] = {"owner", "org", "organization", NULL};
static const char *const full_name_keys[] = {"repository",      "full_name",     "repo",
                                             "name_with_owner", "nameWithOwner", NULL};
static const char *const branch_keys[] = {"branch",      "ref",         "base",
                                          "branch_name", "base_branch", "target_branch",
                                          "baseRefName", "ref_name",    NULL};
static const char *const nested_keys[] = {"params",  "parameters", "arguments", "body",
                                          "payload", "input",      NULL};

static bool in_list(const char *s, const char *const *list)
{
    for (size_t i = 0; list[i] != NULL; i++)
        if (strcmp(s, list[i]) == 0)
            return true;
    return false;
}

static bool has_prefix_in(const char *s, const char *const *list)
{
    for (size_t i = 0; list[i] != NULL; i++)
        if (strncmp(s, list[i], strlen(list[i])) == 0)
            return true;
    return false;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static tool_class classify(const char *canonical, const char *base, bool prefixed)
{
    if (ends_with(canonical, "read_api_call"))
        return TOOL_READ;
    if (ends_with(canonical, "write_api_call"))
        return TOOL_WRITE;
    if (in_list(base, allow_tools))
        return TOOL_ALLOW;
    if (in_list(base, read_tools))
        return TOOL_READ;
    if (in_list(base, write_tools))
        return TOOL_WRITE;
    if (prefixed && has_prefix_in(base, write_verbs))
        return TOOL_WRITE;
    if (prefixed && has_prefix_in(base, read_verbs))
        return TOOL_READ;
    return TOOL_UNKNOWN;
}

/* A set of strings kept in first-seen order (sorted only when printed). */
typedef struct str_set {
    const char **items;
    size_t n, cap;
} str_set;

static void set_add(rp_arena *a, str_set *s, const char *v)
{
    if (v == NULL)
        return;
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->items[i], v) == 0)
            return;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 4;
        const char **grown = rp_arena_alloc(a, cap * sizeof *grown);
        if (s->n > 0)
            memcpy(grown, s->items, s->n * sizeof *grown);
        s->items = grown;
        s->cap = cap;
    }
    s->items[s->n++] = v;
}

static const char *nonempty_string(const rp_json *obj, const char *key)
{
    const rp_json *v = rp_json_get(obj, key);
    return rp_json_is_string(v) && v->len > 0 ? v->v.s : NULL;
}

/* The repositories and branches one argument object names. */
static void scan_arguments(rp_arena *a, const rp_json *obj, str_set *repos, str_set *branches)
{
    if (!rp_json_is_object(obj))
        return;
    const char *owner = NULL;
    for (size_t i = 0; owner == NULL && owner_keys[i] != NULL; i++)
        owner = nonempty_string(obj, owner_keys[i]);
    const char *repo = rp_json_get_str(obj, "repo");
    if (owner != NULL && repo != NULL && repo[0] != '\0' && strchr(repo, '/') == NULL) {
        char *joined = rp_arena_sprintf(a, "%s/%s", owner, repo);
        char *normal = rp_gh_repo_from_bare(a, joined);
        /* A name the strict form rejects is still a target: it can never match an allowlist
         * entry by accident, but it must not vanish and leave "no repo". */
        set_add(a, repos, normal != NULL ? normal : rp_py_lower(a, joined, strlen(joined), NULL));
    }
    for (size_t i = 0; full_name_keys[i] != NULL; i++) {
        const char *v = rp_json_get_str(obj, full_name_keys[i]);
        if (v == NULL || strchr(v, '/') == NULL)
            continue;
        char *normal = rp_gh_repo_from_spec(a, v);
        set_add(a, repos, normal != NULL ? normal : rp_py_lower(a, v, strlen(v), NULL));
    }
    for (uint32_t i = 0; i < obj->len; i++) {
        const rp_json *v = &obj->v.members[i].value;
        if (rp_json_is_string(v))
            set_add(a, repos, rp_gh_repo_from_url(a, v->v.s));
    }
    for (size_t i = 0; branch_keys[i] != NULL; i++) {
        const char *v = rp_json_get_str(obj, branch_keys[i]);
        if (v != NULL)
            set_add(a, branches, rp_gh_branch_normalize(a, v));
    }
}

static void decide(rp_result *out, rp_verdict verdict, const char *reason)
{
    out->verdict = verdict;
    out->reason = reason;
}

void rp_gh_evaluate_mcp(const rp_gh_policy *p, const char *raw_name, const rp_json *arguments,
                        rp_arena *a, rp_result *out)
{
    const char *canonical = raw_name;
    bool prefixed = false;
    for (size_t i = 0; i < p->n_prefixes; i++) {
        size_t len = strlen(p->prefixes[i]);
        if (strncmp(raw_name, p->prefixes[i], len) == 0) {
            canonical = raw_name + len;
            prefixed = true;
            break;
        }
    }
    const char *base = strncmp(canonical, "github_", 7) == 0 ? canonical + 7 : canonical;
    tool_class cls = classify(canonical, base, prefixed);

    if (cls == TOOL_ALLOW || (cls == TOOL_UNKNOWN && !prefixed))
        return;
    if (cls == TOOL_UNKNOWN) {
        rp_buf b = {0};
        rp_buf_puts(&b, "Unrecognized GitHub tool ");
        rp_py_repr_str(&b, raw_name, strlen(raw_name));
        rp_buf_putc(&b, '.');
        decide(out, RP_DENY, rp_gh_reason_prefixed(p, a, rp_buf_to_arena(&b, a)));
        return;
    }

    str_set repos = {0}, branches = {0};
    scan_arguments(a, arguments, &repos, &branches);
    if (rp_json_is_object(arguments))
        for (size_t i = 0; nested_keys[i] != NULL; i++)
            scan_arguments(a, rp_json_get(arguments, nested_keys[i]), &repos, &branches);

    if (cls == TOOL_READ) {
        if (p->read_all)
            return;
        if (repos.n == 0) {
            decide(out, RP_DENY,
                   rp_gh_reason_prefixed(p, a,
                                         "Read is restricted to the configured repos and this "
                                         "call's target repo could not be determined."));
            return;
        }
        for (size_t i = 0; i < repos.n; i++)
            if (!rp_gh_repo_in(repos.items[i], p->read_repos, p->n_read_repos)) {
                decide(out, RP_DENY, rp_gh_reason_read_repos(p, a, repos.items, repos.n));
                return;
            }
        return;
    }

    if (repos.n == 0) {
        decide(out, RP_DENY,
               rp_gh_reason_prefixed(p, a, "Write call carries no identifiable target repo."));
        return;
    }
    for (size_t i = 0; i < repos.n; i++)
        if (!rp_gh_repo_in(repos.items[i], p->write_repos, p->n_write_repos)) {
            decide(out, RP_DENY, rp_gh_reason_write_repos(p, a, repos.items, repos.n));
            return;
        }
    if (p->n_write_branches > 0) {
        str_set bad = {0};
        for (size_t i = 0; i < branches.n; i++)
            if (!rp_gh_branch_allowed(branches.items[i], p->write_branches, p->n_write_branches))
                set_add(a, &bad, branches.items[i]);
        if (bad.n > 0) {
            decide(out, RP_DENY, rp_gh_reason_bad_branches(p, a, bad.items, bad.n));
            return;
        }
        if (branches.n == 0 && in_list(base, branch_targeted_tools)) {
            rp_buf b = {0};
            rp_buf_puts(&b, "Write is restricted to branches ");
            rp_py_repr_sorted_strs(&b, p->write_branches, p->n_write_branches);
            rp_buf_puts(&b, " and this call's target branch could not be determined.");
            decide(out, RP_DENY, rp_gh_reason_prefixed(p, a, rp_buf_to_arena(&b, a)));
            return;
        }
    }
    if (!p->allow_destructive && in_list(base, destructive_tools)) {
        rp_buf b = {0};
        rp_buf_puts(&b, "Destructive operation ");
        rp_py_repr_str(&b, raw_name, strlen(raw_name));
        rp_buf_puts(&b, " is blocked by default. Set allow_destructive=true to permit deletes.");
        decide(out, RP_DENY, rp_gh_reason_prefixed(p, a, rp_buf_to_arena(&b, a)));
    }
}
