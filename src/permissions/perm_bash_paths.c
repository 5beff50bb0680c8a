/* perm_bash_paths.c — the paths a bash command names (reference permissions.md §4.7–4.10):
 * which words are path operands, the directory each is relative to (the cd fold), and the two
 * projections: rule candidates for the `path` surface and external paths for
 * `external_directory`.
 *
 * The cd fold follows the parser's shell environments: every environment starts with its
 * parent's directory, and a `cd` changes only its own. Two directories are kept per
 * environment: the real one (what bash does: a cd folds wherever it runs, `cd` alone and
 * `cd ~/x` go to HOME, `cd -P x` goes to x, `command cd x` changes the shell) and the
 * reference's (a cd inside $(…), here-docs or control flow is not folded, `cd ~…` and any
 * expansion make it unknown). When they differ a token is projected against both, so the
 * answer is never less strict than the reference's, nor than the truth. A cd inside if/while/
 * for/case or a function body may or may not run: the real directory is unknown after it.
 *
 * Stricter than the reference (§4.8, §4.13):
 *   - a shell glob is a token (matched by what it can expand to, RP_PERM_TOK_GLOB); one that
 *     can only name one file is that file (`/etc/[p]asswd` is /etc/passwd);
 *   - a value that is not known ($X, ${X:-…}, $(…)) is a token marked RP_PERM_TOK_INDIRECT;
 *     a variable assigned earlier is also tried with its value;
 *   - after a cd to an unknown directory, bare words stay candidates (literal only);
 *   - `sed -i SCRIPT FILE` (GNU) keeps FILE; glued option values (`-I/usr/include`,
 *     `-f/tmp/x`) and dd's if=/of= are tokens; the plain operands of programs that create or
 *     change files (touch, mkdir, cp, mv, rm, tee …) are candidates even when they do not exist;
 *   - any known-base token whose canonical form lies outside (an in-tree symlink) is external.
 * The filesystem is consulted only through pc->fs (lstat for bare words; realpath inside
 * rp_path_policy_values), never when it is NULL. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include "permissions/perm_bash_internal.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

#define MAX_MISSING 16

/* ---- output lists with de-duplication ---- */

#define VAGUE (RP_PERM_TOK_GLOB | RP_PERM_TOK_INDIRECT | RP_PERM_TOK_UNKNOWN_BASE)

typedef struct tok_list {
    rp_perm_path_token *items;
    size_t n, cap;
    uint32_t *hashes;
    uint32_t *slots; /* open addressing: index + 1, 0 = empty */
    size_t n_slots;
} tok_list;

static uint32_t hash_bytes(uint32_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return (h ^ 0xffu) * 16777619u; /* a separator, so ["ab"] and ["a","b"] differ */
}

static uint32_t hash_values(const rp_path_values *v)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < v->n; i++)
        h = hash_bytes(h, v->values[i]);
    return h;
}

static bool same_values(const rp_path_values *a, const rp_path_values *b)
{
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->values[i], b->values[i]) != 0)
            return false;
    return true;
}

/* The external de-duplication key: canonical, else the lexical (literal) form. */
static const char *external_key(const rp_path_values *v)
{
    return v->canonical ? v->canonical : (v->absolute ? v->absolute : v->literal);
}

static void rehash(rp_arena *a, tok_list *l, size_t n_slots)
{
    l->slots = rp_arena_calloc(a, n_slots * sizeof *l->slots);
    l->n_slots = n_slots;
    for (size_t i = 0; i < l->n; i++) {
        size_t s = l->hashes[i] & (n_slots - 1);
        while (l->slots[s])
            s = (s + 1) & (n_slots - 1);
        l->slots[s] = (uint32_t)(i + 1);
    }
}

/* Adds t unless an equal one is listed (then merges its kind and external flag into that
 * one). by_canonical: compare external keys, else the joined values. Returns the entry. */
static rp_perm_path_token *list_add(rp_arena *a, tok_list *l, const rp_perm_path_token *t,
                                    bool by_canonical)
{
    uint32_t h =
        by_canonical ? hash_bytes(2166136261u, external_key(&t->values)) : hash_values(&t->values);
    if (l->n_slots) {
        for (size_t s = h & (l->n_slots - 1); l->slots[s]; s = (s + 1) & (l->n_slots - 1)) {
            rp_perm_path_token *e = &l->items[l->slots[s] - 1];
            if (l->hashes[l->slots[s] - 1] != h)
                continue;
            /* a certain token and a vague one with the same spelling stay apart: the gate
             * matches them differently */
            bool same =
                ((e->kind ^ t->kind) & VAGUE) == 0 &&
                (by_canonical ? strcmp(external_key(&e->values), external_key(&t->values)) == 0
                              : same_values(&e->values, &t->values));
            if (same) {
                e->kind |= t->kind;
                e->external = e->external || t->external;
                return e;
            }
        }
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        l->items = rp_arena_realloc(a, l->items, l->cap * sizeof *l->items, cap * sizeof *l->items);
        l->hashes =
            rp_arena_realloc(a, l->hashes, l->cap * sizeof *l->hashes, cap * sizeof *l->hashes);
        l->cap = cap;
    }
    l->items[l->n] = *t;
    l->hashes[l->n] = h;
    l->n++;
    if (l->n * 2 > l->n_slots)
        rehash(a, l, l->n_slots ? l->n_slots * 2 : 16);
    else {
        size_t s = h & (l->n_slots - 1);
        while (l->slots[s])
            s = (s + 1) & (l->n_slots - 1);
        l->slots[s] = (uint32_t)l->n;
    }
    return &l->items[l->n - 1];
}

