/* parse.c — recursive-descent CEL parser (cel-spec langdef.md grammar, CEL precedence).
 *
 *   expr     = or ['?' or ':' expr]          (right associative)
 *   or       = and {'||' and}                (built as a balanced tree, as cel-go does)
 *   and      = rel {'&&' rel}
 *   rel      = add {('<'|'<='|'>='|'>'|'=='|'!='|'in') add}
 *   add      = mul {('+'|'-') mul}
 *   mul      = unary {('*'|'/'|'%') unary}
 *   unary    = member | '!'+ member | '-'+ member
 *   member   = primary {'.' ['?'] field ['(' args ')'] | '[' ['?'] expr ']' | '{' inits '}'}
 *   primary  = ['.'] IDENT ['(' args ')'] | '(' expr ')' | '[' list ']' | '{' map '}' | literal
 *
 * Only parse_expr recurses into nested expressions, so counting depth there bounds the C
 * stack; the height of the resulting tree is checked once at the end. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cel/parse_internal.h"
#include "core/utf8.h"

static const char *const reserved_words[] = {
    "as",  "break", "const",   "continue",  "else",   "for", "function", "if",    "import",
    "let", "loop",  "package", "namespace", "return", "var", "void",     "while",
};

static const char expecting_expr[] =
    "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, "
    "STRING, BYTES, IDENTIFIER}";

void cel_source_position(const char *src, size_t len, size_t offset, int *line, int *col)
{
    int l = 1, c = 1;
    if (offset > len)
        offset = len;
    for (size_t i = 0; i < offset; i++) {
        unsigned char ch = (unsigned char)src[i];
        if (ch == '\n') {
            l++;
            c = 1;
        } else if (!rp_utf8_is_cont(ch)) { /* count code points, not continuation bytes */
            c++;
        }
    }
    *line = l;
    *col = c;
}

