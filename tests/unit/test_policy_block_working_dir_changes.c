/* test_policy_block_working_dir_changes.c — block_working_dir_changes (reference §5.12): the cd
 * family, git -C, git worktree, allowed_dirs after normalisation (with context.home/cwd), CDPATH
 * tricks, the unreadable fallback, each reference weakness of issue 3 that concerns it
 * (test_weakness_*), and tests/data/safe_commands.txt staying ALLOW. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "policies/builtins.h"
#include "policy_test_util.h"

#define T (&rp_policy_block_working_dir_changes)

#define CD(d) "Blocked: '" d "' changes the working directory, which this policy forbids."
#define CD_OUT(d, a)                                                                               \
    "Blocked: '" d "' changes the working directory outside the allowed directories [" a "]."
#define WT(d) "Blocked: '" d "' switches git worktrees, which this policy forbids."
#define UNPARSED(s)                                                                                \
    "Blocked: could not parse a shell command (" s                                                 \
    ") that appears to switch directories or worktrees."

/* A tool_call of `tool` running cmd, with context.cwd / context.home when not NULL. */
static const char *event_in(const char *tool, const char *cmd, const char *cwd, const char *home)
{
    static char text[8192];
    rp_buf b = {0};
    rp_buf_puts(&b, "{\"type\":\"tool_call\",\"data\":{\"name\":");
    rp_json_write_string(&b, tool, strlen(tool));
    rp_buf_puts(&b, ",\"arguments\":{\"command\":");
    rp_json_write_string(&b, cmd, strlen(cmd));
    rp_buf_puts(&b, "}},\"context\":{");
    if (cwd != NULL) {
        rp_buf_puts(&b, "\"cwd\":");
        rp_json_write_string(&b, cwd, strlen(cwd));
    }
    if (home != NULL) {
        rp_buf_puts(&b, cwd != NULL ? ",\"home\":" : "\"home\":");
        rp_json_write_string(&b, home, strlen(home));
    }
    rp_buf_puts(&b, "}}");
    snprintf(text, sizeof text, "%.*s", (int)b.len, b.data);
    rp_buf_free(&b);
    return text;
}

#define SH(p, cmd, verdict, reason)                                                                \
    PT_EXPECT((p), event_in("Bash", (cmd), NULL, NULL), (verdict), (reason), NULL)
#define RP_SH_IN(p, cwd, home, cmd, verdict, reason)                                               \
    PT_EXPECT((p), event_in("Bash", (cmd), (cwd), (home)), (verdict), (reason), NULL)

static pt_policy make(const char *params)
{
    pt_policy p;
    pt_create(&p, T, params);
    if (p.create_rc != 0)
        fail_msg("create failed: %s", p.err.message);
    return p;
}

/* ---- schema and factory ---- */

static void test_schema(void **unused)
{
    (void)unused;
    assert_string_equal(T->module, "omnigent.policies.builtins.working_dir");
    assert_int_equal(T->n_params, 5);
    assert_string_equal(pt_param(T, "block_cd")->default_json, "true");
    assert_string_equal(pt_param(T, "block_worktree")->default_json, "true");
    assert_null(pt_param(T, "allowed_dirs")->default_json);
    assert_string_equal(pt_param(T, "action")->default_json, "\"deny\"");
    const char *const *values = pt_param(T, "action")->enum_values;
    assert_string_equal(values[0], "deny");
    assert_string_equal(values[1], "ask");
    assert_null(values[2]);
    assert_non_null(strstr(pt_param(T, "shell_tools")->default_json, "\"terminal\""));
}

