/* lib_strings.c — contains, startsWith, endsWith, matches, and the strings extension
 * (charAt, indexOf, lastIndexOf, lowerAscii, upperAscii, replace, split, substring, trim,
 * join, format, strings.quote, reverse) with cel-go's semantics.
 *
 * Strings are valid UTF-8; indexes and lengths are in code points, as cel-go's []rune
 * conversions make them. Searching works on bytes: a valid UTF-8 needle can only match a
 * valid UTF-8 haystack at character boundaries, so byte offsets are converted to code points
 * only at the edges. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cel/fn.h"
#include "cel/format.h"
#include "core/regex.h"
#include "core/utf8.h"

/* ---- code points (CEL strings are valid UTF-8) ---- */

/* Code points in s[0..len). */
static int64_t cp_count(const char *s, size_t len)
{
    return (int64_t)rp_utf8_count(s, len);
}

/* Byte offset of code point `cp` (0 <= cp <= count); len when cp is the count. */
static size_t cp_offset(const char *s, size_t len, int64_t cp)
{
    size_t i = 0;
    while (cp > 0 && i < len) {
        i += rp_utf8_lead_len((unsigned char)s[i]);
        cp--;
    }
    return i < len ? i : len;
}

/* Needles up to this long in haystacks up to SHORT_HAYSTACK bytes are searched by candidates
 * for their first byte (worst case SHORT_NEEDLE * haystack: the hot path of `contains`);
 * everything else with linear-time algorithms, so that no search is quadratic in the input. */
#define SHORT_NEEDLE   16
#define SHORT_HAYSTACK 4096

static int64_t find_long(const char *h, size_t hlen, size_t from, const char *n, size_t nlen)
    __attribute__((noinline));
static int64_t find_long(const char *h, size_t hlen, size_t from, const char *n, size_t nlen)
{
    const char *p = memmem(h + from, hlen - from, n, nlen); /* two-way: linear */
    return p ? (int64_t)(p - h) : -1;
}

/* First byte offset >= from where needle occurs, or -1. Inlined: `contains` is on the hot path
 * of policies. */
static inline __attribute__((always_inline)) int64_t
find_bytes(const char *h, size_t hlen, size_t from, const char *n, size_t nlen)
{
    if (nlen > hlen || from > hlen - nlen)
        return -1;
    if (nlen == 0)
        return (int64_t)from;
    if (nlen > SHORT_NEEDLE || hlen - from > SHORT_HAYSTACK)
        return find_long(h, hlen, from, n, nlen);
    /* memchr skips to candidates for the first byte quickly (policy hot path: contains). */
    const char *p = h + from, *last = h + (hlen - nlen);
    while (p <= last) {
        p = memchr(p, n[0], (size_t)(last - p) + 1);
        if (!p)
            return -1;
        if (memcmp(p + 1, n + 1, nlen - 1) == 0)
            return (int64_t)(p - h);
        p++;
    }
    return -1;
}

/* Last byte offset <= before where needle occurs, or -1; the needle is non-empty and no longer
 * than the haystack. Long needles: Knuth-Morris-Pratt over the reversed strings. */
static int64_t find_bytes_last(const char *h, size_t hlen, size_t before, const char *n,
                               size_t nlen)
{
    if (before > hlen - nlen)
        before = hlen - nlen;
    if (nlen <= SHORT_NEEDLE && before <= SHORT_HAYSTACK) {
        for (size_t at = before + 1; at-- > 0;)
            if (h[at] == n[0] && memcmp(h + at, n, nlen) == 0)
                return (int64_t)at;
        return -1;
    }
    /* r(x)[i] = x[len - 1 - i]; fail[i] = the longest proper border of r(n)[0..i]. */
    size_t *fail = malloc(sizeof *fail * nlen);
    if (!fail)
        abort(); /* as the arena does */
    fail[0] = 0;
    for (size_t i = 1, k = 0; i < nlen; i++) {
        while (k && n[nlen - 1 - i] != n[nlen - 1 - k])
            k = fail[k - 1];
        if (n[nlen - 1 - i] == n[nlen - 1 - k])
            k++;
        fail[i] = k;
    }
    /* A match of n at p is a match of r(n) at hlen - p - nlen: scan r(h) from the first
     * position allowed (p <= before) and stop at the first match. */
    int64_t found = -1;
    for (size_t i = hlen - before - nlen, k = 0; i < hlen; i++) {
        char c = h[hlen - 1 - i];
        while (k && c != n[nlen - 1 - k])
            k = fail[k - 1];
        if (c == n[nlen - 1 - k])
            k++;
        if (k == nlen) {
            found = (int64_t)(hlen - 1 - i);
            break;
        }
    }
    free(fail);
    return found;
}

