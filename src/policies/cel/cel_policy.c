/* cel_policy — custom policy logic as a CEL expression (reference §5.27; the seed's "Track
 * custom state from a CEL expression").
 *
 * The expression is compiled once, when the config is loaded, and evaluated per event against
 * `event`: the PolicyEvent as CEL (a view of the JSON, not a copy) with three changes made in a
 * shallow copy of its top level: `llm_client` is dropped, `session_state` is the engine's
 * snapshot (so a stateful session sees what earlier evaluations wrote), and for `request`
 * events `data` is the user text. The value is interpreted by cel_policy_result.c.
 *
 * An evaluation error (a CEL error value: no such key, the evaluation budget, a regex limit; or
 * malformed state_updates) is a failure of the policy, answered by the engine like any other
 * builtin's: the policy's `on_error`, else the config's top-level on_error, default DENY. The
 * reference abstains (fail open), which a rule over `split(" ")` defeated by a million words
 * shows to be a bypass; `on_error: allow` is the way to ask for it. */
#include <stdio.h>
#include <string.h>

#include "policies/builtins.h"
#include "policies/cel/cel_policy.h"
#include "policies/registry.h"

typedef struct cel_pol {
    cel_program *program;
    const char *reason; /* fallback reason of DENY/ASK */
} cel_pol;

static const rp_param_spec cel_pol_params[] = {
    {.name = "expression",
     .kind = RP_PARAM_STRING,
     .required = true,
     .description = "CEL expression over `event`; returns {result, reason?, state_updates?}."},
    {.name = "reason",
     .kind = RP_PARAM_STRING,
     .default_json = "\"Denied by policy.\"",
     .description = "Reason of a DENY or ASK whose map gives none."},
};

/* Whether e is a string constant naming a reserved key. Reserved names are short: a longer
 * constant is compared by its first 255 bytes, which still matches the prefix patterns. */
static bool is_reserved_constant(const cel_expr *e)
{
    if (e->kind != CEL_EXPR_CONST || e->u.constant.kind != CEL_STRING)
        return false;
    char key[256];
    size_t n = e->u.constant.len < sizeof key - 1 ? e->u.constant.len : sizeof key - 1;
    memcpy(key, e->u.constant.v.s, n);
    key[n] = '\0';
    return rp_registry_key_reserved(key);
}

/* Finds a literal state update of a reserved key: a map literal (or message construction,
 * which evaluates to a map) with the entry "key": "<reserved>". Such an update could never
 * apply, so it is refused when the config loads rather than dropped at every evaluation.
 * Returns the offending value node, or NULL. Recursion depth is bounded by the parser's. */
static const cel_expr *find_reserved_literal(const cel_expr *e)
{
    const cel_expr *hit = NULL;
    if (e == NULL)
        return NULL;
    switch (e->kind) {
    case CEL_EXPR_CONST:
    case CEL_EXPR_IDENT:
        return NULL;
    case CEL_EXPR_SELECT:
        return find_reserved_literal(e->u.select.operand);
    case CEL_EXPR_CALL:
        if ((hit = find_reserved_literal(e->u.call.target)) != NULL)
            return hit;
        for (uint32_t i = 0; i < e->u.call.nargs && hit == NULL; i++)
            hit = find_reserved_literal(e->u.call.args[i]);
        return hit;
    case CEL_EXPR_LIST:
        for (uint32_t i = 0; i < e->u.list.n && hit == NULL; i++)
            hit = find_reserved_literal(e->u.list.elements[i]);
        return hit;
    case CEL_EXPR_MAP:
        for (uint32_t i = 0; i < e->u.map.n && hit == NULL; i++) {
            const cel_expr *k = e->u.map.keys[i], *v = e->u.map.values[i];
            if (k->kind == CEL_EXPR_CONST && k->u.constant.kind == CEL_STRING &&
                k->u.constant.len == 3 && memcmp(k->u.constant.v.s, "key", 3) == 0 &&
                is_reserved_constant(v))
                return v;
            if ((hit = find_reserved_literal(k)) == NULL)
                hit = find_reserved_literal(v);
        }
        return hit;
    case CEL_EXPR_STRUCT:
        for (uint32_t i = 0; i < e->u.strct.n && hit == NULL; i++) {
            const cel_expr *v = e->u.strct.values[i];
            if (strcmp(e->u.strct.fields[i], "key") == 0 && is_reserved_constant(v))
                return v;
            hit = find_reserved_literal(v);
        }
        return hit;
    case CEL_EXPR_COMPREHENSION:
        if ((hit = find_reserved_literal(e->u.comp.iter_range)) == NULL &&
            (hit = find_reserved_literal(e->u.comp.accu_init)) == NULL &&
            (hit = find_reserved_literal(e->u.comp.loop_condition)) == NULL &&
            (hit = find_reserved_literal(e->u.comp.loop_step)) == NULL)
            hit = find_reserved_literal(e->u.comp.result);
        return hit;
    }
    return NULL;
}

