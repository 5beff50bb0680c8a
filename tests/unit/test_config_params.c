/* test_config_params.c — rp_params_validate against a fake policy type with one parameter of every
 * kind, so the schema checks are tested independently of the real builtins. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/arena.h"
#include "core/json.h"
#include "config/config.h"

static const char *const actions[] = {"ASK", "DENY", NULL};
static const char *const pii[] = {"email", "phone", "ssn", NULL};

static const rp_param_spec fake_params[] = {
    {.name = "window", .kind = RP_PARAM_INT, .default_json = "10", .has_min = true, .min = 1},
    {.name = "rate",
     .kind = RP_PARAM_NUMBER,
     .default_json = "0.5",
     .has_min = true,
     .min = 0,
     .has_max = true,
     .max = 1},
    {.name = "action", .kind = RP_PARAM_STRING, .default_json = "\"ASK\"", .enum_values = actions},
    {.name = "types", .kind = RP_PARAM_STRING_LIST, .default_json = "[]", .enum_values = pii},
    {.name = "names", .kind = RP_PARAM_STRING_LIST},
    {.name = "strict", .kind = RP_PARAM_BOOL, .default_json = "false"},
    {.name = "blocked", .kind = RP_PARAM_ARRAY, .required = true},
    {.name = "extra", .kind = RP_PARAM_OBJECT},
    {.name = "limit",
     .kind = RP_PARAM_INT,
     .default_json = "100",
     .required = true,
     .has_max = true,
     .max = 1000},
};

static const rp_policy_type fake = {
    .name = "fake",
    .module = "tests.fake",
    .params = fake_params,
    .n_params = sizeof fake_params / sizeof fake_params[0],
};

static const rp_policy_type no_params = {.name = "bare", .module = "tests.fake"};

typedef struct sink {
    char msgs[16][300];
    size_t n;
} sink;

static void collect(void *self, const char *param, const char *message)
{
    sink *s = self;
    if (s->n < 16)
        snprintf(s->msgs[s->n++], sizeof s->msgs[0], "%s: %s", param ? param : "-", message);
}

typedef struct fixture {
    rp_arena arena;
    sink sink;
} fixture;

static fixture F;

static int setup(void **state)
{
    memset(&F, 0, sizeof F);
    rp_arena_init(&F.arena, 4096);
    *state = &F;
    return 0;
}

static int teardown(void **state)
{
    rp_arena_free(&F.arena);
    return 0;
}

/* Validates params_json against type; returns the result and leaves messages in F.sink. */
static const rp_json *validate(const rp_policy_type *type, const char *params_json)
{
    rp_json_error err;
    const rp_json *raw = NULL;
    if (params_json) {
        raw = rp_json_parse(&F.arena, params_json, strlen(params_json), &err);
        assert_non_null(raw);
    }
    F.sink.n = 0;
    return rp_params_validate(type, raw, &F.arena, collect, &F.sink);
}

static const char *text(const rp_json *v)
{
    return rp_json_to_string(&F.arena, v);
}

static void test_defaults_filled(void **state)
{
    const rp_json *p = validate(&fake, "{\"blocked\": []}");
    assert_non_null(p);
    assert_int_equal(F.sink.n, 0);
    assert_string_equal(text(p), "{\"window\":10,\"rate\":0.5,\"action\":\"ASK\",\"types\":[],"
                                 "\"names\":null,\"strict\":false,\"blocked\":[],"
                                 "\"extra\":null,\"limit\":100}");
}

static void test_null_means_default(void **state)
{
    const rp_json *p = validate(&fake, "{\"blocked\": [1], \"window\": null, \"limit\": null}");
    assert_non_null(p);
    assert_int_equal(rp_json_get(p, "window")->v.i, 10);
    assert_int_equal(rp_json_get(p, "limit")->v.i, 100);
}

static void test_values_kept(void **state)
{
    const rp_json *p = validate(&fake, "{\"blocked\": [\"x\"], \"window\": 3, \"rate\": 1, "
                                       "\"strict\": true, \"names\": [\"a\", \"b\"], "
                                       "\"extra\": {\"k\": 1}, \"limit\": 1000}");
    assert_non_null(p);
    assert_int_equal(rp_json_get(p, "window")->v.i, 3);
    assert_int_equal(rp_json_get(p, "rate")->type, RP_JSON_INT); /* kind kept */
    assert_true(rp_json_get(p, "strict")->v.b);
    assert_string_equal(text(rp_json_get(p, "names")), "[\"a\",\"b\"]");
}

