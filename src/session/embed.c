/* embed.c — the public API of include/rampart.h on top of config, store and session. */
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "cost/pricing.h"
#include "session/session.h"
#include "rampart.h"

struct rampart {
    rp_config *config;
    rp_store *store; /* NULL when stateless */
    rp_arena arena;  /* reused per event */
    /* Read once per handle: the policies' ledger needs, the price table (at first use). */
    rp_session_needs needs;
    rp_cost_pricing_once prices;
};

static char *diagnostics_text(const rp_config *cfg)
{
    rp_buf b = {0};
    for (size_t i = 0; i < cfg->n_diags; i++) {
        if (cfg->diags[i].warning)
            continue;
        rp_diag_format(&cfg->diags[i], &b);
        rp_buf_putc(&b, '\n');
    }
    return rp_buf_take(&b);
}

rampart *rampart_open_flags(const char *const *config_files, size_t n_files, const char *state_dir,
                            unsigned flags, char **err)
{
    rp_config_file *files = calloc(n_files ? n_files : 1, sizeof(*files));
    if (files == NULL)
        abort();
    for (size_t i = 0; i < n_files; i++) {
        files[i].path = config_files[i];
        files[i].level = RP_LEVEL_EXPLICIT;
    }
    rp_config *cfg = rp_config_load(files, n_files);
    free(files);
    if (cfg->n_errors) {
        if (err)
            *err = diagnostics_text(cfg);
        rp_config_free(cfg);
        return NULL;
    }
    rampart *r = calloc(1, sizeof(*r));
    if (r == NULL)
        abort();
    r->config = cfg;
    rp_arena_init(&r->arena, 64 * 1024);
    rp_session_needs_of(cfg, &r->needs);
    r->prices.config_pricing = cfg->pricing;
    if (!(flags & RAMPART_STATELESS)) {
        char msg[512];
        r->store = rp_store_open_sqlite(state_dir ? state_dir : cfg->state_dir, msg, sizeof(msg));
        if (r->store == NULL) {
            if (err)
                *err = strdup(msg);
            rampart_close(r);
            return NULL;
        }
    }
    return r;
}

rampart *rampart_open(const char *const *config_files, size_t n_files, const char *state_dir,
                      char **err)
{
    return rampart_open_flags(config_files, n_files, state_dir, 0, err);
}

char *rampart_eval(rampart *r, const char *event_json, size_t len, char **err)
{
    rp_session_opts opts = {.store = r->store,
                            .audit = r->store != NULL,
                            .arena = &r->arena,
                            .pricing = &r->prices,
                            .needs = &r->needs};
    rp_buf out = {0};
    char msg[512];
    rp_session_status st =
        rp_session_eval(r->config, &opts, event_json, len, &out, msg, sizeof(msg));
    if (st == RP_SESSION_BAD_EVENT) {
        rp_buf_free(&out);
        if (err)
            *err = strdup(msg);
        return NULL;
    }
    return rp_buf_take(&out);
}

void rampart_free(void *p)
{
    free(p);
}

void rampart_close(rampart *r)
{
    if (r == NULL)
        return;
    if (r->store)
        rp_store_close(r->store);
    rp_cost_pricing_once_free(&r->prices);
    rp_config_free(r->config);
    rp_arena_free(&r->arena);
    free(r);
}

const char *rampart_version(void)
{
    return RAMPART_VERSION;
}
