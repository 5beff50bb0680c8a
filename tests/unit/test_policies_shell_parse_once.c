/* test_policies_shell_parse_once.c — one shell parse per evaluation for every policy: the shell
 * policies (blast_radius, worktree_guard) and permissions evaluate one event with one eval ctx,
 * and the command is handed to rp_sh_parse once. Linked with -Wl,--wrap=rp_sh_parse
 * (CMakeLists.txt), so every call from outside the parser itself is counted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "policies/builtins.h"
#include "policy_test_util.h"
#include "shell/shell.h"

int __real_rp_sh_parse(rp_arena *a, const char *src, size_t len, struct rp_sh_parse *out);
int __wrap_rp_sh_parse(rp_arena *a, const char *src, size_t len, struct rp_sh_parse *out);

static int parses;

int __wrap_rp_sh_parse(rp_arena *a, const char *src, size_t len, struct rp_sh_parse *out)
{
    parses++;
    return __real_rp_sh_parse(a, src, len, out);
}

/* Evaluates the bash command with blast_radius, worktree_guard and permissions in turn, sharing
 * one eval ctx as the engine does; returns the number of parses and the verdicts. */
static int parses_for(const char *command, char verdicts[3][8])
{
    pt_policy p[3];
    pt_create(&p[0], &rp_policy_blast_radius, "{}");
    pt_create(&p[1], &rp_policy_worktree_guard, "{}");
    pt_create(&p[2], &rp_policy_permissions,
              "{\"permission\":{\"*\":\"allow\",\"bash\":{\"*\":\"allow\","
              "\"git push *\":\"deny\"}}}");
    rp_arena arena = {0};
    rp_buf text = {0};
    rp_buf_puts(&text, "{\"type\":\"tool_call\",\"data\":{\"name\":\"Bash\",\"arguments\":"
                       "{\"command\":");
    rp_json_write_string(&text, command, strlen(command));
    rp_buf_puts(&text, "}},\"context\":{\"cwd\":\"/workspace/project\",\"home\":\"/home/u\"}}");
    rp_buf_putc(&text, '\0');
    rp_event ev;
    assert_true(rp_event_from_json(pt_parse(&arena, text.data), &ev));
    static const rp_json empty = {.type = RP_JSON_OBJECT};
    rp_eval_ctx ctx = {.arena = &arena, .now_us = 1773576000000000LL, .config = &empty};
    parses = 0;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(p[i].create_rc, 0);
        ctx.policy_name = p[i].type->name;
        rp_result r = {.verdict = RP_ABSTAIN};
        assert_int_equal(p[i].type->evaluate(p[i].instance, &ev, &empty, &ctx, &r), 0);
        snprintf(verdicts[i], 8, "%s", rp_verdict_name(r.verdict));
    }
    int n = parses;
    for (int i = 0; i < 3; i++)
        pt_policy_free(&p[i]);
    rp_buf_free(&text);
    rp_arena_free(&arena);
    return n;
}

static void test_one_parse_for_three_policies(void **s)
{
    (void)s;
    char v[3][8];
    assert_int_equal(parses_for("git push origin main && rm -rf build > out.txt", v), 1);
    assert_string_equal(v[2], "DENY");
    assert_int_equal(parses_for("ls -la", v), 1);
    assert_string_equal(v[2], "ALLOW");
    /* blanks bash skips around the command do not make permissions parse it again */
    assert_int_equal(parses_for("  git push origin\n", v), 1);
    assert_string_equal(v[2], "DENY");
    assert_int_equal(parses_for("\tcat <<EOF\nx\nEOF\n", v), 1);
    /* ... except where trimming changes what bash reads: "EOF  " does not end the here-doc,
     * "EOF" does; permissions reads the trimmed text, as the reference does */
    assert_int_equal(parses_for("cat <<EOF\nx\nEOF  ", v), 2);
    assert_int_equal(parses_for("echo a\\\n", v), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_parse_for_three_policies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
