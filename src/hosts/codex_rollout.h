/* codex_rollout.h — LLM usage from a Codex rollout file (JSONL), for the spend ledger.
 *
 * Codex's hooks carry no usage, but every hook names the session's rollout file
 * (`transcript_path`, ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl), where Codex 0.171 writes,
 * for each model response:
 *   {"type":"token_usage_record","payload":{"response_id", "usage":{...},
 *     "thread_token_usage":{...}, ...}}                 when the response completes, and
 *   {"type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":{...},
 *     "total_token_usage":{...}}}}                       once its tool calls are done;
 * older Codex versions write only the token_count. Each usage object holds input_tokens,
 * cached_input_tokens, output_tokens, reasoning_output_tokens, total_tokens (and, in 0.171,
 * cache_write_input_tokens). The model is that of the last `turn_context` line before it
 * (payload.model); a usage line does not name one.
 *
 * Both lines of a response carry the thread's running total after it (thread_token_usage =
 * total_token_usage), which is the response's ledger id ("codex-total:" and its counts): a
 * response is charged once whichever of its lines is read first, and a token_count repeated with
 * the same totals (Codex emits one again when only the rate limits changed) or with `info: null`
 * charges nothing.
 *
 * The counts are the OpenAI API's: input_tokens includes the cached ones and output_tokens the
 * reasoning ones. The ledger's row is input = input_tokens - cached_input_tokens, cache read =
 * cached_input_tokens, cache write = cache_write_input_tokens, output = output_tokens
 * (reasoning included once, billed as output).
 *
 * Pure: the caller (src/cli/hook_spend.c) reads the bytes and remembers the offset; the result
 * is the Claude reader's rp_transcript_chunk, so the ledger path is one. */
#ifndef RAMPART_HOSTS_CODEX_ROLLOUT_H
#define RAMPART_HOSTS_CODEX_ROLLOUT_H

#include <stddef.h>

#include "core/arena.h"
#include "hosts/transcript.h"

/* Reads chunk[0..len): the rollout from a remembered offset to (some) end. Only complete lines
 * are read (a line is written whole, so each one is final); a partial last line is left for next
 * time, unless it is already longer than RP_TRANSCRIPT_MAX_LINE (consumed as oversized, as in
 * transcript.h). `model` is the session's model before the chunk (from an earlier read), NULL
 * or "" for none: a response before any turn_context of the chunk is charged at it. Lines are
 * looked at only when they can hold usage or a model (they contain "token_count",
 * "token_usage_record" or "turn_context"); of those, one that is not JSON or has a usage count of
 * a wrong type is malformed and skipped. A response whose id equals the previous one's is not
 * emitted twice. out->model is the last turn_context's model of the chunk, or NULL. Strings and
 * usage objects live in `a`. Never fails on content; returns 0. */
int rp_codex_rollout_parse(rp_arena *a, const char *chunk, size_t len, const char *model,
                           rp_transcript_chunk *out);

#endif
