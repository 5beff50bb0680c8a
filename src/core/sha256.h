/* sha256.h — SHA-256 (FIPS 180-4), for detect_loop's call hashes and ASK keys. */
#ifndef RAMPART_CORE_SHA256_H
#define RAMPART_CORE_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rp_sha256 {
    uint32_t state[8];
    uint64_t bytes;
    uint8_t block[64];
    size_t fill;
} rp_sha256;

void rp_sha256_init(rp_sha256 *h);
void rp_sha256_update(rp_sha256 *h, const void *data, size_t len);
void rp_sha256_final(rp_sha256 *h, uint8_t digest[32]);
/* Lower-case hex digest of data into hex[65] (NUL-terminated). */
void rp_sha256_hex(const void *data, size_t len, char hex[65]);

/* For tests: force the portable block function even when the CPU has SHA extensions (true), or
 * go back to choosing by CPU (false); and whether the accelerated one is in use. */
void rp_sha256_force_portable(bool on);
bool rp_sha256_accelerated(void);

#endif
