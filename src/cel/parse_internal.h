/* parse_internal.h — what parse.c, macros.c and ast.c share (not a public interface). */
#ifndef RAMPART_CEL_PARSE_INTERNAL_H
#define RAMPART_CEL_PARSE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "cel/ast.h"
#include "cel/lex.h"
#include "cel/parse.h"

/* The height bound every tree is checked against (see parse.h). */
#define CEL_AST_MAX_HEIGHT CEL_PARSE_MAX_HEIGHT

/* Nodes that optMap/optFlatMap may copy in one parse. Chained `o.optMap(..).optMap(..)` copies
 * a growing target each time (as cel-go does), which would otherwise grow exponentially. */
#define CEL_PARSE_MAX_COPIED_NODES 100000

#define CEL_ACCU_VAR        "@result"
#define CEL_UNUSED_ITER_VAR "#unused"

typedef struct cel_parser {
    rp_arena *a;
    const char *src;
    size_t len;
    cel_lexer lx;
    cel_token tok; /* the current (not yet consumed) token */
    int depth;
    int64_t *next_id;
    const cel_parse_opts *opts;
    cel_source_error *err;
    size_t copied;         /* nodes copied by macro expansion so far */
    uint32_t minus_offset; /* the '-' folded into the number literal being parsed */
    bool failed;
} cel_parser;

/* Records the first error (later ones are ignored) at a byte offset. */
void cel_parser_error(cel_parser *p, size_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- node construction (ast.c); every node gets the next id ---- */
cel_expr *cel_ast_new(rp_arena *a, int64_t *next_id, cel_expr_kind kind, uint32_t offset);
cel_expr *cel_ast_ident(rp_arena *a, int64_t *next_id, uint32_t offset, const char *name);
cel_expr *cel_ast_const(rp_arena *a, int64_t *next_id, uint32_t offset, cel_value v);
cel_expr *cel_ast_select(rp_arena *a, int64_t *next_id, uint32_t offset, cel_expr *operand,
                         const char *field, bool test_only);
/* A call with `function` named by the spec; op is derived from the name for global calls. */
cel_expr *cel_ast_call(rp_arena *a, int64_t *next_id, uint32_t offset, cel_expr *target,
                       const char *function, cel_expr **args, uint32_t nargs);
cel_expr *cel_ast_call1(rp_arena *a, int64_t *next_id, uint32_t offset, const char *function,
                        cel_expr *x);
cel_expr *cel_ast_call2(rp_arena *a, int64_t *next_id, uint32_t offset, const char *function,
                        cel_expr *x, cel_expr *y);
cel_expr *cel_ast_call3(rp_arena *a, int64_t *next_id, uint32_t offset, const char *function,
                        cel_expr *x, cel_expr *y, cel_expr *z);
cel_expr *cel_ast_list(rp_arena *a, int64_t *next_id, uint32_t offset, cel_expr **elements,
                       uint32_t n);
/* A deep copy with fresh ids (the tree must be within CEL_AST_MAX_HEIGHT). */
cel_expr *cel_ast_copy(rp_arena *a, int64_t *next_id, const cel_expr *e);
/* The first node found deeper than max_height (iteratively, no recursion), or NULL. When
 * nodes is not NULL it receives the number of nodes visited. */
const cel_expr *cel_ast_too_tall(rp_arena *a, const cel_expr *root, int max_height, size_t *nodes);

/* ---- macros (macros.c) ---- */

/* If target/function/args form a macro call, sets *out to the expansion (NULL after an error
 * reported through p) and returns true; false when it is an ordinary call. */
bool cel_macro_expand(cel_parser *p, uint32_t offset, cel_expr *target, const char *function,
                      cel_expr **args, uint32_t nargs, cel_expr **out);

#endif
