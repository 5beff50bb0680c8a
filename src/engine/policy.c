/* policy.c — the small shared helpers of the policy interface (names, results, errors). */
#include "engine/policy.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *rp_verdict_name(rp_verdict v)
{
    switch (v) {
    case RP_ABSTAIN:
        return "ABSTAIN";
    case RP_ALLOW:
        return "ALLOW";
    case RP_ASK:
        return "ASK";
    case RP_DENY:
        return "DENY";
    }
    return "UNKNOWN";
}

const char *rp_update_action_name(rp_update_action a)
{
    switch (a) {
    case RP_UPDATE_SET:
        return "set";
    case RP_UPDATE_INCREMENT:
        return "increment";
    case RP_UPDATE_APPEND:
        return "append";
    case RP_UPDATE_DELETE:
        return "delete";
    }
    return "unknown";
}

void rp_result_add_update(rp_arena *a, rp_result *r, const char *key, rp_update_action action,
                          rp_json value)
{
    if (r->n_updates == r->cap_updates) {
        size_t new_cap = r->cap_updates ? r->cap_updates * 2 : 4;
        r->updates = rp_arena_realloc(a, r->updates, r->cap_updates * sizeof *r->updates,
                                      new_cap * sizeof *r->updates);
        r->cap_updates = new_cap;
    }
    rp_state_update *u = &r->updates[r->n_updates++];
    u->key = key;
    u->action = action;
    u->value = action == RP_UPDATE_DELETE ? rp_json_make_null() : value;
    u->policy = NULL;
}

int rp_fail(rp_eval_ctx *ctx, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(ctx->error, sizeof ctx->error, fmt, ap);
    va_end(ap);
    return -1;
}

int rp_param_fail(rp_param_error *err, const char *param, const char *fmt, ...)
{
    va_list ap;

    snprintf(err->param, sizeof err->param, "%s", param ? param : "");
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return -1;
}

const char *rp_param_kind_name(rp_param_kind k)
{
    switch (k) {
    case RP_PARAM_BOOL:
        return "boolean";
    case RP_PARAM_INT:
        return "integer";
    case RP_PARAM_NUMBER:
        return "number";
    case RP_PARAM_STRING:
        return "string";
    case RP_PARAM_STRING_LIST:
        return "array of strings";
    case RP_PARAM_ARRAY:
        return "array";
    case RP_PARAM_OBJECT:
        return "object";
    case RP_PARAM_ANY:
        return "any";
    }
    return "unknown";
}

const char *rp_policy_handler(const rp_policy_type *t, char *buf, size_t size)
{
    snprintf(buf, size, "%s.%s", t->module, t->name);
    return buf;
}
