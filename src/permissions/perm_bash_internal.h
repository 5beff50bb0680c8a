/* perm_bash_internal.h — what the files of the bash analysis (perm.h §4) share:
 *   perm_bash.c        rp_perm_bash_analyse, the command units and their wrapper floors (§4.2–4.6)
 *   perm_bash_words.c  a word's value as the shell would pass it ($HOME, $PWD, tracked
 *                      assignments, brace expansion; what stays unknown)
 *   perm_bash_paths.c  the path tokens of each command, the cd fold over the parser's shell
 *                      environments, and the two projections (§4.7–4.10)
 *   perm_bash_uploads.c the files network clients upload, as path tokens (§4.7)
 * One rp_perm_bash_ctx per analysis, on the caller's stack; everything else lives in the arena. */
#ifndef RAMPART_PERMISSIONS_PERM_BASH_INTERNAL_H
#define RAMPART_PERMISSIONS_PERM_BASH_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "permissions/perm.h"
#include "shell/shell.h"

/* A shell variable set by an assignment seen so far (NAME=value, export NAME=value, …). */
typedef struct rp_perm_bash_var {
    const char *name;
    size_t name_len;
    const char *value; /* NULL: set to something not known */
} rp_perm_bash_var;

typedef struct rp_perm_bash_ctx {
    rp_arena *a;
    const rp_path_ctx *pc;
    const struct rp_sh_parse *parse;
    const char *src; /* the command string given to the parser */
    size_t src_len;
    const unsigned *roles; /* per command of the parse: rp_perm_bash_program_roles of its program */
    rp_perm_bash_var *vars;
    size_t n_vars, cap_vars;
} rp_perm_bash_ctx;

/* ---- perm_bash.c ---- */

/* What a program is to the analysis (bits). */
enum {
    RP_PERM_BASH_ROLE_SHELL = 1u << 0,    /* bash, sh, zsh …: opaque with -c */
    RP_PERM_BASH_ROLE_INDIRECT = 1u << 1, /* runs a command it is given: the indirection floor */
    RP_PERM_BASH_ROLE_OUTPUT_ONLY =
        1u << 2,                        /* a builtin that prints, tests or assigns its arguments */
    RP_PERM_BASH_ROLE_WRITER = 1u << 3, /* creates, changes or removes its operands */
    RP_PERM_BASH_ROLE_DECLARER = 1u << 4, /* export, declare, local …: NAME=value arguments */
    RP_PERM_BASH_ROLE_PATTERN = 1u << 5,  /* pattern-first (§4.7 table) */
    RP_PERM_BASH_ROLE_DIR = 1u << 6,      /* cd, pushd, popd */
    RP_PERM_BASH_ROLE_EVAL = 1u << 7,
    RP_PERM_BASH_ROLE_FIND = 1u << 8,
    RP_PERM_BASH_ROLE_FD = 1u << 9,
    RP_PERM_BASH_ROLE_DD = 1u << 10,
    RP_PERM_BASH_ROLE_TRANSPARENT = 1u << 11 /* command, builtin: the same shell runs the command */
};

/* The roles of a program name (rp_perm_bash_program_name); 0 for NULL or an ordinary program. */
unsigned rp_perm_bash_program_roles(const char *prog);

/* The roles of command c of x->parse (looked up once per command). */
static inline unsigned rp_perm_bash_roles(const rp_perm_bash_ctx *x, const rp_sh_command *c)
{
    return x->roles[c - x->parse->commands];
}

/* The program of c as the floors and the token rules compare it: words[0] after quote removal,
 * the part after its last '/' (so /usr/bin/sed, ./sudo and \sudo count); NULL when c has no
 * words or words[0] is dynamic. */
const char *rp_perm_bash_program_name(const rp_sh_command *c);

/* Whether c runs in the shell of its environment itself (so a `cd` there changes it): it is
 * no wrapper's command, or only `command`, `builtin` and `eval` lead to it. */
bool rp_perm_bash_runs_in_shell(const rp_sh_command *c);

/* ---- perm_bash_words.c ---- */

/* How much of a word becomes the value. */
typedef enum rp_perm_bash_part {
    RP_PERM_BASH_WHOLE = 0,   /* the whole word */
    RP_PERM_BASH_AFTER_EQ = 1 /* what follows its first '=' (`--file=X`, `NAME=X`, `of=X`) */
} rp_perm_bash_part;

#define RP_PERM_BASH_MAX_VALUES 16 /* brace expansion beyond this leaves the word unknown */
/* ... and so does brace expansion that scans or copies more than this many bytes: an unmatched
 * '{' is rescanned from the next one, quadratic on "{a,{a,{a,..." (seconds on 17 KB). */
#define RP_PERM_BASH_BRACE_WORK_MAX ((size_t)1 << 22)

typedef struct rp_perm_bash_value {
    /* For matching: quote-removed, $HOME and $PWD expanded; an unknown expansion is kept as
     * written when it holds no separator, else as "${…}" or "$(…)"; live glob characters stay,
     * quoted ones are backslash-escaped (only when glob is set). */
    const char *value;
    /* For prompts and logs: the same with every unknown expansion as written, no escapes. */
    const char *display;
    bool unknown;         /* some part's value is not known: RP_PERM_TOK_INDIRECT */
    bool leading_unknown; /* ... and the very first part is one (absolute or relative unknown) */
    bool glob;            /* holds live (unquoted) glob characters */
    bool skip;            /* no path at all: only a process substitution, or empty */
    bool tracked;         /* an unknown part is a variable with a tracked value */
} rp_perm_bash_value;

/* The values word w takes (several after brace expansion; 0 when nothing is left). pwd: the
 * effective directory ($PWD), NULL when not known. use_vars: substitute tracked variables
 * (x->vars) instead of leaving them unknown. */
size_t rp_perm_bash_word_values(rp_perm_bash_ctx *x, const rp_sh_word *w, rp_perm_bash_part part,
                                const char *pwd, bool use_vars, rp_perm_bash_value *out);

/* Records the assignments of c that stay in the shell (bare NAME=value statements, and the
 * NAME=value arguments of export, declare, local, typeset, readonly). */
void rp_perm_bash_track_assignments(rp_perm_bash_ctx *x, const rp_sh_command *c);

/* ---- perm_bash_paths.c ---- */

/* Collects the path tokens of every command and projects them into out->candidates and
 * out->externals. */
void rp_perm_bash_paths(rp_perm_bash_ctx *x, const char *workdir, rp_perm_bash *out);

/* ---- perm_bash_uploads.c ---- */

/* Appends the files the network clients among out's units upload to out->candidates (and to
 * out->externals when outside). */
void rp_perm_bash_uploads(rp_perm_bash_ctx *x, rp_perm_bash *out);

#endif
