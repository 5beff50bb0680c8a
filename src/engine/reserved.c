/* reserved.c — the state keys a policy may not write unless it owns them (see reserved.h). */
#include "engine/reserved.h"

#include <string.h>

/* Keys reserved for every builtin, including those of later issues, so that no policy but the
 * owner (a cel_policy in particular) can ever write them, even before the owner exists. Exact
 * keys, or prefixes ending in '*'. risk_score_policy's configured state_key is reserved per
 * instance (rp_policy_type.instance_owned_key); its default is listed here. */
static const char *const reserved_keys[] = {
    "_policy_*",
    "_permissions_*",
    "_thrashing_results",
    "_task_switch_history",
    "_routing_classification:*",
    "_intent_based_authorization_*",
    "gdrive_*",
    "gmail_*",
    "subagent_cost_ask_approved_usd",
    "risk_score",
    NULL,
};

static bool key_matches(const char *pattern, const char *key)
{
    size_t len = strlen(pattern);
    if (len > 0 && pattern[len - 1] == '*')
        return strncmp(key, pattern, len - 1) == 0;
    return strcmp(key, pattern) == 0;
}

static bool key_in(const char *const *patterns, const char *key)
{
    if (patterns == NULL)
        return false;
    for (size_t i = 0; patterns[i] != NULL; i++)
        if (key_matches(patterns[i], key))
            return true;
    return false;
}

bool rp_state_key_reserved(const rp_policy_type *const *types, size_t n, const char *key)
{
    if (key == NULL)
        return false;
    if (key_in(reserved_keys, key))
        return true;
    for (size_t i = 0; types != NULL && i < n; i++)
        if (key_in(types[i]->owned_keys, key))
            return true;
    return false;
}

bool rp_policy_owns_key(const rp_policy_type *t, const void *inst, const char *key)
{
    if (t == NULL || key == NULL)
        return false;
    if (key_in(t->owned_keys, key))
        return true;
    if (t->instance_owned_key != NULL) {
        const char *own = t->instance_owned_key(inst);
        if (own != NULL && strcmp(own, key) == 0)
            return true;
    }
    return false;
}
