/* test_core_sha256.c — FIPS 180-4 / NIST example vectors and incremental hashing, through both
 * block functions (SHA-NI when the CPU has it, and the portable one). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sha256.h"

static void assert_hex(const char *msg, size_t len, const char *expected)
{
    char hex[65];
    rp_sha256_hex(msg, len, hex);
    assert_string_equal(hex, expected);
}

static void test_fips_vectors(void **state)
{
    (void)state;
    assert_hex("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert_hex("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    assert_hex(two_blocks, strlen(two_blocks),
               "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    const char *four_blocks = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                              "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    assert_hex(four_blocks, strlen(four_blocks),
               "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

static void test_million_a(void **state)
{
    (void)state;
    char *m = malloc(1000000);
    memset(m, 'a', 1000000);
    assert_hex(m, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(m);
}

static void test_incremental_equals_one_shot(void **state)
{
    (void)state;
    unsigned char data[300];
    for (int i = 0; i < 300; i++)
        data[i] = (unsigned char)(i * 7 + 3);
    /* Every length around the 55/56/64-byte padding boundaries, fed in uneven pieces. */
    for (size_t len = 0; len <= 300; len++) {
        char one_shot[65];
        rp_sha256_hex(data, len, one_shot);
        rp_sha256 h;
        rp_sha256_init(&h);
        size_t pos = 0, step = 1;
        while (pos < len) {
            size_t take = len - pos < step ? len - pos : step;
            rp_sha256_update(&h, data + pos, take);
            pos += take;
            step = step * 3 % 67 + 1;
        }
        uint8_t digest[32];
        rp_sha256_final(&h, digest);
        char hex[65];
        for (int i = 0; i < 32; i++)
            snprintf(hex + 2 * i, 3, "%02x", digest[i]);
        assert_string_equal(hex, one_shot);
    }
}

static void test_padding_boundaries(void **state)
{
    (void)state;
    /* sha256 of 55, 56 and 64 'a's (python3 hashlib). */
    char a[64];
    memset(a, 'a', sizeof a);
    assert_hex(a, 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    assert_hex(a, 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    assert_hex(a, 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

/* Every length 0..200 (all padding cases, one to four blocks) hashes the same on both paths,
 * one-shot and fed a byte at a time. */
static void test_paths_agree(void **state)
{
    (void)state;
    unsigned char data[200];
    for (int i = 0; i < 200; i++)
        data[i] = (unsigned char)(i * 131 + 17);
    for (size_t len = 0; len <= 200; len++) {
        char fast[65], portable[65];
        rp_sha256_force_portable(false);
        rp_sha256_hex(data, len, fast);
        rp_sha256_force_portable(true);
        rp_sha256_hex(data, len, portable);
        assert_string_equal(fast, portable);

        rp_sha256 h;
        uint8_t digest[32];
        char bytewise[65];
        rp_sha256_init(&h);
        for (size_t i = 0; i < len; i++)
            rp_sha256_update(&h, data + i, 1);
        rp_sha256_final(&h, digest);
        for (int i = 0; i < 32; i++)
            snprintf(bytewise + 2 * i, 3, "%02x", digest[i]);
        assert_string_equal(bytewise, portable);
    }
    rp_sha256_force_portable(false);
}

static int use_cpu_choice(void **state)
{
    (void)state;
    rp_sha256_force_portable(false);
    return 0;
}

static int use_portable(void **state)
{
    (void)state;
    rp_sha256_force_portable(true);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fips_vectors),
        cmocka_unit_test(test_million_a),
        cmocka_unit_test(test_incremental_equals_one_shot),
        cmocka_unit_test(test_padding_boundaries),
        cmocka_unit_test(test_paths_agree),
    };
    printf("SHA-256 block function chosen by CPU: %s\n",
           rp_sha256_accelerated() ? "SHA-NI" : "portable");
    int failed = cmocka_run_group_tests_name("cpu choice", tests, use_cpu_choice, NULL);
    failed += cmocka_run_group_tests_name("portable", tests, use_portable, use_cpu_choice);
    return failed;
}
