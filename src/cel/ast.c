/* ast.c — operator names, node construction, copies, height checks and the AST dump. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cel/parse_internal.h"

static const char *const op_names[] = {
    [CEL_OP_NONE] = NULL,
    [CEL_OP_CONDITIONAL] = "_?_:_",
    [CEL_OP_AND] = "_&&_",
    [CEL_OP_OR] = "_||_",
    [CEL_OP_NOT] = "!_",
    [CEL_OP_NEGATE] = "-_",
    [CEL_OP_ADD] = "_+_",
    [CEL_OP_SUBTRACT] = "_-_",
    [CEL_OP_MULTIPLY] = "_*_",
    [CEL_OP_DIVIDE] = "_/_",
    [CEL_OP_MODULO] = "_%_",
    [CEL_OP_EQUALS] = "_==_",
    [CEL_OP_NOT_EQUALS] = "_!=_",
    [CEL_OP_LESS] = "_<_",
    [CEL_OP_LESS_EQUALS] = "_<=_",
    [CEL_OP_GREATER] = "_>_",
    [CEL_OP_GREATER_EQUALS] = "_>=_",
    [CEL_OP_IN] = "@in",
    [CEL_OP_INDEX] = "_[_]",
    [CEL_OP_OPT_INDEX] = "_[?_]",
    [CEL_OP_OPT_SELECT] = "_?._",
    [CEL_OP_NOT_STRICTLY_FALSE] = "@not_strictly_false",
};

#define N_OPS (sizeof op_names / sizeof op_names[0])

const char *cel_op_name(cel_op op)
{
    if ((unsigned)op < N_OPS && op_names[op])
        return op_names[op];
    return "";
}

cel_op cel_op_from_name(const char *name)
{
    /* Operator names all start with '_', '!', '-' or '@'; ordinary functions never do, so
     * most lookups end at the first character. */
    if (!name || !(name[0] == '_' || name[0] == '!' || name[0] == '-' || name[0] == '@'))
        return CEL_OP_NONE;
    for (unsigned i = 1; i < N_OPS; i++) {
        if (strcmp(op_names[i], name) == 0)
            return (cel_op)i;
    }
    return CEL_OP_NONE;
}

/* ---- construction ---- */

cel_expr *cel_ast_new(rp_arena *a, int64_t *next_id, cel_expr_kind kind, uint32_t offset)
{
    cel_expr *e = rp_arena_calloc(a, sizeof *e);
    e->kind = kind;
    e->id = (*next_id)++;
    e->offset = offset;
    return e;
}

cel_expr *cel_ast_ident(rp_arena *a, int64_t *next_id, uint32_t offset, const char *name)
{
    cel_expr *e = cel_ast_new(a, next_id, CEL_EXPR_IDENT, offset);
    e->u.ident.name = name;
    return e;
}

cel_expr *cel_ast_const(rp_arena *a, int64_t *next_id, uint32_t offset, cel_value v)
{
    cel_expr *e = cel_ast_new(a, next_id, CEL_EXPR_CONST, offset);
    e->u.constant = v;
    return e;
}

cel_expr *cel_ast_select(rp_arena *a, int64_t *next_id, uint32_t offset, cel_expr *operand,
                         const char *field, bool test_only)
{
    cel_expr *e = cel_ast_new(a, next_id, CEL_EXPR_SELECT, offset);
    e->u.select.operand = operand;
    e->u.select.field = field;
    e->u.select.test_only = test_only;
    return e;
}

cel_expr *cel_ast_call(rp_arena *a, int64_t *next_id, uint32_t offset, cel_expr *target,
                       const char *function, cel_expr **args, uint32_t nargs)
{
    cel_expr *e = cel_ast_new(a, next_id, CEL_EXPR_CALL, offset);
    e->u.call.target = target;
    e->u.call.function = function;
    e->u.call.args = args;
    e->u.call.nargs = nargs;
    /* x.f() is never an operator, even when named like one. */
    e->u.call.op = target ? CEL_OP_NONE : cel_op_from_name(function);
    return e;
}

