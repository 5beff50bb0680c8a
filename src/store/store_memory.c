/* store_memory.c — the in-memory backend, for tests and --stateless style embedding.
 *
 * Linked lists of heap copies of the JSON text, looked up linearly: test stores hold a handful
 * of sessions. Audit rows are kept in time order (stable for equal times) so queries need no
 * sort. begin/commit only track nesting (store.c does the check); rollback does NOT undo writes
 * made since begin — nothing here is shared with another process, and tests that need rollback
 * semantics use the SQLite backend. */
#include <stdlib.h>
#include <string.h>

#include "store/store_backend.h"

typedef struct mem_state {
    struct mem_state *next;
    char *session_id;
    char *text;
    size_t len;
} mem_state;

typedef struct mem_pending {
    struct mem_pending *next;
    char *session_id;
    char *ask_key;
    char *updates;
    size_t updates_len;
    char *policies;
    int64_t created_us;
} mem_pending;

typedef struct mem_audit {
    struct mem_audit *next;
    rp_audit_row row; /* every string is a heap copy owned by this node */
} mem_audit;

typedef struct mem_trust {
    struct mem_trust *next;
    char *dir;
    int64_t added_us;
} mem_trust;

/* The ledger: arrays in insertion order. Sums are computed by scanning the usage rows, with
 * each row's tree taken from its session's current link (what the SQLite backend's per-session
 * aggregates hold after a re-root), so there are no aggregates here to drift. */
typedef struct mem_link {
    char *session_id, *parent, *root, *user;
    int64_t created_us;
} mem_link;

typedef struct mem_usage {
    rp_usage_record r; /* strings are heap copies owned by the row */
    char day[11];
} mem_usage;

typedef struct mem_approval {
    char *user, *period, *window_start;
    double approved_usd;
} mem_approval;

typedef struct mem_budget {
    char *parent, *child, *budget; /* child NULL until claimed */
    int64_t created_us;
} mem_budget;

/* How far a session's transcript was read (rp_store_set_transcript_offset). */
typedef struct mem_offset {
    struct mem_offset *next;
    char *session_id, *path, *model;
    int64_t offset;
    uint64_t written; /* the store's write counter when last set: the latest one wins */
} mem_offset;

typedef struct memory_store {
    rp_store base; /* first: rp_store * and memory_store * convert */
    mem_state *states;
    mem_pending *pending;
    mem_audit *audit; /* oldest first */
    mem_trust *trusted;
    mem_link *links;
    size_t n_links, cap_links;
    mem_usage *usage;
    size_t n_usage, cap_usage;
    mem_approval *approvals;
    size_t n_approvals, cap_approvals;
    mem_budget *budgets;
    size_t n_budgets, cap_budgets;
    mem_offset *offsets;
    uint64_t offset_writes;
} memory_store;

static memory_store *mem(rp_store *s)
{
    return (memory_store *)s;
}

/* strdup that aborts like the rest of rampart's allocators; NULL stays NULL. */
static char *dup_or_null(const char *s)
{
    if (s == NULL) {
        return NULL;
    }
    char *copy = strdup(s);
    if (copy == NULL) {
        abort();
    }
    return copy;
}

