/* json.c — strict RFC 8259 reader and the value model; see json.h. The writers are in
 * json_write.c.
 *
 * The reader is a recursive-descent parser over a byte range (the text need not be
 * NUL-terminated). Container children are collected on a scratch stack — a small array on the C
 * stack, moved to the heap only for large documents — and copied into the arena once the
 * container closes, so each array and object costs exactly one arena allocation of its final
 * size. Strings without escapes are validated in one pass and copied with memcpy. */
#include "core/json.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"

/* ---------------------------------------------------------------------------------------------
 * Reader
 * ------------------------------------------------------------------------------------------ */

typedef struct json_parser {
    const unsigned char *start;
    const unsigned char *p;
    const unsigned char *end;
    rp_arena *arena;
    rp_json_error *err;
    int depth;
    unsigned char *scratch; /* pending array items / object members, as raw bytes */
    size_t scratch_len;
    size_t scratch_cap;
    bool scratch_on_heap;
    /* Where the next string's bytes go: one arena block, taken on the first string, that holds
     * every string of the document. Each string needs its raw length plus a NUL, and the two
     * quotes around it in the text are longer than that, so the bytes left in the text always
     * suffice. One allocation per document instead of one per string. */
    unsigned char *strings;
    size_t strings_left;
} json_parser;

/* 1 for bytes that may appear unescaped in a string and need no further checks. */
static const unsigned char plain_string_byte[256] = {
    /* 0x00-0x1f: control characters, rejected */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 0x20-0x7f: everything but '"' (0x22) and '\\' (0x5c) */
    1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    /* 0x80-0xff: UTF-8 lead and continuation bytes, validated separately */
};

static bool parse_value(json_parser *ps, rp_json *out);

/* Nonzero when any of the 8 bytes in w is '"', '\\', a control character or >= 0x80 — the
 * bytes that end a plain run in a string. Classic SWAR zero-byte tests: a flag may also be set
 * above a real hit, which is harmless because the caller rescans that word byte by byte.
 * (json_write.c has the same test.) */
static uint64_t word_has_special_byte(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t quote = w ^ (ones * '"'), backslash = w ^ (ones * '\\');
    uint64_t hits = ((quote - ones) & ~quote) | ((backslash - ones) & ~backslash);
    hits |= (w - ones * 0x20) & ~w; /* bytes < 0x20 */
    return (hits | w) & highs;
}

/* Advances p over bytes that need no attention inside a string literal.
 *
 * Most strings of an event are keys and short values, so the run usually ends inside the first
 * word or two. The lowest flagged byte of word_has_special_byte is always a real hit (false
 * flags only appear above one, where a borrow came in), so on a little-endian machine the
 * position of the first special byte is read off the flags instead of rescanning byte by
 * byte. */
static const unsigned char *skip_plain_string_bytes(const unsigned char *p,
                                                    const unsigned char *end)
{
    while (end - p >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        uint64_t special = word_has_special_byte(w);
        if (special) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            return p + (__builtin_ctzll(special) >> 3);
#else
            break;
#endif
        }
        p += 8;
    }
    while (p < end && plain_string_byte[*p])
        p++;
    return p;
}

static bool fail_at(json_parser *ps, const unsigned char *at, const char *msg)
{
    rp_json_error *e = ps->err;
    if (at > ps->end)
        at = ps->end;
    e->offset = (size_t)(at - ps->start);
    e->line = 1;
    e->col = 1;
    for (const unsigned char *q = ps->start; q < at; q++) {
        if (*q == '\n') {
            e->line++;
            e->col = 1;
        } else {
            e->col++;
        }
    }
    snprintf(e->msg, sizeof e->msg, "%s", msg);
    return false;
}

static bool fail_unexpected(json_parser *ps, const char *expected)
{
    char msg[96];
    if (ps->p >= ps->end) {
        snprintf(msg, sizeof msg, "unexpected end of input, expected %s", expected);
    } else {
        unsigned char c = *ps->p;
        if (c >= 0x20 && c < 0x7f)
            snprintf(msg, sizeof msg, "unexpected '%c', expected %s", c, expected);
        else
            snprintf(msg, sizeof msg, "unexpected byte 0x%02x, expected %s", c, expected);
    }
    return fail_at(ps, ps->p, msg);
}

