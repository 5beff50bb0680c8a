/* test_shell_git.c — git's global options as git 2.x reads them (git.c handle_options), from
 * the one reader (shell/git.h) that github_policy, block_working_dir_changes and the
 * permissions gates share. Each case was checked against the real `git`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "shell/git.h"
#include "shell_test_util.h"

/* The subcommand git runs for `src` ("" when none), with the globals in *g. */
static const char *subcommand_of(const char *src, rp_sh_git_globals *g)
{
    parse_ok(src);
    const rp_sh_command *c = command_named("git", 0);
    assert_non_null(c);
    rp_sh_git_read_globals(c, g);
    return g->subcommand < c->n_words ? c->words[g->subcommand].text : "";
}

/* A quoted -C value is one word: `git -C "my dir" push` pushes (the permissions gates read
 * "dir" as the subcommand before). */
static void test_quoted_value_is_one_word(void **s)
{
    (void)s;
    rp_sh_git_globals g;
    assert_string_equal(subcommand_of("git -C \"my dir\" push origin", &g), "push");
    assert_int_equal(g.n_dirs, 1);
    assert_string_equal(g.dirs[0]->text, "my dir");
    assert_string_equal(subcommand_of("git   -C   d    push", &g), "push");
    assert_string_equal(subcommand_of("git -c 'core.pager=less -R' push", &g), "push");
    assert_int_equal(g.n_configs, 1);
    assert_string_equal(g.configs[0], "core.pager=less -R");
}

/* `git --shallow-file x status` runs status (the gates read "x" as the subcommand before). */
static void test_shallow_file_takes_a_value(void **s)
{
    (void)s;
    rp_sh_git_globals g;
    assert_string_equal(subcommand_of("git --shallow-file x push", &g), "push");
    assert_string_equal(subcommand_of("git --git-dir=.git --work-tree w push", &g), "push");
    assert_string_equal(subcommand_of("git --namespace n --no-pager -P push", &g), "push");
}

/* `--exec-path` alone prints git's exec path and exits: it takes no value (the gates took the
 * next word as one before and read `git --exec-path x push` as a push). */
static void test_exec_path_takes_no_value(void **s)
{
    (void)s;
    rp_sh_git_globals g;
    assert_string_equal(subcommand_of("git --exec-path x push", &g), "x");
    assert_string_equal(subcommand_of("git --exec-path=/x push", &g), "push");
}

/* Every -c and --config-env value is recorded, in order. */
static void test_configs_recorded(void **s)
{
    (void)s;
    rp_sh_git_globals g;
    assert_string_equal(
        subcommand_of("git -c a.b=1 --config-env=core.sshCommand=E -c alias.x='!sh' x", &g), "x");
    assert_int_equal(g.n_configs, 3);
    assert_string_equal(g.configs[0], "a.b=1");
    assert_string_equal(g.configs[1], "core.sshCommand=E");
    assert_string_equal(g.configs[2], "alias.x=!sh");
    assert_int_equal(rp_sh_git_alias_index(&g, "X"), 0);
    assert_false(g.overflow);
}

/* Several -c alias.x: the last one set is the alias (git reads config keys in order). */
static void test_last_alias_wins(void **s)
{
    (void)s;
    rp_sh_git_globals g;
    subcommand_of("git -c alias.x=status -c ALIAS.X=log x", &g);
    assert_int_equal(rp_sh_git_alias_index(&g, "x"), 1);
    assert_string_equal(g.alias_values[1], "log");
    subcommand_of("git --config-env alias.x=E x", &g);
    assert_int_equal(rp_sh_git_alias_index(&g, "x"), 0);
    assert_null(g.alias_values[0]);
    assert_true(g.config_from_env[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quoted_value_is_one_word),
        cmocka_unit_test(test_shallow_file_takes_a_value),
        cmocka_unit_test(test_exec_path_takes_no_value),
        cmocka_unit_test(test_configs_recorded),
        cmocka_unit_test(test_last_alias_wins),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rp_arena_free(&arena);
    return rc;
}