static cel_expr **args_of(rp_arena *a, uint32_t n)
{
    return rp_arena_alloc(a, sizeof(cel_expr *) * n);
}

cel_expr *cel_ast_call1(rp_arena *a, int64_t *next_id, uint32_t offset, const char *function,
                        cel_expr *x)
{
    cel_expr **args = args_of(a, 1);
    args[0] = x;
    return cel_ast_call(a, next_id, offset, NULL, function, args, 1);
}

cel_expr *cel_ast_call2(rp_arena *a, int64_t *next_id, uint32_t offset, const char *function,
                        cel_expr *x, cel_expr *y)
{
    cel_expr **args = args_of(a, 2);
    args[0] = x;
    args[1] = y;
    return cel_ast_call(a, next_id, offset, NULL, function, args, 2);
}

cel_expr *cel_ast_call3(rp_arena *a, int64_t *next_id, uint32_t offset, const char *function,
                        cel_expr *x, cel_expr *y, cel_expr *z)
{
    cel_expr **args = args_of(a, 3);
    args[0] = x;
    args[1] = y;
    args[2] = z;
    return cel_ast_call(a, next_id, offset, NULL, function, args, 3);
}

cel_expr *cel_ast_list(rp_arena *a, int64_t *next_id, uint32_t offset, cel_expr **elements,
                       uint32_t n)
{
    cel_expr *e = cel_ast_new(a, next_id, CEL_EXPR_LIST, offset);
    e->u.list.elements = elements;
    e->u.list.n = n;
    return e;
}

/* ---- children, copies, height ---- */

/* The children of e in evaluation order, into out (which has room for max); returns how many
 * there are (may exceed max, in which case only max were stored). */
static uint32_t children(const cel_expr *e, cel_expr **out, uint32_t max)
{
    uint32_t n = 0;
#define PUT(x)                                                                                     \
    do {                                                                                           \
        if (n < max)                                                                               \
            out[n] = (x);                                                                          \
        n++;                                                                                       \
    } while (0)
    switch (e->kind) {
    case CEL_EXPR_CONST:
    case CEL_EXPR_IDENT:
        break;
    case CEL_EXPR_SELECT:
        PUT(e->u.select.operand);
        break;
    case CEL_EXPR_CALL:
        if (e->u.call.target)
            PUT(e->u.call.target);
        for (uint32_t i = 0; i < e->u.call.nargs; i++)
            PUT(e->u.call.args[i]);
        break;
    case CEL_EXPR_LIST:
        for (uint32_t i = 0; i < e->u.list.n; i++)
            PUT(e->u.list.elements[i]);
        break;
    case CEL_EXPR_MAP:
        for (uint32_t i = 0; i < e->u.map.n; i++) {
            PUT(e->u.map.keys[i]);
            PUT(e->u.map.values[i]);
        }
        break;
    case CEL_EXPR_STRUCT:
        for (uint32_t i = 0; i < e->u.strct.n; i++)
            PUT(e->u.strct.values[i]);
        break;
    case CEL_EXPR_COMPREHENSION:
        PUT(e->u.comp.iter_range);
        PUT(e->u.comp.accu_init);
        PUT(e->u.comp.loop_condition);
        PUT(e->u.comp.loop_step);
        PUT(e->u.comp.result);
        break;
    }
#undef PUT
    return n;
}

static cel_expr **copy_vec(rp_arena *a, int64_t *next_id, cel_expr *const *v, uint32_t n)
{
    if (n == 0)
        return NULL;
    cel_expr **out = args_of(a, n);
    for (uint32_t i = 0; i < n; i++)
        out[i] = cel_ast_copy(a, next_id, v[i]);
    return out;
}

