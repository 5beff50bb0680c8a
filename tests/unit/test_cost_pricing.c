/* test_cost_pricing.c — the price table: the shipped data/pricing.json checked entry by entry
 * (the only test that reads the shipped prices), the lookup rules, config overrides, exact
 * nano-dollar costs, and validation of the config's `pricing:` block with file:line:col.
 * Behaviour tests use made-up models ("acme-…") from a config block, never shipped prices. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/buf.h"
#include "core/json.h"
#include "config/config.h"
#include "cost/pricing.h"

static rp_arena A;

static int setup(void **state)
{
    (void)state;
    rp_arena_init(&A, 64 * 1024);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rp_arena_free(&A);
    return 0;
}

static const rp_json *parse(const char *text)
{
    rp_json_error err;
    const rp_json *v = rp_json_parse(&A, text, strlen(text), &err);
    if (!v)
        fail_msg("bad test JSON: %s", err.msg);
    return v;
}

/* A table of the shipped entries plus the config block `json` (NULL = none). */
static rp_cost_pricing *build(const char *json)
{
    char err[512] = "";
    rp_cost_pricing *p = rp_cost_pricing_build(&A, json ? parse(json) : NULL, err, sizeof err);
    if (!p)
        fail_msg("rp_cost_pricing_build: %s", err);
    return p;
}

static const char *resolved(const rp_cost_pricing *p, const char *id)
{
    const rp_cost_price *pr = rp_cost_pricing_find(p, id);
    return pr ? pr->model : NULL;
}

/* ---- the shipped file ---- */

static bool is_https(const char *s)
{
    return s && strncmp(s, "https://", 8) == 0 && strlen(s) > 12 && !strchr(s, ' ');
}

static void test_shipped_file_is_valid(void **unused)
{
    (void)unused;
    size_t len;
    const char *text = rp_cost_pricing_shipped_json(&len);
    assert_non_null(text);
    assert_int_equal(strlen(text), len);
    rp_json_error jerr;
    const rp_json *root = rp_json_parse(&A, text, len, &jerr);
    if (!root)
        fail_msg("data/pricing.json:%d:%d: %s", jerr.line, jerr.col, jerr.msg);
    const char *updated = rp_json_get_str(root, "updated");
    int64_t updated_day, day;
    assert_int_equal(rp_cost_pricing_date_days(updated, &updated_day), 0);
    const rp_json *models = rp_json_get(root, "models");
    assert_true(rp_json_is_object(models));
    assert_true(models->len >= 20);

    rp_cost_pricing *p = build(NULL);
    size_t n;
    const rp_cost_price *e = rp_cost_pricing_entries(p, &n);
    assert_int_equal(n, models->len);
    for (uint32_t i = 0; i < models->len; i++) {
        const rp_json_member *m = &models->v.members[i];
        const rp_json *v = &m->value;
        for (const char *c = m->key; *c; c++) {
            if (*c >= 'A' && *c <= 'Z')
                fail_msg("%s: model ids are lower case", m->key);
        }
        static const char *const prices[] = {"input", "output", "cache_read", "cache_write"};
        for (int k = 0; k < 4; k++) {
            double d;
            /* Every shipped entry states all four prices: a default would be a guess. */
            if (!rp_json_number(rp_json_get(v, prices[k]), &d) || !(d >= 0) || d > 1000)
                fail_msg("%s.%s: must be a number in [0, 1000]", m->key, prices[k]);
        }
        const char *recorded = rp_json_get_str(v, "recorded");
        if (rp_cost_pricing_date_days(recorded, &day) != 0 || day > updated_day)
            fail_msg("%s.recorded: '%s' must be a date on or before updated (%s)", m->key,
                     recorded ? recorded : "(none)", updated);
        if (!is_https(rp_json_get_str(v, "source")))
            fail_msg("%s.source: must be an https URL", m->key);
        /* The built table holds it under its own name, in file order. */
        assert_string_equal(e[i].model, m->key);
        assert_false(e[i].from_config);
        assert_string_equal(resolved(p, m->key), m->key);
        const rp_json *aliases = rp_json_get(v, "aliases");
        for (uint32_t j = 0; aliases && j < aliases->len; j++)
            assert_string_equal(resolved(p, rp_json_str(&aliases->v.items[j])), m->key);
    }
}

