/* cmd_eval.c — `rampart eval`: one JSON event per input line in, one JSON decision per line out.
 *
 * The order of work is part of the contract: arguments, then RAMPART_NOW, then the config (a
 * config or params error exits 2 before a single event is read), then the store, then events.
 * Each decision is flushed as soon as it is written, so a host can stream events through one
 * process and read each answer before sending the next event. */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/json.h"
#include "cost/pricing.h"
#include "session/session.h"

static const char eval_usage[] =
    "usage: rampart eval [-c FILE]... [--policy NAME [--params JSON]] [--stateless]\n"
    "                    [--state-dir DIR] [--on-ask report|approve|decline] [EVENTS.jsonl | -]\n"
    "\n"
    "Evaluates one JSON event per line (stdin when no file or `-`) and prints one JSON\n"
    "decision per line, in order:\n"
    "  {\"result\":\"ALLOW|ASK|DENY\",\"reason\":...,\"policies\":[...],\"state_updates\":[...]}\n"
    "A malformed line prints {\"error\":\"line N: ...\"} in its place; the rest are still\n"
    "evaluated and the exit status is 1.\n"
    "\n"
    "options:\n"
    "  -c, --config FILE   load FILE (repeatable; replaces the project/user/system stack)\n"
    "  --policy NAME       evaluate this one builtin alone (may answer ABSTAIN)\n"
    "  --params JSON       its parameters (default {}), validated like YAML ones\n"
    "  --stateless         use each event's own session_state; persist nothing\n"
    "  --state-dir DIR     the state store directory (default: the config's state_dir,\n"
    "                      else $RAMPART_STATE_DIR, else $XDG_STATE_HOME/rampart)\n"
    "  --on-ask MODE       report (default): return ASK and keep its updates waiting;\n"
    "                      approve: apply them as if a person approved (replays);\n"
    "                      decline: drop them as if a person declined\n"
    "\n"
    "RAMPART_NOW (RFC 3339) fixes the clock. Exit status: 0 ok, 1 a bad event or store error,\n"
    "2 a usage, config, params or RAMPART_NOW error (before any event is read).\n";

typedef struct eval_options {
    rp_config_file *configs; /* -c files, in order */
    size_t n_configs;
    const char *policy;
    const char *params;
    bool stateless;
    const char *state_dir;
    rp_session_on_ask on_ask;
    const char *input; /* NULL or "-" = stdin */
} eval_options;

/* Trust questions during evaluation (a policy reading a project's own files): the evaluation
 * store when one is open, else the lazily opened probe. */
typedef struct eval_trust {
    rp_config_trust_probe *probe;
    rp_store *store;
} eval_trust;

static bool eval_trusted(void *self, const char *dir)
{
    eval_trust *t = self;
    return t->store ? rp_store_is_trusted(t->store, dir) : rp_config_probe_trusted(t->probe, dir);
}

static void eval_warn(void *self, const char *policy, const char *message)
{
    (void)self;
    fprintf(stderr, "rampart eval: warning: %s: %s\n", policy, message);
}

static int parse_on_ask(const char *text, rp_session_on_ask *out)
{
    if (strcmp(text, "report") == 0) {
        *out = RP_SESSION_ON_ASK_REPORT;
    } else if (strcmp(text, "approve") == 0) {
        *out = RP_SESSION_ON_ASK_APPROVE;
    } else if (strcmp(text, "decline") == 0) {
        *out = RP_SESSION_ON_ASK_DECLINE;
    } else {
        return -1;
    }
    return 0;
}

/* Returns -1 when the arguments are fine, or the exit status to return at once (help, or a usage
 * error already printed). */
