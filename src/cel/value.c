/* value.c — CEL runtime values: constructors, JSON-backed and native lists and maps, equality,
 * ordering, conversion to JSON, and printing.
 *
 * JSON-backed containers convert an element only when it is accessed, so an event reaches CEL
 * without being copied. A JSON object with duplicate keys answers lookups with the last
 * member (as Python's json module would have kept it); size and iteration see every member. */
#include "cel/value.h"

#include "cel/time.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"

/* ---- constructors ---- */

cel_value cel_string_copy(rp_arena *a, const char *s, size_t len)
{
    char *d = rp_arena_alloc(a, len + 1);
    if (len)
        memcpy(d, s, len);
    d[len] = '\0';
    return cel_string_ref(d, len);
}

cel_value cel_bytes_copy(rp_arena *a, const char *s, size_t len)
{
    char *d = rp_arena_alloc(a, len + 1);
    if (len)
        memcpy(d, s, len);
    d[len] = '\0';
    return cel_bytes_ref(d, len);
}

cel_value cel_string_from_bytes(rp_arena *a, const char *s, size_t len)
{
    if (!rp_utf8_valid(s, len))
        return cel_error_new(a, "invalid UTF-8 in bytes, cannot convert to string");
    return cel_string_copy(a, s, len);
}

cel_value cel_optional_of(rp_arena *a, cel_value inner)
{
    cel_value *p = rp_arena_alloc(a, sizeof *p);
    *p = inner;
    cel_value v = {.kind = CEL_OPTIONAL};
    v.v.opt = p;
    return v;
}

cel_value cel_error_new(rp_arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = rp_arena_vsprintf(a, fmt, ap);
    va_end(ap);
    cel_error *e = rp_arena_alloc(a, sizeof *e);
    e->message = msg;
    cel_value v = {.kind = CEL_ERROR};
    v.v.err = e;
    return v;
}

cel_value cel_error_no_overload(rp_arena *a, const char *function, const cel_value *args,
                                uint32_t nargs)
{
    rp_buf b = {0};
    rp_buf_printf(&b, "no such overload: %s(", function);
    for (uint32_t i = 0; i < nargs; i++)
        rp_buf_printf(&b, "%s%s", i ? ", " : "", cel_kind_type_name(&args[i]));
    rp_buf_putc(&b, ')');
    cel_value v = cel_error_new(a, "%s", b.data);
    rp_buf_free(&b);
    return v;
}

cel_value cel_unknown_new(rp_arena *a, const int64_t *ids, uint32_t n)
{
    int64_t *copy = rp_arena_alloc(a, sizeof *copy * (n ? n : 1));
    if (n)
        memcpy(copy, ids, sizeof *copy * n);
    cel_unknown *u = rp_arena_alloc(a, sizeof *u);
    u->expr_ids = copy;
    u->n = n;
    cel_value v = {.kind = CEL_UNKNOWN};
    v.v.unk = u;
    return v;
}

cel_value cel_unknown_merge(rp_arena *a, const cel_value *x, const cel_value *y)
{
    if (x->kind != CEL_UNKNOWN)
        return *y;
    if (y->kind != CEL_UNKNOWN)
        return *x;
    uint32_t nx = x->v.unk->n, ny = y->v.unk->n;
    int64_t *ids = rp_arena_alloc(a, sizeof *ids * (nx + ny + 1));
    uint32_t n = 0;
    for (uint32_t i = 0; i < nx; i++)
        ids[n++] = x->v.unk->expr_ids[i];
    for (uint32_t i = 0; i < ny; i++) {
        int64_t id = y->v.unk->expr_ids[i];
        bool seen = false;
        for (uint32_t k = 0; k < nx && !seen; k++)
            seen = ids[k] == id;
        if (!seen)
            ids[n++] = id;
    }
    cel_unknown *u = rp_arena_alloc(a, sizeof *u);
    u->expr_ids = ids;
    u->n = n;
    cel_value v = {.kind = CEL_UNKNOWN};
    v.v.unk = u;
    return v;
}

cel_value cel_list_new(rp_arena *a, const cel_value *items, uint32_t n)
{
    cel_list *l = rp_arena_alloc(a, sizeof *l);
    l->len = n;
    l->items = items;
    l->store = NULL;
    cel_value v = {.kind = CEL_LIST};
    v.v.list = l;
    return v;
}

static bool valid_key_kind(uint8_t kind)
{
    return kind == CEL_INT || kind == CEL_UINT || kind == CEL_BOOL || kind == CEL_STRING;
}

static cel_value repeated_key(rp_arena *a, const cel_value *key)
{
    rp_buf b = {0};
    cel_value_format(&b, key);
    cel_value e = cel_error_new(a, "Failed with repeated key: %s", b.data);
    rp_buf_free(&b);
    return e;
}

/* A growable buffer of list items or map entries (see value.h). Entries [0, len) are written;
 * a value whose len equals the buffer's and whose items are the buffer's current array is its
 * newest value, the only one that may append in place. */
