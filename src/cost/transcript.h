/* transcript.h — LLM usage from a Claude Code session transcript (JSONL), for the spend ledger
 * (and from Gemini CLI's chat recording, rp_cost_transcript_parse_gemini).
 *
 * Claude Code's hooks carry no cost, but its transcript (`transcript_path`) records each API
 * response's `usage`. The file is not a stable API, so the reader is tolerant: it keeps what it
 * recognises (assistant lines with message.usage) and skips the rest, counting what it could
 * not read instead of failing.
 *
 * One response is written as several assistant lines (one per content block), all with the same
 * message.id; their usage grows as the response streams and the last line carries the final
 * usage. So a message is emitted once, with its last line's usage, model and timestamp. The
 * chunk's last message may still be growing and waits for the next read, unless something
 * proves it complete: a line of it with a stop_reason (set by the response's last event, with
 * the final usage), a later prompt or synthetic line (written only after a response ended; a
 * tool result is not such a line: the streaming tool executor writes results while the
 * response goes on), the end of the turn (`final`), or the host acting on a tool_use the
 * message requested (a PreToolUse/PostToolUse names its tool_use_id: the tool runs once the
 * block that asked for it was written).
 *
 * Pure: the caller reads the bytes (src/hosts/hook_spend.c) and remembers the offset. */
#ifndef RAMPART_COST_TRANSCRIPT_H
#define RAMPART_COST_TRANSCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/json.h"

#define RP_COST_TRANSCRIPT_MAX_LINE (16u << 20) /* a longer line is skipped, never parsed */

/* One assistant message's final usage. */
typedef struct rp_cost_transcript_message {
    const char *id;    /* message.id, else requestId: the ledger's dedupe key */
    const char *model; /* message.model, NULL when absent */
    int64_t time_us;   /* its last line's timestamp, 0 when that line had none */
    /* {input_tokens, output_tokens, cache_read_input_tokens, cache_creation_input_tokens}, each
     * present only when the transcript had it: the object rp_cost_usage_read reads. */
    rp_json *usage;
} rp_cost_transcript_message;

typedef struct rp_cost_transcript_chunk {
    rp_cost_transcript_message *messages; /* in the order of their first line */
    size_t n_messages;
    size_t consumed;  /* bytes of the chunk read for good; the next read starts here */
    size_t lines;     /* complete lines before `consumed` */
    size_t malformed; /* of those: not JSON, or an assistant line with wrong types */
    size_t oversized; /* of those: longer than RP_COST_TRANSCRIPT_MAX_LINE, skipped unparsed */
    size_t synthetic; /* assistant lines of model "<synthetic>" (no API call, no spend) */
    /* The model of the chunk's last assistant line (emitted or not, "<synthetic>" aside): the
     * session's current model. NULL when the chunk has none. */
    const char *model;
    /* The chunk's last assistant message (synthetic ones aside) has a stop_reason other than
     * tool_use and no prompt follows it: the chunk ends with the end of the agent's turn. */
    bool ended;
} rp_cost_transcript_chunk;

/* Reads chunk[0..len): the transcript from a remembered offset to (some) end. Only complete
 * lines (ending in '\n') are read; a partial last line is left for next time, except one already
 * longer than RP_COST_TRANSCRIPT_MAX_LINE, which is consumed (and counted as oversized) so that a
 * runaway line cannot stall the reader; the rest of it then reads as one malformed line. Unless
 * `final`, the chunk's last message, unless proven complete as above (`tool_use_id`: the
 * tool_use the host acts on, NULL or "" for none), is not emitted and `consumed` stops at the start
 * of its first line, so the next read sees all its lines. Messages with lines after that point are
 * not emitted either (the next read has their last line). Strings and usage objects live in `a`.
 * Never fails on content; returns 0. */
int rp_cost_transcript_parse(rp_arena *a, const char *chunk, size_t len, bool final,
                             const char *tool_use_id, rp_cost_transcript_chunk *out);

/* The same for Gemini CLI's chat recording (src/hosts/gemini_transcript.c): every model
 * response record that has its `tokens` is complete and emitted (an id seen twice is emitted
 * twice: the ledger keeps the first), with usage {input_tokens: input - cached + tool,
 * output_tokens: output + thoughts, cache_read_input_tokens: cached}; only a partial last line
 * is left for next time. `ended` is never set. Never fails on content; returns 0. */
int rp_cost_transcript_parse_gemini(rp_arena *a, const char *chunk, size_t len,
                                    rp_cost_transcript_chunk *out);

/* Where Claude Code writes the transcript of sub-agent agent_id of the session whose transcript
 * is main_path: "<main_path without .jsonl>/subagents/agent-<agent_id>.jsonl" (its hooks inside
 * a sub-agent name only the main transcript; SubagentStop names the agent's own). NULL when
 * main_path does not end in ".jsonl" or agent_id is not a plain name ([A-Za-z0-9_-]+), so that
 * no id can point the reader elsewhere. In a. */
const char *rp_cost_transcript_agent_path(rp_arena *a, const char *main_path, const char *agent_id);

#endif
