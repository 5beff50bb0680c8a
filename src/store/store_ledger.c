/* store_ledger.c — the public spend-ledger API (store.h, "the spend ledger"): argument checks,
 * the rules of session links, and the transaction around each write. The backends only store
 * rows and sum them (store_backend.h), so the memory and SQLite backends cannot disagree on who
 * a session's root or owner is.
 *
 * Link rules, beyond what store.h says:
 *   - An empty string for parent, root or user is "not stated", like NULL; a session stated as
 *     its own parent has no parent.
 *   - The first known user of a session stays its user (a later, different one is ignored, like
 *     a parent): a sub-agent cannot move its spend to another user's budget.
 *   - A session that is its own root with no parent is "open": the first event that states a
 *     parent or a root joins it to that tree, once. Its root becomes the root of the stated root,
 *     else of the parent (so a stated root that is itself a child resolves to the true root), and
 *     every session that had it as root (children linked before it) moves along, aggregates
 *     included. A session already in a tree keeps its root; a missing parent may still be filled
 *     in once.
 *   - A link that would make a cycle (the new parent or root is the session itself or one of its
 *     descendants) is ignored: the session stays where it was. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "core/json.h"
#include "store/store_backend.h"

/* Per-record bounds. Sums stay exact 64-bit integers for any realistic ledger (9e18 / 1e15 is
 * nine thousand records at the maximum cost each); SQLite would silently turn an overflowing
 * integer sum into a float. */
#define MAX_TOKENS     RP_USAGE_MAX_TOKENS
#define MAX_COST_NUSD  RP_USAGE_MAX_COST_NUSD
#define MAX_TIME_US    253402300799999999LL /* 9999-12-31T23:59:59.999999Z */
#define MAX_LINK_DEPTH 256                  /* ancestors walked by the cycle check */

static const char *stated(const char *id)
{
    return id != NULL && id[0] != '\0' ? id : NULL;
}