static void test_factory_errors(void **unused)
{
    (void)unused;
    pt_policy p;
    pt_create(&p, T, "{\"action\": \"warn\"}");
    assert_int_equal(p.create_rc, -1);
    assert_string_equal(p.err.param, "action");
    assert_string_equal(p.err.message, "action must be 'deny' or 'ask', got 'warn'");
    pt_policy_free(&p);

    pt_create(&p, T, "{\"block_cd\": false, \"block_worktree\": false}");
    assert_int_equal(p.create_rc, -1);
    assert_string_equal(p.err.message,
                        "block_working_dir_changes gates nothing when both block_cd and "
                        "block_worktree are False; enable at least one.");
    pt_policy_free(&p);

    /* The validator folds the enum's case before create() sees it (issue 2). */
    pt_create(&p, T, "{\"action\": \"ASK\"}");
    assert_int_equal(p.create_rc, 0);
    SH(&p, "cd /etc", RP_ASK, CD("cd /etc"));
    pt_policy_free(&p);
}

/* ---- the cd family ---- */

static void test_cd_family(void **unused)
{
    (void)unused;
    pt_policy p = make("{}");
    SH(&p, "cd /etc", RP_DENY, CD("cd /etc"));
    SH(&p, "chdir /etc", RP_DENY, CD("chdir /etc"));
    SH(&p, "pushd /etc", RP_DENY, CD("pushd /etc"));
    SH(&p, "popd", RP_DENY, CD("popd"));
    SH(&p, "cd", RP_DENY, CD("cd"));
    SH(&p, "cd -", RP_DENY, CD("cd"));
    SH(&p, "cd -P /etc", RP_DENY, CD("cd /etc"));
    SH(&p, "cd \"my dir\"", RP_DENY, CD("cd my dir"));
    SH(&p, "cd \"\"", RP_DENY, CD("cd"));
    SH(&p, "ls -la && cd /etc", RP_DENY, CD("cd /etc"));
    SH(&p, "ls & cd /etc & pwd", RP_DENY, CD("cd /etc"));
    SH(&p, "(cd /etc && ls)", RP_DENY, CD("cd /etc"));
    SH(&p, "FOO=bar cd /etc", RP_DENY, CD("cd /etc"));
    SH(&p, "sudo -u root cd /etc", RP_DENY, CD("cd /etc"));
    SH(&p, "env --split-string='cd /etc'", RP_DENY, CD("cd /etc"));
    SH(&p, "eval \"cd /etc\"", RP_DENY, CD("cd /etc"));
    SH(&p, "x=$(cd /etc; pwd)", RP_DENY, CD("cd /etc"));
    SH(&p, "ls -la", RP_ABSTAIN, NULL);
    SH(&p, "echo cd /etc", RP_ABSTAIN, NULL);
    SH(&p, "grep -r 'cd /etc' .", RP_ABSTAIN, NULL);
    pt_policy_free(&p);
}

static void test_tools_and_events(void **unused)
{
    (void)unused;
    pt_policy p = make("{}");
    PT_EXPECT(&p, event_in("terminal", "cd /etc", NULL, NULL), RP_DENY, CD("cd /etc"), NULL);
    PT_EXPECT(&p, event_in("run_shell_command", "cd /etc", NULL, NULL), RP_DENY, CD("cd /etc"),
              NULL);
    PT_EXPECT(&p, event_in("Read", "cd /etc", NULL, NULL), RP_ABSTAIN, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":\"cd /etc\"}", RP_ABSTAIN, NULL, NULL);
    PT_EXPECT(&p,
              "{\"type\":\"tool_result\",\"data\":{\"name\":\"Bash\",\"arguments\":{"
              "\"command\":\"cd /etc\"}}}",
              RP_ABSTAIN, NULL, NULL);
    pt_policy_free(&p);

    pt_policy mine = make("{\"shell_tools\": [\"my_term\"]}");
    PT_EXPECT(&mine, event_in("my_term", "cd /etc", NULL, NULL), RP_DENY, CD("cd /etc"), NULL);
    PT_EXPECT(&mine, event_in("Bash", "cd /etc", NULL, NULL), RP_ABSTAIN, NULL, NULL);
    pt_policy_free(&mine);

    /* PowerShell is not bash: its commands go through the unreadable fallback. */
    pt_policy ps = make("{\"shell_tools\": [\"PowerShell\"]}");
    PT_EXPECT(&ps, event_in("PowerShell", "cd C:\\\\", NULL, NULL), RP_DENY,
              UNPARSED("'cd C:\\\\\\\\'"), NULL);
    PT_EXPECT(&ps, event_in("PowerShell", "Get-ChildItem", NULL, NULL), RP_ABSTAIN, NULL, NULL);
    pt_policy_free(&ps);
}

