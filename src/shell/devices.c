/* devices.c — harmless /dev sinks versus devices (devices.h). The list errs towards "device":
 * an unknown /dev name is treated as one, because the cost of a false alarm is a question and
 * the cost of a miss is a wiped disk. */
#include "shell/devices.h"

#include <string.h>

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool rp_sh_dev_is_sink(const char *path)
{
    static const char *const exact[] = {
        "/dev/null",   "/dev/zero",    "/dev/stdout", "/dev/stderr",  "/dev/stdin", "/dev/full",
        "/dev/random", "/dev/urandom", "/dev/ptmx",   "/dev/console", "/dev/kmsg",
    };
    /* Terminals, descriptors and bash's network pseudo-files. */
    static const char *const prefixes[] = {"/dev/tty", "/dev/fd/", "/dev/pts/", "/dev/tcp/",
                                           "/dev/udp/"};
    if (!starts_with(path, "/dev/"))
        return false;
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
        if (strcmp(path, exact[i]) == 0)
            return true;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (starts_with(path, prefixes[i]))
            return true;
    return false;
}

bool rp_sh_dev_is_device(const char *path)
{
    if (!starts_with(path, "/dev/") || path[5] == '\0')
        return false;
    if (strcmp(path, "/dev/shm") == 0 || starts_with(path, "/dev/shm/"))
        return false;
    return !rp_sh_dev_is_sink(path);
}
