/* test_cost_period.c — the UTC budget windows of src/cost/period.c: day edges to the
 * microsecond, ISO weeks that start in the previous year, leap days, quarter and year starts,
 * and times before 1970 or beyond any calendar. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cost/period.h"

#define US_PER_DAY INT64_C(86400000000)

/* µs of 00:00:00 UTC on the given date (days from 1970-01-01 computed independently with the
 * classic cumulative table, not with period.c's algorithm). */
static int64_t midnight_us(int y, int m, int d)
{
    static const int before[] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
    int64_t days = 0;
    for (int yy = 1970; yy < y; yy++)
        days += (yy % 4 == 0 && (yy % 100 != 0 || yy % 400 == 0)) ? 366 : 365;
    for (int yy = y; yy < 1970; yy++)
        days -= (yy % 4 == 0 && (yy % 100 != 0 || yy % 400 == 0)) ? 366 : 365;
    bool leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    days += before[m - 1] + (leap && m > 2) + d - 1;
    return days * US_PER_DAY;
}

static void expect_window(rp_cost_period p, int64_t us, const char *first, const char *last)
{
    char f[RP_COST_DAY_KEY_SIZE], l[RP_COST_DAY_KEY_SIZE];
    rp_cost_period_window(p, us, f, l);
    assert_string_equal(f, first);
    assert_string_equal(l, last);
}

static void test_names(void **unused)
{
    (void)unused;
    rp_cost_period p = RP_COST_PERIOD_DAY;
    assert_int_equal(rp_cost_period_parse("quarter", &p), 0);
    assert_int_equal(p, RP_COST_PERIOD_QUARTER);
    assert_int_equal(rp_cost_period_parse("year", &p), 0);
    assert_int_equal(p, RP_COST_PERIOD_YEAR);
    assert_int_equal(rp_cost_period_parse("Month", &p), -1);
    assert_int_equal(rp_cost_period_parse("fortnight", &p), -1);
    assert_int_equal(rp_cost_period_parse("", &p), -1);
    assert_string_equal(rp_cost_period_name(RP_COST_PERIOD_WEEK), "week");
    assert_string_equal(rp_cost_period_adjective(RP_COST_PERIOD_DAY), "daily");
    assert_string_equal(rp_cost_period_adjective(RP_COST_PERIOD_MONTH), "monthly");
    assert_string_equal(rp_cost_period_adjective(RP_COST_PERIOD_QUARTER), "quarterly");
    assert_string_equal(rp_cost_period_adjective(RP_COST_PERIOD_YEAR), "yearly");
    assert_string_equal(rp_cost_period_phrase(RP_COST_PERIOD_DAY), "today");
    assert_string_equal(rp_cost_period_phrase(RP_COST_PERIOD_WEEK), "this week");
    assert_string_equal(rp_cost_period_phrase(RP_COST_PERIOD_QUARTER), "this quarter");
}

static void test_day_edges(void **unused)
{
    (void)unused;
    char day[RP_COST_DAY_KEY_SIZE];
    int64_t midnight = midnight_us(2026, 3, 15);
    rp_cost_utc_day(midnight - 1, day); /* 23:59:59.999999 */
    assert_string_equal(day, "2026-03-14");
    rp_cost_utc_day(midnight, day);
    assert_string_equal(day, "2026-03-15");
    rp_cost_utc_day(0, day);
    assert_string_equal(day, "1970-01-01");
    expect_window(RP_COST_PERIOD_DAY, midnight - 1, "2026-03-14", "2026-03-14");
    expect_window(RP_COST_PERIOD_DAY, midnight, "2026-03-15", "2026-03-15");
    assert_int_equal(rp_cost_period_window_start_us(RP_COST_PERIOD_DAY, midnight + 5), midnight);
    assert_int_equal(rp_cost_period_window_start_us(RP_COST_PERIOD_DAY, midnight - 1),
                     midnight - US_PER_DAY);
}

static void test_iso_week(void **unused)
{
    (void)unused;
    /* 2026-01-01 is a Thursday: its ISO week started on Monday 2025-12-29. */
    expect_window(RP_COST_PERIOD_WEEK, midnight_us(2026, 1, 1) + 1, "2025-12-29", "2026-01-01");
    /* Sunday 23:59:59.999999 is still the week of the Monday before; Monday 00:00 starts one. */
    expect_window(RP_COST_PERIOD_WEEK, midnight_us(2026, 1, 5) - 1, "2025-12-29", "2026-01-04");
    expect_window(RP_COST_PERIOD_WEEK, midnight_us(2026, 1, 5), "2026-01-05", "2026-01-05");
    /* The epoch, a Thursday, and a week across a leap day. */
    expect_window(RP_COST_PERIOD_WEEK, 0, "1969-12-29", "1970-01-01");
    expect_window(RP_COST_PERIOD_WEEK, midnight_us(2028, 3, 1), "2028-02-28", "2028-03-01");
    assert_int_equal(
        rp_cost_period_window_start_us(RP_COST_PERIOD_WEEK, midnight_us(2026, 1, 1) + 7),
        midnight_us(2025, 12, 29));
}

