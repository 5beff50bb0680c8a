/* validate.c — per-type validators for content-scanning candidates (see
 * validate.h). */
#include "scan/validate.h"

#include <math.h>
#include <string.h>

#include "core/json.h"
#include "core/utf8.h"
#include "scan/ascii.h"

static int num(const char *s, size_t n) /* n <= 9 ASCII digits */
{
    int v = 0;
    for (size_t i = 0; i < n; i++)
        v = v * 10 + (s[i] - '0');
    return v;
}
static bool all_digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!is_digit(s[i]))
            return false;
    return n > 0;
}
/* Case-insensitive search for a lower-case needle. */
static bool contains_ci(const char *s, size_t n, const char *needle)
{
    size_t m = strlen(needle);
    for (size_t i = 0; i + m <= n; i++) {
        size_t j = 0;
        while (j < m && lower(s[i + j]) == needle[j])
            j++;
        if (j == m)
            return true;
    }
    return false;
}

/* ---- ssn ---- */

bool rp_scan_ssn(const char *s, size_t n, bool allow_bare)
{
    char d[9];
    if (n == 11) {
        char sep = s[3];
        if ((sep != '-' && sep != ' ') || s[6] != sep)
            return false;
        memcpy(d, s, 3);
        memcpy(d + 3, s + 4, 2);
        memcpy(d + 5, s + 7, 4);
    } else if (n == 9 && allow_bare) {
        memcpy(d, s, 9);
    } else {
        return false;
    }
    if (!all_digits(d, 9))
        return false;
    int area = num(d, 3), group = num(d + 3, 2), serial = num(d + 5, 4);
    if (area == 0 || area == 666 || area >= 900 || group == 0 || serial == 0)
        return false;
    static const char *const samples[] = {"078051120", "219099999"};
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
        if (memcmp(d, samples[i], 9) == 0)
            return false;
    return true;
}

/* ---- credit_card ---- */

bool rp_scan_luhn(const char *digits, size_t n)
{
    if (n == 0)
        return false;
    int sum = 0;
    for (size_t i = 0; i < n; i++) {
        char c = digits[n - 1 - i];
        if (!is_digit(c))
            return false;
        int v = c - '0';
        if (i & 1) {
            v *= 2;
            if (v > 9)
                v -= 9;
        }
        sum += v;
    }
    return sum % 10 == 0;
}

static bool in_len(size_t n, size_t lo, size_t hi)
{
    return n >= lo && n <= hi;
}

rp_card_issuer rp_scan_card_issuer(const char *d, size_t n)
{
    if (n < 12 || n > 19 || !all_digits(d, n))
        return RP_CARD_NONE;
    int p1 = num(d, 1), p2 = num(d, 2), p3 = num(d, 3), p4 = num(d, 4), p6 = num(d, 6);
    /* Most specific prefixes first: Discover's 622126-622925 lies inside
     * UnionPay's 62 and Discover's 6011/644-649/65 inside Maestro's 56-69. */
    if ((p2 == 34 || p2 == 37) && n == 15)
        return RP_CARD_AMEX;
    if (p1 == 4 && (n == 13 || n == 16 || n == 19))
        return RP_CARD_VISA;
    if (((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) && n == 16)
        return RP_CARD_MASTERCARD;
    if ((p4 == 6011 || (p3 >= 644 && p3 <= 649) || p2 == 65 || (p6 >= 622126 && p6 <= 622925)) &&
        in_len(n, 16, 19))
        return RP_CARD_DISCOVER;
    if (p4 >= 3528 && p4 <= 3589 && in_len(n, 16, 19))
        return RP_CARD_JCB;
    if (((p3 >= 300 && p3 <= 305) || p2 == 36 || p2 == 38 || p2 == 39) && in_len(n, 14, 19))
        return RP_CARD_DINERS;
    if (p2 == 62 && in_len(n, 16, 19))
        return RP_CARD_UNIONPAY;
    if ((p2 == 50 || (p2 >= 56 && p2 <= 69)) && in_len(n, 12, 19))
        return RP_CARD_MAESTRO;
    return RP_CARD_NONE;
}

rp_card_issuer rp_scan_credit_card(const char *s, size_t n)
{
    char d[19];
    size_t k = 0;
    char sep = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (is_digit(c)) {
            if (k == sizeof d)
                return RP_CARD_NONE;
            d[k++] = c;
        } else if (c == ' ' || c == '-') {
            /* A separator sits between two digits and is the same kind throughout. */
            if (i == 0 || i + 1 == n || !is_digit(s[i - 1]) || !is_digit(s[i + 1]))
                return RP_CARD_NONE;
            if (sep && c != sep)
                return RP_CARD_NONE;
            sep = c;
        } else {
            return RP_CARD_NONE;
        }
    }
    if (k < 13 || !rp_scan_luhn(d, k))
        return RP_CARD_NONE;
    return rp_scan_card_issuer(d, k);
}

