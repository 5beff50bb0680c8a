/* fuzz_extension_command.c — libFuzzer target for the RAMPART_COMMAND line of the Pi and
 * opencode extensions (src/install/install_targets.c): rp_install_extension_text writes it,
 * rp_install_extension_command (doctor) reads it back.
 *
 * The first byte picks the host and the mode. Mode 0: the rest, split at NUL bytes into at most
 * three words, is the command install would write; the text written must read back as exactly
 * those words (the extension runs exactly that path), or install must refuse it. Mode 1: the
 * rest is an installed file's text as doctor reads it; whatever it names must be non-empty
 * strings, and writing them again must read back the same. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/buf.h"
#include "install/install_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (ok)
        return;
    fprintf(stderr, "fuzz_extension_command: %s\n", what);
    abort();
}

/* Writes argv into t's extension and reads it back: equal, or refused by the writer. */
static void round_trip(const rp_install_target *t, const char *const *argv, size_t argc)
{
    rp_buf text = {0};
    if (rp_install_extension_text(t, argv, argc, &text)) {
        rp_arena a;
        rp_arena_init(&a, 4096);
        size_t n = 0;
        const char **back = rp_install_extension_command(&a, text.data, text.len, &n);
        check(back != NULL, "the written line does not read back");
        check(n == argc, "the written line reads back another number of words");
        for (size_t i = 0; i < n; i++)
            check(strcmp(back[i], argv[i]) == 0, "the written line reads back another word");
        rp_arena_free(&a);
    }
    rp_buf_free(&text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > 16384)
        return 0;
    const rp_install_target *t = rp_install_target_find((data[0] & 1) ? "opencode" : "pi");
    check(t != NULL && t->extension != NULL, "no extension host");
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    if ((data[0] & 2) == 0) {
        char *copy = malloc(len + 1);
        memcpy(copy, text, len);
        copy[len] = '\0';
        const char *argv[3];
        size_t argc = 0;
        for (char *p = copy; argc < 3 && p < copy + len + 1; p += strlen(p) + 1)
            argv[argc++] = p;
        if (argv[0][0] != '\0')
            round_trip(t, argv, argc);
        free(copy);
        return 0;
    }
    rp_arena a;
    rp_arena_init(&a, 4096);
    size_t n = 0;
    const char **argv = rp_install_extension_command(&a, text, len, &n);
    check((argv == NULL) == (n == 0), "argc disagrees with the result");
    for (size_t i = 0; argv && i < n; i++)
        check(argv[i] != NULL, "a NULL word");
    if (argv && n <= 8)
        round_trip(t, argv, n);
    rp_arena_free(&a);
    return 0;
}
