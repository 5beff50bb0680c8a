/* test_cost_usage.c — usage reports → ledger rows: token checks, reported cost, pricing from a
 * config table, unpriced rows, the `rampart usage record` line format, the context form. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "cost/usage.h"

#define NOW_US 1893456000000000LL /* 2030-01-01T00:00:00Z */

typedef struct fixture {
    rp_arena a;
    rp_cost_pricing *pricing;
} fixture;

static int setup(void **state)
{
    fixture *f = test_calloc(1, sizeof *f);
    /* Tests never depend on the shipped prices: a config table of their own. */
    const char *cfg = "{\"test-model\":{\"input\":2.0,\"output\":10.0,\"cache_read\":0.2,"
                      "\"cache_write\":2.5},\"cheap\":{\"input\":1.0,\"output\":1.0}}";
    rp_json_error jerr;
    rp_json *table = rp_json_parse(&f->a, cfg, strlen(cfg), &jerr);
    assert_non_null(table);
    char err[256];
    f->pricing = rp_cost_pricing_build(&f->a, table, err, sizeof err);
    if (f->pricing == NULL)
        fail_msg("pricing: %s", err);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    rp_arena_free(&f->a);
    test_free(f);
    return 0;
}

static rp_json *parse(fixture *f, const char *text)
{
    rp_json_error jerr;
    rp_json *v = rp_json_parse(&f->a, text, strlen(text), &jerr);
    if (v == NULL)
        fail_msg("bad test JSON %s: %s", text, jerr.msg);
    return v;
}

static int line(fixture *f, const char *text, rp_usage_record *r, char *err)
{
    return rp_cost_usage_record_from_json(parse(f, text), f->pricing, NOW_US, r, err, 256);
}

static void test_priced_from_table(void **state)
{
    fixture *f = *state;
    rp_usage_record r;
    char err[256] = "";
    assert_int_equal(line(f,
                          "{\"session_id\":\"s\",\"model\":\"test-model\",\"input_tokens\":1000000,"
                          "\"output_tokens\":100000,\"cache_read_input_tokens\":500000,"
                          "\"cache_creation_input_tokens\":200000}",
                          &r, err),
                     0);
    assert_true(r.priced);
    /* 1M × $2 + 0.1M × $10 + 0.5M × $0.2 + 0.2M × $2.5 = 2 + 1 + 0.1 + 0.5 = $3.60 */
    assert_int_equal(r.cost_nusd, 3600000000LL);
    assert_true(r.time_us == NOW_US);
    assert_string_equal(r.session_id, "s");
    assert_null(r.user_id);
}

static void test_cache_defaults(void **state)
{
    fixture *f = *state;
    rp_usage_record r;
    char err[256] = "";
    /* cheap: no cache prices → 0.10× and 1.25× input ($1): 1M reads $0.10, 1M writes $1.25. */
    assert_int_equal(line(f,
                          "{\"session_id\":\"s\",\"model\":\"cheap\",\"cache_read_input_tokens\":"
                          "1000000,\"cache_creation_input_tokens\":1000000}",
                          &r, err),
                     0);
    assert_int_equal(r.cost_nusd, 1350000000LL);
}

static void test_reported_cost_wins(void **state)
{
    fixture *f = *state;
    rp_usage_record r;
    char err[256] = "";
    assert_int_equal(line(f,
                          "{\"session_id\":\"s\",\"model\":\"test-model\",\"input_tokens\":10,"
                          "\"cost_usd\":0.01}",
                          &r, err),
                     0);
    assert_true(r.priced);
    assert_int_equal(r.cost_nusd, 10000000LL);
    /* A reported cost prices even an unknown model. */
    assert_int_equal(line(f, "{\"session_id\":\"s\",\"model\":\"nope\",\"cost_usd\":0}", &r, err),
                     0);
    assert_true(r.priced);
    assert_int_equal(r.cost_nusd, 0);
}

