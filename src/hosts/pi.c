/* pi.c — the Pi coding agent adapter (agent-hosts.md A.5). Pi runs extensions in process;
 * rampart's extension (integrations/pi/rampart.ts) spawns `rampart hook pi` for each event it
 * gates and acts on the answer. opencode's plugin (integrations/opencode/rampart.ts) speaks the
 * same protocol to `rampart hook opencode` (opencode.c). The protocol:
 *
 * stdin: one JSON object
 *   {"event": EVENT, "session_id": "...", "cwd": "..."?, "tool_name": "..."?,
 *    "tool_call_id": "..."?, "input": {...}?, "prompt": "..."?, "output": ...?,
 *    "is_error": bool?, "mcp": {"server": "...", "tool": "..."}?, "usage": {...}?,
 *    "model": "..."?, "message_id": "..."?}
 *   event            rampart event    fields read
 *   tool_call        tool_call        tool_name, input (an object), tool_call_id
 *   tool_result      tool_result      tool_name, input?, tool_call_id, output (any JSON; text
 *                                     as a string), is_error (the host's failure signal:
 *                                     Pi's isError, opencode's metadata.exit != 0; absent
 *                                     when the host gave none). data = {result, is_error}
 *                                     (tool_result.h)
 *   input            request          prompt (the user's message)
 *   message_end      llm_response     usage {input, output, cacheRead, cacheWrite,
 *                                     cost: {total}} → input_tokens, output_tokens,
 *                                     cache_read_input_tokens, cache_creation_input_tokens,
 *                                     cost_usd; model; message_id (the dedupe key)
 *   session_start    session_start
 *   session_shutdown session_end
 *   turn_end         stop
 *   opencode also accepts its own names: tool.execute.before (tool_call), tool.execute.after
 *   (tool_result), chat.message (input), session.idle (turn_end).
 *   tool_call and tool_result may carry `mcp` {server, tool} for an MCP tool (opencode names
 *   them `<server>_<tool>`): the event then names the tool mcp__<server>__<tool>, as Claude
 *   Code does, which is how github_policy and the permissions mcp surface know MCP calls.
 *   session_id is required. tool_call_id (Pi's toolCallId, opencode's callID) becomes
 *   context.tool_use_id; without one, a hash of the tool and its input. An unknown event is
 *   an error (answered DENY).
 *
 * stdout: exactly one JSON line, exit 0 always (the extension acts on the JSON):
 *   {"result": "ALLOW" | "ASK" | "DENY", "reason": "..." | null, "input": {...}?,
 *    "prompt": "..."?}
 *   `input` (tool_call only) is the rewritten tool input (e.g. a secret redacted): the
 *   extension assigns its fields into the call's input. `prompt` (Pi's input only) is the
 *   rewritten prompt: the extension returns {action: "transform", text} to Pi. An ASK carries
 *   its rewrite, applied once the person approved. A rewrite of an opencode prompt or a tool
 *   output, which the extension cannot apply, is answered DENY. An error rampart cannot decide
 * through is DENY on tool_call and input (fail closed) and ALLOW elsewhere.
 *
 * The extension: DENY blocks; ASK asks the person (Pi: ctx.ui.confirm when ctx.hasUI, else
 * block; opencode: block unless RAMPART_OPENCODE_ASK=allow); a spawn failure, a timeout or an
 * answer that is not this JSON blocks tool calls and prompts, and is ignored elsewhere. */
#include "hosts/pi_shape.h"

extern const rp_hook_adapter rp_host_pi;

static int parse(const rp_json *payload, const rp_hook_env *env, rp_arena *a, rp_hook_call *call,
                 char *err, size_t err_size)
{
    return rp_hook_pi_shape_parse(&rp_host_pi, false, payload, env, a, call, err, err_size);
}

const rp_hook_adapter rp_host_pi = {.name = "pi",
                                    .harness = "pi",
                                    .deadline_ms = 1000,
                                    .parse = parse,
                                    .answer = rp_hook_pi_shape_answer};
