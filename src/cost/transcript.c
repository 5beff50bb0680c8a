/* transcript.c — Claude Code transcript lines → one usage per assistant message (transcript.h).
 *
 * Two passes over the chunk. The first classifies every complete line and folds the assistant
 * lines into messages by id (a hash table: a chunk can hold many thousands of messages). The
 * second decides where the read stops — before the last message when it may still grow — and
 * emits the messages and counts the lines that lie wholly before that point, so a line that will
 * be read again next time is counted only then. Each line is parsed in a scratch arena that is
 * reset per line: only the few fields kept are copied out, so the output arena holds no text. */
#include "cost/transcript.h"

#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "cost/usage.h"

typedef enum line_kind {
    LINE_IGNORED = 0, /* not an assistant line with usage: tool results, summary, system, ... */
    LINE_PROMPT,      /* a user line that is not a tool result: the response before it ended */
    LINE_MALFORMED,
    LINE_OVERSIZED,
    LINE_SYNTHETIC,
    LINE_MESSAGE
} line_kind;

typedef struct line_info {
    size_t end; /* one past its '\n' (or the chunk's end for an oversized partial line) */
    line_kind kind;
} line_info;

typedef struct message_acc {
    rp_cost_transcript_message m;
    size_t first_start; /* where its first line starts */
    size_t last_end;    /* where its last line ends */
    bool proven;        /* known complete: a stop_reason, or the host acts on its tool_use */
    bool ends_turn;     /* its stop_reason is not tool_use */
} message_acc;

typedef struct parse_state {
    rp_arena *a;
    const char *tool_use_id; /* the tool_use the host is acting on, or NULL */
    const char *model;       /* of the last assistant line (synthetic ones aside), or NULL */
    message_acc *msgs;
    size_t n_msgs, cap_msgs;
    size_t *slots; /* hash table of message index + 1 (0 = empty), by id */
    size_t n_slots;
    line_info *lines;
    size_t n_lines, cap_lines;
} parse_state;

static const char *const token_fields[] = {
    "input_tokens",
    "output_tokens",
    "cache_read_input_tokens",
    "cache_creation_input_tokens",
};

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (; *s; s++) {
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    }
    return h;
}

static void grow_slots(parse_state *p)
{
    size_t n = p->n_slots ? p->n_slots * 2 : 64;
    size_t *slots = rp_arena_calloc(p->a, n * sizeof *slots);
    for (size_t i = 0; i < p->n_msgs; i++) {
        size_t j = hash_str(p->msgs[i].m.id) & (n - 1);
        while (slots[j] != 0) {
            j = (j + 1) & (n - 1);
        }
        slots[j] = i + 1;
    }
    p->slots = slots;
    p->n_slots = n;
}

/* The message with this id, created (with first_start = start) when new. */
static message_acc *find_message(parse_state *p, const char *id, size_t start)
{
    if (2 * (p->n_msgs + 1) > p->n_slots) {
        grow_slots(p);
    }
    size_t j = hash_str(id) & (p->n_slots - 1);
    while (p->slots[j] != 0) {
        message_acc *m = &p->msgs[p->slots[j] - 1];
        if (strcmp(m->m.id, id) == 0) {
            return m;
        }
        j = (j + 1) & (p->n_slots - 1);
    }
    if (p->n_msgs == p->cap_msgs) {
        size_t cap = p->cap_msgs ? p->cap_msgs * 2 : 16;
        p->msgs =
            rp_arena_realloc(p->a, p->msgs, p->cap_msgs * sizeof *p->msgs, cap * sizeof *p->msgs);
        p->cap_msgs = cap;
    }
    message_acc *m = &p->msgs[p->n_msgs++];
    memset(m, 0, sizeof *m);
    m->m.id = rp_arena_strdup(p->a, id);
    m->first_start = start;
    p->slots[j] = p->n_msgs;
    return m;
}

static void add_line(parse_state *p, size_t end, line_kind kind)
{
    if (p->n_lines == p->cap_lines) {
        size_t cap = p->cap_lines ? p->cap_lines * 2 : 64;
        p->lines = rp_arena_realloc(p->a, p->lines, p->cap_lines * sizeof *p->lines,
                                    cap * sizeof *p->lines);
        p->cap_lines = cap;
    }
    p->lines[p->n_lines].end = end;
    p->lines[p->n_lines].kind = kind;
    p->n_lines++;
}

/* A string member, or "" when absent; NULL when present with another type. */
static const char *optional_str(const rp_json *obj, const char *key)
{
    const rp_json *v = rp_json_get(obj, key);
    if (v == NULL || v->type == RP_JSON_NULL) {
        return "";
    }
    return rp_json_str(v);
}

