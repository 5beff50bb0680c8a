/* test_session_eval_event.c — the session's typed entry (rp_session_eval_event: an event tree in,
 * an rp_decision out) and the text wrapper over it (rp_session_eval), issue 17: the same events
 * through both doors on twin stores give byte-identical decisions and audit rows; the errors
 * are the same; a tree deeper than the JSON reader accepts is refused as its text was; a kept
 * price table (rp_cost_pricing_once) is built once and prices an llm_response as a fresh one does;
 * rp_session_needs_of agrees with rp_session_reads_spend. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "cost/pricing.h"
#include "session/session.h"
#include "store/store.h"

static const char yaml[] = "policies:\n"
                           "  cap:\n"
                           "    type: function\n"
                           "    handler: max_tool_calls_per_session\n"
                           "    factory_params: {limit: 2}\n"
                           "  spend:\n"
                           "    type: function\n"
                           "    handler: cost_budget\n"
                           "    factory_params: {max_cost_usd: 0.01}\n"
                           "  asks:\n"
                           "    type: function\n"
                           "    handler: cel_policy\n"
                           "    factory_params:\n"
                           "      expression: >-\n"
                           "        event.type == \"request\" ? {\"result\": \"ASK\", \"reason\": "
                           "\"asked\"} : {\"result\": \"ALLOW\"}\n";

/* A stream that touches every path: tool calls up to the cap and past it, a prompt ASK,
 * an llm_response whose usage is priced and then crosses the budget, a tool_result. */
static const char *const events[] = {
    "{\"type\":\"tool_call\",\"session_id\":\"s1\",\"data\":{\"name\":\"Bash\",\"arguments\":"
    "{\"command\":\"ls\"}},\"context\":{\"tool_use_id\":\"t1\"}}",
    "{\"type\":\"request\",\"session_id\":\"s1\",\"data\":{\"user_content\":\"hello\"},"
    "\"context\":{\"tool_use_id\":\"p1\"}}",
    "{\"type\":\"llm_response\",\"session_id\":\"s1\",\"target\":\"claude-sonnet-4-5\","
    "\"data\":{\"usage\":{\"input_tokens\":1000,\"output_tokens\":2000}},"
    "\"context\":{\"model\":\"claude-sonnet-4-5\"}}",
    "{\"type\":\"tool_call\",\"session_id\":\"s1\",\"data\":{\"name\":\"Read\",\"arguments\":"
    "{\"path\":\"/tmp/x\"}},\"context\":{\"tool_use_id\":\"t2\"}}",
    "{\"type\":\"tool_result\",\"session_id\":\"s1\",\"data\":{\"name\":\"Read\",\"result\":"
    "\"ok\"},\"context\":{\"tool_use_id\":\"t2\"}}",
    "{\"type\":\"tool_call\",\"session_id\":\"s1\",\"data\":{\"name\":\"Bash\",\"arguments\":"
    "{\"command\":\"rm x\"}},\"context\":{\"tool_use_id\":\"t3\"}}",
};
#define N_EVENTS (sizeof events / sizeof events[0])

static rp_config *load(void)
{
    rp_config *cfg = rp_config_load_string("t.yaml", yaml, strlen(yaml), RP_LEVEL_EXPLICIT);
    assert_non_null(cfg);
    assert_int_equal(cfg->n_errors, 0);
    return cfg;
}

static int collect_audit(void *self, const rp_audit_row *row)
{
    rp_buf *b = self;
    rp_buf_printf(b, "%s|%s|%s|%s|%s|%s\n", row->session_id, row->event_type,
                  row->target ? row->target : "-", row->result, row->reason ? row->reason : "-",
                  row->policies ? row->policies : "-");
    return 0;
}

/* The typed door: parse the text ourselves (as an adapter builds a tree), decision as JSON. */
static rp_session_status typed(const rp_config *cfg, const rp_session_opts *opts, const char *text,
                               rp_buf *out, char *err, size_t err_size)
{
    rp_arena a = {0};
    rp_json_error jerr;
    rp_json *tree = rp_json_parse(&a, text, strlen(text), &jerr);
    assert_non_null(tree);
    rp_decision d;
    rp_session_status st = rp_session_eval_event(cfg, opts, tree, &a, &d, err, err_size);
    if (st != RP_SESSION_BAD_EVENT)
        rp_decision_write_json(out, &d);
    rp_arena_free(&a);
    return st;
}

