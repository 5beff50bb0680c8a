/* spend_report.c — gathers `rampart spend`'s report from the ledger: the grouped rows, the
 * per-day series and the total. The only part of the command that reads the store. */
#include <stdlib.h>
#include <string.h>

#include "cli/spend_render.h"

static const char *const group_names[] = {
    [RP_SPEND_BY_MODEL] = "model",     [RP_SPEND_BY_USER] = "user",     [RP_SPEND_BY_DAY] = "day",
    [RP_SPEND_BY_SESSION] = "session", [RP_SPEND_BY_SOURCE] = "source",
};

int rp_cli_spend_group_parse(const char *s, rp_spend_group *out)
{
    for (int g = RP_SPEND_BY_MODEL; g <= RP_SPEND_BY_SOURCE; g++) {
        if (s && strcmp(s, group_names[g]) == 0) {
            *out = (rp_spend_group)g;
            return 0;
        }
    }
    return -1;
}

const char *rp_cli_spend_group_name(rp_spend_group g)
{
    return g >= RP_SPEND_BY_MODEL && g <= RP_SPEND_BY_SOURCE ? group_names[g] : "none";
}

/* The store's callback strings live only during the call: each row is copied into the arena,
 * growing the array by doubling. */
typedef struct line_sink {
    rp_arena *a;
    rp_cli_spend_line *lines;
    size_t n, cap;
} line_sink;

static int sink_line(void *self, const rp_spend_row *row)
{
    line_sink *k = self;
    if (k->n == k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 16;
        k->lines =
            rp_arena_realloc(k->a, k->lines, k->cap * sizeof *k->lines, cap * sizeof *k->lines);
        k->cap = cap;
    }
    /* The store says "" for a group without a key (no model, no user); the report says NULL so
     * renderers cannot mistake it for a real, empty name. */
    k->lines[k->n].key = row->key && row->key[0] ? rp_arena_strdup(k->a, row->key) : NULL;
    k->lines[k->n].totals = row->totals;
    k->n++;
    return 0;
}

static void add_totals(rp_usage_totals *sum, const rp_usage_totals *t)
{
    sum->records += t->records;
    sum->input_tokens += t->input_tokens;
    sum->output_tokens += t->output_tokens;
    sum->cache_read_input_tokens += t->cache_read_input_tokens;
    sum->cache_creation_input_tokens += t->cache_creation_input_tokens;
    sum->cost_nusd += t->cost_nusd;
    sum->priced_records += t->priced_records;
    sum->unpriced_records += t->unpriced_records;
    sum->unpriced_tokens += t->unpriced_tokens;
}

/* Highest cost first, so the table opens with where the money went; ties by more unpriced
 * records (unknown spend matters too), then by key for a stable order. */
static int by_cost_desc(const void *pa, const void *pb)
{
    const rp_cli_spend_line *a = pa, *b = pb;
    if (a->totals.cost_nusd != b->totals.cost_nusd) {
        return a->totals.cost_nusd > b->totals.cost_nusd ? -1 : 1;
    }
    if (a->totals.unpriced_records != b->totals.unpriced_records) {
        return a->totals.unpriced_records > b->totals.unpriced_records ? -1 : 1;
    }
    if (!a->key || !b->key) {
        return a->key ? -1 : b->key ? 1 : 0; /* the keyless group last */
    }
    return strcmp(a->key, b->key);
}

int rp_cli_spend_collect(rp_store *s, const rp_spend_query *q, const char *period, rp_arena *a,
                         rp_cli_spend_report *r)
{
    memset(r, 0, sizeof *r);
    r->user_id = q->user_id;
    r->session_id = q->session_id;
    r->period = period;
    r->first_day = q->first_day;
    r->last_day = q->last_day;
    r->group = q->group == RP_SPEND_BY_NONE ? RP_SPEND_BY_MODEL : q->group;

    rp_spend_query qd = *q;
    qd.group = RP_SPEND_BY_DAY;
    line_sink days = {.a = a};
    if (rp_store_spend(s, &qd, sink_line, &days) != 0) {
        return -1;
    }
    r->days = days.lines;
    r->n_days = days.n;

    if (r->group == RP_SPEND_BY_DAY) {
        r->rows = days.lines;
        r->n_rows = days.n;
    } else {
        rp_spend_query qr = *q;
        qr.group = r->group;
        line_sink rows = {.a = a};
        if (rp_store_spend(s, &qr, sink_line, &rows) != 0) {
            return -1;
        }
        if (rows.n > 1) { /* qsort's array may not be NULL, even for no rows */
            qsort(rows.lines, rows.n, sizeof *rows.lines, by_cost_desc);
        }
        r->rows = rows.lines;
        r->n_rows = rows.n;
    }
    /* The total from the day series: every row has exactly one day, so it is the same sum
     * whatever the grouping, and integer sums are exact. */
    for (size_t i = 0; i < r->n_days; i++) {
        add_totals(&r->total, &r->days[i].totals);
    }
    if (!period && r->n_days > 0) {
        r->first_day = r->days[0].key;
        r->last_day = r->days[r->n_days - 1].key;
    }
    return 0;
}
