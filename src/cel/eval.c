/* eval.c — the tree-walking evaluator.
 *
 * Evaluation walks the compiled AST recursively; its depth is bounded by the parser's nesting
 * limit. Everything it allocates comes from the caller's arena; the hot path (JSON-backed
 * selects, constant lists, string equality) allocates nothing. Comprehension variables live in
 * a chain of frames on the C stack and shadow every other name. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "cel/eval.h"
#include "cel/time.h"

typedef struct local {
    const char *name;
    cel_value value;
    const struct local *next;
} local;

typedef struct evaluator {
    const cel_program *p;
    const cel_activation *act;
    rp_arena *arena;
    const local *locals;
    uint64_t budget; /* comprehension iterations left */
    size_t mem_end;  /* arena->total may not pass this: its value at the start + the limit */
    uint64_t work;   /* data-proportional work not yet charged to the budget (see charge) */
    bool mem_failed; /* the limit was hit (refused before allocating, or passed) */
    /* Whether a dotted name ("a.b") can be bound at all: some binding has a dot, or a lookup
     * callback may know one. When not, qualified candidates are skipped (the common case, and
     * the hot path of `event.data.name`). */
    bool dotted;
} evaluator;

static cel_value eval(evaluator *ev, const cel_expr *e);
/* Kept out of line so that eval() itself stays a small frame: it recurses for every node. */
static cel_value eval_select(evaluator *ev, const cel_expr *e) __attribute__((noinline));
static cel_value eval_call(evaluator *ev, const cel_expr *e) __attribute__((noinline));
static cel_value eval_operator(evaluator *ev, const cel_expr *e) __attribute__((noinline));
static cel_value eval_function(evaluator *ev, const cel_expr *e) __attribute__((noinline));
static cel_value eval_list(evaluator *ev, const cel_expr *e) __attribute__((noinline));
static cel_value eval_map(evaluator *ev, const cel_expr *e) __attribute__((noinline));
static cel_value eval_struct(evaluator *ev, const cel_expr *e) __attribute__((noinline));
static cel_value eval_comprehension(evaluator *ev, const cel_expr *e) __attribute__((noinline));

/* ---- names ---- */

static const local *find_local(const evaluator *ev, const char *name)
{
    if (!name)
        return NULL;
    for (const local *l = ev->locals; l; l = l->next)
        if (l->name[0] == name[0] && strcmp(l->name, name) == 0)
            return l;
    return NULL;
}

static bool lookup_binding(const evaluator *ev, const char *name, cel_value *out)
{
    const cel_activation *act = ev->act;
    if (!act)
        return false;
    for (size_t i = 0; i < act->n; i++) {
        const char *b = act->bindings[i].name;
        if (b[0] == name[0] && strcmp(b, name) == 0) {
            *out = act->bindings[i].value;
            return true;
        }
    }
    return act->lookup && act->lookup(act->self, name, out);
}

static bool lookup_candidates(const evaluator *ev, const cel_name_info *info, cel_value *out)
{
    if (!ev->dotted) {
        /* Only the last candidate (the name as written) can be undotted; if it has a dot it
         * simply matches no binding. */
        return lookup_binding(ev, info->names[info->n - 1], out);
    }
    for (uint32_t i = 0; i < info->n; i++)
        if (lookup_binding(ev, info->names[i], out))
            return true;
    return false;
}

static cel_value eval_ident(evaluator *ev, const cel_expr *e)
{
    const char *name = e->u.ident.name;
    const local *l = find_local(ev, name);
    if (l)
        return l->value;
    const cel_name_info *info = e->id >= 0 && e->id < ev->p->n_info ? ev->p->info[e->id] : NULL;
    cel_value v;
    if (info) {
        if (info->type_name)
            return cel_type(info->type_name);
        if (lookup_candidates(ev, info, &v))
            return v;
    } else if (lookup_binding(ev, name, &v)) {
        return v;
    }
    return cel_error_new(ev->arena, "undeclared reference to '%s' (in container '%s')", name,
                         ev->p->container);
}

/* ---- helpers ---- */

/* The memory limit: checked after every step that allocates (one subtraction), and before any
 * single allocation whose size depends on the data. */
static bool over_memory(const evaluator *ev)
{
    return ev->arena->total > ev->mem_end;
}

