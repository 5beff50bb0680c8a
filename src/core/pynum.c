/* pynum.c — Python's number rules for policy values (pynum.h states them and their limit). */
#include "core/pynum.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/pyrepr.h"

rp_pynum_status rp_pynum_from_json(const rp_json *v, rp_pynum_bool bools, rp_pynum *out)
{
    memset(out, 0, sizeof *out);
    if (v == NULL)
        return RP_PYNUM_NOT_NUMBER;
    switch (v->type) {
    case RP_JSON_BOOL:
        if (bools != RP_PYNUM_BOOL_IS_INT)
            return RP_PYNUM_NOT_NUMBER;
        out->i = v->v.b ? 1 : 0;
        return RP_PYNUM_OK;
    case RP_JSON_INT:
        out->i = v->v.i;
        return RP_PYNUM_OK;
    case RP_JSON_UINT:
        out->i = INT64_MAX; /* the reader keeps only literals above INT64_MAX here */
        return RP_PYNUM_OK;
    case RP_JSON_DOUBLE:
        out->is_float = true;
        out->d = v->v.d;
        return RP_PYNUM_OK;
    default:
        return RP_PYNUM_NOT_NUMBER;
    }
}

/* int(d) of a float: truncation toward zero. */
static rp_pynum_status int_of_double(double d, int64_t *out)
{
    double t = trunc(d);
    if (isnan(t) || isinf(t))
        return RP_PYNUM_INVALID;
    if (t >= 9223372036854775808.0)
        *out = INT64_MAX;
    else if (t <= -9223372036854775808.0)
        *out = INT64_MIN;
    else
        *out = (int64_t)t;
    return RP_PYNUM_OK;
}

/* int(s) of a str, base 10: whitespace, optional sign, digits with single '_' between them.
 * Python also accepts non-ASCII decimal digits; those are rejected here (documented limit). */
static rp_pynum_status int_of_string(const char *s, size_t n, int64_t *out)
{
    size_t start, len;
    bool negative = false, saturated = false, prev_digit = false;
    uint64_t magnitude = 0;

    rp_py_strip(s, n, &start, &len);
    s += start;
    if (len > 0 && (s[0] == '+' || s[0] == '-')) {
        negative = s[0] == '-';
        s++;
        len--;
    }
    if (len == 0)
        return RP_PYNUM_INVALID;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == '_') {
            if (!prev_digit || i + 1 == len)
                return RP_PYNUM_INVALID;
            prev_digit = false;
            continue;
        }
        if (c < '0' || c > '9')
            return RP_PYNUM_INVALID;
        prev_digit = true;
        if (magnitude > (UINT64_MAX - 9) / 10)
            saturated = true;
        else
            magnitude = magnitude * 10 + (uint64_t)(c - '0');
    }
    if (!prev_digit)
        return RP_PYNUM_INVALID;
    if (saturated || magnitude > (uint64_t)INT64_MAX + (negative ? 1u : 0u))
        *out = negative ? INT64_MIN : INT64_MAX;
    else
        *out = negative ? (int64_t)(0 - magnitude) : (int64_t)magnitude;
    return RP_PYNUM_OK;
}

rp_pynum_status rp_pynum_int(const rp_json *v, int64_t *out)
{
    rp_pynum n;
    rp_pynum_status st;
    *out = 0;
    if (v != NULL && v->type == RP_JSON_STRING)
        st = int_of_string(v->v.s, v->len, out);
    else if ((st = rp_pynum_from_json(v, RP_PYNUM_BOOL_IS_INT, &n)) == RP_PYNUM_OK)
        st = n.is_float ? int_of_double(n.d, out) : (*out = n.i, RP_PYNUM_OK);
    if (st != RP_PYNUM_OK)
        *out = 0;
    return st;
}

/* float(s) of a str: surrounding whitespace, decimal or exponent form, inf/nan words. Hex and
 * "nan(...)", which strtod also reads, are not Python floats. */
static rp_pynum_status float_of_string(const char *s, size_t n, double *out)
{
    size_t start, len;
    rp_py_strip(s, n, &start, &len);
    if (len == 0 || len > 64)
        return RP_PYNUM_INVALID;
    char text[65];
    memcpy(text, s + start, len);
    text[len] = '\0';
    if (strpbrk(text, "xX(") != NULL)
        return RP_PYNUM_INVALID;
    char *end = NULL;
    double d = strtod(text, &end);
    if (end != text + len)
        return RP_PYNUM_INVALID;
    *out = d;
    return RP_PYNUM_OK;
}

rp_pynum_status rp_pynum_float(const rp_json *v, double *out)
{
    rp_pynum n;
    rp_pynum_status st;
    *out = 0.0;
    if (v != NULL && v->type == RP_JSON_STRING) {
        st = float_of_string(v->v.s, v->len, out);
    } else if (v != NULL && v->type == RP_JSON_UINT) {
        *out = (double)v->v.u; /* float() of a big int is its nearest double, as in Python */
        return RP_PYNUM_OK;
    } else if ((st = rp_pynum_from_json(v, RP_PYNUM_BOOL_IS_INT, &n)) == RP_PYNUM_OK) {
        *out = rp_pynum_as_double(n);
    }
    if (st != RP_PYNUM_OK)
        *out = 0.0;
    return st;
}

double rp_pynum_as_double(rp_pynum n)
{
    return n.is_float ? n.d : (double)n.i;
}

rp_pynum_status rp_pynum_add(rp_pynum a, rp_pynum b, rp_pynum *out)
{
    rp_pynum r = {0};
    if (!a.is_float && !b.is_float) {
        if (__builtin_add_overflow(a.i, b.i, &r.i))
            return RP_PYNUM_OVERFLOW;
    } else {
        r.is_float = true;
        r.d = rp_pynum_as_double(a) + rp_pynum_as_double(b);
    }
    *out = r;
    return RP_PYNUM_OK;
}

bool rp_pynum_ge(rp_pynum a, rp_pynum b)
{
    if (!a.is_float && !b.is_float)
        return a.i >= b.i;
    return rp_pynum_as_double(a) >= rp_pynum_as_double(b);
}

rp_json rp_pynum_to_json(rp_pynum n)
{
    return n.is_float ? rp_json_make_double(n.d) : rp_json_make_int(n.i);
}

void rp_pynum_repr(rp_buf *out, rp_pynum n)
{
    rp_json v = rp_pynum_to_json(n);
    rp_py_repr(out, &v);
}
