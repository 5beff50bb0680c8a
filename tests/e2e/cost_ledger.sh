#!/usr/bin/env bash
# cost_ledger.sh BINARY SOURCE_DIR — the spend ledger is durable and exact:
#   * 4 processes × 250 `rampart usage record` lines for one user at once: nothing lost, the
#     total exact to the nano-dollar (and so to the cent);
#   * a writer killed with SIGKILL at random moments, over and over: after every kill the
#     ledger is consistent (each aggregate equals the sum of its rows: no half-applied record),
#     and re-running the same input (lines carry ids) completes it exactly, with no duplicates.
set -u
. "$(dirname "$0")/lib.sh"
e2e_init cost_ledger "$1" "$2"

SD=$TMP/state
export RAMPART_NOW=2026-05-04T10:00:00Z

# lines PREFIX N SESSION: N usage lines of $0.01 each, ids PREFIX-0.., for user "u".
lines() {
    python3 - "$1" "$2" "$3" <<'PY'
import sys
prefix, n, session = sys.argv[1], int(sys.argv[2]), sys.argv[3]
for i in range(n):
    print('{"session_id":"%s","user":"u","model":"m","input_tokens":%d,"output_tokens":1,'
          '"cost_usd":0.01,"id":"%s-%d"}' % (session, 10 + i % 7, prefix, i))
PY
}

# ledger_check DIR PYTHON_EXPR: evaluates EXPR with the ledger's figures; every aggregate must
# also equal the sum of its rows (a half-applied record would break that).
ledger_check() {
    python3 - "$1/state.db" "$2" <<'PY'
import sqlite3, sys
db, expr = sys.argv[1], sys.argv[2]
c = sqlite3.connect(db, timeout=30)
q = lambda sql: c.execute(sql).fetchall()
if not q("SELECT 1 FROM sqlite_master WHERE name = 'usage_row'"):
    # Killed before the schema was created: nothing half-applied, nothing recorded.
    ok = eval(expr, {"rows": 0, "cost": 0, "tokens": 0})
    print(0)
    sys.exit(0 if ok else 1)
rows = q("SELECT count(*), coalesce(sum(cost_nusd),0), coalesce(sum(input_tokens),0) FROM usage_row")[0]
per_session = q("SELECT session_id, count(*), sum(cost_nusd), sum(input_tokens) FROM usage_row GROUP BY session_id")
agg_session = {r[0]: r[1:] for r in q("SELECT session_id, records, cost_nusd, input_tokens FROM usage_session")}
per_day = q("SELECT user_id, day, count(*), sum(cost_nusd) FROM usage_row WHERE user_id IS NOT NULL GROUP BY user_id, day")
agg_day = {(r[0], r[1]): r[2:] for r in q("SELECT user_id, day, records, cost_nusd FROM usage_user_day")}
problems = []
for sid, n, cost, tok in per_session:
    if agg_session.get(sid) != (n, cost, tok):
        problems.append(f"session {sid}: rows {(n, cost, tok)} vs aggregate {agg_session.get(sid)}")
if len(agg_session) != len(per_session):
    problems.append(f"{len(agg_session)} session aggregates for {len(per_session)} sessions with rows")
for uid, day, n, cost in per_day:
    if agg_day.get((uid, day)) != (n, cost):
        problems.append(f"user {uid} {day}: rows {(n, cost)} vs aggregate {agg_day.get((uid, day))}")
dupes = q("SELECT count(*) FROM (SELECT session_id, record_id FROM usage_row WHERE record_id IS NOT NULL GROUP BY 1, 2 HAVING count(*) > 1)")[0][0]
if dupes:
    problems.append(f"{dupes} duplicated record ids")
ok = not problems and eval(expr, {"rows": rows[0], "cost": rows[1], "tokens": rows[2]})
print(rows[0])
if not ok:
    print(f"       rows={rows[0]} cost_nusd={rows[1]} tokens={rows[2]}", file=sys.stderr)
    for p in problems[:10]:
        print("       " + p, file=sys.stderr)
sys.exit(0 if ok else 1)
PY
}

quiet() { "$@" >/dev/null; }

# ---- 4 writers × 250 records, one user, at once (the store is created by the race) ----
for k in 1 2 3 4; do
    lines "p$k" 250 "s$k" >"$TMP/in-$k.jsonl"
done
pids=()
for k in 1 2 3 4; do
    "$BIN" usage record -q --state-dir "$SD" "$TMP/in-$k.jsonl" >"$TMP/w$k.out" 2>"$TMP/w$k.err" &
    pids+=($!)
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
if [ "$status" -eq 0 ]; then pass "4 concurrent writers exit 0"; else
    fail "a concurrent writer failed" "$(cat "$TMP"/w*.err)"; fi
check "1000 rows, \$10.00 exactly (10,000,000,000 nano-dollars), aggregates = rows" \
    quiet ledger_check "$SD" 'rows == 1000 and cost == 10 * 10**9'
# The per-user figure the budget policies read: a cel_policy that denies above $9.99 today.
cat >"$TMP/over.yaml" <<'YAML'
policies:
  daily:
    type: function
    handler: user_daily_cost_budget
    factory_params: {max_cost_usd: 10.0}
