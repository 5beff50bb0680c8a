/* fuzz_hosts.c — libFuzzer target for the host adapters and the transcript readers.
 *
 * The first byte picks an adapter (claude-code, codex, cursor, gemini, pi, opencode); the rest,
 * when it is JSON, is the hook payload. Every parse must leave a phase and a host event name as
 * far as they could be read; on success the PolicyEvent must be an object with a session_id, and
 * every verdict (ALLOW, ASK, DENY, with and without a rewrite, under every setting) must render
 * to an answer whose stdout is empty or one line of JSON. The same bytes then go through the
 * transcript readers (Claude Code's whole and in two parts, Gemini's, Codex's), whose consumed
 * offset must stay in range. Any break aborts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"
#include "hosts/codex_rollout.h"
#include "hosts/host.h"
#include "cost/transcript.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (ok)
        return;
    fprintf(stderr, "fuzz_hosts: %s\n", what);
    abort();
}

static void answers(const rp_hook_adapter *host, const rp_hook_call *call, rp_arena *a)
{
    static const rp_host_settings settings[] = {
        {.host = "x"},
        {.host = "x", .allow_overrides = true, .deny_exit_code = true, .ask_as = "defer"},
    };
    rp_json rewrite = rp_json_make_object();
    rp_json args = rp_json_make_object();
    rp_json_object_set(a, &args, "command", rp_json_make_string_ref("[REDACTED:jwt]"));
    rp_json_object_set(a, &rewrite, "arguments", args);
    rp_json_object_set(a, &rewrite, "user_content", rp_json_make_string_ref("[REDACTED:email]"));
    const rp_verdict verdicts[] = {RP_ALLOW, RP_ASK, RP_DENY};
    for (size_t s = 0; s < 3; s++)
        for (size_t v = 0; v < 3; v++)
            for (int rw = 0; rw < 2; rw++) {
                rp_hook_verdict verdict = {.result = verdicts[v],
                                           .reason = v ? "fuzz reason" : NULL,
                                           .data = rw ? &rewrite : NULL,
                                           .internal_error = rw && v == 2};
                rp_hook_answer ans = {0};
                host->answer(call, &verdict, s < 2 ? &settings[s] : NULL, a, &ans);
                if (ans.out.len > 0) {
                    check(ans.out.data[ans.out.len - 1] == '\n', "stdout is not one line");
                    rp_json_error jerr;
                    check(rp_json_parse(a, ans.out.data, ans.out.len - 1, &jerr) != NULL,
                          "stdout is not JSON");
                }
                rp_buf_free(&ans.out);
                rp_buf_free(&ans.err);
            }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 65536)
        return 0;
    size_t n_hosts;
    const rp_hook_adapter *const *hosts = rp_hook_host_all(&n_hosts);
    const rp_hook_adapter *host = hosts[data[0] % n_hosts];
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    rp_arena arena;
    rp_arena_init(&arena, 8192);

    rp_json_error jerr;
    rp_json *payload = rp_json_parse(&arena, text, len, &jerr);
    if (payload != NULL) {
        rp_hook_env env = {.config_user = (data[0] & 8) ? "cfg-user" : NULL,
                           .os_user = "fuzz",
                           .home = "/home/fuzz",
                           .process_cwd = "/tmp"};
        rp_hook_call call;
        char err[512] = "";
        int rc = host->parse(payload, &env, &arena, &call, err, sizeof err);
        check(call.phase <= RP_HOOK_IGNORED, "phase out of range");
        if (rc != 0) {
            check(err[0] != '\0', "a failed parse without a message");
            answers(host, &call, &arena);
        } else if (call.phase != RP_HOOK_IGNORED) {
            check(rp_json_is_object(&call.event), "the event is not an object");
            check(call.session_id != NULL, "no session id");
            answers(host, &call, &arena);
        }
    }

    rp_cost_transcript_chunk whole, first;
    rp_cost_transcript_parse(&arena, text, len, (data[0] & 16) != 0, NULL, &whole);
    check(whole.consumed <= len, "transcript consumed past the end");
    size_t cut = len ? data[0] % (len + 1) : 0;
    rp_cost_transcript_parse(&arena, text, cut, false, NULL, &first);
    check(first.consumed <= cut, "transcript consumed past the cut");
    rp_cost_transcript_chunk gem;
    rp_cost_transcript_parse_gemini(&arena, text, len, &gem);
    check(gem.consumed <= len, "chat recording consumed past the end");
    check(gem.n_messages <= gem.lines, "more responses than lines");
    rp_cost_transcript_chunk codex;
    rp_hook_codex_rollout_parse(&arena, text, len, (data[0] & 32) ? "gpt-5" : NULL, &codex);
    check(codex.consumed <= len, "rollout consumed past the end");
    check(codex.n_messages <= codex.lines, "more rollout responses than lines");
    rp_arena_free(&arena);
    return 0;
}
