/* fuzz_eval.c — event parsing + evaluation through all nine foundation policies, stateless.
 * Any crash, sanitizer report or leak is a finding; every input must yield either a decision
 * or a BAD_EVENT error. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "session/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char config_yaml[] =
    "policies:\n"
    "  budget: {handler: max_tool_calls_per_session, factory_params: {limit: 3}}\n"
    "  loop: {handler: detect_loop, factory_params: {window: 4, threshold: 2}}\n"
    "  thrash: {handler: detect_thrashing, factory_params: {consecutive_threshold: 2}}\n"
    "  os: {handler: ask_on_os_tools}\n"
    "  skills: {handler: block_skills, factory_params: {blocked: [deploy]}}\n"
    "  spawn: {handler: spawn_bounds, factory_params: {max_dispatches_per_turn: 1}}\n"
    "  purpose: {handler: headless_subagent_purpose_guard}\n"
    "  readonly: {handler: read_only_os}\n"
    "  risk:\n"
    "    handler: risk_score_policy\n"
    "    factory_params: {tool_points: {Bash: 30}, guarded_tools: [Bash],\n"
    "                     sensitive_labels: {secret: 60}}\n";

static rp_config *config;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (config == NULL) {
        config = rp_config_load_string("fuzz.yaml", config_yaml, strlen(config_yaml),
                                       RP_LEVEL_EXPLICIT);
        if (config->n_errors)
            abort();
    }
    rp_session_opts opts = {0};
    rp_buf out = {0};
    char err[256];
    rp_session_status st = rp_session_eval(config, &opts, (const char *)data, size, &out, err,
                                           sizeof(err));
    if (st == RP_SESSION_OK && (out.data == NULL || strncmp(out.data, "{\"result\":", 10) != 0))
        abort();
    rp_buf_free(&out);
    return 0;
}
