/* test_hosts_hook_spend.c — rp_hook_record_transcript (src/hosts/hook_spend.c): the fixture
 * transcript (tests/data/hosts/claude-code/transcript/session.jsonl) into the ledger at the shipped
 * prices, re-reads that add nothing, a file that grows turn by turn, a file replaced by a shorter
 * one; and the store calls it needs (transcript offsets, rp_store_take_pending_at), on both
 * backends.
 *
 * The expected spend, by hand, from `rampart pricing` (data/pricing.json, USD per 1M tokens,
 * i.e. micro-dollars per token): claude-sonnet-4-5 in 3, out 15, cache read 0.30, cache write
 * 3.75; claude-haiku-4-5 in 1, out 5, cache read 0.10, cache write 1.25. In µUSD (1 µUSD =
 * 1000 nUSD, the ledger's unit), each message's final usage (in, out, cache read, cache write):
 *
 *   turn 1  A sonnet    3*3 + 112*15 + 12000*0.3 + 4096*3.75 = 9 + 1680 + 3600 + 15360 = 20649
 *           B sonnet    5*3 +  95*15 + 16100*0.3 + 1800*3.75 = 15 + 1425 + 4830 + 6750 = 13020
 *           C sonnet    4*3 + 310*15 + 17900*0.3 + 2400*3.75 = 12 + 4650 + 5370 + 9000 = 19032
 *                                                                      turn 1 = 52701
 *   turn 2  D sonnet    3*3 + 420*15 + 20300*0.3 +  900*3.75 = 9 + 6300 + 6090 + 3375 = 15774
 *           E sonnet    6*3 + 150*15 + 21200*0.3 + 1200*3.75 = 18 + 2250 + 6360 + 4500 = 13128
 *           F haiku     4*1 + 200*5  +     0*0.1 + 3000*1.25 = 4 + 1000 + 0 + 3750 = 4754
 *           G haiku     6*1 + 380*5  +  3000*0.1 + 1500*1.25 = 6 + 1900 + 300 + 1875 = 4081
 *           H sonnet    5*3 + 240*15 + 22400*0.3 +  800*3.75 = 15 + 3600 + 6720 + 3000 = 13335
 *                                                     turn 2 = 51072, turns 1-2 = 103773
 *   turn 3  I sonnet    3*3 +  85*15 + 23200*0.3 + 1000*3.75 = 9 + 1275 + 6960 + 3750 = 11994
 *           J sonnet    4*3 + 130*15 + 24200*0.3 +  600*3.75 = 12 + 1950 + 7260 + 2250 = 11472
 *                                                     turn 3 = 23466, turns 1-3 = 127239
 *   turn 4  K sonnet    3*3 +  70*15 + 24800*0.3 +  500*3.75 = 9 + 1050 + 7440 + 1875 = 10374
 *                                          all 11 messages = 137613 µUSD = $0.137613
 *   (the "<synthetic>" message costs nothing and is not recorded; the partial last line,
 *    msg L, once complete: 3*3 + 9*15 + 25300*0.3 + 400*3.75 = 9 + 135 + 7590 + 1500 = 9234)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hosts/hook_spend.h"
#include "cost/pricing.h"
#include "remove_tree.h"

#define SESSION "7f3c2a10-5b1e-4c8e-9d2a-0e4b6f8a1c33"

#define US(x)       ((int64_t)(x)*1000) /* µUSD → nUSD */
#define TURN1_NUSD  US(52701)
#define TURN12_NUSD US(103773)
#define ALL_NUSD    US(137613)
#define MSG_L_NUSD  US(9234)

/* Byte offsets in the fixture where each turn's lines end, and the complete part's end. */
#define CUT_TURN1 6896
#define CUT_TURN2 16335
#define COMPLETE  23734

typedef struct fixture {
    rp_arena a;
    const rp_cost_pricing *pricing;
    rp_store *store;
    char dir[64];
    char path[128];
    char *text;
    size_t len;
} fixture;