static char *dup_text(const char *text, size_t len)
{
    char *copy = malloc(len + 1);
    if (copy == NULL) {
        abort();
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    return copy;
}

static void *zalloc(size_t size)
{
    void *p = calloc(1, size);
    if (p == NULL) {
        abort();
    }
    return p;
}

static void free_pending(mem_pending *p)
{
    free(p->session_id);
    free(p->ask_key);
    free(p->updates);
    free(p->policies);
    free(p);
}

static void free_audit(mem_audit *a)
{
    free((char *)a->row.session_id);
    free((char *)a->row.event_type);
    free((char *)a->row.target);
    free((char *)a->row.result);
    free((char *)a->row.reason);
    free((char *)a->row.policies);
    free((char *)a->row.note);
    free(a);
}

static void mem_close(rp_store *s)
{
    memory_store *m = mem(s);
    while (m->states != NULL) {
        mem_state *next = m->states->next;
        free(m->states->session_id);
        free(m->states->text);
        free(m->states);
        m->states = next;
    }
    while (m->pending != NULL) {
        mem_pending *next = m->pending->next;
        free_pending(m->pending);
        m->pending = next;
    }
    while (m->offsets != NULL) {
        mem_offset *next = m->offsets->next;
        free(m->offsets->session_id);
        free(m->offsets->path);
        free(m->offsets->model);
        free(m->offsets);
        m->offsets = next;
    }
    while (m->audit != NULL) {
        mem_audit *next = m->audit->next;
        free_audit(m->audit);
        m->audit = next;
    }
    while (m->trusted != NULL) {
        mem_trust *next = m->trusted->next;
        free(m->trusted->dir);
        free(m->trusted);
        m->trusted = next;
    }
    for (size_t i = 0; i < m->n_links; i++) {
        mem_link *l = &m->links[i];
        free(l->session_id);
        free(l->parent);
        free(l->root);
        free(l->user);
    }
    free(m->links);
    for (size_t i = 0; i < m->n_usage; i++) {
        rp_usage_record *r = &m->usage[i].r;
        free((char *)r->session_id);
        free((char *)r->parent_session_id);
        free((char *)r->root_session_id);
        free((char *)r->user_id);
        free((char *)r->model);
        free((char *)r->record_id);
    }
    free(m->usage);
    for (size_t i = 0; i < m->n_approvals; i++) {
        free(m->approvals[i].user);
        free(m->approvals[i].period);
        free(m->approvals[i].window_start);
    }
    free(m->approvals);
    for (size_t i = 0; i < m->n_budgets; i++) {
        free(m->budgets[i].parent);
        free(m->budgets[i].child);
        free(m->budgets[i].budget);
    }
    free(m->budgets);
    rp_store_base_free(s);
    free(m);
}

static int mem_begin(rp_store *s)
{
    return 0;
}

static int mem_commit(rp_store *s)
{
    return 0;
}

static void mem_rollback(rp_store *s) {}

static mem_state *find_state(memory_store *m, const char *session_id)
{
    for (mem_state *st = m->states; st != NULL; st = st->next) {
        if (strcmp(st->session_id, session_id) == 0) {
            return st;
        }
    }
    return NULL;
}

static int mem_load_state(rp_store *s, const char *session_id, rp_arena *a, char **text,
                          size_t *len)
{
    mem_state *st = find_state(mem(s), session_id);
    if (st == NULL) {
        *text = NULL;
        *len = 0;
        return 0;
    }
    *text = rp_arena_strndup(a, st->text, st->len);
    *len = st->len;
    return 0;
}

static int mem_save_state(rp_store *s, const char *session_id, const char *text, size_t len,
                          int64_t now_us)
{
    memory_store *m = mem(s);
    mem_state *st = find_state(m, session_id);
    if (st == NULL) {
        st = zalloc(sizeof *st);
        st->session_id = dup_or_null(session_id);
        st->next = m->states;
        m->states = st;
    }
    free(st->text);
    st->text = dup_text(text, len);
    st->len = len;
    return 0;
}

/* The link that points at the (session, key) entry, or at the terminating NULL. */
static mem_pending **find_pending(memory_store *m, const char *session_id, const char *ask_key)
{
    mem_pending **link = &m->pending;
    while (*link != NULL) {
        if (strcmp((*link)->session_id, session_id) == 0 &&
            strcmp((*link)->ask_key, ask_key) == 0) {
            break;
        }
        link = &(*link)->next;
    }
    return link;
}

static int mem_put_pending(rp_store *s, const char *session_id, const char *ask_key,
                           const char *updates, size_t updates_len, const char *policies,
                           size_t policies_len, int64_t now_us)
{
    memory_store *m = mem(s);
    mem_pending **link = find_pending(m, session_id, ask_key);
    if (*link != NULL) {
        mem_pending *old = *link;
        *link = old->next;
        free_pending(old);
    }
    mem_pending *p = zalloc(sizeof *p);
    p->session_id = dup_or_null(session_id);
    p->ask_key = dup_or_null(ask_key);
    p->updates = dup_text(updates, updates_len);
    p->updates_len = updates_len;
    p->policies = dup_text(policies, policies_len);
    p->created_us = now_us;
    p->next = m->pending;
    m->pending = p;
    return 0;
}

static int mem_take_pending_at(rp_store *s, const char *session_id, const char *ask_key,
                               rp_arena *a, char **text, size_t *len, int64_t *created_us)
{
    mem_pending **link = find_pending(mem(s), session_id, ask_key);
    *text = NULL;
    *len = 0;
    if (*link == NULL) {
        return 0;
    }
    mem_pending *p = *link;
    *created_us = p->created_us;
    *text = rp_arena_strndup(a, p->updates, p->updates_len);
    *len = p->updates_len;
    *link = p->next;
    free_pending(p);
    return 0;
}

static mem_offset *find_offset(memory_store *m, const char *session_id, const char *path)
{
    for (mem_offset *o = m->offsets; o != NULL; o = o->next) {
        if (strcmp(o->session_id, session_id) == 0 && strcmp(o->path, path) == 0) {
            return o;
        }
    }
    return NULL;
}

static int mem_get_transcript(rp_store *s, const char *session_id, const char *path, rp_arena *a,
                              rp_transcript_mark *out)
{
    memory_store *m = mem(s);
    const mem_offset *o = NULL;
    if (path != NULL) {
        o = find_offset(m, session_id, path);
    } else {
        for (const mem_offset *i = m->offsets; i != NULL; i = i->next) {
            if (strcmp(i->session_id, session_id) == 0 && (o == NULL || i->written > o->written)) {
                o = i;
            }
        }
    }
    if (o == NULL) {
        return 1;
    }
    out->path = rp_arena_strdup(a, o->path);
    out->offset = o->offset;
    out->model = o->model ? rp_arena_strdup(a, o->model) : NULL;
    return 0;
}

static int mem_set_transcript_offset(rp_store *s, const char *session_id, const char *path,
                                     int64_t offset, const char *model, int64_t now_us)
{
    (void)now_us; /* the memory store keeps no update times, only their order */
    memory_store *m = mem(s);
    mem_offset *o = find_offset(m, session_id, path);
    if (o == NULL) {
        o = zalloc(sizeof *o);
        o->session_id = dup_or_null(session_id);
        o->path = dup_or_null(path);
        o->next = m->offsets;
        m->offsets = o;
    }
    o->offset = offset;
    o->written = ++m->offset_writes;
    if (model != NULL) {
        free(o->model);
        o->model = dup_or_null(model);
    }
    return 0;
}

static int mem_audit_insert(rp_store *s, const rp_audit_row *row)
{
    memory_store *m = mem(s);
    mem_audit *node = zalloc(sizeof *node);
    node->row.time_us = row->time_us;
    node->row.session_id = dup_or_null(row->session_id);
    node->row.event_type = dup_or_null(row->event_type);
    node->row.target = dup_or_null(row->target);
    node->row.result = dup_or_null(row->result);
    node->row.reason = dup_or_null(row->reason);
    node->row.policies = dup_or_null(row->policies);
    node->row.note = dup_or_null(row->note);

    /* After every row with time <= this one: time order, insertion order among equals (the
     * SQLite backend orders by time_us, id). */
    mem_audit **link = &m->audit;
    while (*link != NULL && (*link)->row.time_us <= row->time_us) {
        link = &(*link)->next;
    }
    node->next = *link;
    *link = node;
    return 0;
}

static int mem_audit_query(rp_store *s, const char *session_id, int64_t since_us,
                           int (*fn)(void *self, const rp_audit_row *row), void *self)
{
    for (mem_audit *a = mem(s)->audit; a != NULL; a = a->next) {
        if (a->row.time_us < since_us) {
            continue;
        }
        if (session_id != NULL && strcmp(a->row.session_id, session_id) != 0) {
            continue;
        }
        if (fn(self, &a->row) != 0) {
            break;
        }
    }
    return 0;
}

static int mem_audit_prune(rp_store *s, int64_t before_us)
{
    memory_store *m = mem(s);
    mem_audit **link = &m->audit;
    while (*link != NULL) {
        if ((*link)->row.time_us < before_us) {
            mem_audit *old = *link;
            *link = old->next;
            free_audit(old);
        } else {
            link = &(*link)->next;
        }
    }
    return 0;
}

static mem_trust **find_trust(memory_store *m, const char *dir)
{
    mem_trust **link = &m->trusted;
    while (*link != NULL && strcmp((*link)->dir, dir) != 0) {
        link = &(*link)->next;
    }
    return link;
}

static int mem_trust_dir(rp_store *s, const char *dir, int64_t now_us)
{
    memory_store *m = mem(s);
    mem_trust **link = find_trust(m, dir);
    if (*link != NULL) {
        return 0; /* already trusted: keep the original time */
    }
    mem_trust *t = zalloc(sizeof *t);
    t->dir = dup_or_null(dir);
    t->added_us = now_us;
    t->next = m->trusted;
    m->trusted = t;
    return 0;
}

static int mem_untrust_dir(rp_store *s, const char *dir)
{
    mem_trust **link = find_trust(mem(s), dir);
    if (*link != NULL) {
        mem_trust *old = *link;
        *link = old->next;
        free(old->dir);
        free(old);
    }
    return 0;
}

static int mem_is_trusted(rp_store *s, const char *dir, bool *trusted)
{
    *trusted = *find_trust(mem(s), dir) != NULL;
    return 0;
}

/* ---- the spend ledger ---- */

/* Room for one more item in a doubling array. */
static void *grow(void *items, size_t n, size_t *cap, size_t item_size)
{
    if (n < *cap) {
        return items;
    }
    size_t new_cap = *cap != 0 ? *cap * 2 : 16;
    void *p = realloc(items, new_cap * item_size);
    if (p == NULL) {
        abort();
    }
    *cap = new_cap;
    return p;
}

static bool str_eq(const char *a, const char *b)
{
    return a != NULL && b != NULL && strcmp(a, b) == 0;
}

static const char *arena_copy(rp_arena *a, const char *s)
{
    return s != NULL ? rp_arena_strdup(a, s) : NULL;
}

static mem_link *find_link(memory_store *m, const char *session_id)
{
    for (size_t i = 0; i < m->n_links; i++) {
        if (strcmp(m->links[i].session_id, session_id) == 0) {
            return &m->links[i];
        }
    }
    return NULL;
}

static int mem_get_link(rp_store *s, const char *session_id, rp_arena *a, bool *found,
                        rp_link_row *out)
{
    memory_store *m = mem(s);
    mem_link *l = find_link(m, session_id);
    *found = l != NULL;
    if (l == NULL) {
        return 0;
    }
    mem_link *root = find_link(m, l->root);
    out->parent_session_id = arena_copy(a, l->parent);
    out->root_session_id = arena_copy(a, l->root);
    out->user_id = arena_copy(a, l->user);
    out->root_user_id = root != NULL ? arena_copy(a, root->user) : NULL;
    return 0;
}

static void replace_str(char **field, const char *value)
{
    if (*field != NULL && value != NULL && strcmp(*field, value) == 0) {
        return;
    }
    free(*field);
    *field = dup_or_null(value);
}

static int mem_put_link(rp_store *s, const char *session_id, const char *parent_session_id,
                        const char *root_session_id, const char *user_id, int64_t now_us)
{
    memory_store *m = mem(s);
    mem_link *l = find_link(m, session_id);
    if (l == NULL) {
        m->links = grow(m->links, m->n_links, &m->cap_links, sizeof *m->links);
        l = &m->links[m->n_links++];
        memset(l, 0, sizeof *l);
        l->session_id = dup_or_null(session_id);
        l->created_us = now_us;
    }
    replace_str(&l->parent, parent_session_id);
    replace_str(&l->root, root_session_id);
    replace_str(&l->user, user_id);
    return 0;
}

static int mem_reroot(rp_store *s, const char *old_root, const char *new_root)
{
    memory_store *m = mem(s);
    for (size_t i = 0; i < m->n_links; i++) {
        if (strcmp(m->links[i].root, old_root) == 0) {
            replace_str(&m->links[i].root, new_root);
        }
    }
    return 0;
}

static int mem_adopt_rows(rp_store *s, const char *root, const char *owner, int64_t now_us)
{
    (void)now_us;
    memory_store *m = mem(s);
    for (size_t i = 0; i < m->n_usage; i++) {
        mem_usage *u = &m->usage[i];
        mem_link *l = find_link(m, u->r.session_id);
        if (u->r.user_id == NULL && l != NULL && strcmp(l->root, root) == 0) {
            u->r.user_id = dup_or_null(owner);
        }
    }
    return 0;
}

static mem_budget *child_budget(memory_store *m, const char *child)
{
    mem_budget *best = NULL;
    for (size_t i = 0; i < m->n_budgets; i++) {
        mem_budget *b = &m->budgets[i];
        if (str_eq(b->child, child) && (best == NULL || b->created_us < best->created_us)) {
            best = b;
        }
    }
    return best;
}

static int mem_claim_budget(rp_store *s, const char *parent_session_id,
                            const char *child_session_id)
{
    memory_store *m = mem(s);
    if (child_budget(m, child_session_id) != NULL) {
        return 0;
    }
    mem_budget *oldest = NULL;
    for (size_t i = 0; i < m->n_budgets; i++) {
        mem_budget *b = &m->budgets[i];
        if (b->child == NULL && strcmp(b->parent, parent_session_id) == 0 &&
            (oldest == NULL || b->created_us < oldest->created_us)) {
            oldest = b;
        }
    }
    if (oldest != NULL) {
        oldest->child = dup_or_null(child_session_id);
    }
    return 0;
}

static int mem_usage_exists(rp_store *s, const char *session_id, const char *record_id,
                            bool *exists)
{
    memory_store *m = mem(s);
    *exists = false;
    for (size_t i = 0; i < m->n_usage; i++) {
        const rp_usage_record *r = &m->usage[i].r;
        if (str_eq(r->record_id, record_id) && strcmp(r->session_id, session_id) == 0) {
            *exists = true;
            break;
        }
    }
    return 0;
}

static int mem_insert_usage(rp_store *s, const rp_usage_record *r, const char *day)
{
    memory_store *m = mem(s);
    m->usage = grow(m->usage, m->n_usage, &m->cap_usage, sizeof *m->usage);
    mem_usage *u = &m->usage[m->n_usage++];
    u->r = *r;
    u->r.session_id = dup_or_null(r->session_id);
    u->r.parent_session_id = dup_or_null(r->parent_session_id);
    u->r.root_session_id = dup_or_null(r->root_session_id);
    u->r.user_id = dup_or_null(r->user_id);
    u->r.model = dup_or_null(r->model);
    u->r.record_id = dup_or_null(r->record_id);
    if (!u->r.priced) {
        u->r.cost_nusd = 0;
    }
    memcpy(u->day, day, sizeof u->day);
    u->day[sizeof u->day - 1] = '\0';
    return 0;
}

static void add_row(rp_usage_totals *t, const rp_usage_record *r)
{
    t->records++;
    t->input_tokens += r->input_tokens;
    t->output_tokens += r->output_tokens;
    t->cache_read_input_tokens += r->cache_read_input_tokens;
    t->cache_creation_input_tokens += r->cache_creation_input_tokens;
    if (r->priced) {
        t->cost_nusd += r->cost_nusd;
        t->priced_records++;
    } else {
        t->unpriced_records++;
        t->unpriced_tokens += r->input_tokens + r->output_tokens + r->cache_read_input_tokens +
                              r->cache_creation_input_tokens;
    }
}

static int mem_usage_tree(rp_store *s, const char *root_session_id, rp_usage_totals *out)
{
    memory_store *m = mem(s);
    for (size_t i = 0; i < m->n_usage; i++) {
        const rp_usage_record *r = &m->usage[i].r;
        mem_link *l = find_link(m, r->session_id);
        if (l != NULL && strcmp(l->root, root_session_id) == 0) {
            add_row(out, r);
        }
    }
    return 0;
}

/* The ids of session_id and its descendants (pointers into the links; session_id itself first),
 * found breadth first. Each link is taken at most once, so a malformed cycle still ends. */
static const char **subtree_ids(memory_store *m, const char *session_id, size_t *n)
{
    const char **ids = malloc((m->n_links + 1) * sizeof *ids);
    bool *taken = calloc(m->n_links + 1, sizeof *taken);
    if (ids == NULL || taken == NULL) {
        abort();
    }
    size_t count = 0;
    ids[count++] = session_id;
    for (size_t at = 0; at < count; at++) {
        for (size_t i = 0; i < m->n_links; i++) {
            if (!taken[i] && str_eq(m->links[i].parent, ids[at]) &&
                strcmp(m->links[i].session_id, session_id) != 0) {
                taken[i] = true;
                ids[count++] = m->links[i].session_id;
            }
        }
    }
    free(taken);
    *n = count;
    return ids;
}

static bool in_ids(const char **ids, size_t n, const char *id)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(ids[i], id) == 0) {
            return true;
        }
    }
    return false;
}

