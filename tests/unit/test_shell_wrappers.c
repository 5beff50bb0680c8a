/* test_shell_wrappers.c — unwrapping: every wrapper the parser sees through, the
 * reference's bypasses (each closed by a named test), strings run by shells, the depth limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "shell/shell.h"

#include "shell_test_util.h"

static const rp_sh_command *only_command(void)
{
    assert_int_equal(parsed.n_commands, 1);
    return &parsed.commands[0];
}

/* The command run by the wrapper listed at index `wrapper`: the next command it wraps. */
static const rp_sh_command *inner_of(const rp_sh_command *wrapper)
{
    for (size_t i = 0; i < parsed.n_commands; i++)
        if (parsed.commands[i].wrapper == wrapper)
            return &parsed.commands[i];
    fail_msg("nothing unwrapped from %s", wrapper->program);
    return NULL;
}

static void expect_no_inner(const rp_sh_command *wrapper)
{
    for (size_t i = 0; i < parsed.n_commands; i++)
        assert_true(parsed.commands[i].wrapper != wrapper);
}

/* The reference's bypasses, each closed. */
static void test_bypass_bash_c(void **state)
{
    (void)state;
    parse_ok("bash -c 'rm -rf /'");
    const rp_sh_command *rm = command_named("rm", 0);
    expect_argv(rm, "rm", "-rf", "/", NULL);
    assert_true(rm->context & RP_SH_CTX_STRING);
    assert_true(rm->context & RP_SH_CTX_WRAPPED);
    assert_int_equal(rm->depth, 1);
    assert_ptr_equal(rm->wrapper, command_named("bash", 0));
    assert_int_equal(rm->offset, 0);
    assert_int_equal(rm->end, 18);
    for (const char *const *s =
             (const char *const[]){"sh -c 'rm -rf /'", "zsh -lc 'rm -rf /'", "dash -xec 'rm -rf /'",
                                   "/bin/ksh -c 'rm -rf /' argv0", NULL};
         *s; s++) {
        parse_ok(*s);
        expect_argv(command_named("rm", 0), "rm", "-rf", "/", NULL);
    }
    parse_ok("bash script.sh -c x"); /* runs a script, -c is its argument */
    expect_no_inner(command_named("bash", 0));
    parse_ok("bash -c \"$CMD\"");
    const rp_sh_command *unknown = inner_of(command_named("bash", 0));
    assert_true(unknown->program_dynamic);
    assert_true(unknown->context & RP_SH_CTX_STRING);
    expect_unreadable("bash -c 'echo \"unbalanced'");
}

static void test_bypass_paths_and_quoting(void **state)
{
    (void)state;
    parse_ok("/bin/rm -rf /");
    assert_string_equal(only_command()->program, "rm");
    parse_ok("$'\\x72m' -rf /");
    assert_string_equal(only_command()->program, "rm");
    parse_ok("r''m -rf /");
    assert_string_equal(only_command()->program, "rm");
    parse_ok("\\rm -rf /");
    assert_string_equal(only_command()->program, "rm");
    parse_ok("$(echo rm) -rf /");
    assert_true(parsed.commands[0].program_dynamic);
}

static void test_bypass_env_and_env_split_string(void **state)
{
    (void)state;
    parse_ok("env rm -rf /");
    expect_argv(inner_of(command_named("env", 0)), "rm", "-rf", "/", NULL);
    parse_ok("env -i -u HOME -C /tmp A=1 B=2 rm -rf /");
    const rp_sh_command *rm = inner_of(command_named("env", 0));
    expect_argv(rm, "rm", "-rf", "/", NULL);
    assert_int_equal(rm->n_assigns, 2);
    assert_string_equal(rm->assigns[1].text, "B=2");
    parse_ok("env -S 'rm -rf /'");
    expect_argv(command_named("rm", 0), "rm", "-rf", "/", NULL);
    assert_true(command_named("rm", 0)->context & RP_SH_CTX_WRAPPED);
    parse_ok("env --split-string='bash -c' 'rm -rf /'");
    expect_argv(command_named("rm", 0), "rm", "-rf", "/", NULL);
    parse_ok("env -iS'rm -rf /'");
    expect_argv(command_named("rm", 0), "rm", "-rf", "/", NULL);
    parse_ok("env");
    expect_no_inner(command_named("env", 0));
}

