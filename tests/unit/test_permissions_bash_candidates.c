/* test_permissions_bash_candidates.c — the path tokens of a bash command (reference permissions.md
 * §4.7–4.10; plan 0393 TDD step 6, "Bash program: pathRuleCandidates"): which words are paths,
 * the directory each is relative to after the cd fold, the rule candidates and the external
 * paths, against a fake filesystem. cwd /workspace/project, HOME /home/user, as the vectors. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "permissions/perm.h"

static rp_arena arena;
static rp_path_ctx pc;
static rp_perm_bash b;

/* ---- a fake filesystem: files, directories and symlinks (parents are implicit dirs) ---- */

typedef struct fake_entry {
    const char *path;
    char type; /* 'f', 'd', 'l' */
    const char *target;
} fake_entry;

static const fake_entry *entries;
static size_t n_entries;
static int lstat_calls, realpath_calls;

static const fake_entry *find_entry(const char *p)
{
    for (size_t i = 0; i < n_entries; i++)
        if (strcmp(entries[i].path, p) == 0)
            return &entries[i];
    return NULL;
}

static bool implicit_dir(const char *p)
{
    size_t n = strlen(p);
    if (n == 1 && p[0] == '/')
        return true;
    for (size_t i = 0; i < n_entries; i++)
        if (strncmp(entries[i].path, p, n) == 0 && entries[i].path[n] == '/')
            return true;
    return false;
}

static int fake_lstat(void *self, const char *path, struct stat *st)
{
    (void)self;
    lstat_calls++;
    memset(st, 0, sizeof *st);
    const fake_entry *e = find_entry(path);
    if (e) {
        st->st_mode = e->type == 'd' ? S_IFDIR : e->type == 'l' ? S_IFLNK : S_IFREG;
        return 0;
    }
    if (implicit_dir(path)) {
        st->st_mode = S_IFDIR;
        return 0;
    }
    errno = ENOENT;
    return -1;
}

static int fake_realpath(void *self, const char *path, char *out, size_t size)
{
    (void)self;
    realpath_calls++;
    char cur[4096] = "";
    char rest[4096];
    snprintf(rest, sizeof rest, "%s", path);
    for (int hops = 0; hops < 40;) {
        char *p = rest;
        while (*p == '/')
            p++;
        if (*p == '\0')
            break;
        char *slash = strchr(p, '/');
        size_t len = slash ? (size_t)(slash - p) : strlen(p);
        char next[4096];
        if (snprintf(next, sizeof next, "%s/%.*s", cur, (int)len, p) >= (int)sizeof next) {
            errno = ENAMETOOLONG;
            return -1;
        }
        memmove(rest, p + len, strlen(p + len) + 1);
        const fake_entry *e = find_entry(next);
        if (e && e->type == 'l') {
            char tail[4096];
            snprintf(tail, sizeof tail, "%s%s", e->target, rest);
            snprintf(rest, sizeof rest, "%s", tail);
            cur[0] = '\0';
            hops++;
            continue;
        }
        if (!e && !implicit_dir(next)) {
            errno = ENOENT;
            return -1;
        }
        snprintf(cur, sizeof cur, "%s", next);
    }
    snprintf(out, size, "%s", cur[0] ? cur : "/");
    return 0;
}

static const rp_fs_view fake_fs = {.self = NULL, .realpath = fake_realpath, .lstat = fake_lstat};

static void use_fs(const fake_entry *e, size_t n)
{
    entries = e;
    n_entries = n;
}

/* ---- helpers ---- */

static void setup_ctx(rp_path_flavor f, const rp_fs_view *fs)
{
    rp_arena_reset(&arena);
    if (f == RP_PATH_WIN32)
        rp_path_ctx_init(&pc, &arena, f, "C:\\projects\\app", "C:\\Users\\user", fs);
    else
        rp_path_ctx_init(&pc, &arena, f, "/workspace/project", "/home/user", fs);
}

static void analyse_in(const char *command, const char *workdir)
{
    assert_int_equal(rp_perm_bash_analyse(&arena, &pc, command, workdir, &b), 0);
}

static void analyse(const char *command)
{
    analyse_in(command, NULL);
}

static void dump(void)
{
    for (size_t i = 0; i < b.n_candidates; i++)
        fprintf(stderr, "  candidate %s kind %#x ext %d value0 %s\n", b.candidates[i].raw,
                b.candidates[i].kind, b.candidates[i].external, b.candidates[i].values.values[0]);
    for (size_t i = 0; i < b.n_externals; i++)
        fprintf(stderr, "  external %s kind %#x value0 %s\n", b.externals[i].raw,
                b.externals[i].kind, b.externals[i].values.values[0]);
}

