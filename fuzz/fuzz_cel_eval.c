/* fuzz_cel_eval.c — libFuzzer target for CEL compilation and evaluation.
 *
 * The input is an expression. When it compiles, it is evaluated against a small fixed event
 * (bound as `event`, JSON-backed as cel_policy binds it) with a small iteration budget, so
 * that a hostile comprehension ends in "evaluation budget exceeded" rather than a timeout.
 * The result is then formatted and, when representable, converted back to JSON, which walks
 * every value the evaluator built. A compile error must carry a usable position. Everything
 * must run clean under ASan/UBSan and free all it allocates (LeakSanitizer checks). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cel/cel.h"
#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_BUDGET 10000

static const char event_text[] =
    "{\"type\":\"tool_call\",\"session_id\":\"s1\",\"target\":\"Bash\","
    "\"data\":{\"name\":\"Bash\",\"arguments\":{\"command\":\"rm -rf /tmp/x\","
    "\"files\":[\"/etc/hosts\",\"a.c\"],\"n\":3,\"big\":18446744073709551615}},"
    "\"context\":{\"usage\":{\"total_cost_usd\":1.25,\"tool_calls\":7}},"
    "\"session_state\":{\"call_count\":2,\"flags\":[true,false,null],\"m\":{\"k\":-1.5e3}}}";

static void check(int ok, const char *what, const uint8_t *data, size_t size)
{
    if (ok) {
        return;
    }
    fprintf(stderr, "fuzz_cel_eval: %s for input: %.*s\n", what, (int)size, (const char *)data);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *src = (const char *)data;
    cel_program *prog = NULL;
    cel_source_error err;
    memset(&err, 0, sizeof err);
    if (cel_compile(src, size, NULL, &prog, &err) != 0) {
        check(err.message[0] != '\0', "compile error without a message", data, size);
        check(err.line >= 1 && err.col >= 1 && err.offset <= size,
              "compile error without a usable position", data, size);
        return 0;
    }

    rp_arena arena;
    rp_arena_init(&arena, 4096);
    rp_json_error jerr;
    rp_json *event = rp_json_parse(&arena, event_text, sizeof event_text - 1, &jerr);
    check(event != NULL, "the fixed event does not parse", data, size);
    cel_binding vars[] = {{"event", cel_from_json(event)}};
    cel_activation act = {vars, 1, NULL, NULL};

    cel_value v = cel_eval_budget(prog, &act, &arena, FUZZ_BUDGET);
    check(v.kind <= CEL_UNKNOWN, "result of an unknown kind", data, size);
    if (v.kind == CEL_ERROR) {
        check(v.v.err != NULL && v.v.err->message != NULL, "error value without a message", data,
              size);
    }

    rp_buf text = {0};
    cel_value_format(&text, &v);
    rp_json out;
    char why[128];
    (void)cel_to_json(&arena, &v, &out, why, sizeof why);

    /* Evaluating twice must give the same rendering: programs are immutable. */
    rp_buf again = {0};
    cel_value w = cel_eval_budget(prog, &act, &arena, FUZZ_BUDGET);
    cel_value_format(&again, &w);
    check(text.len == again.len && (text.len == 0 || memcmp(text.data, again.data, text.len) == 0),
          "a second evaluation gives a different result", data, size);

    rp_buf_free(&text);
    rp_buf_free(&again);
    rp_arena_free(&arena);
    cel_program_free(prog);
    return 0;
}
