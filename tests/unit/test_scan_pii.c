/* test_scan_pii.c — the PII extractors (src/scan/pii.c) through the public scanner API: exact
 * finding spans for every PII type, the reference's deny_pii_in_llm_request texts, and texts
 * at the edges (findings at offset 0 and at the very end, NUL bytes, long digit runs). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"

#define SSN   RP_SCAN_SSN
#define CARD  RP_SCAN_CREDIT_CARD
#define EMAIL RP_SCAN_EMAIL
#define PHONE RP_SCAN_PHONE
#define IBAN  RP_SCAN_IBAN
#define IP    RP_SCAN_IP_ADDRESS
#define PASS  RP_SCAN_PASSPORT_US
#define DOB   RP_SCAN_DATE_OF_BIRTH

#define DEFAULT RP_SCAN_PII_DEFAULT
#define ALL     RP_SCAN_PII_ALL

typedef struct want {
    rp_scan_type type;
    const char *span; /* found in the text after the previous wanted span */
} want;

static rp_scanner *scanners[2][RP_SCAN_FIRST_SECRET + 2];

/* One scanner per (type set, private-IP option), opened on first use and kept: compiling is
 * the slow part and the sets repeat. */
static rp_scanner *scanner_for(rp_scan_set types, bool private_ips)
{
    size_t slot;
    if (types == DEFAULT)
        slot = RP_SCAN_FIRST_SECRET;
    else if (types == ALL)
        slot = RP_SCAN_FIRST_SECRET + 1;
    else {
        for (slot = 0; slot < RP_SCAN_FIRST_SECRET && types != RP_SCAN_BIT(slot); slot++)
            ;
        if (slot == RP_SCAN_FIRST_SECRET)
            fail_msg("test: unsupported type set %#x", types);
    }
    rp_scanner **s = &scanners[private_ips][slot];
    if (*s == NULL) {
        rp_scan_options opt = {.types = types, .ip_include_private = private_ips, .cache_dir = ""};
        char err[256] = "";
        if (rp_scanner_open(&opt, s, err, sizeof err) != 0)
            fail_msg("rp_scanner_open: %s", err);
    }
    return *s;
}

static int teardown(void **state)
{
    (void)state;
    for (size_t p = 0; p < 2; p++)
        for (size_t i = 0; i < sizeof scanners[0] / sizeof scanners[0][0]; i++) {
            rp_scanner_free(scanners[p][i]);
            scanners[p][i] = NULL;
        }
    return 0;
}

static void print_findings(const char *text, size_t n, const rp_scan_result *r)
{
    fprintf(stderr, "text: '%.*s'\n", (int)n, text);
    for (size_t i = 0; i < r->n; i++)
        fprintf(stderr, "  found %s [%zu, %zu) '%.*s' preview '%s'\n",
                rp_scan_type_name(r->findings[i].type), r->findings[i].start, r->findings[i].end,
                (int)(r->findings[i].end - r->findings[i].start), text + r->findings[i].start,
                r->findings[i].preview);
}

/* Scans text[0, n) and asserts that the findings are exactly w[0, nw), in order. */
static void check_n(rp_scan_set types, bool private_ips, const char *text, size_t n, const want *w,
                    size_t nw, const char *where)
{
    rp_arena a = {0};
    rp_scan_result r;
    assert_int_equal(rp_scanner_scan(scanner_for(types, private_ips), &a, text, n, &r), 0);
    bool ok = r.n == nw;
    size_t from = 0;
    for (size_t i = 0; ok && i < nw; i++) {
        size_t m = strlen(w[i].span), start = from;
        while (start + m <= n && memcmp(text + start, w[i].span, m) != 0)
            start++;
        if (start + m > n)
            fail_msg("%s: test bug: '%s' not in '%s'", where, w[i].span, text);
        size_t end = start + m;
        ok = r.findings[i].type == w[i].type && r.findings[i].start == start &&
             r.findings[i].end == end;
        from = end;
    }
    if (!ok) {
        print_findings(text, n, &r);
        for (size_t i = 0; i < nw; i++)
            fprintf(stderr, "  wanted %s '%s'\n", rp_scan_type_name(w[i].type), w[i].span);
        rp_arena_free(&a);
        fail_msg("%s: findings differ", where);
    }
    rp_arena_free(&a);
}

