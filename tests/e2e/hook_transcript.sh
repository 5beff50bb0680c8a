#!/usr/bin/env bash
# hook_transcript.sh BINARY SOURCE_DIR — Claude Code spend from the session transcript, end to
# end: `rampart hook claude-code` is played a realistic session turn by turn
# (UserPromptSubmit, PreToolUse, PostToolUse, Stop) while the transcript its payloads name grows
# as Claude Code would write it (tests/data/hosts/claude-code/transcript/session.jsonl, line by
# line). Every event reads the new lines, and a message is recorded as soon as it is proven
# complete (its stop_reason, a later prompt, the tool call it asked for, the end of the turn).
# A cost_budget of $0.11 sits between the spend after turn 2 ($0.103773) and after turn 3's
# first message I ($0.115767; the figures are worked out in tests/unit/test_hosts_hook_spend.c): the
# tool call I asked for, the first after the crossing, is denied with the policy's exact
# reason, and so are the next prompt and tool call. `rampart spend` shows the exact totals.
#
# Then a session written the way Claude Code 2.1 writes it, at its worst: no stop_reason on most
# lines, lines flushed in batches (a message's tool_use line written only while its PreToolUse
# runs, the last message of a turn after the Stop hook ran or while SessionEnd runs), a
# sub-agent in its own transcript (which does not exist yet at its first PreToolUse) whose last
# message comes after its SubagentStop. Every message must reach the ledger exactly once, and
# the budget must deny the first PreToolUse after the message that crossed it.
set -u
. "$(dirname "$0")/lib.sh"
e2e_init hook_transcript "$1" "$2"

FIXTURE=$ROOT/tests/data/hosts/claude-code/transcript/session.jsonl
SESSION=7f3c2a10-5b1e-4c8e-9d2a-0e4b6f8a1c33
T=$TMP/project/transcript.jsonl
SD=$TMP/state
CFG=$TMP/rampart.yaml
OUT=$TMP/out
ERR=$TMP/err
mkdir -p "$TMP/project" "$SD"
export RAMPART_NOW=2026-11-30T10:10:00Z
export USER=e2e-user
cat >"$CFG" <<'EOF'
user: e2e-user
policies:
  budget:
    type: function
    handler: cost_budget
    factory_params: {max_cost_usd: 0.11}
EOF

# grow N: the transcript now holds the fixture's first N lines (Claude Code appends; rewriting
# the same prefix keeps every earlier byte where it was).
grow() {
    head -n "$1" "$FIXTURE" >"$T"
}

# hook JSON: one hook call; sets RC, stdout in $OUT, stderr in $ERR.
hook() {
    printf '%s' "$1" | "$BIN" hook claude-code -c "$CFG" --state-dir "$SD" >"$OUT" 2>"$ERR"
    RC=$?
}

common() {
    printf '"session_id":"%s","transcript_path":"%s","cwd":"%s/project","permission_mode":"default"' \
        "$SESSION" "$T" "$TMP"
}

prompt() {
    hook "{$(common),\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"$1\"}"
}

pre_tool() { # NAME INPUT_JSON TOOL_USE_ID
    hook "{$(common),\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"$1\",\"tool_input\":$2,\"tool_use_id\":\"$3\"}"
}

post_tool() { # NAME INPUT_JSON TOOL_USE_ID
    hook "{$(common),\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"$1\",\"tool_input\":$2,\"tool_response\":{\"stdout\":\"ok\"},\"tool_use_id\":\"$3\"}"
}

stop() {
    hook "{$(common),\"hook_event_name\":\"Stop\",\"stop_hook_active\":false,\"last_assistant_message\":\"done\"}"
}

# spent DESC RECORDS NUSD: the ledger's exact total.
spent() {
    "$BIN" spend --state-dir "$SD" --json >"$TMP/spend.json" 2>"$TMP/spend.err"
    if json_lines "$TMP/spend.json" \
        "d[0]['total']['records'] == $2 and d[0]['total']['cost_nusd'] == $3 and d[0]['total']['unpriced_records'] == 0"; then
        pass "$1: spend is $3 nUSD in $2 records"
    else
        fail "$1: want $3 nUSD in $2 records" "$(cat "$TMP/spend.json" "$TMP/spend.err")"
    fi
}