static bool is_str(const cel_value *v)
{
    return v->kind == CEL_STRING;
}

static bool is_int(const cel_value *v)
{
    return v->kind == CEL_INT;
}

static cel_value no_overload(cel_call *call, const char *name, const cel_value *args,
                             uint32_t nargs)
{
    return cel_error_no_overload(call->arena, name, args, nargs);
}

static cel_value index_error(cel_call *call, int64_t i)
{
    return cel_error_new(call->arena, "index out of range: %" PRId64, i);
}

/* ---- core: contains, startsWith, endsWith ---- */

static cel_value fn_contains(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 2 || !is_str(&args[0]) || !is_str(&args[1]))
        return no_overload(call, "contains", args, nargs);
    call->work += args[0].len;
    return cel_bool(find_bytes(args[0].v.s, args[0].len, 0, args[1].v.s, args[1].len) >= 0);
}

static cel_value fn_starts_with(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 2 || !is_str(&args[0]) || !is_str(&args[1]))
        return no_overload(call, "startsWith", args, nargs);
    call->work += args[1].len;
    return cel_bool(args[1].len <= args[0].len &&
                    memcmp(args[0].v.s, args[1].v.s, args[1].len) == 0);
}

static cel_value fn_ends_with(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 2 || !is_str(&args[0]) || !is_str(&args[1]))
        return no_overload(call, "endsWith", args, nargs);
    call->work += args[1].len;
    return cel_bool(args[1].len <= args[0].len &&
                    memcmp(args[0].v.s + args[0].len - args[1].len, args[1].v.s, args[1].len) == 0);
}

/* ---- matches ---- */

/* Run once per call site at compile time: a constant pattern is compiled here and reused by
 * every evaluation through call->prepared. A pattern that does not compile is left to the
 * evaluation, which reports it as an error value. */
static void *matches_prepare(const cel_value *args, const bool *is_const, uint32_t nargs)
{
    if (nargs != 2 || !is_const[1] || !is_str(&args[1]))
        return NULL;
    char err[256];
    return rp_regex_compile(args[1].v.s, args[1].len, err, sizeof err);
}

static void matches_release(void *prepared)
{
    rp_regex_free(prepared);
}

static cel_value fn_matches(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 2 || !is_str(&args[0]) || !is_str(&args[1]))
        return no_overload(call, "matches", args, nargs);
    call->work += args[0].len;
    char err[256];
    const rp_regex *re = call->prepared;
    rp_regex *own = NULL;
    if (!re) {
        own = rp_regex_compile_once(args[1].v.s, args[1].len, err, sizeof err);
        if (!own)
            return cel_error_new(call->arena, "%s", err);
        re = own;
    }
    int rc = rp_regex_search(re, args[0].v.s, args[0].len, call->arena, err, sizeof err);
    rp_regex_free(own);
    if (rc < 0)
        return cel_error_new(call->arena, "%s", err);
    return cel_bool(rc == 1);
}

/* ---- strings extension ---- */

