/* store_schema.c — the state store's schema as an ordered list of migrations.
 *
 * migrations[i] takes a database from version i to version i + 1; the version lives in
 * PRAGMA user_version (a field of the SQLite file header, so checking it costs no table read).
 * Migrations are append-only: a released script is never edited, a change is a new script.
 *
 * The SQL is kept to what PostgreSQL also accepts, so the later PostgreSQL backend can reuse the
 * scripts nearly verbatim: BIGINT for microsecond timestamps and token counts (PostgreSQL's
 * INTEGER is 32-bit; SQLite gives BIGINT integer affinity), DOUBLE PRECISION for money
 * (PostgreSQL's REAL is 32-bit; SQLite gives it real affinity), TEXT for JSON. The one SQLite
 * form is `audit.id INTEGER PRIMARY KEY` (the rowid alias, auto-assigned); PostgreSQL will spell
 * it `BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY` and keep its version in a table. */
#include "store/store_schema.h"

#include <stdio.h>

static const char *const migrations[] = {
    /* v1: the foundation (issue 2). */
    "CREATE TABLE session_state (\n"
    "    session_id TEXT NOT NULL PRIMARY KEY,\n"
    "    state TEXT NOT NULL,\n" /* compact JSON object */
    "    updated_us BIGINT NOT NULL\n"
    ");\n"
    "CREATE TABLE pending_ask (\n"
    "    session_id TEXT NOT NULL,\n"
    "    ask_key TEXT NOT NULL,\n"
    "    updates TEXT NOT NULL,\n"  /* JSON array of withheld state updates */
    "    policies TEXT NOT NULL,\n" /* JSON array of the asking policies */
    "    created_us BIGINT NOT NULL,\n"
    "    PRIMARY KEY (session_id, ask_key)\n"
    ");\n"
    "CREATE TABLE usage (\n"
    "    session_id TEXT NOT NULL PRIMARY KEY,\n"
    "    parent_session_id TEXT,\n"
    "    root_session_id TEXT,\n"
    "    user_id TEXT,\n"
    "    input_tokens BIGINT NOT NULL DEFAULT 0,\n"
    "    output_tokens BIGINT NOT NULL DEFAULT 0,\n"
    "    cache_read_input_tokens BIGINT NOT NULL DEFAULT 0,\n"
    "    cache_creation_input_tokens BIGINT NOT NULL DEFAULT 0,\n"
    "    total_cost_usd DOUBLE PRECISION,\n" /* NULL = unknown (no pricing) */
    "    updated_us BIGINT NOT NULL\n"
    ");\n"
    "CREATE INDEX usage_root ON usage (root_session_id);\n"
    "CREATE TABLE audit (\n"
    "    id INTEGER PRIMARY KEY,\n"
    "    time_us BIGINT NOT NULL,\n"
    "    session_id TEXT NOT NULL,\n"
    "    event_type TEXT NOT NULL,\n"
    "    target TEXT,\n"
    "    result TEXT NOT NULL,\n"
    "    reason TEXT,\n"
    "    policies TEXT NOT NULL\n"
    ");\n"
    "CREATE INDEX audit_session_time ON audit (session_id, time_us);\n"
    "CREATE INDEX audit_time ON audit (time_us);\n"
    "CREATE TABLE trusted_dir (\n"
    "    dir TEXT NOT NULL PRIMARY KEY,\n"
    "    added_us BIGINT NOT NULL\n"
    ");\n",
    /* v2: what policies noted beyond the verdict (issue 5: a cel_policy's evaluation error,
     * recorded even when the policy abstained). */
    "ALTER TABLE audit ADD COLUMN note TEXT;\n",
    /* v3: the spend ledger (issue 6). The v1 `usage` table was a placeholder nothing wrote.
     * Money is integer nano-dollars (BIGINT) so sums are exact; see docs/architecture-store.md
     * for what each table answers on the hook path. */
    "DROP TABLE usage;\n"
    "CREATE TABLE session_link (\n"
    "    session_id TEXT NOT NULL PRIMARY KEY,\n"
    "    parent_session_id TEXT,\n"        /* NULL for a root */
    "    root_session_id TEXT NOT NULL,\n" /* itself for a root */
    "    user_id TEXT,\n"                  /* the session's own owner */
    "    created_us BIGINT NOT NULL\n"
    ");\n"
    "CREATE INDEX session_link_parent ON session_link (parent_session_id);\n"
    "CREATE INDEX session_link_root ON session_link (root_session_id);\n"
    "CREATE TABLE usage_row (\n"
    "    id INTEGER PRIMARY KEY,\n"
    "    time_us BIGINT NOT NULL,\n"
    "    day TEXT NOT NULL,\n" /* UTC YYYY-MM-DD of time_us */
    "    session_id TEXT NOT NULL,\n"
    "    root_session_id TEXT NOT NULL,\n" /* as resolved when recorded */
    "    parent_session_id TEXT,\n"
    "    user_id TEXT,\n" /* the owner charged, NULL when none */
    "    model TEXT,\n"
    "    record_id TEXT,\n"
    "    input_tokens BIGINT NOT NULL,\n"
    "    output_tokens BIGINT NOT NULL,\n"
    "    cache_read_input_tokens BIGINT NOT NULL,\n"
    "    cache_creation_input_tokens BIGINT NOT NULL,\n"
    "    priced INTEGER NOT NULL,\n" /* 1, or 0: no price and no reported cost */
    "    cost_nusd BIGINT NOT NULL\n"
    ");\n"
    /* NULL record ids are distinct in both SQLite and PostgreSQL: only stated ids dedupe. */
    "CREATE UNIQUE INDEX usage_row_record ON usage_row (session_id, record_id);\n"
    /* For `rampart spend --user`. Reports over every user scan the rows instead: each index
     * here costs every hook ~20 µs (bench_ledger), and the hook path reads the aggregates. */
    "CREATE INDEX usage_row_user_day ON usage_row (user_id, day);\n"
    "CREATE TABLE usage_session (\n"
    "    session_id TEXT NOT NULL PRIMARY KEY,\n"
    "    root_session_id TEXT NOT NULL,\n" /* kept equal to session_link's */
    "    records BIGINT NOT NULL,\n"
    "    input_tokens BIGINT NOT NULL,\n"
    "    output_tokens BIGINT NOT NULL,\n"
    "    cache_read_input_tokens BIGINT NOT NULL,\n"
    "    cache_creation_input_tokens BIGINT NOT NULL,\n"
    "    cost_nusd BIGINT NOT NULL,\n"
    "    priced_records BIGINT NOT NULL,\n"
    "    unpriced_records BIGINT NOT NULL,\n"
    "    unpriced_tokens BIGINT NOT NULL,\n"
    "    updated_us BIGINT NOT NULL\n"
    ");\n"
    "CREATE INDEX usage_session_root ON usage_session (root_session_id);\n"
    "CREATE TABLE usage_user_day (\n"
    "    user_id TEXT NOT NULL,\n"
    "    day TEXT NOT NULL,\n"
    "    records BIGINT NOT NULL,\n"
    "    input_tokens BIGINT NOT NULL,\n"
    "    output_tokens BIGINT NOT NULL,\n"
    "    cache_read_input_tokens BIGINT NOT NULL,\n"
    "    cache_creation_input_tokens BIGINT NOT NULL,\n"
    "    cost_nusd BIGINT NOT NULL,\n"
    "    priced_records BIGINT NOT NULL,\n"
    "    unpriced_records BIGINT NOT NULL,\n"
    "    unpriced_tokens BIGINT NOT NULL,\n"
    "    updated_us BIGINT NOT NULL,\n"
    "    PRIMARY KEY (user_id, day)\n"
    ");\n"
    "CREATE TABLE user_approval (\n"
    "    user_id TEXT NOT NULL,\n"
    "    period TEXT NOT NULL,\n"       /* day | week | month | quarter | year */
    "    window_start TEXT NOT NULL,\n" /* YYYY-MM-DD */
    "    approved_usd DOUBLE PRECISION NOT NULL,\n"
    "    updated_us BIGINT NOT NULL,\n"
    "    PRIMARY KEY (user_id, period, window_start)\n"
    ");\n"
    "CREATE TABLE subagent_budget (\n"
    "    id INTEGER PRIMARY KEY,\n"
    "    parent_session_id TEXT NOT NULL,\n"
    "    child_session_id TEXT,\n" /* NULL until a child claims it */
    "    budget TEXT NOT NULL,\n"  /* JSON object {max_cost_usd?, ask_thresholds_usd?} */
    "    created_us BIGINT NOT NULL\n"
    ");\n"
    "CREATE INDEX subagent_budget_parent ON subagent_budget (parent_session_id, child_session_id,\n"
    "    created_us);\n"
    "CREATE INDEX subagent_budget_child ON subagent_budget (child_session_id, created_us);\n",
    /* v4: how far a host's session transcript has been read for spend (Claude Code puts no cost
     * in its hooks; the hook reads the transcript's new part each call). `read_offset`, not
     * `offset`: OFFSET is a keyword in both dialects. */
    "CREATE TABLE transcript_offset (\n"
    "    session_id TEXT NOT NULL,\n"
    "    path TEXT NOT NULL,\n"
    "    read_offset BIGINT NOT NULL,\n" /* bytes consumed from the start of the file */
    "    updated_us BIGINT NOT NULL,\n"
    "    PRIMARY KEY (session_id, path)\n"
    ");\n",
    /* v5: the model of the last assistant message read from the transcript (issue 15): Claude
     * Code's hooks name no model, and expensive_models needs the session's current one even on
     * a call whose read found no new message. NULL until one was seen. */
    "ALTER TABLE transcript_offset ADD COLUMN model TEXT;\n",
    /* v6: what priced each usage row (issue 15): 'host' (the cost the report carried), 'table'
     * (the shipped price table) or 'config' (the config's pricing:), NULL when unpriced or
     * recorded before v6. */
    "ALTER TABLE usage_row ADD COLUMN priced_by TEXT;\n",
};

