/* test_scan_validate.c — the per-type candidate validators of the content scanner.
 *
 * Secret-shaped test data (GitHub tokens, JWTs, Stripe-like keys) is assembled at run time from
 * harmless parts (prefix + generated body + computed checksum), so no such string is committed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan/validate.h"

#define S(lit) lit, strlen(lit)

static const char alnum62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/* Deterministic generator (xorshift) so failures reproduce. */
static uint32_t next_rand(uint32_t *st)
{
    uint32_t x = *st;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *st = x;
}

static void random_chars(uint32_t *st, const char *alphabet, char *out, size_t n)
{
    size_t m = strlen(alphabet);
    for (size_t i = 0; i < n; i++)
        out[i] = alphabet[next_rand(st) % m];
    out[n] = '\0';
}

/* ---- ssn ---- */

static void test_ssn(void **state)
{
    assert_true(rp_scan_ssn(S("536-22-1234"), false));
    assert_true(rp_scan_ssn(S("536 22 1234"), false));
    assert_true(rp_scan_ssn(S("001-01-0001"), false));
    assert_true(rp_scan_ssn(S("899-99-9999"), false));
    assert_true(rp_scan_ssn(S("665-12-3456"), false));
    assert_true(rp_scan_ssn(S("536221234"), true)); /* labelled bare */
    assert_false(rp_scan_ssn(S("536221234"), false));

    assert_false(rp_scan_ssn(S("000-12-3456"), false)); /* area 000 */
    assert_false(rp_scan_ssn(S("666-12-3456"), false)); /* area 666 */
    assert_false(rp_scan_ssn(S("900-12-3456"), false)); /* 9xx */
    assert_false(rp_scan_ssn(S("999-99-9999"), false));
    assert_false(rp_scan_ssn(S("536-00-1234"), false)); /* group 00 */
    assert_false(rp_scan_ssn(S("536-22-0000"), false)); /* serial 0000 */
    assert_false(rp_scan_ssn(S("078-05-1120"), false)); /* Woolworth wallet card */
    assert_false(rp_scan_ssn(S("219-09-9999"), false)); /* advertisement */
    assert_true(rp_scan_ssn(S("123-45-6789"), false));
    assert_true(rp_scan_ssn(S("123456789"), true));     /* the reference's sample: counts */
    assert_false(rp_scan_ssn(S("536-22 1234"), false)); /* mixed separators */
    assert_false(rp_scan_ssn(S("536.22.1234"), false));
    assert_false(rp_scan_ssn(S("53-622-1234"), false));
    assert_false(rp_scan_ssn(S("536-2a-1234"), false));
    assert_false(rp_scan_ssn(S("5362212345"), true));
    assert_false(rp_scan_ssn(S(""), true));
}

/* ---- credit_card ---- */

/* prefix + random digits + Luhn check digit, total len. */
static void luhn_complete(uint32_t *st, const char *prefix, size_t len, char *out)
{
    size_t p = strlen(prefix);
    memcpy(out, prefix, p);
    for (size_t i = p; i + 1 < len; i++)
        out[i] = (char)('0' + next_rand(st) % 10);
    out[len] = '\0';
    for (char c = '0'; c <= '9'; c++) {
        out[len - 1] = c;
        if (rp_scan_luhn(out, len))
            return;
    }
    fail_msg("no Luhn digit");
}

static void test_luhn(void **state)
{
    assert_true(rp_scan_luhn(S("79927398713")));
    assert_false(rp_scan_luhn(S("79927398710")));
    assert_false(rp_scan_luhn(S("")));
    assert_false(rp_scan_luhn(S("7992a398713")));
}

static void test_credit_card_published_numbers(void **state)
{
    static const struct {
        const char *num;
        rp_card_issuer issuer;
    } ok[] = {
        {"4111 1111 1111 1111", RP_CARD_VISA},     {"4111-1111-1111-1111", RP_CARD_VISA},
        {"4111111111111111", RP_CARD_VISA},        {"4012888888881881", RP_CARD_VISA},
        {"4222222222222", RP_CARD_VISA}, /* 13 digits */
        {"5555555555554444", RP_CARD_MASTERCARD},  {"5105 1051 0510 5100", RP_CARD_MASTERCARD},
        {"2223003122003222", RP_CARD_MASTERCARD}, /* 2-series */
        {"378282246310005", RP_CARD_AMEX},         {"3782 822463 10005", RP_CARD_AMEX},
        {"371449635398431", RP_CARD_AMEX},         {"6011111111111117", RP_CARD_DISCOVER},
        {"6011 0009 9013 9424", RP_CARD_DISCOVER}, {"3530111333300000", RP_CARD_JCB},
        {"3566002020360505", RP_CARD_JCB},         {"30569309025904", RP_CARD_DINERS},
        {"38520000023237", RP_CARD_DINERS},        {"6200000000000005", RP_CARD_UNIONPAY},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        rp_card_issuer got = rp_scan_credit_card(S(ok[i].num));
        if (got != ok[i].issuer)
            fail_msg("%s: got %s, want %s", ok[i].num, rp_card_issuer_name(got),
                     rp_card_issuer_name(ok[i].issuer));
    }
    assert_string_equal(rp_card_issuer_name(RP_CARD_AMEX), "amex");
    assert_string_equal(rp_card_issuer_name(RP_CARD_NONE), "none");
}

