/* test_core_json.c — the JSON reader, value model and writers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/sha256.h"

static rp_json *parse(rp_arena *a, const char *text)
{
    rp_json_error err;
    rp_json *v = rp_json_parse(a, text, strlen(text), &err);
    if (!v)
        fail_msg("unexpected parse error for %s: %d:%d %s", text, err.line, err.col, err.msg);
    return v;
}

/* Asserts that text is rejected, returning the error for further checks. */
static rp_json_error parse_error(const char *text, size_t len)
{
    rp_arena a = {0};
    rp_json_error err;
    memset(&err, 0, sizeof err);
    rp_json *v = rp_json_parse(&a, text, len, &err);
    if (v)
        fail_msg("expected a parse error for %.*s", (int)len, text);
    assert_true(err.msg[0] != '\0');
    assert_true(err.line >= 1);
    assert_true(err.col >= 1);
    rp_arena_free(&a);
    return err;
}

static void reject(const char *text)
{
    parse_error(text, strlen(text));
}

typedef void (*writer_fn)(rp_buf *, const rp_json *);

static void assert_written(writer_fn write, const char *input, const char *expected)
{
    rp_arena a = {0};
    rp_json *v = parse(&a, input);
    rp_buf b = {0};
    write(&b, v);
    if (strcmp(b.data, expected) != 0)
        fail_msg("for %s\n  got      %s\n  expected %s", input, b.data, expected);
    rp_buf_free(&b);
    rp_arena_free(&a);
}

/* ---- numbers ---- */

static void test_number_kinds(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_json *v = parse(&a, "[1, 1.0, 1e0, -1, 0, -0, -0.0, 2E+3, 5e-1]");
    assert_int_equal(v->type, RP_JSON_ARRAY);
    assert_int_equal(v->len, 9);
    assert_int_equal(rp_json_at(v, 0)->type, RP_JSON_INT);
    assert_int_equal(rp_json_at(v, 0)->v.i, 1);
    assert_int_equal(rp_json_at(v, 1)->type, RP_JSON_DOUBLE);
    assert_true(rp_json_at(v, 1)->v.d == 1.0);
    assert_int_equal(rp_json_at(v, 2)->type, RP_JSON_DOUBLE);
    assert_int_equal(rp_json_at(v, 3)->v.i, -1);
    assert_int_equal(rp_json_at(v, 5)->type, RP_JSON_INT); /* -0 is the integer 0, as in Python */
    assert_int_equal(rp_json_at(v, 5)->v.i, 0);
    assert_int_equal(rp_json_at(v, 6)->type, RP_JSON_DOUBLE);
    assert_true(signbit(rp_json_at(v, 6)->v.d));
    assert_true(rp_json_at(v, 7)->v.d == 2000.0);
    assert_true(rp_json_at(v, 8)->v.d == 0.5);
    assert_true(rp_json_is_integer(rp_json_at(v, 0)));
    assert_false(rp_json_is_integer(rp_json_at(v, 1)));
    assert_true(rp_json_is_number(rp_json_at(v, 1)));
    rp_arena_free(&a);
}

static void test_integer_limits(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_json *v = parse(&a, "[9223372036854775807, -9223372036854775808, 9223372036854775808,"
                           " 18446744073709551615, 18446744073709551616, -9223372036854775809,"
                           " 123456789012345678901234567890]");
    assert_int_equal(rp_json_at(v, 0)->type, RP_JSON_INT);
    assert_true(rp_json_at(v, 0)->v.i == INT64_MAX);
    assert_int_equal(rp_json_at(v, 1)->type, RP_JSON_INT);
    assert_true(rp_json_at(v, 1)->v.i == INT64_MIN);
    assert_int_equal(rp_json_at(v, 2)->type, RP_JSON_UINT);
    assert_true(rp_json_at(v, 2)->v.u == (uint64_t)INT64_MAX + 1);
    assert_int_equal(rp_json_at(v, 3)->type, RP_JSON_UINT);
    assert_true(rp_json_at(v, 3)->v.u == UINT64_MAX);
    assert_int_equal(rp_json_at(v, 4)->type, RP_JSON_DOUBLE);
    assert_true(rp_json_at(v, 4)->v.d == 18446744073709551616.0);
    assert_int_equal(rp_json_at(v, 5)->type, RP_JSON_DOUBLE);
    assert_true(rp_json_at(v, 5)->v.d == -9223372036854775809.0);
    assert_int_equal(rp_json_at(v, 6)->type, RP_JSON_DOUBLE);
    assert_true(rp_json_at(v, 6)->v.d == 123456789012345678901234567890.0);
    double d = 0;
    assert_true(rp_json_number(rp_json_at(v, 3), &d));
    assert_true(d == 18446744073709551615.0);
    assert_string_equal(rp_json_type_name(rp_json_at(v, 2)->type), "integer");
    rp_arena_free(&a);
}

