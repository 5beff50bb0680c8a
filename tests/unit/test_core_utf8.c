/* test_core_utf8.c — the one UTF-8 reader/writer/validator and hex digits (core/utf8.h): the
 * treatment of invalid input pinned, including the inputs on which the old private copies
 * answered differently. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/pyrepr.h"
#include "core/utf8.h"

static size_t dec(const char *s, size_t n, uint32_t *cp, rp_utf8_invalid mode)
{
    *cp = 0xDEADu;
    return rp_utf8_decode(s, n, cp, mode);
}

static void test_decode_valid(void **unused)
{
    (void)unused;
    uint32_t cp;
    assert_int_equal(dec("A", 1, &cp, RP_UTF8_REJECT), 1);
    assert_int_equal(cp, 'A');
    assert_int_equal(dec("\xc3\xa9", 2, &cp, RP_UTF8_REJECT), 2);
    assert_int_equal(cp, 0xE9);
    assert_int_equal(dec("\xe2\x82\xac", 3, &cp, RP_UTF8_REJECT), 3);
    assert_int_equal(cp, 0x20AC);
    assert_int_equal(dec("\xf0\x9f\x98\x80", 4, &cp, RP_UTF8_REJECT), 4);
    assert_int_equal(cp, 0x1F600);
    assert_int_equal(dec("\xf4\x8f\xbf\xbf", 4, &cp, RP_UTF8_REJECT), 4); /* U+10FFFF */
    assert_int_equal(cp, 0x10FFFF);
    assert_int_equal(dec("\xed\x9f\xbf", 3, &cp, RP_UTF8_REJECT), 3); /* U+D7FF */
    assert_int_equal(dec("\xee\x80\x80", 3, &cp, RP_UTF8_REJECT), 3); /* U+E000 */
}

/* Every kind of invalid input is rejected whole, or read as its first byte alone. The old
 * Python copy (pyrepr's rp_py_utf8_next) decoded the overlong, surrogate and beyond-U+10FFFF
 * forms below as characters (C0 80 as U+0000, ED A0 80 as U+D800, F4 90 80 80 as U+110000)
 * while the JSON reader, CEL and the glob model rejected them; the strict reading is kept. */
static void test_decode_invalid(void **unused)
{
    (void)unused;
    static const struct {
        const char *s;
        size_t n;
    } bad[] = {
        {"\x80", 1},             /* stray continuation byte */
        {"\xbf\x80", 2},         /* stray continuation bytes */
        {"\xc0\x80", 2},         /* overlong U+0000 */
        {"\xc1\xbf", 2},         /* overlong U+007F */
        {"\xe0\x9f\xbf", 3},     /* overlong U+07FF */
        {"\xf0\x8f\xbf\xbf", 4}, /* overlong U+FFFF */
        {"\xed\xa0\x80", 3},     /* U+D800, a UTF-16 surrogate */
        {"\xed\xbf\xbf", 3},     /* U+DFFF */
        {"\xf4\x90\x80\x80", 4}, /* U+110000 */
        {"\xf5\x80\x80\x80", 4}, /* lead byte beyond U+10FFFF */
        {"\xf8\x88\x80\x80\x80", 5},
        {"\xff", 1},
        {"\xe2\x82", 2},     /* truncated */
        {"\xe2\x82", 1},     /* truncated by n */
        {"\xe2\x28\xa1", 3}, /* a continuation byte missing */
        {"\xc3(", 2},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint32_t cp;
        assert_int_equal(dec(bad[i].s, bad[i].n, &cp, RP_UTF8_REJECT), 0);
        assert_int_equal(dec(bad[i].s, bad[i].n, &cp, RP_UTF8_AS_BYTE), 1);
        assert_int_equal(cp, (unsigned char)bad[i].s[0]);
        assert_false(rp_utf8_valid(bad[i].s, bad[i].n));
    }
    /* A valid character after an invalid byte is never swallowed. */
    uint32_t cp;
    assert_int_equal(dec("\xe2"
                         "A",
                         2, &cp, RP_UTF8_AS_BYTE),
                     1);
    assert_int_equal(dec("\xc0\x80", 2, &cp, RP_UTF8_AS_BYTE), 1);
    assert_int_equal(cp, 0xC0);
    /* Python's s[:n] counts an invalid byte as one character. */
    assert_int_equal(rp_py_prefix_bytes("\xed\xa0\x80x", 4, 1), 1);
}

