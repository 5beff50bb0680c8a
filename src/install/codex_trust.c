/* codex_trust.c — reads Codex's hook trust (codex_trust.h).
 *
 * config.toml is read only as far as [hooks.state] goes: table headers, `key = value` lines
 * and inline tables, with bare, "basic" and 'literal' keys. That covers what Codex writes
 * (toml_edit tables) and the forms a person would type; anything else in the file is skipped
 * line by line, and a state rampart cannot read counts as untrusted (the safe reading: doctor
 * then says to trust the hook, which is harmless when it already is). The other way round must
 * never happen, so escapes are decoded exactly as TOML does (or the string is not read), lines
 * inside a multi-line string, array or inline table are never taken for keys, and keys under an
 * array of tables or a header not read are not taken for the top level's. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"
#include "core/sha256.h"
#include "core/utf8.h"
#include "install/codex_trust.h"
#include "install/settings_splice.h"

#define MAX_SEGMENTS 8

typedef struct hook_state {
    const char *key;
    const char *trusted_hash;
    bool disabled;
} hook_state;

typedef struct states {
    hook_state *items;
    size_t n, cap;
    rp_arena *a;
    const char *project;  /* the project whose trust_level is wanted, or NULL */
    const char *git_root; /* the git repository holding it, or NULL */
    bool hooks_off;       /* [features] hooks / codex_hooks = false */
    bool exact_seen;      /* [projects."<project>"] trust_level is set */
    bool exact_trusted;   /* ... and is "trusted" */
    bool root_trusted;    /* [projects."<git_root>"] trust_level = "trusted" */
} states;

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* One escape of a basic string at p (after the backslash), decoded as TOML does; the end, or
 * NULL for one that is not TOML's (or a NUL, which no key here can hold). Decoding it as
 * anything else could make a key or hash rampart reads differ from the one Codex reads. */
static const char *read_escape(const char *p, rp_buf *b)
{
    static const char from[] = "btnfre\"\\", to[] = "\b\t\n\f\r\x1b\"\\";
    int digits = *p == 'u' ? 4 : *p == 'U' ? 8 : 0;
    if (digits == 0) {
        const char *c = *p ? strchr(from, *p) : NULL;
        if (!c)
            return NULL;
        rp_buf_putc(b, to[c - from]);
        return p + 1;
    }
    uint32_t v;
    if (!rp_hex_read(p + 1, (size_t)digits, digits, &v)) /* stops at the NUL: not a digit */
        return NULL;
    if (v == 0 || !rp_utf8_is_scalar(v))
        return NULL;
    char u[RP_UTF8_MAX];
    rp_buf_append(b, u, rp_utf8_encode(v, u));
    return p + 1 + digits;
}

/* One key segment or string value at p: bare, "basic" (TOML's escapes) or 'literal'. Returns
 * the end, or NULL. */
static const char *read_string(const char *p, rp_arena *a, const char **out, bool bare_ok)
{
    rp_buf b = {0};
    if (*p == '"') {
        for (p++; p && *p && *p != '"' && *p != '\n';) {
            if (*p != '\\')
                rp_buf_putc(&b, *p++);
            else
                p = read_escape(p + 1, &b);
        }
        if (!p || *p != '"') {
            rp_buf_free(&b);
            return NULL;
        }
        p++;
    } else if (*p == '\'') {
        const char *e = p + 1 + strcspn(p + 1, "'\n");
        if (*e != '\'')
            return NULL;
        rp_buf_append(&b, p + 1, (size_t)(e - p - 1));
        p = e + 1;
    } else if (bare_ok) {
        const char *s = p;
        while (isalnum((unsigned char)*p) || *p == '_' || *p == '-')
            p++;
        if (p == s)
            return NULL;
        rp_buf_append(&b, s, (size_t)(p - s));
    } else {
        return NULL;
    }
    *out = rp_arena_strndup(a, b.data ? b.data : "", b.len);
    rp_buf_free(&b);
    return p;
}

