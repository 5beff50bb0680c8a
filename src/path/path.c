/* path.c — lexical path normalisation, joining, home expansion and prefix checks (path.h).
 *
 * Policies compare paths as text, so every one of them must agree on what "the same path" is:
 * this file is that agreement. Only rp_path_canonical looks at the filesystem, and only through
 * the evaluation context's view, so tests can fake symlinks. */
#include "path/path.h"

#include "path/flavor.h"

#include <limits.h>
#include <string.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

char *rp_path_normalize(rp_arena *a, const char *path)
{
    /* The one normaliser is flavor.c's (Node's path.posix.normalize); Python's normpath differs
     * from it only in dropping a trailing '/'. */
    char *out = rp_pathf_normalize(a, RP_PATH_POSIX, path);
    size_t len = strlen(out);
    if (len > 1 && out[len - 1] == '/')
        out[len - 1] = '\0';
    return out;
}

char *rp_path_join(rp_arena *a, const char *base, const char *rel)
{
    if (rel[0] == '/' || base == NULL || base[0] == '\0')
        return rp_path_normalize(a, rel);
    return rp_path_normalize(a, rp_arena_sprintf(a, "%s/%s", base, rel));
}

/* Length of the home prefix of path ("~", "$HOME", "${HOME}") when it is followed by "/" or the
 * end, else 0. */
static size_t home_prefix_len(const char *path)
{
    static const char *const prefixes[] = {"~", "$HOME", "${HOME}"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(path, prefixes[i], n) == 0 && (path[n] == '\0' || path[n] == '/'))
            return n;
    }
    return 0;
}

char *rp_path_expand_home(rp_arena *a, const char *path, const char *home)
{
    size_t n = home != NULL ? home_prefix_len(path) : 0;
    if (n == 0)
        return rp_arena_strdup(a, path);
    return rp_arena_sprintf(a, "%s%s", home, path + n);
}

bool rp_path_is_under(const char *path, const char *root)
{
    size_t n = strlen(root);
    while (n > 1 && root[n - 1] == '/')
        n--; /* a root written "/work/" means "/work" */
    if (n == 1 && root[0] == '/')
        return path[0] == '/';
    return strncmp(path, root, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

char *rp_path_canonical(rp_arena *a, const char *path, const rp_fs_view *fs)
{
    if (fs == NULL || fs->realpath == NULL || path[0] != '/')
        return rp_arena_strdup(a, path);

    char resolved[PATH_MAX];
    size_t n = strlen(path);
    char *prefix = rp_arena_strndup(a, path, n);
    size_t plen = n;
    /* Walk up from the full path until a prefix exists; "/" always does. */
    for (;;) {
        if (fs->realpath(fs->self, plen == 0 ? "/" : prefix, resolved, sizeof resolved) == 0)
            break;
        if (plen == 0)
            return rp_arena_strdup(a, path);
        while (plen > 0 && prefix[plen - 1] != '/')
            plen--;
        if (plen > 0)
            plen--; /* drop the separator: "/a/b" → "/a", "/a" → "" (the root) */
        prefix[plen] = '\0';
    }
    if (plen == n)
        return rp_path_normalize(a, resolved);
    return rp_path_join(a, resolved, path + plen + 1);
}
