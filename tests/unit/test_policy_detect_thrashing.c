/* test_policy_detect_thrashing.c — error streaks and error rates over tool results
 * (reference §5.22). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "policies/builtins.h"
#include "policy_test_util.h"

#define T         (&rp_policy_detect_thrashing)
#define SET(list) "[{\"key\":\"_thrashing_results\",\"action\":\"set\",\"value\":" list "}]"
#define RESULT(text, state)                                                                        \
    "{\"type\":\"tool_result\",\"data\":{\"result\":" text "},\"session_state\":"                  \
    "{\"_thrashing_results\":" state "}}"
#define STREAK(n)                                                                                  \
    "The agent has hit " n " consecutive tool errors. It may be stuck \xe2\x80\x94 review and "    \
    "redirect, or start a fresh session."
#define RATE(pct, w)                                                                               \
    "The agent has a " pct "% error rate over the last " w " tool calls. It may be stuck "         \
    "\xe2\x80\x94 review and redirect, or start a fresh session."

static void test_schema(void **unused)
{
    (void)unused;
    assert_int_equal(T->n_params, 4);
    assert_string_equal(pt_param(T, "consecutive_threshold")->default_json, "5");
    assert_true(pt_param(T, "consecutive_threshold")->min == 0);
    assert_string_equal(pt_param(T, "window")->default_json, "10");
    const rp_param_spec *rate = pt_param(T, "window_error_rate");
    assert_string_equal(rate->default_json, "0.8");
    assert_true(rate->has_min && rate->min == 0 && rate->has_max && rate->max == 1);
    const rp_param_spec *action = pt_param(T, "action");
    assert_string_equal(action->enum_values[0], "ASK");
    assert_string_equal(action->enum_values[1], "DENY");
    assert_null(action->enum_values[2]);
    assert_string_equal(T->module, "omnigent.policies.builtins.context");
}

static void test_create_checks(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"action\": \"INVALID\"}");
    assert_int_equal(p.create_rc, -1);
    assert_string_equal(p.err.param, "action");
    pt_policy_free(&p);
    pt_create(&p, T, "{\"window_error_rate\": 1.5}");
    assert_int_equal(p.create_rc, -1);
    pt_policy_free(&p);
    pt_create(&p, T, "{\"consecutive_threshold\": -1}");
    assert_int_equal(p.create_rc, -1);
    pt_policy_free(&p);
    pt_create(&p, T, "{\"action\": \"deny\"}"); /* canonicalised like the validator does */
    assert_int_equal(p.create_rc, 0);
    PT_EXPECT(&p, RESULT("\"Error: x\"", "[1,1,1,1]"), RP_DENY, STREAK("5"), SET("[1,1,1,1,1]"));
    pt_policy_free(&p);
}

static void test_abstains_outside_tool_results(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"consecutive_threshold\": 1}");
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":{\"result\":\"error: x\"}}", RP_ABSTAIN, NULL,
              NULL);
    PT_EXPECT(&p, "{\"type\":\"request\",\"data\":{\"result\":\"error: x\"}}", RP_ABSTAIN, NULL,
              NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_result\",\"data\":\"error: bare string\"}", RP_ABSTAIN, NULL,
              NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_result\"}", RP_ABSTAIN, NULL, NULL);
    pt_policy_free(&p);
}

/* The host's own signal (data.is_error, set by the adapters: src/hosts/tool_result.h) wins
 * over the text heuristics; without it the heuristics decide as in the reference. */
