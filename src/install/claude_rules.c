/* claude_rules.c — Claude Code permission rules → rampart `permission` map; see claude_rules.h.
 *
 * Claude Code's rule forms (reference agent-hosts.md §A.1.8) and what each becomes:
 *   Bash, Bash(*)              bash "*"
 *   Bash(npm run test:*)       bash "npm run test *"  (the legacy `:*` is a trailing " *", which
 *                              rampart also lets match the bare "npm run test")
 *   Read(spec) / Edit(spec)    path patterns on read, grep, find, ls / on edit, write
 *   WebFetch, Task, ...        the surface of that name, "*"
 *   mcp__srv__tool, mcp__srv   mcp "srv_tool"; mcp "srv_*" and "srv"
 *   "*", mcp__* (deny, ask)    the "*" fallback; mcp "*"
 * Read and Edit specifiers use gitignore syntax with four anchors (`//abs`, `~/`, `/` = the
 * settings file's root, anything else = the working directory); path_patterns() explains how
 * each is spelled in rampart's glob language, where `*` crosses '/' and `?` is any character. */
#include "install/claude_rules.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/utf8.h"

/* At most this many `**` + '/' groups in one path rule: each doubles the patterns emitted. */
#define MAX_DOUBLE_STARS 4
#define MAX_VARIANTS     64

const char *rp_install_claude_action_name(rp_install_claude_action a)
{
    switch (a) {
    case RP_INSTALL_CLAUDE_ALLOW:
        return "allow";
    case RP_INSTALL_CLAUDE_ASK:
        return "ask";
    case RP_INSTALL_CLAUDE_DENY:
        return "deny";
    }
    return "ask";
}

/* ---- YAML text (UTF-8 read by core/utf8) ---- */

/* Characters a YAML reader rejects in a stream or reads as a line break (libyaml follows YAML
 * 1.1, where NEL, LS and PS end a line), so that they never appear raw in the output. */
static bool yaml_unsafe(uint32_t cp)
{
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 ||
           cp == 0xFEFF || cp == 0xFFFE || cp == 0xFFFF;
}

static void put_escape(rp_buf *b, uint32_t cp)
{
    if (cp <= 0xFF)
        rp_buf_printf(b, "\\x%02X", (unsigned)cp);
    else
        rp_buf_printf(b, "\\u%04X", (unsigned)cp);
}

/* Comment text: everything as written except what would end the comment or break the stream,
 * which is shown as an escape (\x0A). A byte that is not UTF-8 is shown as \xNN too. */
static void put_comment_text(rp_buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = rp_utf8_decode((const char *)p + i, n - i, &cp, RP_UTF8_REJECT);
        if (k == 0) {
            put_escape(b, p[i]);
            i++;
        } else {
            if (yaml_unsafe(cp))
                put_escape(b, cp);
            else
                rp_buf_append(b, p + i, k);
            i += k;
        }
    }
}

static bool plain_safe(const char *s)
{
    static const char *const reserved[] = {"null", "true", "false", "yes", "no",
                                           "on",   "off",  "y",     "n",   NULL};
    if (!((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
        return false;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == '-'))
            return false;
    for (size_t i = 0; reserved[i]; i++) {
        size_t j = 0;
        while (reserved[i][j] && s[j] &&
               (s[j] | 0x20) == reserved[i][j]) /* ASCII letters only, so |0x20 folds */
            j++;
        if (reserved[i][j] == '\0' && s[j] == '\0')
            return false;
    }
    return true;
}

void rp_install_claude_yaml_scalar(rp_buf *b, const char *s, bool always_quote)
{
    if (!always_quote && plain_safe(s)) {
        rp_buf_puts(b, s);
        return;
    }
    rp_buf_putc(b, '"');
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = rp_utf8_decode((const char *)p + i, n - i, &cp, RP_UTF8_REJECT);
        if (k == 0) {
            /* Not UTF-8: a YAML string cannot hold the byte, so it becomes U+FFFD. */
            rp_buf_puts(b, "\\uFFFD");
            i++;
            continue;
        }
        if (cp == '"' || cp == '\\') {
            rp_buf_putc(b, '\\');
            rp_buf_putc(b, (char)cp);
        } else if (cp == '\t') {
            rp_buf_puts(b, "\\t");
        } else if (cp == '\n') {
            rp_buf_puts(b, "\\n");
        } else if (cp == '\r') {
            rp_buf_puts(b, "\\r");
        } else if (yaml_unsafe(cp)) {
            put_escape(b, cp);
        } else {
            rp_buf_append(b, p + i, k);
        }
        i += k;
    }
    rp_buf_putc(b, '"');
}

/* ---- the translation state ---- */

typedef struct raw_entry {
    const char *surface;
    const char *pattern;
    rp_install_claude_action action;
    const char *src; /* "; "-joined sources (arena) */
    const char *allow_note;
} raw_entry;

typedef struct ctx {
    rp_arena *a;
    const rp_install_claude_options *o;
    const char *root; /* o->root when usable, else NULL */
    const char *root_problem;
    raw_entry *entries;
    size_t n_entries, cap_entries;
    rp_install_claude_skip *skips;
    size_t n_skips, cap_skips;
    const char **notes;
    size_t n_notes, cap_notes;
    bool deny_all, ask_all;         /* deny "*" / ask "*" */
    bool mcp_deny_all, mcp_ask_all; /* deny "mcp__*" / ask "mcp__*" */
    const char *fallback;
} ctx;