static void test_bypass_background_and_subshell(void **state)
{
    (void)state;
    parse_ok("echo x & rm -rf /");
    expect_argv(command_named("rm", 0), "rm", "-rf", "/", NULL);
    parse_ok("(rm -rf /)");
    expect_argv(command_named("rm", 0), "rm", "-rf", "/", NULL);
}

static void test_git_words_are_kept(void **state)
{
    (void)state;
    parse_ok("git -C dir push -f");
    expect_argv(only_command(), "git", "-C", "dir", "push", "-f", NULL);
    parse_ok("git -c a=b push --force");
    expect_argv(only_command(), "git", "-c", "a=b", "push", "--force", NULL);
}

static void test_builtin_and_command(void **state)
{
    (void)state;
    parse_ok("builtin cd /tmp");
    const rp_sh_command *cd = inner_of(command_named("builtin", 0));
    expect_argv(cd, "cd", "/tmp", NULL);
    assert_true(cd->is_builtin_wrapped);
    parse_ok("command -p cd /tmp");
    cd = inner_of(command_named("command", 0));
    expect_argv(cd, "cd", "/tmp", NULL);
    assert_true(cd->is_builtin_wrapped);
    parse_ok("command -v rm"); /* only a lookup */
    expect_no_inner(command_named("command", 0));
}

static void test_sudo_doas_su(void **state)
{
    (void)state;
    parse_ok("sudo -u root -- rm -rf /");
    expect_argv(inner_of(command_named("sudo", 0)), "rm", "-rf", "/", NULL);
    parse_ok("sudo -E -g wheel -iu root HOME=/ rm -rf /");
    const rp_sh_command *rm = inner_of(command_named("sudo", 0));
    expect_argv(rm, "rm", "-rf", "/", NULL);
    assert_int_equal(rm->n_assigns, 1);
    parse_ok("sudo --user=root --chdir /tmp rm x");
    expect_argv(inner_of(command_named("sudo", 0)), "rm", "x", NULL);
    parse_ok("doas -u root rm -rf /");
    expect_argv(inner_of(command_named("doas", 0)), "rm", "-rf", "/", NULL);
    parse_ok("su -c 'rm -rf /' root");
    expect_argv(command_named("rm", 0), "rm", "-rf", "/", NULL);
    parse_ok("su - root -c 'rm -rf /'");
    expect_argv(command_named("rm", 0), "rm", "-rf", "/", NULL);
    parse_ok("su --command='rm -rf /'");
    expect_argv(command_named("rm", 0), "rm", "-rf", "/", NULL);
}

