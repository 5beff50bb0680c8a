/* test_policy_spawn_bounds.c — the per-turn dispatch bound, counted in session state
 * (reference §5.14, issue §7). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "policies/builtins.h"
#include "policy_test_util.h"

#define T     (&rp_policy_spawn_bounds)
#define KEY   "_policy_spawn_dispatch_count"
#define INC   "[{\"key\":\"" KEY "\",\"action\":\"increment\",\"value\":1}]"
#define RESET "[{\"key\":\"" KEY "\",\"action\":\"set\",\"value\":0}]"
#define SEND(state)                                                                                \
    "{\"type\":\"tool_call\",\"data\":{\"name\":\"sys_session_send\",\"arguments\":{}},"           \
    "\"session_state\":" state "}"
#define EXCEEDED(n)                                                                                \
    "Exceeded " n " worker dispatches this turn; fan out in waves (collect the running batch "     \
    "before dispatching more)."

static void test_schema(void **unused)
{
    (void)unused;
    assert_string_equal(pt_param(T, "max_dispatches_per_turn")->default_json, "5");
    assert_true(pt_param(T, "max_dispatches_per_turn")->min == 0);
    assert_string_equal(pt_param(T, "dispatch_tools")->default_json, "[\"sys_session_send\"]");
    assert_string_equal(T->owned_keys[0], KEY);
    assert_string_equal(T->module, "omnigent.policies.builtins.orchestration");
}

static void test_counts_and_denies(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"max_dispatches_per_turn\": 1}");
    assert_int_equal(p.create_rc, 0);
    PT_EXPECT(&p, SEND("{}"), RP_ALLOW, NULL, INC);
    /* the denied dispatch still counts */
    PT_EXPECT(&p, SEND("{\"" KEY "\": 1}"), RP_DENY, EXCEEDED("1"), INC);
    PT_EXPECT(&p, SEND("{\"" KEY "\": 2}"), RP_DENY, EXCEEDED("1"), INC);
    PT_EXPECT(&p, SEND("{\"" KEY "\": \"0\"}"), RP_ALLOW, NULL, INC);
    PT_EXPECT(&p, SEND("{\"" KEY "\": [9]}"), RP_ALLOW, NULL, INC);
    PT_EXPECT_FAIL(&p, SEND("{\"" KEY "\": \"many\"}"), KEY);
    pt_policy_free(&p);
    pt_create(&p, T, "{\"max_dispatches_per_turn\": 0}");
    PT_EXPECT(&p, SEND("{}"), RP_DENY, EXCEEDED("0"), INC);
    pt_policy_free(&p);
}

static void test_request_resets_the_turn(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, NULL);
    PT_EXPECT(&p, "{\"type\":\"request\",\"data\":\"next\",\"session_state\":{\"" KEY "\":7}}",
              RP_ALLOW, NULL, RESET);
    PT_EXPECT(&p, "{\"type\":\"request\"}", RP_ALLOW, NULL, RESET);
    PT_EXPECT(&p, SEND("{\"" KEY "\": 4}"), RP_ALLOW, NULL, INC);
    PT_EXPECT(&p, SEND("{\"" KEY "\": 5}"), RP_DENY, EXCEEDED("5"), INC);
    pt_policy_free(&p);
}

static void test_only_dispatch_tools_count(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T,
              "{\"max_dispatches_per_turn\": 1, \"dispatch_tools\": [\"sys_session_send\", "
              "\"sys_session_create\"]}");
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":{\"name\":\"sys_os_shell\"}}", RP_ALLOW, NULL,
              NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"target\":\"sys_session_create\"}", RP_ALLOW, NULL,
              INC);
    PT_EXPECT(&p,
              "{\"type\":\"tool_call\",\"data\":{\"name\":\"sys_session_create\"},"
              "\"session_state\":{\"" KEY "\":1}}",
              RP_DENY, EXCEEDED("1"), INC);
    PT_EXPECT(&p, "{\"type\":\"tool_result\",\"data\":{\"name\":\"sys_session_send\"}}", RP_ALLOW,
              NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"response\",\"data\":\"x\"}", RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
    pt_create(&p, T, "{\"dispatch_tools\": [1]}");
    assert_int_equal(p.create_rc, -1);
    assert_string_equal(p.err.param, "dispatch_tools");
    pt_policy_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schema),
        cmocka_unit_test(test_counts_and_denies),
        cmocka_unit_test(test_request_resets_the_turn),
        cmocka_unit_test(test_only_dispatch_tools_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
