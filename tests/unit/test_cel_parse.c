/* test_cel_parse.c — the CEL lexer and parser: precedence, literals, escapes, identifiers,
 * optional syntax, macro expansion, errors with positions, and the depth and size limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cel/ast.h"
#include "cel/parse.h"

static const cel_parse_opts opt_on = {.enable_optional_syntax = true};

/* Parses with opts and returns the dump (caller frees), or fails the test. */
static char *dump_with(const char *src, const cel_parse_opts *opts)
{
    rp_arena a = {0};
    int64_t id = 1;
    cel_source_error err;
    cel_expr *e = cel_parse(&a, src, strlen(src), opts, &id, &err);
    if (!e)
        fail_msg("unexpected parse error for %s: %d:%d %s", src, err.line, err.col, err.message);
    rp_buf b = {0};
    cel_expr_dump(&b, e);
    rp_arena_free(&a);
    return rp_buf_take(&b);
}

static void assert_dump_opts(const char *src, const cel_parse_opts *opts, const char *expected)
{
    char *got = dump_with(src, opts);
    if (strcmp(got, expected) != 0)
        fail_msg("for %s\n  got      %s\n  expected %s", src, got, expected);
    free(got);
}

static void assert_dump(const char *src, const char *expected)
{
    assert_dump_opts(src, &opt_on, expected);
}

/* Asserts that src (of length len) is rejected at line:col with a message containing part. */
static void assert_error_len(const char *src, size_t len, const cel_parse_opts *opts, int line,
                             int col, const char *part)
{
    rp_arena a = {0};
    int64_t id = 1;
    cel_source_error err;
    cel_expr *e = cel_parse(&a, src, len, opts, &id, &err);
    if (e) {
        rp_buf b = {0};
        cel_expr_dump(&b, e);
        fail_msg("expected an error for %.*s, got %s", (int)len, src, b.data);
    }
    if (err.line != line || err.col != col || !strstr(err.message, part))
        fail_msg("for %.*s\n  got      %d:%d %s\n  expected %d:%d ...%s...", (int)len, src,
                 err.line, err.col, err.message, line, col, part);
    assert_true(err.offset <= len);
    rp_arena_free(&a);
}

static void assert_error(const char *src, int line, int col, const char *part)
{
    assert_error_len(src, strlen(src), &opt_on, line, col, part);
}

/* ---- operators ---- */

static void test_precedence(void **state)
{
    (void)state;
    assert_dump("1 + 2 * 3", "_+_(1, _*_(2, 3))");
    assert_dump("(1 + 2) * 3", "_*_(_+_(1, 2), 3)");
    assert_dump("1 - 2 - 3", "_-_(_-_(1, 2), 3)");
    assert_dump("8 / 4 % 3 * 2", "_*_(_%_(_/_(8, 4), 3), 2)");
    assert_dump("a < b == c > d", "_>_(_==_(_<_(a, b), c), d)");
    assert_dump("a <= b != c >= d", "_>=_(_!=_(_<=_(a, b), c), d)");
    assert_dump("x in [1] && y", "_&&_(@in(x, [1]), y)");
    assert_dump("a || b && c", "_||_(a, _&&_(b, c))");
    assert_dump("a && b || c", "_||_(_&&_(a, b), c)");
    assert_dump("a ? b : c ? d : e", "_?_:_(a, b, _?_:_(c, d, e))");
    assert_dump("a || b ? c + 1 : d", "_?_:_(_||_(a, b), _+_(c, 1), d)");
    assert_dump("!a && -b < c", "_&&_(!_(a), _<_(-_(b), c))");
    assert_dump("-a.b[0]", "-_(_[_](a.b, 0))");
    assert_dump("!!a", "a");
    assert_dump("!!!a", "!_(a)");
    assert_dump("--x", "x");
    assert_dump("---x", "-_(x)");
    assert_dump("1 - -1", "_-_(1, -1)");
    assert_error("-!x", 1, 2, "mismatched input '!'"); /* the grammar does not mix them */
    assert_dump("a-1", "_-_(a, 1)");
    /* Long && / || chains become balanced trees, as in cel-go. */
    assert_dump("a || b || c || d", "_||_(_||_(a, b), _||_(c, d))");
    assert_dump("a && b && c", "_&&_(_&&_(a, b), c)");
}

