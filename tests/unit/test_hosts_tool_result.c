/* test_hosts_tool_result.c — the one shape of a tool_result's data (src/hosts/tool_result.c):
 * the text of every host's output, the hosts' error signals, and a rewrite put back into the
 * host's own output shape. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/buf.h"
#include "hosts/tool_result.h"

static rp_arena A;

static int setup(void **state)
{
    (void)state;
    rp_arena_init(&A, 0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rp_arena_free(&A);
    return 0;
}

static const rp_json *json(const char *text)
{
    rp_json_error err;
    rp_json *v = rp_json_parse(&A, text, strlen(text), &err);
    assert_non_null(v);
    return v;
}

static void assert_json(const rp_json *v, const char *want)
{
    assert_non_null(v);
    rp_buf b = {0};
    rp_json_write_sorted(&b, v);
    assert_string_equal(b.data, want);
    rp_buf_free(&b);
}

static void expect_data(const char *raw, rp_hook_tool_outcome outcome, const char *want)
{
    rp_json data = rp_hook_tool_result_data(&A, raw ? json(raw) : NULL, outcome);
    assert_json(&data, want);
}

static void test_data_of_every_host_shape(void **state)
{
    (void)state;
    /* Codex, Cursor, Claude's failure event, Pi: a string. */
    expect_data("\"file.txt\\n\"", RP_HOOK_TOOL_UNKNOWN, "{\"result\":\"file.txt\\n\"}");
    expect_data("\"Exit code 3\"", RP_HOOK_TOOL_ERROR,
                "{\"is_error\":true,\"result\":\"Exit code 3\"}");
    /* Claude's Bash: stdout, stderr, or both as one text. */
    expect_data("{\"stdout\":\"a\",\"stderr\":\"\",\"interrupted\":false}", RP_HOOK_TOOL_OK,
                "{\"is_error\":false,\"result\":\"a\"}");
    expect_data("{\"stdout\":\"\",\"stderr\":\"b\"}", RP_HOOK_TOOL_OK,
                "{\"is_error\":false,\"result\":\"b\"}");
    expect_data("{\"stdout\":\"a\",\"stderr\":\"b\"}", RP_HOOK_TOOL_OK,
                "{\"is_error\":false,\"result\":\"a\\nb\"}");
    /* Gemini's llmContent; opencode's and Cursor's output. */
    expect_data("{\"llmContent\":\"x\",\"returnDisplay\":\"y\"}", RP_HOOK_TOOL_OK,
                "{\"is_error\":false,\"result\":\"x\"}");
    expect_data("{\"title\":\"t\",\"output\":\"o\"}", RP_HOOK_TOOL_UNKNOWN, "{\"result\":\"o\"}");
    /* No known text: the value as it came; nothing: null. */
    expect_data("{\"type\":\"text\",\"file\":{\"content\":\"c\"}}", RP_HOOK_TOOL_OK,
                "{\"is_error\":false,\"result\":{\"file\":{\"content\":\"c\"},\"type\":\"text\"}}");
    expect_data("[1]", RP_HOOK_TOOL_UNKNOWN, "{\"result\":[1]}");
    expect_data(NULL, RP_HOOK_TOOL_ERROR, "{\"is_error\":true,\"result\":null}");
}

static const rp_json *back(const char *raw, const char *data)
{
    return rp_hook_tool_result_host_output(&A, raw ? json(raw) : NULL, json(data));
}