static int setup_common(fixture *f)
{
    char err[256];
    f->pricing = rp_cost_pricing_build(&f->a, NULL, err, sizeof err);
    if (f->pricing == NULL) {
        return -1;
    }
    strcpy(f->dir, "/tmp/rampart-hook-spend-XXXXXX");
    if (mkdtemp(f->dir) == NULL) {
        return -1;
    }
    snprintf(f->path, sizeof f->path, "%s/session.jsonl", f->dir);
    const char *src = getenv("RAMPART_SOURCE_DIR");
    if (src == NULL) {
        src = RAMPART_SOURCE_DIR;
    }
    char fixture_path[1024];
    snprintf(fixture_path, sizeof fixture_path,
             "%s/tests/data/hosts/claude-code/transcript/session.jsonl", src);
    FILE *in = fopen(fixture_path, "rb");
    if (in == NULL) {
        return -1;
    }
    f->text = malloc(1 << 20);
    f->len = fread(f->text, 1, 1 << 20, in);
    fclose(in);
    return f->len > 0 ? 0 : -1;
}

static int setup_memory(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    *state = f;
    if (setup_common(f) != 0) {
        return -1;
    }
    f->store = rp_store_open_memory();
    return 0;
}

static int setup_sqlite(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    *state = f;
    if (setup_common(f) != 0) {
        return -1;
    }
    char state_dir[128], err[512];
    snprintf(state_dir, sizeof state_dir, "%s/state", f->dir);
    f->store = rp_store_open_sqlite(state_dir, err, sizeof err);
    return f->store != NULL ? 0 : -1;
}

static int teardown(void **state)
{
    fixture *f = *state;
    if (f->store) {
        rp_store_close(f->store);
    }
    remove_tree(f->dir);
    rp_arena_free(&f->a);
    free(f->text);
    free(f);
    return 0;
}

/* The transcript file holds the fixture's first n bytes (written anew: same inode). */
static void write_prefix(fixture *f, size_t n)
{
    FILE *out = fopen(f->path, "wb");
    assert_non_null(out);
    assert_int_equal(fwrite(f->text, 1, n, out), n);
    fclose(out);
}

static void append_text(fixture *f, const char *text)
{
    FILE *out = fopen(f->path, "ab");
    assert_non_null(out);
    fputs(text, out);
    fclose(out);
}

/* One read: the session, its links, the path and whether the turn is over. */
static int record_as(rp_store *store, const rp_cost_pricing *pricing, const char *session,
                     const char *user, const char *parent, const char *root, const char *path,
                     bool final, rp_hook_transcript_stats *st, char *err, size_t err_size)
{
    rp_hook_transcript_source src = {.session_id = session,
                                     .user = user,
                                     .parent_session_id = parent,
                                     .root_session_id = root,
                                     .path = path,
                                     .final = final};
    return rp_hook_record_transcript(store, pricing, &src, st, err, err_size);
}

static rp_hook_transcript_stats record(fixture *f, bool final)
{
    rp_hook_transcript_stats st;
    char err[512] = "";
    int rc = record_as(f->store, f->pricing, SESSION, "alice", NULL, NULL, f->path, final, &st, err,
                       sizeof err);
    if (rc != 0) {
        fail_msg("rp_hook_record_transcript: %s", err);
    }
    return st;
}

static void assert_stats(rp_hook_transcript_stats st, size_t recorded, size_t duplicates,
                         int64_t cost_nusd)
{
    assert_int_equal(st.recorded, recorded);
    assert_int_equal(st.duplicates, duplicates);
    assert_int_equal(st.cost_nusd, cost_nusd);
    assert_int_equal(st.unpriced, 0);
    assert_int_equal(st.skipped_lines, 0);
}

static void assert_tree(fixture *f, int64_t records, int64_t cost_nusd)
{
    rp_usage_totals t;
    assert_int_equal(rp_store_usage_tree(f->store, SESSION, &t), 0);
    assert_int_equal(t.records, records);
    assert_int_equal(t.cost_nusd, cost_nusd);
    assert_int_equal(t.unpriced_records, 0);
}

static int64_t stored_offset(fixture *f)
{
    int64_t off = -1;
    assert_int_equal(rp_store_get_transcript_offset(f->store, SESSION, f->path, &off), 0);
    return off;
}