static void test_member_call_index(void **state)
{
    (void)state;
    assert_dump("a.b.c", "a.b.c");
    assert_dump("f(1, 2)", "f(1, 2)");
    assert_dump("f()", "f()");
    assert_dump("a.f(x)", "a.f(x)");
    assert_dump("a.b.f(x).g()[1]", "_[_](a.b.f(x).g(), 1)");
    assert_dump("m['k'].x", "_[_](m, \"k\").x");
    assert_dump("[1, 2, 3,]", "[1, 2, 3]");
    assert_dump("[]", "[]");
    assert_dump("{'a': 1, 2: [x],}", "{\"a\": 1, 2: [x]}");
    assert_dump("{}", "{}");
    assert_dump("Msg{}", "Msg{}");
    assert_dump("a.b.Msg{f: 1, g: x,}", "a.b.Msg{f: 1, g: x}");
    assert_dump(".a.b.Msg{f: 1}", ".a.b.Msg{f: 1}");
    assert_dump("Msg{f: 1}.f", "Msg{f: 1}.f");
    assert_dump(".x", ".x");
    assert_dump(".x.y", ".x.y");
    assert_dump(".f(1)", ".f(1)");
    assert_dump("{'a-b': 1}.`a-b`", "{\"a-b\": 1}.a-b");
    assert_dump("x.`foo.txt`", "x.foo.txt");
    assert_dump("// leading comment\n a // trailing\n + b", "_+_(a, b)");

    /* the call keeps its target, the op is set only for operators, fn is left to compile */
    rp_arena a = {0};
    int64_t id = 1;
    cel_source_error err;
    cel_expr *e = cel_parse(&a, "x.f(1) + 2", 10, &opt_on, &id, &err);
    assert_non_null(e);
    assert_int_equal(e->kind, CEL_EXPR_CALL);
    assert_int_equal(e->u.call.op, CEL_OP_ADD);
    assert_int_equal(e->offset, 7);
    assert_null(e->u.call.fn);
    cel_expr *f = e->u.call.args[0];
    assert_int_equal(f->u.call.op, CEL_OP_NONE);
    assert_string_equal(f->u.call.function, "f");
    assert_int_equal(f->u.call.target->kind, CEL_EXPR_IDENT);
    assert_string_equal(f->u.call.target->u.ident.name, "x");
    assert_int_equal(f->u.call.nargs, 1);
    e = cel_parse(&a, "x in y", 6, &opt_on, &id, &err);
    assert_int_equal(e->u.call.op, CEL_OP_IN);
    assert_string_equal(e->u.call.function, "@in");
    rp_arena_free(&a);
}

static void test_struct_and_errors(void **state)
{
    (void)state;
    assert_error("f(x){}", 1, 5, "expecting <EOF>");
    assert_error("a[0]{f: 1}", 1, 5, "expecting <EOF>");
    assert_error("[,]", 1, 2, "mismatched input ','");
    assert_error("{1: }", 1, 5, "mismatched input '}'");
    assert_error("{1 2}", 1, 4, "expecting ':'");
    assert_error("f(1,)", 1, 5, "mismatched input ')'");
    assert_error("Msg{1: 2}", 1, 5, "expecting {IDENTIFIER, ESC_IDENTIFIER}");
    assert_error("a.", 1, 3, "mismatched input '<EOF>'");
    assert_error("a.1", 1, 2, "mismatched input '.1'");
    assert_error("a.true", 1, 3, "mismatched input 'true'");
    assert_error("(1", 1, 3, "expecting ')'");
    assert_error("1 2", 1, 3, "mismatched input '2' expecting <EOF>");
    assert_error("", 1, 1, "mismatched input '<EOF>'");
    assert_error("a = b", 1, 3, "token recognition error at: '='");
    assert_error("a & b", 1, 3, "token recognition error");
    assert_error("a # b", 1, 3, "token recognition error");
    assert_error("x.`a+b`", 1, 5, "invalid character in quoted identifier");
}

/* ---- literals ---- */

static void test_int_literals(void **state)
{
    (void)state;
    assert_dump("0", "0");
    assert_dump("42", "42");
    assert_dump("0x2A", "42");
    assert_dump("0X2a", "42");
    assert_dump("9223372036854775807", "9223372036854775807");
    assert_dump("-9223372036854775808", "-9223372036854775808");
    assert_dump("-0x8000000000000000", "-9223372036854775808");
    assert_dump("- 5", "-5");
    assert_dump("--5", "5");
    assert_dump("---5", "-_(5)");
    assert_dump("-5.abs()", "-5.abs()");
    assert_dump("42u", "42u");
    assert_dump("42U", "42u");
    assert_dump("0x2Au", "42u");
    assert_dump("18446744073709551615u", "18446744073709551615u");
    assert_dump("-1u", "-_(1u)");
    assert_error("9223372036854775808", 1, 1, "invalid int literal");
    assert_error("0x8000000000000000", 1, 1, "invalid int literal");
    assert_error("1 + -9223372036854775809", 1, 5, "invalid int literal");
    assert_error("--9223372036854775808", 1, 3, "invalid int literal");
    assert_error("18446744073709551616u", 1, 1, "invalid uint literal");
    assert_error("99999999999999999999999", 1, 1, "invalid int literal");

    rp_arena a = {0};
    int64_t id = 1;
    cel_source_error err;
    cel_expr *e = cel_parse(&a, "-9223372036854775808", 20, NULL, &id, &err);
    assert_int_equal(e->kind, CEL_EXPR_CONST);
    assert_int_equal(e->u.constant.kind, CEL_INT);
    assert_true(e->u.constant.v.i == INT64_MIN);
    e = cel_parse(&a, "7u", 2, NULL, &id, &err);
    assert_int_equal(e->u.constant.kind, CEL_UINT);
    assert_true(e->u.constant.v.u == 7);
    rp_arena_free(&a);
}