static void test_host_error_signal(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"consecutive_threshold\": 3}");
    /* What Gemini's shell and Claude's PostToolUseFailure send for `ls /nonexistent`: no
     * heuristic prefix, but the host says it failed. */
    PT_EXPECT(&p,
              "{\"type\":\"tool_result\",\"data\":{\"result\":\"ls: cannot access "
              "'/nonexistent-1': No such file or directory\",\"is_error\":true},"
              "\"session_state\":{\"_thrashing_results\":[1,1]}}",
              RP_ASK, STREAK("3"), SET("[1,1,1]"));
    /* A successful command whose output starts like an error is not one. */
    PT_EXPECT(&p,
              "{\"type\":\"tool_result\",\"data\":{\"result\":\"Error: in the log\","
              "\"is_error\":false},\"session_state\":{\"_thrashing_results\":[1,1]}}",
              RP_ALLOW, NULL, SET("[1,1,0]"));
    /* Not a boolean: no signal, the heuristics decide. */
    PT_EXPECT(&p,
              "{\"type\":\"tool_result\",\"data\":{\"result\":\"fine\",\"is_error\":\"yes\"},"
              "\"session_state\":{\"_thrashing_results\":[1,1]}}",
              RP_ALLOW, NULL, SET("[1,1,0]"));
    pt_policy_free(&p);
}

/* Nobody can be asked about a result (the tool ran): while the history shows thrashing, the
 * next tool call gets the verdict, and a new prompt clears the history. */
static void test_next_call_and_prompt(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"consecutive_threshold\": 3, \"window\": 4, \"window_error_rate\": 0.75}");
    const char *call = "{\"type\":\"tool_call\",\"data\":{\"name\":\"Bash\",\"arguments\":{"
                       "\"command\":\"ls\"}},\"session_state\":{\"_thrashing_results\":";
    char ev[512];
    /* The approval of the ASK (its withheld update) clears the history. */
    snprintf(ev, sizeof ev, "%s[0,1,1,1]}}", call);
    PT_EXPECT(&p, ev, RP_ASK, STREAK("3"), SET("[]"));
    snprintf(ev, sizeof ev, "%s[1,0,1,1]}}", call);
    PT_EXPECT(&p, ev, RP_ASK, RATE("75", "4"), SET("[]"));
    snprintf(ev, sizeof ev, "%s[1,0,0,1]}}", call);
    PT_EXPECT(&p, ev, RP_ABSTAIN, NULL, NULL);
    snprintf(ev, sizeof ev, "%s[]}}", call);
    PT_EXPECT(&p, ev, RP_ABSTAIN, NULL, NULL);
    PT_EXPECT(&p,
              "{\"type\":\"request\",\"data\":{\"user_content\":\"try another way\"},"
              "\"session_state\":{\"_thrashing_results\":[1,1,1]}}",
              RP_ALLOW, NULL, SET("[]"));
    PT_EXPECT(&p,
              "{\"type\":\"request\",\"data\":{\"user_content\":\"go on\"},"
              "\"session_state\":{\"_thrashing_results\":[1,0,1]}}",
              RP_ABSTAIN, NULL, NULL);
    pt_policy_free(&p);
    /* DENY blocks every call until a prompt redirects the agent: nothing is cleared. */
    pt_create(&p, T, "{\"consecutive_threshold\": 2, \"action\": \"DENY\"}");
    snprintf(ev, sizeof ev, "%s[1,1]}}", call);
    PT_EXPECT(&p, ev, RP_DENY, STREAK("2"), NULL);
    pt_policy_free(&p);
}

