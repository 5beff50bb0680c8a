/* github_policy — read/write allowlists for GitHub repositories and branches, blocking deletes,
 * tag pushes and force pushes, for GitHub MCP tools and for `git`/`gh` in shell commands
 * (reference §5.11).
 *
 * Shell commands are read with the one shell parser (src/shell/): every simple command it
 * lists (pipeline stages, `&&` chains, subshells, substitutions, wrapped commands such as
 * `sudo`/`nohup --`/`xargs`, strings run by `bash -c`/`eval`) whose program is `git` or `gh`
 * (also as /usr/bin/git) becomes one operation; each is decided by the reference's table and the
 * most restrictive verdict wins (DENY > ASK > abstain; the first one on a tie). A command the
 * parser cannot read and that mentions git or gh is asked about, as in the reference; what was
 * read before the unreadable part is still decided.
 *
 * Files: github_git.c (git), github_gh.c (gh), github_mcp.c (MCP tools), github_remote.c
 * (repository and branch names); github.h ties them together. */
#include <string.h>

#include "engine/policy.h"
#include "policies/builtins.h"
#include "policies/common/common.h"
#include "policies/github/github.h"
#include "core/pyrepr.h"
#include "policies/common/shell_input.h"
#include "policies/common/shell_partial.h"
#include "shell/shell.h"

#define SEGMENT_CHARS 60 /* the reference quotes segment[:60] */

static const char *const default_prefixes[] = {"mcp__github__", "github__"};

static const rp_param_spec github_policy_params[] = {
    {.name = "read_all",
     .kind = RP_PARAM_BOOL,
     .default_json = "true",
     .description = "Allow reads of every repository (read_repos is then ignored)."},
    {.name = "read_repos",
     .kind = RP_PARAM_STRING_LIST,
     .description = "Repositories (owner/repo or URL) that may be read when read_all is false."},
    {.name = "write_repos",
     .kind = RP_PARAM_STRING_LIST,
     .description = "Repositories (owner/repo or URL) that may be written; none when unset."},
    {.name = "write_branches",
     .kind = RP_PARAM_STRING_LIST,
     .description = "Branches writes may target (globs such as feature/*); any when unset."},
    {.name = "allow_destructive",
     .kind = RP_PARAM_BOOL,
     .default_json = "false",
     .description = "Permit deletes (repos, branches, files, releases, remote refs, ...)."},
    {.name = "deny_tag_push",
     .kind = RP_PARAM_BOOL,
     .default_json = "true",
     .description = "Deny pushing tags."},
    {.name = "deny_force_push",
     .kind = RP_PARAM_BOOL,
     .default_json = "true",
     .description = "Deny force pushes (--force, -f, --force-with-lease, +refspec, ...)."},
    {.name = "mcp_tool_prefixes",
     .kind = RP_PARAM_STRING_LIST,
     .description = "Tool-name prefixes of GitHub MCP servers; default mcp__github__, github__."},
    {.name = "shell_tools",
     .kind = RP_PARAM_STRING_LIST,
     .default_json = rp_default_shell_tools_json,
     .description = "Tools whose arguments.command is a shell command."},
    {.name = "deny_reason",
     .kind = RP_PARAM_STRING,
     .default_json = "\"GitHub operation blocked by policy.\"",
     .description = "Text that starts every DENY reason (except the force-push one)."},
};

static bool param_bool(const rp_json *params, const char *name, bool fallback)
{
    const rp_json *v = rp_json_get(params, name);
    return v != NULL && v->type == RP_JSON_BOOL ? v->v.b : fallback;
}

/* Allowlist entries as the calls will be compared: owner/repo, lower case. An entry that is
 * neither a URL nor owner/repo is kept lower-cased (it can only match itself). */
static const char **repo_list(const rp_json *list, rp_arena *a, size_t *n)
{
    const char **items = rp_pol_string_list(list, a, n);
    for (size_t i = 0; i < *n; i++) {
        char *repo = rp_gh_repo_from_spec(a, items[i]);
        if (repo == NULL) {
            size_t start, len;
            rp_py_strip(items[i], strlen(items[i]), &start, &len);
            repo = rp_py_lower(a, items[i] + start, len, NULL);
        }
        items[i] = repo;
    }
    return items;
}

