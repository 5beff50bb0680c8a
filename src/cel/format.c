/* format.c — `string.format(list)` with cel-go's clauses and messages (see format.h). */
#include "cel/format.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"

void cel_format_double_shortest(rp_buf *out, double d)
{
    /* The shortest %e rendering that reads back as d gives the significant digits. */
    char e[40];
    for (int prec = 0; prec < 17; prec++) {
        snprintf(e, sizeof e, "%.*e", prec, d);
        if (strtod(e, NULL) == d)
            break;
    }
    const char *p = e;
    if (*p == '-') {
        rp_buf_putc(out, '-');
        p++;
    }
    char digits[24];
    size_t nd = 0;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9' && nd < sizeof digits)
            digits[nd++] = *p;
    int exp10 = *p == 'e' ? atoi(p + 1) : 0;
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    /* Value = d1.d2d3... × 10^exp10. */
    if (exp10 < 0) {
        rp_buf_puts(out, "0.");
        for (int z = -1; z > exp10; z--)
            rp_buf_putc(out, '0');
        rp_buf_append(out, digits, nd);
        return;
    }
    size_t int_digits = (size_t)exp10 + 1;
    if (nd <= int_digits) {
        rp_buf_append(out, digits, nd);
        for (size_t z = nd; z < int_digits; z++)
            rp_buf_putc(out, '0');
        return;
    }
    rp_buf_append(out, digits, int_digits);
    rp_buf_putc(out, '.');
    rp_buf_append(out, digits + int_digits, nd - int_digits);
}

/* Days since 1970-01-01 to a civil date (proleptic Gregorian; Howard Hinnant's algorithm). */
static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t yy = (int64_t)yoe + era * 400;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = yy + (*m <= 2);
}

/* Nanoseconds as ".123" with trailing zeros dropped (Go's RFC3339Nano), nothing for 0. */
static void put_fraction(rp_buf *out, int32_t nsec)
{
    if (nsec == 0)
        return;
    char f[16];
    snprintf(f, sizeof f, "%09" PRId32, nsec);
    size_t n = 9;
    while (n > 0 && f[n - 1] == '0')
        n--;
    rp_buf_putc(out, '.');
    rp_buf_append(out, f, n);
}

/* RFC 3339 in UTC as Go prints time.RFC3339Nano: 2023-02-03T23:31:20.5Z. */
static void put_timestamp(rp_buf *out, int64_t sec, int32_t nsec)
{
    int64_t days = sec / 86400, rem = sec % 86400;
    if (rem < 0) {
        rem += 86400;
        days--;
    }
    int64_t y;
    unsigned m, d;
    civil_from_days(days, &y, &m, &d);
    rp_buf_printf(out, "%04" PRId64 "-%02u-%02uT%02d:%02d:%02d", y, m, d, (int)(rem / 3600),
                  (int)(rem / 60 % 60), (int)(rem % 60));
    put_fraction(out, nsec);
    rp_buf_putc(out, 'Z');
}

/* Seconds with the fraction as needed, as cel-go prints durations: 6347s, 1.5s, -0.25s. */
static void put_duration(rp_buf *out, int64_t sec, int32_t nsec)
{
    bool neg = sec < 0 || nsec < 0;
    uint64_t s = sec < 0 ? (uint64_t)0 - (uint64_t)sec : (uint64_t)sec;
    int32_t ns = nsec < 0 ? -nsec : nsec;
    rp_buf_printf(out, "%s%" PRIu64, neg ? "-" : "", s);
    put_fraction(out, ns);
    rp_buf_putc(out, 's');
}

/* NaN and the infinities as cel-go spells them; false for a finite d. */
static bool put_special_double(rp_buf *out, double d)
{
    if (isnan(d))
        rp_buf_puts(out, "NaN");
    else if (isinf(d))
        rp_buf_puts(out, d > 0 ? "Infinity" : "-Infinity");
    else
        return false;
    return true;
}

