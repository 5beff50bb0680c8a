/* block_skills — DENY loading the listed skills, by tool call or by slash command
 * (reference §5.4). Names compare case-insensitively (Python's str.lower()).
 *
 * Three ways in: Omnigent's load_skill {name} / read_skill_file {skill_name}, the native Skill
 * tool of Claude Code and Codex {skill}, and a `request` whose text starts with /<skill>. */
#include <string.h>

#include "engine/policy.h"
#include "policies/builtins.h"
#include "policies/common/common.h"
#include "core/pyrepr.h"
#include "core/utf8.h"

typedef struct block_skills {
    const char **blocked_lower;
    size_t n_blocked;
} block_skills;

static const rp_param_spec block_skills_params[] = {
    {.name = "blocked",
     .kind = RP_PARAM_STRING_LIST,
     .default_json = NULL,
     .required = true,
     .description = "Skill names to block (compared case-insensitively)."},
};

static int block_skills_create(const rp_json *params, rp_arena *a, void **instance,
                               rp_param_error *err)
{
    const rp_json *blocked = rp_json_get(params, "blocked");
    if (!rp_json_is_array(blocked))
        return rp_param_fail(err, "blocked", "blocked must be a list of skill names");
    for (uint32_t i = 0; i < blocked->len; i++)
        if (!rp_json_is_string(&blocked->v.items[i]))
            return rp_param_fail(err, "blocked", "blocked[%u] must be a string", (unsigned)i);

    block_skills *b = rp_arena_calloc(a, sizeof *b);
    b->n_blocked = blocked->len;
    b->blocked_lower = rp_arena_alloc(a, (b->n_blocked + 1) * sizeof *b->blocked_lower);
    for (uint32_t i = 0; i < blocked->len; i++)
        b->blocked_lower[i] =
            rp_py_lower(a, blocked->v.items[i].v.s, blocked->v.items[i].len, NULL);
    b->blocked_lower[b->n_blocked] = NULL;
    *instance = b;
    return 0;
}

static bool is_blocked(const block_skills *b, const char *name, size_t len, rp_arena *a)
{
    size_t lower_len;
    const char *lower = rp_py_lower(a, name, len, &lower_len);

    for (size_t i = 0; i < b->n_blocked; i++)
        if (strlen(b->blocked_lower[i]) == lower_len &&
            memcmp(b->blocked_lower[i], lower, lower_len) == 0)
            return true;
    return false;
}

static void deny_skill(rp_result *out, rp_arena *a, const char *name, size_t len)
{
    out->verdict = RP_DENY;
    out->reason = rp_arena_sprintf(a, "Skill '%.*s' is blocked by policy", (int)len, name);
}

static int check_tool_call(const block_skills *b, const rp_event *ev, rp_eval_ctx *ctx,
                           rp_result *out)
{
    if (!rp_json_is_object(ev->data))
        return 0;
    const rp_json *args = rp_json_get(ev->data, "arguments");
    if (!rp_json_is_object(args))
        return 0;
    const rp_json *tool = rp_json_get(ev->data, "name");
    if (rp_json_is_array(tool) || rp_json_is_object(tool))
        return rp_fail(ctx, "tool name is unhashable (%s)", rp_json_type_name(tool->type));
    const char *name = rp_json_str(tool);
    if (name == NULL || strlen(name) != tool->len)
        return 0;

    const char *arg_key;
    if (strcmp(name, "load_skill") == 0)
        arg_key = "name";
    else if (strcmp(name, "read_skill_file") == 0)
        arg_key = "skill_name";
    else if (strcmp(name, "Skill") == 0)
        arg_key = "skill";
    else
        return 0;

    const rp_json *skill = rp_json_get(args, arg_key);
    if (!rp_json_truthy(skill))
        return 0;
    if (!rp_json_is_string(skill))
        return rp_fail(ctx, "arguments.%s is not a string (%s)", arg_key,
                       rp_json_type_name(skill->type));
    if (is_blocked(b, skill->v.s, skill->len, ctx->arena))
        deny_skill(out, ctx->arena, skill->v.s, skill->len);
    return 0;
}

/* A slash command: "/<word> ...", the word being text[1:].split(None, 1)[0]. */
static void check_request(const block_skills *b, const rp_event *ev, rp_eval_ctx *ctx,
                          rp_result *out)
{
    const char *text = rp_event_request_text(ev, ctx->arena);
    if (text == NULL || text[0] != '/')
        return;
    size_t n = strlen(text);
    size_t pos = 1, start, end;
    uint32_t cp;

    while (pos < n) {
        size_t len = rp_utf8_decode(text + pos, n - pos, &cp, RP_UTF8_AS_BYTE);
        if (!rp_py_isspace(cp))
            break;
        pos += len;
    }
    start = end = pos;
    while (end < n) {
        size_t len = rp_utf8_decode(text + end, n - end, &cp, RP_UTF8_AS_BYTE);
        if (rp_py_isspace(cp))
            break;
        end += len;
    }
    if (is_blocked(b, text + start, end - start, ctx->arena))
        deny_skill(out, ctx->arena, text + start, end - start);
}

static int block_skills_evaluate(const void *instance, const rp_event *ev, const rp_json *state,
                                 rp_eval_ctx *ctx, rp_result *out)
{
    const block_skills *b = instance;

    (void)state;
    out->verdict = RP_ALLOW;
    if (ev->type == RP_EV_TOOL_CALL)
        return check_tool_call(b, ev, ctx, out);
    if (ev->type == RP_EV_REQUEST)
        check_request(b, ev, ctx, out);
    return 0;
}

const rp_policy_type rp_policy_block_skills = {
    .name = "block_skills",
    .module = "omnigent.policies.builtins.safety",
    .description = "Deny loading the listed skills, by tool call or by slash command.",
    .params = block_skills_params,
    .n_params = sizeof block_skills_params / sizeof block_skills_params[0],
    .create = block_skills_create,
    .evaluate = block_skills_evaluate,
};
