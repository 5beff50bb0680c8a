/* test_shell_cwd.c — the cd fold (shell/cwd.h): the directory each command runs in, by shell
 * environment, with the cds that change nothing and the ones that cannot be known. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "shell/cwd.h"
#include "shell/shell.h"

#include "shell_test_util.h"

/* The directory the nth command named prog runs in, after parsing src. */
static const char *dir_of(const char *src, const char *prog, int nth, const char *home)
{
    parse_ok(src);
    const char **dirs = rp_sh_fold_cd(&arena, &parsed, home);
    const rp_sh_command *c = command_named(prog, nth);
    return dirs[c - parsed.commands];
}

static void expect_dir(const char *src, const char *prog, const char *want)
{
    const char *got = dir_of(src, prog, 0, "/home/u");
    if (want == NULL) {
        if (got != NULL)
            fail_msg("%s: %s runs in %s, want the session's cwd", src, prog, got);
        return;
    }
    if (got == NULL || strcmp(got, want) != 0)
        fail_msg("%s: %s runs in %s, want %s", src, prog, got ? got : "(cwd)", want);
}

static void test_cd_changes_later_commands(void **state)
{
    (void)state;
    expect_dir("rm x", "rm", NULL);
    expect_dir("cd / && rm x", "rm", "/");
    expect_dir("cd /a/b/../c; rm x", "rm", "/a/c");
    expect_dir("cd /a; cd b; rm x", "rm", "/a/b");
    expect_dir("cd build && rm x", "rm", "build");
    expect_dir("cd ~ && rm x", "rm", "/home/u");
    expect_dir("cd && rm x", "rm", "/home/u");
    expect_dir("cd ~/p && rm x", "rm", "/home/u/p");
    expect_dir("cd -P -- /x && rm y", "rm", "/x");
    expect_dir("pushd /x && rm y", "rm", "/x");
    expect_dir("command cd /x; rm y", "rm", "/x");
    expect_dir("eval 'cd /x'; rm y", "rm", "/x");
    expect_dir("cd /x && sudo rm y", "rm", "/x"); /* the wrapped command runs there too */
    expect_dir("cd /x && bash -c 'rm y'", "rm", "/x");
    expect_dir("bash -c 'cd /x && rm y'", "rm", "/x");
}

static void test_cd_in_its_own_environment(void **state)
{
    (void)state;
    expect_dir("(cd /x); rm y", "rm", NULL);
    expect_dir("(cd /x; rm y)", "rm", "/x");
    expect_dir("cd /x | rm y", "rm", NULL);
    expect_dir("echo $(cd /x); rm y", "rm", NULL);
    expect_dir("cd /x; (rm y)", "rm", "/x");
    expect_dir("bash -c 'cd /x'; rm y", "rm", NULL);
    expect_dir("sudo cd /x; rm y", "rm", NULL); /* no builtin runs: nothing changes */
}

static void test_unknown_directories(void **state)
{
    (void)state;
    expect_dir("cd \"$D\" && rm y", "rm", "");
    expect_dir("cd - && rm y", "rm", "");
    expect_dir("cd ~bob && rm y", "rm", "");
    expect_dir("cd /x; popd; rm y", "rm", "");
    expect_dir("cd \"$D\"; cd sub; rm y", "rm", "");
    expect_dir("cd \"$D\"; cd /abs; rm y", "rm", "/abs");
    assert_string_equal(dir_of("cd ~ && rm y", "rm", 0, NULL), "");
}

int main(void)
{
    rp_arena_init(&arena, 1 << 16);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cd_changes_later_commands),
        cmocka_unit_test(test_cd_in_its_own_environment),
        cmocka_unit_test(test_unknown_directories),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rp_arena_free(&arena);
    return rc;
}
