/* reserved.h — which state keys a policy may write: the keys every builtin reserves (owned
 * keys, instance keys, and those of builtins still to come), so that no other policy (a
 * cel_policy in particular) can forge them. */
#ifndef RAMPART_ENGINE_RESERVED_H
#define RAMPART_ENGINE_RESERVED_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/policy.h"

/* Whether `key` is reserved: by the static table of engine/reserved.c or by the owned keys of
 * one of types[0..n) (exact keys, or prefixes ending in '*'). types may be NULL. */
bool rp_state_key_reserved(const rp_policy_type *const *types, size_t n, const char *key);
/* Whether policy type t (instance inst, may be NULL) owns `key`. */
bool rp_policy_owns_key(const rp_policy_type *t, const void *inst, const char *key);

#endif
