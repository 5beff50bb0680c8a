/* test_install_codex_trust.c — reading Codex's hook trust (src/install/codex_trust.c). The hashes
 * are the ones Codex 0.171.0 itself reported (`codex app-server`, hooks/list, currentHash) for
 * a hooks.json of rampart's shape with the command "/usr/local/bin/rampart hook codex", so the
 * check agrees with Codex, not only with itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "install/codex_trust.h"

#define PATH "/h/.codex/hooks.json"
#define GROUP(m)                                                                                   \
    "[{" m "\"hooks\":[{\"type\":\"command\",\"command\":\"/usr/local/bin/rampart hook "           \
    "codex\",\"timeout\":5}]}]"
static const char hooks[] = "{\"hooks\":{\"SessionStart\":" GROUP("") ",\"PreToolUse\":" GROUP(
    "\"matcher\":\".*\",") ",\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"other.sh\"}]"
                           "}]}}";

/* What Codex reported as currentHash for these two handlers. */
#define PRE_HASH   "sha256:3ce734a1062c544ce383c2efa97403c46089c5079c22be0c3cdb601a44203031"
#define START_HASH "sha256:6fb21357f1ce6b8c8fac0ec850532e60e09d30c0cf0e01796d7a804b053a0b9f"

static rp_install_codex_trust check_in_repo(const char *toml, const char *project,
                                            const char *git_root)
{
    rp_install_codex_trust t;
    char err[128];
    assert_int_equal(rp_install_codex_trust_check(PATH, hooks, sizeof hooks - 1, toml, project,
                                                  git_root, &t, err, sizeof err),
                     0);
    return t;
}

static rp_install_codex_trust check(const char *toml, const char *project)
{
    return check_in_repo(toml, project, NULL);
}

static void test_untrusted_without_state(void **state)
{
    (void)state;
    rp_install_codex_trust t = check(NULL, NULL);
    assert_int_equal(t.ours, 2); /* other.sh is not ours */
    assert_int_equal(t.untrusted, 2);
    assert_int_equal(t.trusted, 0);
    assert_false(t.hooks_off);
    assert_false(t.project_untrusted);
}

static void test_trusted_with_codex_hashes(void **state)
{
    (void)state;
    /* The table form Codex writes, and the inline form a person might. */
    rp_install_codex_trust t =
        check("model = \"x\"\n\n[hooks.state.\"" PATH ":pre_tool_use:0:0\"]\n"
              "trusted_hash = \"" PRE_HASH "\"\n\n[hooks.state]\n\"" PATH
              ":session_start:0:0\" = { trusted_hash = \"" START_HASH "\" }\n",
              NULL);
    assert_int_equal(t.trusted, 2);
    assert_int_equal(t.untrusted + t.modified + t.disabled, 0);
}

static void test_modified_and_disabled(void **state)
{
    (void)state;
    rp_install_codex_trust t = check("[hooks.state.\"" PATH ":pre_tool_use:0:0\"]\n"
                                     "trusted_hash = \"sha256:0000\"\n"
                                     "[hooks.state.\"" PATH ":session_start:0:0\"]\n"
                                     "trusted_hash = \"" START_HASH "\"\nenabled = false\n",
                                     NULL);
    assert_int_equal(t.modified, 1);
    assert_int_equal(t.disabled, 1);
    assert_int_equal(t.trusted, 0);
    assert_string_equal(t.event, "SessionStart");
}

static void test_features_and_project(void **state)
{
    (void)state;
    rp_install_codex_trust t = check("[features]\nhooks = false\n", "/p/repo");
    assert_true(t.hooks_off);
    assert_true(t.project_untrusted);
    t = check("[projects.\"/p/repo\"]\ntrust_level = \"trusted\"\n", "/p/repo");
    assert_false(t.project_untrusted);
    t = check("[projects.\"/p/repo/\"]\ntrust_level = \"trusted\"\n", "/p/repo");
    assert_false(t.project_untrusted);
    t = check("[projects.\"/p/re\"]\ntrust_level = \"trusted\"\n", "/p/repo");
    assert_true(t.project_untrusted);
    /* A TOML literal string is the same value; an escape spelling it is too. */
    t = check("[projects.\"/p/repo\"]\ntrust_level = 'trusted'\n", "/p/repo");
    assert_false(t.project_untrusted);
    t = check("[projects.\"/p/repo\"]\ntrust_level = \"trust\\u0065d\"\n", "/p/repo");
    assert_false(t.project_untrusted);
}

/* Codex 0.171 (its hooks/list, checked by hand): a project's .codex/ layer is trusted by the
 * entry of the directory itself or of its git repository's root, never by another parent's. */
