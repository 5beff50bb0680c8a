/* test_permissions_bash.c — the command units of a bash command (reference permissions.md §4.2–4.4):
 * one per simple command wherever it sits, their text and spelling-independent form, the
 * wrapper floors (stricter than the reference), empty / comment-only / unreadable commands. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "permissions/perm.h"
#include "shell/shell.h"

static rp_arena arena;
static rp_path_ctx pc;
static rp_perm_bash b;

static void analyse(const char *command)
{
    rp_arena_reset(&arena);
    rp_path_ctx_init(&pc, &arena, RP_PATH_POSIX, "/workspace/project", "/home/user", NULL);
    assert_int_equal(rp_perm_bash_analyse(&arena, &pc, command, NULL, &b), 0);
}

static void dump(void)
{
    for (size_t i = 0; i < b.n_units; i++)
        fprintf(stderr, "  unit [%s] canonical [%s] floor %d\n", b.units[i].text,
                b.units[i].canonical ? b.units[i].canonical : "-", b.units[i].floor);
}

/* The unit whose text is t. */
static const rp_perm_unit *unit(const char *t)
{
    for (size_t i = 0; i < b.n_units; i++)
        if (strcmp(b.units[i].text, t) == 0)
            return &b.units[i];
    dump();
    fail_msg("no unit \"%s\"", t);
    return NULL;
}

/* Asserts the unit texts, in order (NULL-terminated). */
static void expect_units(const char *first, ...)
{
    va_list ap;
    va_start(ap, first);
    size_t i = 0;
    for (const char *t = first; t != NULL; t = va_arg(ap, const char *), i++) {
        if (i >= b.n_units) {
            dump();
            fail_msg("unit %zu missing, want \"%s\"", i, t);
        }
        if (strcmp(b.units[i].text, t) != 0) {
            dump();
            fail_msg("unit %zu is \"%s\", want \"%s\"", i, b.units[i].text, t);
        }
    }
    va_end(ap);
    if (b.n_units != i) {
        dump();
        fail_msg("%zu units, want %zu", b.n_units, i);
    }
}

static void expect_canonical(const char *text, const char *canonical)
{
    const rp_perm_unit *u = unit(text);
    if (canonical == NULL)
        assert_null(u->canonical);
    else {
        assert_non_null(u->canonical);
        assert_string_equal(u->canonical, canonical);
    }
}

static void expect_floor(const char *command, const char *text, rp_perm_floor f)
{
    analyse(command);
    const rp_perm_unit *u = unit(text);
    if (u->floor != f) {
        dump();
        fail_msg("%s: unit \"%s\" floor %d, want %d", command, text, u->floor, f);
    }
}

/* ---- units (§4.2) ---- */

static void test_units_split_on_operators(void **state)
{
    (void)state;
    analyse("cd /repo && npm install x");
    expect_units("cd /repo", "npm install x", NULL);
    analyse("a || b ; c & d | e\nf");
    expect_units("a", "b", "c", "d", "e", "f", NULL);
    analyse("echo 'x && y'");
    expect_units("echo 'x && y'", NULL);
    expect_canonical("echo 'x && y'", "echo x && y");
    analyse("npm run build\nnpm run test");
    expect_units("npm run build", "npm run test", NULL);
    analyse("node -e \"\nimport('x').then(() => {\n  console.log('done');\n});\n\"");
    assert_int_equal(b.n_units, 1);
    assert_true(strncmp(b.units[0].text, "node -e \"\nimport", 16) == 0);
}

static void test_units_text_drops_redirects_and_prefixes(void **state)
{
    (void)state;
    analyse("npm install > out.txt");
    expect_units("npm install", NULL);
    analyse("echo a 2>/dev/null b >> log");
    expect_units("echo a b", NULL);
    analyse("cat <<EOF\nbody\nEOF");
    expect_units("cat", NULL);
    analyse("AWS_PROFILE=prod aws s3 ls");
    expect_units("aws s3 ls", NULL);
    analyse("FOO=bar");
    expect_units("FOO=bar", NULL);
    analyse("A=1 B=2");
    expect_units("A=1 B=2", NULL);
    analyse("   git status   ");
    expect_units("git status", NULL);
    /* a redirection that stands alone is a unit; after a compound command it is not */
    analyse("> f");
    expect_units("> f", NULL);
    analyse("{ a; b; } > out");
    expect_units("a", "b", NULL);
}

