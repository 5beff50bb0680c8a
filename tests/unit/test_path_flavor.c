/* test_path_flavor.c — POSIX and win32 path rules (flavor.h): normalize keeps a trailing
 * separator, resolve, relative (win32 case-insensitive), inside/within by segments, fold and
 * dirpart; plus a table of answers taken from Node's path.posix / path.win32 (v20). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "path/flavor.h"

static rp_arena arena;

#define P RP_PATH_POSIX
#define W RP_PATH_WIN32

static void eq(const char *what, const char *a, const char *b, const char *got, const char *want)
{
    if (strcmp(got, want) != 0)
        fprintf(stderr, "%s(%s%s%s) = \"%s\", want \"%s\"\n", what, a, b ? ", " : "", b ? b : "",
                got, want);
    assert_string_equal(got, want);
}

static void check_norm(rp_path_flavor f, const char *in, const char *want)
{
    eq("normalize", in, NULL, rp_pathf_normalize(&arena, f, in), want);
}

static void check_resolve(rp_path_flavor f, const char *base, const char *p, const char *want)
{
    eq("resolve", base ? base : "(null)", p, rp_pathf_resolve(&arena, f, base, p), want);
}

static void check_rel(rp_path_flavor f, const char *from, const char *to, const char *want)
{
    eq("relative", from, to, rp_pathf_relative(&arena, f, from, to), want);
}

static void test_posix_normalize_keeps_trailing_separator(void **unused)
{
    (void)unused;
    check_norm(P, "", ".");
    check_norm(P, ".", ".");
    check_norm(P, "./", "./");
    check_norm(P, "a/", "a/");
    check_norm(P, "/usr/", "/usr/");
    check_norm(P, "/a/b/../c/", "/a/c/");
    check_norm(P, "//a//b", "/a/b");
    check_norm(P, "a/../..", "..");
    check_norm(P, "../../a/../b", "../../b");
    check_norm(P, "/..", "/");
    check_norm(P, "/../etc", "/etc");
    check_norm(P, "/", "/");
    check_norm(P, "a\\b", "a\\b"); /* a backslash is a character on POSIX */
    check_norm(P, "..hidden/...", "..hidden/...");
    check_norm(P, "~/x/../y", "~/y");
}

static void test_posix_join_and_resolve(void **unused)
{
    (void)unused;
    eq("join", "/home/u", "", rp_pathf_join(&arena, P, "/home/u", ""), "/home/u");
    eq("join", "/home/u", "a/", rp_pathf_join(&arena, P, "/home/u", "a/"), "/home/u/a/");
    eq("join", "/home/u", "/x", rp_pathf_join(&arena, P, "/home/u", "/x"), "/home/u/x");
    eq("join", "NULL", "a", rp_pathf_join(&arena, P, NULL, "a"), "a");
    check_resolve(P, "/workspace/project", "src/App.jsx", "/workspace/project/src/App.jsx");
    check_resolve(P, "/workspace/project", "./src/a", "/workspace/project/src/a");
    check_resolve(P, "/workspace/project", "/etc/hosts", "/etc/hosts");
    check_resolve(P, "/workspace/project", "../x/", "/workspace/x"); /* no trailing separator */
    check_resolve(P, "/workspace/project", "", "/workspace/project");
    check_resolve(P, "/workspace/project/", ".", "/workspace/project");
    check_resolve(P, "/", "..", "/");
    check_resolve(P, "/w", "//x//y/", "/x/y");
    /* Without an absolute base the root stands in for process.cwd(): always absolute. */
    check_resolve(P, NULL, "a/b", "/a/b");
    check_resolve(P, "rel", "x", "/rel/x");
    check_resolve(P, NULL, "", "/");
}

