/* worktree_guard — DENY writes outside the worker's worktree (reference §5.16, issue 3).
 *
 * The reference checks the path of seven write tools textually: it never knows the cwd, so it
 * denies every absolute path, and it misses every other host's write tools, apply_patch and
 * the shell (Known weakness). rampart checks every tool of the RP_TOOLS_WRITE set (paths of
 * apply_patch from its headers) and the write targets of shell commands (src/shell/targets.c).
 * When context.cwd is known it is the worktree: relative paths resolve against it, absolute
 * paths inside it pass, `..` and symlink escapes (through ctx->fs) are denied. Without it the
 * reference's textual rule applies. Device sinks (/dev/null, …) are not writes; the roots of
 * `extra_write_roots` are allowed too. allowed_root only names the worktrees directory in the
 * reason, as in the reference. */
#include <string.h>

#include "core/buf.h"
#include "engine/policy.h"
#include "path/path.h"
#include "policies/builtins.h"
#include "policies/common/common.h"
#include "shell/devices.h"
#include "core/pyrepr.h"
#include "policies/common/shell_input.h"
#include "policies/common/tools.h"
#include "shell/targets.h"
#include "shell/patch.h"
#include "shell/shell.h"

#define DEFAULT_ALLOWED_ROOT ".worktrees"
#define DEFAULT_DENY_REASON  "Worker writes must stay inside its worktree."

typedef struct worktree_guard {
    const char *allowed_root;
    const char *deny_reason;
    const char **extra_roots; /* normalised; absolute or "~"-prefixed as given */
    size_t n_extra_roots;
} worktree_guard;

static const rp_param_spec worktree_guard_params[] = {
    {.name = "allowed_root",
     .kind = RP_PARAM_STRING,
     .default_json = "\"" DEFAULT_ALLOWED_ROOT "\"",
     .description = "The worktrees directory, named in the reason (the worker runs inside its "
                    "own worktree; context.cwd is that worktree when the host sends it)."},
    {.name = "deny_reason",
     .kind = RP_PARAM_STRING,
     .default_json = "\"" DEFAULT_DENY_REASON "\"",
     .description = "Reason prefix of every DENY."},
    {.name = "extra_write_roots",
     .kind = RP_PARAM_STRING_LIST,
     .default_json = "[]",
     .description = "Absolute directories a worker may also write (a scratch directory); "
                    "~ expands against context.home."},
};

static int worktree_guard_create(const rp_json *params, rp_arena *a, void **instance,
                                 rp_param_error *err)
{
    const rp_json *root = rp_json_get(params, "allowed_root");
    const rp_json *reason = rp_json_get(params, "deny_reason");
    const rp_json *extra = rp_json_get(params, "extra_write_roots");

    if (!rp_json_is_string(root))
        return rp_param_fail(err, "allowed_root", "allowed_root must be a string");
    if (!rp_json_is_string(reason))
        return rp_param_fail(err, "deny_reason", "deny_reason must be a string");
    if (extra != NULL && extra->type != RP_JSON_NULL && !rp_json_is_array(extra))
        return rp_param_fail(err, "extra_write_roots", "extra_write_roots must be a list");

    worktree_guard *w = rp_arena_calloc(a, sizeof *w);
    w->allowed_root = rp_arena_strndup(a, root->v.s, root->len);
    w->deny_reason = rp_arena_strndup(a, reason->v.s, reason->len);
    size_t n = 0;
    const char **roots = rp_pol_string_list(extra, a, &n);
    w->extra_roots = rp_arena_alloc(a, (n + 1) * sizeof *w->extra_roots);
    for (size_t i = 0; i < n; i++) {
        if (roots[i][0] != '/' && roots[i][0] != '~' && strncmp(roots[i], "$HOME", 5) != 0)
            return rp_param_fail(err, "extra_write_roots",
                                 "extra_write_roots entries must be absolute paths, got '%s'",
                                 roots[i]);
        w->extra_roots[w->n_extra_roots++] = rp_path_normalize(a, roots[i]);
    }
    *instance = w;
    return 0;
}

/* What the policy knows about where the worker runs. */
typedef struct worktree_view {
    const worktree_guard *w;
    rp_eval_ctx *ctx;
    const char *cwd;  /* normalised absolute worktree, or NULL */
    const char *home; /* context.home, or NULL */
} worktree_view;