static size_t mem_left(const evaluator *ev)
{
    size_t total = ev->arena->total;
    return total < ev->mem_end ? ev->mem_end - total : 0;
}

static cel_value memory_error(evaluator *ev)
{
    ev->mem_failed = true;
    return cel_memory_error(ev->arena);
}

/* Work proportional to the data (bytes scanned, CEL_WORK_PER_ELEMENT per list element or map
 * entry compared) costs one iteration of the budget per WORK_PER_ITERATION, so that `x in
 * list` or `big.contains(s)` in a loop is bounded like the nested loop it amounts to. False
 * when that exhausts the budget. */
#define WORK_PER_ITERATION 1024

static bool charge(evaluator *ev, uint64_t work)
{
    ev->work += work;
    uint64_t units = ev->work / WORK_PER_ITERATION;
    ev->work %= WORK_PER_ITERATION;
    if (units > ev->budget) {
        ev->budget = 0;
        return false;
    }
    ev->budget -= units;
    return true;
}

static cel_value budget_error(evaluator *ev)
{
    return cel_error_new(ev->arena, "evaluation budget exceeded");
}

/* How many values a deep comparison may visit: what is left of the budget, in elements. */
static uint64_t equal_allowance(const evaluator *ev)
{
    uint64_t per = WORK_PER_ITERATION / CEL_WORK_PER_ELEMENT;
    return ev->budget > UINT64_MAX / per ? UINT64_MAX : ev->budget * per + 17;
}

static cel_value budget_spent(evaluator *ev)
{
    ev->budget = 0;
    return budget_error(ev);
}

static cel_value no_overload(evaluator *ev, const char *fn, const cel_value *args, uint32_t n)
{
    return cel_error_no_overload(ev->arena, fn, args, n);
}

/* For strict operators and functions: the first error among args, else the union of their
 * unknowns, else NULL-kind (returns false). */
static bool strict_check(evaluator *ev, const cel_value *args, uint32_t n, cel_value *out)
{
    bool found = false;
    cel_value unk = {0};
    for (uint32_t i = 0; i < n; i++) {
        if (args[i].kind == CEL_ERROR) {
            *out = args[i];
            return true;
        }
        if (args[i].kind == CEL_UNKNOWN) {
            unk = found ? cel_unknown_merge(ev->arena, &unk, &args[i]) : args[i];
            found = true;
        }
    }
    if (found)
        *out = unk;
    return found;
}

static void format_key(rp_buf *b, const cel_value *k)
{
    if (k->kind == CEL_STRING)
        rp_buf_append(b, k->v.s, k->len);
    else
        cel_value_format(b, k);
}

static cel_value no_such_key(evaluator *ev, const cel_value *key)
{
    rp_buf b = {0};
    format_key(&b, key);
    cel_value e = cel_error_new(ev->arena, "no such key: %s", b.data ? b.data : "");
    rp_buf_free(&b);
    return e;
}

static bool is_time(const cel_value *v)
{
    return v->kind == CEL_TIMESTAMP || v->kind == CEL_DURATION;
}

/* ---- logic ---- */

/* _&&_ and _||_ are commutative over errors and unknowns: the absorbing value (false for &&,
 * true for ||) on either side wins; otherwise unknowns win over errors. */
static cel_value eval_logic(evaluator *ev, const cel_expr *e, bool is_and)
{
    const bool absorbing = !is_and;
    cel_value err = {0}, unk = {0};
    bool have_err = false, have_unk = false;
    for (uint32_t i = 0; i < e->u.call.nargs; i++) {
        cel_value v = eval(ev, e->u.call.args[i]);
        if (v.kind == CEL_BOOL) {
            if (v.v.b == absorbing)
                return v;
            continue;
        }
        if (v.kind == CEL_UNKNOWN) {
            unk = have_unk ? cel_unknown_merge(ev->arena, &unk, &v) : v;
            have_unk = true;
        } else if (!have_err) {
            err = v.kind == CEL_ERROR ? v : no_overload(ev, cel_op_name(e->u.call.op), &v, 1);
            have_err = true;
        }
    }
    if (have_unk)
        return unk;
    if (have_err)
        return err;
    return cel_bool(!absorbing);
}

static cel_value eval_conditional(evaluator *ev, const cel_expr *e)
{
    cel_value c = eval(ev, e->u.call.args[0]);
    if (c.kind == CEL_BOOL)
        return eval(ev, e->u.call.args[c.v.b ? 1 : 2]);
    if (cel_is_exceptional(&c))
        return c;
    return no_overload(ev, "_?_:_", &c, 1);
}

