/* stack.h — the config stack as the evaluating commands (`eval`, `hook`, `doctor`) assemble
 * it: -c FILEs, else the trusted project, user and system files. */
#ifndef RAMPART_CONFIG_STACK_H
#define RAMPART_CONFIG_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config/config.h"
#include "store/store.h"

/* The store consulted while the default config stack is assembled, opened only if a project
 * file actually needs a trust check, so the common case opens the database once (the caller may
 * take `store` over for evaluation). prog prefixes the warnings ("rampart eval"). */
typedef struct rp_config_trust_probe {
    const char *prog;
    const char *dir; /* --state-dir or NULL (default) */
    rp_store *store;
    bool tried;
} rp_config_trust_probe;
bool rp_config_probe_trusted(void *self, const char *dir);

/* The config of -c FILEs (n_files > 0, replacing the stack), else the default stack (trusted
 * project, user, system), its warning printed to stderr. Never NULL; the caller checks
 * n_errors. */
rp_config *rp_config_load_stack(const rp_config_file *files, size_t n_files,
                                rp_config_trust_probe *probe, bool warn_when_empty);

/* Prints every diagnostic of cfg (errors and warnings), one line each. */
void rp_config_print_diags(const rp_config *cfg, FILE *out);

#endif
