/* config_settings.c — the settings sections of a config file: user, state_dir, on_error,
 * pricing, hosts, subagents and audit; what config.c's load_document hands each of those keys.
 * Each value is checked here and merged into config_impl, the first file that sets it winning
 * (files come most specific first), then published into rp_config by cfg_publish_settings once
 * every file is read. Which levels may set them (not a project file) is config.c's section
 * table; policies are config.c's too. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "config/config_internal.h"
#include "core/buf.h"
#include "cost/pricing.h"

static const char *const known_hosts[] = {"claude-code", "codex", "cursor",
                                          "gemini",      "pi",    "opencode"};
#define N_HOSTS (sizeof known_hosts / sizeof known_hosts[0])
_Static_assert(N_HOSTS == CFG_N_HOSTS, "config_impl keeps one host_state per known host");

void cfg_load_user(file_ctx *fc, const rp_json_member *m)
{
    const char *s = cfg_want_string(fc, &m->value, NULL, "user");
    if (s && !fc->ci->pub.user)
        fc->ci->pub.user = s;
}

void cfg_load_state_dir(file_ctx *fc, const rp_json_member *m)
{
    const char *s = cfg_want_string(fc, &m->value, NULL, "state_dir");
    if (s && !fc->ci->pub.state_dir)
        fc->ci->pub.state_dir = s;
}

void cfg_load_on_error(file_ctx *fc, const rp_json_member *m)
{
    const rp_json *v = &m->value;
    static const char *const names[] = {"deny", "ask", "allow"};
    static const rp_on_error values[] = {RP_ON_ERROR_DENY, RP_ON_ERROR_ASK, RP_ON_ERROR_ALLOW};
    for (size_t i = 0; v->type == RP_JSON_STRING && i < 3; i++) {
        if (strcasecmp(v->v.s, names[i]) == 0) {
            if (!fc->ci->on_error_set) {
                fc->ci->pub.on_error = values[i];
                fc->ci->on_error_set = true;
            }
            return;
        }
    }
    cfg_error_at(fc, v, NULL, "on_error", "must be one of deny, ask, allow, got %s",
                 cfg_got(fc, v));
}

/* One model of `pricing:` ({input, output, cache_read?, cache_write?}, USD per 1M tokens). Every
 * problem is reported, each as pricing.<model>.<field>. Returns whether the entry is valid. */
static bool check_price_entry(file_ctx *fc, const rp_json_member *e)
{
    static const char *const fields[] = {"input", "output", "cache_read", "cache_write"};
    rp_arena *a = &fc->ci->pub.arena;
    const rp_json *v = &e->value;
    /* The lookup ignores surrounding blanks and gives up beyond 255 characters. */
    if (e->key_len > 255 || strspn(e->key, " \t\r\n") == e->key_len) {
        cfg_error_key(fc, e, NULL, "pricing",
                      "a model id must have 1 to 255 characters, got '%.40s'", e->key);
        return false;
    }
    if (v->type != RP_JSON_OBJECT) {
        cfg_error_at(fc, v, NULL, rp_arena_sprintf(a, "pricing.%s", e->key),
                     "must be a mapping with input and output prices (USD per 1M tokens), got %s",
                     cfg_got(fc, v));
        return false;
    }
    bool ok = true;
    char err[160];
    for (uint32_t i = 0; i < v->len; i++) {
        const rp_json_member *f = &v->v.members[i];
        if (rp_cost_price_field_check(f->key, &f->value, err, sizeof err) == 0)
            continue;
        ok = false;
        const char *param = rp_arena_sprintf(a, "pricing.%s.%s", e->key, f->key);
        bool known = false;
        for (size_t k = 0; k < 4; k++)
            known = known || strcmp(f->key, fields[k]) == 0;
        if (known)
            cfg_error_at(fc, &f->value, NULL, param, "%s, got %s", err, cfg_got(fc, &f->value));
        else
            cfg_error_key(fc, f, NULL, param, "%s", err);
    }
    for (size_t k = 0; k < 2; k++) {
        if (!rp_json_get(v, fields[k])) {
            cfg_error_key(fc, e, NULL, rp_arena_sprintf(a, "pricing.%s.%s", e->key, fields[k]),
                          "missing: give the price in USD per 1M %s tokens", fields[k]);
            ok = false;
        }
    }
    return ok;
}

