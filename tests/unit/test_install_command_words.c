/* test_install_command_words.c — a hook command line in a host's settings file is read as sh
 * reads it, by the one shell parser (rp_sh_parse): which entry is rampart's own
 * (rp_install_splice_is_our_command, for install/uninstall/doctor) and the binary and -c config
 * doctor checks (rp_sh_simple_words). install had its own word splitters before, which
 * knew quotes but not operators, redirections, comments or $'…'. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <stdint.h>

#include <cmocka.h>

#include "install/settings_splice.h"
#include "shell/shell.h"

/* Operators and redirections end a word, as in sh (the old splitters read
 * "claude-code;true" as the host). */
static void test_our_command_as_sh_reads_it(void **s)
{
    (void)s;
    assert_true(rp_install_splice_is_our_command("rampart hook claude-code", "claude-code"));
    assert_true(
        rp_install_splice_is_our_command("  \"rampart\"   hook\t'claude-code'", "claude-code"));
    assert_true(rp_install_splice_is_our_command("'/opt/my bin/rampart' hook codex -c x", "codex"));
    assert_true(rp_install_splice_is_our_command("rampart hook claude-code;true", "claude-code"));
    assert_true(rp_install_splice_is_our_command("rampart hook gemini&&true", "gemini"));
    assert_true(rp_install_splice_is_our_command("rampart hook gemini 2>>/tmp/log", "gemini"));
    assert_true(rp_install_splice_is_our_command("rampart hook gemini|tee x", "gemini"));
    assert_true(rp_install_splice_is_our_command("rampart hook $'claude-code'", "claude-code"));
    assert_true(
        rp_install_splice_is_our_command("rampart hook claude-code # rampart", "claude-code"));
    assert_false(rp_install_splice_is_our_command("rampart hook claude-code-x", "claude-code"));
    assert_false(rp_install_splice_is_our_command("echo rampart hook codex", "codex"));
    assert_false(rp_install_splice_is_our_command("rampart hookcodex", "codex"));
    /* sh cannot run it: not a hook of ours */
    assert_false(rp_install_splice_is_our_command("rampart hook codex 'oops", "codex"));
    assert_false(rp_install_splice_is_our_command("", "codex"));
}

static const char *words_of(rp_arena *a, const char *command)
{
    size_t n;
    const char *const *w = rp_sh_simple_words(a, command, strlen(command), &n);
    if (w == NULL)
        return "NULL";
    rp_buf b = {0};
    for (size_t i = 0; i < n; i++)
        rp_buf_printf(&b, "%s[%s]", i ? " " : "", w[i]);
    return rp_buf_to_arena(&b, a);
}

/* The argv doctor checks: quotes removed, the config path one word however it is quoted. */
static void test_command_words(void **s)
{
    (void)s;
    rp_arena a = {0};
    assert_string_equal(
        words_of(&a, "'/opt/my bin/rampart' hook claude-code -c \"/etc/my c.yaml\""),
        "[/opt/my bin/rampart] [hook] [claude-code] [-c] [/etc/my c.yaml]");
    assert_string_equal(words_of(&a, "rampart hook codex -c my\\ c.yaml"),
                        "[rampart] [hook] [codex] [-c] [my c.yaml]");
    assert_string_equal(words_of(&a, "rampart hook codex -c \"a\\\"b\"'c'"),
                        "[rampart] [hook] [codex] [-c] [a\"bc]");
    assert_string_equal(words_of(&a, "rampart hook codex -c c.yaml>/dev/null # note"),
                        "[rampart] [hook] [codex] [-c] [c.yaml]");
    assert_string_equal(words_of(&a, "$HOME/bin/rampart hook pi --config=~/r.yaml"),
                        "[$HOME/bin/rampart] [hook] [pi] [--config=~/r.yaml]");
    assert_string_equal(words_of(&a, "rampart hook codex -c 'unclosed"), "NULL");
    assert_string_equal(words_of(&a, "   "), "NULL");
    rp_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_our_command_as_sh_reads_it),
        cmocka_unit_test(test_command_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
