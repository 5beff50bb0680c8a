/* validate.h — per-type validators for content-scanning candidates.
 *
 * The scanner's multi-pattern prefilter hands over candidate byte spans that merely look like a
 * finding; each function here decides whether the span really is one. They are pure: no I/O, no
 * global state, no allocation except rp_scan_jwt (decoded parts go into the caller's arena).
 * Spans are (const char *s, size_t n) and need not be NUL-terminated. Precision lives here: a
 * prefilter can be loose and fast because a validator rejects what only looks right. */
#ifndef RAMPART_SCAN_VALIDATE_H
#define RAMPART_SCAN_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"

/* ---- ssn ---- */

/* US Social Security Number: AAA-GG-SSSS, AAA GG SSSS, or (when allow_bare, i.e. the caller saw
 * a label such as "SSN:") bare AAAGGSSSS. Areas 000, 666 and 900-999, group 00 and serial 0000
 * were never issued; 078-05-1120 (the Woolworth wallet card) and 219-09-9999 (an advertisement)
 * are famous voided sample numbers, so neither is a finding. 123-45-6789 is one too, but it is
 * what people type when they mean "my SSN" (the reference's own tests use it), so it counts. */
bool rp_scan_ssn(const char *s, size_t n, bool allow_bare);

/* ---- credit_card ---- */

typedef enum rp_card_issuer {
    RP_CARD_NONE = 0, /* not a card number */
    RP_CARD_VISA,
    RP_CARD_MASTERCARD,
    RP_CARD_AMEX,
    RP_CARD_DISCOVER,
    RP_CARD_JCB,
    RP_CARD_DINERS,
    RP_CARD_UNIONPAY,
    RP_CARD_MAESTRO,
} rp_card_issuer;

/* Luhn (mod 10) over n ASCII digits; false if any byte is not a digit or n == 0. */
bool rp_scan_luhn(const char *digits, size_t n);
/* The issuer whose prefix and length table admits these bare digits (no Luhn check). */
rp_card_issuer rp_scan_card_issuer(const char *digits, size_t n);
/* 13-19 digits, optionally grouped by single spaces or single dashes (one kind throughout),
 * Luhn-valid, with an issuer prefix and a length that issuer uses. RP_CARD_NONE otherwise. */
rp_card_issuer rp_scan_credit_card(const char *s, size_t n);
const char *rp_card_issuer_name(rp_card_issuer issuer); /* "visa", ..., "none" */

/* ---- email ---- */

/* dot-atom local part (1-64 bytes, RFC 5322 atext, no leading/trailing/double dot) '@' a domain
 * of at least two LDH labels (1-63 bytes, no leading/trailing '-', 253 in all) whose last label
 * is a real TLD shape: 2-63 letters, or an IDN "xn--" label. A numeric TLD is what makes
 * "v1.2@3.4" or "user@1.2.3.4" not an address; "a@example" without a dot is a local name. */
bool rp_scan_email(const char *s, size_t n);

/* ---- phone ---- */

/* Is text[off, off+n) a phone number? The whole text is passed so the neighbours can be seen:
 * a span glued to letters, digits, '.', '/', ':' or '-' is part of something else (a version,
 * a date, an id). Accepted:
 *   - E.164: '+', a country code not starting with 0, 8-15 digits in all (+1 numbers must also
 *     be valid NANP numbers), optionally grouped by spaces, dashes, dots or parentheses;
 *   - national numbers, which must carry phone formatting (a separator or parentheses: a bare
 *     digit run is an id or a timestamp, not a phone): NANP (3-3-4, area and exchange codes
 *     2-9 and not N11, optional leading 1), trunk-prefixed 0 numbers of 10-12 digits (UK, DE,
 *     FR, JP, AU, IN, CN landlines), Indian 10-digit mobiles (6-9), Chinese 11-digit mobiles
 *     (1[3-9]) and Brazilian (AA) NNNN(N)-NNNN.
 * Rejected: ':' or '/' anywhere (times, dates), dot-only spans that are IPv4 addresses,
 * versions or decimals (one dot), and anything with too few or too many digits (2026-12-01 has
 * eight). */
bool rp_scan_phone(const char *text, size_t text_len, size_t off, size_t n);

/* ---- iban ---- */

/* Country code, two check digits (02-98), a BBAN of the country's length (the SEPA countries,
 * GB and the other IBAN-registry members that rampart knows), mod-97 == 1. Letters may be upper
 * or lower case; the span is either unbroken or grouped by single spaces after every 4 chars. */
bool rp_scan_iban(const char *s, size_t n);
/* The full IBAN length for a country code ("DE" -> 22), 0 when unknown. */
int rp_scan_iban_length(const char *cc);

/* ---- ip_address ---- */

typedef enum rp_ip_class {
    RP_IP_INVALID = 0,
    RP_IP_PUBLIC,
    RP_IP_DOCUMENTATION, /* 192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32 */
    RP_IP_PRIVATE,       /* 10/8, 172.16/12, 192.168/16, fc00::/7 */
    RP_IP_LOOPBACK,      /* 127/8, ::1 */
    RP_IP_LINK_LOCAL,    /* 169.254/16, fe80::/10 */
    RP_IP_UNSPECIFIED,   /* 0.0.0.0 (0/8), :: */
} rp_ip_class;