/* The usage object in rp_cost_usage_read's shape (only the four counts, copied into a), or NULL
 * when a count has a wrong type or value: the line is then malformed, never silently zero. */
static rp_json *read_usage(rp_arena *a, const rp_json *usage)
{
    rp_json *out = rp_json_new(a, rp_json_make_object());
    for (size_t i = 0; i < sizeof token_fields / sizeof token_fields[0]; i++) {
        const rp_json *v = rp_json_get(usage, token_fields[i]);
        if (v != NULL && v->type != RP_JSON_NULL) {
            rp_json_object_set(a, out, token_fields[i], rp_json_clone(a, v));
        }
    }
    rp_usage_record check;
    char err[160];
    if (rp_cost_usage_read(out, NULL, NULL, true, &check, err, sizeof err) != 0) {
        return NULL;
    }
    return out;
}

/* True when message.content holds a tool_use block with this id. */
static bool has_tool_use(const rp_json *message, const char *id)
{
    const rp_json *content = rp_json_get(message, "content");
    for (size_t i = 0; id != NULL && rp_json_at(content, i); i++) {
        const rp_json *block = rp_json_at(content, i);
        const char *type = rp_json_get_str(block, "type");
        const char *block_id = rp_json_get_str(block, "id");
        if (type && block_id && strcmp(type, "tool_use") == 0 && strcmp(block_id, id) == 0) {
            return true;
        }
    }
    return false;
}

/* A user line is a prompt (or an interruption) unless it carries a tool result: the streaming
 * tool executor may write a result while the response that asked for it is still streaming. */
static line_kind user_line(const rp_json *line)
{
    const rp_json *content = rp_json_get(rp_json_get(line, "message"), "content");
    for (size_t i = 0; rp_json_at(content, i); i++) {
        const char *type = rp_json_get_str(rp_json_at(content, i), "type");
        if (type && strcmp(type, "tool_result") == 0) {
            return LINE_IGNORED;
        }
    }
    return LINE_PROMPT;
}

/* One complete line [start, end) (without its '\n'), parsed in scratch. */
static line_kind read_line(parse_state *p, rp_arena *scratch, const char *text, size_t start,
                           size_t len)
{
    rp_json_error jerr;
    const rp_json *line = rp_json_parse(scratch, text, len, &jerr);
    if (line == NULL || line->type != RP_JSON_OBJECT) {
        return LINE_MALFORMED;
    }
    const char *type = rp_json_get_str(line, "type");
    if (type != NULL && strcmp(type, "user") == 0) {
        return user_line(line);
    }
    if (type == NULL || strcmp(type, "assistant") != 0) {
        return LINE_IGNORED;
    }
    const rp_json *message = rp_json_get(line, "message");
    if (!rp_json_is_object(message)) {
        return LINE_MALFORMED;
    }
    const rp_json *usage = rp_json_get(message, "usage");
    if (usage == NULL || usage->type == RP_JSON_NULL) {
        return LINE_IGNORED;
    }
    const char *model = optional_str(message, "model");
    const char *id = optional_str(message, "id");
    const char *request_id = optional_str(line, "requestId");
    const char *timestamp = optional_str(line, "timestamp");
    if (!rp_json_is_object(usage) || model == NULL || id == NULL || request_id == NULL ||
        timestamp == NULL) {
        return LINE_MALFORMED;
    }
    if (strcmp(model, "<synthetic>") == 0) {
        return LINE_SYNTHETIC;
    }
    if (id[0] == '\0') {
        id = request_id;
    }
    int64_t time_us = 0;
    if (id[0] == '\0' || (timestamp[0] != '\0' && rp_rfc3339_parse(timestamp, &time_us) != 0)) {
        return LINE_MALFORMED;
    }
    rp_json *kept = read_usage(p->a, usage);
    if (kept == NULL) {
        return LINE_MALFORMED;
    }
    message_acc *m = find_message(p, id, start);
    m->m.model = model[0] ? rp_arena_strdup(p->a, model) : NULL;
    if (m->m.model != NULL) {
        p->model = m->m.model;
    }
    /* stop_reason is set by the response's last event, with the final usage. */
    const rp_json *stop = rp_json_get(message, "stop_reason");
    if (stop != NULL && stop->type != RP_JSON_NULL) {
        m->proven = true;
        m->ends_turn = !rp_json_is_string(stop) || strcmp(stop->v.s, "tool_use") != 0;
    }
    if (has_tool_use(message, p->tool_use_id)) {
        m->proven = true;
    }
    m->m.time_us = time_us;
    m->m.usage = kept;
    m->last_end = start + len + 1;
    return LINE_MESSAGE;
}