static void test_integer_range_message(void **state)
{
    assert_null(validate(&fake, "{\"blocked\": [], \"window\": 0}"));
    assert_int_equal(F.sink.n, 1);
    assert_string_equal(F.sink.msgs[0], "window: must be an integer >= 1, got 0");
}

static void test_integer_rejects_bool_and_double(void **state)
{
    assert_null(validate(&fake, "{\"blocked\": [], \"window\": true}"));
    assert_string_equal(F.sink.msgs[0], "window: must be an integer >= 1, got true");
    assert_null(validate(&fake, "{\"blocked\": [], \"window\": 1.0}"));
    assert_string_equal(F.sink.msgs[0], "window: must be an integer >= 1, got 1.0");
    assert_null(validate(&fake, "{\"blocked\": [], \"window\": \"5\"}"));
    assert_string_equal(F.sink.msgs[0], "window: must be an integer >= 1, got '5'");
}

static void test_number_range(void **state)
{
    assert_null(validate(&fake, "{\"blocked\": [], \"rate\": 1.5}"));
    assert_string_equal(F.sink.msgs[0], "rate: must be a number in [0, 1], got 1.5");
    assert_null(validate(&fake, "{\"blocked\": [], \"rate\": false}"));
    assert_string_equal(F.sink.msgs[0], "rate: must be a number in [0, 1], got false");
    assert_non_null(validate(&fake, "{\"blocked\": [], \"rate\": 0}"));
    assert_null(validate(&fake, "{\"blocked\": [], \"limit\": 1001}"));
    assert_string_equal(F.sink.msgs[0], "limit: must be an integer <= 1000, got 1001");
}

static void test_enum_case_insensitive_canonical(void **state)
{
    const rp_json *p = validate(&fake, "{\"blocked\": [], \"action\": \"deny\", "
                                       "\"types\": [\"EMAIL\", \"Ssn\"]}");
    assert_non_null(p);
    assert_string_equal(rp_json_get_str(p, "action"), "DENY");
    assert_string_equal(text(rp_json_get(p, "types")), "[\"email\",\"ssn\"]");
}

static void test_enum_rejects(void **state)
{
    assert_null(validate(&fake, "{\"blocked\": [], \"action\": \"INVALID\"}"));
    assert_int_equal(F.sink.n, 1);
    assert_string_equal(F.sink.msgs[0],
                        "action: must be one of 'ASK', 'DENY' (any case), got 'INVALID'");
    assert_null(validate(&fake, "{\"blocked\": [], \"types\": [\"email\", \"iban\"]}"));
    assert_string_equal(F.sink.msgs[0], "types: item [1] must be one of 'email', 'phone', 'ssn' "
                                        "(any case), got 'iban'");
}

static void test_string_list_names_bad_index(void **state)
{
    assert_null(validate(&fake, "{\"blocked\": [], \"names\": [\"a\", 2, \"c\", null]}"));
    assert_int_equal(F.sink.n, 2);
    assert_string_equal(F.sink.msgs[0], "names: item [1] must be a string, got 2");
    assert_string_equal(F.sink.msgs[1], "names: item [3] must be a string, got null");
    assert_null(validate(&fake, "{\"blocked\": [], \"names\": \"a\"}"));
    assert_string_equal(F.sink.msgs[0], "names: must be a list of strings, got 'a'");
}

static void test_unknown_keys_listed(void **state)
{
    assert_null(validate(&fake, "{\"blocked\": [], \"windwo\": 3}"));
    assert_int_equal(F.sink.n, 1);
    assert_string_equal(F.sink.msgs[0], "windwo: unknown parameter (known: window, rate, action, "
                                        "types, names, strict, blocked, extra, limit, on_error)");
    assert_null(validate(&no_params, "{\"x\": 1}"));
    assert_string_equal(F.sink.msgs[0],
                        "x: unknown parameter: 'bare' takes no parameters (only on_error)");
    assert_non_null(validate(&no_params, "{}"));
    assert_non_null(validate(&no_params, NULL));
}

