/* test_permissions_rules.c — the permissions policy's rule model (reference permissions.md §2): the
 * seed's TDD steps "alias-aware evaluation" (evaluateAnyValue: last match wins across the path
 * aliases) and "manager" (composition: the default rule, the mcp baseline, the fail-closed clamp,
 * yolo, session rules appended last, the §1.6 scope merge), plus evaluateFirst, surface globs,
 * Windows folding and JavaScript's integer-key order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "core/json.h"
#include "permissions/perm.h"

static rp_arena arena;

static int teardown(void **unused)
{
    (void)unused;
    rp_arena_free(&arena);
    return 0;
}

/* A strictly parsed permission map (the test fails on a parse error). */
static rp_perm_map map_of(const char *json, rp_perm_origin origin)
{
    rp_json_error je;
    rp_json *v = rp_json_parse(&arena, json, strlen(json), &je);
    if (v == NULL)
        fprintf(stderr, "bad test JSON %s: %s\n", json, je.msg);
    assert_non_null(v);
    rp_perm_map m;
    rp_perm_issue issue;
    int rc = rp_perm_map_parse(&arena, v, origin, true, "permission", &m, &issue);
    if (rc != 0)
        fprintf(stderr, "%s: %s\n", issue.path, issue.message);
    assert_int_equal(rc, 0);
    return m;
}

/* global (and an optional project) merged and composed. */
static rp_perm_ruleset *rules_of(const char *global, const char *project, bool clamp)
{
    rp_perm_map merged = {0};
    rp_perm_map g = map_of(global, RP_PERM_ORIGIN_GLOBAL);
    rp_perm_map_merge(&arena, &merged, &g);
    if (project) {
        rp_perm_map p = map_of(project, RP_PERM_ORIGIN_PROJECT);
        rp_perm_map_merge(&arena, &merged, &p);
    }
    rp_perm_ruleset *rs = rp_arena_calloc(&arena, sizeof *rs);
    rp_perm_compose(&arena, &merged, clamp, rs);
    return rs;
}

static rp_perm_rules_view view_of(const rp_perm_ruleset *rs)
{
    return (rp_perm_rules_view){.config = rs, .flavor = RP_PATH_POSIX, .home = "/home/user"};
}

static const char *action_of(rp_perm_match m)
{
    return rp_perm_action_name(m.action);
}

#define ABS "/workspace/project/src/App.jsx"
#define REL "src/App.jsx"

/* ---- TDD step 2: alias-aware evaluation ---- */

static void test_evaluate_any_value_last_match_wins_across_aliases(void **s)
{
    (void)s;
    /* The relative rule comes last, so it wins although only the second alias matches it. */
    rp_perm_ruleset *rs =
        rules_of("{\"path\":{\"*\":\"ask\",\"/workspace/project/*\":\"allow\",\"src/*\":\"deny\"}}",
                 NULL, false);
    rp_perm_rules_view rv = view_of(rs);
    const char *values[] = {ABS, REL};
    rp_perm_match m = rp_perm_evaluate_any(&arena, &rv, "path", values, 2);
    assert_string_equal(action_of(m), "deny");
    assert_string_equal(m.value, REL);
    assert_string_equal(m.rule->pattern, "src/*");
    assert_true(m.explicit_match);
    /* evaluateFirst would stop at the first alias and its allow: the difference the seed fixes. */
    m = rp_perm_evaluate_first(&arena, &rv, "path", values, 2);
    assert_string_equal(action_of(m), "allow");

    /* Swap the two rules: now the absolute allow is last and wins through the first alias. */
    rs =
        rules_of("{\"path\":{\"*\":\"ask\",\"src/*\":\"deny\",\"/workspace/project/*\":\"allow\"}}",
                 NULL, false);
    rv = view_of(rs);
    m = rp_perm_evaluate_any(&arena, &rv, "path", values, 2);
    assert_string_equal(action_of(m), "allow");
    assert_string_equal(m.value, ABS);
}

static void test_evaluate_any_value_catch_all_does_not_mask_later_rule(void **s)
{
    (void)s;
    /* A catch-all that the first alias matches must not hide a later rule on the second. */
    rp_perm_ruleset *rs =
        rules_of("{\"read\":{\"/workspace/*\":\"allow\",\"*.env\":\"deny\"}}", NULL, false);
    rp_perm_rules_view rv = view_of(rs);
    const char *values[] = {"/workspace/project/.env", ".env"};
    rp_perm_match m = rp_perm_evaluate_any(&arena, &rv, "read", values, 2);
    assert_string_equal(action_of(m), "deny");
    assert_string_equal(m.value, "/workspace/project/.env"); /* the first value "*.env" matches */
}

