/* check.c — the optional CEL type checker: the walk over the AST, names, literals and
 * comprehensions (calls are in check_call.c, types in check_types.c).
 *
 * It follows cel-go's checker, but errs on the side of accepting: whatever it cannot type
 * precisely is dyn, which is compatible with everything, so checking never rejects an
 * expression the evaluator would run successfully. */
#include "cel/check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cel/check_internal.h"

const cel_check_type *cel_check_fail(cel_check_checker *c, const cel_expr *e, const char *fmt, ...)
{
    if (c->err->message[0] != '\0')
        return NULL; /* keep the first error */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err->message, sizeof c->err->message, fmt, ap);
    va_end(ap);
    size_t offset = e ? e->offset : 0;
    if (offset > c->len)
        offset = c->len;
    c->err->offset = offset;
    cel_source_position(c->src, c->len, offset, &c->err->line, &c->err->col);
    return NULL;
}

static const cel_check_local *find_local(const cel_check_checker *c, const char *name, size_t n)
{
    for (const cel_check_local *l = c->locals; l; l = l->up)
        if (strlen(l->name) == n && memcmp(l->name, name, n) == 0)
            return l;
    return NULL;
}

/* ---- names ---- */

/* Identifiers that denote types: their value is type(T). */
static const cel_check_type *type_name_type(cel_check_checker *c, const char *name)
{
    static const struct {
        const char *name;
        const char *type;
    } names[] = {{"int", "int"},
                 {"uint", "uint"},
                 {"double", "double"},
                 {"bool", "bool"},
                 {"string", "string"},
                 {"bytes", "bytes"},
                 {"null_type", "null_type"},
                 {"dyn", "dyn"},
                 {"list", "list(dyn)"},
                 {"map", "map(dyn, dyn)"},
                 {"type", "type(dyn)"},
                 {"optional_type", "optional_type(dyn)"},
                 {"google.protobuf.Timestamp", "google.protobuf.Timestamp"},
                 {"google.protobuf.Duration", "google.protobuf.Duration"},
                 {NULL, NULL}};
    for (int i = 0; names[i].name; i++) {
        if (strcmp(names[i].name, name) != 0)
            continue;
        size_t pos = 0;
        const cel_check_type *t = cel_check_parse_type(&c->s, names[i].type, &pos, NULL);
        return cel_check_make(c->s.arena, T_TYPE, t, NULL);
    }
    return NULL;
}

static const cel_check_type *lookup_exact(cel_check_checker *c, const char *name)
{
    for (size_t i = 0; i < c->opts->n_decls; i++)
        if (c->decl_types[i] && strcmp(c->opts->decls[i].name, name) == 0)
            return c->decl_types[i];
    return type_name_type(c, name);
}

const cel_check_type *cel_check_lookup_name(cel_check_checker *c, const char *name)
{
    if (name[0] == '.')
        return lookup_exact(c, name + 1); /* absolute: no container search */
    /* In container "a.b", x means a.b.x, then a.x, then x: longest prefix first. */
    size_t clen = strlen(c->container);
    while (clen > 0) {
        const char *q = rp_arena_sprintf(c->s.arena, "%.*s.%s", (int)clen, c->container, name);
        const cel_check_type *t = lookup_exact(c, q);
        if (t)
            return t;
        while (clen > 0 && c->container[clen - 1] != '.')
            clen--;
        if (clen > 0)
            clen--; /* drop the dot */
    }
    return lookup_exact(c, name);
}

const char *cel_check_qualified_name(cel_check_checker *c, const cel_expr *e)
{
    if (e->kind == CEL_EXPR_IDENT) {
        const char *name = e->u.ident.name;
        if (name[0] != '.' && find_local(c, name, strcspn(name, ".")))
            return NULL;
        return name;
    }
    if (e->kind == CEL_EXPR_SELECT && !e->u.select.test_only) {
        const char *prefix = cel_check_qualified_name(c, e->u.select.operand);
        if (!prefix)
            return NULL;
        return rp_arena_sprintf(c->s.arena, "%s.%s", prefix, e->u.select.field);
    }
    return NULL;
}

