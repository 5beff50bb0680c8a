/* perm_tools.c — the one table of host tool names the `permissions` policy understands.
 *
 * Pi's own names come first and keep their meaning (read/write/edit/grep/find/ls with `path`,
 * bash with `command`, mcp, skill). Other hosts' file and shell tools are mapped onto the same
 * surfaces, so a `read: {"*.env": deny}` rule guards Claude Code's Read and Gemini's read_file
 * alike. Names not listed here are extension tools, matched by their own name (reference §1.5);
 * `mcp__<server>__<tool>` names (Claude Code, Gemini) are MCP calls (permissions.c). */
#include "permissions/perm_tools.h"

#include <string.h>

#define N_ENTRIES(a) (sizeof(a) / sizeof((a)[0]))

static const rp_perm_tool tools[] = {
    /* Pi (and opencode, whose tools share these names but spell the path filePath). */
    {"read",
     RP_PERM_TOOL_PATH,
     "read",
     {"path", "filePath", "file_path", NULL},
     NULL,
     "pi, opencode"},
    {"write",
     RP_PERM_TOOL_PATH,
     "write",
     {"path", "filePath", "file_path", NULL},
     NULL,
     "pi, opencode"},
    {"edit",
     RP_PERM_TOOL_PATH,
     "edit",
     {"path", "filePath", "file_path", NULL},
     NULL,
     "pi, opencode"},
    {"grep", RP_PERM_TOOL_PATH, "grep", {"path", NULL}, NULL, "pi, opencode"},
    {"find", RP_PERM_TOOL_PATH, "find", {"path", NULL}, NULL, "pi"},
    {"ls", RP_PERM_TOOL_PATH, "ls", {"path", NULL}, NULL, "pi"},
    {"bash", RP_PERM_TOOL_SHELL, "bash", {"command", NULL}, "workdir", "pi, opencode"},
    {"mcp", RP_PERM_TOOL_MCP, "mcp", {NULL}, NULL, "pi"},
    {"skill", RP_PERM_TOOL_SKILL, "skill", {"name", NULL}, NULL, "pi"},
    {"glob", RP_PERM_TOOL_PATH, "find", {"path", NULL}, NULL, "opencode, gemini"},
    {"list", RP_PERM_TOOL_PATH, "ls", {"path", NULL}, NULL, "opencode"},
    {"patch", RP_PERM_TOOL_PATCH, "edit", {"patchText", "patch", NULL}, NULL, "opencode"},

    /* Claude Code (Read/Write/Edit are also Cursor's preToolUse names). */
    {"Read", RP_PERM_TOOL_PATH, "read", {"file_path", "path", NULL}, NULL, "claude-code, cursor"},
    {"Write", RP_PERM_TOOL_PATH, "write", {"file_path", "path", NULL}, NULL, "claude-code, cursor"},
    {"Edit", RP_PERM_TOOL_PATH, "edit", {"file_path", "path", NULL}, NULL, "claude-code, cursor"},
    {"MultiEdit", RP_PERM_TOOL_PATH, "edit", {"file_path", NULL}, NULL, "claude-code"},
    {"NotebookEdit", RP_PERM_TOOL_PATH, "edit", {"notebook_path", NULL}, NULL, "claude-code"},
    {"NotebookRead", RP_PERM_TOOL_PATH, "read", {"notebook_path", NULL}, NULL, "claude-code"},
    {"Glob", RP_PERM_TOOL_PATH, "find", {"path", NULL}, NULL, "claude-code"},
    {"Grep", RP_PERM_TOOL_PATH, "grep", {"path", NULL}, NULL, "claude-code"},
    {"LS", RP_PERM_TOOL_PATH, "ls", {"path", NULL}, NULL, "claude-code"},
    {"Bash", RP_PERM_TOOL_SHELL, "bash", {"command", NULL}, NULL, "claude-code, codex"},
    {"BashOutput", RP_PERM_TOOL_EXTENSION, "BashOutput", {NULL}, NULL, "claude-code"},

    /* Codex: every shell tool (shell, exec_command, …) reaches hooks as Bash; apply_patch carries
     * the patch in `command`. Its own names are not mapped: pi treats exec_command as an
     * extension tool unless shell_tool_args names it. */
    {"apply_patch", RP_PERM_TOOL_PATCH, "edit", {"command", "input", "patch", NULL}, NULL, "codex"},

    /* Gemini CLI. */
    {"read_file",
     RP_PERM_TOOL_PATH,
     "read",
     {"path", "absolute_path", "file_path", NULL},
     NULL,
     "gemini"},
    {"write_file", RP_PERM_TOOL_PATH, "write", {"file_path", "path", NULL}, NULL, "gemini"},
    {"replace", RP_PERM_TOOL_PATH, "edit", {"file_path", "path", NULL}, NULL, "gemini"},
    {"read_many_files", RP_PERM_TOOL_MULTI_PATH, "read", {"paths", NULL}, NULL, "gemini"},
    {"list_directory", RP_PERM_TOOL_PATH, "ls", {"path", "dir_path", NULL}, NULL, "gemini"},
    {"search_file_content", RP_PERM_TOOL_PATH, "grep", {"path", "dir_path", NULL}, NULL, "gemini"},
    {"run_shell_command", RP_PERM_TOOL_SHELL, "bash", {"command", NULL}, "dir_path", "gemini"},

    /* Cursor (the agent's own tool names; its hooks' Read/Write/Edit/Shell are above/below). */
    {"Shell", RP_PERM_TOOL_SHELL, "bash", {"command", NULL}, "cwd", "cursor"},
    {"StrReplace", RP_PERM_TOOL_PATH, "edit", {"file_path", "path", NULL}, NULL, "cursor"},
    {"Delete", RP_PERM_TOOL_PATH, "write", {"file_path", "path", NULL}, NULL, "cursor"},
    {"edit_file", RP_PERM_TOOL_PATH, "edit", {"target_file", NULL}, NULL, "cursor"},
    {"delete_file", RP_PERM_TOOL_PATH, "write", {"target_file", NULL}, NULL, "cursor"},
    {"list_dir",
     RP_PERM_TOOL_PATH,
     "ls",
     {"relative_workspace_path", "path", NULL},
     NULL,
     "cursor"},
    {"run_terminal_cmd", RP_PERM_TOOL_SHELL, "bash", {"command", NULL}, "cwd", "cursor"},

    /* Omnigent's OS tools. */
    {"sys_os_read", RP_PERM_TOOL_PATH, "read", {"path", "file_path", NULL}, NULL, "omnigent"},
    {"sys_os_write", RP_PERM_TOOL_PATH, "write", {"path", "file_path", NULL}, NULL, "omnigent"},
    {"sys_os_edit", RP_PERM_TOOL_PATH, "edit", {"path", "file_path", NULL}, NULL, "omnigent"},
    {"sys_os_shell", RP_PERM_TOOL_SHELL, "bash", {"command", NULL}, "cwd", "omnigent"},
};

const rp_perm_tool *rp_perm_tool_lookup(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < N_ENTRIES(tools); i++)
        if (tools[i].name[0] == name[0] && strcmp(tools[i].name, name) == 0)
            return &tools[i];
    return NULL;
}

const rp_perm_tool *rp_perm_tool_entries(size_t *count)
{
    *count = N_ENTRIES(tools);
    return tools;
}
