/* parse.c — the bash grammar: lists, and-or lists, pipelines, compound commands, simple
 * commands, redirections and here-documents.
 *
 * A recursive-descent reader over the source, as bash's own parser reads: reserved words are
 * recognised only where a command starts, a here-doc body is read at the first newline after
 * its operator, and $( … ) is parsed as a command list that ends at its matching `)` (so a `)`
 * in quotes or in a case pattern does not end it).
 *
 * Each simple command reserves its slot in the command list before its words are read, so it
 * precedes the commands of substitutions in its words; context bits that depend on what
 * follows (pipeline stage, background, right of && / ||) are added to a range of commands once
 * the construct is complete. */
#include <string.h>

#include "shell/shell_internal.h"

typedef enum reserved {
    RW_NONE = 0,
    RW_IF,
    RW_THEN,
    RW_ELIF,
    RW_ELSE,
    RW_FI,
    RW_WHILE,
    RW_UNTIL,
    RW_DO,
    RW_DONE,
    RW_FOR,
    RW_SELECT,
    RW_IN,
    RW_CASE,
    RW_ESAC,
    RW_FUNCTION,
    RW_LBRACE,
    RW_RBRACE,
    RW_BANG,
    RW_COND_OPEN,
    RW_COND_CLOSE,
    RW_TIME
} reserved;

static const struct {
    const char *word;
    size_t len;
    reserved rw;
} reserved_words[] = {
    {"if", 2, RW_IF},        {"then", 4, RW_THEN},     {"elif", 4, RW_ELIF},
    {"else", 4, RW_ELSE},    {"fi", 2, RW_FI},         {"while", 5, RW_WHILE},
    {"until", 5, RW_UNTIL},  {"do", 2, RW_DO},         {"done", 4, RW_DONE},
    {"for", 3, RW_FOR},      {"select", 6, RW_SELECT}, {"in", 2, RW_IN},
    {"case", 4, RW_CASE},    {"esac", 4, RW_ESAC},     {"function", 8, RW_FUNCTION},
    {"{", 1, RW_LBRACE},     {"}", 1, RW_RBRACE},      {"!", 1, RW_BANG},
    {"[[", 2, RW_COND_OPEN}, {"]]", 2, RW_COND_CLOSE}, {"time", 4, RW_TIME},
};

static void parse_list_until_end(rp_sh_src *s, const rp_sh_frame *f, size_t *count);
static void parse_and_or(rp_sh_src *s, const rp_sh_frame *f);
static void parse_command(rp_sh_src *s, const rp_sh_frame *f);

static char peek(const rp_sh_src *s, size_t ahead)
{
    return s->pos + ahead < s->end ? s->text[s->pos + ahead] : '\0';
}

/* The reserved word at s->pos, if the word there is exactly one (unquoted, then a delimiter). */
static reserved peek_reserved(const rp_sh_src *s, size_t *len_out)
{
    /* Most words start with a byte no reserved word starts with: answer those at once. */
    if (s->pos >= s->end || !strchr("itefwudsc{}![]", s->text[s->pos]))
        return RW_NONE;
    size_t i = s->pos;
    while (i < s->end && i - s->pos <= 8 && !rp_sh_is_meta(s->text[i]))
        i++;
    size_t len = i - s->pos;
    if (len == 0 || len > 8)
        return RW_NONE;
    for (size_t k = 0; k < sizeof reserved_words / sizeof reserved_words[0]; k++) {
        const char *w = reserved_words[k].word;
        if (reserved_words[k].len == len && memcmp(w, s->text + s->pos, len) == 0) {
            if (len_out)
                *len_out = len;
            return reserved_words[k].rw;
        }
    }
    return RW_NONE;
}

void rp_sh_skip_blanks(rp_sh_src *s)
{
    while (s->pos < s->end) {
        char c = s->text[s->pos];
        if (c == ' ' || c == '\t')
            s->pos++;
        else if (c == '\\' && peek(s, 1) == '\n')
            s->pos += 2;
        else
            break;
    }
}

/* Blanks, then a comment: `#` where a word would start runs to the end of the line. */
static void skip_blanks_and_comment(rp_sh_src *s)
{
    rp_sh_skip_blanks(s);
    if (s->pos < s->end && s->text[s->pos] == '#') {
        const char *nl = memchr(s->text + s->pos, '\n', s->end - s->pos);
        s->pos = nl ? (size_t)(nl - s->text) : s->end;
    }
}

