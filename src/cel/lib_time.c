/* lib_time.c — timestamp() and duration() conversions and the time accessors (getFullYear ...).
 *
 * Timestamp accessors take an optional time zone (an IANA name or a fixed offset, see tz.c) and
 * answer in that zone's local time, UTC without one. Months, days of the month and days of the
 * year count from 0, getDate from 1, and getDayOfWeek from Sunday = 0, as cel-spec says.
 * Duration accessors convert the whole duration (getMinutes of 3730s is 62), except
 * getMilliseconds, which is the millisecond part of the fraction of a second. */
#include <stddef.h>
#include <string.h>

#include "cel/fn.h"
#include "cel/time.h"

static cel_value fn_timestamp(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs == 1) {
        const cel_value *x = &args[0];
        if (x->kind == CEL_TIMESTAMP)
            return *x;
        if (x->kind == CEL_INT) {
            if (!cel_timestamp_in_range(x->v.i))
                return cel_error_new(call->arena, "range error: timestamp(%lld) out of range",
                                     (long long)x->v.i);
            return cel_timestamp(x->v.i, 0);
        }
        if (x->kind == CEL_STRING) {
            int64_t sec;
            int32_t nsec;
            int rc = cel_timestamp_parse_status(x->v.s, x->len, &sec, &nsec);
            if (rc == 0)
                return cel_timestamp(sec, nsec);
            if (rc == -2)
                return cel_error_new(call->arena, "range error: timestamp('%.*s') out of range",
                                     (int)x->len, x->v.s);
            return cel_error_new(call->arena, "timestamp('%.*s'): not an RFC 3339 timestamp",
                                 (int)x->len, x->v.s);
        }
    }
    return cel_error_no_overload(call->arena, "timestamp", args, nargs);
}

static cel_value fn_duration(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs == 1) {
        const cel_value *x = &args[0];
        if (x->kind == CEL_DURATION)
            return *x;
        if (x->kind == CEL_INT) /* nanoseconds, as Go's time.Duration(i) */
            return cel_duration(x->v.i / 1000000000, (int32_t)(x->v.i % 1000000000));
        if (x->kind == CEL_STRING) {
            int64_t sec;
            int32_t nsec;
            int rc = cel_duration_parse_status(x->v.s, x->len, &sec, &nsec);
            if (rc == 0)
                return cel_duration(sec, nsec);
            if (rc == -2)
                return cel_error_new(call->arena, "range error: duration('%.*s') out of range",
                                     (int)x->len, x->v.s);
            return cel_error_new(call->arena, "duration('%.*s'): not a duration like '1h2m3.5s'",
                                 (int)x->len, x->v.s);
        }
    }
    return cel_error_no_overload(call->arena, "duration", args, nargs);
}

typedef enum field {
    F_FULL_YEAR,
    F_MONTH,
    F_DAY_OF_YEAR,
    F_DAY_OF_MONTH,
    F_DATE,
    F_DAY_OF_WEEK,
    F_HOURS,
    F_MINUTES,
    F_SECONDS,
    F_MILLISECONDS
} field;

static const char *const field_names[] = {
    "getFullYear",  "getMonth", "getDayOfYear", "getDayOfMonth", "getDate",
    "getDayOfWeek", "getHours", "getMinutes",   "getSeconds",    "getMilliseconds",
};

static cel_value duration_field(cel_call *call, field f, const cel_value *d)
{
    switch (f) {
    case F_HOURS:
        return cel_int(d->v.t.sec / 3600);
    case F_MINUTES:
        return cel_int(d->v.t.sec / 60);
    case F_SECONDS:
        return cel_int(d->v.t.sec);
    case F_MILLISECONDS:
        return cel_int(d->v.t.nsec / 1000000);
    default:
        return cel_error_no_overload(call->arena, field_names[f], d, 1);
    }
}