void cel_parser_error(cel_parser *p, size_t offset, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = true;
    cel_source_error *err = p->err;
    err->offset = offset;
    cel_source_position(p->src, p->len, offset, &err->line, &err->col);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

/* ---- tokens ---- */

static void advance(cel_parser *p)
{
    p->tok = cel_lex_next(&p->lx);
}

static bool at_tok(const cel_parser *p, cel_tok_kind k)
{
    return p->tok.kind == k;
}

static bool accept(cel_parser *p, cel_tok_kind k)
{
    if (p->tok.kind != k)
        return false;
    advance(p);
    return true;
}

/* Reports the current token as unexpected ("expecting" names what would have fitted). */
static void *unexpected(cel_parser *p, const char *expecting)
{
    cel_token t = p->tok;
    if (t.kind == CEL_TOK_ERROR) {
        cel_parser_error(p, t.start, "Syntax error: %s at: '%.*s'", p->lx.error,
                         (int)(t.end - t.start), p->src + t.start);
    } else if (t.kind == CEL_TOK_EOF) {
        cel_parser_error(p, t.start, "Syntax error: mismatched input '<EOF>' expecting %s",
                         expecting);
    } else {
        int n = (int)(t.end - t.start);
        cel_parser_error(p, t.start, "Syntax error: mismatched input '%.*s%s' expecting %s",
                         n > 40 ? 40 : n, p->src + t.start, n > 40 ? "..." : "", expecting);
    }
    return NULL;
}

static bool expect(cel_parser *p, cel_tok_kind k)
{
    if (accept(p, k))
        return true;
    unexpected(p, cel_tok_name(k));
    return false;
}

static char *tok_text(cel_parser *p, cel_token t)
{
    return rp_arena_strndup(p->a, p->src + t.start, t.end - t.start);
}

/* ---- growable arrays in the arena ---- */

typedef struct expr_vec {
    cel_expr **v;
    uint32_t n, cap;
} expr_vec;

static void vec_push(cel_parser *p, expr_vec *vec, cel_expr *e)
{
    if (vec->n == vec->cap) {
        uint32_t ncap = vec->cap ? vec->cap * 2 : 4;
        vec->v = rp_arena_realloc(p->a, vec->v, vec->cap * sizeof *vec->v, ncap * sizeof *vec->v);
        vec->cap = ncap;
    }
    vec->v[vec->n++] = e;
}

/* Optional-entry flags parallel to an expr_vec; stays NULL until an entry is optional. */
typedef struct flag_vec {
    bool *v;
    uint32_t cap;
} flag_vec;

static void flag_set(cel_parser *p, flag_vec *f, uint32_t index, bool value)
{
    if (!value && !f->v)
        return;
    if (index >= f->cap) {
        uint32_t ncap = f->cap ? f->cap : 4;
        while (ncap <= index)
            ncap *= 2;
        bool *nv = rp_arena_calloc(p->a, ncap);
        if (f->v)
            memcpy(nv, f->v, f->cap);
        f->v = nv;
        f->cap = ncap;
    }
    f->v[index] = value;
}

static cel_expr *new_node(cel_parser *p, cel_expr_kind kind, uint32_t offset)
{
    return cel_ast_new(p->a, p->next_id, kind, offset);
}

static cel_expr *binary(cel_parser *p, uint32_t offset, const char *fn, cel_expr *x, cel_expr *y)
{
    return cel_ast_call2(p->a, p->next_id, offset, fn, x, y);
}

/* A call site: a macro expansion when one matches, else an ordinary call. */
static cel_expr *make_call(cel_parser *p, uint32_t offset, cel_expr *target, const char *fn,
                           expr_vec *args)
{
    cel_expr *out;
    if (!p->opts->disable_macros && cel_macro_expand(p, offset, target, fn, args->v, args->n, &out))
        return out;
    return cel_ast_call(p->a, p->next_id, offset, target, fn, args->v, args->n);
}

/* ---- grammar ---- */

static cel_expr *parse_expr(cel_parser *p);

/* '(' already consumed: expr {',' expr} ')' */
static bool parse_args(cel_parser *p, expr_vec *args)
{
    if (accept(p, CEL_TOK_RPAREN))
        return true;
    for (;;) {
        cel_expr *e = parse_expr(p);
        if (!e)
            return false;
        vec_push(p, args, e);
        if (accept(p, CEL_TOK_COMMA))
            continue;
        return expect(p, CEL_TOK_RPAREN);
    }
}

static bool is_reserved(const char *s, size_t n)
{
    if (n < 2 || n > 9) /* "as" .. "namespace" */
        return false;
    for (size_t i = 0; i < sizeof reserved_words / sizeof reserved_words[0]; i++) {
        if (strlen(reserved_words[i]) == n && memcmp(reserved_words[i], s, n) == 0)
            return true;
    }
    return false;
}

static cel_expr *parse_int(cel_parser *p, cel_token t, bool negate)
{
    const char *s = p->src + t.start;
    size_t n = t.end - t.start;
    bool is_uint = t.kind == CEL_TOK_UINT;
    if (is_uint)
        n--; /* the u suffix */
    unsigned base = 10;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
        n -= 2;
    }
    uint64_t v = 0;
    bool overflow = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        unsigned d = (unsigned)rp_hex_digit((unsigned char)c); /* the lexer read only digits */
        if (v > (UINT64_MAX - d) / base)
            overflow = true;
        v = v * base + d;
    }
    cel_value val;
    if (is_uint) {
        if (overflow) {
            cel_parser_error(p, t.start, "invalid uint literal");
            return NULL;
        }
        val = cel_uint(v);
    } else {
        uint64_t limit = negate ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
        if (overflow || v > limit) {
            cel_parser_error(p, negate ? p->minus_offset : t.start, "invalid int literal");
            return NULL;
        }
        /* -(2^63) is representable only through the unsigned detour */
        val = cel_int(negate ? (int64_t)(0 - v) : (int64_t)v);
    }
    return cel_ast_const(p->a, p->next_id, negate ? p->minus_offset : t.start, val);
}

static cel_expr *parse_double(cel_parser *p, cel_token t, bool negate)
{
    char *text = tok_text(p, t);
    errno = 0;
    double d = strtod(text, NULL);
    if (errno == ERANGE && (d > 1.0 || d < -1.0)) {
        cel_parser_error(p, t.start, "invalid double literal");
        return NULL;
    }
    return cel_ast_const(p->a, p->next_id, negate ? p->minus_offset : t.start,
                         cel_double(negate ? -d : d));
}

static cel_expr *parse_string(cel_parser *p, cel_token t)
{
    char *out;
    size_t out_len, eoff;
    const char *msg;
    if (cel_lex_decode_string(p->a, p->src + t.start, t.end - t.start, &out, &out_len, &msg,
                              &eoff) != 0) {
        cel_parser_error(p, t.start + eoff, "%s", msg);
        return NULL;
    }
    cel_value v =
        t.kind == CEL_TOK_BYTES ? cel_bytes_ref(out, out_len) : cel_string_ref(out, out_len);
    return cel_ast_const(p->a, p->next_id, t.start, v);
}

