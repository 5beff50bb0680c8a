/* sha256.c — SHA-256 as specified in FIPS 180-4.
 *
 * detect_loop hashes every tool call, so the hash is on the evaluation hot path. Two block
 * functions compute the same thing: a portable one written for clarity, and one using the x86
 * SHA extensions (SHA-NI, on recent Intel and all AMD Zen CPUs), chosen at run time when the
 * CPU has them. The tests run the FIPS vectors through both (rp_sha256_force_portable). */
#include "core/sha256.h"

#include <stdatomic.h>
#include <string.h>

#include "core/utf8.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define RP_SHA256_HAVE_SHANI 1
#endif

static const uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t rotr(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

static void compress_block(uint32_t state[8], const uint8_t block[64])
{
    uint32_t w[64];
    for (int t = 0; t < 16; t++)
        w[t] = (uint32_t)block[4 * t] << 24 | (uint32_t)block[4 * t + 1] << 16 |
               (uint32_t)block[4 * t + 2] << 8 | (uint32_t)block[4 * t + 3];
    for (int t = 16; t < 64; t++) {
        uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int t = 0; t < 64; t++) {
        uint32_t big_s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
        uint32_t choose = (e & f) ^ (~e & g);
        uint32_t t1 = h + big_s1 + choose + round_constants[t] + w[t];
        uint32_t big_s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
        uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
        uint32_t t2 = big_s0 + majority;
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
}

/* Hashes `blocks` consecutive 64-byte blocks with the portable code. */
static void compress_portable(uint32_t state[8], const uint8_t *data, size_t blocks)
{
    for (; blocks > 0; blocks--, data += 64)
        compress_block(state, data);
}

#ifdef RP_SHA256_HAVE_SHANI
/* The same compression with SHA-NI. The instructions keep the working variables as two vectors,
 * ABEF and CDGH, and do two rounds per sha256rnds2; sha256msg1/msg2 compute the message
 * schedule four words at a time. Layout follows Intel's "SHA extensions" white paper. */
__attribute__((target("sha,sse4.1,ssse3"))) static void
compress_shani(uint32_t state[8], const uint8_t *data, size_t blocks)
{
    /* Big-endian words: reverse the bytes of each 32-bit lane. */
    const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);

    __m128i tmp = _mm_loadu_si128((const __m128i *)&state[0]);    /* ABCD (lane 0 = A) */
    __m128i state1 = _mm_loadu_si128((const __m128i *)&state[4]); /* EFGH */
    tmp = _mm_shuffle_epi32(tmp, 0xb1);                           /* CDAB */
    state1 = _mm_shuffle_epi32(state1, 0x1b);                     /* EFGH reversed */
    __m128i state0 = _mm_alignr_epi8(tmp, state1, 8);             /* ABEF */
    state1 = _mm_blend_epi16(state1, tmp, 0xf0);                  /* CDGH */

    for (; blocks > 0; blocks--, data += 64) {
        const __m128i abef_save = state0, cdgh_save = state1;
        __m128i w[4]; /* the last 16 schedule words, four per vector */
        for (int i = 0; i < 16; i++) {
            __m128i *cur = &w[i & 3];
            if (i < 4) {
                *cur =
                    _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * i)), byte_swap);
            } else {
                /* W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16], for t = 4i..4i+3:
                 * msg1 adds σ0 to W[t-16], alignr picks W[t-7..t-4], msg2 adds σ1. */
                __m128i prev = w[(i + 3) & 3];
                __m128i t = _mm_sha256msg1_epu32(*cur, w[(i + 1) & 3]);
                t = _mm_add_epi32(t, _mm_alignr_epi8(prev, w[(i + 2) & 3], 4));
                *cur = _mm_sha256msg2_epu32(t, prev);
            }
            __m128i msg =
                _mm_add_epi32(*cur, _mm_loadu_si128((const __m128i *)&round_constants[4 * i]));
            state1 = _mm_sha256rnds2_epu32(state1, state0, msg);
            msg = _mm_shuffle_epi32(msg, 0x0e);
            state0 = _mm_sha256rnds2_epu32(state0, state1, msg);
        }
        state0 = _mm_add_epi32(state0, abef_save);
        state1 = _mm_add_epi32(state1, cdgh_save);
    }

    tmp = _mm_shuffle_epi32(state0, 0x1b);       /* FEBA */
    state1 = _mm_shuffle_epi32(state1, 0xb1);    /* DCHG */
    state0 = _mm_blend_epi16(tmp, state1, 0xf0); /* DCBA */
    state1 = _mm_alignr_epi8(state1, tmp, 8);    /* ABEF */
    _mm_storeu_si128((__m128i *)&state[0], state0);
    _mm_storeu_si128((__m128i *)&state[4], state1);
}

