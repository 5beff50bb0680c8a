/* test_engine.c — composition rules of the engine (reference §2.2 and the fix), using
 * scripted fake policies so each rule is tested alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"

/* A fake policy's script: verdict, reason, and optional updates given as JSON text. */
typedef struct script {
    rp_verdict verdict;
    const char *reason;
    const char *key;           /* one update, or NULL */
    rp_update_action action;
    const char *value_json;
    const char *data_json;     /* transform, or NULL */
    const char *labels_json;   /* set_labels, or NULL */
    bool fail;                 /* evaluate returns -1 */
    int *calls;                /* counts invocations */
    const char **seen_command; /* records data.arguments.command as seen */
} script;

static int fake_evaluate(const void *instance, const rp_event *ev, const rp_json *state,
                         rp_eval_ctx *ctx, rp_result *out)
{
    const script *s = instance;
    (void)state;
    if (s->calls)
        (*s->calls)++;
    if (s->seen_command)
        *s->seen_command = rp_json_get_str(ev->arguments, "command");
    if (s->fail)
        return rp_fail(ctx, "boom");
    out->verdict = s->verdict;
    out->reason = s->reason;
    if (s->key) {
        rp_json_error e;
        rp_json *v = s->value_json ? rp_json_parse(ctx->arena, s->value_json,
                                                   strlen(s->value_json), &e)
                                   : rp_json_new(ctx->arena, rp_json_make_null());
        assert_non_null(v);
        rp_result_add_update(ctx->arena, out, s->key, s->action, *v);
    }
    if (s->data_json) {
        rp_json_error e;
        out->data = rp_json_parse(ctx->arena, s->data_json, strlen(s->data_json), &e);
    }
    if (s->labels_json) {
        rp_json_error e;
        out->set_labels = rp_json_parse(ctx->arena, s->labels_json, strlen(s->labels_json), &e);
    }
    return 0;
}

static const rp_policy_type fake_type = {
    .name = "fake",
    .module = "tests",
    .description = "scripted",
    .evaluate = fake_evaluate,
};

/* A type that owns a fixed key, like max_tool_calls_per_session owns its counter. */
static const char *const counting_keys[] = {"shared_n", NULL};
static const rp_policy_type counting_type = {
    .name = "counting",
    .module = "tests",
    .description = "scripted, owns shared_n",
    .owned_keys = counting_keys,
    .evaluate = fake_evaluate,
};

typedef struct fixture {
    rp_arena arena;
    rp_eval_ctx ctx;
    rp_event ev;
    rp_json *state;
    rp_policy_slot slots[4];
    rp_engine engine;
    rp_decision d;
} fixture;

static void setup_fixture(fixture *f, const char *event_json, const char *state_json)
{
    memset(f, 0, sizeof(*f));
    rp_arena_init(&f->arena, 4096);
    f->ctx.arena = &f->arena;
    rp_json_error e;
    rp_json *root = rp_json_parse(&f->arena, event_json, strlen(event_json), &e);
    assert_non_null(root);
    assert_true(rp_event_from_json(root, &f->ev));
    f->state = rp_json_parse(&f->arena, state_json, strlen(state_json), &e);
    assert_non_null(f->state);
    f->engine.slots = f->slots;
}

static void add(fixture *f, const char *name, const script *s)
{
    rp_policy_slot *slot = &f->slots[f->engine.n_slots++];
    slot->name = name;
    slot->type = &fake_type;
    slot->instance = (void *)s;
}

static void run(fixture *f)
{
    rp_engine_evaluate(&f->engine, &f->ev, f->state, &f->ctx, &f->d);
}

static char *decision_text(fixture *f)
{
    rp_buf b = {0};
    rp_decision_write_json(&b, &f->d);
    char *s = rp_arena_strdup(&f->arena, b.data);
    rp_buf_free(&b);
    return s;
}

