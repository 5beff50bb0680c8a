/* hook.h — the hook runtime: one host hook call, from the payload on stdin to the host's answer
 * on stdout/stderr and the exit code (src/hosts/hook.c). `rampart hook HOST` is its argv. */
#ifndef RAMPART_HOSTS_HOOK_H
#define RAMPART_HOSTS_HOOK_H

#include <stddef.h>

#include "config/config.h"
#include "cost/pricing.h"
#include "hosts/host.h"
#include "store/store.h"

typedef struct rp_hook_options {
    const rp_hook_adapter *host;
    const rp_config_file *configs; /* -c FILEs (replace the default stack); n_configs may be 0 */
    size_t n_configs;
    const char *state_dir; /* --state-dir, or NULL */
} rp_hook_options;

/* Answers one hook call of o->host. Call rp_hook_deadline_prepare() first, before the
 * process's first allocation. Returns the exit status the host expects. */
int rp_hook_run(const rp_hook_options *o);

/* One call answered inside the caller's process, for benches and tests: what rp_hook_run does
 * after the config is loaded, from the payload to the answer, without the deadline (nothing is
 * armed) and without the process around it (stdin, stdout, exit, RAMPART_NOW's check). As in
 * the hook, a call that commits leaves the deadline's signals blocked (rp_hook_deadline_claim):
 * not for a process that relies on SIGALRM or SIGTERM. */
typedef struct rp_hook_in_process {
    const rp_hook_adapter *host;
    const rp_config *cfg; /* loaded, without errors */
    rp_store *store;      /* open, kept open; NULL = opened per call as the hook does */
    /* The price table kept across calls (zero-initialised with cfg->pricing, freed by the
     * caller), as one hook process keeps it for its call. NULL = built per call. */
    rp_cost_pricing_once *pricing;
} rp_hook_in_process;

/* Answers `input` (the host's payload) into *out (its buffers reset first; the caller frees
 * them). Returns the exit status the host would get. */
int rp_hook_answer_in_process(const rp_hook_in_process *o, const char *input, size_t len,
                              rp_hook_answer *out);

#endif
