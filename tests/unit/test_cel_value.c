/* test_cel_value.c — CEL values: equality and ordering across numeric kinds, JSON-backed lists
 * and maps, native map construction, conversion to JSON, printing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "cel/value.h"

static cel_value str(const char *s)
{
    return cel_string_ref(s, strlen(s));
}

static void assert_format(const cel_value *v, const char *expected)
{
    rp_buf b = {0};
    cel_value_format(&b, v);
    if (strcmp(b.data, expected) != 0)
        fail_msg("got %s, expected %s", b.data, expected);
    rp_buf_free(&b);
}

static int compare(cel_value a, cel_value b)
{
    int cmp = 99;
    int r = cel_compare(&a, &b, &cmp);
    assert_int_equal(r, 0);
    return cmp;
}

static void test_numeric_equality(void **state)
{
    (void)state;
    cel_value i1 = cel_int(1), u1 = cel_uint(1), d1 = cel_double(1.0);
    assert_true(cel_equal(&i1, &u1));
    assert_true(cel_equal(&u1, &d1));
    assert_true(cel_equal(&d1, &i1));
    cel_value neg = cel_int(-1), umax = cel_uint(UINT64_MAX);
    assert_false(cel_equal(&neg, &umax));
    cel_value nan = cel_double(NAN);
    assert_false(cel_equal(&nan, &nan));
    /* Int against double converts the int to double inside the int's range, as cel-go and
     * the conformance tests do (lossy beyond 2^53); outside it the double decides. */
    cel_value big = cel_int(9007199254740993LL), bigd = cel_double(9007199254740992.0);
    assert_true(cel_equal(&big, &bigd));
    cel_value imax = cel_int(INT64_MAX), two63 = cel_double(9223372036854775808.0);
    assert_int_equal(compare(imax, two63), 0);
    assert_int_equal(compare(imax, cel_double(9223372036854777856.0)), -1);
    assert_int_equal(compare(cel_int(INT64_MIN), cel_double(-9223372036854777856.0)), 1);
    assert_int_equal(compare(cel_uint(UINT64_MAX), cel_double(18446744073709555712.0)), -1);
    assert_int_equal(compare(cel_uint(0), cel_double(-0.5)), 1);
    /* Int against uint stays exact. */
    assert_int_equal(compare(cel_int(INT64_MAX), cel_uint(9223372036854775808ULL)), -1);
    cel_value u63 = cel_uint(9223372036854775808ULL);
    assert_true(cel_equal(&u63, &two63));
    assert_int_equal(compare(cel_int(-1), cel_uint(0)), -1);
    assert_int_equal(compare(cel_uint(UINT64_MAX), cel_int(INT64_MAX)), 1);
    assert_int_equal(compare(cel_double(1.5), cel_int(1)), 1);
    assert_int_equal(compare(cel_double(-0.5), cel_int(0)), -1);
    assert_int_equal(compare(cel_int(2), cel_double(2.0)), 0);
    int cmp;
    cel_value one = cel_int(1);
    assert_int_equal(cel_compare(&nan, &one, &cmp), 1);
    cel_value s = str("a");
    assert_int_equal(cel_compare(&s, &one, &cmp), -1);
    assert_false(cel_equal(&s, &one)); /* different kinds: unequal, not an error */
}

static void test_strings_bytes_bools(void **state)
{
    (void)state;
    assert_int_equal(compare(str("a"), str("b")), -1);
    assert_int_equal(compare(str("ab"), str("a")), 1);
    assert_int_equal(compare(str(""), str("")), 0);
    /* UTF-8 byte order is code point order: U+00E9 < U+1F600. */
    assert_int_equal(compare(str("\xc3\xa9"), str("\xf0\x9f\x98\x80")), -1);
    assert_int_equal(compare(cel_bool(false), cel_bool(true)), -1);
    cel_value b1 = cel_bytes_ref("ab", 2), s1 = str("ab");
    assert_false(cel_equal(&b1, &s1));
    assert_int_equal(compare(cel_bytes_ref("\x01", 1), cel_bytes_ref("\xff", 1)), -1);
}

