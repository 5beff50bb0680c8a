/* block_working_dir_changes — DENY (or ASK) shell commands that change the working directory
 * (`cd`, `chdir`, `pushd`, `popd`, `git -C DIR`) or switch git worktrees (`git worktree
 * add|move|remove`), optionally allowing cd into `allowed_dirs` (reference §5.12).
 *
 * Every simple command the shell parser lists is checked, wherever it sits (`bash -c 'cd /etc'`,
 * `nohup -- cd /etc`, `builtin cd`, `command cd`, `(cd /etc && ls)`, substitutions), and `git`
 * also as /usr/bin/git, with its global options read as git reads them (so `git commit -C HEAD`
 * is not a directory change, and `git -c k=v worktree add` is a worktree switch).
 *
 * allowed_dirs: targets and entries are compared after normalisation (`..`, `//`, trailing `/`).
 * Beyond the reference, `~`/`$HOME` are expanded against context.home when the event carries it,
 * and relative paths are resolved against context.cwd when it is known (else, as the reference,
 * a relative target only matches a relative entry). A target that is still dynamic ($VAR,
 * substitutions, globs) cannot be placed and is never allowed; nor is a relative target that
 * bash would look up in a CDPATH the command itself assigns (`CDPATH=/etc cd x`). A CDPATH
 * inherited from the environment is not visible in the event; relative names starting with `.`
 * or `..` never use it.
 *
 * A command the parser cannot read gets the configured action when its text mentions cd, chdir,
 * pushd or popd, or git with worktree or ` -C` (the reference's fallback and reason text). */
#include <string.h>

#include "engine/policy.h"
#include "path/path.h"
#include "policies/builtins.h"
#include "policies/common/common.h"
#include "shell/git.h"
#include "core/pyrepr.h"
#include "policies/common/shell_input.h"
#include "policies/common/shell_partial.h"
#include "shell/shell.h"

#define SEGMENT_CHARS 60 /* the reference quotes segment[:60] */

typedef struct working_dir_policy {
    bool block_cd;
    bool block_worktree;
    const char **allowed; /* normalised as configured (what the reason lists); n == 0: unset */
    size_t n_allowed;
    rp_verdict action;
    const rp_json *shell_tools;
} working_dir_policy;

static const char *const action_values[] = {"deny", "ask", NULL};

static const rp_param_spec working_dir_params[] = {
    {.name = "block_cd",
     .kind = RP_PARAM_BOOL,
     .default_json = "true",
     .description = "Gate cd, chdir, pushd, popd and git -C."},
    {.name = "block_worktree",
     .kind = RP_PARAM_BOOL,
     .default_json = "true",
     .description = "Gate git worktree add, move and remove."},
    {.name = "allowed_dirs",
     .kind = RP_PARAM_STRING_LIST,
     .description = "Directories (and their subdirectories) cd may enter."},
    {.name = "action",
     .kind = RP_PARAM_STRING,
     .default_json = "\"deny\"",
     .enum_values = action_values,
     .description = "deny or ask."},
    {.name = "shell_tools",
     .kind = RP_PARAM_STRING_LIST,
     .default_json = rp_default_shell_tools_json,
     .description = "Tools whose arguments.command is a shell command."},
};

static int working_dir_create(const rp_json *params, rp_arena *a, void **instance,
                              rp_param_error *err)
{
    const rp_json *block_cd = rp_json_get(params, "block_cd");
    const rp_json *block_worktree = rp_json_get(params, "block_worktree");
    const char *action = rp_json_get_str(params, "action");

    /* The validator has already folded the enum's case; the factory's own check stays exact. */
    if (action == NULL || (strcmp(action, "deny") != 0 && strcmp(action, "ask") != 0)) {
        rp_buf b = {0};
        if (action != NULL)
            rp_py_repr_str(&b, action, strlen(action));
        int rc = rp_param_fail(err, "action", "action must be 'deny' or 'ask', got %s",
                               b.data != NULL ? b.data : "None");
        rp_buf_free(&b);
        return rc;
    }
    working_dir_policy *p = rp_arena_calloc(a, sizeof *p);
    p->block_cd = block_cd != NULL && block_cd->type == RP_JSON_BOOL ? block_cd->v.b : true;
    p->block_worktree =
        block_worktree != NULL && block_worktree->type == RP_JSON_BOOL ? block_worktree->v.b : true;
    if (!p->block_cd && !p->block_worktree)
        return rp_param_fail(err, "",
                             "block_working_dir_changes gates nothing when both "
                             "block_cd and block_worktree are False; enable at least "
                             "one.");
    p->action = strcmp(action, "ask") == 0 ? RP_ASK : RP_DENY;

    /* An empty list is "unset" (Python's `if allowed_dirs:`). */
    p->allowed = rp_pol_string_list(rp_json_get(params, "allowed_dirs"), a, &p->n_allowed);
    for (size_t i = 0; i < p->n_allowed; i++)
        p->allowed[i] = rp_path_normalize(a, p->allowed[i]);

    const rp_json *shell_tools = rp_json_get(params, "shell_tools");
    p->shell_tools =
        rp_json_is_array(shell_tools) ? rp_json_new(a, rp_json_clone(a, shell_tools)) : NULL;
    *instance = p;
    return 0;
}

