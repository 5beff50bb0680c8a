/* test_hosts_codex_rollout.c — the Codex rollout reader (src/hosts/codex_rollout.c): a rollout
 * the real Codex 0.171 wrote against the fake OpenAI server of the real-host suite
 * (tests/data/hosts/codex/rollout/session.jsonl, home paths rewritten to /home/dev), each
 * response once with the ledger's split of its counts, the same result however the file is cut
 * into reads, duplicate and empty token_count events, damaged and half-written lines, the model
 * of each turn; how a tool call ended, from its completed item. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost/usage.h"
#include "hosts/codex_rollout.h"
#include "transcript_fixture.h"

/* What the fake server reported for each of the fixture's four responses (raw input 1300+2n
 * with 300+n cached, output 25+2n with 5+n reasoning), as the ledger keeps it: input without
 * the cached tokens, output with the reasoning ones; at its token_usage_record's time. */
typedef struct want_response {
    const char *id;
    int64_t time_us;
    int64_t input, output, cache_read;
} want_response;

static const want_response fixture_responses[] = {
    {"codex-total:1300:300:25:0", 1796302798922000LL /* 12:59:58.922Z */, 1000, 25, 300},
    {"codex-total:2602:601:52:0", 1796302799176000LL /* 12:59:59.176Z */, 1001, 27, 301},
    {"codex-total:3906:903:81:0", 1796302799408000LL /* 12:59:59.408Z */, 1002, 29, 302},
    {"codex-total:5212:1206:112:0", 1796302799681000LL /* 12:59:59.681Z */, 1003, 31, 303},
};
#define N_FIXTURE     (sizeof fixture_responses / sizeof fixture_responses[0])
#define FIXTURE_LINES 29
#define FIXTURE_SIZE  21261
#define FIXTURE_LAST  20210 /* where the last token_count line starts */

static int load_fixture(void **state)
{
    (void)state;
    return fixture_load("tests/data/hosts/codex/rollout/session.jsonl");
}

static void assert_response(const rp_cost_transcript_message *m, const want_response *w,
                            const char *model)
{
    assert_string_equal(m->id, w->id);
    assert_string_equal(m->model, model);
    assert_int_equal(m->time_us, w->time_us);
    int64_t c[4];
    usage_counts(m->usage, c);
    assert_int_equal(c[0], w->input);
    assert_int_equal(c[1], w->output);
    assert_int_equal(c[2], w->cache_read);
    assert_int_equal(c[3], 0);
}

static void test_fixture_each_response_once(void **state)
{
    (void)state;
    assert_int_equal(fixture_len, FIXTURE_SIZE);
    rp_arena a = {0};
    rp_cost_transcript_chunk c;
    assert_int_equal(rp_hook_codex_rollout_parse(&a, fixture_text, fixture_len, NULL, &c), 0);
    /* Each response has a token_usage_record and a token_count: charged once. */
    assert_int_equal(c.n_messages, N_FIXTURE);
    for (size_t i = 0; i < N_FIXTURE; i++) {
        assert_response(&c.messages[i], &fixture_responses[i], "gpt-5");
    }
    assert_int_equal(c.consumed, FIXTURE_SIZE);
    assert_int_equal(c.lines, FIXTURE_LINES);
    assert_int_equal(c.malformed, 0);
    assert_int_equal(c.oversized, 0);
    assert_string_equal(c.model, "gpt-5");
    rp_arena_free(&a);
}

/* Read in two parts cut at every byte, the second from where the first stopped with the model
 * it remembered: the union of the two reads (the ledger dedupes ids) is the whole file's, each
 * response at its first line's usage and model, and nothing is read twice or skipped. */
