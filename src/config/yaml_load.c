/* yaml_load.c — libyaml event stream → rp_json tree plus a table of source positions.
 *
 * We use libyaml's event API rather than its document API because the document API fills in a
 * default tag for untagged scalars (so `!!str 1` and `1` look alike) and resolves aliases to
 * shared nodes without telling us how big the expansion is. Walking events ourselves, each
 * collection is gathered in a temporary heap vector and then copied once into an arena array of
 * its final size; only then are the positions of its children recorded, so every address in
 * the table is the address the caller will see. */
#include "config/yaml_load.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "core/utf8.h"

#define TAG_PREFIX "tag:yaml.org,2002:"

typedef struct anchor {
    char *name; /* heap */
    rp_json value;
    size_t nodes; /* nodes in the value's expansion, for the alias-bomb cap */
    int height;   /* levels in the value (a scalar is 1), for the depth cap through aliases */
} anchor;

typedef struct loader {
    yaml_parser_t parser;
    rp_arena *a;
    rp_yaml_doc *doc;
    rp_yaml_error_fn report;
    void *self;
    size_t n_errors;
    bool fatal;     /* stop: the event stream can no longer be followed */
    size_t n_nodes; /* nodes built so far, alias expansions included */
    int depth;
    anchor *anchors; /* heap; later definitions of a name shadow earlier ones */
    size_t n_anchors, cap_anchors;
} loader;

/* One parsed node before it is placed into its parent. */
typedef struct parsed_node {
    rp_json value;
    int line, col;
    size_t nodes;
    int height; /* levels in the value: 1 for a scalar */
} parsed_node;

/* One mapping entry while its mapping is being gathered. */
typedef struct entry {
    const char *key;
    size_t key_len;
    rp_json_type key_type;
    int key_line, key_col;
    parsed_node value;
    size_t order; /* position in the mapping, to keep the first of duplicate keys */
    bool dropped; /* a duplicate or an invalid key */
} entry;

