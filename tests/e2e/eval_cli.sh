#!/usr/bin/env bash
# eval_cli.sh BINARY SOURCE_DIR — end-to-end tests of the `rampart` command line: eval's line
# protocol and exit statuses, config and params errors, stateless vs stateful evaluation,
# --on-ask, validate, policies, log, trust and help.
set -u
. "$(dirname "$0")/lib.sh"
e2e_init eval_cli "$1" "$2"

OUT=$TMP/out
ERR=$TMP/err

# tool_call SESSION TOOL ARGUMENTS_JSON [EXTRA_TOP_LEVEL_JSON_MEMBERS]
tool_call() {
    printf '{"type":"tool_call","session_id":"%s","target":"%s","data":{"name":"%s","arguments":%s}%s}\n' \
        "$1" "$2" "$2" "$3" "${4:+,$4}"
}

cat >"$TMP/cap2.yaml" <<'EOF'
policies:
  cap:
    type: function
    handler: max_tool_calls_per_session
    factory_params:
      limit: 2
EOF
cat >"$TMP/loop.yaml" <<'EOF'
policies:
  loop:
    type: function
    handler: omnigent.policies.builtins.safety.detect_loop
    factory_params: {window: 10, threshold: 3}
EOF

# ---- the line protocol: malformed lines answered in place, the rest still evaluated ----
{
    tool_call s1 Read '{"file_path":"/a"}'
    echo '{"type": "tool_call", "data": '
    echo
    echo '[1, 2, 3]'
    tool_call s1 Read '{"file_path":"/b"}'
} >"$TMP/mixed.jsonl"
run_rampart "$OUT" "$ERR" eval -c "$TMP/cap2.yaml" --stateless "$TMP/mixed.jsonl"
expect_rc "malformed lines make eval exit 1" 1
check "one output line per non-blank input line, in order, errors in place" \
    json_lines "$OUT" 'len(d) == 4 and d[0]["result"] == "ALLOW" and
        list(d[1]) == ["error"] and d[1]["error"].startswith("line 2: ") and
        list(d[2]) == ["error"] and d[2]["error"].startswith("line 4: ") and
        d[3]["result"] == "ALLOW"'
check "decisions carry result, reason, policies and state_updates" \
    json_lines "$OUT" 'all(k in d[0] for k in ("result", "reason", "policies", "state_updates"))'

printf '%s' "$(tool_call s1 Read '{}')" | "$BIN" eval -c "$TMP/cap2.yaml" --stateless >"$OUT" 2>"$ERR"
RC=$?
expect_rc "a last line without a newline is still evaluated" 0
check "... and answered" json_lines "$OUT" 'len(d) == 1 and d[0]["result"] == "ALLOW"'

echo '{"type":"frobnicate","session_id":"s1","data":{"x":1}}' >"$TMP/unknown.jsonl"
run_rampart "$OUT" "$ERR" eval -c "$TMP/cap2.yaml" --stateless "$TMP/unknown.jsonl"
expect_rc "an unknown event type is evaluated, not rejected" 0
check "... and allowed" json_lines "$OUT" 'len(d) == 1 and d[0]["result"] == "ALLOW"'

: >"$TMP/empty.jsonl"
run_rampart "$OUT" "$ERR" eval -c "$TMP/cap2.yaml" --stateless "$TMP/empty.jsonl"
expect_rc "an empty input is fine" 0
check "... and prints nothing" test ! -s "$OUT"

run_rampart "$OUT" "$ERR" eval -c "$TMP/cap2.yaml" --stateless "$TMP/does-not-exist.jsonl"
expect_rc "a missing events file" 2

# ---- config and params errors: exit 2 before any event is read ----
cat >"$TMP/bad.yaml" <<'EOF'
policies:
  cap:
    type: function
    handler: max_tool_calls_per_session
    factory_params:
      limt: 5
  loop:
    type: function
    handler: detect_loop
    factory_params:
      window: 0
