/* test_policy_read_only_os.c — report-only agents: every write tool of every host is denied,
 * shell is not (reference §5.17, issue §7). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "policies/builtins.h"
#include "policies/common/tools.h"
#include "policy_test_util.h"

#define T (&rp_policy_read_only_os)
#define DEFAULT_REASON                                                                             \
    "This agent is report-only: it may read files and run shell, but never write or edit "         \
    "them. Describe the change in your report instead of applying it."

static const char *call(const char *tool)
{
    static char buf[256];
    snprintf(buf, sizeof buf,
             "{\"type\":\"tool_call\",\"data\":{\"name\":\"%s\",\"arguments\":{\"path\":\"a\"}}}",
             tool);
    return buf;
}

static void test_denies_every_write_tool(void **unused)
{
    (void)unused;
    static const char *const issue_list[] = {
        "Write",
        "Edit",
        "MultiEdit",
        "NotebookEdit",
        "apply_patch",
        "write_file",
        "replace",
        "str_replace_based_edit_tool",
        "developer__write",
        "developer__edit",
        "developer__text_editor",
        "sys_os_write",
        "sys_os_edit",
        "write",
        "edit",
        "StrReplace",
    };
    pt_policy p;
    pt_create(&p, T, NULL);
    assert_int_equal(p.create_rc, 0);
    for (size_t i = 0; i < sizeof issue_list / sizeof issue_list[0]; i++) {
        assert_true(rp_tool_in_set(RP_TOOLS_WRITE, issue_list[i]));
        PT_EXPECT(&p, call(issue_list[i]), RP_DENY, DEFAULT_REASON, NULL);
    }
    size_t n;
    rp_tool_set_entries(RP_TOOLS_WRITE, &n);
    assert_int_equal(n, sizeof issue_list / sizeof issue_list[0]);
    /* the name may come from the envelope when data has none */
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"target\":\"Write\"}", RP_DENY, DEFAULT_REASON, NULL);
    pt_policy_free(&p);
}

static void test_allows_reads_shell_and_other_events(void **unused)
{
    (void)unused;
    static const char *const allowed[] = {
        "Bash",  "bash",      "Shell",       "sys_os_shell", "run_shell_command",
        "Read",  "read_file", "sys_os_read", "Grep",         "exec_command",
        "shell", "WRITE",     "write ",
    };
    pt_policy p;
    pt_create(&p, T, "{\"deny_reason\": \"custom\"}");
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
        PT_EXPECT(&p, call(allowed[i]), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, call("Edit"), RP_DENY, "custom", NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_result\",\"data\":{\"name\":\"Write\"}}", RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"request\",\"data\":\"Write\"}", RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":{\"name\":3}}", RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
    pt_create(&p, T, "{\"deny_reason\": null}"); /* null means the default */
    PT_EXPECT(&p, call("Write"), RP_DENY, DEFAULT_REASON, NULL);
    pt_policy_free(&p);
    pt_create(&p, T, "{\"deny_reason\": [1]}");
    assert_int_equal(p.create_rc, -1);
    pt_policy_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_denies_every_write_tool),
        cmocka_unit_test(test_allows_reads_shell_and_other_events),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