/* Parses a dotted IPv4 address (octets <= 255, no leading zeros except "0" itself) into out[4]. */
bool rp_scan_ipv4(const char *s, size_t n, uint8_t out[4]);
/* Parses an IPv6 address (at most one "::", optional trailing embedded IPv4) into out[16]. */
bool rp_scan_ipv6(const char *s, size_t n, uint8_t out[16]);
/* Validates and classifies an IPv4 or IPv6 address so the caller can drop the non-public
 * classes unless asked. IPv4-mapped IPv6 (::ffff:a.b.c.d) is classified by its IPv4 part. */
rp_ip_class rp_scan_ip_address(const char *s, size_t n);
const char *rp_ip_class_name(rp_ip_class c);

/* ---- passport_us ---- */

/* A US passport book number: 9 digits, or one letter and 8 digits (the next-generation book
 * issued since 2021). A digit part that is one digit repeated (000000000, 111111111, A00000000)
 * is a placeholder, not a number. The shape alone is any 9-digit id: the caller must have seen
 * a "passport" label nearby. */
bool rp_scan_passport_us(const char *s, size_t n);

/* ---- date_of_birth ---- */

/* A real calendar date (leap years included) with a year in 1900..2030, written as
 *   YYYY-MM-DD (or with '/' or '.'),
 *   MM/DD/YYYY or DD/MM/YYYY (or with '.' or '-'; day and month of 1-2 digits; either reading
 *   may be the valid one),
 *   "12 March 1985", "12th Mar 1985", "12-Mar-1985", "March 12, 1985", "Mar. 12 1985" (English
 *   month names, full or 3-letter, any case).
 * Any date is one of these shapes: the caller must have seen a label such as "DOB" nearby. */
bool rp_scan_date_of_birth(const char *s, size_t n);

/* ---- jwt ---- */

/* Decodes unpadded base64url into out (capacity >= 3 * n / 4 + 3). Returns the decoded length,
 * or (size_t)-1 on a byte outside the alphabet or an impossible length (n % 4 == 1). */
size_t rp_scan_base64url_decode(const char *s, size_t n, unsigned char *out);
/* header.payload.signature, each base64url (signature may be empty for alg "none"), the header
 * and payload decode to JSON objects and the header has a string "alg". Scratch memory comes
 * from a. */
bool rp_scan_jwt(rp_arena *a, const char *s, size_t n);

/* ---- entropy and generic secrets ---- */

/* Shannon entropy of the byte distribution, in bits per byte (0 for n == 0). */
double rp_scan_entropy(const char *s, size_t n);
/* Does the value of a password=/api_key=/secret: assignment look like a real secret rather than
 * a placeholder? Surrounding quotes are ignored. Needs length >= 8, no placeholder shape
 * (${VAR}, $VAR, <your-key>, {{x}}, %s, ****, xxxxxxxx, words like example/changeme/password
 * /your/dummy), not a single word with a number appended (password123), at least two
 * character classes, and entropy >= RP_SCAN_SECRET_ENTROPY (scaled down for lengths 8-11,
 * whose maximum possible entropy is log2(n)); see validate.c for the measurements. */
bool rp_scan_secret_value(const char *s, size_t n);
#define RP_SCAN_SECRET_ENTROPY 3.0
/* Is s[0, n) shaped like an identifier or words rather than random characters: SCREAMING_SNAKE,
 * snake_case, kebab-case, camelCase, PascalCase with acronyms (RSAPrivateKey), a leading "--";
 * letters, '_' and '-' only, and every capital followed by lower-case letters starts a hump of
 * 2+ of them (random letters such as KLpRwudnhccd have humps of 1). In validate_secret.c. */
bool rp_scan_identifier_shaped(const char *s, size_t n);

/* ---- github_token ---- */

/* CRC-32 (IEEE 802.3, as zlib's crc32) of s[0, n). */
uint32_t rp_scan_crc32(const char *s, size_t n);
/* Base62 of v (0-9A-Za-z), left-padded with '0' to 6 chars, into out[6] (no NUL). */
void rp_scan_base62_6(uint32_t v, char out[6]);
/* ghp_/gho_/ghu_/ghs_/ghr_ + 30 base62 + 6-char base62 CRC32 of the 30-char body (checked), or
 * github_pat_ + 22 [A-Za-z0-9] + '_' + 59 [A-Za-z0-9_] (shape only: the checksum of
 * fine-grained tokens is not documented). */
bool rp_scan_github_token(const char *s, size_t n);

/* ---- mask ---- */

typedef enum rp_mask_kind {
    RP_MASK_SECRET = 0, /* keep a known prefix (ghp_, sk_live_, AKIA, ...) and the last 4 */
    RP_MASK_SSN,        /* ***-**-6789 */
    RP_MASK_CARD,       /* ****-****-****-1234 */
    RP_MASK_EMAIL,      /* j***@example.com */
    RP_MASK_GENERIC,    /* stars and the last 2 (phones, IBANs, IPs, ...) */
} rp_mask_kind;

#define RP_SCAN_MASK_MAX 48 /* longest preview, without the NUL */

/* Writes a NUL-terminated preview of s[0, n) into out (RP_SCAN_MASK_MAX + 1 bytes) and returns
 * its length. The preview never reveals the secret: the star count is fixed (it does not leak
 * the length), at most 4 trailing characters are kept, and only when the span is long enough
 * that they are a small part of it (>= 16 for secrets; for PII the last digits as usual). */
size_t rp_scan_mask(rp_mask_kind kind, const char *s, size_t n, char *out);

#endif
