/* regex.c — RE2-syntax regular expressions on PCRE2 (see regex.h for why the translation). */
#define PCRE2_CODE_UNIT_WIDTH 8

#include "core/regex.h"

#include <pcre2.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"

struct rp_regex {
    pcre2_code *code;
    pcre2_match_context *mctx; /* the limits; read-only while matching, so shareable */
    bool jit;                  /* compiled to machine code; else interpreted */
};

/* What the translator saw last, to validate repetition operators the way RE2 does. */
typedef enum prev_item {
    PREV_NONE,      /* start of pattern, after '(' or '|': nothing to repeat */
    PREV_ATOM,      /* something repeatable */
    PREV_QUANT,     /* a repetition operator */
    PREV_QUANT_LAZY /* a repetition operator made non-greedy with '?' */
} prev_item;

typedef struct translator {
    const char *p;
    size_t len;
    size_t i;
    rp_buf *out;
    char *err;
    size_t err_size;
    prev_item prev;
    bool count_groups; /* open every group with a callout (group_opened) */
} translator;

static int fail(translator *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(translator *t, const char *fmt, ...)
{
    if (t->err && t->err_size) {
        int n = snprintf(t->err, t->err_size, "invalid regex: ");
        if (n > 0 && (size_t)n < t->err_size) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(t->err + n, t->err_size - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

static void emit(translator *t, const char *s, size_t n)
{
    if (t->out)
        rp_buf_append(t->out, s, n);
}

static void emits(translator *t, const char *s)
{
    emit(t, s, strlen(s));
}

/* After a group's opening: for a JIT-compiled pattern, a callout that counts the group's entries
 * (see compile()). Every entry tries the first alternative first, so it passes the callout. */
static void group_opened(translator *t)
{
    if (t->count_groups)
        emits(t, "(?C)");
}

/* Copies the character at t->i (one UTF-8 sequence) and advances. */
static void copy_char(translator *t)
{
    size_t n = rp_utf8_lead_len((unsigned char)t->p[t->i]); /* strings are valid UTF-8 */
    if (t->i + n > t->len)
        n = t->len - t->i;
    emit(t, t->p + t->i, n);
    t->i += n;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_alnum(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* An escape sequence at t->i (the backslash). in_class: inside [...]. */
static int escape(translator *t, bool in_class)
{
    if (t->i + 1 >= t->len)
        return fail(t, "trailing backslash at end of expression");
    char c = t->p[t->i + 1];
    bool octal_next = t->i + 2 < t->len && t->p[t->i + 2] >= '0' && t->p[t->i + 2] <= '7';
    if (c == '0' || (c >= '1' && c <= '7' && octal_next)) {
        /* RE2 octal: \0, or a digit followed by more octal digits, up to three in all (a lone
         * \1..\9 is a backreference). PCRE2 could read \12 as a backreference: spell it \x{}. */
        unsigned v = 0;
        size_t k = t->i + 1;
        for (int n = 0; n < 3 && k < t->len && t->p[k] >= '0' && t->p[k] <= '7'; n++, k++)
            v = v * 8 + (unsigned)(t->p[k] - '0');
        char hex[16];
        snprintf(hex, sizeof hex, "\\x{%x}", v);
        emits(t, hex);
        t->i = k;
        return 0;
    }
    if (c >= '1' && c <= '9')
        return fail(t, "backreferences (\\%c) are not supported (RE2 syntax)", c);
    switch (c) {
    case 'g':
    case 'k':
        return fail(t, "backreferences (\\%c) are not supported (RE2 syntax)", c);
    case 'K':
        return fail(t, "\\K (reset match start) is not supported (RE2 syntax)");
    case 'G':
        return fail(t, "\\G (previous match end) is not supported (RE2 syntax)");
    case 'C':
        return fail(t, "\\C (any byte) is not supported");
    case 'v':
        /* RE2's \v is the vertical tab; PCRE2's is the class of vertical whitespace. */
        emits(t, "\\x0B");
        t->i += 2;
        return 0;
    case 's':
        /* RE2's \s is [\t\n\f\r ]; PCRE2's also has \v. */
        emits(t, in_class ? "\\t\\n\\f\\r " : "[\\t\\n\\f\\r ]");
        t->i += 2;
        return 0;
    case 'S':
        if (!in_class) {
            emits(t, "[^\\t\\n\\f\\r ]");
            t->i += 2;
            return 0;
        }
        break;
    case 'Q':
        if (in_class)
            return fail(t, "\\Q inside a character class is not supported");
        /* Literal text up to \E (or the end): PCRE2 spells it the same way. */
        {
            const char *end = NULL;
            for (size_t k = t->i + 2; k + 1 < t->len; k++)
                if (t->p[k] == '\\' && t->p[k + 1] == 'E') {
                    end = t->p + k;
                    break;
                }
            size_t stop = end ? (size_t)(end - t->p) + 2 : t->len;
            emit(t, t->p + t->i, stop - t->i);
            if (!end)
                emits(t, "\\E");
            t->i = stop;
            return 0;
        }
    default:
        break;
    }
    if (is_alnum(c) && !strchr("0afntrxAzbBdDwWpPsS", c))
        return fail(t, "escape sequence \\%c is not supported (RE2 syntax)", c);
    if (c == 'b' && in_class)
        return fail(t, "\\b inside a character class is not supported (RE2 syntax)");
    if (c == 'A' || c == 'z' || c == 'b' || c == 'B') {
        if (in_class)
            return fail(t, "escape sequence \\%c is not valid in a character class", c);
    }
    /* \p{Name}, \pN, \x{...}, \xHH, \0oo and escaped punctuation are the same in PCRE2. */
    emit(t, t->p + t->i, 1);
    t->i += 1;
    copy_char(t);
    if ((c == 'x' || c == 'p' || c == 'P') && t->i < t->len && t->p[t->i] == '{') {
        /* The braces belong to the escape, not to a repetition. */
        size_t k = t->i;
        while (k < t->len && t->p[k] != '}')
            k++;
        if (k >= t->len)
            return fail(t, "missing closing } in \\%c escape", c);
        /* PCRE2's own properties (Xan, Xps, Xsp, Xuc, Xwd) and L& are not RE2's. */
        if (c != 'x' && (t->p[t->i + 1] == 'X' || memchr(t->p + t->i, '&', k - t->i) != NULL))
            return fail(t, "Unicode property \\%c%.*s is not supported (RE2 syntax)", c,
                        (int)(k + 1 - t->i), t->p + t->i);
        emit(t, t->p + t->i, k + 1 - t->i);
        t->i = k + 1;
    }
    return 0;
}

/* A character class [...] at t->i. */
static int char_class(translator *t)
{
    size_t start = t->i;
    emit(t, "[", 1);
    t->i++;
    if (t->i < t->len && t->p[t->i] == '^') {
        emit(t, "^", 1);
        t->i++;
    }
    /* A ']' first is a literal in both dialects. */
    if (t->i < t->len && t->p[t->i] == ']') {
        emits(t, "\\]");
        t->i++;
    }
    while (t->i < t->len) {
        char c = t->p[t->i];
        if (c == ']') {
            emit(t, "]", 1);
            t->i++;
            return 0;
        }
        if (c == '\\') {
            if (escape(t, true) != 0)
                return -1;
            continue;
        }
        if (c == '[' && t->i + 1 < t->len && t->p[t->i + 1] == ':') {
            /* [:alpha:] — copy through the closing ":]". */
            const char *close = NULL;
            for (size_t k = t->i + 2; k + 1 < t->len; k++)
                if (t->p[k] == ':' && t->p[k + 1] == ']') {
                    close = t->p + k;
                    break;
                }
            if (!close)
                return fail(t, "missing closing ] in %.*s", (int)(t->len - start), t->p + start);
            /* [[:<:]] and [[:>:]] are PCRE2's word boundaries; RE2 has no such class. */
            if (t->p[t->i + 2] == '<' || t->p[t->i + 2] == '>')
                return fail(t, "[:%c:] is not supported (RE2 syntax)", t->p[t->i + 2]);
            size_t stop = (size_t)(close - t->p) + 2;
            emit(t, t->p + t->i, stop - t->i);
            t->i = stop;
            continue;
        }
        if (c == '[') {
            /* PCRE2 gives [. and [= a POSIX meaning; RE2 reads a literal '['. */
            emits(t, "\\[");
            t->i++;
            continue;
        }
        copy_char(t);
    }
    return fail(t, "missing closing ]: %.*s", (int)(t->len - start), t->p + start);
}

/* Parses a counted repetition {n}, {n,}, {n,m} at t->i; returns its length, or 0 when the
 * text is not one (then RE2 reads a literal '{'). */
static size_t counted_repeat(const translator *t, long *lo, long *hi)
{
    size_t k = t->i + 1;
    long n = -1, m = -1;
    size_t digits = 0;
    while (k < t->len && is_digit(t->p[k])) {
        n = (n < 0 ? 0 : n) * 10 + (t->p[k] - '0');
        if (n > 100000)
            n = 100000; /* saturate: over the limit either way */
        k++;
        digits++;
    }
    if (!digits || k >= t->len)
        return 0;
    if (t->p[k] == '}') {
        *lo = *hi = n;
        return k + 1 - t->i;
    }
    if (t->p[k] != ',')
        return 0;
    k++;
    digits = 0;
    while (k < t->len && is_digit(t->p[k])) {
        m = (m < 0 ? 0 : m) * 10 + (t->p[k] - '0');
        if (m > 100000)
            m = 100000;
        k++;
        digits++;
    }
    if (k >= t->len || t->p[k] != '}')
        return 0;
    *lo = n;
    *hi = digits ? m : -1;
    return k + 1 - t->i;
}

/* A repetition operator (already known to be one) of `n` bytes at t->i. */
static int quantifier(translator *t, size_t n)
{
    char c = t->p[t->i];
    if (t->prev == PREV_QUANT && c == '?' && n == 1) {
        t->prev = PREV_QUANT_LAZY;
    } else if ((t->prev == PREV_QUANT || t->prev == PREV_QUANT_LAZY) && c == '+' && n == 1) {
        return fail(t, "possessive quantifiers (%.*s+) are not supported (RE2 syntax)", (int)1,
                    t->p + t->i - 1);
    } else if (t->prev == PREV_QUANT || t->prev == PREV_QUANT_LAZY) {
        return fail(t, "invalid nested repetition operator: %.*s", (int)n, t->p + t->i);
    } else if (t->prev == PREV_NONE) {
        return fail(t, "missing argument to repetition operator: %.*s", (int)n, t->p + t->i);
    } else {
        t->prev = PREV_QUANT;
    }
    emit(t, t->p + t->i, n);
    t->i += n;
    return 0;
}

/* A group opening "(" at t->i, with its RE2 forms: (re), (?:re), (?P<name>re), (?<name>re),
 * (?flags), (?flags:re). */
static int group(translator *t)
{
    const char *p = t->p;
    size_t i = t->i;
    if (i + 1 < t->len && p[i + 1] == '*')
        return fail(t, "backtracking control verbs (* are not supported (RE2 syntax)");
    if (i + 1 >= t->len || p[i + 1] != '?') {
        emit(t, "(", 1);
        group_opened(t);
        t->i++;
        t->prev = PREV_NONE;
        return 0;
    }
    char c = i + 2 < t->len ? p[i + 2] : '\0';
    char d = i + 3 < t->len ? p[i + 3] : '\0';
    switch (c) {
    case '=':
        return fail(t, "lookahead (?= is not supported (RE2 syntax)");
    case '!':
        return fail(t, "negative lookahead (?! is not supported (RE2 syntax)");
    case '>':
        return fail(t, "atomic groups (?> are not supported (RE2 syntax)");
    case '|':
        return fail(t, "branch reset groups (?| are not supported (RE2 syntax)");
    case '#':
        return fail(t, "comments (?# are not supported (RE2 syntax)");
    case '(':
        return fail(t, "conditionals (?( are not supported (RE2 syntax)");
    case 'C':
        return fail(t, "callouts (?C are not supported (RE2 syntax)");
    case '&':
        return fail(t, "subroutine calls (?& are not supported (RE2 syntax)");
    case 'R':
    case '+':
        return fail(t, "recursion (?%c is not supported (RE2 syntax)", c);
    case '\'':
        return fail(t, "named groups (?'name' are not supported (RE2 syntax: (?P<name>re))");
    case '<':
        if (d == '=')
            return fail(t, "lookbehind (?<= is not supported (RE2 syntax)");
        if (d == '!')
            return fail(t, "negative lookbehind (?<! is not supported (RE2 syntax)");
        break;
    case 'P':
        if (d == '=')
            return fail(t, "backreferences (?P= are not supported (RE2 syntax)");
        if (d == '>')
            return fail(t, "subroutine calls (?P> are not supported (RE2 syntax)");
        if (d != '<')
            return fail(t, "invalid named capture: %.*s", (int)(t->len - i > 4 ? 4 : t->len - i),
                        p + i);
        break;
    default:
        if (is_digit(c) || (c == '-' && is_digit(d)))
            return fail(t, "recursion (?%c is not supported (RE2 syntax)", c);
        break;
    }
    if (c == '<' || c == 'P') {
        /* Named capture: the name is word characters up to '>'. */
        size_t k = i + (c == 'P' ? 4 : 3);
        size_t name_start = k;
        while (k < t->len && (is_alnum(p[k]) || p[k] == '_'))
            k++;
        if (k >= t->len || p[k] != '>' || k == name_start)
            return fail(t, "invalid named capture");
        emit(t, p + i, k + 1 - i);
        group_opened(t);
        t->i = k + 1;
        t->prev = PREV_NONE;
        return 0;
    }
    /* Flags: [imsU]* optionally followed by '-' [imsU]*, then ')' or ':'. */
    size_t k = i + 2;
    bool negated = false;
    while (k < t->len && p[k] != ')' && p[k] != ':') {
        char f = p[k];
        if (f == '-' && !negated) {
            negated = true;
        } else if (f != 'i' && f != 'm' && f != 's' && f != 'U') {
            return fail(t, "invalid or unsupported Perl syntax: (?%c", f);
        }
        k++;
    }
    if (k >= t->len)
        return fail(t, "missing closing ): %.*s", (int)(t->len - i), p + i);
    emit(t, p + i, k + 1 - i);
    if (p[k] == ':')
        group_opened(t);
    t->i = k + 1;
    /* "(?i)" changes flags and is not an atom; "(?i:" opens a group. */
    t->prev = PREV_NONE;
    return 0;
}

static int translate(const char *pattern, size_t len, bool count_groups, rp_buf *out, char *err,
                     size_t err_size)
{
    translator t = {.p = pattern,
                    .len = len,
                    .out = out,
                    .err = err,
                    .err_size = err_size,
                    .count_groups = count_groups};
    if (err && err_size)
        err[0] = '\0';
    if (out)
        rp_buf_append(out, "", 0); /* a NUL-terminated buffer even for an empty pattern */
    while (t.i < t.len) {
        char c = t.p[t.i];
        int rc = 0;
        switch (c) {
        case '\\':
            rc = escape(&t, false);
            t.prev = PREV_ATOM;
            break;
        case '[':
            rc = char_class(&t);
            t.prev = PREV_ATOM;
            break;
        case '(':
            rc = group(&t);
            break;
        case ')':
            emit(&t, ")", 1);
            t.i++;
            t.prev = PREV_ATOM;
            break;
        case '|':
            emit(&t, "|", 1);
            t.i++;
            t.prev = PREV_NONE;
            break;
        case '*':
        case '+':
        case '?':
            rc = quantifier(&t, 1);
            break;
        case '{': {
            long lo = 0, hi = 0;
            size_t n = counted_repeat(&t, &lo, &hi);
            if (!n) {
                emits(&t, "\\{");
                t.i++;
                t.prev = PREV_ATOM;
                break;
            }
            if (lo > RP_REGEX_MAX_REPEAT || hi > RP_REGEX_MAX_REPEAT || (hi >= 0 && hi < lo))
                return fail(&t, "invalid repeat count: %.*s", (int)n, t.p + t.i);
            rc = quantifier(&t, n);
            break;
        }
        case '}':
            /* A '}' that closes no repetition is a literal; after a quantifier it was consumed. */
            emits(&t, "\\}");
            t.i++;
            t.prev = PREV_ATOM;
            break;
        default:
            copy_char(&t);
            t.prev = PREV_ATOM;
            break;
        }
        if (rc != 0)
            return -1;
    }
    return 0;
}

int rp_regex_translate(const char *pattern, size_t len, rp_buf *out, char *err, size_t err_size)
{
    return translate(pattern, len, false, out, err, err_size);
}

/* Steps of the search running on this thread (a program may be evaluated by several threads at
 * once, and the match context is shared). */
static _Thread_local uint64_t search_steps;

static int step_callout(pcre2_callout_block *block, void *data)
{
    (void)block;
    (void)data;
    return ++search_steps > RP_REGEX_STEP_LIMIT ? PCRE2_ERROR_CALLOUT : 0;
}

/* rp_regex_use_jit: off only in tests of the interpreter fallback. */
static atomic_bool jit_disabled;

void rp_regex_use_jit(bool on)
{
    atomic_store(&jit_disabled, !on);
}

bool rp_regex_is_jit(const rp_regex *re)
{
    return re->jit;
}

/* What a thread keeps between JIT searches, so that a search allocates nothing: the match data
 * (JIT matching needs no frames in it) and the JIT stack. Freed when the thread exits. */
typedef struct jit_scratch {
    pcre2_match_data *md;
    pcre2_jit_stack *stack;
} jit_scratch;

static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static pthread_key_t scratch_key;
static _Thread_local jit_scratch *thread_scratch;

static void scratch_free(void *p)
{
    jit_scratch *s = p;
    /* Runs in the exiting thread: a later destructor that searches must make a fresh one. */
    if (thread_scratch == s)
        thread_scratch = NULL;
    pcre2_match_data_free(s->md);
    pcre2_jit_stack_free(s->stack);
    free(s);
}

static void scratch_key_create(void)
{
    if (pthread_key_create(&scratch_key, scratch_free) != 0)
        abort();
}

static jit_scratch *scratch(void)
{
    if (thread_scratch)
        return thread_scratch;
    pthread_once(&scratch_once, scratch_key_create);
    jit_scratch *s = calloc(1, sizeof *s);
    if (!s)
        abort();
    s->md = pcre2_match_data_create(1, NULL);
    s->stack = pcre2_jit_stack_create(RP_REGEX_JIT_STACK_START, RP_REGEX_JIT_STACK_MAX, NULL);
    if (!s->md || !s->stack || pthread_setspecific(scratch_key, s) != 0)
        abort(); /* allocation failure: as the arena does */
    thread_scratch = s;
    return s;
}

/* PCRE2 asks for the JIT stack at each JIT search: this thread's. */
static pcre2_jit_stack *thread_jit_stack(void *data)
{
    (void)data;
    return scratch()->stack;
}

/* Translates the pattern for the JIT or for the interpreter and compiles it with PCRE2; NULL
 * with a message in err. */
static pcre2_code *compile_pcre2(const char *pattern, size_t len, bool for_jit, char *err,
                                 size_t err_size)
{
    rp_buf pcre = {0};
    if (translate(pattern, len, for_jit, &pcre, err, err_size) != 0) {
        rp_buf_free(&pcre);
        return NULL;
    }
    pcre2_compile_context *cctx = pcre2_compile_context_create(NULL);
    if (!cctx)
        abort(); /* allocation failure: as the arena does */
    pcre2_set_newline(cctx, PCRE2_NEWLINE_LF);
    /* No PCRE2_UCP: RE2's \d \w \s \b are ASCII-only. PCRE2_UTF alone still folds case over
     * all of Unicode for (?i). */
    uint32_t options = PCRE2_UTF | PCRE2_DOLLAR_ENDONLY | PCRE2_NEVER_BACKSLASH_C | PCRE2_NEVER_UCP;
    /* PCRE2_AUTO_CALLOUT (interpreter): its match limit does not count the steps inside a
     * repeat of a single character type, so `\s+$` over 100,000 spaces ran for 40 s (a scan
     * and a backtrack per start position) without reaching it. A callout before every pattern
     * item counts those steps too. The JIT skips that work, and counts its own backtracking
     * steps against the match limit, but not the entries of a repeated group: `(\s)+$` over
     * 1 MB of spaces broken by an x every 20 KB ran 22 s. Its translation opens every group
     * with a callout (group_opened), a few nanoseconds per entry. Both count into
     * step_callout, and a search past RP_REGEX_STEP_LIMIT is an error. */
    if (!for_jit)
        options |= PCRE2_AUTO_CALLOUT;
    int code_err = 0;
    PCRE2_SIZE offset = 0;
    pcre2_code *code =
        pcre2_compile((PCRE2_SPTR)pcre.data, pcre.len, options, &code_err, &offset, cctx);
    pcre2_compile_context_free(cctx);
    rp_buf_free(&pcre);
    if (!code) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(code_err, msg, sizeof msg);
        if (err && err_size)
            snprintf(err, err_size, "invalid regex: %s", (const char *)msg);
    }
    return code;
}

/* With want_jit, the pattern is compiled to machine code when PCRE2 can (it cannot when built
 * without JIT support or when the system forbids executable memory); otherwise, or when the
 * JIT fails, it is interpreted. */
static rp_regex *compile(const char *pattern, size_t len, bool want_jit, char *err, size_t err_size)
{
    pcre2_code *code = NULL;
    bool jit = false;
    if (want_jit && !atomic_load(&jit_disabled)) {
        code = compile_pcre2(pattern, len, true, err, err_size);
        if (!code)
            return NULL;
        jit = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
        if (!jit) {
            pcre2_code_free(code);
            code = NULL;
        }
    }
    if (!code)
        code = compile_pcre2(pattern, len, false, err, err_size);
    if (!code)
        return NULL;
    rp_regex *re = calloc(1, sizeof *re);
    pcre2_match_context *mctx = pcre2_match_context_create(NULL);
    if (!re || !mctx)
        abort();
    pcre2_set_match_limit(mctx, RP_REGEX_MATCH_LIMIT);
    pcre2_set_depth_limit(mctx, RP_REGEX_DEPTH_LIMIT);
    pcre2_set_heap_limit(mctx, RP_REGEX_HEAP_LIMIT_KIB);
    pcre2_set_callout(mctx, step_callout, NULL);
    if (jit)
        pcre2_jit_stack_assign(mctx, thread_jit_stack, NULL);
    re->code = code;
    re->mctx = mctx;
    re->jit = jit;
    return re;
}

rp_regex *rp_regex_compile(const char *pattern, size_t len, char *err, size_t err_size)
{
    return compile(pattern, len, true, err, err_size);
}

rp_regex *rp_regex_compile_once(const char *pattern, size_t len, char *err, size_t err_size)
{
    return compile(pattern, len, false, err, err_size);
}

/* PCRE2's allocator hooks, drawing the match data from the caller's arena. */
static void *arena_malloc(PCRE2_SIZE size, void *arena)
{
    return rp_arena_alloc(arena, size ? size : 1);
}

static void arena_free(void *ptr, void *arena)
{
    (void)ptr;
    (void)arena; /* released with the arena */
}

/* An interpreted search: its backtracking frames (up to the heap limit) come from the arena,
 * so they are released with it rather than kept by the thread. */
static int search_interpreted(const rp_regex *re, const char *subject, size_t len, rp_arena *arena)
{
    pcre2_general_context *gctx = pcre2_general_context_create(arena_malloc, arena_free, arena);
    pcre2_match_data *md = gctx ? pcre2_match_data_create(1, gctx) : NULL;
    if (!md)
        abort();
    int rc = pcre2_match(re->code, (PCRE2_SPTR)subject, len, 0, 0, md, re->mctx);
    /* Frees nothing (arena memory) but keeps PCRE2's bookkeeping balanced. */
    pcre2_match_data_free(md);
    pcre2_general_context_free(gctx);
    return rc;
}

int rp_regex_search(const rp_regex *re, const char *subject, size_t len, rp_arena *arena, char *err,
                    size_t err_size)
{
    search_steps = 0;
    /* pcre2_match rather than pcre2_jit_match: it checks that the subject is valid UTF-8
     * before running the machine code, which assumes it. */
    int rc = re->jit
                 ? pcre2_match(re->code, (PCRE2_SPTR)subject, len, 0, 0, scratch()->md, re->mctx)
                 : search_interpreted(re, subject, len, arena);
    if (rc >= 0)
        return 1;
    if (rc == PCRE2_ERROR_NOMATCH)
        return 0;
    if (err && err_size) {
        if (rc == PCRE2_ERROR_MATCHLIMIT)
            snprintf(err, err_size, "regex match limit exceeded");
        else if (rc == PCRE2_ERROR_DEPTHLIMIT)
            snprintf(err, err_size, "regex depth limit exceeded");
        else if (rc == PCRE2_ERROR_CALLOUT)
            snprintf(err, err_size, "regex step limit exceeded");
        else if (rc == PCRE2_ERROR_HEAPLIMIT)
            snprintf(err, err_size, "regex heap limit exceeded");
        else if (rc == PCRE2_ERROR_JIT_STACKLIMIT)
            snprintf(err, err_size, "regex stack limit exceeded");
        else {
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(rc, msg, sizeof msg);
            snprintf(err, err_size, "regex match failed: %s", (const char *)msg);
        }
    }
    return -1;
}

void rp_regex_free(rp_regex *re)
{
    if (!re)
        return;
    pcre2_code_free(re->code);
    pcre2_match_context_free(re->mctx);
    free(re);
}
