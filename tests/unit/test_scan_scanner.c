/* test_scan_scanner.c — the scanner core: type names, the compiled-database cache, overlap
 * resolution, redaction and concurrent scans. Per-type detection is tested in test_scan_pii.c
 * and test_scan_secrets.c; this file uses only formats whose value is not secret-shaped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scan/normalize.h"
#include "scan/scan.h"

static rp_scanner *open_or_die(rp_scan_set types, const char *cache_dir)
{
    rp_scan_options opt = {.types = types, .cache_dir = cache_dir};
    rp_scanner *s = NULL;
    char err[256] = "";
    int rc = rp_scanner_open(&opt, &s, err, sizeof err);
    if (rc != 0)
        fail_msg("rp_scanner_open: %s", err);
    assert_non_null(s);
    return s;
}

static void test_type_names(void **state)
{
    (void)state;
    for (int t = 0; t < RP_SCAN_N_TYPES; t++) {
        const char *name = rp_scan_type_name((rp_scan_type)t);
        assert_true(name[0] != '\0');
        assert_true(rp_scan_type_label((rp_scan_type)t)[0] != '\0');
        assert_int_equal(rp_scan_type_from_name(name), t);
        assert_int_equal(rp_scan_type_is_secret((rp_scan_type)t), t >= RP_SCAN_FIRST_SECRET);
    }
    assert_int_equal(rp_scan_type_from_name("EMAIL"), RP_SCAN_EMAIL);
    assert_int_equal(rp_scan_type_from_name("nonexistent_type"), -1);
    assert_int_equal(rp_scan_type_from_name(NULL), -1);
    assert_string_equal(rp_scan_type_label(RP_SCAN_SSN), "Social Security Number (US)");
    assert_string_equal(rp_scan_type_label(RP_SCAN_CREDIT_CARD), "Credit Card Number");
    assert_string_equal(rp_scan_type_label(RP_SCAN_EMAIL), "Email Address");
    assert_string_equal(rp_scan_type_label(RP_SCAN_PHONE), "Phone Number");
    assert_string_equal(rp_scan_type_name(RP_SCAN_N_TYPES), "");
    /* The sets partition the types. */
    assert_int_equal(RP_SCAN_PII_ALL & RP_SCAN_SECRETS_ALL, 0);
    assert_int_equal(RP_SCAN_PII_ALL | RP_SCAN_SECRETS_ALL, RP_SCAN_BIT(RP_SCAN_N_TYPES) - 1u);
    assert_int_equal(RP_SCAN_PII_DEFAULT & ~RP_SCAN_PII_ALL, 0);
}

static void test_default_cache_dir(void **state)
{
    (void)state;
    char buf[256];
    setenv("RAMPART_CACHE_DIR", "/tmp/rc", 1);
    assert_string_equal(rp_scan_default_cache_dir(buf, sizeof buf), "/tmp/rc");
    unsetenv("RAMPART_CACHE_DIR");
    setenv("XDG_CACHE_HOME", "/x/cache", 1);
    assert_string_equal(rp_scan_default_cache_dir(buf, sizeof buf), "/x/cache/rampart");
    setenv("XDG_CACHE_HOME", "relative", 1); /* not absolute: ignored, as the XDG spec says */
    setenv("HOME", "/home/u", 1);
    assert_string_equal(rp_scan_default_cache_dir(buf, sizeof buf), "/home/u/.cache/rampart");
    unsetenv("XDG_CACHE_HOME");
    unsetenv("HOME");
    assert_string_equal(rp_scan_default_cache_dir(buf, sizeof buf), "");
}

static void test_no_types_finds_nothing(void **state)
{
    (void)state;
    rp_scanner *s = open_or_die(0, "");
    assert_int_equal(rp_scanner_db_source(s), RP_SCAN_DB_NONE);
    rp_arena a = {0};
    rp_scan_result r;
    assert_int_equal(rp_scanner_scan(s, &a, "mail alice@corp.example", 23, &r), 0);
    assert_int_equal(r.n, 0);
    rp_arena_free(&a);
    rp_scanner_free(s);
}

static int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (d == NULL)
        return -1;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n;
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    char path[512];
    if (d == NULL)
        return;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        int n = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (n > 0 && (size_t)n < sizeof path)
            unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

