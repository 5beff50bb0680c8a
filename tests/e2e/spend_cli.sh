#!/usr/bin/env bash
# spend_cli.sh BINARY SOURCE_DIR — end-to-end tests of `rampart spend` over a real SQLite store
# filled by `rampart usage record`: the table, the per-day chart (Unicode and ASCII, 80 columns,
# the 31-day cap), the JSON object, the filters and periods under a fixed clock, exact sums, and
# the exit statuses (no data, bad flags, a store that cannot be opened).
set -u
. "$(dirname "$0")/lib.sh"
e2e_init spend_cli "$1" "$2"

OUT=$TMP/out
ERR=$TMP/err
S=$TMP/state
export RAMPART_NOW=2026-03-15T12:00:00Z
export LANG=C.UTF-8
unset LC_ALL LC_CTYPE || true

# spend ARGS...: `rampart spend --state-dir $S ARGS...` into $OUT/$ERR, sets RC.
spend() {
    run_rampart "$OUT" "$ERR" spend --state-dir "$S" "$@"
}

# contains DESCRIPTION FILE TEXT: FILE has the fixed string TEXT.
contains() {
    if grep -qF -- "$3" "$2"; then pass "$1"; else fail "$1" "$(cat "$2")"; fi
}

# py DESCRIPTION FILE EXPR: EXPR true with `t` = the text of FILE (lines `ls`).
py() {
    if python3 - "$2" "$3" <<'PY'; then pass "$1"; else fail "$1" "$(cat "$2")"; fi
import sys
t = open(sys.argv[1], encoding="utf-8").read()
ls = t.splitlines()
sys.exit(0 if eval("(" + sys.argv[2] + "\n)") else 1)
PY
}

# ---- before anything was recorded ----
spend
expect_rc "no store yet: spend still succeeds" 0
contains "... and says nothing was recorded" "$OUT" "no usage recorded for any session"
check "... without creating a store" test ! -e "$S/state.db"
spend --json
expect_rc "no store yet, --json" 0
check "... prints the empty report" json_lines "$OUT" \
    'len(d) == 1 and d[0]["rows"] == [] and d[0]["days"] == [] and d[0]["total"]["records"] == 0'

# ---- usage errors (exit 2) ----
for bad in "--period fortnight" "--period" "--by colour" "--by" "--user" "--session=" \
    "--state-dir" "--frobnicate" "extra"; do
    # shellcheck disable=SC2086
    run_rampart "$OUT" "$ERR" spend $bad
    expect_rc "bad arguments '$bad' are a usage error" 2
done
contains "... with the usage text" "$ERR" "usage: rampart spend"
run_rampart "$OUT" "$ERR" spend --help
expect_rc "--help" 0
contains "... prints the usage" "$OUT" "--period P"
RAMPART_NOW=yesterday run_rampart "$OUT" "$ERR" spend --state-dir "$S"
expect_rc "a malformed RAMPART_NOW is refused" 2

# ---- a store that cannot be opened (exit 1, with the reason) ----
echo "not a directory" >"$TMP/afile"
run_rampart "$OUT" "$ERR" spend --state-dir "$TMP/afile"
expect_rc "state dir is a regular file" 1
check "... the reason is printed" test -s "$ERR"
mkdir -p "$TMP/junk"
head -c 4096 /dev/urandom >"$TMP/junk/state.db"
run_rampart "$OUT" "$ERR" spend --state-dir "$TMP/junk"
expect_rc "state.db is not a database" 1
check "... the reason is printed" test -s "$ERR"

