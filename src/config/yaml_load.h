/* yaml_load.h — YAML text → rp_json, with a side table of source positions.
 *
 * The config loader works on rp_json (the same value model as events and params), but every
 * diagnostic must name file:line:col. So the YAML reader records, next to the tree it builds,
 * where each value node and each mapping key came from. Arrays are allocated once at their
 * final size, so the addresses recorded in the table stay valid for the tree's lifetime.
 *
 * Scalars resolve as in the YAML 1.2 core schema: plain null/Null/NULL/~/empty → null,
 * true/True/TRUE/false/False/FALSE → bool, decimal/0o/0x integers → INT (UINT above INT64_MAX),
 * floats and .inf/.nan → DOUBLE, anything else a string. Quoted and block scalars are strings.
 * Tags !!str !!null !!bool !!int !!float !!seq !!map and the non-specific "!" are honoured;
 * any other tag is an error.
 *
 * Errors (each reported through the callback, all of them, not only the first): syntax errors
 * (fatal), duplicate mapping keys, non-scalar mapping keys, unknown aliases, more than one
 * document, nesting deeper than RP_YAML_MAX_DEPTH (an alias counts as deep as the value it
 * stands for), and more than RP_YAML_MAX_NODES nodes
 * counting alias expansions (the "billion laughs" defence). Aliases share the anchored value
 * (the tree is read-only), and count as a full copy against the node cap. */
#ifndef RAMPART_CONFIG_YAML_LOAD_H
#define RAMPART_CONFIG_YAML_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"
#include "core/json.h"

/* Composition into rp_json recurses once per level (libyaml's own parser does not); a
 * configuration nests a handful of levels. The node cap bounds time and memory, aliases
 * included. */
#define RP_YAML_MAX_DEPTH 64
#define RP_YAML_MAX_NODES 100000

typedef struct rp_yaml_pos_entry {
    const void *addr;      /* an rp_json value node, or an rp_json_member (its key) */
    int line, col;         /* 1-based */
    rp_json_type key_type; /* for keys: how the key scalar would resolve as a value */
} rp_yaml_pos_entry;

typedef struct rp_yaml_doc {
    rp_json *root;          /* NULL when the text holds no document */
    rp_yaml_pos_entry *pos; /* heap, sorted by addr after loading */
    size_t n_pos, cap_pos;
} rp_yaml_doc;

/* Receives each problem with its 1-based position. */
typedef void (*rp_yaml_error_fn)(void *self, int line, int col, const char *message);

/* Parses `text` into doc (values allocated from a). Returns the number of errors reported;
 * doc->root may be non-NULL even then (the tree minus the offending parts), so that callers
 * can report further problems. Free the side table with rp_yaml_doc_free. */
size_t rp_yaml_load(rp_arena *a, const char *text, size_t len, rp_yaml_doc *doc,
                    rp_yaml_error_fn report, void *self);
void rp_yaml_doc_free(rp_yaml_doc *doc);

/* Position of a value node from this doc's tree. False (0, 0) when unknown. */
bool rp_yaml_pos(const rp_yaml_doc *doc, const rp_json *node, int *line, int *col);
/* Position of the key of an object member from this doc's tree. */
bool rp_yaml_key_pos(const rp_yaml_doc *doc, const rp_json_member *m, int *line, int *col);
/* Whether the member's key was written as a string: quoted, or a plain scalar that resolves to
 * a string (so `1:`, `true:` and `~:` are not). Unknown members count as strings. */
bool rp_yaml_key_is_string(const rp_yaml_doc *doc, const rp_json_member *m);

#endif