static void skip_whitespace(json_parser *ps)
{
    const unsigned char *p = ps->p, *end = ps->end;
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        p++;
    ps->p = p;
}

/* Grows the scratch stack; the first growth moves it from the C stack to the heap. */
static void scratch_grow(json_parser *ps, size_t need)
{
    size_t cap = ps->scratch_cap * 2;
    while (cap < need)
        cap *= 2;
    unsigned char *grown;
    if (ps->scratch_on_heap) {
        grown = realloc(ps->scratch, cap);
    } else {
        grown = malloc(cap);
        if (grown)
            memcpy(grown, ps->scratch, ps->scratch_len);
    }
    if (!grown) {
        fprintf(stderr, "rampart: out of memory (JSON scratch of %zu bytes)\n", cap);
        abort();
    }
    ps->scratch = grown;
    ps->scratch_cap = cap;
    ps->scratch_on_heap = true;
}

/* Called with a constant size, so the copy compiles to a few moves. */
static void scratch_push(json_parser *ps, const void *item, size_t size)
{
    if (ps->scratch_len + size > ps->scratch_cap)
        scratch_grow(ps, ps->scratch_len + size);
    memcpy(ps->scratch + ps->scratch_len, item, size);
    ps->scratch_len += size;
}

/* Moves the children pushed since `base` into one exact-size arena block. */
static void *scratch_pop_into_arena(json_parser *ps, size_t base)
{
    size_t bytes = ps->scratch_len - base;
    ps->scratch_len = base;
    if (bytes == 0)
        return NULL;
    void *dst = rp_arena_alloc(ps->arena, bytes);
    memcpy(dst, ps->scratch + base, bytes);
    return dst;
}

/* Decodes the escaped string body [p, close) into dst, which has room for close - p bytes
 * (every escape is at least as long as what it decodes to). Raw bytes were validated by the
 * caller's scan; escapes are validated here. Returns the decoded length or -1. */
static long decode_escaped(json_parser *ps, const unsigned char *p, const unsigned char *close,
                           unsigned char *dst)
{
    unsigned char *d = dst;
    while (p < close) {
        if (*p != '\\') {
            *d++ = *p++;
            continue;
        }
        const unsigned char *esc = p;
        p++; /* the scan guarantees a byte follows the backslash */
        switch (*p++) {
        case '"':
            *d++ = '"';
            break;
        case '\\':
            *d++ = '\\';
            break;
        case '/':
            *d++ = '/';
            break;
        case 'b':
            *d++ = '\b';
            break;
        case 'f':
            *d++ = '\f';
            break;
        case 'n':
            *d++ = '\n';
            break;
        case 'r':
            *d++ = '\r';
            break;
        case 't':
            *d++ = '\t';
            break;
        case 'u': {
            uint32_t cp, lo = 0;
            if (!rp_hex_read((const char *)p, (size_t)(close - p), 4, &cp))
                return fail_at(ps, esc, "invalid \\u escape: expected four hex digits"), -1;
            p += 4;
            if (cp >= 0xdc00 && cp <= 0xdfff)
                return fail_at(ps, esc, "lone UTF-16 low surrogate in \\u escape"), -1;
            if (cp >= 0xd800 && cp <= 0xdbff) {
                if (close - p >= 6 && p[0] == '\\' && p[1] == 'u')
                    rp_hex_read((const char *)p + 2, (size_t)(close - p - 2), 4, &lo);
                if (lo < 0xdc00 || lo > 0xdfff)
                    return fail_at(ps, esc, "lone UTF-16 high surrogate in \\u escape"), -1;
                p += 6;
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            }
            d += rp_utf8_encode(cp, (char *)d);
            break;
        }
        default:
            return fail_at(ps, esc, "invalid escape sequence in string"), -1;
        }
    }
    return (long)(d - dst);
}

