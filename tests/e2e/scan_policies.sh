#!/usr/bin/env bash
# scan_policies.sh BINARY SOURCE_DIR — deny_pii_in_llm_request and deny_secrets through the real
# binary (issue 7): DENY, ASK (lower-case `ask` too) and REDACT with the rewritten data printed,
# a token split by shell quotes, masked reasons that never show the value, a later policy seeing
# the redacted data, parameter errors, the unknown-pii_types warning, and the lazy scanner (a
# process that never sees a scanned phase compiles nothing). The fake token is assembled at run
# time from harmless parts: no secret-shaped string is committed.
set -u
. "$(dirname "$0")/lib.sh"
e2e_init scan_policies "$1" "$2"

OUT=$TMP/out
ERR=$TMP/err
export RAMPART_CACHE_DIR=$TMP/cache

# A GitHub classic token: "gh" "p_" + 30 base62 + the base62 CRC32 of those 30.
TOKEN=$(python3 -c '
import random, zlib
alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
body = "".join(random.Random(7).choice(alphabet) for _ in range(30))
v, sum6 = zlib.crc32(body.encode()), ""
for _ in range(6):
    sum6, v = alphabet[v % 62] + sum6, v // 62
print("gh" + "p_" + body + sum6)')
HEAD=${TOKEN:0:2}
TAIL=${TOKEN:2}

# eval_events CONFIG EVENTS_FILE: stateless; sets RC.
eval_events() {
    "$BIN" eval -c "$1" --stateless "$2" >"$OUT" 2>"$ERR"
    RC=$?
}

bash_call() {
    python3 -c 'import json, sys; print(json.dumps({"type": "tool_call", "data": {"name": "Bash",
        "arguments": {"command": sys.argv[1]}}}))' "$1"
}

request() {
    python3 -c 'import json, sys; print(json.dumps({"type": "request", "data": sys.argv[1]}))' "$1"
}

# ---- DENY: both policies in one config ----
cat >"$TMP/deny.yaml" <<'EOF'
policies:
  pii:
    type: function
    handler: omnigent.policies.builtins.safety.deny_pii_in_llm_request
  secrets:
    type: function
    handler: rampart.policies.safety.deny_secrets
EOF
{
    request "my SSN is 123-45-6789"
    request "write me a hello world program"
    bash_call "echo $TOKEN"
    bash_call "echo \"$HEAD\"\"$TAIL\" > /tmp/t"
    bash_call "ls -la"
    echo '{"type":"llm_request","data":{"system_prompt_preview":"Contact alice@example.com","last_user_message":""}}'
    request "The number is 999-99-9999."
} >"$TMP/deny.jsonl"
eval_events "$TMP/deny.yaml" "$TMP/deny.jsonl"
expect_rc "eval with both policies" 0
check "PII in a request: DENY by pii, with the masked preview" json_lines "$OUT" '
    d[0]["result"] == "DENY" and d[0]["policies"] == ["pii"] and
    d[0]["reason"] == "PII detected (Social Security Number (US)): '"'"'***-**-6789...'"'"'"'
check "a clean request: ALLOW" json_lines "$OUT" 'd[1]["result"] == "ALLOW"'
check "a command that echoes a token: DENY by secrets, naming the argument" json_lines "$OUT" '
    d[2]["result"] == "DENY" and d[2]["policies"] == ["secrets"] and
    d[2]["reason"].startswith("Secret detected (GitHub Token) in tool_call argument '"'"'command'"'"': ")'
check "a token split by shell quotes: DENY after quote removal" json_lines "$OUT" '
    d[3]["result"] == "DENY" and "after shell quote removal" in d[3]["reason"]'
check "a clean command: ALLOW" json_lines "$OUT" 'd[4]["result"] == "ALLOW"'
check "an llm_request system prompt: DENY" json_lines "$OUT" '
    d[5]["result"] == "DENY" and "PII detected (Email Address)" in d[5]["reason"]'
check "999-99-9999 is no SSN (area 9xx was never issued)" json_lines "$OUT" '
    d[6]["result"] == "ALLOW"'
check "no decision shows the token or the SSN" sh -c "! grep -q '123-45-6789' '$OUT' && ! grep -q '${TOKEN:4:12}' '$OUT'"

# ---- ASK: lower-case ask is ASK in rampart (the engine prefixes an ASK's reason with the
# policy's name) ----
cat >"$TMP/ask.yaml" <<'EOF'
policies:
  pii:
    type: function
    handler: deny_pii_in_llm_request
    factory_params: {action: ask}
  secrets:
    type: function
    handler: deny_secrets
    factory_params: {action: Ask}
EOF
{
    request "my SSN is 123-45-6789"
    bash_call "echo $TOKEN"
} >"$TMP/ask.jsonl"
eval_events "$TMP/ask.yaml" "$TMP/ask.jsonl"
expect_rc "eval with action ask" 0
check "PII with action ask: ASK" json_lines "$OUT" '
    d[0]["result"] == "ASK" and d[0]["reason"].startswith("pii: PII detected (Social Security")'
check "a secret with action Ask: ASK" json_lines "$OUT" '
    d[1]["result"] == "ASK" and d[1]["reason"].startswith("secrets: Secret detected (GitHub Token)")'

# ---- REDACT: ALLOW with the data rewritten, in the event's shape ----
cat >"$TMP/redact.yaml" <<'EOF'
policies:
  pii:
    type: function
    handler: deny_pii_in_llm_request
    factory_params: {action: REDACT}
  secrets:
    type: function
    handler: deny_secrets
    factory_params: {action: redact}
  # sees what the redactions left: nothing to deny
  secrets_check:
    type: function
    handler: deny_secrets