YAML
printf '{"type":"tool_call","session_id":"s9","target":"Bash","data":{"name":"Bash","arguments":{}},"context":{"user":"u","model":"m"}}\n' |
    "$BIN" eval -c "$TMP/over.yaml" --state-dir "$SD" >"$TMP/out" 2>"$TMP/err"
check "the user's day is exactly at the \$10.00 limit: denied" \
    json_lines "$TMP/out" 'd[0]["result"] == "DENY" and "$10.00 reached the $10.00 limit" in d[0]["reason"]'
"$BIN" usage record -q --state-dir "$SD" "$TMP/in-1.jsonl" >"$TMP/again.out" 2>&1
RC=$?
expect_rc "recording the same lines again succeeds" 0 "$TMP/again.out"
"$BIN" usage record --state-dir "$SD" "$TMP/in-1.jsonl" >"$TMP/again.out" 2>&1
check "… and records nothing: every line is a duplicate" \
    grep -q 'recorded 0 (250 duplicates, 0 unpriced), \$0.00' "$TMP/again.out"
check "… so the totals are unchanged" quiet ledger_check "$SD" 'rows == 1000 and cost == 10 * 10**9'

# ---- kill -9 a writer in a loop ----
SD=$TMP/state-crash
N=2000
lines c "$N" crash >"$TMP/crash.jsonl"
# How long one whole run takes on this machine (a sanitizer build is many times slower): the
# kills are spread over that span, and the span adapts — a kill before the first row raises its
# lower end, one after the last row lowers its upper end — so that on a loaded machine too they
# land in the store open, the middle of the stream and sometimes the end.
t0=$(date +%s%N)
"$BIN" usage record -q --state-dir "$TMP/state-timing" "$TMP/crash.jsonl" >/dev/null 2>&1
hi=$((($(date +%s%N) - t0) / 1000000))
[ "$hi" -ge 5 ] || hi=5
lo=1
rows=0
consistent=0
killed_mid=0
round=0
while [ "$round" -lt 60 ] && { [ "$round" -lt 25 ] || [ "$killed_mid" -lt 3 ]; }; do
    round=$((round + 1))
    before=${rows:-0}
    "$BIN" usage record -q --state-dir "$SD" "$TMP/crash.jsonl" >/dev/null 2>"$TMP/crash.err" &
    pid=$!
    delay_ms=$((lo + RANDOM % (hi - lo + 1)))
    sleep "$((delay_ms / 1000)).$(printf '%03d' $((delay_ms % 1000)))"
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    rows=0
    if [ -f "$SD/state.db" ]; then
        if rows=$(ledger_check "$SD" 'rows <= 2000 and cost == rows * 10**7'); then
            consistent=$((consistent + 1))
        else
            fail "round $round: the ledger is inconsistent after kill -9"
            rows=0
        fi
    fi
    # Rounds accumulate (the lines carry ids: a re-run adds only what is missing), until the
    # input is complete; then the ledger starts over.
    if [ "$rows" -le "$before" ] && [ "$rows" -lt 2000 ]; then
        lo=$((delay_ms < hi ? delay_ms : hi))
    elif [ "$rows" -ge 2000 ]; then
        hi=$((delay_ms > lo ? delay_ms : lo))
        rm -rf "$SD"
        rows=0
    else
        killed_mid=$((killed_mid + 1))
    fi
done
if [ "$consistent" -gt 0 ]; then pass "after each of $consistent kills the ledger was consistent"; else
    fail "no kill left a database to check"; fi
# A kill that only ever lands before the first or after the last line proves nothing.
if [ "$killed_mid" -gt 0 ]; then pass "$killed_mid kills landed in the middle of the stream"; else
    fail "no kill landed in the middle of the stream"; fi
"$BIN" usage record -q --state-dir "$SD" "$TMP/crash.jsonl" >"$TMP/final.out" 2>&1
RC=$?
expect_rc "a final run completes the input" 0 "$TMP/final.out"
check "exactly $N rows and \$20.00, no duplicates" quiet ledger_check "$SD" 'rows == 2000 and cost == 20 * 10**9'

# ---- a bad line is reported and skipped; the lines after it are still recorded ----
SD=$TMP/state-bad
printf '%s\n' '{"session_id":"a","user":"al","cost_usd":1}' \
    '{"session_id":"a","user":"al","input_tokens":1000000000001}' \
    '{"session_id":"a","user":"al","cost_usd":2}' '[1]' \
    '{"session_id":"a","user":"al","usage":{"output_token":5}}' \
    '{"session_id":"a","user":"al","cost_usd":3}' >"$TMP/bad.jsonl"
"$BIN" usage record --state-dir "$SD" "$TMP/bad.jsonl" >"$TMP/bad.out" 2>"$TMP/bad.err"
RC=$?
expect_rc "a file with bad lines exits 1" 1 "$TMP/bad.err"
check "each bad line is named" bash -c "grep -q 'line 2: input_tokens must be at most' '$TMP/bad.err' &&
    grep -q 'line 4: ' '$TMP/bad.err' && grep -q \"line 5: unknown field 'usage.output_token'\" '$TMP/bad.err'"
check "the good lines around them are recorded" \
    grep -q 'recorded 3 (0 duplicates, 0 unpriced), \$6.00' "$TMP/bad.out"

e2e_finish
