/* check_call.c — type checking of calls: operators with special rules, namespaced function
 * names, and overload resolution against check_sigs.c.
 *
 * Resolution is cel-go's: every overload whose parameters accept the arguments contributes
 * its result type (bindings of the arguments' parameters are kept); when the matching
 * overloads disagree the result is dyn. A function rampart implements but that has no
 * signature here is accepted with a dyn result, so a library addition cannot make the checker
 * reject what the evaluator runs. */
#include <string.h>

#include "cel/check_internal.h"
#include "cel/check_sigs.h"
#include "cel/fn.h"

#define MAX_ARGS 16

static bool same_type(cel_check_subst *s, const cel_check_type *x, const cel_check_type *y)
{
    if (!cel_check_spend(s))
        return false;
    x = cel_check_resolve(s, x);
    y = cel_check_resolve(s, y);
    if (x->kind != y->kind)
        return false;
    if (x->kind == T_PARAM)
        return x->id == y->id;
    if ((x->kind == T_MESSAGE || x->kind == T_ABSTRACT) && strcmp(x->name, y->name) != 0)
        return false;
    if (x->np != y->np)
        return false;
    for (int i = 0; i < x->np; i++)
        if (!same_type(s, x->p[i], y->p[i]))
            return false;
    return true;
}

/* "(int, string)", or "string.(int)" for a receiver call, as cel-go writes signatures. */
static const char *format_args(cel_check_checker *c, const cel_check_type **args, uint32_t n,
                               bool receiver)
{
    rp_buf b = {0};
    uint32_t i = 0;
    if (receiver && n > 0) {
        cel_check_format(&b, &c->s, args[0]);
        rp_buf_putc(&b, '.');
        i = 1;
    }
    rp_buf_putc(&b, '(');
    for (uint32_t first = i; i < n; i++) {
        if (i > first)
            rp_buf_puts(&b, ", ");
        cel_check_format(&b, &c->s, args[i]);
    }
    rp_buf_putc(&b, ')');
    const char *text = rp_arena_strndup(c->s.arena, b.data, b.len);
    rp_buf_free(&b);
    return text;
}

/* Parses one signature's parameter list; n = count, or -1 when malformed. */
static int parse_params(cel_check_checker *c, const cel_check_sig *sig,
                        const cel_check_type **params, const cel_check_type **out)
{
    int n = 0;
    size_t pos = 0;
    const char *text = sig->params;
    while (text[pos] == ' ')
        pos++;
    while (text[pos] != '\0') {
        if (n == MAX_ARGS)
            return -1;
        out[n] = cel_check_parse_type(&c->s, text, &pos, params);
        if (!out[n++])
            return -1;
        while (text[pos] == ' ')
            pos++;
        if (text[pos] == ',')
            pos++;
    }
    return n;
}

/* A cheap look at a signature before it is parsed: the number of parameters and, where both
 * are fixed, the kind of each against the argument's (most overloads fail here). */
static bool may_match(cel_check_checker *c, const cel_check_sig *sig, const cel_check_type **args,
                      uint32_t nargs)
{
    const char *p = sig->params;
    while (*p == ' ')
        p++;
    uint32_t i = 0;
    while (*p) {
        if (i == nargs)
            return false;
        const cel_check_type *arg = cel_check_resolve(&c->s, args[i]);
        cel_check_kind want;
        if (!cel_check_is_dyn(&c->s, arg) && cel_check_text_kind(p, &want) && want != arg->kind &&
            !(arg->kind == T_NULL && cel_check_nullable(want)))
            return false;
        int depth = 0; /* skip to the next top-level comma */
        for (; *p && (depth > 0 || *p != ','); p++)
            depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
        if (*p == ',')
            p++;
        while (*p == ' ')
            p++;
        i++;
    }
    return i == nargs;
}

/* Tries the overloads of `name` in one table (ending with a NULL name), folding matching
 * results into *result; sets *known when the table has the name at all. */
