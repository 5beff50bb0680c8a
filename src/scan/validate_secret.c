/* validate_secret.c — validators for credential candidates (see
 * validate_secret.h). */
#include "scan/validate_secret.h"

#include <string.h>

#include "core/json.h"
#include "scan/ascii.h"
#include "scan/validate.h"

static bool is_b64url(char c)
{
    return is_alnum(c) || c == '-' || c == '_';
}
static bool starts_with(const char *s, size_t n, const char *prefix)
{
    size_t m = strlen(prefix);
    return n >= m && memcmp(s, prefix, m) == 0;
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
/* Does s contain the lower-case word as people write it in a placeholder: lower case, or for
 * words of 5+ letters also UPPER CASE or Capitalized? Not any mix of cases, and short words only
 * in lower case: a random base62 body of 100 characters holds "fAkE" in some mix of cases about
 * once in 10^4 tokens, "fake" once in 10^5, "Dummy" or "DUMMY" once in 10^7. */
static bool contains_word(const char *s, size_t n, const char *word)
{
    size_t m = strlen(word);
    for (size_t i = 0; i + m <= n; i++) {
        bool lo = true, up = m >= 5, cap = m >= 5;
        for (size_t j = 0; j < m && (lo || up || cap); j++) {
            char c = s[i + j], u = is_lower(word[j]) ? (char)(word[j] - 'a' + 'A') : word[j];
            lo &= c == word[j];
            up &= c == u;
            cap &= c == (j == 0 ? u : word[j]);
        }
        if (lo || up || cap)
            return true;
    }
    return false;
}

static bool all_of(const char *s, size_t n, bool (*pred)(char))
{
    for (size_t i = 0; i < n; i++)
        if (!pred(s[i]))
            return false;
    return true;
}
/* Two of upper, lower and digit present: what every random base62 body of 20+
 * characters has (one class alone: below 1e-7), and what a word or a number has
 * not. */
static bool mixed(const char *s, size_t n)
{
    bool up = false, lo = false, dg = false;
    for (size_t i = 0; i < n; i++) {
        up |= is_upper(s[i]);
        lo |= is_lower(s[i]);
        dg |= is_digit(s[i]);
    }
    return up + lo + dg >= 2;
}

bool rp_scan_identifier_shaped(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] == '-')
        i++;
    if (i == n)
        return false;
    while (i < n) {
        char c = s[i];
        if (c == '_' || c == '-') {
            i++;
        } else if (is_lower(c)) {
            while (i < n && is_lower(s[i]))
                i++;
        } else if (is_upper(c)) {
            size_t j = i;
            while (j < n && is_upper(s[j]))
                j++;
            size_t k = j;
            while (k < n && is_lower(s[k]))
                k++;
            if (k > j && k - j < 2)
                return false; /* a capital then one lower-case letter: random, not a word */
            i = k;
        } else {
            return false;
        }
    }
    return true;
}

/* A body written as words in camel or snake case with a lower-case letter, that names what
 * belongs there: YourStripeSecretKeyGoesHere, your_token_here. Random bodies almost never
 * qualify: they hold digits, humps of one lower-case letter, and (1 in 10^3) none of the words. */
static bool worded_placeholder(const char *s, size_t n)
{
    static const char *const words[] = {"your",   "here",    "goes", "replace", "insert",
                                        "token",  "secret",  "key",  "value",   "personal",
                                        "access", "project", "this"};
    bool lo = false;
    for (size_t i = 0; i < n && !lo; i++)
        lo = is_lower(s[i]);
    if (!lo || !rp_scan_identifier_shaped(s, n))
        return false;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (contains_ci(s, n, words[i]))
            return true;
    return false;
}

/* Does the body run up or repeat almost throughout: 1234567890abcdef, abcd1234efgh5678,
 * aaaabbbbcccc? Counts the breaks, the characters that neither repeat nor follow their
 * predecessor; a random body breaks at almost every character (at 2 in 62 it does not, 2 in 16
 * for hex), so n / 5 breaks or fewer in 12+ characters is a filler (a random hex body of 12
 * does it about once in 10^6). */
