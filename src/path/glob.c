/* glob.c — pi-permission-system's wildcard (reference §2.3) without regular expressions, and
 * the question "could this shell glob name something the wildcard matches" (glob.h).
 *
 * The reference compiles a pattern to an anchored JS regex (`*` → `.*`, `?` → `.`, dotAll).
 * Here the same language is matched directly: an iterative matcher that keeps only the last
 * `*` as a backtrack point, which is exact for `*`/`?` patterns and costs O(len(p) * len(v))
 * at worst, so a hostile "*a*a*a*a*b" cannot blow up the way a backtracking regex would.
 *
 * Characters. `?` consumes one character. A well-formed UTF-8 sequence is one character; any
 * other byte is a character of its own. JS (a regex without the u flag) counts UTF-16 code
 * units instead, so for code points above U+FFFF the reference needs "??" where rampart needs
 * "?"; for everything in the BMP the two agree. Case folding is ASCII only (JS /i also folds
 * non-ASCII letters); fold_sep makes '/' and '\\' the same character on both sides, which is
 * what the reference's "replace every / by \\ in pattern and value" amounts to.
 *
 * Shell globs. rp_glob_could_match decides whether the pattern's language and the set of
 * strings bash's pathname expansion of a token can produce intersect, by a simulation of the
 * pattern's automaton over the token's atoms: the state is (pattern position, where we are in
 * a path component), so the cost is O(len(pattern) * len(token)). Bash never lets `*`, `?` or
 * a bracket produce '/', nor the '.' that starts a component — not even a later literal '.'
 * after a `*` that produced nothing ("*.env" does not expand to ".env"): the component state
 * tracks exactly that. With fold_sep (win32 values, written with '\\' by the path rules) a
 * backslash in the token is a separator, not an escape. Where bash would ask the locale (what
 * [[:alpha:]] holds outside ASCII, multi-character collating elements) and for tokens that
 * are not UTF-8 (bash then matches bytes, which may join into characters), the answer leans
 * to "could": a rule that might apply only ever tightens the caller's verdict. */
#include "path/glob.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"
#include "path/flavor.h"

/* ---- characters ---- */

#define CH_BYTE 0x110000u /* CH_BYTE + b: a byte that does not start well-formed UTF-8 */

/* The character at s[i] (i < n) and its length in bytes; CH_BYTE + b for a byte b that does not
 * start a valid sequence (core/utf8.h). */
static uint32_t decode(const char *str, size_t n, size_t i, size_t *len)
{
    uint32_t cp;
    *len = rp_utf8_decode(str + i, n - i, &cp, RP_UTF8_REJECT);
    if (*len == 0) {
        *len = 1;
        return CH_BYTE + (unsigned char)str[i];
    }
    return cp;
}

static size_t encode(uint32_t c, char *out)
{
    if (c >= CH_BYTE) {
        out[0] = (char)(c - CH_BYTE);
        return 1;
    }
    return rp_utf8_encode(c, out);
}

static uint32_t lower(uint32_t c)
{
    return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
}

static uint32_t upper(uint32_t c)
{
    return (c >= 'a' && c <= 'z') ? c - ('a' - 'A') : c;
}

/* The form two characters are compared in. */
static uint32_t canon(uint32_t c, const rp_glob_opts *o)
{
    if (o->fold_case)
        c = lower(c);
    if (o->fold_sep && c == '\\')
        c = '/';
    return c;
}

static const rp_glob_opts no_opts = {0};

/* ---- home expansion ---- */

const char *rp_glob_expand_home(rp_arena *a, const char *pattern, const rp_glob_opts *opts)
{
    if (a == NULL || opts == NULL || opts->home == NULL || opts->home[0] == '\0')
        return pattern;
    static const char *const prefixes[] = {"~", "$HOME", "${HOME}"};
    rp_path_flavor f = opts->win32 ? RP_PATH_WIN32 : RP_PATH_POSIX;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(pattern, prefixes[i], n) != 0)
            continue;
        if (pattern[n] == '\0')
            return rp_arena_strdup(a, opts->home);
        if (pattern[n] == '/' || pattern[n] == '\\')
            return rp_pathf_join(a, f, opts->home, pattern + n + 1);
    }
    return pattern;
}