static void fail(loader *L, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void fail(loader *L, int line, int col, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    L->n_errors++;
    if (L->report)
        L->report(L->self, line, col, msg);
}

static void record(loader *L, const void *addr, int line, int col, rp_json_type key_type)
{
    rp_yaml_doc *d = L->doc;
    if (d->n_pos == d->cap_pos) {
        size_t cap = d->cap_pos ? d->cap_pos * 2 : 64;
        rp_yaml_pos_entry *p = realloc(d->pos, cap * sizeof *p);
        if (!p)
            abort(); /* as the arena does: allocation failure is not recoverable here */
        d->pos = p;
        d->cap_pos = cap;
    }
    d->pos[d->n_pos++] = (rp_yaml_pos_entry){addr, line, col, key_type};
}

/* Counts one more node against the cap; false (and a fatal error) when the cap is exceeded. */
static bool count_nodes(loader *L, size_t n, int line, int col)
{
    if (L->n_nodes + n > RP_YAML_MAX_NODES || n > RP_YAML_MAX_NODES) {
        fail(L, line, col, "document too large: more than %d nodes (counting alias expansions)",
             RP_YAML_MAX_NODES);
        L->fatal = true;
        return false;
    }
    L->n_nodes += n;
    return true;
}

static bool next_event(loader *L, yaml_event_t *ev)
{
    if (yaml_parser_parse(&L->parser, ev))
        return true;
    yaml_parser_t *p = &L->parser;
    int line = (int)p->problem_mark.line + 1, col = (int)p->problem_mark.column + 1;
    if (p->context)
        fail(L, line, col, "YAML syntax error: %s (%s that starts at line %d)",
             p->problem ? p->problem : "unknown problem", p->context,
             (int)p->context_mark.line + 1);
    else
        fail(L, line, col, "YAML syntax error: %s", p->problem ? p->problem : "unknown problem");
    L->fatal = true;
    return false;
}

/* ---- scalar resolution (YAML 1.2 core schema) ---- */

static bool text_is(const char *s, size_t n, const char *a, const char *b, const char *c)
{
    return (strlen(a) == n && memcmp(s, a, n) == 0) || (strlen(b) == n && memcmp(s, b, n) == 0) ||
           (strlen(c) == n && memcmp(s, c, n) == 0);
}

static bool resolve_null(const char *s, size_t n)
{
    return n == 0 || (n == 1 && s[0] == '~') || text_is(s, n, "null", "Null", "NULL");
}

static bool resolve_bool(const char *s, size_t n, bool *out)
{
    if (text_is(s, n, "true", "True", "TRUE")) {
        *out = true;
        return true;
    }
    if (text_is(s, n, "false", "False", "FALSE")) {
        *out = false;
        return true;
    }
    return false;
}

static int digit_value(char c, int base)
{
    int v = rp_hex_digit((unsigned char)c);
    return v < base ? v : -1;
}

/* [-+]?[0-9]+ | 0o[0-7]+ | 0x[0-9a-fA-F]+. Magnitudes beyond uint64 become doubles, as the
 * JSON reader does with such literals. */
static bool resolve_int(const char *s, size_t n, rp_json *out)
{
    size_t i = 0;
    bool negative = false;
    int base = 10;
    if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o')) {
        base = s[1] == 'x' ? 16 : 8;
        i = 2;
    } else if (n > 0 && (s[0] == '-' || s[0] == '+')) {
        negative = s[0] == '-';
        i = 1;
    }
    if (i == n)
        return false;
    uint64_t mag = 0;
    double approx = 0;
    bool overflow = false;
    for (; i < n; i++) {
        int d = digit_value(s[i], base);
        if (d < 0)
            return false;
        approx = approx * base + d;
        if (mag > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            overflow = true;
        else
            mag = mag * (uint64_t)base + (uint64_t)d;
    }
    if (overflow) {
        *out = rp_json_make_double(negative ? -approx : approx);
    } else if (negative) {
        if (mag <= (uint64_t)INT64_MAX)
            *out = rp_json_make_int(-(int64_t)mag);
        else if (mag == (uint64_t)INT64_MAX + 1)
            *out = rp_json_make_int(INT64_MIN);
        else
            *out = rp_json_make_double(-approx);
    } else if (mag <= (uint64_t)INT64_MAX) {
        *out = rp_json_make_int((int64_t)mag);
    } else {
        *out = (rp_json){.type = RP_JSON_UINT, .v.u = mag};
    }
    return true;
}

/* [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? | [-+]?\.inf | \.nan (three spellings). */
static bool resolve_float(const char *s, size_t n, rp_json *out)
{
    size_t i = 0;
    bool negative = false;
    if (n > 0 && (s[0] == '-' || s[0] == '+')) {
        negative = s[0] == '-';
        i = 1;
    }
    if (text_is(s + i, n - i, ".inf", ".Inf", ".INF")) {
        *out = rp_json_make_double(negative ? -INFINITY : INFINITY);
        return true;
    }
    if (i == 0 && text_is(s, n, ".nan", ".NaN", ".NAN")) {
        *out = rp_json_make_double(NAN);
        return true;
    }
    size_t int_digits = 0, frac_digits = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
        i++;
        int_digits++;
    }
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            i++;
            frac_digits++;
        }
    }
    if (int_digits == 0 && frac_digits == 0)
        return false;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '-' || s[i] == '+'))
            i++;
        size_t exp_digits = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            i++;
            exp_digits++;
        }
        if (exp_digits == 0)
            return false;
    }
    if (i != n)
        return false;
    /* The shape is checked; strtod does the conversion (the text is NUL-terminated). */
    char buf[128];
    if (n >= sizeof buf)
        return false;
    memcpy(buf, s, n);
    buf[n] = '\0';
    *out = rp_json_make_double(strtod(buf, NULL));
    return true;
}

typedef enum scalar_kind {
    KIND_ANY = 0,
    KIND_STR,
    KIND_NULL,
    KIND_BOOL,
    KIND_INT,
    KIND_FLOAT
} scalar_kind;

/* Resolves a scalar. `want` is the kind an explicit tag demands (KIND_ANY for plain untagged);
 * returns false when the text does not fit the tag. */
