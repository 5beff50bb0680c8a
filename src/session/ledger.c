/* ledger.c — the spend ledger around one stateful evaluation (see ledger.h). */
#include "session/ledger.h"

#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "cost/usage.h"
#include "cost/budget.h"

/* Keys the reference routes (§4.2). The tree-wide pair lives in the root session's state and is
 * mirrored into each sub-agent's; the per-user ones never live in session state. */
#define KEY_COST_APPROVED     "_policy_cost_ask_approved_usd"
#define KEY_UNPRICED_APPROVED "_policy_cost_unpriced_approved"
#define KEY_DAILY_APPROVED    "_policy_user_daily_ask_approved_usd"
#define KEY_PERIOD_APPROVED   "_policy_user_period_ask_approved_usd"
#define KEY_SUBAGENT_APPROVED "subagent_cost_ask_approved_usd"

#define BUDGET_SLOT_NAME "__subagent_cost_budget"

/* Tools whose call creates a sub-agent and may carry `cost_budget` (reference §5.10). */
static const char *const dispatch_tools[] = {"sys_session_send", "sys_session_create"};

void rp_session_needs_of(const rp_config *cfg, rp_session_needs *n)
{
    memset(n, 0, sizeof *n);
    for (size_t i = 0; i < cfg->engine.n_slots; i++) {
        const rp_policy_slot *slot = &cfg->engine.slots[i];
        const char *name = slot->type->name;
        if (strcmp(name, "cost_budget") == 0 || strcmp(name, "cel_policy") == 0) {
            n->usage = true;
        } else if (strcmp(name, "user_daily_cost_budget") == 0) {
            n->usage = n->daily = true;
        } else if (strcmp(name, "subagent_cost_budget") == 0) {
            n->usage = n->subtree = true;
        } else if (strcmp(name, "user_period_cost_budget") == 0) {
            const rp_json *p = rp_json_get(slot->params, "period");
            rp_cost_period kind;
            /* The config check allows one such policy; its period is the window to sum. */
            if (!n->period && p && p->type == RP_JSON_STRING &&
                rp_cost_period_parse(p->v.s, &kind) == 0) {
                n->usage = n->period = true;
                n->period_kind = kind;
            }
        }
    }
    n->reads_spend =
        n->usage || (cfg->subagents && rp_json_get(cfg->subagents, "default_cost_budget") != NULL);
}

bool rp_session_reads_spend(const rp_config *cfg)
{
    rp_session_needs n;
    rp_session_needs_of(cfg, &n);
    return n.reads_spend;
}

static bool is_dispatch(const rp_event *ev)
{
    if (ev->type != RP_EV_TOOL_CALL || ev->tool_name == NULL)
        return false;
    for (size_t i = 0; i < sizeof dispatch_tools / sizeof dispatch_tools[0]; i++) {
        if (strcmp(ev->tool_name, dispatch_tools[i]) == 0)
            return true;
    }
    return false;
}

static int store_fail(const rp_session_opts *opts, char *err, size_t err_size)
{
    snprintf(err, err_size, "%s", rp_store_error(opts->store));
    return -1;
}

static rp_json usd(int64_t nusd)
{
    return rp_json_make_double((double)nusd / (double)RP_NUSD_PER_USD);
}

/* {cost_usd, ask_approved_usd, user_id?} for the owner over first..last, approvals of
 * (period, window start). */
static int user_block(const rp_session_opts *opts, const char *owner, const char *period,
                      const char *first, const char *last, rp_arena *a, rp_json *out, char *err,
                      size_t err_size)
{
    rp_usage_totals t;
    memset(&t, 0, sizeof t);
    double approved = 0.0;
    if (owner != NULL) {
        if (rp_store_user_spend(opts->store, owner, first, last, &t) != 0 ||
            rp_store_get_user_approval(opts->store, owner, period, first, &approved) != 0)
            return store_fail(opts, err, err_size);
    }
    *out = rp_json_make_object();
    rp_json_object_set(a, out, "cost_usd", usd(t.cost_nusd));
    rp_json_object_set(a, out, "ask_approved_usd", rp_json_make_double(approved));
    if (owner != NULL)
        rp_json_object_set(a, out, "user_id", rp_json_make_string_ref(owner));
    return 0;
}

static void sink(void *self, const char *param, const char *message)
{
    rp_buf *b = self;
    if (b->len)
        rp_buf_puts(b, "; ");
    if (param) {
        rp_buf_puts(b, param);
        rp_buf_puts(b, ": ");
    }
    rp_buf_puts(b, message);
}

