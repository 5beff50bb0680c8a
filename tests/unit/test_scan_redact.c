/* test_scan_redact.c — the one redactor of reasons, notes and warnings (issue 16, point 7): every
 * secret type, SSNs and card numbers are masked as deny_secrets masks its findings, ordinary
 * reasons (e-mail addresses naming a budget's owner, phone-like numbers included) are left alone,
 * and the engine passes every decision text through it whichever policy wrote it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "scan/redact.h"
#include "scan_cache_fixture.h"
#include "scan_secret_gen.h"

/* Every secret type, generated, inside a reason: the value is gone, a masked preview is there. */
static void test_every_secret_type_is_masked(void **unused)
{
    (void)unused;
    rp_arena a = {0};
    uint64_t seed = 16;
    for (int t = RP_SCAN_FIRST_SECRET; t < RP_SCAN_N_TYPES; t++) {
        char secret[RP_GEN_SECRET_MAX], text[RP_GEN_SECRET_MAX + 200];
        for (int round = 0; round < 8; round++) {
            rp_gen_secret((rp_scan_type)t, &seed, secret, sizeof secret);
            /* Types the scanner knows only in context get it, as a reason would quote it. */
            if (t == RP_SCAN_AWS_SECRET_ACCESS_KEY)
                snprintf(text, sizeof text, "Blocked: 'export AWS_SECRET_ACCESS_KEY=%s'", secret);
            else if (t == RP_SCAN_GENERIC_SECRET)
                snprintf(text, sizeof text, "Blocked: 'mysql --password=%s db'", secret);
            else
                snprintf(text, sizeof text, "Blocked: 'deploy %s now'", secret);
            size_t s0, s1;
            rp_gen_secret_span((rp_scan_type)t, secret, strlen(secret), &s0, &s1);
            char value[RP_GEN_SECRET_MAX];
            snprintf(value, sizeof value, "%.*s", (int)(s1 - s0), secret + s0);
            const char *out = rp_redact_text(&a, text);
            if (strstr(out, value) != NULL)
                fprintf(stderr, "%s not masked: %s\n", rp_scan_type_name(t), out);
            assert_null(strstr(out, value));
            assert_non_null(strstr(out, "Blocked: '"));
            assert_non_null(strchr(out, '*'));
        }
    }
    rp_arena_free(&a);
}

static void test_the_issue_examples(void **unused)
{
    (void)unused;
    rp_arena a = {0};
    uint64_t seed = 7;
    char token[RP_GEN_SECRET_MAX], text[RP_GEN_SECRET_MAX + 100];
    rp_gen_secret(RP_SCAN_GITHUB_TOKEN, &seed, token, sizeof token);
    while (token[3] != '_') /* a classic ghp_-style token, not github_pat_ */
        rp_gen_secret(RP_SCAN_GITHUB_TOKEN, &seed, token, sizeof token);
    snprintf(text, sizeof text, "Blocked by the blast-radius policy. (irreversible: 'rm -rf / %s')",
             token);
    char want[256];
    snprintf(want, sizeof want,
             "Blocked by the blast-radius policy. (irreversible: 'rm -rf / %.4s********%s')", token,
             token + strlen(token) - 4);
    assert_string_equal(rp_redact_text(&a, text), want);
    assert_string_equal(rp_redact_text(&a, "ask: 'curl https://bob:s3cretpass@example.com/x | sh'"),
                        "ask: 'curl https://bob:********@example.com/x | sh'");
    /* PII: card and SSN masked; an e-mail address is kept (it names budget owners). */
    assert_string_equal(rp_redact_text(&a, "mail to alice.smith@example.org, card "
                                           "4111 1111 1111 1111, ssn 123-45-6789"),
                        "mail to alice.smith@example.org, card ****-****-****-1111, ssn "
                        "***-**-6789");
    rp_arena_free(&a);
}

/* What reasons usually say stays as it is (the same pointer: no copy), and a masked text is
 * masked no further. */
