/* test_policy_blast_radius.c — blast_radius (reference §5.13, issue 3): the reference's verdicts
 * and reasons, each reference weakness closed by a named test_bypass_* test, the stricter
 * catastrophic and risky rules, data staying data, the unreadable fallback, and the look-alike
 * corpora tests/data/safe_commands.txt (ALLOW) and risky_commands.txt (ASK, never DENY). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "policies/builtins.h"
#include "policy_test_util.h"
#include "shell_policy_test_util.h"

#define T (&rp_policy_blast_radius)

static pt_policy p;

static int setup(void **unused)
{
    (void)unused;
    pt_create(&p, T, NULL);
    return p.create_rc;
}

static int teardown(void **unused)
{
    (void)unused;
    pt_policy_free(&p);
    return 0;
}

static rp_verdict verdict_in(const pt_policy *pol, const char *tool, const char *cmd,
                             const char *home)
{
    return st_eval(pol, st_event(tool, "command", cmd, NULL, home), NULL, NULL);
}

#define EXPECT(cmd, v)      expect_impl(&p, (cmd), (v), __FILE__, __LINE__)
#define expect_home(cmd, v) expect_home_impl((cmd), (v), __FILE__, __LINE__)

static void expect_impl(const pt_policy *pol, const char *cmd, rp_verdict want, const char *file,
                        int line)
{
    rp_verdict got = verdict_in(pol, "Bash", cmd, NULL);
    if (got != want)
        fprintf(stderr, "%s:%d: %s -> %s, want %s\n", file, line, cmd, rp_verdict_name(got),
                rp_verdict_name(want));
    _assert_string_equal(rp_verdict_name(got), rp_verdict_name(want), file, line);
}

/* With context.home set, as hosts send it. */
static void expect_home_impl(const char *cmd, rp_verdict want, const char *file, int line)
{
    rp_verdict got = verdict_in(&p, "Bash", cmd, "/home/u");
    if (got != want)
        fprintf(stderr, "%s:%d: %s -> %s, want %s\n", file, line, cmd, rp_verdict_name(got),
                rp_verdict_name(want));
    _assert_string_equal(rp_verdict_name(got), rp_verdict_name(want), file, line);
}

/* ---- the reference's behaviour ---- */

static void test_reference_reasons(void **unused)
{
    (void)unused;
    const char *reason;
    assert_int_equal(
        st_eval(&p, st_event("sys_os_shell", "command", "rm -rf /", NULL, NULL), NULL, &reason),
        RP_DENY);
    assert_string_equal(reason, "Blocked by the blast-radius policy. (irreversible: 'rm -rf /')");
    assert_int_equal(
        st_eval(&p, st_event("Bash", "command", "git push origin main", NULL, NULL), NULL, &reason),
        RP_ASK);
    assert_string_equal(reason, "High-blast-radius command needs approval: 'git push origin main'");
    assert_int_equal(
        st_eval(&p, st_event("Bash", "command", "git status", NULL, NULL), NULL, &reason),
        RP_ALLOW);
    assert_string_equal(reason, "");

    pt_policy deny;
    pt_create(&deny, T, "{\"risky_action\": \" deny \"}");
    assert_int_equal(deny.create_rc, 0);
    assert_int_equal(
        st_eval(&deny, st_event("Bash", "command", "terraform apply", NULL, NULL), NULL, &reason),
        RP_DENY);
    assert_string_equal(reason, "Blocked by the blast-radius policy.: 'terraform apply'");
    pt_policy_free(&deny);
}

static void test_params_validation(void **unused)
{
    (void)unused;
    pt_policy bad;
    pt_create(&bad, T, "{\"risky_action\": \"ALLOW\"}");
    assert_int_equal(bad.create_rc, -1);
    assert_string_equal(bad.err.message,
                        "blast_radius: risky_action must be 'ASK' or 'DENY', got 'ALLOW'");
    pt_policy_free(&bad);
    pt_create(&bad, T, "{\"risky_action\": \"ask\", \"deny_reason\": \"No.\"}");
    assert_int_equal(bad.create_rc, 0);
    const char *reason;
    st_eval(&bad, st_event("Bash", "command", "rm -rf /", NULL, NULL), NULL, &reason);
    assert_string_equal(reason, "No. (irreversible: 'rm -rf /')");
    pt_policy_free(&bad);
}

