/* test_policy_detect_loop.c — identical-call detection and its Python-exact hashes
 * (reference §5.6). Expected hashes were computed with Python's
 * hashlib.sha256(json.dumps({"t": name, "a": args}, sort_keys=True).encode()). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "policies/builtins.h"
#include "policy_test_util.h"

#define T (&rp_policy_detect_loop)

#define H_LS    "a52074d1ebc058e0ae9d94bc7c67f985268aeadcff79d86f67dbaff53a799d7e"
#define H_EMPTY "389a328fdd2df8d671bdfbc0ad6ff7856b40bde1b7910f3e3cc798bc976c18eb"
#define H_X     "3ccb07f7cb68225828b6cadc8837273668543e1b18e5153e73fa858ff4948961"
#define H_A     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

#define SET(list) "[{\"key\":\"_policy_loop_recent_hashes\",\"action\":\"set\",\"value\":" list "}]"
#define LS_CALL(state)                                                                             \
    "{\"type\":\"tool_call\",\"target\":\"sys_os_shell\",\"data\":{\"name\":\"sys_os_shell\","     \
    "\"arguments\":{\"command\":\"ls\"}},\"session_state\":" state "}"

static const char *loop_reason(const char *tool, int count, int calls)
{
    static char buf[256];
    snprintf(buf, sizeof buf,
             "The agent appears stuck in a retry loop \xe2\x80\x94 tool '%s' called with identical "
             "arguments %d times in the last %d calls.",
             tool, count, calls);
    return buf;
}

static void test_schema(void **unused)
{
    (void)unused;
    const rp_param_spec *window = pt_param(T, "window");
    const rp_param_spec *threshold = pt_param(T, "threshold");
    assert_int_equal(T->n_params, 2);
    assert_string_equal(window->default_json, "10");
    assert_string_equal(threshold->default_json, "3");
    assert_true(window->has_min && window->min == 1);
    assert_true(threshold->has_min && threshold->min == 1);
    assert_string_equal(T->owned_keys[0], "_policy_loop_recent_hashes");
}

static void test_create_rejects_zero(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"window\": 0}");
    assert_int_equal(p.create_rc, -1);
    assert_string_equal(p.err.param, "window");
    pt_policy_free(&p);
    pt_create(&p, T, "{\"threshold\": 0}");
    assert_int_equal(p.create_rc, -1);
    assert_string_equal(p.err.param, "threshold");
    pt_policy_free(&p);
}

static void test_reference_hashes(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, NULL);
    PT_EXPECT(&p, LS_CALL("{}"), RP_ALLOW, NULL, SET("[\"" H_LS "\"]"));
    /* name "" and arguments {} when the keys are absent */
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"target\":\"x\",\"data\":{}}", RP_ALLOW, NULL,
              SET("[\"" H_EMPTY "\"]"));
    pt_policy_free(&p);
}

/* Python's json.dumps canonical form: sorted keys, ensure_ascii, float repr, kinds kept. */
static void test_hash_canonical_form(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, NULL);
    PT_EXPECT(&p,
              "{\"type\":\"tool_call\",\"data\":{\"name\":\"t\",\"arguments\":"
              "{\"x\":\"\xc3\xa9\xf0\x9f\x98\x80\"}}}",
              RP_ALLOW, NULL,
              SET("[\"e8ed312f40d164bf958ab9d5ff4a7ca30366113bf0469d1ed6dec29acbf598e7\"]"));
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":{\"name\":\"t\",\"arguments\":\"raw args\"}}",
              RP_ALLOW, NULL,
              SET("[\"bb0b2fee50e2a71664e6f287952ec3234b1a3b4a8492c5b37cf3e27fb1bc9151\"]"));
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":{\"name\":\"t\",\"arguments\":null}}", RP_ALLOW,
              NULL, SET("[\"8e20c4edc23115c609b3a94e50df4ed2b9795a50193f5f6b724ffbb23a04c864\"]"));
    PT_EXPECT(&p,
              "{\"type\":\"tool_call\",\"data\":{\"name\":\"t\",\"arguments\":"
              "{\"b\":[1,2.5,{\"z\":true,\"a\":null}],\"a\":1e-05}}}",
              RP_ALLOW, NULL,
              SET("[\"fb4f3b0f63f81c6825aab8c19c20f815880bc988efbdfe84336f3502188f2edd\"]"));
    /* 1, 1.0 and "1" are three different calls */
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":{\"name\":\"t\",\"arguments\":{\"a\":1}}}",
              RP_ALLOW, NULL,
              SET("[\"15cce888dcac11d7e661d47cc38f2e3ddf0dcd8106da3602f43cb3dbf79fe085\"]"));
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":{\"name\":\"t\",\"arguments\":{\"a\":1.0}}}",
              RP_ALLOW, NULL,
              SET("[\"aeede19443eb28dcd14c9539ca395157089a5d2377407773595db5a3fe1b76f4\"]"));
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":{\"name\":\"t\",\"arguments\":{\"a\":\"1\"}}}",
              RP_ALLOW, NULL,
              SET("[\"27acbbf4c23f467e846a1e4d0bf2e7e17b2a360bc90532cb9a9d8e37898c32e7\"]"));
    pt_policy_free(&p);
}

