/* policy.h — what a builtin policy is: a parameter schema and three functions.
 *
 * A policy is a pure function of (its validated params, the event, a state snapshot, the
 * evaluation context) → result. It performs no I/O: the clock and a read-only filesystem view
 * come in through rp_eval_ctx so tests can fake them. Everything it returns is allocated from
 * ctx->arena. Adding a builtin = one file in src/policies/ defining an rp_policy_type, plus one
 * line in src/policies/registry.c. */
#ifndef RAMPART_ENGINE_POLICY_H
#define RAMPART_ENGINE_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "core/arena.h"
#include "core/fs.h"
#include "core/json.h"
#include "engine/event.h"

typedef enum rp_verdict {
    RP_ABSTAIN = 0, /* the policy has no opinion; the engine treats it as ALLOW */
    RP_ALLOW,
    RP_ASK,
    RP_DENY
} rp_verdict;

const char *rp_verdict_name(rp_verdict v); /* "ABSTAIN", "ALLOW", "ASK", "DENY" */

typedef enum rp_update_action {
    RP_UPDATE_SET = 0,
    RP_UPDATE_INCREMENT,
    RP_UPDATE_APPEND,
    RP_UPDATE_DELETE
} rp_update_action;

const char *rp_update_action_name(rp_update_action a); /* "set", "increment", ... */

typedef struct rp_state_update {
    const char *key;
    rp_update_action action;
    rp_json value; /* null for delete */
    const char *policy; /* name of the policy instance that produced it (set by the engine) */
} rp_state_update;

typedef struct rp_result {
    rp_verdict verdict;
    const char *reason;       /* NULL = none */
    rp_state_update *updates; /* arena array */
    size_t n_updates;
    size_t cap_updates;
    const rp_json *data;       /* transformed content for later policies, NULL = unchanged */
    const rp_json *set_labels; /* object of label → string, or NULL */
    /* Something the audit log should record about this evaluation that the verdict does not
     * show (cel_policy: an evaluation error it abstained on, a dropped update). NULL = none. */
    const char *note;
} rp_result;

void rp_result_add_update(rp_arena *a, rp_result *r, const char *key, rp_update_action action,
                          rp_json value);

typedef struct rp_eval_ctx {
    rp_arena *arena;        /* per-evaluation memory; results are allocated here */
    int64_t now_us;         /* "now" for this evaluation, µs since the Unix epoch (UTC) */
    const rp_fs_view *fs;   /* may be NULL: policies then act on text alone */
    const rp_json *config;  /* the spec's `config:` mapping for this policy; an empty object if none */
    const char *policy_name; /* the configured name of the instance being evaluated */
    /* The last command parsed in this evaluation (src/policies/common/shell_input.c): every shell
     * policy of a pass reads the same command, and it is parsed once. NULL at the start. */
    void *shell_memo;
    /* Whether the user trusted a project directory (`rampart trust`), for policies that read a
     * project's own files. NULL = nothing is trusted. */
    bool (*is_trusted)(void *self, const char *dir);
    void *trust_self;
    /* Tells the person running rampart something the decision alone does not (a config file
     * that was ignored). NULL = nowhere; policies also put such text in their reason. */
    void (*warn)(void *self, const char *policy, const char *message);
    void *warn_self;
    char error[256];        /* why evaluate() returned -1 */
} rp_eval_ctx;

/* Sets ctx->error (printf-style) and returns -1, for `return rp_fail(ctx, "...")`. */
int rp_fail(rp_eval_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- parameter schema ---- */

typedef enum rp_param_kind {
    RP_PARAM_BOOL = 0,
    RP_PARAM_INT,         /* JSON integer (not bool, not 1.0) */
    RP_PARAM_NUMBER,      /* integer or double (not bool) */
    RP_PARAM_STRING,
    RP_PARAM_STRING_LIST, /* array of strings */
    RP_PARAM_ARRAY,       /* array of anything */
    RP_PARAM_OBJECT,
    RP_PARAM_ANY
} rp_param_kind;

const char *rp_param_kind_name(rp_param_kind k); /* "boolean", "integer", "number", ... */

typedef struct rp_param_spec {
    const char *name;
    rp_param_kind kind;
    const char *default_json;       /* JSON text of the default; NULL = no default (null) */
    bool required;                  /* must be given (and non-null) when there is no default */
    const char *const *enum_values; /* NULL-terminated; strings compared case-insensitively */
    bool has_min;
    double min;
    bool has_max;
    double max;
    const char *description;
} rp_param_spec;

/* A policy's own check failed while creating an instance. */
typedef struct rp_param_error {
    char param[64];    /* the parameter at fault, "" when it concerns several */
    char message[256]; /* e.g. "max_cost_usd must be > 0, got -1" */
} rp_param_error;

int rp_param_fail(rp_param_error *err, const char *param, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- the policy type ---- */

typedef struct rp_policy_type {
    const char *name;        /* short name, e.g. "detect_loop" */
    const char *module;      /* Omnigent module, e.g. "omnigent.policies.builtins.safety" */
    const char *description; /* one sentence */
    const rp_param_spec *params;
    size_t n_params;
    bool direct_callable;    /* Omnigent "callable" kind: accepts no params at all */
    bool internal_only;      /* hidden from `rampart policies` listings unless --all */

    /* State keys this policy owns and may write: exact keys, or prefixes ending in '*'.
     * NULL-terminated, or NULL for none. Only the owner may write a reserved key. */
    const char *const *owned_keys;
    /* Keys that depend on params (risk_score_policy's state_key). May be NULL. */
    const char *(*instance_owned_key)(const void *instance);

    /* params: an object holding every declared parameter, validated, defaults filled in.
     * Allocate the instance from `a` (it lives as long as the loaded config). Return 0, or -1
     * with *err filled. */
    int (*create)(const rp_json *params, rp_arena *a, void **instance, rp_param_error *err);
    /* state: the session state snapshot, always an object (possibly empty). Fill *out (zeroed
     * by the caller, verdict RP_ABSTAIN) and return 0, or return rp_fail(ctx, ...). */
    int (*evaluate)(const void *instance, const rp_event *ev, const rp_json *state,
                    rp_eval_ctx *ctx, rp_result *out);
    void (*destroy)(void *instance); /* may be NULL when everything lives in the arena */
} rp_policy_type;

/* Full handler path "<module>.<name>". */
const char *rp_policy_handler(const rp_policy_type *t, char *buf, size_t size);

#endif
