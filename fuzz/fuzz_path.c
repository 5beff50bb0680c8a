/* fuzz_path.c — libFuzzer target for the POSIX and win32 path rules and the policy values.
 *
 * Input: one flags byte, then two paths separated by a NUL byte. For both flavors: normalize is
 * idempotent; resolve answers an absolute, normal path; relative/inside/within agree with each
 * other (what is inside resolves back to itself); dirpart is a prefix. rp_path_policy_values
 * (against an empty fake filesystem) gives at most four distinct values led by an absolute one.
 * Any broken invariant aborts. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "path/flavor.h"
#include "path/policy_values.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what, const char *a, const char *b)
{
    if (ok)
        return;
    fprintf(stderr, "fuzz_path: %s\n  a: \"%s\"\n  b: \"%s\"\n", what, a, b ? b : "");
    abort();
}

static char *part(rp_arena *a, const uint8_t **p, const uint8_t *end)
{
    const uint8_t *s = *p;
    const uint8_t *z = s < end ? memchr(s, 0, (size_t)(end - s)) : NULL;
    const uint8_t *e = z ? z : end;
    *p = z ? z + 1 : end;
    return rp_arena_strndup(a, (const char *)s, (size_t)(e - s));
}

/* Nothing exists: every lookup fails with ENOENT (or EACCES below /x, to take that branch). */
static int empty_realpath(void *self, const char *path, char *out, size_t n)
{
    (void)self;
    (void)out;
    (void)n;
    errno = strncmp(path, "/x/", 3) == 0 ? EACCES : ENOENT;
    return -1;
}

static const rp_fs_view empty_fs = {.realpath = empty_realpath};

static bool same(rp_arena *a, rp_path_flavor f, const char *x, const char *y)
{
    return strcmp(rp_pathf_fold(a, f, x), rp_pathf_fold(a, f, y)) == 0;
}

/* "\\\\.\\" or "\\\\?\\" device paths, on which Node's win32 rules do not round-trip. */
static bool dev_rooted(rp_path_flavor f, const char *s)
{
    return f == RP_PATH_WIN32 && rp_pathf_is_sep(f, s[0]) && rp_pathf_is_sep(f, s[1]) &&
           (s[2] == '.' || s[2] == '?') && (s[3] == '\0' || rp_pathf_is_sep(f, s[3]));
}

static void flavor_checks(rp_arena *a, rp_path_flavor f, const char *p, const char *q)
{
    char *n = rp_pathf_normalize(a, f, p);
    char *n2 = rp_pathf_normalize(a, f, n);
    /* Node's win32 normalize is not idempotent on device roots ("/\\.\\." → "\\\\.\\" →
     * "\\"), nor once a ':' is involved (its CVE-2024-36139 ".\\" prefix and reserved names make
     * "com1:\\x" alternate between ".\\com1:x" and "com1:x"), and rampart follows Node. */
    if (f == RP_PATH_POSIX || (strchr(p, ':') == NULL && !dev_rooted(f, n)))
        check(strcmp(n2, n) == 0, "normalize is not idempotent", p, n);

    const char *base = f == RP_PATH_WIN32 ? "C:\\base\\dir" : "/base/dir";
    char *r1 = rp_pathf_resolve(a, f, base, p);
    char *r2 = rp_pathf_resolve(a, f, rp_pathf_is_absolute(f, q) ? q : base, q);
    check(rp_pathf_is_absolute(f, r1), "resolve is not absolute", p, r1);
    check(rp_pathf_is_absolute(f, r2), "resolve is not absolute", q, r2);
    check(dev_rooted(f, r1) || strcmp(rp_pathf_normalize(a, f, r1), r1) == 0,
          "resolve is not normal", p, r1);
    check(dev_rooted(f, r1) || strcmp(rp_pathf_resolve(a, f, NULL, r1), r1) == 0,
          "resolve of a resolved path moved", p, r1);

    char *d = rp_pathf_dirpart(a, f, p);
    check(strncmp(d, p, strlen(d)) == 0, "dirpart is not a prefix", p, d);
    check(strlen(rp_pathf_fold(a, f, p)) == strlen(p), "fold changed the length", p, NULL);
    (void)rp_pathf_join(a, f, p, q);

    if (dev_rooted(f, r1) || dev_rooted(f, r2))
        return; /* resolving such a path again changes it: relative's answers do not compare */
    char *rel = rp_pathf_relative(a, f, r1, r2);
    bool inside = rp_pathf_inside(a, f, r1, r2), within = rp_pathf_within(a, f, r1, r2);
    check(!inside || within, "inside but not within", r1, r2);
    check(within == (inside || rel[0] == '\0'), "within is not inside-or-equal", r1, r2);
    check((rel[0] == '\0') == same(a, f, r1, r2), "relative is empty for different paths", r1, r2);
    /* (A win32 segment such as "w:" reads as a drive when it leads a relative path.) */
    if (inside && (f == RP_PATH_POSIX || strchr(rel, ':') == NULL))
        check(same(a, f, rp_pathf_resolve(a, f, r1, rel), r2), "inside, but rel does not lead back",
              r1, r2);
    /* (win32: not across UNC shares, where Node answers "..\\..\\other\\x".) */
    if (f == RP_PATH_POSIX)
        check(strcmp(rp_pathf_resolve(a, f, r1, rel), r2) == 0, "relative does not lead back", r1,
              r2);
    check(!rp_pathf_inside(a, f, r1, r1) && rp_pathf_within(a, f, r1, r1), "a dir and itself", r1,
          NULL);
}

