#!/usr/bin/env bash
# hook_faults.sh BINARY SOURCE_DIR — process faults that must still give an answer (issue 16).
#
# * A uid that is in no passwd file, with $USER/$LOGNAME unset (containers run as -u 12345,
#   NSS-only users): the static binary must not load NSS for a name; hook, eval, usage record
#   and spend answer as usual, with "uid:N" as the OS user.
# * `ulimit -f 0`: the store write fails with EFBIG instead of a SIGXFSZ death (exit 153), and
#   the pre-tool call is denied.
# * Every catchable signal that ends a process (SIGTERM, SIGXCPU, SIGHUP, SIGINT, SIGQUIT,
#   SIGUSR1/2, SIGPWR, SIGVTALRM, SIGPROF) and, outside sanitizer builds, the crash signals
#   (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS, SIGTRAP) sent to a hook stuck on a locked
#   store: the deadline's prepared answer.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init hook_faults "$1" "$2"

CONFIG=$ROOT/tests/data/hosts/config.yaml
pre='{"session_id":"f1","transcript_path":null,"cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"toolu_f1"}'
deny='"permissionDecision":"deny"'
export RAMPART_NOW=2026-05-04T10:00:00Z

# ---- a uid in no passwd file, no $USER / $LOGNAME ----
NOBODY=54321
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && ! getent passwd "$NOBODY" >/dev/null; then
    U=$TMP/uid
    mkdir -p "$U/state" "$U/home"
    cp "$CONFIG" "$U/config.yaml"
    chown -R "$NOBODY:$NOBODY" "$U"
    chmod 0755 "$TMP"
    as_nobody() {
        (cd "$U" && env -u USER -u LOGNAME HOME="$U/home" XDG_STATE_HOME="$U/home/state" \
            XDG_CONFIG_HOME="$U/home/config" \
            setpriv --reuid "$NOBODY" --regid "$NOBODY" --clear-groups "$BIN" "$@")
    }
    printf '%s' "$pre" | as_nobody hook claude-code -c "$U/config.yaml" --state-dir "$U/state" \
        >"$TMP/out" 2>"$TMP/err"
    RC=$?
    if [ "$RC" -eq 0 ] && grep -q "$deny" "$TMP/out" && ! grep -q 'could not decide' "$TMP/out"; then
        pass "unknown uid: hook denies rm -rf / (a decision, not the crash answer)"
    else
        fail "unknown uid: hook denies rm -rf /" "exit $RC: $(cat "$TMP/out" "$TMP/err")"
    fi
    # The OS user is "uid:N" (docs/hosts.md): a policy sees it as context.user.
    cat >"$U/whoami.yaml" <<'YAML'
policies:
  whoami:
    type: function
    handler: cel_policy
    factory_params:
      expression: >-
        event.type == "tool_call"
          ? {"result": "DENY", "reason": "user=" + event.?context.?user.orValue("none")}
          : {"result": "ALLOW"}
