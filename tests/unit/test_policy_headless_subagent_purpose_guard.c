/* test_policy_headless_subagent_purpose_guard.c — sub-agent dispatches must declare a purpose
 * (reference §5.15). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "policies/builtins.h"
#include "policy_test_util.h"

#define T (&rp_policy_headless_subagent_purpose_guard)
#define DEFAULT_REASON                                                                             \
    "Every sys_session_send must declare what kind of work it is. Set args.purpose to one of "     \
    "`implement` (write product code \xe2\x80\x94 any code change, however small), `review` "      \
    "(judge a diff against its contract), or `explore` / `search` (read-only investigation). "     \
    "All sub-agents (`claude_code`, `codex`, `pi`) accept all of these."
#define SEND(args)                                                                                 \
    "{\"type\":\"tool_call\",\"data\":{\"name\":\"sys_session_send\",\"arguments\":" args "}}"

static void test_schema(void **unused)
{
    (void)unused;
    assert_string_equal(pt_param(T, "allowed_purposes")->default_json,
                        "[\"implement\", \"review\", \"explore\", \"search\"]");
    assert_non_null(pt_param(T, "deny_reason"));
}

static void test_default_purposes(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, NULL);
    assert_int_equal(p.create_rc, 0);
    static const char *const ok[] = {"implement", "review", "explore", "search"};
    for (size_t i = 0; i < 4; i++) {
        char ev[256];
        snprintf(ev, sizeof ev, SEND("{\"agent\":\"codex\",\"args\":{\"purpose\":\"%s\"}}"), ok[i]);
        PT_EXPECT(&p, ev, RP_ALLOW, NULL, NULL);
    }
    const char *bad =
        DEFAULT_REASON " Set args.purpose to one of ['explore', 'implement', "
                       "'review', 'search'] when this is a legitimate sub-agent task.";
    PT_EXPECT(&p, SEND("{\"args\":{\"input\":\"x\"}}"), RP_DENY, bad, NULL);
    PT_EXPECT(&p, SEND("{\"args\":{\"purpose\":\"bogus\"}}"), RP_DENY, bad, NULL);
    PT_EXPECT(&p, SEND("{\"args\":{\"purpose\":\"Implement\"}}"), RP_DENY, bad, NULL);
    PT_EXPECT(&p, SEND("{\"args\":{\"purpose\":[\"implement\"]}}"), RP_DENY, bad, NULL);
    const char *missing = DEFAULT_REASON " Missing object args with purpose.";
    PT_EXPECT(&p, SEND("{\"agent\":\"codex\"}"), RP_DENY, missing, NULL);
    PT_EXPECT(&p, SEND("{\"args\":\"implement\"}"), RP_DENY, missing, NULL);
    PT_EXPECT(&p, SEND("\"raw\""), RP_DENY, missing, NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":{\"name\":\"sys_session_send\"}}", RP_DENY,
              missing, NULL);
    pt_policy_free(&p);
}

static void test_custom_params_and_other_tools(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(
        &p, T,
        "{\"allowed_purposes\": [\"z's\", \"implement\", \"Alpha\"], \"deny_reason\": \"No.\"}");
    PT_EXPECT(&p, SEND("{\"args\":{\"purpose\":\"implement\"}}"), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, SEND("{\"args\":{\"purpose\":\"review\"}}"), RP_DENY,
              "No. Set args.purpose to one of ['Alpha', 'implement', \"z's\"] when this is a "
              "legitimate sub-agent task.",
              NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":{\"name\":\"sys_session_create\"}}", RP_ALLOW,
              NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_result\",\"data\":{\"name\":\"sys_session_send\"}}", RP_ALLOW,
              NULL, NULL);
    pt_policy_free(&p);
    pt_create(&p, T, "{\"allowed_purposes\": []}");
    PT_EXPECT(&p, SEND("{\"args\":{\"purpose\":\"implement\"}}"), RP_DENY,
              DEFAULT_REASON " Set args.purpose to one of [] when this is a legitimate sub-agent "
                             "task.",
              NULL);
    pt_policy_free(&p);
    pt_create(&p, T, "{\"deny_reason\": 5}");
    assert_int_equal(p.create_rc, -1);
    pt_policy_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schema),
        cmocka_unit_test(test_default_purposes),
        cmocka_unit_test(test_custom_params_and_other_tools),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