static void try_overloads(cel_check_checker *c, const cel_check_sig *table, const char *name,
                          bool receiver, const cel_check_type **args, uint32_t nargs,
                          const cel_check_type **result, bool *known)
{
    for (const cel_check_sig *sig = table; sig->name; sig++) {
        if (strcmp(sig->name, name) != 0)
            continue;
        *known = true;
        if (sig->receiver != receiver || !may_match(c, sig, args, nargs))
            continue;
        const cel_check_type *letters[26] = {0};
        const cel_check_type *params[MAX_ARGS];
        int np = parse_params(c, sig, letters, params);
        if (np < 0 || (uint32_t)np != nargs)
            continue;
        if (!cel_check_assignable_list(&c->s, params, args, np))
            continue;
        size_t pos = 0;
        const cel_check_type *r = cel_check_parse_type(&c->s, sig->result, &pos, letters);
        if (!r)
            continue;
        r = cel_check_substitute(&c->s, r, false);
        if (!*result)
            *result = r;
        else if (!cel_check_is_dyn(&c->s, *result) && !same_type(&c->s, *result, r))
            *result = cel_check_prim(T_DYN);
    }
}

static bool user_function(const cel_check_checker *c, const char *name)
{
    for (const cel_check_sig *sig = c->user_sigs; sig->name; sig++)
        if (strcmp(sig->name, name) == 0)
            return true;
    return false;
}

static const cel_check_type *resolve_overload(cel_check_checker *c, const cel_expr *e,
                                              const char *name, bool receiver,
                                              const cel_check_type **args, uint32_t nargs)
{
    const cel_check_type *result = NULL;
    bool known = false;
    try_overloads(c, cel_check_sigs, name, receiver, args, nargs, &result, &known);
    try_overloads(c, c->user_sigs, name, receiver, args, nargs, &result, &known);
    if (result)
        return result;
    if (!known) {
        if (cel_function_find(name, receiver))
            return cel_check_prim(T_DYN);
        return cel_check_fail(c, e, "undeclared reference to '%s' (in container '%s')", name,
                              c->container);
    }
    return cel_check_fail(c, e, "found no matching overload for '%s' applied to '%s'", name,
                          format_args(c, args, nargs, receiver));
}

static bool is_numeric(const cel_check_subst *s, const cel_check_type *t)
{
    t = cel_check_resolve(s, t);
    return t->kind == T_INT || t->kind == T_UINT || t->kind == T_DOUBLE || cel_check_is_dyn(s, t);
}

/* math.greatest / math.least: any number of numeric arguments, or one list of them. */
static const cel_check_type *check_extremum(cel_check_checker *c, const cel_expr *e,
                                            const char *name, const cel_check_type **args,
                                            uint32_t nargs)
{
    const cel_check_type *elems[MAX_ARGS];
    uint32_t n = nargs;
    for (uint32_t i = 0; i < nargs; i++)
        elems[i] = args[i];
    const cel_check_type *only = nargs == 1 ? cel_check_resolve(&c->s, args[0]) : NULL;
    if (only && only->kind == T_LIST) {
        elems[0] = only->p[0];
        n = 1;
    }
    const cel_check_type *result = NULL;
    for (uint32_t i = 0; i < n; i++) {
        if (!is_numeric(&c->s, elems[i]))
            return cel_check_fail(c, e, "found no matching overload for '%s' applied to '%s'", name,
                                  format_args(c, args, nargs, false));
        const cel_check_type *t = cel_check_resolve(&c->s, elems[i]);
        if (!result)
            result = t;
        else if (!same_type(&c->s, result, t))
            result = cel_check_prim(T_DYN);
    }
    if (!result)
        return cel_check_fail(c, e, "found no matching overload for '%s' applied to '()'", name);
    return cel_check_resolve(&c->s, result)->kind == T_PARAM ? cel_check_prim(T_DYN) : result;
}