static void test_double_literals(void **state)
{
    (void)state;
    assert_dump("1.0", "1.0");
    assert_dump("1.5", "1.5");
    assert_dump("1e3", "1000.0");
    assert_dump("1E+3", "1000.0");
    assert_dump(".5", "0.5");
    assert_dump("1.5e-3", "0.0015");
    assert_dump("-2.5", "-2.5");
    assert_dump("-0.0", "-0.0");
    assert_dump("0.1", "0.1");
    assert_dump("[.5e1]", "[5.0]");
    /* `1.` is not a double: 1 followed by a dangling dot */
    assert_error("1.", 1, 3, "mismatched input '<EOF>'");
    /* `1e` is the int 1 and then an identifier */
    assert_error("1e", 1, 2, "expecting <EOF>");
    assert_dump("1.e", "1.e");
    assert_error("1e999", 1, 1, "invalid double literal");
    assert_dump("1e-999", "0.0");
    rp_arena a = {0};
    int64_t id = 1;
    cel_source_error err;
    cel_expr *e = cel_parse(&a, "2.5", 3, NULL, &id, &err);
    assert_int_equal(e->u.constant.kind, CEL_DOUBLE);
    assert_true(e->u.constant.v.d == 2.5);
    rp_arena_free(&a);
}

/* The constant of a one-literal expression (string or bytes), checked byte for byte. */
static void assert_text(const char *src, int kind, const char *bytes, size_t n)
{
    rp_arena a = {0};
    int64_t id = 1;
    cel_source_error err;
    cel_expr *e = cel_parse(&a, src, strlen(src), NULL, &id, &err);
    if (!e)
        fail_msg("unexpected parse error for %s: %s", src, err.message);
    assert_int_equal(e->kind, CEL_EXPR_CONST);
    if (e->u.constant.kind != kind || e->u.constant.len != n ||
        memcmp(e->u.constant.v.s, bytes, n) != 0)
        fail_msg("for %s: kind %d len %u '%.*s'", src, e->u.constant.kind, e->u.constant.len,
                 (int)e->u.constant.len, e->u.constant.v.s);
    /* the text lives in the arena, not in the source */
    assert_true(e->u.constant.v.s < src || e->u.constant.v.s > src + strlen(src));
    rp_arena_free(&a);
}

#define STR(src, lit) assert_text(src, CEL_STRING, lit, sizeof lit - 1)
#define BYT(src, lit) assert_text(src, CEL_BYTES, lit, sizeof lit - 1)

static void test_string_literals(void **state)
{
    (void)state;
    STR("'hello'", "hello");
    STR("\"hello\"", "hello");
    STR("''", "");
    STR("\"\"", "");
    STR("'''hello'''", "hello");
    STR("\"\"\"hello\"\"\"", "hello");
    STR("''''''", "");
    STR("'''a\nb ' \" '' x'''", "a\nb ' \" '' x");
    STR("\"it's\"", "it's");
    STR("' \\\\ \\? \\\" \\' \\` '", " \\ ? \" ' ` ");
    STR("'\\a\\b\\f\\n\\r\\t\\v'", "\a\b\f\n\r\t\v");
    STR("'\\000 \\012 \\177 \\101'", "\0 \n \x7f A");
    STR("'\\x41\\X4a\\x7f'", "AJ\x7f");
    STR("'\\xff'", "\xc3\xbf"); /* a code point in strings: U+00FF */
    STR("'\\377'", "\xc3\xbf");
    STR("'\\u00e9\\u01aB\\uFFFB'", "\xc3\xa9\xc6\xab\xef\xbf\xbb");
    STR("'\\U0001F62C\\U00000041'", "\xf0\x9f\x98\xac"
                                    "A");
    STR("'\\U00088888'", "\xf2\x88\xa2\x88");
    STR("'caf\xc3\xa9 \xf0\x9f\x98\xac'", "caf\xc3\xa9 \xf0\x9f\x98\xac");
    /* raw strings: no escape is processed */
    STR("r'\\n\\x41'", "\\n\\x41");
    STR("R\"\\\\\"", "\\\\");
    STR("r'''a\\'''", "a\\");
    STR("r\"\"\"x\"\"\"", "x");
    assert_error("'\\q'", 1, 2, "invalid escape sequence");
    assert_error("'\\x4'", 1, 2, "invalid escape sequence");
    assert_error("'\\400'", 1, 2, "invalid escape sequence");
    assert_error("'\\12'", 1, 2, "invalid escape sequence");
    assert_error("'\\u12'", 1, 2, "invalid escape sequence");
    assert_error("'ab\\uD800'", 1, 4, "invalid unicode code point");
    assert_error("'\\uDFFF'", 1, 2, "invalid unicode code point");
    assert_error("'\\U00110000'", 1, 2, "invalid unicode code point");
    assert_error("'abc", 1, 1, "unterminated string literal");
    assert_error("'a\nb'", 1, 1, "unterminated string literal");
    assert_error("'''abc''", 1, 1, "unterminated string literal");
    assert_error("x + \"\\\"", 1, 5, "unterminated string literal");
}

