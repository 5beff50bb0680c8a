/* test_cel_limits.c — CEL evaluation stays linear and bounded on big inputs: map/filter/exists
 * and transformMap over a 200,000-element JSON list (quadratic accumulation would not finish),
 * values kept while an accumulator grows in place, big map literals with a hash index, long
 * needles in indexOf/lastIndexOf, and the memory limit (string doubling, replace squaring,
 * big concatenations in a loop) returning "evaluation memory limit exceeded". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cel/cel.h"
#include "cel/eval.h"

#define BIG_N 200000

typedef struct fixture {
    rp_arena a; /* the event */
    rp_json *event;
} fixture;

/* {"items": [0, 1, ..., n-1], "big": "xxx..." (big_len bytes), "small": [0, ..., 299],
 *  "obj": {"k0": 0, ..., "k99999": 99999}} */
static rp_json *make_event(rp_arena *a, uint32_t n, size_t big_len)
{
    rp_buf b = {0};
    rp_buf_puts(&b, "{\"items\": [");
    for (uint32_t i = 0; i < n; i++)
        rp_buf_printf(&b, "%s%u", i ? "," : "", i);
    rp_buf_puts(&b, "], \"small\": [");
    for (uint32_t i = 0; i < 300; i++)
        rp_buf_printf(&b, "%s%u", i ? "," : "", i);
    rp_buf_puts(&b, "], \"obj\": {");
    for (uint32_t i = 0; i < 100000; i++)
        rp_buf_printf(&b, "%s\"k%u\": %u", i ? "," : "", i, i);
    rp_buf_puts(&b, "}, \"big\": \"");
    for (size_t i = 0; i < big_len; i++)
        rp_buf_putc(&b, 'x');
    rp_buf_puts(&b, "\"}");
    rp_json_error err;
    rp_json *j = rp_json_parse(a, b.data, b.len, &err);
    rp_buf_free(&b);
    if (!j)
        fail_msg("bad event");
    return j;
}

static cel_program *compile(const char *src)
{
    cel_program *p = NULL;
    cel_source_error err;
    if (cel_compile(src, strlen(src), NULL, &p, &err) != 0)
        fail_msg("compile error for %.200s: %d:%d %s", src, err.line, err.col, err.message);
    return p;
}

/* Evaluates src with `event` bound; the value lives in *out_arena. */
static cel_value eval_in(const char *src, const rp_json *event, rp_arena *out_arena)
{
    cel_program *p = compile(src);
    cel_binding b[] = {{"event", cel_from_json(event)}};
    cel_activation act = {b, 1, NULL, NULL};
    cel_value v = cel_eval(p, &act, out_arena);
    cel_program_free(p);
    return v;
}

static void expect(const char *src, const rp_json *event, const char *expected)
{
    rp_arena a = {0};
    cel_value v = eval_in(src, event, &a);
    rp_buf out = {0};
    cel_value_format(&out, &v);
    if (strcmp(out.data, expected) != 0)
        fail_msg("%.200s\n  got      %.300s\n  expected %s", src, out.data, expected);
    rp_buf_free(&out);
    rp_arena_free(&a);
}

static void expect_memory_error(const char *src, const rp_json *event)
{
    rp_arena a = {0};
    cel_value v = eval_in(src, event, &a);
    if (v.kind != CEL_ERROR || strcmp(v.v.err->message, "evaluation memory limit exceeded") != 0) {
        rp_buf out = {0};
        cel_value_format(&out, &v);
        fail_msg("%.200s\n  got      %.300s\n  expected the memory limit error", src, out.data);
    }
    /* The limit is enforced on the arena: it grew by about the limit, not by the request. */
    assert_true(a.total < 3 * (size_t)CEL_DEFAULT_MEMORY_LIMIT);
    rp_arena_free(&a);
}

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->event = make_event(&f->a, BIG_N, 1 << 20);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    rp_arena_free(&f->a);
    free(f);
    return 0;
}

