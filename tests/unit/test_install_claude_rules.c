/* test_install_claude_rules.c — Claude Code permission rules → rampart `permission` map: every
 * rule form, the deny > ask > allow precedence under last-match-wins, the untranslated
 * listing, YAML quoting (the output is read back with rampart's own YAML reader), and settings
 * of the wrong shape. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"
#include "config/yaml_load.h"
#include "install/claude_rules.h"

static rp_arena A;
static rp_install_claude_result R;

static int setup(void **state)
{
    (void)state;
    rp_arena_init(&A, 1 << 14);
    memset(&R, 0, sizeof R);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rp_arena_free(&A);
    return 0;
}

static void yaml_error(void *self, int line, int col, const char *message)
{
    (void)self;
    fail_msg("output is not valid YAML: %d:%d: %s", line, col, message);
}

/* Every entry of R must read back from R.yaml with the same surface, pattern and action. */
static void assert_round_trip(void)
{
    rp_yaml_doc doc = {0};
    assert_int_equal(rp_yaml_load(&A, R.yaml, strlen(R.yaml), &doc, yaml_error, NULL), 0);
    const rp_json *perm = rp_json_path(doc.root, "policies.permissions.factory_params.permission");
    assert_non_null(perm);
    assert_string_equal(rp_json_get_str(rp_json_path(doc.root, "policies.permissions"), "handler"),
                        "permissions");
    assert_string_equal(rp_json_get_str(perm, "*"), R.fallback);
    size_t n_patterns = 0;
    for (uint32_t i = 0; i < perm->len; i++) {
        const rp_json *v = &perm->v.members[i].value;
        n_patterns += rp_json_is_object(v) ? v->len : (strcmp(perm->v.members[i].key, "*") != 0);
    }
    assert_int_equal(n_patterns, R.n_entries);
    for (size_t i = 0; i < R.n_entries; i++) {
        const rp_install_claude_entry *e = &R.entries[i];
        const rp_json *s = rp_json_get(perm, e->surface);
        assert_non_null(s);
        const char *action = rp_json_is_object(s) ? rp_json_get_str(s, e->pattern) : rp_json_str(s);
        if (!rp_json_is_object(s))
            assert_string_equal(e->pattern, "*");
        assert_non_null(action);
        assert_string_equal(action, rp_install_claude_action_name(e->action));
    }
    rp_yaml_doc_free(&doc);
}

/* Translates settings JSON with root /proj; asserts success and a readable output. */
static void import_with_root(const char *json, const char *root)
{
    rp_json_error err;
    rp_json *v = rp_json_parse(&A, json, strlen(json), &err);
    if (v == NULL)
        fail_msg("bad test JSON: %s at %d:%d", err.msg, err.line, err.col);
    rp_install_claude_options o = {.root = root, .source = "test.json"};
    assert_int_equal(rp_install_claude_import(&A, v, &o, &R), 0);
    assert_non_null(R.yaml);
    assert_round_trip();
}

static void import(const char *json)
{
    import_with_root(json, "/proj");
}

/* Index of (surface, pattern) in the output order, or -1. */
static int find(const char *surface, const char *pattern)
{
    for (size_t i = 0; i < R.n_entries; i++)
        if (strcmp(R.entries[i].surface, surface) == 0 &&
            strcmp(R.entries[i].pattern, pattern) == 0)
            return (int)i;
    return -1;
}

static void assert_entry(const char *surface, const char *pattern, rp_install_claude_action act)
{
    int i = find(surface, pattern);
    if (i < 0)
        fail_msg("no entry %s \"%s\" in:\n%s", surface, pattern, R.yaml);
    assert_string_equal(rp_install_claude_action_name(R.entries[i].action),
                        rp_install_claude_action_name(act));
}

static void assert_no_entry(const char *surface, const char *pattern)
{
    if (find(surface, pattern) >= 0)
        fail_msg("unexpected entry %s \"%s\" in:\n%s", surface, pattern, R.yaml);
}

static size_t count_surface(const char *surface)
{
    size_t n = 0;
    for (size_t i = 0; i < R.n_entries; i++)
        n += strcmp(R.entries[i].surface, surface) == 0;
    return n;
}

