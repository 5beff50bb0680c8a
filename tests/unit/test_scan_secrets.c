/* test_scan_secrets.c — the scanner's secret extractors (src/scan/secrets.c) and their
 * validators (src/scan/validate_secret.c), end to end through rp_scanner_scan.
 *
 * Positives come from scan_secret_gen.h at run time and are dropped into the places secrets
 * leak through (a shell export, a curl header, JSON, YAML, .env, a Python string, a URL query);
 * each must be found with its exact span and nothing else. Hard negatives are what looks like a
 * secret and is not: documentation examples, placeholders, truncated or glued tokens, wrong
 * checksums, hashes, UUIDs, code that reads a secret from elsewhere. Everything secret-shaped
 * is assembled from pieces at run time, so no such string is committed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scan/scan.h"
#include "scan/validate_secret.h"
#include "scan_secret_gen.h"

static rp_scanner *scanner; /* every secret type */
static rp_arena arena;

static int setup(void **state)
{
    rp_scan_options opt = {.types = RP_SCAN_SECRETS_ALL, .cache_dir = ""};
    char err[256];
    if (rp_scanner_open(&opt, &scanner, err, sizeof err) != 0) {
        fprintf(stderr, "rp_scanner_open: %s\n", err);
        return -1;
    }
    rp_arena_init(&arena, 0);
    return 0;
}

static int teardown(void **state)
{
    rp_scanner_free(scanner);
    rp_arena_free(&arena);
    return 0;
}

static rp_scan_result scan_with(const rp_scanner *s, const char *text)
{
    rp_scan_result r;
    rp_arena_reset(&arena);
    assert_int_equal(rp_scanner_scan(s, &arena, text, strlen(text), &r), 0);
    return r;
}

static rp_scan_result scan(const char *text)
{
    return scan_with(scanner, text);
}

static void print_findings(const char *text, const rp_scan_result *r)
{
    fprintf(stderr, "text: %s\n", text);
    for (size_t i = 0; i < r->n; i++)
        fprintf(stderr, "  %s [%zu,%zu) %.*s\n", rp_scan_type_name(r->findings[i].type),
                r->findings[i].start, r->findings[i].end,
                (int)(r->findings[i].end - r->findings[i].start), text + r->findings[i].start);
}

/* text has exactly one finding: type over [start, end). */
static void expect_only(const char *text, rp_scan_type type, size_t start, size_t end)
{
    rp_scan_result r = scan(text);
    if (r.n == 1 && r.findings[0].type == type && r.findings[0].start == start &&
        r.findings[0].end == end)
        return;
    print_findings(text, &r);
    fail_msg("want exactly %s [%zu,%zu)", rp_scan_type_name(type), start, end);
}

/* text has exactly one finding: type over the first occurrence of sub. */
static void expect_only_sub(const char *text, rp_scan_type type, const char *sub)
{
    const char *p = strstr(text, sub);
    assert_non_null(p);
    expect_only(text, type, (size_t)(p - text), (size_t)(p - text) + strlen(sub));
}

static void expect_none(const char *text)
{
    rp_scan_result r = scan(text);
    if (r.n == 0)
        return;
    print_findings(text, &r);
    fail_msg("want no finding");
}

static bool has(const rp_scan_result *r, rp_scan_type type, size_t start, size_t end)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->findings[i].type == type && r->findings[i].start == start &&
            r->findings[i].end == end)
            return true;
    return false;
}

/* Concatenation at run time: the pieces of a secret-shaped string stay apart in the source. */
static const char *cat(char *buf, size_t cap, const char *a, const char *b, const char *c)
{
    snprintf(buf, cap, "%s%s%s", a, b, c ? c : "");
    return buf;
}

static void random_chars(uint64_t *seed, const char *alphabet, size_t n, char *out)
{
    rp_gen_buf b = {out, n + 1, 0, 1};
    rp_gen_chars(&b, seed, alphabet, n);
}

/* ---- generated positives in context ---- */

/* Where secrets leak. `plain` holds any self-describing token; aws_secret_access_key needs an
 * AWS label and generic_secret a password=/api_key= key, so they get `aws` and `generic`. */
typedef struct leak_context {
    const char *name;
    const char *plain, *aws, *generic;
    bool json_escape;  /* values go in a JSON string: newlines become \n */
    bool no_multiline; /* one-line contexts: no PEM blocks */
} leak_context;

static const leak_context contexts[] = {
    {"shell", "export SERVICE_CREDENTIAL=%s\n", "export AWS_SECRET_ACCESS_KEY=%s\n",
     "export DB_PASSWORD=%s\n", false, false},
    {"curl", "curl -sS -H \"Authorization: Bearer %s\" https://api.example.com/v1/me\n",
     "aws configure set aws_secret_access_key %s --profile prod\n",
     "curl -H \"X-Api-Key: %s\" https://api.example.com/v1/items\n", false, true},
    {"json", "{\"name\": \"svc\", \"credential\": \"%s\", \"enabled\": true}",
     "{\"AccessKeyId\": \"ASIA\", \"SecretAccessKey\": \"%s\", \"Expiration\": \"2026\"}",
     "{\"user\": \"etl\", \"password\": \"%s\", \"port\": 5432}", true, false},
    {"yaml", "service:\n  credential: %s\n  region: eu-west-1\n",
     "aws:\n  secret_access_key: %s\n  region: eu-west-1\n",
     "database:\n  host: db\n  password: %s\n", false, false},
    {"dotenv", "APP_ENV=production\nSERVICE_CREDENTIAL=%s\nDEBUG=false\n",
     "AWS_REGION=eu-west-1\nAWS_SECRET_ACCESS_KEY=%s\n", "APP_ENV=production\nAPI_KEY=%s\n", false,
     false},
    {"python", "client = Client(credential='%s', timeout=30)\n",
     "session = boto3.Session(aws_secret_access_key=\"%s\")\n", "api_key = \"%s\"\n", false, false},
    {"url", "GET https://api.example.com/v1/items?credential=%s&page=2 HTTP/1.1\n",
     "https://sts.example.com/?AWSSecretKey=%s&Version=2011\n",
     "https://api.example.com/login?user=bob&password=%s&next=/\n", false, true},
    {"cli flag", "deploy --credential %s --env prod\n", "aws_secret_access_key: %s\n",
     "mysql --host db --password %s --user root\n", false, true},
};

static size_t json_escape(const char *s, char *out, size_t cap)
{
    size_t k = 0;
    for (; *s && k + 3 < cap; s++) {
        if (*s == '\n') {
            out[k++] = '\\';
            out[k++] = 'n';
        } else {
            out[k++] = *s;
        }
    }
    out[k] = '\0';
    return k;
}

static void test_generated_in_context(void **state)
{
    uint64_t seed = 20261202;
    char value[RP_GEN_SECRET_MAX], escaped[2 * RP_GEN_SECRET_MAX], text[4 * RP_GEN_SECRET_MAX];
    size_t checked = 0;
    for (int t = RP_SCAN_FIRST_SECRET; t < RP_SCAN_N_TYPES; t++) {
        rp_scan_type type = (rp_scan_type)t;
        for (size_t c = 0; c < sizeof contexts / sizeof contexts[0]; c++) {
            const leak_context *ctx = &contexts[c];
            if (type == RP_SCAN_PRIVATE_KEY && ctx->no_multiline)
                continue;
            const char *fmt = type == RP_SCAN_AWS_SECRET_ACCESS_KEY ? ctx->aws
                              : type == RP_SCAN_GENERIC_SECRET      ? ctx->generic
                                                                    : ctx->plain;
            for (int rep = 0; rep < 40; rep++) {
                size_t n = rp_gen_secret(type, &seed, value, sizeof value);
                assert_true(n > 0);
                size_t vs, ve;
                rp_gen_secret_span(type, value, n, &vs, &ve);
                const char *v = value;
                if (ctx->json_escape && strchr(value, '\n')) {
                    /* the span moves with the escapes before and inside it */
                    char head[RP_GEN_SECRET_MAX];
                    memcpy(head, value, vs);
                    head[vs] = '\0';
                    char tmp[2 * RP_GEN_SECRET_MAX];
                    vs = json_escape(head, tmp, sizeof tmp);
                    memcpy(head, value, ve);
                    head[ve] = '\0';
                    ve = json_escape(head, tmp, sizeof tmp);
                    json_escape(value, escaped, sizeof escaped);
                    v = escaped;
                }
                int k = snprintf(text, sizeof text, fmt, v);
                assert_true(k > 0 && (size_t)k < sizeof text);
                size_t off = (size_t)(strstr(text, v) - text);
                rp_scan_result r = scan(text);
                if (r.n != 1 || !has(&r, type, off + vs, off + ve)) {
                    print_findings(text, &r);
                    fail_msg("%s in %s context: want exactly %s [%zu,%zu)", rp_scan_type_name(type),
                             ctx->name, rp_scan_type_name(type), off + vs, off + ve);
                }
                checked++;
            }
        }
    }
    assert_true(checked > 4000);
}

