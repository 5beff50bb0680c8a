/* test_policy_cost_budget.c — the session budget (reference §5.8): validation messages, phase
 * gating, the unpriced ASK and rampart's stricter mixed-tree check (issue 6), the hard cap with
 * its downgrade gate and texts, the soft checkpoints. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "policies/builtins.h"
#include "policy_test_util.h"

#define T (&rp_policy_cost_budget)

#define UNPRICED                                                                                   \
    "The active model has no catalog pricing so cumulative spend cannot be tracked. Continuing "   \
    "will allow untracked spend that counts against neither the cap nor the warning thresholds. "  \
    "Switch to a priced model to restore budget enforcement, or approve to continue without it."
#define SET_UNPRICED                                                                               \
    "[{\"key\":\"_policy_cost_unpriced_approved\",\"action\":\"set\",\"value\":true}]"
#define SET_APPROVED(v)                                                                            \
    "[{\"key\":\"_policy_cost_ask_approved_usd\",\"action\":\"set\",\"value\":" v "}]"

#define EV(type, usage, model, state)                                                              \
    "{\"type\":\"" type "\",\"target\":\"sys_os_shell\",\"context\":{\"usage\":" usage             \
    ",\"model\":" model "},\"session_state\":" state "}"
#define EVH(type, usage, model, harness)                                                           \
    "{\"type\":\"" type "\",\"context\":{\"usage\":" usage ",\"model\":" model                     \
    ",\"harness\":" harness "},\"session_state\":{}}"

#define EM_DASH "\xe2\x80\x94"

static void expect_create_error(const char *params, const char *message)
{
    pt_policy p;
    pt_create(&p, T, params);
    assert_int_equal(p.create_rc, -1);
    assert_string_equal(p.err.message, message);
    pt_policy_free(&p);
}

static void test_validation(void **unused)
{
    (void)unused;
    expect_create_error("{}", "cost_budget requires max_cost_usd and/or ask_thresholds_usd");
    expect_create_error("{\"ask_thresholds_usd\": []}",
                        "cost_budget requires max_cost_usd and/or ask_thresholds_usd");
    expect_create_error("{\"max_cost_usd\": 0.0}", "max_cost_usd must be > 0, got 0.0");
    expect_create_error("{\"max_cost_usd\": -1}", "max_cost_usd must be > 0, got -1");
    expect_create_error("{\"max_cost_usd\": 5.0, \"ask_thresholds_usd\": [0.0]}",
                        "each ask_thresholds_usd value must be in (0, max_cost_usd=5.0), got 0.0");
    /* thresholds are floats in the message, max as given */
    expect_create_error("{\"max_cost_usd\": 5, \"ask_thresholds_usd\": [1, 5]}",
                        "each ask_thresholds_usd value must be in (0, max_cost_usd=5), got 5.0");
    expect_create_error("{\"max_cost_usd\": 5.0, \"ask_thresholds_usd\": [true]}",
                        "each ask_thresholds_usd value must be a finite number, got True");
    expect_create_error("{\"max_cost_usd\": 5.0, \"expensive_models\": [\"\"]}",
                        "each expensive_models value must be a non-empty string, got ''");
    expect_create_error("{\"max_cost_usd\": 5.0, \"expensive_models\": [123]}",
                        "each expensive_models value must be a non-empty string, got 123");
    /* rampart: without a cap a threshold <= 0 would ask at zero spend; refused */
    expect_create_error("{\"ask_thresholds_usd\": [1.0, -2]}",
                        "each ask_thresholds_usd value must be > 0, got -2.0");

    pt_policy p;
    pt_create(&p, T, "{\"ask_thresholds_usd\": [3, 1.0, 3.0]}");
    assert_int_equal(p.create_rc, 0);
    pt_policy_free(&p);
}

static void test_phases(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"max_cost_usd\": 1.0, \"ask_thresholds_usd\": [0.5]}");
    /* other phases ALLOW (not abstain), whatever the spend */
    PT_EXPECT(&p, EV("tool_result", "{\"total_cost_usd\": 9.99}", "\"opus\"", "{}"), RP_ALLOW, NULL,
              NULL);
    PT_EXPECT(&p, EV("llm_response", "{\"total_cost_usd\": 9.99}", "\"opus\"", "{}"), RP_ALLOW,
              NULL, NULL);
    PT_EXPECT(&p, EV("response", "{\"input_tokens\": 9}", "\"opus\"", "{}"), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, EV("tool_call", "{}", "\"opus\"", "{}"), RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
}

