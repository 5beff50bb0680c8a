/* test_config_yaml.c — the YAML reader: core-schema scalar resolution, source positions,
 * aliases and the alias-bomb cap, duplicate keys, tags, documents, depth. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"
#include "config/yaml_load.h"

typedef struct errors {
    char msgs[8][300];
    size_t n;
} errors;

static void collect(void *self, int line, int col, const char *message)
{
    errors *e = self;
    if (e->n < 8)
        snprintf(e->msgs[e->n++], sizeof e->msgs[0], "%d:%d: %s", line, col, message);
}

static rp_arena A;
static rp_yaml_doc D;
static errors E;

static int setup(void **state)
{
    rp_arena_init(&A, 4096);
    memset(&D, 0, sizeof D);
    memset(&E, 0, sizeof E);
    return 0;
}

static int teardown(void **state)
{
    rp_yaml_doc_free(&D);
    rp_arena_free(&A);
    return 0;
}

static const rp_json *load(const char *yaml)
{
    rp_yaml_doc_free(&D);
    memset(&E, 0, sizeof E);
    size_t n = rp_yaml_load(&A, yaml, strlen(yaml), &D, collect, &E);
    assert_int_equal(n, E.n);
    return D.root;
}

static const char *json_of(const rp_json *v)
{
    return rp_json_to_string(&A, v);
}

static void test_scalar_resolution(void **state)
{
    const rp_json *r = load("a: ~\nb: null\nc: NULL\nd:\ne: true\nf: False\ng: TRUE\n"
                            "h: 42\ni: -7\nj: 0x1F\nk: 0o17\nl: +3\nm: 1.5\nn: 1e3\n"
                            "o: 2.5\np: -.5\nq: 0.0\nr: yes\ns: on\nt: 0777\nu: '42'\n"
                            "v: \"true\"\nw: !!str 12\nx: 1.0\ny: 12abc\nz: |\n  lit\n");
    assert_non_null(r);
    assert_int_equal(E.n, 0);
    assert_int_equal(rp_json_get(r, "a")->type, RP_JSON_NULL);
    assert_int_equal(rp_json_get(r, "b")->type, RP_JSON_NULL);
    assert_int_equal(rp_json_get(r, "c")->type, RP_JSON_NULL);
    assert_int_equal(rp_json_get(r, "d")->type, RP_JSON_NULL);
    assert_true(rp_json_get(r, "e")->v.b);
    assert_false(rp_json_get(r, "f")->v.b);
    assert_int_equal(rp_json_get(r, "g")->type, RP_JSON_BOOL);
    assert_int_equal(rp_json_get(r, "h")->v.i, 42);
    assert_int_equal(rp_json_get(r, "i")->v.i, -7);
    assert_int_equal(rp_json_get(r, "j")->v.i, 31);
    assert_int_equal(rp_json_get(r, "k")->v.i, 15);
    assert_int_equal(rp_json_get(r, "l")->v.i, 3);
    assert_int_equal(rp_json_get(r, "m")->type, RP_JSON_DOUBLE);
    assert_true(rp_json_get(r, "m")->v.d == 1.5);
    assert_true(rp_json_get(r, "n")->v.d == 1000.0);
    assert_true(rp_json_get(r, "o")->v.d == 2.5);
    assert_true(rp_json_get(r, "p")->v.d == -0.5);
    assert_int_equal(rp_json_get(r, "q")->type, RP_JSON_DOUBLE);
    /* .inf and .nan are YAML floats, but no setting means anything with them: errors */
    load("a: .inf\nb: -.Inf\nc: .nan\nd: [1, .NaN]\n");
    assert_int_equal(E.n, 4);
    /* YAML 1.2: yes/on are strings; 0777 is decimal. */
    assert_string_equal(rp_json_get_str(r, "r"), "yes");
    assert_string_equal(rp_json_get_str(r, "s"), "on");
    assert_int_equal(rp_json_get(r, "t")->v.i, 777);
    assert_string_equal(rp_json_get_str(r, "u"), "42");
    assert_string_equal(rp_json_get_str(r, "v"), "true");
    assert_string_equal(rp_json_get_str(r, "w"), "12");
    assert_int_equal(rp_json_get(r, "x")->type, RP_JSON_DOUBLE);
    assert_string_equal(rp_json_get_str(r, "y"), "12abc");
    assert_string_equal(rp_json_get_str(r, "z"), "lit\n");
}