static bool resolve_scalar(rp_arena *a, const char *s, size_t n, scalar_kind want, rp_json *out)
{
    bool b;
    if (want == KIND_STR) {
        *out = rp_json_make_stringn(a, s, n);
        return true;
    }
    if ((want == KIND_ANY || want == KIND_NULL) && resolve_null(s, n)) {
        *out = rp_json_make_null();
        return true;
    }
    if ((want == KIND_ANY || want == KIND_BOOL) && resolve_bool(s, n, &b)) {
        *out = rp_json_make_bool(b);
        return true;
    }
    if ((want == KIND_ANY || want == KIND_INT) && resolve_int(s, n, out))
        return true;
    if (want == KIND_FLOAT && resolve_int(s, n, out)) {
        double d = 0;
        rp_json_number(out, &d);
        *out = rp_json_make_double(d);
        return true;
    }
    if ((want == KIND_ANY || want == KIND_FLOAT) && resolve_float(s, n, out))
        return true;
    if (want != KIND_ANY)
        return false;
    *out = rp_json_make_stringn(a, s, n);
    return true;
}

static const char *kind_tag_name(scalar_kind k)
{
    switch (k) {
    case KIND_NULL:
        return "!!null";
    case KIND_BOOL:
        return "!!bool";
    case KIND_INT:
        return "!!int";
    case KIND_FLOAT:
        return "!!float";
    default:
        return "!!str";
    }
}

/* Maps a scalar's tag to the kind it demands; false for tags rampart does not know. */
static bool scalar_tag_kind(const char *tag, scalar_kind *kind)
{
    if (!tag) {
        *kind = KIND_ANY;
        return true;
    }
    static const struct {
        const char *suffix;
        scalar_kind kind;
    } tags[] = {{"str", KIND_STR},
                {"null", KIND_NULL},
                {"bool", KIND_BOOL},
                {"int", KIND_INT},
                {"float", KIND_FLOAT}};
    if (strcmp(tag, "!") == 0) { /* the non-specific tag: "this is a string" */
        *kind = KIND_STR;
        return true;
    }
    if (strncmp(tag, TAG_PREFIX, strlen(TAG_PREFIX)) != 0)
        return false;
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++) {
        if (strcmp(tag + strlen(TAG_PREFIX), tags[i].suffix) == 0) {
            *kind = tags[i].kind;
            return true;
        }
    }
    return false;
}

/* How a scalar key would resolve, for rp_yaml_key_is_string. */
static rp_json_type key_scalar_type(const yaml_event_t *ev)
{
    if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE || ev->data.scalar.tag)
        return RP_JSON_STRING;
    rp_json v;
    rp_arena scratch = {0};
    const char *s = (const char *)ev->data.scalar.value;
    size_t n = ev->data.scalar.length;
    /* The string branch is the only one that allocates; avoid it by testing it last. */
    rp_json_type t = RP_JSON_STRING;
    if (resolve_null(s, n))
        t = RP_JSON_NULL;
    else if (resolve_scalar(&scratch, s, n, KIND_BOOL, &v) ||
             resolve_scalar(&scratch, s, n, KIND_INT, &v) ||
             resolve_scalar(&scratch, s, n, KIND_FLOAT, &v))
        t = v.type;
    rp_arena_free(&scratch);
    return t;
}

/* ---- anchors ---- */

static void anchor_define(loader *L, const char *name, const parsed_node *n)
{
    if (!name)
        return;
    if (L->n_anchors == L->cap_anchors) {
        size_t cap = L->cap_anchors ? L->cap_anchors * 2 : 8;
        anchor *p = realloc(L->anchors, cap * sizeof *p);
        if (!p)
            abort();
        L->anchors = p;
        L->cap_anchors = cap;
    }
    char *copy = strdup(name);
    if (!copy)
        abort();
    L->anchors[L->n_anchors++] = (anchor){copy, n->value, n->nodes, n->height};
}

static const anchor *anchor_find(const loader *L, const char *name)
{
    for (size_t i = L->n_anchors; i-- > 0;) {
        if (strcmp(L->anchors[i].name, name) == 0)
            return &L->anchors[i];
    }
    return NULL;
}

