/* json_roundtrip.c — reads one JSON document per stdin line and prints, per line, its
 * rp_json_write_sorted() text or ERROR. Used by tests/conformance/json_differential.py to
 * compare rampart's reader and writer with Python's json module. Lines may hold any bytes
 * (including NUL and invalid UTF-8); only '\n' separates them. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"

int main(void)
{
    rp_arena arena;
    rp_arena_init(&arena, 64 * 1024);
    rp_buf out = {0};
    char *line = NULL;
    size_t line_cap = 0;
    ssize_t n;
    while ((n = getline(&line, &line_cap, stdin)) >= 0) {
        size_t len = (size_t)n;
        if (len > 0 && line[len - 1] == '\n')
            len--;
        rp_json_error err;
        rp_json *v = rp_json_parse(&arena, line, len, &err);
        rp_buf_reset(&out);
        if (v)
            rp_json_write_sorted(&out, v);
        else
            rp_buf_puts(&out, "ERROR");
        rp_buf_putc(&out, '\n');
        if (fwrite(out.data, 1, out.len, stdout) != out.len) {
            perror("json_roundtrip: write");
            return 1;
        }
        rp_arena_reset(&arena);
    }
    free(line);
    rp_buf_free(&out);
    rp_arena_free(&arena);
    return ferror(stdin) ? 1 : 0;
}
