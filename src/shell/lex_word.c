/* lex_word.c — one shell word: quote removal, escapes, ANSI-C strings and the expansions inside
 * (which are kept as written and flag the word dynamic; the commands inside $(…), `…`, <(…)
 * and >(…) are parsed on the spot, so they are listed before the command that uses them is
 * finished).
 *
 * The text of the word is built on the scratch stack of the state. A substitution's body is
 * parsed while the outer word is half built; its own words push above and pop, and the outer
 * word then appends the substitution as written. */
#include <string.h>

#include "shell/shell_internal.h"

/* Byte classes: META ends a word; SPECIAL needs a look in rp_sh_lex_word (quotes, expansions,
 * patterns, brace and tilde expansion, assignment syntax); anything else is copied as is. */
enum { META = 1, SPECIAL = 2 };
static const unsigned char byte_class[256] = {
    [' '] = META,     ['\t'] = META,    ['\n'] = META,   [';'] = META,    ['&'] = META,
    ['|'] = META,     ['('] = META,     [')'] = META,    ['<'] = META,    ['>'] = META,
    ['\\'] = SPECIAL, ['\''] = SPECIAL, ['"'] = SPECIAL, ['$'] = SPECIAL, ['`'] = SPECIAL,
    ['*'] = SPECIAL,  ['?'] = SPECIAL,  ['['] = SPECIAL, ['{'] = SPECIAL, [','] = SPECIAL,
    ['.'] = SPECIAL,  ['}'] = SPECIAL,  ['~'] = SPECIAL, ['='] = SPECIAL, ['+'] = SPECIAL,
};

bool rp_sh_is_meta(char c)
{
    return byte_class[(unsigned char)c] == META;
}

bool rp_sh_is_blank(char c)
{
    return c == ' ' || c == '\t';
}

bool rp_sh_is_name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool rp_sh_is_name_char(char c)
{
    return rp_sh_is_name_start(c) || (c >= '0' && c <= '9');
}

static void lex_dollar(rp_sh_src *s, const rp_sh_frame *f, unsigned *flags, bool in_dq);
static void lex_double_quote(rp_sh_src *s, const rp_sh_frame *f, unsigned *flags);
static void lex_backtick(rp_sh_src *s, const rp_sh_frame *f, unsigned *flags, bool in_dq);

static char peek_at(const rp_sh_src *s, size_t pos)
{
    return pos < s->end ? s->text[pos] : '\0';
}

/* Appends the source slice [from, s->pos) as written, replacing whatever the parts inside it
 * left on the scratch stack since mark. */
static void keep_as_written(rp_sh_src *s, size_t mark, size_t from)
{
    s->st->n_scratch = mark;
    rp_sh_scratch_put(s->st, s->text + from, s->pos - from);
}

/* s->pos at the opening quote. */
static void lex_single_quote(rp_sh_src *s)
{
    size_t open = s->pos;
    const char *close = memchr(s->text + open + 1, '\'', s->end - open - 1);
    if (close == NULL) {
        rp_sh_fail(s, open, "unterminated single quote");
        return;
    }
    size_t close_pos = (size_t)(close - s->text);
    rp_sh_scratch_put(s->st, s->text + open + 1, close_pos - open - 1);
    s->pos = close_pos + 1;
}

/* s->pos at the `"`. */
static void lex_double_quote(rp_sh_src *s, const rp_sh_frame *f, unsigned *flags)
{
    size_t open = s->pos++;
    rp_sh_state *st = s->st;
    while (!st->failed) {
        if (s->pos >= s->end) {
            rp_sh_fail(s, open, "unterminated double quote");
            return;
        }
        char c = s->text[s->pos];
        if (c == '"') {
            s->pos++;
            return;
        }
        if (c == '\\') {
            char next = peek_at(s, s->pos + 1);
            if (next == '\n') {
                s->pos += 2;
            } else if (next == '$' || next == '`' || next == '"' || next == '\\') {
                rp_sh_scratch_putc(st, next);
                s->pos += 2;
            } else {
                rp_sh_scratch_putc(st, '\\');
                s->pos++;
            }
        } else if (c == '$') {
            lex_dollar(s, f, flags, true);
        } else if (c == '`') {
            lex_backtick(s, f, flags, true);
        } else {
            rp_sh_scratch_putc(st, c);
            s->pos++;
        }
    }
}

/* s->pos at the opening backtick. Inside, a backslash before $ ` \ (and " within double quotes)
 * is removed before the body is parsed as a command list. */