/* '[' consumed: [['?'] expr {',' ['?'] expr}] [','] ']' */
static cel_expr *parse_list(cel_parser *p, uint32_t offset)
{
    expr_vec elems = {0};
    flag_vec opt = {0};
    while (!at_tok(p, CEL_TOK_RBRACKET)) {
        bool is_opt = p->opts->enable_optional_syntax && accept(p, CEL_TOK_QUESTION);
        cel_expr *e = parse_expr(p);
        if (!e)
            return NULL;
        flag_set(p, &opt, elems.n, is_opt);
        vec_push(p, &elems, e);
        if (!accept(p, CEL_TOK_COMMA))
            break;
    }
    if (!expect(p, CEL_TOK_RBRACKET))
        return NULL;
    cel_expr *l = cel_ast_list(p->a, p->next_id, offset, elems.v, elems.n);
    l->u.list.optional = opt.v;
    return l;
}

/* '{' consumed: [['?'] key ':' value {',' ...}] [','] '}' */
static cel_expr *parse_map(cel_parser *p, uint32_t offset)
{
    expr_vec keys = {0}, values = {0};
    flag_vec opt = {0};
    while (!at_tok(p, CEL_TOK_RBRACE)) {
        bool is_opt = p->opts->enable_optional_syntax && accept(p, CEL_TOK_QUESTION);
        cel_expr *k = parse_expr(p);
        if (!k || !expect(p, CEL_TOK_COLON))
            return NULL;
        cel_expr *v = parse_expr(p);
        if (!v)
            return NULL;
        flag_set(p, &opt, keys.n, is_opt);
        vec_push(p, &keys, k);
        vec_push(p, &values, v);
        if (!accept(p, CEL_TOK_COMMA))
            break;
    }
    if (!expect(p, CEL_TOK_RBRACE))
        return NULL;
    cel_expr *m = new_node(p, CEL_EXPR_MAP, offset);
    m->u.map.keys = keys.v;
    m->u.map.values = values.v;
    m->u.map.n = keys.n;
    m->u.map.optional = opt.v;
    return m;
}

/* A field name after '.' or in a message initializer: IDENT (reserved words allowed) or a
 * backquoted name; NULL after reporting an error. */
static const char *parse_field_name(cel_parser *p, bool *quoted)
{
    cel_token t = p->tok;
    *quoted = t.kind == CEL_TOK_QUOTED_IDENT;
    if (t.kind == CEL_TOK_IDENT) {
        advance(p);
        return tok_text(p, t);
    }
    if (t.kind == CEL_TOK_QUOTED_IDENT) {
        advance(p);
        return rp_arena_strndup(p->a, p->src + t.start + 1, t.end - t.start - 2);
    }
    unexpected(p, "{IDENTIFIER, ESC_IDENTIFIER}");
    return NULL;
}

/* The dotted name of an identifier or a chain of selections on one ("a.b.Msg"). */
static char *qualified_name(cel_parser *p, const cel_expr *e)
{
    size_t total = 0;
    for (const cel_expr *x = e; x; x = x->kind == CEL_EXPR_SELECT ? x->u.select.operand : NULL)
        total += strlen(x->kind == CEL_EXPR_SELECT ? x->u.select.field : x->u.ident.name) + 1;
    char *out = rp_arena_alloc(p->a, total);
    size_t end = total - 1;
    out[end] = '\0';
    for (const cel_expr *x = e; x; x = x->kind == CEL_EXPR_SELECT ? x->u.select.operand : NULL) {
        const char *part = x->kind == CEL_EXPR_SELECT ? x->u.select.field : x->u.ident.name;
        size_t n = strlen(part);
        end -= n;
        memcpy(out + end, part, n);
        if (end > 0)
            out[--end] = '.';
    }
    return out;
}