GREP='{"pattern":"def test_parse_date","path":"tests"}'
READ='{"file_path":"'$TMP'/project/tests/test_dates.py"}'
EDIT='{"file_path":"'$TMP'/project/tests/test_dates.py","old_string":"a","new_string":"b"}'
TASK='{"description":"Run test 50 times","prompt":"Run the test 50 times.","subagent_type":"general-purpose"}'
PYTEST='{"command":"pytest -q","description":"Run the test suite"}'
COMMIT='{"command":"git commit -am fix","description":"Commit the fix"}'

# ---- turn 1: A (Grep), B (Read), C (answer) = $0.052701 ----
grow 3 && prompt "test_parse_date fails about once a week in CI. Find out why."
hook_allowed "turn 1 prompt"
grow 6 && pre_tool Grep "$GREP" toolu_01Grep0000000000000001
hook_allowed "turn 1 Grep"
grow 7 && post_tool Grep "$GREP" toolu_01Grep0000000000000001
hook_allowed "turn 1 Grep done"
spent "turn 1, A has its stop_reason" 1 20649000
grow 8 && pre_tool Read "$READ" toolu_01Read0000000000000002
spent "turn 1, B's text line only: it may still be streaming" 1 20649000
grow 9 && pre_tool Read "$READ" toolu_01Read0000000000000002
hook_allowed "turn 1 Read"
spent "turn 1, B with the Read it asked for" 2 33669000
grow 10 && post_tool Read "$READ" toolu_01Read0000000000000002
grow 11 && stop
hook_allowed "turn 1 stop"
spent "turn 1 over" 3 52701000
stop # a repeated Stop reads nothing new
spent "turn 1, Stop again" 3 52701000

# ---- turn 2: D (Edit), E (Task), F and G (the haiku sub-agent), H = $0.103773 in all ----
grow 12 && prompt "Fix it, then run the test 50 times."
hook_allowed "turn 2 prompt"
grow 14 && pre_tool Edit "$EDIT" toolu_01Edit0000000000000003
hook_allowed "turn 2 Edit"
grow 15 && post_tool Edit "$EDIT" toolu_01Edit0000000000000003
grow 17 && pre_tool Task "$TASK" toolu_01Task0000000000000004
hook_allowed "turn 2 Task"
grow 23 && post_tool Task "$TASK" toolu_01Task0000000000000004
hook_allowed "turn 2 Task done"
spent "turn 2 after the sub-agent, G has its stop_reason" 7 90438000
grow 24 && stop
spent "turn 2 over" 8 103773000

# ---- turn 3: message I crosses $0.11, and the tool call it asked for is denied ----
grow 25 && prompt "Now run the whole suite."
hook_allowed "turn 3 prompt at \$0.103773"
TOOL_REASON_I='Blocked by the session cost-budget policy: spend $0.12 reached the $0.11 limit, and all further tool calls are blocked. Relay this to the user verbatim, then stop and wait for them — do not silently re-run the tool right now: "You'"'"'ve hit the $0.11 cost budget. All model calls are blocked over budget."'
grow 27 && pre_tool Bash "$PYTEST" toolu_01Bash0000000000000006
WANT=$(REASON=$TOOL_REASON_I python3 -c 'import json, os; print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": os.environ["REASON"]}}))')
if [ "$RC" -eq 0 ] && WANT=$WANT json_lines "$OUT" "len(d) == 1 and d[0] == json.loads(__import__('os').environ['WANT'])"; then
    pass "turn 3 pytest, the first tool call after I crossed \$0.11, denied"
else
    fail "turn 3 pytest: want exit 0 and $WANT" "exit $RC
stdout: $(cat "$OUT")
stderr: $(cat "$ERR")"
fi
spent "turn 3, I recorded at its tool call" 9 115767000
grow 30 && stop
hook_allowed "turn 3 stop (a Stop is never blocked)"
spent "turn 3 over" 10 127239000

