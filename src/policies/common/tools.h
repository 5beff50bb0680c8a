/* tools.h — the one table of tool names the builtins gate, per host (docs/tools.md prints it). */
#ifndef RAMPART_POLICIES_COMMON_TOOLS_H
#define RAMPART_POLICIES_COMMON_TOOLS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum rp_tool_set {
    RP_TOOLS_OS = 0,         /* ask_on_os_tools: the reference's 28 names */
    RP_TOOLS_OS_SHELL,       /* ask_on_os_tools: preview = arguments.command */
    RP_TOOLS_OS_PATTERN,     /* ask_on_os_tools: preview = arguments.pattern */
    RP_TOOLS_WRITE,          /* read_only_os: every write-capable tool of every host */
    RP_TOOLS_WORKTREE_WRITE, /* worktree_guard (reference's seven names; later issues extend) */
    RP_TOOLS_SHELL,          /* every host's shell tool (command under `command`) */
    RP_TOOLS__COUNT
} rp_tool_set;

typedef struct rp_tool_entry {
    const char *name;  /* exact, case-sensitive tool name */
    const char *hosts; /* which hosts send it, for docs: "claude-code, codex" */
} rp_tool_entry;

bool rp_tool_in_set(rp_tool_set set, const char *name);
const rp_tool_entry *rp_tool_set_entries(rp_tool_set set, size_t *count);
const char *rp_tool_set_name(rp_tool_set set);        /* "os", "write", ... */
const char *rp_tool_set_description(rp_tool_set set); /* which policy uses it and why */

#endif