/* s->pos at the first byte of a here-doc body: reads it up to its delimiter line. */
static void read_heredoc(rp_sh_src *s, const rp_sh_heredoc_pending *p)
{
    rp_sh_state *st = s->st;
    rp_sh_redir *r = p->redir;
    bool strip_tabs = r->op == RP_SH_REDIR_HEREDOC_STRIP;
    size_t body_start = s->pos;
    size_t body_end = body_start;
    size_t mark = st->n_scratch;
    for (;;) {
        if (s->pos >= s->end) {
            st->n_scratch = mark;
            rp_sh_fail(s, body_start, "here-document without its delimiter line");
            return;
        }
        /* One logical line: in an unquoted body a backslash-newline joins the next line
         * (before the delimiter test, as bash does). */
        size_t line_mark = st->n_scratch;
        bool first = true, more = true;
        while (more) {
            size_t line = s->pos;
            const char *nl = memchr(s->text + line, '\n', s->end - line);
            size_t line_end = nl ? (size_t)(nl - s->text) : s->end;
            size_t content = line;
            if (strip_tabs && first)
                while (content < line_end && s->text[content] == '\t')
                    content++;
            size_t backslashes = 0;
            while (line_end - backslashes > content && s->text[line_end - backslashes - 1] == '\\')
                backslashes++;
            more = nl && !r->heredoc_quoted && backslashes % 2 == 1;
            rp_sh_scratch_put(st, s->text + content, line_end - content - (more ? 1 : 0));
            s->pos = nl ? line_end + 1 : line_end;
            first = false;
        }
        size_t line_len = st->n_scratch - line_mark;
        if (line_len == r->target.len &&
            (line_len == 0 || memcmp(st->scratch + line_mark, r->target.text, line_len) == 0)) {
            st->n_scratch = line_mark;
            break;
        }
        if (s->pos > 0 && s->text[s->pos - 1] == '\n')
            rp_sh_scratch_putc(st, '\n');
        body_end = s->pos;
    }
    r->heredoc_body = rp_sh_scratch_finish(st, mark, NULL);
    if (!r->heredoc_quoted && body_end > body_start) {
        /* The body of an unquoted here-doc is expanded: its substitutions run. */
        rp_sh_src body;
        rp_sh_src_init(&body, st, s->text, body_end, s->base, s->exact);
        body.pos = body_start;
        rp_sh_frame inner = p->frame;
        inner.ctx |= RP_SH_CTX_HEREDOC;
        inner.env = st->cmds[p->cmd].env;
        size_t resume = s->pos;
        rp_sh_scan_heredoc_body(&body, &inner);
        if (st->failed) {
            /* bash parses these only when it expands the body; say so, since `bash -n`
             * accepts them */
            st->error = RP_SH_ERROR_IN_HEREDOC;
            s->pos = s->end;
        } else
            s->pos = resume;
    }
}

/* s->pos at a newline token: consumes it and reads the here-doc bodies that start after it. */
static void consume_newline(rp_sh_src *s)
{
    s->pos++;
    size_t n = s->n_pending;
    s->n_pending = 0;
    for (size_t i = 0; i < n && !s->st->failed; i++) {
        rp_sh_heredoc_pending p = s->pending[i];
        read_heredoc(s, &p);
    }
}

/* Blanks, comments and newlines (where the grammar allows a newline list). */
static void skip_linebreaks(rp_sh_src *s)
{
    while (!s->st->failed) {
        skip_blanks_and_comment(s);
        if (s->pos < s->end && s->text[s->pos] == '\n')
            consume_newline(s);
        else
            break;
    }
}

static void fail_unexpected(rp_sh_src *s)
{
    if (s->pos >= s->end)
        rp_sh_fail(s, s->pos, "syntax error: unexpected end of input");
    else
        rp_sh_fail(s, s->pos, "syntax error near unexpected token");
}

static bool expect_reserved(rp_sh_src *s, reserved rw, const char *why)
{
    size_t len = 0;
    if (s->st->failed)
        return false;
    skip_linebreaks(s);
    if (peek_reserved(s, &len) != rw) {
        rp_sh_fail(s, s->pos, why);
        return false;
    }
    s->pos += len;
    return true;
}

static bool enter_nesting(rp_sh_src *s)
{
    if (++s->st->nesting > RP_SH_MAX_NESTING) {
        rp_sh_fail(s, s->pos, "nesting too deep");
        return false;
    }
    return true;
}

/* ---- commands ---- */

/* Elements [from, from + n) of a stack, copied into the arena (NULL when n is 0: the stack
 * itself may still be NULL then). */
static void *copy_out(rp_sh_state *st, const void *stack, size_t from, size_t n, size_t elem_size)
{
    if (n == 0)
        return NULL;
    void *p = rp_arena_alloc(st->arena, n * elem_size);
    memcpy(p, (const char *)stack + from * elem_size, n * elem_size);
    return p;
}