static void test_timeout_nice_nohup_and_friends(void **state)
{
    (void)state;
    parse_ok("timeout -s KILL 5 rm -rf /");
    expect_argv(inner_of(command_named("timeout", 0)), "rm", "-rf", "/", NULL);
    parse_ok("timeout --kill-after=2 10s rm x");
    expect_argv(inner_of(command_named("timeout", 0)), "rm", "x", NULL);
    parse_ok("nice -n 5 nohup rm -rf /");
    const rp_sh_command *nohup = inner_of(command_named("nice", 0));
    assert_string_equal(nohup->program, "nohup");
    const rp_sh_command *rm = inner_of(nohup);
    expect_argv(rm, "rm", "-rf", "/", NULL);
    assert_int_equal(rm->depth, 2);
    assert_true(rm->context & RP_SH_CTX_WRAPPED);
    parse_ok("nohup -- git push");
    expect_argv(inner_of(command_named("nohup", 0)), "git", "push", NULL);
    parse_ok("ionice -c 3 -n7 stdbuf -oL -e 0 setsid -f time -f %e chroot --userspec=u /srv rm x");
    expect_argv(command_named("rm", 0), "rm", "x", NULL);
    assert_int_equal(command_named("rm", 0)->depth, 5);
    parse_ok("exec -a name rm x");
    expect_argv(inner_of(command_named("exec", 0)), "rm", "x", NULL);
    parse_ok("exec > log");
    assert_int_equal(parsed.n_commands, 1);
    /* multi-call binaries run their first argument as the command */
    parse_ok("busybox rm -rf /");
    expect_argv(inner_of(command_named("busybox", 0)), "rm", "-rf", "/", NULL);
    parse_ok("/bin/toybox sh -c 'rm -rf /'");
    expect_argv(command_named("rm", 0), "rm", "-rf", "/", NULL);
}

static void test_xargs_and_find(void **state)
{
    (void)state;
    parse_ok("ls | xargs -I{} rm -rf {}");
    const rp_sh_command *rm = inner_of(command_named("xargs", 0));
    expect_argv(rm, "rm", "-rf", "{}", NULL);
    assert_true(rm->extra_args);
    assert_true(rm->context & RP_SH_CTX_PIPELINE);
    assert_int_equal(rm->stage, 1);
    parse_ok("xargs -0 -n 1 -P4 -d '\\n' --max-args 2 -i sh -c 'rm \"$1\"' _");
    expect_argv(inner_of(command_named("xargs", 0)), "sh", "-c", "rm \"$1\"", "_", NULL);
    command_named("rm", 0);
    parse_ok("find / -name x -exec rm -rf {} \\; -execdir chmod 777 {} +");
    rm = command_named("rm", 0);
    expect_argv(rm, "rm", "-rf", "{}", NULL);
    assert_true(rm->extra_args);
    expect_argv(command_named("chmod", 0), "chmod", "777", "{}", NULL);
    parse_ok("find . -name '*.o' -delete");
    expect_argv(only_command(), "find", ".", "-name", "*.o", "-delete", NULL);
}

static void test_eval_watch_flock_script(void **state)
{
    (void)state;
    parse_ok("eval \"rm -rf /\"");
    expect_argv(command_named("rm", 0), "rm", "-rf", "/", NULL);
    assert_true(command_named("rm", 0)->context & RP_SH_CTX_STRING);
    parse_ok("eval rm '-rf /; ls'");
    expect_argv(command_named("rm", 0), "rm", "-rf", "/", NULL);
    command_named("ls", 0);
    parse_ok("eval \"$(ssh-agent -s)\"");
    assert_true(inner_of(command_named("eval", 0))->program_dynamic);
    parse_ok("watch -n 1 'df -h; rm x'");
    expect_argv(command_named("rm", 0), "rm", "x", NULL);
    parse_ok("watch -x rm 'a b'");
    expect_argv(command_named("rm", 0), "rm", "a b", NULL);
    parse_ok("flock -w 5 /tmp/lock rm x");
    expect_argv(inner_of(command_named("flock", 0)), "rm", "x", NULL);
    parse_ok("flock /tmp/lock -c 'rm -rf /'");
    expect_argv(command_named("rm", 0), "rm", "-rf", "/", NULL);
    parse_ok("script -q -c 'rm -rf /' /dev/null");
    expect_argv(command_named("rm", 0), "rm", "-rf", "/", NULL);
    /* trap's action runs later in the current shell; resets, ignores and listings run nothing */
    parse_ok("trap 'rm -rf /tmp/x' EXIT; true");
    expect_argv(command_named("rm", 0), "rm", "-rf", "/tmp/x", NULL);
    assert_true(command_named("rm", 0)->context & RP_SH_CTX_STRING);
    parse_ok("trap -- \"rm y\" ERR INT");
    expect_argv(command_named("rm", 0), "rm", "y", NULL);
    parse_ok("trap - EXIT");
    assert_int_equal(parsed.n_commands, 1);
    parse_ok("trap '' INT");
    assert_int_equal(parsed.n_commands, 1);
    parse_ok("trap -p");
    assert_int_equal(parsed.n_commands, 1);
}

