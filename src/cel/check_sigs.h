/* check_sigs.h — private to the type checker: the signatures of CEL's standard functions,
 * operators and the extension libraries rampart implements (strings, math, optionals, time). */
#ifndef RAMPART_CEL_CHECK_SIGS_H
#define RAMPART_CEL_CHECK_SIGS_H

#include <stdbool.h>

/* One overload. For a receiver overload the receiver is the first parameter. Types are
 * check_types.h text; single upper-case letters are type parameters of the overload. */
typedef struct cel_check_sig {
    const char *name;
    bool receiver;
    const char *params; /* "int, int"; "" for none */
    const char *result;
} cel_check_sig;

/* All overloads, terminated by an entry whose name is NULL. Overloads of one name are
 * adjacent. */
extern const cel_check_sig cel_check_sigs[];

/* Does any overload (either call style) have this name? */
bool cel_check_sig_known(const char *name);

#endif
