/* test_core_clock.c — RFC 3339 parsing/formatting and the RAMPART_NOW override. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"

static int64_t parse_ok(const char *s)
{
    int64_t us = -1;
    if (rp_rfc3339_parse(s, &us) != 0)
        fail_msg("expected %s to parse", s);
    return us;
}

static void reject(const char *s)
{
    int64_t us = 12345;
    if (rp_rfc3339_parse(s, &us) == 0)
        fail_msg("expected %s to be rejected", s);
}

static void test_parse_known_instants(void **state)
{
    (void)state;
    assert_true(parse_ok("1970-01-01T00:00:00Z") == 0);
    assert_true(parse_ok("2026-03-15T12:00:00Z") == 1773576000LL * 1000000);
    assert_true(parse_ok("2026-03-15t12:00:00z") == 1773576000LL * 1000000);
    assert_true(parse_ok("2026-03-15T14:00:00+02:00") == 1773576000LL * 1000000);
    assert_true(parse_ok("2026-03-15T06:30:00-05:30") == 1773576000LL * 1000000);
    assert_true(parse_ok("2000-02-29T23:59:59Z") == 951868799LL * 1000000);
    assert_true(parse_ok("1969-12-31T23:59:59Z") == -1000000);
    assert_true(parse_ok("2038-01-19T03:14:08Z") == 2147483648LL * 1000000);
    assert_true(parse_ok("9999-12-31T23:59:59Z") == 253402300799LL * 1000000);
    assert_true(parse_ok("0001-01-01T00:00:00Z") == -62135596800LL * 1000000);
}

static void test_fractions(void **state)
{
    (void)state;
    int64_t base = 1773576000LL * 1000000;
    assert_true(parse_ok("2026-03-15T12:00:00.5Z") == base + 500000);
    assert_true(parse_ok("2026-03-15T12:00:00.123456Z") == base + 123456);
    assert_true(parse_ok("2026-03-15T12:00:00.123456789Z") == base + 123456); /* truncated */
    assert_true(parse_ok("2026-03-15T12:00:00.000001Z") == base + 1);
    reject("2026-03-15T12:00:00.Z");
    reject("2026-03-15T12:00:00.1234567890Z");
}

static void test_ranges_and_leap_years(void **state)
{
    (void)state;
    parse_ok("2024-02-29T00:00:00Z");
    parse_ok("2000-02-29T00:00:00Z");
    reject("2023-02-29T00:00:00Z");
    reject("1900-02-29T00:00:00Z");
    reject("2026-04-31T00:00:00Z");
    parse_ok("2026-12-31T23:59:59Z");
    reject("2026-00-10T00:00:00Z");
    reject("2026-13-10T00:00:00Z");
    reject("2026-01-00T00:00:00Z");
    reject("2026-01-32T00:00:00Z");
    reject("2026-01-01T24:00:00Z");
    reject("2026-01-01T23:60:00Z");
    reject("2026-01-01T23:59:61Z");
    /* A leap second is accepted and counts as the next minute's first second. */
    assert_true(parse_ok("2016-12-31T23:59:60Z") == parse_ok("2017-01-01T00:00:00Z"));
    reject("2026-01-01T00:00:00+24:00");
    reject("2026-01-01T00:00:00+01:60");
}

static void test_malformed(void **state)
{
    (void)state;
    reject("");
    int64_t us = 0;
    assert_int_equal(rp_rfc3339_parse(NULL, &us), -1);
    reject("2026-03-15");
    reject("2026-03-15T12:00:00");  /* no offset */
    reject("2026-03-15 12:00:00Z"); /* space instead of T */
    reject("2026-3-15T12:00:00Z");
    reject("2026-03-15T12:00Z");
    reject("2026-03-15T12:00:00+0200");
    reject("2026-03-15T12:00:00+02");
    reject("2026-03-15T12:00:00Zjunk");
    reject("20260315T120000Z");
    reject("yesterday");
}

static void test_format(void **state)
{
    (void)state;
    char buf[40];
    rp_rfc3339_format(1773576000LL * 1000000, buf, sizeof buf);
    assert_string_equal(buf, "2026-03-15T12:00:00Z");
    rp_rfc3339_format(1773576000LL * 1000000 + 123456, buf, sizeof buf);
    assert_string_equal(buf, "2026-03-15T12:00:00.123456Z");
    rp_rfc3339_format(0, buf, sizeof buf);
    assert_string_equal(buf, "1970-01-01T00:00:00Z");
    rp_rfc3339_format(-1, buf, sizeof buf);
    assert_string_equal(buf, "1969-12-31T23:59:59.999999Z");
    rp_rfc3339_format(951868799LL * 1000000, buf, sizeof buf);
    assert_string_equal(buf, "2000-02-29T23:59:59Z");
    char tiny[5];
    rp_rfc3339_format(0, tiny, sizeof tiny); /* truncates, stays terminated */
    assert_string_equal(tiny, "1970");
}

static void test_format_parse_round_trip(void **state)
{
    (void)state;
    /* Every ~1.3 days across 400 years plus odd microseconds. */
    for (int64_t us = -62135596800LL * 1000000; us < 253402300799LL * 1000000;
         us += 112233445566777LL) {
        char buf[40];
        rp_rfc3339_format(us, buf, sizeof buf);
        int64_t back = 0;
        assert_int_equal(rp_rfc3339_parse(buf, &back), 0);
        assert_true(back == us);
    }
}

static void test_rampart_now_env(void **state)
{
    (void)state;
    char err[160];
    setenv("RAMPART_NOW", "2026-03-15T12:00:00Z", 1);
    assert_true(rp_now_us() == 1773576000LL * 1000000);
    assert_int_equal(rp_clock_check_env(err, sizeof err), 0);

    setenv("RAMPART_NOW", "not a time", 1);
    assert_int_equal(rp_clock_check_env(err, sizeof err), -1);
    assert_non_null(strstr(err, "RAMPART_NOW"));
    int64_t real = rp_now_us(); /* falls back to the real clock */
    assert_true(real > 1700000000LL * 1000000);

    unsetenv("RAMPART_NOW");
    assert_int_equal(rp_clock_check_env(err, sizeof err), 0);
    int64_t now = rp_now_us();
    int64_t wall = (int64_t)time(NULL) * 1000000;
    assert_true(now > wall - 5 * 1000000LL && now < wall + 5 * 1000000LL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_known_instants),
        cmocka_unit_test(test_fractions),
        cmocka_unit_test(test_ranges_and_leap_years),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_format_parse_round_trip),
        cmocka_unit_test(test_rampart_now_env),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
