/* engine.c — composing policies into one decision (reference §2.2).
 *
 * Declaration order. DENY short-circuits with its own reason. ASK accumulates
 * "<policy>: <reason or 'approval required'>" joined by "; ". ALLOW and ABSTAIN continue.
 * Non-null `data` replaces the content for later policies; the last one is returned. All
 * policies see one snapshot.
 *
 * State updates, with the reference's weakness fixed: on ALLOW all are applied; on DENY those of
 * ALLOWing/ABSTAINing predecessors and of the denier, but not those of ASKing predecessors (that
 * would record approvals nobody gave); on ASK all are withheld until a person approves.
 *
 * To catch malformed updates (increment of a string, append to a number) before anything is
 * stored, every batch is tried on a scratch copy of the state as it arrives: the policy whose
 * batch does not apply is the one that failed. */
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/reserved.h"
#include "scan/redact.h"

typedef struct update_list {
    rp_state_update *items;
    size_t n, cap;
} update_list;

typedef struct compose {
    const rp_policy_type *const *types; /* every known type, for key reservation */
    size_t n_types;
    const rp_engine *engine; /* for instance-owned keys of other slots; NULL in single mode */
    rp_eval_ctx *ctx;
    rp_arena *a;
    update_list applied;    /* ALLOW/ABSTAIN predecessors (and the denier, on DENY) */
    update_list all;        /* everything, for ASK */
    rp_json *allowed_state; /* snapshot + applied; NULL until the first update */
    rp_json *all_state;     /* snapshot + all; NULL until an ASK carries or precedes updates */
    const rp_json *snapshot;
    bool any_ask;
    rp_buf ask_reasons; /* heap; copied into the arena at the end */
    const char *notes;  /* "<policy>: <note>; ..." for the audit log (rare: built by sprintf) */
    const char **askers;
    size_t n_askers, cap_askers;
    /* The policies whose transform (a REDACT) is in `data`, and "<policy>: <reason>; ...": an
     * ALLOW carries no reason, but the answer and the audit must say who rewrote and why. */
    const char **redactors;
    size_t n_redactors, cap_redactors;
    const char *redaction;
    rp_json labels;
    const rp_json *data;
    const char *last_reason; /* the last policy's own reason (single-policy mode reports it) */
    /* Static keys written so far in this pass, with the policy type that wrote them, so that
     * two instances of one builtin (say a user and a project budget) keep one count. */
    const rp_policy_type **written_types;
    const char **written_keys;
    bool *written_by_ask; /* an ASK's updates apply only if it is approved */
    size_t n_written, cap_written;
} compose;

static void list_push(rp_arena *a, update_list *l, const rp_state_update *u)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        l->items =
            rp_arena_realloc(a, l->items, l->cap * sizeof(*l->items), cap * sizeof(*l->items));
        l->cap = cap;
    }
    l->items[l->n++] = *u;
}

static void push_name(rp_arena *a, const char ***names, size_t *n, size_t *cap, const char *name)
{
    if (*n == *cap) {
        size_t grown = *cap ? *cap * 2 : 4;
        *names = rp_arena_realloc(a, *names, *cap * sizeof(**names), grown * sizeof(**names));
        *cap = grown;
    }
    (*names)[(*n)++] = name;
}

static void push_asker(compose *c, const char *name)
{
    push_name(c->a, &c->askers, &c->n_askers, &c->cap_askers, name);
}

/* A policy's transform that later policies see and the answer carries: a redaction. */
static void note_redaction(compose *c, const char *policy, const char *reason)
{
    push_name(c->a, &c->redactors, &c->n_redactors, &c->cap_redactors, policy);
    const char *why = reason && reason[0] ? reason : "rewrote the input";
    c->redaction = c->redaction ? rp_arena_sprintf(c->a, "%s; %s: %s", c->redaction, policy, why)
                                : rp_arena_sprintf(c->a, "%s: %s", policy, why);
}