/* The compiled-in bytes are data/pricing.json as it is on disk (the build step is wired). */
static void test_shipped_bytes_match_the_source_file(void **unused)
{
    (void)unused;
    const char *dir = getenv("RAMPART_SOURCE_DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/data/pricing.json", dir ? dir : RAMPART_SOURCE_DIR);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    rp_buf b = {0};
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        rp_buf_append(&b, chunk, got);
    fclose(f);
    size_t len;
    const char *text = rp_cost_pricing_shipped_json(&len);
    assert_int_equal(len, b.len);
    assert_memory_equal(text, b.data, len);
    rp_buf_free(&b);
}

/* The models the issue names are all there, under the spellings the issue names. */
static void test_shipped_covers_the_named_models(void **unused)
{
    (void)unused;
    rp_cost_pricing *p = build(NULL);
    static const char *const ids[][2] = {
        {"claude-opus-4-5", "claude-opus-4-5"},
        {"claude-opus-4-1", "claude-opus-4-1"},
        {"claude-opus-4-20250514", "claude-opus-4"},
        {"claude-sonnet-4-5-20250929", "claude-sonnet-4-5"},
        {"claude-sonnet-4-20250514", "claude-sonnet-4"},
        {"claude-haiku-4-5-20251001", "claude-haiku-4-5"},
        {"claude-3-5-haiku-20241022", "claude-3-5-haiku"},
        {"claude-opus-4-5-20251101", "claude-opus-4-5"},
        {"anthropic/claude-opus-4-5", "claude-opus-4-5"},
        {"databricks-claude-opus-4-5", "claude-opus-4-5"},
        {"claude-opus-4.5", "claude-opus-4-5"},
        {"anthropic.claude-opus-4-5-20251101-v1:0", "claude-opus-4-5"},
        {"claude-opus-4-5@20251101", "claude-opus-4-5"},
        {"gpt-5", "gpt-5"},
        {"gpt-5-mini-2025-08-07", "gpt-5-mini"},
        {"openai/gpt-5-mini", "gpt-5-mini"},
        {"gpt-5-nano", "gpt-5-nano"},
        {"gpt-4.1", "gpt-4.1"},
        {"gpt-4.1-mini", "gpt-4.1-mini"},
        {"gpt-4.1-nano", "gpt-4.1-nano"},
        {"gpt-4o", "gpt-4o"},
        {"gpt-4o-mini", "gpt-4o-mini"},
        {"o3", "o3"},
        {"o4-mini", "o4-mini"},
        {"gemini-2.5-pro", "gemini-2.5-pro"},
        {"google/gemini-2.5-pro", "gemini-2.5-pro"},
        {"databricks-gemini-2-5-pro", "gemini-2.5-pro"},
        {"gemini-2.5-flash", "gemini-2.5-flash"},
        {"gemini-2.5-flash-lite", "gemini-2.5-flash-lite"},
    };
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        const char *got = resolved(p, ids[i][0]);
        if (!got || strcmp(got, ids[i][1]) != 0)
            fail_msg("%s resolved to %s, expected %s", ids[i][0], got ? got : "unpriced",
                     ids[i][1]);
    }
}

/* ---- lookup ---- */

#define ACME                                                                                       \
    "{\"acme-opus-4-5\":{\"input\":5,\"output\":25},"                                              \
    "\"acme-4.1\":{\"input\":2,\"output\":8},"                                                     \
    "\"acme\":{\"input\":1,\"output\":2},"                                                         \
    "\"acme-mini\":{\"input\":0.25,\"output\":2}}"