static void test_leap_day(void **unused)
{
    (void)unused;
    char day[RP_COST_DAY_KEY_SIZE];
    rp_cost_utc_day(midnight_us(2028, 2, 29) + 12 * INT64_C(3600000000), day);
    assert_string_equal(day, "2028-02-29");
    rp_cost_utc_day(midnight_us(2028, 3, 1) - 1, day);
    assert_string_equal(day, "2028-02-29");
    expect_window(RP_COST_PERIOD_MONTH, midnight_us(2028, 2, 29), "2028-02-01", "2028-02-29");
    expect_window(RP_COST_PERIOD_MONTH, midnight_us(2028, 3, 1), "2028-03-01", "2028-03-01");
    /* 2100 is not a leap year. */
    rp_cost_utc_day(midnight_us(2100, 2, 28) + US_PER_DAY, day);
    assert_string_equal(day, "2100-03-01");
}

static void test_quarters_and_years(void **unused)
{
    (void)unused;
    expect_window(RP_COST_PERIOD_QUARTER, midnight_us(2026, 3, 31) + US_PER_DAY - 1, "2026-01-01",
                  "2026-03-31");
    expect_window(RP_COST_PERIOD_QUARTER, midnight_us(2026, 4, 1), "2026-04-01", "2026-04-01");
    expect_window(RP_COST_PERIOD_QUARTER, midnight_us(2026, 6, 30), "2026-04-01", "2026-06-30");
    expect_window(RP_COST_PERIOD_QUARTER, midnight_us(2026, 7, 1), "2026-07-01", "2026-07-01");
    expect_window(RP_COST_PERIOD_QUARTER, midnight_us(2026, 9, 30) + 1, "2026-07-01", "2026-09-30");
    expect_window(RP_COST_PERIOD_QUARTER, midnight_us(2026, 10, 1), "2026-10-01", "2026-10-01");
    expect_window(RP_COST_PERIOD_QUARTER, midnight_us(2026, 12, 31), "2026-10-01", "2026-12-31");
    /* Year end to the microsecond. */
    expect_window(RP_COST_PERIOD_YEAR, midnight_us(2027, 1, 1) - 1, "2026-01-01", "2026-12-31");
    expect_window(RP_COST_PERIOD_YEAR, midnight_us(2027, 1, 1), "2027-01-01", "2027-01-01");
    expect_window(RP_COST_PERIOD_MONTH, midnight_us(2027, 1, 1) - 1, "2026-12-01", "2026-12-31");
    assert_int_equal(
        rp_cost_period_window_start_us(RP_COST_PERIOD_YEAR, midnight_us(2026, 8, 9) + 99),
        midnight_us(2026, 1, 1));
    assert_int_equal(
        rp_cost_period_window_start_us(RP_COST_PERIOD_QUARTER, midnight_us(2026, 8, 9)),
        midnight_us(2026, 7, 1));
    assert_int_equal(rp_cost_period_window_start_us(RP_COST_PERIOD_MONTH, midnight_us(2026, 8, 9)),
                     midnight_us(2026, 8, 1));
}

static void test_before_1970_and_extremes(void **unused)
{
    (void)unused;
    char day[RP_COST_DAY_KEY_SIZE];
    rp_cost_utc_day(-1, day); /* 1969-12-31T23:59:59.999999Z */
    assert_string_equal(day, "1969-12-31");
    expect_window(RP_COST_PERIOD_MONTH, -1, "1969-12-01", "1969-12-31");
    expect_window(RP_COST_PERIOD_QUARTER, midnight_us(1900, 5, 17), "1900-04-01", "1900-05-17");
    expect_window(RP_COST_PERIOD_WEEK, midnight_us(1900, 1, 1), "1900-01-01", "1900-01-01");
    assert_int_equal(rp_cost_period_window_start_us(RP_COST_PERIOD_DAY, -1), -US_PER_DAY);
    /* Beyond the calendar: clamped, never a crash or a malformed key. */
    expect_window(RP_COST_PERIOD_YEAR, INT64_MIN, "0000-01-01", "0000-01-01");
    expect_window(RP_COST_PERIOD_WEEK, INT64_MIN, "0000-01-01", "0000-01-01");
    expect_window(RP_COST_PERIOD_YEAR, INT64_MAX, "9999-01-01", "9999-12-31");
    rp_cost_utc_day(INT64_MAX, day);
    assert_string_equal(day, "9999-12-31");
    assert_true(rp_cost_period_window_start_us(RP_COST_PERIOD_MONTH, INT64_MIN) < 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_day_edges),
        cmocka_unit_test(test_iso_week),
        cmocka_unit_test(test_leap_day),
        cmocka_unit_test(test_quarters_and_years),
        cmocka_unit_test(test_before_1970_and_extremes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