static void test_number_rejections(void **state)
{
    (void)state;
    reject("01");
    reject("-01");
    reject("00");
    reject("1.");
    reject(".5");
    reject("+1");
    reject("-");
    reject("1e");
    reject("1e+");
    reject("0x10");
    reject("NaN");
    reject("Infinity");
    reject("-Infinity");
    reject("1e400"); /* overflows to infinity: not representable, rejected */
    reject("-1e400");
    reject("1.5.2");
    rp_json_error e = parse_error("[1, 02]", 7);
    assert_int_equal(e.col, 5);
    assert_non_null(strstr(e.msg, "leading zero"));
}

static void test_tiny_numbers_underflow_to_zero(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_json *v = parse(&a, "[1e-400, 4.9e-324]");
    assert_true(rp_json_at(v, 0)->v.d == 0.0);
    assert_true(rp_json_at(v, 1)->v.d > 0.0);
    rp_arena_free(&a);
}

/* ---- strings ---- */

static void test_string_escapes(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_json *v = parse(&a, "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u0041\\u00e9\\u20ac\\ud83d\\ude00\"");
    assert_int_equal(v->type, RP_JSON_STRING);
    const char *expected = "a\"b\\c/d\b\f\n\r\tA\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
    assert_int_equal(v->len, strlen(expected));
    assert_memory_equal(v->v.s, expected, v->len);
    assert_int_equal(v->v.s[v->len], '\0');
    rp_arena_free(&a);
}

static void test_string_with_nul(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_json *v = parse(&a, "\"a\\u0000b\"");
    assert_int_equal(v->len, 3);
    assert_memory_equal(v->v.s, "a\0b", 3);
    rp_buf b = {0};
    rp_json_write(&b, v);
    assert_string_equal(b.data, "\"a\\u0000b\"");
    rp_buf_free(&b);
    rp_arena_free(&a);
}

static void test_string_rejections(void **state)
{
    (void)state;
    reject("\"abc");
    reject("\"abc\\");
    reject("\"\\x\"");
    reject("\"\\u12\"");
    reject("\"\\u12G4\"");
    reject("\"\\U0041\"");
    reject("\"\\ud800\""); /* lone high surrogate */
    reject("\"\\ud800x\"");
    reject("\"\\ud800\\u0041\""); /* high surrogate followed by a non-low one */
    reject("\"\\udc00\"");        /* lone low surrogate */
    reject("\"\\ude00\\ud83d\""); /* reversed pair */
    reject("\"a\tb\"");           /* raw control characters */
    reject("\"a\nb\"");
    parse_error("\"a\0b\"", 5);
    reject("'single'");
}

static void test_utf8_validation(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_json *v = parse(&a, "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\x7f\"");
    assert_int_equal(v->len, 14);
    rp_arena_free(&a);
    reject("\"\x80\"");     /* stray continuation byte */
    reject("\"\xc3\"");     /* truncated */
    reject("\"\xc0\xaf\""); /* overlong '/' */
    reject("\"\xc1\xbf\"");
    reject("\"\xe0\x80\xaf\"");     /* overlong 3-byte */
    reject("\"\xed\xa0\x80\"");     /* encoded surrogate U+D800 */
    reject("\"\xf0\x80\x80\xaf\""); /* overlong 4-byte */
    reject("\"\xf4\x90\x80\x80\""); /* above U+10FFFF */
    reject("\"\xf5\x80\x80\x80\"");
    reject("\"\xff\"");
    reject("\"\xe2\x82\"");
    rp_json_error e = parse_error("{\"k\": \"ok\xff\"}", 12);
    assert_int_equal(e.offset, 9);
}

/* The string scanners look at 8 bytes at a time: put each special byte at every position of a
 * run that spans several words, and check reader and both writers byte for byte. */