/* The config's engine with a subagent_cost_budget instance for `budget` appended. */
static int add_budget_slot(const rp_config *cfg, const rp_json *budget, const char *source,
                           rp_arena *a, rp_session_ledger_ctx *cc, char *err, size_t err_size)
{
    const rp_policy_type *t = rp_config_policy_type("subagent_cost_budget");
    if (t == NULL)
        return 0;
    rp_buf msgs = {0};
    const rp_json *params = rp_params_validate(t, budget, a, sink, &msgs);
    void *instance = NULL;
    rp_param_error perr;
    memset(&perr, 0, sizeof perr);
    if (params == NULL || t->create(params, a, &instance, &perr) != 0) {
        snprintf(err, err_size, "the sub-agent cost budget (%s) is invalid: %s", source,
                 params == NULL ? (msgs.data ? msgs.data : "?") : perr.message);
        rp_buf_free(&msgs);
        return -1;
    }
    rp_buf_free(&msgs);
    size_t n = cfg->engine.n_slots;
    rp_policy_slot *slots = rp_arena_alloc(a, (n + 1) * sizeof *slots);
    if (n)
        memcpy(slots, cfg->engine.slots, n * sizeof *slots);
    memset(&slots[n], 0, sizeof slots[n]);
    slots[n].name = BUDGET_SLOT_NAME;
    slots[n].type = t;
    slots[n].instance = instance;
    slots[n].params = params;
    slots[n].source = source;
    slots[n].level = RP_LEVEL_EXPLICIT;
    rp_engine *e = rp_arena_alloc(a, sizeof *e);
    *e = cfg->engine;
    e->slots = slots;
    e->n_slots = n + 1;
    cc->engine = e;
    cc->budget_type = t;
    cc->budget_instance = instance;
    return 0;
}

/* The operator's default is a ceiling the agent's own dispatch cannot raise: the dispatch's max
 * is lowered to it (or set, when the dispatch gave only thresholds), and thresholds that would
 * no longer lie below the max are dropped. */
static rp_json *clamp_to_default(const rp_json *budget, double def_max, rp_arena *a)
{
    double max = 0;
    const rp_json *m = rp_json_get(budget, "max_cost_usd");
    if (m != NULL && rp_json_number(m, &max) && max <= def_max)
        return (rp_json *)budget;
    rp_json out = rp_json_make_object();
    rp_json_object_set(a, &out, "max_cost_usd", rp_json_make_double(def_max));
    const rp_json *th = rp_json_get(budget, "ask_thresholds_usd");
    if (rp_json_is_array(th)) {
        rp_json kept = rp_json_make_array();
        for (uint32_t i = 0; i < th->len; i++) {
            double t;
            if (rp_json_number(&th->v.items[i], &t) && t < def_max)
                rp_json_array_push(a, &kept, th->v.items[i]);
        }
        if (kept.len > 0)
            rp_json_object_set(a, &out, "ask_thresholds_usd", kept);
    }
    return rp_json_new(a, out);
}

/* The budget a sub-agent session runs under: the one its dispatch attached, else the config's
 * subagents.default_cost_budget (a max in USD). */
static int session_budget(const rp_config *cfg, const rp_session_opts *opts, const char *sid,
                          rp_session_ledger_ctx *cc, rp_arena *a, char *err, size_t err_size)
{
    if (cc->link.parent_session_id == NULL)
        return 0;
    char *text = NULL;
    if (rp_store_session_budget(opts->store, sid, a, &text) != 0)
        return store_fail(opts, err, err_size);
    const rp_json *def = cfg->subagents ? rp_json_get(cfg->subagents, "default_cost_budget") : NULL;
    double def_max = 0;
    if (def == NULL || !rp_json_number(def, &def_max))
        def_max = 0;
    if (text != NULL) {
        rp_json_error jerr;
        rp_json *budget = rp_json_parse(a, text, strlen(text), &jerr);
        if (budget == NULL || !rp_json_is_object(budget)) {
            snprintf(err, err_size, "the stored sub-agent budget of session %s is corrupt", sid);
            return -1;
        }
        if (def_max > 0)
            budget = clamp_to_default(budget, def_max, a);
        return add_budget_slot(cfg, budget, "cost_budget of the dispatch", a, cc, err, err_size);
    }
    if (def_max > 0) {
        rp_json budget = rp_json_make_object();
        double max = 0;
        rp_json_number(def, &max);
        rp_json_object_set(a, &budget, "max_cost_usd", rp_json_make_double(max));
        return add_budget_slot(cfg, &budget, "subagents.default_cost_budget", a, cc, err, err_size);
    }
    return 0;
}

