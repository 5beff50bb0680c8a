/* hook_spend.c — the I/O around the transcript readers (src/cost/transcript.c, Claude Code and
 * Gemini; src/hosts/codex_rollout.c, Codex): read the transcript's new bytes, record
 * its messages in the ledger, remember how far it was read (hook_spend.h).
 *
 * The new bytes are read in chunks, each parsed and committed with the offset it reached, so
 * that a call cut short by the hook's deadline keeps what it recorded and the next call goes on
 * from there: a backlog (a transcript read for the first time, a busy machine) is worked off
 * call after call instead of timing out on the same slice forever (issue 16).
 *
 * The offset is read before a chunk's transaction and written inside it, with the rows. Two
 * hooks of one session running at once may then read the same bytes: the ledger's per-session
 * dedupe on the message id keeps that exact, and the later commit's offset is no less
 * complete. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include "hosts/hook_spend.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hosts/hook_deadline.h"
#include "core/arena.h"
#include "core/clock.h"
#include "cost/usage.h"
#include "hosts/codex_rollout.h"
#include "cost/transcript.h"

/* The transcript's bytes from *offset (reset to 0 when the file is now shorter), at most `max`.
 * *data is malloc'd (NULL when nothing is new); *at_eof says the read reached the end of the
 * file as it was, *size is that size. Returns 0, 1 when the file does not exist, -1 with err. */
static int read_bytes(const char *path, int64_t *offset, size_t max, char **data, size_t *len,
                      bool *at_eof, int64_t *size, char *err, size_t err_size)
{
    *data = NULL;
    *len = 0;
    *at_eof = true;
    *size = 0;
    /* O_NONBLOCK: a FIFO named as the transcript must not hang the hook in open(). */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT || errno == ENOTDIR) {
            return 1;
        }
        snprintf(err, err_size, "cannot open transcript %s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, err_size, "transcript %s is not a regular file", path);
        close(fd);
        return -1;
    }
    *size = (int64_t)st.st_size;
    if (*size < *offset) {
        *offset = 0; /* replaced or truncated: read it again from the start */
    }
    int64_t want = *size - *offset;
    if (want > (int64_t)max) {
        want = (int64_t)max;
        *at_eof = false;
    }
    if (want == 0) {
        close(fd);
        return 0;
    }
    char *buf = malloc((size_t)want);
    if (buf == NULL) {
        abort();
    }
    size_t got = 0;
    while (got < (size_t)want) {
        ssize_t n = pread(fd, buf + got, (size_t)want - got, (off_t)(*offset + (int64_t)got));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            snprintf(err, err_size, "cannot read transcript %s: %s", path, strerror(errno));
            free(buf);
            close(fd);
            return -1;
        }
        if (n == 0) {
            break; /* truncated while reading: what was read is still whole lines or kept */
        }
        got += (size_t)n;
    }
    close(fd);
    *data = buf;
    *len = got;
    return 0;
}

/* The file's size now, -1 when it cannot be stat'ed (missing): a wait looks again only when
 * it changed. */
static int64_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (int64_t)st.st_size : -1;
}

#define WAIT_STEP_MS  10
#define CONSUMED_TAIL 65536 /* how far back a tool_use already read is looked for */
/* A chunk's bounds, and the rate (bytes per ms, parsing and committing) the first chunk of a
 * call is sized for: a loaded machine's, well below what an idle one does. */
#define CHUNK_MIN   (4u << 10)
#define CHUNK_MAX   (4u << 20)
#define FIRST_RATE  4096
#define RATE_MIN_US 5000 /* a rate measured over less work is noise */

static int64_t monotonic_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* What a wait is for: the line of a tool_use (needle, its quoted id), else the end of the
 * agent's turn (an assistant message with a final stop_reason). */
static bool arrived(const char *data, size_t len, const char *needle)
{
    if (data == NULL) {
        return false;
    }
    if (needle != NULL) {
        return memmem(data, len, needle, strlen(needle)) != NULL;
    }
    rp_arena scratch = {0};
    rp_cost_transcript_chunk c;
    rp_cost_transcript_parse(&scratch, data, len, true, NULL, &c);
    bool ended = c.ended;
    rp_arena_free(&scratch);
    return ended;
}

/* The last CONSUMED_TAIL bytes before `offset`, malloc'd into *buf (*len 0 on a read error).
 * The tail starts mid-line: its first line reads as malformed and is skipped. */
