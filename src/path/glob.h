/* glob.h — the one glob matcher of the permission rules (pi-permission-system's wildcard,
 * reference permissions.md §2.3), and the check of a shell glob token against it.
 *
 * A pattern is matched against a whole value: `*` is any sequence (including '/' and newlines,
 * `**` is the same as `*`), `?` exactly one character of any kind (one well-formed UTF-8
 * sequence, else one byte; JS counts UTF-16 units, so above U+FFFF it needs "??"); every other
 * character is literal (no classes, braces or escapes). A pattern ending in " *" also matches the
 * value without that suffix ("git *" matches "git"; "git **" does not). The pattern (never the
 * value) is home-expanded first: "~", "$HOME", "${HOME}" alone, or followed by '/' or '\\', become
 * HOME joined with the rest (the rest normalised as the host path join does). No allocation unless
 * the pattern needs home expansion; no I/O. */
#ifndef RAMPART_PATH_GLOB_H
#define RAMPART_PATH_GLOB_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"

typedef struct rp_glob_opts {
    const char *home; /* HOME for pattern expansion; NULL or "" = no expansion */
    bool win32;       /* the home join uses win32 rules (HOME like C:\Users\u) */
    bool fold_case;   /* ASCII case-insensitive (win32 path surfaces) */
    bool fold_sep;    /* '/' and '\\' are one character on both sides (win32 path surfaces) */
} rp_glob_opts;

/* The pattern after home expansion (§2.3 step 1): the pattern itself when nothing expands,
 * else an arena copy. opts may be NULL (no expansion). */
const char *rp_glob_expand_home(rp_arena *a, const char *pattern, const rp_glob_opts *opts);

/* match(pattern, value, fold) of §2.3. a is used only for home expansion (may be NULL when
 * opts->home is NULL: then a pattern starting with ~ is matched as written). */
bool rp_glob_match(rp_arena *a, const char *pattern, const char *value, const rp_glob_opts *opts);

/* The same with an already expanded pattern (no home step); never allocates. */
bool rp_glob_match_expanded(const char *pattern, const char *value, const rp_glob_opts *opts);

/* ---- shell glob tokens (rampart is stricter than the reference, §4.8 / #822) ---- */

/* Whether s holds a shell pathname-expansion character: '*', '?' or a '[' with a closing ']'. */
bool rp_glob_has_meta(const char *s);

/* When the shell glob s can expand to exactly one name (its only metacharacters are
 * one-character classes such as "[p]" or "[.]"), that name (arena copy); else NULL. */
const char *rp_glob_literal(rp_arena *a, const char *s);

/* Whether some string the shell glob `token` can expand to is matched by `pattern` (already
 * home-expanded). The token side follows bash pathname expansion: `*`, `?` and `[…]` (with `!`
 * or `^` negation and ranges) never produce '/', nor the '.' that starts a path component;
 * other characters are literal (a backslash escapes the next one). When any_prefix is set the
 * token may be preceded by any string that ends in '/' (a relative token after a `cd` to an
 * unknown directory). fold_case/fold_sep of opts apply to both sides; with fold_sep a '\\' in
 * the token is a separator (win32 values), not an escape. Exact: never says no when some
 * expansion matches, and says yes only then (except where bash would ask the locale, and for a
 * token that is not UTF-8: then yes); cost O(len(pattern) * len(token)), no allocation for
 * patterns of up to 256 bytes (the heap beyond). `?` is one UTF-8 character on both
 * sides, as in rp_glob_match. */
bool rp_glob_could_match(const char *pattern, const char *token, bool any_prefix,
                         const rp_glob_opts *opts);

#endif
