/* fuzz_config.c — libFuzzer target: arbitrary bytes as a config file, at both the explicit and
 * the project level. Loading must never crash, leak or hang, whatever the input; every
 * diagnostic must format. */
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "config/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The first byte picks the level so one corpus covers both code paths. */
    rp_config_level level = size > 0 && (data[0] & 1) ? RP_LEVEL_PROJECT : RP_LEVEL_EXPLICIT;
    rp_config *cfg = rp_config_load_string("fuzz.yaml", (const char *)data, size, level);
    rp_buf b = {0};
    for (size_t i = 0; i < cfg->n_diags; i++) {
        rp_diag_format(&cfg->diags[i], &b);
        rp_buf_reset(&b);
    }
    rp_buf_free(&b);
    (void)rp_config_host(cfg, "codex");
    rp_config_free(cfg);
    return 0;
}
