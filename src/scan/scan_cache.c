/* scan_cache.c — the on-disk cache of compiled vectorscan databases (see scan_cache.h).
 *
 * File format: the 8-byte magic "RPSCANDB", the 64-hex-digit key, then vectorscan's own
 * serialization (which carries its own version, platform and CRC checks). */
#include "scan/scan_cache.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/sha256.h"
#include "core/utf8.h"

#define MAGIC     "RPSCANDB"
#define MAGIC_LEN 8
#define KEY_LEN   64
#define HEADER    (MAGIC_LEN + KEY_LEN)
#define MAX_FILE  (64u << 20) /* far above any real database; a bigger file is not ours */

void rp_scan_cache_key(const char *const *expressions, const unsigned *flags, size_t n,
                       char key[RP_SCAN_CACHE_KEY_HEX])
{
    rp_sha256 h;
    uint8_t digest[32];
    const char *version = hs_version();

    rp_sha256_init(&h);
    rp_sha256_update(&h, "rampart scan db v1", 19); /* with its NUL: a separator */
    rp_sha256_update(&h, version, strlen(version) + 1);
    for (size_t i = 0; i < n; i++) {
        char f[24];
        int k = snprintf(f, sizeof f, "%u", flags[i]);
        rp_sha256_update(&h, f, (size_t)k + 1);
        rp_sha256_update(&h, expressions[i], strlen(expressions[i]) + 1);
    }
    rp_sha256_final(&h, digest);
    for (int i = 0; i < 32; i++) {
        key[2 * i] = rp_hex_char(digest[i] >> 4);
        key[2 * i + 1] = rp_hex_char(digest[i]);
    }
    key[64] = '\0';
}

/* dir/scan-<first 32 hex digits of key>.hsdb; false when it does not fit. */
static bool cache_path(const char *dir, const char *key, char *out, size_t size)
{
    int k = snprintf(out, size, "%s/scan-%.32s.hsdb", dir, key);
    return k > 0 && (size_t)k < size;
}

static bool read_all(int fd, char *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        got += (size_t)r;
    }
    return true;
}

static bool write_all(int fd, const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, buf, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        buf += w;
        n -= (size_t)w;
    }
    return true;
}

hs_database_t *rp_scan_cache_load(const char *dir, const char *key)
{
    char path[4096];
    struct stat st;
    if (dir == NULL || dir[0] == '\0' || !cache_path(dir, key, path, sizeof path))
        return NULL;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    hs_database_t *db = NULL;
    char *buf = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
        (st.st_mode & (S_IWGRP | S_IWOTH)) != 0 || st.st_size <= HEADER ||
        (unsigned long long)st.st_size > MAX_FILE)
        goto done;
    size_t size = (size_t)st.st_size;
    buf = malloc(size);
    if (buf == NULL || !read_all(fd, buf, size))
        goto done;
    if (memcmp(buf, MAGIC, MAGIC_LEN) != 0 || memcmp(buf + MAGIC_LEN, key, KEY_LEN) != 0)
        goto done;
    if (hs_deserialize_database(buf + HEADER, size - HEADER, &db) != HS_SUCCESS)
        db = NULL;
done:
    free(buf);
    close(fd);
    return db;
}

/* mkdir -p with mode 0700 for what it creates. */
static bool make_dirs(const char *dir)
{
    char tmp[4096];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof tmp)
        return false;
    memcpy(tmp, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (tmp[i] != '/' && tmp[i] != '\0')
            continue;
        char saved = tmp[i];
        tmp[i] = '\0';
        if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
            return false;
        tmp[i] = saved;
    }
    return true;
}

void rp_scan_cache_store(const char *dir, const char *key, const hs_database_t *db)
{
    char path[4096], tmp[4096 + 16];
    char *bytes = NULL;
    size_t len = 0;
    if (dir == NULL || dir[0] == '\0' || db == NULL || !cache_path(dir, key, path, sizeof path))
        return;
    if (!make_dirs(dir))
        return;
    if (hs_serialize_database(db, &bytes, &len) != HS_SUCCESS)
        return;
    snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        free(bytes);
        return;
    }
    bool ok = fchmod(fd, 0600) == 0 && write_all(fd, MAGIC, MAGIC_LEN) &&
              write_all(fd, key, KEY_LEN) && write_all(fd, bytes, len);
    ok = close(fd) == 0 && ok;
    if (!ok || rename(tmp, path) != 0)
        unlink(tmp);
    free(bytes);
}