static void test_special_bytes_at_every_position(void **state)
{
    (void)state;
    static const struct {
        const char *raw;     /* as it appears in the JSON input */
        const char *decoded; /* the string's bytes */
        const char *compact; /* as rp_json_write prints it */
        const char *python;  /* as rp_json_write_python prints it */
    } specials[] = {
        {"\\\"", "\"", "\\\"", "\\\""},
        {"\\\\", "\\", "\\\\", "\\\\"},
        {"\\n", "\n", "\\n", "\\n"},
        {"\\u001f", "\x1f", "\\u001f", "\\u001f"},
        {"\x7f", "\x7f", "\x7f", "\\u007f"},
        {"\xc3\xa9", "\xc3\xa9", "\xc3\xa9", "\\u00e9"},
        {"\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80", "\\ud83d\\ude00"},
    };
    for (size_t k = 0; k < sizeof specials / sizeof *specials; k++) {
        for (int pos = 0; pos <= 24; pos++) {
            char input[128], decoded[64], compact[128], python[128];
            const char *pad = "abcdefghijklmnopqrstuvwxyz";
            snprintf(input, sizeof input, "\"%.*s%s%.*s\"", pos, pad, specials[k].raw, 24 - pos,
                     pad);
            snprintf(decoded, sizeof decoded, "%.*s%s%.*s", pos, pad, specials[k].decoded, 24 - pos,
                     pad);
            snprintf(compact, sizeof compact, "\"%.*s%s%.*s\"", pos, pad, specials[k].compact,
                     24 - pos, pad);
            snprintf(python, sizeof python, "\"%.*s%s%.*s\"", pos, pad, specials[k].python,
                     24 - pos, pad);
            rp_arena a = {0};
            rp_json *v = parse(&a, input);
            assert_int_equal(v->len, strlen(decoded));
            assert_memory_equal(v->v.s, decoded, v->len);
            rp_buf b = {0};
            rp_json_write(&b, v);
            assert_string_equal(b.data, compact);
            rp_buf_reset(&b);
            rp_json_write_python(&b, v);
            assert_string_equal(b.data, python);
            rp_buf_free(&b);
            rp_arena_free(&a);
            /* A raw control character or a bad byte at that position must still be caught. */
            char bad[128];
            snprintf(bad, sizeof bad, "\"%.*s%s%.*s\"", pos, pad, k % 2 ? "\x01" : "\xff", 24 - pos,
                     pad);
            reject(bad);
        }
    }
}

/* ---- structure ---- */

static void test_structure_rejections(void **state)
{
    (void)state;
    reject("");
    reject("   ");
    reject("[1,]");
    reject("{\"a\":1,}");
    reject("[1 2]");
    reject("{\"a\" 1}");
    reject("{a:1}");
    reject("{\"a\":}");
    reject("[");
    reject("]");
    reject("{");
    reject("{\"a\":1");
    reject("[1]]");
    reject("[1] x");
    reject("1 2");
    reject("tru");
    reject("truex");
    reject("nul");
    reject("/* c */ 1");
    reject("[1] // c");
    reject("\xef\xbb\xbf{}"); /* a BOM is not whitespace */
    reject("[\f1]");          /* form feed is not JSON whitespace */
}

static void test_whitespace_and_literals(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_json *v = parse(&a, " \t\r\n{ \"a\" : [ true , false , null ] } \n");
    const rp_json *arr = rp_json_get(v, "a");
    assert_int_equal(arr->len, 3);
    assert_int_equal(rp_json_at(arr, 0)->type, RP_JSON_BOOL);
    assert_true(rp_json_at(arr, 0)->v.b);
    assert_false(rp_json_at(arr, 1)->v.b);
    assert_int_equal(rp_json_at(arr, 2)->type, RP_JSON_NULL);
    assert_null(rp_json_at(arr, 3));
    rp_arena_free(&a);
}

static void test_not_nul_terminated_input(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_json_error err;
    /* The reader must stop at len: "12" followed by garbage outside the range. */
    rp_json *v = rp_json_parse(&a, "12345", 2, &err);
    assert_non_null(v);
    assert_int_equal(v->v.i, 12);
    v = rp_json_parse(&a, "1.5e3xxx", 5, &err);
    assert_non_null(v);
    assert_true(v->v.d == 1.5e3);
    assert_null(rp_json_parse(&a, "\"abc\"", 4, &err));
    assert_null(rp_json_parse(&a, NULL, 0, &err));
    rp_arena_free(&a);
}

