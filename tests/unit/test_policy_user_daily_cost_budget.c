/* test_policy_user_daily_cost_budget.c — the owner's daily budget (reference §5.9): max is
 * required, spend and approval come from context.user_daily_cost, owner naming, the unpriced
 * check on context.usage with rampart's mixed-tree fix. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "policies/builtins.h"
#include "policy_test_util.h"

#define T (&rp_policy_user_daily_cost_budget)

#define EM_DASH "\xe2\x80\x94"
#define SET_DAILY(v)                                                                               \
    "[{\"key\":\"_policy_user_daily_ask_approved_usd\",\"action\":\"set\",\"value\":" v "}]"
#define SET_UNPRICED                                                                               \
    "[{\"key\":\"_policy_cost_unpriced_approved\",\"action\":\"set\",\"value\":true}]"

#define EV(type, daily, model, extra)                                                              \
    "{\"type\":\"" type "\",\"context\":{\"user_daily_cost\":" daily ",\"model\":" model extra     \
    "},\"session_state\":{}}"

static void test_validation(void **unused)
{
    (void)unused;
    pt_policy p;
    assert_true(pt_param(T, "max_cost_usd")->required);
    pt_create(&p, T, "{\"max_cost_usd\": 0.0}");
    assert_int_equal(p.create_rc, -1);
    assert_string_equal(p.err.message, "max_cost_usd must be > 0, got 0.0");
    pt_policy_free(&p);
    pt_create(&p, T, "{\"max_cost_usd\": 5.0, \"ask_thresholds_usd\": [5.0]}");
    assert_int_equal(p.create_rc, -1);
    assert_string_equal(p.err.message,
                        "each ask_thresholds_usd value must be in (0, max_cost_usd=5.0), got 5.0");
    pt_policy_free(&p);
    pt_create(&p, T, "{\"max_cost_usd\": 5.0, \"expensive_models\": [\"\"]}");
    assert_int_equal(p.create_rc, -1);
    assert_string_equal(p.err.message,
                        "each expensive_models value must be a non-empty string, got ''");
    pt_policy_free(&p);
}

static void test_daily_gate(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T,
              "{\"max_cost_usd\": 10.0, \"ask_thresholds_usd\": [5.0], "
              "\"expensive_models\": [\"opus\"]}");
    PT_EXPECT(&p, EV("tool_call", "{}", "\"opus\"", ""), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, EV("response", "{\"cost_usd\": 99}", "\"opus\"", ""), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, EV("request", "{\"cost_usd\": 6.0, \"ask_approved_usd\": 0.0}", "null", ""),
              RP_ASK,
              "Today's spend $6.00 passed the $5.00 daily warning threshold (daily limit $10.00). "
              "Continue?",
              SET_DAILY("5.0"));
    PT_EXPECT(&p,
              EV("request",
                 "{\"cost_usd\": 6.0, \"ask_approved_usd\": 0.0, \"user_id\": \"alice\"}", "null",
                 ""),
              RP_ASK,
              "alice's spend today $6.00 passed the $5.00 daily warning threshold (daily limit "
              "$10.00). Continue?",
              SET_DAILY("5.0"));
    /* the approval comes from the context block, never from session state */
    PT_EXPECT(&p, EV("request", "{\"cost_usd\": 6.0, \"ask_approved_usd\": 5}", "null", ""),
              RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p,
              "{\"type\":\"request\",\"context\":{\"user_daily_cost\":{\"cost_usd\":6}},"
              "\"session_state\":{\"_policy_user_daily_ask_approved_usd\":5}}",
              RP_ASK,
              "Today's spend $6.00 passed the $5.00 daily warning threshold (daily limit $10.00). "
              "Continue?",
              SET_DAILY("5.0"));
    PT_EXPECT(&p,
              EV("tool_call", "{\"cost_usd\": 10.0, \"user_id\": \"alice@example.com\"}",
                 "\"claude-opus-4\"", ""),
              RP_DENY,
              "Blocked by the per-user daily cost-budget policy: alice@example.com's spend $10.00 "
              "reached the $10.00 limit, and tool calls are blocked while on a high-cost model. "
              "Relay this to the user verbatim, then stop and wait for them " EM_DASH " do not "
              "silently re-run the tool right now: \"You've hit the $10.00 daily cost budget. "
              "High-cost models (opus) are blocked over budget " EM_DASH " switch to a cheaper "
              "model to continue.\" This block is NOT permanent: once the user switches to a "
              "cheaper model and asks you to continue, actually re-issue the tool call (it will be "
              "allowed) " EM_DASH " do not just repeat this message.",
              NULL);
    PT_EXPECT(&p, EV("request", "{\"cost_usd\": 12.0}", "\"opus\"", ""), RP_DENY,
              "Blocked by the per-user daily cost-budget policy: spend $12.00 reached the $10.00 "
              "limit. You've hit the $10.00 daily cost budget. High-cost models (opus) are blocked "
              "over budget " EM_DASH " switch to a cheaper model to continue.",
              NULL);
    PT_EXPECT(&p, EV("request", "{\"cost_usd\": 12.0}", "\"haiku\"", ""), RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
}

static void test_unpriced(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"max_cost_usd\": 5.0}");
    const char *ask = "The active model has no catalog pricing so cumulative spend cannot be "
                      "tracked. Continuing will allow untracked spend that counts against neither "
                      "the cap nor the warning thresholds. Switch to a priced model to restore "
                      "budget enforcement, or approve to continue without it.";
    PT_EXPECT(&p,
              EV("tool_call", "{\"cost_usd\": 9}", "\"opus\"", ",\"usage\":{\"input_tokens\":4}"),
              RP_ASK, ask, SET_UNPRICED);
    /* mixed tree (issue 6) */
    PT_EXPECT(&p,
              EV("tool_call", "{\"cost_usd\": 1}", "\"opus\"",
                 ",\"usage\":{\"total_cost_usd\":1,\"unpriced_tokens\":7}"),
              RP_ASK, ask, SET_UNPRICED);
    /* approved, priced part present: the daily cap still applies */
    PT_EXPECT(
        &p,
        "{\"type\":\"tool_call\",\"context\":{\"user_daily_cost\":{\"cost_usd\":9},"
        "\"usage\":{\"total_cost_usd\":1,\"unpriced_tokens\":7},\"model\":\"opus\"},"
        "\"session_state\":{\"_policy_cost_unpriced_approved\":true}}",
        RP_DENY,
        "Blocked by the per-user daily cost-budget policy: spend $9.00 reached the $5.00 "
        "limit, and all further tool calls are blocked. Relay this to the user verbatim, "
        "then stop and wait for them " EM_DASH " do not silently re-run the tool right now: "
        "\"You've hit the $5.00 daily cost budget. All model calls are blocked over budget.\"",
        NULL);
    /* approved, nothing priced: the reference's ALLOW */
    PT_EXPECT(&p,
              "{\"type\":\"tool_call\",\"context\":{\"user_daily_cost\":{\"cost_usd\":9},"
              "\"usage\":{\"input_tokens\":7},\"model\":\"opus\"},"
              "\"session_state\":{\"_policy_cost_unpriced_approved\":true}}",
              RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_validation),
        cmocka_unit_test(test_daily_gate),
        cmocka_unit_test(test_unpriced),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