static bool has_value(const rp_perm_path_token *t, const char *v)
{
    for (size_t i = 0; i < t->values.n; i++)
        if (strcmp(t->values.values[i], v) == 0)
            return true;
    return false;
}

/* The candidate whose first value is v (NULL if none). */
static const rp_perm_path_token *candidate(const char *v)
{
    for (size_t i = 0; i < b.n_candidates; i++)
        if (strcmp(b.candidates[i].values.values[0], v) == 0)
            return &b.candidates[i];
    return NULL;
}

static const rp_perm_path_token *must_candidate(const char *v)
{
    const rp_perm_path_token *t = candidate(v);
    if (t == NULL) {
        dump();
        fail_msg("no candidate %s", v);
    }
    return t;
}

/* The external having value v among its values. */
static const rp_perm_path_token *external(const char *v)
{
    for (size_t i = 0; i < b.n_externals; i++)
        if (has_value(&b.externals[i], v))
            return &b.externals[i];
    return NULL;
}

static const rp_perm_path_token *must_external(const char *v)
{
    const rp_perm_path_token *t = external(v);
    if (t == NULL) {
        dump();
        fail_msg("no external %s", v);
    }
    return t;
}

static void expect_no_external(void)
{
    if (b.n_externals != 0) {
        dump();
        fail_msg("expected no external path");
    }
}

static void expect_values(const rp_perm_path_token *t, ...)
{
    va_list ap;
    va_start(ap, t);
    size_t i = 0;
    for (const char *v; (v = va_arg(ap, const char *)) != NULL; i++) {
        if (i >= t->values.n)
            fail_msg("value %zu missing, want %s", i, v);
        assert_string_equal(t->values.values[i], v);
    }
    va_end(ap);
    assert_int_equal(t->values.n, i);
}

/* ---- §4.10 values and the cd fold ---- */

static void test_bash_candidates_relative_gives_absolute_and_relative(void **state)
{
    (void)state;
    setup_ctx(RP_PATH_POSIX, NULL);
    analyse("cat src/App.jsx ./src/a");
    const rp_perm_path_token *t = must_candidate("/workspace/project/src/App.jsx");
    expect_values(t, "/workspace/project/src/App.jsx", "src/App.jsx", NULL);
    assert_string_equal(t->raw, "src/App.jsx");
    assert_true(t->kind & RP_PERM_TOK_BROAD);
    assert_false(t->external);
    expect_values(must_candidate("/workspace/project/src/a"), "/workspace/project/src/a", "src/a",
                  "./src/a", NULL);
    expect_no_external();
    /* an absolute token outside has no project-relative alias, and is external */
    analyse("cat /etc/hosts");
    expect_values(must_candidate("/etc/hosts"), "/etc/hosts", NULL);
    assert_true(must_candidate("/etc/hosts")->external);
    assert_true(must_external("/etc/hosts")->kind & RP_PERM_TOK_STRICT);
}

static void test_bash_candidates_literal_cd_folds(void **state)
{
    (void)state;
    setup_ctx(RP_PATH_POSIX, NULL);
    analyse("cd nested && cat src/f");
    expect_values(must_candidate("/workspace/project/nested/src/f"),
                  "/workspace/project/nested/src/f", "nested/src/f", "src/f", NULL);
    assert_string_equal(must_candidate("/workspace/project/nested/src/f")->raw, "src/f");
    analyse("cd /workspace/project/pkg && cat ./a.txt");
    expect_values(must_candidate("/workspace/project/pkg/a.txt"), "/workspace/project/pkg/a.txt",
                  "pkg/a.txt", "./a.txt", NULL);
    /* a later cd folds too, and `..` is resolved against the folded base */
    analyse("echo hello && cd /workspace/project/src && cat ../../outside.txt");
    must_external("/workspace/outside.txt");
    analyse("cd nested/deep && cd .. && cat ../../etc/passwd");
    must_external("/workspace/etc/passwd");
    analyse("cd a && cat ../b");
    expect_no_external();
    /* the cd target is a token itself, relative to the base before the cd */
    analyse("cd /etc && ls");
    const rp_perm_path_token *t = must_external("/etc");
    assert_true(t->kind & RP_PERM_TOK_CD_TARGET);
    assert_true(t->kind & RP_PERM_TOK_DIRECTORY);
}

