/* pi_shape.c — the extension protocol of the Pi and opencode adapters (pi_shape.h; the
 * protocol itself is documented at the top of pi.c). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/sha256.h"
#include "hosts/pi_shape.h"

static const struct {
    const char *name;
    rp_hook_phase phase;
    const char *type; /* the PolicyEvent type */
    bool opencode_only;
} events[] = {
    {"tool_call", RP_HOOK_PRE_TOOL, "tool_call", false},
    {"tool_result", RP_HOOK_POST_TOOL, "tool_result", false},
    {"input", RP_HOOK_PROMPT, "request", false},
    {"session_start", RP_HOOK_SESSION_START, "session_start", false},
    {"session_shutdown", RP_HOOK_SESSION_END, "session_end", false},
    {"turn_end", RP_HOOK_STOP, "stop", false},
    {"message_end", RP_HOOK_LLM_RESPONSE, "llm_response", false},
    {"tool.execute.before", RP_HOOK_PRE_TOOL, "tool_call", true},
    {"tool.execute.after", RP_HOOK_POST_TOOL, "tool_result", true},
    {"chat.message", RP_HOOK_PROMPT, "request", true},
    {"session.idle", RP_HOOK_STOP, "stop", true},
};

/* The index of name in events, or -1. An unknown event is an error, not ignored: the
 * extension and this adapter ship together, so a name this side does not know is a bug (or a
 * mismatched install) that must show. */
static int event_index(const char *name, bool opencode)
{
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
        if (strcmp(events[i].name, name) == 0 && (opencode || !events[i].opencode_only))
            return (int)i;
    return -1;
}

/* tool_name (required) and input (an object; required before the call, optional after it:
 * opencode's tool.execute.after does not always have the arguments). */
static int read_tool(const rp_json *payload, rp_hook_call *call, char *err, size_t err_size)
{
    if (rp_hook_opt_str(payload, "tool_name", &call->tool_name, err, err_size) != 0)
        return -1;
    if (call->tool_name == NULL)
        return rp_hook_fail(err, err_size, "tool_name is missing");
    const rp_json *input = rp_json_get(payload, "input");
    if (call->phase == RP_HOOK_POST_TOOL && (input == NULL || input->type == RP_JSON_NULL))
        return 0;
    if (!rp_json_is_object(input))
        return rp_hook_fail(err, err_size, "input must be an object, not %s",
                            input ? rp_json_type_name(input->type) : "missing");
    call->tool_input = input;
    return 0;
}

/* The tool's output (call->tool_output) and the extension's is_error (Pi's isError, the
 * opencode plugin's exit status): absent or null means the host gave no signal. */
static int read_result(const rp_json *payload, rp_hook_call *call, rp_hook_tool_outcome *outcome,
                       char *err, size_t err_size)
{
    const rp_json *is_error = rp_json_get(payload, "is_error");
    if (is_error && is_error->type != RP_JSON_NULL && is_error->type != RP_JSON_BOOL)
        return rp_hook_fail(err, err_size, "is_error must be a boolean, not %s",
                            rp_json_type_name(is_error->type));
    call->tool_output = rp_json_get(payload, "output");
    *outcome = is_error == NULL || is_error->type == RP_JSON_NULL ? RP_HOOK_TOOL_UNKNOWN
               : is_error->v.b                                    ? RP_HOOK_TOOL_ERROR
                                                                  : RP_HOOK_TOOL_OK;
    return 0;
}

/* Pi's message usage {input, output, cacheRead, cacheWrite, cost{total}} in the ledger's
 * names. The values are copied as sent; the ledger checks them (rp_cost_usage_read). */
static int usage_of(const rp_json *usage, rp_arena *a, rp_json *out, char *err, size_t err_size)
{
    static const char *const names[][2] = {{"input", "input_tokens"},
                                           {"output", "output_tokens"},
                                           {"cacheRead", "cache_read_input_tokens"},
                                           {"cacheWrite", "cache_creation_input_tokens"}};
    if (!rp_json_is_object(usage))
        return rp_hook_fail(err, err_size, "usage must be an object, not %s",
                            rp_json_type_name(usage->type));
    *out = rp_json_make_object();
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const rp_json *v = rp_json_get(usage, names[i][0]);
        if (v && v->type != RP_JSON_NULL)
            rp_json_object_set(a, out, names[i][1], *v);
    }
    const rp_json *cost = rp_json_get(usage, "cost");
    if (cost && cost->type != RP_JSON_NULL) {
        const rp_json *total = rp_json_get(cost, "total");
        if (!rp_json_is_object(cost) || !rp_json_is_number(total))
            return rp_hook_fail(err, err_size, "usage.cost must be an object with a number total");
        rp_json_object_set(a, out, "cost_usd", *total);
    }
    return 0;
}