static void test_credit_card_generated(void **state)
{
    static const struct {
        const char *prefix;
        size_t len;
        rp_card_issuer issuer;
    } cases[] = {
        {"4", 19, RP_CARD_VISA},          {"51", 16, RP_CARD_MASTERCARD},
        {"2221", 16, RP_CARD_MASTERCARD}, {"2720", 16, RP_CARD_MASTERCARD},
        {"34", 15, RP_CARD_AMEX},         {"644", 16, RP_CARD_DISCOVER},
        {"65", 19, RP_CARD_DISCOVER},     {"622126", 16, RP_CARD_DISCOVER},
        {"622925", 17, RP_CARD_DISCOVER}, {"3528", 16, RP_CARD_JCB},
        {"3589", 19, RP_CARD_JCB},        {"300", 14, RP_CARD_DINERS},
        {"305", 16, RP_CARD_DINERS},      {"36", 14, RP_CARD_DINERS},
        {"39", 19, RP_CARD_DINERS},       {"621", 16, RP_CARD_UNIONPAY},
        {"622927", 19, RP_CARD_UNIONPAY}, {"50", 13, RP_CARD_MAESTRO},
        {"56", 16, RP_CARD_MAESTRO},      {"69", 19, RP_CARD_MAESTRO},
        {"6304", 16, RP_CARD_MAESTRO},
    };
    uint32_t st = 12345;
    char buf[24];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int rep = 0; rep < 20; rep++) {
            luhn_complete(&st, cases[i].prefix, cases[i].len, buf);
            rp_card_issuer got = rp_scan_credit_card(buf, cases[i].len);
            if (got != cases[i].issuer)
                fail_msg("%s: got %s, want %s", buf, rp_card_issuer_name(got),
                         rp_card_issuer_name(cases[i].issuer));
            /* one digit off breaks Luhn */
            buf[cases[i].len - 1] = (char)('0' + (buf[cases[i].len - 1] - '0' + 1) % 10);
            assert_int_equal(rp_scan_credit_card(buf, cases[i].len), RP_CARD_NONE);
        }
    }
    /* lengths an issuer does not use */
    static const struct {
        const char *prefix;
        size_t len;
    } bad[] = {{"4", 14},    {"4", 15},  {"4", 17},  {"51", 15},   {"51", 17},   {"2721", 16},
               {"2220", 16}, {"34", 16}, {"37", 14}, {"3527", 16}, {"3590", 16}, {"306", 14},
               {"1", 16},    {"7", 16},  {"8", 16},  {"9", 16}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        luhn_complete(&st, bad[i].prefix, bad[i].len, buf);
        rp_card_issuer got = rp_scan_credit_card(buf, bad[i].len);
        if (got != RP_CARD_NONE)
            fail_msg("%s accepted as %s", buf, rp_card_issuer_name(got));
    }
}

static void test_credit_card_negatives(void **state)
{
    static const char *const no[] = {
        "4111 1111 1111 1112",  /* Luhn */
        "4111-1111 1111-1111",  /* mixed separators */
        "4111  1111 1111 1111", /* double space */
        " 4111 1111 1111 1111", /* leading separator */
        "4111 1111 1111 1111-", /* trailing separator */
        "4111.1111.1111.1111",  /* dots */
        "411111111111",         /* 12 digits */
        "41111111111111111111", /* 20 digits */
        "1749081600123",        /* millisecond timestamp */
        "0000000000000000",     /* Luhn-valid zeros, no issuer */
        "1234567812345670",     /* Luhn-valid, no issuer */
        "",
        "4111 1111 1111 111a",
    };
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        if (rp_scan_credit_card(S(no[i])) != RP_CARD_NONE)
            fail_msg("accepted: '%s'", no[i]);
}

/* ---- email ---- */