static void test_posix_relative_inside_within(void **unused)
{
    (void)unused;
    check_rel(P, "/x/project", "/x/project", "");
    check_rel(P, "/x/project", "/x/project/", "");
    check_rel(P, "/x/project", "/x/project/a/b", "a/b");
    check_rel(P, "/x/project", "/x/project-other", "../project-other");
    check_rel(P, "/x/project", "/x", "..");
    check_rel(P, "/", "/x", "x");
    check_rel(P, "/x/y", "/", "../..");

    assert_true(rp_pathf_inside(&arena, P, "/x/project", "/x/project/a"));
    assert_true(rp_pathf_inside(&arena, P, "/x/project", "/x/project/a/b/"));
    assert_true(rp_pathf_inside(&arena, P, "/x/project", "/x/project/..foo")); /* a name */
    assert_true(rp_pathf_inside(&arena, P, "/", "/etc"));
    assert_false(rp_pathf_inside(&arena, P, "/x/project", "/x/project")); /* not itself */
    assert_false(rp_pathf_inside(&arena, P, "/x/project", "/x/project-other"));
    assert_false(rp_pathf_inside(&arena, P, "/x/project", "/x/projec"));
    assert_false(rp_pathf_inside(&arena, P, "/x/project", "/x"));
    assert_false(rp_pathf_inside(&arena, P, "/x/project", "/etc/passwd"));
    assert_false(rp_pathf_inside(&arena, P, "/x/project", "/x/project/../other"));

    assert_true(rp_pathf_within(&arena, P, "/x/project", "/x/project"));
    assert_true(rp_pathf_within(&arena, P, "/x/project", "/x/project/"));
    assert_true(rp_pathf_within(&arena, P, "/x/project", "/x/project/sub"));
    assert_false(rp_pathf_within(&arena, P, "/x/project", "/x/project-other"));
    assert_false(rp_pathf_within(&arena, P, "/x/project", "/X/project")); /* POSIX: case matters */
}

static void test_posix_absolute_fold_dirpart_sep(void **unused)
{
    (void)unused;
    assert_int_equal(rp_path_host_flavor(), P);
    assert_true(rp_pathf_is_absolute(P, "/x"));
    assert_false(rp_pathf_is_absolute(P, "x/"));
    assert_false(rp_pathf_is_absolute(P, "C:\\x"));
    assert_false(rp_pathf_is_absolute(P, "\\x"));
    assert_false(rp_pathf_is_absolute(P, ""));
    assert_true(rp_pathf_is_sep(P, '/'));
    assert_false(rp_pathf_is_sep(P, '\\'));
    assert_int_equal(rp_pathf_sep(P), '/');
    const char *p = "/Mixed/Case";
    assert_ptr_equal(rp_pathf_fold(&arena, P, p), p);
    assert_string_equal(rp_pathf_dirpart(&arena, P, "/etc/passwd"), "/etc/");
    assert_string_equal(rp_pathf_dirpart(&arena, P, "/tmp/"), "/tmp/");
    assert_string_equal(rp_pathf_dirpart(&arena, P, "/tmp"), "/");
    assert_string_equal(rp_pathf_dirpart(&arena, P, "file"), "");
    assert_string_equal(rp_pathf_dirpart(&arena, P, "a\\b"), "");
}

static void test_win32_normalize(void **unused)
{
    (void)unused;
    check_norm(W, "C:\\projects\\app", "C:\\projects\\app");
    check_norm(W, "C:/x", "C:\\x");
    check_norm(W, "C:/x/./y/", "C:\\x\\y\\");
    check_norm(W, "C:\\a\\..\\..\\b", "C:\\b"); /* never above the drive root */
    check_norm(W, "/c/x", "\\c\\x");            /* Git Bash spelling: rooted, no drive */
    check_norm(W, "C:", "C:.");
    check_norm(W, "C:x\\..\\..", "C:..");
    check_norm(W, "\\\\server\\share", "\\\\server\\share\\");
    check_norm(W, "//server/share/a/../b", "\\\\server\\share\\b");
    check_norm(W, "\\\\server\\share\\..\\..", "\\\\server\\share\\");
    check_norm(W, "/", "\\");
    check_norm(W, "a\\b/", "a\\b\\");
    check_norm(W, "", ".");
}

