/* test_shell_env.c — the shell environments of the parser: which commands share a shell (so a
 * `cd` or an assignment in one is seen by the others) and which run in a copy of it:
 * subshells, substitution bodies, pipeline stages, background jobs, strings run by a new shell. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "shell/shell.h"

#include "shell_test_util.h"

static int env_of(const char *prog, int nth)
{
    return command_named(prog, nth)->env;
}

static unsigned kind_of(int env)
{
    assert_true(env >= 0 && (size_t)env < parsed.n_envs);
    return parsed.env_kind[env];
}

static int parent_of(int env)
{
    assert_true(env >= 0 && (size_t)env < parsed.n_envs);
    return parsed.env_parent[env];
}

/* What every parse must satisfy: env 0 is the top level, parents precede their children,
 * and every command names an existing environment. */
static void expect_well_formed(void)
{
    assert_true(parsed.n_envs >= 1);
    assert_int_equal(parsed.env_parent[0], -1);
    assert_int_equal(parsed.env_kind[0], RP_SH_ENV_TOP);
    for (size_t e = 1; e < parsed.n_envs; e++) {
        assert_true(parsed.env_parent[e] >= 0);
        assert_true((size_t)parsed.env_parent[e] < e);
        assert_true(parsed.env_kind[e] != RP_SH_ENV_TOP && parsed.env_kind[e] <= RP_SH_ENV_STRING);
    }
    for (size_t i = 0; i < parsed.n_commands; i++)
        assert_true(parsed.commands[i].env >= 0 && (size_t)parsed.commands[i].env < parsed.n_envs);
}

static void test_single_environment_needs_no_tree(void **state)
{
    (void)state;
    parse_ok("cd src && cat App.jsx && git status");
    expect_well_formed();
    assert_int_equal(parsed.n_envs, 1);
    for (size_t i = 0; i < parsed.n_commands; i++)
        assert_int_equal(parsed.commands[i].env, 0);
    /* brace groups, functions and control flow run in the current shell */
    parse_ok("{ cd a; cat b; } && if x; then cd c; fi; f() { cd d; }; for i in 1; do cd e; done");
    expect_well_formed();
    assert_int_equal(parsed.n_envs, 1);
}

static void test_subshells_are_separate(void **state)
{
    (void)state;
    parse_ok("( cd a ) && ( cat x )");
    expect_well_formed();
    int cd = env_of("cd", 0), cat = env_of("cat", 0);
    assert_int_not_equal(cd, cat);
    assert_int_not_equal(cd, 0);
    assert_int_equal(kind_of(cd), RP_SH_ENV_SUBSHELL);
    assert_int_equal(kind_of(cat), RP_SH_ENV_SUBSHELL);
    assert_int_equal(parent_of(cd), 0);
    assert_int_equal(parent_of(cat), 0);
    /* a nested subshell is a child of the outer one */
    parse_ok("( cd a; ( cd b; ls ); pwd )");
    expect_well_formed();
    int outer = env_of("cd", 0), inner = env_of("cd", 1);
    assert_int_equal(env_of("pwd", 0), outer);
    assert_int_equal(env_of("ls", 0), inner);
    assert_int_equal(parent_of(inner), outer);
}