static bool same(const char *a, const char *b)
{
    return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* "YYYY-MM-DD" with a plausible month and day. */
static bool is_day_key(const char *d)
{
    if (d == NULL || strlen(d) != 10 || d[4] != '-' || d[7] != '-') {
        return false;
    }
    for (int i = 0; i < 10; i++) {
        if (i != 4 && i != 7 && (d[i] < '0' || d[i] > '9')) {
            return false;
        }
    }
    int month = (d[5] - '0') * 10 + (d[6] - '0');
    int day = (d[8] - '0') * 10 + (d[9] - '0');
    return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

static int check_day(rp_store *s, const char *what, const char *day)
{
    if (!is_day_key(day)) {
        rp_store_set_error(s, "%s store: %s '%s' is not a YYYY-MM-DD date", s->ops->name, what,
                           day != NULL ? day : "(null)");
        return -1;
    }
    return 0;
}

static int check_period(rp_store *s, const char *period)
{
    static const char *const names[] = {"day", "week", "month", "quarter", "year"};
    for (size_t i = 0; period != NULL && i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(period, names[i]) == 0) {
            return 0;
        }
    }
    rp_store_set_error(s, "%s store: period '%s' is not day, week, month, quarter or year",
                       s->ops->name, period != NULL ? period : "(null)");
    return -1;
}

/* The UTC calendar date of us (0 ≤ us ≤ MAX_TIME_US), from the RFC 3339 formatter. */
static void day_of(int64_t us, char day[11])
{
    char stamp[40];
    rp_rfc3339_format(us, stamp, sizeof stamp);
    memcpy(day, stamp, 10);
    day[10] = '\0';
}

/* A write runs in the caller's transaction when one is open, else in its own. */
static int write_begin(rp_store *s, bool *own)
{
    *own = !s->in_transaction;
    return *own ? rp_store_begin(s) : 0;
}

/* Commits an own transaction after success; rolls it back after a failure, keeping the error.
 * Inside the caller's transaction a failure is the caller's to roll back. */
static int write_end(rp_store *s, bool own, int rc)
{
    if (!own) {
        return rc;
    }
    if (rc != 0) {
        char saved[RP_STORE_ERROR_SIZE];
        memcpy(saved, s->error, sizeof saved);
        rp_store_rollback(s);
        memcpy(s->error, saved, sizeof saved);
        return -1;
    }
    return rp_store_commit(s);
}

/* ---- links ---- */

/* The root of id as the ledger knows it: its row's root, else id itself. */
static int root_of(rp_store *s, const char *id, rp_arena *a, const char **root)
{
    bool found = false;
    rp_link_row row = {0};
    if (s->ops->get_link(s, id, a, &found, &row) != 0) {
        return -1;
    }
    *root = found ? row.root_session_id : id;
    return 0;
}

/* Whether sid is parent or one of parent's ancestors (walked up to MAX_LINK_DEPTH; a chain that
 * long counts as a cycle, which only refuses the link). */
static int is_ancestor_or_self(rp_store *s, const char *sid, const char *parent, rp_arena *a,
                               bool *result)
{
    const char *at = parent;
    for (int depth = 0; at != NULL; depth++) {
        if (strcmp(at, sid) == 0 || depth >= MAX_LINK_DEPTH) {
            *result = true;
            return 0;
        }
        bool found = false;
        rp_link_row row = {0};
        if (s->ops->get_link(s, at, a, &found, &row) != 0) {
            return -1;
        }
        at = found ? row.parent_session_id : NULL;
    }
    *result = false;
    return 0;
}

/* The link rules (see the top of the file and store.h); runs inside a transaction. */
static int link_in_tx(rp_store *s, const char *sid, const char *parent, const char *root,
                      const char *user, int64_t now_us, rp_arena *a, rp_store_session_link *out)
{
    parent = stated(parent);
    root = stated(root);
    user = stated(user);
    if (same(parent, sid)) {
        parent = NULL;
    }
    if (same(root, sid)) {
        root = NULL; /* "I am a root" is what an unlinked session is anyway; a parent decides */
    }
    if (parent == NULL && root != NULL) {
        /* A sub-agent named as the root is the nearest ancestor known: linking under the true
         * root instead would put this session outside that sub-agent's subtree (and budget). */
        const char *true_root = NULL;
        if (root_of(s, root, a, &true_root) != 0) {
            return -1;
        }
        if (strcmp(true_root, root) != 0) {
            parent = root;
        }
    }

    bool found = false;
    rp_link_row cur = {0};
    if (s->ops->get_link(s, sid, a, &found, &cur) != 0) {
        return -1;
    }
    const char *new_parent = found ? cur.parent_session_id : NULL;
    const char *new_root = found ? cur.root_session_id : sid;
    const char *new_user = found ? cur.user_id : NULL;
    const char *root_user = found ? cur.root_user_id : NULL;
    const char *old_owner =
        found ? (cur.root_user_id != NULL ? cur.root_user_id : cur.user_id) : NULL;
    bool changed = !found, rerooted = false, joined = false;

    if (new_user == NULL && user != NULL) {
        new_user = user;
        changed = true;
    }
    if (new_parent == NULL && (parent != NULL || root != NULL)) {
        bool open = strcmp(new_root, sid) == 0;
        const char *candidate_root = new_root;
        bool ok = true;
        if (open) {
            if (root_of(s, root != NULL ? root : parent, a, &candidate_root) != 0) {
                return -1;
            }
            ok = strcmp(candidate_root, sid) != 0;
        }
        if (ok && parent != NULL) {
            bool cycle = false;
            if (is_ancestor_or_self(s, sid, parent, a, &cycle) != 0) {
                return -1;
            }
            ok = !cycle;
        }
        if (ok && (parent != NULL || open)) {
            new_parent = parent;
            joined = parent != NULL;
            if (open) {
                new_root = candidate_root;
                rerooted = true;
            }
            changed = true;
        }
    }

    if (changed) {
        if (s->ops->put_link(s, sid, new_parent, new_root, new_user, now_us) != 0) {
            return -1;
        }
        if (rerooted && s->ops->reroot(s, sid, new_root) != 0) {
            return -1;
        }
        if (joined && s->ops->claim_budget(s, new_parent, sid) != 0) {
            return -1;
        }
    }
    if (strcmp(new_root, sid) == 0) {
        root_user = new_user;
    } else if (rerooted || !found) {
        bool root_found = false;
        rp_link_row rr = {0};
        if (s->ops->get_link(s, new_root, a, &root_found, &rr) != 0) {
            return -1;
        }
        root_user = root_found ? rr.user_id : NULL;
    }

    out->session_id = rp_arena_strdup(a, sid);
    out->parent_session_id = new_parent != NULL ? rp_arena_strdup(a, new_parent) : NULL;
    out->root_session_id = rp_arena_strdup(a, new_root);
    out->user_id = new_user != NULL ? rp_arena_strdup(a, new_user) : NULL;
    /* A spawn tree's spend belongs to whoever owns its root: a sub-agent that names another
     * user (or a different spelling of one) must not move spend off its root's owner. */
    const char *owner = root_user != NULL ? root_user : new_user;
    /* The tree just got an owner (its root named one, or this session, with rows of its own or
     * of sessions linked under it, joined an owned tree): spend recorded while it had none is
     * charged now, or the owner's daily and period budgets would never count it. */
    if (owner != NULL && ((found && old_owner == NULL) || rerooted) &&
        s->ops->adopt_rows(s, new_root, owner, now_us) != 0) {
        return -1;
    }
    out->owner_id = owner != NULL ? rp_arena_strdup(a, owner) : NULL;
    return 0;
}

int rp_store_link_session(rp_store *s, const char *session_id, const char *parent_session_id,
                          const char *root_session_id, const char *user_id, int64_t now_us,
                          rp_arena *a, rp_store_session_link *out)
{
    if (s == NULL || a == NULL || out == NULL) {
        return -1;
    }
    memset(out, 0, sizeof *out);
    if (rp_store_enter(s) != 0 || rp_store_check_id(s, "session id", session_id) != 0) {
        return -1;
    }
    bool own = false;
    if (write_begin(s, &own) != 0) {
        return -1;
    }
    int rc = link_in_tx(s, session_id, parent_session_id, root_session_id, user_id, now_us, a, out);
    rc = write_end(s, own, rc);
    if (rc != 0) {
        memset(out, 0, sizeof *out);
    }
    return rc;
}

/* ---- usage ---- */

static int check_count(rp_store *s, const char *what, int64_t v, int64_t max)
{
    if (v < 0 || v > max) {
        rp_store_set_error(s, "%s store: usage %s %lld is out of range (0..%lld)", s->ops->name,
                           what, (long long)v, (long long)max);
        return -1;
    }
    return 0;
}

static int check_record(rp_store *s, const rp_usage_record *r)
{
    if (r == NULL) {
        rp_store_set_error(s, "usage record is missing");
        return -1;
    }
    if (rp_store_check_id(s, "usage session id", r->session_id) != 0) {
        return -1;
    }
    if (r->time_us < 0 || r->time_us > MAX_TIME_US) {
        rp_store_set_error(s, "%s store: usage time %lld µs is outside 1970..9999", s->ops->name,
                           (long long)r->time_us);
        return -1;
    }
    if (check_count(s, "input_tokens", r->input_tokens, MAX_TOKENS) != 0 ||
        check_count(s, "output_tokens", r->output_tokens, MAX_TOKENS) != 0 ||
        check_count(s, "cache_read_input_tokens", r->cache_read_input_tokens, MAX_TOKENS) != 0 ||
        check_count(s, "cache_creation_input_tokens", r->cache_creation_input_tokens, MAX_TOKENS) !=
            0) {
        return -1;
    }
    if (r->priced && check_count(s, "cost_nusd", r->cost_nusd, MAX_COST_NUSD) != 0) {
        return -1;
    }
    return 0;
}

/* The canonical (static) name of what priced a row, or NULL for anything else: the stores
 * keep the pointer. */
static const char *priced_by(const char *source)
{
    static const char *const names[] = {RP_PRICED_BY_HOST, RP_PRICED_BY_TABLE, RP_PRICED_BY_CONFIG};
    for (size_t i = 0; source != NULL && i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(source, names[i]) == 0) {
            return names[i];
        }
    }
    return NULL;
}

