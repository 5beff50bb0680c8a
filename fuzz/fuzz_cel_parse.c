/* fuzz_cel_parse.c — libFuzzer target for the CEL lexer and parser.
 *
 * Every input, with and without optional syntax and macros, must either parse or fail with a
 * message and a position inside the input; a parsed tree must dump without faults. The parser
 * guarantees a bounded tree height, so the recursive dump also checks that bound: a tree too
 * tall would overflow the stack here under ASan. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cel/parse.h"
#include "core/arena.h"
#include "core/buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what, const uint8_t *data, size_t size)
{
    if (ok)
        return;
    fprintf(stderr, "fuzz_cel_parse: %s for input '%.*s'\n", what, (int)size, (const char *)data);
    abort();
}

static void run(const uint8_t *data, size_t size, const cel_parse_opts *opts)
{
    rp_arena arena;
    rp_arena_init(&arena, 4096);
    int64_t next_id = 1;
    cel_source_error err;
    cel_expr *e = cel_parse(&arena, (const char *)data, size, opts, &next_id, &err);
    if (!e) {
        check(err.message[0] != '\0', "error without a message", data, size);
        check(err.line >= 1 && err.col >= 1 && err.offset <= size, "error without a position", data,
              size);
    } else {
        check(e->id >= 1 && e->id < next_id, "root id out of range", data, size);
        rp_buf b = {0};
        cel_expr_dump(&b, e);
        check(b.data != NULL && b.len > 0, "empty dump", data, size);
        rp_buf_free(&b);
    }
    rp_arena_free(&arena);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const cel_parse_opts variants[] = {
        {.disable_macros = false, .enable_optional_syntax = true},
        {.disable_macros = true, .enable_optional_syntax = false},
    };
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++)
        run(data, size, &variants[i]);
    return 0;
}
