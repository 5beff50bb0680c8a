/* scan.h — content scanning: PII and secrets in text.
 *
 * One multi-pattern vectorscan pass over the text finds trigger positions for every enabled
 * type at once; a per-type extractor (src/scan/pii.c, src/scan/secrets.c) turns each trigger
 * into a candidate span and a validator (src/scan/validate.c) decides whether it really is a
 * finding. The prefilter is loose and fast, the validators are exact, so precision does not
 * cost speed.
 *
 * A scanner is compiled once per type set and options (at config load, or lazily on first
 * use); the compiled database is cached on disk, serialized, under a key that hashes the
 * pattern set and the library version, so a fresh hook process deserializes it instead of
 * compiling. A scanner is immutable after rp_scanner_open and may be used from several threads
 * at once. Findings never carry the matched text, only its span and a masked preview. */
#ifndef RAMPART_SCAN_SCAN_H
#define RAMPART_SCAN_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "scan/validate.h"

/* Every type the scanner knows. PII first (the reference's four in its fixed scan order, then
 * the opt-in ones), then secrets. The order is also the tie-break when two types claim the
 * same span: the earlier type wins. Names and labels: rp_scan_type_name/_label. */
typedef enum rp_scan_type {
    RP_SCAN_SSN = 0,               /* "ssn", "Social Security Number (US)" */
    RP_SCAN_CREDIT_CARD,           /* "credit_card", "Credit Card Number" */
    RP_SCAN_EMAIL,                 /* "email", "Email Address" */
    RP_SCAN_PHONE,                 /* "phone", "Phone Number" */
    RP_SCAN_IBAN,                  /* "iban", "IBAN" */
    RP_SCAN_IP_ADDRESS,            /* "ip_address", "IP Address" */
    RP_SCAN_PASSPORT_US,           /* "passport_us", "US Passport Number" */
    RP_SCAN_DATE_OF_BIRTH,         /* "date_of_birth", "Date of Birth" */
    RP_SCAN_AWS_ACCESS_KEY_ID,     /* "aws_access_key_id" */
    RP_SCAN_AWS_SECRET_ACCESS_KEY, /* "aws_secret_access_key" */
    RP_SCAN_GITHUB_TOKEN,          /* "github_token" */
    RP_SCAN_GITLAB_TOKEN,          /* "gitlab_token" */
    RP_SCAN_SLACK_TOKEN,           /* "slack_token" */
    RP_SCAN_SLACK_WEBHOOK,         /* "slack_webhook" */
    RP_SCAN_STRIPE_KEY,            /* "stripe_key" */
    RP_SCAN_GOOGLE_API_KEY,        /* "google_api_key" */
    RP_SCAN_OPENAI_API_KEY,        /* "openai_api_key" */
    RP_SCAN_ANTHROPIC_API_KEY,     /* "anthropic_api_key" */
    RP_SCAN_NPM_TOKEN,             /* "npm_token" */
    RP_SCAN_PRIVATE_KEY,           /* "private_key" */
    RP_SCAN_JWT,                   /* "jwt" */
    RP_SCAN_URL_PASSWORD,          /* "url_password" */
    RP_SCAN_GENERIC_SECRET,        /* "generic_secret": password=/api_key= assignments */
    RP_SCAN_N_TYPES
} rp_scan_type;

#define RP_SCAN_FIRST_SECRET RP_SCAN_AWS_ACCESS_KEY_ID

typedef uint32_t rp_scan_set; /* bit (1 << type) per type */
#define RP_SCAN_BIT(t) ((rp_scan_set)1u << (t))
/* The reference's four: deny_pii_in_llm_request's default. */
#define RP_SCAN_PII_DEFAULT                                                                        \
    (RP_SCAN_BIT(RP_SCAN_SSN) | RP_SCAN_BIT(RP_SCAN_CREDIT_CARD) | RP_SCAN_BIT(RP_SCAN_EMAIL) |    \
     RP_SCAN_BIT(RP_SCAN_PHONE))
