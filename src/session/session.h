/* session.h — one event through the whole pipeline: parse → load state → engine → apply →
 * audit → commit. This is the layer that does I/O (through the store); the engine stays pure. */
#ifndef RAMPART_SESSION_SESSION_H
#define RAMPART_SESSION_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "core/buf.h"
#include "config/config.h"
#include "cost/period.h"
#include "engine/engine.h"
#include "store/store.h"

typedef enum rp_session_on_ask {
    RP_SESSION_ON_ASK_REPORT = 0, /* return ASK; withheld updates wait in the store */
    RP_SESSION_ON_ASK_APPROVE,    /* as if a person approved: apply withheld updates at once */
    RP_SESSION_ON_ASK_DECLINE     /* as if a person declined: nothing applied */
} rp_session_on_ask;

/* What the audit row records: what the host was told and why. By default the decision itself,
 * with a redaction (an ALLOW whose content a policy rewrote) as REDACT, its reason the
 * redacting policies' "<policy>: <finding types>" and its policies those that redacted; an
 * ASK approved by sending the prompt again as that ALLOW. A caller whose answer can differ
 * from the decision (a host adapter that cannot apply a rewrite denies instead) corrects it in
 * rp_session_opts.tell. */
typedef struct rp_session_told {
    rp_verdict result;
    bool redacted; /* the rewrite reaches the host: the row says REDACT for an ALLOW */
    const char *reason;
    const char *const *policies;
    size_t n_policies;
} rp_session_told;

/* What a config's policies ask of the session's ledger, read from the config once
 * (rp_session_needs_of) and passed in rp_session_opts.needs, so that an event does not scan the
 * policies again for each question. */
typedef struct rp_session_needs {
    bool usage;   /* context.usage, the whole spawn tree's spend (every cost policy) */
    bool subtree; /* context.subtree_usage (subagent_cost_budget) */
    bool daily;   /* context.user_daily_cost (user_daily_cost_budget) */
    bool period;  /* context.user_period_cost (user_period_cost_budget) */
    rp_cost_period period_kind;
    bool reads_spend; /* rp_session_reads_spend */
} rp_session_needs;

void rp_session_needs_of(const rp_config *cfg, rp_session_needs *out);

typedef struct rp_session_opts {
    rp_store *store; /* NULL = stateless: the event's own session_state is the snapshot */
    rp_session_on_ask on_ask;
    const rp_fs_view *fs; /* NULL = real filesystem */
    bool single_policy;   /* evaluate only the first slot and report ABSTAIN as such */
    bool audit;           /* write an audit row per decision (stateful only) */
    rp_arena *arena;      /* optional scratch arena, reset per event (hot loops); NULL = own */
    /* Stateful evaluation was asked for but the store could not be opened: every well-formed
     * event gets the config's on_error decision with this text, as a mid-stream store failure
     * would (RP_SESSION_STORE_ERROR). NULL otherwise. */
    const char *store_unavailable;
    /* Whether a project directory is trusted (`rampart trust`), for policies that read a
     * project's files (permissions with load_pi_config). NULL = nothing is trusted. */
    bool (*is_trusted)(void *self, const char *dir);
    void *trust_self;
    /* Where policies' warnings go (rp_eval_ctx.warn); NULL = nowhere. */
    void (*warn)(void *self, const char *policy, const char *message);
    void *warn_self;
    /* The price table for usage an llm_response reports (over cfg->pricing), built on first
     * use and kept by the caller (cost/pricing.h). NULL = built per event when needed. */
    struct rp_cost_pricing_once *pricing;
    /* rp_session_needs_of(cfg), read once by the caller. NULL = read per event. */
    const rp_session_needs *needs;
    /* The host can only block a prompt (Claude Code's UserPromptSubmit, ...): a prompt ASK is
     * parked, and the same prompt sent again, asked about by the same policies, within
     * RP_SESSION_RESEND_APPROVAL_S is the person's approval. Off for hosts that ask
     * themselves: there a resend after a "no" must be asked again. */
    bool prompt_resend_approves;
    /* Called with the final decision before it is audited (and committed): the caller decides
     * its answer to the host here and sets *told to what that answer says, so that the audit
     * row agrees with what the host was told. *told comes filled with the default. NULL = the
     * default. Must not fail or do I/O. */
    void (*tell)(void *self, const rp_decision *d, rp_session_told *told);
    void *tell_self;
    /* The session's spend is not all known yet (the host's transcript has a backlog a later
     * call reads): a decision the policies did not make a DENY becomes the config's on_error
     * decision (DENY, or ASK) with this reason, changing no state; on_error: allow keeps the
     * policies' decision. A DENY on the spend known so far stands. Set it only for an event
     * that can be blocked; NULL otherwise. */
    const char *spend_unknown;
} rp_session_opts;

typedef enum rp_session_status {
    RP_SESSION_OK = 0,
    RP_SESSION_BAD_EVENT = 1, /* malformed JSON, not an object, or unreadable usage: err says why */
    RP_SESSION_STORE_ERROR = 2 /* the store failed: the decision is the config's on_error */
} rp_session_status;

/* A prompt that asked, sent again within this many seconds, is approved (see session.c). */
#define RP_SESSION_RESEND_APPROVAL_S 600

/* The typed entry: evaluates one event given as a tree (what rp_event_from_json reads; the
 * hook's adapters build it) and fills *out with the decision. The event's context may be
 * rewritten with the ledger's figures. Everything *out points to lives in `a` (the caller's
 * arena, not reset here; opts->arena is not used) or in the event tree. On BAD_EVENT *out is
 * not set and err says why (a tree deeper than the JSON reader accepts is refused with the
 * reader's message, as its text would be). On STORE_ERROR *out is the fail-closed decision per
 * cfg->on_error. */
rp_session_status rp_session_eval_event(const rp_config *cfg, const rp_session_opts *opts,
                                        rp_json *event, rp_arena *a, rp_decision *out, char *err,
                                        size_t err_size);

/* The same for JSON text in and out (`rampart eval`, the embedding API): parses the event and
 * appends the decision JSON (one line, no newline) to out. On BAD_EVENT nothing is appended.
 * On STORE_ERROR a fail-closed decision per cfg->on_error is appended. */
rp_session_status rp_session_eval(const rp_config *cfg, const rp_session_opts *opts,
                                  const char *event_json, size_t len, rp_buf *out, char *err,
                                  size_t err_size);

/* True when a policy of cfg reads spend or the session's model (a cost budget, cel_policy, a
 * sub-agent budget by default): only then is it worth a hook's time to wait for spend a host
 * has not written yet. */
bool rp_session_reads_spend(const rp_config *cfg);

/* The key a prompt ASK is parked under: the prompt's key (context.tool_use_id) and a hash of
 * the policies that asked, so that a resend approves only the question the person saw. */
const char *rp_session_prompt_ask_key(rp_arena *a, const char *prompt_key, const char **askers,
                                      size_t n_askers);

/* Approves a parked ASK (session_id, ask_key) as a person would (`rampart approve`): its withheld
 * updates are applied to the session's state now, its cost approvals settled as for an approved
 * tool call, and the entry removed. Returns 1 approved, 0 no such entry, -1 with err on a store
 * error. */
int rp_session_approve(const rp_session_opts *opts, const char *session_id, const char *ask_key,
                       char *err, size_t err_size);

#endif
