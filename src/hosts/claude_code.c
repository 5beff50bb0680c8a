/* claude_code.c — placeholder until the claude-code adapter lands (issue 8). */
#include <stdio.h>

#include "hosts/host.h"

static int parse(const rp_json *payload, const rp_hook_env *env, rp_arena *a, rp_hook_call *call,
                 char *err, size_t err_size)
{
    (void)payload;
    (void)env;
    (void)a;
    call->phase = RP_HOOK_PRE_TOOL;
    snprintf(err, err_size, "the claude-code adapter is not implemented yet");
    return -1;
}

static void answer(const rp_hook_call *call, const rp_hook_verdict *v,
                   const rp_host_settings *settings, rp_arena *a, rp_hook_answer *out)
{
    (void)call;
    (void)settings;
    (void)a;
    rp_buf_printf(&out->err, "%s\n", v->reason ? v->reason : "");
    out->exit_code = 2;
}

const rp_host_adapter rp_host_claude_code = {.name = "claude-code",
                                             .harness = "claude-code",
                                             .deadline_ms = 1000,
                                             .parse = parse,
                                             .answer = answer};
