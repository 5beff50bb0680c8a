/* test_policy_user_period_cost_budget.c — the per-user budget over a UTC window (issue 6, from
 * the seed): validation, the evaluation order (no owner → abstain; unpriced → ASK; zero spend →
 * abstain; hard limit; checkpoints), the period's words in the texts, a context block for
 * another period, and the config rule of one per-user budget over the whole stack of files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "config/config.h"
#include "policies/builtins.h"
#include "policy_test_util.h"

#define T (&rp_policy_user_period_cost_budget)

#define EM_DASH "\xe2\x80\x94"
#define SET_PERIOD(v)                                                                              \
    "[{\"key\":\"_policy_user_period_ask_approved_usd\",\"action\":\"set\",\"value\":" v "}]"
#define UNPRICED                                                                                   \
    "The active model has no catalog pricing so cumulative spend cannot be tracked. Continuing "   \
    "will allow untracked spend that counts against neither the cap nor the warning thresholds. "  \
    "Switch to a priced model to restore budget enforcement, or approve to continue without it."
#define SET_UNPRICED                                                                               \
    "[{\"key\":\"_policy_cost_unpriced_approved\",\"action\":\"set\",\"value\":true}]"

#define EV(type, block, extra)                                                                     \
    "{\"type\":\"" type "\",\"context\":{\"user_period_cost\":" block extra "},"                   \
    "\"session_state\":{}}"
#define MONTHLY                                                                                    \
    "{\"period\": \"month\", \"max_cost_usd\": 20.0, \"ask_thresholds_usd\": [10.0, 15.0], "       \
    "\"expensive_models\": [\"opus\"]}"

static void expect_create_error(const char *params, const char *param, const char *message)
{
    pt_policy p;
    pt_create(&p, T, params);
    assert_int_equal(p.create_rc, -1);
    assert_string_equal(p.err.param, param);
    assert_string_equal(p.err.message, message);
    pt_policy_free(&p);
}

static void test_validation(void **unused)
{
    (void)unused;
    assert_true(pt_param(T, "period")->required);
    assert_true(pt_param(T, "max_cost_usd")->required);
    assert_non_null(pt_param(T, "period")->enum_values);
    expect_create_error("{\"period\": \"fortnight\", \"max_cost_usd\": 5}", "period",
                        "period must be one of day, week, month, quarter, year");
    expect_create_error("{\"period\": \"week\", \"max_cost_usd\": 0}", "max_cost_usd",
                        "max_cost_usd must be > 0, got 0");
    expect_create_error("{\"period\": \"week\", \"max_cost_usd\": 5, \"ask_thresholds_usd\": [6]}",
                        "ask_thresholds_usd",
                        "each ask_thresholds_usd value must be in (0, max_cost_usd=5), got 6.0");
    expect_create_error("{\"period\": \"year\", \"max_cost_usd\": 5, \"expensive_models\": [1]}",
                        "expensive_models",
                        "each expensive_models value must be a non-empty string, got 1");
    pt_policy p;
    pt_create(&p, T, "{\"period\": \"QUARTER\", \"max_cost_usd\": 5}"); /* canonicalised */
    assert_int_equal(p.create_rc, 0);
    pt_policy_free(&p);
}

static void test_order(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, MONTHLY);
    /* non-gated phases ALLOW, like the daily policy */
    PT_EXPECT(&p, EV("tool_result", "{\"cost_usd\": 30, \"user_id\": \"alice\"}", ""), RP_ALLOW,
              NULL, NULL);
    /* no owner at all: abstain, even over the limit and with unpriced usage */
    PT_EXPECT(&p, EV("tool_call", "{\"cost_usd\": 30}", ",\"usage\":{\"input_tokens\":5}"),
              RP_ABSTAIN, NULL, NULL);
    /* an owner and unpriced usage: the daily policy's ASK */
    PT_EXPECT(&p,
              EV("tool_call", "{\"cost_usd\": 0.0, \"user_id\": \"alice\"}",
                 ",\"usage\":{\"input_tokens\":5}"),
              RP_ASK, UNPRICED, SET_UNPRICED);
    PT_EXPECT(&p,
              EV("tool_call", "{\"cost_usd\": 3, \"user_id\": \"alice\"}",
                 ",\"usage\":{\"total_cost_usd\":3,\"unpriced_tokens\":1}"),
              RP_ASK, UNPRICED, SET_UNPRICED);
    /* zero window spend: abstain (the seed's rule) */
    PT_EXPECT(&p, EV("tool_call", "{\"cost_usd\": 0.0, \"user_id\": \"alice\"}", ""), RP_ABSTAIN,
              NULL, NULL);
    PT_EXPECT(&p, EV("tool_call", "{\"user_id\": \"alice\"}", ""), RP_ABSTAIN, NULL, NULL);
    PT_EXPECT(&p, EV("tool_call", "{\"cost_usd\": 1, \"user_id\": \"alice\"}", ""), RP_ALLOW, NULL,
              NULL);
    pt_policy_free(&p);
}