static void test_valid_prefix(void **unused)
{
    (void)unused;
    assert_int_equal(rp_utf8_valid_prefix("ab\xc3\xa9\xff", 5), 4);
    assert_int_equal(rp_utf8_valid_prefix("ab\xe2\x82", 4), 2);
    assert_int_equal(rp_utf8_valid_prefix("", 0), 0);
    assert_true(rp_utf8_valid("a\xc3\xa9\xf0\x9f\x98\x80", 7));
    assert_true(rp_utf8_valid("a\0b", 3)); /* U+0000 is valid UTF-8 */
}

static void expect_encoded(uint32_t cp, const char *bytes, size_t n)
{
    char out[RP_UTF8_MAX];
    assert_int_equal(rp_utf8_encode(cp, out), n);
    assert_memory_equal(out, bytes, n);
}

/* The writer writes scalar values as RFC 3629 says, surrogates as their three bytes, and code
 * points beyond U+10FFFF in RFC 2279's forms, as bash does for $'\U…' (bash 5.2: \U200000 is
 * f8 88 80 80 80). The old private writers disagreed there: bash's ANSI-C decoder masked the lead
 * byte to four bytes (f0 88 80 80) and the others wrote an f8 lead with only four bytes. */
static void test_encode(void **unused)
{
    (void)unused;
    expect_encoded(0, "\0", 1);
    expect_encoded(0x7F, "\x7f", 1);
    expect_encoded(0x80, "\xc2\x80", 2);
    expect_encoded(0x7FF, "\xdf\xbf", 2);
    expect_encoded(0x800, "\xe0\xa0\x80", 3);
    expect_encoded(0xD800, "\xed\xa0\x80", 3);
    expect_encoded(0xFFFF, "\xef\xbf\xbf", 3);
    expect_encoded(0x10000, "\xf0\x90\x80\x80", 4);
    expect_encoded(0x10FFFF, "\xf4\x8f\xbf\xbf", 4);
    expect_encoded(0x110000, "\xf4\x90\x80\x80", 4);
    expect_encoded(0x1FFFFF, "\xf7\xbf\xbf\xbf", 4);
    expect_encoded(0x200000, "\xf8\x88\x80\x80\x80", 5);
    expect_encoded(0x7FFFFFFF, "\xfd\xbf\xbf\xbf\xbf\xbf", 6);
    /* round trip over every scalar value */
    for (uint32_t cp = 0; cp <= 0x10FFFF; cp++) {
        if (cp >= 0xD800 && cp <= 0xDFFF)
            continue;
        char out[RP_UTF8_MAX];
        size_t n = rp_utf8_encode(cp, out);
        uint32_t back;
        assert_int_equal(rp_utf8_decode(out, n, &back, RP_UTF8_REJECT), n);
        assert_int_equal(back, cp);
    }
}

static void test_walkers(void **unused)
{
    (void)unused;
    const char *s = "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
    size_t n = strlen(s);
    assert_int_equal(rp_utf8_count(s, n), 4);
    assert_int_equal(rp_utf8_lead_len('a'), 1);
    assert_int_equal(rp_utf8_lead_len(0xc3), 2);
    assert_int_equal(rp_utf8_lead_len(0xe2), 3);
    assert_int_equal(rp_utf8_lead_len(0xf0), 4);
    assert_int_equal(rp_utf8_lead_len(0x80), 1); /* never stuck, never past a stray byte */
    assert_int_equal(rp_utf8_prev(s, n), 6);
    assert_int_equal(rp_utf8_prev(s, 6), 3);
    assert_int_equal(rp_utf8_prev(s, 3), 1);
    assert_int_equal(rp_utf8_prev(s, 1), 0);
    assert_true(rp_utf8_is_cont(0x80) && rp_utf8_is_cont(0xbf));
    assert_false(rp_utf8_is_cont(0xc0) || rp_utf8_is_cont('a'));
}