/* Issue 16: every policy takes on_error (deny, ask, allow; any case, stored canonical), kept
 * out of the params when not given; a bad value is reported against the parameter. */
static void test_common_on_error(void **state)
{
    const rp_json *p = validate(&fake, "{\"blocked\": [], \"on_error\": \"ASK\"}");
    assert_non_null(p);
    assert_string_equal(rp_json_get_str(p, "on_error"), "ask");
    p = validate(&no_params, "{\"on_error\": \"Allow\"}");
    assert_non_null(p);
    assert_string_equal(rp_json_get_str(p, "on_error"), "allow");
    p = validate(&fake, "{\"blocked\": []}");
    assert_non_null(p);
    assert_null(rp_json_get(p, "on_error"));
    assert_null(validate(&fake, "{\"blocked\": [], \"on_error\": \"abstain\"}"));
    assert_int_equal(F.sink.n, 1);
    assert_string_equal(F.sink.msgs[0], "on_error: must be one of 'deny', 'ask', 'allow' (any "
                                        "case), got 'abstain'");
    assert_null(validate(&no_params, "{\"on_error\": 1}"));
    assert_string_equal(F.sink.msgs[0], "on_error: must be a string, got 1");
}

static void test_missing_required(void **state)
{
    assert_null(validate(&fake, "{}"));
    assert_int_equal(F.sink.n, 1);
    assert_string_equal(F.sink.msgs[0], "blocked: required parameter is missing");
    assert_null(validate(&fake, NULL));
    assert_string_equal(F.sink.msgs[0], "blocked: required parameter is missing");
    assert_null(validate(&fake, "null"));
    assert_null(validate(&fake, "{\"blocked\": null}"));
    assert_string_equal(F.sink.msgs[0], "blocked: required parameter is missing");
}

static void test_all_errors_reported(void **state)
{
    assert_null(validate(&fake, "{\"window\": -1, \"rate\": \"x\", \"zzz\": 1, \"strict\": 1, "
                                "\"extra\": []}"));
    assert_int_equal(F.sink.n, 6); /* zzz, window, rate, strict, blocked, extra */
    assert_string_equal(F.sink.msgs[0], "zzz: unknown parameter (known: window, rate, action, "
                                        "types, names, strict, blocked, extra, limit, on_error)");
    assert_string_equal(F.sink.msgs[3], "strict: must be a boolean, got 1");
    assert_string_equal(F.sink.msgs[4], "blocked: required parameter is missing");
    assert_string_equal(F.sink.msgs[5], "extra: must be a mapping, got a list");
}

static void test_not_an_object(void **state)
{
    assert_null(validate(&fake, "[1, 2]"));
    assert_int_equal(F.sink.n, 1);
    assert_string_equal(F.sink.msgs[0], "-: parameters must be a mapping, got a list");
}

static void test_duplicate_json_key(void **state)
{
    assert_null(validate(&fake, "{\"blocked\": [], \"window\": 2, \"window\": 3}"));
    assert_int_equal(F.sink.n, 1);
    assert_string_equal(F.sink.msgs[0], "window: given more than once");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_defaults_filled, setup, teardown),
        cmocka_unit_test_setup_teardown(test_null_means_default, setup, teardown),
        cmocka_unit_test_setup_teardown(test_values_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(test_integer_range_message, setup, teardown),
        cmocka_unit_test_setup_teardown(test_integer_rejects_bool_and_double, setup, teardown),
        cmocka_unit_test_setup_teardown(test_number_range, setup, teardown),
        cmocka_unit_test_setup_teardown(test_enum_case_insensitive_canonical, setup, teardown),
        cmocka_unit_test_setup_teardown(test_enum_rejects, setup, teardown),
        cmocka_unit_test_setup_teardown(test_string_list_names_bad_index, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown_keys_listed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_common_on_error, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_required, setup, teardown),
        cmocka_unit_test_setup_teardown(test_all_errors_reported, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_an_object, setup, teardown),
        cmocka_unit_test_setup_teardown(test_duplicate_json_key, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