/* A copy of the state's top level only. That is enough for a trial: rp_state_apply never
 * changes a value in place (SET stores a clone, INCREMENT a new number, APPEND a new list), it
 * only replaces or removes top-level members, so nested values can be shared. */
static rp_json *clone_state(rp_arena *a, const rp_json *s)
{
    rp_json *copy = rp_json_new(a, *s);
    if (s->len > 0) {
        copy->v.members = rp_arena_alloc(a, s->len * sizeof(*s->v.members));
        memcpy(copy->v.members, s->v.members, s->len * sizeof(*s->v.members));
    }
    copy->cap = s->len;
    return copy;
}

/* A key is off-limits when some builtin reserves it (statically, or a configured instance such
 * as risk_score_policy's state_key) and this slot's type does not own it. */
static bool key_forbidden(const compose *c, const rp_policy_slot *slot, const char *key)
{
    if (rp_policy_owns_key(slot->type, slot->instance, key))
        return false;
    if (rp_state_key_reserved(c->types, c->n_types, key))
        return true;
    if (c->engine == NULL)
        return false;
    for (size_t i = 0; i < c->engine->n_slots; i++) {
        const rp_policy_slot *other = &c->engine->slots[i];
        if (other->type->instance_owned_key == NULL)
            continue;
        const char *k = other->type->instance_owned_key(other->instance);
        if (k != NULL && strcmp(k, key) == 0)
            return true;
    }
    return false;
}

/* Checks the shape of a result; on a problem writes why into err and returns false. */
static bool result_well_formed(const compose *c, const rp_policy_slot *slot, const rp_result *r,
                               char *err, size_t err_size)
{
    if (r->verdict < RP_ABSTAIN || r->verdict > RP_DENY) {
        snprintf(err, err_size, "returned an invalid verdict");
        return false;
    }
    for (size_t i = 0; i < r->n_updates; i++) {
        const rp_state_update *u = &r->updates[i];
        if (u->key == NULL || u->key[0] == '\0') {
            snprintf(err, err_size, "returned a state update without a key");
            return false;
        }
        if (u->action < RP_UPDATE_SET || u->action > RP_UPDATE_DELETE) {
            snprintf(err, err_size, "returned an invalid state update action for '%s'", u->key);
            return false;
        }
        if (key_forbidden(c, slot, u->key)) {
            snprintf(err, err_size, "may not write reserved state key '%s'", u->key);
            return false;
        }
    }
    if (r->set_labels != NULL) {
        if (r->set_labels->type != RP_JSON_OBJECT) {
            snprintf(err, err_size, "returned set_labels that is not an object");
            return false;
        }
        for (uint32_t i = 0; i < r->set_labels->len; i++) {
            if (r->set_labels->v.members[i].value.type != RP_JSON_STRING) {
                snprintf(err, err_size, "returned a non-string value for label '%s'",
                         r->set_labels->v.members[i].key);
                return false;
            }
        }
    }
    return true;
}

/* The label gate (reference §3.1 `condition`): every key must match; a list means any of its
 * values; a missing label never matches. */
static bool condition_holds(const rp_json *condition, const rp_event *ev)
{
    if (condition == NULL || condition->type != RP_JSON_OBJECT)
        return true;
    for (uint32_t i = 0; i < condition->len; i++) {
        const rp_json_member *m = &condition->v.members[i];
        const char *have = rp_json_get_str(ev->labels, m->key);
        if (have == NULL)
            return false;
        bool match = false;
        if (m->value.type == RP_JSON_STRING) {
            match = strcmp(have, m->value.v.s) == 0;
        } else if (m->value.type == RP_JSON_ARRAY) {
            for (uint32_t j = 0; j < m->value.len && !match; j++) {
                const rp_json *want = &m->value.v.items[j];
                match = want->type == RP_JSON_STRING && strcmp(have, want->v.s) == 0;
            }
        }
        if (!match)
            return false;
    }
    return true;
}

