/* store.h — durable state around the pure engine: per-session state JSON, withheld updates of
 * pending ASKs, usage counters, the audit log and trusted project directories.
 *
 * Two backends: in-memory (tests) and SQLite (default; WAL; $RAMPART_STATE_DIR/state.db, else
 * $XDG_STATE_HOME/rampart/state.db, else ~/.local/state/rampart/state.db; directory 0700, file
 * 0600). SQL is kept portable (PostgreSQL comes later).
 *
 * Concurrency: callers wrap load → evaluate → apply in rp_store_begin/rp_store_commit. begin
 * takes the write lock up front (BEGIN IMMEDIATE) and retries while the database is busy, so two
 * processes evaluating one session never lose an update.
 *
 * Every function returns 0 on success and -1 on failure with rp_store_error() describing it. */
#ifndef RAMPART_STORE_STORE_H
#define RAMPART_STORE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/json.h"

typedef struct rp_store rp_store;

rp_store *rp_store_open_memory(void);
/* dir NULL = the default directory. Creates it (0700) and the database (0600), runs
 * migrations. NULL on failure with a message in err. */
rp_store *rp_store_open_sqlite(const char *dir, char *err, size_t err_size);
/* The directory rp_store_open_sqlite(NULL) would use, into buf; NULL when it cannot be
 * determined (no HOME) or does not fit. */
const char *rp_store_default_dir(char *buf, size_t size);
/* Checks the state directory and its files the way rp_store_open_sqlite does (ours, not
 * writable by group or others, no symlink or hard link at state.db and its -wal/-shm/-journal)
 * without creating or changing anything: 0 when usable or not created yet, else -1 with the
 * problem and its fix in problem (`rampart doctor`). */
int rp_store_check_state_dir(const char *dir, char *problem, size_t size);
/* Opens an existing state.db in dir read-only and checks that it is a database SQLite finds
 * consistent (quick_check) with a schema this rampart reads: 0 when so or when there is no
 * database yet, else -1 with the problem and its fix in problem (`rampart doctor`). */
int rp_store_check_database(const char *dir, char *problem, size_t size);
void rp_store_close(rp_store *s);
const char *rp_store_error(const rp_store *s);

int rp_store_begin(rp_store *s); /* exclusive write transaction, retried while busy */
int rp_store_commit(rp_store *s);
void rp_store_rollback(rp_store *s);

/* Session state: an object; {} when the session is unknown. */
int rp_store_load_state(rp_store *s, const char *session_id, rp_arena *a, rp_json **state);
int rp_store_save_state(rp_store *s, const char *session_id, const rp_json *state);

/* Withheld updates of a pending ASK, keyed by (session, ask_key). `updates` is the JSON array
 * of {"key","action","value","policy"} objects; `policies` the asking policies (array). */
int rp_store_put_pending(rp_store *s, const char *session_id, const char *ask_key,
                         const rp_json *updates, const rp_json *policies, int64_t now_us);
/* Removes and returns a pending entry. *updates is NULL when there was none. */
int rp_store_take_pending(rp_store *s, const char *session_id, const char *ask_key, rp_arena *a,
                          rp_json **updates);

/* As rp_store_take_pending, and *created_us is when the entry was stored (its put_pending
 * now_us; 0 when there was none), so a caller can let an approval expire. */
int rp_store_take_pending_at(rp_store *s, const char *session_id, const char *ask_key, rp_arena *a,
                             rp_json **updates, int64_t *created_us);

/* How far a host's session transcript (path) has been read for spend: a byte offset from the
 * start of the file, per (session, path), and the model of the last assistant message read
 * from it (the session's current model; Claude Code's hooks name none). get gives 0 when none
 * is stored; set replaces the offset (>= 0) and the model (NULL keeps the stored one). */
int rp_store_get_transcript_offset(rp_store *s, const char *session_id, const char *path,
                                   int64_t *offset);
int rp_store_set_transcript_offset(rp_store *s, const char *session_id, const char *path,
                                   int64_t offset, const char *model);

/* One transcript bookmark: its path, offset and model (NULL when none was seen). */
typedef struct rp_transcript_mark {
    const char *path;
    int64_t offset;
    const char *model;
} rp_transcript_mark;

/* The bookmark of (session_id, path), or with path NULL the session's most recently written
 * one (how a sub-agent's transcript, named at its SubagentStop, is found again). Strings are
 * copied into a. Returns 0, 1 when there is none (*out zeroed), -1 on a store error. */
int rp_store_get_transcript(rp_store *s, const char *session_id, const char *path, rp_arena *a,
                            rp_transcript_mark *out);

/* One audited decision. */
typedef struct rp_audit_row {
    int64_t time_us;
    const char *session_id;
    const char *event_type;
    const char *target;   /* tool name or NULL */
    const char *result;   /* "ALLOW" | "ASK" | "DENY" */
    const char *reason;   /* NULL on ALLOW */
    const char *policies; /* JSON array text of the deciding policies */
    const char *note;     /* what policies noted beyond the verdict (rp_decision.notes), or NULL */
} rp_audit_row;