/* The finding's preview never shows the secret: at most a known prefix and the last 4. */
static void test_previews_are_masked(void **state)
{
    uint64_t seed = 99;
    char value[RP_GEN_SECRET_MAX], text[2 * RP_GEN_SECRET_MAX];
    for (int t = RP_SCAN_FIRST_SECRET; t < RP_SCAN_N_TYPES; t++) {
        size_t n = rp_gen_secret((rp_scan_type)t, &seed, value, sizeof value);
        snprintf(text, sizeof text, "%s%s\n",
                 t == RP_SCAN_AWS_SECRET_ACCESS_KEY ? "aws_secret_access_key="
                 : t == RP_SCAN_GENERIC_SECRET      ? "password="
                                                    : "v=",
                 value);
        rp_scan_result r = scan(text);
        assert_int_equal(r.n, 1);
        const rp_scan_finding *f = &r.findings[0];
        size_t len = f->end - f->start;
        assert_true(len > 8);
        /* no 8-byte window of the middle of the secret is in the preview */
        const char *sec = text + f->start;
        for (size_t i = len / 4; i + 8 <= len - 4; i++) {
            char win[9];
            memcpy(win, sec + i, 8);
            win[8] = '\0';
            if (strstr(f->preview, win) != NULL)
                fail_msg("%s preview '%s' shows '%s'", rp_scan_type_name(t), f->preview, win);
        }
        (void)n;
    }
}

/* ---- AWS ---- */

static void test_aws(void **state)
{
    char key[64], sec[64], text[512], buf[64];
    uint64_t seed = 1;
    rp_gen_secret(RP_SCAN_AWS_ACCESS_KEY_ID, &seed, key, sizeof key);
    rp_gen_secret(RP_SCAN_AWS_SECRET_ACCESS_KEY, &seed, sec, sizeof sec);

    /* a credentials CSV row: the id is the secret's AWS context */
    snprintf(text, sizeof text, "User name,Access key ID,Secret access key\nci,%s,%s\n", key, sec);
    rp_scan_result r = scan(text);
    size_t k0 = (size_t)(strstr(text, key) - text), s0 = (size_t)(strstr(text, sec) - text);
    assert_int_equal(r.n, 2);
    assert_true(has(&r, RP_SCAN_AWS_ACCESS_KEY_ID, k0, k0 + 20));
    assert_true(has(&r, RP_SCAN_AWS_SECRET_ACCESS_KEY, s0, s0 + 40));

    /* `aws configure` transcript, prompt defaults in brackets */
    snprintf(text, sizeof text,
             "AWS Access Key ID [None]: %s\nAWS Secret Access Key [None]: %s\nDefault region "
             "name [None]: eu-west-1\n",
             key, sec);
    r = scan(text);
    assert_int_equal(r.n, 2);

    /* a bare 40-character base64 string with no AWS context is nothing */
    snprintf(text, sizeof text, "checksum: %s\n", sec);
    expect_none(text);
    snprintf(text, sizeof text, "aws.secretKey=%s\n", sec); /* a Java properties label */
    s0 = (size_t)(strstr(text, sec) - text);
    expect_only(text, RP_SCAN_AWS_SECRET_ACCESS_KEY, s0, s0 + 40);

    /* AWS's documentation examples */
    snprintf(text, sizeof text, "aws_access_key_id = %s\n",
             cat(buf, sizeof buf, "AKIA", "IOSFODNN7", "EXAMPLE"));
    expect_none(text);
    snprintf(text, sizeof text, "aws_secret_access_key = %s\n",
             cat(buf, sizeof buf, "wJalrXUtnFEMI/K7MDENG/", "bPxRfiCY", "EXAMPLEKEY"));
    expect_none(text);
    snprintf(text, sizeof text, "%s %s\n", cat(buf, sizeof buf, "AKIA", "IOSFODNN7", "EXAMPLE"),
             sec);
    expect_none(text); /* an example id is no context either */
    /* placeholders */
    expect_none(cat(text, sizeof text, "key=AKIA", "XXXXXXXXXXXXXXXX", "\n"));
    expect_none(cat(text, sizeof text, "key=AKIA", "1234567890ABCDEF", "\n"));
    expect_none(cat(text, sizeof text, "key=AKIA", "0000000000000000", "\n"));
    /* a SHA-1 under an AWS label is not a secret key (one case, hex) */
    expect_none("aws_secret_access_key = 3f786850e387550fdab836ed7e6dc881de23001b\n");
    /* glued, truncated, longer */
    snprintf(text, sizeof text, "id=X%s\n", key);
    expect_none(text);
    snprintf(text, sizeof text, "id=%sQ\n", key);
    expect_none(text);
    snprintf(text, sizeof text, "id=%sabc\n", key);
    expect_none(text);
    snprintf(text, sizeof text, "id=%.19s\n", key);
    expect_none(text);
    snprintf(text, sizeof text, "aws_secret_access_key=%.39s\n", sec);
    expect_none(text);
    snprintf(text, sizeof text, "aws_secret_access_key=%sA\n", sec);
    expect_none(text);
    snprintf(text, sizeof text, "aws_secret_access_key=%s==\n", sec);
    expect_none(text);
    /* ASIA in prose and other AWS ids (AROA role ids are not credentials) */
    expect_none("ASIA PACIFIC REGION SALES REPORT 2026 Q3\n");
    expect_none("role id AROAJQABLZS4A3QDU576Q\n");
}

/* ---- GitHub ---- */

