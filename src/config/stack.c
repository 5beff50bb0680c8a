/* stack.c — the config stack as the evaluating commands (`eval`, `hook`) assemble it, and
 * the trust questions asked while doing so. */
#include "config/stack.h"

#include <limits.h>
#include <stdio.h>

bool rp_config_probe_trusted(void *self, const char *dir)
{
    rp_config_trust_probe *p = self;
    if (!p->tried) {
        p->tried = true;
        char err[512];
        p->store = rp_store_open_sqlite(p->dir, err, sizeof err);
        if (!p->store) {
            fprintf(stderr,
                    "%s: warning: cannot read the trusted directories (%s); "
                    "./.rampart.yaml is ignored\n",
                    p->prog, err);
        }
    }
    return p->store && rp_store_is_trusted(p->store, dir);
}

rp_config *rp_config_load_stack(const rp_config_file *files, size_t n_files,
                                rp_config_trust_probe *probe, bool warn_when_empty)
{
    if (n_files > 0) {
        return rp_config_load(files, n_files);
    }
    rp_config_file stack[4];
    char paths[4 * PATH_MAX];
    rp_diag warning = {0};
    size_t n = rp_config_default_stack(stack, 4, paths, sizeof paths, rp_config_probe_trusted,
                                       probe, &warning);
    if (warning.message) {
        rp_buf line = {0};
        rp_diag_format(&warning, &line);
        fprintf(stderr, "%s: %s\n", probe->prog, line.data ? line.data : warning.message);
        rp_buf_free(&line);
    }
    if (n == 0 && warn_when_empty) {
        fprintf(stderr,
                "%s: warning: no configuration found (no -c FILE, no trusted "
                "./.rampart.yaml, no user or system config): every event is allowed\n",
                probe->prog);
    }
    return rp_config_load(stack, n);
}

void rp_config_print_diags(const rp_config *cfg, FILE *out)
{
    rp_buf line = {0};
    for (size_t i = 0; i < cfg->n_diags; i++) {
        rp_buf_reset(&line);
        rp_diag_format(&cfg->diags[i], &line);
        fprintf(out, "%s\n", line.data ? line.data : "");
    }
    rp_buf_free(&line);
}