static void test_unpriced(void **state)
{
    fixture *f = *state;
    rp_usage_record r;
    char err[256] = "";
    assert_int_equal(
        line(f, "{\"session_id\":\"s\",\"model\":\"unknown-x\",\"input_tokens\":5}", &r, err), 0);
    assert_false(r.priced);
    assert_int_equal(r.input_tokens, 5);
    assert_int_equal(line(f, "{\"session_id\":\"s\",\"output_tokens\":5}", &r, err), 0);
    assert_false(r.priced); /* no model at all */
}

static void test_fields_and_links(void **state)
{
    fixture *f = *state;
    rp_usage_record r;
    char err[256] = "";
    assert_int_equal(line(f,
                          "{\"session_id\":\"c\",\"user\":\"alice\",\"parent_session_id\":\"p\","
                          "\"root_session_id\":\"r\",\"id\":\"msg_1\","
                          "\"time\":\"2026-03-15T12:00:00Z\",\"usage\":{\"input_tokens\":3},"
                          "\"cost_usd\":1.5}",
                          &r, err),
                     0);
    assert_string_equal(r.user_id, "alice");
    assert_string_equal(r.parent_session_id, "p");
    assert_string_equal(r.root_session_id, "r");
    assert_string_equal(r.record_id, "msg_1");
    assert_true(r.time_us == 1773576000LL * 1000000);
    assert_int_equal(r.input_tokens, 3);
    assert_true(r.priced);
    assert_int_equal(r.cost_nusd, 1500000000LL);
}

static void expect_error(fixture *f, const char *text, const char *needle)
{
    rp_usage_record r;
    char err[256] = "";
    if (line(f, text, &r, err) == 0)
        fail_msg("accepted %s", text);
    if (strstr(err, needle) == NULL)
        fail_msg("error for %s is '%s', wanted '%s'", text, err, needle);
}

static void test_bad_lines(void **state)
{
    fixture *f = *state;
    expect_error(f, "{\"input_tokens\":1}", "session_id is required");
    expect_error(f, "{\"session_id\":\"\"}", "session_id must be a non-empty string");
    expect_error(f, "{\"session_id\":7}", "session_id must be a non-empty string");
    expect_error(f, "{\"session_id\":\"s\",\"input_tokens\":-1}",
                 "input_tokens must be an integer >= 0");
    expect_error(f, "{\"session_id\":\"s\",\"output_tokens\":1.5}",
                 "output_tokens must be an integer");
    expect_error(f, "{\"session_id\":\"s\",\"output_tokens\":\"9\"}",
                 "output_tokens must be an integer");
    expect_error(f, "{\"session_id\":\"s\",\"cost_usd\":-0.5}", "cost_usd must be a number >= 0");
    expect_error(f, "{\"session_id\":\"s\",\"cost_usd\":true}", "cost_usd must be a number");
    expect_error(f, "{\"session_id\":\"s\",\"cost_usd\":1e300}",
                 "cost_usd must be at most 1000000");
    expect_error(f, "{\"session_id\":\"s\",\"time\":\"yesterday\"}", "time must be an RFC 3339");
    expect_error(f, "{\"session_id\":\"s\",\"time\":\"2099-01-01T00:00:00Z\"}",
                 "more than a day in the future");
    expect_error(f, "{\"session_id\":\"s\",\"input_tokns\":1}", "unknown field 'input_tokns'");
    expect_error(f, "{\"session_id\":\"s\",\"input_tokens\":1,\"usage\":{\"input_tokens\":1}}",
                 "given both");
    expect_error(f, "[1]", "must be a JSON object");
    expect_error(f, "{\"session_id\":\"s\",\"input_tokens\":1000000000001}",
                 "input_tokens must be at most 1000000000000");
    expect_error(f, "{\"session_id\":\"s\",\"cost_usd\":1000000.5}", "cost_usd must be at most");
    expect_error(f, "{\"session_id\":\"s\",\"usage\":{\"output_token\":5}}",
                 "unknown field 'usage.output_token'");
    expect_error(f, "{\"session_id\":\"s\",\"time\":\"1969-12-31T23:59:59Z\"}", "before 1970");
}

