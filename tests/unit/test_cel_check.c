/* test_cel_check.c — the CEL type checker over hand-built ASTs (independent of the parser),
 * and through cel_compile with check = true. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "cel/cel.h"
#include "cel/check.h"

/* ---- building ASTs by hand ---- */

static rp_arena A;
static int64_t next_id;

static cel_expr *node(cel_expr_kind k, uint32_t offset)
{
    cel_expr *e = rp_arena_calloc(&A, sizeof *e);
    e->kind = k;
    e->id = ++next_id;
    e->offset = offset;
    return e;
}

static cel_expr *lit_int(int64_t i)
{
    cel_expr *e = node(CEL_EXPR_CONST, 0);
    e->u.constant = cel_int(i);
    return e;
}

static cel_expr *lit(cel_value v)
{
    cel_expr *e = node(CEL_EXPR_CONST, 0);
    e->u.constant = v;
    return e;
}

static cel_expr *lit_str(const char *s)
{
    return lit(cel_string_ref(s, strlen(s)));
}

static cel_expr *ident_at(const char *name, uint32_t offset)
{
    cel_expr *e = node(CEL_EXPR_IDENT, offset);
    e->u.ident.name = name;
    return e;
}

static cel_expr *ident(const char *name)
{
    return ident_at(name, 0);
}

static cel_expr *sel(cel_expr *operand, const char *field, bool test_only)
{
    cel_expr *e = node(CEL_EXPR_SELECT, 0);
    e->u.select.operand = operand;
    e->u.select.field = field;
    e->u.select.test_only = test_only;
    return e;
}

/* A call; the argument list ends with NULL. */
static cel_expr *call_at(uint32_t offset, cel_expr *target, const char *fn, ...)
{
    cel_expr *e = node(CEL_EXPR_CALL, offset);
    e->u.call.target = target;
    e->u.call.function = fn;
    e->u.call.op = cel_op_from_name(fn);
    e->u.call.args = rp_arena_calloc(&A, 8 * sizeof(cel_expr *));
    va_list ap;
    va_start(ap, fn);
    for (cel_expr *arg; (arg = va_arg(ap, cel_expr *)) != NULL;)
        e->u.call.args[e->u.call.nargs++] = arg;
    va_end(ap);
    return e;
}

#define call(target, ...) call_at(0, target, __VA_ARGS__, (cel_expr *)NULL)

static cel_expr *list_of(uint32_t n, cel_expr **items)
{
    cel_expr *e = node(CEL_EXPR_LIST, 0);
    e->u.list.elements = rp_arena_calloc(&A, (n + 1) * sizeof(cel_expr *));
    for (uint32_t i = 0; i < n; i++)
        e->u.list.elements[i] = items[i];
    e->u.list.n = n;
    return e;
}

static cel_expr *list0(void)
{
    return list_of(0, NULL);
}

static cel_expr *list1(cel_expr *x)
{
    return list_of(1, &x);
}

static cel_expr *list2(cel_expr *x, cel_expr *y)
{
    cel_expr *items[] = {x, y};
    return list_of(2, items);
}

static cel_expr *map1(cel_expr *k, cel_expr *v)
{
    cel_expr *e = node(CEL_EXPR_MAP, 0);
    e->u.map.keys = rp_arena_calloc(&A, sizeof(cel_expr *));
    e->u.map.values = rp_arena_calloc(&A, sizeof(cel_expr *));
    e->u.map.keys[0] = k;
    e->u.map.values[0] = v;
    e->u.map.n = 1;
    return e;
}

static cel_expr *comp(const char *iter, cel_expr *range, cel_expr *init, cel_expr *cond,
                      cel_expr *step, cel_expr *result)
{
    cel_expr *e = node(CEL_EXPR_COMPREHENSION, 0);
    e->u.comp.iter_var = iter;
    e->u.comp.iter_range = range;
    e->u.comp.accu_var = "@result";
    e->u.comp.accu_init = init;
    e->u.comp.loop_condition = cond;
    e->u.comp.loop_step = step;
    e->u.comp.result = result;
    return e;
}

/* range.map(v, f) as the parser expands it. */
static cel_expr *map_macro(cel_expr *range, const char *v, cel_expr *f)
{
    return comp(v, range, list0(), lit(cel_bool(true)),
                call(NULL, "_+_", ident("@result"), list1(f)), ident("@result"));
}

