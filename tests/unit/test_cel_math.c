/* test_cel_math.c — the CEL math extension (src/cel/lib_math.c), called through its table.
 *
 * The expected values follow cel-spec's math_ext.textproto; the conformance runner checks the
 * whole file through the parser and evaluator, these check the functions themselves, including
 * the edges (INT64_MIN, shifts of 64, NaN) where C would otherwise be undefined. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "cel/cel.h"
#include "cel/fn.h"

static rp_arena arena;

static const cel_function *find(const char *name)
{
    for (const cel_function *f = cel_lib_math; f->name; f++) {
        if (strcmp(f->name, name) == 0) {
            return f;
        }
    }
    fail_msg("no function %s in cel_lib_math", name);
    return NULL;
}

static cel_value call(const char *name, const cel_value *args, uint32_t nargs)
{
    const cel_function *f = find(name);
    cel_call c = {.arena = &arena, .prepared = NULL, .expr_id = 1};
    return f->impl(&c, args, nargs);
}

static cel_value call1(const char *name, cel_value a)
{
    return call(name, &a, 1);
}

static cel_value call2(const char *name, cel_value a, cel_value b)
{
    cel_value args[2] = {a, b};
    return call(name, args, 2);
}

static void assert_int_value(cel_value v, int64_t want)
{
    if (v.kind != CEL_INT) {
        fail_msg("expected int %lld, got kind %d%s%s", (long long)want, v.kind,
                 v.kind == CEL_ERROR ? ": " : "", v.kind == CEL_ERROR ? v.v.err->message : "");
    }
    assert_true(v.v.i == want);
}

static void assert_uint_value(cel_value v, uint64_t want)
{
    assert_int_equal(v.kind, CEL_UINT);
    assert_true(v.v.u == want);
}

static void assert_double_value(cel_value v, double want)
{
    assert_int_equal(v.kind, CEL_DOUBLE);
    assert_true(v.v.d == want);
}

static void assert_error_containing(cel_value v, const char *needle)
{
    assert_int_equal(v.kind, CEL_ERROR);
    if (!strstr(v.v.err->message, needle)) {
        fail_msg("error '%s' does not contain '%s'", v.v.err->message, needle);
    }
}

/* Compiles and evaluates src (no variables) in the test arena. */
static cel_value eval_expr(const char *src)
{
    cel_program *p = NULL;
    cel_source_error err;
    if (cel_compile(src, strlen(src), NULL, &p, &err) != 0) {
        fail_msg("%s does not compile: %d:%d %s", src, err.line, err.col, err.message);
    }
    cel_value v = cel_eval(p, NULL, &arena);
    cel_program_free(p); /* the result lives in the arena, not the program */
    return v;
}

static void assert_true_expr(const char *src)
{
    cel_value v = eval_expr(src);
    if (v.kind != CEL_BOOL || !v.v.b) {
        rp_buf b = {0};
        cel_value_format(&b, &v);
        fail_msg("%s gives %s, expected true", src, b.data ? b.data : "?");
    }
}

static int setup(void **state)
{
    (void)state;
    rp_arena_init(&arena, 4096);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rp_arena_free(&arena);
    return 0;
}

static void test_table_is_global_and_dotted(void **state)
{
    (void)state;
    int n = 0;
    for (const cel_function *f = cel_lib_math; f->name; f++, n++) {
        assert_true(strncmp(f->name, "math.", 5) == 0);
        assert_true(f->flags & CEL_FN_GLOBAL);
        assert_false(f->flags & CEL_FN_RECEIVER);
        assert_non_null(f->impl);
    }
    assert_int_equal(n, 18);
}

