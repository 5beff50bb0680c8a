/* session.c — one event through the pipeline: parse → (load state) → engine → (apply, record
 * pending ASK, audit, commit) → decision.
 *
 * Two doors: rp_session_eval_event takes the event as a tree and gives the decision as
 * rp_decision (the hook, which builds the tree itself); rp_session_eval takes JSON text and
 * writes the decision as JSON text, a thin wrapper over the same path for `rampart eval` and the
 * embedding API.
 *
 * Stateful evaluation holds the store's write transaction from load to commit, so concurrent
 * processes evaluating one session serialise instead of losing updates. When the store fails,
 * the decision is the config's on_error verdict (default DENY): rampart never answers ALLOW
 * because it could not look. */
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "core/sha256.h"
#include "session/session.h"
#include "session/ledger.h"
#include "scan/redact.h"

static const char *default_session = "default";

static const char *on_error_reason(rp_on_error e)
{
    (void)e;
    return "rampart could not evaluate this event: the state store failed";
}

/* The decision when the store failed (or could not be opened): the config's on_error, its
 * reason naming the problem, redacted like the engine's reasons (issue 16). */
static void fail_closed(const rp_config *cfg, const char *why, rp_arena *a, rp_decision *d)
{
    memset(d, 0, sizeof *d);
    switch (cfg->on_error) {
    case RP_ON_ERROR_ASK:
        d->result = RP_ASK;
        break;
    case RP_ON_ERROR_ALLOW:
        d->result = RP_ALLOW;
        break;
    case RP_ON_ERROR_DENY:
    default:
        d->result = RP_DENY;
        break;
    }
    /* In the arena, not on the stack: the decision outlives this call, and the redactor
     * returns a clean text as it is. */
    char reason[512];
    snprintf(reason, sizeof(reason), "%s (%s)", on_error_reason(cfg->on_error), why);
    d->reason = rp_redact_text(a, rp_arena_strdup(a, reason));
    d->labels = rp_json_make_object();
}

/* opts->spend_unknown: what the policies allowed or asked on the spend known so far is not
 * decided yet; the config's on_error is (an ASK only where it says ask), with no state change. */
static void spend_unknown(const rp_config *cfg, const char *why, rp_decision *d)
{
    static const char *const who[] = {"__spend_unknown"};
    if (d->result == RP_DENY || cfg->on_error == RP_ON_ERROR_ALLOW)
        return;
    memset(d, 0, sizeof *d);
    d->result = cfg->on_error == RP_ON_ERROR_ASK ? RP_ASK : RP_DENY;
    d->reason = why;
    d->policies = (const char **)who;
    d->n_policies = 1;
    d->labels = rp_json_make_object();
}

/* engine: the config's, or (stateful) the config's plus the session's sub-agent budget. */
static void evaluate(const rp_config *cfg, const rp_engine *engine, const rp_session_opts *opts,
                     const rp_event *ev, const rp_json *state, rp_eval_ctx *ctx, rp_decision *d)
{
    if (opts->single_policy && cfg->engine.n_slots > 0)
        rp_engine_evaluate_one(&cfg->engine, &cfg->engine.slots[0], ev, state, ctx, d);
    else
        rp_engine_evaluate(engine, ev, state, ctx, d);
}

/* A decision made before any policy ran (a dispatch whose cost_budget is invalid: the reason
 * quotes the value, so it is redacted like the engine's). */
static void deny_early(rp_decision *d, const char *reason, rp_arena *a)
{
    static const char *const who[] = {"__subagent_cost_budget"};
    memset(d, 0, sizeof *d);
    d->result = RP_DENY;
    d->reason = rp_redact_text(a, reason);
    d->policies = (const char **)who;
    d->n_policies = 1;
    d->labels = rp_json_make_object();
}

static rp_json updates_to_json(rp_arena *a, const rp_state_update *u, size_t n)
{
    rp_json list = rp_json_make_array();
    for (size_t i = 0; i < n; i++) {
        rp_json item = rp_json_make_object();
        rp_json_object_set(a, &item, "key", rp_json_make_string_ref(u[i].key));
        rp_json_object_set(a, &item, "action",
                           rp_json_make_string_ref(rp_update_action_name(u[i].action)));
        rp_json_object_set(a, &item, "value", u[i].value);
        if (u[i].policy)
            rp_json_object_set(a, &item, "policy", rp_json_make_string_ref(u[i].policy));
        rp_json_array_push(a, &list, item);
    }
    return list;
}