/* ---- the wildcard ---- */

/* Whether p[0..pn) matches all of v[0..vn). The classic two-pointer matcher: on a mismatch
 * only the most recent `*` grows by one character. That suffices because `*` matches any
 * string: a match that needs an earlier star to take more can let the later one take it. */
static bool match_range(const char *p, size_t pn, const char *v, size_t vn, const rp_glob_opts *o)
{
    size_t pi = 0, vi = 0, star_p = SIZE_MAX, star_v = 0;
    while (vi < vn) {
        if (pi < pn) {
            if (p[pi] == '*') {
                while (pi < pn && p[pi] == '*')
                    pi++;
                star_p = pi;
                star_v = vi;
                continue;
            }
            size_t vl, pl;
            uint32_t vc = decode(v, vn, vi, &vl);
            if (p[pi] == '?') {
                pi++;
                vi += vl;
                continue;
            }
            uint32_t pc = decode(p, pn, pi, &pl);
            if (canon(pc, o) == canon(vc, o)) {
                pi += pl;
                vi += vl;
                continue;
            }
        }
        if (star_p == SIZE_MAX)
            return false;
        size_t l;
        decode(v, vn, star_v, &l);
        star_v += l;
        vi = star_v;
        pi = star_p;
    }
    while (pi < pn && p[pi] == '*')
        pi++;
    return pi == pn;
}

/* §2.3 step 4: the regex ends in " .*" exactly when the pattern ends in " *" ("git **" ends
 * in ".*.*"), and then that suffix is optional. */
static bool optional_tail(const char *p, size_t pn)
{
    return pn >= 2 && p[pn - 1] == '*' && p[pn - 2] == ' ';
}

bool rp_glob_match_expanded(const char *pattern, const char *value, const rp_glob_opts *opts)
{
    const rp_glob_opts *o = opts ? opts : &no_opts;
    size_t pn = strlen(pattern), vn = strlen(value);
    if (match_range(pattern, pn, value, vn, o))
        return true;
    return optional_tail(pattern, pn) && match_range(pattern, pn - 2, value, vn, o);
}

bool rp_glob_match(rp_arena *a, const char *pattern, const char *value, const rp_glob_opts *opts)
{
    bool expands = opts && opts->home && opts->home[0] && (pattern[0] == '~' || pattern[0] == '$');
    if (!expands)
        return rp_glob_match_expanded(pattern, value, opts);
    if (a != NULL)
        return rp_glob_match_expanded(rp_glob_expand_home(a, pattern, opts), value, opts);
    rp_arena tmp;
    rp_arena_init(&tmp, 512);
    bool r = rp_glob_match_expanded(rp_glob_expand_home(&tmp, pattern, opts), value, opts);
    rp_arena_free(&tmp);
    return r;
}

/* ---- shell glob tokens ---- */

bool rp_glob_has_meta(const char *s)
{
    /* Deliberately blind to quoting and escapes: a false "yes" only makes the caller also ask
     * what the token could expand to, which can only add matches. */
    if (strpbrk(s, "*?") != NULL)
        return true;
    const char *open = strchr(s, '[');
    return open != NULL && strchr(open + 1, ']') != NULL;
}

enum { ITEM_CHAR, ITEM_RANGE, ITEM_NAMED, ITEM_ANY };

typedef struct cls_item {
    int kind;
    uint32_t lo, hi;  /* ITEM_CHAR (lo), ITEM_RANGE */
    const char *name; /* ITEM_NAMED: "alpha", … */
    size_t name_len;
} cls_item;

typedef struct glob_class {
    bool neg;
    size_t body, close; /* items in s[body..close); s[close] == ']' */
} glob_class;

