/* blast_radius.h — the parts of blast_radius (blast_radius.c) that have their own file: the
 * classification of parsed commands (blast_classify.c) and the reference's whitespace-split
 * reading for commands the parser cannot read (blast_fallback.c). */
#ifndef RAMPART_POLICIES_SHELL_BLAST_RADIUS_H
#define RAMPART_POLICIES_SHELL_BLAST_RADIUS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"
#include "shell/shell.h"

/* Ordered: a command list's severity is the maximum of its commands'. */
typedef enum rp_blast_severity {
    RP_BLAST_NONE = 0,
    RP_BLAST_RISKY,       /* recoverable but risky: risky_action when gate_pushes */
    RP_BLAST_CATASTROPHIC /* irreversible: always DENY */
} rp_blast_severity;

/* Severity of every simple command of a parse (wrapped, re-parsed, substituted and remote ones
 * included). src is the string that was parsed; home is context.home or NULL. */
rp_blast_severity rp_blast_classify(rp_arena *a, const struct rp_sh_parse *p, const char *src,
                                    const char *home);

/* Whether a recursive rm of `target` (a word's text, home not yet expanded) is catastrophic:
 * the root, a glob of everything under it, ~, $HOME, ${HOME}, the system directories and
 * anything under the system parents, after normalisation. Dynamic words are judged by their
 * text as written. */
bool rp_blast_rm_target_catastrophic(rp_arena *a, const char *target, const char *home);

/* The reference's reading (§5.13) of a command the parser could not read: statements split on
 * && || ; | and newline, words split on whitespace, then the rm and git push rules and the
 * regexes over the whole text. */
rp_blast_severity rp_blast_fallback(rp_arena *a, const char *command, const char *home);
/* Whether the text mentions rm, git push, mkfs or dd as words. */
bool rp_blast_mentions_guarded(const char *command);

/* The git push rules shared by both readings, over the arguments after `push` (options and
 * refspecs as plain strings): a force or deleting push is catastrophic, any other is risky. */
rp_blast_severity rp_blast_push_args(const char *const *args, size_t n);

#endif