typedef struct map_text {
    char *key;
    char *value;
    uint32_t order; /* insertion index, to keep the sort stable */
} map_text;

static int cmp_map_text(const void *x, const void *y)
{
    const map_text *a = x, *b = y;
    int c = strcmp(a->key, b->key);
    if (c)
        return c;
    return a->order < b->order ? -1 : a->order > b->order;
}

static int string_clause_error(char *err, size_t err_size, const cel_value *v)
{
    snprintf(err, err_size,
             "string clause can only be used on strings, bools, bytes, ints, doubles, maps, "
             "lists, types, durations, and timestamps, was given %s",
             cel_kind_type_name(v));
    return -1;
}

int cel_format_string_clause(rp_buf *out, const cel_value *v, size_t max_len, char *err,
                             size_t err_size)
{
    if (out->len > max_len)
        return -2; /* a list built by sharing can be exponentially long */
    switch ((cel_kind)v->kind) {
    case CEL_NULL:
        rp_buf_puts(out, "null");
        return 0;
    case CEL_BOOL:
        rp_buf_puts(out, v->v.b ? "true" : "false");
        return 0;
    case CEL_INT:
        rp_buf_printf(out, "%" PRId64, v->v.i);
        return 0;
    case CEL_UINT:
        rp_buf_printf(out, "%" PRIu64, v->v.u);
        return 0;
    case CEL_DOUBLE:
        if (!put_special_double(out, v->v.d))
            cel_format_double_shortest(out, v->v.d);
        return 0;
    case CEL_STRING:
    case CEL_BYTES:
        rp_buf_append(out, v->v.s, v->len);
        return 0;
    case CEL_TIMESTAMP:
        put_timestamp(out, v->v.t.sec, v->v.t.nsec);
        return 0;
    case CEL_DURATION:
        put_duration(out, v->v.t.sec, v->v.t.nsec);
        return 0;
    case CEL_TYPE:
        rp_buf_puts(out, v->v.type_name);
        return 0;
    case CEL_LIST: {
        uint32_t n = cel_list_size(v);
        rp_buf_putc(out, '[');
        for (uint32_t i = 0; i < n; i++) {
            if (i)
                rp_buf_puts(out, ", ");
            cel_value item = cel_list_at(v, i);
            int rc = cel_format_string_clause(out, &item, max_len, err, err_size);
            if (rc != 0)
                return rc;
        }
        rp_buf_putc(out, ']');
        return 0;
    }
    case CEL_MAP: {
        /* cel-go sorts the entries by the text of their keys so the output is stable. */
        uint32_t n = cel_map_size(v);
        map_text *ents = n ? calloc(n, sizeof *ents) : NULL;
        int rc = 0;
        size_t total = out->len; /* the entries are formatted apart, then sorted */
        for (uint32_t i = 0; i < n && rc == 0; i++) {
            cel_value key, value;
            cel_map_entry(v, i, &key, &value);
            rp_buf kb = {0}, vb = {0};
            rc = cel_format_string_clause(&kb, &key, max_len - total, err, err_size);
            if (rc == 0 && kb.len > max_len - total)
                rc = -2;
            if (rc == 0)
                rc = cel_format_string_clause(&vb, &value, max_len - total - kb.len, err, err_size);
            total += kb.len + vb.len;
            if (rc == 0 && total > max_len)
                rc = -2;
            ents[i].key = rp_buf_take(&kb);
            ents[i].value = rp_buf_take(&vb);
            ents[i].order = i;
        }
        if (rc == 0) {
            qsort(ents, n, sizeof *ents, cmp_map_text);
            rp_buf_putc(out, '{');
            for (uint32_t i = 0; i < n; i++) {
                if (i)
                    rp_buf_puts(out, ", ");
                rp_buf_puts(out, ents[i].key);
                rp_buf_puts(out, ": ");
                rp_buf_puts(out, ents[i].value);
            }
            rp_buf_putc(out, '}');
        }
        for (uint32_t i = 0; i < n; i++) {
            free(ents[i].key);
            free(ents[i].value);
        }
        free(ents);
        return rc;
    }
    default:
        return string_clause_error(err, err_size, v);
    }
}

