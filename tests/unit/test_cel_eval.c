/* test_cel_eval.c — the CEL evaluator and compiler: operators, overflow, short-circuit truth
 * tables with errors and unknowns, comprehensions and their budget, optionals, name and
 * container resolution, constant folding. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "cel/cel.h"
#include "cel/eval.h"

/* Evaluates src with the members of the JSON object `vars` as variables (plus `unk`, bound to
 * an unknown, and `err`, bound to an error) and returns the formatted result in buf. */
static const char *run_opts(const char *src, const char *vars, const char *container,
                            uint64_t budget, char *buf, size_t size)
{
    rp_arena a = {0};
    cel_compile_opts opts = {.container = container};
    cel_program *p = NULL;
    cel_source_error err;
    if (cel_compile(src, strlen(src), &opts, &p, &err) != 0)
        fail_msg("compile error for %s: %d:%d %s", src, err.line, err.col, err.message);
    cel_binding b[64];
    size_t n = 0;
    int64_t id = 999;
    b[n].name = "unk";
    b[n++].value = cel_unknown_new(&a, &id, 1);
    b[n].name = "err";
    b[n++].value = cel_error_new(&a, "bound error");
    if (vars) {
        rp_json_error jerr;
        rp_json *j = rp_json_parse(&a, vars, strlen(vars), &jerr);
        if (!j)
            fail_msg("bad vars %s", vars);
        for (uint32_t i = 0; i < j->len && n < 64; i++) {
            b[n].name = j->v.members[i].key;
            b[n++].value = cel_from_json(&j->v.members[i].value);
        }
    }
    cel_activation act = {b, n, NULL, NULL};
    cel_value v = cel_eval_budget(p, &act, &a, budget);
    rp_buf out = {0};
    cel_value_format(&out, &v);
    snprintf(buf, size, "%s", out.data);
    rp_buf_free(&out);
    cel_program_free(p);
    rp_arena_free(&a);
    return buf;
}

static void expect_in(const char *src, const char *vars, const char *container,
                      const char *expected)
{
    char buf[512];
    run_opts(src, vars, container, 0, buf, sizeof buf);
    if (strcmp(buf, expected) != 0)
        fail_msg("%s\n  got      %s\n  expected %s", src, buf, expected);
}

static void expect(const char *src, const char *expected)
{
    expect_in(src, NULL, NULL, expected);
}

static void expect_vars(const char *src, const char *vars, const char *expected)
{
    expect_in(src, vars, NULL, expected);
}

/* The result is an error whose message contains `part`. */
static void expect_error(const char *src, const char *part)
{
    char buf[512];
    run_opts(src, NULL, NULL, 0, buf, sizeof buf);
    if (strncmp(buf, "error: ", 7) != 0 || !strstr(buf, part))
        fail_msg("%s\n  got      %s\n  expected an error containing %s", src, buf, part);
}

static void test_arithmetic(void **state)
{
    (void)state;
    expect("1 + 2 * 3", "7");
    expect("7 / 2", "3");
    expect("-7 / 2", "-3");
    expect("-7 % 3", "-1");
    expect("7u % 3u", "1u");
    expect("1.5 * 2.0", "3.0");
    expect("1.0 / 0.0", "+infinity");
    expect("-(3)", "-3");
    expect("'ab' + 'cd'", "\"abcd\"");
    expect("b'a' + b'b'", "b\"ab\"");
    expect("[1] + [2, 3]", "[1, 2, 3]");
    expect_error("9223372036854775807 + 1", "overflow");
    expect_error("-9223372036854775808 - 1", "overflow");
    expect_error("-9223372036854775808 / -1", "overflow");
    expect_error("-9223372036854775808 % -1", "overflow");
    expect_error("-(-9223372036854775808)", "overflow");
    expect_error("4611686018427387904 * 2", "overflow");
    expect_error("0u - 1u", "overflow");
    expect_error("18446744073709551615u + 1u", "overflow");
    expect_error("1 / 0", "division by zero");
    expect_error("1 % 0", "modulus by zero");
    expect_error("1u / 0u", "division by zero");
    expect_error("1 + 1u", "no such overload");
    expect_error("1 + 1.0", "no such overload");
    expect_error("1.0 % 2.0", "no such overload");
    expect_error("'a' - 'b'", "no such overload");
}

