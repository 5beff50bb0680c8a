/* test_core_pyrepr.c — Python repr()/str()/lower()/int() as the reason texts need them.
 * Expected values were produced by CPython 3. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/pyrepr.h"
#include "core/utf8.h"
#include "policy_test_util.h"

static const char *repr_of(rp_arena *a, const char *json)
{
    rp_buf b = {0};
    rp_py_repr(&b, pt_parse(a, json));
    char *r = rp_arena_strndup(a, b.data ? b.data : "", b.len);
    rp_buf_free(&b);
    return r;
}

static void test_repr(void **unused)
{
    (void)unused;
    rp_arena a = {0};
    assert_string_equal(repr_of(&a, "\"plain\""), "'plain'");
    assert_string_equal(repr_of(&a, "\"it's\""), "\"it's\"");
    assert_string_equal(repr_of(&a, "\"both ' and \\\"\""), "'both \\' and \"'");
    assert_string_equal(repr_of(&a, "\"say \\\"hi\\\"\""), "'say \"hi\"'");
    assert_string_equal(repr_of(&a, "\"\\\\ \\n \\r \\t \\u0000 \\u001f \\u007f\""),
                        "'\\\\ \\n \\r \\t \\x00 \\x1f \\x7f'");
    assert_string_equal(repr_of(&a, "\"\\u00e9\\u00ad\\u0600\\ufffe\\uffff\\ud83d\\ude00\""),
                        "'\xc3\xa9\\xad\\u0600\\ufffe\\uffff\xf0\x9f\x98\x80'");
    assert_string_equal(repr_of(&a, "\"\\udbff\\udfff\""), "'\\U0010ffff'");
    assert_string_equal(repr_of(&a, "null"), "None");
    assert_string_equal(repr_of(&a, "[true,false,0,-5,18446744073709551615]"),
                        "[True, False, 0, -5, 18446744073709551615]");
    assert_string_equal(repr_of(&a, "[1.0,1e-05,1e16,0.1,-2.5e-7,123456789.125]"),
                        "[1.0, 1e-05, 1e+16, 0.1, -2.5e-07, 123456789.125]");
    assert_string_equal(repr_of(&a, "{}"), "{}");
    assert_string_equal(repr_of(&a, "{\"b\":1,\"a\":[],\"b\":2}"), "{'b': 2, 'a': []}");

    rp_buf b = {0};
    rp_py_str(&b, pt_parse(&a, "\"raw 'text'\""));
    rp_buf_puts(&b, "|");
    rp_py_str(&b, pt_parse(&a, "[\"x\"]"));
    rp_buf_puts(&b, "|");
    rp_py_str(&b, NULL);
    assert_string_equal(b.data, "raw 'text'|['x']|None");
    rp_buf_reset(&b);
    static const char *const items[] = {"search", "implement", "Review", "\xc3\xa9", "explore"};
    rp_py_repr_sorted_strs(&b, items, 5);
    assert_string_equal(b.data, "['Review', 'explore', 'implement', 'search', '\xc3\xa9']");
    rp_buf_reset(&b);
    rp_py_repr_sorted_strs(&b, items, 0);
    assert_string_equal(b.data, "[]");
    rp_buf_free(&b);
    rp_arena_free(&a);
}

static void test_lower_strip_space(void **unused)
{
    (void)unused;
    rp_arena a = {0};
    size_t len;
    assert_string_equal(rp_py_lower(&a, "Code-Review", 11, &len), "code-review");
    assert_int_equal(len, 11);
    /* ÀÉÞ Ÿ Ā Ł ΣΆ Ж Ѐ Ա Ａ K(Kelvin) İ */
    const char *in =
        "\xc3\x80\xc3\x89\xc3\x9e \xc5\xb8 \xc4\x80 \xc5\x81 \xce\xa3\xce\x86 \xd0\x96 "
        "\xd0\x80 \xd4\xb1 \xef\xbc\xa1 \xe2\x84\xaa \xc4\xb0";
    assert_string_equal(rp_py_lower(&a, in, strlen(in), NULL),
                        "\xc3\xa0\xc3\xa9\xc3\xbe \xc3\xbf \xc4\x81 \xc5\x82 \xcf\x83\xce\xac "
                        "\xd0\xb6 \xd1\x90 \xd5\xa1 \xef\xbd\x81 k i\xcc\x87");
    assert_string_equal(rp_py_lower(&a, "\xc3\x97", 2, NULL), "\xc3\x97"); /* × has no case */

    size_t start, n;
    const char *s = "\xc2\xa0 \t x y\n\xe3\x80\x80";
    rp_py_strip(s, strlen(s), &start, &n);
    assert_int_equal(start, 5);
    assert_int_equal(n, 3);
    rp_py_strip("   ", 3, &start, &n);
    assert_int_equal(n, 0);
    assert_true(rp_py_isspace(0x1c) && rp_py_isspace(0x85) && rp_py_isspace(0x2029));
    assert_false(rp_py_isspace(0x200b) || rp_py_isspace('x') || rp_py_isspace(0));
    assert_int_equal(rp_py_prefix_bytes("\xc3\xa9\xc3\xa9x", 5, 2), 4);
    assert_int_equal(rp_py_prefix_bytes("ab", 2, 10), 2);
    uint32_t cp;
    assert_int_equal(rp_utf8_decode("\xff", 1, &cp, RP_UTF8_AS_BYTE), 1);
    assert_int_equal(cp, 0xff);
    assert_int_equal(rp_utf8_decode("\xe2\x80", 2, &cp, RP_UTF8_AS_BYTE),
                     1); /* truncated sequence */
    rp_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_repr),
        cmocka_unit_test(test_lower_strip_space),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
