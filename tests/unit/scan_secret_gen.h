/* scan_secret_gen.h — format-valid fake secrets of every secret type, for the scanner's tests.
 *
 * rp_gen_secret writes one fake secret of a type into a caller buffer from a seeded PRNG, so
 * tests and the labelled corpus assemble their positives at run time and no secret-shaped
 * string is ever committed (GitHub push protection would refuse it, and a committed real-looking
 * key is a leak report waiting to happen). For the same reason every well-known prefix below is
 * built from pieces at run time: the source never holds "prefix + body" in one literal.
 *
 * What each type produces (the finding's span is the whole string unless said otherwise; see
 * rp_gen_secret_span):
 *   aws_access_key_id      AKIA/ASIA + 16 [A-Z2-7]
 *   aws_secret_access_key  40 [A-Za-z0-9/+] with upper, lower and a digit. The value alone: the
 *                          scanner needs an AWS context (a label such as aws_secret_access_key
 *                          or "AWS Secret Access Key", or an access key id nearby), which the
 *                          caller puts around it.
 *   github_token           ghp_/gho_/ghu_/ghs_/ghr_ + 30 base62 + base62 CRC32 of the 30, or
 *                          github_pat_ + 22 + '_' + 59
 *   gitlab_token           glpat- + 20 [A-Za-z0-9_-] (body starts alphanumeric; 1 in 4 ends in
 *                          '-', as real ones can)
 *   slack_token            xoxb-N-N-24 alnum, or xoxp-N-N-N-32 hex
 *   slack_webhook          https://hooks.slack.com/services/T.../B.../24 alnum
 *   stripe_key             sk_live_/rk_live_ + 24 or 99 alnum
 *   google_api_key         AIza + 35 [A-Za-z0-9_-] (1 in 4 ends in '-')
 *   openai_api_key         sk- + 20 + T3BlbkFJ + 20 alnum, or sk-proj- + 64 + T3BlbkFJ + 64
 *                          [A-Za-z0-9_-] (1 in 4 of those ends in '-')
 *   anthropic_api_key      sk-ant-api03- + 93 [A-Za-z0-9_-] + AA
 *   npm_token              npm_ + 30 base62 + base62 CRC32 of the 30
 *   private_key            a whole PEM block (RSA, EC, OPENSSH, PKCS#8 or ENCRYPTED) with a
 *                          random base64 body of 3-12 lines, '\n' line ends
 *   jwt                    base64url(header JSON with "alg").base64url(payload JSON).random sig
 *   url_password           scheme://user:password@host[:port]/path: span = the password only
 *   generic_secret         a high-entropy password value (12-32 chars with a digit, accepted
 *                          by rp_scan_secret_value): the value alone, the caller writes the
 *                          password=/api_key: assignment around it
 * Values contain no whitespace, quotes, '&', ',', ';', '<', '>' or '\\', so they can be dropped
 * into shell, JSON, YAML, .env, URL query and Python string contexts unchanged.
 *
 * Header-only (static inline); links against rampart_core for rp_scan_crc32/_base62_6 and
 * rp_scan_secret_value. */
#ifndef RAMPART_TESTS_SCAN_SECRET_GEN_H
#define RAMPART_TESTS_SCAN_SECRET_GEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "scan/scan.h"
#include "scan/validate.h"

/* Largest string rp_gen_secret produces (a 12-line PEM block), NUL included. */
#define RP_GEN_SECRET_MAX 1200

