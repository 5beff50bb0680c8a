#!/usr/bin/env bash
# concurrency.sh BINARY SOURCE_DIR — the issue's acceptance test for the state store: two
# `rampart eval` processes evaluate 500 tool calls each of ONE session, at the same time, against
# the same --state-dir. No update may be lost: afterwards the session's tool-call count is
# exactly 1000. Checked twice: by the audit log (1000 ALLOW rows) and by the policy itself
# (limit 1000 denies the next call, limit 1001 allows it).
set -u
. "$(dirname "$0")/lib.sh"
e2e_init concurrency "$1" "$2"

STATE=$TMP/state
N=500

cap_config() {
    cat >"$TMP/cap$1.yaml" <<EOF
policies:
  cap:
    type: function
    handler: max_tool_calls_per_session
    factory_params:
      limit: $1
EOF
}
cap_config 2000
cap_config 1000
cap_config 1001

python3 - "$TMP" "$N" <<'PY'
import json, sys
tmp, n = sys.argv[1], int(sys.argv[2])
for writer in ("a", "b"):
    with open(f"{tmp}/events-{writer}.jsonl", "w") as f:
        for i in range(n):
            f.write(json.dumps({
                "type": "tool_call", "session_id": "race", "target": "Bash",
                "data": {"name": "Bash", "arguments": {"command": f"echo {writer}{i}"}},
                "context": {"tool_use_id": f"toolu_{writer}{i}", "cwd": "/tmp"},
            }) + "\n")
PY

# Create the store first, so the two writers race on evaluations, not on the schema migration.
echo '{"type":"session_start","session_id":"warmup"}' |
    "$BIN" eval -c "$TMP/cap2000.yaml" --state-dir "$STATE" >/dev/null 2>"$TMP/err"
RC=$?
expect_rc "create the store" 0

"$BIN" eval -c "$TMP/cap2000.yaml" --state-dir "$STATE" "$TMP/events-a.jsonl" \
    >"$TMP/out-a" 2>"$TMP/err-a" &
pid_a=$!
"$BIN" eval -c "$TMP/cap2000.yaml" --state-dir "$STATE" "$TMP/events-b.jsonl" \
    >"$TMP/out-b" 2>"$TMP/err-b" &
pid_b=$!
wait "$pid_a"
RC=$?
expect_rc "writer a" 0 "$TMP/err-a"
wait "$pid_b"
RC=$?
expect_rc "writer b" 0 "$TMP/err-b"

for w in a b; do
    check "writer $w: $N decisions, all ALLOW" \
        json_lines "$TMP/out-$w" "len(d) == $N and all(x.get('result') == 'ALLOW' for x in d)"
done

run_rampart "$TMP/log" "$TMP/err" log --json --session race --state-dir "$STATE"
expect_rc "rampart log --json" 0
check "the audit log holds exactly 1000 ALLOW rows of the session" \
    json_lines "$TMP/log" 'len(d) == 1000 and all(x["result"] == "ALLOW" for x in d)'

printf '{"type":"tool_call","session_id":"race","data":{"name":"Read","arguments":{}}}\n' \
    >"$TMP/probe.jsonl"
run_rampart "$TMP/out" "$TMP/err" eval -c "$TMP/cap1000.yaml" --state-dir "$STATE" "$TMP/probe.jsonl"
check "the count reached 1000: limit 1000 denies the next call" \
    json_lines "$TMP/out" 'd[0]["result"] == "DENY" and d[0]["reason"] == "Exceeded 1000 tool calls this session"'
run_rampart "$TMP/out" "$TMP/err" eval -c "$TMP/cap1001.yaml" --state-dir "$STATE" "$TMP/probe.jsonl"
check "... and not more: limit 1001 allows it" json_lines "$TMP/out" 'd[0]["result"] == "ALLOW"'

e2e_finish
