/* test_policy_subagent_cost_budget.c — the sub-agent's subtree budget (reference §5.10): reads
 * context.subtree_usage (not usage), keeps its approval key local, its texts; and
 * rp_cost_subagent_budget_check, the session layer's check of sys_session_send's cost_budget. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "policies/builtins.h"
#include "cost/budget.h"
#include "policy_test_util.h"

#define T (&rp_policy_subagent_cost_budget)

#define EM_DASH "\xe2\x80\x94"
#define UNPRICED                                                                                   \
    "The active model has no catalog pricing so cumulative spend cannot be tracked. Continuing "   \
    "will allow untracked spend that counts against neither the cap nor the warning thresholds. "  \
    "Switch to a priced model to restore budget enforcement, or approve to continue without it."
#define SET_SUB(v)                                                                                 \
    "[{\"key\":\"subagent_cost_ask_approved_usd\",\"action\":\"set\",\"value\":" v "}]"
#define EV(type, usage, subtree, model, state)                                                     \
    "{\"type\":\"" type "\",\"context\":{\"usage\":" usage ",\"subtree_usage\":" subtree           \
    ",\"model\":" model "},\"session_state\":" state "}"

static void test_registry_entry(void **unused)
{
    (void)unused;
    assert_true(T->internal_only);
    pt_policy p;
    pt_create(&p, T, "{}");
    assert_int_equal(p.create_rc, -1);
    assert_string_equal(p.err.message,
                        "subagent_cost_budget requires max_cost_usd and/or ask_thresholds_usd");
    pt_policy_free(&p);
}

static void test_subtree(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T,
              "{\"max_cost_usd\": 2.0, \"ask_thresholds_usd\": [1.0], "
              "\"expensive_models\": [\"opus\"]}");
    /* the tree spent $50, the subtree $0.20: only the subtree counts */
    PT_EXPECT(
        &p, EV("request", "{\"total_cost_usd\": 50.0}", "{\"total_cost_usd\": 0.2}", "null", "{}"),
        RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, EV("request", "{}", "{\"total_cost_usd\": 1.5}", "null", "{}"), RP_ASK,
              "Subagent subtree cost $1.50 passed the $1.00 warning threshold (limit $2.00). "
              "Continue?",
              SET_SUB("1.0"));
    /* the session key of cost_budget does not approve it */
    PT_EXPECT(&p,
              EV("request", "{}", "{\"total_cost_usd\": 1.5}", "null",
                 "{\"_policy_cost_ask_approved_usd\": 1.0}"),
              RP_ASK,
              "Subagent subtree cost $1.50 passed the $1.00 warning threshold (limit $2.00). "
              "Continue?",
              SET_SUB("1.0"));
    PT_EXPECT(&p,
              EV("request", "{}", "{\"total_cost_usd\": 1.6}", "null",
                 "{\"subagent_cost_ask_approved_usd\": 1.0}"),
              RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, EV("tool_call", "{}", "{\"total_cost_usd\": 2.0}", "\"opus\"", "{}"), RP_DENY,
              "Blocked by the subagent cost-budget policy: spend $2.00 reached the $2.00 limit, "
              "and tool calls are blocked while on a high-cost model. Relay this to the user "
              "verbatim, then stop and wait for them " EM_DASH " do not silently re-run the tool "
              "right now: \"You've hit the $2.00 subagent cost budget. High-cost models (opus) are "
              "blocked over budget " EM_DASH " switch to a cheaper model to continue.\" This block "
              "is NOT permanent: once the user switches to a cheaper model and asks you to "
              "continue, actually re-issue the tool call (it will be allowed) " EM_DASH " do not "
              "just repeat this message.",
              NULL);
    PT_EXPECT(&p, EV("tool_call", "{}", "{\"total_cost_usd\": 2.0}", "\"sonnet\"", "{}"), RP_ALLOW,
              NULL, NULL);
    pt_policy_free(&p);
}

