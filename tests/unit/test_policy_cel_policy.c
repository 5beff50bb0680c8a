/* test_policy_cel_policy.c — the cel_policy builtin (reference §5.27, the seed's "Track custom
 * state from a CEL expression"): compile errors, verdict mapping, the event as CEL, state
 * updates and their validation, reserved keys, and evaluation errors as failures that the
 * engine answers with on_error (issue 16). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "config/config.h"
#include "engine/engine.h"
#include "policies/builtins.h"
#include "policy_test_util.h"

#define T (&rp_policy_cel_policy)

/* ---- helpers ---- */

/* Params JSON {"expression": expr, <extra>} (extra: further members, or NULL). */
static const char *params_for(rp_arena *a, const char *expr, const char *extra)
{
    rp_buf b = {0};
    rp_buf_puts(&b, "{\"expression\":");
    rp_json_write_string(&b, expr, strlen(expr));
    if (extra != NULL) {
        rp_buf_putc(&b, ',');
        rp_buf_puts(&b, extra);
    }
    rp_buf_putc(&b, '}');
    char *s = rp_arena_strndup(a, b.data, b.len);
    rp_buf_free(&b);
    return s;
}

static rp_arena scratch; /* params text of the test being run */

static void create_ok(pt_policy *p, const char *expr, const char *extra)
{
    pt_create(p, T, params_for(&scratch, expr, extra));
    if (p->create_rc != 0)
        fprintf(stderr, "create failed: %s: %s\n", p->err.param, p->err.message);
    assert_int_equal(p->create_rc, 0);
}

static void create_fails(pt_policy *p, const char *expr, const char *extra)
{
    pt_create(p, T, params_for(&scratch, expr, extra));
    assert_int_equal(p->create_rc, -1);
    assert_string_equal(p->err.param, "expression");
}

/* What ctx->warn received. */
typedef struct warnings {
    int n;
    char last[512];
} warnings;

static void record_warning(void *self, const char *policy, const char *message)
{
    warnings *w = self;
    w->n++;
    snprintf(w->last, sizeof w->last, "%s: %s", policy, message);
}

/* Evaluates with an explicit state snapshot (as the engine passes it) and a warning sink. */
static void eval_raw(pt_eval *e, const pt_policy *p, const char *event_json, const char *state_json,
                     warnings *w)
{
    rp_event ev;
    memset(e, 0, sizeof *e);
    e->ctx.arena = &e->arena;
    e->ctx.policy_name = "my_cel";
    e->ctx.warn = record_warning;
    e->ctx.warn_self = w;
    assert_true(rp_event_from_json(pt_parse(&e->arena, event_json), &ev));
    const rp_json *state = pt_parse(&e->arena, state_json);
    e->rc = p->type->evaluate(p->instance, &ev, state, &e->ctx, &e->result);
}

static void eval_with_state(pt_eval *e, const pt_policy *p, const char *event_json,
                            const char *state_json, warnings *w)
{
    eval_raw(e, p, event_json, state_json, w);
    assert_int_equal(e->rc, 0);
}

/* An evaluation that must fail: the policy returns an error (the engine then answers its
 * on_error), with nothing in the result and no warning of its own. */
static void expect_failure(pt_eval *e, const pt_policy *p, const char *event_json,
                           const char *message)
{
    warnings w = {0};
    eval_raw(e, p, event_json, "{}", &w);
    if (strstr(e->ctx.error, message) == NULL)
        fprintf(stderr, "error '%s' lacks '%s'\n", e->ctx.error, message);
    assert_int_equal(e->rc, -1);
    assert_true(strncmp(e->ctx.error, "evaluation error: ", 18) == 0);
    assert_non_null(strstr(e->ctx.error, message));
    assert_int_equal(e->result.verdict, RP_ABSTAIN);
    assert_null(e->result.reason);
    assert_int_equal(e->result.n_updates, 0);
    assert_int_equal(w.n, 0);
}

#define TOOL_CALL(name) "{\"type\":\"tool_call\",\"data\":{\"name\":\"" name "\",\"arguments\":{}}}"

/* ---- schema and create ---- */

static void test_schema(void **unused)
{
    (void)unused;
    assert_string_equal(T->module, "omnigent.policies.builtins.cel");
    const rp_param_spec *expr = pt_param(T, "expression");
    assert_non_null(expr);
    assert_true(expr->required);
    assert_int_equal(expr->kind, RP_PARAM_STRING);
    assert_string_equal(pt_param(T, "reason")->default_json, "\"Denied by policy.\"");
    /* on_error is every policy's (params.c), not cel_policy's own. */
    assert_null(pt_param(T, "on_error"));
    assert_null(T->owned_keys);
}