static void test_tree_in_decision_out(void **unused)
{
    (void)unused;
    rp_config *cfg = load();
    rp_arena a = {0};
    rp_json ev = rp_json_make_object();
    rp_json data = rp_json_make_object();
    rp_json args = rp_json_make_object();
    rp_json_object_set(&a, &args, "command", rp_json_make_string_ref("ls"));
    rp_json_object_set(&a, &data, "name", rp_json_make_string_ref("Bash"));
    rp_json_object_set(&a, &data, "arguments", args);
    rp_json_object_set(&a, &ev, "type", rp_json_make_string_ref("tool_call"));
    rp_json_object_set(&a, &ev, "session_id", rp_json_make_string_ref("tree"));
    rp_json_object_set(&a, &ev, "data", data);
    rp_store *store = rp_store_open_memory();
    rp_session_opts opts = {.store = store, .audit = true};
    char err[256];
    rp_verdict want[] = {RP_ALLOW, RP_ALLOW, RP_DENY};
    for (int i = 0; i < 3; i++) {
        rp_decision d;
        assert_int_equal(rp_session_eval_event(cfg, &opts, &ev, &a, &d, err, sizeof err),
                         RP_SESSION_OK);
        assert_int_equal(d.result, want[i]);
        if (want[i] == RP_DENY) {
            assert_int_equal(d.n_policies, 1);
            assert_string_equal(d.policies[0], "cap");
            assert_non_null(d.reason);
        }
    }
    /* A prompt: the ASK comes back typed, with who asked. */
    rp_json req = rp_json_make_object();
    rp_json_object_set(&a, &req, "type", rp_json_make_string_ref("request"));
    rp_json_object_set(&a, &req, "session_id", rp_json_make_string_ref("tree"));
    rp_decision d;
    assert_int_equal(rp_session_eval_event(cfg, &opts, &req, &a, &d, err, sizeof err),
                     RP_SESSION_OK);
    assert_int_equal(d.result, RP_ASK);
    assert_string_equal(d.reason, "asks: asked");
    assert_string_equal(d.policies[d.n_policies - 1], "asks");
    rp_store_close(store);
    rp_arena_free(&a);
    rp_config_free(cfg);
}

static void run_stream(const rp_config *cfg, bool use_typed, rp_session_opts *opts, rp_buf *all)
{
    for (size_t i = 0; i < N_EVENTS; i++) {
        char err[256] = "";
        rp_buf out = {0};
        rp_session_status st = use_typed ? typed(cfg, opts, events[i], &out, err, sizeof err)
                                         : rp_session_eval(cfg, opts, events[i], strlen(events[i]),
                                                           &out, err, sizeof err);
        rp_buf_printf(all, "%d %s %.*s\n", (int)st, err, (int)out.len, out.data ? out.data : "");
        rp_buf_free(&out);
    }
}

static void test_wrapper_gives_the_same_answer(void **unused)
{
    (void)unused;
    setenv("RAMPART_NOW", "2026-12-01T10:00:00Z", 1);
    rp_config *cfg = load();
    rp_buf text = {0}, tree = {0}, audit_text = {0}, audit_tree = {0};
    for (int stateful = 0; stateful < 2; stateful++) {
        rp_store *s1 = stateful ? rp_store_open_memory() : NULL;
        rp_store *s2 = stateful ? rp_store_open_memory() : NULL;
        rp_session_opts o1 = {.store = s1, .audit = stateful};
        rp_session_opts o2 = o1;
        o2.store = s2;
        run_stream(cfg, false, &o1, &text);
        run_stream(cfg, true, &o2, &tree);
        if (stateful) {
            rp_store_audit_query(s1, NULL, 0, collect_audit, &audit_text);
            rp_store_audit_query(s2, NULL, 0, collect_audit, &audit_tree);
            rp_store_close(s1);
            rp_store_close(s2);
        }
    }
    assert_non_null(text.data);
    assert_string_equal(text.data, tree.data);
    assert_non_null(audit_text.data);
    assert_string_equal(audit_text.data, audit_tree.data);
    /* The stream did what it is for: a DENY at the cap, a prompt ASK, a budget DENY. */
    assert_non_null(strstr(text.data, "\"policies\":[\"cap\"]"));
    assert_non_null(strstr(text.data, "\"ASK\""));
    assert_non_null(strstr(text.data, "\"policies\":[\"spend\"]"));
    rp_buf_free(&text);
    rp_buf_free(&tree);
    rp_buf_free(&audit_text);
    rp_buf_free(&audit_tree);
    rp_config_free(cfg);
    unsetenv("RAMPART_NOW");
}

