/* hook_spend.h — Claude Code spend: the new part of a session transcript into the ledger.
 *
 * Claude Code's hooks carry no cost. `rampart hook claude-code` calls this at prompt submit,
 * post-tool, stop and sub-agent stop, before evaluating, so the budget policies see the spend of
 * the turn so far in the same call. The transcript is read from the offset remembered for
 * (session, path) to its end; the parsing rules are in src/hosts/transcript.h. */
#ifndef RAMPART_CLI_HOOK_SPEND_H
#define RAMPART_CLI_HOOK_SPEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/pricing.h"
#include "store/store.h"

#define RP_HOOK_TRANSCRIPT_MAX_READ (64u << 20) /* per call; the rest is read next time */

typedef struct rp_transcript_stats {
    size_t recorded;      /* new ledger rows */
    size_t duplicates;    /* messages already in the ledger (a re-read) */
    size_t unpriced;      /* of the recorded: a model with no price */
    size_t skipped_lines; /* lines that could not be read: malformed or oversized */
    int64_t cost_nusd;    /* of the recorded rows */
} rp_transcript_stats;

/* Records every complete assistant message of `path` not read before, for session_id, charged
 * as `rampart usage record` would (user, parent_session_id and root_session_id link the session
 * when given; may be NULL). Each message is priced with `pricing` (NULL: every row unpriced) and
 * recorded at its own timestamp (now when it has none or one in the future); a message id
 * already recorded for the session is a duplicate and changes nothing. `final` (the turn is
 * over: Stop, SubagentStop) also records the last message, which otherwise waits for the next
 * call because it may still be streaming. The rows and the new offset are written in one
 * transaction, so call it outside one. A missing file (or path NULL or "") records nothing and
 * is not an error; a file shorter than the remembered offset was replaced and is read from the
 * start (the ledger's dedupe makes the re-read harmless). At most RP_HOOK_TRANSCRIPT_MAX_READ
 * bytes are read per call. stats may be NULL. Returns 0, or -1 with err when the transcript
 * exists but cannot be read (not a regular file, permissions) or the store fails; nothing is
 * recorded then. */
int rp_hook_record_transcript(rp_store *store, const rp_pricing *pricing, const char *session_id,
                              const char *user, const char *parent_session_id,
                              const char *root_session_id, const char *path, bool final,
                              rp_transcript_stats *stats, char *err, size_t err_size);

#endif
