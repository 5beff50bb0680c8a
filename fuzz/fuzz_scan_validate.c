/* fuzz_scan_validate.c — libFuzzer target for the content-scanning validators.
 *
 * Every validator runs on the whole input and on every split the first byte selects (so spans
 * in the middle of a larger text, as the prefilter hands them over, are covered too). Checked
 * invariants, any break aborts:
 *   - a masked preview is NUL-terminated, at most RP_SCAN_MASK_MAX bytes, and never contains
 *     the input's middle (the part a preview must hide) when the input is at least 40 bytes,
 *     unless those bytes also occur in the part a preview may keep;
 *   - an accepted credit card is Luhn-valid over its digits;
 *   - entropy lies in [0, 8]. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "scan/validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (ok)
        return;
    fprintf(stderr, "fuzz_scan_validate: %s\n", what);
    abort();
}

/* Whether needle (8 bytes) occurs in s[0, n). */
static bool contains(const char *s, size_t n, const char *needle)
{
    for (size_t i = 0; i + 8 <= n; i++)
        if (memcmp(s + i, needle, 8) == 0)
            return true;
    return false;
}

static void run(rp_arena *a, const char *text, size_t text_len, size_t off, size_t n)
{
    const char *s = text + off;
    (void)rp_scan_ssn(s, n, true);
    (void)rp_scan_ssn(s, n, false);
    rp_card_issuer card = rp_scan_credit_card(s, n);
    if (card != RP_CARD_NONE) {
        char d[32];
        size_t k = 0;
        for (size_t i = 0; i < n && k < sizeof d; i++)
            if (s[i] >= '0' && s[i] <= '9')
                d[k++] = s[i];
        check(rp_scan_luhn(d, k), "accepted card is not Luhn-valid");
    }
    (void)rp_card_issuer_name(card);
    (void)rp_scan_email(s, n);
    (void)rp_scan_phone(text, text_len, off, n);
    (void)rp_scan_iban(s, n);
    (void)rp_ip_class_name(rp_scan_ip_address(s, n));
    (void)rp_scan_jwt(a, s, n);
    double h = rp_scan_entropy(s, n);
    check(h >= 0.0 && h <= 8.0 + 1e-9, "entropy out of range");
    (void)rp_scan_secret_value(s, n);
    (void)rp_scan_github_token(s, n);
    for (int kind = RP_MASK_SECRET; kind <= RP_MASK_GENERIC; kind++) {
        char out[RP_SCAN_MASK_MAX + 1];
        size_t m = rp_scan_mask((rp_mask_kind)kind, s, n, out);
        check(m <= RP_SCAN_MASK_MAX && out[m] == '\0', "mask too long or not terminated");
        if (kind != RP_MASK_EMAIL && n >= 40) {
            /* 8 bytes from the middle (past any kept prefix, before the kept tail) never
             * appear in a preview, unless they contain stars or NULs themselves */
            const char *mid = s + n / 2 - 4;
            if (memchr(mid, '*', 8) == NULL && memchr(mid, 0, 8) == NULL) {
                char needle[9];
                memcpy(needle, mid, 8);
                needle[8] = '\0';
                /* A repetitive input may hold the same 8 bytes in the kept prefix or tail
                 * ("pk_live_...pk_live_..."): a copy from there is not a leak. */
                bool kept =
                    contains(s, n < 24 ? n : 24, needle) || contains(s + n - 12, 12, needle);
                check(kept || strstr(out, needle) == NULL, "mask reveals the middle of the secret");
            }
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    rp_arena arena;
    rp_arena_init(&arena, 4096);
    const char *text = (const char *)data;
    run(&arena, text, size, 0, size);
    if (size >= 2) {
        size_t off = data[0] % size, n = (size - off) > 0 ? (data[size - 1] % (size - off + 1)) : 0;
        run(&arena, text, size, off, n);
    }
    rp_arena_free(&arena);
    return 0;
}