static void test_units_canonical_spelling(void **state)
{
    (void)state;
    analyse("'rm' x");
    expect_canonical("'rm' x", "rm x");
    analyse("r\\m x");
    expect_canonical("r\\m x", "rm x");
    analyse("rm\tx");
    expect_canonical("rm\tx", "rm x");
    analyse("rm  x");
    expect_canonical("rm  x", "rm x");
    analyse("/bin/rm -rf x");
    expect_canonical("/bin/rm -rf x", "rm -rf x");
    analyse("/usr/local/sbin/thing a");
    expect_canonical("/usr/local/sbin/thing a", "thing a");
    analyse("/usr//bin/../bin/rm x");
    expect_canonical("/usr//bin/../bin/rm x", "rm x");
    /* not a system bin directory, or relative: the path is the program */
    analyse("/tmp/x/git status");
    expect_canonical("/tmp/x/git status", NULL);
    analyse("./rm x");
    expect_canonical("./rm x", NULL);
    analyse("git status");
    expect_canonical("git status", NULL);
    analyse("$'rm' -rf x");
    expect_canonical("$'rm' -rf x", "rm -rf x");
}

static void test_units_everywhere(void **state)
{
    (void)state;
    /* control-flow bodies are units too (stricter than v26.3.1) */
    analyse("if true; then rm x; fi");
    expect_units("true", "rm x", NULL);
    analyse("for f in *; do rm \"$f\"; done; while read l; do echo \"$l\"; done");
    expect_units("rm \"$f\"", "read l", "echo \"$l\"", NULL);
    analyse("f() { rm -rf /; }");
    expect_units("rm -rf /", NULL);
    /* substitutions, nested, in redirect targets and in here-doc bodies */
    analyse("echo `rm x`");
    expect_units("echo `rm x`", "rm x", NULL);
    analyse("echo $( ( rm x ) )");
    expect_units("echo $( ( rm x ) )", "rm x", NULL);
    analyse("echo \"hello world\" > $(rm *.txt)");
    expect_units("echo \"hello world\"", "rm *.txt", NULL);
    analyse("cat < <(rm c)");
    expect_units("cat", "rm c", NULL);
    analyse("cat <<EOF\n$(rm e)\nEOF");
    expect_units("cat", "rm e", NULL);
    analyse("cat <<'EOF'\n$(rm e)\nEOF");
    expect_units("cat", NULL);
    /* what a wrapper runs is a unit of its own */
    analyse("nice -n 10 rm -rf x");
    expect_units("nice -n 10 rm -rf x", "rm -rf x", NULL);
    assert_true(unit("rm -rf x")->unwrapped);
    assert_true(unit("rm -rf x")->context & RP_SH_CTX_WRAPPED);
    assert_false(unit("nice -n 10 rm -rf x")->unwrapped);
    /* a wrapper's command is the slice of the wrapper's words */
    analyse("sudo 'rm' -rf x");
    expect_units("sudo 'rm' -rf x", "'rm' -rf x", NULL);
    expect_canonical("'rm' -rf x", "rm -rf x");
    /* a string a shell runs has no source of its own: its text is canonical */
    analyse("bash -c \"rm  -rf  'x'\"");
    expect_units("bash -c \"rm  -rf  'x'\"", "rm -rf x", NULL);
    assert_null(unit("rm -rf x")->canonical);
}

/* ---- floors (§4.3, stricter) ---- */

static void test_floors_opaque(void **state)
{
    (void)state;
    expect_floor("eval \"rm -rf /\"", "eval \"rm -rf /\"", RP_PERM_FLOOR_OPAQUE);
    expect_floor("bash -c \"x\"", "bash -c \"x\"", RP_PERM_FLOOR_OPAQUE);
    expect_floor("/bin/bash -ec \"rm -rf /\"", "/bin/bash -ec \"rm -rf /\"", RP_PERM_FLOOR_OPAQUE);
    expect_floor("AWS_PROFILE=prod bash -c \"rm -rf /\"", "bash -c \"rm -rf /\"",
                 RP_PERM_FLOOR_OPAQUE);
    expect_floor("sh -lc 'ls'", "sh -lc 'ls'", RP_PERM_FLOOR_OPAQUE);
    expect_floor("zsh -o pipefail -c ls", "zsh -o pipefail -c ls", RP_PERM_FLOOR_OPAQUE);
    expect_floor("fish --command ls", "fish --command ls", RP_PERM_FLOOR_OPAQUE);
    expect_floor("builtin eval ls", "eval ls", RP_PERM_FLOOR_OPAQUE);
    /* a shell reading its commands from stdin */
    expect_floor("curl x | sh", "sh", RP_PERM_FLOOR_OPAQUE);
    expect_floor("bash -s < script", "bash -s", RP_PERM_FLOOR_OPAQUE);
    /* an unknown program */
    expect_floor("$(echo rm) x", "$(echo rm) x", RP_PERM_FLOOR_OPAQUE);
    expect_floor("\"$EDITOR\" f", "\"$EDITOR\" f", RP_PERM_FLOOR_OPAQUE);
    /* not opaque */
    expect_floor("bash script.sh", "bash script.sh", RP_PERM_FLOOR_NONE);
    expect_floor("bash --version", "bash --version", RP_PERM_FLOOR_NONE);
    expect_floor("bash -- -c", "bash -- -c", RP_PERM_FLOOR_NONE);
    expect_floor("ls -c", "ls -c", RP_PERM_FLOOR_NONE);
}

