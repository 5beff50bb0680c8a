/* shell_input.h — what the shell-reading policies share: which tools are shells and where the
 * command text is. The parsing itself is src/shell/ (rp_sh_parse). */
#ifndef RAMPART_POLICIES_SHELL_INPUT_H
#define RAMPART_POLICIES_SHELL_INPUT_H

#include <stdbool.h>

#include "core/json.h"
#include "engine/event.h"

/* JSON text of the default `shell_tools` parameter: the reference's six names plus every host
 * shell tool of agent-hosts.md (from the RP_TOOLS_SHELL table), for param specs. */
extern const char rp_default_shell_tools_json[];

/* Whether `name` is a shell tool under `shell_tools` (a validated string list; NULL = the
 * default set). */
bool rp_is_shell_tool(const char *name, const rp_json *shell_tools);

/* The command of a shell tool call: arguments.command when ev is a tool_call of a shell tool.
 * NULL when the event is not one, or the command is missing, not a string, or blank (the
 * reference abstains then). */
const char *rp_shell_command_of(const rp_event *ev, const rp_json *shell_tools);

#endif