static void test_greatest_least_keep_the_winner_type(void **state)
{
    (void)state;
    assert_int_value(call1("math.greatest", cel_int(-5)), -5);
    assert_uint_value(call1("math.least", cel_uint(5)), 5);
    assert_int_value(call2("math.greatest", cel_int(-7), cel_int(5)), 5);
    assert_int_value(call2("math.least", cel_int(5), cel_int(-7)), -7);
    /* Mixed kinds compare by value and return the winner as it is. */
    assert_uint_value(call2("math.greatest", cel_int(-3), cel_uint(3)), 3);
    assert_uint_value(call2("math.greatest", cel_uint(5), cel_int(-7)), 5);
    assert_double_value(call2("math.greatest", cel_int(1), cel_double(1.797693e308)), 1.797693e308);
    assert_int_value(call2("math.greatest", cel_int(INT64_MIN), cel_int(1)), 1);
    assert_int_value(call2("math.least", cel_int(1), cel_int(INT64_MIN)), INT64_MIN);
    assert_uint_value(call2("math.greatest", cel_uint(1), cel_uint(UINT64_MAX)), UINT64_MAX);
    /* A tie keeps the first argument: greatest(1, 1.0) is the int. */
    assert_int_value(call2("math.greatest", cel_int(1), cel_double(1.0)), 1);
    assert_double_value(call2("math.least", cel_double(1.0), cel_int(1)), 1.0);
    cel_value five[5] = {cel_double(5.4), cel_int(10), cel_uint(3), cel_double(-5.0),
                         cel_int(INT64_MAX)};
    assert_int_value(call("math.greatest", five, 5), INT64_MAX);
    assert_double_value(call("math.least", five, 5), -5.0);
}

static void test_greatest_least_of_a_list(void **state)
{
    (void)state;
    cel_value items[5] = {cel_double(5.4), cel_uint(10), cel_uint(3), cel_double(-5.0),
                          cel_double(3.5)};
    cel_value list = cel_list_new(&arena, items, 5);
    assert_uint_value(call1("math.greatest", list), 10);
    assert_double_value(call1("math.least", list), -5.0);
    cel_value single = cel_list_new(&arena, items + 4, 1);
    assert_double_value(call1("math.greatest", single), 3.5);

    cel_value empty = cel_list_new(&arena, NULL, 0);
    assert_error_containing(call1("math.greatest", empty), "empty");
    assert_error_containing(call1("math.least", empty), "empty");

    cel_value mixed[2] = {cel_int(1), cel_string_ref("x", 1)};
    assert_error_containing(call1("math.greatest", cel_list_new(&arena, mixed, 2)),
                            "no such overload");
    cel_value first_bad[2] = {cel_bool(true), cel_int(1)};
    assert_error_containing(call1("math.least", cel_list_new(&arena, first_bad, 2)),
                            "no such overload");
}

static void test_greatest_least_errors(void **state)
{
    (void)state;
    assert_int_equal(call("math.greatest", NULL, 0).kind, CEL_ERROR);
    assert_error_containing(call1("math.greatest", cel_string_ref("a", 1)), "no such overload");
    assert_error_containing(call2("math.least", cel_int(1), cel_bool(false)), "no such overload");
    /* Two lists are not the list form. */
    cel_value l = cel_list_new(&arena, NULL, 0);
    assert_error_containing(call2("math.greatest", l, l), "no such overload");
}

static void test_greatest_with_nan_never_picks_nan_later(void **state)
{
    (void)state;
    assert_int_value(call2("math.greatest", cel_int(3), cel_double(NAN)), 3);
    assert_int_value(call2("math.least", cel_int(3), cel_double(NAN)), 3);
}

static void test_rounding(void **state)
{
    (void)state;
    assert_double_value(call1("math.ceil", cel_double(-1.2)), -1.0);
    assert_double_value(call1("math.ceil", cel_double(1.2)), 2.0);
    assert_double_value(call1("math.floor", cel_double(-1.2)), -2.0);
    assert_double_value(call1("math.floor", cel_double(1.2)), 1.0);
    assert_double_value(call1("math.round", cel_double(-1.5)), -2.0);
    assert_double_value(call1("math.round", cel_double(-1.4)), -1.0);
    assert_double_value(call1("math.round", cel_double(1.5)), 2.0);
    assert_double_value(call1("math.round", cel_double(2.5)), 3.0); /* away from zero */
    assert_double_value(call1("math.trunc", cel_double(-1.7)), -1.0);
    assert_double_value(call1("math.trunc", cel_double(1.7)), 1.0);
    assert_true(isnan(call1("math.round", cel_double(NAN)).v.d));
    assert_true(isnan(call1("math.trunc", cel_double(NAN)).v.d));
    /* No implicit int → double. */
    const char *names[] = {"math.ceil", "math.floor", "math.round", "math.trunc"};
    for (size_t i = 0; i < 4; i++) {
        assert_error_containing(call1(names[i], cel_int(1)), "no such overload");
    }
}