static void test_lookup_spellings(void **unused)
{
    (void)unused;
    rp_cost_pricing *p = build(ACME);
    static const char *const same[] = {
        "acme-opus-4-5",
        "ACME-Opus-4-5",
        "  acme-opus-4-5 ",
        "acme-opus-4.5",
        "acme-opus-4-5-20251101",
        "acme-opus-4-5@20251101",
        "acme-opus-4-5-latest",
        "acme-opus-4-5-2025-11-01",
        "acme-opus-4-5-v1:0",
        "acme-opus-4-5-v2",
        "acme-opus-4-5[1m]",
        "anthropic/acme-opus-4-5",
        "openrouter/anthropic/acme-opus-4.5",
        "databricks-acme-opus-4-5",
        "anthropic.acme-opus-4-5-20251101-v1:0",
        "us.anthropic.acme-opus-4-5-20251101-v1:0",
        "global.anthropic.acme-opus-4-5-20251101-v1:0",
        "vertex_ai/acme-opus-4-5@20251101",
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        const char *got = resolved(p, same[i]);
        if (!got || strcmp(got, "acme-opus-4-5") != 0)
            fail_msg("'%s' resolved to %s", same[i], got ? got : "unpriced");
    }
    /* A key written with dots is found with dashes too, and keeps its own spelling. */
    assert_string_equal(resolved(p, "acme-4-1"), "acme-4.1");
    assert_string_equal(resolved(p, "databricks-acme-4-1"), "acme-4.1");
    assert_string_equal(resolved(p, "acme-4.1-2025-04-14"), "acme-4.1");
}

static void test_lookup_never_guesses(void **unused)
{
    (void)unused;
    rp_cost_pricing *p = build(ACME);
    static const char *const unpriced[] = {
        "acme-opus-4-5-foo", /* no prefix matching */
        "acme-opus-4-5x",
        "acme-opus-4-5-6",
        "acme-opus-4",
        "acme-opus",
        "acme-opus-4-5-2025",    /* not a date */
        "acme-opus-4-5-2025110", /* 7 digits */
        "acme-opus-4-5-vx",      /* not a version */
        "acme-opus-4-5-20251101-foo",
        "acme-opus-4-5@pro", /* "@" only before a version number */
        "acme-opus-4-5@deep-research",
        "acme-opus-4-5@",
        "acme-4",
        "acme-4-1-1",
        "acme-turbo",
        "",
        "   ",
        "/",
        "anthropic/",
    };
    for (size_t i = 0; i < sizeof unpriced / sizeof unpriced[0]; i++) {
        const char *got = resolved(p, unpriced[i]);
        if (got)
            fail_msg("'%s' must be unpriced, resolved to %s", unpriced[i], got);
    }
    assert_null(rp_cost_pricing_find(p, NULL));
    assert_null(rp_cost_pricing_find(NULL, "acme"));
    char longid[600];
    memset(longid, 'a', sizeof longid - 1);
    longid[sizeof longid - 1] = '\0';
    assert_null(rp_cost_pricing_find(p, longid));
    /* "acme" and "acme-mini" stay apart whichever way round. */
    assert_string_equal(resolved(p, "acme"), "acme");
    assert_string_equal(resolved(p, "acme-mini"), "acme-mini");
    assert_string_equal(resolved(p, "acme-mini-2025-08-07"), "acme-mini");
    assert_string_equal(resolved(p, "openai/acme-2025-08-07"), "acme");
    assert_string_equal(resolved(p, "acme@latest"), "acme");
}

static void test_prefixed_override_covers_dated_spellings(void **unused)
{
    (void)unused;
    /* A config price under a provider-prefixed id applies to that id's dated spellings too, not
     * the (cheaper) unprefixed entry. */
    rp_cost_pricing *p = build("{\"acme-opus-4-5\":{\"input\":5,\"output\":25},"
                               "\"vendor/acme-opus-4-5\":{\"input\":50,\"output\":250}}");
    assert_string_equal(resolved(p, "vendor/acme-opus-4-5-20251101"), "vendor/acme-opus-4-5");
    assert_string_equal(resolved(p, "vendor/acme-opus-4-5@20251101"), "vendor/acme-opus-4-5");
    assert_string_equal(resolved(p, "other/acme-opus-4-5-20251101"), "acme-opus-4-5");
}