/* '{' consumed after a qualified name: [['?'] field ':' expr {',' ...}] [','] '}' */
static cel_expr *parse_struct(cel_parser *p, uint32_t offset, const cel_expr *name)
{
    expr_vec values = {0};
    flag_vec opt = {0};
    const char **fields = NULL;
    uint32_t fcap = 0;
    while (!at_tok(p, CEL_TOK_RBRACE)) {
        bool is_opt = p->opts->enable_optional_syntax && accept(p, CEL_TOK_QUESTION);
        bool quoted;
        const char *f = parse_field_name(p, &quoted);
        if (!f || !expect(p, CEL_TOK_COLON))
            return NULL;
        cel_expr *v = parse_expr(p);
        if (!v)
            return NULL;
        if (values.n == fcap) {
            uint32_t ncap = fcap ? fcap * 2 : 4;
            fields = rp_arena_realloc(p->a, fields, fcap * sizeof *fields, ncap * sizeof *fields);
            fcap = ncap;
        }
        fields[values.n] = f;
        flag_set(p, &opt, values.n, is_opt);
        vec_push(p, &values, v);
        if (!accept(p, CEL_TOK_COMMA))
            break;
    }
    if (!expect(p, CEL_TOK_RBRACE))
        return NULL;
    cel_expr *s = new_node(p, CEL_EXPR_STRUCT, offset);
    s->u.strct.type_name = qualified_name(p, name);
    s->u.strct.fields = fields;
    s->u.strct.values = values.v;
    s->u.strct.n = values.n;
    s->u.strct.optional = opt.v;
    return s;
}

/* ['.'] IDENT ['(' args ')']; *name_only says whether the result may name a message type. */
static cel_expr *parse_ident_or_call(cel_parser *p, bool *name_only)
{
    uint32_t offset = p->tok.start;
    bool leading_dot = accept(p, CEL_TOK_DOT);
    cel_token t = p->tok;
    if (t.kind != CEL_TOK_IDENT)
        return unexpected(p, "IDENTIFIER");
    if (is_reserved(p->src + t.start, t.end - t.start)) {
        cel_parser_error(p, t.start, "reserved identifier: %.*s", (int)(t.end - t.start),
                         p->src + t.start);
        return NULL;
    }
    advance(p);
    char *name;
    if (leading_dot) {
        name = rp_arena_alloc(p->a, t.end - t.start + 2);
        name[0] = '.';
        memcpy(name + 1, p->src + t.start, t.end - t.start);
        name[t.end - t.start + 1] = '\0';
    } else {
        name = tok_text(p, t);
    }
    if (accept(p, CEL_TOK_LPAREN)) {
        expr_vec args = {0};
        if (!parse_args(p, &args))
            return NULL;
        *name_only = false;
        return make_call(p, t.start, NULL, name, &args);
    }
    *name_only = true;
    return cel_ast_ident(p->a, p->next_id, offset, name);
}

static cel_expr *parse_primary(cel_parser *p, bool negate, bool *name_only)
{
    cel_token t = p->tok;
    *name_only = false;
    switch (t.kind) {
    case CEL_TOK_DOT:
    case CEL_TOK_IDENT:
        return parse_ident_or_call(p, name_only);
    case CEL_TOK_LPAREN: {
        advance(p);
        cel_expr *e = parse_expr(p);
        if (!e || !expect(p, CEL_TOK_RPAREN))
            return NULL;
        return e;
    }
    case CEL_TOK_LBRACKET:
        advance(p);
        return parse_list(p, t.start);
    case CEL_TOK_LBRACE:
        advance(p);
        return parse_map(p, t.start);
    case CEL_TOK_INT:
    case CEL_TOK_UINT:
        advance(p);
        return parse_int(p, t, negate);
    case CEL_TOK_DOUBLE:
        advance(p);
        return parse_double(p, t, negate);
    case CEL_TOK_STRING:
    case CEL_TOK_BYTES:
        advance(p);
        return parse_string(p, t);
    case CEL_TOK_TRUE:
    case CEL_TOK_FALSE:
        advance(p);
        return cel_ast_const(p->a, p->next_id, t.start, cel_bool(t.kind == CEL_TOK_TRUE));
    case CEL_TOK_NULL:
        advance(p);
        return cel_ast_const(p->a, p->next_id, t.start, cel_null());
    default:
        return unexpected(p, expecting_expr);
    }
}

/* '.' consumed: ['?'] field ['(' args ')'] applied to e. */
static cel_expr *parse_dot(cel_parser *p, cel_expr *e, uint32_t dot, bool *name_only)
{
    bool opt = p->opts->enable_optional_syntax && accept(p, CEL_TOK_QUESTION);
    cel_token ft = p->tok;
    bool quoted;
    const char *field = parse_field_name(p, &quoted);
    if (!field)
        return NULL;
    if (!opt && !quoted && at_tok(p, CEL_TOK_LPAREN)) {
        advance(p);
        expr_vec args = {0};
        if (!parse_args(p, &args))
            return NULL;
        *name_only = false;
        return make_call(p, ft.start, e, field, &args);
    }
    if (opt) {
        *name_only = false;
        cel_expr *name =
            cel_ast_const(p->a, p->next_id, ft.start, cel_string_ref(field, strlen(field)));
        return binary(p, dot, "_?._", e, name);
    }
    if (quoted)
        *name_only = false;
    return cel_ast_select(p->a, p->next_id, dot, e, field, false);
}

