/* utf8.c — the one UTF-8 reader, writer and validator, and hex digits (utf8.h states the
 * treatment of invalid input). */
#include "core/utf8.h"

/* The length of the valid sequence at s[0..n) (1..4) with its code point, or 0. The second
 * byte's range carries the overlong, surrogate and U+10FFFF checks (RFC 3629, section 4). */
static size_t decode_valid(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned char c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF;
    uint32_t v;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2, v = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3, v = c & 0x0F;
        lo = c == 0xE0 ? 0xA0 : 0x80; /* overlong */
        hi = c == 0xED ? 0x9F : 0xBF; /* UTF-16 surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4, v = c & 0x07;
        lo = c == 0xF0 ? 0x90 : 0x80; /* overlong */
        hi = c == 0xF4 ? 0x8F : 0xBF; /* above U+10FFFF */
    } else {
        return 0; /* a continuation byte, C0, C1 or F5..FF */
    }
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    v = (v << 6) | (s[1] & 0x3F);
    for (size_t i = 2; i < len; i++) {
        if (!rp_utf8_is_cont(s[i]))
            return 0;
        v = (v << 6) | (s[i] & 0x3F);
    }
    *cp = v;
    return len;
}

size_t rp_utf8_decode_multibyte(const char *s, size_t n, uint32_t *cp, rp_utf8_invalid mode)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t len = decode_valid(u, n, cp);
    if (len == 0 && mode == RP_UTF8_AS_BYTE) {
        *cp = u[0];
        len = 1;
    }
    return len;
}

size_t rp_utf8_encode(uint32_t cp, char out[RP_UTF8_MAX])
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    /* lead byte marks and payload limits of the 2..6-byte forms */
    static const unsigned char mark[] = {0, 0, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC};
    static const uint32_t limit[] = {0, 0, 0x800, 0x10000, 0x200000, 0x4000000, 0x80000000u};
    size_t len = 2;
    while (len < 6 && cp >= limit[len])
        len++;
    for (size_t i = len - 1; i > 0; i--) {
        out[i] = (char)(0x80 | (cp & 0x3F));
        cp >>= 6;
    }
    out[0] = (char)(mark[len] | cp);
    return len;
}

size_t rp_utf8_valid_prefix(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    uint32_t cp;
    while (i < n) {
        size_t len = u[i] < 0x80 ? 1 : decode_valid(u + i, n - i, &cp);
        if (len == 0)
            return i;
        i += len;
    }
    return n;
}

bool rp_utf8_valid(const char *s, size_t n)
{
    return rp_utf8_valid_prefix(s, n) == n;
}

size_t rp_utf8_lead_len(unsigned char c)
{
    if (c >= 0xF0 && c <= 0xF7)
        return 4;
    if (c >= 0xE0 && c <= 0xEF)
        return 3;
    if (c >= 0xC0 && c <= 0xDF)
        return 2;
    return 1;
}

size_t rp_utf8_prev(const char *s, size_t end)
{
    size_t i = end - 1;
    while (i > 0 && rp_utf8_is_cont((unsigned char)s[i]))
        i--;
    return i;
}

size_t rp_utf8_count(const char *s, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        count += !rp_utf8_is_cont((unsigned char)s[i]);
    return count;
}

bool rp_utf8_is_space(uint32_t cp, rp_space_set set)
{
    if (cp <= 0x20)
        return cp == ' ' || (cp >= 0x09 && cp <= 0x0D) ||
               (set == RP_SPACE_PYTHON && cp >= 0x1C && cp <= 0x1F);
    if (cp == 0x85)
        return set != RP_SPACE_JS;
    if (cp == 0xFEFF)
        return set == RP_SPACE_JS;
    return cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 ||
           cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

size_t rp_utf8_space_at(const char *s, size_t n, rp_space_set set)
{
    uint32_t cp;
    size_t len = n ? rp_utf8_decode(s, n, &cp, RP_UTF8_REJECT) : 0;
    return len && rp_utf8_is_space(cp, set) ? len : 0;
}

size_t rp_utf8_space_before(const char *s, size_t n, rp_space_set set)
{
    /* every space character is one to three bytes long */
    for (size_t k = 1; k <= 3 && k <= n; k++)
        if (rp_utf8_space_at(s + n - k, k, set) == k)
            return k;
    return 0;
}

void rp_utf8_trim(const char *s, size_t n, rp_space_set set, size_t *start, size_t *len)
{
    size_t b = 0, k;
    while ((k = rp_utf8_space_at(s + b, n - b, set)) > 0)
        b += k;
    while ((k = rp_utf8_space_before(s + b, n - b, set)) > 0)
        n -= k;
    *start = b;
    *len = n - b;
}

int rp_hex_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool rp_hex_read(const char *s, size_t n, int digits, uint32_t *v)
{
    if (digits < 0 || n < (size_t)digits)
        return false;
    uint32_t x = 0;
    for (int k = 0; k < digits; k++) {
        int h = rp_hex_digit((unsigned char)s[k]);
        if (h < 0)
            return false;
        x = x * 16 + (uint32_t)h;
    }
    *v = x;
    return true;
}