static bool sequential_filler(const char *s, size_t n)
{
    if (n < 12)
        return false;
    size_t breaks = 0;
    for (size_t i = 1; i < n; i++) {
        unsigned char a = (unsigned char)s[i - 1], b = (unsigned char)s[i];
        if (b != a && b != a + 1)
            breaks++;
    }
    return breaks * 5 <= n;
}

bool rp_scan_token_placeholder(const char *s, size_t n)
{
    /* filler such as xxxxxxxx is the run check's below; the short words only in lower case
     * (contains_word), so that a random body holds one about once in 10^5 */
    static const char *const words[] = {"example",  "dummy",     "sample", "fake",
                                        "redacted", "placehold", "your",   "here",
                                        "replace",  "insert",    "goes"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (contains_word(s, n, words[i]))
            return true;
    if (worded_placeholder(s, n) || sequential_filler(s, n))
        return true;
    /* a run of r identical (or r ascending) characters turns up in n random ones from an
     * alphabet of a with a probability of about n * a^(1-r): 6 for base62 and base64 bodies
     * (~1e-7 at n = 100), 7 for hex ones (~1e-6 at n = 32) */
    size_t max_run = 6;
    bool hex = true;
    for (size_t i = 0; i < n && hex; i++)
        hex = rp_hex_digit((unsigned char)s[i]) >= 0 && !is_upper(s[i]); /* lowercase hex */
    if (hex)
        max_run = 7;
    size_t run = 1, up = 1;
    bool seen[256] = {false};
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!seen[c]) {
            seen[c] = true;
            distinct++;
        }
        if (i == 0)
            continue;
        run = s[i] == s[i - 1] ? run + 1 : 1;
        up = (unsigned char)s[i] == (unsigned char)s[i - 1] + 1 && is_alnum(s[i]) ? up + 1 : 1;
        if (run >= max_run || up >= max_run)
            return true;
    }
    /* a random body of n characters has about min(n, alphabet) distinct ones; n /
     * 4 (at most 8) is far below that and above what a hand-typed filler has */
    size_t need = n / 4 < 8 ? n / 4 : 8;
    return distinct < need;
}

bool rp_scan_aws_access_key_id(const char *s, size_t n)
{
    if (n != 20 || !(starts_with(s, n, "AKIA") || starts_with(s, n, "ASIA")))
        return false;
    for (size_t i = 4; i < 20; i++)
        if (!is_upper(s[i]) && !is_digit(s[i]))
            return false;
    return !rp_scan_token_placeholder(s + 4, 16);
}

bool rp_scan_aws_secret_value(const char *s, size_t n)
{
    if (n != 40)
        return false;
    bool up = false, lo = false, other = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (is_upper(c))
            up = true;
        else if (is_lower(c))
            lo = true;
        else if (is_digit(c) || c == '/' || c == '+')
            other = true;
        else
            return false;
    }
    return up && lo && other && !rp_scan_token_placeholder(s, n);
}

bool rp_scan_gitlab_token(const char *s, size_t n)
{
    static const char *const prefixes[] = {"glpat-", "gldt-",   "glrt-",  "glptt-", "glft-",
                                           "glimt-", "glsoat-", "glcbt-", "gloas-"};
    size_t p = 0;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0] && p == 0; i++)
        if (starts_with(s, n, prefixes[i]))
            p = strlen(prefixes[i]);
    if (p == 0 || n - p < 20 || n - p > 300)
        return false;
    for (size_t i = p; i < n; i++)
        if (!is_b64url(s[i]) && s[i] != '.')
            return false;
    if (s[n - 1] == '.')
        return false;
    return mixed(s + p, n - p) && !rp_scan_token_placeholder(s + p, n - p);
}