YAML
    chmod 0644 "$U/whoami.yaml"
    printf '%s' "$pre" | as_nobody hook claude-code -c "$U/whoami.yaml" --state-dir "$U/state" \
        >"$TMP/out" 2>"$TMP/err"
    RC=$?
    if [ "$RC" -eq 0 ] && grep -q 'user=uid:54321' "$TMP/out"; then
        pass "unknown uid: context.user is uid:54321"
    else
        fail "unknown uid: context.user is uid:54321" "exit $RC: $(cat "$TMP/out" "$TMP/err")"
    fi
    echo '{"type":"tool_call","session_id":"f2","target":"Bash","data":{"name":"Bash","arguments":{"command":"rm -rf /"}},"context":{"cwd":"/tmp"}}' |
        as_nobody eval -c "$U/config.yaml" --state-dir "$U/state" >"$TMP/out" 2>"$TMP/err"
    RC=$?
    if [ "$RC" -lt 128 ] && grep -qi 'deny' "$TMP/out"; then
        pass "unknown uid: eval denies rm -rf /"
    else
        fail "unknown uid: eval denies rm -rf /" "exit $RC: $(cat "$TMP/out" "$TMP/err")"
    fi
    echo '{"session_id":"f3","model":"m","input_tokens":10,"output_tokens":1,"cost_usd":0.25,"id":"r1"}' |
        as_nobody usage record -q --state-dir "$U/state" >"$TMP/out" 2>"$TMP/err"
    RC=$?
    if [ "$RC" -eq 0 ]; then
        pass "unknown uid: usage record"
    else
        fail "unknown uid: usage record" "exit $RC: $(cat "$TMP/out" "$TMP/err")"
    fi
    as_nobody spend --state-dir "$U/state" >"$TMP/out" 2>"$TMP/err"
    RC=$?
    if [ "$RC" -eq 0 ] && grep -q '0.25' "$TMP/out"; then
        pass "unknown uid: spend shows the recorded cost"
    else
        fail "unknown uid: spend shows the recorded cost" "exit $RC: $(cat "$TMP/out" "$TMP/err")"
    fi
    # No $HOME either, and no state dir given: a clear error, not a passwd lookup (a segfault).
    echo '{"type":"tool_call","session_id":"f4","target":"Bash","data":{"name":"Bash","arguments":{"command":"ls"}}}' >"$U/ev.jsonl"
    echo '{"session_id":"f4","model":"m","input_tokens":1,"output_tokens":1,"cost_usd":0.01,"id":"r2"}' >"$U/us.jsonl"
    chmod 0644 "$U/ev.jsonl" "$U/us.jsonl"
    for cmd in "eval -c $U/config.yaml $U/ev.jsonl" "usage record $U/us.jsonl" "spend"; do
        # shellcheck disable=SC2086
        (cd "$U" && env -i PATH="$PATH" setpriv --reuid "$NOBODY" --regid "$NOBODY" --clear-groups \
            "$BIN" $cmd) >"$TMP/out" 2>"$TMP/err"
        RC=$?
        if [ "$RC" -eq 1 ] && grep -q 'set RAMPART_STATE_DIR or HOME' "$TMP/err"; then
            pass "unknown uid, no HOME: ${cmd%% *} says how to name the state directory"
        else
            fail "unknown uid, no HOME: ${cmd%% *} says how to name the state directory" \
                "exit $RC: $(cat "$TMP/out" "$TMP/err")"
        fi
    done
else
    echo "skip - unknown uid cases need root, setpriv and a free uid $NOBODY"
fi

# ---- ulimit -f 0: no SIGXFSZ death, a deny ----
mkdir -p "$TMP/fsz"
# The answer goes through a pipe: under the limit a file could not hold it either.
(
    ulimit -f 0
    printf '%s' "$pre" | "$BIN" hook claude-code -c "$CONFIG" --state-dir "$TMP/fsz" 2>&1
) | cat >"$TMP/out"
RC=${PIPESTATUS[0]}
: >"$TMP/err"
if [ "$RC" -eq 0 ] && grep -q "$deny" "$TMP/out"; then
    pass "ulimit -f 0: pre-tool deny, not a SIGXFSZ death"
else
    fail "ulimit -f 0: pre-tool deny, not a SIGXFSZ death" "exit $RC: $(cat "$TMP/out" "$TMP/err")"
fi

# ---- ulimit -v: the first allocation fails; the answer was prepared before it ----
# Below some limit the binary cannot even be loaded (a death before main, nothing to answer
# with); just above it, main runs and its first malloc fails. Sweep the limits: some must give
# the static deny, and every answer that comes must be a deny.
# A sanitized build reserves terabytes of address space at start: no limit leaves it a malloc
# to fail, so the sweep says so and proves nothing there (the normal build runs it).
if grep -q -a AddressSanitizer "$BIN"; then
    echo "skip - ulimit -v: a sanitized binary cannot run under ulimit -v (checked in the normal build)"
