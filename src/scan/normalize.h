/* normalize.h — folding Unicode decimal digits to ASCII before a scan.
 *
 * The reference's patterns use Python's Unicode-aware \d, so "１２３-４５-６７８９" (fullwidth)
 * or Arabic-Indic digits are an SSN to it; rampart's extractors work on ASCII. Rather than
 * teach every extractor UTF-8, the scanner scans a copy in which each Unicode decimal digit
 * (general category Nd, Unicode 14: the 65 blocks of ten) is its ASCII digit, and maps the
 * findings back to the original byte offsets. Texts without such digits (nearly all) are
 * scanned as they are: the check is one pass over the bytes >= 0x80. */
#ifndef RAMPART_SCAN_NORMALIZE_H
#define RAMPART_SCAN_NORMALIZE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"

typedef struct rp_digit_fold {
    const char *text; /* the folded copy, NUL-terminated, from the arena */
    size_t len;
    size_t *origin; /* origin[i]: offset in the original of folded byte i; origin[len] = n */
} rp_digit_fold;

/* The value (0-9) of the Unicode decimal digit cp, or -1. ASCII digits are not included. */
int rp_unicode_digit_value(unsigned cp);
/* false (out untouched) when text has no non-ASCII decimal digit; else fills out. */
bool rp_fold_unicode_digits(rp_arena *a, const char *text, size_t n, rp_digit_fold *out);

#endif
