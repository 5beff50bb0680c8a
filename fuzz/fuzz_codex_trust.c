/* fuzz_codex_trust.c — libFuzzer target for the Codex hook-trust reader
 * (src/install/codex_trust.c).
 *
 * Input: HOOKS_JSON NUL CONFIG_TOML, or, without a NUL, CONFIG_TOML alone checked against a
 * fixed hooks.json of rampart's shape (so the fuzzer spends its time in the TOML reader). The
 * first byte's low bit asks for a project check too. The TOML is handed over in a heap block of
 * exactly its size plus the NUL, so a read past it is an ASan finding. Invariants: every rampart
 * handler lands in exactly one of trusted/untrusted/modified/disabled; `event` names one only
 * when some handler does not run; a failure says why; a blank line in front of the TOML changes
 * nothing. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "install/codex_trust.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define GROUP(m)                                                                                   \
    "[{" m "\"hooks\":[{\"type\":\"command\",\"command\":\"/usr/local/bin/rampart hook "           \
    "codex\",\"timeout\":5}]}]"
static const char fixed_hooks[] =
    "{\"hooks\":{\"SessionStart\":" GROUP("") ",\"PreToolUse\":" GROUP("\"matcher\":\".*\",") "}}";

static void check(int ok, const char *what)
{
    if (ok)
        return;
    fprintf(stderr, "fuzz_codex_trust: %s\n", what);
    abort();
}

static int run(const char *hooks, size_t hooks_len, const char *toml, const char *project,
               rp_install_codex_trust *t)
{
    char err[256] = "";
    int rc = rp_install_codex_trust_check("/h/.codex/hooks.json", hooks, hooks_len, toml, project,
                                          project ? "/p" : NULL, t, err, sizeof err);
    check(rc == 0 || rc == -1, "a return that is neither 0 nor -1");
    if (rc != 0) {
        check(err[0] != '\0', "a failure without a message");
        return rc;
    }
    check(t->trusted + t->untrusted + t->modified + t->disabled == t->ours,
          "a handler counted twice or not at all");
    /* (an event named "" in hooks.json leaves it empty: it is only what doctor's sentence names) */
    check(t->event[0] == '\0' || t->trusted < t->ours, "an event named while every handler runs");
    check(memchr(t->event, '\0', sizeof t->event) != NULL, "event not terminated");
    check(!t->project_untrusted || project != NULL, "project untrusted without a project");
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 65536)
        return 0;
    const char *project = (data[0] & 1) ? "/p/repo" : NULL;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    const char *nul = memchr(text, '\0', len);
    const char *hooks = nul ? text : fixed_hooks;
    size_t hooks_len = nul ? (size_t)(nul - text) : sizeof fixed_hooks - 1;
    const char *toml_src = nul ? nul + 1 : text;
    size_t toml_len = len - (size_t)(toml_src - text);

    char *toml = malloc(toml_len + 1);
    memcpy(toml, toml_src, toml_len);
    toml[toml_len] = '\0';
    char *hooks_copy = malloc(hooks_len ? hooks_len : 1);
    memcpy(hooks_copy, hooks, hooks_len);

    rp_install_codex_trust t, u;
    int rc = run(hooks_copy, hooks_len, toml, project, &t);
    if (rc == 0) {
        char *shifted = malloc(toml_len + 2);
        shifted[0] = '\n';
        memcpy(shifted + 1, toml, toml_len + 1);
        check(run(hooks_copy, hooks_len, shifted, project, &u) == 0, "a blank line fails it");
        check(memcmp(&t, &u, sizeof t) == 0, "a blank line in front changes the answer");
        free(shifted);
    }
    free(hooks_copy);
    free(toml);
    return 0;
}