const cel_check_type *cel_check_select_field(cel_check_checker *c, const cel_expr *e,
                                             const cel_check_type *t)
{
    t = cel_check_resolve(&c->s, t);
    switch (t->kind) {
    case T_MAP:
        return t->p[1];
    case T_MESSAGE:
    case T_DYN:
    case T_ERROR:
    case T_PARAM:
        return cel_check_prim(T_DYN);
    case T_OPTIONAL: {
        /* a.?b.c: selecting on an optional selects inside it (cel-go's optional chaining). */
        const cel_check_type *inner = cel_check_select_field(c, e, t->p[0]);
        return inner ? cel_check_make(c->s.arena, T_OPTIONAL, inner, NULL) : NULL;
    }
    default:
        return cel_check_fail(c, e, "type '%s' does not support field selection",
                              cel_check_format_arena(&c->s, t));
    }
}

/* A dotted identifier (the parser or name resolution may produce "a.b.c"): the longest
 * declared prefix, then field selections for the rest. */
static const cel_check_type *check_ident(cel_check_checker *c, const cel_expr *e)
{
    const char *name = e->u.ident.name;
    size_t n = strlen(name);
    const cel_check_type *t = NULL;
    size_t used = 0;
    if (name[0] != '.') {
        const cel_check_local *l = find_local(c, name, strcspn(name, "."));
        if (l) {
            t = l->type;
            used = strcspn(name, ".");
        }
    }
    for (size_t cut = n; !t && cut > 0; cut--) {
        if (cut != n && name[cut] != '.')
            continue;
        const char *prefix = rp_arena_strndup(c->s.arena, name, cut);
        t = cel_check_lookup_name(c, prefix);
        if (t)
            used = cut;
    }
    if (!t)
        return cel_check_fail(c, e, "undeclared reference to '%s' (in container '%s')", name,
                              c->container);
    while (used < n) {
        used++; /* the dot */
        used += strcspn(name + used, ".");
        t = cel_check_select_field(c, e, t);
        if (!t)
            return NULL;
    }
    return t;
}

static const cel_check_type *check_select(cel_check_checker *c, const cel_expr *e)
{
    if (!e->u.select.test_only) {
        const char *q = cel_check_qualified_name(c, e);
        if (q) {
            const cel_check_type *t = cel_check_lookup_name(c, q);
            if (t)
                return t;
        }
    }
    const cel_check_type *operand = cel_check_expr(c, e->u.select.operand);
    if (!operand)
        return NULL;
    if (e->u.select.test_only) {
        const cel_check_type *r = cel_check_resolve(&c->s, operand);
        if (r->kind == T_OPTIONAL) /* has(x.?y.z) looks inside the optional */
            r = cel_check_resolve(&c->s, r->p[0]);
        if (r->kind != T_MAP && r->kind != T_MESSAGE && !cel_check_is_dyn(&c->s, r))
            return cel_check_fail(c, e, "type '%s' does not support field selection",
                                  cel_check_format_arena(&c->s, r));
        return cel_check_prim(T_BOOL);
    }
    return cel_check_select_field(c, e, operand);
}

/* ---- literals ---- */

static const cel_check_type *check_const(const cel_expr *e)
{
    switch ((cel_kind)e->u.constant.kind) {
    case CEL_NULL:
        return cel_check_prim(T_NULL);
    case CEL_BOOL:
        return cel_check_prim(T_BOOL);
    case CEL_INT:
        return cel_check_prim(T_INT);
    case CEL_UINT:
        return cel_check_prim(T_UINT);
    case CEL_DOUBLE:
        return cel_check_prim(T_DOUBLE);
    case CEL_STRING:
        return cel_check_prim(T_STRING);
    case CEL_BYTES:
        return cel_check_prim(T_BYTES);
    case CEL_TIMESTAMP:
        return cel_check_prim(T_TIMESTAMP);
    case CEL_DURATION:
        return cel_check_prim(T_DURATION);
    default:
        return cel_check_prim(T_DYN);
    }
}