static void test_relations_and_equality(void **state)
{
    (void)state;
    expect("1 == 1u", "true");
    expect("1 == 1.0", "true");
    expect("1u < 2.5", "true");
    expect("-1 < 0u", "true");
    expect("9223372036854775807 < 9223372036854775808.0", "false"); /* lossy, as cel-go */
    expect("9223372036854775807 < 9223372036854777857.0", "true");
    expect("'a' < 'b'", "true");
    expect("b'\\x01' < b'\\xff'", "true");
    expect("false < true", "true");
    expect("1 == 'a'", "false");
    expect("1 != 'a'", "true");
    expect("[1, 2] == [1, 2.0]", "true");
    expect("{'a': 1} == {'a': 1u}", "true");
    expect("{'a': 1, 'b': 2} == {'b': 2, 'a': 1}", "true");
    expect("[1] == [1, 2]", "false");
    expect("null == null", "true");
    expect_error("1 < 'a'", "no such overload");
    expect_error("[1] < [2]", "no such overload");
}

static void test_in_and_index(void **state)
{
    (void)state;
    expect("2 in [1, 2]", "true");
    expect("2.0 in [1, 2]", "true");
    expect("'c' in ['a', 'b']", "false");
    expect("'a' in {'a': 1}", "true");
    expect("1u in {1: 'x'}", "true");
    expect("[1, 2, 3][1]", "2");
    expect("[1, 2, 3][1u]", "2");
    expect("[1, 2, 3][1.0]", "2");
    expect("{'a': 1}['a']", "1");
    expect("{1: 'x'}[1.0]", "\"x\"");
    expect("{'a': {'b': 5}}.a.b", "5");
    expect("has({'a': 1}.a)", "true");
    expect("has({'a': 1}.b)", "false");
    expect_error("[1][1]", "index out of range");
    expect_error("[1][-1]", "index out of range");
    expect_error("[1][1.5]", "no such overload");
    expect_error("{'a': 1}['b']", "no such key: b");
    expect_error("{'a': 1}.b", "no such key: b");
    expect_error("(1).a", "does not support field selection");
}

static void test_logic_truth_tables(void **state)
{
    (void)state;
    expect("true && true", "true");
    expect("true && false", "false");
    expect("false && err", "false");
    expect("err && false", "false");
    expect("true && err", "error: bound error");
    expect("err && true", "error: bound error");
    expect("true || err", "true");
    expect("err || true", "true");
    expect("false || err", "error: bound error");
    expect("unk || true", "true");
    expect("true || unk", "true");
    expect("false && unk", "false");
    expect("unk && false", "false");
    expect("err || unk", "unknown{999}");
    expect("unk && err", "unknown{999}");
    expect("unk && true", "unknown{999}");
    expect("1/0 == 1 || true", "true");
    expect_error("1 && true", "no such overload");
    expect("!false", "true");
    expect("!err", "error: bound error");
    expect("true ? 1 : 1/0", "1");
    expect("false ? 1/0 : 2", "2");
    expect("err ? 1 : 2", "error: bound error");
    expect_error("1 ? 1 : 2", "no such overload");
    /* Strict operators: first error wins, unknowns propagate. */
    expect("err + 1", "error: bound error");
    expect("unk + 1", "unknown{999}");
    expect("1 + err", "error: bound error");
}

static void test_comprehensions(void **state)
{
    (void)state;
    expect("[1, 2, 3].all(x, x > 0)", "true");
    expect("[1, 2, 3].exists(x, x == 2)", "true");
    expect("[1, 2, 3].exists_one(x, x > 1)", "false");
    expect("[1, 2, 3].map(x, x * 2)", "[2, 4, 6]");
    expect("[1, 2, 3].map(x, x > 1, x * 10)", "[20, 30]");
    expect("[1, 2, 3].filter(x, x % 2 == 1)", "[1, 3]");
    expect("{'a': 1, 'b': 2}.map(k, k)", "[\"a\", \"b\"]");
    expect("{'a': 1, 'b': 2}.all(k, k in ['a', 'b'])", "true");
    /* Errors are absorbed by a later decisive element, as in the spec. */
    expect("[0, 1].exists(x, 1 / x == 1)", "true");
    expect("[0, 1].all(x, 1 / x > 5)", "false");
    expect_error("[0].all(x, 1 / x > 5)", "division by zero");
    expect("[[1, 2], [3]].map(l, l.map(x, x + 1))", "[[2, 3], [4]]");
    /* The comprehension variable shadows a binding of the same name. */
    expect_vars("[1, 2].map(x, x)", "{\"x\": 42}", "[1, 2]");
    expect_vars("x + [1].map(x, x)[0]", "{\"x\": 42}", "43");
    expect_error("1.all(x, x)", "cannot be range");
    char buf[256];
    run_opts("[1, 2, 3, 4].map(x, x)", NULL, NULL, 3, buf, sizeof buf);
    assert_string_equal(buf, "error: evaluation budget exceeded");
    run_opts("[1, 2, 3].map(x, x)", NULL, NULL, 3, buf, sizeof buf);
    assert_string_equal(buf, "[1, 2, 3]");
}

