/* cmd_doctor.c — `rampart doctor` (issue 8; placeholder until it lands). */
#include <stdio.h>

#include "cli/cli.h"

static int doctor_run(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "rampart doctor: not implemented yet\n");
    return RP_EXIT_FAIL;
}

const rp_cli_command rp_cmd_doctor = {
    .name = "doctor",
    .summary = "(not implemented yet)",
    .usage = "usage: rampart doctor\n",
    .run = doctor_run,
};
