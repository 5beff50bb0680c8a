/* json_write.c — the three JSON writers (compact, sorted, Python json.dumps) and double
 * formatting; see json.h.
 *
 * Doubles are printed with the fewest significant digits that read back to the same double
 * (what Python's repr does). Short decimals (costs, scores) take an exact integer path; the rest
 * use snprintf("%.*e") and strtod. Round-tripping is monotonic in the digit count (a correctly
 * rounded p+1-digit decimal is never farther from the double than the p-digit one), so a binary
 * search over 1..17 digits finds the shortest in ~5 tries. The digits are then laid out as
 * Python's float repr: positional when the decimal exponent is in [-4, 16), otherwise
 * d.ddde±XX. Both the compact and the Python writer use that layout, so a double always keeps
 * a '.' or an exponent and reads back as a double. */
#include "core/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"

typedef enum write_mode {
    WRITE_COMPACT, /* input order, no spaces */
    WRITE_SORTED,  /* keys sorted, duplicates collapsed to the last, no spaces */
    WRITE_PYTHON   /* json.dumps(v, sort_keys=True): ", " / ": ", ensure_ascii */
} write_mode;

/* ---- output staging ----
 * Writers emit many fragments of a few bytes; staging them in a local block and handing
 * rp_buf one append per kilobyte keeps the per-fragment cost to a bounds check and a copy. */

typedef struct json_out {
    rp_buf *buf;
    size_t len;
    char stage[1024];
} json_out;

/* Only buf and len are set: an initializer would zero the whole kilobyte stage on every call
 * (a `rep stos` per string written), which showed in the evaluation profile. */
static void out_init(json_out *o, rp_buf *buf)
{
    o->buf = buf;
    o->len = 0;
}

static void out_flush(json_out *o)
{
    if (o->len) {
        rp_buf_append(o->buf, o->stage, o->len);
        o->len = 0;
    }
}

static void out_bytes(json_out *o, const void *p, size_t n)
{
    if (n > sizeof o->stage - o->len) {
        out_flush(o);
        if (n > sizeof o->stage) {
            rp_buf_append(o->buf, p, n);
            return;
        }
    }
    memcpy(o->stage + o->len, p, n);
    o->len += n;
}

static void out_char(json_out *o, char c)
{
    if (o->len == sizeof o->stage)
        out_flush(o);
    o->stage[o->len++] = c;
}

/* ---- numbers ---- */

static void write_uint(json_out *out, uint64_t u, bool negative)
{
    char tmp[24];
    size_t pos = sizeof tmp;
    do {
        tmp[--pos] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (negative)
        tmp[--pos] = '-';
    out_bytes(out, tmp + pos, sizeof tmp - pos);
}

static void write_int(json_out *out, int64_t i)
{
    if (i < 0)
        write_uint(out, (uint64_t)0 - (uint64_t)i, true);
    else
        write_uint(out, (uint64_t)i, false);
}

/* Shortest round-trip digits of a finite d > 0: digits[0..n) without trailing zeros and the
 * decimal exponent of the first digit (d = D.DDD * 10^exponent). Returns n. */
static int shortest_digits(double d, char digits[20], int *exponent)
{
    /* Fast path, exact: when m / 10^k == d for an integer m < 2^50 and the smallest such k,
     * the decimal m·10^-k is the shortest text that reads back as d (strtod and the IEEE
     * division round the same rational, and any shorter text would have fewer decimals and so
     * have been found at a smaller k). Below 2^50 the product d·10^k is within far less than
     * 0.5 of m, so rounding it recovers m. This covers costs, scores and other short decimals;
     * the rest take the snprintf/strtod search. */
    double scale = 1;
    for (int k = 0; k <= 15; k++, scale *= 10) {
        double x = d * scale;
        if (x >= 1125899906842624.0) /* 2^50 */
            break;
        double m = nearbyint(x);
        if (m < 1 || m / scale != d)
            continue;
        char reversed[20];
        int n = 0;
        for (uint64_t u = (uint64_t)m; u; u /= 10)
            reversed[n++] = (char)('0' + u % 10);
        for (int i = 0; i < n; i++)
            digits[i] = reversed[n - 1 - i];
        *exponent = n - 1 - k;
        while (n > 1 && digits[n - 1] == '0')
            n--;
        return n;
    }

    char text[40];
    int lo = 1, hi = 17;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        snprintf(text, sizeof text, "%.*e", mid - 1, d);
        if (strtod(text, NULL) == d)
            hi = mid;
        else
            lo = mid + 1;
    }
    snprintf(text, sizeof text, "%.*e", lo - 1, d);
    /* text is D[.DDD]e(+|-)XX */
    int n = 0;
    const char *t = text;
    for (; *t && *t != 'e'; t++)
        if (*t != '.' && n < 20)
            digits[n++] = *t;
    while (n > 1 && digits[n - 1] == '0')
        n--;
    *exponent = *t == 'e' ? atoi(t + 1) : 0;
    return n;
}

