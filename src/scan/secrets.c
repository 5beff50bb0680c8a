/* secrets.c — scanner rules for credentials: API keys and tokens, private keys,
 * JWTs, URLs with passwords and password=/api_key= assignments (the secret
 * types of scan.h).
 *
 * Every trigger is the literal prefix of a format where it has one (AKIA, ghp_,
 * glpat-, xoxb-, sk_live_, AIza, sk-, npm_, -----BEGIN ... PRIVATE KEY-----,
 * eyJ...eyJ, ://user:pass@, or a password=/api_key: label): vectorscan finds
 * literals at memory speed and they are rare in ordinary text, so the
 * extractors run seldom. An extractor knows where its prefix starts from the
 * trigger's end, reads the token's alphabet forward, refuses a token glued to
 * more token characters on either side (an identifier that merely contains
 * AKIA), and hands the exact span to a validator (validate_secret.h,
 * validate.h).
 *
 * Spans: the whole token for the prefixed formats; the whole PEM block from
 * -----BEGIN to the end of its -----END ...----- line; the whole
 * https://hooks.slack.com/... URL; for url_password only the password (so a
 * redacted URL still shows scheme, user and host); for generic_secret only the
 * value (without its quotes). A specific type and generic_secret on the same
 * value give the same span, and the core keeps the specific one. */
#include "scan/ascii.h"
#include "scan/scan_rules.h"

#include <string.h>

#include "scan/validate_secret.h"

/* ---- character classes ---- */

static bool is_word(char c) /* identifier characters */
{
    return is_alnum(c) || c == '_';
}
static bool is_upnum(char c)
{
    return is_upper(c) || is_digit(c);
}
static bool is_b64url(char c)
{
    return is_word(c) || c == '-';
}
static bool is_b64(char c)
{
    return is_alnum(c) || c == '+' || c == '/';
}
static bool is_gitlab(char c)
{
    return is_b64url(c) || c == '.';
}
static bool is_slack(char c)
{
    return is_alnum(c) || c == '-';
}
static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

typedef bool (*char_class)(char);

/* ---- token boundaries ---- */

/* Is the token starting at `start` glued to a preceding token character (a word
 * character or one of its own alphabet)? Escapes are boundaries, not glue:
 * "\ntoken" in a JSON string and
 * "%3Dtoken" in a URL-encoded query. */
static bool glued_left(const rp_scan_job *job, size_t start, char_class alphabet)
{
    if (start == 0)
        return false;
    const char *t = job->text;
    char c = t[start - 1];
    if (!is_word(c) && !alphabet(c))
        return false;
    if ((c == 'n' || c == 't' || c == 'r') && start >= 2 && t[start - 2] == '\\')
        return false;
    if (start >= 3 && t[start - 3] == '%' && is_hex(t[start - 2]) && is_hex(c))
        return false;
    return true;
}

/* The end of the run of `alphabet` characters from `from`, looking at no more
 * than `max` of them (a run longer than any real token is glued to something,
 * the caller rejects it). */
static size_t run_end(const rp_scan_job *job, size_t from, char_class alphabet, size_t max)
{
    size_t i = from, lim = job->len - from > max ? from + max : job->len;
    while (i < lim && alphabet(job->text[i]))
        i++;
    return i;
}

static bool glued_right(const rp_scan_job *job, size_t end)
{
    return end < job->len && is_word(job->text[end]);
}

static bool type_on(const rp_scan_job *job, rp_scan_type t)
{
    return job->opt != NULL && (job->opt->types & RP_SCAN_BIT(t));
}

/* ---- prefixed tokens ---- */

typedef bool (*token_check)(const char *s, size_t n);

/* The common case: a literal prefix of plen bytes ends at `end`; the body is a
 * run of `alphabet` (at most max bytes). Trailing '-' and '.' are sentence
 * punctuation or a dash after the token, unless the alphabet has them and the
 * whole run is valid: 1 in 64 Google keys ends in '-', and so do GitLab and
 * OpenAI tokens; the validator's lengths tell the two apart. */
static size_t prefixed(rp_scan_job *job, size_t end, size_t plen, char_class alphabet, size_t max,
                       token_check check, rp_scan_type type)
{
    if (end < plen)
        return end;
    size_t start = end - plen;
    if (glued_left(job, start, alphabet))
        return end;
    size_t stop = run_end(job, end, alphabet, max + 1);
    size_t tok = stop;
    while (tok > end && (job->text[tok - 1] == '-' || job->text[tok - 1] == '.'))
        tok--;
    if (stop - end > max || glued_right(job, stop))
        return stop;
    /* the whole run, then without a final '.' ("...-." ends a sentence), then
     * without any of the trailing '-' and '.' */
    size_t dot = stop > tok && job->text[stop - 1] == '.' ? stop - 1 : stop;
    size_t cand[3] = {stop, dot, tok};
    for (size_t k = 0; k < 3; k++) {
        if ((k == 0 || cand[k] < cand[k - 1]) && check(job->text + start, cand[k] - start)) {
            rp_scan_emit(job, type, start, cand[k], RP_MASK_SECRET);
            break;
        }
    }
    return stop;
}