/* x.?f: the field's type, made optional (an optional operand is looked inside). */
static const cel_check_type *check_opt_select(cel_check_checker *c, const cel_expr *e,
                                              const cel_check_type **args)
{
    const cel_check_type *t = cel_check_resolve(&c->s, args[0]);
    if (t->kind == T_OPTIONAL)
        t = cel_check_resolve(&c->s, t->p[0]);
    const cel_check_type *field = cel_check_select_field(c, e, t);
    if (!field)
        return NULL;
    if (cel_check_resolve(&c->s, field)->kind == T_OPTIONAL)
        return field;
    return cel_check_make(c->s.arena, T_OPTIONAL, field, NULL);
}

static const cel_check_type *check_in(cel_check_checker *c, const cel_expr *e,
                                      const cel_check_type **args)
{
    /* Membership uses heterogeneous equality (dyn(3) in [1.0, 3.0]), so only the container's
     * kind matters. */
    const cel_check_type *r = cel_check_resolve(&c->s, args[1]);
    if (r->kind == T_LIST || r->kind == T_MAP || cel_check_is_dyn(&c->s, r))
        return cel_check_prim(T_BOOL);
    return cel_check_fail(c, e, "found no matching overload for '@in' applied to '%s'",
                          format_args(c, args, 2, false));
}

static const cel_check_type *check_conditional(cel_check_checker *c, const cel_expr *e,
                                               const cel_check_type **args)
{
    if (!cel_check_assignable(&c->s, cel_check_prim(T_BOOL), args[0]))
        return cel_check_fail(c, e, "found no matching overload for '_?_:_' applied to '%s'",
                              format_args(c, args, 3, false));
    return cel_check_join(&c->s, args[1], args[2]);
}

const cel_check_type *cel_check_call(cel_check_checker *c, const cel_expr *e)
{
    const char *name = e->u.call.function;
    if (!name)
        name = cel_op_name(e->u.call.op);
    if (!name)
        return cel_check_fail(c, e, "malformed call");
    const cel_expr *target = e->u.call.target;
    /* ns.f(x) where ns is not a variable: the function "ns.f" (math.abs, optional.of). */
    if (target) {
        const char *q = cel_check_qualified_name(c, target);
        if (q) {
            const char *full = rp_arena_sprintf(c->s.arena, "%s.%s", q[0] == '.' ? q + 1 : q, name);
            if ((cel_check_sig_known(full) || user_function(c, full) ||
                 cel_function_find(full, false)) &&
                !cel_check_lookup_name(c, q)) {
                name = full;
                target = NULL;
            }
        }
    }
    uint32_t nargs = e->u.call.nargs + (target ? 1 : 0);
    if (nargs > MAX_ARGS) {
        /* No signature has that many parameters, but variadic functions (math.greatest)
         * accept them: check the arguments and accept the call as dyn. */
        if (target && !cel_check_expr(c, target))
            return NULL;
        for (uint32_t i = 0; i < e->u.call.nargs; i++)
            if (!cel_check_expr(c, e->u.call.args[i]))
                return NULL;
        return cel_check_prim(T_DYN);
    }
    const cel_check_type *args[MAX_ARGS];
    uint32_t k = 0;
    if (target && !(args[k++] = cel_check_expr(c, target)))
        return NULL;
    for (uint32_t i = 0; i < e->u.call.nargs; i++)
        if (!(args[k++] = cel_check_expr(c, e->u.call.args[i])))
            return NULL;
    bool global = target == NULL;
    if (global && (strcmp(name, "_==_") == 0 || strcmp(name, "_!=_") == 0) && nargs == 2)
        return cel_check_prim(T_BOOL); /* heterogeneous equality: any two values compare */
    if (global && strcmp(name, "@in") == 0 && nargs == 2)
        return check_in(c, e, args);
    if (global && strcmp(name, "_?_:_") == 0 && nargs == 3)
        return check_conditional(c, e, args);
    if (global && strcmp(name, "_?._") == 0 && nargs == 2)
        return check_opt_select(c, e, args);
    if (global && (strcmp(name, "math.greatest") == 0 || strcmp(name, "math.least") == 0))
        return check_extremum(c, e, name, args, nargs);
    return resolve_overload(c, e, name, !global, args, nargs);
}
