/* cmd_install.c — `rampart install` (issue 8; placeholder until it lands). */
#include <stdio.h>

#include "cli/cli.h"

static int install_run(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "rampart install: not implemented yet\n");
    return RP_EXIT_FAIL;
}

const rp_cli_command rp_cmd_install = {
    .name = "install",
    .summary = "(not implemented yet)",
    .usage = "usage: rampart install\n",
    .run = install_run,
};

const rp_cli_command rp_cmd_uninstall = {
    .name = "uninstall",
    .summary = "(not implemented yet)",
    .usage = "usage: rampart uninstall\n",
    .run = install_run,
};
