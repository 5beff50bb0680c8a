/* event.c — borrowed views of a PolicyEvent JSON object (reference §1.2–1.3). Nothing is copied
 * and reading fails on nothing: a key that is absent, or present with the wrong type, reads as
 * NULL. rp_event_check_ids is the one bound on the length of its identifiers. */
#include "engine/event.h"

#include <stdio.h>
#include <string.h>

#include "core/buf.h"

static const struct {
    rp_event_type type;
    const char *name;
} event_type_names[] = {
    {RP_EV_REQUEST, "request"},
    {RP_EV_TOOL_CALL, "tool_call"},
    {RP_EV_TOOL_RESULT, "tool_result"},
    {RP_EV_RESPONSE, "response"},
    {RP_EV_LLM_REQUEST, "llm_request"},
    {RP_EV_LLM_RESPONSE, "llm_response"},
    {RP_EV_SESSION_START, "session_start"},
    {RP_EV_SESSION_END, "session_end"},
    {RP_EV_STOP, "stop"},
};

rp_event_type rp_event_type_from_string(const char *s)
{
    if (s == NULL)
        return RP_EV_UNKNOWN;
    for (size_t i = 0; i < sizeof event_type_names / sizeof event_type_names[0]; i++)
        if (strcmp(s, event_type_names[i].name) == 0)
            return event_type_names[i].type;
    return RP_EV_UNKNOWN;
}

const char *rp_event_type_string(rp_event_type t)
{
    for (size_t i = 0; i < sizeof event_type_names / sizeof event_type_names[0]; i++)
        if (event_type_names[i].type == t)
            return event_type_names[i].name;
    return "";
}

/* Several lookups in one object, in one pass over its members. rp_json_get's rule holds: the
 * last member with a key wins (a later match overwrites an earlier one). Building an event asks
 * the envelope for 7 keys and the context for 13, so one pass with length checks first is much
 * cheaper than a strlen and a member scan per key. */
typedef struct wanted_key {
    const char *key;
    uint32_t len;
    const rp_json *found;
} wanted_key;

#define WANT(k)                                                                                    \
    {                                                                                              \
        k, sizeof k - 1, NULL                                                                      \
    }

