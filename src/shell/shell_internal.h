/* shell_internal.h — what the files of src/shell/ share: the parse state, the source cursor, the
 * frame (context a command is parsed in) and the functions each file provides.
 *
 * Ownership: one rp_sh_state per rp_sh_parse call, on the caller's stack; every array it grows
 * lives in the caller's arena. Commands are referred to by index while parsing, because the
 * command array moves as it grows; pointers (rp_sh_command.wrapper) are set at the very end.
 *
 * Words, assignments and redirections of the command being read are pushed on stacks in the
 * state. A substitution inside a word is parsed to completion before the outer word goes on, so
 * the stacks are used strictly last-in first-out: a command copies its part out and pops it. */
#ifndef RAMPART_SHELL_SHELL_INTERNAL_H
#define RAMPART_SHELL_SHELL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "shell/shell.h"

/* Syntactic nesting ((…), $(…), if, …) beyond this is unreadable; it bounds the C stack. */
#define RP_SH_MAX_NESTING 100

/* The error of a syntax error inside `…` (bash itself finds it only when the body runs). */
#define RP_SH_ERROR_IN_BACKTICKS "syntax error inside a backtick substitution"

/* The error of a bad substitution in an unquoted here-doc body (bash finds it on expansion). */
#define RP_SH_ERROR_IN_HEREDOC "syntax error in a substitution inside a here-document"

/* The error of a string run by a wrapper's shell (bash -c, eval, env -S, ssh …) that does not
 * parse (bash sees only a quoted word). */
#define RP_SH_ERROR_IN_STRING "syntax error in a string a wrapper runs as a command"

/* pipeline value of a command no pipeline has claimed yet (becomes -1 at the end). */
#define RP_SH_PIPELINE_UNSET (-2)

typedef struct rp_sh_state {
    rp_arena *arena;
    size_t top_len; /* length of the top-level string (offsets are clamped to it) */

    rp_sh_command *cmds;
    int *wrapper_of; /* per command: index of its wrapper, or -1 */
    size_t n_cmds, cap_cmds;

    rp_sh_word *words; /* word stack */
    size_t n_words, cap_words;
    rp_sh_word *assigns; /* assignment stack */
    size_t n_assigns, cap_assigns;
    rp_sh_redir *redirs; /* redirection stack */
    size_t n_redirs, cap_redirs;
    char *scratch; /* text being built, a stack of bytes */
    size_t n_scratch, cap_scratch;

    int next_pipeline;
    int nesting;

    /* Shell environments (env 0, the top level, is implicit until a second one starts). */
    int *env_parent;
    unsigned *env_kind;
    size_t n_envs, cap_envs;
    bool env_reorder; /* some parent got a larger id than its child (renumbered at the end) */

    bool failed; /* parsing stopped: the command is unreadable */
    const char *error;
    size_t error_offset;
} rp_sh_state;

/* The context a command is read in: what every command parsed under it inherits. */
typedef struct rp_sh_frame {
    unsigned ctx;
    int depth;
    int wrapper; /* index of the wrapper command, or -1 */
    int env;     /* the shell environment its commands run in */
    const char *remote_host;
    bool span_fixed; /* commands take span_off/span_end (strings a wrapper runs) */
    size_t span_off, span_end;
} rp_sh_frame;

typedef struct rp_sh_heredoc_pending {
    rp_sh_redir *redir; /* in a finished command's redirection array (never moves) */
    rp_sh_frame frame;  /* of the command it belongs to */
    size_t cmd;         /* that command: its environment may change (pipeline, &) before the
                           body is read */
} rp_sh_heredoc_pending;

/* One string being read: the top-level string, or a string a wrapper runs, or a backtick body
 * after its backslashes were removed. */
typedef struct rp_sh_src {
    rp_sh_state *st;
    const char *text;
    size_t pos, end;
    size_t base; /* top-level offset of text[0] (exact) or of the whole string (not exact) */
    bool exact;
    rp_sh_heredoc_pending *pending; /* here-docs whose bodies start after the next newline */
    size_t n_pending, cap_pending;
} rp_sh_src;

/* ---- shell.c: state, stacks, commands ---- */
void rp_sh_fail(rp_sh_src *s, size_t pos, const char *why);
void rp_sh_fail_state(rp_sh_state *st, size_t offset, const char *why); /* callers stop on failed */
size_t rp_sh_offset(const rp_sh_src *s, size_t pos);
void rp_sh_src_init(rp_sh_src *s, rp_sh_state *st, const char *text, size_t len, size_t base,
                    bool exact);
