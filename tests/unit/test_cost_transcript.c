/* test_cost_transcript.c — the Claude Code transcript parser (src/cost/transcript.c): the
 * messages of a realistic session (tests/data/hosts/claude-code/transcript/session.jsonl) with
 * their final usage, the partial-line and deferred-last-message rules, malformed lines, and the
 * same result however the file is cut into two reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost/usage.h"
#include "cost/transcript.h"
#include "store/store.h"
#include "transcript_fixture.h"

typedef struct want_message {
    const char *id, *model;
    int64_t time_us;
    int64_t input, output, cache_read, cache_creation;
} want_message;

/* The fixture's messages: each one's LAST line (final output_tokens, its timestamp). The
 * "<synthetic>" message and the partially written last line (msg_01L4…) are not among them. */
static const want_message fixture_messages[] = {
    {"msg_01A7kQ2cWJ9sYd3fR5tXbN1e", "claude-sonnet-4-5-20250929",
     1796032804548000LL /* 2026-11-30T10:00:04.548Z */, 3, 112, 12000, 4096},
    {"msg_01B3mV8pLq4nZx6cT2yHwR7u", "claude-sonnet-4-5-20250929",
     1796032809233000LL /* 2026-11-30T10:00:09.233Z */, 5, 95, 16100, 1800},
    {"msg_01C9tY5wKe2rXb8nM4qJsF6d", "claude-sonnet-4-5-20250929",
     1796032814918000LL /* 2026-11-30T10:00:14.918Z */, 4, 310, 17900, 2400},
    {"msg_01D4hN7sPa3wQc9vL1kEyG8b", "claude-sonnet-4-5-20250929",
     1796032863631000LL /* 2026-11-30T10:01:03.631Z */, 3, 420, 20300, 900},
    {"msg_01E6rB2xVu8kYt5pD3mWcH9a", "claude-sonnet-4-5-20250929",
     1796032869453000LL /* 2026-11-30T10:01:09.453Z */, 6, 150, 21200, 1200},
    {"msg_01F2gK9dRs6vHn4bX8cZtM5q", "claude-haiku-4-5-20251001",
     1796032873001000LL /* 2026-11-30T10:01:13.001Z */, 4, 200, 0, 3000},
    {"msg_01G8pW3fTy7mJb2kN6vQxR4s", "claude-haiku-4-5-20251001",
     1796032892604000LL /* 2026-11-30T10:01:32.604Z */, 6, 380, 3000, 1500},
    {"msg_01H5kC8nLw2qVz7tR3bYpF6m", "claude-sonnet-4-5-20250929",
     1796032897289000LL /* 2026-11-30T10:01:37.289Z */, 5, 240, 22400, 800},
    {"msg_01I7vT4mQz9cHk3wB5nXsL2d", "claude-sonnet-4-5-20250929",
     1796032983071000LL /* 2026-11-30T10:03:03.071Z */, 3, 85, 23200, 1000},
    {"msg_01J3xN6bWd8rFq2mK7tHcV9e", "claude-sonnet-4-5-20250929",
     1796032988756000LL /* 2026-11-30T10:03:08.756Z */, 4, 130, 24200, 600},
    {"msg_01K9dS2hJc5nTw8vQ4xLmB7r", "claude-sonnet-4-5-20250929",
     1796033043291000LL /* 2026-11-30T10:04:03.291Z */, 3, 70, 24800, 500},
};
#define N_FIXTURE (sizeof fixture_messages / sizeof fixture_messages[0])

/* The fixture's layout: 36 complete lines, 23734 bytes, then 385 bytes of a line being
 * written. msg_01K9… (the last message) starts at byte 20454. */
#define FIXTURE_LINES     36
#define FIXTURE_COMPLETE  23734
#define FIXTURE_SIZE      24119
#define FIXTURE_LAST_MSG  20454
#define FIXTURE_LINES_PRE 31    /* complete lines before msg_01K9… */
#define FIXTURE_K_LINE1   21234 /* the end of msg_01K9…'s first line (no stop_reason yet) */

static int load_fixture(void **state)
{
    (void)state;
    return fixture_load("tests/data/hosts/claude-code/transcript/session.jsonl");
}

