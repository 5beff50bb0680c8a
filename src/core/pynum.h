/* pynum.h — Python's number rules for policy values: int(), float(), a number read from JSON,
 * addition, comparison and repr, written once.
 *
 * Omnigent's builtins are Python: they read session state and parameters with int() and
 * float(), add scores and compare them with thresholds. rampart keeps those answers, with one
 * representation limit stated here rather than in each caller:
 *
 *   - bool is an int (True is 1) wherever Python arithmetic sees the value: int(True) == 1,
 *     float(True) == 1.0, True + 1 == 2. Parameters are the exception: the registry's schema
 *     (and rampart's stricter one) says a `number` is an int or a float but not a bool, so a
 *     parameter reader asks for RP_PYNUM_BOOL_NOT_NUMBER.
 *   - int() of a float truncates toward zero; of a str it reads Python's base-10 literal
 *     (surrounding whitespace, a sign, single '_' between digits; ASCII digits only).
 *   - Python's ints are unbounded, rampart's are int64. A value read beyond int64 (a JSON
 *     literal above INT64_MAX, int() of a float or str beyond it) saturates at INT64_MAX or
 *     INT64_MIN: its order is kept, so a comparison with a limit or a threshold gives Python's
 *     answer. A sum of two ints that leaves int64 has no value rampart could store or show, so
 *     it is RP_PYNUM_OVERFLOW, which callers turn into the engine's error path (fail closed).
 *     int() of an infinity or NaN raises in Python and is RP_PYNUM_INVALID here.
 *   - int + int is exact; with a float it is float addition. Comparison is exact between two
 *     ints and in double otherwise.
 *   - repr is Python's: 7, 7.0, 1e+16, inf, nan (core/pyrepr.h). */
#ifndef RAMPART_CORE_PYNUM_H
#define RAMPART_CORE_PYNUM_H

#include <stdbool.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/json.h"

/* A Python int (int64) or float. */
typedef struct rp_pynum {
    bool is_float;
    int64_t i; /* when !is_float */
    double d;  /* when is_float */
} rp_pynum;

typedef enum rp_pynum_status {
    RP_PYNUM_OK = 0,
    RP_PYNUM_NOT_NUMBER, /* not an int, float, bool (or str, for int() and float()) */
    RP_PYNUM_INVALID,    /* int()/float() raises: a non-numeric string, int() of NaN or inf */
    RP_PYNUM_OVERFLOW,   /* a sum of two ints beyond int64 */
} rp_pynum_status;

typedef enum rp_pynum_bool {
    RP_PYNUM_BOOL_IS_INT,     /* Python arithmetic: True is 1 */
    RP_PYNUM_BOOL_NOT_NUMBER, /* the parameter schema: a bool is not a number */
} rp_pynum_bool;

/* The number v is, as json.loads would give it (NULL and non-numbers: RP_PYNUM_NOT_NUMBER). */
rp_pynum_status rp_pynum_from_json(const rp_json *v, rp_pynum_bool bools, rp_pynum *out);
/* int(v) for an int, float, bool or str; *out is 0 unless RP_PYNUM_OK. */
rp_pynum_status rp_pynum_int(const rp_json *v, int64_t *out);
/* float(v) for an int, float, bool or str ("1e3", " inf ", "nan"; not hex); *out is 0.0 unless
 * RP_PYNUM_OK. */
rp_pynum_status rp_pynum_float(const rp_json *v, double *out);

/* a + b; RP_PYNUM_OVERFLOW when two ints leave int64. */
rp_pynum_status rp_pynum_add(rp_pynum a, rp_pynum b, rp_pynum *out);
/* a >= b (false when either is NaN, as in Python). */
bool rp_pynum_ge(rp_pynum a, rp_pynum b);
double rp_pynum_as_double(rp_pynum n);
/* repr(n) */
void rp_pynum_repr(rp_buf *out, rp_pynum n);
/* n as a JSON number (a float stays a float: 1.0 is written 1.0). */
rp_json rp_pynum_to_json(rp_pynum n);

#endif