else
    mkdir -p "$TMP/vm"
    early=0 bad=""
    # The window sits just above what loading the binary takes, which grows with its size.
    # The file size counts debug info too, which grows faster than what is loaded: the window
    # reaches 6 MB below it (below the load size every run is a death before main, accepted).
    size_kb=$(($(stat -c %s "$BIN") / 1024))
    for v in $(seq $((size_kb - 6000)) 50 $((size_kb + 8000))); do
        out=$( (
            ulimit -v "$v"
            printf '%s' "$pre" | "$BIN" hook claude-code -c "$CONFIG" --state-dir "$TMP/vm/$v" 2>&1
            echo "rc=$?"
        ) 2>/dev/null)
        case $out in
        *"failed before it could decide"*rc=2) early=$((early + 1)) ;;
        rc=139 | *"$deny"*rc=0) ;;
        *"Cannot allocate TLS block"*) ;; # glibc's start-up, before main: a death, no answer
        *) bad+="ulimit -v $v: $out"$'\n' ;;
        esac
    done
    if [ "$early" -gt 0 ] && [ -z "$bad" ]; then
        pass "ulimit -v: the first malloc failing gives the static deny ($early limits)"
    else
        fail "ulimit -v: the first malloc failing gives the static deny ($early limits)" "$bad"
    fi
fi

# ---- every catchable fatal signal to a hook stuck on a locked store ----
mkdir -p "$TMP/locked"
printf '%s' "$pre" | "$BIN" hook claude-code -c "$CONFIG" --state-dir "$TMP/locked" >/dev/null 2>&1
db=$(ls "$TMP"/locked/*.db 2>/dev/null | head -1)
cat >"$TMP/slow.yaml" <<YAML
hosts:
  claude-code: {deadline_ms: 20000}
policies:
  loop:
    type: function
    handler: detect_loop
YAML
if [ -n "$db" ] && command -v python3 >/dev/null; then
    python3 - "$db" >"$TMP/locker.out" 2>&1 <<'PY' &
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(60)
PY
    locker=$!
    for _ in $(seq 50); do grep -q locked "$TMP/locker.out" 2>/dev/null && break; sleep 0.05; done
    # signal_case SIG WHAT: SIG sent to a hook stuck on the lock gives the prepared deny.
    signal_case() {
        printf '%s' "$pre" >"$TMP/in"
        "$BIN" hook claude-code -c "$TMP/slow.yaml" --state-dir "$TMP/locked" <"$TMP/in" \
            >"$TMP/out" 2>"$TMP/err" &
        local hook=$!
        sleep 0.5
        kill -s "$1" "$hook"
        wait "$hook"
        RC=$?
        if [ "$RC" -eq 0 ] && grep -q "$deny" "$TMP/out" && grep -q 'could not decide' "$TMP/out"; then
            pass "SIG$1 $2: the prepared deny"
        else
            fail "SIG$1 $2: the prepared deny" "exit $RC: $(cat "$TMP/out" "$TMP/err")"
        fi
    }
    for sig in TERM XCPU HUP INT QUIT USR1 USR2 PWR VTALRM PROF; do
        signal_case "$sig" "to a stuck hook"
    done
    # The kernel's own fatal signals (a fault, SIGSYS from a seccomp filter, an abort) stand for
    # a crash: the same prepared answer. Not in a sanitizer build, whose reports are its point.
    if grep -q -a AddressSanitizer "$BIN"; then
        echo "skip - crash signals: a sanitized build reports crashes itself (checked in the normal build)"
    else
        for sig in SEGV BUS FPE ILL ABRT SYS TRAP; do
            signal_case "$sig" "(a crash) in a stuck hook"
        done
    fi
    kill "$locker" 2>/dev/null
    wait "$locker" 2>/dev/null
else
    fail "locked store: no database was created in $TMP/locked"
fi

e2e_finish
