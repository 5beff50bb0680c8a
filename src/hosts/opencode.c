/* opencode.c — the opencode adapter (agent-hosts.md A.5). opencode's plugin
 * (integrations/opencode/rampart.ts) spawns `rampart hook opencode` and speaks the protocol
 * documented in pi.c, with opencode's tool names (bash, edit, write, read, grep, glob,
 * webfetch) and its event names accepted beside the protocol's: tool.execute.before →
 * tool_call, tool.execute.after → tool_result, chat.message → input, session.idle → turn_end.
 * opencode's callID is the tool_call_id. */
#include "hosts/pi_shape.h"

extern const rp_hook_adapter rp_host_opencode;

static int parse(const rp_json *payload, const rp_hook_env *env, rp_arena *a, rp_hook_call *call,
                 char *err, size_t err_size)
{
    return rp_hook_pi_shape_parse(&rp_host_opencode, true, payload, env, a, call, err, err_size);
}

const rp_hook_adapter rp_host_opencode = {.name = "opencode",
                                          .harness = "opencode",
                                          .deadline_ms = 1000,
                                          .parse = parse,
                                          .answer = rp_hook_pi_shape_answer};
