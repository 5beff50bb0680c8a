/* test_shell_channels.c — code reaching a program through its stdin, a process substitution, a
 * file written earlier on the same line, or the arguments xargs/find/parallel add (issue 18):
 * what is listed, with which context, what is reported as unknown code, the look-alikes that
 * list nothing, the depth limit and the bounds on a 1 MB input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shell/shell.h"

#include "shell_test_util.h"

/* The nth command listed through a channel whose argv is exactly the given words. */
static const rp_sh_command *channel_argv(const char *src, const char *w0, const char *w1,
                                         const char *w2)
{
    parse_ok(src);
    const char *want[3] = {w0, w1, w2};
    size_t n = w2 ? 3 : w1 ? 2 : 1;
    for (size_t i = 0; i < parsed.n_commands; i++) {
        const rp_sh_command *c = &parsed.commands[i];
        if (!(c->context & RP_SH_CTX_CHANNEL) || c->n_words != n)
            continue;
        bool same = true;
        for (size_t k = 0; k < n; k++)
            same &= strcmp(c->words[k].text, want[k]) == 0;
        if (same) {
            assert_true(c->context & RP_SH_CTX_WRAPPED);
            assert_non_null(c->wrapper);
            assert_int_equal(c->depth, c->wrapper->depth + 1);
            return c;
        }
    }
    fail_msg("%s: no command \"%s %s %s\" listed through a channel", src, w0, w1 ? w1 : "",
             w2 ? w2 : "");
    return NULL;
}

/* Whether a command whose program is unknown was listed through a channel. */
static bool lists_unknown_code(void)
{
    for (size_t i = 0; i < parsed.n_commands; i++) {
        const rp_sh_command *c = &parsed.commands[i];
        if ((c->context & RP_SH_CTX_CHANNEL) && c->program_dynamic)
            return true;
    }
    return false;
}

static size_t channel_commands(void)
{
    size_t n = 0;
    for (size_t i = 0; i < parsed.n_commands; i++)
        n += (parsed.commands[i].context & RP_SH_CTX_CHANNEL) != 0;
    return n;
}

static void test_here_strings_and_here_docs(void **state)
{
    (void)state;
    const rp_sh_command *rm = channel_argv("bash <<< 'rm -rf /'", "rm", "-rf", "/");
    assert_true(rm->context & RP_SH_CTX_STRING);
    assert_string_equal(rm->wrapper->program, "bash");
    assert_int_equal(rm->depth, 1);
    assert_int_equal(parsed.env_kind[rm->env], RP_SH_ENV_STRING); /* a new shell runs it */
    channel_argv("bash <<EOF\nrm -rf /\nEOF\n", "rm", "-rf", "/");
    channel_argv("sh -s <<EOF\nrm -rf /\nEOF", "rm", "-rf", "/");
    channel_argv("bash -s -- arg <<'EOF'\nrm -rf /\nEOF", "rm", "-rf", "/");
    channel_argv("dash - <<< 'rm -rf /'", "rm", "-rf", "/");
    channel_argv("bash /dev/stdin <<< 'rm -rf /'", "rm", "-rf", "/");
    channel_argv("zsh /dev/fd/0 <<-EOF\n\trm -rf /\n\tEOF", "rm", "-rf", "/");
    channel_argv("busybox sh <<< 'rm -rf /'", "rm", "-rf", "/");
    channel_argv("busybox ash <<< 'rm -rf /'", "rm", "-rf", "/");
    channel_argv("sudo bash <<< 'rm -rf /'", "rm", "-rf", "/");
    /* an unquoted body: `\$` is a dollar, not an expansion */
    channel_argv("bash <<EOF\necho \\$x; rm -rf /\nEOF", "rm", "-rf", "/");
    /* the source (`.`) runs it in the current shell */
    rm = channel_argv(". /dev/stdin <<< 'rm -rf ~'", "rm", "-rf", "~");
    assert_int_equal(rm->env, rm->wrapper->env);
    channel_argv("source /proc/self/fd/0 <<< 'rm -rf ~'", "rm", "-rf", "~");
    channel_argv("at now <<< 'rm -rf ~'", "rm", "-rf", "~");
    channel_argv("at -m now + 1 hour <<EOF\nrm -rf ~\nEOF", "rm", "-rf", "~");
    channel_argv("batch <<< 'rm -rf ~'", "rm", "-rf", "~");
    /* a channel inside followed code is followed too */
    channel_argv("bash <<< \"sh <<< 'rm -rf /'\"", "rm", "-rf", "/");
}

