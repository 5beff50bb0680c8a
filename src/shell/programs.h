/* programs.h — what rampart knows a program to be, by its normalised name: the one table of
 * the programs the shell policies classify (blast_radius dispatches on it), and of the programs
 * that treat their operands as data. The parser's inferred-command rule (unwrap.c) reads both:
 * for a program it knows nothing about, an argv suffix that starts with a known name is also
 * listed as that command (RP_SH_CTX_INFERRED). */
#ifndef RAMPART_SHELL_PROGRAMS_H
#define RAMPART_SHELL_PROGRAMS_H

#include <stdbool.h>

typedef enum rp_sh_program_kind {
    RP_SH_PROG_UNKNOWN = 0,
    RP_SH_PROG_RM,     /* rm */
    RP_SH_PROG_GIT,    /* git */
    RP_SH_PROG_GH,     /* gh */
    RP_SH_PROG_INFRA,  /* kubectl helm terraform databricks */
    RP_SH_PROG_MKFS,   /* mkfs, mkfs.*, mke2fs, wipefs */
    RP_SH_PROG_DD,     /* dd */
    RP_SH_PROG_TEE,    /* tee */
    RP_SH_PROG_COPY,   /* cp mv install */
    RP_SH_PROG_SHRED,  /* shred */
    RP_SH_PROG_CHMOD,  /* chmod chown chgrp */
    RP_SH_PROG_FIND,   /* find (also a wrapper: -exec) */
    RP_SH_PROG_WRITES, /* what else writes its operands (worktree_guard): rmdir unlink truncate
                          touch mkdir ln sed perl */
    RP_SH_PROG_CD,     /* cd pushd popd chdir */
    RP_SH_PROG_DATA    /* treats its operands as data: echo, printf, grep, man, which, … */
} rp_sh_program_kind;

/* The kind of a normalised program name (rp_sh_command.program); NULL is unknown. */
rp_sh_program_kind rp_sh_program_kind_of(const char *program);

#endif
