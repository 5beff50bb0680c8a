/* scan_common.c — the lazy scanner, the texts of an event, finding choice and the REDACT
 * rebuild shared by deny_pii_in_llm_request and deny_secrets (scan_common.h). */
#include "policies/content/scan_common.h"

#include <string.h>

#include "core/buf.h"
#include "policies/common/common.h"

rp_content_backend rp_content_policy_backend = {rp_scanner_open, rp_scanner_scan};

/* ---- the lazy scanner ---- */

rp_content_lazy_scanner *rp_content_lazy_scanner_new(rp_arena *a, rp_scan_set types)
{
    rp_content_lazy_scanner *ls = rp_arena_calloc(a, sizeof *ls);
    pthread_mutex_init(&ls->lock, NULL);
    ls->opt.types = types;
    ls->opt.cache_dir = NULL;
    return ls;
}

int rp_content_lazy_scanner_get(rp_content_lazy_scanner *ls, rp_eval_ctx *ctx,
                                const rp_scanner **out)
{
    char err[256] = "";
    int rc = 0;

    pthread_mutex_lock(&ls->lock);
    /* A failed open is tried again by the next evaluation: the failure may be transient
     * (memory), and every evaluation that cannot scan fails closed meanwhile. */
    if (ls->scanner == NULL &&
        rp_content_policy_backend.open(&ls->opt, &ls->scanner, err, sizeof err) != 0) {
        ls->scanner = NULL;
        rc = -1;
    }
    *out = ls->scanner;
    pthread_mutex_unlock(&ls->lock);
    if (rc != 0)
        return rp_fail(ctx, "cannot open the content scanner: %s", err[0] ? err : "unknown error");
    return 0;
}

void rp_content_lazy_scanner_destroy(rp_content_lazy_scanner *ls)
{
    if (ls == NULL)
        return;
    if (ls->scanner != NULL)
        rp_scanner_free(ls->scanner);
    ls->scanner = NULL;
    pthread_mutex_destroy(&ls->lock);
}

void rp_content_warn_once(rp_content_lazy_scanner *ls, rp_eval_ctx *ctx, const char *message)
{
    if (ctx->warn == NULL)
        return;
    pthread_mutex_lock(&ls->lock);
    bool first = !ls->warned;
    ls->warned = true;
    pthread_mutex_unlock(&ls->lock);
    if (first)
        ctx->warn(ctx->warn_self, ctx->policy_name ? ctx->policy_name : "", message);
}

/* ---- gathering ---- */

/* The member `key` of obj as rp_json_get finds it (the last duplicate), or -1. */
static int64_t member_index(const rp_json *obj, const char *key)
{
    if (!rp_json_is_object(obj))
        return -1;
    size_t key_len = strlen(key);
    for (uint32_t i = obj->len; i-- > 0;) {
        const rp_json_member *m = &obj->v.members[i];
        if (m->key_len == key_len && memcmp(m->key, key, key_len) == 0)
            return i;
    }
    return -1;
}

static rp_content_text *push_text(rp_arena *a, rp_content_texts *t)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 8;
        t->items = rp_arena_realloc(a, t->items, t->cap * sizeof *t->items, cap * sizeof *t->items);
        t->cap = cap;
    }
    rp_content_text *x = &t->items[t->n++];
    memset(x, 0, sizeof *x);
    return x;
}

/* Adds the string v (skipped when empty) found at path[0, depth) under ev->data. */
static void add_string(rp_arena *a, rp_content_texts *t, const rp_json *v,
                       const rp_content_step *path, size_t depth, const char *where, int group)
{
    if (!rp_json_is_string(v) || v->len == 0)
        return;
    rp_content_text *x = push_text(a, t);
    x->text = v->v.s;
    x->len = v->len;
    x->where = where;
    x->group = group;
    x->path_len = depth;
    if (depth > 0) {
        rp_content_step *copy = rp_arena_alloc(a, depth * sizeof *copy);
        memcpy(copy, path, depth * sizeof *copy);
        x->path = copy;
    }
}

