#!/usr/bin/env bash
# host_results.sh — every host's tool results reach the policies in one shape (src/hosts/
# tool_result.h): seven failing `ls /nonexistent-N`, sent as each host really sends a failed
# call (the shapes of ../shared/hosts-recorded/), make detect_thrashing answer the next tool
# call: ASK where the host can ask, DENY where it cannot. A new prompt clears it.
set -u
. "$(dirname "$0")/lib.sh"
e2e_init host_results "$1" "$2"
export RAMPART_NOW=2026-12-01T10:00:00Z USER=e2e-user
cat >"$TMP/config.yaml" <<'YAML'
policies:
  thrashing:
    type: function
    handler: omnigent.policies.builtins.context.detect_thrashing
YAML
STREAK="The agent has hit 5 consecutive tool errors"

# hook HOST STATE JSON: runs the hook with JSON on stdin, the answer in $TMP/out.
hook() {
    printf '%s' "$3" | "$BIN" hook "$1" -c "$TMP/config.yaml" --state-dir "$TMP/state-$2" \
        >"$TMP/out" 2>"$TMP/err"
}

# thrash HOST FAILED_JSON_FN CALL_JSON WANT_GREP: seven failures, then the call.
thrash() {
    local host=$1 fn=$2 call=$3 want=$4 i
    mkdir -p "$TMP/state-$host"
    for i in 1 2 3 4 5 6 7; do
        hook "$host" "$host" "$("$fn" "$i")"
        if [ "$i" = 4 ] && grep -q "$STREAK" "$TMP/out"; then
            fail "$host: four failures are not a streak yet" "$(cat "$TMP/out")"
        fi
    done
    hook "$host" "$host" "$call"
    if grep -q "$want" "$TMP/out" && grep -q "$STREAK" "$TMP/out"; then
        pass "$host: seven failed calls, then the next call is held ($want)"
    else
        fail "$host: seven failed calls, then the next call is held ($want)" \
            "$(cat "$TMP/out" "$TMP/err")"
    fi
}

LS_ERR="ls: cannot access '/nonexistent-%s': No such file or directory"

# Claude Code: a failed Bash call is PostToolUseFailure, its error "Exit code N" first.
claude_failed() {
    printf '{"session_id":"cc","transcript_path":null,"cwd":"/tmp","permission_mode":"default","hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"ls /nonexistent-%s"},"tool_use_id":"toolu_%s","error":"Exit code 2\\n'"$LS_ERR"'","is_interrupt":false,"duration_ms":9}' "$1" "$1" "$1"
}
thrash claude-code claude_failed \
    '{"session_id":"cc","transcript_path":null,"cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls /tmp"},"tool_use_id":"toolu_8"}' \
    '"permissionDecision":"ask"'
# The failure that tripped it is fed back to Claude as well.
hook claude-code claude-code "$(claude_failed 9)"
if grep -q '"decision":"block"' "$TMP/out" && grep -q "$STREAK" "$TMP/out"; then
    pass "claude-code: the failing result itself is answered with the reason"
else
    fail "claude-code: the failing result itself is answered with the reason" "$(cat "$TMP/out")"
fi
# The person redirects with a new prompt: the next call goes ahead.
hook claude-code claude-code '{"session_id":"cc","transcript_path":null,"cwd":"/tmp","permission_mode":"default","hook_event_name":"UserPromptSubmit","prompt":"try /tmp instead"}'
hook claude-code claude-code '{"session_id":"cc","transcript_path":null,"cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls /tmp"},"tool_use_id":"toolu_10"}'
if [ ! -s "$TMP/out" ]; then
    pass "claude-code: a new prompt clears the streak"
else
    fail "claude-code: a new prompt clears the streak" "$(cat "$TMP/out")"
fi

# The person approves the asked call, it runs and succeeds: the streak is over.
thrash claude-code claude_failed \
    '{"session_id":"cc","transcript_path":null,"cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls /tmp"},"tool_use_id":"toolu_11"}' \
    '"permissionDecision":"ask"'
hook claude-code claude-code '{"session_id":"cc","transcript_path":null,"cwd":"/tmp","permission_mode":"default","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls /tmp"},"tool_use_id":"toolu_11","tool_response":{"stdout":"a\n","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false}}'
hook claude-code claude-code '{"session_id":"cc","transcript_path":null,"cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls /tmp"},"tool_use_id":"toolu_12"}'
if [ ! -s "$TMP/out" ]; then
    pass "claude-code: an approved call that succeeds ends the streak"