/* ---- overrides ---- */

static void test_config_adds_models_after_the_shipped_ones(void **unused)
{
    (void)unused;
    size_t n_shipped, n;
    rp_cost_pricing_entries(build(NULL), &n_shipped);
    rp_cost_pricing *p =
        build("{\"acme-x\":{\"input\":3,\"output\":15,\"source\":\"config: a.yaml\"}}");
    const rp_cost_price *e = rp_cost_pricing_entries(p, &n);
    assert_int_equal(n, n_shipped + 1);
    const rp_cost_price *x = &e[n - 1];
    assert_string_equal(x->model, "acme-x");
    assert_true(x->from_config);
    assert_false(x->replaced_shipped);
    assert_null(x->recorded);
    assert_string_equal(x->source, "config: a.yaml");
    /* Cache prices default to 0.10× and 1.25× the input price (reference §4.3). */
    assert_true(x->cache_read > 0.2999999 && x->cache_read < 0.3000001);
    assert_true(x->cache_write > 3.7499999 && x->cache_write < 3.7500001);
    assert_int_equal(rp_cost_price_cost_nusd(x, 0, 0, 1000000, 0), 300000000);
    assert_int_equal(rp_cost_price_cost_nusd(x, 0, 0, 0, 1000000), 3750000000);
    /* A config entry without a source (stateless callers) says "config". */
    p = build("{\"acme-y\":{\"input\":1,\"output\":1}}");
    assert_string_equal(rp_cost_pricing_find(p, "acme-y")->source, "config");
}