static void test_threshold_asks_and_keeps_window(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, NULL);
    PT_EXPECT(&p, LS_CALL("{\"_policy_loop_recent_hashes\":[\"" H_LS "\"]}"), RP_ALLOW, NULL,
              SET("[\"" H_LS "\",\"" H_LS "\"]"));
    PT_EXPECT(&p, LS_CALL("{\"_policy_loop_recent_hashes\":[\"" H_LS "\",\"" H_LS "\"]}"), RP_ASK,
              loop_reason("sys_os_shell", 3, 3), SET("[\"" H_LS "\",\"" H_LS "\",\"" H_LS "\"]"));
    PT_EXPECT(&p,
              LS_CALL("{\"_policy_loop_recent_hashes\":[\"" H_A "\",\"" H_LS "\",\"" H_LS
                      "\",\"" H_LS "\"]}"),
              RP_ASK, loop_reason("sys_os_shell", 4, 5),
              SET("[\"" H_A "\",\"" H_LS "\",\"" H_LS "\",\"" H_LS "\",\"" H_LS "\"]"));
    pt_policy_free(&p);
}

static void test_window_evicts_oldest(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"window\": 3, \"threshold\": 3}");
    /* two old copies, but only the last 3 entries (A, LS, new LS) count: 2 < 3 */
    PT_EXPECT(&p,
              LS_CALL("{\"_policy_loop_recent_hashes\":[\"" H_LS "\",\"" H_A "\",\"" H_LS "\"]}"),
              RP_ALLOW, NULL, SET("[\"" H_A "\",\"" H_LS "\",\"" H_LS "\"]"));
    pt_policy_free(&p);
    pt_create(&p, T, "{\"window\": 1, \"threshold\": 1}");
    PT_EXPECT(&p, LS_CALL("{\"_policy_loop_recent_hashes\":[\"" H_A "\"]}"), RP_ASK,
              loop_reason("sys_os_shell", 1, 1), SET("[\"" H_LS "\"]"));
    pt_policy_free(&p);
}

static void test_corrupt_history_is_ignored(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, NULL);
    /* non-string items are dropped; a non-list counts as empty */
    PT_EXPECT(&p, LS_CALL("{\"_policy_loop_recent_hashes\":[1,null,\"" H_LS "\",{},\"" H_LS "\"]}"),
              RP_ASK, loop_reason("sys_os_shell", 3, 3),
              SET("[\"" H_LS "\",\"" H_LS "\",\"" H_LS "\"]"));
    PT_EXPECT(&p, LS_CALL("{\"_policy_loop_recent_hashes\":\"" H_LS "\"}"), RP_ALLOW, NULL,
              SET("[\"" H_LS "\"]"));
    PT_EXPECT(&p, LS_CALL("{\"_policy_loop_recent_hashes\":{\"a\":1}}"), RP_ALLOW, NULL,
              SET("[\"" H_LS "\"]"));
    pt_policy_free(&p);
}

static void test_reason_uses_python_str_of_name(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"threshold\": 1}");
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":{\"name\":5,\"arguments\":{}}}", RP_ASK,
              loop_reason("5", 1, 1),
              SET("[\"90cbb2d8590ea7c53489e95ba865a219b41cc29d8449acbf72d2575e43ad7db2\"]"));
    pt_policy_free(&p);
}

static void test_other_events_allow(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"threshold\": 1}");
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":\"not a dict\"}", RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_call\"}", RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_result\",\"data\":{\"name\":\"x\"}}", RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"request\",\"data\":\"hi\"}", RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
}

static void test_custom_threshold_vector(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"window\": 20, \"threshold\": 5}");
    PT_EXPECT(
        &p,
        "{\"type\":\"tool_call\",\"data\":{\"name\":\"Bash\",\"arguments\":{\"command\":\"x\"}},"
        "\"session_state\":{\"_policy_loop_recent_hashes\":[\"" H_X "\",\"" H_X "\",\"" H_X
        "\",\"" H_X "\"]}}",
        RP_ASK, loop_reason("Bash", 5, 5),
        SET("[\"" H_X "\",\"" H_X "\",\"" H_X "\",\"" H_X "\",\"" H_X "\"]"));
    pt_policy_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schema),
        cmocka_unit_test(test_create_rejects_zero),
        cmocka_unit_test(test_reference_hashes),
        cmocka_unit_test(test_hash_canonical_form),
        cmocka_unit_test(test_threshold_asks_and_keeps_window),
        cmocka_unit_test(test_window_evicts_oldest),
        cmocka_unit_test(test_corrupt_history_is_ignored),
        cmocka_unit_test(test_reason_uses_python_str_of_name),
        cmocka_unit_test(test_other_events_allow),
        cmocka_unit_test(test_custom_threshold_vector),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