/* splitmix64: tiny, seedable, good enough to make bodies look random. */
static inline uint64_t rp_gen_next(uint64_t *seed)
{
    uint64_t z = (*seed += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline size_t rp_gen_below(uint64_t *seed, size_t n)
{
    return (size_t)(rp_gen_next(seed) % n);
}

/* Builder over the caller's buffer; `ok` drops to 0 when the buffer is too
 * small. */
typedef struct rp_gen_buf {
    char *p;
    size_t cap, n;
    int ok;
} rp_gen_buf;

static inline void rp_gen_put(rp_gen_buf *b, const char *s)
{
    size_t m = strlen(s);
    if (!b->ok || b->n + m + 1 > b->cap) {
        b->ok = 0;
        return;
    }
    memcpy(b->p + b->n, s, m);
    b->n += m;
    b->p[b->n] = '\0';
}

static inline void rp_gen_chars(rp_gen_buf *b, uint64_t *seed, const char *alphabet, size_t n)
{
    size_t m = strlen(alphabet);
    if (!b->ok || b->n + n + 1 > b->cap) {
        b->ok = 0;
        return;
    }
    for (size_t i = 0; i < n; i++)
        b->p[b->n++] = alphabet[rp_gen_below(seed, m)];
    b->p[b->n] = '\0';
}

#define RP_GEN_DIGITS   "0123456789"
#define RP_GEN_HEX      "0123456789abcdef"
#define RP_GEN_UPPER32  "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
#define RP_GEN_UPNUM    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
#define RP_GEN_ALNUM    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
#define RP_GEN_B64URL   RP_GEN_ALNUM "-_"
#define RP_GEN_B64      RP_GEN_ALNUM "+/"
#define RP_GEN_PASSWORD RP_GEN_ALNUM RP_GEN_ALNUM "!%*+-=?@^_~"

/* The last character of a body whose alphabet has '-': one in four times a '-' (real tokens
 * end in one as often as the alphabet says, and a '-' at the end is where an extractor that
 * trims sentence punctuation goes wrong), else alphanumeric. */
static inline void rp_gen_last(rp_gen_buf *b, uint64_t *seed)
{
    if (rp_gen_below(seed, 4) == 0)
        rp_gen_put(b, "-");
    else
        rp_gen_chars(b, seed, RP_GEN_ALNUM, 1);
}

/* body of n chars whose first char is alphanumeric and whose last is rp_gen_last's. */
static inline void rp_gen_inner(rp_gen_buf *b, uint64_t *seed, const char *alphabet, size_t n)
{
    rp_gen_chars(b, seed, RP_GEN_ALNUM, 1);
    rp_gen_chars(b, seed, alphabet, n - 2);
    rp_gen_last(b, seed);
}

/* 30 base62 + the 6-char base62 CRC32 of those 30 (GitHub's and npm's checksum
 * scheme). */
static inline void rp_gen_checksummed(rp_gen_buf *b, uint64_t *seed)
{
    size_t at = b->n;
    rp_gen_chars(b, seed, RP_GEN_ALNUM, 30);
    if (!b->ok)
        return;
    char sum[7];
    rp_scan_base62_6(rp_scan_crc32(b->p + at, 30), sum);
    sum[6] = '\0';
    rp_gen_put(b, sum);
}

static inline void rp_gen_base64url(rp_gen_buf *b, const unsigned char *s, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    char out[5];
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)s[i] << 16;
        size_t k = n - i >= 3 ? 3 : n - i;
        if (k > 1)
            v |= (uint32_t)s[i + 1] << 8;
        if (k > 2)
            v |= s[i + 2];
        size_t m = 0;
        out[m++] = tab[(v >> 18) & 63];
        out[m++] = tab[(v >> 12) & 63];
        if (k > 1)
            out[m++] = tab[(v >> 6) & 63];
        if (k > 2)
            out[m++] = tab[v & 63];
        out[m] = '\0';
        rp_gen_put(b, out);
    }
}