static void test_evaluate_any_value_absolute_alias_fallback(void **s)
{
    (void)s;
    rp_perm_ruleset *rs =
        rules_of("{\"path\":{\"*\":\"ask\",\"/workspace/project/*\":\"allow\"}}", NULL, false);
    rp_perm_rules_view rv = view_of(rs);
    /* A relative input matches the absolute allowlist through its absolute alias. */
    const char *values[] = {ABS, REL};
    rp_perm_match m = rp_perm_evaluate_any(&arena, &rv, "path", values, 2);
    assert_string_equal(action_of(m), "allow");
    assert_string_equal(m.value, ABS);
    /* Outside the allowlist the path's own "*" decides: explicit, ask. */
    const char *outside[] = {"/etc/hosts"};
    m = rp_perm_evaluate_any(&arena, &rv, "path", outside, 1);
    assert_string_equal(action_of(m), "ask");
    assert_true(m.explicit_match);
    /* With no rule for the surface at all, only the universal default matches: not explicit,
     * and the value reported is the first alias. */
    m = rp_perm_evaluate_any(&arena, &rv, "read", values, 2);
    assert_string_equal(action_of(m), "ask");
    assert_int_equal(m.rule->layer, RP_PERM_LAYER_DEFAULT);
    assert_false(m.explicit_match);
    assert_string_equal(m.value, ABS);
}

static void test_evaluate_any_value_empty_list_is_star(void **s)
{
    (void)s;
    rp_perm_ruleset *rs = rules_of("{\"read\":{\"*\":\"deny\",\"src/*\":\"allow\"}}", NULL, false);
    rp_perm_rules_view rv = view_of(rs);
    rp_perm_match m = rp_perm_evaluate_any(&arena, &rv, "read", NULL, 0);
    assert_string_equal(action_of(m), "deny");
    assert_string_equal(m.value, "*");
    m = rp_perm_evaluate_first(&arena, &rv, "read", NULL, 0);
    assert_string_equal(action_of(m), "deny");
    assert_string_equal(m.value, "*");
}

static void test_evaluate_any_value_session_rules_come_last(void **s)
{
    (void)s;
    rp_perm_ruleset *rs = rules_of("{\"path\":{\"/etc/*\":\"deny\"}}", NULL, false);
    rp_perm_rule session[] = {{.surface = "path",
                               .pattern = "/etc/hosts",
                               .action = RP_PERM_ALLOW,
                               .layer = RP_PERM_LAYER_SESSION,
                               .origin = RP_PERM_ORIGIN_SESSION}};
    rp_perm_rules_view rv = view_of(rs);
    rv.session = session;
    rv.n_session = 1;
    const char *values[] = {"/etc/hosts"};
    rp_perm_match m = rp_perm_evaluate_any(&arena, &rv, "path", values, 1);
    assert_string_equal(action_of(m), "allow");
    assert_ptr_equal(m.rule, &session[0]);
    assert_true(m.explicit_match);
    const char *other[] = {"/etc/passwd"};
    m = rp_perm_evaluate_any(&arena, &rv, "path", other, 1);
    assert_string_equal(action_of(m), "deny");
    /* A session rule applies only on its own surface. */
    m = rp_perm_evaluate_any(&arena, &rv, "read", values, 1);
    assert_int_equal(m.rule->layer, RP_PERM_LAYER_DEFAULT);
}

/* ---- evaluateFirst ---- */

static void test_evaluate_first_first_non_default_value_decides(void **s)
{
    (void)s;
    const char *cands[] = {"srv_wipe", "srv:wipe", "srv", "wipe", "mcp_call", "mcp"};
    rp_perm_ruleset *rs =
        rules_of("{\"mcp\":{\"srv\":\"deny\",\"mcp_call\":\"allow\"}}", NULL, false);
    rp_perm_rules_view rv = view_of(rs);
    rp_perm_match m = rp_perm_evaluate_first(&arena, &rv, "mcp", cands, 6);
    assert_string_equal(action_of(m), "deny");
    assert_string_equal(m.value, "srv");
    /* An mcp "*" matches the first candidate already, so "srv" is never reached (§3.7: the
     * reference's weakness lives in evaluateFirst itself; the policy works around it). */
    rs = rules_of("{\"mcp\":{\"*\":\"allow\",\"srv\":\"deny\"}}", NULL, false);
    rv = view_of(rs);
    m = rp_perm_evaluate_first(&arena, &rv, "mcp", cands, 6);
    assert_string_equal(action_of(m), "allow");
    assert_string_equal(m.value, "srv_wipe");
}

