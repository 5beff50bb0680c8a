/* hook.h — the hook runtime: one host hook call, from the payload on stdin to the host's answer
 * on stdout/stderr and the exit code (src/hosts/hook.c). `rampart hook HOST` is its argv. */
#ifndef RAMPART_HOSTS_HOOK_H
#define RAMPART_HOSTS_HOOK_H

#include <stddef.h>

#include "config/config.h"
#include "hosts/host.h"

typedef struct rp_hook_options {
    const rp_host_adapter *host;
    const rp_config_file *configs; /* -c FILEs (replace the default stack); n_configs may be 0 */
    size_t n_configs;
    const char *state_dir; /* --state-dir, or NULL */
} rp_hook_options;

/* Answers one hook call of o->host. Call rp_hook_deadline_prepare() first, before the
 * process's first allocation. Returns the exit status the host expects. */
int rp_hook_run(const rp_hook_options *o);

#endif