void cfg_load_pricing(file_ctx *fc, const rp_json_member *m)
{
    const rp_json *v = &m->value;
    if (cfg_is_null(v) || !cfg_want_mapping(fc, v, NULL, "pricing"))
        return;
    config_impl *ci = fc->ci;
    rp_arena *a = &ci->pub.arena;
    if (!ci->pricing)
        ci->pricing = rp_json_new(a, rp_json_make_object());
    /* Merge by model: an entry from a more specific file wins. Each merged entry carries the
     * file it came from as "source", which `rampart pricing` shows. */
    for (uint32_t i = 0; i < v->len; i++) {
        const rp_json_member *e = &v->v.members[i];
        if (!cfg_want_name_key(fc, e, NULL, "a model id") || !check_price_entry(fc, e))
            continue;
        if (rp_json_get(ci->pricing, e->key))
            continue;
        rp_json entry = rp_json_clone(a, &e->value);
        rp_json_object_set(a, &entry, "source",
                           rp_json_make_string(a, rp_arena_sprintf(a, "config: %s", fc->file)));
        rp_json_object_set(a, ci->pricing, e->key, entry);
    }
}

static host_state *find_host(config_impl *ci, const char *name)
{
    for (size_t i = 0; i < N_HOSTS; i++) {
        if (strcmp(known_hosts[i], name) == 0)
            return &ci->hosts[i];
    }
    return NULL;
}

static void load_host(file_ctx *fc, host_state *h, const rp_json_member *hm)
{
    const rp_json *v = &hm->value;
    rp_arena *a = &fc->ci->pub.arena;
    h->configured = true;
    if (cfg_is_null(v))
        return;
    if (!cfg_want_mapping(fc, v, NULL, rp_arena_sprintf(a, "hosts.%s", hm->key)))
        return;
    for (uint32_t i = 0; i < v->len; i++) {
        const rp_json_member *m = &v->v.members[i];
        const rp_json *f = &m->value;
        const char *key = rp_arena_sprintf(a, "hosts.%s.%s", hm->key, m->key);
        bool b;
        int64_t n;
        if (strcmp(m->key, "allow_overrides") == 0) {
            if (cfg_want_bool(fc, f, key, &b) && !h->set_allow_overrides) {
                h->s.allow_overrides = b;
                h->set_allow_overrides = true;
            }
        } else if (strcmp(m->key, "deny_exit_code") == 0) {
            if (cfg_want_bool(fc, f, key, &b) && !h->set_deny_exit_code) {
                h->s.deny_exit_code = b;
                h->set_deny_exit_code = true;
            }
        } else if (strcmp(m->key, "ask_as") == 0) {
            const char *s = cfg_want_string(fc, f, NULL, key);
            if (s && !h->set_ask_as) {
                h->s.ask_as = s;
                h->set_ask_as = true;
            }
        } else if (strcmp(m->key, "deadline_ms") == 0) {
            if (cfg_want_int(fc, f, NULL, key, 1, &n) && !h->set_deadline_ms) {
                h->s.deadline_ms = n;
                h->set_deadline_ms = true;
            }
        } else {
            cfg_error_key(fc, m, NULL, key,
                          "unknown host setting (known: allow_overrides, ask_as, deny_exit_code, "
                          "deadline_ms)");
        }
    }
}

void cfg_load_hosts(file_ctx *fc, const rp_json_member *top)
{
    const rp_json *v = &top->value;
    if (cfg_is_null(v) || !cfg_want_mapping(fc, v, NULL, "hosts"))
        return;
    for (uint32_t i = 0; i < v->len; i++) {
        const rp_json_member *hm = &v->v.members[i];
        host_state *h = find_host(fc->ci, hm->key);
        if (!h) {
            rp_buf b = {0};
            cfg_list_words(&b, known_hosts, N_HOSTS);
            cfg_error_key(fc, hm, NULL, "hosts", "unknown host '%s' (known: %s)", hm->key, b.data);
            rp_buf_free(&b);
            continue;
        }
        load_host(fc, h, hm);
    }
}