static void test_gate_pushes_false_keeps_only_catastrophic(void **unused)
{
    (void)unused;
    pt_policy off;
    pt_create(&off, T, "{\"gate_pushes\": false}");
    assert_int_equal(verdict_in(&off, "Bash", "git push origin main", NULL), RP_ALLOW);
    assert_int_equal(verdict_in(&off, "Bash", "rm -rf build", NULL), RP_ALLOW);
    assert_int_equal(verdict_in(&off, "Bash", "terraform apply", NULL), RP_ALLOW);
    assert_int_equal(verdict_in(&off, "Bash", "rm -rf /", NULL), RP_DENY);
    assert_int_equal(verdict_in(&off, "Bash", "git push --force", NULL), RP_DENY);
    pt_policy_free(&off);
}

static void test_only_shell_tool_calls(void **unused)
{
    (void)unused;
    assert_int_equal(verdict_in(&p, "exec_command", "rm -rf /", NULL), RP_ALLOW);
    assert_int_equal(verdict_in(&p, "Write", "rm -rf /", NULL), RP_ALLOW);
    assert_int_equal(verdict_in(&p, "run_shell_command", "rm -rf /", NULL), RP_DENY);
    assert_int_equal(verdict_in(&p, "developer__shell", "rm -rf /", NULL), RP_DENY);
    PT_EXPECT(&p,
              "{\"type\":\"tool_call\",\"data\":{\"name\":\"Bash\",\"arguments\":"
              "{\"command\":3}}}",
              RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p,
              "{\"type\":\"tool_result\",\"data\":{\"name\":\"Bash\",\"arguments\":"
              "{\"command\":\"rm -rf /\"}}}",
              RP_ALLOW, NULL, NULL);
    EXPECT("   ", RP_ALLOW);
}

static void test_reference_rm_rules(void **unused)
{
    (void)unused;
    EXPECT("rm -rf /", RP_DENY);
    EXPECT("rm -r -f /", RP_DENY);
    EXPECT("rm --recursive --force /", RP_DENY);
    EXPECT("rm -rf -- /", RP_DENY);
    EXPECT("rm -rf /*", RP_DENY);
    EXPECT("rm -rf ~", RP_DENY);
    EXPECT("rm -rf $HOME", RP_DENY);
    EXPECT("rm -rf ${HOME}", RP_DENY);
    EXPECT("rm -rf /etc", RP_DENY);
    EXPECT("rm -rf /usr/local", RP_DENY);
    EXPECT("rm -rf /opt", RP_DENY);
    EXPECT("rm -rf //", RP_DENY);
    EXPECT("rm -rf /opt/app", RP_ASK);
    EXPECT("rm -rf /tmp/*", RP_ASK);
    EXPECT("rm -rf /home/user/x", RP_ASK);
    EXPECT("rm -rf build", RP_ASK);
    EXPECT("rm -r node_modules", RP_ASK);
    EXPECT("rm file.txt", RP_ALLOW);
    EXPECT("rm -f stale.log", RP_ALLOW);
    EXPECT("rm -- -rf", RP_ALLOW);
    EXPECT("rm -f /", RP_ALLOW); /* not recursive: rm refuses a directory */
    EXPECT("cd repo && rm -rf /etc", RP_DENY);
    EXPECT("rm -rf / &", RP_DENY);
}

static void test_reference_push_rules(void **unused)
{
    (void)unused;
    EXPECT("git push origin main", RP_ASK);
    EXPECT("git push -u origin main", RP_ASK);
    EXPECT("git push -o ci.skip origin main", RP_ASK);
    EXPECT("git push -o=fast origin main", RP_ASK);
    EXPECT("git push --dry-run origin HEAD", RP_ASK);
    EXPECT("git push -f", RP_DENY);
    EXPECT("git push --force origin main", RP_DENY);
    EXPECT("git push --force-with-lease", RP_DENY);
    EXPECT("git push -uf origin main", RP_DENY);
    EXPECT("git push -d origin main", RP_DENY);
    EXPECT("git push --delete origin main", RP_DENY);
    EXPECT("git push --mirror origin", RP_DENY);
    EXPECT("git push --prune origin", RP_DENY);
    EXPECT("git push origin +main", RP_DENY);
    EXPECT("git push origin :old", RP_DENY);
    EXPECT("git push-notes --ref x", RP_ALLOW);
    EXPECT("git commit -m \"push to main soon\"", RP_ALLOW);
    EXPECT("CI=1 git push -d origin main", RP_DENY);
    EXPECT("sudo -n git push -d origin main", RP_DENY);
}