static void *grow(rp_arena *a, void *items, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return items;
    size_t ncap = *cap ? *cap * 2 : 16;
    items = rp_arena_realloc(a, items, *cap * size, ncap * size);
    *cap = ncap;
    return items;
}

static void skip(ctx *c, const char *where, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void skip(ctx *c, const char *where, const char *rule, const char *fmt, ...)
{
    c->skips = grow(c->a, c->skips, c->n_skips, &c->cap_skips, sizeof *c->skips);
    va_list ap;
    va_start(ap, fmt);
    const char *reason = rp_arena_vsprintf(c->a, fmt, ap);
    va_end(ap);
    c->skips[c->n_skips++] = (rp_install_claude_skip){
        .where = where, .rule = rule ? rp_arena_strdup(c->a, rule) : NULL, .reason = reason};
}

static void note(ctx *c, const char *text)
{
    c->notes = grow(c->a, c->notes, c->n_notes, &c->cap_notes, sizeof *c->notes);
    c->notes[c->n_notes++] = text;
}

/* Whether the "; "-joined list already names source. */
static bool has_source(const char *list, const char *source)
{
    size_t n = strlen(source);
    for (const char *p = list; p; p = strstr(p, "; ") ? strstr(p, "; ") + 2 : NULL)
        if (strncmp(p, source, n) == 0 && (p[n] == '\0' || strncmp(p + n, "; ", 2) == 0))
            return true;
    return false;
}

/* Adds (surface, pattern) for one Claude rule. The same pair from several rules is one map key
 * (YAML forbids duplicates) with the strictest action, as Claude Code's deny > ask > allow
 * would decide; its comment names every rule. */
static void add_entry(ctx *c, const char *surface, const char *pattern,
                      rp_install_claude_action act, const char *source, const char *allow_note)
{
    for (size_t i = 0; i < c->n_entries; i++) {
        raw_entry *e = &c->entries[i];
        if (strcmp(e->surface, surface) != 0 || strcmp(e->pattern, pattern) != 0)
            continue;
        if (act > e->action)
            e->action = act;
        if (!has_source(e->src, source))
            e->src = rp_arena_sprintf(c->a, "%s; %s", e->src, source);
        if (act == RP_INSTALL_CLAUDE_ALLOW && allow_note && e->allow_note == NULL)
            e->allow_note = allow_note;
        return;
    }
    c->entries = grow(c->a, c->entries, c->n_entries, &c->cap_entries, sizeof *c->entries);
    c->entries[c->n_entries++] = (raw_entry){
        .surface = surface,
        .pattern = rp_arena_strdup(c->a, pattern),
        .action = act,
        .src = source,
        .allow_note = act == RP_INSTALL_CLAUDE_ALLOW ? allow_note : NULL,
    };
}

/* ---- small string helpers ---- */

static bool is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v';
}

static const char *trim(rp_arena *a, const char *s)
{
    while (is_space(*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && is_space(s[n - 1]))
        n--;
    return rp_arena_strndup(a, s, n);
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* A Claude Code tool or MCP server/tool name: letters, digits, '_' and '-'. */
static bool is_name(const char *s, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
              ch == '_' || ch == '-'))
            return false;
    }
    return true;
}

/* ---- Bash(...) ---- */

/* Bash parameter rules (deny and ask only in Claude Code): they constrain a field other than the
 * command, which rampart's bash surface does not see. */
static const char *const bash_params[] = {"run_in_background", "dangerouslyDisableSandbox",
                                          "timeout", "description", NULL};

/* The rampart bash pattern for a Bash(...) specifier, or NULL with *why. */
static const char *bash_pattern(ctx *c, rp_install_claude_action act, const char *spec,
                                const char **why, const char **allow_note)
{
    for (size_t i = 0; bash_params[i]; i++) {
        size_t n = strlen(bash_params[i]);
        if (strncmp(spec, bash_params[i], n) == 0 && spec[n] == ':') {
            *why = "a parameter rule (Bash(param:value)): rampart's bash surface matches the "
                   "command only";
            return NULL;
        }
    }
    const char *s = spec;
    if (ends_with(s, ":*")) {
        /* Legacy prefix form: "npm run test:*" is "npm run test" followed by anything at a
         * word boundary, which is rampart's (optional) trailing " *". */
        const char *prefix = trim(c->a, rp_arena_strndup(c->a, s, strlen(s) - 2));
        s = prefix[0] ? rp_arena_sprintf(c->a, "%s *", prefix) : "*";
    }
    /* rampart matches one command at a time, without its redirections (`npm i > log` is the
     * command `npm i`), so a rule spelling a chain or a redirection would never match: a deny
     * of it would silently deny nothing. */
    char quote = 0;
    for (const char *p = s; *p; p++) {
        if (quote) {
            if (*p == quote)
                quote = 0;
            else if (quote == '"' && *p == '\\' && p[1])
                p++;
            continue;
        }
        if (*p == '\\' && p[1]) {
            p++;
        } else if (*p == '\'' || *p == '"') {
            quote = *p;
        } else if (strchr(";&|<>\n\r", *p)) {
            *why = "it spells a chain or a redirection (; & | < > or a newline): rampart matches "
                   "each command of a chain on its own, without its redirections, so the rule "
                   "would never match";
            return NULL;
        }
    }
    /* A leading NAME=value is not part of the command text rampart matches. */
    size_t k = 0;
    while ((s[k] >= 'A' && s[k] <= 'Z') || (s[k] >= 'a' && s[k] <= 'z') || s[k] == '_' ||
           (k > 0 && s[k] >= '0' && s[k] <= '9'))
        k++;
    if (k > 0 && s[k] == '=') {
        *why = "it starts with a VAR=value assignment, which rampart strips from the command "
               "before matching";
        return NULL;
    }
    if (s[0] == '~' || starts_with(s, "$HOME") || starts_with(s, "${HOME}")) {
        *why = "it starts with ~ or $HOME, which rampart expands in a pattern but not in the "
               "command it matches";
        return NULL;
    }
    /* `**` is `*` in both; collapsing keeps "git **" matching bare "git" like "git *". */
    rp_buf out = {0};
    bool qmark = false;
    for (const char *p = s; *p; p++) {
        if (*p == '*' && out.len > 0 && out.data[out.len - 1] == '*')
            continue;
        qmark |= *p == '?';
        rp_buf_putc(&out, *p);
    }
    const char *pattern = out.len ? rp_arena_strdup(c->a, out.data) : "*";
    rp_buf_free(&out);
    if (qmark && act == RP_INSTALL_CLAUDE_ALLOW)
        *allow_note = "widened: rampart's ? matches any one character (Claude Code reads it "
                      "literally)";
    return pattern;
}

