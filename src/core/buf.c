/* buf.c — growable NUL-terminated byte buffer; see buf.h. */
#include "core/buf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void buf_out_of_memory(size_t size)
{
    fprintf(stderr, "rampart: out of memory (buffer of %zu bytes)\n", size);
    abort();
}

/* Makes room for `extra` more bytes plus the terminating NUL. */
static void buf_grow(rp_buf *b, size_t extra)
{
    if (extra > SIZE_MAX - b->len - 1)
        buf_out_of_memory(SIZE_MAX);
    size_t need = b->len + extra + 1;
    if (b->data && need <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    char *p = realloc(b->data, cap);
    if (!p)
        buf_out_of_memory(cap);
    b->data = p;
    b->cap = cap;
}

/* The common case, room already there, without a call: the writers append many short pieces.
 * (cap > len whenever data is set, so the subtraction cannot wrap.) */
static inline void buf_reserve(rp_buf *b, size_t extra)
{
    if (b->data == NULL || extra >= b->cap - b->len)
        buf_grow(b, extra);
}

void rp_buf_append(rp_buf *b, const void *data, size_t len)
{
    buf_reserve(b, len);
    if (len)
        memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
}

void rp_buf_puts(rp_buf *b, const char *s)
{
    rp_buf_append(b, s, strlen(s));
}

void rp_buf_putc(rp_buf *b, char c)
{
    buf_reserve(b, 1);
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
}

void rp_buf_vprintf(rp_buf *b, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, copy);
    va_end(copy);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        rp_buf_append(b, small, (size_t)n);
        return;
    }
    buf_reserve(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void rp_buf_printf(rp_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rp_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void rp_buf_reset(rp_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

void rp_buf_free(rp_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}

char *rp_buf_take(rp_buf *b)
{
    char *p = b->data;
    if (!p) {
        p = malloc(1);
        if (!p)
            buf_out_of_memory(1);
        p[0] = '\0';
    }
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    return p;
}

char *rp_buf_to_arena(rp_buf *b, rp_arena *a)
{
    char *r = rp_arena_strndup(a, b->data ? b->data : "", b->len);
    rp_buf_free(b);
    return r;
}
