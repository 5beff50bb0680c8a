/* spend_render.c — `rampart spend`'s output: the terminal table and per-day bar chart, and the
 * JSON object. Pure formatting of an rp_cli_spend_report; no store, no clock, no environment. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/spend_render.h"
#include "core/clock.h"
#include "core/json.h"
#include "core/utf8.h"
#include "cost/period.h"

#define DAY_US        (86400LL * 1000000LL)
#define NUSD_PER_CENT (RP_NUSD_PER_USD / 100)

/* ---- numbers ---- */

void rp_cli_spend_format_count(int64_t n, char *buf, size_t size)
{
    char digits[32];
    /* Through unsigned so INT64_MIN has a magnitude too. */
    uint64_t mag = n < 0 ? (uint64_t)0 - (uint64_t)n : (uint64_t)n;
    int len = snprintf(digits, sizeof digits, "%" PRIu64, mag);
    char out[48];
    size_t o = 0;
    if (n < 0) {
        out[o++] = '-';
    }
    for (int i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0) {
            out[o++] = ',';
        }
        out[o++] = digits[i];
    }
    out[o] = '\0';
    snprintf(buf, size, "%s", out);
}

void rp_cli_spend_format_usd(int64_t nusd, char *buf, size_t size)
{
    const char *sign = nusd < 0 ? "-" : "";
    uint64_t mag = nusd < 0 ? (uint64_t)0 - (uint64_t)nusd : (uint64_t)nusd;
    /* Round half up to the cent in integers: the ledger is exact, so is its display. */
    uint64_t cents = (mag + NUSD_PER_CENT / 2) / NUSD_PER_CENT;
    if (cents == 0 && mag > 0) {
        snprintf(buf, size, "%s<$0.01", sign);
        return;
    }
    char dollars[48];
    rp_cli_spend_format_count((int64_t)(cents / 100), dollars, sizeof dollars);
    /* The result is checked only so that gcc -O2 sees the truncation is handled: a caller's
     * buffer that is too small gets a cut-off figure, never an overflow. */
    if (snprintf(buf, size, "%s$%s.%02u", sign, dollars, (unsigned)(cents % 100)) < 0 && size)
        buf[0] = '\0';
}

/* ---- text helpers ---- */

/* Display columns of UTF-8 text: one per code point (continuation bytes do not count). Good
 * enough for ids and model names; wide CJK characters would take two. */
static size_t text_columns(const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        n += !rp_utf8_is_cont(*p);
    }
    return n;
}

/* Appends s with control characters as spaces (an id may hold anything; the table must stay
 * one line per row), padded to `width` columns on the left (right-aligned) or right. */
static void put_cell(rp_buf *b, const char *s, size_t width, bool right)
{
    size_t cols = text_columns(s);
    for (size_t i = cols; right && i < width; i++) {
        rp_buf_putc(b, ' ');
    }
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        rp_buf_putc(b, *p < 0x20 || *p == 0x7f ? ' ' : (char)*p);
    }
    for (size_t i = cols; !right && i < width; i++) {
        rp_buf_putc(b, ' ');
    }
}

static void trim_trailing_spaces(rp_buf *b)
{
    while (b->len > 0 && b->data[b->len - 1] == ' ') {
        b->data[--b->len] = '\0';
    }
}

static const char *const eighths[8] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};

void rp_cli_spend_put_bar(rp_buf *b, int64_t value, int64_t max, int cells, bool unicode)
{
    int used = 0;
    if (value > 0 && max > 0 && cells > 0) {
        /* In double: value × cells × 8 overflows int64 beyond a few million dollars, and a bar
         * needs no more precision than an eighth of a cell. */
        double frac = (double)value / (double)max;
        if (frac > 1) {
            frac = 1;
        }
        if (unicode) {
            long units = (long)(frac * cells * 8 + 0.5);
            if (units < 1) {
                units = 1;
            }
            for (long i = 0; i < units / 8; i++) {
                rp_buf_puts(b, "█");
            }
            rp_buf_puts(b, eighths[units % 8]);
            used = (int)((units + 7) / 8);
        } else {
            long units = (long)(frac * cells + 0.5);
            if (units < 1) {
                units = 1;
            }
            for (long i = 0; i < units; i++) {
                rp_buf_putc(b, '#');
            }
            used = (int)units;
        }
    }
    for (int i = used; i < cells; i++) {
        rp_buf_putc(b, ' ');
    }
}

