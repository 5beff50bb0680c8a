/* config_internal.h — private to src/config's loader: what config.c (the document, the
 * policies, the checks over the whole stack, the public API and the default stack) and
 * config_settings.c (the settings sections) share: the loading state, the diagnostics that
 * report into it, and the shape checks every section uses.
 *
 * Every problem is reported, never only the first: a check that fails adds a diagnostic with
 * the file, line and column of the node, and the caller goes on with the next key. Strings a
 * check returns point into the config's arena (they live as long as the rp_config). */
#ifndef RAMPART_CONFIG_CONFIG_INTERNAL_H
#define RAMPART_CONFIG_CONFIG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "config/yaml_load.h"
#include "core/buf.h"
#include "core/json.h"

/* How many hosts a `hosts:` section may name (their names: known_hosts, config_settings.c). */
#define CFG_N_HOSTS 6

typedef struct host_state {
    bool configured;
    bool set_allow_overrides, set_ask_as, set_deny_exit_code, set_deadline_ms;
    rp_host_settings s;
} host_state;

/* rp_config plus what is only needed while loading. Every rp_config is one of these. */
typedef struct config_impl {
    rp_config pub; /* first, so that a pointer to one is a pointer to the other */
    size_t cap_diags, cap_slots, cap_files;
    bool on_error_set, retention_set, budget_set;
    host_state hosts[CFG_N_HOSTS]; /* in the order of known_hosts (config_settings.c) */
    rp_json *pricing;              /* merged object, or NULL */
    rp_json *purposes;             /* merged subagents.purposes, or NULL */
    rp_json budget;                /* subagents.default_cost_budget when budget_set */
} config_impl;

/* One file being loaded. */
typedef struct file_ctx {
    config_impl *ci;
    const char *file; /* arena copy */
    rp_config_level level;
    rp_yaml_doc doc;
} file_ctx;

/* ---- diagnostics (config.c) ---- */

/* An error at a value node; policy and param (either may be NULL) name where. */
void cfg_error_at(file_ctx *fc, const rp_json *node, const char *policy, const char *param,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* An error at a mapping key. */
void cfg_error_key(file_ctx *fc, const rp_json_member *m, const char *policy, const char *param,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* What the user wrote, for "got ...": "a mapping", "'text'", "3" (in the config's arena). */
const char *cfg_got(file_ctx *fc, const rp_json *v);

/* ---- shape checks shared by the sections (config.c) ---- */

bool cfg_is_null(const rp_json *v); /* absent or null */
/* A non-empty string, else an error naming `key` (as a spec field of `policy` when given). */
const char *cfg_want_string(file_ctx *fc, const rp_json *v, const char *policy, const char *key);
bool cfg_want_bool(file_ctx *fc, const rp_json *v, const char *key, bool *out);
/* An integer >= min (bools and 1.0 are not integers). */
bool cfg_want_int(file_ctx *fc, const rp_json *v, const char *policy, const char *key, int64_t min,
                  int64_t *out);
bool cfg_want_mapping(file_ctx *fc, const rp_json *v, const char *policy, const char *key);
/* Keys used as names (policies, hosts, labels, purposes) must be written as strings. */
bool cfg_want_name_key(file_ctx *fc, const rp_json_member *m, const char *policy, const char *what);
/* "a, b, c" into b. */
void cfg_list_words(rp_buf *b, const char *const *words, size_t n);

/* ---- the settings sections (config_settings.c) ---- */

/* One top-level key each. The first file that sets a value wins (files come most specific
 * first); config.c's section table decides which levels may set them. */
void cfg_load_user(file_ctx *fc, const rp_json_member *m);
void cfg_load_state_dir(file_ctx *fc, const rp_json_member *m);
void cfg_load_on_error(file_ctx *fc, const rp_json_member *m);
void cfg_load_pricing(file_ctx *fc, const rp_json_member *m);
void cfg_load_hosts(file_ctx *fc, const rp_json_member *m);
void cfg_load_subagents(file_ctx *fc, const rp_json_member *m);
void cfg_load_audit(file_ctx *fc, const rp_json_member *m);
/* Once every file is read: copies the merged pricing, hosts and subagents into ci->pub. */
void cfg_publish_settings(config_impl *ci);

#endif
