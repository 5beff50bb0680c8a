/* fs.c — the real filesystem behind rp_fs_view (see fs.h). */
#include "core/fs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int real_realpath(void *self, const char *path, char *out, size_t out_size)
{
    (void)self;
    char *resolved = realpath(path, NULL);
    if (resolved == NULL)
        return -1;
    size_t len = strlen(resolved);
    if (len + 1 > out_size) {
        free(resolved);
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(out, resolved, len + 1);
    free(resolved);
    return 0;
}

static int real_lstat(void *self, const char *path, struct stat *st)
{
    (void)self;
    return lstat(path, st);
}

/* Files a policy reads are configuration (pi's config.json, agent front-matter): small. */
#define READ_FILE_MAX (1u << 20)

static int real_read_file(void *self, const char *path, rp_arena *a, char **data, size_t *len)
{
    (void)self;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return -1;
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > READ_FILE_MAX) {
        int e = S_ISDIR(st.st_mode) ? EISDIR : EFBIG;
        fclose(f);
        errno = e;
        return -1;
    }
    size_t size = (size_t)st.st_size;
    char *buf = rp_arena_alloc(a, size + 1);
    size_t n = fread(buf, 1, size, f);
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        errno = EIO;
        return -1;
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return 0;
}

const rp_fs_view rp_fs_view_real = {
    .self = NULL,
    .realpath = real_realpath,
    .lstat = real_lstat,
    .read_file = real_read_file,
};