void rp_content_texts_add_derived(rp_arena *a, rp_content_texts *t, const char *text, size_t len,
                                  const char *where)
{
    if (len == 0)
        return;
    rp_content_text *x = push_text(a, t);
    x->text = text;
    x->len = len;
    x->where = where;
    x->derived = true;
    x->group = t->groups++;
}

/* The `text` of every block of a list of content blocks, in one group: the reference reads
 * them joined by "\n" as one text. path[0, depth) leads to the list. */
static void add_blocks(rp_arena *a, rp_content_texts *t, const rp_json *list, rp_content_step *path,
                       size_t depth, const char *where)
{
    int group = t->groups++;
    for (uint32_t i = 0; i < list->len; i++) {
        const rp_json *block = &list->v.items[i];
        int64_t k = member_index(block, "text");
        if (k < 0)
            continue;
        path[depth] = (rp_content_step){(uint32_t)i};
        path[depth + 1] = (rp_content_step){(uint32_t)k};
        add_string(a, t, &block->v.members[k].value, path, depth + 2, where, group);
    }
}

/* The user text, chosen as rp_event_request_text chooses it. */
static void gather_user_text(const rp_json *d, rp_arena *a, rp_content_texts *t)
{
    static const char where[] = "request text";
    rp_content_step path[4];

    if (rp_json_is_string(d)) {
        add_string(a, t, d, path, 0, where, t->groups++);
        return;
    }
    if (rp_json_is_array(d)) {
        add_blocks(a, t, d, path, 0, where);
        return;
    }
    int64_t k = member_index(d, "user_content");
    const rp_json *content = k >= 0 ? &d->v.members[k].value : NULL;
    if (rp_json_is_string(content) || rp_json_is_array(content)) {
        path[0] = (rp_content_step){(uint32_t)k};
        if (rp_json_is_string(content))
            add_string(a, t, content, path, 1, where, t->groups++);
        else
            add_blocks(a, t, content, path, 1, where);
        return;
    }
    k = member_index(d, "text");
    if (k >= 0) {
        path[0] = (rp_content_step){(uint32_t)k};
        add_string(a, t, &d->v.members[k].value, path, 1, where, t->groups++);
    }
}

void rp_content_gather_request(const rp_event *ev, rp_arena *a, rp_content_texts *t)
{
    const rp_json *d = ev->data;
    if (d == NULL)
        return;
    gather_user_text(d, a, t);

    int64_t k = member_index(d, "attachments");
    if (k < 0 || !rp_json_is_array(&d->v.members[k].value))
        return;
    const rp_json *list = &d->v.members[k].value;
    for (uint32_t i = 0; i < list->len; i++) {
        const rp_json *att = &list->v.items[i];
        int64_t tk = member_index(att, "text");
        if (tk < 0)
            continue;
        const char *filename = rp_json_get_str(att, "filename");
        const char *where = filename != NULL && filename[0] != '\0'
                                ? rp_arena_sprintf(a, "attachment '%s'", filename)
                                : rp_arena_sprintf(a, "attachment %u", (unsigned)i + 1);
        rp_content_step path[3] = {{(uint32_t)k}, {i}, {(uint32_t)tk}};
        add_string(a, t, &att->v.members[tk].value, path, 3, where, t->groups++);
    }
}

void rp_content_gather_llm_request(const rp_event *ev, rp_arena *a, rp_content_texts *t)
{
    static const char *const fields[] = {"system_prompt_preview", "last_user_message"};
    static const char *const wheres[] = {"llm_request system_prompt_preview",
                                         "llm_request last_user_message"};
    const rp_json *d = ev->data;

    if (!rp_json_is_object(d))
        return;
    for (size_t i = 0; i < 2; i++) {
        int64_t k = member_index(d, fields[i]);
        if (k < 0)
            continue;
        rp_content_step path[1] = {{(uint32_t)k}};
        add_string(a, t, &d->v.members[k].value, path, 1, wheres[i], t->groups++);
    }
}

/* What gather_value carries down the tree. */
typedef struct walk {
    rp_arena *a;
    rp_content_texts *t;
    rp_content_step path[RP_JSON_MAX_DEPTH + 2];
    rp_buf jpath; /* "files[0].content" */
    const char *label;
} walk;