/* Pass 1. Returns the end of the last line classified; *oversized_tail says the chunk ended in
 * a partial line already over the bound (consumed as one oversized line). */
static size_t classify(parse_state *p, const char *chunk, size_t len, bool *oversized_tail)
{
    *oversized_tail = false;
    rp_arena scratch = {0};
    size_t pos = 0;
    while (pos < len) {
        const char *nl = memchr(chunk + pos, '\n', len - pos);
        size_t line_len = nl ? (size_t)(nl - (chunk + pos)) : len - pos;
        if (nl == NULL) {
            /* A partial line is left for next time unless it is already too long to keep. */
            if (line_len > RP_COST_TRANSCRIPT_MAX_LINE) {
                add_line(p, len, LINE_OVERSIZED);
                pos = len;
                *oversized_tail = true;
            }
            break;
        }
        line_kind kind = LINE_OVERSIZED;
        if (line_len <= RP_COST_TRANSCRIPT_MAX_LINE) {
            rp_arena_reset(&scratch);
            kind =
                line_len == 0 ? LINE_IGNORED : read_line(p, &scratch, chunk + pos, pos, line_len);
        }
        pos += line_len + 1;
        add_line(p, pos, kind);
    }
    rp_arena_free(&scratch);
    return pos;
}

/* The message whose last line is the chunk's last assistant line. */
static const message_acc *last_message(const parse_state *p)
{
    const message_acc *last = NULL;
    for (size_t i = 0; i < p->n_msgs; i++) {
        if (last == NULL || p->msgs[i].last_end > last->last_end) {
            last = &p->msgs[i];
        }
    }
    return last;
}

int rp_cost_transcript_parse(rp_arena *a, const char *chunk, size_t len, bool final,
                             const char *tool_use_id, rp_cost_transcript_chunk *out)
{
    memset(out, 0, sizeof *out);
    if (chunk == NULL) {
        return 0;
    }
    parse_state p = {.a = a, .tool_use_id = tool_use_id && tool_use_id[0] ? tool_use_id : NULL};
    bool oversized_tail;
    size_t cut = classify(&p, chunk, len, &oversized_tail);
    out->model = p.model;
    const message_acc *last = last_message(&p);
    /* The last message is done when the turn is (final), when one of its lines has a
     * stop_reason, when the host acts on a tool_use it requested, or when a line only written
     * after a response has ended follows it (a prompt, a synthetic message). An oversized
     * partial line counts as done too (deferring the message would re-read the runaway line on
     * every call). */
    bool later_proof = false, later_prompt = false;
    for (size_t i = p.n_lines; last != NULL && i-- > 0 && p.lines[i].end > last->last_end;) {
        later_prompt = later_prompt || p.lines[i].kind == LINE_PROMPT;
        later_proof = later_proof || later_prompt || p.lines[i].kind == LINE_SYNTHETIC;
    }
    /* A prompt after the turn's end starts another turn, not yet ended. */
    out->ended = last != NULL && last->ends_turn && !later_prompt;
    if (!final && last != NULL && !last->proven && !later_proof && !oversized_tail) {
        cut = last->first_start;
    }
    out->consumed = cut;

    out->messages = rp_arena_alloc(a, (p.n_msgs ? p.n_msgs : 1) * sizeof *out->messages);
    for (size_t i = 0; i < p.n_msgs; i++) {
        if (p.msgs[i].last_end <= cut) {
            out->messages[out->n_messages++] = p.msgs[i].m;
        }
    }
    for (size_t i = 0; i < p.n_lines && p.lines[i].end <= cut; i++) {
        out->lines++;
        switch (p.lines[i].kind) {
        case LINE_MALFORMED:
            out->malformed++;
            break;
        case LINE_OVERSIZED:
            out->oversized++;
            break;
        case LINE_SYNTHETIC:
            out->synthetic++;
            break;
        default:
            break;
        }
    }
    return 0;
}

const char *rp_cost_transcript_agent_path(rp_arena *a, const char *main_path, const char *agent_id)
{
    static const char ext[] = ".jsonl";
    size_t n = main_path ? strlen(main_path) : 0;
    if (n <= sizeof ext - 1 || strcmp(main_path + n - (sizeof ext - 1), ext) != 0 ||
        agent_id == NULL || agent_id[0] == '\0' ||
        strspn(agent_id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
            strlen(agent_id)) {
        return NULL;
    }
    return rp_arena_sprintf(a, "%.*s/subagents/agent-%s.jsonl", (int)(n - (sizeof ext - 1)),
                            main_path, agent_id);
}