static void lex_backtick(rp_sh_src *s, const rp_sh_frame *f, unsigned *flags, bool in_dq)
{
    rp_sh_state *st = s->st;
    size_t open = s->pos;
    size_t i = open + 1;
    bool escapes = false;
    while (i < s->end && s->text[i] != '`') {
        if (s->text[i] == '\\' && i + 1 < s->end) {
            char n = s->text[i + 1];
            if (n == '$' || n == '`' || n == '\\' || (in_dq && n == '"'))
                escapes = true;
            i += 2;
        } else {
            i++;
        }
    }
    if (i >= s->end) {
        rp_sh_fail(s, open, "unterminated backtick substitution");
        return;
    }
    size_t close = i;
    size_t mark = st->n_scratch;
    rp_sh_frame inner = *f;
    inner.ctx |= RP_SH_CTX_CMDSUB;
    inner.env = rp_sh_new_env(st, RP_SH_ENV_SUBST, f->env);
    if (!escapes) {
        rp_sh_src sub;
        rp_sh_src_init(&sub, st, s->text, close, s->base, s->exact);
        sub.pos = open + 1;
        rp_sh_parse_program(&sub, &inner);
    } else {
        for (size_t k = open + 1; k < close; k++) {
            char c = s->text[k];
            if (c == '\\' && k + 1 < close) {
                char n = s->text[k + 1];
                if (n == '$' || n == '`' || n == '\\' || (in_dq && n == '"')) {
                    rp_sh_scratch_putc(st, n);
                    k++;
                    continue;
                }
            }
            rp_sh_scratch_putc(st, c);
        }
        size_t body_len;
        char *body = rp_sh_scratch_finish(st, mark, &body_len);
        rp_sh_parse_string(st, body, body_len, rp_sh_offset(s, open), false, &inner);
    }
    if (st->failed) {
        /* bash parses a backtick body only when it runs it; say so, since `bash -n` accepts */
        st->error = RP_SH_ERROR_IN_BACKTICKS;
        s->pos = s->end;
        return;
    }
    s->pos = close + 1;
    *flags |= RP_SH_WORD_CMDSUB;
    keep_as_written(s, mark, open);
}

int rp_sh_arithmetic_kind(const rp_sh_src *s, size_t from)
{
    int depth = 0;
    for (size_t i = from; i < s->end; i++) {
        char c = s->text[i];
        if (c == '\\') {
            i++;
        } else if (c == '\'') {
            const char *q = memchr(s->text + i + 1, '\'', s->end - i - 1);
            if (q == NULL)
                return -1;
            i = (size_t)(q - s->text);
        } else if (c == '"') {
            for (i++; i < s->end && s->text[i] != '"'; i++)
                if (s->text[i] == '\\')
                    i++;
        } else if (c == '(') {
            depth++;
        } else if (c == ')') {
            if (depth == 0)
                return i + 1 < s->end && s->text[i + 1] == ')' ? 1 : 0;
            depth--;
        }
    }
    return -1;
}

bool rp_sh_is_arithmetic(const rp_sh_src *s, size_t from)
{
    return rp_sh_arithmetic_kind(s, from) == 1;
}

/* s->pos at the first byte of an arithmetic body; walks to just after `close` (")" or "]")
 * at depth 0, parsing the substitutions inside. */
static void lex_arith_body(rp_sh_src *s, const rp_sh_frame *f, unsigned *flags, size_t open,
                           const char *close, const char *what)
{
    rp_sh_state *st = s->st;
    size_t close_len = strlen(close);
    int depth = 0;
    char open_c = close[0] == ')' ? '(' : '[';
    while (!st->failed) {
        if (s->pos >= s->end) {
            rp_sh_fail(s, open, what);
            return;
        }
        char c = s->text[s->pos];
        if (c == '\\') {
            s->pos += 2;
        } else if (c == '\'') {
            lex_single_quote(s);
        } else if (c == '"') {
            lex_double_quote(s, f, flags);
        } else if (c == '$') {
            lex_dollar(s, f, flags, true);
        } else if (c == '`') {
            lex_backtick(s, f, flags, true);
        } else if (c == open_c) {
            depth++;
            s->pos++;
        } else if (c == close[0]) {
            if (depth == 0) {
                if (s->end - s->pos >= close_len &&
                    memcmp(s->text + s->pos, close, close_len) == 0) {
                    s->pos += close_len;
                    return;
                }
                rp_sh_fail(s, open, what);
                return;
            }
            depth--;
            s->pos++;
        } else {
            s->pos++;
        }
    }
}

