/* check_types.c — CEL types for the checker: construction, text, substitution, assignability.
 *
 * The assignability rules follow cel-go's checker (types.go isAssignable): parameters bind to
 * what they meet (widening an existing binding to the more general of the two types), dyn and
 * error are compatible with everything, null fits message types, and parameterised types
 * compare parameter by parameter. */
#include "cel/check_types.h"

#include <string.h>

static const cel_check_type prims[] = {
    {.kind = T_DYN},   {.kind = T_ERROR},     {.kind = T_NULL},     {.kind = T_BOOL},
    {.kind = T_INT},   {.kind = T_UINT},      {.kind = T_DOUBLE},   {.kind = T_STRING},
    {.kind = T_BYTES}, {.kind = T_TIMESTAMP}, {.kind = T_DURATION},
};

const cel_check_type *cel_check_prim(cel_check_kind k)
{
    return (size_t)k < sizeof prims / sizeof prims[0] ? &prims[k] : &prims[T_DYN];
}

const cel_check_type *cel_check_make(rp_arena *a, cel_check_kind k, const cel_check_type *p0,
                                     const cel_check_type *p1)
{
    cel_check_type *t = rp_arena_calloc(a, sizeof *t);
    t->kind = k;
    t->np = k == T_MAP ? 2 : (k == T_LIST || k == T_TYPE || k == T_OPTIONAL) ? 1 : 0;
    t->p[0] = p0;
    t->p[1] = p1;
    return t;
}

const cel_check_type *cel_check_make_abstract(rp_arena *a, const char *name, int np,
                                              const cel_check_type *const *ps)
{
    cel_check_type *t = rp_arena_calloc(a, sizeof *t);
    t->kind = T_ABSTRACT;
    t->name = name;
    t->np = np;
    for (int i = 0; i < np; i++)
        t->p[i] = ps[i];
    return t;
}

bool cel_check_spend(cel_check_subst *s)
{
    if (s->exhausted)
        return false;
    if (++s->work > (s->budget ? s->budget : CEL_CHECK_DEFAULT_BUDGET)) {
        s->exhausted = true;
        return false;
    }
    return true;
}

const cel_check_type *cel_check_fresh(cel_check_subst *s)
{
    if (s->n == s->cap) {
        int cap = s->cap ? s->cap * 2 : 32;
        s->bound = rp_arena_realloc(s->arena, s->bound, (size_t)s->cap * sizeof *s->bound,
                                    (size_t)cap * sizeof *s->bound);
        s->cap = cap;
    }
    cel_check_type *t = rp_arena_calloc(s->arena, sizeof *t);
    t->kind = T_PARAM;
    t->id = s->n;
    s->bound[s->n++] = NULL;
    return t;
}

/* ---- text ---- */

static void skip_space(const char *text, size_t *pos)
{
    while (text[*pos] == ' ' || text[*pos] == '\t')
        (*pos)++;
}

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.';
}

/* Protobuf well-known types: JSON values and wrappers are dynamic for this checker (a wrapper
 * is "int or null", which dyn covers without rejecting anything). */
static const cel_check_type *well_known(rp_arena *a, const char *name)
{
    static const char *const dyn_names[] = {
        "google.protobuf.Value",       "google.protobuf.Any",         "google.protobuf.BoolValue",
        "google.protobuf.BytesValue",  "google.protobuf.DoubleValue", "google.protobuf.FloatValue",
        "google.protobuf.Int32Value",  "google.protobuf.Int64Value",  "google.protobuf.StringValue",
        "google.protobuf.UInt32Value", "google.protobuf.UInt64Value", NULL};
    for (int i = 0; dyn_names[i]; i++)
        if (strcmp(name, dyn_names[i]) == 0)
            return cel_check_prim(T_DYN);
    if (strcmp(name, "google.protobuf.Struct") == 0)
        return cel_check_make(a, T_MAP, cel_check_prim(T_STRING), cel_check_prim(T_DYN));
    if (strcmp(name, "google.protobuf.ListValue") == 0)
        return cel_check_make(a, T_LIST, cel_check_prim(T_DYN), NULL);
    if (strcmp(name, "google.protobuf.Timestamp") == 0)
        return cel_check_prim(T_TIMESTAMP);
    if (strcmp(name, "google.protobuf.Duration") == 0)
        return cel_check_prim(T_DURATION);
    if (strcmp(name, "google.protobuf.NullValue") == 0)
        return cel_check_prim(T_NULL);
    return NULL;
}

