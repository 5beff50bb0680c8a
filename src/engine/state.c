/* state.c — applying state updates to a session state object (reference §2.2 step 6).
 *
 * SET overwrites, INCREMENT adds to the current number (absent = 0), APPEND creates or extends a
 * list, DELETE removes (absent = no-op). The reference raises on a non-numeric increment or an
 * append to a non-list; rampart reports the same cases as errors so the engine can turn them
 * into a failed policy instead of a crash or a silent skip. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/pynum.h"
#include "engine/engine.h"

/* current + delta with Python's rules (core/pynum.h: bool is an int, True + 1 == 2; a sum
 * beyond int64 is an error rather than a wrapped or rounded counter). */
static int increment(rp_json *current, const rp_json *delta, rp_json *result, char *err,
                     size_t err_size, const char *key)
{
    rp_pynum x, y;
    rp_pynum_status sx = rp_pynum_from_json(current, RP_PYNUM_BOOL_IS_INT, &x);
    rp_pynum_status sy = rp_pynum_from_json(delta, RP_PYNUM_BOOL_IS_INT, &y);
    if (sy == RP_PYNUM_NOT_NUMBER) {
        snprintf(err, err_size, "increment of '%s' by a non-number (%s)", key,
                 rp_json_type_name(delta->type));
        return -1;
    }
    if (sx == RP_PYNUM_NOT_NUMBER) {
        snprintf(err, err_size, "increment of '%s', which holds a %s, not a number", key,
                 rp_json_type_name(current->type));
        return -1;
    }
    rp_pynum sum;
    if (rp_pynum_add(x, y, &sum) != RP_PYNUM_OK) {
        snprintf(err, err_size, "increment of '%s' overflows a 64-bit integer", key);
        return -1;
    }
    /* JSON cannot hold an infinity: it would be stored as null and read back as absent, which
     * would quietly reset the counter. */
    if (sum.is_float && !isfinite(sum.d)) {
        snprintf(err, err_size, "increment of '%s' leaves the range of a double", key);
        return -1;
    }
    *result = rp_pynum_to_json(sum);
    return 0;
}

static int apply_one(rp_arena *a, rp_json *state, const rp_state_update *u, char *err,
                     size_t err_size)
{
    const rp_json *current = rp_json_get(state, u->key);
    switch (u->action) {
    case RP_UPDATE_SET:
        rp_json_object_set(a, state, u->key, rp_json_clone(a, &u->value));
        return 0;
    case RP_UPDATE_DELETE:
        rp_json_object_delete(state, u->key);
        return 0;
    case RP_UPDATE_INCREMENT: {
        rp_json zero = rp_json_make_int(0);
        rp_json sum;
        rp_json cur = current ? *current : zero;
        if (increment(&cur, &u->value, &sum, err, err_size, u->key) != 0)
            return -1;
        rp_json_object_set(a, state, u->key, sum);
        return 0;
    }
    case RP_UPDATE_APPEND: {
        rp_json list;
        if (current == NULL || current->type == RP_JSON_NULL) {
            list = rp_json_make_array();
        } else if (current->type == RP_JSON_ARRAY) {
            /* Copy so that the caller's snapshot (which may share storage) stays untouched. */
            list = rp_json_clone(a, current);
        } else {
            snprintf(err, err_size, "append to '%s', which holds a %s, not a list", u->key,
                     rp_json_type_name(current->type));
            return -1;
        }
        rp_json_array_push(a, &list, rp_json_clone(a, &u->value));
        rp_json_object_set(a, state, u->key, list);
        return 0;
    }
    }
    snprintf(err, err_size, "unknown state update action for '%s'", u->key);
    return -1;
}

int rp_state_apply(rp_arena *a, rp_json *state, const rp_state_update *updates, size_t n, char *err,
                   size_t err_size)
{
    if (state == NULL || state->type != RP_JSON_OBJECT) {
        snprintf(err, err_size, "session state is not an object");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (updates[i].key == NULL || updates[i].key[0] == '\0') {
            snprintf(err, err_size, "state update without a key");
            return -1;
        }
        if (apply_one(a, state, &updates[i], err, err_size) != 0)
            return -1;
    }
    return 0;
}
