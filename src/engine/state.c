/* state.c — applying state updates to a session state object (reference §2.2 step 6).
 *
 * SET overwrites, INCREMENT adds to the current number (absent = 0), APPEND creates or extends a
 * list, DELETE removes (absent = no-op). The reference raises on a non-numeric increment or an
 * append to a non-list; rampart reports the same cases as errors so the engine can turn them
 * into a failed policy instead of a crash or a silent skip. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"

/* Python treats bool as an int subclass, so True + 1 == 2; we follow that. */
static bool as_int(const rp_json *v, int64_t *out)
{
    if (v->type == RP_JSON_INT) {
        *out = v->v.i;
        return true;
    }
    if (v->type == RP_JSON_BOOL) {
        *out = v->v.b ? 1 : 0;
        return true;
    }
    return false;
}

static bool as_double(const rp_json *v, double *out)
{
    int64_t i;
    if (as_int(v, &i)) {
        *out = (double)i;
        return true;
    }
    if (v->type == RP_JSON_UINT) {
        *out = (double)v->v.u;
        return true;
    }
    if (v->type == RP_JSON_DOUBLE) {
        *out = v->v.d;
        return true;
    }
    return false;
}

static int increment(rp_json *current, const rp_json *delta, rp_json *result, char *err,
                     size_t err_size, const char *key)
{
    int64_t a, b;
    if (as_int(current, &a) && as_int(delta, &b)) {
        int64_t sum;
        if (__builtin_add_overflow(a, b, &sum)) {
            snprintf(err, err_size, "increment of '%s' overflows a 64-bit integer", key);
            return -1;
        }
        *result = rp_json_make_int(sum);
        return 0;
    }
    double x, y;
    if (as_double(current, &x) && as_double(delta, &y)) {
        /* JSON cannot hold an infinity: it would be stored as null and read back as absent,
         * which would quietly reset the counter. */
        if (!isfinite(x + y)) {
            snprintf(err, err_size, "increment of '%s' leaves the range of a double", key);
            return -1;
        }
        *result = rp_json_make_double(x + y);
        return 0;
    }
    if (!as_double(delta, &y))
        snprintf(err, err_size, "increment of '%s' by a non-number (%s)", key,
                 rp_json_type_name(delta->type));
    else
        snprintf(err, err_size, "increment of '%s', which holds a %s, not a number", key,
                 rp_json_type_name(current->type));
    return -1;
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

int rp_state_apply(rp_arena *a, rp_json *state, const rp_state_update *updates, size_t n,
                   char *err, size_t err_size)
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
