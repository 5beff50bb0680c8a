/* store.c — the public state store API: argument checks, JSON encoding and decoding, trust path
 * canonicalisation and the transaction nesting check, then a call through the backend's ops.
 *
 * Stored JSON is read back strictly: text that does not parse, or state that is not an object,
 * is an error naming the session and the backend. Replacing it with {} would silently reset a
 * session's counters — exactly the state a runaway agent would like to lose. */
#include "store/store.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "store/store_backend.h"

void rp_store_base_init(rp_store *s, const rp_store_ops *ops)
{
    memset(s, 0, sizeof *s);
    s->ops = ops;
}

void rp_store_base_free(rp_store *s)
{
    rp_buf_free(&s->text);
    rp_buf_free(&s->text2);
}

void rp_store_set_error(rp_store *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->error, sizeof s->error, fmt, ap);
    va_end(ap);
}

rp_store *rp_store_open_memory(void)
{
    return rp_store_memory_create();
}

rp_store *rp_store_open_sqlite(const char *dir, char *err, size_t err_size)
{
    return rp_store_sqlite_create(dir, err, err_size);
}

void rp_store_close(rp_store *s)
{
    if (s == NULL) {
        return;
    }
    if (s->in_transaction) {
        s->ops->rollback(s);
    }
    s->ops->close(s);
}

const char *rp_store_error(const rp_store *s)
{
    if (s == NULL) {
        return "no store";
    }
    return s->error;
}

/* Every entry point starts here: refuses re-entry from a query callback (the SQLite backend's
 * cached statements are in use while the callback runs) and clears the last error. */
int rp_store_enter(rp_store *s)
{
    if (s->in_callback) {
        rp_store_set_error(s, "store used from inside an audit query or spend callback");
        return -1;
    }
    s->error[0] = '\0';
    return 0;
}

int rp_store_check_id(rp_store *s, const char *what, const char *id)
{
    if (id == NULL || id[0] == '\0') {
        rp_store_set_error(s, "%s is empty", what);
        return -1;
    }
    return 0;
}

int rp_store_begin(rp_store *s)
{
    if (s == NULL || rp_store_enter(s) != 0) {
        return -1;
    }
    if (s->in_transaction) {
        rp_store_set_error(s, "%s store: begin inside an open transaction", s->ops->name);
        return -1;
    }
    if (s->ops->begin(s) != 0) {
        return -1;
    }
    s->in_transaction = true;
    return 0;
}

int rp_store_commit(rp_store *s)
{
    if (s == NULL || rp_store_enter(s) != 0) {
        return -1;
    }
    if (!s->in_transaction) {
        rp_store_set_error(s, "%s store: commit without begin", s->ops->name);
        return -1;
    }
    /* A failed commit has already been rolled back by the backend: the transaction is over
     * either way, and the caller must not believe its updates were kept. */
    s->in_transaction = false;
    return s->ops->commit(s);
}

void rp_store_rollback(rp_store *s)
{
    if (s == NULL || s->in_callback || !s->in_transaction) {
        return;
    }
    s->in_transaction = false;
    s->ops->rollback(s);
}

/* Parses stored JSON text. what/session_id only name the data in messages. */
static rp_json *parse_stored(rp_store *s, const char *what, const char *session_id,
                             const char *text, size_t len, rp_arena *a)
{
    rp_json_error jerr;
    memset(&jerr, 0, sizeof jerr);
    rp_json *v = rp_json_parse(a, text, len, &jerr);
    if (v == NULL) {
        rp_store_set_error(s, "%s store: corrupt %s of session '%s': line %d column %d: %s",
                           s->ops->name, what, session_id, jerr.line, jerr.col, jerr.msg);
    }
    return v;
}

int rp_store_load_state(rp_store *s, const char *session_id, rp_arena *a, rp_json **state)
{
    if (s == NULL || a == NULL || state == NULL) {
        return -1;
    }
    *state = NULL;
    if (rp_store_enter(s) != 0 || rp_store_check_id(s, "session id", session_id) != 0) {
        return -1;
    }
    char *text = NULL;
    size_t len = 0;
    if (s->ops->load_state(s, session_id, a, &text, &len) != 0) {
        return -1;
    }
    if (text == NULL) {
        *state = rp_json_new(a, rp_json_make_object());
        return 0;
    }
    rp_json *v = parse_stored(s, "state", session_id, text, len, a);
    if (v == NULL) {
        return -1;
    }
    if (v->type != RP_JSON_OBJECT) {
        rp_store_set_error(s, "%s store: corrupt state of session '%s': stored %s, not an object",
                           s->ops->name, session_id, rp_json_type_name(v->type));
        return -1;
    }
    *state = v;
    return 0;
}

int rp_store_save_state(rp_store *s, const char *session_id, const rp_json *state)
{
    if (s == NULL || rp_store_enter(s) != 0 ||
        rp_store_check_id(s, "session id", session_id) != 0) {
        return -1;
    }
    if (state == NULL || state->type != RP_JSON_OBJECT) {
        rp_store_set_error(s, "session state must be an object, got %s",
                           state == NULL ? "nothing" : rp_json_type_name(state->type));
        return -1;
    }
    rp_buf_reset(&s->text);
    rp_json_write(&s->text, state);
    return s->ops->save_state(s, session_id, s->text.data, s->text.len, rp_now_us());
}