static void assert_message(const rp_cost_transcript_message *m, const want_message *w)
{
    assert_string_equal(m->id, w->id);
    assert_string_equal(m->model, w->model);
    assert_int_equal(m->time_us, w->time_us);
    int64_t c[4];
    usage_counts(m->usage, c);
    assert_int_equal(c[0], w->input);
    assert_int_equal(c[1], w->output);
    assert_int_equal(c[2], w->cache_read);
    assert_int_equal(c[3], w->cache_creation);
    /* Only the four counts are kept: service_tier and the cache_creation breakdown are not. */
    assert_int_equal(m->usage->len, 4);
}

static void test_fixture_final_gives_every_message_once(void **state)
{
    (void)state;
    assert_int_equal(fixture_len, FIXTURE_SIZE);
    rp_arena a = {0};
    rp_cost_transcript_chunk c;
    assert_int_equal(rp_cost_transcript_parse(&a, fixture_text, fixture_len, true, NULL, &c), 0);
    assert_int_equal(c.n_messages, N_FIXTURE);
    for (size_t i = 0; i < N_FIXTURE; i++) {
        assert_message(&c.messages[i], &fixture_messages[i]);
    }
    /* The partial last line is left for next time, even when final. */
    assert_int_equal(c.consumed, FIXTURE_COMPLETE);
    assert_int_equal(c.lines, FIXTURE_LINES);
    assert_int_equal(c.malformed, 0);
    assert_int_equal(c.oversized, 0);
    assert_int_equal(c.synthetic, 1);
    rp_arena_free(&a);
}

static void test_fixture_not_final_defers_the_last_message(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_cost_transcript_chunk c;
    /* The whole file, not final: msg_01K9…'s last line has a stop_reason and a prompt follows
     * it, so every message is complete. */
    rp_cost_transcript_parse(&a, fixture_text, fixture_len, false, NULL, &c);
    assert_int_equal(c.n_messages, N_FIXTURE);
    assert_int_equal(c.consumed, FIXTURE_COMPLETE);
    assert_string_equal(c.model, "claude-sonnet-4-5-20250929");

    /* Cut after msg_01K9…'s first line: it may still be streaming (no stop_reason, nothing
     * after it), so it is not emitted, and the read stops at its first line. */
    rp_cost_transcript_parse(&a, fixture_text, FIXTURE_K_LINE1, false, NULL, &c);
    assert_int_equal(c.n_messages, N_FIXTURE - 1);
    for (size_t i = 0; i < N_FIXTURE - 1; i++) {
        assert_message(&c.messages[i], &fixture_messages[i]);
    }
    assert_int_equal(c.consumed, FIXTURE_LAST_MSG);
    assert_memory_equal(fixture_text + FIXTURE_LAST_MSG - 1, "\n{\"parentUuid\"", 14);
    assert_int_equal(c.lines, FIXTURE_LINES_PRE);
    assert_int_equal(c.synthetic, 0); /* the synthetic line comes after: counted next time */

    /* The next read, from there, finds it whole. */
    /* Its model is the session's current one all the same. */
    assert_string_equal(c.model, "claude-sonnet-4-5-20250929");
    rp_cost_transcript_chunk next;
    rp_cost_transcript_parse(&a, fixture_text + c.consumed, fixture_len - c.consumed, true, NULL,
                             &next);
    assert_int_equal(next.n_messages, 1);
    assert_message(&next.messages[0], &fixture_messages[N_FIXTURE - 1]);
    assert_int_equal(c.consumed + next.consumed, FIXTURE_COMPLETE);
    assert_int_equal(c.lines + next.lines, FIXTURE_LINES);
    assert_int_equal(next.synthetic, 1);
    rp_arena_free(&a);
}

/* Every cut of the file into two reads (the first not final, the second final from where the
 * first stopped) gives exactly the one-shot messages, in order, none twice. */
