/* test_shell_lex.c — the shell parser's lexical rules: quoting, escapes, ANSI-C strings,
 * comments, substitutions, word flags, assignments, redirections and here-documents. */
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

static void test_plain_words_and_offsets(void **state)
{
    (void)state;
    parse_ok("  git   status  --short ");
    const rp_sh_command *c = only_command();
    expect_argv(c, "git", "status", "--short", NULL);
    assert_string_equal(c->program, "git");
    assert_int_equal(c->words[1].offset, 8);
    assert_int_equal(c->words[1].raw_len, 6);
    assert_memory_equal(c->words[1].raw, "status", 6);
    assert_true(rp_sh_word_static(&c->words[0]));
    assert_int_equal(c->words[0].flags, 0);
    assert_true(rp_sh_word_is(c, 2, "--short"));
    assert_false(rp_sh_word_is(c, 3, "x"));
}

static void test_single_and_double_quotes(void **state)
{
    (void)state;
    parse_ok("echo 'a b' \"c d\" 'it'\\''s' \"x\\\"y\\\\z\\$w\\q\"");
    const rp_sh_command *c = only_command();
    expect_argv(c, "echo", "a b", "c d", "it's", "x\"y\\z$w\\q", NULL);
    assert_true(c->words[1].flags & RP_SH_WORD_QUOTED);
    assert_true(rp_sh_word_static(&c->words[4]));
    /* "rm -rf /" is one static word of one echo command */
    parse_ok("echo \"rm -rf /\"");
    c = only_command();
    expect_argv(c, "echo", "rm -rf /", NULL);
    assert_true(rp_sh_word_static(&c->words[1]));
}

static void test_backslash_escapes_and_continuations(void **state)
{
    (void)state;
    parse_ok("echo a\\ b \\$HOME \\'q");
    expect_argv(only_command(), "echo", "a b", "$HOME", "'q", NULL);
    assert_true(rp_sh_word_static(&parsed.commands[0].words[2]));
    parse_ok("ec\\\nho one \\\n  two");
    expect_argv(only_command(), "echo", "one", "two", NULL);
    parse_ok("echo \"a\\\nb\"");
    expect_argv(only_command(), "echo", "ab", NULL);
    parse_ok("echo 'a\\\nb'"); /* single quotes keep everything */
    expect_argv(only_command(), "echo", "a\\\nb", NULL);
    parse_ok("echo end\\");
    expect_argv(only_command(), "echo", "end\\", NULL);
}

static void test_ansi_c_strings(void **state)
{
    (void)state;
    parse_ok("printf $'a\\tb\\n' $'\\x41\\101\\u00e9\\cA\\e' $'it\\'s' $'\\q'");
    const rp_sh_command *c = only_command();
    expect_argv(c, "printf", "a\tb\n", "AA\xc3\xa9\x01\x1b", "it's", "\\q", NULL);
    assert_true(c->words[1].flags & RP_SH_WORD_QUOTED);
    /* \U beyond U+10FFFF: bash 5.2 writes RFC 2279's longer forms (core/utf8.h) */
    parse_ok("printf $'\\U0010FFFF' $'\\U110000' $'\\U200000' $'\\U7fffffff'");
    expect_argv(only_command(), "printf", "\xf4\x8f\xbf\xbf", "\xf4\x90\x80\x80",
                "\xf8\x88\x80\x80\x80", "\xfd\xbf\xbf\xbf\xbf\xbf", NULL);
    parse_ok("echo $'a\\0b'c"); /* a decoded NUL ends that string, as in bash */
    expect_argv(only_command(), "echo", "ac", NULL);
    parse_ok("$'\\x72m' -rf /");
    assert_string_equal(only_command()->program, "rm");
    parse_ok("echo \"$'x'\""); /* no ANSI-C inside double quotes */
    expect_argv(only_command(), "echo", "$'x'", NULL);
    parse_ok("echo $\"hello\"");
    expect_argv(only_command(), "echo", "hello", NULL);
}

static void test_comments_only_at_word_start(void **state)
{
    (void)state;
    parse_ok("echo a#b # rm -rf /\nls");
    assert_int_equal(parsed.n_commands, 2);
    expect_argv(&parsed.commands[0], "echo", "a#b", NULL);
    expect_argv(&parsed.commands[1], "ls", NULL);
    parse_ok("# only a comment");
    assert_int_equal(parsed.n_commands, 0);
    parse_ok("echo '#x' \"#y\" \\#z");
    expect_argv(only_command(), "echo", "#x", "#y", "#z", NULL);
}

