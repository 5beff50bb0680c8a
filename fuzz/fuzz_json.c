/* fuzz_json.c — libFuzzer target for the JSON reader and writers.
 *
 * For every input the reader accepts: the compact text must parse again, the second compact
 * text must be byte-identical to the first (writing is a fixed point after one round), the two
 * values must be equal with kinds preserved, and the sorted, Python and clone paths must run
 * clean under ASan/UBSan. Any violation aborts, which libFuzzer reports as a crash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what, const rp_buf *a, const rp_buf *b)
{
    if (ok)
        return;
    fprintf(stderr, "fuzz_json: %s\n  first:  %s\n  second: %s\n", what,
            a && a->data ? a->data : "", b && b->data ? b->data : "");
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rp_arena arena;
    rp_arena_init(&arena, 4096);
    rp_json_error err;
    rp_json *v = rp_json_parse(&arena, (const char *)data, size, &err);
    if (!v) {
        check(err.msg[0] != '\0' && err.line >= 1 && err.col >= 1 && err.offset <= size,
              "parse error without a usable position or message", NULL, NULL);
        rp_arena_free(&arena);
        return 0;
    }

    rp_buf first = {0}, second = {0}, scratch = {0};
    rp_json_write(&first, v);
    rp_json *again = rp_json_parse(&arena, first.data, first.len, &err);
    check(again != NULL, "compact output does not parse", &first, NULL);
    rp_json_write(&second, again);
    check(first.len == second.len && memcmp(first.data, second.data, first.len) == 0,
          "compact output is not a fixed point", &first, &second);
    check(rp_json_equal(v, again, false), "value changed through a write/parse round", &first,
          &second);

    rp_json_write_sorted(&scratch, v);
    check(rp_json_parse(&arena, scratch.data, scratch.len, &err) != NULL,
          "sorted output does not parse", &scratch, NULL);
    rp_buf_reset(&scratch);
    rp_json_write_python(&scratch, v);
    for (size_t i = 0; i < scratch.len; i++)
        check((unsigned char)scratch.data[i] < 0x80, "python output is not ASCII", &scratch, NULL);
    rp_buf_reset(&scratch);

    rp_arena other;
    rp_arena_init(&other, 1024);
    rp_json copy = rp_json_clone(&other, v);
    rp_arena_free(&arena); /* the clone must not depend on the first arena */
    rp_json_write(&scratch, &copy);
    check(scratch.len == first.len && memcmp(scratch.data, first.data, first.len) == 0,
          "clone writes differently", &first, &scratch);

    rp_arena_free(&other);
    rp_buf_free(&first);
    rp_buf_free(&second);
    rp_buf_free(&scratch);
    return 0;
}