/* Completes the command reserved at idx from the stack parts above the given bases. */
static void finish_command(rp_sh_src *s, const rp_sh_frame *f, size_t idx, size_t start, size_t end,
                           size_t word_base, size_t assign_base, size_t redir_base)
{
    rp_sh_state *st = s->st;
    rp_sh_command *c = &st->cmds[idx];
    c->n_words = st->n_words - word_base;
    c->words = copy_out(st, st->words, word_base, c->n_words, sizeof(rp_sh_word));
    c->n_assigns = st->n_assigns - assign_base;
    c->assigns = copy_out(st, st->assigns, assign_base, c->n_assigns, sizeof(rp_sh_word));
    c->n_redirs = st->n_redirs - redir_base;
    c->redirs = copy_out(st, st->redirs, redir_base, c->n_redirs, sizeof(rp_sh_redir));
    st->n_words = word_base;
    st->n_assigns = assign_base;
    st->n_redirs = redir_base;

    c->context |= f->ctx;
    c->depth = f->depth;
    c->env = f->env;
    c->remote_host = f->remote_host;
    st->wrapper_of[idx] = f->wrapper;
    if (f->span_fixed) {
        c->offset = f->span_off;
        c->end = f->span_end;
    } else {
        c->offset = rp_sh_offset(s, start);
        c->end = rp_sh_offset(s, end);
    }
    rp_sh_normalise_program(c);

    for (size_t i = 0; i < c->n_redirs; i++) {
        rp_sh_redir *r = &c->redirs[i];
        if (r->op != RP_SH_REDIR_HEREDOC && r->op != RP_SH_REDIR_HEREDOC_STRIP)
            continue;
        if (s->n_pending == s->cap_pending) {
            /* Doubling: the arena keeps every old copy, so growing by one was quadratic in
             * memory (32k here-docs on one line took 20 GB). */
            size_t cap = s->cap_pending ? s->cap_pending * 2 : 4;
            s->pending =
                rp_arena_realloc(st->arena, s->pending, s->cap_pending * sizeof *s->pending,
                                 cap * sizeof *s->pending);
            s->cap_pending = cap;
        }
        s->pending[s->n_pending].redir = r;
        s->pending[s->n_pending].frame = *f;
        s->pending[s->n_pending].cmd = idx;
        s->n_pending++;
    }
    if (!st->failed)
        rp_sh_unwrap(st, idx, f);
}

/* Whether a redirection operator starts at s->pos (with its optional fd or {name}). */
static bool at_redirect(const rp_sh_src *s)
{
    size_t i = s->pos;
    while (i < s->end && s->text[i] >= '0' && s->text[i] <= '9')
        i++;
    if (i == s->pos && i < s->end && s->text[i] == '{') {
        size_t k = i + 1;
        while (k < s->end && rp_sh_is_name_char(s->text[k]))
            k++;
        if (k > i + 1 && k < s->end && s->text[k] == '}' && rp_sh_is_name_start(s->text[i + 1]))
            i = k + 1;
    }
    if (i >= s->end)
        return false;
    char c = s->text[i];
    char next = i + 1 < s->end ? s->text[i + 1] : '\0';
    if (c == '<' || c == '>')
        return next != '(' || i != s->pos; /* <( and >( are process substitutions */
    return c == '&' && i == s->pos && next == '>';
}

static void parse_redirect(rp_sh_src *s, const rp_sh_frame *f)
{
    rp_sh_state *st = s->st;
    rp_sh_redir r;
    memset(&r, 0, sizeof r);
    r.fd = -1;
    size_t start = s->pos;
    if (s->text[s->pos] >= '0' && s->text[s->pos] <= '9') {
        long fd = 0;
        while (s->pos < s->end && s->text[s->pos] >= '0' && s->text[s->pos] <= '9') {
            if (fd < 100000)
                fd = fd * 10 + (s->text[s->pos] - '0');
            s->pos++;
        }
        r.fd = (int)fd;
    } else if (s->text[s->pos] == '{') {
        s->pos =
            (size_t)((const char *)memchr(s->text + s->pos, '}', s->end - s->pos) - s->text) + 1;
    }
    char c0 = peek(s, 0), c1 = peek(s, 1), c2 = peek(s, 2);
    size_t op_len = 1;
    if (c0 == '<') {
        if (c1 == '<' && c2 == '<') {
            r.op = RP_SH_REDIR_HERESTRING;
            op_len = 3;
        } else if (c1 == '<' && c2 == '-') {
            r.op = RP_SH_REDIR_HEREDOC_STRIP;
            op_len = 3;
        } else if (c1 == '<') {
            r.op = RP_SH_REDIR_HEREDOC;
            op_len = 2;
        } else if (c1 == '>') {
            r.op = RP_SH_REDIR_INOUT;
            op_len = 2;
        } else if (c1 == '&') {
            r.op = RP_SH_REDIR_DUP_IN;
            op_len = 2;
        } else {
            r.op = RP_SH_REDIR_IN;
        }
    } else if (c0 == '>') {
        if (c1 == '>') {
            r.op = RP_SH_REDIR_APPEND;
            op_len = 2;
        } else if (c1 == '|') {
            r.op = RP_SH_REDIR_CLOBBER;
            op_len = 2;
        } else if (c1 == '&') {
            r.op = RP_SH_REDIR_DUP_OUT;
            op_len = 2;
        } else {
            r.op = RP_SH_REDIR_OUT;
        }
    } else { /* &> or &>> */
        r.op = c2 == '>' ? RP_SH_REDIR_APPEND_ERR : RP_SH_REDIR_OUT_ERR;
        op_len = c2 == '>' ? 3 : 2;
    }
    s->pos += op_len;
    rp_sh_skip_blanks(s);
    bool is_assign = false;
    if (s->pos >= s->end ||
        (rp_sh_is_meta(s->text[s->pos]) &&
         !((s->text[s->pos] == '<' || s->text[s->pos] == '>') && peek(s, 1) == '('))) {
        fail_unexpected(s);
        return;
    }
    /* a comment where the target should be, or another redirection: `<3>o` reads `3>` as the
     * fd of the next one, as bash's lexer does */
    if (s->text[s->pos] == '#' || at_redirect(s)) {
        fail_unexpected(s);
        return;
    }
    if (!rp_sh_lex_word(s, f, 0, &r.target, &is_assign)) {
        if (!st->failed)
            rp_sh_fail(s, start, "missing redirection target");
        return;
    }
    if (r.op == RP_SH_REDIR_HEREDOC || r.op == RP_SH_REDIR_HEREDOC_STRIP)
        r.heredoc_quoted = (r.target.flags & RP_SH_WORD_QUOTED) != 0;
    rp_sh_push_redir(st, &r);
}