static void read_tail(const char *path, int64_t offset, char **buf, size_t *len)
{
    size_t want = offset > CONSUMED_TAIL ? CONSUMED_TAIL : (size_t)offset;
    *buf = malloc(want ? want : 1);
    if (*buf == NULL) {
        abort();
    }
    *len = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        return;
    }
    ssize_t n = want ? pread(fd, *buf, want, (off_t)(offset - (int64_t)want)) : 0;
    *len = n > 0 ? (size_t)n : 0;
    close(fd);
}

/* True when the last bytes read before `offset` already hold what a wait would be for (the
 * tool_use of a second tool call of one message, a turn's end read by an earlier Stop). A read
 * error counts as no. */
static bool arrived_before(const char *path, int64_t offset, const char *needle)
{
    char *buf;
    size_t n;
    read_tail(path, offset, &buf, &n);
    bool found = n > 0 && arrived(buf, n, needle);
    free(buf);
    return found;
}

/* Codex writes a call's completed item before its PostToolUse, so it is in this call's new
 * bytes, unless another event of the session (a parallel call's) read past it first: then it
 * is in the last bytes read before them. */
static rp_hook_tool_outcome codex_outcome_before(const char *path, int64_t offset,
                                                 const char *call_id)
{
    char *buf;
    size_t n;
    read_tail(path, offset, &buf, &n);
    rp_hook_tool_outcome outcome = rp_hook_codex_rollout_call_outcome(buf, n, call_id);
    free(buf);
    return outcome;
}

/* The ledger row of one message. The time is the message's own, but never in the future nor
 * before 1970 (the ledger refuses those, and one bad line must not fail every hook): then now. */
static int message_record(const rp_cost_transcript_message *m, const rp_cost_pricing *pricing,
                          const char *session_id, const char *user, const char *parent,
                          const char *root, int64_t now_us, rp_usage_record *rec)
{
    memset(rec, 0, sizeof *rec);
    char why[256];
    if (rp_cost_usage_read(m->usage, m->model, pricing, true, rec, why, sizeof why) != 0) {
        return -1; /* transcript.c checked the counts already */
    }
    rec->time_us = m->time_us > 0 && m->time_us <= now_us ? m->time_us : now_us;
    rec->session_id = session_id;
    rec->user_id = user;
    rec->parent_session_id = parent;
    rec->root_session_id = root;
    rec->model = m->model;
    rec->record_id = m->id;
    return 0;
}

/* Records the parsed messages, the new offset and the model in one transaction. */
static int record_chunk(rp_store *store, const rp_cost_pricing *pricing,
                        const rp_hook_transcript_source *src, const rp_cost_transcript_chunk *c,
                        int64_t new_offset, rp_hook_transcript_stats *stats, char *err,
                        size_t err_size)
{
    const char *session_id = src->session_id;
    if (rp_store_begin(store) != 0) {
        snprintf(err, err_size, "%s", rp_store_error(store));
        return -1;
    }
    rp_hook_transcript_stats t = *stats;
    int64_t now_us = rp_now_us();
    for (size_t i = 0; i < c->n_messages; i++) {
        rp_usage_record rec;
        if (message_record(&c->messages[i], pricing, session_id, src->user, src->parent_session_id,
                           src->root_session_id, now_us, &rec) != 0) {
            t.skipped_lines++;
            continue;
        }
        bool duplicate = false;
        if (rp_store_record_usage(store, &rec, &duplicate) != 0) {
            goto fail;
        }
        if (duplicate) {
            t.duplicates++;
            continue;
        }
        t.recorded++;
        if (rec.priced) {
            t.cost_nusd += rec.cost_nusd;
        } else {
            t.unpriced++;
        }
    }
    /* Written even when unchanged: the row names this transcript as the session's latest,
     * which is how a sub-agent's is found again after its SubagentStop. */
    if (rp_store_set_transcript_offset(store, session_id, src->path, new_offset, c->model) != 0) {
        goto fail;
    }
    if (rp_store_commit(store) != 0) {
        goto fail;
    }
    *stats = t;
    return 0;

fail:
    snprintf(err, err_size, "%s", rp_store_error(store));
    rp_store_rollback(store);
    return -1;
}