/* range.exists(v, p) as the parser expands it. */
static cel_expr *exists_macro(cel_expr *range, const char *v, cel_expr *p)
{
    return comp(v, range, lit(cel_bool(false)),
                call(NULL, "@not_strictly_false", call(NULL, "!_", ident("@result"))),
                call(NULL, "_||_", ident("@result"), p), ident("@result"));
}

/* ---- assertions ---- */

typedef struct env {
    const char *container;
    const cel_decl *decls;
    size_t n;
} env;

static const env no_env = {NULL, NULL, 0};

static void expect_type_in(const env *en, const cel_expr *e, const char *want)
{
    cel_compile_opts opts = {
        .container = en->container, .check = true, .decls = en->decls, .n_decls = en->n};
    const char *type = NULL;
    cel_source_error err;
    if (cel_check(&A, e, "", 0, &opts, &type, &err) != 0)
        fail_msg("unexpected check error: %s (want %s)", err.message, want);
    assert_non_null(type);
    if (strcmp(type, want) != 0)
        fail_msg("got type %s, want %s", type, want);
}

static void expect_type(const cel_expr *e, const char *want)
{
    expect_type_in(&no_env, e, want);
}

static cel_source_error expect_error_in(const env *en, const cel_expr *e, const char *src,
                                        const char *want)
{
    cel_compile_opts opts = {
        .container = en->container, .check = true, .decls = en->decls, .n_decls = en->n};
    const char *type = NULL;
    cel_source_error err;
    if (cel_check(&A, e, src, strlen(src), &opts, &type, &err) == 0)
        fail_msg("expected error '%s', got type %s", want, type);
    if (strcmp(err.message, want) != 0)
        fail_msg("got error '%s', want '%s'", err.message, want);
    return err;
}

static int setup(void **state)
{
    (void)state;
    rp_arena_init(&A, 4096);
    next_id = 0;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rp_arena_free(&A);
    return 0;
}

/* ---- literals and aggregates ---- */

static void test_constants(void **state)
{
    (void)state;
    expect_type(lit_int(1), "int");
    expect_type(lit(cel_uint(1)), "uint");
    expect_type(lit(cel_double(0.5)), "double");
    expect_type(lit(cel_bool(true)), "bool");
    expect_type(lit_str("s"), "string");
    expect_type(lit(cel_bytes_ref("b", 1)), "bytes");
    expect_type(lit(cel_null()), "null_type");
}

static void test_aggregates(void **state)
{
    (void)state;
    expect_type(list1(lit_int(1)), "list(int)");
    expect_type(list0(), "list(dyn)");
    expect_type(list2(lit_int(1), lit_str("a")), "list(dyn)");
    expect_type(map1(lit_str("abc"), lit_int(123)), "map(string, int)");
    expect_type(call(NULL, "_[_]", map1(lit_str("abc"), lit_int(123)), lit_str("abc")), "int");
    expect_type(call(NULL, "_[_]", list1(lit_str("foo")), lit_int(0)), "string");
    /* [[], [[]]]: the empty lists take the shape of the deeper one. */
    expect_type(list2(list0(), list1(list0())), "list(list(list(dyn)))");
    cel_expr *items[] = {list1(list1(list1(list0()))), list0(), list1(list1(list0()))};
    expect_type(list_of(3, items), "list(list(list(list(list(dyn)))))");
}

/* ---- operators and overloads ---- */

static void test_operators(void **state)
{
    (void)state;
    expect_type(call(NULL, "_+_", lit_int(1), lit_int(1)), "int");
    expect_type(call(NULL, "_+_", lit_str("a"), lit_str("b")), "string");
    expect_type(call(NULL, "_+_", list1(lit_int(1)), list0()), "list(int)");
    expect_type(call(NULL, "_<_", lit_int(1), lit(cel_double(2))), "bool");
    /* Heterogeneous equality: any two values compare. */
    expect_type(call(NULL, "_==_", lit_int(1), lit_str("a")), "bool");
    expect_type(call(NULL, "@in", call(NULL, "dyn", lit_int(3)), list1(lit(cel_double(3)))),
                "bool");
    expect_type(call(NULL, "_?_:_", lit(cel_bool(true)), lit_int(1), lit_str("a")), "dyn");
    expect_type(call(NULL, "_?_:_", lit(cel_bool(true)), lit_int(1), lit_int(2)), "int");
    /* dyn matches every overload; only (int, int) accepts a second int. */
    expect_type(call(NULL, "_+_", call(NULL, "dyn", lit_str("x")), lit_int(1)), "int");
    expect_type(call(NULL, "_+_", call(NULL, "dyn", lit_str("x")), call(NULL, "dyn", lit_int(1))),
                "dyn");
    expect_type(call(lit_str("abc"), "startsWith", lit_str("a")), "bool");
    expect_type(call(NULL, "size", list0()), "int");
    expect_type(call(NULL, "type", lit_int(1)), "type(int)");
    expect_type(call(NULL, "_==_", call(NULL, "type", lit_int(1)), ident("int")), "bool");
    expect_type(ident("google.protobuf.Timestamp"), "type(google.protobuf.Timestamp)");
}