/* "C:…": an ASCII letter then a colon (a Windows drive; "Ω:" is not one). */
static bool is_drive_letter(const char *p)
{
    char c = (char)(p[0] | 0x20);
    return c >= 'a' && c <= 'z' && p[1] == ':';
}

/* The reference's textual rule: a backslash, a drive letter, or a normalised path starting
 * with "/", "~" or "..". */
static bool textually_outside(rp_arena *a, const char *path)
{
    if (strchr(path, '\\') != NULL)
        return true;
    const char *norm = rp_path_normalize(a, path);
    /* posixpath keeps a leading "//"; either way it starts with "/". */
    if (norm[0] == '/' || norm[0] == '~' || strncmp(norm, "..", 2) == 0)
        return true;
    return is_drive_letter(norm);
}

static bool under_any_root(const worktree_view *v, const char *abs_path, bool canonical)
{
    rp_arena *a = v->ctx->arena;
    const rp_fs_view *fs = canonical ? v->ctx->fs : NULL;
    if (v->cwd != NULL &&
        rp_path_is_under(abs_path, canonical ? rp_path_canonical(a, v->cwd, fs) : v->cwd))
        return true;
    for (size_t i = 0; i < v->w->n_extra_roots; i++) {
        const char *root =
            rp_path_normalize(a, rp_path_expand_home(a, v->w->extra_roots[i], v->home));
        if (root[0] != '/')
            continue;
        if (canonical)
            root = rp_path_canonical(a, root, fs);
        if (rp_path_is_under(abs_path, root))
            return true;
    }
    return false;
}

/* Whether writing `path` (relative to `base`, see rp_sh_write_target) leaves the worktree. */
static bool outside(const worktree_view *v, const char *path, bool dynamic, const char *base)
{
    rp_arena *a = v->ctx->arena;
    if (strchr(path, '\\') != NULL)
        return true;
    if (is_drive_letter(path))
        return true;
    const char *p = path;
    if (v->home != NULL)
        p = rp_path_expand_home(a, p, v->home);
    /* A home the event did not tell us: `~/x` or `$HOME/x` is not inside the worktree (joining
     * it to the cwd would make "<cwd>/~/x" of it). */
    if (p[0] == '~' || strncmp(p, "$HOME", 5) == 0 || strncmp(p, "${HOME}", 7) == 0)
        return true;
    if (dynamic && p[0] != '/' && p[0] != '.')
        return false; /* `$OUT`, `$(mktemp)`: where it points cannot be read from the text */
    if (p[0] != '/' && base != NULL) {
        if (base[0] == '\0')
            return false; /* after a cd to an unknown place */
        p = rp_path_join(a, base, p);
    }

    const char *norm = rp_path_normalize(a, p);
    if (norm[0] == '/' && rp_sh_dev_is_sink(norm))
        return false; /* `> /dev/null` is not a write */
    if (v->cwd == NULL) {
        if (norm[0] == '/')
            return !under_any_root(v, norm, false);
        return textually_outside(a, p);
    }
    const char *abs_path = norm[0] == '/' ? norm : rp_path_join(a, v->cwd, norm);
    if (abs_path[0] == '~' || !under_any_root(v, abs_path, false))
        return true;
    /* A symlink inside the worktree may point out of it: resolve what exists. */
    if (v->ctx->fs != NULL)
        return !under_any_root(v, rp_path_canonical(a, abs_path, v->ctx->fs), true);
    return false;
}

static void deny(const worktree_view *v, const char *path, rp_result *out)
{
    rp_buf b = {0};
    rp_buf_printf(&b, "%s (outside %s/: ", v->w->deny_reason, v->w->allowed_root);
    rp_py_repr_str(&b, path, strlen(path));
    rp_buf_putc(&b, ')');
    out->verdict = RP_DENY;
    out->reason = rp_buf_to_arena(&b, v->ctx->arena);
}

static bool check_targets(const worktree_view *v, const rp_sh_write_targets *t, rp_result *out)
{
    for (size_t i = 0; i < t->n; i++)
        if (outside(v, t->items[i].path, t->items[i].dynamic, t->items[i].base)) {
            deny(v, t->items[i].path, out);
            return true;
        }
    return false;
}

