#!/usr/bin/env bash
# store_faults.sh BINARY SOURCE_DIR — the SQLite state store under file-system faults (issue 16,
# points 3, 6, 11 and 12), run the way a host runs the hook: `rampart hook claude-code`, the
# payload on stdin, a temporary HOME.
#
# * A symlink on the way to the state directory ($HOME, ~/.local/state) works.
# * Refused, fail closed with the fix named (and reported by `rampart doctor`): a symlink at
#   state.db, a 0777 state directory, a 0666 database, a database or -wal of another uid, a hard
#   link at state.db (whose target keeps its mode). A -wal of ours readable by others is
#   narrowed to 0600.
# * A full file system (a small tmpfs): the call that cannot write is denied, and the store
#   recovers by itself — on the next call when the WAL was what filled it, once space is freed
#   otherwise.
# * A broken audit table (dropped, or a trigger that raises): the call is denied and its state
#   update is not committed.
#
# The uid and tmpfs cases need root (chown, mount in a private mount namespace); without it they
# are skipped with a message, unless CI=true, where they fail.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init store_faults "$1" "$2"

export RAMPART_NOW=2026-05-04T10:00:00Z
CONFIG=$TMP/config.yaml
cat >"$CONFIG" <<'YAML'
policies:
  markers:
    type: function
    handler: cel_policy
    factory_params:
      expression: >-
        event.type == "tool_call" && type(event.data) == map &&
          event.data.?arguments.orValue({}).exists(k, type(event.data.arguments[k]) == string
            && event.data.arguments[k].contains("DENYME"))
          ? {"result": "DENY", "reason": "marker"} : {"result": "ALLOW"}
  calls:
    type: function
    handler: max_tool_calls_per_session
    factory_params: {limit: 100000}
YAML

# payload SESSION COMMAND: a Claude Code PreToolUse for Bash.
payload() {
    printf '{"session_id":"%s","transcript_path":null,"cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"},"tool_use_id":"toolu_%s"}' \
        "$1" "$2" "$1"
}

OUT=$TMP/out
ERR=$TMP/err
# hook SESSION COMMAND [ARGS...]: one PreToolUse through the hook; RC, OUT, ERR.
hook() {
    local sid=$1 cmd=$2
    shift 2
    payload "$sid" "$cmd" | (cd "$TMP" && "$BIN" hook claude-code -c "$CONFIG" "$@") >"$OUT" 2>"$ERR"
    RC=$?
}

# hook_home HOME SESSION COMMAND: hook with that $HOME and no XDG_STATE_HOME (the default
# state directory under $HOME).
hook_home() {
    payload "$2" "$3" | (cd "$TMP" && env -u XDG_STATE_HOME HOME="$1" "$BIN" hook claude-code -c "$CONFIG") >"$OUT" 2>"$ERR"
    RC=$?
}

# denied_for DESC PATTERN: the last hook call was a fail-closed deny whose reason matches PATTERN.
denied_for() {
    if [ "$RC" -eq 0 ] && grep -q '"permissionDecision":"deny"' "$OUT" &&
        grep -q 'state store' "$OUT" && grep -q -- "$2" "$OUT"; then
        pass "$1: denied, naming the cause"
    else
        fail "$1: want a store-error deny matching '$2'; exit $RC" "stdout: $(cat "$OUT")
stderr: $(cat "$ERR")"
    fi
}

mode_of() { stat -c '%a' "$1"; }

# privileged DESC: true when the case can run as root; otherwise skips (or fails under CI).
privileged() {
    if [ "$(id -u)" -eq 0 ]; then
        return 0
    fi
    if [ "${CI:-}" = true ]; then
        fail "$1: needs root, and CI=true"
    else
        echo "skip - $1: needs root"
    fi
    return 1
}

# ---- point 3: a symlink on the way to the state directory ----
mkdir -p "$TMP/real/home"
ln -s "$TMP/real/home" "$TMP/linkhome"
hook_home "$TMP/linkhome" s1 ls
hook_allowed "symlinked \$HOME"
if [ -f "$TMP/real/home/.local/state/rampart/state.db" ]; then
    pass "symlinked \$HOME: the store is in the link's target"
else
    fail "symlinked \$HOME: no state.db under the target"
fi
mkdir -p "$TMP/real/state" "$TMP/home2/.local"
ln -s "$TMP/real/state" "$TMP/home2/.local/state"
hook_home "$TMP/home2" s1 ls
hook_allowed "symlinked ~/.local/state"
hook_home "$TMP/home2" s1 "echo DENYME"
if [ "$RC" -eq 0 ] && grep -q '"permissionDecision":"deny".*marker' "$OUT" && ! grep -q 'state store' "$OUT"; then
    pass "symlinked ~/.local/state: a policy decides (no store error)"
