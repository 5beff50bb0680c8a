/* fuzz_glob.c — libFuzzer target for the permission wildcard and the shell-glob checks.
 *
 * Input: one flags byte, then pattern, value and token separated by NUL bytes. Every option
 * combination is exercised; any broken invariant aborts:
 *   - rp_glob_match without HOME is rp_glob_match_expanded;
 *   - the pattern matches its own "instance" (each '*' dropped, each '?' made a letter), and
 *     with fold_case its upper-cased instance;
 *   - a token without shell metacharacters or backslashes expands to itself, so could_match on
 *     it is exactly match (the brief's invariant, in both directions);
 *   - a token with a single expansion (rp_glob_literal) can only match through it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "path/glob.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what, const char *pattern, const char *other)
{
    if (ok)
        return;
    fprintf(stderr, "fuzz_glob: %s\n  pattern: \"%s\"\n  other:   \"%s\"\n", what, pattern, other);
    abort();
}

/* The next NUL-separated part of [*p, end) (a copy, so parts are NUL-terminated). */
static char *part(rp_arena *a, const uint8_t **p, const uint8_t *end)
{
    const uint8_t *s = *p;
    const uint8_t *z = s < end ? memchr(s, 0, (size_t)(end - s)) : NULL;
    const uint8_t *e = z ? z : end;
    *p = z ? z + 1 : end;
    return rp_arena_strndup(a, (const char *)s, (size_t)(e - s));
}

/* Well-formed UTF-8 (no overlong forms, surrogates or code points above U+10FFFF). */
static bool utf8(const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    while (*s) {
        unsigned char b = *s;
        size_t n = b < 0x80                   ? 0
                   : (b >= 0xC2 && b <= 0xDF) ? 1
                   : (b >= 0xE0 && b <= 0xEF) ? 2
                   : (b >= 0xF0 && b <= 0xF4) ? 3
                                              : 9;
        if (n == 9)
            return false;
        unsigned char lo = 0x80, hi = 0xBF;
        if (b == 0xE0)
            lo = 0xA0;
        else if (b == 0xED)
            hi = 0x9F;
        else if (b == 0xF0)
            lo = 0x90;
        else if (b == 0xF4)
            hi = 0x8F;
        for (size_t i = 1; i <= n; i++) {
            unsigned char c = s[i];
            if (c < (i == 1 ? lo : 0x80) || c > (i == 1 ? hi : 0xBF))
                return false;
        }
        s += n + 1;
    }
    return true;
}

static bool plain(const char *s)
{
    return strpbrk(s, "*?[\\") == NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    rp_arena arena;
    rp_arena_init(&arena, 4096);
    uint8_t flags = data[0];
    const uint8_t *p = data + 1, *end = data + size;
    char *pattern = part(&arena, &p, end);
    char *value = part(&arena, &p, end);
    char *token = part(&arena, &p, end);
    bool any_prefix = flags & 1;

    /* The pattern's own instances: every wildcard made an 'x' (keeps the characters apart),
     * and, for UTF-8 patterns (where no character can form across a dropped '*'), every '*'
     * dropped. */
    size_t pn = strlen(pattern);
    char *inst_x = rp_arena_alloc(&arena, pn + 1), *inst = rp_arena_alloc(&arena, pn + 1);
    char *upper = rp_arena_alloc(&arena, pn + 1);
    size_t k = 0;
    for (size_t i = 0; i < pn; i++) {
        inst_x[i] = (pattern[i] == '*' || pattern[i] == '?') ? 'x' : pattern[i];
        if (pattern[i] != '*')
            inst[k++] = pattern[i] == '?' ? 'x' : pattern[i];
    }
    inst_x[pn] = '\0';
    inst[k] = '\0';
    const char *base = utf8(pattern) ? inst : inst_x;
    for (size_t i = 0; i <= strlen(base); i++)
        upper[i] = (base[i] >= 'a' && base[i] <= 'z') ? (char)(base[i] - 32) : base[i];
    bool token_utf8 = utf8(token);

    const char *literal = rp_glob_literal(&arena, token);
    bool has_meta = rp_glob_has_meta(token);
    check(!has_meta || strpbrk(token, "*?[") != NULL, "has_meta without a metacharacter", "",
          token);
    check(!plain(token) || (literal && strcmp(literal, token) == 0),
          "a plain token is not its own literal", "", token);

    for (int o = 0; o < 4; o++) {
        rp_glob_opts opts = {.fold_case = o & 1, .fold_sep = (o >> 1) & 1};
        bool m = rp_glob_match(NULL, pattern, value, &opts);
        check(m == rp_glob_match_expanded(pattern, value, &opts), "match != match_expanded",
              pattern, value);
        check(rp_glob_match_expanded(pattern, inst_x, &opts), "pattern misses its x instance",
              pattern, inst_x);
        check(base != inst || rp_glob_match_expanded(pattern, inst, &opts),
              "pattern misses its instance", pattern, inst);
        if (opts.fold_case)
            check(rp_glob_match_expanded(pattern, upper, &opts),
                  "fold_case misses the upper-cased instance", pattern, upper);

        bool could = rp_glob_could_match(pattern, token, any_prefix, &opts);
        if (plain(token) && !any_prefix) {
            bool tm = rp_glob_match_expanded(pattern, token, &opts);
            check(!tm || could, "match on a plain token, but could_match says no", pattern, token);
            check(!could || tm || !token_utf8, "could_match on a plain token, but match says no",
                  pattern, token);
        }
        if (literal != NULL && could && !any_prefix && !opts.fold_sep && token_utf8)
            check(rp_glob_match_expanded(pattern, literal, &opts),
                  "could_match without its only expansion matching", pattern, token);

        /* With HOME (posix and win32 joins). */
        rp_glob_opts h = opts;
        h.home = (flags & 2) ? "C:\\Users\\u" : "/home/u";
        h.win32 = (flags & 2) != 0;
        const char *ex = rp_glob_expand_home(&arena, pattern, &h);
        check(rp_glob_match(&arena, pattern, value, &h) == rp_glob_match_expanded(ex, value, &h),
              "match with HOME != match of the expansion", pattern, value);
        (void)rp_glob_could_match(ex, token, any_prefix, &h);
    }
    rp_arena_free(&arena);
    return 0;
}
