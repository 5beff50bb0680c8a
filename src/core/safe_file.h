/* safe_file.h — writing a file atomically without following a planted link (issue 16, point 1).
 *
 * `rampart install --project` writes inside a repository someone else may have authored, and
 * `rampart install`/`init` write into the user's own dotfiles. Every file rampart writes there
 * goes through here: a temporary file created with O_CREAT|O_EXCL|O_NOFOLLOW (mode 0600) in the
 * same directory, written in full, fsync'ed, given its mode and renamed over the target, so that
 * nothing ever writes through a link that was already at the temporary, the backup or the target
 * name, and a reader never sees half a file. The rules about which links may be followed at all
 * (a dotfile manager's symlinked settings file yes, a repository's link out of itself no) are
 * rp_safe_resolve's. Errors go to err as "PATH: cause[: how to fix it]". */
#ifndef RAMPART_CORE_SAFE_FILE_H
#define RAMPART_CORE_SAFE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/buf.h"

/* rp_safe_write flags. */
enum {
    RP_SAFE_NO_REPLACE = 1, /* an existing entry at path is kept: rp_safe_write returns 0 */
};

/* Writes len bytes of data to path (whose directory exists) atomically, with the given mode.
 * Whatever is at path is replaced only when it is a regular file (a symlink, directory, fifo at
 * path is refused: callers write the file a wanted link points at, see rp_safe_resolve). The
 * temporary file is unlinked on every failure. Returns 1 (written), 0 (RP_SAFE_NO_REPLACE and
 * path existed; nothing written) or -1 (err set; path unchanged). */
int rp_safe_write(const char *path, const void *data, size_t len, mode_t mode, unsigned flags,
                  rp_buf *err);

/* Where a write meant for path must go, as a malloc'd path, or NULL (err set, nothing created).
 * A symlink at path is followed to the file it names, which must exist and be a regular file
 * (a dangling link is refused, not replaced); the result names that file in the real directory,
 * so rp_safe_write keeps the link a link. Missing parent directories are created (0755) when
 * make_parents is set. With root (an absolute path without symlinks), path must lie under root
 * and so must everything it resolves to: a parent directory or the file that is a link out of
 * root is refused, and no directory is created through one. Without root, links are the
 * user's own and are followed. */
char *rp_safe_resolve(const char *path, const char *root, bool make_parents, rp_buf *err);

/* Checks what is at a backup path before anything is written: 0 (nothing), 1 (a regular file
 * owned by this user with one link: rampart's earlier backup, which may be read or replaced) or
 * -1 (anything else — a symlink, directory, fifo, another user's file, a hard link: err says
 * what and how to fix it; the caller must write nothing). */
int rp_safe_check_backup(const char *path, rp_buf *err);

/* Reads the whole regular file at path without following a symlink at its last component (a
 * backup rampart wrote). Returns 1 (read; out holds it), 0 (no file) or -1 (err set). */
int rp_safe_read_nofollow(const char *path, rp_buf *out, rp_buf *err);

#endif
