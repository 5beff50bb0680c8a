/* lib_core.c — size, type, dyn, and the conversions int, uint, double, string, bytes, bool.
 *
 * The conversions follow cel-go, the reference the conformance data was written against:
 * numbers from strings are Go's strconv (decimal only for integers), double to int/uint
 * truncates and fails outside the target's range (or for NaN), string(double) is Go's "%g"
 * shortest form, and bool(string) accepts exactly strconv.ParseBool's spellings. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cel/fn.h"
#include "cel/time.h"
#include "core/utf8.h"

/* ---- size, type, dyn ---- */

static cel_value fn_size(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs == 1) {
        const cel_value *x = &args[0];
        switch (x->kind) {
        case CEL_STRING:
            call->work += x->len;
            return cel_int((int64_t)rp_utf8_count(x->v.s, x->len));
        case CEL_BYTES:
            return cel_int(x->len);
        case CEL_LIST:
            return cel_int(cel_list_size(x));
        case CEL_MAP:
            return cel_int(cel_map_size(x));
        default:
            break;
        }
    }
    return cel_error_no_overload(call->arena, "size", args, nargs);
}

static cel_value fn_type(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 1)
        return cel_error_no_overload(call->arena, "type", args, nargs);
    return cel_type(cel_kind_type_name(&args[0]));
}

static cel_value fn_dyn(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 1)
        return cel_error_no_overload(call->arena, "dyn", args, nargs);
    return args[0];
}

/* ---- helpers ---- */

/* The string as a NUL-terminated copy for the C parsing functions (strings are not
 * NUL-terminated). */
static const char *cstr(cel_call *call, const cel_value *s)
{
    call->work += s->len;
    return rp_arena_strndup(call->arena, s->v.s, s->len);
}

static cel_value conversion_error(cel_call *call, const cel_value *x, const char *to)
{
    return cel_error_new(call->arena, "type conversion error from '%s' to '%s'",
                         cel_kind_type_name(x), to);
}

/* Go's strconv.ParseInt/ParseUint in base 10: an optional sign (not for uint), digits only. */
static int parse_decimal(const char *s, uint32_t len, bool allow_sign, bool *neg, uint64_t *mag)
{
    uint32_t i = 0;
    *neg = false;
    if (allow_sign && i < len && (s[i] == '+' || s[i] == '-')) {
        *neg = s[i] == '-';
        i++;
    }
    if (i == len)
        return -1;
    uint64_t v = 0;
    for (; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        unsigned digit = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - digit) / 10)
            return -2;
        v = v * 10 + digit;
    }
    *mag = v;
    return 0;
}

/* ---- int ---- */

static cel_value fn_int(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 1)
        return cel_error_no_overload(call->arena, "int", args, nargs);
    const cel_value *x = &args[0];
    switch (x->kind) {
    case CEL_INT:
        return *x;
    case CEL_UINT:
        if (x->v.u > (uint64_t)INT64_MAX)
            return cel_error_new(call->arena, "range error: int(%" PRIu64 "u)", x->v.u);
        return cel_int((int64_t)x->v.u);
    case CEL_DOUBLE:
        /* -2^63 and 2^63 are exact doubles; int64 holds the open interval between them
         * (cel-go rejects -2^63 too, and the conformance data expects that). */
        if (!(x->v.d > -9223372036854775808.0 && x->v.d < 9223372036854775808.0))
            return cel_error_new(call->arena, "range error: int(%g)", x->v.d);
        return cel_int((int64_t)x->v.d);
    case CEL_STRING: {
        bool neg;
        uint64_t mag;
        int rc = parse_decimal(x->v.s, x->len, true, &neg, &mag);
        if (rc == 0 && !neg && mag <= (uint64_t)INT64_MAX)
            return cel_int((int64_t)mag);
        if (rc == 0 && neg && mag <= (uint64_t)INT64_MAX + 1)
            return cel_int(mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag);
        if (rc == 0 || rc == -2)
            return cel_error_new(call->arena, "range error: int('%.*s')", (int)x->len, x->v.s);
        return conversion_error(call, x, "int");
    }
    case CEL_TIMESTAMP:
        return cel_int(x->v.t.sec);
    case CEL_DURATION:
        /* Nanoseconds, as cel-go; a duration is an int64 count of them, so this fits. */
        return cel_int(x->v.t.sec * 1000000000 + x->v.t.nsec);
    default:
        return cel_error_no_overload(call->arena, "int", args, nargs);
    }
}

/* ---- uint ---- */

