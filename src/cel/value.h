/* value.h — CEL runtime values.
 *
 * A cel_value is a small struct passed by value (24 bytes). Scalars are stored inline; strings,
 * bytes, lists, maps, errors and unknowns point into an arena (the evaluation's, or the
 * program's for constants) and are never modified after construction.
 *
 * Lists and maps have two representations, chosen by `json`:
 *   - native (json == 0): v.list / v.map point to arrays built by the evaluator;
 *   - JSON-backed (json == 1): v.json points to an rp_json array/object, and elements are
 *     converted on access without allocation (objects → maps with string keys, arrays → lists,
 *     an integer literal → int, or uint beyond INT64_MAX, a literal with a fraction or exponent →
 *     double). This is how an event reaches CEL without being copied.
 * Code outside value.c never looks inside a list or map: it uses the accessors below.
 *
 * Strings are valid UTF-8 (the parser and every constructor of a string from bytes check it);
 * `len` is in bytes; they are not necessarily NUL-terminated. */
#ifndef RAMPART_CEL_VALUE_H
#define RAMPART_CEL_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"

typedef enum cel_kind {
    CEL_NULL = 0,
    CEL_BOOL,
    CEL_INT,
    CEL_UINT,
    CEL_DOUBLE,
    CEL_STRING,
    CEL_BYTES,
    CEL_LIST,
    CEL_MAP,
    CEL_TIMESTAMP, /* v.t: seconds since the Unix epoch (UTC) and nanoseconds [0, 1e9) */
    CEL_DURATION,  /* v.t: seconds and nanoseconds, both with the sign of the duration */
    CEL_TYPE,      /* v.type_name: "int", "list", "google.protobuf.Timestamp", ... */
    CEL_OPTIONAL,  /* v.opt: the wrapped value, NULL for optional.none() */
    CEL_ERROR,     /* v.err */
    CEL_UNKNOWN    /* v.unk */
} cel_kind;

typedef struct cel_value cel_value;
typedef struct cel_list cel_list;
typedef struct cel_map cel_map;

typedef struct cel_error {
    const char *message; /* NUL-terminated, e.g. "no such overload: _+_(int, string)" */
} cel_error;

typedef struct cel_unknown {
    const int64_t *expr_ids; /* ids of the expressions whose value is unknown */
    uint32_t n;
} cel_unknown;

struct cel_value {
    uint8_t kind; /* cel_kind */
    uint8_t json; /* CEL_LIST/CEL_MAP only: 1 = backed by v.json */
    uint32_t len; /* CEL_STRING/CEL_BYTES: byte length */
    union {
        bool b;
        int64_t i;
        uint64_t u;
        double d;
        const char *s; /* string and bytes data */
        const cel_list *list;
        const cel_map *map;
        const rp_json *json;
        struct {
            int64_t sec;
            int32_t nsec;
        } t;
        const char *type_name;
        const cel_value *opt;
        const cel_error *err;
        const cel_unknown *unk;
    } v;
};

/* Native list and map storage (value.c builds them; read them through the accessors).
 *
 * `store`, when set, is the growable buffer the entries live in (private to value.c): a value
 * sees only its first `len` entries, so cel_list_concat and cel_map_insert can append after them
 * in place (amortised, no copy) when nothing was appended to the buffer since, and older values
 * keep their contents. For big maps it also holds a hash index over the keys. */
struct cel_store;

struct cel_list {
    uint32_t len;
    const cel_value *items;
    struct cel_store *store;
};

struct cel_map {
    uint32_t len;
    const cel_value *keys; /* int, uint, bool or string */
    const cel_value *values;
    struct cel_store *store;
};

/* ---- constructors (no allocation) ---- */