typedef struct cel_store cel_store;
struct cel_store {
    const rp_arena *owner; /* only evaluations in this arena append in place */
    cel_value *items;      /* list items, or map keys */
    cel_value *values;     /* maps only */
    uint32_t len;          /* high-water mark */
    uint32_t cap;
    uint32_t *slots; /* maps: hash index (entry + 1, 0 = empty), or NULL */
    uint32_t nslots; /* a power of two, at least twice the entries indexed */
};

/* Maps above this many entries get a hash index; smaller ones compare pairwise. */
#define MAP_INDEX_MIN 16

static uint64_t mix(uint64_t h)
{
    return h * 0xff51afd7ed558ccdULL;
}

static uint64_t str_hash(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return mix(h);
}

/* A hash under which equal keys collide: int 1 and uint 1u are the same key. */
static uint64_t key_hash(const cel_value *k)
{
    switch (k->kind) {
    case CEL_INT:
        return mix((uint64_t)k->v.i);
    case CEL_UINT:
        return mix(k->v.u);
    case CEL_BOOL:
        return mix(k->v.b ? 0x9e3779b97f4a7c15ULL : 0x7f4a7c159e3779b9ULL);
    default:
        return str_hash(k->v.s, k->len);
    }
}

/* (Re)builds the hash index of s's first n keys with room for at least `room` entries. */
static void index_build(rp_arena *a, cel_store *s, uint32_t n, uint64_t room)
{
    uint64_t cap = 32;
    while (cap < room * 2)
        cap *= 2;
    s->slots = rp_arena_calloc(a, sizeof *s->slots * cap);
    s->nslots = (uint32_t)cap;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t h = key_hash(&s->items[i]) & (cap - 1);
        while (s->slots[h])
            h = (h + 1) & (cap - 1);
        s->slots[h] = i + 1;
    }
}

/* The index of `key` among the first n keys of an indexed store, or -1. Entries appended after
 * a value was made (index >= n) are skipped: that value does not contain them. */
static int64_t index_find(const cel_store *s, uint32_t n, const cel_value *key, uint64_t h)
{
    uint32_t mask = s->nslots - 1;
    for (uint32_t i = (uint32_t)h & mask; s->slots[i]; i = (i + 1) & mask) {
        uint32_t k = s->slots[i] - 1;
        if (k < n && cel_equal(&s->items[k], key))
            return k;
    }
    return -1;
}

static int64_t index_find_str(const cel_store *s, uint32_t n, const char *key, size_t len)
{
    uint32_t mask = s->nslots - 1;
    for (uint32_t i = (uint32_t)str_hash(key, len) & mask; s->slots[i]; i = (i + 1) & mask) {
        uint32_t k = s->slots[i] - 1;
        const cel_value *kv = &s->items[k];
        if (k < n && kv->kind == CEL_STRING && kv->len == len && memcmp(kv->v.s, key, len) == 0)
            return k;
    }
    return -1;
}

/* Adds entry n (already written) to the index, growing it when it gets half full. */
static void index_add(rp_arena *a, cel_store *s, uint32_t n)
{
    if (!s->slots || ((uint64_t)n + 1) * 2 > s->nslots) {
        index_build(a, s, n + 1, (uint64_t)(n + 1) * 2);
        return;
    }
    uint32_t mask = s->nslots - 1;
    uint32_t h = (uint32_t)key_hash(&s->items[n]) & mask;
    while (s->slots[h])
        h = (h + 1) & mask;
    s->slots[h] = n + 1;
}

static cel_store *store_new(rp_arena *a, cel_value *items, cel_value *values, uint32_t len,
                            uint32_t cap)
{
    cel_store *s = rp_arena_alloc(a, sizeof *s);
    s->owner = a;
    s->items = items;
    s->values = values;
    s->len = len;
    s->cap = cap;
    s->slots = NULL;
    s->nslots = 0;
    return s;
}

/* Index of the first key equal to an earlier one, or -1. Small maps compare pairwise; larger
 * ones (a generated literal) build the hash index, kept in *store for lookups. */
static int64_t find_repeated_key(rp_arena *a, const cel_value *keys, const cel_value *values,
                                 uint32_t n, cel_store **store)
{
    *store = NULL;
    if (n <= MAP_INDEX_MIN) {
        for (uint32_t i = 1; i < n; i++)
            for (uint32_t k = 0; k < i; k++)
                if (cel_equal(&keys[k], &keys[i]))
                    return i;
        return -1;
    }
    /* The arrays were handed over by the caller (value.h): the store may own them. */
    cel_store *s = store_new(a, (cel_value *)keys, (cel_value *)values, n, n);
    index_build(a, s, 0, n);
    uint32_t mask = s->nslots - 1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t h = (uint32_t)key_hash(&keys[i]) & mask;
        for (; s->slots[h]; h = (h + 1) & mask)
            if (cel_equal(&keys[s->slots[h] - 1], &keys[i]))
                return i;
        s->slots[h] = i + 1;
    }
    *store = s;
    return -1;
}