static int mem_usage_subtree(rp_store *s, const char *session_id, rp_usage_totals *out)
{
    memory_store *m = mem(s);
    size_t n = 0;
    const char **ids = subtree_ids(m, session_id, &n);
    for (size_t i = 0; i < m->n_usage; i++) {
        if (in_ids(ids, n, m->usage[i].r.session_id)) {
            add_row(out, &m->usage[i].r);
        }
    }
    free(ids);
    return 0;
}

static int mem_user_spend(rp_store *s, const char *user_id, const char *first_day,
                          const char *last_day, rp_usage_totals *out)
{
    memory_store *m = mem(s);
    for (size_t i = 0; i < m->n_usage; i++) {
        const mem_usage *u = &m->usage[i];
        if (str_eq(u->r.user_id, user_id) && strcmp(u->day, first_day) >= 0 &&
            strcmp(u->day, last_day) <= 0) {
            add_row(out, &u->r);
        }
    }
    return 0;
}

static mem_approval *find_approval(memory_store *m, const char *user_id, const char *period,
                                   const char *window_start)
{
    for (size_t i = 0; i < m->n_approvals; i++) {
        mem_approval *p = &m->approvals[i];
        if (strcmp(p->user, user_id) == 0 && strcmp(p->period, period) == 0 &&
            strcmp(p->window_start, window_start) == 0) {
            return p;
        }
    }
    return NULL;
}