static inline cel_value cel_null(void)
{
    cel_value v = {.kind = CEL_NULL};
    return v;
}
static inline cel_value cel_bool(bool b)
{
    cel_value v = {.kind = CEL_BOOL};
    v.v.b = b;
    return v;
}
static inline cel_value cel_int(int64_t i)
{
    cel_value v = {.kind = CEL_INT};
    v.v.i = i;
    return v;
}
static inline cel_value cel_uint(uint64_t u)
{
    cel_value v = {.kind = CEL_UINT};
    v.v.u = u;
    return v;
}
static inline cel_value cel_double(double d)
{
    cel_value v = {.kind = CEL_DOUBLE};
    v.v.d = d;
    return v;
}
/* s must be valid UTF-8 and outlive the value (no copy). */
static inline cel_value cel_string_ref(const char *s, size_t len)
{
    cel_value v = {.kind = CEL_STRING, .len = (uint32_t)len};
    v.v.s = s;
    return v;
}
static inline cel_value cel_bytes_ref(const char *s, size_t len)
{
    cel_value v = {.kind = CEL_BYTES, .len = (uint32_t)len};
    v.v.s = s;
    return v;
}
static inline cel_value cel_type(const char *type_name)
{
    cel_value v = {.kind = CEL_TYPE};
    v.v.type_name = type_name;
    return v;
}
static inline cel_value cel_timestamp(int64_t sec, int32_t nsec)
{
    cel_value v = {.kind = CEL_TIMESTAMP};
    v.v.t.sec = sec;
    v.v.t.nsec = nsec;
    return v;
}
static inline cel_value cel_duration(int64_t sec, int32_t nsec)
{
    cel_value v = {.kind = CEL_DURATION};
    v.v.t.sec = sec;
    v.v.t.nsec = nsec;
    return v;
}
static inline cel_value cel_optional_none(void)
{
    cel_value v = {.kind = CEL_OPTIONAL};
    v.v.opt = NULL;
    return v;
}
static inline bool cel_is_error(const cel_value *v)
{
    return v->kind == CEL_ERROR;
}
static inline bool cel_is_unknown(const cel_value *v)
{
    return v->kind == CEL_UNKNOWN;
}
/* Error or unknown: the value a strict function returns unchanged. */
static inline bool cel_is_exceptional(const cel_value *v)
{
    return v->kind == CEL_ERROR || v->kind == CEL_UNKNOWN;
}

/* ---- constructors that allocate from the arena ---- */