static void test_bash_candidates_unknown_cd_literal_only(void **state)
{
    (void)state;
    setup_ctx(RP_PATH_POSIX, NULL);
    analyse("cd \"$DIR\" && cat src/file.txt");
    const rp_perm_path_token *t = must_candidate("src/file.txt");
    expect_values(t, "src/file.txt", NULL);
    assert_true(t->values.literal_only);
    assert_true(t->kind & RP_PERM_TOK_UNKNOWN_BASE);
    assert_false(t->external);
    assert_null(external("src/file.txt"));
    /* a strict relative token is external, whatever it resolves to */
    analyse("cd \"$DIR\" && cat ../x");
    assert_true(must_external("../x")->kind & RP_PERM_TOK_UNKNOWN_BASE);
    assert_true(must_candidate("../x")->external);
    analyse("cd \"$DIR\" && cat src/../within.txt");
    must_external("src/../within.txt");
    /* absolute tokens do not depend on the base */
    analyse("cd \"$DIR\" && cat /workspace/project/x.txt");
    assert_null(external("/workspace/project/x.txt"));
    expect_values(must_candidate("/workspace/project/x.txt"), "/workspace/project/x.txt", "x.txt",
                  NULL);
    /* an absolute cd recovers a known base */
    analyse("cd \"$DIR\" && cd /workspace/project/src && cat ../x");
    assert_null(external("../x"));
    must_candidate("/workspace/project/x");
    /* `cd -`, a substitution, ~user: unknown */
    analyse("cd - && cat ../x");
    must_external("../x");
    analyse("cd $(pwd) && cat ../x");
    must_external("../x");
    analyse("cd ~root && cat ../x");
    must_external("../x");
}

static void test_bash_candidates_unknown_base_keeps_bare_words(void **state)
{
    (void)state;
    static const fake_entry fs[] = {{"/workspace/project/id_rsa", 'f', NULL}};
    use_fs(fs, 1);
    setup_ctx(RP_PATH_POSIX, &fake_fs);
    /* the reference drops these (#393); rampart keeps them literal-only, so that a rule
     * {id_rsa: deny} still sees `cd "$DIR" && cat id_rsa` */
    analyse("cd \"$DIR\" && cat id_rsa");
    const rp_perm_path_token *t = must_candidate("id_rsa");
    assert_true(t->kind & RP_PERM_TOK_UNKNOWN_BASE);
    assert_true(t->kind & RP_PERM_TOK_BARE);
    assert_true(t->values.literal_only);
}

static void test_bash_candidates_environments(void **state)
{
    (void)state;
    setup_ctx(RP_PATH_POSIX, NULL);
    /* a subshell's cd does not leak */
    analyse("( cd sub ) && cat ../y");
    must_external("/workspace/y");
    analyse("( cd sub && cat ../x )");
    expect_no_external();
    /* a brace group is the current shell */
    analyse("{ cd sub; cat ../x; }");
    expect_no_external();
    analyse("{ cd sub; } && cat ../x");
    expect_no_external();
    /* every pipeline stage is a subshell */
    analyse("cd nested | cat ../b");
    must_external("/workspace/b");
    /* redirect-then-pipe (#454): the cd before && is in the current shell */
    analyse("cd a && pnpm x 2>&1 | tail ; cat ../b");
    expect_no_external();
    analyse("cd a && cd b 2>&1 | tail ; cat ../../x");
    must_external("/workspace/x");
    analyse("cd a && pnpm x 2>&1 | cat ../foo");
    expect_no_external();
    /* a background job does not pass its directory on */
    analyse("cd sub & cat ../x");
    must_external("/workspace/x");
    /* a substitution: the reference never folds there, bash does; both are projected */
    analyse("echo $(cd q && cat ../r)");
    must_external("/workspace/r");
    must_candidate("/workspace/project/r");
    analyse("echo $(cd /etc && cat passwd/x)");
    must_candidate("/etc/passwd/x");
    /* a string a new shell runs: folded as bash does */
    analyse("bash -c 'cd /etc && cat x/y'");
    must_external("/etc/x/y");
}

