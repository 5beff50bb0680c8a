/* config.c — rampart's configuration: files → validated settings and an engine.
 *
 * Each file is parsed by yaml_load.c into rp_json plus a table of source positions; this file
 * walks that tree, checks every key and value, and reports every problem with file:line:col
 * (the settings sections — user, hosts, pricing, ... — are checked by config_settings.c, with
 * the diagnostics and shape checks of this file, through config_internal.h). Nothing stops at
 * the first error: `rampart validate` must be able to list them all.
 *
 * Stacking. Files come in evaluation order (project, user, system; or the -c files). Policies
 * of every file all run, in that order. For settings the first file that sets a value wins,
 * because the stack lists the more specific file first (a user's choice beats the system
 * default). A project file may only add policies: a repository cannot loosen the settings of
 * the person who runs the agent in it, so its other keys are ignored with a warning. */
#include "config/config.h"
#include "config/config_internal.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/buf.h"
#include "config/yaml_load.h"
#include "policies/registry.h"

#define MAX_CONFIG_BYTES (16u * 1024 * 1024)

/* Event types a spec's `on:` may name (the reference's phases plus rampart's own). */
static const char *const known_phases[] = {"request",       "tool_call",   "tool_result",
                                           "response",      "llm_request", "llm_response",
                                           "session_start", "session_end", "stop"};
#define N_PHASES (sizeof known_phases / sizeof known_phases[0])

/* ---- diagnostics ---- */

static void add_diag(config_impl *ci, const char *file, int line, int col, const char *policy,
                     const char *param, bool warning, const char *message)
{
    rp_config *cfg = &ci->pub;
    if (cfg->n_diags == ci->cap_diags) {
        size_t cap = ci->cap_diags ? ci->cap_diags * 2 : 8;
        cfg->diags = rp_arena_realloc(&cfg->arena, cfg->diags, ci->cap_diags * sizeof(rp_diag),
                                      cap * sizeof(rp_diag));
        ci->cap_diags = cap;
    }
    rp_diag *d = &cfg->diags[cfg->n_diags++];
    d->file = file ? rp_arena_strdup(&cfg->arena, file) : NULL;
    d->line = line;
    d->col = col;
    d->policy = policy ? rp_arena_strdup(&cfg->arena, policy) : NULL;
    d->param = param ? rp_arena_strdup(&cfg->arena, param) : NULL;
    d->message = rp_arena_strdup(&cfg->arena, message);
    d->warning = warning;
    if (!warning)
        cfg->n_errors++;
}

static void vreport(file_ctx *fc, int line, int col, const char *policy, const char *param,
                    bool warning, const char *fmt, va_list ap)
{
    rp_buf b = {0};
    rp_buf_vprintf(&b, fmt, ap);
    add_diag(fc->ci, fc->file, line, col, policy, param, warning, b.data ? b.data : "");
    rp_buf_free(&b);
}

/* An error (or warning) at a value node. */
void cfg_error_at(file_ctx *fc, const rp_json *node, const char *policy, const char *param,
                  const char *fmt, ...)
{
    int line, col;
    rp_yaml_pos(&fc->doc, node, &line, &col);
    va_list ap;
    va_start(ap, fmt);
    vreport(fc, line, col, policy, param, false, fmt, ap);
    va_end(ap);
}

/* An error at a mapping key. */
void cfg_error_key(file_ctx *fc, const rp_json_member *m, const char *policy, const char *param,
                   const char *fmt, ...)
{
    int line, col;
    rp_yaml_key_pos(&fc->doc, m, &line, &col);
    va_list ap;
    va_start(ap, fmt);
    vreport(fc, line, col, policy, param, false, fmt, ap);
    va_end(ap);
}

