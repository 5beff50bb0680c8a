/* test_cli.c — the command line's own helpers: flag scanning, `--since`, the command table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "cli/cli.h"

#define MINUTE_US (60LL * 1000000LL)

static void test_flag_value_forms(void **state)
{
    (void)state;
    char *argv[] = {"eval", "-c", "a.yaml", "--config=b.yaml", "--config", "c.yaml", "--policy"};
    int argc = 7;
    const char *v = NULL;
    int i = 1;
    assert_int_equal(rp_cli_flag_value(argc, argv, &i, "--config", "-c", &v), 1);
    assert_string_equal(v, "a.yaml");
    assert_int_equal(i, 2); /* left on the value; the caller's loop steps past it */
    i = 3;
    assert_int_equal(rp_cli_flag_value(argc, argv, &i, "--config", "-c", &v), 1);
    assert_string_equal(v, "b.yaml");
    assert_int_equal(i, 3);
    i = 4;
    assert_int_equal(rp_cli_flag_value(argc, argv, &i, "--config", "-c", &v), 1);
    assert_string_equal(v, "c.yaml");
    /* Another flag is not a match; a flag at the end without its value is an error. */
    i = 6;
    assert_int_equal(rp_cli_flag_value(argc, argv, &i, "--config", "-c", &v), 0);
    assert_int_equal(rp_cli_flag_value(argc, argv, &i, "--policy", NULL, &v), -1);
}

static void test_flag_value_needs_exact_name(void **state)
{
    (void)state;
    char *argv[] = {"eval", "--configs", "x", "--config-file=y"};
    const char *v = NULL;
    int i = 1;
    assert_int_equal(rp_cli_flag_value(4, argv, &i, "--config", "-c", &v), 0);
    i = 3;
    assert_int_equal(rp_cli_flag_value(4, argv, &i, "--config", "-c", &v), 0);
}

static void test_since_relative(void **state)
{
    (void)state;
    int64_t now = 1773576000LL * 1000000LL; /* 2026-03-15T12:00:00Z */
    int64_t us = -1;
    assert_int_equal(rp_cli_parse_since("10m", now, &us), 0);
    assert_int_equal(us, now - 10 * MINUTE_US);
    assert_int_equal(rp_cli_parse_since("2h", now, &us), 0);
    assert_int_equal(us, now - 120 * MINUTE_US);
    assert_int_equal(rp_cli_parse_since("7d", now, &us), 0);
    assert_int_equal(us, now - 7 * 24 * 60 * MINUTE_US);
    assert_int_equal(rp_cli_parse_since("30s", now, &us), 0);
    assert_int_equal(us, now - 30 * 1000000LL);
    /* Older than the epoch: everything. */
    assert_int_equal(rp_cli_parse_since("100000w", now, &us), 0);
    assert_int_equal(us, 0);
}

static void test_since_absolute(void **state)
{
    (void)state;
    int64_t us = -1;
    assert_int_equal(rp_cli_parse_since("2026-03-15T12:00:00Z", 0, &us), 0);
    assert_int_equal(us, 1773576000LL * 1000000LL);
}

static void test_since_rejects_garbage(void **state)
{
    (void)state;
    int64_t us;
    const char *bad[] = {"",
                         "m",
                         "10",
                         "10x",
                         "10mm",
                         "-5m",
                         " 5m",
                         "+5m",
                         "5 m",
                         "yesterday",
                         "99999999999999999999d",
                         "9223372036854775807d"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(rp_cli_parse_since(bad[i], 1000000, &us), -1);
    }
}

static void test_command_table(void **state)
{
    (void)state;
    size_t n = 0;
    const rp_cli_command *const *all = rp_cli_commands(&n);
    assert_int_equal(n, 16);
    for (size_t i = 0; i < n; i++) {
        assert_non_null(all[i]->run);
        assert_non_null(strstr(all[i]->usage, "usage: rampart "));
        assert_ptr_equal(rp_cli_find_command(all[i]->name), all[i]);
    }
    assert_null(rp_cli_find_command("nope"));
    assert_null(rp_cli_find_command(""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flag_value_forms),
        cmocka_unit_test(test_flag_value_needs_exact_name),
        cmocka_unit_test(test_since_relative),
        cmocka_unit_test(test_since_absolute),
        cmocka_unit_test(test_since_rejects_garbage),
        cmocka_unit_test(test_command_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
