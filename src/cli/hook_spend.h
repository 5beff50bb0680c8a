/* hook_spend.h — Claude Code and Codex spend: the new part of a session transcript into the
 * ledger.
 *
 * Claude Code's and Codex's hooks carry no cost. `rampart hook claude-code` calls this on every
 * event that can act on spend (pre-tool, prompt submit, post-tool, stop, sub-agent stop, session
 * end), `rampart hook codex` on the same events with the session's rollout file, before
 * evaluating, so the budget policies see every message written so far in the same call.
 * The transcript is read from the offset remembered for (session, path) to its end; the
 * parsing rules are in src/hosts/transcript.h and src/hosts/codex_rollout.h. */
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
    /* The session's current model: of the last assistant message read from this transcript,
     * now or by an earlier call (remembered in the store); "" when none was ever seen. */
    char model[160];
} rp_transcript_stats;

/* The format of a transcript: which reader turns its lines into messages. The offset, the ledger
 * rows and the remembered model are the same for every format. */
typedef enum rp_transcript_format {
    RP_TRANSCRIPT_CLAUDE = 0, /* Claude Code's session transcript (src/hosts/transcript.h) */
    RP_TRANSCRIPT_CODEX,      /* a Codex rollout file (src/hosts/codex_rollout.h) */
} rp_transcript_format;

/* What to read, for whom. */
typedef struct rp_transcript_source {
    const char *session_id; /* required */
    /* Link the session when given (may be NULL), as `rampart usage record` would. */
    const char *user, *parent_session_id, *root_session_id;
    const char *path; /* NULL or "": nothing to read */
    rp_transcript_format format;
    /* Claude only (a Codex rollout line is written whole, so each one is final): */
    bool final; /* the turn is over (Stop, SubagentStop, SessionEnd, a new prompt) */
    /* The tool_use the host is acting on (PreToolUse/PostToolUse), or NULL: the message that
     * requested it is complete. */
    const char *tool_use_id;
} rp_transcript_source;

/* Records every complete assistant message of src->path not read before, for the session.
 * Each message is priced with `pricing` (NULL: every row unpriced) and recorded at its own
 * timestamp (now when it has none or one in the future); a message id already recorded for the
 * session is a duplicate and changes nothing. The last message may still be streaming and
 * waits for the next call unless src->final, src->tool_use_id or the transcript proves it
 * complete (src/hosts/transcript.h). The rows, the new offset and the model are written in one
 * transaction, so call it outside one. A missing file (or path NULL or "") records nothing and
 * is not an error; a file shorter than the remembered offset was replaced and is read from the
 * start (the ledger's dedupe makes the re-read harmless). At most RP_HOOK_TRANSCRIPT_MAX_READ
 * bytes are read per call. stats may be NULL. Returns 0, or -1 with err when the transcript
 * exists but cannot be read (not a regular file, permissions) or the store fails; nothing is
 * recorded then. */
int rp_hook_record_transcript(rp_store *store, const rp_pricing *pricing,
                              const rp_transcript_source *src, rp_transcript_stats *stats,
                              char *err, size_t err_size);

#endif
