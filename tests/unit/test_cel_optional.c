/* test_cel_optional.c — CEL optional values (src/cel/lib_optional.c), called through its table.
 *
 * The `?.` / `[?]` syntax is the evaluator's and is covered by optionals.textproto in the
 * conformance runner; these check the functions: constructors, ofNonZeroValue's notion of a
 * zero value, the receivers, and that or/orValue ignore an error they do not need. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "cel/cel.h"
#include "cel/fn.h"

static rp_arena arena;

static const cel_function *find(const char *name)
{
    for (const cel_function *f = cel_lib_optional; f->name; f++) {
        if (strcmp(f->name, name) == 0) {
            return f;
        }
    }
    fail_msg("no function %s in cel_lib_optional", name);
    return NULL;
}

static cel_value call(const char *name, const cel_value *args, uint32_t nargs)
{
    const cel_function *f = find(name);
    cel_call c = {.arena = &arena, .prepared = NULL, .expr_id = 1};
    return f->impl(&c, args, nargs);
}

static cel_value call1(const char *name, cel_value a)
{
    return call(name, &a, 1);
}

static cel_value call2(const char *name, cel_value a, cel_value b)
{
    cel_value args[2] = {a, b};
    return call(name, args, 2);
}

static bool has(cel_value opt)
{
    cel_value v = call1("hasValue", opt);
    assert_int_equal(v.kind, CEL_BOOL);
    return v.v.b;
}

static cel_value error_value(const char *message)
{
    return cel_error_new(&arena, "%s", message);
}

static void assert_error_containing(cel_value v, const char *needle)
{
    assert_int_equal(v.kind, CEL_ERROR);
    if (!strstr(v.v.err->message, needle)) {
        fail_msg("error '%s' does not contain '%s'", v.v.err->message, needle);
    }
}

/* Compiles and evaluates src (no variables) in the test arena. */
static cel_value eval_expr(const char *src)
{
    cel_program *p = NULL;
    cel_source_error err;
    if (cel_compile(src, strlen(src), NULL, &p, &err) != 0) {
        fail_msg("%s does not compile: %d:%d %s", src, err.line, err.col, err.message);
    }
    cel_value v = cel_eval(p, NULL, &arena);
    cel_program_free(p); /* the result lives in the arena, not the program */
    return v;
}

static void assert_true_expr(const char *src)
{
    cel_value v = eval_expr(src);
    if (v.kind != CEL_BOOL || !v.v.b) {
        rp_buf b = {0};
        cel_value_format(&b, &v);
        fail_msg("%s gives %s, expected true", src, b.data ? b.data : "?");
    }
}

static int setup(void **state)
{
    (void)state;
    rp_arena_init(&arena, 4096);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rp_arena_free(&arena);
    return 0;
}

static void test_table_flags(void **state)
{
    (void)state;
    assert_true(find("optional.of")->flags & CEL_FN_GLOBAL);
    assert_true(find("optional.none")->flags & CEL_FN_GLOBAL);
    assert_true(find("optional.ofNonZeroValue")->flags & CEL_FN_GLOBAL);
    const char *receivers[] = {"hasValue", "value", "orValue", "or"};
    for (size_t i = 0; i < 4; i++) {
        assert_true(find(receivers[i])->flags & CEL_FN_RECEIVER);
        assert_false(find(receivers[i])->flags & CEL_FN_GLOBAL);
    }
    /* Only or/orValue see error arguments (so they can ignore an unneeded one). */
    assert_true(find("orValue")->flags & CEL_FN_NON_STRICT);
    assert_true(find("or")->flags & CEL_FN_NON_STRICT);
    assert_false(find("value")->flags & CEL_FN_NON_STRICT);
}

static void test_of_and_none(void **state)
{
    (void)state;
    cel_value some = call1("optional.of", cel_int(42));
    assert_int_equal(some.kind, CEL_OPTIONAL);
    assert_true(has(some));
    cel_value v = call1("value", some);
    assert_int_equal(v.kind, CEL_INT);
    assert_int_equal(v.v.i, 42);

    /* optional.of(null) has a value: null. */
    cel_value of_null = call1("optional.of", cel_null());
    assert_true(has(of_null));
    assert_int_equal(call1("value", of_null).kind, CEL_NULL);

    cel_value none = call("optional.none", NULL, 0);
    assert_int_equal(none.kind, CEL_OPTIONAL);
    assert_false(has(none));
    assert_error_containing(call1("value", none), "optional.none()");

    cel_value nested = call1("optional.of", none);
    assert_true(has(nested));
    assert_false(has(call1("value", nested)));
}

static void test_of_non_zero_value(void **state)
{
    (void)state;
    cel_value empty_list = cel_list_new(&arena, NULL, 0);
    cel_value empty_map = cel_map_new(&arena, NULL, NULL, 0);
    cel_value zeros[] = {
        cel_null(),
        cel_bool(false),
        cel_int(0),
        cel_uint(0),
        cel_double(0.0),
        cel_double(-0.0),
        cel_string_ref("", 0),
        cel_bytes_ref("", 0),
        empty_list,
        empty_map,
        cel_timestamp(0, 0),
        cel_duration(0, 0),
    };
    for (size_t i = 0; i < sizeof zeros / sizeof zeros[0]; i++) {
        if (has(call1("optional.ofNonZeroValue", zeros[i]))) {
            fail_msg("zero value #%zu (kind %d) gave a present optional", i, zeros[i].kind);
        }
    }
    cel_value one = cel_int(1);
    cel_value key = cel_string_ref("k", 1);
    cel_value non_zeros[] = {
        cel_bool(true),
        cel_int(-1),
        cel_uint(1),
        cel_double(0.5),
        cel_string_ref(" ", 1),
        cel_bytes_ref("\0", 1),
        cel_list_new(&arena, &one, 1),
        cel_map_new(&arena, &key, &one, 1),
        cel_timestamp(0, 1),
        cel_duration(-1, 0),
        cel_type("int"),
        cel_optional_none(),
    };
    for (size_t i = 0; i < sizeof non_zeros / sizeof non_zeros[0]; i++) {
        cel_value opt = call1("optional.ofNonZeroValue", non_zeros[i]);
        if (!has(opt)) {
            fail_msg("non-zero value #%zu (kind %d) gave optional.none()", i, non_zeros[i].kind);
        }
        assert_int_equal(call1("value", opt).kind, non_zeros[i].kind);
    }
}

