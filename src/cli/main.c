/* main.c — the `rampart` program: find the command and run it. Everything else lives in the
 * library (src/cli/cli.c and the cmd_*.c files) so tests can link it. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static int help(int argc, char **argv)
{
    if (argc < 3) {
        rp_cli_print_overview(stdout);
        return RP_EXIT_OK;
    }
    const rp_cli_command *cmd = rp_cli_find_command(argv[2]);
    if (!cmd) {
        fprintf(stderr, "rampart help: unknown command '%s'\n", argv[2]);
        rp_cli_print_overview(stderr);
        return RP_EXIT_USAGE;
    }
    rp_cli_print_usage(cmd, stdout);
    return RP_EXIT_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        rp_cli_print_overview(stderr);
        return RP_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        return help(argc, argv);
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        printf("rampart %s\n", RAMPART_VERSION);
        return RP_EXIT_OK;
    }
    const rp_cli_command *cmd = rp_cli_find_command(name);
    if (!cmd) {
        fprintf(stderr, "rampart: unknown command '%s'\n\n", name);
        rp_cli_print_overview(stderr);
        return RP_EXIT_USAGE;
    }
    return cmd->run(argc - 1, argv + 1);
}