/* s->pos at `$` of `${`. */
static void lex_brace_param(rp_sh_src *s, const rp_sh_frame *f, unsigned *flags, bool in_dq)
{
    rp_sh_state *st = s->st;
    size_t open = s->pos;
    s->pos += 2;
    int depth = 1;
    while (!st->failed) {
        if (s->pos >= s->end) {
            rp_sh_fail(s, open, "unterminated ${");
            return;
        }
        char c = s->text[s->pos];
        if (c == '\\') {
            s->pos += 2;
        } else if (c == '\'' && !in_dq) {
            lex_single_quote(s);
        } else if (c == '"') {
            lex_double_quote(s, f, flags);
        } else if (c == '$') {
            lex_dollar(s, f, flags, in_dq);
        } else if (c == '`') {
            lex_backtick(s, f, flags, in_dq);
        } else if (c == '{') {
            depth++;
            s->pos++;
        } else if (c == '}') {
            s->pos++;
            if (--depth == 0)
                return;
        } else {
            s->pos++;
        }
    }
}

/* Every substitution that recurses through lex_dollar ($(…), ${…}, $[…], $((…))) counts against
 * RP_SH_MAX_NESTING: 60k nested `${` would otherwise overflow the C stack. */
static bool enter_nesting(rp_sh_src *s, size_t start)
{
    if (++s->st->nesting > RP_SH_MAX_NESTING) {
        rp_sh_fail(s, start, "nesting too deep");
        return false;
    }
    return true;
}

/* s->pos at `$`. Everything but a literal `$` is kept as written and flags the word. */
static void lex_dollar(rp_sh_src *s, const rp_sh_frame *f, unsigned *flags, bool in_dq)
{
    rp_sh_state *st = s->st;
    size_t start = s->pos;
    size_t mark = st->n_scratch;
    char next = peek_at(s, start + 1);
    if (next == '(') {
        if (peek_at(s, start + 2) == '(' && rp_sh_is_arithmetic(s, start + 3)) {
            if (!enter_nesting(s, start))
                return;
            s->pos = start + 3;
            lex_arith_body(s, f, flags, start, "))", "unterminated $((");
            st->nesting--;
            *flags |= RP_SH_WORD_ARITH;
        } else {
            if (!enter_nesting(s, start))
                return;
            rp_sh_frame inner = *f;
            inner.ctx |= RP_SH_CTX_CMDSUB;
            inner.env = rp_sh_new_env(st, RP_SH_ENV_SUBST, f->env);
            s->pos = start + 2;
            rp_sh_parse_subst_body(s, &inner);
            st->nesting--;
            *flags |= RP_SH_WORD_CMDSUB;
        }
    } else if (next == '[') {
        if (!enter_nesting(s, start))
            return;
        s->pos = start + 2;
        lex_arith_body(s, f, flags, start, "]", "unterminated $[");
        st->nesting--;
        *flags |= RP_SH_WORD_ARITH;
    } else if (next == '{') {
        if (!enter_nesting(s, start))
            return;
        lex_brace_param(s, f, flags, in_dq);
        st->nesting--;
        *flags |= RP_SH_WORD_VAR;
    } else if (rp_sh_is_name_start(next)) {
        s->pos = start + 1;
        while (s->pos < s->end && rp_sh_is_name_char(s->text[s->pos]))
            s->pos++;
        *flags |= RP_SH_WORD_VAR;
    } else if (next != '\0' && ((next >= '0' && next <= '9') || strchr("@*#?-$!", next))) {
        s->pos = start + 2;
        *flags |= RP_SH_WORD_VAR;
    } else {
        rp_sh_scratch_putc(st, '$');
        s->pos = start + 1;
        return;
    }
    if (st->failed)
        return;
    keep_as_written(s, mark, start);
}

/* s->pos at `<` or `>` of `<(` / `>(`. */
static void lex_procsub(rp_sh_src *s, const rp_sh_frame *f, unsigned *flags)
{
    rp_sh_state *st = s->st;
    size_t start = s->pos;
    size_t mark = st->n_scratch;
    if (++st->nesting > RP_SH_MAX_NESTING) {
        rp_sh_fail(s, start, "nesting too deep");
        return;
    }
    rp_sh_frame inner = *f;
    inner.ctx |= RP_SH_CTX_PROCSUB;
    inner.env = rp_sh_new_env(st, RP_SH_ENV_SUBST, f->env);
    s->pos = start + 2;
    rp_sh_parse_subst_body(s, &inner);
    st->nesting--;
    if (st->failed)
        return;
    *flags |= RP_SH_WORD_PROCSUB;
    keep_as_written(s, mark, start);
}