EOF
tool_call s1 Read '{}' >"$TMP/one.jsonl"
run_rampart "$OUT" "$ERR" eval -c "$TMP/bad.yaml" --stateless "$TMP/one.jsonl"
expect_rc "a config error" 2 "$ERR"
check "the error names file:line:col" grep -Eq 'bad\.yaml:6:[0-9]+' "$ERR"
check "every error is printed (the second one too)" grep -Eq 'bad\.yaml:11:[0-9]+' "$ERR"
check "no event was evaluated" test ! -s "$OUT"

run_rampart "$OUT" "$ERR" eval -c "$TMP/nope.yaml" --stateless "$TMP/one.jsonl"
expect_rc "a config file that does not exist" 2

for params in '{"window": 0}' '{"windw": 3}' '{"window": "ten"}' '{"window": 1.5}' 'not json' '[1]'; do
    run_rampart "$OUT" "$ERR" eval --policy detect_loop --params "$params" --stateless "$TMP/one.jsonl"
    expect_rc "--params '$params' fails validation" 2
done
run_rampart "$OUT" "$ERR" eval --policy detect_thrashing --params '{"action": "INVALID"}' --stateless "$TMP/one.jsonl"
expect_rc "an enum value outside the enum" 2
run_rampart "$OUT" "$ERR" eval --policy no_such_policy --stateless "$TMP/one.jsonl"
expect_rc "an unknown policy" 2
run_rampart "$OUT" "$ERR" eval --policy ask_on_os_tools --params '{"x": 1}' --stateless "$TMP/one.jsonl"
expect_rc "a direct callable takes no params" 2
run_rampart "$OUT" "$ERR" eval --policy block_skills --stateless "$TMP/one.jsonl"
expect_rc "a missing required parameter" 2

# ---- single-policy mode ----
tool_call s1 Bash '{"command":"ls -la"}' >"$TMP/bash.jsonl"
run_rampart "$OUT" "$ERR" eval --policy ask_on_os_tools --stateless "$TMP/bash.jsonl"
expect_rc "--policy with a direct callable" 0
check "... asks with the reference's reason" \
    json_lines "$OUT" 'd[0]["result"] == "ASK" and d[0]["reason"] == "Agent wants to call Bash('"'ls -la'"'). Approve?"'
echo '{"type":"request","data":{"user_content":"hi"}}' >"$TMP/request.jsonl"
run_rampart "$OUT" "$ERR" eval --policy risk_score_policy --params '{}' --stateless "$TMP/request.jsonl"
check "--policy may answer ABSTAIN" json_lines "$OUT" 'd[0]["result"] == "ABSTAIN"'

# ---- the clock ----
RAMPART_NOW=yesterday run_rampart "$OUT" "$ERR" eval -c "$TMP/cap2.yaml" --stateless "$TMP/one.jsonl"
expect_rc "a malformed RAMPART_NOW" 2
check "... is named in the message" grep -q RAMPART_NOW "$ERR"
RAMPART_NOW=2026-03-15T12:00:00Z run_rampart "$OUT" "$ERR" eval -c "$TMP/cap2.yaml" --stateless "$TMP/one.jsonl"
expect_rc "a well-formed RAMPART_NOW" 0

# ---- stateless vs stateful ----
{
    tool_call s1 Read '{}'
    tool_call s1 Read '{}'
} >"$TMP/two.jsonl"
STATE=$TMP/state-a
run_rampart "$OUT" "$ERR" eval -c "$TMP/cap2.yaml" --state-dir "$STATE" "$TMP/two.jsonl"
check "stateful: the first two calls are allowed" \
    json_lines "$OUT" '[x["result"] for x in d] == ["ALLOW", "ALLOW"]'
run_rampart "$OUT" "$ERR" eval -c "$TMP/cap2.yaml" --state-dir "$STATE" "$TMP/one.jsonl"
check "stateful: the count persists across processes (third call denied)" \
    json_lines "$OUT" 'd[0]["result"] == "DENY" and d[0]["reason"] == "Exceeded 2 tool calls this session"'
