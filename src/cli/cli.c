/* cli.c — the command table and the helpers every `rampart` command shares. */
#include "cli/cli.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/clock.h"

static const rp_cli_command *const commands[] = {
    &rp_cmd_eval,    &rp_cmd_validate,  &rp_cmd_policies, &rp_cmd_log,
    &rp_cmd_trust,   &rp_cmd_import,    &rp_cmd_cel,      &rp_cmd_usage,
    &rp_cmd_spend,   &rp_cmd_pricing,   &rp_cmd_hook,     &rp_cmd_approve,
    &rp_cmd_install, &rp_cmd_uninstall, &rp_cmd_doctor,   &rp_cmd_init,
};

const rp_cli_command *const *rp_cli_commands(size_t *count)
{
    *count = sizeof commands / sizeof commands[0];
    return commands;
}

const rp_cli_command *rp_cli_find_command(const char *name)
{
    size_t n;
    const rp_cli_command *const *all = rp_cli_commands(&n);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(all[i]->name, name) == 0) {
            return all[i];
        }
    }
    return NULL;
}

void rp_cli_print_overview(FILE *out)
{
    size_t n;
    const rp_cli_command *const *all = rp_cli_commands(&n);
    fprintf(out, "usage: rampart COMMAND [ARGS]\n"
                 "       rampart help COMMAND | --help | --version\n\n"
                 "rampart decides whether an AI agent may run a command, edit a file, call a tool\n"
                 "or send a prompt: ALLOW, ASK or DENY, with a reason.\n\n"
                 "commands:\n");
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "  %-10s %s\n", all[i]->name, all[i]->summary);
    }
    fprintf(out, "\nexit status: 0 success, 1 a failure while working, 2 usage or config error\n");
}

void rp_cli_print_usage(const rp_cli_command *cmd, FILE *out)
{
    fputs(cmd->usage, out);
}

int rp_cli_usage_error(const rp_cli_command *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "rampart %s: ", cmd->name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    rp_cli_print_usage(cmd, stderr);
    return RP_EXIT_USAGE;
}

int rp_cli_flag_value(int argc, char **argv, int *i, const char *long_name, const char *short_name,
                      const char **value)
{
    const char *arg = argv[*i];
    size_t n = strlen(long_name);
    if (strncmp(arg, long_name, n) == 0 && arg[n] == '=') {
        *value = arg + n + 1;
        return 1;
    }
    bool exact = strcmp(arg, long_name) == 0 || (short_name && strcmp(arg, short_name) == 0);
    if (!exact) {
        return 0;
    }
    if (*i + 1 >= argc) {
        return -1;
    }
    *i += 1;
    *value = argv[*i];
    return 1;
}

bool rp_cli_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

int rp_cli_parse_since(const char *text, int64_t now_us, int64_t *us)
{
    if (rp_rfc3339_parse(text, us) == 0) {
        return 0;
    }
    /* A relative age: digits then one unit letter, nothing else ("10m", "2h", "7d"). */
    const char *p = text;
    if (!isdigit((unsigned char)*p)) {
        return -1;
    }
    errno = 0;
    char *end;
    long long amount = strtoll(p, &end, 10);
    if (errno != 0 || end[0] == '\0' || end[1] != '\0') {
        return -1;
    }
    int64_t unit;
    switch (end[0]) {
    case 's':
        unit = 1000000LL;
        break;
    case 'm':
        unit = 60LL * 1000000LL;
        break;
    case 'h':
        unit = 3600LL * 1000000LL;
        break;
    case 'd':
        unit = 86400LL * 1000000LL;
        break;
    case 'w':
        unit = 7LL * 86400LL * 1000000LL;
        break;
    default:
        return -1;
    }
    /* Refuse ages that would overflow rather than wrapping into the future. */
    if (amount > INT64_MAX / unit) {
        return -1;
    }
    int64_t age = amount * unit;
    *us = age >= now_us ? 0 : now_us - age;
    return 0;
}

rp_store *rp_cli_open_store(const char *dir)
{
    char err[512] = "";
    rp_store *s = rp_store_open_sqlite(dir, err, sizeof err);
    if (!s) {
        char def[PATH_MAX] = "";
        const char *where = dir ? dir : rp_store_default_dir(def, sizeof def);
        fprintf(stderr, "rampart: cannot open the state store in %s: %s\n",
                where ? where : "(default directory)", err[0] ? err : "unknown error");
    }
    return s;
}

char *rp_cli_state_dir_from_stack(const char *explicit_dir)
{
    if (explicit_dir) {
        return strdup(explicit_dir);
    }
    /* Only the user and system levels may set state_dir, so the project file (and with it the
     * trust check) does not matter here: pass no trust callback. */
    rp_config_file files[4];
    char paths[4 * PATH_MAX];
    rp_diag warning = {0};
    size_t n = rp_config_default_stack(files, 4, paths, sizeof paths, NULL, NULL, &warning);
    if (n == 0) {
        return NULL;
    }
    rp_config *cfg = rp_config_load(files, n);
    char *dir = NULL;
    if (cfg->n_errors > 0) {
        fprintf(stderr, "rampart: warning: the user/system configuration has errors (see "
                        "`rampart validate`); using the default state directory\n");
    } else if (cfg->state_dir) {
        dir = strdup(cfg->state_dir);
    }
    rp_config_free(cfg);
    return dir;
}

bool rp_cli_is_blank_line(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n') {
            return false;
        }
    }
    return true;
}