/* The three space sets differ exactly where the languages do. */
static void test_space_sets(void **unused)
{
    (void)unused;
    static const uint32_t common[] = {' ',    '\t',   '\n',   '\v',   '\f',   '\r',   0xA0,  0x1680,
                                      0x2000, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000};
    for (size_t i = 0; i < sizeof common / sizeof common[0]; i++)
        for (int set = RP_SPACE_UNICODE; set <= RP_SPACE_PYTHON; set++)
            assert_true(rp_utf8_is_space(common[i], (rp_space_set)set));
    static const uint32_t never[] = {0, 'x', 0x200B, 0x180E, 0x2060, 0x7F, 0xFFFE};
    for (size_t i = 0; i < sizeof never / sizeof never[0]; i++)
        for (int set = RP_SPACE_UNICODE; set <= RP_SPACE_PYTHON; set++)
            assert_false(rp_utf8_is_space(never[i], (rp_space_set)set));
    assert_true(rp_utf8_is_space(0x85, RP_SPACE_UNICODE));
    assert_false(rp_utf8_is_space(0x85, RP_SPACE_JS)); /* NEL is not JS white space */
    assert_true(rp_utf8_is_space(0x85, RP_SPACE_PYTHON));
    assert_true(rp_utf8_is_space(0xFEFF, RP_SPACE_JS)); /* ZWNBSP is */
    assert_false(rp_utf8_is_space(0xFEFF, RP_SPACE_UNICODE));
    assert_true(rp_utf8_is_space(0x1C, RP_SPACE_PYTHON)); /* Python's FS..US */
    assert_false(rp_utf8_is_space(0x1F, RP_SPACE_UNICODE));
}

static void test_trim(void **unused)
{
    (void)unused;
    size_t start, len;
    const char *s = "\xe3\x80\x80 a b\xc2\xa0\t";
    rp_utf8_trim(s, strlen(s), RP_SPACE_UNICODE, &start, &len);
    assert_int_equal(start, 4);
    assert_int_equal(len, 3);
    s = "\xef\xbb\xbfx\xc2\x85";
    rp_utf8_trim(s, strlen(s), RP_SPACE_JS, &start, &len);
    assert_int_equal(start, 3);
    assert_int_equal(len, 3); /* x and NEL */
    rp_utf8_trim(s, strlen(s), RP_SPACE_UNICODE, &start, &len);
    assert_int_equal(start, 0);
    assert_int_equal(len, 4); /* BOM and x */
    s = "\xa0x\x80\x80";      /* invalid UTF-8 is not space: no half character is cut */
    rp_utf8_trim(s, strlen(s), RP_SPACE_UNICODE, &start, &len);
    assert_int_equal(start, 0);
    assert_int_equal(len, 4);
    rp_utf8_trim("   ", 3, RP_SPACE_UNICODE, &start, &len);
    assert_int_equal(len, 0);
    rp_utf8_trim("", 0, RP_SPACE_JS, &start, &len);
    assert_int_equal(start + len, 0);
}

static void test_hex(void **unused)
{
    (void)unused;
    assert_int_equal(rp_hex_digit('0'), 0);
    assert_int_equal(rp_hex_digit('9'), 9);
    assert_int_equal(rp_hex_digit('a'), 10);
    assert_int_equal(rp_hex_digit('F'), 15);
    assert_int_equal(rp_hex_digit('g'), -1);
    assert_int_equal(rp_hex_digit('G'), -1);
    assert_int_equal(rp_hex_digit(0), -1);
    assert_int_equal(rp_hex_digit(0xB9), -1); /* no locale: superscript one is not a digit */
    for (unsigned v = 0; v < 16; v++)
        assert_int_equal(rp_hex_digit(rp_hex_char(v)), (int)v);
    assert_int_equal(rp_hex_char(0xAB), 'b'); /* the low nibble, lowercase */
    uint32_t v = 7;
    assert_true(rp_hex_read("00e9", 4, 4, &v));
    assert_int_equal(v, 0xE9);
    assert_true(rp_hex_read("0001F600x", 9, 8, &v));
    assert_int_equal(v, 0x1F600);
    v = 7;
    assert_false(rp_hex_read("00e", 3, 4, &v)); /* too few */
    assert_false(rp_hex_read("00eg", 4, 4, &v));
    assert_false(rp_hex_read("0\0"
                             "00",
                             4, 4, &v)); /* stops at a NUL */
    assert_int_equal(v, 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_valid), cmocka_unit_test(test_decode_invalid),
        cmocka_unit_test(test_valid_prefix), cmocka_unit_test(test_encode),
        cmocka_unit_test(test_walkers),      cmocka_unit_test(test_space_sets),
        cmocka_unit_test(test_trim),         cmocka_unit_test(test_hex),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