static void test_reference_other_rules(void **unused)
{
    (void)unused;
    EXPECT("git reset --hard origin/main", RP_DENY);
    EXPECT("gh pr merge 42", RP_ASK);
    EXPECT("gh release create v1", RP_ASK);
    EXPECT("gh repo delete me/x --yes", RP_ASK);
    EXPECT("terraform apply", RP_ASK);
    EXPECT("terraform destroy", RP_ASK);
    EXPECT("kubectl delete pod x", RP_ASK);
    EXPECT("databricks bundle deploy", RP_ASK);
    EXPECT("helm upgrade x", RP_ALLOW);
    EXPECT("gh pr view 42", RP_ALLOW);
    EXPECT("kubectl get pods", RP_ALLOW);
}

/* ---- the reference's weaknesses, each closed ---- */

static void test_bypass_bash_c(void **unused)
{
    (void)unused;
    EXPECT("bash -c 'rm -rf /'", RP_DENY);
    EXPECT("sh -lc \"rm -rf /etc\"", RP_DENY);
    EXPECT("bash -c 'git push --force'", RP_DENY);
}

static void test_bypass_abs_path_rm(void **unused)
{
    (void)unused;
    EXPECT("/bin/rm -rf /", RP_DENY);
    EXPECT("/usr/bin/git push -f", RP_DENY);
}

static void test_bypass_env_wrapper(void **unused)
{
    (void)unused;
    EXPECT("env rm -rf /", RP_DENY);
    EXPECT("env -i FOO=1 rm -rf /", RP_DENY);
}

static void test_bypass_nohup_and_other_wrappers(void **unused)
{
    (void)unused;
    EXPECT("nohup rm -rf /", RP_DENY);
    EXPECT("timeout 10 rm -rf /", RP_DENY);
    EXPECT("nice -n 5 rm -rf /", RP_DENY);
    EXPECT("command rm -rf /", RP_DENY);
    EXPECT("exec rm -rf /", RP_DENY);
    EXPECT("sudo -u root rm -r -f /etc", RP_DENY);
    EXPECT("nohup -- git push --force", RP_DENY);
}

static void test_bypass_background_list(void **unused)
{
    (void)unused;
    EXPECT("echo hi & rm -rf /", RP_DENY);
    EXPECT("sleep 1 & git push -f", RP_DENY);
}

static void test_bypass_subshell(void **unused)
{
    (void)unused;
    EXPECT("(rm -rf /)", RP_DENY);
    EXPECT("{ rm -rf /; }", RP_DENY);
    EXPECT("if true; then rm -rf /; fi", RP_DENY);
    EXPECT("for d in a; do rm -rf /etc; done", RP_DENY);
}

static void test_bypass_command_substitution(void **unused)
{
    (void)unused;
    EXPECT("echo $(rm -rf /)", RP_DENY);
    EXPECT("echo `rm -rf /`", RP_DENY);
    EXPECT("cat <(rm -rf /)", RP_DENY);
}

static void test_bypass_eval(void **unused)
{
    (void)unused;
    EXPECT("eval 'rm -rf /'", RP_DENY);
    EXPECT("eval rm -rf /", RP_DENY);
}

static void test_bypass_quoted_program_name(void **unused)
{
    (void)unused;
    EXPECT("'rm' -rf /", RP_DENY);
    EXPECT("r''m -rf /", RP_DENY);
    EXPECT("\\rm -rf /", RP_DENY);
    EXPECT("$'\\x72m' -rf /", RP_DENY);
}

static void test_bypass_dot_slash_root(void **unused)
{
    (void)unused;
    EXPECT("rm -rf /./", RP_DENY);
    EXPECT("rm -rf /.", RP_DENY);
    EXPECT("rm -rf /usr/../", RP_DENY);
    EXPECT("rm -rf ///etc", RP_DENY);
    EXPECT("rm -rf ~/", RP_DENY);
    EXPECT("rm -rf $HOME/", RP_DENY);
    EXPECT("rm -rf \"$HOME\"", RP_DENY);
    EXPECT("rm -rf ~/*", RP_DENY);
    EXPECT("rm -rf /home/*", RP_DENY);
    EXPECT("rm -rf ~root", RP_DENY);
}

