/* store_health.c — `rampart doctor`'s look inside an existing state database: that it is a
 * database, that SQLite finds it consistent, and that this rampart can read its schema.
 *
 * The ownership checks (store_files.c) say whether the store may be used; this says whether it
 * can be. A corrupt or foreign database denies every pre-tool call, and the only one who can fix
 * it is the user, so doctor names it and says how. Nothing is created or changed: the database
 * is opened read-only, and not at all when it does not exist yet. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "store/store.h"
#include "store/store_schema.h"

/* One integer-or-text row of a PRAGMA. 0 with the text in out (or the integer in *num), else
 * -1 with SQLite's message in out. */
static int pragma_row(sqlite3 *db, const char *sql, char *out, size_t size, int *num)
{
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(stmt);
    }
    if (rc != SQLITE_ROW) {
        snprintf(out, size, "%s", sqlite3_errmsg(db));
        sqlite3_finalize(stmt);
        return -1;
    }
    if (num) {
        *num = sqlite3_column_int(stmt, 0);
    }
    const unsigned char *text = sqlite3_column_text(stmt, 0);
    snprintf(out, size, "%s", text ? (const char *)text : "");
    sqlite3_finalize(stmt);
    return 0;
}

static void unusable(const char *path, const char *why, char *problem, size_t size)
{
    snprintf(problem, size,
             "%s cannot be used: %s; move it aside (mv %s %s.broken) and rampart starts a new "
             "one (session counters, budgets' ledger and the audit start again)",
             path, why, path, path);
}

int rp_store_check_database(const char *dir, char *problem, size_t size)
{
    problem[0] = '\0';
    char real[PATH_MAX];
    if (realpath(dir, real) == NULL) {
        return 0; /* no directory yet: created on first use */
    }
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/state.db", strcmp(real, "/") == 0 ? "" : real);
    struct stat st;
    if (lstat(path, &st) != 0) {
        return 0; /* not created yet (other lstat errors are rp_store_check_state_dir's) */
    }
    sqlite3 *db = NULL;
    char why[512];
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOFOLLOW, NULL);
    if (rc != SQLITE_OK) {
        snprintf(why, sizeof why, "%s", db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        sqlite3_close(db);
        unusable(path, why, problem, size);
        return -1;
    }
    int version = 0;
    int result = 0;
    if (pragma_row(db, "PRAGMA user_version", why, sizeof why, &version) != 0) {
        unusable(path, why, problem, size);
        result = -1;
    } else if (version > rp_store_schema_latest()) {
        snprintf(problem, size,
                 "%s has schema version %d, newer than this rampart supports (%d): upgrade "
                 "rampart or use another state directory",
                 path, version, rp_store_schema_latest());
        result = -1;
    } else if (pragma_row(db, "PRAGMA quick_check(1)", why, sizeof why, NULL) != 0) {
        unusable(path, why, problem, size);
        result = -1;
    } else if (strcmp(why, "ok") != 0) {
        char detail[600];
        snprintf(detail, sizeof detail, "SQLite's quick_check: %s", why);
        unusable(path, detail, problem, size);
        result = -1;
    }
    sqlite3_close(db);
    return result;
}