static void test_github(void **state)
{
    char tok[128], bad[128], text[512];
    uint64_t seed = 5;
    do
        rp_gen_secret(RP_SCAN_GITHUB_TOKEN, &seed, tok, sizeof tok);
    while (strlen(tok) != 40);
    assert_true(rp_scan_github_token(tok, 40));

    snprintf(text, sizeof text, "git clone https://x-access-token:%s@github.com/org/repo.git\n",
             tok);
    size_t t0 = (size_t)(strstr(text, tok) - text);
    expect_only(text, RP_SCAN_GITHUB_TOKEN, t0, t0 + 40); /* not also a url_password */
    snprintf(text, sizeof text, "GITHUB_TOKEN=%s\n", tok);
    expect_only(text, RP_SCAN_GITHUB_TOKEN, 13, 53);              /* not also a generic_secret */
    snprintf(text, sizeof text, "\"token\":\"line1\\n%s\"", tok); /* after a JSON escape */
    t0 = (size_t)(strstr(text, tok) - text);
    expect_only(text, RP_SCAN_GITHUB_TOKEN, t0, t0 + 40);

    /* wrong checksum: neither a GitHub token nor (assigned to token=) a generic secret */
    strcpy(bad, tok);
    bad[39] = bad[39] == 'a' ? 'b' : 'a';
    snprintf(text, sizeof text, "GITHUB_TOKEN=%s\n", bad);
    expect_none(text);
    strcpy(bad, tok);
    bad[10] = bad[10] == 'a' ? 'b' : 'a';
    snprintf(text, sizeof text, "token: %s\n", bad);
    expect_none(text);
    /* placeholder, truncated, glued */
    snprintf(text, sizeof text, "token: %s\n",
             cat(bad, sizeof bad, "gh", "p_", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"));
    expect_none(text);
    snprintf(text, sizeof text, "t %.39s\n", tok);
    expect_none(text);
    snprintf(text, sizeof text, "t x%s\n", tok);
    expect_none(text);
    snprintf(text, sizeof text, "t %s_v2\n", tok);
    expect_none(text);
    snprintf(text, sizeof text, "t %sZ\n", tok);
    expect_none(text);
    expect_none("the ghp_ prefix marks personal access tokens\n");

    /* fine-grained */
    do
        rp_gen_secret(RP_SCAN_GITHUB_TOKEN, &seed, tok, sizeof tok);
    while (strlen(tok) != 93);
    snprintf(text, sizeof text, "export GH_TOKEN='%s'\n", tok);
    expect_only(text, RP_SCAN_GITHUB_TOKEN, 17, 110);
    snprintf(text, sizeof text, "export GH_TOKEN='%.80s'\n", tok);
    expect_none(text);
}

/* ---- GitLab, Slack, Stripe, Google, OpenAI, Anthropic, npm ---- */

static void test_prefixed_tokens_negatives(void **state)
{
    char buf[256], text[512];
    uint64_t seed = 77;
    char body[128];

    /* GitLab */
    expect_none(cat(text, sizeof text, "token: gl", "pat-xxxxxxxxxxxxxxxxxxxx", "\n"));
    expect_none(cat(text, sizeof text, "token: gl", "pat-a1B2c3D4e5", "\n")); /* truncated */
    random_chars(&seed, RP_GEN_ALNUM, 20, body);
    expect_none(cat(text, sizeof text, "myglpat-", body, "\n")); /* glued */
    snprintf(text, sizeof text, "CI_TOKEN=%s%s\n",
             "gl"
             "pat-",
             body);
    expect_only(text, RP_SCAN_GITLAB_TOKEN, 9, 35);
    snprintf(text, sizeof text, "see %s%s.\n",
             "gl"
             "pat-",
             body); /* sentence end */
    expect_only(text, RP_SCAN_GITLAB_TOKEN, 4, 30);

    /* Slack */
    expect_none(cat(text, sizeof text, "SLACK_TOKEN=xo", "xb-xxxxxxxxxxxx-xxxxxxxxxxxxx", "\n"));
    expect_none(
        cat(text, sizeof text, "xo", "xb-0000000000-0000000000-abcdefghijklmnopqrstuvwx", "\n"));
    expect_none(cat(text, sizeof text, "xo", "xp-123-456-789-abc", "\n"));
    expect_none(cat(text, sizeof text, "webhook: https://hooks.sl",
                    "ack.com/services/T00000000/B00000000/", "XXXXXXXXXXXXXXXXXXXXXXXX\n"));
    expect_none("docs: https://api.slack.com/messaging/webhooks and hooks.slack.com/services/\n");
    random_chars(&seed, RP_GEN_ALNUM, 24, body);
    snprintf(text, sizeof text, "url=https://hooks.%s/services/T024BE7LD/B01ABCD2EFG/%s\n",
             "sl"
             "ack.com",
             body);
    expect_only(text, RP_SCAN_SLACK_WEBHOOK, 4, strlen(text) - 1);
    snprintf(text, sizeof text, "url=https://hooks.%s/services/T024BE7LD/B01ABCD2EFG/%.20s\n",
             "sl"
             "ack.com",
             body);
    expect_none(text); /* truncated secret */

    /* Stripe: test and publishable keys are not secrets */
    random_chars(&seed, RP_GEN_ALNUM, 24, body);
    const char *not_secret[] = {"sk_"
                                "test_",
                                "pk_"
                                "test_",
                                "pk_"
                                "live_",
                                "rk_"
                                "test_"};
    for (size_t i = 0; i < 4; i++) {
        snprintf(text, sizeof text, "STRIPE_KEY=%s%s\n", not_secret[i], body);
        expect_none(text);
    }
    snprintf(text, sizeof text, "STRIPE_KEY=%s%s\n",
             "sk_"
             "live_",
             "xxxxxxxxxxxxxxxxxxxxxxxx");
    expect_none(text);
    snprintf(text, sizeof text, "STRIPE_KEY=%s%.12s\n",
             "sk_"
             "live_",
             body); /* truncated */
    expect_none(text);

    /* Google */
    random_chars(&seed, RP_GEN_ALNUM, 36, body);
    snprintf(text, sizeof text, "key=%s%.34s\n",
             "AI"
             "za",
             body);
    expect_none(text);
    snprintf(text, sizeof text, "key=%s%.36s\n",
             "AI"
             "za",
             body);
    expect_none(text);
    snprintf(text, sizeof text, "key=%s%.35s\n",
             "AI"
             "za",
             body);
    expect_only(text, RP_SCAN_GOOGLE_API_KEY, 4, 43);
    snprintf(text, sizeof text, "key=x%s%.35s\n",
             "AI"
             "za",
             body);
    expect_none(text);

    /* OpenAI */
    random_chars(&seed, RP_GEN_ALNUM, 48, body);
    snprintf(text, sizeof text, "OPENAI_API_KEY=%s%.20s\n",
             "sk"
             "-",
             body);
    expect_none(text);
    snprintf(text, sizeof text, "OPENAI_API_KEY=%s%s\n",
             "sk"
             "-",
             body);
    expect_only(text, RP_SCAN_OPENAI_API_KEY, 15, 66);
    snprintf(text, sizeof text, "key %s%s\n",
             "sk"
             "-",
             "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
    expect_none(text);
    expect_none("a risk-free, task-based, desk-bound plan; sk-learn is scikit-learn\n");
    random_chars(&seed, RP_GEN_HEX, 32, body);
    snprintf(text, sizeof text, "key %s%s\n",
             "sk"
             "-",
             body); /* another vendor's shape */
    expect_none(text);

    /* Anthropic */
    snprintf(text, sizeof text, "ANTHROPIC_API_KEY=%s%s\n",
             "sk"
             "-ant-",
             "api03-xxxxxxxx");
    expect_none(text);
    snprintf(text, sizeof text, "ANTHROPIC_API_KEY=%s%s%s\n",
             "sk"
             "-ant-",
             "api03-",
             "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
    expect_none(text);

    /* npm */
    expect_none("npm_config_cache=/tmp/.npm npm_lifecycle_event=test\n");
    random_chars(&seed, RP_GEN_ALNUM, 35, body);
    snprintf(text, sizeof text, "//registry.npmjs.org/:_authToken=%s%s\n",
             "np"
             "m_",
             body);
    expect_none(text);
    (void)buf;
}

/* ---- private keys ---- */

static void test_private_key(void **state)
{
    char pem[RP_GEN_SECRET_MAX], text[4 * RP_GEN_SECRET_MAX], esc[2 * RP_GEN_SECRET_MAX];
    uint64_t seed = 3;
    size_t n = rp_gen_secret(RP_SCAN_PRIVATE_KEY, &seed, pem, sizeof pem);

    /* a truncated paste with no END line: the key is its body */
    char *end_line = strstr(pem, "-----END");
    size_t cut = (size_t)(end_line - pem);
    snprintf(text, sizeof text, "here is my key:\n%.*s", (int)cut, pem);
    expect_only(text, RP_SCAN_PRIVATE_KEY, 16, 16 + cut - 1); /* without the last newline */

    /* a service-account JSON: escaped newlines, the key under "private_key" */
    json_escape(pem, esc, sizeof esc);
    snprintf(text, sizeof text, "{\"type\": \"service_account\", \"private_key\": \"%s\\n\"}", esc);
    size_t e0 = (size_t)(strstr(text, esc) - text);
    expect_only(text, RP_SCAN_PRIVATE_KEY, e0, e0 + strlen(esc));

    /* an encrypted PEM with RFC 1421 headers */
    snprintf(text, sizeof text, "%s", pem);
    char *body = strchr(text, '\n') + 1;
    char rest[RP_GEN_SECRET_MAX];
    snprintf(rest, sizeof rest, "%s", body);
    snprintf(body, sizeof text - (size_t)(body - text),
             "Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-256-CBC,3F2A9B0C1D2E3F40\n\n%s", rest);
    expect_only(text, RP_SCAN_PRIVATE_KEY, 0, strlen(text));

    /* documentation shapes: no body, an elided body, a placeholder */
    const char *begin = "-----"
                        "BEGIN RSA PRIVATE KEY-----";
    const char *end = "-----"
                      "END RSA PRIVATE KEY-----";
    snprintf(text, sizeof text, "%s\n...\n%s\n", begin, end);
    expect_none(text);
    snprintf(text, sizeof text, "%s\n%s\n", begin, end);
    expect_none(text);
    snprintf(text, sizeof text, "%s\nMIIEpAIBAAKCAQEA...\n...base64...\n%s\n", begin, end);
    expect_none(text);
    snprintf(text, sizeof text, "%s\n<your private key here>\n%s\n", begin, end);
    expect_none(text);
    snprintf(text, sizeof text,
             "%s\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n"
             "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n%s\n",
             begin, end);
    expect_none(text);
    snprintf(text, sizeof text, "Set PRIVATE_KEY to the contents of %s ... %s.\n", begin, end);
    expect_none(text);
    /* public keys and certificates are not secrets */
    snprintf(text, sizeof text, "%s", pem);
    char *p;
    while ((p = strstr(text, "PRIVATE")) != NULL)
        memcpy(p, "PUBLIC ", 7);
    expect_none(text);
    (void)n;
}

/* ---- JWT ---- */

static void jwt_from(char *out, size_t cap, const char *header, const char *payload,
                     const char *sig)
{
    rp_gen_buf b = {out, cap, 0, 1};
    rp_gen_base64url(&b, (const unsigned char *)header, strlen(header));
    rp_gen_put(&b, ".");
    rp_gen_base64url(&b, (const unsigned char *)payload, strlen(payload));
    rp_gen_put(&b, ".");
    rp_gen_put(&b, sig);
}

static void test_jwt(void **state)
{
    char tok[1024], text[2048], sig[64];
    uint64_t seed = 11;
    random_chars(&seed, RP_GEN_B64URL, 43, sig);
    const char *hdr = "{\"alg\":\"HS256\",\"typ\":\"JWT\"}";

    jwt_from(tok, sizeof tok, hdr, "{\"sub\":\"u-829\",\"role\":\"admin\"}", sig);
    snprintf(text, sizeof text, "Authorization: Bearer %s\r\n", tok);
    expect_only(text, RP_SCAN_JWT, 22, 22 + strlen(tok));
    snprintf(text, sizeof text, "the token is %s.", tok); /* sentence end */
    expect_only(text, RP_SCAN_JWT, 13, 13 + strlen(tok));
    snprintf(text, sizeof text, "id_token=%s&state=af0ifjsldkj", tok);
    expect_only(text, RP_SCAN_JWT, 9, 9 + strlen(tok)); /* not also generic */

    /* the jwt.io sample (both its old and new payloads) */
    jwt_from(tok, sizeof tok, hdr,
             "{\"sub\":\"1234567890\",\"name\":\"John Doe\",\"iat\":1516239022}", sig);
    snprintf(text, sizeof text, "Bearer %s\n", tok);
    expect_none(text);
    jwt_from(tok, sizeof tok, hdr,
             "{\"sub\":\"1234567890\",\"name\":\"John Doe\",\"admin\":true,\"iat\":1516239022}",
             sig);
    snprintf(text, sizeof text, "Bearer %s\n", tok);
    expect_none(text);
    /* no "alg", a header that is not JSON, a payload that is not JSON */
    jwt_from(tok, sizeof tok, "{\"typ\":\"JWT\"}", "{\"sub\":\"u\"}", sig);
    snprintf(text, sizeof text, "Bearer %s\n", tok);
    expect_none(text);
    jwt_from(tok, sizeof tok, "{\"alg\" HS256 garbage", "{\"sub\":\"u\"}", sig);
    snprintf(text, sizeof text, "Bearer %s\n", tok);
    expect_none(text);
    jwt_from(tok, sizeof tok, hdr, "{\"sub\" not json at all", sig);
    snprintf(text, sizeof text, "Bearer %s\n", tok);
    expect_none(text);
    /* two parts only, a JWE-like fifth part, glued */
    jwt_from(tok, sizeof tok, hdr, "{\"sub\":\"u-829\"}", sig);
    char *last_dot = strrchr(tok, '.');
    snprintf(text, sizeof text, "Bearer %.*s\n", (int)(last_dot - tok), tok);
    expect_none(text);
    snprintf(text, sizeof text, "Bearer %s.%s.%s\n", tok, sig, sig);
    expect_none(text);
    snprintf(text, sizeof text, "Bearer x%s\n", tok);
    expect_none(text);
    /* unsigned (alg none) tokens end in a dot and are tokens all the same */
    jwt_from(tok, sizeof tok, "{\"alg\":\"none\"}", "{\"sub\":\"u-829\"}", "");
    snprintf(text, sizeof text, "Bearer %s \n", tok);
    expect_only(text, RP_SCAN_JWT, 7, 7 + strlen(tok));
}

/* ---- URLs with passwords ---- */

static void test_url_password(void **state)
{
    expect_only_sub("DATABASE_URL=postgres://app:Xk9vQ2mLp7Rt@db.internal:5432/app\n",
                    RP_SCAN_URL_PASSWORD, "Xk9vQ2mLp7Rt");
    expect_only_sub("redis://:h7Gq2LmX9vR4@cache:6379/0", RP_SCAN_URL_PASSWORD, "h7Gq2LmX9vR4");
    /* an unencoded '@' in the password: the userinfo ends at the last one */
    expect_only_sub("mongodb://root:p@ss-W0rd-9q@mongo.svc/admin", RP_SCAN_URL_PASSWORD,
                    "p@ss-W0rd-9q");
    expect_only_sub("conn = 'mysql://etl:Tr0ub4dor&3@10.1.2.3/warehouse'", RP_SCAN_URL_PASSWORD,
                    "Tr0ub4dor&3");

    /* redaction keeps scheme, user and host */
    const char *text = "url: https://deploy:Qw7Zp3Lk9Xr2@git.corp.io/org.git";
    rp_scan_result r = scan(text);
    assert_int_equal(r.n, 1);
    size_t len;
    char *red = rp_scan_redact(&arena, text, strlen(text), r.findings, r.n, &len);
    assert_string_equal(red, "url: https://deploy:[REDACTED:url_password]@git.corp.io/org.git");

    static const char *const no[] = {
        "postgres://user:password@localhost:5432/db",
        "https://user:${GIT_PASSWORD}@github.com/org/repo",
        "https://user:$TOKEN@github.com/org/repo",
        "redis://:****@cache:6379",
        "mysql://<user>:<password>@<host>/<db>",
        "amqp://guest:{{ rabbit_password }}@mq/",
        "https://admin:changeme@router.local/",
        "ftp://anonymous:@ftp.example.org/pub",
        "ssh://git@github.com:22/org/repo.git",
        "http://localhost:8080/path?q=a@b",
        "http://user:pass@host/",
        "proxy http://localhost:8080@evil.example/",
        "s3://bucket/key:with:colons@v2",
        "email me at bob@example.com: https://example.com",
        "postgres://postgres:postgres@",
        "cvs://:pserver:anoncvs@sources.redhat.com:/cvs/src",
        "new URL('https://abc:xyz@example.com')",
    };
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        expect_none(no[i]);
}

/* ---- generic assignments ---- */

static void test_generic_forms(void **state)
{
    const char *v = "q8Zr!T4m#Lx2Pw9s";
    static const struct {
        const char *fmt;
    } forms[] = {
        {"password=%s\n"},
        {"PASSWORD: %s\n"},
        {"  db_passwd: '%s'\n"},
        {"\"password\": \"%s\","},
        {"{\\\"password\\\": \\\"%s\\\"}"}, /* a JSON string inside a JSON string */
        {"api_key = \"%s\"\n"},
        {"X-API-KEY: %s\r\n"},
        {"apikey=%s&format=json"},
        {"client_secret := %s\n"},
        {"'secret' => '%s',\n"},
        {"access_token: %s\n"},
        {"auth_token=`%s`\n"},
        {"SECRET_KEY = '%s'\n"},
        {"private_key=%s\n"},
        {"mysql --user root --password=%s db\n"},
        {"psql --password %s\n"},
        {"Passphrase: %s\n"},
        {"Server=db;Uid=sa;Pwd=%s;Database=app"},
    };
    char text[256];
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        snprintf(text, sizeof text, forms[i].fmt, v);
        size_t s0 = (size_t)(strstr(text, v) - text);
        expect_only(text, RP_SCAN_GENERIC_SECRET, s0, s0 + strlen(v));
    }
}

static void test_generic_negatives(void **state)
{
    char text[256], body[64];
    uint64_t seed = 4;
    static const char *const no[] = {
        "password=${DB_PASSWORD}\n", "password: \"********\"\n",
        "api_key = os.environ[\"API_KEY\"]\n", "api_key = os.getenv(\"API_KEY\")\n",
        "token = request.headers[\"X-Token\"]\n", "password = self.password\n",
        "secret = settings.SECRET_KEY\n", "const apiKey = process.env.API_KEY;\n",
        "PASSWORD=changeme\n", "password=password123\n", "password: Summer2024\n",
        "token: <your-token>\n", "secret: {{ .Values.secret }}\n", "api_key: API_KEY_FROM_ENV\n",
        "api_key: \"YOUR_API_KEY_HERE\"\n", "password = \"MY_DB_PASSWORD_VAR\"\n",
        "token = authHeaderValue\n", "if password == \"hunter2hunter2\":\n",
        "password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n", "max_tokens: 4096\n",
        "\"password\": \"\",\n", "password=$PASS\n", "mysql --password $DB_PASS\n",
        "PWD=/home/runner/work/project\n", "OLDPWD=/usr/local/lib/python3.12\n",
        "secret: my-k8s-secret-name\n", "token_type: bearer\n", "Password::Reset.new(user)\n",
        "The password: it must be at least 12 characters long.\n",
        "password_hash: $2b$12$KIXQxXv0Yt2v3FhM1xQx1eC9eC5m5o1m2p3q4r5s6t7u8v9w0x1y2\n",
        "token_url: https://auth.example.com/oauth/token\n",
        "secret_file=/run/secrets/db_password\n", "callback_token=https://example.com/cb?x=1\n",
        "api_key = config.get('api_key')\n", "password = 'xxxxxxxxxxxx'\n", "password = '%s'\n",
        "secret = 'TODO: fill me in'\n",
        /* found in documentation and library code */
        "std::string& __token = \"/dev/urandom\"\n",
        "'Pod::Simple::PullParserToken'=> 'https://github.com/perl-pod/pod-simple/issues',\n",
        "    \"OLDPWD\": \"/home/nodeuser/project/node/src\",\n",
        ":param token: REQUIRED.  The token that the client obtained.\n",
        "@NL80211_ATTR_TDLS_DIALOG_TOKEN: Non-zero token for uniquely identifying\n",
        "$_[0]='--password --inputbox'\n",
        "libpub.unpublish('lodash', { token: 'i-am-the-worst'})\n",
        "private_key: \"_RSAPrivateKey\",\n", "  let pwd = a:dict.istemp ? a:dict.tmpdir : ''\n",
        "password: 'bm90IG15IHJlYWwgcGFzc3dvcmQ=',\n", /* base64 of "not my real password" */
    };
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        expect_none(no[i]);
    /* pagination cursors are random but not credentials */
    random_chars(&seed, RP_GEN_ALNUM, 32, body);
    snprintf(text, sizeof text, "{\"nextPageToken\": \"%s\"}", body);
    expect_none(text);
    snprintf(text, sizeof text, "page_token=%s\n", body);
    expect_none(text);
    /* hashes and UUIDs without a password label are nothing at all */
    expect_none("commit 3f786850e387550fdab836ed7e6dc881de23001b\n");
    expect_none("sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\n");
    expect_none("request-id: 550e8400-e29b-41d4-a716-446655440000\n");
    expect_none("integrity=\"sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/"
                "SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==\"\n");
}

/* Only the enabled types are reported, and the secret rules fire on nothing for PII-only. */
static void test_type_selection(void **state)
{
    char tok[64], key[64], text[256];
    uint64_t seed = 8;
    rp_gen_secret(RP_SCAN_NPM_TOKEN, &seed, tok, sizeof tok);
    rp_gen_secret(RP_SCAN_AWS_ACCESS_KEY_ID, &seed, key, sizeof key);
    snprintf(text, sizeof text, "token=%s id=%s password=Zq8!rT4mLx2Pw9sK\n", tok, key);
    rp_scan_options opt = {.types = RP_SCAN_BIT(RP_SCAN_NPM_TOKEN), .cache_dir = ""};
    rp_scanner *only_npm;
    char err[128];
    assert_int_equal(rp_scanner_open(&opt, &only_npm, err, sizeof err), 0);
    rp_scan_result r = scan_with(only_npm, text);
    assert_int_equal(r.n, 1);
    assert_int_equal(r.findings[0].type, RP_SCAN_NPM_TOKEN);
    rp_scanner_free(only_npm);
    r = scan(text);
    assert_int_equal(r.n, 3);
}

/* ---- robustness ---- */

/* Every prefix of a text full of secrets, in an exactly-sized heap buffer (so that a read past
 * the end is caught by ASan): extractors must respect the length they are given, and whatever
 * they report lies inside it. */
static void test_every_truncation(void **state)
{
    uint64_t seed = 31337;
    char value[RP_GEN_SECRET_MAX], text[16384];
    size_t n = 0;
    for (int t = RP_SCAN_FIRST_SECRET; t < RP_SCAN_N_TYPES; t++) {
        rp_gen_secret((rp_scan_type)t, &seed, value, sizeof value);
        const char *label = t == RP_SCAN_AWS_SECRET_ACCESS_KEY ? "aws_secret_access_key: \""
                            : t == RP_SCAN_GENERIC_SECRET      ? "{\\\"password\\\": \\\""
                                                               : "x=";
        n += (size_t)snprintf(text + n, sizeof text - n, "%s%s%s\n", label, value,
                              t == RP_SCAN_GENERIC_SECRET ? "\\\"}" : "");
    }
    rp_scan_result full = scan(text);
    assert_int_equal(full.n, RP_SCAN_N_TYPES - RP_SCAN_FIRST_SECRET);
    for (size_t k = 0; k <= n; k++) {
        char *copy = malloc(k ? k : 1);
        memcpy(copy, text, k);
        rp_scan_result r;
        rp_arena_reset(&arena);
        assert_int_equal(rp_scanner_scan(scanner, &arena, copy, k, &r), 0);
        for (size_t i = 0; i < r.n; i++)
            assert_true(r.findings[i].start < r.findings[i].end && r.findings[i].end <= k);
        free(copy);
    }
}

/* Random soup of triggers, token characters and separators: no crash, spans in bounds. */
static void test_trigger_soup(void **state)
{
    static const char *const pieces[] = {
        "AKIA",
        "ASIA",
        "gh",
        "p_",
        "github_pat_",
        "glpat-",
        "xoxb-",
        "xoxe.",
        "hooks.slack.com/",
        "services/",
        "sk_live_",
        "AIza",
        "sk-",
        "sk-ant-",
        "api03-",
        "npm_",
        "-----BEGIN",
        " PRIVATE KEY-----",
        "-----END",
        "eyJ",
        ".",
        "://",
        ":",
        "@",
        "password",
        "=",
        "\"",
        "'",
        "\\",
        "\\n",
        "\n",
        " ",
        "--token ",
        "secret_access_key",
        "[None]",
        "/",
        "+",
        "-",
        "_",
        "0000",
        "Zq8r",
        "T3BlbkFJ",
        "A1b2C3d4E5f6G7h8",
        "{",
        "}",
        "$",
        "%3D",
    };
    uint64_t seed = 4242;
    char text[2048];
    for (int round = 0; round < 3000; round++) {
        size_t n = 0;
        while (n < 1500) {
            const char *p = pieces[rp_gen_below(&seed, sizeof pieces / sizeof pieces[0])];
            size_t m = strlen(p);
            memcpy(text + n, p, m);
            n += m;
            if (rp_gen_below(&seed, 3) == 0) {
                rp_gen_buf b = {text + n, sizeof text - n, 0, 1};
                rp_gen_chars(&b, &seed, RP_GEN_B64, rp_gen_below(&seed, 50));
                n += b.n;
            }
        }
        char *copy = malloc(n);
        memcpy(copy, text, n);
        rp_scan_result r;
        rp_arena_reset(&arena);
        assert_int_equal(rp_scanner_scan(scanner, &arena, copy, n, &r), 0);
        for (size_t i = 0; i < r.n; i++)
            assert_true(r.findings[i].start < r.findings[i].end && r.findings[i].end <= n);
        free(copy);
    }
}

/* Texts made of one trigger repeated stay linear: each extractor looks only as far as the
 * token it examines (a PEM BEGIN line without END used to search 64 KiB per line). */
static void test_repeated_triggers_are_linear(void **state)
{
    static const char *const units[] = {
        "-----BEGIN PRIVATE KEY-----",
        "eyJhbGciOiJIUzI1NiJ9.eyJ",
        "://a:b@",
        "password=",
        "secret_access_key ",
        "--password ",
        "hooks.slack.com/",
        "sk-",
        "AKIA",
    };
    size_t n = 200 * 1024;
    char *text = malloc(n);
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        size_t m = strlen(units[u]);
        for (size_t i = 0; i < n; i++)
            text[i] = units[u][i % m];
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        rp_scan_result r;
        rp_arena_reset(&arena);
        assert_int_equal(rp_scanner_scan(scanner, &arena, text, n, &r), 0);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
        /* ~1-3 ms optimised, a few times that with sanitizers; quadratic was ~1 s */
        if (ms > 250)
            fail_msg("'%s' x %zu: %.0f ms", units[u], n / m, ms);
    }
    free(text);
}

/* ---- fixes from the review of the extractors (/tmp/review-secrets.md, C1-C10) ---- */

/* 300 key id, secret pairs: every one once, no duplicates filling the findings cap. */
static void test_aws_pairs_not_duplicated(void **state)
{
    enum { PAIRS = 300 };
    static char text[PAIRS * 64];
    static size_t key_at[PAIRS], sec_at[PAIRS];
    size_t n = 0;
    uint64_t seed = 300;
    for (size_t i = 0; i < PAIRS; i++) {
        char key[RP_GEN_SECRET_MAX], sec[RP_GEN_SECRET_MAX];
        rp_gen_secret(RP_SCAN_AWS_ACCESS_KEY_ID, &seed, key, sizeof key);
        rp_gen_secret(RP_SCAN_AWS_SECRET_ACCESS_KEY, &seed, sec, sizeof sec);
        key_at[i] = n;
        sec_at[i] = n + 21;
        n += (size_t)snprintf(text + n, sizeof text - n, "%s,%s\n", key, sec);
    }
    rp_scan_result r;
    rp_arena_reset(&arena);
    assert_int_equal(rp_scanner_scan(scanner, &arena, text, n, &r), 0);
    assert_false(r.truncated);
    assert_int_equal(r.n, 2 * PAIRS);
    for (size_t i = 0; i < PAIRS; i++) {
        assert_true(has(&r, RP_SCAN_AWS_ACCESS_KEY_ID, key_at[i], key_at[i] + 20));
        assert_true(has(&r, RP_SCAN_AWS_SECRET_ACCESS_KEY, sec_at[i], sec_at[i] + 40));
    }
}

/* Tokens whose alphabet has '-' may end in one; the whole token is the finding. */
static void test_trailing_dash(void **state)
{
    char body[160], tok[256], text[512];
    uint64_t seed = 45;
    for (int round = 0; round < 8; round++) {
        random_chars(&seed, RP_GEN_B64URL, 34, body);
        cat(tok, sizeof tok, "AI", "za", body);
        strcat(tok, "-");
        snprintf(text, sizeof text, "k=%s", tok);
        expect_only_sub(text, RP_SCAN_GOOGLE_API_KEY, tok);
        snprintf(text, sizeof text, "key: %s\n", tok);
        expect_only_sub(text, RP_SCAN_GOOGLE_API_KEY, tok);

        random_chars(&seed, RP_GEN_ALNUM, 19, body);
        cat(tok, sizeof tok, "gl", "pat-", body);
        strcat(tok, "-");
        snprintf(text, sizeof text, "x %s y", tok);
        expect_only_sub(text, RP_SCAN_GITLAB_TOKEN, tok);

        random_chars(&seed, RP_GEN_ALNUM, 63, body);
        cat(tok, sizeof tok, "sk", "-proj-", body);
        strcat(tok, "-");
        snprintf(text, sizeof text, "OPENAI_API_KEY=%s\n", tok);
        expect_only_sub(text, RP_SCAN_OPENAI_API_KEY, tok);
    }
    /* a final '.' is sentence punctuation; a '-' before it is the token's when the token is
     * valid with it (a variable-length body cannot tell the two apart) */
    random_chars(&seed, RP_GEN_ALNUM, 20, body);
    cat(tok, sizeof tok, "gl", "pat-", body);
    snprintf(text, sizeof text, "use %s. done", tok);
    expect_only_sub(text, RP_SCAN_GITLAB_TOKEN, tok);
    snprintf(text, sizeof text, "use %s-. done", tok);
    expect_only(text, RP_SCAN_GITLAB_TOKEN, 4, 4 + strlen(tok) + 1);
    /* a body one short of the minimum with a trailing '-': the '-' makes it valid */
    random_chars(&seed, RP_GEN_ALNUM, 19, body);
    cat(tok, sizeof tok, "gl", "pat-", body);
    snprintf(text, sizeof text, "use %s--. done", tok);
    expect_only(text, RP_SCAN_GITLAB_TOKEN, 4, 4 + strlen(tok) + 2);
    snprintf(text, sizeof text, "use %s. done", tok);
    expect_none(text);
}

/* Escapes before a token are boundaries: "\n", "\t", "%3D" and "%3d". */
static void test_escape_before_token(void **state)
{
    char body[64], tok[1024], text[2048], sig[64];
    uint64_t seed = 33;
    random_chars(&seed, RP_GEN_ALNUM, 20, body);
    cat(tok, sizeof tok, "gl", "pat-", body);
    static const char *const gl_forms[] = {"{\"msg\":\"token\\n%s\"}", "{\"msg\":\"a\\t%s\"}",
                                           "url?a=1%%3d%s", "url?a=1%%3D%s", "a\\r%s"};
    for (size_t i = 0; i < sizeof gl_forms / sizeof gl_forms[0]; i++) {
        snprintf(text, sizeof text, gl_forms[i], tok);
        expect_only_sub(text, RP_SCAN_GITLAB_TOKEN, tok);
    }
    /* other GitLab prefixes, of 5 and 7 bytes */
    cat(tok, sizeof tok, "gl", "rt-", body);
    snprintf(text, sizeof text, "a\\n%s", tok);
    expect_only_sub(text, RP_SCAN_GITLAB_TOKEN, tok);
    cat(tok, sizeof tok, "gl", "soat-", body);
    snprintf(text, sizeof text, "a%%3d%s", tok);
    expect_only_sub(text, RP_SCAN_GITLAB_TOKEN, tok);
    /* glued to letters (not an escape): no token */
    cat(tok, sizeof tok, "xgl", "pat-", body);
    expect_none(tok);

    random_chars(&seed, RP_GEN_B64URL, 43, sig);
    jwt_from(tok, sizeof tok, "{\"alg\":\"HS256\",\"typ\":\"JWT\"}", "{\"sub\":\"u-829\"}", sig);
    static const char *const jwt_forms[] = {"{\"log\":\"auth ok\\n%s\"}", "cookie=x%%3D%s",
                                            "cb%%3Ftoken%%3d%s", "a\\t%s"};
    for (size_t i = 0; i < sizeof jwt_forms / sizeof jwt_forms[0]; i++) {
        snprintf(text, sizeof text, jwt_forms[i], tok);
        expect_only_sub(text, RP_SCAN_JWT, tok);
    }
    snprintf(text, sizeof text, "Bearer ab%s\n", tok); /* glued */
    expect_none(text);
}

/* The harmless words of key names are whole segments, not substrings. */
static void test_harmless_key_segments(void **state)
{
    static const char *const found[] = {"NEXTAUTH_SECRET",         "RSYNC_PASSWORD",
                                        "PAGERDUTY_API_KEY",       "NEXTCLOUD_ADMIN_PASSWORD",
                                        "PUBLICATION_DB_PASSWORD", "SYNCTHING_API_KEY"};
    static const char *const harmless[] = {
        "nextPageToken", "next_token",  "page_token", "PageToken",    "pagetoken",
        "sync_token",    "resumeToken", "PUBLIC_KEY", "cursor_token", "continuationToken"};
    char text[256];
    const char *value = "Kq82mXpL9zQ7wR3tY5uI";
    for (size_t i = 0; i < sizeof found / sizeof found[0]; i++) {
        snprintf(text, sizeof text, "%s=%s\n", found[i], value);
        expect_only_sub(text, RP_SCAN_GENERIC_SECRET, value);
    }
    for (size_t i = 0; i < sizeof harmless / sizeof harmless[0]; i++) {
        snprintf(text, sizeof text, "%s=%s\n", harmless[i], value);
        expect_none(text);
    }
}

/* Placeholders written as words, templates and fillers are no secrets. */
static void test_word_and_template_placeholders(void **state)
{
    char text[512];
    static const char *const tokens[][2] = {
        {"sk_l", "ive_YourStripeSecretKeyGoesHere"},
        {"sk-p", "roj-YourOpenAIProjectKeyGoesHereReplaceThisValue"},
        {"sk-a", "nt-api03-YourAnthropicKeyGoesHereReplaceThisValueNow"},
        {"xo", "xb-123456789012-123456789012-YourSlackBotTokenHere"},
        {"gl", "pat-your-personal-access-token"},
        {"gl", "pat-REPLACE_WITH_YOUR_TOKEN_"},
    };
    for (size_t i = 0; i < sizeof tokens / sizeof tokens[0]; i++) {
        snprintf(text, sizeof text, "export SERVICE_CREDENTIAL=%s%s\n", tokens[i][0], tokens[i][1]);
        expect_none(text);
    }
    static const char *const values[] = {
        "api_key = \"{api_key}\"",
        "api_key = \"[API_KEY]\"",
        "password: \"#{ENV['X']}\"",
        "secret = \"#{ENV.fetch('S')}\"",
        "password: \"db_${ENV_PW}\"",
        "password: \"{env.DB_PW}\"",
        "private_key = \"(PRIVATE_KEY)\"",
        "signing_key: \"@SIGNING_KEY@\"",
        "api_key: \"%API_KEY%\"",
        "token = \"__AUTH_TOKEN__\"",
        "api_key: \"ENC[AES256_GCM,data:Tr8=,iv:abc=,tag:xyz=,type:str]\"",
        "password = \"<%= ENV['PW'] %>\"",
        "token = \"abcd1234efgh5678\"",
        "API_KEY=\"1234567890abcdef\"",
    };
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        expect_none(values[i]);
    /* a real value with braces inside is still one */
    expect_only_sub("api_key = \"{Xk9mP2qL7vRw}x\"", RP_SCAN_GENERIC_SECRET, "{Xk9mP2qL7vRw}x");
    assert_true(rp_scan_token_placeholder("1234567890abcdef", 16));
    assert_true(rp_scan_token_placeholder("YourStripeSecretKeyGoesHere", 27));
    assert_false(rp_scan_token_placeholder("q8Zr4TmLx2Pw9sKd", 16));
}

/* Default credentials of local services and host:port lists are no passwords. */
static void test_url_password_defaults(void **state)
{
    expect_none("DATABASE_URL=postgres://postgres:postgres@localhost:5432/db");
    expect_none("amqp://guest:guest@localhost:5672/");
    expect_none("mongodb://Root:root@localhost");
    expect_none("ftp://anonymous:guest@ftp.x.org");
    expect_none("see http://localhost:8080,user@example.com");
    expect_none("see http://localhost:8080;user@example.com");
    expect_only_sub("postgres://postgres:Xk9mP2qLz7@db/app", RP_SCAN_URL_PASSWORD, "Xk9mP2qLz7");
    expect_only_sub("postgres://u:%40bc123Xyz@h/db", RP_SCAN_URL_PASSWORD, "%40bc123Xyz");
    expect_none("postgres://u:%s@h/db");
    expect_none("postgres://u:%DB_PASS%@h/db");
}

/* Slack refresh and app-level tokens. */
static void test_slack_refresh_and_app_tokens(void **state)
{
    char body[160], hex[72], app[16], tok[320], text[512];
    uint64_t seed = 9;
    random_chars(&seed, RP_GEN_ALNUM, 140, body);
    cat(tok, sizeof tok, "xo", "xe-1-", body);
    snprintf(text, sizeof text, "SLACK_REFRESH_TOKEN=%s\n", tok);
    expect_only_sub(text, RP_SCAN_SLACK_TOKEN, tok);
    random_chars(&seed, RP_GEN_HEX, 64, hex);
    random_chars(&seed, RP_GEN_UPNUM, 10, app);
    snprintf(tok, sizeof tok, "%s%s%s%s", "xa", "pp-1-A", app, "-1234567890123-");
    strcat(tok, hex);
    snprintf(text, sizeof text, "SLACK_APP_TOKEN=%s\n", tok);
    expect_only_sub(text, RP_SCAN_SLACK_TOKEN, tok);
    /* not the shapes: too short, no app id, a placeholder */
    cat(tok, sizeof tok, "xo", "xe-1-", "short");
    snprintf(text, sizeof text, "tok %s\n", tok);
    expect_none(text);
    cat(tok, sizeof tok, "xa", "pp-1-1234567890-1234567890123-", hex);
    snprintf(text, sizeof text, "tok %s\n", tok);
    expect_none(text);
    cat(tok, sizeof tok, "xa", "pp-1-A0123ABCDEF-1234567890123-",
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
    snprintf(text, sizeof text, "tok %s\n", tok);
    expect_none(text);
}

/* A NUL byte before a URL is no scheme character. */
static void test_nul_before_url(void **state)
{
    const char text[] = "\0redis://user:Xk9mP2qLz@host";
    rp_scan_result r;
    rp_arena_reset(&arena);
    assert_int_equal(rp_scanner_scan(scanner, &arena, text, sizeof text - 1, &r), 0);
    assert_int_equal(r.n, 1);
    assert_int_equal(r.findings[0].type, RP_SCAN_URL_PASSWORD);
    assert_int_equal(r.findings[0].start, 14);
    assert_int_equal(r.findings[0].end, 23);
}

/* A bare secret_key label is AWS's only with "aws" before it or an access key id nearby. */
static void test_bare_secret_key_label(void **state)
{
    char sec[RP_GEN_SECRET_MAX], key[RP_GEN_SECRET_MAX], text[4 * RP_GEN_SECRET_MAX];
    uint64_t seed = 40;
    for (int round = 0; round < 8; round++) {
        rp_gen_secret(RP_SCAN_AWS_SECRET_ACCESS_KEY, &seed, sec, sizeof sec);
        rp_gen_secret(RP_SCAN_AWS_ACCESS_KEY_ID, &seed, key, sizeof key);
        snprintf(text, sizeof text, "jwt_secret_key = '%s'\n", sec);
        expect_only_sub(text, RP_SCAN_GENERIC_SECRET, sec);
        snprintf(text, sizeof text, "SECRET_KEY=%s\n", sec);
        expect_only_sub(text, RP_SCAN_GENERIC_SECRET, sec);
        snprintf(text, sizeof text, "secretkey: %s\n", sec);
        expect_only_sub(text, RP_SCAN_GENERIC_SECRET, sec);
        snprintf(text, sizeof text, "AWS_SECRET_KEY=%s\n", sec);
        expect_only_sub(text, RP_SCAN_AWS_SECRET_ACCESS_KEY, sec);
        snprintf(text, sizeof text, "aws.secret_key: %s\n", sec);
        expect_only_sub(text, RP_SCAN_AWS_SECRET_ACCESS_KEY, sec);
        snprintf(text, sizeof text, "secret_access_key = %s\n", sec);
        expect_only_sub(text, RP_SCAN_AWS_SECRET_ACCESS_KEY, sec);
        /* near an id, the tail of a longer token is no secret */
        snprintf(text, sizeof text, "%s id=req-%s sig=abc.%s\n", key, sec, sec);
        expect_only_sub(text, RP_SCAN_AWS_ACCESS_KEY_ID, key);
        snprintf(text, sizeof text, "access_key = %s\nsecret_key = %s\n", key, sec);
        rp_scan_result r = scan(text);
        const char *ps = strstr(text, sec), *pk = strstr(text, key);
        assert_int_equal(r.n, 2);
        assert_true(
            has(&r, RP_SCAN_AWS_ACCESS_KEY_ID, (size_t)(pk - text), (size_t)(pk - text) + 20));
        assert_true(
            has(&r, RP_SCAN_AWS_SECRET_ACCESS_KEY, (size_t)(ps - text), (size_t)(ps - text) + 40));
    }
}

/* Real values that looked like code: brackets inside, a leading '-', Python's b'' literals. */
static void test_generic_values_not_code(void **state)
{
    expect_only_sub("DB_PASSWORD=aZ9{kQ2!mX7}pL\n", RP_SCAN_GENERIC_SECRET, "aZ9{kQ2!mX7}pL");
    expect_only_sub("password=-Xk9mP2qL7vRw\n", RP_SCAN_GENERIC_SECRET, "-Xk9mP2qL7vRw");
    expect_only_sub("app.secret_key = b'Xk9#mP2qL7vRw8Zt'\n", RP_SCAN_GENERIC_SECRET,
                    "Xk9#mP2qL7vRw8Zt");
    expect_only_sub("api_key = rb\"Xk9#mP2qL7vRw8Zt\"\n", RP_SCAN_GENERIC_SECRET,
                    "Xk9#mP2qL7vRw8Zt");
    /* the closing bracket of the call around the assignment is not the value's */
    expect_only_sub("db.connect(password=Xk9mP2qL7vRw)\n", RP_SCAN_GENERIC_SECRET, "Xk9mP2qL7vRw");
    static const char *const no[] = {
        "f(token=authHeader)\n",
        "const o = {password: pw}\n",
        "password = f\"pw-{suffix}\"\n",
        "token: Optional[str] = None\n",
        "password=-p\n",
        "mysql --password --port=3306\n",
        "api_key=config[\"key\"]\n",
        "password=getpass.getpass()\n",
        "token={{ .Values.token }}\n",
    };
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        expect_none(no[i]);
}

/* ---- validators ---- */

static void test_validators(void **state)
{
    char buf[128];
    assert_true(rp_scan_token_placeholder("EXAMPLEKEY123456", 16));
    assert_true(rp_scan_token_placeholder("abXXXXXXcd", 10));
    assert_false(rp_scan_token_placeholder("abXXXXXcd", 9));
    assert_true(rp_scan_token_placeholder("q1234567zz", 10));
    assert_true(rp_scan_token_placeholder("abababababababab", 16));
    assert_false(rp_scan_token_placeholder("q8Zr4TmLx2Pw9sKd", 16));
    assert_true(
        rp_scan_aws_access_key_id(cat(buf, sizeof buf, "AK", "IAQ3EGUAB5R7ZKXP4M", NULL), 20));
    assert_false(
        rp_scan_aws_access_key_id(cat(buf, sizeof buf, "AK", "IAq3EGUAB5R7ZKXP4M", NULL), 20));
    assert_false(
        rp_scan_aws_access_key_id(cat(buf, sizeof buf, "AR", "OAQ3EGUAB5R7ZKXP4M", NULL), 20));
    assert_false(rp_scan_aws_secret_value("3f786850e387550fdab836ed7e6dc881de23001b", 40));
    assert_false(rp_scan_aws_secret_value("3F786850E387550FDAB836ED7E6DC881DE23001B", 40));
    const char *hook = "services/T024BE7LD/B01ABCD2EFG/q8Zr4TmLx2Pw9sKd1aB2c3D4";
    assert_true(rp_scan_slack_webhook_path(hook, strlen(hook)));
    assert_false(rp_scan_slack_webhook_path(hook, strlen(hook) - 25));
    assert_true(rp_scan_url_password_value("hunter22", 8));
    assert_false(rp_scan_url_password_value("8080", 4));
    assert_false(rp_scan_url_password_value("PASSWORD", 8));
    assert_false(rp_scan_url_password_value("aaaaaa", 6));
    assert_false(rp_scan_private_key_body("", 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generated_in_context),
        cmocka_unit_test(test_previews_are_masked),
        cmocka_unit_test(test_aws),
        cmocka_unit_test(test_github),
        cmocka_unit_test(test_prefixed_tokens_negatives),
        cmocka_unit_test(test_private_key),
        cmocka_unit_test(test_jwt),
        cmocka_unit_test(test_url_password),
        cmocka_unit_test(test_generic_forms),
        cmocka_unit_test(test_generic_negatives),
        cmocka_unit_test(test_type_selection),
        cmocka_unit_test(test_every_truncation),
        cmocka_unit_test(test_trigger_soup),
        cmocka_unit_test(test_repeated_triggers_are_linear),
        cmocka_unit_test(test_validators),
        cmocka_unit_test(test_aws_pairs_not_duplicated),
        cmocka_unit_test(test_trailing_dash),
        cmocka_unit_test(test_escape_before_token),
        cmocka_unit_test(test_harmless_key_segments),
        cmocka_unit_test(test_word_and_template_placeholders),
        cmocka_unit_test(test_url_password_defaults),
        cmocka_unit_test(test_slack_refresh_and_app_tokens),
        cmocka_unit_test(test_nul_before_url),
        cmocka_unit_test(test_bare_secret_key_label),
        cmocka_unit_test(test_generic_values_not_code),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
