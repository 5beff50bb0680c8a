/* gemini.c — the Gemini CLI adapter (agent-hosts.md A.4).
 *
 * Gemini's hooks get one JSON object on stdin ({session_id, cwd, hook_event_name, timestamp,
 * ...}) and answer with JSON on stdout (exit 0; nothing else may be printed there) or exit 2
 * with the reason on stderr. Events:
 *   BeforeTool   → tool_call   (tool_name, tool_input; an MCP tool, which has mcp_context
 *                               {server_name, tool_name}, as mcp__<server>__<tool>, the name
 *                               the policies know MCP tools by; Gemini has no call id, so
 *                               context.tool_use_id is rp_hook_call_key of the call, the same
 *                               for its AfterTool)
 *   AfterTool    → tool_result ({result: tool_response.llmContent (else the whole
 *                               tool_response; with an error its message too), is_error:
 *                               tool_response.error, or a run_shell_command's "Exit Code: N"
 *                               line, N != 0})
 *   BeforeAgent  → request     (prompt)
 *   BeforeModel  → llm_request (data = llm_request)
 *   AfterModel   → llm_response (data = {model, usage, id}). AfterModel fires per streamed
 *                               chunk (dozens per answer); a chunk without a finishReason is
 *                               ignored (answered with nothing, no evaluation, no audit row:
 *                               AfterModel protects nothing), and the final chunk reports the
 *                               response's usage once, keyed by the moment it fired. The hook
 *                               records that usage only when the chat recording at
 *                               transcript_path cannot be read: the recording has the cached and
 *                               thinking tokens the payload lacks (src/hosts/hook.c).
 *   SessionStart / SessionEnd → session_start / session_end; AfterAgent → stop.
 *   Notification, PreCompress, BeforeToolSelection (and unknown events): ignored.
 *
 * Answers (every stdout answer is one line):
 *   BeforeTool   DENY  {"decision":"deny","reason"}; with deny_exit_code exit 2 + stderr.
 *                ASK   Gemini hooks cannot ask: a deny whose reason says so.
 *                ALLOW {} (Gemini's own policy engine still applies), {"decision":"allow"}
 *                      with allow_overrides; a rewrite is hookSpecificOutput.tool_input alone
 *                      (Gemini merges it over the model's arguments whatever the decision), with
 *                      "decision":"allow" only under allow_overrides.
 *   AfterTool, BeforeAgent  DENY/ASK, and a rewrite rampart cannot apply there, deny (the
 *                      output is hidden, the prompt discarded).
 *   BeforeModel  DENY/ASK deny; a rewrite is hookSpecificOutput.llm_request.
 *   AfterModel, AfterAgent, SessionStart, SessionEnd: never blocked, {}. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/sha256.h"
#include "hosts/hook_event.h"

extern const rp_hook_adapter rp_host_gemini;

#define ASK_PREFIX "rampart asks for approval, which Gemini CLI hooks cannot do: "

static const struct {
    const char *name;
    rp_hook_phase phase;
    const char *type; /* the PolicyEvent type */
} events[] = {
    {"BeforeTool", RP_HOOK_PRE_TOOL, "tool_call"},
    {"AfterTool", RP_HOOK_POST_TOOL, "tool_result"},
    {"BeforeAgent", RP_HOOK_PROMPT, "request"},
    {"BeforeModel", RP_HOOK_LLM_REQUEST, "llm_request"},
    {"AfterModel", RP_HOOK_LLM_RESPONSE, "llm_response"},
    {"SessionStart", RP_HOOK_SESSION_START, "session_start"},
    {"SessionEnd", RP_HOOK_SESSION_END, "session_end"},
    {"AfterAgent", RP_HOOK_STOP, "stop"},
};

/* The index of name in events, or -1 (Notification, PreCompress, BeforeToolSelection and
 * events newer than this adapter decide nothing rampart evaluates). */
