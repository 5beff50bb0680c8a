/* tools.c — the one table of tool names the builtins gate, and which hosts send each name.
 *
 * Host names follow the shared agent-hosts.md reference: omnigent (its own sys_* tools, SDK
 * harnesses), claude-code, codex, cursor, gemini, pi, opencode, hermes, goose. docs/tools.md prints
 * these tables and a unit test keeps the two identical. Names no host sends in hooks (Codex's
 * internal `exec_command` and `shell`, which its hooks report as `Bash`) are deliberately
 * absent: matching them would only suggest coverage that does not exist. */
#include "policies/common/tools.h"

#include <string.h>

#define N_ENTRIES(a) (sizeof(a) / sizeof((a)[0]))

/* ask_on_os_tools: exactly the reference's 28 names (§5.1); MultiEdit, NotebookEdit, WebFetch
 * and Skill are not in it. */
static const rp_tool_entry os_tools[] = {
    {"sys_os_read", "omnigent"},
    {"sys_os_write", "omnigent"},
    {"sys_os_edit", "omnigent"},
    {"sys_os_shell", "omnigent"},
    {"Bash", "claude-code, codex"},
    {"Read", "claude-code, cursor"},
    {"Write", "claude-code, cursor"},
    {"Edit", "claude-code, cursor"},
    {"Glob", "claude-code"},
    {"Grep", "claude-code"},
    {"Shell", "cursor"},
    {"read", "pi, opencode"},
    {"bash", "pi, opencode"},
    {"write", "pi"},
    {"edit", "pi, opencode"},
    {"grep", "opencode"},
    {"glob", "opencode"},
    {"terminal", "hermes"},
    {"execute_code", "hermes"},
    {"read_file", "hermes, gemini"},
    {"write_file", "hermes, gemini"},
    {"search_files", "hermes"},
    {"developer__shell", "goose"},
    {"developer__write", "goose"},
    {"developer__edit", "goose"},
    {"developer__text_editor", "goose"},
    {"developer__read_image", "goose"},
    {"developer__tree", "goose"},
};

/* ask_on_os_tools previews these by arguments.command. */
static const rp_tool_entry os_shell_tools[] = {
    {"sys_os_shell", "omnigent"}, {"Bash", "claude-code, codex"}, {"bash", "pi, opencode"},
    {"Shell", "cursor"},          {"terminal", "hermes"},         {"developer__shell", "goose"},
};

/* ask_on_os_tools previews these by arguments.pattern. */
static const rp_tool_entry os_pattern_tools[] = {
    {"Grep", "claude-code"}, {"Glob", "claude-code"}, {"search_files", "hermes"},
    {"grep", "opencode"},    {"glob", "opencode"},
};

/* read_only_os: every tool of every host that can create or change a file. Shell is not here:
 * report-only agents keep their shell (reference §5.17). */
static const rp_tool_entry write_tools[] = {
    {"Write", "claude-code, cursor"},
    {"Edit", "claude-code, cursor"},
    {"MultiEdit", "claude-code"},
    {"NotebookEdit", "claude-code"},
    {"StrReplace", "cursor"},
    {"apply_patch", "codex"},
    {"write_file", "gemini, hermes"},
    {"replace", "gemini"},
    {"str_replace_based_edit_tool", "omnigent (Anthropic text-editor tool)"},
    {"developer__write", "goose"},
    {"developer__edit", "goose"},
    {"developer__text_editor", "goose"},
    {"sys_os_write", "omnigent"},
    {"sys_os_edit", "omnigent"},
    {"write", "pi"},
    {"edit", "pi, opencode"},
};

/* The reference's worktree_guard names (§5.16), kept for comparison: rampart's worktree_guard
 * gates the whole write set above (and the shell), closing the reference's known weakness. */
static const rp_tool_entry worktree_write_tools[] = {
    {"sys_os_write", "omnigent"},    {"sys_os_edit", "omnigent"},  {"Write", "claude-code, cursor"},
    {"Edit", "claude-code, cursor"}, {"MultiEdit", "claude-code"}, {"write", "pi"},
    {"edit", "pi, opencode"},
};

/* Every host's shell tool; each carries the command line under arguments.command. The
 * shell-reading policies default their `shell_tools` to exactly this list (shell_input.c).
 * Claude Code's `PowerShell` is not bash and is deliberately absent: a user who adds it gets its
 * commands treated as unreadable. */
static const rp_tool_entry shell_tools[] = {
    {"sys_os_shell", "omnigent"},    {"Bash", "claude-code, codex"},
    {"bash", "pi, opencode"},        {"Shell", "cursor"},
    {"terminal", "hermes"},          {"developer__shell", "goose"},
    {"run_shell_command", "gemini"},
};

static const struct {
    const char *name;
    const char *description;
    const rp_tool_entry *entries;
    size_t count;
} tool_sets[RP_TOOLS__COUNT] = {
    [RP_TOOLS_OS] = {"os", "ask_on_os_tools asks before any of these file and shell tools",
                     os_tools, N_ENTRIES(os_tools)},
    [RP_TOOLS_OS_SHELL] = {"os_shell",
                           "ask_on_os_tools shows arguments.command of these in its question",
                           os_shell_tools, N_ENTRIES(os_shell_tools)},
    [RP_TOOLS_OS_PATTERN] = {"os_pattern",
                             "ask_on_os_tools shows arguments.pattern of these in its question",
                             os_pattern_tools, N_ENTRIES(os_pattern_tools)},
    [RP_TOOLS_WRITE] = {"write", "read_only_os denies these write-capable tools of every host",
                        write_tools, N_ENTRIES(write_tools)},
    [RP_TOOLS_WORKTREE_WRITE] =
        {"worktree_write", "the reference's worktree_guard names; rampart's gates the write set",
         worktree_write_tools, N_ENTRIES(worktree_write_tools)},
    [RP_TOOLS_SHELL] = {"shell", "every host's shell tool (the command is arguments.command)",
                        shell_tools, N_ENTRIES(shell_tools)},
};

bool rp_tool_in_set(rp_tool_set set, const char *name)
{
    if (name == NULL || (unsigned)set >= RP_TOOLS__COUNT)
        return false;
    const rp_tool_entry *e = tool_sets[set].entries;
    for (size_t i = 0; i < tool_sets[set].count; i++)
        if (e[i].name[0] == name[0] && strcmp(e[i].name, name) == 0)
            return true;
    return false;
}

const rp_tool_entry *rp_tool_set_entries(rp_tool_set set, size_t *count)
{
    if ((unsigned)set >= RP_TOOLS__COUNT) {
        *count = 0;
        return NULL;
    }
    *count = tool_sets[set].count;
    return tool_sets[set].entries;
}

const char *rp_tool_set_name(rp_tool_set set)
{
    return (unsigned)set < RP_TOOLS__COUNT ? tool_sets[set].name : "";
}

const char *rp_tool_set_description(rp_tool_set set)
{
    return (unsigned)set < RP_TOOLS__COUNT ? tool_sets[set].description : "";
}