/* Copies the tree-wide approval keys from the root session's state into this one's. */
static int seed_from_root(const rp_session_opts *opts, const char *sid, rp_json *state,
                          rp_session_ledger_ctx *cc, rp_arena *a, char *err, size_t err_size)
{
    const char *root = cc->link.root_session_id;
    if (root == NULL || strcmp(root, sid) == 0)
        return 0;
    rp_json *root_state = NULL;
    if (rp_store_load_state(opts->store, root, a, &root_state) != 0)
        return store_fail(opts, err, err_size);
    cc->seeded_cost_approved = rp_json_get(root_state, KEY_COST_APPROVED);
    cc->seeded_unpriced_approved = rp_json_get(root_state, KEY_UNPRICED_APPROVED);
    /* The root is authoritative: an approval this session holds from before it joined the tree
     * (or from a mirror the root no longer has) must not cover the tree's spend. */
    if (cc->seeded_cost_approved)
        rp_json_object_set(a, state, KEY_COST_APPROVED, *cc->seeded_cost_approved);
    else
        rp_json_object_delete(state, KEY_COST_APPROVED);
    if (cc->seeded_unpriced_approved)
        rp_json_object_set(a, state, KEY_UNPRICED_APPROVED, *cc->seeded_unpriced_approved);
    else
        rp_json_object_delete(state, KEY_UNPRICED_APPROVED);
    return 0;
}

static int record_llm_usage(const rp_config *cfg, const rp_session_opts *opts, const char *sid,
                            const rp_event *ev, const char *owner, rp_eval_ctx *ctx, char *err,
                            size_t err_size)
{
    const rp_cost_pricing *pricing =
        opts->pricing ? rp_cost_pricing_once_get(opts->pricing, err, err_size)
                      : rp_cost_pricing_build(ctx->arena, cfg->pricing, err, err_size);
    if (pricing == NULL)
        return -1;
    rp_usage_record rec;
    char why[256];
    int rc = rp_cost_usage_from_llm_response(ev->data, ev->model, pricing, ctx->now_us, &rec, why,
                                             sizeof why);
    if (rc < 0) {
        snprintf(err, err_size, "llm_response data.usage: %s", why);
        return -2;
    }
    if (rc == 0)
        return 0;
    rec.session_id = sid;
    rec.parent_session_id = ev->parent_session_id;
    rec.root_session_id = ev->root_session_id;
    rec.user_id = owner;
    if (rp_store_record_usage(opts->store, &rec, NULL) != 0)
        return store_fail(opts, err, err_size);
    return 0;
}