/* An aws_secret_access_key value: exactly 40 base64 characters, bounded by
 * non-base64 ones. */
static bool aws_secret_at(const rp_scan_job *job, size_t start, size_t *stop)
{
    size_t e = run_end(job, start, is_b64, 41);
    *stop = e;
    if (e - start != 40)
        return false;
    /* the tail of a longer token is none: req-<40>, abc.<40> */
    if (start > 0 && (is_b64(job->text[start - 1]) || job->text[start - 1] == '_' ||
                      job->text[start - 1] == '-' || job->text[start - 1] == '.'))
        return false;
    if (e < job->len && (job->text[e] == '=' || job->text[e] == '_' || job->text[e] == '-'))
        return false;
    return rp_scan_aws_secret_value(job->text + start, 40);
}

/* An access key id is AWS context: a 40-character secret within a few lines of
 * it (CSV exports, `aws configure` transcripts, credentials files without
 * labels) is one. The windows of neighbouring ids overlap: what an earlier id
 * examined (job->examined) is not looked at again, or a list of key pairs would
 * report every secret once per id around it and fill the findings cap with
 * duplicates. */
static void aws_secret_near(rp_scan_job *job, size_t start, size_t stop)
{
    size_t *seen = &job->examined[RP_SCAN_AWS_SECRET_ACCESS_KEY];
    size_t lo = start > 256 ? start - 256 : 0;
    size_t hi = job->len - stop > 256 ? stop + 256 : job->len;
    if (lo < *seen)
        lo = *seen;
    size_t i = lo;
    while (i < hi) {
        if (!is_b64(job->text[i]) || (i > 0 && is_b64(job->text[i - 1]))) {
            i++;
            continue;
        }
        size_t e;
        if (aws_secret_at(job, i, &e))
            rp_scan_emit(job, RP_SCAN_AWS_SECRET_ACCESS_KEY, i, e, RP_MASK_SECRET);
        i = e > i ? e : i + 1;
    }
    /* every run that starts before hi has been read to its end */
    if (i > *seen)
        *seen = i;
}

static size_t extract_aws_key_id(rp_scan_job *job, size_t end)
{
    /* the trigger is the whole 20-character id */
    size_t start = end - 20, stop = end;
    if (glued_left(job, start, is_upnum) || glued_right(job, stop))
        return end;
    if (!rp_scan_aws_access_key_id(job->text + start, 20))
        return stop;
    rp_scan_emit(job, RP_SCAN_AWS_ACCESS_KEY_ID, start, stop, RP_MASK_SECRET);
    if (type_on(job, RP_SCAN_AWS_SECRET_ACCESS_KEY))
        aws_secret_near(job, start, stop);
    return stop;
}

static bool ci_at(const char *s, const char *lower_word)
{
    for (size_t i = 0; lower_word[i] != 0; i++)
        if (lower(s[i]) != lower_word[i])
            return false;
    return true;
}

/* Is an access key id (AKIA/ASIA + 16 [A-Z0-9]) within 256 bytes of [start, stop)? */
static bool aws_key_id_near(const rp_scan_job *job, size_t start, size_t stop)
{
    size_t lo = start > 256 ? start - 256 : 0;
    size_t hi = job->len - stop > 256 ? stop + 256 : job->len;
    for (size_t i = lo; i + 20 <= hi; i++)
        if (job->text[i] == 'A' && rp_scan_aws_access_key_id(job->text + i, 20))
            return true;
    return false;
}

/* The label that ends at `end` is AWS's: aws_secret..., secret_access_key, or a bare
 * secret_key (Django's, Flask's, a JWT signing key) only with "aws" just before it
 * (AWS_SECRET_KEY, aws.secret_key) or an access key id nearby. */
static bool aws_label(const rp_scan_job *job, size_t end, size_t value, size_t stop)
{
    const char *t = job->text;
    if (end < 9 || !ci_at(t + end - 3, "key"))
        return true; /* aws[_ .-]?secret */
    size_t k = end - 3;
    if (k > 0 && (t[k - 1] == '_' || t[k - 1] == ' ' || t[k - 1] == '.' || t[k - 1] == '-'))
        k--;
    if (k >= 6 && ci_at(t + k - 6, "access"))
        return true;    /* secret[_ .-]?access[_ .-]?key */
    size_t sec = k - 6; /* the regex matched "secret" there */
    if (sec > 0 &&
        (t[sec - 1] == '_' || t[sec - 1] == ' ' || t[sec - 1] == '.' || t[sec - 1] == '-'))
        sec--;
    if (sec >= 3 && ci_at(t + sec - 3, "aws"))
        return true;
    return aws_key_id_near(job, value, stop);
}

/* After an AWS secret label (aws_secret_access_key, SecretAccessKey, "AWS
 * Secret Access Key"): separators, an optional "[None]"-style prompt default,
 * then the value. */
