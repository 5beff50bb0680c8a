/* lib_math.c — CEL's math extension (cel-go ext/math.go): math.greatest, math.least, rounding,
 * abs, sign, floating-point classification, bit operations and sqrt.
 *
 * Every function dispatches on its argument kinds itself and answers "no such overload" for
 * anything else, which is how `math.ceil(dyn(1))` fails in the conformance data: the math
 * functions never convert an int to a double implicitly. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "cel/fn.h"

static bool is_number(const cel_value *v)
{
    return v->kind == CEL_INT || v->kind == CEL_UINT || v->kind == CEL_DOUBLE;
}

static cel_value no_overload(cel_call *call, const char *name, const cel_value *args,
                             uint32_t nargs)
{
    return cel_error_no_overload(call->arena, name, args, nargs);
}

/* ---- greatest / least ---- */

/* Whether candidate beats best: greater (want > 0) or smaller (want < 0). Ties keep the earlier
 * value, as cel-go does, so math.greatest(1, 1.0) is the int 1. A NaN never wins (it is
 * unordered) and never loses its place if it came first. */
static bool beats(const cel_value *candidate, const cel_value *best, int want)
{
    int cmp = 0;
    if (cel_compare(candidate, best, &cmp) != 0) {
        return false;
    }
    return want > 0 ? cmp > 0 : cmp < 0;
}

/* The winning value of args[0..n) (or of the single list argument), keeping its own type. */
static cel_value extreme(cel_call *call, const char *name, const cel_value *args, uint32_t nargs,
                         int want)
{
    if (nargs == 0) {
        return cel_error_new(call->arena, "%s() requires at least one argument", name);
    }
    if (nargs == 1 && args[0].kind == CEL_LIST) {
        uint32_t n = cel_list_size(&args[0]);
        if (n == 0) {
            return cel_error_new(call->arena, "%s(list) argument must not be empty", name);
        }
        cel_value best = cel_list_at(&args[0], 0);
        for (uint32_t i = 0; i < n; i++) {
            cel_value item = cel_list_at(&args[0], i);
            /* Elements can be errors only in theory (lists hold values); be strict anyway. */
            if (cel_is_exceptional(&item)) {
                return item;
            }
            if (!is_number(&item)) {
                return no_overload(call, name, &item, 1);
            }
            if (i > 0 && beats(&item, &best, want)) {
                best = item;
            }
        }
        return best;
    }
    for (uint32_t i = 0; i < nargs; i++) {
        if (!is_number(&args[i])) {
            return no_overload(call, name, args, nargs);
        }
    }
    cel_value best = args[0];
    for (uint32_t i = 1; i < nargs; i++) {
        if (beats(&args[i], &best, want)) {
            best = args[i];
        }
    }
    return best;
}

static cel_value fn_greatest(cel_call *call, const cel_value *args, uint32_t nargs)
{
    return extreme(call, "math.greatest", args, nargs, 1);
}

static cel_value fn_least(cel_call *call, const cel_value *args, uint32_t nargs)
{
    return extreme(call, "math.least", args, nargs, -1);
}

/* ---- double → double ---- */

/* Applies f to a single double argument; anything else is no such overload. */
static cel_value double_unary(cel_call *call, const char *name, const cel_value *args,
                              uint32_t nargs, double (*f)(double))
{
    if (nargs != 1 || args[0].kind != CEL_DOUBLE) {
        return no_overload(call, name, args, nargs);
    }
    return cel_double(f(args[0].v.d));
}

static cel_value fn_ceil(cel_call *call, const cel_value *args, uint32_t nargs)
{
    return double_unary(call, "math.ceil", args, nargs, ceil);
}

static cel_value fn_floor(cel_call *call, const cel_value *args, uint32_t nargs)
{
    return double_unary(call, "math.floor", args, nargs, floor);
}

/* C's round() rounds half away from zero, exactly like Go's math.Round. */
static cel_value fn_round(cel_call *call, const cel_value *args, uint32_t nargs)
{
    return double_unary(call, "math.round", args, nargs, round);
}

