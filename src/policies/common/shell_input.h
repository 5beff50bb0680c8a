/* shell_input.h — what the shell-reading policies share: which tools are shells and where the
 * command text is. The parsing itself is src/shell/ (rp_sh_parse). */
#ifndef RAMPART_POLICIES_COMMON_SHELL_INPUT_H
#define RAMPART_POLICIES_COMMON_SHELL_INPUT_H

#include <stdbool.h>

#include "core/json.h"
#include "engine/event.h"

/* JSON text of the default `shell_tools` parameter: the reference's six names plus every host
 * shell tool of agent-hosts.md (from the RP_TOOLS_SHELL table), for param specs. */
extern const char rp_default_shell_tools_json[];

/* Whether `name` is a shell tool under `shell_tools` (a validated string list; NULL = the
 * default set). */
bool rp_is_shell_tool(const char *name, const rp_json *shell_tools);

/* Whether the shell tool `name` runs bash-like commands the parser can read. False for
 * PowerShell (`PowerShell`, `powershell`, `pwsh`): a user may add it to shell_tools, and the
 * shell policies then treat its commands as unreadable. */
bool rp_shell_tool_is_bash(const char *name);

/* The command of a shell tool call: arguments.command when ev is a tool_call of a shell tool.
 * NULL when the event is not one, or the command is missing, not a string, or blank (the
 * reference abstains then). */
const char *rp_shell_command_of(const rp_event *ev, const rp_json *shell_tools);

/* rp_sh_parse of `command`, once per evaluation: the result is kept in ctx (arena memory) and
 * a later call for the same text gets a copy of the same result. The commands are shared:
 * treat them as read-only. Returns what rp_sh_parse returned. */
struct rp_sh_parse;
struct rp_eval_ctx;
int rp_shell_parse_once(struct rp_eval_ctx *ctx, const char *command, struct rp_sh_parse *out);

#endif
