/* path.h — the one path normaliser every policy uses (lexical; symlinks only through the
 * evaluation context's filesystem view). POSIX paths; Windows folding comes with the
 * permission rules. All results come from the arena and are NUL-terminated. */
#ifndef RAMPART_PATH_PATH_H
#define RAMPART_PATH_PATH_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"
#include "core/fs.h"

/* Python's posixpath.normpath: collapses "//" and "/./", resolves ".." lexically (never above
 * "/" for absolute paths; kept at the front of relative ones), drops a trailing "/"; "" → ".".
 * Unlike normpath, a leading "//" is folded to "/" (POSIX leaves it implementation-defined;
 * Linux treats it as "/"). */
char *rp_path_normalize(rp_arena *a, const char *path);
/* base joined with rel (rel absolute → rel), then normalised. */
char *rp_path_join(rp_arena *a, const char *base, const char *rel);
/* Expands a leading "~", "~/", "$HOME", "${HOME}" against home (NULL home → unchanged). "~user"
 * is left as is. */
char *rp_path_expand_home(rp_arena *a, const char *path, const char *home);
/* Whether normalised absolute `path` equals `root` or lies below it ("/a/bc" is not under "/a/b"). */
bool rp_path_is_under(const char *path, const char *root);
/* Resolves symlinks of the longest existing prefix of an absolute normalised path through fs
 * (NULL fs → the path itself); the rest is appended lexically. */
char *rp_path_canonical(rp_arena *a, const char *path, const rp_fs_view *fs);

#endif
