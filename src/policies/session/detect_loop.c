/* detect_loop — ASK when the same tool is called with identical arguments `threshold` times
 * within the last `window` calls (reference §5.6).
 *
 * A call is identified by the SHA-256 of json.dumps({"a": arguments, "t": name},
 * sort_keys=True), byte for byte as Python writes it, so the hashes rampart stores are the ones
 * Omnigent stores and a session can move between the two. The window of recent hashes lives in
 * session state; both verdicts carry the new window, and an ASK's copy is withheld until it is
 * approved, so a declined loop keeps asking. */
#include <string.h>

#include "core/sha256.h"
#include "engine/policy.h"
#include "policies/builtins.h"
#include "policies/common/common.h"
#include "core/pyrepr.h"

#define HASHES_KEY "_policy_loop_recent_hashes"

typedef struct detect_loop {
    size_t window;
    int64_t threshold;
} detect_loop;

static const rp_param_spec detect_loop_params[] = {
    {.name = "window",
     .kind = RP_PARAM_INT,
     .default_json = "10",
     .has_min = true,
     .min = 1,
     .description = "How many recent tool calls are remembered."},
    {.name = "threshold",
     .kind = RP_PARAM_INT,
     .default_json = "3",
     .has_min = true,
     .min = 1,
     .description = "Identical calls within the window that make the policy ask."},
};

static const char *const detect_loop_keys[] = {HASHES_KEY, NULL};

static int detect_loop_create(const rp_json *params, rp_arena *a, void **instance,
                              rp_param_error *err)
{
    const rp_json *window = rp_json_get(params, "window");
    const rp_json *threshold = rp_json_get(params, "threshold");

    if (window == NULL || window->type != RP_JSON_INT || window->v.i < 1)
        return rp_param_fail(err, "window", "window must be an integer >= 1");
    if (threshold == NULL || threshold->type != RP_JSON_INT || threshold->v.i < 1)
        return rp_param_fail(err, "threshold", "threshold must be an integer >= 1");

    detect_loop *d = rp_arena_calloc(a, sizeof *d);
    /* A window beyond any real history is the same as an unbounded one. */
    d->window = window->v.i > 1000000 ? 1000000 : (size_t)window->v.i;
    d->threshold = threshold->v.i;
    *instance = d;
    return 0;
}

/* SHA-256 hex of the Python canonical form of {"a": arguments, "t": name}. */
static void call_hash(const rp_json *name, const rp_json *arguments, char hex[65])
{
    /* The two-member object lives on the stack: it is only written, never kept. */
    rp_json_member members[2] = {{.key = "a", .key_len = 1, .value = *arguments},
                                 {.key = "t", .key_len = 1, .value = *name}};
    rp_json call = rp_json_make_object();
    rp_buf text = {0};

    call.v.members = members;
    call.len = call.cap = 2;
    rp_json_write_python(&text, &call);
    rp_sha256_hex(text.data ? text.data : "", text.len, hex);
    rp_buf_free(&text);
}

static int detect_loop_evaluate(const void *instance, const rp_event *ev, const rp_json *state,
                                rp_eval_ctx *ctx, rp_result *out)
{
    const detect_loop *d = instance;
    static const rp_json empty_string = {.type = RP_JSON_STRING, .len = 0, .v.s = ""};
    static const rp_json empty_object = {.type = RP_JSON_OBJECT};

    out->verdict = RP_ALLOW;
    if (ev->type != RP_EV_TOOL_CALL || !rp_json_is_object(ev->data))
        return 0;

    /* data.get("name", "") and data.get("arguments", {}): used as they are, whatever type. */
    const rp_json *name = rp_json_get(ev->data, "name");
    const rp_json *arguments = rp_json_get(ev->data, "arguments");
    if (name == NULL)
        name = &empty_string;
    if (arguments == NULL)
        arguments = &empty_object;

    char hex[65];
    call_hash(name, arguments, hex);

    /* recent = the string items of the stored list (anything else counts as empty), plus the new
     * hash, keeping the last `window`. */
    const rp_json *stored = rp_json_get(state, HASHES_KEY);
    size_t n_stored = 0;
    if (rp_json_is_array(stored))
        for (uint32_t i = 0; i < stored->len; i++)
            if (rp_json_is_string(&stored->v.items[i]))
                n_stored++;
    size_t total = n_stored + 1;
    size_t skip = total > d->window ? total - d->window : 0;

    rp_json recent = rp_json_make_array();
    int64_t count = 0;
    size_t seen = 0;
    if (rp_json_is_array(stored)) {
        for (uint32_t i = 0; i < stored->len; i++) {
            const rp_json *item = &stored->v.items[i];
            if (!rp_json_is_string(item))
                continue;
            if (seen++ < skip)
                continue;
            if (item->len == 64 && memcmp(item->v.s, hex, 64) == 0)
                count++;
            /* The stored string itself, not a copy: the snapshot lives as long as the result
             * (the engine already shares nested snapshot values), and applying a SET clones. */
            rp_json_array_push(ctx->arena, &recent, *item);
        }
    }
    rp_json_array_push(ctx->arena, &recent, rp_json_make_string(ctx->arena, hex));
    count++;

    if (count >= d->threshold) {
        rp_buf b = {0};
        rp_buf_puts(&b, "The agent appears stuck in a retry loop \xe2\x80\x94 tool '");
        rp_py_str(&b, name);
        rp_buf_printf(&b, "' called with identical arguments %lld times in the last %u calls.",
                      (long long)count, (unsigned)recent.len);
        out->verdict = RP_ASK;
        out->reason = rp_buf_to_arena(&b, ctx->arena);
    }
    rp_result_add_update(ctx->arena, out, HASHES_KEY, RP_UPDATE_SET, recent);
    return 0;
}

const rp_policy_type rp_policy_detect_loop = {
    .name = "detect_loop",
    .module = "omnigent.policies.builtins.safety",
    .description = "Ask when the agent repeats an identical tool call within a short window.",
    .params = detect_loop_params,
    .n_params = sizeof detect_loop_params / sizeof detect_loop_params[0],
    .owned_keys = detect_loop_keys,
    .create = detect_loop_create,
    .evaluate = detect_loop_evaluate,
};