static int parse_args(int argc, char **argv, eval_options *o)
{
    const rp_cli_command *cmd = &rp_cmd_eval;
    bool only_positional = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = NULL;
        int m;
        if (only_positional || arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (o->input) {
                return rp_cli_usage_error(cmd, "more than one events file: '%s' and '%s'", o->input,
                                          arg);
            }
            o->input = arg;
        } else if (strcmp(arg, "--") == 0) {
            only_positional = true;
        } else if (rp_cli_is_help(arg)) {
            rp_cli_print_usage(cmd, stdout);
            return RP_EXIT_OK;
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--config", "-c", &value)) != 0) {
            if (m < 0) {
                return rp_cli_usage_error(cmd, "%s needs a file", arg);
            }
            o->configs[o->n_configs].path = value;
            o->configs[o->n_configs].level = RP_LEVEL_EXPLICIT;
            o->n_configs++;
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--policy", NULL, &value)) != 0) {
            if (m < 0) {
                return rp_cli_usage_error(cmd, "--policy needs a policy name");
            }
            o->policy = value;
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--params", NULL, &value)) != 0) {
            if (m < 0) {
                return rp_cli_usage_error(cmd, "--params needs a JSON object");
            }
            o->params = value;
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--state-dir", NULL, &value)) != 0) {
            if (m < 0 || value[0] == '\0') {
                return rp_cli_usage_error(cmd, "--state-dir needs a directory");
            }
            o->state_dir = value;
        } else if ((m = rp_cli_flag_value(argc, argv, &i, "--on-ask", NULL, &value)) != 0) {
            if (m < 0 || parse_on_ask(value, &o->on_ask) != 0) {
                return rp_cli_usage_error(cmd, "--on-ask takes report, approve or decline");
            }
        } else if (strcmp(arg, "--stateless") == 0) {
            o->stateless = true;
        } else {
            return rp_cli_usage_error(cmd, "unknown option '%s'", arg);
        }
    }
    if (o->params && !o->policy) {
        return rp_cli_usage_error(cmd, "--params needs --policy");
    }
    if (o->policy && o->n_configs > 0) {
        return rp_cli_usage_error(cmd, "--policy and -c cannot be combined");
    }
    if (o->stateless && o->state_dir) {
        return rp_cli_usage_error(cmd, "--stateless and --state-dir cannot be combined");
    }
    return -1;
}

/* Builds the config the options ask for. Never NULL; the caller checks n_errors. */
static rp_config *load_config(const eval_options *o, rp_config_trust_probe *probe)
{
    if (o->policy) {
        return rp_config_single(o->policy, o->params);
    }
    return rp_config_load_stack(o->configs, o->n_configs, probe, true);
}

static void write_line_error(rp_buf *out, size_t line_no, const char *why)
{
    char msg[600];
    snprintf(msg, sizeof msg, "line %zu: %s", line_no, why[0] ? why : "malformed event");
    rp_buf_reset(out);
    rp_buf_puts(out, "{\"error\":");
    rp_json_write_string(out, msg, strlen(msg));
    rp_buf_putc(out, '}');
}

/* Whether the next line of `in` can be read without waiting: a regular file always, a pipe
 * or terminal when the kernel already holds more bytes. Decisions are flushed only when it
 * cannot, so a batch costs one write(2) per stdio buffer instead of one per decision, while a
 * caller that sends one event and waits for its answer (a coprocess) still gets it at once. A
 * wrong "no" only costs an early flush. */
static bool more_input_waiting(FILE *in)
{
    struct pollfd p = {.fd = fileno(in), .events = POLLIN};
    return poll(&p, 1, 0) == 1 && (p.revents & POLLIN) != 0;
}

/* Reads and evaluates every event of `in`. Returns the exit status. */
static int eval_stream(const rp_config *cfg, const rp_session_opts *opts, FILE *in,
                       const char *in_name)
{
    int status = RP_EXIT_OK;
    char *line = NULL;
    size_t cap = 0;
    size_t line_no = 0;
    rp_buf out = {0};
    ssize_t got;
    while ((got = getline(&line, &cap, in)) >= 0) {
        line_no++;
        size_t len = (size_t)got;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) {
            len--;
        }
        if (rp_cli_is_blank_line(line, len)) {
            continue;
        }
        char err[512] = "";
        rp_buf_reset(&out);
        rp_session_status st = rp_session_eval(cfg, opts, line, len, &out, err, sizeof err);
        if (st == RP_SESSION_BAD_EVENT) {
            write_line_error(&out, line_no, err);
            status = RP_EXIT_FAIL;
        } else if (st == RP_SESSION_STORE_ERROR) {
            fprintf(stderr, "rampart eval: line %zu: state store error: %s\n", line_no,
                    err[0] ? err : "unknown");
            if (out.len == 0) {
                write_line_error(&out, line_no, "state store error");
            }
            status = RP_EXIT_FAIL;
        } else if (out.len == 0) {
            /* Never an empty line in place of a decision: the host pairs lines with events. */
            write_line_error(&out, line_no, "internal error: no decision was produced");
            status = RP_EXIT_FAIL;
        }
        fwrite(out.data, 1, out.len, stdout);
        fputc('\n', stdout);
        if (!more_input_waiting(in)) {
            fflush(stdout);
        }
    }
    if (ferror(in)) {
        fprintf(stderr, "rampart eval: error reading %s after line %zu\n", in_name, line_no);
        status = RP_EXIT_FAIL;
    }
    if (ferror(stdout)) {
        fprintf(stderr, "rampart eval: error writing the decisions\n");
        status = RP_EXIT_FAIL;
    }
    free(line);
    rp_buf_free(&out);
    return status;
}

