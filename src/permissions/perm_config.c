/* perm_config.c — the `permission` map of pi-permission-system (reference permissions.md §1.4)
 * and the scope merge (§1.6), with the names of actions and origins.
 *
 * pi holds the map in JavaScript objects, and rule order is evaluation order (last match
 * wins), so the order of keys is part of the meaning. Two JavaScript details are copied for
 * that reason: JSON.parse keeps a duplicated key where it first appeared with its last value,
 * and an integer-like key ("0", "42") always sorts first, in ascending order, in every object,
 * including the merged ones. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"
#include "permissions/perm.h"
#include "permissions/perm_load.h"

/* ---- names ---- */

static const char *const action_names[] = {"allow", "ask", "deny"};

const char *rp_perm_action_name(rp_perm_action a)
{
    return (unsigned)a < 3 ? action_names[a] : "invalid";
}

int rp_perm_action_parse(const char *s, rp_perm_action *out)
{
    for (int i = 0; s != NULL && i < 3; i++)
        if (strcmp(s, action_names[i]) == 0) {
            *out = (rp_perm_action)i;
            return 0;
        }
    return -1;
}

const char *rp_perm_origin_name(rp_perm_origin o)
{
    static const char *const names[] = {"global",   "project", "agent", "project-agent", "builtin",
                                        "baseline", "session", "yolo",  "fail-closed"};
    return (unsigned)o < sizeof names / sizeof names[0] ? names[o] : "unknown";
}

/* ---- JavaScript key order ---- */

bool rp_perm_js_index_key(const char *key, size_t len, uint32_t *value)
{
    /* ECMAScript array index: the canonical decimal form of an integer below 2^32 - 1. */
    if (len == 0 || len > 10 || (key[0] == '0' && len > 1))
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (key[i] < '0' || key[i] > '9')
            return false;
        v = v * 10 + (uint64_t)(key[i] - '0');
    }
    if (v >= UINT32_MAX)
        return false;
    if (value)
        *value = (uint32_t)v;
    return true;
}

/* Whether an item's key is an index key (and its value): most items begin with their key, a C
 * string... */
static bool index_of_cstr(const void *item, uint32_t *v)
{
    const char *k = *(const char *const *)item;
    return rp_perm_js_index_key(k, strlen(k), v);
}

/* ...or are rp_perm_js_member, whose key may hold U+0000 (never an index key). */
static bool index_of_member(const void *item, uint32_t *v)
{
    const rp_perm_js_member *m = item;
    return rp_perm_js_index_key(m->key, m->key_len, v);
}

/* Moves the items whose key is an index key to the front in ascending order, the others keeping
 * their relative order: what JavaScript does to every object's own keys. */
static void js_reorder(rp_arena *a, void *items, size_t n, size_t size,
                       bool (*index_of)(const void *, uint32_t *))
{
    char *base = items;
    size_t n_index = 0;
    bool in_order = true;
    uint32_t last = 0, v;
    for (size_t i = 0; i < n; i++) {
        if (!index_of(base + i * size, &v))
            continue;
        if (n_index != i || (n_index > 0 && v <= last))
            in_order = false;
        last = v;
        n_index++;
    }
    if (n_index == 0 || in_order)
        return;
    char *tmp = rp_arena_alloc(a, n * size);
    uint32_t *vals = rp_arena_alloc(a, n * sizeof *vals);
    size_t out = 0;
    /* Insertion sort of the index keys: few, and their values are distinct. */
    for (size_t i = 0; i < n; i++) {
        if (!index_of(base + i * size, &v))
            continue;
        size_t j = out;
        while (j > 0 && vals[j - 1] > v) {
            memcpy(tmp + j * size, tmp + (j - 1) * size, size);
            vals[j] = vals[j - 1];
            j--;
        }
        memcpy(tmp + j * size, base + i * size, size);
        vals[j] = v;
        out++;
    }
    for (size_t i = 0; i < n; i++)
        if (!index_of(base + i * size, &v))
            memcpy(tmp + out++ * size, base + i * size, size);
    memcpy(base, tmp, n * size);
}

