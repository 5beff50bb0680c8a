/* check_internal.h — private to the type checker: the state shared by check.c (the walk over
 * the AST, names, literals, comprehensions) and check_call.c (calls and overloads). */
#ifndef RAMPART_CEL_CHECK_INTERNAL_H
#define RAMPART_CEL_CHECK_INTERNAL_H

#include "cel/check.h"
#include "cel/check_sigs.h"
#include "cel/check_types.h"

/* A comprehension variable in scope; innermost first. */
typedef struct cel_check_local {
    const char *name;
    const cel_check_type *type;
    const struct cel_check_local *up;
} cel_check_local;

typedef struct cel_check_checker {
    cel_check_subst s;
    const cel_compile_opts *opts;
    const char *container; /* "" when none */
    const char *src;
    size_t len;
    cel_source_error *err;
    const cel_check_type **decl_types; /* parsed opts->decls[i].type; NULL for a function */
    const cel_check_sig *user_sigs; /* overloads of declared functions, ending with a NULL name */
    const cel_check_local *locals;
} cel_check_checker;

/* The type of e, or NULL after reporting the (first) error into c->err. */
const cel_check_type *cel_check_expr(cel_check_checker *c, const cel_expr *e);
const cel_check_type *cel_check_call(cel_check_checker *c, const cel_expr *e);

/* Reports an error at e's position; always returns NULL so callers can `return
 * cel_check_fail(...)`. */
const cel_check_type *cel_check_fail(cel_check_checker *c, const cel_expr *e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* "a.b.c" when e is a chain of selects ending in an identifier (no local variable at its
 * root), else NULL. */
const char *cel_check_qualified_name(cel_check_checker *c, const cel_expr *e);
/* The type of a declared variable or type name `name` under the container rules, or NULL. */
const cel_check_type *cel_check_lookup_name(cel_check_checker *c, const char *name);
/* The type of field selection on a value of type t (map value, dyn for messages), or NULL
 * after reporting an error at e. */
const cel_check_type *cel_check_select_field(cel_check_checker *c, const cel_expr *e,
                                             const cel_check_type *t);

#endif