static void test_or_value(void **state)
{
    (void)state;
    cel_value some = call1("optional.of", cel_int(42));
    cel_value none = cel_optional_none();
    assert_int_equal(call2("orValue", some, cel_int(7)).v.i, 42);
    assert_int_equal(call2("orValue", none, cel_int(7)).v.i, 7);
    /* The fallback's error only matters when the fallback is used. */
    assert_int_equal(call2("orValue", some, error_value("boom")).v.i, 42);
    assert_error_containing(call2("orValue", none, error_value("boom")), "boom");
    /* An error receiver is the result. */
    assert_error_containing(call2("orValue", error_value("recv"), cel_int(1)), "recv");
    assert_error_containing(call2("orValue", cel_int(1), cel_int(2)), "no such overload");
}

static void test_or(void **state)
{
    (void)state;
    cel_value some = call1("optional.of", cel_int(42));
    cel_value other = call1("optional.of", cel_int(20));
    cel_value none = cel_optional_none();
    assert_int_equal(call1("value", call2("or", some, other)).v.i, 42);
    assert_int_equal(call1("value", call2("or", none, other)).v.i, 20);
    assert_false(has(call2("or", none, none)));
    assert_true(has(call2("or", some, error_value("boom"))));
    assert_error_containing(call2("or", none, error_value("boom")), "boom");
    /* The alternative must itself be an optional. */
    assert_error_containing(call2("or", none, cel_int(1)), "no such overload");
    assert_error_containing(call2("or", cel_int(1), none), "no such overload");
}

static void test_receivers_reject_non_optionals(void **state)
{
    (void)state;
    assert_error_containing(call1("hasValue", cel_int(1)), "no such overload");
    assert_error_containing(call1("value", cel_string_ref("x", 1)), "no such overload");
    assert_error_containing(call("optional.of", NULL, 0), "no such overload");
    assert_error_containing(call1("optional.none", cel_int(1)), "no such overload");
}

static void test_unwrap(void **state)
{
    (void)state;
    cel_value items[3] = {call1("optional.of", cel_int(1)), cel_optional_none(),
                          call1("optional.of", cel_int(3))};
    cel_value list = cel_list_new(&arena, items, 3);
    cel_value out = call1("optional.unwrap", list);
    assert_int_equal(out.kind, CEL_LIST);
    assert_int_equal(cel_list_size(&out), 2);
    assert_int_equal(cel_list_at(&out, 0).v.i, 1);
    assert_int_equal(cel_list_at(&out, 1).v.i, 3);
    cel_value same = call1("unwrapOpt", list);
    assert_int_equal(cel_list_size(&same), 2);
    cel_value bad[1] = {cel_int(1)};
    assert_error_containing(call1("optional.unwrap", cel_list_new(&arena, bad, 1)),
                            "no such overload");
}

/* The functions reached through the compiler and evaluator, with the optional syntax. */
static void test_through_the_evaluator(void **state)
{
    (void)state;
    const char *exprs[] = {
        "optional.of(null).hasValue()",
        "!optional.ofNonZeroValue(null).hasValue()",
        "optional.none().or(optional.none()).orValue(42) == 42",
        "optional.ofNonZeroValue(42).or(optional.of(20)).value() == 42",
        "{'c': {}}.c[?'missing'].orValue('default') == 'default'",
        "[?{}.?c, ?optional.of(42), ?optional.none()] == [42]",
        "type(optional.none()) == optional_type",
        "optional.of(1) == optional.of(1) && optional.none() != optional.of(1)",
        /* orValue/or do not need their argument when the receiver has a value. */
        "optional.of(1).orValue(1 / 0) == 1",
        "optional.of(1).or(optional.of(1 / 0)).value() == 1",
        "!optional.ofNonZeroValue(timestamp(0)).hasValue()",
        "!optional.ofNonZeroValue(duration('0s')).hasValue()",
        "optional.unwrap([optional.of(1), optional.none(), optional.of(3)]) == [1, 3]",
        "[optional.none(), optional.of('a')].unwrapOpt() == ['a']",
    };
    for (size_t i = 0; i < sizeof exprs / sizeof exprs[0]; i++) {
        assert_true_expr(exprs[i]);
    }
    assert_error_containing(eval_expr("optional.none().value()"), "optional.none()");
    assert_error_containing(eval_expr("optional.none().orValue(1 / 0)"), "division by zero");
    assert_error_containing(eval_expr("optional.none().or(optional.of(1 / 0))"),
                            "division by zero");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_flags),
        cmocka_unit_test(test_of_and_none),
        cmocka_unit_test(test_of_non_zero_value),
        cmocka_unit_test(test_or_value),
        cmocka_unit_test(test_or),
        cmocka_unit_test(test_receivers_reject_non_optionals),
        cmocka_unit_test(test_unwrap),
        cmocka_unit_test(test_through_the_evaluator),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
