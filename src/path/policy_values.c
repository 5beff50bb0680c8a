/* policy_values.c — the spellings a path rule is matched against (policy_values.h, reference
 * §3.5 and §3.6).
 *
 * A rule may be written absolute ("/workspace/project/…"), relative to the project ("src/…"),
 * as a dot-file glob ("*.env") or as the user typed it ("./src/…"); the value must meet each of
 * them, so it is offered in every equivalent spelling, and the last rule matching any spelling
 * wins. The canonical spelling (symlinks resolved) is what the inside/outside test uses, so an
 * in-tree symlink that points outside counts as outside. */
#include "path/policy_values.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

#include "core/utf8.h"
#include "path/glob.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* ---- the literal form ---- */

static bool is_quote(char c)
{
    return c == '\'' || c == '"';
}

static rp_glob_opts home_opts(const rp_path_ctx *pc)
{
    return (rp_glob_opts){.home = pc->home, .win32 = pc->flavor == RP_PATH_WIN32};
}

const char *rp_path_policy_literal(rp_arena *a, const rp_path_ctx *pc, const char *raw)
{
    size_t start, n;
    rp_utf8_trim(raw, strlen(raw), RP_SPACE_JS, &start, &n); /* String.prototype.trim */
    size_t end = start + n;
    if (start < end && is_quote(raw[start]))
        start++;
    if (start < end && is_quote(raw[end - 1]))
        end--;
    if (start < end && raw[start] == '@')
        start++;
    const char *lit = rp_arena_strndup(a, raw + start, end - start);
    rp_glob_opts o = home_opts(pc);
    return rp_glob_expand_home(a, lit, &o);
}

/* ---- canonical form ---- */

/* realpath of the longest existing ancestor of the absolute normalised path p, plus the rest.
 * A lookup that fails for another reason than "no such file" (EACCES, ELOOP, …) ends the walk
 * with the lexical path, as the reference does. A view that fails without setting errno is
 * taken to mean "does not exist" (test fakes often do). */
static const char *canonical_posix(rp_arena *a, const char *p, const rp_fs_view *fs)
{
    if (fs == NULL || fs->realpath == NULL || p[0] != '/')
        return p;
    char resolved[PATH_MAX];
    size_t n = strlen(p);
    char *prefix = rp_arena_strndup(a, p, n);
    size_t plen = n;
    for (;;) {
        errno = 0;
        if (fs->realpath(fs->self, plen == 0 ? "/" : prefix, resolved, sizeof resolved) == 0)
            break;
        if (errno != 0 && errno != ENOENT && errno != ENOTDIR)
            return p;
        if (plen == 0)
            return p;
        while (plen > 0 && prefix[plen - 1] != '/')
            plen--;
        if (plen > 0)
            plen--; /* "/a/b" → "/a", "/a" → "" (the root) */
        prefix[plen] = '\0';
    }
    resolved[sizeof resolved - 1] = '\0';
    if (plen == n)
        return rp_pathf_normalize(a, RP_PATH_POSIX, resolved);
    return rp_pathf_resolve(a, RP_PATH_POSIX, resolved, p + plen + 1);
}

static const char *canonical(rp_arena *a, const rp_path_ctx *pc, const char *absolute)
{
    if (pc->flavor == RP_PATH_WIN32)
        return absolute; /* no filesystem to ask; absolute is already folded */
    return canonical_posix(a, absolute, pc->fs);
}

void rp_path_ctx_init(rp_path_ctx *pc, rp_arena *a, rp_path_flavor flavor, const char *cwd,
                      const char *home, const rp_fs_view *fs)
{
    pc->flavor = flavor;
    pc->home = home;
    pc->fs = fs;
    pc->cwd = NULL;
    pc->cwd_canonical = NULL;
    if (cwd == NULL || cwd[0] == '\0')
        return; /* an empty cwd is an unknown one, as the reference's configureForCwd has it */
    pc->cwd = rp_pathf_resolve(a, flavor, NULL, cwd);
    pc->cwd_canonical = canonical(a, pc, rp_pathf_fold(a, flavor, pc->cwd));
}

/* ---- the values ---- */

static void add_value(rp_path_values *out, const char *v)
{
    if (v == NULL || out->n == RP_PATH_MAX_VALUES)
        return;
    for (size_t i = 0; i < out->n; i++)
        if (strcmp(out->values[i], v) == 0)
            return;
    out->values[out->n++] = v;
}

/* The cases every variant shares: nothing to check, the catch-all, or literal-only. */
static bool trivial_values(const char *lit, rp_path_values *out, bool literal_only)
{
    memset(out, 0, sizeof *out);
    out->literal = lit;
    if (lit[0] == '\0')
        return true;
    if (strcmp(lit, "*") == 0) {
        out->star = true;
        add_value(out, lit);
        return true;
    }
    if (literal_only) {
        out->literal_only = true;
        add_value(out, lit);
        return true;
    }
    return false;
}

void rp_path_policy_values_literal(rp_arena *a, const rp_path_ctx *pc, const char *raw,
                                   rp_path_values *out)
{
    trivial_values(rp_path_policy_literal(a, pc, raw), out, true);
}

void rp_path_policy_values(rp_arena *a, const rp_path_ctx *pc, const char *raw, const char *base,
                           rp_path_values *out)
{
    const char *lit = rp_path_policy_literal(a, pc, raw);
    if (base != NULL && pc->cwd != NULL && !rp_pathf_is_absolute(pc->flavor, base))
        base = rp_pathf_resolve(a, pc->flavor, pc->cwd, base); /* documented as absolute */
    if (base == NULL)
        base = pc->cwd;
    if (trivial_values(lit, out, base == NULL))
        return;
    rp_path_flavor f = pc->flavor;
    out->absolute = rp_pathf_fold(a, f, rp_pathf_resolve(a, f, base, lit));
    add_value(out, out->absolute);
    /* The project-relative spelling, only inside the session cwd (a bash token after `cd`
     * is still spelled relative to where the session started); the cwd itself has none. */
    if (pc->cwd != NULL && rp_pathf_inside(a, f, pc->cwd, out->absolute))
        add_value(out, rp_pathf_relative(a, f, pc->cwd, out->absolute));
    add_value(out, lit);
    out->canonical = canonical(a, pc, out->absolute);
    add_value(out, out->canonical);
    if (out->canonical != out->absolute && strcmp(out->canonical, out->absolute) != 0 &&
        pc->cwd_canonical != NULL && rp_pathf_inside(a, f, pc->cwd_canonical, out->canonical))
        add_value(out, rp_pathf_relative(a, f, pc->cwd_canonical, out->canonical));
}

/* ---- outside (§3.6) ---- */

bool rp_path_is_safe_device(const char *p)
{
    return strcmp(p, "/dev/null") == 0 || strcmp(p, "/dev/stdin") == 0 ||
           strcmp(p, "/dev/stdout") == 0 || strcmp(p, "/dev/stderr") == 0;
}

bool rp_path_outside(rp_arena *a, const rp_path_ctx *pc, const char *canonical_path)
{
    if (canonical_path == NULL || canonical_path[0] == '\0' ||
        rp_path_is_safe_device(canonical_path) || pc->cwd_canonical == NULL)
        return false;
    return !rp_pathf_within(a, pc->flavor, pc->cwd_canonical, canonical_path);
}
