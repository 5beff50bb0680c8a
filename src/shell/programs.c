/* programs.c — the table of programs by name (programs.h).
 *
 * The data programs are the ones whose operands an agent fills with free text or with names it
 * is asking about, not running: printers (`echo rm -rf /`), searchers (`grep -r "rm -rf" .`:
 * grep's pattern is one word, but `grep -e rm -rf .` is not), documentation and lookup (`man
 * rm`, `which rm`, `type rm`), messages (`logger`, `wall`, `notify-send`), the builtins that
 * take names (`alias`, `unset`, `hash`, `complete`, `declare`…), no-ops that ignore their
 * operands (`:`, `true`, `false`), tests (`test`, `[`, `expr`) and process lookups by name
 * (`pgrep rm`, `pkill rm`). Not in it: programs that run their operands (tmux, screen,
 * docker run, npm exec, …) — that is what the inferred rule is for — and `set` (`set -- rm -rf
 * /; "$@"` runs them). */
#include <stdlib.h>
#include <string.h>

#include "shell/programs.h"

static const struct program {
    const char *name;
    rp_sh_program_kind kind;
} programs[] = {
    /* sorted by name (strcmp), for bsearch */
    {":", RP_SH_PROG_DATA},
    {"[", RP_SH_PROG_DATA},
    {"ack", RP_SH_PROG_DATA},
    {"ag", RP_SH_PROG_DATA},
    {"alias", RP_SH_PROG_DATA},
    {"apropos", RP_SH_PROG_DATA},
    {"banner", RP_SH_PROG_DATA},
    {"cd", RP_SH_PROG_CD},
    {"chdir", RP_SH_PROG_CD},
    {"chgrp", RP_SH_PROG_CHMOD},
    {"chmod", RP_SH_PROG_CHMOD},
    {"chown", RP_SH_PROG_CHMOD},
    {"compgen", RP_SH_PROG_DATA},
    {"complete", RP_SH_PROG_DATA},
    {"cowsay", RP_SH_PROG_DATA},
    {"cp", RP_SH_PROG_COPY},
    {"databricks", RP_SH_PROG_INFRA},
    {"dd", RP_SH_PROG_DD},
    {"declare", RP_SH_PROG_DATA},
    {"echo", RP_SH_PROG_DATA},
    {"egrep", RP_SH_PROG_DATA},
    {"espeak", RP_SH_PROG_DATA},
    {"export", RP_SH_PROG_DATA},
    {"expr", RP_SH_PROG_DATA},
    {"false", RP_SH_PROG_DATA},
    {"fgrep", RP_SH_PROG_DATA},
    {"figlet", RP_SH_PROG_DATA},
    {"find", RP_SH_PROG_FIND},
    {"gh", RP_SH_PROG_GH},
    {"git", RP_SH_PROG_GIT},
    {"grep", RP_SH_PROG_DATA},
    {"hash", RP_SH_PROG_DATA},
    {"helm", RP_SH_PROG_INFRA},
    {"help", RP_SH_PROG_DATA},
    {"history", RP_SH_PROG_DATA},
    {"info", RP_SH_PROG_DATA},
    {"install", RP_SH_PROG_COPY},
    {"killall", RP_SH_PROG_DATA},
    {"kubectl", RP_SH_PROG_INFRA},
    {"ln", RP_SH_PROG_WRITES},
    {"local", RP_SH_PROG_DATA},
    {"logger", RP_SH_PROG_DATA},
    {"man", RP_SH_PROG_DATA},
    {"mkdir", RP_SH_PROG_WRITES},
    {"mke2fs", RP_SH_PROG_MKFS},
    {"mv", RP_SH_PROG_COPY},
    {"notify-send", RP_SH_PROG_DATA},
    {"perl", RP_SH_PROG_WRITES},
    {"pgrep", RP_SH_PROG_DATA},
    {"pidof", RP_SH_PROG_DATA},
    {"pkill", RP_SH_PROG_DATA},
    {"popd", RP_SH_PROG_CD},
    {"printf", RP_SH_PROG_DATA},
    {"pushd", RP_SH_PROG_CD},
    {"read", RP_SH_PROG_DATA},
    {"readonly", RP_SH_PROG_DATA},
    {"rg", RP_SH_PROG_DATA},
    {"rm", RP_SH_PROG_RM},
    {"rmdir", RP_SH_PROG_WRITES},
    {"say", RP_SH_PROG_DATA},
    {"sed", RP_SH_PROG_WRITES},
    {"shred", RP_SH_PROG_SHRED},
    {"tee", RP_SH_PROG_TEE},
    {"terraform", RP_SH_PROG_INFRA},
    {"test", RP_SH_PROG_DATA},
    {"tldr", RP_SH_PROG_DATA},
    {"touch", RP_SH_PROG_WRITES},
    {"true", RP_SH_PROG_DATA},
    {"truncate", RP_SH_PROG_WRITES},
    {"type", RP_SH_PROG_DATA},
    {"typeset", RP_SH_PROG_DATA},
    {"unalias", RP_SH_PROG_DATA},
    {"unlink", RP_SH_PROG_WRITES},
    {"unset", RP_SH_PROG_DATA},
    {"wall", RP_SH_PROG_DATA},
    {"whatis", RP_SH_PROG_DATA},
    {"whereis", RP_SH_PROG_DATA},
    {"which", RP_SH_PROG_DATA},
    {"wipefs", RP_SH_PROG_MKFS},
    {"yes", RP_SH_PROG_DATA},
};

static int compare_program(const void *key, const void *entry)
{
    return strcmp(key, ((const struct program *)entry)->name);
}

rp_sh_program_kind rp_sh_program_kind_of(const char *program)
{
    if (program == NULL)
        return RP_SH_PROG_UNKNOWN;
    if (strncmp(program, "mkfs", 4) == 0) /* mkfs, mkfs.ext4, mkfs.vfat, … */
        return RP_SH_PROG_MKFS;
    const struct program *hit = bsearch(program, programs, sizeof programs / sizeof programs[0],
                                        sizeof programs[0], compare_program);
    return hit ? hit->kind : RP_SH_PROG_UNKNOWN;
}