static void gather_value(walk *w, const rp_json *v, size_t depth)
{
    if (depth >= sizeof w->path / sizeof w->path[0])
        return; /* deeper than the JSON reader allows: cannot happen */
    if (rp_json_is_string(v)) {
        if (v->len == 0)
            return;
        const char *where = rp_arena_sprintf(w->a, "%s '%.*s'", w->label, (int)w->jpath.len,
                                             w->jpath.data ? w->jpath.data : "");
        add_string(w->a, w->t, v, w->path, depth, where, w->t->groups++);
        return;
    }
    if (v->type != RP_JSON_OBJECT && v->type != RP_JSON_ARRAY)
        return;
    for (uint32_t i = 0; i < v->len; i++) {
        size_t saved = w->jpath.len;
        const rp_json *child;
        if (v->type == RP_JSON_OBJECT) {
            const rp_json_member *m = &v->v.members[i];
            if (saved > 0)
                rp_buf_putc(&w->jpath, '.');
            rp_buf_append(&w->jpath, m->key, m->key_len);
            child = &m->value;
        } else {
            rp_buf_printf(&w->jpath, "[%u]", (unsigned)i);
            child = &v->v.items[i];
        }
        w->path[depth] = (rp_content_step){i};
        gather_value(w, child, depth + 1);
        w->jpath.len = saved;
    }
}

void rp_content_gather_strings(const rp_event *ev, const char *key, rp_arena *a,
                               rp_content_texts *t, const char *label, const char *bare)
{
    const rp_json *root = ev->data;
    size_t depth = 0;
    walk *w;

    if (root == NULL)
        return;
    w = rp_arena_calloc(a, sizeof *w);
    if (key != NULL) {
        int64_t k = member_index(root, key);
        if (k < 0)
            return;
        w->path[0] = (rp_content_step){(uint32_t)k};
        root = &root->v.members[k].value;
        depth = 1;
    }
    if (rp_json_is_string(root)) {
        add_string(a, t, root, w->path, depth, bare, t->groups++);
        return;
    }
    w->a = a;
    w->t = t;
    w->label = label;
    gather_value(w, root, depth);
    rp_buf_free(&w->jpath);
}

/* ---- scanning ---- */

int rp_content_texts_run(rp_content_lazy_scanner *ls, rp_eval_ctx *ctx, rp_content_texts *t,
                         rp_content_ignore_fn ignore, const void *ignore_self)
{
    const rp_scanner *s;

    if (t->n == 0)
        return 0;
    if (rp_content_lazy_scanner_get(ls, ctx, &s) != 0)
        return -1;
    for (size_t i = 0; i < t->n; i++) {
        rp_content_text *x = &t->items[i];
        if (rp_content_policy_backend.scan(s, ctx->arena, x->text, x->len, &x->found) != 0)
            return rp_fail(ctx, "content scan of the %s failed", x->where);
        if (ignore == NULL)
            continue;
        size_t kept = 0;
        for (size_t k = 0; k < x->found.n; k++) {
            const rp_scan_finding *f = &x->found.findings[k];
            if (!ignore(ignore_self, x->text + f->start, f->end - f->start, ctx->arena))
                x->found.findings[kept++] = *f;
        }
        x->found.n = kept;
    }
    return 0;
}

size_t rp_content_texts_count(const rp_content_texts *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++)
        n += t->items[i].found.n;
    return n;
}

bool rp_content_texts_truncated(const rp_content_texts *t)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->items[i].found.truncated)
            return true;
    return false;
}

const rp_scan_finding *rp_content_first_by_type(const rp_content_texts *t, size_t *text_index)
{
    size_t i = 0;
    while (i < t->n) {
        size_t end = i;
        while (end < t->n && t->items[end].group == t->items[i].group)
            end++;
        const rp_scan_finding *best = NULL;
        for (size_t k = i; k < end; k++) {
            const rp_scan_result *r = &t->items[k].found;
            /* Findings are sorted by start, texts are in reading order: a strictly smaller
             * type is the only thing that displaces the first finding seen. */
            for (size_t j = 0; j < r->n; j++) {
                if (best == NULL || r->findings[j].type < best->type) {
                    best = &r->findings[j];
                    *text_index = k;
                }
            }
        }
        if (best != NULL)
            return best;
        i = end;
    }
    return NULL;
}

