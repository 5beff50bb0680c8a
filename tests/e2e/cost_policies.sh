#!/usr/bin/env bash
# cost_policies.sh BINARY SOURCE_DIR — the cost policies end to end over stateful sessions: the
# seed's example configs (spend visibility, the team daily budget, the per-user monthly budget
# with a downgrade gate and as a hard stop), usage from `rampart usage record` and from
# llm_response events, approvals remembered per session tree and per user per window, period
# boundaries with a fixed clock, sub-agent budgets attached by a dispatch, the owner of an
# unowned sub-agent, and the config rule against stacking per-user budgets.
set -u
. "$(dirname "$0")/lib.sh"
e2e_init cost_policies "$1" "$2"

OUT=$TMP/out
ERR=$TMP/err
SD=$TMP/state
export RAMPART_NOW=2026-03-10T12:00:00Z

# record SESSION USER COST [MODEL] [EXTRA_JSON_FIELDS]: one usage row through the CLI.
record() {
    printf '{"session_id":"%s","user":"%s","model":"%s","input_tokens":1000,"output_tokens":100,"cost_usd":%s%s}\n' \
        "$1" "$2" "${4:-claude-sonnet-4-5}" "$3" "${5:-}" |
        "$BIN" usage record -q --state-dir "$SD" >"$TMP/rec.out" 2>"$TMP/rec.err" ||
        fail "usage record $*" "$(cat "$TMP/rec.err")"
}

# tool_call SESSION USER MODEL [CONTEXT_EXTRA] [TOOL] [ARGS] [TOOL_USE_ID]
tool_call() {
    printf '{"type":"tool_call","session_id":"%s","target":"%s","data":{"name":"%s","arguments":%s},"context":{"user":"%s","model":"%s"%s%s}}' \
        "$1" "${5:-Bash}" "${5:-Bash}" "${6:-"{}"}" "$2" "$3" "${4:-}" \
        "${7:+,\"tool_use_id\":\"$7\"}"
}

# request SESSION USER MODEL [CONTEXT_EXTRA]
request() {
    printf '{"type":"request","session_id":"%s","data":{"user_content":"go"},"context":{"user":"%s","model":"%s"%s}}' \
        "$1" "$2" "$3" "${4:-}"
}

# decide CONFIG EVENT [EVAL_FLAGS...]: evaluates statefully; sets RESULT and REASON.
decide() {
    local cfg=$1 ev=$2
    shift 2
    printf '%s\n' "$ev" | "$BIN" eval -c "$cfg" --state-dir "$SD" "$@" >"$OUT" 2>"$ERR"
    RC=$?
    RESULT=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline()).get("result"))' "$OUT" 2>/dev/null)
    REASON=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline()).get("reason") or "")' "$OUT" 2>/dev/null)
}

