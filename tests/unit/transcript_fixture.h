/* transcript_fixture.h — what the transcript-reader tests share (test_cost_transcript.c,
 * test_hosts_codex_rollout.c): one recorded session file read whole for the test group, and a
 * usage block's counts as the ledger reads them. Include after <cmocka.h>. */
#ifndef RAMPART_TESTS_TRANSCRIPT_FIXTURE_H
#define RAMPART_TESTS_TRANSCRIPT_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/json.h"
#include "cost/usage.h"

static char *fixture_text;
static size_t fixture_len;

/* Reads RAMPART_SOURCE_DIR/rel (up to 1 MiB) into fixture_text: a group setup's body. */
static int fixture_load(const char *rel)
{
    const char *dir = getenv("RAMPART_SOURCE_DIR");
    if (dir == NULL) {
        dir = RAMPART_SOURCE_DIR;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return -1;
    }
    fixture_text = malloc(1 << 20);
    fixture_len = fixture_text ? fread(fixture_text, 1, 1 << 20, f) : 0;
    fclose(f);
    return fixture_len > 0 ? 0 : -1;
}

static int free_fixture(void **state)
{
    (void)state;
    free(fixture_text);
    return 0;
}

/* The message's usage as the ledger reads it: {input, output, cache read, cache write}. */
static void usage_counts(const rp_json *usage, int64_t out[4])
{
    rp_usage_record r;
    char err[128];
    assert_int_equal(rp_cost_usage_read(usage, NULL, NULL, false, &r, err, sizeof err), 0);
    out[0] = r.input_tokens;
    out[1] = r.output_tokens;
    out[2] = r.cache_read_input_tokens;
    out[3] = r.cache_creation_input_tokens;
}

#endif