/* ---- the tree ---- */

static bool load_node(loader *L, yaml_event_t *ev, parsed_node *out);

static int mark_line(const yaml_event_t *ev)
{
    return (int)ev->start_mark.line + 1;
}

static int mark_col(const yaml_event_t *ev)
{
    return (int)ev->start_mark.column + 1;
}

static bool load_scalar(loader *L, yaml_event_t *ev, parsed_node *out)
{
    const char *s = (const char *)ev->data.scalar.value;
    size_t n = ev->data.scalar.length;
    scalar_kind want;
    out->line = mark_line(ev);
    out->col = mark_col(ev);
    out->nodes = 1;
    if (!count_nodes(L, 1, out->line, out->col))
        return false;
    if (!scalar_tag_kind((const char *)ev->data.scalar.tag, &want)) {
        fail(L, out->line, out->col, "unsupported YAML tag '%s'",
             (const char *)ev->data.scalar.tag);
        out->value = rp_json_make_null();
        return true;
    }
    /* Quoted and block scalars are strings unless a tag says otherwise. */
    if (want == KIND_ANY && ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        want = KIND_STR;
    if (!resolve_scalar(L->a, s, n, want, &out->value)) {
        fail(L, out->line, out->col, "'%.*s' is not a valid %s", (int)(n > 60 ? 60 : n), s,
             kind_tag_name(want));
        out->value = rp_json_make_null();
    } else if (out->value.type == RP_JSON_DOUBLE && !isfinite(out->value.v.d)) {
        /* .inf and .nan are valid YAML, but no rampart setting means anything with them, and
         * a state update carrying one would be stored as null (JSON has no infinity). */
        fail(L, out->line, out->col, "'%.*s': infinite and NaN numbers are not allowed", (int)n, s);
        out->value = rp_json_make_null();
    }
    return true;
}

static bool check_collection_tag(loader *L, const yaml_char_t *tag, const char *expected, int line,
                                 int col)
{
    if (!tag || strcmp((const char *)tag, "!") == 0)
        return true;
    if (strncmp((const char *)tag, TAG_PREFIX, strlen(TAG_PREFIX)) == 0 &&
        strcmp((const char *)tag + strlen(TAG_PREFIX), expected) == 0)
        return true;
    fail(L, line, col, "unsupported YAML tag '%s'", (const char *)tag);
    return false;
}

static bool load_sequence(loader *L, yaml_event_t *first, parsed_node *out)
{
    out->line = mark_line(first);
    out->col = mark_col(first);
    out->nodes = 1;
    check_collection_tag(L, first->data.sequence_start.tag, "seq", out->line, out->col);
    if (!count_nodes(L, 1, out->line, out->col))
        return false;

    parsed_node *items = NULL;
    size_t n = 0, cap = 0;
    bool ok = true;
    for (;;) {
        yaml_event_t ev;
        if (!next_event(L, &ev)) {
            ok = false;
            break;
        }
        if (ev.type == YAML_SEQUENCE_END_EVENT) {
            yaml_event_delete(&ev);
            break;
        }
        parsed_node child;
        bool child_ok = load_node(L, &ev, &child);
        yaml_event_delete(&ev);
        if (!child_ok) {
            ok = false;
            break;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 8;
            parsed_node *p = realloc(items, cap * sizeof *p);
            if (!p)
                abort();
            items = p;
        }
        items[n++] = child;
        out->nodes += child.nodes;
        if (child.height + 1 > out->height)
            out->height = child.height + 1;
    }

    rp_json arr = rp_json_make_array();
    if (ok && n > 0) {
        arr.v.items = rp_arena_alloc(L->a, n * sizeof(rp_json));
        arr.len = arr.cap = (uint32_t)n;
        for (size_t i = 0; i < n; i++) {
            arr.v.items[i] = items[i].value;
            record(L, &arr.v.items[i], items[i].line, items[i].col, RP_JSON_NULL);
        }
    }
    free(items);
    out->value = arr;
    return ok;
}

static int entry_key_cmp(const void *pa, const void *pb)
{
    const entry *a = *(const entry *const *)pa, *b = *(const entry *const *)pb;
    size_t n = a->key_len < b->key_len ? a->key_len : b->key_len;
    int c = memcmp(a->key, b->key, n);
    if (c != 0)
        return c;
    if (a->key_len != b->key_len)
        return a->key_len < b->key_len ? -1 : 1;
    return a->order < b->order ? -1 : (a->order > b->order ? 1 : 0);
}

/* Marks every repeated key as dropped (keeping the first) and reports it. Sorting a vector of
 * pointers keeps this O(n log n) even for the huge mappings a fuzzer makes. */
static void drop_duplicate_keys(loader *L, entry *entries, size_t n)
{
    if (n < 2)
        return;
    entry **sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        abort();
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (!entries[i].dropped)
            sorted[m++] = &entries[i];
    }
    qsort(sorted, m, sizeof *sorted, entry_key_cmp);
    for (size_t i = 1; i < m; i++) {
        entry *prev = sorted[i - 1], *e = sorted[i];
        if (prev->key_len == e->key_len && memcmp(prev->key, e->key, e->key_len) == 0) {
            /* Find the first occurrence for the message: sorted by (key, order). */
            size_t j = i - 1;
            while (j > 0 && sorted[j - 1]->key_len == e->key_len &&
                   memcmp(sorted[j - 1]->key, e->key, e->key_len) == 0)
                j--;
            fail(L, e->key_line, e->key_col, "duplicate key '%.*s' (first defined at line %d)",
                 (int)(e->key_len > 80 ? 80 : e->key_len), e->key, sorted[j]->key_line);
            e->dropped = true;
        }
    }
    free(sorted);
}