void cfg_load_subagents(file_ctx *fc, const rp_json_member *top)
{
    const rp_json *v = &top->value;
    config_impl *ci = fc->ci;
    rp_arena *a = &ci->pub.arena;
    if (cfg_is_null(v) || !cfg_want_mapping(fc, v, NULL, "subagents"))
        return;
    for (uint32_t i = 0; i < v->len; i++) {
        const rp_json_member *m = &v->v.members[i];
        const rp_json *f = &m->value;
        if (strcmp(m->key, "purposes") == 0) {
            if (cfg_is_null(f) || !cfg_want_mapping(fc, f, NULL, "subagents.purposes"))
                continue;
            if (!ci->purposes)
                ci->purposes = rp_json_new(a, rp_json_make_object());
            for (uint32_t j = 0; j < f->len; j++) {
                const rp_json_member *p = &f->v.members[j];
                if (!cfg_want_name_key(fc, p, NULL, "a sub-agent type"))
                    continue;
                const char *key = rp_arena_sprintf(a, "subagents.purposes.%s", p->key);
                if (cfg_want_string(fc, &p->value, NULL, key) && !rp_json_get(ci->purposes, p->key))
                    rp_json_object_set(a, ci->purposes, p->key, p->value);
            }
        } else if (strcmp(m->key, "default_cost_budget") == 0) {
            double d;
            if (!rp_json_number(f, &d) || !(d > 0)) {
                cfg_error_at(fc, f, NULL, "subagents.default_cost_budget",
                             "must be a number > 0 (USD), got %s", cfg_got(fc, f));
            } else if (!ci->budget_set) {
                ci->budget = *f;
                ci->budget_set = true;
            }
        } else {
            cfg_error_key(fc, m, NULL, rp_arena_sprintf(a, "subagents.%s", m->key),
                          "unknown sub-agent setting (known: purposes, default_cost_budget)");
        }
    }
}

void cfg_load_audit(file_ctx *fc, const rp_json_member *top)
{
    const rp_json *v = &top->value;
    if (cfg_is_null(v) || !cfg_want_mapping(fc, v, NULL, "audit"))
        return;
    for (uint32_t i = 0; i < v->len; i++) {
        const rp_json_member *m = &v->v.members[i];
        int64_t n;
        if (strcmp(m->key, "retention_days") == 0) {
            if (cfg_want_int(fc, &m->value, NULL, "audit.retention_days", 0, &n) &&
                !fc->ci->retention_set) {
                fc->ci->pub.audit_retention_days = n;
                fc->ci->retention_set = true;
            }
        } else {
            cfg_error_key(fc, m, NULL, rp_arena_sprintf(&fc->ci->pub.arena, "audit.%s", m->key),
                          "unknown audit setting (known: retention_days)");
        }
    }
}

void cfg_publish_settings(config_impl *ci)
{
    rp_config *cfg = &ci->pub;
    rp_arena *a = &cfg->arena;
    cfg->pricing = ci->pricing;
    size_t n = 0;
    for (size_t i = 0; i < N_HOSTS; i++)
        n += ci->hosts[i].configured;
    cfg->hosts = n ? rp_arena_calloc(a, n * sizeof *cfg->hosts) : NULL;
    for (size_t i = 0; i < N_HOSTS; i++) {
        if (!ci->hosts[i].configured)
            continue;
        rp_host_settings *h = &cfg->hosts[cfg->n_hosts++];
        *h = ci->hosts[i].s;
        h->host = known_hosts[i];
    }
    if (ci->purposes || ci->budget_set) {
        rp_json *sub = rp_json_new(a, rp_json_make_object());
        if (ci->purposes)
            rp_json_object_set(a, sub, "purposes", *ci->purposes);
        if (ci->budget_set)
            rp_json_object_set(a, sub, "default_cost_budget", ci->budget);
        cfg->subagents = sub;
    }
}

const rp_host_settings *rp_config_host(const rp_config *cfg, const char *host)
{
    static const rp_host_settings defaults = {NULL, false, NULL, false, 0};
    for (size_t i = 0; cfg && host && i < cfg->n_hosts; i++) {
        if (strcmp(cfg->hosts[i].host, host) == 0)
            return &cfg->hosts[i];
    }
    return &defaults;
}