static void test_fixture_split_anywhere_equals_one_shot(void **state)
{
    (void)state;
    rp_arena a = {0};
    for (size_t k = 0; k <= fixture_len; k++) {
        rp_arena_reset(&a);
        rp_cost_transcript_chunk c1, c2;
        rp_cost_transcript_parse(&a, fixture_text, k, false, NULL, &c1);
        assert_true(c1.consumed <= k);
        rp_cost_transcript_parse(&a, fixture_text + c1.consumed, fixture_len - c1.consumed, true,
                                 NULL, &c2);
        if (c1.n_messages + c2.n_messages != N_FIXTURE ||
            c1.consumed + c2.consumed != FIXTURE_COMPLETE || c1.lines + c2.lines != FIXTURE_LINES) {
            fail_msg("cut at %zu: %zu + %zu messages, consumed %zu + %zu", k, c1.n_messages,
                     c2.n_messages, c1.consumed, c2.consumed);
        }
        for (size_t i = 0; i < N_FIXTURE; i++) {
            const rp_cost_transcript_message *m =
                i < c1.n_messages ? &c1.messages[i] : &c2.messages[i - c1.n_messages];
            assert_message(m, &fixture_messages[i]);
        }
    }
    rp_arena_free(&a);
}

/* Two short lines of one message, streamed: output_tokens grows, the last one wins. */
#define LINE1                                                                                      \
    "{\"type\":\"assistant\",\"timestamp\":\"2026-11-30T10:00:01Z\",\"requestId\":\"req_1\","      \
    "\"message\":{\"id\":\"msg_1\",\"model\":\"claude-sonnet-4-5\",\"usage\":{\"input_tokens\":"   \
    "10,\"output_tokens\":1}}}\n"
#define LINE2                                                                                      \
    "{\"type\":\"assistant\",\"timestamp\":\"2026-11-30T10:00:02Z\",\"requestId\":\"req_1\","      \
    "\"message\":{\"id\":\"msg_1\",\"model\":\"claude-sonnet-4-5\",\"usage\":{\"input_tokens\":"   \
    "10,\"output_tokens\":77}}}\n"
#define USER_LINE "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n"
#define RESULT_LINE                                                                                \
    "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\","    \
    "\"tool_use_id\":\"toolu_1\",\"content\":\"ok\"}]}}\n"
/* msg_2's one line: a tool_use block, no stop_reason (written before the response ended). */
#define TOOL_LINE                                                                                  \
    "{\"type\":\"assistant\",\"timestamp\":\"2026-11-30T10:00:03Z\",\"message\":{\"id\":\"msg_"    \
    "2\","                                                                                         \
    "\"model\":\"claude-haiku-4-5\",\"stop_reason\":null,\"content\":[{\"type\":\"tool_use\","     \
    "\"id\":\"toolu_9\",\"name\":\"Bash\",\"input\":{}}],\"usage\":{\"input_tokens\":20,"          \
    "\"output_tokens\":30}}}\n"
#define STOPPED_LINE                                                                               \
    "{\"type\":\"assistant\",\"timestamp\":\"2026-11-30T10:00:04Z\",\"message\":{\"id\":\"msg_"    \
    "3\","                                                                                         \
    "\"model\":\"claude-opus-4-5\",\"stop_reason\":\"end_turn\",\"usage\":{\"input_tokens\":5,"    \
    "\"output_tokens\":6}}}\n"

static void test_streamed_message_keeps_last_usage_and_time(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_cost_transcript_chunk c;
    const char *text = USER_LINE LINE1 LINE2 USER_LINE;
    rp_cost_transcript_parse(&a, text, strlen(text), true, NULL, &c);
    assert_int_equal(c.n_messages, 1);
    int64_t counts[4];
    usage_counts(c.messages[0].usage, counts);
    assert_string_equal(c.messages[0].id, "msg_1");
    assert_string_equal(c.messages[0].model, "claude-sonnet-4-5");
    assert_int_equal(c.messages[0].time_us, 1796032802000000LL); /* LINE2's 10:00:02 */
    assert_int_equal(counts[0], 10);
    assert_int_equal(counts[1], 77);
    assert_int_equal(c.messages[0].usage->len, 2); /* only what the line had */
    assert_int_equal(c.consumed, strlen(text));
    assert_int_equal(c.lines, 4);
    rp_arena_free(&a);
}

