/* eval.h — private: the compiled program shared by compile.c and eval.c.
 *
 * Compilation leaves the AST as the program (it is already compact: operators are resolved to
 * cel_op, functions to cel_function pointers, constant lists and maps folded to constants) and
 * adds name-resolution data per node, indexed by node id, so that evaluation never builds a
 * string: an identifier or select chain `a.b.c` carries the dotted names to try against the
 * activation, already prefixed with the container's namespaces. */
#ifndef RAMPART_CEL_EVAL_H
#define RAMPART_CEL_EVAL_H

#include "cel/cel.h"
#include "cel/fn.h"

/* Names an identifier or select chain may resolve to, most specific first. */
typedef struct cel_name_info {
    const char *const *names; /* NUL-terminated candidates ("a.b.x", "a.x", "x") */
    const uint32_t *lens;
    uint32_t n;
    const char *root;      /* the chain's leftmost identifier: a comprehension variable of
                              that name shadows every candidate */
    const char *type_name; /* identifiers only: the type this name denotes ("int"), or NULL */
    uint32_t field_len;    /* selects only: strlen of the field (every select has an entry;
                              n == 0 when it is not a chain of names) */
    /* Select chains only: the root identifier node and the fields selected from it in order,
     * so that `event.data.name` is evaluated as one lookup and a loop, not a recursion. */
    const cel_expr *chain_root;
    const char *const *chain_fields;
    const uint32_t *chain_lens;
    uint32_t chain_n;
} cel_name_info;

typedef struct cel_prepared_entry {
    const cel_function *fn;
    void *prepared;
} cel_prepared_entry;

struct cel_program {
    rp_arena arena; /* AST, constants, name data */
    cel_expr *root;
    const char *container; /* "" when none */
    const char *result_type;
    const cel_name_info *const *info; /* by node id; NULL entries for other nodes */
    int64_t n_info;
    cel_prepared_entry *prepared;
    uint32_t n_prepared;
};

/* Builds a program from an already parsed AST allocated in `arena` (taken over: the program
 * frees it). Used by cel_compile and by tests that build ASTs by hand. */
cel_program *cel_program_from_ast(rp_arena arena, cel_expr *root, int64_t next_id,
                                  const cel_compile_opts *opts);

#endif
