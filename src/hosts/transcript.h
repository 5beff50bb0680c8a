/* transcript.h — LLM usage from a Claude Code session transcript (JSONL), for the spend ledger.
 *
 * Claude Code's hooks carry no cost, but its transcript (`transcript_path`) records each API
 * response's `usage`. The file is not a stable API, so the reader is tolerant: it keeps what it
 * recognises (assistant lines with message.usage) and skips the rest, counting what it could
 * not read instead of failing.
 *
 * One response is written as several assistant lines (one per content block), all with the same
 * message.id; their usage grows as the response streams and the last line carries the final
 * usage. So a message is emitted once, with its last line's usage, model and timestamp, and a
 * message that may still be growing (the chunk's last one) waits for the next read.
 *
 * Pure: the caller reads the bytes (src/cli/hook_spend.c) and remembers the offset. */
#ifndef RAMPART_HOSTS_TRANSCRIPT_H
#define RAMPART_HOSTS_TRANSCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/json.h"

#define RP_TRANSCRIPT_MAX_LINE (16u << 20) /* a longer line is skipped, never parsed */

/* One assistant message's final usage. */
typedef struct rp_transcript_message {
    const char *id;    /* message.id, else requestId: the ledger's dedupe key */
    const char *model; /* message.model, NULL when absent */
    int64_t time_us;   /* its last line's timestamp, 0 when that line had none */
    /* {input_tokens, output_tokens, cache_read_input_tokens, cache_creation_input_tokens}, each
     * present only when the transcript had it: the object rp_usage_read reads. */
    rp_json *usage;
} rp_transcript_message;

typedef struct rp_transcript_chunk {
    rp_transcript_message *messages; /* in the order of their first line */
    size_t n_messages;
    size_t consumed;  /* bytes of the chunk read for good; the next read starts here */
    size_t lines;     /* complete lines before `consumed` */
    size_t malformed; /* of those: not JSON, or an assistant line with wrong types */
    size_t oversized; /* of those: longer than RP_TRANSCRIPT_MAX_LINE, skipped unparsed */
    size_t synthetic; /* assistant lines of model "<synthetic>" (no API call, no spend) */
} rp_transcript_chunk;

/* Reads chunk[0..len): the transcript from a remembered offset to (some) end. Only complete
 * lines (ending in '\n') are read; a partial last line is left for next time, except one already
 * longer than RP_TRANSCRIPT_MAX_LINE, which is consumed (and counted as oversized) so that a
 * runaway line cannot stall the reader; the rest of it then reads as one malformed line. Unless
 * `final`, the chunk's last message (it may continue in lines not yet written) is not emitted
 * and `consumed` stops at the start of its first line, so the next read sees all its lines.
 * Messages with lines after that point are not emitted either (the next read has their last
 * line). Strings and usage objects live in `a`. Never fails on content; returns 0. */
int rp_transcript_parse(rp_arena *a, const char *chunk, size_t len, bool final,
                        rp_transcript_chunk *out);

#endif
