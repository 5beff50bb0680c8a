/* hook_event.h — builders for the PolicyEvents the adapters produce, so that every host fills
 * the same fields the same way (docs/hosts.md, "The event fields hosts fill"). All memory comes
 * from the arena; strings are borrowed, not copied (they point into the parsed payload). */
#ifndef RAMPART_HOSTS_HOOK_EVENT_H
#define RAMPART_HOSTS_HOOK_EVENT_H

#include "hosts/host.h"
#include "hosts/tool_result.h"

/* The parts of context.* every event carries. Any field may be NULL (then omitted). */
typedef struct rp_hook_ctx_fields {
    const char *cwd;             /* the agent's cwd; NULL = env->process_cwd */
    const char *host_user;       /* the host's own user (Cursor user_email), see rp_hook_user */
    const char *permission_mode; /* Claude/Codex permission_mode */
    const char *tool_use_id;     /* the host's call id, or rp_hook_call_key */
    const char *model;
    const char *parent_session_id; /* sub-agent lineage */
    const char *root_session_id;
} rp_hook_ctx_fields;

/* {type, session_id, context:{cwd, home, user, host, harness, ...}}; target/data are added by
 * the callers below. */
rp_json rp_hook_event_new(rp_arena *a, const rp_hook_adapter *host, const rp_hook_env *env,
                          const char *type, const char *session_id, const rp_hook_ctx_fields *f);

/* tool_call: target = tool_name, data = {name, arguments} (arguments: args, or {} when NULL). */
void rp_hook_event_tool_call(rp_arena *a, rp_json *ev, const char *tool_name, const rp_json *args);

/* tool_result: target = tool_name, data = rp_hook_tool_result_data(output, outcome) (the one shape
 * the policies read: {result, is_error?}), request_data = {name, arguments}. output is the
 * host's tool output as sent (NULL when none); keep it in call->tool_output for the answer. */
void rp_hook_event_tool_result(rp_arena *a, rp_json *ev, const char *tool_name, const rp_json *args,
                               const rp_json *output, rp_hook_tool_outcome outcome);

/* The name the policies know an MCP tool by: "mcp__<server>__<tool>", Claude Code's and
 * Codex's own naming, which github_policy and the permissions `mcp` surface read. Hosts that
 * name MCP tools otherwise (Gemini `mcp_<server>_<tool>` with mcp_context, opencode
 * `<server>_<tool>`) map their calls to it when they know the server and the tool; the call
 * keeps the host's name (call->tool_name) for the answer. */
const char *rp_hook_mcp_name(rp_arena *a, const char *server, const char *tool);

/* The event's tool name for a call named host_name: when payload.KEY, an object, names the MCP
 * server (server_key) and tool (tool_key) — Gemini's mcp_context, the extension protocol's mcp —
 * rp_hook_mcp_name of them; without KEY (or null) host_name. -1 with err when KEY is there but
 * malformed. */
int rp_hook_mcp_tool_name(const rp_json *payload, const char *key, const char *server_key,
                          const char *tool_key, const char *host_name, rp_arena *a,
                          const char **out, char *err, size_t err_size);

/* request: data = {user_content: prompt}. */
void rp_hook_event_request(rp_arena *a, rp_json *ev, const char *prompt);

/* The dispatch shape spawn_bounds, headless_subagent_purpose_guard and subagent_cost_budget
 * read, for a host's sub-agent tool (Claude Agent/Task): tool_call of `sys_session_send` with
 * arguments {args: {purpose, subagent_type, ...every field of tool_input}, host_tool}. The
 * purpose comes from rp_hook_subagent_purpose; without one the key is omitted (so the purpose
 * guard denies, as it should for an undeclared purpose). */
void rp_hook_event_dispatch(rp_arena *a, rp_json *ev, const rp_hook_env *env, const char *host_tool,
                            const char *subagent_type, const rp_json *tool_input);

#endif
