/* shell.h — the one bash parser every policy uses to read a command.
 *
 * rp_sh_parse turns a command string (as an agent sends it, often multi-line) into a flat list
 * of simple commands in source order. Each carries its words after quote removal, its
 * assignments and redirections, and the syntactic context it sits in. Wrappers (sudo, env,
 * nohup, timeout, xargs, find -exec, `bash -c STRING`, eval, ssh host CMD, …) are unwrapped
 * recursively: the wrapper itself is listed, and so is the command it runs, with `wrapper`
 * pointing back and RP_SH_CTX_WRAPPED set. Strings run by a shell (`bash -c`, `eval`, `su -c`,
 * `script -c`, `ssh host CMD`, `watch CMD`) are parsed again, with RP_SH_CTX_STRING. Commands
 * inside $(…), `…`, <(…), >(…) and the substitutions of unquoted here-doc bodies are listed too.
 *
 * Every command also says which shell environment it runs in (`env`): the top-level shell, a
 * ( … ) subshell, a substitution body, a pipeline stage, a background job, or a string a new
 * shell process runs. A `cd` or an assignment changes only its own environment; environments
 * form a tree (env_parent), each starting as a copy of its parent.
 *
 * Everything is allocated from the caller's arena; parsing does no other allocation and no I/O.
 * A command that cannot be read (unbalanced quotes, unterminated substitution, nesting deeper
 * than RP_SH_MAX_DEPTH) yields unreadable = true, with the commands read so far still listed:
 * policies must never treat an unreadable command as harmless. */
#ifndef RAMPART_SHELL_SHELL_H
#define RAMPART_SHELL_SHELL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"

#define RP_SH_MAX_DEPTH 8 /* unwrap/re-parse depth; deeper is unreadable */

/* Where a simple command sits; a bit set, since contexts nest. */
enum {
    RP_SH_CTX_PIPELINE = 1u << 0,     /* a stage of a pipeline of two or more (see stage) */
    RP_SH_CTX_BACKGROUND = 1u << 1,   /* in a list terminated by & */
    RP_SH_CTX_SUBSHELL = 1u << 2,     /* ( … ) */
    RP_SH_CTX_BRACE = 1u << 3,        /* { …; } */
    RP_SH_CTX_CMDSUB = 1u << 4,       /* $( … ) or ` … ` */
    RP_SH_CTX_PROCSUB = 1u << 5,      /* <( … ) or >( … ) */
    RP_SH_CTX_IF = 1u << 6,           /* if/elif condition or body */
    RP_SH_CTX_LOOP = 1u << 7,         /* while/until/for/select body or condition */
    RP_SH_CTX_CASE = 1u << 8,         /* case arm */
    RP_SH_CTX_FUNCTION = 1u << 9,     /* function body (runs only when called) */
    RP_SH_CTX_WRAPPED = 1u << 10,     /* produced by unwrapping a wrapper command */
    RP_SH_CTX_STRING = 1u << 11,      /* parsed from a string a shell runs (bash -c, eval, …) */
    RP_SH_CTX_REMOTE = 1u << 12,      /* runs on another host (ssh host CMD) */
    RP_SH_CTX_HEREDOC = 1u << 13,     /* a substitution inside an unquoted here-doc body */
    RP_SH_CTX_CONDITIONAL = 1u << 14, /* right of && or || (may not run) */
    /* inferred, not known: an argv suffix of a program rampart does not know that starts with
     * the name of one it does (`foo --bar rm -rf /` lists `rm -rf /`; unwrap.c) */
    RP_SH_CTX_INFERRED = 1u << 15,
    RP_SH_CTX_CHANNEL = 1u << 16 /* reached through stdin, a file made on the spot, or
                                    arguments a program adds (channels.c) */
};