/* Redirections after a compound command: listed as a command without words. */
static void parse_trailing_redirects(rp_sh_src *s, const rp_sh_frame *f, size_t start)
{
    rp_sh_state *st = s->st;
    rp_sh_skip_blanks(s);
    if (!at_redirect(s))
        return;
    size_t idx = rp_sh_reserve_command(st);
    size_t wb = st->n_words, ab = st->n_assigns, rb = st->n_redirs;
    while (!st->failed && at_redirect(s)) {
        parse_redirect(s, f);
        rp_sh_skip_blanks(s);
    }
    finish_command(s, f, idx, start, s->pos, wb, ab, rb);
}

/* A compound command a function body may be; s->pos at its first byte. */
static void parse_function_body(rp_sh_src *s, const rp_sh_frame *f)
{
    skip_linebreaks(s);
    reserved rw = peek_reserved(s, NULL);
    bool compound = rw == RW_LBRACE || rw == RW_IF || rw == RW_WHILE || rw == RW_UNTIL ||
                    rw == RW_FOR || rw == RW_SELECT || rw == RW_CASE || rw == RW_COND_OPEN ||
                    peek(s, 0) == '(';
    if (!compound) {
        fail_unexpected(s);
        return;
    }
    rp_sh_frame body = *f;
    body.ctx |= RP_SH_CTX_FUNCTION;
    parse_command(s, &body);
}

/* s->pos at the `(` after a function name: `()` then the body. */
static void parse_function_parens(rp_sh_src *s, const rp_sh_frame *f)
{
    s->pos++;
    rp_sh_skip_blanks(s);
    if (peek(s, 0) != ')') {
        fail_unexpected(s);
        return;
    }
    s->pos++;
    parse_function_body(s, f);
}

static bool is_function_name(const rp_sh_word *w)
{
    return w->flags == 0 && w->len > 0;
}

static void parse_simple(rp_sh_src *s, const rp_sh_frame *f)
{
    rp_sh_state *st = s->st;
    size_t idx = rp_sh_reserve_command(st);
    size_t start = s->pos, end = s->pos;
    size_t wb = st->n_words, ab = st->n_assigns, rb = st->n_redirs;
    bool have_word = false;
    while (!st->failed) {
        rp_sh_skip_blanks(s);
        if (s->pos >= s->end)
            break;
        char c = s->text[s->pos];
        if (at_redirect(s)) {
            parse_redirect(s, f);
            end = s->pos;
            continue;
        }
        if (c == '(') {
            if (have_word && st->n_words - wb == 1 && st->n_assigns == ab && st->n_redirs == rb &&
                is_function_name(&st->words[wb]) && idx + 1 == st->n_cmds) {
                /* NAME () body: a definition, not a command. */
                st->n_words = wb;
                st->n_cmds--;
                parse_function_parens(s, f);
                return;
            }
            fail_unexpected(s);
            break;
        }
        if (c == '#') {
            skip_blanks_and_comment(s);
            continue;
        }
        if (rp_sh_is_meta(c) && !((c == '<' || c == '>') && peek(s, 1) == '('))
            break;
        rp_sh_word w;
        bool is_assign = false;
        if (!rp_sh_lex_word(s, f, have_word ? 0 : RP_SH_LEX_ASSIGN_POS, &w, &is_assign)) {
            if (!st->failed)
                fail_unexpected(s);
            break;
        }
        end = s->pos;
        if (!have_word && is_assign) {
            rp_sh_push_assign(st, &w);
        } else {
            rp_sh_push_word(st, &w);
            have_word = true;
        }
    }
    finish_command(s, f, idx, start, end, wb, ab, rb);
}

/* [[ … ]]: one command whose words are data; `<`, `>`, `&&`, `(` … are operators of the test,
 * not of the shell. */