/* Reads one mapping key. Keys must be scalars (or aliases of strings); the text of a plain
 * scalar is kept as written, its resolved kind goes into the side table. */
static bool load_key(loader *L, yaml_event_t *ev, entry *e)
{
    e->key_line = mark_line(ev);
    e->key_col = mark_col(ev);
    if (ev->type == YAML_SCALAR_EVENT) {
        scalar_kind want;
        if (!scalar_tag_kind((const char *)ev->data.scalar.tag, &want)) {
            fail(L, e->key_line, e->key_col, "unsupported YAML tag '%s'",
                 (const char *)ev->data.scalar.tag);
            e->dropped = true;
        }
        if (!count_nodes(L, 1, e->key_line, e->key_col))
            return false;
        e->key =
            rp_arena_strndup(L->a, (const char *)ev->data.scalar.value, ev->data.scalar.length);
        e->key_len = ev->data.scalar.length;
        e->key_type = key_scalar_type(ev);
        if (ev->data.scalar.anchor) {
            parsed_node n = {rp_json_make_stringn(L->a, e->key, e->key_len), e->key_line,
                             e->key_col, 1, 1};
            anchor_define(L, (const char *)ev->data.scalar.anchor, &n);
        }
        return true;
    }
    if (ev->type == YAML_ALIAS_EVENT) {
        const anchor *an = anchor_find(L, (const char *)ev->data.alias.anchor);
        if (!an) {
            fail(L, e->key_line, e->key_col, "unknown alias '*%s'",
                 (const char *)ev->data.alias.anchor);
            e->dropped = true;
        } else if (an->value.type != RP_JSON_STRING) {
            fail(L, e->key_line, e->key_col, "mapping keys must be strings, got an alias of %s",
                 rp_json_type_name(an->value.type));
            e->dropped = true;
        } else {
            e->key = an->value.v.s;
            e->key_len = an->value.len;
            e->key_type = RP_JSON_STRING;
        }
        e->key = e->key ? e->key : "";
        return true;
    }
    /* A sequence or mapping as a key: report it, then read past it. */
    fail(L, e->key_line, e->key_col, "mapping keys must be strings, not %s",
         ev->type == YAML_SEQUENCE_START_EVENT ? "lists" : "mappings");
    e->dropped = true;
    e->key = "";
    parsed_node ignored;
    return load_node(L, ev, &ignored);
}