static cel_value map_value(rp_arena *a, const cel_value *keys, const cel_value *values, uint32_t n,
                           cel_store *store)
{
    cel_map *m = rp_arena_alloc(a, sizeof *m);
    m->len = n;
    m->keys = keys;
    m->values = values;
    m->store = store;
    cel_value v = {.kind = CEL_MAP};
    v.v.map = m;
    return v;
}

cel_value cel_map_new(rp_arena *a, const cel_value *keys, const cel_value *values, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (!valid_key_kind(keys[i].kind))
            return cel_error_new(a, "unsupported key type: %s", cel_kind_type_name(&keys[i]));
    cel_store *store;
    int64_t dup = find_repeated_key(a, keys, values, n, &store);
    if (dup >= 0)
        return repeated_key(a, &keys[dup]);
    return map_value(a, keys, values, n, store);
}

/* The store x may append to in place, or NULL. */
static cel_store *appendable(const rp_arena *a, cel_store *s, uint32_t len, const cel_value *items)
{
    return s && s->owner == a && s->len == len && s->items == items ? s : NULL;
}

static bool too_big(uint64_t bytes, size_t max_bytes)
{
    return max_bytes && bytes > max_bytes;
}

static cel_value memory_error(rp_arena *a)
{
    return cel_error_new(a, "%s", CEL_MEMORY_LIMIT_ERROR);
}

/* Makes room for n entries in total (n > s->cap): doubles, copying the written entries.
 * False when that would allocate more than max_bytes. */
static bool store_grow(rp_arena *a, cel_store *s, uint32_t n, bool map, size_t max_bytes)
{
    uint64_t cap = (uint64_t)s->cap * 2;
    if (cap < n)
        cap = n;
    if (cap < 4)
        cap = 4;
    if (cap > UINT32_MAX)
        cap = UINT32_MAX;
    /* Maps: keys, values, and the index rebuilt at four slots per entry. */
    if (too_big(cap * (map ? 2 * sizeof(cel_value) + 16 : sizeof(cel_value)), max_bytes))
        return false;
    cel_value *items = rp_arena_alloc(a, sizeof *items * cap);
    memcpy(items, s->items, sizeof *items * s->len);
    s->items = items;
    if (map) {
        cel_value *values = rp_arena_alloc(a, sizeof *values * cap);
        memcpy(values, s->values, sizeof *values * s->len);
        s->values = values;
    }
    s->cap = (uint32_t)cap;
    return true;
}

cel_value cel_list_concat(rp_arena *a, const cel_value *x, const cel_value *y, size_t max_bytes)
{
    uint32_t nx = cel_list_size(x), ny = cel_list_size(y);
    if (nx == 0)
        return *y;
    if (ny == 0)
        return *x;
    if ((uint64_t)nx + ny > UINT32_MAX)
        return cel_error_new(a, "list too large");
    uint32_t n = nx + ny;
    cel_store *s = x->json ? NULL : appendable(a, x->v.list->store, nx, x->v.list->items);
    if (s) {
        if (n > s->cap && !store_grow(a, s, n, false, max_bytes))
            return memory_error(a);
    } else {
        /* A new buffer of exactly the size needed: growth starts at the next append. */
        if (too_big((uint64_t)n * sizeof(cel_value), max_bytes))
            return memory_error(a);
        s = store_new(a, rp_arena_alloc(a, sizeof(cel_value) * n), NULL, 0, n);
        for (uint32_t i = 0; i < nx; i++)
            s->items[i] = cel_list_at(x, i);
    }
    for (uint32_t i = 0; i < ny; i++)
        s->items[nx + i] = cel_list_at(y, i);
    s->len = n;
    cel_list *l = rp_arena_alloc(a, sizeof *l);
    l->len = n;
    l->items = s->items;
    l->store = s;
    cel_value v = {.kind = CEL_LIST};
    v.v.list = l;
    return v;
}

cel_value cel_map_insert(rp_arena *a, const cel_value *map, const cel_value *keys,
                         const cel_value *values, uint32_t n, size_t max_bytes)
{
    for (uint32_t i = 0; i < n; i++)
        if (!valid_key_kind(keys[i].kind))
            return cel_error_new(a, "unsupported key type: %s", cel_kind_type_name(&keys[i]));
    uint32_t len = cel_map_size(map);
    if ((uint64_t)len + n > UINT32_MAX)
        return cel_error_new(a, "map too large");
    uint32_t total = len + n;
    cel_store *s = map->json ? NULL : appendable(a, map->v.map->store, len, map->v.map->keys);
    if (s) {
        if (total > s->cap && !store_grow(a, s, total, true, max_bytes))
            return memory_error(a);
    } else {
        if (too_big((uint64_t)total * (2 * sizeof(cel_value) + 16), max_bytes))
            return memory_error(a);
        s = store_new(a, rp_arena_alloc(a, sizeof(cel_value) * (total ? total : 1)),
                      rp_arena_alloc(a, sizeof(cel_value) * (total ? total : 1)), 0, total);
        for (uint32_t i = 0; i < len; i++)
            cel_map_entry(map, i, &s->items[i], &s->values[i]);
        if (len > MAP_INDEX_MIN)
            index_build(a, s, len, total);
    }
    uint32_t cur = len;
    for (uint32_t i = 0; i < n; i++, cur++) {
        bool dup = false;
        if (s->slots) {
            dup = index_find(s, cur, &keys[i], key_hash(&keys[i])) >= 0;
        } else {
            for (uint32_t k = 0; k < cur && !dup; k++)
                dup = cel_equal(&s->items[k], &keys[i]);
        }
        if (dup) {
            s->len = cur;
            return repeated_key(a, &keys[i]);
        }
        s->items[cur] = keys[i];
        s->values[cur] = values[i];
        if (s->slots || cur + 1 > MAP_INDEX_MIN)
            index_add(a, s, cur);
    }
    s->len = total;
    return map_value(a, s->items, s->values, total, s);
}

