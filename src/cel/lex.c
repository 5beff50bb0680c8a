/* lex.c — the CEL tokenizer, following the lexer rules of cel-spec's CEL.g4.
 *
 * Keywords `true false null in` are their own tokens; the reserved words (`if`, `for`, ...)
 * are ordinary identifiers here because CEL allows them as field and function names after a
 * dot; the parser rejects them where they would name a variable or global function. */
#include "cel/lex.h"

#include <string.h>

#include "core/utf8.h"

void cel_lexer_init(cel_lexer *lx, const char *src, size_t len)
{
    lx->src = src;
    lx->len = len;
    lx->pos = 0;
    lx->error = NULL;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(char c)
{
    return is_ident_start(c) || is_digit(c);
}

static char at(const cel_lexer *lx, size_t i)
{
    return i < lx->len ? lx->src[i] : '\0';
}

static void skip_space_and_comments(cel_lexer *lx)
{
    while (lx->pos < lx->len) {
        char c = lx->src[lx->pos];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
            lx->pos++;
        } else if (c == '/' && at(lx, lx->pos + 1) == '/') {
            while (lx->pos < lx->len && lx->src[lx->pos] != '\n')
                lx->pos++;
        } else {
            break;
        }
    }
}

static cel_token make(cel_tok_kind kind, size_t start, size_t end)
{
    cel_token t = {kind, (uint32_t)start, (uint32_t)end};
    return t;
}

static cel_token lex_error(cel_lexer *lx, size_t start, const char *msg)
{
    lx->error = msg;
    lx->pos = lx->len; /* no recovery: the parser reports the first error only */
    return make(CEL_TOK_ERROR, start, start + 1);
}

/* An exponent `e[+-]?digits` at i: its length, or 0 when there is none. */
static size_t exponent_len(const cel_lexer *lx, size_t i)
{
    char c = at(lx, i);
    if (c != 'e' && c != 'E')
        return 0;
    size_t j = i + 1;
    if (at(lx, j) == '+' || at(lx, j) == '-')
        j++;
    if (!is_digit(at(lx, j)))
        return 0;
    while (is_digit(at(lx, j)))
        j++;
    return j - i;
}

static cel_token lex_number(cel_lexer *lx, size_t start)
{
    size_t i = start;
    if (at(lx, i) == '0' && (at(lx, i + 1) == 'x' || at(lx, i + 1) == 'X') &&
        rp_hex_digit(at(lx, i + 2)) >= 0) {
        i += 2;
        while (rp_hex_digit(at(lx, i)) >= 0)
            i++;
        if (at(lx, i) == 'u' || at(lx, i) == 'U') {
            lx->pos = i + 1;
            return make(CEL_TOK_UINT, start, i + 1);
        }
        lx->pos = i;
        return make(CEL_TOK_INT, start, i);
    }
    bool is_double = false;
    if (at(lx, i) == '.') { /* ".5" */
        is_double = true;
        i++;
    }
    while (is_digit(at(lx, i)))
        i++;
    if (!is_double && at(lx, i) == '.' && is_digit(at(lx, i + 1))) {
        is_double = true;
        i++;
        while (is_digit(at(lx, i)))
            i++;
    }
    size_t e = exponent_len(lx, i);
    if (e) {
        is_double = true;
        i += e;
    }
    if (!is_double && (at(lx, i) == 'u' || at(lx, i) == 'U')) {
        lx->pos = i + 1;
        return make(CEL_TOK_UINT, start, i + 1);
    }
    lx->pos = i;
    return make(is_double ? CEL_TOK_DOUBLE : CEL_TOK_INT, start, i);
}

/* A string or bytes literal whose quote starts at q (the prefix, if any, starts at start). */
static cel_token lex_string(cel_lexer *lx, size_t start, size_t q, bool raw, bool bytes)
{
    char quote = lx->src[q];
    bool triple = at(lx, q + 1) == quote && at(lx, q + 2) == quote;
    size_t i = q + (triple ? 3 : 1);
    for (;;) {
        if (i >= lx->len)
            return lex_error(lx, start, "unterminated string literal");
        char c = lx->src[i];
        if (c == '\\' && !raw) {
            i += 2; /* the escape itself is validated when decoding */
            continue;
        }
        if (triple) {
            if (c == quote && at(lx, i + 1) == quote && at(lx, i + 2) == quote) {
                i += 3;
                break;
            }
        } else {
            if (c == '\n' || c == '\r')
                return lex_error(lx, start, "unterminated string literal");
            if (c == quote) {
                i++;
                break;
            }
        }
        i++;
    }
    lx->pos = i;
    return make(bytes ? CEL_TOK_BYTES : CEL_TOK_STRING, start, i);
}

/* true, false, null and in: the only words that are not identifiers. */
static cel_tok_kind keyword_kind(const char *w, size_t n)
{
    if (n == 2 && memcmp(w, "in", 2) == 0)
        return CEL_TOK_IN;
    if (n == 4 && memcmp(w, "true", 4) == 0)
        return CEL_TOK_TRUE;
    if (n == 4 && memcmp(w, "null", 4) == 0)
        return CEL_TOK_NULL;
    if (n == 5 && memcmp(w, "false", 5) == 0)
        return CEL_TOK_FALSE;
    return CEL_TOK_IDENT;
}

