/* test_policy_registry.c — builtin lookup by name and handler path, reserved state keys, and
 * the shared helpers of src/engine/policy.c and src/engine/event.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "policies/builtins.h"
#include "policies/registry.h"
#include "policy_test_util.h"

static void test_all_and_find(void **unused)
{
    (void)unused;
    size_t n;
    const rp_policy_type *const *all = rp_registry_all(&n);
    assert_int_equal(n, 21);
    for (size_t i = 0; i < n; i++) {
        char handler[256];
        assert_ptr_equal(rp_registry_find(all[i]->name), all[i]);
        assert_ptr_equal(rp_registry_find(rp_policy_handler(all[i], handler, sizeof handler)),
                         all[i]);
        assert_non_null(all[i]->create);
        assert_non_null(all[i]->evaluate);
        assert_non_null(all[i]->description);
    }
    assert_ptr_equal(rp_registry_find("omnigent.policies.builtins.safety.detect_loop"),
                     &rp_policy_detect_loop);
    assert_ptr_equal(rp_registry_find("omnigent.policies.builtins.context.detect_thrashing"),
                     &rp_policy_detect_thrashing);
    assert_ptr_equal(rp_registry_find("omnigent.policies.builtins.risk_score.risk_score_policy"),
                     &rp_policy_risk_score_policy);
    assert_ptr_equal(rp_registry_find("omnigent.inner.nessie.policies.spawn_bounds"),
                     &rp_policy_spawn_bounds);
    assert_ptr_equal(rp_registry_find("omnigent.inner.nessie.policies.read_only_os"),
                     &rp_policy_read_only_os);
    assert_ptr_equal(rp_registry_find("omnigent.inner.nessie.policies.blast_radius"),
                     &rp_policy_blast_radius);
    assert_ptr_equal(rp_registry_find("omnigent.inner.nessie.policies.worktree_guard"),
                     &rp_policy_worktree_guard);
    assert_ptr_equal(rp_registry_find("omnigent.policies.builtins.orchestration.blast_radius"),
                     &rp_policy_blast_radius);
    assert_ptr_equal(
        rp_registry_find("omnigent.inner.nessie.policies.headless_subagent_purpose_guard"),
        &rp_policy_headless_subagent_purpose_guard);
    /* wrong module, legacy path of a non-orchestration policy, near misses */
    assert_null(rp_registry_find("omnigent.policies.builtins.context.detect_loop"));
    assert_null(rp_registry_find("omnigent.inner.nessie.policies.detect_loop"));
    assert_null(rp_registry_find("omnigent.policies.builtins.safety.detect_loopx"));
    assert_null(rp_registry_find("omnigent.policies.builtins.safetyXdetect_loop"));
    assert_null(rp_registry_find("DETECT_LOOP"));
    assert_null(rp_registry_find(""));
    assert_null(rp_registry_find(NULL));
}

static void test_reserved_keys(void **unused)
{
    (void)unused;
    static const char *const reserved[] = {
        "_policy_tool_call_count",
        "_policy_anything",
        "_permissions_x",
        "_thrashing_results",
        "_task_switch_history",
        "_routing_classification:0123456789abcdef",
        "_intent_based_authorization_intent",
        "gdrive_created_file_ids",
        "gmail_created_draft_ids",
        "subagent_cost_ask_approved_usd",
        "risk_score",
    };
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
        assert_true(rp_registry_key_reserved(reserved[i]));
    static const char *const free_keys[] = {
        "my_key", "_policy", "_thrashing_results2", "risk_score_x", "gdrive", "", "policy_x",
    };
    for (size_t i = 0; i < sizeof free_keys / sizeof free_keys[0]; i++)
        assert_false(rp_registry_key_reserved(free_keys[i]));
    assert_false(rp_registry_key_reserved(NULL));

    assert_true(rp_policy_owns_key(&rp_policy_max_tool_calls_per_session, NULL,
                                         "_policy_tool_call_count"));
    assert_false(rp_policy_owns_key(&rp_policy_max_tool_calls_per_session, NULL,
                                          "_policy_loop_recent_hashes"));
    assert_true(
        rp_policy_owns_key(&rp_policy_detect_loop, NULL, "_policy_loop_recent_hashes"));
    assert_true(rp_policy_owns_key(&rp_policy_detect_thrashing, NULL, "_thrashing_results"));
    assert_true(
        rp_policy_owns_key(&rp_policy_spawn_bounds, NULL, "_policy_spawn_dispatch_count"));
    assert_false(rp_policy_owns_key(&rp_policy_ask_on_os_tools, NULL, "_policy_x"));
    assert_false(rp_policy_owns_key(NULL, NULL, "risk_score"));
}