/* A pending ASK whose call later reports a result was approved by the person: the host only
 * runs an asked-about tool once someone said yes. The withheld updates are not replayed as
 * stored — a SET of a window computed at ASK time would wipe whatever happened since — but the
 * call (rebuilt from the result's request_data) is evaluated again on the current state and that
 * pass's updates apply, as the reference re-evaluates after an approval. */
static int apply_approved_pending(const rp_config *cfg, rp_session_ledger_ctx *cost,
                                  const rp_session_opts *opts, const char *sid, const rp_event *ev,
                                  rp_eval_ctx *ctx, rp_json **state, char *err, size_t err_size)
{
    rp_store *store = opts->store;
    rp_arena *a = ctx->arena;
    if (ev->type != RP_EV_TOOL_RESULT || ev->tool_use_id == NULL || ev->tool_use_id[0] == '\0')
        return 0;
    rp_json *pending = NULL;
    if (rp_store_take_pending(store, sid, ev->tool_use_id, a, &pending) != 0) {
        snprintf(err, err_size, "%s", rp_store_error(store));
        return -1;
    }
    if (pending == NULL || !rp_json_is_object(ev->request_data) || ev->tool_name == NULL)
        return 0; /* nothing was asked, or the host did not say what ran */

    rp_json data = rp_json_make_object();
    rp_json_object_set(a, &data, "name", rp_json_make_string_ref(ev->tool_name));
    const rp_json *args = rp_json_get(ev->request_data, "arguments");
    rp_json_object_set(a, &data, "arguments", args ? *args : rp_json_make_object());
    rp_json call = rp_json_make_object();
    rp_json_object_set(a, &call, "type", rp_json_make_string_ref("tool_call"));
    rp_json_object_set(a, &call, "target", rp_json_make_string_ref(ev->tool_name));
    rp_json_object_set(a, &call, "data", data);
    if (ev->context)
        rp_json_object_set(a, &call, "context", *ev->context);
    rp_event call_ev;
    if (!rp_event_from_json(&call, &call_ev))
        return 0;

    rp_decision d;
    evaluate(cfg, cost->engine, opts, &call_ev, *state, ctx, &d);
    const rp_json *after = d.result == RP_ASK ? d.approved_state : d.new_state;
    rp_json *settled = rp_json_new(a, rp_json_clone(a, after ? after : *state));
    /* The cost approvals come from what the person was asked, not from this pass. */
    if (rp_session_ledger_settle_approval(opts, sid, pending, *state, settled, &call_ev, ctx, err,
                                          err_size) != 0)
        return -1;
    *state = settled;
    return 0;
}

const char *rp_session_prompt_ask_key(rp_arena *a, const char *prompt_key, const char **askers,
                                      size_t n_askers)
{
    rp_buf b = {0};
    rp_buf_puts(&b, prompt_key);
    for (size_t i = 0; i < n_askers; i++) {
        rp_buf_putc(&b, '\n');
        rp_buf_puts(&b, askers[i]);
    }
    char hex[65];
    rp_sha256_hex(b.data, b.len, hex);
    rp_buf_free(&b);
    hex[16] = '\0';
    return rp_arena_sprintf(a, "%s:%s", prompt_key, hex);
}

/* A prompt ASK the host could only block (opts->prompt_resend_approves) is parked under the
 * prompt's key and the policies that asked; the same prompt sent again within
 * RP_SESSION_RESEND_APPROVAL_S, asked about by the same policies, is the person's approval.
 * Another policy asking, or an older entry, asks afresh. Sets *resent, and *key to the key the
 * ASK is (or would be) parked under. */
