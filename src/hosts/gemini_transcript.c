/* gemini_transcript.c — Gemini CLI's chat recording (JSONL) → one usage per model response
 * (transcript.h).
 *
 * Gemini CLI 0.61 appends one JSON record per line to the file its hooks name as
 * `transcript_path`: a header, `{"$set": ...}` updates, and messages. A model response is a
 * `{"type": "gemini", "id", "timestamp", "model", "tokens": {input, output, cached, thoughts,
 * tool, total}}` record, appended again (same id) whenever it changes; `tokens` is set once, from
 * the response's final usageMetadata, synchronously after the stream ended. So every record with
 * tokens is complete, and the ledger's dedupe on the id keeps one row per response. The hook
 * payload itself carries no cached or thinking counts: this file is where they are. */
#include <string.h>

#include "core/clock.h"
#include "cost/transcript.h"
#include "store/store.h"

/* The count tokens.key: an integer >= 0 (absent = 0), at most RP_USAGE_MAX_TOKENS (clamped, as
 * the ledger clamps a host's report: the sums below then cannot overflow); false when it is
 * something else. */
static bool count(const rp_json *tokens, const char *key, int64_t *out)
{
    const rp_json *v = rp_json_get(tokens, key);
    *out = 0;
    if (v == NULL || v->type == RP_JSON_NULL) {
        return true;
    }
    if (v->type != RP_JSON_INT || v->v.i < 0) {
        return false;
    }
    *out = v->v.i < RP_USAGE_MAX_TOKENS ? v->v.i : RP_USAGE_MAX_TOKENS;
    return true;
}

/* One complete line, parsed in scratch; a response with tokens is appended to out (in a).
 * Returns false when the line is malformed. */
static bool read_record(rp_arena *a, rp_arena *scratch, const char *text, size_t len,
                        rp_cost_transcript_chunk *out, size_t *cap)
{
    rp_json_error jerr;
    const rp_json *rec = rp_json_parse(scratch, text, len, &jerr);
    if (rec == NULL || rec->type != RP_JSON_OBJECT) {
        return false;
    }
    const char *type = rp_json_get_str(rec, "type");
    const rp_json *tokens = rp_json_get(rec, "tokens");
    if (type == NULL || strcmp(type, "gemini") != 0 || tokens == NULL ||
        tokens->type == RP_JSON_NULL) {
        return true; /* the header, $set updates, user and info records, a response not done */
    }
    const char *id = rp_json_get_str(rec, "id");
    const char *model = rp_json_get_str(rec, "model");
    const char *timestamp = rp_json_get_str(rec, "timestamp");
    int64_t input, output, cached, thoughts, tool, time_us = 0;
    if (!rp_json_is_object(tokens) || id == NULL || id[0] == '\0' ||
        !count(tokens, "input", &input) || !count(tokens, "output", &output) ||
        !count(tokens, "cached", &cached) || !count(tokens, "thoughts", &thoughts) ||
        !count(tokens, "tool", &tool) ||
        (timestamp != NULL && rp_rfc3339_parse(timestamp, &time_us) != 0)) {
        return false;
    }
    if (model != NULL && strcmp(model, "<synthetic>") == 0) {
        out->synthetic++;
        return true;
    }
    /* The ledger's shape: cached tokens apart from the rest of the prompt (which includes
     * them), tool-use prompt tokens as input, thinking tokens billed as output. */
    rp_json usage = rp_json_make_object();
    rp_json_object_set(a, &usage, "input_tokens",
                       rp_json_make_int((input > cached ? input - cached : 0) + tool));
    rp_json_object_set(a, &usage, "output_tokens", rp_json_make_int(output + thoughts));
    rp_json_object_set(a, &usage, "cache_read_input_tokens", rp_json_make_int(cached));
    if (out->n_messages == *cap) {
        size_t n = *cap ? *cap * 2 : 16;
        out->messages = rp_arena_realloc(a, out->messages, *cap * sizeof *out->messages,
                                         n * sizeof *out->messages);
        *cap = n;
    }
    rp_cost_transcript_message *m = &out->messages[out->n_messages++];
    m->id = rp_arena_strdup(a, id);
    m->model = model && model[0] ? rp_arena_strdup(a, model) : NULL;
    m->time_us = time_us;
    m->usage = rp_json_new(a, usage);
    if (m->model != NULL) {
        out->model = m->model;
    }
    return true;
}

int rp_cost_transcript_parse_gemini(rp_arena *a, const char *chunk, size_t len,
                                    rp_cost_transcript_chunk *out)
{
    memset(out, 0, sizeof *out);
    if (chunk == NULL) {
        return 0;
    }
    rp_arena scratch = {0};
    size_t cap = 0, pos = 0;
    while (pos < len) {
        const char *nl = memchr(chunk + pos, '\n', len - pos);
        size_t line_len = nl ? (size_t)(nl - (chunk + pos)) : len - pos;
        if (nl == NULL && line_len <= RP_COST_TRANSCRIPT_MAX_LINE) {
            break; /* a partial line: next time */
        }
        out->lines++;
        if (line_len > RP_COST_TRANSCRIPT_MAX_LINE) {
            out->oversized++;
        } else if (line_len > 0) {
            rp_arena_reset(&scratch);
            if (!read_record(a, &scratch, chunk + pos, line_len, out, &cap)) {
                out->malformed++;
            }
        }
        pos += nl ? line_len + 1 : line_len;
    }
    rp_arena_free(&scratch);
    out->consumed = pos;
    return 0;
}
