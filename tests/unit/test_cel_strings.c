/* test_cel_strings.c — contains/startsWith/endsWith and the strings extension, called through
 * the function table (cel_function_find) with cel-go's expected results and messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cel/cel.h"
#include "cel/fn.h"
#include "cel/format.h"

static rp_arena arena;

static cel_value str(const char *s)
{
    return cel_string_ref(s, strlen(s));
}

static cel_value list_of(const cel_value *items, uint32_t n)
{
    cel_value *copy = rp_arena_alloc(&arena, sizeof *copy * (n ? n : 1));
    if (n)
        memcpy(copy, items, sizeof *copy * n);
    return cel_list_new(&arena, copy, n);
}

static cel_value call(const char *name, bool receiver, const cel_value *args, uint32_t n)
{
    const cel_function *f = cel_function_find(name, receiver);
    if (!f)
        fail_msg("function %s (%s) not found", name, receiver ? "receiver" : "global");
    cel_call c = {.arena = &arena};
    return f->impl(&c, args, n);
}

#define CALL(name, ...)                                                                            \
    call(name, true, (const cel_value[]){__VA_ARGS__},                                             \
         sizeof((const cel_value[]){__VA_ARGS__}) / sizeof(cel_value))

static void expect_str(cel_value v, const char *want)
{
    if (v.kind == CEL_ERROR)
        fail_msg("expected \"%s\", got error: %s", want, v.v.err->message);
    assert_int_equal(v.kind, CEL_STRING);
    if (v.len != strlen(want) || memcmp(v.v.s, want, v.len) != 0)
        fail_msg("expected \"%s\", got \"%.*s\"", want, (int)v.len, v.v.s);
}

static void expect_int(cel_value v, int64_t want)
{
    if (v.kind == CEL_ERROR)
        fail_msg("expected %lld, got error: %s", (long long)want, v.v.err->message);
    assert_int_equal(v.kind, CEL_INT);
    assert_int_equal(v.v.i, want);
}

static void expect_bool(cel_value v, bool want)
{
    if (v.kind == CEL_ERROR)
        fail_msg("expected a bool, got error: %s", v.v.err->message);
    assert_int_equal(v.kind, CEL_BOOL);
    assert_int_equal(v.v.b, want);
}

/* An error whose message contains `needle`. */
static void expect_error(cel_value v, const char *needle)
{
    if (v.kind != CEL_ERROR)
        fail_msg("expected an error containing '%s', got kind %d", needle, v.kind);
    if (!strstr(v.v.err->message, needle))
        fail_msg("error '%s' does not contain '%s'", v.v.err->message, needle);
}