static void test_variables_and_flags(void **state)
{
    (void)state;
    parse_ok("echo $HOME/x ${A:-b} $1 $@ \"$x\" $ a$");
    const rp_sh_command *c = only_command();
    expect_argv(c, "echo", "$HOME/x", "${A:-b}", "$1", "$@", "$x", "$", "a$", NULL);
    for (int i = 1; i <= 5; i++)
        assert_true(c->words[i].flags & RP_SH_WORD_VAR);
    assert_true(rp_sh_word_static(&c->words[6]));
    assert_true(rp_sh_word_static(&c->words[7]));
    parse_ok("echo ${x:-\"}\"} ${y#'}'}");
    expect_argv(only_command(), "echo", "${x:-\"}\"}", "${y#'}'}", NULL);
}

static void test_glob_brace_tilde_flags(void **state)
{
    (void)state;
    parse_ok("ls *.c a?b [ab]x '*' {a,b} {1..3} {} x{y}z ~ ~/d ~u [ -f x ]");
    const rp_sh_command *c = &parsed.commands[0];
    assert_true(c->words[1].flags & RP_SH_WORD_GLOB);
    assert_true(c->words[2].flags & RP_SH_WORD_GLOB);
    assert_true(c->words[3].flags & RP_SH_WORD_GLOB);
    assert_true(rp_sh_word_static(&c->words[4]));
    assert_true(c->words[5].flags & RP_SH_WORD_BRACE);
    assert_true(c->words[6].flags & RP_SH_WORD_BRACE);
    assert_true(rp_sh_word_static(&c->words[7]));
    assert_true(rp_sh_word_static(&c->words[8]));
    assert_true(c->words[9].flags & RP_SH_WORD_TILDE);
    assert_string_equal(c->words[9].text, "~");
    assert_true(c->words[10].flags & RP_SH_WORD_TILDE);
    assert_true(c->words[11].flags & RP_SH_WORD_TILDE);
    assert_true(rp_sh_word_static(&c->words[12])); /* a lone [ is not a pattern */
}

static void test_command_substitution_nested_and_quoted(void **state)
{
    (void)state;
    parse_ok("echo \"$(printf ')' \"$(id -u)\")\" `date`");
    assert_int_equal(parsed.n_commands, 4);
    const rp_sh_command *echo = command_named("echo", 0);
    assert_int_equal(echo->n_words, 3);
    assert_true(echo->words[1].flags & RP_SH_WORD_CMDSUB);
    assert_true(echo->words[2].flags & RP_SH_WORD_CMDSUB);
    assert_false(rp_sh_word_static(&echo->words[1]));
    expect_argv(command_named("printf", 0), "printf", ")", "$(id -u)", NULL);
    assert_true(command_named("id", 0)->context & RP_SH_CTX_CMDSUB);
    assert_true(command_named("date", 0)->context & RP_SH_CTX_CMDSUB);
    /* the enclosing command is listed first */
    assert_string_equal(parsed.commands[0].program, "echo");
    /* a case pattern's `)` does not close $( */
    parse_ok("x=$(case a in a) rm -rf /;; esac)");
    assert_true(command_named("rm", 0)->context & RP_SH_CTX_CASE);
    /* $(program) -rf /: program unknown */
    parse_ok("$(echo rm) -rf /");
    assert_null(parsed.commands[0].program);
    assert_true(parsed.commands[0].program_dynamic);
}

static void test_backticks_with_escapes(void **state)
{
    (void)state;
    parse_ok("echo `echo \\`whoami\\``");
    command_named("whoami", 0);
    assert_true(command_named("whoami", 0)->context & RP_SH_CTX_CMDSUB);
    parse_ok("echo \"`echo \\\"q\\\"`\"");
    expect_argv(command_named("echo", 1), "echo", "q", NULL);
}

