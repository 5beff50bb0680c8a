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
 * The rollout also says how each tool call ended, which Codex's PostToolUse payload does not
 * (its shell tool's tool_response is the output text only): before the hook runs, Codex writes
 *   {"type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution",
 *     "id":CALL_ID,"status":"completed"|"failed","exit_code":N,...}}}
 * (the hook's tool_use_id is CALL_ID); a patch is a FileChange item and an MCP call a
 * McpToolCall item, each with the same `status`.
 *
 * Pure: the caller (src/hosts/hook_spend.c) reads the bytes and remembers the offset; the result
 * is the Claude reader's rp_cost_transcript_chunk, so the ledger path is one. */
#ifndef RAMPART_HOSTS_CODEX_ROLLOUT_H
#define RAMPART_HOSTS_CODEX_ROLLOUT_H

#include <stddef.h>

#include "core/arena.h"
#include "hosts/tool_result.h"
#include "cost/transcript.h"

/* Reads chunk[0..len): the rollout from a remembered offset to (some) end. Only complete lines
 * are read (a line is written whole, so each one is final); a partial last line is left for next
 * time, unless it is already longer than RP_COST_TRANSCRIPT_MAX_LINE (consumed as oversized, as in
 * transcript.h). `model` is the session's model before the chunk (from an earlier read), NULL
 * or "" for none: a response before any turn_context of the chunk is charged at it. Lines are
 * looked at only when they can hold usage or a model (they contain "token_count",
 * "token_usage_record" or "turn_context"); of those, one that is not JSON or has a usage count of
 * a wrong type is malformed and skipped. A response whose id equals the previous one's is not
 * emitted twice. out->model is the last turn_context's model of the chunk, or NULL. Strings and
 * usage objects live in `a`. Never fails on content; returns 0. */
int rp_hook_codex_rollout_parse(rp_arena *a, const char *chunk, size_t len, const char *model,
                                rp_cost_transcript_chunk *out);

/* rp_hook_codex_rollout_parse, and in the same pass the outcome of tool call `call_id` (NULL: none
 * looked for) from its completed item among the chunk's complete lines
 * (rp_hook_codex_rollout_call_outcome's rule; a line that can be that item but is not JSON counts
 * as malformed). *call_outcome is RP_HOOK_TOOL_UNKNOWN when the chunk has no such item. */
int rp_hook_codex_rollout_parse_call(rp_arena *a, const char *chunk, size_t len, const char *model,
                                     const char *call_id, rp_cost_transcript_chunk *out,
                                     rp_hook_tool_outcome *call_outcome);

/* The outcome of tool call `call_id` from the last item_completed of that id among the complete
 * lines of chunk[0..len) (a first line that is cut, as in a tail read from mid-file, is not JSON
 * and is skipped): ERROR when its status is "failed" or its exit_code an integer other than 0;
 * OK when its status is "completed" (and its exit_code, if any, 0); else, and when no line is
 * that item, RP_HOOK_TOOL_UNKNOWN. Only lines containing "item_completed" and the quoted call id
 * are parsed, each in a scratch arena freed before returning. */
rp_hook_tool_outcome rp_hook_codex_rollout_call_outcome(const char *chunk, size_t len,
                                                        const char *call_id);

#endif