static int github_policy_create(const rp_json *params, rp_arena *a, void **instance,
                                rp_param_error *err)
{
    const char *deny_reason = rp_json_get_str(params, "deny_reason");
    if (deny_reason == NULL)
        return rp_param_fail(err, "deny_reason", "deny_reason must be a string");

    rp_gh_policy *p = rp_arena_calloc(a, sizeof *p);
    p->read_all = param_bool(params, "read_all", true);
    p->allow_destructive = param_bool(params, "allow_destructive", false);
    p->deny_tag_push = param_bool(params, "deny_tag_push", true);
    p->deny_force_push = param_bool(params, "deny_force_push", true);
    p->read_repos = repo_list(rp_json_get(params, "read_repos"), a, &p->n_read_repos);
    p->write_repos = repo_list(rp_json_get(params, "write_repos"), a, &p->n_write_repos);

    /* Branch entries are normalised like the branches they are compared with; an entry that
     * normalises to nothing is dropped. */
    size_t n_branches;
    const char **branches =
        rp_pol_string_list(rp_json_get(params, "write_branches"), a, &n_branches);
    for (size_t i = 0; i < n_branches; i++) {
        char *b = rp_gh_branch_normalize(a, branches[i]);
        if (b != NULL)
            branches[p->n_write_branches++] = b;
    }
    p->write_branches = branches;

    /* An empty list means the defaults too (Python's `prefixes or DEFAULT`): with no prefix,
     * every GitHub tool would be "unprefixed" and unknown ones would pass. */
    p->prefixes = rp_pol_string_list(rp_json_get(params, "mcp_tool_prefixes"), a, &p->n_prefixes);
    if (p->n_prefixes == 0) {
        p->prefixes = (const char **)default_prefixes;
        p->n_prefixes = sizeof default_prefixes / sizeof default_prefixes[0];
    }

    const rp_json *shell_tools = rp_json_get(params, "shell_tools");
    p->shell_tools =
        rp_json_is_array(shell_tools) ? rp_json_new(a, rp_json_clone(a, shell_tools)) : NULL;
    p->deny_reason = rp_arena_strdup(a, deny_reason);
    *instance = p;
    return 0;
}

/* ---- reason texts ---- */

const char *rp_gh_reason_prefixed(const rp_gh_policy *p, rp_arena *a, const char *text)
{
    return rp_arena_sprintf(a, "%s %s", p->deny_reason, text);
}

static const char *repos_reason(const rp_gh_policy *p, rp_arena *a, const char *what,
                                const char *const *repos, size_t n)
{
    rp_buf b = {0};
    rp_buf_printf(&b, "%s %s is restricted to the configured repos; this call targets ",
                  p->deny_reason, what);
    rp_py_repr_sorted_strs(&b, repos, n);
    rp_buf_putc(&b, '.');
    return rp_buf_to_arena(&b, a);
}

const char *rp_gh_reason_read_repos(const rp_gh_policy *p, rp_arena *a, const char *const *repos,
                                    size_t n)
{
    return repos_reason(p, a, "Read", repos, n);
}

const char *rp_gh_reason_write_repos(const rp_gh_policy *p, rp_arena *a, const char *const *repos,
                                     size_t n)
{
    return repos_reason(p, a, "Write", repos, n);
}

const char *rp_gh_reason_bad_branches(const rp_gh_policy *p, rp_arena *a, const char *const *bad,
                                      size_t n_bad)
{
    rp_buf b = {0};
    rp_buf_printf(&b, "%s Write is restricted to branches ", p->deny_reason);
    rp_py_repr_sorted_strs(&b, p->write_branches, p->n_write_branches);
    rp_buf_puts(&b, "; this call targets ");
    rp_py_repr_sorted_strs(&b, bad, n_bad);
    rp_buf_putc(&b, '.');
    return rp_buf_to_arena(&b, a);
}

static const char *unparseable_reason(rp_arena *a, const char *segment)
{
    rp_buf b = {0};
    size_t len = strlen(segment);
    rp_buf_puts(&b, "Could not parse a git/gh command (");
    rp_py_repr_str(&b, segment, rp_py_prefix_bytes(segment, len, SEGMENT_CHARS));
    rp_buf_puts(&b, ") to check it against the GitHub policy. Approve to run it?");
    return rp_buf_to_arena(&b, a);
}