static void test_evaluate_first_all_default_falls_back_to_first_value(void **s)
{
    (void)s;
    rp_perm_ruleset *rs = rules_of("{\"*\":\"deny\",\"bash\":{\"git *\":\"allow\"}}", NULL, false);
    rp_perm_rules_view rv = view_of(rs);
    const char *vals[] = {"first", "second"};
    rp_perm_match m = rp_perm_evaluate_first(&arena, &rv, "skill", vals, 2);
    assert_string_equal(action_of(m), "deny");
    assert_string_equal(m.value, "first");
    assert_int_equal(m.rule->layer, RP_PERM_LAYER_DEFAULT);
    assert_int_equal(m.rule->origin, RP_PERM_ORIGIN_GLOBAL);
    assert_false(m.explicit_match);
}

static void test_evaluate_first_baseline_counts_as_non_default(void **s)
{
    (void)s;
    rp_perm_ruleset *rs = rules_of("{\"*\":\"deny\",\"mcp\":{\"exa_*\":\"allow\"}}", NULL, false);
    rp_perm_rules_view rv = view_of(rs);
    const char *vals[] = {"mcp_status", "mcp"};
    rp_perm_match m = rp_perm_evaluate_first(&arena, &rv, "mcp", vals, 2);
    assert_string_equal(action_of(m), "allow");
    assert_int_equal(m.rule->layer, RP_PERM_LAYER_BASELINE);
    assert_false(m.explicit_match); /* baseline decides, but is not "explicit" */
    assert_string_equal(m.value, "mcp_status");
}

/* ---- TDD step 4: the manager (composition) ---- */

static void test_manager_default_rule_from_star(void **s)
{
    (void)s;
    rp_perm_ruleset *rs = rules_of("{\"*\":\"allow\",\"bash\":\"deny\"}", NULL, false);
    assert_int_equal(rs->n_rules, 2);
    assert_string_equal(rs->rules[0].surface, "*");
    assert_string_equal(rs->rules[0].pattern, "*");
    assert_int_equal(rs->rules[0].action, RP_PERM_ALLOW);
    assert_int_equal(rs->rules[0].layer, RP_PERM_LAYER_DEFAULT);
    assert_int_equal(rs->rules[0].origin, RP_PERM_ORIGIN_GLOBAL);
    assert_string_equal(rs->rules[1].surface, "bash");
    assert_string_equal(rs->rules[1].pattern, "*"); /* a string S is {"*": S} */
    assert_int_equal(rs->rules[1].layer, RP_PERM_LAYER_CONFIG);

    /* No "*": the built-in ask. */
    rs = rules_of("{\"bash\":\"deny\"}", NULL, false);
    assert_int_equal(rs->rules[0].action, RP_PERM_ASK);
    assert_int_equal(rs->rules[0].origin, RP_PERM_ORIGIN_BUILTIN);

    /* A "*" pattern map is no fallback and no config rule either. */
    rs = rules_of("{\"*\":{\"*\":\"allow\"},\"read\":\"deny\"}", NULL, false);
    assert_int_equal(rs->n_rules, 2);
    assert_int_equal(rs->rules[0].action, RP_PERM_ASK);
    assert_string_equal(rs->rules[1].surface, "read");

    /* Nothing at all: one rule, ask. */
    rp_perm_ruleset empty;
    rp_perm_compose(&arena, NULL, false, &empty);
    assert_int_equal(empty.n_rules, 1);
    assert_int_equal(empty.rules[0].action, RP_PERM_ASK);
}

static void test_manager_baseline_only_with_an_mcp_allow(void **s)
{
    (void)s;
    static const char *const targets[] = {"mcp_status", "mcp_list", "mcp_search", "mcp_describe",
                                          "mcp_connect"};
    rp_perm_ruleset *rs = rules_of("{\"mcp\":{\"*\":\"ask\",\"exa:*\":\"allow\"}}", NULL, false);
    assert_int_equal(rs->n_rules, 1 + 5 + 2);
    for (size_t i = 0; i < 5; i++) {
        assert_string_equal(rs->rules[1 + i].surface, "mcp");
        assert_string_equal(rs->rules[1 + i].pattern, targets[i]);
        assert_int_equal(rs->rules[1 + i].action, RP_PERM_ALLOW);
        assert_int_equal(rs->rules[1 + i].layer, RP_PERM_LAYER_BASELINE);
        assert_int_equal(rs->rules[1 + i].origin, RP_PERM_ORIGIN_BASELINE);
    }
    /* The baseline sits before the config rules: a config deny still beats it. */
    rs = rules_of("{\"mcp\":{\"x\":\"allow\",\"mcp_status\":\"deny\"}}", NULL, false);
    rp_perm_rules_view rv = view_of(rs);
    assert_string_equal(action_of(rp_perm_evaluate(&arena, &rv, "mcp", "mcp_status")), "deny");
    assert_string_equal(action_of(rp_perm_evaluate(&arena, &rv, "mcp", "mcp_list")), "allow");

    assert_int_equal(rules_of("{\"mcp\":\"allow\"}", NULL, false)->n_rules, 1 + 5 + 1);
    assert_int_equal(rules_of("{\"mcp\":{\"*\":\"deny\",\"x\":\"ask\"}}", NULL, false)->n_rules,
                     1 + 2);
    /* surface == "mcp" exactly: a glob key or another surface's allow is no reason. */
    assert_int_equal(rules_of("{\"mc*\":\"allow\"}", NULL, false)->n_rules, 2);
    assert_int_equal(rules_of("{\"bash\":\"allow\",\"*\":\"allow\"}", NULL, false)->n_rules, 2);
}

