/* shell_input.c — which tools are shells and where their command text is (shell_input.h).
 *
 * The default set is the RP_TOOLS_SHELL table of tools.c, so docs/tools.md, the policies and
 * the param defaults cannot drift apart: rp_default_shell_tools_json spells the same list and a
 * unit test compares the two. */
#include "policies/common/shell_input.h"

#include "engine/policy.h"
#include "shell/shell.h"

#include <string.h>

#include "core/pyrepr.h"
#include "policies/common/tools.h"

const char rp_default_shell_tools_json[] = "[\"sys_os_shell\", \"Bash\", \"bash\", \"Shell\", "
                                           "\"terminal\", \"developer__shell\", "
                                           "\"run_shell_command\"]";

bool rp_is_shell_tool(const char *name, const rp_json *shell_tools)
{
    if (name == NULL)
        return false;
    if (shell_tools == NULL)
        return rp_tool_in_set(RP_TOOLS_SHELL, name);
    if (!rp_json_is_array(shell_tools))
        return false;
    for (uint32_t i = 0; i < shell_tools->len; i++) {
        const rp_json *item = &shell_tools->v.items[i];
        if (rp_json_is_string(item) && strcmp(item->v.s, name) == 0)
            return true;
    }
    return false;
}

bool rp_shell_tool_is_bash(const char *name)
{
    /* PowerShell syntax is not bash: reading it with the bash parser would see words that are
     * not there, so its commands are unreadable for every shell policy. */
    return name != NULL && strcmp(name, "PowerShell") != 0 && strcmp(name, "powershell") != 0 &&
           strcmp(name, "pwsh") != 0;
}

const char *rp_shell_command_of(const rp_event *ev, const rp_json *shell_tools)
{
    if (ev == NULL || ev->type != RP_EV_TOOL_CALL || !rp_is_shell_tool(ev->tool_name, shell_tools))
        return NULL;
    const rp_json *command = rp_json_get(ev->arguments, "command");
    if (!rp_json_is_string(command))
        return NULL;
    size_t start, len;
    rp_py_strip(command->v.s, command->len, &start, &len);
    return len == 0 ? NULL : command->v.s;
}

/* One remembered parse. Policies of one pass see the same arguments.command pointer, unless a
 * transform replaced the content; the text is compared, so a changed command is parsed anew. */
typedef struct shell_memo {
    const char *command;
    size_t len;
    int rc;
    struct rp_sh_parse result;
} shell_memo;

int rp_shell_parse_once(rp_eval_ctx *ctx, const char *command, struct rp_sh_parse *out)
{
    size_t len = strlen(command);
    shell_memo *m = ctx->shell_memo;
    if (m != NULL && m->len == len && (m->command == command || memcmp(m->command, command, len) == 0)) {
        *out = m->result;
        return m->rc;
    }
    m = rp_arena_alloc(ctx->arena, sizeof *m);
    m->command = command;
    m->len = len;
    m->rc = rp_sh_parse(ctx->arena, command, len, &m->result);
    ctx->shell_memo = m;
    *out = m->result;
    return m->rc;
}