/* ---- Read(...) and Edit(...) paths ---- */

typedef enum anchor { ANCHOR_CWD, ANCHOR_ABS, ANCHOR_HOME, ANCHOR_ROOT } anchor;

typedef struct path_out {
    const char *items[MAX_VARIANTS];
    size_t n;
    bool single_star, one_char, outside;
} path_out;

static void push_variant(path_out *po, const char *s)
{
    for (size_t i = 0; i < po->n; i++)
        if (strcmp(po->items[i], s) == 0)
            return;
    if (po->n < MAX_VARIANTS)
        po->items[po->n++] = s;
}

/* Collapses "." and ".." segments of an absolute pattern (a glob segment counts as a name). */
static const char *normalize_abs(rp_arena *a, const char *s)
{
    size_t n = strlen(s);
    char *out = rp_arena_alloc(a, n + 2);
    size_t len = 0;
    const char *p = s;
    while (*p) {
        while (*p == '/')
            p++;
        const char *seg = p;
        while (*p && *p != '/')
            p++;
        size_t sl = (size_t)(p - seg);
        if (sl == 0 || (sl == 1 && seg[0] == '.'))
            continue;
        if (sl == 2 && seg[0] == '.' && seg[1] == '.') {
            while (len > 0 && out[len - 1] != '/')
                len--;
            if (len > 0)
                len--; /* the '/' before the dropped segment */
            continue;
        }
        out[len++] = '/';
        memcpy(out + len, seg, sl);
        len += sl;
    }
    if (len == 0)
        out[len++] = '/';
    out[len] = '\0';
    return out;
}

/* Whether body[i..] starts a `**` + '/' group (a whole segment of two stars). */
static bool double_star_dir(const char *body, size_t i)
{
    return body[i] == '*' && body[i + 1] == '*' && body[i + 2] == '/' &&
           (i == 0 || body[i - 1] == '/');
}

/* Converts a gitignore-style body to rampart globs. A `**` + '/' group matches zero or more
 * directories, which no single rampart spelling does ("a/" + "*" + "/b" needs at least one
 * character between the slashes), so each group yields two spellings: with "*" + "/" in its
 * place and with nothing. When the rest starts with `*` the second covers the first, which is
 * then left out. Returns -1 when there are too many groups. */
static int convert_body(rp_arena *a, const char *body, path_out *po)
{
    size_t n = strlen(body);
    size_t groups = 0;
    for (size_t i = 0; i < n; i++)
        if (double_star_dir(body, i))
            groups++;
    if (groups > MAX_DOUBLE_STARS)
        return -1;
    for (unsigned mask = 0; mask < (1u << groups); mask++) {
        rp_buf out = {0};
        size_t g = 0;
        bool redundant = false;
        for (size_t i = 0; i < n;) {
            if (double_star_dir(body, i)) {
                const char *rest = body + i + 3;
                bool keep_dir = (mask >> g) & 1u;
                if (keep_dir && (rest[0] == '*' || rest[0] == '\0'))
                    redundant = true;
                if (keep_dir)
                    rp_buf_puts(&out, "*/");
                g++;
                i += 3;
                continue;
            }
            char ch = body[i];
            if (ch == '*') {
                size_t run = 0;
                while (body[i + run] == '*')
                    run++;
                if (run == 1)
                    po->single_star = true;
                if (!(out.len > 0 && out.data[out.len - 1] == '*'))
                    rp_buf_putc(&out, '*');
                i += run;
            } else if (ch == '?') {
                po->one_char = true;
                rp_buf_putc(&out, '?');
                i++;
            } else if (ch == '[') {
                /* A character class: rampart has none, so it becomes `?` (any character). */
                size_t j = i + 1;
                if (body[j] == '!' || body[j] == '^')
                    j++;
                if (body[j] == ']')
                    j++;
                while (j < n && body[j] != ']')
                    j++;
                if (j < n) {
                    po->one_char = true;
                    rp_buf_putc(&out, '?');
                    i = j + 1;
                } else {
                    rp_buf_putc(&out, '[');
                    i++;
                }
            } else if (ch == '\\' && i + 1 < n) {
                /* An escaped `*` or `?` is a literal rampart cannot spell; `?` covers it. */
                char d = body[i + 1];
                if (d == '*' || d == '?') {
                    po->one_char = true;
                    rp_buf_putc(&out, '?');
                } else {
                    rp_buf_putc(&out, d);
                }
                i += 2;
            } else {
                rp_buf_putc(&out, ch);
                i++;
            }
        }
        /* A trailing '/' names a directory: everything in it. */
        if (out.len > 0 && out.data[out.len - 1] == '/')
            rp_buf_putc(&out, '*');
        if (!redundant)
            push_variant(po, out.len ? rp_arena_strdup(a, out.data) : "");
        rp_buf_free(&out);
    }
    return 0;
}