/* ---- the decision for one shell operation (reference §5.11 "Decision per op") ---- */

typedef struct decision {
    rp_verdict verdict; /* RP_ABSTAIN when the operation passes */
    const char *reason;
} decision;

static decision verdict_of(rp_verdict v, const char *reason)
{
    decision d = {v, reason};
    return d;
}

static decision decide_read(const rp_gh_policy *p, const rp_gh_op *op, rp_arena *a)
{
    if (p->read_all)
        return verdict_of(RP_ABSTAIN, NULL);
    if (op->repo == NULL)
        return verdict_of(RP_ASK, rp_arena_sprintf(a,
                                                   "Reads are restricted to the configured repos, "
                                                   "but the target repo of `%s` could not be "
                                                   "determined. Approve?",
                                                   op->detail));
    if (rp_gh_repo_in(op->repo, p->read_repos, p->n_read_repos))
        return verdict_of(RP_ABSTAIN, NULL);
    return verdict_of(RP_DENY, rp_gh_reason_read_repos(p, a, &op->repo, 1));
}

static decision decide_write(const rp_gh_policy *p, const rp_gh_op *op, rp_arena *a)
{
    if (op->force && p->deny_force_push)
        return verdict_of(RP_DENY, "Force push is blocked by policy. Remove the force flag "
                                   "(--force / -f / --force-with-lease / --force-if-includes / "
                                   "+refspec) or set deny_force_push=False.");
    if (op->destructive && !p->allow_destructive)
        return verdict_of(RP_DENY, rp_arena_sprintf(a,
                                                    "%s Destructive operation `%s` is blocked by "
                                                    "default. Set allow_destructive=true to "
                                                    "permit deletes.",
                                                    p->deny_reason, op->detail));
    if (op->tag_push && p->deny_tag_push)
        return verdict_of(RP_DENY, rp_gh_reason_prefixed(p, a,
                                                         "Pushing tags is blocked by policy "
                                                         "(deny_tag_push is enabled)."));
    if (op->repo == NULL)
        return verdict_of(RP_ASK, rp_arena_sprintf(a,
                                                   "The target repo of `%s` could not be "
                                                   "determined (e.g. a local remote alias). "
                                                   "Approve this write?",
                                                   op->detail));
    if (!rp_gh_repo_in(op->repo, p->write_repos, p->n_write_repos))
        return verdict_of(RP_DENY, rp_gh_reason_write_repos(p, a, &op->repo, 1));
    if (p->n_write_branches > 0) {
        const char **bad = rp_arena_alloc(a, (op->n_branches + 1) * sizeof *bad);
        size_t n_bad = 0;
        for (size_t i = 0; i < op->n_branches; i++) {
            bool seen = false;
            for (size_t k = 0; k < n_bad; k++)
                seen = seen || strcmp(bad[k], op->branches[i]) == 0;
            if (!seen &&
                !rp_gh_branch_allowed(op->branches[i], p->write_branches, p->n_write_branches))
                bad[n_bad++] = op->branches[i];
        }
        if (n_bad > 0)
            return verdict_of(RP_DENY, rp_gh_reason_bad_branches(p, a, bad, n_bad));
        if (op->branch_targeted && op->n_branches == 0)
            return verdict_of(RP_ASK, rp_arena_sprintf(a,
                                                       "`%s` writes to an allowed repo but its "
                                                       "target branch could not be determined, "
                                                       "and writes are branch-restricted. "
                                                       "Approve?",
                                                       op->detail));
    }
    if (op->unresolved)
        return verdict_of(RP_ASK, unparseable_reason(a, op->segment));
    return verdict_of(RP_ABSTAIN, NULL);
}

static decision decide_op(const rp_gh_policy *p, const rp_gh_op *op, rp_arena *a)
{
    switch (op->kind) {
    case RP_GH_OP_UNPARSEABLE:
        return verdict_of(RP_ASK, unparseable_reason(a, op->segment));
    case RP_GH_OP_READ:
        return decide_read(p, op, a);
    case RP_GH_OP_WRITE:
        return decide_write(p, op, a);
    }
    return verdict_of(RP_ASK, unparseable_reason(a, op->segment));
}

