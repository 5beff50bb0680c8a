/* test_policy_risk_score_policy.c — the accumulated session risk score (reference §5.21). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "policies/builtins.h"
#include "policies/registry.h"
#include "policy_test_util.h"

#define T           (&rp_policy_risk_score_policy)
#define INC(key, v) "[{\"key\":\"" key "\",\"action\":\"increment\",\"value\":" v "}]"
#define CALL(tool, state)                                                                          \
    "{\"type\":\"tool_call\",\"data\":{\"name\":\"" tool "\",\"arguments\":{}},"                   \
    "\"session_state\":" state "}"
#define RESULT(text)                                                                               \
    "{\"type\":\"tool_result\",\"target\":\"doc_get\",\"data\":{\"result\":" text "}}"
#define GE " \xe2\x89\xa5 "

static void test_schema_and_owned_key(void **unused)
{
    (void)unused;
    assert_int_equal(T->n_params, 9);
    assert_string_equal(pt_param(T, "threshold")->default_json, "50");
    assert_string_equal(pt_param(T, "state_key")->default_json, "\"risk_score\"");
    assert_string_equal(pt_param(T, "reason")->default_json, "\"Elevated session risk.\"");
    assert_string_equal(pt_param(T, "escalate_action")->enum_values[1], "DENY");
    assert_string_equal(T->module, "omnigent.policies.builtins.risk_score");

    pt_policy p;
    pt_create(&p, T, "{\"state_key\": \"my_risk\"}");
    assert_int_equal(p.create_rc, 0);
    assert_string_equal(T->instance_owned_key(p.instance), "my_risk");
    assert_true(rp_policy_owns_key(T, p.instance, "my_risk"));
    assert_false(rp_policy_owns_key(T, p.instance, "risk_score"));
    assert_true(rp_policy_owns_key(T, NULL, "risk_score"));
    pt_policy_free(&p);
}

static void test_create_checks(void **unused)
{
    (void)unused;
    pt_policy p;
    /* the reference's own message, even when the validator is bypassed */
    pt_create(&p, T, "{\"escalate_action\": \"warn\"}");
    assert_int_equal(p.create_rc, -1);
    assert_string_equal(p.err.param, "escalate_action");
    assert_string_equal(p.err.message,
                        "risk_score_policy: escalate_action must be one of ['ASK', 'DENY'], got "
                        "'warn'");
    pt_policy_free(&p);
    static const char *const bad[] = {
        "{\"tool_points\": {\"a\": \"10\"}}",
        "{\"tool_points\": {\"a\": true}}",
        "{\"sensitive_labels\": {\"x\": null}}",
        "{\"initial_scores_by_actor\": {\"u\": \"5\"}}",
        "{\"state_key\": \"\"}",
        "{\"threshold\": \"50\"}",
        "{\"tool_points\": []}",
        /* stricter than the reference: points may not lower the score */
        "{\"tool_points\": {\"neg\": -1}}",
        "{\"sensitive_labels\": {\"public\": -100}}",
        /* another builtin's reserved key would let this policy rewrite it */
        "{\"state_key\": \"_policy_tool_call_count\"}",
        "{\"state_key\": \"_thrashing_results\"}",
        "{\"state_key\": \"gmail_created_draft_ids\"}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pt_create(&p, T, bad[i]);
        assert_int_equal(p.create_rc, -1);
        pt_policy_free(&p);
    }
}

static void test_tool_points(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"tool_points\": {\"web_search\": 10, \"search\": 3, \"send\": 0.5}}");
    PT_EXPECT(&p, CALL("web_search", "{}"), RP_ALLOW, NULL, INC("risk_score", "10"));
    PT_EXPECT(&p, CALL("mcp__google__web_search", "{}"), RP_ALLOW, NULL, INC("risk_score", "10"));
    PT_EXPECT(&p, CALL("mcp__x__search", "{}"), RP_ALLOW, NULL, INC("risk_score", "3"));
    /* a segment boundary is "__", not "_" */
    PT_EXPECT(&p, CALL("gmail_send", "{}"), RP_ABSTAIN, NULL, NULL);
    PT_EXPECT(&p, CALL("web_search_v2", "{}"), RP_ABSTAIN, NULL, NULL);
    PT_EXPECT(&p, CALL("x__send", "{}"), RP_ALLOW, NULL, INC("risk_score", "0.5"));
    PT_EXPECT(&p, CALL("other", "{}"), RP_ABSTAIN, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"request\",\"data\":\"hello\"}", RP_ABSTAIN, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"response\",\"data\":\"hello\"}", RP_ABSTAIN, NULL, NULL);
    pt_policy_free(&p);
    /* "x__y" matches both entries: their points add up; zero points abstain */
    pt_create(&p, T,
              "{\"tool_points\": {\"x__y\": 2, \"y\": 3, \"zero\": 0}, \"state_key\": \"k\"}");
    PT_EXPECT(&p, CALL("x__y", "{}"), RP_ALLOW, NULL, INC("k", "5"));
    PT_EXPECT(&p, CALL("zero", "{}"), RP_ABSTAIN, NULL, NULL);
    pt_policy_free(&p);
}

