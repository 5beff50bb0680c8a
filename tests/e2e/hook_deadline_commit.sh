#!/usr/bin/env bash
# hook_deadline_commit.sh BINARY SOURCE_DIR — what is committed is what the host was told (issue 16,
# point 10). PreToolUse calls (each its own session, under a call-count policy that allows them)
# run on a busy machine with deadlines swept across a call's own run time, so that the deadline fires at every
# point of a call, COMMIT included, again and again. For every call, the audit row must agree with
# the answer on stdout: an ALLOW has its ALLOW row (its count was committed), a deadline DENY has
# no row or a DENY row. Before the fix a deadline that fired between COMMIT and the answer told the
# host DENY while the call was counted and audited as ALLOW.
set -u
. "$(dirname "$0")/lib.sh"
e2e_init hook_deadline_commit "$1" "$2"

SD=$TMP/state
OUT=$TMP/out
ERR=$TMP/err
mkdir -p "$SD"
export USER=e2e-user
CALLS=${RAMPART_E2E_DEADLINE_CALLS:-240}

config() { # DEADLINE_MS
    cat >"$TMP/cfg.yaml" <<EOF
user: e2e-user
hosts:
  claude-code: {deadline_ms: $1}
policies:
  count:
    type: function
    handler: omnigent.policies.builtins.safety.max_tool_calls_per_session
    factory_params: {limit: 1000000}
EOF
}

# A 2 MB field in the tool input stretches a call's own run time (reading and parsing its input)
# to several milliseconds: on a quiet machine a bare call decides in well under the smallest
# deadline (1 ms), and the sweep below would hit the deadline only by chance.
head -c 2000000 /dev/zero | tr '\0' x >"$TMP/pad"

pre() { # SESSION
    {
        printf '{"session_id":"%s","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","description":"' \
            "$1" "$TMP"
        cat "$TMP/pad"
        printf '"},"tool_use_id":"toolu_1"}'
    } | "$BIN" hook claude-code -c "$TMP/cfg.yaml" --state-dir "$SD" >"$OUT" 2>"$ERR"
    RC=$?
}

now_us() { date +%s%6N; }

# A busy machine: a call is preempted at any point, COMMIT included, and a deadline that expires
# meanwhile is delivered the moment it runs again, so the window after COMMIT is hit often.
busy_start

# A call's run time with room to spare: the sweep covers 1 ms to a little past it.
config 5000
pre warm
start=$(now_us)
for i in 1 2 3; do pre "warm$i"; done
run_ms=$((($(now_us) - start) / 3000))
max=$((run_ms + run_ms / 2 + 2))
echo "       a call takes about $run_ms ms: deadlines 1..$max ms"

: >"$TMP/answers"
for i in $(seq 1 "$CALLS"); do
    config $((i % max + 1))
    pre "s$i"
    if [ "$RC" -eq 2 ] || grep -q '"permissionDecision":"deny"' "$OUT"; then
        a=DENY
    elif [ "$RC" -eq 0 ] && [ ! -s "$OUT" ]; then
        a=ALLOW
    else
        a="OTHER($RC)"
    fi
    echo "s$i $a" >>"$TMP/answers"
done

python3 - "$SD/state.db" "$TMP/answers" >"$TMP/report" 2>&1 <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
audit = {}
for sid, result in c.execute("select session_id, result from audit"):
    audit.setdefault(sid, []).append(result)
told = dict(line.split() for line in open(sys.argv[2]))
bad, allowed, denied = [], 0, 0
for sid, answer in told.items():
    rows = audit.get(sid, [])
    if answer == "ALLOW":
        allowed += 1
        ok = rows == ["ALLOW"]
    elif answer == "DENY":
        denied += 1
        ok = rows in ([], ["DENY"])
    else:
        ok = False
    if not ok:
        bad.append("%s: told %s, audited %s" % (sid, answer, rows or "nothing"))
print("%d allowed, %d denied by the deadline, %d disagree" % (allowed, denied, len(bad)))
for b in bad[:10]:
    print(b)
# The sweep must have hit both sides of the deadline, or it proved nothing.
sys.exit(0 if not bad and allowed > 0 and denied > 0 else 1)
PY
agree=$?
if [ "$agree" -eq 0 ]; then
    pass "$CALLS calls: every audit row agrees with the answer ($(head -1 "$TMP/report"))"
else
    fail "audit and answer disagree, or the sweep missed a side" "$(cat "$TMP/report")"
fi

e2e_finish