/* The files of one patch text: apply_patch headers and unified-diff lines (shell/patch.h). */
static void patch_text_targets(rp_arena *a, const char *patch, rp_sh_write_targets *t)
{
    rp_sh_patch_target *p;
    size_t n = rp_sh_patch_targets(a, patch, RP_SH_PATCH_HEADERS | RP_SH_PATCH_DIFF, &p);
    for (size_t i = 0; i < n; i++)
        rp_sh_write_targets_add(a, t, p[i].path, false, NULL);
}

/* apply_patch carries the patch body in `command` (Codex), `input` or `patch`; a list form
 * carries it as one of its strings. */
static void patch_targets(rp_arena *a, const rp_json *args, rp_sh_write_targets *t)
{
    static const char *const keys[] = {"command", "input", "patch"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        const rp_json *v = rp_json_get(args, keys[k]);
        if (rp_json_is_string(v))
            patch_text_targets(a, v->v.s, t);
        else if (rp_json_is_array(v))
            for (uint32_t i = 0; i < v->len; i++)
                if (rp_json_is_string(&v->v.items[i]))
                    patch_text_targets(a, v->v.items[i].v.s, t);
    }
}

static void file_tool(const worktree_view *v, const rp_event *ev, rp_result *out)
{
    rp_arena *a = v->ctx->arena;
    rp_sh_write_targets t = {0};
    if (strcmp(ev->tool_name, "apply_patch") == 0) {
        patch_targets(a, ev->arguments, &t);
        check_targets(v, &t, out);
        return;
    }
    /* The reference: arguments.path, or file_path when that is falsy; a non-string means
     * ALLOW. The other hosts' spellings are checked as well. */
    const rp_json *path = rp_json_get(ev->arguments, "path");
    if (!rp_json_truthy(path))
        path = rp_json_get(ev->arguments, "file_path");
    if (rp_json_is_string(path))
        rp_sh_write_targets_add(a, &t, path->v.s, false, NULL);
    static const char *const other_keys[] = {"filePath", "notebook_path", "absolute_path"};
    for (size_t k = 0; k < sizeof other_keys / sizeof other_keys[0]; k++) {
        const char *s = rp_json_str(rp_json_get(ev->arguments, other_keys[k]));
        if (s != NULL)
            rp_sh_write_targets_add(a, &t, s, false, NULL);
    }
    check_targets(v, &t, out);
}

static void shell_tool(const worktree_view *v, const rp_event *ev, const char *command,
                       rp_result *out)
{
    rp_arena *a = v->ctx->arena;
    rp_sh_write_targets t = {0};
    bool unreadable = !rp_shell_tool_is_bash(ev->tool_name);
    if (!unreadable) {
        struct rp_sh_parse parse;
        unreadable = rp_shell_parse_once(v->ctx, command, &parse) != 0 || parse.unreadable;
        rp_sh_write_targets_of(a, &parse, &t);
    }
    /* An unreadable command is never a silent ALLOW of what it redirects into. */
    if (unreadable)
        rp_sh_write_targets_fallback(a, command, &t);
    check_targets(v, &t, out);
}

static int worktree_guard_evaluate(const void *instance, const rp_event *ev, const rp_json *state,
                                   rp_eval_ctx *ctx, rp_result *out)
{
    (void)state;
    out->verdict = RP_ALLOW;
    if (ev->type != RP_EV_TOOL_CALL || ev->tool_name == NULL)
        return 0;

    worktree_view v = {.w = instance, .ctx = ctx, .home = ev->home};
    if (ev->cwd != NULL && ev->cwd[0] == '/')
        v.cwd = rp_path_normalize(ctx->arena, ev->cwd);
    if (v.home != NULL && v.home[0] != '/')
        v.home = NULL;

    if (rp_tool_in_set(RP_TOOLS_WRITE, ev->tool_name)) {
        file_tool(&v, ev, out);
        return 0;
    }
    const char *command = rp_shell_command_of(ev, NULL);
    if (command != NULL)
        shell_tool(&v, ev, command, out);
    return 0;
}

const rp_policy_type rp_policy_worktree_guard = {
    .name = "worktree_guard",
    .module = "omnigent.policies.builtins.orchestration",
    .description = "Deny file writes and shell writes outside the worker's worktree.",
    .params = worktree_guard_params,
    .n_params = sizeof worktree_guard_params / sizeof worktree_guard_params[0],
    .create = worktree_guard_create,
    .evaluate = worktree_guard_evaluate,
};