/* ---- what the event tells about where paths resolve ---- */

typedef struct place {
    const char *home; /* context.home, or NULL */
    const char *cwd;  /* context.cwd when absolute, or NULL */
    bool cdpath_set;  /* the command assigns CDPATH somewhere */
} place;

static bool is_cdpath_assignment(const char *text)
{
    return strncmp(text, "CDPATH=", 7) == 0 || strncmp(text, "CDPATH+=", 8) == 0 ||
           strcmp(text, "CDPATH") == 0;
}

/* Whether the parsed command assigns CDPATH: `CDPATH=x cd y`, `CDPATH=x; cd y`,
 * `export CDPATH=x`, `declare -x CDPATH=x`, … */
static bool assigns_cdpath(const struct rp_sh_parse *parse)
{
    static const char *const declarers[] = {"export", "declare",  "typeset",
                                            "local",  "readonly", NULL};
    for (size_t i = 0; i < parse->n_commands; i++) {
        const rp_sh_command *c = &parse->commands[i];
        for (size_t k = 0; k < c->n_assigns; k++)
            if (is_cdpath_assignment(c->assigns[k].text))
                return true;
        if (c->program == NULL)
            continue;
        for (size_t d = 0; declarers[d] != NULL; d++)
            if (strcmp(c->program, declarers[d]) == 0)
                for (size_t k = 1; k < c->n_words; k++)
                    if (is_cdpath_assignment(c->words[k].text))
                        return true;
    }
    return false;
}

/* Whether a relative name skips CDPATH: it starts with a "." or ".." component. */
static bool relative_to_cwd_only(const char *path)
{
    return path[0] == '.' && (path[1] == '\0' || path[1] == '/' ||
                              (path[1] == '.' && (path[2] == '\0' || path[2] == '/')));
}

/* A path normalised for comparison: ~ expanded, made absolute against cwd when known. NULL when
 * it cannot be placed (dynamic, or subject to an assigned CDPATH). */
static const char *resolve(rp_arena *a, const place *where, const char *text, bool dynamic,
                           bool uses_cdpath)
{
    const char *path = text;
    if (where->home != NULL) {
        char *expanded = rp_path_expand_home(a, text, where->home);
        if (strcmp(expanded, text) != 0) {
            path = expanded;
            /* "$HOME" and "${HOME}" were the dynamic part; anything else still is. */
            dynamic = dynamic && strpbrk(path, "$`*?[{") != NULL;
        }
    }
    if (dynamic)
        return NULL;
    if (path[0] != '/') {
        if (uses_cdpath && where->cdpath_set && !relative_to_cwd_only(path))
            return NULL;
        if (where->cwd != NULL)
            return rp_path_join(a, where->cwd, path);
    }
    return rp_path_normalize(a, path);
}

/* Equal to root, or below it ("/a/bc" is not below "/a/b"). Works for relative paths too. */
static bool within(const char *path, const char *root)
{
    size_t len = strlen(root);
    if (strcmp(path, root) == 0)
        return true;
    if (strcmp(root, "/") == 0)
        return path[0] == '/';
    return strncmp(path, root, len) == 0 && path[len] == '/';
}

static bool target_allowed(const working_dir_policy *p, rp_arena *a, const place *where,
                           const char *target)
{
    if (target == NULL)
        return false;
    for (size_t i = 0; i < p->n_allowed; i++) {
        const char *root = resolve(a, where, p->allowed[i], false, false);
        if (root != NULL && within(target, root))
            return true;
    }
    return false;
}

/* ---- reasons ---- */

