/* claude_shape.c — the Claude-shaped hook payload (Claude Code, Codex) and the answers and
 * readers the Claude Code, Codex and Cursor adapters share (claude_shape.h).
 *
 * Every field the payload names is type-checked: a field of the wrong type is an error, never
 * a silently missing value, because a policy that sees no command or no path allows. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/sha256.h"
#include "hosts/claude_shape.h"
#include "cost/transcript.h"
#include "shell/patch.h"

/* Appends to path[len..cap) and returns the new length (clamped: a long path is cut short). */
static size_t path_add(char *path, size_t cap, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static size_t path_add(char *path, size_t cap, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(path + len, cap - len, fmt, ap);
    va_end(ap);
    if (n < 0)
        return len;
    return len + (size_t)n < cap ? len + (size_t)n : cap - 1;
}

/* True when a string or key under v holds U+0000; path then names it. */
static bool find_nul(const rp_json *v, char *path, size_t cap, size_t len)
{
    if (v->type == RP_JSON_STRING)
        return memchr(v->v.s, '\0', v->len) != NULL;
    if (v->type == RP_JSON_ARRAY) {
        for (uint32_t i = 0; i < v->len; i++)
            if (find_nul(&v->v.items[i], path, cap, path_add(path, cap, len, "[%u]", i)))
                return true;
    } else if (v->type == RP_JSON_OBJECT) {
        for (uint32_t i = 0; i < v->len; i++) {
            const rp_json_member *m = &v->v.members[i];
            size_t n = path_add(path, cap, len, "%s%s", len ? "." : "", m->key);
            if (memchr(m->key, '\0', m->key_len) != NULL || find_nul(&m->value, path, cap, n))
                return true;
        }
    }
    path[len] = '\0';
    return false;
}

int rp_hook_shape_reject_nul(const rp_json *v, char *err, size_t err_size)
{
    char path[160] = "";
    if (v == NULL || !find_nul(v, path, sizeof path, 0))
        return 0;
    return rp_hook_fail(err, err_size, "%s holds a NUL character, which rampart cannot judge past",
                        path[0] ? path : "the value");
}

/* ---- parse ---- */

/* The phase of a Claude Code or Codex event name. Codex fires fewer events (A.2.1); the rest
 * of its schema (PermissionRequest, PreCompact, ...) decides nothing rampart evaluates. */
static rp_hook_phase event_phase(const char *name, rp_hook_claude_dialect d)
{
    static const struct {
        const char *name;
        rp_hook_phase phase;
        bool codex;
    } events[] = {
        {"PreToolUse", RP_HOOK_PRE_TOOL, true},
        {"PostToolUse", RP_HOOK_POST_TOOL, true},
        {"PostToolUseFailure", RP_HOOK_POST_TOOL, false},
        {"UserPromptSubmit", RP_HOOK_PROMPT, true},
        {"SessionStart", RP_HOOK_SESSION_START, true},
        {"SessionEnd", RP_HOOK_SESSION_END, false},
        {"Stop", RP_HOOK_STOP, true},
        {"SubagentStop", RP_HOOK_STOP, true},
    };
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
        if (strcmp(events[i].name, name) == 0)
            return d == RP_HOOK_DIALECT_CODEX && !events[i].codex ? RP_HOOK_IGNORED
                                                                  : events[i].phase;
    return RP_HOOK_IGNORED;
}

/* The files an apply_patch body touches (shell/patch.h: its Add, Update, Delete and Move to
 * headers, read as Codex reads them), in order, without duplicates. */
static rp_json patch_paths(rp_arena *a, const char *patch)
{
    rp_sh_patch_target *t;
    size_t n = rp_sh_patch_targets(a, patch, RP_SH_PATCH_HEADERS, &t);
    rp_json paths = rp_json_make_array();
    for (size_t i = 0; i < n; i++) {
        bool seen = false;
        for (uint32_t j = 0; j < paths.len && !seen; j++)
            seen = strcmp(paths.v.items[j].v.s, t[i].path) == 0;
        if (!seen)
            rp_json_array_push(a, &paths, rp_json_make_string_ref(t[i].path));
    }
    return paths;
}

/* Codex's apply_patch arguments: the input as sent plus `paths` (every file of the patch) and
 * `file_path` (the first), so path policies see the files a patch writes. */
static const rp_json *apply_patch_args(rp_arena *a, const rp_json *input)
{
    const char *patch = rp_json_get_str(input, "command");
    if (patch == NULL)
        return input;
    rp_json args = rp_json_clone(a, input);
    rp_json paths = patch_paths(a, patch);
    if (paths.len > 0 && rp_json_get(&args, "file_path") == NULL)
        rp_json_object_set(a, &args, "file_path", paths.v.items[0]);
    if (rp_json_get(&args, "paths") == NULL)
        rp_json_object_set(a, &args, "paths", paths);
    return rp_json_new(a, args);
}

/* After rp_hook_read_tool. */
static int parse_pre_tool(rp_hook_claude_dialect d, const rp_hook_env *env, rp_arena *a,
                          rp_hook_call *call, char *err, size_t err_size)
{
    call->can_ask = d == RP_HOOK_DIALECT_CLAUDE; /* Codex treats "ask" as a hook failure (A.2.1) */
    call->can_rewrite = true;
    const char *tool = call->tool_name;
    if (d == RP_HOOK_DIALECT_CLAUDE && (strcmp(tool, "Agent") == 0 || strcmp(tool, "Task") == 0)) {
        const char *subagent_type;
        if (rp_hook_opt_str(call->tool_input, "subagent_type", &subagent_type, err, err_size) != 0)
            return -1;
        rp_hook_event_dispatch(a, &call->event, env, tool, subagent_type, call->tool_input);
    } else if (d == RP_HOOK_DIALECT_CODEX && strcmp(tool, "apply_patch") == 0) {
        rp_hook_event_tool_call(a, &call->event, tool, apply_patch_args(a, call->tool_input));
    } else {
        rp_hook_event_tool_call(a, &call->event, tool, call->tool_input);
    }
    return 0;
}

/* After rp_hook_read_tool. The result is normalised (tool_result.h): PostToolUseFailure's
 * `error` (Claude's failure event; "Exit code N" first for a shell) is an error; PostToolUse's
 * tool_response is an error only when it says so (rp_hook_tool_outcome_claude). Codex sends the
 * output as a string with no failure event: its exec output's "Exit code: N" line, when there
 * is one (apply_patch has it), is the signal, else the text heuristics decide. */
static int parse_post_tool(rp_hook_claude_dialect d, const rp_json *payload, rp_arena *a,
                           rp_hook_call *call, char *err, size_t err_size)
{
    const rp_json *args = call->tool_input;
    if (d == RP_HOOK_DIALECT_CODEX && strcmp(call->tool_name, "apply_patch") == 0)
        args = apply_patch_args(a, args);
    rp_hook_tool_outcome outcome;
    if (strcmp(call->host_event, "PostToolUseFailure") == 0) {
        const char *error;
        if (rp_hook_opt_str(payload, "error", &error, err, err_size) != 0)
            return -1;
        if (error == NULL)
            return rp_hook_fail(err, err_size, "error is missing");
        call->tool_output = rp_json_get(payload, "error");
        outcome = RP_HOOK_TOOL_ERROR;
    } else {
        call->tool_output = rp_json_get(payload, "tool_response");
        if (call->tool_output == NULL)
            return rp_hook_fail(err, err_size, "tool_response is missing");
        if (d == RP_HOOK_DIALECT_CODEX)
            outcome =
                rp_json_is_string(call->tool_output)
                    ? rp_hook_tool_outcome_exit_line(call->tool_output->v.s, "Exit code:", true)
                    : RP_HOOK_TOOL_UNKNOWN;
        else
            outcome = rp_hook_tool_outcome_claude(call->tool_output);
    }
    rp_hook_event_tool_result(a, &call->event, call->tool_name, args, call->tool_output, outcome);
    return 0;
}

static int parse_prompt(const rp_json *payload, rp_arena *a, rp_hook_call *call, char *err,
                        size_t err_size)
{
    const rp_json *prompt = rp_json_get(payload, "prompt");
    if (prompt == NULL || prompt->type == RP_JSON_NULL)
        return rp_hook_fail(err, err_size, "prompt is missing");
    if (prompt->type != RP_JSON_STRING)
        return rp_hook_fail(err, err_size, "prompt must be a string, not %s",
                            rp_json_type_name(prompt->type));
    rp_hook_event_request(a, &call->event, prompt->v.s);
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

int rp_hook_claude_shape_parse(const rp_hook_adapter *host, rp_hook_claude_dialect dialect,
                               const rp_json *payload, const rp_hook_env *env, rp_arena *a,
                               rp_hook_call *call, char *err, size_t err_size)
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
    call->phase = event_phase(name, dialect);

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

    rp_hook_ctx_fields f = {0};
    const char *agent_id, *prompt_id;
    if (rp_hook_opt_str(payload, "agent_id", &agent_id, err, err_size) != 0 ||
        rp_hook_opt_str(payload, "cwd", &f.cwd, err, err_size) != 0 ||
        rp_hook_opt_str(payload, "permission_mode", &f.permission_mode, err, err_size) != 0 ||
        rp_hook_opt_str(payload, "tool_use_id", &f.tool_use_id, err, err_size) != 0 ||
        rp_hook_opt_str(payload, "model", &f.model, err, err_size) != 0 ||
        rp_hook_opt_str(payload, "prompt_id", &prompt_id, err, err_size) != 0 ||
        rp_hook_opt_str(payload, "transcript_path", &call->transcript_path, err, err_size) != 0)
        return -1;
    call->session_id = sid;
    if (agent_id) {
        /* A sub-agent's events belong to its own child session, whose lineage is the main
         * session: the sub-agent budgets and spawn bounds key on that. */
        call->session_id = rp_arena_sprintf(a, "%s/agent/%s", sid, agent_id);
        f.parent_session_id = f.root_session_id = sid;
        /* Its spend is in its own transcript (named at SubagentStop, where Claude Code puts it
         * otherwise), never in the main one: reading the main transcript under the child
         * session would charge the main session's messages twice. Codex names the sub-agent's
         * own rollout as transcript_path in the sub-agent's events (the main one only at
         * SubagentStop, beside agent_transcript_path). */
        const char *named_path = call->transcript_path;
        if (rp_hook_opt_str(payload, "agent_transcript_path", &call->transcript_path, err,
                            err_size) != 0)
            return -1;
        if (call->transcript_path == NULL)
            call->transcript_path = dialect == RP_HOOK_DIALECT_CLAUDE
                                        ? rp_cost_transcript_agent_path(a, named_path, agent_id)
                                        : named_path;
    }
    if (rp_hook_phase_protects(call->phase) &&
        rp_hook_shape_reject_nul(payload, err, err_size) != 0)
        return -1;
    const rp_json *prompt = rp_json_get(payload, "prompt");
    if (call->phase == RP_HOOK_PROMPT && rp_json_is_string(prompt))
        f.tool_use_id = rp_hook_prompt_key(a, prompt->v.s);
    if (call->phase == RP_HOOK_PRE_TOOL || call->phase == RP_HOOK_POST_TOOL) {
        if (rp_hook_read_tool(payload, "tool_input", call, err, err_size) != 0)
            return -1;
        /* Both hosts send tool_use_id with every tool event; should one come without it, the
         * call key (as for Cursor) still pairs the pre- and post-event, so an ASK the person
         * approved is found again. */
        if (f.tool_use_id == NULL)
            f.tool_use_id = rp_hook_call_key(a, call->tool_name, call->tool_input);
    }

    call->event = rp_hook_event_new(a, host, env, event_type(call->phase), call->session_id, &f);
    switch (call->phase) {
    case RP_HOOK_PRE_TOOL:
        return parse_pre_tool(dialect, env, a, call, err, err_size);
    case RP_HOOK_POST_TOOL:
        return parse_post_tool(dialect, payload, a, call, err, err_size);
    case RP_HOOK_PROMPT:
        return parse_prompt(payload, a, call, err, err_size);
    default:
        /* Stop and session events carry no data; it is null, as in a PolicyEvent, so that a
         * policy reading event.data sees a value rather than a missing key. */
        rp_json_object_set(a, &call->event, "data", rp_json_make_null());
        return 0;
    }
}

/* ---- answers ---- */

void rp_hook_shape_write_decision(rp_buf *out, rp_arena *a, const char *event, const char *decision,
                                  const char *reason, const rp_json *updated)
{
    rp_json hso = rp_json_make_object();
    rp_json_object_set(a, &hso, "hookEventName", rp_json_make_string_ref(event));
    if (decision)
        rp_json_object_set(a, &hso, "permissionDecision", rp_json_make_string_ref(decision));
    if (decision && reason && reason[0])
        rp_json_object_set(a, &hso, "permissionDecisionReason", rp_json_make_string_ref(reason));
    if (updated)
        rp_json_object_set(a, &hso, "updatedInput", *updated);
    rp_json top = rp_json_make_object();
    rp_json_object_set(a, &top, "hookSpecificOutput", hso);
    rp_hook_write_line(out, &top);
}

void rp_hook_shape_write_block(rp_buf *out, rp_arena *a, const char *reason)
{
    rp_json top = rp_json_make_object();
    rp_json_object_set(a, &top, "decision", rp_json_make_string_ref("block"));
    rp_json_object_set(a, &top, "reason", rp_json_make_string_ref(reason ? reason : ""));
    rp_hook_write_line(out, &top);
}

const char *rp_hook_shape_rewrite_reason(rp_arena *a, const char *prefix, const char *reason)
{
    return rp_arena_sprintf(a, "%s: %s", prefix,
                            reason && reason[0] ? reason : "a policy rewrote it");
}

/* The arguments object of an event data: data.arguments, or data.arguments.args for the
 * dispatch shape (where the host's own tool input went). */
static const rp_json *args_of(const rp_json *data, bool dispatch)
{
    const rp_json *args = rp_json_get(data, "arguments");
    return dispatch ? rp_json_get(args, "args") : args;
}

const rp_json *rp_hook_shape_updated_input(rp_arena *a, const rp_hook_call *call,
                                           const rp_json *data)
{
    if (!rp_json_is_object(call->tool_input))
        return NULL;
    const rp_json *old_data = rp_json_get(&call->event, "data");
    const char *old_name = rp_json_get_str(old_data, "name");
    bool dispatch = old_name && call->tool_name && strcmp(old_name, "sys_session_send") == 0 &&
                    strcmp(call->tool_name, "sys_session_send") != 0;
    const rp_json *old_args = args_of(old_data, dispatch);
    const rp_json *new_args = args_of(data, dispatch);
    if (!rp_json_is_object(new_args))
        return NULL;
    const rp_json *input = call->tool_input;
    rp_json out = rp_json_make_object();
    for (uint32_t i = 0; i < input->len; i++) {
        const rp_json_member *m = &input->v.members[i];
        const rp_json *nv = rp_json_get(new_args, m->key);
        if (nv)
            rp_json_object_set(a, &out, m->key, *nv);
        else if (rp_json_get(old_args, m->key) == NULL)
            rp_json_object_set(a, &out, m->key, m->value); /* never in the event: keep it */
        /* else: a policy removed it, so it goes */
    }
    for (uint32_t i = 0; i < new_args->len; i++) {
        const rp_json_member *m = &new_args->v.members[i];
        if (rp_json_get(input, m->key) == NULL && rp_json_get(old_args, m->key) == NULL)
            rp_json_object_set(a, &out, m->key, m->value); /* a policy added it */
    }
    return rp_json_new(a, out);
}