/* ---- JSON ---- */

cel_value cel_from_json(const rp_json *j)
{
    cel_value v = {0};
    if (!j)
        return cel_null();
    switch (j->type) {
    case RP_JSON_NULL:
        return cel_null();
    case RP_JSON_BOOL:
        return cel_bool(j->v.b);
    case RP_JSON_INT:
        return cel_int(j->v.i);
    case RP_JSON_UINT:
        return cel_uint(j->v.u);
    case RP_JSON_DOUBLE:
        return cel_double(j->v.d);
    case RP_JSON_STRING:
        return cel_string_ref(j->v.s, j->len);
    case RP_JSON_ARRAY:
        v.kind = CEL_LIST;
        v.json = 1;
        v.v.json = j;
        return v;
    case RP_JSON_OBJECT:
        v.kind = CEL_MAP;
        v.json = 1;
        v.v.json = j;
        return v;
    }
    return cel_null();
}

static int json_fail(char *err, size_t err_size, const char *msg, const cel_value *v)
{
    if (err && err_size)
        snprintf(err, err_size, "%s%s", msg, v ? cel_kind_type_name(v) : "");
    return -1;
}

/* Depth of a JSON value (a scalar is 1); the reader bounds it by RP_JSON_MAX_DEPTH. */
static int json_depth(const rp_json *j)
{
    int deepest = 0;
    if (j->type == RP_JSON_ARRAY) {
        for (uint32_t i = 0; i < j->len; i++) {
            int d = json_depth(&j->v.items[i]);
            deepest = d > deepest ? d : deepest;
        }
    } else if (j->type == RP_JSON_OBJECT) {
        for (uint32_t i = 0; i < j->len; i++) {
            int d = json_depth(&j->v.members[i].value);
            deepest = d > deepest ? d : deepest;
        }
    }
    return deepest + 1;
}

static int to_json(rp_arena *a, const cel_value *v, rp_json *out, char *err, size_t err_size,
                   int depth, uint64_t *left);

int cel_to_json(rp_arena *a, const cel_value *v, rp_json *out, char *err, size_t err_size)
{
    uint64_t left = CEL_JSON_MAX_NODES;
    return to_json(a, v, out, err, err_size, 1, &left);
}

/* Charges the nodes of a JSON value against *left; false when they are more than that. */
static bool json_nodes_fit(const rp_json *j, uint64_t *left)
{
    if (*left == 0)
        return false;
    --*left;
    if (j->type == RP_JSON_ARRAY) {
        for (uint32_t i = 0; i < j->len; i++)
            if (!json_nodes_fit(&j->v.items[i], left))
                return false;
    } else if (j->type == RP_JSON_OBJECT) {
        for (uint32_t i = 0; i < j->len; i++)
            if (!json_nodes_fit(&j->v.members[i].value, left))
                return false;
    }
    return true;
}

#define JSON_TOO_LARGE "too large for JSON (more than 1000000 nodes)"

/* depth: the nesting level of v itself (1 at the top). Values deeper than CEL_JSON_MAX_DEPTH
 * are refused: stored state must stay readable by the JSON reader (RP_JSON_MAX_DEPTH) even
 * when it is nested inside the state object and lists. */
