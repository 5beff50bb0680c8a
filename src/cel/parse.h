/* parse.h — CEL source text to AST (lex.c, parse.c, macros.c).
 *
 * The grammar is cel-spec's langdef.md in full, with CEL's precedence. The parser expands the
 * standard macros unless disabled, rejects reserved identifiers, and limits nesting depth
 * (CEL_PARSE_MAX_DEPTH) and source size so hostile input cannot exhaust the stack. */
#ifndef RAMPART_CEL_PARSE_H
#define RAMPART_CEL_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "cel/ast.h"
#include "core/arena.h"

#define CEL_PARSE_MAX_DEPTH 250       /* nested expressions (parentheses, calls, ...) */
#define CEL_PARSE_MAX_SOURCE 100000   /* bytes of expression text */
/* Every tree cel_parse returns is at most this tall (nodes on the longest root-to-leaf path,
 * macro expansions included), so later passes may recurse over it without a check of their
 * own. Left-nested chains (`a + b + c ...`, `a.b.c ...`) are limited by this, not by the
 * parser's recursion depth. */
#define CEL_PARSE_MAX_HEIGHT (2 * CEL_PARSE_MAX_DEPTH)

typedef struct cel_source_error {
    size_t offset;  /* byte offset of the problem */
    int line;       /* 1-based */
    int col;        /* 1-based, in code points */
    char message[256];
} cel_source_error;

typedef struct cel_parse_opts {
    bool disable_macros; /* has/all/exists/... stay ordinary calls */
    bool enable_optional_syntax; /* `?.`, `[?`, `{?k: v}`; on by default in rampart (set by
                                    cel_compile) */
} cel_parse_opts;

/* Parses src[0..len) into nodes allocated from `a`. Returns the root, or NULL with *err set
 * (message like "Syntax error: mismatched input ')' expecting ..."; line and col of the
 * offending token). `next_id` starts at 1 and is advanced past the ids used. */
cel_expr *cel_parse(rp_arena *a, const char *src, size_t len, const cel_parse_opts *opts,
                    int64_t *next_id, cel_source_error *err);

/* Line and column (1-based, column in code points) of a byte offset. */
void cel_source_position(const char *src, size_t len, size_t offset, int *line, int *col);

#endif