static void test_any_cut_gives_the_same_responses(void **state)
{
    (void)state;
    for (size_t cut = 0; cut <= fixture_len; cut += 7) {
        rp_arena a = {0};
        rp_cost_transcript_chunk c1, c2;
        rp_hook_codex_rollout_parse(&a, fixture_text, cut, NULL, &c1);
        assert_true(c1.consumed <= cut);
        assert_true(c1.consumed == 0 || fixture_text[c1.consumed - 1] == '\n');
        rp_hook_codex_rollout_parse(&a, fixture_text + c1.consumed, fixture_len - c1.consumed,
                                    c1.model, &c2);
        assert_int_equal(c1.consumed + c2.consumed, fixture_len);
        assert_int_equal(c1.lines + c2.lines, FIXTURE_LINES);
        assert_int_equal(c1.malformed + c2.malformed, 0);
        bool seen[N_FIXTURE] = {false};
        for (size_t part = 0; part < 2; part++) {
            const rp_cost_transcript_chunk *c = part == 0 ? &c1 : &c2;
            for (size_t i = 0; i < c->n_messages; i++) {
                size_t j = 0;
                while (j < N_FIXTURE && strcmp(fixture_responses[j].id, c->messages[i].id) != 0) {
                    j++;
                }
                assert_true(j < N_FIXTURE);
                seen[j] = true;
                /* Both lines of a response carry the same usage; only its time differs. */
                int64_t u[4];
                usage_counts(c->messages[i].usage, u);
                assert_int_equal(u[0], fixture_responses[j].input);
                assert_int_equal(u[1], fixture_responses[j].output);
                assert_int_equal(u[2], fixture_responses[j].cache_read);
                assert_string_equal(c->messages[i].model, "gpt-5");
            }
        }
        for (size_t j = 0; j < N_FIXTURE; j++) {
            assert_true(seen[j]);
        }
        rp_arena_free(&a);
    }
}

/* A rollout's tail as the hook may see it: a token_count half written. */
static void test_half_written_line_waits(void **state)
{
    (void)state;
    /* Up to the middle of the last token_count line. */
    size_t len = FIXTURE_LAST + 200;
    rp_arena a = {0};
    rp_cost_transcript_chunk c;
    rp_hook_codex_rollout_parse(&a, fixture_text, len, NULL, &c);
    assert_int_equal(c.consumed, FIXTURE_LAST);
    assert_int_equal(c.malformed, 0);
    assert_int_equal(c.n_messages, N_FIXTURE); /* the 4th by its token_usage_record */
    rp_arena_free(&a);
}

#define TC(last, total)                                                                            \
    "{\"timestamp\":\"2026-12-03T10:00:00.000Z\",\"type\":\"event_msg\",\"payload\":{\"type\":"    \
    "\"token_count\",\"info\":{\"total_token_usage\":" total ",\"last_token_usage\":" last         \
    "},\"rate_limits\":null}}\n"
#define U(in, cached, out, reasoning)                                                              \
    "{\"input_tokens\":" #in ",\"cached_input_tokens\":" #cached ",\"output_tokens\":" #out        \
    ",\"reasoning_output_tokens\":" #reasoning ",\"total_tokens\":0}"
#define TURN(model)                                                                                \
    "{\"timestamp\":\"2026-12-03T10:00:00.000Z\",\"type\":\"turn_context\",\"payload\":{"          \
    "\"model\":\"" model "\"}}\n"

/* Codex sends a token_count with info null before the first response, and the same totals
 * again when only the rate limits changed: neither charges anything. */
static void test_duplicate_and_empty_token_counts(void **state)
{
    (void)state;
    static const char text[] =
        "{\"timestamp\":\"2026-12-03T10:00:00.000Z\",\"type\":\"event_msg\",\"payload\":{"
        "\"type\":\"token_count\",\"info\":null,\"rate_limits\":{}}}\n" TURN("gpt-5")
            TC(U(100, 40, 10, 2), U(100, 40, 10, 2)) TC(U(100, 40, 10, 2), U(100, 40, 10, 2))
                TC(U(50, 0, 5, 0), U(150, 40, 15, 2)) TC(U(50, 0, 5, 0), U(150, 40, 15, 2));
    rp_arena a = {0};
    rp_cost_transcript_chunk c;
    rp_hook_codex_rollout_parse(&a, text, sizeof text - 1, NULL, &c);
    assert_int_equal(c.n_messages, 2);
    assert_string_equal(c.messages[0].id, "codex-total:100:40:10:0");
    assert_string_equal(c.messages[1].id, "codex-total:150:40:15:0");
    int64_t u[4];
    usage_counts(c.messages[0].usage, u);
    assert_int_equal(u[0], 60); /* 100 input, 40 of them cached */
    assert_int_equal(u[1], 10); /* reasoning inside output, counted once */
    assert_int_equal(u[2], 40);
    usage_counts(c.messages[1].usage, u);
    assert_int_equal(u[0], 50);
    assert_int_equal(u[1], 5);
    assert_int_equal(u[2], 0);
    assert_int_equal(c.malformed, 0);
    assert_int_equal(c.lines, 6);
    rp_arena_free(&a);
}