/* A numeric Slack id group: 8-14 digits, not all zeros. */
static bool slack_id(const char *s, size_t n)
{
    if (n < 8 || n > 14 || !all_of(s, n, is_digit))
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] != '0')
            return true;
    return false;
}

/* T, A or B followed by 8-12 [A-Z0-9] (a Slack team, app or channel/bot id). */
static bool slack_obj_id(const char *s, size_t n, char kind);

bool rp_scan_slack_token(const char *s, size_t n)
{
    if (starts_with(s, n, "xoxe.")) { /* rotating tokens: xoxe.xoxp-1-<long random> */
        s += 5;
        n -= 5;
    }
    if (n < 5 || s[4] != '-')
        return false;
    char kind = s[3];
    bool app = memcmp(s, "xapp", 4) == 0;
    if (!app && (memcmp(s, "xox", 3) != 0 || kind == 0 || !strchr("abposre", kind)))
        return false;
    const char *g[8];
    size_t gl[8], ng = 0, st = 5;
    for (size_t i = 5; i <= n; i++) {
        if (i < n && s[i] != '-') {
            if (!is_alnum(s[i]))
                return false;
            continue;
        }
        if (ng == 8 || i == st)
            return false;
        g[ng] = s + st;
        gl[ng++] = i - st;
        st = i + 1;
    }
    const char *last = g[ng - 1];
    size_t ll = gl[ng - 1];
    bool version = gl[0] <= 2 && all_of(g[0], gl[0], is_digit);
    if (app) /* xapp-1-A<app id>-<digits>-<64 hex>: an app-level token */
        return ng == 4 && version && slack_obj_id(g[1], gl[1], 'A') && slack_id(g[2], gl[2]) &&
               ll >= 32 && all_of(last, ll, is_alnum) && !rp_scan_token_placeholder(last, ll);
    /* xoxe-1-<random> (a refresh token) and xoxe.xoxp-1-<random>: a version digit then one
     * long random group */
    if (ng == 2)
        return version && ll >= 60 && mixed(last, ll) && !rp_scan_token_placeholder(last, ll);
    if (kind == 'e' || ng < 3 || ll < 20)
        return false;
    size_t ids = 0;
    for (size_t i = 0; i + 1 < ng; i++) {
        if (!all_of(g[i], gl[i], is_digit))
            return false;
        ids += slack_id(g[i], gl[i]);
    }
    return ids >= 2 && !rp_scan_token_placeholder(last, ll);
}

static bool slack_obj_id(const char *s, size_t n, char kind)
{
    if (n < 9 || n > 13 || s[0] != kind)
        return false;
    for (size_t i = 1; i < n; i++)
        if (!is_upper(s[i]) && !is_digit(s[i]))
            return false;
    return !rp_scan_token_placeholder(s + 1, n - 1) && !all_of(s + 1, n - 1, is_digit);
}

bool rp_scan_slack_webhook_path(const char *s, size_t n)
{
    const char *part[5];
    size_t pl[5], np = 0, st = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && s[i] != '/')
            continue;
        if (np == 5 || i == st)
            return false;
        part[np] = s + st;
        pl[np++] = i - st;
        st = i + 1;
    }
    if (np < 4)
        return false;
    const char *sec = part[np - 1];
    size_t sl = pl[np - 1];
    bool services = pl[0] == 8 && memcmp(part[0], "services", 8) == 0;
    bool workflow = (pl[0] == 9 && memcmp(part[0], "workflows", 9) == 0) ||
                    (pl[0] == 8 && memcmp(part[0], "triggers", 8) == 0);
    if (services) {
        if (np != 4 || !slack_obj_id(part[1], pl[1], 'T') || !slack_obj_id(part[2], pl[2], 'B'))
            return false;
        if (sl != 24)
            return false;
    } else if (workflow) {
        if (np != 5 || !slack_obj_id(part[1], pl[1], 'T') || !slack_obj_id(part[2], pl[2], 'A') ||
            pl[3] < 6 || !all_of(part[3], pl[3], is_digit))
            return false;
        if (sl < 20 || sl > 64)
            return false;
    } else {
        return false;
    }
    return all_of(sec, sl, is_alnum) && !rp_scan_token_placeholder(sec, sl);
}