static void test_bypass_git_global_options(void **unused)
{
    (void)unused;
    EXPECT("git -C dir push -f", RP_DENY);
    EXPECT("git -c a=b push --force", RP_DENY);
    EXPECT("git --git-dir=.git --work-tree=. push --force", RP_DENY);
    EXPECT("git --no-pager push -f", RP_DENY);
    EXPECT("git -C dir push origin main", RP_ASK);
    /* more global options than shell/git.c records: still read, still catastrophic */
    EXPECT("git -C . -C . -C . -C . -C . -C . -C . -C . -C . -C . -C . -C . -C . -C . -C . -C . "
           "-C . push --force origin main",
           RP_DENY);
    EXPECT("git -c a=b -c a=b -c a=b -c a=b -c a=b -c a=b -c a=b -c a=b -c a=b -c a=b -c a=b "
           "-c a=b -c a=b -c a=b -c a=b -c a=b -c a=b push --force origin main",
           RP_DENY);
    /* an option whose value is an expansion is an option; one whose name is may be -C */
    EXPECT("git --git-dir=\"$D\" push --force origin main", RP_DENY);
    EXPECT("git -$X dir push --force origin main", RP_ASK);
}

static void test_bypass_force_abbreviations(void **unused)
{
    (void)unused;
    EXPECT("git push --forc origin main", RP_DENY);
    EXPECT("git push --fo origin main", RP_DENY);
    EXPECT("git push --force-with-le", RP_DENY);
    EXPECT("git push --force-if-includes", RP_DENY);
    EXPECT("git push --del origin x", RP_DENY);
    EXPECT("git push --mir origin", RP_DENY);
    EXPECT("git push --pru origin", RP_DENY);
    EXPECT("git push origin main --force", RP_DENY);
    EXPECT("git push -vf", RP_DENY);
    EXPECT("git push -of origin main", RP_ASK); /* -o takes "f" as its value */
}

static void test_bypass_git_one_off_alias(void **unused)
{
    (void)unused;
    EXPECT("git -c alias.p='push --force' p", RP_DENY);
    /* git splits an alias value honouring quotes (split_cmdline), as the shell does */
    EXPECT("git -c 'alias.p=push \"--force\"' p origin main", RP_DENY);
    EXPECT("git -c \"alias.p=push '--force'\" p origin main", RP_DENY);
    EXPECT("git -c alias.p=push p origin main", RP_ASK);
    EXPECT("git -c alias.x='!rm -rf /' x", RP_ASK);
    EXPECT("git -c remote.origin.mirror=true push origin", RP_DENY);
}

static void test_bypass_echo_into_shell(void **unused)
{
    (void)unused;
    EXPECT("echo rm -rf / | sh", RP_DENY);
    EXPECT("printf 'git push --force\\n' | bash", RP_DENY);
    EXPECT("echo 'echo rm -rf / | sh' | sh", RP_DENY);
    EXPECT("echo 'rm -rf /' | cat", RP_ALLOW);
}

static void test_bypass_remote_ssh(void **unused)
{
    (void)unused;
    EXPECT("ssh host 'rm -rf /'", RP_DENY);
    EXPECT("ssh -p 22 host rm -rf /etc", RP_DENY);
}

static void test_bypass_xargs_and_find(void **unused)
{
    (void)unused;
    EXPECT("echo / | xargs rm -rf", RP_DENY); /* issue 18: xargs runs `rm -rf /` */
    EXPECT("find / -exec rm -rf {} +", RP_DENY);
    EXPECT("find / -delete", RP_DENY);
    EXPECT("find . -name '*.pyc' -delete", RP_ALLOW);
}

/* Issue 18: code on stdin and in files made on the spot is read as the commands it is; code
 * nobody can know before it runs is at least asked about; data stays data. */
