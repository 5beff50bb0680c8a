/* test_cli_spend.c — `rampart spend`'s report: number and money formatting, the bars, the locale
 * test, the exact text of the table and chart, the JSON object, and gathering from a store. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "cli/spend_render.h"
#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"
#include "store/store.h"

#define USD(x)  ((int64_t)((x)*100 + 0.5) * (RP_NUSD_PER_USD / 100)) /* whole cents only */
#define T0_US   (1773360000LL * 1000000LL)                           /* 2026-03-13T00:00:00Z */
#define HOUR_US (3600LL * 1000000LL)

/* ---- numbers ---- */

static void test_format_count(void **state)
{
    (void)state;
    char b[32];
    const struct {
        int64_t n;
        const char *want;
    } cases[] = {
        {0, "0"},
        {999, "999"},
        {1000, "1,000"},
        {12345, "12,345"},
        {1234567, "1,234,567"},
        {-1234, "-1,234"},
        {INT64_MAX, "9,223,372,036,854,775,807"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rp_cli_spend_format_count(cases[i].n, b, sizeof b);
        assert_string_equal(b, cases[i].want);
    }
}

static void test_format_usd(void **state)
{
    (void)state;
    char b[48];
    const struct {
        int64_t nusd;
        const char *want;
    } cases[] = {
        {0, "$0.00"},
        {1, "<$0.01"},           /* something, however little, never reads as nothing */
        {4999999, "<$0.01"},     /* just under half a cent */
        {5000000, "$0.01"},      /* half a cent rounds up */
        {12345000000, "$12.35"}, /* $12.345: half up, in integers (a double would say 12.34) */
        {12344999999, "$12.34"},
        {USD(1234.56), "$1,234.56"},
        {-USD(2.5), "-$2.50"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rp_cli_spend_format_usd(cases[i].nusd, b, sizeof b);
        assert_string_equal(b, cases[i].want);
    }
}

/* ---- bars ---- */

static char *bar(rp_buf *b, int64_t value, int64_t max, int cells, bool unicode)
{
    rp_buf_reset(b);
    rp_cli_spend_put_bar(b, value, max, cells, unicode);
    return b->data;
}

static void test_bar_unicode(void **state)
{
    (void)state;
    rp_buf b = {0};
    assert_string_equal(bar(&b, 8, 8, 4, true), "████");
    assert_string_equal(bar(&b, 4, 8, 4, true), "██  ");
    /* 3/32 of 4 cells = 3 eighths of one cell. */
    assert_string_equal(bar(&b, 3, 32, 4, true), "▍   ");
    /* 1 + 7/8 cells. */
    assert_string_equal(bar(&b, 15, 32, 4, true), "█▉  ");
    /* Any spend shows at least the thinnest mark; none shows nothing. */
    assert_string_equal(bar(&b, 1, 1000000, 4, true), "▏   ");
    assert_string_equal(bar(&b, 0, 8, 4, true), "    ");
    assert_string_equal(bar(&b, 5, 0, 2, true), "  ");
    /* Never longer than the cells, even for a value above the maximum. */
    assert_string_equal(bar(&b, 9, 8, 2, true), "██");
    rp_buf_free(&b);
}

static void test_bar_ascii(void **state)
{
    (void)state;
    rp_buf b = {0};
    assert_string_equal(bar(&b, 8, 8, 4, false), "####");
    assert_string_equal(bar(&b, 4, 8, 4, false), "##  ");
    assert_string_equal(bar(&b, 1, 1000000, 4, false), "#   ");
    assert_string_equal(bar(&b, 0, 8, 4, false), "    ");
    rp_buf_free(&b);
}

static void test_locale_utf8(void **state)
{
    (void)state;
    assert_true(rp_cli_spend_locale_utf8(NULL, NULL, "en_US.UTF-8"));
    assert_true(rp_cli_spend_locale_utf8(NULL, "C.utf8", NULL));
    assert_true(rp_cli_spend_locale_utf8("", "", "de_DE.utf-8@euro")); /* empty means unset */
    /* The first one set decides, even against a UTF-8 LANG. */
    assert_false(rp_cli_spend_locale_utf8("C", NULL, "en_US.UTF-8"));
    assert_false(rp_cli_spend_locale_utf8(NULL, "POSIX", "en_US.UTF-8"));
    assert_false(rp_cli_spend_locale_utf8(NULL, NULL, "en_US.ISO-8859-1"));
    assert_false(rp_cli_spend_locale_utf8(NULL, NULL, NULL));
}

/* ---- the text report ---- */

static rp_usage_totals totals(int64_t records, int64_t in, int64_t out, int64_t cr, int64_t cw,
                              int64_t cost_nusd, int64_t unpriced)
{
    rp_usage_totals t = {
        .records = records,
        .input_tokens = in,
        .output_tokens = out,
        .cache_read_input_tokens = cr,
        .cache_creation_input_tokens = cw,
        .cost_nusd = cost_nusd,
        .priced_records = records - unpriced,
        .unpriced_records = unpriced,
    };
    return t;
}

/* Two priced models and usage without a model or price, over three days of which the middle
 * one has no usage. */
static rp_cli_spend_line sample_rows[3];
static rp_cli_spend_line sample_days[2];

static rp_cli_spend_report sample_report(void)
{
    sample_rows[0] = (rp_cli_spend_line){"claude-opus-4-5",
                                         totals(3, 1204000, 52000, 800000, 20000, USD(12.34), 0)};
    sample_rows[1] = (rp_cli_spend_line){"gpt-5-mini", totals(1, 10000, 2000, 0, 0, USD(0.03), 0)};
    sample_rows[2] = (rp_cli_spend_line){NULL, totals(2, 4000, 1000, 0, 0, 0, 2)};
    sample_days[0] = (rp_cli_spend_line){"2026-03-13", totals(2, 1000000, 40000, 0, 0, USD(8), 0)};
    sample_days[1] =
        (rp_cli_spend_line){"2026-03-15", totals(4, 218000, 15000, 800000, 20000, USD(4.37), 2)};
    rp_cli_spend_report r = {
        .first_day = "2026-03-13",
        .last_day = "2026-03-15",
        .group = RP_SPEND_BY_MODEL,
        .rows = sample_rows,
        .n_rows = 3,
        .total = totals(6, 1218000, 55000, 800000, 20000, USD(12.37), 2),
        .days = sample_days,
        .n_days = 2,
    };
    return r;
}

static void test_text_report_exact(void **state)
{
    (void)state;
    rp_cli_spend_report r = sample_report();
    rp_buf b = {0};
    rp_cli_spend_render_text(&b, &r, true);
    const char *want =
        "spend of every session, all time (2026-03-13 .. 2026-03-15 UTC), by model\n"
        "\n"
        "model            records      input  output  cache read  cache write    cost\n"
        "claude-opus-4-5        3  1,204,000  52,000     800,000       20,000  $12.34\n"
        "gpt-5-mini             1     10,000   2,000           0            0   $0.03\n"
        "(unknown model)        2      4,000   1,000           0            0   $0.00 + 2 "
        "unpriced\n"
        "total                  6  1,218,000  55,000     800,000       20,000  $12.37 + 2 "
        "unpriced\n"
        "\n"
        "spend per day (UTC; the longest bar is $8.00)\n"
        "2026-03-13  ████████████████████████████████████████  $8.00\n"
        "2026-03-14\n"
        "2026-03-15  █████████████████████▉                    $4.37 + 2 unpriced\n";
    assert_string_equal(b.data, want);
    rp_buf_free(&b);
}

static void test_text_report_ascii_and_width(void **state)
{
    (void)state;
    /* The widest amounts a chart line can carry still fit 80 columns. */
    static rp_cli_spend_line days[2];
    days[0] = (rp_cli_spend_line){"2026-03-14", totals(20, 1, 1, 0, 0, USD(1234.56), 12)};
    days[1] = (rp_cli_spend_line){"2026-03-15", totals(1, 1, 1, 0, 0, USD(1.00), 0)};
    rp_cli_spend_report r = sample_report();
    r.days = days;
    r.first_day = "2026-03-14";
    r.total = totals(21, 2, 2, 0, 0, USD(1235.56), 12);
    rp_buf b = {0};
    rp_cli_spend_render_text(&b, &r, false);
    for (size_t i = 0; i < b.len; i++) {
        assert_true((unsigned char)b.data[i] < 0x80);
    }
    const char *chart = strstr(b.data, "spend per day");
    assert_non_null(chart);
    assert_non_null(strstr(chart, "2026-03-14  ########################################  "
                                  "$1,234.56 + 12 unpriced\n"));
    char want[128];
    snprintf(want, sizeof want, "2026-03-15  #%*s  %9s\n", RP_SPEND_BAR_CELLS - 1, "", "$1.00");
    assert_non_null(strstr(chart, want));
    for (const char *line = chart; *line;) {
        const char *nl = strchr(line, '\n');
        assert_non_null(nl);
        assert_true(nl - line <= 80);
        line = nl + 1;
    }
    rp_buf_free(&b);
}

static size_t count_lines_starting(const char *text, const char *prefix)
{
    size_t n = 0;
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        n += strncmp(p, prefix, strlen(prefix)) == 0;
    }
    return n;
}

static void test_chart_capped_at_31_days(void **state)
{
    (void)state;
    /* 2026-01-01 .. 2026-03-15 is 74 days: the chart shows 2026-02-13 .. 2026-03-15. */
    static rp_cli_spend_line days[3];
    days[0] = (rp_cli_spend_line){"2026-01-01", totals(1, 1, 1, 0, 0, USD(100), 0)};
    days[1] = (rp_cli_spend_line){"2026-02-13", totals(1, 1, 1, 0, 0, USD(2), 0)};
    days[2] = (rp_cli_spend_line){"2026-03-15", totals(1, 1, 1, 0, 0, USD(1), 0)};
    rp_cli_spend_report r = sample_report();
    r.group = RP_SPEND_BY_DAY;
    r.rows = days;
    r.n_rows = 3;
    r.days = days;
    r.n_days = 3;
    r.first_day = "2026-01-01";
    r.total = totals(3, 3, 3, 0, 0, USD(103), 0);
    rp_buf b = {0};
    rp_cli_spend_render_text(&b, &r, true);
    const char *chart = strstr(b.data, "spend per day");
    assert_non_null(chart);
    assert_int_equal(count_lines_starting(chart, "2026-"), 31);
    assert_null(strstr(chart, "2026-02-12"));
    assert_null(strstr(chart, "2026-01-01"));
    /* Scaled to the largest day shown ($2), not to the hidden $100 one. */
    assert_non_null(strstr(chart, "the longest bar is $2.00"));
    assert_non_null(strstr(chart, "2026-02-13  ████████████████████████████████████████  $2.00"));
    assert_non_null(strstr(chart, "2026-02-28\n2026-03-01\n")); /* empty days, in order */
    assert_non_null(strstr(chart, "(the last 31 of 74 days; rampart spend --json lists every"));
    /* The table still has every day. */
    assert_non_null(strstr(b.data, "\n2026-01-01        1"));
    rp_buf_free(&b);
}

static void test_no_usage_line(void **state)
{
    (void)state;
    rp_cli_spend_report r = {
        .user_id = "alice",
        .period = "month",
        .first_day = "2026-03-01",
        .last_day = "2026-03-15",
        .group = RP_SPEND_BY_MODEL,
    };
    rp_buf b = {0};
    rp_cli_spend_render_text(&b, &r, true);
    assert_string_equal(b.data,
                        "no usage recorded for user alice this month (2026-03-01 .. 2026-03-15 "
                        "UTC)\n");
    rp_cli_spend_report all = {.session_id = "s1", .group = RP_SPEND_BY_MODEL};
    rp_buf_reset(&b);
    rp_cli_spend_render_text(&b, &all, true);
    assert_string_equal(b.data, "no usage recorded for session s1 and its sub-agents\n");
    rp_buf_free(&b);
}

static void test_keys_stay_on_one_line(void **state)
{
    (void)state;
    static rp_cli_spend_line rows[2];
    rows[0] = (rp_cli_spend_line){"evil\nuser", totals(1, 1, 1, 0, 0, USD(1), 0)};
    rows[1] = (rp_cli_spend_line){NULL, totals(1, 1, 1, 0, 0, 0, 1)};
    rp_cli_spend_report r = sample_report();
    r.group = RP_SPEND_BY_USER;
    r.rows = rows;
    r.n_rows = 2;
    r.user_id = "a\tb";
    rp_buf b = {0};
    rp_cli_spend_render_text(&b, &r, true);
    assert_non_null(strstr(b.data, "\nevil user "));
    assert_non_null(strstr(b.data, "\n(no user) ")); /* usage without an owner */
    assert_non_null(strstr(b.data, "spend of user a b, all time"));
    rp_buf_free(&b);
}

/* ---- JSON ---- */

static void test_json_report(void **state)
{
    (void)state;
    rp_cli_spend_report r = sample_report();
    r.user_id = "alice";
    rp_arena a = {0};
    rp_buf b = {0};
    rp_cli_spend_render_json(&b, &r, &a);
    assert_true(b.len > 0 && b.data[b.len - 1] == '\n');
    assert_ptr_equal(strchr(b.data, '\n'), b.data + b.len - 1); /* one line */
    rp_json_error err;
    rp_json *doc = rp_json_parse(&a, b.data, b.len, &err);
    assert_non_null(doc);
    assert_string_equal(rp_json_get_str(rp_json_path(doc, "query"), "user"), "alice");
    assert_int_equal(rp_json_path(doc, "query.session")->type, RP_JSON_NULL);
    assert_int_equal(rp_json_path(doc, "query.period")->type, RP_JSON_NULL);
    assert_string_equal(rp_json_get_str(rp_json_path(doc, "query"), "by"), "model");
    assert_string_equal(rp_json_get_str(rp_json_path(doc, "query"), "first_day"), "2026-03-13");

    const rp_json *rows = rp_json_get(doc, "rows");
    assert_int_equal(rows->len, 3);
    const rp_json *opus = rp_json_at(rows, 0);
    assert_string_equal(rp_json_get_str(opus, "key"), "claude-opus-4-5");
    const rp_json *cost = rp_json_get(opus, "cost_usd");
    assert_int_equal(cost->type, RP_JSON_DOUBLE);
    assert_true(cost->v.d == 12.34);
    assert_int_equal(rp_json_get(opus, "cost_nusd")->type, RP_JSON_INT);
    assert_int_equal(rp_json_get(opus, "cost_nusd")->v.i, 12340000000LL);
    assert_int_equal(rp_json_get(opus, "cache_read_input_tokens")->v.i, 800000);
    /* The keyless group is null, not "". */
    assert_int_equal(rp_json_get(rp_json_at(rows, 2), "key")->type, RP_JSON_NULL);
    assert_int_equal(rp_json_get(rp_json_at(rows, 2), "unpriced_records")->v.i, 2);

    assert_int_equal(rp_json_path(doc, "total.records")->v.i, 6);
    assert_int_equal(rp_json_path(doc, "total.cost_nusd")->v.i, 12370000000LL);
    const rp_json *days = rp_json_get(doc, "days");
    assert_int_equal(days->len, 2);
    assert_string_equal(rp_json_get_str(rp_json_at(days, 1), "day"), "2026-03-15");
    assert_true(rp_json_get(rp_json_at(days, 1), "cost_usd")->v.d == 4.37);
    rp_buf_free(&b);
    rp_arena_free(&a);
}

static void test_group_names(void **state)
{
    (void)state;
    const char *names[] = {"model", "user", "day", "session"};
    for (size_t i = 0; i < 4; i++) {
        rp_spend_group g = RP_SPEND_BY_NONE;
        assert_int_equal(rp_cli_spend_group_parse(names[i], &g), 0);
        assert_string_equal(rp_cli_spend_group_name(g), names[i]);
    }
    rp_spend_group g;
    assert_int_equal(rp_cli_spend_group_parse("Model", &g), -1);
    assert_int_equal(rp_cli_spend_group_parse("", &g), -1);
    assert_int_equal(rp_cli_spend_group_parse(NULL, &g), -1);
}

/* ---- gathering from a store ---- */

static void record(rp_store *s, int64_t time_us, const char *session, const char *parent,
                   const char *user, const char *model, int64_t in, int64_t cost_nusd, bool priced)
{
    rp_usage_record u = {
        .time_us = time_us,
        .session_id = session,
        .parent_session_id = parent,
        .user_id = user,
        .model = model,
        .input_tokens = in,
        .output_tokens = in / 10,
        .priced = priced,
        .cost_nusd = priced ? cost_nusd : 0,
    };
    if (rp_store_record_usage(s, &u, NULL) != 0) {
        fail_msg("record_usage: %s", rp_store_error(s));
    }
}

/* alice: root r1 (opus, two days), its sub-agent c1 (no owner of its own: alice's; mini), bob:
 * r2 (opus) and an unpriced record of an unknown model. */
static rp_store *sample_store(void)
{
    rp_store *s = rp_store_open_memory();
    assert_non_null(s);
    record(s, T0_US + 1 * HOUR_US, "r1", NULL, "alice", "claude-opus-4-5", 1000, USD(3.10), true);
    record(s, T0_US + 2 * HOUR_US, "c1", "r1", NULL, "gpt-5-mini", 500, USD(0.05), true);
    record(s, T0_US + 26 * HOUR_US, "r1", NULL, "alice", "claude-opus-4-5", 2000, USD(6.20), true);
    record(s, T0_US + 50 * HOUR_US, "r2", NULL, "bob", "claude-opus-4-5", 100, USD(0.33), true);
    record(s, T0_US + 51 * HOUR_US, "r2", NULL, "bob", NULL, 700, 0, false);
    return s;
}

static void test_collect_by_model(void **state)
{
    (void)state;
    rp_store *s = sample_store();
    rp_arena a = {0};
    rp_cli_spend_report r;
    rp_spend_query q = {.group = RP_SPEND_BY_MODEL};
    assert_int_equal(rp_cli_spend_collect(s, &q, NULL, &a, &r), 0);
    assert_int_equal(r.n_rows, 3);
    /* Highest cost first; the unpriced, keyless group last. */
    assert_string_equal(r.rows[0].key, "claude-opus-4-5");
    assert_int_equal(r.rows[0].totals.records, 3);
    assert_int_equal(r.rows[0].totals.cost_nusd, USD(3.10) + USD(6.20) + USD(0.33));
    assert_string_equal(r.rows[1].key, "gpt-5-mini");
    assert_null(r.rows[2].key);
    assert_int_equal(r.rows[2].totals.unpriced_records, 1);
    assert_int_equal(r.total.records, 5);
    assert_int_equal(r.total.cost_nusd, USD(9.68));
    assert_int_equal(r.total.unpriced_records, 1);
    assert_int_equal(r.total.input_tokens, 4300);
    /* All time: the range is the days with usage. */
    assert_string_equal(r.first_day, "2026-03-13");
    assert_string_equal(r.last_day, "2026-03-15");
    assert_int_equal(r.n_days, 3);
    assert_string_equal(r.days[1].key, "2026-03-14");
    assert_int_equal(r.days[1].totals.cost_nusd, USD(6.20));
    rp_arena_free(&a);
    rp_store_close(s);
}

static void test_collect_filters(void **state)
{
    (void)state;
    rp_store *s = sample_store();
    rp_arena a = {0};
    rp_cli_spend_report r;

    /* A session with its sub-agent. */
    rp_spend_query q = {.session_id = "r1", .group = RP_SPEND_BY_SESSION};
    assert_int_equal(rp_cli_spend_collect(s, &q, NULL, &a, &r), 0);
    assert_int_equal(r.n_rows, 2);
    assert_string_equal(r.rows[0].key, "r1");
    assert_string_equal(r.rows[1].key, "c1");
    assert_int_equal(r.total.cost_nusd, USD(9.35));

    /* A user: the sub-agent without an owner of its own counts as its root's owner's. */
    rp_spend_query qu = {.user_id = "alice", .group = RP_SPEND_BY_USER};
    assert_int_equal(rp_cli_spend_collect(s, &qu, NULL, &a, &r), 0);
    assert_int_equal(r.n_rows, 1);
    assert_string_equal(r.rows[0].key, "alice");
    assert_int_equal(r.total.records, 3);
    assert_int_equal(r.total.cost_nusd, USD(9.35));

    /* A day window: only 2026-03-15, bob's. */
    rp_spend_query qd = {
        .first_day = "2026-03-15", .last_day = "2026-03-15", .group = RP_SPEND_BY_DAY};
    assert_int_equal(rp_cli_spend_collect(s, &qd, "day", &a, &r), 0);
    assert_int_equal(r.n_rows, 1);
    assert_int_equal(r.total.records, 2);
    assert_int_equal(r.total.unpriced_records, 1);
    assert_string_equal(r.period, "day");
    assert_string_equal(r.first_day, "2026-03-15");

    /* Nothing matches: an empty report, the window kept for the message. */
    rp_spend_query qn = {.user_id = "carol",
                         .first_day = "2026-03-01",
                         .last_day = "2026-03-15",
                         .group = RP_SPEND_BY_MODEL};
    assert_int_equal(rp_cli_spend_collect(s, &qn, "month", &a, &r), 0);
    assert_int_equal(r.n_rows, 0);
    assert_int_equal(r.total.records, 0);
    assert_string_equal(r.last_day, "2026-03-15");
    rp_arena_free(&a);
    rp_store_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_count),
        cmocka_unit_test(test_format_usd),
        cmocka_unit_test(test_bar_unicode),
        cmocka_unit_test(test_bar_ascii),
        cmocka_unit_test(test_locale_utf8),
        cmocka_unit_test(test_text_report_exact),
        cmocka_unit_test(test_text_report_ascii_and_width),
        cmocka_unit_test(test_chart_capped_at_31_days),
        cmocka_unit_test(test_no_usage_line),
        cmocka_unit_test(test_keys_stay_on_one_line),
        cmocka_unit_test(test_json_report),
        cmocka_unit_test(test_group_names),
        cmocka_unit_test(test_collect_by_model),
        cmocka_unit_test(test_collect_filters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