static int resend_approves(const rp_session_opts *opts, const char *sid, const rp_event *ev,
                           const rp_decision *d, rp_eval_ctx *ctx, bool *resent, const char **key,
                           char *err, size_t err_size)
{
    *resent = false;
    *key = NULL;
    if (ev->type != RP_EV_REQUEST || !opts->prompt_resend_approves || d->result != RP_ASK ||
        ev->tool_use_id == NULL || ev->tool_use_id[0] == '\0' ||
        opts->on_ask != RP_SESSION_ON_ASK_REPORT)
        return 0;
    *key = rp_session_prompt_ask_key(ctx->arena, ev->tool_use_id, d->policies, d->n_policies);
    rp_json *pending = NULL;
    int64_t at = 0;
    if (rp_store_take_pending_at(opts->store, sid, *key, ctx->arena, &pending, &at) != 0) {
        snprintf(err, err_size, "%s", rp_store_error(opts->store));
        return -1;
    }
    *resent = pending != NULL && ctx->now_us - at <= RP_SESSION_RESEND_APPROVAL_S * 1000000LL &&
              ctx->now_us >= at;
    return 0;
}

/* The default of what the host is told (rp_session_told): the decision, a redaction named. */
static void told_default(const rp_decision *d, bool resent, rp_arena *a, rp_session_told *t)
{
    memset(t, 0, sizeof *t);
    t->result = d->result;
    t->reason = d->reason;
    t->policies = d->policies;
    t->n_policies = d->n_policies;
    if (resent) {
        /* d is already the approval: say whose question it answered. */
        t->reason = "approved: the same prompt was sent again";
        return;
    }
    if (d->redaction == NULL || d->result == RP_DENY)
        return;
    t->redacted = true;
    if (d->result == RP_ALLOW) {
        t->reason = d->redaction;
        t->policies = d->redactors;
        t->n_policies = d->n_redactors;
        return;
    }
    /* An ASK about the redacted input: both the askers and the redactors decided it. */
    t->reason = rp_arena_sprintf(a, "%s; %s", d->reason ? d->reason : "", d->redaction);
    const char **all = rp_arena_calloc(a, (d->n_policies + d->n_redactors) * sizeof *all);
    for (size_t i = 0; i < d->n_policies; i++)
        all[i] = d->policies[i];
    for (size_t i = 0; i < d->n_redactors; i++)
        all[d->n_policies + i] = d->redactors[i];
    t->policies = all;
    t->n_policies = d->n_policies + d->n_redactors;
}

/* What the host is told: the default, corrected by the caller's answer (opts->tell). */
static void told_for(const rp_session_opts *opts, const rp_decision *d, bool resent, rp_arena *a,
                     rp_session_told *t)
{
    told_default(d, resent, a, t);
    if (opts->tell)
        opts->tell(opts->tell_self, d, t);
}

/* The audit row is written in the call's transaction: when it cannot be written (a full disk,
 * a dropped or altered audit table, a trigger raising), the call is a store error and its state
 * updates are rolled back with it — never a decision that leaves no trace. */
static int audit(rp_store *store, const char *sid, const rp_event *ev, const rp_decision *d,
                 const rp_session_told *told, int64_t now_us)
{
    rp_buf policies = {0};
    rp_buf_putc(&policies, '[');
    for (size_t i = 0; i < told->n_policies; i++) {
        if (i)
            rp_buf_putc(&policies, ',');
        rp_json_write_string(&policies, told->policies[i], strlen(told->policies[i]));
    }
    rp_buf_putc(&policies, ']');
    rp_audit_row row = {
        .time_us = now_us,
        .session_id = sid,
        .event_type = ev->type_name,
        .target = ev->tool_name,
        .result =
            told->redacted && told->result == RP_ALLOW ? "REDACT" : rp_verdict_name(told->result),
        .reason = told->reason,
        .policies = policies.data,
        .note = d->notes,
    };
    int rc = rp_store_audit(store, &row);
    rp_buf_free(&policies);
    return rc;
}

