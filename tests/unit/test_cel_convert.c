/* test_cel_convert.c — size, type, dyn and the conversions of lib_core.c, called through the
 * function tables as the evaluator calls them (cases from conversions.textproto and more). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cel/cel.h"
#include "cel/fn.h"
#include "cel/value.h"

static rp_arena arena;

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

static cel_value call1(const char *name, cel_value x)
{
    const cel_function *f = cel_function_find(name, false);
    if (!f)
        fail_msg("no global function %s", name);
    cel_call c = {.arena = &arena};
    return f->impl(&c, &x, 1);
}

static cel_value str(const char *s)
{
    return cel_string_ref(s, strlen(s));
}

static void assert_error_like(cel_value v, const char *fragment)
{
    if (v.kind != CEL_ERROR)
        fail_msg("expected an error containing '%s', got kind %d", fragment, v.kind);
    if (!strstr(v.v.err->message, fragment))
        fail_msg("error '%s' does not contain '%s'", v.v.err->message, fragment);
}

static void assert_int_value(cel_value v, int64_t want)
{
    if (v.kind != CEL_INT)
        fail_msg("expected int %lld, got kind %d (%s)", (long long)want, v.kind,
                 v.kind == CEL_ERROR ? v.v.err->message : "");
    assert_true(v.v.i == want);
}

static void assert_uint_value(cel_value v, uint64_t want)
{
    if (v.kind != CEL_UINT)
        fail_msg("expected uint, got kind %d (%s)", v.kind,
                 v.kind == CEL_ERROR ? v.v.err->message : "");
    assert_true(v.v.u == want);
}

static void assert_string_value(cel_value v, const char *want)
{
    if (v.kind != CEL_STRING)
        fail_msg("expected string '%s', got kind %d (%s)", want, v.kind,
                 v.kind == CEL_ERROR ? v.v.err->message : "");
    if (v.len != strlen(want) || memcmp(v.v.s, want, v.len) != 0)
        fail_msg("expected '%s', got '%.*s'", want, (int)v.len, v.v.s);
}

static void test_int(void **state)
{
    (void)state;
    assert_int_value(call1("int", cel_uint(42)), 42);
    assert_int_value(call1("int", cel_uint(INT64_MAX)), INT64_MAX);
    assert_error_like(call1("int", cel_uint(UINT64_MAX)), "range");
    assert_int_value(call1("int", cel_double(-123.456)), -123);
    assert_int_value(call1("int", cel_double(1.9)), 1);
    assert_int_value(call1("int", cel_double(-7.9)), -7);
    assert_int_value(call1("int", cel_double(11.5)), 11);
    assert_int_value(call1("int", cel_double(36028797018963968.0)), INT64_C(36028797018963968));
    assert_error_like(call1("int", cel_double(9223372036854775807.0)), "range");
    assert_error_like(call1("int", cel_double(-9223372036854775808.0)), "range");
    assert_int_value(call1("int", cel_double(-9223372036854774784.0)),
                     INT64_C(-9223372036854774784));
    assert_error_like(call1("int", cel_double(1e99)), "range");
    assert_error_like(call1("int", cel_double(NAN)), "range");
    assert_error_like(call1("int", cel_double(-INFINITY)), "range");
    assert_int_value(call1("int", str("987")), 987);
    assert_int_value(call1("int", str("-9223372036854775808")), INT64_MIN);
    assert_int_value(call1("int", str("+12")), 12);
    assert_error_like(call1("int", str("9223372036854775808")), "range");
    assert_error_like(call1("int", str("0x10")), "conversion");
    assert_error_like(call1("int", str(" 1")), "conversion");
    assert_error_like(call1("int", str("1.0")), "conversion");
    assert_error_like(call1("int", str("")), "conversion");
    assert_error_like(call1("int", str("-")), "conversion");
    assert_int_value(call1("int", cel_timestamp(1095379199, 0)), 1095379199);
    assert_int_value(call1("int", cel_timestamp(-1, 500000000)), -1);
    assert_int_value(call1("int", cel_duration(-1, -500000000)), -1500000000);
    assert_int_value(call1("int", cel_duration(INT64_C(9223372036), 854775807)), INT64_MAX);
    assert_int_value(call1("int", cel_int(1)), 1);
    assert_error_like(call1("int", cel_bool(true)), "overload");
}

static void test_uint(void **state)
{
    (void)state;
    assert_uint_value(call1("uint", cel_int(1729)), 1729);
    assert_uint_value(call1("uint", cel_int(INT64_MAX)), (uint64_t)INT64_MAX);
    assert_error_like(call1("uint", cel_int(-1)), "range");
    assert_uint_value(call1("uint", cel_double(3.14159265)), 3);
    assert_uint_value(call1("uint", cel_double(25.5)), 25);
    assert_uint_value(call1("uint", cel_double(-0.0)), 0);
    assert_error_like(call1("uint", cel_double(-0.5)), "range");
    assert_error_like(call1("uint", cel_double(6.022e23)), "range");
    assert_error_like(call1("uint", cel_double(18446744073709551615.0)), "range");
    assert_uint_value(call1("uint", cel_double(18446744073709549568.0)),
                      UINT64_C(18446744073709549568));
    assert_uint_value(call1("uint", str("300")), 300);
    assert_uint_value(call1("uint", str("18446744073709551615")), UINT64_MAX);
    assert_error_like(call1("uint", str("18446744073709551616")), "range");
    assert_error_like(call1("uint", str("-1")), "conversion");
    assert_error_like(call1("uint", str("+1")), "conversion");
    assert_uint_value(call1("uint", cel_uint(1)), 1);
}

static void assert_double_value(cel_value v, double want)
{
    if (v.kind != CEL_DOUBLE)
        fail_msg("expected double %g, got kind %d (%s)", want, v.kind,
                 v.kind == CEL_ERROR ? v.v.err->message : "");
    if (isnan(want))
        assert_true(isnan(v.v.d));
    else
        assert_true(v.v.d == want && signbit(v.v.d) == signbit(want));
}

static void test_double(void **state)
{
    (void)state;
    assert_double_value(call1("double", cel_int(0)), 0.0);
    assert_double_value(call1("double", cel_int(-1000000000000000)), -1e15);
    assert_double_value(call1("double", cel_int(INT64_MAX)), 9.223372036854775807e18);
    assert_double_value(call1("double", cel_uint(UINT64_MAX)), 1.8446744073709551615e19);
    assert_double_value(call1("double", str("0")), 0.0);
    assert_double_value(call1("double", str("-0.0")), -0.0);
    assert_double_value(call1("double", str("123.456")), 123.456);
    assert_double_value(call1("double", str("6.02214e23")), 6.02214e23);
    assert_double_value(call1("double", str("-5.43e-21")), -5.43e-21);
    assert_double_value(call1("double", str("1e-400")), 0.0); /* underflow rounds, as in Go */
    assert_double_value(call1("double", str("Inf")), INFINITY);
    assert_double_value(call1("double", str("-infinity")), -INFINITY);
    assert_double_value(call1("double", str("NaN")), NAN);
    assert_double_value(call1("double", str("0x1p-2")), 0.25);
    assert_double_value(call1("double", str(".5")), 0.5);
    assert_error_like(call1("double", str("1e400")), "range");
    assert_error_like(call1("double", str(" 1")), "conversion");
    assert_error_like(call1("double", str("1 ")), "conversion");
    assert_error_like(call1("double", str("nan(1)")), "conversion");
    assert_error_like(call1("double", str("-nan")), "conversion");
    assert_error_like(call1("double", str("0x10")), "conversion");
    assert_error_like(call1("double", str("")), "conversion");
    assert_error_like(call1("double", str("abc")), "conversion");
    assert_double_value(call1("double", cel_double(5.5)), 5.5);
}

