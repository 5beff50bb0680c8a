/* shell_test_util.h — what the shell parser's unit tests share: one arena and one parse
 * result per test program, and assertions on the commands. Include after <cmocka.h>. */
#ifndef RAMPART_TESTS_SHELL_TEST_UTIL_H
#define RAMPART_TESTS_SHELL_TEST_UTIL_H

#include <string.h>

#include "shell/shell.h"

static rp_arena arena;
static struct rp_sh_parse parsed;

static inline const struct rp_sh_parse *parse(const char *src)
{
    rp_arena_reset(&arena);
    rp_sh_parse(&arena, src, strlen(src), &parsed);
    return &parsed;
}

static inline const struct rp_sh_parse *parse_ok(const char *src)
{
    parse(src);
    if (parsed.unreadable)
        fail_msg("unreadable: %s (%s at %zu)", src, parsed.error, parsed.error_offset);
    return &parsed;
}

static inline void expect_unreadable(const char *src)
{
    parse(src);
    if (!parsed.unreadable)
        fail_msg("should be unreadable: %s", src);
    assert_non_null(parsed.error);
}

/* The nth command (in order) whose program is prog. */
static inline const rp_sh_command *command_named(const char *prog, int nth)
{
    for (size_t i = 0; i < parsed.n_commands; i++) {
        const rp_sh_command *c = &parsed.commands[i];
        if (c->program && strcmp(c->program, prog) == 0 && nth-- == 0)
            return c;
    }
    fail_msg("no command %s", prog);
    return NULL;
}

/* Asserts the words of c, a NULL-terminated list. */
static inline void expect_argv(const rp_sh_command *c, ...)
{
    va_list ap;
    va_start(ap, c);
    size_t i = 0;
    for (const char *w; (w = va_arg(ap, const char *)) != NULL; i++) {
        if (i >= c->n_words)
            fail_msg("word %zu missing, want \"%s\"", i, w);
        assert_string_equal(c->words[i].text, w);
        assert_int_equal(c->words[i].len, strlen(w));
    }
    va_end(ap);
    assert_int_equal(c->n_words, i);
}

#endif