static size_t extract_aws_secret_label(rp_scan_job *job, size_t end)
{
    const char *t = job->text;
    size_t i = end, lim = job->len - end > 64 ? end + 64 : job->len;
    while (i < lim) {
        char c = t[i];
        if (is_space(c) || c == '"' || c == '\'' || c == ':' || c == '=' || c == '>' || c == ',' ||
            c == '|') {
            i++;
        } else if (c == '\\' && i + 1 < lim && t[i + 1] != 0 && strchr("nrt\"'", t[i + 1])) {
            i += 2;
        } else if (c == '[') {
            const char *close = memchr(t + i, ']', lim - i);
            if (close == NULL)
                return end;
            i = (size_t)(close - t) + 1;
        } else {
            break;
        }
    }
    if (i >= lim || i == end)
        return end;
    size_t stop;
    if (aws_secret_at(job, i, &stop) && aws_label(job, end, i, stop))
        rp_scan_emit(job, RP_SCAN_AWS_SECRET_ACCESS_KEY, i, stop, RP_MASK_SECRET);
    return end;
}

static size_t extract_github_classic(rp_scan_job *job, size_t end)
{
    return prefixed(job, end, 4, is_alnum, 36, rp_scan_github_token, RP_SCAN_GITHUB_TOKEN);
}

static size_t extract_github_pat(rp_scan_job *job, size_t end)
{
    return prefixed(job, end, 11, is_word, 82, rp_scan_github_token, RP_SCAN_GITHUB_TOKEN);
}

static const char *const gitlab_prefixes[] = {"glpat-", "gldt-",   "glrt-",  "glptt-", "glft-",
                                              "glimt-", "glsoat-", "glcbt-", "gloas-"};

static size_t extract_gitlab(rp_scan_job *job, size_t end)
{
    /* the prefixes differ in length (glrt-, glpat-, glsoat-): the one that ends
     * at the trigger's end. Not a walk back over letters, which would take the
     * 'n' of a "\n" or the 'd' of a "%3d" before the token for part of it. */
    for (size_t i = 0; i < sizeof gitlab_prefixes / sizeof gitlab_prefixes[0]; i++) {
        size_t plen = strlen(gitlab_prefixes[i]);
        if (end >= plen && memcmp(job->text + end - plen, gitlab_prefixes[i], plen) == 0)
            return prefixed(job, end, plen, is_gitlab, 300, rp_scan_gitlab_token,
                            RP_SCAN_GITLAB_TOKEN);
    }
    return end;
}

static size_t extract_slack_token(rp_scan_job *job, size_t end)
{
    size_t plen = 5;
    if (end >= 10 && memcmp(job->text + end - 10, "xoxe.", 5) == 0)
        plen = 10; /* rotating token: xoxe.xoxp-... */
    return prefixed(job, end, plen, is_slack, 250, rp_scan_slack_token, RP_SCAN_SLACK_TOKEN);
}

static bool is_path(char c)
{
    return is_alnum(c) || c == '/';
}

static size_t extract_slack_webhook(rp_scan_job *job, size_t end)
{
    /* the trigger is "hooks.slack.com/": the URL starts at its scheme when there
     * is one */
    const char *t = job->text;
    size_t host = end - 16, start = host;
    if (host >= 8 && memcmp(t + host - 8, "https://", 8) == 0)
        start = host - 8;
    else if (host >= 7 && memcmp(t + host - 7, "http://", 7) == 0)
        start = host - 7;
    else if (host > 0 && (is_word(t[host - 1]) || t[host - 1] == '.' || t[host - 1] == '-'))
        return end; /* evilhooks.slack.com, a.hooks.slack.com */
    size_t stop = run_end(job, end, is_path, 200);
    size_t path_end = stop;
    while (path_end > end && t[path_end - 1] == '/')
        path_end--;
    if (glued_right(job, stop) || (stop < job->len && t[stop] == '-'))
        return stop;
    if (rp_scan_slack_webhook_path(t + end, path_end - end))
        rp_scan_emit(job, RP_SCAN_SLACK_WEBHOOK, start, path_end, RP_MASK_SECRET);
    return stop;
}

static size_t extract_stripe(rp_scan_job *job, size_t end)
{
    return prefixed(job, end, 8, is_alnum, 247, rp_scan_stripe_key, RP_SCAN_STRIPE_KEY);
}

static size_t extract_google(rp_scan_job *job, size_t end)
{
    return prefixed(job, end, 4, is_b64url, 35, rp_scan_google_api_key, RP_SCAN_GOOGLE_API_KEY);
}

static size_t extract_openai(rp_scan_job *job, size_t end)
{
    if (job->len - end >= 4 && memcmp(job->text + end, "ant-", 4) == 0)
        return end; /* Anthropic's, the next rule's */
    return prefixed(job, end, 3, is_b64url, 260, rp_scan_openai_api_key, RP_SCAN_OPENAI_API_KEY);
}