cel_value cel_string_copy(rp_arena *a, const char *s, size_t len); /* s must be valid UTF-8 */
cel_value cel_bytes_copy(rp_arena *a, const char *s, size_t len);
/* A string from bytes that may not be UTF-8: an error value when they are not. */
cel_value cel_string_from_bytes(rp_arena *a, const char *s, size_t len);
cel_value cel_optional_of(rp_arena *a, cel_value inner);
cel_value cel_error_new(rp_arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The standard "no such overload" error, naming the function and the argument kinds. */
cel_value cel_error_no_overload(rp_arena *a, const char *function, const cel_value *args,
                                uint32_t nargs);
cel_value cel_unknown_new(rp_arena *a, const int64_t *ids, uint32_t n);
/* The union of two unknowns (used when both sides of an operator are unknown). */
cel_value cel_unknown_merge(rp_arena *a, const cel_value *x, const cel_value *y);

/* Lists and maps take ownership of arena arrays the caller built (no copy). */
cel_value cel_list_new(rp_arena *a, const cel_value *items, uint32_t n);
/* Returns an error value ("Failed with repeated key") when two keys are equal, and for a key
 * that is not int, uint, bool or string ("unsupported key type"). */
cel_value cel_map_new(rp_arena *a, const cel_value *keys, const cel_value *values, uint32_t n);
/* The error message of an evaluation that passes its memory limit (cel.h). */
#define CEL_MEMORY_LIMIT_ERROR "evaluation memory limit exceeded"

/* x + y for two lists. Appends in place after x when x is the newest value of a growable
 * buffer of this arena (the `@result + [e]` step of map and filter), so that accumulating n
 * elements costs O(n), not O(n^2); otherwise copies into a new growable buffer. An allocation
 * of more than max_bytes (0 = no limit) is refused with the CEL_MEMORY_LIMIT_ERROR error. */
cel_value cel_list_concat(rp_arena *a, const cel_value *x, const cel_value *y, size_t max_bytes);
/* `map` plus n entries (keys must not be present yet: "Failed with repeated key" otherwise),
 * appending in place like cel_list_concat (transformMap's `cel.@mapInsert` step). */
cel_value cel_map_insert(rp_arena *a, const cel_value *map, const cel_value *keys,
                         const cel_value *values, uint32_t n, size_t max_bytes);

/* A JSON value as CEL, without copying (see the header comment). */
cel_value cel_from_json(const rp_json *j);
/* CEL → JSON, for state updates and output. Maps need string keys; bytes, timestamps,
 * durations, types, optionals, errors and unknowns cannot be represented: returns -1 and a
 * message in err. Doubles that are NaN or infinite are rejected too, and so are values nested
 * deeper than CEL_JSON_MAX_DEPTH (a value stored in session state must stay readable). */
#define CEL_JSON_MAX_DEPTH 128
/* ... and values of more than CEL_JSON_MAX_NODES nodes: lists built by sharing
 * (cel.bind(a1, [a0, a0], ...)) are exponentially larger than the expression that made them. */
#define CEL_JSON_MAX_NODES 1000000
int cel_to_json(rp_arena *a, const cel_value *v, rp_json *out, char *err, size_t err_size);

/* ---- lists and maps (both representations) ---- */

uint32_t cel_list_size(const cel_value *list);
cel_value cel_list_at(const cel_value *list, uint32_t index); /* index < size */
uint32_t cel_map_size(const cel_value *map);
/* Entry `index` in insertion order (index < size). */
void cel_map_entry(const cel_value *map, uint32_t index, cel_value *key, cel_value *value);
/* Lookup with CEL's heterogeneous numeric keys (1, 1u and 1.0 find the same entry). Returns
 * false when absent. */
bool cel_map_get(const cel_value *map, const cel_value *key, cel_value *out);
bool cel_map_get_str(const cel_value *map, const char *key, size_t key_len, cel_value *out);
/* Follows string keys through nested maps: *out = map[keys[0]][keys[1]]...; returns how many
 * keys were found in a row (n when all were), *out being the value the last one reached.
 * Stops at a missing key or a value that is not a map. Allocation-free; on JSON-backed maps
 * it walks the JSON directly (the `event.data.name` path). Adds to *scanned the members of
 * the JSON objects it searched (a JSON lookup is a linear scan). */
uint32_t cel_map_get_path(const cel_value *map, const char *const *keys, const uint32_t *lens,
                          uint32_t n, cel_value *out, uint64_t *scanned);

/* ---- comparison ---- */

/* CEL equality of two non-exceptional values: heterogeneous numeric equality (1 == 1u == 1.0),
 * NaN != NaN, lists and maps element-wise, values of different kinds unequal. */
bool cel_equal(const cel_value *a, const cel_value *b);
/* The same with a budget: every value visited costs one unit of *left; returns 1 (equal), 0
 * (not) or -1 when the budget ran out. Lists built by sharing (cel.bind(a1, [a0, a0], ...)) can
 * be exponentially larger than the expression that made them, so the evaluator compares with
 * what is left of its iteration budget. */
int cel_equal_bounded(const cel_value *a, const cel_value *b, uint64_t *left);
/* Ordering for <, <=, >, >=: sets *cmp to -1/0/1 and returns 0; returns 1 when the values are
 * ordered but incomparable (a NaN operand: every comparison is false); returns -1 when the
 * kinds cannot be ordered (no such overload). Numbers compare across int/uint/double. */
int cel_compare(const cel_value *a, const cel_value *b, int *cmp);

/* ---- names and printing ---- */

/* The CEL type name of the value's kind: "int", "map", "google.protobuf.Timestamp",
 * "optional_type", "type", "null_type", ... */
const char *cel_kind_type_name(const cel_value *v);
/* A readable rendering for the CLI and messages: 1, 2u, 3.5, "s", b"\x01", [1, 2],
 * {"a": 1}, timestamp("2024-01-01T00:00:00Z"), duration("1.5s"), int, optional.of(1),
 * optional.none(), error: <message>. Map entries in insertion order. */
/* Output stops growing (values are skipped) once it holds CEL_FORMAT_MAX_BYTES: a list built
 * by sharing can print exponentially long. */
#define CEL_FORMAT_MAX_BYTES (16u << 20)
void cel_value_format(rp_buf *out, const cel_value *v);
/* A string or bytes literal as CEL would read it back: "a\"b", b"\xff" (UTF-8 text passes
 * through in strings; control characters, and in bytes everything non-ASCII, as \xNN). */
void cel_format_quoted(rp_buf *out, const char *s, size_t len, bool bytes);

#endif