static const char *tool_call = "{\"type\":\"tool_call\",\"target\":\"Bash\",\"data\":{\"name\":"
                               "\"Bash\",\"arguments\":{\"command\":\"ls\"}}}";

static void test_all_allow_applies_everything(void **unused)
{
    (void)unused;
    fixture f;
    setup_fixture(&f, tool_call, "{\"n\":1}");
    script a = {.verdict = RP_ALLOW, .key = "n", .action = RP_UPDATE_INCREMENT, .value_json = "1"};
    script b = {.verdict = RP_ABSTAIN, .key = "xs", .action = RP_UPDATE_APPEND,
                .value_json = "\"v\""};
    add(&f, "a", &a);
    add(&f, "b", &b);
    run(&f);
    assert_int_equal(f.d.result, RP_ALLOW);
    assert_null(f.d.reason);
    assert_int_equal(f.d.n_apply, 2);
    assert_non_null(f.d.new_state);
    assert_int_equal(rp_json_get(f.d.new_state, "n")->v.i, 2);
    assert_string_equal(rp_json_get(f.d.new_state, "xs")->v.items[0].v.s, "v");
    /* the snapshot itself is untouched */
    assert_int_equal(rp_json_get(f.state, "n")->v.i, 1);
    rp_arena_free(&f.arena);
}

static void test_asks_accumulate_and_withhold(void **unused)
{
    (void)unused;
    fixture f;
    setup_fixture(&f, tool_call, "{}");
    script a = {.verdict = RP_ASK, .reason = "r1", .key = "k", .action = RP_UPDATE_SET,
                .value_json = "1"};
    script b = {.verdict = RP_ASK};
    script c = {.verdict = RP_ALLOW, .key = "m", .action = RP_UPDATE_SET, .value_json = "2"};
    add(&f, "a", &a);
    add(&f, "b", &b);
    add(&f, "c", &c);
    run(&f);
    assert_int_equal(f.d.result, RP_ASK);
    assert_string_equal(f.d.reason, "a: r1; b: approval required");
    assert_int_equal(f.d.n_policies, 2);
    assert_string_equal(f.d.policies[0], "a");
    assert_string_equal(f.d.policies[1], "b");
    assert_int_equal(f.d.n_apply, 0);
    assert_null(f.d.new_state);
    assert_int_equal(f.d.n_withheld, 2);
    assert_non_null(f.d.approved_state);
    assert_int_equal(rp_json_get(f.d.approved_state, "k")->v.i, 1);
    assert_int_equal(rp_json_get(f.d.approved_state, "m")->v.i, 2);
    rp_arena_free(&f.arena);
}

/* The acceptance point: [ASK cost checkpoint, DENY x] leaves no approval behind. */
static void test_deny_does_not_apply_ask_predecessors(void **unused)
{
    (void)unused;
    fixture f;
    setup_fixture(&f, tool_call, "{}");
    script allow = {.verdict = RP_ALLOW, .key = "_count", .action = RP_UPDATE_INCREMENT,
                    .value_json = "1"};
    script ask = {.verdict = RP_ASK, .reason = "checkpoint", .key = "approved_usd",
                  .action = RP_UPDATE_SET, .value_json = "5.0"};
    script deny = {.verdict = RP_DENY, .reason = "nope", .key = "denied", .action = RP_UPDATE_SET,
                   .value_json = "true"};
    int later_calls = 0;
    script later = {.verdict = RP_ALLOW, .calls = &later_calls};
    add(&f, "counter", &allow);
    add(&f, "cost", &ask);
    add(&f, "x", &deny);
    add(&f, "later", &later);
    run(&f);
    assert_int_equal(f.d.result, RP_DENY);
    assert_string_equal(f.d.reason, "nope");
    assert_int_equal(f.d.n_policies, 1);
    assert_string_equal(f.d.policies[0], "x");
    assert_int_equal(later_calls, 0); /* DENY short-circuits */
    assert_int_equal(f.d.n_apply, 2);
    assert_string_equal(f.d.apply[0].key, "_count");
    assert_string_equal(f.d.apply[1].key, "denied");
    assert_null(rp_json_get(f.d.new_state, "approved_usd"));
    assert_non_null(rp_json_get(f.d.new_state, "_count"));
    rp_arena_free(&f.arena);
}

