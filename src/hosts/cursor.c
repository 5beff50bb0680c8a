/* cursor.c — the Cursor adapter (agent-hosts.md A.3).
 *
 * Cursor's events each carry their own fields; the session is `conversation_id`, the host's
 * user `user_email`, the cwd `cwd` or else the first workspace root. Cursor has no call id, so
 * context.tool_use_id is rp_hook_call_key over the tool and its arguments, the same for the
 * before- and after-event of one call (an approved ASK is found again that way).
 *
 * The answers, each in the one form Cursor reads for the event:
 *   beforeShellExecution, beforeMCPExecution, preToolUse
 *         DENY  {"permission":"deny","user_message":R,"agent_message":R}
 *         ASK   {"permission":"ask",...} on shell and MCP calls, the only events where Cursor
 *               asks; elsewhere a deny with the reason.
 *         ALLOW {}: no permission at all, so Cursor's own settings (its allow list, its own
 *               prompts) still decide; with allow_overrides {"permission":"allow"}.
 *         A rewrite (REDACT) cannot be applied (updated_input is documented by third parties
 *         only), so it is a deny: the call must not run as it was, also when it came with an
 *         ASK (the person would approve the unredacted call).
 *   beforeReadFile  the same, but only {"permission":...}: it takes no messages.
 *   beforeSubmitPrompt  {"continue":false,"user_message":R} blocks (ASK and rewrites too: a
 *         prompt can be neither asked about nor rewritten); ALLOW {"continue":true}.
 *   after-events, stop, sessionStart/sessionEnd: {} (fire-and-forget; a stop's only output,
 *         followup_message, would make the agent go on). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hosts/claude_shape.h"

extern const rp_hook_adapter rp_host_cursor;

static const struct {
    const char *name;
    rp_hook_phase phase;
} events[] = {
    {"beforeShellExecution", RP_HOOK_PRE_TOOL},
    {"beforeMCPExecution", RP_HOOK_PRE_TOOL},
    {"beforeReadFile", RP_HOOK_PRE_TOOL},
    {"preToolUse", RP_HOOK_PRE_TOOL},
    {"afterShellExecution", RP_HOOK_POST_TOOL},
    {"afterMCPExecution", RP_HOOK_POST_TOOL},
    {"postToolUse", RP_HOOK_POST_TOOL},
    {"postToolUseFailure", RP_HOOK_POST_TOOL},
    {"afterFileEdit", RP_HOOK_POST_TOOL},
    {"beforeSubmitPrompt", RP_HOOK_PROMPT},
    {"stop", RP_HOOK_STOP},
    {"sessionStart", RP_HOOK_SESSION_START},
    {"sessionEnd", RP_HOOK_SESSION_END},
};

static rp_hook_phase event_phase(const char *name)
{
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
        if (strcmp(events[i].name, name) == 0)
            return events[i].phase;
    return RP_HOOK_IGNORED; /* afterAgentResponse, afterAgentThought, Tab events, ... */
}

static bool is(const char *a, const char *b)
{
    return a && strcmp(a, b) == 0;
}

/* A required string field. */
static int need_str(const rp_json *payload, const char *key, const char **out, char *err,
                    size_t err_size)
{
    if (rp_hook_opt_str(payload, key, out, err, err_size) != 0)
        return -1;
    return *out ? 0 : rp_hook_fail(err, err_size, "%s is missing", key);
}

/* The tool input of an MCP or generic tool event, under `key` or (Cursor 1.7) `camel`. Some
 * versions send it as a JSON *string*: it is parsed. Absent, null or "" is {}. Anything that is
 * not an object (a number, an array, a string that is not a JSON object) is {} as well, with
 * the value kept as arguments.raw_input so that the policies still see its text. */
static const rp_json *tool_input(const rp_json *payload, const char *key, const char *camel,
                                 rp_arena *a)
{
    const rp_json *in = rp_json_get(payload, key);
    if (in == NULL && camel)
        in = rp_json_get(payload, camel);
    if (rp_json_is_object(in))
        return in;
    rp_json args = rp_json_make_object();
    if (in == NULL || in->type == RP_JSON_NULL || (rp_json_is_string(in) && in->len == 0))
        return rp_json_new(a, args);
    if (rp_json_is_string(in)) {
        rp_json_error jerr;
        rp_json *parsed = rp_json_parse(a, in->v.s, in->len, &jerr);
        if (rp_json_is_object(parsed))
            return parsed;
    }
    rp_json_object_set(a, &args, "raw_input", *in);
    return rp_json_new(a, args);
}