static cel_value fn_char_at(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 2 || !is_str(&args[0]) || !is_int(&args[1]))
        return no_overload(call, "charAt", args, nargs);
    call->work += args[0].len;
    const char *s = args[0].v.s;
    size_t len = args[0].len;
    int64_t i = args[1].v.i, n = cp_count(s, len);
    if (i < 0 || i > n)
        return index_error(call, i);
    size_t at = cp_offset(s, len, i);
    size_t end = i == n ? at : at + rp_utf8_lead_len((unsigned char)s[at]);
    return cel_string_copy(call->arena, s + at, end - at);
}

static cel_value fn_index_of(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if ((nargs != 2 && nargs != 3) || !is_str(&args[0]) || !is_str(&args[1]) ||
        (nargs == 3 && !is_int(&args[2])))
        return no_overload(call, "indexOf", args, nargs);
    call->work += args[0].len;
    const char *s = args[0].v.s;
    size_t len = args[0].len;
    int64_t off = nargs == 3 ? args[2].v.i : 0;
    if (args[1].len == 0)
        return cel_int(off); /* cel-go: the empty string is found where the search starts */
    if (nargs == 3) {
        int64_t n = cp_count(s, len);
        if (off < 0 || off > n)
            return index_error(call, off);
    }
    size_t from = cp_offset(s, len, off);
    int64_t at = find_bytes(s, len, from, args[1].v.s, args[1].len);
    if (at < 0)
        return cel_int(-1);
    return cel_int(off + cp_count(s + from, (size_t)at - from));
}

static cel_value fn_last_index_of(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if ((nargs != 2 && nargs != 3) || !is_str(&args[0]) || !is_str(&args[1]) ||
        (nargs == 3 && !is_int(&args[2])))
        return no_overload(call, "lastIndexOf", args, nargs);
    call->work += args[0].len;
    const char *s = args[0].v.s, *sub = args[1].v.s;
    size_t len = args[0].len, sublen = args[1].len;
    int64_t n = cp_count(s, len), m = cp_count(sub, sublen);
    int64_t off;
    if (nargs == 2) {
        if (sublen == 0)
            return cel_int(n);
        off = n - 1;
    } else {
        off = args[2].v.i;
        if (sublen == 0)
            return cel_int(off);
        if (off < 0 || off >= n)
            return index_error(call, off);
    }
    /* The last match may start at most at n - m. */
    if (off > n - m)
        off = n - m;
    if (off < 0)
        return cel_int(-1);
    if (sublen > len)
        return cel_int(-1);
    int64_t at = find_bytes_last(s, len, cp_offset(s, len, off), sub, sublen);
    return cel_int(at < 0 ? -1 : cp_count(s, (size_t)at));
}