tool_call s2 Read '{}' >"$TMP/other.jsonl"
run_rampart "$OUT" "$ERR" eval -c "$TMP/cap2.yaml" --state-dir "$STATE" "$TMP/other.jsonl"
check "stateful: another session_id has its own count" json_lines "$OUT" 'd[0]["result"] == "ALLOW"'
printf '{"type":"tool_call","data":{"name":"Read","arguments":{}}}\n' >"$TMP/nosid.jsonl"
run_rampart "$OUT" "$ERR" eval -c "$TMP/cap2.yaml" --state-dir "$STATE" "$TMP/nosid.jsonl"
check "stateful: no session_id means the session \"default\"" json_lines "$OUT" 'd[0]["result"] == "ALLOW"'

tool_call s9 Read '{}' '"session_state":{"_policy_tool_call_count":100}' >"$TMP/carried.jsonl"
run_rampart "$OUT" "$ERR" eval -c "$TMP/cap2.yaml" --stateless "$TMP/carried.jsonl"
check "stateless: the event's own session_state is the snapshot" json_lines "$OUT" 'd[0]["result"] == "DENY"'
run_rampart "$OUT" "$ERR" eval -c "$TMP/cap2.yaml" --state-dir "$TMP/state-b" "$TMP/carried.jsonl"
check "stateful: the event's session_state is ignored, the store wins" json_lines "$OUT" 'd[0]["result"] == "ALLOW"'
run_rampart "$OUT" "$ERR" eval -c "$TMP/cap2.yaml" --stateless "$TMP/two.jsonl"
run_rampart "$OUT" "$ERR" eval -c "$TMP/cap2.yaml" --stateless "$TMP/two.jsonl"
check "stateless: nothing persists between runs" \
    json_lines "$OUT" '[x["result"] for x in d] == ["ALLOW", "ALLOW"]'
check "stateless: no state directory was created" test ! -e "$XDG_STATE_HOME/rampart/state.db"

# ---- --on-ask: detect_loop's window advances only when the ASK is approved ----
# No tool_result follows the calls, so nothing else approves the ASKs.
for i in 1 2 3 4; do tool_call s1 Bash '{"command":"make test"}' '"context":{"tool_use_id":"toolu_'$i'"}'; done \
    >"$TMP/loop.jsonl"
run_rampart "$OUT" "$ERR" eval -c "$TMP/loop.yaml" --state-dir "$TMP/ask-report" "$TMP/loop.jsonl"
check "--on-ask report: ASK at the third identical call, and the window does not advance" \
    json_lines "$OUT" '[x["result"] for x in d] == ["ALLOW", "ALLOW", "ASK", "ASK"] and
        "3 times" in d[2]["reason"] and "3 times" in d[3]["reason"]'
run_rampart "$OUT" "$ERR" eval -c "$TMP/loop.yaml" --state-dir "$TMP/ask-approve" --on-ask approve "$TMP/loop.jsonl"
check "--on-ask approve: the approved ASK advances the window (count 4 next)" \
    json_lines "$OUT" '[x["result"] for x in d] == ["ALLOW", "ALLOW", "ASK", "ASK"] and
        "3 times" in d[2]["reason"] and "4 times" in d[3]["reason"]'
run_rampart "$OUT" "$ERR" eval -c "$TMP/loop.yaml" --state-dir "$TMP/ask-decline" --on-ask decline "$TMP/loop.jsonl"
check "--on-ask decline: like report, the window stays" \
    json_lines "$OUT" '"3 times" in d[3]["reason"]'
run_rampart "$OUT" "$ERR" eval -c "$TMP/loop.yaml" --on-ask maybe "$TMP/loop.jsonl"
expect_rc "--on-ask with an unknown mode" 2

# ---- the audit log ----
RAMPART_NOW=2026-03-15T12:00:00Z run_rampart "$OUT" "$ERR" \
    eval -c "$TMP/cap2.yaml" --state-dir "$TMP/audit" "$TMP/mixed.jsonl"
RAMPART_NOW=2026-03-15T12:00:00Z run_rampart "$OUT" "$ERR" \
    eval -c "$TMP/cap2.yaml" --state-dir "$TMP/audit" "$TMP/other.jsonl"
run_rampart "$OUT" "$ERR" log --state-dir "$TMP/audit" --json
expect_rc "log --json" 0
check "log --json: one parseable row per decision, oldest first" \
    json_lines "$OUT" 'len(d) == 3 and [x["session_id"] for x in d] == ["s1", "s1", "s2"] and
        all(x["result"] == "ALLOW" and x["event_type"] == "tool_call" for x in d) and
        d[0]["time"].startswith("2026-03-15T12:00:00")'