static int record_in_tx(rp_store *s, const rp_usage_record *r, bool *duplicate)
{
    const char *record_id = stated(r->record_id);
    if (record_id != NULL) {
        bool exists = false;
        if (s->ops->usage_exists(s, r->session_id, record_id, &exists) != 0) {
            return -1;
        }
        if (exists) {
            *duplicate = true;
            return 0;
        }
    }
    rp_arena a = {0};
    rp_store_session_link link;
    int rc = link_in_tx(s, r->session_id, r->parent_session_id, r->root_session_id, r->user_id,
                        r->time_us, &a, &link);
    if (rc == 0) {
        rp_usage_record row = *r;
        row.parent_session_id = link.parent_session_id;
        row.root_session_id = link.root_session_id;
        /* The session's owner, not what this record says: a per-record user would let a host
         * (or an agent writing usage lines) spread one session's spend over many "users". */
        row.user_id = link.owner_id != NULL ? link.owner_id : stated(r->user_id);
        row.model = stated(r->model);
        row.record_id = record_id;
        if (!row.priced) {
            row.cost_nusd = 0; /* documented: the cost of an unpriced record is ignored */
        }
        row.priced_by = row.priced ? priced_by(r->priced_by) : NULL;
        char day[11];
        day_of(r->time_us, day);
        rc = s->ops->insert_usage(s, &row, day);
    }
    rp_arena_free(&a);
    return rc;
}