static void test_bytes_literals(void **state)
{
    (void)state;
    BYT("b'hello'", "hello");
    BYT("B\"hello\"", "hello");
    BYT("b'''a'b'''", "a'b");
    BYT("b'\\xff\\x00\\377\\001'", "\xff\0\xff\x01");
    BYT("b'\\u00e9'", "\xc3\xa9"); /* \u writes UTF-8 */
    BYT("b'\\U0001F62C'", "\xf0\x9f\x98\xac");
    BYT("b'\\a\\n\\\\'", "\a\n\\");
    BYT("br'\\x00'", "\\x00");
    BYT("Rb'\\n'", "\\n");
    BYT("bR'''\\'''", "\\");
    BYT("b'\xc3\xa9'", "\xc3\xa9");
    assert_error("b'\\uD800'", 1, 3, "invalid unicode code point");
    assert_error("b'\\z'", 1, 3, "invalid escape sequence");
    /* not string prefixes: ordinary identifiers */
    assert_error("bb'x'", 1, 3, "expecting <EOF>");
    assert_error("rr'x'", 1, 3, "expecting <EOF>");
}

static void test_other_literals(void **state)
{
    (void)state;
    assert_dump("true", "true");
    assert_dump("false", "false");
    assert_dump("null", "null");
    assert_dump("[true, false, null]", "[true, false, null]");
    assert_dump("truex", "truex");
    assert_dump("null_value", "null_value");
}

/* ---- identifiers ---- */

static void test_reserved_words(void **state)
{
    (void)state;
    static const char *const words[] = {
        "as",  "break", "const",   "continue",  "else",   "for", "function", "if",   "import",
        "let", "loop",  "package", "namespace", "return", "var", "void",     "while"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        char src[64], expected[64];
        snprintf(src, sizeof src, "%s", words[i]);
        snprintf(expected, sizeof expected, "reserved identifier: %s", words[i]);
        assert_error(src, 1, 1, expected);
        snprintf(src, sizeof src, "1 + %s(2)", words[i]);
        assert_error(src, 1, 5, expected);
        /* allowed after a dot and as message fields */
        snprintf(src, sizeof src, "m.%s", words[i]);
        snprintf(expected, sizeof expected, "m.%s", words[i]);
        assert_dump(src, expected);
        snprintf(src, sizeof src, "a.%s()", words[i]);
        snprintf(expected, sizeof expected, "a.%s()", words[i]);
        assert_dump(src, expected);
        snprintf(src, sizeof src, "T{%s: 1}", words[i]);
        snprintf(expected, sizeof expected, "T{%s: 1}", words[i]);
        assert_dump(src, expected);
    }
    assert_error("in", 1, 1, "mismatched input 'in'");
    assert_error("a.in", 1, 3, "mismatched input 'in'");
    assert_error(".if", 1, 2, "reserved identifier: if");
    assert_dump("iff + ifx + _if", "_+_(_+_(iff, ifx), _if)");
}

/* ---- optional syntax ---- */

static void test_optional_syntax(void **state)
{
    (void)state;
    assert_dump("a.?b", "_?._(a, \"b\")");
    assert_dump("a.?b.c", "_?._(a, \"b\").c");
    assert_dump("a[?0]", "_[?_](a, 0)");
    assert_dump("a.?`b-c`", "_?._(a, \"b-c\")");
    assert_dump("[?a, b, ?c]", "[?a, b, ?c]");
    assert_dump("{?'k': v, 'j': w}", "{?\"k\": v, \"j\": w}");
    assert_dump("M{?f: v, g: w}", "M{?f: v, g: w}");
    assert_dump("a ? b : c", "_?_:_(a, b, c)");
    rp_arena a = {0};
    int64_t id = 1;
    cel_source_error err;
    cel_expr *e = cel_parse(&a, "a.?b", 4, &opt_on, &id, &err);
    assert_int_equal(e->u.call.op, CEL_OP_OPT_SELECT);
    e = cel_parse(&a, "a[?b]", 5, &opt_on, &id, &err);
    assert_int_equal(e->u.call.op, CEL_OP_OPT_INDEX);
    e = cel_parse(&a, "[1, 2]", 6, &opt_on, &id, &err);
    assert_null(e->u.list.optional); /* no optional element: no flags */
    e = cel_parse(&a, "[1, ?2]", 7, &opt_on, &id, &err);
    assert_false(e->u.list.optional[0]);
    assert_true(e->u.list.optional[1]);
    rp_arena_free(&a);

    /* without the option the syntax is an error */
    cel_parse_opts off = {0};
    assert_error_len("a.?b", 4, &off, 1, 3, "mismatched input '?'");
    assert_error_len("a[?b]", 5, &off, 1, 3, "mismatched input '?'");
    assert_error_len("[?a]", 4, &off, 1, 2, "mismatched input '?'");
    assert_error_len("{?1: 2}", 7, &off, 1, 2, "mismatched input '?'");
}

