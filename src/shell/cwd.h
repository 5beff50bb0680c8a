/* cwd.h — the cd fold: the directory each command of a parse runs in, as far as the text says.
 * worktree_guard (through targets.c) and blast_radius resolve relative paths against it. */
#ifndef RAMPART_SHELL_CWD_H
#define RAMPART_SHELL_CWD_H

#include "core/arena.h"
#include "shell/shell.h"

/* dirs[i] for each command i of p (an arena array of p->n_commands, or NULL when there are
 * none): NULL = the session's cwd (no cd before it); a normalised path, absolute or relative
 * to the session's cwd; "" = unknown (a cd to a dynamic place, `cd -`, popd, or `cd ~` when
 * home is NULL). home: the user's home for `cd`, `cd ~`, `cd ~/x` (NULL: unknown). */
const char **rp_sh_fold_cd(rp_arena *a, const struct rp_sh_parse *p, const char *home);

#endif
