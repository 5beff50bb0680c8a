/* test_path_policy_values.c — "path-utils policy values" (the seed's TDD step 1, reference
 * §3.5/§3.6): the literal form, the alias set [absolute, cwd-relative, literal, canonical],
 * the resolve base, symlinks through a fake filesystem view, win32 folding, and outside(). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <errno.h>

#include "path/policy_values.h"

static rp_arena arena;

/* Checks out->values against the NULL-terminated list of wanted values. */
static void check_values_list(const rp_path_values *v, const char *raw, const char *const *want)
{
    size_t n = 0;
    while (want[n] != NULL)
        n++;
    bool same = v->n == n;
    for (size_t i = 0; same && i < n; i++)
        same = strcmp(v->values[i], want[i]) == 0;
    if (!same) {
        fprintf(stderr, "values(%s) = [", raw);
        for (size_t i = 0; i < v->n; i++)
            fprintf(stderr, "%s\"%s\"", i ? ", " : "", v->values[i]);
        fprintf(stderr, "], want [");
        for (size_t i = 0; i < n; i++)
            fprintf(stderr, "%s\"%s\"", i ? ", " : "", want[i]);
        fprintf(stderr, "]\n");
    }
    assert_true(same);
}

#define CHECK_VALUES(v, raw, ...)                                                                  \
    check_values_list(v, raw, (const char *const[]){__VA_ARGS__, NULL})

static rp_path_values values_of(const rp_path_ctx *pc, const char *raw, const char *base)
{
    rp_path_values v;
    rp_path_policy_values(&arena, pc, raw, base, &v);
    return v;
}

static rp_path_ctx posix_ctx(const rp_fs_view *fs)
{
    rp_path_ctx pc;
    rp_path_ctx_init(&pc, &arena, RP_PATH_POSIX, "/workspace/project", "/home/u", fs);
    return pc;
}

static void test_policy_values_relative_inside_cwd(void **unused)
{
    (void)unused;
    rp_path_ctx pc = posix_ctx(NULL);
    rp_path_values v = values_of(&pc, "src/App.jsx", NULL);
    CHECK_VALUES(&v, "src/App.jsx", "/workspace/project/src/App.jsx", "src/App.jsx");
    assert_string_equal(v.absolute, "/workspace/project/src/App.jsx");
    assert_string_equal(v.canonical, "/workspace/project/src/App.jsx");
    assert_string_equal(v.literal, "src/App.jsx");
    assert_false(v.star);
    assert_false(v.literal_only);

    v = values_of(&pc, "./src/a", NULL); /* the relative alias never starts with "./" */
    CHECK_VALUES(&v, "./src/a", "/workspace/project/src/a", "src/a", "./src/a");
    v = values_of(&pc, "src/../lib/x/", NULL);
    CHECK_VALUES(&v, "src/../lib/x/", "/workspace/project/lib/x", "lib/x", "src/../lib/x/");
    v = values_of(&pc, "/workspace/project/a/b", NULL); /* absolute input inside cwd */
    CHECK_VALUES(&v, "/workspace/project/a/b", "/workspace/project/a/b", "a/b");
    v = values_of(&pc, "*.env", NULL); /* a glob-looking name is just a name here */
    CHECK_VALUES(&v, "*.env", "/workspace/project/*.env", "*.env");
}

static void test_policy_values_outside_cwd_no_relative_alias(void **unused)
{
    (void)unused;
    rp_path_ctx pc = posix_ctx(NULL);
    rp_path_values v = values_of(&pc, "/etc/hosts", NULL);
    CHECK_VALUES(&v, "/etc/hosts", "/etc/hosts");
    v = values_of(&pc, "../other/x", NULL);
    CHECK_VALUES(&v, "../other/x", "/workspace/other/x", "../other/x");
    v = values_of(&pc, "/workspace/project-other/x", NULL); /* a sibling with a common prefix */
    CHECK_VALUES(&v, "/workspace/project-other/x", "/workspace/project-other/x");
    /* The cwd itself: relative() is "", so there is no cwd-relative alias. */
    v = values_of(&pc, ".", NULL);
    CHECK_VALUES(&v, ".", "/workspace/project", ".");
    v = values_of(&pc, "/workspace/project/", NULL);
    CHECK_VALUES(&v, "/workspace/project/", "/workspace/project", "/workspace/project/");
    v = values_of(&pc, "/workspace/project", NULL);
    CHECK_VALUES(&v, "/workspace/project", "/workspace/project");
}