static void check(rp_scan_set types, bool private_ips, const char *text, const want *w, size_t nw,
                  const char *where)
{
    check_n(types, private_ips, text, strlen(text), w, nw, where);
}

#define WHERE_(l) __FILE__ ":" #l
#define WHERE(l)  WHERE_(l)
/* FOUND(types, text, {type, "span"}, ...) and NONE(types, text). */
#define FOUND(types, text, ...)                                                                    \
    check(types, false, text, (const want[]){__VA_ARGS__},                                         \
          sizeof((const want[]){__VA_ARGS__}) / sizeof(want), WHERE(__LINE__))
#define FOUND_PRIVATE(types, text, ...)                                                            \
    check(types, true, text, (const want[]){__VA_ARGS__},                                          \
          sizeof((const want[]){__VA_ARGS__}) / sizeof(want), WHERE(__LINE__))
#define NONE(types, text)         check(types, false, text, NULL, 0, WHERE(__LINE__))
#define NONE_PRIVATE(types, text) check(types, true, text, NULL, 0, WHERE(__LINE__))
/* The whole text is one finding of type t. */
#define WHOLE(t, text) FOUND(RP_SCAN_BIT(t), text, {t, text})

/* ---- ssn ---- */

static void test_ssn(void **state)
{
    (void)state;
    FOUND(DEFAULT, "my SSN is 123-45-6789", {SSN, "123-45-6789"});
    FOUND(DEFAULT, "Customer SSN is 123-45-6789, handle with care.", {SSN, "123-45-6789"});
    WHOLE(SSN, "536-22-1234");
    WHOLE(SSN, "536 22 1234");
    FOUND(DEFAULT, "id,ssn\n1,123-45-6789", {SSN, "123-45-6789"});
    FOUND(DEFAULT, "(536-22-1234)", {SSN, "536-22-1234"});
    FOUND(DEFAULT, "a 536-22-1234 b 536-22-1235", {SSN, "536-22-1234"}, {SSN, "536-22-1235"});
    /* impossible numbers */
    NONE(DEFAULT, "The number is 999-99-9999.");
    NONE(DEFAULT, "000-12-3456");
    NONE(DEFAULT, "666-12-3456");
    NONE(DEFAULT, "900-12-3456");
    NONE(DEFAULT, "536-00-1234");
    NONE(DEFAULT, "536-22-0000");
    NONE(DEFAULT, "078-05-1120");
    /* glued to something longer */
    NONE(DEFAULT, "1234-56-7890");
    NONE(DEFAULT, "x123-45-6789y");
    NONE(DEFAULT, "123-45-67890");
    NONE(DEFAULT, "9-123-45-6789");
    NONE(DEFAULT, "123-45-6789-1");
    NONE(DEFAULT, "v1.123-45-6789");
    NONE(DEFAULT, "536-22 1234");
    NONE(RP_SCAN_BIT(SSN), "1 536 22 1234 5"); /* a row of numbers */
    /* bare nine digits: only with a label */
    FOUND(DEFAULT, "SSN: 536221234", {SSN, "536221234"});
    FOUND(DEFAULT, "ssn#536221234", {SSN, "536221234"});
    FOUND(DEFAULT, "SSN 123456789", {SSN, "123456789"});
    FOUND(DEFAULT, "social security number 536221234", {SSN, "536221234"});
    FOUND(DEFAULT, "Social Security No: 536221234.", {SSN, "536221234"});
    FOUND(DEFAULT, "the employee's SSN is 536221234", {SSN, "536221234"});
    NONE(DEFAULT, "id 536221234");
    NONE(DEFAULT, "SSN: 5362212345");
    NONE(DEFAULT, "SSN: 999221234");
    NONE(DEFAULT, "lessness 536221234"); /* "ssn" inside a word is no label */
}