static const char *cd_reason(const working_dir_policy *p, rp_arena *a, const char *detail)
{
    rp_buf b = {0};
    rp_buf_printf(&b, "Blocked: '%s' changes the working directory", detail);
    if (p->n_allowed > 0) {
        rp_buf_puts(&b, " outside the allowed directories ");
        rp_py_repr_sorted_strs(&b, p->allowed, p->n_allowed);
        rp_buf_putc(&b, '.');
    } else {
        rp_buf_puts(&b, ", which this policy forbids.");
    }
    return rp_buf_to_arena(&b, a);
}

static const char *worktree_reason(rp_arena *a, const char *detail)
{
    return rp_arena_sprintf(a, "Blocked: '%s' switches git worktrees, which this policy forbids.",
                            detail);
}

static const char *unparsed_reason(rp_arena *a, const char *segment, size_t len)
{
    rp_buf b = {0};
    size_t start, n;
    rp_py_strip(segment, len, &start, &n);
    rp_buf_puts(&b, "Blocked: could not parse a shell command (");
    rp_py_repr_str(&b, segment + start, rp_py_prefix_bytes(segment + start, n, SEGMENT_CHARS));
    rp_buf_puts(&b, ") that appears to switch directories or worktrees.");
    return rp_buf_to_arena(&b, a);
}

/* The source text of c (the span of its outermost command). */
static const char *command_text(const rp_sh_command *c, const char *src, size_t *len)
{
    size_t src_len = strlen(src);
    if (c->end > c->offset && c->end <= src_len) {
        *len = c->end - c->offset;
        return src + c->offset;
    }
    *len = src_len;
    return src;
}

/* ---- one simple command ---- */

static bool is_cd_family(const char *program)
{
    return strcmp(program, "cd") == 0 || strcmp(program, "chdir") == 0 ||
           strcmp(program, "pushd") == 0 || strcmp(program, "popd") == 0;
}

/* cd/chdir/pushd/popd: the target is the first argument that is not an option. */
static const char *check_cd(const working_dir_policy *p, rp_arena *a, const place *where,
                            const rp_sh_command *c)
{
    const rp_sh_word *target = NULL;
    for (size_t i = 1; target == NULL && i < c->n_words; i++)
        if (c->words[i].text[0] != '-')
            target = &c->words[i];
    if (target != NULL && target->len == 0)
        target = NULL; /* `cd ""`: no target, as the reference's falsy '' */
    if (p->n_allowed > 0 && target != NULL) {
        const char *path = resolve(a, where, target->text, !rp_sh_word_static(target), true);
        if (path != NULL && target_allowed(p, a, where, path))
            return NULL;
    }
    const char *detail =
        target != NULL ? rp_arena_sprintf(a, "%s %s", c->program, target->text) : c->program;
    return cd_reason(p, a, detail);
}

static bool mentions(const char *text, const char *needle)
{
    return text != NULL && strstr(text, needle) != NULL;
}

/* git: a worktree switch, a one-off alias that may be one, or -C DIR. */
static const char *check_git(const working_dir_policy *p, rp_arena *a, const place *where,
                             const rp_sh_command *c, const char *src)
{
    rp_sh_git_globals g;
    rp_sh_git_read_globals(c, &g);

    if (g.subcommand < c->n_words) {
        const rp_sh_word *sub = &c->words[g.subcommand];
        int alias = rp_sh_git_alias_index(&g, sub->text);
        if (alias >= 0 || !rp_sh_word_static(sub)) {
            /* What runs is not in the text: gate it when it could be what we guard. */
            const char *value = alias >= 0 ? g.alias_values[alias] : NULL;
            if (value == NULL || (p->block_worktree && mentions(value, "worktree")) ||
                (p->block_cd && (mentions(value, "-C") || mentions(value, "cd")))) {
                size_t len;
                const char *text = command_text(c, src, &len);
                return unparsed_reason(a, text, len);
            }
        } else if (p->block_worktree && strcmp(sub->text, "worktree") == 0) {
            const rp_sh_word *verb = NULL;
            for (size_t i = g.subcommand + 1; verb == NULL && i < c->n_words; i++)
                if (c->words[i].text[0] != '-')
                    verb = &c->words[i];
            if (verb != NULL &&
                (!rp_sh_word_static(verb) || strcmp(verb->text, "add") == 0 ||
                 strcmp(verb->text, "move") == 0 || strcmp(verb->text, "remove") == 0))
                return worktree_reason(a, rp_arena_sprintf(a, "git worktree %s", verb->text));
        }
    }
    if (!p->block_cd || g.n_dirs == 0)
        return NULL;

    /* Several -C options stack: each relative one is taken from the previous one. */
    const char *detail = rp_arena_sprintf(a, "git -C %s", g.dirs[g.n_dirs - 1]->text);
    if (p->n_allowed == 0 || g.overflow)
        return cd_reason(p, a, detail);
    const char *path = resolve(a, where, g.dirs[0]->text, !rp_sh_word_static(g.dirs[0]), false);
    for (size_t i = 1; path != NULL && i < g.n_dirs; i++) {
        place from_previous = {.home = where->home, .cwd = path};
        path = resolve(a, &from_previous, g.dirs[i]->text, !rp_sh_word_static(g.dirs[i]), false);
    }
    if (path != NULL && target_allowed(p, a, where, path))
        return NULL;
    return cd_reason(p, a, detail);
}