/* ---- arithmetic ---- */

static cel_value overflow(evaluator *ev, const char *what)
{
    return cel_error_new(ev->arena, "%s overflow", what);
}

static cel_value concat(evaluator *ev, const cel_value *x, const cel_value *y)
{
    cel_value r;
    if (x->kind == CEL_STRING || x->kind == CEL_BYTES) {
        size_t n = (size_t)x->len + y->len;
        if (n >= UINT32_MAX || n + 1 > mem_left(ev))
            return memory_error(ev);
        char *d = rp_arena_alloc(ev->arena, n + 1);
        if (x->len)
            memcpy(d, x->v.s, x->len);
        if (y->len)
            memcpy(d + x->len, y->v.s, y->len);
        d[n] = '\0';
        r = x->kind == CEL_STRING ? cel_string_ref(d, n) : cel_bytes_ref(d, n);
    } else {
        size_t left = mem_left(ev);
        r = cel_list_concat(ev->arena, x, y, left ? left : 1);
        if (r.kind == CEL_ERROR)
            return memory_error(ev);
    }
    return over_memory(ev) ? memory_error(ev) : r;
}

static cel_value arith_int(evaluator *ev, cel_op op, int64_t a, int64_t b)
{
    int64_t r;
    switch (op) {
    case CEL_OP_ADD:
        if (__builtin_add_overflow(a, b, &r))
            return overflow(ev, "integer");
        return cel_int(r);
    case CEL_OP_SUBTRACT:
        if (__builtin_sub_overflow(a, b, &r))
            return overflow(ev, "integer");
        return cel_int(r);
    case CEL_OP_MULTIPLY:
        if (__builtin_mul_overflow(a, b, &r))
            return overflow(ev, "integer");
        return cel_int(r);
    case CEL_OP_DIVIDE:
        if (b == 0)
            return cel_error_new(ev->arena, "division by zero");
        if (a == INT64_MIN && b == -1)
            return overflow(ev, "integer");
        return cel_int(a / b);
    default: /* modulo */
        if (b == 0)
            return cel_error_new(ev->arena, "modulus by zero");
        if (a == INT64_MIN && b == -1)
            return overflow(ev, "integer");
        return cel_int(a % b);
    }
}

static cel_value arith_uint(evaluator *ev, cel_op op, uint64_t a, uint64_t b)
{
    uint64_t r;
    switch (op) {
    case CEL_OP_ADD:
        if (__builtin_add_overflow(a, b, &r))
            return overflow(ev, "unsigned integer");
        return cel_uint(r);
    case CEL_OP_SUBTRACT:
        if (__builtin_sub_overflow(a, b, &r))
            return overflow(ev, "unsigned integer");
        return cel_uint(r);
    case CEL_OP_MULTIPLY:
        if (__builtin_mul_overflow(a, b, &r))
            return overflow(ev, "unsigned integer");
        return cel_uint(r);
    case CEL_OP_DIVIDE:
        if (b == 0)
            return cel_error_new(ev->arena, "division by zero");
        return cel_uint(a / b);
    default:
        if (b == 0)
            return cel_error_new(ev->arena, "modulus by zero");
        return cel_uint(a % b);
    }
}

static cel_value arith_double(cel_op op, double a, double b)
{
    switch (op) {
    case CEL_OP_ADD:
        return cel_double(a + b);
    case CEL_OP_SUBTRACT:
        return cel_double(a - b);
    case CEL_OP_MULTIPLY:
        return cel_double(a * b);
    default:
        return cel_double(a / b);
    }
}

static cel_value arith(evaluator *ev, cel_op op, const cel_value *args)
{
    const cel_value *x = &args[0], *y = &args[1];
    if (x->kind == y->kind) {
        switch (x->kind) {
        case CEL_INT:
            return arith_int(ev, op, x->v.i, y->v.i);
        case CEL_UINT:
            return arith_uint(ev, op, x->v.u, y->v.u);
        case CEL_DOUBLE:
            if (op != CEL_OP_MODULO)
                return arith_double(op, x->v.d, y->v.d);
            break;
        case CEL_STRING:
        case CEL_BYTES:
        case CEL_LIST:
            if (op == CEL_OP_ADD)
                return concat(ev, x, y);
            break;
        default:
            break;
        }
    }
    if (is_time(x) || is_time(y)) {
        bool handled = false;
        cel_value r = cel_time_binary(ev->arena, op, x, y, &handled);
        if (handled)
            return r;
    }
    return no_overload(ev, cel_op_name(op), args, 2);
}

