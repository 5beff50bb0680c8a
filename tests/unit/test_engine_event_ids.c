/* test_engine_event_ids.c — the one bound on identifier length (RP_ID_MAX): every identifier the event
 * reader exposes is checked, the error names the field and the limit, and a real sub-agent id
 * passes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/arena.h"
#include "core/json.h"
#include "engine/event.h"

/* The event with `field` (a JSON member path written into the template) set to n bytes of 'x'. */
static bool check_event(const char *tmpl, size_t n, char *err, size_t err_size)
{
    static char id[RP_ID_MAX + 2];
    static char json[2 * RP_ID_MAX + 512];
    memset(id, 'x', n);
    id[n] = '\0';
    snprintf(json, sizeof json, tmpl, id);
    rp_arena a = {0};
    rp_json_error e;
    rp_json *root = rp_json_parse(&a, json, strlen(json), &e);
    assert_non_null(root);
    rp_event ev;
    assert_true(rp_event_from_json(root, &ev));
    bool ok = rp_event_check_ids(&ev, err, err_size);
    rp_arena_free(&a);
    return ok;
}

static void test_every_identifier_is_bounded(void **state)
{
    (void)state;
    static const struct {
        const char *tmpl;
        const char *field;
    } cases[] = {
        {"{\"type\":\"tool_call\",\"session_id\":\"%s\"}", "session_id"},
        {"{\"type\":\"tool_call\",\"context\":{\"parent_session_id\":\"%s\"}}",
         "parent_session_id"},
        {"{\"type\":\"tool_call\",\"context\":{\"root_session_id\":\"%s\"}}", "root_session_id"},
        {"{\"type\":\"tool_call\",\"context\":{\"user\":\"%s\"}}", "context.user"},
        {"{\"type\":\"tool_call\",\"context\":{\"actor\":{\"run_as\":\"%s\"}}}", "context.user"},
        {"{\"type\":\"tool_call\",\"context\":{\"model\":\"%s\"}}", "context.model"},
        {"{\"type\":\"tool_call\",\"data\":{\"name\":\"%s\"}}", "tool name"},
        {"{\"type\":\"tool_call\",\"target\":\"%s\"}", "tool name"},
        {"{\"type\":\"tool_call\",\"context\":{\"tool_use_id\":\"%s\"}}", "tool_use_id"},
        {"{\"type\":\"tool_call\",\"context\":{\"host\":\"%s\"}}", "context.host"},
        {"{\"type\":\"tool_call\",\"context\":{\"harness\":\"%s\"}}", "context.harness"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[256] = "";
        assert_true(check_event(cases[i].tmpl, RP_ID_MAX, err, sizeof err));
        assert_false(check_event(cases[i].tmpl, RP_ID_MAX + 1, err, sizeof err));
        assert_non_null(strstr(err, cases[i].field));
        assert_non_null(strstr(err, "513 bytes long"));
        assert_non_null(strstr(err, "limited to 512 bytes"));
    }
}

static void test_real_ids_pass(void **state)
{
    (void)state;
    char err[256] = "";
    assert_true(rp_id_check("session_id", "9f6c2f0e-6a4b-4a3c-9d1e-2b7f0c1a5e44/agent/a1b2c3d4e5f6",
                            err, sizeof err));
    assert_true(rp_id_check("session_id", NULL, err, sizeof err));
    assert_string_equal(err, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_identifier_is_bounded),
        cmocka_unit_test(test_real_ids_pass),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
