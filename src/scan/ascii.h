/* ascii.h — the ASCII character classes every scanner file uses (extractors and validators).
 * Locale-free on purpose: <ctype.h> depends on the locale and takes int, and a scan works on
 * bytes (non-ASCII digits are folded to ASCII before the pass, see normalize.h). */
#ifndef RAMPART_SCAN_ASCII_H
#define RAMPART_SCAN_ASCII_H

#include <stdbool.h>

#include "core/utf8.h"

static inline bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}
static inline bool is_upper(char c)
{
    return c >= 'A' && c <= 'Z';
}
static inline bool is_lower(char c)
{
    return c >= 'a' && c <= 'z';
}
static inline bool is_alpha(char c)
{
    return is_upper(c) || is_lower(c);
}
static inline bool is_alnum(char c)
{
    return is_digit(c) || is_alpha(c);
}
static inline bool is_hex(char c)
{
    return rp_hex_digit((unsigned char)c) >= 0;
}
static inline char lower(char c)
{
    return is_upper(c) ? (char)(c - 'A' + 'a') : c;
}

#endif