/* ---- the shell path ---- */

static bool is_word_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_';
}

/* Whether `word` occurs in text as a regex \b-delimited word (ASCII word characters). */
static bool mentions_word(const char *text, const char *word)
{
    size_t len = strlen(word);
    for (const char *p = strstr(text, word); p != NULL; p = strstr(p + 1, word))
        if ((p == text || !is_word_char(p[-1])) && !is_word_char(p[len]))
            return true;
    return false;
}

static void keep_stricter(decision *best, decision d)
{
    if (d.verdict > best->verdict) /* RP_ABSTAIN < RP_ALLOW < RP_ASK < RP_DENY */
        *best = d;
}

/* The operation of one simple command, if it is git or gh, decided into *best. */
static void decide_command(const rp_gh_policy *p, const rp_sh_command *c, const char *command,
                           rp_arena *a, decision *best)
{
    rp_gh_op op;
    bool found = false;
    if (c->program == NULL)
        return;
    if (strcmp(c->program, "git") == 0)
        found = rp_gh_classify_git(a, c, command, &op);
    else if (strcmp(c->program, "gh") == 0)
        found = rp_gh_classify_gh(a, c, command, &op);
    if (!found)
        return;
    /* xargs / find -exec add arguments at run time: more refspecs, more flags. */
    if (c->extra_args && op.kind == RP_GH_OP_WRITE)
        op.unresolved = true;
    if (op.unresolved && op.segment == NULL)
        op.segment = rp_gh_command_text(a, c, command);
    keep_stricter(best, decide_op(p, &op, a));
}

static decision evaluate_shell(const rp_gh_policy *p, const char *tool, const char *command,
                               rp_eval_ctx *ctx)
{
    rp_arena *a = ctx->arena;
    decision best = {RP_ABSTAIN, NULL};
    struct rp_sh_parse parse = {0};

    if (rp_shell_tool_is_bash(tool))
        rp_shell_parse_once(ctx, command, &parse);
    else
        parse.unreadable = true; /* PowerShell: not bash */

    /* Complete commands, then the reference's fallback for an unreadable command, then the
     * command the parser was cut short in (see shell_partial.h). */
    for (size_t i = 0; i < parse.n_commands; i++)
        if (!rp_shell_cut_short(&parse, &parse.commands[i], command))
            decide_command(p, &parse.commands[i], command, a, &best);
    if (parse.unreadable && (mentions_word(command, "git") || mentions_word(command, "gh"))) {
        size_t start, len;
        rp_py_strip(command, strlen(command), &start, &len);
        rp_gh_op op = {.kind = RP_GH_OP_UNPARSEABLE,
                       .segment = rp_arena_strndup(a, command + start, len)};
        keep_stricter(&best, decide_op(p, &op, a));
    }
    for (size_t i = 0; i < parse.n_commands; i++)
        if (rp_shell_cut_short(&parse, &parse.commands[i], command))
            decide_command(p, &parse.commands[i], command, a, &best);
    return best;
}

static int github_policy_evaluate(const void *instance, const rp_event *ev, const rp_json *state,
                                  rp_eval_ctx *ctx, rp_result *out)
{
    const rp_gh_policy *p = instance;
    (void)state;

    if (ev->type != RP_EV_TOOL_CALL)
        return 0;
    const char *name = rp_json_get_str(ev->data, "name");
    if (name == NULL)
        return 0;
    if (!rp_is_shell_tool(name, p->shell_tools)) {
        rp_gh_evaluate_mcp(p, name, rp_json_get(ev->data, "arguments"), ctx->arena, out);
        return 0;
    }
    const char *command = rp_shell_command_of(ev, p->shell_tools);
    if (command == NULL)
        return 0;
    decision d = evaluate_shell(p, name, command, ctx);
    out->verdict = d.verdict;
    out->reason = d.reason;
    return 0;
}

const rp_policy_type rp_policy_github_policy = {
    .name = "github_policy",
    .module = "omnigent.policies.builtins.github",
    .description = "Gate GitHub reads, writes, deletes, tag and force pushes by repo and branch.",
    .params = github_policy_params,
    .n_params = sizeof github_policy_params / sizeof github_policy_params[0],
    .create = github_policy_create,
    .evaluate = github_policy_evaluate,
};
