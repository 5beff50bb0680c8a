/* clock.h — "now" for all of rampart, and RFC 3339 timestamps.
 * RAMPART_NOW (RFC 3339, e.g. 2026-03-15T12:00:00Z) fixes the clock for tests and replays. */
#ifndef RAMPART_CORE_CLOCK_H
#define RAMPART_CORE_CLOCK_H

#include <stddef.h>
#include <stdint.h>

/* µs since the Unix epoch, UTC; RAMPART_NOW when set and valid. */
int64_t rp_now_us(void);
/* 0 when RAMPART_NOW is unset or valid, -1 when it is set but malformed (callers report it). */
int rp_clock_check_env(char *err, size_t err_size);
/* Parses RFC 3339 ("2026-03-15T12:00:00Z", fractional seconds, "+02:00" offsets, lower-case t/z
 * accepted). Returns 0 and *us, or -1. */
int rp_rfc3339_parse(const char *s, int64_t *us);
/* Formats as "2026-03-15T12:00:00.123456Z" (fraction omitted when zero). */
void rp_rfc3339_format(int64_t us, char *buf, size_t size);

#endif