static void test_llm_response(void **state)
{
    fixture *f = *state;
    rp_usage_record r;
    char err[256] = "";
    rp_json *data = parse(f, "{\"model\":\"test-model\",\"id\":\"resp_9\","
                             "\"usage\":{\"input_tokens\":1000000}}");
    assert_int_equal(
        rp_cost_usage_from_llm_response(data, "ctx-model", f->pricing, 77, &r, err, sizeof err), 1);
    assert_string_equal(r.model, "test-model");
    assert_string_equal(r.record_id, "resp_9");
    assert_int_equal(r.cost_nusd, 2000000000LL);
    assert_int_equal(r.time_us, 77);
    /* The context's model when the data names none; no usage → 0; bad usage → -1. */
    data = parse(f, "{\"usage\":{\"output_tokens\":1000000}}");
    assert_int_equal(
        rp_cost_usage_from_llm_response(data, "test-model", f->pricing, 0, &r, err, sizeof err), 1);
    assert_int_equal(r.cost_nusd, 10000000000LL);
    data = parse(f, "{\"text_preview\":\"hi\"}");
    assert_int_equal(
        rp_cost_usage_from_llm_response(data, NULL, f->pricing, 0, &r, err, sizeof err), 0);
    data = parse(f, "{\"usage\":{\"input_tokens\":-3}}");
    assert_int_equal(
        rp_cost_usage_from_llm_response(data, NULL, f->pricing, 0, &r, err, sizeof err), -1);
    /* A host's report above the per-record bound is counted at the bound, never dropped. */
    data = parse(f, "{\"usage\":{\"cost_usd\":2000000,\"output_tokens\":5000000000000}}");
    assert_int_equal(
        rp_cost_usage_from_llm_response(data, NULL, f->pricing, 0, &r, err, sizeof err), 1);
    assert_true(r.priced);
    assert_true(r.cost_nusd == RP_USAGE_MAX_COST_NUSD);
    assert_true(r.output_tokens == RP_USAGE_MAX_TOKENS);
    data = parse(f, "{\"id\":\"m\\u0000a\",\"usage\":{\"input_tokens\":1}}");
    assert_int_equal(
        rp_cost_usage_from_llm_response(data, NULL, f->pricing, 0, &r, err, sizeof err), -1);
    data = parse(f, "{\"usage\":\"lots\"}");
    assert_int_equal(
        rp_cost_usage_from_llm_response(data, NULL, f->pricing, 0, &r, err, sizeof err), -1);
}

/* A host's cost 0 is "could not price it" (issue 15: opencode and Pi recorded $0.00 for a model
 * rampart prices); what priced each row is said. */
