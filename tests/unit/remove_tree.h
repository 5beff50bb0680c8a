/* remove_tree.h — `rm -rf` for the unit tests' temporary directories, without following a
 * symlink (the store and trust tests plant some). Included once per test program. */
#ifndef RAMPART_TESTS_REMOVE_TREE_H
#define RAMPART_TESTS_REMOVE_TREE_H

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *e;
        while (d != NULL && (e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
                continue;
            }
            char child[PATH_MAX];
            snprintf(child, sizeof child, "%s/%s", path, e->d_name);
            remove_tree(child);
        }
        if (d != NULL) {
            closedir(d);
        }
    }
    remove(path);
}

#endif
