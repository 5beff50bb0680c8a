/* channels.h — code that reaches a program through its stdin or a file made on the spot, shared
 * by channels.c (the consumers: shells, source, at, xargs, find -exec, parallel) and producers.c
 * (the text a stdin, a pipe, a process substitution or a file written earlier carries).
 *
 * A text is KNOWN when it is the same on every run (a quoted here-doc, a static here-string,
 * `echo`/`printf` of static words, `cat`/`tee`/`base64 -d`/`rev` of known text), UNKNOWN when
 * something feeds it that cannot be evaluated without running it (`curl …`, `cat file`,
 * `$VAR`), and NONE when nothing is connected (the terminal, a file not written by this
 * command line). All lookups spend one budget per parse, so hostile input stays linear. */
#ifndef RAMPART_SHELL_CHANNELS_H
#define RAMPART_SHELL_CHANNELS_H

#include "shell/shell_internal.h"

/* A text longer than this is UNKNOWN (it bounds printf's repetition and every copy). */
#define RP_SH_CHANNEL_MAX_TEXT ((size_t)4 << 20)
/* Producers followed back from one consumer (cat | tee | base64 -d | …). */
#define RP_SH_CHANNEL_MAX_HOPS 16
/* Command visits all lookups of one parse may make; past it every text is UNKNOWN. */
#define RP_SH_CHANNEL_BUDGET ((size_t)1 << 22)
/* Consumers followed per parse; past it each further one is reported as running unknown code. */
#define RP_SH_CHANNEL_MAX_FOLLOWED 256

/* Bytes of followed code parsed per parse: the length of the command plus this; past it a
 * further text is UNKNOWN (the same 1 MB script run 300 times is listed once, so a parse
 * lists at most about twice what its input spells out). */
#define RP_SH_CHANNEL_PARSED_SLACK ((size_t)64 << 10)
/* Commands listed with arguments a program adds (xargs, find, parallel); past it the command is
 * unreadable (`find -exec find -exec …` multiplies). */
#define RP_SH_CHANNEL_MAX_EMITTED 4096

typedef enum rp_sh_text_kind {
    RP_SH_TEXT_NONE = 0,
    RP_SH_TEXT_KNOWN,
    RP_SH_TEXT_UNKNOWN
} rp_sh_text_kind;

typedef struct rp_sh_text {
    rp_sh_text_kind kind;
    /* KNOWN: the text, NUL-terminated (the text itself holds no NUL). UNKNOWN: NULL, or the
     * text as written with its expansions not done (an unquoted here-doc, `<<< "$x"`,
     * `echo "$x"`): a template policies may still read, next to the unknown code. */
    const char *text;
    size_t len;
} rp_sh_text;

typedef struct rp_sh_chan {
    rp_sh_state *st;
    size_t budget;   /* command visits left */
    size_t followed; /* consumers followed */
    size_t parsed;   /* bytes of followed code parsed */
    size_t max_parsed;
    size_t emitted; /* commands listed by emit_argv */
} rp_sh_chan;

/* Spends one visit; false when the budget is gone. */
bool rp_sh_chan_spend(rp_sh_chan *ch, size_t visits);

/* ---- producers.c ---- */
/* What command k reads on its stdin: its own `<<`, `<<<`, `<` (nearest first), else its
 * wrapper's, the previous pipeline stage's output, or what a `>(…)` it runs in is fed. */
rp_sh_text rp_sh_stdin_text(rp_sh_chan *ch, size_t k, int hops);
/* What command k writes on its stdout when it is a pure producer; UNKNOWN otherwise. */
rp_sh_text rp_sh_output_text(rp_sh_chan *ch, size_t k, int hops);
/* What the file `path` holds when commands listed before `before` wrote it (`> path`,
 * `>> path`, `tee path`); NONE when none did. */
rp_sh_text rp_sh_file_text(rp_sh_chan *ch, size_t before, const char *path, int hops);
/* The output of the commands inside the process substitution word w: the sole command or the
 * last stage of the sole pipeline there; UNKNOWN otherwise. */
rp_sh_text rp_sh_procsub_text(rp_sh_chan *ch, const rp_sh_word *w, int hops);
/* /dev/stdin, /dev/fd/0, /proc/self/fd/0: another name for the stdin. */
bool rp_sh_is_stdin_path(const char *path);

/* ---- channels.c ---- */
/* After the parse: follows every channel of every command listed (and of those it adds). */
void rp_sh_follow_channels(rp_sh_state *st);

#endif
