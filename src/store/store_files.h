/* store_files.h — who may own and write the state directory and its files (private to
 * src/store; `rampart doctor` uses rp_store_check_state_dir from store.h). */
#ifndef RAMPART_STORE_STORE_FILES_H
#define RAMPART_STORE_STORE_FILES_H

#include <stddef.h>
#include <sys/stat.h>

/* The files SQLite keeps beside state.db, each checked like the database itself. */
extern const char *const rp_store_sidecars[3]; /* "-wal", "-shm", "-journal" */

/* The state directory (already resolved, st from stat): ours and not writable by group or
 * others. 0, or -1 with the problem and its fix in err. */
int rp_store_check_dir(const char *dir, const struct stat *st, char *err, size_t err_size);

/* A file in the state directory (st from lstat or from fstat of an O_NOFOLLOW open): a regular
 * file, ours, with one link, not writable by group or others. 0, or -1 with the problem and its
 * fix in err. */
int rp_store_check_file(const char *path, const struct stat *st, char *err, size_t err_size);

/* Opens path without following a symlink (creating it 0600 when create), checks it with
 * rp_store_check_file on the open descriptor and narrows a readable-by-others mode to 0600 with
 * fchmod on that descriptor — never a chmod of a name. An absent file is fine when !create. */
int rp_store_prepare_file(const char *path, int create, char *err, size_t err_size);

#endif