int rp_store_audit(rp_store *s, const rp_audit_row *row);
/* Calls fn for each row with time ≥ since_us (0 = all), of session_id (NULL = all), oldest
 * first. fn returns non-zero to stop. Row strings are valid only during the call. */
int rp_store_audit_query(rp_store *s, const char *session_id, int64_t since_us,
                         int (*fn)(void *self, const rp_audit_row *row), void *self);
int rp_store_audit_prune(rp_store *s, int64_t before_us);

/* Project directories whose .rampart.yaml the user trusts (`rampart trust`). */
int rp_store_trust(rp_store *s, const char *dir, int64_t now_us);
int rp_store_untrust(rp_store *s, const char *dir);
bool rp_store_is_trusted(rp_store *s, const char *dir);

/* ---- the spend ledger (issue 6) ----
 *
 * Money is held as integer nano-dollars (1 USD = 1e9 nUSD) everywhere in the store, so sums over
 * any number of rows and processes are exact; callers convert to double only for display and
 * for the PolicyEvent context. Day keys are "YYYY-MM-DD" UTC calendar dates of the record's time.
 *
 * Every ledger write below runs inside the caller's transaction when one is open (rp_store_begin),
 * else in its own: a usage row and every aggregate it touches are applied together or not at all.
 */

#define RP_NUSD_PER_USD 1000000000LL
/* Per-record bounds that keep every sum exact in 64 bits (rp_store_record_usage refuses more;
 * usage readers check or clamp to them first). */
#define RP_USAGE_MAX_TOKENS    1000000000000LL    /* 1e12 per count */
#define RP_USAGE_MAX_COST_NUSD 1000000000000000LL /* $1,000,000 */

/* A session's place in a spawn tree and its owner. */
typedef struct rp_store_session_link {
    const char *session_id;
    const char *parent_session_id; /* NULL for a root session */
    const char *root_session_id;   /* never NULL once resolved (a root is its own root) */
    const char *user_id;           /* the session's own owner, NULL when unknown */
    const char *owner_id;          /* the root session's owner, else user_id; NULL when none */
} rp_store_session_link;

/* Records what an event says about a session and returns the resolved link (strings in a).
 * parent/root/user may each be NULL (= not stated). Rules: a known parent or user is never
 * replaced by NULL; a session's parent, once recorded, is never changed (a later, different
 * parent is ignored: an agent cannot re-parent itself out of its tree); the root is the stated
 * root, else the parent's root, else the parent, else the session itself. When a session is
 * first linked under a parent, it claims the oldest unclaimed sub-agent budget that parent
 * attached (rp_store_attach_budget with child NULL).
 * Details (store_ledger.c): "" counts as NULL; a session stated as its own parent or root has
 * none. A session's first known user stays its user (a later, different one is ignored, like a
 * parent). A session that is its own root with no parent joins a tree once, when an event first
 * states a parent or root: its root becomes that tree's true root (a stated root that is itself
 * a child resolves to its root) and the sessions that had it as root, linked before it, move
 * along with their spend. A session already in a tree keeps its root; its missing parent may
 * still be filled in once. A parent or root that would make a cycle (the session itself or a
 * descendant) is ignored. The owner falls back to the root's own user only (not to any ancestor
 * in between). */
int rp_store_link_session(rp_store *s, const char *session_id, const char *parent_session_id,
                          const char *root_session_id, const char *user_id, int64_t now_us,
                          rp_arena *a, rp_store_session_link *out);

/* One recorded usage: one row of the ledger. */
typedef struct rp_usage_record {
    int64_t time_us;
    const char *session_id;        /* required */
    const char *parent_session_id; /* NULL = not stated (the link decides) */
    const char *root_session_id;   /* NULL = not stated */
    const char *user_id;           /* NULL = the session's owner (link, then root's owner) */
    const char *model;             /* NULL = unknown */
    const char *record_id;         /* the host's message/request id; NULL = none. A second record
                                      with the same (session, record_id) is a duplicate: not added */
    int64_t input_tokens, output_tokens, cache_read_input_tokens, cache_creation_input_tokens;
    bool priced;       /* false: no price and no reported cost (counts as unpriced usage) */
    int64_t cost_nusd; /* when priced */
    /* What priced it: RP_PRICED_BY_HOST (the cost the report carried), _TABLE (the shipped
     * price table) or _CONFIG (the config's pricing:); NULL when unpriced or not said. */
    const char *priced_by;
} rp_usage_record;

#define RP_PRICED_BY_HOST   "host"
#define RP_PRICED_BY_TABLE  "table"
#define RP_PRICED_BY_CONFIG "config"