static int to_json(rp_arena *a, const cel_value *v, rp_json *out, char *err, size_t err_size,
                   int depth, uint64_t *left)
{
    if (depth > CEL_JSON_MAX_DEPTH)
        return json_fail(err, err_size, "value nested deeper than 128 levels", NULL);
    if (*left == 0)
        return json_fail(err, err_size, JSON_TOO_LARGE, NULL);
    --*left;
    switch ((cel_kind)v->kind) {
    case CEL_NULL:
        *out = rp_json_make_null();
        return 0;
    case CEL_BOOL:
        *out = rp_json_make_bool(v->v.b);
        return 0;
    case CEL_INT:
        *out = rp_json_make_int(v->v.i);
        return 0;
    case CEL_UINT:
        if (v->v.u <= (uint64_t)INT64_MAX) {
            *out = rp_json_make_int((int64_t)v->v.u);
        } else {
            memset(out, 0, sizeof *out);
            out->type = RP_JSON_UINT;
            out->v.u = v->v.u;
        }
        return 0;
    case CEL_DOUBLE:
        if (!isfinite(v->v.d))
            return json_fail(err, err_size, "JSON cannot represent a non-finite double", NULL);
        *out = rp_json_make_double(v->v.d);
        return 0;
    case CEL_STRING:
        *out = rp_json_make_stringn(a, v->v.s, v->len);
        return 0;
    case CEL_LIST: {
        if (v->json) {
            if (depth - 1 + json_depth(v->v.json) > CEL_JSON_MAX_DEPTH)
                return json_fail(err, err_size, "value nested deeper than 128 levels", NULL);
            ++*left; /* counted again below */
            if (!json_nodes_fit(v->v.json, left))
                return json_fail(err, err_size, JSON_TOO_LARGE, NULL);
            *out = rp_json_clone(a, v->v.json);
            return 0;
        }
        uint32_t n = v->v.list->len;
        rp_json arr = rp_json_make_array();
        arr.v.items = rp_arena_alloc(a, sizeof(rp_json) * (n ? n : 1));
        arr.len = arr.cap = n;
        for (uint32_t i = 0; i < n; i++)
            if (to_json(a, &v->v.list->items[i], &arr.v.items[i], err, err_size, depth + 1, left) !=
                0)
                return -1;
        *out = arr;
        return 0;
    }
    case CEL_MAP: {
        if (v->json) {
            if (depth - 1 + json_depth(v->v.json) > CEL_JSON_MAX_DEPTH)
                return json_fail(err, err_size, "value nested deeper than 128 levels", NULL);
            ++*left; /* counted again below */
            if (!json_nodes_fit(v->v.json, left))
                return json_fail(err, err_size, JSON_TOO_LARGE, NULL);
            *out = rp_json_clone(a, v->v.json);
            return 0;
        }
        const cel_map *m = v->v.map;
        rp_json obj = rp_json_make_object();
        obj.v.members = rp_arena_alloc(a, sizeof(rp_json_member) * (m->len ? m->len : 1));
        obj.len = obj.cap = m->len;
        for (uint32_t i = 0; i < m->len; i++) {
            if (m->keys[i].kind != CEL_STRING)
                return json_fail(err, err_size, "JSON object keys must be strings, not ",
                                 &m->keys[i]);
            rp_json_member *mem = &obj.v.members[i];
            mem->key = rp_arena_strndup(a, m->keys[i].v.s, m->keys[i].len);
            mem->key_len = m->keys[i].len;
            if (to_json(a, &m->values[i], &mem->value, err, err_size, depth + 1, left) != 0)
                return -1;
        }
        *out = obj;
        return 0;
    }
    default:
        return json_fail(err, err_size, "JSON cannot represent a value of type ", v);
    }
}

/* ---- lists and maps ---- */

uint32_t cel_list_size(const cel_value *list)
{
    return list->json ? list->v.json->len : list->v.list->len;
}

cel_value cel_list_at(const cel_value *list, uint32_t index)
{
    if (list->json)
        return cel_from_json(&list->v.json->v.items[index]);
    return list->v.list->items[index];
}

uint32_t cel_map_size(const cel_value *map)
{
    return map->json ? map->v.json->len : map->v.map->len;
}

void cel_map_entry(const cel_value *map, uint32_t index, cel_value *key, cel_value *value)
{
    if (map->json) {
        const rp_json_member *m = &map->v.json->v.members[index];
        if (key)
            *key = cel_string_ref(m->key, m->key_len);
        if (value)
            *value = cel_from_json(&m->value);
        return;
    }
    if (key)
        *key = map->v.map->keys[index];
    if (value)
        *value = map->v.map->values[index];
}

