/* usage.h — one usage report (an llm_response's data, a `rampart usage record` line) turned
 * into a ledger row: token counts checked, the cost taken as reported or computed from the price
 * table, or the row marked unpriced. Pure: the caller passes the price table and the clock. */
#ifndef RAMPART_COST_USAGE_H
#define RAMPART_COST_USAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/json.h"
#include "cost/pricing.h"
#include "store/store.h"

/* Reads the token counts and the reported cost of `usage` (an object):
 *   input_tokens, output_tokens, cache_read_input_tokens, cache_creation_input_tokens:
 *     integers >= 0, absent = 0 (an integral double such as 12.0 is accepted);
 *   cost_usd: a number >= 0, optional — when present the row is priced at that cost.
 * Then prices the row: a reported cost wins; else `model` in `pricing` (may be NULL: no table);
 * else the row is unpriced. Fills the token, priced, cost and priced_by fields of *out (others
 * untouched).
 * Counts above RP_USAGE_MAX_TOKENS and costs above RP_USAGE_MAX_COST_NUSD are errors, or with
 * `clamp` are recorded at the bound (a host's report must never be dropped: spend that is not
 * recorded cannot trip a budget). Returns 0, or -1 with err naming the field
 * ("input_tokens must be an integer >= 0, got -5"). */
int rp_cost_usage_read(const rp_json *usage, const char *model, const rp_cost_pricing *pricing,
                       bool clamp, rp_usage_record *out, char *err, size_t err_size);

/* A whole `rampart usage record` line: the fields above at the top level (or in a nested
 * `usage` object), plus session_id (required, non-empty string), user, parent_session_id,
 * root_session_id, model, id (the dedupe key) and time (RFC 3339; absent = now_us; at most a day
 * after now_us, not before 1970). Unknown keys, at the top level and in `usage` (which may also
 * hold total_tokens, ignored), are errors (a misspelt field must not silently record zero). Strings
 * are borrowed from line. */
int rp_cost_usage_record_from_json(const rp_json *line, const rp_cost_pricing *pricing,
                                   int64_t now_us, rp_usage_record *out, char *err,
                                   size_t err_size);

/* What an llm_response event reports: data.usage (object) with data.model (else context.model)
 * and data.id / data.message_id / data.response_id / data.request_id as the dedupe key. A
 * reported cost of 0 for tokens is taken for "the host could not price it" (opencode and Pi
 * report 0 for a provider they have no price for): the table prices the row when it knows the
 * model, else it stays priced at 0 by the host. (`rampart usage record` keeps a stated 0.)
 * Returns 1 and fills *out (time = now_us, session and links left to the caller), 0 when the
 * event carries no usage, -1 with err when the usage is malformed. */
int rp_cost_usage_from_llm_response(const rp_json *data, const char *context_model,
                                    const rp_cost_pricing *pricing, int64_t now_us,
                                    rp_usage_record *out, char *err, size_t err_size);

/* The PolicyEvent form of summed usage (reference §1.2): the five counters, total_cost_usd
 * when anything was priced, and unpriced_tokens when > 0 (rampart's extension). */
rp_json rp_cost_usage_totals_to_json(rp_arena *a, const rp_usage_totals *t);

#endif