/* Whether c separates path components on the token side. */
static bool tok_sep(uint32_t c, bool sep_bs)
{
    return c == '/' || (sep_bs && c == '\\');
}

/* One character inside a bracket (an escaped one when backslash escapes). */
static bool class_char(const char *s, size_t n, size_t *q, bool sep_bs, uint32_t *c)
{
    if (s[*q] == '\\' && !sep_bs && *q + 1 < n)
        (*q)++;
    size_t l;
    *c = decode(s, n, *q, &l);
    if (tok_sep(*c, sep_bs))
        return false; /* bash splits the glob at '/': no bracket spans one */
    *q += l;
    return true;
}

/* One item of a bracket at s[*q]: a character, a range, or "[:name:]" / "[=c=]" / "[.c.]".
 * false when the bracket cannot be a class. */
static bool class_item(const char *s, size_t n, size_t *q, bool sep_bs, cls_item *it)
{
    if (s[*q] == '[' && *q + 1 < n && (s[*q + 1] == ':' || s[*q + 1] == '=' || s[*q + 1] == '.')) {
        char d = s[*q + 1];
        size_t k = *q + 2;
        while (k + 1 < n && !(s[k] == d && s[k + 1] == ']') &&
               !tok_sep((unsigned char)s[k], sep_bs))
            k++;
        if (k + 1 < n && s[k] == d && s[k + 1] == ']') {
            const char *name = s + *q + 2;
            size_t len = k - (*q + 2);
            *q = k + 2;
            if (d == ':') {
                *it = (cls_item){.kind = ITEM_NAMED, .name = name, .name_len = len};
                return true;
            }
            size_t l;
            if (len > 0) {
                uint32_t c = decode(name, len, 0, &l);
                if (l == len) {
                    *it = (cls_item){.kind = ITEM_CHAR, .lo = c, .hi = c};
                    return true;
                }
            }
            /* A collating element of several characters ("[.space.]"): as anything. */
            *it = (cls_item){.kind = ITEM_ANY};
            return true;
        }
        /* No terminator: the '[' is an ordinary character of the bracket. */
    }
    uint32_t lo;
    if (!class_char(s, n, q, sep_bs, &lo))
        return false;
    *it = (cls_item){.kind = ITEM_CHAR, .lo = lo, .hi = lo};
    if (*q + 1 < n && s[*q] == '-' && s[*q + 1] != ']') {
        (*q)++;
        uint32_t hi;
        if (!class_char(s, n, q, sep_bs, &hi))
            return false;
        it->kind = ITEM_RANGE;
        it->hi = hi;
    }
    return true;
}

/* Whether s[i] == '[' opens a bracket expression, and its extent. ']' right after the '['
 * (or after "[!" / "[^") is a member, not the end. */
static bool parse_class(const char *s, size_t n, size_t i, bool sep_bs, glob_class *c)
{
    size_t q = i + 1;
    c->neg = false;
    if (q < n && (s[q] == '!' || s[q] == '^')) {
        c->neg = true;
        q++;
    }
    c->body = q;
    for (;;) {
        if (q >= n)
            return false;
        if (s[q] == ']' && q != c->body) {
            c->close = q;
            return true;
        }
        cls_item it;
        if (!class_item(s, n, &q, sep_bs, &it))
            return false;
    }
}

