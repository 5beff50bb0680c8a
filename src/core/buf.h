/* buf.h — a growable heap byte buffer, always NUL-terminated. Allocation failure aborts. */
#ifndef RAMPART_CORE_BUF_H
#define RAMPART_CORE_BUF_H

#include <stdarg.h>
#include <stddef.h>

#include "core/arena.h"

typedef struct rp_buf {
    char *data; /* NULL until the first append; then NUL-terminated */
    size_t len;
    size_t cap;
} rp_buf;

void rp_buf_append(rp_buf *b, const void *data, size_t len);
void rp_buf_puts(rp_buf *b, const char *s);
void rp_buf_putc(rp_buf *b, char c);
void rp_buf_printf(rp_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rp_buf_vprintf(rp_buf *b, const char *fmt, va_list ap);
void rp_buf_reset(rp_buf *b); /* len = 0, keeps memory */
void rp_buf_free(rp_buf *b);
/* Hands the bytes to the caller (free() them); the buffer becomes empty. Never NULL. */
char *rp_buf_take(rp_buf *b);
/* Moves the bytes of b into the arena (NUL-terminated) and frees b. Never NULL. */
char *rp_buf_to_arena(rp_buf *b, rp_arena *a);

#endif
