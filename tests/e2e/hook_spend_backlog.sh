#!/usr/bin/env bash
# hook_spend_backlog.sh BINARY SOURCE_DIR — a cost budget under load does not fail open (issue 16,
# point 2). A ~50 MB Claude Code transcript (assistant messages with usage, $0.06 each, about
# $2,900 in all) is named by PreToolUse calls with a $1 cost_budget, `deadline_ms: 300` and
# busy loops on every core. No call can read the whole transcript in time, so each must read and
# commit what it can: every call moves the remembered offset, no call is ever ALLOW, and the
# budget's own DENY comes within the first calls. Before the fix a call read the whole slice in one
# transaction, timed out, committed nothing, and so did every call after it.
#
# Then with a budget a 32 MB transcript does not cross ($10,000): while part of it is unread
# the spend is not known, and a PreToolUse is denied as undecidable (on_error: deny), never
# allowed on the part read so far; once all is read it is ALLOW. With `on_error: ask` the same
# call asks instead, and with `on_error: allow` (the user's choice to fail open) it is allowed.
set -u
. "$(dirname "$0")/lib.sh"
e2e_init hook_spend_backlog "$1" "$2"

SD=$TMP/state
T=$TMP/transcript.jsonl
OUT=$TMP/out
ERR=$TMP/err
mkdir -p "$SD"
export USER=e2e-user

