/* cmd_approve.c — `rampart approve SESSION KEY`: a person's yes to an ASK the host could not put
 * to them (a prompt ASK on Claude Code, which can only block a prompt). The hook's block message
 * names the command with its arguments. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "session/session.h"

static const char approve_usage[] =
    "usage: rampart approve SESSION KEY [--state-dir DIR]\n"
    "\n"
    "Approves the ASK waiting under KEY in SESSION, as the block message of `rampart hook`\n"
    "printed them: its withheld state updates (a cost checkpoint's approval, say) are applied\n"
    "now, so the same question is not asked again. Sending the same prompt again within 10\n"
    "minutes does the same.\n"
    "\n"
    "  --state-dir DIR   the state store directory (default: the config's state_dir,\n"
    "                    else $RAMPART_STATE_DIR, else $XDG_STATE_HOME/rampart)\n"
    "\n"
    "Exit status: 0 approved, 1 nothing waits under that key (or a store error), 2 usage.\n";

static int approve_main(int argc, char **argv)
{
    const rp_cli_command *cmd = &rp_cmd_approve;
    const char *session = NULL, *key = NULL, *state_dir = NULL;
    for (int i = 1; i < argc; i++) {
        const char *value = NULL;
        int m;
        if (rp_cli_is_help(argv[i])) {
            rp_cli_print_usage(cmd, stdout);
            return RP_EXIT_OK;
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--state-dir", NULL, &value)) != 0) {
            if (m < 0 || value[0] == '\0')
                return rp_cli_usage_error(cmd, "--state-dir needs a directory");
            state_dir = value;
        } else if (argv[i][0] == '-') {
            return rp_cli_usage_error(cmd, "unknown option '%s'", argv[i]);
        } else if (session == NULL) {
            session = argv[i];
        } else if (key == NULL) {
            key = argv[i];
        } else {
            return rp_cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
        }
    }
    if (session == NULL || key == NULL)
        return rp_cli_usage_error(cmd, "approve needs the SESSION and the KEY");
    char why[160];
    if (!rp_id_check("SESSION", session, why, sizeof why) ||
        !rp_id_check("KEY", key, why, sizeof why))
        return rp_cli_usage_error(cmd, "%s", why);
    char *dir = rp_cli_state_dir_from_stack(state_dir);
    rp_store *store = rp_cli_open_store(dir);
    free(dir);
    if (store == NULL)
        return RP_EXIT_FAIL;
    rp_session_opts opts = {.store = store};
    char err[512];
    int rc = rp_session_approve(&opts, session, key, err, sizeof err);
    rp_store_close(store);
    if (rc < 0) {
        fprintf(stderr, "rampart approve: state store error: %s\n", err);
        return RP_EXIT_FAIL;
    }
    if (rc == 0) {
        fprintf(stderr, "rampart approve: nothing waits for approval under %s in session %s\n", key,
                session);
        return RP_EXIT_FAIL;
    }
    printf("approved %s in session %s\n", key, session);
    return RP_EXIT_OK;
}

const rp_cli_command rp_cmd_approve = {
    .name = "approve",
    .summary = "approve an ASK the host could only block (a prompt's cost checkpoint)",
    .usage = approve_usage,
    .run = approve_main,
};