static size_t extract_anthropic(rp_scan_job *job, size_t end)
{
    return prefixed(job, end, 7, is_b64url, 220, rp_scan_anthropic_api_key,
                    RP_SCAN_ANTHROPIC_API_KEY);
}

static size_t extract_npm(rp_scan_job *job, size_t end)
{
    return prefixed(job, end, 4, is_alnum, 36, rp_scan_npm_token, RP_SCAN_NPM_TOKEN);
}

/* ---- private key blocks ---- */

static const char *find(const char *s, size_t n, const char *needle)
{
    size_t m = strlen(needle);
    if (m == 0 || n < m)
        return NULL;
    const char *p = s, *last = s + n - m;
    while (p <= last) {
        p = memchr(p, needle[0], (size_t)(last - p) + 1);
        if (p == NULL)
            return NULL;
        if (memcmp(p, needle, m) == 0)
            return p;
        p++;
    }
    return NULL;
}

static bool pem_body_char(char c)
{
    return is_b64(c) || c == '=' || is_space(c) || c == '"' || c == '\'' || c == '\\';
}

#define PEM_MAX_BODY 65536 /* a 16384-bit RSA key is ~12 KiB of base64; PGP blocks can be more */

static size_t extract_private_key(rp_scan_job *job, size_t end)
{
    const char *t = job->text;
    /* the trigger ends at the "-----" closing the BEGIN line, 26-72 bytes after its start */
    size_t start = end;
    for (size_t back = 26; back <= 72 && back <= end; back++) {
        if (memcmp(t + end - back, "-----BEGIN", 10) == 0) {
            start = end - back;
            break;
        }
    }
    if (start == end)
        return end;
    size_t lim = job->len - end > PEM_MAX_BODY ? end + PEM_MAX_BODY : job->len;
    /* the next "-----" is this block's END line, or the next block's BEGIN when this one has
     * none: looking only that far keeps a text of many BEGIN lines linear */
    const char *fin = find(t + end, lim - end, "-----");
    size_t body_end, stop;
    if (fin != NULL && (size_t)(t + job->len - fin) >= 8 && memcmp(fin, "-----END", 8) == 0) {
        body_end = (size_t)(fin - t);
        size_t line = body_end + 8, line_lim = job->len - line > 64 ? line + 64 : job->len;
        const char *close = find(t + line, line_lim - line, "-----");
        stop = close ? (size_t)(close - t) + 5 : line;
    } else {
        /* no END line (a truncated paste): the key is what base64 follows BEGIN */
        body_end = end;
        while (body_end < lim && pem_body_char(t[body_end]))
            body_end++;
        while (body_end > end && (is_space(t[body_end - 1]) || t[body_end - 1] == '"' ||
                                  t[body_end - 1] == '\'' || t[body_end - 1] == '\\'))
            body_end--;
        stop = body_end;
    }
    if (rp_scan_private_key_body(t + end, body_end - end))
        rp_scan_emit(job, RP_SCAN_PRIVATE_KEY, start, stop, RP_MASK_SECRET);
    return stop;
}

/* ---- JWT ---- */

#define JWT_MAX 16384

static size_t extract_jwt(rp_scan_job *job, size_t end)
{
    /* the trigger "eyJ<header>.eyJ" ends 3 bytes into the payload */
    const char *t = job->text;
    size_t dot1 = end - 4, run = dot1;
    while (run > 0 && dot1 - run < JWT_MAX && is_b64url(t[run - 1]))
        run--;
    /* the token starts at the leftmost "eyJ" of the run that is not glued to what
     * precedes it: the run's start, or just after an escape the run took in
     * ("\neyJ...", "%3DeyJ...") */
    size_t start = dot1;
    for (size_t p = run; p + 4 <= dot1; p++) {
        if (memcmp(t + p, "eyJ", 3) == 0 && !glued_left(job, p, is_b64url)) {
            start = p;
            break;
        }
    }
    if (start == dot1)
        return end;
    size_t dot2 = run_end(job, dot1 + 1, is_b64url, JWT_MAX);
    if (dot2 >= job->len || t[dot2] != '.')
        return dot2;
    size_t stop = run_end(job, dot2 + 1, is_b64url, JWT_MAX);
    /* a fourth part is a JWE or something longer, not a signed JWT */
    if (stop < job->len && t[stop] == '.' && stop + 1 < job->len && is_b64url(t[stop + 1]))
        return stop;
    if (glued_right(job, stop))
        return stop;
    if (rp_scan_jwt(job->arena, t + start, stop - start) &&
        !rp_scan_jwt_is_sample(job->arena, t + start, stop - start))
        rp_scan_emit(job, RP_SCAN_JWT, start, stop, RP_MASK_SECRET);
    return stop;
}

/* ---- URLs with a password ---- */

static bool url_authority_char(char c)
{
    return !is_space(c) && c != '/' && c != '?' && c != '#' && c != '"' && c != '\'' && c != '<' &&
           c != '>' && c != '`' && c != '\\' && (unsigned char)c >= 0x20;
}