static cel_value fn_uint(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 1)
        return cel_error_no_overload(call->arena, "uint", args, nargs);
    const cel_value *x = &args[0];
    switch (x->kind) {
    case CEL_UINT:
        return *x;
    case CEL_INT:
        if (x->v.i < 0)
            return cel_error_new(call->arena, "range error: uint(%" PRId64 ")", x->v.i);
        return cel_uint((uint64_t)x->v.i);
    case CEL_DOUBLE:
        if (!(x->v.d >= 0.0 && x->v.d < 18446744073709551616.0))
            return cel_error_new(call->arena, "range error: uint(%g)", x->v.d);
        return cel_uint((uint64_t)x->v.d);
    case CEL_STRING: {
        bool neg;
        uint64_t mag;
        int rc = parse_decimal(x->v.s, x->len, false, &neg, &mag);
        if (rc == 0)
            return cel_uint(mag);
        if (rc == -2)
            return cel_error_new(call->arena, "range error: uint('%.*s')", (int)x->len, x->v.s);
        return conversion_error(call, x, "uint");
    }
    default:
        return cel_error_no_overload(call->arena, "uint", args, nargs);
    }
}

/* ---- double ---- */

/* Go's strconv.ParseFloat: decimal or hexadecimal (with a 'p' exponent) notation, "inf",
 * "infinity" (optionally signed) and "nan" in any case; no surrounding spaces. Overflow is an
 * error, underflow rounds (to zero or a subnormal) as in Go. */
static int parse_double(const char *s, double *out)
{
    const char *p = s;
    if (*p == '+' || *p == '-')
        p++;
    /* Go takes a sign on infinities but not on NaN. */
    if (strcasecmp(p, "inf") == 0 || strcasecmp(p, "infinity") == 0 ||
        (p == s && strcasecmp(p, "nan") == 0)) {
        *out = strtod(s, NULL);
        return 0;
    }
    bool hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    bool have_p = false;
    for (const char *q = p; *q; q++) {
        char c = *q;
        bool ok = (c >= '0' && c <= '9') || c == '.' || c == '+' || c == '-' ||
                  (hex && (c == 'x' || c == 'X' || c == 'p' || c == 'P' || rp_hex_digit(c) >= 0)) ||
                  (!hex && (c == 'e' || c == 'E'));
        if (!ok)
            return -1;
        have_p |= c == 'p' || c == 'P';
    }
    if (*p == '\0' || (hex && !have_p))
        return -1;
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (*end != '\0' || end == s)
        return -1;
    if (errno == ERANGE && isinf(d))
        return -2;
    *out = d;
    return 0;
}

static cel_value fn_double(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 1)
        return cel_error_no_overload(call->arena, "double", args, nargs);
    const cel_value *x = &args[0];
    switch (x->kind) {
    case CEL_DOUBLE:
        return *x;
    case CEL_INT:
        return cel_double((double)x->v.i);
    case CEL_UINT:
        return cel_double((double)x->v.u);
    case CEL_STRING: {
        double d;
        int rc = parse_double(cstr(call, x), &d);
        if (rc == 0)
            return cel_double(d);
        if (rc == -2)
            return cel_error_new(call->arena, "range error: double('%.*s')", (int)x->len, x->v.s);
        return conversion_error(call, x, "double");
    }
    default:
        return cel_error_no_overload(call->arena, "double", args, nargs);
    }
}

/* ---- string ---- */

/* Go's strconv.FormatFloat(d, 'g', -1, 64): the shortest digits that read back as d, in %e
 * form when the decimal exponent is below -4 or at least 6 (Go decides with precision 6 for
 * the shortest form, so 1000000.0 prints "1e+06"), with at least two exponent digits. */