static void test_policy_values_no_cwd_literal_only(void **unused)
{
    (void)unused;
    rp_path_ctx pc;
    rp_path_ctx_init(&pc, &arena, RP_PATH_POSIX, NULL, "/home/u", NULL);
    assert_null(pc.cwd);
    assert_null(pc.cwd_canonical);
    rp_path_values v = values_of(&pc, "src/App.jsx", NULL);
    CHECK_VALUES(&v, "src/App.jsx", "src/App.jsx");
    assert_true(v.literal_only);
    assert_null(v.absolute);
    assert_null(v.canonical);
    v = values_of(&pc, "/etc/hosts", NULL); /* even an absolute one: behaviour unchanged */
    CHECK_VALUES(&v, "/etc/hosts", "/etc/hosts");
    assert_true(v.literal_only);
    v = values_of(&pc, " '~/x' ", NULL); /* the literal is still cleaned up */
    CHECK_VALUES(&v, "~/x", "/home/u/x");
    /* An empty cwd is an unknown one. */
    rp_path_ctx_init(&pc, &arena, RP_PATH_POSIX, "", NULL, NULL);
    assert_null(pc.cwd);
    v = values_of(&pc, "a", NULL);
    assert_true(v.literal_only);
    /* With a base but no cwd: absolute, and no cwd-relative alias. */
    v = values_of(&pc, "src/f", "/ws/p/nested");
    CHECK_VALUES(&v, "src/f", "/ws/p/nested/src/f", "src/f");
    assert_false(v.literal_only);
}

static void test_policy_values_resolve_base(void **unused)
{
    (void)unused;
    rp_path_ctx pc;
    rp_path_ctx_init(&pc, &arena, RP_PATH_POSIX, "/ws/p", NULL, NULL);
    /* `cd nested && cat src/f`: resolved against the effective dir, relative to the session. */
    rp_path_values v = values_of(&pc, "src/f", "/ws/p/nested");
    CHECK_VALUES(&v, "src/f", "/ws/p/nested/src/f", "nested/src/f", "src/f");
    v = values_of(&pc, "../x", "/ws/p/nested");
    CHECK_VALUES(&v, "../x", "/ws/p/x", "x", "../x");
    v = values_of(&pc, "x", "/tmp"); /* a base outside cwd: no cwd-relative alias */
    CHECK_VALUES(&v, "x", "/tmp/x", "x");
    v = values_of(&pc, "/etc/passwd", "/tmp"); /* an absolute token ignores the base */
    CHECK_VALUES(&v, "/etc/passwd", "/etc/passwd");
    v = values_of(&pc, "..", "/ws/p/nested"); /* back to the cwd itself */
    CHECK_VALUES(&v, "..", "/ws/p", "..");
    v = values_of(&pc, "f", "nested"); /* a relative base is taken from the cwd */
    CHECK_VALUES(&v, "f", "/ws/p/nested/f", "nested/f", "f");
}

static void test_policy_values_star(void **unused)
{
    (void)unused;
    rp_path_ctx pc = posix_ctx(NULL);
    rp_path_values v = values_of(&pc, "*", NULL);
    CHECK_VALUES(&v, "*", "*");
    assert_true(v.star);
    assert_null(v.absolute);
    assert_null(v.canonical);
    v = values_of(&pc, " \"*\" ", NULL);
    CHECK_VALUES(&v, "\"*\"", "*");
    assert_true(v.star);
    v = values_of(&pc, "@*", NULL);
    assert_true(v.star);
    v = values_of(&pc, "**", NULL); /* only "*" itself is the catch-all */
    assert_false(v.star);
    CHECK_VALUES(&v, "**", "/workspace/project/**", "**");
}

