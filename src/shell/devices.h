/* devices.h — which /dev paths are harmless sinks and which are devices a write would damage.
 * blast_radius denies writes to devices; worktree_guard does not count sinks as writes. */
#ifndef RAMPART_SHELL_DEVICES_H
#define RAMPART_SHELL_DEVICES_H

#include <stdbool.h>

/* A normalised absolute path that accepts writes without harm: /dev/null, /dev/zero,
 * /dev/stdout, /dev/stderr, /dev/stdin, /dev/tty (and tty*), /dev/fd/N, /dev/pts/N, … */
bool rp_sh_dev_is_sink(const char *path);
/* A normalised absolute path under /dev/ that is not a sink (a disk, a partition, memory):
 * writing it destroys data. /dev/shm/ holds ordinary files and is neither. */
bool rp_sh_dev_is_device(const char *path);

#endif