static int eval_run(int argc, char **argv)
{
    eval_options o = {0};
    o.configs = calloc((size_t)argc, sizeof *o.configs);
    if (!o.configs) {
        abort(); /* as the arenas do: no half-initialised evaluation */
    }
    int status = parse_args(argc, argv, &o);
    if (status >= 0) {
        free(o.configs);
        return status;
    }

    char clock_err[256] = "";
    if (rp_clock_check_env(clock_err, sizeof clock_err) != 0) {
        fprintf(stderr, "rampart eval: RAMPART_NOW: %s\n",
                clock_err[0] ? clock_err : "not an RFC 3339 time");
        free(o.configs);
        return RP_EXIT_USAGE;
    }

    rp_config_trust_probe probe = {.prog = "rampart eval", .dir = o.state_dir};
    rp_config *cfg = load_config(&o, &probe);
    rp_config_print_diags(cfg, stderr);
    rp_store *store = NULL;
    bool store_failed = false;
    FILE *in = NULL;
    if (cfg->n_errors > 0) {
        fprintf(stderr, "rampart eval: %zu configuration error%s; nothing evaluated\n",
                cfg->n_errors, cfg->n_errors == 1 ? "" : "s");
        status = RP_EXIT_USAGE;
        goto done;
    }

    if (!o.stateless) {
        const char *dir = o.state_dir ? o.state_dir : cfg->state_dir;
        bool same_as_probe = probe.store && (o.state_dir || !cfg->state_dir);
        if (same_as_probe) {
            store = probe.store;
            probe.store = NULL;
        } else if (!(store = rp_cli_open_store(dir))) {
            /* Still answer every event, fail-closed: a host reading no decision (or only an
             * exit status) might let the call through. */
            store_failed = true;
        }
    }

    const char *in_name = o.input && strcmp(o.input, "-") != 0 ? o.input : "<stdin>";
    if (o.input && strcmp(o.input, "-") != 0) {
        in = fopen(o.input, "r");
        if (!in) {
            fprintf(stderr, "rampart eval: cannot open %s: %s\n", o.input, strerror(errno));
            status = RP_EXIT_USAGE;
            goto done;
        }
    }

    rp_session_opts opts = {
        .store = store,
        .on_ask = o.on_ask,
        .fs = NULL,
        .single_policy = o.policy != NULL,
        .audit = store != NULL,
        .store_unavailable = store_failed ? "it cannot be opened" : NULL,
    };
    /* Read once for the whole stream: the policies' ledger needs, and the price table (built
     * at the first usage an llm_response reports). */
    rp_session_needs needs;
    rp_session_needs_of(cfg, &needs);
    rp_cost_pricing_once prices = {.config_pricing = cfg->pricing};
    opts.needs = &needs;
    opts.pricing = &prices;
    eval_trust trust = {.probe = &probe, .store = store};
    opts.is_trusted = eval_trusted;
    opts.trust_self = &trust;
    opts.warn = eval_warn;
    status = eval_stream(cfg, &opts, in ? in : stdin, in_name);
    rp_cost_pricing_once_free(&prices);
    if (store_failed)
        status = RP_EXIT_FAIL;
    /* Retention runs after the answers are out, so it never delays a decision; 0 keeps all. */
    if (store && cfg->audit_retention_days > 0) {
        int64_t cutoff = rp_now_us() - cfg->audit_retention_days * 86400LL * 1000000LL;
        if (rp_store_audit_prune(store, cutoff) != 0)
            fprintf(stderr, "rampart eval: audit retention: %s\n", rp_store_error(store));
    }

done:
    if (in) {
        fclose(in);
    }
    if (store) {
        rp_store_close(store);
    }
    if (probe.store) {
        rp_store_close(probe.store);
    }
    rp_config_free(cfg);
    free(o.configs);
    return status;
}

const rp_cli_command rp_cmd_eval = {
    .name = "eval",
    .summary = "evaluate JSON events (one per line) and print one decision per line",
    .usage = eval_usage,
    .run = eval_run,
};