/* One call's reading: chunk after chunk, each parsed and committed with its offset. */
typedef struct reader {
    rp_store *store;
    const rp_cost_pricing *pricing;
    const rp_hook_transcript_source *src;
    rp_hook_transcript_stats *stats;
    const char *needle;   /* the tool_use's quoted id the wait is for, or NULL */
    const char *call_id;  /* Codex: the call whose outcome is looked for, or NULL */
    int64_t offset;       /* committed: the next chunk starts here */
    int64_t size;         /* the file's size at the last read (-1: missing) */
    bool reset;           /* the file was shorter than the stored offset: read from 0 */
    bool at_eof;          /* the last chunk reached the end of the file */
    bool arrived;         /* the bytes read hold what the wait is for */
    int64_t until_us;     /* no chunk is started after this (monotonic); -1: no deadline */
    int64_t bytes, spent; /* read and recorded so far, and the microseconds it took */
    size_t total;         /* bytes read by this call, at most RP_HOOK_TRANSCRIPT_MAX_READ */
} reader;

/* How many bytes the next chunk may have: what fits in half the time left at the rate
 * measured so far (the first chunks: at a slow machine's rate), between CHUNK_MIN and
 * CHUNK_MAX; 0 when the time is up or the call's read cap is reached. */
static size_t next_chunk(const reader *r)
{
    if (r->total >= RP_HOOK_TRANSCRIPT_MAX_READ) {
        return 0;
    }
    size_t cap = RP_HOOK_TRANSCRIPT_MAX_READ - r->total;
    size_t want = CHUNK_MAX;
    if (r->until_us >= 0) {
        int64_t left = (r->until_us - monotonic_us()) / 1000;
        if (left <= 0) {
            return 0;
        }
        /* bytes per ms, measured once there was enough work to measure */
        int64_t rate = r->spent >= RATE_MIN_US ? r->bytes * 1000 / r->spent : FIRST_RATE;
        if (rate < 1) {
            rate = 1;
        }
        int64_t fits = rate * left / 2;
        if (fits < (int64_t)CHUNK_MIN) {
            fits = CHUNK_MIN; /* a few lines: even a tiny deadline_ms makes progress */
        }
        if (fits < (int64_t)want) {
            want = (size_t)fits;
        }
    }
    return want < cap ? want : cap;
}

/* Parses one chunk (the end of the turn completes its last message only at the end of the file)
 * and records it; the chunk's data is in scratch. */
static int record_one(reader *r, rp_arena *scratch, const char *data, size_t len, bool final,
                      int64_t from, rp_cost_transcript_chunk *c, char *err, size_t err_size)
{
    const rp_hook_transcript_source *src = r->src;
    rp_hook_transcript_stats *stats = r->stats;
    if (src->format == RP_HOOK_TRANSCRIPT_GEMINI) {
        rp_cost_transcript_parse_gemini(scratch, data, len, c);
    } else if (src->format == RP_HOOK_TRANSCRIPT_CODEX) {
        /* A usage line names no model: the one remembered from earlier reads until the
         * chunk's first turn_context. */
        rp_hook_tool_outcome outcome = RP_HOOK_TOOL_UNKNOWN;
        rp_hook_codex_rollout_parse_call(scratch, data, len, stats->model, r->call_id, c, &outcome);
        if (outcome != RP_HOOK_TOOL_UNKNOWN) {
            stats->call_outcome = outcome;
        }
    } else {
        rp_cost_transcript_parse(scratch, data, len, final && r->at_eof, src->tool_use_id, c);
    }
    stats->skipped_lines += c->malformed + c->oversized;
    int rc = record_chunk(r->store, r->pricing, src, c, from + (int64_t)c->consumed, stats, err,
                          err_size);
    /* The model was read whatever the ledger did; without it the model is unknown, which an
     * expensive_models check takes as expensive. */
    if (c->model != NULL) {
        snprintf(stats->model, sizeof stats->model, "%s", c->model);
    }
    return rc;
}

/* Reads, records and commits chunk after chunk from r->offset, until the end of the file, the
 * time or the call's read cap. `final`: the turn is over (the last chunk's last message is
 * complete). Returns 0, 1 when the file does not exist, -1 with err (the chunks committed
 * before stay). */