static void scan_expect_email(rp_scanner *s, const char *text, size_t start, size_t end)
{
    rp_arena a = {0};
    rp_scan_result r;
    assert_int_equal(rp_scanner_scan(s, &a, text, strlen(text), &r), 0);
    assert_int_equal(r.n, 1);
    assert_int_equal(r.findings[0].type, RP_SCAN_EMAIL);
    assert_int_equal(r.findings[0].start, start);
    assert_int_equal(r.findings[0].end, end);
    assert_null(strstr(r.findings[0].preview, "alice"));
    rp_arena_free(&a);
}

/* First open compiles and stores; the second loads; a damaged or foreign file is a miss that
 * compiles again; a file others may write is not trusted. */
static void test_cache_round_trip(void **state)
{
    (void)state;
    char dir[] = "/tmp/rampart-scan-cache-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char sub[600];
    snprintf(sub, sizeof sub, "%s/nested/cache", dir); /* created on demand */

    rp_scanner *s = open_or_die(RP_SCAN_BIT(RP_SCAN_EMAIL), sub);
    assert_int_equal(rp_scanner_db_source(s), RP_SCAN_DB_COMPILED);
    rp_scanner_free(s);
    assert_int_equal(count_files(sub), 1);

    s = open_or_die(RP_SCAN_BIT(RP_SCAN_EMAIL), sub);
    assert_int_equal(rp_scanner_db_source(s), RP_SCAN_DB_CACHED);
    scan_expect_email(s, "write to alice@corp.example today", 9, 27);
    rp_scanner_free(s);

    /* Another type set is another key: a second file. */
    s = open_or_die(RP_SCAN_PII_DEFAULT, sub);
    assert_int_equal(rp_scanner_db_source(s), RP_SCAN_DB_COMPILED);
    rp_scanner_free(s);
    assert_int_equal(count_files(sub), 2);

    /* Damage every cached file: each is a miss, recompiled and rewritten. */
    DIR *d = opendir(sub);
    char path[900];
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", sub, e->d_name);
        FILE *f = fopen(path, "r+b");
        assert_non_null(f);
        fseek(f, 100, SEEK_SET);
        fputs("garbage garbage garbage", f);
        fclose(f);
    }
    closedir(d);
    s = open_or_die(RP_SCAN_BIT(RP_SCAN_EMAIL), sub);
    assert_int_equal(rp_scanner_db_source(s), RP_SCAN_DB_COMPILED);
    scan_expect_email(s, "alice@corp.example", 0, 18);
    rp_scanner_free(s);
    s = open_or_die(RP_SCAN_BIT(RP_SCAN_EMAIL), sub);
    assert_int_equal(rp_scanner_db_source(s), RP_SCAN_DB_CACHED);
    rp_scanner_free(s);

    /* Group-writable: not trusted. */
    d = opendir(sub);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", sub, e->d_name);
        chmod(path, 0660);
    }
    closedir(d);
    s = open_or_die(RP_SCAN_BIT(RP_SCAN_EMAIL), sub);
    assert_int_equal(rp_scanner_db_source(s), RP_SCAN_DB_COMPILED);
    rp_scanner_free(s);

    /* No cache: always compiled, nothing written. */
    s = open_or_die(RP_SCAN_BIT(RP_SCAN_EMAIL), "");
    assert_int_equal(rp_scanner_db_source(s), RP_SCAN_DB_COMPILED);
    rp_scanner_free(s);

    /* An unusable cache directory (a file in the way) is not an error. */
    char blocked[700];
    snprintf(blocked, sizeof blocked, "%s/file", dir);
    FILE *f = fopen(blocked, "w");
    fclose(f);
    snprintf(path, sizeof path, "%s/file/sub", dir);
    s = open_or_die(RP_SCAN_BIT(RP_SCAN_EMAIL), path);
    assert_int_equal(rp_scanner_db_source(s), RP_SCAN_DB_COMPILED);
    rp_scanner_free(s);
    unlink(blocked);

    remove_dir(sub);
    snprintf(path, sizeof path, "%s/nested", dir);
    rmdir(path);
    rmdir(dir);
}

/* A finding contained in a longer one of another type goes; equal spans keep the earlier
 * type; the output is sorted. Exercised through redaction, whose input is any finding list. */