static void test_email(void **state)
{
    static const char *const ok[] = {
        "john.doe@example.com",  "j@example.org",        "first+tag@sub.domain.co.uk",
        "o'brien@example.ie",    "a_b-c@a-b.example",    "user@xn--80ak6aa92e.com",
        "user@example.xn--p1ai", "x!#$%&*=?^`{|}~@d.io", "UPPER@EXAMPLE.COM",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (!rp_scan_email(S(ok[i])))
            fail_msg("rejected: '%s'", ok[i]);
    static const char *const no[] = {
        "1.2.3.4",           "v1.2@3.4",
        "user@1.2.3.4",      "user@example",
        "@example.com",      "user@",
        "user@.com",         ".a@example.com",
        "a.@example.com",    "a..b@example.com",
        "a@-example.com",    "a@example-.com",
        "a@example..com",    "a@example.c",
        "a@example.c0m",     "a@example.123",
        "a b@example.com",   "a@exa mple.com",
        "a@b@example.com",   "a@example.com.",
        "\"q\"@example.com", "",
        "a@xn--.com",        "logo@2x.png",
        "icon@3x.WEBP",      "bundle@1.0.0.js",
    };
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        if (rp_scan_email(S(no[i])))
            fail_msg("accepted: '%s'", no[i]);
    char local[80];
    memset(local, 'a', 65);
    strcpy(local + 65, "@example.com");
    assert_false(rp_scan_email(S(local))); /* local part > 64 */
}

/* ---- phone ---- */

/* Finds span in text and validates it in context. */
static bool phone_in(const char *text, const char *span)
{
    const char *p = strstr(text, span);
    if (!p)
        fail_msg("'%s' not in '%s'", span, text);
    return rp_scan_phone(text, strlen(text), (size_t)(p - text), strlen(span));
}

static bool phone(const char *span)
{
    return phone_in(span, span);
}

static void test_phone_positives(void **state)
{
    static const char *const ok[] = {
        "(415) 555-2671",    "415-555-2671",    "415.555.2671",      "415 555 2671",
        "1-800-555-0199",    "+1 415 555 2671", "+1 (415) 555-2671", "+14155552671",
        "+44 20 7946 0958",  "020 7946 0958",   "07700 900123",      "+49 30 12345678",
        "030 12345678",      "0151 23456789",   "+33 1 23 45 67 89", "01 23 45 67 89",
        "+81 3-1234-5678",   "03-1234-5678",    "090-1234-5678",     "+91 98765 43210",
        "98765 43210",       "+61 2 9876 5432", "(02) 9876 5432",    "0412 345 678",
        "+86 138 1234 5678", "138 1234 5678",   "010-12345678",      "+55 11 91234-5678",
        "(11) 91234-5678",   "(11) 2345-6789",  "+4915123456789",    "+44 (0)20 7946 0958",
        "0123 456 789",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (!phone(ok[i]))
            fail_msg("rejected: '%s'", ok[i]);
    assert_true(phone_in("Call (415) 555-2671 now.", "(415) 555-2671"));
    assert_true(phone_in("call 415-555-2671.", "415-555-2671"));
    assert_true(phone_in("tel:+44 20 7946 0958", "+44 20 7946 0958")); /* a label's colon */
    assert_true(phone_in("Phone:415-555-2671", "415-555-2671"));
    assert_false(phone_in("at 10:415-555-2671", "415-555-2671")); /* a time's colon */
    assert_true(phone("+33 (0)1 23 45 67 89"));
    assert_true(phone("+49 (0)30 12345678"));
    assert_false(phone("+44 (0)1 2 3456 7890")); /* (0) and two lone digits */
    assert_true(phone("01.42.68.53.00"));        /* French, dotted */
    assert_false(phone("01.42.68.53"));
    assert_false(phone("1.42.68.53.00"));
    assert_false(phone("536-22-12345")); /* NANP is 3-3-4 */
    assert_false(phone("4155-55-2671"));
    assert_true(phone("415 5552671"));
    assert_true(phone("1 415 555 2671"));
    assert_false(phone("1 4155 55 2671"));
    assert_true(phone_in("\\n415-555-2671", "415-555-2671")); /* escaped new line */
    assert_false(phone_in("n415-555-2671", "415-555-2671"));
    assert_true(phone_in("phone: +44 20 7946 0958, office", "+44 20 7946 0958"));
}

static void test_phone_negatives(void **state)
{
    static const char *const no[] = {
        "2026-12-01",
        "01/12/2026",
        "12/01/2026 10:30",
        "12:30:45",
        "2026-12-01 12:30",
        "1.2.3.4",
        "10.0.0.1",
        "192.168.100.200",
        "3.14159265358",
        "1234567.8901",
        "1234567890",
        "1749081600123",
        "4155552671",
        "(155) 555-2671",
        "(415) 155-2671",
        "(411) 555-2671",
        "(415) 911-2671",
        "+1 415 155 2671",
        "+1 415 555 267",
        "+0 123 456 7890",
        "+123 4567",
        "+1234567890123456",
        "415--555-2671",
        "415-555-2671-",
        "(415 555-2671",
        "415) 555-2671",
        "415-555.2671",
        "555-2671",
        "12 34 56",
        "1.2.3",
        "v1.2.3.4",
        "20261201",
        "2026 12 01",
        "+",
        "()",
        "0000 000 0000",
        "0-306-40615-2",       /* ISBN-10: single-digit groups */
        "0 1 2 3 4 5 6 7 8 9", /* a list */
        "0123 4567 8",
        "+1 2 3 4 5 6 7 8 9 0",
        "+44 20 7946 095 8",
    };
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        if (phone(no[i]))
            fail_msg("accepted: '%s'", no[i]);
    /* glued to something else */
    assert_false(phone_in("id415-555-2671", "415-555-2671"));
    assert_false(phone_in("9415-555-2671", "415-555-2671"));
    assert_false(phone_in("415-555-2671-22", "415-555-2671"));
    assert_false(phone_in("1.415.555.2671", "415.555.2671"));
    assert_false(phone_in("v415.555.2671", "415.555.2671"));
    assert_false(phone_in("415.555.2671.3", "415.555.2671"));
    assert_false(phone_in("x/415 555 2671", "415 555 2671"));
    /* bad bounds */
    assert_false(rp_scan_phone("415-555-2671", 12, 5, 12));
    assert_false(rp_scan_phone("415-555-2671", 12, 13, 0));
}

/* ---- iban ---- */

static void test_iban(void **state)
{
    static const char *const ok[] = {
        "DE89370400440532013000",
        "DE89 3704 0044 0532 0130 00",
        "GB82WEST12345698765432",
        "GB82 WEST 1234 5698 7654 32",
        "FR1420041010050500013M02606",
        "NL91ABNA0417164300",
        "BE68539007547034",
        "CH9300762011623852957",
        "NO9386011117947",
        "MT84MALT011000012345MTLCAST001S",
        "gb82west12345698765432",
        "ES9121000418450200051332",
        "AT611904300234573201",
        "IT60X0542811101000000123456",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (!rp_scan_iban(S(ok[i])))
            fail_msg("rejected: '%s'", ok[i]);
    static const char *const no[] = {
        "DE89370400440532013001",     /* mod 97 */
        "DE88370400440532013000",     /* check digits */
        "DE8937040044053201300",      /* length */
        "DE893704004405320130000",    /* length */
        "XX89370400440532013000",     /* unknown country */
        "DE89 3704 0044 0532 013000", /* irregular spacing */
        "DE89  3704 0044 0532 0130 00",
        "DE89370400440532013000 ",
        "DE89-3704-0044-0532-0130-00",
        "DE00370400440532013000", /* 00 check digits */
        "",
        "DE",
    };
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        if (rp_scan_iban(S(no[i])))
            fail_msg("accepted: '%s'", no[i]);
    assert_int_equal(rp_scan_iban_length("DE"), 22);
    assert_int_equal(rp_scan_iban_length("gb"), 22);
    assert_int_equal(rp_scan_iban_length("US"), 0);
}

/* ---- ip_address ---- */

static void test_ip(void **state)
{
    static const struct {
        const char *ip;
        rp_ip_class c;
    } cases[] = {
        {"8.8.8.8", RP_IP_PUBLIC},
        {"255.255.255.255", RP_IP_PUBLIC},
        {"0.0.0.0", RP_IP_UNSPECIFIED},
        {"10.1.2.3", RP_IP_PRIVATE},
        {"172.16.0.1", RP_IP_PRIVATE},
        {"172.31.255.255", RP_IP_PRIVATE},
        {"172.32.0.1", RP_IP_PUBLIC},
        {"172.15.0.1", RP_IP_PUBLIC},
        {"192.168.1.1", RP_IP_PRIVATE},
        {"127.0.0.1", RP_IP_LOOPBACK},
        {"169.254.10.20", RP_IP_LINK_LOCAL},
        {"192.0.2.1", RP_IP_DOCUMENTATION},
        {"198.51.100.7", RP_IP_DOCUMENTATION},
        {"203.0.113.255", RP_IP_DOCUMENTATION},
        {"192.0.3.1", RP_IP_PUBLIC},
        {"2001:db8::1", RP_IP_DOCUMENTATION},
        {"2001:DB8:0:0:0:0:0:1", RP_IP_DOCUMENTATION},
        {"2001:4860:4860::8888", RP_IP_PUBLIC},
        {"::1", RP_IP_LOOPBACK},
        {"::", RP_IP_UNSPECIFIED},
        {"fc00::1", RP_IP_PRIVATE},
        {"fd12:3456:789a:1::1", RP_IP_PRIVATE},
        {"fe80::1", RP_IP_LINK_LOCAL},
        {"febf::1", RP_IP_LINK_LOCAL},
        {"fec0::1", RP_IP_PUBLIC},
        {"::ffff:192.168.1.1", RP_IP_PRIVATE},
        {"::ffff:8.8.8.8", RP_IP_PUBLIC},
        {"64:ff9b::8.8.8.8", RP_IP_PUBLIC},
        {"1:2:3:4:5:6:7:8", RP_IP_PUBLIC},
        {"1::", RP_IP_PUBLIC},
        {"1:2:3:4:5:6::8", RP_IP_PUBLIC},
        {"1:2:3:4:5:6:1.2.3.4", RP_IP_PUBLIC},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rp_ip_class got = rp_scan_ip_address(S(cases[i].ip));
        if (got != cases[i].c)
            fail_msg("%s: got %s, want %s", cases[i].ip, rp_ip_class_name(got),
                     rp_ip_class_name(cases[i].c));
    }
    static const char *const no[] = {
        "256.1.1.1",
        "01.2.3.4",
        "1.2.3",
        "1.2.3.4.5",
        "1.2.3.",
        ".1.2.3",
        "1..2.3",
        "1.2.3.4a",
        "1234.1.1.1",
        "",
        ":",
        ":::",
        "1:2:3:4:5:6:7:8:9",
        "1::2::3",
        "12345::1",
        "1:2:3:4:5:6:7",
        "g::1",
        "1:",
        ":1",
        "1:2:3:4:5:6:7:1.2.3.4",
        "::1.2.3",
        "::256.1.1.1",
        "1.2.3.4::",
        "::ffff:1.2.3.4:5",
        "1:2:3:4:5:6:7:8::",
    };
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        if (rp_scan_ip_address(S(no[i])) != RP_IP_INVALID)
            fail_msg("accepted: '%s'", no[i]);
    uint8_t a[16];
    assert_true(rp_scan_ipv6(S("2001:db8::ff00:42:8329"), a));
    assert_int_equal(a[0], 0x20);
    assert_int_equal(a[3], 0xb8);
    assert_int_equal(a[10], 0xff);
    assert_int_equal(a[15], 0x29);
    assert_string_equal(rp_ip_class_name(RP_IP_DOCUMENTATION), "documentation");
}

/* ---- passport_us ---- */

static void test_passport_us(void **state)
{
    assert_true(rp_scan_passport_us(S("123456789")));
    assert_true(rp_scan_passport_us(S("912345678")));
    assert_true(rp_scan_passport_us(S("A12345678"))); /* next-generation book */
    assert_true(rp_scan_passport_us(S("z00000001")));
    assert_false(rp_scan_passport_us(S("000000000")));
    assert_false(rp_scan_passport_us(S("111111111")));
    assert_false(rp_scan_passport_us(S("A00000000")));
    assert_false(rp_scan_passport_us(S("12345678")));
    assert_false(rp_scan_passport_us(S("1234567890")));
    assert_false(rp_scan_passport_us(S("AB1234567")));
    assert_false(rp_scan_passport_us(S("12345678A")));
    assert_false(rp_scan_passport_us(S("1234-5678")));
    assert_false(rp_scan_passport_us(S("")));
}

/* ---- date_of_birth ---- */

static void test_date_of_birth(void **state)
{
    static const char *const ok[] = {
        "1985-03-12",    "1985/03/12",          "1985.3.12",     "03/12/1985",    "3/12/1985",
        "31/12/1985",    "12/31/1985",          "12.03.1985",    "12-03-1985",    "29/02/2000",
        "1900-01-01",    "2030-12-31",          "12 March 1985", "12th Mar 1985", "1 may 1990",
        "12-Mar-1985",   "March 12, 1985",      "Mar. 12 1985",  "march 12 1985", "Sept 3, 1971",
        "3rd June 2001", "December 31st, 1999", "2 Feb. 1980",   "29 Feb 2024",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (!rp_scan_date_of_birth(S(ok[i])))
            fail_msg("rejected: '%s'", ok[i]);
    static const char *const no[] = {
        "1985-02-30",     "1985-13-01", "1985-00-10",      "1985-01-00",     "1899-12-31",
        "2031-01-01",     "29/02/1900", "29 Feb 2023",     "31/31/1985",     "1985-03-12x",
        "1985-03/12",     "85-03-12",   "03/12/85",        "12 Marchh 1985", "12 Mrz 1985",
        "March 32, 1985", "12 March",   "March 1985",      "1985",           "12031985",
        "198-503-12",     "",           "12 March, 1985 ", "Mar.. 12 1985",  "123/12/1985",
        "1985-003-12",
    };
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        if (rp_scan_date_of_birth(S(no[i])))
            fail_msg("accepted: '%s'", no[i]);
}

/* ---- jwt ---- */

static void b64url_encode(const char *in, char *out)
{
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    size_t n = strlen(in), k = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)(unsigned char)in[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)(unsigned char)in[i + 1] << 8;
        if (i + 2 < n)
            v |= (unsigned char)in[i + 2];
        out[k++] = t[(v >> 18) & 63];
        out[k++] = t[(v >> 12) & 63];
        if (i + 1 < n)
            out[k++] = t[(v >> 6) & 63];
        if (i + 2 < n)
            out[k++] = t[v & 63];
    }
    out[k] = '\0';
}

static char *make_jwt(char *buf, const char *header, const char *payload, const char *sig)
{
    char h[256], p[256];
    b64url_encode(header, h);
    b64url_encode(payload, p);
    snprintf(buf, 1024, "%s.%s.%s", h, p, sig);
    return buf;
}

static void test_jwt(void **state)
{
    rp_arena a = {0};
    char buf[1024], sig[44];
    uint32_t st = 99;
    random_chars(&st, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", sig, 43);
    const char *hs = "{\"alg\":\"HS256\",\"typ\":\"JWT\"}";
    const char *claims = "{\"sub\":\"1234567890\",\"name\":\"A B\",\"iat\":1516239022}";
    assert_true(rp_scan_jwt(&a, S(make_jwt(buf, hs, claims, sig))));
    assert_true(rp_scan_jwt(&a, S(make_jwt(buf, "{\"alg\":\"none\"}", "{}", ""))));
    assert_true(rp_scan_jwt(&a, S(make_jwt(buf, " {\"alg\":\"RS256\"} ", "{\"a\":[1]}", sig))));

    assert_false(rp_scan_jwt(&a, S(make_jwt(buf, "{\"alg\":\"HS256\"}", "{}", "")))); /* unsigned */
    assert_false(rp_scan_jwt(&a, S(make_jwt(buf, "{\"typ\":\"JWT\"}", claims, sig)))); /* no alg */
    assert_false(rp_scan_jwt(&a, S(make_jwt(buf, "{\"alg\":256}", claims, sig))));     /* alg */
    assert_false(rp_scan_jwt(&a, S(make_jwt(buf, "[\"alg\"]", claims, sig))));
    assert_false(rp_scan_jwt(&a, S(make_jwt(buf, hs, "[1,2]", sig))));   /* payload array */
    assert_false(rp_scan_jwt(&a, S(make_jwt(buf, hs, "\"x\"", sig))));   /* payload string */
    assert_false(rp_scan_jwt(&a, S(make_jwt(buf, hs, "{\"a\":", sig)))); /* broken JSON */
    assert_false(rp_scan_jwt(&a, S(make_jwt(buf, hs, "not json", sig))));
    make_jwt(buf, hs, claims, sig);
    strcat(buf, ".extra");
    assert_false(rp_scan_jwt(&a, S(buf))); /* four parts */
    make_jwt(buf, hs, claims, "ab+c");
    assert_false(rp_scan_jwt(&a, S(buf))); /* '+' is base64, not base64url */
    make_jwt(buf, hs, claims, "abcde");
    assert_false(rp_scan_jwt(&a, S(buf))); /* impossible length */
    char h[64];
    b64url_encode(hs, h);
    snprintf(buf, sizeof buf, "%s==.e30.%s", h, sig);
    assert_false(rp_scan_jwt(&a, S(buf))); /* padding */
    assert_false(rp_scan_jwt(&a, S("a.b.c")));
    assert_false(rp_scan_jwt(&a, S("1.2.3")));
    assert_false(rp_scan_jwt(&a, S("www.example.com")));
    assert_false(rp_scan_jwt(&a, S("..")));
    assert_false(rp_scan_jwt(&a, S("")));
    assert_false(rp_scan_jwt(&a, S("abc.def")));

    unsigned char out[16];
    assert_int_equal(rp_scan_base64url_decode(S("aGk"), out), 2);
    assert_memory_equal(out, "hi", 2);
    assert_int_equal(rp_scan_base64url_decode(S("a"), out), (size_t)-1);
    assert_int_equal(rp_scan_base64url_decode(S("a=bc"), out), (size_t)-1);
    rp_arena_free(&a);
}

/* ---- entropy and generic secrets ---- */

static void test_entropy(void **state)
{
    assert_true(rp_scan_entropy(S("")) == 0.0);
    assert_true(rp_scan_entropy(S("aaaaaaaa")) == 0.0);
    assert_true(fabs(rp_scan_entropy(S("abcd")) - 2.0) < 1e-9);
    assert_true(fabs(rp_scan_entropy(S("aabb")) - 1.0) < 1e-9);
    assert_true(fabs(rp_scan_entropy(S("changeme")) - 2.75) < 1e-9);
    double pw = rp_scan_entropy(S("password123"));
    assert_true(pw > 3.2 && pw < 3.3);
}

static void test_secret_value_placeholders(void **state)
{
    static const char *const no[] = {
        "changeme",
        "password123",
        "${API_KEY}",
        "<your-key>",
        "xxxxxxxx",
        "****",
        "********",
        "example",
        "\"changeme\"",
        "'${API_KEY}'",
        "$API_KEY",
        "{{ api_key }}",
        "%s",
        "your_api_key_here",
        "REPLACE_ME_12345",
        "Summer2024",
        "admin12345",
        "abcdefgh",
        "12345678",
        "aaaaaaaa1",
        "secret",
        "my-secret-key",
        "test1234",
        "dummy-token-value",
        "<API_KEY>",
        "",
        "short1A",
        "not a key at all",
        "EXAMPLEKEY123456",
        "sk_test_example",
        "XXXXXXXXXXXXXXXXXXXX",
        "abababab12121212",
    };
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        if (rp_scan_secret_value(S(no[i])))
            fail_msg("accepted: '%s' (entropy %.2f)", no[i], rp_scan_entropy(S(no[i])));
}

static void test_secret_value_random(void **state)
{
    uint32_t st = 7;
    char buf[64];
    static const size_t lens[] = {16, 20, 24, 32, 40};
    int total = 0, accepted = 0;
    for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
        for (int rep = 0; rep < 200; rep++) {
            random_chars(&st, alnum62, buf, lens[l]);
            total++;
            accepted += rp_scan_secret_value(buf, lens[l]);
        }
    }
    /* random base62 of 16+ chars: every one (a few could contain "test" or "todo") */
    assert_true(accepted >= total - 2);
    int hex_ok = 0;
    for (int rep = 0; rep < 200; rep++) {
        random_chars(&st, "0123456789abcdef", buf, 40);
        hex_ok += rp_scan_secret_value(buf, 40);
    }
    assert_true(hex_ok >= 198);
    /* short random strings with mixed classes: most, not all (8 chars carry at most 3 bits) */
    int short_ok = 0;
    for (int rep = 0; rep < 200; rep++) {
        random_chars(&st, alnum62, buf, 10);
        short_ok += rp_scan_secret_value(buf, 10);
    }
    assert_true(short_ok >= 150);
    assert_true(rp_scan_secret_value(S("\"Zq8#vL2!pR9xT4m\"")));
}

/* ---- github_token ---- */

static void make_gh(uint32_t *st, char kind, char *out)
{
    out[0] = 'g';
    out[1] = 'h';
    out[2] = kind;
    out[3] = '_';
    random_chars(st, alnum62, out + 4, 30);
    rp_scan_base62_6(rp_scan_crc32(out + 4, 30), out + 34);
    out[40] = '\0';
}

static void test_crc32_base62(void **state)
{
    assert_int_equal(rp_scan_crc32(S("123456789")), 0xCBF43926u); /* the CRC-32 check value */
    assert_int_equal(rp_scan_crc32(S("")), 0);
    char b[7] = {0};
    rp_scan_base62_6(0, b);
    assert_string_equal(b, "000000");
    rp_scan_base62_6(61, b);
    assert_string_equal(b, "00000z");
    rp_scan_base62_6(62, b);
    assert_string_equal(b, "000010");
    rp_scan_base62_6(0xFFFFFFFFu, b);
    assert_string_equal(b, "4gfFC3"); /* 4294967295 in base62 */
}

static void test_github_token(void **state)
{
    uint32_t st = 4242;
    char tok[100];
    const char kinds[] = "pousr";
    for (int k = 0; k < 5; k++) {
        for (int rep = 0; rep < 20; rep++) {
            make_gh(&st, kinds[k], tok);
            assert_true(rp_scan_github_token(tok, 40));
            char saved = tok[39];
            tok[39] = saved == 'a' ? 'b' : 'a'; /* checksum off */
            assert_false(rp_scan_github_token(tok, 40));
            tok[39] = saved;
            tok[10] = tok[10] == 'a' ? 'b' : 'a'; /* body off */
            assert_false(rp_scan_github_token(tok, 40));
        }
    }
    make_gh(&st, 'p', tok);
    assert_false(rp_scan_github_token(tok, 39));
    tok[2] = 'x';
    assert_false(rp_scan_github_token(tok, 40)); /* ghx_ */
    make_gh(&st, 'p', tok);
    tok[20] = '-';
    assert_false(rp_scan_github_token(tok, 40));
    assert_false(rp_scan_github_token(S("ghp_")));
    assert_false(rp_scan_github_token(S("")));

    /* fine-grained: github_pat_ + 22 + '_' + 59 */
    strcpy(tok, "github");
    strcat(tok, "_pat_");
    random_chars(&st, alnum62, tok + 11, 22);
    tok[33] = '_';
    random_chars(&st, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_", tok + 34,
                 59);
    assert_int_equal(strlen(tok), 93);
    assert_true(rp_scan_github_token(tok, 93));
    assert_false(rp_scan_github_token(tok, 92));
    tok[33] = 'a';
    assert_false(rp_scan_github_token(tok, 93));
    tok[33] = '_';
    tok[12] = '_'; /* '_' not allowed in the first part */
    assert_false(rp_scan_github_token(tok, 93));
    tok[12] = 'a';
    tok[50] = '-';
    assert_false(rp_scan_github_token(tok, 93));
}

/* ---- mask ---- */

static void test_mask_pii(void **state)
{
    char out[RP_SCAN_MASK_MAX + 1];
    rp_scan_mask(RP_MASK_SSN, S("536-22-6789"), out);
    assert_string_equal(out, "***-**-6789");
    rp_scan_mask(RP_MASK_SSN, S("536226789"), out);
    assert_string_equal(out, "***-**-6789");
    rp_scan_mask(RP_MASK_CARD, S("4111 1111 1111 1234"), out);
    assert_string_equal(out, "****-****-****-1234");
    rp_scan_mask(RP_MASK_CARD, S("378282246310005"), out);
    assert_string_equal(out, "****-****-****-0005");
    assert_int_equal(rp_scan_mask(RP_MASK_EMAIL, S("john@example.com"), out), 16);
    assert_string_equal(out, "j***@example.com");
    rp_scan_mask(RP_MASK_EMAIL, S("jo.hn.smith+x@example.com"), out);
    assert_string_equal(out, "j***@example.com");
    rp_scan_mask(RP_MASK_GENERIC, S("+1 415 555 2671"), out);
    assert_string_equal(out, "********71");
    rp_scan_mask(RP_MASK_GENERIC, S("123"), out);
    assert_string_equal(out, "********");
    /* a very long domain is cut at the fixed maximum */
    char longmail[300];
    strcpy(longmail, "a@");
    for (int i = 0; i < 40; i++)
        strcat(longmail, "abcde.");
    strcat(longmail, "com");
    assert_int_equal(rp_scan_mask(RP_MASK_EMAIL, S(longmail), out), RP_SCAN_MASK_MAX);
    assert_int_equal(strlen(out), RP_SCAN_MASK_MAX);
}

static void test_mask_secret(void **state)
{
    char out[RP_SCAN_MASK_MAX + 1], tok[128];
    uint32_t st = 1;
    make_gh(&st, 'p', tok);
    rp_scan_mask(RP_MASK_SECRET, tok, 40, out);
    char want[160];
    snprintf(want, sizeof want, "ghp_********%s", tok + 36);
    assert_string_equal(out, want);
    assert_null(strstr(out, tok + 4 + 4)); /* no body revealed */

    strcpy(tok, "sk_");
    strcat(tok, "live_");
    random_chars(&st, alnum62, tok + 8, 24);
    rp_scan_mask(RP_MASK_SECRET, tok, strlen(tok), out);
    snprintf(want, sizeof want, "sk_live_********%s", tok + strlen(tok) - 4);
    assert_string_equal(out, want);

    strcpy(tok, "AKIA");
    random_chars(&st, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", tok + 4, 16);
    rp_scan_mask(RP_MASK_SECRET, tok, 20, out);
    snprintf(want, sizeof want, "AKIA********%s", tok + 16);
    assert_string_equal(out, want);

    /* short or unknown: nothing but stars */
    rp_scan_mask(RP_MASK_SECRET, S("Zq8#vL2!pR"), out);
    assert_string_equal(out, "********");
    rp_scan_mask(RP_MASK_SECRET, S("ghp_"), out); /* prefix alone is not kept */
    assert_string_equal(out, "********");
    /* the length does not leak: 40 and 400 chars give the same shape */
    char big[401];
    random_chars(&st, alnum62, big, 400);
    size_t n1 = rp_scan_mask(RP_MASK_SECRET, big, 400, out);
    size_t n2 = rp_scan_mask(RP_MASK_SECRET, big, 40, out);
    assert_int_equal(n1, n2);
    assert_true(n1 <= RP_SCAN_MASK_MAX);
    rp_scan_mask(RP_MASK_SECRET, S(""), out);
    assert_string_equal(out, "********");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ssn),
        cmocka_unit_test(test_luhn),
        cmocka_unit_test(test_credit_card_published_numbers),
        cmocka_unit_test(test_credit_card_generated),
        cmocka_unit_test(test_credit_card_negatives),
        cmocka_unit_test(test_email),
        cmocka_unit_test(test_phone_positives),
        cmocka_unit_test(test_phone_negatives),
        cmocka_unit_test(test_iban),
        cmocka_unit_test(test_ip),
        cmocka_unit_test(test_passport_us),
        cmocka_unit_test(test_date_of_birth),
        cmocka_unit_test(test_jwt),
        cmocka_unit_test(test_entropy),
        cmocka_unit_test(test_secret_value_placeholders),
        cmocka_unit_test(test_secret_value_random),
        cmocka_unit_test(test_crc32_base62),
        cmocka_unit_test(test_github_token),
        cmocka_unit_test(test_mask_pii),
        cmocka_unit_test(test_mask_secret),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