/* What a word contains. A word is static when none of the DYNAMIC bits is set. */
enum {
    RP_SH_WORD_QUOTED = 1u << 0,  /* some part was quoted or escaped */
    RP_SH_WORD_VAR = 1u << 1,     /* $VAR, ${…}, $1, $@ … */
    RP_SH_WORD_CMDSUB = 1u << 2,  /* $( … ) or ` … ` */
    RP_SH_WORD_ARITH = 1u << 3,   /* $(( … )) */
    RP_SH_WORD_GLOB = 1u << 4,    /* unquoted * ? [ … ] */
    RP_SH_WORD_BRACE = 1u << 5,   /* unquoted brace expansion {a,b} or {1..3} */
    RP_SH_WORD_TILDE = 1u << 6,   /* leading ~ or ~user (expands; see rp_sh_word.text) */
    RP_SH_WORD_PROCSUB = 1u << 7, /* <( … ) or >( … ) as a word */
};
#define RP_SH_WORD_DYNAMIC                                                                         \
    (RP_SH_WORD_VAR | RP_SH_WORD_CMDSUB | RP_SH_WORD_ARITH | RP_SH_WORD_GLOB | RP_SH_WORD_BRACE |  \
     RP_SH_WORD_PROCSUB)

typedef struct rp_sh_word {
    /* After quote removal and ANSI-C decoding: for a static word exactly what the program would
     * get in argv. Dynamic parts are kept as written (`$HOME/x` stays "$HOME/x"; a leading `~`
     * stays "~"), so policies can still recognise them. NUL-terminated; len excludes the NUL. */
    const char *text;
    size_t len;
    const char *raw; /* the source slice as written (not NUL-terminated) */
    size_t raw_len;
    size_t offset; /* byte offset of raw in the string given to rp_sh_parse at top level */
    unsigned flags;
} rp_sh_word;

static inline bool rp_sh_word_static(const rp_sh_word *w)
{
    return (w->flags & RP_SH_WORD_DYNAMIC) == 0;
}

typedef enum rp_sh_redir_op {
    RP_SH_REDIR_OUT = 0,       /* >   */
    RP_SH_REDIR_APPEND,        /* >>  */
    RP_SH_REDIR_IN,            /* <   */
    RP_SH_REDIR_INOUT,         /* <>  */
    RP_SH_REDIR_CLOBBER,       /* >|  */
    RP_SH_REDIR_DUP_OUT,       /* >&  (target a fd number, '-', or a file: then like &>) */
    RP_SH_REDIR_DUP_IN,        /* <&  */
    RP_SH_REDIR_OUT_ERR,       /* &>  */
    RP_SH_REDIR_APPEND_ERR,    /* &>> */
    RP_SH_REDIR_HEREDOC,       /* <<  */
    RP_SH_REDIR_HEREDOC_STRIP, /* <<- */
    RP_SH_REDIR_HERESTRING     /* <<< */
} rp_sh_redir_op;

typedef struct rp_sh_redir {
    rp_sh_redir_op op;
    int fd;                   /* explicit fd number before the operator, or -1 */
    rp_sh_word target;        /* file, fd, here-doc delimiter or here-string word */
    const char *heredoc_body; /* here-docs: the body text (NUL-terminated), else NULL */
    bool heredoc_quoted;      /* delimiter was quoted: the body is pure data */
} rp_sh_redir;

/* True for operators that may create or write the target file. */
bool rp_sh_redir_writes(const rp_sh_redir *r);

/* What started a shell environment (rp_sh_command.env, rp_sh_parse.env_kind). */
typedef enum rp_sh_env_kind {
    RP_SH_ENV_TOP = 0,  /* the shell that runs the command string (env 0) */
    RP_SH_ENV_SUBSHELL, /* ( … ) */
    RP_SH_ENV_SUBST, /* the body of $( … ), ` … `, <( … ) or >( … ) (here-doc ones too) */
    RP_SH_ENV_PIPE_STAGE, /* one stage of a pipeline of two or more: bash forks every stage */
    RP_SH_ENV_BACKGROUND, /* a list element run with & */
    RP_SH_ENV_STRING      /* a string a new shell process runs: bash -c, su -c, script -c,
                             flock -c, watch CMD, ssh host CMD (not eval: the current shell) */
} rp_sh_env_kind;