const char *rp_card_issuer_name(rp_card_issuer issuer)
{
    switch (issuer) {
    case RP_CARD_VISA:
        return "visa";
    case RP_CARD_MASTERCARD:
        return "mastercard";
    case RP_CARD_AMEX:
        return "amex";
    case RP_CARD_DISCOVER:
        return "discover";
    case RP_CARD_JCB:
        return "jcb";
    case RP_CARD_DINERS:
        return "diners";
    case RP_CARD_UNIONPAY:
        return "unionpay";
    case RP_CARD_MAESTRO:
        return "maestro";
    case RP_CARD_NONE:
        break;
    }
    return "none";
}

/* ---- email ---- */

static bool is_atext(char c)
{
    return is_alnum(c) || (c != 0 && strchr("!#$%&'*+/=?^_`{|}~-", c) != NULL);
}

/* Asset names such as "logo@2x.png" and "icon@3x.webp" (iOS and web image
 * densities) have the shape of an address; none of these extensions is a
 * delegated top-level domain. */
static bool is_file_extension(const char *t, size_t len)
{
    static const char *const ext[] = {
        "png",   "jpg",  "jpeg", "gif", "svg", "webp", "bmp", "ico",  "tif",  "tiff", "heic",
        "pdf",   "js",   "mjs",  "cjs", "jsx", "tsx",  "css", "scss", "less", "html", "htm",
        "json",  "yaml", "yml",  "txt", "csv", "log",  "xml", "toml", "ini",  "cfg",  "lock",
        "tmp",   "bak",  "exe",  "dll", "gz",  "tgz",  "bz2", "xz",   "wasm", "map",  "woff",
        "woff2", "ttf",  "otf",  "mp3", "wav", "ogg",  "avi", "mkv",  "webm", "jar",  "pyc",
    };
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        size_t m = strlen(ext[i]);
        if (m != len)
            continue;
        size_t j = 0;
        while (j < m && lower(t[j]) == ext[i][j])
            j++;
        if (j == m)
            return true;
    }
    return false;
}

bool rp_scan_email(const char *s, size_t n)
{
    const char *at = memchr(s, '@', n);
    if (!at)
        return false;
    size_t ln = (size_t)(at - s), dn = n - ln - 1;
    const char *dom = at + 1;
    if (ln < 1 || ln > 64 || dn < 4 || dn > 253)
        return false;
    for (size_t i = 0; i < ln; i++) {
        if (s[i] == '.') {
            if (i == 0 || i + 1 == ln || s[i + 1] == '.')
                return false;
        } else if (!is_atext(s[i])) {
            return false;
        }
    }
    size_t labels = 0, start = 0;
    for (size_t i = 0; i <= dn; i++) {
        if (i < dn && dom[i] != '.') {
            if (!is_alnum(dom[i]) && dom[i] != '-')
                return false;
            continue;
        }
        size_t len = i - start;
        if (len < 1 || len > 63 || dom[start] == '-' || dom[i - 1] == '-')
            return false;
        labels++;
        if (i == dn) { /* the TLD */
            const char *t = dom + start;
            if (len > 4 && lower(t[0]) == 'x' && lower(t[1]) == 'n' && t[2] == '-' && t[3] == '-')
                break;
            if (len < 2)
                return false;
            for (size_t j = 0; j < len; j++)
                if (!is_alpha(t[j]))
                    return false;
            if (is_file_extension(t, len))
                return false;
        }
        start = i + 1;
    }
    return labels >= 2;
}

/* ---- phone ---- */

static bool nanp_ok(const char *d) /* 10 digits: NPA NXX XXXX */
{
    if (d[0] < '2' || d[3] < '2')
        return false;
    if (d[1] == '1' && d[2] == '1') /* N11 service codes */
        return false;
    if (d[4] == '1' && d[5] == '1')
        return false;
    return true;
}

/* NANP numbers are written 3-3-4 ((415) 555-0132, 415.555.0132) or 3-7;
 * "536-22-12345" is a part number. */
static bool nanp_groups(const size_t *glen, size_t groups)
{
    if (groups == 3)
        return glen[0] == 3 && glen[1] == 3 && glen[2] == 4;
    return groups == 2 && glen[0] == 3 && glen[1] == 7;
}