/* ---- macros ---- */

static void test_macros(void **state)
{
    (void)state;
    assert_dump("has(a.b)", "a.b~test");
    assert_dump("has(a.b.c)", "a.b.c~test");
    assert_dump("has({'a': 1}.a)", "{\"a\": 1}.a~test");
    assert_dump("has(a.?b.c)", "_?._(a, \"b\").c~test");
    assert_error("has(a)", 1, 5, "invalid argument to has() macro");
    assert_error("has(a[0])", 1, 6, "invalid argument to has() macro");
    assert_error("has(a.?b)", 1, 6, "invalid argument to has() macro");
    assert_dump("has(a, b)", "has(a, b)");
    assert_dump("x.has(a.b)", "x.has(a.b)");

    assert_dump("l.all(x, x > 0)",
                "__comprehension__(x, l, @result, true, @not_strictly_false(@result), "
                "_&&_(@result, _>_(x, 0)), @result)");
    assert_dump("l.exists(x, x > 0)",
                "__comprehension__(x, l, @result, false, @not_strictly_false(!_(@result)), "
                "_||_(@result, _>_(x, 0)), @result)");
    assert_dump("l.exists_one(x, p)",
                "__comprehension__(x, l, @result, 0, true, _?_:_(p, _+_(@result, 1), @result), "
                "_==_(@result, 1))");
    assert_dump("l.existsOne(x, p)",
                "__comprehension__(x, l, @result, 0, true, _?_:_(p, _+_(@result, 1), @result), "
                "_==_(@result, 1))");
    assert_dump("l.map(x, x * 2)",
                "__comprehension__(x, l, @result, [], true, _+_(@result, [_*_(x, 2)]), @result)");
    assert_dump("l.map(x, x > 1, x * 2)",
                "__comprehension__(x, l, @result, [], true, "
                "_?_:_(_>_(x, 1), _+_(@result, [_*_(x, 2)]), @result), @result)");
    assert_dump("l.filter(x, x > 1)", "__comprehension__(x, l, @result, [], true, "
                                      "_?_:_(_>_(x, 1), _+_(@result, [x]), @result), @result)");
    assert_dump("[1].map(x, [2].map(y, x + y))",
                "__comprehension__(x, [1], @result, [], true, _+_(@result, "
                "[__comprehension__(y, [2], @result, [], true, _+_(@result, [_+_(x, y)]), "
                "@result)]), @result)");
    /* two-variable forms */
    assert_dump("m.all(k, v, v > 0)",
                "__comprehension__(k, v, m, @result, true, @not_strictly_false(@result), "
                "_&&_(@result, _>_(v, 0)), @result)");
    assert_dump("m.exists(k, v, p)",
                "__comprehension__(k, v, m, @result, false, @not_strictly_false(!_(@result)), "
                "_||_(@result, p), @result)");
    assert_dump("m.existsOne(k, v, p)",
                "__comprehension__(k, v, m, @result, 0, true, _?_:_(p, _+_(@result, 1), "
                "@result), _==_(@result, 1))");
    assert_dump("l.transformList(i, v, v * i)",
                "__comprehension__(i, v, l, @result, [], true, _+_(@result, [_*_(v, i)]), "
                "@result)");
    assert_dump("l.transformList(i, v, p, f)",
                "__comprehension__(i, v, l, @result, [], true, _?_:_(p, _+_(@result, [f]), "
                "@result), @result)");
    assert_dump("m.transformMap(k, v, v + 1)", "__comprehension__(k, v, m, @result, {}, true, "
                                               "cel.@mapInsert(@result, k, _+_(v, 1)), @result)");
    assert_dump("m.transformMap(k, v, p, f)",
                "__comprehension__(k, v, m, @result, {}, true, "
                "_?_:_(p, cel.@mapInsert(@result, k, f), @result), @result)");
    assert_dump("m.transformMapEntry(k, v, {v: k})",
                "__comprehension__(k, v, m, @result, {}, true, "
                "cel.@mapInsert(@result, {v: k}), @result)");
    assert_error("m.all(k, k, true)", 1, 10, "duplicate variable name: k");

    /* cel.bind and the optional macros */
    assert_dump("cel.bind(x, 1, x + 1)",
                "__comprehension__(#unused, [], x, 1, false, x, _+_(x, 1))");
    assert_dump("other.bind(x, 1, x)", "other.bind(x, 1, x)");
    assert_dump("o.optMap(v, v + 1)",
                "_?_:_(o.hasValue(), optional.of(__comprehension__(#unused, [], v, o.value(), "
                "false, v, _+_(v, 1))), optional.none())");
    assert_dump("a.b.optFlatMap(v, v.?c)",
                "_?_:_(a.b.hasValue(), __comprehension__(#unused, [], v, a.b.value(), false, v, "
                "_?._(v, \"c\")), optional.none())");

    /* cel-go's block extension */
    assert_dump("cel.block([x + 1, cel.index(0) * 2], cel.index(1) > 3)",
                "cel.@block([_+_(x, 1), _*_(@index0, 2)], _>_(@index1, 3))");
    assert_dump("[1].exists(cel.iterVar(0, 1), cel.iterVar(0, 1) > cel.accuVar(2, 0))",
                "__comprehension__(@it:0:1, [1], @result, false, "
                "@not_strictly_false(!_(@result)), _||_(@result, _>_(@it:0:1, @ac:2:0)), "
                "@result)");
    assert_error("cel.block(x, 1)", 1, 11, "cel.block requires the first arg to be a list");
    assert_error("cel.index(-1)", 1, 11, "cel.index requires a single non-negative int");
    assert_error("cel.iterVar(0, x)", 1, 13, "cel.iterVar requires two non-negative int");
    assert_dump("x.index(1)", "x.index(1)");

    /* the iteration variable must be a simple name */
    assert_error("l.all(x.y, true)", 1, 8, "argument must be a simple name");
    assert_error("l.map(1, 2)", 1, 7, "argument must be a simple name");
    assert_error("l.exists(f(x), true)", 1, 10, "argument must be a simple name");
    assert_error("cel.bind(1, 2, 3)", 1, 10, "argument must be a simple name");
    assert_error("m.transformMap(k, 2, 3)", 1, 19, "argument must be a simple name");

    /* other arities and global forms stay calls */
    assert_dump("l.all(x)", "l.all(x)");
    assert_dump("all(l, x, p)", "all(l, x, p)");
    assert_dump("l.filter(x, y, z)", "l.filter(x, y, z)");

    /* disabled macros */
    cel_parse_opts nomacro = {.disable_macros = true, .enable_optional_syntax = true};
    assert_dump_opts("has(a.b)", &nomacro, "has(a.b)");
    assert_dump_opts("l.all(x, x > 0)", &nomacro, "l.all(x, _>_(x, 0))");
    assert_dump_opts("l.all(x.y, 1)", &nomacro, "l.all(x.y, 1)");
    assert_dump_opts("cel.bind(x, 1, x)", &nomacro, "cel.bind(x, 1, x)");
    /* the optional macros need optional syntax */
    cel_parse_opts noopt = {0};
    assert_dump_opts("o.optMap(v, v)", &noopt, "o.optMap(v, v)");
}