int rp_store_record_usage(rp_store *s, const rp_usage_record *r, bool *duplicate)
{
    bool dup_local = false;
    if (duplicate == NULL) {
        duplicate = &dup_local;
    }
    *duplicate = false;
    if (s == NULL || rp_store_enter(s) != 0 || check_record(s, r) != 0) {
        return -1;
    }
    bool own = false;
    if (write_begin(s, &own) != 0) {
        return -1;
    }
    int rc = write_end(s, own, record_in_tx(s, r, duplicate));
    if (rc != 0) {
        *duplicate = false;
    }
    return rc;
}

int rp_store_usage_tree(rp_store *s, const char *root_session_id, rp_usage_totals *out)
{
    if (s == NULL || out == NULL) {
        return -1;
    }
    memset(out, 0, sizeof *out);
    if (rp_store_enter(s) != 0 || rp_store_check_id(s, "root session id", root_session_id) != 0) {
        return -1;
    }
    return s->ops->usage_tree(s, root_session_id, out);
}

int rp_store_usage_subtree(rp_store *s, const char *session_id, rp_usage_totals *out)
{
    if (s == NULL || out == NULL) {
        return -1;
    }
    memset(out, 0, sizeof *out);
    if (rp_store_enter(s) != 0 || rp_store_check_id(s, "session id", session_id) != 0) {
        return -1;
    }
    return s->ops->usage_subtree(s, session_id, out);
}

int rp_store_user_spend(rp_store *s, const char *user_id, const char *first_day,
                        const char *last_day, rp_usage_totals *out)
{
    if (s == NULL || out == NULL) {
        return -1;
    }
    memset(out, 0, sizeof *out);
    if (rp_store_enter(s) != 0 || rp_store_check_id(s, "user id", user_id) != 0 ||
        check_day(s, "first day", first_day) != 0 || check_day(s, "last day", last_day) != 0) {
        return -1;
    }
    return s->ops->user_spend(s, user_id, first_day, last_day, out);
}

/* ---- approvals ---- */

static int check_window(rp_store *s, const char *user_id, const char *period,
                        const char *window_start)
{
    if (rp_store_check_id(s, "user id", user_id) != 0 || check_period(s, period) != 0 ||
        check_day(s, "window start", window_start) != 0) {
        return -1;
    }
    return 0;
}