int rp_session_ledger_prepare(const rp_config *cfg, const rp_session_opts *opts, const char *sid,
                              rp_json *root, rp_event *ev, rp_json *state, rp_eval_ctx *ctx,
                              rp_session_ledger_ctx *cc, char *err, size_t err_size)
{
    rp_arena *a = ctx->arena;
    memset(cc, 0, sizeof *cc);
    cc->engine = &cfg->engine;
    rp_cost_utc_day(ctx->now_us, cc->today);

    rp_session_needs n;
    if (opts->needs != NULL)
        n = *opts->needs;
    else
        rp_session_needs_of(cfg, &n);
    bool usage_event = ev->type == RP_EV_LLM_RESPONSE && rp_json_get(ev->data, "usage") != NULL;
    const rp_json *dispatch_budget =
        is_dispatch(ev) ? rp_json_get(ev->arguments, "cost_budget") : NULL;
    if (dispatch_budget != NULL && dispatch_budget->type == RP_JSON_NULL)
        dispatch_budget = NULL;
    /* The ledger is consulted on every stateful event, even without a cost policy: a sub-agent
     * runs under its dispatch's budget (or subagents.default_cost_budget) in every event, also
     * those that do not restate the parent, and only the stored link knows it is one. For a
     * session already linked that is one indexed read. */

    if (dispatch_budget != NULL) {
        char why[256] = "";
        if (rp_cost_subagent_budget_check(dispatch_budget, a, &cc->dispatch_budget, why,
                                          sizeof why) != 0) {
            cc->deny_reason =
                rp_arena_sprintf(a, "%s: invalid cost_budget: %s", ev->tool_name, why);
            return 0;
        }
        cc->has_dispatch_budget = true;
    }

    /* The owner: the event's (context.user, else actor.run_as), else the config's `user:`;
     * a sub-agent without one is charged to its root session's owner (the link resolves it). */
    const char *user = ev->user && ev->user[0] ? ev->user : cfg->user;
    if (rp_store_link_session(opts->store, sid, ev->parent_session_id, ev->root_session_id, user,
                              ctx->now_us, a, &cc->link) != 0)
        return store_fail(opts, err, err_size);
    cc->linked = true;
    /* The session's owner as the ledger knows it (its root's owner, else its first known user):
     * a later event naming another user, or another spelling, must not move the spend, or the
     * limit, to someone else. The event's user only fills in where none is known. */
    cc->owner = cc->link.owner_id ? cc->link.owner_id : user;

    if (usage_event) {
        int rc = record_llm_usage(cfg, opts, sid, ev, cc->owner, ctx, err, err_size);
        if (rc != 0)
            return rc;
    }
    if (session_budget(cfg, opts, sid, cc, a, err, err_size) != 0)
        return -1;
    if (cc->budget_instance != NULL)
        n.usage = n.subtree = true;
    if (seed_from_root(opts, sid, state, cc, a, err, err_size) != 0)
        return -1;
    if (!n.usage)
        return 0;

    /* Fill the context from the ledger: the stored numbers win over anything the event says. */
    rp_json *context = (rp_json *)rp_json_get(root, "context");
    if (context == NULL || !rp_json_is_object(context)) {
        rp_json_object_set(a, root, "context", rp_json_make_object());
        context = (rp_json *)rp_json_get(root, "context");
    }
    rp_usage_totals t;
    if (rp_store_usage_tree(opts->store, cc->link.root_session_id, &t) != 0)
        return store_fail(opts, err, err_size);
    rp_json_object_set(a, context, "usage", rp_cost_usage_totals_to_json(a, &t));
    if (n.subtree) {
        if (rp_store_usage_subtree(opts->store, sid, &t) != 0)
            return store_fail(opts, err, err_size);
        rp_json_object_set(a, context, "subtree_usage", rp_cost_usage_totals_to_json(a, &t));
    }
    if (n.daily) {
        rp_json block;
        if (user_block(opts, cc->owner, "day", cc->today, cc->today, a, &block, err, err_size) != 0)
            return -1;
        rp_json_object_set(a, context, "user_daily_cost", block);
    }
    if (n.period) {
        char last[RP_COST_DAY_KEY_SIZE];
        cc->has_period = true;
        cc->period = n.period_kind;
        rp_cost_period_window(n.period_kind, ctx->now_us, cc->window_start, last);
        rp_json block;
        if (user_block(opts, cc->owner, rp_cost_period_name(n.period_kind), cc->window_start, last,
                       a, &block, err, err_size) != 0)
            return -1;
        rp_json_object_set(a, &block, "period",
                           rp_json_make_string_ref(rp_cost_period_name(n.period_kind)));
        rp_json_object_set(a, &block, "window_start", rp_json_make_string(a, cc->window_start));
        rp_json_object_set(a, context, "user_period_cost", block);
    }
    (void)rp_event_from_json(root, ev);
    return 0;
}

static int attach(const rp_session_opts *opts, const char *sid, const rp_json *budget,
                  int64_t now_us, char *err, size_t err_size)
{
    rp_buf text = {0};
    rp_json_write(&text, budget);
    int rc = rp_store_attach_budget(opts->store, sid, NULL, text.data, now_us);
    rp_buf_free(&text);
    return rc != 0 ? store_fail(opts, err, err_size) : 0;
}

/* Writes a tree-wide key into the root session's state when this sub-agent changed it. */
static int route_to_root(const rp_session_opts *opts, const rp_session_ledger_ctx *cc,
                         const char *key, const rp_json *value, const rp_json *seeded, rp_arena *a,
                         char *err, size_t err_size)
{
    if (value == NULL || (seeded != NULL && rp_json_equal(value, seeded, false)))
        return 0;
    rp_json *root_state = NULL;
    if (rp_store_load_state(opts->store, cc->link.root_session_id, a, &root_state) != 0)
        return store_fail(opts, err, err_size);
    rp_json_object_set(a, root_state, key, *value);
    if (rp_store_save_state(opts->store, cc->link.root_session_id, root_state) != 0)
        return store_fail(opts, err, err_size);
    return 0;
}