static void test_big_comprehensions(void **state)
{
    const fixture *f = *state;
    rp_arena a = {0};
    cel_value v = eval_in("event.items.map(x, x * 2)", f->event, &a);
    assert_int_equal(v.kind, CEL_LIST);
    assert_int_equal(cel_list_size(&v), BIG_N);
    for (uint32_t i = 0; i < BIG_N; i++) {
        cel_value e = cel_list_at(&v, i);
        assert_int_equal(e.kind, CEL_INT);
        assert_int_equal(e.v.i, 2 * (int64_t)i);
    }
    rp_arena_reset(&a);
    v = eval_in("event.items.filter(x, x % 3 == 0)", f->event, &a);
    assert_int_equal(v.kind, CEL_LIST);
    assert_int_equal(cel_list_size(&v), (BIG_N + 2) / 3);
    for (uint32_t i = 0; i < cel_list_size(&v); i++)
        assert_int_equal(cel_list_at(&v, i).v.i, 3 * (int64_t)i);
    rp_arena_reset(&a);
    v = eval_in("event.items.map(x, x % 2 == 0, x + 1)", f->event, &a);
    assert_int_equal(cel_list_size(&v), BIG_N / 2);
    assert_int_equal(cel_list_at(&v, BIG_N / 2 - 1).v.i, BIG_N - 1);
    rp_arena_free(&a);
    expect("event.items.exists(x, x == 199999)", f->event, "true");
    expect("event.items.exists(x, x == -1)", f->event, "false");
    expect("event.items.all(x, x >= 0)", f->event, "true");
    expect("event.items.exists_one(x, x == 4)", f->event, "true");
    expect("event.items.map(x, [x])[199999]", f->event, "[199999]");
    expect("event.items.transformList(i, v, i + v)[199999]", f->event, "399998");
    /* transformMap: a 200,000-entry map, built by in-place inserts with a hash index. */
    expect("cel.bind(m, event.items.transformMap(i, v, v * 3), "
           "[size(m), m[123456], m[123456u], m[123456.0], 200000 in m, m[0]])",
           f->event, "[200000, 370368, 370368, 370368, false, 0]");
    expect("event.items.transformMapEntry(i, v, {string(v): i})['199999']", f->event, "199999");
    expect("event.items.transformMapEntry(i, v, {v % 100000: i})", f->event,
           "error: Failed with repeated key: 0");
    /* Joining a big list of strings and building a big string stay linear. */
    expect("size(event.items.map(x, string(x)).join(','))", f->event, "1288889");
}

static void test_nested_and_kept(void **state)
{
    const fixture *f = *state;
    expect("[[1, 2], [3, 4, 5]].map(l, l.map(x, x * 10))", NULL, "[[10, 20], [30, 40, 50]]");
    expect("[1, 2, 3].map(x, [1, 2, 3].filter(y, y >= x))", NULL, "[[1, 2, 3], [2, 3], [3]]");
    expect("[1, 2].map(x, [3, 4].map(y, [5, 6].map(z, x * 100 + y * 10 + z)))", NULL,
           "[[[135, 136], [145, 146]], [[235, 236], [245, 246]]]");
    /* 300 x 300 nested: each inner accumulator grows in place independently. */
    expect("cel.bind(r, event.small.map(x, event.small.map(y, x * 1000 + y)), "
           "[size(r), size(r[299]), r[0][0], r[1][2], r[299][299], "
           "r.all(l, size(l) == 300), r.map(l, l[5])[7]])",
           f->event, "[300, 300, 0, 1002, 299299, true, 7005]");
    /* An intermediate list kept by cel.bind keeps its contents while another value appends
     * after it: the second append from the same list copies. */
    expect("cel.bind(a, [1, 2, 3].map(x, x), cel.bind(b, a + [4], cel.bind(c, a + [5], "
           "cel.bind(d, b + [6], cel.bind(e, b + [7], [a, b, c, d, e, d + e])))))",
           NULL,
           "[[1, 2, 3], [1, 2, 3, 4], [1, 2, 3, 5], [1, 2, 3, 4, 6], [1, 2, 3, 4, 7], "
           "[1, 2, 3, 4, 6, 1, 2, 3, 4, 7]]");
    expect("cel.bind(a, event.small.map(x, x), cel.bind(b, a + a, cel.bind(c, a + [7], "
           "[size(a), a[299], size(b), b[300], b[599], size(c), c[300]])))",
           f->event, "[300, 299, 600, 0, 299, 301, 7]");
    /* A list appended to itself. */
    expect("cel.bind(a, [1] + [2], cel.bind(b, a + a, [a, b, b + b]))", NULL,
           "[[1, 2], [1, 2, 1, 2], [1, 2, 1, 2, 1, 2, 1, 2]]");
    expect("[[1], [2]].map(l, l + l + l)", NULL, "[[1, 1, 1], [2, 2, 2]]");
}

