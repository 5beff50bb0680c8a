/* pyrepr.c — Python's repr(), str(), str.lower(), whitespace and int() for policy texts. */
#include "core/pyrepr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"

size_t rp_py_prefix_bytes(const char *s, size_t n, size_t max_chars)
{
    size_t pos = 0;
    uint32_t cp;

    for (size_t chars = 0; chars < max_chars && pos < n; chars++)
        pos += rp_utf8_decode(s + pos, n - pos, &cp, RP_UTF8_AS_BYTE);
    return pos;
}

bool rp_py_isspace(uint32_t cp)
{
    return rp_utf8_is_space(cp, RP_SPACE_PYTHON);
}

/* str.isprintable() for non-ASCII code points: false for the control (Cc), format (Cf),
 * separator (Zs/Zl/Zp), surrogate, private-use and non-character code points. Unassigned code
 * points count as printable here (Python would escape them); see the header's limits. */
static bool py_isprintable_nonascii(uint32_t cp)
{
    static const uint32_t ranges[][2] = {
        {0x80, 0xa0},       {0xad, 0xad},        {0x600, 0x605},     {0x61c, 0x61c},
        {0x6dd, 0x6dd},     {0x70f, 0x70f},      {0x890, 0x891},     {0x8e2, 0x8e2},
        {0x1680, 0x1680},   {0x180e, 0x180e},    {0x2000, 0x200f},   {0x2028, 0x202f},
        {0x205f, 0x2064},   {0x2066, 0x206f},    {0x3000, 0x3000},   {0xd800, 0xf8ff},
        {0xfeff, 0xfeff},   {0xfff9, 0xfffb},    {0x110bd, 0x110bd}, {0x110cd, 0x110cd},
        {0x13430, 0x1343f}, {0x1bca0, 0x1bca3},  {0x1d173, 0x1d17a}, {0xe0001, 0xe0001},
        {0xe0020, 0xe007f}, {0xf0000, 0x10ffff},
    };
    if ((cp & 0xfffe) == 0xfffe)
        return false; /* U+xFFFE and U+xFFFF are non-characters in every plane */
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        if (cp >= ranges[i][0] && cp <= ranges[i][1])
            return false;
    return true;
}

void rp_py_repr_str(rp_buf *out, const char *s, size_t n)
{
    bool has_single = memchr(s, '\'', n) != NULL;
    bool has_double = memchr(s, '"', n) != NULL;
    char quote = (has_single && !has_double) ? '"' : '\'';

    rp_buf_putc(out, quote);
    for (size_t pos = 0; pos < n;) {
        /* A run of printable ASCII that needs no escape goes out in one append (the loop below
         * would copy the same bytes one at a time). */
        size_t run = pos;
        while (run < n && (unsigned char)s[run] >= 0x20 && (unsigned char)s[run] < 0x7f &&
               s[run] != quote && s[run] != '\\')
            run++;
        if (run > pos) {
            rp_buf_append(out, s + pos, run - pos);
            pos = run;
            continue;
        }
        uint32_t cp;
        size_t len = rp_utf8_decode(s + pos, n - pos, &cp, RP_UTF8_AS_BYTE);

        if (cp == (uint32_t)quote || cp == '\\') {
            rp_buf_putc(out, '\\');
            rp_buf_putc(out, (char)cp);
        } else if (cp == '\t') {
            rp_buf_puts(out, "\\t");
        } else if (cp == '\n') {
            rp_buf_puts(out, "\\n");
        } else if (cp == '\r') {
            rp_buf_puts(out, "\\r");
        } else if (cp < 0x20 || cp == 0x7f) {
            rp_buf_printf(out, "\\x%02x", (unsigned)cp);
        } else if (cp < 0x80 || py_isprintable_nonascii(cp)) {
            rp_buf_append(out, s + pos, len);
        } else if (cp <= 0xff) {
            rp_buf_printf(out, "\\x%02x", (unsigned)cp);
        } else if (cp <= 0xffff) {
            rp_buf_printf(out, "\\u%04x", (unsigned)cp);
        } else {
            rp_buf_printf(out, "\\U%08x", (unsigned)cp);
        }
        pos += len;
    }
    rp_buf_putc(out, quote);
}

