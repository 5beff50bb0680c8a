/* event.h — the PolicyEvent a policy sees (Omnigent's shape, reference §1.2–1.3, plus rampart's
 * fields). rp_event is a set of borrowed views into the parsed JSON: nothing is copied, every
 * absent key is NULL, and reading fails only on "the event is not a JSON object"; identifiers
 * are bounded by rp_event_check_ids. */
#ifndef RAMPART_ENGINE_EVENT_H
#define RAMPART_ENGINE_EVENT_H

#include <stdbool.h>

#include "core/json.h"

typedef enum rp_event_type {
    RP_EV_UNKNOWN = 0, /* any other `type` string: evaluated, policies abstain */
    RP_EV_REQUEST,
    RP_EV_TOOL_CALL,
    RP_EV_TOOL_RESULT,
    RP_EV_RESPONSE,
    RP_EV_LLM_REQUEST,
    RP_EV_LLM_RESPONSE,
    RP_EV_SESSION_START,
    RP_EV_SESSION_END,
    RP_EV_STOP
} rp_event_type;

typedef struct rp_event {
    const rp_json *root; /* the whole event object */

    rp_event_type type;
    const char *type_name; /* as written; "" when absent */
    const char *target;    /* top-level `target` when a string */
    const rp_json *data;   /* any JSON type, NULL when absent */
    const rp_json *context;       /* object or NULL */
    const rp_json *session_state; /* object or NULL (the event's own, used when stateless) */
    const rp_json *request_data;  /* tool_result: the original call {name, arguments} */
    const char *session_id;       /* top-level `session_id`, NULL when absent */

    /* Tool events. tool_name: data.name when data is an object with a string name, else
     * `target`, else request_data.name. arguments: data.arguments (any type) for tool_call;
     * request_data.arguments for tool_result. */
    const char *tool_name;
    const rp_json *arguments;

    /* context.* (strings NULL when absent or not strings) */
    const rp_json *actor;  /* object or NULL */
    const rp_json *usage;  /* object or NULL */
    const rp_json *labels; /* object or NULL */
    const char *model;
    const char *harness;
    const char *cwd;
    const char *home;
    const char *user; /* context.user, else context.actor.run_as */
    const char *parent_session_id;
    const char *root_session_id;
    const char *host;
    const char *tool_use_id;
    const char *permission_mode;
} rp_event;

/* The longest identifier rampart accepts, in bytes: session ids (a Claude sub-agent's is
 * `<uuid>/agent/<id>`, under 100), user, model, tool, tool_use_id, host and harness names, policy
 * names. They are stored, hashed and printed; a longer one is a malformed input, not a slow one. */
#define RP_ID_MAX 512

/* Whether `value` (NULL passes) fits RP_ID_MAX; if not, err says which field and the limit. */
bool rp_id_check(const char *field, const char *value, char *err, size_t err_size);

/* rp_id_check over every identifier of the event; false at the first one too long. */
bool rp_event_check_ids(const rp_event *ev, char *err, size_t err_size);

/* Fills ev from a parsed JSON value. Returns false (ev zeroed) when root is not an object. */
bool rp_event_from_json(const rp_json *root, rp_event *ev);
rp_event_type rp_event_type_from_string(const char *s);
const char *rp_event_type_string(rp_event_type t); /* canonical wire name, "" for UNKNOWN */

/* The text of a `request` event's user content: data.user_content (string), data.text, a bare
 * string, or the "text" fields of a list of content blocks joined by "\n". NULL when none. */
const char *rp_event_request_text(const rp_event *ev, rp_arena *a);

#endif