/* The element type of an entry; for an optional entry ([?x], {?k: x}) x must be optional and
 * the element is what it wraps. */
static const cel_check_type *entry_type(cel_check_checker *c, const cel_expr *e, bool optional)
{
    const cel_check_type *t = cel_check_expr(c, e);
    if (!t || !optional)
        return t;
    const cel_check_type *want =
        cel_check_make(c->s.arena, T_OPTIONAL, cel_check_fresh(&c->s), NULL);
    if (!cel_check_assignable(&c->s, want, t))
        return cel_check_fail(c, e, "expected type '%s' but found '%s'",
                              cel_check_format_arena(&c->s, want),
                              cel_check_format_arena(&c->s, t));
    return cel_check_resolve(&c->s, cel_check_substitute(&c->s, want, false))->p[0];
}

static const cel_check_type *check_list(cel_check_checker *c, const cel_expr *e)
{
    const cel_check_type *elem = NULL;
    for (uint32_t i = 0; i < e->u.list.n; i++) {
        bool opt = e->u.list.optional && e->u.list.optional[i];
        const cel_check_type *t = entry_type(c, e->u.list.elements[i], opt);
        if (!t)
            return NULL;
        elem = cel_check_join(&c->s, elem, t);
    }
    return cel_check_make(c->s.arena, T_LIST, elem ? elem : cel_check_fresh(&c->s), NULL);
}

static const cel_check_type *check_map(cel_check_checker *c, const cel_expr *e)
{
    const cel_check_type *key = NULL, *val = NULL;
    for (uint32_t i = 0; i < e->u.map.n; i++) {
        bool opt = e->u.map.optional && e->u.map.optional[i];
        const cel_check_type *k = cel_check_expr(c, e->u.map.keys[i]);
        const cel_check_type *v = k ? entry_type(c, e->u.map.values[i], opt) : NULL;
        if (!v)
            return NULL;
        key = cel_check_join(&c->s, key, k);
        val = cel_check_join(&c->s, val, v);
    }
    return cel_check_make(c->s.arena, T_MAP, key ? key : cel_check_fresh(&c->s),
                          val ? val : cel_check_fresh(&c->s));
}

static bool well_known_name(const char *name)
{
    return strncmp(name, "google.protobuf.", 16) == 0;
}

/* Message construction: field values are checked, the message's fields are not known. */
static const cel_check_type *check_struct(cel_check_checker *c, const cel_expr *e)
{
    for (uint32_t i = 0; i < e->u.strct.n; i++)
        if (!cel_check_expr(c, e->u.strct.values[i]))
            return NULL;
    const char *name = e->u.strct.type_name ? e->u.strct.type_name : "";
    if (name[0] == '.')
        name++;
    else if (c->container[0] && !well_known_name(name))
        /* Without message descriptors the most qualified candidate is the best guess (it is
         * what cel-go resolves a message of the container to); it only names the type. */
        name = rp_arena_sprintf(c->s.arena, "%s.%s", c->container, name);
    size_t pos = 0;
    const cel_check_type *t = cel_check_parse_type(&c->s, name, &pos, NULL);
    if (!t || name[pos] != '\0')
        return cel_check_prim(T_DYN);
    return t;
}

/* ---- comprehensions ---- */