static cel_expr *parse_member(cel_parser *p, bool negate)
{
    bool name_only;
    cel_expr *e = parse_primary(p, negate, &name_only);
    while (e) {
        cel_token t = p->tok;
        if (t.kind == CEL_TOK_DOT) {
            advance(p);
            e = parse_dot(p, e, t.start, &name_only);
        } else if (t.kind == CEL_TOK_LBRACKET) {
            advance(p);
            bool opt = p->opts->enable_optional_syntax && accept(p, CEL_TOK_QUESTION);
            cel_expr *index = parse_expr(p);
            if (!index || !expect(p, CEL_TOK_RBRACKET))
                return NULL;
            e = binary(p, t.start, opt ? "_[?_]" : "_[_]", e, index);
            name_only = false;
        } else if (t.kind == CEL_TOK_LBRACE && name_only) {
            advance(p);
            e = parse_struct(p, t.start, e);
            name_only = false;
        } else {
            break;
        }
    }
    return e;
}

static cel_expr *parse_unary(cel_parser *p)
{
    cel_token t = p->tok;
    if (t.kind != CEL_TOK_NOT && t.kind != CEL_TOK_MINUS)
        return parse_member(p, false);
    unsigned n = 0;
    while (accept(p, t.kind))
        n++;
    /* A single '-' before a number literal is part of the literal, so that
     * -9223372036854775808 is an int. Pairs of '!' or '-' cancel out, as in cel-go. */
    bool fold =
        t.kind == CEL_TOK_MINUS && n == 1 && (at_tok(p, CEL_TOK_INT) || at_tok(p, CEL_TOK_DOUBLE));
    p->minus_offset = t.start;
    cel_expr *e = parse_member(p, fold);
    if (!e || fold || n % 2 == 0)
        return e;
    return cel_ast_call1(p->a, p->next_id, t.start, t.kind == CEL_TOK_NOT ? "!_" : "-_", e);
}

static const char *mul_op(cel_tok_kind k)
{
    switch (k) {
    case CEL_TOK_STAR:
        return "_*_";
    case CEL_TOK_SLASH:
        return "_/_";
    case CEL_TOK_PERCENT:
        return "_%_";
    default:
        return NULL;
    }
}

static const char *add_op(cel_tok_kind k)
{
    switch (k) {
    case CEL_TOK_PLUS:
        return "_+_";
    case CEL_TOK_MINUS:
        return "_-_";
    default:
        return NULL;
    }
}

static const char *rel_op(cel_tok_kind k)
{
    switch (k) {
    case CEL_TOK_LESS:
        return "_<_";
    case CEL_TOK_LESS_EQ:
        return "_<=_";
    case CEL_TOK_GREATER:
        return "_>_";
    case CEL_TOK_GREATER_EQ:
        return "_>=_";
    case CEL_TOK_EQ:
        return "_==_";
    case CEL_TOK_NOT_EQ:
        return "_!=_";
    case CEL_TOK_IN:
        return "@in";
    default:
        return NULL;
    }
}

static cel_expr *parse_mul(cel_parser *p)
{
    cel_expr *e = parse_unary(p);
    const char *fn;
    while (e && (fn = mul_op(p->tok.kind))) {
        uint32_t off = p->tok.start;
        advance(p);
        cel_expr *r = parse_unary(p);
        e = r ? binary(p, off, fn, e, r) : NULL;
    }
    return e;
}

static cel_expr *parse_add(cel_parser *p)
{
    cel_expr *e = parse_mul(p);
    const char *fn;
    while (e && (fn = add_op(p->tok.kind))) {
        uint32_t off = p->tok.start;
        advance(p);
        cel_expr *r = parse_mul(p);
        e = r ? binary(p, off, fn, e, r) : NULL;
    }
    return e;
}

static cel_expr *parse_rel(cel_parser *p)
{
    cel_expr *e = parse_add(p);
    const char *fn;
    while (e && (fn = rel_op(p->tok.kind))) {
        uint32_t off = p->tok.start;
        advance(p);
        cel_expr *r = parse_add(p);
        e = r ? binary(p, off, fn, e, r) : NULL;
    }
    return e;
}