bool rp_scan_phone(const char *text, size_t text_len, size_t off, size_t n)
{
    if (off > text_len || n > text_len - off || n < 7 || n > 24)
        return false;
    const char *s = text + off;
    /* Neighbours: glued to a word, number, version, date or path means part of
     * something else. */
    if (off > 0) {
        char b = text[off - 1];
        /* "tel:+1..", "Phone:415-..": a label's colon, unlike a time's
         * ("10:415-...") */
        bool label_colon = b == ':' && off >= 2 && is_alpha(text[off - 2]);
        /* "\n" of a JSON string inside a string: an escaped new line, not the
         * letter n */
        bool escape = (b == 'n' || b == 't' || b == 'r') && off >= 2 && text[off - 2] == '\\';
        if ((is_alnum(b) && !escape) || (b && !label_colon && strchr(".-/:+_@#", b)))
            return false;
    }
    if (off + n < text_len) {
        char a = text[off + n];
        bool next_digit = off + n + 1 < text_len && is_digit(text[off + n + 1]);
        if (is_alnum(a) || (a && strchr("-/:_@+", a)) || ((a == '.' || a == ',') && next_digit))
            return false;
    }
    char d[16];
    size_t k = 0, groups = 0, max_group = 0, cur = 0, seps = 0;
    size_t glen[16];
    bool plus = false, dots = false, dash = false, paren = false, open = false;
    size_t i = 0;
    if (s[0] == '+') {
        plus = true;
        i = 1;
    }
    for (; i < n; i++) {
        char c = s[i];
        if (is_digit(c)) {
            if (k == sizeof d)
                return false;
            d[k++] = c;
            cur++;
            continue;
        }
        if (cur) {
            if (groups == 16)
                return false;
            /* "+44 (0)20 ..": the bracketed trunk 0 is dialled only nationally; it is
             * not a group of the number (and not one of its digits for the length
             * checks). */
            if (plus && cur == 1 && c == ')' && d[k - 1] == '0' && s[i - 2] == '(') {
                k--;
                cur = 0;
            }
        }
        if (cur) {
            glen[groups++] = cur;
            if (cur > max_group)
                max_group = cur;
            cur = 0;
        }
        if (c == '(') {
            if (open || paren || (i + 1 < n && !is_digit(s[i + 1])))
                return false;
            open = paren = true;
        } else if (c == ')') {
            if (!open || !is_digit(s[i - 1]))
                return false;
            open = false;
        } else if (c == ' ' || c == '-' || c == '.') {
            /* one separator between groups (") " counts as one) */
            if (i == 0 || i + 1 == n || (!is_digit(s[i - 1]) && s[i - 1] != ')'))
                return false;
            if (!is_digit(s[i + 1]) && s[i + 1] != '(')
                return false;
            dots |= c == '.';
            dash |= c == '-';
            seps++;
        } else {
            return false; /* ':' (times), '/' (dates), letters, ... */
        }
    }
    if (open || !is_digit(s[n - 1]))
        return false;
    if (cur) {
        glen[groups++] = cur;
        if (cur > max_group)
            max_group = cur;
    }
    if (k == 0)
        return false;
    if (dots && dash)
        return false;
    if (dots && !paren && !plus) {
        /* dot-only spans: decimals (one dot), versions and IPv4 (every group <= 3
         * digits) */
        bool french = groups == 5 && k == 10 && d[0] == '0' && max_group == 2; /* 01.42.68.53.00 */
        if (seps < 2 || (max_group <= 3 && !french))
            return false;
    }
    if (plus) {
        if (k < 8 || k > 15 || d[0] == '0')
            return false;
        /* After the country code one short group is usual (+33 1 .., +81 3-.., +44
         * (0)20 ..); more, or a lone last digit, is a list of small numbers. */
        size_t singles = 0;
        for (size_t g = 1; g < groups; g++)
            singles += glen[g] == 1;
        if (singles > 1 || (groups > 1 && glen[groups - 1] == 1))
            return false;
        if (d[0] == '1') /* NANP */
            return k == 11 && nanp_ok(d + 1);
        return true;
    }
    if (seps == 0 && !paren)
        return false; /* a bare digit run: an id, an order number, a timestamp */
    /* National groups have two digits or more; only NANP's trunk "1" (1-800-..)
     * stands alone. "0-306-40615-2" is an ISBN, "0 1 2 3 4 5 6 7 8 9" a list. */
    for (size_t g = 0; g < groups; g++)
        if (glen[g] == 1 && !(g == 0 && d[0] == '1'))
            return false;
    /* dates and times in digit groups: 4-2-2 or 2-2-4 with small values */
    if (groups == 3 && k == 8)
        return false;
    if (k == 10 && d[0] != '0') {
        if (nanp_ok(d) && nanp_groups(glen, groups))
            return true;
        if (d[0] >= '6' && groups == 2 && glen[0] == 5) /* IN mobile 98765 43210 */
            return true;
        if (paren && glen[0] == 2 && d[0] != '0' && d[1] != '0') /* BR (11) 2345-6789 */
            return true;
        return false;
    }
    if (k == 11 && paren && glen[0] == 2 && d[0] != '0' && d[2] == '9') /* BR mobile */
        return true;
    if (k == 11 && d[0] == '1') {
        if (glen[0] == 1 && nanp_ok(d + 1) && nanp_groups(glen + 1, groups - 1)) /* 1-800-.. */
            return true;
        if (d[1] >= '3' && glen[0] == 3) /* CN mobile 138 1234 5678 */
            return true;
        return false;
    }
    if (d[0] == '0' && d[1] != '0' && k >= 10 && k <= 12) /* trunk-prefixed national numbers */
        return true;
    return false;
}

