/* lib_optional.c — CEL optional values (cel-go's OptionalTypes library): optional.of,
 * optional.none, optional.ofNonZeroValue, optional.unwrap and the receivers hasValue, value,
 * orValue, or, unwrapOpt.
 *
 * The syntax (`a.?b`, `a[?k]`, `[?x]`, `{?k: v}`) and the optMap/optFlatMap macros belong to the
 * parser and evaluator; this file only has the functions. */
#include <stddef.h>
#include <stdint.h>

#include "cel/fn.h"

static bool is_optional(const cel_value *v)
{
    return v->kind == CEL_OPTIONAL;
}

static bool has_value(const cel_value *opt)
{
    return opt->v.opt != NULL;
}

/* The zero value of each type, which optional.ofNonZeroValue treats as absent. A timestamp is
 * zero at the Unix epoch (the default google.protobuf.Timestamp); types, optionals, errors and
 * unknowns are never zero. */
static bool is_zero_value(const cel_value *v)
{
    switch ((cel_kind)v->kind) {
    case CEL_NULL:
        return true;
    case CEL_BOOL:
        return !v->v.b;
    case CEL_INT:
        return v->v.i == 0;
    case CEL_UINT:
        return v->v.u == 0;
    case CEL_DOUBLE:
        return v->v.d == 0.0; /* -0.0 too; NaN is not zero */
    case CEL_STRING:
    case CEL_BYTES:
        return v->len == 0;
    case CEL_LIST:
        return cel_list_size(v) == 0;
    case CEL_MAP:
        return cel_map_size(v) == 0;
    case CEL_TIMESTAMP:
    case CEL_DURATION:
        return v->v.t.sec == 0 && v->v.t.nsec == 0;
    case CEL_TYPE:
    case CEL_OPTIONAL:
    case CEL_ERROR:
    case CEL_UNKNOWN:
        return false;
    }
    return false;
}

static cel_value fn_of(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 1) {
        return cel_error_no_overload(call->arena, "optional.of", args, nargs);
    }
    return cel_optional_of(call->arena, args[0]);
}

static cel_value fn_none(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 0) {
        return cel_error_no_overload(call->arena, "optional.none", args, nargs);
    }
    return cel_optional_none();
}

static cel_value fn_of_non_zero_value(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 1) {
        return cel_error_no_overload(call->arena, "optional.ofNonZeroValue", args, nargs);
    }
    if (is_zero_value(&args[0])) {
        return cel_optional_none();
    }
    return cel_optional_of(call->arena, args[0]);
}

static cel_value fn_has_value(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 1 || !is_optional(&args[0])) {
        return cel_error_no_overload(call->arena, "hasValue", args, nargs);
    }
    return cel_bool(has_value(&args[0]));
}

static cel_value fn_value(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 1 || !is_optional(&args[0])) {
        return cel_error_no_overload(call->arena, "value", args, nargs);
    }
    if (!has_value(&args[0])) {
        return cel_error_new(call->arena, "optional.none() dereference");
    }
    return *args[0].v.opt;
}

/* x.orValue(y) and x.or(y) are non-strict in their argument: when x has a value, y is not
 * needed, so an error or unknown in y must not spoil the result (cel-go short-circuits the same
 * way). The receiver itself is still strict. */
static cel_value fn_or_value(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs >= 1 && cel_is_exceptional(&args[0])) {
        return args[0];
    }
    if (nargs != 2 || !is_optional(&args[0])) {
        for (uint32_t i = 1; i < nargs; i++) {
            if (cel_is_exceptional(&args[i])) {
                return args[i];
            }
        }
        return cel_error_no_overload(call->arena, "orValue", args, nargs);
    }
    return has_value(&args[0]) ? *args[0].v.opt : args[1];
}

static cel_value fn_or(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs >= 1 && cel_is_exceptional(&args[0])) {
        return args[0];
    }
    if (nargs != 2 || !is_optional(&args[0])) {
        for (uint32_t i = 1; i < nargs; i++) {
            if (cel_is_exceptional(&args[i])) {
                return args[i];
            }
        }
        return cel_error_no_overload(call->arena, "or", args, nargs);
    }
    if (has_value(&args[0])) {
        return args[0];
    }
    if (cel_is_exceptional(&args[1])) {
        return args[1];
    }
    if (!is_optional(&args[1])) {
        return cel_error_no_overload(call->arena, "or", args, nargs);
    }
    return args[1];
}

/* optional.unwrap(list) / list.unwrapOpt(): the values of the present optionals, in order. */
static cel_value unwrap(cel_call *call, const char *name, const cel_value *args, uint32_t nargs)
{
    if (nargs != 1 || args[0].kind != CEL_LIST) {
        return cel_error_no_overload(call->arena, name, args, nargs);
    }
    uint32_t n = cel_list_size(&args[0]);
    cel_value *items = n ? rp_arena_alloc(call->arena, n * sizeof *items) : NULL;
    uint32_t out = 0;
    for (uint32_t i = 0; i < n; i++) {
        cel_value item = cel_list_at(&args[0], i);
        if (!is_optional(&item)) {
            return cel_error_no_overload(call->arena, name, &item, 1);
        }
        if (has_value(&item)) {
            items[out++] = *item.v.opt;
        }
    }
    return cel_list_new(call->arena, items, out);
}

static cel_value fn_unwrap(cel_call *call, const cel_value *args, uint32_t nargs)
{
    return unwrap(call, "optional.unwrap", args, nargs);
}

static cel_value fn_unwrap_opt(cel_call *call, const cel_value *args, uint32_t nargs)
{
    return unwrap(call, "unwrapOpt", args, nargs);
}

const cel_function cel_lib_optional[] = {
    {"optional.of", CEL_FN_GLOBAL, fn_of, NULL, NULL},
    {"optional.none", CEL_FN_GLOBAL, fn_none, NULL, NULL},
    {"optional.ofNonZeroValue", CEL_FN_GLOBAL, fn_of_non_zero_value, NULL, NULL},
    {"optional.unwrap", CEL_FN_GLOBAL, fn_unwrap, NULL, NULL},
    {"hasValue", CEL_FN_RECEIVER, fn_has_value, NULL, NULL},
    {"value", CEL_FN_RECEIVER, fn_value, NULL, NULL},
    {"orValue", CEL_FN_RECEIVER | CEL_FN_NON_STRICT, fn_or_value, NULL, NULL},
    {"or", CEL_FN_RECEIVER | CEL_FN_NON_STRICT, fn_or, NULL, NULL},
    {"unwrapOpt", CEL_FN_RECEIVER, fn_unwrap_opt, NULL, NULL},
    {NULL, 0, NULL, NULL, NULL},
};