/* A dotted key: segments into seg (appended after *n). Returns the end, or NULL. */
static const char *read_key(const char *p, rp_arena *a, const char **seg, size_t *n)
{
    for (;;) {
        p = skip_ws(p);
        if (*n == MAX_SEGMENTS || (p = read_string(p, a, &seg[*n], true)) == NULL)
            return NULL;
        (*n)++;
        p = skip_ws(p);
        if (*p != '.')
            return p;
        p++;
    }
}

static hook_state *state_for(states *s, const char *key)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->items[i].key, key) == 0)
            return &s->items[i];
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        s->items =
            rp_arena_realloc(s->a, s->items, s->cap * sizeof *s->items, cap * sizeof *s->items);
        s->cap = cap;
    }
    s->items[s->n] = (hook_state){.key = key};
    return &s->items[s->n++];
}

/* Records `field = value` (value at p) for a hook key. Returns the end of the value. */
static const char *read_field(states *s, const char *hook, const char *field, const char *p)
{
    p = skip_ws(p);
    if (strcmp(field, "trusted_hash") == 0) {
        const char *v;
        const char *e = read_string(p, s->a, &v, false);
        if (e)
            state_for(s, hook)->trusted_hash = v;
        return e ? e : p;
    }
    if (strcmp(field, "enabled") == 0 && strncmp(p, "false", 5) == 0) {
        state_for(s, hook)->disabled = true;
        return p + 5;
    }
    return p;
}

/* `{ trusted_hash = "...", enabled = false }` for a hook key. */
static void read_inline(states *s, const char *hook, const char *p)
{
    for (p = skip_ws(p + 1); *p && *p != '}' && *p != '\n';) {
        const char *seg[MAX_SEGMENTS];
        size_t n = 0;
        p = read_key(p, s->a, seg, &n);
        if (!p || *p != '=' || n != 1)
            return;
        p = skip_ws(read_field(s, hook, seg[0], p + 1));
        /* Skip a value read_field did not take, up to the next comma. */
        while (*p && *p != ',' && *p != '}' && *p != '\n')
            p++;
        if (*p == ',')
            p = skip_ws(p + 1);
    }
}

/* Whether dir names the directory path (trailing slashes aside). Codex 0.171 takes a
 * project's trust from the entry of the directory itself or of its git repository's root, and
 * from no other parent (checked with its hooks/list). */
static bool same_dir(const char *dir, const char *path)
{
    size_t n = strlen(dir), m = strlen(path);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    while (m > 1 && path[m - 1] == '/')
        m--;
    return n == m && strncmp(dir, path, n) == 0;
}

/* Records a [projects."<dir>"] trust_level value v for the project or its git root. */
static void read_project_trust(states *s, const char *dir, const char *v)
{
    const char *level = NULL; /* a basic or a 'literal' string, as TOML reads either */
    bool trusted = read_string(v, s->a, &level, false) && strcmp(level, "trusted") == 0;
    if (same_dir(dir, s->project)) {
        s->exact_seen = true;
        s->exact_trusted = trusted;
    } else if (s->git_root && same_dir(dir, s->git_root)) {
        s->root_trusted = trusted;
    }
}

/* Where a line leaves the strings and brackets it is in: a multi-line string (ml: the quote
 * that closes it, '"' or '\'', else 0) or an array or inline table (depth) open at its end.
 * Escapes, one-line strings and comments are skipped so that no bracket or quote in them
 * counts. */
typedef struct scan_state {
    char ml;
    int depth;
} scan_state;

