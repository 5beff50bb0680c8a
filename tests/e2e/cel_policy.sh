#!/usr/bin/env bash
# cel_policy.sh BINARY SOURCE_DIR — the cel_policy builtin end to end: the seed's
# count_tool_calls example over a stateful session (state accumulates across processes), a
# CEL limit on the count it keeps, compile errors and literal reserved keys as config errors,
# evaluation errors answered by on_error (DENY by default), computed reserved keys dropped.
set -u
. "$(dirname "$0")/lib.sh"
e2e_init cel_policy "$1" "$2"

OUT=$TMP/out
ERR=$TMP/err

# tool_call SESSION TOOL [ARGUMENTS_JSON]
tool_call() {
    printf '{"type":"tool_call","session_id":"%s","target":"%s","data":{"name":"%s","arguments":%s}}\n' \
        "$1" "$2" "$2" "${3:-"{}"}"
}

# state_of DIR SESSION PYTHON_EXPR: evaluates EXPR with `s` = the session's stored state.
state_of() {
    python3 - "$1/state.db" "$2" "$3" <<'PY'
import json, sqlite3, sys
db, sid, expr = sys.argv[1:4]
row = sqlite3.connect(db).execute(
    "SELECT state FROM session_state WHERE session_id = ?", (sid,)).fetchone()
s = json.loads(row[0]) if row else {}
ok = eval(expr, {"s": s})
if not ok:
    print("       state: " + json.dumps(s), file=sys.stderr)
sys.exit(0 if ok else 1)
PY
}

# The seed's policies: block, verbatim ("Track custom state from a CEL expression").
cat >"$TMP/count.yaml" <<'YAML'
policies:
  count_tool_calls:
    type: function
    handler: omnigent.policies.builtins.cel.cel_policy
    factory_params:
      expression: |
        event.type == "tool_call" ? {
          "result": "ALLOW",
          "state_updates": [
            {"key": "call_count", "action": "increment", "value": 1},
            {"key": "last_tool", "action": "set", "value": event.data.name}
          ]
        } : {"result": "ALLOW"}
YAML

# ---- the seed's example over a stateful session ----
{
    tool_call s1 Bash '{"command":"ls"}'
    echo '{"type":"request","session_id":"s1","data":"hello"}'
    tool_call s1 Read '{"file_path":"/a"}'
    tool_call s1 Grep
} >"$TMP/first.jsonl"
run_rampart "$OUT" "$ERR" eval -c "$TMP/count.yaml" --state-dir "$TMP/st" "$TMP/first.jsonl"
expect_rc "count_tool_calls: eval" 0
check "every event is allowed" \
    json_lines "$OUT" 'len(d) == 4 and all(x["result"] == "ALLOW" for x in d)'
check "tool calls report their two updates, the request none" \
    json_lines "$OUT" '[len(x["state_updates"]) for x in d] == [2, 0, 2, 2] and
        [(u["key"], u["action"], u["value"]) for u in d[0]["state_updates"]] ==
        [("call_count", "increment", 1), ("last_tool", "set", "Bash")]'
check "the session state holds call_count 3 and last_tool Grep" \
    state_of "$TMP/st" s1 's == {"call_count": 3, "last_tool": "Grep"}'

{
    tool_call s1 Write '{"file_path":"/b"}'
    tool_call s1 Edit '{"file_path":"/b"}'
} >"$TMP/second.jsonl"
run_rampart "$OUT" "$ERR" eval -c "$TMP/count.yaml" --state-dir "$TMP/st" "$TMP/second.jsonl"
check "a later process continues the count: 5, last_tool Edit" \
    state_of "$TMP/st" s1 's == {"call_count": 5, "last_tool": "Edit"}'
check "another session starts from nothing" state_of "$TMP/st" s9 's == {}'

# The expression reads back what earlier evaluations wrote (event.session_state).
cat >"$TMP/probe.yaml" <<'YAML'
policies:
  probe:
    type: function
    handler: cel_policy
    factory_params:
      expression: >-
        {"result": "DENY", "reason": "count=" + string(event.session_state.call_count) +
        " last=" + event.session_state.last_tool}
YAML
tool_call s1 Read >"$TMP/one.jsonl"
run_rampart "$OUT" "$ERR" eval -c "$TMP/probe.yaml" --state-dir "$TMP/st" "$TMP/one.jsonl"
check "event.session_state is the stored state (call_count is an int)" \
    json_lines "$OUT" 'd[0]["result"] == "DENY" and d[0]["reason"] == "count=5 last=Edit"'

# ---- a policy that denies once call_count reaches a limit ----
cat >"$TMP/limit.yaml" <<'YAML'
policies:
  count_tool_calls:
    type: function
    handler: omnigent.policies.builtins.cel.cel_policy
    factory_params:
      expression: |
        event.type == "tool_call" ? {
          "result": "ALLOW",
          "state_updates": [
            {"key": "call_count", "action": "increment", "value": 1},
            {"key": "last_tool", "action": "set", "value": event.data.name}
          ]
        } : {"result": "ALLOW"}
  call_limit:
    type: function
    handler: cel_policy
    factory_params:
      reason: Too many tool calls.
      expression: |
        event.type == "tool_call" && event.session_state.?call_count.orValue(0) >= 3
          ? {"result": "deny"}
          : {"result": "allow"}
