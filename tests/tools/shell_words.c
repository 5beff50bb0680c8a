/* shell_words.c — what rp_sh_parse reads, for the differential test against bash.
 *
 * Default mode: reads commands from stdin, one JSON string per line (commands are often
 * multi-line), and prints one JSON object per command:
 *   {"ok":true,"error":null,"cmds":[{"argv":[...],"ctx":N,"static":true,"depth":0,"program":"x",
 *                       "assigns":N,"redirs":[[op,fd,"target"],...]},...]}
 * listing every command in order (policies see them all; the test picks the depth-0 ones).
 *
 * `shell_words -d CMD…` prints every field of every command, for people. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"
#include "shell/shell.h"

#include "json_lines.h"

static void dump(const char *cmd)
{
    rp_arena a = {0};
    struct rp_sh_parse p;
    int rc = rp_sh_parse(&a, cmd, strlen(cmd), &p);
    printf("rc=%d unreadable=%d error=%s at %zu, %zu commands\n", rc, p.unreadable,
           p.error ? p.error : "-", p.error_offset, p.n_commands);
    for (size_t i = 0; i < p.n_commands; i++) {
        const rp_sh_command *c = &p.commands[i];
        printf("[%zu] program=%s path=%d dyn=%d builtin=%d extra=%d ctx=0x%x pipe=%d/%d depth=%d "
               "wrapper=%ld host=%s span=%zu..%zu\n",
               i, c->program ? c->program : "(null)", c->program_is_path, c->program_dynamic,
               c->is_builtin_wrapped, c->extra_args, c->context, c->pipeline, c->stage, c->depth,
               c->wrapper ? (long)(c->wrapper - p.commands) : -1L,
               c->remote_host ? c->remote_host : "-", c->offset, c->end);
        for (size_t k = 0; k < c->n_assigns; k++)
            printf("    assign \"%s\" flags=0x%x\n", c->assigns[k].text, c->assigns[k].flags);
        for (size_t k = 0; k < c->n_words; k++)
            printf("    word \"%s\" flags=0x%x raw=\"%.*s\" @%zu\n", c->words[k].text,
                   c->words[k].flags, (int)c->words[k].raw_len, c->words[k].raw,
                   c->words[k].offset);
        for (size_t k = 0; k < c->n_redirs; k++) {
            const rp_sh_redir *r = &c->redirs[k];
            printf("    redir op=%d fd=%d target=\"%s\" writes=%d quoted=%d body=%s\n", r->op,
                   r->fd, r->target.text, rp_sh_redir_writes(r), r->heredoc_quoted,
                   r->heredoc_body ? r->heredoc_body : "-");
        }
    }
    rp_arena_free(&a);
}

static void emit(rp_buf *out, const char *cmd, size_t len)
{
    rp_arena a = {0};
    struct rp_sh_parse p;
    rp_sh_parse(&a, cmd, len, &p);
    rp_buf_printf(out, "{\"ok\":%s,\"error\":", p.unreadable ? "false" : "true");
    if (p.error)
        rp_json_write_string(out, p.error, strlen(p.error));
    else
        rp_buf_puts(out, "null");
    rp_buf_puts(out, ",\"cmds\":[");
    for (size_t i = 0; i < p.n_commands; i++) {
        const rp_sh_command *c = &p.commands[i];
        bool all_static = true;
        rp_buf_puts(out, i ? ",{\"argv\":[" : "{\"argv\":[");
        for (size_t k = 0; k < c->n_words; k++) {
            if (k)
                rp_buf_putc(out, ',');
            rp_json_write_string(out, c->words[k].text, c->words[k].len);
            if (!rp_sh_word_static(&c->words[k]) || (c->words[k].flags & RP_SH_WORD_TILDE))
                all_static = false;
        }
        for (size_t k = 0; k < c->n_assigns; k++)
            if (!rp_sh_word_static(&c->assigns[k]))
                all_static = false;
        for (size_t k = 0; k < c->n_redirs; k++)
            if (!rp_sh_word_static(&c->redirs[k].target))
                all_static = false;
        rp_buf_printf(out, "],\"ctx\":%u,\"static\":%s,\"depth\":%d,\"program\":", c->context,
                      all_static ? "true" : "false", c->depth);
        if (c->program)
            rp_json_write_string(out, c->program, strlen(c->program));
        else
            rp_buf_puts(out, "null");
        rp_buf_printf(out, ",\"assigns\":%zu,\"redirs\":[", c->n_assigns);
        for (size_t k = 0; k < c->n_redirs; k++) {
            rp_buf_printf(out, "%s[%d,%d,", k ? "," : "", (int)c->redirs[k].op, c->redirs[k].fd);
            rp_json_write_string(out, c->redirs[k].target.text, c->redirs[k].target.len);
            rp_buf_putc(out, ']');
        }
        rp_buf_puts(out, "]}");
    }
    rp_buf_puts(out, "]}\n");
    rp_arena_free(&a);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "-d") == 0) {
        for (int i = 2; i < argc; i++)
            dump(argv[i]);
        return 0;
    }
    return each_json_string_line("shell_words", emit);
}
