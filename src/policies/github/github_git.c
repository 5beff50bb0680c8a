/* github_git.c — a `git` simple command as github_policy sees it (reference §5.11 "Shell path",
 * `git`).
 *
 * Unlike the reference, git's own global options before the subcommand are read as git reads
 * them (`-C DIR`, `-c k=v`, `--git-dir X`, `--no-pager`, …), so `git -C d push -f` is the push
 * it is. A one-off alias (`git -c alias.p=push p …`, `--config-env alias.p=VAR`) cannot be
 * resolved from the text and is asked about, and so is a subcommand that is a variable. A
 * `-c url.<base>.insteadOf=…` rewrites where every URL goes, so URLs then name no repo.
 *
 * Pushes: force, delete, tag and branch are read from the options and refspecs with the same
 * strictness as blast_radius (issue 3): any `--force…` spelling or abbreviation, a short bundle
 * with `f` (or `d`) before any `o` (`-o` takes a value, so `-o=fast` is not a force), `+refspec`,
 * `:ref`, `--mirror` (force-updates and deletes), `--prune`, `tag <name>`. */
#include <string.h>

#include "shell/git.h"
#include "policies/github/github.h"
#include "core/pyrepr.h"

/* The remote subcommands that read from a repository. */
static const char *const git_read_subcommands[] = {"clone", "fetch", "pull", "ls-remote", NULL};

static bool in_list(const char *s, const char *const *list)
{
    for (size_t i = 0; list[i] != NULL; i++)
        if (strcmp(s, list[i]) == 0)
            return true;
    return false;
}

const char *rp_gh_command_text(rp_arena *a, const rp_sh_command *c, const char *src)
{
    size_t src_len = strlen(src);
    size_t from = 0, to = src_len;
    if (c != NULL && c->end > c->offset && c->end <= src_len) {
        from = c->offset;
        to = c->end;
    }
    size_t start, len;
    rp_py_strip(src + from, to - from, &start, &len);
    return rp_arena_strndup(a, src + from + start, len);
}

/* Whether long option `name` (without "--", up to '=' or the end; len chars) is an abbreviation
 * of `full` that git accepts: at least `min` characters of it. */
static bool abbrev_of(const char *name, size_t len, const char *full, size_t min)
{
    return len >= min && len <= strlen(full) && strncmp(name, full, len) == 0;
}

/* A refspec's destination: a tag push, or a target branch. */
static void read_refspec(rp_arena *a, rp_gh_op *op, const char *refspec)
{
    if (refspec[0] == '+')
        op->force = true;
    if (refspec[0] == ':')
        op->destructive = true;
    const char *colon = strchr(refspec, ':');
    const char *dest = colon != NULL ? colon + 1 : refspec;
    while (*dest == '+')
        dest++;
    if (strncmp(dest, "refs/tags/", 10) == 0) {
        op->tag_push = true;
        return;
    }
    char *branch = rp_gh_branch_normalize(a, dest);
    if (branch != NULL)
        op->branches[op->n_branches++] = branch; /* room for every word: see read_push */
}