run_rampart "$OUT" "$ERR" log --state-dir "$TMP/audit" --json --session s2
check "log --session filters" json_lines "$OUT" 'len(d) == 1 and d[0]["session_id"] == "s2"'
RAMPART_NOW=2026-03-15T12:30:00Z run_rampart "$OUT" "$ERR" log --state-dir "$TMP/audit" --json --since 10m
check "log --since 10m leaves out older rows" json_lines "$OUT" 'len(d) == 0'
RAMPART_NOW=2026-03-15T12:30:00Z run_rampart "$OUT" "$ERR" log --state-dir "$TMP/audit" --json --since 2h
check "log --since 2h keeps them" json_lines "$OUT" 'len(d) == 3'
run_rampart "$OUT" "$ERR" log --state-dir "$TMP/audit" --json --since 2026-03-15T11:00:00Z
check "log --since takes RFC 3339" json_lines "$OUT" 'len(d) == 3'
run_rampart "$OUT" "$ERR" log --state-dir "$TMP/audit"
check "log (text): one line per row" test "$(wc -l <"$OUT")" -eq 3
check "log (text): the line shows session, event type, target and result" \
    grep -Eq 's2 +tool_call +Read +ALLOW' "$OUT"
run_rampart "$OUT" "$ERR" log --state-dir "$TMP/audit" --since yesterday
expect_rc "log --since with garbage" 2

# Retention: rows older than audit.retention_days go when a later eval runs.
cat >"$TMP/retain.yaml" <<'EOF'
policies:
  cap: {handler: max_tool_calls_per_session, factory_params: {limit: 100}}
audit: {retention_days: 30}
EOF
RAMPART_NOW=2026-04-20T12:00:00Z run_rampart "$OUT" "$ERR" \
    eval -c "$TMP/retain.yaml" --state-dir "$TMP/audit" "$TMP/other.jsonl"
run_rampart "$OUT" "$ERR" log --state-dir "$TMP/audit" --json
check "audit.retention_days: rows older than 30 days are pruned, the new one kept" \
    json_lines "$OUT" 'len(d) == 1 and d[0]["time"].startswith("2026-04-20")'

# ---- an approved ASK is re-evaluated on the current state, not replayed ----
cat >"$TMP/approve.yaml" <<'EOF'
policies:
  os: {handler: ask_on_os_tools}
  loop: {handler: detect_loop, factory_params: {window: 10, threshold: 3}}
EOF
{
    tool_call ap Bash '{"command":"make"}' '"context":{"tool_use_id":"t1"}'
    tool_call ap x '{}' '"context":{"tool_use_id":"t2"}'
    tool_call ap x '{}' '"context":{"tool_use_id":"t3"}'
    echo '{"type":"tool_result","session_id":"ap","target":"Bash","data":{"result":"ok"},"request_data":{"name":"Bash","arguments":{"command":"make"}},"context":{"tool_use_id":"t1"}}'
    tool_call ap x '{}' '"context":{"tool_use_id":"t4"}'
} >"$TMP/approve.jsonl"
run_rampart "$OUT" "$ERR" eval -c "$TMP/approve.yaml" --state-dir "$TMP/approve" "$TMP/approve.jsonl"
check "approval (a tool_result for an asked call) keeps the loop window built since the ASK" \
    json_lines "$OUT" '[x["result"] for x in d] == ["ASK", "ALLOW", "ALLOW", "ALLOW", "ASK"]
        and "3 times" in d[4]["reason"]'
echo '{"type":"tool_call","session_id":["a"],"data":{"name":"x"}}' >"$TMP/badsid.jsonl"
run_rampart "$OUT" "$ERR" eval -c "$TMP/approve.yaml" --state-dir "$TMP/approve" "$TMP/badsid.jsonl"
expect_rc "a non-string session_id is a bad event, not the default session" 1
check "... answered in place" json_lines "$OUT" 'list(d[0]) == ["error"] and "session_id" in d[0]["error"]'

