/* codex_rollout.c — Codex rollout lines → one usage per model response (codex_rollout.h).
 *
 * One pass over the chunk's complete lines. A rollout line can be large (a tool's whole output,
 * the base instructions), and most say nothing about spend: a line is parsed only when it
 * contains one of the words of the three line types read (or, when a tool call's outcome is
 * looked for, "item_completed" and the call's quoted id), and then in a scratch arena reset per
 * line; only the few fields kept are copied out. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include "hosts/codex_rollout.h"

#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "core/json.h"
#include "cost/usage.h"

typedef enum line_kind { LINE_IGNORED = 0, LINE_MALFORMED, LINE_OVERSIZED } line_kind;

typedef struct rollout_state {
    rp_arena *a;
    const char *model;   /* of the last turn_context so far (or the caller's), NULL for none */
    const char *last_id; /* of the last response emitted */
    rp_cost_transcript_chunk *out;
    size_t cap;
    const char *call_id; /* the tool call whose outcome is looked for, or NULL */
    const char *needle;  /* "id":"CALL_ID", as Codex writes it */
    rp_hook_tool_outcome call_outcome;
} rollout_state;

/* Only a line with one of these words can hold usage or a model. */
static bool may_matter(const char *line, size_t len)
{
    static const char *const words[] = {"token_count", "token_usage_record", "turn_context"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (memmem(line, len, words[i], strlen(words[i])) != NULL) {
            return true;
        }
    }
    return false;
}

/* Only a line with both can be the completed item of the call whose id is `needle`. */
static bool may_be_item(const char *line, size_t len, const char *needle)
{
    static const char word[] = "item_completed";
    return needle != NULL && memmem(line, len, word, sizeof word - 1) != NULL &&
           memmem(line, len, needle, strlen(needle)) != NULL;
}

static bool str_is(const char *s, const char *want)
{
    return s != NULL && strcmp(s, want) == 0;
}

/* True when `line` is the item_completed of call_id, with *outcome what it says. Codex's items
 * of a tool call (CommandExecution, FileChange, McpToolCall, DynamicToolCall) share `status`; a
 * command also has its exit_code, which is the signal even if the status were to disagree. */
static bool item_outcome(const rp_json *line, const char *call_id, rp_hook_tool_outcome *outcome)
{
    const rp_json *payload = rp_json_get(line, "payload");
    const rp_json *item = rp_json_get(payload, "item");
    if (!str_is(rp_json_get_str(line, "type"), "event_msg") ||
        !str_is(rp_json_get_str(payload, "type"), "item_completed") ||
        !str_is(rp_json_get_str(item, "id"), call_id)) {
        return false;
    }
    const char *status = rp_json_get_str(item, "status");
    const rp_json *code = rp_json_get(item, "exit_code");
    bool nonzero =
        code != NULL && rp_json_is_integer(code) && !(code->type == RP_JSON_INT && code->v.i == 0);
    if (nonzero || str_is(status, "failed")) {
        *outcome = RP_HOOK_TOOL_ERROR;
    } else if (str_is(status, "completed")) {
        *outcome = RP_HOOK_TOOL_OK;
    } else {
        *outcome = RP_HOOK_TOOL_UNKNOWN; /* in progress, declined, or a status not known */
    }
    return true;
}

/* A Codex usage object's counts, checked by the ledger's own rule (rp_cost_usage_read: integers >=
 * 0, absent = 0, clamped to the bound) under the ledger's names: input_tokens, cache read =
 * cached_input_tokens, output_tokens, cache write = cache_write_input_tokens. -1 when usage is
 * not an object or a count is not a count. */
static int read_counts(rp_arena *scratch, const rp_json *usage, rp_usage_record *rec)
{
    static const char *const names[][2] = {
        {"input_tokens", "input_tokens"},
        {"cached_input_tokens", "cache_read_input_tokens"},
        {"output_tokens", "output_tokens"},
        {"cache_write_input_tokens", "cache_creation_input_tokens"},
    };
    if (!rp_json_is_object(usage)) {
        return -1;
    }
    rp_json *o = rp_json_new(scratch, rp_json_make_object());
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const rp_json *v = rp_json_get(usage, names[i][0]);
        if (v != NULL) {
            rp_json_object_set(scratch, o, names[i][1], *v);
        }
    }
    char err[160];
    memset(rec, 0, sizeof *rec);
    return rp_cost_usage_read(o, NULL, NULL, true, rec, err, sizeof err);
}

