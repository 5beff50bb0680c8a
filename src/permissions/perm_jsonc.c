/* perm_jsonc.c — pi's JSONC reading of config.json and mcp.json (reference permissions.md §1.2):
 * comments out, everything else untouched, so the strict JSON reader decides the rest. In
 * particular a trailing comma stays and the file is then rejected, as pi rejects it.
 *
 * The scanner is pi's: a // comment runs to the newline (which is kept), a block comment to the
 * first closing delimiter (dropped whole, with no space left behind), and an unterminated one to
 * the end of the text. '…' and "…" are strings (JSONC has no single-quoted strings, but pi's
 * scanner skips them all the same, so a comment opener inside one survives); a backslash escapes
 * the next character; an unterminated string runs to the end. */
#include <string.h>

#include "permissions/perm.h"

char *rp_perm_jsonc_strip(rp_arena *a, const char *text, size_t len, size_t *out_len)
{
    char *out = rp_arena_alloc(a, len + 1);
    size_t o = 0, i = 0;
    while (i < len) {
        char c = text[i];
        char next = i + 1 < len ? text[i + 1] : '\0';
        if (c == '/' && next == '/') {
            const char *nl = memchr(text + i, '\n', len - i);
            if (nl == NULL)
                break;
            out[o++] = '\n';
            i = (size_t)(nl - text) + 1;
            continue;
        }
        if (c == '/' && next == '*') {
            size_t j = i + 2;
            while (j + 1 < len && !(text[j] == '*' && text[j + 1] == '/'))
                j++;
            if (j + 1 >= len)
                break;
            i = j + 2;
            continue;
        }
        if (c == '"' || c == '\'') {
            out[o++] = c;
            i++;
            bool escaping = false;
            while (i < len) {
                char d = text[i++];
                out[o++] = d;
                if (escaping)
                    escaping = false;
                else if (d == '\\')
                    escaping = true;
                else if (d == c)
                    break;
            }
            continue;
        }
        out[o++] = c;
        i++;
    }
    out[o] = '\0';
    if (out_len)
        *out_len = o;
    return out;
}
