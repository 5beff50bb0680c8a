/* safe_file.c — atomic writes that never follow a planted link; see safe_file.h. */
#include "core/safe_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char how_to_fix[] = "rampart did not create it, so someone or something else did "
                                 "(a cloned repository can plant one); nothing was written. "
                                 "Look at it, remove it if you do not need it, and run the "
                                 "command again";

/* What kind of file st is, for a message. */
static const char *kind(const struct stat *st)
{
    if (S_ISLNK(st->st_mode))
        return "symbolic link";
    if (S_ISDIR(st->st_mode))
        return "directory";
    if (S_ISFIFO(st->st_mode))
        return "fifo";
    if (S_ISSOCK(st->st_mode))
        return "socket";
    if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
        return "device";
    return "regular file";
}

/* path's directory into dir and a pointer to its last component; -1 when there is none. */
static int split(const char *path, rp_buf *dir, const char **base)
{
    const char *slash = strrchr(path, '/');
    if (!slash || slash[1] == '\0')
        return -1;
    if (slash == path)
        rp_buf_puts(dir, "/");
    else
        rp_buf_append(dir, path, (size_t)(slash - path));
    *base = slash + 1;
    return 0;
}

/* A name for the temporary file that nobody can predict, so that nothing can be waiting there;
 * O_EXCL still refuses (and the caller retries) when something is. */
static uint32_t random_u32(void)
{
    uint32_t r;
    if (getrandom(&r, sizeof r, GRND_NONBLOCK) == (ssize_t)sizeof r)
        return r;
    static uint32_t counter;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint32_t)ts.tv_nsec ^ ((uint32_t)getpid() << 16) ^ (++counter * 2654435761u);
}

static int write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

int rp_safe_write(const char *path, const void *data, size_t len, mode_t mode, unsigned flags,
                  rp_buf *err)
{
    rp_buf dir = {0};
    const char *base;
    if (split(path, &dir, &base) != 0) {
        rp_buf_printf(err, "%s: not a file path", path);
        rp_buf_free(&dir);
        return -1;
    }
    int dfd = open(dir.data, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        rp_buf_printf(err, "%s: %s", dir.data, strerror(errno));
        rp_buf_free(&dir);
        return -1;
    }
    rp_buf_free(&dir);
    struct stat st;
    if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        if (flags & RP_SAFE_NO_REPLACE) {
            close(dfd);
            return 0;
        }
        if (!S_ISREG(st.st_mode)) {
            rp_buf_printf(err, "%s: is a %s, not a regular file; not replacing it", path,
                          kind(&st));
            close(dfd);
            return -1;
        }
    } else if (errno != ENOENT) {
        rp_buf_printf(err, "%s: %s", path, strerror(errno));
        close(dfd);
        return -1;
    }
    /* NAME_MAX bounds a component: a long name is cut so that the suffix always fits. */
    char tmp[NAME_MAX + 1];
    int fd = -1;
    for (int tries = 0; tries < 64 && fd < 0; tries++) {
        snprintf(tmp, sizeof tmp, "%.200s.rampart-tmp.%08x", base, (unsigned)random_u32());
        fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        rp_buf_printf(err, "%s: cannot create a temporary file beside it: %s", path,
                      strerror(errno));
        close(dfd);
        return -1;
    }
    int rc = 1;
    bool ok = write_all(fd, data, len) == 0 && fsync(fd) == 0 && fchmod(fd, mode) == 0;
    int saved = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    bool renamed = false;
    if (ok && (flags & RP_SAFE_NO_REPLACE)) {
        /* link() never replaces: an entry that appeared meanwhile is kept. */
        if (linkat(dfd, tmp, dfd, base, 0) != 0) {
            saved = errno;
            ok = saved == EEXIST;
            rc = 0;
        }
    } else if (ok) {
        renamed = renameat(dfd, tmp, dfd, base) == 0;
        ok = renamed;
        saved = errno;
    }
    if (!renamed)
        unlinkat(dfd, tmp, 0);
    if (ok && rc == 1)
        (void)fsync(dfd); /* the new name is durable too; a failure here loses nothing */
    close(dfd);
    if (!ok) {
        rp_buf_printf(err, "cannot write %s: %s (the file is unchanged)", path, strerror(saved));
        return -1;
    }
    return rc;
}