static size_t extract_url_password(rp_scan_job *job, size_t end)
{
    /* the trigger "://user:password@" ends at the first '@' after "://" */
    const char *t = job->text;
    size_t at = end - 1, auth = at;
    while (auth >= 3 && at - auth < 1024 && memcmp(t + auth - 3, "://", 3) != 0)
        auth--;
    if (auth < 3 || memcmp(t + auth - 3, "://", 3) != 0)
        return end;
    size_t scheme = auth - 3;
    while (scheme > 0 && (is_alnum(t[scheme - 1]) || t[scheme - 1] == '+' || t[scheme - 1] == '.' ||
                          t[scheme - 1] == '-'))
        scheme--;
    if (auth - 3 - scheme < 2 || !is_lower(lower(t[scheme])))
        return end;
    /* the userinfo ends at the authority's last '@' (an unencoded '@' in a
     * password) */
    size_t auth_end = end;
    while (auth_end < job->len && auth_end - auth < 1024 && url_authority_char(t[auth_end]))
        auth_end++;
    size_t last_at = at;
    for (size_t i = end; i < auth_end; i++)
        if (t[i] == '@')
            last_at = i;
    if (last_at + 1 >= auth_end || !(is_alnum(t[last_at + 1]) || t[last_at + 1] == '['))
        return auth_end; /* no host */
    const char *colon = memchr(t + auth, ':', last_at - auth);
    if (colon == NULL)
        return auth_end;
    size_t pw = (size_t)(colon - t) + 1;
    /* postgres:postgres@, guest:guest@: a default of a local service, not a secret */
    size_t user = (size_t)(colon - t) - auth;
    if (user == last_at - pw) {
        size_t k = 0;
        while (k < user && lower(t[auth + k]) == lower(t[pw + k]))
            k++;
        if (k == user)
            return auth_end;
    }
    if (rp_scan_url_password_value(t + pw, last_at - pw))
        rp_scan_emit(job, RP_SCAN_URL_PASSWORD, pw, last_at, RP_MASK_SECRET);
    return auth_end;
}

/* ---- generic assignments ---- */

/* Values that are some other type's token: its own rule decides (a sk_test_ key
 * assigned to STRIPE_KEY is a test key, not a generic secret; a ghp_ token with
 * a wrong checksum is no GitHub token and no generic secret either). */
static bool has_known_prefix(const char *s, size_t n)
{
    static const char *const prefixes[] = {
        "AKIA",        "ASIA",     "ghp_",  "gho_",     "ghu_",     "ghs_",     "ghr_",
        "github_pat_", "xoxb-",    "xoxp-", "xoxa-",    "xoxs-",    "xoxr-",    "xoxo-",
        "xoxe-",       "xoxe.",    "xapp-", "sk_live_", "sk_test_", "rk_live_", "rk_test_",
        "pk_live_",    "pk_test_", "AIza",  "sk-",      "npm_",     "eyJ",
    };
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t m = strlen(prefixes[i]);
        if (n >= m && memcmp(s, prefixes[i], m) == 0)
            return true;
    }
    for (size_t i = 0; i < sizeof gitlab_prefixes / sizeof gitlab_prefixes[0]; i++) {
        size_t m = strlen(gitlab_prefixes[i]);
        if (n >= m && memcmp(s, gitlab_prefixes[i], m) == 0)
            return true;
    }
    return false;
}

/* a.b.c where every part is an identifier: self.password, settings.API_KEY,
 * process.env.X */
static bool dotted_identifier(const char *s, size_t n)
{
    size_t parts = 0, i = 0;
    while (i < n) {
        if (is_digit(s[i]) || !is_word(s[i]))
            return false;
        while (i < n && is_word(s[i]))
            i++;
        parts++;
        if (i == n)
            break;
        if (s[i] != '.' || i + 1 == n)
            return false;
        i++;
    }
    return parts >= 2;
}

#define VALUE_MAX 1024

/* A path, a URL or a file name: /dev/urandom, ~/.ssh/id_rsa, ./key.pem, C:\keys,
 * https://host/..., quoted or not. */
static bool path_or_url(const char *s, size_t n)
{
    if (s[0] == '/' || s[0] == '~' || (s[0] == '.' && n > 1 && (s[1] == '/' || s[1] == '.')))
        return true;
    if (n > 2 && is_alnum(s[0]) && s[1] == ':' && (s[2] == '\\' || s[2] == '/'))
        return true;
    return find(s, n, "://") != NULL;
}

static bool is_closer(char c)
{
    return c == ')' || c == ']' || c == '}' || c == '>';
}

/* An unquoted value that is code, not a literal: a call or index (os.getenv("X"),
 * os.environ["X"], Optional[str]), a literal or template that opens with a bracket ({...},
 * <your-token>, ${X}), an attribute (self.password), an identifier (apiKeyValue), also as the
 * last argument of a call or object (f(secret=hashedPw), {password: pw}), the next flag of a
 * command line (--inputbox). Brackets inside a value are no sign of code: aZ9{kQ2!mX7}pL. */