static char *nested(const char *open, const char *close, int depth)
{
    size_t n = strlen(open), m = strlen(close);
    char *s = malloc((size_t)depth * (n + m) + 1);
    char *p = s;
    for (int i = 0; i < depth; i++, p += n)
        memcpy(p, open, n);
    for (int i = 0; i < depth; i++, p += m)
        memcpy(p, close, m);
    *p = '\0';
    return s;
}

static void test_depth_limit(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_json_error err;
    char *ok = nested("[", "]", RP_JSON_MAX_DEPTH);
    assert_non_null(rp_json_parse(&a, ok, strlen(ok), &err));
    char *too_deep = nested("[", "]", RP_JSON_MAX_DEPTH + 1);
    assert_null(rp_json_parse(&a, too_deep, strlen(too_deep), &err));
    assert_non_null(strstr(err.msg, "nesting"));
    assert_int_equal(err.col, RP_JSON_MAX_DEPTH + 1);
    char *objects = nested("{\"k\":", "}", RP_JSON_MAX_DEPTH + 1);
    assert_null(rp_json_parse(&a, objects, strlen(objects), &err));
    /* Far deeper than the limit must fail cleanly, not overflow the C stack. */
    char *huge = nested("[", "]", 100000);
    assert_null(rp_json_parse(&a, huge, strlen(huge), &err));
    free(ok);
    free(too_deep);
    free(objects);
    free(huge);
    rp_arena_free(&a);
}

static void test_error_line_and_column(void **state)
{
    (void)state;
    rp_json_error e = parse_error("{\n  \"a\": 1,\n  \"b\": tru\n}", 24);
    assert_int_equal(e.line, 3);
    assert_int_equal(e.col, 8);
    assert_int_equal(e.offset, 19);
    e = parse_error("[1,\n2,\n]", 8);
    assert_int_equal(e.line, 3);
    assert_int_equal(e.col, 1);
    assert_non_null(strstr(e.msg, "trailing comma"));
    e = parse_error("{} {}", 5);
    assert_int_equal(e.line, 1);
    assert_int_equal(e.col, 4);
    assert_non_null(strstr(e.msg, "trailing"));
}

static void test_large_containers(void **state)
{
    (void)state;
    /* Enough members to move the scratch stack from the C stack to the heap. */
    rp_buf text = {0};
    rp_buf_putc(&text, '{');
    for (int i = 0; i < 5000; i++)
        rp_buf_printf(&text, "%s\"k%d\":[%d,{\"x\":\"%d\"}]", i ? "," : "", i, i, i);
    rp_buf_putc(&text, '}');
    rp_arena a = {0};
    rp_json *v = parse(&a, text.data);
    assert_int_equal(v->len, 5000);
    const rp_json *k4321 = rp_json_get(v, "k4321");
    assert_int_equal(rp_json_at(k4321, 0)->v.i, 4321);
    assert_string_equal(rp_json_get_str(rp_json_at(k4321, 1), "x"), "4321");
    rp_buf out = {0};
    rp_json_write(&out, v);
    assert_string_equal(out.data, text.data);
    rp_buf_free(&out);
    rp_buf_free(&text);
    rp_arena_free(&a);
}

/* ---- accessors ---- */

static void test_duplicate_keys_last_wins(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_json *v = parse(&a, "{\"a\":1,\"b\":2,\"a\":3}");
    assert_int_equal(v->len, 3); /* members keep their input order */
    assert_int_equal(rp_json_get(v, "a")->v.i, 3);
    assert_int_equal(rp_json_get(v, "b")->v.i, 2);
    rp_arena_free(&a);
    assert_written(rp_json_write, "{\"a\":1,\"b\":2,\"a\":3}", "{\"a\":1,\"b\":2,\"a\":3}");
    assert_written(rp_json_write_sorted, "{\"a\":1,\"b\":2,\"a\":3}", "{\"a\":3,\"b\":2}");
    assert_written(rp_json_write_python, "{\"b\":2,\"a\":1,\"a\":3}", "{\"a\": 3, \"b\": 2}");
}