static int read_on(reader *r, bool final, char *err, size_t err_size)
{
    size_t held = 0; /* a chunk that consumed nothing (one message longer than it): read more */
    for (;;) {
        size_t want = next_chunk(r);
        if (want == 0) {
            /* Out of time: the rest (what is left of the file) is read by a later call. */
            r->size = file_size(r->src->path);
            r->at_eof = r->size == r->offset;
            return 0;
        }
        if (held > want) {
            want = held;
        }
        int64_t t0 = monotonic_us();
        int64_t from = r->offset;
        char *data;
        size_t len;
        int rc =
            read_bytes(r->src->path, &from, want, &data, &len, &r->at_eof, &r->size, err, err_size);
        if (rc != 0) {
            r->size = -1;
            return rc;
        }
        bool reset = from != r->offset;
        r->reset = r->reset || reset;
        r->offset = from;
        if (data == NULL) {
            /* Nothing new; a file truncated to nothing is remembered as such. */
            rp_cost_transcript_chunk none = {0};
            return reset ? record_chunk(r->store, r->pricing, r->src, &none, from, r->stats, err,
                                        err_size)
                         : 0;
        }
        r->total += len;
        if (r->needle != NULL && !r->arrived) {
            r->arrived = memmem(data, len, r->needle, strlen(r->needle)) != NULL;
        }
        rp_arena scratch = {0};
        rp_cost_transcript_chunk c;
        rc = record_one(r, &scratch, data, len, final, from, &c, err, err_size);
        if (r->needle == NULL && r->at_eof) {
            r->arrived = c.ended; /* the file ends with the end of the turn */
        }
        size_t consumed = c.consumed;
        rp_arena_free(&scratch);
        free(data);
        if (rc != 0) {
            return -1;
        }
        r->offset += (int64_t)consumed;
        r->bytes += (int64_t)len;
        r->spent += monotonic_us() - t0;
        if (r->at_eof) {
            return 0;
        }
        held = consumed == 0 ? len * 2 : 0;
        if (held > RP_HOOK_TRANSCRIPT_MAX_READ) {
            held = RP_HOOK_TRANSCRIPT_MAX_READ;
        }
    }
}

int rp_hook_record_transcript(rp_store *store, const rp_cost_pricing *pricing,
                              const rp_hook_transcript_source *src, rp_hook_transcript_stats *stats,
                              char *err, size_t err_size)
{
    rp_hook_transcript_stats local;
    if (stats == NULL) {
        stats = &local;
    }
    memset(stats, 0, sizeof *stats);
    if (err_size > 0) {
        err[0] = '\0';
    }
    if (store == NULL || src == NULL || src->session_id == NULL || src->session_id[0] == '\0') {
        snprintf(err, err_size, "transcript: no store or no session id");
        return -1;
    }
    if (src->path == NULL || src->path[0] == '\0') {
        return 0;
    }
    rp_arena a = {0};
    rp_transcript_mark mark;
    if (rp_store_get_transcript(store, src->session_id, src->path, &a, &mark) < 0) {
        snprintf(err, err_size, "%s", rp_store_error(store));
        rp_arena_free(&a);
        return -1;
    }
    if (mark.model != NULL) {
        snprintf(stats->model, sizeof stats->model, "%s", mark.model);
    }
    int64_t stored = mark.offset;
    int64_t start = monotonic_us();
    /* The reading takes at most half of what is left of the hook's deadline (a small
     * hosts.*.deadline_ms included), the wait below at most a third: the rest is the
     * decision's, and every chunk read in time is committed, so that a deadline never discards
     * the work done and the next call goes on from there. */
    int64_t left = rp_hook_deadline_left_ms();
    reader r = {
        .store = store,
        .pricing = pricing,
        .src = src,
        .stats = stats,
        .needle = src->tool_use_id && src->tool_use_id[0]
                      ? rp_arena_sprintf(&a, "\"%s\"", src->tool_use_id)
                      : NULL,
        .call_id = src->format == RP_HOOK_TRANSCRIPT_CODEX ? src->tool_use_id : NULL,
        .offset = stored,
        .until_us = left >= 0 ? start + left * 1000 / 2 : -1,
    };
    /* The host acts on a tool_use as soon as the message asking for it is complete, and runs
     * its Stop hooks as soon as the last message is, but Claude Code writes its transcript in
     * batches (every 100 ms): the message may not be in the file yet. Wait a little for it,
     * unless it was read before. */
    int64_t wait_ms = src->wait_ms;
    if (left >= 0 && wait_ms > left / 3) {
        wait_ms = left / 3;
    }
    bool wait = wait_ms > 0 && (r.needle != NULL || src->final);
    int go_on = src->wait_for_file ? 1 : 0; /* the highest rc that keeps waiting */
    /* Waiting for the end of the turn, the last message is completed by `final` only after
     * the wait. */
    int rc = read_on(&r, src->final && !wait, err, err_size);
    bool nothing_new = rc != 0 || r.total == 0;
    /* The bytes read before count for a tool_use, and for a turn's end only when nothing new
     * came: past new lines (this turn's prompt), an end among the old ones is an earlier turn's.
     * Only at the end of the file is anything still to come. */
    if (rc <= go_on && rc >= 0 && wait && r.at_eof && !r.arrived &&
        !((r.needle != NULL || nothing_new) && arrived_before(src->path, stored, r.needle))) {
        int64_t until = monotonic_us() + wait_ms * 1000;
        while (rc >= 0 && rc <= go_on && !r.arrived && r.at_eof && monotonic_us() < until) {
            struct timespec step = {.tv_sec = 0, .tv_nsec = WAIT_STEP_MS * 1000000L};
            nanosleep(&step, NULL);
            /* Only what was appended since the last look is read again. */
            if (file_size(src->path) == r.size) {
                continue;
            }
            rc = read_on(&r, false, err, err_size);
        }
    }
    if (rc == 0 && wait && src->final && r.at_eof) {
        rc = read_on(&r, true, err, err_size); /* the turn's last message, complete now */
    }
    stats->found = rc == 0 ? r.size >= 0 : rc < 0 && r.size >= 0;
    /* Bytes of a transcript that exists and were not committed: a backlog left for the next call,
     * or a chunk whose ledger write failed (a store error). Either way the session's spend is not
     * all known, and a budget must not be judged on what was (hook.c: spend_unknown). A file
     * that cannot be read at all (r.size < 0) has no such bytes: it is logged, as before. */
    stats->unread = (rc < 0 || (rc == 0 && !r.at_eof)) && r.size > r.offset ? r.size - r.offset : 0;
    if (rc == 0 && r.call_id != NULL && stats->call_outcome == RP_HOOK_TOOL_UNKNOWN && !r.reset) {
        stats->call_outcome = codex_outcome_before(src->path, stored, r.call_id);
    }
    rp_arena_free(&a);
    return rc > 0 ? 0 : rc;
}