static void test_whole_transcript_records_exact_spend(void **state)
{
    fixture *f = *state;
    write_prefix(f, f->len);
    assert_stats(record(f, true), 11, 0, ALL_NUSD);
    assert_tree(f, 11, ALL_NUSD);
    assert_int_equal(stored_offset(f), COMPLETE);

    /* Token sums, and the rows are on the messages' own day, charged to alice. */
    rp_usage_totals t;
    assert_int_equal(rp_store_user_spend(f->store, "alice", "2026-11-30", "2026-11-30", &t), 0);
    assert_int_equal(t.records, 11);
    assert_int_equal(t.cost_nusd, ALL_NUSD);
    assert_int_equal(t.input_tokens, 3 + 5 + 4 + 3 + 6 + 4 + 6 + 5 + 3 + 4 + 3);
    assert_int_equal(t.output_tokens, 112 + 95 + 310 + 420 + 150 + 200 + 380 + 240 + 85 + 130 + 70);
    assert_int_equal(t.cache_read_input_tokens, 12000 + 16100 + 17900 + 20300 + 21200 + 0 + 3000 +
                                                    22400 + 23200 + 24200 + 24800);
    assert_int_equal(t.cache_creation_input_tokens,
                     4096 + 1800 + 2400 + 900 + 1200 + 3000 + 1500 + 800 + 1000 + 600 + 500);

    /* Nothing new: nothing recorded, no duplicates either (no byte was read again). */
    assert_stats(record(f, true), 0, 0, 0);
    assert_tree(f, 11, ALL_NUSD);
}

static void test_finished_last_line_is_recorded_next_time(void **state)
{
    fixture *f = *state;
    write_prefix(f, f->len);
    assert_stats(record(f, true), 11, 0, ALL_NUSD);
    /* The host finishes writing msg L's line (the rest of it, as the generator wrote it). */
    append_text(f, "mmitting now.\"}],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{"
                   "\"input_tokens\":3,\"cache_creation_input_tokens\":400,"
                   "\"cache_read_input_tokens\":25300,\"cache_creation\":{"
                   "\"ephemeral_5m_input_tokens\":400,\"ephemeral_1h_input_tokens\":0},"
                   "\"output_tokens\":9,\"service_tier\":\"standard\"}},\"requestId\":"
                   "\"req_011CVL\",\"type\":\"assistant\",\"uuid\":\"x\",\"timestamp\":"
                   "\"2026-11-30T10:04:22.894Z\"}\n");
    /* Not final: it is the last message and may still grow. */
    assert_stats(record(f, false), 0, 0, 0);
    assert_int_equal(stored_offset(f), COMPLETE);
    assert_stats(record(f, true), 1, 0, MSG_L_NUSD);
    assert_tree(f, 12, ALL_NUSD + MSG_L_NUSD);
}

static void test_growing_file_records_only_new_messages(void **state)
{
    fixture *f = *state;
    /* Turn 1 written; a post-tool read: msg C is the last message, but its last line has a
     * stop_reason (the response ended): recorded. */
    write_prefix(f, CUT_TURN1);
    assert_stats(record(f, false), 3, 0, TURN1_NUSD);
    /* Stop: nothing new. */
    assert_stats(record(f, true), 0, 0, 0);
    assert_tree(f, 3, TURN1_NUSD);
    assert_int_equal(stored_offset(f), CUT_TURN1);

    /* Turn 2 written; a post-tool read: every message of it, H's stop_reason included. */
    write_prefix(f, CUT_TURN2);
    assert_stats(record(f, false), 5, 0, TURN12_NUSD - TURN1_NUSD);
    assert_stats(record(f, true), 0, 0, 0);
    assert_tree(f, 8, TURN12_NUSD);

    /* The rest at once, final. */
    write_prefix(f, f->len);
    assert_stats(record(f, true), 3, 0, ALL_NUSD - TURN12_NUSD);
    assert_tree(f, 11, ALL_NUSD);
}