bool rp_scan_stripe_key(const char *s, size_t n)
{
    if (!starts_with(s, n, "sk_live_") && !starts_with(s, n, "rk_live_"))
        return false;
    const char *b = s + 8;
    size_t bn = n - 8;
    return bn >= 20 && bn <= 247 && all_of(b, bn, is_alnum) && mixed(b, bn) &&
           !rp_scan_token_placeholder(b, bn);
}

bool rp_scan_google_api_key(const char *s, size_t n)
{
    if (n != 39 || !starts_with(s, n, "AIza"))
        return false;
    return all_of(s + 4, 35, is_b64url) && !rp_scan_token_placeholder(s + 4, 35);
}

bool rp_scan_openai_api_key(const char *s, size_t n)
{
    if (!starts_with(s, n, "sk-") || starts_with(s, n, "sk-ant-"))
        return false;
    static const char *const kinds[] = {"sk-proj-", "sk-svcacct-", "sk-admin-", "sk-None-"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        size_t p = strlen(kinds[i]);
        if (starts_with(s, n, kinds[i])) {
            size_t bn = n - p;
            return bn >= 40 && bn <= 250 && all_of(s + p, bn, is_b64url) && mixed(s + p, bn) &&
                   !rp_scan_token_placeholder(s + p, bn);
        }
    }
    return n == 51 && all_of(s + 3, 48, is_alnum) && mixed(s + 3, 48) &&
           !rp_scan_token_placeholder(s + 3, 48);
}

bool rp_scan_anthropic_api_key(const char *s, size_t n)
{
    if (!starts_with(s, n, "sk-ant-"))
        return false;
    size_t i = 7, k = i;
    while (k < n && is_lower(s[k]))
        k++;
    size_t letters = k - i;
    while (k < n && is_digit(s[k]))
        k++;
    if (letters < 3 || k - i - letters != 2 || k >= n || s[k] != '-')
        return false;
    const char *b = s + k + 1;
    size_t bn = n - k - 1;
    return bn >= 40 && bn <= 200 && all_of(b, bn, is_b64url) && mixed(b, bn) &&
           !rp_scan_token_placeholder(b, bn);
}

bool rp_scan_npm_token(const char *s, size_t n)
{
    return n == 40 && starts_with(s, n, "npm_") && all_of(s + 4, 36, is_alnum) &&
           mixed(s + 4, 36) && !rp_scan_token_placeholder(s + 4, 36);
}

static bool is_b64(char c)
{
    return is_alnum(c) || c == '+' || c == '/' || c == '=';
}

bool rp_scan_private_key_body(const char *s, size_t n)
{
    /* The base64 characters, gathered so that their entropy can be measured.
     * Bodies can be several KiB; a fixed window of the first ones is
     * representative. */
    char sample[512];
    size_t count = 0, i = 0;
    bool line_start = true;
    while (i < n) {
        char c = s[i];
        if (c == '\\' && i + 1 < n && (s[i + 1] == 'n' || s[i + 1] == 'r')) {
            line_start = true;
            i += 2;
            continue;
        }
        if (c == '\n' || c == '\r') {
            line_start = true;
            i++;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '"' || c == '\'') {
            i++;
            continue;
        }
        if (line_start) { /* an RFC 1421 header line ("Proc-Type: 4,ENCRYPTED") */
            size_t j = i;
            while (j < n && (is_alnum(s[j]) || s[j] == '-'))
                j++;
            if (j > i && j < n && s[j] == ':') {
                while (j < n && s[j] != '\n' && !(s[j] == '\\' && j + 1 < n && s[j + 1] == 'n'))
                    j++;
                i = j;
                continue;
            }
        }
        line_start = false;
        if (!is_b64(c))
            return false; /* "...", "<base64 here>": an elided example */
        if (count < sizeof sample)
            sample[count] = c;
        count++;
        i++;
    }
    if (count < 64)
        return false;
    size_t m = count < sizeof sample ? count : sizeof sample;
    /* random base64 carries ~6 bits per char; 64-char samples measure ~5.3-5.7,
     * DER headers and OpenSSH's "AAAA" runs lower it a little (so no run or word
     * check here: real keys have them). Filler (AAAA..., MIIE...xxxx) measures
     * under 3. */
    return rp_scan_entropy(sample, m) >= 4.5;
}