static void test_get_path_and_absent_values(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_json *v = parse(&a, "{\"context\":{\"actor\":{\"run_as\":\"alice\"},\"n\":5},"
                           "\"k\\u0000z\":1,\"s\":\"str\"}");
    assert_string_equal(rp_json_str(rp_json_path(v, "context.actor.run_as")), "alice");
    assert_null(rp_json_path(v, "context.actor.missing"));
    assert_null(rp_json_path(v, "context.n.deeper"));
    assert_null(rp_json_path(NULL, "a"));
    assert_int_equal(rp_json_path(v, "context.n")->v.i, 5);
    assert_non_null(rp_json_getn(v, "k\0z", 3));
    assert_null(rp_json_get(v, "k"));
    assert_string_equal(rp_json_get_str(v, "s"), "str");
    assert_null(rp_json_get_str(v, "context"));
    assert_null(rp_json_get(NULL, "a"));
    assert_null(rp_json_get(rp_json_get(v, "s"), "a"));
    assert_null(rp_json_at(v, 0));
    assert_null(rp_json_str(NULL));
    double d = 1;
    assert_false(rp_json_number(rp_json_get(v, "s"), &d));
    assert_false(rp_json_is_object(NULL));
    assert_true(rp_json_is_object(v));
    assert_false(rp_json_is_array(v));
    assert_true(rp_json_is_string(rp_json_get(v, "s")));
    rp_arena_free(&a);
}

static void test_truthiness(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_json *v = parse(&a, "[null,false,0,0.0,-0.0,\"\",[],{},true,1,0.5,\"x\",[0],{\"a\":null},"
                           "18446744073709551615]");
    bool expected[] = {false, false, false, false, false, false, false, false,
                       true,  true,  true,  true,  true,  true,  true};
    for (size_t i = 0; i < sizeof expected / sizeof *expected; i++)
        assert_int_equal(rp_json_truthy(rp_json_at(v, i)), expected[i]);
    assert_false(rp_json_truthy(NULL));
    rp_json nan = rp_json_make_double(NAN);
    assert_true(rp_json_truthy(&nan));
    rp_arena_free(&a);
}

static void test_equality(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_json *x = parse(&a, "{\"a\":[1,2.5,{\"b\":null}],\"c\":\"s\",\"d\":1}");
    rp_json *y = parse(&a, "{\"d\":1.0,\"c\":\"s\",\"a\":[1,2.5,{\"b\":null}]}");
    rp_json *z = parse(&a, "{\"d\":1,\"c\":\"s\",\"a\":[1,2.5,{\"b\":null}]}");
    assert_true(rp_json_equal(x, y, true));
    assert_false(rp_json_equal(x, y, false));
    assert_true(rp_json_equal(x, z, false));
    rp_json *big = parse(&a, "[18446744073709551615, 9007199254740993, 1]");
    rp_json *bigd = parse(&a, "[18446744073709551615, 9007199254740992.0, true]");
    /* 2^53 + 1 must not compare equal to 2^53 through a lossy double conversion. */
    assert_false(rp_json_equal(rp_json_at(big, 1), rp_json_at(bigd, 1), true));
    assert_true(rp_json_equal(rp_json_at(big, 0), rp_json_at(bigd, 0), false));
    assert_false(rp_json_equal(rp_json_at(big, 2), rp_json_at(bigd, 2), true)); /* 1 != true */
    rp_json *dup1 = parse(&a, "{\"a\":1,\"a\":2}");
    rp_json *dup2 = parse(&a, "{\"a\":2}");
    assert_true(rp_json_equal(dup1, dup2, false));
    rp_json *extra = parse(&a, "{\"a\":2,\"b\":1}");
    assert_false(rp_json_equal(dup2, extra, false));
    assert_false(rp_json_equal(extra, dup2, false));
    rp_json *s1 = parse(&a, "\"a\\u0000b\"");
    rp_json *s2 = parse(&a, "\"a\\u0000c\"");
    assert_false(rp_json_equal(s1, s2, false));
    assert_true(rp_json_equal(NULL, NULL, false));
    assert_false(rp_json_equal(x, NULL, false));
    rp_arena_free(&a);
}

/* ---- building ---- */