/* Damaged lines are skipped and counted when they could have held usage, ignored when not; the
 * good lines around them still count. */
static void test_damaged_lines(void **state)
{
    (void)state;
    static const char text[] =
        TURN("gpt-5") "{\"type\":\"event_msg\",\"payload\":{\"type\":\"token_count\",\"info\":{\n"
                      "this is not JSON and mentions nothing\n"
                      "{\"type\":\"token_usage_record\",\"payload\":{\"usage\":{\"input_tokens\":"
                      "\"12\"},\"thread_token_usage\":{}}}\n"
                      "{\"type\":\"token_usage_record\",\"payload\":{\"usage\":{\"input_tokens\":"
                      "-3},\"thread_token_usage\":{}}}\n"
                      "{\"type\":\"event_msg\",\"payload\":{\"type\":\"token_count\",\"info\":{"
                      "\"last_token_usage\":{\"input_tokens\":5}}}}\n"
                      "[\"token_count\"]\n" TC(U(20, 0, 2, 0), U(20, 0, 2, 0));
    rp_arena a = {0};
    rp_cost_transcript_chunk c;
    rp_hook_codex_rollout_parse(&a, text, sizeof text - 1, NULL, &c);
    assert_int_equal(c.lines, 8);
    assert_int_equal(c.malformed, 5); /* all but the turn_context, the prose and the good one */
    assert_int_equal(c.n_messages, 1);
    assert_string_equal(c.messages[0].id, "codex-total:20:0:2:0");
    assert_int_equal(c.consumed, sizeof text - 1);
    rp_arena_free(&a);
}

/* Each response is charged at the model of its turn; before a chunk's first turn_context, at
 * the model remembered from the earlier read. Cached above input (not seen, but not trusted)
 * charges no negative input. A cache_write count is a cache write. */
static void test_models_and_odd_counts(void **state)
{
    (void)state;
    static const char text[] = TC(U(10, 0, 1, 0), U(10, 0, 1, 0)) TURN("gpt-5-mini") TC(
        U(10, 20, 1, 0),
        U(20, 20, 2,
          0)) "{\"timestamp\":\"2026-12-03T10:00:01Z\",\"type\":\"token_usage_record\",\"payload\":"
              "{\"usage\":{\"input_tokens\":30,\"cached_input_tokens\":5,\"cache_write_input_"
              "tokens\":7,\"output_tokens\":3},\"thread_token_usage\":{\"input_tokens\":50,"
              "\"cached_input_tokens\":25,\"cache_write_input_tokens\":7,\"output_tokens\":5}}}\n";
    rp_arena a = {0};
    rp_cost_transcript_chunk c;
    rp_hook_codex_rollout_parse(&a, text, sizeof text - 1, "gpt-5", &c);
    assert_int_equal(c.n_messages, 3);
    assert_string_equal(c.messages[0].model, "gpt-5");
    assert_string_equal(c.messages[1].model, "gpt-5-mini");
    assert_string_equal(c.model, "gpt-5-mini");
    int64_t u[4];
    usage_counts(c.messages[1].usage, u);
    assert_int_equal(u[0], 0);
    assert_int_equal(u[2], 20);
    usage_counts(c.messages[2].usage, u);
    assert_int_equal(u[0], 25);
    assert_int_equal(u[1], 3);
    assert_int_equal(u[2], 5);
    assert_int_equal(u[3], 7);
    assert_string_equal(c.messages[2].id, "codex-total:50:25:5:7");
    assert_int_equal(c.messages[2].time_us, 1796292001000000LL);
    /* No model known at all: the response has none (the ledger marks it unpriced). */
    rp_cost_transcript_chunk c0;
    rp_hook_codex_rollout_parse(&a, TC(U(10, 0, 1, 0), U(10, 0, 1, 0)),
                                sizeof(TC(U(10, 0, 1, 0), U(10, 0, 1, 0))) - 1, "", &c0);
    assert_int_equal(c0.n_messages, 1);
    assert_null(c0.messages[0].model);
    assert_null(c0.model);
    rp_arena_free(&a);
}

