#!/usr/bin/env bash
# hook_codex_rollout.sh BINARY SOURCE_DIR — Codex spend from the session's rollout file, end to
# end: `rampart hook codex` is played a real Codex 0.171 session (tests/data/hosts/codex/rollout/
# session.jsonl: four responses against the real-host suite's fake OpenAI server, three shell
# calls then an answer) while the rollout its payloads name grows exactly as it had when Codex
# ran each hook (the line counts a logging hook saw: UserPromptSubmit 7, PreToolUse 11, 16, 21,
# PostToolUse 12, 17, 22, Stop 28). Each response is charged once, at gpt-5's shipped price, with
# what the fake server reported: input 1000+n uncached, 300+n cached, output 25+2n (reasoning
# included): $0.0015375, $0.001558875, $0.00158025, $0.001601625.
#
# Codex 0.171 writes a response's token_usage_record before its tool runs: a $0.004 budget,
# crossed by the third response, denies the tool call that response asked for. A rollout of the
# older format (token_count only, written after the tool ran) charges a response at the next
# event: a $0.003 budget, crossed by the second response, denies the first tool call after it.
# Repeated token_count events, info null, damaged and half-written lines change nothing. A
# sub-agent's events (agent_id, its own rollout as transcript_path) charge its child session as
# its rollout grows, and its SubagentStop (agent_transcript_path) charges nothing twice.
set -u
. "$(dirname "$0")/lib.sh"
e2e_init hook_codex_rollout "$1" "$2"

FIXTURE=$ROOT/tests/data/hosts/codex/rollout/session.jsonl
SD=$TMP/state
OUT=$TMP/out
ERR=$TMP/err
mkdir -p "$TMP/project" "$TMP/home/.codex/sessions/2026/12/03" "$SD"
export RAMPART_NOW=2026-12-03T13:10:00Z
export USER=e2e-user

# config MAX_USD: a config whose only policy is a session cost budget.
config() {
    cat >"$TMP/rampart.yaml" <<EOF
user: e2e-user
policies:
  budget:
    type: function
    handler: cost_budget
    factory_params: {max_cost_usd: $1}
EOF
}

# hook JSON: one `rampart hook codex` call; sets RC, stdout in $OUT, stderr in $ERR.
hook() {
    printf '%s' "$1" | "$BIN" hook codex -c "$TMP/rampart.yaml" --state-dir "$SD" >"$OUT" 2>"$ERR"
    RC=$?
}

common() {
    printf '"session_id":"%s","turn_id":"01a23bfd-7f3c-7d10-9a49-5c0e1f2b3a4d","transcript_path":"%s","cwd":"%s/project","model":"gpt-5","permission_mode":"bypassPermissions"' \
        "$SESSION" "$ROLLOUT" "$TMP"
}

prompt() {
    hook "{$(common),\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"Follow the script.\"}"
}

pre_tool() { # COMMAND CALL_ID
    hook "{$(common),\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"$1\"},\"tool_use_id\":\"$2\"}"
}

post_tool() { # COMMAND CALL_ID
    hook "{$(common),\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"$1\"},\"tool_response\":\"ok\\n\",\"tool_use_id\":\"$2\"}"
}

stop() {
    hook "{$(common),\"hook_event_name\":\"Stop\",\"stop_hook_active\":false,\"last_assistant_message\":\"done\"}"
}

# denied DESC: the last PreToolUse was denied by the session budget, in Codex's form. (The
# reason's amounts are rounded to cents: at these prices they read $0.00.)
denied() {
    if [ "$RC" -eq 0 ] && json_lines "$OUT" "len(d) == 1 and d[0]['hookSpecificOutput']['hookEventName'] == 'PreToolUse' and d[0]['hookSpecificOutput']['permissionDecision'] == 'deny' and d[0]['hookSpecificOutput']['permissionDecisionReason'].startswith('Blocked by the session cost-budget policy: spend ')"; then
        pass "$1: denied by the budget"
    else
        fail "$1: want exit 0 and a deny by the session cost budget" "exit $RC
stdout: $(cat "$OUT")
stderr: $(cat "$ERR")"
    fi
}