else
    fail "claude-code: an approved call that succeeds ends the streak" "$(cat "$TMP/out")"
fi

# Codex: the output is a string; its exec output begins with "Exit code: N" (the recorded
# apply_patch result). Codex cannot ask: the next call is denied with the reason.
codex_failed() {
    printf '{"session_id":"cx","turn_id":"t","transcript_path":null,"cwd":"/tmp","hook_event_name":"PostToolUse","model":"gpt-5.5","permission_mode":"bypassPermissions","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\\n*** Update File: /nonexistent-%s\\n@@\\n-a\\n+b\\n*** End Patch\\n"},"tool_response":"Exit code: 1\\nWall time: 0 seconds\\nOutput:\\nFailed to read file to update /nonexistent-%s: No such file or directory (os error 2)\\n","tool_use_id":"call_%s"}' "$1" "$1" "$1"
}
thrash codex codex_failed \
    '{"session_id":"cx","turn_id":"t","transcript_path":null,"cwd":"/tmp","hook_event_name":"PreToolUse","model":"gpt-5.5","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":"ls /tmp"},"tool_use_id":"call_8"}' \
    '"permissionDecision":"deny"'

# Codex's shell tool: tool_response is the output text only; how the command ended is in the
# rollout (transcript_path), whose item_completed for the call Codex writes before the hook
# runs (tests/data/hosts/codex/rollout/). Each failed item is appended just before its
# PostToolUse, as Codex does.
CX_ROLLOUT=$TMP/rollout-cxb.jsonl
: >"$CX_ROLLOUT"
# codex_item ID STATUS EXIT OUTPUT: one item_completed line of a shell call, as Codex 0.171 writes it.
codex_item() {
    printf '{"timestamp":"2026-12-01T10:00:00.000Z","type":"event_msg","payload":{"type":"item_completed","thread_id":"t","turn_id":"t","item":{"type":"CommandExecution","id":"%s","command":["/bin/bash","-lc","ls"],"status":"%s","aggregated_output":"%s\\n","exit_code":%s}}}\n' "$1" "$2" "$4" "$3"
}
codex_bash_failed() {
    codex_item "call_b$1" failed 2 "$(printf "$LS_ERR" "$1")" >>"$CX_ROLLOUT"
    printf '{"session_id":"cxb","turn_id":"t","transcript_path":"%s","cwd":"/tmp","hook_event_name":"PostToolUse","model":"gpt-5.5","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":"ls /nonexistent-%s"},"tool_response":"'"$LS_ERR"'\\n","tool_use_id":"call_b%s"}' "$CX_ROLLOUT" "$1" "$1" "$1"
}
thrash codex codex_bash_failed \
    '{"session_id":"cxb","turn_id":"t","transcript_path":"'"$CX_ROLLOUT"'","cwd":"/tmp","hook_event_name":"PreToolUse","model":"gpt-5.5","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":"ls /tmp"},"tool_use_id":"call_b8"}' \
    '"permissionDecision":"deny"'

# The rollout's word beats the text: seven commands that exited 0 although their output reads
# like an error to the heuristics (a build log's "error:" lines) are no streak. All seven items are written first, so every PostToolUse after
# the first finds its item in bytes an earlier hook already read.
CX_ROLLOUT=$TMP/rollout-cxo.jsonl
for i in 1 2 3 4 5 6 7; do
    codex_item "call_o$i" completed 0 "error: unused variable x$i"
done >"$CX_ROLLOUT"
for i in 1 2 3 4 5 6 7; do
    hook codex codex "$(printf '{"session_id":"cxo","turn_id":"t","transcript_path":"%s","cwd":"/tmp","hook_event_name":"PostToolUse","model":"gpt-5.5","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":"cat build-%s.log"},"tool_response":"error: unused variable x%s\\n","tool_use_id":"call_o%s"}' "$CX_ROLLOUT" "$i" "$i" "$i")"
done
hook codex codex '{"session_id":"cxo","turn_id":"t","transcript_path":"'"$CX_ROLLOUT"'","cwd":"/tmp","hook_event_name":"PreToolUse","model":"gpt-5.5","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":"ls /tmp"},"tool_use_id":"call_o8"}'
if [ ! -s "$TMP/out" ]; then
    pass "codex: commands the rollout says exited 0 are no streak, whatever their text"