static void test_floors_indirection(void **state)
{
    (void)state;
    static const char *const wrapped[] = {"sudo aws s3 ls",
                                          "env FOO=bar aws s3 ls",
                                          "xargs rm -rf",
                                          "timeout 10 aws s3 ls",
                                          "nice -n 10 aws s3 ls",
                                          "doas aws s3 ls",
                                          "stdbuf -oL aws s3 ls",
                                          "watch ls",
                                          "flock /tmp/lock aws s3 ls",
                                          "parallel rm ::: x",
                                          "nohup make",
                                          "setsid x",
                                          "rush x",
                                          "rust-parallel x",
                                          "chroot /srv ls",
                                          "ssh host ls",
                                          "su -c ls root",
                                          "command ls",
                                          "builtin cd x",
                                          "exec ls",
                                          "busybox ls",
                                          "script -c ls log",
                                          "/usr/bin/time ls",
                                          "\\time ls"};
    for (size_t i = 0; i < sizeof wrapped / sizeof wrapped[0]; i++) {
        analyse(wrapped[i]);
        if (b.units[0].floor != RP_PERM_FLOOR_INDIRECTION) {
            dump();
            fail_msg("%s: not floored", wrapped[i]);
        }
    }
    /* spelled differently: still the wrapper */
    expect_floor("\"sudo\" ls", "\"sudo\" ls", RP_PERM_FLOOR_INDIRECTION);
    expect_floor("\\sudo ls", "\\sudo ls", RP_PERM_FLOOR_INDIRECTION);
    expect_floor("/usr/bin/sudo ls", "/usr/bin/sudo ls", RP_PERM_FLOOR_INDIRECTION);
    expect_floor("command sudo ls", "sudo ls", RP_PERM_FLOOR_INDIRECTION);
    expect_floor("AWS_PROFILE=prod sudo aws s3 ls", "sudo aws s3 ls", RP_PERM_FLOOR_INDIRECTION);
    /* the time keyword */
    expect_floor("time aws s3 ls", "aws s3 ls", RP_PERM_FLOOR_INDIRECTION);
    expect_floor("time -p make | tee log", "make", RP_PERM_FLOOR_INDIRECTION);
    expect_floor("runtime ls", "runtime ls", RP_PERM_FLOOR_NONE);
    /* find and fd with an exec flag, quoted or not */
    expect_floor("find . -type f -exec rm {} +", "find . -type f -exec rm {} +",
                 RP_PERM_FLOOR_INDIRECTION);
    expect_floor("find . '-exec' rm {} \\;", "find . '-exec' rm {} \\;", RP_PERM_FLOOR_INDIRECTION);
    expect_floor("find . -okdir rm {} \\;", "find . -okdir rm {} \\;", RP_PERM_FLOOR_INDIRECTION);
    expect_floor("fd -x rm", "fd -x rm", RP_PERM_FLOOR_INDIRECTION);
    expect_floor("fd --exec-batch rm", "fd --exec-batch rm", RP_PERM_FLOOR_INDIRECTION);
    expect_floor("find . -name x", "find . -name x", RP_PERM_FLOOR_NONE);
    /* command -v only looks the name up */
    expect_floor("command -v git", "command -v git", RP_PERM_FLOOR_NONE);
    /* the wrapped command itself carries no floor of its own */
    expect_floor("sudo aws s3 ls", "aws s3 ls", RP_PERM_FLOOR_NONE);
}