/* cel_list_concat and cel_map_insert directly: older values see only their prefix. */
static void test_grow_in_place(void **state)
{
    (void)state;
    rp_arena a = {0};
    cel_value one = cel_int(1);
    cel_value l1 = cel_list_new(&a, &one, 1);
    cel_value x = cel_list_concat(&a, &l1, &l1, 0); /* [1, 1] */
    cel_value ys[40];
    ys[0] = x;
    for (int i = 1; i < 40; i++) {
        cel_value e = cel_int(i);
        cel_value li = cel_list_new(&a, &e, 1);
        ys[i] = cel_list_concat(&a, &ys[i - 1], &li, 0);
    }
    cel_value nine = cel_int(99), l99 = cel_list_new(&a, &nine, 1);
    cel_value branch = cel_list_concat(&a, &ys[10], &l99, 0);
    for (int i = 0; i < 40; i++) {
        assert_int_equal(cel_list_size(&ys[i]), 2 + i);
        for (int k = 1; k <= i; k++)
            assert_int_equal(cel_list_at(&ys[i], (uint32_t)(k + 1)).v.i, k);
    }
    assert_int_equal(cel_list_size(&branch), 13);
    assert_int_equal(cel_list_at(&branch, 12).v.i, 99);
    assert_int_equal(cel_list_at(&ys[11], 12).v.i, 11);

    cel_value m = cel_map_new(&a, NULL, NULL, 0), maps[100];
    for (int i = 0; i < 100; i++) {
        cel_value k = cel_int(i), v = cel_int(i * 10);
        maps[i] = m = cel_map_insert(&a, &m, &k, &v, 1, 0);
        assert_int_equal(m.kind, CEL_MAP);
    }
    cel_value k50 = cel_uint(50), v50 = cel_int(-1);
    cel_value dup = cel_map_insert(&a, &maps[60], &k50, &v50, 1, 0);
    assert_int_equal(dup.kind, CEL_ERROR);
    cel_value k150 = cel_int(150);
    cel_value other = cel_map_insert(&a, &maps[30], &k150, &v50, 1, 0);
    for (int i = 0; i < 100; i++) {
        assert_int_equal(cel_map_size(&maps[i]), i + 1);
        for (int k = 0; k < 100; k += 7) {
            cel_value key = cel_int(k), out;
            bool found = cel_map_get(&maps[i], &key, &out);
            assert_int_equal(found, k <= i);
            if (found)
                assert_int_equal(out.v.i, k * 10);
        }
        cel_value out;
        assert_false(cel_map_get(&maps[i], &k150, &out));
    }
    cel_value out;
    assert_true(cel_map_get(&other, &k150, &out));
    assert_int_equal(cel_map_size(&other), 32);
    assert_false(cel_map_get(&other, &(cel_value){.kind = CEL_INT, .v.i = 40}, &out));
    rp_arena_free(&a);
}

static void test_big_maps(void **state)
{
    (void)state;
    rp_buf b = {0};
    rp_buf_puts(&b, "cel.bind(m, {");
    for (int i = 0; i < 3000; i++)
        rp_buf_printf(&b, "%s\"k%d\": %d, %d: %d", i ? ", " : "", i, i, i, -i);
    rp_buf_puts(&b, "}, [size(m), m['k2345'], m[2345], m[2345u], m[2345.0], 'k3000' in m, "
                    "m.?k17, has(m.k2999), m[-1] == 0 || true])");
    expect(b.data, NULL, "[6000, 2345, -2345, -2345, -2345, false, optional.of(17), true, true]");
    rp_buf_free(&b);
    rp_buf_puts(&b, "{");
    for (int i = 0; i < 3000; i++)
        rp_buf_printf(&b, "%d: %d, ", i, i);
    rp_buf_puts(&b, "17u: 1}");
    expect(b.data, NULL, "error: Failed with repeated key: 17u");
    rp_buf_free(&b);
}