/* CPUID: leaf 7 EBX bit 29 is SHA; SSSE3 and SSE4.1 are leaf 1 ECX bits 9 and 19. */
static bool cpu_has_shani(void)
{
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
        return false;
    if (!(ecx & (1u << 9)) || !(ecx & (1u << 19)))
        return false;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
        return false;
    return (ebx & (1u << 29)) != 0;
}
#endif

/* Which block function to use: 0 = not decided yet, 1 = portable, 2 = SHA-NI. CPUID is slow
 * under a hypervisor, so it is asked once; the answer is the same for every thread, so a race
 * on the first call only repeats the question. */
enum { IMPL_UNKNOWN, IMPL_PORTABLE, IMPL_SHANI };
static _Atomic int chosen_impl = IMPL_UNKNOWN;

static int choose_impl(void)
{
    int impl = atomic_load_explicit(&chosen_impl, memory_order_relaxed);
    if (impl != IMPL_UNKNOWN)
        return impl;
    impl = IMPL_PORTABLE;
#ifdef RP_SHA256_HAVE_SHANI
    if (cpu_has_shani())
        impl = IMPL_SHANI;
#endif
    atomic_store_explicit(&chosen_impl, impl, memory_order_relaxed);
    return impl;
}

void rp_sha256_force_portable(bool on)
{
    atomic_store_explicit(&chosen_impl, on ? IMPL_PORTABLE : IMPL_UNKNOWN, memory_order_relaxed);
}

bool rp_sha256_accelerated(void)
{
    return choose_impl() == IMPL_SHANI;
}

static void compress(uint32_t state[8], const uint8_t *data, size_t blocks)
{
#ifdef RP_SHA256_HAVE_SHANI
    if (choose_impl() == IMPL_SHANI) {
        compress_shani(state, data, blocks);
        return;
    }
#endif
    compress_portable(state, data, blocks);
}

void rp_sha256_init(rp_sha256 *h)
{
    static const uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(h->state, initial, sizeof initial);
    h->bytes = 0;
    h->fill = 0;
}

void rp_sha256_update(rp_sha256 *h, const void *data, size_t len)
{
    const uint8_t *p = data;
    h->bytes += len;
    /* Top up a partly filled block first. */
    if (h->fill > 0) {
        size_t take = 64 - h->fill;
        if (take > len)
            take = len;
        memcpy(h->block + h->fill, p, take);
        h->fill += take;
        p += take;
        len -= take;
        if (h->fill < 64)
            return;
        compress(h->state, h->block, 1);
        h->fill = 0;
    }
    /* Whole blocks straight from the input, without copying them. */
    if (len >= 64) {
        size_t blocks = len / 64;
        compress(h->state, p, blocks);
        p += blocks * 64;
        len -= blocks * 64;
    }
    if (len > 0) {
        memcpy(h->block, p, len);
        h->fill = len;
    }
}

void rp_sha256_final(rp_sha256 *h, uint8_t digest[32])
{
    uint64_t bits = h->bytes * 8;
    /* Padding: 0x80, zeros up to 56 mod 64, then the bit length big-endian. When fewer than 9
     * bytes are left in the block, the padding spills into a second block. */
    uint8_t tail[128];
    size_t fill = h->fill;
    size_t total = fill < 56 ? 64 : 128;
    memcpy(tail, h->block, fill);
    tail[fill] = 0x80;
    memset(tail + fill + 1, 0, total - 8 - fill - 1);
    for (int i = 0; i < 8; i++)
        tail[total - 8 + i] = (uint8_t)(bits >> (56 - 8 * i));
    compress(h->state, tail, total / 64);
    h->fill = 0;
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (uint8_t)(h->state[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(h->state[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(h->state[i] >> 8);
        digest[4 * i + 3] = (uint8_t)h->state[i];
    }
}

void rp_sha256_hex(const void *data, size_t len, char hex[65])
{
    rp_sha256 h;
    uint8_t digest[32];
    rp_sha256_init(&h);
    rp_sha256_update(&h, data, len);
    rp_sha256_final(&h, digest);
    for (int i = 0; i < 32; i++) {
        hex[2 * i] = rp_hex_char(digest[i] >> 4);
        hex[2 * i + 1] = rp_hex_char(digest[i]);
    }
    hex[64] = '\0';
}