static void test_unpriced(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"max_cost_usd\": 5.0, \"ask_thresholds_usd\": [1.0]}");
    PT_EXPECT(&p, EV("tool_call", "{\"input_tokens\": 1000}", "\"x\"", "{}"), RP_ASK, UNPRICED,
              SET_UNPRICED);
    PT_EXPECT(&p, EV("request", "{\"output_tokens\": 3}", "\"x\"", "{}"), RP_ASK, UNPRICED,
              SET_UNPRICED);
    /* approved: nothing priced, nothing to measure → ALLOW (reference) */
    PT_EXPECT(&p,
              EV("request", "{\"total_tokens\": 3}", "\"x\"",
                 "{\"_policy_cost_unpriced_approved\": true}"),
              RP_ALLOW, NULL, NULL);
    /* zero tokens is not unpriced; a priced zero is not either */
    PT_EXPECT(&p, EV("request", "{\"input_tokens\": 0, \"total_tokens\": 0}", "\"x\"", "{}"),
              RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, EV("request", "{\"input_tokens\": 10, \"total_cost_usd\": 0.0}", "\"x\"", "{}"),
              RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
}

/* Issue 6: a tree mixing priced and unpriced sessions has total_cost_usd AND unpriced_tokens;
 * the reference would see only the priced part. */
static void test_unpriced_mixed_tree(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"max_cost_usd\": 5.0, \"ask_thresholds_usd\": [1.0]}");
    PT_EXPECT(
        &p,
        EV("tool_call", "{\"total_cost_usd\": 0.5, \"unpriced_tokens\": 200}", "\"opus\"", "{}"),
        RP_ASK, UNPRICED, SET_UNPRICED);
    /* approved: the priced part still meets the checkpoints and the cap */
    PT_EXPECT(&p,
              EV("tool_call", "{\"total_cost_usd\": 0.5, \"unpriced_tokens\": 200}", "\"opus\"",
                 "{\"_policy_cost_unpriced_approved\": true}"),
              RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p,
              EV("tool_call", "{\"total_cost_usd\": 1.5, \"unpriced_tokens\": 200}", "\"opus\"",
                 "{\"_policy_cost_unpriced_approved\": true}"),
              RP_ASK,
              "Session cost $1.50 passed the $1.00 warning threshold (limit $5.00). Continue?",
              SET_APPROVED("1.0"));
    PT_EXPECT(&p,
              EV("request", "{\"total_cost_usd\": 6, \"unpriced_tokens\": 1}", "\"opus\"",
                 "{\"_policy_cost_unpriced_approved\": 1}"),
              RP_DENY,
              "Blocked by the session cost-budget policy: spend $6.00 reached the $5.00 limit. "
              "You've hit the $5.00 cost budget. All model calls are blocked over budget.",
              NULL);
    /* unpriced_tokens 0 (or not a number) is a fully priced tree */
    PT_EXPECT(
        &p, EV("tool_call", "{\"total_cost_usd\": 0.5, \"unpriced_tokens\": 0}", "\"opus\"", "{}"),
        RP_ALLOW, NULL, NULL);
    PT_EXPECT(
        &p,
        EV("tool_call", "{\"total_cost_usd\": 0.5, \"unpriced_tokens\": \"9\"}", "\"opus\"", "{}"),
        RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
}

static void test_hard_cap_block_all(void **unused)
{
    (void)unused;
    const char *tool_text =
        "Blocked by the session cost-budget policy: spend $6.00 reached the $5.00 limit, and all "
        "further tool calls are blocked. Relay this to the user verbatim, then stop and wait for "
        "them " EM_DASH " do not silently re-run the tool right now: \"You've hit the $5.00 cost "
        "budget. All model calls are blocked over budget.\"";
    pt_policy p;
    pt_create(&p, T, "{\"max_cost_usd\": 5.0, \"expensive_models\": []}");
    PT_EXPECT(&p, EV("tool_call", "{\"total_cost_usd\": 6.0}", "\"claude-sonnet-4-6\"", "{}"),
              RP_DENY, tool_text, NULL);
    PT_EXPECT(&p, EV("tool_call", "{\"total_cost_usd\": 6.0}", "null", "{}"), RP_DENY, tool_text,
              NULL);
    /* codex changes nothing when no tier is named */
    PT_EXPECT(&p, EVH("tool_call", "{\"total_cost_usd\": 6.0}", "\"gpt-5-mini\"", "\"codex\""),
              RP_DENY, tool_text, NULL);
    PT_EXPECT(&p, EV("tool_call", "{\"total_cost_usd\": 4.99}", "\"opus\"", "{}"), RP_ALLOW, NULL,
              NULL);
    /* a string cost converts as float() would; a malformed one counts as 0 */
    PT_EXPECT(&p, EV("tool_call", "{\"total_cost_usd\": \" 6 \"}", "\"opus\"", "{}"), RP_DENY,
              tool_text, NULL);
    PT_EXPECT(&p, EV("tool_call", "{\"total_cost_usd\": \"0x10\"}", "\"opus\"", "{}"), RP_ALLOW,
              NULL, NULL);
    pt_policy_free(&p);
}