/* Walks e recursively (test trees are small), recording every id. */
static void collect_ids(const cel_expr *e, int64_t *ids, size_t *n, size_t max)
{
    if (!e)
        return;
    assert_true(*n < max);
    ids[(*n)++] = e->id;
    switch (e->kind) {
    case CEL_EXPR_SELECT:
        collect_ids(e->u.select.operand, ids, n, max);
        break;
    case CEL_EXPR_CALL:
        collect_ids(e->u.call.target, ids, n, max);
        for (uint32_t i = 0; i < e->u.call.nargs; i++)
            collect_ids(e->u.call.args[i], ids, n, max);
        break;
    case CEL_EXPR_LIST:
        for (uint32_t i = 0; i < e->u.list.n; i++)
            collect_ids(e->u.list.elements[i], ids, n, max);
        break;
    case CEL_EXPR_MAP:
        for (uint32_t i = 0; i < e->u.map.n; i++) {
            collect_ids(e->u.map.keys[i], ids, n, max);
            collect_ids(e->u.map.values[i], ids, n, max);
        }
        break;
    case CEL_EXPR_STRUCT:
        for (uint32_t i = 0; i < e->u.strct.n; i++)
            collect_ids(e->u.strct.values[i], ids, n, max);
        break;
    case CEL_EXPR_COMPREHENSION:
        collect_ids(e->u.comp.iter_range, ids, n, max);
        collect_ids(e->u.comp.accu_init, ids, n, max);
        collect_ids(e->u.comp.loop_condition, ids, n, max);
        collect_ids(e->u.comp.loop_step, ids, n, max);
        collect_ids(e->u.comp.result, ids, n, max);
        break;
    default:
        break;
    }
}

static void test_ids_unique(void **state)
{
    (void)state;
    const char *srcs[] = {"o.optMap(v, v + [1].filter(x, x > 0).size())",
                          "{'a': [1, 2], ?'b': M{f: x.?y}}.all(k, has(k.z) || k in l)",
                          "cel.bind(x, m.transformMap(k, v, k), x.exists_one(y, y))"};
    for (size_t s = 0; s < sizeof srcs / sizeof srcs[0]; s++) {
        rp_arena a = {0};
        int64_t next = 1;
        cel_source_error err;
        cel_expr *e = cel_parse(&a, srcs[s], strlen(srcs[s]), &opt_on, &next, &err);
        assert_non_null(e);
        int64_t ids[256];
        size_t n = 0;
        collect_ids(e, ids, &n, 256);
        for (size_t i = 0; i < n; i++) {
            assert_true(ids[i] >= 1 && ids[i] < next);
            for (size_t j = i + 1; j < n; j++)
                assert_true(ids[i] != ids[j]);
        }
        rp_arena_free(&a);
    }
    /* ids continue from *next_id */
    rp_arena a = {0};
    int64_t next = 100;
    cel_source_error err;
    cel_expr *e = cel_parse(&a, "1 + 2", 5, NULL, &next, &err);
    assert_true(e->id >= 100 && next == 103);
    rp_arena_free(&a);
}