/* ---- credit_card ---- */

static void test_credit_card(void **state)
{
    (void)state;
    FOUND(DEFAULT, "cc 4111 1111 1111 1111", {CARD, "4111 1111 1111 1111"});
    WHOLE(CARD, "4111-1111-1111-1111");
    WHOLE(CARD, "4111111111111111");
    WHOLE(CARD, "378282246310005");
    WHOLE(CARD, "3782 822463 10005");
    WHOLE(CARD, "5555555555554444");
    WHOLE(CARD, "2223003122003222");
    WHOLE(CARD, "6011 0009 9013 9424");
    WHOLE(CARD, "4222222222222");
    FOUND(DEFAULT, "card: 4111111111111111.", {CARD, "4111111111111111"});
    FOUND(DEFAULT, "pay with 5105-1051-0510-5100, thanks", {CARD, "5105-1051-0510-5100"});
    /* several in a row */
    FOUND(DEFAULT, "4111111111111111 5555555555554444", {CARD, "4111111111111111"},
          {CARD, "5555555555554444"});
    FOUND(DEFAULT, "cards: 4111 1111 1111 1111, 5555 5555 5555 4444", {CARD, "4111 1111 1111 1111"},
          {CARD, "5555 5555 5555 4444"});
    FOUND(DEFAULT, "4111 1111 1111 1111 5555 5555 5555 4444", {CARD, "4111 1111 1111 1111"},
          {CARD, "5555 5555 5555 4444"});
    FOUND(DEFAULT, "4111111111111111,5555555555554444,378282246310005", {CARD, "4111111111111111"},
          {CARD, "5555555555554444"}, {CARD, "378282246310005"});
    FOUND(DEFAULT, "12 4111111111111111", {CARD, "4111111111111111"});
    /* not cards */
    NONE(DEFAULT, "ts 1749081600123");
    NONE(DEFAULT, "41111111111111111111");
    NONE(DEFAULT, "id 411111111111111141111111111111114111111111111111");
    NONE(DEFAULT, "4111 1111 1111 1112");
    NONE(DEFAULT, "4111-1111 1111-1111");
    NONE(DEFAULT, "4111  1111 1111 1111");
    NONE(DEFAULT, "x4111111111111111");
    NONE(DEFAULT, "4111111111111111x");
    NONE(DEFAULT, "0.4111111111111111");
    NONE(DEFAULT, "4111111111111111.5");
    NONE(DEFAULT, "1234567812345670");
    NONE(DEFAULT, "4111.1111.1111.1111");
    NONE(RP_SCAN_BIT(CARD), "41 11 11 11 11 11 11 11"); /* not card grouping */
}

/* ---- email ---- */