#define RP_SCAN_PII_ALL     (RP_SCAN_BIT(RP_SCAN_FIRST_SECRET) - 1u)
#define RP_SCAN_SECRETS_ALL (RP_SCAN_BIT(RP_SCAN_N_TYPES) - 1u - RP_SCAN_PII_ALL)

const char *rp_scan_type_name(rp_scan_type t);  /* "ssn", "github_token"; "" when out of range */
const char *rp_scan_type_label(rp_scan_type t); /* "Social Security Number (US)", "GitHub token" */
/* By name, case-insensitively; -1 when unknown. */
int rp_scan_type_from_name(const char *name);
bool rp_scan_type_is_secret(rp_scan_type t);

typedef struct rp_scan_options {
    rp_scan_set types;       /* what to look for; 0 = nothing (every scan finds nothing) */
    bool ip_include_private; /* ip_address: also private, loopback, link-local, documentation
                                and unspecified addresses (default: public ones only) */
    /* Directory of the compiled-database cache. NULL = rp_scan_default_cache_dir(); "" = do not
     * cache (compile every time). A cache that cannot be read or written is not an error: the
     * scanner then compiles. */
    const char *cache_dir;
} rp_scan_options;

/* $RAMPART_CACHE_DIR, else $XDG_CACHE_HOME/rampart, else $HOME/.cache/rampart; "" (no cache)
 * when none is set. Writes into buf and returns it. */
const char *rp_scan_default_cache_dir(char *buf, size_t size);

typedef struct rp_scanner rp_scanner;

typedef enum rp_scan_db_source {
    RP_SCAN_DB_NONE = 0, /* no type enabled: nothing compiled */
    RP_SCAN_DB_COMPILED, /* compiled now (and written to the cache when there is one) */
    RP_SCAN_DB_CACHED,   /* deserialized from the cache */
} rp_scan_db_source;

/* Compiles (or loads from the cache) the database for opt. 0, or -1 with err filled (a pattern
 * the library rejects, out of memory). */
int rp_scanner_open(const rp_scan_options *opt, rp_scanner **out, char *err, size_t err_size);
void rp_scanner_free(rp_scanner *s);
rp_scan_db_source rp_scanner_db_source(const rp_scanner *s);
rp_scan_set rp_scanner_types(const rp_scanner *s);

typedef struct rp_scan_finding {
    rp_scan_type type;
    size_t start, end;                  /* byte span [start, end) in the scanned text */
    char preview[RP_SCAN_MASK_MAX + 1]; /* masked: never the finding itself */
} rp_scan_finding;

#define RP_SCAN_MAX_FINDINGS 1024 /* per scan; more sets `truncated` */

typedef struct rp_scan_result {
    rp_scan_finding *findings; /* arena array, sorted by start, then by type */
    size_t n;
    bool truncated;
} rp_scan_result;

/* Scans text[0, n) (need not be NUL-terminated; any bytes). A finding wholly inside a longer
 * finding of another type is dropped (the e-mail inside a URL with a password); of two with
 * the same span, the earlier type is kept. Findings of one type never overlap. Memory comes
 * from a. Returns 0, or -1 when the library fails (out of memory): callers fail closed. */
int rp_scanner_scan(const rp_scanner *s, rp_arena *a, const char *text, size_t n,
                    rp_scan_result *out);

/* text with every finding's span replaced by "[REDACTED:<type name>]" (overlapping spans merge
 * into one marker, named after the first). NUL-terminated, from a; *out_len its length. */
char *rp_scan_redact(rp_arena *a, const char *text, size_t n, const rp_scan_finding *f,
                     size_t n_findings, size_t *out_len);
/* The same with every span replaced by the finding's masked preview ('ghp_****…wxyz'), the
 * form deny_secrets quotes its own findings in: for texts written for people (reasons). */
char *rp_scan_mask_text(rp_arena *a, const char *text, size_t n, const rp_scan_finding *f,
                        size_t n_findings, size_t *out_len);

#endif