static void test_subtree_unpriced(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"max_cost_usd\": 2.0}");
    const char *set = "[{\"key\":\"_policy_cost_unpriced_approved\",\"action\":\"set\","
                      "\"value\":true}]";
    PT_EXPECT(&p, EV("request", "{\"total_cost_usd\": 0.0}", "{\"input_tokens\": 5}", "null", "{}"),
              RP_ASK, UNPRICED, set);
    /* an unpriced tree outside the subtree is not the sub-agent's concern */
    PT_EXPECT(&p, EV("request", "{\"input_tokens\": 5}", "{\"total_cost_usd\": 0.5}", "null", "{}"),
              RP_ALLOW, NULL, NULL);
    /* mixed subtree (issue 6), then approved: the priced part meets the cap */
    PT_EXPECT(
        &p, EV("request", "{}", "{\"total_cost_usd\": 0.5, \"unpriced_tokens\": 3}", "null", "{}"),
        RP_ASK, UNPRICED, set);
    PT_EXPECT(&p,
              EV("request", "{}", "{\"total_cost_usd\": 3, \"unpriced_tokens\": 3}", "\"x\"",
                 "{\"_policy_cost_unpriced_approved\": true}"),
              RP_DENY,
              "Blocked by the subagent cost-budget policy: spend $3.00 reached the $2.00 limit. "
              "You've hit the $2.00 subagent cost budget. All model calls are blocked over budget.",
              NULL);
    pt_policy_free(&p);
}

/* Checks one budget object; returns the normalized JSON text, or "ERR: <message>". */
static const char *check(rp_arena *a, const char *budget_json)
{
    char err[256];
    rp_json normalized = rp_json_make_null();
    const rp_json *budget = pt_parse(a, budget_json);
    if (rp_cost_subagent_budget_check(budget, a, &normalized, err, sizeof err) != 0)
        return rp_arena_sprintf(a, "ERR: %s", err);
    return rp_json_to_string(a, &normalized);
}

static void test_budget_check(void **unused)
{
    (void)unused;
    rp_arena a;
    rp_arena_init(&a, 4096);
    assert_string_equal(check(&a, "{\"max_cost_usd\": 2}"), "{\"max_cost_usd\":2.0}");
    assert_string_equal(check(&a, "{\"max_cost_usd\": 2.5, \"ask_thresholds_usd\": [1, 0.5]}"),
                        "{\"max_cost_usd\":2.5,\"ask_thresholds_usd\":[1.0,0.5]}");
    assert_string_equal(check(&a, "{\"ask_thresholds_usd\": [3]}"),
                        "{\"ask_thresholds_usd\":[3.0]}");
    assert_string_equal(check(&a, "{\"max_cost_usd\": 2, \"ask_thresholds_usd\": null}"),
                        "{\"max_cost_usd\":2.0}");
    assert_string_equal(check(&a, "[2]"), "ERR: cost_budget must be an object, got [2]");
    assert_string_equal(check(&a, "5"), "ERR: cost_budget must be an object, got 5");
    assert_string_equal(check(&a, "{}"),
                        "ERR: cost_budget needs max_cost_usd and/or ask_thresholds_usd");
    assert_string_equal(check(&a, "{\"max_cost_usd\": null, \"ask_thresholds_usd\": []}"),
                        "ERR: cost_budget needs max_cost_usd and/or ask_thresholds_usd");
    assert_string_equal(check(&a, "{\"max_cost_usd\": -1}"),
                        "ERR: cost_budget.max_cost_usd must be > 0, got -1");
    assert_string_equal(check(&a, "{\"max_cost_usd\": 0.0}"),
                        "ERR: cost_budget.max_cost_usd must be > 0, got 0.0");
    assert_string_equal(check(&a, "{\"max_cost_usd\": true}"),
                        "ERR: cost_budget.max_cost_usd must be a number, got True");
    assert_string_equal(check(&a, "{\"max_cost_usd\": \"5\"}"),
                        "ERR: cost_budget.max_cost_usd must be a number, got '5'");
    assert_string_equal(check(&a, "{\"ask_thresholds_usd\": 1}"),
                        "ERR: cost_budget.ask_thresholds_usd must be a list of numbers, got 1");
    assert_string_equal(check(&a, "{\"ask_thresholds_usd\": [1, false]}"),
                        "ERR: cost_budget.ask_thresholds_usd values must be numbers, got False");
    assert_string_equal(check(&a, "{\"ask_thresholds_usd\": [0]}"),
                        "ERR: cost_budget.ask_thresholds_usd values must be > 0, got 0");
    assert_string_equal(check(&a, "{\"max_cost_usd\": 2, \"ask_thresholds_usd\": [1, 2.0]}"),
                        "ERR: cost_budget.ask_thresholds_usd values must be < max_cost_usd (2), "
                        "got 2.0");
    assert_string_equal(check(&a, "{\"max_cost\": 2}"),
                        "ERR: cost_budget: unknown key 'max_cost' (known: max_cost_usd, "
                        "ask_thresholds_usd)");
    rp_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_entry),
        cmocka_unit_test(test_subtree),
        cmocka_unit_test(test_subtree_unpriced),
        cmocka_unit_test(test_budget_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