static void test_manager_clamp_floors_every_allow(void **s)
{
    (void)s;
    rp_perm_ruleset *rs =
        rules_of("{\"*\":\"allow\",\"bash\":{\"git *\":\"allow\",\"rm *\":\"deny\",\"ls\":\"ask\"},"
                 "\"mcp\":{\"a\":\"allow\"}}",
                 NULL, true);
    assert_int_equal(rs->n_rules, 1 + 5 + 4);
    for (size_t i = 0; i < rs->n_rules; i++) {
        const rp_perm_rule *r = &rs->rules[i];
        bool was_deny = strcmp(r->pattern, "rm *") == 0, was_ask = strcmp(r->pattern, "ls") == 0;
        assert_int_equal(r->action, was_deny ? RP_PERM_DENY : RP_PERM_ASK);
        if (!was_deny && !was_ask)
            assert_int_equal(r->origin, RP_PERM_ORIGIN_FAIL_CLOSED);
        else
            assert_int_equal(r->origin, RP_PERM_ORIGIN_GLOBAL);
    }
    /* Session rules are not clamped. */
    rp_perm_rule session[] = {{.surface = "bash",
                               .pattern = "git status",
                               .action = RP_PERM_ALLOW,
                               .layer = RP_PERM_LAYER_SESSION,
                               .origin = RP_PERM_ORIGIN_SESSION}};
    rp_perm_rules_view rv = view_of(rs);
    rv.session = session;
    rv.n_session = 1;
    assert_string_equal(action_of(rp_perm_evaluate(&arena, &rv, "bash", "git status")), "allow");
    assert_string_equal(action_of(rp_perm_evaluate(&arena, &rv, "bash", "git log")), "ask");
    /* Yolo turns even the fail-closed asks back into allows; deny stays. */
    rv.yolo = true;
    rp_perm_match m = rp_perm_evaluate(&arena, &rv, "bash", "git log");
    assert_string_equal(action_of(m), "allow");
    assert_true(m.yolo);
    assert_int_equal(m.rule->origin, RP_PERM_ORIGIN_FAIL_CLOSED);
    assert_string_equal(action_of(rp_perm_evaluate(&arena, &rv, "bash", "rm -rf x")), "deny");
}

static void test_manager_yolo_turns_ask_into_allow(void **s)
{
    (void)s;
    rp_perm_ruleset *rs =
        rules_of("{\"bash\":{\"*\":\"ask\",\"rm *\":\"deny\",\"ls\":\"allow\"}}", NULL, false);
    rp_perm_rules_view rv = view_of(rs);
    rp_perm_match m = rp_perm_evaluate(&arena, &rv, "bash", "make");
    assert_string_equal(action_of(m), "ask");
    assert_false(m.yolo);
    rv.yolo = true;
    m = rp_perm_evaluate(&arena, &rv, "bash", "make");
    assert_string_equal(action_of(m), "allow");
    assert_true(m.yolo);                           /* nothing prompted: the gate needs to know */
    assert_int_equal(m.rule->action, RP_PERM_ASK); /* the rule itself is untouched */
    m = rp_perm_evaluate(&arena, &rv, "bash", "ls");
    assert_string_equal(action_of(m), "allow");
    assert_false(m.yolo); /* a real allow is not a yolo one */
    m = rp_perm_evaluate(&arena, &rv, "bash", "rm -rf /");
    assert_string_equal(action_of(m), "deny");
    assert_false(m.yolo);
    /* The universal default ask too. */
    m = rp_perm_evaluate(&arena, &rv, "task", "*");
    assert_string_equal(action_of(m), "allow");
    assert_true(m.yolo);
}