static void test_monthly_texts(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, MONTHLY);
    /* issue 6's example */
    PT_EXPECT(&p,
              EV("request",
                 "{\"cost_usd\": 12.0, \"ask_approved_usd\": 0.0, \"user_id\": \"alice\", "
                 "\"period\": \"month\", \"window_start\": \"2026-03-01\"}",
                 ""),
              RP_ASK,
              "alice's spend this month $12.00 passed the $10.00 monthly warning threshold "
              "(monthly limit $20.00). Continue?",
              SET_PERIOD("10.0"));
    PT_EXPECT(
        &p,
        EV("request", "{\"cost_usd\": 12.0, \"ask_approved_usd\": 10, \"user_id\": \"alice\"}", ""),
        RP_ALLOW, NULL, NULL);
    PT_EXPECT(
        &p,
        EV("request", "{\"cost_usd\": 16.0, \"ask_approved_usd\": 10, \"user_id\": \"alice\"}", ""),
        RP_ASK,
        "alice's spend this month $16.00 passed the $15.00 monthly warning threshold "
        "(monthly limit $20.00). Continue?",
        SET_PERIOD("15.0"));
    /* no user_id in the block: the owner is the event's (context.user / actor.run_as) */
    PT_EXPECT(&p,
              "{\"type\":\"request\",\"context\":{\"user\":\"bob\",\"user_period_cost\":"
              "{\"cost_usd\":11}},\"session_state\":{}}",
              RP_ASK,
              "bob's spend this month $11.00 passed the $10.00 monthly warning threshold (monthly "
              "limit $20.00). Continue?",
              SET_PERIOD("10.0"));
    PT_EXPECT(&p,
              "{\"type\":\"tool_call\",\"context\":{\"actor\":{\"run_as\":\"carol@x.org\"},"
              "\"model\":\"claude-opus-4-5\",\"user_period_cost\":{\"cost_usd\":20}},"
              "\"session_state\":{}}",
              RP_DENY,
              "Blocked by the per-user monthly cost-budget policy: carol@x.org's spend $20.00 "
              "reached the $20.00 limit, and tool calls are blocked while on a high-cost model. "
              "Relay this to the user verbatim, then stop and wait for them " EM_DASH " do not "
              "silently re-run the tool right now: \"You've hit the $20.00 monthly cost budget. "
              "High-cost models (opus) are blocked over budget " EM_DASH " switch to a cheaper "
              "model to continue.\" This block is NOT permanent: once the user switches to a "
              "cheaper model and asks you to continue, actually re-issue the tool call (it will be "
              "allowed) " EM_DASH " do not just repeat this message.",
              NULL);
    PT_EXPECT(
        &p, EV("tool_call", "{\"cost_usd\": 25, \"user_id\": \"alice\"}", ",\"model\":\"sonnet\""),
        RP_ALLOW, NULL, NULL);
    /* unpriced approved: the window's priced spend still meets the cap */
    PT_EXPECT(
        &p,
        "{\"type\":\"request\",\"context\":{\"usage\":{\"input_tokens\":5},\"model\":\"opus\","
        "\"user_period_cost\":{\"cost_usd\":25,\"user_id\":\"alice\"}},"
        "\"session_state\":{\"_policy_cost_unpriced_approved\":true}}",
        RP_DENY,
        "Blocked by the per-user monthly cost-budget policy: alice's spend $25.00 reached "
        "the $20.00 limit. You've hit the $20.00 monthly cost budget. High-cost models "
        "(opus) are blocked over budget " EM_DASH " switch to a cheaper model to continue.",
        NULL);
    pt_policy_free(&p);
}