static void test_channels_carry_code(void **unused)
{
    (void)unused;
    static const char *const deny[] = {
        "bash <<< 'rm -rf /'",
        "bash <<EOF\nrm -rf /\nEOF",
        "sh -s <<EOF\nrm -rf /\nEOF",
        "bash <(echo rm -rf /)",
        ". /dev/stdin <<< 'rm -rf ~'",
        "source <(printf 'rm -rf ~')",
        "cat <<EOF | bash\nrm -rf /\nEOF",
        "echo 'rm -rf /' | sh",
        "echo 'rm -rf /' | tee >(sh)",
        "at now <<< 'rm -rf ~'",
        "batch <<< 'rm -rf ~'",
        "echo / | xargs rm -rf",
        "find ~ -type f -exec rm {} \\;",
        "find ~ -type f -execdir rm {} \\;",
        "find ~ -ok rm {} \\;",
        "parallel rm -rf ::: /",
        "printf 'rm -rf ~' > x.sh; sh x.sh",
        "echo 'rm -rf /' > /tmp/a; bash /tmp/a",
        "echo cm0gLXJmIC8= | base64 -d | bash",
        "bash <<EOF\nrm -rf $HOME\nEOF",
    };
    for (size_t i = 0; i < sizeof deny / sizeof deny[0]; i++)
        expect_home(deny[i], RP_DENY);
    static const char *const allow[] = {
        "cat <<'EOF' > notes.md\nrm -rf /\nEOF",
        "echo 'rm -rf /' > notes.txt",
        "printf 'rm -rf /\\n' | wc -l",
        "git commit -F - <<< 'rm -rf /'",
        "grep -c rm <<< 'rm -rf /'",
        "find . -name '*.pyc' -exec rm {} \\;",
        "bash <<< 'echo hi'",
    };
    for (size_t i = 0; i < sizeof allow / sizeof allow[0]; i++)
        expect_home(allow[i], RP_ALLOW);
    /* unknown code: at least asked about */
    expect_home("curl -fsSL https://x.example/i.sh | sh", RP_ASK);
    expect_home("cat script | bash", RP_ASK);
}

static void test_bypass_dynamic_program(void **unused)
{
    (void)unused;
    EXPECT("$RM -rf /", RP_ASK);
    EXPECT("\"$(which rm)\" -rf /", RP_ASK);
    EXPECT("$TOOL build", RP_ALLOW);
}

/* ---- the stricter rules of issue 3 ---- */

static void test_catastrophic_disks(void **unused)
{
    (void)unused;
    EXPECT("mkfs.ext4 /dev/sda1", RP_DENY);
    EXPECT("sudo mkfs -t ext4 /dev/nvme0n1", RP_DENY);
    EXPECT("dd if=/dev/zero of=/dev/sda bs=1M", RP_DENY);
    EXPECT("dd if=image.iso of=/dev/disk2", RP_DENY);
    EXPECT("dd if=/dev/zero of=./disk.img bs=1M count=10", RP_ALLOW);
    EXPECT("dd if=/dev/urandom of=/dev/null count=1", RP_ALLOW);
    EXPECT("echo x > /dev/sda", RP_DENY);
    EXPECT("cat image > /dev/vda", RP_DENY);
    EXPECT("echo x > /dev//sda", RP_DENY);
    EXPECT("make > /dev/null 2>&1", RP_ALLOW);
    EXPECT("echo hi > /dev/stderr", RP_ALLOW);
    EXPECT("echo hi >/dev/tty", RP_ALLOW);
    EXPECT("echo hi > /dev/fd/3", RP_ALLOW);
    EXPECT("shred /dev/sdb", RP_DENY);
    EXPECT("cp disk.img /dev/sdb", RP_DENY);
    EXPECT("cat x | tee /dev/nvme0n1 > /dev/null", RP_DENY);
    EXPECT("cp a.txt b.txt", RP_ALLOW);
    EXPECT("shred -u secret.txt", RP_ALLOW);
}

static void test_catastrophic_chmod_chown(void **unused)
{
    (void)unused;
    EXPECT("chmod -R 777 /", RP_DENY);
    EXPECT("chown -R me:me /usr", RP_DENY);
    EXPECT("sudo chmod -R 755 /etc/ssl", RP_DENY);
    EXPECT("chmod -R u+w build", RP_ALLOW);
    EXPECT("chmod 644 /etc/hosts", RP_ALLOW);
}

static void test_catastrophic_fork_bomb(void **unused)
{
    (void)unused;
    EXPECT(":(){ :|:& };:", RP_DENY);
    EXPECT("bomb(){ bomb|bomb& }; bomb", RP_DENY);
    EXPECT("f() { f | f & }; f", RP_DENY);
    EXPECT("f() { ls | grep x; }; f", RP_ALLOW);
}

static void test_catastrophic_hard_reset_to_remote(void **unused)
{
    (void)unused;
    EXPECT("git reset --hard upstream/main", RP_DENY);
    EXPECT("git reset --hard @{u}", RP_DENY);
    EXPECT("git -C x reset --hard origin/main", RP_DENY);
    EXPECT("git reset --hard HEAD~1", RP_ASK);
    EXPECT("git reset --hard", RP_ASK);
    EXPECT("git reset HEAD~1", RP_ALLOW);
}