static const cel_check_type *check_comprehension(cel_check_checker *c, const cel_expr *e)
{
    const cel_check_type *range = cel_check_expr(c, e->u.comp.iter_range);
    if (!range)
        return NULL;
    range = cel_check_resolve(&c->s, range);
    const cel_check_type *v1, *v2;
    bool two = e->u.comp.iter_var2 != NULL;
    if (range->kind == T_LIST) {
        v1 = two ? cel_check_prim(T_INT) : range->p[0];
        v2 = range->p[0];
    } else if (range->kind == T_MAP) {
        v1 = range->p[0];
        v2 = range->p[1];
    } else if (cel_check_is_dyn(&c->s, range)) {
        v1 = v2 = cel_check_prim(T_DYN);
    } else {
        return cel_check_fail(c, e->u.comp.iter_range,
                              "expression of type '%s' cannot be range of a comprehension (must be "
                              "list, map, or dynamic)",
                              cel_check_format_arena(&c->s, range));
    }
    const cel_check_type *accu = cel_check_expr(c, e->u.comp.accu_init);
    if (!accu)
        return NULL;
    const cel_check_local *saved = c->locals;
    cel_check_local accu_l = {e->u.comp.accu_var, accu, saved};
    cel_check_local it1 = {e->u.comp.iter_var, v1, &accu_l};
    cel_check_local it2 = {two ? e->u.comp.iter_var2 : "", v2, &it1};
    c->locals = two ? &it2 : &it1;
    const cel_check_type *cond = cel_check_expr(c, e->u.comp.loop_condition);
    if (cond && !cel_check_assignable(&c->s, cel_check_prim(T_BOOL), cond))
        cond = cel_check_fail(c, e->u.comp.loop_condition, "expected type 'bool' but found '%s'",
                              cel_check_format_arena(&c->s, cond));
    const cel_check_type *step = cond ? cel_check_expr(c, e->u.comp.loop_step) : NULL;
    if (step && !cel_check_assignable(&c->s, accu, step))
        step = cel_check_fail(c, e->u.comp.loop_step, "expected type '%s' but found '%s'",
                              cel_check_format_arena(&c->s, accu),
                              cel_check_format_arena(&c->s, step));
    c->locals = &accu_l;
    const cel_check_type *result = step ? cel_check_expr(c, e->u.comp.result) : NULL;
    c->locals = saved;
    return result;
}

const cel_check_type *cel_check_expr(cel_check_checker *c, const cel_expr *e)
{
    if (!e)
        return cel_check_fail(c, NULL, "malformed expression");
    switch (e->kind) {
    case CEL_EXPR_CONST:
        return check_const(e);
    case CEL_EXPR_IDENT:
        return check_ident(c, e);
    case CEL_EXPR_SELECT:
        return check_select(c, e);
    case CEL_EXPR_CALL:
        return cel_check_call(c, e);
    case CEL_EXPR_LIST:
        return check_list(c, e);
    case CEL_EXPR_MAP:
        return check_map(c, e);
    case CEL_EXPR_STRUCT:
        return check_struct(c, e);
    case CEL_EXPR_COMPREHENSION:
        return check_comprehension(c, e);
    }
    return cel_check_prim(T_DYN);
}

/* Is the whole of text[0..n) one type (parameter letters allowed)? */
static bool valid_type(cel_check_checker *c, const char *text, size_t n)
{
    const char *t = rp_arena_strndup(c->s.arena, text, n);
    const cel_check_type *letters[26] = {0};
    size_t pos = 0;
    if (!cel_check_parse_type(&c->s, t, &pos, letters))
        return false;
    while (t[pos] == ' ')
        pos++;
    return t[pos] == '\0';
}

/* One overload of a declared function: "(string, int) -> string", or ".(int) -> bool" for a
 * receiver overload (the receiver is the first parameter). false when malformed. */