static void test_email(void **state)
{
    (void)state;
    FOUND(DEFAULT, "Contact alice@example.com for support.", {EMAIL, "alice@example.com"});
    WHOLE(EMAIL, "A@B.COM");
    FOUND(DEFAULT, "my email is tomu.hirata@gmail.com", {EMAIL, "tomu.hirata@gmail.com"});
    FOUND(DEFAULT, "mail me at john.doe@example.co.uk.", {EMAIL, "john.doe@example.co.uk"});
    FOUND(DEFAULT, "<first+tag@sub.example.org>", {EMAIL, "first+tag@sub.example.org"});
    FOUND(DEFAULT, "email=jane@example.org&x=1", {EMAIL, "jane@example.org"});
    FOUND(DEFAULT, "'jane@example.org'", {EMAIL, "jane@example.org"});
    FOUND(DEFAULT, "\"o'brien@example.ie\"", {EMAIL, "o'brien@example.ie"});
    FOUND(DEFAULT, "see...john@example.com", {EMAIL, "john@example.com"});
    FOUND(DEFAULT, "mailto:bob@example.net", {EMAIL, "bob@example.net"});
    FOUND(DEFAULT, "a@example.com,b@example.com", {EMAIL, "a@example.com"},
          {EMAIL, "b@example.com"});
    FOUND(DEFAULT, "user@xn--80ak6aa92e.com", {EMAIL, "user@xn--80ak6aa92e.com"});
    NONE(DEFAULT, "x@y");
    NONE(DEFAULT, "user@1.2.3.4");
    NONE(DEFAULT, "name@localhost");
    NONE(DEFAULT, "a@b");
    NONE(DEFAULT, "@example.com");
    NONE(DEFAULT, "lodash@4.17.21 and react@18.2.0");
    NONE(DEFAULT, "image: logo@2x.png icon@3x.webp");
    NONE(DEFAULT, "docker pull img@sha256:abcdef");
    /* SSH remotes and URL user parts name an account on a host, not a mailbox */
    NONE(DEFAULT, "git clone git@github.com:org/repo.git");
    NONE(DEFAULT, "scp deploy@example.com:/srv/app .");
    NONE(DEFAULT, "ssh://git@github.com/org/repo");
    NONE(DEFAULT, "DATABASE_URL=postgres://worker:s3cr3t-Pw@db.example.com/app");
    NONE(DEFAULT, "url: amqp://app:2-Nag*pBm@mq.example.net/app");
    FOUND(DEFAULT, "see https://example.com/u/jane@example.org", {EMAIL, "jane@example.org"});
    /* an escaped new line inside a JSON string in a JSON string */
    FOUND(DEFAULT, "{\"content\": \"contacts:\\nana@example.com\\nbo@example.com\"}",
          {EMAIL, "ana@example.com"}, {EMAIL, "bo@example.com"});
}

/* ---- phone ---- */

static void test_phone_positives(void **state)
{
    (void)state;
    static const char *const ok[] = {
        "+81 3-1234-5678", "+44 20 7946 0958",  "+1 (415) 555-0132", "(415) 555-0132",
        "415-555-0132",    "415.555.0132",      "020 7946 0958",     "030 12345678",
        "01 23 45 67 89",  "03-1234-5678",      "98765 43210",       "(02) 9876 5432",
        "138 0013 8000",   "(11) 91234-5678",   "0123 456 789",      "+14155552671",
        "1-800-555-0199",  "+49 30 12345678",   "+33 1 23 45 67 89", "+44 (0)20 7946 0958",
        "+91 98765 43210", "+86 138 0013 8000", "+55 11 91234-5678", "+61 2 9876 5432",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        check(DEFAULT, false, ok[i], &(want){PHONE, ok[i]}, 1, ok[i]);
        char buf[96];
        snprintf(buf, sizeof buf, "Call me at %s, or later.", ok[i]);
        check(DEFAULT, false, buf, &(want){PHONE, ok[i]}, 1, buf);
    }
    FOUND(DEFAULT, "Call the user at +81 3-1234-5678.", {PHONE, "+81 3-1234-5678"});
    FOUND(DEFAULT, "room 12, 415 555 0132", {PHONE, "415 555 0132"});
    FOUND(DEFAULT, "Standard : 01.42.68.53.00", {PHONE, "01.42.68.53.00"});
    FOUND(DEFAULT, "tel: 04 91 23 45 67 (Marseille)", {PHONE, "04 91 23 45 67"});
    FOUND(DEFAULT, "{\"c\": \"tel:\\n415-555-0132\"}", {PHONE, "415-555-0132"});
    FOUND(DEFAULT, "tel:+14155550132", {PHONE, "+14155550132"});
    FOUND(DEFAULT, "phone:415-555-0132", {PHONE, "415-555-0132"});
    FOUND(DEFAULT, "Paris +33 (0)1 23 45 67 89", {PHONE, "+33 (0)1 23 45 67 89"});
    FOUND(DEFAULT, "415-555-0132 415-555-0133", {PHONE, "415-555-0132"}, {PHONE, "415-555-0133"});
    /* '/' after a number reads as a date or a path: not split on */
    NONE(DEFAULT, "tel (415) 555-0132/(415) 555-0199");
}

