/* ledger.h — the spend ledger around one stateful evaluation (issue 6; private to
 * src/session/session.c).
 *
 * Before the engine runs, inside the store transaction: the session is linked into its spawn
 * tree, an llm_response's usage is recorded, and the context blocks the cost policies read are
 * filled from the ledger (context.usage for the whole tree, subtree_usage, user_daily_cost,
 * user_period_cost), and the tree-wide approval keys are seeded from the root session.
 * After it: approvals are routed out of the session state (per-user-per-window ones to the
 * store, tree-wide ones to the root) and a dispatch's sub-agent budget is attached.
 * The engine and the policies stay pure: this file is the I/O edge. */
#ifndef RAMPART_SESSION_LEDGER_H
#define RAMPART_SESSION_LEDGER_H

#include <stdbool.h>
#include <stddef.h>

#include "config/config.h"
#include "cost/period.h"
#include "cost/pricing.h"
#include "session/session.h"
#include "store/store.h"

typedef struct rp_session_ledger_ctx {
    bool linked;                /* the ledger was consulted for this event */
    rp_store_session_link link; /* valid when linked */
    const char *owner;          /* the spend owner, NULL when none */
    char today[RP_COST_DAY_KEY_SIZE];
    bool has_period; /* a user_period_cost_budget is configured */
    rp_cost_period period;
    char window_start[RP_COST_DAY_KEY_SIZE];
    /* The tree-wide approval keys as seeded from the root (NULL = absent there). */
    const rp_json *seeded_cost_approved;
    const rp_json *seeded_unpriced_approved;
    /* The engine for this event: the config's, or a copy with the sub-agent budget appended. */
    const rp_engine *engine;
    /* Set when the event must be denied before any policy runs (a dispatch with an invalid
     * cost_budget); the reason, in the arena. */
    const char *deny_reason;
    /* A dispatch's validated cost_budget, attached to the next child after the decision. */
    bool has_dispatch_budget;
    rp_json dispatch_budget;
    /* The appended sub-agent budget instance, destroyed after the event when its type needs. */
    const rp_policy_type *budget_type;
    void *budget_instance;
} rp_session_ledger_ctx;

/* Runs before the engine. *root is the parsed event (its context may be rewritten), *ev is
 * re-derived from it, *state is the loaded snapshot (tree-wide keys may be seeded into it).
 * Returns 0; -1 with err set when the store failed (the caller fails closed); -2 with err set
 * when the event itself is malformed (an llm_response whose usage cannot be read). */
int rp_session_ledger_prepare(const rp_config *cfg, const rp_session_opts *opts, const char *sid,
                              rp_json *root, rp_event *ev, rp_json *state, rp_eval_ctx *ctx,
                              rp_session_ledger_ctx *cc, char *err, size_t err_size);

/* Runs after the engine, before the state is saved. *to_save (may be NULL = unchanged) is
 * replaced by a copy without the routed keys when it has any. Returns 0 or -1 with err. */
int rp_session_ledger_finish(const rp_config *cfg, const rp_session_opts *opts, const char *sid,
                             const rp_event *ev, const rp_decision *d, rp_session_ledger_ctx *cc,
                             const rp_json **to_save, rp_eval_ctx *ctx, char *err, size_t err_size);

/* Adds the owner and window to parked per-user approval updates (the entries of `updates`, an
 * array of {key, action, value, policy}), so that an approval arriving later is recorded for the
 * user and window the person was asked about, not those of the moment it arrives. */
void rp_session_ledger_annotate_pending(const rp_session_ledger_ctx *cc, rp_json *updates,
                                        rp_arena *a);

/* A parked ASK was approved (its call reported a result); `after` is the state the call's
 * re-evaluation would store. The approvals in it are settled from what was parked, not from the
 * re-evaluation (which may ask about a higher checkpoint, another user or a new window by now):
 * tree-wide and sub-agent approval keys become max(before, parked) — or stay as before when
 * nothing was parked for them —, per-user ones are removed from `after` and recorded for the
 * parked owner and window. A dispatch among the approved calls attaches its cost_budget.
 * Returns 0 or -1 with err (store failure). */
int rp_session_ledger_settle_approval(const rp_session_opts *opts, const char *sid,
                                      const rp_json *pending, const rp_json *before, rp_json *after,
                                      const rp_event *call_ev, rp_eval_ctx *ctx, char *err,
                                      size_t err_size);

#endif