static void expect_list(cel_value v, const char *const *want, uint32_t n)
{
    if (v.kind == CEL_ERROR)
        fail_msg("expected a list, got error: %s", v.v.err->message);
    assert_int_equal(v.kind, CEL_LIST);
    assert_int_equal(cel_list_size(&v), n);
    for (uint32_t i = 0; i < n; i++)
        expect_str(cel_list_at(&v, i), want[i]);
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

static void test_core_predicates(void **state)
{
    (void)state;
    expect_bool(CALL("contains", str("hello"), str("he")), true);
    expect_bool(CALL("contains", str("hello"), str("")), true);
    expect_bool(CALL("contains", str("hello"), str("ol")), false);
    expect_bool(CALL("contains", str("abababc"), str("ababc")), true);
    expect_bool(CALL("contains", str(""), str("something")), false);
    expect_bool(CALL("startsWith", str("foobar"), str("foo")), true);
    expect_bool(CALL("startsWith", str("foobar"), str("bar")), false);
    expect_bool(CALL("startsWith", str(""), str("foo")), false);
    expect_bool(CALL("startsWith", str("завтра"), str("за")), true);
    expect_bool(CALL("endsWith", str("foobar"), str("bar")), true);
    expect_bool(CALL("endsWith", str("forté"), str("té")), true);
    expect_bool(CALL("endsWith", str(""), str("")), true);
    expect_error(CALL("contains", cel_int(1), str("1")), "no such overload");
}

static void test_char_at(void **state)
{
    (void)state;
    expect_str(CALL("charAt", str("tacocat"), cel_int(3)), "o");
    expect_str(CALL("charAt", str("tacocat"), cel_int(7)), "");
    expect_str(CALL("charAt", str("©αT"), cel_int(1)), "α");
    expect_error(CALL("charAt", str("tacocat"), cel_int(30)), "index out of range: 30");
    expect_error(CALL("charAt", str("tacocat"), cel_int(-1)), "index out of range: -1");
    expect_error(CALL("charAt", str("hello"), cel_bool(true)), "no such overload");
    expect_error(CALL("charAt", cel_int(42), cel_int(2)), "no such overload");
}

static void test_index_of(void **state)
{
    (void)state;
    expect_int(CALL("indexOf", str("tacocat"), str("")), 0);
    expect_int(CALL("indexOf", str("tacocat"), str("ac")), 1);
    expect_int(CALL("indexOf", str("tacocat"), str("none")), -1);
    expect_int(CALL("indexOf", str("tacocat"), str(""), cel_int(3)), 3);
    expect_int(CALL("indexOf", str("tacocat"), str("a"), cel_int(3)), 5);
    expect_int(CALL("indexOf", str("ta©o©αT"), str("©")), 2);
    expect_int(CALL("indexOf", str("ta©o©αT"), str("©"), cel_int(3)), 4);
    expect_int(CALL("indexOf", str("ta©o©αT"), str("©αT"), cel_int(3)), 4);
    expect_int(CALL("indexOf", str("ta©o©αT"), str("©α"), cel_int(5)), -1);
    expect_int(CALL("indexOf", str("hello wello"), str("ello"), cel_int(6)), 7);
    expect_int(CALL("indexOf", str(""), str("a")), -1);
    expect_error(CALL("indexOf", str("tacocat"), str("a"), cel_int(30)), "index out of range: 30");
    expect_error(CALL("indexOf", str("42"), str("4"), str("0")), "no such overload");
    expect_error(CALL("indexOf", str("42"), str("4"), cel_int(0), cel_int(1)), "no such overload");
}

static void test_last_index_of(void **state)
{
    (void)state;
    expect_int(CALL("lastIndexOf", str(""), str("@@")), -1);
    expect_int(CALL("lastIndexOf", str("tacocat"), str("")), 7);
    expect_int(CALL("lastIndexOf", str("tacocat"), str("at")), 5);
    expect_int(CALL("lastIndexOf", str("tacocat"), str("none")), -1);
    expect_int(CALL("lastIndexOf", str("tacocat"), str(""), cel_int(3)), 3);
    expect_int(CALL("lastIndexOf", str("tacocat"), str("a"), cel_int(3)), 1);
    expect_int(CALL("lastIndexOf", str("ta©o©αT"), str("©")), 4);
    expect_int(CALL("lastIndexOf", str("ta©o©αT"), str("©"), cel_int(3)), 2);
    expect_int(CALL("lastIndexOf", str("ta©o©αT"), str("©α"), cel_int(4)), 4);
    expect_int(CALL("lastIndexOf", str("hello wello"), str("ello"), cel_int(6)), 1);
    expect_int(CALL("lastIndexOf", str("hello wello"), str("hello wello")), 0);
    expect_int(CALL("lastIndexOf", str("bananananana"), str("nana"), cel_int(7)), 6);
    expect_error(CALL("lastIndexOf", str("tacocat"), str("a"), cel_int(-1)),
                 "index out of range: -1");
    expect_error(CALL("lastIndexOf", str("tacocat"), str("a"), cel_int(30)),
                 "index out of range: 30");
}

static void test_ascii_case_and_reverse(void **state)
{
    (void)state;
    expect_str(CALL("lowerAscii", str("TacoCÆt Xii")), "tacocÆt xii");
    expect_str(CALL("upperAscii", str("tacoCαt")), "TACOCαT");
    expect_str(CALL("reverse", str("")), "");
    expect_str(CALL("reverse", str("☺")), "☺");
    expect_str(CALL("reverse", str("Ta©oCαt")), "tαCo©aT");
    expect_error(CALL("reverse", cel_int(1)), "no such overload");
}

static void test_replace(void **state)
{
    (void)state;
    expect_str(CALL("replace", str("12 days 12 hours"), str("{0}"), str("2")), "12 days 12 hours");
    expect_str(CALL("replace", str("{0} days {0} hours"), str("{0}"), str("2")), "2 days 2 hours");
    expect_str(CALL("replace", str("{0} days {0} hours"), str("{0}"), str("2"), cel_int(1)),
               "2 days {0} hours");
    expect_str(CALL("replace", str("1 ©αT taco"), str("αT"), str("o©α")), "1 ©o©α taco");
    expect_str(CALL("replace", str("hello hello"), str("he"), str("we"), cel_int(0)),
               "hello hello");
    expect_str(CALL("replace", str("hello hello"), str("he"), str("we"), cel_int(-1)),
               "wello wello");
    /* Go's strings.Replace with an empty `old`: before every code point and at the end. */
    expect_str(CALL("replace", str("aé"), str(""), str("-")), "-a-é-");
    expect_str(CALL("replace", str("aé"), str(""), str("-"), cel_int(2)), "-a-é");
    expect_error(CALL("replace", str("42"), str("2"), cel_int(1)), "no such overload");
    expect_error(CALL("replace", str("42"), str("2"), str("1"), str("1")), "no such overload");
}

static void test_split(void **state)
{
    (void)state;
    expect_list(CALL("split", str("hello world"), str(" ")), (const char *[]){"hello", "world"}, 2);
    expect_list(CALL("split", str("hello world events!"), str(" "), cel_int(0)), NULL, 0);
    expect_list(CALL("split", str("hello world events!"), str(" "), cel_int(1)),
                (const char *[]){"hello world events!"}, 1);
    expect_list(CALL("split", str("hello world events!"), str(" "), cel_int(2)),
                (const char *[]){"hello", "world events!"}, 2);
    expect_list(CALL("split", str("o©o©o©o"), str("©"), cel_int(-1)),
                (const char *[]){"o", "o", "o", "o"}, 4);
    expect_list(CALL("split", str("a©b"), str("")), (const char *[]){"a", "©", "b"}, 3);
    expect_list(CALL("split", str("a©b"), str(""), cel_int(2)), (const char *[]){"a", "©b"}, 2);
    expect_list(CALL("split", str(""), str(",")), (const char *[]){""}, 1);
    expect_list(CALL("split", str(",a,"), str(",")), (const char *[]){"", "a", ""}, 3);
    expect_error(CALL("split", str("42"), str("2"), str("1")), "no such overload");
}

static void test_substring(void **state)
{
    (void)state;
    expect_str(CALL("substring", str("tacocat"), cel_int(4)), "cat");
    expect_str(CALL("substring", str("tacocat"), cel_int(7)), "");
    expect_str(CALL("substring", str("tacocat"), cel_int(0), cel_int(4)), "taco");
    expect_str(CALL("substring", str("tacocat"), cel_int(4), cel_int(4)), "");
    expect_str(CALL("substring", str("ta©o©αT"), cel_int(2), cel_int(6)), "©o©α");
    expect_str(CALL("substring", str("ta©o©αT"), cel_int(7), cel_int(7)), "");
    expect_error(CALL("substring", str("tacocat"), cel_int(40)), "index out of range: 40");
    expect_error(CALL("substring", str("tacocat"), cel_int(-1)), "index out of range: -1");
    expect_error(CALL("substring", str("tacocat"), cel_int(1), cel_int(50)),
                 "index out of range: 50");
    expect_error(CALL("substring", str("tacocat"), cel_int(49), cel_int(50)),
                 "index out of range: 49");
    expect_error(CALL("substring", str("tacocat"), cel_int(4), cel_int(3)),
                 "invalid substring range. start: 4, end: 3");
    expect_error(CALL("substring", str("tacocat"), cel_int(0), cel_bool(false)),
                 "no such overload");
}

static void test_trim(void **state)
{
    (void)state;
    expect_str(CALL("trim", str(" \f\n\r\t\vtext  ")), "text");
    expect_str(CALL("trim", str("\xC2\x85\u00a0\u1680text")), "text");
    expect_str(CALL("trim", str("text\u2000\u2001\u2002\u2003\u2004\u2006\u2007\u2008\u2009")),
               "text");
    expect_str(CALL("trim", str("\u200atext\u2028\u2029\u202F\u205F\u3000")), "text");
    const char *zero_width = "\u180etext\u200b\u200c\u200d\u2060\ufeff";
    expect_str(CALL("trim", str(zero_width)), zero_width);
    expect_str(CALL("trim", str("   ")), "");
}

static void test_join(void **state)
{
    (void)state;
    cel_value xy = list_of((cel_value[]){str("x"), str("y")}, 2);
    cel_value empty = list_of(NULL, 0);
    expect_str(CALL("join", xy), "xy");
    expect_str(CALL("join", xy, str("-")), "x-y");
    expect_str(CALL("join", empty), "");
    expect_str(CALL("join", empty, str("-")), "");
    cel_value mixed = list_of((cel_value[]){str("x"), cel_int(1)}, 2);
    expect_error(CALL("join", mixed), "string");
    expect_error(CALL("join", str("x")), "no such overload");
}

static void test_quote(void **state)
{
    (void)state;
    struct {
        const char *in, *out;
    } cases[] = {
        {"first\nsecond", "\"first\\nsecond\""},
        {"bell\a", "\"bell\\a\""},
        {"\bbackspace", "\"\\bbackspace\""},
        {"\fform feed", "\"\\fform feed\""},
        {"carriage \r return", "\"carriage \\r return\""},
        {"horizontal tab\t", "\"horizontal tab\\t\""},
        {"vertical \v tab", "\"vertical \\v tab\""},
        {"double \\\\ slash", "\"double \\\\\\\\ slash\""},
        {"verbatim", "\"verbatim\""},
        {"ends with \\", "\"ends with \\\\\""},
        {"mid string \" quote", "\"mid string \\\" quote\""},
        {"printable unicode😀", "\"printable unicode😀\""},
        {"", "\"\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_str(call("strings.quote", false, (cel_value[]){str(cases[i].in)}, 1), cases[i].out);
    assert_null(cel_function_find("strings.quote", true));
}

/* ---- format ---- */

static cel_value fmt(const char *f, const cel_value *items, uint32_t n)
{
    return CALL("format", str(f), list_of(items, n));
}

#define FMT(f, ...)                                                                                \
    fmt(f, (const cel_value[]){__VA_ARGS__},                                                       \
        sizeof((const cel_value[]){__VA_ARGS__}) / sizeof(cel_value))

static void test_format_clauses(void **state)
{
    (void)state;
    expect_str(fmt("no substitution", NULL, 0), "no substitution");
    expect_str(FMT("str is %s and some more", str("filler")), "str is filler and some more");
    expect_str(fmt("%% and also %%", NULL, 0), "% and also %");
    expect_str(FMT("%%%s%%", str("text")), "%text%");
    expect_str(FMT("%d %s %d", cel_int(1), str("A"), cel_int(-4)), "1 A -4");
    expect_str(FMT("%.3f", cel_double(1.2345)), "1.234");
    expect_str(FMT("%b %b %b", cel_int(5), cel_uint(64), cel_bool(true)), "101 1000000 1");
    expect_str(FMT("%b", cel_int(-5)), "-101");
    expect_str(FMT("%o %o", cel_int(11), cel_uint(65535)), "13 177777");
    expect_str(FMT("%x %X %X", cel_int(30), cel_int(30), cel_uint(6000)), "1e 1E 1770");
    expect_str(FMT("%x", cel_int(-30)), "-1e");
    expect_str(FMT("%x", str("Hello world!")), "48656c6c6f20776f726c6421");
    cel_value bytes = cel_bytes_ref("byte string", 11);
    expect_str(FMT("%X", bytes), "6279746520737472696E67");
    expect_str(FMT("%.6e", cel_double(1052.032911275)), "1.052033e+03");
    expect_str(FMT("%f", cel_double(2.71828)), "2.718280");
    expect_str(FMT("%f %f", cel_int(2), cel_uint(3)), "2.000000 3.000000");
    expect_str(FMT("%e %e", cel_int(2), cel_double(2.71828)), "2.000000e+00 2.718280e+00");
    expect_str(FMT("%e %f %d", cel_double(NAN), cel_double(INFINITY), cel_double(-INFINITY)),
               "NaN Infinity -Infinity");
    expect_str(FMT("%.0f %.0f %.0f %.0f", cel_double(123.0), cel_double(3.5001), cel_double(1.5),
                   cel_double(2.5)),
               "123 4 2 2");
    expect_str(FMT("%.3f %.3f %.5f", cel_double(123.4999), cel_double(-123.4994), cel_double(-1.2)),
               "123.500 -123.499 -1.20000");
    expect_str(FMT("%d", cel_uint(64)), "64");
}

static void test_format_string_forms(void **state)
{
    (void)state;
    expect_str(FMT("%s", cel_null()), "null");
    expect_str(FMT("%s", cel_int(999999999999)), "999999999999");
    expect_str(FMT("%s", cel_bytes_ref("xyz", 3)), "xyz");
    expect_str(FMT("%s", cel_type("string")), "string");
    expect_str(FMT("%s, %s", cel_bool(true), cel_bool(false)), "true, false");
    expect_str(FMT("%s, %s, %s", cel_int(32), cel_double(56.8), cel_double(1e21)),
               "32, 56.8, 1000000000000000000000");
    expect_str(FMT("%s %s", cel_double(0.000001), cel_double(-0.5)), "0.000001 -0.5");
    /* 2023-02-03T23:31:20Z */
    expect_str(FMT("%s", cel_timestamp(1675467080, 0)), "2023-02-03T23:31:20Z");
    expect_str(FMT("%s", cel_timestamp(1675467080, 500000000)), "2023-02-03T23:31:20.5Z");
    expect_str(FMT("%s", cel_timestamp(-62135596800, 0)), "0001-01-01T00:00:00Z");
    expect_str(FMT("%s", cel_duration(6347, 0)), "6347s");
    expect_str(FMT("%s", cel_duration(-1, -500000000)), "-1.5s");
    expect_str(FMT("%s", cel_duration(0, 1)), "0.000000001s");
    cel_value inner = list_of((cel_value[]){cel_int(9), cel_int(8)}, 2);
    cel_value l = list_of((cel_value[]){str("abc"), cel_double(3.14), cel_null(), inner,
                                        cel_timestamp(1675467080, 0), cel_double(NAN)},
                          6);
    expect_str(FMT("%s", l), "[abc, 3.14, null, [9, 8], 2023-02-03T23:31:20Z, NaN]");
    cel_value keys[] = {str("strKey"), cel_int(6), cel_bool(true)};
    cel_value vals[] = {str("x"), cel_duration(422, 0), cel_int(42)};
    cel_value *k = rp_arena_alloc(&arena, sizeof keys), *v = rp_arena_alloc(&arena, sizeof vals);
    memcpy(k, keys, sizeof keys);
    memcpy(v, vals, sizeof vals);
    cel_value m = cel_map_new(&arena, k, v, 3);
    assert_int_equal(m.kind, CEL_MAP);
    expect_str(FMT("%s", m), "{6: 422s, strKey: x, true: 42}");
}

static void test_format_errors(void **state)
{
    (void)state;
    expect_error(FMT("%a", cel_int(1)),
                 "could not parse formatting clause: unrecognized formatting clause \"a\"");
    expect_error(FMT("%E", cel_double(0.5)), "unrecognized formatting clause \"E\"");
    expect_error(FMT("%d %d %d", cel_int(0), cel_int(1)), "index 2 out of range");
    expect_error(FMT("%", cel_int(0)), "unexpected end of string");
    expect_error(FMT("%.3", cel_double(1)), "precision");
    expect_error(FMT("%.1000f", cel_double(1)), "precision");
    expect_error(FMT("string is %b", str("abc")),
                 "error during formatting: only integers and bools can be formatted as binary, "
                 "was given string");
    expect_error(FMT("%d", cel_duration(1802, 0)),
                 "error during formatting: decimal clause can only be used on integers, was "
                 "given google.protobuf.Duration");
    expect_error(FMT("octal: %o", str("a string")),
                 "error during formatting: octal clause can only be used on integers, was given "
                 "string");
    expect_error(FMT("double is %x", cel_double(0.5)),
                 "error during formatting: only integers, byte buffers, and strings can be "
                 "formatted as hex, was given double");
    expect_error(FMT("null: %e", cel_null()),
                 "scientific clause can only be used on doubles, was given null_type");
    expect_error(FMT("null: %f", cel_null()),
                 "fixed-point clause can only be used on doubles, was given null_type");
    cel_value opt = list_of((cel_value[]){cel_int(1), cel_optional_none()}, 2);
    expect_error(FMT("%s", opt), "string clause can only be used on strings");
    /* %s of bytes that are not UTF-8 cannot make a string. */
    expect_error(FMT("%s", cel_bytes_ref("\xff", 1)), "UTF-8");
    expect_error(CALL("format", str("%s"), str("x")), "no such overload");
}

static void test_double_shortest(void **state)
{
    (void)state;
    struct {
        double d;
        const char *want;
    } cases[] = {
        {0.0, "0"},
        {-0.0, "-0"},
        {1.0, "1"},
        {0.1, "0.1"},
        {123.456, "123.456"},
        {1e-7, "0.0000001"},
        {1e20, "100000000000000000000"},
        {2.718281828459045, "2.718281828459045"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rp_buf b = {0};
        cel_format_double_shortest(&b, cases[i].d);
        assert_string_equal(b.data, cases[i].want);
        rp_buf_free(&b);
    }
}

/* Whole expressions through cel_compile + cel_eval: each must evaluate to true. */
static void test_expressions(void **state)
{
    (void)state;
    const char *cases[] = {
        "'hello mellow'.indexOf('ello', 2) == 7",
        "'hello mellow'.lastIndexOf('ello') == 7",
        "'TacoCat'.lowerAscii() + 'x'.upperAscii() == 'tacocatX'",
        "'a,b,c'.split(',').join('-') == 'a-b-c'",
        "'  x  '.trim().size() == 1",
        "'ta©o'.substring(1, 3) == 'a©'",
        "'%s: %d'.format(['n', 3]) == 'n: 3'",
        "'%s'.format([{'b': [1, 2.5], 'a': true}]) == '{a: true, b: [1, 2.5]}'",
        "strings.quote('a\"b') == '\"a\\\\\"b\"'",
        "'abc'.reverse() == 'cba'",
        "'x'.charAt(0) == 'x'",
        "'aaa'.replace('a', 'b', 2) == 'bba'",
        "event.name.startsWith('Ba') && event.name.endsWith('sh')",
    };
    rp_json_error jerr;
    const char *event = "{\"name\": \"Bash\"}";
    rp_json *j = rp_json_parse(&arena, event, strlen(event), &jerr);
    assert_non_null(j);
    cel_binding vars[] = {{"event", cel_from_json(j)}};
    cel_activation act = {vars, 1, NULL, NULL};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cel_program *p;
        cel_source_error err;
        if (cel_compile(cases[i], strlen(cases[i]), NULL, &p, &err) != 0)
            fail_msg("compile %s: %d:%d %s", cases[i], err.line, err.col, err.message);
        cel_value v = cel_eval(p, &act, &arena);
        cel_program_free(p);
        if (v.kind == CEL_ERROR)
            fail_msg("%s: error %s", cases[i], v.v.err->message);
        if (v.kind != CEL_BOOL || !v.v.b)
            fail_msg("%s: not true (kind %d)", cases[i], v.kind);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_core_predicates, setup, teardown),
        cmocka_unit_test_setup_teardown(test_char_at, setup, teardown),
        cmocka_unit_test_setup_teardown(test_index_of, setup, teardown),
        cmocka_unit_test_setup_teardown(test_last_index_of, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ascii_case_and_reverse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_replace, setup, teardown),
        cmocka_unit_test_setup_teardown(test_split, setup, teardown),
        cmocka_unit_test_setup_teardown(test_substring, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trim, setup, teardown),
        cmocka_unit_test_setup_teardown(test_join, setup, teardown),
        cmocka_unit_test_setup_teardown(test_quote, setup, teardown),
        cmocka_unit_test_setup_teardown(test_format_clauses, setup, teardown),
        cmocka_unit_test_setup_teardown(test_format_string_forms, setup, teardown),
        cmocka_unit_test_setup_teardown(test_format_errors, setup, teardown),
        cmocka_unit_test(test_double_shortest),
        cmocka_unit_test_setup_teardown(test_expressions, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