/* The formatting message for a value of the wrong kind. */
static int kind_error(char *err, size_t err_size, const char *what, const cel_value *v)
{
    snprintf(err, err_size, "%s, was given %s", what, cel_kind_type_name(v));
    return -1;
}

/* Appends an unsigned magnitude in base 2 or 8, with a sign when negative (Go's FormatInt). */
static void put_base(rp_buf *out, bool neg, uint64_t mag, unsigned base)
{
    char tmp[72];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + mag % base);
        mag /= base;
    } while (mag);
    if (neg)
        rp_buf_putc(out, '-');
    while (n)
        rp_buf_putc(out, tmp[--n]);
}

static uint64_t magnitude(int64_t i)
{
    return i < 0 ? (uint64_t)0 - (uint64_t)i : (uint64_t)i;
}

/* One clause (verb with precision) applied to v. */
static int format_clause(rp_buf *out, char verb, int precision, const cel_value *v, size_t max_len,
                         char *err, size_t err_size)
{
    switch (verb) {
    case 's':
        return cel_format_string_clause(out, v, max_len, err, err_size);
    case 'd':
        if (v->kind == CEL_INT)
            rp_buf_printf(out, "%" PRId64, v->v.i);
        else if (v->kind == CEL_UINT)
            rp_buf_printf(out, "%" PRIu64, v->v.u);
        else if (v->kind == CEL_DOUBLE) {
            if (!put_special_double(out, v->v.d))
                cel_format_double_shortest(out, v->v.d);
        } else
            return kind_error(err, err_size, "decimal clause can only be used on integers", v);
        return 0;
    case 'f':
    case 'e': {
        double d;
        if (v->kind == CEL_INT)
            d = (double)v->v.i;
        else if (v->kind == CEL_UINT)
            d = (double)v->v.u;
        else if (v->kind == CEL_DOUBLE)
            d = v->v.d;
        else
            return kind_error(err, err_size,
                              verb == 'f' ? "fixed-point clause can only be used on doubles"
                                          : "scientific clause can only be used on doubles",
                              v);
        if (!put_special_double(out, d))
            rp_buf_printf(out, verb == 'f' ? "%.*f" : "%.*e", precision, d);
        return 0;
    }
    case 'b':
        if (v->kind == CEL_BOOL)
            rp_buf_putc(out, v->v.b ? '1' : '0');
        else if (v->kind == CEL_INT)
            put_base(out, v->v.i < 0, magnitude(v->v.i), 2);
        else if (v->kind == CEL_UINT)
            put_base(out, false, v->v.u, 2);
        else
            return kind_error(err, err_size, "only integers and bools can be formatted as binary",
                              v);
        return 0;
    case 'o':
        if (v->kind == CEL_INT)
            put_base(out, v->v.i < 0, magnitude(v->v.i), 8);
        else if (v->kind == CEL_UINT)
            put_base(out, false, v->v.u, 8);
        else
            return kind_error(err, err_size, "octal clause can only be used on integers", v);
        return 0;
    case 'x':
    case 'X': {
        bool upper = verb == 'X';
        if (v->kind == CEL_INT)
            rp_buf_printf(out, upper ? "%s%" PRIX64 : "%s%" PRIx64, v->v.i < 0 ? "-" : "",
                          magnitude(v->v.i));
        else if (v->kind == CEL_UINT)
            rp_buf_printf(out, upper ? "%" PRIX64 : "%" PRIx64, v->v.u);
        else if (v->kind == CEL_STRING || v->kind == CEL_BYTES) {
            const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
            for (uint32_t i = 0; i < v->len; i++) {
                unsigned char c = (unsigned char)v->v.s[i];
                rp_buf_putc(out, digits[c >> 4]);
                rp_buf_putc(out, digits[c & 15]);
            }
        } else
            return kind_error(err, err_size,
                              "only integers, byte buffers, and strings can be formatted as hex",
                              v);
        return 0;
    }
    default:
        return -1; /* not reached: the parser only passes known verbs */
    }
}

