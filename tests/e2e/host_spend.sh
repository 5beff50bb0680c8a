#!/usr/bin/env bash
# host_spend.sh BINARY SOURCE_DIR — spend that hosts report in their hook payloads, end to end
# through `rampart hook`, in the shapes recorded from the real hosts
# (../shared/hosts-recorded/*.jsonl):
#   - Gemini CLI 0.61: AfterModel fires per streamed chunk; only the final chunk (a
#     finishReason) reports usage, with prompt, candidates and total counts only, and with the
#     same text-only llm_request at every step of a tool loop. Six responses of one loop are six
#     ledger rows with their thinking tokens; one answer streamed in 61 chunks is one audited
#     decision. With the chat recording at transcript_path (where Gemini CLI writes each
#     response's full token counts), the spend comes from there, cached tokens apart, each
#     response once and never also from AfterModel.
#   - opencode 1.18 and Pi 0.73 report `cost: 0` for a provider they cannot price: a model
#     rampart's table prices is priced from it, an unknown one stays at the host's $0, and
#     `rampart spend --by source` says what priced what.
set -u
. "$(dirname "$0")/lib.sh"
e2e_init host_spend "$1" "$2"

OUT=$TMP/out
ERR=$TMP/err
CFG=$TMP/rampart.yaml
export RAMPART_NOW=2026-12-03T09:00:00Z
printf 'user: e2e-user\npolicies:\n  budget:\n    type: function\n    handler: cost_budget\n    factory_params: {max_cost_usd: 100}\n' >"$CFG"

# spend_is DESC STATE_DIR PYTHON_EXPR: `rampart spend --json` (d[0]) satisfies the expression.
spend_is() {
    "$BIN" spend --state-dir "$2" --json >"$TMP/spend.json" 2>"$TMP/spend.err"
    if json_lines "$TMP/spend.json" "$3"; then
        pass "$1"
    else
        fail "$1" "$(cat "$TMP/spend.json" "$TMP/spend.err")"
    fi
}

# ---- Gemini ----
GS=a7dc317a-35b7-4169-9c06-d4744d4f72bb
SD=$TMP/gemini
gemini() { # PAYLOAD
    printf '%s' "$1" | "$BIN" hook gemini -c "$CFG" --state-dir "$SD" >"$OUT" 2>"$ERR"
    RC=$?
}
# chunk TIMESTAMP FINAL: an AfterModel payload as Gemini CLI 0.61 sends it.
chunk() {
    local tail='"candidates":[{"content":{"role":"model","parts":["FINAL ANSWER"]},"index":0}],"usageMetadata":{"promptTokenCount":1000,"totalTokenCount":1000}'
    [ "$2" = final ] && tail='"candidates":[{"content":{"role":"model","parts":[]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":1000,"candidatesTokenCount":50,"totalTokenCount":1070}'
    printf '{"session_id":"%s","transcript_path":"/home/dev/.gemini/tmp/proj/chats/session.jsonl","cwd":"/home/dev/project","hook_event_name":"AfterModel","timestamp":"%s","llm_request":{"model":"gemini-2.5-flash","messages":[{"role":"user","content":"SCENARIO:loop go"}],"config":{"temperature":1}},"llm_response":{"text":"",%s}}' \
        "$GS" "$1" "$tail"
}

# A tool loop of six model responses: the same llm_request each time, six final chunks.
for i in 1 2 3 4 5 6; do
    gemini "$(chunk "2026-12-03T08:57:4$i.784Z" final)"
done
# Each response: input 1000, output 50 + 20 thinking = 70 → $0.0003 + $0.000175.
spend_is "gemini: six responses of one tool loop are six rows, thinking tokens as output" "$SD" \
    "d[0]['total']['records'] == 6 and d[0]['total']['input_tokens'] == 6000 and d[0]['total']['output_tokens'] == 420 and d[0]['total']['cost_nusd'] == 6 * 475000"
# The same final chunk delivered again (the hook installed twice): not counted again.
gemini "$(chunk "2026-12-03T08:57:41.784Z" final)"
spend_is "gemini: a final chunk delivered twice counts once" "$SD" "d[0]['total']['records'] == 6"

# One answer streamed as 60 chunks and a final one: one evaluation, one audit row.
SD=$TMP/gemini-stream
answered=""
for i in $(seq 10 69); do
    gemini "$(chunk "2026-12-03T08:58:$i.000Z" chunk)"
    if [ "$RC" -ne 0 ] || [ -s "$OUT" ] || [ -s "$ERR" ]; then
        answered+="chunk $i: exit $RC, stdout $(cat "$OUT"), stderr $(cat "$ERR")"$'\n'
    fi
done
if [ -z "$answered" ]; then
    pass "gemini: the 60 chunks before the last are answered with nothing, at once"
else
    fail "gemini: want no answer to a chunk before the last" "$(printf '%s' "$answered" | head -3)"
fi
gemini "$(chunk "2026-12-03T08:59:10.000Z" final)"
if [ "$RC" -eq 0 ] && [ "$(cat "$OUT")" = "{}" ]; then
    pass "gemini: the final chunk is answered {}"
else
    fail "gemini: the final chunk: want {}" "exit $RC
stdout: $(cat "$OUT")
stderr: $(cat "$ERR")"
fi
"$BIN" log --state-dir "$SD" --json >"$TMP/log.json" 2>"$TMP/log.err"
if json_lines "$TMP/log.json" "len(d) == 1 and d[0]['event_type'] == 'llm_response'"; then
    pass "gemini: 61 chunks of one answer are one audited decision"
else
    fail "gemini: want one audit row" "$(head -c 2000 "$TMP/log.json"; cat "$TMP/log.err")"
fi
spend_is "gemini: and one ledger row" "$SD" "d[0]['total']['records'] == 1"

