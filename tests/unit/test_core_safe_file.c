/* test_core_safe_file.c — core/safe_file (issue 16, point 1): the atomic write never writes
 * through what is already at the target, temporary or backup name, leaves no temporary file on
 * any path, keeps the target whole when a write fails; the backup check and the no-follow read
 * refuse what rampart did not write; resolve keeps a project's writes inside the project. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/safe_file.h"

static char dir[1024];

/* A path in this test's directory (one static buffer per slot). */
static const char *at(int slot, const char *name)
{
    static char paths[4][2048];
    snprintf(paths[slot], sizeof paths[slot], "%s/%s", dir, name);
    return paths[slot];
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void assert_content(const char *path, const char *want)
{
    char got[256] = {0};
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(got, 1, sizeof got - 1, f);
    fclose(f);
    assert_int_equal(n, strlen(want));
    assert_string_equal(got, want);
}

/* No file of the directory has ".rampart-tmp." in its name (planted links aside). */
static void assert_no_temp(void)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        struct stat st;
        if (strstr(e->d_name, ".rampart-tmp.") && lstat(at(3, e->d_name), &st) == 0 &&
            !S_ISLNK(st.st_mode)) {
            fail_msg("temporary file left: %s", e->d_name);
        }
    }
    closedir(d);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "%s/rp-safe-file.XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_write_new_and_replace(void **state)
{
    (void)state;
    rp_buf err = {0};
    const char *f = at(0, "settings.json");
    assert_int_equal(rp_safe_write(f, "one\n", 4, 0640, 0, &err), 1);
    assert_content(f, "one\n");
    struct stat st;
    assert_int_equal(stat(f, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0640); /* the mode asked for, whatever the umask */
    ino_t first = st.st_ino;
    assert_int_equal(rp_safe_write(f, "two, longer\n", 12, 0600, 0, &err), 1);
    assert_content(f, "two, longer\n");
    assert_int_equal(stat(f, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0600);
    assert_true(st.st_ino != first); /* renamed over, not rewritten in place */
    assert_int_equal(rp_safe_write(f, "", 0, 0644, 0, &err), 1);
    assert_content(f, "");
    assert_null(err.data);
    assert_no_temp();
}

/* Links planted at the names the old code used (FILE.rampart-tmp.<pid>) are not followed. */
static void test_planted_temp_names_not_followed(void **state)
{
    (void)state;
    rp_buf err = {0};
    const char *victim = at(0, "victim");
    put(victim, "victim\n");
    char name[64];
    for (long pid = getpid() - 5; pid < getpid() + 50; pid++) {
        snprintf(name, sizeof name, "target.rampart-tmp.%ld", pid);
        assert_int_equal(symlink(victim, at(1, name)), 0);
    }
    const char *f = at(2, "target");
    assert_int_equal(rp_safe_write(f, "new\n", 4, 0644, 0, &err), 1);
    assert_content(f, "new\n");
    assert_content(victim, "victim\n");
    assert_no_temp();
}

/* A link, directory or fifo at the target itself is never replaced or written through. */
static void test_target_not_regular_refused(void **state)
{
    (void)state;
    rp_buf err = {0};
    const char *victim = at(0, "victim2");
    put(victim, "victim\n");
    const char *link = at(1, "link.json");
    assert_int_equal(symlink(victim, link), 0);
    assert_int_equal(rp_safe_write(link, "x", 1, 0644, 0, &err), -1);
    assert_non_null(strstr(err.data, "link.json: is a symbolic link, not a regular file"));
    assert_content(victim, "victim\n");
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    rp_buf_free(&err);

    const char *fifo = at(2, "fifo.json");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(rp_safe_write(fifo, "x", 1, 0644, 0, &err), -1);
    assert_non_null(strstr(err.data, "is a fifo"));
    rp_buf_free(&err);

    assert_int_equal(rp_safe_write(dir, "x", 1, 0644, 0, &err), -1);
    rp_buf_free(&err);
    assert_int_equal(rp_safe_write(at(3, "no-such-dir/f"), "x", 1, 0644, 0, &err), -1);
    assert_non_null(strstr(err.data, "no-such-dir"));
    rp_buf_free(&err);
    assert_no_temp();
}

static void test_no_replace(void **state)
{
    (void)state;
    rp_buf err = {0};
    const char *f = at(0, "config.yaml");
    assert_int_equal(rp_safe_write(f, "first\n", 6, 0644, RP_SAFE_NO_REPLACE, &err), 1);
    assert_int_equal(rp_safe_write(f, "second\n", 7, 0644, RP_SAFE_NO_REPLACE, &err), 0);
    assert_content(f, "first\n");
    /* A dangling link is kept, and nothing is created where it points. */
    const char *dangling = at(1, "dangling.yaml");
    assert_int_equal(symlink(at(2, "nowhere"), dangling), 0);
    assert_int_equal(rp_safe_write(dangling, "x", 1, 0644, RP_SAFE_NO_REPLACE, &err), 0);
    assert_int_equal(access(at(2, "nowhere"), F_OK), -1);
    assert_null(err.data);
    assert_no_temp();
}

/* A write that fails halfway (here: the file size limit, EFBIG) leaves the target as it was
 * and no temporary file. */
static void test_failed_write_leaves_target_whole(void **state)
{
    (void)state;
    rp_buf err = {0};
    const char *f = at(0, "big.json");
    put(f, "original\n");
    static char big[64 * 1024];
    memset(big, 'x', sizeof big);
    struct rlimit old, small = {4096, 0};
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    small.rlim_max = old.rlim_max;
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    int rc = rp_safe_write(f, big, sizeof big, 0644, 0, &err);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, prev);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(err.data, "cannot write"));
    assert_non_null(strstr(err.data, "big.json"));
    assert_content(f, "original\n");
    rp_buf_free(&err);
    assert_no_temp();
}