/* Bytes of the UTF-8 character starting at s[0] (at most `left`). */
static size_t char_len(const char *s, size_t left)
{
    unsigned char c = (unsigned char)s[0];
    size_t n = rp_utf8_lead_len(c);
    return n < left ? n : left;
}

cel_value cel_string_format(rp_arena *a, const char *fmt, size_t len, const cel_value *list,
                            size_t max_len)
{
    if (max_len == 0 || max_len > UINT32_MAX - 1)
        max_len = UINT32_MAX - 1; /* a string's length is 32 bits */
    rp_buf out = {0};
    rp_buf_append(&out, "", 0);
    char err[512];
    cel_value result;
    uint32_t nargs = cel_list_size(list);
    uint32_t argi = 0;
    size_t i = 0;
    while (i < len) {
        /* Each step adds a literal run or one clause, whose size is linear in its argument. */
        if (out.len > max_len) {
            result = cel_error_new(a, "evaluation memory limit exceeded");
            goto done;
        }
        if (fmt[i] != '%') {
            size_t n = i;
            while (n < len && fmt[n] != '%')
                n++;
            rp_buf_append(&out, fmt + i, n - i);
            i = n;
            continue;
        }
        if (i + 1 < len && fmt[i + 1] == '%') {
            rp_buf_putc(&out, '%');
            i += 2;
            continue;
        }
        /* cel-go fetches the argument before it looks at the clause. */
        if (argi >= nargs) {
            result = cel_error_new(a, "index %" PRIu32 " out of range", argi);
            goto done;
        }
        if (i + 1 >= len) {
            result = cel_error_new(a, "unexpected end of string");
            goto done;
        }
        size_t k = i + 1;
        int precision = 6;
        if (fmt[k] == '.') {
            k++;
            long p = 0;
            while (k < len && fmt[k] >= '0' && fmt[k] <= '9') {
                if (p <= CEL_FORMAT_MAX_PRECISION)
                    p = p * 10 + (fmt[k] - '0');
                k++;
            }
            if (k >= len) {
                result = cel_error_new(a, "could not parse formatting clause: error while parsing "
                                          "precision: could not find end of precision specifier");
                goto done;
            }
            if (p > CEL_FORMAT_MAX_PRECISION) {
                result = cel_error_new(a,
                                       "could not parse formatting clause: error while parsing "
                                       "precision: precision %ld exceeds maximum allowed "
                                       "precision %d",
                                       p, CEL_FORMAT_MAX_PRECISION);
                goto done;
            }
            precision = (int)p;
        }
        char verb = fmt[k];
        if (!strchr("sdfebxXo", verb) || verb == '\0') {
            size_t n = char_len(fmt + k, len - k);
            result = cel_error_new(a,
                                   "could not parse formatting clause: unrecognized formatting "
                                   "clause \"%.*s\"",
                                   (int)n, fmt + k);
            goto done;
        }
        cel_value arg = cel_list_at(list, argi);
        int rc = format_clause(&out, verb, precision, &arg, max_len, err, sizeof err);
        if (rc == -2) {
            result = cel_error_new(a, "evaluation memory limit exceeded");
            goto done;
        }
        if (rc != 0) {
            result = cel_error_new(a, "error during formatting: %s", err);
            goto done;
        }
        argi++;
        i = k + 1;
    }
    if (out.len > max_len) {
        result = cel_error_new(a, "evaluation memory limit exceeded");
        goto done;
    }
    /* %s of bytes copies them as they are, which may not be UTF-8. */
    result = cel_string_from_bytes(a, out.data, out.len);
done:
    rp_buf_free(&out);
    return result;
}