static bool label_whitelisted(const rp_json *whitelist, const char *label)
{
    if (whitelist == NULL)
        return true;
    for (uint32_t i = 0; i < whitelist->len; i++) {
        const rp_json *w = &whitelist->v.items[i];
        if (w->type == RP_JSON_STRING && strcmp(w->v.s, label) == 0)
            return true;
    }
    return false;
}

/* The content seen by later policies after a transform: same event, new data. */
static void replace_data(rp_event *ev, const rp_json *data)
{
    ev->data = data;
    if (data->type == RP_JSON_OBJECT) {
        const char *name = rp_json_get_str(data, "name");
        if (name != NULL)
            ev->tool_name = name;
        if (ev->type == RP_EV_TOOL_CALL)
            ev->arguments = rp_json_get(data, "arguments");
    }
}

static void tag_updates(rp_result *r, const char *policy)
{
    for (size_t i = 0; i < r->n_updates; i++)
        r->updates[i].policy = policy;
}

/* Whether an earlier update of type t to key makes this one redundant: it will be applied
 * whenever this one would be. A non-ASK writer's updates apply on ALLOW, DENY (it precedes the
 * denier) and approval; an ASKer's only on approval, so it covers only another ASKer. */
static bool covered_by_earlier(const compose *c, const rp_policy_type *t, const char *key,
                               bool asking)
{
    for (size_t i = 0; i < c->n_written; i++)
        if (c->written_types[i] == t && strcmp(c->written_keys[i], key) == 0 &&
            (!c->written_by_ask[i] || asking))
            return true;
    return false;
}

static void remember_written(compose *c, const rp_policy_type *t, const char *key, bool asking)
{
    if (c->n_written == c->cap_written) {
        size_t cap = c->cap_written ? c->cap_written * 2 : 8;
        c->written_types =
            rp_arena_realloc(c->a, c->written_types, c->cap_written * sizeof(*c->written_types),
                             cap * sizeof(*c->written_types));
        c->written_keys =
            rp_arena_realloc(c->a, c->written_keys, c->cap_written * sizeof(*c->written_keys),
                             cap * sizeof(*c->written_keys));
        c->written_by_ask =
            rp_arena_realloc(c->a, c->written_by_ask, c->cap_written * sizeof(*c->written_by_ask),
                             cap * sizeof(*c->written_by_ask));
        c->cap_written = cap;
    }
    c->written_types[c->n_written] = t;
    c->written_keys[c->n_written] = key;
    c->written_by_ask[c->n_written++] = asking;
}

/* A builtin's fixed keys (the tool-call count, the loop window, …) describe the session, not
 * one instance: when two instances of the same builtin run in one pass — a user's budget and a
 * project's, say — a later instance's update to such a key is dropped when an earlier one's
 * will apply anyway, so each call is counted once and every instance judges the same history.
 * Types whose key is configurable (risk_score_policy's state_key) are left alone: their
 * instances may score differently. */
static void drop_shared_key_repeats(compose *c, const rp_policy_slot *slot, rp_result *r)
{
    if (slot->type->instance_owned_key != NULL || slot->type->owned_keys == NULL)
        return;
    bool asking = r->verdict == RP_ASK;
    size_t kept = 0;
    for (size_t i = 0; i < r->n_updates; i++) {
        const char *key = r->updates[i].key;
        if (rp_policy_owns_key(slot->type, NULL, key)) {
            if (covered_by_earlier(c, slot->type, key, asking))
                continue;
            remember_written(c, slot->type, key, asking);
        }
        r->updates[kept++] = r->updates[i];
    }
    r->n_updates = kept;
}

/* Tries a batch on a scratch state (created from the snapshot on first use). */
static int try_batch(compose *c, rp_json **scratch, const rp_result *r, char *err, size_t size)
{
    if (r->n_updates == 0)
        return 0;
    if (*scratch == NULL)
        *scratch = clone_state(c->a, c->snapshot);
    /* A single update that fails leaves the state as it was (rp_state_apply's contract), so it
     * can go straight onto the scratch copy; a longer batch may fail halfway, so it is tried on
     * a copy of the copy. Most policies write one key. */
    if (r->n_updates == 1)
        return rp_state_apply(c->a, *scratch, r->updates, 1, err, size);
    rp_json *trial = clone_state(c->a, *scratch);
    if (rp_state_apply(c->a, trial, r->updates, r->n_updates, err, size) != 0)
        return -1;
    *scratch = trial;
    return 0;
}

