/* cmd_approve.c — `rampart approve` (issue 8; placeholder until it lands). */
#include <stdio.h>

#include "cli/cli.h"

static int approve_run(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "rampart approve: not implemented yet\n");
    return RP_EXIT_FAIL;
}

const rp_cli_command rp_cmd_approve = {
    .name = "approve",
    .summary = "(not implemented yet)",
    .usage = "usage: rampart approve\n",
    .run = approve_run,
};