static void test_win32_absolute_and_drive(void **unused)
{
    (void)unused;
    assert_true(rp_pathf_is_absolute(W, "C:\\x"));
    assert_true(rp_pathf_is_absolute(W, "c:/x"));
    assert_true(rp_pathf_is_absolute(W, "C:\\"));
    assert_true(rp_pathf_is_absolute(W, "\\x"));
    assert_true(rp_pathf_is_absolute(W, "/x"));
    assert_true(rp_pathf_is_absolute(W, "\\\\server\\share"));
    assert_false(rp_pathf_is_absolute(W, "C:x"));
    assert_false(rp_pathf_is_absolute(W, "C:"));
    assert_false(rp_pathf_is_absolute(W, "x\\y"));
    assert_false(rp_pathf_is_absolute(W, "1:\\x"));
    assert_true(rp_pathf_is_drive_path("C:\\x"));
    assert_true(rp_pathf_is_drive_path("d:/"));
    assert_false(rp_pathf_is_drive_path("/c/x"));
    assert_false(rp_pathf_is_drive_path("C:"));
    assert_false(rp_pathf_is_drive_path("C:x"));
    assert_true(rp_pathf_is_sep(W, '\\'));
    assert_true(rp_pathf_is_sep(W, '/'));
    assert_int_equal(rp_pathf_sep(W), '\\');
}

static void test_win32_resolve(void **unused)
{
    (void)unused;
    const char *cwd = "C:\\projects\\app";
    check_resolve(W, cwd, "src/App.jsx", "C:\\projects\\app\\src\\App.jsx");
    check_resolve(W, cwd, "/x", "C:\\x"); /* rooted: the drive of the base */
    check_resolve(W, cwd, "\\Windows\\System32", "C:\\Windows\\System32");
    check_resolve(W, cwd, "/c/x", "C:\\c\\x"); /* not a mount: that is the bash projection's job */
    check_resolve(W, cwd, "C:/Other/Y/", "C:\\Other\\Y");
    check_resolve(W, cwd, "D:\\x\\..\\y", "D:\\y");
    check_resolve(W, cwd, "D:foo", "D:\\foo");                /* another drive's cwd: its root */
    check_resolve(W, cwd, "c:foo", "c:\\projects\\app\\foo"); /* same drive: relative to base */
    check_resolve(W, cwd, "\\\\srv\\sh\\x", "\\\\srv\\sh\\x");
    check_resolve(W, cwd, "..\\..\\..", "C:\\");
    check_resolve(W, "\\\\srv\\sh\\dir", "..\\..\\x", "\\\\srv\\sh\\x");
    check_resolve(W, NULL, "x", "\\x");
    check_resolve(W, NULL, cwd, cwd);
}