static void parse_cond(rp_sh_src *s, const rp_sh_frame *f)
{
    rp_sh_state *st = s->st;
    size_t idx = rp_sh_reserve_command(st);
    size_t start = s->pos;
    size_t wb = st->n_words, ab = st->n_assigns, rb = st->n_redirs;
    bool regex_next = false;
    rp_sh_word w;
    memset(&w, 0, sizeof w);
    w.text = "[[";
    w.len = 2;
    w.raw = s->text + s->pos;
    w.raw_len = 2;
    w.offset = rp_sh_offset(s, s->pos);
    rp_sh_push_word(st, &w);
    s->pos += 2;
    while (!st->failed) {
        rp_sh_skip_blanks(s);
        if (s->pos >= s->end) {
            rp_sh_fail(s, start, "unterminated [[");
            break;
        }
        char c = s->text[s->pos];
        if (c == '\n') {
            consume_newline(s);
            continue;
        }
        size_t len = 0;
        if (peek_reserved(s, &len) == RW_COND_CLOSE) {
            w.text = "]]";
            w.len = 2;
            w.raw = s->text + s->pos;
            w.raw_len = 2;
            w.offset = rp_sh_offset(s, s->pos);
            w.flags = 0;
            rp_sh_push_word(st, &w);
            s->pos += 2;
            break;
        }
        size_t op_len = 0;
        if ((c == '&' && peek(s, 1) == '&') || (c == '|' && peek(s, 1) == '|'))
            op_len = 2;
        else if (c == '(' || c == ')' || c == '<' || c == '>')
            op_len = 1;
        else if (c == ';' || c == '&' || c == '|') {
            fail_unexpected(s);
            break;
        }
        if (op_len && !(c == '(' && regex_next)) {
            w.raw = s->text + s->pos;
            w.raw_len = op_len;
            w.text = rp_arena_strndup(st->arena, w.raw, op_len);
            w.len = op_len;
            w.offset = rp_sh_offset(s, s->pos);
            w.flags = 0;
            s->pos += op_len;
            rp_sh_push_word(st, &w);
            regex_next = false;
            continue;
        }
        if (!rp_sh_lex_word(s, f, regex_next ? RP_SH_LEX_REGEX : 0, &w, NULL)) {
            if (!st->failed)
                fail_unexpected(s);
            break;
        }
        rp_sh_push_word(st, &w);
        regex_next = rp_sh_word_static(&w) && w.len == 2 && memcmp(w.text, "=~", 2) == 0;
    }
    finish_command(s, f, idx, start, s->pos, wb, ab, rb);
}

/* (( … )): one command, the expression is data (its substitutions still run). */
static void parse_arith_command(rp_sh_src *s, const rp_sh_frame *f)
{
    rp_sh_state *st = s->st;
    size_t idx = rp_sh_reserve_command(st);
    size_t start = s->pos;
    size_t wb = st->n_words, ab = st->n_assigns, rb = st->n_redirs;
    s->pos += 2;
    size_t body = s->pos;
    rp_sh_lex_arith_command(s, f, start);
    if (!st->failed) {
        rp_sh_word w;
        memset(&w, 0, sizeof w);
        w.text = "((";
        w.len = 2;
        w.raw = s->text + start;
        w.raw_len = 2;
        w.offset = rp_sh_offset(s, start);
        rp_sh_push_word(st, &w);
        w.raw = s->text + body;
        w.raw_len = s->pos - 2 - body;
        w.text = rp_arena_strndup(st->arena, w.raw, w.raw_len);
        w.len = w.raw_len;
        w.offset = rp_sh_offset(s, body);
        w.flags = RP_SH_WORD_ARITH;
        rp_sh_push_word(st, &w);
        w.text = "))";
        w.len = 2;
        w.raw = s->text + s->pos - 2;
        w.raw_len = 2;
        w.offset = rp_sh_offset(s, s->pos - 2);
        w.flags = 0;
        rp_sh_push_word(st, &w);
    }
    finish_command(s, f, idx, start, s->pos, wb, ab, rb);
}

static void parse_subshell(rp_sh_src *s, const rp_sh_frame *f)
{
    size_t open = s->pos++;
    rp_sh_frame inner = *f;
    inner.ctx |= RP_SH_CTX_SUBSHELL;
    inner.env = rp_sh_new_env(s->st, RP_SH_ENV_SUBSHELL, f->env);
    size_t count = 0;
    parse_list_until_end(s, &inner, &count);
    if (s->st->failed)
        return;
    if (peek(s, 0) != ')') {
        rp_sh_fail(s, open, "unterminated (");
        return;
    }
    if (count == 0) {
        fail_unexpected(s);
        return;
    }
    s->pos++;
}

static void parse_brace_group(rp_sh_src *s, const rp_sh_frame *f)
{
    s->pos++; /* { */
    rp_sh_frame inner = *f;
    inner.ctx |= RP_SH_CTX_BRACE;
    size_t count = 0;
    parse_list_until_end(s, &inner, &count);
    if (!s->st->failed && count == 0)
        fail_unexpected(s);
    expect_reserved(s, RW_RBRACE, "unterminated {");
}

/* A compound list that must hold at least one command. */
static void parse_required_list(rp_sh_src *s, const rp_sh_frame *f)
{
    size_t count = 0;
    parse_list_until_end(s, f, &count);
    if (!s->st->failed && count == 0)
        fail_unexpected(s);
}