static bool named_has(const char *name, size_t len, uint32_t x)
{
#define IS(lit) (len == sizeof(lit) - 1 && memcmp(name, lit, len) == 0)
    bool ascii = x < 0x80;
    bool up = x >= 'A' && x <= 'Z', lo = x >= 'a' && x <= 'z', dig = x >= '0' && x <= '9';
    bool print = x >= 0x20 && x < 0x7F;
    bool punct = print && !up && !lo && !dig && x != ' ';
    /* Outside ASCII the locale decides; saying yes keeps the answer on the side of "could". */
    if (IS("alpha"))
        return up || lo || !ascii;
    if (IS("alnum"))
        return up || lo || dig || !ascii;
    if (IS("word"))
        return up || lo || dig || x == '_' || !ascii;
    if (IS("upper"))
        return up || !ascii;
    if (IS("lower"))
        return lo || !ascii;
    if (IS("digit"))
        return dig;
    if (IS("xdigit"))
        return rp_hex_digit((int)x) >= 0;
    if (IS("space"))
        return x == ' ' || (x >= '\t' && x <= '\r') || !ascii;
    if (IS("blank"))
        return x == ' ' || x == '\t' || !ascii;
    if (IS("punct"))
        return punct || !ascii;
    if (IS("print"))
        return print || !ascii;
    if (IS("graph"))
        return (print && x != ' ') || !ascii;
    if (IS("cntrl"))
        return x < 0x20 || x == 0x7F;
    if (IS("ascii"))
        return ascii;
    return true; /* an unknown class: as anything */
#undef IS
}

/* Whether the bracket c of token t holds character x (case-sensitively, as bash does). */
static bool class_has(const char *t, size_t n, const glob_class *c, bool sep_bs, uint32_t x)
{
    bool in = false;
    for (size_t q = c->body; q < c->close && !in;) {
        cls_item it;
        if (!class_item(t, n, &q, sep_bs, &it))
            break; /* cannot happen: parse_class accepted these items */
        switch (it.kind) {
        case ITEM_CHAR:
            in = x == it.lo;
            break;
        case ITEM_RANGE:
            in = x >= it.lo && x <= it.hi;
            break;
        case ITEM_NAMED:
            in = named_has(it.name, it.name_len, x);
            break;
        default:
            in = true;
        }
    }
    return in != c->neg;
}

/* ---- the intersection of a pattern and a shell glob ---- */

#define PC_STAR 0xFFFFFFFFu
#define PC_QM   0xFFFFFFFEu

/* Component states (bits of a position's state mask). */
enum {
    S_MID = 1,   /* inside a component: anything may come */
    S_START = 2, /* at the start of a component: a wildcard may not produce '.' */
    S_STARTW = 4 /* at the start, after a wildcard produced nothing: no '.' at all */
};

typedef enum { AT_LIT, AT_ANY1, AT_STAR, AT_CLASS } atom_kind;

typedef struct atom {
    atom_kind kind;
    uint32_t c;     /* AT_LIT */
    glob_class cls; /* AT_CLASS */
} atom;

typedef struct sim {
    const uint32_t *pc; /* pattern characters (PC_STAR, PC_QM or a character) */
    size_t m;
    uint8_t *cur, *nxt, *first;
    const rp_glob_opts *o;
    const char *t; /* the token */
    size_t tn;
    bool sep_bs;
} sim;

static void closure(const sim *s, uint8_t *set)
{
    for (size_t i = 0; i < s->m; i++)
        if (s->pc[i] == PC_STAR)
            set[i + 1] |= set[i];
}

/* Whether the pattern character L (a character, not a wildcard) can be produced by the one-
 * character atom at in component state b. Case folding lets any case variant of L do. */
static bool atom_gives(const sim *s, const atom *at, uint8_t b, uint32_t L)
{
    if (at->kind == AT_LIT)
        return canon(at->c, s->o) == canon(L, s->o);
    if (tok_sep(L, s->sep_bs) || (b != S_MID && L == '.'))
        return false;
    if (at->kind == AT_ANY1)
        return true;
    uint32_t v[3] = {L, L, L};
    if (s->o->fold_case) {
        v[1] = lower(L);
        v[2] = upper(L);
    }
    for (int k = 0; k < 3; k++)
        if (class_has(s->t, s->tn, &at->cls, s->sep_bs, v[k]))
            return true;
    return false;
}

