/* perm_tools.h — the host tool mapping of the `permissions` policy: one table that says, for
 * every tool name a host sends, which pi surface guards it and where its path or command is, so
 * that the same rules guard Claude Code, Codex, Gemini CLI, Cursor, opencode, Omnigent and Pi. */
#ifndef RAMPART_PERMISSIONS_PERM_TOOLS_H
#define RAMPART_PERMISSIONS_PERM_TOOLS_H

#include <stddef.h>

typedef enum rp_perm_tool_kind {
    RP_PERM_TOOL_EXTENSION = 0, /* any other tool: its own name, value "*" */
    RP_PERM_TOOL_PATH,          /* a file tool: surface read/write/edit/grep/find/ls */
    RP_PERM_TOOL_MULTI_PATH,    /* a file tool taking a list of paths (each is checked) */
    RP_PERM_TOOL_PATCH,         /* Codex apply_patch: the paths come from the patch headers */
    RP_PERM_TOOL_SHELL,         /* a shell tool: surface bash */
    RP_PERM_TOOL_MCP,           /* pi's MCP proxy tool `mcp` */
    RP_PERM_TOOL_SKILL          /* pi's `skill` tool */
} rp_perm_tool_kind;

typedef struct rp_perm_tool {
    const char *name;    /* exact, case-sensitive */
    rp_perm_tool_kind kind;
    const char *surface; /* the pi surface it is checked on */
    /* PATH/MULTI_PATH: the argument keys holding the path(s), tried in order; SHELL: the
     * command key; PATCH: the keys holding the patch text. NULL-terminated. */
    const char *args[4];
    const char *workdir; /* SHELL: the working-directory key, or NULL */
    const char *hosts;   /* for docs */
} rp_perm_tool;

/* The entry for a tool name, or NULL (an extension tool, or `mcp__server__tool`). */
const rp_perm_tool *rp_perm_tool_lookup(const char *name);
const rp_perm_tool *rp_perm_tool_entries(size_t *count);

#endif