static cel_value negate(evaluator *ev, const cel_value *x)
{
    switch (x->kind) {
    case CEL_INT:
        if (x->v.i == INT64_MIN)
            return overflow(ev, "integer");
        return cel_int(-x->v.i);
    case CEL_DOUBLE:
        return cel_double(-x->v.d);
    case CEL_DURATION:
        return cel_time_negate(ev->arena, x);
    default:
        return no_overload(ev, "-_", x, 1);
    }
}

/* ---- relations, membership, indexing ---- */

static cel_value relation(evaluator *ev, cel_op op, const cel_value *args)
{
    int cmp = 0;
    int r = cel_compare(&args[0], &args[1], &cmp);
    if (r < 0)
        return no_overload(ev, cel_op_name(op), args, 2);
    if (r > 0)
        return cel_bool(false); /* NaN */
    switch (op) {
    case CEL_OP_LESS:
        return cel_bool(cmp < 0);
    case CEL_OP_LESS_EQUALS:
        return cel_bool(cmp <= 0);
    case CEL_OP_GREATER:
        return cel_bool(cmp > 0);
    default:
        return cel_bool(cmp >= 0);
    }
}

static cel_value in(evaluator *ev, const cel_value *args)
{
    const cel_value *x = &args[0], *c = &args[1];
    if (c->kind == CEL_LIST) {
        uint32_t n = cel_list_size(c), i = 0;
        bool found = false;
        uint64_t allowed = equal_allowance(ev), left = allowed;
        for (; i < n && !found; i++) {
            cel_value item = cel_list_at(c, i);
            int eq = cel_equal_bounded(x, &item, &left);
            if (eq < 0)
                return budget_spent(ev);
            found = eq == 1;
        }
        if (allowed - left > 16 && !charge(ev, (allowed - left) * CEL_WORK_PER_ELEMENT))
            return budget_error(ev);
        return cel_bool(found);
    }
    if (c->kind == CEL_MAP) {
        /* A JSON object is searched linearly. */
        if (c->json && !charge(ev, (uint64_t)cel_map_size(c) * CEL_WORK_PER_ELEMENT))
            return budget_error(ev);
        return cel_bool(cel_map_get(c, x, NULL));
    }
    return no_overload(ev, "@in", args, 2);
}

/* A list index: int, or uint/double holding an integral value. -1 when not an index. */
static int list_index(const cel_value *k, int64_t *out)
{
    switch (k->kind) {
    case CEL_INT:
        *out = k->v.i;
        return 0;
    case CEL_UINT:
        *out = k->v.u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)k->v.u;
        return 0;
    case CEL_DOUBLE:
        if (k->v.d != trunc(k->v.d) || !(fabs(k->v.d) < 9.2e18))
            return -1;
        *out = (int64_t)k->v.d;
        return 0;
    default:
        return -1;
    }
}

/* c[k]; with `optional`, an absent element is optional.none() and a present one is wrapped. */
static cel_value index_value(evaluator *ev, const cel_value *c, const cel_value *k, bool optional,
                             const char *op)
{
    cel_value out;
    if (c->kind == CEL_OPTIONAL) {
        /* Indexing an optional chains: none stays none, of(x)[k] is x[?k]. */
        if (!c->v.opt)
            return *c;
        return index_value(ev, c->v.opt, k, true, op);
    }
    if (c->kind == CEL_LIST) {
        int64_t i;
        if (list_index(k, &i) != 0) {
            cel_value args[2] = {*c, *k};
            return no_overload(ev, op, args, 2);
        }
        if (i < 0 || (uint64_t)i >= cel_list_size(c)) {
            if (optional)
                return cel_optional_none();
            return cel_error_new(ev->arena, "index out of range: %" PRId64, i);
        }
        out = cel_list_at(c, (uint32_t)i);
        return optional ? cel_optional_of(ev->arena, out) : out;
    }
    if (c->kind == CEL_MAP) {
        if (k->kind != CEL_STRING && k->kind != CEL_INT && k->kind != CEL_UINT &&
            k->kind != CEL_BOOL && k->kind != CEL_DOUBLE) {
            cel_value args[2] = {*c, *k};
            return no_overload(ev, op, args, 2);
        }
        if (c->json && !charge(ev, (uint64_t)cel_map_size(c) * CEL_WORK_PER_ELEMENT))
            return budget_error(ev);
        if (cel_map_get(c, k, &out))
            return optional ? cel_optional_of(ev->arena, out) : out;
        return optional ? cel_optional_none() : no_such_key(ev, k);
    }
    cel_value args[2] = {*c, *k};
    return no_overload(ev, op, args, 2);
}

