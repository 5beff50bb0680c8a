#!/usr/bin/env bash
# codex_patch.sh — `rampart hook codex` on apply_patch calls whose file headers Codex's own
# parser reads (it trims each line before matching a header): the files they name must reach
# worktree_guard and the permissions policy however the header line is indented or ended. A
# regression test for the bypass of issue 17, where "   *** Update File: /etc/passwd" (leading
# spaces) got no answer from worktree_guard while the same line without them was denied.
set -u
. "$(dirname "$0")/lib.sh"
e2e_init codex_patch "$1" "$2"
export RAMPART_NOW=2026-12-01T10:00:00Z
WORK=$TMP/work
mkdir -p "$WORK"

cat >"$TMP/guard.yaml" <<'YAML'
policies:
  guard:
    type: function
    handler: omnigent.policies.builtins.orchestration.worktree_guard
YAML
cat >"$TMP/perm.yaml" <<'YAML'
policies:
  perm:
    type: function
    handler: permissions
    factory_params:
      permission: {"*": allow, edit: {"*": allow, "/etc/*": deny}}
YAML

# verdict CONFIG PATCH: the hook's stdout for a Codex PreToolUse apply_patch carrying PATCH.
verdict() {
    local payload
    payload=$(python3 -c '
import json, sys
print(json.dumps({"session_id": "s-patch", "turn_id": "t1", "cwd": sys.argv[1],
    "hook_event_name": "PreToolUse", "model": "gpt-5.5", "permission_mode": "default",
    "tool_name": "apply_patch", "tool_input": {"command": sys.argv[2]},
    "tool_use_id": "call_1"}))' "$WORK" "$2")
    (cd "$WORK" && printf '%s' "$payload" |
        "$BIN" hook codex -c "$1" --state-dir "$TMP/state" 2>"$TMP/err")
}

# expect_deny DESC CONFIG PATCH
expect_deny() {
    local out
    out=$(verdict "$2" "$3")
    case $out in
    *'"permissionDecision":"deny"'* | *'"decision":"block"'*) pass "$1" ;;
    *) fail "$1: not denied" "$out $(cat "$TMP/err")" ;;
    esac
}

# expect_allow DESC CONFIG PATCH
expect_allow() {
    local out
    out=$(verdict "$2" "$3")
    case $out in
    *deny* | *block*) fail "$1: denied" "$out" ;;
    *) pass "$1" ;;
    esac
}

begin=$'*** Begin Patch\n'
end=$'\n@@\n-a\n+b\n*** End Patch\n'
for cfg in guard perm; do
    conf=$TMP/$cfg.yaml
    expect_deny "$cfg: Update File /etc/passwd" "$conf" "${begin}*** Update File: /etc/passwd${end}"
    expect_deny "$cfg: Update File with leading spaces" "$conf" \
        "${begin}   *** Update File: /etc/passwd${end}"
    expect_deny "$cfg: Update File with a leading tab" "$conf" \
        "${begin}"$'\t'"*** Update File: /etc/passwd${end}"
    expect_deny "$cfg: CRLF lines" "$conf" \
        $'*** Begin Patch\r\n*** Update File: /etc/passwd\r\n@@\r\n-a\r\n+b\r\n*** End Patch\r\n'
    expect_deny "$cfg: Move to after an indented Update" "$conf" \
        "${begin}  *** Update File: notes.txt"$'\n'"*** Move to: /etc/passwd${end}"
    expect_deny "$cfg: Add File after an Add hunk, indented" "$conf" \
        "${begin}*** Add File: a.txt"$'\n+x\n'"  *** Add File: /etc/cron.d/x"$'\n+y\n*** End Patch\n'
    expect_deny "$cfg: heredoc-wrapped, indented" "$conf" \
        $'<<\'EOF\'\n*** Begin Patch\n'"  *** Delete File: /etc/passwd"$'\n*** End Patch\nEOF\n'
    # U+2003 EM SPACE: Rust's str::trim removes it, so Codex reads a header here.
    expect_deny "$cfg: Update File indented by an em space" "$conf" \
        "${begin}"$'\xe2\x80\x83'"*** Update File: /etc/passwd${end}"
    expect_deny "$cfg: a second file, indented by an em space" "$conf" \
        "${begin}*** Update File: notes.txt"$'\n@@\n-a\n+b\n\xe2\x80\x83'"*** Update File: /etc/passwd${end}"
    expect_allow "$cfg: Update File inside the worktree" "$conf" \
        "${begin}   *** Update File: notes.txt${end}"
done
e2e_finish