static void test_no_overload(void **state)
{
    (void)state;
    const char *src = "1 +\n  'a'";
    cel_source_error err =
        expect_error_in(&no_env, call_at(2, NULL, "_+_", lit_int(1), lit_str("a"), NULL), src,
                        "found no matching overload for '_+_' applied to '(int, string)'");
    assert_int_equal(err.line, 1);
    assert_int_equal(err.col, 3);
    expect_error_in(&no_env, call(NULL, "_%_", lit(cel_double(1)), lit(cel_double(2))), "",
                    "found no matching overload for '_%_' applied to '(double, double)'");
    expect_error_in(&no_env, call(lit_str("a"), "startsWith", lit_int(1)), "",
                    "found no matching overload for 'startsWith' applied to 'string.(int)'");
    expect_error_in(&no_env, call(NULL, "_&&_", lit_str("a"), lit_str("b")), "",
                    "found no matching overload for '_&&_' applied to '(string, string)'");
    expect_error_in(&no_env, call(NULL, "f_unknown", lit_int(17)), "",
                    "undeclared reference to 'f_unknown' (in container '')");
    expect_error_in(&no_env, sel(lit_int(1), "f", false), "",
                    "type 'int' does not support field selection");
}

/* ---- names ---- */

static void test_declared_variables(void **state)
{
    (void)state;
    static const cel_decl decls[] = {{"x", "int"},
                                     {"m", "map(string, dyn)"},
                                     {"ts", "google.protobuf.Timestamp"},
                                     {"o", "optional_type(int)"},
                                     {"v", "google.protobuf.Value"}};
    env en = {NULL, decls, 5};
    expect_type_in(&en, call(NULL, "_+_", ident("x"), lit_int(1)), "int");
    expect_type_in(&en, ident("m"), "map(string, dyn)");
    expect_type_in(&en, sel(ident("m"), "f", false), "dyn");
    expect_type_in(&en, sel(ident("m"), "f", true), "bool");
    expect_type_in(&en, call(ident("ts"), "getFullYear", lit_str("UTC")), "int");
    expect_type_in(&en, call(ident("o"), "orValue", lit_int(0)), "int");
    expect_type_in(&en, call(NULL, "_+_", ident("v"), lit_int(1)), "int");
    const char *src = "x + y";
    cel_source_error err = expect_error_in(&en, ident_at("y", 4), src,
                                           "undeclared reference to 'y' (in container '')");
    assert_int_equal(err.col, 5);
    assert_int_equal(err.offset, 4);
}

static void test_bad_declaration(void **state)
{
    (void)state;
    static const cel_decl decls[] = {{"x", "list(int"}};
    env en = {NULL, decls, 1};
    expect_error_in(&en, lit_int(1), "", "invalid type 'list(int' in the declaration of 'x'");
}

static void test_containers(void **state)
{
    (void)state;
    static const cel_decl decls[] = {{"x.y", "bool"}, {"y", "string"}};
    env en = {"x", decls, 2};
    expect_type_in(&en, ident("y"), "bool");
    expect_type_in(&en, ident(".y"), "string");
    env none = {NULL, decls, 2};
    expect_type_in(&none, sel(ident("x"), "y", false), "bool");
    expect_error_in(&none, ident("z"), "", "undeclared reference to 'z' (in container '')");
    env deep = {"a.b", decls, 2};
    expect_error_in(&deep, ident("z"), "", "undeclared reference to 'z' (in container 'a.b')");
}

static void test_longest_prefix(void **state)
{
    (void)state;
    static const cel_decl decls[] = {{"a.b.c", "string"}, {"a.b", "map(string, int)"}};
    env en = {NULL, decls, 2};
    expect_type_in(&en, sel(sel(ident("a"), "b", false), "c", false), "string");
    expect_type_in(&en, sel(sel(ident("a"), "b", false), "d", false), "int");
    expect_type_in(&en, ident("a.b.c"), "string");
    expect_type_in(&en, ident("a.b.d"), "int");
}

