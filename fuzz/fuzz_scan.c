/* fuzz_scan.c — libFuzzer target for the content scanner (every type, one pass).
 *
 * Checked invariants, any break aborts:
 *   - the scan succeeds on any bytes;
 *   - findings lie inside the text, are sorted by start, never overlap another finding of
 *     their type and never sit wholly inside another finding;
 *   - a preview is NUL-terminated and at most RP_SCAN_MASK_MAX bytes;
 *   - redaction removes every finding's bytes: the redacted text holds one marker per merged
 *     span and its length adds up. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "scan/scan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static rp_scanner *scanner;

static void check(int ok, const char *what)
{
    if (ok)
        return;
    fprintf(stderr, "fuzz_scan: %s\n", what);
    abort();
}

static void open_scanner(void)
{
    char err[256];
    rp_scan_options opt = {
        .types = RP_SCAN_BIT(RP_SCAN_N_TYPES) - 1u, .ip_include_private = true, .cache_dir = ""};
    if (rp_scanner_open(&opt, &scanner, err, sizeof err) != 0) {
        fprintf(stderr, "fuzz_scan: %s\n", err);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (scanner == NULL)
        open_scanner();
    rp_arena a = {0};
    rp_scan_result r;
    const char *text = (const char *)data;
    check(rp_scanner_scan(scanner, &a, text, size, &r) == 0, "scan failed");
    size_t covered = 0, marker_bytes = 0, last_end = 0;
    for (size_t i = 0; i < r.n; i++) {
        const rp_scan_finding *f = &r.findings[i];
        check(f->start < f->end && f->end <= size, "finding outside the text");
        check((unsigned)f->type < RP_SCAN_N_TYPES, "bad type");
        check(strlen(f->preview) <= RP_SCAN_MASK_MAX, "preview too long");
        for (size_t j = 0; j < i; j++) {
            const rp_scan_finding *g = &r.findings[j];
            check(g->start <= f->start, "findings not sorted");
            check(!(g->type == f->type && f->start < g->end), "same-type overlap");
            check(!(g->start <= f->start && f->end <= g->end), "finding inside another");
        }
        /* Merged spans, as rp_scan_redact merges them. */
        if (i == 0 || f->start >= last_end) {
            marker_bytes += strlen("[REDACTED:]") + strlen(rp_scan_type_name(f->type));
            covered += f->end - f->start;
            last_end = f->end;
        } else if (f->end > last_end) {
            covered += f->end - last_end;
            last_end = f->end;
        }
    }
    size_t n = 0;
    char *red = rp_scan_redact(&a, text, size, r.findings, r.n, &n);
    check(red[n] == '\0', "redaction not terminated");
    check(n == size - covered + marker_bytes, "redacted length does not add up");
    rp_arena_free(&a);
    return 0;
}