/* Whether p is root or lies under it (both absolute, without symlinks). */
static bool within(const char *p, const char *root)
{
    size_t n = strlen(root);
    if (n == 1 && root[0] == '/')
        return true;
    return strncmp(p, root, n) == 0 && (p[n] == '/' || p[n] == '\0');
}

/* Checks one existing parent directory of a write under root (lst is its lstat). */
static int check_parent(const char *dir, const struct stat *lst, const char *root, rp_buf *err)
{
    if (S_ISDIR(lst->st_mode))
        return 0;
    if (!S_ISLNK(lst->st_mode)) {
        rp_buf_printf(err, "%s: is a %s, not a directory", dir, kind(lst));
        return -1;
    }
    char real[PATH_MAX];
    if (!realpath(dir, real)) {
        rp_buf_printf(err, "%s: is a symbolic link that does not lead to a directory (%s)", dir,
                      strerror(errno));
        return -1;
    }
    if (!within(real, root)) {
        rp_buf_printf(err,
                      "%s: is a symbolic link to %s, outside the project %s: refusing to write "
                      "through it (nothing was written). A project's files are written only "
                      "inside the project; remove the link, or install at user level",
                      dir, real, root);
        return -1;
    }
    return 0;
}

/* Makes (or, under root, checks) every parent directory of path. *missing is set when one does
 * not exist and make_parents is off. */
static int walk_parents(const char *path, const char *root, bool make_parents, bool *missing,
                        rp_buf *err)
{
    size_t start = root ? strlen(root) : 0;
    char *dir = strdup(path);
    if (!dir)
        abort();
    int rc = 0;
    *missing = false;
    for (char *p = dir + start + 1; *p && rc == 0 && !*missing; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        struct stat lst;
        int r = lstat(dir, &lst);
        if (r != 0 && errno == ENOENT) {
            if (!make_parents) {
                *missing = true;
            } else if (mkdir(dir, 0755) == 0 || errno == EEXIST) {
                r = lstat(dir, &lst); /* mkdir does not follow a link planted meanwhile */
            }
        }
        if (r != 0 && !*missing) {
            rp_buf_printf(err, "%s: %s", dir, strerror(errno));
            rc = -1;
        }
        if (rc == 0 && !*missing && root)
            rc = check_parent(dir, &lst, root, err);
        *p = '/';
    }
    free(dir);
    return rc;
}

/* Whether path has no `.` or `..` component: under a root, the textual under-root test and the
 * parent walk would otherwise create directories outside it before the final check refused the
 * write. */
static bool plain_file_path(const char *path)
{
    for (const char *c = path; c != NULL; c = strchr(c + 1, '/')) {
        const char *name = c[0] == '/' ? c + 1 : c;
        size_t len = strcspn(name, "/");
        if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.'))
            return false;
    }
    return true;
}