static cel_value time_field(cel_call *call, field f, const cel_value *args, uint32_t nargs)
{
    const cel_value *x = &args[0];
    if (x->kind == CEL_DURATION && nargs == 1)
        return duration_field(call, f, x);
    if (x->kind != CEL_TIMESTAMP || nargs > 2 || (nargs == 2 && args[1].kind != CEL_STRING))
        return cel_error_no_overload(call->arena, field_names[f], args, nargs);
    int32_t offset = 0;
    if (nargs == 2 && cel_tz_offset(args[1].v.s, args[1].len, x->v.t.sec, &offset) != 0)
        return cel_error_new(call->arena, "%s: unknown time zone '%.*s'", field_names[f],
                             (int)args[1].len, args[1].v.s);
    cel_civil c;
    cel_civil_from_seconds(x->v.t.sec + offset, &c);
    switch (f) {
    case F_FULL_YEAR:
        return cel_int(c.year);
    case F_MONTH:
        return cel_int(c.month - 1);
    case F_DAY_OF_YEAR:
        return cel_int(c.yday);
    case F_DAY_OF_MONTH:
        return cel_int(c.day - 1);
    case F_DATE:
        return cel_int(c.day);
    case F_DAY_OF_WEEK:
        return cel_int(c.wday);
    case F_HOURS:
        return cel_int(c.hour);
    case F_MINUTES:
        return cel_int(c.minute);
    case F_SECONDS:
        return cel_int(c.second);
    case F_MILLISECONDS:
        return cel_int(x->v.t.nsec / 1000000);
    }
    return cel_null();
}

/* One small entry point per accessor, because an implementation does not learn its name. */
static cel_value fn_full_year(cel_call *c, const cel_value *a, uint32_t n)
{
    return time_field(c, F_FULL_YEAR, a, n);
}
static cel_value fn_month(cel_call *c, const cel_value *a, uint32_t n)
{
    return time_field(c, F_MONTH, a, n);
}
static cel_value fn_day_of_year(cel_call *c, const cel_value *a, uint32_t n)
{
    return time_field(c, F_DAY_OF_YEAR, a, n);
}
static cel_value fn_day_of_month(cel_call *c, const cel_value *a, uint32_t n)
{
    return time_field(c, F_DAY_OF_MONTH, a, n);
}
static cel_value fn_date(cel_call *c, const cel_value *a, uint32_t n)
{
    return time_field(c, F_DATE, a, n);
}
static cel_value fn_day_of_week(cel_call *c, const cel_value *a, uint32_t n)
{
    return time_field(c, F_DAY_OF_WEEK, a, n);
}
static cel_value fn_hours(cel_call *c, const cel_value *a, uint32_t n)
{
    return time_field(c, F_HOURS, a, n);
}
static cel_value fn_minutes(cel_call *c, const cel_value *a, uint32_t n)
{
    return time_field(c, F_MINUTES, a, n);
}
static cel_value fn_seconds(cel_call *c, const cel_value *a, uint32_t n)
{
    return time_field(c, F_SECONDS, a, n);
}
static cel_value fn_milliseconds(cel_call *c, const cel_value *a, uint32_t n)
{
    return time_field(c, F_MILLISECONDS, a, n);
}

const cel_function cel_lib_time[] = {
    {"timestamp", CEL_FN_GLOBAL, fn_timestamp, NULL, NULL},
    {"duration", CEL_FN_GLOBAL, fn_duration, NULL, NULL},
    {"getFullYear", CEL_FN_RECEIVER, fn_full_year, NULL, NULL},
    {"getMonth", CEL_FN_RECEIVER, fn_month, NULL, NULL},
    {"getDayOfYear", CEL_FN_RECEIVER, fn_day_of_year, NULL, NULL},
    {"getDayOfMonth", CEL_FN_RECEIVER, fn_day_of_month, NULL, NULL},
    {"getDate", CEL_FN_RECEIVER, fn_date, NULL, NULL},
    {"getDayOfWeek", CEL_FN_RECEIVER, fn_day_of_week, NULL, NULL},
    {"getHours", CEL_FN_RECEIVER, fn_hours, NULL, NULL},
    {"getMinutes", CEL_FN_RECEIVER, fn_minutes, NULL, NULL},
    {"getSeconds", CEL_FN_RECEIVER, fn_seconds, NULL, NULL},
    {"getMilliseconds", CEL_FN_RECEIVER, fn_milliseconds, NULL, NULL},
    {NULL, 0, NULL, NULL, NULL},
};