else
    fail "symlinked ~/.local/state: a policy decides" "$(cat "$OUT" "$ERR")"
fi
mkdir -p "$TMP/real/sd"
ln -s "$TMP/real/sd" "$TMP/sdlink"
hook s1 ls --state-dir "$TMP/sdlink/"
hook_allowed "--state-dir through a symlink"

# ---- point 6: refused files and directories ----
S=$TMP/s-dblink
mkdir -p "$S" "$TMP/elsewhere"
ln -s "$TMP/elsewhere/state.db" "$S/state.db"
hook s1 ls --state-dir "$S"
denied_for "symlink at state.db" "state.db is a symbolic link"
if [ ! -e "$TMP/elsewhere/state.db" ]; then
    pass "symlink at state.db: its target is not created"
else
    fail "symlink at state.db: its target was created"
fi

S=$TMP/s-wallink
mkdir -p "$S"
hook s1 ls --state-dir "$S"
rm -f "$S/state.db-wal"
ln -s "$TMP/elsewhere/wal" "$S/state.db-wal"
hook s1 ls --state-dir "$S"
denied_for "symlink at state.db-wal" "state.db-wal is a symbolic link"
if [ ! -e "$TMP/elsewhere/wal" ]; then
    pass "symlink at state.db-wal: its target is not created"
else
    fail "symlink at state.db-wal: its target was created"
fi

S=$TMP/s-0777
mkdir -p "$S"
chmod 0777 "$S"
hook s1 ls --state-dir "$S"
denied_for "0777 state directory" "chmod go-w"
if [ ! -e "$S/state.db" ]; then
    pass "0777 state directory: nothing created in it"
else
    fail "0777 state directory: state.db was created in it"
fi
RAMPART_STATE_DIR=$S "$BIN" doctor >"$TMP/doctor" 2>&1
RC=$?
if [ "$RC" -ne 0 ] && grep -q '^state: BROKEN: .*writable by group and others.*chmod go-w' "$TMP/doctor"; then
    pass "doctor reports the 0777 state directory with the fix"
else
    fail "doctor reports the 0777 state directory" "exit $RC: $(cat "$TMP/doctor")"
fi
chmod 0775 "$S"
hook s1 ls --state-dir "$S"
denied_for "0775 state directory" "writable by its group"
chmod 0755 "$S"
hook s1 ls --state-dir "$S"
hook_allowed "0755 state directory of ours"
RAMPART_STATE_DIR=$S "$BIN" doctor >"$TMP/doctor" 2>&1
RC=$?
if [ "$RC" -eq 0 ] && grep -q "^state: ok ($S)" "$TMP/doctor"; then
    pass "doctor: a 0755 state directory of ours is ok"
else
    fail "doctor: a 0755 state directory of ours is ok" "exit $RC: $(cat "$TMP/doctor")"
fi

S=$TMP/s-0666
mkdir -p "$S"
hook s1 ls --state-dir "$S"
chmod 0666 "$S/state.db"
hook s1 ls --state-dir "$S"
denied_for "0666 state.db" "chmod 600"
RAMPART_STATE_DIR=$S "$BIN" doctor >"$TMP/doctor" 2>&1
if grep -q '^state: BROKEN: .*state.db is writable .*chmod 600' "$TMP/doctor"; then
    pass "doctor reports the 0666 database with the fix"
else
    fail "doctor reports the 0666 database" "$(cat "$TMP/doctor")"
fi
chmod 0644 "$S/state.db"
chmod 0644 "$S/state.db-wal"
hook s1 ls --state-dir "$S"
hook_allowed "0644 state.db of ours"
if [ "$(mode_of "$S/state.db")" = 600 ] && [ "$(mode_of "$S/state.db-wal")" = 600 ]; then
    pass "a database and -wal of ours readable by others are narrowed to 0600"
else
    fail "narrowed to 0600" "state.db $(mode_of "$S/state.db"), -wal $(mode_of "$S/state.db-wal")"
fi

S=$TMP/s-hardlink
mkdir -p "$S"
: >"$TMP/victim"
chmod 0644 "$TMP/victim"
ln "$TMP/victim" "$S/state.db"
hook s1 ls --state-dir "$S"
denied_for "hard link at state.db" "hard links"
if [ "$(mode_of "$TMP/victim")" = 644 ] && [ ! -s "$TMP/victim" ]; then
    pass "hard link at state.db: the link's target keeps its mode and content"
