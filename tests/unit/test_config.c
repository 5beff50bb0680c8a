/* test_config.c — loading configuration with the real registry: both policy forms, every error
 * class with its exact file:line:col, project-level restrictions, the stack, settings. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/buf.h"
#include "core/json.h"
#include "config/config.h"
#include "session/session.h"

static rp_config *C;

static int teardown(void **state)
{
    rp_config_free(C);
    C = NULL;
    return 0;
}

static rp_config *load_level(const char *yaml, rp_config_level level)
{
    rp_config_free(C);
    C = rp_config_load_string("t.yaml", yaml, strlen(yaml), level);
    assert_non_null(C);
    return C;
}

static rp_config *load(const char *yaml)
{
    return load_level(yaml, RP_LEVEL_EXPLICIT);
}

/* Formatted diagnostic i, in a static buffer (tests compare one at a time). */
static const char *diag(size_t i)
{
    static char out[600];
    assert_true(i < C->n_diags);
    rp_buf b = {0};
    rp_diag_format(&C->diags[i], &b);
    snprintf(out, sizeof out, "%s", b.data);
    rp_buf_free(&b);
    return out;
}

/* Prints every diagnostic: what a failing assertion needs to be understood. */
static void dump(void)
{
    for (size_t i = 0; i < C->n_diags; i++)
        fprintf(stderr, "  diag %zu: %s\n", i, diag(i));
}

static void expect_clean(void)
{
    if (C->n_diags)
        dump();
    assert_int_equal(C->n_diags, 0);
}

static const rp_json *param(size_t slot, const char *name)
{
    assert_true(slot < C->engine.n_slots);
    const rp_json *v = rp_json_get(C->engine.slots[slot].params, name);
    assert_non_null(v);
    return v;
}

static void test_both_forms_and_handler_spellings(void **state)
{
    load("policies:\n"
         "  loop:\n"
         "    type: function\n"
         "    handler: detect_loop\n"
         "    factory_params: {window: 5, threshold: 2}\n"
         "  calls:\n"
         "    handler: omnigent.policies.builtins.safety.max_tool_calls_per_session\n"
         "    factory_params:\n"
         "      limit: 200\n"
         "  thrash:\n"
         "    type: function\n"
         "    function:\n"
         "      path: omnigent.policies.builtins.context.detect_thrashing\n"
         "      arguments: {action: deny}\n"
         "  os:\n"
         "    function: ask_on_os_tools\n"
         "  skills:\n"
         "    callable: block_skills\n"
         "    factory_params: {blocked: [danger]}\n");
    expect_clean();
    assert_int_equal(C->engine.n_slots, 5);
    const char *names[] = {"loop", "calls", "thrash", "os", "skills"};
    const char *types[] = {"detect_loop", "max_tool_calls_per_session", "detect_thrashing",
                           "ask_on_os_tools", "block_skills"};
    for (size_t i = 0; i < 5; i++) {
        assert_string_equal(C->engine.slots[i].name, names[i]);
        assert_string_equal(C->engine.slots[i].type->name, types[i]);
        assert_int_equal(C->engine.slots[i].level, RP_LEVEL_EXPLICIT);
    }
    assert_int_equal(param(0, "window")->v.i, 5);
    assert_int_equal(param(0, "threshold")->v.i, 2);
    assert_int_equal(param(1, "limit")->v.i, 200); /* honoured, unlike the reference */
    assert_string_equal(rp_json_str(param(2, "action")), "DENY"); /* canonical spelling */
    assert_int_equal(param(2, "consecutive_threshold")->v.i, 5);  /* default filled */
    assert_string_equal(C->engine.slots[0].source, "t.yaml:2");
    assert_string_equal(C->engine.slots[4].source, "t.yaml:17");
    assert_int_equal(C->n_files, 1);
    assert_string_equal(C->files[0], "t.yaml");
    /* Settings keep their defaults. */
    assert_int_equal(C->on_error, RP_ON_ERROR_DENY);
    assert_int_equal(C->audit_retention_days, 30);
    assert_null(C->user);
    assert_null(C->pricing);
}

