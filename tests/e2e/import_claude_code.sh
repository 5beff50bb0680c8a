#!/usr/bin/env bash
# import_claude_code.sh BINARY SOURCE_DIR — end-to-end tests of `rampart import claude-code`:
# the printed block, the not-translated listing and exit statuses, the default settings paths,
# stdin, and — once the `permissions` policy is in the binary — that the block validates and
# decides like Claude Code would (allow / ask / deny) under `rampart eval`.
set -u
. "$(dirname "$0")/lib.sh"
e2e_init import_claude_code "$1" "$2"

OUT=$TMP/out
ERR=$TMP/err
PROJ=$TMP/proj
mkdir -p "$PROJ/.claude" "$PROJ/src" "$HOME/.claude"

# contains DESCRIPTION FILE TEXT: FILE holds TEXT (a fixed string) somewhere.
contains() {
    if grep -qF -- "$3" "$2"; then pass "$1"; else fail "$1" "$(cat "$2")"; fi
}
lacks() {
    if grep -qF -- "$3" "$2"; then fail "$1" "$(cat "$2")"; else pass "$1"; fi
}

cat >"$PROJ/.claude/settings.json" <<'EOF'
{
  "permissions": {
    "allow": ["Bash(npm run test:*)", "Bash(git diff:*)", "Bash(git *)", "Read(./src/**)",
              "Read(/docs/**)", "Read(~/.ssh/known_hosts)", "Edit(//srv/www/**)", "WebSearch",
              "mcp__github__get_issue", "mcp__linear"],
    "ask": ["Bash(git push *)"],
    "deny": ["Bash(git push --force *)", "Read(./.env)", "Read(secrets/**)", "WebFetch",
             "mcp__github__delete_repo"]
  }
}
EOF

# ---- a settings file that translates completely ----
run_rampart "$OUT" "$ERR" import claude-code "$PROJ/.claude/settings.json"
expect_rc "everything translated" 0
contains "the policies block" "$OUT" "policies:
  permissions:
    type: function
    handler: permissions
    factory_params:
      permission:"
contains "the ask fallback" "$OUT" '"*": ask'
contains "legacy :* becomes a trailing \" *\"" "$OUT" '"npm run test *": allow  # allow Bash(npm run test:*)'
contains "git diff:*" "$OUT" '"git diff *": allow'
contains "./src/** is cwd-relative src/*" "$OUT" '"src/*": allow  # allow Read(./src/**)'
contains "/docs/** is anchored at the project root (parent of .claude)" "$OUT" "\"$PROJ/docs/*\": allow"
contains "~/ stays for rampart to expand" "$OUT" '"~/.ssh/known_hosts": allow'
contains "//abs is absolute" "$OUT" '"/srv/www/*": allow  # allow Edit(//srv/www/**)'
contains "a bare tool is its own surface" "$OUT" 'WebSearch: allow  # allow WebSearch'
contains "mcp__server__tool" "$OUT" '"github_get_issue": allow'
contains "mcp__server" "$OUT" '"linear_*": allow'
contains "a Read deny also holds on the path surface" "$OUT" '        path:'
lacks "nothing listed as not translated" "$OUT" "Not translated"
check "stderr is quiet" test ! -s "$ERR"
# deny > ask > allow: within bash, the allow of "git *" precedes the ask, which precedes the deny.
check "allows, then asks, then denies" python3 - "$OUT" <<'PY'
import sys
t = open(sys.argv[1]).read()
a, b, c = (t.index(s) for s in ('"git *": allow', '"git push *": ask', '"git push --force *": deny'))
sys.exit(0 if a < b < c else 1)
PY

# ---- defaults: ./.claude/settings.json, else ~/.claude/settings.json; and stdin ----
(cd "$PROJ" && "$BIN" import claude-code >"$OUT" 2>"$ERR")
RC=$?
expect_rc "./.claude/settings.json by default" 0
contains "... names the file it read" "$OUT" "from .claude/settings.json"
echo '{"permissions":{"deny":["Read(/secrets/**)"]}}' >"$HOME/.claude/settings.json"
(cd "$TMP" && "$BIN" import claude-code >"$OUT" 2>"$ERR")
RC=$?
expect_rc "~/.claude/settings.json when the project has none" 0
contains "... whose /path rules are anchored at ~/.claude" "$OUT" "\"$HOME/.claude/secrets/*\": deny"
rm "$HOME/.claude/settings.json"
(cd "$TMP" && "$BIN" import claude-code >"$OUT" 2>"$ERR")
RC=$?
expect_rc "no settings file anywhere" 2
contains "... says where it looked" "$ERR" "~/.claude/settings.json"
echo '{"permissions":{"allow":["Read(/x)"]}}' | (cd "$PROJ/src" && "$BIN" import claude-code - >"$OUT" 2>"$ERR")
RC=$?
expect_rc "stdin with -" 0
contains "... /path anchored at the current directory" "$OUT" "\"$PROJ/src/x\": allow"
echo '{"permissions":{"allow":["Read(/x)"]}}' | "$BIN" import claude-code --root "$PROJ" - >"$OUT" 2>"$ERR"
RC=$?
expect_rc "--root" 0
contains "... anchors /path there" "$OUT" "\"$PROJ/x\": allow"