static bool looks_like_code(const char *s, size_t n)
{
    char c0 = s[0];
    if (c0 == '(' || c0 == '[' || c0 == '{' || c0 == '<' || c0 == '$' || is_closer(c0))
        return true;
    size_t k = 0;
    while (k < n && (is_word(s[k]) || s[k] == '.' || s[k] == ':'))
        k++;
    if (k > 0 && k < n && (s[k] == '(' || s[k] == '[') && !is_digit(s[0]))
        return true;
    size_t e = n;
    while (e > 0 && is_closer(s[e - 1]))
        e--;
    if (e < n && (rp_scan_identifier_shaped(s, e) || dotted_identifier(s, e)))
        return true;
    if (n > 2 && is_lower(s[0]) && s[1] == ':' && dotted_identifier(s + 2, n - 2))
        return true; /* a Vim script scope: a:dict.istemp */
    return (n >= 2 && s[0] == '-' && s[1] == '-') || rp_scan_identifier_shaped(s, n) ||
           dotted_identifier(s, n);
}

/* Closing brackets at the end of an unquoted value that it did not open: the end of the call or
 * object around the assignment, connect(password=Xk9mP2qL7vRw). */
static size_t strip_closers(const char *s, size_t n)
{
    while (n > 0 && is_closer(s[n - 1])) {
        char open = s[n - 1] == ')' ? '(' : s[n - 1] == ']' ? '[' : s[n - 1] == '}' ? '{' : '<';
        if (memchr(s, open, n - 1) != NULL)
            break;
        n--;
    }
    return n;
}

/* Base64 of readable text with spaces ("not my real password", base64-encoded): an encoded
 * phrase, not a random secret. Basic-auth "user:pass" (no space) still counts. */
static bool base64_of_prose(const char *s, size_t n)
{
    char tmp[VALUE_MAX];
    unsigned char out[VALUE_MAX];
    while (n > 0 && s[n - 1] == '=')
        n--;
    if (n < 12 || n > sizeof tmp)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!is_b64(c))
            return false;
        tmp[i] = c == '+' ? '-' : c == '/' ? '_' : c;
    }
    size_t k = rp_scan_base64url_decode(tmp, n, out);
    if (k == (size_t)-1)
        return false;
    bool space = false;
    for (size_t i = 0; i < k; i++) {
        if (out[i] < 0x20 || out[i] > 0x7e)
            return false;
        space |= out[i] == ' ';
    }
    return space;
}

/* Is the key segment s[0, n) (one word of a key name, any case) made only of the words
 * below, with a pagination word among them: page, nextPageToken's "next", "pagetoken",
 * "synctoken"? Whole words only, so NEXTAUTH, RSYNC and PAGERDUTY are not. */
static bool harmless_segment(const char *s, size_t n)
{
    static const char *const words[] = {"page",   "next",   "cursor", "continuation", "sync",
                                        "resume", "public", "token",  "key",          "id"};
    bool harmless = false;
    size_t i = 0;
    while (i < n) {
        size_t w = 0, m = 0;
        for (; w < sizeof words / sizeof words[0]; w++) {
            m = strlen(words[w]);
            size_t k = 0;
            while (k < m && i + k < n && lower(s[i + k]) == words[w][k])
                k++;
            if (k == m)
                break;
        }
        if (w == sizeof words / sizeof words[0])
            return false;
        harmless |= w < 7; /* not token, key or id alone */
        i += m;
    }
    return harmless;
}

/* Key names whose value is no generic secret: pagination cursors and the like are not
 * credentials, and an AWS secret label is the aws_secret_access_key rule's to decide (a
 * truncated or hex value under it is not a finding of either type). The name is split into
 * segments at '_', '-', '.' and camel humps (nextPageToken: next, Page, Token; APIKey: API, Key);
 * the words must be whole segments, not parts of others (NEXTAUTH_SECRET, RSYNC_PASSWORD). */
static bool harmless_key(const char *s, size_t n)
{
    size_t i = 0;
    bool aws = false, secret = false;
    while (i < n) {
        while (i < n && !is_alnum(s[i]))
            i++;
        size_t st = i;
        if (i < n && is_upper(s[i])) {
            while (i < n && is_upper(s[i]))
                i++;
            if (i < n && is_lower(s[i]) && i - st > 1)
                i--; /* APIKey: the last capital starts the next hump */
        }
        while (i < n && (is_lower(s[i]) || is_digit(s[i])))
            i++;
        size_t m = i - st;
        if (m == 0)
            break;
        if (harmless_segment(s + st, m))
            return true;
        /* aws_secret..., secret_access..., and the same written as one word */
        char w[16];
        size_t k = 0;
        for (; k < m && k < sizeof w - 1; k++)
            w[k] = lower(s[st + k]);
        w[k] = '\0';
        if ((aws && strcmp(w, "secret") == 0) || (secret && strcmp(w, "access") == 0) ||
            strncmp(w, "awssecret", 9) == 0 || strncmp(w, "secretaccess", 12) == 0)
            return true;
        aws = strcmp(w, "aws") == 0;
        secret = strcmp(w, "secret") == 0;
    }
    return false;
}