static void finish_deny(compose *c, rp_decision *out, const char *name, const char *reason)
{
    out->result = RP_DENY;
    out->reason = reason;
    out->policies = rp_arena_alloc(c->a, sizeof(*out->policies));
    out->policies[0] = name;
    out->n_policies = 1;
    out->apply = c->applied.items;
    out->n_apply = c->applied.n;
    out->new_state = c->applied.n ? c->allowed_state : NULL;
}

static void append_ask_reason(compose *c, const char *policy, const char *reason);

/* A policy that failed (an evaluation error, a malformed result, updates that cannot apply)
 * answers its on_error verdict: DENY by default, ASK, or ALLOW when the user chose to fail open
 * for it. Whatever it returned is dropped. Returns true when the chain must stop. The reference
 * lets cel_policy abstain on its errors; rampart does not, unless on_error says allow. */
static bool fail_policy(compose *c, rp_decision *out, const rp_policy_slot *slot, const char *why,
                        rp_verdict *verdict)
{
    const char *reason = rp_arena_sprintf(c->a, "policy '%s' failed: %s", slot->name, why);
    rp_verdict v =
        slot->on_error == RP_ASK || slot->on_error == RP_ALLOW ? slot->on_error : RP_DENY;
    *verdict = v;
    c->last_reason = reason;
    if (v == RP_DENY) {
        finish_deny(c, out, slot->name, reason);
        return true;
    }
    if (v == RP_ASK) {
        if (c->all_state == NULL)
            c->all_state = clone_state(c->a, c->allowed_state ? c->allowed_state : c->snapshot);
        c->any_ask = true;
        push_asker(c, slot->name);
        append_ask_reason(c, NULL, reason);
        return false;
    }
    /* ALLOW: nothing in the answer shows it, so the audit's note and the person running
     * rampart are told. */
    const char *note = rp_arena_sprintf(c->a, "%s (on_error: allow)", reason);
    c->notes = c->notes ? rp_arena_sprintf(c->a, "%s; %s: %s", c->notes, slot->name, note)
                        : rp_arena_sprintf(c->a, "%s: %s", slot->name, note);
    if (c->ctx->warn)
        c->ctx->warn(c->ctx->warn_self, slot->name, note);
    return false;
}

/* "<policy>: <reason or 'approval required'>" into the accumulated ASK reasons, appended
 * piecewise rather than through printf; policy NULL: the reason names the policy itself. */
static void append_ask_reason(compose *c, const char *policy, const char *reason)
{
    if (c->ask_reasons.len > 0)
        rp_buf_puts(&c->ask_reasons, "; ");
    if (policy != NULL) {
        rp_buf_puts(&c->ask_reasons, policy);
        rp_buf_append(&c->ask_reasons, ": ", 2);
    }
    rp_buf_puts(&c->ask_reasons, (reason && reason[0]) ? reason : "approval required");
}

