/* test_shell_grammar.c — the shell parser's grammar: lists, pipelines, subshells, groups,
 * reserved words, if/while/for/case, functions, [[ ]] and (( )), program normalisation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "shell/shell.h"

#include "shell_test_util.h"

static const rp_sh_command *only_command(void)
{
    assert_int_equal(parsed.n_commands, 1);
    return &parsed.commands[0];
}

static void test_lists_and_contexts(void **state)
{
    (void)state;
    parse_ok("a; b && c || d & e\nf");
    assert_int_equal(parsed.n_commands, 6);
    assert_int_equal(command_named("a", 0)->context, 0);
    assert_int_equal(command_named("b", 0)->context, RP_SH_CTX_BACKGROUND);
    assert_int_equal(command_named("c", 0)->context, RP_SH_CTX_BACKGROUND | RP_SH_CTX_CONDITIONAL);
    assert_int_equal(command_named("d", 0)->context, RP_SH_CTX_BACKGROUND | RP_SH_CTX_CONDITIONAL);
    assert_int_equal(command_named("e", 0)->context, 0);
    assert_int_equal(command_named("f", 0)->context, 0);
    /* echo x & rm -rf /: both run */
    parse_ok("echo x & rm -rf /");
    expect_argv(command_named("rm", 0), "rm", "-rf", "/", NULL);
    assert_true(command_named("echo", 0)->context & RP_SH_CTX_BACKGROUND);
    assert_false(command_named("rm", 0)->context & RP_SH_CTX_BACKGROUND);
    expect_unreadable("a ;; b");
    expect_unreadable("; a");
    expect_unreadable("a &&");
    expect_unreadable("a | ");
    expect_unreadable("a && && b");
    parse_ok("a &&\n\n b ||\n c |\n d");
    assert_int_equal(parsed.n_commands, 4);
}

static void test_pipelines(void **state)
{
    (void)state;
    parse_ok("ls | grep x |& tee f; echo y; (a | b) | c");
    const rp_sh_command *ls = command_named("ls", 0), *grep = command_named("grep", 0),
                        *tee = command_named("tee", 0), *echo = command_named("echo", 0);
    assert_true(ls->context & RP_SH_CTX_PIPELINE);
    assert_int_equal(ls->pipeline, grep->pipeline);
    assert_int_equal(tee->pipeline, ls->pipeline);
    assert_int_equal(ls->stage, 0);
    assert_int_equal(grep->stage, 1);
    assert_int_equal(tee->stage, 2);
    assert_false(echo->context & RP_SH_CTX_PIPELINE);
    assert_int_equal(echo->pipeline, -1);
    const rp_sh_command *a = command_named("a", 0), *b = command_named("b", 0),
                        *c = command_named("c", 0);
    assert_int_equal(a->pipeline, b->pipeline);
    assert_int_equal(b->stage, 1);
    assert_true(a->pipeline != c->pipeline);
    assert_int_equal(c->stage, 1);
    assert_true(a->context & RP_SH_CTX_SUBSHELL);
    /* a substitution inside a stage is not itself piped */
    parse_ok("echo $(id) | cat");
    assert_false(command_named("id", 0)->context & RP_SH_CTX_PIPELINE);
    parse_ok("! grep -q x f && time -p make");
    command_named("grep", 0);
    expect_argv(command_named("make", 0), "make", NULL);
}

static void test_subshells_and_groups(void **state)
{
    (void)state;
    parse_ok("(rm -rf /)");
    const rp_sh_command *rm = only_command();
    expect_argv(rm, "rm", "-rf", "/", NULL);
    assert_true(rm->context & RP_SH_CTX_SUBSHELL);
    parse_ok("{ cd /tmp; ls; } > out 2>&1");
    assert_true(command_named("cd", 0)->context & RP_SH_CTX_BRACE);
    /* the group's redirections: a command without words */
    const rp_sh_command *last = &parsed.commands[parsed.n_commands - 1];
    assert_int_equal(last->n_words, 0);
    assert_int_equal(last->n_redirs, 2);
    assert_string_equal(last->redirs[0].target.text, "out");
    parse_ok("echo { } a}");
    expect_argv(only_command(), "echo", "{", "}", "a}", NULL);
    expect_unreadable("{ echo a }");
    expect_unreadable("( )");
    expect_unreadable("(a) b");
    expect_unreadable("echo (a)");
}