else
    fail "hard link at state.db: the target changed" "mode $(mode_of "$TMP/victim"), $(stat -c %s "$TMP/victim") bytes"
fi

if privileged "a state.db of another uid"; then
    S=$TMP/s-foreign
    mkdir -p "$S"
    hook s1 ls --state-dir "$S"
    chown 12345:12345 "$S/state.db"
    hook s1 ls --state-dir "$S"
    denied_for "state.db owned by uid 12345" "belongs to uid 12345"
    RAMPART_STATE_DIR=$S "$BIN" doctor >"$TMP/doctor" 2>&1
    if grep -q '^state: BROKEN: .*belongs to uid 12345' "$TMP/doctor"; then
        pass "doctor reports the foreign database"
    else
        fail "doctor reports the foreign database" "$(cat "$TMP/doctor")"
    fi
    chown "$(id -u):$(id -g)" "$S/state.db"
    chown 12345:12345 "$S/state.db-wal"
    hook s1 ls --state-dir "$S"
    denied_for "state.db-wal owned by uid 12345" "state.db-wal belongs to uid 12345"

    S=$TMP/s-foreigndir
    mkdir -p "$S"
    chown 12345:12345 "$S"
    chmod 0700 "$S"
    hook s1 ls --state-dir "$S"
    denied_for "state directory owned by uid 12345" "belongs to uid 12345"
fi