static bool load_mapping(loader *L, yaml_event_t *first, parsed_node *out)
{
    out->line = mark_line(first);
    out->col = mark_col(first);
    out->nodes = 1;
    check_collection_tag(L, first->data.mapping_start.tag, "map", out->line, out->col);
    if (!count_nodes(L, 1, out->line, out->col))
        return false;

    entry *entries = NULL;
    size_t n = 0, cap = 0;
    bool ok = true;
    for (;;) {
        yaml_event_t ev;
        if (!next_event(L, &ev)) {
            ok = false;
            break;
        }
        if (ev.type == YAML_MAPPING_END_EVENT) {
            yaml_event_delete(&ev);
            break;
        }
        entry e = {0};
        e.order = n;
        bool key_ok = load_key(L, &ev, &e);
        yaml_event_delete(&ev);
        if (!key_ok || !next_event(L, &ev)) {
            ok = false;
            break;
        }
        bool value_ok = load_node(L, &ev, &e.value);
        yaml_event_delete(&ev);
        if (!value_ok) {
            ok = false;
            break;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 8;
            entry *p = realloc(entries, cap * sizeof *p);
            if (!p)
                abort();
            entries = p;
        }
        entries[n++] = e;
        out->nodes += 1 + e.value.nodes;
        if (e.value.height + 1 > out->height)
            out->height = e.value.height + 1;
    }

    rp_json obj = rp_json_make_object();
    if (ok) {
        drop_duplicate_keys(L, entries, n);
        size_t kept = 0;
        for (size_t i = 0; i < n; i++)
            kept += !entries[i].dropped;
        if (kept > 0) {
            obj.v.members = rp_arena_alloc(L->a, kept * sizeof(rp_json_member));
            obj.len = obj.cap = (uint32_t)kept;
            size_t k = 0;
            for (size_t i = 0; i < n; i++) {
                const entry *e = &entries[i];
                if (e->dropped)
                    continue;
                rp_json_member *m = &obj.v.members[k++];
                m->key = e->key;
                m->key_len = (uint32_t)e->key_len;
                m->value = e->value.value;
                record(L, m, e->key_line, e->key_col, e->key_type);
                record(L, &m->value, e->value.line, e->value.col, RP_JSON_NULL);
            }
        }
    }
    free(entries);
    out->value = obj;
    return ok;
}

/* Loads the node that starts with *ev (already read; the caller deletes it). Returns false
 * on a fatal error, after which the event stream is abandoned. */
static bool load_node(loader *L, yaml_event_t *ev, parsed_node *out)
{
    *out = (parsed_node){rp_json_make_null(), mark_line(ev), mark_col(ev), 1, 1};
    if (L->depth >= RP_YAML_MAX_DEPTH) {
        fail(L, out->line, out->col, "nesting deeper than %d levels", RP_YAML_MAX_DEPTH);
        L->fatal = true;
        return false;
    }
    L->depth++;
    bool ok = true;
    const char *anchor_name = NULL;
    switch (ev->type) {
    case YAML_SCALAR_EVENT:
        anchor_name = (const char *)ev->data.scalar.anchor;
        ok = load_scalar(L, ev, out);
        break;
    case YAML_SEQUENCE_START_EVENT:
        anchor_name = (const char *)ev->data.sequence_start.anchor;
        ok = load_sequence(L, ev, out);
        break;
    case YAML_MAPPING_START_EVENT:
        anchor_name = (const char *)ev->data.mapping_start.anchor;
        ok = load_mapping(L, ev, out);
        break;
    case YAML_ALIAS_EVENT: {
        const anchor *an = anchor_find(L, (const char *)ev->data.alias.anchor);
        if (!an) {
            fail(L, out->line, out->col, "unknown alias '*%s'",
                 (const char *)ev->data.alias.anchor);
            break;
        }
        /* Share the anchored value (the tree is read-only) but charge its full size, so
         * that nested aliases cannot make an exponentially large document. */
        ok = count_nodes(L, an->nodes, out->line, out->col);
        /* The shared value is as deep here as where it was defined: aliases nested in
         * anchored values could otherwise build a tree far deeper than the limit. */
        if (ok && L->depth - 1 + an->height > RP_YAML_MAX_DEPTH) {
            fail(L, out->line, out->col, "nesting deeper than %d levels (through alias '*%s')",
                 RP_YAML_MAX_DEPTH, (const char *)ev->data.alias.anchor);
            break; /* the alias stays null, as an unknown one does */
        }
        out->value = an->value;
        out->nodes = an->nodes;
        out->height = an->height;
        break;
    }
    default:
        fail(L, out->line, out->col, "unexpected YAML event");
        L->fatal = true;
        ok = false;
        break;
    }
    L->depth--;
    if (ok && anchor_name)
        anchor_define(L, anchor_name, out);
    return ok;
}