static void emit(rollout_state *s, const char *id, int64_t time_us, const rp_usage_record *u)
{
    rp_cost_transcript_chunk *out = s->out;
    if (out->n_messages == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        out->messages = rp_arena_realloc(s->a, out->messages, s->cap * sizeof *out->messages,
                                         cap * sizeof *out->messages);
        s->cap = cap;
    }
    /* OpenAI counts the cached tokens inside input_tokens; the ledger keeps them apart. */
    int64_t uncached = u->input_tokens > u->cache_read_input_tokens
                           ? u->input_tokens - u->cache_read_input_tokens
                           : 0;
    rp_json *usage = rp_json_new(s->a, rp_json_make_object());
    rp_json_object_set(s->a, usage, "input_tokens", rp_json_make_int(uncached));
    rp_json_object_set(s->a, usage, "output_tokens", rp_json_make_int(u->output_tokens));
    rp_json_object_set(s->a, usage, "cache_read_input_tokens",
                       rp_json_make_int(u->cache_read_input_tokens));
    rp_json_object_set(s->a, usage, "cache_creation_input_tokens",
                       rp_json_make_int(u->cache_creation_input_tokens));
    rp_cost_transcript_message *m = &out->messages[out->n_messages++];
    m->id = rp_arena_strdup(s->a, id);
    m->model = s->model;
    m->time_us = time_us;
    m->usage = usage;
    s->last_id = m->id;
}

/* One complete line that may hold usage or a model, parsed in scratch. */
static line_kind read_usage(rollout_state *s, rp_arena *scratch, const rp_json *line)
{
    const char *type = rp_json_get_str(line, "type");
    const rp_json *payload = rp_json_get(line, "payload");
    if (type == NULL) {
        return LINE_IGNORED;
    }
    if (strcmp(type, "turn_context") == 0) {
        const char *model = rp_json_get_str(payload, "model");
        if (model != NULL && model[0] != '\0') {
            s->model = rp_arena_strdup(s->a, model);
            s->out->model = s->model;
        }
        return LINE_IGNORED;
    }
    const rp_json *usage, *total;
    if (strcmp(type, "token_usage_record") == 0) {
        usage = rp_json_get(payload, "usage");
        total = rp_json_get(payload, "thread_token_usage");
    } else if (strcmp(type, "event_msg") == 0 && rp_json_get_str(payload, "type") != NULL &&
               strcmp(rp_json_get_str(payload, "type"), "token_count") == 0) {
        /* info is null until the first response, and in a token_count sent for the rate
         * limits only. */
        const rp_json *info = rp_json_get(payload, "info");
        if (info == NULL || info->type == RP_JSON_NULL) {
            return LINE_IGNORED;
        }
        usage = rp_json_get(info, "last_token_usage");
        total = rp_json_get(info, "total_token_usage");
    } else {
        return LINE_IGNORED;
    }
    rp_usage_record u, t;
    if (read_counts(scratch, usage, &u) != 0 || read_counts(scratch, total, &t) != 0) {
        return LINE_MALFORMED;
    }
    /* The running total after the response names it: the same in both of its lines, and it
     * grows with every response that used a token. */
    const char *id =
        rp_arena_sprintf(scratch, "codex-total:%lld:%lld:%lld:%lld", (long long)t.input_tokens,
                         (long long)t.cache_read_input_tokens, (long long)t.output_tokens,
                         (long long)t.cache_creation_input_tokens);
    if (s->last_id != NULL && strcmp(s->last_id, id) == 0) {
        return LINE_IGNORED; /* the same response again */
    }
    /* A line's own time; one that cannot be read is charged now (hook_spend.c), not dropped. */
    const char *timestamp = rp_json_get_str(line, "timestamp");
    int64_t time_us = 0;
    if (timestamp == NULL || rp_rfc3339_parse(timestamp, &time_us) != 0) {
        time_us = 0;
    }
    emit(s, id, time_us, &u);
    return LINE_IGNORED;
}