static void py_repr_float(rp_buf *out, double d)
{
    if (isnan(d)) {
        rp_buf_puts(out, "nan");
    } else if (isinf(d)) {
        rp_buf_puts(out, d < 0 ? "-inf" : "inf");
    } else {
        /* json.dumps prints finite floats with float.__repr__, which is what we need. */
        rp_json v = rp_json_make_double(d);
        rp_json_write_python(out, &v);
    }
}

/* The value a Python dict built by json.loads holds for member i's key: the last duplicate. */
static const rp_json *py_dict_value(const rp_json *obj, uint32_t i)
{
    const rp_json_member *m = obj->v.members;
    const rp_json *value = &m[i].value;

    for (uint32_t j = i + 1; j < obj->len; j++)
        if (m[j].key_len == m[i].key_len && memcmp(m[j].key, m[i].key, m[i].key_len) == 0)
            value = &m[j].value;
    return value;
}

/* A duplicate key keeps the position of its first occurrence in a Python dict. */
static bool py_dict_key_seen_before(const rp_json *obj, uint32_t i)
{
    const rp_json_member *m = obj->v.members;

    for (uint32_t j = 0; j < i; j++)
        if (m[j].key_len == m[i].key_len && memcmp(m[j].key, m[i].key, m[i].key_len) == 0)
            return true;
    return false;
}

void rp_py_repr(rp_buf *out, const rp_json *v)
{
    if (v == NULL) {
        rp_buf_puts(out, "None");
        return;
    }
    switch (v->type) {
    case RP_JSON_NULL:
        rp_buf_puts(out, "None");
        break;
    case RP_JSON_BOOL:
        rp_buf_puts(out, v->v.b ? "True" : "False");
        break;
    case RP_JSON_INT:
        rp_buf_printf(out, "%lld", (long long)v->v.i);
        break;
    case RP_JSON_UINT:
        rp_buf_printf(out, "%llu", (unsigned long long)v->v.u);
        break;
    case RP_JSON_DOUBLE:
        py_repr_float(out, v->v.d);
        break;
    case RP_JSON_STRING:
        rp_py_repr_str(out, v->v.s, v->len);
        break;
    case RP_JSON_ARRAY:
        rp_buf_putc(out, '[');
        for (uint32_t i = 0; i < v->len; i++) {
            if (i > 0)
                rp_buf_puts(out, ", ");
            rp_py_repr(out, &v->v.items[i]);
        }
        rp_buf_putc(out, ']');
        break;
    case RP_JSON_OBJECT: {
        bool first = true;

        rp_buf_putc(out, '{');
        for (uint32_t i = 0; i < v->len; i++) {
            if (py_dict_key_seen_before(v, i))
                continue;
            if (!first)
                rp_buf_puts(out, ", ");
            first = false;
            rp_py_repr_str(out, v->v.members[i].key, v->v.members[i].key_len);
            rp_buf_puts(out, ": ");
            rp_py_repr(out, py_dict_value(v, i));
        }
        rp_buf_putc(out, '}');
        break;
    }
    }
}

void rp_py_str(rp_buf *out, const rp_json *v)
{
    if (v != NULL && v->type == RP_JSON_STRING)
        rp_buf_append(out, v->v.s, v->len);
    else
        rp_py_repr(out, v);
}

static int compare_cstr(const void *a, const void *b)
{
    /* strcmp compares bytes as unsigned char, and UTF-8 byte order is code-point order, which
     * is how Python sorts str. */
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void rp_py_repr_sorted_strs(rp_buf *out, const char *const *items, size_t n)
{
    const char **sorted = NULL;

    if (n > 0) {
        sorted = malloc(n * sizeof *sorted);
        if (sorted == NULL)
            abort();
        memcpy(sorted, items, n * sizeof *sorted);
        qsort(sorted, n, sizeof *sorted, compare_cstr);
    }
    rp_buf_putc(out, '[');
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            rp_buf_puts(out, ", ");
        rp_py_repr_str(out, sorted[i], strlen(sorted[i]));
    }
    rp_buf_putc(out, ']');
    free(sorted);
}