# ---- turn 4: still over ($0.127239 at the prompt) ----
# The commit's PreToolUse records K, which asked for it: $0.137613.
TOOL_REASON='Blocked by the session cost-budget policy: spend $0.14 reached the $0.11 limit, and all further tool calls are blocked. Relay this to the user verbatim, then stop and wait for them — do not silently re-run the tool right now: "You'"'"'ve hit the $0.11 cost budget. All model calls are blocked over budget."'
PROMPT_REASON='Blocked by the session cost-budget policy: spend $0.13 reached the $0.11 limit. You'"'"'ve hit the $0.11 cost budget. All model calls are blocked over budget.'

grow 31 && prompt "Commit it."
if [ "$RC" -eq 0 ] &&
    REASON=$PROMPT_REASON json_lines "$OUT" "len(d) == 1 and d[0]['decision'] == 'block' and __import__('os').environ['REASON'] in d[0]['reason']"; then
    pass "turn 4 prompt blocked by the budget"
else
    fail "turn 4 prompt: want a block naming the budget (exit 0)" "exit $RC
stdout: $(cat "$OUT")
stderr: $(cat "$ERR")"
fi

grow 33 && pre_tool Bash "$COMMIT" toolu_01Bash0000000000000007
WANT=$(REASON=$TOOL_REASON python3 -c 'import json, os; print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": os.environ["REASON"]}}))')
if [ "$RC" -eq 0 ] && [ "$(wc -l <"$OUT")" -le 1 ] &&
    WANT=$WANT json_lines "$OUT" "len(d) == 1 and d[0] == json.loads(__import__('os').environ['WANT'])"; then
    pass "turn 4 git commit denied with the exact answer"
else
    fail "turn 4 git commit: want exit 0 and $WANT" "exit $RC
stdout: $(cat "$OUT")
stderr: $(cat "$ERR")"
fi

# The rest of the session (the synthetic message, the half-written last line) at the last Stop.
cp "$FIXTURE" "$T"
stop
hook_allowed "final stop"
spent "session over: K counted, the synthetic and the half-written line not" 11 137613000
"$BIN" spend --state-dir "$SD" >"$OUT" 2>"$ERR"
if grep -q '^total  *11 .* \$0\.14$' "$OUT"; then
    pass "rampart spend shows the total"
else
    fail "rampart spend: want a total line of 11 records and \$0.14" "$(cat "$OUT" "$ERR")"
fi

# ---- a session written the way Claude Code 2.1 writes it ----
# No line has a stop_reason; each message is one text line and, when it calls a tool, a
# tool_use line written just before the PreToolUse. Every message costs in 1000, out 100:
# sonnet $0.0045, haiku $0.0015. The budget is $0.02: M4 crosses it (to $0.021).
S2=0c0c0c0c-2222-4c8e-9d2a-000000000002
PROJ=$TMP/home/.claude/projects/-work
T2=$PROJ/$S2.jsonl
AGENT=ab12cd34
A2=$PROJ/$S2/subagents/agent-$AGENT.jsonl
SD2=$TMP/state-live
CFG2=$TMP/live.yaml
mkdir -p "$PROJ/$S2/subagents" "$SD2"
: >"$T2"
printf 'user: e2e-user\npolicies:\n  budget:\n    type: function\n    handler: cost_budget\n    factory_params: {max_cost_usd: 0.02}\n' >"$CFG2"
SONNET=claude-sonnet-4-5-20250929
HAIKU=claude-haiku-4-5-20251001

