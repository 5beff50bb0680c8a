/* compile.c — from source text to a program: parse, resolve names and functions, fold constant
 * list and map literals, prepare calls with constant arguments, optionally type-check. */
#include <stdlib.h>
#include <string.h>

#include "cel/check.h"
#include "cel/eval.h"

/* Identifiers that denote types when no comprehension variable shadows them. */
static const char *const type_idents[] = {
    "int",
    "uint",
    "double",
    "bool",
    "string",
    "bytes",
    "list",
    "map",
    "type",
    "null_type",
    "optional_type",
    "google.protobuf.Timestamp",
    "google.protobuf.Duration",
};

typedef struct scope {
    const char *name;
    const struct scope *next;
} scope;

typedef struct compiler {
    cel_program *p;
    const cel_compile_opts *opts;
    cel_name_info **info;
    /* Calls to prepare are collected here, then copied into the program arena. */
    cel_prepared_entry *prepared;
    uint32_t n_prepared, cap_prepared;
} compiler;

static bool in_scope(const scope *s, const char *name)
{
    for (; s; s = s->next)
        if (strcmp(s->name, name) == 0)
            return true;
    return false;
}

static bool is_declared(const compiler *c, const char *name)
{
    if (!c->opts)
        return false;
    for (size_t i = 0; i < c->opts->n_decls; i++)
        if (strcmp(c->opts->decls[i].name, name) == 0)
            return true;
    return false;
}

static const char *type_ident(const char *name)
{
    for (size_t i = 0; i < sizeof type_idents / sizeof type_idents[0]; i++)
        if (strcmp(type_idents[i], name) == 0)
            return type_idents[i];
    return NULL;
}

/* The dotted path of an identifier/select chain (`a.b.c`), or NULL when e is not one. */
static char *chain_path(rp_arena *a, const cel_expr *e, const char **root)
{
    if (e->kind == CEL_EXPR_IDENT) {
        *root = e->u.ident.name;
        return rp_arena_strdup(a, e->u.ident.name);
    }
    if (e->kind != CEL_EXPR_SELECT || e->u.select.test_only)
        return NULL;
    char *base = chain_path(a, e->u.select.operand, root);
    if (!base)
        return NULL;
    return rp_arena_sprintf(a, "%s.%s", base, e->u.select.field);
}

/* Candidate names for `path` in the container: "a.b.path", "a.path", "path". A leading dot
 * means the name is already absolute. */
static cel_name_info *name_info(compiler *c, const char *path, const char *root)
{
    rp_arena *a = &c->p->arena;
    const char *container = c->p->container;
    uint32_t n = 1;
    bool absolute = path[0] == '.';
    if (!absolute && container[0]) {
        n++;
        for (const char *s = container; *s; s++)
            n += *s == '.';
    }
    const char **names = rp_arena_alloc(a, sizeof *names * n);
    uint32_t *lens = rp_arena_alloc(a, sizeof *lens * n);
    uint32_t k = 0;
    if (!absolute && container[0]) {
        size_t clen = strlen(container);
        for (;;) {
            names[k++] = rp_arena_sprintf(a, "%.*s.%s", (int)clen, container, path);
            while (clen > 0 && container[clen - 1] != '.')
                clen--;
            if (clen == 0)
                break;
            clen--; /* drop the dot */
        }
    }
    names[k++] = absolute ? path + 1 : path;
    for (uint32_t i = 0; i < k; i++)
        lens[i] = (uint32_t)strlen(names[i]);
    cel_name_info *info = rp_arena_calloc(a, sizeof *info);
    info->names = names;
    info->lens = lens;
    info->n = k;
    /* An absolute name (`.y`) is never a comprehension variable. */
    info->root = root[0] == '.' ? NULL : root;
    return info;
}

static void add_prepared(compiler *c, const cel_function *fn, void *prepared)
{
    if (c->n_prepared == c->cap_prepared) {
        c->cap_prepared = c->cap_prepared ? c->cap_prepared * 2 : 8;
        c->prepared = realloc(c->prepared, sizeof *c->prepared * c->cap_prepared);
        if (!c->prepared)
            abort();
    }
    c->prepared[c->n_prepared].fn = fn;
    c->prepared[c->n_prepared].prepared = prepared;
    c->n_prepared++;
}

static void resolve(compiler *c, cel_expr *e, const scope *sc);

/* `math.greatest(x)` parses as a receiver call on the chain `math`; it is the global function
 * "math.greatest" when that exists and the chain does not name a variable. */
static void resolve_namespaced_call(compiler *c, cel_expr *e, const scope *sc)
{
    const char *root = NULL;
    char *path = chain_path(&c->p->arena, e->u.call.target, &root);
    if (!path || in_scope(sc, root) || is_declared(c, root) || is_declared(c, path))
        return;
    char *qualified = rp_arena_sprintf(&c->p->arena, "%s.%s", path, e->u.call.function);
    const cel_function *fn = cel_function_find(qualified, false);
    if (!fn)
        return;
    e->u.call.target = NULL;
    e->u.call.function = qualified;
}