/* The rampart path patterns for a Read(...)/Edit(...) specifier, or -1 with *why.
 *
 * Anchors: `//p` → "/p"; `~/p` → "~/p" (rampart expands ~ when matching); `/p` → the root
 * followed by "/p" (absolute); `./p` and `p` → "p", matched against the cwd-relative alias.
 * A bare name (no '/' but a trailing one) matches at any depth in gitignore, so it also gets
 * a "*" + "/name" spelling; so does a single-segment directory (`src` + "/" + "**") in deny
 * and ask rules, where Claude Code applies it at any depth. A deny or ask of a path that does
 * not end in `*` also covers what is inside it (`p` + "/" + "*"), as gitignore's parent
 * matching would. */
static int path_patterns(ctx *c, rp_install_claude_action act, const char *spec, path_out *po,
                         const char **why)
{
    anchor an;
    const char *body;
    bool any_depth = false;
    if (starts_with(spec, "//")) {
        an = ANCHOR_ABS;
        body = spec + 2;
    } else if (strcmp(spec, "~") == 0 || starts_with(spec, "~/")) {
        an = ANCHOR_HOME;
        body = spec[1] ? spec + 2 : "";
    } else if (spec[0] == '/') {
        if (c->root == NULL) {
            *why = rp_arena_sprintf(c->a,
                                    "a /path rule is anchored at the settings file's project "
                                    "root, which is not known (%s)",
                                    c->root_problem ? c->root_problem : "give --root DIR");
            return -1;
        }
        an = ANCHOR_ROOT;
        body = spec + 1;
    } else {
        an = ANCHOR_CWD;
        body = spec;
        bool explicit_cwd = false;
        while (starts_with(body, "./")) {
            body += 2;
            explicit_cwd = true;
        }
        if (strcmp(body, ".") == 0)
            body = "";
        const char *slash = strchr(body, '/');
        bool inner_slash = slash && slash[1] != '\0';
        const char *dstar = strstr(body, "/**");
        bool single_dir = dstar && strcmp(dstar, "/**") == 0 && slash == dstar;
        any_depth = !explicit_cwd && body[0] &&
                    (!inner_slash || (act != RP_INSTALL_CLAUDE_ALLOW && single_dir));
        /* ".." leaves the working directory, where rampart's relative aliases do not reach:
         * anchor the rule at the root (the directory Claude Code was started in, normally). */
        bool dotdot = strcmp(body, "..") == 0 || starts_with(body, "../") || strstr(body, "/../") ||
                      ends_with(body, "/..");
        if (dotdot) {
            if (c->root == NULL) {
                *why = "a relative rule with .. names a place outside the working directory, "
                       "and the project root it starts from is not known";
                return -1;
            }
            an = ANCHOR_ROOT;
            any_depth = false;
        }
    }
    while (body[0] == '/')
        body++;

    path_out conv = {0};
    if (convert_body(c->a, body, &conv) != 0) {
        *why = "more than 4 `**/` groups in one rule";
        return -1;
    }
    po->single_star = conv.single_star;
    po->one_char = conv.one_char;
    for (size_t i = 0; i < conv.n; i++) {
        const char *v = conv.items[i];
        const char *full;
        switch (an) {
        case ANCHOR_ABS:
            full = normalize_abs(c->a, rp_arena_sprintf(c->a, "/%s", v));
            break;
        case ANCHOR_ROOT:
            full = normalize_abs(c->a, rp_arena_sprintf(c->a, "%s/%s", c->root, v));
            break;
        case ANCHOR_HOME:
            full = v[0] ? rp_arena_sprintf(c->a, "~/%s", v) : "~";
            break;
        default:
            full = v[0] ? v : "*";
            if (full[0] == '*')
                po->outside = true;
            break;
        }
        push_variant(po, full);
        if (any_depth && full[0] != '*') {
            push_variant(po, rp_arena_sprintf(c->a, "*/%s", full));
            po->outside = true;
        }
    }
    if (act != RP_INSTALL_CLAUDE_ALLOW) {
        size_t n = po->n;
        for (size_t i = 0; i < n; i++) {
            const char *v = po->items[i];
            if (!ends_with(v, "*"))
                push_variant(po, strcmp(v, "/") == 0 ? "/*" : rp_arena_sprintf(c->a, "%s/*", v));
        }
    }
    return 0;
}

