/* macros.c — expansion of CEL's macros into comprehensions, exactly as cel-go expands them
 * (accumulator "@result"), so that conformance results and error behaviour match:
 *
 *   has(a.f)               a.f~test
 *   r.all(x, p)            init true,  cond @not_strictly_false(@result), step @result && p
 *   r.exists(x, p)         init false, cond @not_strictly_false(!@result), step @result || p
 *   r.exists_one(x, p)     init 0, cond true, step p ? @result + 1 : @result, result @result == 1
 *   r.map(x, f)            init [], step @result + [f]
 *   r.map(x, p, f)         step p ? @result + [f] : @result
 *   r.filter(x, p)         step p ? @result + [x] : @result
 *   two-variable forms (cel-go's ext.TwoVarComprehensions): all/exists/existsOne(i, v, p),
 *   transformList(i, v, [p,] f), transformMap(i, v, [p,] f) and transformMapEntry(i, v, [p,] e)
 *   (the last two step with the function "cel.@mapInsert").
 *   cel.bind(x, init, e)   iter_range [], accu_var x, accu_init init, cond false, step x,
 *                          result e
 *   o.optMap(x, e)         o.hasValue() ? optional.of(cel.bind(x, o.value(), e)) : optional.none()
 *   o.optFlatMap(x, e)     o.hasValue() ? cel.bind(x, o.value(), e) : optional.none()
 *   cel.block, cel.index, cel.iterVar, cel.accuVar: see expand_block.
 */
#include <string.h>

#include "cel/parse_internal.h"

typedef struct macro_ctx {
    cel_parser *p;
    uint32_t offset; /* the macro's name token: every generated node points there */
} macro_ctx;

static cel_expr *accu(const macro_ctx *m)
{
    return cel_ast_ident(m->p->a, m->p->next_id, m->offset, CEL_ACCU_VAR);
}

static cel_expr *lit(const macro_ctx *m, cel_value v)
{
    return cel_ast_const(m->p->a, m->p->next_id, m->offset, v);
}

static cel_expr *call1(const macro_ctx *m, const char *fn, cel_expr *x)
{
    return cel_ast_call1(m->p->a, m->p->next_id, m->offset, fn, x);
}

static cel_expr *call2(const macro_ctx *m, const char *fn, cel_expr *x, cel_expr *y)
{
    return cel_ast_call2(m->p->a, m->p->next_id, m->offset, fn, x, y);
}

static cel_expr *call3(const macro_ctx *m, const char *fn, cel_expr *x, cel_expr *y, cel_expr *z)
{
    return cel_ast_call3(m->p->a, m->p->next_id, m->offset, fn, x, y, z);
}

static cel_expr *member_call0(const macro_ctx *m, cel_expr *target, const char *fn)
{
    return cel_ast_call(m->p->a, m->p->next_id, m->offset, target, fn, NULL, 0);
}

static cel_expr *list1(const macro_ctx *m, cel_expr *x)
{
    cel_expr **el = NULL;
    uint32_t n = 0;
    if (x) {
        el = rp_arena_alloc(m->p->a, sizeof *el);
        el[0] = x;
        n = 1;
    }
    return cel_ast_list(m->p->a, m->p->next_id, m->offset, el, n);
}

static cel_expr *empty_map(const macro_ctx *m)
{
    return cel_ast_new(m->p->a, m->p->next_id, CEL_EXPR_MAP, m->offset);
}

static cel_expr *comprehension(const macro_ctx *m, const char *iter_var, const char *iter_var2,
                               cel_expr *range, const char *accu_var, cel_expr *init,
                               cel_expr *cond, cel_expr *step, cel_expr *result)
{
    cel_expr *c = cel_ast_new(m->p->a, m->p->next_id, CEL_EXPR_COMPREHENSION, m->offset);
    c->u.comp.iter_var = iter_var;
    c->u.comp.iter_var2 = iter_var2;
    c->u.comp.iter_range = range;
    c->u.comp.accu_var = accu_var;
    c->u.comp.accu_init = init;
    c->u.comp.loop_condition = cond;
    c->u.comp.loop_step = step;
    c->u.comp.result = result;
    return c;
}

/* The name of a simple identifier argument, or NULL after reporting an error. */
static const char *iter_var(const macro_ctx *m, const cel_expr *arg)
{
    if (arg->kind != CEL_EXPR_IDENT || arg->u.ident.name[0] == '.') {
        cel_parser_error(m->p, arg->offset, "argument must be a simple name");
        return NULL;
    }
    return arg->u.ident.name;
}

static cel_expr *expand_has(const macro_ctx *m, cel_expr *arg)
{
    if (arg->kind != CEL_EXPR_SELECT || arg->u.select.test_only) {
        cel_parser_error(m->p, arg->offset, "invalid argument to has() macro");
        return NULL;
    }
    return cel_ast_select(m->p->a, m->p->next_id, arg->offset, arg->u.select.operand,
                          arg->u.select.field, true);
}

typedef enum quantifier { Q_ALL, Q_EXISTS, Q_EXISTS_ONE } quantifier;

