/* json.h — rampart's JSON reader, value model and writers.
 *
 * Values live in an rp_arena. Numbers keep what they were written as: an integer literal is an
 * exact int64 (RP_JSON_INT) or, above INT64_MAX, uint64 (RP_JSON_UINT); a literal with a fraction
 * or exponent is a double (RP_JSON_DOUBLE), so `1` and `1.0` stay distinct. An integer literal
 * beyond uint64 range becomes a double (as Python would give an int, but we cannot; documented).
 *
 * Strings are decoded UTF-8, NUL-terminated for convenience, with an explicit length because
 * JSON strings may contain U+0000. Object members keep their input order; lookups search from
 * the end so that the last duplicate key wins, as in Python's json module.
 *
 * The reader is strict RFC 8259: no comments, no trailing commas, no NaN/Infinity literals, no
 * leading zeros, control characters in strings rejected, invalid UTF-8 rejected, lone UTF-16
 * surrogate escapes rejected, nesting deeper than RP_JSON_MAX_DEPTH rejected, trailing
 * non-whitespace rejected. */
#ifndef RAMPART_CORE_JSON_H
#define RAMPART_CORE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/buf.h"

/* The reader recurses once per level, and so do the walkers over what it returns (writer,
 * clone, equality, Python repr, CEL conversion): this bounds their stack use (~256 frames) on
 * any input; real payloads nest a few dozen levels at most. */
#define RP_JSON_MAX_DEPTH 256

typedef enum rp_json_type {
    RP_JSON_NULL = 0,
    RP_JSON_BOOL,
    RP_JSON_INT,    /* v.i */
    RP_JSON_UINT,   /* v.u, only for values > INT64_MAX */
    RP_JSON_DOUBLE, /* v.d */
    RP_JSON_STRING, /* v.s, len bytes, NUL-terminated */
    RP_JSON_ARRAY,  /* v.items[0..len) */
    RP_JSON_OBJECT  /* v.members[0..len) */
} rp_json_type;

typedef struct rp_json rp_json;
typedef struct rp_json_member rp_json_member;

struct rp_json {
    rp_json_type type;
    uint32_t len; /* string bytes, array items or object members */
    uint32_t cap; /* allocated items/members (builders); 0 for parsed values is fine */
    union {
        bool b;
        int64_t i;
        uint64_t u;
        double d;
        const char *s;
        rp_json *items;
        rp_json_member *members;
    } v;
};

struct rp_json_member {
    const char *key; /* NUL-terminated */
    uint32_t key_len;
    rp_json value;
};

typedef struct rp_json_error {
    size_t offset; /* byte offset of the problem */
    int line;      /* 1-based */
    int col;       /* 1-based, in bytes */
    char msg[128];
} rp_json_error;

/* ---- reading ---- */

/* Parses exactly one JSON value (surrounding whitespace allowed). NULL on error, with *err set. */
rp_json *rp_json_parse(rp_arena *a, const char *text, size_t len, rp_json_error *err);

/* ---- inspecting (all accept NULL and wrong types, returning "absent") ---- */

const rp_json *rp_json_get(const rp_json *obj, const char *key); /* NULL unless obj is an object */
const rp_json *rp_json_getn(const rp_json *obj, const char *key, size_t key_len);
/* obj.key when it is a string, else NULL. */
const char *rp_json_get_str(const rp_json *obj, const char *key);
/* Walks a dotted path of object keys, e.g. "context.actor.run_as". */
const rp_json *rp_json_path(const rp_json *root, const char *dotted);
const rp_json *rp_json_at(const rp_json *arr, size_t index); /* NULL unless in range */

bool rp_json_is_object(const rp_json *v);
bool rp_json_is_array(const rp_json *v);
bool rp_json_is_string(const rp_json *v);
bool rp_json_is_number(const rp_json *v); /* INT, UINT or DOUBLE (not bool) */
bool rp_json_is_integer(const rp_json *v); /* INT or UINT */
const char *rp_json_str(const rp_json *v); /* v->v.s when a string, else NULL */
/* Numeric value as double (INT, UINT, DOUBLE; never bool). */
bool rp_json_number(const rp_json *v, double *out);
/* Python truthiness: null, false, 0, 0.0, "", [], {} are false; NULL is false. */
bool rp_json_truthy(const rp_json *v);
/* Deep equality. Numbers compare by value across kinds (1 == 1.0) when numeric_loose,
 * otherwise the kind must match too. Object member order does not matter. */
bool rp_json_equal(const rp_json *a, const rp_json *b, bool numeric_loose);
const char *rp_json_type_name(rp_json_type t); /* "null", "bool", "integer", ... */

/* ---- building (values and their storage come from the arena) ---- */

rp_json rp_json_make_null(void);
rp_json rp_json_make_bool(bool b);
rp_json rp_json_make_int(int64_t i);
rp_json rp_json_make_double(double d);
rp_json rp_json_make_string(rp_arena *a, const char *s);             /* copies */
rp_json rp_json_make_stringn(rp_arena *a, const char *s, size_t n);  /* copies */
rp_json rp_json_make_string_ref(const char *s);  /* no copy: s must outlive the value */
rp_json rp_json_make_array(void);
rp_json rp_json_make_object(void);
rp_json *rp_json_new(rp_arena *a, rp_json value); /* copies the struct into the arena */

void rp_json_array_push(rp_arena *a, rp_json *arr, rp_json value);
/* Sets key (copied) to value, replacing an existing member of that key in place. */
void rp_json_object_set(rp_arena *a, rp_json *obj, const char *key, rp_json value);
/* Removes every member named key; returns whether one existed. */
bool rp_json_object_delete(rp_json *obj, const char *key);
/* Deep copy into arena a (so the result is independent of the source's arena). */
rp_json rp_json_clone(rp_arena *a, const rp_json *v);

/* ---- writing ---- */

/* Compact JSON (no spaces), members in order, UTF-8 passed through, "/" not escaped, control
 * characters as \uXXXX (\n \t \r \b \f \" \\ short forms). Doubles print as the shortest text
 * that reads back to the same double, always with a '.' or exponent so the kind survives
 * (1.0, 1e-05); NaN and infinities, which JSON cannot carry, print as null. */
void rp_json_write(rp_buf *out, const rp_json *v);
/* Same, with each key sorted by code point (for stable, canonical output). */
void rp_json_write_sorted(rp_buf *out, const rp_json *v);
/* Byte-exact json.dumps(v, sort_keys=True) of Python 3: separators ", " and ": ",
 * ensure_ascii (\uXXXX, surrogate pairs above U+FFFF), floats as Python repr (1.0, 1e-05,
 * 1e+16, NaN, Infinity, -Infinity). detect_loop hashes this text. */
void rp_json_write_python(rp_buf *out, const rp_json *v);
/* A JSON string literal of s[0..n). */
void rp_json_write_string(rp_buf *out, const char *s, size_t n);
/* Convenience: compact text in the arena. */
char *rp_json_to_string(rp_arena *a, const rp_json *v);

#endif