/* s->pos at the `(` of NAME=( … ): the elements are words, newlines and comments allowed. */
static void lex_array_value(rp_sh_src *s, const rp_sh_frame *f, unsigned *flags)
{
    rp_sh_state *st = s->st;
    size_t start = s->pos;
    size_t mark = st->n_scratch;
    s->pos++;
    while (!st->failed) {
        rp_sh_skip_blanks(s);
        if (s->pos >= s->end) {
            rp_sh_fail(s, start, "unterminated array assignment");
            return;
        }
        char c = s->text[s->pos];
        if (c == ')') {
            s->pos++;
            break;
        }
        if (c == '\n') {
            s->pos++;
            continue;
        }
        if (c == '#') {
            while (s->pos < s->end && s->text[s->pos] != '\n')
                s->pos++;
            continue;
        }
        rp_sh_word element;
        if (!rp_sh_lex_word(s, f, 0, &element, NULL)) {
            if (!st->failed)
                rp_sh_fail(s, s->pos, "syntax error in array assignment");
            return;
        }
        *flags |= element.flags & RP_SH_WORD_DYNAMIC;
    }
    if (!st->failed)
        keep_as_written(s, mark, start);
}

/* Whether the `[` at pos opens a bracket expression: an unquoted `]` follows in the word. */
static bool bracket_closes(const rp_sh_src *s, size_t pos)
{
    for (size_t i = pos + 1; i < s->end; i++) {
        char c = s->text[i];
        if (rp_sh_is_meta(c) || c == '\'' || c == '"' || c == '\\')
            return false;
        if (c == ']')
            return i > pos + 1;
    }
    return false;
}

/* Assignment subscripts NAME[…]=: the `]` closing the `[` at pos, when `=` or `+=` follows. */
static size_t subscript_end(const rp_sh_src *s, size_t pos)
{
    for (size_t i = pos + 1; i < s->end; i++) {
        char c = s->text[i];
        if (rp_sh_is_meta(c))
            return 0;
        if (c == ']') {
            char n = peek_at(s, i + 1);
            if (n == '=' || (n == '+' && peek_at(s, i + 2) == '='))
                return i + 1;
            return 0;
        }
    }
    return 0;
}

