/* scan_cache_fixture.h — a private scanner cache directory for the tests of the scanning
 * policies (cmocka group setup/teardown), so that no test reads or writes the developer's
 * ~/.cache. Included once per test program. */
#ifndef RAMPART_TESTS_SCAN_CACHE_FIXTURE_H
#define RAMPART_TESTS_SCAN_CACHE_FIXTURE_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char g_cache[64];

static int setup_cache(void **state)
{
    (void)state;
    snprintf(g_cache, sizeof g_cache, "/tmp/rampart-test-scan-XXXXXX");
    if (mkdtemp(g_cache) == NULL)
        return -1;
    return setenv("RAMPART_CACHE_DIR", g_cache, 1);
}

static int teardown_cache(void **state)
{
    (void)state;
    DIR *d = opendir(g_cache);
    if (d != NULL) {
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (de->d_name[0] == '.')
                continue;
            char path[512];
            snprintf(path, sizeof path, "%s/%s", g_cache, de->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(g_cache);
    return 0;
}

#endif
