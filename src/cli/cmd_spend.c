/* cmd_spend.c — `rampart spend`: where the money went, from the spend ledger. Flags, the period
 * window and the store here; the report is gathered and rendered by spend_report.c and
 * spend_render.c. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/spend_render.h"
#include "core/arena.h"
#include "core/buf.h"
#include "core/clock.h"
#include "engine/event.h"
#include "cost/period.h"

static const char spend_usage[] =
    "usage: rampart spend [--user U] [--session S] [--period day|week|month|quarter|year]\n"
    "                     [--by model|user|day|session|source] [--json] [--ascii]\n"
    "                     [--state-dir DIR]\n"
    "\n"
    "Shows the recorded LLM spend: a table of records, tokens and cost per group with a total,\n"
    "and a bar chart of the spend per UTC day (the last 31 days of the range). Usage recorded\n"
    "without any price is flagged as \"+ N unpriced\": its cost is unknown, not zero.\n"
    "\n"
    "options:\n"
    "  --user U         only usage of user U\n"
    "  --session S      only session S and its sub-agents (any depth)\n"
    "  --period P       only the current UTC window: day (today), week (ISO week, Monday to\n"
    "                   today), month, quarter or year (from its first day to today);\n"
    "                   default: all time\n"
    "  --by G           group the table by model (default), user, day, session or source:\n"
    "                   what priced the spend (host: the cost the host reported; table: the\n"
    "                   shipped prices; config: your pricing:; unpriced)\n"
    "  --json           one JSON object: {query, rows, total, days}; costs as cost_usd (USD)\n"
    "                   and cost_nusd (integer nano-dollars)\n"
    "  --ascii          draw the chart with '#' (the default when the locale is not UTF-8)\n"
    "  --state-dir DIR  the state store directory (default: user/system config's state_dir,\n"
    "                   else $RAMPART_STATE_DIR, else $XDG_STATE_HOME/rampart)\n";

typedef struct spend_args {
    const char *user, *session, *period, *state_dir;
    rp_spend_group group;
    bool json, ascii;
} spend_args;

/* Returns RP_EXIT_OK to go on, or the status to exit with (help printed, usage error). The
 * `done` flag tells help (exit 0, nothing more) from going on. */
static int parse_args(int argc, char **argv, spend_args *o, bool *done)
{
    const rp_cli_command *cmd = &rp_cmd_spend;
    *done = false;
    o->group = RP_SPEND_BY_MODEL;
    char why[160];
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int m;
        if (rp_cli_is_help(argv[i])) {
            rp_cli_print_usage(cmd, stdout);
            *done = true;
            return RP_EXIT_OK;
        } else if (strcmp(argv[i], "--json") == 0) {
            o->json = true;
        } else if (strcmp(argv[i], "--ascii") == 0) {
            o->ascii = true;
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--user", NULL, &v)) != 0) {
            if (m < 0 || !v[0]) {
                return rp_cli_usage_error(cmd, "--user needs a user id");
            }
            if (!rp_id_check("--user", v, why, sizeof why)) {
                return rp_cli_usage_error(cmd, "%s", why);
            }
            o->user = v;
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--session", NULL, &v)) != 0) {
            if (m < 0 || !v[0]) {
                return rp_cli_usage_error(cmd, "--session needs a session id");
            }
            if (!rp_id_check("--session", v, why, sizeof why)) {
                return rp_cli_usage_error(cmd, "%s", why);
            }
            o->session = v;
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--period", NULL, &v)) != 0) {
            rp_cost_period p;
            if (m < 0 || rp_cost_period_parse(v, &p) != 0) {
                return rp_cli_usage_error(cmd, "--period must be day, week, month, quarter or "
                                               "year");
            }
            o->period = v;
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--by", NULL, &v)) != 0) {
            if (m < 0 || rp_cli_spend_group_parse(v, &o->group) != 0) {
                return rp_cli_usage_error(cmd, "--by must be model, user, day, session or source");
            }
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--state-dir", NULL, &v)) != 0) {
            if (m < 0 || !v[0]) {
                return rp_cli_usage_error(cmd, "--state-dir needs a directory");
            }
            o->state_dir = v;
        } else {
            return rp_cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
        }
    }
    return RP_EXIT_OK;
}

/* A read command must not create state: with no database nothing was recorded. */
static bool store_exists(const char *dir)
{
    char def[PATH_MAX] = "", db[PATH_MAX + 16];
    const char *where = dir ? dir : rp_store_default_dir(def, sizeof def);
    if (!where) {
        return true; /* unknown: let opening it report why */
    }
    snprintf(db, sizeof db, "%s/state.db", where);
    return !(access(db, F_OK) != 0 && errno == ENOENT);
}

static int write_out(const rp_buf *b)
{
    if (b->len) {
        fwrite(b->data, 1, b->len, stdout);
    }
    fflush(stdout);
    return ferror(stdout) ? RP_EXIT_FAIL : RP_EXIT_OK;
}

static int spend_run(int argc, char **argv)
{
    spend_args o = {0};
    bool done;
    int status = parse_args(argc, argv, &o, &done);
    if (status != RP_EXIT_OK || done) {
        return status;
    }
    char clock_err[256] = "";
    if (rp_clock_check_env(clock_err, sizeof clock_err) != 0) {
        fprintf(stderr, "rampart spend: RAMPART_NOW: %s\n", clock_err);
        return RP_EXIT_USAGE;
    }

    char first[RP_COST_DAY_KEY_SIZE], last[RP_COST_DAY_KEY_SIZE];
    rp_spend_query q = {.user_id = o.user, .session_id = o.session, .group = o.group};
    rp_cost_period p;
    if (o.period && rp_cost_period_parse(o.period, &p) == 0) {
        rp_cost_period_window(p, rp_now_us(), first, last);
        q.first_day = first;
        q.last_day = last;
    }

    rp_arena a = {0};
    rp_cli_spend_report r;
    char *dir = rp_cli_state_dir_from_stack(o.state_dir);
    if (!store_exists(dir)) {
        /* The same empty report a fresh store would give, without creating one. */
        memset(&r, 0, sizeof r);
        r.user_id = q.user_id;
        r.session_id = q.session_id;
        r.period = o.period;
        r.first_day = q.first_day;
        r.last_day = q.last_day;
        r.group = q.group;
    } else {
        rp_store *store = rp_cli_open_store(dir);
        if (!store) {
            free(dir);
            return RP_EXIT_FAIL;
        }
        if (rp_cli_spend_collect(store, &q, o.period, &a, &r) != 0) {
            fprintf(stderr, "rampart spend: %s\n", rp_store_error(store));
            rp_store_close(store);
            rp_arena_free(&a);
            free(dir);
            return RP_EXIT_FAIL;
        }
        rp_store_close(store);
    }
    free(dir);

    rp_buf out = {0};
    if (o.json) {
        rp_cli_spend_render_json(&out, &r, &a);
    } else {
        bool unicode = !o.ascii && rp_cli_spend_locale_utf8(getenv("LC_ALL"), getenv("LC_CTYPE"),
                                                            getenv("LANG"));
        rp_cli_spend_render_text(&out, &r, unicode);
    }
    status = write_out(&out);
    rp_buf_free(&out);
    rp_arena_free(&a);
    return status;
}

const rp_cli_command rp_cmd_spend = {
    .name = "spend",
    .summary =
        "show recorded LLM spend: a table by model/user/day/session/source and a daily chart",
    .usage = spend_usage,
    .run = spend_run,
};