/* The keys are a few bytes long: a plain loop beats a call to memcmp. */
static bool key_equal(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

static void find_keys(const rp_json *obj, wanted_key *want, size_t n)
{
    if (!rp_json_is_object(obj))
        return;
    for (uint32_t i = 0; i < obj->len; i++) {
        const rp_json_member *m = &obj->v.members[i];
        for (size_t k = 0; k < n; k++) {
            if (m->key_len == want[k].len && key_equal(m->key, want[k].key, want[k].len)) {
                want[k].found = &m->value;
                break; /* the wanted keys are distinct */
            }
        }
    }
}

static const rp_json *as_object(const rp_json *v)
{
    return rp_json_is_object(v) ? v : NULL;
}

bool rp_event_from_json(const rp_json *root, rp_event *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->type_name = "";
    if (!rp_json_is_object(root))
        return false;

    enum { TYPE, TARGET, DATA, CONTEXT, SESSION_STATE, REQUEST_DATA, SESSION_ID, N_TOP };
    wanted_key top[N_TOP] = {WANT("type"),      WANT("target"),        WANT("data"),
                             WANT("context"),   WANT("session_state"), WANT("request_data"),
                             WANT("session_id")};
    find_keys(root, top, N_TOP);

    ev->root = root;
    const char *type = rp_json_str(top[TYPE].found);
    ev->type_name = type ? type : "";
    ev->type = rp_event_type_from_string(type);
    ev->target = rp_json_str(top[TARGET].found);
    ev->data = top[DATA].found;
    ev->context = as_object(top[CONTEXT].found);
    ev->session_state = as_object(top[SESSION_STATE].found);
    ev->request_data = as_object(top[REQUEST_DATA].found);
    ev->session_id = rp_json_str(top[SESSION_ID].found);

    /* The tool name: what the call itself says first, then the envelope, then (tool_result)
     * the original call. */
    const char *data_name = rp_json_is_object(ev->data) ? rp_json_get_str(ev->data, "name") : NULL;
    if (data_name)
        ev->tool_name = data_name;
    else if (ev->target)
        ev->tool_name = ev->target;
    else
        ev->tool_name = rp_json_get_str(ev->request_data, "name");

    if (ev->type == RP_EV_TOOL_CALL && rp_json_is_object(ev->data))
        ev->arguments = rp_json_get(ev->data, "arguments");
    else if (ev->type == RP_EV_TOOL_RESULT)
        ev->arguments = rp_json_get(ev->request_data, "arguments");

    enum {
        ACTOR,
        USAGE,
        LABELS,
        MODEL,
        HARNESS,
        CWD,
        HOME,
        USER,
        PARENT_SESSION_ID,
        ROOT_SESSION_ID,
        HOST,
        TOOL_USE_ID,
        PERMISSION_MODE,
        N_CONTEXT
    };
    wanted_key ctx[N_CONTEXT] = {
        WANT("actor"),
        WANT("usage"),
        WANT("labels"),
        WANT("model"),
        WANT("harness"),
        WANT("cwd"),
        WANT("home"),
        WANT("user"),
        WANT("parent_session_id"),
        WANT("root_session_id"),
        WANT("host"),
        WANT("tool_use_id"),
        WANT("permission_mode"),
    };
    find_keys(ev->context, ctx, N_CONTEXT);
    ev->actor = as_object(ctx[ACTOR].found);
    ev->usage = as_object(ctx[USAGE].found);
    ev->labels = as_object(ctx[LABELS].found);
    ev->model = rp_json_str(ctx[MODEL].found);
    ev->harness = rp_json_str(ctx[HARNESS].found);
    ev->cwd = rp_json_str(ctx[CWD].found);
    ev->home = rp_json_str(ctx[HOME].found);
    ev->user = rp_json_str(ctx[USER].found);
    if (ev->user == NULL)
        ev->user = rp_json_get_str(ev->actor, "run_as");
    ev->parent_session_id = rp_json_str(ctx[PARENT_SESSION_ID].found);
    ev->root_session_id = rp_json_str(ctx[ROOT_SESSION_ID].found);
    ev->host = rp_json_str(ctx[HOST].found);
    ev->tool_use_id = rp_json_str(ctx[TOOL_USE_ID].found);
    ev->permission_mode = rp_json_str(ctx[PERMISSION_MODE].found);
    return true;
}

bool rp_id_check(const char *field, const char *value, char *err, size_t err_size)
{
    if (value == NULL || strnlen(value, RP_ID_MAX + 1) <= RP_ID_MAX)
        return true;
    snprintf(err, err_size, "%s is %zu bytes long; identifiers are limited to %d bytes", field,
             strlen(value), RP_ID_MAX);
    return false;
}

bool rp_event_check_ids(const rp_event *ev, char *err, size_t err_size)
{
    const struct {
        const char *field;
        const char *value;
    } ids[] = {
        {"session_id", ev->session_id},
        {"context.parent_session_id", ev->parent_session_id},
        {"context.root_session_id", ev->root_session_id},
        {"context.user", ev->user},
        {"context.model", ev->model},
        {"tool name", ev->tool_name},
        {"context.tool_use_id", ev->tool_use_id},
        {"context.host", ev->host},
        {"context.harness", ev->harness},
        {"context.permission_mode", ev->permission_mode},
    };
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        if (!rp_id_check(ids[i].field, ids[i].value, err, err_size))
            return false;
    return true;
}

/* The "text" fields of a list of content blocks, joined by "\n"; NULL when there are none. */
static const char *join_text_blocks(const rp_json *list, rp_arena *a)
{
    rp_buf b = {0};
    size_t found = 0;

    for (uint32_t i = 0; i < list->len; i++) {
        const char *text = rp_json_get_str(&list->v.items[i], "text");
        if (text == NULL)
            continue;
        if (found++ > 0)
            rp_buf_putc(&b, '\n');
        rp_buf_puts(&b, text);
    }
    if (found == 0)
        return NULL;
    char *r = rp_arena_strndup(a, b.data ? b.data : "", b.len);
    rp_buf_free(&b);
    return r;
}

const char *rp_event_request_text(const rp_event *ev, rp_arena *a)
{
    const rp_json *d = ev->data;

    if (d == NULL)
        return NULL;
    if (rp_json_is_string(d))
        return d->v.s;
    if (rp_json_is_array(d))
        return join_text_blocks(d, a);
    if (!rp_json_is_object(d))
        return NULL;

    const rp_json *content = rp_json_get(d, "user_content");
    if (rp_json_is_string(content))
        return content->v.s;
    if (rp_json_is_array(content))
        return join_text_blocks(content, a);
    return rp_json_get_str(d, "text");
}