/* ---- errors and limits ---- */

static void test_error_positions(void **state)
{
    (void)state;
    assert_error("a +\n  b +\n  )", 3, 3, "mismatched input ')'");
    assert_error("'caf\xc3\xa9' + if", 1, 10, "reserved identifier: if"); /* col in code points */
    assert_error("\xf0\x9f\x98\xac", 1, 1, "token recognition error");
    assert_error("x\r\ny = 1", 2, 1, "expecting <EOF>");
    /* invalid UTF-8 anywhere, even in a string */
    assert_error("'ab\xff'", 1, 4, "invalid UTF-8");
    assert_error("'\xc3'", 1, 2, "invalid UTF-8");
    assert_error("'\xed\xa0\x80'", 1, 2, "invalid UTF-8"); /* an encoded surrogate */
    assert_error_len("a\0b", 3, &opt_on, 1, 2, "token recognition error");

    int line, col;
    const char *src = "ab\n\xc3\xa9x";
    cel_source_position(src, strlen(src), 0, &line, &col);
    assert_int_equal(line, 1);
    assert_int_equal(col, 1);
    cel_source_position(src, strlen(src), 5, &line, &col);
    assert_int_equal(line, 2);
    assert_int_equal(col, 2);
    cel_source_position(src, strlen(src), 99, &line, &col);
    assert_int_equal(line, 2);
    assert_int_equal(col, 3);
}

static char *repeat(const char *prefix, const char *unit, size_t times, const char *suffix_unit,
                    size_t suffix_times)
{
    size_t n = strlen(prefix) + strlen(unit) * times + strlen(suffix_unit) * suffix_times + 1;
    char *s = malloc(n);
    strcpy(s, prefix);
    for (size_t i = 0; i < times; i++)
        strcat(s, unit);
    for (size_t i = 0; i < suffix_times; i++)
        strcat(s, suffix_unit);
    return s;
}

static void assert_parses(const char *src)
{
    rp_arena a = {0};
    int64_t id = 1;
    cel_source_error err;
    if (!cel_parse(&a, src, strlen(src), &opt_on, &id, &err))
        fail_msg("unexpected error %d:%d %s", err.line, err.col, err.message);
    rp_arena_free(&a);
}

static void test_depth_limits(void **state)
{
    (void)state;
    char *s;
    char buf[4096];
    /* 200 nested parentheses parse; 300 are too deep */
    memset(buf, '(', 200);
    buf[200] = '1';
    memset(buf + 201, ')', 200);
    buf[401] = '\0';
    assert_parses(buf);
    memset(buf, '(', 300);
    buf[300] = '1';
    memset(buf + 301, ')', 300);
    buf[601] = '\0';
    assert_error(buf, 1, 251, "expression nested too deeply");
    /* nested lists and calls count too */
    s = repeat("", "[", 1000, "]", 1000);
    assert_error(s, 1, 251, "expression nested too deeply");
    free(s);
    s = repeat("", "f(", 1000, ")", 1000);
    assert_error(s, 1, 501, "expression nested too deeply");
    free(s);
    s = repeat("", "true ? 1 : ", 1000, "2", 1);
    assert_error(s, 1, 2751, "expression nested too deeply");
    free(s);
    /* a long left-nested chain makes a tall tree without parser recursion */
    s = repeat("x", " + x", 5000, "", 0);
    rp_arena a = {0};
    int64_t id = 1;
    cel_source_error err;
    assert_null(cel_parse(&a, s, strlen(s), &opt_on, &id, &err));
    assert_string_equal(err.message, "expression nested too deeply");
    rp_arena_free(&a);
    free(s);
    s = repeat("a", ".b", 3000, "", 0);
    assert_null(cel_parse(&a, s, strlen(s), &opt_on, &id, &err));
    assert_string_equal(err.message, "expression nested too deeply");
    rp_arena_free(&a);
    free(s);
    /* the bound is CEL_PARSE_MAX_HEIGHT nodes from the root to the deepest leaf */
    s = repeat("x", " + x", CEL_PARSE_MAX_HEIGHT - 1, "", 0);
    assert_parses(s);
    free(s);
    s = repeat("x", " + x", CEL_PARSE_MAX_HEIGHT, "", 0);
    assert_error(s, 1, 1, "expression nested too deeply"); /* the deepest leaf */
    free(s);
    s = repeat("a", ".b", 3000, ".optMap(v, v)", 1); /* checked before the macro copies it */
    assert_null(cel_parse(&a, s, strlen(s), &opt_on, &id, &err));
    assert_string_equal(err.message, "expression nested too deeply");
    rp_arena_free(&a);
    free(s);
    /* chained optMap copies a growing target: bounded instead of exponential */
    s = repeat("o", ".optMap(v, v)", 40, "", 0);
    assert_null(cel_parse(&a, s, strlen(s), &opt_on, &id, &err));
    assert_string_equal(err.message, "expression too complex: macro expansion too large");
    assert_int_equal(err.line, 1);
    rp_arena_free(&a);
    free(s);
    s = repeat("o", ".optMap(v, v)", 8, "", 0);
    assert_parses(s);
    free(s);
    s = repeat("", "!", 5000, "x", 1); /* cancelling pairs add no height */
    assert_parses(s);
    free(s);
    /* a balanced || chain of 5000 terms stays shallow */
    s = repeat("x", " || x", 5000, "", 0);
    assert_parses(s);
    free(s);
    /* the 32-level cases of the conformance suite */
    assert_parses("a[a[a[a[a[a[a[a[a[a[a[a[0]]]]]]]]]]]]");
    assert_parses("((((((((((((((((((((((((((((((((7))))))))))))))))))))))))))))))))");
    assert_dump("--------------------------------19", "19");
    assert_dump("!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!true", "true");
}