static void prepare_call(compiler *c, cel_expr *e)
{
    const cel_function *fn = e->u.call.fn;
    if (!fn || !fn->prepare)
        return;
    uint32_t n = e->u.call.nargs + (e->u.call.target ? 1 : 0);
    if (n == 0)
        return;
    cel_value *args = rp_arena_alloc(&c->p->arena, sizeof *args * n);
    bool *is_const = rp_arena_alloc(&c->p->arena, sizeof *is_const * n);
    bool any = false;
    for (uint32_t i = 0; i < n; i++) {
        const cel_expr *arg = e->u.call.target ? (i == 0 ? e->u.call.target : e->u.call.args[i - 1])
                                               : e->u.call.args[i];
        is_const[i] = arg->kind == CEL_EXPR_CONST;
        args[i] = is_const[i] ? arg->u.constant : cel_null();
        any |= is_const[i];
    }
    if (!any)
        return;
    void *prepared = fn->prepare(args, is_const, n);
    if (prepared) {
        e->u.call.prepared = prepared;
        add_prepared(c, fn, prepared);
    }
}

static bool all_const(cel_expr *const *es, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (es[i]->kind != CEL_EXPR_CONST)
            return false;
    return true;
}

/* A list or map literal of constants becomes one constant, built once (`x in ["a", "b"]`
 * then costs no allocation per evaluation). A map with a duplicate or invalid key stays a
 * literal so that evaluation reports the error. */
static void fold_literal(compiler *c, cel_expr *e)
{
    rp_arena *a = &c->p->arena;
    if (e->kind == CEL_EXPR_LIST) {
        if (e->u.list.optional || !all_const(e->u.list.elements, e->u.list.n))
            return;
        uint32_t n = e->u.list.n;
        cel_value *items = rp_arena_alloc(a, sizeof *items * (n ? n : 1));
        for (uint32_t i = 0; i < n; i++)
            items[i] = e->u.list.elements[i]->u.constant;
        e->kind = CEL_EXPR_CONST;
        e->u.constant = cel_list_new(a, items, n);
        return;
    }
    if (e->kind == CEL_EXPR_MAP) {
        uint32_t n = e->u.map.n;
        if (e->u.map.optional || !all_const(e->u.map.keys, n) || !all_const(e->u.map.values, n))
            return;
        cel_value *keys = rp_arena_alloc(a, sizeof *keys * (n ? n : 1));
        cel_value *values = rp_arena_alloc(a, sizeof *values * (n ? n : 1));
        for (uint32_t i = 0; i < n; i++) {
            keys[i] = e->u.map.keys[i]->u.constant;
            values[i] = e->u.map.values[i]->u.constant;
        }
        cel_value m = cel_map_new(a, keys, values, n);
        if (m.kind == CEL_ERROR)
            return;
        e->kind = CEL_EXPR_CONST;
        e->u.constant = m;
    }
}

/* Records the root identifier and the field names of the select chain ending at e. */
static void set_chain(compiler *c, const cel_expr *e, cel_name_info *info)
{
    uint32_t n = 0;
    const cel_expr *x = e;
    for (; x->kind == CEL_EXPR_SELECT; x = x->u.select.operand)
        n++;
    const char **fields = rp_arena_alloc(&c->p->arena, sizeof *fields * n);
    uint32_t *lens = rp_arena_alloc(&c->p->arena, sizeof *lens * n);
    uint32_t k = n;
    for (x = e; x->kind == CEL_EXPR_SELECT; x = x->u.select.operand) {
        k--;
        fields[k] = x->u.select.field;
        lens[k] = (uint32_t)strlen(x->u.select.field);
    }
    info->chain_root = x;
    info->chain_fields = fields;
    info->chain_lens = lens;
    info->chain_n = n;
}

static void set_info(compiler *c, const cel_expr *e, cel_name_info *info)
{
    if (e->id >= 0 && e->id < c->p->n_info)
        c->info[e->id] = info;
}

