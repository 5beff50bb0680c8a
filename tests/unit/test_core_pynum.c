/* test_core_pynum.c — Python's number rules (core/pynum.h), written once: int(), float(), a
 * number read from JSON (bool is an int, except for parameters), addition, comparison, repr.
 * Expected values are CPython 3's, except where pynum.h states the int64 limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/pynum.h"

static rp_arena arena;

static const rp_json *J(const char *text)
{
    rp_json_error jerr;
    const rp_json *v = rp_json_parse(&arena, text, strlen(text), &jerr);
    if (v == NULL)
        fail_msg("test JSON does not parse: %s", text);
    return v;
}

static void test_int(void **unused)
{
    (void)unused;
    static const struct {
        const char *json;
        rp_pynum_status status;
        int64_t value;
    } cases[] = {
        {"7", RP_PYNUM_OK, 7},
        {"-7", RP_PYNUM_OK, -7},
        {"7.9", RP_PYNUM_OK, 7}, /* truncation toward zero */
        {"-7.9", RP_PYNUM_OK, -7},
        {"true", RP_PYNUM_OK, 1},
        {"false", RP_PYNUM_OK, 0},
        {"\" +42 \"", RP_PYNUM_OK, 42},
        {"\"-0012\"", RP_PYNUM_OK, -12},
        {"\"1_000\"", RP_PYNUM_OK, 1000},
        {"\"\\u00a012\\u3000\"", RP_PYNUM_OK, 12},
        {"9223372036854775807", RP_PYNUM_OK, INT64_MAX},
        {"-9223372036854775808", RP_PYNUM_OK, INT64_MIN},
        {"\"9223372036854775807\"", RP_PYNUM_OK, INT64_MAX},
        {"\"-9223372036854775808\"", RP_PYNUM_OK, INT64_MIN},
        {"-9223372036854775808.0", RP_PYNUM_OK, INT64_MIN},
        /* beyond int64: saturated (pynum.h) */
        {"9223372036854775808", RP_PYNUM_OK, INT64_MAX},
        {"1e300", RP_PYNUM_OK, INT64_MAX},
        {"-1e300", RP_PYNUM_OK, INT64_MIN},
        {"9223372036854775808.0", RP_PYNUM_OK, INT64_MAX},
        {"\"9223372036854775808\"", RP_PYNUM_OK, INT64_MAX},
        {"\"-9223372036854775809\"", RP_PYNUM_OK, INT64_MIN},
        {"\"99999999999999999999999\"", RP_PYNUM_OK, INT64_MAX},
        {"\"-99999999999999999999999\"", RP_PYNUM_OK, INT64_MIN},
        /* int() of an infinity or NaN raises: JSON has neither, a str does */
        {"\"inf\"", RP_PYNUM_INVALID, 0},
        /* what int() refuses */
        {"\"1__0\"", RP_PYNUM_INVALID, 0},
        {"\"1_\"", RP_PYNUM_INVALID, 0},
        {"\"_1\"", RP_PYNUM_INVALID, 0},
        {"\"1.5\"", RP_PYNUM_INVALID, 0},
        {"\"0x10\"", RP_PYNUM_INVALID, 0},
        {"\"-\"", RP_PYNUM_INVALID, 0},
        {"\" \"", RP_PYNUM_INVALID, 0},
        {"null", RP_PYNUM_NOT_NUMBER, 0},
        {"[1]", RP_PYNUM_NOT_NUMBER, 0},
        {"{}", RP_PYNUM_NOT_NUMBER, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t v = 99;
        if (rp_pynum_int(J(cases[i].json), &v) != cases[i].status)
            fail_msg("int(%s): status %d, expected %d", cases[i].json,
                     (int)rp_pynum_int(J(cases[i].json), &v), (int)cases[i].status);
        assert_int_equal(v, cases[i].value); /* 0 unless OK */
    }
    int64_t v;
    assert_int_equal(rp_pynum_int(NULL, &v), RP_PYNUM_NOT_NUMBER);
}