static void test_abs(void **state)
{
    (void)state;
    assert_uint_value(call1("math.abs", cel_uint(1)), 1);
    assert_int_value(call1("math.abs", cel_int(-11)), 11);
    assert_int_value(call1("math.abs", cel_int(INT64_MAX)), INT64_MAX);
    assert_int_value(call1("math.abs", cel_int(-INT64_MAX)), INT64_MAX);
    assert_double_value(call1("math.abs", cel_double(-11.5)), 11.5);
    assert_error_containing(call1("math.abs", cel_int(INT64_MIN)), "overflow");
    assert_error_containing(call1("math.abs", cel_bool(true)), "no such overload");
}

static void test_sign(void **state)
{
    (void)state;
    assert_uint_value(call1("math.sign", cel_uint(100)), 1);
    assert_uint_value(call1("math.sign", cel_uint(0)), 0);
    assert_int_value(call1("math.sign", cel_int(100)), 1);
    assert_int_value(call1("math.sign", cel_int(-11)), -1);
    assert_int_value(call1("math.sign", cel_int(INT64_MIN)), -1);
    assert_int_value(call1("math.sign", cel_int(0)), 0);
    assert_double_value(call1("math.sign", cel_double(100.5)), 1.0);
    assert_double_value(call1("math.sign", cel_double(-32.0)), -1.0);
    assert_double_value(call1("math.sign", cel_double(0.0)), 0.0);
    assert_true(isnan(call1("math.sign", cel_double(NAN)).v.d));
    assert_error_containing(call1("math.sign", cel_bool(true)), "no such overload");
}

static void test_classification(void **state)
{
    (void)state;
    assert_true(call1("math.isNaN", cel_double(NAN)).v.b);
    assert_false(call1("math.isNaN", cel_double(INFINITY)).v.b);
    assert_true(call1("math.isInf", cel_double(-INFINITY)).v.b);
    assert_false(call1("math.isInf", cel_double(NAN)).v.b);
    assert_true(call1("math.isFinite", cel_double(1.0 / 1.5)).v.b);
    assert_false(call1("math.isFinite", cel_double(NAN)).v.b);
    assert_false(call1("math.isFinite", cel_double(-INFINITY)).v.b);
    assert_int_equal(call1("math.isNaN", cel_double(1.0)).kind, CEL_BOOL);
    assert_error_containing(call1("math.isNaN", cel_bool(true)), "no such overload");
    assert_error_containing(call1("math.isInf", cel_int(1)), "no such overload");
    assert_error_containing(call1("math.isFinite", cel_uint(1)), "no such overload");
}

static void test_sqrt(void **state)
{
    (void)state;
    assert_double_value(call1("math.sqrt", cel_int(49)), 7.0);
    assert_double_value(call1("math.sqrt", cel_uint(4)), 2.0);
    assert_double_value(call1("math.sqrt", cel_double(2.25)), 1.5);
    assert_true(isnan(call1("math.sqrt", cel_int(-1)).v.d));
    assert_error_containing(call1("math.sqrt", cel_string_ref("4", 1)), "no such overload");
}

static void test_bitwise(void **state)
{
    (void)state;
    assert_int_value(call2("math.bitAnd", cel_int(1), cel_int(2)), 0);
    assert_int_value(call2("math.bitAnd", cel_int(1), cel_int(-1)), 1);
    assert_uint_value(call2("math.bitAnd", cel_uint(1), cel_uint(3)), 1);
    assert_int_value(call2("math.bitOr", cel_int(4), cel_int(-2)), -2);
    assert_uint_value(call2("math.bitOr", cel_uint(1), cel_uint(4)), 5);
    assert_int_value(call2("math.bitXor", cel_int(4), cel_int(-2)), -6);
    assert_uint_value(call2("math.bitXor", cel_uint(1), cel_uint(3)), 2);
    assert_int_value(call1("math.bitNot", cel_int(1)), -2);
    assert_int_value(call1("math.bitNot", cel_int(-1)), 0);
    assert_int_value(call1("math.bitNot", cel_int(INT64_MIN)), INT64_MAX);
    assert_uint_value(call1("math.bitNot", cel_uint(0)), UINT64_MAX);
    /* int and uint do not mix. */
    assert_error_containing(call2("math.bitAnd", cel_uint(2), cel_int(1)), "no such overload");
    assert_error_containing(call2("math.bitOr", cel_double(1.2), cel_int(1)), "no such overload");
    assert_error_containing(call1("math.bitNot", cel_string_ref("", 0)), "no such overload");
}