const rp_scan_finding *rp_content_first_in_order(const rp_content_texts *t, size_t *text_index)
{
    for (size_t i = 0; i < t->n; i++) {
        if (t->items[i].found.n > 0) {
            *text_index = i;
            return &t->items[i].found.findings[0];
        }
    }
    return NULL;
}

/* ---- REDACT ---- */

/* node with the value at path[0, n) replaced by leaf; containers on the way are copied, all
 * else is shared. */
static rp_json rebuild(rp_arena *a, const rp_json *node, const rp_content_step *path, size_t n,
                       const rp_json *leaf)
{
    if (n == 0)
        return *leaf;
    rp_json copy = *node;
    uint32_t i = path[0].index;
    if (node->type == RP_JSON_OBJECT && i < node->len) {
        copy.v.members = rp_arena_alloc(a, node->len * sizeof *copy.v.members);
        memcpy(copy.v.members, node->v.members, node->len * sizeof *copy.v.members);
        copy.cap = node->len;
        copy.v.members[i].value = rebuild(a, &node->v.members[i].value, path + 1, n - 1, leaf);
    } else if (node->type == RP_JSON_ARRAY && i < node->len) {
        copy.v.items = rp_arena_alloc(a, node->len * sizeof *copy.v.items);
        memcpy(copy.v.items, node->v.items, node->len * sizeof *copy.v.items);
        copy.cap = node->len;
        copy.v.items[i] = rebuild(a, &node->v.items[i], path + 1, n - 1, leaf);
    }
    return copy;
}

const rp_json *rp_content_redact_data(rp_arena *a, const rp_json *ev_data,
                                      const rp_content_texts *t)
{
    if (ev_data == NULL)
        return NULL;
    rp_json root = *ev_data;
    bool changed = false;
    for (size_t i = 0; i < t->n; i++) {
        const rp_content_text *x = &t->items[i];
        if (x->derived || x->found.n == 0)
            continue;
        size_t len;
        char *red = rp_scan_redact(a, x->text, x->len, x->found.findings, x->found.n, &len);
        rp_json leaf = {.type = RP_JSON_STRING, .len = (uint32_t)len, .v.s = red};
        root = rebuild(a, &root, x->path, x->path_len, &leaf);
        changed = true;
    }
    return changed ? rp_json_new(a, root) : ev_data;
}

#define PREVIEWS_PER_TYPE 3

const char *rp_content_redaction_reason(rp_arena *a, const char *what, const rp_content_texts *t)
{
    size_t count[RP_SCAN_N_TYPES] = {0};
    const char *previews[RP_SCAN_N_TYPES][PREVIEWS_PER_TYPE];
    rp_buf b = {0};

    for (size_t i = 0; i < t->n; i++) {
        const rp_scan_result *r = &t->items[i].found;
        for (size_t j = 0; j < r->n; j++) {
            rp_scan_type type = r->findings[j].type;
            if ((unsigned)type >= RP_SCAN_N_TYPES)
                continue;
            if (count[type] < PREVIEWS_PER_TYPE)
                previews[type][count[type]] = r->findings[j].preview;
            count[type]++;
        }
    }
    rp_buf_printf(&b, "%s redacted: ", what);
    bool first = true;
    for (int type = 0; type < RP_SCAN_N_TYPES; type++) {
        if (count[type] == 0)
            continue;
        rp_buf_printf(&b, "%s%s (%zu: ", first ? "" : ", ", rp_scan_type_label(type), count[type]);
        size_t shown = count[type] < PREVIEWS_PER_TYPE ? count[type] : PREVIEWS_PER_TYPE;
        for (size_t k = 0; k < shown; k++)
            rp_buf_printf(&b, "%s'%s'", k ? ", " : "", previews[type][k]);
        rp_buf_puts(&b, count[type] > shown ? ", ...)" : ")");
        first = false;
    }
    return rp_buf_to_arena(&b, a);
}
