#!/usr/bin/env bash
# install.sh BINARY SOURCE_DIR — `rampart install`, `uninstall` and `doctor` through the real
# binary, with HOME in a temp dir: for every host the exact file a fresh install writes, doctor
# saying ok (Codex: OFF until trusted), uninstall giving back the original (no file, or the same bytes
# of a file with unrelated content), idempotence, the backup, --project, --dry-run, -c, a path
# that needs quoting, a file that is not JSON left untouched, and doctor finding BROKEN hooks (a
# missing binary, a config that does not load, a settings file that does not parse). Then
# `rampart init` and the starter config install writes when there is none (issue 15, point 10),
# and every silent off-switch doctor detects and install warns about (point 9).
set -u
. "$(dirname "$0")/lib.sh"
e2e_init install "$1" "$2"

OUT=$TMP/out
ERR=$TMP/err
cd "$TMP" || exit 2

settings_path() {
    case $1 in
    claude-code) echo "$HOME/.claude/settings.json" ;;
    codex) echo "$HOME/.codex/hooks.json" ;;
    cursor) echo "$HOME/.cursor/hooks.json" ;;
    gemini) echo "$HOME/.gemini/settings.json" ;;
    pi) echo "$HOME/.pi/agent/extensions/rampart.ts" ;;
    opencode) echo "$XDG_CONFIG_HOME/opencode/plugin/rampart.ts" ;; # opencode follows XDG
    esac
}

