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

#include "path/glob.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* ---- the literal form ---- */

/* Length of the JS-whitespace character (String.prototype.trim: ASCII \t\n\v\f\r and space,
 * U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF) that starts
 * at s, or 0. */
static size_t space_at(const unsigned char *s, size_t n)
{
    if (n >= 1 && (s[0] == ' ' || (s[0] >= '\t' && s[0] <= '\r')))
        return 1;
    if (n >= 2 && s[0] == 0xC2 && s[1] == 0xA0)
        return 2;
    if (n < 3)
        return 0;
    if (s[0] == 0xE1 && s[1] == 0x9A && s[2] == 0x80)
        return 3;
    if (s[0] == 0xE2 && s[1] == 0x80 &&
        ((s[2] >= 0x80 && s[2] <= 0x8A) || s[2] == 0xA8 || s[2] == 0xA9 || s[2] == 0xAF))
        return 3;
    if (s[0] == 0xE2 && s[1] == 0x81 && s[2] == 0x9F)
        return 3;
    if ((s[0] == 0xE3 && s[1] == 0x80 && s[2] == 0x80) ||
        (s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF))
        return 3;
    return 0;
}

/* Length of the JS-whitespace character that ends s[0..n), or 0. */
static size_t space_before(const unsigned char *s, size_t n)
{
    for (size_t l = 1; l <= 3 && l <= n; l++)
        if (space_at(s + n - l, l) == l)
            return l;
    return 0;
}

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
    const unsigned char *s = (const unsigned char *)raw;
    size_t start = 0, end = strlen(raw), l;
    while (start < end && (l = space_at(s + start, end - start)) > 0)
        start += l;
    while (end > start && (l = space_before(s + start, end - start)) > 0)
        end -= l;
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