static const char *path_note(rp_arena *a, const path_out *po)
{
    rp_buf b = {0};
    if (po->single_star)
        rp_buf_puts(&b, "; Claude Code's * stays within one directory, rampart's also crosses /");
    if (po->one_char)
        rp_buf_puts(&b, "; ? and [...] match any one character, / included");
    if (po->outside)
        rp_buf_puts(&b, "; also matches paths outside the working directory");
    const char *s = b.len ? rp_arena_sprintf(a, "widened: %s", b.data + 2) : NULL;
    rp_buf_free(&b);
    return s;
}

/* ---- one rule ---- */

/* Names rampart gives a meaning of its own: a Claude rule spelled so names no Claude tool, and
 * as a surface it would govern every host's file or shell tools. */
static const char *const reserved_surfaces[] = {
    "bash", "read",  "write", "edit", "grep", "find", "ls", "path", "external_directory",
    "mcp",  "skill", NULL};

static const char *const read_surfaces[] = {"read", "grep", "find", "ls", NULL};
static const char *const read_deny_surfaces[] = {"read", "grep", "find", "ls", "path", NULL};
static const char *const edit_surfaces[] = {"edit", "write", NULL};

static void add_all(ctx *c, const char *const *surfaces, const char *pattern,
                    rp_install_claude_action act, const char *source, const char *allow_note)
{
    for (size_t i = 0; surfaces[i]; i++)
        add_entry(c, surfaces[i], pattern, act, source, allow_note);
}

/* A bare tool name (or Tool(*)): the surfaces it stands for, and the note when an allow of it
 * also covers other Claude tools that rampart puts on the same surface. */
static void whole_tool(ctx *c, const char *tool, rp_install_claude_action act, const char *source)
{
    static const char *const bash[] = {"bash", NULL}, *const write[] = {"write", NULL},
                             *const edit[] = {"edit", NULL}, *const read[] = {"read", NULL},
                             *const find[] = {"find", NULL}, *const grep[] = {"grep", NULL},
                             *const ls[] = {"ls", NULL};
    const char *const *surfaces = NULL;
    const char *allow_note = NULL;
    if (strcmp(tool, "Bash") == 0) {
        surfaces = bash;
    } else if (strcmp(tool, "Read") == 0) {
        surfaces = read_surfaces;
    } else if (strcmp(tool, "Edit") == 0) {
        surfaces = edit_surfaces;
    } else if (strcmp(tool, "Write") == 0) {
        surfaces = write;
    } else if (strcmp(tool, "MultiEdit") == 0 || strcmp(tool, "NotebookEdit") == 0) {
        surfaces = edit;
        allow_note = "widened: rampart's edit surface also covers Edit, MultiEdit and "
                     "NotebookEdit";
    } else if (strcmp(tool, "NotebookRead") == 0) {
        surfaces = read;
        allow_note = "widened: rampart's read surface also covers Read";
    } else if (strcmp(tool, "Glob") == 0) {
        surfaces = find;
    } else if (strcmp(tool, "Grep") == 0) {
        surfaces = grep;
    } else if (strcmp(tool, "LS") == 0) {
        surfaces = ls;
    }
    if (surfaces)
        add_all(c, surfaces, "*", act, source, allow_note);
    else
        add_entry(c, rp_arena_strdup(c->a, tool), "*", act, source, NULL);
}

static void translate_mcp(ctx *c, rp_install_claude_action act, const char *where, const char *rule,
                          const char *tool, const char *spec, const char *source)
{
    const char *rest = tool + 5;
    const char *sep = strstr(rest, "__");
    size_t server_len = sep ? (size_t)(sep - rest) : strlen(rest);
    const char *name = sep ? sep + 2 : "";
    if (!is_name(rest, server_len)) {
        skip(c, where, rule,
             "not an MCP tool name (mcp__SERVER or mcp__SERVER__TOOL, letters, "
             "digits, _ and -)");
        return;
    }
    if (spec) {
        skip(c, where, rule, "an MCP tool takes no specifier in Claude Code");
        return;
    }
    const char *server = rp_arena_strndup(c->a, rest, server_len);
    if (name[0] == '\0' || strcmp(name, "*") == 0) {
        /* Every tool of the server ("server_tool" is the first MCP candidate rampart tries),
         * and the server itself (a listing of its tools). */
        add_entry(c, "mcp", rp_arena_sprintf(c->a, "%s_*", server), act, source, NULL);
        add_entry(c, "mcp", server, act, source, NULL);
    } else if (is_name(name, strlen(name))) {
        add_entry(c, "mcp", rp_arena_sprintf(c->a, "%s_%s", server, name), act, source, NULL);
    } else {
        skip(c, where, rule,
             "Claude Code documents no globs inside an MCP tool name other than "
             "mcp__SERVER__*");
    }
}