/* Whether a one-character atom can produce anything at all in state b. */
static bool atom_nonempty(const sim *s, const atom *at, uint8_t b)
{
    if (at->kind == AT_LIT)
        return !(b == S_STARTW && at->c == '.');
    if (at->kind == AT_ANY1 || at->cls.neg)
        return true; /* the alphabet is far larger than anything a bracket excludes */
    for (size_t q = at->cls.body; q < at->cls.close;) {
        cls_item it;
        if (!class_item(s->t, s->tn, &q, s->sep_bs, &it))
            break;
        if (it.kind == ITEM_NAMED || it.kind == ITEM_ANY)
            return true;
        if (it.lo > it.hi)
            continue;
        uint64_t size = (uint64_t)it.hi - it.lo + 1, excluded = 0;
        const uint32_t ex[3] = {'/', '\\', '.'};
        for (int k = 0; k < 3; k++) {
            bool applies = k == 0 || (k == 1 && s->sep_bs) || (k == 2 && b != S_MID);
            if (applies && ex[k] >= it.lo && ex[k] <= it.hi)
                excluded++;
        }
        if (size > excluded)
            return true;
    }
    return false;
}

/* cur → nxt over an atom that produces exactly one character. */
static void step_one(sim *s, const atom *at)
{
    memset(s->nxt, 0, s->m + 1);
    uint8_t newbit = (at->kind == AT_LIT && tok_sep(at->c, s->sep_bs)) ? S_START : S_MID;
    bool nonempty[5] = {false};
    for (uint8_t b = 1; b <= 4; b <<= 1)
        nonempty[b] = atom_nonempty(s, at, b);
    for (size_t i = 0; i < s->m; i++) {
        for (uint8_t b = 1; b <= 4; b <<= 1) {
            if (!(s->cur[i] & b) || !nonempty[b])
                continue;
            uint32_t L = s->pc[i];
            if (L == PC_STAR)
                s->nxt[i] |= newbit;
            else if (L == PC_QM || atom_gives(s, at, b, L))
                s->nxt[i + 1] |= newbit;
        }
    }
    closure(s, s->nxt);
}

/* cur → nxt over a `*`: nothing, or one or more characters none of which is a separator and
 * the first of which is no '.' at a component start. */
static void step_star(sim *s)
{
    memset(s->nxt, 0, s->m + 1);
    memset(s->first, 0, s->m + 1);
    for (size_t i = 0; i <= s->m; i++) {
        uint8_t c = s->cur[i];
        if (!c)
            continue;
        s->nxt[i] |=
            (uint8_t)(((c & S_MID) ? S_MID : 0) | ((c & (S_START | S_STARTW)) ? S_STARTW : 0));
        if (i == s->m)
            continue;
        uint32_t L = s->pc[i];
        bool any_mid = (c & S_MID) != 0;
        if (L == PC_STAR)
            s->first[i] = 1;
        else if (L == PC_QM)
            s->first[i + 1] = 1;
        else if (!tok_sep(L, s->sep_bs) && !(L == '.' && !any_mid))
            s->first[i + 1] = 1;
    }
    /* Any number of further characters: every non-separator literal can be walked over. */
    for (size_t i = 0; i < s->m; i++)
        if (s->first[i] &&
            (s->pc[i] == PC_STAR || s->pc[i] == PC_QM || !tok_sep(s->pc[i], s->sep_bs)))
            s->first[i + 1] = 1;
    for (size_t i = 0; i <= s->m; i++)
        if (s->first[i])
            s->nxt[i] |= S_MID;
    closure(s, s->nxt);
}

/* The next atom of the token at *i. */
static atom next_atom(const sim *s, size_t *i)
{
    atom at = {.kind = AT_LIT};
    char c = s->t[*i];
    if (c == '*') {
        at.kind = AT_STAR;
        (*i)++;
    } else if (c == '?') {
        at.kind = AT_ANY1;
        (*i)++;
    } else if (c == '[' && parse_class(s->t, s->tn, *i, s->sep_bs, &at.cls)) {
        at.kind = AT_CLASS;
        *i = at.cls.close + 1;
    } else {
        if (c == '\\' && !s->sep_bs && *i + 1 < s->tn)
            (*i)++;
        size_t l;
        at.c = decode(s->t, s->tn, *i, &l);
        *i += l;
    }
    return at;
}