/* Parses the string literal at ps->p (which is '"') into a NUL-terminated arena copy. */
static bool parse_string(json_parser *ps, const char **out, uint32_t *out_len)
{
    const unsigned char *open = ps->p;
    const unsigned char *p = open + 1, *end = ps->end;
    bool has_escape = false;
    for (;;) {
        p = skip_plain_string_bytes(p, end);
        if (p >= end)
            return fail_at(ps, open, "unterminated string");
        unsigned char c = *p;
        if (c == '"')
            break;
        if (c == '\\') {
            has_escape = true;
            if (p + 1 >= end)
                return fail_at(ps, open, "unterminated string");
            p += 2;
        } else if (c < 0x20) {
            return fail_at(ps, p, "unescaped control character in string");
        } else {
            uint32_t cp;
            size_t n = rp_utf8_decode((const char *)p, (size_t)(end - p), &cp, RP_UTF8_REJECT);
            if (n == 0)
                return fail_at(ps, p, "invalid UTF-8 in string");
            p += n;
        }
    }
    const unsigned char *body = open + 1, *close = p;
    size_t raw_len = (size_t)(close - body);
    if (raw_len > UINT32_MAX)
        return fail_at(ps, open, "string too long");
    if (ps->strings_left < raw_len + 1) {
        /* First string (or, defensively, a block that ran out): room for the rest of the
         * text, which covers this string and all that follow. */
        ps->strings_left = (size_t)(end - body);
        ps->strings = rp_arena_alloc(ps->arena, ps->strings_left);
    }
    unsigned char *dst = ps->strings;
    ps->strings += raw_len + 1;
    ps->strings_left -= raw_len + 1;
    size_t len = raw_len;
    if (!has_escape) {
        memcpy(dst, body, raw_len);
    } else {
        long n = decode_escaped(ps, body, close, dst);
        if (n < 0)
            return false;
        len = (size_t)n;
    }
    dst[len] = '\0';
    *out = (const char *)dst;
    *out_len = (uint32_t)len;
    ps->p = close + 1;
    return true;
}

static bool is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* Converts [s, e) with strtod. The text is already known to match the JSON number grammar,
 * which is a subset of what strtod accepts in the C locale (rampart never calls setlocale). */
static bool number_to_double(json_parser *ps, const unsigned char *s, const unsigned char *e,
                             double *out)
{
    size_t n = (size_t)(e - s);
    char small[64];
    char *text = n < sizeof small ? small : malloc(n + 1);
    if (!text) {
        fprintf(stderr, "rampart: out of memory (number of %zu bytes)\n", n);
        abort();
    }
    memcpy(text, s, n);
    text[n] = '\0';
    double d = strtod(text, NULL);
    if (text != small)
        free(text);
    if (isinf(d))
        return fail_at(ps, s, "number out of range");
    *out = d;
    return true;
}