static void test_bash_candidates_control_flow_cd_leaves_unknown(void **state)
{
    (void)state;
    setup_ctx(RP_PATH_POSIX, NULL);
    /* it may or may not have run: the real base is unknown, the reference's is unchanged */
    analyse("if [ -d sub ]; then cd sub; fi; cat ../y");
    must_external("/workspace/y");
    const rp_perm_path_token *t = must_external("../y");
    (void)t;
    bool unknown = false;
    for (size_t i = 0; i < b.n_candidates; i++)
        unknown = unknown || (b.candidates[i].kind & RP_PERM_TOK_UNKNOWN_BASE);
    assert_true(unknown);
    analyse("f() { cd /etc; }; f; cat x/y");
    must_candidate("x/y");
    assert_true(must_candidate("x/y")->kind & RP_PERM_TOK_UNKNOWN_BASE);
    must_candidate("/workspace/project/x/y");
    analyse("for d in a b; do cd $d; done; cat src/z");
    assert_true(must_candidate("src/z")->kind & RP_PERM_TOK_UNKNOWN_BASE);
}

static void test_bash_candidates_cd_forms(void **state)
{
    (void)state;
    static const fake_entry fs[] = {{"/home/user/.ssh/id_rsa", 'f', NULL}};
    use_fs(fs, 1);
    setup_ctx(RP_PATH_POSIX, &fake_fs);
    /* rampart: ~ is HOME (the reference makes the base unknown, §4.13) */
    analyse("cd ~/.ssh && cat id_rsa");
    const rp_perm_path_token *t = must_candidate("/home/user/.ssh/id_rsa");
    assert_true(t->external);
    assert_true(t->kind & RP_PERM_TOK_BARE);
    must_external("/home/user/.ssh");
    analyse("cd && cat .ssh/id_rsa");
    must_candidate("/home/user/.ssh/id_rsa");
    analyse("cd \"$HOME\" && cat .ssh/id_rsa");
    must_candidate("/home/user/.ssh/id_rsa");
    must_external("/home/user");
    /* bash's options: -P and -L are not a directory (the reference folds into "-P/x") */
    analyse("cd -P /etc && cat x/y");
    must_external("/etc/x/y");
    analyse("cd -- /etc && cat x/y");
    must_external("/etc/x/y");
    /* command cd and builtin cd change the shell; sudo cd does not */
    analyse("command cd /etc && cat x/y");
    must_external("/etc/x/y");
    analyse("sudo cd /etc; cat x/y");
    assert_null(external("/etc/x/y"));
    /* pushd changes it like cd, popd to somewhere unknown */
    analyse("pushd /etc && cat x/y");
    must_external("/etc/x/y");
    analyse("popd && cat ../x");
    must_external("../x");
    /* $PWD is the effective directory */
    analyse("ls \"$PWD/src\"");
    expect_no_external();
    must_candidate("/workspace/project/src");
    analyse("cd /etc && ls \"$PWD/passwd\"");
    must_external("/etc/passwd");
    analyse("cd \"$D\" && ls \"$PWD/x\"");
    assert_true(must_candidate("$PWD/x")->kind & RP_PERM_TOK_INDIRECT);
}

/* ---- §4.7 collection ---- */

static void test_bash_candidates_pattern_first(void **state)
{
    (void)state;
    setup_ctx(RP_PATH_POSIX, NULL);
    analyse("grep '/etc/' src/x.ts");
    expect_no_external();
    must_candidate("/workspace/project/src/x.ts");
    analyse("sed 's/foo/bar/g' /etc/hosts");
    must_external("/etc/hosts");
    analyse("awk -F: '{print $1}' /etc/passwd");
    must_external("/etc/passwd");
    assert_int_equal(b.n_externals, 1);
    analyse("sd '/usr/local/bin' '/opt/bin' src/index.ts");
    expect_no_external();
    analyse("grep -v \"//.*foo\" file.txt");
    expect_no_external();
    analyse("grep -e foo .env");
    must_candidate("/workspace/project/.env");
    analyse("grep -e /etc/x -f /tmp/patterns target");
    must_external("/tmp/patterns");
    assert_null(external("/etc/x"));
    analyse("grep --file=/tmp/pi-permission-patterns target");
    must_external("/tmp/pi-permission-patterns");
    analyse("/usr/bin/sed -n '1p' /etc/passwd");
    must_external("/etc/passwd");
    /* stricter: GNU sed -i takes no argument (the reference skips /etc/hosts as the script) */
    analyse("sed -i 's/a/b/' /etc/hosts");
    must_external("/etc/hosts");
    analyse("sed -i.bak -e 's/a/b/' /etc/hosts");
    must_external("/etc/hosts");
    analyse("sed --in-place 's/a/b/' /etc/hosts");
    must_external("/etc/hosts");
    /* a quoted flag is still a flag */
    analyse("grep '-e' /etc/x src/y");
    assert_null(external("/etc/x"));
    /* glued short values */
    analyse("grep -f/tmp/pat x");
    must_external("/tmp/pat");
    analyse("rg -g '*.ts' /etc/pat src");
    assert_null(external("/etc/pat")); /* the pattern */
    analyse("rg --files /etc");
    must_external("/etc");
    analyse("awk -f prog.awk /etc/passwd");
    must_external("/etc/passwd");
}