static void test_failure_becomes_deny(void **unused)
{
    (void)unused;
    fixture f;
    setup_fixture(&f, tool_call, "{}");
    script bad = {.fail = true};
    add(&f, "broken", &bad);
    run(&f);
    assert_int_equal(f.d.result, RP_DENY);
    assert_string_equal(f.d.reason, "policy 'broken' failed: boom");
    rp_arena_free(&f.arena);
}

static void test_bad_increment_is_policy_failure(void **unused)
{
    (void)unused;
    fixture f;
    setup_fixture(&f, tool_call, "{\"n\":\"text\"}");
    script ok = {.verdict = RP_ALLOW, .key = "a", .action = RP_UPDATE_SET, .value_json = "1"};
    script inc = {.verdict = RP_ALLOW, .key = "n", .action = RP_UPDATE_INCREMENT,
                  .value_json = "1"};
    add(&f, "ok", &ok);
    add(&f, "inc", &inc);
    run(&f);
    assert_int_equal(f.d.result, RP_DENY);
    assert_non_null(strstr(f.d.reason, "policy 'inc' failed: increment of 'n'"));
    /* the predecessor's update still applies, the failing batch does not */
    assert_int_equal(f.d.n_apply, 1);
    assert_string_equal(rp_json_get_str(f.d.new_state, "n"), "text");
    rp_arena_free(&f.arena);
}

static void test_bad_append_is_policy_failure(void **unused)
{
    (void)unused;
    fixture f;
    setup_fixture(&f, tool_call, "{\"xs\":3}");
    script app = {.verdict = RP_ASK, .key = "xs", .action = RP_UPDATE_APPEND, .value_json = "1"};
    add(&f, "app", &app);
    run(&f);
    assert_int_equal(f.d.result, RP_DENY);
    assert_non_null(strstr(f.d.reason, "not a list"));
    rp_arena_free(&f.arena);
}

static void test_reserved_key_write_is_refused(void **unused)
{
    (void)unused;
    fixture f;
    setup_fixture(&f, tool_call, "{}");
    script sneaky = {.verdict = RP_ALLOW, .key = "_policy_tool_call_count",
                     .action = RP_UPDATE_SET, .value_json = "0"};
    add(&f, "sneaky", &sneaky);
    run(&f);
    assert_int_equal(f.d.result, RP_DENY);
    assert_string_equal(f.d.reason,
                        "policy 'sneaky' failed: may not write reserved state key "
                        "'_policy_tool_call_count'");
    rp_arena_free(&f.arena);
}

static void test_transform_chain(void **unused)
{
    (void)unused;
    fixture f;
    setup_fixture(&f, tool_call, "{}");
    const char *seen = NULL;
    script t1 = {.verdict = RP_ALLOW,
                 .data_json = "{\"name\":\"Bash\",\"arguments\":{\"command\":\"ls -la\"}}"};
    script t2 = {.verdict = RP_ABSTAIN, .seen_command = &seen};
    add(&f, "t1", &t1);
    add(&f, "t2", &t2);
    run(&f);
    assert_int_equal(f.d.result, RP_ALLOW);
    assert_string_equal(seen, "ls -la");
    assert_non_null(f.d.data);
    char *text = decision_text(&f);
    assert_non_null(strstr(text, "\"data\":{\"name\":\"Bash\""));
    rp_arena_free(&f.arena);
}