static void test_scan_redact(void **state)
{
    (void)state;
    rp_arena a = {0};
    const char *text = "call 415-555-0132 or mail bob@corp.example now";
    rp_scan_finding f[2] = {
        {.type = RP_SCAN_PHONE, .start = 5, .end = 17},
        {.type = RP_SCAN_EMAIL, .start = 26, .end = 42},
    };
    size_t n = 0;
    char *out = rp_scan_redact(&a, text, strlen(text), f, 2, &n);
    assert_string_equal(out, "call [REDACTED:phone] or mail [REDACTED:email] now");
    assert_int_equal(n, strlen(out));

    /* Overlapping spans merge into one marker, named after the first. */
    rp_scan_finding g[2] = {
        {.type = RP_SCAN_URL_PASSWORD, .start = 0, .end = 10},
        {.type = RP_SCAN_EMAIL, .start = 5, .end = 14},
    };
    out = rp_scan_redact(&a, "0123456789abcdef", 16, g, 2, &n);
    assert_string_equal(out, "[REDACTED:url_password]ef");

    /* No findings: the text as it was; a span at the very end. */
    out = rp_scan_redact(&a, "plain", 5, NULL, 0, &n);
    assert_string_equal(out, "plain");
    rp_scan_finding h = {.type = RP_SCAN_SSN, .start = 3, .end = 5};
    out = rp_scan_redact(&a, "ab 12", 5, &h, 1, &n);
    assert_string_equal(out, "ab [REDACTED:ssn]");
    rp_arena_free(&a);
}

static void test_overlaps_resolved(void **state)
{
    (void)state;
    rp_scanner *s = open_or_die(RP_SCAN_PII_DEFAULT, "");
    rp_arena a = {0};
    rp_scan_result r;
    /* Two addresses, one line: two findings in order. */
    const char *text = "cc: alice@corp.example, bob@corp.example";
    assert_int_equal(rp_scanner_scan(s, &a, text, strlen(text), &r), 0);
    assert_int_equal(r.n, 2);
    assert_true(r.findings[0].start < r.findings[1].start);
    assert_int_equal(r.findings[0].start, 4);
    assert_int_equal(r.findings[1].start, 24);
    /* Bytes outside ASCII and NULs around a finding are harmless. */
    const char odd[] = "\xff\xfe\0alice@corp.example\0\xc3\xa9";
    assert_int_equal(rp_scanner_scan(s, &a, odd, sizeof odd - 1, &r), 0);
    assert_int_equal(r.n, 1);
    assert_int_equal(r.findings[0].start, 3);
    rp_arena_free(&a);
    rp_scanner_free(s);
}

static void test_unicode_digit_values(void **state)
{
    (void)state;
    assert_int_equal(rp_unicode_digit_value('7'), -1);   /* ASCII is not folded: it is already */
    assert_int_equal(rp_unicode_digit_value(0xff10), 0); /* FULLWIDTH DIGIT ZERO */
    assert_int_equal(rp_unicode_digit_value(0xff19), 9);
    assert_int_equal(rp_unicode_digit_value(0xff1a), -1); /* FULLWIDTH COLON */
    assert_int_equal(rp_unicode_digit_value(0x663), 3);   /* ARABIC-INDIC DIGIT THREE */
    assert_int_equal(rp_unicode_digit_value(0x96f), 9);   /* DEVANAGARI DIGIT NINE */
    assert_int_equal(rp_unicode_digit_value(0x1d7ff), 9); /* MATHEMATICAL MONOSPACE NINE */
    assert_int_equal(rp_unicode_digit_value(0x1fbf9), 9); /* SEGMENTED DIGIT NINE */
    assert_int_equal(rp_unicode_digit_value(0x1fbfa), -1);
    assert_int_equal(rp_unicode_digit_value(0xb2), -1); /* SUPERSCRIPT TWO: No, not Nd */
    assert_int_equal(rp_unicode_digit_value(0x80), -1);

    rp_arena a = {0};
    rp_digit_fold f;
    assert_false(rp_fold_unicode_digits(&a, "plain 123 text, caf\xc3\xa9", 21, &f));
    /* Fullwidth 4 (EF BC 94), Arabic-Indic 3 (D9 A3), an e-acute kept whole, a stray byte. */
    const char t[] = "a\xef\xbc\x94-\xd9\xa3\xc3\xa9\xff!";
    assert_true(rp_fold_unicode_digits(&a, t, sizeof t - 1, &f));
    assert_int_equal(f.len, 8);
    assert_memory_equal(f.text, "a4-3\xc3\xa9\xff!", 8);
    size_t want[] = {0, 1, 4, 5, 7, 8, 9, 10, 11};
    for (size_t i = 0; i <= f.len; i++)
        assert_int_equal(f.origin[i], want[i]);
    rp_arena_free(&a);
}