static void test_compile_error_has_line_and_column(void **unused)
{
    (void)unused;
    pt_policy p;
    create_fails(&p, "1 + ", NULL);
    assert_true(strncmp(p.err.message, "expression: line 1, column ", 27) == 0);
    pt_policy_free(&p);

    create_fails(&p, "event.type == \"tool_call\" &&\n  (event.data.name == )", NULL);
    assert_non_null(strstr(p.err.message, "expression: line 2, column "));
    pt_policy_free(&p);

    create_fails(&p, "{\"result\": \"DENY\"", NULL);
    assert_non_null(strstr(p.err.message, "line 1"));
    pt_policy_free(&p);
}

static void test_literal_reserved_key_is_a_config_error(void **unused)
{
    (void)unused;
    pt_policy p;
    /* The quoted "_policy_tool_call_count" starts at byte 46 (column 47). */
    create_fails(&p,
                 "{\"result\": \"ALLOW\", \"state_updates\": [{\"key\": "
                 "\"_policy_tool_call_count\", \"action\": \"set\", \"value\": 0}]}",
                 NULL);
    assert_string_equal(p.err.message,
                        "expression: line 1, column 47: state key '_policy_tool_call_count' is "
                        "reserved for a builtin policy and cannot be written");
    pt_policy_free(&p);

    /* Prefix patterns, nested in a conditional, on a later line. */
    create_fails(&p,
                 "event.type == \"tool_call\"\n"
                 "  ? {\"result\": \"ALLOW\", \"state_updates\": [{\"action\": \"set\", "
                 "\"key\": \"_permissions_x\", \"value\": 1}]}\n"
                 "  : {\"result\": \"ALLOW\"}",
                 NULL);
    assert_non_null(strstr(p.err.message, "line 2, column "));
    assert_non_null(strstr(p.err.message, "'_permissions_x'"));
    pt_policy_free(&p);

    create_fails(&p, "{\"result\": \"ALLOW\", \"state_updates\": [{\"key\": \"risk_score\"}]}",
                 NULL);
    pt_policy_free(&p);

    /* Inside a comprehension, and in message construction (which evaluates to a map). */
    create_fails(&p,
                 "{\"result\": \"ALLOW\", \"state_updates\": [1].map(x, {\"key\": \"gmail_x\", "
                 "\"action\": \"delete\"})}",
                 NULL);
    assert_non_null(strstr(p.err.message, "'gmail_x'"));
    pt_policy_free(&p);
    create_fails(&p, "{\"result\": \"ALLOW\", \"state_updates\": [U{key: \"_policy_\"}]}", NULL);
    assert_non_null(strstr(p.err.message, "'_policy_'"));
    pt_policy_free(&p);

    /* Ordinary keys, and reserved names that are not the value of a "key" entry, are fine. */
    create_ok(&p,
              "{\"result\": \"ALLOW\", \"note\": \"_policy_x\", \"state_updates\": "
              "[{\"key\": \"call_count\", \"action\": \"increment\", \"value\": 1}]}",
              NULL);
    pt_policy_free(&p);
}

/* ---- verdicts ---- */