/* A runaway line does not stall the reader: consumed as one oversized line, even unfinished. */
static void test_oversized_line(void **state)
{
    (void)state;
    size_t big = RP_COST_TRANSCRIPT_MAX_LINE + 10;
    char *text = malloc(big + 200);
    memset(text, 'x', big);
    memcpy(text, "token_count", 11);
    rp_arena a = {0};
    rp_cost_transcript_chunk c;
    rp_hook_codex_rollout_parse(&a, text, big, NULL, &c);
    assert_int_equal(c.consumed, big);
    assert_int_equal(c.oversized, 1);
    assert_int_equal(c.n_messages, 0);
    free(text);
    rp_arena_free(&a);
}

/* Where line n (1-based) of the fixture ends, its '\n' included. */
static size_t fixture_line_end(int n)
{
    size_t pos = 0;
    for (int i = 0; i < n; i++) {
        const char *nl = memchr(fixture_text + pos, '\n', fixture_len - pos);
        assert_non_null(nl);
        pos = (size_t)(nl - fixture_text) + 1;
    }
    return pos;
}

/* The rollout as Codex had written it when the PostToolUse of each shell call ran (12, 17, 22
 * lines): the call's item is there, `ls /nonexistent-x` failed with exit code 2, the echoes
 * succeeded; the spend read in the same pass is unchanged. */