/* Formats a finite double as Python's repr() does. Returns the length written to out (>= 32). */
static size_t format_double_repr(double d, char *out)
{
    char *o = out;
    if (d == 0) {
        memcpy(o, signbit(d) ? "-0.0" : "0.0", signbit(d) ? 4 : 3);
        return signbit(d) ? 4 : 3;
    }
    if (d < 0) {
        *o++ = '-';
        d = -d;
    }
    char digits[20] = {'0'};
    int exponent = 0;
    int ndigits = shortest_digits(d, digits, &exponent);

    if (exponent >= -4 && exponent < 16) {
        if (exponent < 0) {
            *o++ = '0';
            *o++ = '.';
            for (int i = 0; i < -exponent - 1; i++)
                *o++ = '0';
            memcpy(o, digits, (size_t)ndigits);
            o += ndigits;
        } else {
            int int_digits = exponent + 1;
            for (int i = 0; i < int_digits; i++)
                *o++ = i < ndigits ? digits[i] : '0';
            *o++ = '.';
            if (ndigits > int_digits) {
                memcpy(o, digits + int_digits, (size_t)(ndigits - int_digits));
                o += ndigits - int_digits;
            } else {
                *o++ = '0';
            }
        }
    } else {
        *o++ = digits[0];
        if (ndigits > 1) {
            *o++ = '.';
            memcpy(o, digits + 1, (size_t)(ndigits - 1));
            o += ndigits - 1;
        }
        *o++ = 'e';
        *o++ = exponent < 0 ? '-' : '+';
        int mag = exponent < 0 ? -exponent : exponent;
        if (mag >= 100)
            *o++ = (char)('0' + mag / 100);
        *o++ = (char)('0' + mag / 10 % 10);
        *o++ = (char)('0' + mag % 10);
    }
    return (size_t)(o - out);
}

static void write_double(json_out *out, double d, write_mode mode)
{
    if (!isfinite(d)) {
        if (mode != WRITE_PYTHON)
            out_bytes(out, "null", 4); /* JSON cannot carry them */
        else if (d != d)
            out_bytes(out, "NaN", 3);
        else
            out_bytes(out, d < 0 ? "-Infinity" : "Infinity", d < 0 ? 9 : 8);
        return;
    }
    char text[48];
    size_t n = format_double_repr(d, text);
    out_bytes(out, text, n);
}

/* ---- strings ---- */

static void write_u_escape(json_out *out, uint32_t unit)
{
    char esc[6] = {'\\',
                   'u',
                   rp_hex_char(unit >> 12),
                   rp_hex_char(unit >> 8),
                   rp_hex_char(unit >> 4),
                   rp_hex_char(unit)};
    out_bytes(out, esc, sizeof esc);
}

/* The two-character escape of c, or 0 when it has none. */
static char short_escape(unsigned char c)
{
    switch (c) {
    case '"':
        return '"';
    case '\\':
        return '\\';
    case '\n':
        return 'n';
    case '\r':
        return 'r';
    case '\t':
        return 't';
    case '\b':
        return 'b';
    case '\f':
        return 'f';
    default:
        return 0;
    }
}