static rp_session_status eval_stateful(const rp_config *cfg, const rp_session_opts *opts,
                                       rp_json *root, rp_event *ev, rp_eval_ctx *ctx,
                                       rp_decision *out, char *err, size_t err_size)
{
    rp_store *store = opts->store;
    rp_arena *a = ctx->arena;
    const char *sid = ev->session_id && ev->session_id[0] ? ev->session_id : default_session;
    rp_json *state = NULL;
    rp_decision d;
    rp_session_ledger_ctx cost;
    memset(&cost, 0, sizeof cost);

    if (rp_store_begin(store) != 0)
        goto store_failed;
    if (rp_store_load_state(store, sid, a, &state) != 0)
        goto store_failed_rollback;
    int prep =
        rp_session_ledger_prepare(cfg, opts, sid, root, ev, state, ctx, &cost, err, err_size);
    if (prep == -2) {
        rp_store_rollback(store);
        return RP_SESSION_BAD_EVENT;
    }
    if (prep != 0)
        goto store_failed_rollback;
    if (apply_approved_pending(cfg, &cost, opts, sid, ev, ctx, &state, err, err_size) != 0)
        goto store_failed_rollback;
    if (cost.deny_reason != NULL)
        deny_early(&d, cost.deny_reason, a);
    else
        evaluate(cfg, cost.engine, opts, ev, state, ctx, &d);

    rp_session_opts resend_opts;
    bool resent = false;
    const char *prompt_key = NULL;
    if (resend_approves(opts, sid, ev, &d, ctx, &resent, &prompt_key, err, err_size) != 0)
        goto store_failed_rollback;
    if (resent) {
        /* The evaluation is pure: run it again as approved. */
        resend_opts = *opts;
        resend_opts.on_ask = RP_SESSION_ON_ASK_APPROVE;
        opts = &resend_opts;
        evaluate(cfg, cost.engine, opts, ev, state, ctx, &d);
    }
    if (opts->spend_unknown != NULL)
        spend_unknown(cfg, opts->spend_unknown, &d);

    const rp_json *to_save = d.new_state;
    if (d.result == RP_ASK) {
        to_save = NULL;
        if (opts->on_ask == RP_SESSION_ON_ASK_APPROVE) {
            to_save = d.approved_state;
        } else if (opts->on_ask == RP_SESSION_ON_ASK_REPORT &&
                   ((ev->type == RP_EV_TOOL_CALL &&
                     (d.n_withheld > 0 || cost.has_dispatch_budget)) ||
                    prompt_key != NULL) &&
                   ev->tool_use_id != NULL && ev->tool_use_id[0] != '\0') {
            /* Parked only where an answer can be recognised later: a tool call with the host's
             * id, whose tool_result then shows it was approved, or a prompt with its key (even
             * an ASK that withholds nothing: its resend is the approval), sent again
             * (resend_approves) or approved with `rampart approve`. Elsewhere nothing
             * would ever claim the entry; a declined or unanswerable ASK leaves no trace, as in
             * the reference. */
            rp_json updates = updates_to_json(a, d.withheld, d.n_withheld);
            rp_session_ledger_annotate_pending(&cost, &updates, a);
            rp_json askers = rp_json_make_array();
            for (size_t i = 0; i < d.n_policies; i++)
                rp_json_array_push(a, &askers, rp_json_make_string_ref(d.policies[i]));
            if (rp_store_put_pending(store, sid, prompt_key ? prompt_key : rp_ask_key(ev, a),
                                     &updates, &askers, ctx->now_us) != 0)
                goto store_failed_rollback;
        }
    }
    /* A pending approval may have changed the state even when the engine changed nothing. */
    if (to_save == NULL && ev->type == RP_EV_TOOL_RESULT)
        to_save = state;
    if (rp_session_ledger_finish(cfg, opts, sid, ev, &d, &cost, &to_save, ctx, err, err_size) != 0)
        goto store_failed_rollback;
    if (to_save != NULL && rp_store_save_state(store, sid, to_save) != 0)
        goto store_failed_rollback;
    const char *const *asked = d.policies;
    size_t n_asked = d.n_policies;
    if (resent && d.result == RP_ASK) {
        /* The person approved by sending the prompt again: the answer is the approval. */
        d.result = RP_ALLOW;
        d.reason = NULL;
        d.n_policies = 0;
        d.apply = d.withheld;
        d.n_apply = d.n_withheld;
    }
    rp_session_told told;
    told_for(opts, &d, resent, a, &told);
    if (resent) {
        told.policies = asked; /* the audit names the question the resend answered */
        told.n_policies = n_asked;
    }
    if (opts->audit && audit(store, sid, ev, &d, &told, ctx->now_us) != 0)
        goto store_failed_rollback;
    if (rp_store_commit(store) != 0)
        goto store_failed_rollback;
    *out = d;
    return RP_SESSION_OK;

store_failed_rollback:
    rp_store_rollback(store);
store_failed:
    if (err[0] == '\0')
        snprintf(err, err_size, "%s", rp_store_error(store));
    fail_closed(cfg, err, a, out);
    return RP_SESSION_STORE_ERROR;
}