static void test_condition_gate(void **unused)
{
    (void)unused;
    fixture f;
    setup_fixture(&f,
                  "{\"type\":\"tool_call\",\"data\":{\"name\":\"x\"},"
                  "\"context\":{\"labels\":{\"env\":\"prod\"}}}",
                  "{}");
    int calls = 0;
    script s = {.verdict = RP_DENY, .reason = "gated", .calls = &calls};
    add(&f, "gated", &s);
    rp_json_error e;
    const char *cond_match = "{\"env\":[\"staging\",\"prod\"]}";
    const char *cond_miss = "{\"env\":\"dev\"}";
    const char *cond_absent = "{\"team\":\"a\"}";
    f.slots[0].condition = rp_json_parse(&f.arena, cond_miss, strlen(cond_miss), &e);
    run(&f);
    assert_int_equal(f.d.result, RP_ALLOW);
    f.slots[0].condition = rp_json_parse(&f.arena, cond_absent, strlen(cond_absent), &e);
    run(&f);
    assert_int_equal(f.d.result, RP_ALLOW);
    assert_int_equal(calls, 0);
    f.slots[0].condition = rp_json_parse(&f.arena, cond_match, strlen(cond_match), &e);
    run(&f);
    assert_int_equal(f.d.result, RP_DENY);
    assert_int_equal(calls, 1);
    rp_arena_free(&f.arena);
}

static void test_labels_whitelist(void **unused)
{
    (void)unused;
    fixture f;
    setup_fixture(&f, tool_call, "{}");
    script s = {.verdict = RP_ALLOW, .labels_json = "{\"risk\":\"high\",\"other\":\"x\"}"};
    add(&f, "lab", &s);
    rp_json_error e;
    f.slots[0].set_labels = rp_json_parse(&f.arena, "[\"risk\"]", 8, &e);
    run(&f);
    assert_int_equal(f.d.labels.len, 1);
    assert_string_equal(rp_json_get_str(&f.d.labels, "risk"), "high");
    rp_arena_free(&f.arena);
}

static void test_single_policy_reports_abstain_and_own_reason(void **unused)
{
    (void)unused;
    fixture f;
    setup_fixture(&f, tool_call, "{}");
    script ab = {.verdict = RP_ABSTAIN};
    add(&f, "ab", &ab);
    rp_engine_evaluate_one(NULL, &f.slots[0], &f.ev, f.state, &f.ctx, &f.d);
    assert_int_equal(f.d.result, RP_ABSTAIN);
    script ask = {.verdict = RP_ASK, .reason = "why"};
    f.slots[0].instance = &ask;
    rp_engine_evaluate_one(NULL, &f.slots[0], &f.ev, f.state, &f.ctx, &f.d);
    assert_int_equal(f.d.result, RP_ASK);
    assert_string_equal(f.d.reason, "why");
    char *text = decision_text(&f);
    assert_string_equal(text, "{\"result\":\"ASK\",\"reason\":\"why\",\"policies\":[\"ab\"],"
                              "\"state_updates\":[]}");
    rp_arena_free(&f.arena);
}

/* Two instances of one builtin (a user's and a project's budget) count each call once. */
static void test_same_type_shares_its_fixed_keys(void **unused)
{
    (void)unused;
    fixture f;
    setup_fixture(&f, tool_call, "{\"shared_n\":4}");
    script inc = {.verdict = RP_ALLOW, .key = "shared_n", .action = RP_UPDATE_INCREMENT,
                  .value_json = "1"};
    add(&f, "user_budget", &inc);
    add(&f, "project_budget", &inc);
    f.slots[0].type = &counting_type;
    f.slots[1].type = &counting_type;
    run(&f);
    assert_int_equal(f.d.result, RP_ALLOW);
    assert_int_equal(f.d.n_apply, 1);
    assert_int_equal(rp_json_get(f.d.new_state, "shared_n")->v.i, 5);

    /* an ASKer's update covers only another ASKer: a later ALLOW must still count, or a DENY
     * further on would lose the call */
    script ask = {.verdict = RP_ASK, .key = "shared_n", .action = RP_UPDATE_INCREMENT,
                  .value_json = "1"};
    f.slots[0].instance = &ask;
    run(&f);
    assert_int_equal(f.d.result, RP_ASK);
    assert_int_equal(f.d.n_withheld, 2);
    rp_arena_free(&f.arena);
}