/* Overwrites the stack below the caller, where a returned pointer into a finished call's
 * frame would point. */
static __attribute__((noinline)) void clobber_stack(void)
{
    volatile char junk[8192];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (char)0xA5;
}

static void test_errors_are_the_same(void **unused)
{
    (void)unused;
    rp_config *cfg = load();
    static const char bad_usage[] = "{\"type\":\"llm_response\",\"session_id\":\"s\","
                                    "\"data\":{\"usage\":{\"input_tokens\":\"many\"}}}";
    static const char *const bad[] = {
        "[1,2]",
        "{\"type\":\"tool_call\",\"session_id\":7}",
        bad_usage,
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rp_store *s1 = rp_store_open_memory(), *s2 = rp_store_open_memory();
        rp_session_opts o1 = {.store = s1, .audit = true}, o2 = {.store = s2, .audit = true};
        char e1[256] = "", e2[256] = "";
        rp_buf b1 = {0}, b2 = {0};
        rp_session_status st1 =
            rp_session_eval(cfg, &o1, bad[i], strlen(bad[i]), &b1, e1, sizeof e1);
        rp_session_status st2 = typed(cfg, &o2, bad[i], &b2, e2, sizeof e2);
        assert_int_equal(st1, RP_SESSION_BAD_EVENT);
        assert_int_equal(st2, RP_SESSION_BAD_EVENT);
        assert_true(e1[0] != '\0');
        assert_string_equal(e1, e2);
        assert_int_equal(b1.len, 0);
        assert_int_equal(b2.len, 0);
        rp_store_close(s1);
        rp_store_close(s2);
    }
    /* The store could not be opened: the fail-closed decision, typed. */
    rp_session_opts o = {.store_unavailable = "it cannot be opened"};
    rp_arena a = {0};
    rp_json_error jerr;
    rp_json *ev = rp_json_parse(&a, events[0], strlen(events[0]), &jerr);
    rp_decision d;
    char err[256];
    assert_int_equal(rp_session_eval_event(cfg, &o, ev, &a, &d, err, sizeof err),
                     RP_SESSION_STORE_ERROR);
    clobber_stack(); /* the reason must not live in the callee's stack frame */
    assert_int_equal(d.result, RP_DENY);
    assert_string_equal(d.reason, "rampart could not evaluate this event: the state store failed "
                                  "(it cannot be opened)");
    rp_arena_free(&a);
    rp_config_free(cfg);
}

/* An event tree nested deeper than the reader accepts (an adapter wrapping a payload that was
 * just within the limit) is refused with the reader's own message, as its text would be. */
static void test_too_deep_tree_refused_like_text(void **unused)
{
    (void)unused;
    rp_config *cfg = load();
    rp_arena a = {0};
    rp_json inner = rp_json_make_string_ref("x");
    for (int i = 0; i < RP_JSON_MAX_DEPTH + 2; i++) {
        rp_json arr = rp_json_make_array();
        rp_json_array_push(&a, &arr, inner);
        inner = arr;
    }
    rp_json ev = rp_json_make_object();
    rp_json_object_set(&a, &ev, "type", rp_json_make_string_ref("tool_call"));
    rp_json_object_set(&a, &ev, "data", inner);
    rp_buf text = {0};
    rp_json_write(&text, &ev);
    rp_session_opts opts = {0};
    char e1[256] = "", e2[256] = "";
    rp_buf out = {0};
    assert_int_equal(rp_session_eval(cfg, &opts, text.data, text.len, &out, e1, sizeof e1),
                     RP_SESSION_BAD_EVENT);
    rp_decision d;
    assert_int_equal(rp_session_eval_event(cfg, &opts, &ev, &a, &d, e2, sizeof e2),
                     RP_SESSION_BAD_EVENT);
    assert_string_equal(e1, e2);
    /* Just within the limit: evaluated. */
    rp_json ok = rp_json_make_object();
    rp_json shallow = rp_json_make_string_ref("x");
    for (int i = 0; i < RP_JSON_MAX_DEPTH - 4; i++) {
        rp_json arr = rp_json_make_array();
        rp_json_array_push(&a, &arr, shallow);
        shallow = arr;
    }
    rp_json_object_set(&a, &ok, "type", rp_json_make_string_ref("tool_call"));
    rp_json_object_set(&a, &ok, "data", shallow);
    assert_int_equal(rp_session_eval_event(cfg, &opts, &ok, &a, &d, e2, sizeof e2), RP_SESSION_OK);
    rp_buf_free(&text);
    rp_buf_free(&out);
    rp_arena_free(&a);
    rp_config_free(cfg);
}