static void test_error_heuristic(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"consecutive_threshold\": 0, \"window_error_rate\": 0}");
    static const char *const errors[] = {
        RESULT("\"Error: x\"", "[]"),
        RESULT("\"ERROR - y\"", "[]"),
        RESULT("\"  \\n\\tfailed: z\"", "[]"),
        RESULT("\"Traceback (most recent call last):\\n  File\"", "[]"),
        RESULT("\"Exception: boom\"", "[]"),
        RESULT("\"fatal: not a git repository\"", "[]"),
        RESULT("\"Command failed: x\"", "[]"),
        RESULT("\"  permission denied\"", "[]"),
        RESULT("\"No such file or directory\"", "[]"),
        RESULT("\"ENOENT: no such file\"", "[]"),
        RESULT("\"EACCES: nope\"", "[]"),
        RESULT("\"EPERM: nope\"", "[]"),
        RESULT("\"{\\\"error\\\": \\\"x\\\"}\"", "[]"),
        RESULT("\" {\\\"code\\\": 1,\\n \\\"error\\\"  : {}}\"", "[]"),
        RESULT("\"\\u00a0\\u3000error: unicode spaces\"", "[]"),
        RESULT("{\"error\": \"dict\"}", "[]"), /* str() of a dict is "{'error': ...}" */
    };
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
        const char *expect = i + 1 == sizeof errors / sizeof errors[0] ? SET("[0]") : SET("[1]");
        PT_EXPECT(&p, errors[i], RP_ALLOW, NULL, expect);
    }
    static const char *const fine[] = {
        RESULT("\"\"", "[]"),
        RESULT("\"The error: was here\"", "[]"),
        RESULT("\"warning: error later\"", "[]"),
        RESULT("\"exit code 1\"", "[]"),
        RESULT("\"{\\\"ok\\\": 1} \\\"error\\\": x\"", "[]"),
        RESULT("\"{\\\"errors\\\": 1}\"", "[]"),
        RESULT("\"x{\\\"error\\\": 1}\"", "[]"),
        RESULT("null", "[]"),
        RESULT("42", "[]"),
    };
    for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++)
        PT_EXPECT(&p, fine[i], RP_ALLOW, NULL, SET("[0]"));
    PT_EXPECT(&p, "{\"type\":\"tool_result\",\"data\":{}}", RP_ALLOW, NULL, SET("[0]"));
    pt_policy_free(&p);
}

/* Only the first 500 characters are looked at (characters, not bytes). */
static void test_scan_limit_is_500_characters(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"consecutive_threshold\": 0, \"window_error_rate\": 0}");
    char event[4096];
    char spaces[600];
    memset(spaces, ' ', 494);
    spaces[494] = '\0';
    snprintf(event, sizeof event, RESULT("\"%serror:\"", "[]"), spaces); /* ends at char 500 */
    PT_EXPECT(&p, event, RP_ALLOW, NULL, SET("[1]"));
    spaces[494] = ' ';
    spaces[495] = '\0';
    snprintf(event, sizeof event, RESULT("\"%serror:\"", "[]"), spaces); /* cut at "error" */
    PT_EXPECT(&p, event, RP_ALLOW, NULL, SET("[0]"));
    /* 494 two-byte characters (988 bytes) still leave room for the prefix */
    char wide[2048] = "";
    for (int i = 0; i < 494; i++)
        strcat(wide, "\xc2\xa0"); /* U+00A0 as raw UTF-8 */
    snprintf(event, sizeof event, RESULT("\"%serror:\"", "[]"), wide);
    PT_EXPECT(&p, event, RP_ALLOW, NULL, SET("[1]"));
    pt_policy_free(&p);
}

static void test_consecutive(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"consecutive_threshold\": 3}");
    PT_EXPECT(&p, RESULT("\"Error: x\"", "[1]"), RP_ALLOW, NULL, SET("[1,1]"));
    PT_EXPECT(&p, RESULT("\"Error: x\"", "[1,1]"), RP_ASK, STREAK("3"), SET("[1,1,1]"));
    PT_EXPECT(&p, RESULT("\"Error: x\"", "[true,true]"), RP_ASK, STREAK("3"), SET("[true,true,1]"));
    PT_EXPECT(&p, RESULT("\"Error: x\"", "[2,1]"), RP_ALLOW, NULL, SET("[2,1,1]"));
    PT_EXPECT(&p, RESULT("\"ok\"", "[1,1]"), RP_ALLOW, NULL, SET("[1,1,0]"));
    pt_policy_free(&p);
    /* keep = max(window, consecutive_threshold): the streak works with a smaller window */
    pt_create(&p, T, "{\"consecutive_threshold\": 5, \"window\": 3, \"window_error_rate\": 0.0}");
    PT_EXPECT(&p, RESULT("\"Error: x\"", "[1,1,1,1]"), RP_ASK, STREAK("5"), SET("[1,1,1,1,1]"));
    PT_EXPECT(&p, RESULT("\"ok\"", "[0,1,1,1,1,1,1]"), RP_ALLOW, NULL, SET("[1,1,1,1,0]"));
    pt_policy_free(&p);
}