static void test_big_integers(void **state)
{
    const rp_json *r = load("a: 9223372036854775807\nb: 9223372036854775808\n"
                            "c: -9223372036854775808\nd: 99999999999999999999999\n");
    assert_int_equal(rp_json_get(r, "a")->v.i, INT64_MAX);
    assert_int_equal(rp_json_get(r, "b")->type, RP_JSON_UINT);
    assert_int_equal(rp_json_get(r, "c")->v.i, INT64_MIN);
    assert_int_equal(rp_json_get(r, "d")->type, RP_JSON_DOUBLE);
}

static void test_order_and_nesting(void **state)
{
    const rp_json *r = load("z: 1\na: [1, two, {k: v}]\nm:\n  - x\n  - y: 2\n");
    assert_string_equal(json_of(r), "{\"z\":1,\"a\":[1,\"two\",{\"k\":\"v\"}],"
                                    "\"m\":[\"x\",{\"y\":2}]}");
}

static void test_positions(void **state)
{
    const rp_json *r = load("policies:\n  loop:\n    handler: detect_loop\n"
                            "    factory_params: {window: 0}\n");
    int line, col;
    const rp_json_member *pol = &r->v.members[0];
    assert_true(rp_yaml_key_pos(&D, pol, &line, &col));
    assert_int_equal(line, 1);
    assert_int_equal(col, 1);
    const rp_json_member *loop = &pol->value.v.members[0];
    assert_true(rp_yaml_key_pos(&D, loop, &line, &col));
    assert_int_equal(line, 2);
    assert_int_equal(col, 3);
    const rp_json_member *handler = &loop->value.v.members[0];
    assert_true(rp_yaml_pos(&D, &handler->value, &line, &col));
    assert_int_equal(line, 3);
    assert_int_equal(col, 14);
    const rp_json_member *window = &loop->value.v.members[1].value.v.members[0];
    assert_string_equal(window->key, "window");
    assert_true(rp_yaml_key_pos(&D, window, &line, &col));
    assert_int_equal(line, 4);
    assert_int_equal(col, 22);
    assert_true(rp_yaml_pos(&D, &window->value, &line, &col));
    assert_int_equal(col, 30);
    const rp_json unrelated = rp_json_make_null();
    assert_false(rp_yaml_pos(&D, &unrelated, &line, &col));
    assert_int_equal(line, 0);
}

static void test_key_kinds(void **state)
{
    const rp_json *r = load("name: 1\n1: a\ntrue: b\n\"2\": c\n~: d\n");
    assert_int_equal(E.n, 0);
    assert_true(rp_yaml_key_is_string(&D, &r->v.members[0]));
    assert_false(rp_yaml_key_is_string(&D, &r->v.members[1]));
    assert_string_equal(r->v.members[1].key, "1");
    assert_false(rp_yaml_key_is_string(&D, &r->v.members[2]));
    assert_true(rp_yaml_key_is_string(&D, &r->v.members[3]));
    assert_false(rp_yaml_key_is_string(&D, &r->v.members[4]));
}

static void test_aliases(void **state)
{
    const rp_json *r = load("base: &b {window: 3, threshold: 2}\ncopy: *b\n"
                            "list: &l [a, b]\nagain: *l\ns: &s text\nt: *s\n");
    assert_int_equal(E.n, 0);
    assert_string_equal(json_of(rp_json_get(r, "copy")), "{\"window\":3,\"threshold\":2}");
    assert_string_equal(json_of(rp_json_get(r, "again")), "[\"a\",\"b\"]");
    assert_string_equal(rp_json_get_str(r, "t"), "text");
}

static void test_unknown_alias(void **state)
{
    load("a: *nope\n");
    assert_int_equal(E.n, 1);
    assert_string_equal(E.msgs[0], "1:4: unknown alias '*nope'");
}

static void test_alias_bomb_rejected(void **state)
{
    const char *bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
                       "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                       "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                       "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                       "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
                       "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
                       "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n";
    const rp_json *r = load(bomb);
    assert_null(r);
    assert_int_equal(E.n, 1);
    assert_non_null(strstr(E.msgs[0], "document too large: more than 100000 nodes"));
}