/* The agent's cwd: `cwd` (may be empty), else workspace_roots[0]. */
static int read_cwd(const rp_json *payload, const char **cwd, char *err, size_t err_size)
{
    if (rp_hook_opt_str(payload, "cwd", cwd, err, err_size) != 0)
        return -1;
    const rp_json *roots = rp_json_get(payload, "workspace_roots");
    if (*cwd || roots == NULL || roots->type == RP_JSON_NULL)
        return 0;
    if (!rp_json_is_array(roots))
        return rp_hook_fail(err, err_size, "workspace_roots must be an array, not %s",
                            rp_json_type_name(roots->type));
    const rp_json *first = rp_json_at(roots, 0);
    if (first && !rp_json_is_string(first))
        return rp_hook_fail(err, err_size, "workspace_roots[0] must be a string, not %s",
                            rp_json_type_name(first->type));
    *cwd = first && first->len ? first->v.s : NULL;
    return 0;
}

static rp_json obj1(rp_arena *a, const char *key, const char *value)
{
    rp_json o = rp_json_make_object();
    rp_json_object_set(a, &o, key, rp_json_make_string_ref(value));
    return o;
}

/* An exit status the payload carries (`exit_code`, an integer), else UNKNOWN: Cursor's
 * afterShellExecution is documented with the output only, and then the text heuristics decide. */
static rp_hook_tool_outcome shell_outcome(const rp_json *payload)
{
    const rp_json *code = rp_json_get(payload, "exit_code");
    if (!rp_json_is_integer(code))
        return RP_HOOK_TOOL_UNKNOWN;
    return code->type == RP_JSON_INT && code->v.i == 0    ? RP_HOOK_TOOL_OK
           : code->type == RP_JSON_UINT && code->v.u == 0 ? RP_HOOK_TOOL_OK
                                                          : RP_HOOK_TOOL_ERROR;
}

/* The tool name and arguments of a tool event, and for an after-event the host's output
 * (call->tool_output) and what the host says of its success (tool_result.h). */
static int read_call(const rp_json *payload, rp_arena *a, rp_hook_call *call,
                     rp_hook_tool_outcome *outcome, char *err, size_t err_size)
{
    *outcome = RP_HOOK_TOOL_UNKNOWN;
    const char *ev = call->host_event;
    const char *s;
    if (is(ev, "beforeShellExecution") || is(ev, "afterShellExecution")) {
        if (need_str(payload, "command", &s, err, err_size) != 0)
            return -1;
        call->tool_name = "Shell";
        call->tool_input = rp_json_new(a, obj1(a, "command", s));
        if (is(ev, "afterShellExecution")) {
            const rp_json *output = rp_json_get(payload, "output");
            if (output == NULL)
                return rp_hook_fail(err, err_size, "output is missing");
            call->tool_output = output;
            *outcome = shell_outcome(payload);
        }
        return 0;
    }
    if (is(ev, "beforeReadFile")) {
        if (need_str(payload, "file_path", &s, err, err_size) != 0)
            return -1;
        rp_json args = obj1(a, "file_path", s);
        const rp_json *content = rp_json_get(payload, "content");
        if (content && content->type != RP_JSON_NULL) {
            if (!rp_json_is_string(content))
                return rp_hook_fail(err, err_size, "content must be a string, not %s",
                                    rp_json_type_name(content->type));
            rp_json_object_set(a, &args, "content", *content); /* deny_secrets scans it */
        }
        call->tool_name = "Read";
        call->tool_input = rp_json_new(a, args);
        return 0;
    }
    if (is(ev, "afterFileEdit")) {
        if (need_str(payload, "file_path", &s, err, err_size) != 0)
            return -1;
        rp_json args = obj1(a, "file_path", s);
        const rp_json *edits = rp_json_get(payload, "edits");
        if (edits && !rp_json_is_array(edits))
            return rp_hook_fail(err, err_size, "edits must be an array, not %s",
                                rp_json_type_name(edits->type));
        rp_json_object_set(a, &args, "edits", edits ? *edits : rp_json_make_array());
        call->tool_name = "Edit";
        call->tool_input = rp_json_new(a, args);
        call->tool_output = edits ? edits : rp_json_new(a, rp_json_make_array());
        *outcome = RP_HOOK_TOOL_OK; /* the edit was made: that is what the event reports */
        return 0;
    }
    /* beforeMCPExecution / afterMCPExecution / preToolUse / postToolUse(Failure) */
    if (rp_hook_opt_str(payload, "tool_name", &call->tool_name, err, err_size) != 0)
        return -1;
    if (call->tool_name == NULL &&
        rp_hook_opt_str(payload, "toolName", &call->tool_name, err, err_size) != 0)
        return -1;
    if (call->tool_name == NULL)
        return rp_hook_fail(err, err_size, "tool_name is missing");
    call->tool_input = tool_input(payload, "tool_input", "toolInput", a);
    const char *what = is(ev, "afterMCPExecution")    ? "result_json"
                       : is(ev, "postToolUse")        ? "tool_output"
                       : is(ev, "postToolUseFailure") ? "error_message"
                                                      : NULL;
    if (what == NULL)
        return 0;
    const rp_json *r = rp_json_get(payload, what);
    if (r == NULL && is(ev, "postToolUseFailure"))
        r = rp_json_get(payload, what = "error");
    if (r == NULL)
        return rp_hook_fail(err, err_size, "%s is missing", what);
    if (is(ev, "postToolUseFailure")) {
        if (!rp_json_is_string(r))
            return rp_hook_fail(err, err_size, "%s must be a string, not %s", what,
                                rp_json_type_name(r->type));
        *outcome = RP_HOOK_TOOL_ERROR;
    } else if (is(ev, "postToolUse")) {
        *outcome = rp_hook_tool_outcome_claude(r); /* a failure comes as postToolUseFailure */
    }
    call->tool_output = r;
    return 0;
}