# ---- point 12: a broken audit table ----
sql() { python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript(sys.argv[2])
db.commit()' "$@"; }
calls_of() { python3 -c 'import sqlite3, sys, json
db = sqlite3.connect(sys.argv[1])
row = db.execute("SELECT state FROM session_state WHERE session_id = ?", (sys.argv[2],)).fetchone()
print(json.dumps(json.loads(row[0]), sort_keys=True) if row else "none")' "$@"; }

# audit_broken WHAT SESSION SQL PATTERN: after one good call, SQL breaks the audit table; the next
# call must be a store-error deny matching PATTERN, and its state update must not be committed.
audit_broken() {
    S=$TMP/s-audit-$2
    mkdir -p "$S"
    hook "$2" ls --state-dir "$S"
    hook_allowed "$1: a first call"
    local before after
    before=$(calls_of "$S/state.db" "$2")
    sql "$S/state.db" "$3"
    hook "$2" ls --state-dir "$S"
    denied_for "$1" "$4"
    after=$(calls_of "$S/state.db" "$2")
    if [ "$before" = "$after" ]; then
        pass "$1: the call's state update is not committed"
    else
        fail "$1: the state changed without an audit row" "before $before
after  $after"
    fi
}

audit_broken "audit table dropped" a1 "DROP TABLE audit;" "audit"
audit_broken "audit table renamed" a3 "ALTER TABLE audit RENAME TO audit_old;" "audit"
audit_broken "audit table missing a column" a4 \
    "ALTER TABLE audit RENAME TO audit_old; CREATE TABLE audit(id INTEGER PRIMARY KEY, time_us BIGINT, session_id TEXT);" \
    "audit"
audit_broken "audit trigger raising" a2 \
    "CREATE TRIGGER no_audit BEFORE INSERT ON audit BEGIN SELECT RAISE(ABORT, 'audit refused'); END;" \
    "audit refused"
# S is still the last store audit_broken used (the trigger's).
sql "$S/state.db" "DROP TRIGGER no_audit;"
hook a2 ls --state-dir "$S"
hook_allowed "audit trigger removed: the store works again"

# ---- point 11: a full file system ----
# Runs in a private mount namespace, so the tmpfs disappears with it. The inner script writes
# each call's output to $TMP/full/N.out (outside the tmpfs) and its own notes to $TMP/full/log.
if privileged "a full tmpfs" && ! command -v unshare >/dev/null; then
    if [ "${CI:-}" = true ]; then fail "a full tmpfs: no unshare, and CI=true"; else echo "skip - a full tmpfs: no unshare"; fi
elif [ "$(id -u)" -eq 0 ]; then
    mkdir -p "$TMP/full" "$TMP/mnt"
    cat >"$TMP/full.sh" <<'SH'
set -u
BIN=$1 CONFIG=$2 MNT=$3 OUT=$4 SIZE=$5
mount -t tmpfs -o "size=$SIZE" tmpfs "$MNT" || exit 99
call() { # N SESSION COMMAND
    printf '{"session_id":"%s","transcript_path":null,"cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"},"tool_use_id":"toolu_%s"}' "$2" "$3" "$1" |
        "$BIN" hook claude-code -c "$CONFIG" --state-dir "$MNT/state" >"$OUT/$1.out" 2>"$OUT/$1.err"
    echo "$?" >"$OUT/$1.rc"
}
# Phase 1: a file system with less room than a 100-frame WAL; nothing else on it.
for i in $(seq 1 150); do
    call "w$i" f1 "echo $i $(head -c 600 /dev/zero | tr '\0' x)"
done
df -k "$MNT" >"$OUT/df1"
# Phase 2: fill what is left, then free it.
head -c 10M /dev/zero >"$MNT/filler" 2>/dev/null
call full f1 "echo full"
stat -c %s "$MNT/state/state.db-wal" >"$OUT/walsize"
call full2 f1 "echo full2"
rm -f "$MNT/filler"
call freed f1 "echo freed"
df -k "$MNT" >"$OUT/df2"
ls -la "$MNT/state" >"$OUT/ls"
umount "$MNT"
SH
    unshare -m --propagation private bash "$TMP/full.sh" "$BIN" "$CONFIG" "$TMP/mnt" "$TMP/full" 400k
    RC=$?
    if [ "$RC" -eq 99 ]; then
        if [ "${CI:-}" = true ]; then fail "a full tmpfs: cannot mount a tmpfs, and CI=true"; else echo "skip - a full tmpfs: cannot mount"; fi
    else
        # is_store_deny N / is_allow N on the saved outputs.
        is_store_deny() { grep -q '"permissionDecision":"deny".*state store' "$TMP/full/$1.out"; }
        is_allow() { [ "$(cat "$TMP/full/$1.rc")" = 0 ] && [ ! -s "$TMP/full/$1.out" ]; }
        # Without the early checkpoint the WAL fills the disk after a dozen calls, no checkpoint
        # can empty it any more (the database would have to grow by as much), and every later
        # call is denied.
        denied=""
        for i in $(seq 1 150); do
            is_allow "w$i" || denied="$denied $i"
        done
        if [ -z "$denied" ]; then
            pass "150 calls on a file system with less room than a 100-frame WAL: all decided"
        else
            fail "150 calls on a small file system: calls$denied denied" \
                "$(cat "$TMP/full/df1" "$TMP/full/w150.out")"
        fi
        if is_store_deny full && grep -q 'full' "$TMP/full/full.out"; then
            pass "file system filled by another file: denied, naming the full disk"
        else
            fail "file system filled by another file: want a deny" "$(cat "$TMP/full/full.out" "$TMP/full/full.err")"
        fi
        if [ "$(cat "$TMP/full/walsize")" = 0 ]; then
            pass "the failed write empties the WAL (checkpoint TRUNCATE after the rollback)"
        else
            fail "the failed write empties the WAL" "-wal is $(cat "$TMP/full/walsize") bytes"
        fi
        if is_allow freed; then
            pass "space freed: the next call is decided with no manual step"
        else
            fail "space freed: the next call" "$(cat "$TMP/full/freed.out" "$TMP/full/freed.err" "$TMP/full/ls")"
        fi
    fi
fi

# ---- a corrupt database: denied, named by doctor with the fix, and a fresh store once moved ----
S=$TMP/s-corrupt
mkdir -p "$S"
chmod 0700 "$S"
head -c 16384 /dev/urandom >"$S/state.db"
chmod 0600 "$S/state.db"
hook c1 ls --state-dir "$S"
denied_for "corrupt state.db" "not a database"
RAMPART_STATE_DIR=$S "$BIN" doctor >"$TMP/doctor" 2>&1
RC=$?
if [ "$RC" -ne 0 ] && grep -q "^state: BROKEN: $S/state.db cannot be used: file is not a database; move it aside" "$TMP/doctor"; then
    pass "doctor reports the corrupt database with the fix"
else
    fail "doctor reports the corrupt database" "exit $RC: $(cat "$TMP/doctor")"
fi
mv "$S/state.db" "$S/state.db.broken"
hook c1 ls --state-dir "$S"
hook_allowed "corrupt state.db moved aside: a fresh store"
RAMPART_STATE_DIR=$S "$BIN" doctor >"$TMP/doctor" 2>&1
RC=$?
if [ "$RC" -eq 0 ] && grep -q "^state: ok ($S)" "$TMP/doctor"; then
    pass "doctor: the fresh database is ok (quick_check)"
else
    fail "doctor: the fresh database is ok" "exit $RC: $(cat "$TMP/doctor")"
fi

e2e_finish