static void test_string(void **state)
{
    (void)state;
    assert_string_value(call1("string", cel_int(123)), "123");
    assert_string_value(call1("string", cel_int(-456)), "-456");
    assert_string_value(call1("string", cel_int(INT64_MIN)), "-9223372036854775808");
    assert_string_value(call1("string", cel_uint(9876)), "9876");
    assert_string_value(call1("string", cel_bool(true)), "true");
    assert_string_value(call1("string", str("hello")), "hello");
    assert_string_value(call1("string", cel_bytes_ref("abc", 3)), "abc");
    assert_string_value(call1("string", cel_bytes_ref("\303\277", 2)), "ÿ");
    assert_error_like(call1("string", cel_bytes_ref("\000\xff", 2)), "invalid UTF-8");
    assert_error_like(call1("string", cel_bytes_ref("\xc0\x80", 2)), "invalid UTF-8");
    assert_error_like(call1("string", cel_bytes_ref("\xed\xa0\x80", 3)), "invalid UTF-8");
    assert_error_like(call1("string", cel_bytes_ref("\xe2\x82", 2)), "invalid UTF-8");
    assert_string_value(call1("string", cel_bytes_ref("\xf0\x9f\x98\x80", 4)), "😀");
    assert_string_value(call1("string", cel_timestamp(1234567890, 0)), "2009-02-13T23:31:30Z");
    assert_string_value(call1("string", cel_duration(1000000, 0)), "1000000s");
    assert_string_value(call1("string", cel_duration(-1, -500000000)), "-1.5s");
}