static const char *event_type(rp_hook_phase p)
{
    switch (p) {
    case RP_HOOK_PRE_TOOL:
        return "tool_call";
    case RP_HOOK_POST_TOOL:
        return "tool_result";
    case RP_HOOK_PROMPT:
        return "request";
    case RP_HOOK_SESSION_START:
        return "session_start";
    case RP_HOOK_SESSION_END:
        return "session_end";
    default:
        return "stop";
    }
}

static int parse(const rp_json *payload, const rp_hook_env *env, rp_arena *a, rp_hook_call *call,
                 char *err, size_t err_size)
{
    memset(call, 0, sizeof *call);
    call->phase = RP_HOOK_PRE_TOOL;
    if (!rp_json_is_object(payload))
        return rp_hook_fail(err, err_size, "the hook input must be a JSON object, not %s",
                            payload ? rp_json_type_name(payload->type) : "nothing");
    const char *name;
    if (need_str(payload, "hook_event_name", &name, err, err_size) != 0)
        return -1;
    call->host_event = name;
    call->phase = event_phase(name);
    const char *sid;
    int sid_ok = rp_hook_opt_str(payload, "conversation_id", &sid, err, err_size);
    if (call->phase == RP_HOOK_IGNORED) {
        call->session_id = sid_ok == 0 && sid ? sid : "";
        return 0;
    }
    if (sid_ok != 0)
        return -1;
    if (sid == NULL)
        return rp_hook_fail(err, err_size, "conversation_id is missing");
    call->session_id = sid;
    if (rp_hook_phase_protects(call->phase) &&
        rp_hook_shape_reject_nul(payload, err, err_size) != 0)
        return -1;

    rp_hook_ctx_fields f = {0};
    if (read_cwd(payload, &f.cwd, err, err_size) != 0 ||
        rp_hook_opt_str(payload, "user_email", &f.host_user, err, err_size) != 0 ||
        rp_hook_opt_str(payload, "model", &f.model, err, err_size) != 0)
        return -1;

    rp_hook_tool_outcome outcome = RP_HOOK_TOOL_UNKNOWN;
    const char *prompt = NULL;
    if (call->phase == RP_HOOK_PRE_TOOL || call->phase == RP_HOOK_POST_TOOL) {
        if (read_call(payload, a, call, &outcome, err, err_size) != 0)
            return -1;
        f.tool_use_id = rp_hook_call_key(a, call->tool_name, call->tool_input);
    } else if (call->phase == RP_HOOK_PROMPT) {
        if (need_str(payload, "prompt", &prompt, err, err_size) != 0) {
            const rp_json *p = rp_json_get(payload, "prompt");
            if (!rp_json_is_string(p))
                return -1;
            prompt = ""; /* an empty prompt is a prompt */
        }
        f.tool_use_id = rp_hook_prompt_key(a, prompt);
    }
    /* Cursor asks only on shell and MCP calls (A.3); no event takes a rewrite we can rely on. */
    call->can_ask = is(name, "beforeShellExecution") || is(name, "beforeMCPExecution");
    call->can_rewrite = false;

    call->event = rp_hook_event_new(a, &rp_host_cursor, env, event_type(call->phase), sid, &f);
    if (call->phase == RP_HOOK_PRE_TOOL)
        rp_hook_event_tool_call(a, &call->event, call->tool_name, call->tool_input);
    else if (call->phase == RP_HOOK_POST_TOOL)
        rp_hook_event_tool_result(a, &call->event, call->tool_name, call->tool_input,
                                  call->tool_output, outcome);
    else if (call->phase == RP_HOOK_PROMPT)
        rp_hook_event_request(a, &call->event, prompt);
    else /* stop and session events: data is null, as in a PolicyEvent (claude_shape.c) */
        rp_json_object_set(a, &call->event, "data", rp_json_make_null());
    return 0;
}

