/* fs.h — a read-only view of the filesystem, passed in so that code which looks at files
 * (policies, path canonicalisation) does no I/O of its own and tests can substitute a fake.
 * core/ includes nothing from src/ but core. */
#ifndef RAMPART_CORE_FS_H
#define RAMPART_CORE_FS_H

#include <stddef.h>
#include <sys/stat.h>

#include "core/arena.h"

/* A read-only view of the filesystem. Policies that need realpath/lstat get them here; tests
 * substitute fakes. Functions return 0 on success and -1 with errno-like semantics. */
typedef struct rp_fs_view {
    void *self;
    int (*realpath)(void *self, const char *path, char *out, size_t out_size);
    int (*lstat)(void *self, const char *path, struct stat *st);
    /* Reads a whole (small) file into the arena, NUL-terminated: *data and *len. -1 with errno
     * (ENOENT when it does not exist). NULL = the view cannot read files. */
    int (*read_file)(void *self, const char *path, rp_arena *a, char **data, size_t *len);
} rp_fs_view;

extern const rp_fs_view rp_fs_view_real; /* the process's real filesystem */

#endif
