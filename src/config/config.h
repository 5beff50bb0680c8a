/* config.h — rampart's YAML configuration: loading, the stack of levels, strict validation.
 *
 * Top-level keys: policies (ordered mapping name → spec), pricing, user, hosts, subagents,
 * on_error, state_dir, audit. A policy spec is either Omnigent form:
 *   {type: function, handler|callable: <path or short name>, factory_params: {...}}
 *   {type: function, function: <path> | {path: <path>, arguments: {...}}}
 * plus the optional spec fields condition, set_labels, config, ask_timeout, on.
 * Every error names file:line:col, the policy and the parameter. */
#ifndef RAMPART_CONFIG_CONFIG_H
#define RAMPART_CONFIG_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/json.h"
#include "engine/engine.h"

typedef enum rp_config_level {
    RP_LEVEL_PROJECT = 0, /* ./.rampart.yaml, only when trusted */
    RP_LEVEL_USER = 1,    /* $XDG_CONFIG_HOME/rampart/config.yaml */
    RP_LEVEL_SYSTEM = 2,  /* /etc/rampart/config.yaml */
    RP_LEVEL_EXPLICIT = 3 /* -c FILE (replaces the whole stack) */
} rp_config_level;

typedef enum rp_on_error { RP_ON_ERROR_DENY = 0, RP_ON_ERROR_ASK, RP_ON_ERROR_ALLOW } rp_on_error;

typedef struct rp_host_settings {
    const char *host; /* "claude-code", "codex", ... */
    bool allow_overrides;
    const char *ask_as; /* NULL = host default */
    bool deny_exit_code;
    int64_t deadline_ms; /* 0 = host default */
} rp_host_settings;

/* One problem found while loading. */
typedef struct rp_diag {
    const char *file;   /* path as given */
    int line, col;      /* 1-based; 0 when not applicable */
    const char *policy; /* configured policy name, or NULL */
    const char *param;  /* parameter or key, or NULL */
    const char *message;
    bool warning; /* warnings do not fail loading */
} rp_diag;

typedef struct rp_config {
    rp_arena arena; /* owns everything below */
    rp_engine engine;
    const rp_json *pricing; /* object or NULL */
    const char *user;       /* NULL = unset */
    rp_host_settings *hosts;
    size_t n_hosts;
    const rp_json *subagents; /* {purposes: {...}, default_cost_budget: ...} or NULL */
    rp_on_error on_error;
    const char *state_dir;        /* NULL = default */
    int64_t audit_retention_days; /* default 30 */
    const char **files;           /* the files that were read, in evaluation order */
    size_t n_files;

    rp_diag *diags;
    size_t n_diags;
    size_t n_errors;
} rp_config;

typedef struct rp_config_file {
    const char *path;
    rp_config_level level;
} rp_config_file;

/* Loads the given files in order into one config. Always returns a config (free it with
 * rp_config_free); check cfg->n_errors. Text is read from disk here: this is the I/O edge. */
rp_config *rp_config_load(const rp_config_file *files, size_t n_files);
/* The builtin policy type named `name_or_handler` (short name or handler path), NULL if none:
 * for the session, which adds a sub-agent budget instance of its own. */
const rp_policy_type *rp_config_policy_type(const char *name_or_handler);
/* Loads YAML text directly (tests, fuzzing). `name` is used in messages. */
rp_config *rp_config_load_string(const char *name, const char *yaml, size_t len,
                                 rp_config_level level);
/* Builds a one-policy config from a handler/name and JSON params (`rampart eval --policy`).
 * params_json may be NULL (= {}). Errors land in cfg->diags like YAML ones. */
rp_config *rp_config_single(const char *policy, const char *params_json);

/* The user level's config file: $XDG_CONFIG_HOME/rampart/config.yaml (an absolute
 * XDG_CONFIG_HOME only), else $HOME/.config/rampart/config.yaml. False when neither is set. */
bool rp_config_user_path(char *out, size_t size);

/* The default stack: project (if `trusted(dir)` says so, else a warning), user, system. Files
 * that do not exist are skipped. `trusted` may be NULL (project file never read). */
size_t rp_config_default_stack(rp_config_file *out, size_t max, char *paths_buf,
                               size_t paths_buf_size, bool (*trusted)(void *self, const char *dir),
                               void *self, rp_diag *warning);

/* "file:line:col: policy 'p': parameter 'x': message" (parts omitted when unknown). */
void rp_diag_format(const rp_diag *d, rp_buf *out);
void rp_config_free(rp_config *cfg);

/* The settings of one host, or a static default entry when not configured. */
const rp_host_settings *rp_config_host(const rp_config *cfg, const char *host);

/* Validates raw params (object or NULL) against a type's schema: fills defaults, checks types,
 * enums (case-insensitive; the canonical spelling is stored), ranges, unknown and missing keys.
 * Returns the normalised params object, or NULL with diagnostics appended through `report`. */
typedef void (*rp_diag_sink)(void *self, const char *param, const char *message);
/* `on_error` (deny, ask, allow), accepted by every policy on top of its own schema. */
extern const rp_param_spec rp_config_param_on_error;
const rp_json *rp_params_validate(const rp_policy_type *type, const rp_json *raw, rp_arena *a,
                                  rp_diag_sink report, void *self);

#endif
