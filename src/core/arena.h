/* arena.h — bump allocator for per-evaluation and per-config memory.
 *
 * Everything an evaluation allocates (parsed event, results, reasons, new state) comes from one
 * arena and is released at once with rp_arena_reset() or rp_arena_free(). Allocation failure
 * aborts the process: rampart is a short-lived hook or a server with bounded inputs, and a
 * half-built decision is worse than a clear crash (the host's fail-closed path takes over). */
#ifndef RAMPART_CORE_ARENA_H
#define RAMPART_CORE_ARENA_H

#include <stdarg.h>
#include <stddef.h>

typedef struct rp_arena_chunk rp_arena_chunk;

typedef struct rp_arena {
    rp_arena_chunk *head; /* newest chunk first */
    size_t chunk_size;    /* size of the next ordinary chunk */
    size_t total;         /* bytes held by all chunks (headers included): what the arena costs */
} rp_arena;

/* A zero-initialised rp_arena is valid too (first chunk 4 KiB). */
void rp_arena_init(rp_arena *a, size_t first_chunk_size);
void *rp_arena_alloc(rp_arena *a, size_t size);  /* 16-byte aligned, uninitialised */
void *rp_arena_calloc(rp_arena *a, size_t size); /* zeroed */
/* Grow the most recent allocation when possible; otherwise copy. */
void *rp_arena_realloc(rp_arena *a, void *old, size_t old_size, size_t new_size);
char *rp_arena_strdup(rp_arena *a, const char *s);
char *rp_arena_strndup(rp_arena *a, const char *s, size_t n); /* always NUL-terminated */
char *rp_arena_sprintf(rp_arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *rp_arena_vsprintf(rp_arena *a, const char *fmt, va_list ap);
/* Release everything but keep the first chunk for reuse (hot loops). */
void rp_arena_reset(rp_arena *a);
void rp_arena_free(rp_arena *a);

#endif
