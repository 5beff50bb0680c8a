/* arena.c — bump allocator; see arena.h.
 *
 * Chunks form a list, newest first. Small allocations bump inside the newest chunk; an
 * allocation larger than a quarter of the chunk size gets a chunk of its own, linked behind the
 * newest one so that the free tail of the newest chunk stays usable. On reset the largest chunk
 * is kept: a hot loop then converges on one chunk that holds a whole evaluation and stops
 * calling malloc altogether. */
#include "core/arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_ALIGN         16
#define ARENA_DEFAULT_CHUNK 4096
#define ARENA_MAX_CHUNK     (1024 * 1024)

struct rp_arena_chunk {
    rp_arena_chunk *next;
    size_t size; /* usable bytes after the header */
    size_t used; /* bytes handed out */
    size_t last; /* offset of the most recent allocation, for in-place realloc */
};

/* The header is 32 bytes on LP64, so the data that follows stays 16-byte aligned. */
static size_t header_size(void)
{
    return (sizeof(rp_arena_chunk) + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
}

static unsigned char *chunk_data(rp_arena_chunk *c)
{
    return (unsigned char *)c + header_size();
}

static void out_of_memory(size_t size)
{
    fprintf(stderr, "rampart: out of memory (arena allocation of %zu bytes)\n", size);
    abort();
}

static size_t round_up(size_t size)
{
    if (size > SIZE_MAX - ARENA_ALIGN)
        out_of_memory(size);
    if (size == 0)
        size = 1; /* every allocation gets a distinct address */
    return (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
}

static rp_arena_chunk *chunk_new(rp_arena *a, size_t size)
{
    if (size > SIZE_MAX - header_size())
        out_of_memory(size);
    rp_arena_chunk *c = malloc(header_size() + size);
    if (!c)
        out_of_memory(size);
    c->next = NULL;
    c->size = size;
    c->used = 0;
    c->last = 0;
    a->total += header_size() + size;
    return c;
}

void rp_arena_init(rp_arena *a, size_t first_chunk_size)
{
    a->head = NULL;
    a->chunk_size = first_chunk_size ? first_chunk_size : ARENA_DEFAULT_CHUNK;
    a->total = 0;
}

void *rp_arena_alloc(rp_arena *a, size_t size)
{
    size = round_up(size);
    rp_arena_chunk *c = a->head;
    if (c && c->size - c->used >= size) {
        c->last = c->used;
        c->used += size;
        return chunk_data(c) + c->last;
    }
    if (a->chunk_size == 0)
        a->chunk_size = ARENA_DEFAULT_CHUNK;
    if (c && size > a->chunk_size / 4) {
        /* A big block: its own chunk, behind the current one. */
        rp_arena_chunk *big = chunk_new(a, size);
        big->used = size;
        big->next = c->next;
        c->next = big;
        return chunk_data(big);
    }
    size_t chunk_size = a->chunk_size;
    if (chunk_size < size)
        chunk_size = size;
    rp_arena_chunk *fresh = chunk_new(a, chunk_size);
    fresh->next = c;
    a->head = fresh;
    if (a->chunk_size < ARENA_MAX_CHUNK)
        a->chunk_size *= 2;
    fresh->used = size;
    return chunk_data(fresh);
}

void *rp_arena_calloc(rp_arena *a, size_t size)
{
    void *p = rp_arena_alloc(a, size);
    memset(p, 0, size);
    return p;
}

void *rp_arena_realloc(rp_arena *a, void *old, size_t old_size, size_t new_size)
{
    if (!old)
        return rp_arena_alloc(a, new_size);
    rp_arena_chunk *c = a->head;
    if (c && (unsigned char *)old == chunk_data(c) + c->last) {
        size_t need = round_up(new_size);
        if (c->last + need <= c->size) {
            c->used = c->last + need;
            return old;
        }
    }
    if (new_size <= old_size)
        return old;
    void *p = rp_arena_alloc(a, new_size);
    memcpy(p, old, old_size);
    return p;
}

char *rp_arena_strndup(rp_arena *a, const char *s, size_t n)
{
    char *p = rp_arena_alloc(a, n + 1);
    if (n)
        memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *rp_arena_strdup(rp_arena *a, const char *s)
{
    if (!s)
        s = "";
    return rp_arena_strndup(a, s, strlen(s));
}

char *rp_arena_vsprintf(rp_arena *a, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0)
        return rp_arena_strdup(a, "");
    char *p = rp_arena_alloc(a, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *rp_arena_sprintf(rp_arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = rp_arena_vsprintf(a, fmt, ap);
    va_end(ap);
    return p;
}

void rp_arena_reset(rp_arena *a)
{
    rp_arena_chunk *keep = NULL;
    for (rp_arena_chunk *c = a->head; c; c = c->next)
        if (!keep || c->size > keep->size)
            keep = c;
    rp_arena_chunk *c = a->head;
    while (c) {
        rp_arena_chunk *next = c->next;
        if (c != keep)
            free(c);
        c = next;
    }
    a->total = 0;
    if (keep) {
        keep->next = NULL;
        keep->used = 0;
        keep->last = 0;
        a->total = header_size() + keep->size;
    }
    a->head = keep;
}

void rp_arena_free(rp_arena *a)
{
    rp_arena_chunk *c = a->head;
    while (c) {
        rp_arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    a->head = NULL;
    a->total = 0;
}