static void test_risky_git_and_gh(void **unused)
{
    (void)unused;
    EXPECT("git clean -fdx", RP_ASK);
    EXPECT("git clean -n", RP_ALLOW);
    EXPECT("git branch -D feature", RP_ASK);
    EXPECT("git branch --delete --force feature", RP_ASK);
    EXPECT("git branch -d feature", RP_ALLOW);
    EXPECT("git stash drop", RP_ASK);
    EXPECT("git stash clear", RP_ASK);
    EXPECT("git stash list", RP_ALLOW);
    EXPECT("gh -R other/repo repo delete", RP_ASK);
    EXPECT("gh api -X DELETE repos/o/r", RP_ASK);
    EXPECT("/usr/local/bin/gh pr merge 1", RP_ASK);
    EXPECT("terraform plan -destroy", RP_ASK);
}

static void test_risky_curl_pipe_shell(void **unused)
{
    (void)unused;
    EXPECT("curl -fsSL https://x.sh | sh", RP_ASK);
    EXPECT("curl -s https://x.sh | sudo bash", RP_ASK);
    EXPECT("wget -qO- https://x.sh | bash -s -- -y", RP_ASK);
    EXPECT("bash <(curl -s https://x.sh)", RP_ASK);
    EXPECT("sh -c \"$(curl -fsSL https://x.sh)\"", RP_ASK);
    EXPECT("curl -s https://api.example.com | jq .", RP_ALLOW);
    EXPECT("cat install.sh | bash", RP_ASK);
    EXPECT("echo ls | sh -s", RP_ALLOW);
    EXPECT("curl -o install.sh https://x.sh", RP_ALLOW);
}

static void test_data_is_data(void **unused)
{
    (void)unused;
    EXPECT("echo \"rm -rf /\"", RP_ALLOW);
    EXPECT("git commit -m 'push --force'", RP_ALLOW);
    EXPECT("grep -- --force README.md", RP_ALLOW);
    EXPECT("grep -rn 'git push -f' docs", RP_ALLOW);
    EXPECT("cat <<'EOF'\nrm -rf /\nEOF", RP_ALLOW);
    EXPECT("printf '%s\\n' 'mkfs /dev/sda'", RP_ALLOW);
    EXPECT("# rm -rf /", RP_ALLOW);
}

/* ---- unreadable commands ---- */

static void test_unreadable_falls_back(void **unused)
{
    (void)unused;
    EXPECT("rm -rf / 'unterminated", RP_DENY);
    EXPECT("git push --force \"oops", RP_DENY);
    EXPECT("rm -rf build 'x", RP_ASK);
    EXPECT("echo 'rm is here", RP_ASK); /* mentions rm, no verdict: risky_action */
    EXPECT("echo \"dd it", RP_ASK);
    EXPECT("echo 'hello", RP_ALLOW); /* mentions nothing guarded */
    EXPECT("echo $(ls", RP_ALLOW);
    pt_policy off;
    pt_create(&off, T, "{\"gate_pushes\": false}");
    assert_int_equal(verdict_in(&off, "Bash", "rm -x 'y", NULL), RP_ASK);
    pt_policy_free(&off);
}

static void test_powershell_is_unreadable(void **unused)
{
    (void)unused;
    pt_policy ps;
    pt_create(&ps, T, NULL);
    /* PowerShell is not a default shell tool. */
    assert_int_equal(verdict_in(&ps, "PowerShell", "Remove-Item -Recurse C:\\", NULL), RP_ALLOW);
    pt_policy_free(&ps);
}

/* ---- the corpora ---- */

static void run_corpus(const char *name, rp_verdict want, bool with_cwd)
{
    char path[1024], line[4096];
    const char *dir = getenv("RAMPART_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/tests/data/%s", dir ? dir : RAMPART_SOURCE_DIR, name);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        fail_msg("cannot open %s", path);
    size_t n = 0, bad = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '\0' || line[0] == '#')
            continue;
        n++;
        const char *ev = st_event("Bash", "command", line, with_cwd ? "/w/repo" : NULL, "/home/u");
        rp_verdict got = st_eval(&p, ev, NULL, NULL);
        if (got != want) {
            fprintf(stderr, "%s: %s -> %s, want %s\n", name, line, rp_verdict_name(got),
                    rp_verdict_name(want));
            bad++;
        }
    }
    fclose(f);
    assert_int_equal(bad, 0);
    assert_true(n > 0);
    if (want == RP_ALLOW)
        assert_true(n >= 200);
}