static void test_phone_negatives(void **state)
{
    (void)state;
    static const char *const no[] = {
        "version 2024-01-01",
        "2024-01-01 12:30:45.123 INFO started",
        "at 12:30:45",
        "v1.2.3 and 1.2.3.4.5",
        "pi is 3.14159265358",
        "ts=1749081600123",
        "id 550e8400-e29b-41d4-a716-446655440000",
        "order #1234567890",
        "invoice INV-1234567890",
        "zip 94105-1234",
        "ISBN 978-3-16-148410-0",
        "ISBN 0-306-40615-2",
        "host 192.168.100.200",
        "1234567890",
        "count 4155550132",
        "0 1 2 3 4 5 6 7 8 9",
        "2026 12 01 10 30",
        "1.5 2.5 3.5 4.5 5.5",
        "(155) 555-0132",
        "+1 415 155 0132",
        "x+1234567",
        "at 10:415-555-2671",
        "part 536-22-12345",
        "IBAN: DE89 3704 0044 0532 0130 01",
        "acct 1234 5678 9012 3456 0123 456 789",
    };
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        check(DEFAULT, false, no[i], NULL, 0, no[i]);
}

/* ---- opt-in types ---- */

static void test_iban(void **state)
{
    (void)state;
    WHOLE(IBAN, "DE89 3704 0044 0532 0130 00");
    WHOLE(IBAN, "GB82WEST12345698765432");
    WHOLE(IBAN, "NO9386011117947");
    WHOLE(IBAN, "MT84MALT011000012345MTLCAST001S");
    FOUND(RP_SCAN_BIT(IBAN), "IBAN: DE89370400440532013000, BIC COBADEFFXXX",
          {IBAN, "DE89370400440532013000"});
    FOUND(RP_SCAN_BIT(IBAN), "pay to GB82 WEST 1234 5698 7654 32 today",
          {IBAN, "GB82 WEST 1234 5698 7654 32"});
    NONE(RP_SCAN_BIT(IBAN), "DE89370400440532013001");
    NONE(RP_SCAN_BIT(IBAN), "XDE89370400440532013000");
    NONE(RP_SCAN_BIT(IBAN), "DE893704004405320130001");
    NONE(RP_SCAN_BIT(IBAN), "sha ab12cdef3456abcd7890ef");
    NONE(DEFAULT, "DE89370400440532013000"); /* opt-in */
}

static void test_ip_address(void **state)
{
    (void)state;
    rp_scan_set ip = RP_SCAN_BIT(IP);
    FOUND(ip, "dns 8.8.8.8 and 1.1.1.1.", {IP, "8.8.8.8"}, {IP, "1.1.1.1"});
    FOUND(ip, "8.8.8.8:53", {IP, "8.8.8.8"});
    FOUND(ip, "route 9.9.9.0/24", {IP, "9.9.9.0"});
    WHOLE(IP, "2001:4860:4860::8888");
    FOUND(ip, "[2606:4700::1111]:443", {IP, "2606:4700::1111"});
    FOUND(ip, "addr 2001:4860:4860::8888: up", {IP, "2001:4860:4860::8888"});
    FOUND(ip, "mapped ::ffff:8.8.8.8 here", {IP, "::ffff:8.8.8.8"});
    NONE(ip, "10.0.0.1 192.168.1.1 127.0.0.1 169.254.1.1 192.0.2.1 0.0.0.0");
    NONE(ip, "::1 fe80::1 fd00::1 2001:db8::1 ::");
    FOUND_PRIVATE(ip, "10.0.0.1 and ::1", {IP, "10.0.0.1"}, {IP, "::1"});
    FOUND_PRIVATE(ip, "[2001:db8::1]:443", {IP, "2001:db8::1"});
    FOUND_PRIVATE(ip, "fe80::1%eth0", {IP, "fe80::1"});
    NONE(ip, "1.2.3.4.5");
    NONE(ip, "v1.2.3.4");
    NONE(ip, "8.8.8.8-beta");
    NONE(ip, "256.1.1.1");
    NONE_PRIVATE(ip, "std::vector<int> v; std::cerr << a::b; Foo::Bar::baz();");
    NONE_PRIVATE(ip, "at 12:30:45, mac 00:1a:2b:3c:4d:5e");
    NONE(DEFAULT, "8.8.8.8"); /* opt-in */
}