static void test_check_backup(void **state)
{
    (void)state;
    rp_buf err = {0};
    const char *bak = at(0, "s.json.rampart-backup");
    assert_int_equal(rp_safe_check_backup(bak, &err), 0);
    put(bak, "{}\n");
    assert_int_equal(rp_safe_check_backup(bak, &err), 1);
    assert_null(err.data);

    /* A hard link to another file. */
    assert_int_equal(link(bak, at(1, "other")), 0);
    assert_int_equal(rp_safe_check_backup(bak, &err), -1);
    assert_non_null(strstr(err.data, "has 2 hard links"));
    assert_non_null(strstr(err.data, "nothing was written"));
    rp_buf_free(&err);
    unlink(at(1, "other"));

    if (geteuid() == 0 && chown(bak, 12345, 12345) == 0) {
        assert_int_equal(rp_safe_check_backup(bak, &err), -1);
        assert_non_null(strstr(err.data, "belongs to uid 12345"));
        rp_buf_free(&err);
    }
    unlink(bak);

    assert_int_equal(symlink("/etc/passwd", bak), 0);
    assert_int_equal(rp_safe_check_backup(bak, &err), -1);
    assert_non_null(strstr(err.data, "s.json.rampart-backup: is a symbolic link (to /etc/passwd)"));
    rp_buf_free(&err);
    unlink(bak);

    assert_int_equal(symlink(at(2, "missing"), bak), 0); /* dangling */
    assert_int_equal(rp_safe_check_backup(bak, &err), -1);
    rp_buf_free(&err);
    unlink(bak);

    assert_int_equal(mkfifo(bak, 0600), 0);
    assert_int_equal(rp_safe_check_backup(bak, &err), -1);
    assert_non_null(strstr(err.data, "is a fifo"));
    rp_buf_free(&err);
    unlink(bak);

    assert_int_equal(mkdir(bak, 0700), 0);
    assert_int_equal(rp_safe_check_backup(bak, &err), -1);
    assert_non_null(strstr(err.data, "is a directory"));
    rp_buf_free(&err);
    rmdir(bak);
}

