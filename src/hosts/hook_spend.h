/* hook_spend.h — spend from host transcripts (Claude Code, Gemini CLI, Codex) into the ledger.
 *
 * Claude Code's and Codex's hooks carry no cost, and Gemini CLI's no cached or thinking tokens.
 * `rampart hook` calls rp_hook_spend_before_eval on every event that can act on spend, before
 * evaluating, so the budget policies see every message written so far in the same call. The
 * transcript is read from the offset remembered for (session, path) to its end; the parsing
 * rules are in src/cost/transcript.h (Claude Code, Gemini) and src/hosts/codex_rollout.h. */
#ifndef RAMPART_HOSTS_HOOK_SPEND_H
#define RAMPART_HOSTS_HOOK_SPEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cost/pricing.h"
#include "hosts/host.h"
#include "hosts/tool_result.h"
#include "store/store.h"

/* Per call at most; the rest is read next time. The bytes are read in chunks (up to 4 MiB),
 * each committed with its offset, and a call stops starting chunks when half of what was left of
 * the hook's deadline is used up. */
#define RP_HOOK_TRANSCRIPT_MAX_READ (64u << 20)
/* Claude Code flushes its transcript every 100 ms: a PreToolUse waits up to this long for the
 * line of the tool_use it is about, and the end of a turn for its last message (well within
 * the hook's deadline; a small configured deadline shortens it to a third of what is left). */
#define RP_HOOK_TRANSCRIPT_WAIT_MS 300

typedef struct rp_hook_transcript_stats {
    size_t recorded;      /* new ledger rows */
    size_t duplicates;    /* messages already in the ledger (a re-read) */
    size_t unpriced;      /* of the recorded: a model with no price */
    size_t skipped_lines; /* lines that could not be read: malformed or oversized */
    int64_t cost_nusd;    /* of the recorded rows */
    /* The session's current model: of the last assistant message read from this transcript,
     * now or by an earlier call (remembered in the store); "" when none was ever seen. */
    char model[160];
    bool found; /* the transcript exists */
    /* Codex: how the tool call src->tool_use_id ended, from its completed item in the rollout
     * (the new bytes, else the last bytes read before them); RP_HOOK_TOOL_UNKNOWN when not found.
     */
    rp_hook_tool_outcome call_outcome;
    /* Bytes of the transcript this call had no time (or read cap) left to read: a backlog a
     * later call works off. Until then the session's spend is not all known. 0 when read to
     * the end (or on an error). */
    int64_t unread;
} rp_hook_transcript_stats;

typedef enum rp_hook_transcript_format {
    RP_HOOK_TRANSCRIPT_CLAUDE = 0, /* Claude Code's session transcript */
    RP_HOOK_TRANSCRIPT_GEMINI,     /* Gemini CLI's chat recording */
    RP_HOOK_TRANSCRIPT_CODEX       /* a Codex rollout file (src/hosts/codex_rollout.h) */
} rp_hook_transcript_format;

/* What to read, for whom. */
typedef struct rp_hook_transcript_source {
    rp_hook_transcript_format format;
    const char *session_id; /* required */
    /* Link the session when given (may be NULL), as `rampart usage record` would. */
    const char *user, *parent_session_id, *root_session_id;
    const char *path; /* NULL or "": nothing to read */
    bool final;       /* the turn is over (Stop, SubagentStop, SessionEnd, a new prompt) */
    /* The tool_use the host is acting on (PreToolUse/PostToolUse), or NULL: the message that
     * requested it is complete (Claude Code); the call whose outcome is looked for (Codex). */
    const char *tool_use_id;
    /* How long to wait for what the call is about to be written, when it is neither in the new
     * bytes nor in the last 64 KB read before: with tool_use_id the message that requested
     * it, else with final the end of the turn (an assistant message whose stop_reason is not
     * tool_use). 0: do not wait. */
    int64_t wait_ms;
    /* Wait for a file that does not exist yet, too (a sub-agent's transcript before its first
     * lines are written). */
    bool wait_for_file;
} rp_hook_transcript_source;

/* Records every complete assistant message of src->path not read before, for the session.
 * Each message is priced with `pricing` (NULL: every row unpriced) and recorded at its own
 * timestamp (now when it has none or one in the future); a message id already recorded for the
 * session is a duplicate and changes nothing. The last message may still be streaming and
 * waits for the next call unless src->final, src->tool_use_id or the transcript proves it
 * complete (src/cost/transcript.h). The bytes are read in chunks; each chunk's rows, the offset
 * it reached and the model are written in one transaction, so call it outside one. With a
 * deadline armed (hook_deadline.h), chunks are started only while half of what was left of it
 * at the call remains, sized by the rate measured so far; the rest (stats->unread) is read by the
 * next call, from the offset committed. A missing file (or path NULL or "") records nothing and
 * is not an error; a file shorter than the remembered offset was replaced and is read from the
 * start (the ledger's dedupe makes the re-read harmless). At most RP_HOOK_TRANSCRIPT_MAX_READ
 * bytes are read per call. stats may be NULL. Returns 0, or -1 with err when the transcript
 * exists but cannot be read (not a regular file, permissions) or the store fails; the chunks
 * committed before stay recorded (and counted in stats), the failed one is not. */
int rp_hook_record_transcript(rp_store *store, const rp_cost_pricing *pricing,
                              const rp_hook_transcript_source *src, rp_hook_transcript_stats *stats,
                              char *err, size_t err_size);

/* The spend step of `rampart hook`, before the policies run. Claude Code puts no cost and no
 * model in its hook input, and Gemini CLI no cached or thinking tokens: on every event that can
 * act on spend, the new part of the session transcript (call->transcript_path; Claude Code's
 * session transcript, or Gemini CLI's chat recording) goes into the ledger, and the session's
 * current model (of its last assistant message) becomes context.model when the payload named
 * none, so that expensive_models judges the model really in use. Claude Code: Stop,
 * SubagentStop, SessionEnd and a new prompt read with `final`; a PreToolUse/PostToolUse proves
 * its tool_use's message complete; PreToolUse, Stop and SessionEnd wait up to
 * RP_HOOK_TRANSCRIPT_WAIT_MS for lines not yet flushed; the Agent (Task) PostToolUse reads the
 * sub-agent's transcript to its end. Gemini: once the recording was read, the AfterModel usage
 * (call->usage and the event's data.usage) is dropped, so a response is never counted twice.
 * Codex: the rollout file (transcript_path) on PreToolUse, UserPromptSubmit, PostToolUse and
 * Stop; its lines are written whole, so nothing waits and nothing needs `final`. A Codex
 * PostToolUse whose result has no is_error (its shell tool sends the output text only) gets it
 * from the call's completed item in the rollout, found in the same read. Other hosts:
 * nothing. pricing is the process's price table, built here on first use (cost/pricing.h);
 * payload the host's parsed input. A problem is logged to stderr, never fatal: the decision must
 * not wait on the transcript, and spend that cannot be read cannot be invented either. may_wait is
 * false when no policy reads spend or the model (rp_session_reads_spend): the lines are still read,
 * but a PreToolUse does not wait for its tool_use line (a later event reads it). Returns the bytes
 * of the session transcript left for a later call (rp_hook_transcript_stats.unread): while there
 * are any, the session's spend is not all known. */
int64_t rp_hook_spend_before_eval(rp_store *store, rp_cost_pricing_once *pricing, bool may_wait,
                                  const char *host, const rp_json *payload, rp_hook_call *call,
                                  rp_arena *a);

#endif
