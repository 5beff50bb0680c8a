/* check_types.h — private to the type checker: CEL types, their text form, and unification.
 *
 * Types are small immutable trees in the checker's arena. Type parameters (T_PARAM) stand for
 * "some type" in generic signatures (list(A) + list(A) -> list(A)) and for element types not
 * known yet ([] is list(T)); a substitution (ck_subst) records what each parameter was bound
 * to while one expression is checked, as in cel-go's checker. */
#ifndef RAMPART_CEL_CHECK_TYPES_H
#define RAMPART_CEL_CHECK_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/buf.h"

typedef enum ck_kind {
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
} ck_kind;

#define CK_MAX_PARAMS 8 /* parameters of one type (abstract types may have several) */

typedef struct ck_type ck_type;
struct ck_type {
    ck_kind kind;
    int id;           /* T_PARAM */
    const char *name; /* T_MESSAGE, T_ABSTRACT */
    int np;           /* parameters in use in p */
    const ck_type *p[CK_MAX_PARAMS];
};

/* A binding made during an assignability test, so that a failed test can be undone. */
typedef struct ck_undo {
    int id;
    const ck_type *old;
} ck_undo;

/* Bindings of type parameters, indexed by id; grows as fresh parameters are made. Undoing a
 * failed test walks the trail back instead of copying all bindings, which keeps checking
 * linear in the size of the expression. */
typedef struct ck_subst {
    rp_arena *arena;
    const ck_type **bound; /* NULL = unbound */
    int n, cap;
    ck_undo *trail;
    int trail_n, trail_cap;
    /* Work done on types, against `budget` (0 = CK_DEFAULT_BUDGET): types are DAGs and a
     * short expression can build one whose tree is exponentially large ({a: a} nested), so
     * every walk over a type spends from the budget and stops once it is exhausted. */
    uint64_t work, budget;
    bool exhausted;
} ck_subst;

#define CK_DEFAULT_BUDGET 1000000

/* Spends one unit of work; false (and s->exhausted) once the budget is used up. */
bool ck_spend(ck_subst *s);

const ck_type *ck_prim(ck_kind k); /* the shared instance of a parameterless kind */
const ck_type *ck_make(rp_arena *a, ck_kind k, const ck_type *p0, const ck_type *p1);
const ck_type *ck_fresh(ck_subst *s); /* a new unbound parameter */
/* name(ps[0], ..., ps[np - 1]); np <= CK_MAX_PARAMS. */
const ck_type *ck_make_abstract(rp_arena *a, const char *name, int np, const ck_type *const *ps);

/* Parses type text ("list(int)", "map(string, dyn)", "google.protobuf.Timestamp") starting
 * at *pos, advancing past it. Single upper-case letters are parameters when `params` is
 * non-NULL: params[letter - 'A'] holds the fresh parameter made for that letter in this
 * signature. NULL on malformed text. */
const ck_type *ck_parse_type(ck_subst *s, const char *text, size_t *pos, const ck_type **params);

/* The kind a type text starts with ("list(int)" → T_LIST), without parsing it; false when
 * the text does not fix a kind (a parameter letter, dyn, a message name). */
bool ck_text_kind(const char *text, ck_kind *kind);
/* Kinds a null value may stand for (cel-go's legacy nullable types). */
bool ck_nullable(ck_kind k);

/* Follows bindings until an unbound parameter or a non-parameter. */
const ck_type *ck_resolve(const ck_subst *s, const ck_type *t);
/* The type with every bound parameter replaced; unbound ones become dyn when `dyn_free`. */
const ck_type *ck_substitute(ck_subst *s, const ck_type *t, bool dyn_free);

/* Can a value of type `actual` be passed where `expected` is wanted? Binds parameters in *s
 * on success (cel-go's isAssignable); leaves *s unchanged on failure. */
bool ck_assignable(ck_subst *s, const ck_type *expected, const ck_type *actual);
/* The same for n parameters at once (all or nothing). */
bool ck_assignable_list(ck_subst *s, const ck_type *const *expected, const ck_type *const *actual,
                        int n);
/* The join of two element types of a literal: the more general when compatible, else dyn. */
const ck_type *ck_join(ck_subst *s, const ck_type *prev, const ck_type *cur);

bool ck_is_dyn(const ck_subst *s, const ck_type *t); /* dyn, error or an unbound parameter */

/* Text form: "int", "list(int)", "map(string, dyn)", "optional_type(int)", "type(int)";
 * unbound parameters print as dyn ("..." once the work budget is exhausted). */
void ck_format(rp_buf *out, ck_subst *s, const ck_type *t);
const char *ck_format_arena(ck_subst *s, const ck_type *t);

#endif
