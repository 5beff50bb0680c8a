/* ast.h — the parsed form of a CEL expression.
 *
 * The shape follows cel-spec's syntax.proto (Expr): constants, identifiers, selections, calls,
 * list and map literals, message construction, and comprehensions. Operators are calls with the
 * spec's function names ("_+_", "_&&_", "_?_:_", "_[_]", "!_", "-_", "@in", ...), and the parser
 * also records them as a cel_op so the evaluator never compares names at run time. Macros
 * (has, all, exists, exists_one, map, filter) are expanded by the parser exactly as the spec
 * expands them: has(a.b) is a test-only select, the others are comprehensions.
 *
 * Every node has a unique id (1, 2, 3, ... in creation order) and the byte offset of the token
 * that produced it, so errors found after parsing can still point at a line and column. All
 * nodes live in the program's arena. */
#ifndef RAMPART_CEL_AST_H
#define RAMPART_CEL_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "cel/value.h"

struct cel_function;

typedef enum cel_expr_kind {
    CEL_EXPR_CONST = 0,
    CEL_EXPR_IDENT,
    CEL_EXPR_SELECT,
    CEL_EXPR_CALL,
    CEL_EXPR_LIST,
    CEL_EXPR_MAP,
    CEL_EXPR_STRUCT, /* message construction: Name{field: value, ...} */
    CEL_EXPR_COMPREHENSION
} cel_expr_kind;

/* Operators and the special forms the evaluator implements itself. CEL_OP_NONE is an ordinary
 * function looked up in the function table (cel_expr.u.call.fn). */
typedef enum cel_op {
    CEL_OP_NONE = 0,
    CEL_OP_CONDITIONAL,       /* _?_:_ */
    CEL_OP_AND,               /* _&&_ */
    CEL_OP_OR,                /* _||_ */
    CEL_OP_NOT,               /* !_ */
    CEL_OP_NEGATE,            /* -_ */
    CEL_OP_ADD,               /* _+_ */
    CEL_OP_SUBTRACT,          /* _-_ */
    CEL_OP_MULTIPLY,          /* _*_ */
    CEL_OP_DIVIDE,            /* _/_ */
    CEL_OP_MODULO,            /* _%_ */
    CEL_OP_EQUALS,            /* _==_ */
    CEL_OP_NOT_EQUALS,        /* _!=_ */
    CEL_OP_LESS,              /* _<_ */
    CEL_OP_LESS_EQUALS,       /* _<=_ */
    CEL_OP_GREATER,           /* _>_ */
    CEL_OP_GREATER_EQUALS,    /* _>=_ */
    CEL_OP_IN,                /* @in */
    CEL_OP_INDEX,             /* _[_] */
    CEL_OP_OPT_INDEX,         /* _[?_]  (optional index) */
    CEL_OP_OPT_SELECT,        /* _?._   (optional field: args are operand and a string const) */
    CEL_OP_NOT_STRICTLY_FALSE /* @not_strictly_false (loop condition of `all`/`exists`) */
} cel_op;

typedef struct cel_expr cel_expr;

struct cel_expr {
    cel_expr_kind kind;
    int64_t id;
    uint32_t offset; /* byte offset in the source of the token that produced the node */
    union {
        cel_value constant; /* CEL_EXPR_CONST (strings/bytes in the program arena) */
        struct {
            const char *name; /* NUL-terminated; may be dotted after resolution ("a.b.c") */
        } ident;
        struct {
            cel_expr *operand;
            const char *field;
            bool test_only; /* has(operand.field) */
        } select;
        struct {
            cel_expr *target; /* receiver, NULL for a global call */
            const char *function;
            cel_expr **args;
            uint32_t nargs;
            cel_op op;
            /* Set by compilation for CEL_OP_NONE: the implementation, or NULL when no such
             * function exists (evaluating the call is then an error). */
            const struct cel_function *fn;
            void *prepared; /* what fn->prepare returned for constant arguments, or NULL */
        } call;
        struct {
            cel_expr **elements;
            uint32_t n;
            const bool *optional; /* [?x] elements; NULL when none is optional */
        } list;
        struct {
            cel_expr **keys;
            cel_expr **values;
            uint32_t n;
            const bool *optional; /* {?k: v} entries; NULL when none is optional */
        } map;
        struct {
            const char *type_name;
            const char **fields;
            cel_expr **values;
            uint32_t n;
            const bool *optional; /* {?f: v} fields; NULL when none is optional */
        } strct;
        struct {
            const char *iter_var;
            const char *iter_var2; /* NULL unless a two-variable comprehension */
            cel_expr *iter_range;
            const char *accu_var;
            cel_expr *accu_init;
            cel_expr *loop_condition;
            cel_expr *loop_step;
            cel_expr *result;
        } comp;
    } u;
};

/* The spec name of an operator ("_+_"), and the operator of a name (CEL_OP_NONE if none). */
const char *cel_op_name(cel_op op);
cel_op cel_op_from_name(const char *name);

/* S-expression-like dump for tests and `rampart cel --ast`:
 *   _+_(1, x), a.b, has(a.b)→ a.b~test, [1, 2], {"k": v}, Msg{f: 1},
 *   __comprehension__(iter_var, range, accu_var, init, cond, step, result). */
void cel_expr_dump(rp_buf *out, const cel_expr *e);

#endif