static char *format_double(rp_arena *a, double d)
{
    if (isnan(d))
        return rp_arena_strdup(a, "NaN");
    if (isinf(d))
        return rp_arena_strdup(a, d > 0 ? "+Inf" : "-Inf");
    if (d == 0)
        return rp_arena_strdup(a, signbit(d) ? "-0" : "0");
    char buf[40];
    int prec;
    for (prec = 1; prec < 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    snprintf(buf, sizeof buf, "%.*e", prec - 1, d);
    /* buf is [-]D[.DDD]e[+-]XX: collect the digits and the exponent. */
    const char *p = buf;
    bool neg = *p == '-';
    if (neg)
        p++;
    char dig[20];
    int nd = 0;
    for (; *p && *p != 'e'; p++)
        if (*p != '.')
            dig[nd++] = *p;
    int exp = atoi(p + 1); /* d = 0.DIGITS * 10^(exp+1) */
    while (nd > 1 && dig[nd - 1] == '0')
        nd--;
    char out[64];
    int n = 0;
    if (neg)
        out[n++] = '-';
    if (exp < -4 || exp >= 6) {
        out[n++] = dig[0];
        if (nd > 1) {
            out[n++] = '.';
            for (int i = 1; i < nd; i++)
                out[n++] = dig[i];
        }
        n += snprintf(out + n, sizeof out - (size_t)n, "e%c%02d", exp < 0 ? '-' : '+',
                      exp < 0 ? -exp : exp);
    } else if (exp < 0) {
        out[n++] = '0';
        out[n++] = '.';
        for (int i = 0; i < -exp - 1; i++)
            out[n++] = '0';
        for (int i = 0; i < nd; i++)
            out[n++] = dig[i];
        out[n] = '\0';
    } else {
        for (int i = 0; i <= exp || i < nd; i++) {
            if (i == exp + 1)
                out[n++] = '.';
            out[n++] = i < nd ? dig[i] : '0';
        }
        out[n] = '\0';
    }
    return rp_arena_strdup(a, out);
}

static cel_value string_from_buf(cel_call *call, rp_buf *b)
{
    cel_value v = cel_string_copy(call->arena, b->data ? b->data : "", b->len);
    rp_buf_free(b);
    return v;
}

static cel_value fn_string(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 1)
        return cel_error_no_overload(call->arena, "string", args, nargs);
    const cel_value *x = &args[0];
    char *s;
    switch (x->kind) {
    case CEL_STRING:
        return *x;
    case CEL_BOOL:
        return cel_string_ref(x->v.b ? "true" : "false", x->v.b ? 4 : 5);
    case CEL_INT:
        s = rp_arena_sprintf(call->arena, "%" PRId64, x->v.i);
        return cel_string_ref(s, strlen(s));
    case CEL_UINT:
        s = rp_arena_sprintf(call->arena, "%" PRIu64, x->v.u);
        return cel_string_ref(s, strlen(s));
    case CEL_DOUBLE:
        s = format_double(call->arena, x->v.d);
        return cel_string_ref(s, strlen(s));
    case CEL_BYTES:
        /* Bytes are immutable, so a valid UTF-8 sequence can be shared rather than copied. */
        call->work += x->len;
        if (!rp_utf8_valid(x->v.s, x->len))
            return cel_error_new(call->arena, "invalid UTF-8 in bytes, cannot convert to string");
        return cel_string_ref(x->v.s, x->len);
    case CEL_TIMESTAMP: {
        rp_buf b = {0};
        cel_timestamp_format(&b, x->v.t.sec, x->v.t.nsec);
        return string_from_buf(call, &b);
    }
    case CEL_DURATION: {
        rp_buf b = {0};
        cel_duration_format(&b, x->v.t.sec, x->v.t.nsec);
        return string_from_buf(call, &b);
    }
    default:
        return cel_error_no_overload(call->arena, "string", args, nargs);
    }
}

/* ---- bytes, bool ---- */

static cel_value fn_bytes(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs == 1 && args[0].kind == CEL_BYTES)
        return args[0];
    if (nargs == 1 && args[0].kind == CEL_STRING) /* the UTF-8 encoding, shared */
        return cel_bytes_ref(args[0].v.s, args[0].len);
    return cel_error_no_overload(call->arena, "bytes", args, nargs);
}

static bool spelled(const cel_value *s, const char *const *words)
{
    for (; *words; words++)
        if (strlen(*words) == s->len && memcmp(*words, s->v.s, s->len) == 0)
            return true;
    return false;
}

static cel_value fn_bool(cel_call *call, const cel_value *args, uint32_t nargs)
{
    static const char *const truths[] = {"1", "t", "T", "true", "TRUE", "True", NULL};
    static const char *const falsehoods[] = {"0", "f", "F", "false", "FALSE", "False", NULL};
    if (nargs == 1 && args[0].kind == CEL_BOOL)
        return args[0];
    if (nargs == 1 && args[0].kind == CEL_STRING) {
        if (spelled(&args[0], truths))
            return cel_bool(true);
        if (spelled(&args[0], falsehoods))
            return cel_bool(false);
        return conversion_error(call, &args[0], "bool");
    }
    return cel_error_no_overload(call->arena, "bool", args, nargs);
}

const cel_function cel_lib_core[] = {
    {"size", CEL_FN_GLOBAL | CEL_FN_RECEIVER, fn_size, NULL, NULL},
    {"type", CEL_FN_GLOBAL, fn_type, NULL, NULL},
    {"dyn", CEL_FN_GLOBAL, fn_dyn, NULL, NULL},
    {"int", CEL_FN_GLOBAL, fn_int, NULL, NULL},
    {"uint", CEL_FN_GLOBAL, fn_uint, NULL, NULL},
    {"double", CEL_FN_GLOBAL, fn_double, NULL, NULL},
    {"string", CEL_FN_GLOBAL, fn_string, NULL, NULL},
    {"bytes", CEL_FN_GLOBAL, fn_bytes, NULL, NULL},
    {"bool", CEL_FN_GLOBAL, fn_bool, NULL, NULL},
    {NULL, 0, NULL, NULL, NULL},
};