static void test_every_error_with_position(void **state)
{
    load("policies:\n"                                 /* 1 */
         "  loop:\n"                                   /* 2 */
         "    handler: detect_loop\n"                  /* 3 */
         "    factory_params: {window: 0, bogus: 1}\n" /* 4 */
         "  nope:\n"                                   /* 5 */
         "    handler: no_such_policy\n"               /* 6 */
         "  spec:\n"                                   /* 7 */
         "    handler: detect_loop\n"                  /* 8 */
         "    colour: red\n"                           /* 9 */
         "    ask_timeout: 0\n"                        /* 10 */
         "  prompt:\n"                                 /* 11 */
         "    type: prompt\n"                          /* 12 */
         "    handler: detect_loop\n"                  /* 13 */
         "  miss:\n"                                   /* 14 */
         "    factory_params: {}\n"                    /* 15 */
         "  skills:\n"                                 /* 16 */
         "    handler: block_skills\n"                 /* 17 */
         "  os:\n"                                     /* 18 */
         "    handler: ask_on_os_tools\n"              /* 19 */
         "    factory_params: {a: 1, b: 2}\n"          /* 20 */
         "  thrash:\n"                                 /* 21 */
         "    handler: detect_thrashing\n"             /* 22 */
         "    factory_params:\n"                       /* 23 */
         "      action: INVALID\n"                     /* 24 */
         "      window_error_rate: 1.5\n"              /* 25 */
         "bogus_top: 1\n");                            /* 26 */
    const char *want[] = {
        "t.yaml:4:33: policy 'loop': parameter 'bogus': unknown parameter (known: window, "
        "threshold, on_error)",
        "t.yaml:4:22: policy 'loop': parameter 'window': must be an integer >= 1, got 0",
        "t.yaml:6:14: policy 'nope': unknown policy handler 'no_such_policy' (run `rampart "
        "policies` for the list)",
        "t.yaml:9:5: policy 'spec': unknown field 'colour' in policy spec (known: type, handler, "
        "callable, function, factory_params, condition, set_labels, config, ask_timeout, on)",
        "t.yaml:10:18: policy 'spec': ask_timeout: must be an integer >= 1, got 0",
        "t.yaml:12:11: policy 'prompt': type 'prompt' was removed; use type: function with "
        "handler: prompt_policy (omnigent.policies.builtins.prompt.prompt_policy)",
        "t.yaml:14:3: policy 'miss': missing handler: give `handler: <policy>` (or `function: "
        "<policy>`)",
        "t.yaml:16:3: policy 'skills': parameter 'blocked': required parameter is missing",
        "t.yaml:18:3: policy 'os': Policy 'ask_on_os_tools' is a direct callable and does not "
        "accept factory_params, but got: ['a', 'b']",
        "t.yaml:25:7: policy 'thrash': parameter 'window_error_rate': must be a number in [0, 1], "
        "got 1.5",
        "t.yaml:24:7: policy 'thrash': parameter 'action': must be one of 'ASK', 'DENY' (any "
        "case), got 'INVALID'",
        "t.yaml:26:1: unknown top-level key 'bogus_top' (known: policies, pricing, user, hosts, "
        "subagents, on_error, state_dir, audit)",
    };
    size_t n = sizeof want / sizeof want[0];
    if (C->n_diags != n)
        dump();
    assert_int_equal(C->n_diags, n);
    assert_int_equal(C->n_errors, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(diag(i), want[i]);
}

static void test_create_error_points_at_param(void **state)
{
    load("policies:\n"
         "  risk:\n"
         "    handler: risk_score_policy\n"
         "    factory_params:\n"
         "      threshold: 10\n"
         "      tool_points: {Bash: lots}\n");
    assert_int_equal(C->n_errors, 1);
    const char *d = diag(0);
    assert_int_equal(strncmp(d, "t.yaml:6:7: policy 'risk': parameter 'tool_points': ",
                             strlen("t.yaml:6:7: policy 'risk': parameter 'tool_points': ")),
                     0);
    assert_int_equal(C->engine.n_slots, 0);
}

static void test_null_params_mean_defaults(void **state)
{
    load("policies:\n"
         "  a:\n"
         "    handler: detect_loop\n"
         "    factory_params: null\n"
         "  b:\n"
         "    handler: detect_loop\n"
         "    factory_params: {window: null, threshold: ~}\n"
         "  c:\n"
         "    handler: max_tool_calls_per_session\n"
         "    factory_params:\n"
         "      limit:\n"
         "  d:\n"
         "    function: {path: detect_loop, arguments: null}\n");
    expect_clean();
    assert_int_equal(C->engine.n_slots, 4);
    assert_int_equal(param(0, "window")->v.i, 10);
    assert_int_equal(param(1, "window")->v.i, 10);
    assert_int_equal(param(1, "threshold")->v.i, 3);
    assert_int_equal(param(2, "limit")->v.i, 100);
    assert_int_equal(param(3, "window")->v.i, 10);
}

static void test_yaml_kinds_reach_validation(void **state)
{
    load("policies:\n"
         "  a:\n"
         "    handler: max_tool_calls_per_session\n"
         "    factory_params: {limit: \"200\"}\n"
         "  b:\n"
         "    handler: max_tool_calls_per_session\n"
         "    factory_params: {limit: 2.0e2}\n"
         "  c:\n"
         "    handler: max_tool_calls_per_session\n"
         "    factory_params: {limit: 0x10}\n"
         "  d:\n"
         "    handler: detect_loop\n"
         "    factory_params: {window: true}\n");
    assert_int_equal(C->n_errors, 3);
    assert_string_equal(diag(0), "t.yaml:4:22: policy 'a': parameter 'limit': must be an "
                                 "integer >= 0, got '200'");
    assert_string_equal(diag(1), "t.yaml:7:22: policy 'b': parameter 'limit': must be an "
                                 "integer >= 0, got 200.0");
    assert_string_equal(diag(2), "t.yaml:13:22: policy 'd': parameter 'window': must be an "
                                 "integer >= 1, got true");
    assert_int_equal(C->engine.n_slots, 1);
    assert_int_equal(param(0, "limit")->v.i, 16);
}

static void test_aliases_in_config(void **state)
{
    load("policies:\n"
         "  a: &spec\n"
         "    handler: detect_loop\n"
         "    factory_params: &p {window: 4}\n"
         "  b: *spec\n"
         "  c:\n"
         "    handler: detect_loop\n"
         "    factory_params: *p\n");
    expect_clean();
    assert_int_equal(C->engine.n_slots, 3);
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(param(i, "window")->v.i, 4);
}

static void test_duplicate_policy_name_in_one_file(void **state)
{
    load("policies:\n"
         "  loop:\n"
         "    handler: detect_loop\n"
         "  loop:\n"
         "    handler: detect_loop\n");
    assert_int_equal(C->n_errors, 1);
    assert_string_equal(diag(0), "t.yaml:4:3: duplicate key 'loop' (first defined at line 2)");
}

static void test_spec_fields(void **state)
{
    load("policies:\n"
         "  a:\n"
         "    handler: detect_loop\n"
         "    condition: {env: prod, tier: [a, b]}\n"
         "    set_labels: [risk]\n"
         "    config: {anything: [1]}\n"
         "    ask_timeout: 60\n"
         "    on: [tool_call, tool_result]\n"
         "  b:\n"
         "    handler: detect_loop\n"
         "    on: tool_call\n");
    expect_clean();
    const rp_policy_slot *s = &C->engine.slots[0];
    assert_string_equal(rp_json_get_str(s->condition, "env"), "prod");
    assert_int_equal(s->set_labels->len, 1);
    assert_non_null(rp_json_get(s->config, "anything"));
    assert_int_equal(s->ask_timeout_s, 60);
    assert_null(C->engine.slots[1].condition);
    assert_int_equal(C->engine.slots[1].ask_timeout_s, 0);

    load("policies:\n"
         "  a:\n"
         "    handler: detect_loop\n"
         "    condition: {env: {x: 1}, 3: y}\n"
         "    set_labels: [risk, 2]\n"
         "    config: [1]\n"
         "    ask_timeout: true\n"
         "    on: [tool_call, tool_cal]\n");
    const char *want[] = {
        "t.yaml:4:22: policy 'a': condition: label 'env' must map to a string or a list of "
        "strings, got a mapping",
        "t.yaml:4:30: policy 'a': condition label must be a non-empty string, got '3' (quote it)",
        "t.yaml:5:24: policy 'a': set_labels: item [1] must be a string, got 2",
        "t.yaml:6:13: policy 'a': config: must be a mapping, got a list",
        "t.yaml:7:18: policy 'a': ask_timeout: must be an integer >= 1, got true",
        "t.yaml:8:21: policy 'a': on: unknown phase 'tool_cal' (known: request, tool_call, "
        "tool_result, response, llm_request, llm_response, session_start, session_end, stop)",
    };
    size_t n = sizeof want / sizeof want[0];
    if (C->n_diags != n)
        dump();
    assert_int_equal(C->n_diags, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(diag(i), want[i]);
}

static void test_handler_conflicts_and_types(void **state)
{
    load("policies:\n"
         "  a:\n"
         "    handler: detect_loop\n"
         "    callable: detect_loop\n"
         "  b:\n"
         "    function: {path: detect_loop, arguments: {window: 2}}\n"
         "    factory_params: {window: 3}\n"
         "  c:\n"
         "    type: url\n"
         "    handler: detect_loop\n"
         "  d:\n"
         "    type: python\n"
         "    handler: detect_loop\n"
         "  e:\n"
         "    function: {arguments: {}}\n"
         "  f:\n"
         "    handler: 42\n"
         "  g: detect_loop\n"
         "  7:\n"
         "    handler: detect_loop\n");
    const char *want[] = {
        "t.yaml:4:5: policy 'a': give only one of handler, callable and function (already have "
        "'handler')",
        "t.yaml:7:21: policy 'b': parameters given twice: use factory_params or "
        "function.arguments, not both",
        "t.yaml:9:11: policy 'c': type 'url' (a remote policy endpoint) is not supported by "
        "rampart; use a builtin with type: function",
        "t.yaml:12:11: policy 'd': type 'python' is the REST API's spelling; in a config file "
        "write type: function with handler: <name>",
        "t.yaml:15:15: policy 'e': function: missing 'path' (the policy handler)",
        "t.yaml:17:14: policy 'f': handler: must be a non-empty string, got 42",
        "t.yaml:18:6: policy 'g': a policy spec must be a mapping such as {handler: "
        "detect_loop}, got 'detect_loop'",
        "t.yaml:19:3: a policy name must be a non-empty string, got '7' (quote it)",
    };
    size_t n = sizeof want / sizeof want[0];
    if (C->n_diags != n)
        dump();
    assert_int_equal(C->n_diags, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(diag(i), want[i]);
}

static void test_settings(void **state)
{
    load("user: alice\n"
         "state_dir: /var/lib/rampart\n"
         "on_error: ASK\n"
         "audit: {retention_days: 0}\n"
         "pricing: {gpt-x: {input: 1.5, output: 6}}\n"
         "subagents:\n"
         "  purposes: {Explore: research, general-purpose: coding}\n"
         "  default_cost_budget: 2.5\n"
         "hosts:\n"
         "  claude-code: {allow_overrides: true, ask_as: deny, deny_exit_code: true, "
         "deadline_ms: 1500}\n"
         "  codex:\n");
    expect_clean();
    assert_string_equal(C->user, "alice");
    assert_string_equal(C->state_dir, "/var/lib/rampart");
    assert_int_equal(C->on_error, RP_ON_ERROR_ASK);
    assert_int_equal(C->audit_retention_days, 0);
    assert_non_null(rp_json_path(C->pricing, "gpt-x.input"));
    assert_string_equal(rp_json_str(rp_json_path(C->subagents, "purposes.Explore")), "research");
    assert_true(rp_json_path(C->subagents, "default_cost_budget")->v.d == 2.5);
    const rp_host_settings *h = rp_config_host(C, "claude-code");
    assert_string_equal(h->host, "claude-code");
    assert_true(h->allow_overrides);
    assert_string_equal(h->ask_as, "deny");
    assert_true(h->deny_exit_code);
    assert_int_equal(h->deadline_ms, 1500);
    h = rp_config_host(C, "codex");
    assert_string_equal(h->host, "codex");
    assert_false(h->allow_overrides);
    h = rp_config_host(C, "gemini"); /* not configured: the static default */
    assert_null(h->host);
    assert_false(h->allow_overrides);
    assert_null(h->ask_as);
    assert_false(h->deny_exit_code);
    assert_int_equal(h->deadline_ms, 0);
    assert_int_equal(C->n_hosts, 2);
}

static void test_settings_errors(void **state)
{
    load("user: ''\n"
         "on_error: maybe\n"
         "audit: {retention_days: -1, keep: 1}\n"
         "pricing: [1]\n"
         "subagents: {purposes: {Explore: 3}, default_cost_budget: 0, extra: 1}\n"
         "hosts:\n"
         "  vim: {}\n"
         "  codex: {allow_overrides: 1, deadline_ms: 0, colour: red, ask_as: 5}\n");
    const char *want[] = {
        "t.yaml:1:7: key 'user': must be a non-empty string, got ''",
        "t.yaml:2:11: key 'on_error': must be one of deny, ask, allow, got 'maybe'",
        "t.yaml:3:25: key 'audit.retention_days': must be an integer >= 0, got -1",
        "t.yaml:3:29: key 'audit.keep': unknown audit setting (known: retention_days)",
        "t.yaml:4:10: key 'pricing': must be a mapping, got a list",
        "t.yaml:5:33: key 'subagents.purposes.Explore': must be a non-empty string, got 3",
        "t.yaml:5:58: key 'subagents.default_cost_budget': must be a number > 0 (USD), got 0",
        "t.yaml:5:61: key 'subagents.extra': unknown sub-agent setting (known: purposes, "
        "default_cost_budget)",
        "t.yaml:7:3: key 'hosts': unknown host 'vim' (known: claude-code, codex, cursor, gemini, "
        "pi, opencode)",
        "t.yaml:8:28: key 'hosts.codex.allow_overrides': must be true or false, got 1",
        "t.yaml:8:44: key 'hosts.codex.deadline_ms': must be an integer >= 1, got 0",
        "t.yaml:8:47: key 'hosts.codex.colour': unknown host setting (known: allow_overrides, "
        "ask_as, deny_exit_code, deadline_ms)",
        "t.yaml:8:68: key 'hosts.codex.ask_as': must be a non-empty string, got 5",
    };
    size_t n = sizeof want / sizeof want[0];
    if (C->n_diags != n)
        dump();
    assert_int_equal(C->n_diags, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(diag(i), want[i]);
    assert_int_equal(C->on_error, RP_ON_ERROR_DENY);
    assert_int_equal(C->audit_retention_days, 30);
}

static void test_on_error_case_insensitive(void **state)
{
    load("on_error: Allow\n");
    expect_clean();
    assert_int_equal(C->on_error, RP_ON_ERROR_ALLOW);
}

static void test_nan_and_direct_callable_without_params(void **state)
{
    /* the loader refuses non-finite numbers; the key's own check then sees no value */
    load("subagents: {default_cost_budget: .nan}\n");
    assert_int_equal(C->n_errors, 2);
    assert_string_equal(diag(0), "t.yaml:1:34: '.nan': infinite and NaN numbers are not allowed");
    assert_string_equal(diag(1), "t.yaml:1:34: key 'subagents.default_cost_budget': must be a "
                                 "number > 0 (USD), got null");
    load("policies:\n"
         "  a: {handler: ask_on_os_tools}\n"
         "  b: {handler: ask_on_os_tools, factory_params: {}}\n"
         "  c: {handler: ask_on_os_tools, factory_params: null}\n");
    expect_clean();
    assert_int_equal(C->engine.n_slots, 3);
}

static void test_top_level_shapes(void **state)
{
    load("- a\n- b\n");
    assert_int_equal(C->n_errors, 1);
    assert_string_equal(diag(0), "t.yaml:1:1: the top level must be a mapping (policies:, "
                                 "hosts:, ...), got a list");
    load("policies: [detect_loop]\n");
    assert_int_equal(C->n_errors, 1);
    assert_string_equal(diag(0), "t.yaml:1:11: key 'policies': must be a mapping of policy name "
                                 "to spec (a list is not accepted: names identify policies in "
                                 "reasons and state), got a list");
    load("");
    expect_clean();
    assert_int_equal(C->engine.n_slots, 0);
    load("policies:\n");
    expect_clean();
    load("a: [1\n");
    assert_int_equal(C->n_errors, 1);
    assert_non_null(strstr(diag(0), "YAML syntax error"));
}

static void test_project_level_only_adds_policies(void **state)
{
    load_level("user: mallory\n"
               "on_error: allow\n"
               "state_dir: /tmp/x\n"
               "pricing: {m: 1}\n"
               "hosts: {codex: {allow_overrides: true}}\n"
               "subagents: {default_cost_budget: 1000}\n"
               "audit: {retention_days: 0}\n"
               "policies:\n"
               "  loop: {handler: detect_loop}\n",
               RP_LEVEL_PROJECT);
    assert_int_equal(C->n_errors, 0);
    assert_int_equal(C->n_diags, 7);
    assert_string_equal(diag(0), "t.yaml:1:1: warning: 'user' ignored at project level: a "
                                 "project file may only add policies (set it in the user or "
                                 "system config)");
    assert_true(C->diags[4].warning);
    assert_int_equal(C->diags[4].line, 5);
    assert_null(C->user);
    assert_int_equal(C->on_error, RP_ON_ERROR_DENY);
    assert_null(C->state_dir);
    assert_null(C->pricing);
    assert_false(rp_config_host(C, "codex")->allow_overrides);
    assert_null(C->subagents);
    assert_int_equal(C->audit_retention_days, 30);
    assert_int_equal(C->engine.n_slots, 1);
    assert_int_equal(C->engine.slots[0].level, RP_LEVEL_PROJECT);
}

/* ---- files ---- */

static char tmpdir[64]; /* short, so that every path built from it fits */

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup_dir(void **state)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/rampart-test-config-XXXXXX");
    assert_non_null(mkdtemp(tmpdir));
    return 0;
}

static int teardown_dir(void **state)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    assert_int_equal(system(cmd), 0);
    return teardown(state);
}

static void test_stack_order_and_levels(void **state)
{
    char project[PATH_MAX], user[PATH_MAX], sys[PATH_MAX];
    snprintf(project, sizeof project, "%s/project.yaml", tmpdir);
    snprintf(user, sizeof user, "%s/user.yaml", tmpdir);
    snprintf(sys, sizeof sys, "%s/system.yaml", tmpdir);
    write_file(project, "policies:\n  loop: {handler: detect_loop, factory_params: {window: 1}}\n");
    write_file(user, "on_error: ask\n"
                     "hosts: {codex: {deadline_ms: 100}}\n"
                     "pricing: {a: {input: 1, output: 1}}\n"
                     "policies:\n"
                     "  loop: {handler: detect_loop, factory_params: {window: 2}}\n"
                     "  calls: {handler: max_tool_calls_per_session}\n");
    write_file(sys, "on_error: allow\n"
                    "user: sys-user\n"
                    "hosts: {codex: {deadline_ms: 900, allow_overrides: true}}\n"
                    "pricing: {a: {input: 2, output: 2}, b: {input: 3, output: 3}}\n"
                    "audit: {retention_days: 7}\n"
                    "policies:\n"
                    "  loop: {handler: detect_loop, factory_params: {window: 3}}\n");
    rp_config_file files[] = {
        {project, RP_LEVEL_PROJECT}, {user, RP_LEVEL_USER}, {sys, RP_LEVEL_SYSTEM}};
    rp_config_free(C);
    C = rp_config_load(files, 3);
    expect_clean();
    /* Policies of every level run, in stack order; equal names across levels both run. */
    assert_int_equal(C->engine.n_slots, 4);
    assert_string_equal(C->engine.slots[0].name, "loop");
    assert_int_equal(C->engine.slots[0].level, RP_LEVEL_PROJECT);
    assert_int_equal(param(0, "window")->v.i, 1);
    assert_string_equal(C->engine.slots[1].name, "loop");
    assert_int_equal(C->engine.slots[1].level, RP_LEVEL_USER);
    assert_int_equal(param(1, "window")->v.i, 2);
    assert_string_equal(C->engine.slots[2].name, "calls");
    assert_string_equal(C->engine.slots[3].name, "loop");
    assert_int_equal(C->engine.slots[3].level, RP_LEVEL_SYSTEM);
    assert_int_equal(param(3, "window")->v.i, 3);
    /* Settings: the user's choice beats the system's; unset ones come from the system. */
    assert_int_equal(C->on_error, RP_ON_ERROR_ASK);
    assert_string_equal(C->user, "sys-user");
    assert_int_equal(C->audit_retention_days, 7);
    assert_int_equal(rp_config_host(C, "codex")->deadline_ms, 100);
    assert_true(rp_config_host(C, "codex")->allow_overrides);
    assert_int_equal(rp_json_path(C->pricing, "a.input")->v.i, 1);
    assert_int_equal(rp_json_path(C->pricing, "b.input")->v.i, 3);
    assert_int_equal(C->n_files, 3);
    assert_string_equal(C->files[2], sys);
    char source[PATH_MAX + 8];
    snprintf(source, sizeof source, "%s:5", user);
    assert_string_equal(C->engine.slots[1].source, source);
}

static void test_unreadable_file(void **state)
{
    char missing[PATH_MAX], good[PATH_MAX];
    snprintf(missing, sizeof missing, "%s/missing.yaml", tmpdir);
    snprintf(good, sizeof good, "%s/good.yaml", tmpdir);
    write_file(good, "policies:\n  loop: {handler: detect_loop, factory_params: {window: 0}}\n");
    rp_config_file files[] = {
        {missing, RP_LEVEL_EXPLICIT}, {tmpdir, RP_LEVEL_EXPLICIT}, {good, RP_LEVEL_EXPLICIT}};
    rp_config_free(C);
    C = rp_config_load(files, 3);
    assert_int_equal(C->n_errors, 3); /* all files are examined */
    char want[PATH_MAX + 100];
    snprintf(want, sizeof want, "%s: cannot read config file: No such file or directory", missing);
    assert_string_equal(diag(0), want);
    snprintf(want, sizeof want, "%s: cannot read config file: Is a directory", tmpdir);
    assert_string_equal(diag(1), want);
    snprintf(want, sizeof want,
             "%s:2:49: policy 'loop': parameter 'window': must be an integer >= 1, got 0", good);
    assert_string_equal(diag(2), want);
}

static bool trust_answer;
static char trusted_dir[PATH_MAX];

static bool fake_trusted(void *self, const char *dir)
{
    snprintf(trusted_dir, sizeof trusted_dir, "%s", dir);
    return trust_answer;
}

static void test_default_stack(void **state)
{
    char old_cwd[PATH_MAX], path[PATH_MAX];
    assert_non_null(getcwd(old_cwd, sizeof old_cwd));
    snprintf(path, sizeof path, "%s/xdg/rampart", tmpdir);
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", path);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/xdg/rampart/config.yaml", tmpdir);
    write_file(path, "policies: {}\n");
    snprintf(cmd, sizeof cmd, "%s/xdg", tmpdir);
    setenv("XDG_CONFIG_HOME", cmd, 1);
    assert_int_equal(chdir(tmpdir), 0);
    write_file(".rampart.yaml", "policies: {}\n");

    rp_config_file files[4];
    char buf[4 * PATH_MAX];
    rp_diag warning;
    trust_answer = false;
    size_t n = rp_config_default_stack(files, 4, buf, sizeof buf, fake_trusted, NULL, &warning);
    assert_true(n >= 1);
    assert_string_equal(files[0].path, path);
    assert_int_equal(files[0].level, RP_LEVEL_USER);
    assert_non_null(warning.message);
    assert_true(warning.warning);
    assert_string_equal(warning.message,
                        "./.rampart.yaml ignored: directory not trusted (run `rampart trust`)");
    char real_tmp[PATH_MAX];
    assert_non_null(realpath(tmpdir, real_tmp));
    assert_string_equal(trusted_dir, real_tmp);

    trust_answer = true;
    n = rp_config_default_stack(files, 4, buf, sizeof buf, fake_trusted, NULL, &warning);
    assert_true(n >= 2);
    assert_string_equal(files[0].path, "./.rampart.yaml");
    assert_int_equal(files[0].level, RP_LEVEL_PROJECT);
    assert_string_equal(files[1].path, path);
    assert_null(warning.message);

    /* No trust callback: the project file is never read. */
    n = rp_config_default_stack(files, 4, buf, sizeof buf, NULL, NULL, &warning);
    assert_string_equal(files[0].path, path);
    assert_non_null(warning.message);

    assert_int_equal(chdir(old_cwd), 0);
    unsetenv("XDG_CONFIG_HOME");
}

/* ---- --policy / --params ---- */

static void test_single(void **state)
{
    rp_config_free(C);
    C = rp_config_single("detect_loop", "{\"window\": 4}");
    expect_clean();
    assert_int_equal(C->engine.n_slots, 1);
    assert_int_equal(param(0, "window")->v.i, 4);
    assert_int_equal(param(0, "threshold")->v.i, 3);

    rp_config_free(C);
    C = rp_config_single("omnigent.policies.builtins.safety.detect_loop", NULL);
    expect_clean();
    assert_int_equal(param(0, "window")->v.i, 10);

    rp_config_free(C);
    C = rp_config_single("detect_loop", "{\"window\": 0}");
    assert_int_equal(C->n_errors, 1);
    assert_string_equal(diag(0), "--params: policy 'detect_loop': parameter 'window': must be an "
                                 "integer >= 1, got 0");

    rp_config_free(C);
    C = rp_config_single("detect_loop", "{\"window\": }");
    assert_int_equal(C->n_errors, 1);
    assert_int_equal(strncmp(diag(0), "--params:1:", 11), 0);
    assert_non_null(strstr(diag(0), "invalid JSON"));

    rp_config_free(C);
    C = rp_config_single("nope", "{}");
    assert_int_equal(C->n_errors, 1);
    assert_string_equal(diag(0), "--params: policy 'nope': unknown policy handler 'nope' (run "
                                 "`rampart policies` for the list)");

    rp_config_free(C);
    C = rp_config_single("ask_on_os_tools", "{\"x\": 1}");
    assert_int_equal(C->n_errors, 1);
    assert_string_equal(diag(0), "--params: policy 'ask_on_os_tools': Policy 'ask_on_os_tools' "
                                 "is a direct callable and does not accept factory_params, but "
                                 "got: ['x']");

    rp_config_free(C);
    C = rp_config_single("detect_thrashing", "[1]");
    assert_int_equal(C->n_errors, 1);
    assert_string_equal(diag(0), "--params: policy 'detect_thrashing': parameters must be a JSON "
                                 "object, got a list");
}

/* A hook waits for spend a host has not written yet only for a config that reads it: a cost
 * budget, cel_policy (it may read context.usage or the model), a sub-agent budget by default. */
static void test_reads_spend(void **state)
{
    (void)state;
    load("policies:\n  br: {handler: blast_radius}\n  th: {handler: detect_thrashing}\n");
    expect_clean();
    assert_false(rp_session_reads_spend(C));
    load("policies:\n  br: {handler: blast_radius}\n"
         "  cost: {handler: cost_budget, factory_params: {max_cost_usd: 1}}\n");
    expect_clean();
    assert_true(rp_session_reads_spend(C));
    load("policies:\n  daily: {handler: user_daily_cost_budget, factory_params: {max_cost_usd: "
         "1}}\n");
    expect_clean();
    assert_true(rp_session_reads_spend(C));
    load("policies:\n  loop: {handler: detect_loop}\nsubagents:\n  default_cost_budget: 2.5\n");
    expect_clean();
    assert_true(rp_session_reads_spend(C));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_both_forms_and_handler_spellings, teardown),
        cmocka_unit_test_teardown(test_every_error_with_position, teardown),
        cmocka_unit_test_teardown(test_create_error_points_at_param, teardown),
        cmocka_unit_test_teardown(test_null_params_mean_defaults, teardown),
        cmocka_unit_test_teardown(test_yaml_kinds_reach_validation, teardown),
        cmocka_unit_test_teardown(test_aliases_in_config, teardown),
        cmocka_unit_test_teardown(test_duplicate_policy_name_in_one_file, teardown),
        cmocka_unit_test_teardown(test_spec_fields, teardown),
        cmocka_unit_test_teardown(test_handler_conflicts_and_types, teardown),
        cmocka_unit_test_teardown(test_settings, teardown),
        cmocka_unit_test_teardown(test_settings_errors, teardown),
        cmocka_unit_test_teardown(test_on_error_case_insensitive, teardown),
        cmocka_unit_test_teardown(test_nan_and_direct_callable_without_params, teardown),
        cmocka_unit_test_teardown(test_top_level_shapes, teardown),
        cmocka_unit_test_teardown(test_project_level_only_adds_policies, teardown),
        cmocka_unit_test_setup_teardown(test_stack_order_and_levels, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_unreadable_file, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_default_stack, setup_dir, teardown_dir),
        cmocka_unit_test_teardown(test_single, teardown),
        cmocka_unit_test_teardown(test_reads_spend, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