/* The typed entry without the depth guard: root came from the reader, or passed it. */
static rp_session_status eval_tree(const rp_config *cfg, const rp_session_opts *opts, rp_json *root,
                                   rp_arena *a, rp_decision *out, char *err, size_t err_size)
{
    rp_event ev;
    if (!rp_event_from_json(root, &ev)) {
        snprintf(err, err_size, "the event is a JSON %s, not an object",
                 rp_json_type_name(root->type));
        return RP_SESSION_BAD_EVENT;
    }
    const rp_json *sid = rp_json_get(root, "session_id");
    if (sid != NULL && ev.session_id == NULL && sid->type != RP_JSON_NULL) {
        /* Falling back to "default" would merge this session's state with unrelated ones. */
        snprintf(err, err_size, "session_id must be a string, got %s",
                 rp_json_type_name(sid->type));
        return RP_SESSION_BAD_EVENT;
    }
    if (!rp_event_check_ids(&ev, err, err_size))
        return RP_SESSION_BAD_EVENT;
    rp_eval_ctx ctx;
    memset(&ctx, 0, sizeof(ctx));
    ctx.arena = a;
    ctx.now_us = rp_now_us();
    ctx.fs = opts->fs ? opts->fs : &rp_fs_view_real;
    ctx.is_trusted = opts->is_trusted;
    ctx.trust_self = opts->trust_self;
    ctx.warn = opts->warn;
    ctx.warn_self = opts->warn_self;
    if (opts->store_unavailable != NULL) {
        snprintf(err, err_size, "%s", opts->store_unavailable);
        fail_closed(cfg, err, a, out);
        return RP_SESSION_STORE_ERROR;
    }
    if (opts->store != NULL)
        return eval_stateful(cfg, opts, root, &ev, &ctx, out, err, err_size);
    static const rp_json empty_object = {.type = RP_JSON_OBJECT};
    const rp_json *state = rp_json_is_object(ev.session_state) ? ev.session_state : &empty_object;
    evaluate(cfg, &cfg->engine, opts, &ev, state, &ctx, out);
    rp_session_told told;
    told_for(opts, out, false, a, &told); /* nothing is audited, but the caller answers */
    return RP_SESSION_OK;
}

/* Whether v nests at least `limit` levels deep (a scalar is one level). */
static bool nests_deeper(const rp_json *v, int limit)
{
    if (limit <= 1)
        return true;
    if (v->type == RP_JSON_ARRAY) {
        for (uint32_t i = 0; i < v->len; i++)
            if (nests_deeper(&v->v.items[i], limit - 1))
                return true;
    } else if (v->type == RP_JSON_OBJECT) {
        for (uint32_t i = 0; i < v->len; i++)
            if (nests_deeper(&v->v.members[i].value, limit - 1))
                return true;
    }
    return false;
}

rp_session_status rp_session_eval_event(const rp_config *cfg, const rp_session_opts *opts,
                                        rp_json *event, rp_arena *a, rp_decision *out, char *err,
                                        size_t err_size)
{
    err[0] = '\0';
    /* A tree the reader would refuse as text (an adapter wraps a payload that was just within
     * RP_JSON_MAX_DEPTH a few levels deeper) is refused as it was when the hook handed the
     * session text: the reader decides, with its own message. Only trees near the limit pay
     * for the round trip. */
    if (nests_deeper(event, RP_JSON_MAX_DEPTH - 8)) {
        rp_buf text = {0};
        rp_json_write(&text, event);
        rp_json_error jerr;
        rp_json *again = rp_json_parse(a, text.data ? text.data : "", text.len, &jerr);
        rp_buf_free(&text);
        if (again == NULL) {
            snprintf(err, err_size, "invalid JSON at column %d: %s", jerr.col, jerr.msg);
            return RP_SESSION_BAD_EVENT;
        }
    }
    return eval_tree(cfg, opts, event, a, out, err, err_size);
}

