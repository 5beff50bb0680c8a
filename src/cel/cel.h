/* cel.h — rampart's Common Expression Language: compile once, evaluate many.
 *
 *     cel_program *p;
 *     cel_source_error err;
 *     if (cel_compile("event.type == 'tool_call'", len, NULL, &p, &err) != 0) ... err.line/col
 *     cel_binding vars[] = {{"event", cel_from_json(event_json)}};
 *     cel_activation act = {vars, 1, NULL, NULL};
 *     cel_value v = cel_eval(p, &act, arena);   // v, and all it points to, lives in arena
 *     cel_program_free(p);
 *
 * A program is immutable after compilation and may be evaluated from several threads at once,
 * each with its own arena. Evaluation never fails as a C call: problems are CEL error values
 * (cel_is_error). Comprehensions are bounded by an iteration budget so an expression cannot run
 * away (an error "evaluation budget exceeded" instead), and the memory an evaluation allocates
 * by a limit ("evaluation memory limit exceeded"). */
#ifndef RAMPART_CEL_CEL_H
#define RAMPART_CEL_CEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cel/parse.h"
#include "cel/value.h"

typedef struct cel_program cel_program;

/* A declared variable for the optional type checker. type is CEL type text: "int", "string",
 * "dyn", "list(int)", "map(string, dyn)", "google.protobuf.Timestamp", "optional_type(int)". */
typedef struct cel_decl {
    const char *name;
    const char *type;
} cel_decl;

typedef struct cel_compile_opts {
    const char *container; /* namespace for name resolution ("a.b"), NULL = none */
    bool disable_macros;
    bool check;            /* run the type checker over the declarations below */
    const cel_decl *decls;
    size_t n_decls;
} cel_compile_opts;

/* Parses, resolves names and functions, optionally type-checks. 0 on success; -1 with *err
 * (parse or check error with line and column). opts may be NULL. */
int cel_compile(const char *src, size_t len, const cel_compile_opts *opts, cel_program **out,
                cel_source_error *err);
void cel_program_free(cel_program *p);
const cel_expr *cel_program_ast(const cel_program *p);
/* The checked result type ("bool", "map(string, dyn)"), or NULL when not checked. */
const char *cel_program_result_type(const cel_program *p);

typedef struct cel_binding {
    const char *name; /* may be qualified: "a.b.c" */
    cel_value value;
} cel_binding;

typedef struct cel_activation {
    const cel_binding *bindings;
    size_t n;
    /* Optional fallback for names not bound above: set *out and return true when known. */
    bool (*lookup)(void *self, const char *name, cel_value *out);
    void *self;
} cel_activation;

/* Comprehension iterations per evaluation. Work proportional to the data done outside
 * iterations counts too, one iteration per KiB scanned or per 16 list elements / map entries
 * compared (`x in list`, lookups in JSON objects, list equality, string functions), so that
 * linear work in a loop is bounded like a nested loop. */
#define CEL_DEFAULT_BUDGET 1000000
/* Bytes an evaluation may add to its arena (arena->total growth). Past it the result is the
 * error "evaluation memory limit exceeded"; a single allocation whose size depends on the data
 * (a concatenation, replace, join, format ...) is refused before it is made. */
#define CEL_DEFAULT_MEMORY_LIMIT (64u << 20)

/* Evaluates p with the variables of act (NULL = none). Results come from `arena`. */
cel_value cel_eval(const cel_program *p, const cel_activation *act, rp_arena *arena);
/* Same with an explicit iteration budget (0 = CEL_DEFAULT_BUDGET). */
cel_value cel_eval_budget(const cel_program *p, const cel_activation *act, rp_arena *arena,
                          uint64_t budget);
/* The general entry: an iteration budget and a memory limit in bytes (0 = the defaults). */
cel_value cel_eval_limits(const cel_program *p, const cel_activation *act, rp_arena *arena,
                          uint64_t budget, size_t memory_limit);

#endif