/* A finding in Unicode digits maps back to the original bytes. */
static void test_unicode_digits_found(void **state)
{
    (void)state;
    rp_scanner *s = open_or_die(RP_SCAN_BIT(RP_SCAN_EMAIL), "");
    rp_arena a = {0};
    rp_scan_result r;
    const char t[] = "to user\xd9\xa3@corp.example!"; /* user + ARABIC-INDIC THREE */
    assert_int_equal(rp_scanner_scan(s, &a, t, sizeof t - 1, &r), 0);
    assert_int_equal(r.n, 1);
    assert_int_equal(r.findings[0].start, 3);
    assert_int_equal(r.findings[0].end, sizeof t - 2);
    size_t n;
    assert_string_equal(rp_scan_redact(&a, t, sizeof t - 1, r.findings, r.n, &n),
                        "to [REDACTED:email]!");
    rp_arena_free(&a);
    rp_scanner_free(s);
}

typedef struct worker {
    rp_scanner *s;
    int found;
    int failed;
} worker;

static void *scan_many(void *p)
{
    worker *w = p;
    rp_arena a = {0};
    char text[256];
    for (int i = 0; i < 2000; i++) {
        int k = snprintf(text, sizeof text, "line %d: contact user%d@corp.example please", i, i);
        rp_scan_result r;
        if (rp_scanner_scan(w->s, &a, text, (size_t)k, &r) != 0)
            w->failed++;
        w->found += (int)r.n;
        rp_arena_reset(&a);
    }
    rp_arena_free(&a);
    return NULL;
}

/* One scanner, four threads: each scan gets a scratch of its own (the shared one or a clone). */
static void test_concurrent_scans(void **state)
{
    (void)state;
    rp_scanner *s = open_or_die(RP_SCAN_PII_DEFAULT, "");
    pthread_t t[4];
    worker w[4];
    for (int i = 0; i < 4; i++) {
        w[i] = (worker){.s = s};
        assert_int_equal(pthread_create(&t[i], NULL, scan_many, &w[i]), 0);
    }
    for (int i = 0; i < 4; i++) /* all joined before any assertion can leave this frame */
        pthread_join(t[i], NULL);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(w[i].failed, 0);
        assert_int_equal(w[i].found, 2000);
    }
    rp_scanner_free(s);
}

/* More findings than RP_SCAN_MAX_FINDINGS: the first ones, flagged truncated. */
static void test_truncated(void **state)
{
    (void)state;
    rp_scanner *s = open_or_die(RP_SCAN_BIT(RP_SCAN_EMAIL), "");
    size_t n = 0, cap = (RP_SCAN_MAX_FINDINGS + 10) * 24 + 1;
    char *text = malloc(cap);
    for (int i = 0; i < RP_SCAN_MAX_FINDINGS + 10; i++)
        n += (size_t)snprintf(text + n, cap - n, "u%05d@corp.example ", i);
    rp_arena a = {0};
    rp_scan_result r;
    assert_int_equal(rp_scanner_scan(s, &a, text, n, &r), 0);
    assert_int_equal(r.n, RP_SCAN_MAX_FINDINGS);
    assert_true(r.truncated);
    free(text);
    rp_arena_free(&a);
    rp_scanner_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_type_names),
        cmocka_unit_test(test_default_cache_dir),
        cmocka_unit_test(test_no_types_finds_nothing),
        cmocka_unit_test(test_scan_redact),
        cmocka_unit_test(test_cache_round_trip),
        cmocka_unit_test(test_overlaps_resolved),
        cmocka_unit_test(test_unicode_digit_values),
        cmocka_unit_test(test_unicode_digits_found),
        cmocka_unit_test(test_concurrent_scans),
        cmocka_unit_test(test_truncated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
