/* fuzz_permissions.c — the permissions policy on arbitrary commands, paths and MCP targets.
 *
 * The first byte picks the tool (bash, read, mcp, apply_patch, bash on win32 rules, a shell
 * alias with a workdir); the rest is its command, path or target. Evaluated against a config
 * that uses every kind of rule (bash patterns with paths, path and external_directory maps,
 * home patterns, mcp, session approvals), with no filesystem. Any crash or sanitizer report is
 * a finding; every input must give ALLOW, ASK or DENY. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/json.h"
#include "engine/event.h"
#include "engine/policy.h"
#include "policies/registry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char params_posix[] =
    "{\"permission\": {\"*\": \"ask\", \"bash\": {\"*\": \"ask\", \"git *\": \"allow\", "
    "\"rm *\": \"deny\", \"cat /workspace/project/secret.txt\": \"deny\", \"sudo *\": \"allow\"},"
    " \"path\": {\"*\": \"allow\", \"*.env\": \"deny\", \"~/.ssh/*\": \"deny\", \"src/*\": "
    "\"ask\"},"
    " \"external_directory\": {\"*\": \"ask\", \"/tmp/*\": \"allow\", \"~/.cargo/*\": \"allow\"},"
    " \"read\": {\"*\": \"allow\", \"*.pem\": {\"action\": \"deny\", \"reason\": \"keys\"}},"
    " \"mcp\": {\"*\": \"allow\", \"dangerousServer\": \"deny\", \"x:*\": \"ask\"}, \"exa_*\": "
    "\"allow\"},"
    " \"shell_tool_args\": {\"exec_command\": {\"commandArgument\": \"cmd\", \"workdirArgument\": "
    "\"workdir\"}},"
    " \"mcp_servers\": [\"exa\", \"dangerousServer\"], \"infrastructure_read_paths\": "
    "[\"/opt/**/lib\"],"
    " \"yolo_mode\": false, \"platform\": \"posix\"}";
static const char params_win32[] =
    "{\"permission\": {\"*\": \"allow\", \"bash\": {\"*\": \"allow\", \"rm *\": \"deny\"},"
    " \"path\": {\"*\": \"allow\", \"dir/file\": \"deny\"}, \"external_directory\": {\"*\": "
    "\"ask\","
    " \"C:/Users/*\": \"allow\", \"/tmp*\": \"allow\"}}, \"platform\": \"win32\"}";

static const rp_policy_type *type;
static void *posix_instance, *win32_instance;
static rp_arena keep;

static void *create(const char *params_text)
{
    rp_json_error jerr;
    rp_json *params = rp_json_parse(&keep, params_text, strlen(params_text), &jerr);
    if (params == NULL)
        abort();
    for (size_t i = 0; i < type->n_params; i++) {
        if (rp_json_get(params, type->params[i].name))
            continue;
        const char *d = type->params[i].default_json;
        rp_json *v = d ? rp_json_parse(&keep, d, strlen(d), &jerr) : NULL;
        rp_json_object_set(&keep, params, type->params[i].name, v ? *v : rp_json_make_null());
    }
    void *inst = NULL;
    rp_param_error perr;
    if (type->create(params, &keep, &inst, &perr) != 0)
        abort();
    return inst;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (type == NULL) {
        type = rp_registry_find("permissions");
        if (type == NULL)
            abort();
        posix_instance = create(params_posix);
        win32_instance = create(params_win32);
    }
    if (size == 0)
        return 0;
    rp_arena a = {0};
    unsigned pick = data[0] % 6;
    const char *text = rp_arena_strndup(&a, (const char *)data + 1, size - 1);
    static const char *const tools[] = {"bash",        "read", "mcp",
                                        "apply_patch", "bash", "exec_command"};
    static const char *const keys[] = {"command", "path", "tool", "command", "command", "cmd"};
    rp_json args = rp_json_make_object();
    rp_json_object_set(&a, &args, keys[pick], rp_json_make_string(&a, text));
    if (pick == 5)
        rp_json_object_set(&a, &args, "workdir", rp_json_make_string(&a, text));
    rp_json call = rp_json_make_object();
    rp_json_object_set(&a, &call, "name", rp_json_make_string(&a, tools[pick]));
    rp_json_object_set(&a, &call, "arguments", args);
    rp_json context = rp_json_make_object();
    rp_json_object_set(
        &a, &context, "cwd",
        rp_json_make_string(&a, pick == 4 ? "C:\\projects\\app" : "/workspace/project"));
    rp_json_object_set(&a, &context, "home", rp_json_make_string(&a, "/home/user"));
    rp_json ev_json = rp_json_make_object();
    rp_json_object_set(&a, &ev_json, "type", rp_json_make_string(&a, "tool_call"));
    rp_json_object_set(&a, &ev_json, "data", call);
    rp_json_object_set(&a, &ev_json, "context", context);
    rp_event ev;
    if (!rp_event_from_json(&ev_json, &ev))
        abort();
    /* A session approval of the same call, and a state that carries it. */
    rp_json state = rp_json_make_object();
    rp_json rules = rp_json_make_array();
    rp_json rule = rp_json_make_object();
    rp_json_object_set(&a, &rule, "surface", rp_json_make_string(&a, "bash"));
    rp_json_object_set(&a, &rule, "pattern", rp_json_make_string(&a, "git push*"));
    rp_json_array_push(&a, &rules, rule);
    rp_json_object_set(&a, &state, "_permissions_session_rules", rules);
    rp_eval_ctx ctx = {.arena = &a, .config = &state, .policy_name = "permissions"};
    rp_result r = {0};
    void *inst = pick == 4 ? win32_instance : posix_instance;
    if (type->evaluate(inst, &ev, &state, &ctx, &r) != 0)
        abort();
    if (r.verdict != RP_ALLOW && r.verdict != RP_ASK && r.verdict != RP_DENY)
        abort();
    rp_arena_free(&a);
    return 0;
}