# say FILE MSG_ID MODEL TEXT: the text line of a message (as written before the response ends).
say() {
    printf '{"type":"assistant","timestamp":"2026-11-30T10:00:00Z","requestId":"req_%s","message":{"id":"%s","type":"message","role":"assistant","model":"%s","content":[{"type":"text","text":"%s"}],"stop_reason":null,"usage":{"input_tokens":1000,"output_tokens":100}}}\n' \
        "$2" "$2" "$3" "$4" >>"$1"
}
# call FILE MSG_ID MODEL TOOL_USE_ID TOOL: the tool_use line of the same message.
call() {
    printf '{"type":"assistant","timestamp":"2026-11-30T10:00:01Z","requestId":"req_%s","message":{"id":"%s","type":"message","role":"assistant","model":"%s","content":[{"type":"tool_use","id":"%s","name":"%s","input":{}}],"stop_reason":null,"usage":{"input_tokens":1000,"output_tokens":100}}}\n' \
        "$2" "$2" "$3" "$4" "$5" >>"$1"
}
result() { # FILE TOOL_USE_ID
    printf '{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"%s","content":"ok"}]}}\n' "$2" >>"$1"
}
user_says() { # FILE TEXT
    printf '{"type":"user","message":{"role":"user","content":"%s"}}\n' "$2" >>"$1"
}
hook2() {
    printf '%s' "$1" | "$BIN" hook claude-code -c "$CFG2" --state-dir "$SD2" >"$OUT" 2>"$ERR"
    RC=$?
}
common2() {
    printf '"session_id":"%s","transcript_path":"%s","cwd":"%s/project","permission_mode":"default"' \
        "$S2" "$T2" "$TMP"
}
INPUT2='{"command":"ls","description":"d","prompt":"p","subagent_type":"general-purpose"}'
pre2() { # TOOL TOOL_USE_ID [AGENT_ID]
    hook2 "{$(common2)${3:+,\"agent_id\":\"$3\",\"agent_type\":\"general-purpose\"},\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"$1\",\"tool_input\":$INPUT2,\"tool_use_id\":\"$2\"}"
}
post2() { # TOOL TOOL_USE_ID AGENT_ID TOOL_RESPONSE
    hook2 "{$(common2)${3:+,\"agent_id\":\"$3\",\"agent_type\":\"general-purpose\"},\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"$1\",\"tool_input\":$INPUT2,\"tool_response\":$4,\"tool_use_id\":\"$2\"}"
}
spent2() { # DESC RECORDS NUSD
    "$BIN" spend --state-dir "$SD2" --json >"$TMP/spend.json" 2>"$TMP/spend.err"
    if json_lines "$TMP/spend.json" \
        "d[0]['total']['records'] == $2 and d[0]['total']['cost_nusd'] == $3"; then
        pass "live: $1: $2 records, $3 nUSD"
    else
        fail "live: $1: want $3 nUSD in $2 records" "$(cat "$TMP/spend.json" "$TMP/spend.err")"
    fi
}
OK_RESPONSE='{"stdout":"ok"}'

# Turn 1: M1 calls Bash; M2, the answer, is written only after the Stop hook ran.
user_says "$T2" "list the files"
hook2 "{$(common2),\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"list the files\"}"
say "$T2" m1 $SONNET "Listing." && call "$T2" m1 $SONNET toolu_L1 Bash
pre2 Bash toolu_L1
hook_allowed "live: M1's Bash"
spent2 "M1 recorded at the PreToolUse of the tool it asked for" 1 4500000
result "$T2" toolu_L1 && post2 Bash toolu_L1 "" "$OK_RESPONSE"
hook2 "{$(common2),\"hook_event_name\":\"Stop\",\"stop_hook_active\":false}"
hook_allowed "live: turn 1 Stop"
say "$T2" m2 $SONNET "Done."
spent2 "turn 1 over, M2 not written yet when the Stop ran" 1 4500000

# Turn 2: the prompt reads M2 (the previous answer is complete). M3 starts a sub-agent.
user_says "$T2" "now delegate"
hook2 "{$(common2),\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"now delegate\"}"
hook_allowed "live: turn 2 prompt"
spent2 "M2 recorded at the next prompt" 2 9000000
say "$T2" m3 $SONNET "Delegating." && call "$T2" m3 $SONNET toolu_L3 Agent
pre2 Agent toolu_L3
hook_allowed "live: M3's Agent"
spent2 "M3 recorded at its Agent call" 3 13500000
# The sub-agent's own transcript; its hooks name only the main one (and agent_id). Claude Code
# writes a transcript every 100 ms: the file appears only while the first PreToolUse runs.
(sleep 0.05 && user_says "$A2" "p" && say "$A2" s1 $HAIKU "Running." &&
    call "$A2" s1 $HAIKU toolu_S1 Bash) &
