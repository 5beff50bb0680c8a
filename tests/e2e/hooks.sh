#!/usr/bin/env bash
# hooks.sh — `rampart hook HOST` run the way each host runs it, on the recorded payloads of
# tests/data/hosts/<host>/: for every case NAME, NAME.json is stdin and NAME.stdout (exact bytes),
# NAME.stderr (exact; absent = empty) and NAME.exit (absent = 0) are the expected answer. Cases
# of one host run in name order against one state directory (an ASK and the result that
# approves it are two cases), with tests/data/hosts/config.yaml. RAMPART_NOW fixes the clock.
#
# Then the fail-closed cases every host must pass: garbage stdin, a corrupt config, a locked
# state database, a policy that errors, the deadline; each is a DENY within the deadline on a
# pre-tool event and never a block on a stop event.
set -u
. "$(dirname "$0")/lib.sh"
e2e_init hooks "$1" "$2"
DATA=$ROOT/tests/data/hosts
CONFIG=$DATA/config.yaml
export RAMPART_NOW=2026-12-01T10:00:00Z
export USER=e2e-user

# play HOST CASE_DIR: every case of the host, in name order, one state directory.
play() {
    local host=$1 dir=$2 state="$TMP/state-$1" n=0
    mkdir -p "$state"
    for input in "$dir"/*.json; do
        [ -e "$input" ] || continue
        local name=${input%.json}
        [ -e "$name.stdout" ] || continue # a data file (a transcript), not a case
        n=$((n + 1))
        local want_exit=0
        [ -e "$name.exit" ] && want_exit=$(cat "$name.exit")
        (cd "$TMP" && "$BIN" hook "$host" -c "$CONFIG" --state-dir "$state" \
            <"$input" >"$TMP/out" 2>"$TMP/err")
        local rc=$? case=$host/$(basename "$name")
        local problems=""
        cmp -s "$TMP/out" "$name.stdout" ||
            problems+="stdout: $(cat "$TMP/out")"$'\n'"  want: $(cat "$name.stdout")"$'\n'
        if [ -e "$name.stderr" ]; then
            cmp -s "$TMP/err" "$name.stderr" ||
                problems+="stderr: $(cat "$TMP/err")"$'\n'"  want: $(cat "$name.stderr")"$'\n'
        elif [ -s "$TMP/err" ]; then
            problems+="stderr (want none): $(cat "$TMP/err")"$'\n'
        fi
        [ "$rc" -eq "$want_exit" ] || problems+="exit $rc, want $want_exit"$'\n'
        if [ -z "$problems" ]; then pass "$case"; else fail "$case" "$problems"; fi
    done
    [ "$n" -gt 0 ] || fail "$host: no cases in $dir"
}

for host in claude-code codex cursor gemini pi opencode; do
    play "$host" "$DATA/$host"
done

# ---- rampart approve: the other way to approve a prompt ASK ----
prompt='{"session_id":"ap-1","transcript_path":null,"cwd":"/tmp","permission_mode":"default","hook_event_name":"UserPromptSubmit","prompt":"deploy it ASKME"}'
printf '%s' "$prompt" | "$BIN" hook claude-code -c "$CONFIG" --state-dir "$TMP/ap" >"$TMP/out" 2>"$TMP/err"
approve_cmd=$(grep -o 'rampart approve [^`]*' "$TMP/out")
if [ -n "$approve_cmd" ]; then
    pass "prompt ASK names the approve command"
    # shellcheck disable=SC2086
    "$BIN" ${approve_cmd#rampart } --state-dir "$TMP/ap" >"$TMP/out" 2>"$TMP/err"
    RC=$?
    expect_rc "rampart approve" 0
    printf '%s' "$prompt" | "$BIN" hook claude-code -c "$CONFIG" --state-dir "$TMP/ap" >"$TMP/out" 2>"$TMP/err"
    if [ ! -s "$TMP/out" ]; then pass "after rampart approve the prompt goes through"; else fail "after rampart approve the prompt goes through" "$(cat "$TMP/out")"; fi
    "$BIN" ${approve_cmd#rampart } --state-dir "$TMP/ap" >"$TMP/out" 2>"$TMP/err"
    RC=$?
    expect_rc "approving twice: nothing waits any more" 1
else
    fail "prompt ASK names the approve command" "$(cat "$TMP/out")"
fi

# ---- a resend approves only the question the person saw ----
{ cat "$CONFIG"; cat <<'YAML'
  always_ask:
    type: function
    handler: cel_policy
    factory_params:
      expression: 'event.type == "request" ? {"result": "ASK", "reason": "second question"} : {"result": "ALLOW"}'
YAML
} >"$TMP/two-askers.yaml"
prompt='{"session_id":"rs-1","transcript_path":null,"cwd":"/tmp","permission_mode":"default","hook_event_name":"UserPromptSubmit","prompt":"go on ASKME"}'
printf '%s' "$prompt" | "$BIN" hook claude-code -c "$CONFIG" --state-dir "$TMP/rs" >/dev/null 2>&1
printf '%s' "$prompt" | "$BIN" hook claude-code -c "$TMP/two-askers.yaml" --state-dir "$TMP/rs" >"$TMP/out" 2>"$TMP/err"
if grep -q '"decision":"block".*second question' "$TMP/out"; then
    pass "a resend asked about by another policy asks again"
else
    fail "a resend asked about by another policy asks again" "$(cat "$TMP/out" "$TMP/err")"
fi

# ---- fail closed, host-independent ----

pre='{"session_id":"s1","transcript_path":null,"cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_fc"}'
stop='{"session_id":"s1","transcript_path":null,"cwd":"/tmp","hook_event_name":"Stop","stop_hook_active":false}'

# hook_case DESC INPUT WANT_EXIT STDOUT_SUBSTRING [ARGS...]: runs a claude-code hook call and
# checks its exit status, that stdout holds the substring (empty: stdout must be empty) and that
# it took less than 2 s.
hook_case() {
    local desc=$1 input=$2 want_exit=$3 want=$4
    shift 4
    local t0 t1
    t0=$(date +%s%N)
    printf '%s' "$input" | "$BIN" hook claude-code "$@" >"$TMP/out" 2>"$TMP/err"
    local rc=$?
    t1=$(date +%s%N)
    local ms=$(((t1 - t0) / 1000000)) problems=""
    [ "$rc" -eq "$want_exit" ] || problems+="exit $rc, want $want_exit"$'\n'
    if [ -z "$want" ]; then
        [ -s "$TMP/out" ] && problems+="stdout not empty: $(cat "$TMP/out")"$'\n'
    else
        grep -qF -- "$want" "$TMP/out" || problems+="stdout: $(cat "$TMP/out")"$'\n'"  want: $want"$'\n'
    fi
    [ "$ms" -lt 2000 ] || problems+="took $ms ms"$'\n'
    if [ -z "$problems" ]; then pass "$desc"; else fail "$desc" "$problems$(cat "$TMP/err")"; fi
}

deny='"permissionDecision":"deny"'
hook_case "garbage stdin: pre-tool deny" 'this is not json' 0 "$deny" -c "$CONFIG" --state-dir "$TMP/fc"
hook_case "garbage stdin: names the problem" 'this is not json' 0 'the hook input is not JSON' -c "$CONFIG" --state-dir "$TMP/fc"
hook_case "empty stdin: pre-tool deny" '' 0 "$deny" -c "$CONFIG" --state-dir "$TMP/fc"

printf 'policies:\n  broken: [unclosed\n' >"$TMP/corrupt.yaml"
hook_case "corrupt config: pre-tool deny" "$pre" 0 "$deny" -c "$TMP/corrupt.yaml" --state-dir "$TMP/fc"
hook_case "corrupt config: names the file" "$pre" 0 'corrupt.yaml:' -c "$TMP/corrupt.yaml" --state-dir "$TMP/fc"
hook_case "corrupt config: no block on Stop" "$stop" 0 "" -c "$TMP/corrupt.yaml" --state-dir "$TMP/fc"

cat >"$TMP/erroring.yaml" <<'YAML'
policies:
  broken_cel:
    type: function
    handler: cel_policy
    factory_params:
      on_error: deny
      expression: 'event.data.arguments.command.size() / 0 > 1 ? {"result": "ALLOW"} : {"result": "ALLOW"}'
YAML
hook_case "erroring policy: pre-tool deny" "$pre" 0 "$deny" -c "$TMP/erroring.yaml" --state-dir "$TMP/fc"
hook_case "erroring policy: no block on Stop" "$stop" 0 "" -c "$TMP/erroring.yaml" --state-dir "$TMP/fc"

printf 'not a directory' >"$TMP/state-file"
hook_case "unopenable store: pre-tool deny" "$pre" 0 "$deny" -c "$CONFIG" --state-dir "$TMP/state-file"
hook_case "unopenable store: no block on Stop" "$stop" 0 "" -c "$CONFIG" --state-dir "$TMP/state-file"

# A locked database: another process holds an exclusive transaction longer than the deadline.
mkdir -p "$TMP/locked"
printf '%s' "$pre" | "$BIN" hook claude-code -c "$CONFIG" --state-dir "$TMP/locked" >/dev/null 2>&1
db=$(ls "$TMP"/locked/*.db 2>/dev/null | head -1)
if [ -n "$db" ] && command -v python3 >/dev/null; then
    python3 - "$db" >"$TMP/locker.out" 2>&1 <<'PY' &
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(4)
PY
    locker=$!
    for _ in $(seq 50); do grep -q locked "$TMP/locker.out" 2>/dev/null && break; sleep 0.05; done
    cat >"$TMP/short.yaml" <<YAML
hosts:
  claude-code: {deadline_ms: 500}
policies:
  loop:
    type: function
    handler: detect_loop
YAML
    hook_case "locked store: pre-tool deny within the deadline" "$pre" 0 "$deny" -c "$TMP/short.yaml" --state-dir "$TMP/locked"
    hook_case "locked store: the reason names the deadline" "$pre" 0 'could not decide within 500 ms' -c "$TMP/short.yaml" --state-dir "$TMP/locked"
    hook_case "locked store: no block on Stop" "$stop" 0 "" -c "$TMP/short.yaml" --state-dir "$TMP/locked"
    kill "$locker" 2>/dev/null
    wait "$locker" 2>/dev/null
else
    fail "locked store: no database was created in $TMP/locked"
fi

e2e_finish
