/* engine.h — composes policy instances into one decision (reference §2.2, with the documented
 * fix for ASK predecessors on DENY). Pure: no I/O, no clock of its own, no store. The caller
 * (src/session/session.c, or a test) loads the state snapshot, calls rp_engine_evaluate, and
 * applies decision.apply to the store. */
#ifndef RAMPART_ENGINE_ENGINE_H
#define RAMPART_ENGINE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/json.h"
#include "engine/event.h"
#include "engine/policy.h"

/* One configured policy: a type, its instance and the spec fields around it. */
typedef struct rp_policy_slot {
    const char *name; /* configured name (the YAML key) */
    const rp_policy_type *type;
    void *instance;
    const rp_json *params;     /* validated params with defaults (object) */
    const rp_json *condition;  /* label gate object, or NULL */
    const rp_json *set_labels; /* whitelist (array of strings), or NULL = keep all */
    const rp_json *config;     /* `config:` mapping, or NULL ({} is passed) */
    int64_t ask_timeout_s;     /* 0 = default */
    const char *source;        /* "file:line" where it was declared, for messages */
    int level;                 /* config stack level: 0 project, 1 user, 2 system, 3 -c file */
    /* The verdict when the policy fails at run time (evaluate() returns an error, a malformed
     * result, updates that cannot apply): RP_ASK or RP_ALLOW as configured, anything else DENY.
     * The policy's own `on_error` parameter, else the config's top-level on_error. */
    rp_verdict on_error;
} rp_policy_slot;

typedef struct rp_engine {
    rp_policy_slot *slots;
    size_t n_slots;
    /* Every policy type the configuration knows (the registry's table), so that a key some
     * type reserves is refused to the others even when no instance of it is configured.
     * NULL: only the static reservations of engine/reserved.c apply. */
    const rp_policy_type *const *types;
    size_t n_types;
} rp_engine;

typedef struct rp_decision {
    rp_verdict result;     /* ALLOW, ASK or DENY (never ABSTAIN); single-policy mode may ABSTAIN */
    const char *reason;    /* NULL on ALLOW */
    const char **policies; /* deciding policies: the denier, or every ASKer in order */
    size_t n_policies;
    /* Updates to apply now: on ALLOW all; on DENY those of ALLOWing/ABSTAINing predecessors
     * and of the denier. Empty on ASK. */
    rp_state_update *apply;
    size_t n_apply;
    /* On ASK: every accumulated update, withheld until the ASK is approved. */
    rp_state_update *withheld;
    size_t n_withheld;
    const rp_json *data; /* last non-null transformed content, or NULL */
    /* The policies that transformed the content (a REDACT), in order, and their reasons
     * "<policy>: <reason>" joined by "; " (the finding types, never the secret). Set only with
     * `data`; an ALLOW has no reason of its own, so this is what says who rewrote and why.
     * Not part of the decision JSON. */
    const char **redactors;
    size_t n_redactors;
    const char *redaction;
    rp_json labels; /* accumulated set_labels (object); empty on ASK */
    /* The snapshot with `apply` applied, or NULL when nothing changes. On ASK: NULL, and
     * approved_state is the snapshot with `withheld` applied (what approving now would store). */
    const rp_json *new_state;
    const rp_json *approved_state;
    /* The notes of the policies evaluated (rp_result.note), "<policy>: <note>" joined by "; ",
     * for the audit log; NULL when none. Not part of the decision JSON. */
    const char *notes;
} rp_decision;

/* Evaluates every slot in order against one snapshot. `state` must be an object. Never fails:
 * a policy that fails, returns a malformed result or writes a key it does not own becomes
 * DENY "policy '<name>' failed: <why>". Memory comes from ctx->arena. */
void rp_engine_evaluate(const rp_engine *engine, const rp_event *ev, const rp_json *state,
                        rp_eval_ctx *ctx, rp_decision *out);

/* Evaluates one slot alone (`rampart eval --policy`): like the engine, but an abstaining policy
 * yields RP_ABSTAIN and its updates are reported as they are. `engine` (may be NULL) supplies
 * the known types for key reservation; its slots are not run. */
void rp_engine_evaluate_one(const rp_engine *engine, const rp_policy_slot *slot, const rp_event *ev,
                            const rp_json *state, rp_eval_ctx *ctx, rp_decision *out);

/* Applies updates in order to *state (an object, modified in place; new values come from a).
 * Returns 0, or -1 with err set: increment of a non-number, append to a non-list. On error the
 * state is left as it was before the failing update. */
int rp_state_apply(rp_arena *a, rp_json *state, const rp_state_update *updates, size_t n, char *err,
                   size_t err_size);

/* Writes the decision as one JSON object:
 * {"result","reason","policies":[...],"state_updates":[{"key","action","value"}...],"data"?}
 * state_updates lists `apply`, or `withheld` on ASK. */
void rp_decision_write_json(rp_buf *out, const rp_decision *d);

/* The key under which an ASK's withheld updates wait: the event's tool_use_id when present,
 * else "h:" + SHA-256 of the canonical {type, target, data}. */
const char *rp_ask_key(const rp_event *ev, rp_arena *a);

#endif