static void test_passport_us(void **state)
{
    (void)state;
    rp_scan_set pp = RP_SCAN_BIT(PASS);
    FOUND(pp, "Passport number: 123456789", {PASS, "123456789"});
    FOUND(pp, "US passport no. A12345678.", {PASS, "A12345678"});
    FOUND(pp, "PASSPORT #: 912345678", {PASS, "912345678"});
    NONE(pp, "passport 000000000");
    NONE(pp, "passport A00000000");
    NONE(pp, "passport 1234567890");
    NONE(pp, "passport AB12345678");
    NONE(pp, "id 123456789");
    NONE(pp, "passport photos are in the drawer, the tracking id is 123456789");
    FOUND(pp, "Reisepass (USA): 601284735", {PASS, "601284735"});
    FOUND(pp, "traveler,passport\nJ. Smith,725019384", {PASS, "725019384"});
    NONE(DEFAULT, "Passport number: 123456789"); /* opt-in */
}

static void test_date_of_birth(void **state)
{
    (void)state;
    rp_scan_set d = RP_SCAN_BIT(DOB);
    FOUND(d, "DOB: 1985-03-12", {DOB, "1985-03-12"});
    FOUND(d, "date of birth 03/12/1985.", {DOB, "03/12/1985"});
    FOUND(d, "Date of Birth: 31/12/1985", {DOB, "31/12/1985"});
    FOUND(d, "born on 12 March 1985 in Lyon", {DOB, "12 March 1985"});
    FOUND(d, "Birthday: March 12, 1985", {DOB, "March 12, 1985"});
    FOUND(d, "Geburtsdatum: 12.03.1985", {DOB, "12.03.1985"});
    FOUND(d, "birth date 29 Feb 2000", {DOB, "29 Feb 2000"});
    FOUND(d, "d.o.b. 1/2/1990", {DOB, "1/2/1990"});
    FOUND(d, "{\"name\": \"Ana\", \"date_of_birth\": \"1992-11-30\"}", {DOB, "1992-11-30"});
    FOUND(d, "Date de naissance : 03/02/1990", {DOB, "03/02/1990"});
    FOUND(d, "Fecha de nacimiento: 21/06/1988", {DOB, "21/06/1988"});
    FOUND(d,
          "\xe7\x94\x9f\xe5\xb9\xb4\xe6\x9c\x88\xe6\x97\xa5\xef\xbc\x9a"
          "1983-05-20",
          {DOB, "1983-05-20"});
    NONE(d, "DOB 1985-02-30");
    NONE(d, "DOB 1899-01-01");
    NONE(d, "DOB 29 Feb 1900");
    NONE(d, "released 1985-03-12");
    NONE(d, "born in 1985");
    NONE(DEFAULT, "DOB: 1985-03-12"); /* opt-in */
}

/* ---- the reference's texts (deny_pii_in_llm_request vectors) ---- */