static void test_partial_line_is_left_for_next_time(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_cost_transcript_chunk c;
    /* A complete message line, then the same line cut short: the cut line is not read, so the
     * message is the chunk's last one and, final or not, waits only on the rule for it. */
    const char *text = LINE1 "{\"type\":\"assistant\",\"timestamp\":\"2026-11-30T10:00:02Z\"";
    rp_cost_transcript_parse(&a, text, strlen(text), true, NULL, &c);
    assert_int_equal(c.n_messages, 1);
    assert_int_equal(c.consumed, strlen(LINE1));
    assert_int_equal(c.lines, 1);
    assert_int_equal(c.malformed, 0);

    rp_cost_transcript_parse(&a, text, strlen(text), false, NULL, &c);
    assert_int_equal(c.n_messages, 0);
    assert_int_equal(c.consumed, 0);
    assert_int_equal(c.lines, 0);

    /* No newline at all: nothing consumed. */
    rp_cost_transcript_parse(&a, LINE1, strlen(LINE1) - 1, true, NULL, &c);
    assert_int_equal(c.n_messages, 0);
    assert_int_equal(c.consumed, 0);
    rp_cost_transcript_parse(&a, "", 0, true, NULL, &c);
    assert_int_equal(c.consumed, 0);
    rp_cost_transcript_parse(&a, NULL, 0, true, NULL, &c);
    assert_int_equal(c.n_messages, 0);
    rp_arena_free(&a);
}

static void test_deferred_message_is_emitted_once_whole(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_cost_transcript_chunk c;
    /* The first read saw one line of msg_1 and defers it; a tool result after it does not
     * change that (the streaming tool executor writes results while a response goes on). */
    const char *first = USER_LINE LINE1 RESULT_LINE;
    rp_cost_transcript_parse(&a, first, strlen(first), false, NULL, &c);
    assert_int_equal(c.n_messages, 0);
    assert_int_equal(c.consumed, strlen(USER_LINE));
    assert_int_equal(c.lines, 1);
    /* The next read starts at msg_1's first line and sees both lines. */
    const char *next = LINE1 RESULT_LINE LINE2;
    rp_cost_transcript_parse(&a, next, strlen(next), true, NULL, &c);
    assert_int_equal(c.n_messages, 1);
    int64_t counts[4];
    usage_counts(c.messages[0].usage, counts);
    assert_int_equal(counts[1], 77);
    assert_int_equal(c.messages[0].time_us, 1796032802000000LL);
    rp_arena_free(&a);
}

/* What proves the chunk's last message complete before the turn is over (issue 15: the last
 * message of each step reached the ledger only a step later, so a budget crossed there was
 * enforced a tool call late). */
static void test_completion_proofs(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_cost_transcript_chunk c;
    /* Nothing proves msg_2: it waits. */
    rp_cost_transcript_parse(&a, TOOL_LINE, strlen(TOOL_LINE), false, NULL, &c);
    assert_int_equal(c.n_messages, 0);
    assert_int_equal(c.consumed, 0);
    assert_string_equal(c.model, "claude-haiku-4-5");
    /* Another tool_use being acted on proves nothing either. */
    rp_cost_transcript_parse(&a, TOOL_LINE, strlen(TOOL_LINE), false, "toolu_other", &c);
    assert_int_equal(c.n_messages, 0);
    /* The host acts on its tool_use (PreToolUse toolu_9): it is complete. */
    rp_cost_transcript_parse(&a, TOOL_LINE, strlen(TOOL_LINE), false, "toolu_9", &c);
    assert_int_equal(c.n_messages, 1);
    assert_string_equal(c.messages[0].id, "msg_2");
    assert_int_equal(c.consumed, strlen(TOOL_LINE));
    /* A later prompt proves it; a later tool result does not. */
    const char *prompted = TOOL_LINE USER_LINE;
    rp_cost_transcript_parse(&a, prompted, strlen(prompted), false, NULL, &c);
    assert_int_equal(c.n_messages, 1);
    assert_int_equal(c.consumed, strlen(prompted));
    const char *resulted = TOOL_LINE RESULT_LINE;
    rp_cost_transcript_parse(&a, resulted, strlen(resulted), false, NULL, &c);
    assert_int_equal(c.n_messages, 0);
    /* A stop_reason on its own line proves it; the model is the last message's. */
    const char *stopped = TOOL_LINE STOPPED_LINE;
    rp_cost_transcript_parse(&a, stopped, strlen(stopped), false, NULL, &c);
    assert_int_equal(c.n_messages, 2);
    assert_string_equal(c.messages[1].id, "msg_3");
    assert_int_equal(c.consumed, strlen(stopped));
    assert_string_equal(c.model, "claude-opus-4-5");
    /* No assistant line: no model. */
    rp_cost_transcript_parse(&a, USER_LINE, strlen(USER_LINE), false, NULL, &c);
    assert_null(c.model);
    rp_arena_free(&a);
}