/* Exact powers of ten: every one up to 10^22 is representable in a double. */
static const double exact_powers_of_ten[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static bool parse_number(json_parser *ps, rp_json *out)
{
    const unsigned char *s = ps->p, *p = s, *end = ps->end;
    bool negative = false;
    if (*p == '-') {
        negative = true;
        p++;
        if (p < end && *p == 'I')
            return fail_at(ps, s, "Infinity is not valid JSON");
    }
    if (p >= end || !is_digit(*p))
        return fail_at(ps, s, "invalid number");
    /* All significant digits, integer and fraction, accumulate into `digits` while they fit. */
    uint64_t digits = 0;
    bool overflow = false;
    if (*p == '0') {
        p++;
        if (p < end && is_digit(*p))
            return fail_at(ps, s, "invalid number: leading zeros are not allowed");
    } else {
        while (p < end && is_digit(*p)) {
            unsigned digit = (unsigned)(*p - '0');
            if (digits > (UINT64_MAX - digit) / 10)
                overflow = true;
            else
                digits = digits * 10 + digit;
            p++;
        }
    }
    bool is_double = false;
    int fraction_digits = 0;
    if (p < end && *p == '.') {
        p++;
        if (p >= end || !is_digit(*p))
            return fail_at(ps, s, "invalid number: expected a digit after '.'");
        while (p < end && is_digit(*p)) {
            unsigned digit = (unsigned)(*p - '0');
            if (digits > (UINT64_MAX - digit) / 10 || fraction_digits >= 400)
                overflow = true;
            else {
                digits = digits * 10 + digit;
                fraction_digits++;
            }
            p++;
        }
        is_double = true;
    }
    int exponent = 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        bool exponent_negative = false;
        if (p < end && (*p == '+' || *p == '-'))
            exponent_negative = *p++ == '-';
        if (p >= end || !is_digit(*p))
            return fail_at(ps, s, "invalid number: expected a digit in the exponent");
        while (p < end && is_digit(*p)) {
            if (exponent < 100000)
                exponent = exponent * 10 + (*p - '0');
            p++;
        }
        if (exponent_negative)
            exponent = -exponent;
        is_double = true;
    }
    ps->p = p;
    out->len = 0;
    out->cap = 0;
    if (!is_double && !overflow) {
        if (!negative && digits <= (uint64_t)INT64_MAX) {
            out->type = RP_JSON_INT;
            out->v.i = (int64_t)digits;
            return true;
        }
        if (!negative) {
            out->type = RP_JSON_UINT;
            out->v.u = digits;
            return true;
        }
        if (digits <= (uint64_t)INT64_MAX) {
            out->type = RP_JSON_INT;
            out->v.i = -(int64_t)digits;
            return true;
        }
        if (digits == (uint64_t)INT64_MAX + 1) {
            out->type = RP_JSON_INT;
            out->v.i = INT64_MIN;
            return true;
        }
    }
    /* A fraction or exponent, or an integer beyond the 64-bit ranges (see json.h). */
    out->type = RP_JSON_DOUBLE;
    int scale = exponent - fraction_digits;
    if (!overflow && digits <= (1ULL << 53) && scale >= -22 && scale <= 22) {
        /* Clinger's fast path: both operands are exact doubles, so the one IEEE multiplication
         * or division rounds exactly as strtod would. */
        double d = (double)digits;
        d = scale < 0 ? d / exact_powers_of_ten[-scale] : d * exact_powers_of_ten[scale];
        out->v.d = negative ? -d : d;
        return true;
    }
    return number_to_double(ps, s, p, &out->v.d);
}

static bool parse_literal(json_parser *ps, const char *word, size_t n)
{
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
        return fail_unexpected(ps, "a JSON value");
    ps->p += n;
    return true;
}

static bool enter_container(json_parser *ps)
{
    if (++ps->depth > RP_JSON_MAX_DEPTH)
        return fail_at(ps, ps->p, "nesting deeper than 256 levels");
    ps->p++; /* the '[' or '{' */
    return true;
}

static bool parse_array(json_parser *ps, rp_json *out)
{
    if (!enter_container(ps))
        return false;
    size_t base = ps->scratch_len;
    skip_whitespace(ps);
    if (ps->p < ps->end && *ps->p == ']') {
        ps->p++;
    } else {
        for (;;) {
            rp_json item;
            if (!parse_value(ps, &item))
                return false;
            scratch_push(ps, &item, sizeof item);
            skip_whitespace(ps);
            if (ps->p < ps->end && *ps->p == ',') {
                ps->p++;
                skip_whitespace(ps);
                if (ps->p < ps->end && *ps->p == ']')
                    return fail_at(ps, ps->p, "trailing comma in array");
                continue;
            }
            if (ps->p < ps->end && *ps->p == ']') {
                ps->p++;
                break;
            }
            return fail_unexpected(ps, "',' or ']'");
        }
    }
    size_t count = (ps->scratch_len - base) / sizeof(rp_json);
    if (count > UINT32_MAX)
        return fail_at(ps, ps->p, "array too large");
    out->type = RP_JSON_ARRAY;
    out->len = out->cap = (uint32_t)count;
    out->v.items = scratch_pop_into_arena(ps, base);
    ps->depth--;
    return true;
}