/* ---- the walk's state ---- */

typedef struct env_state {
    bool init;
    bool ref_is_real; /* a string a new shell runs: the reference never looks inside */
    const char *real; /* the effective directory, NULL = unknown */
    const char *ref;  /* the reference's */
} env_state;

typedef struct walk {
    rp_perm_bash_ctx *x;
    const rp_path_ctx *pc;
    rp_path_flavor f;
    env_state *envs;
    const char *start_real, *start_ref;
    tok_list cands, exts;
    /* paths an lstat found missing: nothing below them exists either, so the bare words after
     * a `cd` into a directory that does not exist cost no system call */
    const char *missing[MAX_MISSING];
    size_t n_missing;
} walk;

static bool starts_with(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

static bool name_in(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(name, *list) == 0)
            return true;
    return false;
}

/* ---- classification (§4.8) ---- */

enum { SHAPE_REJECT = 0, SHAPE_STRICT, SHAPE_BROAD, SHAPE_BARE };

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_url(const char *t)
{
    if (!is_alpha(t[0]))
        return false;
    size_t i = 1;
    while (is_alpha(t[i]) || (t[i] >= '0' && t[i] <= '9') || t[i] == '+' || t[i] == '.' ||
           t[i] == '-')
        i++;
    return t[i] == ':' && t[i + 1] == '/' && t[i + 2] == '/';
}

/* .*  .+  \|  \(  \)  […]  ^/ anywhere */
static bool looks_like_regex(const char *t)
{
    bool open = false;
    for (; *t; t++) {
        char c = t[0], n = t[1];
        if ((c == '.' && (n == '*' || n == '+')) ||
            (c == '\\' && (n == '|' || n == '(' || n == ')')) || (c == '^' && n == '/') ||
            (c == ']' && open))
            return true;
        open = open || c == '[';
    }
    return false;
}

static bool is_drive(const char *t)
{
    return is_alpha(t[0]) && t[1] == ':' && (t[2] == '/' || t[2] == '\\');
}

static int classify(const walk *w, const char *t, bool glob)
{
    if (t[0] == '\0' || t[0] == '-')
        return SHAPE_REJECT;
    const char *eq = strchr(t, '='), *slash = strchr(t, '/');
    if (eq && (slash == NULL || eq < slash))
        return SHAPE_REJECT;
    if (is_url(t) || (t[0] == '@' && t[1] != '/'))
        return SHAPE_REJECT;
    /* a live glob is matched by what it can expand to, brackets included (#821, #822) */
    if (!glob && looks_like_regex(t))
        return SHAPE_REJECT;
    bool dotdot = strstr(t, "..") != NULL;
    if (t[0] == '/' || (t[0] == '~' && t[1] == '/') || dotdot || is_drive(t))
        return SHAPE_STRICT;
    if (t[0] == '.' || slash || (w->f == RP_PATH_WIN32 && strchr(t, '\\')))
        return SHAPE_BROAD;
    return SHAPE_BARE;
}

/* ---- directories ---- */

/* Git Bash's "/c/x" → "C:\x" (win32); NULL when t is no such mount path. */
static const char *git_bash_drive(rp_arena *a, const char *t)
{
    if (!(t[0] == '/' && is_alpha(t[1]) && (t[2] == '/' || t[2] == '\0')))
        return NULL;
    char *out =
        rp_arena_sprintf(a, "%c:\\%s", t[1] >= 'a' ? (char)(t[1] - 32) : t[1], t[2] ? t + 3 : "");
    for (char *p = out; *p; p++)
        if (*p == '/')
            *p = '\\';
    return out;
}

/* The directory `cd text` goes to from base (NULL = unknown), as host rules resolve it. */
static const char *resolve_dir(walk *w, const char *base, const char *text)
{
    rp_arena *a = w->x->a;
    if (w->f == RP_PATH_WIN32 && text[0] == '/' && text[1] != '/') {
        const char *drive = git_bash_drive(a, text);
        return drive ? rp_pathf_resolve(a, w->f, NULL, drive) : NULL; /* /tmp, /dev/…: unknown */
    }
    if (rp_pathf_is_absolute(w->f, text))
        return rp_pathf_resolve(a, w->f, base ? base : w->pc->cwd, text);
    if (base == NULL)
        return NULL;
    /* the common `cd name` / `cd a/b`: nothing to normalise, so just join */
    bool plain = text[0] != '\0' && w->f == RP_PATH_POSIX;
    for (const char *p = text; plain && *p; p++)
        plain = !(p[0] == '/' && (p[1] == '/' || p[1] == '\0')) &&
                !(p[0] == '.' && (p == text || p[-1] == '/') &&
                  (p[1] == '\0' || p[1] == '/' || (p[1] == '.' && (p[2] == '\0' || p[2] == '/'))));
    if (plain) {
        size_t bl = strlen(base), tl = strlen(text);
        bool root = bl == 1 && base[0] == '/';
        char *out = rp_arena_alloc(a, bl + tl + 2);
        memcpy(out, base, bl);
        if (!root)
            out[bl++] = '/';
        memcpy(out + bl, text, tl + 1);
        return out;
    }
    return rp_pathf_resolve(a, w->f, base, text);
}