static const rp_json *decode_json(rp_arena *a, const char *s, size_t n)
{
    unsigned char *buf = rp_arena_alloc(a, 3 * n / 4 + 3);
    size_t k = rp_scan_base64url_decode(s, n, buf);
    if (k == (size_t)-1)
        return NULL;
    rp_json_error err;
    return rp_json_parse(a, (const char *)buf, k, &err);
}

bool rp_scan_jwt_is_sample(rp_arena *a, const char *s, size_t n)
{
    const char *d1 = memchr(s, '.', n);
    if (d1 == NULL)
        return false;
    const char *p = d1 + 1;
    const char *d2 = memchr(p, '.', n - (size_t)(p - s));
    if (d2 == NULL)
        return false;
    const rp_json *payload = decode_json(a, p, (size_t)(d2 - p));
    const char *sub = payload ? rp_json_get_str(payload, "sub") : NULL;
    const char *name = payload ? rp_json_get_str(payload, "name") : NULL;
    return sub && name && strcmp(sub, "1234567890") == 0 && strcmp(name, "John Doe") == 0;
}

bool rp_scan_url_password_value(const char *s, size_t n)
{
    if (n < 4 || n > 256 || memchr(s, ':', n) != NULL)
        return false; /* "xyz"; "pserver:anoncvs" (CVS's method:user syntax) */
    char c0 = s[0];
    /* a percent-escape (%40bc...) is a character of the password, %s and %PASS% are not */
    bool escape = c0 == '%' && is_hex(s[1]) && is_hex(s[2]) && s[n - 1] != '%';
    if (c0 == '$' || c0 == '<' || (c0 == '%' && !escape) || c0 == '{' || c0 == '[' || c0 == '*')
        return false; /* ${PASS}, $PASS, <password>, %s, {{ pass }}, [password], *** */
    if (n <= 5 && all_of(s, n, is_digit))
        return false; /* host:port@ mistaken for user:password@ */
    size_t digits = 0;
    while (digits < n && is_digit(s[digits]))
        digits++;
    if (digits >= 1 && digits <= 5 && digits < n && (s[digits] == ',' || s[digits] == ';'))
        return false; /* "localhost:8080,user@example.com": a port, then a list of addresses */
    static const char *const words[] = {"password", "passwd", "changeme",   "example",
                                        "secret",   "your",   "***",        "...",
                                        "redacted", "dummy",  "placeholder"};
    /* long words in any case (PassWord), short ones only as written (a random password holds
     * "YoUr" in some mix of cases once in 10^4) */
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i]) >= 6 ? contains_ci(s, n, words[i]) : contains_word(s, n, words[i]))
            return false;
    static const char *const exact[] = {
        "pass",    "user",  "username", "token", "test",  "abc123", "qwerty", "letmein",  "hunter2",
        "pass123", "admin", "foobar",   "1234",  "12345", "0000",   "pa55",   "p4ssw0rd", "guest"};
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++) {
        size_t m = strlen(exact[i]);
        if (n == m) {
            size_t j = 0;
            while (j < m && lower(s[j]) == exact[i][j])
                j++;
            if (j == m)
                return false;
        }
    }
    for (size_t i = 1; i < n; i++)
        if (s[i] != s[0])
            return true;
    return false; /* one character repeated */
}