static bool parse_object(json_parser *ps, rp_json *out)
{
    if (!enter_container(ps))
        return false;
    size_t base = ps->scratch_len;
    skip_whitespace(ps);
    if (ps->p < ps->end && *ps->p == '}') {
        ps->p++;
    } else {
        for (;;) {
            rp_json_member m;
            if (ps->p >= ps->end || *ps->p != '"')
                return fail_unexpected(ps, "a string key");
            if (!parse_string(ps, &m.key, &m.key_len))
                return false;
            skip_whitespace(ps);
            if (ps->p >= ps->end || *ps->p != ':')
                return fail_unexpected(ps, "':'");
            ps->p++;
            if (!parse_value(ps, &m.value))
                return false;
            scratch_push(ps, &m, sizeof m);
            skip_whitespace(ps);
            if (ps->p < ps->end && *ps->p == ',') {
                ps->p++;
                skip_whitespace(ps);
                if (ps->p < ps->end && *ps->p == '}')
                    return fail_at(ps, ps->p, "trailing comma in object");
                continue;
            }
            if (ps->p < ps->end && *ps->p == '}') {
                ps->p++;
                break;
            }
            return fail_unexpected(ps, "',' or '}'");
        }
    }
    size_t count = (ps->scratch_len - base) / sizeof(rp_json_member);
    if (count > UINT32_MAX)
        return fail_at(ps, ps->p, "object too large");
    out->type = RP_JSON_OBJECT;
    out->len = out->cap = (uint32_t)count;
    out->v.members = scratch_pop_into_arena(ps, base);
    ps->depth--;
    return true;
}

static bool parse_value(json_parser *ps, rp_json *out)
{
    skip_whitespace(ps);
    if (ps->p >= ps->end)
        return fail_unexpected(ps, "a JSON value");
    out->len = 0;
    out->cap = 0;
    switch (*ps->p) {
    case '{':
        return parse_object(ps, out);
    case '[':
        return parse_array(ps, out);
    case '"':
        out->type = RP_JSON_STRING;
        return parse_string(ps, &out->v.s, &out->len);
    case 't':
        out->type = RP_JSON_BOOL;
        out->v.b = true;
        return parse_literal(ps, "true", 4);
    case 'f':
        out->type = RP_JSON_BOOL;
        out->v.b = false;
        return parse_literal(ps, "false", 5);
    case 'n':
        out->type = RP_JSON_NULL;
        out->v.i = 0;
        return parse_literal(ps, "null", 4);
    case '-':
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9':
        return parse_number(ps, out);
    case 'N':
        return fail_at(ps, ps->p, "NaN is not valid JSON");
    case 'I':
        return fail_at(ps, ps->p, "Infinity is not valid JSON");
    default:
        return fail_unexpected(ps, "a JSON value");
    }
}

rp_json *rp_json_parse(rp_arena *a, const char *text, size_t len, rp_json_error *err)
{
    static const char empty_text[1];
    if (!text) {
        text = empty_text;
        len = 0;
    }
    rp_json_error local_err;
    unsigned char inline_scratch[2048];
    json_parser ps = {
        .start = (const unsigned char *)text,
        .p = (const unsigned char *)text,
        .end = (const unsigned char *)text + len,
        .arena = a,
        .err = err ? err : &local_err,
        .scratch = inline_scratch,
        .scratch_cap = sizeof inline_scratch,
    };
    ps.err->offset = 0;
    ps.err->line = 0;
    ps.err->col = 0;
    ps.err->msg[0] = '\0';
    rp_json value;
    bool ok = parse_value(&ps, &value);
    if (ok) {
        skip_whitespace(&ps);
        if (ps.p < ps.end)
            ok = fail_at(&ps, ps.p, "trailing characters after the JSON value");
    }
    if (ps.scratch_on_heap)
        free(ps.scratch);
    if (!ok)
        return NULL;
    return rp_json_new(a, value);
}

/* ---------------------------------------------------------------------------------------------
 * Inspecting
 * ------------------------------------------------------------------------------------------ */

const rp_json *rp_json_getn(const rp_json *obj, const char *key, size_t key_len)
{
    if (!obj || obj->type != RP_JSON_OBJECT || !key)
        return NULL;
    for (uint32_t i = obj->len; i-- > 0;) {
        const rp_json_member *m = &obj->v.members[i];
        if (m->key_len == key_len && memcmp(m->key, key, key_len) == 0)
            return &m->value;
    }
    return NULL;
}

const rp_json *rp_json_get(const rp_json *obj, const char *key)
{
    if (!key)
        return NULL;
    return rp_json_getn(obj, key, strlen(key));
}

const char *rp_json_get_str(const rp_json *obj, const char *key)
{
    return rp_json_str(rp_json_get(obj, key));
}