static bool name_is(const char *name, size_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(name, lit, n) == 0;
}

typedef struct named_kind {
    const char *name;
    cel_check_kind kind;
    int nparams; /* parameters the kind takes (missing ones are dyn) */
} named_kind;

static const named_kind named_kinds[] = {{"dyn", T_DYN, 0},
                                         {"error", T_ERROR, 0},
                                         {"null_type", T_NULL, 0},
                                         {"null", T_NULL, 0},
                                         {"bool", T_BOOL, 0},
                                         {"int", T_INT, 0},
                                         {"int64", T_INT, 0},
                                         {"uint", T_UINT, 0},
                                         {"uint64", T_UINT, 0},
                                         {"double", T_DOUBLE, 0},
                                         {"string", T_STRING, 0},
                                         {"bytes", T_BYTES, 0},
                                         {"timestamp", T_TIMESTAMP, 0},
                                         {"duration", T_DURATION, 0},
                                         {"list", T_LIST, 1},
                                         {"map", T_MAP, 2},
                                         {"type", T_TYPE, 1},
                                         {"optional_type", T_OPTIONAL, 1},
                                         {"optional", T_OPTIONAL, 1},
                                         {NULL, T_DYN, 0}};

bool cel_check_text_kind(const char *text, cel_check_kind *kind)
{
    size_t n = 0;
    while (is_name_char(text[n]))
        n++;
    for (const named_kind *k = named_kinds; k->name; k++)
        if (name_is(text, n, k->name)) {
            *kind = k->kind;
            return k->kind != T_DYN && k->kind != T_ERROR;
        }
    if (name_is(text, n, "google.protobuf.Timestamp")) {
        *kind = T_TIMESTAMP;
        return true;
    }
    if (name_is(text, n, "google.protobuf.Duration")) {
        *kind = T_DURATION;
        return true;
    }
    return false;
}

const cel_check_type *cel_check_parse_type(cel_check_subst *s, const char *text, size_t *pos,
                                           const cel_check_type **params)
{
    skip_space(text, pos);
    size_t start = *pos;
    while (is_name_char(text[*pos]))
        (*pos)++;
    size_t n = *pos - start;
    if (n == 0)
        return NULL;
    const char *name = text + start; /* not terminated: compared with name_is */
    const cel_check_type *args[CEL_CHECK_MAX_PARAMS] = {NULL};
    int nargs = 0;
    skip_space(text, pos);
    if (text[*pos] == '(') {
        (*pos)++;
        for (;;) {
            if (nargs == CEL_CHECK_MAX_PARAMS)
                return NULL;
            args[nargs] = cel_check_parse_type(s, text, pos, params);
            if (!args[nargs++])
                return NULL;
            skip_space(text, pos);
            if (text[*pos] == ',') {
                (*pos)++;
                continue;
            }
            if (text[*pos] != ')')
                return NULL;
            (*pos)++;
            break;
        }
    }
    if (params && n == 1 && name[0] >= 'A' && name[0] <= 'Z') {
        const cel_check_type **slot = &params[name[0] - 'A'];
        if (!*slot)
            *slot = cel_check_fresh(s);
        return nargs ? NULL : *slot;
    }
    for (const named_kind *k = named_kinds; k->name; k++) {
        if (!name_is(name, n, k->name))
            continue;
        if (nargs > k->nparams || (nargs != 0 && nargs != k->nparams))
            return NULL;
        if (k->nparams == 0)
            return cel_check_prim(k->kind);
        return cel_check_make(s->arena, k->kind, args[0] ? args[0] : cel_check_prim(T_DYN),
                              k->nparams == 2 ? (args[1] ? args[1] : cel_check_prim(T_DYN)) : NULL);
    }
    char *full = rp_arena_strndup(s->arena, name, n);
    if (nargs) /* tuple(A, B): an abstract type of a declared function */
        return cel_check_make_abstract(s->arena, full, nargs, args);
    const cel_check_type *wk = well_known(s->arena, full);
    if (wk)
        return wk;
    cel_check_type *m = (cel_check_type *)cel_check_make(s->arena, T_MESSAGE, NULL, NULL);
    m->name = full;
    return m;
}

