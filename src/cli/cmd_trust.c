/* cmd_trust.c — `rampart trust [DIR]`, `rampart trust --remove DIR`.
 *
 * A project's ./.rampart.yaml is read only from a directory the user trusted, because the file
 * arrives with the repository: a cloned project must not be able to switch policies on (or, at
 * other levels, off) by itself. Trust is recorded in the state store under the directory's real
 * path, which is what the config stack checks. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "core/clock.h"

static const char trust_usage[] =
    "usage: rampart trust [--state-dir DIR] [PROJECT_DIR]\n"
    "       rampart trust [--state-dir DIR] --remove PROJECT_DIR\n"
    "\n"
    "Trusts PROJECT_DIR (default: the current directory) so that `rampart eval` without -c\n"
    "reads its .rampart.yaml; --remove withdraws that trust. The directory is recorded by its\n"
    "real path in the state store (--state-dir, else $RAMPART_STATE_DIR, else\n"
    "$XDG_STATE_HOME/rampart).\n";

static int trust_run(int argc, char **argv)
{
    const rp_cli_command *cmd = &rp_cmd_trust;
    const char *dir_arg = NULL;
    const char *state_dir = NULL;
    bool remove = false;
    for (int i = 1; i < argc; i++) {
        const char *value = NULL;
        int m;
        if (rp_cli_is_help(argv[i])) {
            rp_cli_print_usage(cmd, stdout);
            return RP_EXIT_OK;
        } else if (strcmp(argv[i], "--remove") == 0) {
            remove = true;
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--state-dir", NULL, &value)) != 0) {
            if (m < 0 || value[0] == '\0') {
                return rp_cli_usage_error(cmd, "--state-dir needs a directory");
            }
            state_dir = value;
        } else if (argv[i][0] == '-') {
            return rp_cli_usage_error(cmd, "unknown option '%s'", argv[i]);
        } else if (dir_arg) {
            return rp_cli_usage_error(cmd, "one directory at a time");
        } else {
            dir_arg = argv[i];
        }
    }
    if (remove && !dir_arg) {
        return rp_cli_usage_error(cmd, "--remove needs the directory to stop trusting");
    }

    /* The real path, so that "." and a symlinked checkout name the same entry; a directory that
     * is gone can still be removed by the name it was trusted under. */
    char real[PATH_MAX];
    const char *dir;
    if (realpath(dir_arg ? dir_arg : ".", real)) {
        struct stat st;
        if (stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "rampart trust: %s is not a directory\n", real);
            return RP_EXIT_FAIL;
        }
        dir = real;
    } else if (remove) {
        dir = dir_arg;
    } else {
        fprintf(stderr, "rampart trust: %s: %s\n", dir_arg ? dir_arg : ".", strerror(errno));
        return RP_EXIT_FAIL;
    }

    char clock_err[256] = "";
    if (rp_clock_check_env(clock_err, sizeof clock_err) != 0) {
        fprintf(stderr, "rampart trust: RAMPART_NOW: %s\n", clock_err);
        return RP_EXIT_USAGE;
    }
    rp_store *store = rp_cli_open_store(state_dir);
    if (!store) {
        return RP_EXIT_FAIL;
    }
    int status = RP_EXIT_OK;
    if (remove) {
        if (rp_store_untrust(store, dir) != 0) {
            fprintf(stderr, "rampart trust: %s\n", rp_store_error(store));
            status = RP_EXIT_FAIL;
        } else {
            printf("no longer trusted: %s\n", dir);
        }
    } else if (rp_store_trust(store, dir, rp_now_us()) != 0) {
        fprintf(stderr, "rampart trust: %s\n", rp_store_error(store));
        status = RP_EXIT_FAIL;
    } else {
        printf("trusted: %s (its .rampart.yaml will be read)\n", dir);
    }
    rp_store_close(store);
    return status;
}

const rp_cli_command rp_cmd_trust = {
    .name = "trust",
    .summary = "trust a project directory so its .rampart.yaml is read",
    .usage = trust_usage,
    .run = trust_run,
};
