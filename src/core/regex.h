/* regex.h — CEL's `matches`: RE2 syntax, run with PCRE2 under resource limits (regex.c).
 *
 * CEL specifies RE2. PCRE2 understands a superset of RE2's syntax, so a pattern is first
 * checked against RE2's grammar: constructs RE2 does not have (backreferences, lookaround,
 * atomic groups, possessive quantifiers, recursion, conditionals, callouts, \K, \G, \C,
 * backtracking verbs, ...) are rejected with a message naming the construct, and the few
 * escapes the two spell differently are translated (RE2's \v is the vertical tab character,
 * its \s excludes \v, and its octal \12 is not a backreference).
 * PCRE2 then runs with RE2's line semantics ($ matches only at the very end unless (?m)) and
 * under limits, so a pattern written to backtrack explosively ends in an error instead of
 * running away.
 *
 * Two ways to run. A pattern compiled to be reused (rp_regex_compile: a CEL constant pattern,
 * deny_secrets' allow_patterns) is compiled to machine code by PCRE2's JIT; a pattern used once
 * (rp_regex_compile_once), or one the JIT cannot compile (PCRE2 built without JIT, a system
 * that forbids executable memory), is interpreted. Both search under PCRE2's match limit and a
 * step limit counted by callouts; the interpreter also under PCRE2's depth and heap limits, the
 * JIT under its stack (RP_REGEX_JIT_STACK_MAX per thread), which PCRE2 uses instead of them.
 * The callouts differ: the interpreter calls out before every pattern item (its match limit
 * does not count the scans inside single-character repeats), the JIT only where a group is
 * entered (it skips most of that scanning, counts its own backtracking against the match limit,
 * but not a repeated group's entries). So the JIT is 2-6 times faster per search, gives RE2's
 * answer where the interpreter stops at the step limit (`\s+$` over 100,000 spaces and an x:
 * under 1 ms), and still stops runaway group repeats at the step limit. Neither bounds every
 * search: a scan inside a repeat that follows another repeat (`\s*\s*!` over 100,000 spaces)
 * is quadratic and counted once per outer step (JIT 3.5 s, interpreter over 100 s).
 *
 * A compiled regex is immutable and may be matched from several threads at once. A thread's
 * first JIT search allocates its match data and JIT stack, kept until the thread exits. */
#ifndef RAMPART_CORE_REGEX_H
#define RAMPART_CORE_REGEX_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"
#include "core/buf.h"

typedef struct rp_regex rp_regex;

#define RP_REGEX_MATCH_LIMIT 1000000 /* pcre2_set_match_limit: backtracking steps per match */
/* Backtracking frames live on the heap (bounded by the heap limit), so the depth limit can be
 * high: `^(\S+\s+)*rm` over a command of 8,000 words needs about 16,000 nested points. */
#define RP_REGEX_DEPTH_LIMIT 250000
/* pcre2_set_heap_limit: KiB of the interpreter's backtracking frames. */
#define RP_REGEX_HEAP_LIMIT_KIB (64 * 1024)
/* Callouts per search (pattern items tried by the interpreter, group entries by the JIT):
 * bounds the time of a search (about 10 ms here) where PCRE2's own limits do not. */
#define RP_REGEX_STEP_LIMIT 2000000
/* The JIT stack of a thread: it grows from START to at most MAX. 1 MiB holds the backtracking
 * points of `^(\S+\s+)*rm` over 16,000 words; a search that needs more is an error. */
#define RP_REGEX_JIT_STACK_START (32 * 1024)
#define RP_REGEX_JIT_STACK_MAX   (1024 * 1024)
#define RP_REGEX_MAX_REPEAT      1000 /* RE2's limit on {n,m} counts */

/* Checks pattern[0..len) against RE2's syntax and writes the PCRE2 spelling of it to out
 * (NUL-terminated; out may be NULL to only check). 0, or -1 with a message in err such as
 * "invalid regex: lookahead (?= is not supported (RE2 syntax)". */
int rp_regex_translate(const char *pattern, size_t len, rp_buf *out, char *err, size_t err_size);

/* Compiles an RE2-syntax pattern (UTF-8) to be searched many times: with the JIT when PCRE2
 * can (5-15 us more than rp_regex_compile_once for a typical pattern, repaid within some tens
 * of searches).
 * NULL with a message in err when the pattern is not valid RE2 or PCRE2 rejects it. Free with
 * rp_regex_free. */
rp_regex *rp_regex_compile(const char *pattern, size_t len, char *err, size_t err_size);

/* The same for a pattern searched once or twice (a CEL pattern computed at evaluation time):
 * interpreted, without the JIT's compile time. */
rp_regex *rp_regex_compile_once(const char *pattern, size_t len, char *err, size_t err_size);

/* Whether re runs as machine code (false: interpreted). */
bool rp_regex_is_jit(const rp_regex *re);

/* Process-wide, on by default. Off, patterns compiled afterwards are interpreted, as when the
 * JIT is not available: tests use it to exercise that fallback. */
void rp_regex_use_jit(bool on);

/* Searches subject[0..len) for a match anywhere (RE2's partial match). 1 = match,
 * 0 = no match, -1 with a message in err when a limit was hit or matching failed.
 * An interpreted search takes its scratch memory from `arena`; a JIT search allocates nothing
 * after the thread's first. */
int rp_regex_search(const rp_regex *re, const char *subject, size_t len, rp_arena *arena, char *err,
                    size_t err_size);

void rp_regex_free(rp_regex *re);

#endif