static int route_user_key(const rp_session_opts *opts, const rp_session_ledger_ctx *cc,
                          rp_json *state, const char *key, const char *period, const char *window,
                          int64_t now_us, char *err, size_t err_size)
{
    const rp_json *v = rp_json_get(state, key);
    if (v == NULL)
        return 0;
    double approved;
    bool ok = v->type != RP_JSON_BOOL && rp_json_number(v, &approved);
    if (ok && cc->owner != NULL && period != NULL &&
        rp_store_set_user_approval(opts->store, cc->owner, period, window, approved, now_us) != 0)
        return store_fail(opts, err, err_size);
    rp_json_object_delete(state, key); /* never kept in session state (reference §4.2) */
    return 0;
}

int rp_session_ledger_finish(const rp_config *cfg, const rp_session_opts *opts, const char *sid,
                             const rp_event *ev, const rp_decision *d, rp_session_ledger_ctx *cc,
                             const rp_json **to_save, rp_eval_ctx *ctx, char *err, size_t err_size)
{
    (void)cfg;
    rp_arena *a = ctx->arena;
    int rc = 0;
    if (cc->budget_type != NULL && cc->budget_type->destroy != NULL && cc->budget_instance) {
        cc->budget_type->destroy(cc->budget_instance);
        cc->budget_instance = NULL;
    }
    if (!cc->linked)
        return 0;

    const rp_json *st = *to_save;
    if (st != NULL &&
        (rp_json_get(st, KEY_DAILY_APPROVED) || rp_json_get(st, KEY_PERIOD_APPROVED))) {
        rp_json *copy = rp_json_new(a, rp_json_clone(a, st));
        rc = route_user_key(opts, cc, copy, KEY_DAILY_APPROVED, "day", cc->today, ctx->now_us, err,
                            err_size);
        if (rc == 0)
            rc = route_user_key(opts, cc, copy, KEY_PERIOD_APPROVED,
                                cc->has_period ? rp_cost_period_name(cc->period) : NULL,
                                cc->window_start, ctx->now_us, err, err_size);
        if (rc != 0)
            return rc;
        *to_save = st = copy;
    }
    if (st != NULL && cc->link.root_session_id != NULL &&
        strcmp(cc->link.root_session_id, sid) != 0) {
        if (route_to_root(opts, cc, KEY_COST_APPROVED, rp_json_get(st, KEY_COST_APPROVED),
                          cc->seeded_cost_approved, a, err, err_size) != 0 ||
            route_to_root(opts, cc, KEY_UNPRICED_APPROVED, rp_json_get(st, KEY_UNPRICED_APPROVED),
                          cc->seeded_unpriced_approved, a, err, err_size) != 0)
            return -1;
    }

    /* A dispatch that goes ahead attaches its budget to the child it creates. An ASK parked
     * under the call's tool_use_id attaches only when its result shows it was approved
     * (rp_session_ledger_settle_approval); a declined one must leave nothing a later child could
     * claim. An ASK that cannot be recognised later (no tool_use_id) attaches now: the child exists
     * only if someone approved, and a child without its budget would run unlimited. */
    bool parked = d->result == RP_ASK && opts->on_ask == RP_SESSION_ON_ASK_REPORT &&
                  ev->tool_use_id != NULL && ev->tool_use_id[0] != '\0';
    bool goes_ahead = d->result == RP_ALLOW ||
                      (d->result == RP_ASK && opts->on_ask != RP_SESSION_ON_ASK_DECLINE && !parked);
    if (cc->has_dispatch_budget && goes_ahead &&
        attach(opts, sid, &cc->dispatch_budget, ctx->now_us, err, err_size) != 0)
        return -1;
    return 0;
}

void rp_session_ledger_annotate_pending(const rp_session_ledger_ctx *cc, rp_json *updates,
                                        rp_arena *a)
{
    if (!cc->linked || cc->owner == NULL || !rp_json_is_array(updates))
        return;
    for (uint32_t i = 0; i < updates->len; i++) {
        rp_json *u = &updates->v.items[i];
        const rp_json *key = rp_json_get(u, "key");
        if (key == NULL || key->type != RP_JSON_STRING)
            continue;
        const char *period = NULL, *window = NULL;
        if (strcmp(key->v.s, KEY_DAILY_APPROVED) == 0) {
            period = "day";
            window = cc->today;
        } else if (strcmp(key->v.s, KEY_PERIOD_APPROVED) == 0 && cc->has_period) {
            period = rp_cost_period_name(cc->period);
            window = cc->window_start;
        }
        if (period == NULL)
            continue;
        rp_json_object_set(a, u, "owner", rp_json_make_string(a, cc->owner));
        rp_json_object_set(a, u, "period", rp_json_make_string_ref(period));
        rp_json_object_set(a, u, "window", rp_json_make_string(a, window));
    }
}

