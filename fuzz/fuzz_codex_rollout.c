/* fuzz_codex_rollout.c — libFuzzer target for the Codex rollout reader with a tool call looked
 * for (src/hosts/codex_rollout.c: rp_hook_codex_rollout_parse_call,
 * rp_hook_codex_rollout_call_outcome).
 *
 * Input: CALL_ID '\n' ROLLOUT (a first line longer than 64 bytes or holding a NUL: no call id,
 * the whole input is the rollout). The rollout is handed over in a heap block of exactly its
 * size, so a read past it is an ASan finding. Invariants: the read is consumed within range and
 * counts no more responses, malformed or oversized lines than lines; looking for a call changes
 * neither the responses nor the offset; the outcome it finds is
 * rp_hook_codex_rollout_call_outcome's for the same bytes; with no call id it is UNKNOWN. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "hosts/codex_rollout.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (ok)
        return;
    fprintf(stderr, "fuzz_codex_rollout: %s\n", what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    const char *text = (const char *)data;
    const char *nl = memchr(text, '\n', size);
    char call_id[65];
    const char *id = NULL;
    const char *body = text;
    if (nl && nl - text <= 64 && !memchr(text, '\0', (size_t)(nl - text))) {
        memcpy(call_id, text, (size_t)(nl - text));
        call_id[nl - text] = '\0';
        id = call_id;
        body = nl + 1;
    }
    size_t len = size - (size_t)(body - text);
    char *chunk = malloc(len ? len : 1);
    memcpy(chunk, body, len);

    rp_arena arena;
    rp_arena_init(&arena, 8192);
    rp_cost_transcript_chunk with, without;
    rp_hook_tool_outcome outcome = (rp_hook_tool_outcome)-1;
    const char *model = (size & 1) ? "gpt-5" : NULL;
    rp_hook_codex_rollout_parse_call(&arena, chunk, len, model, id, &with, &outcome);
    check(with.consumed <= len, "consumed past the end");
    check(with.consumed == len || with.consumed == 0 || chunk[with.consumed - 1] == '\n' ||
              with.oversized > 0,
          "consumed to the middle of a line");
    check(with.n_messages <= with.lines, "more responses than lines");
    check(with.malformed + with.oversized <= with.lines, "more bad lines than lines");
    check(outcome == RP_HOOK_TOOL_UNKNOWN || outcome == RP_HOOK_TOOL_OK ||
              outcome == RP_HOOK_TOOL_ERROR,
          "outcome out of range");
    check(id != NULL || outcome == RP_HOOK_TOOL_UNKNOWN, "an outcome without a call id");
    check(outcome == rp_hook_codex_rollout_call_outcome(chunk, len, id),
          "the outcome differs from rp_hook_codex_rollout_call_outcome's");

    rp_hook_codex_rollout_parse_call(&arena, chunk, len, model, NULL, &without, NULL);
    check(without.consumed == with.consumed, "looking for a call moves the offset");
    check(without.lines == with.lines, "looking for a call changes the line count");
    check(without.n_messages == with.n_messages, "looking for a call changes the responses");
    for (size_t i = 0; i < with.n_messages; i++)
        check(strcmp(with.messages[i].id, without.messages[i].id) == 0,
              "looking for a call changes a response id");
    check((with.model == NULL) == (without.model == NULL), "looking for a call changes the model");
    rp_arena_free(&arena);
    free(chunk);
    return 0;
}