static void test_call_outcome_from_fixture(void **state)
{
    (void)state;
    static const struct {
        int lines;
        const char *call;
        rp_hook_tool_outcome want;
    } cases[] = {
        {12, "call_lab1_0", RP_HOOK_TOOL_OK},
        {17, "call_lab1_1", RP_HOOK_TOOL_ERROR},
        {22, "call_lab1_2", RP_HOOK_TOOL_OK},
        {17, "call_lab1_2", RP_HOOK_TOOL_UNKNOWN},
        {FIXTURE_LINES, "call_lab1_9", RP_HOOK_TOOL_UNKNOWN},
        {FIXTURE_LINES, "call_lab1", RP_HOOK_TOOL_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len = fixture_line_end(cases[i].lines);
        rp_arena a = {0};
        rp_cost_transcript_chunk plain, c;
        rp_hook_codex_rollout_parse(&a, fixture_text, len, NULL, &plain);
        rp_hook_tool_outcome got = RP_HOOK_TOOL_ERROR + 1;
        rp_hook_codex_rollout_parse_call(&a, fixture_text, len, NULL, cases[i].call, &c, &got);
        assert_int_equal(got, cases[i].want);
        assert_int_equal(c.n_messages, plain.n_messages);
        assert_int_equal(c.consumed, plain.consumed);
        assert_int_equal(c.malformed, 0);
        assert_int_equal(rp_hook_codex_rollout_call_outcome(fixture_text, len, cases[i].call),
                         cases[i].want);
        rp_arena_free(&a);
    }
    /* Read from the middle of the failed call's item line (a tail), it is not found. */
    size_t mid = fixture_line_end(16) + 100;
    assert_int_equal(rp_hook_codex_rollout_call_outcome(fixture_text + mid,
                                                        fixture_line_end(17) - mid, "call_lab1_1"),
                     RP_HOOK_TOOL_UNKNOWN);
}

#define ITEM(body)                                                                                 \
    "{\"timestamp\":\"2026-12-03T10:00:00.000Z\",\"type\":\"event_msg\",\"payload\":{\"type\":"    \
    "\"item_completed\",\"item\":" body "}}\n"

/* The status and the exit code of each kind of item; the last item of the id counts; a line
 * that only mentions the id (another command's output) is not its item; a damaged item line is
 * malformed and says nothing; a half-written one waits. */
static void test_call_outcome_lines(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        rp_hook_tool_outcome want;
        size_t malformed;
    } cases[] = {
        {ITEM("{\"type\":\"CommandExecution\",\"id\":\"c1\",\"status\":\"completed\",\"exit_code\":"
              "3}"),
         RP_HOOK_TOOL_ERROR, 0},
        {ITEM("{\"type\":\"CommandExecution\",\"id\":\"c1\",\"status\":\"failed\"}"),
         RP_HOOK_TOOL_ERROR, 0},
        {ITEM("{\"type\":\"McpToolCall\",\"id\":\"c1\",\"status\":\"failed\",\"error\":{}}"),
         RP_HOOK_TOOL_ERROR, 0},
        {ITEM("{\"type\":\"FileChange\",\"id\":\"c1\",\"status\":\"completed\"}"), RP_HOOK_TOOL_OK,
         0},
        {ITEM("{\"type\":\"CommandExecution\",\"id\":\"c1\",\"status\":\"declined\"}"),
         RP_HOOK_TOOL_UNKNOWN, 0},
        {ITEM("{\"type\":\"CommandExecution\",\"id\":\"c1\",\"status\":\"failed\",\"exit_code\":1}")
             ITEM("{\"type\":\"CommandExecution\",\"id\":\"c1\",\"status\":\"completed\","
                  "\"exit_code\":0}"),
         RP_HOOK_TOOL_OK, 0},
        {ITEM("{\"type\":\"CommandExecution\",\"id\":\"c2\",\"status\":\"failed\","
              "\"aggregated_output\":\"{\\\"id\\\":\\\"c1\\\"}\"}"),
         RP_HOOK_TOOL_UNKNOWN, 0},
        {"{\"type\":\"event_msg\",\"payload\":{\"type\":\"item_completed\",\"item\":{\"id\":\"c1\","
         "\"status\":\"failed\"\n",
         RP_HOOK_TOOL_UNKNOWN, 1},
        {"{\"type\":\"event_msg\",\"payload\":{\"type\":\"item_completed\",\"item\":{\"id\":\"c1\","
         "\"status\":\"failed\"}}}",
         RP_HOOK_TOOL_UNKNOWN, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *text = cases[i].text;
        rp_arena a = {0};
        rp_cost_transcript_chunk c;
        rp_hook_tool_outcome got = RP_HOOK_TOOL_ERROR + 1;
        rp_hook_codex_rollout_parse_call(&a, text, strlen(text), "gpt-5", "c1", &c, &got);
        assert_int_equal(got, cases[i].want);
        assert_int_equal(c.malformed, cases[i].malformed);
        assert_int_equal(c.n_messages, 0);
        assert_int_equal(rp_hook_codex_rollout_call_outcome(text, strlen(text), "c1"),
                         cases[i].want);
        rp_arena_free(&a);
    }
    /* The half-written item is left for the next read, then found. */
    static const char half[] = "{\"type\":\"event_msg\",\"payload\":{\"type\":\"item_completed\","
                               "\"item\":{\"id\":\"c1\",\"status\":\"failed\"}}}";
    rp_arena a = {0};
    rp_cost_transcript_chunk c;
    rp_hook_tool_outcome got;
    rp_hook_codex_rollout_parse_call(&a, half, sizeof half - 1, NULL, "c1", &c, &got);
    assert_int_equal(c.consumed, 0);
    char whole[sizeof half + 1];
    snprintf(whole, sizeof whole, "%s\n", half);
    rp_hook_codex_rollout_parse_call(&a, whole, strlen(whole), NULL, "c1", &c, &got);
    assert_int_equal(got, RP_HOOK_TOOL_ERROR);
    assert_int_equal(c.consumed, strlen(whole));
    /* No call looked for: nothing to find. */
    rp_hook_codex_rollout_parse_call(&a, whole, strlen(whole), NULL, NULL, &c, &got);
    assert_int_equal(got, RP_HOOK_TOOL_UNKNOWN);
    assert_int_equal(c.malformed, 0);
    rp_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_each_response_once),
        cmocka_unit_test(test_any_cut_gives_the_same_responses),
        cmocka_unit_test(test_half_written_line_waits),
        cmocka_unit_test(test_duplicate_and_empty_token_counts),
        cmocka_unit_test(test_damaged_lines),
        cmocka_unit_test(test_models_and_odd_counts),
        cmocka_unit_test(test_oversized_line),
        cmocka_unit_test(test_call_outcome_from_fixture),
        cmocka_unit_test(test_call_outcome_lines),
    };
    return cmocka_run_group_tests(tests, load_fixture, free_fixture);
}
