#!/usr/bin/env bash
# demo.sh BINARY SOURCE_DIR — `make demo` works: scripts/demo.sh replays every example session,
# exits 0 and prints its tables and summary; and the example sessions show what they are meant
# to show (checked on rampart's own decisions, not on the demo's formatting).
set -u
. "$(dirname "$0")/lib.sh"
e2e_init demo "$1" "$2"

sh "$ROOT/scripts/demo.sh" "$BIN" >"$TMP/demo.out" 2>"$TMP/err"
RC=$?
expect_rc "scripts/demo.sh" 0
check "the demo prints a table per session" \
    sh -c "for s in runaway-agent thrashing-agent orchestrator-agent report-only-agent; do
               grep -q \"^== \$s \" '$TMP/demo.out' || exit 1; done"
check "the demo prints the summary" grep -Eq '^demo: 4 sessions, [0-9]+ events: [0-9]+ allowed, [0-9]+ asked, [0-9]+ denied$' "$TMP/demo.out"
check "no colour codes when stdout is not a terminal" sh -c "! grep -q \$(printf '\\033') '$TMP/demo.out'"

for f in "$ROOT"/examples/*.yaml; do
    run_rampart "$TMP/out" "$TMP/err" validate "$f"
    expect_rc "validate ${f#"$ROOT"/}" 0
done

# replay SESSION CONFIG [EVAL_FLAGS...]: decisions into $TMP/out
replay() {
    local session=$1 config=$2
    shift 2
    rm -rf "$TMP/replay"
    RAMPART_NOW=2026-03-15T12:00:00Z run_rampart "$TMP/out" "$TMP/err" eval \
        -c "$ROOT/examples/$config" --state-dir "$TMP/replay" "$@" \
        "$ROOT/examples/sessions/$session.jsonl"
}

for mode in report approve; do
    replay runaway-agent rampart.yaml --on-ask "$mode"
    check "runaway-agent ($mode): detect_loop asks, then the tool-call cap denies" \
        json_lines "$TMP/out" '
            [x["policies"] for x in d if x["result"] != "ALLOW"][0] == ["loop_guard"] and
            any(x["result"] == "DENY" and x["reason"] == "Exceeded 20 tool calls this session"
                for x in d)'
done

replay thrashing-agent rampart.yaml --on-ask approve
check "thrashing-agent: detect_thrashing asks on consecutive errors" \
    json_lines "$TMP/out" 'any(x["result"] == "ASK" and x["policies"] == ["thrashing_guard"] and
                               "5 consecutive tool errors" in x["reason"] for x in d)'

replay report-only-agent report-only.yaml --on-ask approve
python3 - "$ROOT/examples/sessions/report-only-agent.jsonl" "$TMP/out" >"$TMP/pairs" <<'PY'
import json, sys
events = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
decisions = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
for e, d in zip(events, decisions):
    if e["type"] == "tool_call":
        print(e["data"]["name"], d["result"])
PY
for tool in Write Edit MultiEdit NotebookEdit apply_patch; do
    check "report-only-agent: $tool is denied" grep -qx "$tool DENY" "$TMP/pairs"
done
check "report-only-agent: reads and the shell stay allowed" \
    sh -c "grep -qx 'Read ALLOW' '$TMP/pairs' && grep -qx 'Grep ALLOW' '$TMP/pairs' &&
           grep -qx 'Bash ALLOW' '$TMP/pairs' && ! grep -q '^Bash DENY' '$TMP/pairs'"

replay orchestrator-agent rampart.yaml --on-ask approve
check "orchestrator-agent: spawn bounds, purpose guard, blocked skills and risk score all act" \
    json_lines "$TMP/out" '
        {p for x in d if x["result"] != "ALLOW" for p in x["policies"]} ==
        {"fan_out", "subagent_purpose", "skills", "risk"}'

e2e_finish
