/* check.h — the optional CEL type checker (check.c).
 *
 * Infers a type for every node of a parsed expression from the declared variables and the
 * standard function signatures, and reports the first type error with its position (for
 * example "found no matching overload for '_+_' applied to '(int, string)'", "undeclared
 * reference to 'x' (in container '')"). dyn is compatible with everything, as in cel-go.
 *
 * Declarations (opts->decls) are variables with CEL type text ("int", "list(int)",
 * "map(string, dyn)", "google.protobuf.Timestamp", "optional_type(int)", a message name), or,
 * when the text contains "->", functions: overloads separated by ';', each
 * "(param, ...) -> result" for a global call or ".(receiver, param, ...) -> result" for a
 * receiver call, where single upper-case letters are type parameters and unknown names with
 * parameters are abstract types: {"tuple", "(A, B, C) -> tuple(A, B, C)"}. */
#ifndef RAMPART_CEL_CHECK_H
#define RAMPART_CEL_CHECK_H

#include "cel/cel.h"

/* 0 when the expression type-checks (*result_type = its type text, from `a`); -1 with *err.
 * src/len are the source text, for the error's line and column. */
int cel_check(rp_arena *a, const cel_expr *root, const char *src, size_t len,
              const cel_compile_opts *opts, const char **result_type, cel_source_error *err);

#endif
