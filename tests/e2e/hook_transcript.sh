#!/usr/bin/env bash
# hook_transcript.sh BINARY SOURCE_DIR — Claude Code spend from the session transcript, end to
# end: `rampart hook claude-code` is played a realistic session turn by turn
# (UserPromptSubmit, PreToolUse, PostToolUse, Stop) while the transcript its payloads name grows
# as Claude Code would write it (tests/data/hosts/claude-code/transcript/session.jsonl, line by
# line). A cost_budget of $0.11 sits between the spend after turn 2 ($0.103773) and after
# turn 3 ($0.127239; the figures are worked out in tests/unit/test_hook_spend.c): every call is
# allowed until turn 3's Stop has recorded its spend, and the next prompt and tool call are
# denied with the policy's exact reason. `rampart spend` shows the exact totals.
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

# allowed DESC: the last call let the agent go on: exit 0, nothing on stdout or stderr.
allowed() {
    if [ "$RC" -eq 0 ] && [ ! -s "$OUT" ] && [ ! -s "$ERR" ]; then
        pass "$1: allowed"
    else
        fail "$1: want allowed (exit 0, no output); exit $RC" "stdout: $(cat "$OUT")
stderr: $(cat "$ERR")"
    fi
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
allowed "turn 1 prompt"
grow 6 && pre_tool Grep "$GREP" toolu_01Grep0000000000000001
allowed "turn 1 Grep"
grow 7 && post_tool Grep "$GREP" toolu_01Grep0000000000000001
allowed "turn 1 Grep done"
spent "turn 1, A still streaming as far as the hook knows" 0 0
grow 9 && pre_tool Read "$READ" toolu_01Read0000000000000002
allowed "turn 1 Read"
grow 10 && post_tool Read "$READ" toolu_01Read0000000000000002
spent "turn 1 after Read" 1 20649000
grow 11 && stop
allowed "turn 1 stop"
spent "turn 1 over" 3 52701000
stop # a repeated Stop reads nothing new
spent "turn 1, Stop again" 3 52701000

# ---- turn 2: D (Edit), E (Task), F and G (the haiku sub-agent), H = $0.103773 in all ----
grow 12 && prompt "Fix it, then run the test 50 times."
allowed "turn 2 prompt"
grow 14 && pre_tool Edit "$EDIT" toolu_01Edit0000000000000003
allowed "turn 2 Edit"
grow 15 && post_tool Edit "$EDIT" toolu_01Edit0000000000000003
grow 17 && pre_tool Task "$TASK" toolu_01Task0000000000000004
allowed "turn 2 Task"
grow 23 && post_tool Task "$TASK" toolu_01Task0000000000000004
allowed "turn 2 Task done"
spent "turn 2 after the sub-agent, G still streaming as far as the hook knows" 6 86357000
grow 24 && stop
spent "turn 2 over" 8 103773000

# ---- turn 3: under the limit until its spend is recorded ----
grow 25 && prompt "Now run the whole suite."
allowed "turn 3 prompt at \$0.103773"
grow 27 && pre_tool Bash "$PYTEST" toolu_01Bash0000000000000006
allowed "turn 3 pytest at \$0.103773"
grow 28 && post_tool Bash "$PYTEST" toolu_01Bash0000000000000006
spent "turn 3, I still streaming as far as the hook knows" 8 103773000
grow 30 && stop
allowed "turn 3 stop (a Stop is never blocked)"
spent "turn 3 over" 10 127239000

# ---- turn 4: the budget trips ----
TOOL_REASON='Blocked by the session cost-budget policy: spend $0.13 reached the $0.11 limit, and all further tool calls are blocked. Relay this to the user verbatim, then stop and wait for them — do not silently re-run the tool right now: "You'"'"'ve hit the $0.11 cost budget. All model calls are blocked over budget."'
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
allowed "final stop"
spent "session over: K counted, the synthetic and the half-written line not" 11 137613000
"$BIN" spend --state-dir "$SD" >"$OUT" 2>"$ERR"
if grep -q '^total  *11 .* \$0\.14$' "$OUT"; then
    pass "rampart spend shows the total"
else
    fail "rampart spend: want a total line of 11 records and \$0.14" "$(cat "$OUT" "$ERR")"
fi

e2e_finish