const rp_json *rp_json_path(const rp_json *root, const char *dotted)
{
    if (!dotted)
        return NULL;
    const rp_json *v = root;
    const char *seg = dotted;
    for (;;) {
        const char *dot = strchr(seg, '.');
        size_t n = dot ? (size_t)(dot - seg) : strlen(seg);
        v = rp_json_getn(v, seg, n);
        if (!v || !dot)
            return v;
        seg = dot + 1;
    }
}

const rp_json *rp_json_at(const rp_json *arr, size_t index)
{
    if (!arr || arr->type != RP_JSON_ARRAY || index >= arr->len)
        return NULL;
    return &arr->v.items[index];
}

bool rp_json_is_object(const rp_json *v)
{
    return v && v->type == RP_JSON_OBJECT;
}

bool rp_json_is_array(const rp_json *v)
{
    return v && v->type == RP_JSON_ARRAY;
}

bool rp_json_is_string(const rp_json *v)
{
    return v && v->type == RP_JSON_STRING;
}

bool rp_json_is_number(const rp_json *v)
{
    return v && (v->type == RP_JSON_INT || v->type == RP_JSON_UINT || v->type == RP_JSON_DOUBLE);
}

bool rp_json_is_integer(const rp_json *v)
{
    return v && (v->type == RP_JSON_INT || v->type == RP_JSON_UINT);
}

const char *rp_json_str(const rp_json *v)
{
    return v && v->type == RP_JSON_STRING ? v->v.s : NULL;
}

bool rp_json_number(const rp_json *v, double *out)
{
    if (!v)
        return false;
    switch (v->type) {
    case RP_JSON_INT:
        *out = (double)v->v.i;
        return true;
    case RP_JSON_UINT:
        *out = (double)v->v.u;
        return true;
    case RP_JSON_DOUBLE:
        *out = v->v.d;
        return true;
    default:
        return false;
    }
}

bool rp_json_truthy(const rp_json *v)
{
    if (!v)
        return false;
    switch (v->type) {
    case RP_JSON_NULL:
        return false;
    case RP_JSON_BOOL:
        return v->v.b;
    case RP_JSON_INT:
        return v->v.i != 0;
    case RP_JSON_UINT:
        return v->v.u != 0;
    case RP_JSON_DOUBLE:
        return v->v.d != 0.0; /* NaN is truthy, as in Python */
    case RP_JSON_STRING:
    case RP_JSON_ARRAY:
    case RP_JSON_OBJECT:
        return v->len != 0;
    }
    return false;
}

/* Exact comparison of an integer with a double: no rounding through double conversion. */
static bool int_equals_double(int64_t i, double d)
{
    if (d != d || d < -9223372036854775808.0 || d >= 9223372036854775808.0)
        return false;
    if (d != floor(d))
        return false;
    return (int64_t)d == i;
}

static bool uint_equals_double(uint64_t u, double d)
{
    if (d != d || d < 0 || d >= 18446744073709551616.0 || d != floor(d))
        return false;
    return (uint64_t)d == u;
}

static bool numbers_equal(const rp_json *a, const rp_json *b, bool loose)
{
    bool a_int = a->type != RP_JSON_DOUBLE, b_int = b->type != RP_JSON_DOUBLE;
    if (!loose && a_int != b_int)
        return false;
    if (a->type == RP_JSON_DOUBLE && b->type == RP_JSON_DOUBLE)
        return a->v.d == b->v.d;
    if (a->type == RP_JSON_DOUBLE)
        return b->type == RP_JSON_INT ? int_equals_double(b->v.i, a->v.d)
                                      : uint_equals_double(b->v.u, a->v.d);
    if (b->type == RP_JSON_DOUBLE)
        return a->type == RP_JSON_INT ? int_equals_double(a->v.i, b->v.d)
                                      : uint_equals_double(a->v.u, b->v.d);
    if (a->type == RP_JSON_INT && b->type == RP_JSON_INT)
        return a->v.i == b->v.i;
    if (a->type == RP_JSON_UINT && b->type == RP_JSON_UINT)
        return a->v.u == b->v.u;
    int64_t i = a->type == RP_JSON_INT ? a->v.i : b->v.i;
    uint64_t u = a->type == RP_JSON_UINT ? a->v.u : b->v.u;
    return i >= 0 && (uint64_t)i == u;
}