/* Object keys are short: a byte loop beats a call to memcmp. */
static bool keys_equal(const char *a, const char *b, size_t n)
{
    if (n > 16)
        return memcmp(a, b, n) == 0;
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

/* rp_json_getn's search (last duplicate wins), inlined because this is the hot path of every
 * `event.x.y` selection. */
static const rp_json *json_member(const rp_json *obj, const char *key, size_t key_len)
{
    for (uint32_t i = obj->len; i-- > 0;) {
        const rp_json_member *m = &obj->v.members[i];
        if (m->key_len == key_len && keys_equal(m->key, key, key_len))
            return &m->value;
    }
    return NULL;
}

uint32_t cel_map_get_path(const cel_value *map, const char *const *keys, const uint32_t *lens,
                          uint32_t n, cel_value *out, uint64_t *scanned)
{
    uint32_t found = 0;
    cel_value cur = *map;
    while (found < n && cur.kind == CEL_MAP) {
        if (cur.json) {
            /* Stay at the JSON level while the path goes through objects. */
            const rp_json *j = cur.v.json;
            while (found < n && j->type == RP_JSON_OBJECT) {
                *scanned += j->len;
                const rp_json *next = json_member(j, keys[found], lens[found]);
                if (!next)
                    break;
                j = next;
                found++;
            }
            if (j == cur.v.json)
                break; /* the first key is missing */
            cur = cel_from_json(j);
            continue;
        }
        cel_value next;
        if (!cel_map_get_str(&cur, keys[found], lens[found], &next))
            break;
        cur = next;
        found++;
    }
    if (found)
        *out = cur;
    return found;
}

bool cel_map_get_str(const cel_value *map, const char *key, size_t key_len, cel_value *out)
{
    if (map->json) {
        const rp_json *j = json_member(map->v.json, key, key_len);
        if (!j)
            return false;
        if (out)
            *out = cel_from_json(j);
        return true;
    }
    const cel_map *m = map->v.map;
    if (m->store && m->store->slots) {
        int64_t k = index_find_str(m->store, m->len, key, key_len);
        if (k >= 0 && out)
            *out = m->values[k];
        return k >= 0;
    }
    for (uint32_t i = 0; i < m->len; i++) {
        const cel_value *k = &m->keys[i];
        if (k->kind == CEL_STRING && k->len == key_len && memcmp(k->v.s, key, key_len) == 0) {
            if (out)
                *out = m->values[i];
            return true;
        }
    }
    return false;
}

bool cel_map_get(const cel_value *map, const cel_value *key, cel_value *out)
{
    if (key->kind == CEL_STRING)
        return cel_map_get_str(map, key->v.s, key->len, out);
    if (map->json)
        return false; /* JSON objects only have string keys */
    const cel_map *m = map->v.map;
    if (key->kind != CEL_INT && key->kind != CEL_UINT && key->kind != CEL_DOUBLE &&
        key->kind != CEL_BOOL)
        return false;
    if (m->store && m->store->slots && key->kind != CEL_DOUBLE) {
        int64_t k = index_find(m->store, m->len, key, key_hash(key));
        if (k >= 0 && out)
            *out = m->values[k];
        return k >= 0;
    }
    for (uint32_t i = 0; i < m->len; i++) {
        if (m->keys[i].kind != CEL_STRING && cel_equal(&m->keys[i], key)) {
            if (out)
                *out = m->values[i];
            return true;
        }
    }
    return false;
}

/* ---- comparison ---- */

static int cmp_i64(int64_t a, int64_t b)
{
    return (a > b) - (a < b);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
    return (a > b) - (a < b);
}

static int cmp_dbl(double a, double b)
{
    return (a > b) - (a < b);
}

/* An int or uint against a (non-NaN) double, as cel-go compares them (the conformance tests
 * are written against it): outside the integer type's range the double decides, inside it the
 * integer is converted to double. So 2^63 - 1 == 2^63 (as a double); beyond 2^53 this is the
 * lossy comparison the spec's tests expect (e.g. "not_lt_dyn_int_big_lossy_double"). */
static int cmp_int_double(int64_t i, double d)
{
    if (d < -9223372036854775808.0)
        return 1;
    if (d > 9223372036854775808.0)
        return -1;
    return cmp_dbl((double)i, d);
}

static int cmp_uint_double(uint64_t u, double d)
{
    if (d < 0)
        return 1;
    if (d > 18446744073709551616.0)
        return -1;
    return cmp_dbl((double)u, d);
}

static bool is_number(uint8_t kind)
{
    return kind == CEL_INT || kind == CEL_UINT || kind == CEL_DOUBLE;
}

/* -2 when a NaN makes the numbers incomparable. */
static int cmp_numbers(const cel_value *a, const cel_value *b)
{
    if ((a->kind == CEL_DOUBLE && isnan(a->v.d)) || (b->kind == CEL_DOUBLE && isnan(b->v.d)))
        return -2;
    switch (a->kind) {
    case CEL_INT:
        if (b->kind == CEL_INT)
            return cmp_i64(a->v.i, b->v.i);
        if (b->kind == CEL_UINT)
            return a->v.i < 0 ? -1 : cmp_u64((uint64_t)a->v.i, b->v.u);
        return cmp_int_double(a->v.i, b->v.d);
    case CEL_UINT:
        if (b->kind == CEL_UINT)
            return cmp_u64(a->v.u, b->v.u);
        if (b->kind == CEL_INT)
            return b->v.i < 0 ? 1 : cmp_u64(a->v.u, (uint64_t)b->v.i);
        return cmp_uint_double(a->v.u, b->v.d);
    default:
        if (b->kind == CEL_DOUBLE)
            return cmp_dbl(a->v.d, b->v.d);
        if (b->kind == CEL_INT)
            return -cmp_int_double(b->v.i, a->v.d);
        return -cmp_uint_double(b->v.u, a->v.d);
    }
}

static int cmp_bytes(const char *a, uint32_t alen, const char *b, uint32_t blen)
{
    uint32_t n = alen < blen ? alen : blen;
    int c = n ? memcmp(a, b, n) : 0;
    if (c)
        return c < 0 ? -1 : 1;
    return cmp_u64(alen, blen);
}

static int cmp_time(const cel_value *a, const cel_value *b)
{
    int c = cmp_i64(a->v.t.sec, b->v.t.sec);
    return c ? c : cmp_i64(a->v.t.nsec, b->v.t.nsec);
}

static int equal_at(const cel_value *a, const cel_value *b, uint64_t *left);

static int lists_equal(const cel_value *a, const cel_value *b, uint64_t *left)
{
    uint32_t n = cel_list_size(a);
    if (n != cel_list_size(b))
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        cel_value x = cel_list_at(a, i), y = cel_list_at(b, i);
        int eq = equal_at(&x, &y, left);
        if (eq != 1)
            return eq;
    }
    return 1;
}