bool rp_sh_lex_word(rp_sh_src *s, const rp_sh_frame *f, unsigned mode, rp_sh_word *w,
                    bool *is_assign)
{
    rp_sh_state *st = s->st;
    size_t start = s->pos;
    size_t mark = st->n_scratch;
    unsigned flags = 0;
    enum { NAME, ASSIGN, PLAIN } state = (mode & RP_SH_LEX_ASSIGN_POS) ? NAME : PLAIN;
    size_t value_start = 0;
    int brace_open = 0;
    bool brace_sep = false;
    int regex_parens = 0;

    while (s->pos < s->end && !st->failed) {
        char c = s->text[s->pos];
        char next = peek_at(s, s->pos + 1);
        if ((c == '<' || c == '>') && next == '(') {
            lex_procsub(s, f, &flags);
            state = state == NAME ? PLAIN : state;
            continue;
        }
        if (mode & RP_SH_LEX_REGEX) {
            /* bash reads a [[ =~ ]] regex with ( ) | as ordinary characters, balanced. */
            if (c == '(' || c == '|' ||
                (regex_parens > 0 && (c == ' ' || c == '\t' || c == '<' || c == '>'))) {
                regex_parens += c == '(';
                rp_sh_scratch_putc(st, c);
                s->pos++;
                continue;
            }
            if (c == ')' && regex_parens > 0) {
                regex_parens--;
                rp_sh_scratch_putc(st, c);
                s->pos++;
                continue;
            }
        }
        if (rp_sh_is_meta(c))
            break;
        if (state == NAME) {
            if (rp_sh_is_name_char(c) && (s->pos > start || rp_sh_is_name_start(c))) {
                rp_sh_scratch_putc(st, c);
                s->pos++;
                continue;
            }
            if (s->pos > start && (c == '=' || (c == '+' && next == '='))) {
                size_t op_len = c == '=' ? 1 : 2;
                rp_sh_scratch_put(st, s->text + s->pos, op_len);
                s->pos += op_len;
                state = ASSIGN;
                value_start = s->pos;
                if (peek_at(s, s->pos) == '(')
                    lex_array_value(s, f, &flags);
                continue;
            }
            size_t sub_end = c == '[' && s->pos > start ? subscript_end(s, s->pos) : 0;
            if (sub_end) {
                rp_sh_scratch_put(st, s->text + s->pos, sub_end - s->pos);
                s->pos = sub_end;
                continue;
            }
            state = PLAIN;
        }
        switch (c) {
        case '\\':
            if (next == '\n') {
                s->pos += 2;
            } else if (s->pos + 1 < s->end) {
                rp_sh_scratch_putc(st, next);
                s->pos += 2;
                flags |= RP_SH_WORD_QUOTED;
            } else {
                rp_sh_scratch_putc(st, '\\');
                s->pos++;
            }
            break;
        case '\'':
            lex_single_quote(s);
            flags |= RP_SH_WORD_QUOTED;
            break;
        case '"':
            lex_double_quote(s, f, &flags);
            flags |= RP_SH_WORD_QUOTED;
            break;
        case '$':
            if (next == '\'') {
                size_t used = rp_sh_ansi_c_decode(st, s->text + s->pos + 2, s->end - s->pos - 2);
                if (used == 0) {
                    rp_sh_fail(s, s->pos, "unterminated $'");
                    break;
                }
                s->pos += 2 + used;
                flags |= RP_SH_WORD_QUOTED;
            } else if (next == '"') {
                s->pos++;
                lex_double_quote(s, f, &flags);
                flags |= RP_SH_WORD_QUOTED;
            } else {
                lex_dollar(s, f, &flags, false);
            }
            break;
        case '`':
            lex_backtick(s, f, &flags, false);
            break;
        case '*':
        case '?':
            flags |= RP_SH_WORD_GLOB;
            rp_sh_scratch_putc(st, c);
            s->pos++;
            break;
        case '[':
            if (bracket_closes(s, s->pos))
                flags |= RP_SH_WORD_GLOB;
            rp_sh_scratch_putc(st, c);
            s->pos++;
            break;
        case '{':
            brace_open++;
            rp_sh_scratch_putc(st, c);
            s->pos++;
            break;
        case ',':
            brace_sep |= brace_open > 0;
            rp_sh_scratch_putc(st, c);
            s->pos++;
            break;
        case '.':
            brace_sep |= brace_open > 0 && next == '.';
            rp_sh_scratch_putc(st, c);
            s->pos++;
            break;
        case '}':
            if (brace_open > 0) {
                if (brace_sep)
                    flags |= RP_SH_WORD_BRACE;
                brace_open--;
            }
            rp_sh_scratch_putc(st, c);
            s->pos++;
            break;
        case '~':
            if (s->pos == start ||
                (state == ASSIGN && (s->pos == value_start || s->text[s->pos - 1] == ':')))
                flags |= RP_SH_WORD_TILDE;
            rp_sh_scratch_putc(st, c);
            s->pos++;
            break;
        default: {
            /* a run of ordinary bytes in one copy */
            size_t run = s->pos + 1;
            while (run < s->end && byte_class[(unsigned char)s->text[run]] == 0)
                run++;
            rp_sh_scratch_put(st, s->text + s->pos, run - s->pos);
            s->pos = run;
            break;
        }
        }
    }
    if (st->failed) {
        st->n_scratch = mark;
        return false;
    }
    if (s->pos == start) {
        st->n_scratch = mark;
        return false;
    }
    w->text = rp_sh_scratch_finish(st, mark, &w->len);
    w->raw = s->text + start;
    w->raw_len = s->pos - start;
    w->offset = rp_sh_offset(s, start);
    w->flags = flags;
    if (is_assign)
        *is_assign = state == ASSIGN;
    return true;
}

void rp_sh_scan_heredoc_body(rp_sh_src *s, const rp_sh_frame *f)
{
    rp_sh_state *st = s->st;
    size_t mark = st->n_scratch;
    unsigned flags = 0;
    while (s->pos < s->end && !st->failed) {
        char c = s->text[s->pos];
        if (c == '\\') {
            s->pos += 2;
        } else if (c == '$') {
            lex_dollar(s, f, &flags, true);
        } else if (c == '`') {
            lex_backtick(s, f, &flags, false);
        } else {
            s->pos++;
        }
    }
    st->n_scratch = mark;
}

void rp_sh_lex_arith_command(rp_sh_src *s, const rp_sh_frame *f, size_t open)
{
    rp_sh_state *st = s->st;
    size_t mark = st->n_scratch;
    unsigned flags = 0;
    lex_arith_body(s, f, &flags, open, "))", "unterminated ((");
    st->n_scratch = mark;
}
