/* git.h — git's global options, read as git reads them (git.c handle_options): the one reader
 * for everything that looks at `git` commands (github_policy, block_working_dir_changes, the
 * permissions gates).
 *
 * `git [-C DIR] [-c K=V] [--git-dir X] [--no-pager] … SUBCOMMAND ARGS`: the subcommand is the
 * first word after the global options, not words[1]. */
#ifndef RAMPART_SHELL_GIT_H
#define RAMPART_SHELL_GIT_H

#include <stdbool.h>
#include <stddef.h>

#include "shell/shell.h"

#define RP_SH_GIT_MAX_RECORDED                                                                     \
    16 /* -C values and aliases kept; more are folded into `overflow`                              \
        */

typedef struct rp_sh_git_globals {
    size_t subcommand; /* index of the subcommand word in c->words; n_words when there is none */
    const rp_sh_word *dirs[RP_SH_GIT_MAX_RECORDED]; /* -C values, in order */
    size_t n_dirs;
    /* -c alias.<name>=<value> and --config-env alias.<name>=<envvar>: one-off aliases. */
    const char *alias_names[RP_SH_GIT_MAX_RECORDED];
    size_t alias_name_lens[RP_SH_GIT_MAX_RECORDED];
    const char *alias_values[RP_SH_GIT_MAX_RECORDED]; /* NULL when it comes from the environment */
    size_t n_aliases;
    /* Every -c value and --config-env value (`key=value`, `key`; for --config-env the value is
     * the name of the environment variable that holds it: config_from_env), in order. */
    const char *configs[RP_SH_GIT_MAX_RECORDED];
    bool config_from_env[RP_SH_GIT_MAX_RECORDED];
    size_t n_configs;
    bool rewrites_urls; /* a url.<base>.insteadOf / pushInsteadOf was set with -c */
    /* More -C values, aliases or configs than recorded, or an option whose name is dynamic
     * (`-$X`): callers treat what git will do as unknown. */
    bool overflow;
} rp_sh_git_globals;

/* Reads the global options of c (whose program is git). */
void rp_sh_git_read_globals(const rp_sh_command *c, rp_sh_git_globals *g);

/* The one-off alias `name` (compared case-insensitively, as git's config keys; the last one
 * set when there are several, as git reads them) or -1. */
int rp_sh_git_alias_index(const rp_sh_git_globals *g, const char *name);

#endif