static void test_shifts(void **state)
{
    (void)state;
    assert_int_value(call2("math.bitShiftLeft", cel_int(1), cel_int(2)), 4);
    assert_int_value(call2("math.bitShiftLeft", cel_int(1), cel_int(63)), INT64_MIN);
    assert_int_value(call2("math.bitShiftLeft", cel_int(1), cel_int(64)), 0);
    assert_int_value(call2("math.bitShiftLeft", cel_int(-1), cel_int(200)), 0);
    assert_uint_value(call2("math.bitShiftLeft", cel_uint(1), cel_int(2)), 4);
    assert_uint_value(call2("math.bitShiftLeft", cel_uint(1), cel_int(200)), 0);
    assert_int_value(call2("math.bitShiftRight", cel_int(1024), cel_int(2)), 256);
    assert_int_value(call2("math.bitShiftRight", cel_int(1024), cel_int(64)), 0);
    /* Logical, not arithmetic, for ints. */
    assert_int_value(call2("math.bitShiftRight", cel_int(-1024), cel_int(3)),
                     2305843009213693824LL);
    assert_int_value(call2("math.bitShiftRight", cel_int(-1024), cel_int(64)), 0);
    assert_uint_value(call2("math.bitShiftRight", cel_uint(1024), cel_int(2)), 256);
    assert_uint_value(call2("math.bitShiftRight", cel_uint(UINT64_MAX), cel_int(63)), 1);
    assert_error_containing(call2("math.bitShiftLeft", cel_uint(1), cel_int(-1)),
                            "negative offset");
    assert_error_containing(call2("math.bitShiftRight", cel_int(1), cel_int(INT64_MIN)),
                            "negative offset");
    /* The amount must be an int. */
    assert_error_containing(call2("math.bitShiftLeft", cel_int(1), cel_uint(1)),
                            "no such overload");
    assert_error_containing(call2("math.bitShiftLeft", cel_double(4.3), cel_int(1)),
                            "no such overload");
}

/* The same functions reached through the compiler (math.x(...) resolves to the dotted name)
 * and the evaluator. */
static void test_through_the_evaluator(void **state)
{
    (void)state;
    const char *exprs[] = {
        "math.greatest(5.4, 10, 3u, -5.0, 9223372036854775807) == 9223372036854775807",
        "math.least([dyn(5.4), dyn(10u), dyn(3u), dyn(1u), dyn(3.5)]) == 1u",
        "type(math.greatest(1, 1.0)) == int",
        "type(math.least(2u, 2.0)) == uint",
        "math.isNaN(math.round(0.0/0.0))",
        "math.bitShiftRight(-1024, 3) == 2305843009213693824",
        "math.bitNot(0u) == 18446744073709551615u",
        "math.sign(-0.5) == -1.0 && math.abs(-3) == 3",
        "math.sqrt(16) == 4.0",
        "[1, 5, 3].map(x, math.bitShiftLeft(x, 1)) == [2, 10, 6]",
    };
    for (size_t i = 0; i < sizeof exprs / sizeof exprs[0]; i++) {
        assert_true_expr(exprs[i]);
    }
    assert_error_containing(eval_expr("math.abs(-9223372036854775808)"), "overflow");
    assert_error_containing(eval_expr("math.ceil(dyn(1))"), "no such overload");
    assert_error_containing(eval_expr("math.bitShiftLeft(1u, -1)"), "negative offset");
    assert_int_equal(eval_expr("math.greatest([])").kind, CEL_ERROR);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_is_global_and_dotted),
        cmocka_unit_test(test_greatest_least_keep_the_winner_type),
        cmocka_unit_test(test_greatest_least_of_a_list),
        cmocka_unit_test(test_greatest_least_errors),
        cmocka_unit_test(test_greatest_with_nan_never_picks_nan_later),
        cmocka_unit_test(test_rounding),
        cmocka_unit_test(test_abs),
        cmocka_unit_test(test_sign),
        cmocka_unit_test(test_classification),
        cmocka_unit_test(test_sqrt),
        cmocka_unit_test(test_bitwise),
        cmocka_unit_test(test_shifts),
        cmocka_unit_test(test_through_the_evaluator),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