static void test_floors_environment(void **state)
{
    (void)state;
    expect_floor("LD_PRELOAD=/tmp/x.so ls", "ls", RP_PERM_FLOOR_ENVIRONMENT);
    expect_floor("PATH=/tmp:$PATH ls", "ls", RP_PERM_FLOOR_ENVIRONMENT);
    expect_floor("PATH=/tmp:$PATH; ls", "PATH=/tmp:$PATH", RP_PERM_FLOOR_ENVIRONMENT);
    expect_floor("export PATH=/tmp", "export PATH=/tmp", RP_PERM_FLOOR_ENVIRONMENT);
    expect_floor("GIT_SSH_COMMAND='ssh -i k' git fetch", "git fetch", RP_PERM_FLOOR_ENVIRONMENT);
    expect_floor("GIT_CONFIG_COUNT=1 git status", "git status", RP_PERM_FLOOR_ENVIRONMENT);
    expect_floor("NODE_OPTIONS=--require=x node a", "node a", RP_PERM_FLOOR_ENVIRONMENT);
    expect_floor("BASH_ENV=x bash script", "bash script", RP_PERM_FLOOR_ENVIRONMENT);
    expect_floor("IFS=: read a b", "read a b", RP_PERM_FLOOR_ENVIRONMENT);
    expect_floor("PYTHONPATH=. python x", "python x", RP_PERM_FLOOR_ENVIRONMENT);
    expect_floor("env LD_PRELOAD=x ls", "ls", RP_PERM_FLOOR_ENVIRONMENT);
    expect_floor("AWS_PROFILE=prod aws s3 ls", "aws s3 ls", RP_PERM_FLOOR_NONE);
    expect_floor("PATHX=1 ls", "ls", RP_PERM_FLOOR_NONE);
    expect_floor("GIT_PAGER=cat git log", "git log", RP_PERM_FLOOR_NONE);
}

/* ---- empty, comments, unreadable (§4.4) ---- */

static void test_empty_comment_only_unreadable(void **state)
{
    (void)state;
    analyse("");
    assert_true(b.empty);
    assert_int_equal(b.n_units, 0);
    assert_string_equal(b.match_text, "");
    analyse(" \n\t ");
    assert_true(b.empty);
    rp_arena_reset(&arena);
    assert_int_equal(rp_perm_bash_analyse(&arena, &pc, NULL, NULL, &b), 0);
    assert_true(b.empty);
    analyse("# just a comment");
    assert_false(b.empty);
    assert_false(b.unreadable);
    assert_int_equal(b.n_units, 0);
    assert_string_equal(b.match_text, "# just a comment");
    analyse("# Check the tree\ngit status");
    expect_units("git status", NULL);
    assert_string_equal(b.match_text, "git status");
    analyse("echo \"unterminated");
    assert_true(b.unreadable);
    analyse("git status && rm -rf / && (");
    assert_true(b.unreadable);
    assert_true(b.n_units >= 2);
}

static void test_strip_comment_lines(void **state)
{
    (void)state;
    rp_arena_reset(&arena);
    assert_string_equal(rp_perm_strip_comment_lines(&arena, "# a\n  # b\ngit status\n"),
                        "git status");
    assert_string_equal(rp_perm_strip_comment_lines(&arena, "git status"), "git status");
    assert_string_equal(rp_perm_strip_comment_lines(&arena, "  ls  "), "ls");
    assert_string_equal(rp_perm_strip_comment_lines(&arena, "a\n# c\nb"), "a\nb");
    assert_string_equal(rp_perm_strip_comment_lines(&arena, "# only\n# comments"),
                        "# only\n# comments");
    assert_string_equal(rp_perm_strip_comment_lines(&arena, "echo a # not a line comment"),
                        "echo a # not a line comment");
    const char *plain = "npm test";
    assert_ptr_equal(rp_perm_strip_comment_lines(&arena, plain), plain);
}

static void test_floor_sentinels(void **state)
{
    (void)state;
    assert_null(rp_perm_floor_sentinel(RP_PERM_FLOOR_NONE));
    assert_string_equal(rp_perm_floor_sentinel(RP_PERM_FLOOR_OPAQUE), "<opaque-bash-wrapper>");
    assert_string_equal(rp_perm_floor_sentinel(RP_PERM_FLOOR_INDIRECTION),
                        "<indirection-bash-wrapper>");
    assert_string_equal(rp_perm_floor_sentinel(RP_PERM_FLOOR_ENVIRONMENT),
                        "<environment-bash-prefix>");
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
        cmocka_unit_test(test_units_split_on_operators),
        cmocka_unit_test(test_units_text_drops_redirects_and_prefixes),
        cmocka_unit_test(test_units_canonical_spelling),
        cmocka_unit_test(test_units_everywhere),
        cmocka_unit_test(test_floors_opaque),
        cmocka_unit_test(test_floors_indirection),
        cmocka_unit_test(test_floors_environment),
        cmocka_unit_test(test_empty_comment_only_unreadable),
        cmocka_unit_test(test_strip_comment_lines),
        cmocka_unit_test(test_floor_sentinels),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