static void test_long_needles(void **state)
{
    (void)state;
    /* 'a' * 210000 against 'a' * 100000 + 'b': quadratic searching would take ~10^10 steps. */
    expect("cel.bind(h, 'a'.replace('', 'aaaaaaaaaa').replace('a', 'aaaaaaaaaa')"
           ".replace('a', 'aaaaaaaaaa').replace('a', 'aaaaaaaaaa').replace('a', 'aaaaaaaaaa'), "
           "cel.bind(n, h.substring(0, 100000) + 'b', "
           "[size(h), h.indexOf(n), h.lastIndexOf(n), h.contains(n), h.replace(n, '') == h, "
           "h.split(n).size(), (h + n).lastIndexOf(n), (n + h).indexOf(n), "
           "(n + h).lastIndexOf(n, 150000)]))",
           NULL, "[210000, -1, -1, false, true, 1, 210000, 0, 0]");
    /* Long needles find the right occurrence (first, last, from an offset, across UTF-8). */
    expect("cel.bind(n, 'abcdefghijklmnopqrstuvwxyz', cel.bind(h, 'é' + n + 'xé' + n + 'y' + n, "
           "[h.indexOf(n), h.indexOf(n, 2), h.lastIndexOf(n), h.lastIndexOf(n, 55), "
           "h.lastIndexOf(n, 29), h.lastIndexOf(n, 28), h.lastIndexOf(n, 0), "
           "h.lastIndexOf(n + 'x'), (h + 'é').lastIndexOf('é' + n)]))",
           NULL, "[1, 29, 56, 29, 29, 1, -1, 1, 28]");
    expect("'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'.lastIndexOf('aaaaaaaaaaaaaaaaaaaaa')", NULL,
           "18");
    expect("'xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'.lastIndexOf('aaaaaaaaaaaaaaaaaaaaa', 5)",
           NULL, "5");
}

static void test_memory_limit(void **state)
{
    const fixture *f = *state;
    /* Doubling a string per level: 2^40 bytes at the end. */
    rp_buf b = {0};
    rp_buf_puts(&b, "cel.bind(a0, 'xxxxxxxxxxxxxxxx', ");
    for (int i = 1; i <= 40; i++)
        rp_buf_printf(&b, "cel.bind(a%d, a%d + a%d, ", i, i - 1, i - 1);
    rp_buf_puts(&b, "size(a40)");
    for (int i = 0; i <= 40; i++)
        rp_buf_putc(&b, ')');
    expect_memory_error(b.data, f->event);
    rp_buf_free(&b);
    /* The same with lists. */
    rp_buf_puts(&b, "cel.bind(a0, [1, 2, 3, 4], ");
    for (int i = 1; i <= 40; i++)
        rp_buf_printf(&b, "cel.bind(a%d, a%d + a%d, ", i, i - 1, i - 1);
    rp_buf_puts(&b, "size(a40)");
    for (int i = 0; i <= 40; i++)
        rp_buf_putc(&b, ')');
    expect_memory_error(b.data, f->event);
    rp_buf_free(&b);
    /* replace squares the length: 100 -> 10^4 -> 10^8. */
    expect_memory_error("cel.bind(s0, 'xxxxxxxxxx'.replace('x', 'xxxxxxxxxx'), "
                        "cel.bind(s1, s0.replace('x', s0), cel.bind(s2, s1.replace('x', s1), "
                        "size(s2))))",
                        f->event);
    expect_memory_error("event.big.replace('', event.big)", f->event);
    /* big + big in a loop: 2 MB per iteration. */
    expect_memory_error("event.small.map(x, event.big + event.big)", f->event);
    expect_memory_error("size(event.small.map(x, event.big + event.big)) > 0 || true", f->event);
    expect_memory_error("event.small.map(x, event.big).join('')", f->event);
    expect_memory_error("event.small.map(x, [event.big].map(y, y + 'a'))", f->event);
    expect_memory_error("'%s%s%s%s%s%s%s%s%s%s'.format([event.big, event.big, event.big, "
                        "event.big, event.big, event.big, event.big, event.big, event.big, "
                        "event.big]).replace('x', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx')",
                        f->event);
    /* Below the limit nothing changes. */
    expect("size(event.small.map(x, event.big)) + size(event.big + event.big)", f->event,
           "2097452");
    expect("size(event.big.replace('x', 'yy'))", f->event, "2097152");
    /* An explicit limit. */
    cel_program *p = compile("size(event.big + 'a')");
    cel_binding bind[] = {{"event", cel_from_json(f->event)}};
    cel_activation act = {bind, 1, NULL, NULL};
    rp_arena a = {0};
    cel_value v = cel_eval_limits(p, &act, &a, 0, 1 << 19);
    assert_int_equal(v.kind, CEL_ERROR);
    assert_string_equal(v.v.err->message, "evaluation memory limit exceeded");
    rp_arena_reset(&a);
    v = cel_eval_limits(p, &act, &a, 0, 4 << 20);
    assert_int_equal(v.kind, CEL_INT);
    assert_int_equal(v.v.i, (1 << 20) + 1);
    /* The limit is on growth during this evaluation, not on what the arena already held. */
    (void)rp_arena_alloc(&a, 8 << 20);
    v = cel_eval_limits(p, &act, &a, 0, 4 << 20);
    assert_int_equal(v.kind, CEL_INT);
    rp_arena_free(&a);
    cel_program_free(p);
}