static void test_literals(void **state)
{
    (void)state;
    expect("{'a': 1, 2: 'b', true: 3u}", "{\"a\": 1, 2: \"b\", true: 3u}");
    expect_error("{'a': 1, 'a': 2}", "repeated key");
    expect_error("{1: 1, 1u: 2}", "repeated key");
    expect_error("{1.5: 1}", "unsupported key type");
    expect_vars("[x, x + 1]", "{\"x\": 1}", "[1, 2]");
    expect("[1, 1/0, 2]", "error: division by zero");
    expect("Msg{a: 1, b: 'x'}", "{\"a\": 1, \"b\": \"x\"}");
}

static void test_optionals(void **state)
{
    (void)state;
    expect("{'a': 1}.?a", "optional.of(1)");
    expect("{'a': 1}.?b", "optional.none()");
    expect("{'a': {'b': 2}}.?a.b", "optional.of(2)");
    expect("{'a': {'b': 2}}.?x.b", "optional.none()");
    expect("[1, 2][?1]", "optional.of(2)");
    expect("[1, 2][?5]", "optional.none()");
    expect("{'k': 'v'}[?'k']", "optional.of(\"v\")");
    expect("{'k': 'v'}[?'z']", "optional.none()");
    expect("has({'a': {'b': 1}}.?a.b)", "true");
    expect("has({}.?a.b)", "false");
    expect_error("has({'a': 1}.?a.b)", "does not support field selection");
    expect("{true: 0}[?true].absent", "error: no such key: absent (type 'int' does not "
                                      "support field selection)");
    expect("[?{'a': 1}.?a, ?{}.?b, 3]", "[1, 3]");
    expect("{?'a': {'a': 1}.?a, ?'b': {}.?b}", "{\"a\": 1}");
}

static void test_names_and_containers(void **state)
{
    (void)state;
    expect_vars("a.b.c", "{\"a.b.c\": 1}", "1");
    expect_vars("a.b.c", "{\"a.b\": {\"c\": 2}}", "2");
    expect_vars("a.b.c", "{\"a\": {\"b\": {\"c\": 3}}}", "3");
    expect_vars("a.b", "{\"a.b\": 1, \"a\": {\"b\": 2}}", "1");
    expect_in("x", "{\"a.b.x\": 1, \"x\": 2}", "a.b", "1");
    expect_in("x", "{\"a.x\": 1, \"x\": 2}", "a.b", "1");
    expect_in("x", "{\"x\": 2}", "a.b", "2");
    expect_in("y.z", "{\"a.y.z\": 5}", "a.b", "5");
    expect_in(".x", "{\"a.b.x\": 1, \"x\": 2}", "a.b", "2");
    expect_vars("[{'z': 1}].exists(y, .y.z == 'y.z')", "{\"y.z\": \"y.z\"}", "true");
    expect_vars("[{'z': 1}].exists(y, y.z == 1)", "{\"y.z\": \"y.z\"}", "true");
    expect("{'a': 1}.transformMap(k, v, v + 1)", "{\"a\": 2}");
    expect_error("nope", "undeclared reference to 'nope' (in container '')");
    expect("int", "int");
    expect("type", "type");
    expect("google.protobuf.Timestamp", "google.protobuf.Timestamp");
    expect_error("nosuchfn(1)", "no such function: nosuchfn");
    /* Namespaced functions written as receiver calls on a name chain. */
    expect("math.greatest(1, 5, 3)", "5");
    expect("optional.of(1).value()", "1");
    expect("optional.none().hasValue()", "false");
    /* A constant regex is prepared at compile time (and released with the program: ASan
     * builds would report the leak otherwise). */
    expect("'abc'.matches('^a.c$')", "true");
    expect_vars("x.matches('b')", "{\"x\": \"abc\"}", "true");
}

static bool lookup_cb(void *self, const char *name, cel_value *out)
{
    (void)self;
    if (strcmp(name, "late") == 0) {
        *out = cel_int(7);
        return true;
    }
    return false;
}