static scan_state scan_line(const char *p, const char *eol, scan_state st)
{
    while (p < eol) {
        if (st.ml) {
            if (st.ml == '"' && *p == '\\') {
                p += eol - p >= 2 ? 2 : 1;
            } else if (*p == st.ml && eol - p >= 3 && p[1] == st.ml && p[2] == st.ml) {
                for (p += 3; p < eol && *p == st.ml;)
                    p++; /* up to two quotes just inside the closing ones */
                st.ml = 0;
            } else {
                p++;
            }
            continue;
        }
        if (*p == '#')
            break;
        if ((*p == '"' || *p == '\'') && eol - p >= 3 && p[1] == *p && p[2] == *p) {
            st.ml = *p;
            p += 3;
        } else if (*p == '"' || *p == '\'') {
            char q = *p++;
            while (p < eol && *p != q)
                p += (q == '"' && *p == '\\' && eol - p >= 2) ? 2 : 1;
            p += p < eol;
        } else {
            st.depth += (*p == '[' || *p == '{') - (*p == ']' || *p == '}');
            if (st.depth < 0)
                st.depth = 0;
            p++;
        }
    }
    return st;
}

static void read_states(const char *toml, states *s)
{
    const char *table[MAX_SEGMENTS];
    size_t n_table = 0;
    /* A key's table is unknown under an array of tables or a header not read: its keys are
     * then not taken as the top level's. */
    bool keys_off = false;
    scan_state at = {0};
    for (const char *line = toml; line && *line;) {
        const char *next = strchr(line, '\n');
        const char *eol = next ? next : line + strlen(line);
        /* A line that starts inside a multi-line string or a multi-line array or inline table
         * is a value's, whatever it looks like. */
        bool inside = at.ml || at.depth > 0;
        at = scan_line(line, eol, at);
        const char *p = skip_ws(line);
        const char *seg[MAX_SEGMENTS * 2];
        if (inside) {
            /* nothing of the keys */
        } else if (*p == '[' && p[1] != '[') {
            n_table = 0;
            const char *e = read_key(p + 1, s->a, table, &n_table);
            keys_off = !e || *e != ']';
            if (keys_off)
                n_table = 0;
        } else if (*p == '[') {
            n_table = 0; /* an array of tables: nothing of hooks.state */
            keys_off = true;
        } else if (*p && *p != '#' && !keys_off) {
            size_t n = n_table;
            memcpy(seg, table, n_table * sizeof *seg);
            const char *e = read_key(p, s->a, seg, &n);
            bool state = e && *e == '=' && n >= 3 && strcmp(seg[0], "hooks") == 0 &&
                         strcmp(seg[1], "state") == 0;
            const char *v = e && *e == '=' ? skip_ws(e + 1) : NULL;
            if (state && n == 4)
                read_field(s, seg[2], seg[3], e + 1);
            else if (state && n == 3 && *v == '{')
                read_inline(s, seg[2], v);
            else if (v && n == 2 && strcmp(seg[0], "features") == 0 &&
                     (strcmp(seg[1], "hooks") == 0 || strcmp(seg[1], "codex_hooks") == 0))
                s->hooks_off = strncmp(v, "false", 5) == 0;
            else if (v && n == 3 && s->project && strcmp(seg[0], "projects") == 0 &&
                     strcmp(seg[2], "trust_level") == 0)
                read_project_trust(s, seg[1], v);
        }
        line = next ? next + 1 : NULL;
    }
}

/* "PreToolUse" → "pre_tool_use": the event label of the keys and of the hash. */
static const char *snake(rp_arena *a, const char *camel)
{
    rp_buf b = {0};
    for (const char *p = camel; *p; p++) {
        if (isupper((unsigned char)*p) && p != camel)
            rp_buf_putc(&b, '_');
        rp_buf_putc(&b, (char)tolower((unsigned char)*p));
    }
    const char *s = rp_arena_strndup(a, b.data ? b.data : "", b.len);
    rp_buf_free(&b);
    return s;
}