static void expect_budget_error(const char *src, const rp_json *event)
{
    expect(src, event, "error: evaluation budget exceeded");
}

/* Linear work inside a loop is charged to the iteration budget, so that it is bounded like the
 * nested loop it amounts to (each of these would take from tens of seconds to hours). */
static void test_work_budget(void **state)
{
    const fixture *f = *state;
    expect_budget_error("event.items.exists(x, x in event.items && false)", f->event);
    expect_budget_error("event.items.all(x, !event.big.contains('y'))", f->event);
    expect_budget_error("event.items.all(x, size(event.big) > 0)", f->event);
    expect_budget_error("event.items.all(x, event.big.indexOf('xy') < 0)", f->event);
    expect_budget_error("event.items.all(x, event.items == event.items)", f->event);
    expect_budget_error("event.items.all(x, event.obj.k0 == 0)", f->event);
    expect_budget_error("event.items.all(x, 'k0' in event.obj)", f->event);
    expect_budget_error("event.items.all(x, event.obj['k0'] == 0)", f->event);
    /* Small data in a big loop, and big data outside loops, are not affected. */
    expect("event.items.all(x, x in [1, 2, 3] || x >= 0)", f->event, "true");
    expect("event.items.all(x, event.small[0] == 0 && 'ab'.contains('b'))", f->event, "true");
    expect("[event.big.contains('y'), size(event.big), event.obj.k99999, 'k5' in event.obj, "
           "event.items == event.items, event.items[3] in event.items]",
           f->event, "[false, 1048576, 99999, true, true, true]");
    expect("event.small.filter(x, x < 100).all(x, event.obj.k1 == 1)", f->event, "true");
}

static void test_arena_total(void **state)
{
    (void)state;
    rp_arena a = {0};
    assert_int_equal(a.total, 0);
    (void)rp_arena_alloc(&a, 10);
    size_t first = a.total;
    assert_true(first >= 4096);
    (void)rp_arena_alloc(&a, 1 << 20);
    assert_true(a.total >= first + (1 << 20));
    rp_arena_reset(&a);
    assert_true(a.total >= (1 << 20) && a.total < (1 << 20) + 4096);
    rp_arena_free(&a);
    assert_int_equal(a.total, 0);
    rp_arena_init(&a, 0);
    assert_int_equal(a.total, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arena_total),     cmocka_unit_test(test_grow_in_place),
        cmocka_unit_test(test_nested_and_kept), cmocka_unit_test(test_big_maps),
        cmocka_unit_test(test_long_needles),    cmocka_unit_test(test_big_comprehensions),
        cmocka_unit_test(test_memory_limit),    cmocka_unit_test(test_work_budget),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