static void test_rate(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"consecutive_threshold\": 0, \"window\": 5, \"window_error_rate\": 0.8}");
    PT_EXPECT(&p, RESULT("\"Error: x\"", "[1,1,1,1]"), RP_ASK, RATE("100", "5"),
              SET("[1,1,1,1,1]"));
    PT_EXPECT(&p, RESULT("\"Error: x\"", "[1,0,1,0]"), RP_ALLOW, NULL, SET("[1,0,1,0,1]"));
    PT_EXPECT(&p, RESULT("\"Error: x\"", "[1,1,1]"), RP_ALLOW, NULL, SET("[1,1,1,1]"));
    pt_policy_free(&p);
    pt_create(&p, T, "{\"consecutive_threshold\": 8, \"window\": 4, \"window_error_rate\": 0.75}");
    PT_EXPECT(&p, RESULT("\"Error: x\"", "[1,1,1,0,0,1,1]"), RP_ASK, RATE("75", "4"),
              SET("[1,1,1,0,0,1,1,1]"));
    pt_policy_free(&p);
    /* int(rate * 100) truncates: 2/3 = 66.66… → 66 */
    pt_create(&p, T, "{\"consecutive_threshold\": 0, \"window\": 3, \"window_error_rate\": 0.5}");
    PT_EXPECT(&p, RESULT("\"ok\"", "[1,1]"), RP_ASK, RATE("66", "3"), SET("[1,1,0]"));
    pt_policy_free(&p);
    /* 0 disables the rate check; window 0 behaves as 1 */
    pt_create(&p, T, "{\"consecutive_threshold\": 0, \"window\": 5, \"window_error_rate\": 0}");
    PT_EXPECT(&p, RESULT("\"Error: x\"", "[1,1,1,1]"), RP_ALLOW, NULL, SET("[1,1,1,1,1]"));
    pt_policy_free(&p);
    pt_create(&p, T, "{\"consecutive_threshold\": 0, \"window\": 0, \"window_error_rate\": 1}");
    PT_EXPECT(&p, RESULT("\"Error: x\"", "[0,0]"), RP_ASK, RATE("100", "1"), SET("[1]"));
    pt_policy_free(&p);
}

static void test_corrupt_history_resets(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"consecutive_threshold\": 2}");
    PT_EXPECT(&p, RESULT("\"Error: x\"", "{\"bad\":\"data\"}"), RP_ALLOW, NULL, SET("[1]"));
    PT_EXPECT(&p, RESULT("\"Error: x\"", "[\"not\",\"ints\"]"), RP_ALLOW, NULL, SET("[1]"));
    PT_EXPECT(&p, RESULT("\"Error: x\"", "[1,1.0]"), RP_ALLOW, NULL, SET("[1]"));
    PT_EXPECT(&p, RESULT("\"Error: x\"", "[1,null]"), RP_ALLOW, NULL, SET("[1]"));
    PT_EXPECT(&p, RESULT("\"Error: x\"", "\"1,1\""), RP_ALLOW, NULL, SET("[1]"));
    pt_policy_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schema),
        cmocka_unit_test(test_create_checks),
        cmocka_unit_test(test_abstains_outside_tool_results),
        cmocka_unit_test(test_host_error_signal),
        cmocka_unit_test(test_next_call_and_prompt),
        cmocka_unit_test(test_error_heuristic),
        cmocka_unit_test(test_scan_limit_is_500_characters),
        cmocka_unit_test(test_consecutive),
        cmocka_unit_test(test_rate),
        cmocka_unit_test(test_corrupt_history_resets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