static void test_policy_values_empty(void **unused)
{
    (void)unused;
    rp_path_ctx pc = posix_ctx(NULL);
    const char *empties[] = {"", "   ", "\t\n", "''", "\"\"", "'", "@", "\"@", "\xc2\xa0"};
    for (size_t i = 0; i < sizeof empties / sizeof empties[0]; i++) {
        rp_path_values v = values_of(&pc, empties[i], NULL);
        if (v.n != 0)
            fprintf(stderr, "values(%s) has %zu values\n", empties[i], v.n);
        assert_int_equal(v.n, 0);
        assert_false(v.star);
        assert_null(v.absolute);
    }
    /* Trimmed, then one quote off each end: what is left is not trimmed again. */
    rp_path_values v = values_of(&pc, " ' \"", NULL);
    assert_string_equal(v.literal, " ");
    CHECK_VALUES(&v, " ", "/workspace/project/ ", " ");
    v = values_of(&pc, " '  x  ' ", NULL);
    assert_string_equal(v.literal, "  x  ");
}

static void test_policy_values_quotes_at_tilde(void **unused)
{
    (void)unused;
    rp_path_ctx pc = posix_ctx(NULL);
    static const struct {
        const char *raw, *literal;
    } cases[] = {
        {"\"src/.env\"", "src/.env"},
        {"'src/.env'", "src/.env"},
        {"'src/.env\"", "src/.env"}, /* each end on its own */
        {"'src/.env", "src/.env"},
        {"src/.env'", "src/.env"},
        {"''x''", "'x'"}, /* ONE quote each */
        {"@src/a.ts", "src/a.ts"},
        {"@@x", "@x"}, /* ONE '@' */
        {"\"@src/a\"", "src/a"},
        {"@'x'", "'x"}, /* quotes come off before the '@': only the trailing one here */
        {"  \t./a \r\n", "./a"},
        {"\xc2\xa0x\xef\xbb\xbf", "x"},     /* U+00A0 and U+FEFF are JS whitespace */
        {"\xe2\x80\x83x\xe3\x80\x80", "x"}, /* U+2003, U+3000 */
        {"\xc3\xa9", "\xc3\xa9"},
        {"~", "/home/u"},
        {"~/.ssh/config", "/home/u/.ssh/config"},
        {"$HOME/.ssh", "/home/u/.ssh"},
        {"${HOME}/a/../b/", "/home/u/b/"},
        {"'~/x'", "/home/u/x"},
        {"@~/x", "/home/u/x"},
        {"~user/x", "~user/x"},
        {"$HOMEDIR/x", "$HOMEDIR/x"},
        {"${HOME:-/tmp}", "${HOME:-/tmp}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *got = rp_path_policy_literal(&arena, &pc, cases[i].raw);
        if (strcmp(got, cases[i].literal) != 0)
            fprintf(stderr, "literal(%s) = %s, want %s\n", cases[i].raw, got, cases[i].literal);
        assert_string_equal(got, cases[i].literal);
    }
    rp_path_values v = values_of(&pc, "\"src/.env\"", NULL);
    CHECK_VALUES(&v, "\"src/.env\"", "/workspace/project/src/.env", "src/.env");
    v = values_of(&pc, "@src/a.ts", NULL);
    CHECK_VALUES(&v, "@src/a.ts", "/workspace/project/src/a.ts", "src/a.ts");
    v = values_of(&pc, "~/.ssh/config", NULL);
    CHECK_VALUES(&v, "~/.ssh/config", "/home/u/.ssh/config");
    v = values_of(&pc, "~user/x", NULL); /* a directory literally named "~user" */
    CHECK_VALUES(&v, "~user/x", "/workspace/project/~user/x", "~user/x");
    /* Without HOME nothing expands. */
    rp_path_ctx nohome;
    rp_path_ctx_init(&nohome, &arena, RP_PATH_POSIX, "/workspace/project", NULL, NULL);
    v = values_of(&nohome, "~/.ssh/config", NULL);
    CHECK_VALUES(&v, "~/.ssh/config", "/workspace/project/~/.ssh/config", "~/.ssh/config");
}

static void test_policy_values_literal_form_only(void **unused)
{
    (void)unused;
    rp_path_ctx pc = posix_ctx(NULL);
    rp_path_values v;
    rp_path_policy_values_literal(&arena, &pc, " 'src/x' ", &v);
    CHECK_VALUES(&v, "src/x", "src/x");
    assert_true(v.literal_only);
    assert_null(v.absolute);
    assert_null(v.canonical);
    rp_path_policy_values_literal(&arena, &pc, "*", &v);
    assert_true(v.star);
    CHECK_VALUES(&v, "*", "*");
    rp_path_policy_values_literal(&arena, &pc, "  ", &v);
    assert_int_equal(v.n, 0);
}

/* A fake filesystem: /workspace/project/link → /etc, /workspace/project/secret.txt →
 * /outside/.some.secret, /workspace/project/denied is unreadable (EACCES), /workspace/project/f
 * and /etc/passwd are files (ENOTDIR below them); /alias → /workspace/project. */
static int fake_calls;

static int fake_realpath(void *self, const char *path, char *out, size_t size)
{
    (void)self;
    fake_calls++;
    static const struct {
        const char *from, *to;
    } links[] = {{"/workspace/project/link", "/etc"},
                 {"/workspace/project/secret.txt", "/outside/.some.secret"},
                 {"/alias", "/workspace/project"},
                 {"/workspace/project/a_sym", "/workspace/project/.some.secret"}};
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
        size_t n = strlen(links[i].from);
        if (strncmp(path, links[i].from, n) == 0 && (path[n] == '\0' || path[n] == '/')) {
            char redirected[512];
            snprintf(redirected, sizeof redirected, "%s%s", links[i].to, path + n);
            return fake_realpath(self, redirected, out, size);
        }
    }
    if (strncmp(path, "/workspace/project/denied", 25) == 0) {
        errno = EACCES;
        return -1;
    }
    if (strncmp(path, "/workspace/project/f/", 21) == 0 || strncmp(path, "/etc/passwd/", 12) == 0) {
        errno = ENOTDIR;
        return -1;
    }
    static const char *const existing[] = {"/",
                                           "/etc",
                                           "/etc/passwd",
                                           "/outside",
                                           "/outside/.some.secret",
                                           "/workspace",
                                           "/workspace/project",
                                           "/workspace/project/src",
                                           "/workspace/project/f",
                                           "/workspace/project/.some.secret"};
    for (size_t i = 0; i < sizeof existing / sizeof existing[0]; i++)
        if (strcmp(path, existing[i]) == 0) {
            snprintf(out, size, "%s", path);
            return 0;
        }
    errno = ENOENT;
    return -1;
}