static void test_config_replaces_a_shipped_model_in_place(void **unused)
{
    (void)unused;
    size_t n_shipped, n;
    const rp_cost_price *shipped = rp_cost_pricing_entries(build(NULL), &n_shipped);
    assert_true(n_shipped > 2);
    /* Whatever the second shipped model is, written upper case with its dots as dashes. */
    char key[300];
    snprintf(key, sizeof key, "%s", shipped[1].model);
    for (char *c = key; *c; c++)
        *c = *c == '.' ? '-' : (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
    char json[600];
    snprintf(json, sizeof json,
             "{\"%s\":{\"input\":0.5,\"output\":0.75,\"cache_read\":0,\"cache_write\":0.5}}", key);
    rp_cost_pricing *p = build(json);
    const rp_cost_price *e = rp_cost_pricing_entries(p, &n);
    assert_int_equal(n, n_shipped);
    assert_string_equal(e[1].model, shipped[1].model);
    assert_true(e[1].from_config && e[1].replaced_shipped);
    assert_true(e[1].input == 0.5 && e[1].output == 0.75 && e[1].cache_read == 0);
    assert_null(e[1].recorded);
    assert_ptr_equal(rp_cost_pricing_find(p, shipped[1].model), &e[1]);
    assert_false(e[0].from_config);
}

static void test_config_first_spelling_wins(void **unused)
{
    (void)unused;
    /* The merged block lists the more specific file first; two spellings of one model: the
     * first one counts. */
    rp_cost_pricing *p = build("{\"acme-2.5\":{\"input\":1,\"output\":1},"
                               "\"ACME-2-5\":{\"input\":9,\"output\":9}}");
    const rp_cost_price *e = rp_cost_pricing_find(p, "acme-2-5");
    assert_non_null(e);
    assert_string_equal(e->model, "acme-2.5");
    assert_true(e->input == 1);
}

static void test_build_rejects_malformed_overrides(void **unused)
{
    (void)unused;
    static const char *const cases[][2] = {
        {"{\"acme\":{\"input\":-1,\"output\":1}}", "pricing.acme.input: must be a number >= 0"},
        {"{\"acme\":{\"output\":1}}", "pricing.acme.input: missing"},
        {"{\"acme\":{\"input\":1}}", "pricing.acme.output: missing"},
        {"{\"acme\":{\"input\":1,\"output\":true}}", "pricing.acme.output: must be a number"},
        {"{\"acme\":{\"input\":1,\"output\":1,\"cache\":1}}",
         "pricing.acme.cache: unknown price field"},
        {"{\"acme\":5}", "pricing.acme: must be a mapping"},
        {"{\"\":{\"input\":1,\"output\":1}}", "pricing.: a model id must be"},
        {"[1]", "pricing: must be a mapping"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[512] = "";
        assert_null(rp_cost_pricing_build(&A, parse(cases[i][0]), err, sizeof err));
        if (!strstr(err, cases[i][1]))
            fail_msg("%s: got '%s', expected '%s'", cases[i][0], err, cases[i][1]);
    }
}

static void test_entry_check(void **unused)
{
    (void)unused;
    const char *field = "x";
    char err[200];
    assert_int_equal(rp_cost_price_entry_check(parse("{\"input\":0,\"output\":0.5,\"cache_read\":0,"
                                                     "\"cache_write\":1e3}"),
                                               &field, err, sizeof err),
                     0);
    assert_null(field);
    assert_int_equal(
        rp_cost_price_entry_check(parse("{\"input\":1,\"output\":2e6}"), &field, err, sizeof err),
        -1);
    assert_string_equal(field, "output");
    assert_string_equal(err, "must be a number >= 0 (USD per 1M tokens)");
    assert_int_equal(rp_cost_price_entry_check(parse("\"cheap\""), &field, err, sizeof err), -1);
    assert_null(field);
    assert_int_equal(rp_cost_price_field_check("cache_read", parse("\"0.1\""), err, sizeof err),
                     -1);
    assert_int_equal(rp_cost_price_field_check("cache_write", parse("0.1"), err, sizeof err), 0);
    assert_int_equal(rp_cost_price_field_check("cached", parse("0.1"), err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown price field (known: input, output, cache_read, "
                                "cache_write)"));
}

/* ---- cost ---- */

static rp_cost_price price(double in, double out, double cr, double cw)
{
    rp_cost_price p = {
        .model = "t", .input = in, .output = out, .cache_read = cr, .cache_write = cw};
    return p;
}

static void test_cost_is_exact(void **unused)
{
    (void)unused;
    rp_cost_price p = price(3, 15, 0.3, 3.75);
    /* 1000 × $3/1M + 500 × $15/1M = $0.003 + $0.0075 */
    assert_int_equal(rp_cost_price_cost_nusd(&p, 1000, 500, 0, 0), 10500000);
    assert_int_equal(rp_cost_price_cost_nusd(&p, 0, 0, 1000, 1000), 300000 + 3750000);
    assert_int_equal(rp_cost_price_cost_nusd(&p, 0, 0, 0, 0), 0);
    /* Prices that are not exact in binary still give exact money. */
    rp_cost_price q = price(0.075, 0.3, 0.0375, 0.1);
    assert_int_equal(rp_cost_price_cost_nusd(&q, 1000000000, 0, 0, 0), 75000000000);
    assert_int_equal(rp_cost_price_cost_nusd(&q, 0, 0, 1000000000, 0), 37500000000);
    /* 75 + 300 + 37.5 + 100 nUSD: one rounding of the sum, 512.5 → 513. */
    assert_int_equal(rp_cost_price_cost_nusd(&q, 1, 1, 1, 1), 513);
    /* 1e9 tokens at $75 is $75,000 to the nano-dollar. */
    rp_cost_price opus = price(15, 75, 1.5, 18.75);
    assert_int_equal(rp_cost_price_cost_nusd(&opus, 0, 1000000000, 0, 0), 75000LL * 1000000000LL);
    assert_int_equal(rp_cost_price_cost_nusd(&opus, 1000000000, 1000000000, 1000000000, 1000000000),
                     (15000LL + 75000 + 1500 + 18750) * 1000000000LL);
}

static void test_cost_rounds_to_nearest_once(void **unused)
{
    (void)unused;
    /* $0.0001 per 1M tokens = 0.1 nUSD per token. */
    rp_cost_price p = price(0.0001, 0.0001, 0, 0);
    assert_int_equal(rp_cost_price_cost_nusd(&p, 4, 0, 0, 0), 0);
    assert_int_equal(rp_cost_price_cost_nusd(&p, 5, 0, 0, 0), 1);
    /* Rounded once over the sum, not per component: 3 + 3 tokens = 0.6 → 1. */
    assert_int_equal(rp_cost_price_cost_nusd(&p, 3, 3, 0, 0), 1);
    assert_int_equal(rp_cost_price_cost_nusd(&p, 14, 0, 0, 0), 1);
    assert_int_equal(rp_cost_price_cost_nusd(&p, 15, 0, 0, 0), 2);
    assert_int_equal(rp_cost_price_cost_nusd(&p, -5, 0, 0, 0), -1);
}

static void test_cost_saturates(void **unused)
{
    (void)unused;
    rp_cost_price p = price(75, 75, 75, 75);
    assert_int_equal(rp_cost_price_cost_nusd(&p, INT64_MAX, 0, 0, 0), INT64_MAX);
    assert_int_equal(rp_cost_price_cost_nusd(&p, INT64_MAX / 2, INT64_MAX / 2, 0, 0), INT64_MAX);
    assert_int_equal(rp_cost_price_cost_nusd(&p, INT64_MIN, 0, 0, 0), INT64_MIN);
    /* Just under the int64 limit of the exact sum: still exact. 1e17 pUSD = 1e14 nUSD. */
    rp_cost_price one = price(1, 0, 0, 0);
    assert_int_equal(rp_cost_price_cost_nusd(&one, 100000000000, 0, 0, 0), 100000000000000);
    /* A hand-made price that is not a number costs nothing rather than anything at all. */
    rp_cost_price nan = price(NAN, 1e300, -1e300, 0); /* clamped to ±$1,000,000 per 1M tokens */
    assert_int_equal(rp_cost_price_cost_nusd(&nan, 1, 0, 0, 0), 0);
    assert_int_equal(rp_cost_price_cost_nusd(&nan, 0, 1, 0, 0), 1000000000);
    assert_int_equal(rp_cost_price_cost_nusd(&nan, 0, 0, 1, 0), -1000000000);
    assert_int_equal(rp_cost_price_cost_nusd(NULL, 1, 1, 1, 1), 0);
}

/* ---- dates ---- */

static void test_dates(void **unused)
{
    (void)unused;
    int64_t d;
    assert_int_equal(rp_cost_pricing_date_days("1970-01-01", &d), 0);
    assert_int_equal(d, 0);
    assert_int_equal(rp_cost_pricing_date_days("2026-12-02", &d), 0);
    assert_int_equal(d, 20789);
    assert_int_equal(rp_cost_pricing_date_days("2024-02-29", &d), 0);
    assert_int_equal(rp_cost_pricing_date_days("2000-02-29", NULL), 0);
    static const char *const bad[] = {"2026-02-29",
                                      "1900-02-29",
                                      "2026-13-01",
                                      "2026-00-10",
                                      "2026-04-31",
                                      "2026-1-01",
                                      "2026/01/01",
                                      "20260101",
                                      "1969-12-31",
                                      "2026-01-01x",
                                      ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (rp_cost_pricing_date_days(bad[i], &d) == 0)
            fail_msg("'%s' accepted", bad[i]);
    }
    assert_int_equal(rp_cost_pricing_date_days(NULL, &d), -1);
}

/* ---- the config's pricing: block ---- */

static rp_config *C;

static int teardown_config(void **state)
{
    rp_config_free(C);
    C = NULL;
    return teardown(state);
}

static const char *diag(size_t i)
{
    static char out[600];
    assert_true(i < C->n_diags);
    rp_buf b = {0};
    rp_diag_format(&C->diags[i], &b);
    snprintf(out, sizeof out, "%s", b.data);
    rp_buf_free(&b);
    return out;
}

static void load(const char *yaml)
{
    rp_config_free(C);
    C = rp_config_load_string("t.yaml", yaml, strlen(yaml), RP_LEVEL_EXPLICIT);
}

static void test_config_block_valid(void **unused)
{
    (void)unused;
    load("pricing:\n"
         "  acme-1: {input: 1, output: 2.5, cache_read: 0.1}\n"
         "  \"acme-2.0\":\n"
         "    input: 0\n"
         "    output: 0\n"
         "    cache_write: 0\n");
    assert_int_equal(C->n_diags, 0);
    assert_non_null(C->pricing);
    assert_int_equal(C->pricing->len, 2);
    assert_string_equal(rp_json_get_str(rp_json_get(C->pricing, "acme-1"), "source"),
                        "config: t.yaml");
    rp_cost_pricing *p = build(NULL);
    char err[256];
    p = rp_cost_pricing_build(&A, C->pricing, err, sizeof err);
    assert_non_null(p);
    const rp_cost_price *e = rp_cost_pricing_find(p, "acme-1-20250101");
    assert_non_null(e);
    assert_true(e->input == 1 && e->output == 2.5 && e->cache_read > 0.0999 &&
                e->cache_read < 0.1001 && e->cache_write == 1.25);
    assert_string_equal(e->source, "config: t.yaml");
    assert_true(rp_cost_pricing_find(p, "acme-2-0")->cache_write == 0);
}

static void test_config_block_errors(void **unused)
{
    (void)unused;
    load("pricing:\n"
         "  acme-1: {input: -1, output: cheap, bogus: 3}\n"
         "  acme-2: 5\n"
         "  acme-3: {output: 1, cache_read: [1]}\n"
         "  acme-4: {input: 1, output: 1}\n");
    if (C->n_errors != 6) {
        for (size_t i = 0; i < C->n_diags; i++)
            fprintf(stderr, "  diag %zu: %s\n", i, diag(i));
    }
    assert_int_equal(C->n_errors, 6);
    assert_string_equal(diag(0), "t.yaml:2:19: key 'pricing.acme-1.input': must be a number >= 0 "
                                 "(USD per 1M tokens), got -1");
    assert_string_equal(diag(1), "t.yaml:2:31: key 'pricing.acme-1.output': must be a number >= "
                                 "0 (USD per 1M tokens), got 'cheap'");
    assert_string_equal(diag(2), "t.yaml:2:38: key 'pricing.acme-1.bogus': unknown price field "
                                 "(known: input, output, cache_read, cache_write)");
    assert_string_equal(diag(3), "t.yaml:3:11: key 'pricing.acme-2': must be a mapping with input "
                                 "and output prices (USD per 1M tokens), got 5");
    assert_string_equal(diag(4), "t.yaml:4:35: key 'pricing.acme-3.cache_read': must be a number "
                                 ">= 0 (USD per 1M tokens), got a list");
    assert_string_equal(diag(5), "t.yaml:4:3: key 'pricing.acme-3.input': missing: give the price "
                                 "in USD per 1M input tokens");
    /* The valid entry is still merged; the broken ones are not. */
    assert_non_null(rp_json_get(C->pricing, "acme-4"));
    assert_null(rp_json_get(C->pricing, "acme-1"));
}

static void test_config_block_shape(void **unused)
{
    (void)unused;
    load("pricing: [acme]\n");
    assert_int_equal(C->n_errors, 1);
    assert_non_null(strstr(diag(0), "t.yaml:1:10: key 'pricing': must be a mapping"));
    load("pricing:\n  1.5: {input: 1, output: 1}\n");
    assert_int_equal(C->n_errors, 1);
    assert_non_null(strstr(diag(0), "t.yaml:2:3: a model id must be a non-empty string"));
    load("pricing:\n  \"  \": {input: 1, output: 1}\n");
    assert_int_equal(C->n_errors, 1);
    assert_string_equal(diag(0), "t.yaml:2:3: key 'pricing': a model id must have 1 to 255 "
                                 "characters, got '  '");
    char longkey[600];
    snprintf(longkey, sizeof longkey, "pricing:\n  %0300d: {input: 1, output: 1}\n", 7);
    longkey[11] = 'a'; /* a string key of 300 characters */
    load(longkey);
    assert_int_equal(C->n_errors, 1);
    assert_non_null(strstr(diag(0), "a model id must have 1 to 255 characters"));
    load("pricing:\n");
    assert_int_equal(C->n_errors, 0);
    assert_null(C->pricing);
    /* A project file may not set prices (it would let a repository make spend look cheap). */
    rp_config_free(C);
    const char *yaml = "pricing:\n  acme: {input: 1, output: 1}\n";
    C = rp_config_load_string("p.yaml", yaml, strlen(yaml), RP_LEVEL_PROJECT);
    assert_int_equal(C->n_errors, 0);
    assert_true(C->n_diags == 1 && C->diags[0].warning);
    assert_null(C->pricing);
}

static void test_config_stack_more_specific_file_wins(void **unused)
{
    (void)unused;
    char dir[] = "/tmp/rp-pricing-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char user[64], sys[64];
    snprintf(user, sizeof user, "%s/user.yaml", dir);
    snprintf(sys, sizeof sys, "%s/system.yaml", dir);
    FILE *f = fopen(user, "w");
    fputs("pricing:\n  acme: {input: 1, output: 2}\n", f);
    fclose(f);
    f = fopen(sys, "w");
    fputs("pricing:\n  acme: {input: 7, output: 7}\n  acme-sys: {input: 3, output: 4}\n", f);
    fclose(f);
    rp_config_file files[2] = {{user, RP_LEVEL_USER}, {sys, RP_LEVEL_SYSTEM}};
    rp_config_free(C);
    C = rp_config_load(files, 2);
    assert_int_equal(C->n_errors, 0);
    char err[256];
    rp_cost_pricing *p = rp_cost_pricing_build(&A, C->pricing, err, sizeof err);
    assert_non_null(p);
    const rp_cost_price *e = rp_cost_pricing_find(p, "acme");
    assert_true(e->input == 1 && e->output == 2);
    assert_non_null(strstr(e->source, "user.yaml"));
    assert_non_null(strstr(rp_cost_pricing_find(p, "acme-sys")->source, "system.yaml"));
    unlink(user);
    unlink(sys);
    rmdir(dir);
}

/* ---- cost of building the table (it runs in every fresh hook process) ---- */

static void test_build_is_cheap(void **unused)
{
    (void)unused;
    enum { N = 200 };
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < N; i++) {
        rp_arena a;
        rp_arena_init(&a, 64 * 1024);
        char err[256];
        assert_non_null(rp_cost_pricing_build(&a, NULL, err, sizeof err));
        rp_arena_free(&a);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double us =
        ((double)(t1.tv_sec - t0.tv_sec) * 1e6 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e3) / N;
    fprintf(stderr, "  rp_cost_pricing_build: %.1f µs per build\n", us);
    /* Generous (sanitizer builds are ~10× slower); catches an accidental quadratic build. */
    assert_true(us < 5000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_shipped_file_is_valid, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shipped_bytes_match_the_source_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shipped_covers_the_named_models, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lookup_spellings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lookup_never_guesses, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prefixed_override_covers_dated_spellings, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_config_adds_models_after_the_shipped_ones, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_config_replaces_a_shipped_model_in_place, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_config_first_spelling_wins, setup, teardown),
        cmocka_unit_test_setup_teardown(test_build_rejects_malformed_overrides, setup, teardown),
        cmocka_unit_test_setup_teardown(test_entry_check, setup, teardown),
        cmocka_unit_test(test_cost_is_exact),
        cmocka_unit_test(test_cost_rounds_to_nearest_once),
        cmocka_unit_test(test_cost_saturates),
        cmocka_unit_test(test_dates),
        cmocka_unit_test_setup_teardown(test_config_block_valid, setup, teardown_config),
        cmocka_unit_test_setup_teardown(test_config_block_errors, setup, teardown_config),
        cmocka_unit_test_setup_teardown(test_config_block_shape, setup, teardown_config),
        cmocka_unit_test_setup_teardown(test_config_stack_more_specific_file_wins, setup,
                                        teardown_config),
        cmocka_unit_test(test_build_is_cheap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