static bool names_utf8(const char *v)
{
    /* "en_US.UTF-8", "C.utf8", "de_DE.utf-8@euro": look for utf8 ignoring case and dashes. */
    char squeezed[128];
    size_t n = 0;
    for (const char *p = v; *p && n + 1 < sizeof squeezed; p++) {
        if (*p != '-' && *p != '_') {
            squeezed[n++] = (char)tolower((unsigned char)*p);
        }
    }
    squeezed[n] = '\0';
    return strstr(squeezed, "utf8") != NULL;
}

bool rp_cli_spend_locale_utf8(const char *lc_all, const char *lc_ctype, const char *lang)
{
    /* POSIX precedence: the first one set wins, even when it says something else. */
    const char *vars[] = {lc_all, lc_ctype, lang};
    for (size_t i = 0; i < 3; i++) {
        if (vars[i] && vars[i][0]) {
            return names_utf8(vars[i]);
        }
    }
    return false;
}

/* ---- the text report ---- */

/* "user alice", "session s1 and its sub-agents", both, or `none`. */
static void put_scope(rp_buf *b, const rp_cli_spend_report *r, const char *none)
{
    if (r->user_id) {
        rp_buf_puts(b, "user ");
        put_cell(b, r->user_id, 0, false);
    }
    if (r->session_id) {
        rp_buf_puts(b, r->user_id ? " in session " : "session ");
        put_cell(b, r->session_id, 0, false);
        rp_buf_puts(b, " and its sub-agents");
    }
    if (!r->user_id && !r->session_id) {
        rp_buf_puts(b, none);
    }
}

/* " this month (2026-03-01 .. 2026-03-15 UTC)", " all time (… UTC)", or nothing. */
static void put_range(rp_buf *b, const rp_cli_spend_report *r, const char *all_time_sep)
{
    rp_cost_period p;
    if (r->period && rp_cost_period_parse(r->period, &p) == 0) {
        rp_buf_printf(b, " %s", rp_cost_period_phrase(p));
    } else if (r->first_day) {
        rp_buf_printf(b, "%sall time", all_time_sep);
    }
    if (r->first_day && r->last_day) {
        rp_buf_printf(b, " (%s .. %s UTC)", r->first_day, r->last_day);
    }
}

static const char *line_label(const rp_cli_spend_report *r, const rp_cli_spend_line *l)
{
    if (l->key) {
        return l->key;
    }
    return r->group == RP_SPEND_BY_USER     ? "(no user)"
           : r->group == RP_SPEND_BY_SOURCE ? "(not recorded)"
                                            : "(unknown model)";
}

enum {
    COL_KEY,
    COL_RECORDS,
    COL_INPUT,
    COL_OUTPUT,
    COL_CACHE_READ,
    COL_CACHE_WRITE,
    COL_COST,
    NCOL
};

/* One table row as cell texts; the cost cell is the amount, the unpriced note comes after. */
typedef struct table_row {
    char cell[NCOL][48];
    const char *key;
    int64_t unpriced;
} table_row;

static void fill_row(table_row *row, const char *key, const rp_usage_totals *t)
{
    row->key = key;
    row->cell[COL_KEY][0] = '\0';
    rp_cli_spend_format_count(t->records, row->cell[COL_RECORDS], sizeof row->cell[0]);
    rp_cli_spend_format_count(t->input_tokens, row->cell[COL_INPUT], sizeof row->cell[0]);
    rp_cli_spend_format_count(t->output_tokens, row->cell[COL_OUTPUT], sizeof row->cell[0]);
    rp_cli_spend_format_count(t->cache_read_input_tokens, row->cell[COL_CACHE_READ],
                              sizeof row->cell[0]);
    rp_cli_spend_format_count(t->cache_creation_input_tokens, row->cell[COL_CACHE_WRITE],
                              sizeof row->cell[0]);
    rp_cli_spend_format_usd(t->cost_nusd, row->cell[COL_COST], sizeof row->cell[0]);
    row->unpriced = t->unpriced_records;
}

static void put_unpriced(rp_buf *b, int64_t unpriced)
{
    if (unpriced > 0) {
        char n[32];
        rp_cli_spend_format_count(unpriced, n, sizeof n);
        rp_buf_printf(b, " + %s unpriced", n);
    }
}