static void test_process_substitution_and_arithmetic(void **state)
{
    (void)state;
    parse_ok("diff <(ls a) >(tee b) --file=<(cat c)");
    const rp_sh_command *diff = command_named("diff", 0);
    assert_int_equal(diff->n_words, 4);
    assert_true(diff->words[1].flags & RP_SH_WORD_PROCSUB);
    assert_true(diff->words[3].flags & RP_SH_WORD_PROCSUB);
    assert_true(command_named("tee", 0)->context & RP_SH_CTX_PROCSUB);
    assert_true(command_named("cat", 0)->context & RP_SH_CTX_PROCSUB);
    parse_ok("echo $((1 + (2 * 3))) $(( $(id -u) + 1 )) $[1+1]");
    const rp_sh_command *echo = command_named("echo", 0);
    assert_true(echo->words[1].flags & RP_SH_WORD_ARITH);
    assert_true(echo->words[2].flags & RP_SH_WORD_ARITH);
    assert_true(echo->words[3].flags & RP_SH_WORD_ARITH);
    command_named("id", 0);
    /* $( (…) ) that is not arithmetic: a substitution starting with a subshell */
    parse_ok("echo $((ls) )");
    assert_true(command_named("ls", 0)->context & RP_SH_CTX_SUBSHELL);
}

static void test_assignments(void **state)
{
    (void)state;
    parse_ok("A=1 B+=x arr=(a 'b c') m[1]=z cmd X=2");
    const rp_sh_command *c = only_command();
    assert_int_equal(c->n_assigns, 4);
    assert_string_equal(c->assigns[0].text, "A=1");
    assert_string_equal(c->assigns[1].text, "B+=x");
    assert_string_equal(c->assigns[2].text, "arr=(a 'b c')");
    assert_string_equal(c->assigns[3].text, "m[1]=z");
    expect_argv(c, "cmd", "X=2", NULL);
    parse_ok("FOO=bar");
    c = only_command();
    assert_int_equal(c->n_words, 0);
    assert_int_equal(c->n_assigns, 1);
    assert_null(c->program);
    assert_false(c->program_dynamic);
    parse_ok("'A=1' cmd"); /* quoted: a word, the program */
    assert_string_equal(only_command()->program, "A=1");
    expect_unreadable("echo a=(b)");
}

static void test_redirections(void **state)
{
    (void)state;
    parse_ok("cmd >out 2>&1 1>>log <in 3<>rw >|clob &>all &>>app 2>&- <&0 > /tmp/x"
             " >&file {fd}>x");
    const rp_sh_command *c = only_command();
    expect_argv(c, "cmd", NULL);
    assert_int_equal(c->n_redirs, 13);
    const struct {
        rp_sh_redir_op op;
        int fd;
        const char *target;
        bool writes;
    } want[] = {
        {RP_SH_REDIR_OUT, -1, "out", true},     {RP_SH_REDIR_DUP_OUT, 2, "1", false},
        {RP_SH_REDIR_APPEND, 1, "log", true},   {RP_SH_REDIR_IN, -1, "in", false},
        {RP_SH_REDIR_INOUT, 3, "rw", true},     {RP_SH_REDIR_CLOBBER, -1, "clob", true},
        {RP_SH_REDIR_OUT_ERR, -1, "all", true}, {RP_SH_REDIR_APPEND_ERR, -1, "app", true},
        {RP_SH_REDIR_DUP_OUT, 2, "-", false},   {RP_SH_REDIR_DUP_IN, -1, "0", false},
        {RP_SH_REDIR_OUT, -1, "/tmp/x", true},  {RP_SH_REDIR_DUP_OUT, -1, "file", true},
        {RP_SH_REDIR_OUT, -1, "x", true},
    };
    for (size_t i = 0; i < 13; i++) {
        assert_int_equal(c->redirs[i].op, want[i].op);
        assert_int_equal(c->redirs[i].fd, want[i].fd);
        assert_string_equal(c->redirs[i].target.text, want[i].target);
        assert_int_equal(rp_sh_redir_writes(&c->redirs[i]), want[i].writes);
    }
    parse_ok("echo a>b 2>c");
    expect_argv(only_command(), "echo", "a", NULL);
    parse_ok("> only");
    assert_int_equal(only_command()->n_words, 0);
    assert_int_equal(only_command()->n_redirs, 1);
    expect_unreadable("echo >");
    expect_unreadable("echo > ;");
}