static cel_value fn_trunc(cel_call *call, const cel_value *args, uint32_t nargs)
{
    return double_unary(call, "math.trunc", args, nargs, trunc);
}

/* ---- abs, sign, sqrt ---- */

static cel_value fn_abs(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs == 1) {
        switch (args[0].kind) {
        case CEL_INT:
            if (args[0].v.i == INT64_MIN) {
                return cel_error_new(call->arena, "integer overflow");
            }
            return cel_int(args[0].v.i < 0 ? -args[0].v.i : args[0].v.i);
        case CEL_UINT:
            return args[0];
        case CEL_DOUBLE:
            return cel_double(fabs(args[0].v.d));
        default:
            break;
        }
    }
    return no_overload(call, "math.abs", args, nargs);
}

static cel_value fn_sign(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs == 1) {
        switch (args[0].kind) {
        case CEL_INT:
            return cel_int(args[0].v.i > 0 ? 1 : args[0].v.i < 0 ? -1 : 0);
        case CEL_UINT:
            return cel_uint(args[0].v.u > 0 ? 1 : 0);
        case CEL_DOUBLE: {
            double d = args[0].v.d;
            /* NaN and ±0.0 are their own sign (Go's ext/math does the same). */
            return cel_double(d > 0 ? 1.0 : d < 0 ? -1.0 : d);
        }
        default:
            break;
        }
    }
    return no_overload(call, "math.sign", args, nargs);
}

static cel_value fn_sqrt(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs == 1) {
        switch (args[0].kind) {
        case CEL_INT:
            return cel_double(sqrt((double)args[0].v.i));
        case CEL_UINT:
            return cel_double(sqrt((double)args[0].v.u));
        case CEL_DOUBLE:
            return cel_double(sqrt(args[0].v.d));
        default:
            break;
        }
    }
    return no_overload(call, "math.sqrt", args, nargs);
}

/* ---- classification ---- */

static cel_value fn_is_nan(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 1 || args[0].kind != CEL_DOUBLE) {
        return no_overload(call, "math.isNaN", args, nargs);
    }
    return cel_bool(isnan(args[0].v.d));
}

static cel_value fn_is_inf(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 1 || args[0].kind != CEL_DOUBLE) {
        return no_overload(call, "math.isInf", args, nargs);
    }
    return cel_bool(isinf(args[0].v.d));
}

static cel_value fn_is_finite(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 1 || args[0].kind != CEL_DOUBLE) {
        return no_overload(call, "math.isFinite", args, nargs);
    }
    return cel_bool(isfinite(args[0].v.d));
}

/* ---- bit operations ---- */

typedef enum bit_op { BIT_AND, BIT_OR, BIT_XOR } bit_op;

static uint64_t apply_bits(bit_op op, uint64_t x, uint64_t y)
{
    switch (op) {
    case BIT_AND:
        return x & y;
    case BIT_OR:
        return x | y;
    case BIT_XOR:
        return x ^ y;
    }
    return 0;
}

/* int op int or uint op uint; mixing the two is no such overload, as in cel-go. The int case
 * goes through uint64 so that the bit pattern is two's complement without signed overflow. */
static cel_value bit_binary(cel_call *call, const char *name, const cel_value *args, uint32_t nargs,
                            bit_op op)
{
    if (nargs == 2 && args[0].kind == CEL_INT && args[1].kind == CEL_INT) {
        return cel_int((int64_t)apply_bits(op, (uint64_t)args[0].v.i, (uint64_t)args[1].v.i));
    }
    if (nargs == 2 && args[0].kind == CEL_UINT && args[1].kind == CEL_UINT) {
        return cel_uint(apply_bits(op, args[0].v.u, args[1].v.u));
    }
    return no_overload(call, name, args, nargs);
}

static cel_value fn_bit_and(cel_call *call, const cel_value *args, uint32_t nargs)
{
    return bit_binary(call, "math.bitAnd", args, nargs, BIT_AND);
}

static cel_value fn_bit_or(cel_call *call, const cel_value *args, uint32_t nargs)
{
    return bit_binary(call, "math.bitOr", args, nargs, BIT_OR);
}