static void answer_pre_tool(const rp_hook_call *call, const rp_hook_verdict *v,
                            const rp_host_settings *s, rp_arena *a, rp_hook_answer *out)
{
    rp_verdict result = v->result;
    const char *reason = v->reason;
    if (result != RP_DENY && v->data) { /* an ASK's rewrite would be dropped on approval */
        result = RP_DENY;
        reason =
            rp_hook_shape_rewrite_reason(a, "the tool input would have to be rewritten", v->reason);
    }
    if (result == RP_ASK && !call->can_ask)
        result = RP_DENY;
    if (reason == NULL || reason[0] == '\0')
        reason = result == RP_ASK ? "rampart asks for approval" : "denied by rampart";
    if (result != RP_ALLOW)
        rp_hook_told(out, result, reason);
    rp_json o = rp_json_make_object();
    if (result == RP_ALLOW) {
        if (s && s->allow_overrides)
            rp_json_object_set(a, &o, "permission", rp_json_make_string_ref("allow"));
        rp_hook_write_line(&out->out, &o);
        return;
    }
    rp_json_object_set(a, &o, "permission",
                       rp_json_make_string_ref(result == RP_ASK ? "ask" : "deny"));
    if (!is(call->host_event, "beforeReadFile")) {
        rp_json_object_set(a, &o, "user_message", rp_json_make_string_ref(reason));
        rp_json_object_set(a, &o, "agent_message", rp_json_make_string_ref(reason));
    }
    rp_hook_write_line(&out->out, &o);
}

static void answer_prompt(const rp_hook_verdict *v, rp_arena *a, rp_hook_answer *out)
{
    rp_json o = rp_json_make_object();
    if (v->result == RP_ALLOW && v->data == NULL) {
        rp_json_object_set(a, &o, "continue", rp_json_make_bool(true));
    } else {
        const char *reason =
            v->result == RP_ALLOW
                ? rp_hook_shape_rewrite_reason(a, "the prompt would have to be redacted", v->reason)
            : v->reason && v->reason[0] ? v->reason
                                        : "blocked by rampart";
        if (v->result == RP_ALLOW)
            rp_hook_told(out, RP_DENY, reason);
        rp_json_object_set(a, &o, "continue", rp_json_make_bool(false));
        rp_json_object_set(a, &o, "user_message", rp_json_make_string_ref(reason));
    }
    rp_hook_write_line(&out->out, &o);
}

static void answer(const rp_hook_call *call, const rp_hook_verdict *v,
                   const rp_host_settings *settings, rp_arena *a, rp_hook_answer *out)
{
    if (call->phase == RP_HOOK_PRE_TOOL)
        answer_pre_tool(call, v, settings, a, out);
    else if (call->phase == RP_HOOK_PROMPT)
        answer_prompt(v, a, out);
    else
        rp_buf_puts(&out->out, "{}\n"); /* fire-and-forget events; a stop is never held */
}

const rp_hook_adapter rp_host_cursor = {
    .name = "cursor", .harness = "cursor", .deadline_ms = 1000, .parse = parse, .answer = answer};