typedef struct rp_sh_command rp_sh_command;
struct rp_sh_command {
    rp_sh_word *words; /* argv, words[0] is the program as written */
    size_t n_words;
    rp_sh_word *assigns; /* NAME=value prefixes */
    size_t n_assigns;
    rp_sh_redir *redirs;
    size_t n_redirs;

    /* The program name normalised: quotes and backslashes removed, basename of a path
     * ("/usr/bin/rm" → "rm"; "./rm" stays "./rm" — it is not the rm on PATH). NULL when the
     * command has no words (only assignments/redirections) or words[0] is dynamic. */
    const char *program;
    bool program_is_path;    /* words[0] contained a '/' (absolute or relative path) */
    bool program_dynamic;    /* words[0] is dynamic: the program is unknown */
    bool is_builtin_wrapped; /* reached through `builtin` or `command` */
    /* Set on a wrapper's inner command when the wrapper supplies more arguments at run time
     * (xargs, find -exec … {}): words are only the fixed part. */
    bool extra_args;

    unsigned context; /* RP_SH_CTX_* bits */
    int pipeline;     /* index of its pipeline (same value = same pipeline), or -1 */
    int stage;        /* 0-based stage within the pipeline */
    int depth;        /* 0 at top level; +1 per unwrap or re-parse */
    /* The shell environment it runs in (index into rp_sh_parse.env_*; 0 = the top-level
     * shell). A wrapper's directly executed command (sudo CMD, env CMD, xargs CMD …) shares
     * the wrapper's environment: it is another process, but no shell of its own. */
    int env;
    const rp_sh_command *wrapper; /* the command it was unwrapped from, or NULL */
    const char *remote_host;      /* ssh destination when RP_SH_CTX_REMOTE */
    size_t offset, end;           /* byte span in the top-level string (for wrapped/string
                                     commands: the span of the outermost command) */
};

/* The result of a parse. Spelled `struct rp_sh_parse` (no typedef: the name is the function's). */
struct rp_sh_parse {
    rp_sh_command *commands; /* in source order; a wrapper precedes what it runs */
    size_t n_commands;
    bool unreadable;   /* the command string cannot be fully read */
    const char *error; /* why, when unreadable (static or arena text) */
    size_t error_offset;
    /* The environments: env_parent[0] = -1, and env_parent[e] < e for every other e (ids are
     * in pre-order: an environment is numbered before the ones started inside it).
     * env_kind[e] is an rp_sh_env_kind. n_envs >= 1. */
    const int *env_parent;
    const unsigned *env_kind;
    size_t n_envs;
};

/* Parses src[0..len). Returns 0, or -1 when unreadable (out is filled either way). */
int rp_sh_parse(rp_arena *a, const char *src, size_t len, struct rp_sh_parse *out);

/* The words (their text) of the first simple command of text: what install reads out of a
 * hook command line and blast_radius out of a git alias value (git's split_cmdline honours
 * quotes and backslashes as the shell does). NULL (and *n = 0) when text is unreadable or has
 * no command. */
const char *const *rp_sh_simple_words(rp_arena *a, const char *text, size_t len, size_t *n);

/* The parse without its inferred commands (RP_SH_CTX_INFERRED), for a reader that wants only
 * what the text says for certain: *out shares the words and environments of *p, and gets a new
 * command array (wrapper pointers into it) when there was something to drop. */
void rp_sh_without_inferred(rp_arena *a, const struct rp_sh_parse *p, struct rp_sh_parse *out);

/* Convenience: whether word i of c exists, is static and equals lit. */
bool rp_sh_word_is(const rp_sh_command *c, size_t i, const char *lit);

#endif