/* Objects compare as Python dicts: the effective (last) value of each distinct key. */
static bool object_covers(const rp_json *a, const rp_json *b, bool loose)
{
    for (uint32_t i = 0; i < a->len; i++) {
        const rp_json_member *m = &a->v.members[i];
        if (rp_json_getn(a, m->key, m->key_len) != &m->value)
            continue; /* shadowed by a later duplicate */
        const rp_json *other = rp_json_getn(b, m->key, m->key_len);
        if (!other || !rp_json_equal(&m->value, other, loose))
            return false;
    }
    return true;
}

bool rp_json_equal(const rp_json *a, const rp_json *b, bool numeric_loose)
{
    if (!a || !b)
        return a == b;
    if (rp_json_is_number(a) && rp_json_is_number(b))
        return numbers_equal(a, b, numeric_loose);
    if (a->type != b->type)
        return false;
    switch (a->type) {
    case RP_JSON_NULL:
        return true;
    case RP_JSON_BOOL:
        return a->v.b == b->v.b;
    case RP_JSON_STRING:
        return a->len == b->len && memcmp(a->v.s, b->v.s, a->len) == 0;
    case RP_JSON_ARRAY:
        if (a->len != b->len)
            return false;
        for (uint32_t i = 0; i < a->len; i++)
            if (!rp_json_equal(&a->v.items[i], &b->v.items[i], numeric_loose))
                return false;
        return true;
    case RP_JSON_OBJECT:
        return object_covers(a, b, numeric_loose) && object_covers(b, a, numeric_loose);
    default:
        return false;
    }
}

const char *rp_json_type_name(rp_json_type t)
{
    switch (t) {
    case RP_JSON_NULL:
        return "null";
    case RP_JSON_BOOL:
        return "bool";
    case RP_JSON_INT:
    case RP_JSON_UINT:
        return "integer";
    case RP_JSON_DOUBLE:
        return "float";
    case RP_JSON_STRING:
        return "string";
    case RP_JSON_ARRAY:
        return "array";
    case RP_JSON_OBJECT:
        return "object";
    }
    return "unknown";
}

/* ---------------------------------------------------------------------------------------------
 * Building
 * ------------------------------------------------------------------------------------------ */

rp_json rp_json_make_null(void)
{
    rp_json v = {.type = RP_JSON_NULL};
    return v;
}

rp_json rp_json_make_bool(bool b)
{
    rp_json v = {.type = RP_JSON_BOOL};
    v.v.b = b;
    return v;
}

rp_json rp_json_make_int(int64_t i)
{
    rp_json v = {.type = RP_JSON_INT};
    v.v.i = i;
    return v;
}

rp_json rp_json_make_double(double d)
{
    rp_json v = {.type = RP_JSON_DOUBLE};
    v.v.d = d;
    return v;
}

rp_json rp_json_make_stringn(rp_arena *a, const char *s, size_t n)
{
    if (n > UINT32_MAX) {
        fprintf(stderr, "rampart: JSON string of %zu bytes is too long\n", n);
        abort();
    }
    rp_json v = {.type = RP_JSON_STRING, .len = (uint32_t)n};
    v.v.s = rp_arena_strndup(a, s ? s : "", s ? n : 0);
    if (!s)
        v.len = 0;
    return v;
}

rp_json rp_json_make_string(rp_arena *a, const char *s)
{
    return rp_json_make_stringn(a, s, s ? strlen(s) : 0);
}

rp_json rp_json_make_string_ref(const char *s)
{
    if (!s)
        s = "";
    rp_json v = {.type = RP_JSON_STRING, .len = (uint32_t)strlen(s)};
    v.v.s = s;
    return v;
}

rp_json rp_json_make_array(void)
{
    rp_json v = {.type = RP_JSON_ARRAY};
    v.v.items = NULL;
    return v;
}

rp_json rp_json_make_object(void)
{
    rp_json v = {.type = RP_JSON_OBJECT};
    v.v.members = NULL;
    return v;
}

rp_json *rp_json_new(rp_arena *a, rp_json value)
{
    rp_json *p = rp_arena_alloc(a, sizeof *p);
    *p = value;
    return p;
}

/* Ensures room for one more element of `size` bytes in *storage, doubling the capacity. Parsed
 * values have cap == len, so their first push moves them into builder storage. */