/* ---- the hook's spend step ---- */

/* Reads src into the ledger; a problem is logged, never fatal. */
static void read_transcript(rp_store *store, const rp_cost_pricing *pricing,
                            const rp_hook_transcript_source *src, rp_hook_transcript_stats *stats)
{
    char err[512] = "";
    if (rp_hook_record_transcript(store, pricing, src, stats, err, sizeof err) != 0) {
        fprintf(stderr, "rampart hook: spend from %s not recorded: %s\n", src->path, err);
    }
}

/* An Agent (Task) call returned: its sub-agent is done, and its last message, which Claude Code
 * may write only after SubagentStop ran, is read now from the sub-agent's transcript (the one
 * its SubagentStop named, else where Claude Code puts it) under the sub-agent's session. */
static void read_subagent_transcript(rp_store *store, const rp_cost_pricing *pricing,
                                     const rp_json *payload, const rp_hook_call *call, rp_arena *a)
{
    const char *agent_id = rp_json_get_str(rp_json_get(payload, "tool_response"), "agentId");
    if (call->phase != RP_HOOK_POST_TOOL || agent_id == NULL || call->tool_name == NULL ||
        (strcmp(call->tool_name, "Agent") != 0 && strcmp(call->tool_name, "Task") != 0)) {
        return;
    }
    rp_hook_transcript_source src = {
        .session_id = rp_arena_sprintf(a, "%s/agent/%s", call->session_id, agent_id),
        .parent_session_id = call->session_id,
        .root_session_id = call->session_id,
        .final = true,
        .wait_ms = RP_HOOK_TRANSCRIPT_WAIT_MS,
        .wait_for_file = true,
    };
    rp_transcript_mark mark;
    if (rp_store_get_transcript(store, src.session_id, NULL, a, &mark) == 0) {
        src.path = mark.path;
    } else {
        src.path = rp_cost_transcript_agent_path(a, call->transcript_path, agent_id);
    }
    if (src.path != NULL) {
        read_transcript(store, pricing, &src, NULL);
    }
}

/* Gemini's chat recording was read: it is where the response's spend is, with the cached and
 * thinking tokens its AfterModel payload lacks, so the AfterModel usage is not recorded too. */