/* ---- iban ---- */

static const struct {
    char cc[3];
    unsigned char len;
} iban_lengths[] = {
    {"AD", 24}, {"AE", 23}, {"AL", 28}, {"AT", 20}, {"AZ", 28}, {"BA", 20}, {"BE", 16}, {"BG", 22},
    {"BH", 22}, {"BR", 29}, {"BY", 28}, {"CH", 21}, {"CR", 22}, {"CY", 28}, {"CZ", 24}, {"DE", 22},
    {"DK", 18}, {"DO", 28}, {"EE", 20}, {"EG", 29}, {"ES", 24}, {"FI", 18}, {"FO", 18}, {"FR", 27},
    {"GB", 22}, {"GE", 22}, {"GI", 23}, {"GL", 18}, {"GR", 27}, {"GT", 28}, {"HR", 21}, {"HU", 28},
    {"IE", 22}, {"IL", 23}, {"IQ", 23}, {"IS", 26}, {"IT", 27}, {"JO", 30}, {"KW", 30}, {"KZ", 20},
    {"LB", 28}, {"LC", 32}, {"LI", 21}, {"LT", 20}, {"LU", 20}, {"LV", 21}, {"MC", 27}, {"MD", 24},
    {"ME", 22}, {"MK", 19}, {"MR", 27}, {"MT", 31}, {"MU", 30}, {"NL", 18}, {"NO", 15}, {"PK", 24},
    {"PL", 28}, {"PS", 29}, {"PT", 25}, {"QA", 29}, {"RO", 24}, {"RS", 22}, {"SA", 24}, {"SC", 31},
    {"SE", 24}, {"SI", 19}, {"SK", 24}, {"SM", 27}, {"ST", 25}, {"SV", 28}, {"TL", 23}, {"TN", 24},
    {"TR", 26}, {"UA", 29}, {"VA", 22}, {"VG", 24}, {"XK", 20},
};

int rp_scan_iban_length(const char *cc)
{
    char u0 = cc[0] >= 'a' && cc[0] <= 'z' ? (char)(cc[0] - 32) : cc[0];
    char u1 = cc[1] >= 'a' && cc[1] <= 'z' ? (char)(cc[1] - 32) : cc[1];
    for (size_t i = 0; i < sizeof iban_lengths / sizeof iban_lengths[0]; i++)
        if (iban_lengths[i].cc[0] == u0 && iban_lengths[i].cc[1] == u1)
            return iban_lengths[i].len;
    return 0;
}

bool rp_scan_iban(const char *s, size_t n)
{
    char c[34];
    size_t k = 0;
    bool spaced = n > 4 && s[4] == ' ';
    for (size_t i = 0; i < n; i++) {
        if (spaced && i % 5 == 4) {
            if (s[i] != ' ' || i + 1 == n)
                return false;
            continue;
        }
        if (!is_alnum(s[i]) || k == sizeof c)
            return false;
        c[k++] = s[i] >= 'a' && s[i] <= 'z' ? (char)(s[i] - 32) : s[i];
    }
    if (k < 15 || !is_alpha(c[0]) || !is_alpha(c[1]) || !is_digit(c[2]) || !is_digit(c[3]))
        return false;
    if ((size_t)rp_scan_iban_length(c) != k)
        return false;
    int check = num(c + 2, 2);
    if (check < 2 || check > 98)
        return false;
    /* mod 97 of BBAN + country + check digits, letters as 10..35 */
    unsigned rem = 0;
    for (size_t j = 0; j < k; j++) {
        char ch = c[(j + 4) % k];
        if (is_digit(ch))
            rem = (rem * 10 + (unsigned)(ch - '0')) % 97;
        else
            rem = (rem * 100 + (unsigned)(ch - 'A' + 10)) % 97;
    }
    return rem == 1;
}

/* ---- ip_address ---- */

