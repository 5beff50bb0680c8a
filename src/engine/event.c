/* event.c — borrowed views of a PolicyEvent JSON object (reference §1.2–1.3). Nothing is copied
 * and nothing fails: a key that is absent, or present with the wrong type, reads as NULL. */
#include "engine/event.h"

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

static const rp_json *get_object(const rp_json *obj, const char *key)
{
    const rp_json *v = rp_json_get(obj, key);
    return rp_json_is_object(v) ? v : NULL;
}

bool rp_event_from_json(const rp_json *root, rp_event *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->type_name = "";
    if (!rp_json_is_object(root))
        return false;

    ev->root = root;
    const char *type = rp_json_get_str(root, "type");
    ev->type_name = type ? type : "";
    ev->type = rp_event_type_from_string(type);
    ev->target = rp_json_get_str(root, "target");
    ev->data = rp_json_get(root, "data");
    ev->context = get_object(root, "context");
    ev->session_state = get_object(root, "session_state");
    ev->request_data = get_object(root, "request_data");
    ev->session_id = rp_json_get_str(root, "session_id");

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

    const rp_json *ctx = ev->context;
    ev->actor = get_object(ctx, "actor");
    ev->usage = get_object(ctx, "usage");
    ev->labels = get_object(ctx, "labels");
    ev->model = rp_json_get_str(ctx, "model");
    ev->harness = rp_json_get_str(ctx, "harness");
    ev->cwd = rp_json_get_str(ctx, "cwd");
    ev->home = rp_json_get_str(ctx, "home");
    ev->user = rp_json_get_str(ctx, "user");
    if (ev->user == NULL)
        ev->user = rp_json_get_str(ev->actor, "run_as");
    ev->parent_session_id = rp_json_get_str(ctx, "parent_session_id");
    ev->root_session_id = rp_json_get_str(ctx, "root_session_id");
    ev->host = rp_json_get_str(ctx, "host");
    ev->tool_use_id = rp_json_get_str(ctx, "tool_use_id");
    ev->permission_mode = rp_json_get_str(ctx, "permission_mode");
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