static void test_builders(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_json obj = rp_json_make_object();
    rp_json_object_set(&a, &obj, "name", rp_json_make_string(&a, "x\"y"));
    rp_json_object_set(&a, &obj, "n", rp_json_make_int(-42));
    rp_json_object_set(&a, &obj, "d", rp_json_make_double(0.25));
    rp_json_object_set(&a, &obj, "ok", rp_json_make_bool(true));
    rp_json_object_set(&a, &obj, "nil", rp_json_make_null());
    rp_json arr = rp_json_make_array();
    for (int i = 0; i < 100; i++)
        rp_json_array_push(&a, &arr, rp_json_make_int(i));
    assert_int_equal(arr.len, 100);
    assert_true(arr.cap >= 100 && arr.cap <= 200);
    rp_json_object_set(&a, &obj, "arr", arr);
    rp_json_object_set(&a, &obj, "n", rp_json_make_int(7)); /* replaces in place */
    assert_int_equal(obj.len, 6);
    char *text = rp_json_to_string(&a, &obj);
    rp_buf expected = {0};
    rp_buf_puts(&expected,
                "{\"name\":\"x\\\"y\",\"n\":7,\"d\":0.25,\"ok\":true,\"nil\":null,\"arr\":[");
    for (int i = 0; i < 100; i++)
        rp_buf_printf(&expected, "%s%d", i ? "," : "", i);
    rp_buf_puts(&expected, "]}");
    assert_string_equal(text, expected.data);
    assert_true(rp_json_object_delete(&obj, "d"));
    assert_false(rp_json_object_delete(&obj, "d"));
    assert_null(rp_json_get(&obj, "d"));
    assert_int_equal(obj.len, 5);
    rp_json *heap = rp_json_new(&a, obj);
    assert_int_equal(rp_json_get(heap, "n")->v.i, 7);
    rp_json ref = rp_json_make_string_ref("static");
    assert_int_equal(ref.len, 6);
    rp_json with_nul = rp_json_make_stringn(&a, "a\0b", 3);
    assert_int_equal(with_nul.len, 3);
    assert_int_equal(with_nul.v.s[3], '\0');
    /* Wrong receivers are ignored, not crashes. */
    rp_json_array_push(&a, &obj, rp_json_make_null());
    rp_json_object_set(&a, &arr, "k", rp_json_make_null());
    assert_false(rp_json_object_delete(&arr, "k"));
    rp_buf_free(&expected);
    rp_arena_free(&a);
}

static void test_extend_parsed_values(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_json *v = parse(&a, "{\"a\":1,\"list\":[1,2],\"a\":2}");
    rp_json_object_set(&a, v, "b", rp_json_make_int(3));
    rp_json_object_set(&a, v, "a", rp_json_make_int(9)); /* collapses the duplicates */
    rp_json *list = (rp_json *)rp_json_get(v, "list");
    rp_json_array_push(&a, list, rp_json_make_int(3));
    rp_json_array_push(&a, list, rp_json_make_string(&a, "four"));
    char *text = rp_json_to_string(&a, v);
    assert_string_equal(text, "{\"list\":[1,2,3,\"four\"],\"a\":9,\"b\":3}");
    rp_arena_free(&a);
}

static void test_clone_is_independent(void **state)
{
    (void)state;
    rp_arena src = {0}, dst = {0};
    rp_json *v = parse(&src, "{\"a\":[1,\"two\",{\"three\":3.0}],\"s\":\"x\\u0000y\"}");
    rp_json copy = rp_json_clone(&dst, v);
    rp_arena_free(&src); /* the clone must not point into the source arena */
    char *text = rp_json_to_string(&dst, &copy);
    assert_string_equal(text, "{\"a\":[1,\"two\",{\"three\":3.0}],\"s\":\"x\\u0000y\"}");
    rp_json_array_push(&dst, (rp_json *)rp_json_get(&copy, "a"), rp_json_make_int(4));
    assert_int_equal(rp_json_get(&copy, "a")->len, 4);
    rp_json null_clone = rp_json_clone(&dst, NULL);
    assert_int_equal(null_clone.type, RP_JSON_NULL);
    rp_arena_free(&dst);
}

/* ---- writers ---- */

static void test_write_compact(void **state)
{
    (void)state;
    assert_written(rp_json_write, " { \"b\" : [ 1 , 2.0 , -0.0 ] , \"a\" : { } , \"c\" : [ ] } ",
                   "{\"b\":[1,2.0,-0.0],\"a\":{},\"c\":[]}");
    assert_written(rp_json_write, "[1e0, 1E2, 1.5e300, 1e-7, 0.1, 123.456, 1e22, 5e-324]",
                   "[1.0,100.0,1.5e+300,1e-07,0.1,123.456,1e+22,5e-324]");
    assert_written(rp_json_write, "\"\\u00e9\\ud83d\\ude00/\\u001f\\u007f\\/\"",
                   "\"\xc3\xa9\xf0\x9f\x98\x80/\\u001f\x7f/\"");
    assert_written(rp_json_write, "\"\\b\\f\\n\\r\\t\\\"\\\\\"", "\"\\b\\f\\n\\r\\t\\\"\\\\\"");
    assert_written(rp_json_write, "[9223372036854775807,-9223372036854775808,18446744073709551615]",
                   "[9223372036854775807,-9223372036854775808,18446744073709551615]");
}