static void test_replaced_file_is_not_double_counted(void **state)
{
    fixture *f = *state;
    write_prefix(f, f->len);
    assert_stats(record(f, true), 11, 0, ALL_NUSD);

    /* Replaced by a shorter file (turn 1 only): read from the start, every message known. */
    unlink(f->path);
    write_prefix(f, CUT_TURN1);
    assert_stats(record(f, true), 0, 3, 0);
    assert_int_equal(stored_offset(f), CUT_TURN1);
    assert_tree(f, 11, ALL_NUSD);

    /* Truncated to nothing: offset back to 0, nothing recorded. */
    write_prefix(f, 0);
    assert_stats(record(f, true), 0, 0, 0);
    assert_int_equal(stored_offset(f), 0);

    /* Grows again to the whole session: the offset moved on from 0, still no double count. */
    write_prefix(f, f->len);
    assert_stats(record(f, true), 0, 11, 0);
    assert_tree(f, 11, ALL_NUSD);
}

static void test_malformed_lines_are_counted_not_recorded(void **state)
{
    fixture *f = *state;
    const char *bad = "{\"type\":\"assistant\",\"message\":{\"id\":\"m\",\"usage\":{"
                      "\"output_tokens\":-1}}}\nnot json\n";
    write_prefix(f, CUT_TURN1);
    append_text(f, bad);
    rp_hook_transcript_stats st = record(f, true);
    assert_int_equal(st.recorded, 3);
    assert_int_equal(st.skipped_lines, 2);
    assert_int_equal(st.cost_nusd, TURN1_NUSD);
    assert_int_equal(stored_offset(f), CUT_TURN1 + strlen(bad));
}

static void test_missing_or_odd_paths(void **state)
{
    fixture *f = *state;
    rp_hook_transcript_stats st;
    char err[512] = "";
    /* Missing file, no path: nothing, no error. */
    assert_int_equal(record_as(f->store, f->pricing, SESSION, NULL, NULL, NULL, f->path, true, &st,
                               err, sizeof err),
                     0);
    assert_int_equal(st.recorded, 0);
    assert_int_equal(record_as(f->store, f->pricing, SESSION, NULL, NULL, NULL, NULL, true, &st,
                               err, sizeof err),
                     0);
    assert_int_equal(
        record_as(f->store, f->pricing, SESSION, NULL, NULL, NULL, "", true, NULL, err, sizeof err),
        0);
    char missing_dir[256];
    snprintf(missing_dir, sizeof missing_dir, "%s/nope/session.jsonl", f->dir);
    assert_int_equal(record_as(f->store, f->pricing, SESSION, NULL, NULL, NULL, missing_dir, true,
                               &st, err, sizeof err),
                     0);
    /* A directory is not a transcript: an error, said. */
    assert_int_equal(record_as(f->store, f->pricing, SESSION, NULL, NULL, NULL, f->dir, true, &st,
                               err, sizeof err),
                     -1);
    char want[256];
    snprintf(want, sizeof want, "transcript %s is not a regular file", f->dir);
    assert_string_equal(err, want);
    /* No session: an error. */
    assert_int_equal(
        record_as(f->store, f->pricing, "", NULL, NULL, NULL, f->path, true, &st, err, sizeof err),
        -1);
    assert_string_equal(err, "transcript: no store or no session id");
    assert_tree(f, 0, 0);
}

/* Without a price table every row is unpriced: counted, tokens kept, no cost. */
static void test_unpriced_without_table(void **state)
{
    fixture *f = *state;
    write_prefix(f, CUT_TURN1);
    rp_hook_transcript_stats st;
    char err[256];
    assert_int_equal(
        record_as(f->store, NULL, SESSION, NULL, NULL, NULL, f->path, true, &st, err, sizeof err),
        0);
    assert_int_equal(st.recorded, 3);
    assert_int_equal(st.unpriced, 3);
    assert_int_equal(st.cost_nusd, 0);
}

/* A sub-agent's transcript: the session is linked under its parent, and the spend counts in
 * the parent's tree. */