static void test_policy_helpers(void **unused)
{
    (void)unused;
    assert_string_equal(rp_verdict_name(RP_ABSTAIN), "ABSTAIN");
    assert_string_equal(rp_verdict_name(RP_DENY), "DENY");
    assert_string_equal(rp_update_action_name(RP_UPDATE_APPEND), "append");
    assert_string_equal(rp_update_action_name(RP_UPDATE_DELETE), "delete");
    assert_string_equal(rp_param_kind_name(RP_PARAM_INT), "integer");
    assert_string_equal(rp_param_kind_name(RP_PARAM_STRING_LIST), "array of strings");

    rp_arena a = {0};
    rp_result r = {0};
    for (int i = 0; i < 10; i++)
        rp_result_add_update(&a, &r, "k", i == 9 ? RP_UPDATE_DELETE : RP_UPDATE_SET,
                             rp_json_make_int(i));
    assert_int_equal(r.n_updates, 10);
    assert_int_equal(r.updates[8].value.v.i, 8);
    assert_int_equal(r.updates[9].value.type, RP_JSON_NULL);
    rp_arena_free(&a);

    rp_eval_ctx ctx = {0};
    assert_int_equal(rp_fail(&ctx, "bad %d", 7), -1);
    assert_string_equal(ctx.error, "bad 7");
    rp_param_error err;
    assert_int_equal(rp_param_fail(&err, "limit", "must be %s", "positive"), -1);
    assert_string_equal(err.param, "limit");
    assert_string_equal(err.message, "must be positive");
    char buf[8];
    assert_string_equal(rp_policy_handler(&rp_policy_detect_loop, buf, sizeof buf), "omnigen");

    char real[4096];
    assert_int_equal(rp_fs_view_real.realpath(NULL, "/", real, sizeof real), 0);
    assert_string_equal(real, "/");
    assert_int_equal(rp_fs_view_real.realpath(NULL, "/", real, 1), -1);
    assert_int_equal(rp_fs_view_real.realpath(NULL, "/no/such/rampart/path", real, sizeof real),
                     -1);
    struct stat st;
    assert_int_equal(rp_fs_view_real.lstat(NULL, "/", &st), 0);
}