# ---- recording ----
# alice: root r1 on opus over three days (the 14th has nothing), its sub-agent c1 (no user of
# its own: alice's); bob: r2, partly on a model without a price; carol: two months ago.
record() {
    "$BIN" usage record --state-dir "$S" -q >"$TMP/rec.out" 2>"$TMP/rec.err"
}
record <<'EOF'
{"session_id":"r1","user":"alice","model":"claude-opus-4-5","input_tokens":1200000,"output_tokens":40000,"cache_read_input_tokens":800000,"cache_creation_input_tokens":20000,"cost_usd":8.0,"time":"2026-03-13T09:00:00Z"}
{"session_id":"c1","parent_session_id":"r1","model":"gpt-5-mini","input_tokens":10000,"output_tokens":2000,"cost_usd":0.03,"time":"2026-03-13T09:30:00Z"}
{"session_id":"r1","user":"alice","model":"claude-opus-4-5","input_tokens":4000,"output_tokens":12000,"cost_usd":4.34,"time":"2026-03-15T08:00:00Z"}
{"session_id":"r2","user":"bob","model":"claude-opus-4-5","input_tokens":1000,"output_tokens":1000,"cost_usd":0.50,"time":"2026-03-15T10:00:00Z"}
{"session_id":"r2","user":"bob","model":"in-house-llm-7","input_tokens":3000,"output_tokens":500,"time":"2026-03-15T10:05:00Z"}
{"session_id":"r2","user":"bob","model":"in-house-llm-7","input_tokens":1000,"output_tokens":500,"time":"2026-03-15T10:06:00Z"}
{"session_id":"r3","user":"carol","model":"gpt-5-mini","input_tokens":100,"output_tokens":100,"cost_usd":1.25,"time":"2026-01-10T12:00:00Z"}
EOF
RC=$?
expect_rc "usage record fills the store" 0 "$TMP/rec.err"

# ---- the table and chart ----
spend --period month
expect_rc "spend --period month" 0
contains "heading names the window" "$OUT" \
    "spend of every session this month (2026-03-01 .. 2026-03-15 UTC), by model"
contains "opus row: records, tokens with separators, cost" "$OUT" \
    "claude-opus-4-5        3  1,205,000  53,000     800,000       20,000  \$12.84"
py "rows by cost, highest first; the unpriced model flagged" "$OUT" \
    '[l.split()[0] for l in ls[3:6]] == ["claude-opus-4-5", "gpt-5-mini", "in-house-llm-7"]
     and ls[5].endswith("$0.00 + 2 unpriced")'
py "total row: the month only (not carol's January), unpriced flagged" "$OUT" \
    'any(l.startswith("total ") and l.endswith("$12.87 + 2 unpriced") for l in ls)'
py "one chart line per day of the window, empty days included" "$OUT" \
    'sum(1 for l in ls if l.startswith("2026-03-")) == 15 and "2026-03-14" in ls and "2026-03-01" in ls'
contains "the largest day is a full bar" "$OUT" \
    "2026-03-13  ████████████████████████████████████████  \$8.03"
# $4.84 of $8.03 is 192.9 of 320 eighths: 24 full cells and one eighth.
py "a smaller day is a partial bar ending in an eighth block" "$OUT" \
    '"2026-03-15  " + "█" * 24 + "▏" + " " * 15 + "  $4.84 + 2 unpriced" in ls'
py "every chart line fits 80 columns" "$OUT" \
    'all(len(l) <= 80 for l in ls[ls.index(next(l for l in ls if l.startswith("spend per day"))):])'

# ---- periods, under the fixed clock (Sunday 2026-03-15) ----
spend --period day --by user
expect_rc "spend --period day" 0
contains "day: the heading says today" "$OUT" \
    "spend of every session today (2026-03-15 .. 2026-03-15 UTC), by user"
py "day: today's spend is alice's 4.34 and bob's 0.50" "$OUT" \
    'any(l.startswith("total ") and "$4.84 + 2 unpriced" in l for l in ls)'
spend --period week --json
check "week: ISO week from Monday 2026-03-09" json_lines "$OUT" \
    'd[0]["query"]["first_day"] == "2026-03-09" and d[0]["query"]["last_day"] == "2026-03-15"
     and d[0]["query"]["period"] == "week"'
spend --period quarter --json
check "quarter: from 2026-01-01, carol included" json_lines "$OUT" \
    'd[0]["query"]["first_day"] == "2026-01-01" and d[0]["total"]["cost_nusd"] == 14120000000'
RAMPART_NOW=2026-04-01T00:00:00Z run_rampart "$OUT" "$ERR" spend --state-dir "$S" --period month
expect_rc "a new month" 0
contains "... starts empty" "$OUT" \
    "no usage recorded for any session this month (2026-04-01 .. 2026-04-01 UTC)"

