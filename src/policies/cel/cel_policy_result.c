/* cel_policy_result.c — what a cel_policy expression's value means (reference §5.27 and the
 * seed's "Track custom state from a CEL expression").
 *
 * Only a map with a valid `result` is a verdict; every other value abstains, as in the
 * reference. `state_updates` is validated as a whole before anything is added to the result:
 * one malformed entry makes the evaluation an error, because applying the well-formed half of a
 * batch would leave the session in a state the expression's author never described. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "policies/cel/cel_policy.h"
#include "policies/registry.h"

static bool str_is(const cel_value *v, const char *word)
{
    size_t n = strlen(word);
    return v->kind == CEL_STRING && v->len == n && strncasecmp(v->v.s, word, n) == 0;
}

/* A CEL string as a NUL-terminated arena copy, or NULL when it holds a NUL byte (which no
 * state key or reason may contain). */
static const char *c_string(rp_arena *a, const cel_value *v)
{
    if (memchr(v->v.s, '\0', v->len) != NULL)
        return NULL;
    return rp_arena_strndup(a, v->v.s, v->len);
}

static bool parse_action(const cel_value *v, rp_update_action *out)
{
    static const struct {
        const char *name;
        rp_update_action action;
    } actions[] = {
        {"set", RP_UPDATE_SET},
        {"increment", RP_UPDATE_INCREMENT},
        {"append", RP_UPDATE_APPEND},
        {"delete", RP_UPDATE_DELETE},
    };
    if (v->kind != CEL_STRING)
        return false;
    for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++) {
        size_t n = strlen(actions[i].name);
        if (v->len == n && memcmp(v->v.s, actions[i].name, n) == 0) {
            *out = actions[i].action;
            return true;
        }
    }
    return false;
}

static void note_drop(rp_arena *a, const char **dropped, const char *key)
{
    const char *msg = rp_arena_sprintf(a, "dropped update of reserved state key '%s'", key);
    *dropped = *dropped ? rp_arena_sprintf(a, "%s; %s", *dropped, msg) : msg;
}

/* One entry {key, action, value}. Returns 0 (the update added to out, or dropped when its key
 * is reserved) or -1 with err. */
static int add_update(const cel_value *entry, uint32_t index, rp_arena *a, rp_result *out,
                      const char **dropped, char *err, size_t err_size)
{
    cel_value key, action, value;
    rp_update_action act;

    if (entry->kind != CEL_MAP) {
        snprintf(err, err_size, "state_updates[%u] is a %s, not a map", index,
                 cel_kind_type_name(entry));
        return -1;
    }
    if (!cel_map_get_str(entry, "key", 3, &key) || key.kind != CEL_STRING || key.len == 0) {
        snprintf(err, err_size, "state_updates[%u] needs a non-empty string key", index);
        return -1;
    }
    const char *k = c_string(a, &key);
    if (k == NULL) {
        snprintf(err, err_size, "state_updates[%u]: the key contains a NUL character", index);
        return -1;
    }
    if (!cel_map_get_str(entry, "action", 6, &action) || !parse_action(&action, &act)) {
        snprintf(err, err_size,
                 "state_updates[%u] (key '%s') needs an action: set, increment, append or delete",
                 index, k);
        return -1;
    }
    rp_json json = rp_json_make_null();
    if (act != RP_UPDATE_DELETE) {
        if (!cel_map_get_str(entry, "value", 5, &value)) {
            snprintf(err, err_size, "state_updates[%u] (key '%s'): %s needs a value", index, k,
                     rp_update_action_name(act));
            return -1;
        }
        if (act == RP_UPDATE_INCREMENT && value.kind != CEL_INT && value.kind != CEL_UINT &&
            value.kind != CEL_DOUBLE) {
            snprintf(err, err_size,
                     "state_updates[%u] (key '%s'): increment needs a number, got %s", index, k,
                     cel_kind_type_name(&value));
            return -1;
        }
        char why[200];
        if (cel_to_json(a, &value, &json, why, sizeof why) != 0) {
            snprintf(err, err_size, "state_updates[%u] (key '%s'): the value %s", index, k, why);
            return -1;
        }
    }
    /* Validated first, dropped second: a reserved key in a malformed entry is still an error. */
    if (rp_registry_key_reserved(k)) {
        note_drop(a, dropped, k);
        return 0;
    }
    rp_result_add_update(a, out, k, act, json);
    return 0;
}

static int add_updates(const cel_value *list, rp_arena *a, rp_result *out, const char **dropped,
                       char *err, size_t err_size)
{
    if (list->kind != CEL_LIST) {
        snprintf(err, err_size, "state_updates is a %s, not a list", cel_kind_type_name(list));
        return -1;
    }
    uint32_t n = cel_list_size(list);
    for (uint32_t i = 0; i < n; i++) {
        cel_value entry = cel_list_at(list, i);
        if (add_update(&entry, i, a, out, dropped, err, err_size) != 0)
            return -1;
    }
    return 0;
}

int rp_cel_policy_interpret(const cel_value *v, const char *fallback_reason, rp_arena *a,
                            rp_result *out, const char **dropped, char *err, size_t err_size)
{
    cel_value result, reason, updates;

    *dropped = NULL;
    if (v->kind == CEL_ERROR) {
        snprintf(err, err_size, "%s", v->v.err->message);
        return -1;
    }
    if (v->kind == CEL_UNKNOWN) {
        snprintf(err, err_size, "the result depends on unknown values");
        return -1;
    }
    if (v->kind != CEL_MAP || !cel_map_get_str(v, "result", 6, &result))
        return 0;
    rp_verdict verdict;
    if (str_is(&result, "deny"))
        verdict = RP_DENY;
    else if (str_is(&result, "ask"))
        verdict = RP_ASK;
    else if (str_is(&result, "allow"))
        verdict = RP_ALLOW;
    else
        return 0; /* not a verdict: abstain, updates and all */

    if (cel_map_get_str(v, "state_updates", 13, &updates) &&
        add_updates(&updates, a, out, dropped, err, err_size) != 0) {
        out->n_updates = 0;
        *dropped = NULL;
        return -1;
    }
    out->verdict = verdict;
    /* An empty or non-string reason counts as none, so a DENY or ASK always says why. */
    if (cel_map_get_str(v, "reason", 6, &reason) && reason.kind == CEL_STRING && reason.len > 0)
        out->reason = c_string(a, &reason);
    if (out->reason == NULL && verdict != RP_ALLOW)
        out->reason = fallback_reason;
    return 0;
}