/* ---- allowed_dirs ---- */

static void test_allowed_dirs(void **unused)
{
    (void)unused;
    pt_policy p = make("{\"allowed_dirs\": [\"/workspace/\", \"/srv/./data\"]}");
    SH(&p, "cd /workspace", RP_ABSTAIN, NULL);
    SH(&p, "cd /workspace/src/app/", RP_ABSTAIN, NULL);
    SH(&p, "cd /srv/data/x", RP_ABSTAIN, NULL);
    SH(&p, "cd //workspace//a/../b", RP_ABSTAIN, NULL);
    SH(&p, "cd /workspace/../etc", RP_DENY,
       CD_OUT("cd /workspace/../etc", "'/srv/data', '/workspace'"));
    SH(&p, "cd /workspacex", RP_DENY, CD_OUT("cd /workspacex", "'/srv/data', '/workspace'"));
    SH(&p, "popd", RP_DENY, CD_OUT("popd", "'/srv/data', '/workspace'"));
    SH(&p, "cd -", RP_DENY, CD_OUT("cd", "'/srv/data', '/workspace'"));
    SH(&p, "cd", RP_DENY, CD_OUT("cd", "'/srv/data', '/workspace'"));
    /* Without a cwd, a relative target cannot be placed (it only matches relative entries). */
    SH(&p, "cd src", RP_DENY, CD_OUT("cd src", "'/srv/data', '/workspace'"));
    /* A target still dynamic after ~ expansion is never allowed. */
    SH(&p, "cd /workspace/$SUB", RP_DENY,
       CD_OUT("cd /workspace/$SUB", "'/srv/data', '/workspace'"));
    SH(&p, "cd /workspace/*", RP_DENY, CD_OUT("cd /workspace/*", "'/srv/data', '/workspace'"));
    SH(&p, "git -C /workspace status", RP_ABSTAIN, NULL);
    SH(&p, "git -C /tmp status", RP_DENY, CD_OUT("git -C /tmp", "'/srv/data', '/workspace'"));
    SH(&p, "git -C /workspace -C ../etc status", RP_DENY,
       CD_OUT("git -C ../etc", "'/srv/data', '/workspace'"));
    SH(&p, "git -C /workspace -C sub status", RP_ABSTAIN, NULL);
    pt_policy_free(&p);

    pt_policy rel = make("{\"allowed_dirs\": [\"build\"]}");
    SH(&rel, "cd build/x", RP_ABSTAIN, NULL);
    SH(&rel, "cd ./build", RP_ABSTAIN, NULL);
    SH(&rel, "cd /build", RP_DENY, CD_OUT("cd /build", "'build'"));
    pt_policy_free(&rel);

    pt_policy empty = make("{\"allowed_dirs\": []}");
    SH(&empty, "cd /workspace", RP_DENY, CD("cd /workspace"));
    pt_policy_free(&empty);
}