static void test_write_non_finite_and_invalid_utf8(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_json arr = rp_json_make_array();
    rp_json_array_push(&a, &arr, rp_json_make_double(NAN));
    rp_json_array_push(&a, &arr, rp_json_make_double(INFINITY));
    rp_json_array_push(&a, &arr, rp_json_make_double(-INFINITY));
    rp_json_array_push(&a, &arr,
                       rp_json_make_stringn(&a,
                                            "a\xff"
                                            "b",
                                            3));
    rp_buf b = {0};
    rp_json_write(&b, &arr);
    assert_string_equal(b.data, "[null,null,null,\"a\xef\xbf\xbd"
                                "b\"]");
    rp_buf_reset(&b);
    rp_json_write_python(&b, &arr);
    assert_string_equal(b.data, "[NaN, Infinity, -Infinity, \"a\\ufffdb\"]");
    rp_buf_reset(&b);
    rp_json_write_string(&b, "q\"", 2);
    assert_string_equal(b.data, "\"q\\\"\"");
    rp_buf_free(&b);
    rp_arena_free(&a);
}

static void test_write_sorted(void **state)
{
    (void)state;
    /* Code-point order; UTF-8 byte order agrees with it. */
    assert_written(rp_json_write_sorted,
                   "{\"b\":1,\"a\":{\"z\":1,\"y\":[{\"d\":1,\"c\":2}]},\"\xc3\xa9\":0,\"B\":2,"
                   "\"aa\":3,\"\":4}",
                   "{\"\":4,\"B\":2,\"a\":{\"y\":[{\"c\":2,\"d\":1}],\"z\":1},\"aa\":3,\"b\":1,"
                   "\"\xc3\xa9\":0}");
    /* Many keys exercise the heap path of the sort. */
    rp_buf in = {0}, expected = {0};
    rp_buf_putc(&in, '{');
    rp_buf_putc(&expected, '{');
    for (int i = 99; i >= 0; i--)
        rp_buf_printf(&in, "%s\"k%02d\":%d", i == 99 ? "" : ",", i, i);
    for (int i = 0; i < 100; i++)
        rp_buf_printf(&expected, "%s\"k%02d\":%d", i ? "," : "", i, i);
    rp_buf_putc(&in, '}');
    rp_buf_putc(&expected, '}');
    assert_written(rp_json_write_sorted, in.data, expected.data);
    rp_buf_free(&in);
    rp_buf_free(&expected);
}

