/* shell_commands.c — every command rampart says bash could execute, for the soundness oracle
 * (tests/conformance/shell_oracle.py).
 *
 * Reads commands from stdin, one JSON string per line, and prints one JSON object per command:
 *   {"unreadable":false,"cmds":[{"program":"rm","argv":["rm","-rf","/"],"known":[true,...],
 *                                "extra_args":false,"cwd":null,"ctx":N,"depth":0},...]}
 * It reads what the policies read: rp_sh_parse, whose list already holds the commands unwrapped
 * from wrappers (sudo, env, timeout, xargs, find -exec, …) and the ones re-parsed from strings a
 * shell runs (bash -c, eval, …) and from substitutions. A command without words (assignments or
 * redirections only) executes nothing and is left out.
 *
 * The marks: "program" is null when rampart cannot know the program (words[0] is dynamic);
 * known[i] is false when word i is not exactly what bash passes (an expansion, a glob, a brace,
 * a tilde). "cwd" is the directory rampart knows the command runs in, or null when it tracks
 * none: today's parse records no per-command directory (the evaluator of issue 18 will), so it is
 * always null and the oracle does not compare directories yet. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"
#include "shell/shell.h"

#include "json_lines.h"

static bool word_known(const rp_sh_word *w)
{
    return rp_sh_word_static(w) && (w->flags & RP_SH_WORD_TILDE) == 0;
}

static void emit_command(rp_buf *out, const rp_sh_command *c, bool first)
{
    rp_buf_puts(out, first ? "{\"program\":" : ",{\"program\":");
    if (c->program != NULL && !c->program_dynamic)
        rp_json_write_string(out, c->program, strlen(c->program));
    else
        rp_buf_puts(out, "null");
    rp_buf_puts(out, ",\"argv\":[");
    for (size_t k = 0; k < c->n_words; k++) {
        if (k)
            rp_buf_putc(out, ',');
        rp_json_write_string(out, c->words[k].text, c->words[k].len);
    }
    rp_buf_puts(out, "],\"known\":[");
    for (size_t k = 0; k < c->n_words; k++)
        rp_buf_puts(out, k ? (word_known(&c->words[k]) ? ",true" : ",false")
                           : (word_known(&c->words[k]) ? "true" : "false"));
    rp_buf_printf(out, "],\"extra_args\":%s,\"cwd\":null,\"ctx\":%u,\"depth\":%d}",
                  c->extra_args ? "true" : "false", c->context, c->depth);
}

static void emit(rp_buf *out, const char *cmd, size_t len)
{
    rp_arena a = {0};
    struct rp_sh_parse p;
    rp_sh_parse(&a, cmd, len, &p);
    rp_buf_printf(out, "{\"unreadable\":%s,\"cmds\":[", p.unreadable ? "true" : "false");
    bool first = true;
    for (size_t i = 0; i < p.n_commands; i++) {
        if (p.commands[i].n_words == 0)
            continue;
        emit_command(out, &p.commands[i], first);
        first = false;
    }
    rp_buf_puts(out, "]}\n");
    rp_arena_free(&a);
}

int main(void)
{
    return each_json_string_line("shell_commands", emit);
}