static int cel_pol_create(const rp_json *params, rp_arena *a, void **instance, rp_param_error *err)
{
    const rp_json *expr = rp_json_get(params, "expression");
    if (!rp_json_is_string(expr))
        return rp_param_fail(err, "expression", "expression must be a string");

    cel_program *program = NULL;
    cel_source_error serr;
    memset(&serr, 0, sizeof serr);
    if (cel_compile(expr->v.s, expr->len, NULL, &program, &serr) != 0)
        return rp_param_fail(err, "expression", "expression: line %d, column %d: %s", serr.line,
                             serr.col, serr.message);

    /* The literal check walks a fresh parse rather than the program's AST: compilation folds
     * constant map literals into single values, which keeps no position for their entries.
     * One more parse per config load is cheap. */
    rp_arena tmp = {0};
    cel_parse_opts popts = {.enable_optional_syntax = true};
    int64_t next_id = 1;
    const cel_expr *root = cel_parse(&tmp, expr->v.s, expr->len, &popts, &next_id, &serr);
    const cel_expr *bad = root ? find_reserved_literal(root) : NULL;
    if (bad != NULL) {
        int line, col;
        cel_source_position(expr->v.s, expr->len, bad->offset, &line, &col);
        int n = (int)bad->u.constant.len;
        rp_param_fail(err, "expression",
                      "expression: line %d, column %d: state key '%.*s' is reserved for a builtin "
                      "policy and cannot be written",
                      line, col, n, bad->u.constant.v.s);
        rp_arena_free(&tmp);
        cel_program_free(program);
        return -1;
    }
    rp_arena_free(&tmp);

    cel_pol *p = rp_arena_calloc(a, sizeof *p);
    p->program = program;
    const char *reason = rp_json_get_str(params, "reason");
    p->reason = rp_arena_strdup(a, reason ? reason : "Denied by policy.");
    *instance = p;
    return 0;
}

/* The event as the expression sees it: the top level copied (members only, values shared),
 * llm_client, data and session_state replaced or dropped. */
static const rp_json *project_event(const rp_event *ev, const rp_json *state, rp_arena *a)
{
    const rp_json *root = ev->root;
    rp_json *copy = rp_json_new(a, rp_json_make_object());
    uint32_t cap = root->len + 2;
    copy->v.members = rp_arena_alloc(a, cap * sizeof(*copy->v.members));
    copy->cap = cap;
    uint32_t n = 0;
    for (uint32_t i = 0; i < root->len; i++) {
        const rp_json_member *m = &root->v.members[i];
        if (strcmp(m->key, "llm_client") == 0 || strcmp(m->key, "session_state") == 0)
            continue;
        if (ev->type == RP_EV_REQUEST && strcmp(m->key, "data") == 0)
            continue;
        copy->v.members[n++] = *m;
    }
    if (ev->type == RP_EV_REQUEST) {
        const char *text = rp_event_request_text(ev, a);
        rp_json_member *m = &copy->v.members[n++];
        m->key = "data";
        m->key_len = 4;
        m->value = rp_json_make_string_ref(text ? text : "");
    }
    rp_json_member *m = &copy->v.members[n++];
    m->key = "session_state";
    m->key_len = 13;
    m->value = *state;
    copy->len = n;
    return copy;
}

static int cel_pol_evaluate(const void *instance, const rp_event *ev, const rp_json *state,
                            rp_eval_ctx *ctx, rp_result *out)
{
    const cel_pol *p = instance;
    const char *name = ctx->policy_name ? ctx->policy_name : "cel_policy";

    cel_binding vars[] = {{"event", cel_from_json(project_event(ev, state, ctx->arena))}};
    cel_activation act = {vars, 1, NULL, NULL};
    cel_value v = cel_eval(p->program, &act, ctx->arena);

    char err[512];
    const char *dropped = NULL;
    if (rp_cel_policy_interpret(&v, p->reason, ctx->arena, out, &dropped, err, sizeof err) != 0)
        return rp_fail(ctx, "evaluation error: %s", err);
    if (dropped != NULL) {
        out->note = dropped;
        if (ctx->warn)
            ctx->warn(ctx->warn_self, name, dropped);
    }
    return 0;
}

static void cel_pol_destroy(void *instance)
{
    cel_pol *p = instance;
    cel_program_free(p->program);
    p->program = NULL;
}

const rp_policy_type rp_policy_cel_policy = {
    .name = "cel_policy",
    .module = "omnigent.policies.builtins.cel",
    .description = "Custom policy logic as a CEL expression returning {result, reason, "
                   "state_updates}.",
    .params = cel_pol_params,
    .n_params = sizeof cel_pol_params / sizeof cel_pol_params[0],
    .create = cel_pol_create,
    .evaluate = cel_pol_evaluate,
    .destroy = cel_pol_destroy,
};
