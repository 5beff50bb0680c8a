/* test_policy_shell_input.c — the shell tool set shared by the shell policies: the default list
 * equals the RP_TOOLS_SHELL table, and the command is read the way the reference reads it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "policies/common/shell_input.h"
#include "policies/common/tools.h"
#include "policy_test_util.h"

static void test_default_json_equals_table(void **unused)
{
    (void)unused;
    rp_arena a = {0};
    const rp_json *list = pt_parse(&a, rp_default_shell_tools_json);
    size_t n;
    const rp_tool_entry *e = rp_tool_set_entries(RP_TOOLS_SHELL, &n);
    assert_int_equal(list->len, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(list->v.items[i].v.s, e[i].name);
    /* The reference's six and Gemini's shell tool; PowerShell is not bash. */
    const char *const names[] = {
        "sys_os_shell",     "Bash", "bash", "Shell", "terminal", "developer__shell",
        "run_shell_command"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        assert_true(rp_is_shell_tool(names[i], NULL));
        assert_true(rp_is_shell_tool(names[i], list));
    }
    assert_false(rp_is_shell_tool("PowerShell", NULL));
    assert_false(rp_is_shell_tool("Write", NULL));
    assert_false(rp_is_shell_tool(NULL, NULL));
    rp_arena_free(&a);
}

static void test_custom_list(void **unused)
{
    (void)unused;
    rp_arena a = {0};
    const rp_json *list = pt_parse(&a, "[\"my_shell\"]");
    assert_true(rp_is_shell_tool("my_shell", list));
    assert_false(rp_is_shell_tool("Bash", list));
    assert_false(rp_shell_tool_is_bash("PowerShell"));
    assert_true(rp_shell_tool_is_bash("Bash"));
    rp_arena_free(&a);
}

static const char *command_of(rp_arena *a, const char *event_json)
{
    rp_event ev;
    assert_true(rp_event_from_json(pt_parse(a, event_json), &ev));
    return rp_shell_command_of(&ev, NULL);
}

static void test_command_of(void **unused)
{
    (void)unused;
    rp_arena a = {0};
    assert_string_equal(
        command_of(&a, "{\"type\":\"tool_call\",\"data\":{\"name\":\"Bash\",\"arguments\":"
                       "{\"command\":\" ls \"}}}"),
        " ls ");
    assert_null(command_of(&a, "{\"type\":\"tool_call\",\"data\":{\"name\":\"Bash\","
                               "\"arguments\":{\"command\":\"  \\n\"}}}"));
    assert_null(command_of(&a, "{\"type\":\"tool_call\",\"data\":{\"name\":\"Bash\","
                               "\"arguments\":{\"command\":3}}}"));
    assert_null(command_of(&a, "{\"type\":\"tool_call\",\"data\":{\"name\":\"Bash\"}}"));
    assert_null(command_of(&a, "{\"type\":\"tool_result\",\"data\":{\"name\":\"Bash\","
                               "\"arguments\":{\"command\":\"ls\"}}}"));
    assert_null(command_of(&a, "{\"type\":\"tool_call\",\"data\":{\"name\":\"Write\","
                               "\"arguments\":{\"command\":\"ls\"}}}"));
    rp_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_json_equals_table),
        cmocka_unit_test(test_custom_list),
        cmocka_unit_test(test_command_of),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