/* Nonzero when any of the 8 bytes in w is '"', '\\', DEL, a control character or >= 0x80 (the
 * SWAR test of json.c plus DEL; false flags above a real hit only cost a byte-wise rescan). */
static uint64_t word_has_special_byte(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t quote = w ^ (ones * '"'), backslash = w ^ (ones * '\\'), del = w ^ (ones * 0x7f);
    uint64_t hits = ((quote - ones) & ~quote) | ((backslash - ones) & ~backslash);
    hits |= (del - ones) & ~del;
    hits |= (w - ones * 0x20) & ~w; /* bytes < 0x20 */
    return (hits | w) & highs;
}

/* ensure_ascii=false style: UTF-8 passes through; bytes that are not valid UTF-8 become
 * U+FFFD so the output is always valid JSON. With ascii_only, every non-ASCII code point and
 * DEL are \u-escaped (UTF-16 surrogate pairs above U+FFFF), as Python's ensure_ascii does. */
static void write_string_literal(json_out *out, const char *s, size_t n, bool ascii_only)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    out_char(out, '"');
    while (p < end) {
        const unsigned char *run = p;
        while (end - p >= 8) {
            uint64_t w;
            memcpy(&w, p, 8);
            uint64_t special = word_has_special_byte(w);
            if (special) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                /* The lowest flag is exact (see json.c): jump to the first special byte. */
                p += __builtin_ctzll(special) >> 3;
#endif
                break;
            }
            p += 8;
        }
        while (p < end && *p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\')
            p++;
        if (p > run)
            out_bytes(out, run, (size_t)(p - run));
        if (p >= end)
            break;
        unsigned char c = *p;
        if (c < 0x80) {
            char e = short_escape(c);
            if (e) {
                char esc[2] = {'\\', e};
                out_bytes(out, esc, 2);
            } else if (c < 0x20 || ascii_only) {
                write_u_escape(out, c);
            } else {
                out_char(out, (char)c); /* DEL, compact mode */
            }
            p++;
            continue;
        }
        uint32_t cp;
        size_t len = rp_utf8_decode((const char *)p, (size_t)(end - p), &cp, RP_UTF8_REJECT);
        if (len == 0) {
            if (ascii_only)
                write_u_escape(out, 0xfffd);
            else
                out_bytes(out, "\xef\xbf\xbd", 3);
            p++;
            continue;
        }
        if (!ascii_only) {
            out_bytes(out, p, len);
        } else if (cp < 0x10000) {
            write_u_escape(out, cp);
        } else {
            cp -= 0x10000;
            write_u_escape(out, 0xd800 + (cp >> 10));
            write_u_escape(out, 0xdc00 + (cp & 0x3ff));
        }
        p += len;
    }
    out_char(out, '"');
}

void rp_json_write_string(rp_buf *buf, const char *s, size_t n)
{
    json_out out;
    out_init(&out, buf);
    write_string_literal(&out, s ? s : "", s ? n : 0, false);
    out_flush(&out);
}

/* ---- containers ---- */

static int compare_member_keys(const void *pa, const void *pb)
{
    const rp_json_member *a = *(const rp_json_member *const *)pa;
    const rp_json_member *b = *(const rp_json_member *const *)pb;
    size_t n = a->key_len < b->key_len ? a->key_len : b->key_len;
    int c = memcmp(a->key, b->key, n);
    if (c)
        return c;
    if (a->key_len != b->key_len)
        return a->key_len < b->key_len ? -1 : 1;
    /* Equal keys keep input order (members are one array), so the last duplicate sorts last. */
    return a < b ? -1 : a > b;
}

static bool same_key(const rp_json_member *a, const rp_json_member *b)
{
    return a->key_len == b->key_len && memcmp(a->key, b->key, a->key_len) == 0;
}

static void write_value(json_out *out, const rp_json *v, write_mode mode);

static void write_member(json_out *out, const rp_json_member *m, write_mode mode, bool first)
{
    if (!first)
        out_bytes(out, mode == WRITE_PYTHON ? ", " : ",", mode == WRITE_PYTHON ? 2 : 1);
    write_string_literal(out, m->key, m->key_len, mode == WRITE_PYTHON);
    out_bytes(out, mode == WRITE_PYTHON ? ": " : ":", mode == WRITE_PYTHON ? 2 : 1);
    write_value(out, &m->value, mode);
}