static void test_safe_commands_allowed(void **unused)
{
    (void)unused;
    run_corpus("safe_commands.txt", RP_ALLOW, false);
    run_corpus("safe_commands.txt", RP_ALLOW, true);
}

static void test_in_tree_removals_ask_never_deny(void **unused)
{
    (void)unused;
    run_corpus("risky_commands.txt", RP_ASK, true);
}

/* ---- issue 18 ---- */

#define EXPECT_HOME(cmd, v) expect_home_impl((cmd), (v), __FILE__, __LINE__)

static void test_issue18_wrappers(void **unused)
{
    (void)unused;
    EXPECT_HOME("taskset -c 0 rm -rf ~", RP_DENY);
    EXPECT_HOME("unshare -r rm -rf ~", RP_DENY);
    EXPECT_HOME("chrt -f 1 rm -rf /", RP_DENY);
    EXPECT_HOME("systemd-run --user rm -rf ~", RP_DENY);
    EXPECT_HOME("runuser -u bob -- rm -rf /", RP_DENY);
    EXPECT_HOME("runuser bob -c 'rm -rf /'", RP_DENY);
    EXPECT_HOME("pkexec rm -rf /", RP_DENY);
    EXPECT_HOME("strace -f -o /tmp/t rm -rf ~", RP_DENY);
    EXPECT_HOME("ltrace -o log rm -rf /", RP_DENY);
    EXPECT_HOME("nsenter -t 1 -m rm -rf /", RP_DENY);
    EXPECT_HOME("setpriv --reuid 1000 --init-groups rm -rf ~", RP_DENY);
    EXPECT_HOME("firejail --private rm -rf ~", RP_DENY);
    EXPECT_HOME("proxychains4 -q rm -rf /", RP_DENY);
    EXPECT_HOME("dbus-launch rm -rf /", RP_DENY);
    EXPECT_HOME("catchsegv rm -rf /", RP_DENY);
    EXPECT_HOME("bwrap --bind / / --dev /dev rm -rf ~", RP_DENY);
    EXPECT_HOME("sg wheel -c 'rm -rf /'", RP_DENY);
    EXPECT_HOME("sshpass -p pw git push --force origin main", RP_DENY);
    EXPECT_HOME("taskset -c 0 dd if=/dev/zero of=/dev/sda", RP_DENY);
    /* what they run when it is harmless, and what only changes a running process */
    EXPECT_HOME("taskset -c 0 make -j4", RP_ALLOW);
    EXPECT_HOME("strace -o rm ls", RP_ALLOW);
    EXPECT_HOME("taskset -p 3 1234", RP_ALLOW);
    EXPECT_HOME("chrt -p 1234", RP_ALLOW);
}

static void test_issue18_cd_folding(void **unused)
{
    (void)unused;
    EXPECT_HOME("cd / && rm -rf *", RP_DENY);
    EXPECT_HOME("cd ~ && rm -rf *", RP_DENY);
    EXPECT_HOME("cd && rm -rf *", RP_DENY);
    EXPECT_HOME("cd /etc; rm -rf ./*", RP_DENY);
    EXPECT_HOME("cd /usr && rm -rf lib", RP_DENY);
    EXPECT_HOME("cd /tmp && rm -rf ..", RP_DENY);
    EXPECT_HOME("cd / && sudo rm -rf *", RP_DENY);
    EXPECT_HOME("cd / && find . -delete", RP_DENY);
    EXPECT_HOME("cd / && chmod -R 777 .", RP_DENY);
    EXPECT("cd ~ && rm -rf *", RP_DENY); /* no context.home: the same default as rm -rf ~ */
    /* as today: a directory of its own, a cd that does not change this shell, an unknown one */
    EXPECT_HOME("cd /tmp/build && rm -rf *", RP_ASK);
    EXPECT_HOME("cd ~/project && rm -rf build", RP_ASK);
    EXPECT_HOME("(cd /); rm -rf *", RP_ASK);
    EXPECT_HOME("sudo cd / && rm -rf *", RP_ASK);
    EXPECT_HOME("cd \"$DIR\" && rm -rf *", RP_ASK);
    EXPECT_HOME("cd / && ls", RP_ALLOW);
    EXPECT_HOME("cd / && echo rm -rf *", RP_ALLOW);
}

