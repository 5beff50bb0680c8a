/* time.c — CEL timestamps and durations: the calendar, RFC 3339 and Go duration text, and the
 * arithmetic and comparison operators on time values (time zones are in tz.c). */
#include "cel/time.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define NANOS 1000000000
/* 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z as Unix seconds. */
#define TS_MIN_SEC INT64_C(-62135596800)
#define TS_MAX_SEC INT64_C(253402300799)
/* cel-spec: a duration is an int64 count of nanoseconds (INT64_MAX = 9223372036.854775807 s). */
#define DUR_MAX_SEC  INT64_C(9223372036)
#define DUR_MAX_NSEC 854775807

bool cel_timestamp_in_range(int64_t sec)
{
    return sec >= TS_MIN_SEC && sec <= TS_MAX_SEC;
}

bool cel_duration_in_range(int64_t sec, int32_t nsec)
{
    if (sec > -DUR_MAX_SEC && sec < DUR_MAX_SEC)
        return true;
    if (sec == DUR_MAX_SEC)
        return nsec <= DUR_MAX_NSEC;
    if (sec == -DUR_MAX_SEC)
        return nsec >= -DUR_MAX_NSEC - 1;
    return false;
}

/* ---- calendar ---- */

bool cel_is_leap_year(int64_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int cel_days_in_month(int64_t y, int m)
{
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m == 2 && cel_is_leap_year(y))
        return 29;
    return days[m - 1];
}