/* Field selection o.f (test_only: has(o.f)); `optional` wraps the result (o.?f). */
static cel_value select_value(evaluator *ev, const cel_value *o, const char *field, size_t flen,
                              bool test_only, bool optional)
{
    cel_value out;
    if (o->kind == CEL_MAP) {
        if (o->json && !charge(ev, (uint64_t)cel_map_size(o) * CEL_WORK_PER_ELEMENT))
            return budget_error(ev);
        bool found = cel_map_get_str(o, field, flen, &out);
        if (test_only)
            return cel_bool(found);
        if (found)
            return optional ? cel_optional_of(ev->arena, out) : out;
        if (optional)
            return cel_optional_none();
        return cel_error_new(ev->arena, "no such key: %s", field);
    }
    if (o->kind == CEL_OPTIONAL) {
        /* Selecting on an optional chains like `?.`: none.f is none, of(m).f is m.?f. */
        if (!o->v.opt)
            return test_only ? cel_bool(false) : *o;
        return select_value(ev, o->v.opt, field, flen, test_only, !test_only);
    }
    return cel_error_new(ev->arena, "no such key: %s (type '%s' does not support field selection)",
                         field, cel_kind_type_name(o));
}

static cel_value eval_select(evaluator *ev, const cel_expr *e)
{
    const cel_name_info *info = e->id >= 0 && e->id < ev->p->n_info ? ev->p->info[e->id] : NULL;
    cel_value v;
    if (info && info->type_name && !find_local(ev, info->root))
        return cel_type(info->type_name);
    /* A qualified name bound as a whole ("a.b") wins over selecting b from a. */
    if (info && info->n) {
        if (ev->dotted) {
            if (!find_local(ev, info->root) && lookup_candidates(ev, info, &v))
                return v;
        } else {
            /* No dotted bindings: the chain is its root variable and a walk over the fields
             * (the hot path of policies: `event.data.arguments.command`). */
            v = eval_ident(ev, info->chain_root);
            uint32_t i = 0;
            uint64_t scanned = 0;
            while (i < info->chain_n && !cel_is_exceptional(&v)) {
                if (v.kind == CEL_MAP) {
                    cel_value w;
                    uint32_t k = cel_map_get_path(&v, info->chain_fields + i, info->chain_lens + i,
                                                  info->chain_n - i, &w, &scanned);
                    if (k) {
                        v = w;
                        i += k;
                        continue;
                    }
                }
                /* A missing key, an optional or a non-map: the general rules. */
                v = select_value(ev, &v, info->chain_fields[i], info->chain_lens[i], false, false);
                i++;
            }
            /* Searching big JSON objects is linear: charged like `in`. */
            if (scanned > 64 && !charge(ev, scanned * CEL_WORK_PER_ELEMENT))
                return budget_error(ev);
            return v;
        }
    }
    cel_value o = eval(ev, e->u.select.operand);
    if (cel_is_exceptional(&o))
        return o;
    size_t flen = info ? info->field_len : strlen(e->u.select.field);
    return select_value(ev, &o, e->u.select.field, flen, e->u.select.test_only, false);
}

/* ---- calls ---- */

#define MAX_STACK_ARGS 8

static void eval_args(evaluator *ev, const cel_expr *e, cel_value *stack, cel_value **args,
                      uint32_t *nargs)
{
    uint32_t n = e->u.call.nargs + (e->u.call.target ? 1 : 0);
    cel_value *a = n <= MAX_STACK_ARGS ? stack : rp_arena_alloc(ev->arena, sizeof *a * n);
    uint32_t k = 0;
    if (e->u.call.target)
        a[k++] = eval(ev, e->u.call.target);
    for (uint32_t i = 0; i < e->u.call.nargs; i++)
        a[k++] = eval(ev, e->u.call.args[i]);
    *args = a;
    *nargs = n;
}