static void test_links_parent_and_root(void **state)
{
    fixture *f = *state;
    write_prefix(f, CUT_TURN1);
    rp_hook_transcript_stats st;
    char err[256];
    assert_int_equal(record_as(f->store, f->pricing, "parent/agent/a1", "alice", "parent", "parent",
                               f->path, true, &st, err, sizeof err),
                     0);
    assert_int_equal(st.recorded, 3);
    rp_usage_totals t;
    assert_int_equal(rp_store_usage_tree(f->store, "parent", &t), 0);
    assert_int_equal(t.records, 3);
    assert_int_equal(t.cost_nusd, TURN1_NUSD);
    /* Offsets are per session: the same file read for another session starts at 0. */
    int64_t off = -1;
    assert_int_equal(rp_store_get_transcript_offset(f->store, "parent/agent/a1", f->path, &off), 0);
    assert_int_equal(off, CUT_TURN1);
    assert_int_equal(stored_offset(f), 0);
}

static void test_transcript_offsets(void **state)
{
    fixture *f = *state;
    int64_t off = -1;
    assert_int_equal(rp_store_get_transcript_offset(f->store, "s", "/t.jsonl", &off), 0);
    assert_int_equal(off, 0);
    assert_int_equal(rp_store_set_transcript_offset(f->store, "s", "/t.jsonl", 123, NULL), 0);
    assert_int_equal(rp_store_set_transcript_offset(f->store, "s", "/u.jsonl", 7, NULL), 0);
    assert_int_equal(rp_store_set_transcript_offset(f->store, "s", "/t.jsonl", 456, NULL), 0);
    assert_int_equal(rp_store_get_transcript_offset(f->store, "s", "/t.jsonl", &off), 0);
    assert_int_equal(off, 456);
    assert_int_equal(rp_store_get_transcript_offset(f->store, "s", "/u.jsonl", &off), 0);
    assert_int_equal(off, 7);
    assert_int_equal(rp_store_get_transcript_offset(f->store, "other", "/t.jsonl", &off), 0);
    assert_int_equal(off, 0);
    assert_int_equal(rp_store_set_transcript_offset(f->store, "s", "/t.jsonl", -1, NULL), -1);
    assert_string_equal(rp_store_error(f->store), "transcript offset must be >= 0, got -1");
    assert_int_equal(rp_store_set_transcript_offset(f->store, "s", "", 1, NULL), -1);
    assert_string_equal(rp_store_error(f->store), "transcript path is empty");
    assert_int_equal(rp_store_get_transcript_offset(f->store, "", "/t.jsonl", &off), -1);
    assert_string_equal(rp_store_error(f->store), "session id is empty");
    /* Inside a transaction too (the hook path). */
    assert_int_equal(rp_store_begin(f->store), 0);
    assert_int_equal(rp_store_set_transcript_offset(f->store, "s", "/t.jsonl", 789, NULL), 0);
    assert_int_equal(rp_store_commit(f->store), 0);
    assert_int_equal(rp_store_get_transcript_offset(f->store, "s", "/t.jsonl", &off), 0);
    assert_int_equal(off, 789);
    /* The model: set, kept by a NULL one, replaced by another; the latest row wins. */
    rp_arena a = {0};
    rp_transcript_mark mark;
    assert_int_equal(rp_store_set_transcript_offset(f->store, "s", "/u.jsonl", 8, "m1"), 0);
    assert_int_equal(rp_store_set_transcript_offset(f->store, "s", "/u.jsonl", 9, NULL), 0);
    assert_int_equal(rp_store_get_transcript(f->store, "s", "/u.jsonl", &a, &mark), 0);
    assert_int_equal(mark.offset, 9);
    assert_string_equal(mark.model, "m1");
    assert_int_equal(rp_store_get_transcript(f->store, "s", NULL, &a, &mark), 0);
    assert_string_equal(mark.path, "/u.jsonl");
    assert_int_equal(rp_store_get_transcript(f->store, "s", "/t.jsonl", &a, &mark), 0);
    assert_null(mark.model);
    rp_arena_free(&a);
}