static void test_reserved_words_only_in_command_position(void **state)
{
    (void)state;
    parse_ok("echo if then fi do done { } ! [[ time");
    expect_argv(only_command(), "echo", "if", "then", "fi", "do", "done", "{", "}", "!", "[[",
                "time", NULL);
    parse_ok("'if' x");
    assert_string_equal(only_command()->program, "if");
    expect_unreadable("fi");
    expect_unreadable("then echo");
    expect_unreadable("done");
}

static void test_if_while_until(void **state)
{
    (void)state;
    parse_ok("if test -f a; then rm a; elif b; then c; else d; fi; e");
    assert_true(command_named("test", 0)->context & RP_SH_CTX_IF);
    assert_true(command_named("rm", 0)->context & RP_SH_CTX_IF);
    assert_true(command_named("d", 0)->context & RP_SH_CTX_IF);
    assert_false(command_named("e", 0)->context & RP_SH_CTX_IF);
    parse_ok("while read l; do echo $l; done < f\nuntil false; do :; done");
    assert_true(command_named("read", 0)->context & RP_SH_CTX_LOOP);
    assert_true(command_named(":", 0)->context & RP_SH_CTX_LOOP);
    expect_unreadable("if a; then b");
    expect_unreadable("if a; b; fi");
    expect_unreadable("while a; done");
    expect_unreadable("if then fi");
}

static void test_for_select_case(void **state)
{
    (void)state;
    parse_ok("for f in *.txt $(ls); do rm \"$f\"; done");
    assert_true(command_named("rm", 0)->context & RP_SH_CTX_LOOP);
    assert_false(command_named("ls", 0)->context & RP_SH_CTX_LOOP);
    parse_ok("for x\ndo echo $x; done; for ((i=0; i<3; i++)); do echo; done");
    parse_ok("select x in a b; do break; done");
    parse_ok("for i in a b do; do echo; done"); /* `do` here is a list item */
    parse_ok("case \"$1\" in\n  start|go) run;;\n  (stop) halt ;&\n  *) echo \"?\" ;;& \nesac");
    assert_true(command_named("run", 0)->context & RP_SH_CTX_CASE);
    assert_true(command_named("halt", 0)->context & RP_SH_CTX_CASE);
    parse_ok("case x in esac");
    parse_ok("case x in a) ;; esac");
    expect_unreadable("for x in a b; echo; done");
    expect_unreadable("case x in a) echo");
    expect_unreadable("case x a) echo;; esac");
}

static void test_functions(void **state)
{
    (void)state;
    parse_ok("f() { rm -rf /; }; function g { ls; }; function h() ( pwd ); f");
    assert_true(command_named("rm", 0)->context & RP_SH_CTX_FUNCTION);
    assert_true(command_named("ls", 0)->context & RP_SH_CTX_FUNCTION);
    assert_true(command_named("pwd", 0)->context & RP_SH_CTX_FUNCTION);
    assert_false(command_named("f", 0)->context & RP_SH_CTX_FUNCTION);
    /* the definition itself is not a command */
    for (size_t i = 0; i < parsed.n_commands; i++)
        assert_true(strcmp(parsed.commands[i].program, "g") != 0);
    expect_unreadable("f() echo");
    expect_unreadable("f() {");
}