/* The trust hash Codex computes for one command handler. */
static void handler_hash(rp_arena *a, const char *event, const rp_json *matcher,
                         const rp_json *handler, char out[72])
{
    rp_json h = rp_json_make_object();
    rp_json_object_set(a, &h, "type", rp_json_make_string_ref("command"));
    rp_json_object_set(a, &h, "command", *rp_json_get(handler, "command"));
    const rp_json *timeout = rp_json_get(handler, "timeout");
    if (!timeout)
        timeout = rp_json_get(handler, "timeoutSec");
    double t = 600; /* Codex's default; at least 1 */
    if (timeout && !rp_json_number(timeout, &t))
        t = 600;
    rp_json_object_set(a, &h, "timeout", rp_json_make_int(t < 1 ? 1 : (int64_t)t));
    const rp_json *async = rp_json_get(handler, "async");
    rp_json_object_set(a, &h, "async",
                       rp_json_make_bool(async && async->type == RP_JSON_BOOL && async->v.b));
    const rp_json *status = rp_json_get(handler, "statusMessage");
    if (rp_json_is_string(status))
        rp_json_object_set(a, &h, "statusMessage", *status);
    rp_json hooks = rp_json_make_array();
    rp_json_array_push(a, &hooks, h);
    rp_json id = rp_json_make_object();
    rp_json_object_set(a, &id, "event_name", rp_json_make_string_ref(event));
    if (rp_json_is_string(matcher))
        rp_json_object_set(a, &id, "matcher", *matcher);
    rp_json_object_set(a, &id, "hooks", hooks);
    rp_buf canon = {0};
    rp_json_write_sorted(&canon, &id);
    char hex[65];
    rp_sha256_hex(canon.data ? canon.data : "", canon.len, hex);
    rp_buf_free(&canon);
    snprintf(out, 72, "sha256:%s", hex);
}

int rp_install_codex_trust_check(const char *hooks_path, const char *hooks_text, size_t hooks_len,
                                 const char *config_toml, const char *project_dir,
                                 const char *project_git_root, rp_install_codex_trust *out,
                                 char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    rp_arena a = {0};
    rp_arena_init(&a, 16 * 1024);
    rp_json_error jerr;
    rp_json *doc = rp_json_parse(&a, hooks_text, hooks_len, &jerr);
    const rp_json *events = rp_json_get(doc, "hooks");
    if (!rp_json_is_object(events)) {
        snprintf(err, err_size, "%s has no \"hooks\" object", hooks_path);
        rp_arena_free(&a);
        return -1;
    }
    states st = {.a = &a, .project = project_dir, .git_root = project_git_root};
    read_states(config_toml ? config_toml : "", &st);
    out->hooks_off = st.hooks_off;
    /* The directory's own entry decides when it has one (the safe reading, should Codex ask
     * the root first); else the repository root's. */
    bool trusted = st.exact_seen ? st.exact_trusted : st.root_trusted;
    out->project_untrusted = project_dir && !trusted;
    for (uint32_t e = 0; e < events->len; e++) {
        const rp_json_member *ev = &events->v.members[e];
        const char *label = snake(&a, ev->key);
        for (uint32_t g = 0; rp_json_is_array(&ev->value) && g < ev->value.len; g++) {
            const rp_json *group = &ev->value.v.items[g];
            const rp_json *handlers = rp_json_get(group, "hooks");
            for (uint32_t h = 0; rp_json_is_array(handlers) && h < handlers->len; h++) {
                const rp_json *handler = &handlers->v.items[h];
                const char *command = rp_json_get_str(handler, "command");
                if (!command || !rp_install_splice_is_our_command(command, "codex"))
                    continue;
                out->ours++;
                char want[72];
                handler_hash(&a, label, rp_json_get(group, "matcher"), handler, want);
                const char *key = rp_arena_sprintf(&a, "%s:%s:%u:%u", hooks_path, label, g, h);
                const hook_state *s = NULL;
                for (size_t i = 0; i < st.n && !s; i++)
                    if (strcmp(st.items[i].key, key) == 0)
                        s = &st.items[i];
                bool runs = false;
                if (s && s->disabled)
                    out->disabled++;
                else if (!s || !s->trusted_hash)
                    out->untrusted++;
                else if (strcmp(s->trusted_hash, want) != 0)
                    out->modified++;
                else
                    runs = (out->trusted++, true);
                if (!runs && !out->event[0])
                    snprintf(out->event, sizeof out->event, "%s", ev->key);
            }
        }
    }
    rp_arena_free(&a);
    return 0;
}