static void parse_if(rp_sh_src *s, const rp_sh_frame *f)
{
    rp_sh_frame inner = *f;
    inner.ctx |= RP_SH_CTX_IF;
    s->pos += 2;
    parse_required_list(s, &inner);
    if (!expect_reserved(s, RW_THEN, "if without then"))
        return;
    parse_required_list(s, &inner);
    while (!s->st->failed) {
        size_t len = 0;
        skip_linebreaks(s);
        reserved rw = peek_reserved(s, &len);
        if (rw == RW_ELIF) {
            s->pos += len;
            parse_required_list(s, &inner);
            if (!expect_reserved(s, RW_THEN, "elif without then"))
                return;
            parse_required_list(s, &inner);
        } else if (rw == RW_ELSE) {
            s->pos += len;
            parse_required_list(s, &inner);
            expect_reserved(s, RW_FI, "if without fi");
            return;
        } else if (rw == RW_FI) {
            s->pos += len;
            return;
        } else {
            rp_sh_fail(s, s->pos, "if without fi");
            return;
        }
    }
}

static void parse_while(rp_sh_src *s, const rp_sh_frame *f, size_t keyword_len)
{
    rp_sh_frame inner = *f;
    inner.ctx |= RP_SH_CTX_LOOP;
    s->pos += keyword_len;
    parse_required_list(s, &inner);
    if (!expect_reserved(s, RW_DO, "loop without do"))
        return;
    parse_required_list(s, &inner);
    expect_reserved(s, RW_DONE, "loop without done");
}

/* The body of for/select: do … done, or bash's { … }. */
static void parse_loop_body(rp_sh_src *s, const rp_sh_frame *inner)
{
    size_t len = 0;
    skip_linebreaks(s);
    reserved rw = peek_reserved(s, &len);
    if (rw == RW_LBRACE) {
        parse_brace_group(s, inner);
        return;
    }
    if (rw != RW_DO) {
        rp_sh_fail(s, s->pos, "loop without do");
        return;
    }
    s->pos += len;
    parse_required_list(s, inner);
    expect_reserved(s, RW_DONE, "loop without done");
}

static void parse_for(rp_sh_src *s, const rp_sh_frame *f, size_t keyword_len)
{
    rp_sh_state *st = s->st;
    rp_sh_frame inner = *f;
    inner.ctx |= RP_SH_CTX_LOOP;
    s->pos += keyword_len;
    rp_sh_skip_blanks(s);
    if (peek(s, 0) == '(' && peek(s, 1) == '(') {
        size_t open = s->pos;
        s->pos += 2;
        rp_sh_lex_arith_command(s, f, open);
        rp_sh_skip_blanks(s);
        if (peek(s, 0) == ';')
            s->pos++;
        parse_loop_body(s, &inner);
        return;
    }
    rp_sh_word name;
    if (s->pos >= s->end || rp_sh_is_meta(s->text[s->pos]) ||
        !rp_sh_lex_word(s, f, 0, &name, NULL)) {
        if (!st->failed)
            fail_unexpected(s);
        return;
    }
    rp_sh_skip_blanks(s);
    if (peek(s, 0) == ';') {
        s->pos++;
        parse_loop_body(s, &inner);
        return;
    }
    skip_linebreaks(s);
    size_t len = 0;
    if (peek_reserved(s, &len) == RW_IN) {
        s->pos += len;
        while (!st->failed) {
            skip_blanks_and_comment(s);
            char c = peek(s, 0);
            if (c == ';') {
                s->pos++;
                break;
            }
            if (c == '\n')
                break;
            if (s->pos >= s->end || rp_sh_is_meta(c)) {
                fail_unexpected(s);
                return;
            }
            rp_sh_word item;
            if (!rp_sh_lex_word(s, f, 0, &item, NULL)) {
                if (!st->failed)
                    fail_unexpected(s);
                return;
            }
        }
    }
    parse_loop_body(s, &inner);
}

static void parse_case(rp_sh_src *s, const rp_sh_frame *f)
{
    rp_sh_state *st = s->st;
    rp_sh_frame inner = *f;
    inner.ctx |= RP_SH_CTX_CASE;
    s->pos += 4;
    rp_sh_skip_blanks(s);
    rp_sh_word subject;
    if (s->pos >= s->end || rp_sh_is_meta(s->text[s->pos]) ||
        !rp_sh_lex_word(s, f, 0, &subject, NULL)) {
        if (!st->failed)
            fail_unexpected(s);
        return;
    }
    if (!expect_reserved(s, RW_IN, "case without in"))
        return;
    while (!st->failed) {
        size_t len = 0;
        skip_linebreaks(s);
        if (peek_reserved(s, &len) == RW_ESAC) {
            s->pos += len;
            return;
        }
        if (peek(s, 0) == '(')
            s->pos++;
        for (;;) { /* patterns: p1 | p2 ) */
            rp_sh_skip_blanks(s);
            rp_sh_word pattern;
            if (s->pos >= s->end || rp_sh_is_meta(s->text[s->pos]) ||
                !rp_sh_lex_word(s, f, 0, &pattern, NULL)) {
                if (!st->failed)
                    fail_unexpected(s);
                return;
            }
            rp_sh_skip_blanks(s);
            if (peek(s, 0) == '|') {
                s->pos++;
                continue;
            }
            if (peek(s, 0) == ')') {
                s->pos++;
                break;
            }
            fail_unexpected(s);
            return;
        }
        size_t count = 0;
        parse_list_until_end(s, &inner, &count);
        if (st->failed)
            return;
        skip_linebreaks(s);
        if (peek(s, 0) == ';' && peek(s, 1) == ';') {
            s->pos += peek(s, 2) == '&' ? 3 : 2;
        } else if (peek(s, 0) == ';' && peek(s, 1) == '&') {
            s->pos += 2;
        } else if (peek_reserved(s, &len) == RW_ESAC) {
            s->pos += len;
            return;
        } else {
            rp_sh_fail(s, s->pos, "case without esac");
            return;
        }
    }
}