static cel_expr *expand_quantifier(const macro_ctx *m, quantifier q, cel_expr *range,
                                   const char *v1, const char *v2, cel_expr *pred)
{
    cel_expr *init, *cond, *step, *result;
    switch (q) {
    case Q_ALL:
        init = lit(m, cel_bool(true));
        cond = call1(m, "@not_strictly_false", accu(m));
        step = call2(m, "_&&_", accu(m), pred);
        result = accu(m);
        break;
    case Q_EXISTS:
        init = lit(m, cel_bool(false));
        cond = call1(m, "@not_strictly_false", call1(m, "!_", accu(m)));
        step = call2(m, "_||_", accu(m), pred);
        result = accu(m);
        break;
    default:
        init = lit(m, cel_int(0));
        cond = lit(m, cel_bool(true));
        step = call3(m, "_?_:_", pred, call2(m, "_+_", accu(m), lit(m, cel_int(1))), accu(m));
        result = call2(m, "_==_", accu(m), lit(m, cel_int(1)));
        break;
    }
    return comprehension(m, v1, v2, range, CEL_ACCU_VAR, init, cond, step, result);
}

/* map(x, f), map(x, p, f) and filter(x, p); transformList(i, v, [p,] f). */
static cel_expr *expand_map(const macro_ctx *m, cel_expr *range, const char *v1, const char *v2,
                            cel_expr *filter, cel_expr *transform)
{
    cel_expr *step = call2(m, "_+_", accu(m), list1(m, transform));
    if (filter)
        step = call3(m, "_?_:_", filter, step, accu(m));
    return comprehension(m, v1, v2, range, CEL_ACCU_VAR, list1(m, NULL), lit(m, cel_bool(true)),
                         step, accu(m));
}

/* transformMap(k, v, [p,] f) (with_key) and transformMapEntry(k, v, [p,] e). */
static cel_expr *expand_transform_map(const macro_ctx *m, cel_expr *range, const char *v1,
                                      const char *v2, cel_expr *filter, cel_expr *transform,
                                      bool with_key)
{
    cel_expr *step;
    if (with_key) {
        cel_expr *key = cel_ast_ident(m->p->a, m->p->next_id, m->offset, v1);
        step = call3(m, "cel.@mapInsert", accu(m), key, transform);
    } else {
        step = call2(m, "cel.@mapInsert", accu(m), transform);
    }
    if (filter)
        step = call3(m, "_?_:_", filter, step, accu(m));
    return comprehension(m, v1, v2, range, CEL_ACCU_VAR, empty_map(m), lit(m, cel_bool(true)), step,
                         accu(m));
}

/* cel.bind(var, init, result) */
static cel_expr *expand_bind(const macro_ctx *m, const char *var, cel_expr *init, cel_expr *result)
{
    cel_expr *step = cel_ast_ident(m->p->a, m->p->next_id, m->offset, var);
    return comprehension(m, CEL_UNUSED_ITER_VAR, NULL, list1(m, NULL), var, init,
                         lit(m, cel_bool(false)), step, result);
}

static cel_expr *expand_opt_map(const macro_ctx *m, cel_expr *target, const char *var,
                                cel_expr *body, bool flat)
{
    /* The target is evaluated twice (hasValue and value): copy it, as cel-go does. The copy
     * recurses, so the target's height is checked first, and the total copied is bounded
     * (the check costs no more than the copy it allows). */
    size_t nodes = 0;
    if (cel_ast_too_tall(m->p->a, target, CEL_AST_MAX_HEIGHT, &nodes)) {
        cel_parser_error(m->p, target->offset, "expression nested too deeply");
        return NULL;
    }
    m->p->copied += nodes;
    if (m->p->copied > CEL_PARSE_MAX_COPIED_NODES) {
        cel_parser_error(m->p, m->offset, "expression too complex: macro expansion too large");
        return NULL;
    }
    cel_expr *value = member_call0(m, cel_ast_copy(m->p->a, m->p->next_id, target), "value");
    cel_expr *bound = expand_bind(m, var, value, body);
    cel_expr *some = flat ? bound : call1(m, "optional.of", bound);
    cel_expr *none =
        cel_ast_call(m->p->a, m->p->next_id, m->offset, NULL, "optional.none", NULL, 0);
    return call3(m, "_?_:_", member_call0(m, target, "hasValue"), some, none);
}