static cel_value eval_function(evaluator *ev, const cel_expr *e)
{
    const cel_function *fn = e->u.call.fn;
    if (!fn)
        return cel_error_new(ev->arena, "no such function: %s (unbound function)",
                             e->u.call.function);
    cel_value stack[MAX_STACK_ARGS], *args, r;
    uint32_t n;
    eval_args(ev, e, stack, &args, &n);
    if (!(fn->flags & CEL_FN_NON_STRICT) && strict_check(ev, args, n, &r))
        return r;
    size_t left = mem_left(ev);
    cel_call call = {ev->arena, e->u.call.prepared, e->id, left ? left : 1, 0};
    r = fn->impl(&call, args, n);
    if (call.work > WORK_PER_ITERATION && !charge(ev, call.work))
        return budget_error(ev);
    if (r.kind == CEL_ERROR && strcmp(r.v.err->message, CEL_MEMORY_LIMIT_ERROR) == 0)
        ev->mem_failed = true; /* refused by the function itself */
    return over_memory(ev) ? memory_error(ev) : r;
}

static cel_value eval_call(evaluator *ev, const cel_expr *e)
{
    cel_op op = e->u.call.op;
    switch (op) {
    case CEL_OP_NONE:
        return eval_function(ev, e);
    case CEL_OP_AND:
        return eval_logic(ev, e, true);
    case CEL_OP_OR:
        return eval_logic(ev, e, false);
    case CEL_OP_CONDITIONAL:
        return eval_conditional(ev, e);
    case CEL_OP_NOT_STRICTLY_FALSE: {
        cel_value v = eval(ev, e->u.call.args[0]);
        return cel_bool(v.kind != CEL_BOOL || v.v.b);
    }
    case CEL_OP_OPT_SELECT: {
        cel_value o = eval(ev, e->u.call.args[0]);
        if (cel_is_exceptional(&o))
            return o;
        const cel_expr *f = e->u.call.args[1];
        if (f->kind != CEL_EXPR_CONST || f->u.constant.kind != CEL_STRING)
            return cel_error_new(ev->arena, "invalid optional field selection");
        return select_value(ev, &o, f->u.constant.v.s, f->u.constant.len, false, true);
    }
    default:
        return eval_operator(ev, e);
    }
}

/* The strict operators: at most two operands, evaluated left to right. */
static cel_value eval_operator(evaluator *ev, const cel_expr *e)
{
    cel_op op = e->u.call.op;
    uint32_t n = e->u.call.nargs;
    if (n == 0 || n > 2 || e->u.call.target)
        return cel_error_new(ev->arena, "invalid operator call %s", cel_op_name(op));
    cel_value args[2], r;
    args[0] = eval(ev, e->u.call.args[0]);
    if (n == 2)
        args[1] = eval(ev, e->u.call.args[1]);
    if (strict_check(ev, args, n, &r))
        return r;
    if (n == 1 && op != CEL_OP_NOT && op != CEL_OP_NEGATE)
        return cel_error_new(ev->arena, "invalid operator call %s", cel_op_name(op));
    switch (op) {
    case CEL_OP_NOT:
        if (args[0].kind == CEL_BOOL)
            return cel_bool(!args[0].v.b);
        return no_overload(ev, "!_", args, 1);
    case CEL_OP_NEGATE:
        return negate(ev, &args[0]);
    case CEL_OP_ADD:
    case CEL_OP_SUBTRACT:
    case CEL_OP_MULTIPLY:
    case CEL_OP_DIVIDE:
    case CEL_OP_MODULO:
        return arith(ev, op, args);
    case CEL_OP_EQUALS:
    case CEL_OP_NOT_EQUALS: {
        /* Comparing lists and maps costs every element visited, at any depth (strings compare
         * by memcmp). */
        uint64_t allowed = equal_allowance(ev), left = allowed;
        int eq = cel_equal_bounded(&args[0], &args[1], &left);
        if (eq < 0)
            return budget_spent(ev);
        if (allowed - left > 16 && !charge(ev, (allowed - left) * CEL_WORK_PER_ELEMENT))
            return budget_error(ev);
        return cel_bool(op == CEL_OP_EQUALS ? eq == 1 : eq != 1);
    }
    case CEL_OP_LESS:
    case CEL_OP_LESS_EQUALS:
    case CEL_OP_GREATER:
    case CEL_OP_GREATER_EQUALS:
        return relation(ev, op, args);
    case CEL_OP_IN:
        return in(ev, args);
    case CEL_OP_INDEX:
        return index_value(ev, &args[0], &args[1], false, "_[_]");
    case CEL_OP_OPT_INDEX:
        return index_value(ev, &args[0], &args[1], true, "_[?_]");
    default:
        return cel_error_new(ev->arena, "unsupported operator %s", cel_op_name(op));
    }
}