bool rp_scan_ipv4(const char *s, size_t n, uint8_t out[4])
{
    size_t i = 0;
    for (int part = 0; part < 4; part++) {
        if (part > 0) {
            if (i >= n || s[i] != '.')
                return false;
            i++;
        }
        size_t st = i;
        while (i < n && is_digit(s[i]) && i - st < 4)
            i++;
        size_t len = i - st;
        if (len == 0 || len > 3 || (len > 1 && s[st] == '0'))
            return false;
        int v = num(s + st, len);
        if (v > 255)
            return false;
        out[part] = (uint8_t)v;
    }
    return i == n;
}

bool rp_scan_ipv6(const char *s, size_t n, uint8_t out[16])
{
    uint8_t b[16];
    int words = 0, gap = -1;
    size_t i = 0;
    if (n < 2)
        return false;
    if (s[0] == ':') {
        if (s[1] != ':')
            return false;
        gap = 0;
        i = 2;
    }
    while (i < n) {
        if (words == 8)
            return false;
        size_t st = i;
        int v = 0;
        while (i < n && rp_hex_digit((unsigned char)s[i]) >= 0 && i - st < 4)
            v = v * 16 + rp_hex_digit((unsigned char)s[i++]);
        if (i < n && s[i] == '.') { /* embedded IPv4 at the end */
            if (words > 6)
                return false;
            if (!rp_scan_ipv4(s + st, n - st, b + words * 2))
                return false;
            words += 2;
            i = n;
            break;
        }
        if (i == st)
            return false;
        b[words * 2] = (uint8_t)(v >> 8);
        b[words * 2 + 1] = (uint8_t)v;
        words++;
        if (i == n)
            break;
        if (s[i] != ':')
            return false;
        i++;
        if (i < n && s[i] == ':') {
            if (gap >= 0)
                return false;
            gap = words;
            i++;
            if (i == n)
                break;
        } else if (i == n) {
            return false; /* trailing single ':' */
        }
    }
    if (gap < 0) {
        if (words != 8)
            return false;
        memcpy(out, b, 16);
        return true;
    }
    if (words > 7)
        return false;
    memset(out, 0, 16);
    memcpy(out, b, (size_t)gap * 2);
    size_t tail = (size_t)(words - gap) * 2;
    memcpy(out + 16 - tail, b + gap * 2, tail);
    return true;
}

static rp_ip_class classify4(const uint8_t a[4])
{
    if (a[0] == 0)
        return RP_IP_UNSPECIFIED;
    if (a[0] == 127)
        return RP_IP_LOOPBACK;
    if (a[0] == 10 || (a[0] == 172 && (a[1] & 0xF0) == 16) || (a[0] == 192 && a[1] == 168))
        return RP_IP_PRIVATE;
    if (a[0] == 169 && a[1] == 254)
        return RP_IP_LINK_LOCAL;
    if ((a[0] == 192 && a[1] == 0 && a[2] == 2) || (a[0] == 198 && a[1] == 51 && a[2] == 100) ||
        (a[0] == 203 && a[1] == 0 && a[2] == 113))
        return RP_IP_DOCUMENTATION;
    return RP_IP_PUBLIC;
}

rp_ip_class rp_scan_ip_address(const char *s, size_t n)
{
    uint8_t a[16];
    if (n > 0 && memchr(s, ':', n) == NULL)
        return rp_scan_ipv4(s, n, a) ? classify4(a) : RP_IP_INVALID;
    if (!rp_scan_ipv6(s, n, a))
        return RP_IP_INVALID;
    static const uint8_t zero[16];
    if (memcmp(a, zero, 10) == 0 && a[10] == 0xFF && a[11] == 0xFF)
        return classify4(a + 12);
    if (memcmp(a, zero, 15) == 0)
        return a[15] == 1 ? RP_IP_LOOPBACK : a[15] == 0 ? RP_IP_UNSPECIFIED : RP_IP_PUBLIC;
    if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0d && a[3] == 0xb8)
        return RP_IP_DOCUMENTATION;
    if ((a[0] & 0xFE) == 0xFC)
        return RP_IP_PRIVATE;
    if (a[0] == 0xFE && (a[1] & 0xC0) == 0x80) /* fe80::/10 */
        return RP_IP_LINK_LOCAL;
    return RP_IP_PUBLIC;
}

const char *rp_ip_class_name(rp_ip_class c)
{
    static const char *const names[] = {"invalid",  "public",     "documentation", "private",
                                        "loopback", "link_local", "unspecified"};
    return (unsigned)c < sizeof names / sizeof names[0] ? names[c] : "invalid";
}

/* ---- passport_us ---- */

