# lib.sh — shared helpers of the end-to-end scripts (sourced, not run).
#
# Each script calls e2e_init NAME BINARY SOURCE_DIR, then check/expect_* per assertion, then
# e2e_finish, which prints "NAME: N passed, M failed" and sets the exit status.

e2e_init() {
    E2E_NAME=$1
    BIN=$2
    ROOT=$3
    # Absolute, so that tests may cd into a project directory.
    case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
    case $ROOT in /*) ;; *) ROOT=$PWD/$ROOT ;; esac
    E2E_PASS=0
    E2E_FAIL=0
    if [ ! -x "$BIN" ]; then
        echo "$E2E_NAME: $BIN is not executable" >&2
        exit 2
    fi
    TMP=$(mktemp -d "${TMPDIR:-/tmp}/rampart-e2e.XXXXXX")
    trap 'rm -rf "$TMP"' EXIT
    # Hermetic: no real user config, state or clock leaks in.
    export XDG_CONFIG_HOME="$TMP/xdg-config" XDG_STATE_HOME="$TMP/xdg-state" HOME="$TMP/home"
    mkdir -p "$XDG_CONFIG_HOME" "$XDG_STATE_HOME" "$HOME"
    unset RAMPART_STATE_DIR RAMPART_NOW || true
}

pass() {
    E2E_PASS=$((E2E_PASS + 1))
    echo "ok   - $1"
}

fail() {
    E2E_FAIL=$((E2E_FAIL + 1))
    echo "FAIL - $1"
    if [ -n "${2:-}" ]; then
        printf '%s\n' "$2" | sed 's/^/       /' | head -20
    fi
}

# check DESCRIPTION COMMAND...: passes when the command succeeds.
check() {
    local desc=$1
    shift
    if "$@"; then pass "$desc"; else fail "$desc"; fi
}

# run_rampart OUT ERR ARGS...: runs the binary, stdout to OUT, stderr to ERR; sets RC.
run_rampart() {
    local out=$1 err=$2
    shift 2
    "$BIN" "$@" >"$out" 2>"$err"
    RC=$?
}

# expect_rc DESCRIPTION WANT [ERRFILE]: compares the last RC (shows ERRFILE, default $TMP/err).
expect_rc() {
    if [ "$RC" -eq "$2" ]; then
        pass "$1 (exit $2)"
    else
        fail "$1: exit $RC, expected $2" "$(cat "${3:-$TMP/err}" 2>/dev/null)"
    fi
}

# hook_allowed DESC: the last `rampart hook` call (its exit code in RC, its output in OUT and
# ERR) let the agent go on the way Claude Code and Codex read it: exit 0, nothing on stdout or
# stderr.
hook_allowed() {
    if [ "$RC" -eq 0 ] && [ ! -s "$OUT" ] && [ ! -s "$ERR" ]; then
        pass "$1: allowed"
    else
        fail "$1: want allowed (exit 0, no output); exit $RC" "stdout: $(cat "$OUT")
stderr: $(cat "$ERR")"
    fi
}

# json_lines FILE PYTHON_EXPR: evaluates EXPR with `d` = the list of parsed JSON lines of FILE.
# Fails (with the lines shown) when a line is not JSON or the expression is false.
json_lines() {
    python3 - "$1" "$2" <<'PY'
import json, sys
path, expr = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8") as f:
    raw = [line for line in f if line.strip()]
try:
    d = [json.loads(line) for line in raw]
except json.JSONDecodeError as e:
    print(f"       not JSON: {e}", file=sys.stderr)
    sys.exit(1)
try:
    ok = eval("(" + expr + "\n)", {"d": d, "json": json})
except Exception as e:  # an IndexError on a short output is a failed check, not a crash
    print(f"       {type(e).__name__}: {e}", file=sys.stderr)
    ok = False
if not ok:
    for line in raw[:12]:
        print("       " + line.rstrip()[:200], file=sys.stderr)
sys.exit(0 if ok else 1)
PY
}

# busy_start: a busy loop per core and one more, for the rest of the test (tests of behaviour
# under load). The loops are killed and TMP removed on exit.
busy_start() {
    BUSY=""
    local cores
    cores=$(nproc 2>/dev/null || echo 2)
    for _ in $(seq 0 "$cores"); do
        (while :; do :; done) &
        BUSY="$BUSY $!"
    done
    trap 'kill $BUSY 2>/dev/null; wait 2>/dev/null; rm -rf "$TMP"' EXIT
}

e2e_finish() {
    echo "$E2E_NAME: $E2E_PASS passed, $E2E_FAIL failed"
    [ "$E2E_FAIL" -eq 0 ]
}