static void test_hard_cap_downgrade_gate(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"max_cost_usd\": 5.0, \"expensive_models\": [\"Opus\", \"gpt-5\"]}");
    const char *request_text =
        "Blocked by the session cost-budget policy: spend $7.00 reached the $5.00 limit. You've "
        "hit the $5.00 cost budget. High-cost models (opus, gpt-5) are blocked over budget " EM_DASH
        " switch to a cheaper model to continue.";
    PT_EXPECT(&p, EV("request", "{\"total_cost_usd\": 7}", "\"databricks-claude-OPUS-4-8\"", "{}"),
              RP_DENY, request_text, NULL);
    PT_EXPECT(&p, EV("request", "{\"total_cost_usd\": 7}", "\"\"", "{}"), RP_DENY, request_text,
              NULL);
    PT_EXPECT(&p, EV("request", "{\"total_cost_usd\": 7}", "\"claude-sonnet-4-6\"", "{}"), RP_ALLOW,
              NULL, NULL);
    PT_EXPECT(
        &p, EVH("tool_call", "{\"total_cost_usd\": 7}", "\"gpt-5-nano\"", "\"codex-native\""),
        RP_DENY,
        "Blocked by the session cost-budget policy: spend $7.00 reached the $5.00 limit, and "
        "tool calls are blocked while on a high-cost model. Relay this to the user verbatim, "
        "then stop and wait for them " EM_DASH " do not silently re-run the tool right now: "
        "\"You've hit the $5.00 cost budget. High-cost models (opus, gpt-5) are blocked over "
        "budget " EM_DASH " in the terminal, run /model and pick a cheaper model to "
        "continue.\" This block is NOT permanent: once the user switches to a cheaper model "
        "and asks you to continue, actually re-issue the tool call (it will be allowed) " EM_DASH
        " do not just repeat this message.",
        NULL);
    pt_policy_free(&p);
}

static void test_checkpoints(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"max_cost_usd\": 5.0, \"ask_thresholds_usd\": [4.0, 2.0, 2]}");
    PT_EXPECT(&p, EV("tool_call", "{\"total_cost_usd\": 1.99}", "\"opus\"", "{}"), RP_ALLOW, NULL,
              NULL);
    PT_EXPECT(&p, EV("tool_call", "{\"total_cost_usd\": 2.0}", "\"opus\"", "{}"), RP_ASK,
              "Session cost $2.00 passed the $2.00 warning threshold (limit $5.00). Continue?",
              SET_APPROVED("2.0"));
    PT_EXPECT(&p,
              EV("tool_call", "{\"total_cost_usd\": 3.0}", "\"opus\"",
                 "{\"_policy_cost_ask_approved_usd\": 2.0}"),
              RP_ALLOW, NULL, NULL);
    /* a higher approval silences lower checkpoints; numeric strings convert */
    PT_EXPECT(&p,
              EV("request", "{\"total_cost_usd\": 4.5}", "\"opus\"",
                 "{\"_policy_cost_ask_approved_usd\": \"4\"}"),
              RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p,
              EV("request", "{\"total_cost_usd\": 4.5}", "\"opus\"",
                 "{\"_policy_cost_ask_approved_usd\": 2}"),
              RP_ASK,
              "Session cost $4.50 passed the $4.00 warning threshold (limit $5.00). Continue?",
              SET_APPROVED("4.0"));
    /* the hard limit wins over an approval */
    PT_EXPECT(&p,
              EV("tool_call", "{\"total_cost_usd\": 5.0}", "\"opus\"",
                 "{\"_policy_cost_ask_approved_usd\": 4.0}"),
              RP_DENY,
              "Blocked by the session cost-budget policy: spend $5.00 reached the $5.00 limit, and "
              "all further tool calls are blocked. Relay this to the user verbatim, then stop and "
              "wait for them " EM_DASH " do not silently re-run the tool right now: \"You've hit "
              "the $5.00 cost budget. All model calls are blocked over budget.\"",
              NULL);
    /* an approval float() cannot read fails the evaluation (the reference raises → DENY) */
    PT_EXPECT_FAIL(&p,
                   EV("tool_call", "{\"total_cost_usd\": 3.0}", "\"opus\"",
                      "{\"_policy_cost_ask_approved_usd\": \"lots\"}"),
                   "_policy_cost_ask_approved_usd");
    pt_policy_free(&p);

    /* thresholds only: no "(limit …)" and no cap */
    pt_create(&p, T, "{\"ask_thresholds_usd\": [1.0, 3.0]}");
    PT_EXPECT(&p, EV("tool_call", "{\"total_cost_usd\": 100.0}", "\"opus\"", "{}"), RP_ASK,
              "Session cost $100.00 passed the $3.00 warning threshold. Continue?",
              SET_APPROVED("3.0"));
    pt_policy_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_validation),         cmocka_unit_test(test_phases),
        cmocka_unit_test(test_unpriced),           cmocka_unit_test(test_unpriced_mixed_tree),
        cmocka_unit_test(test_hard_cap_block_all), cmocka_unit_test(test_hard_cap_downgrade_gate),
        cmocka_unit_test(test_checkpoints),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