static void test_allowed_dirs_home_and_cwd(void **unused)
{
    (void)unused;
    pt_policy p = make("{\"allowed_dirs\": [\"/workspace\", \"~/proj\"]}");
    /* ~ and $HOME expand against context.home, in targets and in entries. */
    RP_SH_IN(&p, NULL, "/home/u", "cd ~/proj/x", RP_ABSTAIN, NULL);
    RP_SH_IN(&p, NULL, "/home/u", "cd $HOME/proj", RP_ABSTAIN, NULL);
    RP_SH_IN(&p, NULL, "/home/u", "cd \"${HOME}/proj\"", RP_ABSTAIN, NULL);
    RP_SH_IN(&p, NULL, "/home/u", "cd /home/u/proj", RP_ABSTAIN, NULL);
    RP_SH_IN(&p, NULL, "/home/u", "cd ~", RP_DENY, CD_OUT("cd ~", "'/workspace', '~/proj'"));
    RP_SH_IN(&p, NULL, "/home/u", "cd ~/projx", RP_DENY,
             CD_OUT("cd ~/projx", "'/workspace', '~/proj'"));
    /* Without a home, ~ stays text: it matches nothing absolute. */
    SH(&p, "cd ~/proj", RP_ABSTAIN, NULL); /* the literal entry "~/proj", as the reference */
    SH(&p, "cd $HOME/proj", RP_DENY, CD_OUT("cd $HOME/proj", "'/workspace', '~/proj'"));
    /* Relative targets resolve against context.cwd. */
    RP_SH_IN(&p, "/workspace", NULL, "cd src", RP_ABSTAIN, NULL);
    RP_SH_IN(&p, "/workspace/a", NULL, "cd ../b", RP_ABSTAIN, NULL);
    RP_SH_IN(&p, "/workspace", NULL, "cd ..", RP_DENY, CD_OUT("cd ..", "'/workspace', '~/proj'"));
    RP_SH_IN(&p, "/tmp", NULL, "cd src", RP_DENY, CD_OUT("cd src", "'/workspace', '~/proj'"));
    RP_SH_IN(&p, "/workspace", NULL, "git -C sub status", RP_ABSTAIN, NULL);
    RP_SH_IN(&p, "/workspace", NULL, "git -C ../x status", RP_DENY,
             CD_OUT("git -C ../x", "'/workspace', '~/proj'"));
    pt_policy_free(&p);
}

static void test_cdpath_tricks(void **unused)
{
    (void)unused;
    pt_policy p = make("{\"allowed_dirs\": [\"/workspace\"]}");
    RP_SH_IN(&p, "/workspace", NULL, "cd src", RP_ABSTAIN, NULL);
    /* bash looks `src` up in CDPATH first: /etc/src is outside. */
    RP_SH_IN(&p, "/workspace", NULL, "CDPATH=/etc cd src", RP_DENY,
             CD_OUT("cd src", "'/workspace'"));
    RP_SH_IN(&p, "/workspace", NULL, "CDPATH=/etc; cd src", RP_DENY,
             CD_OUT("cd src", "'/workspace'"));
    RP_SH_IN(&p, "/workspace", NULL, "export CDPATH=/:/etc && cd src", RP_DENY,
             CD_OUT("cd src", "'/workspace'"));
    RP_SH_IN(&p, "/workspace", NULL, "declare -x CDPATH=/etc; pushd src", RP_DENY,
             CD_OUT("pushd src", "'/workspace'"));
    /* Names starting with . or .. never use CDPATH. */
    RP_SH_IN(&p, "/workspace", NULL, "CDPATH=/etc cd ./src", RP_ABSTAIN, NULL);
    /* An absolute target does not either. */
    RP_SH_IN(&p, "/workspace", NULL, "CDPATH=/etc cd /workspace/src", RP_ABSTAIN, NULL);
    pt_policy_free(&p);
}

/* ---- git ---- */