static void parse_function_keyword(rp_sh_src *s, const rp_sh_frame *f)
{
    rp_sh_state *st = s->st;
    s->pos += 8;
    rp_sh_skip_blanks(s);
    rp_sh_word name;
    if (s->pos >= s->end || rp_sh_is_meta(s->text[s->pos]) ||
        !rp_sh_lex_word(s, f, 0, &name, NULL)) {
        if (!st->failed)
            fail_unexpected(s);
        return;
    }
    rp_sh_skip_blanks(s);
    if (peek(s, 0) == '(') {
        parse_function_parens(s, f);
        return;
    }
    parse_function_body(s, f);
}

static void parse_command(rp_sh_src *s, const rp_sh_frame *f)
{
    rp_sh_state *st = s->st;
    rp_sh_skip_blanks(s);
    if (s->pos >= s->end) {
        fail_unexpected(s);
        return;
    }
    if (!enter_nesting(s))
        return;
    size_t start = s->pos;
    size_t len = 0;
    bool compound = true;
    switch (peek_reserved(s, &len)) {
    case RW_IF:
        parse_if(s, f);
        break;
    case RW_WHILE:
    case RW_UNTIL:
        parse_while(s, f, len);
        break;
    case RW_FOR:
    case RW_SELECT:
        parse_for(s, f, len);
        break;
    case RW_CASE:
        parse_case(s, f);
        break;
    case RW_FUNCTION:
        parse_function_keyword(s, f);
        compound = false;
        break;
    case RW_LBRACE:
        parse_brace_group(s, f);
        break;
    case RW_COND_OPEN:
        parse_cond(s, f);
        break;
    case RW_THEN:
    case RW_ELIF:
    case RW_ELSE:
    case RW_FI:
    case RW_DO:
    case RW_DONE:
    case RW_ESAC:
    case RW_RBRACE:
    case RW_COND_CLOSE:
    case RW_IN:
    case RW_BANG: /* `!` only starts a pipeline (parse_pipeline takes it there) */
        fail_unexpected(s);
        break;
    default: {
        char c = s->text[s->pos];
        if (c == '(') {
            int kind = peek(s, 1) == '(' ? rp_sh_arithmetic_kind(s, s->pos + 2) : 0;
            if (kind == 1)
                parse_arith_command(s, f);
            else if (kind == 0)
                parse_subshell(s, f);
            else
                rp_sh_fail(s, s->pos, "unterminated ((");
        } else if (rp_sh_is_meta(c) && !at_redirect(s) &&
                   !((c == '<' || c == '>') && peek(s, 1) == '(')) {
            fail_unexpected(s);
        } else {
            parse_simple(s, f);
            compound = false;
        }
    }
    }
    if (compound && !st->failed)
        parse_trailing_redirects(s, f, start);
    st->nesting--;
}

/* Adds pipeline membership to the commands [from, to) of one stage. Commands inside
 * substitutions of the stage's words are not themselves piped. */
static void mark_stage(rp_sh_state *st, const rp_sh_frame *f, size_t from, size_t to, int id,
                       int stage)
{
    const unsigned subst = RP_SH_CTX_CMDSUB | RP_SH_CTX_PROCSUB | RP_SH_CTX_HEREDOC;
    for (size_t i = from; i < to; i++) {
        rp_sh_command *c = &st->cmds[i];
        if ((c->context & subst) != (f->ctx & subst))
            continue;
        c->context |= RP_SH_CTX_PIPELINE;
        if (c->pipeline == RP_SH_PIPELINE_UNSET) {
            c->pipeline = id;
            c->stage = stage;
        }
    }
}

/* `!` and `time [-p]` before a pipeline (bash takes `time` before a later stage too, `!`
 * not). Returns false when the pipeline is only the prefix, which bash accepts before a
 * newline, `;` or the end, and refuses before `&`, `|`, `&&` or `||`. */
static bool skip_pipeline_prefix(rp_sh_src *s, bool allow_bang)
{
    bool prefix = false;
    for (;;) {
        rp_sh_skip_blanks(s);
        size_t len = 0;
        reserved rw = peek_reserved(s, &len);
        if (!(rw == RW_TIME || (rw == RW_BANG && allow_bang)))
            break;
        s->pos += len;
        prefix = true;
        if (rw == RW_TIME) {
            rp_sh_skip_blanks(s);
            if (peek(s, 0) == '-' && peek(s, 1) == 'p' &&
                (s->pos + 2 >= s->end || rp_sh_is_meta(s->text[s->pos + 2])))
                s->pos += 2;
        }
    }
    if (!prefix)
        return true;
    skip_blanks_and_comment(s);
    char c = peek(s, 0);
    if (s->pos >= s->end || c == '\n' || (c == ';' && peek(s, 1) != ';' && peek(s, 1) != '&'))
        return false;
    if (c == '&' || c == '|' || c == ';')
        fail_unexpected(s);
    return !s->st->failed;
}