/* Appends the row and updates the per-session and per-user-per-day aggregates (the user is the
 * session's owner — its root's owner, else its own first known user, which the record's user_id
 * sets when it is the first — never a different user_id of a later record; no owner → no
 * per-user row). *duplicate (may be
 * NULL) says the record_id was already recorded and nothing changed. Links the session first
 * (as rp_store_link_session) when parent/root/user are given or the session is new.
 * The duplicate check comes first: a duplicate links nothing either. Counts must be in
 * 0..1e12 and a priced cost in 0..1e15 nUSD ($1M) per record, time_us in 1970..9999, so that
 * sums stay exact in 64 bits; an unpriced record's cost_nusd is ignored (stored as 0). "" for
 * model or record_id counts as NULL. On failure inside the caller's transaction, the caller
 * rolls back (as after any failed store call); in its own transaction nothing was applied. */
int rp_store_record_usage(rp_store *s, const rp_usage_record *r, bool *duplicate);

/* Summed usage. `priced_records` > 0 means some spend was priced (the reference's
 * total_cost_usd is present); unpriced_* count rows recorded without a price. */
typedef struct rp_usage_totals {
    int64_t records;
    int64_t input_tokens, output_tokens, cache_read_input_tokens, cache_creation_input_tokens;
    int64_t cost_nusd; /* sum over priced rows */
    int64_t priced_records;
    int64_t unpriced_records;
    int64_t unpriced_tokens; /* input + output + cache tokens of unpriced rows */
} rp_usage_totals;

/* The whole spawn tree of root_session_id (every session whose root it is, itself included). */
int rp_store_usage_tree(rp_store *s, const char *root_session_id, rp_usage_totals *out);
/* session_id and all its descendants (parent links, any depth). */
int rp_store_usage_subtree(rp_store *s, const char *session_id, rp_usage_totals *out);
/* A user's spend over the UTC days first_day..last_day inclusive ("YYYY-MM-DD"). */
/* A first_day after last_day is an empty range (zeros), not an error. */
int rp_store_user_spend(rp_store *s, const char *user_id, const char *first_day,
                        const char *last_day, rp_usage_totals *out);

/* Soft-checkpoint approvals per user per window: (user, period name "day"|"week"|"month"|
 * "quarter"|"year", window start day). get returns 0.0 when none. set keeps the larger of the
 * stored and the new value (approving a lower checkpoint later never un-approves a higher). */
int rp_store_get_user_approval(rp_store *s, const char *user_id, const char *period,
                               const char *window_start, double *approved_usd);
int rp_store_set_user_approval(rp_store *s, const char *user_id, const char *period,
                               const char *window_start, double approved_usd, int64_t now_us);

/* Sub-agent budgets: `budget` is the validated JSON object {max_cost_usd?, ask_thresholds_usd?}
 * (text). child NULL = for the next child session that links under parent (see link).
 * A session's budget is the oldest one attached to it or claimed by it: a session that already
 * has one claims no other, and a later budget naming it is kept but not used (a budget is never
 * replaced). The text must parse as a JSON object; it is stored as given. */
int rp_store_attach_budget(rp_store *s, const char *parent_session_id, const char *child_session_id,
                           const char *budget_json, int64_t now_us);
/* The budget attached to session_id, copied into a; *budget_json NULL when none. */
int rp_store_session_budget(rp_store *s, const char *session_id, rp_arena *a, char **budget_json);

/* `rampart spend`: usage rows filtered and grouped. */
typedef enum rp_spend_group {
    RP_SPEND_BY_NONE = 0, /* one row, key "", also when nothing matches (all zeros) */
    RP_SPEND_BY_MODEL,    /* key = model, "" when unknown */
    RP_SPEND_BY_USER,     /* key = the row's user, "" when none */
    RP_SPEND_BY_DAY,      /* key = "YYYY-MM-DD" */
    RP_SPEND_BY_SESSION,  /* key = session id */
    RP_SPEND_BY_SOURCE    /* key = what priced the rows: host, table, config, "unpriced", or
                             "" (recorded before rampart kept it) */
} rp_spend_group;

typedef struct rp_spend_query {
    const char *user_id;    /* NULL = every user */
    const char *session_id; /* NULL = every session; else that session and its descendants */
    const char *first_day;  /* NULL = no lower bound; inclusive "YYYY-MM-DD" */
    const char *last_day;   /* NULL = no upper bound; inclusive */
    rp_spend_group group;
} rp_spend_query;

typedef struct rp_spend_row {
    const char *key; /* valid only during the callback */
    rp_usage_totals totals;
} rp_spend_row;

/* Calls fn once per group, ordered by key ascending (days therefore oldest first). fn returns
 * non-zero to stop. The callback may not call back into the store. Keys compare as bytes.
 * A row's user is the owner it was charged to when recorded; --session covers the session's
 * subtree as linked now. Only a user filter is indexed: other reports scan the rows. */
int rp_store_spend(rp_store *s, const rp_spend_query *q,
                   int (*fn)(void *self, const rp_spend_row *row), void *self);

#endif
