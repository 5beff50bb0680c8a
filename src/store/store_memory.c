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

typedef struct memory_store {
    rp_store base; /* first: rp_store * and memory_store * convert */
    mem_state *states;
    mem_pending *pending;
    mem_audit *audit; /* oldest first */
    mem_trust *trusted;
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

static int mem_take_pending(rp_store *s, const char *session_id, const char *ask_key, rp_arena *a,
                            char **text, size_t *len)
{
    mem_pending **link = find_pending(mem(s), session_id, ask_key);
    *text = NULL;
    *len = 0;
    if (*link == NULL) {
        return 0;
    }
    mem_pending *p = *link;
    *text = rp_arena_strndup(a, p->updates, p->updates_len);
    *len = p->updates_len;
    *link = p->next;
    free_pending(p);
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

static const rp_store_ops memory_ops = {
    .name = "memory",
    .close = mem_close,
    .begin = mem_begin,
    .commit = mem_commit,
    .rollback = mem_rollback,
    .load_state = mem_load_state,
    .save_state = mem_save_state,
    .put_pending = mem_put_pending,
    .take_pending = mem_take_pending,
    .audit = mem_audit_insert,
    .audit_query = mem_audit_query,
    .audit_prune = mem_audit_prune,
    .trust = mem_trust_dir,
    .untrust = mem_untrust_dir,
    .is_trusted = mem_is_trusted,
};

rp_store *rp_store_memory_create(void)
{
    memory_store *m = zalloc(sizeof *m);
    rp_store_base_init(&m->base, &memory_ops);
    return &m->base;
}
