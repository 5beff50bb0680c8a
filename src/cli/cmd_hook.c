/* cmd_hook.c — `rampart hook HOST`: argv for the hook runtime (src/hosts/hook.c). */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "hosts/hook.h"
#include "hosts/hook_deadline.h"

static const char hook_usage[] =
    "usage: rampart hook HOST [-c FILE]... [--state-dir DIR]\n"
    "\n"
    "Answers one hook call of HOST (claude-code, codex, cursor, gemini, pi, opencode): reads\n"
    "the host's JSON on stdin, evaluates it against the policies with the session's state,\n"
    "and writes the host's answer (stdout, stderr, exit code) exactly as the host expects.\n"
    "`rampart install HOST` registers it; docs/hosts.md describes every host.\n"
    "\n"
    "  -c, --config FILE   load FILE (repeatable; replaces the project/user/system stack)\n"
    "  --state-dir DIR     the state store directory (default: the config's state_dir,\n"
    "                      else $RAMPART_STATE_DIR, else $XDG_STATE_HOME/rampart)\n"
    "\n"
    "A pre-tool or prompt event that cannot be decided (bad input, bad config, store error, no\n"
    "decision within hosts.HOST.deadline_ms) is denied with the reason; other events are never\n"
    "blocked by an error. RAMPART_NOW (RFC 3339) fixes the clock.\n";

typedef struct hook_args {
    const rp_hook_adapter *host;
    rp_config_file *configs;
    size_t n_configs;
    const char *state_dir;
} hook_args;

static int parse_args(int argc, char **argv, hook_args *o)
{
    const rp_cli_command *cmd = &rp_cmd_hook;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = NULL;
        int m;
        if (rp_cli_is_help(arg)) {
            rp_cli_print_usage(cmd, stdout);
            return RP_EXIT_OK;
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--config", "-c", &value)) != 0) {
            if (m < 0)
                return rp_cli_usage_error(cmd, "%s needs a file", arg);
            o->configs[o->n_configs].path = value;
            o->configs[o->n_configs].level = RP_LEVEL_EXPLICIT;
            o->n_configs++;
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--state-dir", NULL, &value)) != 0) {
            if (m < 0 || value[0] == '\0')
                return rp_cli_usage_error(cmd, "--state-dir needs a directory");
            o->state_dir = value;
        } else if (arg[0] == '-') {
            return rp_cli_usage_error(cmd, "unknown option '%s'", arg);
        } else if (o->host == NULL) {
            o->host = rp_hook_host_find(arg);
            if (o->host == NULL)
                return rp_cli_usage_error(cmd,
                                          "unknown host '%s' (known: claude-code, codex, cursor, "
                                          "gemini, pi, opencode)",
                                          arg);
        } else {
            return rp_cli_usage_error(cmd, "unexpected argument '%s'", arg);
        }
    }
    if (o->host == NULL)
        return rp_cli_usage_error(cmd, "which host? (claude-code, codex, cursor, gemini, pi, "
                                       "opencode)");
    return -1;
}

static int hook_main(int argc, char **argv)
{
    rp_hook_deadline_prepare(); /* before the first allocation */
    hook_args args = {0};
    args.configs = calloc((size_t)argc, sizeof *args.configs);
    if (args.configs == NULL)
        abort();
    int status = parse_args(argc, argv, &args);
    if (status < 0) {
        rp_hook_options o = {.host = args.host,
                             .configs = args.configs,
                             .n_configs = args.n_configs,
                             .state_dir = args.state_dir};
        status = rp_hook_run(&o);
    }
    free(args.configs);
    return status;
}

const rp_cli_command rp_cmd_hook = {
    .name = "hook",
    .summary = "answer one hook call of a coding agent (claude-code, codex, cursor, ...)",
    .usage = hook_usage,
    .run = hook_main,
};