static void test_pipeline_stages_are_subshells(void **state)
{
    (void)state;
    parse_ok("cd a && x 2>&1 | tail");
    expect_well_formed();
    assert_int_equal(env_of("cd", 0), 0);
    int x = env_of("x", 0), tail = env_of("tail", 0);
    assert_int_not_equal(x, tail);
    assert_int_equal(kind_of(x), RP_SH_ENV_PIPE_STAGE);
    assert_int_equal(kind_of(tail), RP_SH_ENV_PIPE_STAGE);
    assert_int_equal(parent_of(x), 0);
    assert_int_equal(parent_of(tail), 0);

    /* a compound first stage: its members share the stage's environment */
    parse_ok("{ cd a; cat b; } | grep c; ls");
    expect_well_formed();
    assert_int_equal(env_of("cd", 0), env_of("cat", 0));
    assert_int_equal(kind_of(env_of("cd", 0)), RP_SH_ENV_PIPE_STAGE);
    assert_int_not_equal(env_of("grep", 0), env_of("cd", 0));
    assert_int_equal(env_of("ls", 0), 0);

    /* a subshell or a substitution inside the first stage moves with it */
    parse_ok("( cd a ) | b $(c)");
    expect_well_formed();
    int stage0 = parent_of(env_of("cd", 0));
    assert_int_equal(kind_of(stage0), RP_SH_ENV_PIPE_STAGE);
    assert_int_equal(parent_of(stage0), 0);
    int stage1 = env_of("b", 0);
    assert_int_equal(kind_of(stage1), RP_SH_ENV_PIPE_STAGE);
    assert_int_equal(parent_of(env_of("c", 0)), stage1);
    parse_ok("echo $(pwd) | cat");
    expect_well_formed();
    assert_int_equal(parent_of(env_of("pwd", 0)), env_of("echo", 0));
    assert_int_equal(kind_of(env_of("echo", 0)), RP_SH_ENV_PIPE_STAGE);
}

static void test_background_jobs(void **state)
{
    (void)state;
    parse_ok("a & b");
    expect_well_formed();
    assert_int_equal(kind_of(env_of("a", 0)), RP_SH_ENV_BACKGROUND);
    assert_int_equal(parent_of(env_of("a", 0)), 0);
    assert_int_equal(env_of("b", 0), 0);

    /* the whole and-or list is one job */
    parse_ok("cd x && y & z");
    expect_well_formed();
    assert_int_equal(env_of("cd", 0), env_of("y", 0));
    assert_int_equal(kind_of(env_of("cd", 0)), RP_SH_ENV_BACKGROUND);
    assert_int_equal(env_of("z", 0), 0);

    /* a backgrounded pipeline: the stages are children of the job */
    parse_ok("a | b & c");
    expect_well_formed();
    int job = parent_of(env_of("a", 0));
    assert_int_equal(kind_of(job), RP_SH_ENV_BACKGROUND);
    assert_int_equal(parent_of(env_of("b", 0)), job);
    assert_int_equal(kind_of(env_of("a", 0)), RP_SH_ENV_PIPE_STAGE);
    assert_int_equal(env_of("c", 0), 0);
}

static void test_substitutions_nest(void **state)
{
    (void)state;
    parse_ok("echo $(cat $(ls d)) `pwd` <(sort f) >(tee g)");
    expect_well_formed();
    assert_int_equal(env_of("echo", 0), 0);
    int cat = env_of("cat", 0), ls = env_of("ls", 0);
    assert_int_equal(kind_of(cat), RP_SH_ENV_SUBST);
    assert_int_equal(parent_of(cat), 0);
    assert_int_equal(kind_of(ls), RP_SH_ENV_SUBST);
    assert_int_equal(parent_of(ls), cat);
    assert_int_equal(kind_of(env_of("pwd", 0)), RP_SH_ENV_SUBST);
    assert_int_equal(kind_of(env_of("sort", 0)), RP_SH_ENV_SUBST);
    assert_int_equal(kind_of(env_of("tee", 0)), RP_SH_ENV_SUBST);
    assert_int_not_equal(env_of("sort", 0), env_of("tee", 0));

    /* commands of one substitution share it */
    parse_ok("echo $(cd q && cat ../r)");
    expect_well_formed();
    assert_int_equal(env_of("cd", 0), env_of("cat", 0));
    assert_int_equal(kind_of(env_of("cd", 0)), RP_SH_ENV_SUBST);

    /* redirect targets and here-doc bodies */
    parse_ok("echo hi > $(cat /etc/shadow)");
    expect_well_formed();
    assert_int_equal(kind_of(env_of("cat", 0)), RP_SH_ENV_SUBST);
    parse_ok("cat <<EOF | grep x\n$(rm y)\nEOF\n");
    expect_well_formed();
    int cat_env = env_of("cat", 0);
    assert_int_equal(kind_of(cat_env), RP_SH_ENV_PIPE_STAGE);
    assert_int_equal(kind_of(env_of("rm", 0)), RP_SH_ENV_SUBST);
    assert_int_equal(parent_of(env_of("rm", 0)), cat_env);
}

