/* time.h — CEL timestamps and durations: text forms, arithmetic, time zones (time.c, tz.c).
 *
 * Timestamps range over 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59.999999999Z and durations
 * over what an int64 count of nanoseconds holds, about ±292 years (cel-spec langdef, "Overflow";
 * the conformance data expects 9999-12-31 - 0001-01-01 to overflow); anything outside is an
 * error value. Time zones are IANA
 * names read from the system's zoneinfo (TZif files under $TZDIR or /usr/share/zoneinfo, parsed
 * once per process and cached) or fixed offsets "+05:30" / "-08:00". */
#ifndef RAMPART_CEL_TIME_H
#define RAMPART_CEL_TIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cel/ast.h"
#include "cel/value.h"
#include "core/buf.h"

/* RFC 3339 text ("2024-01-02T03:04:05.123Z", "...+01:00"). 0, or -1 when malformed/out of range. */
int cel_timestamp_parse(const char *s, size_t len, int64_t *sec, int32_t *nsec);
/* RFC 3339 in UTC with 0, 3, 6 or 9 fraction digits as needed: "2024-01-02T03:04:05.123Z". */
void cel_timestamp_format(rp_buf *out, int64_t sec, int32_t nsec);
/* Go-style duration text ("1h2m3.5s", "-1.5s", "100ms", "2us", "3ns"). 0, or -1. */
int cel_duration_parse(const char *s, size_t len, int64_t *sec, int32_t *nsec);
/* Seconds with the fraction as needed: "3600s", "1.5s", "-0.000000001s". */
void cel_duration_format(rp_buf *out, int64_t sec, int32_t nsec);

/* Arithmetic and comparison operators where an operand is a timestamp or duration:
 * timestamp ± duration, duration ± duration, timestamp - timestamp, -duration. Sets *handled
 * to false (and returns null) when the operand kinds are not a time overload of `op`.
 * Overflow of the ranges above is an error value. */
cel_value cel_time_binary(rp_arena *a, cel_op op, const cel_value *x, const cel_value *y,
                          bool *handled);
cel_value cel_time_negate(rp_arena *a, const cel_value *x);

/* UTC offset in seconds of time zone `name` at the instant utc_sec. 0, or -1 when the zone is
 * unknown or malformed. */
int cel_tz_offset(const char *name, size_t name_len, int64_t utc_sec, int32_t *offset_sec);

/* ---- additions (helper D) ---- */

/* The parse functions above report every failure as -1; these variants tell the failures apart
 * so that messages can say which: 0 ok, -1 malformed, -2 well-formed but out of range. */
int cel_timestamp_parse_status(const char *s, size_t len, int64_t *sec, int32_t *nsec);
int cel_duration_parse_status(const char *s, size_t len, int64_t *sec, int32_t *nsec);

/* Whether a timestamp (seconds since the epoch) / a duration (seconds and nanoseconds of the
 * same sign) lies in the CEL range. */
bool cel_timestamp_in_range(int64_t sec);
bool cel_duration_in_range(int64_t sec, int32_t nsec);

/* Proleptic Gregorian calendar arithmetic (time.c), shared with tz.c and lib_time.c. */
typedef struct cel_civil {
    int64_t year;
    int month; /* 1..12 */
    int day;   /* 1..31 */
    int hour, minute, second;
    int yday; /* 0..365 */
    int wday; /* 0 = Sunday */
} cel_civil;
/* Days since 1970-01-01 of the date y-m-d (m 1..12, d 1..31). */
int64_t cel_days_from_civil(int64_t y, int m, int d);
/* The calendar fields of `sec` seconds since the epoch (a local time already offset). */
void cel_civil_from_seconds(int64_t sec, cel_civil *out);
bool cel_is_leap_year(int64_t y);
int cel_days_in_month(int64_t y, int m);

#endif