static cel_token lex_word(cel_lexer *lx, size_t start)
{
    size_t i = start;
    while (is_ident_char(at(lx, i)))
        i++;
    size_t n = i - start;
    const char *w = lx->src + start;
    /* String prefixes: r, b and their combinations in either case and order. */
    char q = at(lx, i);
    if ((q == '"' || q == '\'') && n <= 2) {
        bool raw = false, bytes = false, ok = true;
        for (size_t k = 0; k < n; k++) {
            char c = w[k];
            if ((c == 'r' || c == 'R') && !raw)
                raw = true;
            else if ((c == 'b' || c == 'B') && !bytes)
                bytes = true;
            else
                ok = false;
        }
        if (ok)
            return lex_string(lx, start, i, raw, bytes);
    }
    lx->pos = i;
    return make(keyword_kind(w, n), start, i);
}

/* `...` escaped field names: letters, digits, '_', '.', '-', '/' and ' ' (as cel-go). */
static cel_token lex_quoted_ident(cel_lexer *lx, size_t start)
{
    size_t i = start + 1;
    while (i < lx->len && lx->src[i] != '`') {
        char c = lx->src[i];
        if (!(is_ident_char(c) || c == '.' || c == '-' || c == '/' || c == ' '))
            return lex_error(lx, i, "invalid character in quoted identifier");
        i++;
    }
    if (i >= lx->len || i == start + 1)
        return lex_error(lx, start, "invalid quoted identifier");
    lx->pos = i + 1;
    return make(CEL_TOK_QUOTED_IDENT, start, i + 1);
}

cel_token cel_lex_next(cel_lexer *lx)
{
    skip_space_and_comments(lx);
    size_t s = lx->pos;
    if (s >= lx->len)
        return make(CEL_TOK_EOF, lx->len, lx->len);
    char c = lx->src[s];
    char n = at(lx, s + 1);
    cel_tok_kind k;
    size_t width = 1;
    switch (c) {
    case '(':
        k = CEL_TOK_LPAREN;
        break;
    case ')':
        k = CEL_TOK_RPAREN;
        break;
    case '[':
        k = CEL_TOK_LBRACKET;
        break;
    case ']':
        k = CEL_TOK_RBRACKET;
        break;
    case '{':
        k = CEL_TOK_LBRACE;
        break;
    case '}':
        k = CEL_TOK_RBRACE;
        break;
    case '.':
        if (is_digit(n))
            return lex_number(lx, s);
        k = CEL_TOK_DOT;
        break;
    case ',':
        k = CEL_TOK_COMMA;
        break;
    case ':':
        k = CEL_TOK_COLON;
        break;
    case '?':
        k = CEL_TOK_QUESTION;
        break;
    case '+':
        k = CEL_TOK_PLUS;
        break;
    case '-':
        k = CEL_TOK_MINUS;
        break;
    case '*':
        k = CEL_TOK_STAR;
        break;
    case '/':
        k = CEL_TOK_SLASH;
        break;
    case '%':
        k = CEL_TOK_PERCENT;
        break;
    case '!':
        k = n == '=' ? CEL_TOK_NOT_EQ : CEL_TOK_NOT;
        width = n == '=' ? 2 : 1;
        break;
    case '<':
        k = n == '=' ? CEL_TOK_LESS_EQ : CEL_TOK_LESS;
        width = n == '=' ? 2 : 1;
        break;
    case '>':
        k = n == '=' ? CEL_TOK_GREATER_EQ : CEL_TOK_GREATER;
        width = n == '=' ? 2 : 1;
        break;
    case '=':
        if (n != '=')
            return lex_error(lx, s, "token recognition error");
        k = CEL_TOK_EQ;
        width = 2;
        break;
    case '&':
        if (n != '&')
            return lex_error(lx, s, "token recognition error");
        k = CEL_TOK_AND;
        width = 2;
        break;
    case '|':
        if (n != '|')
            return lex_error(lx, s, "token recognition error");
        k = CEL_TOK_OR;
        width = 2;
        break;
    case '"':
    case '\'':
        return lex_string(lx, s, s, false, false);
    case '`':
        return lex_quoted_ident(lx, s);
    default:
        if (is_digit(c))
            return lex_number(lx, s);
        if (is_ident_start(c))
            return lex_word(lx, s);
        return lex_error(lx, s, "token recognition error");
    }
    lx->pos = s + width;
    return make(k, s, s + width);
}

