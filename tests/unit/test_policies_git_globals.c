/* test_policies_git_globals.c — blast_radius and block_working_dir_changes read git's global
 * options through the one reader, shell/git.h, as git 2.x reads them. blast_radius had its own
 * reader before, which missed --shallow-file's value, compared one-off alias names
 * case-sensitively and took the first of several -c alias.X values; git takes the last. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "policies/builtins.h"
#include "policy_test_util.h"

static const char *verdict_of(const rp_policy_type *t, const char *command)
{
    static char out[16];
    rp_buf ev = {0};
    rp_buf_puts(&ev, "{\"type\":\"tool_call\",\"data\":{\"name\":\"Bash\",\"arguments\":"
                     "{\"command\":");
    rp_json_write_string(&ev, command, strlen(command));
    rp_buf_puts(&ev, "}},\"context\":{\"cwd\":\"/w\",\"home\":\"/h\"}}");
    rp_buf_putc(&ev, '\0');
    pt_policy p;
    pt_create(&p, t, "{}");
    assert_int_equal(p.create_rc, 0);
    pt_eval e;
    pt_eval_event(&e, &p, ev.data);
    snprintf(out, sizeof out, "%s", e.rc == 0 ? rp_verdict_name(e.result.verdict) : "ERROR");
    pt_eval_free(&e);
    pt_policy_free(&p);
    rp_buf_free(&ev);
    return out;
}

#define BLAST(cmd) verdict_of(&rp_policy_blast_radius, (cmd))

static void test_blast_radius_global_options(void **s)
{
    (void)s;
    assert_string_equal(BLAST("git -C d push --force origin main"), "DENY");
    /* `git --shallow-file x push --force` force-pushes (was: "x" read as the subcommand) */
    assert_string_equal(BLAST("git --shallow-file x push --force origin main"), "DENY");
    /* alias names are case-insensitive in git (was: alias.FP did not define fp) */
    assert_string_equal(BLAST("git -c alias.FP='push --force' fp origin main"), "DENY");
    assert_string_equal(BLAST("git -c Alias.fp='push --force' fp origin main"), "DENY");
    /* the last -c alias.x wins in git (was: the first, status) */
    assert_string_equal(BLAST("git -c alias.x=status -c alias.x='push --force' x origin main"),
                        "DENY");
    assert_string_equal(BLAST("git -c alias.x='push --force' -c alias.x=status x"), "ALLOW");
    /* an alias whose text is in the environment is not ours to clear */
    assert_string_equal(BLAST("git --config-env=alias.x=E x"), "ASK");
    assert_string_equal(BLAST("git -c remote.origin.mirror=true push origin"), "DENY");
    assert_string_equal(BLAST("git --config-env remote.origin.mirror=E push origin"), "ASK");
}

/* A command the parser cannot read gets the reference's whitespace reading; git's global
 * options there are read by shell/git.h too. */
static void test_blast_radius_fallback_global_options(void **s)
{
    (void)s;
    assert_string_equal(BLAST("git -C d push --force origin 'oops"), "DENY");
    /* was: "x" read as the subcommand, so only the unreadable command's ASK */
    assert_string_equal(BLAST("git --shallow-file x push --force origin 'oops"), "DENY");
    /* --exec-path alone prints and exits (was: read as a forced push, DENY) */
    assert_string_equal(BLAST("git --exec-path x push --force origin 'oops"), "ASK");
}

static void test_working_dir_last_alias_wins(void **s)
{
    (void)s;
    const rp_policy_type *t = &rp_policy_block_working_dir_changes;
    assert_string_equal(verdict_of(t, "git -c alias.x=status -c alias.x='worktree add ../y' x"),
                        "DENY");
    assert_string_equal(verdict_of(t, "git -c alias.x='worktree add ../y' -c alias.x=status x"),
                        "ABSTAIN");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blast_radius_global_options),
        cmocka_unit_test(test_blast_radius_fallback_global_options),
        cmocka_unit_test(test_working_dir_last_alias_wins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
