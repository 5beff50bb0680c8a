/* flavor.c — POSIX and win32 path rules after Node's path.posix / path.win32 (flavor.h).
 *
 * The permission rules of the reference are written against Node's path module, and their
 * verdicts hinge on its exact answers (a kept trailing separator, "C:x" not being absolute, the
 * case of a win32 relative path), so the algorithms below are ports of Node's (v20.20, with its
 * win32 hardening: "\\\\.\\" device roots, reserved names such as "CON:", the CVE-2024-36139
 * ".\\" prefix), not a rethink: normalize_string is Node's normalizeString step for step. Two
 * deliberate departures: win32 inside() never crosses devices, and a reserved name is looked
 * for only before a ':' (see there). Where Node would consult the process (process.cwd(),
 * the per-drive "=C:" variables) there is no process to consult: a path that is still
 * relative after its base resolves against the root ("/" or "\\", or the drive root "D:\\"
 * for a drive-relative "D:x"), so resolve always answers an absolute path.
 *
 * path.c keeps its own normaliser (Python's normpath, no trailing '/'); the policies written
 * against it rely on that, so the two are deliberately separate. */
#include "path/flavor.h"

#include <stddef.h>
#include <string.h>

rp_path_flavor rp_path_host_flavor(void)
{
    return RP_PATH_POSIX;
}

bool rp_pathf_is_sep(rp_path_flavor f, char c)
{
    return c == '/' || (f == RP_PATH_WIN32 && c == '\\');
}

char rp_pathf_sep(rp_path_flavor f)
{
    return f == RP_PATH_WIN32 ? '\\' : '/';
}

static bool is_drive_letter(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static char ascii_lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c + ('a' - 'A')) : c;
}

bool rp_pathf_is_drive_path(const char *p)
{
    return is_drive_letter(p[0]) && p[1] == ':' && (p[2] == '/' || p[2] == '\\');
}

bool rp_pathf_is_absolute(rp_path_flavor f, const char *p)
{
    if (f == RP_PATH_POSIX)
        return p[0] == '/';
    return p[0] == '/' || p[0] == '\\' || rp_pathf_is_drive_path(p);
}

/* Node's normalizeString: p[0..n) without its root, '.' and '..' resolved, separators
 * collapsed to sep, no leading or trailing separator. ".." that cannot be popped is kept only
 * when above (a relative path). Writes at most n + 1 bytes to res; returns the length. */
static size_t normalize_string(rp_path_flavor f, const char *p, size_t n, bool above, char *res)
{
    char sep = rp_pathf_sep(f);
    size_t rlen = 0, lastseg = 0;
    ptrdiff_t lastslash = -1;
    int dots = 0;
    char code = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n)
            code = p[i];
        else if (rp_pathf_is_sep(f, code))
            break;
        else
            code = '/';
        if (rp_pathf_is_sep(f, code)) {
            if (lastslash == (ptrdiff_t)i - 1 || dots == 1) {
                /* an empty or "." segment */
            } else if (dots == 2) {
                if (rlen < 2 || lastseg != 2 || res[rlen - 1] != '.' || res[rlen - 2] != '.') {
                    if (rlen > 2) {
                        ptrdiff_t k = (ptrdiff_t)rlen - 1;
                        while (k >= 0 && res[k] != sep)
                            k--;
                        if (k < 0) {
                            rlen = 0;
                            lastseg = 0;
                        } else {
                            rlen = (size_t)k;
                            ptrdiff_t k2 = k - 1;
                            while (k2 >= 0 && res[k2] != sep)
                                k2--;
                            lastseg = (size_t)((ptrdiff_t)rlen - 1 - k2);
                        }
                        lastslash = (ptrdiff_t)i;
                        dots = 0;
                        continue;
                    }
                    if (rlen != 0) {
                        rlen = 0;
                        lastseg = 0;
                        lastslash = (ptrdiff_t)i;
                        dots = 0;
                        continue;
                    }
                }
                if (above) {
                    if (rlen > 0)
                        res[rlen++] = sep;
                    res[rlen++] = '.';
                    res[rlen++] = '.';
                    lastseg = 2;
                }
            } else {
                size_t start = (size_t)(lastslash + 1), len = i - start;
                if (rlen > 0)
                    res[rlen++] = sep;
                memcpy(res + rlen, p + start, len);
                rlen += len;
                lastseg = len;
            }
            lastslash = (ptrdiff_t)i;
            dots = 0;
        } else if (code == '.' && dots != -1) {
            dots++;
        } else {
            dots = -1;
        }
    }
    return rlen;
}