void rp_sh_push_word(rp_sh_state *st, const rp_sh_word *w);
void rp_sh_push_assign(rp_sh_state *st, const rp_sh_word *w);
void rp_sh_push_redir(rp_sh_state *st, const rp_sh_redir *r);
size_t rp_sh_reserve_command(rp_sh_state *st);
void rp_sh_normalise_program(rp_sh_command *c);
void rp_sh_mark_range(rp_sh_state *st, size_t from, unsigned ctx_bits);
/* Starts a shell environment of kind (rp_sh_env_kind) inside parent; returns its id. */
int rp_sh_new_env(rp_sh_state *st, unsigned kind, int parent);
/* A construct found to run in an environment of its own only after its commands were read
 * (a pipeline stage, a background list): commands [cmd_from, n_cmds) of env `from` and the
 * environments started since env_from directly inside `from` move into a new env of kind. */
int rp_sh_rehome(rp_sh_state *st, size_t cmd_from, size_t env_from, int from, unsigned kind);
/* Scratch text: begin returns a mark; finish copies bytes from the mark into the arena and pops. */
void rp_sh_scratch_grow(rp_sh_state *st, size_t more);
static inline void rp_sh_scratch_putc(rp_sh_state *st, char c)
{
    if (st->n_scratch == st->cap_scratch)
        rp_sh_scratch_grow(st, 1);
    st->scratch[st->n_scratch++] = c;
}
void rp_sh_scratch_put(rp_sh_state *st, const char *p, size_t n);
char *rp_sh_scratch_finish(rp_sh_state *st, size_t mark, size_t *len_out);

/* ---- lex_word.c: words ---- */
enum {
    RP_SH_LEX_ASSIGN_POS = 1u << 0, /* NAME=… is an assignment here; arr=(…) allowed */
    RP_SH_LEX_REGEX = 1u << 1       /* right of =~ inside [[ ]]: ( ) | are part of the word */
};
bool rp_sh_is_meta(char c);
bool rp_sh_is_blank(char c);
bool rp_sh_is_name_start(char c);
bool rp_sh_is_name_char(char c);
/* Reads the word at s->pos into *w. Sets *is_assign when it is NAME=… in assignment position.
 * Returns false when there is no word there or on failure (st->failed). */
bool rp_sh_lex_word(rp_sh_src *s, const rp_sh_frame *f, unsigned mode, rp_sh_word *w,
                    bool *is_assign);
/* Whether the text after `((` / `$((` at from is arithmetic (its first unbalanced `)` is
 * followed by another) rather than a subshell. */
bool rp_sh_is_arithmetic(const rp_sh_src *s, size_t from);
/* 1: arithmetic; 0: a subshell (the first unbalanced `)` is not followed by another); -1: no
 * unbalanced `)` at all, which bash reports as a syntax error. */
int rp_sh_arithmetic_kind(const rp_sh_src *s, size_t from);
/* s->pos at the first byte after `((`: walks past the closing `))`, parsing substitutions. */
void rp_sh_lex_arith_command(rp_sh_src *s, const rp_sh_frame *f, size_t open);
/* Walks an unquoted here-doc body [s->pos, s->end) and parses the substitutions in it. */
void rp_sh_scan_heredoc_body(rp_sh_src *s, const rp_sh_frame *f);

/* ---- ansi_c.c: $'…' ---- */
/* Decodes the body of $'…' starting at p (just after the opening quote). Appends the decoded
 * bytes to the scratch text. Returns the number of bytes consumed including the closing quote,
 * or 0 when the closing quote is missing. */
size_t rp_sh_ansi_c_decode(rp_sh_state *st, const char *p, size_t n);

/* ---- parse.c: the grammar ---- */
/* Parses a whole program in s (to s->end); a stray `)` or reserved word is an error. */
void rp_sh_parse_program(rp_sh_src *s, const rp_sh_frame *f);
/* Parses a command list up to the `)` of $( … ) or <( … ) (s->pos just after the `(`) and
 * consumes the `)`. */
void rp_sh_parse_subst_body(rp_sh_src *s, const rp_sh_frame *f);
/* Parses text (a string a wrapper runs) as a program of its own. */
void rp_sh_parse_string(rp_sh_state *st, const char *text, size_t len, size_t base, bool exact,
                        const rp_sh_frame *f);
void rp_sh_skip_blanks(rp_sh_src *s);

/* ---- unwrap.c: wrappers ---- */
/* Lists the command that command idx runs, when it is a wrapper (recursively). */
void rp_sh_unwrap(rp_sh_state *st, size_t idx, const rp_sh_frame *f);

/* A shell's own options (sh, bash, dash, zsh, …: `-c`, `-s`, `-n`, `-o OPT`, `-O SHOPT`,
 * `--rcfile FILE`, `--command`, …), read once for unwrap.c (a command string) and channels.c
 * (code on stdin or in a script operand). */
typedef struct rp_sh_shell_args {
    size_t operand;  /* the first word after the options (n_words when there is none) */
    bool command;    /* -c or --command: the operand is a command string */
    bool no_exec;    /* -n: the shell reads but runs nothing */
    bool read_stdin; /* -s: the code comes from stdin whatever the operands */
} rp_sh_shell_args;
void rp_sh_read_shell_args(const rp_sh_word *w, size_t n, rp_sh_shell_args *out);

#endif
