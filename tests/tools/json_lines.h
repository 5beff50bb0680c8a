/* json_lines.h — the input loop the shell tools share (shell_words, shell_commands): one JSON
 * string per stdin line, each handed to emit, the output buffered and written in 64 KiB
 * pieces. Returns the exit status: 0, or 2 (with a message naming prog) on a line that is not
 * a JSON string. */
#ifndef RAMPART_TESTS_TOOLS_JSON_LINES_H
#define RAMPART_TESTS_TOOLS_JSON_LINES_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"

static inline int each_json_string_line(const char *prog,
                                        void (*emit)(rp_buf *out, const char *text, size_t len))
{
    rp_buf out = {0};
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int status = 0;
    while ((n = getline(&line, &cap, stdin)) > 0) {
        rp_arena a = {0};
        rp_json_error err;
        rp_json *v = rp_json_parse(&a, line, (size_t)n, &err);
        if (v == NULL || v->type != RP_JSON_STRING) {
            fprintf(stderr, "%s: line is not a JSON string: %s\n", prog,
                    v == NULL ? err.msg : "another JSON value");
            rp_arena_free(&a);
            status = 2;
            break;
        }
        emit(&out, v->v.s, v->len);
        rp_arena_free(&a);
        if (out.len > 1 << 16) {
            fwrite(out.data, 1, out.len, stdout);
            rp_buf_reset(&out);
        }
    }
    if (status == 0 && out.len)
        fwrite(out.data, 1, out.len, stdout);
    free(line);
    rp_buf_free(&out);
    return status;
}

#endif