static bool same_dir(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* ---- projection (§4.10) ---- */

/* Whether base/t exists (lstat: a dangling symlink counts); *dir when it is a directory.
 * Only for bare words, which hold no separator. */
static bool known_missing(const walk *w, const char *dir)
{
    for (size_t i = 0; i < w->n_missing; i++) {
        size_t n = strlen(w->missing[i]);
        if (strncmp(dir, w->missing[i], n) == 0 && (dir[n] == '\0' || dir[n] == '/'))
            return true;
    }
    return false;
}

static bool bare_exists(walk *w, const char *base, const char *t, bool *dir)
{
    const rp_fs_view *fs = w->pc->fs;
    if (fs == NULL || fs->lstat == NULL || w->f == RP_PATH_WIN32 || base == NULL ||
        known_missing(w, base))
        return false;
    char path[PATH_MAX];
    size_t bl = strlen(base), tl = strlen(t);
    bool root = bl > 0 && base[bl - 1] == '/';
    if (bl + tl + 2 > sizeof path)
        return false;
    memcpy(path, base, bl);
    if (!root)
        path[bl++] = '/';
    memcpy(path + bl, t, tl + 1);
    struct stat st;
    errno = 0;
    if (fs->lstat(fs->self, path, &st) != 0) {
        if ((errno == ENOENT || errno == ENOTDIR) && w->n_missing < MAX_MISSING)
            w->missing[w->n_missing++] = rp_arena_strdup(w->x->a, path);
        return false;
    }
    *dir = S_ISDIR(st.st_mode);
    return true;
}

static void add_candidate(walk *w, const char *raw, const rp_path_values *v, unsigned kind,
                          bool external)
{
    if (v->n == 0)
        return;
    rp_perm_path_token t = {.raw = raw, .values = *v, .kind = kind, .external = external};
    list_add(w->x->a, &w->cands, &t, false);
}

static void add_external(walk *w, const char *raw, const rp_path_values *v, unsigned kind)
{
    if (v->n == 0)
        return;
    rp_perm_path_token t = {.raw = raw, .values = *v, .kind = kind, .external = true};
    list_add(w->x->a, &w->exts, &t, true);
}

/* One value of a token against one base (NULL = unknown). force: a candidate even when it is
 * a bare word that does not exist (an operand a program creates). */
static void project(walk *w, const rp_perm_bash_value *pv, unsigned kind, const char *base,
                    bool force)
{
    rp_arena *a = w->x->a;
    const rp_path_ctx *pc = w->pc;
    if (pv->skip)
        return;
    const char *text = pv->value, *raw = pv->display;
    bool glob = pv->glob;
    if (glob) {
        const char *single = rp_glob_literal(a, text);
        if (single) {
            text = raw = single;
            glob = false;
        }
    }
    int shape = classify(w, text, glob);
    if (shape == SHAPE_REJECT)
        return;
    kind |= shape == SHAPE_STRICT ? RP_PERM_TOK_STRICT
                                  : (shape == SHAPE_BROAD ? RP_PERM_TOK_BROAD : RP_PERM_TOK_BARE);
    if (glob)
        kind |= RP_PERM_TOK_GLOB;
    if (pv->unknown)
        kind |= RP_PERM_TOK_INDIRECT;
    size_t len = strlen(text);
    if (len > 1 && rp_pathf_is_sep(w->f, text[len - 1]))
        kind |= RP_PERM_TOK_DIRECTORY;
    rp_path_values v;

    /* Git Bash on win32: /c/x is C:\x; any other POSIX absolute path (/tmp, /dev/null) has
     * no known Windows spelling, so it is matched as typed and is external unless a device. */
    if (w->f == RP_PATH_WIN32 && text[0] == '/' && text[1] != '/') {
        const char *drive = git_bash_drive(a, text);
        if (drive == NULL) {
            rp_path_policy_values_literal(a, pc, text, &v);
            bool ext = !rp_path_is_safe_device(text);
            add_candidate(w, raw, &v, kind, ext);
            if (ext)
                add_external(w, raw, &v, kind);
            return;
        }
        text = drive;
    }
    if (pv->leading_unknown) {
        /* "$X", "$(…)/y": absolute or relative, nobody knows; the gate asks what it could be */
        rp_path_policy_values_literal(a, pc, text, &v);
        add_candidate(w, raw, &v, kind, false);
        return;
    }
    bool absolute = rp_pathf_is_absolute(w->f, text) || (text[0] == '~' && text[1] == '/');
    if (!absolute && base == NULL) {
        kind |= RP_PERM_TOK_UNKNOWN_BASE;
        bool ext = shape == SHAPE_STRICT && pc->cwd != NULL; /* no cwd: nothing is outside */
        rp_path_values lit;
        rp_path_policy_values_literal(a, pc, text, &lit);
        add_candidate(w, raw, &lit, kind, ext);
        if (ext) {
            /* conservatively outside; shown as if relative to the session cwd */
            rp_path_policy_values(a, pc, text, NULL, &v);
            add_external(w, raw, &v, kind);
        }
        return;
    }
    const char *b = absolute ? NULL : base;
    if (shape == SHAPE_BARE && !glob && !pv->unknown && !force) {
        bool dir = false;
        if (!bare_exists(w, base, text, &dir)) {
            /* A word that names nothing (status, main, build). After a cd out of the project it
             * is still offered to specific path rules (RP_PERM_TOK_MISSING): the directory the
             * cd went to is what such a rule protects (`cd ~/.ssh && cat id_rsa`), and the file
             * may well exist where the agent runs. */
            if (absolute || pc->cwd == NULL || rp_pathf_within(a, w->f, pc->cwd, base))
                return;
            rp_path_policy_values(a, pc, text, base, &v);
            add_candidate(w, raw, &v, kind | RP_PERM_TOK_MISSING, false);
            return;
        }
        if (dir)
            kind |= RP_PERM_TOK_DIRECTORY;
    }
    rp_path_policy_values(a, pc, text, b, &v);
    bool ext = v.canonical && rp_path_outside(a, pc, v.canonical);
    add_candidate(w, raw, &v, kind, ext);
    if (ext)
        add_external(w, raw, &v, kind);
}

/* ---- token sources ---- */

typedef struct emit_opts {
    unsigned kind;
    bool force;       /* see project() */
    bool output_only; /* an argument of a builtin that only prints or tests: an unknown value
                         is nothing */
} emit_opts;

typedef struct bases {
    const char *dir[2];
    size_t n;
} bases;

static void emit(walk *w, const rp_sh_word *word, rp_perm_bash_part part, const bases *bs,
                 const emit_opts *o);

/* win32: the reference reads `dir\file` with its backslash (a Windows separator) where bash
 * passes "dirfile"; both spellings are tokens. */
static void emit_backslash_spelling(walk *w, const rp_sh_word *word, const bases *bs,
                                    const emit_opts *o)
{
    char *t = rp_arena_alloc(w->x->a, word->raw_len + 1);
    size_t n = 0;
    for (size_t i = 0; i < word->raw_len; i++)
        if (word->raw[i] != '\'' && word->raw[i] != '"')
            t[n++] = word->raw[i];
    t[n] = '\0';
    rp_sh_word alt = *word;
    alt.text = t;
    alt.len = n;
    alt.flags = 0;
    alt.raw = t;
    alt.raw_len = n;
    emit(w, &alt, RP_PERM_BASH_WHOLE, bs, o);
}

static void emit(walk *w, const rp_sh_word *word, rp_perm_bash_part part, const bases *bs,
                 const emit_opts *o)
{
    if (w->f == RP_PATH_WIN32 && part == RP_PERM_BASH_WHOLE && rp_sh_word_static(word) &&
        (word->flags & RP_SH_WORD_QUOTED) && memchr(word->raw, '\\', word->raw_len))
        emit_backslash_spelling(w, word, bs, o);
    rp_perm_bash_value vals[RP_PERM_BASH_MAX_VALUES];
    for (size_t b = 0; b < bs->n; b++) {
        size_t n = rp_perm_bash_word_values(w->x, word, part, bs->dir[b], false, vals);
        bool tracked = false;
        for (size_t i = 0; i < n; i++) {
            if (vals[i].unknown && o->output_only && !(o->kind & RP_PERM_TOK_REDIRECT))
                continue;
            tracked = tracked || (vals[i].unknown && vals[i].tracked);
            project(w, &vals[i], o->kind, bs->dir[b], o->force);
        }
        if (!tracked || (o->output_only && !(o->kind & RP_PERM_TOK_REDIRECT)))
            continue;
        /* what the variables most likely hold, as certain values */
        n = rp_perm_bash_word_values(w->x, word, part, bs->dir[b], true, vals);
        for (size_t i = 0; i < n; i++)
            if (!vals[i].unknown)
                project(w, &vals[i], o->kind, bs->dir[b], o->force);
    }
}

/* A static word that is the tail of word (an option's glued value). */
static rp_sh_word tail_word(const rp_sh_word *word, size_t off)
{
    rp_sh_word t = *word;
    t.text = word->text + off;
    t.len = word->len - off;
    t.flags = 0;
    return t;
}

/* -{1,2}NAME=VALUE (§4.7) */
static bool option_with_value(const char *t)
{
    if (t[0] != '-')
        return false;
    size_t i = t[1] == '-' ? 2 : 1;
    size_t name = i;
    while (t[i] && t[i] != '=' && t[i] != ' ' && t[i] != '\t' && t[i] != '\n')
        i++;
    return i > name && t[i] == '=' && t[i + 1] != '\0';
}

/* -Xvalue where value starts like a path (/, ~/, ./, ..): the offset of value, else 0. */
static size_t glued_path(const rp_sh_word *word)
{
    if (!rp_sh_word_static(word))
        return 0;
    const char *t = word->text;
    if (t[0] != '-' || t[1] == '-' || t[1] == '\0')
        return 0;
    size_t i = 1;
    while ((t[i] >= 'a' && t[i] <= 'z') || (t[i] >= 'A' && t[i] <= 'Z') ||
           (t[i] >= '0' && t[i] <= '9'))
        i++;
    if (i == 1)
        return 0;
    const char *r = t + i;
    if (r[0] == '/' || (r[0] == '~' && r[1] == '/') || (r[0] == '.' && r[1] == '/') ||
        (r[0] == '.' && r[1] == '.'))
        return i;
    return 0;
}

/* An ordinary argument: the word, its --opt=VALUE value, its glued -XVALUE. */
static void emit_arg(walk *w, const rp_sh_word *word, const bases *bs, const emit_opts *o)
{
    emit(w, word, RP_PERM_BASH_WHOLE, bs, o);
    if (option_with_value(word->text))
        emit(w, word, RP_PERM_BASH_AFTER_EQ, bs, o);
    size_t g = glued_path(word);
    if (g) {
        rp_sh_word t = tail_word(word, g);
        emit(w, &t, RP_PERM_BASH_WHOLE, bs, o);
    }
}

/* ---- pattern-first commands (§4.7 table, long and glued spellings too) ---- */

typedef struct pf_spec {
    const char *const *names;
    const char *value_shorts;  /* the next word (or the glued rest) is no path */
    const char *file_shorts;   /* the next word (or the glued rest) is a file */
    const char *script_shorts; /* the pattern or script is given by this option */
    const char *const *value_longs;
    const char *const *file_longs;
    const char *const *script_longs;
    const char *const *no_pattern_longs; /* no pattern operand at all (rg --files) */
    int positionals;                     /* leading operands that are patterns or scripts */
    bool sed;                            /* -i takes only a glued suffix (GNU) */
} pf_spec;

static const char *const sed_names[] = {"sed", "gsed", NULL};
static const char *const sed_values[] = {"--expression", "--line-length", NULL};
static const char *const sed_files[] = {"--file", NULL};
static const char *const sed_scripts[] = {"--expression", "--file", NULL};
static const char *const awk_names[] = {"awk", "gawk", "nawk", "mawk", NULL};
static const char *const awk_values[] = {"--source", "--field-separator", "--assign", "--load",
                                         NULL};
static const char *const awk_files[] = {"--file", "--include", NULL};
static const char *const awk_scripts[] = {"--source", "--file", NULL};
static const char *const grep_names[] = {"grep", "egrep", "fgrep", NULL};
static const char *const grep_values[] = {"--regexp",          "--after-context",
                                          "--before-context",  "--context",
                                          "--max-count",       "--include",
                                          "--exclude",         "--exclude-dir",
                                          "--directories",     "--devices",
                                          "--label",           "--binary-files",
                                          "--group-separator", NULL};
static const char *const grep_files[] = {"--file", "--exclude-from", NULL};
static const char *const grep_scripts[] = {"--regexp", "--file", NULL};
static const char *const rg_names[] = {"rg", NULL};
static const char *const rg_values[] = {"--regexp",
                                        "--after-context",
                                        "--before-context",
                                        "--context",
                                        "--max-count",
                                        "--glob",
                                        "--iglob",
                                        "--type",
                                        "--type-not",
                                        "--threads",
                                        "--max-columns",
                                        "--replace",
                                        "--encoding",
                                        "--max-depth",
                                        "--type-add",
                                        "--type-clear",
                                        "--sort",
                                        "--sortr",
                                        "--colors",
                                        "--color",
                                        "--engine",
                                        "--pre",
                                        "--pre-glob",
                                        "--context-separator",
                                        "--max-filesize",
                                        "--path-separator",
                                        "--field-match-separator",
                                        NULL};
static const char *const rg_files[] = {"--file", "--ignore-file", NULL};
static const char *const rg_scripts[] = {"--regexp", "--file", NULL};
static const char *const rg_no_pattern[] = {"--files", "--type-list", NULL};
static const char *const sd_names[] = {"sd", NULL};
static const char *const sd_values[] = {"--max-replacements", "--flags", NULL};
static const char *const none[] = {NULL};

static const pf_spec pf_specs[] = {
    {sed_names, "el", "f", "ef", sed_values, sed_files, sed_scripts, none, 1, true},
    {awk_names, "eFvlW", "fi", "ef", awk_values, awk_files, awk_scripts, none, 1, false},
    {grep_names, "eABCmdD", "f", "ef", grep_values, grep_files, grep_scripts, none, 1, false},
    {rg_names, "eABCmgtTjMrEd", "f", "ef", rg_values, rg_files, rg_scripts, rg_no_pattern, 1,
     false},
    {sd_names, "nf", "", "", sd_values, none, none, none, 2, false},
};

static const pf_spec *pattern_first(const char *prog)
{
    for (size_t i = 0; i < sizeof pf_specs / sizeof pf_specs[0]; i++)
        if (name_in(prog, pf_specs[i].names))
            return &pf_specs[i];
    return NULL;
}

static bool long_is(const char *t, size_t name_len, const char *const *list)
{
    for (; *list; list++)
        if (strlen(*list) == name_len && memcmp(*list, t, name_len) == 0)
            return true;
    return false;
}

static void emit_pattern_first(walk *w, const rp_sh_command *c, const pf_spec *sp, const bases *bs,
                               const emit_opts *o)
{
    bool flags_done = false, script_given = false;
    int skipped = 0;
    for (size_t i = 1; i < c->n_words; i++)
        if (rp_sh_word_static(&c->words[i])) {
            const char *t = c->words[i].text;
            if (strcmp(t, "--") == 0)
                break;
            size_t nl = strcspn(t, "=");
            if (t[0] == '-' && t[1] == '-' && long_is(t, nl, sp->no_pattern_longs))
                script_given = true;
        }
    for (size_t i = 1; i < c->n_words; i++) {
        const rp_sh_word *word = &c->words[i];
        const char *t = word->text;
        bool is_static = rp_sh_word_static(word);
        if (!flags_done && is_static && strcmp(t, "--") == 0) {
            flags_done = true;
            continue;
        }
        if (!flags_done && is_static && t[0] == '-' && t[1] != '\0') {
            if (t[1] == '-') {
                size_t nl = strcspn(t, "=");
                bool attached = t[nl] == '=';
                bool is_file = long_is(t, nl, sp->file_longs);
                bool is_value = !is_file && long_is(t, nl, sp->value_longs);
                if (long_is(t, nl, sp->script_longs))
                    script_given = true;
                if (is_file) {
                    if (attached)
                        emit(w, word, RP_PERM_BASH_AFTER_EQ, bs, o);
                    else if (i + 1 < c->n_words)
                        emit_arg(w, &c->words[++i], bs, o);
                } else if (is_value) {
                    if (!attached)
                        i++;
                } else if (attached) {
                    emit(w, word, RP_PERM_BASH_AFTER_EQ, bs, o); /* an unknown --opt=VALUE (§4.7) */
                }
                continue;
            }
            for (size_t j = 1; t[j]; j++) {
                char ch = t[j];
                bool value = strchr(sp->value_shorts, ch) != NULL;
                bool file = strchr(sp->file_shorts, ch) != NULL;
                if (strchr(sp->script_shorts, ch))
                    script_given = true;
                if (sp->sed && ch == 'i')
                    break; /* the rest is the backup suffix */
                if (!value && !file)
                    continue;
                if (t[j + 1] != '\0') {
                    if (file) {
                        rp_sh_word rest = tail_word(word, j + 1);
                        emit(w, &rest, RP_PERM_BASH_WHOLE, bs, o);
                    }
                } else if (i + 1 < c->n_words) {
                    i++;
                    if (file)
                        emit_arg(w, &c->words[i], bs, o);
                }
                break;
            }
            continue;
        }
        if (!script_given && skipped < sp->positionals) {
            skipped++;
            continue;
        }
        emit_arg(w, word, bs, o);
    }
}

/* ---- commands ---- */

static bool is_fd_target(const rp_sh_word *t)
{
    if (!rp_sh_word_static(t))
        return false;
    const char *s = t->text;
    if (strcmp(s, "-") == 0)
        return true;
    size_t i = 0;
    while (s[i] >= '0' && s[i] <= '9')
        i++;
    return i > 0 && (s[i] == '\0' || (s[i] == '-' && s[i + 1] == '\0'));
}

/* The index of the directory operand of cd/pushd (bash's reading: -L -P -e -@ are options),
 * n_words when there is none; -1 when the command fails or its effect is not known. */
static long cd_operand(const rp_sh_command *c, bool pushd)
{
    size_t i = 1;
    while (i < c->n_words && rp_sh_word_static(&c->words[i])) {
        const char *t = c->words[i].text;
        if (strcmp(t, "--") == 0) {
            i++;
            break;
        }
        if (t[0] != '-' || t[1] == '\0')
            break;
        if (pushd && strcmp(t, "-n") == 0)
            return -2; /* no directory change */
        if (t[strspn(t + 1, "LPe@") + 1] != '\0')
            return -1; /* an option cd does not know (or pushd -N): it fails or rotates */
        i++;
    }
    if (pushd && i < c->n_words && rp_sh_word_static(&c->words[i]) && c->words[i].text[0] == '+')
        return -1;
    return (long)i;
}

static bool word_is_cd(const rp_sh_command *c, const char *name)
{
    return c->n_words > 0 && rp_sh_word_static(&c->words[0]) && strcmp(c->words[0].text, name) == 0;
}

/* Bash's fold of a current-shell cd/pushd/popd on base. */
static const char *fold_real(walk *w, const rp_sh_command *c, const char *base)
{
    bool pushd = word_is_cd(c, "pushd");
    if (word_is_cd(c, "popd")) {
        for (size_t i = 1; i < c->n_words; i++)
            if (rp_sh_word_is(c, i, "-n"))
                return base;
        return NULL;
    }
    long k = cd_operand(c, pushd);
    if (k == -2)
        return base;
    if (k < 0)
        return NULL;
    if ((size_t)k >= c->n_words) {
        if (pushd)
            return NULL; /* swaps the top two directories */
        return w->pc->home ? rp_pathf_resolve(w->x->a, w->f, NULL, w->pc->home) : NULL;
    }
    const rp_sh_word *t = &c->words[k];
    if (rp_sh_word_is(c, (size_t)k, "-"))
        return NULL; /* OLDPWD */
    rp_perm_bash_value v[RP_PERM_BASH_MAX_VALUES];
    size_t n = rp_perm_bash_word_values(w->x, t, RP_PERM_BASH_WHOLE, base, false, v);
    if (n != 1 || v[0].unknown)
        return NULL;
    const char *text = v[0].value;
    if (v[0].glob && (text = rp_glob_literal(w->x->a, text)) == NULL)
        return NULL;
    if (text[0] == '\0')
        return base; /* `cd ""` changes nothing */
    return resolve_dir(w, base, text);
}

/* The reference's fold (§4.9): the first argument not `--`; `-`, `~…`, any expansion or no
 * argument → unknown; options are not understood (`cd -P x` goes to "-P"). */
static const char *fold_ref(walk *w, const rp_sh_command *c, const char *base)
{
    size_t i = 1;
    if (i < c->n_words && rp_sh_word_is(c, i, "--"))
        i++;
    if (i >= c->n_words)
        return NULL;
    const rp_sh_word *t = &c->words[i];
    if (t->flags & (RP_SH_WORD_VAR | RP_SH_WORD_CMDSUB | RP_SH_WORD_ARITH | RP_SH_WORD_PROCSUB))
        return NULL;
    if (strcmp(t->text, "-") == 0 || t->text[0] == '~')
        return NULL;
    return resolve_dir(w, base, t->text);
}

static void init_env(walk *w, int e, const rp_sh_command *c)
{
    env_state *s = &w->envs[e];
    if (s->init)
        return;
    const struct rp_sh_parse *p = w->x->parse;
    int parent = p->env_parent[e];
    s->init = true;
    if (parent < 0) {
        s->real = w->start_real;
        s->ref = w->start_ref;
        return;
    }
    init_env(w, parent, c);
    *s = w->envs[parent];
    s->init = true;
    if (p->env_kind[e] == RP_SH_ENV_STRING) {
        s->ref_is_real = true;
        if (c->context & RP_SH_CTX_REMOTE)
            s->real = NULL; /* another host: its directories are not ours */
        s->ref = s->real;
    }
}

/* `env -C DIR CMD` and `sudo -D DIR CMD` (also --chdir) run CMD in DIR: the directory word of
 * wrapper wr for its command c (whose words are a slice of wr's), NULL when none. */
static bool wrapper_chdir(const rp_sh_command *wr, const rp_sh_command *c, rp_sh_word *out)
{
    const char *p = rp_perm_bash_program_name(wr);
    char letter = p == NULL ? 0 : strcmp(p, "env") == 0 ? 'C' : strcmp(p, "sudo") == 0 ? 'D' : 0;
    if (!letter || c->n_words == 0 || c->words < wr->words || c->words >= wr->words + wr->n_words)
        return false;
    size_t end = (size_t)(c->words - wr->words);
    bool found = false;
    for (size_t i = 1; i < end; i++) {
        const rp_sh_word *word = &wr->words[i];
        if (!rp_sh_word_static(word))
            continue;
        const char *t = word->text;
        if (strcmp(t, "--chdir") == 0 && i + 1 < end) {
            *out = wr->words[++i];
            found = true;
        } else if (strncmp(t, "--chdir=", 8) == 0) {
            *out = tail_word(word, 8);
            found = true;
        } else if (t[0] == '-' && t[1] != '-') {
            /* a bundle: the first letter that takes a value takes the rest (or the next) */
            const char *takes = letter == 'C' ? "uCS" : "aCcDghpRrTtUu";
            for (size_t j = 1; t[j]; j++) {
                if (!strchr(takes, t[j]))
                    continue;
                if (t[j] == letter && t[j + 1]) {
                    *out = tail_word(word, j + 1);
                    found = true;
                } else if (t[j] == letter && i + 1 < end) {
                    *out = wr->words[i + 1];
                    found = true;
                }
                if (!t[j + 1])
                    i++; /* the next word is the value */
                break;
            }
        }
    }
    return found;
}

/* The bases a wrapped command's words are relative to: its wrappers' --chdir, outermost
 * first, applied to the environment's. */
static void apply_wrapper_chdirs(walk *w, const rp_sh_command *c, bases *bs)
{
    rp_sh_word dirs[RP_SH_MAX_DEPTH + 1];
    size_t n = 0;
    const rp_sh_command *inner = c;
    for (const rp_sh_command *wr = c->wrapper; wr && wr->env == c->env && n <= RP_SH_MAX_DEPTH;
         inner = wr, wr = wr->wrapper)
        if (wrapper_chdir(wr, inner, &dirs[n]))
            n++;
    while (n-- > 0) {
        for (size_t b = 0; b < bs->n; b++) {
            rp_perm_bash_value v[RP_PERM_BASH_MAX_VALUES];
            size_t k =
                rp_perm_bash_word_values(w->x, &dirs[n], RP_PERM_BASH_WHOLE, bs->dir[b], false, v);
            bs->dir[b] = (k == 1 && !v[0].unknown && !v[0].glob && v[0].value[0])
                             ? resolve_dir(w, bs->dir[b], v[0].value)
                             : NULL;
        }
    }
}

static void walk_command(walk *w, const rp_sh_command *c)
{
    env_state *s = &w->envs[c->env];
    init_env(w, c->env, c);
    bases bs = {{s->real, NULL}, 1};
    if (!s->ref_is_real && !same_dir(s->ref, s->real))
        bs.dir[bs.n++] = s->ref;
    if (c->wrapper && (c->context & RP_SH_CTX_WRAPPED))
        apply_wrapper_chdirs(w, c, &bs);

    const char *prog = rp_perm_bash_program_name(c);
    unsigned roles = rp_perm_bash_roles(w->x, c);
    for (size_t i = 0; i < c->n_redirs; i++) {
        const rp_sh_redir *r = &c->redirs[i];
        if (r->op == RP_SH_REDIR_HEREDOC || r->op == RP_SH_REDIR_HEREDOC_STRIP ||
            r->op == RP_SH_REDIR_HERESTRING)
            continue;
        if ((r->op == RP_SH_REDIR_DUP_OUT || r->op == RP_SH_REDIR_DUP_IN) &&
            is_fd_target(&r->target))
            continue;
        emit_opts o = {.kind = RP_PERM_TOK_REDIRECT};
        emit(w, &r->target, RP_PERM_BASH_WHOLE, &bs, &o);
    }
    if (prog && c->n_words > 1) {
        emit_opts o = {.output_only = (roles & RP_PERM_BASH_ROLE_OUTPUT_ONLY) != 0,
                       .force = (roles & RP_PERM_BASH_ROLE_WRITER) != 0};
        const pf_spec *sp = (roles & RP_PERM_BASH_ROLE_PATTERN) ? pattern_first(prog) : NULL;
        bool cd =
            (roles & RP_PERM_BASH_ROLE_DIR) && (word_is_cd(c, "cd") || word_is_cd(c, "pushd"));
        long target = cd ? cd_operand(c, word_is_cd(c, "pushd")) : -1;
        if (sp) {
            emit_pattern_first(w, c, sp, &bs, &o);
        } else {
            for (size_t i = 1; i < c->n_words; i++) {
                const rp_sh_word *word = &c->words[i];
                emit_opts oi = o;
                if ((long)i == target)
                    oi.kind |= RP_PERM_TOK_CD_TARGET | RP_PERM_TOK_DIRECTORY;
                if (o.force && rp_sh_word_static(word) && word->text[0] == '-')
                    oi.force = false;
                emit_arg(w, word, &bs, &oi);
                if ((roles & RP_PERM_BASH_ROLE_DD) && rp_sh_word_static(word) &&
                    (starts_with(word->text, "if=") || starts_with(word->text, "of=")))
                    emit(w, word, RP_PERM_BASH_AFTER_EQ, &bs, &oi);
            }
        }
    } else if (prog == NULL && c->n_words > 1) {
        emit_opts o = {0};
        for (size_t i = 1; i < c->n_words; i++)
            emit_arg(w, &c->words[i], &bs, &o);
    }

    /* the cd fold, after the command's own tokens (its target is relative to the old base) */
    bool dir_change = (roles & RP_PERM_BASH_ROLE_DIR) &&
                      (word_is_cd(c, "cd") || word_is_cd(c, "pushd") || word_is_cd(c, "popd"));
    if (dir_change && rp_perm_bash_runs_in_shell(c)) {
        const unsigned may_not_run =
            RP_SH_CTX_IF | RP_SH_CTX_LOOP | RP_SH_CTX_CASE | RP_SH_CTX_FUNCTION;
        const char *before = s->real;
        s->real = (c->context & may_not_run) ? NULL : fold_real(w, c, before);
        const unsigned ref_blind =
            may_not_run | RP_SH_CTX_CMDSUB | RP_SH_CTX_PROCSUB | RP_SH_CTX_HEREDOC;
        if (!s->ref_is_real && c->wrapper == NULL && !(c->context & ref_blind) &&
            c->words[0].raw_len == 2 && memcmp(c->words[0].raw, "cd", 2) == 0)
            s->ref = fold_ref(w, c, s->ref);
    }
    if (s->ref_is_real)
        s->ref = s->real;
    rp_perm_bash_track_assignments(w->x, c);
}

/* ---- workdir ---- */

/* `cd WORKDIR` from the session cwd; the workdir is a plain path, not shell text. */
static void start_dirs(walk *w, const char *workdir)
{
    const rp_path_ctx *pc = w->pc;
    w->start_real = w->start_ref = pc->cwd;
    if (workdir == NULL || workdir[0] == '\0')
        return;
    rp_arena *a = w->x->a;
    const char *dir = workdir;
    if (dir[0] == '~' && (dir[1] == '\0' || rp_pathf_is_sep(w->f, dir[1]))) {
        dir = pc->home ? rp_pathf_join(a, w->f, pc->home, dir[1] ? dir + 2 : "") : NULL;
        w->start_ref = NULL;
    } else if (dir[0] == '~' || strpbrk(dir, "$`")) {
        dir = NULL;
        w->start_ref = NULL;
    }
    w->start_real = dir ? resolve_dir(w, pc->cwd, dir) : NULL;
    if (w->start_ref != NULL)
        w->start_ref = w->start_real;

    /* the workdir itself, when it lies outside */
    rp_path_values v;
    unsigned kind = RP_PERM_TOK_WORKDIR | RP_PERM_TOK_DIRECTORY;
    if (w->start_real == NULL) {
        rp_path_policy_values_literal(a, pc, workdir, &v);
        add_external(w, workdir, &v, kind | RP_PERM_TOK_INDIRECT);
        return;
    }
    rp_path_policy_values(a, pc, w->start_real, NULL, &v);
    if (v.canonical && rp_path_outside(a, pc, v.canonical))
        add_external(w, workdir, &v, kind | RP_PERM_TOK_STRICT);
}

void rp_perm_bash_paths(rp_perm_bash_ctx *x, const char *workdir, rp_perm_bash *out)
{
    walk w;
    memset(&w, 0, sizeof w);
    w.x = x;
    w.pc = x->pc;
    w.f = x->pc->flavor;
    start_dirs(&w, workdir);
    const struct rp_sh_parse *p = x->parse;
    if (p->n_commands > 0 && p->n_envs > 0) {
        w.envs = rp_arena_calloc(x->a, p->n_envs * sizeof *w.envs);
        for (size_t i = 0; i < p->n_commands; i++)
            walk_command(&w, &p->commands[i]);
    }
    out->candidates = w.cands.items;
    out->n_candidates = w.cands.n;
    out->externals = w.exts.items;
    out->n_externals = w.exts.n;
}