static int mem_get_approval(rp_store *s, const char *user_id, const char *period,
                            const char *window_start, double *approved_usd)
{
    mem_approval *p = find_approval(mem(s), user_id, period, window_start);
    *approved_usd = p != NULL ? p->approved_usd : 0.0;
    return 0;
}

static int mem_set_approval(rp_store *s, const char *user_id, const char *period,
                            const char *window_start, double approved_usd, int64_t now_us)
{
    memory_store *m = mem(s);
    mem_approval *p = find_approval(m, user_id, period, window_start);
    if (p == NULL) {
        m->approvals = grow(m->approvals, m->n_approvals, &m->cap_approvals, sizeof *m->approvals);
        p = &m->approvals[m->n_approvals++];
        p->user = dup_or_null(user_id);
        p->period = dup_or_null(period);
        p->window_start = dup_or_null(window_start);
        p->approved_usd = approved_usd;
    } else if (approved_usd > p->approved_usd) {
        p->approved_usd = approved_usd;
    }
    return 0;
}

static int mem_attach_budget(rp_store *s, const char *parent_session_id,
                             const char *child_session_id, const char *budget_json, int64_t now_us)
{
    memory_store *m = mem(s);
    m->budgets = grow(m->budgets, m->n_budgets, &m->cap_budgets, sizeof *m->budgets);
    mem_budget *b = &m->budgets[m->n_budgets++];
    b->parent = dup_or_null(parent_session_id);
    b->child = dup_or_null(child_session_id);
    b->budget = dup_or_null(budget_json);
    b->created_us = now_us;
    return 0;
}