/* The skip for `where`, or fail. */
static const rp_install_claude_skip *skipped(const char *where)
{
    for (size_t i = 0; i < R.n_skipped; i++)
        if (strcmp(R.skipped[i].where, where) == 0)
            return &R.skipped[i];
    fail_msg("%s was not reported as untranslated:\n%s", where, R.yaml);
    return NULL;
}

static void assert_contains(const char *haystack, const char *needle)
{
    if (strstr(haystack, needle) == NULL)
        fail_msg("\"%s\" not found in:\n%s", needle, haystack);
}

/* ---- Bash ---- */

static void test_bash_forms(void **state)
{
    (void)state;
    import("{\"permissions\":{\"allow\":[\"Bash(npm run test:*)\",\"Bash(npm run *)\","
           "\"Bash(git diff:*)\",\"Bash(make **)\",\"Bash(:*)\",\"Bash( ls -la )\"],"
           "\"deny\":[\"Bash\"],\"ask\":[\"Bash(*)\"]}}");
    assert_int_equal(R.n_skipped, 0);
    assert_entry("bash", "npm run test *", RP_INSTALL_CLAUDE_ALLOW); /* legacy :* → trailing " *" */
    assert_entry("bash", "npm run *", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("bash", "git diff *", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("bash", "make *", RP_INSTALL_CLAUDE_ALLOW); /* ** collapses, keeping bare `make` */
    assert_entry("bash", "ls -la", RP_INSTALL_CLAUDE_ALLOW);
    /* Bash, Bash(*) and Bash(:*) are all the whole tool: one key, the strictest action. */
    assert_entry("bash", "*", RP_INSTALL_CLAUDE_DENY);
    assert_contains(R.entries[find("bash", "*")].sources, "allow Bash(:*); ask Bash(*); deny Bash");
    assert_null(R.entries[find("bash", "npm run *")].note);
    assert_int_equal(R.n_rules, 8);
}

static void test_bash_untranslatable(void **state)
{
    (void)state;
    import("{\"permissions\":{\"deny\":[\"Bash(run_in_background:true)\","
           "\"Bash(dangerouslyDisableSandbox:true)\",\"Bash(rm -rf / && echo)\",\"Bash(a | b)\","
           "\"Bash(make > log)\",\"Bash(FOO=1 make)\",\"Bash(~/bin/x *)\",\"Bash($HOME/x)\","
           "\"Bash(echo \\\"a;b|c\\\")\",\"Bash(echo 'x > y')\"],"
           "\"allow\":[\"Bash(echo hi?)\"]}}");
    assert_contains(skipped("permissions.deny[0]")->reason, "parameter rule");
    assert_contains(skipped("permissions.deny[1]")->reason, "parameter rule");
    assert_contains(skipped("permissions.deny[2]")->reason, "chain or a redirection");
    assert_contains(skipped("permissions.deny[3]")->reason, "chain or a redirection");
    assert_contains(skipped("permissions.deny[4]")->reason, "chain or a redirection");
    assert_contains(skipped("permissions.deny[5]")->reason, "VAR=value");
    assert_contains(skipped("permissions.deny[6]")->reason, "~ or $HOME");
    assert_contains(skipped("permissions.deny[7]")->reason, "~ or $HOME");
    assert_int_equal(R.n_skipped, 8);
    /* Operators inside quotes are text, not a chain. */
    assert_entry("bash", "echo \"a;b|c\"", RP_INSTALL_CLAUDE_DENY);
    assert_entry("bash", "echo 'x > y'", RP_INSTALL_CLAUDE_DENY);
    /* A literal ? in Claude Code is any character in rampart: an allow says so. */
    assert_entry("bash", "echo hi?", RP_INSTALL_CLAUDE_ALLOW);
    assert_non_null(R.entries[find("bash", "echo hi?")].note);
    assert_contains(R.entries[find("bash", "echo hi?")].note, "widened");
}

/* ---- Read / Edit paths ---- */

static void test_path_anchors(void **state)
{
    (void)state;
    import("{\"permissions\":{\"allow\":[\"Read(./src/**)\",\"Read(src/**)\","
           "\"Edit(//abs/path/**)\",\"Read(~/.ssh/**)\",\"Read(/docs/**)\",\"Read(../lib/**)\"]}}");
    assert_int_equal(R.n_skipped, 0);
    static const char *const readers[] = {"read", "grep", "find", "ls"};
    for (size_t i = 0; i < 4; i++) {
        assert_entry(readers[i], "src/*", RP_INSTALL_CLAUDE_ALLOW);
        assert_entry(readers[i], "~/.ssh/*", RP_INSTALL_CLAUDE_ALLOW);
        assert_entry(readers[i], "/proj/docs/*",
                     RP_INSTALL_CLAUDE_ALLOW);                       /* `/` = the settings root */
        assert_entry(readers[i], "/lib/*", RP_INSTALL_CLAUDE_ALLOW); /* `..` leaves cwd: anchored */
    }
    /* Both spellings of src (with and without ./) are one key; an allow of a directory stays at
     * <cwd>/src. */
    assert_contains(R.entries[find("read", "src/*")].sources,
                    "allow Read(./src/**); allow Read(src/**)");
    assert_no_entry("read", "*/src/*");
    assert_entry("edit", "/abs/path/*", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("write", "/abs/path/*", RP_INSTALL_CLAUDE_ALLOW);
    assert_no_entry("read", "/abs/path/*");
    /* Allows never reach the cross-cutting path surface. */
    assert_int_equal(count_surface("path"), 0);
    /* `**` is rampart's `*`: no widening note for these. */
    assert_null(R.entries[find("read", "src/*")].note);
}

static void test_path_root_unknown(void **state)
{
    (void)state;
    import_with_root("{\"permissions\":{\"deny\":[\"Read(/docs/**)\",\"Read(../x)\"]}}", NULL);
    assert_contains(skipped("permissions.deny[0]")->reason, "root");
    assert_contains(skipped("permissions.deny[1]")->reason, "root");
    assert_int_equal(R.n_entries, 0);
    /* A root rampart could not spell as a pattern is refused the same way. */
    import_with_root("{\"permissions\":{\"deny\":[\"Read(/docs/**)\"]}}", "/we*rd");
    assert_contains(skipped("permissions.deny[0]")->reason, "glob");
    import_with_root("{\"permissions\":{\"deny\":[\"Read(/docs/**)\"]}}", "/");
    assert_entry("read", "/docs/*", RP_INSTALL_CLAUDE_DENY);
    /* The root itself (and, for a deny, what is inside it); "." and ".." are resolved. */
    import_with_root("{\"permissions\":{\"deny\":[\"Read(/)\",\"Edit(/a/./b/../c)\"]}}", "/proj/");
    assert_entry("read", "/proj", RP_INSTALL_CLAUDE_DENY);
    assert_entry("read", "/proj/*", RP_INSTALL_CLAUDE_DENY);
    assert_entry("edit", "/proj/a/c", RP_INSTALL_CLAUDE_DENY);
    assert_entry("edit", "/proj/a/c/*", RP_INSTALL_CLAUDE_DENY);
}

static void test_path_deny_any_depth(void **state)
{
    (void)state;
    import("{\"permissions\":{\"deny\":[\"Read(./.env)\",\"Read(.env)\",\"Read(.env.*)\","
           "\"Read(secrets/**)\",\"Edit(.git/**)\"],\"ask\":[\"Read(*.pem)\"]}}");
    assert_int_equal(R.n_skipped, 0);
    /* ./.env is anchored at cwd; it (and anything inside it) is denied. */
    assert_entry("read", ".env", RP_INSTALL_CLAUDE_DENY);
    assert_entry("read", ".env/*", RP_INSTALL_CLAUDE_DENY);
    /* A bare name matches at any depth (gitignore). */
    assert_entry("read", "*/.env", RP_INSTALL_CLAUDE_DENY);
    assert_entry("read", "*/.env/*", RP_INSTALL_CLAUDE_DENY);
    assert_entry("read", ".env.*", RP_INSTALL_CLAUDE_DENY);
    assert_entry("read", "*/.env.*", RP_INSTALL_CLAUDE_DENY);
    /* A single-segment directory in a deny applies at any depth (Claude Code). */
    assert_entry("read", "secrets/*", RP_INSTALL_CLAUDE_DENY);
    assert_entry("read", "*/secrets/*", RP_INSTALL_CLAUDE_DENY);
    assert_entry("edit", "*/.git/*", RP_INSTALL_CLAUDE_DENY);
    assert_entry("write", ".git/*", RP_INSTALL_CLAUDE_DENY);
    /* Read denies and asks also hold on the path surface (every tool and bash token)... */
    assert_entry("path", ".env", RP_INSTALL_CLAUDE_DENY);
    assert_entry("path", "*/secrets/*", RP_INSTALL_CLAUDE_DENY);
    assert_entry("path", "*.pem", RP_INSTALL_CLAUDE_ASK);
    /* ...Edit rules do not (on path they would stop reads too). */
    assert_no_entry("path", ".git/*");
    /* *.pem already matches at any depth with rampart's `*`. */
    assert_no_entry("read", "*/*.pem");
}

static void test_path_globs(void **state)
{
    (void)state;
    import("{\"permissions\":{\"allow\":[\"Read(src/**/test/*.ts)\",\"Read(**/*.md)\","
           "\"Read(docs/a[bc]?.txt)\",\"Read(lit\\\\*x)\",\"Read(a/**/b/**/c)\",\"Read(out/)\"],"
           "\"deny\":[\"Read(**/id_rsa)\"]}}");
    assert_int_equal(R.n_skipped, 0);
    /* `**` + '/' is zero or more directories: both spellings. */
    assert_entry("read", "src/test/*.ts", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("read", "src/*/test/*.ts", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("read", "a/b/c", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("read", "a/*/b/c", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("read", "a/b/*/c", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("read", "a/*/b/*/c", RP_INSTALL_CLAUDE_ALLOW);
    /* ...unless the rest starts with `*`, which covers both. */
    assert_entry("read", "*.md", RP_INSTALL_CLAUDE_ALLOW);
    assert_no_entry("read", "*/*.md");
    assert_entry("read", "id_rsa", RP_INSTALL_CLAUDE_DENY);
    assert_entry("read", "*/id_rsa", RP_INSTALL_CLAUDE_DENY);
    /* Classes and escaped metacharacters become `?`; a trailing '/' is the whole directory. */
    assert_entry("read", "docs/a??.txt", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("read", "lit?x", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("read", "out/*", RP_INSTALL_CLAUDE_ALLOW);
    /* Widening notes on allows: a single * crosses '/', ? and classes, leaving cwd. */
    assert_contains(R.entries[find("read", "src/*/test/*.ts")].note, "crosses /");
    assert_contains(R.entries[find("read", "docs/a??.txt")].note, "any one character");
    assert_contains(R.entries[find("read", "*.md")].note, "outside the working directory");
    assert_null(R.entries[find("read", "a/b/c")].note);
    assert_contains(R.yaml, "(widened: ");
    /* Too many groups cannot be spelled in a bounded number of patterns. */
    import("{\"permissions\":{\"deny\":[\"Read(a/**/b/**/c/**/d/**/e/**/f)\"]}}");
    assert_contains(skipped("permissions.deny[0]")->reason, "groups");
}

/* ---- other tools ---- */

static void test_tools(void **state)
{
    (void)state;
    import("{\"permissions\":{\"allow\":[\"WebSearch\",\"Task\",\"Read\",\"Glob\",\"MultiEdit\","
           "\"WebFetch(domain:example.com)\",\"Agent(Explore)\",\"bash\",\"Write(x)\","
           "\"Grep(src)\",\"Edit()\"],\"deny\":[\"WebFetch\",\"Bad Name\",\"Web*\","
           "\"Bash(x\",\"Bash x)\",\"\"]}}");
    assert_entry("WebSearch", "*", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("Task", "*", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("WebFetch", "*", RP_INSTALL_CLAUDE_DENY);
    assert_entry("read", "*", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("grep", "*", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("find", "*", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("ls", "*", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("edit", "*", RP_INSTALL_CLAUDE_ALLOW); /* MultiEdit, and Edit() = the whole Edit */
    assert_entry("write", "*", RP_INSTALL_CLAUDE_ALLOW);
    assert_contains(R.entries[find("edit", "*")].note, "also covers Edit");
    assert_contains(skipped("permissions.allow[5]")->reason, "WebFetch domain");
    assert_contains(skipped("permissions.allow[6]")->reason, "only as a whole tool");
    assert_contains(skipped("permissions.allow[7]")->reason, "case-sensitive");
    assert_contains(skipped("permissions.allow[8]")->reason, "Edit(...)");
    assert_contains(skipped("permissions.allow[9]")->reason, "Read(...)");
    assert_contains(skipped("permissions.deny[1]")->reason, "tool name");
    assert_contains(skipped("permissions.deny[2]")->reason, "glob");
    assert_contains(skipped("permissions.deny[3]")->reason, "')'");
    assert_contains(skipped("permissions.deny[4]")->reason, "')'");
    assert_contains(skipped("permissions.deny[5]")->reason, "empty");
    assert_int_equal(R.n_skipped, 10);
    /* The plain-state form for a surface whose only pattern is "*". */
    assert_contains(R.yaml, "\n        WebSearch: allow  # allow WebSearch\n");
    assert_contains(R.yaml, "\n        WebFetch: deny  # deny WebFetch\n");
}

static void test_mcp(void **state)
{
    (void)state;
    import("{\"permissions\":{\"allow\":[\"mcp__github__get_issue\",\"mcp__linear\","
           "\"mcp__slack__*\",\"mcp__*\",\"mcp__gh__list_*\",\"mcp__b@d__x\",\"mcp__x__y(z)\"],"
           "\"deny\":[\"mcp__github__delete_repo\",\"mcp__linear__drop\"]}}");
    assert_entry("mcp", "github_get_issue", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("mcp", "linear_*", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("mcp", "linear", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("mcp", "slack_*", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("mcp", "slack", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("mcp", "github_delete_repo", RP_INSTALL_CLAUDE_DENY);
    /* The deny of one tool comes after the server's allow: last match wins → deny. */
    assert_true(find("mcp", "linear_drop") > find("mcp", "linear_*"));
    assert_contains(skipped("permissions.allow[3]")->reason, "only in deny and ask");
    assert_contains(skipped("permissions.allow[4]")->reason, "globs inside an MCP tool name");
    assert_contains(skipped("permissions.allow[5]")->reason, "not an MCP tool name");
    assert_contains(skipped("permissions.allow[6]")->reason, "no specifier");
    assert_int_equal(R.n_skipped, 4);

    /* deny mcp__*: mcp "*" deny; allows and asks of MCP tools can no longer decide anything,
     * so they are noted and left out rather than relying on rampart's mcp "*" handling. */
    import("{\"permissions\":{\"allow\":[\"mcp__github__get_issue\",\"Bash(ls)\"],"
           "\"ask\":[\"mcp__slack\"],\"deny\":[\"mcp__*\",\"mcp__github__delete\"]}}");
    assert_int_equal(R.n_skipped, 0);
    assert_entry("mcp", "*", RP_INSTALL_CLAUDE_DENY);
    assert_entry("mcp", "github_delete", RP_INSTALL_CLAUDE_DENY);
    assert_no_entry("mcp", "github_get_issue");
    assert_no_entry("mcp", "slack_*");
    assert_entry("bash", "ls", RP_INSTALL_CLAUDE_ALLOW);
    assert_int_equal(R.n_notes, 2);
    assert_contains(R.notes[0], "allow mcp__github__get_issue has no effect");
    assert_contains(R.yaml, "# Notes:\n");

    /* ask mcp__*: MCP allows are shadowed, denies still apply. */
    import("{\"permissions\":{\"allow\":[\"mcp__a__b\"],\"ask\":[\"mcp__*\"],"
           "\"deny\":[\"mcp__a__c\"]}}");
    assert_entry("mcp", "*", RP_INSTALL_CLAUDE_ASK);
    assert_entry("mcp", "a_c", RP_INSTALL_CLAUDE_DENY);
    assert_no_entry("mcp", "a_b");
}

/* ---- precedence ---- */

static void test_precedence_order(void **state)
{
    (void)state;
    /* Written deny first, then ask, then allow, to show the output order does not follow the
     * input order: in every surface allows come first, then asks, then denies. */
    import("{\"permissions\":{\"deny\":[\"Bash(git push --force *)\",\"Read(./.env)\","
           "\"Bash(npm publish)\"],"
           "\"ask\":[\"Bash(git push *)\",\"Read(./src/secret.ts)\"],"
           "\"allow\":[\"Bash(git *)\",\"Read(./src/**)\",\"Bash(npm publish)\","
           "\"Bash(git push *)\"]}}");
    assert_int_equal(R.n_skipped, 0);
    int allow_git = find("bash", "git *");
    int ask_push = find("bash", "git push *");
    int deny_force = find("bash", "git push --force *");
    assert_true(allow_git >= 0 && allow_git < ask_push && ask_push < deny_force);
    /* The same pattern in ask and allow: one key, ask (Claude Code checks ask first). */
    assert_entry("bash", "git push *", RP_INSTALL_CLAUDE_ASK);
    assert_contains(R.entries[ask_push].sources, "allow Bash(git push *); ask Bash(git push *)");
    /* In deny and allow: deny, and placed among the denies. */
    assert_entry("bash", "npm publish", RP_INSTALL_CLAUDE_DENY);
    assert_true(find("bash", "npm publish") > ask_push);
    assert_true(find("read", "src/*") < find("read", "src/secret.ts"));
    assert_true(find("read", "src/secret.ts") < find("read", ".env"));
    /* The printed text has the same order. */
    const char *y = R.yaml;
    assert_true(strstr(y, "\"git *\": allow") < strstr(y, "\"git push *\": ask"));
    assert_true(strstr(y, "\"git push *\": ask") < strstr(y, "\"git push --force *\": deny"));
    assert_true(strstr(y, "\"git push *\": ask") < strstr(y, "\"npm publish\": deny"));
    /* Comments name the rules. */
    assert_contains(y, "\"git push --force *\": deny  # deny Bash(git push --force *)\n");
    assert_contains(y, "\"*\": ask  #");
}

static void test_star_rules(void **state)
{
    (void)state;
    import("{\"permissions\":{\"allow\":[\"Bash(ls)\",\"WebFetch(domain:x)\"],"
           "\"ask\":[\"Bash(git *)\"],\"deny\":[\"*\",\"Read(./.env)\"],"
           "\"defaultMode\":\"acceptEdits\"}}");
    assert_string_equal(R.fallback, "deny");
    assert_int_equal(R.n_skipped, 0); /* shadowed rules (and the mode) decide nothing */
    assert_no_entry("bash", "ls");
    assert_no_entry("bash", "git *");
    assert_entry("read", ".env", RP_INSTALL_CLAUDE_DENY);
    assert_int_equal(R.n_notes, 4);
    assert_contains(R.yaml, "\"*\": deny  #");

    import("{\"permissions\":{\"allow\":[\"Bash(ls)\",\"*\"],\"ask\":[\"*\",\"Bash(git *)\"]}}");
    assert_string_equal(R.fallback, "ask");
    assert_no_entry("bash", "ls");
    assert_entry("bash", "git *", RP_INSTALL_CLAUDE_ASK);
    assert_contains(skipped("permissions.allow[1]")->reason, "only in deny and ask");
}

/* ---- the listing, settings and shapes ---- */

static void test_untranslated_listing(void **state)
{
    (void)state;
    import("{\"permissions\":{\"allow\":[\"Bash(ls)\",7,null,{\"x\":1},\"WebFetch(domain:a.b)\"],"
           "\"defaultMode\":\"bypassPermissions\",\"additionalDirectories\":[\"../lib\"],"
           "\"disableBypassPermissionsMode\":\"disable\",\"frobnicate\":true}}");
    assert_string_equal(skipped("permissions.allow[1]")->reason, "not a string (a number)");
    assert_null(skipped("permissions.allow[1]")->rule);
    assert_string_equal(skipped("permissions.allow[2]")->reason, "not a string (null)");
    assert_string_equal(skipped("permissions.allow[3]")->reason, "not a string (an object)");
    assert_string_equal(skipped("permissions.allow[4]")->rule, "WebFetch(domain:a.b)");
    assert_string_equal(skipped("permissions.defaultMode")->rule, "bypassPermissions");
    assert_string_equal(skipped("permissions.additionalDirectories[0]")->rule, "../lib");
    assert_non_null(skipped("permissions.frobnicate"));
    assert_int_equal(R.n_skipped, 7); /* disableBypassPermissionsMode means nothing to rampart */
    assert_int_equal(R.n_rules, 5);
    assert_entry("bash", "ls", RP_INSTALL_CLAUDE_ALLOW);
    /* Every skip is also a comment of the output. */
    assert_contains(R.yaml, "# Not translated (7):\n");
    assert_contains(R.yaml, "#   permissions.allow[1]: not a string (a number)\n");
    assert_contains(R.yaml, "#   permissions.allow[4] WebFetch(domain:a.b): rampart cannot");
}

static void test_modes_and_empty(void **state)
{
    (void)state;
    import("{}");
    assert_int_equal(R.n_entries, 0);
    assert_int_equal(R.n_skipped, 0);
    assert_int_equal(R.n_rules, 0);
    assert_string_equal(R.fallback, "ask");
    assert_contains(R.yaml, "policies:\n  permissions:\n    type: function\n"
                            "    handler: permissions\n    factory_params:\n      permission:\n"
                            "        \"*\": ask");
    assert_contains(R.yaml, "from test.json");
    import("{\"permissions\":null,\"hooks\":{}}");
    assert_int_equal(R.n_entries, 0);
    import("{\"permissions\":{\"defaultMode\":\"default\",\"allow\":null}}");
    assert_int_equal(R.n_skipped, 0);
    assert_string_equal(R.fallback, "ask");
    import("{\"permissions\":{\"defaultMode\":\"dontAsk\"}}");
    assert_int_equal(R.n_skipped, 0);
    assert_string_equal(R.fallback, "deny");
    import("{\"permissions\":{\"defaultMode\":3}}");
    assert_contains(skipped("permissions.defaultMode")->reason, "not a string");
}

static void test_invalid_shapes(void **state)
{
    (void)state;
    static const struct {
        const char *json, *error;
    } cases[] = {
        {"[]", "expected a settings object, got a list"},
        {"\"x\"", "expected a settings object, got a string"},
        {"{\"permissions\":[]}", "permissions: expected an object, got a list"},
        {"{\"permissions\":{\"allow\":\"Bash\"}}",
         "permissions.allow: expected a list of rule strings, got a string"},
        {"{\"permissions\":{\"ask\":{}}}",
         "permissions.ask: expected a list of rule strings, got an object"},
        {"{\"permissions\":{\"deny\":true}}",
         "permissions.deny: expected a list of rule strings, got a boolean"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rp_json_error err;
        rp_json *v = rp_json_parse(&A, cases[i].json, strlen(cases[i].json), &err);
        assert_non_null(v);
        assert_int_equal(rp_install_claude_import(&A, v, NULL, &R), -1);
        assert_string_equal(R.error, cases[i].error);
        assert_null(R.yaml);
    }
    assert_int_equal(rp_install_claude_import(&A, NULL, NULL, &R), -1);
}

/* ---- quoting ---- */

static void scalar_is(const char *in, bool always, const char *want)
{
    rp_buf b = {0};
    rp_install_claude_yaml_scalar(&b, in, always);
    assert_string_equal(b.data, want);
    rp_buf_free(&b);
}

static void test_yaml_scalar(void **state)
{
    (void)state;
    scalar_is("bash", false, "bash");
    scalar_is("WebFetch", false, "WebFetch");
    scalar_is("my-tool_2", false, "my-tool_2");
    scalar_is("bash", true, "\"bash\"");
    /* Words a YAML reader would take as null or a boolean stay strings. */
    scalar_is("yes", false, "\"yes\"");
    scalar_is("NULL", false, "\"NULL\"");
    scalar_is("Off", false, "\"Off\"");
    scalar_is("y", false, "\"y\"");
    scalar_is("", false, "\"\"");
    scalar_is("1abc", false, "\"1abc\"");
    scalar_is("a b", false, "\"a b\"");
    scalar_is("a\"b\\c", false, "\"a\\\"b\\\\c\"");
    scalar_is("t\tn\nr\r", false, "\"t\\tn\\nr\\r\"");
    scalar_is("\x01\x7f", false, "\"\\x01\\x7F\"");
    /* NEL, LS, PS end a line in YAML 1.1; a BOM and U+FFFF are not allowed. */
    scalar_is("a\xc2\x85"
              "b",
              false, "\"a\\x85b\"");
    scalar_is("\xe2\x80\xa8\xe2\x80\xa9", false, "\"\\u2028\\u2029\"");
    scalar_is("\xef\xbb\xbf\xef\xbf\xbf", false, "\"\\uFEFF\\uFFFF\"");
    scalar_is("caf\xc3\xa9 \xf0\x9f\x94\x92", false, "\"caf\xc3\xa9 \xf0\x9f\x94\x92\"");
    scalar_is("bad\xff", false, "\"bad\\uFFFD\"");
}

static void test_odd_characters_round_trip(void **state)
{
    (void)state;
    /* Quotes, backslashes, '#', ': ', a newline-free control, LS, NEL and a YAML-looking word:
     * each survives as the same pattern (assert_round_trip reads the YAML back), and the
     * comments that repeat the rules cannot end early or break the stream. */
    import("{\"permissions\":{\"allow\":[\"Bash(echo \\\"hi\\\" \\\\ x: y # z)\","
           "\"Bash(say \\u2028 \\u0085 \\u0007 {a: [b]} *y !z)\",\"Bash(true)\","
           "\"Bash(- item)\",\"Bash(%x @y `z`)\",\"Read(./we'ird \\\"na:me\\\" #1)\","
           "\"Bash(tab\\there)\"]}}");
    assert_int_equal(R.n_skipped, 0);
    assert_entry("bash", "echo \"hi\" \\ x: y # z", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("bash", "say \xe2\x80\xa8 \xc2\x85 \x07 {a: [b]} *y !z", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("bash", "true", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("bash", "- item", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("read", "we'ird \"na:me\" #1", RP_INSTALL_CLAUDE_ALLOW);
    assert_entry("bash", "tab\there", RP_INSTALL_CLAUDE_ALLOW);
    /* No raw LS, NEL or control character anywhere in the text. */
    assert_null(strstr(R.yaml, "\xe2\x80\xa8"));
    assert_null(strstr(R.yaml, "\xc2\x85"));
    assert_null(strchr(R.yaml, '\x07'));
    assert_null(strchr(R.yaml, '\t'));
    assert_contains(R.yaml, "# allow Bash(say \\u2028 \\x85 \\x07");

    /* A rule with a newline is not a command rampart can match, but its listing must not end
     * the comment either. */
    import("{\"permissions\":{\"deny\":[\"Bash(a\\nb)\",\"Agent(x\\ny)\"]}}");
    assert_int_equal(R.n_skipped, 2);
    assert_contains(R.yaml, "#   permissions.deny[0] Bash(a\\x0Ab): ");
    assert_contains(R.yaml, "#   permissions.deny[1] Agent(x\\x0Ay): ");
    /* A source name with a newline is escaped in the header. */
    rp_json_error err;
    rp_json *v = rp_json_parse(&A, "{}", 2, &err);
    rp_install_claude_options o = {.source = "evil\nname"};
    assert_int_equal(rp_install_claude_import(&A, v, &o, &R), 0);
    assert_contains(R.yaml, "from evil\\x0Aname,");
    assert_round_trip();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_bash_forms, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bash_untranslatable, setup, teardown),
        cmocka_unit_test_setup_teardown(test_path_anchors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_path_root_unknown, setup, teardown),
        cmocka_unit_test_setup_teardown(test_path_deny_any_depth, setup, teardown),
        cmocka_unit_test_setup_teardown(test_path_globs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tools, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mcp, setup, teardown),
        cmocka_unit_test_setup_teardown(test_precedence_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_star_rules, setup, teardown),
        cmocka_unit_test_setup_teardown(test_untranslated_listing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_modes_and_empty, setup, teardown),
        cmocka_unit_test_setup_teardown(test_invalid_shapes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_yaml_scalar, setup, teardown),
        cmocka_unit_test_setup_teardown(test_odd_characters_round_trip, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