void cel_check_format(rp_buf *out, cel_check_subst *s, const cel_check_type *t)
{
    if (!cel_check_spend(s)) {
        rp_buf_puts(out, "...");
        return;
    }
    t = cel_check_resolve(s, t);
    static const char *const names[] = {"dyn",
                                        "*error*",
                                        "null_type",
                                        "bool",
                                        "int",
                                        "uint",
                                        "double",
                                        "string",
                                        "bytes",
                                        "google.protobuf.Timestamp",
                                        "google.protobuf.Duration"};
    switch (t->kind) {
    case T_PARAM:
        rp_buf_puts(out, "dyn");
        return;
    case T_MESSAGE:
        rp_buf_puts(out, t->name);
        return;
    case T_ABSTRACT:
        rp_buf_puts(out, t->name);
        if (t->np == 0)
            return;
        rp_buf_putc(out, '(');
        break;
    case T_LIST:
        rp_buf_puts(out, "list(");
        break;
    case T_MAP:
        rp_buf_puts(out, "map(");
        break;
    case T_TYPE:
        rp_buf_puts(out, "type(");
        break;
    case T_OPTIONAL:
        rp_buf_puts(out, "optional_type(");
        break;
    default:
        rp_buf_puts(out, names[t->kind]);
        return;
    }
    for (int i = 0; i < t->np; i++) {
        if (i)
            rp_buf_puts(out, ", ");
        cel_check_format(out, s, t->p[i]);
    }
    rp_buf_putc(out, ')');
}

const char *cel_check_format_arena(cel_check_subst *s, const cel_check_type *t)
{
    rp_buf b = {0};
    cel_check_format(&b, s, t);
    char *text = rp_arena_strndup(s->arena, b.data ? b.data : "", b.len);
    rp_buf_free(&b);
    return text;
}

/* ---- substitution ---- */

const cel_check_type *cel_check_resolve(const cel_check_subst *s, const cel_check_type *t)
{
    /* Bindings never form a cycle (bind() checks), so this terminates. */
    while (t->kind == T_PARAM && t->id < s->n && s->bound[t->id])
        t = s->bound[t->id];
    return t;
}

const cel_check_type *cel_check_substitute(cel_check_subst *s, const cel_check_type *t,
                                           bool dyn_free)
{
    if (!cel_check_spend(s))
        return cel_check_prim(T_DYN);
    t = cel_check_resolve(s, t);
    if (t->kind == T_PARAM)
        return dyn_free ? cel_check_prim(T_DYN) : t;
    if (t->np == 0)
        return t;
    cel_check_type copy = *t;
    bool changed = false;
    for (int i = 0; i < t->np; i++) {
        copy.p[i] = cel_check_substitute(s, t->p[i], dyn_free);
        changed = changed || copy.p[i] != t->p[i];
    }
    if (!changed)
        return t;
    cel_check_type *out = rp_arena_alloc(s->arena, sizeof *out);
    *out = copy;
    return out;
}

bool cel_check_is_dyn(const cel_check_subst *s, const cel_check_type *t)
{
    t = cel_check_resolve(s, t);
    return t->kind == T_DYN || t->kind == T_ERROR || t->kind == T_PARAM;
}

/* Does parameter `id` occur in t (after bindings)? Binding it there would make a cycle. */
static bool occurs(cel_check_subst *s, int id, const cel_check_type *t)
{
    if (!cel_check_spend(s))
        return true; /* refuse the binding */
    t = cel_check_resolve(s, t);
    if (t->kind == T_PARAM)
        return t->id == id;
    for (int i = 0; i < t->np; i++)
        if (occurs(s, id, t->p[i]))
            return true;
    return false;
}

static bool bind(cel_check_subst *s, const cel_check_type *param, const cel_check_type *to)
{
    if (occurs(s, param->id, to)) {
        /* Binding a parameter to itself is a no-op; to a type containing it, a failure. */
        return cel_check_resolve(s, to)->kind == T_PARAM;
    }
    if (s->trail_n == s->trail_cap) {
        int cap = s->trail_cap ? s->trail_cap * 2 : 32;
        s->trail = rp_arena_realloc(s->arena, s->trail, (size_t)s->trail_cap * sizeof *s->trail,
                                    (size_t)cap * sizeof *s->trail);
        s->trail_cap = cap;
    }
    s->trail[s->trail_n].id = param->id;
    s->trail[s->trail_n].old = s->bound[param->id];
    s->trail_n++;
    s->bound[param->id] = to;
    return true;
}