pre2 Bash toolu_S1 $AGENT
wait
hook_allowed "live: the sub-agent's Bash"
spent2 "S1 recorded at the sub-agent's PreToolUse, from its own transcript" 4 15000000
result "$A2" toolu_S1 && post2 Bash toolu_S1 $AGENT "$OK_RESPONSE"
hook2 "{$(common2),\"agent_id\":\"$AGENT\",\"agent_type\":\"general-purpose\",\"agent_transcript_path\":\"$A2\",\"hook_event_name\":\"SubagentStop\",\"stop_hook_active\":false}"
hook_allowed "live: SubagentStop"
say "$A2" s2 $HAIKU "Sub-agent done."
spent2 "S2 not written yet when the SubagentStop ran" 4 15000000
result "$T2" toolu_L3
post2 Agent toolu_L3 "" "{\"status\":\"completed\",\"agentId\":\"$AGENT\",\"content\":[{\"type\":\"text\",\"text\":\"Sub-agent done.\"}],\"usage\":{\"input_tokens\":1000,\"output_tokens\":100},\"totalTokens\":1100}"
hook_allowed "live: Agent done"
spent2 "S2 recorded at the Agent's PostToolUse, from the remembered sub-agent transcript" 5 16500000
# M4 crosses $0.02: the tool it asks for is the first call after the crossing, and is denied,
# though M4's lines are written only while its PreToolUse runs.
(sleep 0.05 && say "$T2" m4 $SONNET "One more." && call "$T2" m4 $SONNET toolu_L4 Bash) &
pre2 Bash toolu_L4
wait
if [ "$RC" -eq 0 ] && json_lines "$OUT" "len(d) == 1 and d[0]['hookSpecificOutput']['permissionDecision'] == 'deny' and 'spend \$0.02 reached the \$0.02 limit' in d[0]['hookSpecificOutput']['permissionDecisionReason']"; then
    pass "live: the first tool call after M4 crossed \$0.02 is denied"
else
    fail "live: M4's Bash: want a budget deny" "exit $RC
stdout: $(cat "$OUT")
stderr: $(cat "$ERR")"
fi
spent2 "M4 recorded" 6 21000000
result "$T2" toolu_L4
hook2 "{$(common2),\"hook_event_name\":\"Stop\",\"stop_hook_active\":false}"
# M5, the last answer (it ends the turn: stop_reason end_turn), is written while SessionEnd runs.
(sleep 0.05 && printf '{"type":"assistant","timestamp":"2026-11-30T10:00:09Z","message":{"id":"m5","model":"%s","content":[{"type":"text","text":"Over budget, stopping."}],"stop_reason":"end_turn","usage":{"input_tokens":1000,"output_tokens":100}}}\n' $SONNET >>"$T2") &
hook2 "{$(common2),\"hook_event_name\":\"SessionEnd\",\"reason\":\"other\"}"
wait
hook_allowed "live: SessionEnd"
spent2 "session over: every message exactly once (M5, written while SessionEnd ran, read by it)" 7 25500000
# Events again change nothing: each message is in the ledger once.
hook2 "{$(common2),\"hook_event_name\":\"SessionEnd\",\"reason\":\"other\"}"
post2 Agent toolu_L3 "" "{\"status\":\"completed\",\"agentId\":\"$AGENT\"}"
spent2 "events repeated: no double count" 7 25500000
"$BIN" spend --state-dir "$SD2" --by session --json >"$TMP/spend.json" 2>"$TMP/spend.err"
if json_lines "$TMP/spend.json" "{r['key']: r['records'] for r in d[0]['rows']} == {'$S2': 5, '$S2/agent/$AGENT': 2}"; then
    pass "live: the sub-agent's two messages are charged to its own session"
else
    fail "live: want 5 rows for the session and 2 for its sub-agent" "$(cat "$TMP/spend.json" "$TMP/spend.err")"
fi