static const rp_fs_view fake_fs = {.self = NULL, .realpath = fake_realpath};

static void test_policy_values_symlink_canonical(void **unused)
{
    (void)unused;
    rp_path_ctx pc = posix_ctx(&fake_fs);
    assert_string_equal(pc.cwd_canonical, "/workspace/project");

    rp_path_values v = values_of(&pc, "link/passwd", NULL);
    CHECK_VALUES(&v, "link/passwd", "/workspace/project/link/passwd", "link/passwd", "/etc/passwd");
    assert_string_equal(v.absolute, "/workspace/project/link/passwd"); /* value(): typed */
    assert_string_equal(v.canonical, "/etc/passwd");                   /* boundary(): real */
    assert_true(rp_path_outside(&arena, &pc, v.canonical)); /* an in-tree link pointing out */

    /* The longest existing ancestor is resolved and the rest appended. */
    v = values_of(&pc, "link/new/file", NULL);
    assert_string_equal(v.canonical, "/etc/new/file");
    v = values_of(&pc, "secret.txt", NULL);
    CHECK_VALUES(&v, "secret.txt", "/workspace/project/secret.txt", "secret.txt",
                 "/outside/.some.secret");
    /* An in-tree link to an in-tree file: its target's cwd-relative spelling is a value too, so
     * a `.some.secret` rule catches it (stricter than the reference, §6.4). */
    v = values_of(&pc, "a_sym", NULL);
    CHECK_VALUES(&v, "a_sym", "/workspace/project/a_sym", "a_sym",
                 "/workspace/project/.some.secret", ".some.secret");
    v = values_of(&pc, "src/new.c", NULL); /* nothing to resolve: no fourth value */
    CHECK_VALUES(&v, "src/new.c", "/workspace/project/src/new.c", "src/new.c");
    /* ENOTDIR walks up like ENOENT (here up to the link)... */
    v = values_of(&pc, "link/passwd/x", NULL);
    assert_string_equal(v.canonical, "/etc/passwd/x");
    v = values_of(&pc, "f/x", NULL);
    assert_string_equal(v.canonical, "/workspace/project/f/x");

    /* A cwd reached through a symlink: its canonical form is the real directory. */
    rp_path_ctx alias;
    rp_path_ctx_init(&alias, &arena, RP_PATH_POSIX, "/alias", NULL, &fake_fs);
    assert_string_equal(alias.cwd, "/alias");
    assert_string_equal(alias.cwd_canonical, "/workspace/project");
    v = values_of(&alias, "src/a", NULL);
    CHECK_VALUES(&v, "src/a", "/alias/src/a", "src/a", "/workspace/project/src/a");
    assert_false(rp_path_outside(&arena, &alias, v.canonical));
    v = values_of(&alias, "/alias/link/passwd", NULL);
    assert_string_equal(v.canonical, "/etc/passwd");
    assert_true(rp_path_outside(&arena, &alias, v.canonical));
    /* ...while another error (EACCES) keeps the lexical path: no walk up to the /alias link. */
    v = values_of(&alias, "denied/x", NULL);
    assert_string_equal(v.canonical, "/alias/denied/x");
}