static int event_index(const char *name)
{
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
        if (strcmp(events[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* The text of tool_response.error (a string, or an object with `message`), or NULL when it
 * reports no failure (absent, null, false or ""). */
static const char *error_text(rp_arena *a, const rp_json *error)
{
    if (error == NULL || error->type == RP_JSON_NULL)
        return NULL;
    if (error->type == RP_JSON_STRING)
        return error->len > 0 ? error->v.s : NULL;
    const char *message = rp_json_get_str(error, "message");
    if (message && message[0])
        return message;
    if (error->type == RP_JSON_BOOL && !error->v.b)
        return NULL;
    return rp_json_to_string(a, error); /* some other shape: still an error, shown as JSON */
}

/* The result is normalised (tool_result.h): the text is llmContent (what the model sees);
 * Gemini's failure signal is tool_response.error, whose message joins the text when the text
 * does not carry it (the policies that scan results must see it), and for its shell tool,
 * which reports a failed command with no error, the "Exit Code: N" line after the output. */
static int parse_post_tool(const rp_json *payload, rp_arena *a, rp_hook_call *call,
                           const char *tool, char *err, size_t err_size)
{
    const rp_json *response = rp_json_get(payload, "tool_response");
    if (!rp_json_is_object(response))
        return rp_hook_fail(err, err_size, "tool_response must be an object, not %s",
                            response ? rp_json_type_name(response->type) : "missing");
    call->tool_output = response;
    const rp_json *output = response;
    rp_hook_tool_outcome outcome = RP_HOOK_TOOL_OK;
    const char *text = rp_json_get_str(response, "llmContent");
    const char *error = error_text(a, rp_json_get(response, "error"));
    if (error) {
        outcome = RP_HOOK_TOOL_ERROR;
        if (text == NULL || strstr(text, error) == NULL)
            output = rp_json_new(
                a, rp_json_make_string_ref(
                       text && text[0] ? rp_arena_sprintf(a, "%s\n%s", text, error) : error));
    } else if (strcmp(call->tool_name, "run_shell_command") == 0) {
        /* The shell's own "Exit Code: N" line decides; a line without a number ("(none)":
         * killed by a signal) says nothing, and the text heuristics judge. No line and no
         * error: Gemini reports success. */
        rp_hook_tool_outcome exit =
            text ? rp_hook_tool_outcome_exit_line(text, "Exit Code:", false) : RP_HOOK_TOOL_UNKNOWN;
        if (exit != RP_HOOK_TOOL_UNKNOWN || (text && strstr(text, "Exit Code:") != NULL))
            outcome = exit;
    }
    rp_hook_event_tool_result(a, &call->event, tool, call->tool_input, output, outcome);
    return 0;
}

/* usageMetadata.key as an integer >= 0 into *out (absent = 0). */
static int read_count(const rp_json *meta, const char *key, int64_t *out, char *err,
                      size_t err_size)
{
    const rp_json *v = rp_json_get(meta, key);
    *out = 0;
    if (v == NULL || v->type == RP_JSON_NULL)
        return 0;
    double d;
    if (v->type == RP_JSON_BOOL || !rp_json_number(v, &d) || d < 0 || d > 9e15 ||
        d != (double)(int64_t)d)
        return rp_hook_fail(err, err_size, "llm_response.usageMetadata.%s must be an integer >= 0",
                            key);
    *out = (int64_t)d;
    return 0;
}

/* True when a candidate of the response carries a finishReason: the chunk that ends it. */
static bool response_finished(const rp_json *response)
{
    const rp_json *candidates = rp_json_get(response, "candidates");
    for (size_t i = 0; rp_json_at(candidates, i); i++) {
        const rp_json *reason = rp_json_get(rp_json_at(candidates, i), "finishReason");
        if (reason && reason->type != RP_JSON_NULL)
            return true;
    }
    return false;
}

/* The usage block of a final chunk. Gemini counts cached tokens inside promptTokenCount, the
 * ledger counts them apart, so they are taken out of input_tokens. Thinking tokens
 * (thoughtsTokenCount) are billed as output and added to it. Gemini CLI 0.61's hook payload
 * carries only promptTokenCount, candidatesTokenCount and totalTokenCount: the thinking tokens
 * are then what the total has beyond the other two, and cached tokens, which only the chat
 * recording gets, are charged as ordinary input (an upper bound, never an under-count). */
static int usage_of(const rp_json *meta, rp_arena *a, rp_json *out, char *err, size_t err_size)
{
    int64_t prompt, output, cached, thoughts, total;
    if (read_count(meta, "promptTokenCount", &prompt, err, err_size) != 0 ||
        read_count(meta, "candidatesTokenCount", &output, err, err_size) != 0 ||
        read_count(meta, "cachedContentTokenCount", &cached, err, err_size) != 0 ||
        read_count(meta, "thoughtsTokenCount", &thoughts, err, err_size) != 0 ||
        read_count(meta, "totalTokenCount", &total, err, err_size) != 0)
        return -1;
    if (rp_json_get(meta, "thoughtsTokenCount") == NULL && total > prompt + output)
        thoughts = total - prompt - output;
    *out = rp_json_make_object();
    rp_json_object_set(a, out, "input_tokens",
                       rp_json_make_int(prompt > cached ? prompt - cached : 0));
    rp_json_object_set(a, out, "output_tokens", rp_json_make_int(output + thoughts));
    rp_json_object_set(a, out, "cache_read_input_tokens", rp_json_make_int(cached));
    return 0;
}

static int parse_after_model(const rp_json *payload, rp_arena *a, rp_hook_call *call,
                             const char *model, char *err, size_t err_size)
{
    const rp_json *response = rp_json_get(payload, "llm_response");
    if (!rp_json_is_object(response))
        return rp_hook_fail(err, err_size, "llm_response must be an object, not %s",
                            response ? rp_json_type_name(response->type) : "missing");
    rp_json data = rp_json_make_object();
    if (model)
        rp_json_object_set(a, &data, "model", rp_json_make_string_ref(model));
    const rp_json *meta = rp_json_get(response, "usageMetadata");
    if (rp_json_is_object(meta) && response_finished(response)) {
        rp_json usage;
        if (usage_of(meta, a, &usage, err, err_size) != 0)
            return -1;
        rp_json_object_set(a, &data, "usage", usage);
        /* The ledger drops a second row with the same id: a final chunk delivered twice (two
         * installs of the hook) is one response. The request cannot tell responses apart: the
         * hook's llm_request keeps only text, so every step of a tool loop sends the same one.
         * The moment the chunk fired can (with the request and the counts, should two fire in
         * the same millisecond). */
        rp_json key_parts = rp_json_make_object();
        const rp_json *request = rp_json_get(payload, "llm_request");
        const rp_json *ts = rp_json_get(payload, "timestamp");
        if (request)
            rp_json_object_set(a, &key_parts, "request", *request);
        if (ts)
            rp_json_object_set(a, &key_parts, "timestamp", *ts);
        rp_json_object_set(a, &key_parts, "usage", *meta);
        const char *key = rp_hook_call_key(a, "llm_response", &key_parts);
        rp_json_object_set(
            a, &data, "id",
            rp_json_make_string_ref(rp_arena_sprintf(a, "%s:%s", call->session_id, key)));
        call->usage = rp_json_new(a, data);
    }
    rp_json_object_set(a, &call->event, "data", data);
    return 0;
}

/* The model of a model event: llm_response.model, else llm_request.model. */
static const char *event_model(const rp_json *payload)
{
    const char *m = rp_json_get_str(rp_json_get(payload, "llm_response"), "model");
    if (m == NULL || m[0] == '\0')
        m = rp_json_get_str(rp_json_get(payload, "llm_request"), "model");
    return m && m[0] ? m : NULL;
}

/* ---- BeforeModel ----
 *
 * The llm_request policies (deny_secrets, deny_pii_in_llm_request) read the PolicyEvent's
 * llm_request summary: system_prompt_preview and last_user_message (omnigent-policies.md
 * §1.3). Gemini sends the whole request, so the event data is that request with the summary
 * added: messages_count, the system message's text and the last user message's text (whole,
 * not cut to a preview: a secret past the cut would pass). A rewrite comes back with the
 * summary rewritten; it is carried back into the messages it was read from. */

static const char *const summary_keys[] = {"messages_count", "system_prompt_preview",
                                           "last_user_message"};

/* The text of a message's content: a string, or the text parts of an array joined by "\n". */
static const char *content_text(rp_arena *a, const rp_json *content)
{
    if (rp_json_is_string(content))
        return content->v.s;
    if (!rp_json_is_array(content))
        return NULL;
    rp_buf b = {0};
    for (size_t i = 0; rp_json_at(content, i); i++) {
        const rp_json *part = rp_json_at(content, i);
        const char *text = rp_json_is_string(part) ? part->v.s : rp_json_get_str(part, "text");
        if (text == NULL)
            continue;
        if (b.len > 0)
            rp_buf_putc(&b, '\n');
        rp_buf_puts(&b, text);
    }
    const char *out = b.data ? rp_arena_strdup(a, b.data) : NULL;
    rp_buf_free(&b);
    return out;
}

/* The index of the first (role "system") or last (role "user") such message, or -1. */
static int64_t message_index(const rp_json *messages, const char *role, bool last)
{
    int64_t found = -1;
    for (size_t i = 0; rp_json_at(messages, i); i++) {
        const char *r = rp_json_get_str(rp_json_at(messages, i), "role");
        if (r && strcmp(r, role) == 0) {
            found = (int64_t)i;
            if (!last)
                break;
        }
    }
    return found;
}

static rp_json llm_request_data(rp_arena *a, const rp_json *request)
{
    rp_json data = rp_json_clone(a, request);
    const rp_json *messages = rp_json_get(request, "messages");
    if (!rp_json_is_array(messages))
        return data;
    rp_json_object_set(a, &data, "messages_count", rp_json_make_int(messages->len));
    int64_t sys = message_index(messages, "system", false);
    int64_t user = message_index(messages, "user", true);
    const char *text;
    if (sys >= 0 &&
        (text = content_text(a, rp_json_get(rp_json_at(messages, (size_t)sys), "content"))) != NULL)
        rp_json_object_set(a, &data, "system_prompt_preview", rp_json_make_string_ref(text));
    if (user >= 0 && (text = content_text(
                          a, rp_json_get(rp_json_at(messages, (size_t)user), "content"))) != NULL)
        rp_json_object_set(a, &data, "last_user_message", rp_json_make_string_ref(text));
    return data;
}

/* Puts a rewritten summary text back into messages[index].content. Returns false when it
 * cannot be (the content is not a plain string). */
static bool put_back(rp_arena *a, rp_json *messages, int64_t index, const rp_json *text)
{
    rp_json *m = index >= 0 && (size_t)index < messages->len ? &messages->v.items[index] : NULL;
    if (m == NULL || !rp_json_is_string(rp_json_get(m, "content")) || !rp_json_is_string(text))
        return false;
    rp_json_object_set(a, m, "content", *text);
    return true;
}

/* The llm_request to send back for a rewrite `data` of call's event, or NULL when the rewrite
 * cannot be expressed in Gemini's request. */
static const rp_json *rewritten_request(const rp_hook_call *call, const rp_json *data, rp_arena *a)
{
    if (!rp_json_is_object(data))
        return NULL;
    const rp_json *old = rp_json_get(&call->event, "data");
    rp_json out = rp_json_clone(a, data);
    for (size_t i = 0; i < sizeof summary_keys / sizeof summary_keys[0]; i++)
        rp_json_object_delete(&out, summary_keys[i]);
    rp_json *messages = (rp_json *)rp_json_get(&out, "messages");
    static const char *const texts[] = {"system_prompt_preview", "last_user_message"};
    for (size_t i = 0; i < 2; i++) {
        const rp_json *before = rp_json_get(old, texts[i]);
        const rp_json *after = rp_json_get(data, texts[i]);
        if (before == NULL && after == NULL)
            continue;
        if (before && after && rp_json_equal(before, after, false))
            continue;
        if (!rp_json_is_array(messages) ||
            !put_back(a, messages, message_index(messages, i == 0 ? "system" : "user", i == 1),
                      after))
            return NULL;
    }
    return rp_json_new(a, out);
}

/* Fills the fields before the event is built: the tool, the prompt, the call key. */
static int read_fields(const rp_json *payload, rp_arena *a, rp_hook_call *call,
                       rp_hook_ctx_fields *f, char *err, size_t err_size)
{
    switch (call->phase) {
    case RP_HOOK_PRE_TOOL:
    case RP_HOOK_POST_TOOL:
        if (rp_hook_read_tool(payload, "tool_input", call, err, err_size) != 0)
            return -1;
        f->tool_use_id = rp_hook_call_key(a, call->tool_name, call->tool_input);
        call->can_rewrite = call->phase == RP_HOOK_PRE_TOOL;
        return 0;
    case RP_HOOK_PROMPT: {
        const rp_json *prompt = rp_json_get(payload, "prompt");
        if (!rp_json_is_string(prompt))
            return rp_hook_fail(err, err_size, "prompt must be a string, not %s",
                                prompt ? rp_json_type_name(prompt->type) : "missing");
        f->tool_use_id = rp_hook_prompt_key(a, prompt->v.s);
        return 0;
    }
    case RP_HOOK_LLM_REQUEST: {
        const rp_json *request = rp_json_get(payload, "llm_request");
        if (!rp_json_is_object(request))
            return rp_hook_fail(err, err_size, "llm_request must be an object, not %s",
                                request ? rp_json_type_name(request->type) : "missing");
        f->model = event_model(payload);
        call->can_rewrite = true;
        return 0;
    }
    case RP_HOOK_LLM_RESPONSE: {
        f->model = event_model(payload);
        /* A streamed chunk before the last: nothing to record, nothing to judge. */
        const rp_json *response = rp_json_get(payload, "llm_response");
        if (rp_json_is_object(response) && !response_finished(response))
            call->phase = RP_HOOK_IGNORED;
        return 0;
    }
    default:
        return 0;
    }
}

static int parse(const rp_json *payload, const rp_hook_env *env, rp_arena *a, rp_hook_call *call,
                 char *err, size_t err_size)
{
    memset(call, 0, sizeof *call);
    call->phase = RP_HOOK_PRE_TOOL; /* until the event name says otherwise: the form that blocks */
    if (!rp_json_is_object(payload))
        return rp_hook_fail(err, err_size, "the hook input must be a JSON object, not %s",
                            payload ? rp_json_type_name(payload->type) : "nothing");
    const char *name;
    if (rp_hook_opt_str(payload, "hook_event_name", &name, err, err_size) != 0)
        return -1;
    if (name == NULL)
        return rp_hook_fail(err, err_size, "hook_event_name is missing");
    call->host_event = name;
    int idx = event_index(name);
    call->phase = idx < 0 ? RP_HOOK_IGNORED : events[idx].phase;

    const char *sid;
    int sid_ok = rp_hook_opt_str(payload, "session_id", &sid, err, err_size);
    if (call->phase == RP_HOOK_IGNORED) {
        call->session_id = sid_ok == 0 && sid ? sid : "";
        return 0;
    }
    if (sid_ok != 0)
        return -1;
    if (sid == NULL)
        return rp_hook_fail(err, err_size, "session_id is missing");
    call->session_id = sid;

    rp_hook_ctx_fields f = {0};
    const char *tool = NULL;
    /* transcript_path: the chat recording, where the hook reads each response's full usage. */
    if (rp_hook_opt_str(payload, "cwd", &f.cwd, err, err_size) != 0 ||
        rp_hook_opt_str(payload, "transcript_path", &call->transcript_path, err, err_size) != 0 ||
        read_fields(payload, a, call, &f, err, err_size) != 0)
        return -1;
    if (call->phase == RP_HOOK_IGNORED)
        return 0;
    /* An MCP tool (mcp_<server>_<tool>, with mcp_context naming both) goes to the policies by
     * the one MCP name they know; call->tool_name stays Gemini's. */
    if ((call->phase == RP_HOOK_PRE_TOOL || call->phase == RP_HOOK_POST_TOOL) &&
        rp_hook_mcp_tool_name(payload, "mcp_context", "server_name", "tool_name", call->tool_name,
                              a, &tool, err, err_size) != 0)
        return -1;
    call->event = rp_hook_event_new(a, &rp_host_gemini, env, events[idx].type, sid, &f);
    switch (call->phase) {
    case RP_HOOK_PRE_TOOL:
        rp_hook_event_tool_call(a, &call->event, tool, call->tool_input);
        return 0;
    case RP_HOOK_POST_TOOL:
        return parse_post_tool(payload, a, call, tool, err, err_size);
    case RP_HOOK_PROMPT:
        rp_hook_event_request(a, &call->event, rp_json_get_str(payload, "prompt"));
        return 0;
    case RP_HOOK_LLM_REQUEST:
        rp_json_object_set(a, &call->event, "data",
                           llm_request_data(a, rp_json_get(payload, "llm_request")));
        return 0;
    case RP_HOOK_LLM_RESPONSE:
        return parse_after_model(payload, a, call, f.model, err, err_size);
    default:
        /* Stop and session events carry no data: null, as in a PolicyEvent. */
        rp_json_object_set(a, &call->event, "data", rp_json_make_null());
        return 0;
    }
}

/* ---- answers ---- */

/* Every deny Gemini is told, whatever rampart's verdict was (an ASK, a rewrite it cannot take):
 * the audit records the deny. */
static void write_deny(rp_hook_answer *ans, rp_arena *a, const char *reason)
{
    rp_json top = rp_json_make_object();
    rp_json_object_set(a, &top, "decision", rp_json_make_string_ref("deny"));
    rp_json_object_set(a, &top, "reason", rp_json_make_string_ref(reason));
    rp_hook_write_line(&ans->out, &top);
    rp_hook_told(ans, RP_DENY, reason);
}

/* {"decision":"allow"?, "hookSpecificOutput":{"hookEventName":EVENT, KEY:VALUE}} */
static void write_rewrite(rp_buf *out, rp_arena *a, bool allow, const char *event, const char *key,
                          const rp_json *value)
{
    rp_json hso = rp_json_make_object();
    rp_json_object_set(a, &hso, "hookEventName", rp_json_make_string_ref(event));
    rp_json_object_set(a, &hso, key, *value);
    rp_json top = rp_json_make_object();
    if (allow)
        rp_json_object_set(a, &top, "decision", rp_json_make_string_ref("allow"));
    rp_json_object_set(a, &top, "hookSpecificOutput", hso);
    rp_hook_write_line(out, &top);
}

static const char *nonempty(const char *reason, const char *fallback)
{
    return reason && reason[0] ? reason : fallback;
}

static const char *ask_reason(rp_arena *a, const char *reason)
{
    return rp_arena_sprintf(a, "%s%s", ASK_PREFIX, nonempty(reason, "no reason was given"));
}

static const char *rewrite_reason(rp_arena *a, const char *what, const char *reason)
{
    return rp_arena_sprintf(a, "%s would have to be rewritten, which rampart cannot do here: %s",
                            what, nonempty(reason, "a policy rewrote it"));
}

static void answer_pre_tool(const rp_hook_call *call, const rp_hook_verdict *v,
                            const rp_host_settings *s, rp_arena *a, rp_hook_answer *out)
{
    if (v->result == RP_ALLOW && v->data == NULL) {
        rp_buf_puts(&out->out, s && s->allow_overrides ? "{\"decision\":\"allow\"}\n" : "{}\n");
        return;
    }
    if (v->result == RP_ALLOW) {
        const rp_json *args = rp_json_get(v->data, "arguments");
        if (call->can_rewrite && rp_json_is_object(args)) {
            write_rewrite(&out->out, a, s && s->allow_overrides, "BeforeTool", "tool_input", args);
            return;
        }
        write_deny(out, a, rewrite_reason(a, "the tool input", v->reason));
        return;
    }
    if (v->result == RP_ASK) {
        write_deny(out, a, ask_reason(a, v->reason));
        return;
    }
    const char *reason = nonempty(v->reason, "denied by rampart");
    if (s && s->deny_exit_code) {
        rp_buf_printf(&out->err, "%s\n", reason);
        out->exit_code = 2;
        return;
    }
    write_deny(out, a, reason);
}

static void answer_llm_request(const rp_hook_call *call, const rp_hook_verdict *v, rp_arena *a,
                               rp_hook_answer *out)
{
    const rp_json *request;
    if (v->result == RP_DENY)
        write_deny(out, a, nonempty(v->reason, "denied by rampart"));
    else if (v->result == RP_ASK)
        write_deny(out, a, ask_reason(a, v->reason));
    else if (v->data && (request = rewritten_request(call, v->data, a)) != NULL)
        write_rewrite(&out->out, a, false, "BeforeModel", "llm_request", request);
    else if (v->data)
        write_deny(out, a, rewrite_reason(a, "the model request", v->reason));
    else
        rp_buf_puts(&out->out, "{}\n");
}

static void answer(const rp_hook_call *call, const rp_hook_verdict *v,
                   const rp_host_settings *settings, rp_arena *a, rp_hook_answer *out)
{
    switch (call->phase) {
    case RP_HOOK_PRE_TOOL:
        answer_pre_tool(call, v, settings, a, out);
        break;
    case RP_HOOK_PROMPT:
    case RP_HOOK_POST_TOOL:
        if (v->result != RP_ALLOW) {
            write_deny(out, a, nonempty(v->reason, "blocked by rampart"));
            /* A prompt ASK stays an ASK: its reason says how to approve it (a resend). */
            rp_hook_told(out, v->result, out->told_reason);
        } else if (v->data)
            write_deny(
                out, a,
                rewrite_reason(a, call->phase == RP_HOOK_PROMPT ? "the prompt" : "the tool output",
                               v->reason));
        else
            rp_buf_puts(&out->out, "{}\n");
        break;
    case RP_HOOK_LLM_REQUEST:
        answer_llm_request(call, v, a, out);
        break;
    default:
        rp_buf_puts(&out->out, "{}\n"); /* model responses, stops and sessions never block */
        break;
    }
}

const rp_hook_adapter rp_host_gemini = {
    .name = "gemini", .harness = "gemini", .deadline_ms = 1000, .parse = parse, .answer = answer};