static bool parse_overload(cel_check_checker *c, const char *name, const char *text, size_t n,
                           cel_check_sig *out)
{
    size_t i = 0;
    while (i < n && text[i] == ' ')
        i++;
    out->name = name;
    out->receiver = i < n && text[i] == '.';
    if (out->receiver)
        i++;
    if (i >= n || text[i] != '(')
        return false;
    size_t open = ++i;
    int depth = 0;
    for (; i < n && (depth > 0 || text[i] != ')'); i++)
        depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
    if (i >= n)
        return false;
    out->params = rp_arena_strndup(c->s.arena, text + open, i - open);
    for (i++; i < n && text[i] == ' '; i++)
        ;
    if (i + 2 > n || text[i] != '-' || text[i + 1] != '>')
        return false;
    i += 2;
    out->result = rp_arena_strndup(c->s.arena, text + i, n - i);
    /* Each parameter and the result must parse. */
    const char *p = out->params;
    while (*p == ' ')
        p++;
    while (*p) {
        size_t len = 0;
        for (int d = 0; p[len] && (d > 0 || p[len] != ','); len++)
            d += p[len] == '(' ? 1 : p[len] == ')' ? -1 : 0;
        if (!valid_type(c, p, len))
            return false;
        p += len;
        if (*p == ',')
            p++;
        while (*p == ' ')
            p++;
    }
    return valid_type(c, out->result, strlen(out->result));
}

/* Variables get a type; a declaration whose type text has "->" declares a function instead:
 * overloads separated by ';' (see check.h). */
static int parse_decls(cel_check_checker *c)
{
    size_t nd = c->opts->n_decls, n_sigs = 0;
    c->decl_types = rp_arena_calloc(c->s.arena, (nd + 1) * sizeof *c->decl_types);
    for (size_t i = 0; i < nd; i++)
        if (c->opts->decls[i].type && strstr(c->opts->decls[i].type, "->"))
            for (const char *t = c->opts->decls[i].type; t; t = strchr(t + 1, ';'))
                n_sigs++;
    cel_check_sig *sigs = rp_arena_calloc(c->s.arena, (n_sigs + 1) * sizeof *sigs);
    c->user_sigs = sigs;
    for (size_t i = 0; i < nd; i++) {
        const char *name = c->opts->decls[i].name ? c->opts->decls[i].name : "";
        const char *text = c->opts->decls[i].type ? c->opts->decls[i].type : "dyn";
        if (strstr(text, "->")) {
            for (const char *t = text; *t;) {
                size_t len = strcspn(t, ";");
                if (!parse_overload(c, name, t, len, sigs++)) {
                    cel_check_fail(c, NULL,
                                   "invalid function signature '%s' in the declaration of '%s'",
                                   text, name);
                    return -1;
                }
                t += len + (t[len] == ';');
            }
            continue;
        }
        size_t pos = 0;
        const cel_check_type *t = cel_check_parse_type(&c->s, text, &pos, NULL);
        while (t && text[pos] == ' ')
            pos++;
        if (!t || text[pos] != '\0' || !c->opts->decls[i].name) {
            cel_check_fail(c, NULL, "invalid type '%s' in the declaration of '%s'", text, name);
            return -1;
        }
        c->decl_types[i] = t;
    }
    return 0;
}

int cel_check(rp_arena *a, const cel_expr *root, const char *src, size_t len,
              const cel_compile_opts *opts, const char **result_type, cel_source_error *err)
{
    static const cel_compile_opts no_opts = {0};
    cel_check_checker c = {0};
    c.s.arena = a;
    c.opts = opts ? opts : &no_opts;
    c.container = c.opts->container ? c.opts->container : "";
    c.src = src ? src : "";
    c.len = src ? len : 0;
    c.err = err;
    memset(err, 0, sizeof *err);
    *result_type = NULL;
    if (parse_decls(&c) != 0)
        return -1;
    /* Ordinary expressions need a few hundred units per source byte at most. */
    c.s.budget = CEL_CHECK_DEFAULT_BUDGET + 256 * (uint64_t)c.len;
    const cel_check_type *t = cel_check_expr(&c, root);
    if (t)
        *result_type = cel_check_format_arena(&c.s, cel_check_substitute(&c.s, t, true));
    if (c.s.exhausted) {
        err->message[0] = '\0'; /* whatever failed, it failed for lack of budget */
        cel_check_fail(&c, root, "expression too complex to type-check");
        *result_type = NULL;
        return -1;
    }
    if (!t) {
        if (err->message[0] == '\0')
            cel_check_fail(&c, root, "type check failed");
        return -1;
    }
    return 0;
}