static void test_pipes_and_process_substitutions(void **state)
{
    (void)state;
    channel_argv("echo 'rm -rf /' | sh", "rm", "-rf", "/");
    channel_argv("echo rm -rf / | sudo bash", "rm", "-rf", "/");
    channel_argv("printf 'rm -rf %s\\n' / | bash", "rm", "-rf", "/");
    channel_argv("cat <<EOF | bash\nrm -rf /\nEOF", "rm", "-rf", "/");
    channel_argv("cat <<< 'rm -rf /' | tee log | sh", "rm", "-rf", "/");
    channel_argv("echo cm0gLXJmIC8= | base64 -d | sh", "rm", "-rf", "/");
    channel_argv("echo / fr- mr | rev | sh", "rm", "-rf", "/");
    channel_argv("echo 'ez -es /' | tr a-z n-za-m | sh", "rm", "-rf", "/");
    channel_argv("echo 'rxm -rf /' | tr -d x | sh", "rm", "-rf", "/");
    channel_argv("bash <(echo rm -rf /)", "rm", "-rf", "/");
    channel_argv("source <(printf 'rm -rf ~')", "rm", "-rf", "~");
    channel_argv(". <(echo cm0gLXJmIC8= | base64 -d)", "rm", "-rf", "/");
    channel_argv("echo 'rm -rf /' | tee >(sh)", "rm", "-rf", "/");
    channel_argv("echo 'rm -rf /' > >(bash)", "rm", "-rf", "/");
}

static void test_files_made_on_the_spot(void **state)
{
    (void)state;
    channel_argv("printf 'rm -rf ~' > x.sh; sh x.sh", "rm", "-rf", "~");
    channel_argv("echo 'rm -rf /' > /tmp/a; bash /tmp/a", "rm", "-rf", "/");
    channel_argv("cat <<'EOF' > ./run.sh\nrm -rf /\nEOF\nbash run.sh", "rm", "-rf", "/");
    channel_argv("echo 'rm -rf /' | tee s.sh; . ./s.sh", "rm", "-rf", "/");
    channel_argv("echo '#!/bin/sh' > s; echo 'rm -rf /' >> s; sh s", "rm", "-rf", "/");
    channel_argv("echo 'rm -rf /' > s; bash < s", "rm", "-rf", "/");
    /* a script not written by this line is not read (as before) */
    parse_ok("bash deploy.sh");
    assert_int_equal(channel_commands(), 0);
    parse_ok("bash < deploy.sh");
    assert_int_equal(channel_commands(), 0);
    /* written after it runs: not what it runs */
    parse_ok("sh x.sh; echo 'rm -rf /' > x.sh");
    assert_int_equal(channel_commands(), 0);
}

static void test_arguments_programs_add(void **state)
{
    (void)state;
    const rp_sh_command *rm = channel_argv("echo / | xargs rm -rf", "rm", "-rf", "/");
    assert_false(rm->extra_args);
    assert_string_equal(rm->wrapper->program, "xargs");
    channel_argv("xargs rm -rf <<< '/'", "rm", "-rf", "/");
    channel_argv("printf '/\\n' | xargs -n1 rm -rf", "rm", "-rf", "/");
    rm = channel_argv("find ~ -type f -exec rm {} \\;", "rm", "~", NULL);
    assert_string_equal(rm->wrapper->program, "find");
    assert_true(rm->words[1].flags & RP_SH_WORD_TILDE);
    channel_argv("find / -execdir rm -rf {} +", "rm", "-rf", "/");
    channel_argv("find -L /etc -ok rm {} \\;", "rm", "/etc", NULL);
    channel_argv("find -type f -exec rm {} \\;", "rm", ".", NULL);
    channel_argv("parallel rm -rf ::: /", "rm", "-rf", "/");
    channel_argv("parallel -j4 rm -rf {} ::: / ~", "rm", "-rf", "~");
    channel_argv("parallel ::: 'rm -rf /'", "rm", "-rf", "/");
    channel_argv("echo / | parallel rm -rf", "rm", "-rf", "/");
    channel_argv("echo 'rm -rf /' | parallel", "rm", "-rf", "/");
    /* options that change how xargs reads are not evaluated */
    parse_ok("echo / | xargs -0 rm -rf");
    assert_int_equal(channel_commands(), 0);
}

static void test_unknown_code(void **state)
{
    (void)state;
    for (const char *const *s =
             (const char *const[]){"curl -fsSL https://x.example/i.sh | sh", "cat script | bash",
                                   "bash <<< \"$X\"", "bash < <(curl x)",
                                   "wget -qO- x | sudo bash -s", "bash <(curl -s x)",
                                   "curl x > i.sh; sh i.sh", "echo \"$CMD\" | sh",
                                   "bash <<EOF\n$(cat x)\nEOF", "echo x | tr '\\' y | sh", NULL};
         *s; s++) {
        parse_ok(*s);
        if (!lists_unknown_code())
            fail_msg("%s: no unknown code listed", *s);
    }
    /* what is written stays readable next to the unknown expansion */
    parse_ok("bash <<EOF\nrm -rf $HOME\nEOF");
    assert_true(lists_unknown_code());
    const rp_sh_command *rm = command_named("rm", 0);
    assert_true(rm->context & RP_SH_CTX_CHANNEL);
    assert_string_equal(rm->words[2].text, "$HOME");
    assert_false(rp_sh_word_static(&rm->words[2]));
}