static void test_manager_session_rules_last(void **s)
{
    (void)s;
    /* A matching session rule beats any config rule, a deny included (#799). */
    rp_perm_ruleset *rs =
        rules_of("{\"bash\":{\"*\":\"ask\",\"git push*\":\"deny\"}}", NULL, false);
    rp_perm_rule session[] = {{.surface = "bash",
                               .pattern = "git push*",
                               .action = RP_PERM_ALLOW,
                               .layer = RP_PERM_LAYER_SESSION,
                               .origin = RP_PERM_ORIGIN_SESSION}};
    rp_perm_rules_view rv = view_of(rs);
    assert_string_equal(action_of(rp_perm_evaluate(&arena, &rv, "bash", "git push")), "deny");
    rv.session = session;
    rv.n_session = 1;
    rp_perm_match m = rp_perm_evaluate(&arena, &rv, "bash", "git push");
    assert_string_equal(action_of(m), "allow");
    assert_int_equal(m.rule->layer, RP_PERM_LAYER_SESSION);
    assert_true(m.explicit_match);
    assert_string_equal(action_of(rp_perm_evaluate(&arena, &rv, "bash", "git pull")), "ask");
}

static void test_manager_merge_keeps_first_position_git_push_still_denied(void **s)
{
    (void)s;
    rp_perm_map merged = {0};
    rp_perm_map g =
        map_of("{\"bash\":{\"git *\":\"allow\",\"git push\":\"deny\"}}", RP_PERM_ORIGIN_GLOBAL);
    rp_perm_map p = map_of("{\"bash\":{\"git *\":\"ask\"}}", RP_PERM_ORIGIN_PROJECT);
    rp_perm_map_merge(&arena, &merged, &g);
    rp_perm_map_merge(&arena, &merged, &p);
    assert_int_equal(merged.n_surfaces, 1);
    const rp_perm_surface *b = &merged.surfaces[0];
    assert_true(b->is_map);
    assert_int_equal(b->n_entries, 2);
    assert_string_equal(b->entries[0].pattern, "git *");
    assert_int_equal(b->entries[0].action, RP_PERM_ASK);
    assert_int_equal(b->entries[0].origin, RP_PERM_ORIGIN_PROJECT);
    assert_string_equal(b->entries[1].pattern, "git push");
    assert_int_equal(b->entries[1].action, RP_PERM_DENY);
    assert_int_equal(b->entries[1].origin, RP_PERM_ORIGIN_GLOBAL);
    /* The source maps are untouched by the merge. */
    assert_int_equal(g.surfaces[0].entries[0].action, RP_PERM_ALLOW);

    rp_perm_ruleset rs;
    rp_perm_compose(&arena, &merged, false, &rs);
    rp_perm_rules_view rv = view_of(&rs);
    assert_string_equal(action_of(rp_perm_evaluate(&arena, &rv, "bash", "git push")), "deny");
    assert_string_equal(action_of(rp_perm_evaluate(&arena, &rv, "bash", "git status")), "ask");
}

static void test_manager_merge_string_and_map_replace_in_place(void **s)
{
    (void)s;
    rp_perm_map merged = {0};
    rp_perm_map g = map_of("{\"read\":\"allow\",\"bash\":{\"git *\":\"allow\"},\"write\":\"deny\"}",
                           RP_PERM_ORIGIN_GLOBAL);
    rp_perm_map p = map_of("{\"bash\":\"deny\",\"read\":{\"*.env\":\"deny\"},\"skill\":\"ask\"}",
                           RP_PERM_ORIGIN_PROJECT);
    rp_perm_map_merge(&arena, &merged, &g);
    rp_perm_map_merge(&arena, &merged, &p);
    assert_int_equal(merged.n_surfaces, 4);
    const char *order[] = {"read", "bash", "write", "skill"};
    for (size_t i = 0; i < 4; i++)
        assert_string_equal(merged.surfaces[i].surface, order[i]);
    /* map → string: the whole entry replaced, the git allow gone. */
    assert_false(merged.surfaces[1].is_map);
    assert_int_equal(merged.surfaces[1].action, RP_PERM_DENY);
    assert_int_equal(merged.surfaces[1].origin, RP_PERM_ORIGIN_PROJECT);
    /* string → map: the old "allow" catch-all is gone too. */
    assert_true(merged.surfaces[0].is_map);
    assert_int_equal(merged.surfaces[0].n_entries, 1);
    rp_perm_ruleset rs;
    rp_perm_compose(&arena, &merged, false, &rs);
    rp_perm_rules_view rv = view_of(&rs);
    const char *v[] = {"/x/notes.txt"};
    assert_string_equal(action_of(rp_perm_evaluate_any(&arena, &rv, "read", v, 1)), "ask");
    assert_string_equal(action_of(rp_perm_evaluate(&arena, &rv, "bash", "git status")), "deny");
}

/* ---- surface globs (§2.5) ---- */