static void test_other_periods(void **unused)
{
    (void)unused;
    static const struct {
        const char *period, *reason;
    } cases[] = {
        {"day", "alice's spend today $3.00 passed the $2.00 daily warning threshold (daily limit "
                "$5.00). Continue?"},
        {"week", "alice's spend this week $3.00 passed the $2.00 weekly warning threshold "
                 "(weekly limit $5.00). Continue?"},
        {"quarter", "alice's spend this quarter $3.00 passed the $2.00 quarterly warning "
                    "threshold (quarterly limit $5.00). Continue?"},
        {"year", "alice's spend this year $3.00 passed the $2.00 yearly warning threshold "
                 "(yearly limit $5.00). Continue?"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char params[128], event[256];
        pt_policy p;
        snprintf(params, sizeof params,
                 "{\"period\": \"%s\", \"max_cost_usd\": 5, \"ask_thresholds_usd\": [2]}",
                 cases[i].period);
        snprintf(event, sizeof event,
                 "{\"type\":\"request\",\"context\":{\"user_period_cost\":{\"cost_usd\":3,"
                 "\"user_id\":\"alice\",\"period\":\"%s\"}}}",
                 cases[i].period);
        pt_create(&p, T, params);
        assert_int_equal(p.create_rc, 0);
        PT_EXPECT(&p, event, RP_ASK, cases[i].reason, SET_PERIOD("2.0"));
        pt_policy_free(&p);
    }
    pt_policy p;
    pt_create(&p, T, "{\"period\": \"week\", \"max_cost_usd\": 5}");
    PT_EXPECT(&p,
              "{\"type\":\"request\",\"context\":{\"model\":\"x\",\"user_period_cost\":"
              "{\"cost_usd\":9,\"user_id\":\"al\"}}}",
              RP_DENY,
              "Blocked by the per-user weekly cost-budget policy: al's spend $9.00 reached the "
              "$5.00 limit. You've hit the $5.00 weekly cost budget. All model calls are blocked "
              "over budget.",
              NULL);
    pt_policy_free(&p);
}

/* A block summed over another window is a caller bug: ignored (abstain), with a note. */
static void test_period_mismatch(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_eval e;
    pt_create(&p, T, MONTHLY);
    pt_eval_event(&e, &p,
                  EV("tool_call", "{\"cost_usd\": 50, \"user_id\": \"alice\", \"period\": \"day\"}",
                     ",\"model\":\"opus\""));
    assert_int_equal(e.rc, 0);
    assert_int_equal(e.result.verdict, RP_ABSTAIN);
    assert_non_null(e.result.note);
    assert_non_null(strstr(e.result.note, "'month'"));
    pt_eval_free(&e);
    pt_eval_event(&e, &p,
                  EV("tool_call", "{\"cost_usd\": 50, \"user_id\": \"alice\", \"period\": 3}",
                     ",\"model\":\"opus\""));
    assert_int_equal(e.result.verdict, RP_ABSTAIN);
    assert_non_null(e.result.note);
    pt_eval_free(&e);
    /* the matching period applies */
    pt_eval_event(&e, &p,
                  EV("tool_call",
                     "{\"cost_usd\": 50, \"user_id\": \"alice\", \"period\": \"month\"}",
                     ",\"model\":\"opus\""));
    assert_int_equal(e.result.verdict, RP_DENY);
    assert_null(e.result.note);
    pt_eval_free(&e);
    pt_policy_free(&p);
}

/* ---- the config rule over a stack of files ---- */

static const char *write_temp(char *path, size_t size, const char *text)
{
    snprintf(path, size, "/tmp/rampart-test-period-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t len = strlen(text);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
    return path;
}

/* Loads two files as one stack; returns the config (caller frees). */
static rp_config *load_two(const char *a_text, const char *b_text, char *a_path, char *b_path)
{
    rp_config_file files[2] = {
        {write_temp(a_path, 64, a_text), RP_LEVEL_SYSTEM},
        {write_temp(b_path, 64, b_text), RP_LEVEL_USER},
    };
    return rp_config_load(files, 2);
}

static const rp_diag *first_error(const rp_config *cfg)
{
    for (size_t i = 0; i < cfg->n_diags; i++)
        if (!cfg->diags[i].warning)
            return &cfg->diags[i];
    return NULL;
}

#define MONTHLY_YAML                                                                               \
    "policies:\n"                                                                                  \
    "  monthly_budget:\n"                                                                          \
    "    handler: user_period_cost_budget\n"                                                       \
    "    factory_params: {period: month, max_cost_usd: 500.0}\n"
#define DAILY_YAML                                                                                 \
    "policies:\n"                                                                                  \
    "  other: {handler: detect_loop}\n"                                                            \
    "  daily_budget:\n"                                                                            \
    "    handler: omnigent.policies.builtins.cost.user_daily_cost_budget\n"                        \
    "    factory_params: {max_cost_usd: 100.0}\n"
#define WEEKLY_YAML                                                                                \
    "policies:\n"                                                                                  \
    "  weekly_budget:\n"                                                                           \
    "    handler: user_period_cost_budget\n"                                                       \
    "    factory_params: {period: week, max_cost_usd: 50.0}\n"

static void test_config_one_per_stack(void **unused)
{
    (void)unused;
    char a[64], b[64];
    char where[160];

    /* a daily in one file, a monthly in another: refused, naming both, suggesting period: day */
    rp_config *cfg = load_two(DAILY_YAML, MONTHLY_YAML, a, b);
    const rp_diag *d = first_error(cfg);
    assert_int_equal(cfg->n_errors, 1);
    assert_non_null(d);
    assert_string_equal(d->file, b);
    assert_int_equal(d->line, 2);
    assert_string_equal(d->policy, "monthly_budget");
    snprintf(where, sizeof where, "'daily_budget' at %s:3", a);
    assert_non_null(strstr(d->message, where));
    snprintf(where, sizeof where, "'monthly_budget' at %s:2", b);
    assert_non_null(strstr(d->message, where));
    assert_non_null(strstr(d->message, "period: day"));
    rp_config_free(cfg);
    unlink(a);
    unlink(b);

    /* the same the other way round */
    cfg = load_two(MONTHLY_YAML, DAILY_YAML, a, b);
    d = first_error(cfg);
    assert_int_equal(cfg->n_errors, 1);
    assert_string_equal(d->file, b);
    assert_int_equal(d->line, 3);
    assert_non_null(strstr(d->message, "period: day"));
    rp_config_free(cfg);
    unlink(a);
    unlink(b);

    /* two period budgets (weekly + monthly) in two files */
    cfg = load_two(WEEKLY_YAML, MONTHLY_YAML, a, b);
    d = first_error(cfg);
    assert_int_equal(cfg->n_errors, 1);
    assert_string_equal(d->file, b);
    assert_string_equal(d->policy, "monthly_budget");
    snprintf(where, sizeof where, "'weekly_budget' is already declared at %s:2", a);
    assert_non_null(strstr(d->message, where));
    assert_non_null(strstr(d->message, "only one user_period_cost_budget"));
    rp_config_free(cfg);
    unlink(a);
    unlink(b);

    /* one of them, with other policies, loads */
    cfg = load_two(DAILY_YAML, "policies:\n  loop: {handler: detect_loop}\n", a, b);
    assert_int_equal(cfg->n_errors, 0);
    rp_config_free(cfg);
    unlink(a);
    unlink(b);
    cfg = load_two("policies: {}\n", MONTHLY_YAML, a, b);
    assert_int_equal(cfg->n_errors, 0);
    rp_config_free(cfg);
    unlink(a);
    unlink(b);

    /* within one file too */
    const char *both = MONTHLY_YAML "  weekly:\n    handler: user_period_cost_budget\n"
                                    "    factory_params: {period: week, max_cost_usd: 5}\n";
    cfg = rp_config_load_string("one.yaml", both, strlen(both), RP_LEVEL_USER);
    assert_int_equal(cfg->n_errors, 1);
    assert_string_equal(first_error(cfg)->file, "one.yaml");
    assert_int_equal(first_error(cfg)->line, 5);
    rp_config_free(cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_validation),      cmocka_unit_test(test_order),
        cmocka_unit_test(test_monthly_texts),   cmocka_unit_test(test_other_periods),
        cmocka_unit_test(test_period_mismatch), cmocka_unit_test(test_config_one_per_stack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
