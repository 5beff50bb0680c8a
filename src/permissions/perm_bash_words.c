/* perm_bash_words.c — what a shell word is worth as a path: the value the shell would pass,
 * as far as it can be known without running anything.
 *
 * The parser gives each word's text after quote removal with its expansions kept as written,
 * which cannot tell `'$X'` (a literal) from `$X`; so a word with expansions is read again from
 * its source slice here. $HOME and ${HOME} become HOME, $PWD and ${PWD} the effective
 * directory (the reference's two), `~` and `~/…` HOME; brace expansion is done (up to
 * RP_PERM_BASH_MAX_VALUES words: `cat ~/.ssh/{id_rsa,config}` names two files). Everything else
 * ($X, ${X:-…}, $(…), `…`, $((…)), ~user) is unknown: the value keeps a mark of it, and the
 * gate treats the token as "could be anything there" (stricter than the reference, which
 * ignores such values, §4.13). A variable set earlier by a plain assignment is tracked, so the
 * gate can also check what it most likely holds (`D="$HOME/.ssh"; cat "$D/id_rsa"`). */
#include <stdio.h>
#include <string.h>

#include "core/utf8.h"
#include "permissions/perm_bash_internal.h"

#define MAX_VARS 256

/* ---- a growing string in the arena ---- */

typedef struct sbuf {
    rp_arena *a;
    char *p;
    size_t len, cap;
} sbuf;