static void test_bash_candidates_option_values_and_rejects(void **state)
{
    (void)state;
    setup_ctx(RP_PATH_POSIX, NULL);
    analyse("cat --file=.env");
    must_candidate("/workspace/project/.env");
    analyse("ls --format=json -la --color=auto");
    assert_int_equal(b.n_candidates, 0);
    analyse("curl https://example.com/etc/hosts");
    assert_int_equal(b.n_candidates, 0);
    analyse("npm install @types/node");
    assert_int_equal(b.n_candidates, 0);
    analyse("FOO=/usr/local/bin command");
    assert_int_equal(b.n_candidates, 0);
    analyse("make CC=/usr/bin/gcc");
    assert_int_equal(b.n_candidates, 0);
    /* glued option values that look like paths (the reference's residual, §4.13) */
    analyse("gcc -I/usr/include -o./out x.c");
    must_external("/usr/include");
    must_candidate("/workspace/project/out");
    /* dd's operands */
    analyse("dd if=/dev/sda of=/tmp/disk.img");
    must_external("/dev/sda");
    must_external("/tmp/disk.img");
    /* the filesystem root (#583) */
    analyse("find /");
    must_external("/");
}

static void test_bash_candidates_redirects_and_heredocs(void **state)
{
    (void)state;
    setup_ctx(RP_PATH_POSIX, NULL);
    analyse("echo test > .env");
    assert_true(must_candidate("/workspace/project/.env")->kind & RP_PERM_TOK_REDIRECT);
    analyse("echo hello > /tmp/out.txt");
    must_external("/tmp/out.txt");
    analyse("command 2>/dev/null");
    expect_no_external();
    must_candidate("/dev/null");
    analyse("cat /dev/null/subdir");
    must_external("/dev/null/subdir");
    analyse("x 2>&1 >&- 3<&0 | y");
    assert_int_equal(b.n_candidates, 0);
    analyse("cat << EOF\n/etc/hosts\nEOF");
    assert_int_equal(b.n_candidates, 0);
    analyse("cat <<'EOF'\n.env\nEOF");
    assert_int_equal(b.n_candidates, 0);
    analyse("cat <<< /etc/hosts");
    assert_int_equal(b.n_candidates, 0);
    /* the operands of commands inside redirect targets and here-doc bodies */
    analyse("echo hi > $(cat /etc/shadow)");
    must_external("/etc/shadow");
    analyse("cat <<EOF\n$(cat /etc/shadow)\nEOF");
    must_external("/etc/shadow");
    analyse("echo hi > $HOME/out.txt");
    must_external("/home/user/out.txt");
}

