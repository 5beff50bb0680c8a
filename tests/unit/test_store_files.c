/* test_store_files.c — who may own and write the state directory and its files (store_files.c),
 * and the SQLite store's use of those rules: resolved symlinked paths, refused hard links and
 * shared files, and an audit write that fails being an error. */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "store/store.h"
#include "store/store_files.h"
#include "remove_tree.h"

static char base[64];

static int setup(void **state)
{
    (void)state;
    snprintf(base, sizeof base, "/tmp/rampart-files.XXXXXX");
    return mkdtemp(base) != NULL ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(base);
    return 0;
}

static void assert_contains(const char *s, const char *part)
{
    if (strstr(s, part) == NULL) {
        fail_msg("'%s' does not contain '%s'", s, part);
    }
}

static struct stat file_stat(mode_t type_and_mode, uid_t uid, nlink_t links)
{
    struct stat st;
    memset(&st, 0, sizeof st);
    st.st_mode = type_and_mode;
    st.st_uid = uid;
    st.st_nlink = links;
    return st;
}

static mode_t mode_of(const char *path)
{
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    return st.st_mode & 07777;
}

/* ---- the rules, on a struct stat ---- */

static void test_dir_rules(void **state)
{
    (void)state;
    char err[512];
    uid_t me = geteuid();
    struct stat st = file_stat(S_IFDIR | 0700, me, 2);
    assert_int_equal(rp_store_check_dir("/d", &st, err, sizeof err), 0);
    st = file_stat(S_IFDIR | 0755, me, 2); /* readable by others: the files in it are 0600 */
    assert_int_equal(rp_store_check_dir("/d", &st, err, sizeof err), 0);
    st = file_stat(S_IFDIR | 0775, me, 2);
    assert_int_equal(rp_store_check_dir("/d", &st, err, sizeof err), -1);
    assert_contains(err, "writable by its group (mode 0775)");
    assert_contains(err, "chmod go-w /d");
    st = file_stat(S_IFDIR | 01777, me, 2); /* sticky does not make others' writes harmless */
    assert_int_equal(rp_store_check_dir("/d", &st, err, sizeof err), -1);
    assert_contains(err, "group and others (mode 1777)");
    st = file_stat(S_IFDIR | 0700, me + 1, 2);
    assert_int_equal(rp_store_check_dir("/d", &st, err, sizeof err), -1);
    assert_contains(err, "not to you");
    st = file_stat(S_IFREG | 0700, me, 1);
    assert_int_equal(rp_store_check_dir("/d", &st, err, sizeof err), -1);
    assert_contains(err, "not a directory");
}

static void test_file_rules(void **state)
{
    (void)state;
    char err[512];
    uid_t me = geteuid();
    struct stat st = file_stat(S_IFREG | 0600, me, 1);
    assert_int_equal(rp_store_check_file("/d/state.db", &st, err, sizeof err), 0);
    st = file_stat(S_IFREG | 0644, me, 1); /* narrowed by the opener, not refused */
    assert_int_equal(rp_store_check_file("/d/state.db", &st, err, sizeof err), 0);
    st = file_stat(S_IFREG | 0666, me, 1);
    assert_int_equal(rp_store_check_file("/d/state.db", &st, err, sizeof err), -1);
    assert_contains(err, "chmod 600 /d/state.db");
    st = file_stat(S_IFREG | 0620, me, 1);
    assert_int_equal(rp_store_check_file("/d/state.db", &st, err, sizeof err), -1);
    assert_contains(err, "writable by its group");
    st = file_stat(S_IFREG | 0600, me + 1, 1);
    assert_int_equal(rp_store_check_file("/d/state.db", &st, err, sizeof err), -1);
    assert_contains(err, "remove it");
    st = file_stat(S_IFREG | 0600, me, 2);
    assert_int_equal(rp_store_check_file("/d/state.db", &st, err, sizeof err), -1);
    assert_contains(err, "2 hard links");
    st = file_stat(S_IFLNK | 0777, me, 1);
    assert_int_equal(rp_store_check_file("/d/state.db-wal", &st, err, sizeof err), -1);
    assert_contains(err, "/d/state.db-wal is a symbolic link");
    st = file_stat(S_IFIFO | 0600, me, 1);
    assert_int_equal(rp_store_check_file("/d/state.db", &st, err, sizeof err), -1);
    assert_contains(err, "not a regular file");
}

/* ---- rp_store_check_state_dir (doctor) and the SQLite open ---- */