int rp_store_get_user_approval(rp_store *s, const char *user_id, const char *period,
                               const char *window_start, double *approved_usd)
{
    if (s == NULL || approved_usd == NULL) {
        return -1;
    }
    *approved_usd = 0.0;
    if (rp_store_enter(s) != 0 || check_window(s, user_id, period, window_start) != 0) {
        return -1;
    }
    return s->ops->get_approval(s, user_id, period, window_start, approved_usd);
}

int rp_store_set_user_approval(rp_store *s, const char *user_id, const char *period,
                               const char *window_start, double approved_usd, int64_t now_us)
{
    if (s == NULL || rp_store_enter(s) != 0 ||
        check_window(s, user_id, period, window_start) != 0) {
        return -1;
    }
    if (!isfinite(approved_usd) || approved_usd < 0.0) {
        rp_store_set_error(s, "%s store: approved amount %g is not a finite amount ≥ 0",
                           s->ops->name, approved_usd);
        return -1;
    }
    bool own = false;
    if (write_begin(s, &own) != 0) {
        return -1;
    }
    return write_end(s, own,
                     s->ops->set_approval(s, user_id, period, window_start, approved_usd, now_us));
}

/* ---- sub-agent budgets ---- */

int rp_store_attach_budget(rp_store *s, const char *parent_session_id, const char *child_session_id,
                           const char *budget_json, int64_t now_us)
{
    if (s == NULL || rp_store_enter(s) != 0 ||
        rp_store_check_id(s, "parent session id", parent_session_id) != 0) {
        return -1;
    }
    child_session_id = stated(child_session_id);
    if (budget_json == NULL) {
        rp_store_set_error(s, "sub-agent budget is missing");
        return -1;
    }
    /* Read back by the engine as the policy's parameters: it must be an object. */
    rp_arena scratch = {0};
    rp_json_error jerr;
    rp_json *v = rp_json_parse(&scratch, budget_json, strlen(budget_json), &jerr);
    bool is_object = v != NULL && v->type == RP_JSON_OBJECT;
    rp_arena_free(&scratch);
    if (!is_object) {
        rp_store_set_error(s, "sub-agent budget must be a JSON object, got '%.200s'", budget_json);
        return -1;
    }
    bool own = false;
    if (write_begin(s, &own) != 0) {
        return -1;
    }
    return write_end(
        s, own, s->ops->attach_budget(s, parent_session_id, child_session_id, budget_json, now_us));
}

int rp_store_session_budget(rp_store *s, const char *session_id, rp_arena *a, char **budget_json)
{
    if (s == NULL || a == NULL || budget_json == NULL) {
        return -1;
    }
    *budget_json = NULL;
    if (rp_store_enter(s) != 0 || rp_store_check_id(s, "session id", session_id) != 0) {
        return -1;
    }
    return s->ops->session_budget(s, session_id, a, budget_json);
}

/* ---- reports ---- */

int rp_store_spend(rp_store *s, const rp_spend_query *q,
                   int (*fn)(void *self, const rp_spend_row *row), void *self)
{
    if (s == NULL || rp_store_enter(s) != 0) {
        return -1;
    }
    if (q == NULL || fn == NULL) {
        rp_store_set_error(s, "spend query without %s", q == NULL ? "a query" : "a callback");
        return -1;
    }
    if ((q->user_id != NULL && rp_store_check_id(s, "user id", q->user_id) != 0) ||
        (q->session_id != NULL && rp_store_check_id(s, "session id", q->session_id) != 0) ||
        (q->first_day != NULL && check_day(s, "first day", q->first_day) != 0) ||
        (q->last_day != NULL && check_day(s, "last day", q->last_day) != 0)) {
        return -1;
    }
    if (q->group < RP_SPEND_BY_NONE || q->group > RP_SPEND_BY_SOURCE) {
        rp_store_set_error(s, "spend query: unknown grouping %d", (int)q->group);
        return -1;
    }
    s->in_callback = true;
    int rc = s->ops->spend(s, q, fn, self);
    s->in_callback = false;
    return rc;
}
