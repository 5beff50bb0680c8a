/* common.h — helpers the builtin policies share: reading validated params and state values. */
#ifndef RAMPART_POLICIES_COMMON_COMMON_H
#define RAMPART_POLICIES_COMMON_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"
#include "engine/policy.h"

/* The strings of a validated string-list param, copied into the arena (NULL-terminated array;
 * *n gets the count). A value that is not an array gives an empty list. */
const char **rp_pol_string_list(const rp_json *list, rp_arena *a, size_t *n);

/* int(session_state.get(key, 0)) with the reference's leniency: ints, floats, bools and numeric
 * strings convert (core/pynum.h), other types count as 0. A non-numeric string fails the
 * evaluation (the reference raises and its engine turns that into DENY). Returns 0 or
 * rp_fail(). */
int rp_pol_state_int(rp_eval_ctx *ctx, const rp_json *state, const char *key, int64_t *out);

#endif