/* Select chains on variables: the JSON fast path and its fallbacks. */
static void test_select_chains(void **state)
{
    (void)state;
    const char *ev = "{\"e\": {\"a\": {\"b\": {\"c\": 1}}, \"l\": [1], \"n\": null, "
                     "\"k\": 1, \"k\": 2}}";
    expect_vars("e.a.b.c", ev, "1");
    expect_vars("e.a.b", ev, "{\"c\": 1}");
    expect_vars("e.k", ev, "2"); /* last duplicate wins */
    expect_vars("has(e.a.b.c)", ev, "true");
    expect_vars("has(e.a.b.z)", ev, "false");
    expect_vars("e.a.?b.c", ev, "optional.of(1)");
    expect_vars("e.a.?z.c", ev, "optional.none()");
    char buf[512];
    run_opts("e.a.x.c", ev, NULL, 0, buf, sizeof buf);
    assert_string_equal(buf, "error: no such key: x");
    run_opts("e.l.x", ev, NULL, 0, buf, sizeof buf);
    assert_non_null(strstr(buf, "does not support field selection"));
    run_opts("e.n.x", ev, NULL, 0, buf, sizeof buf);
    assert_non_null(strstr(buf, "does not support field selection"));
    expect_vars("unk.a.b", ev, "unknown{999}");
    expect_vars("err.a", ev, "error: bound error");
    /* A native map (built by the expression) in the middle of a chain. */
    expect_vars("[e.a].map(m, {'q': m}.q.b.c)[0]", ev, "1");
    /* Names the activation's callback knows. */
    rp_arena a = {0};
    cel_program *p = NULL;
    cel_source_error err;
    assert_int_equal(cel_compile("late + 1", 8, NULL, &p, &err), 0);
    cel_activation act = {NULL, 0, lookup_cb, NULL};
    cel_value v = cel_eval(p, &act, &a);
    assert_int_equal(v.kind, CEL_INT);
    assert_int_equal(v.v.i, 8);
    cel_program_free(p);
    rp_arena_free(&a);
}

/* Deep nesting: whatever the parser accepts, evaluation must not exhaust the stack. */
static void test_deep_nesting(void **state)
{
    (void)state;
    for (int depth = 10; depth <= 400; depth += 30) {
        char src[8192] = "";
        size_t n = 0;
        for (int i = 0; i < depth; i++)
            n += (size_t)snprintf(src + n, sizeof src - n, "[1].exists(x%d, ", i);
        n += (size_t)snprintf(src + n, sizeof src - n, "true");
        for (int i = 0; i < depth; i++)
            n += (size_t)snprintf(src + n, sizeof src - n, ")");
        cel_program *p = NULL;
        cel_source_error err;
        if (cel_compile(src, n, NULL, &p, &err) != 0) {
            assert_true(depth > 40); /* only beyond the parser's depth limit */
            continue;
        }
        rp_arena a = {0};
        cel_value v = cel_eval(p, NULL, &a);
        assert_int_equal(v.kind, CEL_BOOL);
        assert_true(v.v.b);
        rp_arena_free(&a);
        cel_program_free(p);
    }
}

/* A JSON-backed event through the policy expression from the benchmark, evaluated repeatedly
 * with arena resets as cel_policy does (timing is bench_cel's job). */
static void test_policy_expression(void **state)
{
    (void)state;
    const char *src = "event.type == \"tool_call\" && event.data.name in [\"Bash\", \"Shell\"]";
    const char *event = "{\"type\": \"tool_call\", \"data\": {\"name\": \"Shell\", "
                        "\"arguments\": {\"command\": \"rm -rf /\"}}}";
    rp_arena a = {0};
    cel_program *p = NULL;
    cel_source_error err;
    assert_int_equal(cel_compile(src, strlen(src), NULL, &p, &err), 0);
    rp_json_error jerr;
    rp_json *j = rp_json_parse(&a, event, strlen(event), &jerr);
    assert_non_null(j);
    cel_binding vars[] = {{"event", cel_from_json(j)}};
    cel_activation act = {vars, 1, NULL, NULL};
    rp_arena ev = {0};
    for (int i = 0; i < 1000; i++) {
        cel_value v = cel_eval(p, &act, &ev);
        if (v.kind != CEL_BOOL || !v.v.b)
            fail_msg("unexpected result");
        rp_arena_reset(&ev);
    }
    /* The constant list was folded at compile time. */
    const cel_expr *root = cel_program_ast(p);
    const cel_expr *in = root->u.call.args[1];
    assert_int_equal(in->u.call.args[1]->kind, CEL_EXPR_CONST);
    rp_arena_free(&ev);
    rp_arena_free(&a);
    cel_program_free(p);
    /* Calls with constant arguments are prepared once, at compile time. */
    const char *re = "event.data.name.matches('^B')";
    assert_int_equal(cel_compile(re, strlen(re), NULL, &p, &err), 0);
    assert_int_equal(p->n_prepared, 1);
    cel_program_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arithmetic),        cmocka_unit_test(test_relations_and_equality),
        cmocka_unit_test(test_in_and_index),      cmocka_unit_test(test_logic_truth_tables),
        cmocka_unit_test(test_comprehensions),    cmocka_unit_test(test_literals),
        cmocka_unit_test(test_optionals),         cmocka_unit_test(test_names_and_containers),
        cmocka_unit_test(test_select_chains),     cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_policy_expression),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