static void test_verdicts_and_reasons(void **unused)
{
    (void)unused;
    pt_policy p;
    create_ok(&p,
              "event.type == \"tool_call\" && event.data.name == \"sys_os_shell\" ? "
              "{\"result\": \"DENY\", \"reason\": \"Shell blocked.\"} : "
              "event.type == \"tool_call\" && event.data.name == \"ask_me\" ? "
              "{\"result\": \"ASK\", \"reason\": \"Approve this?\"} : {\"result\": \"ALLOW\"}",
              NULL);
    PT_EXPECT(&p, TOOL_CALL("sys_os_shell"), RP_DENY, "Shell blocked.", NULL);
    PT_EXPECT(&p, TOOL_CALL("ask_me"), RP_ASK, "Approve this?", NULL);
    PT_EXPECT(&p, TOOL_CALL("web_search"), RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
}

static void test_result_is_case_insensitive(void **unused)
{
    (void)unused;
    pt_policy p;
    create_ok(&p,
              "event.data.name == \"a\" ? {\"result\": \"deny\"} : event.data.name == \"b\" ? "
              "{\"result\": \"Ask\"} : {\"result\": \"aLLoW\"}",
              "\"reason\": \"No.\"");
    PT_EXPECT(&p, TOOL_CALL("a"), RP_DENY, "No.", NULL);
    PT_EXPECT(&p, TOOL_CALL("b"), RP_ASK, "No.", NULL);
    PT_EXPECT(&p, TOOL_CALL("c"), RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
}

static void test_fallback_reason(void **unused)
{
    (void)unused;
    pt_policy p;
    create_ok(&p, "{\"result\": \"DENY\"}", NULL);
    PT_EXPECT(&p, "{\"type\":\"request\"}", RP_DENY, "Denied by policy.", NULL);
    pt_policy_free(&p);

    create_ok(&p, "{\"result\": \"ASK\"}", "\"reason\": \"Please approve.\"");
    PT_EXPECT(&p, "{\"type\":\"request\"}", RP_ASK, "Please approve.", NULL);
    pt_policy_free(&p);

    /* An empty or non-string reason is no reason. */
    create_ok(&p,
              "event.data.name == \"a\" ? {\"result\": \"DENY\", \"reason\": \"\"} : "
              "{\"result\": \"DENY\", \"reason\": 42}",
              "\"reason\": \"Factory.\"");
    PT_EXPECT(&p, TOOL_CALL("a"), RP_DENY, "Factory.", NULL);
    PT_EXPECT(&p, TOOL_CALL("b"), RP_DENY, "Factory.", NULL);
    pt_policy_free(&p);

    /* ALLOW keeps its own reason and gets no fallback. */
    create_ok(&p, "{\"result\": \"ALLOW\", \"reason\": \"fine\"}", "\"reason\": \"Factory.\"");
    PT_EXPECT(&p, TOOL_CALL("a"), RP_ALLOW, "fine", NULL);
    pt_policy_free(&p);
}

static void test_non_verdicts_abstain(void **unused)
{
    (void)unused;
    static const char *const exprs[] = {
        "true",
        "\"DENY\"",
        "null",
        "[\"DENY\"]",
        "{\"reason\": \"no verdict\"}",
        "{\"result\": \"MAYBE\", \"reason\": \"x\"}",
        "{\"result\": 1}",
        "{\"result\": true}",
        "{\"result\": \" DENY\"}",
        "{1: \"DENY\"}",
        /* Not a verdict: its updates are not applied either. */
        ("{\"result\": \"nope\", \"state_updates\": [{\"key\": \"a\", \"action\": \"set\", "
         "\"value\": 1}]}"),
    };
    for (size_t i = 0; i < sizeof exprs / sizeof exprs[0]; i++) {
        pt_policy p;
        create_ok(&p, exprs[i], NULL);
        PT_EXPECT(&p, TOOL_CALL("x"), RP_ABSTAIN, NULL, NULL);
        pt_policy_free(&p);
    }
}

/* ---- the event as CEL ---- */

static void test_request_data_is_user_text(void **unused)
{
    (void)unused;
    pt_policy p;
    create_ok(&p,
              "event.type == \"request\" && event.data.contains(\"SECRET\") ? "
              "{\"result\": \"DENY\", \"reason\": \"Secret detected.\"} : {\"result\": \"ALLOW\"}",
              NULL);
    PT_EXPECT(&p, "{\"type\":\"request\",\"data\":\"my SECRET key\"}", RP_DENY, "Secret detected.",
              NULL);
    PT_EXPECT(&p, "{\"type\":\"request\",\"data\":\"normal\"}", RP_ALLOW, NULL, NULL);
    PT_EXPECT(&p, "{\"type\":\"request\",\"data\":{\"user_content\":\"a SECRET\"}}", RP_DENY,
              "Secret detected.", NULL);
    PT_EXPECT(&p,
              "{\"type\":\"request\",\"data\":[{\"type\":\"text\",\"text\":\"one\"},"
              "{\"type\":\"text\",\"text\":\"SECRET two\"}]}",
              RP_DENY, "Secret detected.", NULL);
    pt_policy_free(&p);

    /* The projection is a string even when the request has no text; other events keep data. */
    create_ok(&p,
              "type(event.data) == string ? {\"result\": \"DENY\", \"reason\": event.data} : "
              "{\"result\": \"ALLOW\"}",
              NULL);
    PT_EXPECT(&p, "{\"type\":\"request\"}", RP_DENY, "Denied by policy.", NULL);
    PT_EXPECT(&p, "{\"type\":\"request\",\"data\":{\"user_content\":\"hi\"}}", RP_DENY, "hi", NULL);
    PT_EXPECT(&p, "{\"type\":\"response\",\"data\":{\"text\":\"hi\"}}", RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
}

static void test_llm_client_is_stripped(void **unused)
{
    (void)unused;
    pt_policy p;
    create_ok(&p,
              "has(event.llm_client) || \"llm_client\" in event ? {\"result\": \"DENY\"} : "
              "{\"result\": \"ALLOW\", \"reason\": event.target}",
              NULL);
    PT_EXPECT(&p, "{\"type\":\"request\",\"target\":\"t\",\"llm_client\":{\"model\":\"m\"}}",
              RP_ALLOW, "t", NULL);
    pt_policy_free(&p);
}

static void test_json_numbers_and_session_state(void **unused)
{
    (void)unused;
    pt_policy p;
    /* 1 is int, 1.5 is double: both arithmetic forms of the issue work. */
    create_ok(&p,
              "event.session_state.call_count + 1 == 3 && "
              "event.context.usage.total_cost_usd * 1.1 > 1.0 ? {\"result\": \"DENY\"} : "
              "{\"result\": \"ALLOW\"}",
              NULL);
    pt_eval e;
    warnings w = {0};
    eval_with_state(&e, &p,
                    "{\"type\":\"tool_call\",\"data\":{\"name\":\"x\"},"
                    "\"context\":{\"usage\":{\"total_cost_usd\":1.5}}}",
                    "{\"call_count\": 2}", &w);
    assert_int_equal(e.result.verdict, RP_DENY);
    pt_eval_free(&e);
    /* The engine's snapshot wins over a session_state the event carries. */
    eval_with_state(&e, &p,
                    "{\"type\":\"tool_call\",\"data\":{\"name\":\"x\"},\"session_state\":"
                    "{\"call_count\": 2},\"context\":{\"usage\":{\"total_cost_usd\":1.5}}}",
                    "{\"call_count\": 5}", &w);
    assert_int_equal(e.result.verdict, RP_ALLOW);
    pt_eval_free(&e);
    assert_int_equal(w.n, 0);
    pt_policy_free(&p);
}

/* ---- state updates ---- */

#define SEED_COUNT_TOOL_CALLS                                                                      \
    "event.type == \"tool_call\" ? {\n"                                                            \
    "  \"result\": \"ALLOW\",\n"                                                                   \
    "  \"state_updates\": [\n"                                                                     \
    "    {\"key\": \"call_count\", \"action\": \"increment\", \"value\": 1},\n"                    \
    "    {\"key\": \"last_tool\", \"action\": \"set\", \"value\": event.data.name}\n"              \
    "  ]\n"                                                                                        \
    "} : {\"result\": \"ALLOW\"}\n"

static void test_seed_count_tool_calls(void **unused)
{
    (void)unused;
    pt_policy p;
    create_ok(&p, SEED_COUNT_TOOL_CALLS, NULL);
    PT_EXPECT(&p, TOOL_CALL("Bash"), RP_ALLOW, NULL,
              "[{\"key\":\"call_count\",\"action\":\"increment\",\"value\":1},"
              "{\"key\":\"last_tool\",\"action\":\"set\",\"value\":\"Bash\"}]");
    PT_EXPECT(&p, "{\"type\":\"request\",\"data\":\"hi\"}", RP_ALLOW, NULL, NULL);
    pt_policy_free(&p);
}

static void test_every_action(void **unused)
{
    (void)unused;
    pt_policy p;
    create_ok(&p,
              "{\"result\": \"DENY\", \"reason\": \"r\", \"state_updates\": ["
              "{\"key\": \"a\", \"action\": \"set\", \"value\": {\"x\": [1, 2.5, true, null]}},"
              "{\"key\": \"b\", \"action\": \"increment\", \"value\": 0.5},"
              "{\"key\": \"c\", \"action\": \"append\", \"value\": \"item\"},"
              "{\"key\": \"d\", \"action\": \"delete\"},"
              "{\"key\": \"e\", \"action\": \"delete\", \"value\": b\"ignored\"}]}",
              NULL);
    PT_EXPECT(&p, TOOL_CALL("x"), RP_DENY, "r",
              "[{\"key\":\"a\",\"action\":\"set\",\"value\":{\"x\":[1,2.5,true,null]}},"
              "{\"key\":\"b\",\"action\":\"increment\",\"value\":0.5},"
              "{\"key\":\"c\",\"action\":\"append\",\"value\":\"item\"},"
              "{\"key\":\"d\",\"action\":\"delete\",\"value\":null},"
              "{\"key\":\"e\",\"action\":\"delete\",\"value\":null}]");
    pt_policy_free(&p);
}

/* A malformed state_updates makes the evaluation an error (nothing applied): the engine
 * answers it with on_error. */
static void test_malformed_updates_are_an_evaluation_error(void **unused)
{
    (void)unused;
    static const struct {
        const char *updates;
        const char *message;
    } cases[] = {
        {"{\"key\": \"a\"}", "state_updates is a map, not a list"},
        {"[1]", "state_updates[0] is a int, not a map"},
        {"[{\"action\": \"set\", \"value\": 1}]", "state_updates[0] needs a non-empty string key"},
        {"[{\"key\": \"\", \"action\": \"set\", \"value\": 1}]",
         "state_updates[0] needs a non-empty string key"},
        {"[{\"key\": 1, \"action\": \"set\", \"value\": 1}]",
         "state_updates[0] needs a non-empty string key"},
        {"[{\"key\": \"ok\", \"action\": \"set\", \"value\": 1}, {\"key\": \"a\", \"action\": "
         "\"add\", \"value\": 1}]",
         "state_updates[1] (key 'a') needs an action: set, increment, append or delete"},
        {"[{\"key\": \"a\", \"action\": \"SET\", \"value\": 1}]",
         "state_updates[0] (key 'a') needs an action"},
        {"[{\"key\": \"a\", \"action\": \"set\"}]",
         "state_updates[0] (key 'a'): set needs a value"},
        {"[{\"key\": \"a\", \"action\": \"append\"}]",
         "state_updates[0] (key 'a'): append needs a value"},
        {"[{\"key\": \"a\", \"action\": \"increment\", \"value\": \"1\"}]",
         "state_updates[0] (key 'a'): increment needs a number, got string"},
        {"[{\"key\": \"a\", \"action\": \"increment\", \"value\": true}]",
         "increment needs a number, got bool"},
        {"[{\"key\": \"a\", \"action\": \"set\", \"value\": b\"x\"}]",
         "state_updates[0] (key 'a'): the value "},
        /* A reserved key in a malformed entry is still malformed. */
        {"[{\"key\": \"_policy_\" + \"x\", \"action\": \"set\"}]", "set needs a value"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char expr[512];
        snprintf(expr, sizeof expr, "{\"result\": \"DENY\", \"state_updates\": %s}",
                 cases[i].updates);
        pt_policy p;
        create_ok(&p, expr, NULL);
        pt_eval e;
        expect_failure(&e, &p, TOOL_CALL("x"), cases[i].message);
        pt_eval_free(&e);
        pt_policy_free(&p);
    }
}

static void test_computed_reserved_key_is_dropped_and_logged(void **unused)
{
    (void)unused;
    pt_policy p;
    create_ok(&p,
              "{\"result\": \"ALLOW\", \"state_updates\": ["
              "{\"key\": \"_policy_\" + \"tool_call_count\", \"action\": \"set\", \"value\": 0},"
              "{\"key\": \"mine\", \"action\": \"set\", \"value\": event.data.name},"
              "{\"key\": [\"gmail_\", \"x\"].join(\"\"), \"action\": \"delete\"}]}",
              NULL);
    pt_eval e;
    warnings w = {0};
    eval_with_state(&e, &p, TOOL_CALL("Bash"), "{}", &w);
    assert_int_equal(e.result.verdict, RP_ALLOW);
    assert_string_equal(pt_updates_json(&e),
                        "[{\"key\":\"mine\",\"action\":\"set\",\"value\":\"Bash\"}]");
    assert_string_equal(e.result.note,
                        "dropped update of reserved state key '_policy_tool_call_count'; "
                        "dropped update of reserved state key 'gmail_x'");
    assert_int_equal(w.n, 1);
    assert_string_equal(w.last, "my_cel: dropped update of reserved state key "
                                "'_policy_tool_call_count'; dropped update of reserved state key "
                                "'gmail_x'");
    pt_eval_free(&e);
    pt_policy_free(&p);
}

/* ---- evaluation errors and on_error ---- */

#define NEEDS_ARGUMENTS                                                                            \
    "event.data.arguments.command.contains(\"rm\") ? {\"result\": \"DENY\"} : "                    \
    "{\"result\": \"ALLOW\"}"

/* Issue 16: an evaluation error is no abstention (the reference's fail-open): the policy fails,
 * and the same expression decides when the event has what it needs. */
static void test_evaluation_error_is_a_failure(void **unused)
{
    (void)unused;
    pt_policy p;
    create_ok(&p, NEEDS_ARGUMENTS, NULL);
    pt_eval e;
    expect_failure(&e, &p, "{\"type\":\"tool_call\",\"data\":{\"name\":\"x\"}}", "no such key");
    pt_eval_free(&e);
    PT_EXPECT(&p,
              "{\"type\":\"tool_call\",\"data\":{\"name\":\"x\",\"arguments\":"
              "{\"command\":\"rm -rf x\"}}}",
              RP_DENY, "Denied by policy.", NULL);
    pt_policy_free(&p);
}

/* The bypass: a rule over the words of a command, and a command prefixed by a million
 * words, which exhausts the evaluation budget. */
#define WORDS_RULE                                                                                 \
    "event.data.arguments.command.split(\" \").exists(w, w == \"rm\") ? "                          \
    "{\"result\": \"DENY\", \"reason\": \"no rm\"} : {\"result\": \"ALLOW\"}"

static const char *million_words_event(rp_arena *a)
{
    rp_buf b = {0};
    rp_buf_puts(&b, "{\"type\":\"tool_call\",\"data\":{\"name\":\"Bash\",\"arguments\":"
                    "{\"command\":\"");
    for (int i = 0; i < 1000000; i++)
        rp_buf_append(&b, "w ", 2);
    rp_buf_puts(&b, "rm -rf /\"}}}");
    char *s = rp_arena_strndup(a, b.data, b.len);
    rp_buf_free(&b);
    return s;
}

static void test_budget_exhaustion_is_a_failure(void **unused)
{
    (void)unused;
    pt_policy p;
    create_ok(&p, WORDS_RULE, NULL);
    pt_eval e;
    expect_failure(&e, &p, million_words_event(&scratch), "budget");
    pt_eval_free(&e);
    pt_policy_free(&p);
}

/* Through the engine: the slot's on_error (DENY when unset) answers the failure. */
static void test_engine_answers_on_error(void **unused)
{
    (void)unused;
    static const struct {
        rp_verdict on_error, want;
    } cases[] = {{RP_ABSTAIN, RP_DENY}, {RP_DENY, RP_DENY}, {RP_ASK, RP_ASK}, {RP_ALLOW, RP_ALLOW}};
    pt_policy p;
    create_ok(&p, NEEDS_ARGUMENTS, NULL);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rp_policy_slot slot = {
            .name = "guard", .type = T, .instance = p.instance, .on_error = cases[i].on_error};
        rp_engine engine = {.slots = &slot, .n_slots = 1};
        rp_arena a = {0};
        warnings w = {0};
        rp_eval_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.arena = &a;
        ctx.warn = record_warning;
        ctx.warn_self = &w;
        rp_event ev;
        assert_true(rp_event_from_json(
            pt_parse(&a, "{\"type\":\"tool_call\",\"data\":{\"name\":\"x\"}}"), &ev));
        static const rp_json empty = {.type = RP_JSON_OBJECT};
        rp_decision d;
        rp_engine_evaluate(&engine, &ev, &empty, &ctx, &d);
        assert_int_equal(d.result, cases[i].want);
        if (cases[i].want == RP_ALLOW) {
            /* Nothing in the answer shows it: the audit's note and a warning do. */
            assert_null(d.reason);
            assert_non_null(d.notes);
            assert_true(strncmp(d.notes, "guard: policy 'guard' failed: evaluation error: ", 48) ==
                        0);
            assert_non_null(strstr(d.notes, "(on_error: allow)"));
            assert_int_equal(w.n, 1);
        } else {
            assert_non_null(d.reason);
            assert_true(strncmp(d.reason, "policy 'guard' failed: evaluation error: ", 41) == 0);
            assert_int_equal(d.n_policies, 1);
            assert_string_equal(d.policies[0], "guard");
            assert_int_equal(w.n, 0);
        }
        /* Single-policy mode (`rampart eval --policy`) says the same. */
        rp_engine_evaluate_one(NULL, &slot, &ev, &empty, &ctx, &d);
        assert_int_equal(d.result, cases[i].want);
        assert_true(strncmp(d.reason, "policy 'guard' failed: ", 23) == 0);

        /* No note when the expression evaluates. */
        assert_true(rp_event_from_json(
            pt_parse(&a, "{\"type\":\"tool_call\",\"data\":{\"name\":\"x\",\"arguments\":"
                         "{\"command\":\"ls\"}}}"),
            &ev));
        rp_engine_evaluate(&engine, &ev, &empty, &ctx, &d);
        assert_int_equal(d.result, RP_ALLOW);
        assert_null(d.notes);
        rp_arena_free(&a);
    }
    pt_policy_free(&p);
}

/* Through a loaded config: the top-level on_error governs, a policy's own overrides it. */
static rp_verdict config_verdict(const char *yaml, const char *event_json)
{
    rp_config *cfg = rp_config_load_string("t.yaml", yaml, strlen(yaml), RP_LEVEL_EXPLICIT);
    if (cfg->n_errors)
        fprintf(stderr, "%s\n", cfg->diags[0].message);
    assert_int_equal(cfg->n_errors, 0);
    rp_arena a = {0};
    rp_eval_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.arena = &a;
    rp_event ev;
    assert_true(rp_event_from_json(pt_parse(&a, event_json), &ev));
    static const rp_json empty = {.type = RP_JSON_OBJECT};
    rp_decision d;
    rp_engine_evaluate(&cfg->engine, &ev, &empty, &ctx, &d);
    rp_verdict v = d.result;
    rp_arena_free(&a);
    rp_config_free(cfg);
    return v;
}

static void test_config_on_error(void **unused)
{
    (void)unused;
    const char *ev = million_words_event(&scratch);
    const char *rule = "policies:\n"
                       "  words:\n"
                       "    handler: cel_policy\n"
                       "    factory_params:\n"
                       "      %s\n"
                       "      expression: '" WORDS_RULE "'\n";
    char yaml[1024];
    snprintf(yaml, sizeof yaml, rule, "reason: x");
    assert_int_equal(config_verdict(yaml, ev), RP_DENY);
    char top[1100];
    snprintf(top, sizeof top, "on_error: ask\n%s", yaml);
    assert_int_equal(config_verdict(top, ev), RP_ASK);
    snprintf(yaml, sizeof yaml, rule, "on_error: allow");
    snprintf(top, sizeof top, "on_error: ask\n%s", yaml);
    assert_int_equal(config_verdict(top, ev), RP_ALLOW);
    snprintf(yaml, sizeof yaml, rule, "on_error: DENY");
    snprintf(top, sizeof top, "on_error: allow\n%s", yaml);
    assert_int_equal(config_verdict(top, ev), RP_DENY);
}

static int teardown(void **unused)
{
    (void)unused;
    rp_arena_reset(&scratch);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_schema, teardown),
        cmocka_unit_test_teardown(test_compile_error_has_line_and_column, teardown),
        cmocka_unit_test_teardown(test_literal_reserved_key_is_a_config_error, teardown),
        cmocka_unit_test_teardown(test_verdicts_and_reasons, teardown),
        cmocka_unit_test_teardown(test_result_is_case_insensitive, teardown),
        cmocka_unit_test_teardown(test_fallback_reason, teardown),
        cmocka_unit_test_teardown(test_non_verdicts_abstain, teardown),
        cmocka_unit_test_teardown(test_request_data_is_user_text, teardown),
        cmocka_unit_test_teardown(test_llm_client_is_stripped, teardown),
        cmocka_unit_test_teardown(test_json_numbers_and_session_state, teardown),
        cmocka_unit_test_teardown(test_seed_count_tool_calls, teardown),
        cmocka_unit_test_teardown(test_every_action, teardown),
        cmocka_unit_test_teardown(test_malformed_updates_are_an_evaluation_error, teardown),
        cmocka_unit_test_teardown(test_computed_reserved_key_is_dropped_and_logged, teardown),
        cmocka_unit_test_teardown(test_evaluation_error_is_a_failure, teardown),
        cmocka_unit_test_teardown(test_budget_exhaustion_is_a_failure, teardown),
        cmocka_unit_test_teardown(test_engine_answers_on_error, teardown),
        cmocka_unit_test_teardown(test_config_on_error, teardown),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rp_arena_free(&scratch);
    return rc;
}