static void values_checks(rp_arena *a, rp_path_flavor f, const char *raw, const char *cwd,
                          const char *base)
{
    rp_path_ctx pc;
    rp_path_ctx_init(&pc, a, f, cwd, f == RP_PATH_WIN32 ? "C:\\Users\\u" : "/home/u", &empty_fs);
    rp_path_values v;
    rp_path_policy_values(a, &pc, raw, base, &v);
    check(v.n <= RP_PATH_MAX_VALUES, "too many values", raw, cwd);
    for (size_t i = 0; i < v.n; i++)
        for (size_t j = i + 1; j < v.n; j++)
            check(strcmp(v.values[i], v.values[j]) != 0, "duplicate values", raw, v.values[i]);
    check((v.n == 0) == (v.literal[0] == '\0'), "no values but a literal", raw, v.literal);
    if (v.n > 0 && !v.star && !v.literal_only) {
        check(v.absolute && v.canonical && strcmp(v.values[0], v.absolute) == 0,
              "values do not start with the absolute one", raw, cwd);
        check(rp_pathf_is_absolute(f, v.absolute), "absolute value is not absolute", raw,
              v.absolute);
        if (f == RP_PATH_WIN32)
            check(strcmp(v.canonical, v.absolute) == 0, "win32 canonical differs", raw, NULL);
        else if (strncmp(v.absolute, "/x/", 3) != 0)
            check(strcmp(v.canonical, v.absolute) == 0, "canonical without any file", raw,
                  v.canonical);
        (void)rp_path_outside(a, &pc, v.canonical);
    }
    if (v.star)
        check(v.n == 1 && strcmp(v.values[0], "*") == 0, "star is not [\"*\"]", raw, NULL);
    for (size_t i = 0; i < v.n; i++)
        check(strncmp(v.values[i], "./", 2) != 0 || strcmp(v.values[i], v.literal) == 0,
              "a cwd-relative alias starts with ./", raw, v.values[i]);
    rp_path_policy_values_literal(a, &pc, raw, &v);
    check(v.n <= 1, "literal-only values hold more than the literal", raw, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    rp_arena arena;
    rp_arena_init(&arena, 4096);
    uint8_t flags = data[0];
    const uint8_t *p = data + 1, *end = data + size;
    char *a = part(&arena, &p, end);
    char *b = part(&arena, &p, end);
    for (int f = RP_PATH_POSIX; f <= RP_PATH_WIN32; f++) {
        flavor_checks(&arena, (rp_path_flavor)f, a, b);
        const char *cwd = (flags & 1) ? NULL : (b[0] ? b : "/w/p");
        const char *base = (flags & 2) ? (f == RP_PATH_WIN32 ? "C:\\w\\p\\sub" : "/w/p/sub") : NULL;
        values_checks(&arena, (rp_path_flavor)f, a, cwd, base);
    }
    rp_arena_free(&arena);
    return 0;
}
