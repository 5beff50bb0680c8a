/* validate_secret.h — validators for credential candidates (the secret types of
 * scan.h).
 *
 * The extractors in src/scan/secrets.c delimit a candidate token in the text
 * (its prefix, its alphabet, its neighbours); the functions here decide whether
 * that exact span really is a credential of the type: lengths, alphabets,
 * structure, and the shapes that mark documentation examples and placeholders
 * (AWS's ...EXAMPLE keys, XXXX bodies, the jwt.io sample). Like validate.h they
 * are pure: no I/O, no global state; spans need not be NUL-terminated. The
 * checksummed and decoded formats (GitHub, JWT) and the generic secret value
 * live in validate.h. */
#ifndef RAMPART_SCAN_VALIDATE_SECRET_H
#define RAMPART_SCAN_VALIDATE_SECRET_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"

/* Does a random-looking token body look like a placeholder instead? example/dummy/sample/fake
 * words (fake in lower case only, the longer ones also in UPPER CASE or Capitalized), a run of 6
 * identical characters or 6 ascending ones (000000, 123456, abcdef; 7 in a hex body), or too
 * few distinct characters for its length. A real random body of 16-250 characters trips this
 * with a probability of about 1e-5. Also a body written as words (YourStripeSecretKeyGoesHere:
 * your/here/replace/insert/goes, or CamelCase words only) and fillers such as 1234567890abcdef. */
bool rp_scan_token_placeholder(const char *s, size_t n);

/* AKIA or ASIA + 16 [A-Z0-9], not a placeholder (AKIAIOSFODNN7EXAMPLE is AWS's
 * own example). */
bool rp_scan_aws_access_key_id(const char *s, size_t n);
/* 40 [A-Za-z0-9/+] with an upper-case letter, a lower-case letter and a digit
 * or '/' '+' (so neither a SHA-1 in hex nor a word), not a placeholder. The AWS
 * context is the caller's job. */
bool rp_scan_aws_secret_value(const char *s, size_t n);
/* glpat-/gldt-/glrt-/glptt-/glft-/glimt-/glsoat-/glcbt-/gloas- + 20-300
 * [A-Za-z0-9_.-]. */
bool rp_scan_gitlab_token(const char *s, size_t n);
/* xox[abposr]- + digit groups + a final random group: xoxb-N-N-S (S >= 20
 * alnum), xoxp-N-N-N-H, xoxe.xoxp-1-... rotating tokens, xoxe-1-... refresh tokens and
 * xapp-1-A...-N-H app-level tokens; the numeric ids are 8+ digits and not all zeros. */
bool rp_scan_slack_token(const char *s, size_t n);
/* The part after "hooks.slack.com/": services/T.../B.../secret (ids 8-12
 * [A-Z0-9], secret 24 alnum) or workflows|triggers/T.../A.../digits/secret. */
bool rp_scan_slack_webhook_path(const char *s, size_t n);
/* sk_live_/rk_live_ + 20-247 alnum (live secret and restricted keys; test and
 * publishable keys are not secrets and are not accepted). */
bool rp_scan_stripe_key(const char *s, size_t n);
/* AIza + 35 [A-Za-z0-9_-]. */
bool rp_scan_google_api_key(const char *s, size_t n);
/* sk- + 48 alnum (legacy user keys), or sk-proj-/sk-svcacct-/sk-admin-/sk-None-
 * + 40-250 [A-Za-z0-9_-]; never sk-ant- (Anthropic). Mixed case and digits
 * required. */
bool rp_scan_openai_api_key(const char *s, size_t n);
/* sk-ant- + a key kind (api03, admin01, oat01, ...) + '-' + 40-200
 * [A-Za-z0-9_-]. */
bool rp_scan_anthropic_api_key(const char *s, size_t n);
/* npm_ + 36 alnum, mixed, not a placeholder. */
bool rp_scan_npm_token(const char *s, size_t n);
/* The text between a PEM "-----BEGIN ... PRIVATE KEY-----" line and its END
 * line (or, when the END line is missing, the run that follows BEGIN): base64
 * lines, optionally separated by escaped newlines ("\n" as two characters, as
 * in JSON strings) or quotes, with RFC 1421 headers (Proc-Type:, DEK-Info:,
 * Version:, Comment:) allowed. At least 64 base64 characters of high entropy;
 * "..." or any other character means an elided documentation example. */
bool rp_scan_private_key_body(const char *s, size_t n);
/* Is this (already rp_scan_jwt-valid) token the jwt.io sample, payload sub
 * "1234567890" and name "John Doe"? Scratch memory from a. */
bool rp_scan_jwt_is_sample(rp_arena *a, const char *s, size_t n);
/* The password of a scheme://user:password@host URL: 4-256 bytes without ':', not a
 * placeholder (${VAR}, $VAR, <password>, {{x}}, %s, ****, xxx, "password", "pass", "secret",
 * "changeme", "admin", "guest", ...), not the user name again (postgres:postgres), not a bare
 * port-like number (nor a port followed by a ',' or ';' list); a leading %XX escape is fine. */
bool rp_scan_url_password_value(const char *s, size_t n);

#endif