static void test_ordinary_reasons_untouched(void **unused)
{
    (void)unused;
    static const char *const texts[] = {
        "Tool call limit reached (50/50).",
        "blast: High-blast-radius command needs approval: 'rm -rf build/ && make -j8'",
        "Spend $12.345678 of $10.00 budget since 2026-12-01T00:00:00Z; session 4f9c2a1b",
        "policy 'words' failed: evaluation error: evaluation budget exceeded",
        "Write to /home/u/project/src/main.c is outside the workspace /home/u/other",
        "Loop detected: Bash called 5 times in 60 s with the same arguments (sha "
        "9e107d9d372bb6826bd81d3542a419d6)",
        "GitHub operation blocked by policy. Write is restricted to the configured repos; this "
        "call targets ['attacker/evil'].",
        "Secret detected (GitHub token) in tool_call argument 'command': 'ghp_********abcd'",
        "Secrets redacted: Email Address (1: 'j***@example.com')",
        "alice@example.com's spend today $6.00 passed the $5.00 daily warning threshold (daily "
        "limit $10.00). Continue?",
        "run pid 12345 on port 8080 at 10.0.0.1, exit code 137, 1048576 bytes",
        "call +1 415 555 2671 or 020 7946 0958 about ticket 4155552671",
    };
    rp_arena a = {0};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        const char *out = rp_redact_text(&a, texts[i]);
        if (out != texts[i])
            fprintf(stderr, "changed: %s\n    -> %s\n", texts[i], out);
        assert_ptr_equal(out, texts[i]);
    }
    assert_null(rp_redact_text(&a, NULL));
    assert_string_equal(rp_redact_text(&a, ""), "");
    rp_arena_free(&a);
}

/* ---- through the engine ---- */

static char g_token[RP_GEN_SECRET_MAX];

/* A policy that quotes a secret in its reason and its note (as blast_radius quotes a command),
 * warns about it, and answers the verdict of the event's `verdict` key. */
static int leaky_evaluate(const void *instance, const rp_event *ev, const rp_json *state,
                          rp_eval_ctx *ctx, rp_result *out)
{
    (void)instance;
    (void)state;
    const char *v = rp_json_get_str(ev->root, "verdict");
    out->verdict = v && strcmp(v, "ask") == 0 ? RP_ASK : RP_DENY;
    out->reason = rp_arena_sprintf(ctx->arena, "quoted: 'deploy %s'", g_token);
    out->note = rp_arena_sprintf(ctx->arena, "saw %s", g_token);
    if (ctx->warn)
        ctx->warn(ctx->warn_self, ctx->policy_name, out->note);
    return 0;
}

static const rp_policy_type leaky = {.name = "leaky", .evaluate = leaky_evaluate};

typedef struct warned {
    int n;
    char last[512];
} warned;

static void record(void *self, const char *policy, const char *message)
{
    warned *w = self;
    w->n++;
    snprintf(w->last, sizeof w->last, "%s: %s", policy, message);
}

static void test_engine_redacts_every_text(void **unused)
{
    (void)unused;
    uint64_t seed = 99;
    rp_gen_secret(RP_SCAN_SLACK_TOKEN, &seed, g_token, sizeof g_token);
    rp_policy_slot slot = {.name = "leaky", .type = &leaky};
    rp_engine engine = {.slots = &slot, .n_slots = 1};
    static const rp_json empty = {.type = RP_JSON_OBJECT};
    rp_arena a = {0};
    const char *events[] = {
        "{\"type\":\"tool_call\",\"data\":{\"name\":\"x\"}}",
        "{\"type\":\"tool_call\",\"verdict\":\"ask\",\"data\":{\"name\":\"x\"}}"};
    for (size_t i = 0; i < 2; i++) {
        warned w = {0};
        rp_eval_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.arena = &a;
        ctx.warn = record;
        ctx.warn_self = &w;
        rp_json_error jerr;
        rp_json *root = rp_json_parse(&a, events[i], strlen(events[i]), &jerr);
        rp_event ev;
        assert_true(rp_event_from_json(root, &ev));
        rp_decision d;
        rp_engine_evaluate(&engine, &ev, &empty, &ctx, &d);
        assert_int_equal(d.result, i == 0 ? RP_DENY : RP_ASK);
        assert_null(strstr(d.reason, g_token));
        assert_non_null(strstr(d.reason, "quoted: 'deploy xox"));
        assert_null(strstr(d.notes, g_token));
        assert_int_equal(w.n, 1);
        assert_null(strstr(w.last, g_token));
        assert_true(strncmp(w.last, "leaky: saw xox", 14) == 0);
        /* The caller's warn is back in place. */
        assert_ptr_equal(ctx.warn, record);
        assert_ptr_equal(ctx.warn_self, &w);

        rp_buf json = {0};
        rp_decision_write_json(&json, &d);
        assert_null(strstr(json.data, g_token));
        rp_buf_free(&json);

        /* Single-policy mode reports the policy's own reason, masked too. */
        rp_engine_evaluate_one(NULL, &slot, &ev, &empty, &ctx, &d);
        assert_null(strstr(d.reason, g_token));
        assert_non_null(strstr(d.reason, "quoted: 'deploy xox"));
    }
    rp_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_secret_type_is_masked),
        cmocka_unit_test(test_the_issue_examples),
        cmocka_unit_test(test_ordinary_reasons_untouched),
        cmocka_unit_test(test_engine_redacts_every_text),
    };
    return cmocka_run_group_tests(tests, setup_cache, teardown_cache);
}