static void test_project_trust_from_git_root_only(void **state)
{
    (void)state;
    const char *parent = "[projects.\"/p\"]\ntrust_level = \"trusted\"\n";
    assert_true(check(parent, "/p/repo").project_untrusted); /* no repository: a parent */
    assert_true(check_in_repo(parent, "/p/repo/sub", "/p/repo").project_untrusted);
    assert_false(check_in_repo(parent, "/p/repo", "/p").project_untrusted); /* the root's */
    /* The directory's own entry decides when it has one. */
    assert_true(check_in_repo("[projects.\"/p\"]\ntrust_level = \"trusted\"\n"
                              "[projects.\"/p/repo\"]\ntrust_level = \"untrusted\"\n",
                              "/p/repo", "/p")
                    .project_untrusted);
}

/* What Codex reads differently from the words must never count as trusted: an escape TOML
 * decodes to another character (\r in a key, \b in a hash: Codex's key or hash then differs),
 * a state inside a multi-line string, under an array of tables or under a table header rampart
 * cannot read. Each of these counted as trusted before. */
static void test_no_false_trust(void **state)
{
    (void)state;
    static const char *const tomls[] = {
        /* "sta\rt": Codex's key holds a carriage return, not "start". */
        "[hooks.state.\"" PATH ":session_sta\\rt:0:0\"]\ntrusted_hash = \"" START_HASH "\"\n",
        /* "6f\b2...": Codex's hash holds a backspace. */
        "[hooks.state.\"" PATH ":session_start:0:0\"]\ntrusted_hash = \"sha256:6f\\b21357f1ce6b"
        "8c8fac0ec850532e60e09d30c0cf0e01796d7a804b053a0b9f\"\n",
        /* \f likewise; an unknown escape is not TOML at all. */
        "[hooks.state.\"" PATH ":session_start:0:0\"]\ntrusted_hash = \"sha256:6\\fb21357f1ce6b"
        "8c8fac0ec850532e60e09d30c0cf0e01796d7a804b053a0b9f\"\n",
        "[hooks.state.\"" PATH ":session_start:0:0\"]\ntrusted_hash = \"sha256:6\\qfb21357f1ce6"
        "b8c8fac0ec850532e60e09d30c0cf0e01796d7a804b053a0b9f\"\n",
        /* The lines are the text of a multi-line string. */
        "notes = \"\"\"\n[hooks.state.\"" PATH ":session_start:0:0\"]\ntrusted_hash = \"" START_HASH
        "\"\n\"\"\"\n",
        "notes = [ '''a\n[hooks.state.\"" PATH ":session_start:0:0\"]\ntrusted_hash = \"" START_HASH
        "\"\n''' ]\n",
        "notes = \"\"\"a \\\"\"\" b\n[hooks.state.\"" PATH
        ":session_start:0:0\"]\ntrusted_hash = \"" START_HASH "\"\n\"\"\"\n",
        /* Dotted keys under an array of tables belong to its element, not to the top. */
        "[[profiles]]\nhooks.state.\"" PATH ":session_start:0:0\".trusted_hash = \"" START_HASH
        "\"\n",
        /* Under a header rampart cannot read, a dotted key is not top-level either. */
        "[x.\"a\\qb\"]\nhooks.state.\"" PATH ":session_start:0:0\".trusted_hash = \"" START_HASH
        "\"\n",
    };
    for (size_t i = 0; i < sizeof tomls / sizeof tomls[0]; i++) {
        rp_install_codex_trust t = check(tomls[i], NULL);
        if (t.trusted != 0) {
            fail_msg("case %zu counted as trusted:\n%s", i, tomls[i]);
        }
    }
    /* The escapes Codex decodes the same still read: \u0073 is "s", \U00000074 is "t". */
    rp_install_codex_trust t =
        check("[hooks.state.\"" PATH ":\\u0073ession_star\\U00000074:0:0\"]\n"
              "trusted_hash = \"" START_HASH "\"\n"
              "after = \"\"\"x\"\"\"\n[hooks.state.\"" PATH ":pre_tool_use:0:0\"]\n"
              "trusted_hash = \"" PRE_HASH "\"\n",
              NULL);
    assert_int_equal(t.trusted, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_untrusted_without_state),
        cmocka_unit_test(test_trusted_with_codex_hashes),
        cmocka_unit_test(test_modified_and_disabled),
        cmocka_unit_test(test_features_and_project),
        cmocka_unit_test(test_project_trust_from_git_root_only),
        cmocka_unit_test(test_no_false_trust),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