# shown_path FILE: as doctor shows it, $HOME as ~.
shown_path() {
    case $1 in
    "$HOME"/*) echo "~/${1#"$HOME"/}" ;;
    *) echo "$1" ;;
    esac
}

# expected_fresh HOST COMMAND: the exact file a fresh install writes (JSON with 2-space indent,
# which is what Python's json.dumps(indent=2) prints too), plus a final newline.
expected_fresh() {
    python3 - "$1" "$2" <<'PY'
import json, sys
host, cmd = sys.argv[1], sys.argv[2]
def group(matcher, timeout):
    h = {"type": "command", "command": cmd, "timeout": timeout}
    g = {"matcher": matcher} if matcher else {}
    g["hooks"] = [h]
    return [g]
if host == "claude-code":
    ev = [("PreToolUse", "*"), ("PostToolUse", "*"), ("PostToolUseFailure", "*"),
          ("UserPromptSubmit", None), ("SessionStart", None), ("SessionEnd", None),
          ("Stop", None), ("SubagentStop", None)]
    doc = {"hooks": {e: group(m, 5) for e, m in ev}}
elif host == "codex":
    ev = [("SessionStart", None), ("UserPromptSubmit", None), ("PreToolUse", ".*"),
          ("PostToolUse", ".*"), ("Stop", None), ("SubagentStop", None)]
    doc = {"hooks": {e: group(m, 5) for e, m in ev}}
elif host == "gemini":
    ev = [("BeforeTool", ".*"), ("AfterTool", ".*"), ("BeforeAgent", None),
          ("AfterAgent", None), ("BeforeModel", None), ("AfterModel", None),
          ("SessionStart", None), ("SessionEnd", None)]
    doc = {"hooks": {e: group(m, 5000) for e, m in ev}}
else:
    ev = ["beforeShellExecution", "beforeMCPExecution", "beforeReadFile", "preToolUse",
          "postToolUse", "afterShellExecution", "beforeSubmitPrompt", "stop", "sessionStart",
          "sessionEnd"]
    doc = {"version": 1, "hooks": {e: [{"command": cmd}] for e in ev}}
sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
PY
}

# ---- every settings host: fresh install, doctor, idempotence, uninstall ----
for host in claude-code codex cursor gemini; do
    f=$(settings_path "$host")
    run_rampart "$OUT" "$ERR" install "$host"
    expect_rc "$host: install into a missing file" 0
    if [ "$host" = claude-code ]; then
        # No config anywhere: a hook would allow everything, so install writes the starter.
        check "install without a config writes the starter config and says so" \
            grep -qF "the starter config was written to $XDG_CONFIG_HOME/rampart/config.yaml" "$OUT"
        check "the starter config is there" test -s "$XDG_CONFIG_HOME/rampart/config.yaml"
    fi
    expected_fresh "$host" "$BIN hook $host" >"$TMP/want"
    if cmp -s "$f" "$TMP/want"; then pass "$host: the fresh file is exact"; else
        fail "$host: the fresh file is exact" "$(diff "$TMP/want" "$f" | head -20)"; fi
    check "$host: no backup of a file that did not exist" test ! -e "$f.rampart-backup"
    cp "$f" "$TMP/installed"
    run_rampart "$OUT" "$ERR" install "$host"
    expect_rc "$host: install again" 0
    check "$host: install again says already installed" grep -q "^$host: already installed" "$OUT"
    check "$host: install again changes nothing" cmp -s "$f" "$TMP/installed"

    run_rampart "$OUT" "$ERR" doctor
    if [ "$host" = codex ]; then
        expect_rc "codex: doctor (an untrusted hook is off)" 1
        check "codex: doctor says the hook is not trusted and how to trust it" \
            grep -q '^codex: OFF: Codex will not run 6 of rampart.s 6 hook handlers (SessionStart first) in ~/.codex/hooks.json: not trusted, .*"Trust all and continue"' "$OUT"
    else
        expect_rc "$host: doctor" 0
        line="$host: ok (hook in $(shown_path "$f") → $BIN, default config ok (6 policies))"
        check "$host: doctor says ok" grep -qxF "$line" "$OUT"
    fi

    run_rampart "$OUT" "$ERR" uninstall "$host"
    expect_rc "$host: uninstall" 0
    check "$host: uninstall removes the file install created" test ! -e "$f"
    run_rampart "$OUT" "$ERR" uninstall "$host"
    check "$host: uninstall again says not installed" grep -q "^$host: not installed" "$OUT"
done

run_rampart "$OUT" "$ERR" install codex
check "codex: install warns that the hook will not run until trusted, and how" \
    grep -q 'warning: codex: the hook is installed but will not run: Codex will not run 6 of .*not trusted.*Trust all and continue' "$ERR"
"$BIN" uninstall codex >/dev/null 2>&1

# ---- unrelated content survives install/uninstall byte for byte ----
mkdir -p "$HOME/.claude" "$HOME/.gemini" "$HOME/.cursor" "$HOME/.codex"
printf '{\r\n\t"permissions": {\r\n\t\t"deny": ["Read(./.env)"]\r\n\t},\r\n\t"env": {"A": "\\u00e9"},\r\n\t"hooks": {\r\n\t\t"PreToolUse": [\r\n\t\t\t{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]}\r\n\t\t]\r\n\t}\r\n}\r\n' \
    >"$HOME/.claude/settings.json"
printf '{ "theme": "GitHub", "mcpServers": {} }' >"$HOME/.gemini/settings.json"
printf '{\n  "version": 1,\n  "hooks": {\n    "afterFileEdit": [{ "command": "./audit.sh" }]\n  }\n}\n' \
    >"$HOME/.cursor/hooks.json"
printf '{}' >"$HOME/.codex/hooks.json"
chmod 600 "$HOME/.gemini/settings.json"
for host in claude-code codex cursor gemini; do
    f=$(settings_path "$host")
    cp "$f" "$TMP/orig"
    run_rampart "$OUT" "$ERR" install "$host"
    expect_rc "$host: install next to unrelated content" 0
    check "$host: the file changed" test "$(grep -c 'rampart hook' "$f")" -gt 0
    check "$host: the backup holds the original" cmp -s "$f.rampart-backup" "$TMP/orig"
    run_rampart "$OUT" "$ERR" uninstall "$host"
    expect_rc "$host: uninstall next to unrelated content" 0
    check "$host: the original bytes are back" cmp -s "$f" "$TMP/orig"
    check "$host: the backup is gone" test ! -e "$f.rampart-backup"
done
check "gemini: the file mode is kept" test "$(stat -c %a "$HOME/.gemini/settings.json")" = 600

# Without the backup (deleted), the splice alone still restores this file exactly.
cp "$HOME/.claude/settings.json" "$TMP/orig"
"$BIN" install claude-code >/dev/null 2>&1
rm -f "$HOME/.claude/settings.json.rampart-backup"
run_rampart "$OUT" "$ERR" uninstall claude-code
check "claude-code: uninstall without the backup restores the bytes" cmp -s "$HOME/.claude/settings.json" "$TMP/orig"

# An edit made after install survives uninstall (the backup no longer matches and is not used).
printf '{\n  "model": "opus"\n}\n' >"$HOME/.claude/settings.json"
"$BIN" install claude-code >/dev/null 2>&1
sed -i 's/"opus"/"sonnet"/' "$HOME/.claude/settings.json"
run_rampart "$OUT" "$ERR" uninstall claude-code
check "an edit made after install survives uninstall" \
    test "$(cat "$HOME/.claude/settings.json")" = "$(printf '{\n  "model": "sonnet"\n}')"

# ---- --dry-run changes nothing ----
cp "$HOME/.claude/settings.json" "$TMP/orig"
run_rampart "$OUT" "$ERR" install claude-code --dry-run
expect_rc "install --dry-run" 0
check "install --dry-run prints the new file" grep -q "\"command\": \"$BIN hook claude-code\"" "$OUT"
check "install --dry-run leaves the file" cmp -s "$HOME/.claude/settings.json" "$TMP/orig"
check "install --dry-run writes no backup" test ! -e "$HOME/.claude/settings.json.rampart-backup"

# ---- a file that is not JSON is refused and left untouched ----
printf '{\n  // my settings\n  "model": "opus"\n}\n' >"$HOME/.claude/settings.json"
cp "$HOME/.claude/settings.json" "$TMP/orig"
run_rampart "$OUT" "$ERR" install claude-code
expect_rc "install into a file with comments" 1
check "the error names path:line:col" grep -q "$HOME/.claude/settings.json:2:3: " "$ERR"
check "the file is left untouched" cmp -s "$HOME/.claude/settings.json" "$TMP/orig"
run_rampart "$OUT" "$ERR" doctor
expect_rc "doctor with a settings file that does not parse" 1
check "doctor says BROKEN with line:col" grep -q '^claude-code: BROKEN: ~/.claude/settings.json:2:3: ' "$OUT"
rm -f "$HOME/.claude/settings.json"

# ---- doctor: a hook pointing at a missing binary, a config that does not load ----
printf '{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "/nowhere/rampart hook claude-code"}]}]}}\n' \
    >"$HOME/.claude/settings.json"
run_rampart "$OUT" "$ERR" doctor
expect_rc "doctor with a missing binary" 1
check "doctor says BROKEN for the missing binary" grep -qxF \
    "claude-code: BROKEN: the hook runs /nowhere/rampart, which does not exist (hook in ~/.claude/settings.json)" "$OUT"
check "doctor: the other hosts are not installed" grep -qx 'gemini: not installed' "$OUT"
rm -f "$HOME/.claude/settings.json"
# A hook removed from some events leaves them unguarded.
printf '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "%s hook claude-code"}]}]}}\n' "$BIN" \
    >"$HOME/.claude/settings.json"
run_rampart "$OUT" "$ERR" doctor
expect_rc "doctor with events missing" 1
check "doctor names the events without a hook" grep -qxF \
    "claude-code: BROKEN: no rampart hook for PreToolUse, PostToolUse, PostToolUseFailure, UserPromptSubmit, SessionStart, SessionEnd, SubagentStop; run \`rampart install claude-code\` (hook in ~/.claude/settings.json)" "$OUT"
run_rampart "$OUT" "$ERR" uninstall claude-code
check "uninstall of a hand-written hook empties the file" test "$(cat "$HOME/.claude/settings.json")" = '{}'
rm -f "$HOME/.claude/settings.json"
# A hand-written hook is read as sh reads it (the shell parser): `>>` ends the host word.
printf '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "%s hook claude-code>>%s/hook.log"}]}]}}\n' \
    "$BIN" "$TMP" >"$HOME/.claude/settings.json"
run_rampart "$OUT" "$ERR" uninstall claude-code
check "uninstall finds a hand-written hook with a redirection" \
    test "$(cat "$HOME/.claude/settings.json")" = '{}'
rm -f "$HOME/.claude/settings.json"

printf 'policies:\n  loop:\n    type: function\n    handler: detect_loop\n' >"$TMP/good.yaml"
cp "$HOME/.gemini/settings.json" "$TMP/gemini-orig"
run_rampart "$OUT" "$ERR" install gemini -c "$TMP/good.yaml"
expect_rc "install -c with a config that loads" 0
check "the hook names the config" grep -q "\"command\": \"$BIN hook gemini -c $TMP/good.yaml\"" "$HOME/.gemini/settings.json"
run_rampart "$OUT" "$ERR" doctor
check "doctor: config ok" grep -qxF "gemini: ok (hook in ~/.gemini/settings.json → $BIN, config $TMP/good.yaml ok (1 policy))" "$OUT"
printf 'policies:\n  loop:\n    type: function\n    handler: no_such_policy\n' >"$TMP/good.yaml"
run_rampart "$OUT" "$ERR" doctor
expect_rc "doctor with a config that no longer loads" 1
check "doctor says the config does not load" grep -q '^gemini: BROKEN: the config does not load: .*good.yaml' "$OUT"
run_rampart "$OUT" "$ERR" install claude-code -c "$TMP/good.yaml"
expect_rc "install -c refuses a config that does not load" 1
check "no file written for it" test ! -e "$HOME/.claude/settings.json"
"$BIN" uninstall gemini >/dev/null 2>&1
check "gemini: the original is back after the -c round" cmp -s "$HOME/.gemini/settings.json" "$TMP/gemini-orig"

# ---- a binary path that needs quoting ----
mkdir -p "$TMP/my bin"
cp "$BIN" "$TMP/my bin/rampart"
run_rampart "$OUT" "$ERR" uninstall gemini
"$TMP/my bin/rampart" install claude-code >"$OUT" 2>"$ERR"
RC=$?
expect_rc "install from a path with a space" 0
check "the command quotes the path" grep -qF "\"command\": \"'$TMP/my bin/rampart' hook claude-code\"" "$HOME/.claude/settings.json"
run_rampart "$OUT" "$ERR" doctor
check "doctor follows the quoted path" grep -qxF "claude-code: ok (hook in ~/.claude/settings.json → $TMP/my bin/rampart, default config ok (6 policies))" "$OUT"
# The real binary replaces the moved one's command (one handler per event, not two).
run_rampart "$OUT" "$ERR" install claude-code
check "re-install from another path updates the command" test "$(grep -c "\"command\": \"$BIN hook claude-code\"" "$HOME/.claude/settings.json")" -eq 8
check "no handler of the old path is left" test "$(grep -c 'my bin' "$HOME/.claude/settings.json")" -eq 0
rm -f "$TMP/my bin/rampart"
"$BIN" uninstall claude-code >/dev/null 2>&1
check "claude-code: uninstalled" test ! -e "$HOME/.claude/settings.json"

# ---- --project ----
mkdir -p "$TMP/proj"
cd "$TMP/proj" || exit 2
run_rampart "$OUT" "$ERR" install cursor --project
expect_rc "install --project" 0
check "install --project writes ./.cursor/hooks.json" test -f "$TMP/proj/.cursor/hooks.json"
run_rampart "$OUT" "$ERR" doctor --project
check "doctor --project sees it" grep -qxF "cursor: ok (hook in $TMP/proj/.cursor/hooks.json → $BIN, default config ok (6 policies))" "$OUT"
run_rampart "$OUT" "$ERR" uninstall cursor --project
check "uninstall --project removes it" test ! -e "$TMP/proj/.cursor/hooks.json"
cd "$TMP" || exit 2

# ---- Pi and opencode: the extension file ----
for host in pi opencode; do
    f=$(settings_path "$host")
    run_rampart "$OUT" "$ERR" install "$host"
    expect_rc "$host: install" 0
    check "$host: the extension starts with the marker" \
        grep -qxF '// installed by `rampart install`; `rampart uninstall` removes it.' <(head -1 "$f")
    check "$host: the extension runs this binary, and nothing in the environment overrides it" \
        grep -qxF "const RAMPART_COMMAND = [\"$BIN\"];" "$f"
    check "$host: the extension reads no RAMPART_BIN" test "$(grep -c 'RAMPART_BIN' "$f")" = 0
    run_rampart "$OUT" "$ERR" install "$host"
    check "$host: install again says already installed" grep -q "^$host: already installed" "$OUT"
    run_rampart "$OUT" "$ERR" doctor
    check "$host: doctor says ok" grep -qxF "$host: ok (extension $(shown_path "$f") → $BIN, default config ok (6 policies))" "$OUT"
    run_rampart "$OUT" "$ERR" uninstall "$host"
    expect_rc "$host: uninstall" 0
    check "$host: uninstall deletes the extension" test ! -e "$f"
    # A file of the same name that rampart did not write is neither replaced nor deleted.
    mkdir -p "$(dirname "$f")"
    echo '// my own' >"$f"
    run_rampart "$OUT" "$ERR" install "$host"
    expect_rc "$host: install refuses a foreign file" 1
    run_rampart "$OUT" "$ERR" uninstall "$host"
    expect_rc "$host: uninstall leaves a foreign file" 1
    check "$host: the foreign file is intact" test "$(cat "$f")" = '// my own'
    rm -f "$f"
done
# -c for Pi and opencode: the extension runs this binary with that config, as a settings host's
# hook does; another -c replaces it; doctor reads the command back and checks what it names.
printf 'policies:\n  loop:\n    type: function\n    handler: detect_loop\n' >"$TMP/ext.yaml"
cp "$TMP/ext.yaml" "$TMP/ext2.yaml"
for host in pi opencode; do
    f=$(settings_path "$host")
    run_rampart "$OUT" "$ERR" install "$host" -c "$TMP/ext.yaml"
    expect_rc "$host: install -c" 0
    check "$host: install -c says what the extension runs" grep -qF "(runs $BIN hook $host -c $TMP/ext.yaml)" "$OUT"
    check "$host: the extension runs this binary with -c" \
        grep -qxF "const RAMPART_COMMAND = [\"$BIN\", \"-c\", \"$TMP/ext.yaml\"];" "$f"
    run_rampart "$OUT" "$ERR" doctor
    check "$host: doctor reads the -c back" \
        grep -qxF "$host: ok (extension $(shown_path "$f") → $BIN, config $TMP/ext.yaml ok (1 policy))" "$OUT"
    run_rampart "$OUT" "$ERR" install "$host" -c "$TMP/ext2.yaml"
    expect_rc "$host: install with another -c" 0
    check "$host: another -c replaces the first" \
        grep -qxF "const RAMPART_COMMAND = [\"$BIN\", \"-c\", \"$TMP/ext2.yaml\"];" "$f"
    check "$host: only one command line" test "$(grep -c '^const RAMPART_COMMAND' "$f")" = 1
    rm "$TMP/ext2.yaml"
    run_rampart "$OUT" "$ERR" doctor
    expect_rc "$host: doctor with the extension's config gone" 1
    check "$host: doctor says the extension's config is missing" grep -qF \
        "$host: BROKEN: the hook's config $TMP/ext2.yaml cannot be read (No such file or directory)" "$OUT"
    cp "$TMP/ext.yaml" "$TMP/ext2.yaml"
    echo 'this is not javascript (' >>"$f"
    run_rampart "$OUT" "$ERR" doctor
    check "$host: doctor says the extension differs from what install writes" grep -qF \
        "$host: ok (extension $(shown_path "$f") → $BIN, config $TMP/ext2.yaml ok (1 policy)), but $(shown_path "$f") differs from what this rampart installs (edited, or from another version; the host may not load it): run \`rampart install $host\` to rewrite it" "$OUT"
    sed -i "s|^const RAMPART_COMMAND = .*|const RAMPART_COMMAND = [\"$TMP/no-rampart\"];|" "$f"
    run_rampart "$OUT" "$ERR" doctor
    check "$host: doctor says the extension's binary is missing" grep -qF \
        "$host: BROKEN: the hook runs $TMP/no-rampart, which does not exist" "$OUT"
    run_rampart "$OUT" "$ERR" uninstall "$host"
    expect_rc "$host: uninstall after install -c" 0
    check "$host: uninstall deletes the extension installed with -c" test ! -e "$f"
done
run_rampart "$OUT" "$ERR" install pi -c "$TMP/no-such.yaml"
expect_rc "install pi -c with a missing config" 1
check "install pi -c with a missing config writes nothing" test ! -e "$(settings_path pi)"

# A config path that is not UTF-8 cannot be named exactly in the extension's TypeScript line:
# refused, rather than an extension that runs another path.
cp "$TMP/ext.yaml" "$TMP/$(printf 'x\377').yaml"
run_rampart "$OUT" "$ERR" install pi -c "$TMP/$(printf 'x\377').yaml"
expect_rc "install pi -c with a path that is not UTF-8" 1
check "install pi -c with a path that is not UTF-8 writes nothing" test ! -e "$(settings_path pi)"
check "install pi -c with a path that is not UTF-8 says why" grep -qF "is not UTF-8" "$ERR"

# opencode reads $XDG_CONFIG_HOME/opencode when that is set (as above), else ~/.config/opencode.
env -u XDG_CONFIG_HOME "$BIN" install opencode -c "$TMP/ext.yaml" >"$OUT" 2>"$ERR"
check "opencode: without XDG_CONFIG_HOME the plugin goes to ~/.config/opencode" \
    test -f "$HOME/.config/opencode/plugin/rampart.ts"
env -u XDG_CONFIG_HOME "$BIN" doctor >"$OUT" 2>"$ERR"
check "opencode: doctor finds it there" grep -q '^opencode: ok (extension ~/.config/opencode/plugin/rampart.ts → ' "$OUT"
env -u XDG_CONFIG_HOME "$BIN" uninstall opencode >/dev/null 2>&1
check "opencode: and uninstall removes it" test ! -e "$HOME/.config/opencode/plugin/rampart.ts"

# ---- rampart init: the starter config (issue 15, point 10) ----
CFG=$XDG_CONFIG_HOME/rampart/config.yaml
rm -f "$CFG"
run_rampart "$OUT" "$ERR" init
expect_rc "init writes the starter config" 0
check "init says where" grep -qF "wrote the starter config to $CFG" "$OUT"
run_rampart "$OUT" "$ERR" validate "$CFG"
expect_rc "the starter config validates" 0
cp "$CFG" "$TMP/starter"
echo '# mine' >>"$CFG"
run_rampart "$OUT" "$ERR" init
expect_rc "init refuses to replace an existing config" 1
check "init says it did not replace it" grep -q "already exists; not replacing it" "$ERR"
check "the existing config is untouched" grep -qx '# mine' "$CFG"
run_rampart "$OUT" "$ERR" init --force
expect_rc "init --force" 0
check "init --force replaces it" cmp -s "$CFG" "$TMP/starter"
hook_pre() {
    printf '{"session_id":"init","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"},"tool_use_id":"%s"}' "$1" "$2" |
        "$BIN" hook claude-code >"$OUT" 2>"$ERR"
}
hook_pre 'rm -rf /' init-1
check "with the starter config, rm -rf / is denied" grep -q '"permissionDecision":"deny"' "$OUT"
hook_pre 'git push --force origin main' init-2
check "with the starter config, git push --force is denied or asked" \
    grep -qE '"permissionDecision":"(deny|ask)"' "$OUT"
hook_pre 'ls -la' init-3
check "with the starter config, ls is allowed (nothing said)" test ! -s "$OUT"

# A config that loads but has no policy guards nothing: doctor says so.
printf 'on_error: deny\n' >"$CFG"
"$BIN" install claude-code >/dev/null 2>&1
run_rampart "$OUT" "$ERR" doctor
expect_rc "doctor with a config that has no policy" 1
check "doctor says every call is allowed and to run rampart init" grep -qF \
    'claude-code: BROKEN: the config (no -c; the user and system config) has no policy, so every call is allowed: run `rampart init` to write a starter config' "$OUT"
cp "$TMP/starter" "$CFG"
"$BIN" uninstall claude-code >/dev/null 2>&1

# ---- silent off-switches: doctor detects each, install warns (issue 15, point 9) ----
# Claude Code: disableAllHooks, in the user settings or the project's local settings.
mkdir -p "$HOME/.claude"
printf '{"disableAllHooks": true}\n' >"$HOME/.claude/settings.json"
run_rampart "$OUT" "$ERR" install claude-code
check "claude-code: install warns that disableAllHooks turns the hook off" grep -qF \
    'warning: claude-code: the hook is installed but will not run: disableAllHooks is true in ~/.claude/settings.json' "$ERR"
run_rampart "$OUT" "$ERR" doctor
expect_rc "claude-code: doctor with disableAllHooks" 1
check "claude-code: doctor says disableAllHooks is on and what to do" grep -qF \
    "claude-code: OFF: disableAllHooks is true in ~/.claude/settings.json, so Claude Code runs no hook (rampart's included): remove it or set it to false" "$OUT"
"$BIN" uninstall claude-code >/dev/null 2>&1
rm -f "$HOME/.claude/settings.json" "$HOME/.claude/settings.json.rampart-backup"
"$BIN" install claude-code >/dev/null 2>&1
mkdir -p "$TMP/cproj/.claude"
printf '{"disableAllHooks": true}\n' >"$TMP/cproj/.claude/settings.local.json"
(cd "$TMP/cproj" && "$BIN" doctor >"$OUT" 2>"$ERR")
check "claude-code: doctor finds disableAllHooks in the project's local settings" grep -qF \
    "claude-code: OFF: disableAllHooks is true in $TMP/cproj/.claude/settings.local.json" "$OUT"
CLAUDE_CODE_SIMPLE=1 "$BIN" doctor >"$OUT" 2>"$ERR"
check "claude-code: doctor says CLAUDE_CODE_SIMPLE (claude --bare) runs no hook" grep -qF \
    "claude-code: OFF: CLAUDE_CODE_SIMPLE is set (what \`claude --bare\` sets), so Claude Code started from this environment runs no hook: unset it" "$OUT"
"$BIN" uninstall claude-code >/dev/null 2>&1

# Codex: trust, as Codex keeps it in ~/.codex/config.toml (the hash is Codex's; the unit test
# test_install_codex_trust pins it to what Codex itself computes).
codex_trust() {
    python3 - "$HOME/.codex/hooks.json" >"$HOME/.codex/config.toml" <<'PY'
import hashlib, json, re, sys
path = sys.argv[1]
doc = json.load(open(path))
for event, groups in doc["hooks"].items():
    label = re.sub(r"(?<!^)([A-Z])", r"_\1", event).lower()
    for g, group in enumerate(groups):
        for h, handler in enumerate(group["hooks"]):
            ident = {"event_name": label, "hooks": [{"type": "command", "command": handler["command"],
                     "timeout": handler.get("timeout", 600), "async": False}]}
            if "matcher" in group:
                ident["matcher"] = group["matcher"]
            canon = json.dumps(ident, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            print('[hooks.state."%s:%s:%d:%d"]' % (path, label, g, h))
            print('trusted_hash = "sha256:%s"\n' % hashlib.sha256(canon.encode()).hexdigest())
PY
}
"$BIN" install codex >/dev/null 2>&1
codex_trust
run_rampart "$OUT" "$ERR" doctor
expect_rc "codex: doctor with the hook trusted" 0
check "codex: doctor says the hook is trusted" grep -qxF \
    "codex: ok (hook in ~/.codex/hooks.json → $BIN, default config ok (6 policies), trusted in Codex)" "$OUT"
run_rampart "$OUT" "$ERR" install codex -c "$TMP/starter"
check "codex: re-install with another -c warns that Codex's trust is reset" grep -q \
    'warning: codex: the hook is installed but will not run: Codex will not run 6 of .*: changed since you trusted it (another binary or -c)' "$ERR"
run_rampart "$OUT" "$ERR" doctor
expect_rc "codex: doctor with the hook changed since it was trusted" 1
check "codex: doctor says it changed since it was trusted" grep -q \
    '^codex: OFF: Codex will not run 6 of rampart.s 6 hook handlers .*changed since you trusted it' "$OUT"
codex_trust
printf '\n[features]\nhooks = false\n' >>"$HOME/.codex/config.toml"
run_rampart "$OUT" "$ERR" doctor
check "codex: doctor says [features] hooks = false turns every hook off" grep -qF \
    'codex: OFF: [features] hooks = false in ~/.codex/config.toml, so Codex runs no hook: remove it' "$OUT"
CODEX_HOME=$TMP/codex-elsewhere "$BIN" doctor >"$OUT" 2>"$ERR"
check "codex: doctor says CODEX_HOME points Codex elsewhere" grep -qF \
    "codex: OFF: CODEX_HOME is $TMP/codex-elsewhere, so Codex started from this environment reads $TMP/codex-elsewhere/hooks.json, not ~/.codex/hooks.json: unset it, or start Codex without it" "$OUT"
CODEX_HOME=$HOME/.codex "$BIN" doctor >"$OUT" 2>"$ERR"
check "codex: CODEX_HOME=~/.codex is no off-switch" grep -q '^codex: OFF: \[features\] hooks = false' "$OUT"
"$BIN" uninstall codex >/dev/null 2>&1
rm -f "$HOME/.codex/config.toml"

# Gemini CLI: a project install in a folder it does not trust is never loaded.
mkdir -p "$TMP/gproj" "$HOME/.gemini"
gproj=$(cd "$TMP/gproj" && pwd -P)
cd "$gproj" || exit 2
run_rampart "$OUT" "$ERR" install gemini --project
check "gemini: a project install in an untrusted folder warns, and says how to trust it" grep -qF \
    "warning: gemini: the hook is installed but will not run: Gemini CLI does not trust this folder" "$ERR"
run_rampart "$OUT" "$ERR" doctor --project
expect_rc "gemini: doctor --project in an untrusted folder" 1
check "gemini: doctor --project says the folder is not trusted and how to trust it" grep -qF \
    "gemini: OFF: Gemini CLI does not trust this folder, and loads no hook of an untrusted folder (--skip-trust does not load its .gemini/settings.json either): run \`gemini\` here and choose \"Trust folder\", or add \"$gproj\": \"TRUST_FOLDER\" to ~/.gemini/trustedFolders.json" "$OUT"
printf '{"%s": "TRUST_FOLDER"}\n' "$gproj" >"$HOME/.gemini/trustedFolders.json"
run_rampart "$OUT" "$ERR" doctor --project
expect_rc "gemini: doctor --project in a trusted folder" 0
check "gemini: ok once the folder is trusted" grep -q '^gemini: ok (hook in ' "$OUT"
python3 -c 'import json,sys; p=sys.argv[1]; d=json.load(open(p)); d["hooksConfig"]={"enabled": False}; json.dump(d, open(p, "w"))' .gemini/settings.json
run_rampart "$OUT" "$ERR" doctor --project
check "gemini: doctor says hooksConfig.enabled: false turns hooks off" grep -qF \
    "gemini: OFF: hooksConfig.enabled is false in $gproj/.gemini/settings.json, so Gemini CLI runs no hook: remove it" "$OUT"
rm -rf "$gproj/.gemini"
cd "$TMP" || exit 2
# A user install runs everywhere but in the folders marked DO_NOT_TRUST.
"$BIN" install gemini >/dev/null 2>&1
printf '{"/srv/secret": "DO_NOT_TRUST"}\n' >"$HOME/.gemini/trustedFolders.json"
run_rampart "$OUT" "$ERR" doctor
check "gemini: doctor names the DO_NOT_TRUST folders where no hook runs" grep -qF \
    "but Gemini CLI runs no hook, rampart's included, in the folders marked DO_NOT_TRUST in ~/.gemini/trustedFolders.json (/srv/secret)" "$OUT"
"$BIN" uninstall gemini >/dev/null 2>&1
rm -f "$HOME/.gemini/trustedFolders.json"
# Pi reads its extensions elsewhere when PI_CODING_AGENT_DIR is set.
"$BIN" install pi >/dev/null 2>&1
PI_CODING_AGENT_DIR=$TMP/pi-elsewhere "$BIN" doctor >"$OUT" 2>"$ERR"
check "pi: doctor says PI_CODING_AGENT_DIR points Pi elsewhere" grep -qF \
    "pi: OFF: PI_CODING_AGENT_DIR is $TMP/pi-elsewhere, so Pi started from this environment loads its extensions from $TMP/pi-elsewhere/extensions/, not ~/.pi/agent/extensions/rampart.ts" "$OUT"
# The same directory in another spelling (a trailing slash) is no off-switch.
PI_CODING_AGENT_DIR=$HOME/.pi/agent/ "$BIN" doctor >"$OUT" 2>"$ERR"
check "pi: doctor takes PI_CODING_AGENT_DIR=~/.pi/agent/ as the same place" grep -q "^pi: ok" "$OUT"
# Pi's settings.json can switch an auto-discovered extension off ("!glob", "-path"; what its
# /settings toggle writes), and "+path" brings it back.
PI=$HOME/.pi/agent
for entry in '!rampart.ts' '!extensions/*.ts' '-extensions/rampart.ts'; do
    printf '{"extensions": ["%s"]}\n' "$entry" >"$PI/settings.json"
    run_rampart "$OUT" "$ERR" doctor
    expect_rc "pi: doctor with $entry in settings.json" 1
    check "pi: doctor says $entry switches the extension off" grep -qF \
        "pi: OFF: \"$entry\" in the \"extensions\" of ~/.pi/agent/settings.json switches rampart's extension off, so Pi does not load it: remove that entry (or enable rampart.ts in \`pi config\`)" "$OUT"
done
printf '{"extensions": ["!*.ts", "+extensions/rampart.ts", "!other.ts"]}\n' >"$PI/settings.json"
run_rampart "$OUT" "$ERR" doctor
check "pi: a +path brings it back" grep -q '^pi: ok (' "$OUT"
rm "$PI/settings.json"
# An index.ts in the extensions directory makes Pi load only that.
echo 'export default function () {}' >"$PI/extensions/index.ts"
run_rampart "$OUT" "$ERR" doctor
check "pi: doctor says an index.ts hides rampart.ts" grep -qF \
    "pi: OFF: ~/.pi/agent/extensions/index.ts exists, so Pi loads only that from ~/.pi/agent/extensions and not rampart.ts: move it into a subdirectory" "$OUT"
rm "$PI/extensions/index.ts"
printf '# mine\n*.ts\n' >"$PI/extensions/.ignore"
run_rampart "$OUT" "$ERR" doctor
check "pi: doctor says an ignore file hides rampart.ts" grep -qF \
    "pi: OFF: \"*.ts\" in ~/.pi/agent/extensions/.ignore makes Pi skip rampart.ts: remove that line" "$OUT"
printf '*.ts\n!rampart.ts\n' >"$PI/extensions/.ignore"
run_rampart "$OUT" "$ERR" doctor
check "pi: an ignore file that re-includes rampart.ts is fine" grep -q '^pi: ok (' "$OUT"
rm "$PI/extensions/.ignore"
"$BIN" uninstall pi >/dev/null 2>&1
# opencode: OPENCODE_PURE loads no external plugin; a plugin that fails to load is only in
# opencode's log (its exact line, as opencode 1.18 writes it).
OPENCODE_PURE=true "$BIN" install opencode >"$OUT" 2>"$ERR"
check "opencode: install warns when OPENCODE_PURE is set" grep -qF \
    "warning: opencode: the hook is installed but will not run: OPENCODE_PURE is set" "$ERR"
OPENCODE_PURE=true "$BIN" install opencode >"$OUT" 2>"$ERR"
check "opencode: install again warns too" grep -qF \
    "warning: opencode: the hook is installed but will not run: OPENCODE_PURE is set" "$ERR"
OC=$XDG_CONFIG_HOME/opencode/plugin/rampart.ts
OPENCODE_PURE=1 "$BIN" doctor >"$OUT" 2>"$ERR"
check "opencode: doctor says OPENCODE_PURE turns plugins off" grep -qF \
    "opencode: OFF: OPENCODE_PURE is set, so opencode started from this environment loads no external plugin, rampart's included: unset it" "$OUT"
OPENCODE_PURE=0 "$BIN" doctor >"$OUT" 2>"$ERR"
check "opencode: OPENCODE_PURE=0 is off" grep -q '^opencode: ok (' "$OUT"
LOGD=$HOME/.local/share/opencode/log
mkdir -p "$LOGD"
printf 'timestamp=2026-12-03T13:00:00.000Z level=INFO message="loading plugin" path=file://%s\n' "$OC" >"$LOGD/old.log"
printf 'timestamp=2026-12-03T13:15:54.925Z level=ERROR run=a785f349 message="failed to load plugin" path=file://%s error="boom"\n' "$OC" >"$LOGD/opencode.log"
touch -d '2 minutes ago' "$OC" "$LOGD/old.log"
run_rampart "$OUT" "$ERR" doctor
expect_rc "opencode: doctor when the log says the plugin failed to load" 1
check "opencode: doctor quotes the log line and says what to do" grep -qF \
    "opencode: OFF: opencode's newest log ~/.local/share/opencode/log/opencode.log says rampart's plugin failed to load, so that session ran unguarded (timestamp=2026-12-03T13:15:54.925Z level=ERROR run=a785f349 message=\"failed to load plugin\" path=file://$OC error=\"boom\"): fix what the error says, run \`rampart install opencode\` again and restart opencode" "$OUT"
touch -d '2 minutes ago' "$LOGD/opencode.log"
touch "$OC"
run_rampart "$OUT" "$ERR" doctor
check "opencode: a failure logged before the plugin file was replaced is not reported" grep -q '^opencode: ok (' "$OUT"
touch "$LOGD/old.log"
touch -d '1 minute ago' "$OC"
run_rampart "$OUT" "$ERR" doctor
check "opencode: only the newest log counts" grep -q '^opencode: ok (' "$OUT"
rm -rf "$LOGD"
"$BIN" uninstall opencode >/dev/null 2>&1

# ---- usage errors ----
run_rampart "$OUT" "$ERR" install
expect_rc "install without a host" 2
run_rampart "$OUT" "$ERR" install vscode
expect_rc "install of an unknown host" 2
check "the unknown host is named" grep -q "unknown host 'vscode'" "$ERR"
run_rampart "$OUT" "$ERR" doctor --bogus
expect_rc "doctor with an unknown option" 2

run_rampart "$OUT" "$ERR" doctor
expect_rc "doctor with nothing installed" 0
check "doctor: one line per host and one for the state store" test "$(wc -l <"$OUT")" -eq 7

e2e_finish