static cel_value fn_bit_xor(cel_call *call, const cel_value *args, uint32_t nargs)
{
    return bit_binary(call, "math.bitXor", args, nargs, BIT_XOR);
}

static cel_value fn_bit_not(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs == 1 && args[0].kind == CEL_INT) {
        return cel_int((int64_t) ~(uint64_t)args[0].v.i);
    }
    if (nargs == 1 && args[0].kind == CEL_UINT) {
        return cel_uint(~args[0].v.u);
    }
    return no_overload(call, "math.bitNot", args, nargs);
}

/* Shifts of (int|uint) by an int. A negative amount is an error; 64 or more shifts every bit
 * out (0), where C would be undefined. Right shifts are logical for ints too (cel-go shifts
 * the uint64 bit pattern), so math.bitShiftRight(-1024, 3) == 2305843009213693824. */
static cel_value bit_shift(cel_call *call, const char *name, const cel_value *args, uint32_t nargs,
                           bool left)
{
    if (nargs != 2 || (args[0].kind != CEL_INT && args[0].kind != CEL_UINT) ||
        args[1].kind != CEL_INT) {
        return no_overload(call, name, args, nargs);
    }
    int64_t amount = args[1].v.i;
    if (amount < 0) {
        return cel_error_new(call->arena, "%s() negative offset: %lld", name, (long long)amount);
    }
    uint64_t bits = args[0].kind == CEL_INT ? (uint64_t)args[0].v.i : args[0].v.u;
    uint64_t result = 0;
    if (amount < 64) {
        result = left ? bits << amount : bits >> amount;
    }
    return args[0].kind == CEL_INT ? cel_int((int64_t)result) : cel_uint(result);
}

static cel_value fn_bit_shift_left(cel_call *call, const cel_value *args, uint32_t nargs)
{
    return bit_shift(call, "math.bitShiftLeft", args, nargs, true);
}

static cel_value fn_bit_shift_right(cel_call *call, const cel_value *args, uint32_t nargs)
{
    return bit_shift(call, "math.bitShiftRight", args, nargs, false);
}

const cel_function cel_lib_math[] = {
    {"math.greatest", CEL_FN_GLOBAL, fn_greatest, NULL, NULL},
    {"math.least", CEL_FN_GLOBAL, fn_least, NULL, NULL},
    {"math.ceil", CEL_FN_GLOBAL, fn_ceil, NULL, NULL},
    {"math.floor", CEL_FN_GLOBAL, fn_floor, NULL, NULL},
    {"math.round", CEL_FN_GLOBAL, fn_round, NULL, NULL},
    {"math.trunc", CEL_FN_GLOBAL, fn_trunc, NULL, NULL},
    {"math.abs", CEL_FN_GLOBAL, fn_abs, NULL, NULL},
    {"math.sign", CEL_FN_GLOBAL, fn_sign, NULL, NULL},
    {"math.sqrt", CEL_FN_GLOBAL, fn_sqrt, NULL, NULL},
    {"math.isNaN", CEL_FN_GLOBAL, fn_is_nan, NULL, NULL},
    {"math.isInf", CEL_FN_GLOBAL, fn_is_inf, NULL, NULL},
    {"math.isFinite", CEL_FN_GLOBAL, fn_is_finite, NULL, NULL},
    {"math.bitAnd", CEL_FN_GLOBAL, fn_bit_and, NULL, NULL},
    {"math.bitOr", CEL_FN_GLOBAL, fn_bit_or, NULL, NULL},
    {"math.bitXor", CEL_FN_GLOBAL, fn_bit_xor, NULL, NULL},
    {"math.bitNot", CEL_FN_GLOBAL, fn_bit_not, NULL, NULL},
    {"math.bitShiftLeft", CEL_FN_GLOBAL, fn_bit_shift_left, NULL, NULL},
    {"math.bitShiftRight", CEL_FN_GLOBAL, fn_bit_shift_right, NULL, NULL},
    {NULL, 0, NULL, NULL, NULL},
};