static void translate(ctx *c, rp_install_claude_action act, const char *where, const char *raw)
{
    const char *rule = trim(c->a, raw);
    const char *source = rp_arena_sprintf(c->a, "%s %s", rp_install_claude_action_name(act), rule);
    if (rule[0] == '\0') {
        skip(c, where, raw, "an empty rule");
        return;
    }
    /* Shadowed rules: Claude Code checks deny, then ask, then allow, so an allow under a
     * deny "*" (or ask "*") and an ask under a deny "*" never decide anything. */
    if (strcmp(rule, "*") != 0 &&
        ((act == RP_INSTALL_CLAUDE_ALLOW && (c->deny_all || c->ask_all)) ||
         (act == RP_INSTALL_CLAUDE_ASK && c->deny_all))) {
        note(c, rp_arena_sprintf(c->a, "%s has no effect: %s \"*\" covers every tool", source,
                                 c->deny_all ? "deny" : "ask"));
        return;
    }
    const char *open = strchr(rule, '(');
    const char *tool = rule, *spec = NULL;
    if (open) {
        size_t n = strlen(rule);
        if (rule[n - 1] != ')') {
            skip(c, where, raw, "not a rule: a specifier must end with ')'");
            return;
        }
        tool = rp_arena_strndup(c->a, rule, (size_t)(open - rule));
        spec = trim(c->a, rp_arena_strndup(c->a, open + 1, n - 2 - (size_t)(open - rule)));
        if (spec[0] == '\0' || strcmp(spec, "*") == 0)
            spec = NULL; /* Tool() and Tool(*) are the whole tool */
    } else if (strchr(rule, ')')) {
        skip(c, where, raw, "not a rule: ')' without '('");
        return;
    }

    if (strcmp(tool, "*") == 0 || strcmp(tool, "mcp__*") == 0) {
        bool all = tool[0] == '*';
        if (act == RP_INSTALL_CLAUDE_ALLOW) {
            skip(c, where, raw, "Claude Code accepts tool-name globs only in deny and ask rules");
        } else if (spec) {
            skip(c, where, raw, "a tool-name glob takes no specifier");
        } else if (all) {
            /* Handled by the fallback (see rp_install_claude_import): every tool. */
        } else {
            add_entry(c, "mcp", "*", act, source, NULL);
        }
        return;
    }
    if (starts_with(tool, "mcp__")) {
        /* Allows and asks under a deny "mcp__*" (allows under an ask "mcp__*") never decide:
         * left out, so that no reading of rampart's mcp "*" could let them through. */
        if ((act == RP_INSTALL_CLAUDE_ALLOW && (c->mcp_deny_all || c->mcp_ask_all)) ||
            (act == RP_INSTALL_CLAUDE_ASK && c->mcp_deny_all)) {
            note(c, rp_arena_sprintf(c->a, "%s has no effect: %s \"mcp__*\" covers every MCP tool",
                                     source, c->mcp_deny_all ? "deny" : "ask"));
            return;
        }
        translate_mcp(c, act, where, raw, tool, spec, source);
        return;
    }
    if (!is_name(tool, strlen(tool))) {
        skip(c, where, raw,
             strpbrk(tool, "*?") ? "Claude Code accepts no tool-name globs but \"*\" and \"mcp__*\""
                                 : "not a Claude Code tool name");
        return;
    }
    for (size_t i = 0; reserved_surfaces[i]; i++) {
        if (strcmp(tool, reserved_surfaces[i]) == 0) {
            skip(c, where, raw,
                 "not a Claude Code tool (tool names are case-sensitive); in rampart '%s' is a "
                 "surface shared by every host's tools of that kind",
                 tool);
            return;
        }
    }
    if (spec == NULL) {
        whole_tool(c, tool, act, source);
        return;
    }

    const char *why = NULL, *allow_note = NULL;
    if (strcmp(tool, "Bash") == 0) {
        const char *pattern = bash_pattern(c, act, spec, &why, &allow_note);
        if (pattern == NULL)
            skip(c, where, raw, "%s", why);
        else
            add_entry(c, "bash", pattern, act, source, allow_note);
        return;
    }
    if (strcmp(tool, "Read") == 0 || strcmp(tool, "Edit") == 0) {
        bool read = tool[0] == 'R';
        path_out po = {0};
        if (path_patterns(c, act, spec, &po, &why) != 0) {
            skip(c, where, raw, "%s", why);
            return;
        }
        allow_note = act == RP_INSTALL_CLAUDE_ALLOW ? path_note(c->a, &po) : NULL;
        /* A Read deny or ask also holds for the path itself wherever it is used (Claude Code:
         * a Read deny also blocks Edit and Write of the path, and Read rules apply to the file
         * commands of Bash), which is rampart's cross-cutting path surface. An Edit rule stays
         * on the editing tools: on `path` it would also stop reads. */
        const char *const *surfaces = !read                            ? edit_surfaces
                                      : act == RP_INSTALL_CLAUDE_ALLOW ? read_surfaces
                                                                       : read_deny_surfaces;
        for (size_t i = 0; i < po.n; i++)
            add_all(c, surfaces, po.items[i], act, source, allow_note);
        return;
    }
    if (strcmp(tool, "Write") == 0 || strcmp(tool, "MultiEdit") == 0 ||
        strcmp(tool, "NotebookEdit") == 0) {
        skip(c, where, raw,
             "Claude Code never consults %s(...) path rules (Edit(...) covers every "
             "editing tool)",
             tool);
        return;
    }
    if (strcmp(tool, "Glob") == 0 || strcmp(tool, "Grep") == 0 || strcmp(tool, "LS") == 0 ||
        strcmp(tool, "NotebookRead") == 0) {
        skip(c, where, raw,
             "Claude Code never consults %s(...) path rules (Read(...) covers every "
             "reading tool)",
             tool);
        return;
    }
    if (strcmp(tool, "WebFetch") == 0 && starts_with(spec, "domain:")) {
        skip(c, where, raw,
             "rampart cannot match a WebFetch domain: its WebFetch surface sees only \"*\"");
        return;
    }
    if (strcmp(tool, "PowerShell") == 0) {
        skip(c, where, raw,
             "rampart does not read PowerShell commands: its PowerShell surface sees only \"*\"");
        return;
    }
    skip(c, where, raw, "rampart matches %s only as a whole tool: its surface sees only \"*\"",
         tool);
}