cel_expr *cel_ast_copy(rp_arena *a, int64_t *next_id, const cel_expr *e)
{
    if (!e)
        return NULL;
    cel_expr *c = cel_ast_new(a, next_id, e->kind, e->offset);
    c->u = e->u; /* scalars, names and flag arrays are immutable and shared */
    switch (e->kind) {
    case CEL_EXPR_CONST:
    case CEL_EXPR_IDENT:
        break;
    case CEL_EXPR_SELECT:
        c->u.select.operand = cel_ast_copy(a, next_id, e->u.select.operand);
        break;
    case CEL_EXPR_CALL:
        c->u.call.target = cel_ast_copy(a, next_id, e->u.call.target);
        c->u.call.args = copy_vec(a, next_id, e->u.call.args, e->u.call.nargs);
        break;
    case CEL_EXPR_LIST:
        c->u.list.elements = copy_vec(a, next_id, e->u.list.elements, e->u.list.n);
        break;
    case CEL_EXPR_MAP:
        c->u.map.keys = copy_vec(a, next_id, e->u.map.keys, e->u.map.n);
        c->u.map.values = copy_vec(a, next_id, e->u.map.values, e->u.map.n);
        break;
    case CEL_EXPR_STRUCT:
        c->u.strct.values = copy_vec(a, next_id, e->u.strct.values, e->u.strct.n);
        break;
    case CEL_EXPR_COMPREHENSION:
        c->u.comp.iter_range = cel_ast_copy(a, next_id, e->u.comp.iter_range);
        c->u.comp.accu_init = cel_ast_copy(a, next_id, e->u.comp.accu_init);
        c->u.comp.loop_condition = cel_ast_copy(a, next_id, e->u.comp.loop_condition);
        c->u.comp.loop_step = cel_ast_copy(a, next_id, e->u.comp.loop_step);
        c->u.comp.result = cel_ast_copy(a, next_id, e->u.comp.result);
        break;
    }
    return c;
}

typedef struct height_item {
    const cel_expr *e;
    int depth;
} height_item;

const cel_expr *cel_ast_too_tall(rp_arena *a, const cel_expr *root, int max_height, size_t *nodes)
{
    /* Depth-first with an explicit stack: this walk is what makes later recursion safe, so
     * it must not recurse itself. */
    size_t cap = 64, n = 0;
    height_item *stack = rp_arena_alloc(a, cap * sizeof *stack);
    stack[n++] = (height_item){root, 1};
    cel_expr *kids[8];
    size_t visited = 0;
    while (n > 0) {
        height_item it = stack[--n];
        visited++;
        if (it.depth > max_height)
            return it.e;
        uint32_t k = children(it.e, kids, 8);
        cel_expr **all = kids;
        if (k > 8) {
            all = args_of(a, k);
            children(it.e, all, k);
        }
        if (n + k > cap) {
            size_t ncap = (n + k) * 2;
            stack = rp_arena_realloc(a, stack, cap * sizeof *stack, ncap * sizeof *stack);
            cap = ncap;
        }
        for (uint32_t i = k; i > 0; i--) /* leftmost on top: errors point at the first */
            stack[n++] = (height_item){all[i - 1], it.depth + 1};
    }
    if (nodes)
        *nodes = visited;
    return NULL;
}

/* ---- dump ---- */

static void dump_double(rp_buf *out, double d)
{
    if (isnan(d)) {
        rp_buf_puts(out, "NaN");
        return;
    }
    if (isinf(d)) {
        rp_buf_puts(out, d < 0 ? "-Infinity" : "Infinity");
        return;
    }
    char tmp[40];
    for (int prec = 15; prec <= 17; prec++) { /* shortest text that reads back the same */
        snprintf(tmp, sizeof tmp, "%.*g", prec, d);
        if (strtod(tmp, NULL) == d)
            break;
    }
    rp_buf_puts(out, tmp);
    if (!strpbrk(tmp, ".e"))
        rp_buf_puts(out, ".0");
}