/* Gemini CLI 0.61's chat recording, as written (issue 15: the cached and thinking tokens are
 * only there). */
static void test_gemini_recording(void **state)
{
    (void)state;
    const char *text =
        "{\"sessionId\":\"s\",\"projectHash\":\"h\",\"startTime\":\"2026-12-03T13:00:08Z\"}\n"
        "{\"$set\":{\"lastUpdated\":\"2026-12-03T13:00:08.361Z\"}}\n"
        "{\"id\":\"u1\",\"timestamp\":\"2026-12-03T13:00:08.361Z\",\"type\":\"user\","
        "\"content\":\"go\"}\n"
        /* a response record before its tokens: not done */
        "{\"id\":\"r0\",\"timestamp\":\"2026-12-03T13:00:08.400Z\",\"type\":\"gemini\","
        "\"content\":\"\",\"model\":\"gemini-2.5-flash\"}\n"
        "{\"id\":\"r1\",\"timestamp\":\"2026-12-03T13:00:08.428Z\",\"type\":\"gemini\","
        "\"content\":\"\",\"tokens\":{\"input\":1300,\"output\":20,\"cached\":300,"
        "\"thoughts\":5,\"tool\":7,\"total\":1332},\"model\":\"gemini-2.5-flash\"}\n"
        /* the same response appended again (its tool calls): the same id */
        "{\"id\":\"r1\",\"timestamp\":\"2026-12-03T13:00:08.428Z\",\"type\":\"gemini\","
        "\"tokens\":{\"input\":1300,\"output\":20,\"cached\":300,\"thoughts\":5,\"tool\":7,"
        "\"total\":1332},\"model\":\"gemini-2.5-flash\",\"toolCalls\":[]}\n"
        "{\"id\":\"bad\",\"type\":\"gemini\",\"tokens\":{\"input\":-1}}\n"
        "not json\n"
        "{\"id\":\"r2\",\"type\":\"gemini\",\"tokens\":{\"input\":9}"; /* partial */
    rp_arena a = {0};
    rp_cost_transcript_chunk c;
    assert_int_equal(rp_cost_transcript_parse_gemini(&a, text, strlen(text), &c), 0);
    assert_int_equal(c.n_messages, 2);
    assert_string_equal(c.messages[0].id, "r1");
    assert_string_equal(c.messages[1].id, "r1");
    assert_string_equal(c.messages[0].model, "gemini-2.5-flash");
    assert_int_equal(c.messages[0].time_us, 1796302808428000LL);
    int64_t counts[4];
    usage_counts(c.messages[0].usage, counts);
    assert_int_equal(counts[0], 1000 + 7); /* the prompt without the cached part, tool prompt */
    assert_int_equal(counts[1], 25);       /* output + thoughts */
    assert_int_equal(counts[2], 300);      /* cached */
    assert_int_equal(counts[3], 0);
    assert_int_equal(c.malformed, 2);
    assert_int_equal(c.lines, 8);
    assert_int_equal(c.consumed, (size_t)(strrchr(text, '\n') - text) + 1);
    assert_string_equal(c.model, "gemini-2.5-flash");
    assert_false(c.ended);

    /* Hostile counts are clamped to the ledger's bound before they are added: no overflow. */
    const char *huge = "{\"id\":\"r9\",\"type\":\"gemini\",\"tokens\":{\"input\":"
                       "9223372036854775807,\"tool\":9223372036854775807,\"output\":"
                       "9223372036854775807,\"thoughts\":9223372036854775807}}\n";
    assert_int_equal(rp_cost_transcript_parse_gemini(&a, huge, strlen(huge), &c), 0);
    assert_int_equal(c.n_messages, 1);
    assert_true(rp_json_get(c.messages[0].usage, "input_tokens")->v.i == 2 * RP_USAGE_MAX_TOKENS);
    assert_true(rp_json_get(c.messages[0].usage, "output_tokens")->v.i == 2 * RP_USAGE_MAX_TOKENS);
    rp_arena_free(&a);
}