static bool is(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

static bool nonnegative_int(const cel_expr *e)
{
    return e->kind == CEL_EXPR_CONST && e->u.constant.kind == CEL_INT && e->u.constant.v.i >= 0;
}

/* cel-go's block extension (common subexpression elimination output):
 *   cel.block([b0, b1, ...], e)  ->  cel.@block([b0, b1, ...], e)
 *   cel.index(N)                 ->  identifier @indexN
 *   cel.iterVar(N, M)            ->  identifier @it:N:M   (usable as a macro variable)
 *   cel.accuVar(N, M)            ->  identifier @ac:N:M
 * The evaluator binds @indexN to the Nth binding of the enclosing cel.@block. */
static bool expand_block(const macro_ctx *m, const char *function, cel_expr **args, uint32_t nargs,
                         cel_expr **out)
{
    cel_parser *p = m->p;
    if (is(function, "block") && nargs == 2) {
        if (args[0]->kind != CEL_EXPR_LIST) {
            cel_parser_error(p, args[0]->offset,
                             "cel.block requires the first arg to be a list literal");
            return true;
        }
        *out = call2(m, "cel.@block", args[0], args[1]);
        return true;
    }
    if (is(function, "index") && nargs == 1) {
        if (!nonnegative_int(args[0])) {
            cel_parser_error(p, args[0]->offset,
                             "cel.index requires a single non-negative int constant arg");
            return true;
        }
        *out =
            cel_ast_ident(p->a, p->next_id, m->offset,
                          rp_arena_sprintf(p->a, "@index%lld", (long long)args[0]->u.constant.v.i));
        return true;
    }
    bool iter = is(function, "iterVar");
    if ((iter || is(function, "accuVar")) && nargs == 2) {
        if (!nonnegative_int(args[0]) || !nonnegative_int(args[1])) {
            cel_parser_error(p, args[0]->offset,
                             "cel.%s requires two non-negative int constant args", function);
            return true;
        }
        *out = cel_ast_ident(p->a, p->next_id, m->offset,
                             rp_arena_sprintf(p->a, "@%s:%lld:%lld", iter ? "it" : "ac",
                                              (long long)args[0]->u.constant.v.i,
                                              (long long)args[1]->u.constant.v.i));
        return true;
    }
    return false;
}

bool cel_macro_expand(cel_parser *p, uint32_t offset, cel_expr *target, const char *function,
                      cel_expr **args, uint32_t nargs, cel_expr **out)
{
    macro_ctx m = {p, offset};
    *out = NULL;
    if (!target) {
        if (is(function, "has") && nargs == 1) {
            *out = expand_has(&m, args[0]);
            return true;
        }
        return false;
    }
    const char *v1 = NULL, *v2 = NULL;
    if (nargs == 2 &&
        (is(function, "all") || is(function, "exists") || is(function, "exists_one") ||
         is(function, "existsOne") || is(function, "map") || is(function, "filter"))) {
        if (!(v1 = iter_var(&m, args[0])))
            return true;
        if (is(function, "all"))
            *out = expand_quantifier(&m, Q_ALL, target, v1, NULL, args[1]);
        else if (is(function, "exists"))
            *out = expand_quantifier(&m, Q_EXISTS, target, v1, NULL, args[1]);
        else if (is(function, "map"))
            *out = expand_map(&m, target, v1, NULL, NULL, args[1]);
        else if (is(function, "filter")) /* the element kept is the variable itself */
            *out = expand_map(&m, target, v1, NULL, args[1],
                              cel_ast_ident(p->a, p->next_id, args[0]->offset, v1));
        else
            *out = expand_quantifier(&m, Q_EXISTS_ONE, target, v1, NULL, args[1]);
        return true;
    }
    if (nargs == 3 && is(function, "map")) {
        if (!(v1 = iter_var(&m, args[0])))
            return true;
        *out = expand_map(&m, target, v1, NULL, args[1], args[2]);
        return true;
    }
    bool two_var_q =
        nargs == 3 && (is(function, "all") || is(function, "exists") || is(function, "existsOne"));
    bool transform = (nargs == 3 || nargs == 4) &&
                     (is(function, "transformList") || is(function, "transformMap") ||
                      is(function, "transformMapEntry"));
    if (two_var_q || transform) {
        if (!(v1 = iter_var(&m, args[0])) || !(v2 = iter_var(&m, args[1])))
            return true;
        if (is(v1, v2)) {
            cel_parser_error(p, args[1]->offset, "duplicate variable name: %s", v1);
            return true;
        }
        if (two_var_q) {
            quantifier q = is(function, "all")      ? Q_ALL
                           : is(function, "exists") ? Q_EXISTS
                                                    : Q_EXISTS_ONE;
            *out = expand_quantifier(&m, q, target, v1, v2, args[2]);
            return true;
        }
        cel_expr *filter = nargs == 4 ? args[2] : NULL;
        cel_expr *fn = args[nargs - 1];
        if (is(function, "transformList"))
            *out = expand_map(&m, target, v1, v2, filter, fn);
        else
            *out =
                expand_transform_map(&m, target, v1, v2, filter, fn, is(function, "transformMap"));
        return true;
    }
    if (target->kind == CEL_EXPR_IDENT && is(target->u.ident.name, "cel")) {
        if (nargs == 3 && is(function, "bind")) {
            if (!(v1 = iter_var(&m, args[0])))
                return true;
            *out = expand_bind(&m, v1, args[1], args[2]);
            return true;
        }
        if (expand_block(&m, function, args, nargs, out))
            return true;
    }
    if (nargs == 2 && p->opts->enable_optional_syntax &&
        (is(function, "optMap") || is(function, "optFlatMap"))) {
        if (!(v1 = iter_var(&m, args[0])))
            return true;
        *out = expand_opt_map(&m, target, v1, args[1], is(function, "optFlatMap"));
        return true;
    }
    return false;
}