static void test_guarded_tools(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T,
              "{\"threshold\": 50, \"guarded_tools\": [\"gmail_message_send\"], "
              "\"tool_points\": {\"gmail_message_send\": 5}}");
    PT_EXPECT(&p, CALL("gmail_message_send", "{\"risk_score\": 10}"), RP_ALLOW, NULL,
              INC("risk_score", "5"));
    PT_EXPECT(&p, CALL("gmail_message_send", "{\"risk_score\": 50}"), RP_ASK,
              "Elevated session risk. Session risk score 50" GE
              "threshold 50; gmail_message_send requires review.",
              NULL);
    PT_EXPECT(&p, CALL("mcp__g__gmail_message_send", "{\"risk_score\": \"60\"}"), RP_ASK,
              "Elevated session risk. Session risk score 60" GE
              "threshold 50; mcp__g__gmail_message_send requires review.",
              NULL);
    PT_EXPECT(&p, CALL("gmail_message_send", "{\"risk_score\": 59.9}"), RP_ASK,
              "Elevated session risk. Session risk score 59" GE
              "threshold 50; gmail_message_send requires review.",
              NULL);
    PT_EXPECT(&p, CALL("gmail_message_send", "{\"risk_score\": [99]}"), RP_ALLOW, NULL,
              INC("risk_score", "5"));
    PT_EXPECT_FAIL(&p, CALL("gmail_message_send", "{\"risk_score\": \"high\"}"), "risk_score");
    PT_EXPECT_FAIL(&p, CALL("anything", "{\"risk_score\": \"high\"}"), "risk_score");
    pt_policy_free(&p);

    pt_create(&p, T,
              "{\"threshold\": 20.0, \"guarded_tools\": [\"send\"], \"escalate_action\": \"deny\", "
              "\"reason\": \"Risky.\"}");
    PT_EXPECT(&p, CALL("send", "{\"risk_score\": 20}"), RP_DENY,
              "Risky. Session risk score 20" GE "threshold 20.0; send requires review.", NULL);
    PT_EXPECT(&p, CALL("send", "{\"risk_score\": 19}"), RP_ABSTAIN, NULL, NULL);
    pt_policy_free(&p);
}

static void test_initial_scores_by_actor(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T,
              "{\"threshold\": 50, \"guarded_tools\": [\"send\"], \"initial_scores_by_actor\": "
              "{\"contractor@example.com\": 45.5}}");
    PT_EXPECT(&p,
              "{\"type\":\"tool_call\",\"data\":{\"name\":\"send\"},\"context\":{\"actor\":"
              "{\"run_as\":\"contractor@example.com\"}},\"session_state\":{\"risk_score\":5}}",
              RP_ASK,
              "Elevated session risk. Session risk score 50.5" GE
              "threshold 50; send requires review.",
              NULL);
    PT_EXPECT(&p,
              "{\"type\":\"tool_call\",\"data\":{\"name\":\"send\"},\"context\":{\"actor\":"
              "{\"run_as\":\"employee@example.com\"}},\"session_state\":{\"risk_score\":5}}",
              RP_ABSTAIN, NULL, NULL);
    PT_EXPECT(&p, CALL("send", "{\"risk_score\": 5}"), RP_ABSTAIN, NULL, NULL);
    pt_policy_free(&p);
}

static void test_sensitive_labels(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"sensitive_labels\": {\"Highly Confidential\": 30, \"SECRET\": 20}}");
    PT_EXPECT(&p, RESULT("\"{\\\"label_classification\\\": \\\" HIGHLY confidential \\\"}\""),
              RP_ALLOW, NULL, INC("risk_score", "30"));
    PT_EXPECT(&p,
              RESULT("\"{\\\"a\\\": {\\\"classification\\\": \\\"secret\\\"}, \\\"b\\\": "
                     "[{\\\"dlp_label\\\": \\\"Highly Confidential\\\"}]}\""),
              RP_ALLOW, NULL, INC("risk_score", "30"));
    PT_EXPECT(&p, RESULT("{\"file\": {\"meta\": {\"sensitivity\": \"Secret\"}}}"), RP_ALLOW, NULL,
              INC("risk_score", "20"));
    PT_EXPECT(&p, RESULT("\"{\\\"label_classification\\\": \\\"internal\\\"}\""), RP_ABSTAIN, NULL,
              NULL);
    PT_EXPECT(&p, RESULT("\"{\\\"other_key\\\": \\\"secret\\\"}\""), RP_ABSTAIN, NULL, NULL);
    PT_EXPECT(&p, RESULT("\"secret\""), RP_ABSTAIN, NULL, NULL);
    PT_EXPECT(&p, RESULT("\"{not json\""), RP_ABSTAIN, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_result\",\"data\":\"{\\\"classification\\\":\\\"secret\\\"}\"}",
              RP_ALLOW, NULL, INC("risk_score", "20"));
    pt_policy_free(&p);
    /* depth: a label nested 20 levels down counts, 21 does not */
    pt_create(&p, T, "{\"sensitive_labels\": {\"x\": 1}, \"label_keys\": [\"l\"]}");
    char deep[1024] = "", ev[2048];
    for (int i = 0; i < 20; i++)
        strcat(deep, "{\"k\":");
    strcat(deep, "{\"l\":\"x\"}");
    for (int i = 0; i < 20; i++)
        strcat(deep, "}");
    snprintf(ev, sizeof ev, RESULT("%s"), deep);
    PT_EXPECT(&p, ev, RP_ALLOW, NULL, INC("risk_score", "1"));
    snprintf(ev, sizeof ev, RESULT("[%s]"), deep);
    PT_EXPECT(&p, ev, RP_ABSTAIN, NULL, NULL);
    pt_policy_free(&p);
    /* without sensitive_labels, tool results are not looked at */
    pt_create(&p, T, NULL);
    PT_EXPECT(&p, RESULT("\"{\\\"classification\\\": \\\"secret\\\"}\""), RP_ABSTAIN, NULL, NULL);
    pt_policy_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schema_and_owned_key),
        cmocka_unit_test(test_create_checks),
        cmocka_unit_test(test_tool_points),
        cmocka_unit_test(test_guarded_tools),
        cmocka_unit_test(test_initial_scores_by_actor),
        cmocka_unit_test(test_sensitive_labels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
