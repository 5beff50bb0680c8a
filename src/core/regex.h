/* regex.h — CEL's `matches`: RE2 syntax, run with PCRE2 under resource limits (regex.c).
 *
 * CEL specifies RE2. PCRE2 understands a superset of RE2's syntax, so a pattern is first
 * checked against RE2's grammar: constructs RE2 does not have (backreferences, lookaround,
 * atomic groups, possessive quantifiers, recursion, conditionals, callouts, \K, \G, \C,
 * backtracking verbs, ...) are rejected with a message naming the construct, and the few
 * escapes the two spell differently are translated (RE2's \v is the vertical tab character,
 * its \s excludes \v, and its octal \12 is not a backreference).
 * PCRE2 then runs with RE2's line semantics ($ matches only at the very end unless (?m)) and a
 * match limit and depth limit, so a pattern written to backtrack explosively ends in an error
 * instead of running away.
 *
 * A compiled regex is immutable and may be matched from several threads at once. */
#ifndef RAMPART_CORE_REGEX_H
#define RAMPART_CORE_REGEX_H

#include <stddef.h>

#include "core/arena.h"
#include "core/buf.h"

typedef struct cel_regex cel_regex;

#define CEL_REGEX_MATCH_LIMIT 1000000 /* pcre2_set_match_limit: backtracking steps per match */
/* Backtracking frames live on the heap (bounded by the heap limit), so the depth limit can be
 * high: `^(\S+\s+)*rm` over a command of 8,000 words needs about 16,000 nested points. */
#define CEL_REGEX_DEPTH_LIMIT    250000
#define CEL_REGEX_HEAP_LIMIT_KIB (64 * 1024) /* pcre2_set_heap_limit: KiB of backtracking frames   \
                                              */
/* Pattern items tried per search, counted by an automatic callout: bounds the time of a search
 * (about 10 ms here) where PCRE2's own limits do not. */
#define CEL_REGEX_STEP_LIMIT 2000000
#define CEL_REGEX_MAX_REPEAT 1000 /* RE2's limit on {n,m} counts */

/* Checks pattern[0..len) against RE2's syntax and writes the PCRE2 spelling of it to out
 * (NUL-terminated; out may be NULL to only check). 0, or -1 with a message in err such as
 * "invalid regex: lookahead (?= is not supported (RE2 syntax)". */
int cel_regex_translate(const char *pattern, size_t len, rp_buf *out, char *err, size_t err_size);

/* Compiles an RE2-syntax pattern (UTF-8). NULL with a message in err when the pattern is not
 * valid RE2 or PCRE2 rejects it. Free with cel_regex_free. */
cel_regex *cel_regex_compile(const char *pattern, size_t len, char *err, size_t err_size);

/* Searches subject[0..len) for a match anywhere (RE2's partial match). 1 = match,
 * 0 = no match, -1 with a message in err when a limit was hit or matching failed.
 * Scratch memory comes from `arena`. */
int cel_regex_search(const cel_regex *re, const char *subject, size_t len, rp_arena *arena,
                     char *err, size_t err_size);

void cel_regex_free(cel_regex *re);

#endif