rp_session_status rp_session_eval(const rp_config *cfg, const rp_session_opts *opts,
                                  const char *event_json, size_t len, rp_buf *out, char *err,
                                  size_t err_size)
{
    rp_arena own = {0};
    rp_arena *a = opts->arena ? opts->arena : &own;
    rp_session_status status;

    if (opts->arena)
        rp_arena_reset(a);
    err[0] = '\0';

    rp_json_error jerr;
    rp_json *root = rp_json_parse(a, event_json, len, &jerr);
    if (root == NULL) {
        snprintf(err, err_size, "invalid JSON at column %d: %s", jerr.col, jerr.msg);
        status = RP_SESSION_BAD_EVENT;
    } else {
        rp_decision d;
        status = eval_tree(cfg, opts, root, a, &d, err, err_size);
        if (status != RP_SESSION_BAD_EVENT)
            rp_decision_write_json(out, &d);
    }
    if (!opts->arena)
        rp_arena_free(&own);
    return status;
}

/* The stored form of withheld updates back into rp_state_update (unknown actions skipped). */
static size_t updates_from_json(rp_arena *a, const rp_json *list, rp_state_update **out)
{
    size_t n = 0;
    *out = NULL;
    if (!rp_json_is_array(list) || list->len == 0)
        return 0;
    *out = rp_arena_calloc(a, list->len * sizeof **out);
    for (uint32_t i = 0; i < list->len; i++) {
        const rp_json *u = &list->v.items[i];
        const char *key = rp_json_get_str(u, "key");
        const char *action = rp_json_get_str(u, "action");
        const rp_json *value = rp_json_get(u, "value");
        if (key == NULL || action == NULL)
            continue;
        rp_update_action act;
        if (strcmp(action, "set") == 0)
            act = RP_UPDATE_SET;
        else if (strcmp(action, "increment") == 0)
            act = RP_UPDATE_INCREMENT;
        else if (strcmp(action, "append") == 0)
            act = RP_UPDATE_APPEND;
        else if (strcmp(action, "delete") == 0)
            act = RP_UPDATE_DELETE;
        else
            continue;
        (*out)[n++] = (rp_state_update){.key = key,
                                        .action = act,
                                        .value = value ? *value : rp_json_make_null(),
                                        .policy = rp_json_get_str(u, "policy")};
    }
    return n;
}

int rp_session_approve(const rp_session_opts *opts, const char *session_id, const char *ask_key,
                       char *err, size_t err_size)
{
    rp_store *store = opts->store;
    rp_arena a = {0};
    rp_arena_init(&a, 16 * 1024);
    rp_eval_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.arena = &a;
    ctx.now_us = rp_now_us();
    int rc = -1;
    rp_json *pending = NULL, *state = NULL;
    err[0] = '\0';
    if (rp_store_begin(store) != 0)
        goto fail;
    if (rp_store_take_pending(store, session_id, ask_key, &a, &pending) != 0)
        goto fail_rollback;
    if (pending == NULL) {
        rp_store_rollback(store);
        rc = 0;
        goto done;
    }
    if (rp_store_load_state(store, session_id, &a, &state) != 0)
        goto fail_rollback;
    rp_json *after = rp_json_new(&a, rp_json_clone(&a, state));
    rp_state_update *updates;
    size_t n = updates_from_json(&a, pending, &updates);
    if (rp_state_apply(&a, after, updates, n, err, err_size) != 0)
        goto fail_rollback;
    /* The cost approvals the ASK withheld are settled as for an approved tool call. */
    rp_json req = rp_json_make_object();
    rp_json_object_set(&a, &req, "type", rp_json_make_string_ref("request"));
    rp_event req_ev;
    rp_event_from_json(&req, &req_ev);
    if (rp_session_ledger_settle_approval(opts, session_id, pending, state, after, &req_ev, &ctx,
                                          err, err_size) != 0)
        goto fail_rollback;
    if (rp_store_save_state(store, session_id, after) != 0)
        goto fail_rollback;
    /* The person still has to send the prompt again; with nothing left to withhold, that resend
     * is let through as the approval (within the usual window). */
    rp_json none = rp_json_make_array();
    if (rp_store_put_pending(store, session_id, ask_key, &none, &none, ctx.now_us) != 0 ||
        rp_store_commit(store) != 0)
        goto fail_rollback;
    rc = 1;
    goto done;

fail_rollback:
    rp_store_rollback(store);
fail:
    if (err[0] == '\0')
        snprintf(err, err_size, "%s", rp_store_error(store));
done:
    rp_arena_free(&a);
    return rc;
}
