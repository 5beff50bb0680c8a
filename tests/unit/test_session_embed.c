/* test_session_embed.c — the public API in include/rampart.h, as an embedding program uses it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "rampart.h"

static char dir[] = "/tmp/rampart-embed-XXXXXX";
static char config_path[512];

static int setup(void **unused)
{
    (void)unused;
    if (!mkdtemp(dir))
        return -1;
    snprintf(config_path, sizeof(config_path), "%s/rampart.yaml", dir);
    FILE *f = fopen(config_path, "w");
    if (!f)
        return -1;
    fputs("policies:\n"
          "  cap:\n"
          "    type: function\n"
          "    handler: omnigent.policies.builtins.safety.max_tool_calls_per_session\n"
          "    factory_params: {limit: 2}\n",
          f);
    fclose(f);
    return 0;
}

static int teardown(void **unused)
{
    (void)unused;
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd);
}

static const char call[] = "{\"type\":\"tool_call\",\"session_id\":\"s\",\"data\":{\"name\":\"Bash\","
                           "\"arguments\":{\"command\":\"ls\"}}}";

static void test_stateful_counts_across_handles(void **unused)
{
    (void)unused;
    const char *files[] = {config_path};
    char *err = NULL;
    char state[600];
    snprintf(state, sizeof(state), "%s/state", dir);
    for (int i = 0; i < 3; i++) {
        rampart *r = rampart_open(files, 1, state, &err);
        assert_non_null(r);
        char *d = rampart_eval(r, call, strlen(call), &err);
        assert_non_null(d);
        const char *want = i < 2 ? "{\"result\":\"ALLOW\"" : "{\"result\":\"DENY\"";
        assert_int_equal(strncmp(d, want, strlen(want)), 0);
        if (i == 2)
            assert_non_null(strstr(d, "Exceeded 2 tool calls this session"));
        rampart_free(d);
        rampart_close(r);
    }
}

static void test_stateless_uses_event_state(void **unused)
{
    (void)unused;
    const char *files[] = {config_path};
    char *err = NULL;
    rampart *r = rampart_open_flags(files, 1, NULL, RAMPART_STATELESS, &err);
    assert_non_null(r);
    const char ev[] = "{\"type\":\"tool_call\",\"data\":{\"name\":\"x\"},"
                      "\"session_state\":{\"_policy_tool_call_count\":2}}";
    char *d = rampart_eval(r, ev, strlen(ev), &err);
    assert_non_null(d);
    assert_int_equal(strncmp(d, "{\"result\":\"DENY\"", 16), 0);
    rampart_free(d);
    assert_null(rampart_eval(r, "{not json", 9, &err));
    assert_non_null(err);
    rampart_free(err);
    rampart_close(r);
}

static void test_bad_config_reports_every_error(void **unused)
{
    (void)unused;
    char bad[600];
    snprintf(bad, sizeof(bad), "%s/bad.yaml", dir);
    FILE *f = fopen(bad, "w");
    assert_non_null(f);
    fputs("policies:\n  a: {handler: no_such_policy}\n  b: {handler: detect_loop, "
          "factory_params: {window: 0}}\n",
          f);
    fclose(f);
    const char *files[] = {bad};
    char *err = NULL;
    assert_null(rampart_open(files, 1, NULL, &err));
    assert_non_null(err);
    assert_non_null(strstr(err, "no_such_policy"));
    assert_non_null(strstr(err, "window"));
    assert_non_null(strstr(err, "bad.yaml:3"));
    rampart_free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stateful_counts_across_handles),
        cmocka_unit_test(test_stateless_uses_event_state),
        cmocka_unit_test(test_bad_config_reports_every_error),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