static inline void rp_gen_jwt(rp_gen_buf *b, uint64_t *seed)
{
    static const char *const algs[] = {"HS256", "RS256", "ES256", "HS512"};
    size_t alg = rp_gen_below(seed, 4);
    char json[256];
    if (rp_gen_below(seed, 2))
        snprintf(json, sizeof json, "{\"alg\":\"%s\",\"typ\":\"JWT\"}", algs[alg]);
    else
        snprintf(json, sizeof json, "{\"alg\":\"%s\",\"kid\":\"k%u\",\"typ\":\"JWT\"}", algs[alg],
                 (unsigned)rp_gen_below(seed, 100000));
    rp_gen_base64url(b, (const unsigned char *)json, strlen(json));
    rp_gen_put(b, ".");
    unsigned long long iat = 1700000000ull + rp_gen_below(seed, 60000000);
    snprintf(json, sizeof json,
             "{\"sub\":\"user-%u\",\"iss\":\"https://"
             "auth.svc%u.internal\",\"iat\":%llu,"
             "\"exp\":%llu,\"scope\":\"read write\"}",
             (unsigned)rp_gen_below(seed, 1000000), (unsigned)rp_gen_below(seed, 100), iat,
             iat + 3600);
    rp_gen_base64url(b, (const unsigned char *)json, strlen(json));
    rp_gen_put(b, ".");
    /* signature lengths of HS256/RS256 (2048-bit)/ES256/HS512 */
    static const size_t sig[] = {43, 342, 86, 86};
    rp_gen_chars(b, seed, RP_GEN_B64URL, sig[alg]);
}

static inline void rp_gen_private_key(rp_gen_buf *b, uint64_t *seed)
{
    static const char *const kinds[] = {"RSA ", "EC ", "OPENSSH ", "", "ENCRYPTED "};
    const char *kind = kinds[rp_gen_below(seed, 5)];
    char line[64];
    snprintf(line, sizeof line, "-----%s %s%s KEY-----\n", "BEGIN", kind, "PRIVATE");
    rp_gen_put(b, line);
    size_t lines = 3 + rp_gen_below(seed, 10);
    for (size_t i = 0; i < lines; i++) {
        rp_gen_chars(b, seed, RP_GEN_B64, 64);
        rp_gen_put(b, "\n");
    }
    size_t last = 4 * (1 + rp_gen_below(seed, 15));
    rp_gen_chars(b, seed, RP_GEN_B64, last - 2);
    rp_gen_put(b, rp_gen_below(seed, 2) ? "==\n" : "Ag\n");
    snprintf(line, sizeof line, "-----%s %s%s KEY-----", "END", kind, "PRIVATE");
    rp_gen_put(b, line);
}

static inline void rp_gen_url_password(rp_gen_buf *b, uint64_t *seed)
{
    static const char *const schemes[] = {"postgres", "postgresql", "mysql", "redis",      "amqp",
                                          "mongodb",  "https",      "ftp",   "mongodb+srv"};
    static const char *const users[] = {"admin", "app", "svc_backend", "deploy",
                                        "root",  "etl", "worker",      "ci-bot"};
    static const char *const hosts[] = {"db.internal.corp",    "10.0.3.17",
                                        "cache-01.prod.local", "cluster0.ab12c.mongodb.net",
                                        "git.company.io",      "mq.staging.svc"};
    rp_gen_put(b, schemes[rp_gen_below(seed, 9)]);
    rp_gen_put(b, "://");
    rp_gen_put(b, users[rp_gen_below(seed, 8)]);
    rp_gen_put(b, ":");
    rp_gen_chars(b, seed, RP_GEN_ALNUM, 1);
    rp_gen_chars(b, seed, RP_GEN_ALNUM RP_GEN_ALNUM "-_~!*", 10 + rp_gen_below(seed, 15));
    rp_gen_chars(b, seed, RP_GEN_DIGITS, 1);
    rp_gen_put(b, "@");
    rp_gen_put(b, hosts[rp_gen_below(seed, 6)]);
    if (rp_gen_below(seed, 2)) {
        char port[16];
        snprintf(port, sizeof port, ":%u", 1024 + (unsigned)rp_gen_below(seed, 60000));
        rp_gen_put(b, port);
    }
    rp_gen_put(b, rp_gen_below(seed, 2) ? "/app" : "/");
}