static void sb_reserve(sbuf *b, size_t more)
{
    if (b->len + more + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap * 2 : 64;
    while (cap < b->len + more + 1)
        cap *= 2;
    b->p = rp_arena_realloc(b->a, b->p, b->cap, cap);
    b->cap = cap;
}

static void sb_put(sbuf *b, const char *s, size_t n)
{
    sb_reserve(b, n);
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void sb_putc(sbuf *b, char c)
{
    sb_reserve(b, 1);
    b->p[b->len++] = c;
    b->p[b->len] = '\0';
}

static const char *sb_str(sbuf *b)
{
    return b->p ? b->p : "";
}

/* ---- scanning the source of an expansion ---- */

/* i just after an opening quote q: the index just after its closing one (or n). */
static size_t skip_quoted(const char *s, size_t n, size_t i, char q)
{
    while (i < n && s[i] != q) {
        if (q == '"' && s[i] == '\\' && i + 1 < n)
            i++;
        i++;
    }
    return i < n ? i + 1 : n;
}

static size_t skip_backtick(const char *s, size_t n, size_t i)
{
    while (i < n && s[i] != '`') {
        if (s[i] == '\\' && i + 1 < n)
            i++;
        i++;
    }
    return i < n ? i + 1 : n;
}

/* i just after an opening `open` ("$(", "<(", "$((" or "${"): the index just after the matching
 * `close`. Quotes and backticks are skipped whole; inside "${…}" a "$(" nests on its own. */
static size_t skip_nested(const char *s, size_t n, size_t i, char open, char close)
{
    int depth = 1;
    while (i < n) {
        char c = s[i];
        if (c == '\\') {
            i += 2;
        } else if (c == '\'' || c == '"') {
            i = skip_quoted(s, n, i + 1, c);
        } else if (c == '`') {
            i = skip_backtick(s, n, i + 1);
        } else if (open == '{' && c == '$' && i + 1 < n && s[i + 1] == '(') {
            i = skip_nested(s, n, i + 2, '(', ')');
        } else if (c == open) {
            depth++;
            i++;
        } else if (c == close) {
            i++;
            if (--depth == 0)
                return i;
        } else {
            i++;
        }
    }
    return n;
}

static size_t skip_parens(const char *s, size_t n, size_t i)
{
    return skip_nested(s, n, i, '(', ')');
}

static size_t skip_braces(const char *s, size_t n, size_t i)
{
    return skip_nested(s, n, i, '{', '}');
}

static bool name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool name_char(char c)
{
    return name_start(c) || (c >= '0' && c <= '9');
}

/* ---- brace expansion (on the source, before anything else, as bash does) ---- */

typedef struct alt_list {
    const char *text[RP_PERM_BASH_MAX_VALUES];
    size_t len[RP_PERM_BASH_MAX_VALUES];
    size_t n;
    bool overflow;
    size_t work; /* bytes scanned and copied so far, against RP_PERM_BASH_BRACE_WORK_MAX */
} alt_list;

/* Parses "A..B" or "A..B..STEP" of integers or single characters; fills lo, hi, step, width
 * (zero padding) and whether they are characters. */
static bool parse_sequence(const char *s, size_t n, long *lo, long *hi, long *step, int *width,
                           bool *chars)
{
    const char *dots = NULL;
    for (size_t i = 0; i + 1 < n; i++)
        if (s[i] == '.' && s[i + 1] == '.') {
            dots = s + i;
            break;
        }
    if (dots == NULL)
        return false;
    size_t a_len = (size_t)(dots - s);
    const char *b = dots + 2;
    size_t rest = n - a_len - 2;
    size_t b_len = rest;
    *step = 1;
    for (size_t i = 0; i + 1 < rest; i++)
        if (b[i] == '.' && b[i + 1] == '.') {
            b_len = i;
            long st = 0;
            bool neg = false;
            size_t k = i + 2;
            if (k < rest && b[k] == '-') {
                neg = true;
                k++;
            }
            if (k >= rest)
                return false;
            for (; k < rest; k++) {
                if (b[k] < '0' || b[k] > '9' || st > 100000)
                    return false;
                st = st * 10 + (b[k] - '0');
            }
            *step = st == 0 ? 1 : (neg ? -st : st);
            break;
        }
    if (a_len == 1 && b_len == 1 && !(s[0] >= '0' && s[0] <= '9' && b[0] >= '0' && b[0] <= '9')) {
        *chars = true;
        *lo = (unsigned char)s[0];
        *hi = (unsigned char)b[0];
        *width = 0;
        return true;
    }
    *chars = false;
    const char *parts[2] = {s, b};
    size_t lens[2] = {a_len, b_len};
    long vals[2];
    *width = 0;
    for (int p = 0; p < 2; p++) {
        const char *t = parts[p];
        size_t l = lens[p], k = 0;
        bool neg = false;
        if (k < l && (t[k] == '-' || t[k] == '+')) {
            neg = t[k] == '-';
            k++;
        }
        if (k >= l)
            return false;
        if (t[k] == '0' && l - k > 1 && (int)l > *width)
            *width = (int)l;
        long v = 0;
        for (; k < l; k++) {
            if (t[k] < '0' || t[k] > '9' || v > 100000000)
                return false;
            v = v * 10 + (t[k] - '0');
        }
        vals[p] = neg ? -v : v;
    }
    *lo = vals[0];
    *hi = vals[1];
    return true;
}

static void add_alt(rp_arena *a, alt_list *out, const char *s, size_t n, int depth);

/* Expands the first brace group of s (if any) into out. */
static void expand_first_group(rp_arena *a, alt_list *out, const char *s, size_t n, int depth)
{
    size_t i = 0;
    while (i < n) {
        char c = s[i];
        if (c == '\\') {
            i += 2;
            continue;
        }
        if (c == '\'' || c == '"') {
            i = skip_quoted(s, n, i + 1, c);
            continue;
        }
        if (c == '`') {
            i = skip_backtick(s, n, i + 1);
            continue;
        }
        if (c == '$' && i + 1 < n && (s[i + 1] == '{' || s[i + 1] == '(')) {
            i = s[i + 1] == '{' ? skip_braces(s, n, i + 2) : skip_parens(s, n, i + 2);
            continue;
        }
        if (c != '{') {
            i++;
            continue;
        }
        /* a candidate group: its matching '}' and top-level commas */
        size_t commas[RP_PERM_BASH_MAX_VALUES + 1];
        size_t n_commas = 0;
        int d = 1;
        size_t k = i + 1;
        while (k < n && d > 0) {
            char e = s[k];
            if (e == '\\') {
                k += 2;
            } else if (e == '\'' || e == '"') {
                k = skip_quoted(s, n, k + 1, e);
            } else if (e == '`') {
                k = skip_backtick(s, n, k + 1);
            } else if (e == '$' && k + 1 < n && (s[k + 1] == '{' || s[k + 1] == '(')) {
                k = s[k + 1] == '{' ? skip_braces(s, n, k + 2) : skip_parens(s, n, k + 2);
            } else {
                if (e == '{')
                    d++;
                else if (e == '}')
                    d--;
                else if (e == ',' && d == 1) {
                    if (n_commas == RP_PERM_BASH_MAX_VALUES) {
                        out->overflow = true;
                        return;
                    }
                    commas[n_commas++] = k;
                }
                if (d > 0)
                    k++;
            }
        }
        /* An unmatched '{' is rescanned from the next one: quadratic on "{a,{a,{a,...",
         * so the scanning (and the copies below) are bounded in all. */
        out->work += k - i;
        if (out->work > RP_PERM_BASH_BRACE_WORK_MAX) {
            out->overflow = true;
            return;
        }
        if (d > 0 || k >= n) {
            i++;
            continue;
        }
        size_t close = k;
        const char *prefix = s, *suffix = s + close + 1;
        size_t prefix_len = i, suffix_len = n - close - 1;
        if (n_commas > 0) {
            size_t from = i + 1;
            for (size_t m = 0; m <= n_commas && !out->overflow; m++) {
                size_t to = m < n_commas ? commas[m] : close;
                size_t len = prefix_len + (to - from) + suffix_len;
                out->work += len;
                if (out->work > RP_PERM_BASH_BRACE_WORK_MAX) {
                    out->overflow = true;
                    return;
                }
                char *t = rp_arena_alloc(a, len + 1);
                memcpy(t, prefix, prefix_len);
                memcpy(t + prefix_len, s + from, to - from);
                memcpy(t + prefix_len + (to - from), suffix, suffix_len);
                t[len] = '\0';
                add_alt(a, out, t, len, depth + 1);
                from = to + 1;
            }
            return;
        }
        long lo, hi, step;
        int width;
        bool chars;
        if (!parse_sequence(s + i + 1, close - i - 1, &lo, &hi, &step, &width, &chars)) {
            i++;
            continue;
        }
        if (step < 0)
            step = -step;
        long count = (hi >= lo ? hi - lo : lo - hi) / step + 1;
        if (count > RP_PERM_BASH_MAX_VALUES) {
            out->overflow = true;
            return;
        }
        for (long m = 0; m < count && !out->overflow; m++) {
            long v = hi >= lo ? lo + m * step : lo - m * step;
            char item[32];
            int item_len = 1;
            if (chars)
                item[0] = (char)v;
            else
                item_len = snprintf(item, sizeof item, "%0*ld", width, v);
            size_t len = prefix_len + (size_t)item_len + suffix_len;
            out->work += len;
            if (out->work > RP_PERM_BASH_BRACE_WORK_MAX) {
                out->overflow = true;
                return;
            }
            char *t = rp_arena_alloc(a, len + 1);
            memcpy(t, prefix, prefix_len);
            memcpy(t + prefix_len, item, (size_t)item_len);
            memcpy(t + prefix_len + (size_t)item_len, suffix, suffix_len);
            t[len] = '\0';
            add_alt(a, out, t, len, depth + 1);
        }
        return;
    }
    if (out->n == RP_PERM_BASH_MAX_VALUES) {
        out->overflow = true;
        return;
    }
    out->text[out->n] = s;
    out->len[out->n] = n;
    out->n++;
}

static void add_alt(rp_arena *a, alt_list *out, const char *s, size_t n, int depth)
{
    if (out->overflow)
        return;
    if (depth > 8) {
        out->overflow = true;
        return;
    }
    expand_first_group(a, out, s, n, depth);
}

/* ---- reading one word ---- */

typedef struct wx {
    rp_perm_bash_ctx *x;
    const char *pwd;
    bool use_vars;
    rp_perm_bash_part part;
    bool seen_eq;   /* RP_PERM_BASH_AFTER_EQ: the '=' was passed */
    bool glob_mode; /* escape quoted glob characters in the value */
    sbuf val, disp;
    bool unknown, leading_unknown, glob, tracked;
    size_t n_procsub, n_other; /* process substitutions, and anything else emitted */
} wx;

static bool collecting(wx *w)
{
    return w->part == RP_PERM_BASH_WHOLE || w->seen_eq;
}

static void lit(wx *w, char c, bool quoted)
{
    if (!collecting(w)) {
        if (c == '=')
            w->seen_eq = true;
        return;
    }
    if (quoted && w->glob_mode && strchr("*?[]\\", c))
        sb_putc(&w->val, '\\');
    if (!quoted && (c == '*' || c == '?' || c == '['))
        w->glob = true;
    sb_putc(&w->val, c);
    sb_putc(&w->disp, c);
    w->n_other++;
}

static void lit_str(wx *w, const char *s, bool quoted)
{
    for (; *s; s++)
        lit(w, *s, quoted);
}

enum { UNK_VAR, UNK_SUBST, UNK_PROCSUB };

static void unknown(wx *w, const char *raw, size_t n, int kind)
{
    if (!collecting(w))
        return;
    if (w->val.len == 0)
        w->leading_unknown = true;
    w->unknown = true;
    if (kind == UNK_PROCSUB)
        w->n_procsub++;
    else
        w->n_other++;
    bool sep = memchr(raw, '/', n) || memchr(raw, '\\', n);
    if (!sep)
        sb_put(&w->val, raw, n);
    else
        sb_put(&w->val, kind == UNK_VAR ? "${\xe2\x80\xa6}" : "$(\xe2\x80\xa6)", 6);
    sb_put(&w->disp, raw, n);
}

static const rp_perm_bash_var *find_var(const rp_perm_bash_ctx *x, const char *name, size_t n)
{
    for (size_t i = x->n_vars; i-- > 0;)
        if (x->vars[i].name_len == n && memcmp(x->vars[i].name, name, n) == 0)
            return &x->vars[i];
    return NULL;
}

/* $NAME / ${NAME} whose source is raw[0..n). */
static void variable(wx *w, const char *name, size_t name_len, const char *raw, size_t n)
{
    const rp_path_ctx *pc = w->x->pc;
    if (name_len == 4 && memcmp(name, "HOME", 4) == 0 && pc->home) {
        lit_str(w, pc->home, true);
        return;
    }
    if (name_len == 3 && memcmp(name, "PWD", 3) == 0 && w->pwd) {
        lit_str(w, w->pwd, true);
        return;
    }
    const rp_perm_bash_var *v = find_var(w->x, name, name_len);
    if (v && v->value && collecting(w)) {
        w->tracked = true;
        if (w->use_vars) {
            lit_str(w, v->value, true);
            return;
        }
    }
    unknown(w, raw, n, UNK_VAR);
}

/* $'…' starting at s[i] == '$': decodes it; returns the index after the closing quote. An
 * escape this does not know (\u, \c …) leaves the part unknown. */
static size_t ansi_c(wx *w, const char *s, size_t n, size_t i)
{
    size_t start = i;
    i += 2;
    while (i < n && s[i] != '\'') {
        char c = s[i];
        if (c != '\\' || i + 1 >= n) {
            lit(w, c, true);
            i++;
            continue;
        }
        char e = s[i + 1];
        i += 2;
        static const char from[] = "abefnrtvE\\'\"?";
        static const char to[] = "\a\b\x1b\f\n\r\t\v\x1b\\'\"?";
        const char *hit = strchr(from, e);
        if (hit && e) {
            lit(w, to[hit - from], true);
        } else if (e == 'x' || (e >= '0' && e <= '7')) {
            unsigned v = 0;
            int digits = 0, max = e == 'x' ? 2 : 3;
            if (e != 'x') {
                v = (unsigned)(e - '0');
                digits = 1;
            }
            while (digits < max && i < n) {
                char d = s[i];
                int dv = rp_hex_digit((unsigned char)d);
                if (dv < 0 || (e != 'x' && dv > 7))
                    break; /* octal escapes take 0-7 only */
                v = v * (e == 'x' ? 16u : 8u) + (unsigned)dv;
                digits++;
                i++;
            }
            if (v == 0) { /* bash stops the string at a NUL */
                while (i < n && s[i] != '\'')
                    i += (s[i] == '\\' && i + 1 < n) ? 2 : 1;
                break;
            }
            lit(w, (char)v, true);
        } else {
            size_t end = i;
            while (end < n && s[end] != '\'')
                end += (s[end] == '\\' && end + 1 < n) ? 2 : 1;
            unknown(w, s + start, (end < n ? end + 1 : n) - start, UNK_VAR);
            return end < n ? end + 1 : n;
        }
    }
    return i < n ? i + 1 : n;
}

/* s[i] == '$': one expansion. Returns the index after it. */
static size_t dollar(wx *w, const char *s, size_t n, size_t i, bool in_dq)
{
    char next = i + 1 < n ? s[i + 1] : '\0';
    if (next == '(') {
        size_t end = skip_parens(s, n, i + 2);
        unknown(w, s + i, end - i, UNK_SUBST);
        return end;
    }
    if (next == '[') {
        size_t end = i + 2;
        while (end < n && s[end] != ']')
            end++;
        end = end < n ? end + 1 : n;
        unknown(w, s + i, end - i, UNK_SUBST);
        return end;
    }
    if (next == '{') {
        size_t end = skip_braces(s, n, i + 2);
        size_t body = i + 2, body_len = end > body ? end - body - 1 : 0;
        bool plain = body_len > 0 && name_start(s[body]);
        for (size_t k = 1; plain && k < body_len; k++)
            plain = name_char(s[body + k]);
        if (plain)
            variable(w, s + body, body_len, s + i, end - i);
        else
            unknown(w, s + i, end - i, UNK_VAR);
        return end;
    }
    if (name_start(next)) {
        size_t end = i + 1;
        while (end < n && name_char(s[end]))
            end++;
        variable(w, s + i + 1, end - i - 1, s + i, end - i);
        return end;
    }
    if (next && strchr("?#$!-", next)) {
        /* numbers or option letters: never a path of their own; matched as a digit */
        if (collecting(w)) {
            sb_putc(&w->val, '0');
            sb_put(&w->disp, s + i, 2);
            w->n_other++;
        }
        return i + 2;
    }
    if (next && ((next >= '0' && next <= '9') || next == '@' || next == '*')) {
        unknown(w, s + i, 2, UNK_VAR);
        return i + 2;
    }
    if (next == '\'' && !in_dq)
        return ansi_c(w, s, n, i);
    lit(w, '$', in_dq);
    return i + 1;
}

static size_t double_quoted(wx *w, const char *s, size_t n, size_t i)
{
    while (i < n && s[i] != '"') {
        char c = s[i];
        if (c == '\\' && i + 1 < n) {
            char e = s[i + 1];
            if (e == '\n') {
                i += 2;
            } else if (e == '$' || e == '`' || e == '"' || e == '\\') {
                lit(w, e, true);
                i += 2;
            } else {
                lit(w, '\\', true);
                i++;
            }
        } else if (c == '$') {
            i = dollar(w, s, n, i, true);
        } else if (c == '`') {
            size_t end = skip_backtick(s, n, i + 1);
            unknown(w, s + i, end - i, UNK_SUBST);
            i = end;
        } else {
            lit(w, c, true);
            i++;
        }
    }
    return i < n ? i + 1 : n;
}

static void read_source(wx *w, const char *s, size_t n, bool tilde)
{
    size_t i = 0;
    if (tilde && n > 0 && s[0] == '~' && w->part == RP_PERM_BASH_WHOLE) {
        size_t end = 1;
        while (end < n && s[end] != '/' && (name_char(s[end]) || s[end] == '.' || s[end] == '-'))
            end++;
        if (end == 1 && (end == n || s[end] == '/') && w->x->pc->home) {
            lit_str(w, w->x->pc->home, true);
            i = 1;
        } else if (end == n || s[end] == '/') {
            unknown(w, s, end, UNK_VAR); /* ~user, or no HOME */
            i = end;
        }
    }
    while (i < n) {
        char c = s[i];
        if (c == '\\') {
            if (i + 1 < n && s[i + 1] == '\n') {
                i += 2;
            } else if (i + 1 < n) {
                lit(w, s[i + 1], true);
                i += 2;
            } else {
                lit(w, '\\', true);
                i++;
            }
        } else if (c == '\'') {
            const char *q = memchr(s + i + 1, '\'', n - i - 1);
            size_t close = q ? (size_t)(q - s) : n;
            for (size_t k = i + 1; k < close; k++)
                lit(w, s[k], true);
            i = close < n ? close + 1 : n;
        } else if (c == '"') {
            i = double_quoted(w, s, n, i + 1);
        } else if (c == '$') {
            if (i + 1 < n && s[i + 1] == '"')
                i = double_quoted(w, s, n, i + 2);
            else
                i = dollar(w, s, n, i, false);
        } else if (c == '`') {
            size_t end = skip_backtick(s, n, i + 1);
            unknown(w, s + i, end - i, UNK_SUBST);
            i = end;
        } else if ((c == '<' || c == '>') && i + 1 < n && s[i + 1] == '(') {
            size_t end = skip_parens(s, n, i + 2);
            unknown(w, s + i, end - i, UNK_PROCSUB);
            i = end;
        } else {
            lit(w, c, false);
            i++;
        }
    }
}

size_t rp_perm_bash_word_values(rp_perm_bash_ctx *x, const rp_sh_word *w, rp_perm_bash_part part,
                                const char *pwd, bool use_vars, rp_perm_bash_value *out)
{
    /* Static words (the common case): the parser's text is the value. */
    unsigned dyn = w->flags & (RP_SH_WORD_DYNAMIC | RP_SH_WORD_TILDE);
    if (dyn == 0 || (dyn == RP_SH_WORD_GLOB && !(w->flags & RP_SH_WORD_QUOTED))) {
        const char *t = w->text;
        if (part == RP_PERM_BASH_AFTER_EQ) {
            const char *eq = strchr(t, '=');
            if (eq == NULL)
                return 0;
            t = eq + 1;
        }
        memset(&out[0], 0, sizeof out[0]);
        out[0].value = out[0].display = t;
        out[0].glob = dyn != 0 && rp_glob_has_meta(t);
        out[0].skip = t[0] == '\0';
        return 1;
    }
    alt_list alts;
    memset(&alts, 0, sizeof alts);
    if (w->flags & RP_SH_WORD_BRACE)
        add_alt(x->a, &alts, w->raw, w->raw_len, 0);
    bool overflow = alts.overflow;
    if (!(w->flags & RP_SH_WORD_BRACE) || overflow) {
        alts.n = 1;
        alts.text[0] = w->raw;
        alts.len[0] = w->raw_len;
    }
    size_t n_out = 0;
    for (size_t k = 0; k < alts.n; k++) {
        wx st;
        memset(&st, 0, sizeof st);
        st.x = x;
        st.pwd = pwd;
        st.use_vars = use_vars;
        st.part = part;
        st.glob_mode = (w->flags & RP_SH_WORD_GLOB) != 0;
        st.val.a = st.disp.a = x->a;
        read_source(&st, alts.text[k], alts.len[k], (w->flags & RP_SH_WORD_TILDE) != 0);
        if (part == RP_PERM_BASH_AFTER_EQ && !st.seen_eq)
            continue;
        rp_perm_bash_value *v = &out[n_out++];
        memset(v, 0, sizeof *v);
        v->value = sb_str(&st.val);
        v->display = sb_str(&st.disp);
        v->unknown = st.unknown || overflow;
        v->leading_unknown = st.leading_unknown;
        v->glob = st.glob && rp_glob_has_meta(v->value);
        v->tracked = st.tracked;
        v->skip = (st.n_other == 0); /* empty, or only process substitutions */
    }
    return n_out;
}

/* ---- tracked assignments ---- */

static void record(rp_perm_bash_ctx *x, const rp_sh_word *w)
{
    if (x->n_vars == MAX_VARS)
        return;
    const char *t = w->text;
    size_t n = 0;
    while (name_char(t[n]))
        n++;
    if (n == 0 || !name_start(t[0]) || !(t[n] == '=' || (t[n] == '+' && t[n + 1] == '=')))
        return;
    const char *value = NULL;
    if (t[n] == '=' && w->raw_len > n + 1 && w->raw[n + 1] != '(') {
        rp_perm_bash_value v[RP_PERM_BASH_MAX_VALUES];
        size_t k = rp_perm_bash_word_values(x, w, RP_PERM_BASH_AFTER_EQ, NULL, true, v);
        if (k == 1 && !v[0].unknown && !v[0].glob)
            value = v[0].value;
    } else if (t[n] == '=' && w->raw_len == n + 1) {
        value = "";
    }
    if (x->n_vars == x->cap_vars) {
        size_t cap = x->cap_vars ? x->cap_vars * 2 : 8;
        x->vars =
            rp_arena_realloc(x->a, x->vars, x->cap_vars * sizeof *x->vars, cap * sizeof *x->vars);
        x->cap_vars = cap;
    }
    x->vars[x->n_vars++] = (rp_perm_bash_var){t, n, value};
}

void rp_perm_bash_track_assignments(rp_perm_bash_ctx *x, const rp_sh_command *c)
{
    if (c->n_words == 0) {
        if (c->n_assigns > 0 && rp_perm_bash_runs_in_shell(c))
            for (size_t i = 0; i < c->n_assigns; i++)
                record(x, &c->assigns[i]);
        return;
    }
    if (!(rp_perm_bash_roles(x, c) & RP_PERM_BASH_ROLE_DECLARER) || !rp_perm_bash_runs_in_shell(c))
        return;
    for (size_t i = 1; i < c->n_words; i++)
        if (c->words[i].text[0] != '-')
            record(x, &c->words[i]);
}