EOF
{
    request "mail alice@example.com, token $TOKEN"
    python3 -c 'import json, sys; print(json.dumps({"type": "request", "data": {"user_content": "hi",
        "attachments": [{"filename": "a.csv", "content_type": "text/csv", "text": "id,ssn\n1,123-45-6789"}]}}))'
    bash_call "curl -H 'Authorization: token $TOKEN' https://api.github.com/user"
    bash_call "echo \"$HEAD\"\"$TAIL\""
    request "nothing to hide"
} >"$TMP/redact.jsonl"
eval_events "$TMP/redact.yaml" "$TMP/redact.jsonl"
expect_rc "eval with action REDACT" 0
check "a request: ALLOW, both redactions in the printed data" json_lines "$OUT" '
    d[0]["result"] == "ALLOW" and
    d[0]["data"] == "mail [REDACTED:email], token [REDACTED:github_token]"'
check "attachments keep their other fields" json_lines "$OUT" '
    d[1]["result"] == "ALLOW" and d[1]["data"] == {"user_content": "hi", "attachments": [
        {"filename": "a.csv", "content_type": "text/csv", "text": "id,ssn\n1,[REDACTED:ssn]"}]}'
check "a tool call: data is {name, arguments} with the command rewritten" json_lines "$OUT" '
    d[2]["result"] == "ALLOW" and d[2]["data"] == {"name": "Bash", "arguments": {"command":
        "curl -H '"'"'Authorization: token [REDACTED:github_token]'"'"' https://api.github.com/user"}}'
check "a token only visible after quote removal cannot be redacted: DENY" json_lines "$OUT" '
    d[3]["result"] == "DENY" and "cannot be redacted in place" in d[3]["reason"]'
check "nothing found: ALLOW without data" json_lines "$OUT" '
    d[4]["result"] == "ALLOW" and "data" not in d[4]'
check "no redacted output shows the token or the SSN" sh -c "! grep -q '123-45-6789' '$OUT' && ! grep -q '${TOKEN:4:12}' '$OUT'"

# ---- one policy alone, params on the command line ----
request "key $TOKEN" >"$TMP/key.jsonl"
"$BIN" eval --policy deny_secrets --params '{"allow_patterns": ["'"${TOKEN: -8}"'$"]}' --stateless "$TMP/key.jsonl" >"$OUT" 2>"$ERR"
RC=$?
expect_rc "--policy deny_secrets with allow_patterns" 0
check "a known test key is ignored" json_lines "$OUT" 'd[0]["result"] == "ALLOW"'
"$BIN" eval --policy deny_secrets --params '{"types": ["aws_access_key_id"]}' --stateless "$TMP/key.jsonl" >"$OUT" 2>"$ERR"
check "types limits what is looked for" json_lines "$OUT" 'd[0]["result"] == "ALLOW"'

# ---- parameter errors: exit 2, naming the culprit ----
"$BIN" eval --policy deny_secrets --params '{"types": ["gitub_token"]}' --stateless - </dev/null >"$OUT" 2>"$ERR"
RC=$?
expect_rc "an unknown secret type" 2
check "... is named, with the known ones listed" sh -c "grep -q 'gitub_token' '$ERR' && grep -q 'github_token' '$ERR'"
"$BIN" eval --policy deny_secrets --params '{"allow_patterns": ["(unclosed"]}' --stateless - </dev/null >"$OUT" 2>"$ERR"
RC=$?
expect_rc "an allow pattern that does not compile" 2
check "... is named" grep -q "allow_patterns\[0\] '(unclosed'" "$ERR"
"$BIN" eval --policy deny_pii_in_llm_request --params '{"action": "block"}' --stateless - </dev/null >"$OUT" 2>"$ERR"
RC=$?
expect_rc "an unknown action" 2

# ---- unknown pii_types: ignored as in the reference, but never silently ----
request "my SSN is 123-45-6789" >"$TMP/ssn.jsonl"
"$BIN" eval --policy deny_pii_in_llm_request --params '{"pii_types": ["nonexistent_type"]}' --stateless "$TMP/ssn.jsonl" >"$OUT" 2>"$ERR"
RC=$?
expect_rc "only unknown pii_types" 0
check "... scan nothing: ALLOW" json_lines "$OUT" 'd[0]["result"] == "ALLOW"'
check "... and say so on stderr" grep -q "unknown PII type 'nonexistent_type' ignored" "$ERR"

# ---- the scanner is opened on first use ----
rm -rf "$RAMPART_CACHE_DIR"
cat >"$TMP/pii.yaml" <<'EOF'
policies:
  pii:
    type: function
    handler: deny_pii_in_llm_request
EOF
bash_call "ls" >"$TMP/ls.jsonl"
eval_events "$TMP/pii.yaml" "$TMP/ls.jsonl"
check "a tool call compiles no PII database" sh -c "[ ! -d '$RAMPART_CACHE_DIR' ] || [ -z \"\$(ls -A '$RAMPART_CACHE_DIR')\" ]"
request "hello" >"$TMP/hello.jsonl"
eval_events "$TMP/pii.yaml" "$TMP/hello.jsonl"
check "a request does (and caches it)" sh -c "[ -n \"\$(ls -A '$RAMPART_CACHE_DIR' 2>/dev/null)\" ]"

e2e_finish
