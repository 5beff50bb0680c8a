/* spend_render.h — `rampart spend`: the report gathered from the ledger, and its two renderings
 * (a terminal table with a per-day bar chart, and one JSON object).
 *
 * Gathering (spend_report.c) is the only part that touches the store; rendering
 * (spend_render.c) is pure text formatting, so tests can check every character of it. Money stays
 * in integer nano-dollars until it is printed. */
#ifndef RAMPART_CLI_SPEND_RENDER_H
#define RAMPART_CLI_SPEND_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/buf.h"
#include "store/store.h"

/* The chart shows at most this many days (the last ones of the range) so it fits a screen. */
#define RP_SPEND_CHART_MAX_DAYS 31
/* Bar cells of the longest bar: date (10) + 2 + 40 + 2 + the amount stays within 80 columns
 * even for "$1,234.56 + 12 unpriced". */
#define RP_SPEND_BAR_CELLS 40

/* One group of the table, or one day of the series. key NULL = the group has no key (usage
 * recorded without a model, or without a user). */
typedef struct rp_cli_spend_line {
    const char *key;
    rp_usage_totals totals;
} rp_cli_spend_line;

typedef struct rp_cli_spend_report {
    const char *user_id;    /* the --user filter, NULL = every user */
    const char *session_id; /* the --session filter (with its sub-agents), NULL = every session */
    const char *period;     /* "day".."year" (--period), NULL = all time */
    /* The range: the period's window (first day .. today), or for all time the first and last
     * day with usage; both NULL for all time without usage. */
    const char *first_day, *last_day;
    rp_spend_group group;    /* never RP_SPEND_BY_NONE */
    rp_cli_spend_line *rows; /* the table: by cost, highest first (by day: oldest first) */
    size_t n_rows;
    rp_usage_totals total;
    rp_cli_spend_line *days; /* every day with usage in the range, oldest first (key = the day) */
    size_t n_days;
} rp_cli_spend_report;

/* "model" | "user" | "day" | "session" → the group; 0, or -1 when unknown. */
int rp_cli_spend_group_parse(const char *s, rp_spend_group *out);
const char *rp_cli_spend_group_name(rp_spend_group g);

/* Fills r from the store: the rows of q (q->group), the per-day series with q's filters, the
 * total. r's filter fields (user_id, session_id, period, first_day, last_day) are taken from q
 * and `period`; for all time the range becomes the days with usage. Everything lives in a.
 * Returns 0, or -1 with rp_store_error(s) set. */
int rp_cli_spend_collect(rp_store *s, const rp_spend_query *q, const char *period, rp_arena *a,
                         rp_cli_spend_report *r);

/* "1,234,567". */
void rp_cli_spend_format_count(int64_t n, char *buf, size_t size);
/* "$12.34" rounded to the cent, "$1,234.56", "$0.00" for nothing and "<$0.01" for less than half
 * a cent that is still more than nothing (so a tiny spend never reads as none). */
void rp_cli_spend_format_usd(int64_t nusd, char *buf, size_t size);
/* A bar of value/max × cells cells: Unicode full blocks and an eighth-block remainder
 * (▏▎▍▌▋▊▉), or '#' per whole cell in ASCII; any value > 0 shows at least the smallest mark.
 * Pads with spaces to `cells` columns. */
void rp_cli_spend_put_bar(rp_buf *b, int64_t value, int64_t max, int cells, bool unicode);
/* Whether the terminal takes UTF-8: the first of LC_ALL, LC_CTYPE, LANG that is set and not
 * empty names UTF-8 ("UTF-8", "utf8", any case). */
bool rp_cli_spend_locale_utf8(const char *lc_all, const char *lc_ctype, const char *lang);

/* The terminal report: a heading, the table with a total row, the per-day chart; or, when
 * nothing was recorded, one "no usage recorded for …" line. */
void rp_cli_spend_render_text(rp_buf *out, const rp_cli_spend_report *r, bool unicode);
/* {"query":{...},"rows":[...],"total":{...},"days":[...]} and a newline; costs as USD numbers
 * (cost_usd) and as integer nano-dollars (cost_nusd). Scratch memory from a. */
void rp_cli_spend_render_json(rp_buf *out, const rp_cli_spend_report *r, rp_arena *a);

#endif
