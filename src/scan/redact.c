/* redact.c — every text rampart writes, masked (redact.h). */
#include "scan/redact.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/utf8.h"
#include "scan/scan.h"

/* Every secret type, for sure. Of PII, the numbers no reason ever needs to show and that the
 * scanner validates exactly: SSNs (issuing rules) and card numbers (Luhn). E-mail addresses
 * stay: an address is how rampart names the person whose budget a reason is about
 * (context.user, actor.run_as: "alice@example.com's spend today $6.00 passed ..."), in texts the
 * reference fixes verbatim, and a masked owner would make a shared audit log useless. Phone
 * numbers stay too: their rules are half the PII database (90 KB, ~0.2 ms more to load in every
 * hook process that denies or asks) and, loose as the numbering plans are, they would
 * mask counts and ids that reasons quote. The opt-in types (IP addresses, dates, passports,
 * IBANs) stay visible: a reason naming the host a command connects to is what the person needs
 * to read. PII in content is deny_pii_in_llm_request's job, not the reason's. */
#define REDACT_TYPES                                                                               \
    (RP_SCAN_SECRETS_ALL | RP_SCAN_BIT(RP_SCAN_SSN) | RP_SCAN_BIT(RP_SCAN_CREDIT_CARD))

static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;
static rp_scanner *scanner; /* opened on first use; lives as long as the process */

static const rp_scanner *get_scanner(char *err, size_t err_size)
{
    pthread_mutex_lock(&open_lock);
    if (scanner == NULL) {
        rp_scan_options opt = {.types = REDACT_TYPES, .cache_dir = NULL};
        if (rp_scanner_open(&opt, &scanner, err, err_size) != 0)
            scanner = NULL; /* tried again by the next text; meanwhile texts are withheld */
    }
    const rp_scanner *s = scanner;
    pthread_mutex_unlock(&open_lock);
    return s;
}

int rp_redact_prepare(char *err, size_t err_size)
{
    return get_scanner(err, err_size) != NULL ? 0 : -1;
}

/* A text longer than RP_REASON_MAX is cut there (at a UTF-8 character boundary) and says how
 * much was left out. Policies quote what they judged — a 60 KB command makes a 60 KB reason —
 * and every host shows the reason to a person, the audit stores it and `rampart log` prints it:
 * the first few KB say everything a person can use. */
static const char *cap_text(rp_arena *a, const char *text)
{
    size_t n = text ? strlen(text) : 0;
    if (n <= RP_REASON_MAX)
        return text;
    size_t keep = RP_REASON_MAX;
    while (keep > 0 && rp_utf8_is_cont((unsigned char)text[keep]))
        keep--; /* text[keep] would start the cut: never inside a character */
    char tail[64];
    int tn = snprintf(tail, sizeof tail, "… [%zu more bytes]", n - keep);
    char *out = rp_arena_alloc(a, keep + (size_t)tn + 1);
    memcpy(out, text, keep);
    memcpy(out + keep, tail, (size_t)tn + 1);
    return out;
}

const char *rp_redact_text(rp_arena *a, const char *text)
{
    if (text == NULL || text[0] == '\0')
        return text;
    char err[256];
    const rp_scanner *s = get_scanner(err, sizeof err);
    rp_scan_result found;
    size_t n = strlen(text);
    if (s == NULL || rp_scanner_scan(s, a, text, n, &found) != 0)
        return RP_REDACT_WITHHELD;
    if (found.truncated)
        return RP_REDACT_WITHHELD; /* more findings than one scan reports: some unmasked */
    if (found.n == 0)
        return cap_text(a, text);
    return cap_text(a, rp_scan_mask_text(a, text, n, found.findings, found.n, NULL));
}