static void test_policy_values_win32_fold(void **unused)
{
    (void)unused;
    rp_path_ctx pc;
    fake_calls = 0;
    rp_path_ctx_init(&pc, &arena, RP_PATH_WIN32, "C:\\projects\\app", "C:\\Users\\U", &fake_fs);
    assert_string_equal(pc.cwd, "C:\\projects\\app");
    assert_string_equal(pc.cwd_canonical, "c:\\projects\\app");

    rp_path_values v = values_of(&pc, "Src\\App.jsx", NULL);
    CHECK_VALUES(&v, "Src\\App.jsx", "c:\\projects\\app\\src\\app.jsx", "src\\app.jsx",
                 "Src\\App.jsx");
    assert_string_equal(v.canonical, "c:\\projects\\app\\src\\app.jsx");
    v = values_of(&pc, "src/a", NULL);
    CHECK_VALUES(&v, "src/a", "c:\\projects\\app\\src\\a", "src\\a", "src/a");
    v = values_of(&pc, "C:/Projects/App/x", NULL);
    CHECK_VALUES(&v, "C:/Projects/App/x", "c:\\projects\\app\\x", "x", "C:/Projects/App/x");
    assert_false(rp_path_outside(&arena, &pc, v.canonical));
    v = values_of(&pc, "D:\\secrets\\password.txt", NULL);
    CHECK_VALUES(&v, "D:\\secrets\\password.txt", "d:\\secrets\\password.txt",
                 "D:\\secrets\\password.txt");
    assert_true(rp_path_outside(&arena, &pc, v.canonical));
    v = values_of(&pc, "c:\\projects\\app-other\\x", NULL);
    assert_true(rp_path_outside(&arena, &pc, v.canonical));
    v = values_of(&pc, "~/.ssh/config", NULL);
    CHECK_VALUES(&v, "~/.ssh/config", "c:\\users\\u\\.ssh\\config", "C:\\Users\\U\\.ssh\\config");
    v = values_of(&pc, "\\\\server\\share\\x", NULL);
    assert_string_equal(v.absolute, "\\\\server\\share\\x");
    assert_true(rp_path_outside(&arena, &pc, v.canonical));
    assert_int_equal(fake_calls, 0); /* win32: the filesystem is never consulted */
}

