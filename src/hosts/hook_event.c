/* hook_event.c — PolicyEvent builders shared by the adapters (hook_event.h). */
#include <string.h>

#include "hosts/hook_event.h"

static void set_str(rp_arena *a, rp_json *obj, const char *key, const char *value)
{
    if (value != NULL)
        rp_json_object_set(a, obj, key, rp_json_make_string_ref(value));
}

rp_json rp_hook_event_new(rp_arena *a, const rp_hook_adapter *host, const rp_hook_env *env,
                          const char *type, const char *session_id, const rp_hook_ctx_fields *f)
{
    rp_hook_ctx_fields none = {0};
    if (f == NULL)
        f = &none;
    rp_json ctx = rp_json_make_object();
    set_str(a, &ctx, "cwd", f->cwd ? f->cwd : env ? env->process_cwd : NULL);
    set_str(a, &ctx, "home", env ? env->home : NULL);
    set_str(a, &ctx, "user", rp_hook_user(env, f->host_user));
    set_str(a, &ctx, "host", host->name);
    set_str(a, &ctx, "harness", host->harness);
    set_str(a, &ctx, "tool_use_id", f->tool_use_id);
    set_str(a, &ctx, "permission_mode", f->permission_mode);
    set_str(a, &ctx, "model", f->model);
    set_str(a, &ctx, "parent_session_id", f->parent_session_id);
    set_str(a, &ctx, "root_session_id", f->root_session_id);
    rp_json ev = rp_json_make_object();
    rp_json_object_set(a, &ev, "type", rp_json_make_string_ref(type));
    set_str(a, &ev, "session_id", session_id);
    rp_json_object_set(a, &ev, "context", ctx);
    return ev;
}

static rp_json tool_data(rp_arena *a, const char *tool_name, const rp_json *args)
{
    rp_json data = rp_json_make_object();
    rp_json_object_set(a, &data, "name", rp_json_make_string_ref(tool_name ? tool_name : ""));
    rp_json_object_set(a, &data, "arguments", args ? *args : rp_json_make_object());
    return data;
}

void rp_hook_event_tool_call(rp_arena *a, rp_json *ev, const char *tool_name, const rp_json *args)
{
    set_str(a, ev, "target", tool_name);
    rp_json_object_set(a, ev, "data", tool_data(a, tool_name, args));
}

void rp_hook_event_tool_result(rp_arena *a, rp_json *ev, const char *tool_name, const rp_json *args,
                               const rp_json *output, rp_hook_tool_outcome outcome)
{
    set_str(a, ev, "target", tool_name);
    rp_json_object_set(a, ev, "data", rp_hook_tool_result_data(a, output, outcome));
    rp_json_object_set(a, ev, "request_data", tool_data(a, tool_name, args));
}

const char *rp_hook_mcp_name(rp_arena *a, const char *server, const char *tool)
{
    return rp_arena_sprintf(a, "mcp__%s__%s", server, tool);
}

int rp_hook_mcp_tool_name(const rp_json *payload, const char *key, const char *server_key,
                          const char *tool_key, const char *host_name, rp_arena *a,
                          const char **out, char *err, size_t err_size)
{
    *out = host_name;
    const rp_json *mcp = rp_json_get(payload, key);
    if (mcp == NULL || mcp->type == RP_JSON_NULL)
        return 0;
    if (!rp_json_is_object(mcp))
        return rp_hook_fail(err, err_size, "%s must be an object, not %s", key,
                            rp_json_type_name(mcp->type));
    const char *server, *tool;
    if (rp_hook_opt_str(mcp, server_key, &server, err, err_size) != 0 ||
        rp_hook_opt_str(mcp, tool_key, &tool, err, err_size) != 0)
        return -1;
    if (server == NULL || tool == NULL)
        return rp_hook_fail(err, err_size, "%s must name %s and %s", key, server_key, tool_key);
    *out = rp_hook_mcp_name(a, server, tool);
    return 0;
}

void rp_hook_event_request(rp_arena *a, rp_json *ev, const char *prompt)
{
    rp_json data = rp_json_make_object();
    rp_json_object_set(a, &data, "user_content", rp_json_make_string_ref(prompt ? prompt : ""));
    rp_json_object_set(a, ev, "data", data);
}

void rp_hook_event_dispatch(rp_arena *a, rp_json *ev, const rp_hook_env *env, const char *host_tool,
                            const char *subagent_type, const rp_json *tool_input)
{
    rp_json args = rp_json_make_object();
    const char *purpose = rp_hook_subagent_purpose(env, subagent_type);
    set_str(a, &args, "purpose", purpose);
    set_str(a, &args, "subagent_type", subagent_type);
    if (rp_json_is_object(tool_input))
        for (uint32_t i = 0; i < tool_input->len; i++) {
            const rp_json_member *m = &tool_input->v.members[i];
            if (!rp_json_get(&args, m->key))
                rp_json_object_set(a, &args, m->key, m->value);
        }
    rp_json arguments = rp_json_make_object();
    rp_json_object_set(a, &arguments, "args", args);
    set_str(a, &arguments, "host_tool", host_tool);
    rp_hook_event_tool_call(a, ev, "sys_session_send", &arguments);
}