YAML
for t in A B C D E; do tool_call s2 "$t"; done >"$TMP/five.jsonl"
tool_call s3 F >>"$TMP/five.jsonl"
run_rampart "$OUT" "$ERR" eval -c "$TMP/limit.yaml" --state-dir "$TMP/lim" "$TMP/five.jsonl"
expect_rc "limit: eval" 0
check "three calls pass, then the limit denies (fallback reason); other sessions unaffected" \
    json_lines "$OUT" '[x["result"] for x in d] == ["ALLOW"] * 3 + ["DENY"] * 2 + ["ALLOW"] and
        d[3]["reason"] == "Too many tool calls." and d[3]["policies"] == ["call_limit"]'
check "the count went on through the DENYs (the counter precedes the denier)" \
    state_of "$TMP/lim" s2 's == {"call_count": 5, "last_tool": "E"}'

# ---- config errors ----
cat >"$TMP/syntax.yaml" <<'YAML'
policies:
  broken:
    type: function
    handler: cel_policy
    factory_params:
      expression: |
        event.type == "tool_call" &&
          event.data.name == )
YAML
run_rampart "$OUT" "$ERR" eval -c "$TMP/syntax.yaml" --stateless "$TMP/one.jsonl"
expect_rc "a CEL syntax error is a config error" 2
check "... naming the expression's line and column" \
    grep -Eq 'syntax\.yaml:[0-9]+:[0-9]+.*expression: line 2, column [0-9]+' "$ERR"
check "... and no event was evaluated" test ! -s "$OUT"

cat >"$TMP/reserved.yaml" <<'YAML'
policies:
  sneaky:
    type: function
    handler: cel_policy
    factory_params:
      expression: >-
        {"result": "ALLOW", "state_updates": [{"key": "_policy_tool_call_count",
        "action": "set", "value": 0}]}
YAML
run_rampart "$OUT" "$ERR" validate "$TMP/reserved.yaml"
expect_rc "a literal reserved key fails validation" 1
check "... with the key named" grep -q "state key '_policy_tool_call_count' is reserved" "$ERR"

# ---- evaluation errors: the policy fails, answered by on_error (issue 16: DENY by default,
# where the reference abstains); an opted-in allow is in the audit log as a note ----
cat >"$TMP/fragile.yaml" <<'YAML'
policies:
  fragile:
    type: function
    handler: cel_policy
    factory_params:
      expression: >-
        event.data.arguments.command.contains("rm") ? {"result": "DENY"} : {"result": "ALLOW"}
YAML
tool_call s4 Read '{"file_path":"/x"}' >"$TMP/nocmd.jsonl"
run_rampart "$OUT" "$ERR" eval -c "$TMP/fragile.yaml" --state-dir "$TMP/audit" "$TMP/nocmd.jsonl"
expect_rc "an evaluation error is not a failure of the command" 0
check "the failing policy denies by default" \
    json_lines "$OUT" 'd[0]["result"] == "DENY" and
        d[0]["reason"].startswith("policy '"'"'fragile'"'"' failed: evaluation error: ")'
run_rampart "$OUT" "$ERR" log --state-dir "$TMP/audit" --json
check "... and so does the audit log" \
    json_lines "$OUT" 'len(d) == 1 and d[0]["result"] == "DENY" and
        "evaluation error" in d[0]["reason"]'

sed 's/^      expression:/      on_error: Allow\n      expression:/' "$TMP/fragile.yaml" >"$TMP/lenient.yaml"
run_rampart "$OUT" "$ERR" eval -c "$TMP/lenient.yaml" --state-dir "$TMP/audit2" "$TMP/nocmd.jsonl"
check "on_error: allow (any case) lets the event through" json_lines "$OUT" 'd[0]["result"] == "ALLOW"'
check "a warning names the policy" grep -q "fragile: policy 'fragile' failed: evaluation error" "$ERR"
run_rampart "$OUT" "$ERR" log --state-dir "$TMP/audit2" --json
check "the audit row carries the error as its note" \
    json_lines "$OUT" 'len(d) == 1 and d[0]["result"] == "ALLOW" and
        d[0]["note"].startswith("fragile: policy '"'"'fragile'"'"' failed: evaluation error: ")'
run_rampart "$OUT" "$ERR" log --state-dir "$TMP/audit2"
check "log (text) shows the note" grep -q "note: fragile: policy 'fragile' failed: evaluation error" "$OUT"

# ---- a computed reserved key is dropped and logged ----
cat >"$TMP/computed.yaml" <<'YAML'
policies:
  computed:
    type: function
    handler: cel_policy
    factory_params:
      expression: >-
        {"result": "ALLOW", "state_updates": [
        {"key": "_policy_" + "tool_call_count", "action": "set", "value": 0},
        {"key": "mine", "action": "append", "value": event.data.name}]}
YAML
tool_call s5 Bash >"$TMP/s5.jsonl"
run_rampart "$OUT" "$ERR" eval -c "$TMP/computed.yaml" --state-dir "$TMP/comp" "$TMP/s5.jsonl"
check "the decision stands without the reserved update" \
    json_lines "$OUT" 'd[0]["result"] == "ALLOW" and
        [u["key"] for u in d[0]["state_updates"]] == ["mine"]'
check "a warning says which key was dropped" \
    grep -q "dropped update of reserved state key '_policy_tool_call_count'" "$ERR"
check "only the expression's own key is stored" state_of "$TMP/comp" s5 's == {"mine": ["Bash"]}'
run_rampart "$OUT" "$ERR" log --state-dir "$TMP/comp" --json
check "the drop is in the audit log" \
    json_lines "$OUT" '"_policy_tool_call_count" in d[0]["note"]'

e2e_finish