char *rp_safe_resolve(const char *path, const char *root, bool make_parents, rp_buf *err)
{
    size_t len = strlen(path);
    if (len == 0 || path[len - 1] == '/' || (root && !plain_file_path(path))) {
        rp_buf_printf(err,
                      "%s: not a plain file path (a trailing '/', or under a project a '.' or '..' "
                      "component)",
                      path);
        return NULL;
    }
    if (path[0] != '/' || (root && (!within(path, root) || strcmp(path, root) == 0))) {
        if (root)
            rp_buf_printf(err, "%s: not a file under %s", path, root);
        else
            rp_buf_printf(err, "%s: not an absolute path", path);
        return NULL;
    }
    bool missing;
    if (walk_parents(path, root, make_parents, &missing, err) != 0)
        return NULL;
    if (missing) /* no directory, so no file: nothing to follow, nothing written (dry run) */
        return strdup(path);
    rp_buf dir = {0}, out = {0};
    const char *base;
    split(path, &dir, &base);
    char rdir[PATH_MAX], rfile[PATH_MAX];
    struct stat lst, st;
    if (!realpath(dir.data, rdir)) {
        rp_buf_printf(err, "%s: %s", dir.data, strerror(errno));
    } else if (root && !within(rdir, root)) {
        rp_buf_printf(err,
                      "%s: leads to %s, outside the project %s: refusing to write there "
                      "(nothing was written); remove the link, or install at user level",
                      dir.data, rdir, root);
    } else if (lstat(path, &lst) != 0) {
        if (errno == ENOENT)
            rp_buf_printf(&out, "%s/%s", strcmp(rdir, "/") ? rdir : "", base);
        else
            rp_buf_printf(err, "%s: %s", path, strerror(errno));
    } else if (S_ISREG(lst.st_mode)) {
        rp_buf_printf(&out, "%s/%s", strcmp(rdir, "/") ? rdir : "", base);
    } else if (!S_ISLNK(lst.st_mode)) {
        rp_buf_printf(err, "%s: is a %s, not a regular file", path, kind(&lst));
    } else if (!realpath(path, rfile)) {
        rp_buf_printf(err,
                      "%s: is a symbolic link to a file that does not exist (%s): create the "
                      "file it names, or remove the link, and run the command again",
                      path, strerror(errno));
    } else if (root && !within(rfile, root)) {
        rp_buf_printf(err,
                      "%s: is a symbolic link to %s, outside the project %s: refusing to write "
                      "through it (nothing was written). A project's settings file may link "
                      "only inside the project; remove the link, or install at user level",
                      path, rfile, root);
    } else if (stat(rfile, &st) != 0 || !S_ISREG(st.st_mode)) {
        rp_buf_printf(err, "%s: is a symbolic link to %s, which is not a regular file", path,
                      rfile);
    } else {
        rp_buf_puts(&out, rfile);
    }
    rp_buf_free(&dir);
    if (!out.data)
        return NULL;
    return rp_buf_take(&out);
}

int rp_safe_check_backup(const char *path, rp_buf *err)
{
    struct stat lst;
    if (lstat(path, &lst) != 0) {
        if (errno == ENOENT)
            return 0;
        rp_buf_printf(err, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (S_ISLNK(lst.st_mode)) {
        char to[PATH_MAX];
        ssize_t n = readlink(path, to, sizeof to - 1);
        to[n > 0 ? n : 0] = '\0';
        rp_buf_printf(err, "%s: is a symbolic link (to %s), not a backup rampart wrote; %s", path,
                      to, how_to_fix);
    } else if (!S_ISREG(lst.st_mode)) {
        rp_buf_printf(err, "%s: is a %s, not a backup rampart wrote; %s", path, kind(&lst),
                      how_to_fix);
    } else if (lst.st_uid != geteuid()) {
        rp_buf_printf(err, "%s: belongs to uid %ld, not to you (uid %ld); %s", path,
                      (long)lst.st_uid, (long)geteuid(), how_to_fix);
    } else if (lst.st_nlink > 1) {
        rp_buf_printf(err, "%s: has %ld hard links, and a backup rampart wrote has one; %s", path,
                      (long)lst.st_nlink, how_to_fix);
    } else {
        return 1;
    }
    return -1;
}

int rp_safe_read_nofollow(const char *path, rp_buf *out, rp_buf *err)
{
    /* O_NONBLOCK: a fifo planted at path must not hang the command before fstat refuses it. */
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT)
            return 0;
        rp_buf_printf(err, "%s: %s", path,
                      errno == ELOOP ? "is a symbolic link; not reading it" : strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        rp_buf_printf(err, "%s: not a regular file; not reading it", path);
        close(fd);
        return -1;
    }
    char chunk[8192];
    ssize_t n;
    rp_buf_append(out, "", 0);
    while ((n = read(fd, chunk, sizeof chunk)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rp_buf_printf(err, "%s: %s", path, strerror(errno));
            close(fd);
            return -1;
        }
        rp_buf_append(out, chunk, (size_t)n);
    }
    close(fd);
    return 1;
}