/* Howard Hinnant's days_from_civil: eras of 400 years make the arithmetic exact for any year. */
int64_t cel_days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t mp = (m + 9) % 12; /* March = 0 */
    int64_t doy = (153 * mp + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

void cel_civil_from_seconds(int64_t sec, cel_civil *out)
{
    int64_t days = floor_div(sec, 86400);
    int64_t rem = sec - days * 86400;
    out->hour = (int)(rem / 3600);
    out->minute = (int)(rem % 3600 / 60);
    out->second = (int)(rem % 60);
    /* 1970-01-01 was a Thursday. */
    int64_t wd = (days + 4) % 7;
    out->wday = (int)(wd < 0 ? wd + 7 : wd);

    int64_t z = days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int d = (int)(doy - (153 * mp + 2) / 5 + 1);
    int m = (int)(mp < 10 ? mp + 3 : mp - 9);
    int64_t y = yoe + era * 400 + (m <= 2);
    out->year = y;
    out->month = m;
    out->day = d;
    out->yday = (int)(days - cel_days_from_civil(y, 1, 1));
}

/* ---- RFC 3339 ---- */

/* n decimal digits at s[*i]; -1 when they are not all digits. */
static int64_t digits(const char *s, size_t len, size_t *i, int n)
{
    int64_t v = 0;
    for (int k = 0; k < n; k++) {
        if (*i >= len || s[*i] < '0' || s[*i] > '9')
            return -1;
        v = v * 10 + (s[*i] - '0');
        (*i)++;
    }
    return v;
}

static bool expect(const char *s, size_t len, size_t *i, char c1, char c2)
{
    if (*i < len && (s[*i] == c1 || s[*i] == c2)) {
        (*i)++;
        return true;
    }
    return false;
}

int cel_timestamp_parse_status(const char *s, size_t len, int64_t *sec, int32_t *nsec)
{
    size_t i = 0;
    /* A year of more than four digits is well-formed text for a date CEL cannot represent. */
    size_t ny = 0;
    while (ny < len && s[ny] >= '0' && s[ny] <= '9')
        ny++;
    if (ny > 4 && ny < len && s[ny] == '-')
        return -2;
    int64_t year = digits(s, len, &i, 4);
    if (year < 0 || !expect(s, len, &i, '-', '-'))
        return -1;
    int64_t month = digits(s, len, &i, 2);
    if (month < 1 || month > 12 || !expect(s, len, &i, '-', '-'))
        return -1;
    int64_t day = digits(s, len, &i, 2);
    if (day < 1 || day > cel_days_in_month(year, (int)month) || !expect(s, len, &i, 'T', 't'))
        return -1;
    int64_t hour = digits(s, len, &i, 2);
    if (hour < 0 || hour > 23 || !expect(s, len, &i, ':', ':'))
        return -1;
    int64_t minute = digits(s, len, &i, 2);
    if (minute < 0 || minute > 59 || !expect(s, len, &i, ':', ':'))
        return -1;
    int64_t second = digits(s, len, &i, 2);
    if (second < 0 || second > 59) /* no leap seconds, as in protobuf and Go */
        return -1;
    int32_t frac = 0;
    if (i < len && s[i] == '.') {
        i++;
        int nd = 0;
        while (i < len && s[i] >= '0' && s[i] <= '9') {
            if (nd == 9)
                return -1;
            frac = frac * 10 + (s[i] - '0');
            nd++;
            i++;
        }
        if (nd == 0)
            return -1;
        for (; nd < 9; nd++)
            frac *= 10;
    }
    int64_t offset = 0;
    if (expect(s, len, &i, 'Z', 'z')) {
        offset = 0;
    } else if (i < len && (s[i] == '+' || s[i] == '-')) {
        int sign = s[i] == '-' ? -1 : 1;
        i++;
        int64_t oh = digits(s, len, &i, 2);
        if (oh < 0 || oh > 23 || !expect(s, len, &i, ':', ':'))
            return -1;
        int64_t om = digits(s, len, &i, 2);
        if (om < 0 || om > 59)
            return -1;
        offset = sign * (oh * 3600 + om * 60);
    } else {
        return -1;
    }
    if (i != len)
        return -1;
    int64_t t = cel_days_from_civil(year, (int)month, (int)day) * 86400 + hour * 3600 +
                minute * 60 + second - offset;
    if (!cel_timestamp_in_range(t))
        return -2;
    *sec = t;
    *nsec = frac;
    return 0;
}

int cel_timestamp_parse(const char *s, size_t len, int64_t *sec, int32_t *nsec)
{
    return cel_timestamp_parse_status(s, len, sec, nsec) == 0 ? 0 : -1;
}

/* The fraction of a second with 0, 3, 6 or 9 digits, as protobuf's JSON mapping writes it. */
static void put_fraction(rp_buf *out, int32_t nsec)
{
    if (nsec == 0)
        return;
    if (nsec % 1000000 == 0)
        rp_buf_printf(out, ".%03" PRId32, nsec / 1000000);
    else if (nsec % 1000 == 0)
        rp_buf_printf(out, ".%06" PRId32, nsec / 1000);
    else
        rp_buf_printf(out, ".%09" PRId32, nsec);
}

void cel_timestamp_format(rp_buf *out, int64_t sec, int32_t nsec)
{
    cel_civil c;
    cel_civil_from_seconds(sec, &c);
    rp_buf_printf(out, "%04" PRId64 "-%02d-%02dT%02d:%02d:%02d", c.year, c.month, c.day, c.hour,
                  c.minute, c.second);
    put_fraction(out, nsec);
    rp_buf_putc(out, 'Z');
}

/* ---- Go durations ---- */

/* The unit at s[*i] in nanoseconds, or 0 when there is none. */
static int64_t duration_unit(const char *s, size_t len, size_t *i)
{
    static const struct {
        const char *name;
        int64_t ns;
    } units[] = {
        {"ns", 1},           {"us", 1000}, {"\xc2\xb5s", 1000}, /* U+00B5 micro sign */
        {"\xce\xbcs", 1000},                                    /* U+03BC Greek mu */
        {"ms", 1000000},     {"s", NANOS}, {"m", INT64_C(60) * NANOS}, {"h", INT64_C(3600) * NANOS},
    };
    /* Longest match first matters only for "ms" vs "m": "ms" is listed before "m". */
    for (size_t k = 0; k < sizeof units / sizeof units[0]; k++) {
        size_t n = strlen(units[k].name);
        if (len - *i >= n && memcmp(s + *i, units[k].name, n) == 0) {
            *i += n;
            return units[k].ns;
        }
    }
    return 0;
}

int cel_duration_parse_status(const char *s, size_t len, int64_t *sec, int32_t *nsec)
{
    size_t i = 0;
    bool neg = false;
    if (i < len && (s[i] == '-' || s[i] == '+')) {
        neg = s[i] == '-';
        i++;
    }
    if (len - i == 1 && s[i] == '0') { /* Go accepts a bare "0" */
        *sec = 0;
        *nsec = 0;
        return 0;
    }
    if (i == len)
        return -1;
    int64_t total_sec = 0, total_ns = 0; /* both non-negative; total_ns < NANOS */
    bool range = false;
    while (i < len) {
        uint64_t whole = 0;
        bool have_whole = false, have_frac = false;
        while (i < len && s[i] >= '0' && s[i] <= '9') {
            if (whole > (UINT64_MAX - 9) / 10) /* beyond any representable duration */
                range = true;
            else
                whole = whole * 10 + (uint64_t)(s[i] - '0');
            have_whole = true;
            i++;
        }
        uint64_t frac = 0, scale = 1;
        if (i < len && s[i] == '.') {
            i++;
            while (i < len && s[i] >= '0' && s[i] <= '9') {
                /* Digits beyond 18 cannot change the nanoseconds; Go drops them too. */
                if (scale < UINT64_C(1000000000000000000)) {
                    frac = frac * 10 + (uint64_t)(s[i] - '0');
                    scale *= 10;
                }
                have_frac = true;
                i++;
            }
        }
        if (!have_whole && !have_frac)
            return -1;
        int64_t unit = duration_unit(s, len, &i);
        if (unit == 0)
            return -1;
        if (range)
            continue;
        if (unit >= NANOS) {
            int64_t per = unit / NANOS;
            if (whole > (uint64_t)(2 * DUR_MAX_SEC / per)) {
                range = true;
                continue;
            }
            total_sec += (int64_t)whole * per;
        } else {
            int64_t per = NANOS / unit;
            total_sec += (int64_t)(whole / (uint64_t)per);
            total_ns += (int64_t)(whole % (uint64_t)per) * unit;
        }
        /* The fraction goes through a double, as Go's time.ParseDuration does. */
        if (frac != 0) {
            double f = (double)frac * ((double)unit / (double)scale);
            int64_t fs = (int64_t)(f / NANOS);
            total_sec += fs;
            total_ns += (int64_t)(f - (double)fs * NANOS);
        }
        total_sec += total_ns / NANOS;
        total_ns %= NANOS;
        if (total_sec > 2 * DUR_MAX_SEC)
            range = true;
    }
    if (range ||
        !cel_duration_in_range(neg ? -total_sec : total_sec, (int32_t)(neg ? -total_ns : total_ns)))
        return -2;
    *sec = neg ? -total_sec : total_sec;
    *nsec = (int32_t)(neg ? -total_ns : total_ns);
    return 0;
}

int cel_duration_parse(const char *s, size_t len, int64_t *sec, int32_t *nsec)
{
    return cel_duration_parse_status(s, len, sec, nsec) == 0 ? 0 : -1;
}

void cel_duration_format(rp_buf *out, int64_t sec, int32_t nsec)
{
    bool neg = sec < 0 || nsec < 0;
    uint64_t s = sec < 0 ? (uint64_t)0 - (uint64_t)sec : (uint64_t)sec;
    int32_t n = nsec < 0 ? -nsec : nsec;
    rp_buf_printf(out, "%s%" PRIu64, neg ? "-" : "", s);
    if (n != 0) {
        char frac[16];
        snprintf(frac, sizeof frac, "%09" PRId32, n);
        size_t k = strlen(frac);
        while (k > 0 && frac[k - 1] == '0')
            k--;
        rp_buf_putc(out, '.');
        rp_buf_append(out, frac, k);
    }
    rp_buf_putc(out, 's');
}

/* ---- arithmetic ---- */

/* A duration from a sum of seconds and nanoseconds (|ns| < 2e9): both parts get one sign. */
static cel_value make_duration(rp_arena *a, int64_t sec, int64_t ns)
{
    sec += ns / NANOS;
    ns %= NANOS;
    if (sec > 0 && ns < 0) {
        sec--;
        ns += NANOS;
    } else if (sec < 0 && ns > 0) {
        sec++;
        ns -= NANOS;
    }
    if (!cel_duration_in_range(sec, (int32_t)ns))
        return cel_error_new(a, "range error: duration out of range");
    return cel_duration(sec, (int32_t)ns);
}

static cel_value make_timestamp(rp_arena *a, int64_t sec, int64_t ns)
{
    sec += ns / NANOS;
    ns %= NANOS;
    if (ns < 0) {
        sec--;
        ns += NANOS;
    }
    if (!cel_timestamp_in_range(sec))
        return cel_error_new(a, "range error: timestamp out of range");
    return cel_timestamp(sec, (int32_t)ns);
}

static int compare_time(const cel_value *x, const cel_value *y)
{
    if (x->v.t.sec != y->v.t.sec)
        return x->v.t.sec < y->v.t.sec ? -1 : 1;
    if (x->v.t.nsec != y->v.t.nsec)
        return x->v.t.nsec < y->v.t.nsec ? -1 : 1;
    return 0;
}

static bool is_time(const cel_value *v)
{
    return v->kind == CEL_TIMESTAMP || v->kind == CEL_DURATION;
}

cel_value cel_time_binary(rp_arena *a, cel_op op, const cel_value *x, const cel_value *y,
                          bool *handled)
{
    *handled = true;
    int xk = x->kind, yk = y->kind;
    int64_t xs = x->v.t.sec, ys = y->v.t.sec;
    int64_t xn = x->v.t.nsec, yn = y->v.t.nsec;
    switch (op) {
    case CEL_OP_ADD:
        if (xk == CEL_TIMESTAMP && yk == CEL_DURATION)
            return make_timestamp(a, xs + ys, xn + yn);
        if (xk == CEL_DURATION && yk == CEL_TIMESTAMP)
            return make_timestamp(a, xs + ys, xn + yn);
        if (xk == CEL_DURATION && yk == CEL_DURATION)
            return make_duration(a, xs + ys, xn + yn);
        break;
    case CEL_OP_SUBTRACT:
        if (xk == CEL_TIMESTAMP && yk == CEL_DURATION)
            return make_timestamp(a, xs - ys, xn - yn);
        if (xk == CEL_TIMESTAMP && yk == CEL_TIMESTAMP)
            return make_duration(a, xs - ys, xn - yn);
        if (xk == CEL_DURATION && yk == CEL_DURATION)
            return make_duration(a, xs - ys, xn - yn);
        break;
    case CEL_OP_EQUALS:
    case CEL_OP_NOT_EQUALS:
        /* Values of different kinds are unequal (heterogeneous equality), never an error. */
        if (is_time(x) || is_time(y)) {
            bool eq = xk == yk && compare_time(x, y) == 0;
            return cel_bool(op == CEL_OP_EQUALS ? eq : !eq);
        }
        break;
    case CEL_OP_LESS:
    case CEL_OP_LESS_EQUALS:
    case CEL_OP_GREATER:
    case CEL_OP_GREATER_EQUALS:
        if (xk == yk && is_time(x)) {
            int c = compare_time(x, y);
            bool r = op == CEL_OP_LESS          ? c < 0
                     : op == CEL_OP_LESS_EQUALS ? c <= 0
                     : op == CEL_OP_GREATER     ? c > 0
                                                : c >= 0;
            return cel_bool(r);
        }
        break;
    default:
        break;
    }
    *handled = false;
    return cel_null();
}

cel_value cel_time_negate(rp_arena *a, const cel_value *x)
{
    if (x->kind != CEL_DURATION)
        return cel_error_no_overload(a, "-_", x, 1);
    /* -INT64_MIN nanoseconds does not fit, as in Go's int64 arithmetic. */
    if (!cel_duration_in_range(-x->v.t.sec, -x->v.t.nsec))
        return cel_error_new(a, "range error: duration out of range");
    return cel_duration(-x->v.t.sec, -x->v.t.nsec);
}
