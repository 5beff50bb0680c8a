/* cmd_pricing.c — `rampart pricing`: the price table the cost policies use, with its dates, so a
 * user sees how old the shipped prices are and which ones the configuration overrides; with
 * MODEL arguments, how each id resolves (the same lookup the ledger uses when it prices usage).
 *
 * The table is the shipped data/pricing.json plus the `pricing:` block of the configuration:
 * the -c files, else the default stack (user and system; a project file may not set pricing). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/json.h"
#include "cost/pricing.h"

static const char pricing_usage[] =
    "usage: rampart pricing [-c FILE]... [--json] [MODEL...]\n"
    "\n"
    "Prints the model prices the cost policies use, in USD per 1M tokens: input, output, cache\n"
    "read and cache write, the date each price was recorded and the public price list it\n"
    "comes from. The header says when the shipped table was last updated and how many days\n"
    "ago that was. Rows marked * come from the configuration's `pricing:` block (they\n"
    "replace a shipped price or add a model).\n"
    "\n"
    "With MODEL arguments, prints how each model id resolves, e.g.\n"
    "  claude-opus-4-5-20251101 → claude-opus-4-5: $5.00 in / $25.00 out / ...\n"
    "or `unpriced` when no entry matches under any spelling (usage of an unpriced model makes\n"
    "the cost policies ask). Ids are matched lower-cased, exactly first, then without a\n"
    "provider prefix (anthropic/, openai/, databricks-, us.anthropic. ...), a dated suffix\n"
    "(-20251101, @20251101, -2025-08-07), -latest, -v1:0 or [1m], with dots and dashes in\n"
    "version numbers alike; never by prefix.\n"
    "\n"
    "options:\n"
    "  -c, --config FILE   read `pricing:` from FILE (repeatable; replaces the user/system\n"
    "                      stack)\n"
    "  --json              one JSON object instead of the table\n"
    "\n"
    "RAMPART_NOW (RFC 3339) fixes the clock used for the age. Exit status: 0 ok, 1 a MODEL is\n"
    "unpriced, 2 a usage or config error.\n";

typedef struct pricing_options {
    rp_config_file *configs;
    size_t n_configs;
    bool json;
    char **models;
    size_t n_models;
} pricing_options;

static int parse_args(int argc, char **argv, pricing_options *o)
{
    const rp_cli_command *cmd = &rp_cmd_pricing;
    bool dashdash = false;
    for (int i = 1; i < argc; i++) {
        const char *v;
        int r;
        if (!dashdash && strcmp(argv[i], "--") == 0) {
            dashdash = true;
        } else if (dashdash || argv[i][0] != '-' || argv[i][1] == '\0') {
            o->models[o->n_models++] = argv[i];
        } else if (rp_cli_is_help(argv[i])) {
            rp_cli_print_usage(cmd, stdout);
            return -2;
        } else if (strcmp(argv[i], "--json") == 0) {
            o->json = true;
        } else if ((r = rp_cli_flag_value(argc, argv, &i, "--config", "-c", &v)) != 0) {
            if (r < 0)
                return rp_cli_usage_error(cmd, "%s needs a file", argv[i]);
            o->configs[o->n_configs].path = v;
            o->configs[o->n_configs++].level = RP_LEVEL_EXPLICIT;
        } else {
            return rp_cli_usage_error(cmd, "unknown option '%s'", argv[i]);
        }
    }
    return 0;
}

/* The configuration whose `pricing:` applies. Never NULL; the caller checks n_errors. */
static rp_config *load_config(const pricing_options *o)
{
    if (o->n_configs > 0)
        return rp_config_load(o->configs, o->n_configs);
    /* Only the user and system levels may set pricing, so no trust check is needed. */
    rp_config_file files[4];
    char paths[4 * PATH_MAX];
    rp_diag warning = {0};
    size_t n = rp_config_default_stack(files, 4, paths, sizeof paths, NULL, NULL, &warning);
    return rp_config_load(files, n);
}

/* A price in USD with at least two decimals and as many more as it needs: 5.00, 0.075, 0.0375. */
static const char *money(char *buf, size_t size, double usd)
{
    snprintf(buf, size, "%.6f", usd);
    char *dot = strchr(buf, '.');
    if (dot) {
        char *end = buf + strlen(buf) - 1;
        while (end > dot + 2 && *end == '0')
            *end-- = '\0';
    }
    return buf;
}