static void test_comprehensions(void **state)
{
    (void)state;
    expect_type(map_macro(list1(lit_int(1)), "x", ident("x")), "list(int)");
    expect_type(map_macro(list1(lit_int(1)), "x", call(NULL, "string", ident("x"))),
                "list(string)");
    /* ([].map(x, x))[0].foo is dyn: the element type is never constrained. */
    expect_type(
        sel(call(NULL, "_[_]", map_macro(list0(), "x", ident("x")), lit_int(0)), "foo", false),
        "dyn");
    /* The iteration variable shadows a declared com.example.y in container com.example. */
    static const cel_decl decls[] = {{"com.example.y", "string"}, {"y.z", "string"}};
    env en = {"com.example", decls, 2};
    expect_type_in(&en,
                   exists_macro(list1(lit_int(0)), "y", call(NULL, "_==_", ident("y"), lit_int(0))),
                   "bool");
    /* y.z is the field of the iteration variable, not the declared y.z. */
    env top = {NULL, decls, 2};
    expect_type_in(
        &top, map_macro(list1(map1(lit_str("z"), lit_int(0))), "y", sel(ident("y"), "z", false)),
        "list(int)");
    expect_error_in(&no_env, exists_macro(lit_int(1), "y", lit(cel_bool(true))), "",
                    "expression of type 'int' cannot be range of a comprehension (must be list, "
                    "map, or dynamic)");
    expect_error_in(&no_env, exists_macro(list1(lit_int(1)), "y", ident("y")), "",
                    "found no matching overload for '_||_' applied to '(bool, int)'");
}

static void test_optionals(void **state)
{
    (void)state;
    cel_expr *none = call(ident("optional"), "none");
    cel_expr *of1 = call(ident("optional"), "of", lit_int(1));
    expect_type(list2(none, of1), "list(optional_type(int))");
    cel_expr *of_dyn = call(ident("optional"), "of", call(NULL, "dyn", lit_int(1)));
    expect_type(list2(call(ident("optional"), "of", lit_int(1)), of_dyn),
                "list(optional_type(dyn))");
    expect_type(call(NULL, "_?_:_", lit(cel_bool(true)),
                     call(ident("optional"), "of", call(NULL, "dyn", lit_int(1))),
                     call(ident("optional"), "of", lit_int(1))),
                "optional_type(dyn)");
    expect_type(call(NULL, "_?._", map1(lit_str("a"), lit_int(1)), lit_str("a")),
                "optional_type(int)");
    expect_type(call(call(ident("optional"), "of", lit_int(1)), "value"), "int");
    /* has({}.?x.y) and x.?y.z look inside the optional. */
    cel_expr *opt_x =
        call(NULL, "_?._", map1(lit_str("x"), map1(lit_str("y"), lit_int(1))), lit_str("x"));
    expect_type(sel(opt_x, "y", true), "bool");
    expect_type(sel(opt_x, "y", false), "optional_type(int)");
    /* optional.none()[?0]: the optional's parameter becomes a list. */
    expect_type(call(NULL, "_[?_]", call(ident("optional"), "none"), lit_int(0)),
                "optional_type(dyn)");
}

/* null joins with the types it may stand for (cel-go's legacy nullable types). */
static void test_null_joins(void **state)
{
    (void)state;
    expect_type(list2(call(NULL, "timestamp", lit_int(0)), lit(cel_null())),
                "list(google.protobuf.Timestamp)");
    expect_type(list2(call(ident("optional"), "of", lit_int(1)), lit(cel_null())),
                "list(optional_type(int))");
    expect_type(list2(lit_int(1), lit(cel_null())), "list(dyn)");
    static const cel_decl decls[] = {{"msg", "my.Msg"}};
    env en = {NULL, decls, 1};
    expect_type_in(&en, list2(ident("msg"), lit(cel_null())), "list(my.Msg)");
    expect_type_in(&en, sel(ident("msg"), "any_field", false), "dyn");
}

static void test_math(void **state)
{
    (void)state;
    expect_type(call(ident("math"), "greatest", lit_int(1), lit_int(2)), "int");
    expect_type(call(ident("math"), "greatest", lit_int(1), lit(cel_double(2))), "dyn");
    expect_type(call(ident("math"), "least", list2(lit(cel_double(1)), lit(cel_double(2)))),
                "double");
    expect_type(call(ident("math"), "abs", lit_int(-1)), "int");
    expect_error_in(&no_env, call(ident("math"), "greatest", lit_str("a")), "",
                    "found no matching overload for 'math.greatest' applied to '(string)'");
}