# ---- expensive_models: the model comes from the transcript ----
# Claude Code's hook payloads name no model. Over a $0.000001 cap with expensive_models [opus],
# a haiku session goes on, an opus one is denied, and one with no transcript is denied as
# before (fail closed: nothing knows the model).
CFG3=$TMP/models.yaml
SD3=$TMP/state-models
mkdir -p "$SD3"
printf 'user: e2e-user\npolicies:\n  budget:\n    type: function\n    handler: cost_budget\n    factory_params: {max_cost_usd: 0.000001, expensive_models: [opus]}\n' >"$CFG3"
# model_session SESSION MODEL: a turn whose one message (complete: a stop_reason) is read at the
# Stop, putting the session over the cap, then a PreToolUse; RC, OUT, ERR as hook.
model_session() {
    local t=$TMP/models-$1.jsonl
    user_says "$t" "go"
    printf '{"type":"assistant","timestamp":"2026-11-30T10:00:01Z","message":{"id":"msg-%s","model":"%s","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","usage":{"input_tokens":1000,"output_tokens":100}}}\n' "$1" "$2" >>"$t"
    printf '{"session_id":"%s","transcript_path":"%s","cwd":"%s/project","hook_event_name":"Stop","stop_hook_active":false}' \
        "$1" "$t" "$TMP" | "$BIN" hook claude-code -c "$CFG3" --state-dir "$SD3" >"$OUT" 2>"$ERR"
    printf '{"session_id":"%s","transcript_path":"%s","cwd":"%s/project","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","description":"d"},"tool_use_id":"toolu_%s"}' \
        "$1" "$t" "$TMP" "$1" | "$BIN" hook claude-code -c "$CFG3" --state-dir "$SD3" >"$OUT" 2>"$ERR"
    RC=$?
}
denied_over_cap() { # DESC
    if [ "$RC" -eq 0 ] && json_lines "$OUT" "len(d) == 1 and d[0]['hookSpecificOutput']['permissionDecision'] == 'deny' and 'cost-budget' in d[0]['hookSpecificOutput']['permissionDecisionReason']"; then
        pass "$1: denied"
    else
        fail "$1: want a budget deny" "exit $RC
stdout: $(cat "$OUT")
stderr: $(cat "$ERR")"
    fi
}
model_session haiku-1 claude-haiku-4-5-20251001
hook_allowed "expensive_models: a haiku session over the cap"
model_session opus-1 claude-opus-4-5-20251101
denied_over_cap "expensive_models: an opus session over the cap"
# Spend recorded another way, and no transcript: nothing knows the model.
printf '{"session_id":"nomodel-1","model":"claude-sonnet-4-5","input_tokens":1000,"output_tokens":100}\n' |
    "$BIN" usage record --state-dir "$SD3" -q
printf '{"session_id":"nomodel-1","cwd":"%s/project","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","description":"d"},"tool_use_id":"toolu_n"}' \
    "$TMP" | "$BIN" hook claude-code -c "$CFG3" --state-dir "$SD3" >"$OUT" 2>"$ERR"
RC=$?
denied_over_cap "expensive_models: no transcript, the model unknown (fail closed)"
# The model is remembered: a later call that reads nothing new still knows it.
printf '{"session_id":"haiku-1","transcript_path":"%s","cwd":"%s/project","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","description":"d"},"tool_use_id":"toolu_again"}' \
    "$TMP/models-haiku-1.jsonl" "$TMP" | "$BIN" hook claude-code -c "$CFG3" --state-dir "$SD3" >"$OUT" 2>"$ERR"
RC=$?
hook_allowed "expensive_models: the haiku session again, nothing new in its transcript"

# The wait for an unflushed tool_use line takes only a share of the deadline: with a small
# hosts.claude-code.deadline_ms the answer is still the decision's (here an allow), never the
# deadline's deny, although the line never comes. (A cost policy, so that the PreToolUse waits.)
cat >"$TMP/short.yaml" <<'EOF'
hosts:
  claude-code: {deadline_ms: 300}
policies:
  budget: {handler: cost_budget, factory_params: {max_cost_usd: 100}}
EOF
printf '{"type":"user","message":{"role":"user","content":"hi"}}\n' >"$TMP/short.jsonl"
printf '{"session_id":"short-1","transcript_path":"%s","cwd":"%s/project","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","description":"d"},"tool_use_id":"toolu_never"}' \
    "$TMP/short.jsonl" "$TMP" | "$BIN" hook claude-code -c "$TMP/short.yaml" --state-dir "$TMP/short-state" >"$OUT" 2>"$ERR"
RC=$?
if [ "$RC" -eq 0 ] && ! grep -q "could not decide" "$OUT" "$ERR" && ! grep -q '"deny"' "$OUT"; then
    pass "deadline_ms 300: the transcript wait leaves the answer to the decision"
else
    fail "deadline_ms 300: the transcript wait leaves the answer to the decision" "exit $RC
stdout: $(cat "$OUT")
stderr: $(cat "$ERR")"
fi

e2e_finish
