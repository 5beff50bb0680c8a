/* ansi_c.c — decoding of bash's ANSI-C quoting, $'…', into the bytes bash puts in argv.
 *
 * Follows bash 5's ansicstr(): \a \b \e \E \f \n \r \t \v \\ \' \" \? \NNN (one to three octal
 * digits) \xHH (one or two hex digits) \uHHHH \UHHHHHHHH (UTF-8 encoded) \cX (control
 * character). An unknown escape keeps its backslash. A decoded NUL ends the C string bash
 * builds, so the rest of that $'…' contributes nothing. */
#include "shell/shell_internal.h"

#include "core/utf8.h"

size_t rp_sh_ansi_c_decode(rp_sh_state *st, const char *p, size_t n)
{
    /* bash finds the closing quote first (a backslash hides the next byte) and decodes the
     * body after, so `\c` just before the quote is a literal "\c", not control-quote. */
    size_t close = 0;
    while (close < n && p[close] != '\'')
        close += p[close] == '\\' ? 2 : 1;
    if (close >= n)
        return 0;
    n = close;
    bool truncated = false; /* a \0 was decoded: drop the rest */
    size_t i = 0;
    while (i < n) {
        char c = p[i];
        if (c != '\\' || i + 1 >= n) {
            if (!truncated)
                rp_sh_scratch_putc(st, c);
            i++;
            continue;
        }
        char e = p[i + 1];
        i += 2;
        int value = -1; /* a single byte to emit */
        switch (e) {
        case 'a':
            value = 7;
            break;
        case 'b':
            value = 8;
            break;
        case 'e':
        case 'E':
            value = 27;
            break;
        case 'f':
            value = 12;
            break;
        case 'n':
            value = 10;
            break;
        case 'r':
            value = 13;
            break;
        case 't':
            value = 9;
            break;
        case 'v':
            value = 11;
            break;
        case '\\':
        case '\'':
        case '"':
        case '?':
            value = (unsigned char)e;
            break;
        case '0':
        case '1':
        case '2':
        case '3':
        case '4':
        case '5':
        case '6':
        case '7': {
            value = e - '0';
            for (int k = 0; k < 2 && i < n && p[i] >= '0' && p[i] <= '7'; k++)
                value = value * 8 + (p[i++] - '0');
            value &= 0xFF;
            break;
        }
        case 'x': {
            int digits = 0, v = 0;
            while (digits < 2 && i < n && rp_hex_digit((unsigned char)p[i]) >= 0) {
                v = v * 16 + rp_hex_digit((unsigned char)p[i++]);
                digits++;
            }
            if (digits == 0) {
                if (!truncated)
                    rp_sh_scratch_put(st, "\\x", 2);
                continue;
            }
            value = v;
            break;
        }
        case 'u':
        case 'U': {
            int max = e == 'u' ? 4 : 8, digits = 0;
            unsigned long v = 0;
            while (digits < max && i < n && rp_hex_digit((unsigned char)p[i]) >= 0) {
                v = v * 16 + (unsigned long)rp_hex_digit((unsigned char)p[i++]);
                digits++;
            }
            if (digits == 0) {
                if (!truncated) {
                    rp_sh_scratch_putc(st, '\\');
                    rp_sh_scratch_putc(st, e);
                }
                continue;
            }
            if (v == 0)
                truncated = true;
            else if (!truncated) {
                char u[RP_UTF8_MAX]; /* bash writes RFC 2279's five and six byte forms too */
                rp_sh_scratch_put(st, u, rp_utf8_encode(v > 0x7FFFFFFF ? 0xFFFD : (uint32_t)v, u));
            }
            continue;
        }
        case 'c': {
            if (i >= n) {
                if (!truncated)
                    rp_sh_scratch_put(st, "\\c", 2);
                continue;
            }
            char x = p[i++];
            if (x == '\\' && i < n && p[i] == '\\')
                i++; /* bash reads \c\\ as control-backslash */
            value = x == '?' ? 0x7F : ((unsigned char)x & 0x1F);
            break;
        }
        default:
            if (!truncated) {
                rp_sh_scratch_putc(st, '\\');
                rp_sh_scratch_putc(st, e);
            }
            continue;
        }
        if (value == 0)
            truncated = true;
        else if (!truncated)
            rp_sh_scratch_putc(st, (char)value);
    }
    return close + 1;
}
