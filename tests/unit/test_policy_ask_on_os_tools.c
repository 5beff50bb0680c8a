/* test_policy_ask_on_os_tools.c — the approval question for file and shell tools
 * (reference §5.1), including Python repr() of the preview. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "policies/builtins.h"
#include "policies/common/tools.h"
#include "policy_test_util.h"

#define T (&rp_policy_ask_on_os_tools)

static const char *call(const char *tool, const char *args)
{
    static char buf[1024];
    snprintf(
        buf, sizeof buf,
        "{\"type\":\"tool_call\",\"target\":\"%s\",\"data\":{\"name\":\"%s\",\"arguments\":%s}}",
        tool, tool, args);
    return buf;
}

static void test_direct_callable(void **unused)
{
    (void)unused;
    assert_true(T->direct_callable);
    assert_int_equal(T->n_params, 0);
    size_t n;
    rp_tool_set_entries(RP_TOOLS_OS, &n);
    assert_int_equal(n, 28);
}

static void test_previews_per_family(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, NULL);
    assert_int_equal(p.create_rc, 0);
    PT_EXPECT(&p, call("Bash", "{\"command\":\"rm -rf /\"}"), RP_ASK,
              "Agent wants to call Bash('rm -rf /'). Approve?", NULL);
    PT_EXPECT(&p, call("developer__shell", "{\"command\":\"ls\"}"), RP_ASK,
              "Agent wants to call developer__shell('ls'). Approve?", NULL);
    PT_EXPECT(&p, call("Grep", "{\"pattern\":\"secret\",\"path\":\"/x\"}"), RP_ASK,
              "Agent wants to call Grep('secret'). Approve?", NULL);
    PT_EXPECT(&p, call("search_files", "{\"pattern\":\"*.py\"}"), RP_ASK,
              "Agent wants to call search_files('*.py'). Approve?", NULL);
    PT_EXPECT(&p, call("sys_os_write", "{\"path\":\"/tmp/f\"}"), RP_ASK,
              "Agent wants to call sys_os_write('/tmp/f'). Approve?", NULL);
    PT_EXPECT(&p, call("Read", "{\"file_path\":\"/etc/passwd\"}"), RP_ASK,
              "Agent wants to call Read('/etc/passwd'). Approve?", NULL);
    /* a falsy path falls back to file_path */
    PT_EXPECT(&p, call("Edit", "{\"path\":\"\",\"file_path\":\"b.py\"}"), RP_ASK,
              "Agent wants to call Edit('b.py'). Approve?", NULL);
    PT_EXPECT(&p, call("Edit", "{\"path\":null,\"file_path\":\"b.py\"}"), RP_ASK,
              "Agent wants to call Edit('b.py'). Approve?", NULL);
    PT_EXPECT(&p, call("developer__tree", "{\"path\":\".\"}"), RP_ASK,
              "Agent wants to call developer__tree('.'). Approve?", NULL);
    pt_policy_free(&p);
}

static void test_missing_and_odd_arguments(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, NULL);
    PT_EXPECT(&p, call("Bash", "{}"), RP_ASK, "Agent wants to call Bash(''). Approve?", NULL);
    PT_EXPECT(&p, call("Bash", "\"ls\""), RP_ASK, "Agent wants to call Bash(''). Approve?", NULL);
    PT_EXPECT(&p, call("Read", "[1]"), RP_ASK, "Agent wants to call Read(''). Approve?", NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":{\"name\":\"Bash\"}}", RP_ASK,
              "Agent wants to call Bash(''). Approve?", NULL);
    /* non-string values print as Python would */
    PT_EXPECT(&p, call("Bash", "{\"command\":5}"), RP_ASK, "Agent wants to call Bash(5). Approve?",
              NULL);
    PT_EXPECT(&p, call("Bash", "{\"command\":null}"), RP_ASK,
              "Agent wants to call Bash(None). Approve?", NULL);
    PT_EXPECT(&p, call("Bash", "{\"command\":[\"ls\",true,1.5,{\"a\":false}]}"), RP_ASK,
              "Agent wants to call Bash(['ls', True, 1.5, {'a': False}]). Approve?", NULL);
    PT_EXPECT(&p, call("Read", "{\"path\":0,\"file_path\":{}}"), RP_ASK,
              "Agent wants to call Read({}). Approve?", NULL);
    pt_policy_free(&p);
}