/* terms[lo..hi+1] joined by ops[lo..hi] as a balanced tree (cel-go's balancer), so that long
 * `a || b || c ...` chains stay shallow for the evaluator. */
static cel_expr *balance(cel_parser *p, const char *fn, cel_expr **terms, const uint32_t *ops,
                         uint32_t lo, uint32_t hi)
{
    uint32_t mid = (lo + hi + 1) / 2;
    cel_expr *left = mid == lo ? terms[mid] : balance(p, fn, terms, ops, lo, mid - 1);
    cel_expr *right = mid == hi ? terms[mid + 1] : balance(p, fn, terms, ops, mid + 1, hi);
    return binary(p, ops[mid], fn, left, right);
}

static cel_expr *parse_logical(cel_parser *p, cel_tok_kind op, const char *fn,
                               cel_expr *(*operand)(cel_parser *))
{
    cel_expr *first = operand(p);
    if (!first || !at_tok(p, op))
        return first;
    expr_vec terms = {0};
    uint32_t *ops = NULL;
    uint32_t ocap = 0, nops = 0;
    vec_push(p, &terms, first);
    while (at_tok(p, op)) {
        if (nops == ocap) {
            uint32_t ncap = ocap ? ocap * 2 : 4;
            ops = rp_arena_realloc(p->a, ops, ocap * sizeof *ops, ncap * sizeof *ops);
            ocap = ncap;
        }
        ops[nops++] = p->tok.start;
        advance(p);
        cel_expr *e = operand(p);
        if (!e)
            return NULL;
        vec_push(p, &terms, e);
    }
    return balance(p, fn, terms.v, ops, 0, nops - 1);
}

static cel_expr *parse_and(cel_parser *p)
{
    return parse_logical(p, CEL_TOK_AND, "_&&_", parse_rel);
}

static cel_expr *parse_or(cel_parser *p)
{
    return parse_logical(p, CEL_TOK_OR, "_||_", parse_and);
}

static cel_expr *parse_expr(cel_parser *p)
{
    if (p->depth >= CEL_PARSE_MAX_DEPTH) {
        cel_parser_error(p, p->tok.start, "expression nested too deeply");
        return NULL;
    }
    p->depth++;
    cel_expr *e = parse_or(p);
    if (e && at_tok(p, CEL_TOK_QUESTION)) {
        uint32_t off = p->tok.start;
        advance(p);
        cel_expr *t = parse_or(p);
        cel_expr *f = NULL;
        if (t && expect(p, CEL_TOK_COLON))
            f = parse_expr(p);
        e = f ? cel_ast_call3(p->a, p->next_id, off, "_?_:_", e, t, f) : NULL;
    }
    p->depth--;
    return e;
}

cel_expr *cel_parse(rp_arena *a, const char *src, size_t len, const cel_parse_opts *opts,
                    int64_t *next_id, cel_source_error *err)
{
    static const cel_parse_opts defaults = {0};
    cel_parser p = {.a = a, .src = src, .len = len, .next_id = next_id, .err = err};
    p.opts = opts ? opts : &defaults;
    memset(err, 0, sizeof *err);
    if (len > CEL_PARSE_MAX_SOURCE) {
        p.len = 0; /* position 1:1 without scanning the whole text */
        cel_parser_error(&p, 0, "expression too long (%zu bytes; the limit is %d)", len,
                         CEL_PARSE_MAX_SOURCE);
        return NULL;
    }
    size_t valid = rp_utf8_valid_prefix(src, len);
    if (valid != len) {
        cel_parser_error(&p, valid, "invalid UTF-8 in expression");
        return NULL;
    }
    cel_lexer_init(&p.lx, src, len);
    advance(&p);
    cel_expr *e = parse_expr(&p);
    if (e && !at_tok(&p, CEL_TOK_EOF))
        e = unexpected(&p, "<EOF>");
    if (!e) {
        if (!p.failed) /* every path reports; this is a safety net */
            cel_parser_error(&p, 0, "Syntax error");
        return NULL;
    }
    const cel_expr *deep = cel_ast_too_tall(a, e, CEL_AST_MAX_HEIGHT, NULL);
    if (deep) {
        cel_parser_error(&p, deep->offset, "expression nested too deeply");
        return NULL;
    }
    return e;
}