size_t rp_perm_js_members(rp_arena *a, const rp_json *obj, rp_perm_js_member **out)
{
    *out = NULL;
    if (!rp_json_is_object(obj) || obj->len == 0)
        return 0;
    rp_perm_js_member *m = rp_arena_alloc(a, obj->len * sizeof *m);
    size_t n = 0;
    for (uint32_t i = 0; i < obj->len; i++) {
        const rp_json_member *src = &obj->v.members[i];
        size_t j = 0;
        while (j < n &&
               !(m[j].key_len == src->key_len && memcmp(m[j].key, src->key, src->key_len) == 0))
            j++;
        if (j < n) {
            m[j].value = &src->value; /* JSON.parse: the last value, at the first position */
            continue;
        }
        m[n++] = (rp_perm_js_member){src->key, src->key_len, &src->value};
    }
    js_reorder(a, m, n, sizeof *m, index_of_member);
    *out = m;
    return n;
}

/* ---- issue paths ---- */

static bool is_identifier(const char *s, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
        if (!alpha && !(i > 0 && c >= '0' && c <= '9'))
            return false;
    }
    return true;
}

void rp_perm_json_path(char *dst, size_t size, const char *base, const char *key, size_t n)
{
    size_t o = (size_t)snprintf(dst, size, "%s", base);
    if (o >= size)
        return;
    if (is_identifier(key, n)) {
        snprintf(dst + o, size - o, ".%.*s", (int)n, key);
        return;
    }
    char esc[160];
    size_t e = 0;
    for (size_t i = 0; i < n && e + 8 < sizeof esc; i++) {
        unsigned char c = (unsigned char)key[i];
        if (c == '"' || c == '\\') {
            esc[e++] = '\\';
            esc[e++] = (char)c;
        } else if (c < 0x20) {
            e += (size_t)snprintf(esc + e, sizeof esc - e, "\\u%04x", c);
        } else {
            esc[e++] = (char)c;
        }
    }
    esc[e] = '\0';
    snprintf(dst + o, size - o, "[\"%s\"]", esc);
}

