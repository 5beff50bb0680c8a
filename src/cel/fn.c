/* fn.c — finding a function by name in the library tables, plus the one function the
 * evaluator's own macro expansions need (`cel.@mapInsert`, the step of transformMap and
 * transformMapEntry).
 *
 * Only compilation looks functions up (the AST then holds the pointer), so a linear scan of the
 * few hundred entries is cheap enough and needs no index or global state. */
#include <string.h>

#include "cel/fn.h"

/* cel.@mapInsert(map, key, value): map with one more entry (an error when the key exists);
 * cel.@mapInsert(map, other): the union of two maps with disjoint keys. Each step copies the
 * accumulated map: transformMap is quadratic, like cel-go's immutable maps. */
static cel_value map_insert(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if ((nargs != 2 && nargs != 3) || args[0].kind != CEL_MAP ||
        (nargs == 2 && args[1].kind != CEL_MAP))
        return cel_error_no_overload(call->arena, "cel.@mapInsert", args, nargs);
    uint32_t n = cel_map_size(&args[0]);
    uint32_t extra = nargs == 3 ? 1 : cel_map_size(&args[1]);
    cel_value *keys = rp_arena_alloc(call->arena, sizeof *keys * (n + extra));
    cel_value *values = rp_arena_alloc(call->arena, sizeof *values * (n + extra));
    for (uint32_t i = 0; i < n; i++)
        cel_map_entry(&args[0], i, &keys[i], &values[i]);
    if (nargs == 3) {
        keys[n] = args[1];
        values[n] = args[2];
    } else {
        for (uint32_t i = 0; i < extra; i++)
            cel_map_entry(&args[1], i, &keys[n + i], &values[n + i]);
    }
    /* cel_map_new rejects a repeated key, as cel-go's insert does. */
    return cel_map_new(call->arena, keys, values, n + extra);
}

static const cel_function lib_internal[] = {
    {"cel.@mapInsert", CEL_FN_GLOBAL, map_insert, NULL, NULL},
    {NULL, 0, NULL, NULL, NULL},
};

static const cel_function *const tables[] = {
    cel_lib_core, cel_lib_strings, cel_lib_time, cel_lib_math, cel_lib_optional, lib_internal,
};

const cel_function *cel_function_find(const char *name, bool receiver)
{
    unsigned want = receiver ? CEL_FN_RECEIVER : CEL_FN_GLOBAL;
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
        for (const cel_function *f = tables[t]; f->name; f++)
            if ((f->flags & want) && strcmp(f->name, name) == 0)
                return f;
    return NULL;
}