static void test_conditional_and_arithmetic_commands(void **state)
{
    (void)state;
    parse_ok("[[ -f a && $b < c || ( x > y ) ]] && echo ok");
    const rp_sh_command *cond = &parsed.commands[0];
    assert_string_equal(cond->program, "[[");
    assert_true(rp_sh_word_is(cond, cond->n_words - 1, "]]"));
    assert_int_equal(cond->n_redirs, 0);
    command_named("echo", 0);
    parse_ok("[[ $x =~ ^(a|b)+$ ]]");
    parse_ok("[[ $(rm -rf /) ]]");
    command_named("rm", 0);
    parse_ok("(( i++ )) && (( j = $(id -u) + 1 ))");
    assert_string_equal(parsed.commands[0].program, "((");
    command_named("id", 0);
    expect_unreadable("[[ a");
    expect_unreadable("(( 1 + ");
}

static void test_program_normalisation(void **state)
{
    (void)state;
    parse_ok("/bin/rm -rf /");
    const rp_sh_command *c = only_command();
    assert_string_equal(c->program, "rm");
    assert_true(c->program_is_path);
    assert_string_equal(c->words[0].text, "/bin/rm");
    parse_ok("./rm x");
    assert_string_equal(only_command()->program, "./rm");
    assert_true(only_command()->program_is_path);
    parse_ok("'rm' x");
    assert_string_equal(only_command()->program, "rm");
    assert_false(only_command()->program_is_path);
    parse_ok("r''m -rf /");
    assert_string_equal(only_command()->program, "rm");
    parse_ok("\\rm -rf /");
    assert_string_equal(only_command()->program, "rm");
    parse_ok("\"/usr/bin/\"git push");
    assert_string_equal(only_command()->program, "git");
    parse_ok("$CMD -rf /");
    assert_null(only_command()->program);
    assert_true(only_command()->program_dynamic);
}

static void test_spans(void **state)
{
    (void)state;
    const char *src = "ls -l && echo hi";
    parse_ok(src);
    const rp_sh_command *echo = command_named("echo", 0);
    assert_int_equal(echo->offset, 9);
    assert_int_equal(echo->end, 16);
    assert_int_equal(command_named("ls", 0)->offset, 0);
}

/* `${`, `$[`, `$((` nest through the word lexer like `$(` does: 60k levels overflowed the C
 * stack before they counted against the nesting limit. Shallow nesting still reads. */
static void deep(const char *prefix, const char *open, size_t n, const char *suffix)
{
    size_t plen = strlen(prefix), olen = strlen(open);
    char *src = malloc(plen + n * olen + strlen(suffix) + 1);
    assert_non_null(src);
    memcpy(src, prefix, plen);
    for (size_t i = 0; i < n; i++)
        memcpy(src + plen + i * olen, open, olen);
    strcpy(src + plen + n * olen, suffix);
    expect_unreadable(src);
    assert_string_equal(parsed.error, "nesting too deep");
    free(src);
}

static void test_substitution_nesting_is_bounded(void **state)
{
    (void)state;
    deep("echo ", "${", 60000, "");
    deep("echo ", "$[", 60000, "");
    deep("echo ", "${#a[", 60000, "");
    deep("echo ", "${a/", 60000, "");
    deep("echo ", "\"${", 60000, "");
    parse_ok("echo ${a:-${b:-${c}}} $[1+$[2]] ${#a[${i}]} ${a/${x}/y}");
}

int main(void)
{
    rp_arena_init(&arena, 1 << 16);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lists_and_contexts),
        cmocka_unit_test(test_pipelines),
        cmocka_unit_test(test_subshells_and_groups),
        cmocka_unit_test(test_reserved_words_only_in_command_position),
        cmocka_unit_test(test_if_while_until),
        cmocka_unit_test(test_for_select_case),
        cmocka_unit_test(test_functions),
        cmocka_unit_test(test_conditional_and_arithmetic_commands),
        cmocka_unit_test(test_program_normalisation),
        cmocka_unit_test(test_spans),
        cmocka_unit_test(test_substitution_nesting_is_bounded),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rp_arena_free(&arena);
    return rc;
}