# With the chat recording: the spend is read from it, with the cached tokens apart.
SD=$TMP/gemini-recording
REC=$TMP/chats/session-2026-12-03T08-57-a7dc317a.jsonl
mkdir -p "$TMP/chats"
printf '{"sessionId":"%s","projectHash":"h","startTime":"2026-12-03T08:57:40.000Z","kind":"main"}\n{"id":"u1","timestamp":"2026-12-03T08:57:40.100Z","type":"user","content":"go"}\n' "$GS" >"$REC"
# record N: response N's record as Gemini CLI appends it once the stream ended (and again).
record() {
    local line
    line=$(printf '{"id":"resp-%s","timestamp":"2026-12-03T08:57:4%s.700Z","type":"gemini","content":"","thoughts":[],"tokens":{"input":1300,"output":50,"cached":300,"thoughts":20,"tool":0,"total":1370},"model":"gemini-2.5-flash"}' "$1" "$1")
    printf '%s\n{"$set":{"lastUpdated":"2026-12-03T08:57:4%s.710Z"}}\n%s\n' "$line" "$1" "$line" >>"$REC"
}
gemini_rec() { # PAYLOAD with the recording as transcript_path
    printf '%s' "${1//\/home\/dev\/.gemini\/tmp\/proj\/chats\/session.jsonl/$REC}" |
        "$BIN" hook gemini -c "$CFG" --state-dir "$SD" >"$OUT" 2>"$ERR"
    RC=$?
}
for i in 1 2 3; do
    gemini_rec "$(chunk "2026-12-03T08:57:4$i.600Z" final)" # before its record is written
    record "$i"
done
gemini_rec '{"session_id":"'"$GS"'","transcript_path":"/home/dev/.gemini/tmp/proj/chats/session.jsonl","cwd":"/home/dev/project","hook_event_name":"AfterAgent","timestamp":"2026-12-03T08:57:49.000Z","prompt":"go","prompt_response":"done","stop_hook_active":false}'
# Each response: input 1000 at $0.30, cached 300 at $0.03, output 50 + 20 thinking at $2.50 per
# 1M tokens = 300 + 9 + 175 µUSD.
spend_is "gemini: with the chat recording, three responses, cached tokens apart, none twice" "$SD" \
    "d[0]['total']['records'] == 3 and d[0]['total']['input_tokens'] == 3000 and d[0]['total']['cache_read_input_tokens'] == 900 and d[0]['total']['output_tokens'] == 210 and d[0]['total']['cost_nusd'] == 3 * 484000"

# ---- opencode and Pi: cost 0 from the host ----
SD=$TMP/extensions
ext() { # HOST PAYLOAD
    printf '%s' "$2" | "$BIN" hook "$1" -c "$CFG" --state-dir "$SD" >"$OUT" 2>"$ERR"
    RC=$?
}
# As recorded: gpt-4o-mini through a provider opencode has no price for. The table prices it:
# 900 in × $0.15 + 50 out × $0.60 + 100 cache read × $0.075 per 1M = $0.0001725.
ext opencode '{"event":"message_end","session_id":"ses_dc4eb65b2ffeGUV0MmiEAFxKmG","cwd":"/home/dev/project","model":"gpt-4o-mini","message_id":"msg_23b14a979001LD3oB8MBmHz1H2","usage":{"input":900,"output":50,"cacheRead":100,"cacheWrite":0,"cost":{"total":0}}}'
ext pi '{"event":"message_end","session_id":"01a23b18-56ef-775a-b87e-f1b70c64c992","cwd":"/home/dev/project","model":"gpt-4o-mini","message_id":"chatcmpl-20c136348624","usage":{"input":900,"output":50,"cacheRead":100,"cacheWrite":0,"totalTokens":1050,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}}'
# A model nobody prices, cost 0: recorded at the host's $0.
ext pi '{"event":"message_end","session_id":"01a23b18-56ef-775a-b87e-f1b70c64c992","cwd":"/home/dev/project","model":"local-llama-7b","message_id":"chatcmpl-local1","usage":{"input":500,"output":20,"cacheRead":0,"cacheWrite":0,"cost":{"total":0}}}'
# A real cost from the host wins.
ext opencode '{"event":"message_end","session_id":"ses_oc2","cwd":"/home/dev/project","model":"claude-sonnet-4-5","message_id":"msg_oc2","usage":{"input":900,"output":60,"cacheRead":4000,"cacheWrite":0,"cost":{"total":0.0048}}}'
spend_is "opencode/Pi: cost 0 for a priced model is priced from the table" "$SD" \
    "d[0]['total']['records'] == 4 and d[0]['total']['cost_nusd'] == 2 * 172500 + 4800000 and d[0]['total']['unpriced_records'] == 0"
"$BIN" spend --state-dir "$SD" --by source --json >"$TMP/spend.json" 2>"$TMP/spend.err"
if json_lines "$TMP/spend.json" "{r['key']: (r['records'], r['cost_nusd']) for r in d[0]['rows']} == {'table': (2, 345000), 'host': (2, 4800000)} and d[0]['query']['by'] == 'source'"; then
    pass "rampart spend --by source: 2 rows priced by the table, 2 by the host (one at \$0)"
else
    fail "rampart spend --by source" "$(cat "$TMP/spend.json" "$TMP/spend.err")"
fi
"$BIN" spend --state-dir "$SD" --by source >"$OUT" 2>"$ERR"
if grep -q '^table  *2 ' "$OUT" && grep -q '^host  *2 ' "$OUT"; then
    pass "rampart spend --by source: the table says it"
else
    fail "rampart spend --by source: want a table row and a host row" "$(cat "$OUT" "$ERR")"
fi

e2e_finish