static void test_look_alikes_list_nothing(void **state)
{
    (void)state;
    for (const char *const *s =
             (const char *const[]){"cat <<'EOF' > notes.md\nrm -rf /\nEOF",
                                   "echo 'rm -rf /' > notes.txt", "printf 'rm -rf /\\n' | wc -l",
                                   "git commit -F - <<< 'rm -rf /'", "grep -c rm <<< 'rm -rf /'",
                                   "echo 'rm -rf /'", "bash", "sh -c 'echo hi'",
                                   "python3 <<EOF\nimport os\nEOF", "bash -n <<< x; at -l",
                                   "echo 'rm -rf /' | cat", "cat notes.md | grep rm", NULL};
         *s; s++) {
        parse_ok(*s);
        if (channel_commands() != 0)
            fail_msg("%s: lists code through a channel", *s);
    }
}

/* `bash <<< 'bash <<< …'` nested deeper than RP_SH_MAX_DEPTH is unreadable. */
static void test_depth_limit(void **state)
{
    (void)state;
    char *text = strdup("rm -rf /");
    for (int level = 0; level < RP_SH_MAX_DEPTH + 2; level++) {
        size_t n = strlen(text), m = 0;
        char *next = malloc(n * 4 + 16);
        m += (size_t)sprintf(next, "bash <<< '");
        for (size_t i = 0; i < n; i++) {
            if (text[i] == '\'') {
                memcpy(next + m, "'\\''", 4);
                m += 4;
            } else
                next[m++] = text[i];
        }
        next[m++] = '\'';
        next[m] = '\0';
        free(text);
        text = next;
        if (level == 2) {
            parse_ok(text);
            assert_int_equal(command_named("rm", 0)->depth, 3);
        }
    }
    expect_unreadable(text);
    free(text);
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* A 1 MB here-doc into a shell, and 1 MB of files written and run: linear, bounded. */
static void test_one_megabyte_is_bounded(void **state)
{
    (void)state;
    const size_t size = (size_t)1 << 20;
    char *big = malloc(size + 64);
    size_t n = (size_t)sprintf(big, "bash <<'EOF'\n");
    while (n < size)
        n += (size_t)sprintf(big + n, "echo hi\n");
    n += (size_t)sprintf(big + n, "rm -rf /\nEOF\n");
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    parse_ok(big);
    assert_true(seconds_since(&t0) < 2.0);
    channel_argv(big, "rm", "-rf", "/");

    n = 0;
    while (n < size)
        n += (size_t)sprintf(big + n, "echo 'sh x' > x; sh x; ");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    parse(big);
    assert_true(seconds_since(&t0) < 2.0);
    assert_true(parsed.n_commands < 4 * (size / 8));
    free(big);
}

/* The same 1 MB script run 300 times is parsed a few times, then reported as unknown code. */
static void test_repeated_big_script_is_bounded(void **state)
{
    (void)state;
    const size_t size = (size_t)1 << 20;
    char *big = malloc(size + 4096);
    size_t n = (size_t)sprintf(big, "cat <<'EOF' > x\n");
    while (n < size)
        n += (size_t)sprintf(big + n, "echo hi\n");
    n += (size_t)sprintf(big + n, "EOF\n");
    for (int i = 0; i < 300; i++)
        n += (size_t)sprintf(big + n, "sh x; ");
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    parse_ok(big);
    assert_true(seconds_since(&t0) < 3.0);
    assert_true(parsed.n_commands < 5 * (size / 8));
    assert_true(lists_unknown_code());
    free(big);
}

/* find -exec find -exec … multiplies the commands listed: past a bound it is unreadable. */
static void test_multiplying_arguments_are_bounded(void **state)
{
    (void)state;
    char src[4096];
    size_t n = 0;
    for (int level = 0; level < 5; level++)
        n += (size_t)sprintf(src + n, "find a b c d e f g h i j k l m n o p -exec ");
    sprintf(src + n, "rm {} +");
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    parse(src);
    assert_true(seconds_since(&t0) < 2.0);
    assert_true(parsed.unreadable || parsed.n_commands < 100000);
}

int main(void)
{
    rp_arena_init(&arena, 1 << 16);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_here_strings_and_here_docs),
        cmocka_unit_test(test_pipes_and_process_substitutions),
        cmocka_unit_test(test_files_made_on_the_spot),
        cmocka_unit_test(test_arguments_programs_add),
        cmocka_unit_test(test_unknown_code),
        cmocka_unit_test(test_look_alikes_list_nothing),
        cmocka_unit_test(test_depth_limit),
        cmocka_unit_test(test_one_megabyte_is_bounded),
        cmocka_unit_test(test_repeated_big_script_is_bounded),
        cmocka_unit_test(test_multiplying_arguments_are_bounded),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rp_arena_free(&arena);
    return rc;
}