#define N_MIGRATIONS ((int)(sizeof migrations / sizeof migrations[0]))

int rp_store_schema_latest(void)
{
    return N_MIGRATIONS;
}

static int read_user_version(sqlite3 *db, int *version)
{
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(stmt);
        if (rc == SQLITE_ROW) {
            *version = sqlite3_column_int(stmt, 0);
            rc = SQLITE_OK;
        }
    }
    sqlite3_finalize(stmt);
    return rc;
}

static int refuse_newer(int version, const char *path, char *err, size_t err_size)
{
    snprintf(err, err_size,
             "%s: database schema version %d is newer than this rampart supports (%d); "
             "upgrade rampart or use another state directory",
             path, version, N_MIGRATIONS);
    return -1;
}

int rp_store_schema_migrate(sqlite3 *db, const char *path, char *err, size_t err_size)
{
    int version = 0;
    if (read_user_version(db, &version) != SQLITE_OK) {
        snprintf(err, err_size, "%s: cannot read schema version: %s", path, sqlite3_errmsg(db));
        return -1;
    }
    if (version == N_MIGRATIONS) {
        return 0; /* the hook path: no DDL, no write lock */
    }
    if (version > N_MIGRATIONS) {
        return refuse_newer(version, path, err, err_size);
    }

    /* The write lock serialises two processes creating the database at once; the version is
     * read again under it because the other one may have finished first. busy_timeout on the
     * connection covers the wait. */
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(err, err_size, "%s: cannot lock database for migration: %s", path,
                 sqlite3_errmsg(db));
        return -1;
    }
    if (read_user_version(db, &version) != SQLITE_OK) {
        snprintf(err, err_size, "%s: cannot read schema version: %s", path, sqlite3_errmsg(db));
        goto fail;
    }
    if (version > N_MIGRATIONS) {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return refuse_newer(version, path, err, err_size);
    }
    for (int v = version; v < N_MIGRATIONS; v++) {
        if (sqlite3_exec(db, migrations[v], NULL, NULL, NULL) != SQLITE_OK) {
            snprintf(err, err_size, "%s: migration to schema version %d failed: %s", path, v + 1,
                     sqlite3_errmsg(db));
            goto fail;
        }
    }
    /* PRAGMA takes no bound parameters; the value is our own integer. */
    char pragma[64];
    snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", N_MIGRATIONS);
    if (sqlite3_exec(db, pragma, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(err, err_size, "%s: cannot record schema version %d: %s", path, N_MIGRATIONS,
                 sqlite3_errmsg(db));
        goto fail;
    }
    return 0;

fail:
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}
