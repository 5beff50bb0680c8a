/* common.c — helpers the builtin policies share. */
#include "policies/common/common.h"

#include "core/pynum.h"
#include "core/pyrepr.h"

const char **rp_pol_string_list(const rp_json *list, rp_arena *a, size_t *n)
{
    size_t count = 0;
    const char **out;

    if (rp_json_is_array(list))
        for (uint32_t i = 0; i < list->len; i++)
            if (rp_json_is_string(&list->v.items[i]))
                count++;
    out = rp_arena_alloc(a, (count + 1) * sizeof *out);
    count = 0;
    if (rp_json_is_array(list))
        for (uint32_t i = 0; i < list->len; i++)
            if (rp_json_is_string(&list->v.items[i]))
                out[count++] = rp_arena_strndup(a, list->v.items[i].v.s, list->v.items[i].len);
    out[count] = NULL;
    *n = count;
    return out;
}

int rp_pol_state_int(rp_eval_ctx *ctx, const rp_json *state, const char *key, int64_t *out)
{
    const rp_json *v = rp_json_get(state, key);

    if (rp_pynum_int(v, out) != RP_PYNUM_INVALID)
        return 0; /* other types count as 0: *out is 0 */
    rp_buf b = {0};
    rp_py_repr(&b, v);
    rp_fail(ctx, "session state '%s' is not a number: %s", key, b.data ? b.data : "");
    rp_buf_free(&b);
    return -1;
}
