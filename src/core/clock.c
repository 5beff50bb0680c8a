/* clock.c — "now" and RFC 3339 timestamps; see clock.h.
 *
 * Civil-date arithmetic uses Howard Hinnant's days_from_civil / civil_from_days algorithms
 * (proleptic Gregorian, exact for any year) so that no libc time-zone state is involved. */
#include "core/clock.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define US_PER_SECOND   1000000LL
#define SECONDS_PER_DAY 86400LL

static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (int64_t)yoe + era * 400 + (*m <= 2);
}

static bool is_leap_year(int y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in_month(int y, int m)
{
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && is_leap_year(y) ? 29 : days[m - 1];
}

/* Reads exactly n decimal digits at *s. */
static bool read_digits(const char **s, int n, int *out)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        char c = (*s)[i];
        if (c < '0' || c > '9')
            return false;
        v = v * 10 + (c - '0');
    }
    *s += n;
    *out = v;
    return true;
}

static bool expect_char(const char **s, char c)
{
    if (**s != c)
        return false;
    (*s)++;
    return true;
}

int rp_rfc3339_parse(const char *s, int64_t *us)
{
    if (!s)
        return -1;
    int year, month, day, hour, minute, second;
    if (!read_digits(&s, 4, &year) || !expect_char(&s, '-') || !read_digits(&s, 2, &month) ||
        !expect_char(&s, '-') || !read_digits(&s, 2, &day))
        return -1;
    if (*s != 'T' && *s != 't')
        return -1;
    s++;
    if (!read_digits(&s, 2, &hour) || !expect_char(&s, ':') || !read_digits(&s, 2, &minute) ||
        !expect_char(&s, ':') || !read_digits(&s, 2, &second))
        return -1;
    if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, month) || hour > 23 ||
        minute > 59 || second > 60)
        return -1;

    int64_t micros = 0;
    if (*s == '.') {
        s++;
        int digits = 0;
        while (*s >= '0' && *s <= '9') {
            if (digits >= 9)
                return -1;
            if (digits < 6)
                micros = micros * 10 + (*s - '0');
            digits++;
            s++;
        }
        if (digits == 0)
            return -1;
        for (int i = digits; i < 6; i++)
            micros *= 10; /* "…:00.5" is 500000 µs; digits past the sixth are truncated */
    }

    int64_t offset_seconds = 0;
    if (*s == 'Z' || *s == 'z') {
        s++;
    } else if (*s == '+' || *s == '-') {
        int sign = *s == '-' ? -1 : 1;
        s++;
        int off_hour, off_minute;
        if (!read_digits(&s, 2, &off_hour) || !expect_char(&s, ':') ||
            !read_digits(&s, 2, &off_minute) || off_hour > 23 || off_minute > 59)
            return -1;
        offset_seconds = sign * (off_hour * 3600LL + off_minute * 60LL);
    } else {
        return -1;
    }
    if (*s != '\0')
        return -1;

    /* A leap second (:60) counts as the first second of the next minute. */
    int64_t seconds = days_from_civil(year, (unsigned)month, (unsigned)day) * SECONDS_PER_DAY +
                      hour * 3600LL + minute * 60LL + second - offset_seconds;
    *us = seconds * US_PER_SECOND + micros;
    return 0;
}

void rp_rfc3339_format(int64_t us, char *buf, size_t size)
{
    if (!buf || size == 0)
        return;
    /* Floor division so that times before 1970 keep a non-negative fraction. */
    int64_t seconds = us / US_PER_SECOND;
    int64_t micros = us % US_PER_SECOND;
    if (micros < 0) {
        micros += US_PER_SECOND;
        seconds--;
    }
    int64_t days = seconds / SECONDS_PER_DAY;
    int64_t rest = seconds % SECONDS_PER_DAY;
    if (rest < 0) {
        rest += SECONDS_PER_DAY;
        days--;
    }
    int64_t year;
    unsigned month, day;
    civil_from_days(days, &year, &month, &day);
    int hour = (int)(rest / 3600), minute = (int)(rest / 60 % 60), second = (int)(rest % 60);
    if (micros)
        snprintf(buf, size, "%04lld-%02u-%02uT%02d:%02d:%02d.%06lldZ", (long long)year, month, day,
                 hour, minute, second, (long long)micros);
    else
        snprintf(buf, size, "%04lld-%02u-%02uT%02d:%02d:%02dZ", (long long)year, month, day, hour,
                 minute, second);
}

int64_t rp_now_us(void)
{
    const char *fixed = getenv("RAMPART_NOW");
    int64_t us;
    if (fixed && *fixed && rp_rfc3339_parse(fixed, &us) == 0)
        return us;
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
        return (int64_t)time(NULL) * US_PER_SECOND;
    return (int64_t)ts.tv_sec * US_PER_SECOND + ts.tv_nsec / 1000;
}

int rp_clock_check_env(char *err, size_t err_size)
{
    const char *fixed = getenv("RAMPART_NOW");
    int64_t us;
    if (!fixed || !*fixed || rp_rfc3339_parse(fixed, &us) == 0)
        return 0;
    if (err && err_size)
        snprintf(err, err_size,
                 "RAMPART_NOW='%.60s' is not an RFC 3339 timestamp (e.g. 2026-03-15T12:00:00Z)",
                 fixed);
    return -1;
}
