/* targets.h — the files a shell command would write, for worktree_guard: the write
 * targets of each simple command of a parsed shell command (redirections, tee, sed -i, perl -i,
 * cp/mv/install/ln destinations, touch, mkdir, rm, rmdir, truncate, dd of=). The files of a
 * patch are read by shell/patch.h. */
#ifndef RAMPART_SHELL_TARGETS_H
#define RAMPART_SHELL_TARGETS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"
#include "shell/shell.h"

typedef struct rp_sh_write_target {
    const char *path; /* as written (after quote removal) */
    bool dynamic;     /* contains $VAR, $(…), … : only a leading ~ / $HOME is understood */
    /* The directory a relative path is relative to after a `cd` earlier in the command:
     * NULL = the worker's cwd; "" = unknown (a cd to a dynamic or unreadable place). */
    const char *base;
} rp_sh_write_target;

typedef struct rp_sh_write_targets {
    rp_sh_write_target *items;
    size_t n, cap;
} rp_sh_write_targets;

void rp_sh_write_targets_add(rp_arena *a, rp_sh_write_targets *t, const char *path, bool dynamic,
                             const char *base);

/* Write targets of every simple command of a parse (remote ones excluded: they write another
 * host). `cd DIR` earlier changes the base of later relative paths (shell/cwd.h). */
void rp_sh_write_targets_of(rp_arena *a, const struct rp_sh_parse *p, rp_sh_write_targets *out);

/* For a command the parser cannot read: whitespace words after a `>` or `>>` operator. */
void rp_sh_write_targets_fallback(rp_arena *a, const char *command, rp_sh_write_targets *out);

#endif