static void test_rewrite_back_into_host_shape(void **state)
{
    (void)state;
    assert_json(back("\"k=SECRET\"", "{\"result\":\"k=[R]\"}"), "\"k=[R]\"");
    assert_json(back("{\"stdout\":\"k=SECRET\",\"stderr\":\"\",\"interrupted\":false}",
                     "{\"result\":\"k=[R]\",\"is_error\":false}"),
                "{\"interrupted\":false,\"stderr\":\"\",\"stdout\":\"k=[R]\"}");
    assert_json(back("{\"stdout\":\"\",\"stderr\":\"k=SECRET\"}", "{\"result\":\"k=[R]\"}"),
                "{\"stderr\":\"k=[R]\",\"stdout\":\"\"}");
    /* Both streams were one text: the rewrite is that one text, in stdout. */
    assert_json(back("{\"stdout\":\"a\",\"stderr\":\"k=SECRET\"}", "{\"result\":\"a\\nk=[R]\"}"),
                "{\"stderr\":\"\",\"stdout\":\"a\\nk=[R]\"}");
    assert_json(
        back("{\"llmContent\":\"k=SECRET\",\"returnDisplay\":\"d\"}", "{\"result\":\"k=[R]\"}"),
        "{\"llmContent\":\"k=[R]\",\"returnDisplay\":\"d\"}");
    /* No known text: the rewritten value itself. */
    assert_json(back("{\"file\":{\"content\":\"SECRET\"}}", "{\"result\":{\"file\":{\"content\":"
                                                            "\"[R]\"}}}"),
                "{\"file\":{\"content\":\"[R]\"}}");
    /* Not expressible: no result, or text turned into something else. */
    assert_null(back("\"x\"", "{\"is_error\":true}"));
    assert_null(back("{\"stdout\":\"x\"}", "{\"result\":{\"a\":1}}"));
    assert_null(back("\"x\"", "\"bare\""));
}

static void test_claude_signal(void **state)
{
    (void)state;
    assert_int_equal(rp_hook_tool_outcome_claude(json("{\"stdout\":\"\",\"interrupted\":false}")),
                     RP_HOOK_TOOL_OK);
    assert_int_equal(rp_hook_tool_outcome_claude(json("{\"stdout\":\"\",\"interrupted\":true}")),
                     RP_HOOK_TOOL_ERROR);
    assert_int_equal(rp_hook_tool_outcome_claude(json("{\"content\":[],\"isError\":true}")),
                     RP_HOOK_TOOL_ERROR);
    assert_int_equal(rp_hook_tool_outcome_claude(json("{\"is_error\":true}")), RP_HOOK_TOOL_ERROR);
    assert_int_equal(rp_hook_tool_outcome_claude(json("{\"is_error\":\"yes\"}")), RP_HOOK_TOOL_OK);
    assert_int_equal(rp_hook_tool_outcome_claude(json("\"text\"")), RP_HOOK_TOOL_OK);
}

static void test_exit_lines(void **state)
{
    (void)state;
    /* Codex: the first line only (the recorded apply_patch shape). */
    assert_int_equal(rp_hook_tool_outcome_exit_line(
                         "Exit code: 0\nWall time: 0 seconds\nOutput:\nok\n", "Exit code:", true),
                     RP_HOOK_TOOL_OK);
    assert_int_equal(
        rp_hook_tool_outcome_exit_line("Exit code: 1\nOutput:\nfailed\n", "Exit code:", true),
        RP_HOOK_TOOL_ERROR);
    assert_int_equal(rp_hook_tool_outcome_exit_line("file.txt\nExit code: 1\n", "Exit code:", true),
                     RP_HOOK_TOOL_UNKNOWN);
    /* Gemini: the last such line, after the output. */
    assert_int_equal(rp_hook_tool_outcome_exit_line(
                         "Output: x\nExit Code: 2\nProcess Group PGID: 7", "Exit Code:", false),
                     RP_HOOK_TOOL_ERROR);
    assert_int_equal(
        rp_hook_tool_outcome_exit_line("Output: Exit Code: 3\nExit Code: 0\n", "Exit Code:", false),
        RP_HOOK_TOOL_OK);
    assert_int_equal(rp_hook_tool_outcome_exit_line("Output: x\nExit Code: (none)\nSignal: 9",
                                                    "Exit Code:", false),
                     RP_HOOK_TOOL_UNKNOWN);
    assert_int_equal(rp_hook_tool_outcome_exit_line("Exit Code: 2x", "Exit Code:", false),
                     RP_HOOK_TOOL_UNKNOWN);
    assert_int_equal(rp_hook_tool_outcome_exit_line("", "Exit Code:", false), RP_HOOK_TOOL_UNKNOWN);
    /* A label with no number of its own does not take the next line's. */
    assert_int_equal(rp_hook_tool_outcome_exit_line("Exit code:\n1\n", "Exit code:", true),
                     RP_HOOK_TOOL_UNKNOWN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_data_of_every_host_shape, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rewrite_back_into_host_shape, setup, teardown),
        cmocka_unit_test_setup_teardown(test_claude_signal, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exit_lines, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
