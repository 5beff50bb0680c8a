/* ask_on_os_tools — ASK before any file or shell tool of any host runs (reference §5.1).
 *
 * A direct callable: no parameters. It always answers ALLOW or ASK, never abstains. The
 * question shows what the tool is about to touch: the command of a shell tool, the pattern of a
 * search tool, the first 80 characters of execute_code's code, otherwise the path. */
#include <string.h>

#include "engine/policy.h"
#include "policies/builtins.h"
#include "policies/common/common.h"
#include "core/pyrepr.h"
#include "policies/common/tools.h"

#define CODE_PREVIEW_CHARS 80

static int ask_os_create(const rp_json *params, rp_arena *a, void **instance, rp_param_error *err)
{
    (void)params;
    (void)a;
    (void)err;
    *instance = NULL;
    return 0;
}

/* arguments.get(key, "") when arguments is an object, else "". */
static const rp_json *arg_or_empty(const rp_json *args, const char *key)
{
    static const rp_json empty = {.type = RP_JSON_STRING, .len = 0, .v.s = ""};
    const rp_json *v = rp_json_is_object(args) ? rp_json_get(args, key) : NULL;
    return v ? v : &empty;
}

/* code[:80] of execute_code: a str or a list can be sliced; anything else raises in Python. */
static int code_preview(const rp_json *code, rp_eval_ctx *ctx, rp_json *out)
{
    if (rp_json_is_string(code)) {
        size_t bytes = rp_py_prefix_bytes(code->v.s, code->len, CODE_PREVIEW_CHARS);
        *out = rp_json_make_stringn(ctx->arena, code->v.s, bytes);
        return 0;
    }
    if (rp_json_is_array(code)) {
        *out = rp_json_make_array();
        for (uint32_t i = 0; i < code->len && i < CODE_PREVIEW_CHARS; i++)
            rp_json_array_push(ctx->arena, out, code->v.items[i]);
        return 0;
    }
    return rp_fail(ctx, "execute_code arguments.code is not sliceable (%s)",
                   rp_json_type_name(code->type));
}

static int ask_os_evaluate(const void *instance, const rp_event *ev, const rp_json *state,
                           rp_eval_ctx *ctx, rp_result *out)
{
    (void)instance;
    (void)state;
    out->verdict = RP_ALLOW;
    if (ev->type != RP_EV_TOOL_CALL || !rp_json_is_object(ev->data))
        return 0;

    const rp_json *name = rp_json_get(ev->data, "name");
    if (rp_json_is_array(name) || rp_json_is_object(name))
        return rp_fail(ctx, "tool name is unhashable (%s)", rp_json_type_name(name->type));
    const char *tool = rp_json_str(name);
    if (tool == NULL)
        tool = "";
    else if (strlen(tool) != name->len)
        return 0; /* an embedded NUL: no real tool is called that */
    if (!rp_tool_in_set(RP_TOOLS_OS, tool))
        return 0;

    const rp_json *args = rp_json_get(ev->data, "arguments");
    const rp_json *preview;
    rp_json sliced;
    if (rp_tool_in_set(RP_TOOLS_OS_SHELL, tool)) {
        preview = arg_or_empty(args, "command");
    } else if (rp_tool_in_set(RP_TOOLS_OS_PATTERN, tool)) {
        preview = arg_or_empty(args, "pattern");
    } else if (strcmp(tool, "execute_code") == 0) {
        if (rp_json_is_object(args)) {
            if (code_preview(arg_or_empty(args, "code"), ctx, &sliced) < 0)
                return -1;
            preview = &sliced;
        } else {
            preview = arg_or_empty(NULL, "code");
        }
    } else {
        /* Omnigent and Pi tools say `path`, Claude's say `file_path`. */
        const rp_json *path = rp_json_is_object(args) ? rp_json_get(args, "path") : NULL;
        preview = rp_json_truthy(path) ? path : arg_or_empty(args, "file_path");
    }

    rp_buf b = {0};
    rp_buf_puts(&b, "Agent wants to call ");
    rp_buf_puts(&b, tool);
    rp_buf_putc(&b, '(');
    rp_py_repr(&b, preview);
    rp_buf_puts(&b, "). Approve?");
    out->verdict = RP_ASK;
    out->reason = rp_buf_to_arena(&b, ctx->arena);
    return 0;
}

const rp_policy_type rp_policy_ask_on_os_tools = {
    .name = "ask_on_os_tools",
    .module = "omnigent.policies.builtins.safety",
    .description = "Ask before any file or shell tool of any host runs.",
    .params = NULL,
    .n_params = 0,
    .direct_callable = true,
    .create = ask_os_create,
    .evaluate = ask_os_evaluate,
};