static void test_json_backed(void **state)
{
    (void)state;
    rp_arena a = {0};
    const char *text = "{\"a\": 1, \"b\": [1, 2.5, \"x\", null, true], \"a\": 2, "
                       "\"big\": 18446744073709551615, \"o\": {\"k\": \"v\"}}";
    rp_json_error jerr;
    rp_json *j = rp_json_parse(&a, text, strlen(text), &jerr);
    assert_non_null(j);
    cel_value m = cel_from_json(j);
    assert_int_equal(m.kind, CEL_MAP);
    cel_value v;
    assert_true(cel_map_get_str(&m, "a", 1, &v));
    assert_int_equal(v.kind, CEL_INT);
    assert_int_equal(v.v.i, 2); /* last duplicate wins */
    assert_true(cel_map_get_str(&m, "big", 3, &v));
    assert_int_equal(v.kind, CEL_UINT);
    assert_true(cel_map_get_str(&m, "b", 1, &v));
    assert_int_equal(v.kind, CEL_LIST);
    assert_int_equal(cel_list_size(&v), 5);
    cel_value e = cel_list_at(&v, 1);
    assert_int_equal(e.kind, CEL_DOUBLE);
    e = cel_list_at(&v, 2);
    assert_int_equal(e.kind, CEL_STRING);
    e = cel_list_at(&v, 3);
    assert_int_equal(e.kind, CEL_NULL);
    cel_value key = cel_int(1);
    assert_false(cel_map_get(&m, &key, NULL));
    cel_value skey = str("o");
    assert_true(cel_map_get(&m, &skey, &v));
    assert_format(&v, "{\"k\": \"v\"}");
    /* A JSON-backed map equals a native one with the same entries. */
    cel_value *keys = rp_arena_alloc(&a, sizeof *keys);
    cel_value *vals = rp_arena_alloc(&a, sizeof *vals);
    keys[0] = str("k");
    vals[0] = str("v");
    cel_value native = cel_map_new(&a, keys, vals, 1);
    assert_true(cel_equal(&v, &native));
    assert_true(cel_equal(&native, &v));
    rp_arena_free(&a);
}

static void test_map_new(void **state)
{
    (void)state;
    rp_arena a = {0};
    cel_value keys[3] = {cel_int(1), cel_uint(2), cel_bool(true)};
    cel_value vals[3] = {str("one"), str("two"), str("t")};
    cel_value m = cel_map_new(&a, keys, vals, 3);
    assert_int_equal(m.kind, CEL_MAP);
    cel_value k = cel_double(2.0), v;
    assert_true(cel_map_get(&m, &k, &v));
    assert_format(&v, "\"two\"");
    k = cel_uint(1);
    assert_true(cel_map_get(&m, &k, &v));
    k = cel_double(1.5);
    assert_false(cel_map_get(&m, &k, &v));
    k = cel_int(1);
    cel_value kb = cel_bool(true);
    assert_true(cel_map_get(&m, &kb, &v));
    assert_format(&v, "\"t\"");
    cel_value dup_keys[2] = {cel_int(1), cel_uint(1)};
    cel_value dup = cel_map_new(&a, dup_keys, vals, 2);
    assert_int_equal(dup.kind, CEL_ERROR);
    assert_non_null(strstr(dup.v.err->message, "repeated key"));
    cel_value bad_keys[1] = {cel_double(1.0)};
    cel_value bad = cel_map_new(&a, bad_keys, vals, 1);
    assert_int_equal(bad.kind, CEL_ERROR);
    assert_non_null(strstr(bad.v.err->message, "unsupported key type"));
    /* Maps equal regardless of order; lists element-wise. */
    cel_value k2[2] = {cel_uint(2), cel_int(1)};
    cel_value v2[2] = {str("two"), str("one")};
    cel_value k3[2] = {cel_int(1), cel_uint(2)};
    cel_value v3[2] = {str("one"), str("two")};
    cel_value m2 = cel_map_new(&a, k2, v2, 2), m3 = cel_map_new(&a, k3, v3, 2);
    assert_true(cel_equal(&m2, &m3));
    v3[1] = str("TWO");
    assert_false(cel_equal(&m2, &m3));
    cel_value l1 = cel_list_new(&a, k2, 2), l2 = cel_list_new(&a, k3, 2);
    assert_false(cel_equal(&l1, &l2));
    cel_value l3 = cel_list_new(&a, k2, 1);
    assert_false(cel_equal(&l1, &l3));
    rp_arena_free(&a);
}

