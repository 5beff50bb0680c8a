/* cli.h — the `rampart` command line: the command table and the helpers its commands share.
 *
 * Each command lives in its own src/cli/cmd_<name>.c and is described by one rp_cli_command.
 * main() (src/cli/main.c, the only file outside the library) looks the command up and calls
 * run(argc, argv) with argv[0] = the command name. Exit statuses are the same for every command:
 * 0 success, 1 a failure found while working (bad event, invalid file, store error), 2 a usage,
 * config or params error found before any work was done. */
#ifndef RAMPART_CLI_CLI_H
#define RAMPART_CLI_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config/config.h"
#include "config/stack.h"
#include "store/store.h"

enum { RP_EXIT_OK = 0, RP_EXIT_FAIL = 1, RP_EXIT_USAGE = 2 };

typedef struct rp_cli_command {
    const char *name;
    const char *summary; /* one line for `rampart --help` */
    const char *usage;   /* the full text for `rampart help NAME` and `NAME --help` */
    int (*run)(int argc, char **argv);
} rp_cli_command;

extern const rp_cli_command rp_cmd_eval;
extern const rp_cli_command rp_cmd_validate;
extern const rp_cli_command rp_cmd_policies;
extern const rp_cli_command rp_cmd_log;
extern const rp_cli_command rp_cmd_trust;
extern const rp_cli_command rp_cmd_import;
extern const rp_cli_command rp_cmd_cel;
extern const rp_cli_command rp_cmd_usage;
extern const rp_cli_command rp_cmd_spend;
extern const rp_cli_command rp_cmd_pricing;
extern const rp_cli_command rp_cmd_hook;
extern const rp_cli_command rp_cmd_approve;
extern const rp_cli_command rp_cmd_install;
extern const rp_cli_command rp_cmd_uninstall;
extern const rp_cli_command rp_cmd_doctor;
extern const rp_cli_command rp_cmd_init;

/* Writes the starter config of `rampart init` to the user config path (rp_config_user_path),
 * its path into `path`. Returns 1 written, 0 when a file is already there and !force (left
 * alone), -1 with err. */
int rp_cli_write_starter_config(bool force, char *path, size_t path_size, char *err,
                                size_t err_size);

/* Every command, in the order `rampart --help` lists them. */
const rp_cli_command *const *rp_cli_commands(size_t *count);
const rp_cli_command *rp_cli_find_command(const char *name); /* NULL if unknown */

/* `rampart --help`: the command list. */
void rp_cli_print_overview(FILE *out);
/* A command's full usage text. */
void rp_cli_print_usage(const rp_cli_command *cmd, FILE *out);
/* Prints "rampart CMD: <message>" and the command's usage to stderr; returns RP_EXIT_USAGE. */
int rp_cli_usage_error(const rp_cli_command *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---- argument scanning ----
 * Commands walk argv themselves (no global getopt state, so they can be called repeatedly from
 * tests). rp_cli_flag_value matches `--name VALUE` and `--name=VALUE` (and the short alias, when
 * given, as `-c VALUE`) at argv[*i]. Returns 1 and advances *i past the value on a match, 0 when
 * argv[*i] is another argument, -1 when the flag is there but its value is missing. */
int rp_cli_flag_value(int argc, char **argv, int *i, const char *long_name, const char *short_name,
                      const char **value);
/* Whether a JSON-lines input line holds nothing but JSON whitespace (skipped by every reader). */
bool rp_cli_is_blank_line(const char *s, size_t n);

/* Whether argv[i] is `-h` or `--help`. */
bool rp_cli_is_help(const char *arg);

/* ---- shared pieces ---- */

/* Parses `--since`: RFC 3339, or a relative age `<digits><s|m|h|d|w>` counted back from now_us.
 * Returns 0 and *us, or -1. */
int rp_cli_parse_since(const char *text, int64_t now_us, int64_t *us);

/* Opens the SQLite store in dir (NULL = default). On failure prints why to stderr, returns NULL. */
rp_store *rp_cli_open_store(const char *dir);

/* The state directory a command without `-c` should use: explicit (from --state-dir) when given,
 * else `state_dir` of the user/system configuration when it sets one, else NULL (the store's
 * default). The returned string is malloc'd (free it) or NULL. */
char *rp_cli_state_dir_from_stack(const char *explicit_dir);

#endif