static int fail(rp_perm_issue *issue, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(rp_perm_issue *issue, const char *path, const char *fmt, ...)
{
    if (issue) {
        snprintf(issue->path, sizeof issue->path, "%s", path);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(issue->message, sizeof issue->message, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* ---- parsing ---- */

#define STATES "\"allow\", \"ask\" or \"deny\""

/* Length in UTF-16 code units, as JavaScript's string length (the schema's max(500)). */
static size_t utf16_len(const char *s, size_t n)
{
    size_t units = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (rp_utf8_is_cont(c))
            continue;
        units += c >= 0xF0 ? 2 : 1;
    }
    return units;
}

/* A JSON string that is exactly one of the three states (a U+0000 inside is not). */
static bool state_of(const rp_json *v, rp_perm_action *out)
{
    return rp_json_is_string(v) && strlen(v->v.s) == v->len &&
           rp_perm_action_parse(v->v.s, out) == 0;
}

/* Why a key is not usable, or NULL: empty, or holding U+0000 (the rule model keeps C strings,
 * and a pattern cut at the NUL would match what the written one never could). */
static const char *bad_key(const rp_perm_js_member *m)
{
    if (m->key_len == 0)
        return "empty";
    if (strlen(m->key) != m->key_len)
        return "nul";
    return NULL;
}

typedef struct parse_ctx {
    rp_arena *a;
    rp_perm_origin origin;
    bool strict;
    rp_perm_issue *issue;
} parse_ctx;

/* A pattern value: 1 = an entry, 0 = dropped (not strict), -1 = rejected (strict). */
static int parse_pattern_value(parse_ctx *c, const char *path, const rp_json *v, rp_perm_entry *e)
{
    if (state_of(v, &e->action))
        return 1;
    if (rp_json_is_string(v)) {
        if (!c->strict)
            return 0;
        return fail(c->issue, path, "invalid action \"%s\": expected " STATES, v->v.s);
    }
    if (!rp_json_is_object(v)) {
        if (!c->strict)
            return 0;
        return fail(c->issue, path,
                    "must be " STATES " or {\"action\": \"deny\", \"reason\"?: string}, not %s",
                    rp_json_type_name(v->type));
    }
    rp_perm_js_member *m;
    size_t n = rp_perm_js_members(c->a, v, &m);
    const rp_json *action = NULL, *reason = NULL;
    for (size_t i = 0; i < n; i++) {
        if (m[i].key_len == 6 && memcmp(m[i].key, "action", 6) == 0)
            action = m[i].value;
        else if (m[i].key_len == 6 && memcmp(m[i].key, "reason", 6) == 0)
            reason = m[i].value;
        else if (c->strict) {
            char p[192];
            rp_perm_json_path(p, sizeof p, path, m[i].key, m[i].key_len);
            return fail(c->issue, p,
                        "unknown key \"%s\": a pattern object allows only \"action\" (\"deny\") "
                        "and \"reason\"",
                        m[i].key);
        }
    }
    char p[192];
    rp_perm_action act;
    if (!state_of(action, &act) || act != RP_PERM_DENY) {
        if (!c->strict)
            return 0;
        rp_perm_json_path(p, sizeof p, path, "action", 6);
        return fail(c->issue, p,
                    "must be \"deny\": only a deny takes the object form; write \"allow\" or "
                    "\"ask\" as a plain string");
    }
    if (reason != NULL) {
        bool ok = rp_json_is_string(reason);
        if (ok && c->strict && utf16_len(reason->v.s, reason->len) > 500)
            ok = false;
        if (!ok) {
            if (!c->strict)
                return 0;
            rp_perm_json_path(p, sizeof p, path, "reason", 6);
            return fail(c->issue, p, "must be a string of at most 500 characters");
        }
    }
    e->action = RP_PERM_DENY;
    e->reason = reason ? rp_arena_strdup(c->a, reason->v.s) : NULL;
    return 1;
}

/* A pattern map: 1 = parsed (surface filled), 0 = dropped, -1 = rejected. */
static int parse_pattern_map(parse_ctx *c, const char *path, const rp_json *v, rp_perm_surface *s)
{
    rp_perm_js_member *m;
    size_t n = rp_perm_js_members(c->a, v, &m);
    s->is_map = true;
    s->entries = rp_arena_calloc(c->a, (n ? n : 1) * sizeof *s->entries);
    s->n_entries = 0;
    for (size_t i = 0; i < n; i++) {
        char p[192];
        rp_perm_json_path(p, sizeof p, path, m[i].key, m[i].key_len);
        const char *bad = bad_key(&m[i]);
        if (bad != NULL) {
            if (!c->strict)
                continue;
            return fail(c->issue, p, "a pattern must %s",
                        strcmp(bad, "empty") == 0 ? "be a non-empty string" : "not contain U+0000");
        }
        rp_perm_entry e = {.pattern = m[i].key, .origin = c->origin};
        int r = parse_pattern_value(c, p, m[i].value, &e);
        if (r < 0)
            return -1;
        if (r > 0)
            s->entries[s->n_entries++] = e;
    }
    /* pi's front-matter reader drops a map none of whose entries survived. */
    if (!c->strict && s->n_entries == 0)
        return 0;
    return 1;
}

int rp_perm_map_parse(rp_arena *a, const rp_json *permission, rp_perm_origin origin, bool strict,
                      const char *where, rp_perm_map *out, rp_perm_issue *issue)
{
    *out = (rp_perm_map){0};
    if (issue)
        issue->path[0] = issue->message[0] = '\0';
    const char *base = where && where[0] ? where : "permission";
    if (!rp_json_is_object(permission)) {
        if (!strict)
            return 0;
        return fail(issue, base,
                    "must be an object of surface → " STATES " or a pattern map, not %s",
                    permission ? rp_json_type_name(permission->type) : "missing");
    }
    parse_ctx c = {a, origin, strict, issue};
    rp_perm_js_member *m;
    size_t n = rp_perm_js_members(a, permission, &m);
    out->surfaces = rp_arena_calloc(a, (n ? n : 1) * sizeof *out->surfaces);
    for (size_t i = 0; i < n; i++) {
        char p[192];
        rp_perm_json_path(p, sizeof p, base, m[i].key, m[i].key_len);
        const char *bad = bad_key(&m[i]);
        if (bad != NULL) {
            if (!strict)
                continue;
            return fail(issue, p, "a surface key must not %s",
                        strcmp(bad, "empty") == 0 ? "be empty" : "contain U+0000");
        }
        rp_perm_surface s = {.surface = m[i].key, .origin = origin};
        const rp_json *v = m[i].value;
        int r;
        if (state_of(v, &s.action)) {
            r = 1;
        } else if (rp_json_is_string(v)) {
            r = strict ? fail(issue, p,
                              "invalid action \"%s\": expected " STATES " or a pattern map", v->v.s)
                       : 0;
        } else if (rp_json_is_object(v)) {
            r = parse_pattern_map(&c, p, v, &s);
        } else {
            r = strict
                    ? fail(issue, p, "must be " STATES " or an object of pattern → action, not %s",
                           rp_json_type_name(v->type))
                    : 0;
        }
        if (r < 0) {
            *out = (rp_perm_map){0};
            return -1;
        }
        if (r > 0)
            out->surfaces[out->n_surfaces++] = s;
    }
    return 0;
}

/* ---- merge (§1.6) ---- */

static rp_perm_surface *find_surface(rp_perm_surface *s, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s[i].surface, key) == 0)
            return &s[i];
    return NULL;
}

/* old ∪ new as {...old, ...new}: a clashing pattern keeps its place with the new value (and
 * the new origin), new patterns are appended; then JavaScript's index-key order. */
static void union_entries(rp_arena *a, rp_perm_surface *into, const rp_perm_surface *higher)
{
    size_t cap = into->n_entries + higher->n_entries;
    rp_perm_entry *e = rp_arena_alloc(a, (cap ? cap : 1) * sizeof *e);
    size_t n = into->n_entries;
    if (n)
        memcpy(e, into->entries, n * sizeof *e);
    for (size_t i = 0; i < higher->n_entries; i++) {
        const rp_perm_entry *h = &higher->entries[i];
        size_t j = 0;
        while (j < n && strcmp(e[j].pattern, h->pattern) != 0)
            j++;
        e[j] = *h;
        if (j == n)
            n++;
    }
    js_reorder(a, e, n, sizeof *e, index_of_cstr);
    into->entries = e;
    into->n_entries = n;
}

void rp_perm_map_merge(rp_arena *a, rp_perm_map *into, const rp_perm_map *higher)
{
    if (higher == NULL || higher->n_surfaces == 0)
        return;
    size_t cap = into->n_surfaces + higher->n_surfaces;
    /* Fresh arrays: a map handed in may share its storage with another one. */
    rp_perm_surface *s = rp_arena_alloc(a, cap * sizeof *s);
    size_t n = into->n_surfaces;
    if (n)
        memcpy(s, into->surfaces, n * sizeof *s);
    for (size_t i = 0; i < higher->n_surfaces; i++) {
        const rp_perm_surface *h = &higher->surfaces[i];
        rp_perm_surface *old = find_surface(s, n, h->surface);
        if (old == NULL)
            s[n++] = *h;
        else if (old->is_map && h->is_map)
            union_entries(a, old, h);
        else
            *old = *h; /* string vs map either way: the whole entry, in the old key's place */
    }
    js_reorder(a, s, n, sizeof *s, index_of_cstr);
    into->surfaces = s;
    into->n_surfaces = n;
}
