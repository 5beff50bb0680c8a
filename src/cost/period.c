/* period.c — UTC calendar windows on µs timestamps, pure integer date math (the days-from-civil
 * and civil-from-days algorithms of H. Hinnant, proleptic Gregorian calendar). Dates are
 * clamped to years 0000..9999 so that any int64 time, pre-1970 included, gives a valid
 * "YYYY-MM-DD". */
#include "cost/period.h"

#include <string.h>

#define US_PER_DAY INT64_C(86400000000)

static const char *const names[] = {"day", "week", "month", "quarter", "year"};
static const char *const adjectives[] = {"daily", "weekly", "monthly", "quarterly", "yearly"};
static const char *const phrases[] = {"today", "this week", "this month", "this quarter",
                                      "this year"};

int rp_cost_period_parse(const char *s, rp_cost_period *out)
{
    for (int i = 0; s != NULL && i < 5; i++) {
        if (strcmp(s, names[i]) == 0) {
            *out = (rp_cost_period)i;
            return 0;
        }
    }
    return -1;
}

static int index_of(rp_cost_period p)
{
    return p >= RP_COST_PERIOD_DAY && p <= RP_COST_PERIOD_YEAR ? (int)p : 0;
}

const char *rp_cost_period_name(rp_cost_period p)
{
    return names[index_of(p)];
}

const char *rp_cost_period_adjective(rp_cost_period p)
{
    return adjectives[index_of(p)];
}

const char *rp_cost_period_phrase(rp_cost_period p)
{
    return phrases[index_of(p)];
}

/* Floor division, so that times before the epoch fall on the previous day. */
static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* Days since 1970-01-01 of y-m-d. */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = floor_div(y, 400);
    int64_t yoe = y - era * 400;                                  /* [0, 399] */
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1; /* [0, 365] */
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;          /* [0, 146096] */
    return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
    z += 719468;
    int64_t era = floor_div(z, 146097);
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

/* The day number of `us`, clamped to 0000-01-01 .. 9999-12-31. */
static int64_t day_of(int64_t us)
{
    int64_t day = floor_div(us, US_PER_DAY);
    int64_t lo = days_from_civil(0, 1, 1), hi = days_from_civil(9999, 12, 31);
    return day < lo ? lo : day > hi ? hi : day;
}

static void put_digits(char *out, int64_t v, int width)
{
    for (int i = width - 1; i >= 0; i--) {
        out[i] = (char)('0' + v % 10);
        v /= 10;
    }
}

static void format_day(int64_t day, char out[RP_COST_DAY_KEY_SIZE])
{
    int64_t y;
    int m, d;
    civil_from_days(day, &y, &m, &d);
    put_digits(out, y, 4);
    out[4] = '-';
    put_digits(out + 5, m, 2);
    out[7] = '-';
    put_digits(out + 8, d, 2);
    out[10] = '\0';
}

void rp_cost_utc_day(int64_t us, char out[RP_COST_DAY_KEY_SIZE])
{
    format_day(day_of(us), out);
}

/* The day number of the first day of p's window around `day`. */
static int64_t window_first(rp_cost_period p, int64_t day)
{
    int64_t y;
    int m, d;
    switch (p) {
    case RP_COST_PERIOD_WEEK: {
        /* 1970-01-01 was a Thursday: (day + 3) mod 7 is 0 on Mondays. */
        int64_t weekday = day + 3 - floor_div(day + 3, 7) * 7;
        int64_t first = day - weekday;
        int64_t lo = days_from_civil(0, 1, 1);
        return first < lo ? lo : first;
    }
    case RP_COST_PERIOD_MONTH:
        civil_from_days(day, &y, &m, &d);
        return days_from_civil(y, m, 1);
    case RP_COST_PERIOD_QUARTER:
        civil_from_days(day, &y, &m, &d);
        return days_from_civil(y, (m - 1) / 3 * 3 + 1, 1);
    case RP_COST_PERIOD_YEAR:
        civil_from_days(day, &y, &m, &d);
        return days_from_civil(y, 1, 1);
    case RP_COST_PERIOD_DAY:
    default:
        return day;
    }
}

void rp_cost_period_window(rp_cost_period p, int64_t us, char first_day[RP_COST_DAY_KEY_SIZE],
                           char last_day[RP_COST_DAY_KEY_SIZE])
{
    int64_t day = day_of(us);
    format_day(window_first(p, day), first_day);
    format_day(day, last_day);
}

int64_t rp_cost_period_window_start_us(rp_cost_period p, int64_t us)
{
    return window_first(p, day_of(us)) * US_PER_DAY;
}