static void write_object(json_out *out, const rp_json *v, write_mode mode)
{
    out_char(out, '{');
    if (mode == WRITE_COMPACT) {
        for (uint32_t i = 0; i < v->len; i++)
            write_member(out, &v->v.members[i], mode, i == 0);
        out_char(out, '}');
        return;
    }
    const rp_json_member *small[32];
    const rp_json_member **order = small;
    if (v->len > 32) {
        order = malloc(v->len * sizeof *order);
        if (!order) {
            fprintf(stderr, "rampart: out of memory (sorting %u keys)\n", v->len);
            abort();
        }
    }
    for (uint32_t i = 0; i < v->len; i++)
        order[i] = &v->v.members[i];
    if (v->len <= 16) {
        /* Insertion sort: stable and cheaper than qsort for the small objects of an event. */
        for (uint32_t i = 1; i < v->len; i++) {
            const rp_json_member *m = order[i];
            uint32_t j = i;
            for (; j > 0 && compare_member_keys(&order[j - 1], &m) > 0; j--)
                order[j] = order[j - 1];
            order[j] = m;
        }
    } else {
        qsort(order, v->len, sizeof *order, compare_member_keys);
    }
    bool first = true;
    for (uint32_t i = 0; i < v->len; i++) {
        if (i + 1 < v->len && same_key(order[i], order[i + 1]))
            continue; /* a later duplicate wins, as in a Python dict */
        write_member(out, order[i], mode, first);
        first = false;
    }
    if (order != small)
        free(order);
    out_char(out, '}');
}

static void write_value(json_out *out, const rp_json *v, write_mode mode)
{
    if (!v) {
        out_bytes(out, "null", 4);
        return;
    }
    switch (v->type) {
    case RP_JSON_NULL:
        out_bytes(out, "null", 4);
        break;
    case RP_JSON_BOOL:
        if (v->v.b)
            out_bytes(out, "true", 4);
        else
            out_bytes(out, "false", 5);
        break;
    case RP_JSON_INT:
        write_int(out, v->v.i);
        break;
    case RP_JSON_UINT:
        write_uint(out, v->v.u, false);
        break;
    case RP_JSON_DOUBLE:
        write_double(out, v->v.d, mode);
        break;
    case RP_JSON_STRING:
        write_string_literal(out, v->v.s ? v->v.s : "", v->v.s ? v->len : 0, mode == WRITE_PYTHON);
        break;
    case RP_JSON_ARRAY:
        out_char(out, '[');
        for (uint32_t i = 0; i < v->len; i++) {
            if (i)
                out_bytes(out, mode == WRITE_PYTHON ? ", " : ",", mode == WRITE_PYTHON ? 2 : 1);
            write_value(out, &v->v.items[i], mode);
        }
        out_char(out, ']');
        break;
    case RP_JSON_OBJECT:
        write_object(out, v, mode);
        break;
    default:
        out_bytes(out, "null", 4);
        break;
    }
}

static void write_top(rp_buf *buf, const rp_json *v, write_mode mode)
{
    json_out out;
    out_init(&out, buf);
    write_value(&out, v, mode);
    out_flush(&out);
    if (!buf->data)
        rp_buf_append(buf, "", 0); /* callers may rely on data being non-NULL */
}

void rp_json_write(rp_buf *out, const rp_json *v)
{
    write_top(out, v, WRITE_COMPACT);
}

void rp_json_write_sorted(rp_buf *out, const rp_json *v)
{
    write_top(out, v, WRITE_SORTED);
}

void rp_json_write_python(rp_buf *out, const rp_json *v)
{
    write_top(out, v, WRITE_PYTHON);
}

char *rp_json_to_string(rp_arena *a, const rp_json *v)
{
    rp_buf b = {0};
    write_top(&b, v, WRITE_COMPACT);
    char *s = rp_arena_strndup(a, b.data, b.len);
    rp_buf_free(&b);
    return s;
}