static void test_absent_dir_is_fine_and_untouched(void **state)
{
    (void)state;
    char dir[256], problem[512];
    snprintf(dir, sizeof dir, "%s/not/yet", base);
    assert_int_equal(rp_store_check_state_dir(dir, problem, sizeof problem), 0);
    assert_int_equal(access(dir, F_OK), -1);
}

static void test_symlinked_path_opens(void **state)
{
    (void)state;
    char real[256], link[256], dir[300], err[512];
    snprintf(real, sizeof real, "%s/real", base);
    snprintf(link, sizeof link, "%s/link", base);
    assert_int_equal(mkdir(real, 0700), 0);
    assert_int_equal(symlink(real, link), 0);
    snprintf(dir, sizeof dir, "%s/state", link);
    rp_store *s = rp_store_open_sqlite(dir, err, sizeof err);
    if (s == NULL) {
        fail_msg("open through a symlinked path: %s", err);
    }
    rp_store_close(s);
    char db[400];
    snprintf(db, sizeof db, "%s/state/state.db", real);
    assert_int_equal(mode_of(db), 0600);
    assert_int_equal(rp_store_check_state_dir(dir, err, sizeof err), 0);
}

static void test_hard_link_refused_and_target_untouched(void **state)
{
    (void)state;
    char dir[256], victim[256], db[300], err[512];
    snprintf(dir, sizeof dir, "%s/hl", base);
    snprintf(victim, sizeof victim, "%s/victim", base);
    assert_int_equal(mkdir(dir, 0700), 0);
    int fd = open(victim, O_CREAT | O_WRONLY, 0644);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(chmod(victim, 0644), 0);
    snprintf(db, sizeof db, "%s/state.db", dir);
    assert_int_equal(link(victim, db), 0);
    assert_null(rp_store_open_sqlite(dir, err, sizeof err));
    assert_contains(err, "hard links");
    assert_int_equal(mode_of(victim), 0644);
    assert_int_equal(rp_store_check_state_dir(dir, err, sizeof err), -1);
    assert_contains(err, "hard links");
}

static void test_shared_dir_and_sidecars_refused(void **state)
{
    (void)state;
    char dir[256], path[300], err[512];
    snprintf(dir, sizeof dir, "%s/shared", base);
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_int_equal(chmod(dir, 0777), 0);
    assert_null(rp_store_open_sqlite(dir, err, sizeof err));
    assert_contains(err, "chmod go-w");
    snprintf(path, sizeof path, "%s/state.db", dir);
    assert_int_equal(access(path, F_OK), -1); /* nothing created in a refused directory */
    assert_int_equal(rp_store_check_state_dir(dir, err, sizeof err), -1);

    assert_int_equal(chmod(dir, 0700), 0);
    rp_store *s = rp_store_open_sqlite(dir, err, sizeof err);
    assert_non_null(s);
    rp_store_close(s);
    snprintf(path, sizeof path, "%s/state.db-shm", dir);
    assert_int_equal(mode_of(path), 0600);
    assert_int_equal(remove(path), 0);
    assert_int_equal(symlink("/nonexistent", path), 0);
    assert_null(rp_store_open_sqlite(dir, err, sizeof err));
    assert_contains(err, "state.db-shm is a symbolic link");
    assert_int_equal(rp_store_check_state_dir(dir, err, sizeof err), -1);
    assert_contains(err, "state.db-shm is a symbolic link");
}

/* An audit row that cannot be written is an error, with SQLite's message. */
static void test_audit_write_failure_is_an_error(void **state)
{
    (void)state;
    char dir[256], db_path[300], err[512];
    snprintf(dir, sizeof dir, "%s/audit", base);
    rp_store *s = rp_store_open_sqlite(dir, err, sizeof err);
    assert_non_null(s);
    snprintf(db_path, sizeof db_path, "%s/state.db", dir);
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(db_path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db,
                                  "CREATE TRIGGER no_audit BEFORE INSERT ON audit BEGIN "
                                  "SELECT RAISE(ABORT, 'audit refused'); END;",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    rp_audit_row row = {
        .time_us = 1, .session_id = "s", .event_type = "tool_call", .result = "ALLOW"};
    assert_int_equal(rp_store_audit(s, &row), -1);
    assert_contains(rp_store_error(s), "audit refused");
    rp_store_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dir_rules),
        cmocka_unit_test(test_file_rules),
        cmocka_unit_test_setup_teardown(test_absent_dir_is_fine_and_untouched, setup, teardown),
        cmocka_unit_test_setup_teardown(test_symlinked_path_opens, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hard_link_refused_and_target_untouched, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_shared_dir_and_sidecars_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_audit_write_failure_is_an_error, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
