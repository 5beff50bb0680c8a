/* lex.h — the CEL tokenizer (private to the parser).
 *
 * The lexer only delimits tokens; literal text (numbers, strings, bytes) is decoded by the
 * parser with cel_lex_decode_string so that the token stream itself never allocates. */
#ifndef RAMPART_CEL_LEX_H
#define RAMPART_CEL_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"

typedef enum cel_tok_kind {
    CEL_TOK_EOF = 0,
    CEL_TOK_ERROR, /* lexical error: cel_lexer.error says why */
    CEL_TOK_IDENT,
    CEL_TOK_QUOTED_IDENT, /* `a-b.c` (field names only) */
    CEL_TOK_INT,
    CEL_TOK_UINT,
    CEL_TOK_DOUBLE,
    CEL_TOK_STRING, /* includes prefix and quotes; decode with cel_lex_decode_string */
    CEL_TOK_BYTES,
    CEL_TOK_TRUE,
    CEL_TOK_FALSE,
    CEL_TOK_NULL,
    CEL_TOK_IN,
    CEL_TOK_LPAREN,
    CEL_TOK_RPAREN,
    CEL_TOK_LBRACKET,
    CEL_TOK_RBRACKET,
    CEL_TOK_LBRACE,
    CEL_TOK_RBRACE,
    CEL_TOK_DOT,
    CEL_TOK_COMMA,
    CEL_TOK_COLON,
    CEL_TOK_QUESTION,
    CEL_TOK_NOT,
    CEL_TOK_MINUS,
    CEL_TOK_PLUS,
    CEL_TOK_STAR,
    CEL_TOK_SLASH,
    CEL_TOK_PERCENT,
    CEL_TOK_LESS,
    CEL_TOK_LESS_EQ,
    CEL_TOK_GREATER,
    CEL_TOK_GREATER_EQ,
    CEL_TOK_EQ,
    CEL_TOK_NOT_EQ,
    CEL_TOK_AND,
    CEL_TOK_OR
} cel_tok_kind;

typedef struct cel_token {
    cel_tok_kind kind;
    uint32_t start; /* byte offsets of the token text [start, end) */
    uint32_t end;
} cel_token;

typedef struct cel_lexer {
    const char *src;
    size_t len;
    size_t pos;
    const char *error; /* set with a CEL_TOK_ERROR token (static string) */
} cel_lexer;

void cel_lexer_init(cel_lexer *lx, const char *src, size_t len);
/* The next token; CEL_TOK_EOF at the end (repeatedly). */
cel_token cel_lex_next(cel_lexer *lx);
/* How a token kind is named in "expecting ..." messages ("')'", "<EOF>", ...). */
const char *cel_tok_name(cel_tok_kind kind);

/* Decodes a STRING or BYTES token's text (prefix, quotes, escapes) into arena memory (the
 * result is NUL-terminated for convenience, *out_len excludes it). Returns 0, or -1 with
 * *err_msg and *err_offset (byte offset in text) describing an invalid escape. */
int cel_lex_decode_string(rp_arena *a, const char *text, size_t len, char **out, size_t *out_len,
                          const char **err_msg, size_t *err_offset);

#endif
