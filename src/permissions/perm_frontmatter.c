/* perm_frontmatter.c — pi's deliberately minimal reader of an agent file's front-matter
 * (reference permissions.md §1.7), copied exactly, because what it cannot express matters as
 * much as what it can: a pattern containing ':' cannot be written (`"exa:*": allow` is the key
 * `exa` with the value `*": allow`, which is no state and is then dropped).
 *
 *   CRLF → LF; the file starts with "---\n" and the block ends at the next "\n---" (searched
 *   from offset 4); lines split on "\n" (a "\r" before it dropped); blank lines and lines whose
 *   first non-blank is '#' skipped; the key is the trimmed text before the first ':' (no key,
 *   no line), one leading and one trailing quote stripped; the value is the rest, trimmed, and
 *   unwrapped when it starts and ends with the same quote; an empty value opens a child map;
 *   a line belongs to the nearest open map indented less than it. A repeated key keeps its
 *   first position with the later value, as a JavaScript object assignment does. */
#include <string.h>

#include "core/utf8.h"
#include "permissions/perm.h"
#include "permissions/perm_load.h"

/* ---- String.prototype.trim ---- */

/* JavaScript's white space and line terminators (core/utf8.h, RP_SPACE_JS). */
const char *rp_perm_js_trim(const char *s, size_t n, size_t *out_len)
{
    size_t start;
    rp_utf8_trim(s, n, RP_SPACE_JS, &start, out_len);
    return s + start;
}

/* ---- the reader ---- */

static bool is_quote(char c)
{
    return c == '"' || c == '\'';
}

/* The member value of obj named key (obj holds each key once: rp_json_object_set keeps it so). */
static rp_json *member(rp_json *obj, const char *key)
{
    for (uint32_t i = obj->len; i-- > 0;)
        if (strcmp(obj->v.members[i].key, key) == 0)
            return &obj->v.members[i].value;
    return NULL;
}

typedef struct open_map {
    long indent; /* the indentation of the line that opened it; -1 for the root */
    rp_json *obj;
} open_map;

/* One line of the front-matter, pushed onto the open maps. */
static void add_line(rp_arena *a, const char *raw, size_t n, open_map **stack, size_t *depth,
                     size_t *cap)
{
    if (memchr(raw, '\0', n) != NULL)
        return; /* keys and values are C strings: a line with U+0000 cannot be kept faithfully */
    size_t off = 0, k;
    long indent = 0; /* in characters, as JavaScript's length difference counts them */
    while ((k = rp_utf8_space_at(raw + off, n - off, RP_SPACE_JS)) > 0) {
        off += k;
        indent++;
    }
    if (off == n || raw[off] == '#')
        return;
    size_t line_len;
    const char *line = rp_perm_js_trim(raw, n, &line_len);
    const char *colon = memchr(line, ':', line_len);
    if (colon == NULL || colon == line)
        return;
    size_t key_len;
    const char *key = rp_perm_js_trim(line, (size_t)(colon - line), &key_len);
    if (key_len > 0 && is_quote(key[0])) {
        key++;
        key_len--;
    }
    if (key_len > 0 && is_quote(key[key_len - 1]))
        key_len--;
    size_t val_len;
    const char *val = rp_perm_js_trim(colon + 1, line_len - (size_t)(colon + 1 - line), &val_len);

    while (*depth > 1 && indent <= (*stack)[*depth - 1].indent)
        (*depth)--;
    rp_json *current = (*stack)[*depth - 1].obj;
    char *k_str = rp_arena_strndup(a, key, key_len);
    if (val_len > 0) {
        /* JavaScript's startsWith/endsWith: a lone quote counts as wrapped, and unwraps to "". */
        if (is_quote(val[0]) && val[val_len - 1] == val[0]) {
            val = val_len >= 2 ? val + 1 : val;
            val_len = val_len >= 2 ? val_len - 2 : 0;
        }
        rp_json_object_set(a, current, k_str, rp_json_make_stringn(a, val, val_len));
        return;
    }
    rp_json_object_set(a, current, k_str, rp_json_make_object());
    if (*depth == *cap) {
        size_t ncap = *cap * 2;
        *stack = rp_arena_realloc(a, *stack, *cap * sizeof **stack, ncap * sizeof **stack);
        *cap = ncap;
    }
    /* Safe to point into current's members: only the innermost open map is ever written to,
     * so current's array does not move while the child is open. */
    (*stack)[(*depth)++] = (open_map){indent, member(current, k_str)};
}

rp_json *rp_perm_frontmatter_permission(rp_arena *a, const char *text, size_t len)
{
    if (text == NULL)
        return NULL;
    /* CRLF → LF first: the "---\n" and "\n---" tests see the normalised text. */
    const char *t = text;
    size_t n = len;
    if (memchr(text, '\r', len) != NULL) {
        char *c = rp_arena_alloc(a, len + 1);
        n = 0;
        for (size_t i = 0; i < len; i++) {
            if (text[i] == '\r' && i + 1 < len && text[i + 1] == '\n')
                continue;
            c[n++] = text[i];
        }
        c[n] = '\0';
        t = c;
    }
    if (n < 4 || memcmp(t, "---\n", 4) != 0)
        return NULL;
    size_t end = 0;
    bool found = false;
    for (size_t i = 4; i + 4 <= n; i++)
        if (memcmp(t + i, "\n---", 4) == 0) {
            end = i;
            found = true;
            break;
        }
    if (!found)
        return NULL;

    rp_json *root = rp_json_new(a, rp_json_make_object());
    size_t cap = 16, depth = 1;
    open_map *stack = rp_arena_alloc(a, cap * sizeof *stack);
    stack[0] = (open_map){-1, root};
    size_t i = 4;
    while (i <= end) {
        const char *nl = memchr(t + i, '\n', end - i);
        size_t line_end = nl ? (size_t)(nl - t) : end;
        size_t l = line_end - i;
        if (l > 0 && t[i + l - 1] == '\r')
            l--; /* split(/\r?\n/) */
        add_line(a, t + i, l, &stack, &depth, &cap);
        i = line_end + 1;
    }
    rp_json *perm = member(root, "permission");
    return perm && perm->type == RP_JSON_OBJECT ? perm : NULL;
}