static void test_path_outside(void **unused)
{
    (void)unused;
    rp_path_ctx pc = posix_ctx(NULL);
    assert_true(rp_path_outside(&arena, &pc, "/etc/passwd"));
    assert_true(rp_path_outside(&arena, &pc, "/workspace/project-other"));
    assert_true(rp_path_outside(&arena, &pc, "/workspace"));
    assert_true(rp_path_outside(&arena, &pc, "/dev/tty"));
    assert_true(rp_path_outside(&arena, &pc, "/dev/null/x"));
    assert_false(rp_path_outside(&arena, &pc, "/workspace/project"));
    assert_false(rp_path_outside(&arena, &pc, "/workspace/project/"));
    assert_false(rp_path_outside(&arena, &pc, "/workspace/project/a/b"));
    assert_false(rp_path_outside(&arena, &pc, ""));
    assert_false(rp_path_outside(&arena, &pc, NULL));
    const char *devices[] = {"/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr"};
    for (size_t i = 0; i < 4; i++) {
        assert_true(rp_path_is_safe_device(devices[i]));
        assert_false(rp_path_outside(&arena, &pc, devices[i]));
    }
    assert_false(rp_path_is_safe_device("/dev/tty"));
    assert_false(rp_path_is_safe_device("/dev/nullx"));
    rp_path_ctx none;
    rp_path_ctx_init(&none, &arena, RP_PATH_POSIX, NULL, NULL, NULL);
    assert_false(rp_path_outside(&arena, &none, "/etc/passwd")); /* no cwd: nothing outside */
}

static void test_policy_values_are_unique_and_bounded(void **unused)
{
    (void)unused;
    rp_path_ctx pc = posix_ctx(&fake_fs);
    const char *raws[] = {"a",         "./a",         "/workspace/project/link",
                          "link/../x", "/",           ".",
                          "..",        "//",          "a//b/",
                          "link",      "/etc/passwd", "~",
                          "$HOME",     "x y"};
    for (size_t i = 0; i < sizeof raws / sizeof raws[0]; i++) {
        rp_path_values v = values_of(&pc, raws[i], NULL);
        assert_true(v.n >= 1 && v.n <= RP_PATH_MAX_VALUES);
        assert_string_equal(v.values[0], v.absolute);
        assert_true(v.absolute[0] == '/');
        for (size_t j = 0; j < v.n; j++)
            for (size_t k = j + 1; k < v.n; k++)
                assert_string_not_equal(v.values[j], v.values[k]);
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
        cmocka_unit_test_teardown(test_policy_values_relative_inside_cwd, teardown),
        cmocka_unit_test_teardown(test_policy_values_outside_cwd_no_relative_alias, teardown),
        cmocka_unit_test_teardown(test_policy_values_no_cwd_literal_only, teardown),
        cmocka_unit_test_teardown(test_policy_values_resolve_base, teardown),
        cmocka_unit_test_teardown(test_policy_values_star, teardown),
        cmocka_unit_test_teardown(test_policy_values_empty, teardown),
        cmocka_unit_test_teardown(test_policy_values_quotes_at_tilde, teardown),
        cmocka_unit_test_teardown(test_policy_values_literal_form_only, teardown),
        cmocka_unit_test_teardown(test_policy_values_symlink_canonical, teardown),
        cmocka_unit_test_teardown(test_policy_values_win32_fold, teardown),
        cmocka_unit_test_teardown(test_path_outside, teardown),
        cmocka_unit_test_teardown(test_policy_values_are_unique_and_bounded, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