static void test_win32_relative_is_case_insensitive(void **unused)
{
    (void)unused;
    check_rel(W, "C:\\projects\\app", "c:\\PROJECTS\\APP", "");
    check_rel(W, "C:\\Projects\\App", "c:\\projects\\app\\Src\\X", "Src\\X"); /* case of `to` */
    check_rel(W, "C:\\projects\\app", "C:/projects/app/a/b", "a\\b");
    check_rel(W, "C:\\projects\\app", "C:\\projects\\app-other", "..\\app-other");
    check_rel(W, "C:\\projects\\app", "D:\\x", "D:\\x"); /* another drive: absolute */
    check_rel(W, "C:\\", "C:\\x", "x");
    check_rel(W, "C:\\x", "C:\\", "..");

    const char *cwd = "C:\\projects\\app";
    assert_true(rp_pathf_inside(&arena, W, cwd, "C:\\projects\\app\\src"));
    assert_true(rp_pathf_inside(&arena, W, cwd, "c:\\PROJECTS\\app\\src"));
    assert_true(rp_pathf_inside(&arena, W, cwd, "c:/projects/app/src/x.txt"));
    assert_false(rp_pathf_inside(&arena, W, cwd, "C:\\projects\\APP"));
    assert_false(rp_pathf_inside(&arena, W, cwd, "C:\\projects\\app-other"));
    assert_false(rp_pathf_inside(&arena, W, cwd, "D:\\projects\\app\\x"));
    assert_false(rp_pathf_inside(&arena, W, cwd, "C:\\"));
    assert_false(rp_pathf_inside(&arena, W, cwd, "\\\\srv\\sh\\x"));
    assert_true(rp_pathf_within(&arena, W, cwd, "c:\\projects\\app"));
    assert_true(rp_pathf_within(&arena, W, cwd, "C:\\Projects\\App\\x"));
    assert_false(rp_pathf_within(&arena, W, cwd, "C:\\projects\\apps"));
    assert_true(rp_pathf_within(&arena, W, "\\\\srv\\sh", "\\\\SRV\\sh\\x"));
    /* Node answers "..i" here, which would read as "inside": rampart compares devices first. */
    check_rel(W, "i:\\", "\\i", "..i");
    assert_false(rp_pathf_inside(&arena, W, "i:\\", "\\i"));
    assert_false(rp_pathf_within(&arena, W, "i:\\", "\\i"));
    assert_false(rp_pathf_inside(&arena, W, "\\x", "C:\\x\\y"));
    assert_true(rp_pathf_inside(&arena, W, "\\x", "/x/y")); /* both without a drive */
    assert_false(rp_pathf_within(&arena, W, "\\\\srv\\sh\\a", "\\\\srv\\other\\a"));
}

static void test_win32_fold_and_dirpart(void **unused)
{
    (void)unused;
    assert_string_equal(rp_pathf_fold(&arena, W, "C:\\Users\\Foo\\\xc3\x89"),
                        "c:\\users\\foo\\\xc3\x89");
    assert_string_equal(rp_pathf_dirpart(&arena, W, "C:\\x\\y.txt"), "C:\\x\\");
    assert_string_equal(rp_pathf_dirpart(&arena, W, "C:/x/y.txt"), "C:/x/");
    assert_string_equal(rp_pathf_dirpart(&arena, W, "dir\\file"), "dir\\");
    assert_string_equal(rp_pathf_dirpart(&arena, W, "C:x"), "");
}