bool rp_scan_passport_us(const char *s, size_t n)
{
    if (n != 9)
        return false;
    size_t i = is_alpha(s[0]) ? 1 : 0;
    if (!all_digits(s + i, n - i))
        return false;
    for (size_t j = i + 1; j < n; j++)
        if (s[j] != s[i])
            return true;
    return false;
}

/* ---- date_of_birth ---- */

static bool calendar_date(int y, int m, int d)
{
    static const unsigned char days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (y < 1900 || y > 2030 || m < 1 || m > 12 || d < 1)
        return false;
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return d <= days[m - 1] + (m == 2 && leap);
}

/* min..max digits at s[*i], not followed by another digit; the value, or -1. */
static int read_number(const char *s, size_t n, size_t *i, size_t min, size_t max)
{
    size_t st = *i;
    while (*i < n && is_digit(s[*i]) && *i - st < max)
        (*i)++;
    if (*i - st < min || (*i < n && is_digit(s[*i])))
        return -1;
    return num(s + st, *i - st);
}

/* An English month name at s[*i], full or its first three letters ("Sept" too),
 * any case, with an optional abbreviation dot; 1..12, or -1. */
static int read_month(const char *s, size_t n, size_t *i)
{
    static const char *const names[12] = {"january",   "february", "march",    "april",
                                          "may",       "june",     "july",     "august",
                                          "september", "october",  "november", "december"};
    static const unsigned char lengths[12] = {7, 8, 5, 5, 3, 4, 4, 6, 9, 7, 8, 8};
    size_t st = *i;
    while (*i < n && is_alpha(s[*i]) && *i - st < 9)
        (*i)++;
    size_t len = *i - st;
    if (*i < n && is_alpha(s[*i]))
        return -1;
    for (int m = 0; m < 12; m++) {
        size_t full = lengths[m];
        if (len != full && len != 3 && !(m == 8 && len == 4))
            continue;
        if (len > full)
            continue;
        size_t j = 0;
        while (j < len && lower(s[st + j]) == names[m][j])
            j++;
        if (j == len) {
            if (len < full && *i < n && s[*i] == '.')
                (*i)++;
            return m + 1;
        }
    }
    return -1;
}

/* "st", "nd", "rd" or "th" after a day number. */
static void skip_ordinal(const char *s, size_t n, size_t *i)
{
    if (*i + 2 > n)
        return;
    char a = lower(s[*i]), b = lower(s[*i + 1]);
    if ((a == 's' && b == 't') || (a == 'n' && b == 'd') || (a == 'r' && b == 'd') ||
        (a == 't' && b == 'h'))
        *i += 2;
}

static bool numeric_date(const char *s, size_t n)
{
    size_t i = 0;
    int a = read_number(s, n, &i, 1, 4);
    size_t first = i;
    if (a < 0 || i >= n || !strchr("-/.", s[i]) || s[i] == 0)
        return false;
    char sep = s[i++];
    int b = read_number(s, n, &i, 1, 2);
    if (b < 0 || i >= n || s[i] != sep)
        return false;
    i++;
    if (first == 4) { /* YYYY-MM-DD */
        int c = read_number(s, n, &i, 1, 2);
        return c >= 0 && i == n && calendar_date(a, b, c);
    }
    if (first > 2)
        return false;
    int y = read_number(s, n, &i, 4, 4);
    if (y < 0 || i != n)
        return false;
    return calendar_date(y, a, b) || calendar_date(y, b, a); /* MM/DD or DD/MM */
}

static bool named_month_date(const char *s, size_t n)
{
    size_t i = 0;
    int d, m;
    if (is_digit(s[0])) { /* 12 March 1985, 12th Mar 1985, 12-Mar-1985 */
        d = read_number(s, n, &i, 1, 2);
        skip_ordinal(s, n, &i);
        if (d < 0 || i >= n || (s[i] != ' ' && s[i] != '-'))
            return false;
        char sep = s[i++];
        m = read_month(s, n, &i);
        if (m < 0 || i >= n || (s[i] != sep && s[i] != ' ' && s[i] != ','))
            return false;
        if (s[i] == ',')
            i++;
        if (i < n && (s[i] == ' ' || s[i] == '-'))
            i++;
    } else { /* March 12, 1985, Mar. 12 1985, March 12th 1985 */
        m = read_month(s, n, &i);
        if (m < 0 || i >= n || s[i] != ' ')
            return false;
        i++;
        d = read_number(s, n, &i, 1, 2);
        skip_ordinal(s, n, &i);
        if (d < 0 || i >= n)
            return false;
        if (s[i] == ',')
            i++;
        if (i >= n || s[i] != ' ')
            return false;
        i++;
    }
    int y = read_number(s, n, &i, 4, 4);
    return y >= 0 && i == n && calendar_date(y, m, d);
}