static void test_source_limit(void **state)
{
    (void)state;
    size_t n = CEL_PARSE_MAX_SOURCE + 1;
    char *s = malloc(n);
    memset(s, ' ', n);
    s[0] = '1';
    assert_error_len(s, n, &opt_on, 1, 1, "expression too long");
    s[n - 2] = '1'; /* "1   ...   1 " but exactly at the limit: a normal syntax error */
    assert_error_len(s, n - 1, &opt_on, 1, (int)n - 1, "expecting <EOF>");
    free(s);
}

/* Hostile bytes never crash and always produce a tree or a positioned error. */
static void test_garbage(void **state)
{
    (void)state;
    static const char alphabet[] = "ab01.?:()[]{},'\"\\`rbux+-*/%!<>=&|  \n\xc3\xa9";
    uint32_t seed = 12345;
    char buf[64];
    for (int round = 0; round < 20000; round++) {
        size_t len = (size_t)(round % 40);
        for (size_t i = 0; i < len; i++) {
            seed = seed * 1103515245u + 12345u;
            buf[i] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
        }
        rp_arena a = {0};
        int64_t id = 1;
        cel_source_error err;
        cel_expr *e = cel_parse(&a, buf, len, &opt_on, &id, &err);
        if (!e) {
            assert_true(err.message[0] != '\0');
            assert_true(err.line >= 1 && err.col >= 1 && err.offset <= len);
        } else {
            rp_buf b = {0};
            cel_expr_dump(&b, e);
            rp_buf_free(&b);
        }
        rp_arena_free(&a);
    }
}

static void test_op_names(void **state)
{
    (void)state;
    for (int op = CEL_OP_CONDITIONAL; op <= CEL_OP_NOT_STRICTLY_FALSE; op++) {
        const char *name = cel_op_name((cel_op)op);
        assert_true(name[0] != '\0');
        assert_int_equal(cel_op_from_name(name), op);
    }
    assert_string_equal(cel_op_name(CEL_OP_ADD), "_+_");
    assert_string_equal(cel_op_name(CEL_OP_IN), "@in");
    assert_string_equal(cel_op_name(CEL_OP_OPT_SELECT), "_?._");
    assert_int_equal(cel_op_from_name("size"), CEL_OP_NONE);
    assert_int_equal(cel_op_from_name("_+"), CEL_OP_NONE);
    assert_int_equal(cel_op_from_name(NULL), CEL_OP_NONE);
    assert_string_equal(cel_op_name(CEL_OP_NONE), "");
}

static void test_speed(void **state)
{
    (void)state;
    const char *src = "event.type == \"tool_call\" && event.data.name in [\"Bash\", \"Shell\"] && "
                      "event.data.arguments.command.contains(\"rm\")";
    size_t len = strlen(src);
    rp_arena a;
    rp_arena_init(&a, 16384);
    struct timespec t0, t1;
    const int rounds = 20000;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < rounds; i++) {
        int64_t id = 1;
        cel_source_error err;
        assert_non_null(cel_parse(&a, src, len, &opt_on, &id, &err));
        rp_arena_reset(&a);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double us =
        ((double)(t1.tv_sec - t0.tv_sec) * 1e6 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e3) / rounds;
    /* a few µs normally; the bound is loose for sanitizer and debug builds */
    if (us > 100.0)
        fail_msg("parsing took %.2f µs per expression", us);
    rp_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_member_call_index),
        cmocka_unit_test(test_struct_and_errors),
        cmocka_unit_test(test_int_literals),
        cmocka_unit_test(test_double_literals),
        cmocka_unit_test(test_string_literals),
        cmocka_unit_test(test_bytes_literals),
        cmocka_unit_test(test_other_literals),
        cmocka_unit_test(test_reserved_words),
        cmocka_unit_test(test_optional_syntax),
        cmocka_unit_test(test_macros),
        cmocka_unit_test(test_ids_unique),
        cmocka_unit_test(test_error_positions),
        cmocka_unit_test(test_depth_limits),
        cmocka_unit_test(test_source_limit),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_op_names),
        cmocka_unit_test(test_speed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