static void test_bash_candidates_home_and_variables(void **state)
{
    (void)state;
    setup_ctx(RP_PATH_POSIX, NULL);
    analyse("cat ~/.ssh/config $HOME/.ssh/a ${HOME}/.ssh/b \"$HOME\"/c");
    must_external("/home/user/.ssh/config");
    must_external("/home/user/.ssh/a");
    must_external("/home/user/.ssh/b");
    must_external("/home/user/c");
    assert_string_equal(must_candidate("/home/user/.ssh/a")->raw, "/home/user/.ssh/a");
    analyse("touch \"$HOME/newfile\"");
    must_external("/home/user/newfile");
    analyse("ls \"${HOME}\"");
    must_external("/home/user");
    /* an operator expansion is not known: the token is indirect */
    analyse("ls \"${HOME:-/tmp}/x\"");
    const rp_perm_path_token *t = must_candidate("${\xe2\x80\xa6}/x");
    assert_true(t->kind & RP_PERM_TOK_INDIRECT);
    assert_string_equal(t->raw, "${HOME:-/tmp}/x");
    analyse("cat \"$DIR/notes.txt\" $(echo x)");
    assert_true(must_candidate("$DIR/notes.txt")->kind & RP_PERM_TOK_INDIRECT);
    assert_true(must_candidate("$(echo x)")->kind & RP_PERM_TOK_INDIRECT);
    /* a literal '$' is no expansion */
    analyse("cat '$DIR/x'");
    assert_false(must_candidate("/workspace/project/$DIR/x")->kind & RP_PERM_TOK_INDIRECT);
    /* a known prefix is resolved: /etc/$X lies outside */
    analyse("cat /etc/$X");
    assert_true(must_external("/etc/$X")->kind & RP_PERM_TOK_INDIRECT);
    /* builtins that only print or test: an unknown argument is nothing */
    analyse("echo \"$X\" && test -f \"$Y\" && printf '%s' \"$Z\"");
    assert_int_equal(b.n_candidates, 0);
    /* special parameters are numbers */
    analyse("exit $?; kill $!; cat /tmp/out.$$");
    assert_int_equal(b.n_candidates, 1);
    must_external("/tmp/out.0");
    /* a process substitution is no path (its commands are) */
    analyse("diff <(ls a) <(cat /etc/x)");
    assert_int_equal(b.n_candidates, 1);
    must_external("/etc/x");
    /* a tracked assignment: the indirect token and what it most likely holds */
    analyse("D=\"$HOME/.ssh\"; cat \"$D/id_rsa\"");
    assert_true(must_candidate("$D/id_rsa")->kind & RP_PERM_TOK_INDIRECT);
    must_external("/home/user/.ssh/id_rsa");
    analyse("CURRENT=\"$HOME\"; ls \"$CURRENT\"");
    must_external("/home/user");
    analyse("export P=/etc; cat $P/passwd");
    must_external("/etc/passwd");
    analyse("P=/etc/passwd; echo $P");
    assert_int_equal(b.n_candidates, 0);
    analyse("P=/etc/passwd; echo x > $P");
    must_external("/etc/passwd");
}

static void test_bash_candidates_globs_and_braces(void **state)
{
    (void)state;
    setup_ctx(RP_PATH_POSIX, NULL);
    /* a bracket glob that names one file is that file (#821) */
    analyse("cat /etc/[p]asswd [.]env");
    must_external("/etc/passwd");
    assert_false(must_candidate("/etc/passwd")->kind & RP_PERM_TOK_GLOB);
    must_candidate("/workspace/project/.env");
    /* other globs are candidates as written, marked (#822) */
    analyse("cat *.env .en? /etc/pa*");
    const rp_perm_path_token *t = must_candidate("/workspace/project/*.env");
    assert_true(t->kind & RP_PERM_TOK_GLOB);
    assert_true(must_candidate("/workspace/project/.en?")->kind & RP_PERM_TOK_GLOB);
    assert_true(must_external("/etc/pa*")->kind & RP_PERM_TOK_GLOB);
    analyse("cat .*");
    assert_true(must_candidate("/workspace/project/.*")->kind & RP_PERM_TOK_GLOB);
    /* quoted: a literal name */
    analyse("cat '.en?'");
    assert_false(must_candidate("/workspace/project/.en?")->kind & RP_PERM_TOK_GLOB);
    /* brace expansion names each word */
    analyse("cat ~/.ssh/{id_rsa,config} src/{a..c}.ts");
    must_external("/home/user/.ssh/id_rsa");
    must_external("/home/user/.ssh/config");
    must_candidate("/workspace/project/src/a.ts");
    must_candidate("/workspace/project/src/b.ts");
    must_candidate("/workspace/project/src/c.ts");
    /* too many: the word stays, unknown */
    analyse("cat /etc/{a..z}{a..z}");
    assert_true(b.n_externals >= 1);
    assert_true(b.externals[0].kind & RP_PERM_TOK_INDIRECT);
}

/* ---- existence, symlinks and the outside test ---- */