static void test_python_repr_of_strings(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, NULL);
    PT_EXPECT(&p, call("Bash", "{\"command\":\"echo 'hi'\"}"), RP_ASK,
              "Agent wants to call Bash(\"echo 'hi'\"). Approve?", NULL);
    PT_EXPECT(&p, call("Bash", "{\"command\":\"a'b\\\"c\"}"), RP_ASK,
              "Agent wants to call Bash('a\\'b\"c'). Approve?", NULL);
    PT_EXPECT(&p, call("Bash", "{\"command\":\"a\\nb\\tc\\rd\\\\e\\u0001\\u007f\"}"), RP_ASK,
              "Agent wants to call Bash('a\\nb\\tc\\rd\\\\e\\x01\\x7f'). Approve?", NULL);
    PT_EXPECT(&p, call("Bash", "{\"command\":\"caf\\u00e9 \\u65e5\\u672c \\ud83d\\ude00\"}"),
              RP_ASK,
              "Agent wants to call Bash('caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac "
              "\xf0\x9f\x98\x80'). Approve?",
              NULL);
    PT_EXPECT(&p, call("Bash", "{\"command\":\"\\u0085\\u00a0\\u200b\\u2028\\ue000\\ufeff\"}"),
              RP_ASK,
              "Agent wants to call Bash('\\x85\\xa0\\u200b\\u2028\\ue000\\ufeff'). Approve?", NULL);
    PT_EXPECT(&p, call("Bash", "{\"command\":\"\\udb40\\udc01\"}"), RP_ASK,
              "Agent wants to call Bash('\\U000e0001'). Approve?", NULL);
    pt_policy_free(&p);
}

static void test_execute_code_preview(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, NULL);
    PT_EXPECT(&p, call("execute_code", "{\"code\":\"print(1)\"}"), RP_ASK,
              "Agent wants to call execute_code('print(1)'). Approve?", NULL);
    char args[512], reason[512], code[200] = "";
    for (int i = 0; i < 79; i++)
        strcat(code, "x");
    snprintf(args, sizeof args, "{\"code\":\"%s\\u00e9yyy\"}", code); /* 80th char is é */
    snprintf(reason, sizeof reason, "Agent wants to call execute_code('%s\xc3\xa9'). Approve?",
             code);
    PT_EXPECT(&p, call("execute_code", args), RP_ASK, reason, NULL);
    PT_EXPECT(&p, call("execute_code", "{\"code\":[1,2]}"), RP_ASK,
              "Agent wants to call execute_code([1, 2]). Approve?", NULL);
    PT_EXPECT(&p, call("execute_code", "{}"), RP_ASK,
              "Agent wants to call execute_code(''). Approve?", NULL);
    PT_EXPECT(&p, call("execute_code", "\"x\""), RP_ASK,
              "Agent wants to call execute_code(''). Approve?", NULL);
    /* int has no [:80] in Python: the call fails, and the engine denies */
    PT_EXPECT_FAIL(&p, call("execute_code", "{\"code\":5}"), "not sliceable");
    PT_EXPECT_FAIL(&p, call("execute_code", "{\"code\":null}"), "not sliceable");
    pt_policy_free(&p);
}

static void test_allows_everything_else(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, NULL);
    PT_EXPECT(&p, call("NotebookEdit", "{\"notebook_path\":\"a.ipynb\"}"), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, call("MultiEdit", "{}"), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, call("WebFetch", "{}"), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, call("Skill", "{}"), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, call("exec_command", "{\"command\":\"ls\"}"), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, call("bash ", "{\"command\":\"ls\"}"), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"target\":\"Bash\",\"data\":\"Bash\"}", RP_ALLOW, NULL,
              NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":{\"name\":\"Bash\\u0000x\"}}", RP_ALLOW, NULL,
              NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":{\"name\":7}}", RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_result\",\"data\":{\"name\":\"Bash\"}}", RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"request\",\"data\":\"Bash\"}", RP_ALLOW, NULL, NULL);
    PT_EXPECT_FAIL(&p, "{\"type\":\"tool_call\",\"data\":{\"name\":[\"Bash\"]}}", "unhashable");
    pt_policy_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_direct_callable),
        cmocka_unit_test(test_previews_per_family),
        cmocka_unit_test(test_missing_and_odd_arguments),
        cmocka_unit_test(test_python_repr_of_strings),
        cmocka_unit_test(test_execute_code_preview),
        cmocka_unit_test(test_allows_everything_else),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