static int maps_equal(const cel_value *a, const cel_value *b, uint64_t *left)
{
    uint32_t n = cel_map_size(a);
    if (n != cel_map_size(b))
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        cel_value k, va, vb;
        cel_map_entry(a, i, &k, &va);
        if (!cel_map_get(b, &k, &vb))
            return 0;
        int eq = equal_at(&va, &vb, left);
        if (eq != 1)
            return eq;
    }
    return 1;
}

bool cel_equal(const cel_value *a, const cel_value *b)
{
    uint64_t unlimited = UINT64_MAX;
    return equal_at(a, b, &unlimited) == 1;
}

int cel_equal_bounded(const cel_value *a, const cel_value *b, uint64_t *left)
{
    return equal_at(a, b, left);
}

/* 1 equal, 0 not, -1 when *left ran out: every value visited costs one unit. */
static int equal_at(const cel_value *a, const cel_value *b, uint64_t *left)
{
    if (*left == 0)
        return -1;
    --*left;
    if (is_number(a->kind) && is_number(b->kind))
        return cmp_numbers(a, b) == 0;
    if (a->kind != b->kind)
        return false;
    switch ((cel_kind)a->kind) {
    case CEL_NULL:
        return true;
    case CEL_BOOL:
        return a->v.b == b->v.b;
    case CEL_STRING:
    case CEL_BYTES:
        return a->len == b->len && (a->len == 0 || memcmp(a->v.s, b->v.s, a->len) == 0);
    case CEL_LIST:
        return lists_equal(a, b, left);
    case CEL_MAP:
        return maps_equal(a, b, left);
    case CEL_TIMESTAMP:
    case CEL_DURATION:
        return a->v.t.sec == b->v.t.sec && a->v.t.nsec == b->v.t.nsec;
    case CEL_TYPE:
        return strcmp(a->v.type_name, b->v.type_name) == 0;
    case CEL_OPTIONAL:
        if (!a->v.opt || !b->v.opt)
            return a->v.opt == b->v.opt;
        return equal_at(a->v.opt, b->v.opt, left);
    case CEL_ERROR:
    case CEL_UNKNOWN:
        return a == b;
    default:
        return false;
    }
}

int cel_compare(const cel_value *a, const cel_value *b, int *cmp)
{
    if (is_number(a->kind) && is_number(b->kind)) {
        int c = cmp_numbers(a, b);
        if (c == -2)
            return 1;
        *cmp = c;
        return 0;
    }
    if (a->kind != b->kind)
        return -1;
    switch ((cel_kind)a->kind) {
    case CEL_BOOL:
        *cmp = (int)a->v.b - (int)b->v.b;
        return 0;
    case CEL_STRING:
    case CEL_BYTES:
        /* Byte order of UTF-8 is code point order. */
        *cmp = cmp_bytes(a->v.s, a->len, b->v.s, b->len);
        return 0;
    case CEL_TIMESTAMP:
    case CEL_DURATION:
        *cmp = cmp_time(a, b);
        return 0;
    default:
        return -1;
    }
}

/* ---- names and printing ---- */

const char *cel_kind_type_name(const cel_value *v)
{
    switch ((cel_kind)v->kind) {
    case CEL_NULL:
        return "null_type";
    case CEL_BOOL:
        return "bool";
    case CEL_INT:
        return "int";
    case CEL_UINT:
        return "uint";
    case CEL_DOUBLE:
        return "double";
    case CEL_STRING:
        return "string";
    case CEL_BYTES:
        return "bytes";
    case CEL_LIST:
        return "list";
    case CEL_MAP:
        return "map";
    case CEL_TIMESTAMP:
        return "google.protobuf.Timestamp";
    case CEL_DURATION:
        return "google.protobuf.Duration";
    case CEL_TYPE:
        return "type";
    case CEL_OPTIONAL:
        return "optional_type";
    case CEL_ERROR:
        return "error";
    case CEL_UNKNOWN:
        return "unknown";
    }
    return "unknown";
}

static void format_double(rp_buf *out, double d)
{
    if (isnan(d)) {
        rp_buf_puts(out, "NaN");
        return;
    }
    if (isinf(d)) {
        rp_buf_puts(out, d > 0 ? "+infinity" : "-infinity");
        return;
    }
    /* The shortest %g text that reads back to the same double. */
    char tmp[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, d);
        if (strtod(tmp, NULL) == d)
            break;
    }
    rp_buf_puts(out, tmp);
    if (!strpbrk(tmp, ".eEn"))
        rp_buf_puts(out, ".0");
}