/* Node's win32 root of p: its length (rootEnd), whether it is absolute, and the device
 * ("C:" or "\\\\server\\share") as [p + *dev_off, *dev_len) of the raw text. The UNC device
 * is rebuilt with '\\' by the callers. for_resolve: resolve also takes "\\\\server\\share"
 * with nothing after it as a device (normalize handles that form itself). */
typedef struct win_root {
    size_t root_end;
    bool absolute;
    bool unc;
    size_t server_off, server_len; /* UNC */
    size_t share_off, share_len;   /* UNC */
    bool drive;                    /* "C:" = p[0..2) */
    bool dev_root;                 /* "\\\\.\\" or "\\\\?\\" (device "\\\\." / "\\\\?") */
} win_root;

static win_root win32_root(const char *p, size_t n)
{
    win_root r = {0};
    if (n == 0)
        return r;
    if (n == 1) {
        if (rp_pathf_is_sep(RP_PATH_WIN32, p[0])) {
            r.root_end = 1;
            r.absolute = true;
        }
        return r;
    }
    if (rp_pathf_is_sep(RP_PATH_WIN32, p[0])) {
        r.absolute = true;
        if (!rp_pathf_is_sep(RP_PATH_WIN32, p[1])) {
            r.root_end = 1;
            return r;
        }
        size_t j = 2, last = 2;
        while (j < n && !rp_pathf_is_sep(RP_PATH_WIN32, p[j]))
            j++;
        if (j < n && j != last) {
            r.server_off = last;
            r.server_len = j - last;
            last = j;
            while (j < n && rp_pathf_is_sep(RP_PATH_WIN32, p[j]))
                j++;
            if (j < n && j != last) {
                last = j;
                while (j < n && !rp_pathf_is_sep(RP_PATH_WIN32, p[j]))
                    j++;
                if (r.server_len == 1 && (p[2] == '.' || p[2] == '?')) {
                    r.dev_root = true; /* \\\\.\\PHYSICALDRIVE0: the device is "\\\\." */
                    r.root_end = 4;
                } else {
                    r.unc = true;
                    r.share_off = last;
                    r.share_len = j - last;
                    r.root_end = j;
                }
            }
        }
        return r;
    }
    if (is_drive_letter(p[0]) && p[1] == ':') {
        r.drive = true;
        r.root_end = 2;
        if (n > 2 && rp_pathf_is_sep(RP_PATH_WIN32, p[2])) {
            r.absolute = true;
            r.root_end = 3;
        }
    }
    return r;
}

/* The device of a root as text ("C:", "\\\\server\\share", or ""). */
static char *win32_device(rp_arena *a, const char *p, const win_root *r)
{
    if (r->drive)
        return rp_arena_strndup(a, p, 2);
    if (r->dev_root)
        return rp_arena_sprintf(a, "\\\\%c", p[2]);
    if (r->unc)
        return rp_arena_sprintf(a, "\\\\%.*s\\%.*s", (int)r->server_len, p + r->server_off,
                                (int)r->share_len, p + r->share_off);
    return rp_arena_strdup(a, "");
}

