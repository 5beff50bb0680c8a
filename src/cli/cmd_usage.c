/* cmd_usage.c — `rampart usage record`: usage reports from hosts and scripts into the ledger.
 *
 * One JSON object per line on stdin (or FILE). Each valid line is one ledger row, recorded in its
 * own transaction together with every aggregate it touches, so a crash between lines leaves the
 * ledger exact, and several processes may record for one user at once. A line that cannot be
 * read is reported with its number and skipped; the exit status is then 1. A line with an `id`
 * already recorded for its session is a duplicate and changes nothing, so a host may safely
 * resend after a crash. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cli/cli.h"
#include "core/buf.h"
#include "core/clock.h"
#include "cost/pricing.h"
#include "cost/usage.h"

static const char usage_usage[] =
    "usage: rampart usage record [-c FILE]... [--state-dir DIR] [-q] [FILE | -]\n"
    "\n"
    "Records LLM usage in the spend ledger, one JSON object per line:\n"
    "  {\"session_id\": \"s1\", \"user\": \"alice\", \"model\": \"claude-opus-4-5\",\n"
    "   \"input_tokens\": 1200, \"output_tokens\": 300, \"cache_read_input_tokens\": 0,\n"
    "   \"cache_creation_input_tokens\": 0, \"cost_usd\": 0.0135, \"time\": "
    "\"2026-12-01T10:00:00Z\",\n"
    "   \"parent_session_id\": \"s0\", \"id\": \"msg_01...\"}\n"
    "session_id is required. The tokens may also sit in a nested \"usage\" object. Without\n"
    "cost_usd the cost comes from the price table (`rampart pricing`; the config's pricing:\n"
    "block wins); a model without a price is recorded as unpriced. time defaults to now\n"
    "(RAMPART_NOW when set), at most a day ahead. user names the session's owner when it\n"
    "has none yet; spend is always charged to the session tree's owner. A repeated id of a\n"
    "session is skipped as a duplicate. Counts above 10^12 or a cost above $1,000,000 on\n"
    "one line are errors.\n"
    "\n"
    "  -c, --config FILE   read pricing from FILE (repeatable; default: the user/system config)\n"
    "  --state-dir DIR     the state store directory (default: the config's state_dir,\n"
    "                      $RAMPART_STATE_DIR, $XDG_STATE_HOME/rampart)\n"
    "  -q, --quiet         print nothing on success\n"
    "\n"
    "Prints `recorded N (D duplicates, U unpriced), $X.XX` on stdout. Exit status: 0 every line\n"
    "recorded, 1 a line could not be read or the store failed, 2 a usage or config error.\n";

typedef struct usage_totals {
    size_t recorded, duplicates, unpriced, bad;
    int64_t cost_nusd;
} usage_totals;

/* One line → one row. Returns 0, 1 for a line that cannot be read (reported), -1 store error. */
static int record_line(rp_store *store, const rp_cost_pricing *pricing, const char *line,
                       size_t len, size_t line_no, rp_arena *a, usage_totals *t)
{
    rp_json_error jerr;
    rp_json *obj = rp_json_parse(a, line, len, &jerr);
    char why[512];
    rp_usage_record rec;
    if (obj == NULL) {
        fprintf(stderr, "rampart usage: line %zu: invalid JSON at column %d: %s\n", line_no,
                jerr.col, jerr.msg);
        return 1;
    }
    if (rp_cost_usage_record_from_json(obj, pricing, rp_now_us(), &rec, why, sizeof why) != 0) {
        fprintf(stderr, "rampart usage: line %zu: %s\n", line_no, why);
        return 1;
    }
    bool duplicate = false;
    if (rp_store_record_usage(store, &rec, &duplicate) != 0) {
        fprintf(stderr, "rampart usage: line %zu: %s\n", line_no, rp_store_error(store));
        return -1;
    }
    if (duplicate) {
        t->duplicates++;
        return 0;
    }
    t->recorded++;
    if (rec.priced)
        t->cost_nusd += rec.cost_nusd;
    else
        t->unpriced++;
    return 0;
}

static int record_stream(rp_store *store, const rp_cost_pricing *pricing, FILE *in,
                         const char *name, usage_totals *t)
{
    char *line = NULL;
    size_t cap = 0, line_no = 0;
    ssize_t got;
    int status = RP_EXIT_OK;
    rp_arena a = {0};
    while ((got = getline(&line, &cap, in)) >= 0) {
        line_no++;
        size_t len = (size_t)got;
        if (rp_cli_is_blank_line(line, len))
            continue;
        rp_arena_reset(&a);
        int rc = record_line(store, pricing, line, len, line_no, &a, t);
        if (rc > 0) {
            t->bad++;
            status = RP_EXIT_FAIL;
        } else if (rc < 0) {
            status = RP_EXIT_FAIL;
            break; /* the store is failing: later lines would fail the same way */
        }
    }
    if (ferror(in)) {
        fprintf(stderr, "rampart usage: error reading %s after line %zu\n", name, line_no);
        status = RP_EXIT_FAIL;
    }
    rp_arena_free(&a);
    free(line);
    return status;
}