static void test_surface_keys_are_globs(void **s)
{
    (void)s;
    rp_perm_ruleset *rs = rules_of("{\"exa_*\":\"allow\"}", NULL, false);
    rp_perm_rules_view rv = view_of(rs);
    assert_string_equal(action_of(rp_perm_evaluate(&arena, &rv, "exa_search", "*")), "allow");
    assert_string_equal(action_of(rp_perm_evaluate(&arena, &rv, "exa_web_fetch", "*")), "allow");
    assert_string_equal(action_of(rp_perm_evaluate(&arena, &rv, "exa", "*")), "ask");

    /* A careless "p*" also covers the cross-cutting `path` surface, explicitly. */
    rs = rules_of("{\"p*\":\"deny\"}", NULL, false);
    rv = view_of(rs);
    const char *vals[] = {"/workspace/project/a"};
    rp_perm_match m = rp_perm_evaluate_any(&arena, &rv, "path", vals, 1);
    assert_string_equal(action_of(m), "deny");
    assert_true(m.explicit_match);
    assert_true(rp_perm_rule_matches(&arena, &rv, &rs->rules[1], "path", "anything"));
    assert_false(rp_perm_rule_matches(&arena, &rv, &rs->rules[1], "read", "anything"));
    /* `skills` is not `skill`. */
    rs = rules_of("{\"skills\":\"deny\"}", NULL, false);
    rv = view_of(rs);
    assert_string_equal(action_of(rp_perm_evaluate(&arena, &rv, "skill", "x")), "ask");
}