static cel_value ascii_case(cel_call *call, const cel_value *args, uint32_t nargs, bool upper)
{
    if (nargs != 1 || !is_str(&args[0]))
        return no_overload(call, upper ? "upperAscii" : "lowerAscii", args, nargs);
    call->work += args[0].len;
    if (cel_call_exceeds(call, (size_t)args[0].len + 1))
        return cel_memory_error(call->arena);
    char *out = rp_arena_alloc(call->arena, args[0].len + 1);
    for (uint32_t i = 0; i < args[0].len; i++) {
        char c = args[0].v.s[i];
        if (upper && c >= 'a' && c <= 'z')
            c = (char)(c - 'a' + 'A');
        else if (!upper && c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        out[i] = c;
    }
    out[args[0].len] = '\0';
    return cel_string_ref(out, args[0].len);
}

static cel_value fn_lower_ascii(cel_call *call, const cel_value *args, uint32_t nargs)
{
    return ascii_case(call, args, nargs, false);
}

static cel_value fn_upper_ascii(cel_call *call, const cel_value *args, uint32_t nargs)
{
    return ascii_case(call, args, nargs, true);
}

/* Go's strings.Replace: at most n replacements (all when n < 0); an empty `old` matches at
 * the start and after each code point. */
static cel_value fn_replace(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if ((nargs != 3 && nargs != 4) || !is_str(&args[0]) || !is_str(&args[1]) || !is_str(&args[2]) ||
        (nargs == 4 && !is_int(&args[3])))
        return no_overload(call, "replace", args, nargs);
    call->work += args[0].len;
    const char *s = args[0].v.s, *old = args[1].v.s, *rep = args[2].v.s;
    size_t len = args[0].len, olen = args[1].len, rlen = args[2].len;
    int64_t limit = nargs == 4 ? args[3].v.i : -1;
    if (cel_call_exceeds(call, len + 1))
        return cel_memory_error(call->arena);
    if (limit == 0)
        return cel_string_copy(call->arena, s, len);
    rp_buf b = {0};
    rp_buf_append(&b, "", 0);
    size_t i = 0;
    int64_t done = 0;
    /* The output may be far bigger than the input ("x".replace("", big)): it is checked
     * against the allowance as it grows (twice: the buffer, then its copy in the arena). */
    size_t max = call->mem_left ? call->mem_left / 2 : SIZE_MAX;
    if (olen == 0) {
        while (limit < 0 || done < limit) {
            if (b.len > max || rlen > max - b.len)
                goto too_big;
            rp_buf_append(&b, rep, rlen);
            done++;
            if (i >= len)
                break;
            size_t n = rp_utf8_lead_len((unsigned char)s[i]);
            rp_buf_append(&b, s + i, n);
            i += n;
        }
    } else {
        while (limit < 0 || done < limit) {
            int64_t at = find_bytes(s, len, i, old, olen);
            if (at < 0)
                break;
            if (b.len > max || (size_t)at - i + rlen > max - b.len)
                goto too_big;
            rp_buf_append(&b, s + i, (size_t)at - i);
            rp_buf_append(&b, rep, rlen);
            i = (size_t)at + olen;
            done++;
        }
    }
    if (i < len)
        rp_buf_append(&b, s + i, len - i);
    if (b.len > max || b.len >= UINT32_MAX)
        goto too_big;
    call->work += b.len;
    cel_value v = cel_string_copy(call->arena, b.data, b.len);
    rp_buf_free(&b);
    return v;
too_big:
    rp_buf_free(&b);
    return cel_memory_error(call->arena);
}

/* Go's strings.SplitN: n == 0 gives [], n < 0 all pieces, n > 0 at most n pieces (the last
 * holds the rest); an empty separator splits into code points. */
static cel_value fn_split(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if ((nargs != 2 && nargs != 3) || !is_str(&args[0]) || !is_str(&args[1]) ||
        (nargs == 3 && !is_int(&args[2])))
        return no_overload(call, "split", args, nargs);
    call->work += args[0].len;
    const char *s = args[0].v.s, *sep = args[1].v.s;
    size_t len = args[0].len, slen = args[1].len;
    int64_t limit = nargs == 3 ? args[2].v.i : -1;
    if (limit == 0)
        return cel_list_new(call->arena, NULL, 0);
    /* Upper bound on the pieces, to size the array once. */
    size_t cap = slen == 0 ? (size_t)cp_count(s, len) : 1;
    if (slen) {
        for (int64_t at = find_bytes(s, len, 0, sep, slen); at >= 0;
             at = find_bytes(s, len, (size_t)at + slen, sep, slen))
            cap++;
    }
    if (limit > 0 && (uint64_t)limit < cap)
        cap = (size_t)limit;
    /* The items, and each piece's copy (its bytes, a NUL and alignment). */
    if (cap > UINT32_MAX || cel_call_exceeds(call, cap * (sizeof(cel_value) + 16) + len))
        return cel_memory_error(call->arena);
    cel_value *items = rp_arena_alloc(call->arena, sizeof *items * (cap ? cap : 1));
    uint32_t n = 0;
    size_t i = 0;
    if (slen == 0) {
        while (i < len && n < cap) {
            size_t end = n + 1 == cap ? len : i + rp_utf8_lead_len((unsigned char)s[i]);
            items[n++] = cel_string_copy(call->arena, s + i, end - i);
            i = end;
        }
    } else {
        while (n + 1 < cap) {
            int64_t at = find_bytes(s, len, i, sep, slen);
            if (at < 0)
                break;
            items[n++] = cel_string_copy(call->arena, s + i, (size_t)at - i);
            i = (size_t)at + slen;
        }
        items[n++] = cel_string_copy(call->arena, s + i, len - i);
    }
    return cel_list_new(call->arena, items, n);
}

static cel_value fn_substring(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if ((nargs != 2 && nargs != 3) || !is_str(&args[0]) || !is_int(&args[1]) ||
        (nargs == 3 && !is_int(&args[2])))
        return no_overload(call, "substring", args, nargs);
    call->work += args[0].len;
    const char *s = args[0].v.s;
    size_t len = args[0].len;
    int64_t n = cp_count(s, len);
    int64_t start = args[1].v.i, end = nargs == 3 ? args[2].v.i : n;
    if (nargs == 3 && start > end)
        return cel_error_new(
            call->arena, "invalid substring range. start: %" PRId64 ", end: %" PRId64, start, end);
    if (start < 0 || start > n)
        return index_error(call, start);
    if (end < 0 || end > n)
        return index_error(call, end);
    size_t a = cp_offset(s, len, start);
    size_t b = a + cp_offset(s + a, len - a, end - start);
    if (cel_call_exceeds(call, b - a + 1))
        return cel_memory_error(call->arena);
    return cel_string_copy(call->arena, s + a, b - a);
}

static cel_value fn_trim(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 1 || !is_str(&args[0]))
        return no_overload(call, "trim", args, nargs);
    call->work += args[0].len;
    size_t start, n; /* cel-go: unicode.IsSpace, the White_Space property */
    rp_utf8_trim(args[0].v.s, args[0].len, RP_SPACE_UNICODE, &start, &n);
    if (cel_call_exceeds(call, n + 1))
        return cel_memory_error(call->arena);
    return cel_string_copy(call->arena, args[0].v.s + start, n);
}