/* Days between the shipped table's date and now, or INT64_MIN when the date is unreadable. */
static int64_t age_days(const rp_cost_pricing *p)
{
    int64_t day;
    if (rp_cost_pricing_date_days(rp_cost_pricing_updated(p), &day) != 0)
        return INT64_MIN;
    int64_t now = rp_now_us() / 1000000;
    int64_t today = now >= 0 ? now / 86400 : -((-now + 86399) / 86400);
    return today - day;
}

static void print_header(const rp_cost_pricing *p)
{
    int64_t age = age_days(p);
    const char *updated = rp_cost_pricing_updated(p);
    if (age == INT64_MIN)
        printf("# shipped prices: update date unknown\n");
    else if (age < 0)
        printf("# shipped prices updated %s (%lld days from now: check the clock)\n", updated,
               (long long)-age);
    else
        printf("# shipped prices updated %s (%lld day%s ago); USD per 1M tokens\n", updated,
               (long long)age, age == 1 ? "" : "s");
}

static void print_table(const rp_cost_pricing *p)
{
    size_t n;
    const rp_cost_price *e = rp_cost_pricing_entries(p, &n);
    size_t w = strlen("MODEL");
    bool any_config = false;
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(e[i].model) + (e[i].from_config ? 2 : 0);
        w = l > w ? l : w;
        any_config = any_config || e[i].from_config;
    }
    print_header(p);
    printf("%-*s  %9s  %9s  %10s  %11s  %-10s  %s\n", (int)w, "MODEL", "INPUT", "OUTPUT",
           "CACHE READ", "CACHE WRITE", "RECORDED", "SOURCE");
    for (size_t i = 0; i < n; i++) {
        char name[300], a[32], b[32], c[32], d[32];
        snprintf(name, sizeof name, "%s%s", e[i].model, e[i].from_config ? " *" : "");
        printf("%-*s  %9s  %9s  %10s  %11s  %-10s  %s\n", (int)w, name,
               money(a, sizeof a, e[i].input), money(b, sizeof b, e[i].output),
               money(c, sizeof c, e[i].cache_read), money(d, sizeof d, e[i].cache_write),
               e[i].recorded ? e[i].recorded : "-", e[i].source ? e[i].source : "-");
    }
    if (any_config)
        printf("# * set by the configuration (replaces a shipped price or adds a model)\n");
}

static void json_price(rp_buf *out, const rp_cost_price *e)
{
    rp_buf_puts(out, "{\"model\":");
    rp_json_write_string(out, e->model, strlen(e->model));
    const char *names[4] = {"input", "output", "cache_read", "cache_write"};
    const double values[4] = {e->input, e->output, e->cache_read, e->cache_write};
    for (int i = 0; i < 4; i++) {
        rp_json d = rp_json_make_double(values[i]); /* shortest text that reads back, "5.0" */
        rp_buf_printf(out, ",\"%s\":", names[i]);
        rp_json_write(out, &d);
    }
    rp_buf_puts(out, ",\"recorded\":");
    if (e->recorded)
        rp_json_write_string(out, e->recorded, strlen(e->recorded));
    else
        rp_buf_puts(out, "null");
    rp_buf_puts(out, ",\"source\":");
    rp_json_write_string(out, e->source ? e->source : "", e->source ? strlen(e->source) : 0);
    if (e->note) {
        rp_buf_puts(out, ",\"note\":");
        rp_json_write_string(out, e->note, strlen(e->note));
    }
    if (e->aliases) {
        rp_buf_puts(out, ",\"aliases\":");
        rp_json_write(out, e->aliases);
    }
    rp_buf_printf(out, ",\"from_config\":%s}", e->from_config ? "true" : "false");
}

static void json_head(rp_buf *out, const rp_cost_pricing *p)
{
    const char *updated = rp_cost_pricing_updated(p);
    int64_t age = age_days(p);
    rp_buf_puts(out, "{\"updated\":");
    rp_json_write_string(out, updated ? updated : "", updated ? strlen(updated) : 0);
    if (age == INT64_MIN)
        rp_buf_puts(out, ",\"age_days\":null");
    else
        rp_buf_printf(out, ",\"age_days\":%lld", (long long)age);
    const char *note = rp_cost_pricing_note(p);
    if (note) {
        rp_buf_puts(out, ",\"note\":");
        rp_json_write_string(out, note, strlen(note));
    }
}