/* ---- the settings object ---- */

static const char *type_name(const rp_json *v)
{
    switch (v->type) {
    case RP_JSON_ARRAY:
        return "a list";
    case RP_JSON_OBJECT:
        return "an object";
    case RP_JSON_STRING:
        return "a string";
    case RP_JSON_NULL:
        return "null";
    case RP_JSON_BOOL:
        return "a boolean";
    default:
        return "a number";
    }
}

/* Settings under `permissions` that are no rule and mean nothing to rampart (it has no bypass
 * or auto mode to disable). */
static const char *const ignored_keys[] = {"disableBypassPermissionsMode", "disableAutoMode", NULL};

static void read_mode(ctx *c, const rp_json *mode)
{
    const char *where = "permissions.defaultMode";
    const char *m = rp_json_str(mode);
    if (m == NULL) {
        skip(c, where, NULL, "not a string (%s)", type_name(mode));
    } else if (strcmp(m, "default") == 0 || strcmp(m, "manual") == 0) {
        /* The "*": ask fallback is this mode. */
    } else if (strcmp(m, "dontAsk") == 0) {
        c->fallback = "deny";
        note(c, "defaultMode dontAsk: a call no rule covers is denied (\"*\": deny); ask rules "
                "still ask");
    } else {
        skip(c, where, m,
             "a permission mode is not a rule; rampart keeps asking for calls no rule covers");
    }
}

static int check_list(const rp_json *perms, const char *key, rp_install_claude_result *out)
{
    const rp_json *v = rp_json_get(perms, key);
    if (v == NULL || v->type == RP_JSON_NULL || rp_json_is_array(v))
        return 0;
    snprintf(out->error, sizeof out->error,
             "permissions.%s: expected a list of rule strings, got %s", key, type_name(v));
    return -1;
}

static void emit(ctx *c, rp_install_claude_result *out)
{
    rp_buf y = {0};
    rp_buf_puts(&y, "# Claude Code permission rules");
    if (c->o && c->o->source) {
        rp_buf_puts(&y, " from ");
        put_comment_text(&y, c->o->source);
    }
    rp_buf_puts(&y, ", translated by `rampart import claude-code`.\n"
                    "# Claude Code checks deny rules, then ask, then allow; in rampart the last "
                    "matching rule\n"
                    "# wins, so each surface lists its allows first, then its asks, then its "
                    "denies.\n"
                    "policies:\n"
                    "  permissions:\n"
                    "    type: function\n"
                    "    handler: permissions\n"
                    "    factory_params:\n"
                    "      permission:\n");
    rp_buf_printf(&y, "        \"*\": %s  # a call no rule covers\n", c->fallback);

    /* Surfaces in order of first appearance; in each, allow, ask, deny. */
    rp_install_claude_entry *entries = rp_arena_alloc(c->a, (c->n_entries + 1) * sizeof *entries);
    size_t n_out = 0;
    for (size_t i = 0; i < c->n_entries; i++) {
        const char *surface = c->entries[i].surface;
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(c->entries[j].surface, surface) == 0;
        if (seen)
            continue;
        size_t first = n_out;
        for (int act = RP_INSTALL_CLAUDE_ALLOW; act <= RP_INSTALL_CLAUDE_DENY; act++) {
            for (size_t j = i; j < c->n_entries; j++) {
                const raw_entry *e = &c->entries[j];
                if (e->action != (rp_install_claude_action)act || strcmp(e->surface, surface) != 0)
                    continue;
                entries[n_out++] = (rp_install_claude_entry){
                    .surface = e->surface,
                    .pattern = e->pattern,
                    .action = e->action,
                    .sources = e->src,
                    .note = e->action == RP_INSTALL_CLAUDE_ALLOW ? e->allow_note : NULL,
                };
            }
        }
        rp_buf_puts(&y, "        ");
        rp_install_claude_yaml_scalar(&y, surface, false);
        rp_buf_putc(&y, ':');
        bool single = n_out - first == 1 && strcmp(entries[first].pattern, "*") == 0;
        for (size_t k = first; k < n_out; k++) {
            const rp_install_claude_entry *e = &entries[k];
            if (!single) {
                rp_buf_puts(&y, "\n          ");
                rp_install_claude_yaml_scalar(&y, e->pattern, true);
                rp_buf_putc(&y, ':');
            }
            rp_buf_printf(&y, " %s  # ", rp_install_claude_action_name(e->action));
            put_comment_text(&y, e->sources);
            if (e->note) {
                rp_buf_puts(&y, " (");
                put_comment_text(&y, e->note);
                rp_buf_putc(&y, ')');
            }
        }
        rp_buf_putc(&y, '\n');
    }
    for (size_t i = 0; i < c->n_notes; i++) {
        rp_buf_puts(&y, i == 0 ? "# Notes:\n#   " : "#   ");
        put_comment_text(&y, c->notes[i]);
        rp_buf_putc(&y, '\n');
    }
    if (c->n_skips > 0) {
        rp_buf_printf(&y, "# Not translated (%zu):\n", c->n_skips);
        for (size_t i = 0; i < c->n_skips; i++) {
            const rp_install_claude_skip *s = &c->skips[i];
            rp_buf_puts(&y, "#   ");
            put_comment_text(&y, s->where);
            if (s->rule) {
                rp_buf_putc(&y, ' ');
                put_comment_text(&y, s->rule);
            }
            rp_buf_puts(&y, ": ");
            put_comment_text(&y, s->reason);
            rp_buf_putc(&y, '\n');
        }
    }
    out->yaml = rp_arena_strdup(c->a, y.data);
    rp_buf_free(&y);
    out->entries = entries;
    out->n_entries = n_out;
}