/* ---- through cel_compile (parser and macros) ---- */

static const char *compiled_type(const char *src, const cel_compile_opts *opts)
{
    cel_program *p = NULL;
    cel_source_error err;
    if (cel_compile(src, strlen(src), opts, &p, &err) != 0)
        fail_msg("%s: unexpected error %d:%d %s", src, err.line, err.col, err.message);
    const char *type = rp_arena_strdup(&A, cel_program_result_type(p));
    cel_program_free(p);
    return type;
}

static void expect_compiled(const char *src, const char *want)
{
    static const cel_decl decls[] = {{"x", "int"},
                                     {"m", "map(string, int)"},
                                     {"event", "map(string, dyn)"},
                                     {"o", "optional_type(string)"}};
    cel_compile_opts opts = {.check = true, .decls = decls, .n_decls = 4};
    const char *type = compiled_type(src, &opts);
    if (strcmp(type, want) != 0)
        fail_msg("%s: got type %s, want %s", src, type, want);
}

static void test_compile(void **state)
{
    (void)state;
    expect_compiled("x + 1", "int");
    expect_compiled("[1, 'a'].map(v, v)", "list(dyn)");
    expect_compiled("[1, 2].map(v, double(v) * 2.0)", "list(double)");
    expect_compiled("[1, 2].filter(v, v > x)", "list(int)");
    expect_compiled("m.exists(k, k.startsWith('a'))", "bool");
    expect_compiled("m.all(k, m[k] > 0) && [1].exists_one(v, v == 1)", "bool");
    expect_compiled("{'a': 1}.transformMap(k, v, v + 1)", "map(string, int)");
    expect_compiled("[1].transformList(i, v, i + v)", "list(int)");
    expect_compiled("cel.bind(y, x * 2, y + 1)", "int");
    expect_compiled("o.optMap(s, size(s))", "optional_type(int)");
    expect_compiled("m.?a.orValue(0)", "int");
    expect_compiled("math.greatest(x, 2)", "int");
    expect_compiled("math.greatest(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17)",
                    "dyn");
    expect_compiled("optional.of(x).value()", "int");
    expect_compiled("event.type == 'tool_call' && event.data.name in ['Bash', 'Shell'] && "
                    "event.data.arguments.command.contains('rm')",
                    "bool");
    expect_compiled("{'result': 'DENY', 'reason': 'no'}", "map(string, string)");
    expect_compiled("timestamp('2024-01-01T00:00:00Z') - duration('1h')",
                    "google.protobuf.Timestamp");
    expect_compiled("type(x) == int ? 'int' : 'other'", "string");
    expect_compiled("has(event.data) ? [] : [[1]]", "list(list(int))");
    /* Map keys compare numerically, as the evaluator looks them up. */
    expect_compiled("{1: 'a'}[1u] + {2u: 'b'}[?2.0].orValue('')", "string");
    expect_compiled("-duration('1s') < duration('0s')", "bool");
}

static void test_compile_errors(void **state)
{
    (void)state;
    static const cel_decl decls[] = {{"x", "int"}};
    cel_compile_opts opts = {.check = true, .decls = decls, .n_decls = 1};
    cel_program *p = NULL;
    cel_source_error err;
    const char *src = "x > 0 &&\n  x + 'a' == 2";
    assert_int_equal(cel_compile(src, strlen(src), &opts, &p, &err), -1);
    assert_null(p);
    assert_string_equal(err.message,
                        "found no matching overload for '_+_' applied to '(int, string)'");
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 5);
    src = "[1].exists(v, v == y)";
    assert_int_equal(cel_compile(src, strlen(src), &opts, &p, &err), -1);
    assert_string_equal(err.message, "undeclared reference to 'y' (in container '')");
    assert_int_equal(err.col, 20);
    /* The same expressions compile unchecked: the errors are the checker's. */
    cel_compile_opts unchecked = {.decls = decls, .n_decls = 1};
    assert_int_equal(cel_compile(src, strlen(src), &unchecked, &p, &err), 0);
    assert_null(cel_program_result_type(p));
    cel_program_free(p);
    /* A constant shadowed by a declaration stays the constant. */
    static const cel_decl shadow[] = {{"false", "string"}};
    cel_compile_opts sh = {.check = true, .decls = shadow, .n_decls = 1};
    assert_string_equal(compiled_type("false", &sh), "bool");
    /* {a: a} nested doubles the type's tree at every level: the work budget stops it. */
    char big[2048];
    size_t k = (size_t)snprintf(big, sizeof big, "cel.bind(a0, {1: 1}, ");
    for (int i = 1; i < 40; i++)
        k += (size_t)snprintf(big + k, sizeof big - k, "cel.bind(a%d, {a%d: a%d}, ", i, i - 1,
                              i - 1);
    k += (size_t)snprintf(big + k, sizeof big - k, "a39");
    for (int i = 0; i < 40; i++)
        big[k++] = ')';
    big[k] = '\0';
    cel_compile_opts none = {.check = true};
    assert_int_equal(cel_compile(big, k, &none, &p, &err), -1);
    assert_string_equal(err.message, "expression too complex to type-check");
    /* Conversions the evaluator does not have are rejected. */
    src = "int(true)";
    assert_int_equal(cel_compile(src, strlen(src), &opts, &p, &err), -1);
    assert_string_equal(err.message, "found no matching overload for 'int' applied to '(bool)'");
}