static void test_heredocs(void **state)
{
    (void)state;
    parse_ok("cat <<EOF > out\nrm -rf / $(id -u) `whoami`\nEOF\necho after");
    const rp_sh_command *cat = command_named("cat", 0);
    assert_int_equal(cat->n_redirs, 2);
    assert_int_equal(cat->redirs[0].op, RP_SH_REDIR_HEREDOC);
    assert_false(cat->redirs[0].heredoc_quoted);
    assert_string_equal(cat->redirs[0].heredoc_body, "rm -rf / $(id -u) `whoami`\n");
    /* the body is data; its substitutions run */
    for (size_t i = 0; i < parsed.n_commands; i++)
        assert_true(parsed.commands[i].program == NULL ||
                    strcmp(parsed.commands[i].program, "rm") != 0);
    const rp_sh_command *id = command_named("id", 0);
    assert_true(id->context & RP_SH_CTX_HEREDOC);
    assert_true(id->context & RP_SH_CTX_CMDSUB);
    assert_true(command_named("whoami", 0)->context & RP_SH_CTX_HEREDOC);
    command_named("echo", 0);

    parse_ok("cat <<'EOF'\n$(rm -rf /)\nEOF");
    cat = only_command();
    assert_true(cat->redirs[0].heredoc_quoted);
    assert_string_equal(cat->redirs[0].heredoc_body, "$(rm -rf /)\n");

    parse_ok("cat <<-\"E\" ; cat <<X\n\t\tone\n\tE\ntwo\nX\n");
    assert_int_equal(parsed.n_commands, 2);
    assert_int_equal(parsed.commands[0].redirs[0].op, RP_SH_REDIR_HEREDOC_STRIP);
    assert_string_equal(parsed.commands[0].redirs[0].heredoc_body, "one\n");
    assert_string_equal(parsed.commands[1].redirs[0].heredoc_body, "two\n");

    parse_ok("cat <<<\"$(date) x\"");
    assert_int_equal(command_named("cat", 0)->redirs[0].op, RP_SH_REDIR_HERESTRING);
    command_named("date", 0);

    parse_ok("cat <<E\nlast line without newline\nE");
    expect_unreadable("cat <<EOF\nbody without its end\n");
    expect_unreadable("cat <<EOF");
}

static void test_unreadable_inputs(void **state)
{
    (void)state;
    expect_unreadable("echo 'unbalanced");
    expect_unreadable("echo \"unbalanced");
    expect_unreadable("echo $(ls");
    expect_unreadable("echo `ls");
    expect_unreadable("echo ${x");
    expect_unreadable("echo $'abc");
    expect_unreadable("echo )");
    expect_unreadable("echo a; )");
    expect_unreadable("(echo a");
    expect_unreadable("echo $((1 + 2)");
    expect_unreadable("rm -rf / \"");
    /* the commands read before the problem stay listed */
    parse("rm -rf /; echo 'x");
    assert_true(parsed.unreadable);
    assert_true(parsed.n_commands >= 1);
    assert_string_equal(parsed.commands[0].program, "rm");
    /* a NUL byte */
    rp_arena_reset(&arena);
    assert_int_equal(rp_sh_parse(&arena, "ls\0rm -rf /", 11, &parsed), -1);
    assert_true(parsed.unreadable);
}

static void test_deep_nesting_is_unreadable_not_a_crash(void **state)
{
    (void)state;
    char buf[4096];
    size_t n = 0;
    for (int i = 0; i < 1000; i++)
        buf[n++] = '(';
    buf[n] = '\0';
    expect_unreadable(buf);
    n = 0;
    for (int i = 0; i < 600; i++) {
        buf[n++] = '$';
        buf[n++] = '(';
    }
    buf[n] = '\0';
    expect_unreadable(buf);
}

int main(void)
{
    rp_arena_init(&arena, 1 << 16);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_words_and_offsets),
        cmocka_unit_test(test_single_and_double_quotes),
        cmocka_unit_test(test_backslash_escapes_and_continuations),
        cmocka_unit_test(test_ansi_c_strings),
        cmocka_unit_test(test_comments_only_at_word_start),
        cmocka_unit_test(test_variables_and_flags),
        cmocka_unit_test(test_glob_brace_tilde_flags),
        cmocka_unit_test(test_command_substitution_nested_and_quoted),
        cmocka_unit_test(test_backticks_with_escapes),
        cmocka_unit_test(test_process_substitution_and_arithmetic),
        cmocka_unit_test(test_assignments),
        cmocka_unit_test(test_redirections),
        cmocka_unit_test(test_heredocs),
        cmocka_unit_test(test_unreadable_inputs),
        cmocka_unit_test(test_deep_nesting_is_unreadable_not_a_crash),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rp_arena_free(&arena);
    return rc;
}