/* Reads `git push` arguments from words[first..]. */
static void read_push(rp_arena *a, const rp_sh_command *c, size_t first, bool rewrites_urls,
                      rp_gh_op *op)
{
    const char **positionals = rp_arena_alloc(a, (c->n_words + 1) * sizeof *positionals);
    size_t n_pos = 0;
    const char *repo_option = NULL; /* --repo=<repository> */
    bool options_done = false;

    op->kind = RP_GH_OP_WRITE;
    op->detail = "git push";
    op->branches = rp_arena_alloc(a, (c->n_words + 1) * sizeof *op->branches);
    op->branch_targeted = true;
    for (size_t i = first; i < c->n_words; i++) {
        const rp_sh_word *w = &c->words[i];
        const char *t = w->text;
        if (!rp_sh_word_static(w))
            op->unresolved = true;
        if (!options_done && (strcmp(t, "--") == 0 || strcmp(t, "--end-of-options") == 0)) {
            options_done = true;
            continue;
        }
        if (options_done || t[0] != '-' || t[1] == '\0') {
            positionals[n_pos++] = t;
            continue;
        }
        if (t[1] == '-') {
            const char *name = t + 2;
            const char *eq = strchr(name, '=');
            size_t len = eq != NULL ? (size_t)(eq - name) : strlen(name);
            const char *next = i + 1 < c->n_words ? c->words[i + 1].text : NULL;
            if (strncmp(name, "for", 3) == 0) /* --force, --force-with-lease[=…], --forc, … */
                op->force = true;
            if (abbrev_of(name, len, "delete", 2) || abbrev_of(name, len, "prune", 3))
                op->destructive = true;
            if (abbrev_of(name, len, "mirror", 2))
                op->force = op->destructive = op->tag_push = true;
            if (abbrev_of(name, len, "tags", 2) || abbrev_of(name, len, "follow-tags", 3))
                op->tag_push = true;
            if (abbrev_of(name, len, "repo", 3)) {
                repo_option = eq != NULL ? eq + 1 : next;
                i += eq == NULL && next != NULL;
            } else if (eq == NULL && next != NULL &&
                       (abbrev_of(name, len, "push-option", 2) ||
                        abbrev_of(name, len, "receive-pack", 4) ||
                        abbrev_of(name, len, "exec", 2) ||
                        abbrev_of(name, len, "recurse-submodules", 4))) {
                i++; /* the option's value */
            }
            continue;
        }
        /* A short bundle: -f, -uf, -d, -o VALUE / -oVALUE (the rest is -o's value). */
        for (const char *p = t + 1; *p != '\0'; p++) {
            if (*p == 'o') {
                i += p[1] == '\0' && i + 1 < c->n_words;
                break;
            }
            if (*p == 'f')
                op->force = true;
            if (*p == 'd')
                op->destructive = true;
        }
    }

    /* The repository: the first positional (it wins over --repo, as in git), else --repo. A
     * remote alias names no repo; then, as the reference does (it takes any URL word), a github
     * URL in --repo or among the refspecs still counts. */
    const char *remote = n_pos > 0 ? positionals[0] : repo_option;
    if (!rewrites_urls) {
        op->repo = rp_gh_repo_from_url(a, remote);
        if (op->repo == NULL)
            op->repo = rp_gh_repo_from_url(a, repo_option);
        for (size_t k = 1; op->repo == NULL && k < n_pos; k++)
            op->repo = rp_gh_repo_from_url(a, positionals[k]);
    }
    for (size_t k = 1; k < n_pos; k++) {
        /* `tag <name>` means refs/tags/<name>:refs/tags/<name>. */
        if (strcmp(positionals[k], "tag") == 0 && k + 1 < n_pos) {
            op->tag_push = true;
            k++;
            continue;
        }
        read_refspec(a, op, positionals[k]);
    }
}

bool rp_gh_classify_git(rp_arena *a, const rp_sh_command *c, const char *src, rp_gh_op *op)
{
    rp_sh_git_globals g;
    memset(op, 0, sizeof *op);
    rp_sh_git_read_globals(c, &g);
    if (g.subcommand >= c->n_words)
        return false;

    const rp_sh_word *sub = &c->words[g.subcommand];
    if (!rp_sh_word_static(sub) || rp_sh_git_alias_index(&g, sub->text) >= 0 ||
        (g.overflow && g.n_aliases > 0)) {
        /* `git $cmd …` or a one-off alias: what runs cannot be known from the text. */
        op->kind = RP_GH_OP_UNPARSEABLE;
        op->segment = rp_gh_command_text(a, c, src);
        return true;
    }
    if (strcmp(sub->text, "push") == 0) {
        read_push(a, c, g.subcommand + 1, g.rewrites_urls, op);
        return true;
    }
    if (!in_list(sub->text, git_read_subcommands))
        return false;

    op->kind = RP_GH_OP_READ;
    op->detail = rp_arena_sprintf(a, "git %s", sub->text);
    for (size_t i = g.subcommand + 1; !g.rewrites_urls && op->repo == NULL && i < c->n_words; i++) {
        op->repo = rp_gh_repo_from_url(a, c->words[i].text);
        if (op->repo == NULL)
            op->repo = rp_gh_repo_from_api_path(a, c->words[i].text);
    }
    return true;
}
