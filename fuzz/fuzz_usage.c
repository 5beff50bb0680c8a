/* fuzz_usage.c — libFuzzer target for usage reports: a `rampart usage record` line and an
 * llm_response's data, priced against a config table, and model-id lookups in the shipped table.
 *
 * Invariants checked on every input: a report is either accepted with a non-negative cost and
 * token counts and a session id, or rejected with a message; a lookup never crashes, and a found
 * price is non-negative. Any violation aborts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/json.h"
#include "cost/pricing.h"
#include "cost/usage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_usage: %s\n", what);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rp_arena a;
    rp_arena_init(&a, 4096);
    static const char table_text[] = "{\"fuzz-model\":{\"input\":3.0,\"output\":15.0}}";
    rp_json_error jerr;
    rp_json *table = rp_json_parse(&a, table_text, sizeof table_text - 1, &jerr);
    char err[256] = "";
    rp_cost_pricing *pricing = rp_cost_pricing_build(&a, table, err, sizeof err);
    check(pricing != NULL, "the pricing table does not build");

    rp_json *v = rp_json_parse(&a, (const char *)data, size, &jerr);
    if (v != NULL) {
        rp_usage_record r;
        err[0] = '\0';
        if (rp_cost_usage_record_from_json(v, pricing, 1000, &r, err, sizeof err) == 0) {
            check(r.session_id != NULL && r.session_id[0] != '\0', "accepted without session");
            check(r.input_tokens >= 0 && r.output_tokens >= 0 && r.cache_read_input_tokens >= 0 &&
                      r.cache_creation_input_tokens >= 0,
                  "negative tokens accepted");
            check(!r.priced || r.cost_nusd >= 0, "negative cost");
        } else {
            check(err[0] != '\0', "rejected without a message");
        }
        err[0] = '\0';
        int rc = rp_cost_usage_from_llm_response(v, "fuzz-model", pricing, 0, &r, err, sizeof err);
        check(rc >= -1 && rc <= 1, "bad return");
        check(rc != -1 || err[0] != '\0', "llm_response rejected without a message");
        check(rc != 1 || !r.priced || r.cost_nusd >= 0, "negative llm_response cost");
    }

    /* The input as a model id (NUL-terminated copy). */
    char *id = rp_arena_alloc(&a, size + 1);
    memcpy(id, data, size);
    id[size] = '\0';
    const rp_cost_price *p = rp_cost_pricing_find(pricing, id);
    if (p != NULL) {
        check(p->input >= 0 && p->output >= 0 && p->cache_read >= 0 && p->cache_write >= 0,
              "negative price");
        check(rp_cost_price_cost_nusd(p, 1000, 1000, 1000, 1000) >= 0, "negative computed cost");
    }
    rp_arena_free(&a);
    return 0;
}