void cel_format_quoted(rp_buf *out, const char *s, size_t len, bool bytes)
{
    if (bytes)
        rp_buf_putc(out, 'b');
    rp_buf_putc(out, '"');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"':
            rp_buf_puts(out, "\\\"");
            break;
        case '\\':
            rp_buf_puts(out, "\\\\");
            break;
        case '\n':
            rp_buf_puts(out, "\\n");
            break;
        case '\r':
            rp_buf_puts(out, "\\r");
            break;
        case '\t':
            rp_buf_puts(out, "\\t");
            break;
        default:
            /* Strings pass UTF-8 through; bytes show anything non-ASCII as \xNN. */
            if (c < 0x20 || c == 0x7f || (bytes && c >= 0x80))
                rp_buf_printf(out, "\\x%02x", c);
            else
                rp_buf_putc(out, (char)c);
        }
    }
    rp_buf_putc(out, '"');
}

/* Fraction digits of nanoseconds: 0, 3, 6 or 9 as needed. */
static void format_nanos(rp_buf *out, int32_t ns)
{
    if (ns == 0)
        return;
    if (ns % 1000000 == 0)
        rp_buf_printf(out, ".%03d", ns / 1000000);
    else if (ns % 1000 == 0)
        rp_buf_printf(out, ".%06d", ns / 1000);
    else
        rp_buf_printf(out, ".%09d", ns);
}

static void format_duration(rp_buf *out, int64_t sec, int32_t nsec)
{
    bool neg = sec < 0 || nsec < 0;
    uint64_t s = sec < 0 ? (uint64_t)0 - (uint64_t)sec : (uint64_t)sec;
    int32_t ns = nsec < 0 ? -nsec : nsec;
    rp_buf_printf(out, "%s%" PRIu64, neg ? "-" : "", s);
    format_nanos(out, ns);
    rp_buf_putc(out, 's');
}

void cel_value_format(rp_buf *out, const cel_value *v)
{
    if (out->len >= CEL_FORMAT_MAX_BYTES)
        return; /* a list built by sharing can print exponentially long */
    switch ((cel_kind)v->kind) {
    case CEL_NULL:
        rp_buf_puts(out, "null");
        break;
    case CEL_BOOL:
        rp_buf_puts(out, v->v.b ? "true" : "false");
        break;
    case CEL_INT:
        rp_buf_printf(out, "%" PRId64, v->v.i);
        break;
    case CEL_UINT:
        rp_buf_printf(out, "%" PRIu64 "u", v->v.u);
        break;
    case CEL_DOUBLE:
        format_double(out, v->v.d);
        break;
    case CEL_STRING:
        cel_format_quoted(out, v->v.s, v->len, false);
        break;
    case CEL_BYTES:
        cel_format_quoted(out, v->v.s, v->len, true);
        break;
    case CEL_LIST: {
        rp_buf_putc(out, '[');
        uint32_t n = cel_list_size(v);
        for (uint32_t i = 0; i < n; i++) {
            cel_value e = cel_list_at(v, i);
            if (i)
                rp_buf_puts(out, ", ");
            cel_value_format(out, &e);
        }
        rp_buf_putc(out, ']');
        break;
    }
    case CEL_MAP: {
        rp_buf_putc(out, '{');
        uint32_t n = cel_map_size(v);
        for (uint32_t i = 0; i < n; i++) {
            cel_value k, e;
            cel_map_entry(v, i, &k, &e);
            if (i)
                rp_buf_puts(out, ", ");
            cel_value_format(out, &k);
            rp_buf_puts(out, ": ");
            cel_value_format(out, &e);
        }
        rp_buf_putc(out, '}');
        break;
    }
    case CEL_TIMESTAMP:
        rp_buf_puts(out, "timestamp(\"");
        cel_timestamp_format(out, v->v.t.sec, v->v.t.nsec);
        rp_buf_puts(out, "\")");
        break;
    case CEL_DURATION:
        rp_buf_puts(out, "duration(\"");
        format_duration(out, v->v.t.sec, v->v.t.nsec);
        rp_buf_puts(out, "\")");
        break;
    case CEL_TYPE:
        rp_buf_puts(out, v->v.type_name);
        break;
    case CEL_OPTIONAL:
        if (!v->v.opt) {
            rp_buf_puts(out, "optional.none()");
        } else {
            rp_buf_puts(out, "optional.of(");
            cel_value_format(out, v->v.opt);
            rp_buf_putc(out, ')');
        }
        break;
    case CEL_ERROR:
        rp_buf_printf(out, "error: %s", v->v.err->message);
        break;
    case CEL_UNKNOWN:
        rp_buf_puts(out, "unknown{");
        for (uint32_t i = 0; i < v->v.unk->n; i++)
            rp_buf_printf(out, "%s%" PRId64, i ? ", " : "", v->v.unk->expr_ids[i]);
        rp_buf_putc(out, '}');
        break;
    }
}