static void warn_key(file_ctx *fc, const rp_json_member *m, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void warn_key(file_ctx *fc, const rp_json_member *m, const char *fmt, ...)
{
    int line, col;
    rp_yaml_key_pos(&fc->doc, m, &line, &col);
    va_list ap;
    va_start(ap, fmt);
    vreport(fc, line, col, NULL, NULL, true, fmt, ap);
    va_end(ap);
}

static void yaml_error(void *self, int line, int col, const char *message)
{
    file_ctx *fc = self;
    add_diag(fc->ci, fc->file, line, col, NULL, NULL, false, message);
}

void rp_diag_format(const rp_diag *d, rp_buf *out)
{
    if (d->file) {
        rp_buf_puts(out, d->file);
        if (d->line > 0) {
            rp_buf_printf(out, ":%d", d->line);
            if (d->col > 0)
                rp_buf_printf(out, ":%d", d->col);
        }
        rp_buf_puts(out, ": ");
    }
    if (d->warning)
        rp_buf_puts(out, "warning: ");
    if (d->policy)
        rp_buf_printf(out, "policy '%s': ", d->policy);
    if (d->param)
        rp_buf_printf(out, d->policy ? "parameter '%s': " : "key '%s': ", d->param);
    rp_buf_puts(out, d->message ? d->message : "");
}

/* "a mapping", "'text'", "3": what the user wrote, for "got ..." */
static const char *describe(rp_arena *a, const rp_json *v)
{
    switch (v->type) {
    case RP_JSON_NULL:
        return "null";
    case RP_JSON_BOOL:
        return v->v.b ? "true" : "false";
    case RP_JSON_DOUBLE:
        /* JSON cannot write these; show the YAML spelling the user wrote. */
        if (isnan(v->v.d))
            return ".nan";
        if (isinf(v->v.d))
            return v->v.d < 0 ? "-.inf" : ".inf";
        return rp_json_to_string(a, v);
    case RP_JSON_INT:
    case RP_JSON_UINT:
        return rp_json_to_string(a, v);
    case RP_JSON_STRING:
        return v->len > 60 ? rp_arena_sprintf(a, "'%.57s...'", v->v.s)
                           : rp_arena_sprintf(a, "'%s'", v->v.s);
    case RP_JSON_ARRAY:
        return "a list";
    case RP_JSON_OBJECT:
        return "a mapping";
    }
    return "a value";
}

const char *cfg_got(file_ctx *fc, const rp_json *v)
{
    return describe(&fc->ci->pub.arena, v);
}

/* ---- small shape checks shared by the sections ---- */

bool cfg_is_null(const rp_json *v)
{
    return !v || v->type == RP_JSON_NULL;
}

/* A non-empty string, else an error naming `key`. */
const char *cfg_want_string(file_ctx *fc, const rp_json *v, const char *policy, const char *key)
{
    if (v->type != RP_JSON_STRING || v->len == 0 || strlen(v->v.s) != v->len) {
        if (policy)
            cfg_error_at(fc, v, policy, NULL, "%s: must be a non-empty string, got %s", key,
                         cfg_got(fc, v));
        else
            cfg_error_at(fc, v, NULL, key, "must be a non-empty string, got %s", cfg_got(fc, v));
        return NULL;
    }
    return v->v.s;
}

bool cfg_want_bool(file_ctx *fc, const rp_json *v, const char *key, bool *out)
{
    if (v->type != RP_JSON_BOOL) {
        cfg_error_at(fc, v, NULL, key, "must be true or false, got %s", cfg_got(fc, v));
        return false;
    }
    *out = v->v.b;
    return true;
}

/* An integer >= min (bools and 1.0 are not integers). `what` is the prefix for spec fields. */
bool cfg_want_int(file_ctx *fc, const rp_json *v, const char *policy, const char *key, int64_t min,
                  int64_t *out)
{
    if (v->type != RP_JSON_INT || v->v.i < min) {
        if (policy)
            cfg_error_at(fc, v, policy, NULL, "%s: must be an integer >= %lld, got %s", key,
                         (long long)min, cfg_got(fc, v));
        else
            cfg_error_at(fc, v, NULL, key, "must be an integer >= %lld, got %s", (long long)min,
                         cfg_got(fc, v));
        return false;
    }
    *out = v->v.i;
    return true;
}

bool cfg_want_mapping(file_ctx *fc, const rp_json *v, const char *policy, const char *key)
{
    if (v->type == RP_JSON_OBJECT)
        return true;
    if (policy)
        cfg_error_at(fc, v, policy, NULL, "%s: must be a mapping, got %s", key, cfg_got(fc, v));
    else
        cfg_error_at(fc, v, NULL, key, "must be a mapping, got %s", cfg_got(fc, v));
    return false;
}

/* Keys used as names (policies, hosts, labels, purposes) must be written as strings. */
bool cfg_want_name_key(file_ctx *fc, const rp_json_member *m, const char *policy, const char *what)
{
    if (rp_yaml_key_is_string(&fc->doc, m) && m->key_len > 0 && strlen(m->key) == m->key_len)
        return true;
    cfg_error_key(fc, m, policy, NULL, "%s must be a non-empty string, got '%s' (quote it)", what,
                  m->key);
    return false;
}

void cfg_list_words(rp_buf *b, const char *const *words, size_t n)
{
    for (size_t i = 0; i < n; i++)
        rp_buf_printf(b, "%s%s", i ? ", " : "", words[i]);
}

/* ---- policies ---- */

/* One policy spec, its fields found and shape-checked. */
typedef struct policy_spec {
    const char *name;
    const rp_json_member *key; /* the policy's mapping key, for positions; NULL for --policy */
    const char *handler;
    const rp_json *handler_node;
    const rp_json *params;      /* raw params (object or null), or NULL */
    const rp_json *params_node; /* where the params were written */
    const rp_json *condition, *set_labels, *config;
    int64_t ask_timeout_s;
    int line;
    bool spec_ok; /* no error in the spec's own fields */
} policy_spec;

typedef struct param_sink {
    file_ctx *fc;
    const policy_spec *spec;
} param_sink;

/* Where to point for a parameter: its key when given, else the params, else the policy. */
static void param_position(const param_sink *ps, const char *param, int *line, int *col)
{
    file_ctx *fc = ps->fc;
    const rp_json *raw = ps->spec->params;
    *line = *col = 0;
    if (param && raw && raw->type == RP_JSON_OBJECT) {
        for (uint32_t i = raw->len; i-- > 0;) {
            if (strcmp(raw->v.members[i].key, param) == 0 &&
                rp_yaml_key_pos(&fc->doc, &raw->v.members[i], line, col))
                return;
        }
    }
    if (ps->spec->key && rp_yaml_key_pos(&fc->doc, ps->spec->key, line, col))
        return;
    if (ps->spec->params_node)
        rp_yaml_pos(&fc->doc, ps->spec->params_node, line, col);
}

static void param_report(void *self, const char *param, const char *message)
{
    param_sink *ps = self;
    int line, col;
    param_position(ps, param, &line, &col);
    add_diag(ps->fc->ci, ps->fc->file, line, col, ps->spec->name, param, false, message);
}

static void add_slot(config_impl *ci, const rp_policy_slot *slot)
{
    rp_engine *e = &ci->pub.engine;
    if (e->n_slots == ci->cap_slots) {
        size_t cap = ci->cap_slots ? ci->cap_slots * 2 : 8;
        e->slots = rp_arena_realloc(&ci->pub.arena, e->slots, ci->cap_slots * sizeof *e->slots,
                                    cap * sizeof *e->slots);
        ci->cap_slots = cap;
    }
    e->slots[e->n_slots++] = *slot;
}

/* A policy's on_error parameter as the slot's verdict; RP_ABSTAIN when unset, resolved to the
 * top-level on_error by config_finish once every file is read. */
static rp_verdict verdict_of_on_error(const char *v)
{
    if (v == NULL)
        return RP_ABSTAIN;
    if (strcasecmp(v, "ask") == 0)
        return RP_ASK;
    if (strcasecmp(v, "allow") == 0)
        return RP_ALLOW;
    return RP_DENY;
}

/* Resolves the handler, validates the params, creates the instance and adds the slot. */
static void instantiate(file_ctx *fc, const policy_spec *spec)
{
    rp_arena *a = &fc->ci->pub.arena;
    param_sink ps = {fc, spec};
    const rp_policy_type *type = rp_registry_find(spec->handler);
    if (!type) {
        int line = 0, col = 0;
        if (!rp_yaml_pos(&fc->doc, spec->handler_node, &line, &col) && spec->key)
            rp_yaml_key_pos(&fc->doc, spec->key, &line, &col);
        rp_buf b = {0};
        rp_buf_printf(&b, "unknown policy handler '%s' (run `rampart policies` for the list)",
                      spec->handler);
        add_diag(fc->ci, fc->file, line, col, spec->name, NULL, false, b.data);
        rp_buf_free(&b);
        return;
    }

    const rp_json *raw = spec->params;
    bool only_on_error = raw && raw->type == RP_JSON_OBJECT && raw->len == 1 &&
                         strcmp(raw->v.members[0].key, rp_config_param_on_error.name) == 0;
    if (type->direct_callable && raw && raw->type == RP_JSON_OBJECT && raw->len > 0 &&
        !only_on_error) {
        /* The reference's own message (§3.4 check 2), so scripts matching it keep working. */
        rp_buf b = {0};
        rp_buf_printf(&b,
                      "Policy '%s' is a direct callable and does not accept factory_params, "
                      "but got: [",
                      spec->handler);
        for (uint32_t i = 0; i < raw->len; i++)
            rp_buf_printf(&b, "%s'%s'", i ? ", " : "", raw->v.members[i].key);
        rp_buf_puts(&b, "]");
        param_report(&ps, NULL, b.data);
        rp_buf_free(&b);
        return;
    }

    const rp_json *params = rp_params_validate(type, raw, a, param_report, &ps);
    if (!params)
        return;

    void *instance = NULL;
    rp_param_error perr;
    memset(&perr, 0, sizeof perr);
    if (type->create && type->create(params, a, &instance, &perr) != 0) {
        perr.param[sizeof perr.param - 1] = '\0';
        perr.message[sizeof perr.message - 1] = '\0';
        param_report(&ps, perr.param[0] ? perr.param : NULL,
                     perr.message[0] ? perr.message : "invalid parameters");
        return;
    }

    rp_policy_slot slot = {
        .name = rp_arena_strdup(a, spec->name),
        .type = type,
        .instance = instance,
        .params = params,
        .condition = spec->condition,
        .set_labels = spec->set_labels,
        .config = spec->config,
        .ask_timeout_s = spec->ask_timeout_s,
        .source = spec->line > 0 ? rp_arena_sprintf(a, "%s:%d", fc->file, spec->line)
                                 : rp_arena_strdup(a, fc->file),
        .level = (int)fc->level,
        .on_error = verdict_of_on_error(rp_json_get_str(params, rp_config_param_on_error.name)),
    };
    /* The slot is kept even when other parts of the spec were wrong, so that rp_config_free
     * destroys the instance; a config with errors is never evaluated. */
    add_slot(fc->ci, &slot);
}

static void check_condition(file_ctx *fc, policy_spec *spec, const rp_json *v)
{
    if (cfg_is_null(v))
        return;
    if (!cfg_want_mapping(fc, v, spec->name, "condition")) {
        spec->spec_ok = false;
        return;
    }
    for (uint32_t i = 0; i < v->len; i++) {
        const rp_json_member *m = &v->v.members[i];
        if (!cfg_want_name_key(fc, m, spec->name, "condition label")) {
            spec->spec_ok = false;
            continue;
        }
        const rp_json *want = &m->value;
        bool ok = want->type == RP_JSON_STRING;
        if (want->type == RP_JSON_ARRAY) {
            ok = true;
            for (uint32_t j = 0; j < want->len; j++)
                ok = ok && want->v.items[j].type == RP_JSON_STRING;
        }
        if (!ok) {
            cfg_error_at(fc, want, spec->name, NULL,
                         "condition: label '%s' must map to a string or a list of strings, got %s",
                         m->key, cfg_got(fc, want));
            spec->spec_ok = false;
        }
    }
    spec->condition = v;
}

static void check_set_labels(file_ctx *fc, policy_spec *spec, const rp_json *v)
{
    if (cfg_is_null(v))
        return;
    if (v->type != RP_JSON_ARRAY) {
        cfg_error_at(fc, v, spec->name, NULL, "set_labels: must be a list of label names, got %s",
                     cfg_got(fc, v));
        spec->spec_ok = false;
        return;
    }
    for (uint32_t i = 0; i < v->len; i++) {
        if (v->v.items[i].type != RP_JSON_STRING) {
            cfg_error_at(fc, &v->v.items[i], spec->name, NULL,
                         "set_labels: item [%u] must be a string, got %s", (unsigned)i,
                         cfg_got(fc, &v->v.items[i]));
            spec->spec_ok = false;
        }
    }
    spec->set_labels = v;
}

static bool phase_known(const char *s)
{
    for (size_t i = 0; i < N_PHASES; i++) {
        if (strcmp(s, known_phases[i]) == 0)
            return true;
    }
    return false;
}

/* `on:` names phases. The reference ignores it for function policies (every function policy
 * sees every phase and abstains where it has nothing to say); rampart does the same, but still
 * rejects a misspelt phase so that a typo does not look like a working filter. */
static void check_on(file_ctx *fc, policy_spec *spec, const rp_json *v)
{
    if (cfg_is_null(v))
        return;
    const rp_json *items = v;
    uint32_t n = 1;
    if (v->type == RP_JSON_ARRAY) {
        items = v->v.items;
        n = v->len;
    }
    for (uint32_t i = 0; i < n; i++) {
        const rp_json *p = &items[i];
        if (p->type == RP_JSON_STRING && phase_known(p->v.s))
            continue;
        rp_buf b = {0};
        cfg_list_words(&b, known_phases, N_PHASES);
        cfg_error_at(fc, p, spec->name, NULL, "on: unknown phase %s (known: %s)", cfg_got(fc, p),
                     b.data);
        rp_buf_free(&b);
        spec->spec_ok = false;
    }
}

static void check_type(file_ctx *fc, policy_spec *spec, const rp_json *v)
{
    if (cfg_is_null(v))
        return;
    const char *t = cfg_want_string(fc, v, spec->name, "type");
    if (!t) {
        spec->spec_ok = false;
        return;
    }
    if (strcmp(t, "function") == 0)
        return;
    spec->spec_ok = false;
    if (strcmp(t, "prompt") == 0)
        cfg_error_at(fc, v, spec->name, NULL,
                     "type 'prompt' was removed; use type: function with handler: prompt_policy "
                     "(omnigent.policies.builtins.prompt.prompt_policy)");
    else if (strcmp(t, "python") == 0)
        cfg_error_at(fc, v, spec->name, NULL,
                     "type 'python' is the REST API's spelling; in a config file write "
                     "type: function with handler: <name>");
    else if (strcmp(t, "url") == 0)
        cfg_error_at(fc, v, spec->name, NULL,
                     "type 'url' (a remote policy endpoint) is not supported by rampart; "
                     "use a builtin with type: function");
    else
        cfg_error_at(fc, v, spec->name, NULL,
                     "unknown policy type '%s' (rampart supports 'function')", t);
}

/* function: <path> | {path: <path>, arguments: {...}} */
static void check_function(file_ctx *fc, policy_spec *spec, const rp_json *v)
{
    if (v->type == RP_JSON_STRING) {
        spec->handler_node = v;
        spec->handler = cfg_want_string(fc, v, spec->name, "function");
        return;
    }
    if (!cfg_want_mapping(fc, v, spec->name, "function")) {
        spec->spec_ok = false;
        return;
    }
    const rp_json *path = NULL;
    for (uint32_t i = 0; i < v->len; i++) {
        const rp_json_member *m = &v->v.members[i];
        if (strcmp(m->key, "path") == 0) {
            path = &m->value;
        } else if (strcmp(m->key, "arguments") == 0) {
            spec->params = &m->value;
            spec->params_node = &m->value;
        } else {
            cfg_error_key(fc, m, spec->name, NULL,
                          "function: unknown field '%s' (known: path, arguments)", m->key);
            spec->spec_ok = false;
        }
    }
    if (!path) {
        cfg_error_at(fc, v, spec->name, NULL, "function: missing 'path' (the policy handler)");
        spec->spec_ok = false;
        return;
    }
    spec->handler_node = path;
    spec->handler = cfg_want_string(fc, path, spec->name, "function.path");
}

static void load_policy(file_ctx *fc, const rp_json_member *pm)
{
    policy_spec spec = {.name = pm->key, .key = pm, .spec_ok = true};
    int col;
    rp_yaml_key_pos(&fc->doc, pm, &spec.line, &col);
    const rp_json *v = &pm->value;
    if (v->type != RP_JSON_OBJECT) {
        cfg_error_at(fc, v, spec.name, NULL,
                     "a policy spec must be a mapping such as {handler: detect_loop}, got %s",
                     cfg_got(fc, v));
        return;
    }

    const rp_json_member *source = NULL; /* handler, callable or function: only one */
    const rp_json *factory_params = NULL, *type = NULL;
    for (uint32_t i = 0; i < v->len; i++) {
        const rp_json_member *m = &v->v.members[i];
        const rp_json *val = &m->value;
        const char *k = m->key;
        bool is_source =
            strcmp(k, "handler") == 0 || strcmp(k, "callable") == 0 || strcmp(k, "function") == 0;
        if (is_source) {
            if (source) {
                cfg_error_key(fc, m, spec.name, NULL,
                              "give only one of handler, callable and function (already have '%s')",
                              source->key);
                spec.spec_ok = false;
                continue;
            }
            source = m;
            if (strcmp(k, "function") == 0) {
                check_function(fc, &spec, val);
            } else {
                spec.handler_node = val;
                spec.handler = cfg_want_string(fc, val, spec.name, k);
            }
        } else if (strcmp(k, "type") == 0) {
            type = val;
        } else if (strcmp(k, "factory_params") == 0) {
            factory_params = val;
        } else if (strcmp(k, "condition") == 0) {
            check_condition(fc, &spec, val);
        } else if (strcmp(k, "set_labels") == 0) {
            check_set_labels(fc, &spec, val);
        } else if (strcmp(k, "config") == 0) {
            if (!cfg_is_null(val) && cfg_want_mapping(fc, val, spec.name, "config"))
                spec.config = val;
            else if (!cfg_is_null(val))
                spec.spec_ok = false;
        } else if (strcmp(k, "ask_timeout") == 0) {
            if (!cfg_is_null(val) &&
                !cfg_want_int(fc, val, spec.name, "ask_timeout", 1, &spec.ask_timeout_s))
                spec.spec_ok = false;
        } else if (strcmp(k, "on") == 0) {
            check_on(fc, &spec, val);
        } else {
            cfg_error_key(
                fc, m, spec.name, NULL,
                "unknown field '%s' in policy spec (known: type, handler, callable, "
                "function, factory_params, condition, set_labels, config, ask_timeout, on)",
                k);
            spec.spec_ok = false;
        }
    }
    check_type(fc, &spec, type);

    if (factory_params) {
        if (spec.params_node) {
            cfg_error_at(fc, factory_params, spec.name, NULL,
                         "parameters given twice: use factory_params or function.arguments, not "
                         "both");
            spec.spec_ok = false;
        } else {
            spec.params = factory_params;
            spec.params_node = factory_params;
        }
    }
    if (!source) {
        cfg_error_key(fc, pm, spec.name, NULL,
                      "missing handler: give `handler: <policy>` (or `function: <policy>`)");
        return;
    }
    if (!spec.handler)
        return; /* already reported */
    instantiate(fc, &spec);
}

static void load_policies(file_ctx *fc, const rp_json_member *top)
{
    const rp_json *v = &top->value;
    if (cfg_is_null(v))
        return;
    if (v->type != RP_JSON_OBJECT) {
        cfg_error_at(fc, v, NULL, "policies",
                     "must be a mapping of policy name to spec (a list is not accepted: names "
                     "identify policies in reasons and state), got %s",
                     cfg_got(fc, v));
        return;
    }
    for (uint32_t i = 0; i < v->len; i++) {
        const rp_json_member *pm = &v->v.members[i];
        if (!cfg_want_name_key(fc, pm, NULL, "a policy name"))
            continue;
        load_policy(fc, pm);
    }
}

typedef struct section {
    const char *key;
    void (*load)(file_ctx *fc, const rp_json_member *m);
    bool project_allowed; /* a project file may set it */
} section;

/* Only policies may come from a project file. subagents and audit are not in the list
 * of user/system-only keys, but a repository raising the sub-agent budget or shortening the
 * audit trail would loosen the user's settings just the same, so they are treated alike. */
static const section sections[] = {
    {"policies", load_policies, true},        {"pricing", cfg_load_pricing, false},
    {"user", cfg_load_user, false},           {"hosts", cfg_load_hosts, false},
    {"subagents", cfg_load_subagents, false}, {"on_error", cfg_load_on_error, false},
    {"state_dir", cfg_load_state_dir, false}, {"audit", cfg_load_audit, false},
};
#define N_SECTIONS (sizeof sections / sizeof sections[0])

static void load_document(file_ctx *fc, const rp_json *root)
{
    if (cfg_is_null(root))
        return; /* an empty file configures nothing */
    if (root->type != RP_JSON_OBJECT) {
        cfg_error_at(fc, root, NULL, NULL,
                     "the top level must be a mapping (policies:, hosts:, ...), got %s",
                     cfg_got(fc, root));
        return;
    }
    for (uint32_t i = 0; i < root->len; i++) {
        const rp_json_member *m = &root->v.members[i];
        const section *s = NULL;
        for (size_t j = 0; j < N_SECTIONS; j++) {
            if (strcmp(sections[j].key, m->key) == 0 && strlen(m->key) == m->key_len)
                s = &sections[j];
        }
        if (!s) {
            rp_buf b = {0};
            for (size_t j = 0; j < N_SECTIONS; j++)
                rp_buf_printf(&b, "%s%s", j ? ", " : "", sections[j].key);
            cfg_error_key(fc, m, NULL, NULL, "unknown top-level key '%s' (known: %s)", m->key,
                          b.data);
            rp_buf_free(&b);
            continue;
        }
        if (fc->level == RP_LEVEL_PROJECT && !s->project_allowed) {
            warn_key(fc, m,
                     "'%s' ignored at project level: a project file may only add policies "
                     "(set it in the user or system config)",
                     m->key);
            continue;
        }
        s->load(fc, m);
    }
}

/* ---- loading ---- */

static config_impl *config_new(void)
{
    config_impl *ci = calloc(1, sizeof *ci);
    if (!ci)
        abort();
    rp_arena_init(&ci->pub.arena, 16 * 1024);
    ci->pub.on_error = RP_ON_ERROR_DENY;
    ci->pub.audit_retention_days = 30;
    return ci;
}

static void add_file(config_impl *ci, const char *path)
{
    rp_config *cfg = &ci->pub;
    if (cfg->n_files == ci->cap_files) {
        size_t cap = ci->cap_files ? ci->cap_files * 2 : 4;
        cfg->files = rp_arena_realloc(&cfg->arena, cfg->files, ci->cap_files * sizeof(char *),
                                      cap * sizeof(char *));
        ci->cap_files = cap;
    }
    cfg->files[cfg->n_files++] = path;
}

static void load_text(config_impl *ci, const char *name, const char *text, size_t len,
                      rp_config_level level)
{
    file_ctx fc = {.ci = ci, .file = rp_arena_strdup(&ci->pub.arena, name), .level = level};
    rp_yaml_load(&ci->pub.arena, text, len, &fc.doc, yaml_error, &fc);
    load_document(&fc, fc.doc.root);
    rp_yaml_doc_free(&fc.doc);
    add_file(ci, fc.file);
}

/* ---- checks over the whole stack ---- */

/* The diagnostic's position from a slot's "file:line" source. */
static void slot_position(rp_arena *a, const rp_policy_slot *s, const char **file, int *line)
{
    const char *colon = s->source ? strrchr(s->source, ':') : NULL;
    *file = s->source;
    *line = 0;
    if (colon && colon[1] >= '0' && colon[1] <= '9') {
        *file = rp_arena_strndup(a, s->source, (size_t)(colon - s->source));
        *line = atoi(colon + 1);
    }
}

/* Issue 6 (the seed's rule): one per-user budget over the whole stack of files. Two
 * user_period_cost_budget policies, or one next to user_daily_cost_budget, would share one
 * approval store per user and window and contradict each other; a daily limit is `period: day`. */
static void check_user_cost_budgets(config_impl *ci)
{
    rp_engine *e = &ci->pub.engine;
    const rp_policy_slot *first_period = NULL, *first_daily = NULL;
    for (size_t i = 0; i < e->n_slots; i++) {
        const rp_policy_slot *s = &e->slots[i];
        if (s->type == NULL)
            continue;
        bool period = strcmp(s->type->name, "user_period_cost_budget") == 0;
        bool daily = strcmp(s->type->name, "user_daily_cost_budget") == 0;
        if (!period && !daily)
            continue;
        const rp_policy_slot *other = period ? (first_period ? first_period : first_daily)
                                             : (first_period ? first_period : NULL);
        if (other != NULL) {
            const char *file;
            int line;
            rp_buf b = {0};
            slot_position(&ci->pub.arena, s, &file, &line);
            if (period && strcmp(other->type->name, "user_period_cost_budget") == 0)
                rp_buf_printf(&b,
                              "only one user_period_cost_budget is allowed in the whole config "
                              "stack; '%s' is already declared at %s (stacking periods, e.g. "
                              "weekly + monthly, is not supported; to limit daily spend use "
                              "period: day)",
                              other->name, other->source ? other->source : "?");
            else
                rp_buf_printf(&b,
                              "user_period_cost_budget and user_daily_cost_budget cannot be "
                              "combined ('%s' at %s, '%s' at %s); use one "
                              "user_period_cost_budget with period: day for a daily limit",
                              other->name, other->source ? other->source : "?", s->name,
                              s->source ? s->source : "?");
            add_diag(ci, file, line, 0, s->name, NULL, false, b.data);
            rp_buf_free(&b);
        }
        if (period && first_period == NULL)
            first_period = s;
        if (daily && first_daily == NULL)
            first_daily = s;
    }
}

/* Copies what was merged while loading into the public fields. */
static void config_finish(config_impl *ci)
{
    rp_config *cfg = &ci->pub;
    check_user_cost_budgets(ci);
    /* A policy without its own on_error fails as the top-level on_error says (issue 16). */
    static const rp_verdict top[] = {
        [RP_ON_ERROR_DENY] = RP_DENY, [RP_ON_ERROR_ASK] = RP_ASK, [RP_ON_ERROR_ALLOW] = RP_ALLOW};
    for (size_t i = 0; i < cfg->engine.n_slots; i++)
        if (cfg->engine.slots[i].on_error == RP_ABSTAIN)
            cfg->engine.slots[i].on_error = top[cfg->on_error];
    cfg->engine.types = rp_registry_all(&cfg->engine.n_types);
    cfg_publish_settings(ci);
}

/* Reads a whole file; NULL with errno set on failure. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    rp_buf b = {0};
    char chunk[8192];
    size_t n;
    int saved = 0;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        rp_buf_append(&b, chunk, n);
        if (b.len > MAX_CONFIG_BYTES) {
            saved = EFBIG;
            break;
        }
    }
    if (!saved && ferror(f))
        saved = errno ? errno : EIO;
    fclose(f);
    if (saved) {
        rp_buf_free(&b);
        errno = saved;
        return NULL;
    }
    *len = b.len;
    return rp_buf_take(&b);
}

const rp_policy_type *rp_config_policy_type(const char *name_or_handler)
{
    return rp_registry_find(name_or_handler);
}

rp_config *rp_config_load(const rp_config_file *files, size_t n_files)
{
    config_impl *ci = config_new();
    for (size_t i = 0; i < n_files; i++) {
        size_t len = 0;
        errno = 0;
        char *text = read_file(files[i].path, &len);
        if (!text) {
            char msg[256];
            snprintf(msg, sizeof msg, "cannot read config file: %s", strerror(errno));
            add_diag(ci, files[i].path, 0, 0, NULL, NULL, false, msg);
            continue;
        }
        load_text(ci, files[i].path, text, len, files[i].level);
        free(text);
    }
    config_finish(ci);
    return &ci->pub;
}

rp_config *rp_config_load_string(const char *name, const char *yaml, size_t len,
                                 rp_config_level level)
{
    config_impl *ci = config_new();
    load_text(ci, name ? name : "<string>", yaml ? yaml : "", yaml ? len : 0, level);
    config_finish(ci);
    return &ci->pub;
}

rp_config *rp_config_single(const char *policy, const char *params_json)
{
    config_impl *ci = config_new();
    rp_arena *a = &ci->pub.arena;
    file_ctx fc = {.ci = ci, .file = "--params", .level = RP_LEVEL_EXPLICIT};
    policy_spec spec = {.name = policy ? policy : "", .handler = policy ? policy : ""};
    bool ok = true;
    if (params_json) {
        rp_json_error jerr;
        spec.params = rp_json_parse(a, params_json, strlen(params_json), &jerr);
        if (!spec.params) {
            char msg[200];
            snprintf(msg, sizeof msg, "invalid JSON: %s", jerr.msg);
            add_diag(ci, "--params", jerr.line, jerr.col, spec.name, NULL, false, msg);
            ok = false;
        } else if (spec.params->type != RP_JSON_OBJECT) {
            char msg[200];
            snprintf(msg, sizeof msg, "parameters must be a JSON object, got %s",
                     describe(a, spec.params));
            add_diag(ci, "--params", 0, 0, spec.name, NULL, false, msg);
            ok = false;
        }
    }
    if (ok)
        instantiate(&fc, &spec);
    config_finish(ci);
    return &ci->pub;
}

void rp_config_free(rp_config *cfg)
{
    if (!cfg)
        return;
    for (size_t i = 0; i < cfg->engine.n_slots; i++) {
        const rp_policy_slot *s = &cfg->engine.slots[i];
        if (s->type && s->type->destroy && s->instance)
            s->type->destroy(s->instance);
    }
    rp_arena_free(&cfg->arena);
    free((config_impl *)cfg);
}

/* ---- the default stack ---- */

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Appends path to paths_buf and out[]; false when there is no room. */
static bool push_file(rp_config_file *out, size_t max, size_t *n, char *paths_buf,
                      size_t paths_buf_size, size_t *used, const char *path, rp_config_level level)
{
    size_t len = strlen(path) + 1;
    if (*n >= max || *used + len > paths_buf_size)
        return false;
    memcpy(paths_buf + *used, path, len);
    out[*n].path = paths_buf + *used;
    out[*n].level = level;
    *used += len;
    (*n)++;
    return true;
}

bool rp_config_user_path(char *out, size_t size)
{
    /* XDG: a relative $XDG_CONFIG_HOME is invalid and must be ignored. */
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    int n = -1;
    if (xdg && xdg[0] == '/')
        n = snprintf(out, size, "%s/rampart/config.yaml", xdg);
    else if (home && home[0])
        n = snprintf(out, size, "%s/.config/rampart/config.yaml", home);
    return n > 0 && (size_t)n < size;
}

size_t rp_config_default_stack(rp_config_file *out, size_t max, char *paths_buf,
                               size_t paths_buf_size, bool (*trusted)(void *self, const char *dir),
                               void *self, rp_diag *warning)
{
    size_t n = 0, used = 0;
    char path[PATH_MAX + 64];
    if (warning)
        memset(warning, 0, sizeof *warning);

    if (file_exists("./.rampart.yaml")) {
        char cwd[PATH_MAX];
        bool ok = trusted && getcwd(cwd, sizeof cwd) && trusted(self, cwd);
        if (ok) {
            push_file(out, max, &n, paths_buf, paths_buf_size, &used, "./.rampart.yaml",
                      RP_LEVEL_PROJECT);
        } else if (warning) {
            warning->file = "./.rampart.yaml";
            warning->message = "./.rampart.yaml ignored: directory not trusted (run `rampart "
                               "trust`)";
            warning->warning = true;
        }
    }

    if (rp_config_user_path(path, sizeof path) && file_exists(path))
        push_file(out, max, &n, paths_buf, paths_buf_size, &used, path, RP_LEVEL_USER);

    if (file_exists("/etc/rampart/config.yaml"))
        push_file(out, max, &n, paths_buf, paths_buf_size, &used, "/etc/rampart/config.yaml",
                  RP_LEVEL_SYSTEM);
    return n;
}
