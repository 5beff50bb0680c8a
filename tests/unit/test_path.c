/* test_path.c — the one path normaliser: Python's posixpath.normpath (except a leading "//"),
 * joining, home expansion, prefix checks and symlink resolution through a fake filesystem. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "path/path.h"

static rp_arena arena;

static void check_norm(const char *in, const char *want)
{
    const char *got = rp_path_normalize(&arena, in);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "normalize(%s) = %s, want %s\n", in, got, want);
    assert_string_equal(got, want);
}

static void test_normalize_matches_posixpath(void **unused)
{
    (void)unused;
    check_norm("", ".");
    check_norm(".", ".");
    check_norm("/", "/");
    check_norm("a", "a");
    check_norm("a/", "a");
    check_norm("./a", "a");
    check_norm("a/./b", "a/b");
    check_norm("a//b", "a/b");
    check_norm("a/b/..", "a");
    check_norm("a/..", ".");
    check_norm("a/../..", "..");
    check_norm("../a", "../a");
    check_norm("../../a/../b", "../../b");
    check_norm("..", "..");
    check_norm("/..", "/");
    check_norm("/../etc", "/etc");
    check_norm("/a/b/../../..", "/");
    check_norm("/./", "/");
    check_norm("/.", "/");
    check_norm("/etc/./passwd", "/etc/passwd");
    check_norm("/usr/", "/usr");
    check_norm("..hidden", "..hidden");
    check_norm("...", "...");
    check_norm(".worktrees/w1/../../x", "x");
    check_norm("~", "~");
    check_norm("~/x/../y", "~/y");
}

static void test_normalize_folds_leading_double_slash(void **unused)
{
    (void)unused;
    check_norm("//", "/");
    check_norm("//etc", "/etc");
    check_norm("///etc//x/", "/etc/x");
}

static void test_join(void **unused)
{
    (void)unused;
    assert_string_equal(rp_path_join(&arena, "/w", "a/b"), "/w/a/b");
    assert_string_equal(rp_path_join(&arena, "/w/", "./a"), "/w/a");
    assert_string_equal(rp_path_join(&arena, "/w", "../x"), "/x");
    assert_string_equal(rp_path_join(&arena, "/w", "/etc/x"), "/etc/x");
    assert_string_equal(rp_path_join(&arena, "/", "a"), "/a");
    assert_string_equal(rp_path_join(&arena, NULL, "a/./b"), "a/b");
    assert_string_equal(rp_path_join(&arena, "/w", ""), "/w");
}

static void test_expand_home(void **unused)
{
    (void)unused;
    assert_string_equal(rp_path_expand_home(&arena, "~", "/home/u"), "/home/u");
    assert_string_equal(rp_path_expand_home(&arena, "~/x", "/home/u"), "/home/u/x");
    assert_string_equal(rp_path_expand_home(&arena, "$HOME", "/home/u"), "/home/u");
    assert_string_equal(rp_path_expand_home(&arena, "$HOME/x", "/home/u"), "/home/u/x");
    assert_string_equal(rp_path_expand_home(&arena, "${HOME}/x", "/home/u"), "/home/u/x");
    assert_string_equal(rp_path_expand_home(&arena, "~user/x", "/home/u"), "~user/x");
    assert_string_equal(rp_path_expand_home(&arena, "$HOMEX", "/home/u"), "$HOMEX");
    assert_string_equal(rp_path_expand_home(&arena, "a/~", "/home/u"), "a/~");
    assert_string_equal(rp_path_expand_home(&arena, "~/x", NULL), "~/x");
}

static void test_is_under(void **unused)
{
    (void)unused;
    assert_true(rp_path_is_under("/a/b", "/a/b"));
    assert_true(rp_path_is_under("/a/b/c", "/a/b"));
    assert_true(rp_path_is_under("/a/b/c", "/a/b/"));
    assert_false(rp_path_is_under("/a/bc", "/a/b"));
    assert_false(rp_path_is_under("/a", "/a/b"));
    assert_true(rp_path_is_under("/x", "/"));
    assert_true(rp_path_is_under("/", "/"));
    assert_false(rp_path_is_under("x", "/"));
}

/* A fake filesystem: /w exists, /w/link → /etc, /w/dir exists, /etc exists. */
static int fake_realpath(void *self, const char *path, char *out, size_t size)
{
    (void)self;
    static const char *const map[][2] = {
        {"/", "/"},
        {"/w", "/w"},
        {"/w/dir", "/w/dir"},
        {"/w/link", "/etc"},
        {"/etc", "/etc"},
        {"/etc/passwd", "/etc/passwd"},
        {"/w/dir/f", "/w/dir/f"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(path, map[i][0]) == 0) {
            snprintf(out, size, "%s", map[i][1]);
            return 0;
        }
    if (strncmp(path, "/w/link/", 8) == 0) {
        snprintf(out, size, "/etc/%s", path + 8);
        return strcmp(path + 8, "passwd") == 0 ? 0 : -1;
    }
    return -1;
}

static void test_canonical_resolves_symlinks_of_existing_prefix(void **unused)
{
    (void)unused;
    const rp_fs_view fs = {.self = NULL, .realpath = fake_realpath, .lstat = NULL};
    assert_string_equal(rp_path_canonical(&arena, "/w/dir/f", &fs), "/w/dir/f");
    assert_string_equal(rp_path_canonical(&arena, "/w/dir/new/x", &fs), "/w/dir/new/x");
    assert_string_equal(rp_path_canonical(&arena, "/w/link", &fs), "/etc");
    assert_string_equal(rp_path_canonical(&arena, "/w/link/passwd", &fs), "/etc/passwd");
    assert_string_equal(rp_path_canonical(&arena, "/w/link/new", &fs), "/etc/new");
    assert_string_equal(rp_path_canonical(&arena, "/nowhere/x", &fs), "/nowhere/x");
    assert_string_equal(rp_path_canonical(&arena, "/", &fs), "/");
    assert_string_equal(rp_path_canonical(&arena, "/w/link/a", NULL), "/w/link/a");
    assert_string_equal(rp_path_canonical(&arena, "rel/x", &fs), "rel/x");
}

static int teardown(void **unused)
{
    (void)unused;
    rp_arena_free(&arena);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_normalize_matches_posixpath, teardown),
        cmocka_unit_test_teardown(test_normalize_folds_leading_double_slash, teardown),
        cmocka_unit_test_teardown(test_join, teardown),
        cmocka_unit_test_teardown(test_expand_home, teardown),
        cmocka_unit_test_teardown(test_is_under, teardown),
        cmocka_unit_test_teardown(test_canonical_resolves_symlinks_of_existing_prefix, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
