/* scan_rules.h — the contract between the scanner core (scanner.c) and the per-type extractors
 * (pii.c, secrets.c).
 *
 * A rule is a vectorscan expression plus an extractor. The core compiles the expressions of
 * every rule whose type is enabled into one database and scans the text once; each match END
 * offset is a trigger. The core then calls the rule's extractor with that end offset; the
 * extractor looks around it in job->text (backwards for the start, forwards for the true end of
 * the token), validates the candidate with src/scan/validate.c or validate_secret.c and reports
 * each real finding with rp_scan_emit. Expressions can therefore be loose: they only have to fire
 * at least once on or inside every real finding, and rarely elsewhere. No start-of-match tracking
 * is asked of vectorscan (it is what keeps the pass fast). */
#ifndef RAMPART_SCAN_SCAN_RULES_H
#define RAMPART_SCAN_SCAN_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"
#include "scan/scan.h"
#include "scan/validate.h"

typedef struct rp_scan_job rp_scan_job;

/* What an extractor sees. The core owns it; extractors only read these fields. */
struct rp_scan_job {
    const char *text; /* the whole text being scanned */
    size_t len;
    rp_arena *arena; /* scratch for validators (rp_scan_jwt) and for the findings */
    const rp_scan_options *opt;
    void *core; /* the core's private state (findings list, dedupe) */
    /* Per type, the extractors' own note of how far they have examined the text (zero at the
     * start of each scan): several rules of one type and overlapping windows of one long
     * token would otherwise examine the same candidates again on every trigger. */
    size_t examined[RP_SCAN_N_TYPES];
};

/* Reports a validated finding [start, end) of `type`; the core masks it with `mask` and
 * de-duplicates (the same span reported twice is kept once). */
void rp_scan_emit(rp_scan_job *job, rp_scan_type type, size_t start, size_t end, rp_mask_kind mask);

/* Vectorscan flags a rule may ask for (the same bits as HS_FLAG_*; repeated here so that the
 * extractors do not include <hs.h>). The core always adds nothing else. */
#define RP_SCAN_RULE_CASELESS  1u /* HS_FLAG_CASELESS */
#define RP_SCAN_RULE_DOTALL    2u /* HS_FLAG_DOTALL */
#define RP_SCAN_RULE_MULTILINE 4u /* HS_FLAG_MULTILINE */

typedef struct rp_scan_rule {
    rp_scan_type type;
    const char *expression; /* vectorscan (PCRE subset) syntax; each match end is a trigger */
    unsigned flags;         /* RP_SCAN_RULE_* */
    /* Called for a trigger whose match ended at `end` (exclusive). Finds and validates the
     * candidate(s) around it and emits findings. Returns the offset up to which further
     * triggers of this same rule are redundant (they fall in a token already examined): the
     * core then skips triggers with end <= that offset. Return `end` when nothing is known. */
    size_t (*extract)(rp_scan_job *job, size_t end);
} rp_scan_rule;

/* The rule tables, defined by pii.c and secrets.c. A type may have several rules. */
extern const rp_scan_rule rp_scan_pii_rules[];
extern const size_t rp_scan_pii_rule_count;
extern const rp_scan_rule rp_scan_secret_rules[];
extern const size_t rp_scan_secret_rule_count;

#endif
