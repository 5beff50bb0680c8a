/* check_types.h — private to the type checker: CEL types, their text form, and unification.
 *
 * Types are small immutable trees in the checker's arena. Type parameters (T_PARAM) stand for
 * "some type" in generic signatures (list(A) + list(A) -> list(A)) and for element types not
 * known yet ([] is list(T)); a substitution (cel_check_subst) records what each parameter was bound
 * to while one expression is checked, as in cel-go's checker. */
#ifndef RAMPART_CEL_CHECK_TYPES_H
#define RAMPART_CEL_CHECK_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/buf.h"

typedef enum cel_check_kind {
    T_DYN = 0,
    T_ERROR, /* the type of a node that failed to check: compatible with everything */
    T_NULL,
    T_BOOL,
    T_INT,
    T_UINT,
    T_DOUBLE,
    T_STRING,
    T_BYTES,
    T_TIMESTAMP,
    T_DURATION,
    T_LIST,     /* p[0] = element */
    T_MAP,      /* p[0] = key, p[1] = value */
    T_TYPE,     /* p[0] = the type the value denotes */
    T_OPTIONAL, /* p[0] = wrapped type */
    T_MESSAGE,  /* name; an opaque message whose fields are dyn */
    T_PARAM,    /* id; a type variable */
    T_ABSTRACT  /* name and np parameters: a declared function's type such as tuple(A, B) */
} cel_check_kind;

#define CEL_CHECK_MAX_PARAMS 8 /* parameters of one type (abstract types may have several) */

typedef struct cel_check_type cel_check_type;
struct cel_check_type {
    cel_check_kind kind;
    int id;           /* T_PARAM */
    const char *name; /* T_MESSAGE, T_ABSTRACT */
    int np;           /* parameters in use in p */
    const cel_check_type *p[CEL_CHECK_MAX_PARAMS];
};

/* A binding made during an assignability test, so that a failed test can be undone. */
typedef struct cel_check_undo {
    int id;
    const cel_check_type *old;
} cel_check_undo;

/* Bindings of type parameters, indexed by id; grows as fresh parameters are made. Undoing a
 * failed test walks the trail back instead of copying all bindings, which keeps checking
 * linear in the size of the expression. */
typedef struct cel_check_subst {
    rp_arena *arena;
    const cel_check_type **bound; /* NULL = unbound */
    int n, cap;
    cel_check_undo *trail;
    int trail_n, trail_cap;
    /* Work done on types, against `budget` (0 = CEL_CHECK_DEFAULT_BUDGET): types are DAGs and a
     * short expression can build one whose tree is exponentially large ({a: a} nested), so
     * every walk over a type spends from the budget and stops once it is exhausted. */
    uint64_t work, budget;
    bool exhausted;
} cel_check_subst;

#define CEL_CHECK_DEFAULT_BUDGET 1000000

/* Spends one unit of work; false (and s->exhausted) once the budget is used up. */
bool cel_check_spend(cel_check_subst *s);

const cel_check_type *
cel_check_prim(cel_check_kind k); /* the shared instance of a parameterless kind */
const cel_check_type *cel_check_make(rp_arena *a, cel_check_kind k, const cel_check_type *p0,
                                     const cel_check_type *p1);
const cel_check_type *cel_check_fresh(cel_check_subst *s); /* a new unbound parameter */
/* name(ps[0], ..., ps[np - 1]); np <= CEL_CHECK_MAX_PARAMS. */
const cel_check_type *cel_check_make_abstract(rp_arena *a, const char *name, int np,
                                              const cel_check_type *const *ps);

/* Parses type text ("list(int)", "map(string, dyn)", "google.protobuf.Timestamp") starting
 * at *pos, advancing past it. Single upper-case letters are parameters when `params` is
 * non-NULL: params[letter - 'A'] holds the fresh parameter made for that letter in this
 * signature. NULL on malformed text. */
const cel_check_type *cel_check_parse_type(cel_check_subst *s, const char *text, size_t *pos,
                                           const cel_check_type **params);

/* The kind a type text starts with ("list(int)" → T_LIST), without parsing it; false when
 * the text does not fix a kind (a parameter letter, dyn, a message name). */
bool cel_check_text_kind(const char *text, cel_check_kind *kind);
/* Kinds a null value may stand for (cel-go's legacy nullable types). */
bool cel_check_nullable(cel_check_kind k);

/* Follows bindings until an unbound parameter or a non-parameter. */
const cel_check_type *cel_check_resolve(const cel_check_subst *s, const cel_check_type *t);
/* The type with every bound parameter replaced; unbound ones become dyn when `dyn_free`. */
const cel_check_type *cel_check_substitute(cel_check_subst *s, const cel_check_type *t,
                                           bool dyn_free);

/* Can a value of type `actual` be passed where `expected` is wanted? Binds parameters in *s
 * on success (cel-go's isAssignable); leaves *s unchanged on failure. */
bool cel_check_assignable(cel_check_subst *s, const cel_check_type *expected,
                          const cel_check_type *actual);
/* The same for n parameters at once (all or nothing). */
bool cel_check_assignable_list(cel_check_subst *s, const cel_check_type *const *expected,
                               const cel_check_type *const *actual, int n);
/* The join of two element types of a literal: the more general when compatible, else dyn. */
const cel_check_type *cel_check_join(cel_check_subst *s, const cel_check_type *prev,
                                     const cel_check_type *cur);

bool cel_check_is_dyn(const cel_check_subst *s,
                      const cel_check_type *t); /* dyn, error or an unbound parameter */

/* Text form: "int", "list(int)", "map(string, dyn)", "optional_type(int)", "type(int)";
 * unbound parameters print as dyn ("..." once the work budget is exhausted). */
void cel_check_format(rp_buf *out, cel_check_subst *s, const cel_check_type *t);
const char *cel_check_format_arena(cel_check_subst *s, const cel_check_type *t);

#endif