static rp_config *load_pricing_config(rp_config_file *files, size_t n_files)
{
    if (n_files > 0)
        return rp_config_load(files, n_files);
    rp_config_file stack[4];
    char paths[4 * PATH_MAX];
    rp_diag warning = {0};
    /* No trust callback: a project file may not set pricing anyway. */
    size_t n = rp_config_default_stack(stack, 4, paths, sizeof paths, NULL, NULL, &warning);
    return rp_config_load(stack, n);
}

static int usage_run(int argc, char **argv)
{
    const rp_cli_command *cmd = &rp_cmd_usage;
    if (argc < 2 || rp_cli_is_help(argv[1])) {
        rp_cli_print_usage(cmd, argc < 2 ? stderr : stdout);
        return argc < 2 ? RP_EXIT_USAGE : RP_EXIT_OK;
    }
    if (strcmp(argv[1], "record") != 0)
        return rp_cli_usage_error(cmd, "unknown subcommand '%s' (known: record)", argv[1]);

    rp_config_file *files = calloc((size_t)argc, sizeof *files);
    if (!files)
        abort();
    size_t n_files = 0;
    const char *state_dir = NULL, *input = NULL;
    bool quiet = false;
    for (int i = 2; i < argc; i++) {
        const char *value = NULL;
        int m;
        if (rp_cli_is_help(argv[i])) {
            rp_cli_print_usage(cmd, stdout);
            free(files);
            return RP_EXIT_OK;
        } else if (strcmp(argv[i], "-q") == 0 || strcmp(argv[i], "--quiet") == 0) {
            quiet = true;
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--config", "-c", &value)) != 0) {
            if (m < 0 || value[0] == '\0') {
                free(files);
                return rp_cli_usage_error(cmd, "-c needs a file");
            }
            files[n_files].path = value;
            files[n_files].level = RP_LEVEL_EXPLICIT;
            n_files++;
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--state-dir", NULL, &value)) != 0) {
            if (m < 0 || value[0] == '\0') {
                free(files);
                return rp_cli_usage_error(cmd, "--state-dir needs a directory");
            }
            state_dir = value;
        } else if (argv[i][0] == '-' && strcmp(argv[i], "-") != 0) {
            free(files);
            return rp_cli_usage_error(cmd, "unknown option '%s'", argv[i]);
        } else if (input) {
            free(files);
            return rp_cli_usage_error(cmd, "one input file at a time");
        } else {
            input = argv[i];
        }
    }

    char clock_err[256] = "";
    if (rp_clock_check_env(clock_err, sizeof clock_err) != 0) {
        fprintf(stderr, "rampart usage: RAMPART_NOW: %s\n",
                clock_err[0] ? clock_err : "not an RFC 3339 time");
        free(files);
        return RP_EXIT_USAGE;
    }
    int status = RP_EXIT_OK;
    rp_store *store = NULL;
    FILE *in = NULL;
    rp_arena pa = {0};
    rp_config *cfg = load_pricing_config(files, n_files);
    rp_config_print_diags(cfg, stderr);
    if (cfg->n_errors > 0) {
        fprintf(stderr, "rampart usage: %zu configuration error%s; nothing recorded\n",
                cfg->n_errors, cfg->n_errors == 1 ? "" : "s");
        status = RP_EXIT_USAGE;
        goto done;
    }
    char err[512] = "";
    const rp_cost_pricing *pricing = rp_cost_pricing_build(&pa, cfg->pricing, err, sizeof err);
    if (pricing == NULL) {
        fprintf(stderr, "rampart usage: pricing: %s\n", err);
        status = RP_EXIT_USAGE;
        goto done;
    }
    const char *name = input && strcmp(input, "-") != 0 ? input : "<stdin>";
    if (input && strcmp(input, "-") != 0 && !(in = fopen(input, "r"))) {
        fprintf(stderr, "rampart usage: cannot open %s: %s\n", input, strerror(errno));
        status = RP_EXIT_USAGE;
        goto done;
    }
    if (!(store = rp_cli_open_store(state_dir ? state_dir : cfg->state_dir))) {
        status = RP_EXIT_FAIL;
        goto done;
    }
    usage_totals t = {0};
    status = record_stream(store, pricing, in ? in : stdin, name, &t);
    if (!quiet || status != RP_EXIT_OK) {
        char money[64];
        snprintf(money, sizeof money, "$%.2f", (double)t.cost_nusd / (double)RP_NUSD_PER_USD);
        printf("recorded %zu (%zu duplicate%s, %zu unpriced), %s\n", t.recorded, t.duplicates,
               t.duplicates == 1 ? "" : "s", t.unpriced, money);
        if (t.bad)
            printf("%zu line%s could not be read (see above)\n", t.bad, t.bad == 1 ? "" : "s");
    }

done:
    if (in)
        fclose(in);
    if (store)
        rp_store_close(store);
    rp_arena_free(&pa);
    rp_config_free(cfg);
    free(files);
    return status;
}

const rp_cli_command rp_cmd_usage = {
    .name = "usage",
    .summary = "record LLM usage (tokens, cost) in the spend ledger",
    .usage = usage_usage,
    .run = usage_run,
};