static void test_git(void **unused)
{
    (void)unused;
    pt_policy p = make("{}");
    SH(&p, "git status", RP_ABSTAIN, NULL);
    SH(&p, "git commit -m wip", RP_ABSTAIN, NULL);
    /* -C after the subcommand is the subcommand's own option, not a directory. */
    SH(&p, "git commit -C HEAD --amend", RP_ABSTAIN, NULL);
    SH(&p, "git log -C --stat", RP_ABSTAIN, NULL);
    SH(&p, "git -C /other status", RP_DENY, CD("git -C /other"));
    SH(&p, "env -i git -C /other status", RP_DENY, CD("git -C /other"));
    SH(&p, "git worktree add ../wt", RP_DENY, WT("git worktree add"));
    SH(&p, "git worktree move a b", RP_DENY, WT("git worktree move"));
    SH(&p, "git worktree remove ../wt", RP_DENY, WT("git worktree remove"));
    SH(&p, "git worktree add wt -b feat", RP_DENY, WT("git worktree add"));
    SH(&p, "git -c core.autocrlf=false worktree add ../wt", RP_DENY, WT("git worktree add"));
    SH(&p, "git --no-pager -C /tmp worktree remove x", RP_DENY, WT("git worktree remove"));
    SH(&p, "git worktree $VERB x", RP_DENY, WT("git worktree $VERB"));
    SH(&p, "env -S 'git worktree add /tmp/wt'", RP_DENY, WT("git worktree add"));
    static const char *const ungated[] = {"git worktree list",    "git worktree prune",
                                          "git worktree lock wt", "git worktree unlock wt",
                                          "git worktree repair",  "git worktree"};
    for (size_t i = 0; i < sizeof ungated / sizeof ungated[0]; i++)
        SH(&p, ungated[i], RP_ABSTAIN, NULL);
    /* A one-off alias that switches worktrees or directories. */
    SH(&p, "git -c alias.w=worktree w add ../x", RP_DENY,
       UNPARSED("'git -c alias.w=worktree w add ../x'"));
    SH(&p, "git -c 'alias.t=-C /etc status' t", RP_DENY,
       UNPARSED("\"git -c 'alias.t=-C /etc status' t\""));
    SH(&p, "git --config-env alias.w=V w", RP_DENY, UNPARSED("'git --config-env alias.w=V w'"));
    SH(&p, "git -c alias.s=status s", RP_ABSTAIN, NULL);
    SH(&p, "git $CMD x", RP_DENY, UNPARSED("'git $CMD x'"));
    pt_policy_free(&p);
}

static void test_block_toggles_and_ask(void **unused)
{
    (void)unused;
    pt_policy nowt = make("{\"block_worktree\": false}");
    SH(&nowt, "git worktree add ../wt", RP_ABSTAIN, NULL);
    SH(&nowt, "git -C /tmp worktree add ../wt", RP_DENY, CD("git -C /tmp"));
    pt_policy_free(&nowt);

    pt_policy nocd = make("{\"block_cd\": false, \"action\": \"ask\"}");
    SH(&nocd, "cd /tmp", RP_ABSTAIN, NULL);
    SH(&nocd, "git -C /tmp status", RP_ABSTAIN, NULL);
    SH(&nocd, "git worktree add ../wt", RP_ASK, WT("git worktree add"));
    SH(&nocd, "git -C /tmp worktree remove x", RP_ASK, WT("git worktree remove"));
    SH(&nocd, "cd \"/et", RP_ABSTAIN, NULL);
    SH(&nocd, "git worktree add \"x", RP_ASK, UNPARSED("'git worktree add \"x'"));
    pt_policy_free(&nocd);
}

static void test_unreadable_fallback(void **unused)
{
    (void)unused;
    pt_policy p = make("{}");
    SH(&p, "cd \"/et", RP_DENY, UNPARSED("'cd \"/et'"));
    SH(&p, "cd 'unterminated", RP_DENY, UNPARSED("\"cd 'unterminated\""));
    SH(&p, "pushd \"x", RP_DENY, UNPARSED("'pushd \"x'"));
    SH(&p, "git -C \"x", RP_DENY, UNPARSED("'git -C \"x'"));
    SH(&p, "ls \"x", RP_ABSTAIN, NULL);
    SH(&p, "git status \"x", RP_ABSTAIN, NULL);
    SH(&p, "echo abcd \"x", RP_ABSTAIN, NULL);
    /* Complete commands before the unreadable part come first. */
    SH(&p, "cd /etc; echo \"x", RP_DENY, CD("cd /etc"));
    /* The quoted text is cut to 60 characters. */
    SH(&p, "cd \"/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", RP_DENY,
       UNPARSED("'cd \"/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'"));
    pt_policy_free(&p);

    pt_policy allowed = make("{\"allowed_dirs\": [\"/workspace\"]}");
    SH(&allowed, "cd 'unterminated", RP_DENY, UNPARSED("\"cd 'unterminated\""));
    pt_policy_free(&allowed);
}