static void test_ssh_remote(void **state)
{
    (void)state;
    parse_ok("ssh host 'rm -rf /'");
    const rp_sh_command *rm = command_named("rm", 0);
    expect_argv(rm, "rm", "-rf", "/", NULL);
    assert_true(rm->context & RP_SH_CTX_REMOTE);
    assert_string_equal(rm->remote_host, "host");
    parse_ok("ssh -p 2222 -i key -o StrictHostKeyChecking=no user@h git push -f origin main");
    const rp_sh_command *git = command_named("git", 0);
    expect_argv(git, "git", "push", "-f", "origin", "main", NULL);
    assert_string_equal(git->remote_host, "user@h");
    parse_ok("ssh host");
    expect_no_inner(command_named("ssh", 0));
}

static void test_depth_limit_is_unreadable(void **state)
{
    (void)state;
    char buf[512] = "";
    for (int i = 0; i < RP_SH_MAX_DEPTH; i++)
        strcat(buf, "nohup ");
    strcat(buf, "rm x");
    parse_ok(buf); /* exactly the limit */
    assert_int_equal(command_named("rm", 0)->depth, RP_SH_MAX_DEPTH);
    char deeper[512] = "nohup ";
    strcat(deeper, buf);
    expect_unreadable(deeper);
    expect_unreadable("bash -c \"bash -c 'bash -c \\\"bash -c \\\\\\\"eval eval eval eval eval "
                      "eval rm\\\\\\\"\\\"'\"");
}

static void test_wrapper_contexts_are_inherited(void **state)
{
    (void)state;
    parse_ok("true && sudo rm x &");
    const rp_sh_command *rm = command_named("rm", 0);
    assert_true(rm->context & RP_SH_CTX_CONDITIONAL);
    assert_true(rm->context & RP_SH_CTX_BACKGROUND);
    assert_true(rm->context & RP_SH_CTX_WRAPPED);
    parse_ok("(sudo bash -c 'a | b')");
    assert_true(command_named("a", 0)->context & RP_SH_CTX_SUBSHELL);
    assert_true(command_named("b", 0)->context & RP_SH_CTX_PIPELINE);
    assert_int_equal(command_named("b", 0)->depth, 2);
}

/* Issue 18: the wrappers of namespaces, schedulers, users, tracers and sandboxes. Each row is
 * a command line and the argv of what it runs (its options skipped as its getopt reads them). */