static int pos_cmp(const void *pa, const void *pb)
{
    const rp_yaml_pos_entry *a = pa, *b = pb;
    uintptr_t x = (uintptr_t)a->addr, y = (uintptr_t)b->addr;
    return x < y ? -1 : (x > y ? 1 : 0);
}

size_t rp_yaml_load(rp_arena *a, const char *text, size_t len, rp_yaml_doc *doc,
                    rp_yaml_error_fn report, void *self)
{
    memset(doc, 0, sizeof *doc);
    loader L = {.a = a, .doc = doc, .report = report, .self = self};
    if (!yaml_parser_initialize(&L.parser))
        abort();
    yaml_parser_set_input_string(&L.parser, (const unsigned char *)text, len);

    yaml_event_t ev;
    bool in_document = false;
    while (!L.fatal && next_event(&L, &ev)) {
        yaml_event_type_t type = ev.type;
        if (type == YAML_STREAM_END_EVENT) {
            yaml_event_delete(&ev);
            break;
        }
        if (type == YAML_DOCUMENT_START_EVENT) {
            if (in_document) {
                fail(&L, mark_line(&ev), mark_col(&ev),
                     "more than one YAML document in one file; use one document per file");
                yaml_event_delete(&ev);
                break;
            }
            in_document = true;
        } else if (type != YAML_STREAM_START_EVENT && type != YAML_DOCUMENT_END_EVENT) {
            parsed_node root;
            if (load_node(&L, &ev, &root)) {
                doc->root = rp_json_new(a, root.value);
                record(&L, doc->root, root.line, root.col, RP_JSON_NULL);
            }
        }
        yaml_event_delete(&ev);
    }

    yaml_parser_delete(&L.parser);
    for (size_t i = 0; i < L.n_anchors; i++)
        free(L.anchors[i].name);
    free(L.anchors);
    if (doc->n_pos > 1)
        qsort(doc->pos, doc->n_pos, sizeof *doc->pos, pos_cmp);
    return L.n_errors;
}

void rp_yaml_doc_free(rp_yaml_doc *doc)
{
    free(doc->pos);
    memset(doc, 0, sizeof *doc);
}

static const rp_yaml_pos_entry *find_entry(const rp_yaml_doc *doc, const void *addr)
{
    if (!doc || !addr || doc->n_pos == 0)
        return NULL;
    rp_yaml_pos_entry key = {.addr = addr};
    return bsearch(&key, doc->pos, doc->n_pos, sizeof *doc->pos, pos_cmp);
}

static bool entry_pos(const rp_yaml_pos_entry *e, int *line, int *col)
{
    *line = e ? e->line : 0;
    *col = e ? e->col : 0;
    return e != NULL;
}

bool rp_yaml_pos(const rp_yaml_doc *doc, const rp_json *node, int *line, int *col)
{
    return entry_pos(find_entry(doc, node), line, col);
}

bool rp_yaml_key_pos(const rp_yaml_doc *doc, const rp_json_member *m, int *line, int *col)
{
    return entry_pos(find_entry(doc, m), line, col);
}

bool rp_yaml_key_is_string(const rp_yaml_doc *doc, const rp_json_member *m)
{
    const rp_yaml_pos_entry *e = find_entry(doc, m);
    return !e || e->key_type == RP_JSON_STRING;
}