/* A template or format field standing for the value, not the value: "${ENV_PW}" or an
 * interpolation inside ("db_${SUFFIX}", "#{ENV['PW']}", "<%= pw %>", "{{ pw }}"), or a name in
 * one pair of delimiters ("{api_key}", "[API_KEY]", "(PRIVATE_KEY)", "@SIGNING_KEY@",
 * "%API_KEY%", "__TOKEN__", "{env.DB_PW}"), or a SOPS-encrypted value ("ENC[AES256_GCM,...]"). */
static bool template_value(const char *s, size_t n)
{
    if (find(s, n, "${") || find(s, n, "#{") || find(s, n, "{{") || find(s, n, "<%"))
        return true;
    if (n >= 4 && memcmp(s, "ENC[", 4) == 0 && s[n - 1] == ']')
        return true;
    static const char pairs[][2] = {{'{', '}'}, {'[', ']'}, {'(', ')'},
                                    {'<', '>'}, {'@', '@'}, {'%', '%'}};
    size_t w = 0;
    while (w < n / 2 && s[w] == '_' && s[n - 1 - w] == '_')
        w++; /* __TOKEN__ */
    if (w == 0) {
        for (size_t i = 0; i < sizeof pairs / sizeof pairs[0] && w == 0; i++)
            if (n > 2 && s[0] == pairs[i][0] && s[n - 1] == pairs[i][1])
                w = 1;
    }
    if (w == 0 || n <= 2 * w)
        return false;
    const char *in = s + w;
    size_t m = n - 2 * w;
    return rp_scan_identifier_shaped(in, m) || dotted_identifier(in, m);
}

/* The value that starts at i (after the separator and any blanks): quoted (",
 * ', `, or \" in a JSON-escaped string) up to its closing quote on the same
 * line, or unquoted up to a blank, a quote or a list/query separator. Emits it
 * when it is a credential. Returns where it ends. */
static size_t generic_value(rp_scan_job *job, size_t i)
{
    const char *t = job->text;
    size_t n = job->len;
    while (i < n && (t[i] == ' ' || t[i] == '\t'))
        i++;
    if (i >= n)
        return i;
    char q = 0;
    bool escaped = false, fstring = false;
    /* Python's prefixed literals: b'...', r"...", rb'...', f"..." */
    size_t p = i;
    while (p < n && p - i < 2 && t[p] != 0 && strchr("bBrRuUfF", t[p]))
        p++;
    if (p > i && p < n && (t[p] == '"' || t[p] == '\'')) {
        fstring = memchr(t + i, 'f', p - i) || memchr(t + i, 'F', p - i);
        i = p;
    }
    if (t[i] == '"' || t[i] == '\'' || t[i] == '`') {
        q = t[i++];
    } else if (t[i] == '\\' && i + 1 < n && (t[i + 1] == '"' || t[i + 1] == '\'')) {
        q = t[i + 1];
        escaped = true;
        i += 2;
    }
    size_t start = i, j = i, lim = n - i > VALUE_MAX ? i + VALUE_MAX : n;
    if (q) {
        while (j < lim && t[j] != '\n') {
            if (t[j] == '\\') {
                if (escaped && j + 1 < lim && t[j + 1] == q)
                    break;
                j += 2;
                continue;
            }
            if (t[j] == q && !escaped)
                break;
            j++;
        }
        if (j >= lim || t[j] == '\n')
            return j; /* unterminated: prose, not a literal */
        if (fstring && memchr(t + start, '{', j - start))
            return j; /* f"pw-{suffix}": interpolated */
    } else {
        /* a NUL ends the value too: no literal holds one */
        while (j < lim && !is_space(t[j]) && t[j] != 0 && !strchr("\"'`,;&\\", t[j]))
            j++;
        size_t e = j;
        while (e > start && (t[e - 1] == '.' || t[e - 1] == ':'))
            e--; /* sentence punctuation: "token: REQUIRED." */
        if (e == start || looks_like_code(t + start, e - start))
            return j;
        j = start + strip_closers(t + start, e - start);
    }
    size_t len = j - start;
    /* an escaped newline or tab inside: a multi-line string, prose, not a password */
    for (size_t k = start; k + 1 < j; k++)
        if (t[k] == '\\' && (t[k + 1] == 'n' || t[k + 1] == 'r' || t[k + 1] == 't'))
            return j;
    if (len == 0 || has_known_prefix(t + start, len) || path_or_url(t + start, len) ||
        base64_of_prose(t + start, len))
        return j;
    /* quoted words with separators are names too: "YOUR_API_KEY", 'i-am-the-worst' */
    if ((memchr(t + start, '_', len) || memchr(t + start, '-', len)) &&
        rp_scan_identifier_shaped(t + start, len))
        return j;
    /* the template and filler checks last: most values are rejected sooner */
    if (rp_scan_secret_value(t + start, len) && !template_value(t + start, len) &&
        !rp_scan_token_placeholder(t + start, len))
        rp_scan_emit(job, RP_SCAN_GENERIC_SECRET, start, j, RP_MASK_SECRET);
    return j;
}

