/* flavor.h — host path rules for the permission rules: POSIX, or win32 so that Windows folding
 * can be tested on Linux (reference permissions.md §2.4, §3.5, §3.6, §4.9).
 *
 * These follow Node's path.posix / path.win32 (the reference is written against them):
 *   normalize: '.', '..' and duplicate separators resolved lexically; a trailing separator is
 *              kept (path.normalize keeps it); "" → ".". win32 accepts '/' and '\\' and writes
 *              '\\'; a drive letter ("C:") and a UNC root ("\\\\server\\share\\") are kept.
 *   resolve:   base joined with p (p absolute → p), normalised, no trailing separator (except
 *              the root). win32: "/x" (rooted, no drive) takes the drive of base.
 *   relative:  the relative path from `from` to `to` (both absolute, normalised); "" when equal.
 *              win32 compares case-insensitively and answers with the case of `to`.
 *   inside:    p lies inside dir per §3.6: relative(dir, p) is non-empty, is not "..", does not
 *              start with ".." + separator and is not absolute. (dir itself is NOT inside.)
 *              win32 also requires the same device: Node's relative("i:\\", "\\i") is "..i".
 * Results come from the arena, NUL-terminated. No I/O. */
#ifndef RAMPART_PATH_FLAVOR_H
#define RAMPART_PATH_FLAVOR_H

#include <stdbool.h>

#include "core/arena.h"

typedef enum rp_path_flavor { RP_PATH_POSIX = 0, RP_PATH_WIN32 } rp_path_flavor;

rp_path_flavor rp_path_host_flavor(void);       /* RP_PATH_POSIX on every host rampart builds on */
bool rp_pathf_is_sep(rp_path_flavor f, char c); /* '/' (posix); '/' or '\\' (win32) */
char rp_pathf_sep(rp_path_flavor f);            /* '/' or '\\' */

/* posix: starts with '/'. win32: "C:\" or "C:/" (drive + separator), or starts with a
 * separator ("\x", "/x", "\\\\server"). "C:x" is not absolute. */
bool rp_pathf_is_absolute(rp_path_flavor f, const char *p);
/* win32 only: p starts with a drive letter and ':' followed by a separator. */
bool rp_pathf_is_drive_path(const char *p);

char *rp_pathf_normalize(rp_arena *a, rp_path_flavor f, const char *p);
char *rp_pathf_join(rp_arena *a, rp_path_flavor f, const char *base, const char *rest);
char *rp_pathf_resolve(rp_arena *a, rp_path_flavor f, const char *base, const char *p);
char *rp_pathf_relative(rp_arena *a, rp_path_flavor f, const char *from, const char *to);
bool rp_pathf_inside(rp_arena *a, rp_path_flavor f, const char *dir, const char *p);
/* p equals dir, or is inside it (segment containment: "/x/project-other" is not under
 * "/x/project"). win32 compares case-insensitively. */
bool rp_pathf_within(rp_arena *a, rp_path_flavor f, const char *dir, const char *p);
/* win32: ASCII lowercase copy; posix: p itself. */
const char *rp_pathf_fold(rp_arena *a, rp_path_flavor f, const char *p);
/* Everything up to and including the last separator; "" when there is none. */
char *rp_pathf_dirpart(rp_arena *a, rp_path_flavor f, const char *p);

#endif
