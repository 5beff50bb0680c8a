/* normalize.c — folding Unicode decimal digits to ASCII before a scan (see normalize.h). */
#include "scan/normalize.h"

#include <stdint.h>
#include <string.h>

#include "core/utf8.h"

/* The zero of every block of ten decimal digits outside ASCII (Unicode 14, category Nd). */
static const unsigned digit_zeros[] = {
    0x660,   0x6f0,   0x7c0,   0x966,   0x9e6,   0xa66,   0xae6,   0xb66,   0xbe6,   0xc66,
    0xce6,   0xd66,   0xde6,   0xe50,   0xed0,   0xf20,   0x1040,  0x1090,  0x17e0,  0x1810,
    0x1946,  0x19d0,  0x1a80,  0x1a90,  0x1b50,  0x1bb0,  0x1c40,  0x1c50,  0xa620,  0xa8d0,
    0xa900,  0xa9d0,  0xa9f0,  0xaa50,  0xabf0,  0xff10,  0x104a0, 0x10d30, 0x11066, 0x110f0,
    0x11136, 0x111d0, 0x112f0, 0x11450, 0x114d0, 0x11650, 0x116c0, 0x11730, 0x118e0, 0x11950,
    0x11c50, 0x11d50, 0x11da0, 0x16a60, 0x16ac0, 0x16b50, 0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec,
    0x1d7f6, 0x1e140, 0x1e2f0, 0x1e950, 0x1fbf0,
};

int rp_unicode_digit_value(unsigned cp)
{
    size_t lo = 0, hi = sizeof digit_zeros / sizeof digit_zeros[0];
    while (lo < hi) { /* the last zero <= cp */
        size_t mid = (lo + hi) / 2;
        if (digit_zeros[mid] <= cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return -1;
    unsigned zero = digit_zeros[lo - 1];
    return cp - zero < 10 ? (int)(cp - zero) : -1;
}

static bool has_unicode_digit(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t cp;
        /* ASCII runs, eight bytes at a time: most texts are nothing else. */
        while (i + 8 <= n) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            if (w & 0x8080808080808080ull)
                break;
            i += 8;
        }
        if (i >= n)
            break;
        if (s[i] < 0x80)
            continue;
        size_t len = rp_utf8_decode((const char *)s + i, n - i, &cp, RP_UTF8_REJECT);
        if (len == 0)
            continue;
        if (rp_unicode_digit_value(cp) >= 0)
            return true;
        i += len - 1;
    }
    return false;
}

bool rp_fold_unicode_digits(rp_arena *a, const char *text, size_t n, rp_digit_fold *out)
{
    const unsigned char *s = (const unsigned char *)text;
    if (!has_unicode_digit(s, n))
        return false;
    /* Folding only shrinks: n bytes (and n + 1 origins) are enough. */
    char *t = rp_arena_alloc(a, n + 1);
    size_t *origin = rp_arena_alloc(a, (n + 1) * sizeof *origin);
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        /* a stray byte is copied as it is */
        size_t len = s[i] >= 0x80 ? rp_utf8_decode(text + i, n - i, &cp, RP_UTF8_REJECT) : 0;
        int d = len ? rp_unicode_digit_value(cp) : -1;
        if (d >= 0) {
            origin[k] = i;
            t[k++] = (char)('0' + d);
            i += len;
            continue;
        }
        size_t step = len ? len : 1; /* copy a whole character, never split one */
        for (size_t j = 0; j < step; j++) {
            origin[k] = i + j;
            t[k++] = text[i + j];
        }
        i += step;
    }
    origin[k] = n;
    t[k] = '\0';
    out->text = t;
    out->len = k;
    out->origin = origin;
    return true;
}