/* Large maps take the hashed duplicate check: the same answers as the pairwise one. */
static void test_map_new_large(void **state)
{
    (void)state;
    rp_arena a = {0};
    enum { N = 200 };
    cel_value *keys = rp_arena_alloc(&a, sizeof *keys * N);
    cel_value *vals = rp_arena_alloc(&a, sizeof *vals * N);
    for (int i = 0; i < N; i++) {
        keys[i] = i % 2 ? cel_int(i)
                        : cel_string_ref(rp_arena_sprintf(&a, "k%d", i),
                                         strlen(rp_arena_sprintf(&a, "k%d", i)));
        vals[i] = cel_int(i);
    }
    cel_value m = cel_map_new(&a, keys, vals, N);
    assert_int_equal(m.kind, CEL_MAP);
    cel_value k = cel_uint(199), v;
    assert_true(cel_map_get(&m, &k, &v));
    assert_int_equal(v.v.i, 199);
    keys[N - 1] = cel_uint(1); /* equal to int 1 */
    m = cel_map_new(&a, keys, vals, N);
    assert_int_equal(m.kind, CEL_ERROR);
    keys[N - 1] = cel_string_ref("k0", 2);
    m = cel_map_new(&a, keys, vals, N);
    assert_int_equal(m.kind, CEL_ERROR);
    keys[N - 1] = cel_bool(true);
    keys[N - 3] = cel_bool(false);
    m = cel_map_new(&a, keys, vals, N);
    assert_int_equal(m.kind, CEL_MAP);
    rp_arena_free(&a);
}

static cel_value *one_item(rp_arena *a, cel_value v)
{
    cel_value *p = rp_arena_alloc(a, sizeof *p);
    *p = v;
    return p;
}

static void test_to_json(void **state)
{
    (void)state;
    rp_arena a = {0};
    cel_value items[4] = {cel_int(1), cel_uint(UINT64_MAX), cel_double(1.5), str("s")};
    cel_value keys[2] = {str("l"), str("n")};
    cel_value vals[2] = {cel_list_new(&a, items, 4), cel_null()};
    cel_value m = cel_map_new(&a, keys, vals, 2);
    rp_json out;
    char err[128];
    assert_int_equal(cel_to_json(&a, &m, &out, err, sizeof err), 0);
    char *text = rp_json_to_string(&a, &out);
    assert_string_equal(text, "{\"l\":[1,18446744073709551615,1.5,\"s\"],\"n\":null}");
    cel_value ik[1] = {cel_int(1)};
    cel_value im = cel_map_new(&a, ik, vals, 1);
    assert_int_equal(cel_to_json(&a, &im, &out, err, sizeof err), -1);
    cel_value b = cel_bytes_ref("x", 1);
    assert_int_equal(cel_to_json(&a, &b, &out, err, sizeof err), -1);
    cel_value inf = cel_double(INFINITY);
    assert_int_equal(cel_to_json(&a, &inf, &out, err, sizeof err), -1);
    /* Nesting: a value stored in state must stay readable by the JSON reader (256 levels),
     * so native lists deeper than CEL_JSON_MAX_DEPTH, and JSON-backed ones, are refused. */
    cel_value deep = cel_int(0);
    for (int i = 1; i < CEL_JSON_MAX_DEPTH; i++)
        deep = cel_list_new(&a, one_item(&a, deep), 1);
    assert_int_equal(cel_to_json(&a, &deep, &out, err, sizeof err), 0);
    deep = cel_list_new(&a, one_item(&a, deep), 1);
    assert_int_equal(cel_to_json(&a, &deep, &out, err, sizeof err), -1);
    assert_non_null(strstr(err, "nested deeper"));
    char text_deep[2 * 200 + 2];
    memset(text_deep, '[', 200);
    memset(text_deep + 200, ']', 200);
    text_deep[400] = '\0';
    rp_json_error jerr;
    rp_json *j = rp_json_parse(&a, text_deep, 400, &jerr);
    assert_non_null(j);
    cel_value jv = cel_from_json(j);
    assert_int_equal(cel_to_json(&a, &jv, &out, err, sizeof err), -1);
    jv = cel_from_json(rp_json_parse(&a, text_deep + 100, 200, &jerr));
    assert_int_equal(cel_to_json(&a, &jv, &out, err, sizeof err), 0);
    rp_arena_free(&a);
}

