/* patch.c — the files a patch names (patch.h). Line by line, with no hunk tracking, so that no
 * header can hide from it behind hunk state Codex and this reader could see differently. */
#include "shell/patch.h"

#include <stdbool.h>
#include <string.h>

#include "core/utf8.h"

/* Whitespace is what Rust's str::trim removes (the Unicode White_Space property), because Codex
 * trims each patch line with it before it matches a header: a header indented by an em space
 * is still one, and the path Codex writes has no no-break space stuck to it. Invalid UTF-8 is
 * simply not whitespace. */
static void trim_ws(const char **s, size_t *n)
{
    size_t start;
    rp_utf8_trim(*s, *n, RP_SPACE_UNICODE, &start, n);
    *s += start;
}

typedef struct out_list {
    rp_arena *a;
    rp_sh_patch_target *items;
    size_t n, cap;
} out_list;

static void push(out_list *o, rp_sh_patch_kind kind, const char *p, size_t n)
{
    if (n == 0)
        return;
    if (o->n == o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 4;
        o->items =
            rp_arena_realloc(o->a, o->items, o->cap * sizeof *o->items, cap * sizeof *o->items);
        o->cap = cap;
    }
    o->items[o->n++] = (rp_sh_patch_target){.kind = kind, .path = rp_arena_strndup(o->a, p, n)};
}

static bool has_prefix(const char *s, size_t n, const char *prefix, size_t pn)
{
    return n >= pn && memcmp(s, prefix, pn) == 0;
}

/* An apply_patch header in the trimmed line t (raw: the line before trimming). Lists the
 * trimmed path, then Codex's exact path when it differs (patch.h). */
static bool header(out_list *o, const char *raw, size_t raw_n, const char *t, size_t n)
{
    static const struct {
        const char *marker;
        rp_sh_patch_kind kind;
    } heads[] = {{"*** Add File:", RP_SH_PATCH_ADD},
                 {"*** Update File:", RP_SH_PATCH_UPDATE},
                 {"*** Delete File:", RP_SH_PATCH_DELETE},
                 {"*** Move to:", RP_SH_PATCH_MOVE}};
    for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++) {
        size_t hl = strlen(heads[h].marker);
        if (!has_prefix(t, n, heads[h].marker, hl))
            continue;
        const char *rest = t + hl, *path = rest;
        size_t rest_n = n - hl, path_n = rest_n;
        trim_ws(&path, &path_n);
        push(o, heads[h].kind, path, path_n);
        /* Codex's own reading: the marker with its space, on the trimmed line, or on the
         * line as it is for `*** Move to: `. */
        const char *exact = NULL;
        size_t exact_n = 0;
        if (heads[h].kind == RP_SH_PATCH_MOVE && has_prefix(raw, raw_n, "*** Move to: ", hl + 1)) {
            exact = raw + hl + 1;
            exact_n = raw_n - hl - 1;
        } else if (rest_n > 0 && rest[0] == ' ') {
            exact = rest + 1;
            exact_n = rest_n - 1;
        }
        if (exact != NULL && (exact_n != path_n || memcmp(exact, path, path_n) != 0))
            push(o, heads[h].kind, exact, exact_n);
        return true;
    }
    return false;
}

/* A unified-diff `--- a/P` or `+++ b/P` line (t trimmed). */
static void diff_line(out_list *o, const char *t, size_t n)
{
    bool old = has_prefix(t, n, "--- ", 4);
    if (!old && !has_prefix(t, n, "+++ ", 4))
        return;
    const char *p = t + 4;
    size_t m = n - 4;
    if (m >= 2 && (p[0] == 'a' || p[0] == 'b') && p[1] == '/') {
        p += 2;
        m -= 2;
    }
    while (m > 0 && (p[m - 1] == ' ' || p[m - 1] == '\t' || p[m - 1] == '\r'))
        m--;
    while (m > 0 && (*p == ' ' || *p == '\t')) {
        p++;
        m--;
    }
    const char *tab = memchr(p, '\t', m); /* `--- a/x\tdate`: a tab ends the name */
    if (tab != NULL)
        m = (size_t)(tab - p);
    if (m == 9 && memcmp(p, "/dev/null", 9) == 0)
        return;
    rp_sh_patch_kind kind = old ? RP_SH_PATCH_DIFF_OLD : RP_SH_PATCH_DIFF_NEW;
    push(o, kind, p, m);
    /* `git apply` and `patch -p1` drop the first component whatever it is (`--src-prefix=w/`,
     * the i/ w/ c/ o/ of diff.mnemonicPrefix): `+++ w/.git/hooks/x` writes `.git/hooks/x`.
     * Both names are listed; only git's default a/ and b/ were dropped above. */
    const char *slash = memchr(p, '/', m);
    if (slash != NULL && slash != p && (size_t)(slash - p) + 1 < m)
        push(o, kind, slash + 1, m - (size_t)(slash - p) - 1);
}

size_t rp_sh_patch_targets(rp_arena *a, const char *text, unsigned what, rp_sh_patch_target **out)
{
    out_list o = {.a = a};
    for (const char *next = text; next != NULL && *next != '\0';) {
        const char *raw = next, *end = strchr(raw, '\n');
        size_t raw_n = end ? (size_t)(end - raw) : strlen(raw);
        next = end ? end + 1 : NULL;
        if (raw_n > 0 && raw[raw_n - 1] == '\r')
            raw_n--;
        const char *t = raw;
        size_t n = raw_n;
        trim_ws(&t, &n);
        if ((what & RP_SH_PATCH_HEADERS) && header(&o, raw, raw_n, t, n))
            continue;
        if (what & RP_SH_PATCH_DIFF)
            diff_line(&o, t, n);
    }
    *out = o.items;
    return o.n;
}

bool rp_sh_patch_mentioned(const char *text)
{
    return text != NULL && strstr(text, "*** Begin Patch") != NULL;
}
