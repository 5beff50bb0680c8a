#!/usr/bin/env bash
# policy_errors.sh BINARY SOURCE_DIR — a policy that fails at run time answers on_error (issue
# 16, point 8): a cel_policy rule over the words of a command, defeated in the reference by a
# command prefixed with a million words (the evaluation budget runs out and the policy abstains),
# is DENY by default, ASK under a top-level `on_error: ask`, and ALLOW only where the policy's
# own `on_error: allow` says so; through `rampart eval`, `rampart hook` and the audit log.
set -u
. "$(dirname "$0")/lib.sh"
e2e_init policy_errors "$1" "$2"
OUT=$TMP/out
ERR=$TMP/err

# words.yaml: the rule, with TOP (top-level lines) and OWN (a factory param line) filled in.
# A generous deadline: a sanitizer build takes over the default second on a million words.
rule() { # rule FILE TOP OWN
    cat >"$1" <<YAML
$2
hosts:
  claude-code: {deadline_ms: 60000}
policies:
  words:
    type: function
    handler: cel_policy
    factory_params:
      $3
      expression: >-
        event.type == "tool_call" && event.data.arguments.command.split(" ").exists(w, w == "rm")
        ? {"result": "DENY", "reason": "no rm"} : {"result": "ALLOW"}
YAML
}
rule "$TMP/default.yaml" "" "reason: x"
rule "$TMP/ask.yaml" "on_error: ask" "reason: x"
rule "$TMP/allow.yaml" "on_error: ask" "on_error: allow"
rule "$TMP/own_deny.yaml" "on_error: allow" "on_error: Deny"

python3 - "$TMP" <<'PY'
import json, sys
cmd = "w " * 1000000 + "rm -rf /"
with open(sys.argv[1] + "/long.jsonl", "w") as f:
    f.write(json.dumps({"type": "tool_call", "session_id": "s1",
                        "data": {"name": "Bash", "arguments": {"command": cmd}}}) + "\n")
    f.write(json.dumps({"type": "tool_call", "session_id": "s1",
                        "data": {"name": "Bash", "arguments": {"command": "rm -rf /"}}}) + "\n")
with open(sys.argv[1] + "/hook.json", "w") as f:
    json.dump({"session_id": "h1", "cwd": "/tmp", "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": cmd}, "tool_use_id": "t1"}, f)
PY

run_rampart "$OUT" "$ERR" eval -c "$TMP/default.yaml" --state-dir "$TMP/st1" "$TMP/long.jsonl"
expect_rc "eval of the million-word command" 0
check "default: the failing rule denies (not the reference's abstain)" \
    json_lines "$OUT" 'd[0]["result"] == "DENY" and d[0]["policies"] == ["words"] and
        d[0]["reason"].startswith("policy '"'"'words'"'"' failed: evaluation error: ") and
        "budget" in d[0]["reason"]'
check "... and the short command is denied by the rule itself" \
    json_lines "$OUT" 'd[1]["result"] == "DENY" and d[1]["reason"] == "no rm"'
run_rampart "$OUT" "$ERR" log --state-dir "$TMP/st1" --json
check "the audit row is the DENY, with the failure as its reason" \
    json_lines "$OUT" 'd[0]["result"] == "DENY" and "failed: evaluation error" in d[0]["reason"]'

run_rampart "$OUT" "$ERR" eval -c "$TMP/ask.yaml" "$TMP/long.jsonl"
check "top-level on_error: ask makes the failure an ASK" \
    json_lines "$OUT" 'd[0]["result"] == "ASK" and "failed: evaluation error" in d[0]["reason"]'

run_rampart "$OUT" "$ERR" eval -c "$TMP/allow.yaml" --state-dir "$TMP/st3" "$TMP/long.jsonl"
check "the policy's own on_error: allow overrides the top level" \
    json_lines "$OUT" 'd[0]["result"] == "ALLOW" and d[1]["result"] == "DENY"'
check "... with a warning naming the policy" grep -q "words: policy 'words' failed: evaluation error" "$ERR"
run_rampart "$OUT" "$ERR" log --state-dir "$TMP/st3" --json
check "... and the failure in the audit row's note" \
    json_lines "$OUT" 'd[0]["result"] == "ALLOW" and "(on_error: allow)" in d[0]["note"]'

run_rampart "$OUT" "$ERR" eval -c "$TMP/own_deny.yaml" "$TMP/long.jsonl"
check "a policy's own on_error: deny overrides a top-level allow" \
    json_lines "$OUT" 'd[0]["result"] == "DENY"'

# The host is told the same.
"$BIN" hook claude-code -c "$TMP/default.yaml" --state-dir "$TMP/st4" <"$TMP/hook.json" >"$OUT" 2>"$ERR"
RC=$?
check "hook: Claude Code is told deny" \
    json_lines "$OUT" 'd[0]["hookSpecificOutput"]["permissionDecision"] == "deny" and
        "failed: evaluation error" in d[0]["hookSpecificOutput"]["permissionDecisionReason"]'
"$BIN" hook claude-code -c "$TMP/ask.yaml" --state-dir "$TMP/st5" <"$TMP/hook.json" >"$OUT" 2>"$ERR"
check "hook: with on_error: ask, Claude Code is asked" \
    json_lines "$OUT" 'd[0]["hookSpecificOutput"]["permissionDecision"] == "ask" and
        "failed: evaluation error" in d[0]["hookSpecificOutput"]["permissionDecisionReason"]'

# The per-policy key is validated like any parameter, naming file:line, policy and parameter.
rule "$TMP/bad.yaml" "" "on_error: abstain"
run_rampart "$OUT" "$ERR" validate "$TMP/bad.yaml"
expect_rc "on_error: abstain is no valid value" 1
check "... the message names the file, line, policy and parameter" \
    grep -q "bad.yaml:9:7: policy 'words': parameter 'on_error': must be one of 'deny', 'ask', 'allow'" "$ERR"

e2e_finish