static cel_value fn_join(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if ((nargs != 1 && nargs != 2) || args[0].kind != CEL_LIST || (nargs == 2 && !is_str(&args[1])))
        return no_overload(call, "join", args, nargs);
    call->work += (uint64_t)cel_list_size(&args[0]) * CEL_WORK_PER_ELEMENT;
    uint32_t n = cel_list_size(&args[0]);
    size_t max = call->mem_left ? call->mem_left / 2 : SIZE_MAX; /* the buffer, then the copy */
    rp_buf b = {0};
    rp_buf_append(&b, "", 0);
    for (uint32_t i = 0; i < n; i++) {
        cel_value item = cel_list_at(&args[0], i);
        if (!is_str(&item)) {
            rp_buf_free(&b);
            return cel_error_new(call->arena, "join: list element %" PRIu32 " is %s, not a string",
                                 i, cel_kind_type_name(&item));
        }
        size_t sep = i && nargs == 2 ? args[1].len : 0;
        if (b.len > max || sep + item.len > max - b.len) {
            rp_buf_free(&b);
            return cel_memory_error(call->arena);
        }
        if (sep)
            rp_buf_append(&b, args[1].v.s, sep);
        rp_buf_append(&b, item.v.s, item.len);
    }
    if (b.len >= UINT32_MAX) {
        rp_buf_free(&b);
        return cel_memory_error(call->arena);
    }
    call->work += b.len;
    cel_value v = cel_string_copy(call->arena, b.data, b.len);
    rp_buf_free(&b);
    return v;
}

static cel_value fn_format(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 2 || !is_str(&args[0]) || args[1].kind != CEL_LIST)
        return no_overload(call, "format", args, nargs);
    call->work += args[0].len + (uint64_t)cel_list_size(&args[1]) * CEL_WORK_PER_ELEMENT;
    return cel_string_format(call->arena, args[0].v.s, args[0].len, &args[1],
                             call->mem_left ? call->mem_left / 2 : 0);
}

/* cel-go's strings.quote: double quotes, CEL escapes for the control characters it names,
 * everything else (printable or not) as it is. */
