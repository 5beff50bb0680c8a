/* fn.c — finding a function by name in the library tables, plus the one function the
 * evaluator's own macro expansions need (`cel.@mapInsert`, the step of transformMap and
 * transformMapEntry).
 *
 * Only compilation looks functions up (the AST then holds the pointer), so a linear scan of the
 * few hundred entries is cheap enough and needs no index or global state. */
#include <string.h>

#include "cel/fn.h"

/* cel.@mapInsert(map, key, value): map with one more entry (an error when the key exists);
 * cel.@mapInsert(map, other): the union of two maps with disjoint keys. cel_map_insert appends
 * in place to the accumulator, so transformMap over n entries is linear. */
static cel_value map_insert(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if ((nargs != 2 && nargs != 3) || args[0].kind != CEL_MAP ||
        (nargs == 2 && args[1].kind != CEL_MAP))
        return cel_error_no_overload(call->arena, "cel.@mapInsert", args, nargs);
    if (nargs == 3)
        return cel_map_insert(call->arena, &args[0], &args[1], &args[2], 1, call->mem_left);
    uint32_t extra = cel_map_size(&args[1]);
    cel_value stack_keys[4], stack_values[4], *keys = stack_keys, *values = stack_values;
    if (extra > 4) {
        if (cel_call_exceeds(call, (size_t)extra * 2 * sizeof(cel_value)))
            return cel_memory_error(call->arena);
        keys = rp_arena_alloc(call->arena, sizeof *keys * extra);
        values = rp_arena_alloc(call->arena, sizeof *values * extra);
    }
    for (uint32_t i = 0; i < extra; i++)
        cel_map_entry(&args[1], i, &keys[i], &values[i]);
    return cel_map_insert(call->arena, &args[0], keys, values, extra, call->mem_left);
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