# expect DESCRIPTION RESULT [REASON]: the last decision.
expect() {
    if [ "$RESULT" != "$2" ]; then
        fail "$1: got $RESULT, expected $2" "$(cat "$OUT" "$ERR")"
    elif [ $# -ge 3 ] && [ "$REASON" != "$3" ]; then
        fail "$1: reason differs" "got:      $REASON
expected: $3"
    else
        pass "$1"
    fi
}

# ---- 1. "Make spend visible before you restrict it" (seed): soft thresholds only ----
cat >"$TMP/visible.yaml" <<'YAML'
policies:
  session_visibility:
    type: function
    handler: omnigent.policies.builtins.cost.cost_budget
    factory_params:
      ask_thresholds_usd: [1.0, 5.0]
      max_cost_usd: 999.0   # effectively no hard cap
  daily_visibility:
    type: function
    handler: omnigent.policies.builtins.cost.user_daily_cost_budget
    factory_params:
      ask_thresholds_usd: [10.0, 25.0]
      max_cost_usd: 999.0
YAML
run_rampart "$OUT" "$ERR" validate "$TMP/visible.yaml"
expect_rc "the visibility config validates" 0

decide "$TMP/visible.yaml" "$(tool_call v1 alice claude-opus-4-5)"
expect "no spend yet: allowed" ALLOW
record v1 alice 0.50
decide "$TMP/visible.yaml" "$(tool_call v1 alice claude-opus-4-5)"
expect "below the first checkpoint: allowed" ALLOW
record v1 alice 0.70
decide "$TMP/visible.yaml" "$(tool_call v1 alice claude-opus-4-5)" --on-ask decline
expect "the session passes \$1: asked" ASK \
    "session_visibility: Session cost \$1.20 passed the \$1.00 warning threshold (limit \$999.00). Continue?"
decide "$TMP/visible.yaml" "$(tool_call v1 alice claude-opus-4-5)" --on-ask approve
expect "a declined checkpoint is asked again" ASK
decide "$TMP/visible.yaml" "$(tool_call v1 alice claude-opus-4-5)"
expect "an approved checkpoint is not asked again" ALLOW
record v2 alice 9.00
decide "$TMP/visible.yaml" "$(tool_call v2 alice claude-opus-4-5)" --on-ask approve
expect "alice's day passes \$10 in another session: the daily checkpoint asks (and the session's)" ASK \
    "session_visibility: Session cost \$9.00 passed the \$5.00 warning threshold (limit \$999.00). Continue?; daily_visibility: alice's spend today \$10.20 passed the \$10.00 daily warning threshold (daily limit \$999.00). Continue?"
decide "$TMP/visible.yaml" "$(tool_call v3 alice claude-opus-4-5)"
expect "approved in one session, not asked again in a third session of alice that day" ALLOW
decide "$TMP/visible.yaml" "$(tool_call v4 bob claude-opus-4-5)"
expect "bob's spend is his own" ALLOW
RAMPART_NOW=2026-03-11T00:00:00Z decide "$TMP/visible.yaml" "$(tool_call v3 alice claude-opus-4-5)"
expect "the next UTC day starts from zero" ALLOW
RAMPART_NOW=2026-03-11T00:00:00Z record v3 alice 10.00
RAMPART_NOW=2026-03-11T00:00:01Z decide "$TMP/visible.yaml" "$(tool_call v3 alice claude-opus-4-5)" --on-ask decline
expect "a new day's checkpoint asks again" ASK \
    "session_visibility: Session cost \$10.00 passed the \$5.00 warning threshold (limit \$999.00). Continue?; daily_visibility: alice's spend today \$10.00 passed the \$10.00 daily warning threshold (daily limit \$999.00). Continue?"

# ---- 2. "Server-wide team policy" (seed): function.path / arguments form ----
SD=$TMP/state-team
cat >"$TMP/team.yaml" <<'YAML'
policies:
  daily_budget:
    type: function
    function:
      path: omnigent.policies.builtins.cost.user_daily_cost_budget
      arguments:
        ask_thresholds_usd: [25.0, 50.0]
        max_cost_usd: 100.0
YAML
run_rampart "$OUT" "$ERR" validate "$TMP/team.yaml"
expect_rc "the team config validates" 0
record t1 carol 30
decide "$TMP/team.yaml" "$(request t1 carol claude-opus-4-5)" --on-ask approve
expect "carol passes \$25: asked at the prompt" ASK \
    "daily_budget: carol's spend today \$30.00 passed the \$25.00 daily warning threshold (daily limit \$100.00). Continue?"
record t2 carol 25
decide "$TMP/team.yaml" "$(tool_call t2 carol claude-opus-4-5)" --on-ask approve
expect "carol passes \$50 in a second session: the next checkpoint asks" ASK \
    "daily_budget: carol's spend today \$55.00 passed the \$50.00 daily warning threshold (daily limit \$100.00). Continue?"
decide "$TMP/team.yaml" "$(tool_call t1 carol claude-opus-4-5)"
expect "both checkpoints approved: allowed" ALLOW
record t1 carol 45
decide "$TMP/team.yaml" "$(tool_call t1 carol claude-haiku-4-5)"
expect "\$100 reached: every tool call is denied (no expensive_models: every model)" DENY \
    "Blocked by the per-user daily cost-budget policy: carol's spend \$100.00 reached the \$100.00 limit, and all further tool calls are blocked. Relay this to the user verbatim, then stop and wait for them — do not silently re-run the tool right now: \"You've hit the \$100.00 daily cost budget. All model calls are blocked over budget.\""
decide "$TMP/team.yaml" "$(request t3 carol claude-haiku-4-5)"
expect "and the next turn, in any session of carol" DENY \
    "Blocked by the per-user daily cost-budget policy: carol's spend \$100.00 reached the \$100.00 limit. You've hit the \$100.00 daily cost budget. All model calls are blocked over budget."
decide "$TMP/team.yaml" "$(request t4 dave claude-opus-4-5)"
expect "dave is not blocked by carol's spend" ALLOW

# ---- 3. "Per-user monthly budget" (seed): downgrade gate ----
SD=$TMP/state-month
cat >"$TMP/month.yaml" <<'YAML'
policies:
  monthly_budget:
    type: function
    function:
      path: omnigent.policies.builtins.cost.user_period_cost_budget
      arguments:
        period: month   # day | week | month | quarter | year
        ask_thresholds_usd: [250.0, 400.0]
        max_cost_usd: 500.0
        expensive_models: [opus]
YAML
run_rampart "$OUT" "$ERR" validate "$TMP/month.yaml"
expect_rc "the monthly config validates" 0
RAMPART_NOW=2026-02-28T23:00:00Z record m0 erin 300
RAMPART_NOW=2026-03-01T00:00:00Z decide "$TMP/month.yaml" "$(tool_call m1 erin claude-opus-4-5)"
expect "February's spend does not count in March (abstains at 0)" ALLOW
RAMPART_NOW=2026-03-02T09:00:00Z record m1 erin 200
RAMPART_NOW=2026-03-20T09:00:00Z record m2 erin 60
RAMPART_NOW=2026-03-20T10:00:00Z decide "$TMP/month.yaml" "$(tool_call m2 erin claude-opus-4-5)" --on-ask approve
expect "the month's spend over sessions and days passes \$250: asked" ASK \
    "monthly_budget: erin's spend this month \$260.00 passed the \$250.00 monthly warning threshold (monthly limit \$500.00). Continue?"
RAMPART_NOW=2026-03-21T10:00:00Z decide "$TMP/month.yaml" "$(tool_call m3 erin claude-opus-4-5)"
expect "approved once for the month: another session, another day is not asked" ALLOW
RAMPART_NOW=2026-03-25T09:00:00Z record m3 erin 240
RAMPART_NOW=2026-03-25T10:00:00Z decide "$TMP/month.yaml" "$(tool_call m3 erin claude-opus-4-5 ',"harness":"codex-native"')"
expect "\$500 reached on opus under Codex: denied with the /model hint" DENY \
    "Blocked by the per-user monthly cost-budget policy: erin's spend \$500.00 reached the \$500.00 limit, and tool calls are blocked while on a high-cost model. Relay this to the user verbatim, then stop and wait for them — do not silently re-run the tool right now: \"You've hit the \$500.00 monthly cost budget. High-cost models (opus) are blocked over budget — in the terminal, run /model and pick a cheaper model to continue.\" This block is NOT permanent: once the user switches to a cheaper model and asks you to continue, actually re-issue the tool call (it will be allowed) — do not just repeat this message."
RAMPART_NOW=2026-03-25T10:00:00Z decide "$TMP/month.yaml" "$(tool_call m3 erin claude-sonnet-4-5)"
expect "a cheaper model goes on" ALLOW
RAMPART_NOW=2026-04-01T00:00:00Z decide "$TMP/month.yaml" "$(tool_call m3 erin claude-opus-4-5)"
expect "April starts a new window" ALLOW

# ---- 4. The monthly budget as a hard stop (expensive_models omitted) ----
SD=$TMP/state-stop
sed '/expensive_models/d' "$TMP/month.yaml" >"$TMP/stop.yaml"
record h1 frank 500
decide "$TMP/stop.yaml" "$(tool_call h1 frank claude-haiku-4-5)"
expect "a hard stop blocks every model" DENY
decide "$TMP/stop.yaml" "$(tool_call h2 nobody-yet claude-haiku-4-5)"
expect "a user without spend abstains" ALLOW

# ---- 5. Weekly window: ISO week 1 of 2026 starts on Monday 2025-12-29 ----
SD=$TMP/state-week
sed 's/period: month .*/period: week/' "$TMP/month.yaml" >"$TMP/week.yaml"
RAMPART_NOW=2025-12-28T23:59:59Z record w1 gina 300
RAMPART_NOW=2025-12-29T00:00:00Z record w1 gina 260
RAMPART_NOW=2026-01-01T12:00:00Z decide "$TMP/week.yaml" "$(tool_call w1 gina claude-opus-4-5)" --on-ask decline
expect "Sunday's spend is last week; this week (Mon 2025-12-29 ..) is \$260" ASK \
    "monthly_budget: gina's spend this week \$260.00 passed the \$250.00 weekly warning threshold (weekly limit \$500.00). Continue?"

# Every period at its boundaries: $300 one microsecond before the window, $260 at its first
# microsecond; evaluated at the window's last second, only the $260 counts.
# period  before-window            window-start             evaluated-at           words
while read -r period before start at phrase adj; do
    SD=$TMP/state-$period
    sed "s/period: month .*/period: $period/" "$TMP/month.yaml" >"$TMP/at-$period.yaml"
    RAMPART_NOW=$before record b1 kim 300
    RAMPART_NOW=$start record b1 kim 260
    RAMPART_NOW=$at decide "$TMP/at-$period.yaml" "$(tool_call b1 kim claude-opus-4-5)" --on-ask decline
    expect "$period window from $start: asked at \$260" ASK \
        "monthly_budget: kim's spend ${phrase//_/ } \$260.00 passed the \$250.00 $adj warning threshold ($adj limit \$500.00). Continue?"
done <<'PERIODS'
day     2028-02-28T23:59:59.999999Z 2028-02-29T00:00:00Z 2028-02-29T23:59:59Z today        daily
month   2028-01-31T23:59:59.999999Z 2028-02-01T00:00:00Z 2028-02-29T23:59:59Z this_month   monthly
quarter 2028-03-31T23:59:59.999999Z 2028-04-01T00:00:00Z 2028-06-30T23:59:59Z this_quarter quarterly
year    2027-12-31T23:59:59.999999Z 2028-01-01T00:00:00Z 2028-12-31T23:59:59Z this_year    yearly
PERIODS

# ---- 6. Sub-agents: a dispatch's cost_budget, the owner of an unowned child ----
SD=$TMP/state-sub
cat >"$TMP/sub.yaml" <<'YAML'
policies:
  daily:
    type: function
    handler: omnigent.policies.builtins.cost.user_daily_cost_budget
    factory_params:
      max_cost_usd: 20.0
YAML
decide "$TMP/sub.yaml" "$(tool_call p1 henry claude-opus-4-5 '' sys_session_send '{"cost_budget":{"max_cost_usd":-1}}')"
expect "a dispatch with an invalid cost_budget is denied" DENY \
    "sys_session_send: invalid cost_budget: cost_budget.max_cost_usd must be > 0, got -1"
decide "$TMP/sub.yaml" "$(tool_call p1 henry claude-opus-4-5 '' sys_session_send '{"cost_budget":{"max_cost_usd":2.0,"ask_thresholds_usd":[1.0]}}')"
expect "a dispatch with a valid cost_budget goes ahead" ALLOW
# The child reports no owner of its own: its spend and its limits are its root's owner's.
printf '{"type":"llm_response","session_id":"c1","data":{"model":"x-unpriced","usage":{"input_tokens":10,"output_tokens":5,"cost_usd":1.5}},"context":{"parent_session_id":"p1"}}\n' |
    "$BIN" eval -c "$TMP/sub.yaml" --state-dir "$SD" >"$OUT" 2>"$ERR"
RC=$?
expect_rc "an llm_response with usage is recorded through eval" 0
decide "$TMP/sub.yaml" '{"type":"tool_call","session_id":"c1","target":"Bash","data":{"name":"Bash","arguments":{}},"context":{"parent_session_id":"p1","model":"claude-opus-4-5"}}' --on-ask decline
expect "the child runs under the dispatch's budget" ASK \
    "__subagent_cost_budget: Subagent subtree cost \$1.50 passed the \$1.00 warning threshold (limit \$2.00). Continue?"
record p1 henry 19
decide "$TMP/sub.yaml" '{"type":"tool_call","session_id":"c1","target":"Bash","data":{"name":"Bash","arguments":{}},"context":{"parent_session_id":"p1","model":"claude-opus-4-5"}}'
expect "an unowned child is charged to, and limited by, its root's owner" DENY
decide "$TMP/sub.yaml" "$(tool_call p2 henry claude-opus-4-5 '' sys_session_send '{}')"
expect "the daily limit covers henry's other sessions too" DENY

# ---- 7. A spawn tree mixing priced and unpriced usage still asks about the unpriced part ----
SD=$TMP/state-mixed
cat >"$TMP/cap.yaml" <<'YAML'
policies:
  cap:
    type: function
    handler: omnigent.policies.builtins.cost.cost_budget
    factory_params:
      max_cost_usd: 10.0
YAML
printf '{"session_id":"r1","user":"ivy","model":"priced-model","input_tokens":100,"output_tokens":10,"cost_usd":1.0}\n{"session_id":"r1-child","parent_session_id":"r1","model":"no-such-model-anywhere","input_tokens":100,"output_tokens":10}\n' |
    "$BIN" usage record --state-dir "$SD" >"$TMP/rec.out" 2>"$TMP/rec.err"
RC=$?
expect_rc "a priced and an unpriced row" 0 "$TMP/rec.err"
check "the summary counts the unpriced row" grep -q 'recorded 2 (0 duplicates, 1 unpriced), \$1.00' "$TMP/rec.out"
decide "$TMP/cap.yaml" "$(tool_call r1 ivy priced-model)" --on-ask approve
expect "the unpriced ASK fires although part of the tree is priced" ASK
decide "$TMP/cap.yaml" "$(tool_call r1-child ivy priced-model ',"parent_session_id":"r1"')"
expect "approved at the root: the child is covered (tree-wide approval)" ALLOW

# ---- 7b. Escapes that must not work (found in review) ----
# tool_result SESSION TOOL TOOL_USE_ID [ARGS] [CONTEXT_EXTRA]: the host reports the call as done.
tool_result() {
    printf '{"type":"tool_result","session_id":"%s","target":"%s","data":{"result":"ok"},"request_data":{"name":"%s","arguments":%s},"context":{"tool_use_id":"%s"%s}}' \
        "$1" "$2" "$2" "${4:-"{}"}" "$3" "${5:-}"
}
SD=$TMP/state-escape
cat >"$TMP/daily2.yaml" <<'YAML'
policies:
  daily:
    type: function
    handler: user_daily_cost_budget
    factory_params: {ask_thresholds_usd: [5, 7], max_cost_usd: 10}
YAML
record e1 lena 12
decide "$TMP/daily2.yaml" "$(tool_call e1 Lena claude-haiku-4-5)"
expect "another spelling of the session's owner is still the owner" DENY
decide "$TMP/daily2.yaml" "$(tool_call e1 'lena ' claude-haiku-4-5)"
expect "… and so is a padded one" DENY
printf '{"type":"llm_response","session_id":"e1","data":{"usage":{"input_tokens":1,"cost_usd":4}},"context":{"user":"x-1"}}\n' |
    "$BIN" eval -c "$TMP/daily2.yaml" --state-dir "$SD" >/dev/null 2>&1
"$BIN" spend --state-dir "$SD" --by user --json >"$OUT" 2>"$ERR"
check "usage reported under another user is charged to the session's owner" \
    json_lines "$OUT" '[(r["key"], r["cost_usd"]) for r in d[0]["rows"]] == [("lena", 16.0)]'

record e2 mona 6
decide "$TMP/daily2.yaml" "$(tool_call e2 mona claude-haiku-4-5 '' Bash '{}' t1)"
expect "the \$5 checkpoint asks; the call's approval waits under its tool_use_id" ASK
record e2 mona 2
decide "$TMP/daily2.yaml" "$(tool_result e2 Bash t1)"
expect "the call ran: its result is allowed" ALLOW
decide "$TMP/daily2.yaml" "$(tool_call e2 mona claude-haiku-4-5)" --on-ask decline
expect "the approval covers the \$5 checkpoint the person saw, not the \$7 one passed since" ASK \
    "daily: mona's spend today \$8.00 passed the \$7.00 daily warning threshold (daily limit \$10.00). Continue?"

SD=$TMP/state-disp
cat >"$TMP/default.yaml" <<'YAML'
subagents: {default_cost_budget: 5}
policies:
  cap:
    type: function
    handler: cost_budget
    factory_params: {max_cost_usd: 1000}
YAML
decide "$TMP/default.yaml" "$(tool_call q1 nina claude-haiku-4-5 '' sys_session_send '{"cost_budget":{"max_cost_usd":1000000}}')"
expect "a generous dispatch goes ahead" ALLOW
record q1-c nina 6 claude-haiku-4-5 ',"parent_session_id":"q1"'
decide "$TMP/default.yaml" "$(tool_call q1-c nina claude-haiku-4-5 ',"parent_session_id":"q1"')"
expect "… but cannot lift the child above subagents.default_cost_budget" DENY

SD=$TMP/state-declined
record d0 omar 2
cat >"$TMP/cap1.yaml" <<'YAML'
policies:
  cap:
    type: function
    handler: cost_budget
    factory_params: {ask_thresholds_usd: [1]}
YAML
decide "$TMP/cap1.yaml" "$(tool_call d0 omar claude-haiku-4-5 '' sys_session_send '{"cost_budget":{"max_cost_usd":1000}}' tA)"
expect "dispatch A asks (the session passed \$1) — and is never approved" ASK
decide "$TMP/cap1.yaml" "$(tool_call d0 omar claude-haiku-4-5 '' sys_session_send '{"cost_budget":{"max_cost_usd":3}}' tB)"
expect "dispatch B asks too" ASK
decide "$TMP/cap1.yaml" "$(tool_result d0 sys_session_send tB '{"cost_budget":{"max_cost_usd":3}}')"
expect "dispatch B ran (approved)" ALLOW
record d0-b omar 4 claude-haiku-4-5 ',"parent_session_id":"d0"'
decide "$TMP/cap1.yaml" "$(tool_call d0-b omar claude-haiku-4-5 ',"parent_session_id":"d0"')"
expect "B's child runs under B's \$3, not the declined dispatch's \$1000" DENY

SD=$TMP/state-nopolicy
cat >"$TMP/skills.yaml" <<'YAML'
policies:
  skills:
    type: function
    handler: block_skills
    factory_params: {blocked: [nothing]}
YAML
decide "$TMP/skills.yaml" "$(tool_call n0 pia claude-haiku-4-5 '' sys_session_send '{"cost_budget":{"max_cost_usd":3}}')"
expect "a dispatch under a config without cost policies" ALLOW
record n0-c pia 5 claude-haiku-4-5 ',"parent_session_id":"n0"'
decide "$TMP/skills.yaml" '{"type":"tool_call","session_id":"n0-c","target":"Bash","data":{"name":"Bash","arguments":{}},"context":{"model":"claude-haiku-4-5"}}'
expect "the child's later events need not restate the parent to stay under its budget" DENY
record n0-g pia 10 claude-haiku-4-5 ',"root_session_id":"n0-c"'
decide "$TMP/skills.yaml" "$(tool_call n0-c pia claude-haiku-4-5)"
expect "a grandchild naming the sub-agent as its root counts in the sub-agent's subtree" DENY \
    "Blocked by the subagent cost-budget policy: spend \$15.00 reached the \$3.00 limit, and all further tool calls are blocked. Relay this to the user verbatim, then stop and wait for them — do not silently re-run the tool right now: \"You've hit the \$3.00 subagent cost budget. All model calls are blocked over budget.\""

# ---- 8. Per-user budgets may not be stacked ----
cat >"$TMP/a.yaml" <<'YAML'
policies:
  monthly:
    type: function
    handler: user_period_cost_budget
    factory_params: {period: month, max_cost_usd: 100}
YAML
cat >"$TMP/b.yaml" <<'YAML'
policies:
  daily:
    type: function
    handler: user_daily_cost_budget
    factory_params: {max_cost_usd: 10}
YAML
printf '%s\n' "$(tool_call z1 zoe claude-opus-4-5)" >"$TMP/z.jsonl"
run_rampart "$OUT" "$ERR" eval -c "$TMP/a.yaml" -c "$TMP/b.yaml" --state-dir "$TMP/state-z" "$TMP/z.jsonl"
expect_rc "user_period_cost_budget with user_daily_cost_budget is a config error" 2
check "the error names both files and the fix" \
    bash -c "grep -q 'a.yaml' '$ERR' && grep -q 'b.yaml' '$ERR' && grep -q 'period: day' '$ERR'"

e2e_finish