# transcript FILE MB: distinct messages, each 10,000 input and 2,000 output tokens of Sonnet 4.5.
transcript() {
    python3 - "$1" "$2" <<'PY'
import json, sys
path, mb = sys.argv[1], float(sys.argv[2])
pad = "x" * 700
size, n = 0, 0
with open(path, "w") as f:
    while size < mb * 1024 * 1024:
        n += 1
        line = json.dumps({"type": "assistant", "sessionId": "s", "uuid": "u%d" % n,
            "timestamp": "2026-11-30T10:00:00.000Z", "requestId": "req_%d" % n,
            "message": {"id": "msg_%08d" % n, "type": "message", "role": "assistant",
                "model": "claude-sonnet-4-5-20250929",
                "content": [{"type": "text", "text": pad}], "stop_reason": "tool_use",
                "usage": {"input_tokens": 10000, "output_tokens": 2000,
                          "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}}},
            separators=(",", ":")) + "\n"
        f.write(line)
        size += len(line)
PY
}
transcript "$T" 50
SIZE=$(wc -c <"$T")

# A busy machine for the test's duration: a loop per core, and one more.
busy_start

config() { # FILE MAX_COST_USD [ON_ERROR]
    {
        echo "user: e2e-user"
        [ -n "${3:-}" ] && echo "on_error: $3"
        cat <<EOF
hosts:
  claude-code: {deadline_ms: 300}
policies:
  budget:
    type: function
    handler: cost_budget
    factory_params: {max_cost_usd: $2}
EOF
    } >"$1"
}

# pre SESSION CONFIG N: PreToolUse call N of SESSION; its answer in OUT and ERR, exit in RC.
pre() {
    printf '{"session_id":"%s","transcript_path":"%s","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_%s"}' \
        "$1" "$T" "$TMP" "$3" | "$BIN" hook claude-code -c "$2" --state-dir "$SD" >"$OUT" 2>"$ERR"
    RC=$?
}

# offset SESSION: how far the session's transcript was committed (0 when never).
offset() {
    python3 - "$SD/state.db" "$1" <<'PY'
import sqlite3, sys
try:
    c = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
    r = c.execute("select read_offset from transcript_offset where session_id = ?",
                  (sys.argv[2],)).fetchone()
    print(r[0] if r else 0)
except sqlite3.Error:
    print(0)
PY
}

# answer: ALLOW, DENY or ASK, as Claude Code reads the last call.
answer() {
    if [ "$RC" -eq 2 ] || grep -q '"permissionDecision":"deny"' "$OUT"; then
        echo DENY
    elif grep -q '"permissionDecision":"ask"' "$OUT"; then
        echo ASK
    elif [ "$RC" -eq 0 ]; then
        echo ALLOW
    else
        echo "ERROR($RC)"
    fi
}

# ---- a $1 budget: every call progresses, none allows, the budget denies early ----
config "$TMP/cap1.yaml" 1
# Installed as a user installs it: `rampart install` also prepares the secret scanner's cache,
# whose first compile would otherwise fall inside the first hook calls' 300 ms under load (the
# install has no deadline). Without it every call here timed out on the compile.
"$BIN" install claude-code -c "$TMP/cap1.yaml" >"$OUT" 2>"$ERR" ||
    fail "rampart install claude-code" "$(cat "$OUT" "$ERR")"
ls "$HOME"/.cache/rampart/scan-*.hsdb >/dev/null 2>&1 ||
    fail "rampart install prepared the scanner's cache in $HOME/.cache/rampart" "$(ls -R "$HOME")"
prev=0
stalled=0
allowed=0
budget_deny=0
calls=0
while [ "$prev" -lt "$SIZE" ] && [ "$calls" -lt 200 ]; do
    calls=$((calls + 1))
    pre capped "$TMP/cap1.yaml" "$calls"
    now=$(offset capped)
    a=$(answer)
    if [ "$now" -le "$prev" ]; then
        stalled=$((stalled + 1))
        echo "       call $calls: offset stayed at $prev ($a)"
        [ "$stalled" -lt 3 ] || break # stuck: no point in going on
    fi
    [ "$a" = DENY ] || allowed=$((allowed + 1))
    if [ "$budget_deny" -eq 0 ] && grep -q 'cost-budget policy: spend' "$OUT"; then
        budget_deny=$calls
    fi
    prev=$now
done
echo "       $calls calls read $prev of $SIZE bytes"
if [ "$stalled" -eq 0 ] && [ "$calls" -gt 1 ]; then
    pass "every call moved the offset ($calls calls)"
else
    fail "$stalled of $calls calls left the offset where it was"
fi
check "the transcript was read to its end" test "$prev" -eq "$SIZE"
if [ "$allowed" -eq 0 ]; then
    pass "no call was allowed past the \$1 budget"
else
    fail "$allowed calls were not denied" "$(cat "$OUT" "$ERR")"
fi
if [ "$budget_deny" -ge 1 ] && [ "$budget_deny" -le 3 ]; then
    pass "the budget's own DENY came at call $budget_deny"
else
    fail "the budget's DENY came at call $budget_deny (want 1..3)"
fi
python3 - "$SD/state.db" "$T" >"$TMP/count.out" 2>&1 <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
rows = c.execute("select count(*) from usage_row where session_id = 'capped'").fetchone()[0]
lines = sum(1 for _ in open(sys.argv[2]))
print(rows, "rows for", lines, "messages")
sys.exit(0 if rows == lines else 1)
PY
counted=$?
check "the ledger holds each message once ($(cat "$TMP/count.out"))" test "$counted" -eq 0

# ---- a budget the transcript does not cross: unknown spend is denied until all is read ----
T=$TMP/transcript-32mb.jsonl # fewer calls to read it all
transcript "$T" 32
SIZE=$(wc -c <"$T")
config "$TMP/big.yaml" 10000
pre unknown "$TMP/big.yaml" 1
if [ "$(answer)" = DENY ] && grep -q "spend is not known yet" "$OUT"; then
    pass "backlog: the first call is denied, the spend is not known yet"
else
    fail "backlog: the first call must be denied as unknown spend" "$(cat "$OUT" "$ERR")"
fi
config "$TMP/ask.yaml" 10000 ask
pre unknown "$TMP/ask.yaml" 2
if [ "$(answer)" = ASK ] && grep -q "spend is not known yet" "$OUT"; then
    pass "backlog with on_error: ask: the call asks"
else
    fail "backlog with on_error: ask: want ASK" "$(cat "$OUT" "$ERR")"
fi
config "$TMP/allow.yaml" 10000 allow
pre unknown "$TMP/allow.yaml" 3
if [ "$(answer)" = ALLOW ]; then
    pass "backlog with on_error: allow: the policies' answer on the spend read so far"
else
    fail "backlog with on_error: allow: want ALLOW" "$(cat "$OUT" "$ERR")"
fi
prev=$(offset unknown)
early_allow=0
calls=3
while [ "$prev" -lt "$SIZE" ] && [ "$calls" -lt 200 ]; do
    calls=$((calls + 1))
    pre unknown "$TMP/big.yaml" "$calls"
    now=$(offset unknown)
    if [ "$(answer)" = ALLOW ] && [ "$now" -lt "$SIZE" ]; then
        early_allow=$((early_allow + 1))
    fi
    if [ "$now" -le "$prev" ]; then
        fail "backlog: call $calls left the offset at $prev"
        break
    fi
    prev=$now
done
check "backlog: no call was allowed while part of the transcript was unread" \
    test "$early_allow" -eq 0
pre unknown "$TMP/big.yaml" last
if [ "$(answer)" = ALLOW ]; then
    pass "backlog: once all is read (\$1,900 of \$10,000) the call is allowed"
else
    fail "backlog: want ALLOW once all is read" "$(cat "$OUT" "$ERR")"
fi

e2e_finish