/* Answers of Node v20.20's path.posix / path.win32 (process.cwd() replaced by the root). */
static void test_node_vectors(void **unused)
{
    (void)unused;
    static const struct {
        rp_path_flavor f;
        const char *op, *a, *b, *want;
    } v[] = {
        {RP_PATH_POSIX, "normalize", "", NULL, "."},
        {RP_PATH_POSIX, "normalize", ".", NULL, "."},
        {RP_PATH_POSIX, "normalize", "./", NULL, "./"},
        {RP_PATH_POSIX, "normalize", "a/", NULL, "a/"},
        {RP_PATH_POSIX, "normalize", "/a/b/../c/", NULL, "/a/c/"},
        {RP_PATH_POSIX, "normalize", "//a//b", NULL, "/a/b"},
        {RP_PATH_POSIX, "normalize", "a/../..", NULL, ".."},
        {RP_PATH_POSIX, "normalize", "../a/", NULL, "../a/"},
        {RP_PATH_POSIX, "normalize", "/..", NULL, "/"},
        {RP_PATH_POSIX, "normalize", "a/./b/.", NULL, "a/b"},
        {RP_PATH_POSIX, "normalize", "/x/y/", NULL, "/x/y/"},
        {RP_PATH_POSIX, "normalize", "..", NULL, ".."},
        {RP_PATH_POSIX, "normalize", "a/..", NULL, "."},
        {RP_PATH_POSIX, "normalize", "/.", NULL, "/"},
        {RP_PATH_POSIX, "normalize", "...", NULL, "..."},
        {RP_PATH_POSIX, "normalize", ".a/../.b/", NULL, ".b/"},
        {RP_PATH_WIN32, "normalize", "C:\\projects\\app", NULL, "C:\\projects\\app"},
        {RP_PATH_WIN32, "normalize", "C:/x", NULL, "C:\\x"},
        {RP_PATH_WIN32, "normalize", "C:/x/./y/", NULL, "C:\\x\\y\\"},
        {RP_PATH_WIN32, "normalize", "/c/x", NULL, "\\c\\x"},
        {RP_PATH_WIN32, "normalize", "C:", NULL, "C:."},
        {RP_PATH_WIN32, "normalize", "C:x\\..\\..", NULL, "C:.."},
        {RP_PATH_WIN32, "normalize", "\\\\server\\share", NULL, "\\\\server\\share\\"},
        {RP_PATH_WIN32, "normalize", "\\\\server\\share\\a\\..\\b", NULL, "\\\\server\\share\\b"},
        {RP_PATH_WIN32, "normalize", "//server/share/", NULL, "\\\\server\\share\\"},
        {RP_PATH_WIN32, "normalize", "\\", NULL, "\\"},
        {RP_PATH_WIN32, "normalize", "/", NULL, "\\"},
        {RP_PATH_WIN32, "normalize", "a\\b/", NULL, "a\\b\\"},
        {RP_PATH_WIN32, "normalize", "\\\\server", NULL, "\\server"},
        {RP_PATH_WIN32, "normalize", "C:\\..", NULL, "C:\\"},
        {RP_PATH_WIN32, "normalize", "C:\\a\\..\\..\\b", NULL, "C:\\b"},
        {RP_PATH_WIN32, "normalize", "c:/A/B/..", NULL, "c:\\A"},
        {RP_PATH_WIN32, "normalize", ".\\x", NULL, "x"},
        {RP_PATH_WIN32, "normalize", "x/..", NULL, "."},
        {RP_PATH_POSIX, "join", "/home/u", "", "/home/u"},
        {RP_PATH_POSIX, "join", "/home/u", "a/", "/home/u/a/"},
        {RP_PATH_POSIX, "join", "/home/u", "/x", "/home/u/x"},
        {RP_PATH_POSIX, "join", "", "a", "a"},
        {RP_PATH_POSIX, "join", "", "", "."},
        {RP_PATH_POSIX, "join", "a", "../..", ".."},
        {RP_PATH_POSIX, "join", "/", "x", "/x"},
        {RP_PATH_WIN32, "join", "C:\\Users\\u", ".ssh\\config", "C:\\Users\\u\\.ssh\\config"},
        {RP_PATH_WIN32, "join", "C:\\Users\\u", "", "C:\\Users\\u"},
        {RP_PATH_WIN32, "join", "\\", "\\server", "\\server"},
        {RP_PATH_WIN32, "join", "\\\\server", "share", "\\\\server\\share\\"},
        {RP_PATH_WIN32, "join", "C:\\", "..\\x\\", "C:\\x\\"},
        {RP_PATH_POSIX, "resolve", "/w/p", "src/a", "/w/p/src/a"},
        {RP_PATH_POSIX, "resolve", "/w/p", "/etc/hosts", "/etc/hosts"},
        {RP_PATH_POSIX, "resolve", "/w/p", "../x/", "/w/x"},
        {RP_PATH_POSIX, "resolve", "/w/p", "", "/w/p"},
        {RP_PATH_POSIX, "resolve", "/", ".", "/"},
        {RP_PATH_POSIX, "resolve", "/w/p", "./a/./b/../c", "/w/p/a/c"},
        {RP_PATH_POSIX, "resolve", "/w/p", "//x", "/x"},
        {RP_PATH_WIN32, "resolve", "C:\\projects\\app", "src\\a", "C:\\projects\\app\\src\\a"},
        {RP_PATH_WIN32, "resolve", "C:\\projects\\app", "/x", "C:\\x"},
        {RP_PATH_WIN32, "resolve", "C:\\projects\\app", "C:/Other/Y/", "C:\\Other\\Y"},
        {RP_PATH_WIN32, "resolve", "C:\\projects\\app", "D:foo", "D:\\foo"},
        {RP_PATH_WIN32, "resolve", "C:\\projects\\app", "c:foo", "c:\\projects\\app\\foo"},
        {RP_PATH_WIN32, "resolve", "C:\\projects\\app", "D:\\x\\..\\y", "D:\\y"},
        {RP_PATH_WIN32, "resolve", "C:\\projects\\app", "\\\\srv\\sh\\x", "\\\\srv\\sh\\x"},
        {RP_PATH_WIN32, "resolve", "C:\\projects\\app", "..\\..\\..", "C:\\"},
        {RP_PATH_WIN32, "resolve", "\\\\srv\\sh\\dir", "..\\..\\x", "\\\\srv\\sh\\x"},
        {RP_PATH_POSIX, "relative", "/x/project", "/x/project", ""},
        {RP_PATH_POSIX, "relative", "/x/project", "/x/project/a/b", "a/b"},
        {RP_PATH_POSIX, "relative", "/x/project", "/x/project-other", "../project-other"},
        {RP_PATH_POSIX, "relative", "/x/project", "/x", ".."},
        {RP_PATH_POSIX, "relative", "/", "/x", "x"},
        {RP_PATH_POSIX, "relative", "/x/y", "/", "../.."},
        {RP_PATH_POSIX, "relative", "/a/b/c", "/a/d", "../../d"},
        {RP_PATH_POSIX, "relative", "/x/project", "/x/project/", ""},
        {RP_PATH_WIN32, "relative", "C:\\projects\\app", "c:\\PROJECTS\\APP", ""},
        {RP_PATH_WIN32, "relative", "C:\\Projects\\App", "c:\\projects\\app\\Src\\X", "Src\\X"},
        {RP_PATH_WIN32, "relative", "C:\\projects\\app", "C:\\projects\\app-other",
         "..\\app-other"},
        {RP_PATH_WIN32, "relative", "C:\\projects\\app", "D:\\x", "D:\\x"},
        {RP_PATH_WIN32, "relative", "C:\\", "C:\\x", "x"},
        {RP_PATH_WIN32, "relative", "C:\\x", "C:\\", ".."},
        {RP_PATH_WIN32, "relative", "\\\\srv\\sh\\a", "\\\\srv\\sh\\b", "..\\b"},
        {RP_PATH_WIN32, "relative", "\\\\srv\\sh\\a", "\\\\srv\\other\\b", "..\\..\\other\\b"},
        {RP_PATH_WIN32, "relative", "C:\\projects\\app", "C:/projects/app/a/b", "a\\b"},
        /* Node 20.20: CVE-2024-36139, reserved names, device roots. */
        {RP_PATH_WIN32, "normalize", "./c:x", NULL, ".\\c:x"},
        {RP_PATH_WIN32, "normalize", "a/../s:x", NULL, ".\\s:x"},
        {RP_PATH_WIN32, "normalize", "./ab:c", NULL, "ab:c"},
        {RP_PATH_WIN32, "normalize", "x/b:", NULL, ".\\x\\b:"},
        {RP_PATH_WIN32, "normalize", "./ab:/c", NULL, ".\\ab:\\c"},
        {RP_PATH_WIN32, "normalize", "CON:x", NULL, ".\\CON:x"},
        {RP_PATH_WIN32, "normalize", "con:", NULL, ".\\con:."},
        /* (Node: ".\\CONx", from a slice(0, -1) on a path without ':', and "com2s" would
         * alternate with ".\\com2s" on every round; rampart keeps the name as it is.) */
        {RP_PATH_WIN32, "normalize", "CONx", NULL, "CONx"},
        {RP_PATH_WIN32, "normalize", "NUL", NULL, "NUL"},
        {RP_PATH_WIN32, "normalize", "COM¹:x", NULL, ".\\COM¹:x"},
        {RP_PATH_WIN32, "normalize", "\\\\.\\PHYSICALDRIVE0\\x\\..", NULL, "\\\\.\\PHYSICALDRIVE0"},
        {RP_PATH_WIN32, "normalize", "\\\\?\\C:\\x\\..\\y", NULL, "\\\\?\\C:\\y"},
        {RP_PATH_WIN32, "normalize", ":x", NULL, ":x"},
        {RP_PATH_WIN32, "resolve", "C:\\a", "\\\\.\\x\\..\\..", "\\\\.\\"},
        {RP_PATH_WIN32, "join", "a", "../s:", ".\\s:"},
        {RP_PATH_WIN32, "relative", "c:\\", "\\\\c:\\nul\\", "nul\\"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        const char *got;
        if (strcmp(v[i].op, "normalize") == 0)
            got = rp_pathf_normalize(&arena, v[i].f, v[i].a);
        else if (strcmp(v[i].op, "join") == 0)
            got = rp_pathf_join(&arena, v[i].f, v[i].a, v[i].b);
        else if (strcmp(v[i].op, "resolve") == 0)
            got = rp_pathf_resolve(&arena, v[i].f, v[i].a, v[i].b);
        else
            got = rp_pathf_relative(&arena, v[i].f, v[i].a, v[i].b);
        eq(v[i].op, v[i].a, v[i].b, got, v[i].want);
    }
}

/* Normalising twice changes nothing; resolving always gives an absolute, normal path. */
static void test_normalize_idempotent_resolve_absolute(void **unused)
{
    (void)unused;
    const char *inputs[] = {"",        ".",        "..",      "a/../../b/", "//x//",   "C:",
                            "C:x\\..", "\\\\s\\h", "\\\\s",   "/c/x/../..", "a\\.\\b", "C:\\..\\",
                            "./",      "~/.ssh/",  "...\\..", "//",         "\\\\\\x"};
    for (int f = P; f <= W; f++)
        for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
            const char *n1 = rp_pathf_normalize(&arena, (rp_path_flavor)f, inputs[i]);
            eq("normalize∘normalize", inputs[i], NULL,
               rp_pathf_normalize(&arena, (rp_path_flavor)f, n1), n1);
            const char *r = rp_pathf_resolve(&arena, (rp_path_flavor)f, "/base", inputs[i]);
            assert_true(rp_pathf_is_absolute((rp_path_flavor)f, r));
            eq("normalize∘resolve", inputs[i], NULL,
               rp_pathf_normalize(&arena, (rp_path_flavor)f, r), r);
        }
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
        cmocka_unit_test_teardown(test_posix_normalize_keeps_trailing_separator, teardown),
        cmocka_unit_test_teardown(test_posix_join_and_resolve, teardown),
        cmocka_unit_test_teardown(test_posix_relative_inside_within, teardown),
        cmocka_unit_test_teardown(test_posix_absolute_fold_dirpart_sep, teardown),
        cmocka_unit_test_teardown(test_win32_normalize, teardown),
        cmocka_unit_test_teardown(test_win32_absolute_and_drive, teardown),
        cmocka_unit_test_teardown(test_win32_resolve, teardown),
        cmocka_unit_test_teardown(test_win32_relative_is_case_insensitive, teardown),
        cmocka_unit_test_teardown(test_win32_fold_and_dirpart, teardown),
        cmocka_unit_test_teardown(test_node_vectors, teardown),
        cmocka_unit_test_teardown(test_normalize_idempotent_resolve_absolute, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