# ---- a store that cannot be opened: every event still gets a fail-closed answer ----
mkdir -p "$TMP/brokenstore/state.db"
{ tool_call s9 Read '{}'; echo 'not json'; tool_call s9 Bash '{"command":"ls"}'; } >"$TMP/three.jsonl"
run_rampart "$OUT" "$ERR" eval -c "$TMP/cap2.yaml" --state-dir "$TMP/brokenstore" "$TMP/three.jsonl"
expect_rc "an unopenable store makes eval exit 1" 1
check "... but each event is answered with on_error (DENY), malformed lines as errors" \
    json_lines "$OUT" 'len(d) == 3 and d[0]["result"] == "DENY" and "state store" in d[0]["reason"]
        and list(d[1]) == ["error"] and d[2]["result"] == "DENY"'
printf 'policies:\n  cap: {handler: max_tool_calls_per_session}\non_error: ask\n' >"$TMP/onerr-ask.yaml"
run_rampart "$OUT" "$ERR" eval -c "$TMP/onerr-ask.yaml" --state-dir "$TMP/brokenstore" "$TMP/three.jsonl"
check "... with on_error: ask the answer is ASK" \
    json_lines "$OUT" 'd[0]["result"] == "ASK" and d[2]["result"] == "ASK"'

# ---- log is a read command: it creates no state ----
run_rampart "$OUT" "$ERR" log --state-dir "$TMP/never-evaluated"
expect_rc "log on a directory with no state" 0
check "... creates no database there" test ! -e "$TMP/never-evaluated/state.db"

# ---- validate ----
run_rampart "$OUT" "$ERR" validate "$ROOT/examples/rampart.yaml"
expect_rc "validate examples/rampart.yaml" 0
check "... prints one summary line" grep -Eq '^.*examples/rampart\.yaml: OK \([0-9]+ policies\)$' "$OUT"
run_rampart "$OUT" "$ERR" validate "$ROOT/examples/report-only.yaml" "$TMP/cap2.yaml"
expect_rc "validate two good files" 0
check "... one summary line each" test "$(grep -c ': OK (' "$OUT")" -eq 2
run_rampart "$OUT" "$ERR" validate "$TMP/cap2.yaml" "$TMP/bad.yaml"
expect_rc "validate with one bad file" 1 "$ERR"
check "... prints every error with file:line:col" \
    sh -c "grep -Eq 'bad\.yaml:6:[0-9]+' '$ERR' && grep -Eq 'bad\.yaml:11:[0-9]+' '$ERR'"
printf 'policies: [unclosed\n' >"$TMP/broken.yaml"
run_rampart "$OUT" "$ERR" validate "$TMP/broken.yaml"
expect_rc "validate a YAML syntax error" 1
run_rampart "$OUT" "$ERR" validate
expect_rc "validate without a file" 2

# ---- policies ----
run_rampart "$OUT" "$ERR" policies --json
expect_rc "policies --json" 0
check "policies --json is one JSON array listing the nine builtins of this issue" python3 -c '
import json, sys
listing = json.load(open(sys.argv[1]))
names = {p["name"] for p in listing}
nine = {"max_tool_calls_per_session", "detect_loop", "detect_thrashing", "ask_on_os_tools",
        "block_skills", "spawn_bounds", "headless_subagent_purpose_guard", "read_only_os",
        "risk_score_policy"}
loop = next(p for p in listing if p["name"] == "detect_loop")
window = next(q for q in loop["params"] if q["name"] == "window")
sys.exit(0 if nine <= names and loop["handler"] == "omnigent.policies.builtins.safety.detect_loop"
         and window["default"] == 10 and window["minimum"] == 1 and window["kind"] == "integer"
         else 1)' "$OUT"
run_rampart "$OUT" "$ERR" policies
check "policies (text) lists handlers and parameters" \
    sh -c "grep -q 'omnigent.policies.builtins.safety.max_tool_calls_per_session' '$OUT' && grep -q 'limit' '$OUT'"
run_rampart "$OUT" "$ERR" policies --yaml
expect_rc "policies with an unknown flag" 2