/* The key name that ends before `sep` (skipping the quote that closes a quoted
 * key). */
static bool key_is_harmless(const rp_scan_job *job, size_t sep)
{
    const char *t = job->text;
    size_t ke = sep;
    while (ke > 0 && (t[ke - 1] == ' ' || t[ke - 1] == '\t' || t[ke - 1] == '"' ||
                      t[ke - 1] == '\'' || t[ke - 1] == '\\'))
        ke--;
    size_t ks = ke;
    while (ks > 0 && ke - ks < 128 && (is_word(t[ks - 1]) || t[ks - 1] == '-' || t[ks - 1] == '.'))
        ks--;
    return harmless_key(t + ks, ke - ks);
}

/* password=, api_key:, "token": ..., PASSWORD := ..., :password => ... */
static size_t extract_assignment(rp_scan_job *job, size_t end)
{
    const char *t = job->text;
    size_t i = end;
    char sep = t[end - 1];
    if (i < job->len) {
        if (t[i] == '=' && sep == '=')
            return end; /* a comparison, not an assignment */
        if (t[i] == ':' && sep == ':')
            return end; /* Password::Reset, a scope */
        if ((sep == '=' && t[i] == '>') || (sep == ':' && t[i] == '='))
            i++;
    }
    if (key_is_harmless(job, end - 1))
        return end;
    return generic_value(job, i);
}

/* --password VALUE, --api-key VALUE: a command-line flag and its separate
 * argument. */
static size_t extract_flag(rp_scan_job *job, size_t end)
{
    if (key_is_harmless(job, end - 1))
        return end;
    return generic_value(job, end);
}

/* ---- the rule table ---- */

#define CASELESS RP_SCAN_RULE_CASELESS

const rp_scan_rule rp_scan_secret_rules[] = {
    {RP_SCAN_AWS_ACCESS_KEY_ID, "A[KS]IA[A-Z0-9]{16}", 0, extract_aws_key_id},
    {RP_SCAN_AWS_SECRET_ACCESS_KEY, "aws[_ .-]?secret|secret[_ .-]?(?:access[_ .-]?)?key", CASELESS,
     extract_aws_secret_label},
    {RP_SCAN_GITHUB_TOKEN, "gh[pousr]_", 0, extract_github_classic},
    {RP_SCAN_GITHUB_TOKEN, "github_pat_", 0, extract_github_pat},
    {RP_SCAN_GITLAB_TOKEN, "gl(?:pat|dt|rt|ptt|ft|imt|soat|cbt|oas)-", 0, extract_gitlab},
    {RP_SCAN_SLACK_TOKEN, "xox[abposre]-|xapp-", 0, extract_slack_token},
    {RP_SCAN_SLACK_WEBHOOK, "hooks\\.slack\\.com/", 0, extract_slack_webhook},
    {RP_SCAN_STRIPE_KEY, "[sr]k_live_", 0, extract_stripe},
    {RP_SCAN_GOOGLE_API_KEY, "AIza", 0, extract_google},
    {RP_SCAN_OPENAI_API_KEY, "sk-", 0, extract_openai},
    {RP_SCAN_ANTHROPIC_API_KEY, "sk-ant-", 0, extract_anthropic},
    {RP_SCAN_NPM_TOKEN, "npm_", 0, extract_npm},
    {RP_SCAN_PRIVATE_KEY, "-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----", 0,
     extract_private_key},
    {RP_SCAN_JWT, "eyJ[A-Za-z0-9_-]{2,}\\.eyJ", 0, extract_jwt},
    {RP_SCAN_URL_PASSWORD, "://[^\\s/?#@\"'<>\\\\]*:[^\\s/?#@\"'<>\\\\]*@", 0,
     extract_url_password},
    {RP_SCAN_GENERIC_SECRET,
     "(?:passw(?:or)?d|passphrase|pwd|secret|token|api[_-]?key|"
     "(?:secret|private|access|auth|signing|encryption|master|client|app)[_-]?"
     "key)"
     "\\\\?[\"']?[ \\t]*[:=]",
     CASELESS, extract_assignment},
    {RP_SCAN_GENERIC_SECRET,
     "--[a-z-]{0,24}(?:password|passwd|passphrase|token|secret|api-?key)[ \\t]", CASELESS,
     extract_flag},
};
const size_t rp_scan_secret_rule_count =
    sizeof rp_scan_secret_rules / sizeof rp_scan_secret_rules[0];
