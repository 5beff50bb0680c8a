/* test_policy_block_skills.c — skill blocking by tool call and by slash command
 * (reference §5.4). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "policies/builtins.h"
#include "policy_test_util.h"

#define T (&rp_policy_block_skills)
#define TOOL(name, args)                                                                           \
    "{\"type\":\"tool_call\",\"data\":{\"name\":\"" name "\",\"arguments\":" args "}}"
#define REQ(data) "{\"type\":\"request\",\"data\":" data "}"

static void test_schema(void **unused)
{
    (void)unused;
    const rp_param_spec *blocked = pt_param(T, "blocked");
    assert_int_equal(T->n_params, 1);
    assert_int_equal(blocked->kind, RP_PARAM_STRING_LIST);
    assert_true(blocked->required);
    assert_null(blocked->default_json);
}

static void test_create_requires_strings(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{}");
    assert_int_equal(p.create_rc, -1);
    assert_string_equal(p.err.param, "blocked");
    pt_policy_free(&p);
    pt_create(&p, T, "{\"blocked\": [\"a\", 1]}");
    assert_int_equal(p.create_rc, -1);
    pt_policy_free(&p);
}

static void test_tool_paths(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"blocked\": [\"Code-Review\", \"deploy\"]}");
    assert_int_equal(p.create_rc, 0);
    PT_EXPECT(&p, TOOL("load_skill", "{\"name\":\"code-review\"}"), RP_DENY,
              "Skill 'code-review' is blocked by policy", NULL);
    PT_EXPECT(&p, TOOL("load_skill", "{\"name\":\"CODE-REVIEW\"}"), RP_DENY,
              "Skill 'CODE-REVIEW' is blocked by policy", NULL);
    PT_EXPECT(&p, TOOL("load_skill", "{\"name\":\"other\"}"), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, TOOL("read_skill_file", "{\"skill_name\":\"deploy\",\"path\":\"x\"}"), RP_DENY,
              "Skill 'deploy' is blocked by policy", NULL);
    /* read_skill_file reads skill_name, not name */
    PT_EXPECT(&p, TOOL("read_skill_file", "{\"name\":\"deploy\"}"), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, TOOL("Skill", "{\"skill\":\"DEPLOY\",\"args\":\"--force\"}"), RP_DENY,
              "Skill 'DEPLOY' is blocked by policy", NULL);
    PT_EXPECT(&p, TOOL("Skill", "{\"name\":\"deploy\"}"), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, TOOL("skill", "{\"skill\":\"deploy\"}"), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, TOOL("load_skill", "{\"name\":\"\"}"), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, TOOL("load_skill", "{\"name\":0}"), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, TOOL("load_skill", "\"deploy\""), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":\"load_skill\"}", RP_ALLOW, NULL, NULL);
    /* a truthy non-string name has no .lower() in Python: the evaluation fails */
    PT_EXPECT_FAIL(&p, TOOL("load_skill", "{\"name\":[\"deploy\"]}"), "not a string");
    PT_EXPECT_FAIL(&p, TOOL("Skill", "{\"skill\":1}"), "not a string");
    pt_policy_free(&p);
}

static void test_unicode_lowering(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"blocked\": [\"\xc3\x89T\xc3\x89\", \"\xce\xa3\xce\x9f\xce\xa6\"]}");
    PT_EXPECT(&p, TOOL("load_skill", "{\"name\":\"\xc3\xa9t\xc3\xa9\"}"), RP_DENY,
              "Skill '\xc3\xa9t\xc3\xa9' is blocked by policy", NULL);
    PT_EXPECT(&p, TOOL("load_skill", "{\"name\":\"\xcf\x83\xce\xbf\xcf\x86\"}"), RP_DENY,
              "Skill '\xcf\x83\xce\xbf\xcf\x86' is blocked by policy", NULL);
    pt_policy_free(&p);
}

static void test_slash_commands(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"blocked\": [\"git-stack\", \"Deploy\"]}");
    PT_EXPECT(&p, REQ("\"/git-stack\""), RP_DENY, "Skill 'git-stack' is blocked by policy", NULL);
    PT_EXPECT(&p, REQ("\"/Git-Stack create my-feature\""), RP_DENY,
              "Skill 'Git-Stack' is blocked by policy", NULL);
    PT_EXPECT(&p, REQ("\"/git-stack\\tx\""), RP_DENY, "Skill 'git-stack' is blocked by policy",
              NULL);
    PT_EXPECT(&p, REQ("\"/ git-stack\""), RP_DENY, "Skill 'git-stack' is blocked by policy", NULL);
    PT_EXPECT(&p, REQ("{\"user_content\":\"/deploy prod\",\"attachments\":[]}"), RP_DENY,
              "Skill 'deploy' is blocked by policy", NULL);
    PT_EXPECT(&p, REQ("{\"text\":\"/deploy\"}"), RP_DENY, "Skill 'deploy' is blocked by policy",
              NULL);
    PT_EXPECT(&p, REQ("[{\"type\":\"text\",\"text\":\"/deploy now\"},{\"text\":\"more\"}]"),
              RP_DENY, "Skill 'deploy' is blocked by policy", NULL);
    PT_EXPECT(&p, REQ("\"please /deploy\""), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, REQ("\" /deploy\""), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, REQ("\"/deployment\""), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, REQ("\"/\""), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, REQ("\"/   \""), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, REQ("\"\""), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, REQ("42"), RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"request\"}", RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"response\",\"data\":\"/deploy\"}", RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schema),         cmocka_unit_test(test_create_requires_strings),
        cmocka_unit_test(test_tool_paths),     cmocka_unit_test(test_unicode_lowering),
        cmocka_unit_test(test_slash_commands),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
