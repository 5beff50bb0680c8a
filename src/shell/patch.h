/* patch.h — the one reader of the files a patch names: Codex `apply_patch` headers
 * (`*** Add File: P`, `*** Update File: P`, `*** Delete File: P`, `*** Move to: P`) and
 * unified-diff `--- a/P` / `+++ b/P` lines. Every policy and host adapter that needs the files
 * of a patch asks here, so that a header one reader takes and another misses cannot exist.
 *
 * The reader is deliberately wider than Codex's parser (codex-rs/apply-patch/src/parser.rs),
 * never narrower: a file Codex would write is always listed; a line Codex would read as hunk
 * content or reject may be listed too (over-reporting a target is safe, missing one is a
 * bypass). Line by line, without tracking hunks:
 *
 *  - A line ends at \n; a \r before it is dropped (Rust's str::lines). The line is trimmed of
 *    Unicode White_Space at both ends (Rust's str::trim, which Codex applies to each hunk
 *    header), so "   *** Update File: x" and "x" indented by an em space are headers.
 *  - A trimmed line starting with a header marker ("*** Add File:" …, the space after the colon
 *    not required) names the rest, trimmed. When the rest starts with one space (Codex's
 *    marker is "*** Add File: "), Codex's exact path is the text after that space, with any
 *    further leading whitespace kept; for `*** Move to: ` Codex matches the untrimmed line
 *    (right after an Update header), so its path keeps trailing whitespace. When that exact
 *    path differs from the trimmed one, both are listed, the trimmed one first. An empty path
 *    is not listed (Codex rejects the patch).
 *  - A trimmed line starting with "--- " or "+++ " is a unified-diff file line: an `a/` or `b/`
 *    prefix is dropped, spaces and tabs around the name are trimmed, a tab ends the name
 *    (`+++ b/x\t2024-01-01`), and /dev/null is not a file. A name with any other first
 *    component is listed as written and without it (`git apply`/`patch -p1` drop it whatever
 *    it is: `+++ w/.git/hooks/x` writes `.git/hooks/x`).
 *  - A line that starts with '+' or '-' after trimming is hunk content, never a header
 *    (Codex reads `+*** Add File: x` as a line of the file). A header behind a leading space
 *    is listed even where Codex would read it as a context line of an update hunk.
 *  - Heredoc wrapping (`<<'EOF'` … `EOF`, Codex's lenient mode) needs nothing special: the
 *    marker lines are not headers. */
#ifndef RAMPART_SHELL_PATCH_H
#define RAMPART_SHELL_PATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"

typedef enum rp_sh_patch_kind {
    RP_SH_PATCH_ADD,      /* *** Add File: */
    RP_SH_PATCH_UPDATE,   /* *** Update File: */
    RP_SH_PATCH_DELETE,   /* *** Delete File: */
    RP_SH_PATCH_MOVE,     /* *** Move to: (the destination of an update) */
    RP_SH_PATCH_DIFF_OLD, /* --- a/P */
    RP_SH_PATCH_DIFF_NEW, /* +++ b/P */
} rp_sh_patch_kind;

typedef struct rp_sh_patch_target {
    rp_sh_patch_kind kind;
    const char *path; /* NUL-terminated, in the caller's arena, never empty */
} rp_sh_patch_target;

/* What to read: apply_patch headers, unified-diff file lines, or both. */
#define RP_SH_PATCH_HEADERS 1u
#define RP_SH_PATCH_DIFF    2u

/* The targets of `text` in line order (duplicates kept), allocated from `a`; *out is NULL
 * when there are none. Returns their number. */
size_t rp_sh_patch_targets(rp_arena *a, const char *text, unsigned what, rp_sh_patch_target **out);

/* Whether text carries a Codex patch anywhere ("*** Begin Patch" on any line, at any column:
 * as a heredoc body, or inside a quoted argument of apply_patch), so that a command which
 * may apply one has its headers read as edits. Wider than Codex, which needs the marker to
 * open the patch text. */
bool rp_sh_patch_mentioned(const char *text);

#endif