static cel_value fn_quote(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 1 || !is_str(&args[0]))
        return no_overload(call, "strings.quote", args, nargs);
    call->work += args[0].len;
    /* At most two bytes out per byte in, in the buffer and then in the arena. */
    if (cel_call_exceeds(call, ((size_t)args[0].len + 2) * 4))
        return cel_memory_error(call->arena);
    rp_buf b = {0};
    rp_buf_putc(&b, '"');
    for (uint32_t i = 0; i < args[0].len; i++) {
        char c = args[0].v.s[i];
        switch (c) {
        case '\a':
            rp_buf_puts(&b, "\\a");
            break;
        case '\b':
            rp_buf_puts(&b, "\\b");
            break;
        case '\f':
            rp_buf_puts(&b, "\\f");
            break;
        case '\n':
            rp_buf_puts(&b, "\\n");
            break;
        case '\r':
            rp_buf_puts(&b, "\\r");
            break;
        case '\t':
            rp_buf_puts(&b, "\\t");
            break;
        case '\v':
            rp_buf_puts(&b, "\\v");
            break;
        case '\\':
            rp_buf_puts(&b, "\\\\");
            break;
        case '"':
            rp_buf_puts(&b, "\\\"");
            break;
        default:
            rp_buf_putc(&b, c);
        }
    }
    rp_buf_putc(&b, '"');
    cel_value v = cel_string_copy(call->arena, b.data, b.len);
    rp_buf_free(&b);
    return v;
}

static cel_value fn_reverse(cel_call *call, const cel_value *args, uint32_t nargs)
{
    if (nargs != 1 || !is_str(&args[0]))
        return no_overload(call, "reverse", args, nargs);
    call->work += args[0].len;
    const char *s = args[0].v.s;
    size_t len = args[0].len;
    if (cel_call_exceeds(call, len + 1))
        return cel_memory_error(call->arena);
    char *out = rp_arena_alloc(call->arena, len + 1);
    size_t o = 0;
    for (size_t end = len; end > 0;) {
        size_t start = rp_utf8_prev(s, end);
        memcpy(out + o, s + start, end - start);
        o += end - start;
        end = start;
    }
    out[len] = '\0';
    return cel_string_ref(out, len);
}

const cel_function cel_lib_strings[] = {
    {"contains", CEL_FN_RECEIVER, fn_contains, NULL, NULL},
    {"startsWith", CEL_FN_RECEIVER, fn_starts_with, NULL, NULL},
    {"endsWith", CEL_FN_RECEIVER, fn_ends_with, NULL, NULL},
    {"matches", CEL_FN_RECEIVER | CEL_FN_GLOBAL, fn_matches, matches_prepare, matches_release},
    {"charAt", CEL_FN_RECEIVER, fn_char_at, NULL, NULL},
    {"indexOf", CEL_FN_RECEIVER, fn_index_of, NULL, NULL},
    {"lastIndexOf", CEL_FN_RECEIVER, fn_last_index_of, NULL, NULL},
    {"lowerAscii", CEL_FN_RECEIVER, fn_lower_ascii, NULL, NULL},
    {"upperAscii", CEL_FN_RECEIVER, fn_upper_ascii, NULL, NULL},
    {"replace", CEL_FN_RECEIVER, fn_replace, NULL, NULL},
    {"split", CEL_FN_RECEIVER, fn_split, NULL, NULL},
    {"substring", CEL_FN_RECEIVER, fn_substring, NULL, NULL},
    {"trim", CEL_FN_RECEIVER, fn_trim, NULL, NULL},
    {"join", CEL_FN_RECEIVER, fn_join, NULL, NULL},
    {"format", CEL_FN_RECEIVER, fn_format, NULL, NULL},
    {"strings.quote", CEL_FN_GLOBAL, fn_quote, NULL, NULL},
    {"reverse", CEL_FN_RECEIVER, fn_reverse, NULL, NULL},
    {NULL, 0, NULL, NULL, NULL},
};