const char *cel_tok_name(cel_tok_kind kind)
{
    static const char *const names[] = {
        [CEL_TOK_EOF] = "<EOF>",        [CEL_TOK_ERROR] = "<error>",
        [CEL_TOK_IDENT] = "IDENTIFIER", [CEL_TOK_QUOTED_IDENT] = "ESC_IDENTIFIER",
        [CEL_TOK_INT] = "NUM_INT",      [CEL_TOK_UINT] = "NUM_UINT",
        [CEL_TOK_DOUBLE] = "NUM_FLOAT", [CEL_TOK_STRING] = "STRING",
        [CEL_TOK_BYTES] = "BYTES",      [CEL_TOK_TRUE] = "'true'",
        [CEL_TOK_FALSE] = "'false'",    [CEL_TOK_NULL] = "'null'",
        [CEL_TOK_IN] = "'in'",          [CEL_TOK_LPAREN] = "'('",
        [CEL_TOK_RPAREN] = "')'",       [CEL_TOK_LBRACKET] = "'['",
        [CEL_TOK_RBRACKET] = "']'",     [CEL_TOK_LBRACE] = "'{'",
        [CEL_TOK_RBRACE] = "'}'",       [CEL_TOK_DOT] = "'.'",
        [CEL_TOK_COMMA] = "','",        [CEL_TOK_COLON] = "':'",
        [CEL_TOK_QUESTION] = "'?'",     [CEL_TOK_NOT] = "'!'",
        [CEL_TOK_MINUS] = "'-'",        [CEL_TOK_PLUS] = "'+'",
        [CEL_TOK_STAR] = "'*'",         [CEL_TOK_SLASH] = "'/'",
        [CEL_TOK_PERCENT] = "'%'",      [CEL_TOK_LESS] = "'<'",
        [CEL_TOK_LESS_EQ] = "'<='",     [CEL_TOK_GREATER] = "'>'",
        [CEL_TOK_GREATER_EQ] = "'>='",  [CEL_TOK_EQ] = "'=='",
        [CEL_TOK_NOT_EQ] = "'!='",      [CEL_TOK_AND] = "'&&'",
        [CEL_TOK_OR] = "'||'",
    };
    if ((unsigned)kind < sizeof names / sizeof names[0] && names[kind])
        return names[kind];
    return "?";
}

/* ---- literal decoding ---- */

int cel_lex_decode_string(rp_arena *a, const char *text, size_t len, char **out, size_t *out_len,
                          const char **err_msg, size_t *err_offset)
{
    size_t i = 0;
    bool raw = false, bytes = false;
    while (i < len && text[i] != '"' && text[i] != '\'') {
        if (text[i] == 'r' || text[i] == 'R')
            raw = true;
        else
            bytes = true;
        i++;
    }
    char quote = text[i];
    size_t qlen =
        (i + 2 < len && text[i + 1] == quote && text[i + 2] == quote && len - i >= 6) ? 3 : 1;
    const char *s = text + i + qlen;
    const char *end = text + len - qlen;
    /* Escapes never expand: \U00010000 (10 bytes) is 4 bytes of UTF-8, \xFF 2 bytes. */
    char *buf = rp_arena_alloc(a, (size_t)(end - s) + 1);
    size_t o = 0;
    while (s < end) {
        char c = *s;
        if (c != '\\' || raw) {
            buf[o++] = c;
            s++;
            continue;
        }
        const char *esc = s;
        if (s + 1 >= end)
            goto bad;
        char e = s[1];
        s += 2;
        uint32_t cp;
        bool is_byte = false; /* \x and octal write one raw byte in bytes literals */
        switch (e) {
        case 'a':
            cp = 7;
            break;
        case 'b':
            cp = 8;
            break;
        case 'f':
            cp = 12;
            break;
        case 'n':
            cp = 10;
            break;
        case 'r':
            cp = 13;
            break;
        case 't':
            cp = 9;
            break;
        case 'v':
            cp = 11;
            break;
        case '\\':
        case '\'':
        case '"':
        case '`':
        case '?':
            cp = (uint32_t)e;
            break;
        case 'x':
        case 'X':
            if (!rp_hex_read(s, (size_t)(end - s), 2, &cp))
                goto bad;
            s += 2;
            is_byte = true;
            break;
        case 'u':
            if (!rp_hex_read(s, (size_t)(end - s), 4, &cp))
                goto bad;
            s += 4;
            break;
        case 'U':
            if (!rp_hex_read(s, (size_t)(end - s), 8, &cp))
                goto bad;
            s += 8;
            break;
        default:
            if (e >= '0' && e <= '3' && end - s >= 2 && s[0] >= '0' && s[0] <= '7' && s[1] >= '0' &&
                s[1] <= '7') {
                cp = (uint32_t)(e - '0') * 64 + (uint32_t)(s[0] - '0') * 8 + (uint32_t)(s[1] - '0');
                s += 2;
                is_byte = true;
                break;
            }
            goto bad;
        }
        if (bytes && is_byte) {
            buf[o++] = (char)cp;
            continue;
        }
        if (!rp_utf8_is_scalar(cp)) {
            *err_msg = "invalid unicode code point in escape sequence";
            *err_offset = (size_t)(esc - text);
            return -1;
        }
        o += rp_utf8_encode(cp, buf + o);
        continue;
    bad:
        *err_msg = "invalid escape sequence";
        *err_offset = (size_t)(esc - text);
        return -1;
    }
    buf[o] = '\0';
    *out = buf;
    *out_len = o;
    return 0;
}
