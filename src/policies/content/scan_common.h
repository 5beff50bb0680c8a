/* scan_common.h — what the content-scanning policies (deny_pii_in_llm_request, deny_secrets)
 * share: a scanner opened on first use, the texts of an event with where each one sits in its
 * data, the finding a reason names, and the REDACT rebuild of the event's data.
 *
 * A policy gathers the texts of one event into an rp_content_texts (arena memory), scans them all
 * with rp_content_texts_run, then either names one finding (DENY/ASK) or rewrites every text that
 * has findings (REDACT). Each text remembers the JSON path from ev->data down to its string, so
 * the rewritten data keeps the event's shape: a string stays a string, an object keeps every
 * other key. A text without a path is derived (the words of a shell command after quote
 * removal): it can be scanned but not rewritten. */
#ifndef RAMPART_POLICIES_CONTENT_SCAN_COMMON_H
#define RAMPART_POLICIES_CONTENT_SCAN_COMMON_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/json.h"
#include "engine/event.h"
#include "engine/policy.h"
#include "scan/scan.h"

/* ---- the scanner, opened on first use ---- */

/* A hook process that never sees a scanned phase must not pay for loading the database, so the
 * scanner is opened by the first evaluation that needs it. Several threads may evaluate one
 * loaded config at once: the lock makes exactly one of them open it. */
typedef struct rp_content_lazy_scanner {
    pthread_mutex_t lock;
    rp_scan_options opt; /* cache_dir NULL: the default cache directory */
    rp_scanner *scanner; /* NULL until the first use */
    bool warned;         /* rp_content_warn_once has spoken */
} rp_content_lazy_scanner;

/* Allocates the lazy scanner for `types` from a (the instance's arena); nothing is opened. */
rp_content_lazy_scanner *rp_content_lazy_scanner_new(rp_arena *a, rp_scan_set types);
/* The scanner, opened now when this is its first use. 0, or rp_fail(ctx, ...) when the
 * library cannot open it (the engine then fails closed). */
int rp_content_lazy_scanner_get(rp_content_lazy_scanner *ls, rp_eval_ctx *ctx,
                                const rp_scanner **out);
/* Frees the scanner if it was opened and the lock; the struct itself is arena memory. */
void rp_content_lazy_scanner_destroy(rp_content_lazy_scanner *ls);

/* Tells the person running rampart `message` through ctx->warn, once per instance (a config
 * evaluated many times in one process says it once; a hook process says it every time). */
void rp_content_warn_once(rp_content_lazy_scanner *ls, rp_eval_ctx *ctx, const char *message);

/* What the policies call to open and scan: rp_scanner_open and rp_scanner_scan. A test may
 * point these elsewhere to exercise the failure paths; nothing else changes them. */
typedef struct rp_content_backend {
    int (*open)(const rp_scan_options *opt, rp_scanner **out, char *err, size_t err_size);
    int (*scan)(const rp_scanner *s, rp_arena *a, const char *text, size_t n, rp_scan_result *out);
} rp_content_backend;
extern rp_content_backend rp_content_policy_backend;

/* ---- the texts of an event ---- */

/* One step from a JSON container to a child: the member or item at `index` (members by
 * position, so a duplicate key names the very member that was scanned). */
typedef struct rp_content_step {
    uint32_t index;
} rp_content_step;

typedef struct rp_content_text {
    const char *text;
    size_t len;
    const char *where;           /* for reasons: "request text", "attachment 'a.txt'", ... */
    const rp_content_step *path; /* from ev->data down to the string (path_len 0: the data) */
    size_t path_len;
    bool derived; /* not a string of the data (shell words): scanned, never rewritten */
    /* Texts of one group are what the reference scans as one string (the text blocks of a
     * request, joined): a category's first finding is looked for across the whole group. */
    int group;
    rp_scan_result found; /* filled by rp_content_texts_run */
} rp_content_text;

typedef struct rp_content_texts {
    rp_content_text *items; /* arena array, in scan order */
    size_t n, cap;
    int groups; /* groups handed out so far */
} rp_content_texts;

/* A derived text (no path: it cannot be rewritten), in a group of its own. */
void rp_content_texts_add_derived(rp_arena *a, rp_content_texts *t, const char *text, size_t len,
                                  const char *where);

/* `request`: the user text first (data as a string; data.user_content as a string or as text
 * blocks; data itself as text blocks; data.text), then the non-empty `text` of each attachment
 * in order. Where: "request text", "attachment '<filename>'" (or "attachment <n>"). */
void rp_content_gather_request(const rp_event *ev, rp_arena *a, rp_content_texts *t);
/* `llm_request` with object data: system_prompt_preview, then last_user_message (strings). */
void rp_content_gather_llm_request(const rp_event *ev, rp_arena *a, rp_content_texts *t);
/* Every non-empty string inside the member `key` of ev->data (NULL = ev->data itself), in
 * document order, recursively. Where: "<label> '<json path>'" for strings inside containers
 * ("tool_call argument 'files[0].content'"), `bare` for the value itself when it is a string. */
void rp_content_gather_strings(const rp_event *ev, const char *key, rp_arena *a,
                               rp_content_texts *t, const char *label, const char *bare);

/* ---- scanning ---- */

/* Whether a finding should be ignored (deny_secrets' allow_patterns): match is the finding's
 * text. NULL = keep every finding. */
typedef bool (*rp_content_ignore_fn)(const void *self, const char *match, size_t len, rp_arena *a);

/* Scans every text with the lazy scanner (opened on first use) and drops the findings `ignore`
 * rejects. 0, or rp_fail(ctx, ...) when the scanner cannot be opened or a scan fails. */
int rp_content_texts_run(rp_content_lazy_scanner *ls, rp_eval_ctx *ctx, rp_content_texts *t,
                         rp_content_ignore_fn ignore, const void *ignore_self);

/* Total findings over every text. */
size_t rp_content_texts_count(const rp_content_texts *t);
/* Whether some text had more findings than one scan reports (RP_SCAN_MAX_FINDINGS): its
 * redaction would be incomplete, so REDACT must not let it pass. */
bool rp_content_texts_truncated(const rp_content_texts *t);

/* The reference's choice (deny_pii_in_llm_request): for each group in order, the first type in
 * the fixed type order that has a finding anywhere in the group, and that type's first finding.
 * NULL when nothing was found; *text_index gets the text it is in. */
const rp_scan_finding *rp_content_first_by_type(const rp_content_texts *t, size_t *text_index);
/* The first finding in reading order: the first text with one, its earliest finding. */
const rp_scan_finding *rp_content_first_in_order(const rp_content_texts *t, size_t *text_index);

/* ---- REDACT ---- */

/* ev_data with the findings of every text that has a path replaced by "[REDACTED:<type>]"
 * (rp_scan_redact), the rest of the data shared unchanged. Derived texts are skipped. Returns
 * ev_data itself when there was nothing to rewrite. */
const rp_json *rp_content_redact_data(rp_arena *a, const rp_json *ev_data,
                                      const rp_content_texts *t);

/* "<what> redacted: Email Address (2: 'a***@example.com', 'b***@example.com'), ..." — the
 * types found, in type order, with their counts and (up to three) masked previews. */
const char *rp_content_redaction_reason(rp_arena *a, const char *what, const rp_content_texts *t);

#endif
