/* utf8.h — the one UTF-8 reader, writer and validator, and the one hex-digit reader.
 *
 * Every module that walks text by characters calls these (in the manner of SQLite's utf.c), so
 * that the treatment of invalid input is written, and can be changed, in one place.
 *
 * The encoding (RFC 3629):
 *
 *     code points         bytes
 *     U+0000..U+007F      0xxxxxxx
 *     U+0080..U+07FF      110xxxxx 10xxxxxx
 *     U+0800..U+FFFF      1110xxxx 10xxxxxx 10xxxxxx
 *     U+10000..U+10FFFF   11110xxx 10xxxxxx 10xxxxxx 10xxxxxx
 *
 * Notes on invalid UTF-8. A sequence is valid only as the table above and RFC 3629 say: no
 * overlong form (C0, C1, E0 80..9F, F0 80..8F), no UTF-16 surrogate (ED A0..BF, i.e.
 * U+D800..U+DFFF), nothing above U+10FFFF (F4 90.. and F5..FF), no truncated sequence and no
 * stray continuation byte. rp_utf8_decode never guesses at an invalid sequence: it rejects it
 * whole (RP_UTF8_REJECT, the JSON reader, CEL, the glob model, the YAML writer, the scanners) or
 * reads its first byte alone as the code point of the same value (RP_UTF8_AS_BYTE, Latin-1's
 * reading, for the Python texts and every walk that must always advance); the walk then goes on
 * at the next byte, so a valid character after an invalid byte is never swallowed.
 *
 * The writer writes what it is given: a scalar value as the table says, a surrogate as its
 * three bytes (callers that must produce valid text refuse surrogates first, as JSON and CEL
 * do), and code points above U+10FFFF in the original UTF-8 forms of RFC 2279 (four bytes up
 * to U+1FFFFF, five up to U+3FFFFFF, six up to U+7FFFFFFF), which is what bash writes for
 * $'\U…'.
 *
 * The walkers for text already known to be valid (rp_utf8_lead_len, rp_utf8_prev,
 * rp_utf8_count) look at lead and continuation bytes only; on invalid text they still advance
 * and stay inside the buffer. */
#ifndef RAMPART_CORE_UTF8_H
#define RAMPART_CORE_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RP_UTF8_MAX 6 /* bytes rp_utf8_encode may write (4 for any scalar value) */

typedef enum rp_utf8_invalid {
    RP_UTF8_REJECT,  /* an invalid sequence decodes to nothing: length 0 */
    RP_UTF8_AS_BYTE, /* its first byte decodes alone, as the code point of its value */
} rp_utf8_invalid;

/* Decodes the character at s[0..n) (n > 0) into *cp; returns its length in bytes (1..4), or,
 * for an invalid sequence, 0 (RP_UTF8_REJECT) or 1 with *cp = s[0] (RP_UTF8_AS_BYTE). */
size_t rp_utf8_decode_multibyte(const char *s, size_t n, uint32_t *cp, rp_utf8_invalid mode);
/* ASCII, nearly all of what policies read, is decoded inline (SQLite's READ_UTF8 habit); the
 * rest by rp_utf8_decode_multibyte. */
static inline size_t rp_utf8_decode(const char *s, size_t n, uint32_t *cp, rp_utf8_invalid mode)
{
    unsigned char c = (unsigned char)s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    return rp_utf8_decode_multibyte(s, n, cp, mode);
}
/* Writes cp (<= 0x7FFFFFFF) to out; returns the bytes written (1..6). */
size_t rp_utf8_encode(uint32_t cp, char out[RP_UTF8_MAX]);
/* Whether cp is a Unicode scalar value: at most U+10FFFF and not a surrogate (what an escape
 * such as CEL's \U or TOML's \u may name). */
static inline bool rp_utf8_is_scalar(uint32_t cp)
{
    return cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF);
}

/* The length of the longest valid prefix of s[0..n). */
size_t rp_utf8_valid_prefix(const char *s, size_t n);
/* Whether s[0..n) is valid UTF-8 throughout. */
bool rp_utf8_valid(const char *s, size_t n);

/* Whether byte c is a continuation byte (10xxxxxx). */
static inline bool rp_utf8_is_cont(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}
/* The length of the character whose lead byte is c, in valid text (1 for any other byte). */
size_t rp_utf8_lead_len(unsigned char c);
/* The start of the character that ends at s[end - 1] (end > 0), in valid text. */
size_t rp_utf8_prev(const char *s, size_t end);
/* The characters of valid text s[0..n): the bytes that are not continuation bytes. */
size_t rp_utf8_count(const char *s, size_t n);

/* Which characters are space: the languages whose trim rampart reproduces disagree. */
typedef enum rp_space_set {
    RP_SPACE_UNICODE, /* the White_Space property: Go's unicode.IsSpace (CEL), Rust's str::trim */
    RP_SPACE_JS,      /* String.prototype.trim: White_Space without U+0085, with U+FEFF */
    RP_SPACE_PYTHON,  /* str.isspace, str.split(): White_Space with U+001C..U+001F */
} rp_space_set;

/* Whether code point cp is space in the given set. */
bool rp_utf8_is_space(uint32_t cp, rp_space_set set);
/* The length of the space character that starts s[0..n), or 0 (invalid UTF-8 is not space). */
size_t rp_utf8_space_at(const char *s, size_t n, rp_space_set set);
/* The length of the space character that ends s[0..n), or 0. */
size_t rp_utf8_space_before(const char *s, size_t n, rp_space_set set);
/* s[*start, *start + *len) is s[0..n) without space characters at either end. */
void rp_utf8_trim(const char *s, size_t n, rp_space_set set, size_t *start, size_t *len);

/* The lowercase hex digit of v & 0xF. */
static inline char rp_hex_char(unsigned v)
{
    return "0123456789abcdef"[v & 0xF];
}
/* The value of hex digit c (0-9, a-f, A-F), or -1. */
int rp_hex_digit(int c);
/* Reads exactly `digits` hex digits at s[0..n) into *v; false when there are fewer or one is
 * not a hex digit (*v is then unchanged). digits <= 8. */
bool rp_hex_read(const char *s, size_t n, int digits, uint32_t *v);

#endif