static int parse_message_end(const rp_json *payload, rp_arena *a, rp_hook_call *call,
                             const char *model, char *err, size_t err_size)
{
    rp_json data = rp_json_make_object();
    if (model)
        rp_json_object_set(a, &data, "model", rp_json_make_string_ref(model));
    const rp_json *usage = rp_json_get(payload, "usage");
    if (usage && usage->type != RP_JSON_NULL) {
        const char *id;
        rp_json mapped;
        if (rp_hook_opt_str(payload, "message_id", &id, err, err_size) != 0 ||
            usage_of(usage, a, &mapped, err, err_size) != 0)
            return -1;
        rp_json_object_set(a, &data, "usage", mapped);
        if (id)
            rp_json_object_set(a, &data, "id", rp_json_make_string_ref(id));
        call->usage = rp_json_new(a, data);
    }
    rp_json_object_set(a, &call->event, "data", data);
    return 0;
}

/* Fills the fields before the event is built: the tool, its id, the prompt. */
static int read_fields(const rp_json *payload, rp_arena *a, rp_hook_call *call,
                       rp_hook_ctx_fields *f, char *err, size_t err_size)
{
    if (rp_hook_opt_str(payload, "model", &f->model, err, err_size) != 0)
        return -1;
    switch (call->phase) {
    case RP_HOOK_PRE_TOOL:
    case RP_HOOK_POST_TOOL:
        if (read_tool(payload, call, err, err_size) != 0 ||
            rp_hook_opt_str(payload, "tool_call_id", &f->tool_use_id, err, err_size) != 0)
            return -1;
        if (f->tool_use_id == NULL)
            f->tool_use_id = rp_hook_call_key(a, call->tool_name, call->tool_input);
        /* The extension asks the person (ctx.ui.confirm, or opencode's RAMPART_OPENCODE_ASK)
         * and writes a rewritten input back into the call. */
        call->can_ask = call->can_rewrite = call->phase == RP_HOOK_PRE_TOOL;
        return 0;
    case RP_HOOK_PROMPT: {
        const rp_json *prompt = rp_json_get(payload, "prompt");
        if (!rp_json_is_string(prompt))
            return rp_hook_fail(err, err_size, "prompt must be a string, not %s",
                                prompt ? rp_json_type_name(prompt->type) : "missing");
        f->tool_use_id = rp_hook_prompt_key(a, prompt->v.s);
        call->can_ask = true;
        return 0;
    }
    default:
        return 0;
    }
}