static void test_host_zero_cost(void **state)
{
    fixture *f = *state;
    rp_usage_record r;
    char err[256] = "";
    /* Cost 0 for a priced model: the table prices it. (This table is the config's.) */
    rp_json *data = parse(f, "{\"model\":\"test-model\",\"id\":\"m1\",\"usage\":{"
                             "\"input_tokens\":1000000,\"cost_usd\":0}}");
    assert_int_equal(
        rp_cost_usage_from_llm_response(data, NULL, f->pricing, 0, &r, err, sizeof err), 1);
    assert_true(r.priced);
    assert_int_equal(r.cost_nusd, 2000000000LL);
    assert_string_equal(r.priced_by, RP_PRICED_BY_CONFIG);
    /* Cost 0 for a model nobody prices: recorded at the host's 0, said to be the host's. */
    data = parse(f, "{\"model\":\"fake-local\",\"usage\":{\"input_tokens\":900,"
                    "\"cost_usd\":0}}");
    assert_int_equal(
        rp_cost_usage_from_llm_response(data, NULL, f->pricing, 0, &r, err, sizeof err), 1);
    assert_true(r.priced);
    assert_int_equal(r.cost_nusd, 0);
    assert_string_equal(r.priced_by, RP_PRICED_BY_HOST);
    /* A real cost wins over the table. */
    data = parse(f, "{\"model\":\"test-model\",\"usage\":{\"input_tokens\":1000000,"
                    "\"cost_usd\":0.5}}");
    assert_int_equal(
        rp_cost_usage_from_llm_response(data, NULL, f->pricing, 0, &r, err, sizeof err), 1);
    assert_int_equal(r.cost_nusd, 500000000LL);
    assert_string_equal(r.priced_by, RP_PRICED_BY_HOST);
    /* No tokens at cost 0: nothing to price, the host's 0 stands. */
    data = parse(f, "{\"model\":\"test-model\",\"usage\":{\"cost_usd\":0}}");
    assert_int_equal(
        rp_cost_usage_from_llm_response(data, NULL, f->pricing, 0, &r, err, sizeof err), 1);
    assert_string_equal(r.priced_by, RP_PRICED_BY_HOST);
    /* The shipped table: "table". */
    char perr[256];
    rp_cost_pricing *shipped = rp_cost_pricing_build(&f->a, NULL, perr, sizeof perr);
    assert_non_null(shipped);
    data = parse(f, "{\"model\":\"gpt-4o-mini\",\"usage\":{\"input_tokens\":900,"
                    "\"output_tokens\":50,\"cache_read_input_tokens\":100,\"cost_usd\":0}}");
    assert_int_equal(rp_cost_usage_from_llm_response(data, NULL, shipped, 0, &r, err, sizeof err),
                     1);
    assert_string_equal(r.priced_by, RP_PRICED_BY_TABLE);
    assert_true(r.cost_nusd > 0);
    /* `rampart usage record` keeps a stated 0: a person said so. */
    assert_int_equal(line(f,
                          "{\"session_id\":\"s\",\"model\":\"test-model\",\"input_tokens\":"
                          "1000000,\"cost_usd\":0}",
                          &r, err),
                     0);
    assert_int_equal(r.cost_nusd, 0);
    assert_string_equal(r.priced_by, RP_PRICED_BY_HOST);
    /* Unpriced: none. */
    data = parse(f, "{\"model\":\"fake-local\",\"usage\":{\"input_tokens\":9}}");
    assert_int_equal(
        rp_cost_usage_from_llm_response(data, NULL, f->pricing, 0, &r, err, sizeof err), 1);
    assert_false(r.priced);
    assert_null(r.priced_by);
}

static void test_totals_to_json(void **state)
{
    fixture *f = *state;
    rp_usage_totals t;
    memset(&t, 0, sizeof t);
    /* Nothing recorded: the reference's default seed, total_cost_usd 0.0. */
    rp_json v = rp_cost_usage_totals_to_json(&f->a, &t);
    const rp_json *c = rp_json_get(&v, "total_cost_usd");
    assert_non_null(c);
    assert_int_equal(c->type, RP_JSON_DOUBLE);
    /* Only unpriced rows: total_cost_usd absent, unpriced_tokens present. */
    t.records = 1;
    t.unpriced_records = 1;
    t.input_tokens = 7;
    t.unpriced_tokens = 7;
    v = rp_cost_usage_totals_to_json(&f->a, &t);
    assert_null(rp_json_get(&v, "total_cost_usd"));
    assert_int_equal(rp_json_get(&v, "unpriced_tokens")->v.i, 7);
    assert_int_equal(rp_json_get(&v, "total_tokens")->v.i, 7);
    /* Mixed: both. */
    t.records = 2;
    t.priced_records = 1;
    t.cost_nusd = 2500000000LL;
    v = rp_cost_usage_totals_to_json(&f->a, &t);
    double d = 0;
    assert_true(rp_json_number(rp_json_get(&v, "total_cost_usd"), &d));
    assert_true(d == 2.5);
    assert_non_null(rp_json_get(&v, "unpriced_tokens"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_priced_from_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cache_defaults, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reported_cost_wins, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unpriced, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fields_and_links, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_lines, setup, teardown),
        cmocka_unit_test_setup_teardown(test_llm_response, setup, teardown),
        cmocka_unit_test_setup_teardown(test_host_zero_cost, setup, teardown),
        cmocka_unit_test_setup_teardown(test_totals_to_json, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