# ---- trust: a project's .rampart.yaml is read only once trusted ----
PROJECT=$TMP/project
mkdir -p "$PROJECT"
cat >"$PROJECT/.rampart.yaml" <<'EOF'
policies:
  nothing_allowed:
    type: function
    handler: max_tool_calls_per_session
    factory_params: {limit: 0}
EOF
TSTATE=$TMP/trust-state
(cd "$PROJECT" && "$BIN" eval --state-dir "$TSTATE" "$TMP/one.jsonl" >"$OUT" 2>"$ERR")
check "an untrusted project file is ignored" json_lines "$OUT" 'd[0]["result"] == "ALLOW"'
check "... with a warning" test -s "$ERR"
run_rampart "$TMP/trust.out" "$ERR" trust --state-dir "$TSTATE" "$PROJECT"
expect_rc "rampart trust DIR" 0
(cd "$PROJECT" && "$BIN" eval --state-dir "$TSTATE" "$TMP/one.jsonl" >"$OUT" 2>"$ERR")
check "a trusted project file is read" json_lines "$OUT" 'd[0]["result"] == "DENY"'
run_rampart "$TMP/trust.out" "$ERR" trust --state-dir "$TSTATE" --remove "$PROJECT"
expect_rc "rampart trust --remove DIR" 0
(cd "$PROJECT" && "$BIN" eval --state-dir "$TSTATE" "$TMP/one.jsonl" >"$OUT" 2>"$ERR")
check "after --remove it is ignored again" json_lines "$OUT" 'd[0]["result"] == "ALLOW"'
run_rampart "$OUT" "$ERR" trust --state-dir "$TSTATE" "$TMP/not-a-dir"
expect_rc "trusting a directory that does not exist" 1

# ---- the user level of the stack, and -c replacing the whole stack ----
mkdir -p "$XDG_CONFIG_HOME/rampart" "$TMP/plain-dir"
cp "$PROJECT/.rampart.yaml" "$XDG_CONFIG_HOME/rampart/config.yaml"
(cd "$TMP/plain-dir" && "$BIN" eval --stateless "$TMP/one.jsonl" >"$OUT" 2>"$ERR")
check "without -c the user config is read" json_lines "$OUT" 'd[0]["result"] == "DENY"'
(cd "$TMP/plain-dir" && "$BIN" eval -c "$TMP/cap2.yaml" --stateless "$TMP/one.jsonl" >"$OUT" 2>"$ERR")
check "-c replaces the stack (the user config is not read)" json_lines "$OUT" 'd[0]["result"] == "ALLOW"'
printf 'policies:\n  x:\n    type: function\n    handler: nope\n' >"$XDG_CONFIG_HOME/rampart/config.yaml"
(cd "$TMP/plain-dir" && "$BIN" eval --stateless "$TMP/one.jsonl" >"$OUT" 2>"$ERR")
RC=$?
expect_rc "an error in the user config" 2
check "... names the user config file" grep -q "rampart/config.yaml" "$ERR"
rm -f "$XDG_CONFIG_HOME/rampart/config.yaml"

mkdir -p "$TMP/empty-project"
(cd "$TMP/empty-project" && "$BIN" eval --stateless "$TMP/one.jsonl" >"$OUT" 2>"$ERR")
check "no configuration at all: everything is allowed" json_lines "$OUT" 'd[0]["result"] == "ALLOW"'
check "... with a warning on stderr" grep -q 'every event is allowed' "$ERR"

# ---- hostile input (issue 16, 13-14): every good line answered, every bad one an error line,
# no crash; identifiers longer than 512 bytes refused by every command that reads one ----
cat >"$TMP/cd.yaml" <<'EOF'
policies:
  cd:
    type: function
    handler: omnigent.policies.builtins.working_dir.block_working_dir_changes
EOF
python3 - "$TMP/hostile.jsonl" <<'PY'
import json, sys
def call(cmd, sid="h1"):
    return json.dumps({"type": "tool_call", "session_id": sid, "target": "Bash",
                       "data": {"name": "Bash", "arguments": {"command": cmd}}})