/* The session's current model, and the message a tool call proves complete (issue 15). */
static void test_model_and_tool_use_proof(void **state)
{
    fixture *f = *state;
    /* Up to msg K's first line (no stop_reason): K may still be streaming and waits. */
    write_prefix(f, 21234);
    rp_hook_transcript_stats st = record(f, false);
    assert_int_equal(st.recorded, 10);
    assert_string_equal(st.model, "claude-sonnet-4-5-20250929");
    /* Its tool_use line written, the host's PreToolUse for it: K is complete. */
    write_prefix(f, 22166);
    rp_hook_transcript_source src = {.session_id = SESSION,
                                     .user = "alice",
                                     .path = f->path,
                                     .tool_use_id = "toolu_01Bash0000000000000007"};
    char err[256];
    assert_int_equal(rp_hook_record_transcript(f->store, f->pricing, &src, &st, err, sizeof err),
                     0);
    assert_int_equal(st.recorded, 1);
    assert_int_equal(st.cost_nusd, US(10374));
    assert_int_equal(stored_offset(f), 22166);
    /* Nothing new: the model is the remembered one. */
    assert_int_equal(rp_hook_record_transcript(f->store, f->pricing, &src, &st, err, sizeof err),
                     0);
    assert_int_equal(st.recorded, 0);
    assert_string_equal(st.model, "claude-sonnet-4-5-20250929");
    /* And the session's latest transcript is this one. */
    rp_arena a = {0};
    rp_transcript_mark mark;
    assert_int_equal(rp_store_get_transcript(f->store, SESSION, NULL, &a, &mark), 0);
    assert_string_equal(mark.path, f->path);
    assert_int_equal(mark.offset, 22166);
    assert_string_equal(mark.model, "claude-sonnet-4-5-20250929");
    assert_int_equal(rp_store_get_transcript(f->store, "nobody", NULL, &a, &mark), 1);
    assert_null(mark.path);
    rp_arena_free(&a);
}

static int64_t elapsed_ms(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (int64_t)(t1.tv_sec - t0->tv_sec) * 1000 + (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

/* Appends text to path after delay_ms, from a child process. */
static pid_t append_later(const char *path, const char *text, int delay_ms)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct timespec d = {.tv_sec = 0, .tv_nsec = (long)delay_ms * 1000000L};
        nanosleep(&d, NULL);
        FILE *out = fopen(path, "ab");
        if (out != NULL) {
            fputs(text, out);
            fclose(out);
        }
        _exit(0);
    }
    return pid;
}

/* Claude Code writes its transcript every 100 ms: a PreToolUse waits for the line of its
 * tool_use, and the end of a turn for its last message, at most wait_ms (issue 15). */
static void test_waits_for_the_line(void **state)
{
    fixture *f = *state;
    write_prefix(f, 21234); /* up to msg K's first line, its tool_use line not yet written */
    const char *k_tool_line = f->text + 21234;
    size_t k_len = 22166 - 21234;
    char *line = strndup(k_tool_line, k_len);
    rp_hook_transcript_source src = {.session_id = SESSION,
                                     .path = f->path,
                                     .tool_use_id = "toolu_01Bash0000000000000007",
                                     .wait_ms = 2000};
    rp_hook_transcript_stats st;
    char err[256];
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = append_later(f->path, line, 50);
    assert_int_equal(rp_hook_record_transcript(f->store, f->pricing, &src, &st, err, sizeof err),
                     0);
    waitpid(pid, NULL, 0);
    assert_int_equal(st.recorded, 11); /* K with the ten before it */
    assert_true(elapsed_ms(&t0) < 1500);
    /* The same tool_use again (a second call of one message): read before, no wait. */
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(rp_hook_record_transcript(f->store, f->pricing, &src, &st, err, sizeof err),
                     0);
    assert_int_equal(st.recorded, 0);
    assert_true(elapsed_ms(&t0) < 500);
    /* A tool_use never written: the wait ends at wait_ms, and what is there is recorded. */
    src.tool_use_id = "toolu_never";
    src.wait_ms = 100;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(rp_hook_record_transcript(f->store, f->pricing, &src, &st, err, sizeof err),
                     0);
    assert_true(elapsed_ms(&t0) >= 100);
    /* The end of the turn: the last message (msg L, stop_reason end_turn) arrives late. */
    src.tool_use_id = NULL;
    src.final = true;
    src.wait_ms = 2000;
    const char *last = "{\"type\":\"assistant\",\"message\":{\"id\":\"msg_end\",\"model\":"
                       "\"claude-sonnet-4-5\",\"stop_reason\":\"end_turn\",\"usage\":{"
                       "\"input_tokens\":1000000}}}\n";
    write_prefix(f, COMPLETE);
    pid = append_later(f->path, last, 50);
    assert_int_equal(rp_hook_record_transcript(f->store, f->pricing, &src, &st, err, sizeof err),
                     0);
    waitpid(pid, NULL, 0);
    assert_int_equal(st.recorded, 1);
    assert_int_equal(st.cost_nusd, US(3000000));
    /* Again: the turn's end was read before, no wait. */
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(rp_hook_record_transcript(f->store, f->pricing, &src, &st, err, sizeof err),
                     0);
    assert_true(elapsed_ms(&t0) < 500);
    free(line);
}