static void drop_hook_usage(rp_hook_call *call)
{
    rp_json *data = (rp_json *)rp_json_get(&call->event, "data");
    if (call->usage == NULL || !rp_json_is_object(data)) {
        return;
    }
    rp_json_object_delete(data, "usage");
    rp_json_object_delete(data, "id");
    call->usage = NULL;
}

int64_t rp_hook_spend_before_eval(rp_store *store, rp_cost_pricing_once *prices, bool may_wait,
                                  const char *host, const rp_json *payload, rp_hook_call *call,
                                  rp_arena *a)
{
    bool claude = strcmp(host, "claude-code") == 0;
    bool gemini = strcmp(host, "gemini") == 0;
    bool codex = strcmp(host, "codex") == 0;
    if (store == NULL || call->transcript_path == NULL || call->transcript_path[0] == '\0' ||
        (!claude && !gemini && !codex) || call->phase == RP_HOOK_SESSION_START) {
        return 0;
    }
    char err[512] = "";
    const rp_cost_pricing *pricing = rp_cost_pricing_once_get(prices, err, sizeof err);
    if (pricing == NULL) {
        fprintf(stderr, "rampart hook: the price table cannot be built: %s\n", err);
        return 0;
    }
    rp_json *ctx = (rp_json *)rp_json_get(&call->event, "context");
    bool tool = claude && (call->phase == RP_HOOK_PRE_TOOL || call->phase == RP_HOOK_POST_TOOL);
    /* A Codex result with no error signal of its own: its item in the rollout has one. */
    rp_json *data = (rp_json *)rp_json_get(&call->event, "data");
    bool codex_result = codex && call->phase == RP_HOOK_POST_TOOL && rp_json_is_object(data) &&
                        rp_json_get(data, "is_error") == NULL;
    /* A PreToolUse waits for its tool_use line only where a policy would act on its spend: every
     * tool call would wait otherwise. The line is read at a later event all the same. The end of
     * a turn still waits, so that every message is in the ledger when the session ends. */
    bool wait = claude && (may_wait || call->phase != RP_HOOK_PRE_TOOL);
    rp_hook_transcript_source src = {
        .format = gemini  ? RP_HOOK_TRANSCRIPT_GEMINI
                  : codex ? RP_HOOK_TRANSCRIPT_CODEX
                          : RP_HOOK_TRANSCRIPT_CLAUDE,
        .session_id = call->session_id,
        .user = rp_json_get_str(ctx, "user"),
        .parent_session_id = rp_json_get_str(ctx, "parent_session_id"),
        .root_session_id = rp_json_get_str(ctx, "root_session_id"),
        .path = call->transcript_path,
        /* A new prompt, too, comes only after the previous answer was complete. */
        .final = claude && (call->phase == RP_HOOK_STOP || call->phase == RP_HOOK_SESSION_END ||
                            call->phase == RP_HOOK_PROMPT),
        .tool_use_id = tool || codex_result ? rp_json_get_str(ctx, "tool_use_id") : NULL,
        /* Before a tool runs, the message asking for it must be charged, and at the end of a
         * turn its last message: worth a short wait for them to be written. */
        .wait_ms = wait && (call->phase == RP_HOOK_PRE_TOOL || call->phase == RP_HOOK_STOP ||
                            call->phase == RP_HOOK_SESSION_END)
                       ? RP_HOOK_TRANSCRIPT_WAIT_MS
                       : 0,
        /* A sub-agent's own transcript may not exist yet when its first tool is called. */
        .wait_for_file = wait && rp_json_get_str(ctx, "parent_session_id") != NULL,
    };
    rp_hook_transcript_stats stats;
    read_transcript(store, pricing, &src, &stats);
    if (gemini && stats.found) {
        drop_hook_usage(call);
    }
    if (codex_result && stats.call_outcome != RP_HOOK_TOOL_UNKNOWN) {
        rp_json_object_set(a, data, "is_error",
                           rp_json_make_bool(stats.call_outcome == RP_HOOK_TOOL_ERROR));
    }
    if (claude) {
        read_subagent_transcript(store, pricing, payload, call, a);
    }
    const char *model = rp_json_get_str(ctx, "model");
    if (rp_json_is_object(ctx) && stats.model[0] != '\0' && (model == NULL || model[0] == '\0')) {
        rp_json_object_set(a, ctx, "model",
                           rp_json_make_string_ref(rp_arena_strdup(a, stats.model)));
    }
    return stats.unread;
}