static void test_strings_run_by_a_new_shell(void **state)
{
    (void)state;
    parse_ok("bash -c 'cd /x; ls' && pwd");
    expect_well_formed();
    assert_int_equal(env_of("bash", 0), 0);
    int s = env_of("cd", 0);
    assert_int_equal(kind_of(s), RP_SH_ENV_STRING);
    assert_int_equal(parent_of(s), 0);
    assert_int_equal(env_of("ls", 0), s);
    assert_int_equal(env_of("pwd", 0), 0);

    /* eval runs in the current shell */
    parse_ok("eval 'cd /x'; ls");
    expect_well_formed();
    assert_int_equal(env_of("cd", 0), 0);

    /* a wrapper that executes its command directly starts no shell */
    parse_ok("sudo cd x; env A=1 ls; xargs rm; nohup make");
    expect_well_formed();
    assert_int_equal(parsed.n_envs, 1);

    parse_ok("su -c 'cd /a' root; ssh host cd /b; watch ls; script -c 'cd /c' log");
    expect_well_formed();
    int su = env_of("cd", 0), ssh = env_of("cd", 1), script = env_of("cd", 2);
    assert_int_equal(kind_of(su), RP_SH_ENV_STRING);
    assert_int_equal(kind_of(ssh), RP_SH_ENV_STRING);
    assert_int_equal(kind_of(script), RP_SH_ENV_STRING);
    assert_int_equal(kind_of(env_of("ls", 0)), RP_SH_ENV_STRING);
    assert_int_not_equal(su, ssh);

    /* a dynamic string: the unknown command is in the new shell too */
    parse_ok("bash -c \"$CMD\"");
    expect_well_formed();
    const rp_sh_command *inner = &parsed.commands[1];
    assert_true(inner->program_dynamic);
    assert_int_equal(kind_of(inner->env), RP_SH_ENV_STRING);

    /* nested: a subshell inside the string is a child of the string's shell */
    parse_ok("( bash -c '(cd a)' )");
    expect_well_formed();
    int cd = env_of("cd", 0);
    assert_int_equal(kind_of(cd), RP_SH_ENV_SUBSHELL);
    assert_int_equal(kind_of(parent_of(cd)), RP_SH_ENV_STRING);
    assert_int_equal(parent_of(parent_of(cd)), env_of("bash", 0));
    assert_int_equal(kind_of(env_of("bash", 0)), RP_SH_ENV_SUBSHELL);
}

static void test_ids_are_preorder(void **state)
{
    (void)state;
    static const char *const samples[] = {
        "a | b | c & d | e",       "(a | (b & c)) | d & e",  "x $(y | z) | w &",
        "{ a & b; } | c",          "a | b $(c | d &) | e",   "cat <<A | x &\n$(y | z)\nA\n",
        "bash -c 'a | b & c' | d", "f() { a | b & }; f & g", "if a | b; then c & fi | d",
    };
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        parse_ok(samples[i]);
        expect_well_formed();
    }
    parse_ok("a | b & c");
    /* pre-order: the job, then its stages in order */
    int job = parent_of(env_of("a", 0));
    assert_int_equal(job, 1);
    assert_int_equal(env_of("a", 0), 2);
    assert_int_equal(env_of("b", 0), 3);
}

static void test_unreadable_still_well_formed(void **state)
{
    (void)state;
    parse("a | (b & $(c");
    assert_true(parsed.unreadable);
    expect_well_formed();
    parse("");
    expect_well_formed();
    assert_int_equal(parsed.n_envs, 1);
}

static int teardown(void **state)
{
    (void)state;
    rp_arena_free(&arena);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_environment_needs_no_tree),
        cmocka_unit_test(test_subshells_are_separate),
        cmocka_unit_test(test_pipeline_stages_are_subshells),
        cmocka_unit_test(test_background_jobs),
        cmocka_unit_test(test_substitutions_nest),
        cmocka_unit_test(test_strings_run_by_a_new_shell),
        cmocka_unit_test(test_ids_are_preorder),
        cmocka_unit_test(test_unreadable_still_well_formed),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