static void test_format_and_names(void **state)
{
    (void)state;
    rp_arena a = {0};
    cel_value v = cel_uint(2);
    assert_format(&v, "2u");
    v = cel_double(3.5);
    assert_format(&v, "3.5");
    v = cel_double(1.0);
    assert_format(&v, "1.0");
    v = cel_double(0.1);
    assert_format(&v, "0.1");
    v = cel_bytes_ref("\x01"
                      "a",
                      2);
    assert_format(&v, "b\"\\x01a\"");
    v = str("q\"");
    assert_format(&v, "\"q\\\"\"");
    v = cel_timestamp(1704067200, 0);
    assert_format(&v, "timestamp(\"2024-01-01T00:00:00Z\")");
    v = cel_timestamp(-1, 500000000);
    assert_format(&v, "timestamp(\"1969-12-31T23:59:59.500Z\")");
    v = cel_duration(1, 500000000);
    assert_format(&v, "duration(\"1.500s\")");
    v = cel_optional_of(&a, cel_int(1));
    assert_format(&v, "optional.of(1)");
    assert_string_equal(cel_kind_type_name(&v), "optional_type");
    v = cel_optional_none();
    assert_format(&v, "optional.none()");
    v = cel_type("int");
    assert_format(&v, "int");
    v = cel_error_new(&a, "boom %d", 7);
    assert_format(&v, "error: boom 7");
    v = cel_null();
    assert_string_equal(cel_kind_type_name(&v), "null_type");
    v = cel_timestamp(0, 0);
    assert_string_equal(cel_kind_type_name(&v), "google.protobuf.Timestamp");
    cel_value args[2] = {cel_int(1), str("x")};
    v = cel_error_no_overload(&a, "_+_", args, 2);
    assert_string_equal(v.v.err->message, "no such overload: _+_(int, string)");
    rp_arena_free(&a);
}

static void test_utf8_and_unknowns(void **state)
{
    (void)state;
    rp_arena a = {0};
    cel_value v = cel_string_from_bytes(&a, "\xff", 1);
    assert_int_equal(v.kind, CEL_ERROR);
    v = cel_string_from_bytes(&a, "\xc0\x80", 2); /* overlong */
    assert_int_equal(v.kind, CEL_ERROR);
    v = cel_string_from_bytes(&a, "\xed\xa0\x80", 3); /* surrogate */
    assert_int_equal(v.kind, CEL_ERROR);
    v = cel_string_from_bytes(&a, "\xe2\x82", 2); /* truncated */
    assert_int_equal(v.kind, CEL_ERROR);
    v = cel_string_from_bytes(&a, "h\xc3\xa9", 3);
    assert_int_equal(v.kind, CEL_STRING);
    assert_int_equal(v.len, 3);
    int64_t i1[2] = {1, 2}, i2[2] = {2, 3};
    cel_value u1 = cel_unknown_new(&a, i1, 2), u2 = cel_unknown_new(&a, i2, 2);
    cel_value u = cel_unknown_merge(&a, &u1, &u2);
    assert_int_equal(u.kind, CEL_UNKNOWN);
    assert_int_equal(u.v.unk->n, 3);
    rp_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numeric_equality), cmocka_unit_test(test_strings_bytes_bools),
        cmocka_unit_test(test_json_backed),      cmocka_unit_test(test_map_new),
        cmocka_unit_test(test_map_new_large),    cmocka_unit_test(test_to_json),
        cmocka_unit_test(test_format_and_names), cmocka_unit_test(test_utf8_and_unknowns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