/* Simple (one code point to one code point) lower-case mapping of the covered scripts. */
static uint32_t py_lower_cp(uint32_t cp)
{
    if (cp < 0x80)
        return (cp >= 'A' && cp <= 'Z') ? cp + 32 : cp;
    if ((cp >= 0xc0 && cp <= 0xde && cp != 0xd7))
        return cp + 32;
    if (cp >= 0x100 && cp <= 0x17f) {
        if (cp == 0x178)
            return 0xff;
        if ((cp >= 0x100 && cp <= 0x137) || (cp >= 0x14a && cp <= 0x177))
            return (cp % 2 == 0) ? cp + 1 : cp;
        if ((cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17e))
            return (cp % 2 == 1) ? cp + 1 : cp;
        return cp;
    }
    if (cp == 0x386)
        return 0x3ac;
    if (cp >= 0x388 && cp <= 0x38a)
        return cp + 37;
    if (cp == 0x38c)
        return 0x3cc;
    if (cp == 0x38e || cp == 0x38f)
        return cp + 63;
    if (cp >= 0x391 && cp <= 0x3ab && cp != 0x3a2)
        return cp + 32;
    if (cp >= 0x400 && cp <= 0x40f)
        return cp + 80;
    if (cp >= 0x410 && cp <= 0x42f)
        return cp + 32;
    if ((cp >= 0x460 && cp <= 0x481) || (cp >= 0x48a && cp <= 0x4bf))
        return (cp % 2 == 0) ? cp + 1 : cp;
    if (cp >= 0x531 && cp <= 0x556)
        return cp + 48;
    if ((cp >= 0x1e00 && cp <= 0x1e95) || (cp >= 0x1ea0 && cp <= 0x1eff))
        return (cp % 2 == 0) ? cp + 1 : cp;
    if (cp == 0x2126)
        return 0x3c9; /* OHM SIGN */
    if (cp == 0x212a)
        return 'k'; /* KELVIN SIGN */
    if (cp == 0x212b)
        return 0xe5; /* ANGSTROM SIGN */
    if (cp >= 0xff21 && cp <= 0xff3a)
        return cp + 32;
    return cp;
}

char *rp_py_lower(rp_arena *a, const char *s, size_t n, size_t *out_len)
{
    bool ascii = true;
    char *r;

    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80)
            ascii = false;
    if (ascii) {
        /* The hot path (tool and skill names): no allocation beyond the copy. */
        r = rp_arena_alloc(a, n + 1);
        for (size_t i = 0; i < n; i++)
            r[i] = (s[i] >= 'A' && s[i] <= 'Z') ? (char)(s[i] + 32) : s[i];
        r[n] = '\0';
        if (out_len)
            *out_len = n;
        return r;
    }

    rp_buf b = {0};
    for (size_t pos = 0; pos < n;) {
        uint32_t cp;
        size_t len = rp_utf8_decode(s + pos, n - pos, &cp, RP_UTF8_AS_BYTE);

        if (len == 1 && cp >= 0x80)
            rp_buf_putc(&b, s[pos]); /* an invalid byte stays as it was */
        else if (cp == 0x130)
            rp_buf_puts(&b, "i\xcc\x87"); /* 'İ'.lower() is 'i' + COMBINING DOT ABOVE */
        else {
            char u[RP_UTF8_MAX];
            rp_buf_append(&b, u, rp_utf8_encode(py_lower_cp(cp), u));
        }
        pos += len;
    }
    r = rp_arena_strndup(a, b.data ? b.data : "", b.len);
    if (out_len)
        *out_len = b.len;
    rp_buf_free(&b);
    return r;
}

void rp_py_strip(const char *s, size_t n, size_t *start, size_t *len)
{
    rp_utf8_trim(s, n, RP_SPACE_PYTHON, start, len);
}