# ---- filters ----
spend --session r1 --by session --json
check "--session: the session and its sub-agent" json_lines "$OUT" \
    '[r["key"] for r in d[0]["rows"]] == ["r1", "c1"] and d[0]["total"]["cost_nusd"] == 12370000000'
spend --user alice --by model --json
check "--user: a sub-agent without its own user counts for its root's owner" json_lines "$OUT" \
    'd[0]["total"]["records"] == 3 and d[0]["total"]["cost_nusd"] == 12370000000'
spend --user bob
contains "--user: the heading names the user" "$OUT" "spend of user bob, all time"
spend --user nobody --period month
expect_rc "a user without usage" 0
contains "... a clear line" "$OUT" \
    "no usage recorded for user nobody this month (2026-03-01 .. 2026-03-15 UTC)"

# ---- JSON ----
spend --json
expect_rc "spend --json" 0
check "one object with query, rows, total, days" json_lines "$OUT" \
    'len(d) == 1 and list(d[0]) == ["query", "rows", "total", "days"]'
check "costs in USD and exact nano-dollars" json_lines "$OUT" \
    'd[0]["total"]["cost_nusd"] == 14120000000 and abs(d[0]["total"]["cost_usd"] - 14.12) < 1e-9
     and isinstance(d[0]["total"]["cost_nusd"], int)'
check "unpriced usage counted apart" json_lines "$OUT" \
    'd[0]["total"]["unpriced_records"] == 2 and d[0]["total"]["unpriced_tokens"] == 5000
     and [r for r in d[0]["rows"] if r["key"] == "in-house-llm-7"][0]["cost_nusd"] == 0'
check "days: the days with usage, oldest first" json_lines "$OUT" \
    '[x["day"] for x in d[0]["days"]] == ["2026-01-10", "2026-03-13", "2026-03-15"]'
check "all time: the range is the days with usage" json_lines "$OUT" \
    'd[0]["query"]["first_day"] == "2026-01-10" and d[0]["query"]["last_day"] == "2026-03-15"
     and d[0]["query"]["period"] is None'

# ---- the chart over a long range ----
spend --by day
contains "all time spans 65 days: the chart shows the last 31 and says so" "$OUT" \
    "(the last 31 of 65 days; rampart spend --json lists every day)"
py "... 31 chart lines from 2026-02-13" "$OUT" \
    'ls[ls.index(next(l for l in ls if l.startswith("spend per day"))) + 1].startswith("2026-02-13")
     and sum(1 for l in ls[ls.index(next(l for l in ls if l.startswith("spend per day"))):]
             if l[:5] == "2026-") == 31'
contains "... while the table still lists January" "$OUT" "2026-01-10  "

# ---- ASCII fallback ----
LC_ALL=C run_rampart "$OUT" "$ERR" spend --state-dir "$S" --period month
py "LC_ALL=C: the chart is ASCII" "$OUT" \
    'all(ord(c) < 128 for c in t) and "2026-03-13  ########################################  $8.03" in t'
LANG=C.UTF-8 LC_CTYPE=POSIX run_rampart "$OUT" "$ERR" spend --state-dir "$S" --period month
py "LC_CTYPE wins over LANG" "$OUT" 'all(ord(c) < 128 for c in t)'
spend --period month --ascii
py "--ascii in a UTF-8 locale" "$OUT" 'all(ord(c) < 128 for c in t) and "#" in t'

# ---- exact sums: a thousand tenth-of-a-cent records ----
python3 -c '
import json
for i in range(1000):
    print(json.dumps({"session_id": "tiny", "user": "dave", "model": "gpt-5-mini",
                      "input_tokens": 1, "output_tokens": 1, "cost_usd": 0.001,
                      "time": "2026-03-15T11:00:00Z"}))' >"$TMP/tiny.jsonl"
"$BIN" usage record --state-dir "$S" -q "$TMP/tiny.jsonl" >/dev/null 2>"$TMP/rec.err"
RC=$?
expect_rc "1000 records" 0 "$TMP/rec.err"
spend --user dave --json
check "1000 x \$0.001 is exactly \$1" json_lines "$OUT" \
    'd[0]["total"]["cost_nusd"] == 1000000000 and d[0]["total"]["records"] == 1000'
spend --user dave
contains "... and reads \$1.00" "$OUT" "\$1.00"

e2e_finish