lines = [
    call("ls"),
    "not json",                                                   # 2: error
    call("cd /elsewhere"),
    "[1, 2]",                                                     # 4: error
    call("ls"),
    '{"type": 5, "session_id": [1], "data": "x", "context": 7}',  # 6: error
    call("ls"),
    call("ls", sid="s" * 1000000),                                # 8: error
    call("ls"),
    call("ls\u0000x", sid="a\u0000b"),                            # 10: answered
    "[" * 100000,                                                 # 11: error
    call("echo " + "${" * 60000),                                 # 12: answered (unreadable)
    call("echo " + "$[" * 30000),                                 # 13: answered (unreadable)
    call("cd /elsewhere"),
]
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
run_rampart "$OUT" "$ERR" eval -c "$TMP/cd.yaml" "$TMP/hostile.jsonl"
expect_rc "a batch with hostile lines" 1
check "... every good line answered, every bad one an error line" json_lines "$OUT" '
len(d) == 14
and [i + 1 for i, x in enumerate(d) if "error" in x] == [2, 4, 6, 8, 11]
and [d[i - 1]["result"] for i in (1, 3, 5, 7, 9, 10, 14)] ==
    ["ALLOW", "DENY", "ALLOW", "ALLOW", "ALLOW", "ALLOW", "DENY"]
and d[11]["result"] in ("ALLOW", "ABSTAIN") and d[12]["result"] in ("ALLOW", "ABSTAIN")
and "session_id is 1000000 bytes long; identifiers are limited to 512 bytes" in d[7]["error"]'

python3 -c 'import json; print(json.dumps({"session_id": "s" * 1000000, "cwd": "/tmp",
    "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}))' \
    >"$TMP/hook-1m.json"
T0=$(date +%s%N)
"$BIN" hook claude-code <"$TMP/hook-1m.json" >"$OUT" 2>"$ERR"
RC=$?
T1=$(date +%s%N)
expect_rc "hook with a 1 MB session_id" 0
check "... is denied, naming session_id and the limit" json_lines "$OUT" '
d[0]["hookSpecificOutput"]["permissionDecision"] == "deny"
and "session_id is 1000000 bytes long; identifiers are limited to 512 bytes"
    in d[0]["hookSpecificOutput"]["permissionDecisionReason"]'
check "... answered within a second" test $(((T1 - T0) / 1000000)) -lt 1000

python3 -c 'import json; print(json.dumps({"session_id": "u1", "model": "m" * 100000,
    "input_tokens": 1}))' >"$TMP/usage-big.jsonl"
run_rampart "$OUT" "$ERR" usage record "$TMP/usage-big.jsonl"
expect_rc "usage record with a 100 KB model" 1
check "... names the field and the limit" \
    grep -q 'model is 100000 bytes long; identifiers are limited to 512 bytes' "$ERR"
run_rampart "$OUT" "$ERR" approve "$(head -c 100000 /dev/zero | tr '\0' s)" some-key
expect_rc "approve with a 100 KB session id" 2
check "... names the argument and the limit" \
    grep -q 'SESSION is 100000 bytes long; identifiers are limited to 512 bytes' "$ERR"

# ---- help and usage errors ----
run_rampart "$OUT" "$ERR"
expect_rc "no command" 2
run_rampart "$OUT" "$ERR" frobnicate
expect_rc "an unknown command" 2
check "... prints the usage on stderr" grep -q 'usage: rampart' "$ERR"
run_rampart "$OUT" "$ERR" eval --frobnicate
expect_rc "an unknown eval flag" 2
check "... prints eval's usage on stderr" grep -q 'usage: rampart eval' "$ERR"
run_rampart "$OUT" "$ERR" eval --params '{}' --stateless "$TMP/one.jsonl"
expect_rc "--params without --policy" 2
run_rampart "$OUT" "$ERR" eval -c
expect_rc "-c without a file" 2
run_rampart "$OUT" "$ERR" eval a.jsonl b.jsonl
expect_rc "two events files" 2
run_rampart "$OUT" "$ERR" --help
expect_rc "--help" 0
check "--help lists every command" \
    sh -c "for c in eval validate policies log trust; do grep -q \"  \$c \" '$OUT' || exit 1; done"