static int spend_row(void *self, const rp_audit_row *row)
{
    (void)row;
    ++*(int *)self;
    return 0;
}

/* opts.pricing: the table is built on the first usage it prices and kept; the decisions and
 * the recorded spend are those of a table built per event. */
static void test_pricing_kept_across_events(void **unused)
{
    (void)unused;
    setenv("RAMPART_NOW", "2026-12-01T10:00:00Z", 1);
    rp_config *cfg = load();
    rp_session_needs needs;
    rp_session_needs_of(cfg, &needs);
    assert_true(needs.usage);
    assert_true(needs.reads_spend);
    assert_true(rp_session_reads_spend(cfg));
    rp_cost_pricing_once prices = {.config_pricing = cfg->pricing};
    rp_store *s1 = rp_store_open_memory(), *s2 = rp_store_open_memory();
    rp_session_opts kept = {.store = s1, .audit = true, .pricing = &prices, .needs = &needs};
    rp_session_opts fresh = {.store = s2, .audit = true};
    rp_buf b1 = {0}, b2 = {0};
    const rp_cost_pricing *first = NULL;
    for (int round = 0; round < 2; round++) {
        char err[256];
        const char *ev = events[2]; /* the llm_response */
        assert_int_not_equal(rp_session_eval(cfg, &kept, ev, strlen(ev), &b1, err, sizeof err),
                             RP_SESSION_BAD_EVENT);
        assert_int_not_equal(rp_session_eval(cfg, &fresh, ev, strlen(ev), &b2, err, sizeof err),
                             RP_SESSION_BAD_EVENT);
        assert_non_null(prices.table);
        if (round == 0)
            first = prices.table;
        assert_ptr_equal(prices.table, first); /* built once */
    }
    assert_string_equal(b1.data, b2.data);
    /* The next tool call finds $0.066 spent against a $0.01 budget, on both stores. */
    char err[256];
    rp_buf_reset(&b1);
    rp_buf_reset(&b2);
    rp_session_eval(cfg, &kept, events[0], strlen(events[0]), &b1, err, sizeof err);
    rp_session_eval(cfg, &fresh, events[0], strlen(events[0]), &b2, err, sizeof err);
    assert_string_equal(b1.data, b2.data);
    assert_non_null(strstr(b1.data, "\"policies\":[\"spend\"]"));
    int rows = 0;
    rp_store_audit_query(s1, NULL, 0, spend_row, &rows);
    assert_int_equal(rows, 3);
    rp_usage_totals t1, t2;
    assert_int_equal(rp_store_usage_tree(s1, "s1", &t1), 0);
    assert_int_equal(rp_store_usage_tree(s2, "s1", &t2), 0);
    assert_true(t1.cost_nusd > 0);
    assert_int_equal(t1.cost_nusd, t2.cost_nusd);
    rp_store_close(s1);
    rp_store_close(s2);
    rp_cost_pricing_once_free(&prices);
    rp_buf_free(&b1);
    rp_buf_free(&b2);
    rp_config_free(cfg);
    unsetenv("RAMPART_NOW");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tree_in_decision_out),
        cmocka_unit_test(test_wrapper_gives_the_same_answer),
        cmocka_unit_test(test_errors_are_the_same),
        cmocka_unit_test(test_too_deep_tree_refused_like_text),
        cmocka_unit_test(test_pricing_kept_across_events),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