/* Runs one slot. Returns true when the chain must stop (a DENY was decided). */
static bool run_slot(compose *c, const rp_policy_slot *slot, rp_event *ev, rp_decision *out,
                     rp_verdict *verdict)
{
    rp_eval_ctx *ctx = c->ctx;
    static const rp_json empty_object = {.type = RP_JSON_OBJECT};
    char why[320];

    ctx->config = slot->config ? slot->config : &empty_object;
    ctx->policy_name = slot->name;
    ctx->error[0] = '\0';

    rp_result r;
    memset(&r, 0, sizeof(r));
    if (slot->type->evaluate(slot->instance, ev, c->snapshot, ctx, &r) != 0) {
        return fail_policy(c, out, slot, ctx->error[0] ? ctx->error : "evaluation error", verdict);
    }
    if (r.note != NULL)
        c->notes = c->notes ? rp_arena_sprintf(c->a, "%s; %s: %s", c->notes, slot->name, r.note)
                            : rp_arena_sprintf(c->a, "%s: %s", slot->name, r.note);
    if (!result_well_formed(c, slot, &r, why, sizeof(why))) {
        return fail_policy(c, out, slot, why, verdict);
    }
    tag_updates(&r, slot->name);
    drop_shared_key_repeats(c, slot, &r);
    *verdict = r.verdict;
    c->last_reason = r.reason;

    /* Every batch must apply to the state it would meet: the allowed line for ALLOW/ABSTAIN/
     * DENY, and the all-updates line (used on approval) for every verdict once an ASK exists. */
    if (r.verdict != RP_ASK && try_batch(c, &c->allowed_state, &r, why, sizeof(why)) != 0) {
        return fail_policy(c, out, slot, why, verdict);
    }
    if ((c->any_ask || r.verdict == RP_ASK) && c->all_state == NULL)
        c->all_state = clone_state(c->a, c->allowed_state ? c->allowed_state : c->snapshot);
    if (c->all_state != NULL && r.verdict == RP_ASK &&
        try_batch(c, &c->all_state, &r, why, sizeof(why)) != 0) {
        return fail_policy(c, out, slot, why, verdict);
    }
    if (c->all_state != NULL && r.verdict != RP_ASK && r.verdict != RP_DENY &&
        try_batch(c, &c->all_state, &r, why, sizeof(why)) != 0) {
        return fail_policy(c, out, slot, why, verdict);
    }

    for (size_t i = 0; i < r.n_updates; i++) {
        if (r.verdict != RP_ASK)
            list_push(c->a, &c->applied, &r.updates[i]);
        list_push(c->a, &c->all, &r.updates[i]);
    }
    if (r.set_labels != NULL && r.verdict != RP_ASK) {
        for (uint32_t i = 0; i < r.set_labels->len; i++) {
            const rp_json_member *m = &r.set_labels->v.members[i];
            if (label_whitelisted(slot->set_labels, m->key))
                rp_json_object_set(c->a, &c->labels, m->key, m->value);
        }
    }

    if (r.verdict == RP_DENY) {
        finish_deny(c, out, slot->name, r.reason);
        if (r.data != NULL)
            c->data = r.data;
        return true;
    }
    if (r.data != NULL && r.data->type != RP_JSON_NULL) {
        c->data = r.data;
        replace_data(ev, r.data);
        note_redaction(c, slot->name, r.reason);
    }
    if (r.verdict == RP_ASK) {
        c->any_ask = true;
        push_asker(c, slot->name);
        append_ask_reason(c, slot->name, r.reason);
    }
    return false;
}

/* Issue 16: the one place where every text of a decision passes the secret and PII redactor,
 * whichever policy wrote it and whether or not deny_secrets is configured: a reason may quote
 * the command it judged (blast_radius), a path, a value. The reason, the redaction summary and
 * the notes are what the host, `rampart eval`, the audit table and `rampart log` get. Only
 * these short texts are scanned, and only when there are any: an ALLOW without a reason costs
 * nothing. */
static void redact_decision(rp_arena *a, rp_decision *d)
{
    d->reason = rp_redact_text(a, d->reason);
    d->redaction = rp_redact_text(a, d->redaction);
    d->notes = rp_redact_text(a, d->notes);
}

/* What a policy tells the person running rampart (ctx->warn) is redacted on its way too. */
typedef struct warn_relay {
    void (*warn)(void *self, const char *policy, const char *message);
    void *self;
    rp_arena *a;
} warn_relay;

static void relay_warn(void *self, const char *policy, const char *message)
{
    const warn_relay *r = self;
    r->warn(r->self, policy, rp_redact_text(r->a, message));
}