static bool any_state(const sim *s)
{
    for (size_t i = 0; i <= s->m; i++)
        if (s->cur[i])
            return true;
    return false;
}

bool rp_glob_could_match(const char *pattern, const char *token, bool any_prefix,
                         const rp_glob_opts *opts)
{
    sim s = {.o = opts ? opts : &no_opts, .t = token, .tn = strlen(token)};
    /* A token that is not UTF-8 is matched by bash byte by byte, and its bytes may join with
     * what a wildcard produces into characters this model never sees: say "could". Saying
     * yes is always safe for the caller (a possible rule only ever tightens the verdict). */
    if (!rp_utf8_valid(token, s.tn))
        return true;
    s.sep_bs = s.o->fold_sep;
    size_t pn = strlen(pattern);

    /* One block: pattern characters, then three state rows. Small patterns stay on the stack. */
    enum { STACK_CHARS = 256 };
    uint32_t stack_pc[STACK_CHARS];
    uint8_t stack_rows[3 * (STACK_CHARS + 1)];
    uint32_t *pc = stack_pc;
    uint8_t *rows = stack_rows;
    void *heap = NULL;
    if (pn > STACK_CHARS) {
        heap = malloc(pn * sizeof(uint32_t) + 3 * (pn + 1));
        if (heap == NULL)
            abort(); /* as the arena does: no half-made decision */
        pc = heap;
        rows = (uint8_t *)(pc + pn);
    }
    size_t m = 0;
    for (size_t i = 0; i < pn;) {
        size_t l;
        uint32_t c = decode(pattern, pn, i, &l);
        pc[m++] = c == '*' ? PC_STAR : c == '?' ? PC_QM : c;
        i += l;
    }
    s.pc = pc;
    s.m = m;
    s.cur = rows;
    s.nxt = rows + (m + 1);
    s.first = rows + 2 * (m + 1);
    memset(s.cur, 0, m + 1);

    if (any_prefix) {
        /* Some string, then '/': any string reaches every pattern position. */
        memset(s.cur, S_MID, m + 1);
        atom slash = {.kind = AT_LIT, .c = '/'};
        step_one(&s, &slash);
        uint8_t *t = s.cur;
        s.cur = s.nxt;
        s.nxt = t;
    } else {
        s.cur[0] = S_START;
        closure(&s, s.cur);
    }

    for (size_t i = 0; i < s.tn && any_state(&s);) {
        atom at = next_atom(&s, &i);
        if (at.kind == AT_STAR)
            step_star(&s);
        else
            step_one(&s, &at);
        uint8_t *t = s.cur;
        s.cur = s.nxt;
        s.nxt = t;
    }
    bool ok = s.cur[m] != 0 || (optional_tail(pattern, pn) && s.cur[m - 2] != 0);
    free(heap);
    return ok;
}

const char *rp_glob_literal(rp_arena *a, const char *str)
{
    sim s = {.o = &no_opts, .t = str, .tn = strlen(str)};
    char *out = rp_arena_alloc(a, s.tn + 1);
    size_t len = 0;
    for (size_t i = 0; i < s.tn;) {
        atom at = next_atom(&s, &i);
        if (at.kind == AT_STAR || at.kind == AT_ANY1)
            return NULL;
        if (at.kind == AT_CLASS) {
            if (at.cls.neg)
                return NULL;
            size_t q = at.cls.body;
            cls_item it;
            if (!class_item(str, s.tn, &q, false, &it) || q != at.cls.close)
                return NULL; /* more than one item */
            if (!(it.kind == ITEM_CHAR || (it.kind == ITEM_RANGE && it.lo == it.hi)))
                return NULL;
            at.c = it.lo;
        }
        len += encode(at.c, out + len);
    }
    out[len] = '\0';
    return out;
}