/* ---- the reference weaknesses of issue 3, each closed ---- */

static void test_weakness_builtin_cd(void **unused)
{
    (void)unused;
    pt_policy p = make("{}");
    SH(&p, "builtin cd /tmp", RP_DENY, CD("cd /tmp"));
    SH(&p, "command cd /tmp", RP_DENY, CD("cd /tmp"));
    SH(&p, "\\cd /tmp", RP_DENY, CD("cd /tmp"));
    SH(&p, "'cd' /tmp", RP_DENY, CD("cd /tmp"));
    pt_policy_free(&p);
}

static void test_weakness_bash_c_cd(void **unused)
{
    (void)unused;
    pt_policy p = make("{}");
    SH(&p, "bash -c 'cd /etc'", RP_DENY, CD("cd /etc"));
    SH(&p, "sh -c \"cd /etc\"", RP_DENY, CD("cd /etc"));
    SH(&p, "bash -lc 'ls && cd /etc'", RP_DENY, CD("cd /etc"));
    pt_policy_free(&p);
}

static void test_weakness_nohup_dashdash_cd(void **unused)
{
    (void)unused;
    pt_policy p = make("{}");
    SH(&p, "nohup -- cd /etc", RP_DENY, CD("cd /etc"));
    SH(&p, "nohup -- ls -la", RP_ABSTAIN, NULL);
    pt_policy_free(&p);
}

static void test_weakness_absolute_path_to_git(void **unused)
{
    (void)unused;
    pt_policy p = make("{}");
    SH(&p, "/usr/bin/git -C /tmp status", RP_DENY, CD("git -C /tmp"));
    SH(&p, "/usr/bin/git worktree add ../x", RP_DENY, WT("git worktree add"));
    pt_policy_free(&p);
}

/* tests/data/safe_commands.txt: everyday commands that none of the shell policies may gate. */
static void test_safe_commands_allowed(void **unused)
{
    (void)unused;
    char path[1024], line[4096];
    const char *dir = getenv("RAMPART_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/tests/data/safe_commands.txt", dir ? dir : RAMPART_SOURCE_DIR);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        fail_msg("cannot open %s", path);
    pt_policy p = make("{}");
    size_t n = 0, bad = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '\0' || line[0] == '#')
            continue;
        n++;
        for (int with_context = 0; with_context < 2; with_context++) {
            pt_eval e;
            pt_eval_event(&e, &p,
                          event_in("Bash", line, with_context ? "/w/repo" : NULL,
                                   with_context ? "/home/u" : NULL));
            if (e.rc != 0 || (e.result.verdict != RP_ABSTAIN && e.result.verdict != RP_ALLOW)) {
                fprintf(stderr, "safe_commands.txt: %s -> %s (%s)\n", line,
                        rp_verdict_name(e.result.verdict), e.result.reason ? e.result.reason : "");
                bad++;
            }
            pt_eval_free(&e);
        }
    }
    fclose(f);
    pt_policy_free(&p);
    assert_int_equal(bad, 0);
    assert_true(n >= 200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schema),
        cmocka_unit_test(test_factory_errors),
        cmocka_unit_test(test_cd_family),
        cmocka_unit_test(test_tools_and_events),
        cmocka_unit_test(test_allowed_dirs),
        cmocka_unit_test(test_allowed_dirs_home_and_cwd),
        cmocka_unit_test(test_cdpath_tricks),
        cmocka_unit_test(test_git),
        cmocka_unit_test(test_block_toggles_and_ask),
        cmocka_unit_test(test_unreadable_fallback),
        cmocka_unit_test(test_weakness_builtin_cd),
        cmocka_unit_test(test_weakness_bash_c_cd),
        cmocka_unit_test(test_weakness_nohup_dashdash_cd),
        cmocka_unit_test(test_weakness_absolute_path_to_git),
        cmocka_unit_test(test_safe_commands_allowed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
