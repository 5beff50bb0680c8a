/* store_files.c — who may own and write the state directory and its files.
 *
 * The store holds counters, budgets, trusted directories and the audit log: whoever can write,
 * replace or delete these files can turn a DENY into an ALLOW (delete the database and the
 * counters start again; pre-create it and read the audit or insert trusted directories). So the
 * state directory and every file SQLite keeps in it must belong to us and be writable by nobody
 * else, and otherwise the store fails closed with a message that says how to fix it. Once the
 * directory is ours and closed to others, nobody else can create, rename or remove entries in
 * it, so checking the files in it cannot be raced by another user.
 *
 * Symlinks. Any symlink on the way to the directory is fine (a linked $HOME or ~/.local/state):
 * the opener resolves the directory once with realpath() and uses the result for everything.
 * In the directory a symlink at state.db or its -wal/-shm/-journal is refused: it would send
 * our writes somewhere else. So is a hard link (st_nlink > 1): another name, perhaps outside the
 * directory, reaches the same file, and a chmod would change a file we never chose.
 *
 * A directory of ours that others may read (0755) is fine: the files in it are 0600. The parent
 * of the state directory (a sticky /tmp) is not our concern; the state directory itself is. */
#include "store/store_files.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"

const char *const rp_store_sidecars[3] = {"-wal", "-shm", "-journal"};

static const char *who_may_write(mode_t mode)
{
    if ((mode & 020) && (mode & 002)) {
        return "group and others";
    }
    return (mode & 020) ? "its group" : "others";
}

int rp_store_check_dir(const char *dir, const struct stat *st, char *err, size_t err_size)
{
    if (!S_ISDIR(st->st_mode)) {
        snprintf(err, err_size, "state directory %s is not a directory", dir);
        return -1;
    }
    if (st->st_uid != geteuid()) {
        snprintf(err, err_size,
                 "state directory %s belongs to uid %u, not to you (uid %u): whoever owns it can "
                 "reset your counters and budgets; use a directory of your own (remove this one, "
                 "or point RAMPART_STATE_DIR or state_dir elsewhere)",
                 dir, (unsigned)st->st_uid, (unsigned)geteuid());
        return -1;
    }
    if ((st->st_mode & 022) != 0) {
        snprintf(err, err_size,
                 "state directory %s is writable by %s (mode %04o): they could delete or replace "
                 "the database; run `chmod go-w %s`",
                 dir, who_may_write(st->st_mode), (unsigned)(st->st_mode & 07777), dir);
        return -1;
    }
    return 0;
}

int rp_store_check_file(const char *path, const struct stat *st, char *err, size_t err_size)
{
    if (S_ISLNK(st->st_mode)) {
        snprintf(err, err_size,
                 "%s is a symbolic link: rampart does not follow links at its database or its "
                 "-wal/-shm/-journal files; put the file itself there, or remove the link",
                 path);
        return -1;
    }
    if (!S_ISREG(st->st_mode)) {
        snprintf(err, err_size, "%s is not a regular file; remove it", path);
        return -1;
    }
    if (st->st_uid != geteuid()) {
        snprintf(err, err_size,
                 "%s belongs to uid %u, not to you (uid %u): another user may have planted it; "
                 "remove it (rampart creates a new one)",
                 path, (unsigned)st->st_uid, (unsigned)geteuid());
        return -1;
    }
    if (st->st_nlink > 1) {
        snprintf(err, err_size,
                 "%s has %lu hard links: another name reaches the same file; give it its own "
                 "copy (`cp %s %s.new && mv %s.new %s`)",
                 path, (unsigned long)st->st_nlink, path, path, path, path);
        return -1;
    }
    if ((st->st_mode & 022) != 0) {
        snprintf(err, err_size, "%s is writable by %s (mode %04o): run `chmod 600 %s`", path,
                 who_may_write(st->st_mode), (unsigned)(st->st_mode & 07777), path);
        return -1;
    }
    return 0;
}

int rp_store_prepare_file(const char *path, int create, char *err, size_t err_size)
{
    /* O_NONBLOCK: a FIFO planted at the name must not hang the open (it is refused below). */
    int flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK;
    if (create) {
        flags = O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK;
    }
    int fd = open(path, flags, 0600);
    if (fd < 0) {
        int e = errno;
        struct stat st;
        if (e == ENOENT && !create) {
            return 0;
        }
        /* ELOOP (a symlink), EACCES (someone else's file): say what is there, if we can. */
        if (lstat(path, &st) == 0 && rp_store_check_file(path, &st, err, err_size) != 0) {
            return -1;
        }
        snprintf(err, err_size, "cannot open %s: %s", path, strerror(e));
        return -1;
    }
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) != 0) {
        snprintf(err, err_size, "cannot stat %s: %s", path, strerror(errno));
        rc = -1;
    } else if (rp_store_check_file(path, &st, err, err_size) != 0) {
        rc = -1;
    } else if ((st.st_mode & 077) != 0 && fchmod(fd, 0600) != 0) {
        /* Readable by others (an older rampart, a copy): it holds the audit log. */
        snprintf(err, err_size, "cannot chmod %s to 0600: %s", path, strerror(errno));
        rc = -1;
    }
    close(fd);
    return rc;
}

/* `rampart doctor`: the same rules, looking only (lstat, nothing created or changed). */
int rp_store_check_state_dir(const char *dir, char *problem, size_t size)
{
    problem[0] = '\0';
    char real[PATH_MAX];
    if (realpath(dir, real) == NULL) {
        if (errno == ENOENT) {
            return 0; /* created 0700 on first use */
        }
        snprintf(problem, size, "cannot resolve state directory %s: %s", dir, strerror(errno));
        return -1;
    }
    struct stat st;
    if (stat(real, &st) != 0) {
        snprintf(problem, size, "cannot stat state directory %s: %s", real, strerror(errno));
        return -1;
    }
    if (rp_store_check_dir(real, &st, problem, size) != 0) {
        return -1;
    }
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/state.db", strcmp(real, "/") == 0 ? "" : real);
    size_t base = strlen(path);
    for (size_t i = 0; i <= sizeof rp_store_sidecars / sizeof rp_store_sidecars[0]; i++) {
        path[base] = '\0';
        if (i > 0) {
            strcat(path, rp_store_sidecars[i - 1]);
        }
        if (lstat(path, &st) != 0) {
            if (errno == ENOENT) {
                continue;
            }
            snprintf(problem, size, "cannot stat %s: %s", path, strerror(errno));
            return -1;
        }
        if (rp_store_check_file(path, &st, problem, size) != 0) {
            return -1;
        }
    }
    return 0;
}