int rp_hook_pi_shape_parse(const rp_hook_adapter *host, bool opencode, const rp_json *payload,
                           const rp_hook_env *env, rp_arena *a, rp_hook_call *call, char *err,
                           size_t err_size)
{
    memset(call, 0, sizeof *call);
    call->phase = RP_HOOK_PRE_TOOL; /* until the event name says otherwise: the form that blocks */
    if (!rp_json_is_object(payload))
        return rp_hook_fail(err, err_size, "the hook input must be a JSON object, not %s",
                            payload ? rp_json_type_name(payload->type) : "nothing");
    const char *name;
    if (rp_hook_opt_str(payload, "event", &name, err, err_size) != 0)
        return -1;
    if (name == NULL)
        return rp_hook_fail(err, err_size, "event is missing");
    call->host_event = name;
    int idx = event_index(name, opencode);
    if (idx < 0)
        return rp_hook_fail(
            err, err_size,
            "unknown event '%s' (known: tool_call, tool_result, input, session_start, "
            "session_shutdown, turn_end, message_end%s)",
            name,
            opencode ? ", tool.execute.before, tool.execute.after, chat.message, "
                       "session.idle"
                     : "");
    call->phase = events[idx].phase;
    /* Pi's `input` handler can return {action: "transform", text}: a prompt is redacted there
     * rather than blocked. opencode's chat.message has no such answer. */
    call->can_rewrite = call->phase == RP_HOOK_PROMPT && !opencode;

    const char *sid;
    if (rp_hook_opt_str(payload, "session_id", &sid, err, err_size) != 0)
        return -1;
    if (sid == NULL)
        return rp_hook_fail(err, err_size, "session_id is missing");
    call->session_id = sid;

    rp_hook_ctx_fields f = {0};
    const char *tool = NULL;
    if (rp_hook_opt_str(payload, "cwd", &f.cwd, err, err_size) != 0 ||
        read_fields(payload, a, call, &f, err, err_size) != 0)
        return -1;
    /* An MCP tool (opencode's <server>_<tool>; the plugin sends mcp {server, tool}) goes to
     * the policies by the one MCP name they know; call->tool_name stays the host's. */
    if ((call->phase == RP_HOOK_PRE_TOOL || call->phase == RP_HOOK_POST_TOOL) &&
        rp_hook_mcp_tool_name(payload, "mcp", "server", "tool", call->tool_name, a, &tool, err,
                              err_size) != 0)
        return -1;
    call->event = rp_hook_event_new(a, host, env, events[idx].type, sid, &f);
    switch (call->phase) {
    case RP_HOOK_PRE_TOOL:
        rp_hook_event_tool_call(a, &call->event, tool, call->tool_input);
        return 0;
    case RP_HOOK_POST_TOOL: {
        rp_hook_tool_outcome outcome = RP_HOOK_TOOL_UNKNOWN;
        if (read_result(payload, call, &outcome, err, err_size) != 0)
            return -1;
        rp_hook_event_tool_result(a, &call->event, tool, call->tool_input, call->tool_output,
                                  outcome);
        return 0;
    }
    case RP_HOOK_PROMPT:
        rp_hook_event_request(a, &call->event, rp_json_get_str(payload, "prompt"));
        return 0;
    case RP_HOOK_LLM_RESPONSE:
        return parse_message_end(payload, a, call, f.model, err, err_size);
    default:
        /* Stop and session events carry no data: null, as in a PolicyEvent. */
        rp_json_object_set(a, &call->event, "data", rp_json_make_null());
        return 0;
    }
}

/* ---- the answer ---- */

static const char *nonempty(const char *reason, const char *fallback)
{
    return reason && reason[0] ? reason : fallback;
}

void rp_hook_pi_shape_answer(const rp_hook_call *call, const rp_hook_verdict *v,
                             const rp_host_settings *settings, rp_arena *a, rp_hook_answer *out)
{
    (void)settings; /* the extension decides how to act; no per-host setting changes the JSON */
    const char *result = v->result == RP_DENY ? "DENY" : v->result == RP_ASK ? "ASK" : "ALLOW";
    const char *reason = v->reason && v->reason[0] ? v->reason : NULL;
    const rp_json *input = NULL;
    const char *prompt = NULL;
    bool gated = call->phase == RP_HOOK_PRE_TOOL || call->phase == RP_HOOK_PROMPT ||
                 call->phase == RP_HOOK_POST_TOOL;
    /* A rewrite, also with an ASK: the extension applies it only once the person approved, so
     * what runs is what was approved. It can rewrite a tool's input before the call and (Pi)
     * a prompt; not an output. */
    if (v->result != RP_DENY && v->data && gated) {
        const rp_json *args = rp_json_get(v->data, "arguments");
        const char *text = rp_json_get_str(v->data, "user_content");
        if (call->can_rewrite && call->phase == RP_HOOK_PROMPT && text) {
            prompt = text;
        } else if (call->can_rewrite && call->phase == RP_HOOK_PRE_TOOL &&
                   rp_json_is_object(args)) {
            input = args;
        } else {
            result = "DENY";
            const char *what = call->phase == RP_HOOK_PROMPT      ? "the prompt"
                               : call->phase == RP_HOOK_POST_TOOL ? "the tool output"
                                                                  : "the input";
            reason = rp_arena_sprintf(
                a, "%s would have to be rewritten, which rampart cannot do here: %s", what,
                nonempty(v->reason, "a policy rewrote it"));
            rp_hook_told(out, RP_DENY, reason);
        }
    }
    if (v->result != RP_ALLOW && reason == NULL)
        reason = v->result == RP_DENY ? "denied by rampart" : "rampart asks for approval";
    rp_json top = rp_json_make_object();
    rp_json_object_set(a, &top, "result", rp_json_make_string_ref(result));
    rp_json_object_set(a, &top, "reason",
                       reason ? rp_json_make_string_ref(reason) : rp_json_make_null());
    if (input)
        rp_json_object_set(a, &top, "input", *input);
    if (prompt)
        rp_json_object_set(a, &top, "prompt", rp_json_make_string_ref(prompt));
    rp_json_write(&out->out, &top);
    rp_buf_putc(&out->out, '\n');
    out->exit_code = 0;
}
