/* policy_values.h — the equivalent spellings ("policy values", aliases) a path rule is matched
 * against: reference permissions.md §3.5 and the seed document (plan 0393).
 *
 *   literal   = trim(p); drop ONE leading ' or " and ONE trailing ' or " (each independently);
 *               drop one leading '@'; home-expand ("~", "$HOME", "${HOME}" alone or before a
 *               separator, as in glob.h)
 *   literal == ""  → no values (n == 0)
 *   literal == "*" → ["*"] (star = true; no absolute, no canonical)
 *   absolute  = fold(resolve(base, literal))     base = the bash effective dir, or cwd
 *   cwd_rel   = relative(cwd, absolute) when absolute == cwd or lies inside it, and non-empty
 *   canonical = fold(realpath of the longest existing ancestor + the rest), through ctx->fs;
 *               an error other than "does not exist" keeps the lexical path; no fs → absolute
 *   values    = unique, in order: [absolute, cwd_rel, literal, canonical, canonical_rel]
 *   canonical_rel = the canonical path relative to the canonical cwd when inside it (rampart,
 *               stricter than the reference §6.4: a `.some.secret` rule then catches a symlink
 *               to that file, as pi's docs promise)
 *   No cwd and no base → literal only (literal_only = true).
 * Windows (flavor win32): fold = ASCII lowercase; the filesystem is never consulted. */
#ifndef RAMPART_PATH_POLICY_VALUES_H
#define RAMPART_PATH_POLICY_VALUES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"
#include "core/fs.h"
#include "path/flavor.h"

typedef struct rp_path_ctx {
    rp_path_flavor flavor;
    const char *cwd;      /* the session cwd (absolute, normalised), NULL = unknown */
    const char *home;     /* HOME, NULL = unknown (no expansion) */
    const rp_fs_view *fs; /* NULL: no symlink lookups (canonical = absolute) */
    /* Filled by rp_path_ctx_init: the canonical cwd (symlinks resolved), NULL without cwd. */
    const char *cwd_canonical;
} rp_path_ctx;

/* Normalises cwd (resolve against "/"), computes cwd_canonical. cwd may be NULL. */
void rp_path_ctx_init(rp_path_ctx *pc, rp_arena *a, rp_path_flavor flavor, const char *cwd,
                      const char *home, const rp_fs_view *fs);

#define RP_PATH_MAX_VALUES 5

typedef struct rp_path_values {
    const char *values[RP_PATH_MAX_VALUES]; /* matchValues */
    size_t n;
    const char *literal;   /* the literal form ("" when empty) */
    const char *absolute;  /* value(): display, decision value, approval pattern; NULL when
                              literal-only or star */
    const char *canonical; /* boundary(): the inside/outside and infrastructure tests; NULL when
                              literal-only or star */
    bool star;             /* literal was "*" */
    bool literal_only;     /* no base to resolve against */
} rp_path_values;

/* The literal form alone (no cwd resolution). */
const char *rp_path_policy_literal(rp_arena *a, const rp_path_ctx *pc, const char *raw);

/* The values of raw resolved against base (NULL base = cwd). base must be absolute when given.
 * With neither cwd nor base the result is literal-only. */
void rp_path_policy_values(rp_arena *a, const rp_path_ctx *pc, const char *raw, const char *base,
                           rp_path_values *out);

/* Literal-only values of raw (after `cd` to an unknown directory, §4.10). */
void rp_path_policy_values_literal(rp_arena *a, const rp_path_ctx *pc, const char *raw,
                                   rp_path_values *out);

/* outside(p) of §3.6 on a canonical path: non-empty, not /dev/null, /dev/stdin, /dev/stdout,
 * /dev/stderr, and neither pc->cwd_canonical nor inside it. Without a cwd nothing is outside. */
bool rp_path_outside(rp_arena *a, const rp_path_ctx *pc, const char *canonical);

/* One of /dev/null, /dev/stdin, /dev/stdout, /dev/stderr (never external). */
bool rp_path_is_safe_device(const char *p);

#endif