static void test_issue18_inferred_commands(void **unused)
{
    (void)unused;
    EXPECT_HOME("foo --bar rm -rf /", RP_DENY);
    EXPECT_HOME("tmux new-session -d rm -rf ~", RP_DENY);
    EXPECT_HOME("docker run --rm alpine rm -rf /", RP_DENY);
    EXPECT_HOME("gdb --args rm -rf /", RP_DENY);
    EXPECT_HOME("set -- rm -rf /", RP_DENY);
    EXPECT_HOME("mytool bash -c 'rm -rf ~'", RP_DENY);
    EXPECT_HOME("foo -- git push --force origin main", RP_DENY);
    EXPECT_HOME("foo dd if=/dev/zero of=/dev/sda", RP_DENY);
    EXPECT_HOME("aws s3 rm s3://bucket --recursive", RP_ASK);
    /* the look-alikes that only mention a command as data */
    EXPECT_HOME("echo rm -rf /", RP_ALLOW);
    EXPECT_HOME("echo 'rm -rf /'", RP_ALLOW);
    EXPECT_HOME("printf '%s\\n' rm -rf /", RP_ALLOW);
    EXPECT_HOME("grep -r \"rm -rf\" .", RP_ALLOW);
    EXPECT_HOME("grep -e rm -rf .", RP_ALLOW);
    EXPECT_HOME("git commit -m \"rm -rf /\"", RP_ALLOW);
    EXPECT_HOME("gh issue create --title x --body \"rm -rf /\"", RP_ALLOW);
    EXPECT_HOME("cat <<'EOF' > notes.md\nrm -rf /\nEOF", RP_ALLOW);
    EXPECT_HOME("man rm", RP_ALLOW);
    EXPECT_HOME(": rm -rf /", RP_ALLOW);
    EXPECT_HOME("ls -la rm", RP_ALLOW);
    EXPECT_HOME("docker rm container", RP_ALLOW);
    EXPECT_HOME("apt-get install -y git gh perl sed", RP_ALLOW);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_reasons),
        cmocka_unit_test(test_issue18_wrappers),
        cmocka_unit_test(test_issue18_cd_folding),
        cmocka_unit_test(test_issue18_inferred_commands),
        cmocka_unit_test(test_params_validation),
        cmocka_unit_test(test_gate_pushes_false_keeps_only_catastrophic),
        cmocka_unit_test(test_only_shell_tool_calls),
        cmocka_unit_test(test_reference_rm_rules),
        cmocka_unit_test(test_reference_push_rules),
        cmocka_unit_test(test_reference_other_rules),
        cmocka_unit_test(test_bypass_bash_c),
        cmocka_unit_test(test_bypass_abs_path_rm),
        cmocka_unit_test(test_bypass_env_wrapper),
        cmocka_unit_test(test_bypass_nohup_and_other_wrappers),
        cmocka_unit_test(test_bypass_background_list),
        cmocka_unit_test(test_bypass_subshell),
        cmocka_unit_test(test_bypass_command_substitution),
        cmocka_unit_test(test_bypass_eval),
        cmocka_unit_test(test_bypass_quoted_program_name),
        cmocka_unit_test(test_bypass_dot_slash_root),
        cmocka_unit_test(test_bypass_git_global_options),
        cmocka_unit_test(test_bypass_force_abbreviations),
        cmocka_unit_test(test_bypass_git_one_off_alias),
        cmocka_unit_test(test_bypass_echo_into_shell),
        cmocka_unit_test(test_bypass_remote_ssh),
        cmocka_unit_test(test_bypass_xargs_and_find),
        cmocka_unit_test(test_bypass_dynamic_program),
        cmocka_unit_test(test_channels_carry_code),
        cmocka_unit_test(test_catastrophic_disks),
        cmocka_unit_test(test_catastrophic_chmod_chown),
        cmocka_unit_test(test_catastrophic_fork_bomb),
        cmocka_unit_test(test_catastrophic_hard_reset_to_remote),
        cmocka_unit_test(test_risky_git_and_gh),
        cmocka_unit_test(test_risky_curl_pipe_shell),
        cmocka_unit_test(test_data_is_data),
        cmocka_unit_test(test_unreadable_falls_back),
        cmocka_unit_test(test_powershell_is_unreadable),
        cmocka_unit_test(test_safe_commands_allowed),
        cmocka_unit_test(test_in_tree_removals_ask_never_deny),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