static void test_float(void **unused)
{
    (void)unused;
    static const struct {
        const char *json;
        rp_pynum_status status;
        double value;
    } cases[] = {
        {"1.5", RP_PYNUM_OK, 1.5},
        {"3", RP_PYNUM_OK, 3.0},
        {"true", RP_PYNUM_OK, 1.0},
        {"false", RP_PYNUM_OK, 0.0},
        {"18446744073709551615", RP_PYNUM_OK, 18446744073709551615.0}, /* float(big int) */
        {"\" 2.5e3 \"", RP_PYNUM_OK, 2500.0},
        {"\"-7\"", RP_PYNUM_OK, -7.0},
        {"\"0x10\"", RP_PYNUM_INVALID, 0.0},
        {"\"nan(1)\"", RP_PYNUM_INVALID, 0.0},
        {"\"abc\"", RP_PYNUM_INVALID, 0.0},
        {"\"\"", RP_PYNUM_INVALID, 0.0},
        {"null", RP_PYNUM_NOT_NUMBER, 0.0},
        {"[]", RP_PYNUM_NOT_NUMBER, 0.0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double d = 99;
        assert_int_equal(rp_pynum_float(J(cases[i].json), &d), cases[i].status);
        assert_true(d == cases[i].value);
    }
    double d;
    assert_int_equal(rp_pynum_float(J("\" inf \""), &d), RP_PYNUM_OK);
    assert_true(d > 1e308);
    assert_int_equal(rp_pynum_float(J("\"nan\""), &d), RP_PYNUM_OK);
    assert_true(d != d);
}

/* bool: an int for Python arithmetic (the session-state increment and int() took it so), not
 * a number for parameters (risk_score_policy's points refused it): both kept, as a mode. */
static void test_from_json_bools(void **unused)
{
    (void)unused;
    rp_pynum n;
    assert_int_equal(rp_pynum_from_json(J("true"), RP_PYNUM_BOOL_IS_INT, &n), RP_PYNUM_OK);
    assert_false(n.is_float);
    assert_int_equal(n.i, 1);
    assert_int_equal(rp_pynum_from_json(J("true"), RP_PYNUM_BOOL_NOT_NUMBER, &n),
                     RP_PYNUM_NOT_NUMBER);
    assert_int_equal(rp_pynum_from_json(J("2.0"), RP_PYNUM_BOOL_IS_INT, &n), RP_PYNUM_OK);
    assert_true(n.is_float && n.d == 2.0);
    assert_int_equal(rp_pynum_from_json(J("\"2\""), RP_PYNUM_BOOL_IS_INT, &n), RP_PYNUM_NOT_NUMBER);
    assert_int_equal(rp_pynum_from_json(NULL, RP_PYNUM_BOOL_IS_INT, &n), RP_PYNUM_NOT_NUMBER);
    /* A literal beyond int64: risk_score_policy and int() saturated it to INT64_MAX, the state
     * increment added it as the float 1.8446744073709552e+19 (so 2^64 - 1 + 1 was allowed while
     * INT64_MAX + 1 failed); now it reads as INT64_MAX everywhere. */
    assert_int_equal(rp_pynum_from_json(J("18446744073709551615"), RP_PYNUM_BOOL_IS_INT, &n),
                     RP_PYNUM_OK);
    assert_false(n.is_float);
    assert_int_equal(n.i, INT64_MAX);
}

static rp_pynum I(int64_t i)
{
    return (rp_pynum){.i = i};
}

static rp_pynum F(double d)
{
    return (rp_pynum){.is_float = true, .d = d};
}

/* INT64_MAX + 1: the state increment failed the policy ("overflows a 64-bit integer"),
 * risk_score_policy went on with the float 9.223372036854776e+18; now both fail (the engine's
 * error path), as the increment did. */
static void test_add_and_compare(void **unused)
{
    (void)unused;
    rp_pynum r;
    assert_int_equal(rp_pynum_add(I(2), I(3), &r), RP_PYNUM_OK);
    assert_false(r.is_float);
    assert_int_equal(r.i, 5);
    assert_int_equal(rp_pynum_add(I(2), F(0.5), &r), RP_PYNUM_OK);
    assert_true(r.is_float && r.d == 2.5);
    assert_int_equal(rp_pynum_add(I(INT64_MAX), I(INT64_MIN), &r), RP_PYNUM_OK);
    assert_int_equal(r.i, -1);
    r = I(42);
    assert_int_equal(rp_pynum_add(I(INT64_MAX), I(1), &r), RP_PYNUM_OVERFLOW);
    assert_int_equal(r.i, 42); /* untouched */
    assert_int_equal(rp_pynum_add(I(INT64_MIN), I(-1), &r), RP_PYNUM_OVERFLOW);
    assert_int_equal(rp_pynum_add(I(INT64_MAX), F(1.0), &r), RP_PYNUM_OK); /* float addition */
    assert_true(r.is_float && r.d == 9223372036854775808.0);
    /* exact between ints, even where doubles are not */
    assert_true(rp_pynum_ge(I(INT64_MAX), I(INT64_MAX - 1)));
    assert_false(rp_pynum_ge(I(INT64_MAX - 1), I(INT64_MAX)));
    assert_true(rp_pynum_ge(I(50), F(50.0)));
    assert_false(rp_pynum_ge(F(49.5), I(50)));
    assert_false(rp_pynum_ge(F(0.0 / 0.0), I(0))); /* NaN compares false */
}

static void expect_repr(rp_pynum n, const char *want)
{
    rp_buf b = {0};
    rp_pynum_repr(&b, n);
    assert_string_equal(b.data, want);
    rp_buf_free(&b);
}

static void test_repr_and_json(void **unused)
{
    (void)unused;
    expect_repr(I(7), "7");
    expect_repr(I(-12), "-12");
    expect_repr(F(7.0), "7.0");
    expect_repr(F(0.1), "0.1");
    expect_repr(F(1e16), "1e+16");
    expect_repr(F(1.0 / 0.0), "inf");
    rp_json j = rp_pynum_to_json(F(1.0));
    assert_int_equal(j.type, RP_JSON_DOUBLE);
    j = rp_pynum_to_json(I(1));
    assert_int_equal(j.type, RP_JSON_INT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_int),
        cmocka_unit_test(test_float),
        cmocka_unit_test(test_from_json_bools),
        cmocka_unit_test(test_add_and_compare),
        cmocka_unit_test(test_repr_and_json),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rp_arena_free(&arena);
    return rc;
}
