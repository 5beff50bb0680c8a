/* hook_spend.c — the I/O around the transcript readers (src/hosts/transcript.c, Claude Code;
 * src/hosts/codex_rollout.c, Codex): read the transcript's new bytes, record
 * its messages in the ledger, remember how far it was read (hook_spend.h).
 *
 * The offset is read before the transaction and written inside it, with the rows. Two hooks of
 * one session running at once may then read the same bytes: the ledger's per-session dedupe on
 * the message id keeps that exact, and the later commit's offset is no less complete. */
#include "cli/hook_spend.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/arena.h"
#include "core/clock.h"
#include "engine/usage.h"
#include "hosts/codex_rollout.h"
#include "hosts/transcript.h"

/* The transcript's bytes from *offset (reset to 0 when the file is now shorter), at most
 * RP_HOOK_TRANSCRIPT_MAX_READ. *data is malloc'd (NULL when nothing is new); *at_eof says the
 * read reached the end of the file as it was. Returns 0, 1 when the file does not exist, -1
 * with err. */
static int read_new_bytes(const char *path, int64_t *offset, char **data, size_t *len, bool *at_eof,
                          char *err, size_t err_size)
{
    *data = NULL;
    *len = 0;
    *at_eof = true;
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
    int64_t size = (int64_t)st.st_size;
    if (size < *offset) {
        *offset = 0; /* replaced or truncated: read it again from the start */
    }
    int64_t want = size - *offset;
    if (want > (int64_t)RP_HOOK_TRANSCRIPT_MAX_READ) {
        want = RP_HOOK_TRANSCRIPT_MAX_READ;
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

/* The ledger row of one message. The time is the message's own, but never in the future nor
 * before 1970 (the ledger refuses those, and one bad line must not fail every hook): then now. */
static int message_record(const rp_transcript_message *m, const rp_pricing *pricing,
                          const char *session_id, const char *user, const char *parent,
                          const char *root, int64_t now_us, rp_usage_record *rec)
{
    memset(rec, 0, sizeof *rec);
    char why[256];
    if (rp_usage_read(m->usage, m->model, pricing, true, rec, why, sizeof why) != 0) {
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

/* The format's reader over chunk: which messages are complete, how far the chunk is read for
 * good, the session's model. `model` is the one remembered from earlier reads ("" for none), for
 * a format whose usage lines do not name their model. Only at the end of the file can the end of
 * the turn complete the last message. */
static void parse_chunk(rp_arena *a, const rp_transcript_source *src, const char *model,
                        const char *chunk, size_t len, bool at_eof, rp_transcript_chunk *out)
{
    switch (src->format) {
    case RP_TRANSCRIPT_CODEX:
        rp_codex_rollout_parse(a, chunk, len, model, out);
        break;
    case RP_TRANSCRIPT_CLAUDE:
    default:
        /* Claude Code names the model on every assistant line. */
        rp_transcript_parse(a, chunk, len, src->final && at_eof, src->tool_use_id, out);
        break;
    }
}

/* Records the parsed messages, the new offset and the model in one transaction. */
static int record_chunk(rp_store *store, const rp_pricing *pricing, const rp_transcript_source *src,
                        const rp_transcript_chunk *c, int64_t new_offset,
                        rp_transcript_stats *stats, char *err, size_t err_size)
{
    const char *session_id = src->session_id;
    if (rp_store_begin(store) != 0) {
        snprintf(err, err_size, "%s", rp_store_error(store));
        return -1;
    }
    rp_transcript_stats t = *stats;
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

int rp_hook_record_transcript(rp_store *store, const rp_pricing *pricing,
                              const rp_transcript_source *src, rp_transcript_stats *stats,
                              char *err, size_t err_size)
{
    rp_transcript_stats local;
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
    int64_t offset = stored;
    char *data = NULL;
    size_t len = 0;
    bool at_eof = true;
    int rc = read_new_bytes(src->path, &offset, &data, &len, &at_eof, err, err_size);
    if (rc != 0 || (data == NULL && offset == stored)) {
        rp_arena_free(&a); /* missing, unreadable, or nothing new */
        return rc > 0 ? 0 : rc;
    }
    rp_transcript_chunk chunk;
    parse_chunk(&a, src, stats->model, data, len, at_eof, &chunk);
    stats->skipped_lines = chunk.malformed + chunk.oversized;
    char model[sizeof stats->model];
    snprintf(model, sizeof model, "%s", chunk.model ? chunk.model : stats->model);
    rc = record_chunk(store, pricing, src, &chunk, offset + (int64_t)chunk.consumed, stats, err,
                      err_size);
    if (rc != 0) {
        memset(stats, 0, sizeof *stats); /* rolled back: nothing was recorded */
    } else {
        memcpy(stats->model, model, sizeof model);
    }
    rp_arena_free(&a);
    free(data);
    return rc;
}
