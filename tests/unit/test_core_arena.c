/* test_core_arena.c — the bump allocator and the byte buffer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/buf.h"

static void test_alignment_and_distinct_blocks(void **state)
{
    (void)state;
    rp_arena a;
    rp_arena_init(&a, 256);
    char *prev = NULL;
    for (size_t size = 0; size < 300; size++) {
        char *p = rp_arena_alloc(&a, size);
        assert_int_equal((uintptr_t)p % 16, 0);
        assert_ptr_not_equal(p, prev);
        memset(p, 0xab, size);
        prev = p;
    }
    rp_arena_free(&a);
    assert_null(a.head);
}

static void test_zero_initialised_arena_and_calloc(void **state)
{
    (void)state;
    rp_arena a = {0};
    unsigned char *p = rp_arena_calloc(&a, 1000);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(p[i], 0);
    rp_arena_free(&a);
}

static void test_large_allocations_keep_contents(void **state)
{
    (void)state;
    rp_arena a;
    rp_arena_init(&a, 1024);
    char *small = rp_arena_strdup(&a, "small");
    char *big = rp_arena_alloc(&a, 100000); /* its own chunk */
    memset(big, 'x', 100000);
    char *after = rp_arena_strdup(&a, "after"); /* still fits in the first chunk */
    assert_string_equal(small, "small");
    assert_string_equal(after, "after");
    assert_int_equal(big[99999], 'x');
    rp_arena_free(&a);
}

static void test_realloc_grows_in_place_and_copies(void **state)
{
    (void)state;
    rp_arena a;
    rp_arena_init(&a, 4096);
    char *p = rp_arena_alloc(&a, 16);
    memcpy(p, "0123456789abcde", 16);
    char *q = rp_arena_realloc(&a, p, 16, 64);
    assert_ptr_equal(p, q); /* most recent allocation, room left */
    char *other = rp_arena_alloc(&a, 8);
    (void)other;
    char *r = rp_arena_realloc(&a, q, 64, 128); /* no longer the latest: copied */
    assert_ptr_not_equal(r, q);
    assert_string_equal(r, "0123456789abcde");
    char *s = rp_arena_realloc(&a, r, 128, 100000); /* beyond the chunk */
    assert_string_equal(s, "0123456789abcde");
    char *fresh = rp_arena_realloc(&a, NULL, 0, 10);
    assert_non_null(fresh);
    rp_arena_free(&a);
}

static void test_strings(void **state)
{
    (void)state;
    rp_arena a = {0};
    assert_string_equal(rp_arena_strdup(&a, "hello"), "hello");
    assert_string_equal(rp_arena_strdup(&a, NULL), "");
    char *n = rp_arena_strndup(&a, "abcdef", 3);
    assert_string_equal(n, "abc");
    assert_string_equal(rp_arena_sprintf(&a, "%s-%d-%.1f", "x", 42, 1.5), "x-42-1.5");
    char long_arg[5000];
    memset(long_arg, 'q', sizeof long_arg - 1);
    long_arg[sizeof long_arg - 1] = '\0';
    char *s = rp_arena_sprintf(&a, "<%s>", long_arg);
    assert_int_equal(strlen(s), 5001);
    assert_int_equal(s[0], '<');
    assert_int_equal(s[5000], '>');
    rp_arena_free(&a);
}

static void test_reset_reuses_memory(void **state)
{
    (void)state;
    rp_arena a;
    rp_arena_init(&a, 512);
    for (int round = 0; round < 50; round++) {
        for (int i = 0; i < 200; i++) {
            char *p = rp_arena_sprintf(&a, "item %d of round %d", i, round);
            assert_non_null(p);
        }
        rp_arena_reset(&a);
        assert_non_null(a.head);
    }
    /* After the first rounds, one kept chunk holds a whole round: no new chunk is needed. */
    rp_arena_chunk *kept = a.head;
    for (int i = 0; i < 200; i++)
        rp_arena_sprintf(&a, "item %d of round x", i);
    assert_ptr_equal(a.head, kept);
    rp_arena_free(&a);
    rp_arena_reset(&a); /* on an empty arena */
    rp_arena_free(&a);
}

static void test_buf(void **state)
{
    (void)state;
    rp_buf b = {0};
    rp_buf_reset(&b);
    char *empty = rp_buf_take(&b);
    assert_string_equal(empty, "");
    free(empty);
    rp_buf_puts(&b, "ab");
    rp_buf_putc(&b, 'c');
    rp_buf_append(&b, "d\0e", 3);
    assert_int_equal(b.len, 6);
    assert_memory_equal(b.data, "abcd\0e", 7);
    rp_buf_reset(&b);
    assert_int_equal(b.len, 0);
    assert_string_equal(b.data, "");
    for (int i = 0; i < 1000; i++)
        rp_buf_printf(&b, "%04d", i);
    assert_int_equal(b.len, 4000);
    assert_memory_equal(b.data + 3996, "0999", 5);
    char big[1000];
    memset(big, 'z', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    rp_buf_reset(&b);
    rp_buf_printf(&b, "[%s]", big);
    assert_int_equal(b.len, 1001);
    assert_int_equal(b.data[1001], '\0');
    char *taken = rp_buf_take(&b);
    assert_null(b.data);
    assert_int_equal(b.len, 0);
    assert_int_equal(taken[1000], ']');
    free(taken);
    rp_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alignment_and_distinct_blocks),
        cmocka_unit_test(test_zero_initialised_arena_and_calloc),
        cmocka_unit_test(test_large_allocations_keep_contents),
        cmocka_unit_test(test_realloc_grows_in_place_and_copies),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_reset_reuses_memory),
        cmocka_unit_test(test_buf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