static void test_issue18_wrappers(void **state)
{
    (void)state;
    static const struct {
        const char *line;
        const char *wrapper;
    } rows[] = {
        {"taskset -c 0 rm -rf /", "taskset"},
        {"taskset 0x3 rm -rf /", "taskset"},
        {"unshare -r rm -rf /", "unshare"},
        {"unshare --propagation private -m -f rm -rf /", "unshare"},
        {"unshare -mfile -R /srv rm -rf /", "unshare"},
        {"chrt -f 1 rm -rf /", "chrt"},
        {"chrt --idle rm -rf /", "chrt"},
        {"chrt -d -T 5 -P 10 0 rm -rf /", "chrt"},
        {"systemd-run --user rm -rf /", "systemd-run"},
        {"systemd-run -p Nice=5 --unit u --scope rm -rf /", "systemd-run"},
        {"runuser -u bob -- rm -rf /", "runuser"},
        {"pkexec --user root rm -rf /", "pkexec"},
        {"strace -f -o /tmp/t -e trace=file rm -rf /", "strace"},
        {"ltrace -o log -s 80 rm -rf /", "ltrace"},
        {"nsenter -t 1 -m -u rm -rf /", "nsenter"},
        {"nsenter --target 1 --mount -S 0 rm -rf /", "nsenter"},
        {"setpriv --reuid 1000 --regid 1000 --init-groups rm -rf /", "setpriv"},
        {"firejail --private --net=none rm -rf /", "firejail"},
        {"proxychains4 -q -f conf rm -rf /", "proxychains4"},
        {"proxychains rm -rf /", "proxychains"},
        {"dbus-launch --exit-with-session rm -rf /", "dbus-launch"},
        {"catchsegv rm -rf /", "catchsegv"},
        {"prlimit --nofile=100 -n100 rm -rf /", "prlimit"},
        {"sshpass -p secret rm -rf /", "sshpass"},
        {"xvfb-run -a -s '-screen 0 1x1x8' rm -rf /", "xvfb-run"},
        {"runcon -t foo_t rm -rf /", "runcon"},
        {"runcon system_u:r:x:s0 rm -rf /", "runcon"},
        {"setarch x86_64 -R rm -rf /", "setarch"},
        {"numactl --cpunodebind 0 rm -rf /", "numactl"},
        {"fakeroot -- rm -rf /", "fakeroot"},
        {"eatmydata rm -rf /", "eatmydata"},
        {"systemd-inhibit --why x rm -rf /", "systemd-inhibit"},
        {"dbus-run-session --config-file c rm -rf /", "dbus-run-session"},
        {"torsocks -P 9050 rm -rf /", "torsocks"},
        {"cgexec -g cpu:/x rm -rf /", "cgexec"},
        {"tini -s -- rm -rf /", "tini"},
        {"unbuffer rm -rf /", "unbuffer"},
        {"bwrap --ro-bind / / --dev /dev --unshare-all --overlay a b c --chdir /x -- rm -rf /",
         "bwrap"},
        {"bwrap --bind /a /b rm -rf /", "bwrap"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        parse_ok(rows[i].line);
        const rp_sh_command *rm = inner_of(command_named(rows[i].wrapper, 0));
        if (rm->program == NULL || strcmp(rm->program, "rm") != 0)
            fail_msg("%s: runs %s", rows[i].line, rm->program ? rm->program : "(dynamic)");
        expect_argv(rm, "rm", "-rf", "/", NULL);
        assert_true(rm->context & RP_SH_CTX_WRAPPED);
    }
    /* runuser and sg without -u hand a string to a shell */
    parse_ok("runuser bob -c 'rm -rf /'");
    expect_argv(command_named("rm", 0), "rm", "-rf", "/", NULL);
    assert_true(command_named("rm", 0)->context & RP_SH_CTX_STRING);
    parse_ok("sg wheel -c 'rm -rf /'");
    expect_argv(command_named("rm", 0), "rm", "-rf", "/", NULL);
    parse_ok("sg - wheel 'rm -rf /'");
    expect_argv(command_named("rm", 0), "rm", "-rf", "/", NULL);
    /* what runs nothing: -p changes a running process, chrt -m prints, setarch --list */
    static const char *const nothing[] = {
        "taskset -p 3 1234", "taskset -cp 0 1234", "chrt -p 1234", "chrt -m",
        "setarch --list",    "strace -p 1234",     "unshare -r"};
    for (size_t i = 0; i < sizeof nothing / sizeof nothing[0]; i++) {
        parse_ok(nothing[i]);
        assert_int_equal(parsed.n_commands, 1);
    }
    /* an option value is not the program */
    parse_ok("strace -o rm ls");
    expect_argv(inner_of(command_named("strace", 0)), "ls", NULL);
    parse_ok("taskset rm ls"); /* the mask operand, however odd */
    expect_argv(inner_of(command_named("taskset", 0)), "ls", NULL);
}

/* Issue 18: what an unknown program's operands run, inferred; data programs stay data. */
static void test_issue18_inferred_commands(void **state)
{
    (void)state;
    parse_ok("foo --bar rm -rf /");
    const rp_sh_command *rm = inner_of(command_named("foo", 0));
    expect_argv(rm, "rm", "-rf", "/", NULL);
    assert_true(rm->context & RP_SH_CTX_INFERRED);
    assert_true(rm->context & RP_SH_CTX_WRAPPED);
    parse_ok("tmux new-session -d sudo rm -rf /");
    assert_true(command_named("rm", 0)->context & RP_SH_CTX_INFERRED); /* through sudo */
    parse_ok("mytool bash -c 'rm -rf /'");
    expect_argv(command_named("rm", 0), "rm", "-rf", "/", NULL);
    assert_true(command_named("rm", 0)->context & RP_SH_CTX_INFERRED);
    parse_ok("foo /bin/rm -rf / -- git push -f");
    expect_argv(command_named("rm", 0), "/bin/rm", "-rf", "/", "--", "git", "push", "-f", NULL);
    expect_argv(command_named("git", 0), "git", "push", "-f", NULL);
    assert_int_equal(parsed.n_commands, 3); /* one per suffix; the inferred are not read again */
    /* what permissions reads: the parse without them, wrapper pointers into the new array */
    parse_ok("sudo foo rm -rf / && sudo ls");
    struct rp_sh_parse known;
    rp_sh_without_inferred(&arena, &parsed, &known);
    assert_int_equal(parsed.n_commands, 5);
    assert_int_equal(known.n_commands, 4);
    assert_string_equal(known.commands[3].program, "ls");
    assert_ptr_equal(known.commands[3].wrapper, &known.commands[2]);
    assert_ptr_equal(known.commands[1].wrapper, &known.commands[0]);
    /* data programs, known programs, cd, and a file that only has the name */
    static const char *const data[] = {
        "echo rm -rf /",
        "printf '%s\\n' rm -rf /",
        "grep -e rm -rf .",
        "rg -F rm src",
        "man rm",
        "which rm git",
        "type rm",
        ": rm -rf /",
        "logger rm -rf /",
        "git commit -m rm",
        "gh issue create --body rm",
        "rm -rf x",
        "foo cd /",
        "foo ./rm -rf /",
        "foo \"$X\" -rf /",
        "true rm -rf /",
        "pgrep rm",
    };
    for (size_t i = 0; i < sizeof data / sizeof data[0]; i++) {
        parse_ok(data[i]);
        if (parsed.n_commands != 1)
            fail_msg("%s: %zu commands", data[i], parsed.n_commands);
    }
    /* more suffixes than are read: unreadable, never one left out */
    char buf[1024] = "foo";
    for (int i = 0; i < 70; i++)
        strcat(buf, " cp");
    expect_unreadable(buf);
}

int main(void)
{
    rp_arena_init(&arena, 1 << 16);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bypass_bash_c),
        cmocka_unit_test(test_bypass_paths_and_quoting),
        cmocka_unit_test(test_bypass_env_and_env_split_string),
        cmocka_unit_test(test_bypass_background_and_subshell),
        cmocka_unit_test(test_git_words_are_kept),
        cmocka_unit_test(test_builtin_and_command),
        cmocka_unit_test(test_sudo_doas_su),
        cmocka_unit_test(test_timeout_nice_nohup_and_friends),
        cmocka_unit_test(test_xargs_and_find),
        cmocka_unit_test(test_eval_watch_flock_script),
        cmocka_unit_test(test_ssh_remote),
        cmocka_unit_test(test_depth_limit_is_unreadable),
        cmocka_unit_test(test_wrapper_contexts_are_inherited),
        cmocka_unit_test(test_issue18_wrappers),
        cmocka_unit_test(test_issue18_inferred_commands),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rp_arena_free(&arena);
    return rc;
}