static void test_agent_path(void **state)
{
    (void)state;
    rp_arena a = {0};
    assert_string_equal(
        rp_cost_transcript_agent_path(&a, "/h/.claude/projects/p/s1.jsonl", "a1b2_c-3"),
        "/h/.claude/projects/p/s1/subagents/agent-a1b2_c-3.jsonl");
    assert_null(rp_cost_transcript_agent_path(&a, "/h/p/s1.jsonl", "../x"));
    assert_null(rp_cost_transcript_agent_path(&a, "/h/p/s1.jsonl", ""));
    assert_null(rp_cost_transcript_agent_path(&a, "/h/p/s1.json", "a1"));
    assert_null(rp_cost_transcript_agent_path(&a, ".jsonl", "a1"));
    assert_null(rp_cost_transcript_agent_path(&a, NULL, "a1"));
    rp_arena_free(&a);
}

static void test_malformed_lines_are_skipped_and_counted(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_cost_transcript_chunk c;
    const char *text =
        "not json at all\n"
        "[1,2,3]\n"
        "{\"type\":\"assistant\",\"message\":\"a string\"}\n"
        "{\"type\":\"assistant\",\"message\":{\"id\":\"m_neg\",\"usage\":{\"output_tokens\":-5}}}\n"
        "{\"type\":\"assistant\",\"message\":{\"id\":\"m_str\",\"usage\":{\"input_tokens\":\"12\"}}"
        "}\n"
        "{\"type\":\"assistant\",\"message\":{\"id\":\"m_frac\",\"usage\":{\"input_tokens\":1.5}}}"
        "\n"
        "{\"type\":\"assistant\",\"message\":{\"id\":\"m_u\",\"usage\":[1]}}\n"
        "{\"type\":\"assistant\",\"message\":{\"id\":7,\"usage\":{}}}\n"
        "{\"type\":\"assistant\",\"message\":{\"id\":\"m_model\",\"model\":5,\"usage\":{}}}\n"
        "{\"type\":\"assistant\",\"timestamp\":42,\"message\":{\"id\":\"m_t\",\"usage\":{}}}\n"
        "{\"type\":\"assistant\",\"timestamp\":\"yesterday\",\"message\":{\"id\":\"m_t2\","
        "\"usage\":{}}}\n"
        "{\"type\":\"assistant\",\"message\":{\"usage\":{\"input_tokens\":1}}}\n" /* no id */
        "{\"type\":\"assistant\",\"message\":{\"id\":\"m_cut\",\"usage\":{\"input_tokens\":1}\n"
        /* not malformed: */
        "\n"
        "{\"type\":\"assistant\",\"message\":{\"id\":\"m_nousage\",\"model\":\"x\"}}\n"
        "{\"type\":\"assistant\",\"message\":{\"id\":\"m_null\",\"usage\":null}}\n"
        "{\"type\":\"progress\",\"data\":{}}\n"
        "{\"no_type\":1}\n"
        "{\"type\":\"assistant\",\"message\":{\"id\":\"m_syn\",\"model\":\"<synthetic>\","
        "\"usage\":{\"input_tokens\":0}}}\n"
        "{\"type\":\"assistant\",\"requestId\":\"req_only\",\"message\":{\"model\":\"m\","
        "\"usage\":{\"input_tokens\":2,\"output_tokens\":3.0}}}\n";
    rp_cost_transcript_parse(&a, text, strlen(text), true, NULL, &c);
    assert_int_equal(c.malformed, 13);
    assert_int_equal(c.synthetic, 1);
    assert_int_equal(c.oversized, 0);
    assert_int_equal(c.lines, 20);
    assert_int_equal(c.consumed, strlen(text));
    /* The one good message: keyed by its requestId, an integral double read as an integer. */
    assert_int_equal(c.n_messages, 1);
    assert_string_equal(c.messages[0].id, "req_only");
    assert_string_equal(c.messages[0].model, "m");
    assert_int_equal(c.messages[0].time_us, 0);
    int64_t counts[4];
    usage_counts(c.messages[0].usage, counts);
    assert_int_equal(counts[0], 2);
    assert_int_equal(counts[1], 3);
    rp_arena_free(&a);
}

/* A malformed later line of a message leaves the usage of its last good line. */
static void test_malformed_line_of_a_message_keeps_the_good_one(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_cost_transcript_chunk c;
    const char *text =
        LINE2 "{\"type\":\"assistant\",\"message\":{\"id\":\"msg_1\",\"usage\":{\"output_tokens\":"
              "\"lots\"}}}\n";
    rp_cost_transcript_parse(&a, text, strlen(text), true, NULL, &c);
    assert_int_equal(c.n_messages, 1);
    assert_int_equal(c.malformed, 1);
    int64_t counts[4];
    usage_counts(c.messages[0].usage, counts);
    assert_int_equal(counts[1], 77);
    rp_arena_free(&a);
}