static int mem_session_budget(rp_store *s, const char *session_id, rp_arena *a, char **budget_json)
{
    mem_budget *b = child_budget(mem(s), session_id);
    *budget_json = b != NULL ? rp_arena_strdup(a, b->budget) : NULL;
    return 0;
}

typedef struct spend_group {
    const char *key; /* points into a row (or "") */
    rp_usage_totals totals;
} spend_group;

static const char *spend_key(const mem_usage *u, rp_spend_group group)
{
    const char *key = "";
    switch (group) {
    case RP_SPEND_BY_NONE:
        break;
    case RP_SPEND_BY_MODEL:
        key = u->r.model;
        break;
    case RP_SPEND_BY_USER:
        key = u->r.user_id;
        break;
    case RP_SPEND_BY_DAY:
        key = u->day;
        break;
    case RP_SPEND_BY_SESSION:
        key = u->r.session_id;
        break;
    case RP_SPEND_BY_SOURCE:
        key = u->r.priced ? u->r.priced_by : "unpriced"; /* priced_by is a static name */
        break;
    }
    return key != NULL ? key : "";
}

static int mem_spend(rp_store *s, const rp_spend_query *q,
                     int (*fn)(void *self, const rp_spend_row *row), void *self)
{
    memory_store *m = mem(s);
    size_t n_ids = 0;
    const char **ids = q->session_id != NULL ? subtree_ids(m, q->session_id, &n_ids) : NULL;
    /* Groups kept sorted by key (byte order, like SQLite's default collation). */
    spend_group *groups = NULL;
    size_t n_groups = 0, cap_groups = 0;
    if (q->group == RP_SPEND_BY_NONE) {
        groups = grow(groups, n_groups, &cap_groups, sizeof *groups);
        groups[n_groups++] = (spend_group){.key = ""}; /* exactly one row, even when empty */
    }
    for (size_t i = 0; i < m->n_usage; i++) {
        const mem_usage *u = &m->usage[i];
        if ((q->user_id != NULL && !str_eq(u->r.user_id, q->user_id)) ||
            (ids != NULL && !in_ids(ids, n_ids, u->r.session_id)) ||
            (q->first_day != NULL && strcmp(u->day, q->first_day) < 0) ||
            (q->last_day != NULL && strcmp(u->day, q->last_day) > 0)) {
            continue;
        }
        const char *key = spend_key(u, q->group);
        size_t at = 0;
        while (at < n_groups && strcmp(groups[at].key, key) < 0) {
            at++;
        }
        if (at == n_groups || strcmp(groups[at].key, key) != 0) {
            groups = grow(groups, n_groups, &cap_groups, sizeof *groups);
            memmove(&groups[at + 1], &groups[at], (n_groups - at) * sizeof *groups);
            groups[at] = (spend_group){.key = key};
            n_groups++;
        }
        add_row(&groups[at].totals, &u->r);
    }
    for (size_t i = 0; i < n_groups; i++) {
        rp_spend_row row = {.key = groups[i].key, .totals = groups[i].totals};
        if (fn(self, &row) != 0) {
            break;
        }
    }
    free(groups);
    free(ids);
    return 0;
}

