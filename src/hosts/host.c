/* host.c — the adapter registry and the helpers every adapter shares (host.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/sha256.h"
#include "hosts/host.h"

extern const rp_hook_adapter rp_host_claude_code;
extern const rp_hook_adapter rp_host_codex;
extern const rp_hook_adapter rp_host_cursor;
extern const rp_hook_adapter rp_host_gemini;
extern const rp_hook_adapter rp_host_pi;
extern const rp_hook_adapter rp_host_opencode;

static const rp_hook_adapter *const adapters[] = {
    &rp_host_claude_code, &rp_host_codex, &rp_host_cursor,
    &rp_host_gemini,      &rp_host_pi,    &rp_host_opencode,
};

const rp_hook_adapter *const *rp_hook_host_all(size_t *count)
{
    *count = sizeof adapters / sizeof adapters[0];
    return adapters;
}

const rp_hook_adapter *rp_hook_host_find(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < sizeof adapters / sizeof adapters[0]; i++)
        if (strcmp(adapters[i]->name, name) == 0)
            return adapters[i];
    return NULL;
}

bool rp_hook_phase_protects(rp_hook_phase p)
{
    return p == RP_HOOK_PRE_TOOL || p == RP_HOOK_PROMPT;
}

const char *rp_hook_phase_name(rp_hook_phase p)
{
    static const char *const names[] = {"pre-tool",      "prompt",       "post-tool",
                                        "session-start", "session-end",  "stop",
                                        "llm-request",   "llm-response", "ignored"};
    return (unsigned)p < sizeof names / sizeof names[0] ? names[p] : "unknown";
}

const char *rp_hook_user(const rp_hook_env *env, const char *host_user)
{
    if (env && env->config_user && env->config_user[0])
        return env->config_user;
    if (host_user && host_user[0])
        return host_user;
    return env && env->os_user && env->os_user[0] ? env->os_user : NULL;
}

const char *rp_hook_subagent_purpose(const rp_hook_env *env, const char *subagent_type)
{
    static const char *const defaults[][2] = {
        {"Explore", "explore"}, {"Plan", "review"}, {"general-purpose", "implement"}};
    if (subagent_type == NULL)
        return NULL;
    if (env && env->subagents) {
        const char *p = rp_json_get_str(rp_json_get(env->subagents, "purposes"), subagent_type);
        if (p)
            return p;
    }
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
        if (strcmp(defaults[i][0], subagent_type) == 0)
            return defaults[i][1];
    return NULL;
}

const char *rp_hook_call_key(rp_arena *a, const char *tool_name, const rp_json *tool_input)
{
    rp_json call = rp_json_make_object();
    rp_json_object_set(a, &call, "tool", rp_json_make_string_ref(tool_name ? tool_name : ""));
    rp_json_object_set(a, &call, "input", tool_input ? *tool_input : rp_json_make_null());
    rp_buf canon = {0};
    rp_json_write_sorted(&canon, &call);
    char hex[65];
    rp_sha256_hex(canon.data ? canon.data : "", canon.len, hex);
    rp_buf_free(&canon);
    hex[32] = '\0';
    return rp_arena_sprintf(a, "h:%s", hex);
}

int rp_hook_fail(char *err, size_t err_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
    return -1;
}

int rp_hook_opt_str(const rp_json *obj, const char *key, const char **out, char *err,
                    size_t err_size)
{
    const rp_json *v = rp_json_get(obj, key);
    *out = NULL;
    if (v == NULL || v->type == RP_JSON_NULL)
        return 0;
    if (v->type != RP_JSON_STRING)
        return rp_hook_fail(err, err_size, "%s must be a string, not %s", key,
                            rp_json_type_name(v->type));
    if (v->len > 0)
        *out = v->v.s;
    return 0;
}

const char *rp_hook_prompt_key(rp_arena *a, const char *prompt)
{
    char hex[65];
    rp_sha256_hex(prompt, strlen(prompt), hex);
    hex[32] = '\0';
    return rp_arena_sprintf(a, "prompt:%s", hex);
}

void rp_hook_told(rp_hook_answer *out, rp_verdict result, const char *reason)
{
    out->told = result;
    out->told_reason = reason;
}

void rp_hook_write_line(rp_buf *out, const rp_json *v)
{
    rp_json_write(out, v);
    rp_buf_putc(out, '\n');
}

int rp_hook_read_tool(const rp_json *payload, const char *input_key, rp_hook_call *call, char *err,
                      size_t err_size)
{
    if (rp_hook_opt_str(payload, "tool_name", &call->tool_name, err, err_size) != 0)
        return -1;
    if (call->tool_name == NULL)
        return rp_hook_fail(err, err_size, "tool_name is missing");
    const rp_json *input = rp_json_get(payload, input_key);
    if (!rp_json_is_object(input))
        return rp_hook_fail(err, err_size, "%s must be an object, not %s", input_key,
                            input ? rp_json_type_name(input->type) : "missing");
    call->tool_input = input;
    return 0;
}