# spent DESC RECORDS NUSD [INPUT OUTPUT CACHE_READ]: the session's exact ledger totals.
spent() {
    "$BIN" spend --state-dir "$SD" --session "$SESSION" --json >"$TMP/spend.json" 2>"$TMP/spend.err"
    local tokens=True
    [ $# -ge 6 ] && tokens="t['input_tokens'] == $4 and t['output_tokens'] == $5 and t['cache_read_input_tokens'] == $6 and t['cache_creation_input_tokens'] == 0"
    if json_lines "$TMP/spend.json" \
        "[t := d[0]['total']] and t['records'] == $2 and t['cost_nusd'] == $3 and t['unpriced_records'] == 0 and $tokens"; then
        pass "$1: spend is $3 nUSD in $2 records"
    else
        fail "$1: want $3 nUSD in $2 records${4:+ ($4 in, $5 out, $6 cache read)}" "$(cat "$TMP/spend.json" "$TMP/spend.err")"
    fi
}

# ---- Codex 0.171: token_usage_record and token_count for every response ----
SESSION=01a23bfd-7f1d-7e72-9ee1-6d01d9fa071b
ROLLOUT=$TMP/home/.codex/sessions/2026/12/03/rollout-2026-12-03T12-59-58-$SESSION.jsonl
grow() { head -n "$1" "$FIXTURE" >"$ROLLOUT"; }
config 0.004

grow 7 && prompt
hook_allowed "prompt, nothing spent yet"
spent "before the first response" 0 0
grow 11 && pre_tool "echo one" call_lab1_0
hook_allowed "first tool call at \$0.0015"
spent "the first response, by its token_usage_record" 1 1537500 1000 25 300
grow 12 && post_tool "echo one" call_lab1_0
hook_allowed "first tool result"
grow 16 && pre_tool "ls /nonexistent-x" call_lab1_1
hook_allowed "second tool call at \$0.0031"
spent "two responses, the first's token_count not charged again" 2 3096375
grow 17 && post_tool "ls /nonexistent-x" call_lab1_1
grow 21 && pre_tool "echo three" call_lab1_2
denied "third tool call, asked for by the response that crossed \$0.004"
spent "three responses" 3 4676625
grow 22 && post_tool "echo three" call_lab1_2
grow 28 && stop
hook_allowed "stop (never blocked)"
spent "the whole session: what the fake server reported" 4 6278250 4006 112 1206

# A token_count again with the same totals (Codex sends one when only the rate limits change),
# one with info null, a damaged line, then half of a fifth response's token_count.
TC5='{"timestamp":"2026-12-03T13:00:05.000Z","ordinal":30,"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":6520,"cached_input_tokens":1510,"cache_write_input_tokens":0,"output_tokens":145,"reasoning_output_tokens":35,"total_tokens":6665},"last_token_usage":{"input_tokens":1308,"cached_input_tokens":304,"cache_write_input_tokens":0,"output_tokens":33,"reasoning_output_tokens":9,"total_tokens":1341},"last_usage_includes_reasoning":false,"model_context_window":258400},"rate_limits":null}}'
{
    cat "$FIXTURE"
    sed -n 28p "$FIXTURE"
    echo '{"timestamp":"2026-12-03T13:00:04.000Z","type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":{}}}'
    echo '{"timestamp":"2026-12-03T13:00:04.500Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token'
    printf '%s' "${TC5:0:200}"
} >"$ROLLOUT"
stop
hook_allowed "stop with repeated, empty, damaged and half-written token_counts"
spent "nothing charged twice, the half-written line not yet" 4 6278250
printf '%s\n' "${TC5:200}" >>"$ROLLOUT"
stop
# 1004 uncached, 304 cached, 33 out: $0.001623 more.
spent "the fifth response once its line is whole" 5 7901250 5010 145 1510
"$BIN" spend --state-dir "$SD" --session "$SESSION" >"$OUT" 2>"$ERR"
if grep -q '^total  *5 .* \$0\.01$' "$OUT"; then
    pass "rampart spend shows the session's total"
else
    fail "rampart spend: want a total line of 5 records and \$0.01" "$(cat "$OUT" "$ERR")"
fi

# ---- the older format: token_count only, written after the response's tools ran ----
SESSION=01a23bfd-0000-7000-8000-000000000002
ROLLOUT=$TMP/home/.codex/sessions/2026/12/03/rollout-2026-12-03T13-00-00-$SESSION.jsonl
grow() { head -n "$1" "$FIXTURE" | grep -v '"type":"token_usage_record"' >"$ROLLOUT"; }
config 0.003

grow 7 && prompt
grow 11 && pre_tool "echo one" call_lab1_0
hook_allowed "older format: first tool call, its response not charged yet"
spent "older format: nothing written yet" 0 0
grow 16 && pre_tool "ls /nonexistent-x" call_lab1_1
hook_allowed "older format: second tool call at \$0.0015"
spent "older format: the first response" 1 1537500
grow 21 && pre_tool "echo three" call_lab1_2
denied "older format: the first tool call after the response that crossed \$0.003"
grow 28 && stop
spent "older format: the whole session" 4 6278250 4006 112 1206

# ---- a sub-agent (multi_agent spawn_agent): its events carry agent_id and name its own rollout ----
# Codex names the sub-agent's own rollout as transcript_path in the sub-agent's events, and the
# main one at its SubagentStop, beside agent_transcript_path. Its responses are charged to the
# child session as they are written, so a budget trips inside the sub-agent.
MAIN=01a23c07-d4f4-75f1-bba4-aa540ef59470
AGENT=01a23c07-d6b6-7772-a29d-647640b32d71
SESSION=$MAIN/agent/$AGENT
ROLLOUT=$TMP/home/.codex/sessions/2026/12/03/rollout-2026-12-03T13-11-16-$AGENT.jsonl
MAIN_ROLLOUT=$TMP/home/.codex/sessions/2026/12/03/rollout-2026-12-03T13-11-15-$MAIN.jsonl
: >"$MAIN_ROLLOUT"
grow() { head -n "$1" "$FIXTURE" >"$ROLLOUT"; }
config 0.004
sub() { # EVENT FIELDS: one event of the sub-agent
    hook "{\"session_id\":\"$MAIN\",\"agent_id\":\"$AGENT\",\"agent_type\":\"default\",\"transcript_path\":\"$ROLLOUT\",\"cwd\":\"$TMP/project\",\"model\":\"gpt-5\",\"permission_mode\":\"bypassPermissions\",\"hook_event_name\":\"$1\",$2}"
}
grow 11 && sub PreToolUse '"tool_name":"Bash","tool_input":{"command":"echo one"},"tool_use_id":"call_lab1_0"'
hook_allowed "sub-agent: first tool call"
spent "sub-agent: its first response, in the child session" 1 1537500 1000 25 300
grow 16 && sub PreToolUse '"tool_name":"Bash","tool_input":{"command":"ls /nonexistent-x"},"tool_use_id":"call_lab1_1"'
hook_allowed "sub-agent: second tool call"
grow 21 && sub PreToolUse '"tool_name":"Bash","tool_input":{"command":"echo three"},"tool_use_id":"call_lab1_2"'
denied "sub-agent: the tool call of the response that crossed \$0.004"
grow 29
hook "{\"session_id\":\"$MAIN\",\"agent_id\":\"$AGENT\",\"agent_type\":\"default\",\"transcript_path\":\"$MAIN_ROLLOUT\",\"agent_transcript_path\":\"$ROLLOUT\",\"cwd\":\"$TMP/project\",\"model\":\"gpt-5\",\"permission_mode\":\"bypassPermissions\",\"hook_event_name\":\"SubagentStop\",\"stop_hook_active\":false}"
hook_allowed "SubagentStop"
spent "SubagentStop: the sub-agent's whole rollout, nothing twice" 4 6278250 4006 112 1206
SESSION=$MAIN
spent "the main session with its sub-agent" 4 6278250

e2e_finish
