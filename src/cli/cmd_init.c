/* cmd_init.c — `rampart init`: writes a commented starter config to the user config path.
 *
 * Without a config rampart evaluates no policy and allows everything, so a fresh install would
 * guard nothing. The starter config is what a person guarding an agent expects on day one:
 * irreversible shell commands denied and risky ones asked about, retry loops and error streaks
 * asked about, a generous cap on tool calls, credentials kept out of prompts and tool calls,
 * and daily spend checkpoints that ask and never stop work on their own. `rampart install`
 * writes it too when the user has no config (rp_cli_write_starter_config). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "core/safe_file.h"

static const char init_usage[] =
    "usage: rampart init [--force] [--print]\n"
    "\n"
    "Writes a commented starter config to the user config path\n"
    "($XDG_CONFIG_HOME/rampart/config.yaml, default ~/.config/rampart/config.yaml): shell\n"
    "guards (blast_radius), loop and error-streak detection, a cap of 1000 tool calls per\n"
    "session, credentials in prompts and tool calls, and daily spend checkpoints that only ask.\n"
    "An existing file is left alone unless --force is given. --print writes the config to\n"
    "stdout instead. Edit it to taste; `rampart validate FILE` checks it.\n";

/* The starter config. Every policy is a builtin (docs/policies.md); the text must load without
 * a diagnostic, which tests/e2e/install.sh checks through `rampart validate`. */
static const char starter[] =
    "# rampart starter config, written by `rampart init`. Every agent rampart guards\n"
    "# (`rampart install HOST`) runs these policies before each tool call and prompt.\n"
    "# Edit to taste and check with `rampart validate FILE`; docs/config.md and\n"
    "# docs/policies.md describe every key. `rampart log` shows what was decided and why.\n"
    "\n"
    "on_error: deny   # when rampart itself cannot decide, the call is blocked\n"
    "\n"
    "policies:\n"
    "  # Shell guards: irreversible commands (rm -rf /, mkfs, dd onto a disk, ...) are\n"
    "  # denied; risky ones (git push --force, git reset --hard, git clean -fdx, ...) ask.\n"
    "  shell_guard:\n"
    "    handler: blast_radius\n"
    "    factory_params:\n"
    "      risky_action: ASK\n"
    "\n"
    "  # The same tool with the same arguments 3 times in the last 10 calls: ask.\n"
    "  loop_guard:\n"
    "    handler: detect_loop\n"
    "    factory_params: {window: 10, threshold: 3}\n"
    "\n"
    "  # 5 failing tool calls in a row, or 80% of the last 10: ask.\n"
    "  thrashing_guard:\n"
    "    handler: detect_thrashing\n"
    "    factory_params: {consecutive_threshold: 5, window: 10, window_error_rate: 0.8,\n"
    "                     action: ASK}\n"
    "\n"
    "  # A generous cap: a runaway session stops at 1000 tool calls.\n"
    "  tool_call_cap:\n"
    "    handler: max_tool_calls_per_session\n"
    "    factory_params: {limit: 1000}\n"
    "\n"
    "  # Credentials (cloud and API keys, tokens, private keys) in a prompt or a tool call:\n"
    "  # ask first. action: REDACT rewrites them to [REDACTED:<type>] instead, DENY blocks.\n"
    "  secrets:\n"
    "    handler: deny_secrets\n"
    "    factory_params:\n"
    "      action: ASK\n"
    "      allow_patterns: ['EXAMPLE$']   # the AWS documentation's example keys\n"
    "\n"
    "  # Your spend today, over all sessions: ask once at each checkpoint. max_cost_usd is\n"
    "  # required by the policy; set this high, it never stops work. Lower it for a hard cap.\n"
    "  daily_budget:\n"
    "    handler: user_daily_cost_budget\n"
    "    factory_params:\n"
    "      ask_thresholds_usd: [10, 25, 50, 100]\n"
    "      max_cost_usd: 1000000\n";

int rp_cli_write_starter_config(bool force, char *path, size_t path_size, char *err,
                                size_t err_size)
{
    if (!rp_config_user_path(path, path_size)) {
        snprintf(err, err_size, "neither $XDG_CONFIG_HOME nor $HOME is set");
        return -1;
    }
    /* Without --force anything at the path is kept, a dangling link too (it may be a dotfile
     * manager's, not checked out yet). */
    struct stat st;
    if (!force && lstat(path, &st) == 0)
        return 0;
    /* The user's own path: a symlinked config is followed (rp_safe_resolve), and the file is
     * written through a temporary file and a rename, so a hook never reads half a config.
     * Without --force, a file that appeared meanwhile is kept (RP_SAFE_NO_REPLACE). */
    rp_buf e = {0};
    int rc = -1;
    char *real = rp_safe_resolve(path, NULL, true, &e);
    if (real) {
        rc = rp_safe_write(real, starter, sizeof starter - 1, 0644, force ? 0 : RP_SAFE_NO_REPLACE,
                           &e);
        free(real);
    }
    if (rc < 0)
        snprintf(err, err_size, "%s", e.data);
    rp_buf_free(&e);
    return rc;
}

static int init_run(int argc, char **argv)
{
    const rp_cli_command *cmd = &rp_cmd_init;
    bool force = false, print = false;
    for (int i = 1; i < argc; i++) {
        if (rp_cli_is_help(argv[i])) {
            rp_cli_print_usage(cmd, stdout);
            return RP_EXIT_OK;
        } else if (strcmp(argv[i], "--force") == 0) {
            force = true;
        } else if (strcmp(argv[i], "--print") == 0) {
            print = true;
        } else {
            return rp_cli_usage_error(cmd, "unknown argument '%s'", argv[i]);
        }
    }
    if (print) {
        fputs(starter, stdout);
        return RP_EXIT_OK;
    }
    char path[PATH_MAX], err[PATH_MAX + 128];
    int rc = rp_cli_write_starter_config(force, path, sizeof path, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "rampart init: %s\n", err);
        return RP_EXIT_FAIL;
    }
    if (rc == 0) {
        fprintf(stderr,
                "rampart init: %s already exists; not replacing it (--force replaces it, "
                "--print shows the starter config)\n",
                path);
        return RP_EXIT_FAIL;
    }
    printf("wrote the starter config to %s: shell guards, loop and error-streak detection, a "
           "1000-call cap, credentials in prompts and tool calls, daily spend checkpoints. "
           "Edit it to taste; `rampart validate %s` checks it.\n",
           path, path);
    return RP_EXIT_OK;
}

const rp_cli_command rp_cmd_init = {
    .name = "init",
    .summary = "write a commented starter config to the user config path",
    .usage = init_usage,
    .run = init_run,
};