# ---- rules that cannot be translated: listed, never dropped; exit 1 ----
cat >"$TMP/partial.json" <<'EOF'
{"permissions": {"allow": ["Bash(ls)", "WebFetch(domain:example.com)", 42],
                 "deny": ["Bash(run_in_background:true)"]}}
EOF
run_rampart "$OUT" "$ERR" import claude-code "$TMP/partial.json"
expect_rc "some rules not translated" 1
contains "the block is still printed" "$OUT" '"ls": allow'
contains "the WebFetch domain is listed in the output" "$OUT" "#   permissions.allow[1] WebFetch(domain:example.com): "
contains "the non-string entry is listed" "$OUT" "#   permissions.allow[2]: not a string (a number)"
contains "the parameter rule is listed" "$OUT" "#   permissions.deny[0] Bash(run_in_background:true): "
contains "... and on stderr" "$ERR" "not translated: permissions.allow[1] WebFetch(domain:example.com)"
contains "... with a count" "$ERR" "3 items of $TMP/partial.json not translated"

# ---- unreadable or invalid input: exit 2, naming the file (and line:col for JSON) ----
printf '{"permissions": {"allow": ["Bash(ls)",]}}\n' >"$TMP/bad.json"
run_rampart "$OUT" "$ERR" import claude-code "$TMP/bad.json"
expect_rc "invalid JSON" 2
contains "... names the file, line and column" "$ERR" "$TMP/bad.json:1:"
check "... and prints no block" test ! -s "$OUT"
echo '{"permissions": {"allow": "Bash(ls)"}}' >"$TMP/shape.json"
run_rampart "$OUT" "$ERR" import claude-code "$TMP/shape.json"
expect_rc "permissions.allow not a list" 2
contains "... says which key" "$ERR" "$TMP/shape.json: not Claude Code settings: permissions.allow: expected a list"
run_rampart "$OUT" "$ERR" import claude-code "$TMP/missing.json"
expect_rc "a missing file" 2
contains "... names it" "$ERR" "$TMP/missing.json: cannot read"
run_rampart "$OUT" "$ERR" import claude-code "$TMP"
expect_rc "a directory" 2
run_rampart "$OUT" "$ERR" import codex
expect_rc "an unknown host" 2
run_rampart "$OUT" "$ERR" import
expect_rc "no host" 2
run_rampart "$OUT" "$ERR" import claude-code --frob
expect_rc "an unknown option" 2
run_rampart "$OUT" "$ERR" import --help
expect_rc "--help" 0
contains "... prints the usage" "$OUT" "usage: rampart import claude-code"
run_rampart "$OUT" "$ERR" help import
expect_rc "rampart help import" 0

# ---- the block works: validate, then decisions under eval ----
"$BIN" policies --json --all >"$TMP/policies.json" 2>/dev/null
if python3 -c 'import json,sys; sys.exit(0 if any(p["name"] == "permissions" for p in json.load(open(sys.argv[1]))) else 1)' "$TMP/policies.json"; then
    "$BIN" import claude-code "$PROJ/.claude/settings.json" >"$TMP/imported.yaml" 2>"$ERR"
    run_rampart "$OUT" "$ERR" validate "$TMP/imported.yaml"
    expect_rc "the imported block validates" 0

    # event TOOL ARGUMENTS_JSON: one tool call in the project directory.
    event() {
        printf '{"type":"tool_call","session_id":"imp","data":{"name":"%s","arguments":%s},"context":{"cwd":"%s"}}\n' \
            "$1" "$2" "$PROJ"
    }
    {
        event Bash '{"command":"npm run test"}'
        event Bash '{"command":"npm run test -- --watch"}'
        event Bash '{"command":"git status"}'
        event Bash '{"command":"git push origin main"}'
        event Bash '{"command":"git push --force origin main"}'
        event Read "{\"file_path\":\"$PROJ/.env\"}"
        event Read '{"file_path":"src/App.jsx"}'
        event Read "{\"file_path\":\"$PROJ/docs/guide.md\"}"
        event Edit '{"file_path":"secrets/key.txt","old_string":"a","new_string":"b"}'
        event Bash '{"command":"cat .env"}'
        event WebFetch '{"url":"https://example.com","prompt":"x"}'
        event mcp__github__get_issue '{"number":1}'
        event mcp__github__delete_repo '{}'
        event mcp__linear__create_issue '{}'
        event Bash '{"command":"make"}'
    } >"$TMP/events.jsonl"
    run_rampart "$OUT" "$ERR" eval -c "$TMP/imported.yaml" --stateless "$TMP/events.jsonl"
    expect_rc "eval of the imported block" 0
    check "decisions: allow / ask / deny as Claude Code's rules say" json_lines "$OUT" \
        '[x["result"] for x in d] == ["ALLOW", "ALLOW", "ALLOW", "ASK", "DENY", "DENY", "ALLOW",
          "ALLOW", "DENY", "DENY", "DENY", "ALLOW", "DENY", "ALLOW", "ASK"]'
else
    echo "skip - the permissions policy is not registered in $BIN yet: validate/eval of the imported block not run"
fi

e2e_finish