else
    fail "codex: commands the rollout says exited 0 are no streak, whatever their text" "$(cat "$TMP/out" "$TMP/err")"
fi

# Gemini CLI: the shell reports a failed command with no error, only "Exit Code: N" after the
# output. Gemini cannot ask: a deny.
gemini_failed() {
    printf '{"session_id":"gm","transcript_path":"/t.jsonl","cwd":"/tmp","hook_event_name":"AfterTool","timestamp":"2026-12-01T10:00:00.000Z","tool_name":"run_shell_command","tool_input":{"command":"ls /nonexistent-%s","description":"list"},"tool_response":{"llmContent":"<untrusted_context>\\nOutput: '"$LS_ERR"'\\nExit Code: 2\\nProcess Group PGID: 4%s\\n</untrusted_context>","returnDisplay":"'"$LS_ERR"'"}}' "$1" "$1" "$1" "$1"
}
thrash gemini gemini_failed \
    '{"session_id":"gm","transcript_path":"/t.jsonl","cwd":"/tmp","hook_event_name":"BeforeTool","timestamp":"2026-12-01T10:00:01.000Z","tool_name":"run_shell_command","tool_input":{"command":"ls /tmp"}}' \
    '"decision":"deny"'

# Cursor: postToolUseFailure; the next shell call is asked about.
cursor_failed() {
    printf '{"conversation_id":"cu","generation_id":"g","hook_event_name":"postToolUseFailure","workspace_roots":["/tmp"],"tool_name":"Shell","tool_input":{"command":"ls /nonexistent-%s"},"error_message":"'"$LS_ERR"'"}' "$1" "$1"
}
thrash cursor cursor_failed \
    '{"conversation_id":"cu","generation_id":"g","hook_event_name":"beforeShellExecution","workspace_roots":["/tmp"],"command":"ls /tmp","cwd":"/tmp"}' \
    '"permission":"ask"'

# Pi: the extension forwards Pi's isError.
pi_failed() {
    printf '{"event":"tool_result","session_id":"pi","cwd":"/tmp","tool_name":"bash","tool_call_id":"call_%s","input":{"command":"ls /nonexistent-%s"},"output":"'"$LS_ERR"'\\n\\nCommand exited with code 2","is_error":true}' "$1" "$1" "$1"
}
thrash pi pi_failed \
    '{"event":"tool_call","session_id":"pi","cwd":"/tmp","tool_name":"bash","tool_call_id":"call_8","input":{"command":"ls /tmp"}}' \
    '"result":"ASK"'

# opencode: the plugin forwards metadata.exit as is_error.
opencode_failed() {
    printf '{"event":"tool.execute.after","session_id":"oc","cwd":"/tmp","tool_name":"bash","tool_call_id":"call_%s","input":{"command":"ls /nonexistent-%s"},"output":"'"$LS_ERR"'\\n","is_error":true}' "$1" "$1" "$1"
}
thrash opencode opencode_failed \
    '{"event":"tool.execute.before","session_id":"oc","cwd":"/tmp","tool_name":"bash","tool_call_id":"call_8","input":{"command":"ls /tmp"}}' \
    '"result":"ASK"'

# Scanning results still works on the one shape, and a redaction goes back into the tool's own
# output (Claude Code's updatedToolOutput keeps the Bash fields).
cat >"$TMP/secrets.yaml" <<'YAML'
policies:
  secrets:
    type: function
    handler: deny_secrets
    factory_params: {action: REDACT, scan_results: true}
YAML
printf '%s' '{"session_id":"sr","transcript_path":null,"cwd":"/tmp","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"cat .env"},"tool_use_id":"t1","tool_response":{"stdout":"K=AKIAIOSFODNN7EXAMPLF\n","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false}}' |
    "$BIN" hook claude-code -c "$TMP/secrets.yaml" --state-dir "$TMP/state-sr" >"$TMP/out" 2>"$TMP/err"
want='{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"K=[REDACTED:aws_access_key_id]\n","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false}}}'
if [ "$(cat "$TMP/out")" = "$want" ]; then
    pass "claude-code: a secret in a result is redacted in the tool's own output shape"
else
    fail "claude-code: a secret in a result is redacted in the tool's own output shape" "$(cat "$TMP/out" "$TMP/err")"
fi

e2e_finish
