/* pyrepr.h — the few Python semantics the reference's reason texts and checks depend on.
 *
 * Omnigent's builtins are Python: their reasons contain `{x!r}` and `{x}` of arbitrary JSON
 * values, they compare names after str.lower(), split on str.split() whitespace and convert
 * state values with int() (core/pynum.h). Hosts show these texts and the conformance vectors
 * compare them byte for byte, so rampart reproduces them here, in one place.
 *
 * Limits (documented in docs/policies.md): str.isprintable() and str.lower() are reproduced for
 * ASCII, Latin-1, Latin Extended-A, Greek, Cyrillic, Armenian, fullwidth Latin and the usual
 * format/space characters, not for every Unicode code point. */
#ifndef RAMPART_CORE_PYREPR_H
#define RAMPART_CORE_PYREPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"

/* Byte length of the first max_chars code points of s[0..n) (Python's s[:max_chars]); an invalid
 * byte counts as one code point (core/utf8.h, RP_UTF8_AS_BYTE). */
size_t rp_py_prefix_bytes(const char *s, size_t n, size_t max_chars);

/* Whether cp is whitespace for str.split(), str.strip() and re's \s. */
bool rp_py_isspace(uint32_t cp);

/* repr(s) of a Python str: single quotes unless s contains ' and no ", escapes \\ \n \r \t,
 * \xNN / \uNNNN / \UNNNNNNNN for non-printable characters. */
void rp_py_repr_str(rp_buf *out, const char *s, size_t n);
/* repr(v) of the Python value json.loads would give: None, True, 1, 1.5, 'x', [..], {..}. */
void rp_py_repr(rp_buf *out, const rp_json *v);
/* str(v), i.e. f"{v}": a string as itself, anything else as repr. */
void rp_py_str(rp_buf *out, const rp_json *v);
/* repr(sorted(items)) for a list of strings: ['explore', 'implement']. */
void rp_py_repr_sorted_strs(rp_buf *out, const char *const *items, size_t n);

/* str.lower() of s[0..n) into the arena (NUL-terminated); *out_len gets the length if non-NULL. */
char *rp_py_lower(rp_arena *a, const char *s, size_t n, size_t *out_len);
/* str.strip() of s[0..n): sets *start and *len to the stripped slice. */
void rp_py_strip(const char *s, size_t n, size_t *start, size_t *len);

#endif