static const rp_store_ops memory_ops = {
    .name = "memory",
    .close = mem_close,
    .begin = mem_begin,
    .commit = mem_commit,
    .rollback = mem_rollback,
    .load_state = mem_load_state,
    .save_state = mem_save_state,
    .put_pending = mem_put_pending,
    .take_pending_at = mem_take_pending_at,
    .audit = mem_audit_insert,
    .audit_query = mem_audit_query,
    .audit_prune = mem_audit_prune,
    .trust = mem_trust_dir,
    .untrust = mem_untrust_dir,
    .is_trusted = mem_is_trusted,
    .get_link = mem_get_link,
    .put_link = mem_put_link,
    .reroot = mem_reroot,
    .adopt_rows = mem_adopt_rows,
    .claim_budget = mem_claim_budget,
    .usage_exists = mem_usage_exists,
    .insert_usage = mem_insert_usage,
    .usage_tree = mem_usage_tree,
    .usage_subtree = mem_usage_subtree,
    .user_spend = mem_user_spend,
    .get_approval = mem_get_approval,
    .set_approval = mem_set_approval,
    .attach_budget = mem_attach_budget,
    .session_budget = mem_session_budget,
    .spend = mem_spend,
    .get_transcript = mem_get_transcript,
    .set_transcript_offset = mem_set_transcript_offset,
};

rp_store *rp_store_memory_create(void)
{
    memory_store *m = zalloc(sizeof *m);
    rp_store_base_init(&m->base, &memory_ops);
    return &m->base;
}
