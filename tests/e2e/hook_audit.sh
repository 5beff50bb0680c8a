#!/usr/bin/env bash
# hook_audit.sh — the audit log says what the host was told and why (issue 15, point 11): a
# redacted tool call is REDACT with the redacting policy and the finding types, a prompt that
# had to be blocked because the host cannot take its redaction is DENY naming them, and a Codex
# ASK (which Codex hooks cannot put) is the DENY Codex got. The secret itself is never logged.
set -u
. "$(dirname "$0")/lib.sh"
e2e_init hook_audit "$1" "$2"
CONFIG=$ROOT/tests/data/hosts/config.yaml
export RAMPART_NOW=2026-12-01T10:00:00Z USER=e2e-user
KEY=AKIAIOSFODNN7EXAMPLF
OUT=$TMP/out ERR=$TMP/err

hook() { # hook HOST SESSION JSON: one hook call into $OUT
    printf '%s' "$3" | "$BIN" hook "$1" -c "$CONFIG" --state-dir "$TMP/state" >"$OUT" 2>"$ERR"
}
json_log() { # json_log SESSION PYTHON-EXPR over d (the rows): the --json log of one session
    "$BIN" log --json --session "$1" --state-dir "$TMP/state" >"$TMP/log" 2>"$ERR" &&
        python3 -c 'import json,sys
d=[json.loads(l) for l in open(sys.argv[1])]
sys.exit(0 if eval(" ".join(sys.argv[2].split())) else 1)' "$TMP/log" "$2"
}

# A tool call whose secret is redacted: the host runs the rewritten input; the log says REDACT.
hook claude-code a1 '{"session_id":"a1","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/tmp/.env","content":"AWS_ACCESS_KEY_ID='$KEY'\n"},"tool_use_id":"t1"}'
check "the redacted call is answered with the rewritten input" grep -q 'REDACTED:aws_access_key_id' "$OUT"
check "log: a redacted tool call is REDACT by the redacting policy, naming the finding type" \
    json_log a1 'len(d) == 1 and d[0]["result"] == "REDACT" and d[0]["policies"] == ["secrets"]
        and "Secrets redacted" in d[0]["reason"] and "AWS Access Key ID" in d[0]["reason"]'
check "log: the secret is not in the audit" bash -c "! grep -q $KEY '$TMP/log'"
"$BIN" log --session a1 --state-dir "$TMP/state" >"$TMP/text" 2>"$ERR"
check "log (text): REDACT, the policy and the reason" \
    grep -q 'REDACT  \[secrets\]  secrets: Secrets redacted: AWS Access Key ID' "$TMP/text"

# A prompt Claude Code cannot rewrite: blocked, and logged as the DENY it was, with who and why.
hook claude-code a2 '{"session_id":"a2","cwd":"/tmp","hook_event_name":"UserPromptSubmit","prompt":"use the key '$KEY' for the upload"}'
check "the prompt is blocked, naming the policy and the finding type" \
    grep -q '"reason":"the prompt would have to be redacted: secrets: Secrets redacted: AWS Access Key ID' "$OUT"
check "log: the blocked prompt is DENY by the redacting policy, with the reason the host got" \
    json_log a2 'len(d) == 1 and d[0]["result"] == "DENY" and d[0]["policies"] == ["secrets"]
        and d[0]["reason"].startswith("the prompt would have to be redacted: secrets: Secrets redacted: AWS Access Key ID")'
check "log: the secret is not in the audit" bash -c "! grep -q $KEY '$TMP/log'"

# Codex cannot ask before a tool: the host is told DENY, and so is the log.
hook codex a3 '{"session_id":"a3","cwd":"/tmp","hook_event_name":"PreToolUse","model":"gpt-5","turn_id":"u","tool_name":"Bash","tool_input":{"command":"echo ASKME"},"tool_use_id":"t3"}'
check "log: a Codex ASK is the DENY Codex was told" \
    json_log a3 'len(d) == 1 and d[0]["result"] == "DENY" and d[0]["policies"] == ["markers"]
        and d[0]["reason"].startswith("rampart asks for approval, which Codex hooks cannot do")'

e2e_finish
