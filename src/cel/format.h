/* format.h — the strings extension's `format` (format.c), with cel-go's semantics.
 *
 * Clauses: %s (any value but an optional, in cel-go's text form: lists as [a, b], maps as
 * {k: v} sorted by key text, doubles in shortest form, timestamps in RFC 3339, durations as
 * seconds "1.5s"), %d (ints, uints and doubles), %f and %e with an optional precision ".N"
 * (default 6; ints, uints and doubles), %b (ints, uints, bools), %x and %X (ints, uints,
 * strings and bytes, byte by byte), %o (ints and uints), %% for a percent sign. NaN and the
 * infinities print as NaN, Infinity and -Infinity. Mismatches are errors with cel-go's
 * messages ("error during formatting: decimal clause can only be used on integers, was
 * given string"). */
#ifndef RAMPART_CEL_FORMAT_H
#define RAMPART_CEL_FORMAT_H

#include <stddef.h>

#include "cel/value.h"
#include "core/arena.h"
#include "core/buf.h"

#define CEL_FORMAT_MAX_PRECISION 100

/* fmt[0..len).format(list): the formatted string, or an error value; the error "evaluation
 * memory limit exceeded" when the output passes max_len bytes (0 = no limit). */
cel_value cel_string_format(rp_arena *a, const char *fmt, size_t len, const cel_value *list,
                            size_t max_len);

/* Appends the %s text of v to out. 0, or -1 with the message in err for a kind %s cannot
 * print, or -2 once out holds more than max_len bytes (a list built by sharing,
 * cel.bind(a1, [a0, a0], ...), prints exponentially long: it stops there). */
int cel_format_string_clause(rp_buf *out, const cel_value *v, size_t max_len, char *err,
                             size_t err_size);

/* Appends d in the shortest form that reads back exactly, in fixed notation (Go's
 * strconv.FormatFloat(d, 'f', -1, 64)): 3.14, 100000000000000000000, 0.000001. d is finite. */
void cel_format_double_shortest(rp_buf *out, double d);

#endif