static void put_table_row(rp_buf *b, const table_row *row, const size_t width[NCOL])
{
    put_cell(b, row->key, width[COL_KEY], false);
    for (int c = COL_RECORDS; c < NCOL; c++) {
        rp_buf_puts(b, "  ");
        put_cell(b, row->cell[c], width[c], true);
    }
    put_unpriced(b, row->unpriced);
    trim_trailing_spaces(b);
    rp_buf_putc(b, '\n');
}

static void put_table(rp_buf *b, const rp_cli_spend_report *r, rp_arena *scratch)
{
    static const char *const headers[NCOL] = {
        NULL, "records", "input", "output", "cache read", "cache write", "cost",
    };
    size_t n = r->n_rows + 1;
    table_row *rows = rp_arena_alloc(scratch, n * sizeof *rows);
    for (size_t i = 0; i < r->n_rows; i++) {
        fill_row(&rows[i], line_label(r, &r->rows[i]), &r->rows[i].totals);
    }
    fill_row(&rows[n - 1], "total", &r->total);

    size_t width[NCOL];
    width[COL_KEY] = strlen(rp_cli_spend_group_name(r->group));
    for (int c = COL_RECORDS; c < NCOL; c++) {
        width[c] = strlen(headers[c]);
    }
    for (size_t i = 0; i < n; i++) {
        size_t k = text_columns(rows[i].key);
        width[COL_KEY] = k > width[COL_KEY] ? k : width[COL_KEY];
        for (int c = COL_RECORDS; c < NCOL; c++) {
            size_t w = strlen(rows[i].cell[c]);
            width[c] = w > width[c] ? w : width[c];
        }
    }

    put_cell(b, rp_cli_spend_group_name(r->group), width[COL_KEY], false);
    for (int c = COL_RECORDS; c < NCOL; c++) {
        rp_buf_puts(b, "  ");
        put_cell(b, headers[c], width[c], true);
    }
    rp_buf_putc(b, '\n');
    for (size_t i = 0; i < n; i++) {
        put_table_row(b, &rows[i], width);
    }
}

static int day_us(const char *day, int64_t *us)
{
    char text[32];
    if (!day || strlen(day) != 10) {
        return -1;
    }
    snprintf(text, sizeof text, "%sT00:00:00Z", day);
    return rp_rfc3339_parse(text, us);
}

/* The last RP_SPEND_CHART_MAX_DAYS days of the range, one line each, empty days included. */
static void put_chart(rp_buf *b, const rp_cli_spend_report *r, bool unicode)
{
    int64_t first_us, last_us;
    if (day_us(r->first_day, &first_us) != 0 || day_us(r->last_day, &last_us) != 0 ||
        last_us < first_us) {
        return; /* a range the store should never produce: no chart rather than a wrong one */
    }
    int64_t range_days = (last_us - first_us) / DAY_US + 1;
    int64_t shown = range_days < RP_SPEND_CHART_MAX_DAYS ? range_days : RP_SPEND_CHART_MAX_DAYS;
    int64_t start_us = last_us - (shown - 1) * DAY_US;
    char start_day[RP_COST_DAY_KEY_SIZE];
    rp_cost_utc_day(start_us, start_day);

    /* The days of the series inside the chart: a suffix of r->days (they are oldest first). */
    size_t from = 0;
    while (from < r->n_days && strcmp(r->days[from].key, start_day) < 0) {
        from++;
    }
    int64_t max = 0;
    size_t amount_width = 0;
    for (size_t i = from; i < r->n_days; i++) {
        char amount[48];
        rp_cli_spend_format_usd(r->days[i].totals.cost_nusd, amount, sizeof amount);
        max = r->days[i].totals.cost_nusd > max ? r->days[i].totals.cost_nusd : max;
        amount_width = strlen(amount) > amount_width ? strlen(amount) : amount_width;
    }

    char amount[48];
    rp_cli_spend_format_usd(max, amount, sizeof amount);
    if (max > 0) {
        rp_buf_printf(b, "spend per day (UTC; the longest bar is %s)\n", amount);
    } else {
        rp_buf_puts(b, "spend per day (UTC; nothing priced)\n");
    }
    size_t j = from;
    for (int64_t d = 0; d < shown; d++) {
        char day[RP_COST_DAY_KEY_SIZE];
        rp_cost_utc_day(start_us + d * DAY_US, day);
        rp_buf_puts(b, day);
        if (j < r->n_days && strcmp(r->days[j].key, day) == 0) {
            const rp_usage_totals *t = &r->days[j].totals;
            rp_buf_puts(b, "  ");
            rp_cli_spend_put_bar(b, t->cost_nusd, max, RP_SPEND_BAR_CELLS, unicode);
            rp_buf_puts(b, "  ");
            rp_cli_spend_format_usd(t->cost_nusd, amount, sizeof amount);
            put_cell(b, amount, amount_width, true);
            put_unpriced(b, t->unpriced_records);
            j++;
        }
        rp_buf_putc(b, '\n');
    }
    if (range_days > shown) {
        char total[32];
        rp_cli_spend_format_count(range_days, total, sizeof total);
        rp_buf_printf(b, "(the last %lld of %s days; rampart spend --json lists every day)\n",
                      (long long)shown, total);
    }
}