static void resolve(compiler *c, cel_expr *e, const scope *sc)
{
    switch (e->kind) {
    case CEL_EXPR_CONST:
        return;
    case CEL_EXPR_IDENT: {
        const char *name = e->u.ident.name;
        if (in_scope(sc, name))
            return; /* comprehension variable: looked up among the locals only */
        cel_name_info *info = name_info(c, name, name);
        info->type_name = type_ident(name);
        set_info(c, e, info);
        return;
    }
    case CEL_EXPR_SELECT: {
        resolve(c, e->u.select.operand, sc);
        const char *root = NULL;
        char *path = chain_path(&c->p->arena, e, &root);
        cel_name_info *info;
        if (path && !in_scope(sc, root)) {
            info = name_info(c, path, root);
            info->type_name = type_ident(path); /* google.protobuf.Timestamp */
            set_chain(c, e, info);
        } else {
            info = rp_arena_calloc(&c->p->arena, sizeof *info);
        }
        info->field_len = (uint32_t)strlen(e->u.select.field);
        set_info(c, e, info);
        return;
    }
    case CEL_EXPR_CALL:
        if (e->u.call.op == CEL_OP_NONE && e->u.call.target)
            resolve_namespaced_call(c, e, sc);
        if (e->u.call.target)
            resolve(c, e->u.call.target, sc);
        for (uint32_t i = 0; i < e->u.call.nargs; i++)
            resolve(c, e->u.call.args[i], sc);
        if (e->u.call.op == CEL_OP_NONE) {
            e->u.call.fn = cel_function_find(e->u.call.function, e->u.call.target != NULL);
            prepare_call(c, e);
        }
        return;
    case CEL_EXPR_LIST:
        for (uint32_t i = 0; i < e->u.list.n; i++)
            resolve(c, e->u.list.elements[i], sc);
        fold_literal(c, e);
        return;
    case CEL_EXPR_MAP:
        for (uint32_t i = 0; i < e->u.map.n; i++) {
            resolve(c, e->u.map.keys[i], sc);
            resolve(c, e->u.map.values[i], sc);
        }
        fold_literal(c, e);
        return;
    case CEL_EXPR_STRUCT:
        for (uint32_t i = 0; i < e->u.strct.n; i++)
            resolve(c, e->u.strct.values[i], sc);
        return;
    case CEL_EXPR_COMPREHENSION: {
        /* The range and the initial accumulator are outside the loop's scope. */
        resolve(c, e->u.comp.iter_range, sc);
        resolve(c, e->u.comp.accu_init, sc);
        scope accu = {e->u.comp.accu_var, sc};
        resolve(c, e->u.comp.result, &accu);
        scope it = {e->u.comp.iter_var, &accu};
        scope it2 = {e->u.comp.iter_var2 ? e->u.comp.iter_var2 : "", &it};
        resolve(c, e->u.comp.loop_condition, &it2);
        resolve(c, e->u.comp.loop_step, &it2);
        return;
    }
    }
}

cel_program *cel_program_from_ast(rp_arena arena, cel_expr *root, int64_t next_id,
                                  const cel_compile_opts *opts)
{
    cel_program *p = calloc(1, sizeof *p);
    if (!p)
        abort();
    p->arena = arena;
    p->root = root;
    p->container = rp_arena_strdup(&p->arena, opts && opts->container ? opts->container : "");
    p->n_info = next_id + 1;
    compiler c = {.p = p, .opts = opts};
    c.info = rp_arena_calloc(&p->arena, sizeof *c.info * (size_t)p->n_info);
    p->info = (const cel_name_info *const *)c.info;
    resolve(&c, root, NULL);
    if (c.n_prepared) {
        p->prepared = rp_arena_alloc(&p->arena, sizeof *p->prepared * c.n_prepared);
        memcpy(p->prepared, c.prepared, sizeof *p->prepared * c.n_prepared);
        p->n_prepared = c.n_prepared;
    }
    free(c.prepared);
    return p;
}

int cel_compile(const char *src, size_t len, const cel_compile_opts *opts, cel_program **out,
                cel_source_error *err)
{
    cel_source_error local_err;
    if (!err)
        err = &local_err;
    memset(err, 0, sizeof *err);
    *out = NULL;
    rp_arena arena;
    rp_arena_init(&arena, 4096);
    cel_parse_opts popts = {.disable_macros = opts && opts->disable_macros,
                            .enable_optional_syntax = true};
    int64_t next_id = 1;
    cel_expr *root = cel_parse(&arena, src, len, &popts, &next_id, err);
    if (!root) {
        rp_arena_free(&arena);
        return -1;
    }
    /* The checker sees the AST as parsed (before namespaced calls are rewritten and constant
     * literals folded). */
    const char *type = NULL;
    if (opts && opts->check && cel_check(&arena, root, src, len, opts, &type, err) != 0) {
        rp_arena_free(&arena);
        return -1;
    }
    cel_program *p = cel_program_from_ast(arena, root, next_id, opts);
    p->result_type = type;
    *out = p;
    return 0;
}

void cel_program_free(cel_program *p)
{
    if (!p)
        return;
    for (uint32_t i = 0; i < p->n_prepared; i++)
        if (p->prepared[i].fn->release)
            p->prepared[i].fn->release(p->prepared[i].prepared);
    rp_arena_free(&p->arena);
    free(p);
}

const cel_expr *cel_program_ast(const cel_program *p)
{
    return p->root;
}

const char *cel_program_result_type(const cel_program *p)
{
    return p->result_type;
}