static void test_oversized_lines_are_skipped_unparsed(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_cost_transcript_chunk c;
    size_t big = RP_COST_TRANSCRIPT_MAX_LINE + 1;
    size_t len = strlen(LINE1) + big + 1 + strlen(LINE2);
    char *text = malloc(len + big + 1);
    assert_non_null(text);
    /* LINE1, a line of 16 MiB + 1 bytes (valid JSON, but too long to parse), LINE2. */
    size_t pos = 0;
    memcpy(text, LINE1, strlen(LINE1));
    pos += strlen(LINE1);
    text[pos] = '"';
    memset(text + pos + 1, 'x', big - 2);
    text[pos + big - 1] = '"';
    text[pos + big] = '\n';
    pos += big + 1;
    memcpy(text + pos, LINE2, strlen(LINE2));
    pos += strlen(LINE2);
    assert_int_equal(pos, len);
    rp_cost_transcript_parse(&a, text, len, true, NULL, &c);
    assert_int_equal(c.oversized, 1);
    assert_int_equal(c.lines, 3);
    assert_int_equal(c.n_messages, 1);
    assert_int_equal(c.consumed, len);

    /* A partial line already over the bound is consumed, so the reader never stalls on it; the
     * message before it is then known to be complete. */
    memset(text + pos, 'y', big);
    rp_cost_transcript_parse(&a, text, len + big, false, NULL, &c);
    assert_int_equal(c.oversized, 2);
    assert_int_equal(c.lines, 4);
    assert_int_equal(c.n_messages, 1);
    assert_int_equal(c.consumed, len + big);
    /* Its rest, read next time, is one malformed line. */
    rp_cost_transcript_parse(&a, "yyyy\"}\n", 7, false, NULL, &c);
    assert_int_equal(c.malformed, 1);
    assert_int_equal(c.consumed, 7);
    free(text);
    rp_arena_free(&a);
}

/* Many messages (more than the id table's first size): each found again by id. */
static void test_many_messages(void **state)
{
    (void)state;
    rp_arena a = {0};
    rp_buf b = {0};
    for (int i = 0; i < 500; i++) {
        for (int k = 1; k <= 2; k++) {
            rp_buf_printf(&b,
                          "{\"type\":\"assistant\",\"message\":{\"id\":\"msg_%d\",\"model\":"
                          "\"claude-haiku-4-5\",\"usage\":{\"output_tokens\":%d}}}\n",
                          i, i * 10 + k);
        }
    }
    rp_cost_transcript_chunk c;
    rp_cost_transcript_parse(&a, b.data, b.len, true, NULL, &c);
    assert_int_equal(c.n_messages, 500);
    for (int i = 0; i < 500; i++) {
        char id[32];
        snprintf(id, sizeof id, "msg_%d", i);
        assert_string_equal(c.messages[i].id, id);
        int64_t counts[4];
        usage_counts(c.messages[i].usage, counts);
        assert_int_equal(counts[1], i * 10 + 2);
    }
    rp_buf_free(&b);
    rp_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_final_gives_every_message_once),
        cmocka_unit_test(test_fixture_not_final_defers_the_last_message),
        cmocka_unit_test(test_fixture_split_anywhere_equals_one_shot),
        cmocka_unit_test(test_streamed_message_keeps_last_usage_and_time),
        cmocka_unit_test(test_partial_line_is_left_for_next_time),
        cmocka_unit_test(test_deferred_message_is_emitted_once_whole),
        cmocka_unit_test(test_completion_proofs),
        cmocka_unit_test(test_agent_path),
        cmocka_unit_test(test_gemini_recording),
        cmocka_unit_test(test_malformed_lines_are_skipped_and_counted),
        cmocka_unit_test(test_malformed_line_of_a_message_keeps_the_good_one),
        cmocka_unit_test(test_oversized_lines_are_skipped_unparsed),
        cmocka_unit_test(test_many_messages),
    };
    return cmocka_run_group_tests(tests, load_fixture, free_fixture);
}