int rp_store_put_pending(rp_store *s, const char *session_id, const char *ask_key,
                         const rp_json *updates, const rp_json *policies, int64_t now_us)
{
    if (s == NULL || rp_store_enter(s) != 0 ||
        rp_store_check_id(s, "session id", session_id) != 0 ||
        rp_store_check_id(s, "ask key", ask_key) != 0) {
        return -1;
    }
    if (updates == NULL || updates->type != RP_JSON_ARRAY) {
        rp_store_set_error(s, "pending updates must be an array, got %s",
                           updates == NULL ? "nothing" : rp_json_type_name(updates->type));
        return -1;
    }
    if (policies != NULL && policies->type != RP_JSON_ARRAY) {
        rp_store_set_error(s, "pending policies must be an array, got %s",
                           rp_json_type_name(policies->type));
        return -1;
    }
    rp_buf_reset(&s->text);
    rp_json_write(&s->text, updates);
    rp_buf_reset(&s->text2);
    if (policies != NULL) {
        rp_json_write(&s->text2, policies);
    } else {
        rp_buf_puts(&s->text2, "[]");
    }
    return s->ops->put_pending(s, session_id, ask_key, s->text.data, s->text.len, s->text2.data,
                               s->text2.len, now_us);
}

int rp_store_take_pending(rp_store *s, const char *session_id, const char *ask_key, rp_arena *a,
                          rp_json **updates)
{
    int64_t created_us;
    return rp_store_take_pending_at(s, session_id, ask_key, a, updates, &created_us);
}

int rp_store_take_pending_at(rp_store *s, const char *session_id, const char *ask_key, rp_arena *a,
                             rp_json **updates, int64_t *created_us)
{
    if (s == NULL || a == NULL || updates == NULL || created_us == NULL) {
        return -1;
    }
    *updates = NULL;
    *created_us = 0;
    if (rp_store_enter(s) != 0 || rp_store_check_id(s, "session id", session_id) != 0 ||
        rp_store_check_id(s, "ask key", ask_key) != 0) {
        return -1;
    }
    char *text = NULL;
    size_t len = 0;
    int64_t at = 0;
    if (s->ops->take_pending_at(s, session_id, ask_key, a, &text, &len, &at) != 0) {
        return -1;
    }
    if (text == NULL) {
        return 0;
    }
    rp_json *v = parse_stored(s, "pending updates", session_id, text, len, a);
    if (v == NULL) {
        return -1;
    }
    if (v->type != RP_JSON_ARRAY) {
        rp_store_set_error(s,
                           "%s store: corrupt pending updates of session '%s': stored %s, "
                           "not an array",
                           s->ops->name, session_id, rp_json_type_name(v->type));
        return -1;
    }
    *updates = v;
    *created_us = at;
    return 0;
}

static int check_transcript_key(rp_store *s, const char *session_id, const char *path)
{
    if (rp_store_enter(s) != 0 || rp_store_check_id(s, "session id", session_id) != 0 ||
        rp_store_check_id(s, "transcript path", path) != 0) {
        return -1;
    }
    return 0;
}

int rp_store_get_transcript(rp_store *s, const char *session_id, const char *path, rp_arena *a,
                            rp_transcript_mark *out)
{
    if (s == NULL || a == NULL || out == NULL) {
        return -1;
    }
    memset(out, 0, sizeof *out);
    if (rp_store_enter(s) != 0 || rp_store_check_id(s, "session id", session_id) != 0 ||
        (path != NULL && rp_store_check_id(s, "transcript path", path) != 0)) {
        return -1;
    }
    int rc = s->ops->get_transcript(s, session_id, path, a, out);
    if (rc == 0 && out->offset < 0) {
        rp_store_set_error(s, "%s store: corrupt transcript offset %lld of session '%s'",
                           s->ops->name, (long long)out->offset, session_id);
        return -1;
    }
    if (rc != 0) {
        memset(out, 0, sizeof *out);
    }
    return rc;
}

int rp_store_get_transcript_offset(rp_store *s, const char *session_id, const char *path,
                                   int64_t *offset)
{
    if (s == NULL || offset == NULL) {
        return -1;
    }
    *offset = 0;
    if (check_transcript_key(s, session_id, path) != 0) {
        return -1;
    }
    rp_arena a = {0};
    rp_transcript_mark mark;
    int rc = rp_store_get_transcript(s, session_id, path, &a, &mark);
    *offset = mark.offset;
    rp_arena_free(&a);
    return rc < 0 ? -1 : 0;
}