static void test_bash_candidates_bare_words_exist(void **state)
{
    (void)state;
    static const fake_entry fs[] = {
        {"/workspace/project/id_rsa", 'f', NULL},
        {"/workspace/project/.some.secret", 'f', NULL},
        {"/workspace/project/a_sym", 'l', "/workspace/project/.some.secret"},
        {"/workspace/project/dangling", 'l', "/workspace/project/nothing"},
        {"/workspace/project/out_sym", 'l', "/etc/hosts"},
        {"/workspace/project/src", 'd', NULL},
        {"/etc/hosts", 'f', NULL},
    };
    use_fs(fs, sizeof fs / sizeof fs[0]);
    setup_ctx(RP_PATH_POSIX, &fake_fs);
    analyse("cat id_rsa status main");
    assert_int_equal(b.n_candidates, 1);
    expect_values(must_candidate("/workspace/project/id_rsa"), "/workspace/project/id_rsa",
                  "id_rsa", NULL);
    /* a bare symlink: the canonical target is an alias */
    analyse("cat a_sym");
    assert_true(
        has_value(must_candidate("/workspace/project/a_sym"), "/workspace/project/.some.secret"));
    /* a dangling symlink counts */
    analyse("cat dangling");
    must_candidate("/workspace/project/dangling");
    /* a directory */
    analyse("ls src");
    assert_true(must_candidate("/workspace/project/src")->kind & RP_PERM_TOK_DIRECTORY);
    /* an in-tree symlink that points outside is external */
    analyse("cat out_sym");
    assert_true(must_candidate("/workspace/project/out_sym")->external);
    must_external("/etc/hosts");
    /* without a filesystem, bare words are dropped */
    setup_ctx(RP_PATH_POSIX, NULL);
    analyse("cat id_rsa");
    assert_int_equal(b.n_candidates, 0);
    /* a program that creates its operands: candidates even when they do not exist */
    analyse("touch newfile && mkdir -p build && rm -f old");
    must_candidate("/workspace/project/newfile");
    must_candidate("/workspace/project/build");
    must_candidate("/workspace/project/old");
}

static void test_bash_candidates_symlinked_directory(void **state)
{
    (void)state;
    static const fake_entry fs[] = {
        {"/tmp/pps-vec/outside/hosts", 'f', NULL},
        {"/tmp/pps-vec/proj/link", 'l', "/tmp/pps-vec/outside"},
    };
    use_fs(fs, 2);
    rp_arena_reset(&arena);
    rp_path_ctx_init(&pc, &arena, RP_PATH_POSIX, "/tmp/pps-vec/proj", "/home/user", &fake_fs);
    analyse("cat /tmp/pps-vec/proj/link/hosts");
    must_external("/tmp/pps-vec/outside/hosts");
    analyse("cat link/hosts");
    must_external("/tmp/pps-vec/outside/hosts");
}

static void test_bash_candidates_dedupe(void **state)
{
    (void)state;
    setup_ctx(RP_PATH_POSIX, NULL);
    analyse("cat /etc/hosts /etc/hosts && sudo cat /etc/hosts; cat src/a src/a");
    assert_int_equal(b.n_externals, 1);
    assert_int_equal(b.n_candidates, 2);
    /* many tokens: no quadratic surprises */
    char cmd[20000];
    size_t n = 0;
    n += (size_t)snprintf(cmd + n, sizeof cmd - n, "cat");
    for (int i = 0; i < 1000; i++)
        n += (size_t)snprintf(cmd + n, sizeof cmd - n, " src/f%d /etc/f%d", i % 500, i % 250);
    analyse(cmd);
    assert_int_equal(b.n_candidates, 750);
    assert_int_equal(b.n_externals, 250);
}

static void test_bash_candidates_workdir(void **state)
{
    (void)state;
    setup_ctx(RP_PATH_POSIX, NULL);
    analyse_in("cat src/f ../x", "nested");
    must_candidate("/workspace/project/nested/src/f");
    expect_no_external();
    analyse_in("cat x/y", "/tmp");
    const rp_perm_path_token *t = must_external("/tmp");
    assert_true(t->kind & RP_PERM_TOK_WORKDIR);
    must_external("/tmp/x/y");
    analyse_in("ls", "/workspace/project/sub");
    expect_no_external();
    analyse_in("cat x/y", "$SOMEWHERE");
    assert_true(must_candidate("x/y")->kind & RP_PERM_TOK_UNKNOWN_BASE);
    /* an empty command still flags an outside workdir */
    analyse_in("", "/etc");
    must_external("/etc");
}