static void json_table(rp_buf *out, const rp_cost_pricing *p)
{
    size_t n;
    const rp_cost_price *e = rp_cost_pricing_entries(p, &n);
    json_head(out, p);
    rp_buf_puts(out, ",\"models\":[");
    for (size_t i = 0; i < n; i++) {
        if (i)
            rp_buf_putc(out, ',');
        json_price(out, &e[i]);
    }
    rp_buf_puts(out, "]}\n");
}

/* Resolves every MODEL; returns how many are unpriced. */
static size_t resolve_models(const rp_cost_pricing *p, const pricing_options *o, rp_buf *out)
{
    size_t unpriced = 0;
    if (o->json) {
        json_head(out, p);
        rp_buf_puts(out, ",\"lookups\":[");
    }
    for (size_t i = 0; i < o->n_models; i++) {
        const char *id = o->models[i];
        const rp_cost_price *e = rp_cost_pricing_find(p, id);
        unpriced += e == NULL;
        if (o->json) {
            rp_buf_puts(out, i ? ",{\"id\":" : "{\"id\":");
            rp_json_write_string(out, id, strlen(id));
            rp_buf_puts(out, ",\"price\":");
            if (e)
                json_price(out, e);
            else
                rp_buf_puts(out, "null");
            rp_buf_putc(out, '}');
            continue;
        }
        if (!e) {
            rp_buf_printf(out, "%s → unpriced\n", id);
            continue;
        }
        char a[32], b[32], c[32], d[32];
        rp_buf_printf(out,
                      "%s → %s: $%s in / $%s out / $%s cache read / $%s cache write per 1M "
                      "tokens (%s%s)\n",
                      id, e->model, money(a, sizeof a, e->input), money(b, sizeof b, e->output),
                      money(c, sizeof c, e->cache_read), money(d, sizeof d, e->cache_write),
                      e->recorded ? "recorded " : "", e->recorded ? e->recorded : e->source);
    }
    if (o->json)
        rp_buf_puts(out, "]}\n");
    return unpriced;
}

static int pricing_main(const pricing_options *o)
{
    rp_config *cfg = load_config(o);
    if (cfg->n_errors > 0) {
        rp_config_print_diags(cfg, stderr);
        rp_config_free(cfg);
        return RP_EXIT_USAGE;
    }
    rp_arena a;
    rp_arena_init(&a, 64 * 1024);
    char err[512] = "";
    rp_cost_pricing *p = rp_cost_pricing_build(&a, cfg->pricing, err, sizeof err);
    int status = RP_EXIT_OK;
    if (!p) {
        fprintf(stderr, "rampart pricing: %s\n", err);
        status = RP_EXIT_FAIL;
    } else if (o->n_models > 0) {
        rp_buf out = {0};
        if (resolve_models(p, o, &out) > 0)
            status = RP_EXIT_FAIL;
        fwrite(out.data ? out.data : "", 1, out.len, stdout);
        rp_buf_free(&out);
    } else if (o->json) {
        rp_buf out = {0};
        json_table(&out, p);
        fwrite(out.data, 1, out.len, stdout);
        rp_buf_free(&out);
    } else {
        print_table(p);
    }
    rp_arena_free(&a);
    rp_config_free(cfg);
    return status;
}

static int pricing_run(int argc, char **argv)
{
    char clock_err[256];
    pricing_options o = {0};
    o.configs = calloc((size_t)argc + 1, sizeof *o.configs);
    o.models = calloc((size_t)argc + 1, sizeof *o.models);
    if (!o.configs || !o.models)
        abort();
    int status = parse_args(argc, argv, &o);
    if (status == -2) {
        status = RP_EXIT_OK;
    } else if (status == 0 && rp_clock_check_env(clock_err, sizeof clock_err) != 0) {
        fprintf(stderr, "rampart pricing: %s\n", clock_err);
        status = RP_EXIT_USAGE;
    } else if (status == 0) {
        status = pricing_main(&o);
    }
    free(o.configs);
    free(o.models);
    return status;
}

const rp_cli_command rp_cmd_pricing = {
    .name = "pricing",
    .summary = "show the model prices the cost policies use, and how old they are",
    .usage = pricing_usage,
    .run = pricing_run,
};