/* One complete line (without its '\n'): parsed in scratch when it may matter. */
static line_kind read_line(rollout_state *s, rp_arena *scratch, const char *text, size_t len)
{
    bool usage = may_matter(text, len);
    bool item = may_be_item(text, len, s->needle);
    if (!usage && !item) {
        return LINE_IGNORED;
    }
    rp_arena_reset(scratch);
    rp_json_error jerr;
    const rp_json *line = rp_json_parse(scratch, text, len, &jerr);
    if (line == NULL || line->type != RP_JSON_OBJECT) {
        return LINE_MALFORMED;
    }
    rp_hook_tool_outcome outcome;
    if (item && item_outcome(line, s->call_id, &outcome)) {
        s->call_outcome = outcome;
    }
    return usage ? read_usage(s, scratch, line) : LINE_IGNORED;
}

int rp_hook_codex_rollout_parse(rp_arena *a, const char *chunk, size_t len, const char *model,
                                rp_cost_transcript_chunk *out)
{
    return rp_hook_codex_rollout_parse_call(a, chunk, len, model, NULL, out, NULL);
}

int rp_hook_codex_rollout_parse_call(rp_arena *a, const char *chunk, size_t len, const char *model,
                                     const char *call_id, rp_cost_transcript_chunk *out,
                                     rp_hook_tool_outcome *call_outcome)
{
    memset(out, 0, sizeof *out);
    rollout_state s = {.a = a,
                       .model = model && model[0] ? rp_arena_strdup(a, model) : NULL,
                       .out = out,
                       .call_id = call_id,
                       .needle = call_id ? rp_arena_sprintf(a, "\"id\":\"%s\"", call_id) : NULL};
    out->messages = rp_arena_alloc(a, sizeof *out->messages);
    if (call_outcome != NULL) {
        *call_outcome = RP_HOOK_TOOL_UNKNOWN;
    }
    if (chunk == NULL) {
        return 0;
    }
    rp_arena scratch = {0};
    size_t pos = 0;
    while (pos < len) {
        const char *nl = memchr(chunk + pos, '\n', len - pos);
        size_t line_len = nl ? (size_t)(nl - (chunk + pos)) : len - pos;
        line_kind kind = LINE_OVERSIZED;
        if (nl == NULL) {
            /* A partial line is left for next time unless it is already too long to keep. */
            if (line_len <= RP_COST_TRANSCRIPT_MAX_LINE) {
                break;
            }
            pos = len;
        } else {
            if (line_len <= RP_COST_TRANSCRIPT_MAX_LINE) {
                kind = read_line(&s, &scratch, chunk + pos, line_len);
            }
            pos += line_len + 1;
        }
        out->lines++;
        out->malformed += kind == LINE_MALFORMED;
        out->oversized += kind == LINE_OVERSIZED;
    }
    rp_arena_free(&scratch);
    out->consumed = pos;
    if (call_outcome != NULL) {
        *call_outcome = s.call_outcome;
    }
    return 0;
}

rp_hook_tool_outcome rp_hook_codex_rollout_call_outcome(const char *chunk, size_t len,
                                                        const char *call_id)
{
    if (chunk == NULL || call_id == NULL) {
        return RP_HOOK_TOOL_UNKNOWN;
    }
    rp_arena a = {0};
    rp_arena scratch = {0};
    rp_hook_tool_outcome found = RP_HOOK_TOOL_UNKNOWN;
    const char *needle = rp_arena_sprintf(&a, "\"id\":\"%s\"", call_id);
    size_t pos = 0;
    const char *nl;
    while (pos < len && (nl = memchr(chunk + pos, '\n', len - pos)) != NULL) {
        size_t line_len = (size_t)(nl - (chunk + pos));
        if (line_len <= RP_COST_TRANSCRIPT_MAX_LINE && may_be_item(chunk + pos, line_len, needle)) {
            rp_arena_reset(&scratch);
            rp_json_error jerr;
            const rp_json *line = rp_json_parse(&scratch, chunk + pos, line_len, &jerr);
            rp_hook_tool_outcome outcome;
            if (line != NULL && line->type == RP_JSON_OBJECT &&
                item_outcome(line, call_id, &outcome)) {
                found = outcome;
            }
        }
        pos += line_len + 1;
    }
    rp_arena_free(&scratch);
    rp_arena_free(&a);
    return found;
}