static void test_bash_candidates_wrappers_and_strings(void **state)
{
    (void)state;
    setup_ctx(RP_PATH_POSIX, NULL);
    analyse("sudo cat /etc/shadow");
    must_external("/etc/shadow");
    analyse("xargs -a /tmp/list rm");
    must_external("/tmp/list");
    analyse("find . -name '*.ts' -exec cat {} /etc/x \\;");
    must_external("/etc/x");
    analyse("bash -c 'cat /etc/passwd'");
    must_external("/etc/passwd");
    /* a wrapper that changes directory first */
    analyse("env -C /etc cat x/y");
    must_external("/etc/x/y");
    analyse("sudo --chdir=/etc cat x/y");
    must_external("/etc/x/y");
    analyse("ssh host 'cat ../x'");
    must_external("../x"); /* another host's cwd: unknown */
}

static void test_bash_candidates_win32(void **state)
{
    (void)state;
    setup_ctx(RP_PATH_WIN32, NULL);
    /* Git Bash: /c/x is C:\x */
    analyse("cat /c/projects/app/inside.txt");
    expect_no_external();
    assert_true(has_value(must_candidate("c:\\projects\\app\\inside.txt"), "inside.txt"));
    /* any other POSIX absolute path is matched as typed and is external */
    analyse("ls /tmp");
    expect_values(must_external("/tmp"), "/tmp", NULL);
    /* devices are candidates, not external */
    analyse("echo hi > /dev/null");
    expect_no_external();
    must_candidate("/dev/null");
    analyse("cat D:/secrets/password.txt");
    must_external("d:\\secrets\\password.txt");
    analyse("cd \"$D\" && cat C:/projects/app/inside.txt");
    expect_no_external();
    analyse("cd sub && cat ../x");
    expect_no_external();
    /* a backslash-relative token is path-shaped */
    analyse("cat dir\\file");
    must_candidate("c:\\projects\\app\\dir\\file");
    /* cd to a non-mount POSIX path: unknown */
    analyse("cd /tmp && cat x/y");
    assert_true(must_candidate("x/y")->kind & RP_PERM_TOK_UNKNOWN_BASE);
    analyse("cd /c/Users && cat x/y");
    must_external("c:\\users\\x\\y");
}

static void test_bash_candidates_filesystem_use(void **state)
{
    (void)state;
    static const fake_entry fs[] = {{"/workspace/project/README", 'f', NULL}};
    use_fs(fs, 1);
    setup_ctx(RP_PATH_POSIX, &fake_fs);
    lstat_calls = realpath_calls = 0;
    analyse("cd src && cat App.jsx && git status");
    /* src does not exist: then nothing inside it does, and only src is looked up */
    assert_int_equal(lstat_calls, 1);
    assert_int_equal(realpath_calls, 0);
    assert_int_equal(b.n_candidates, 0);
    /* one lstat per bare word otherwise */
    lstat_calls = 0;
    analyse("cat App.jsx README && git status");
    assert_int_equal(lstat_calls, 3);
    must_candidate("/workspace/project/README");
    /* no filesystem, no lookups (and no crash) */
    setup_ctx(RP_PATH_POSIX, NULL);
    lstat_calls = realpath_calls = 0;
    analyse("cd src && cat App.jsx src/x /etc/y && git status");
    assert_int_equal(lstat_calls + realpath_calls, 0);
}

static int teardown(void **state)
{
    (void)state;
    rp_arena_free(&arena);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bash_candidates_relative_gives_absolute_and_relative),
        cmocka_unit_test(test_bash_candidates_literal_cd_folds),
        cmocka_unit_test(test_bash_candidates_unknown_cd_literal_only),
        cmocka_unit_test(test_bash_candidates_unknown_base_keeps_bare_words),
        cmocka_unit_test(test_bash_candidates_environments),
        cmocka_unit_test(test_bash_candidates_control_flow_cd_leaves_unknown),
        cmocka_unit_test(test_bash_candidates_cd_forms),
        cmocka_unit_test(test_bash_candidates_pattern_first),
        cmocka_unit_test(test_bash_candidates_option_values_and_rejects),
        cmocka_unit_test(test_bash_candidates_redirects_and_heredocs),
        cmocka_unit_test(test_bash_candidates_home_and_variables),
        cmocka_unit_test(test_bash_candidates_globs_and_braces),
        cmocka_unit_test(test_bash_candidates_bare_words_exist),
        cmocka_unit_test(test_bash_candidates_symlinked_directory),
        cmocka_unit_test(test_bash_candidates_dedupe),
        cmocka_unit_test(test_bash_candidates_workdir),
        cmocka_unit_test(test_bash_candidates_wrappers_and_strings),
        cmocka_unit_test(test_bash_candidates_win32),
        cmocka_unit_test(test_bash_candidates_filesystem_use),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
