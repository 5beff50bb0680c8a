/* test_policy_max_tool_calls_per_session.c — the session-wide tool-call cap (reference §5.3). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "policies/builtins.h"
#include "policy_test_util.h"

#define T   (&rp_policy_max_tool_calls_per_session)
#define INC "[{\"key\":\"_policy_tool_call_count\",\"action\":\"increment\",\"value\":1}]"
#define CALL(state)                                                                                \
    "{\"type\":\"tool_call\",\"data\":{\"name\":\"a\",\"arguments\":{}},"                          \
    "\"session_state\":" state "}"

static void test_schema(void **unused)
{
    (void)unused;
    const rp_param_spec *limit = pt_param(T, "limit");
    assert_non_null(limit);
    assert_int_equal(T->n_params, 1);
    assert_int_equal(limit->kind, RP_PARAM_INT);
    assert_string_equal(limit->default_json, "100");
    assert_true(limit->has_min);
    assert_true(limit->min == 0);
    assert_string_equal(T->module, "omnigent.policies.builtins.safety");
    assert_string_equal(T->owned_keys[0], "_policy_tool_call_count");
    assert_null(T->owned_keys[1]);
}

static void test_create_rejects_negative_limit(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"limit\": -1}");
    assert_int_equal(p.create_rc, -1);
    assert_string_equal(p.err.param, "limit");
    assert_string_equal(p.err.message, "limit must be >= 0, got -1");
    pt_policy_free(&p);
}

static void test_counts_and_denies_at_limit(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, NULL);
    assert_int_equal(p.create_rc, 0);
    PT_EXPECT(&p, CALL("{}"), RP_ALLOW, NULL, INC);
    PT_EXPECT(&p, CALL("{\"_policy_tool_call_count\": 99}"), RP_ALLOW, NULL, INC);
    PT_EXPECT(&p, CALL("{\"_policy_tool_call_count\": 100}"), RP_DENY,
              "Exceeded 100 tool calls this session", NULL);
    PT_EXPECT(&p, CALL("{\"_policy_tool_call_count\": 5000}"), RP_DENY,
              "Exceeded 100 tool calls this session", NULL);
    pt_policy_free(&p);
}

static void test_limit_zero_denies_first_call(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"limit\": 0}");
    PT_EXPECT(&p, CALL("{}"), RP_DENY, "Exceeded 0 tool calls this session", NULL);
    pt_policy_free(&p);
}

static void test_other_phases_allow_without_counting(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"limit\": 0}");
    PT_EXPECT(&p, "{\"type\":\"tool_result\",\"data\":{\"result\":\"x\"}}", RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"request\",\"data\":\"hi\"}", RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"no_such_type\"}", RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, "{}", RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
}

/* int() of the stored value, as the reference converts it. */
static void test_state_value_conversions(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"limit\": 10}");
    PT_EXPECT(&p, CALL("{\"_policy_tool_call_count\": \"10\"}"), RP_DENY,
              "Exceeded 10 tool calls this session", NULL);
    PT_EXPECT(&p, CALL("{\"_policy_tool_call_count\": \" 9 \"}"), RP_ALLOW, NULL, INC);
    PT_EXPECT(&p, CALL("{\"_policy_tool_call_count\": \"1_0\"}"), RP_DENY,
              "Exceeded 10 tool calls this session", NULL);
    PT_EXPECT(&p, CALL("{\"_policy_tool_call_count\": 9.99}"), RP_ALLOW, NULL, INC);
    PT_EXPECT(&p, CALL("{\"_policy_tool_call_count\": 10.5}"), RP_DENY,
              "Exceeded 10 tool calls this session", NULL);
    PT_EXPECT(&p, CALL("{\"_policy_tool_call_count\": true}"), RP_ALLOW, NULL, INC);
    /* other types count as 0 */
    PT_EXPECT(&p, CALL("{\"_policy_tool_call_count\": [50]}"), RP_ALLOW, NULL, INC);
    PT_EXPECT(&p, CALL("{\"_policy_tool_call_count\": {\"n\": 50}}"), RP_ALLOW, NULL, INC);
    PT_EXPECT(&p, CALL("{\"_policy_tool_call_count\": null}"), RP_ALLOW, NULL, INC);
    PT_EXPECT(&p, CALL("{\"_policy_tool_call_count\": 18446744073709551615}"), RP_DENY,
              "Exceeded 10 tool calls this session", NULL);
    pt_policy_free(&p);
}

static void test_non_numeric_state_fails(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, NULL);
    PT_EXPECT_FAIL(&p, CALL("{\"_policy_tool_call_count\": \"abc\"}"), "_policy_tool_call_count");
    PT_EXPECT_FAIL(&p, CALL("{\"_policy_tool_call_count\": \"1.5\"}"), "'1.5'");
    PT_EXPECT_FAIL(&p, CALL("{\"_policy_tool_call_count\": \"\"}"), "not a number");
    PT_EXPECT_FAIL(&p, CALL("{\"_policy_tool_call_count\": \"_1\"}"), "not a number");
    pt_policy_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schema),
        cmocka_unit_test(test_create_rejects_negative_limit),
        cmocka_unit_test(test_counts_and_denies_at_limit),
        cmocka_unit_test(test_limit_zero_denies_first_call),
        cmocka_unit_test(test_other_phases_allow_without_counting),
        cmocka_unit_test(test_state_value_conversions),
        cmocka_unit_test(test_non_numeric_state_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