/* Expected texts are the output of Python 3's json.dumps(json.loads(input), sort_keys=True). */
static void test_write_python_byte_exact(void **state)
{
    (void)state;
    static const char *cases[][2] = {
        {"{\"t\":\"sys_os_shell\",\"a\":{\"command\":\"ls\"}}",
         "{\"a\": {\"command\": \"ls\"}, \"t\": \"sys_os_shell\"}"},
        {"{\"a\":{},\"t\":\"\"}", "{\"a\": {}, \"t\": \"\"}"},
        {"[1,1.0,1e0,-0,-0.0,1e-5,1.5e16,1e16,100.0,0.0001,0.1]",
         "[1, 1.0, 1.0, 0, -0.0, 1e-05, 1.5e+16, 1e+16, 100.0, 0.0001, 0.1]"},
        {"[123456789.123,1e15,9999999999999998.0,1e-4,0.00012345,1.7976931348623157e308,"
         "2.2250738585072014e-308,5e-324,0.30000000000000004,1e100,-1.25e-10]",
         "[123456789.123, 1000000000000000.0, 9999999999999998.0, 0.0001, 0.00012345, "
         "1.7976931348623157e+308, 2.2250738585072014e-308, 5e-324, 0.30000000000000004, "
         "1e+100, -1.25e-10]"},
        {"\"\\u00e9\\ud83d\\ude00\\u007f\\u0001\\n\\t\\\"\\\\/\\u2028\\uffff\"",
         "\"\\u00e9\\ud83d\\ude00\\u007f\\u0001\\n\\t\\\"\\\\/\\u2028\\uffff\""},
        {"\"\xc3\xa9\xe4\xb8\xad\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\"",
         "\"\\u00e9\\u4e2d\\ud800\\udc00\\udbff\\udfff\""},
        {"{\"z\":[true,false,null],\"\xc3\xa9\":1,\"A\":[[],{}],\"a\":18446744073709551615}",
         "{\"A\": [[], {}], \"a\": 18446744073709551615, \"z\": [true, false, null], "
         "\"\\u00e9\": 1}"},
        {"{\"k\\u0000\":\"\\b\\f\\r\"}", "{\"k\\u0000\": \"\\b\\f\\r\"}"},
        {"-9223372036854775808", "-9223372036854775808"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_written(rp_json_write_python, cases[i][0], cases[i][1]);
}

/* detect_loop hashes sha256(json.dumps({"t": tool, "a": args}, sort_keys=True)). */
static void test_detect_loop_reference_hashes(void **state)
{
    (void)state;
    static const char *cases[][2] = {
        {"{\"t\":\"sys_os_shell\",\"a\":{\"command\":\"ls\"}}",
         "a52074d1ebc058e0ae9d94bc7c67f985268aeadcff79d86f67dbaff53a799d7e"},
        {"{\"t\":\"\",\"a\":{}}",
         "389a328fdd2df8d671bdfbc0ad6ff7856b40bde1b7910f3e3cc798bc976c18eb"},
    };
    for (size_t i = 0; i < 2; i++) {
        rp_arena a = {0};
        rp_json *v = parse(&a, cases[i][0]);
        rp_buf b = {0};
        rp_json_write_python(&b, v);
        char hex[65];
        rp_sha256_hex(b.data, b.len, hex);
        assert_string_equal(hex, cases[i][1]);
        rp_buf_free(&b);
        rp_arena_free(&a);
    }
}

static void test_double_round_trip(void **state)
{
    (void)state;
    /* Written doubles read back to the same bits and the same kind. */
    double values[] = {0.1,
                       0.2,
                       0.30000000000000004,
                       1.0 / 3,
                       2.0 / 3,
                       1e21,
                       1e22,
                       1e23,
                       123456789012345680.0,
                       4.35,
                       0.000123,
                       5e-324,
                       1.7976931348623157e308,
                       -2.5,
                       1e15,
                       1e16,
                       12345.678e-20,
                       9007199254740993.0};
    for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
        rp_arena a = {0};
        rp_json v = rp_json_make_double(values[i]);
        char *text = rp_json_to_string(&a, &v);
        rp_json *back = parse(&a, text);
        assert_int_equal(back->type, RP_JSON_DOUBLE);
        if (back->v.d != values[i])
            fail_msg("%.17g written as %s read back as %.17g", values[i], text, back->v.d);
        rp_arena_free(&a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_number_kinds),
        cmocka_unit_test(test_integer_limits),
        cmocka_unit_test(test_number_rejections),
        cmocka_unit_test(test_tiny_numbers_underflow_to_zero),
        cmocka_unit_test(test_string_escapes),
        cmocka_unit_test(test_string_with_nul),
        cmocka_unit_test(test_string_rejections),
        cmocka_unit_test(test_utf8_validation),
        cmocka_unit_test(test_special_bytes_at_every_position),
        cmocka_unit_test(test_structure_rejections),
        cmocka_unit_test(test_whitespace_and_literals),
        cmocka_unit_test(test_not_nul_terminated_input),
        cmocka_unit_test(test_depth_limit),
        cmocka_unit_test(test_error_line_and_column),
        cmocka_unit_test(test_large_containers),
        cmocka_unit_test(test_duplicate_keys_last_wins),
        cmocka_unit_test(test_get_path_and_absent_values),
        cmocka_unit_test(test_truthiness),
        cmocka_unit_test(test_equality),
        cmocka_unit_test(test_builders),
        cmocka_unit_test(test_extend_parsed_values),
        cmocka_unit_test(test_clone_is_independent),
        cmocka_unit_test(test_write_compact),
        cmocka_unit_test(test_write_non_finite_and_invalid_utf8),
        cmocka_unit_test(test_write_sorted),
        cmocka_unit_test(test_write_python_byte_exact),
        cmocka_unit_test(test_detect_loop_reference_hashes),
        cmocka_unit_test(test_double_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