/* Kinds null may stand for (cel-go's legacy nullable types: messages, timestamps, durations,
 * and abstract types such as optional). */
bool cel_check_nullable(cel_check_kind k)
{
    return k == T_NULL || k == T_MESSAGE || k == T_TIMESTAMP || k == T_DURATION || k == T_OPTIONAL;
}

/* cel-go's isEqualOrLessSpecific: is t1 at least as general as t2? */
static bool less_specific(cel_check_subst *s, const cel_check_type *t1, const cel_check_type *t2)
{
    if (!cel_check_spend(s))
        return true;
    if (t1->kind == T_DYN || t1->kind == T_PARAM || t1->kind == T_ERROR)
        return true;
    if (t2->kind == T_DYN || t2->kind == T_PARAM || t2->kind == T_ERROR)
        return false;
    if (t2->kind == T_NULL && cel_check_nullable(t1->kind))
        return true; /* [msg, null] is a list of msg */
    if (t1->kind != t2->kind || t1->np != t2->np)
        return false;
    for (int i = 0; i < t1->np; i++)
        if (!less_specific(s, t1->p[i], t2->p[i]))
            return false;
    return true;
}

static const cel_check_type *most_general(cel_check_subst *s, const cel_check_type *t1,
                                          const cel_check_type *t2)
{
    return less_specific(s, t1, t2) ? t1 : t2;
}

static bool assign(cel_check_subst *s, const cel_check_type *t1, const cel_check_type *t2)
{
    if (!cel_check_spend(s))
        return false;
    if (t1 == t2)
        return true;
    if (t1->kind == T_PARAM) {
        const cel_check_type *sub = t1->id < s->n ? s->bound[t1->id] : NULL;
        if (sub) {
            if (!assign(s, sub, t2))
                return false;
            return bind(s, t1, most_general(s, sub, t2));
        }
        return bind(s, t1, t2);
    }
    if (t2->kind == T_PARAM) {
        const cel_check_type *sub = t2->id < s->n ? s->bound[t2->id] : NULL;
        if (sub) {
            if (!assign(s, t1, sub))
                return false;
            return bind(s, t2, most_general(s, t1, sub));
        }
        return bind(s, t2, t1);
    }
    if (t1->kind == T_DYN || t1->kind == T_ERROR || t2->kind == T_DYN || t2->kind == T_ERROR)
        return true;
    if (t2->kind == T_NULL)
        return cel_check_nullable(t1->kind);
    if (t1->kind != t2->kind)
        return false;
    if (t1->kind == T_MESSAGE)
        return strcmp(t1->name, t2->name) == 0;
    if (t1->kind == T_ABSTRACT && (strcmp(t1->name, t2->name) != 0 || t1->np != t2->np))
        return false;
    for (int i = 0; i < t1->np; i++)
        if (!assign(s, t1->p[i], t2->p[i]))
            return false;
    return true;
}

bool cel_check_assignable_list(cel_check_subst *s, const cel_check_type *const *expected,
                               const cel_check_type *const *actual, int n)
{
    int mark = s->trail_n;
    int i = 0;
    while (i < n && assign(s, expected[i], actual[i]))
        i++;
    /* On failure, undo the attempt's bindings, newest first. */
    while (i < n && s->trail_n > mark) {
        s->trail_n--;
        s->bound[s->trail[s->trail_n].id] = s->trail[s->trail_n].old;
    }
    s->trail_n = mark; /* a success is final: its undo records are not needed */
    return i == n;
}

bool cel_check_assignable(cel_check_subst *s, const cel_check_type *expected,
                          const cel_check_type *actual)
{
    return cel_check_assignable_list(s, &expected, &actual, 1);
}

const cel_check_type *cel_check_join(cel_check_subst *s, const cel_check_type *prev,
                                     const cel_check_type *cur)
{
    if (!prev)
        return cur;
    if (cel_check_assignable(s, prev, cur))
        return most_general(s, prev, cur);
    return cel_check_prim(T_DYN);
}