/* Points ctx->warn at the relay for one evaluation; relay_end puts the caller's back. */
static void relay_begin(rp_eval_ctx *ctx, warn_relay *r)
{
    *r = (warn_relay){ctx->warn, ctx->warn_self, ctx->arena};
    if (ctx->warn != NULL) {
        ctx->warn = relay_warn;
        ctx->warn_self = r;
    }
}

static void relay_end(rp_eval_ctx *ctx, const warn_relay *r)
{
    ctx->warn = r->warn;
    ctx->warn_self = r->self;
}

static void compose_init(compose *c, const rp_engine *engine, const rp_json *state,
                         rp_eval_ctx *ctx)
{
    memset(c, 0, sizeof(*c));
    c->engine = engine;
    if (engine != NULL) {
        c->types = engine->types;
        c->n_types = engine->n_types;
    }
    c->ctx = ctx;
    c->a = ctx->arena;
    c->snapshot = state;
    c->labels = rp_json_make_object();
}

static void compose_finish(compose *c, rp_decision *out, bool decided)
{
    if (!decided) {
        if (c->any_ask) {
            out->result = RP_ASK;
            out->reason = rp_arena_strndup(c->a, c->ask_reasons.data ? c->ask_reasons.data : "",
                                           c->ask_reasons.len);
            out->policies = c->askers;
            out->n_policies = c->n_askers;
            out->withheld = c->all.items;
            out->n_withheld = c->all.n;
            out->approved_state = c->all.n ? c->all_state : NULL;
            c->labels = rp_json_make_object(); /* withheld with the updates */
        } else {
            out->result = RP_ALLOW;
            out->apply = c->applied.items;
            out->n_apply = c->applied.n;
            out->new_state = c->applied.n ? c->allowed_state : NULL;
        }
    }
    out->labels = c->labels;
    out->data = c->data;
    if (c->data != NULL && c->n_redactors > 0) {
        out->redactors = c->redactors;
        out->n_redactors = c->n_redactors;
        out->redaction = c->redaction;
    }
    out->notes = c->notes;
    rp_buf_free(&c->ask_reasons);
    redact_decision(c->a, out);
}

void rp_engine_evaluate(const rp_engine *engine, const rp_event *event, const rp_json *state,
                        rp_eval_ctx *ctx, rp_decision *out)
{
    compose c;
    rp_event ev = *event; /* transforms replace data in this copy only */
    bool decided = false;

    warn_relay relay;

    memset(out, 0, sizeof(*out));
    relay_begin(ctx, &relay);
    compose_init(&c, engine, state, ctx);
    for (size_t i = 0; i < engine->n_slots && !decided; i++) {
        const rp_policy_slot *slot = &engine->slots[i];
        rp_verdict v = RP_ABSTAIN;
        if (!condition_holds(slot->condition, &ev))
            continue;
        decided = run_slot(&c, slot, &ev, out, &v);
    }
    compose_finish(&c, out, decided);
    relay_end(ctx, &relay);
}

void rp_engine_evaluate_one(const rp_engine *engine, const rp_policy_slot *slot,
                            const rp_event *event, const rp_json *state, rp_eval_ctx *ctx,
                            rp_decision *out)
{
    compose c;
    rp_event ev = *event;
    rp_verdict v = RP_ABSTAIN;
    warn_relay relay;

    memset(out, 0, sizeof(*out));
    relay_begin(ctx, &relay);
    compose_init(&c, NULL, state, ctx);
    if (engine != NULL) {
        c.types = engine->types;
        c.n_types = engine->n_types;
    }
    bool decided = run_slot(&c, slot, &ev, out, &v);
    compose_finish(&c, out, decided);
    relay_end(ctx, &relay);
    /* Single-policy mode reports what the policy said: ABSTAIN stays visible and the reason is
     * the policy's own, not the engine's "<name>: <reason>" composition. */
    if (!decided && v == RP_ABSTAIN)
        out->result = RP_ABSTAIN;
    if (!decided)
        out->reason = rp_redact_text(ctx->arena, c.last_reason);
}
