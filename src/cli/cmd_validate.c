/* cmd_validate.c — `rampart validate FILE...`: load each file as `-c` would and report.
 *
 * Each file is checked on its own (not as a stack), so every file's own errors are reported
 * with its own line and column, and one broken file does not hide the problems of the next. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const char validate_usage[] =
    "usage: rampart validate FILE...\n"
    "\n"
    "Loads each configuration file as `rampart eval -c FILE` would and prints every problem\n"
    "as file:line:col: policy 'name': parameter 'x': message. Warnings are printed but do not\n"
    "fail. Exit status: 0 when every file is valid (one summary line per file), 1 when any\n"
    "file has an error, 2 on a usage error.\n";

static int validate_one(const char *path)
{
    rp_config_file file = {.path = path, .level = RP_LEVEL_EXPLICIT};
    rp_config *cfg = rp_config_load(&file, 1);
    rp_config_print_diags(cfg, cfg->n_errors > 0 ? stderr : stdout);
    int status = RP_EXIT_OK;
    if (cfg->n_errors > 0) {
        fprintf(stderr, "%s: %zu error%s\n", path, cfg->n_errors, cfg->n_errors == 1 ? "" : "s");
        status = RP_EXIT_FAIL;
    } else {
        size_t n = cfg->engine.n_slots;
        printf("%s: OK (%zu polic%s)\n", path, n, n == 1 ? "y" : "ies");
    }
    rp_config_free(cfg);
    return status;
}

/* Whether argv[i] names a file: everything after "--", and anything not starting with '-'. */
static bool is_file_arg(char **argv, int i, int dashdash)
{
    return (dashdash > 0 && i > dashdash) || (i != dashdash && argv[i][0] != '-');
}

static int validate_run(int argc, char **argv)
{
    const rp_cli_command *cmd = &rp_cmd_validate;
    int dashdash = 0;
    int n_files = 0;
    /* First pass: every usage error is found before any file is read. */
    for (int i = 1; i < argc; i++) {
        if (dashdash == 0 && strcmp(argv[i], "--") == 0) {
            dashdash = i;
        } else if (is_file_arg(argv, i, dashdash)) {
            n_files++;
        } else if (rp_cli_is_help(argv[i])) {
            rp_cli_print_usage(cmd, stdout);
            return RP_EXIT_OK;
        } else {
            return rp_cli_usage_error(cmd, "unknown option '%s'", argv[i]);
        }
    }
    if (n_files == 0) {
        return rp_cli_usage_error(cmd, "no file given");
    }
    int status = RP_EXIT_OK;
    for (int i = 1; i < argc; i++) {
        if (is_file_arg(argv, i, dashdash) && validate_one(argv[i]) != RP_EXIT_OK) {
            status = RP_EXIT_FAIL;
        }
    }
    fflush(stdout);
    return status;
}

const rp_cli_command rp_cmd_validate = {
    .name = "validate",
    .summary = "check configuration files and print every problem",
    .usage = validate_usage,
    .run = validate_run,
};