static void test_take_pending_at(void **state)
{
    fixture *f = *state;
    rp_arena a = {0};
    rp_json_error jerr;
    const char *updates_text = "[{\"key\":\"k\",\"action\":\"set\",\"value\":1,\"policy\":\"p\"}]";
    rp_json *updates = rp_json_parse(&a, updates_text, strlen(updates_text), &jerr);
    assert_non_null(updates);
    assert_int_equal(rp_store_put_pending(f->store, "s", "ask1", updates, NULL, 1234567), 0);
    rp_json *got = NULL;
    int64_t at = -1;
    assert_int_equal(rp_store_take_pending_at(f->store, "s", "ask1", &a, &got, &at), 0);
    assert_non_null(got);
    assert_true(rp_json_equal(got, updates, false));
    assert_int_equal(at, 1234567);
    /* Taken: gone. */
    assert_int_equal(rp_store_take_pending_at(f->store, "s", "ask1", &a, &got, &at), 0);
    assert_null(got);
    assert_int_equal(at, 0);
    /* The plain take still works on an entry stored again, and sees the same entry. */
    assert_int_equal(rp_store_put_pending(f->store, "s", "ask1", updates, NULL, 99), 0);
    assert_int_equal(rp_store_take_pending(f->store, "s", "ask1", &a, &got), 0);
    assert_non_null(got);
    assert_int_equal(rp_store_take_pending_at(f->store, "s", "ask1", &a, &got, &at), 0);
    assert_null(got);
    assert_int_equal(rp_store_take_pending_at(f->store, "s", "", &a, &got, &at), -1);
    assert_string_equal(rp_store_error(f->store), "ask key is empty");
    rp_arena_free(&a);
}

/* SQLite only: the offset survives the process (a reopened store). */
static void test_sqlite_offset_survives_reopen(void **state)
{
    fixture *f = *state;
    write_prefix(f, f->len);
    assert_stats(record(f, true), 11, 0, ALL_NUSD);
    rp_store_close(f->store);
    char state_dir[128], err[512];
    snprintf(state_dir, sizeof state_dir, "%s/state", f->dir);
    f->store = rp_store_open_sqlite(state_dir, err, sizeof err);
    assert_non_null(f->store);
    assert_int_equal(stored_offset(f), COMPLETE);
    assert_stats(record(f, true), 0, 0, 0);
    assert_tree(f, 11, ALL_NUSD);
}

#define BOTH(fn)                                                                                   \
    cmocka_unit_test_setup_teardown(fn, setup_memory, teardown),                                   \
        cmocka_unit_test_setup_teardown(fn, setup_sqlite, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        BOTH(test_whole_transcript_records_exact_spend),
        BOTH(test_finished_last_line_is_recorded_next_time),
        BOTH(test_growing_file_records_only_new_messages),
        BOTH(test_replaced_file_is_not_double_counted),
        BOTH(test_malformed_lines_are_counted_not_recorded),
        BOTH(test_missing_or_odd_paths),
        BOTH(test_unpriced_without_table),
        BOTH(test_links_parent_and_root),
        BOTH(test_transcript_offsets),
        BOTH(test_model_and_tool_use_proof),
        BOTH(test_waits_for_the_line),
        BOTH(test_take_pending_at),
        cmocka_unit_test_setup_teardown(test_sqlite_offset_survives_reopen, setup_sqlite, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