/* Generates one fake secret of `type` into out (NUL-terminated) and returns its
 * length; 0 when the type is not a secret type or cap is too small
 * (RP_GEN_SECRET_MAX always suffices). */
static inline size_t rp_gen_secret(rp_scan_type type, uint64_t *seed, char *out, size_t cap)
{
    rp_gen_buf b = {out, cap, 0, cap > 0};
    if (cap > 0)
        out[0] = '\0';
    switch (type) {
    case RP_SCAN_AWS_ACCESS_KEY_ID:
        rp_gen_put(&b, rp_gen_below(seed, 4) ? "AK" : "AS");
        rp_gen_put(&b, "IA");
        rp_gen_chars(&b, seed, RP_GEN_UPPER32, 16);
        break;
    case RP_SCAN_AWS_SECRET_ACCESS_KEY:
        for (;;) { /* every real one has all three classes; redraw the rare one that
                      has not */
            b.n = 0;
            rp_gen_chars(&b, seed, RP_GEN_B64, 40);
            if (!b.ok || (strpbrk(out, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") &&
                          strpbrk(out, "abcdefghijklmnopqrstuvwxyz") && strpbrk(out, "0123456789")))
                break;
        }
        break;
    case RP_SCAN_GITHUB_TOKEN:
        if (rp_gen_below(seed, 6) == 0) {
            rp_gen_put(&b, "github");
            rp_gen_put(&b, "_pat_");
            rp_gen_chars(&b, seed, RP_GEN_ALNUM, 22);
            rp_gen_put(&b, "_");
            rp_gen_chars(&b, seed, RP_GEN_ALNUM "_", 58);
            rp_gen_chars(&b, seed, RP_GEN_ALNUM, 1);
        } else {
            char pre[5] = {'g', 'h', "pousr"[rp_gen_below(seed, 5)], '_', '\0'};
            rp_gen_put(&b, pre);
            rp_gen_checksummed(&b, seed);
        }
        break;
    case RP_SCAN_GITLAB_TOKEN:
        rp_gen_put(&b, "gl");
        rp_gen_put(&b, "pat-");
        rp_gen_inner(&b, seed, RP_GEN_B64URL, 20);
        break;
    case RP_SCAN_SLACK_TOKEN: {
        char num[48];
        rp_gen_put(&b, "xo");
        if (rp_gen_below(seed, 2)) {
            rp_gen_put(&b, "xb-");
            snprintf(num, sizeof num, "%llu-%llu-",
                     100000000000ull + (unsigned long long)rp_gen_below(seed, 900000000000ull),
                     1000000000000ull + (unsigned long long)rp_gen_below(seed, 9000000000000ull));
            rp_gen_put(&b, num);
            rp_gen_chars(&b, seed, RP_GEN_ALNUM, 24);
        } else {
            rp_gen_put(&b, "xp-");
            snprintf(num, sizeof num, "%llu-%llu-%llu-",
                     100000000000ull + (unsigned long long)rp_gen_below(seed, 900000000000ull),
                     100000000000ull + (unsigned long long)rp_gen_below(seed, 900000000000ull),
                     1000000000000ull + (unsigned long long)rp_gen_below(seed, 9000000000000ull));
            rp_gen_put(&b, num);
            rp_gen_chars(&b, seed, RP_GEN_HEX, 32);
        }
        break;
    }
    case RP_SCAN_SLACK_WEBHOOK:
        rp_gen_put(&b, "https://hooks.");
        rp_gen_put(&b, "slack.com/services/T");
        rp_gen_chars(&b, seed, RP_GEN_UPNUM, 8 + rp_gen_below(seed, 3));
        rp_gen_put(&b, "/B");
        rp_gen_chars(&b, seed, RP_GEN_UPNUM, 8 + rp_gen_below(seed, 3));
        rp_gen_put(&b, "/");
        rp_gen_chars(&b, seed, RP_GEN_ALNUM, 24);
        break;
    case RP_SCAN_STRIPE_KEY:
        rp_gen_put(&b, rp_gen_below(seed, 3) ? "sk" : "rk");
        rp_gen_put(&b, "_live_");
        rp_gen_chars(&b, seed, RP_GEN_ALNUM, rp_gen_below(seed, 2) ? 24 : 99);
        break;
    case RP_SCAN_GOOGLE_API_KEY:
        rp_gen_put(&b, "AI");
        rp_gen_put(&b, "za");
        rp_gen_chars(&b, seed, RP_GEN_B64URL, 34);
        rp_gen_last(&b, seed);
        break;
    case RP_SCAN_OPENAI_API_KEY: {
        size_t half = 20;
        rp_gen_put(&b, "sk");
        if (rp_gen_below(seed, 2)) {
            rp_gen_put(&b, "-proj-");
            half = 64;
        } else {
            rp_gen_put(&b, "-");
        }
        const char *alpha = half == 20 ? RP_GEN_ALNUM : RP_GEN_B64URL;
        rp_gen_chars(&b, seed, RP_GEN_ALNUM, 1);
        rp_gen_chars(&b, seed, alpha, half - 1);
        rp_gen_put(&b, "T3Blbk");
        rp_gen_put(&b, "FJ");
        rp_gen_chars(&b, seed, alpha, half - 1);
        if (half == 20)
            rp_gen_chars(&b, seed, RP_GEN_ALNUM, 1);
        else
            rp_gen_last(&b, seed);
        break;
    }
    case RP_SCAN_ANTHROPIC_API_KEY:
        rp_gen_put(&b, "sk");
        rp_gen_put(&b, "-ant-api03-");
        rp_gen_chars(&b, seed, RP_GEN_ALNUM, 1);
        rp_gen_chars(&b, seed, RP_GEN_B64URL, 92);
        rp_gen_put(&b, "AA");
        break;
    case RP_SCAN_NPM_TOKEN:
        rp_gen_put(&b, "np");
        rp_gen_put(&b, "m_");
        rp_gen_checksummed(&b, seed);
        break;
    case RP_SCAN_PRIVATE_KEY:
        rp_gen_private_key(&b, seed);
        break;
    case RP_SCAN_JWT:
        rp_gen_jwt(&b, seed);
        break;
    case RP_SCAN_URL_PASSWORD:
        rp_gen_url_password(&b, seed);
        break;
    case RP_SCAN_GENERIC_SECRET:
        for (int tries = 0; tries < 100; tries++) {
            b.n = 0;
            rp_gen_chars(&b, seed, RP_GEN_ALNUM, 1);
            rp_gen_chars(&b, seed, RP_GEN_PASSWORD, 10 + rp_gen_below(seed, 21));
            rp_gen_chars(&b, seed, RP_GEN_ALNUM, 1);
            if (!b.ok || (strpbrk(out, RP_GEN_DIGITS) && rp_scan_secret_value(out, b.n)))
                break;
        }
        break;
    default:
        b.ok = 0;
        break;
    }
    if (!b.ok) {
        if (cap > 0)
            out[0] = '\0';
        return 0;
    }
    return b.n;
}

/* Where the scanner's finding lies in a string rp_gen_secret produced: the
 * whole string, except url_password whose finding is the password (between the
 * ':' after the user and the '@'). */
static inline void rp_gen_secret_span(rp_scan_type type, const char *s, size_t n, size_t *start,
                                      size_t *end)
{
    *start = 0;
    *end = n;
    if (type != RP_SCAN_URL_PASSWORD)
        return;
    const char *auth = strstr(s, "://");
    if (auth == NULL)
        return;
    auth += 3;
    const char *at = memchr(auth, '@', n - (size_t)(auth - s));
    const char *colon = memchr(auth, ':', n - (size_t)(auth - s));
    if (at == NULL || colon == NULL || colon > at)
        return;
    *start = (size_t)(colon + 1 - s);
    *end = (size_t)(at - s);
}

#endif