/* string(double) is Go's %g shortest form. */
static void test_string_double(void **state)
{
    (void)state;
    static const struct {
        double d;
        const char *want;
    } cases[] = {
        {123.456, "123.456"},
        {-4.5e-3, "-0.0045"},
        {0.0, "0"},
        {-0.0, "-0"},
        {1.0, "1"},
        {1.5, "1.5"},
        {100000.0, "100000"},
        {123456.0, "123456"},
        {1000000.0, "1e+06"},
        {1234567.0, "1.234567e+06"},
        {0.0001, "0.0001"},
        {0.00001, "1e-05"},
        {1e100, "1e+100"},
        {-2.5e-300, "-2.5e-300"},
        {0.1, "0.1"},
        {1.0 / 3.0, "0.3333333333333333"},
        {9007199254740993.0, "9.007199254740992e+15"},
        {5e-324, "5e-324"},
        {1.7976931348623157e308, "1.7976931348623157e+308"},
        {INFINITY, "+Inf"},
        {-INFINITY, "-Inf"},
        {NAN, "NaN"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_string_value(call1("string", cel_double(cases[i].d)), cases[i].want);
}

static void test_bytes_and_bool(void **state)
{
    (void)state;
    cel_value b = call1("bytes", str("ÿ"));
    assert_int_equal(b.kind, CEL_BYTES);
    assert_int_equal(b.len, 2);
    assert_memory_equal(b.v.s, "\303\277", 2);
    b = call1("bytes", cel_bytes_ref("abc", 3));
    assert_int_equal(b.kind, CEL_BYTES);
    assert_int_equal(b.len, 3);
    assert_error_like(call1("bytes", cel_int(1)), "overload");

    static const char *const truths[] = {"1", "t", "T", "true", "TRUE", "True"};
    static const char *const falsehoods[] = {"0", "f", "F", "false", "FALSE", "False"};
    for (size_t i = 0; i < 6; i++) {
        cel_value t = call1("bool", str(truths[i]));
        assert_int_equal(t.kind, CEL_BOOL);
        assert_true(t.v.b);
        cel_value f = call1("bool", str(falsehoods[i]));
        assert_int_equal(f.kind, CEL_BOOL);
        assert_false(f.v.b);
    }
    assert_error_like(call1("bool", str("TrUe")), "conversion");
    assert_error_like(call1("bool", str("FaLsE")), "conversion");
    assert_error_like(call1("bool", str("yes")), "conversion");
    assert_error_like(call1("bool", str("")), "conversion");
    assert_true(call1("bool", cel_bool(true)).v.b);
    assert_error_like(call1("bool", cel_int(1)), "overload");
}

static void test_size_type_dyn(void **state)
{
    (void)state;
    assert_int_value(call1("size", str("")), 0);
    assert_int_value(call1("size", str("héllo😀")), 6);
    assert_int_value(call1("size", cel_bytes_ref("\303\277", 2)), 2);
    cel_value items[3] = {cel_int(1), cel_int(2), cel_int(3)};
    cel_value list = cel_list_new(&arena, items, 3);
    assert_int_value(call1("size", list), 3);
    cel_value keys[2] = {str("a"), str("b")};
    cel_value map = cel_map_new(&arena, keys, items, 2);
    assert_int_value(call1("size", map), 2);
    assert_error_like(call1("size", cel_int(1)), "overload");

    /* size is a receiver too: "abc".size() */
    const cel_function *f = cel_function_find("size", true);
    assert_non_null(f);
    cel_call c = {.arena = &arena};
    cel_value s = str("abc");
    assert_int_value(f->impl(&c, &s, 1), 3);

    cel_value t = call1("type", cel_int(1));
    assert_int_equal(t.kind, CEL_TYPE);
    assert_string_equal(t.v.type_name, "int");
    assert_string_equal(call1("type", list).v.type_name, "list");
    assert_string_equal(call1("type", cel_null()).v.type_name, "null_type");
    assert_string_equal(call1("type", cel_timestamp(0, 0)).v.type_name,
                        "google.protobuf.Timestamp");
    assert_string_equal(call1("type", cel_duration(0, 0)).v.type_name, "google.protobuf.Duration");
    assert_string_equal(call1("type", t).v.type_name, "type");

    cel_value d = call1("dyn", cel_uint(7));
    assert_int_equal(d.kind, CEL_UINT);
    assert_true(d.v.u == 7);
}

/* ---- through the compiler and evaluator ---- */

static const char *const true_exprs[] = {
    "bytes('\\377') != b'\\377'",
    "bytes('\u00ff') == b'\\303\\277'",
    "type(dyn([1, 'one'])) == list",
    "int(double(36028797018963969)) == 36028797018963968",
    "uint(double(36028797018963969u)) == 36028797018963968u",
    "int('-42') + 1 == -41",
    "double('-5.43e-21') == -5.43e-21",
    "string(-4.5e-3) == '-0.0045'",
    "string(1e6) == '1e+06'",
    "string(b'\\303\\277') == '\u00ff'",
    "bool('True') && !bool('f')",
    "'h\u00e9llo'.size() == 5 && size(b'\\303\\251') == 2",
    "size([1, 2, 3]) == 3 && {'a': 1}.size() == 1",
    "type(type(7)) == type(type(7u)) && type(7) != type(7u)",
    "string(duration('-1.5s')) == '-1.5s'",
    "int(duration('1.5s')) == 1500000000",
};

static const struct {
    const char *expr, *fragment;
} error_exprs[] = {
    {"int(18446744073709551615u)", "range"},
    {"int(-9223372036854775808.0)", "range"},
    {"int(1e99)", "range"},
    {"uint(-1)", "range"},
    {"uint(6.022e23)", "range"},
    {"string(b'\\000\\xff')", "invalid UTF-8"},
    {"bool('TrUe')", "conversion"},
    {"int('1.5')", "conversion"},
    {"size(1)", "overload"},
    {"int([1])", "overload"},
};

static cel_value eval_text(const char *src)
{
    cel_program *p;
    cel_source_error err;
    if (cel_compile(src, strlen(src), NULL, &p, &err) != 0)
        fail_msg("%s: compile error %d:%d %s", src, err.line, err.col, err.message);
    cel_value v = cel_eval(p, NULL, &arena);
    cel_program_free(p);
    return v;
}

static void test_expressions(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof true_exprs / sizeof true_exprs[0]; i++) {
        cel_value v = eval_text(true_exprs[i]);
        if (v.kind != CEL_BOOL || !v.v.b)
            fail_msg("%s: kind %d (%s)", true_exprs[i], v.kind,
                     v.kind == CEL_ERROR ? v.v.err->message : "not true");
    }
    for (size_t i = 0; i < sizeof error_exprs / sizeof error_exprs[0]; i++) {
        cel_value v = eval_text(error_exprs[i].expr);
        if (v.kind != CEL_ERROR || !strstr(v.v.err->message, error_exprs[i].fragment))
            fail_msg("%s: expected an error with '%s', got kind %d (%s)", error_exprs[i].expr,
                     error_exprs[i].fragment, v.kind, v.kind == CEL_ERROR ? v.v.err->message : "");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_int),           cmocka_unit_test(test_uint),
        cmocka_unit_test(test_double),        cmocka_unit_test(test_string),
        cmocka_unit_test(test_string_double), cmocka_unit_test(test_bytes_and_bool),
        cmocka_unit_test(test_size_type_dyn), cmocka_unit_test(test_expressions),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