static void dump_const(rp_buf *out, const cel_value *v)
{
    switch (v->kind) {
    case CEL_NULL:
        rp_buf_puts(out, "null");
        break;
    case CEL_BOOL:
        rp_buf_puts(out, v->v.b ? "true" : "false");
        break;
    case CEL_INT:
        rp_buf_printf(out, "%lld", (long long)v->v.i);
        break;
    case CEL_UINT:
        rp_buf_printf(out, "%lluu", (unsigned long long)v->v.u);
        break;
    case CEL_DOUBLE:
        dump_double(out, v->v.d);
        break;
    case CEL_STRING:
        cel_format_quoted(out, v->v.s, v->len, false);
        break;
    case CEL_BYTES:
        cel_format_quoted(out, v->v.s, v->len, true);
        break;
    default:
        rp_buf_puts(out, "<const>");
        break;
    }
}

static void dump_opt(rp_buf *out, const bool *optional, uint32_t i)
{
    if (optional && optional[i])
        rp_buf_putc(out, '?');
}

void cel_expr_dump(rp_buf *out, const cel_expr *e)
{
    if (!e) {
        rp_buf_puts(out, "<null>");
        return;
    }
    switch (e->kind) {
    case CEL_EXPR_CONST:
        dump_const(out, &e->u.constant);
        break;
    case CEL_EXPR_IDENT:
        rp_buf_puts(out, e->u.ident.name);
        break;
    case CEL_EXPR_SELECT:
        cel_expr_dump(out, e->u.select.operand);
        rp_buf_printf(out, ".%s%s", e->u.select.field, e->u.select.test_only ? "~test" : "");
        break;
    case CEL_EXPR_CALL:
        if (e->u.call.target) {
            cel_expr_dump(out, e->u.call.target);
            rp_buf_putc(out, '.');
        }
        rp_buf_printf(out, "%s(", e->u.call.function);
        for (uint32_t i = 0; i < e->u.call.nargs; i++) {
            if (i)
                rp_buf_puts(out, ", ");
            cel_expr_dump(out, e->u.call.args[i]);
        }
        rp_buf_putc(out, ')');
        break;
    case CEL_EXPR_LIST:
        rp_buf_putc(out, '[');
        for (uint32_t i = 0; i < e->u.list.n; i++) {
            if (i)
                rp_buf_puts(out, ", ");
            dump_opt(out, e->u.list.optional, i);
            cel_expr_dump(out, e->u.list.elements[i]);
        }
        rp_buf_putc(out, ']');
        break;
    case CEL_EXPR_MAP:
        rp_buf_putc(out, '{');
        for (uint32_t i = 0; i < e->u.map.n; i++) {
            if (i)
                rp_buf_puts(out, ", ");
            dump_opt(out, e->u.map.optional, i);
            cel_expr_dump(out, e->u.map.keys[i]);
            rp_buf_puts(out, ": ");
            cel_expr_dump(out, e->u.map.values[i]);
        }
        rp_buf_putc(out, '}');
        break;
    case CEL_EXPR_STRUCT:
        rp_buf_printf(out, "%s{", e->u.strct.type_name);
        for (uint32_t i = 0; i < e->u.strct.n; i++) {
            if (i)
                rp_buf_puts(out, ", ");
            dump_opt(out, e->u.strct.optional, i);
            rp_buf_printf(out, "%s: ", e->u.strct.fields[i]);
            cel_expr_dump(out, e->u.strct.values[i]);
        }
        rp_buf_putc(out, '}');
        break;
    case CEL_EXPR_COMPREHENSION:
        rp_buf_printf(out, "__comprehension__(%s, ", e->u.comp.iter_var);
        if (e->u.comp.iter_var2)
            rp_buf_printf(out, "%s, ", e->u.comp.iter_var2);
        cel_expr_dump(out, e->u.comp.iter_range);
        rp_buf_printf(out, ", %s, ", e->u.comp.accu_var);
        cel_expr_dump(out, e->u.comp.accu_init);
        rp_buf_puts(out, ", ");
        cel_expr_dump(out, e->u.comp.loop_condition);
        rp_buf_puts(out, ", ");
        cel_expr_dump(out, e->u.comp.loop_step);
        rp_buf_puts(out, ", ");
        cel_expr_dump(out, e->u.comp.result);
        rp_buf_putc(out, ')');
        break;
    }
}