static void test_reference_texts(void **state)
{
    (void)state;
    static const struct {
        rp_scan_set types;
        const char *text;
        bool found;
    } cases[] = {
        {DEFAULT, "Customer SSN is 123-45-6789, handle with care.", true},
        {DEFAULT, "Contact alice@example.com for support.", true},
        {DEFAULT, "Call the user at +81 3-1234-5678.", true},
        {DEFAULT, "You are a helpful coding assistant.", false},
        {DEFAULT, "my email is tomu.hirata@gmail.com", true},
        {DEFAULT, "write me a hello world program", false},
        {DEFAULT, "my SSN is 123-45-6789", true},
        {DEFAULT, "You are a helpful assistant.", false},
        {DEFAULT, "my email is tomu.hirata@gmai.com", true},
        {RP_SCAN_BIT(SSN), "SSN is 123-45-6789", true},
        {RP_SCAN_BIT(SSN), "Contact alice@example.com", false},
        {DEFAULT, "Email: alice@test.com", true},
        {DEFAULT, "The number is 123-45-6789.", true},
        {DEFAULT, "The number is 999-99-9999.", false}, /* rampart: no such SSN */
        {DEFAULT, "print this file", false},
        {DEFAULT, "cc 4111 1111 1111 1111", true},
        {DEFAULT, "summarize this", false},
        {DEFAULT, "no pii here", false},
        {DEFAULT, "0123 456 789", true},
        {DEFAULT, "version 2024-01-01", false},
        {DEFAULT, "x@y", false},
        {DEFAULT, "A@B.COM", true},
        {RP_SCAN_BIT(SSN), "mail a@b.com", false},
        {DEFAULT, "mail a@b.com", true},
        {DEFAULT, "hello", false},
        {DEFAULT, "id,ssn\n1,123-45-6789", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rp_arena a = {0};
        rp_scan_result r;
        assert_int_equal(rp_scanner_scan(scanner_for(cases[i].types, false), &a, cases[i].text,
                                         strlen(cases[i].text), &r),
                         0);
        if ((r.n > 0) != cases[i].found) {
            print_findings(cases[i].text, strlen(cases[i].text), &r);
            fail_msg("'%s': want %s", cases[i].text, cases[i].found ? "a finding" : "none");
        }
        rp_arena_free(&a);
    }
}

/* ---- edges ---- */

static void test_edges(void **state)
{
    (void)state;
    /* findings touching both ends of the text, with no byte beyond to look at */
    static const char *const whole[] = {
        "123-45-6789", "4111111111111111", "a@b.co", "415-555-0132", "+14155552671",
    };
    for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++) {
        size_t n = strlen(whole[i]);
        char *exact = malloc(n); /* no NUL after it: ASan sees a read past the end */
        memcpy(exact, whole[i], n);
        rp_arena a = {0};
        rp_scan_result r;
        assert_int_equal(rp_scanner_scan(scanner_for(ALL, true), &a, exact, n, &r), 0);
        if (r.n != 1 || r.findings[0].start != 0 || r.findings[0].end != n) {
            print_findings(exact, n, &r);
            fail_msg("'%s' not found whole", whole[i]);
        }
        rp_arena_free(&a);
        free(exact);
    }
    /* NUL bytes and high bytes around findings */
    static const char nul[] = "\0\xff"
                              "123-45-6789\0alice@example.com\0\xc3\xa9";
    const want w[] = {{SSN, "123-45-6789"}, {EMAIL, "alice@example.com"}};
    check_n(DEFAULT, false, nul, sizeof nul - 1, w, 2, "nul");
    /* a megabyte of digits, of spaced digits and of '@': linear, nothing found */
    size_t big = 1u << 20;
    char *t = malloc(big);
    static const char *const fills[] = {"0123456789", "1 2 3 4 5 ", "@a.", "1.2.3.4.", "ab:"};
    for (size_t f = 0; f < sizeof fills / sizeof fills[0]; f++) {
        size_t m = strlen(fills[f]);
        for (size_t i = 0; i < big; i++)
            t[i] = fills[f][i % m];
        rp_arena a = {0};
        rp_scan_result r;
        assert_int_equal(rp_scanner_scan(scanner_for(ALL, true), &a, t, big, &r), 0);
        if (r.n != 0) {
            print_findings(t, 64, &r);
            fail_msg("fill '%s': %zu findings", fills[f], r.n);
        }
        rp_arena_free(&a);
    }
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ssn),
        cmocka_unit_test(test_credit_card),
        cmocka_unit_test(test_email),
        cmocka_unit_test(test_phone_positives),
        cmocka_unit_test(test_phone_negatives),
        cmocka_unit_test(test_iban),
        cmocka_unit_test(test_ip_address),
        cmocka_unit_test(test_passport_us),
        cmocka_unit_test(test_date_of_birth),
        cmocka_unit_test(test_reference_texts),
        cmocka_unit_test(test_edges),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