static char *posix_normalize(rp_arena *a, const char *p)
{
    size_t n = strlen(p);
    if (n == 0)
        return rp_arena_strdup(a, ".");
    bool absolute = p[0] == '/';
    bool trailing = p[n - 1] == '/';
    char *out = rp_arena_alloc(a, n + 4);
    size_t len = 0;
    if (absolute)
        out[len++] = '/';
    size_t t = normalize_string(RP_PATH_POSIX, p, n, !absolute, out + len);
    if (t == 0 && !absolute) {
        strcpy(out, trailing ? "./" : ".");
        return out;
    }
    len += t;
    if (trailing && t > 0)
        out[len++] = '/';
    out[len] = '\0';
    return out;
}

/* Whether p[0..n) names a reserved DOS device (CON, PRN, AUX, NUL, COM1–9, LPT1–9 and the
 * superscript COM¹–³, LPT¹–³ of Node's list), ignoring ASCII case. */
static bool is_reserved_name(const char *p, size_t n)
{
    static const char *const names[] = {"CON", "PRN", "AUX", "NUL"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (n == 3 && ascii_lower(p[0]) == ascii_lower(names[i][0]) &&
            ascii_lower(p[1]) == ascii_lower(names[i][1]) &&
            ascii_lower(p[2]) == ascii_lower(names[i][2]))
            return true;
    bool com =
        n >= 4 && ascii_lower(p[0]) == 'c' && ascii_lower(p[1]) == 'o' && ascii_lower(p[2]) == 'm';
    bool lpt =
        n >= 4 && ascii_lower(p[0]) == 'l' && ascii_lower(p[1]) == 'p' && ascii_lower(p[2]) == 't';
    if (!com && !lpt)
        return false;
    if (n == 4)
        return p[3] >= '1' && p[3] <= '9';
    /* "¹" "²" "³" are C2 B9, C2 B2, C2 B3 in UTF-8. */
    return n == 5 && (unsigned char)p[3] == 0xC2 &&
           ((unsigned char)p[4] == 0xB9 || (unsigned char)p[4] == 0xB2 ||
            (unsigned char)p[4] == 0xB3);
}

static char *win32_normalize(rp_arena *a, const char *p)
{
    size_t n = strlen(p);
    if (n == 0)
        return rp_arena_strdup(a, ".");
    if (n == 1)
        return rp_arena_strdup(a, p[0] == '/' ? "\\" : p);
    win_root r = win32_root(p, n);
    if (r.unc && r.root_end == n) /* only a UNC root: "\\\\server\\share\\" */
        return rp_arena_sprintf(a, "%s\\", win32_device(a, p, &r));
    const char *colon = strchr(p, ':');
    char *dev = win32_device(a, p, &r);
    bool has_dev = r.drive || r.unc || r.dev_root;
    if (!has_dev && !rp_pathf_is_sep(RP_PATH_WIN32, p[0]) && colon && colon > p &&
        is_reserved_name(p, (size_t)(colon - p))) {
        /* "CON:x": Node takes the device name for the root. */
        dev = rp_arena_strndup(a, p, (size_t)(colon - p) + 1);
        r.root_end = (size_t)(colon - p) + 1;
        has_dev = true;
    }
    char *tail = rp_arena_alloc(a, n + 4);
    size_t t = r.root_end < n ? normalize_string(RP_PATH_WIN32, p + r.root_end, n - r.root_end,
                                                 !r.absolute, tail)
                              : 0;
    if (t == 0 && !r.absolute)
        tail[t++] = '.';
    if (t > 0 && rp_pathf_is_sep(RP_PATH_WIN32, p[n - 1]))
        tail[t++] = '\\';
    tail[t] = '\0';
    /* CVE-2024-36139 (Node ≥ 20.x): a relative path must not come out as something Windows
     * reads as a drive ("./c:x" → ".\\c:x"), nor with a "name:" before a separator. */
    if (!r.absolute && !has_dev && colon != NULL) {
        if (t >= 2 && is_drive_letter(tail[0]) && tail[1] == ':')
            return rp_arena_sprintf(a, ".\\%s", tail);
        for (const char *c = colon; c != NULL; c = strchr(c + 1, ':'))
            if (c[1] == '\0' || rp_pathf_is_sep(RP_PATH_WIN32, c[1]))
                return rp_arena_sprintf(a, ".\\%s", tail);
    }
    /* A reserved name before the first ':' ("CON:x", "con:") gets ".\\" too. Node also
     * tests all but the last character of a path without ':' (its slice(0, -1)), so that
     * "com2s" becomes ".\\com2s" and back again on the next round; rampart does not copy that. */
    if (colon != NULL && is_reserved_name(p, (size_t)(colon - p)))
        return rp_arena_sprintf(a, ".\\%s%s", has_dev ? dev : "", tail);
    return rp_arena_sprintf(a, "%s%s%s", dev, r.absolute ? "\\" : "", tail);
}

char *rp_pathf_normalize(rp_arena *a, rp_path_flavor f, const char *p)
{
    return f == RP_PATH_WIN32 ? win32_normalize(a, p) : posix_normalize(a, p);
}

static bool posix_clean_absolute(const char *p);
static bool posix_clean_relative(const char *p);

char *rp_pathf_join(rp_arena *a, rp_path_flavor f, const char *base, const char *rest)
{
    bool hb = base != NULL && base[0] != '\0', hr = rest != NULL && rest[0] != '\0';
    if (!hb && !hr)
        return rp_arena_strdup(a, ".");
    const char *first = hb ? base : rest;
    char *joined;
    if (hb && hr) {
        size_t nb = strlen(base), nr = strlen(rest);
        joined = rp_arena_alloc(a, nb + nr + 2);
        memcpy(joined, base, nb);
        joined[nb] = rp_pathf_sep(f);
        memcpy(joined + nb + 1, rest, nr + 1);
        /* Nothing to normalise: "/home/u" + ".ssh/x" (the home expansion of every "~/" rule). */
        if (f == RP_PATH_POSIX && posix_clean_absolute(base) && posix_clean_relative(rest))
            return base[1] ? joined : joined + 1;
    } else {
        joined = rp_arena_strdup(a, first);
    }
    if (f == RP_PATH_POSIX)
        return posix_normalize(a, joined);
    /* win32: a join must not invent a UNC root ("\\" + "\\server" is not "\\\\server"), so
     * leading separators collapse to one unless the first part itself was a UNC path. */
    bool replace = true;
    size_t slashes = 0, fl = strlen(first);
    if (rp_pathf_is_sep(f, first[0])) {
        slashes++;
        if (fl > 1 && rp_pathf_is_sep(f, first[1])) {
            slashes++;
            if (fl > 2) {
                if (rp_pathf_is_sep(f, first[2]))
                    slashes++;
                else
                    replace = false;
            }
        }
    }
    if (replace) {
        size_t jl = strlen(joined);
        while (slashes < jl && rp_pathf_is_sep(f, joined[slashes]))
            slashes++;
        if (slashes >= 2)
            joined = rp_arena_sprintf(a, "\\%s", joined + slashes);
    }
    return win32_normalize(a, joined);
}

static bool posix_clean_absolute(const char *p);

/* Relative with nothing to normalise: no empty, "." or ".." component, no trailing '/'. */
static bool posix_clean_relative(const char *p)
{
    if (p[0] == '\0' || p[0] == '/')
        return false;
    for (const char *c = p;;) {
        const char *e = strchr(c, '/');
        size_t n = e ? (size_t)(e - c) : strlen(c);
        if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
            return false;
        if (e == NULL)
            return true;
        c = e + 1;
    }
}

static char *posix_resolve(rp_arena *a, const char *base, const char *p)
{
    /* The common cases need no normalisation: a clean absolute p, or a clean relative p on a
     * clean absolute base. */
    if (p != NULL && posix_clean_absolute(p))
        return rp_arena_strdup(a, p);
    if (p != NULL && base != NULL && posix_clean_absolute(base) && posix_clean_relative(p)) {
        size_t nb = base[1] ? strlen(base) : 0, np = strlen(p);
        char *out = rp_arena_alloc(a, nb + np + 2);
        memcpy(out, base, nb);
        out[nb] = '/';
        memcpy(out + nb + 1, p, np + 1);
        return out;
    }
    const char *s;
    if (p != NULL && p[0] == '/')
        s = p;
    else if (base != NULL && base[0] != '\0')
        s = (p != NULL && p[0]) ? rp_arena_sprintf(a, "%s/%s", base, p) : base;
    else
        s = (p != NULL) ? p : "";
    size_t n = strlen(s);
    char *out = rp_arena_alloc(a, n + 3);
    out[0] = '/'; /* still relative: the root stands in for process.cwd() */
    size_t t = normalize_string(RP_PATH_POSIX, s, n, false, out + 1);
    out[1 + t] = '\0';
    return out;
}

static char *win32_resolve(rp_arena *a, const char *base, const char *p)
{
    const char *args[2] = {base, p};
    const char *device = "";
    const char *tail = "";
    bool absolute = false;
    for (int i = 1; i >= -1; i--) {
        const char *path;
        if (i >= 0) {
            path = args[i];
            if (path == NULL || path[0] == '\0')
                continue;
        } else {
            /* Node would ask process.cwd() or the drive's "=C:" variable here. */
            path = device[0] ? rp_arena_sprintf(a, "%s\\", device) : "\\";
        }
        size_t n = strlen(path);
        win_root r = win32_root(path, n);
        char *dev = win32_device(a, path, &r);
        if (dev[0]) {
            if (device[0]) {
                bool same = strlen(dev) == strlen(device);
                for (size_t k = 0; same && dev[k]; k++)
                    same = ascii_lower(dev[k]) == ascii_lower(device[k]);
                if (!same)
                    continue; /* names another drive: does not apply */
            } else {
                device = dev;
            }
        }
        if (absolute) {
            if (device[0])
                break;
        } else {
            tail = rp_arena_sprintf(a, "%s\\%s", path + r.root_end, tail);
            absolute = r.absolute;
            if (absolute && device[0])
                break;
        }
    }
    size_t n = strlen(tail);
    char *t = rp_arena_alloc(a, n + 3);
    size_t tl = normalize_string(RP_PATH_WIN32, tail, n, !absolute, t);
    t[tl] = '\0';
    if (absolute)
        return rp_arena_sprintf(a, "%s\\%s", device, t);
    char *out = rp_arena_sprintf(a, "%s%s", device, t);
    return out[0] ? out : rp_arena_strdup(a, ".");
}

char *rp_pathf_resolve(rp_arena *a, rp_path_flavor f, const char *base, const char *p)
{
    return f == RP_PATH_WIN32 ? win32_resolve(a, base, p) : posix_resolve(a, base, p);
}

static int posix_clean_containment(const char *dir, const char *p);
static bool posix_clean_absolute(const char *p);

static char *posix_relative(rp_arena *a, const char *from, const char *to)
{
    if (strcmp(from, to) == 0)
        return rp_arena_strdup(a, "");
    if (posix_clean_absolute(from) && posix_clean_absolute(to) &&
        posix_clean_containment(from, to) == 1)
        return rp_arena_strdup(a, to + (from[1] ? strlen(from) + 1 : 1));
    from = posix_resolve(a, NULL, from);
    to = posix_resolve(a, NULL, to);
    if (strcmp(from, to) == 0)
        return rp_arena_strdup(a, "");
    size_t fs = 1, fe = strlen(from), fl = fe - fs;
    size_t ts = 1, tl = strlen(to) - ts;
    size_t length = fl < tl ? fl : tl;
    ptrdiff_t common = -1;
    size_t i = 0;
    for (; i < length; i++) {
        char c = from[fs + i];
        if (c != to[ts + i])
            break;
        if (c == '/')
            common = (ptrdiff_t)i;
    }
    if (i == length) {
        if (tl > length) {
            if (to[ts + i] == '/')
                return rp_arena_strdup(a, to + ts + i + 1);
            if (i == 0)
                return rp_arena_strdup(a, to + ts + i); /* from is the root */
        } else if (fl > length) {
            if (from[fs + i] == '/')
                common = (ptrdiff_t)i;
            else if (i == 0)
                common = 0; /* to is the root */
        }
    }
    char *out = rp_arena_alloc(a, 3 * (fe + 1) + strlen(to) + 1);
    size_t len = 0;
    for (i = fs + (size_t)(common + 1); i <= fe; i++) {
        if (i == fe || from[i] == '/') {
            if (len > 0)
                out[len++] = '/';
            out[len++] = '.';
            out[len++] = '.';
        }
    }
    strcpy(out + len, to + ts + common);
    return out;
}

static char *win32_relative(rp_arena *a, const char *from_raw, const char *to_raw)
{
    if (strcmp(from_raw, to_raw) == 0)
        return rp_arena_strdup(a, "");
    const char *from_orig = win32_resolve(a, NULL, from_raw);
    const char *to_orig = win32_resolve(a, NULL, to_raw);
    if (strcmp(from_orig, to_orig) == 0)
        return rp_arena_strdup(a, "");
    const char *from = rp_pathf_fold(a, RP_PATH_WIN32, from_orig);
    const char *to = rp_pathf_fold(a, RP_PATH_WIN32, to_orig);
    if (strcmp(from, to) == 0)
        return rp_arena_strdup(a, "");
    size_t fs = 0, fe = strlen(from);
    while (fs < fe && from[fs] == '\\')
        fs++;
    while (fe > fs + 1 && from[fe - 1] == '\\')
        fe--;
    size_t fl = fe - fs;
    size_t ts = 0, te = strlen(to);
    while (ts < te && to[ts] == '\\')
        ts++;
    while (te > ts + 1 && to[te - 1] == '\\')
        te--;
    size_t tl = te - ts;
    size_t length = fl < tl ? fl : tl;
    ptrdiff_t common = -1;
    size_t i = 0;
    for (; i < length; i++) {
        char c = from[fs + i];
        if (c != to[ts + i])
            break;
        if (c == '\\')
            common = (ptrdiff_t)i;
    }
    if (i != length) {
        if (common == -1)
            return rp_arena_strdup(a, to_orig); /* another drive or server */
    } else {
        if (tl > length) {
            if (to[ts + i] == '\\')
                return rp_arena_strdup(a, to_orig + ts + i + 1); /* to the end, as Node */
            if (i == 2)
                return rp_arena_strdup(a, to_orig + ts + i); /* from "C:\\" */
        }
        if (fl > length) {
            if (from[fs + i] == '\\')
                common = (ptrdiff_t)i;
            else if (i == 2)
                common = 3;
        }
        if (common == -1)
            common = 0;
    }
    char *out = rp_arena_alloc(a, 3 * (fe + 1) + strlen(to_orig) + 1);
    size_t len = 0;
    for (i = fs + (size_t)(common + 1); i <= fe; i++) {
        if (i == fe || from[i] == '\\') {
            if (len > 0)
                out[len++] = '\\';
            out[len++] = '.';
            out[len++] = '.';
        }
    }
    ts += (size_t)common;
    if (len == 0 && to_orig[ts] == '\\')
        ts++;
    if (ts < te) {
        memcpy(out + len, to_orig + ts, te - ts);
        len += te - ts;
    }
    out[len] = '\0';
    return out;
}

char *rp_pathf_relative(rp_arena *a, rp_path_flavor f, const char *from, const char *to)
{
    return f == RP_PATH_WIN32 ? win32_relative(a, from, to) : posix_relative(a, from, to);
}

/* win32: whether the resolved a and b have the same device ("C:", "\\\\server\\share" or none),
 * ignoring case. */
static bool same_device(rp_arena *a, const char *x, const char *y)
{
    const char *rx = win32_resolve(a, NULL, x), *ry = win32_resolve(a, NULL, y);
    win_root r1 = win32_root(rx, strlen(rx)), r2 = win32_root(ry, strlen(ry));
    const char *d1 = rp_pathf_fold(a, RP_PATH_WIN32, win32_device(a, rx, &r1));
    const char *d2 = rp_pathf_fold(a, RP_PATH_WIN32, win32_device(a, ry, &r2));
    return strcmp(d1, d2) == 0;
}

/* POSIX and already normalised absolute ("/a/b", no "//", no "." or ".." component, no
 * trailing '/' except the root): containment is then a prefix test, which is what the hot path
 * (the cwd test of every path a check sees) needs; anything else takes Node's long way. */
static bool posix_clean_absolute(const char *p)
{
    if (p[0] != '/')
        return false;
    if (p[1] == '\0')
        return true;
    for (const char *c = p; *c; c++) {
        if (*c != '/')
            continue;
        if (c[1] == '/' || c[1] == '\0')
            return false;
        if (c[1] == '.' &&
            (c[2] == '/' || c[2] == '\0' || (c[2] == '.' && (c[3] == '/' || c[3] == '\0'))))
            return false;
    }
    return true;
}

/* For clean absolute dir and p: -1 outside, 0 equal, 1 inside. */
static int posix_clean_containment(const char *dir, const char *p)
{
    size_t n = strlen(dir);
    if (strncmp(dir, p, n) != 0)
        return -1;
    if (p[n] == '\0')
        return 0;
    if (n == 1)
        return 1; /* dir is the root */
    return p[n] == '/' ? 1 : -1;
}

bool rp_pathf_inside(rp_arena *a, rp_path_flavor f, const char *dir, const char *p)
{
    if (f == RP_PATH_POSIX && posix_clean_absolute(dir) && posix_clean_absolute(p))
        return posix_clean_containment(dir, p) == 1;
    /* Stricter than Node for win32 paths on different roots: Node's relative("i:\\", "\\i")
     * is "..i", which the §3.6 test would take for "inside". */
    if (f == RP_PATH_WIN32 && !same_device(a, dir, p))
        return false;
    const char *rel = rp_pathf_relative(a, f, dir, p);
    if (rel[0] == '\0')
        return false;
    if (rel[0] == '.' && rel[1] == '.' && (rel[2] == '\0' || rp_pathf_is_sep(f, rel[2])))
        return false;
    return !rp_pathf_is_absolute(f, rel);
}

bool rp_pathf_within(rp_arena *a, rp_path_flavor f, const char *dir, const char *p)
{
    if (f == RP_PATH_POSIX && posix_clean_absolute(dir) && posix_clean_absolute(p))
        return posix_clean_containment(dir, p) >= 0;
    return rp_pathf_relative(a, f, dir, p)[0] == '\0' || rp_pathf_inside(a, f, dir, p);
}

const char *rp_pathf_fold(rp_arena *a, rp_path_flavor f, const char *p)
{
    if (f != RP_PATH_WIN32)
        return p;
    size_t n = strlen(p);
    char *out = rp_arena_alloc(a, n + 1);
    for (size_t i = 0; i <= n; i++)
        out[i] = ascii_lower(p[i]);
    return out;
}

char *rp_pathf_dirpart(rp_arena *a, rp_path_flavor f, const char *p)
{
    size_t n = strlen(p);
    while (n > 0 && !rp_pathf_is_sep(f, p[n - 1]))
        n--;
    return rp_arena_strndup(a, p, n);
}