static void parse_pipeline(rp_sh_src *s, const rp_sh_frame *f)
{
    rp_sh_state *st = s->st;
    if (!skip_pipeline_prefix(s, true))
        return;
    size_t stage_start = st->n_cmds, env_start = st->n_envs;
    parse_command(s, f);
    int id = -1, stage = 0;
    /* Every stage runs in a subshell of its own: the first is known to be one only at the
     * first `|`, the later ones get their environment before they are read. */
    rp_sh_frame stage_frame = *f;
    while (!st->failed) {
        skip_blanks_and_comment(s);
        if (peek(s, 0) != '|' || peek(s, 1) == '|')
            break;
        s->pos += peek(s, 1) == '&' ? 2 : 1;
        if (id < 0) {
            id = st->next_pipeline++;
            mark_stage(st, f, stage_start, st->n_cmds, id, 0);
            rp_sh_rehome(st, stage_start, env_start, f->env, RP_SH_ENV_PIPE_STAGE);
        }
        skip_linebreaks(s);
        stage_start = st->n_cmds;
        if (!skip_pipeline_prefix(s, false))
            break; /* `a | time`: bash times an empty stage */
        stage_frame.env = rp_sh_new_env(st, RP_SH_ENV_PIPE_STAGE, f->env);
        parse_command(s, &stage_frame);
        mark_stage(st, f, stage_start, st->n_cmds, id, ++stage);
    }
}

static void parse_and_or(rp_sh_src *s, const rp_sh_frame *f)
{
    rp_sh_state *st = s->st;
    parse_pipeline(s, f);
    while (!st->failed) {
        skip_blanks_and_comment(s);
        char c = peek(s, 0);
        if (!((c == '&' || c == '|') && peek(s, 1) == c))
            break;
        s->pos += 2;
        skip_linebreaks(s);
        size_t start = st->n_cmds;
        parse_pipeline(s, f);
        rp_sh_mark_range(st, start, RP_SH_CTX_CONDITIONAL);
    }
}

/* Where a compound list ends: the end, `)`, `;;`, or a reserved word that closes a construct. */
static bool at_list_end(const rp_sh_src *s)
{
    if (s->pos >= s->end)
        return true;
    char c = s->text[s->pos];
    if (c == ')' || (c == ';' && (peek(s, 1) == ';' || peek(s, 1) == '&')))
        return true;
    switch (peek_reserved(s, NULL)) {
    case RW_THEN:
    case RW_ELIF:
    case RW_ELSE:
    case RW_FI:
    case RW_DO:
    case RW_DONE:
    case RW_ESAC:
    case RW_RBRACE:
        return true;
    default:
        return false;
    }
}

static void parse_list_until_end(rp_sh_src *s, const rp_sh_frame *f, size_t *count)
{
    rp_sh_state *st = s->st;
    while (!st->failed) {
        skip_linebreaks(s);
        if (at_list_end(s))
            return;
        size_t start = st->n_cmds, env_start = st->n_envs;
        parse_and_or(s, f);
        (*count)++;
        skip_blanks_and_comment(s);
        char c = peek(s, 0), next = peek(s, 1);
        if (c == ';' && next != ';' && next != '&') {
            s->pos++;
        } else if (c == '&' && next != '&' && next != '>') {
            s->pos++;
            rp_sh_mark_range(st, start, RP_SH_CTX_BACKGROUND);
            rp_sh_rehome(st, start, env_start, f->env, RP_SH_ENV_BACKGROUND);
        } else if (c != '\n') {
            return;
        }
    }
}

void rp_sh_parse_program(rp_sh_src *s, const rp_sh_frame *f)
{
    if (!enter_nesting(s))
        return;
    size_t count = 0;
    parse_list_until_end(s, f, &count);
    if (!s->st->failed && s->pos < s->end)
        fail_unexpected(s);
    if (!s->st->failed && s->n_pending > 0)
        rp_sh_fail(s, s->pos, "here-document without its delimiter line");
    s->st->nesting--;
}

void rp_sh_parse_subst_body(rp_sh_src *s, const rp_sh_frame *f)
{
    size_t open = s->pos - 2;
    size_t count = 0;
    parse_list_until_end(s, f, &count);
    if (s->st->failed)
        return;
    if (peek(s, 0) != ')') {
        rp_sh_fail(s, open, s->pos >= s->end ? "unterminated $(" : "syntax error in $(");
        return;
    }
    s->pos++;
}

void rp_sh_parse_string(rp_sh_state *st, const char *text, size_t len, size_t base, bool exact,
                        const rp_sh_frame *f)
{
    rp_sh_src s;
    rp_sh_src_init(&s, st, text, len, base, exact);
    rp_sh_parse_program(&s, f);
}