/* The last value the parked updates SET for key, or NULL. */
static const rp_json *parked_value(const rp_json *pending, const char *key)
{
    const rp_json *found = NULL;
    for (uint32_t i = 0; rp_json_is_array(pending) && i < pending->len; i++) {
        const rp_json *u = &pending->v.items[i];
        const rp_json *k = rp_json_get(u, "key");
        const rp_json *action = rp_json_get(u, "action");
        if (k && k->type == RP_JSON_STRING && strcmp(k->v.s, key) == 0 && action &&
            action->type == RP_JSON_STRING && strcmp(action->v.s, "set") == 0)
            found = rp_json_get(u, "value");
    }
    return found;
}

/* max(before, parked) for a numeric approval, or before when nothing was parked for it. */
static void settle_key(rp_json *after, const rp_json *before, const rp_json *pending,
                       const char *key, bool boolean, rp_arena *a)
{
    const rp_json *b = rp_json_get(before, key);
    const rp_json *p = parked_value(pending, key);
    if (p == NULL) {
        if (b != NULL)
            rp_json_object_set(a, after, key, *b);
        else
            rp_json_object_delete(after, key);
        return;
    }
    if (boolean) {
        bool v = rp_json_truthy(p) || (b != NULL && rp_json_truthy(b));
        rp_json_object_set(a, after, key, rp_json_make_bool(v));
        return;
    }
    double pv = 0, bv = 0;
    if (p->type == RP_JSON_BOOL || !rp_json_number(p, &pv))
        pv = 0;
    if (b == NULL || b->type == RP_JSON_BOOL || !rp_json_number(b, &bv))
        bv = 0;
    rp_json_object_set(a, after, key, rp_json_make_double(pv > bv ? pv : bv));
}

int rp_session_ledger_settle_approval(const rp_session_opts *opts, const char *sid,
                                      const rp_json *pending, const rp_json *before, rp_json *after,
                                      const rp_event *call_ev, rp_eval_ctx *ctx, char *err,
                                      size_t err_size)
{
    rp_arena *a = ctx->arena;
    settle_key(after, before, pending, KEY_COST_APPROVED, false, a);
    settle_key(after, before, pending, KEY_UNPRICED_APPROVED, true, a);
    settle_key(after, before, pending, KEY_SUBAGENT_APPROVED, false, a);
    rp_json_object_delete(after, KEY_DAILY_APPROVED);
    rp_json_object_delete(after, KEY_PERIOD_APPROVED);
    for (uint32_t i = 0; rp_json_is_array(pending) && i < pending->len; i++) {
        const rp_json *u = &pending->v.items[i];
        const rp_json *owner = rp_json_get(u, "owner");
        const rp_json *period = rp_json_get(u, "period");
        const rp_json *window = rp_json_get(u, "window");
        const rp_json *value = rp_json_get(u, "value");
        double v;
        if (owner == NULL || owner->type != RP_JSON_STRING || period == NULL ||
            period->type != RP_JSON_STRING || window == NULL || window->type != RP_JSON_STRING ||
            value == NULL || value->type == RP_JSON_BOOL || !rp_json_number(value, &v))
            continue;
        if (rp_store_set_user_approval(opts->store, owner->v.s, period->v.s, window->v.s, v,
                                       ctx->now_us) != 0)
            return store_fail(opts, err, err_size);
    }

    /* An approved dispatch attaches its budget now (it was held back while the ASK waited). */
    const rp_json *budget =
        is_dispatch(call_ev) ? rp_json_get(call_ev->arguments, "cost_budget") : NULL;
    if (budget != NULL && budget->type != RP_JSON_NULL) {
        rp_json normalized;
        char why[256];
        if (rp_cost_subagent_budget_check(budget, a, &normalized, why, sizeof why) == 0 &&
            attach(opts, sid, &normalized, ctx->now_us, err, err_size) != 0)
            return -1;
    }
    return 0;
}