static void test_state_apply_rules(void **unused)
{
    (void)unused;
    rp_arena a = {0};
    rp_json_error e;
    const char *text0 = "{\"i\":1,\"d\":1.5,\"l\":[1]}";
    rp_json *st = rp_json_parse(&a, text0, strlen(text0), &e);
    assert_non_null(st);
    rp_state_update u[] = {
        {.key = "i", .action = RP_UPDATE_INCREMENT, .value = rp_json_make_int(2)},
        {.key = "d", .action = RP_UPDATE_INCREMENT, .value = rp_json_make_int(1)},
        {.key = "new", .action = RP_UPDATE_INCREMENT, .value = rp_json_make_double(0.5)},
        {.key = "l", .action = RP_UPDATE_APPEND, .value = rp_json_make_int(2)},
        {.key = "nl", .action = RP_UPDATE_APPEND, .value = rp_json_make_bool(true)},
        {.key = "gone", .action = RP_UPDATE_DELETE},
        {.key = "i", .action = RP_UPDATE_SET, .value = rp_json_make_int(7)},
    };
    char err[128];
    assert_int_equal(rp_state_apply(&a, st, u, sizeof(u) / sizeof(u[0]), err, sizeof(err)), 0);
    char *text = rp_json_to_string(&a, st);
    assert_string_equal(text, "{\"i\":7,\"d\":2.5,\"l\":[1,2],\"new\":0.5,\"nl\":[true]}");
    rp_state_update overflow = {.key = "big", .action = RP_UPDATE_INCREMENT,
                                .value = rp_json_make_int(INT64_MAX)};
    assert_int_equal(rp_state_apply(&a, st, &overflow, 1, err, sizeof(err)), 0);
    assert_int_equal(rp_state_apply(&a, st, &overflow, 1, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "overflow"));
    /* a double sum that leaves the finite range would be stored as null: an error instead */
    rp_state_update huge = {.key = "h", .action = RP_UPDATE_INCREMENT,
                            .value = rp_json_make_double(1e308)};
    assert_int_equal(rp_state_apply(&a, st, &huge, 1, err, sizeof(err)), 0);
    assert_int_equal(rp_state_apply(&a, st, &huge, 1, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "range of a double"));
    rp_arena_free(&a);
}

static void test_ask_key(void **unused)
{
    (void)unused;
    fixture f;
    setup_fixture(&f, tool_call, "{}");
    const char *k1 = rp_ask_key(&f.ev, &f.arena);
    const char *k2 = rp_ask_key(&f.ev, &f.arena);
    assert_string_equal(k1, k2);
    assert_int_equal(strncmp(k1, "h:", 2), 0);
    assert_int_equal(strlen(k1), 66);
    f.ev.tool_use_id = "toolu_01";
    assert_string_equal(rp_ask_key(&f.ev, &f.arena), "toolu_01");
    rp_arena_free(&f.arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_allow_applies_everything),
        cmocka_unit_test(test_asks_accumulate_and_withhold),
        cmocka_unit_test(test_deny_does_not_apply_ask_predecessors),
        cmocka_unit_test(test_failure_becomes_deny),
        cmocka_unit_test(test_bad_increment_is_policy_failure),
        cmocka_unit_test(test_bad_append_is_policy_failure),
        cmocka_unit_test(test_reserved_key_write_is_refused),
        cmocka_unit_test(test_transform_chain),
        cmocka_unit_test(test_condition_gate),
        cmocka_unit_test(test_labels_whitelist),
        cmocka_unit_test(test_single_policy_reports_abstain_and_own_reason),
        cmocka_unit_test(test_same_type_shares_its_fixed_keys),
        cmocka_unit_test(test_state_apply_rules),
        cmocka_unit_test(test_ask_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