run_rampart "$OUT" "$ERR" help eval
check "help eval prints eval's usage" grep -q 'usage: rampart eval' "$OUT"
run_rampart "$OUT" "$ERR" log --help
check "log --help prints log's usage" grep -q 'usage: rampart log' "$OUT"
run_rampart "$OUT" "$ERR" help nothing
expect_rc "help for an unknown command" 2
run_rampart "$OUT" "$ERR" --version
check "--version" grep -Eq '^rampart [0-9]+\.[0-9]+\.[0-9]+' "$OUT"

# A coprocess: one event in, its decision out before the next event is sent. Decisions are
# buffered while more input is waiting (one write per buffer in a batch), never while the
# caller waits for one.
cat >"$TMP/coproc.py" <<'PY'
import json, select, subprocess, sys
binary, config = sys.argv[1], sys.argv[2]
p = subprocess.Popen([binary, "eval", "-c", config, "--stateless"], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
ev = {"type": "tool_call", "session_id": "c", "target": "Read",
      "data": {"name": "Read", "arguments": {}}}
for i in range(3):
    p.stdin.write((json.dumps(ev) + "\n").encode())
    p.stdin.flush()
    ready, _, _ = select.select([p.stdout], [], [], 10)
    if not ready:
        print("no answer to event %d within 10 s" % (i + 1))
        p.kill()
        sys.exit(1)
    answer = json.loads(p.stdout.readline())
    if answer.get("result") not in ("ALLOW", "ASK", "DENY"):
        print("event %d: %r" % (i + 1, answer))
        sys.exit(1)
p.stdin.close()
sys.exit(0 if p.wait(10) == 0 else 1)
PY
check "eval as a coprocess: each decision comes before the next event is sent" \
    python3 "$TMP/coproc.py" "$BIN" "$TMP/cap2.yaml"
python3 - "$TMP/many.jsonl" <<'PY'
import json, sys
with open(sys.argv[1], "w") as f:
    for i in range(2000):
        f.write(json.dumps({"type": "tool_call", "session_id": "m%d" % i, "target": "Read",
                            "data": {"name": "Read", "arguments": {}}}) + "\n")
PY
run_rampart "$OUT" "$ERR" eval -c "$TMP/cap2.yaml" --stateless "$TMP/many.jsonl"
check "a 2,000-event batch from a file: 2,000 decisions, in order" \
    json_lines "$OUT" "len(d) == 2000 and all(x['result'] == 'ALLOW' for x in d)"

# Python's number rules have one home (core/pynum.h): a value read beyond int64 saturates, and
# an int sum that leaves int64 fails the policy (the engine's error path). Before, an increment
# of INT64_MAX failed but one of 2^64 - 1 was a float addition, and a risk score of
# INT64_MAX + 1 went on as the float 9.223372036854776e+18.
cat >"$TMP/risk.yaml" <<'EOF'
policies:
  risk:
    type: function
    handler: risk_score_policy
    factory_params:
      threshold: 50
      guarded_tools: [Bash]
      initial_scores_by_actor: {u: 9223372036854775807}
      tool_points: {Grep: 1}
EOF
{
    tool_call r1 Grep '{}' '"session_state":{"risk_score":9223372036854775807}'
    tool_call r2 Grep '{}' '"session_state":{"risk_score":18446744073709551615}'
    tool_call r3 Bash '{}' '"context":{"actor":{"run_as":"u"}},"session_state":{"risk_score":1}'
    tool_call r4 Bash '{}' '"session_state":{"risk_score":18446744073709551615}'
} >"$TMP/big.jsonl"
run_rampart "$OUT" "$ERR" eval -c "$TMP/risk.yaml" --stateless "$TMP/big.jsonl"
check "int64: an increment past INT64_MAX fails the policy, from INT64_MAX or from above it" \
    json_lines "$OUT" 'all(x["result"] == "DENY" and "overflows a 64-bit integer" in x["reason"] for x in d[:2])'
check "int64: a risk score past INT64_MAX fails the policy" \
    json_lines "$OUT" 'd[2]["result"] == "DENY" and "risk score is beyond a 64-bit integer" in d[2]["reason"]'
check "int64: a stored score above INT64_MAX reads as INT64_MAX" \
    json_lines "$OUT" '"Session risk score 9223372036854775807 \u2265 threshold 50;" in d[3]["reason"]'

e2e_finish