/* ---- literals ---- */

/* The value an optional entry contributes: *present = false for optional.none(). */
static cel_value unwrap_optional(evaluator *ev, const cel_value *v, bool *present)
{
    if (v->kind != CEL_OPTIONAL) {
        *present = false;
        return cel_error_new(ev->arena, "no such overload: optional entry of type %s",
                             cel_kind_type_name(v));
    }
    *present = v->v.opt != NULL;
    return *present ? *v->v.opt : *v;
}

static cel_value eval_list(evaluator *ev, const cel_expr *e)
{
    uint32_t n = e->u.list.n, k = 0;
    cel_value *items = rp_arena_alloc(ev->arena, sizeof *items * (n ? n : 1));
    cel_value r;
    for (uint32_t i = 0; i < n; i++) {
        cel_value v = eval(ev, e->u.list.elements[i]);
        if (e->u.list.optional && e->u.list.optional[i] && !cel_is_exceptional(&v)) {
            bool present;
            v = unwrap_optional(ev, &v, &present);
            if (!present && v.kind != CEL_ERROR)
                continue;
        }
        items[k++] = v;
    }
    if (strict_check(ev, items, k, &r))
        return r;
    if (over_memory(ev))
        return memory_error(ev);
    return cel_list_new(ev->arena, items, k);
}

static cel_value eval_map(evaluator *ev, const cel_expr *e)
{
    uint32_t n = e->u.map.n, k = 0;
    cel_value *keys = rp_arena_alloc(ev->arena, sizeof *keys * (n ? n : 1));
    cel_value *values = rp_arena_alloc(ev->arena, sizeof *values * (n ? n : 1));
    cel_value r;
    for (uint32_t i = 0; i < n; i++) {
        cel_value pair[2] = {eval(ev, e->u.map.keys[i]), eval(ev, e->u.map.values[i])};
        if (strict_check(ev, pair, 2, &r))
            return r;
        if (e->u.map.optional && e->u.map.optional[i]) {
            bool present;
            pair[1] = unwrap_optional(ev, &pair[1], &present);
            if (pair[1].kind == CEL_ERROR)
                return pair[1];
            if (!present)
                continue;
        }
        keys[k] = pair[0];
        values[k] = pair[1];
        k++;
    }
    if (over_memory(ev))
        return memory_error(ev);
    return cel_map_new(ev->arena, keys, values, k);
}

/* Message construction: rampart has no protobuf types, so `Name{f: v}` evaluates to the map
 * {"f": v} (the type name is not kept). */
static cel_value eval_struct(evaluator *ev, const cel_expr *e)
{
    uint32_t n = e->u.strct.n, k = 0;
    cel_value *keys = rp_arena_alloc(ev->arena, sizeof *keys * (n ? n : 1));
    cel_value *values = rp_arena_alloc(ev->arena, sizeof *values * (n ? n : 1));
    for (uint32_t i = 0; i < n; i++) {
        cel_value v = eval(ev, e->u.strct.values[i]);
        if (cel_is_exceptional(&v))
            return v;
        if (e->u.strct.optional && e->u.strct.optional[i]) {
            bool present;
            v = unwrap_optional(ev, &v, &present);
            if (v.kind == CEL_ERROR)
                return v;
            if (!present)
                continue;
        }
        keys[k] = cel_string_ref(e->u.strct.fields[i], strlen(e->u.strct.fields[i]));
        values[k] = v;
        k++;
    }
    if (over_memory(ev))
        return memory_error(ev);
    return cel_map_new(ev->arena, keys, values, k);
}

/* ---- comprehensions ---- */

