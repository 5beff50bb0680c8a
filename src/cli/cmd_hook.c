/* cmd_hook.c — `rampart hook` (issue 8; placeholder until it lands). */
#include <stdio.h>

#include "cli/cli.h"

static int hook_run(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "rampart hook: not implemented yet\n");
    return RP_EXIT_FAIL;
}

const rp_cli_command rp_cmd_hook = {
    .name = "hook",
    .summary = "(not implemented yet)",
    .usage = "usage: rampart hook\n",
    .run = hook_run,
};