/* Declared functions, with cel-spec's type_deduction cases for type parameters. */
static void test_declared_functions(void **state)
{
    (void)state;
    static const cel_decl decls[] = {
        {"fn", "(string, int) -> string"},
        {"tuple", "(A, B, C) -> tuple(A, B, C)"},
        {"sort", "(tuple(T, T, T)) -> tuple(T, T, T)"},
        {"shout", ".(string) -> string; .(string, int) -> string"},
        {"my.lib.f", "(int) -> list(int)"},
    };
    cel_compile_opts opts = {.check = true, .decls = decls, .n_decls = 5};
    assert_string_equal(compiled_type("fn('abc', 123)", &opts), "string");
    assert_string_equal(
        compiled_type("[tuple(1, 2u, 3.0), tuple(dyn(1), dyn(2u), dyn(3.0))][0]", &opts),
        "tuple(dyn, dyn, dyn)");
    assert_string_equal(compiled_type("tuple(1, 2u, 3.0)", &opts), "tuple(int, uint, double)");
    assert_string_equal(compiled_type("sort(tuple(dyn(1), 2u, 3.0))", &opts),
                        "tuple(dyn, dyn, dyn)");
    assert_string_equal(compiled_type("tuple(1, 2u, 3.0) == tuple(1, dyn(2u), dyn(3.0))", &opts),
                        "bool");
    assert_string_equal(compiled_type("'a'.shout() + 'b'.shout(2)", &opts), "string");
    assert_string_equal(compiled_type("my.lib.f(1)", &opts), "list(int)");
    cel_program *p = NULL;
    cel_source_error err;
    const char *src = "sort(tuple(1, 'a', 2))";
    assert_int_equal(cel_compile(src, strlen(src), &opts, &p, &err), -1);
    assert_string_equal(
        err.message,
        "found no matching overload for 'sort' applied to '(tuple(int, string, int))'");
    src = "shout('a')";
    assert_int_equal(cel_compile(src, strlen(src), &opts, &p, &err), -1);
    assert_string_equal(err.message,
                        "found no matching overload for 'shout' applied to '(string)'");
    /* A function is not a variable. */
    src = "fn + 1";
    assert_int_equal(cel_compile(src, strlen(src), &opts, &p, &err), -1);
    assert_string_equal(err.message, "undeclared reference to 'fn' (in container '')");
    static const cel_decl bad[] = {{"g", "(int -> int"}};
    cel_compile_opts bad_opts = {.check = true, .decls = bad, .n_decls = 1};
    src = "1";
    assert_int_equal(cel_compile(src, strlen(src), &bad_opts, &p, &err), -1);
    assert_string_equal(err.message,
                        "invalid function signature '(int -> int' in the declaration of 'g'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_constants, setup, teardown),
        cmocka_unit_test_setup_teardown(test_aggregates, setup, teardown),
        cmocka_unit_test_setup_teardown(test_operators, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_overload, setup, teardown),
        cmocka_unit_test_setup_teardown(test_declared_variables, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_declaration, setup, teardown),
        cmocka_unit_test_setup_teardown(test_containers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_longest_prefix, setup, teardown),
        cmocka_unit_test_setup_teardown(test_comprehensions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_optionals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_math, setup, teardown),
        cmocka_unit_test_setup_teardown(test_null_joins, setup, teardown),
        cmocka_unit_test_setup_teardown(test_compile, setup, teardown),
        cmocka_unit_test_setup_teardown(test_compile_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_declared_functions, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