static void test_self_alias_rejected(void **state)
{
    /* An anchor is defined only once its node is complete, so a node cannot contain itself. */
    load("a: &a [1, *a]\n");
    assert_int_equal(E.n, 1);
    assert_string_equal(E.msgs[0], "1:11: unknown alias '*a'");
}

static void test_duplicate_keys(void **state)
{
    const rp_json *r = load("a: 1\nb:\n  x: 1\n  x: 2\na: 3\n");
    assert_int_equal(E.n, 2);
    assert_string_equal(E.msgs[0], "4:3: duplicate key 'x' (first defined at line 3)");
    assert_string_equal(E.msgs[1], "5:1: duplicate key 'a' (first defined at line 1)");
    /* The first definition is kept. */
    assert_non_null(r);
    assert_int_equal(rp_json_get(r, "a")->v.i, 1);
    assert_int_equal(r->len, 2);
}

static void test_non_scalar_key(void **state)
{
    load("? [a, b]\n: 1\nok: 2\n");
    assert_int_equal(E.n, 1);
    assert_string_equal(E.msgs[0], "1:3: mapping keys must be strings, not lists");
}

static void test_multiple_documents(void **state)
{
    load("a: 1\n---\nb: 2\n");
    assert_int_equal(E.n, 1);
    assert_string_equal(E.msgs[0],
                        "2:1: more than one YAML document in one file; use one document per file");
}

static void test_empty_documents(void **state)
{
    assert_null(load(""));
    assert_int_equal(E.n, 0);
    assert_null(load("# only a comment\n"));
    assert_int_equal(E.n, 0);
    const rp_json *r = load("---\n...\n");
    assert_int_equal(E.n, 0);
    assert_true(r == NULL || r->type == RP_JSON_NULL);
}

static void test_syntax_error_position(void **state)
{
    load("a: 1\nb: [1, 2\nc: 3\n");
    assert_int_equal(E.n, 1);
    assert_non_null(strstr(E.msgs[0], "YAML syntax error"));
    load("a: 1\n b: 2\n");
    assert_int_equal(E.n, 1);
    assert_int_equal(strncmp(E.msgs[0], "2:", 2), 0);
}

static void test_tags(void **state)
{
    const rp_json *r = load("a: !!int 5\nb: !!float 5\nc: !!bool true\nd: !!null ~\n");
    assert_int_equal(E.n, 0);
    assert_int_equal(rp_json_get(r, "a")->type, RP_JSON_INT);
    assert_int_equal(rp_json_get(r, "b")->type, RP_JSON_DOUBLE);
    load("a: !!int five\n");
    assert_int_equal(E.n, 1);
    assert_string_equal(E.msgs[0], "1:4: 'five' is not a valid !!int");
    load("a: !custom x\n");
    assert_int_equal(E.n, 1);
    assert_string_equal(E.msgs[0], "1:4: unsupported YAML tag '!custom'");
}

static void test_depth_limit(void **state)
{
    rp_buf b = {0};
    for (int i = 0; i < 200; i++)
        rp_buf_putc(&b, '[');
    for (int i = 0; i < 200; i++)
        rp_buf_putc(&b, ']');
    assert_null(load(b.data));
    rp_buf_free(&b);
    assert_int_equal(E.n, 1);
    assert_non_null(strstr(E.msgs[0], "nesting deeper than 64 levels"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_scalar_resolution, setup, teardown),
        cmocka_unit_test_setup_teardown(test_big_integers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_order_and_nesting, setup, teardown),
        cmocka_unit_test_setup_teardown(test_positions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_key_kinds, setup, teardown),
        cmocka_unit_test_setup_teardown(test_aliases, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown_alias, setup, teardown),
        cmocka_unit_test_setup_teardown(test_alias_bomb_rejected, setup, teardown),
        cmocka_unit_test_setup_teardown(test_self_alias_rejected, setup, teardown),
        cmocka_unit_test_setup_teardown(test_duplicate_keys, setup, teardown),
        cmocka_unit_test_setup_teardown(test_non_scalar_key, setup, teardown),
        cmocka_unit_test_setup_teardown(test_multiple_documents, setup, teardown),
        cmocka_unit_test_setup_teardown(test_empty_documents, setup, teardown),
        cmocka_unit_test_setup_teardown(test_syntax_error_position, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tags, setup, teardown),
        cmocka_unit_test_setup_teardown(test_depth_limit, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