int rp_install_claude_import(rp_arena *a, const rp_json *settings,
                             const rp_install_claude_options *opts, rp_install_claude_result *out)
{
    memset(out, 0, sizeof *out);
    if (!rp_json_is_object(settings)) {
        snprintf(out->error, sizeof out->error, "expected a settings object, got %s",
                 settings ? type_name(settings) : "nothing");
        return -1;
    }
    const rp_json *perms = rp_json_get(settings, "permissions");
    if (perms && perms->type != RP_JSON_NULL && !rp_json_is_object(perms)) {
        snprintf(out->error, sizeof out->error, "permissions: expected an object, got %s",
                 type_name(perms));
        return -1;
    }
    if (perms && (check_list(perms, "allow", out) != 0 || check_list(perms, "ask", out) != 0 ||
                  check_list(perms, "deny", out) != 0))
        return -1;

    ctx c = {.a = a, .o = opts, .fallback = "ask"};
    if (opts && opts->root) {
        if (opts->root[0] != '/')
            c.root_problem = "the root is not an absolute path";
        else if (!rp_utf8_valid(opts->root, strlen(opts->root)))
            c.root_problem = "the root is not UTF-8";
        else if (strpbrk(opts->root, "*?"))
            c.root_problem = "the root's name holds * or ?, which would be read as a glob";
        else {
            size_t n = strlen(opts->root);
            while (n > 1 && opts->root[n - 1] == '/')
                n--;
            c.root = n == 1 ? "" : rp_arena_strndup(a, opts->root, n);
        }
    }

    static const char *const lists[] = {"allow", "ask", "deny"};
    const rp_json *list[3] = {NULL, NULL, NULL};
    for (int k = 0; k < 3 && perms; k++) {
        list[k] = rp_json_get(perms, lists[k]);
        if (list[k] && !rp_json_is_array(list[k]))
            list[k] = NULL;
    }
    /* The tool-name globs first: they decide which other rules can still matter. */
    for (int k = 1; k < 3; k++) {
        for (uint32_t i = 0; list[k] && i < list[k]->len; i++) {
            const char *s = rp_json_str(rp_json_at(list[k], i));
            if (s == NULL)
                continue;
            const char *t = trim(a, s);
            bool deny = k == 2;
            if (strcmp(t, "*") == 0 || strcmp(t, "*()") == 0 || strcmp(t, "*(*)") == 0) {
                if (deny)
                    c.deny_all = true;
                else
                    c.ask_all = true;
            } else if (strcmp(t, "mcp__*") == 0) {
                if (deny)
                    c.mcp_deny_all = true;
                else
                    c.mcp_ask_all = true;
            }
        }
    }
    if (c.deny_all) {
        c.fallback = "deny";
        note(&c, "deny \"*\": every tool call is denied (\"*\": deny)");
    } else if (c.ask_all) {
        note(&c, "ask \"*\": every tool call not denied asks (\"*\": ask)");
    }

    if (perms) {
        for (uint32_t i = 0; i < perms->len; i++) {
            const rp_json_member *m = &perms->v.members[i];
            const char *key = m->key;
            if (strcmp(key, "allow") == 0 || strcmp(key, "ask") == 0 || strcmp(key, "deny") == 0)
                continue;
            if (strcmp(key, "defaultMode") == 0) {
                if (!c.deny_all)
                    read_mode(&c, &m->value);
                continue;
            }
            bool ignored = false;
            for (size_t j = 0; ignored_keys[j] && !ignored; j++)
                ignored = strcmp(key, ignored_keys[j]) == 0;
            if (ignored)
                continue;
            const char *where = rp_arena_sprintf(a, "permissions.%s", key);
            if (strcmp(key, "additionalDirectories") == 0 && rp_json_is_array(&m->value)) {
                for (uint32_t j = 0; j < m->value.len; j++) {
                    const char *dir = rp_json_str(rp_json_at(&m->value, j));
                    skip(&c, rp_arena_sprintf(a, "%s[%u]", where, j), dir,
                         "an extra working directory is not a rule; to let tools use it, add "
                         "external_directory: {\"DIR/*\": allow} with its absolute path");
                }
                continue;
            }
            skip(&c, where, NULL, "not a permission rule list; rampart has no equivalent");
        }
    }

    for (int k = 0; k < 3; k++) {
        for (uint32_t i = 0; list[k] && i < list[k]->len; i++) {
            const rp_json *item = rp_json_at(list[k], i);
            const char *where = rp_arena_sprintf(a, "permissions.%s[%u]", lists[k], i);
            out->n_rules++;
            const char *s = rp_json_str(item);
            if (s == NULL) {
                skip(&c, where, NULL, "not a string (%s)", type_name(item));
                continue;
            }
            translate(&c, (rp_install_claude_action)k, where, s);
        }
    }

    emit(&c, out);
    out->skipped = c.skips;
    out->n_skipped = c.n_skips;
    out->notes = c.notes;
    out->n_notes = c.n_notes;
    out->fallback = c.fallback;
    return 0;
}