static void test_read_nofollow(void **state)
{
    (void)state;
    rp_buf err = {0}, out = {0};
    const char *f = at(0, "r.json");
    assert_int_equal(rp_safe_read_nofollow(f, &out, &err), 0);
    put(f, "hello\n");
    assert_int_equal(rp_safe_read_nofollow(f, &out, &err), 1);
    assert_string_equal(out.data, "hello\n");
    rp_buf_free(&out);
    const char *link = at(1, "r-link.json");
    assert_int_equal(symlink(f, link), 0);
    assert_int_equal(rp_safe_read_nofollow(link, &out, &err), -1);
    assert_non_null(strstr(err.data, "is a symbolic link"));
    rp_buf_free(&err);
    rp_buf_free(&out);
    const char *fifo = at(2, "r-fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(rp_safe_read_nofollow(fifo, &out, &err), -1); /* and does not hang */
    rp_buf_free(&err);
    rp_buf_free(&out);
}

static void test_resolve_project(void **state)
{
    (void)state;
    rp_buf err = {0};
    char root[1100], outside[1100], want[PATH_MAX + 64];
    snprintf(root, sizeof root, "%s/proj", dir);
    snprintf(outside, sizeof outside, "%s/home", dir);
    assert_int_equal(mkdir(root, 0755), 0);
    assert_int_equal(mkdir(outside, 0755), 0);
    char real_root[PATH_MAX];
    assert_non_null(realpath(root, real_root));

    /* Missing parents: created only when asked; the path is the path. */
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/.claude/settings.json", real_root);
    char *r = rp_safe_resolve(path, real_root, false, &err);
    assert_string_equal(r, path);
    free(r);
    struct stat st;
    assert_int_equal(stat(at(0, "proj/.claude"), &st), -1);
    r = rp_safe_resolve(path, real_root, true, &err);
    assert_string_equal(r, path);
    free(r);
    assert_int_equal(stat(at(0, "proj/.claude"), &st), 0);
    assert_true(S_ISDIR(st.st_mode));

    /* A settings file linking out of the project: refused. */
    put(at(0, "home/victim.json"), "{}\n");
    assert_int_equal(symlink(at(0, "home/victim.json"), path), 0);
    assert_null(rp_safe_resolve(path, real_root, true, &err));
    assert_non_null(strstr(err.data, "outside the project"));
    rp_buf_free(&err);
    unlink(path);

    /* One linking inside it: followed. */
    put(at(0, "proj/shared.json"), "{}\n");
    assert_int_equal(symlink("../shared.json", path), 0);
    r = rp_safe_resolve(path, real_root, true, &err);
    snprintf(want, sizeof want, "%s/shared.json", real_root);
    assert_string_equal(r, want);
    free(r);
    unlink(path);

    /* A dangling one: refused. */
    assert_int_equal(symlink("../missing.json", path), 0);
    assert_null(rp_safe_resolve(path, real_root, true, &err));
    assert_non_null(strstr(err.data, "does not exist"));
    rp_buf_free(&err);
    unlink(path);

    /* A parent directory linking out: refused, and nothing created through it. */
    char pi[PATH_MAX + 64];
    snprintf(pi, sizeof pi, "%s/.pi/extensions/rampart.ts", real_root);
    assert_int_equal(symlink(outside, at(0, "proj/.pi")), 0);
    assert_null(rp_safe_resolve(pi, real_root, true, &err));
    assert_non_null(strstr(err.data, "/.pi: is a symbolic link to"));
    rp_buf_free(&err);
    assert_int_equal(stat(at(0, "home/extensions"), &st), -1);

    /* Not under the root at all. */
    assert_null(rp_safe_resolve(at(0, "home/x.json"), real_root, true, &err));
    rp_buf_free(&err);
}

/* At user level the user's own links are followed: a dotfile manager's settings file. */
static void test_resolve_user_follows(void **state)
{
    (void)state;
    rp_buf err = {0};
    assert_int_equal(mkdir(at(0, "dotfiles"), 0755), 0);
    put(at(0, "dotfiles/claude.json"), "{}\n");
    assert_int_equal(symlink("dotfiles/claude.json", at(1, "user-settings.json")), 0);
    char *r = rp_safe_resolve(at(1, "user-settings.json"), NULL, true, &err);
    char want[PATH_MAX];
    assert_non_null(realpath(at(0, "dotfiles/claude.json"), want));
    assert_string_equal(r, want);
    free(r);
    assert_int_equal(symlink("dotfiles/none.json", at(2, "dangling-settings.json")), 0);
    assert_null(rp_safe_resolve(at(2, "dangling-settings.json"), NULL, true, &err));
    rp_buf_free(&err);
}

/* A path that names no file, or that walks out of the project with '..', is refused before any
 * directory is created (review finding: the parent walk made directories outside the root). */
static void test_resolve_refuses_unplain_paths(void **state)
{
    (void)state;
    rp_buf err = {0};
    char root[1100], real_root[PATH_MAX], path[PATH_MAX + 64];
    snprintf(root, sizeof root, "%s/proj", dir);
    assert_int_equal(mkdir(root, 0755), 0);
    assert_non_null(realpath(root, real_root));
    snprintf(path, sizeof path, "%s/../escaped/x.json", real_root);
    assert_null(rp_safe_resolve(path, real_root, true, &err));
    assert_non_null(strstr(err.data, "not a plain file path"));
    struct stat st;
    assert_int_equal(stat(at(0, "escaped"), &st), -1);
    rp_buf_reset(&err);
    snprintf(path, sizeof path, "%s/.claude/", real_root);
    assert_null(rp_safe_resolve(path, real_root, true, &err));
    rp_buf_reset(&err);
    assert_null(rp_safe_resolve(at(1, "dir/"), NULL, true, &err));
    assert_non_null(strstr(err.data, "trailing '/'"));
    rp_buf_free(&err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_write_new_and_replace, setup, teardown),
        cmocka_unit_test_setup_teardown(test_planted_temp_names_not_followed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_target_not_regular_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_replace, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failed_write_leaves_target_whole, setup, teardown),
        cmocka_unit_test_setup_teardown(test_check_backup, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_nofollow, setup, teardown),
        cmocka_unit_test_setup_teardown(test_resolve_project, setup, teardown),
        cmocka_unit_test_setup_teardown(test_resolve_user_follows, setup, teardown),
        cmocka_unit_test_setup_teardown(test_resolve_refuses_unplain_paths, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
