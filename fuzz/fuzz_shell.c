/* fuzz_shell.c — libFuzzer target for the shell parser.
 *
 * Parses arbitrary bytes with a fresh arena and walks every command, checking the invariants
 * policies rely on: counts match the arrays, every text is NUL-terminated at its length, offsets
 * and spans lie within the input, wrappers point into the command list and precede what they
 * run, depth stays within RP_SH_MAX_DEPTH, an unreadable result has an error. Any violation
 * aborts, which libFuzzer reports as a crash; ASan/UBSan catch the rest. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "shell/shell.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_shell: %s\n", what);
        abort();
    }
}

static void check_word(const rp_sh_word *w, size_t size)
{
    check(w->text != NULL, "word text");
    check(strlen(w->text) <= w->len, "word length");
    check(w->text[w->len] == '\0', "word NUL");
    check(w->raw != NULL || w->raw_len == 0, "word raw");
    check(w->offset <= size, "word offset");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rp_arena arena;
    rp_arena_init(&arena, 4096);
    struct rp_sh_parse p;
    int rc = rp_sh_parse(&arena, (const char *)data, size, &p);
    check(rc == (p.unreadable ? -1 : 0), "return code");
    check(!p.unreadable || p.error != NULL, "error text");
    check(p.error_offset <= size, "error offset");
    check(p.n_commands == 0 || p.commands != NULL, "commands");
    for (size_t i = 0; i < p.n_commands; i++) {
        const rp_sh_command *c = &p.commands[i];
        check(c->n_words == 0 || c->words != NULL, "words");
        check(c->n_assigns == 0 || c->assigns != NULL, "assigns");
        check(c->n_redirs == 0 || c->redirs != NULL, "redirs");
        for (size_t k = 0; k < c->n_words; k++)
            check_word(&c->words[k], size);
        for (size_t k = 0; k < c->n_assigns; k++)
            check_word(&c->assigns[k], size);
        for (size_t k = 0; k < c->n_redirs; k++) {
            check_word(&c->redirs[k].target, size);
            check((unsigned)c->redirs[k].op <= RP_SH_REDIR_HERESTRING, "redir op");
            (void)rp_sh_redir_writes(&c->redirs[k]);
        }
        check(c->offset <= c->end && c->end <= size, "span");
        check(c->depth >= 0 && c->depth <= RP_SH_MAX_DEPTH, "depth");
        check(c->pipeline >= -1 && c->stage >= 0, "pipeline");
        if (c->program) {
            check(c->n_words > 0 && rp_sh_word_static(&c->words[0]), "program");
            check(!c->program_dynamic, "program dynamic");
        }
        if (c->wrapper) {
            check(c->wrapper >= p.commands && c->wrapper < c, "wrapper precedes");
            check(c->depth == c->wrapper->depth + 1, "wrapper depth");
            check((c->context & RP_SH_CTX_WRAPPED) != 0, "wrapped bit");
        }
        if (c->context & RP_SH_CTX_REMOTE)
            check(c->remote_host != NULL, "remote host");
        (void)rp_sh_word_is(c, 0, "rm");
    }
    rp_arena_free(&arena);
    return 0;
}