static cel_value eval_comprehension(evaluator *ev, const cel_expr *e)
{
    cel_value range = eval(ev, e->u.comp.iter_range);
    if (cel_is_exceptional(&range))
        return range;
    bool is_map = range.kind == CEL_MAP;
    if (range.kind != CEL_LIST && !is_map)
        return cel_error_new(ev->arena,
                             "expression of type '%s' cannot be range of a "
                             "comprehension (must be list, map, or dynamic)",
                             cel_kind_type_name(&range));
    const local *saved = ev->locals;
    local accu = {e->u.comp.accu_var, eval(ev, e->u.comp.accu_init), saved};
    local it = {e->u.comp.iter_var, cel_null(), &accu};
    local it2 = {e->u.comp.iter_var2 ? e->u.comp.iter_var2 : "", cel_null(), &it};
    uint32_t n = is_map ? cel_map_size(&range) : cel_list_size(&range);
    for (uint32_t i = 0; i < n; i++) {
        if (ev->budget == 0) {
            ev->locals = saved;
            return cel_error_new(ev->arena, "evaluation budget exceeded");
        }
        if (over_memory(ev)) {
            ev->locals = saved;
            return memory_error(ev);
        }
        ev->budget--;
        if (is_map) {
            cel_map_entry(&range, i, &it.value, e->u.comp.iter_var2 ? &it2.value : NULL);
        } else if (e->u.comp.iter_var2) {
            it.value = cel_int(i);
            it2.value = cel_list_at(&range, i);
        } else {
            it.value = cel_list_at(&range, i);
        }
        ev->locals = &it2;
        cel_value cond = eval(ev, e->u.comp.loop_condition);
        if (cond.kind == CEL_BOOL && !cond.v.b)
            break;
        accu.value = eval(ev, e->u.comp.loop_step);
    }
    ev->locals = &accu;
    cel_value r = eval(ev, e->u.comp.result);
    ev->locals = saved;
    return r;
}

/* ---- dispatch ---- */

static cel_value eval(evaluator *ev, const cel_expr *e)
{
    switch (e->kind) {
    case CEL_EXPR_CONST:
        return e->u.constant;
    case CEL_EXPR_IDENT:
        return eval_ident(ev, e);
    case CEL_EXPR_SELECT:
        return eval_select(ev, e);
    case CEL_EXPR_CALL:
        return eval_call(ev, e);
    case CEL_EXPR_LIST:
        return eval_list(ev, e);
    case CEL_EXPR_MAP:
        return eval_map(ev, e);
    case CEL_EXPR_STRUCT:
        return eval_struct(ev, e);
    case CEL_EXPR_COMPREHENSION:
        return eval_comprehension(ev, e);
    }
    return cel_error_new(ev->arena, "invalid expression node");
}

static inline __attribute__((always_inline)) cel_value evaluate(const cel_program *p,
                                                                const cel_activation *act,
                                                                rp_arena *arena, uint64_t budget,
                                                                size_t memory_limit)
{
    size_t end = arena->total + memory_limit;
    if (end < memory_limit)
        end = SIZE_MAX;
    evaluator ev = {p, act, arena, NULL, budget, end, 0, false, false};
    if (act) {
        ev.dotted = act->lookup != NULL;
        for (size_t i = 0; i < act->n && !ev.dotted; i++)
            ev.dotted = strchr(act->bindings[i].name, '.') != NULL;
    }
    cel_value r = eval(&ev, p->root);
    /* A limit error absorbed on the way up (`... || true`) still fails the evaluation. */
    return ev.mem_failed || over_memory(&ev) ? memory_error(&ev) : r;
}

cel_value cel_eval_limits(const cel_program *p, const cel_activation *act, rp_arena *arena,
                          uint64_t budget, size_t memory_limit)
{
    return evaluate(p, act, arena, budget ? budget : CEL_DEFAULT_BUDGET,
                    memory_limit ? memory_limit : CEL_DEFAULT_MEMORY_LIMIT);
}

cel_value cel_eval_budget(const cel_program *p, const cel_activation *act, rp_arena *arena,
                          uint64_t budget)
{
    return evaluate(p, act, arena, budget ? budget : CEL_DEFAULT_BUDGET, CEL_DEFAULT_MEMORY_LIMIT);
}

cel_value cel_eval(const cel_program *p, const cel_activation *act, rp_arena *arena)
{
    return evaluate(p, act, arena, CEL_DEFAULT_BUDGET, CEL_DEFAULT_MEMORY_LIMIT);
}