static void test_path_surfaces(void **s)
{
    (void)s;
    const char *yes[] = {"read", "write", "edit", "grep",
                         "find", "ls",    "path", "external_directory"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        assert_true(rp_perm_is_path_surface(yes[i]));
    const char *no[] = {"bash", "mcp", "skill", "Read", "paths", "", "exa_search"};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        assert_false(rp_perm_is_path_surface(no[i]));
    assert_false(rp_perm_is_path_surface(NULL));
}

/* ---- Windows folding (§2.4) ---- */

static void test_win32_folding_only_on_path_surfaces(void **s)
{
    (void)s;
    rp_perm_ruleset *rs = rules_of("{\"read\":{\"c:/users/u/*\":\"deny\"},"
                                   "\"bash\":{\"GIT *\":\"deny\"},\"READ\":\"allow\"}",
                                   NULL, false);
    rp_perm_rules_view rv = view_of(rs);
    rv.flavor = RP_PATH_WIN32;
    rv.home = "C:\\Users\\u";
    const char *win[] = {"C:\\Users\\U\\notes.txt"};
    assert_string_equal(action_of(rp_perm_evaluate_any(&arena, &rv, "read", win, 1)), "deny");
    /* bash is never folded, and surface names never are: "READ" does not cover "read". */
    assert_string_equal(action_of(rp_perm_evaluate(&arena, &rv, "bash", "git status")), "ask");
    assert_string_equal(action_of(rp_perm_evaluate(&arena, &rv, "bash", "GIT status")), "deny");
    const char *other[] = {"D:\\x"};
    assert_string_equal(action_of(rp_perm_evaluate_any(&arena, &rv, "read", other, 1)), "ask");
    /* POSIX never folds. */
    rv.flavor = RP_PATH_POSIX;
    assert_string_equal(action_of(rp_perm_evaluate_any(&arena, &rv, "read", win, 1)), "ask");
}

static void test_home_expansion_of_patterns(void **s)
{
    (void)s;
    rp_perm_ruleset *rs = rules_of(
        "{\"read\":{\"~/.ssh/*\":\"deny\",\"$HOME/notes\":\"allow\"},\"bash\":{\"~/bin/x *\":"
        "\"deny\"}}",
        NULL, false);
    rp_perm_rules_view rv = view_of(rs);
    const char *ssh[] = {"/home/user/.ssh/id_rsa"};
    assert_string_equal(action_of(rp_perm_evaluate_any(&arena, &rv, "read", ssh, 1)), "deny");
    const char *notes[] = {"/home/user/notes"};
    assert_string_equal(action_of(rp_perm_evaluate_any(&arena, &rv, "read", notes, 1)), "allow");
    /* Every surface expands, bash included (§2.3 step 1). */
    assert_string_equal(action_of(rp_perm_evaluate(&arena, &rv, "bash", "/home/user/bin/x -f")),
                        "deny");
    /* Without HOME the pattern is matched as written. */
    rv.home = NULL;
    assert_string_equal(action_of(rp_perm_evaluate_any(&arena, &rv, "read", ssh, 1)), "ask");
    const char *literal[] = {"~/.ssh/id_rsa"};
    assert_string_equal(action_of(rp_perm_evaluate_any(&arena, &rv, "read", literal, 1)), "deny");
}

/* The evaluator decides common pattern shapes itself; its answers must be the matcher's exactly,
 * folding and odd UTF-8 included. A differential check over random patterns and values. */
static void test_rule_matching_agrees_with_the_glob_matcher(void **s)
{
    (void)s;
    static const char *const atoms[] = {"a",   "b", "A", " ",        "/",    "\\",   "*",
                                        "*",   "?", ".", "\xc3\xa9", "\xc3", "\xa9", "\xe6\x97\xa5",
                                        "git", "~"};
    const size_t n_atoms = sizeof atoms / sizeof atoms[0];
    uint32_t seed = 12345;
    for (int round = 0; round < 40000; round++) {
        char p[64] = "", v[64] = "";
        for (int k = 0; k < 2; k++) {
            char *dst = k ? v : p;
            seed = seed * 1103515245u + 12345u;
            int len = (int)((seed >> 16) % 7);
            for (int i = 0; i < len; i++) {
                seed = seed * 1103515245u + 12345u;
                const char *at = atoms[(seed >> 16) % n_atoms];
                if (k && strcmp(at, "*") == 0)
                    at = "b"; /* values rarely hold stars; keep them interesting */
                strcat(dst, at);
            }
        }
        rp_perm_rule r = {.surface = "read", .pattern = p, .layer = RP_PERM_LAYER_CONFIG};
        for (int win = 0; win < 2; win++) {
            rp_perm_rules_view rv = {.flavor = win ? RP_PATH_WIN32 : RP_PATH_POSIX};
            rp_glob_opts o = {.win32 = win, .fold_case = win, .fold_sep = win};
            bool want = rp_glob_match(NULL, p, v, &o);
            bool got = rp_perm_rule_matches(&arena, &rv, &r, "read", v);
            if (got != want)
                fprintf(stderr, "pattern [%s] value [%s] win32=%d: %d, matcher %d\n", p, v, win,
                        got, want);
            assert_int_equal(got, want);
        }
    }
}

/* ---- JavaScript key order (§1.6) ---- */

static void test_integer_keys_sort_first(void **s)
{
    (void)s;
    rp_perm_map m = map_of("{\"bash\":{\"*\":\"ask\",\"10\":\"ask\",\"1\":\"deny\",\"git *\":"
                           "\"allow\",\"0\":\"allow\",\"01\":\"deny\",\"-1\":\"deny\","
                           "\"4294967295\":\"deny\",\"4294967294\":\"ask\"}}",
                           RP_PERM_ORIGIN_GLOBAL);
    const char *order[] = {"0", "1", "10", "4294967294", "*", "git *", "01", "-1", "4294967295"};
    assert_int_equal(m.surfaces[0].n_entries, 9);
    for (size_t i = 0; i < 9; i++)
        assert_string_equal(m.surfaces[0].entries[i].pattern, order[i]);
    /* The consequence: "1" sorts before "*", so the deny on "1" is shadowed by the catch-all. */
    rp_perm_ruleset rs;
    rp_perm_compose(&arena, &m, false, &rs);
    rp_perm_rules_view rv = view_of(&rs);
    assert_string_equal(action_of(rp_perm_evaluate(&arena, &rv, "bash", "1")), "ask");

    /* Surface keys too. */
    m = map_of("{\"bash\":\"allow\",\"7\":\"deny\",\"3\":\"ask\"}", RP_PERM_ORIGIN_GLOBAL);
    assert_string_equal(m.surfaces[0].surface, "3");
    assert_string_equal(m.surfaces[1].surface, "7");
    assert_string_equal(m.surfaces[2].surface, "bash");
}

static void test_integer_keys_sort_first_in_merged_maps(void **s)
{
    (void)s;
    rp_perm_map merged = {0};
    rp_perm_map g = map_of("{\"bash\":{\"*\":\"allow\"},\"read\":\"ask\"}", RP_PERM_ORIGIN_GLOBAL);
    rp_perm_map p = map_of("{\"bash\":{\"5\":\"deny\"},\"2\":\"deny\"}", RP_PERM_ORIGIN_PROJECT);
    rp_perm_map_merge(&arena, &merged, &g);
    rp_perm_map_merge(&arena, &merged, &p);
    assert_string_equal(merged.surfaces[0].surface, "2");
    assert_string_equal(merged.surfaces[1].surface, "bash");
    assert_string_equal(merged.surfaces[2].surface, "read");
    const rp_perm_surface *b = &merged.surfaces[1];
    assert_string_equal(b->entries[0].pattern, "5");
    assert_string_equal(b->entries[1].pattern, "*");
    rp_perm_ruleset rs;
    rp_perm_compose(&arena, &merged, false, &rs);
    rp_perm_rules_view rv = view_of(&rs);
    /* The project's deny on "5" landed before the global catch-all, which therefore wins. */
    assert_string_equal(action_of(rp_perm_evaluate(&arena, &rv, "bash", "5")), "allow");
}

/* ---- cost ---- */

/* ~10 rules, 3 aliases: no allocation in the common case (no home-prefixed pattern), and far
 * below the 1 µs budget per check (asserted with a wide margin for loaded CI machines). */
static void test_evaluation_does_not_allocate(void **s)
{
    (void)s;
    rp_perm_ruleset *rs = rules_of(
        "{\"*\":\"ask\",\"path\":{\"*\":\"allow\",\"*.env\":\"deny\",\"*.env.example\":"
        "\"allow\",\"/workspace/project/secrets/*\":\"deny\"},\"read\":\"allow\",\"write\":{\"*\":"
        "\"ask\",\"src/*\":\"allow\"},\"external_directory\":{\"*\":\"ask\",\"/tmp/*\":\"allow\"}}",
        NULL, false);
    assert_int_equal(rs->n_rules, 10);
    rp_perm_rules_view rv = view_of(rs);
    const char *vals[] = {"/workspace/project/src/config/app.ts", "src/config/app.ts",
                          "./src/config/app.ts"};
    rp_arena a;
    rp_arena_init(&a, 4096);
    char *before = rp_arena_alloc(&a, 1);
    rp_perm_match m = rp_perm_evaluate_any(&a, &rv, "path", vals, 3);
    char *after = rp_arena_alloc(&a, 1);
    assert_string_equal(action_of(m), "allow");
    assert_ptr_equal(after, before + 16); /* nothing was allocated in between */

    struct timespec t0, t1;
    const int rounds = 20000;
    int denies = 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < rounds; i++) {
        const char *v = i % 2 ? "/workspace/project/.env" : vals[0];
        const char *three[] = {v, vals[1], vals[2]};
        denies += rp_perm_evaluate_any(&a, &rv, "path", three, 3).action == RP_PERM_DENY;
        denies += rp_perm_evaluate_any(&a, &rv, "read", three, 3).action == RP_PERM_DENY;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) /
                (2.0 * rounds);
    assert_int_equal(denies, rounds / 2);
    if (ns > 20000)
        fprintf(stderr, "evaluate_any: %.0f ns per check\n", ns);
    assert_true(ns < 20000);
    rp_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_evaluate_any_value_last_match_wins_across_aliases, teardown),
        cmocka_unit_test_teardown(test_evaluate_any_value_catch_all_does_not_mask_later_rule,
                                  teardown),
        cmocka_unit_test_teardown(test_evaluate_any_value_absolute_alias_fallback, teardown),
        cmocka_unit_test_teardown(test_evaluate_any_value_empty_list_is_star, teardown),
        cmocka_unit_test_teardown(test_evaluate_any_value_session_rules_come_last, teardown),
        cmocka_unit_test_teardown(test_evaluate_first_first_non_default_value_decides, teardown),
        cmocka_unit_test_teardown(test_evaluate_first_all_default_falls_back_to_first_value,
                                  teardown),
        cmocka_unit_test_teardown(test_evaluate_first_baseline_counts_as_non_default, teardown),
        cmocka_unit_test_teardown(test_manager_default_rule_from_star, teardown),
        cmocka_unit_test_teardown(test_manager_baseline_only_with_an_mcp_allow, teardown),
        cmocka_unit_test_teardown(test_manager_clamp_floors_every_allow, teardown),
        cmocka_unit_test_teardown(test_manager_yolo_turns_ask_into_allow, teardown),
        cmocka_unit_test_teardown(test_manager_session_rules_last, teardown),
        cmocka_unit_test_teardown(test_manager_merge_keeps_first_position_git_push_still_denied,
                                  teardown),
        cmocka_unit_test_teardown(test_manager_merge_string_and_map_replace_in_place, teardown),
        cmocka_unit_test_teardown(test_surface_keys_are_globs, teardown),
        cmocka_unit_test_teardown(test_path_surfaces, teardown),
        cmocka_unit_test_teardown(test_win32_folding_only_on_path_surfaces, teardown),
        cmocka_unit_test_teardown(test_home_expansion_of_patterns, teardown),
        cmocka_unit_test_teardown(test_rule_matching_agrees_with_the_glob_matcher, teardown),
        cmocka_unit_test_teardown(test_integer_keys_sort_first, teardown),
        cmocka_unit_test_teardown(test_integer_keys_sort_first_in_merged_maps, teardown),
        cmocka_unit_test_teardown(test_evaluation_does_not_allocate, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