static void test_event_views(void **unused)
{
    (void)unused;
    rp_arena a = {0};
    rp_event ev;
    assert_false(rp_event_from_json(pt_parse(&a, "[1]"), &ev));
    assert_string_equal(ev.type_name, "");
    assert_true(rp_event_from_json(pt_parse(&a, "{}"), &ev));
    assert_int_equal(ev.type, RP_EV_UNKNOWN);
    assert_null(ev.tool_name);
    assert_null(ev.user);

    assert_true(rp_event_from_json(
        pt_parse(&a, "{\"type\":\"tool_call\",\"target\":\"T\",\"session_id\":\"s1\","
                     "\"data\":{\"name\":\"Bash\",\"arguments\":{\"command\":\"ls\"}},"
                     "\"context\":{\"actor\":{\"run_as\":\"a@b\"},\"cwd\":\"/w\",\"home\":\"/h\","
                     "\"host\":\"codex\",\"tool_use_id\":\"t1\",\"permission_mode\":\"plan\","
                     "\"parent_session_id\":\"p\",\"root_session_id\":\"r\",\"model\":\"m\","
                     "\"harness\":\"h\",\"labels\":{\"x\":\"y\"},\"usage\":{}},"
                     "\"session_state\":{\"k\":1}}"),
        &ev));
    assert_int_equal(ev.type, RP_EV_TOOL_CALL);
    assert_string_equal(ev.tool_name, "Bash");
    assert_string_equal(rp_json_get_str(ev.arguments, "command"), "ls");
    assert_string_equal(ev.user, "a@b");
    assert_string_equal(ev.cwd, "/w");
    assert_string_equal(ev.home, "/h");
    assert_string_equal(ev.host, "codex");
    assert_string_equal(ev.tool_use_id, "t1");
    assert_string_equal(ev.permission_mode, "plan");
    assert_string_equal(ev.parent_session_id, "p");
    assert_string_equal(ev.root_session_id, "r");
    assert_string_equal(ev.model, "m");
    assert_string_equal(ev.harness, "h");
    assert_string_equal(ev.session_id, "s1");
    assert_non_null(ev.labels);
    assert_non_null(ev.usage);
    assert_non_null(ev.session_state);

    /* tool_result: name and arguments from request_data; context.user wins over run_as */
    assert_true(rp_event_from_json(
        pt_parse(&a, "{\"type\":\"tool_result\",\"data\":{\"result\":\"x\"},"
                     "\"request_data\":{\"name\":\"Read\",\"arguments\":{\"path\":\"p\"}},"
                     "\"context\":{\"user\":\"u\",\"actor\":{\"run_as\":\"a\"},\"cwd\":5},"
                     "\"session_state\":[1]}"),
        &ev));
    assert_string_equal(ev.tool_name, "Read");
    assert_string_equal(rp_json_get_str(ev.arguments, "path"), "p");
    assert_string_equal(ev.user, "u");
    assert_null(ev.cwd);
    assert_null(ev.session_state);

    static const char *const types[] = {"request",       "tool_call",   "tool_result",
                                        "response",      "llm_request", "llm_response",
                                        "session_start", "session_end", "stop"};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        rp_event_type t = rp_event_type_from_string(types[i]);
        assert_int_not_equal(t, RP_EV_UNKNOWN);
        assert_string_equal(rp_event_type_string(t), types[i]);
    }
    assert_int_equal(rp_event_type_from_string("PHASE_REQUEST"), RP_EV_UNKNOWN);
    assert_int_equal(rp_event_type_from_string(NULL), RP_EV_UNKNOWN);
    assert_string_equal(rp_event_type_string(RP_EV_UNKNOWN), "");
    rp_arena_free(&a);
}

static const char *request_text(rp_arena *a, const char *event)
{
    rp_event ev;
    assert_true(rp_event_from_json(pt_parse(a, event), &ev));
    return rp_event_request_text(&ev, a);
}

static void test_request_text(void **unused)
{
    (void)unused;
    rp_arena a = {0};
    assert_string_equal(request_text(&a, "{\"type\":\"request\",\"data\":\"hi\"}"), "hi");
    assert_string_equal(
        request_text(&a, "{\"type\":\"request\",\"data\":{\"user_content\":\"u\",\"text\":\"t\"}}"),
        "u");
    assert_string_equal(request_text(&a, "{\"type\":\"request\",\"data\":{\"text\":\"t\"}}"), "t");
    assert_string_equal(
        request_text(&a, "{\"type\":\"request\",\"data\":[{\"type\":\"text\","
                         "\"text\":\"a\"},{\"type\":\"image\"},\"s\",{\"text\":\"b\"}]}"),
        "a\nb");
    assert_string_equal(
        request_text(&a, "{\"type\":\"request\",\"data\":{\"user_content\":[{\"text\":\"x\"}]}}"),
        "x");
    assert_null(request_text(&a, "{\"type\":\"request\",\"data\":[]}"));
    assert_null(request_text(&a, "{\"type\":\"request\",\"data\":5}"));
    assert_null(request_text(&a, "{\"type\":\"request\"}"));
    assert_null(request_text(&a, "{\"type\":\"request\",\"data\":{\"user_content\":5}}"));
    rp_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_and_find),   cmocka_unit_test(test_reserved_keys),
        cmocka_unit_test(test_policy_helpers), cmocka_unit_test(test_event_views),
        cmocka_unit_test(test_request_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