int rp_store_set_transcript_offset(rp_store *s, const char *session_id, const char *path,
                                   int64_t offset, const char *model)
{
    if (s == NULL || check_transcript_key(s, session_id, path) != 0) {
        return -1;
    }
    if (offset < 0) {
        rp_store_set_error(s, "transcript offset must be >= 0, got %lld", (long long)offset);
        return -1;
    }
    if (model != NULL && model[0] == '\0') {
        model = NULL;
    }
    return s->ops->set_transcript_offset(s, session_id, path, offset, model, rp_now_us());
}

static bool is_known_result(const char *result)
{
    /* ABSTAIN appears when `rampart eval --policy` audits a single abstaining policy; REDACT is
     * an ALLOW whose input a policy rewrote (the host ran the rewritten input). */
    static const char *const known[] = {"ALLOW", "ASK", "DENY", "ABSTAIN", "REDACT"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        if (strcmp(result, known[i]) == 0) {
            return true;
        }
    }
    return false;
}

int rp_store_audit(rp_store *s, const rp_audit_row *row)
{
    if (s == NULL || rp_store_enter(s) != 0) {
        return -1;
    }
    if (row == NULL) {
        rp_store_set_error(s, "audit row is missing");
        return -1;
    }
    if (rp_store_check_id(s, "audit session id", row->session_id) != 0 ||
        rp_store_check_id(s, "audit event type", row->event_type) != 0 ||
        rp_store_check_id(s, "audit result", row->result) != 0) {
        return -1;
    }
    if (!is_known_result(row->result)) {
        rp_store_set_error(s, "audit result '%s' is not ALLOW, ASK, DENY, ABSTAIN or REDACT", row->result);
        return -1;
    }
    rp_audit_row checked = *row;
    if (checked.policies == NULL) {
        checked.policies = "[]";
    } else {
        /* `rampart log --json` splices this text into its output, so it must be valid. */
        rp_arena scratch = {0};
        rp_json_error jerr;
        rp_json *v = rp_json_parse(&scratch, row->policies, strlen(row->policies), &jerr);
        bool is_array = v != NULL && v->type == RP_JSON_ARRAY;
        rp_arena_free(&scratch);
        if (!is_array) {
            rp_store_set_error(s, "audit policies must be a JSON array, got '%.200s'",
                               row->policies);
            return -1;
        }
    }
    return s->ops->audit(s, &checked);
}

int rp_store_audit_query(rp_store *s, const char *session_id, int64_t since_us,
                         int (*fn)(void *self, const rp_audit_row *row), void *self)
{
    if (s == NULL || rp_store_enter(s) != 0) {
        return -1;
    }
    if (fn == NULL) {
        rp_store_set_error(s, "audit query without a callback");
        return -1;
    }
    if (session_id != NULL && rp_store_check_id(s, "session id", session_id) != 0) {
        return -1;
    }
    s->in_callback = true;
    int rc = s->ops->audit_query(s, session_id, since_us, fn, self);
    s->in_callback = false;
    return rc;
}

int rp_store_audit_prune(rp_store *s, int64_t before_us)
{
    if (s == NULL || rp_store_enter(s) != 0) {
        return -1;
    }
    return s->ops->audit_prune(s, before_us);
}

/* realpath() of dir into out (PATH_MAX bytes). */
static int canonical_dir(rp_store *s, const char *dir, char *out)
{
    if (rp_store_check_id(s, "directory", dir) != 0) {
        return -1;
    }
    if (realpath(dir, out) == NULL) {
        rp_store_set_error(s, "cannot resolve directory '%s': %s", dir, strerror(errno));
        return -1;
    }
    return 0;
}

int rp_store_trust(rp_store *s, const char *dir, int64_t now_us)
{
    char canon[PATH_MAX];
    if (s == NULL || rp_store_enter(s) != 0 || canonical_dir(s, dir, canon) != 0) {
        return -1;
    }
    return s->ops->trust(s, canon, now_us);
}

/* Untrusting an untrusted directory succeeds (like DELETE of no row). A directory that no longer
 * exists cannot be resolved, so an absolute path is then removed as given: otherwise a deleted
 * project could never be untrusted. */
int rp_store_untrust(rp_store *s, const char *dir)
{
    char canon[PATH_MAX];
    if (s == NULL || rp_store_enter(s) != 0 || rp_store_check_id(s, "directory", dir) != 0) {
        return -1;
    }
    if (realpath(dir, canon) == NULL) {
        if (dir[0] != '/' || strlen(dir) >= sizeof canon) {
            rp_store_set_error(s, "cannot resolve directory '%s': %s", dir, strerror(errno));
            return -1;
        }
        strcpy(canon, dir);
    }
    return s->ops->untrust(s, canon);
}

/* Fails closed: an unresolvable directory or a store error means "not trusted" (the error is
 * still recorded for callers that want to report it). */
bool rp_store_is_trusted(rp_store *s, const char *dir)
{
    char canon[PATH_MAX];
    if (s == NULL || rp_store_enter(s) != 0 || canonical_dir(s, dir, canon) != 0) {
        return false;
    }
    bool trusted = false;
    if (s->ops->is_trusted(s, canon, &trusted) != 0) {
        return false;
    }
    return trusted;
}
