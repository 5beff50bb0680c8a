/* registry.h — the table of builtin policy types. */
#ifndef RAMPART_POLICIES_REGISTRY_H
#define RAMPART_POLICIES_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/policy.h"
#include "engine/reserved.h"

/* Every builtin, in listing order. */
const rp_policy_type *const *rp_registry_all(size_t *count);
/* By short name ("detect_loop"), full handler path
 * ("omnigent.policies.builtins.safety.detect_loop") or a legacy alias path. NULL if unknown. */
const rp_policy_type *rp_registry_find(const char *name_or_handler);
/* Whether `key` is reserved by some builtin (exact key or under an owned prefix). */
bool rp_registry_key_reserved(const char *key);

#endif