static void *grow_for_one_more(rp_arena *a, void *storage, rp_json *container, size_t size)
{
    if (container->len < container->cap)
        return storage;
    if (container->len >= UINT32_MAX / 2) {
        fprintf(stderr, "rampart: JSON container too large\n");
        abort();
    }
    uint32_t cap = container->cap < container->len ? container->len : container->cap;
    cap = cap < 4 ? 4 : cap * 2;
    void *grown;
    if (container->cap >= container->len && container->cap > 0) {
        grown = rp_arena_realloc(a, storage, (size_t)container->cap * size, (size_t)cap * size);
    } else {
        grown = rp_arena_alloc(a, (size_t)cap * size);
        if (container->len)
            memcpy(grown, storage, (size_t)container->len * size);
    }
    container->cap = cap;
    return grown;
}

void rp_json_array_push(rp_arena *a, rp_json *arr, rp_json value)
{
    if (!arr || arr->type != RP_JSON_ARRAY)
        return;
    arr->v.items = grow_for_one_more(a, arr->v.items, arr, sizeof(rp_json));
    arr->v.items[arr->len++] = value;
}

void rp_json_object_set(rp_arena *a, rp_json *obj, const char *key, rp_json value)
{
    if (!obj || obj->type != RP_JSON_OBJECT || !key)
        return;
    size_t key_len = strlen(key);
    for (uint32_t i = obj->len; i-- > 0;) {
        rp_json_member *m = &obj->v.members[i];
        if (m->key_len == key_len && memcmp(m->key, key, key_len) == 0) {
            m->value = value;
            /* Drop earlier duplicates so exactly one member carries the key. */
            uint32_t out = 0;
            for (uint32_t j = 0; j < obj->len; j++) {
                rp_json_member *mj = &obj->v.members[j];
                bool earlier_dup =
                    j < i && mj->key_len == key_len && memcmp(mj->key, key, key_len) == 0;
                if (!earlier_dup)
                    obj->v.members[out++] = *mj;
            }
            obj->len = out;
            return;
        }
    }
    if (key_len > UINT32_MAX)
        return;
    obj->v.members = grow_for_one_more(a, obj->v.members, obj, sizeof(rp_json_member));
    rp_json_member *m = &obj->v.members[obj->len++];
    m->key = rp_arena_strndup(a, key, key_len);
    m->key_len = (uint32_t)key_len;
    m->value = value;
}

bool rp_json_object_delete(rp_json *obj, const char *key)
{
    if (!obj || obj->type != RP_JSON_OBJECT || !key)
        return false;
    size_t key_len = strlen(key);
    uint32_t out = 0;
    bool found = false;
    for (uint32_t i = 0; i < obj->len; i++) {
        rp_json_member *m = &obj->v.members[i];
        if (m->key_len == key_len && memcmp(m->key, key, key_len) == 0) {
            found = true;
            continue;
        }
        obj->v.members[out++] = *m;
    }
    obj->len = out;
    return found;
}

rp_json rp_json_clone(rp_arena *a, const rp_json *v)
{
    if (!v)
        return rp_json_make_null();
    rp_json copy = *v;
    switch (v->type) {
    case RP_JSON_STRING:
        copy.v.s = rp_arena_strndup(a, v->v.s, v->len);
        break;
    case RP_JSON_ARRAY:
        copy.cap = v->len;
        copy.v.items = NULL;
        if (v->len) {
            copy.v.items = rp_arena_alloc(a, (size_t)v->len * sizeof(rp_json));
            for (uint32_t i = 0; i < v->len; i++)
                copy.v.items[i] = rp_json_clone(a, &v->v.items[i]);
        }
        break;
    case RP_JSON_OBJECT:
        copy.cap = v->len;
        copy.v.members = NULL;
        if (v->len) {
            copy.v.members = rp_arena_alloc(a, (size_t)v->len * sizeof(rp_json_member));
            for (uint32_t i = 0; i < v->len; i++) {
                const rp_json_member *m = &v->v.members[i];
                copy.v.members[i].key = rp_arena_strndup(a, m->key, m->key_len);
                copy.v.members[i].key_len = m->key_len;
                copy.v.members[i].value = rp_json_clone(a, &m->value);
            }
        }
        break;
    default:
        break;
    }
    return copy;
}