void rp_cli_spend_render_text(rp_buf *out, const rp_cli_spend_report *r, bool unicode)
{
    if (r->total.records == 0) {
        rp_buf_puts(out, "no usage recorded for ");
        put_scope(out, r, "any session");
        put_range(out, r, " ");
        rp_buf_putc(out, '\n');
        return;
    }
    rp_buf_puts(out, "spend of ");
    put_scope(out, r, "every session");
    put_range(out, r, ", ");
    rp_buf_printf(out, ", by %s\n\n", rp_cli_spend_group_name(r->group));
    rp_arena scratch = {0};
    put_table(out, r, &scratch);
    rp_arena_free(&scratch);
    rp_buf_putc(out, '\n');
    put_chart(out, r, unicode);
}

/* ---- JSON ---- */

static rp_json str_or_null(const char *s)
{
    return s ? rp_json_make_string_ref(s) : rp_json_make_null();
}

static void set_totals(rp_arena *a, rp_json *o, const rp_usage_totals *t)
{
    rp_json_object_set(a, o, "records", rp_json_make_int(t->records));
    rp_json_object_set(a, o, "input_tokens", rp_json_make_int(t->input_tokens));
    rp_json_object_set(a, o, "output_tokens", rp_json_make_int(t->output_tokens));
    rp_json_object_set(a, o, "cache_read_input_tokens",
                       rp_json_make_int(t->cache_read_input_tokens));
    rp_json_object_set(a, o, "cache_creation_input_tokens",
                       rp_json_make_int(t->cache_creation_input_tokens));
    rp_json_object_set(a, o, "cost_usd",
                       rp_json_make_double((double)t->cost_nusd / (double)RP_NUSD_PER_USD));
    rp_json_object_set(a, o, "cost_nusd", rp_json_make_int(t->cost_nusd));
    rp_json_object_set(a, o, "priced_records", rp_json_make_int(t->priced_records));
    rp_json_object_set(a, o, "unpriced_records", rp_json_make_int(t->unpriced_records));
    rp_json_object_set(a, o, "unpriced_tokens", rp_json_make_int(t->unpriced_tokens));
}

static rp_json lines_array(rp_arena *a, const rp_cli_spend_line *lines, size_t n, const char *key)
{
    rp_json arr = rp_json_make_array();
    for (size_t i = 0; i < n; i++) {
        rp_json o = rp_json_make_object();
        rp_json_object_set(a, &o, key, str_or_null(lines[i].key));
        set_totals(a, &o, &lines[i].totals);
        rp_json_array_push(a, &arr, o);
    }
    return arr;
}

void rp_cli_spend_render_json(rp_buf *out, const rp_cli_spend_report *r, rp_arena *a)
{
    rp_json query = rp_json_make_object();
    rp_json_object_set(a, &query, "user", str_or_null(r->user_id));
    rp_json_object_set(a, &query, "session", str_or_null(r->session_id));
    rp_json_object_set(a, &query, "period", str_or_null(r->period));
    rp_json_object_set(a, &query, "first_day", str_or_null(r->first_day));
    rp_json_object_set(a, &query, "last_day", str_or_null(r->last_day));
    rp_json_object_set(a, &query, "by", rp_json_make_string_ref(rp_cli_spend_group_name(r->group)));

    rp_json total = rp_json_make_object();
    set_totals(a, &total, &r->total);

    rp_json doc = rp_json_make_object();
    rp_json_object_set(a, &doc, "query", query);
    rp_json_object_set(a, &doc, "rows", lines_array(a, r->rows, r->n_rows, "key"));
    rp_json_object_set(a, &doc, "total", total);
    rp_json_object_set(a, &doc, "days", lines_array(a, r->days, r->n_days, "day"));
    rp_json_write(out, &doc);
    rp_buf_putc(out, '\n');
}