bool rp_scan_date_of_birth(const char *s, size_t n)
{
    if (n < 8 || n > 32)
        return false;
    if (is_digit(s[0]) && numeric_date(s, n))
        return true;
    return named_month_date(s, n);
}

/* ---- jwt ---- */

static int b64url(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (is_digit(c))
        return c - '0' + 52;
    return c == '-' ? 62 : c == '_' ? 63 : -1;
}

size_t rp_scan_base64url_decode(const char *s, size_t n, unsigned char *out)
{
    if (n % 4 == 1)
        return (size_t)-1;
    size_t k = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int v = b64url(s[i]);
        if (v < 0)
            return (size_t)-1;
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[k++] = (unsigned char)(acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
    return k;
}

static const rp_json *jwt_part(rp_arena *a, const char *s, size_t n)
{
    if (n < 2)
        return NULL;
    unsigned char *buf = rp_arena_alloc(a, 3 * n / 4 + 3);
    size_t k = rp_scan_base64url_decode(s, n, buf);
    if (k == (size_t)-1)
        return NULL;
    rp_json_error err;
    const rp_json *v = rp_json_parse(a, (const char *)buf, k, &err);
    return rp_json_is_object(v) ? v : NULL;
}

bool rp_scan_jwt(rp_arena *a, const char *s, size_t n)
{
    const char *d1 = memchr(s, '.', n);
    if (!d1)
        return false;
    const char *d2 = memchr(d1 + 1, '.', n - (size_t)(d1 + 1 - s));
    if (!d2)
        return false;
    const char *sig = d2 + 1;
    size_t sn = n - (size_t)(sig - s);
    for (size_t i = 0; i < sn; i++)
        if (b64url(sig[i]) < 0) /* also rejects a fourth part */
            return false;
    if (sn % 4 == 1)
        return false;
    const rp_json *hdr = jwt_part(a, s, (size_t)(d1 - s));
    if (!hdr)
        return false;
    const char *alg = rp_json_get_str(hdr, "alg");
    if (!alg || (sn == 0 && strcmp(alg, "none") != 0))
        return false;
    return jwt_part(a, d1 + 1, (size_t)(d2 - d1 - 1)) != NULL;
}

/* ---- entropy and generic secrets ---- */

double rp_scan_entropy(const char *s, size_t n)
{
    if (n == 0)
        return 0.0;
    size_t count[256] = {0};
    for (size_t i = 0; i < n; i++)
        count[(unsigned char)s[i]]++;
    double h = 0.0;
    for (int c = 0; c < 256; c++) {
        if (!count[c])
            continue;
        double p = (double)count[c] / (double)n;
        h -= p * log2(p);
    }
    return h;
}

/* Measurements (tests/unit/test_scan_validate.c): changeme 2.75,
 * password123 3.28, xxxxxxxx 0, example 2.52 (7 chars); random base62 strings
 * of 8 chars ~2.8-3.0, of 16 ~3.6-4.0, of 32 ~4.3-4.8, random hex 32 ~3.7-3.9.
 * Entropy alone cannot tell a short human password from a short random one (an
 * 8-char string has at most 3 bits per char), so the threshold is 3.0 bits per
 * char, scaled to 0.85 * log2(n) for n < 12, and the placeholder shapes, the
 * word+digits shape and the two-class rule remove what entropy lets through
 * (password123). */
bool rp_scan_secret_value(const char *s, size_t n)
{
    while (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0]) {
        s++;
        n -= 2;
    }
    if (n < 8)
        return false;
    if (s[0] == '$' || s[0] == '<' || s[0] == '%' || (s[0] == '{' && n > 1 && s[1] == '{'))
        return false; /* ${API_KEY}, $API_KEY, <your-key>, %s, {{ secret }} */
    static const char *const words[] = {"example", "changeme",    "password", "passwd", "your",
                                        "dummy",   "placeholder", "redacted", "sample", "xxxx",
                                        "****",    "secret",      "token",    "test",   "todo",
                                        "replace", "insert",      "fixme"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (contains_ci(s, n, words[i]))
            return false;
    /* word + digits: Summer2024, admin123 */
    size_t i = 0;
    if (is_alpha(s[0]))
        i = 1;
    while (i < n && s[i] >= 'a' && s[i] <= 'z')
        i++;
    while (i < n && is_digit(s[i]))
        i++;
    if (i == n)
        return false;
    int classes = 0, lo = 0, up = 0, dg = 0, ot = 0;
    for (size_t j = 0; j < n; j++) {
        char c = s[j];
        if (c == ' ' || (unsigned char)c < 0x20)
            return false; /* prose, not a value */
        if (c >= 'a' && c <= 'z')
            lo = 1;
        else if (c >= 'A' && c <= 'Z')
            up = 1;
        else if (is_digit(c))
            dg = 1;
        else
            ot = 1;
    }
    classes = lo + up + dg + ot;
    if (classes < 2)
        return false;
    double threshold = RP_SCAN_SECRET_ENTROPY;
    if (n < 12)
        threshold = 0.85 * log2((double)n);
    return rp_scan_entropy(s, n) >= threshold;
}

/* ---- github_token ---- */

uint32_t rp_scan_crc32(const char *s, size_t n)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        crc ^= (unsigned char)s[i];
        for (int b = 0; b < 8; b++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static const char base62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

void rp_scan_base62_6(uint32_t v, char out[6])
{
    /* 62^6 > 2^32, so six digits always suffice */
    for (int i = 5; i >= 0; i--) {
        out[i] = base62[v % 62];
        v /= 62;
    }
}

bool rp_scan_github_token(const char *s, size_t n)
{
    if (n == 93 && memcmp(s, "github_pat_", 11) == 0) {
        for (size_t i = 11; i < 33; i++)
            if (!is_alnum(s[i]))
                return false;
        if (s[33] != '_')
            return false;
        for (size_t i = 34; i < 93; i++)
            if (!is_alnum(s[i]) && s[i] != '_')
                return false;
        return true;
    }
    if (n != 40 || s[0] != 'g' || s[1] != 'h' || s[3] != '_' || !strchr("pousr", s[2]) || s[2] == 0)
        return false;
    for (size_t i = 4; i < 40; i++)
        if (!is_alnum(s[i]))
            return false;
    char want[6];
    rp_scan_base62_6(rp_scan_crc32(s + 4, 30), want);
    return memcmp(want, s + 34, 6) == 0;
}

/* ---- mask ---- */

static const char *const secret_prefixes[] = {
    "github_pat_", "sk_live_", "rk_live_", "sk_test_", "rk_test_", "pk_live_", "sk-ant-",
    "sk-proj-",    "ghp_",     "gho_",     "ghu_",     "ghs_",     "ghr_",     "glpat-",
    "xoxb-",       "xoxp-",    "xoxa-",    "xoxr-",    "xoxs-",    "npm_",     "AKIA",
    "ASIA",        "AIza",     "sk-",      "eyJ",
};

static size_t put(char *out, size_t k, const char *s, size_t n)
{
    if (n > RP_SCAN_MASK_MAX - k)
        n = RP_SCAN_MASK_MAX - k;
    memcpy(out + k, s, n);
    return k + n;
}

/* The last m digits of s (fewer if it has fewer), into tail. */
static size_t last_digits(const char *s, size_t n, size_t m, char *tail)
{
    size_t k = 0;
    for (size_t i = n; i > 0 && k < m; i--)
        if (is_digit(s[i - 1]))
            tail[m - 1 - k++] = s[i - 1];
    memmove(tail, tail + (m - k), k);
    return k;
}

size_t rp_scan_mask(rp_mask_kind kind, const char *s, size_t n, char *out)
{
    size_t k = 0;
    char tail[4];
    switch (kind) {
    case RP_MASK_SSN:
        k = put(out, 0, "***-**-", 7);
        k = put(out, k, tail, last_digits(s, n, 4, tail));
        break;
    case RP_MASK_CARD:
        k = put(out, 0, "****-****-****-", 15);
        k = put(out, k, tail, last_digits(s, n, 4, tail));
        break;
    case RP_MASK_EMAIL: {
        const char *at = memchr(s, '@', n);
        if (at && at > s) {
            k = put(out, 0, s, 1);
            k = put(out, k, "***", 3);
            k = put(out, k, at, n - (size_t)(at - s));
            break;
        }
        k = put(out, 0, "***", 3);
        break;
    }
    case RP_MASK_GENERIC:
        k = put(out, 0, "********", 8);
        if (n >= 8)
            k = put(out, k, s + n - 2, 2);
        break;
    case RP_MASK_SECRET:
    default: {
        size_t pre = 0;
        for (size_t i = 0; i < sizeof secret_prefixes / sizeof secret_prefixes[0]; i++) {
            size_t m = strlen(secret_prefixes[i]);
            if (n >= m + 8 && memcmp(s, secret_prefixes[i], m) == 0) {
                pre = m;
                break;
            }
        }
        k = put(out, 0, s, pre);
        k = put(out, k, "********", 8);
        if (n >= 16 && n - pre >= 12)
            k = put(out, k, s + n - 4, 4);
        break;
    }
    }
    out[k] = '\0';
    return k;
}
