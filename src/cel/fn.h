/* fn.h — how CEL functions are implemented and found.
 *
 * Each library file (lib_*.c) exports a table of cel_function, terminated by an entry whose
 * name is NULL. A function is one name; its implementation dispatches on the kinds of its
 * arguments itself and returns cel_error_no_overload() when they do not match any overload.
 * For a receiver call x.f(a, b) the implementation gets args = {x, a, b}.
 *
 * Implementations are strict: the evaluator never calls one with an error or unknown argument
 * (it returns that argument instead), except for functions flagged CEL_FN_NON_STRICT.
 * Everything returned is allocated from call->arena. */
#ifndef RAMPART_CEL_FN_H
#define RAMPART_CEL_FN_H

#include <stdbool.h>
#include <stdint.h>

#include "cel/value.h"

enum {
    CEL_FN_GLOBAL = 1,     /* callable as f(x, ...) */
    CEL_FN_RECEIVER = 2,   /* callable as x.f(...) */
    CEL_FN_NON_STRICT = 4  /* receives error/unknown arguments too */
};

typedef struct cel_call {
    rp_arena *arena;
    const void *prepared; /* the call site's prepared data (fn->prepare), or NULL */
    int64_t expr_id;      /* the call's node id, for unknowns */
    /* Bytes the call may still allocate before the evaluation's memory limit (cel.h). A
     * function whose output size depends on the data checks it before allocating, with
     * cel_call_exceeds(), and returns cel_memory_error(). 0 = no limit (a call made outside
     * the evaluator); the evaluator passes at least 1. */
    size_t mem_left;
    /* Out: work proportional to the data the call did, in bytes scanned or produced (a list
     * element or map entry counts as 64). The evaluator charges it to the iteration budget
     * (1024 per iteration), so that a linear function in a loop over big data is bounded like
     * a nested loop. Functions whose work is independent of their input leave it alone. */
    uint64_t work;
} cel_call;

#define CEL_WORK_PER_ELEMENT 64

/* Whether allocating `bytes` (in total, for one result) would pass the call's allowance. */
static inline bool cel_call_exceeds(const cel_call *call, size_t bytes)
{
    return call->mem_left && bytes > call->mem_left;
}

static inline cel_value cel_memory_error(rp_arena *a)
{
    return cel_error_new(a, "%s", CEL_MEMORY_LIMIT_ERROR);
}

typedef cel_value (*cel_fn_impl)(cel_call *call, const cel_value *args, uint32_t nargs);

typedef struct cel_function {
    const char *name; /* "size", "contains", "math.greatest", "optional.of", "timestamp" ... */
    unsigned flags;   /* CEL_FN_* */
    cel_fn_impl impl;
    /* Optional, run once when a program is compiled: given the call's arguments where
     * is_const[i] says which are constants (others are null placeholders), return something
     * impl reuses through call->prepared (a compiled regex), or NULL. */
    void *(*prepare)(const cel_value *args, const bool *is_const, uint32_t nargs);
    void (*release)(void *prepared);
} cel_function;

/* Library tables (each ends with {NULL}). */
extern const cel_function cel_lib_core[];     /* lib_core.c: size, type, dyn, conversions int,
                                                 uint, double, string, bytes, bool */
extern const cel_function cel_lib_strings[];  /* lib_strings.c: contains, startsWith, endsWith,
                                                 matches, and the strings extension */
extern const cel_function cel_lib_time[];     /* lib_time.c: timestamp, duration and their
                                                 accessors getFullYear ... getMilliseconds */
extern const cel_function cel_lib_math[];     /* lib_math.c: math.* */
extern const cel_function cel_lib_optional[]; /* lib_optional.c: optional.*, hasValue, value,
                                                 orValue, or */

/* The function named `name` that accepts this call style (receiver or global), or NULL. */
const cel_function *cel_function_find(const char *name, bool receiver);

#endif