static const char *check_command(const working_dir_policy *p, rp_arena *a, const place *where,
                                 const rp_sh_command *c, const char *src)
{
    if (c->program == NULL)
        return NULL;
    if (p->block_cd && is_cd_family(c->program))
        return check_cd(p, a, where, c);
    if (strcmp(c->program, "git") == 0)
        return check_git(p, a, where, c, src);
    return NULL;
}

/* ---- the unreadable fallback (reference §5.12) ---- */

static bool is_word_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_';
}

static bool mentions_word(const char *text, const char *word)
{
    size_t len = strlen(word);
    for (const char *s = strstr(text, word); s != NULL; s = strstr(s + 1, word))
        if ((s == text || !is_word_char(s[-1])) && !is_word_char(s[len]))
            return true;
    return false;
}

static bool mentions_dash_c_option(const char *text)
{
    for (const char *s = strstr(text, "-C"); s != NULL; s = strstr(s + 1, "-C"))
        if (s == text || s[-1] == ' ' || s[-1] == '\t' || s[-1] == '\n' || s[-1] == '\r' ||
            s[-1] == '\f' || s[-1] == '\v')
            return true;
    return false;
}

static bool unreadable_text_gated(const working_dir_policy *p, const char *text)
{
    if (p->block_cd && (mentions_word(text, "cd") || mentions_word(text, "chdir") ||
                        mentions_word(text, "pushd") || mentions_word(text, "popd")))
        return true;
    if (!mentions_word(text, "git"))
        return false;
    return (p->block_worktree && mentions_word(text, "worktree")) ||
           (p->block_cd && mentions_dash_c_option(text));
}

static int working_dir_evaluate(const void *instance, const rp_event *ev, const rp_json *state,
                                rp_eval_ctx *ctx, rp_result *out)
{
    const working_dir_policy *p = instance;
    rp_arena *a = ctx->arena;
    (void)state;

    const char *command = rp_shell_command_of(ev, p->shell_tools);
    if (command == NULL)
        return 0;

    struct rp_sh_parse parse = {0};
    if (rp_shell_tool_is_bash(ev->tool_name))
        rp_shell_parse_once(ctx, command, &parse);
    else
        parse.unreadable = true; /* PowerShell: not bash */
    place where = {.home = ev->home,
                   .cwd = ev->cwd != NULL && ev->cwd[0] == '/' ? ev->cwd : NULL,
                   .cdpath_set = assigns_cdpath(&parse)};

    /* Every gate has the same verdict, so the first one decides. Complete commands first, then
     * the reference's fallback for an unreadable command, then the command the parser was cut
     * short in (see shell_partial.h). */
    const char *reason = NULL;
    for (size_t i = 0; reason == NULL && i < parse.n_commands; i++)
        if (!rp_shell_cut_short(&parse, &parse.commands[i], command))
            reason = check_command(p, a, &where, &parse.commands[i], command);
    if (reason == NULL && parse.unreadable && unreadable_text_gated(p, command))
        reason = unparsed_reason(a, command, strlen(command));
    for (size_t i = 0; reason == NULL && i < parse.n_commands; i++)
        if (rp_shell_cut_short(&parse, &parse.commands[i], command))
            reason = check_command(p, a, &where, &parse.commands[i], command);
    if (reason != NULL) {
        out->verdict = p->action;
        out->reason = reason;
    }
    return 0;
}

const rp_policy_type rp_policy_block_working_dir_changes = {
    .name = "block_working_dir_changes",
    .module = "omnigent.policies.builtins.working_dir",
    .description = "Deny or ask when a shell command changes directory or switches git worktrees.",
    .params = working_dir_params,
    .n_params = sizeof working_dir_params / sizeof working_dir_params[0],
    .create = working_dir_create,
    .evaluate = working_dir_evaluate,
};
