#!/usr/bin/env bash
# deep_inputs.sh BINARY SOURCE_DIR — hostile nesting and sharing through the real binary on a
# 1 MiB stack (issue 16 point 9): every parser answers 60,000-deep input with an error or a
# fail-closed verdict, never a crash, and in bounded time and memory.
#
# * `rampart eval`: shell commands nesting each construct 60k deep (and 17,000 here-docs on one
#   line), a 60k-deep JSON event; the batch goes on past them and none of them is allowed;
#   brace expansion over thousands of unmatched '{' ends in time.
# * `rampart hook claude-code`: the same command and JSON through the hook.
# * `rampart validate`: 60k-deep YAML (flow and block), a billion-laughs alias bomb, a
#   cel_policy expression nested past the parser's limit, aliases nested 3,000 levels deep.
# * `rampart cel`: deep expressions, a deep --var, and lists built by sharing
#   (cel.bind(a1, [a0, a0], ...) = 2^40 elements): equality, printing, a state update.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init deep_inputs "$1" "$2"

OUT=$TMP/out
ERR=$TMP/err
# A sanitized build has bigger frames and cannot run under ulimit -v.
STACK_KB=1024
SANITIZED=0
if grep -q -a AddressSanitizer "$BIN"; then
    STACK_KB=8192
    SANITIZED=1
fi

# small_stack ARGS...: the binary on a STACK_KB stack, at most 120 s; sets RC.
small_stack() {
    (
        ulimit -s "$STACK_KB"
        [ "$SANITIZED" -eq 1 ] || ulimit -v 1000000
        exec timeout 120 "$BIN" "$@"
    ) >"$OUT" 2>"$ERR"
    RC=$?
}

python3 - "$TMP" <<'PY'
import json, sys
tmp = sys.argv[1]
N = 60000
def call(cmd):
    return json.dumps({"type": "tool_call", "session_id": "s", "target": "Bash",
                       "data": {"name": "Bash", "arguments": {"command": cmd}}})
P = "rm -rf /"
shell = [
    "$(" * N + P + ")" * N, "${" * N + P + "}" * N, "${a[" * N + P, "$[" * N + P,
    "${#" * N + P, "${a/" * N + P, "${a:-$(" * N + P, "$((" + "(" * N + P + ")" * N + "))",
    "(( " + "(" * N + P + ")" * N + " ))", "[[ " + "( " * N + P + " )" * N + " ]]",
    "(" * N + P + ")" * N, "{ " * N + P + "; " + "}; " * N, "a=(" + "(" * N + P,
    "if x; then " * N + P + "; " + "fi; " * N, "while x; do " * N + P + "; " + "done; " * N,
    "case a in a) " * N + P + ";; " + "esac " * N, "cat <(" * N + P + ")" * N,
    "`" * N + P, '"$(' * N + P, "f() { " * N + P,
    "$(cat <<E\n" * 2000 + P + "\nE\n)" * 2000,
    "cat <<E " * 17000 + P + "\n" + "E\n" * 17000,
]
with open(f"{tmp}/shell.jsonl", "w") as f:
    for cmd in shell:
        f.write(call(cmd) + "\n")
    f.write(json.dumps({"type": "tool_call", "session_id": "s", "target": "Bash",
                        "data": {"name": "Bash", "arguments": {"command": "ls",
                                 "x": json.loads("[" * 200 + "]" * 200)}}}) + "\n")
    f.write('{"type":"tool_call","session_id":"s","target":"Bash","data":{"name":"Bash",'
            '"arguments":{"command":"ls","x":' + "[" * N + "]" * N + "}}}\n")
    f.write(call("ls") + "\n")
with open(f"{tmp}/braces.jsonl", "w") as f:
    f.write(call("rm " + "{a," * 16000 + "{a," * 6000 + "b" + "}" * 6000) + "\n")
with open(f"{tmp}/n_shell", "w") as f:
    f.write(str(len(shell)))
def pre(cmd):
    return json.dumps({"session_id": "d1", "transcript_path": None, "cwd": "/tmp",
                       "permission_mode": "default", "hook_event_name": "PreToolUse",
                       "tool_name": "Bash", "tool_input": {"command": cmd},
                       "tool_use_id": "toolu_d1"})
with open(f"{tmp}/hook_cmd.json", "w") as f:
    f.write(pre("$(" * N + P + ")" * N))
with open(f"{tmp}/hook_json.json", "w") as f:
    f.write(pre("ls")[:-1] + ', "x": ' + "[" * N + "]" * N + "}")
head = "policies:\n  p:\n    type: function\n    handler: blast_radius\n    factory_params:\n      x: "
open(f"{tmp}/flow.yaml", "w").write(head + "[" * N + "]" * N + "\n")
open(f"{tmp}/flowmap.yaml", "w").write(head + "{a: " * N + "1" + "}" * N + "\n")
open(f"{tmp}/block.yaml", "w").write(
    "policies:\n" + "".join("  " * (i + 1) + "a:\n" for i in range(N // 20)) + "  " * (N // 20 + 1) + "1\n")
bomb = "a0: &a0 [x,x,x,x,x,x,x,x,x,x]\n" + "".join(
    f"a{i}: &a{i} [" + ",".join([f"*a{i-1}"] * 10) + "]\n" for i in range(1, 12))
open(f"{tmp}/bomb.yaml", "w").write(bomb + head + "*a11\n")
chain = "a0: &a0 " + "[" * 60 + "]" * 60 + "\n" + "".join(
    f"a{i}: &a{i} " + "[" * 60 + f"*a{i-1}" + "]" * 60 + "\n" for i in range(1, 50))
open(f"{tmp}/aliasdeep.yaml", "w").write(chain + head + "*a49\n")
def cel_policy(expr):
    return ("policies:\n  c:\n    type: function\n    handler: cel_policy\n"
            "    factory_params:\n      on_error: deny\n      expression: '"
            + expr.replace("'", "''") + "'\n")
open(f"{tmp}/celdeep.yaml", "w").write(cel_policy("(" * 30000 + "true" + ")" * 30000))
def doubled(v, n, body):
    for i in range(n, 0, -1):
        body = f"cel.bind({v}{i}, [{v}{i-1}, {v}{i-1}], {body})"
    return f"cel.bind({v}0, [1], {body})"
eq = doubled("a", 40, doubled("b", 40, "a40 == b40"))
open(f"{tmp}/cel_eq.txt", "w").write(eq)
open(f"{tmp}/cel_big.txt", "w").write(doubled("a", 40, "a40"))
open(f"{tmp}/cel_paren.txt", "w").write("(" * 49000 + "1" + ")" * 49000)
open(f"{tmp}/cel_var.txt", "w").write("x=" + "[" * N + "]" * N)
open(f"{tmp}/celeq.yaml", "w").write(cel_policy(
    doubled("a", 40, doubled("b", 40, '{"result": a40 == b40 ? "ALLOW" : "DENY"}'))))
open(f"{tmp}/celstate.yaml", "w").write(cel_policy(doubled("a", 40,
    '{"result": "ALLOW", "state_updates": [{"key": "k", "action": "set", "value": a40}]}')))
PY

cat >"$TMP/shell.yaml" <<'EOF'
policies:
  permissions:
    type: function
    handler: permissions
    factory_params:
      permission:
        bash: {"*": allow}
  blast:
    type: function
    handler: blast_radius
EOF
N_SHELL=$(cat "$TMP/n_shell")

# ---- eval: one answer per line, the batch goes on, nothing deep is allowed ----
small_stack eval -c "$TMP/shell.yaml" --stateless "$TMP/shell.jsonl"
expect_rc "eval survives 60k-deep shell and JSON on a small stack (one bad JSON line)" 1
check "... one answer per line, the last (plain) line still evaluated" \
    json_lines "$OUT" "len(d) == $N_SHELL + 3 and d[-1]['result'] == 'ALLOW'"
check "... no deeply nested 'rm -rf /' is allowed" \
    json_lines "$OUT" "all(x['result'] in ('ASK', 'DENY') for x in d[:$N_SHELL])"
check "... a 200-deep JSON argument is evaluated" json_lines "$OUT" "d[$N_SHELL]['result'] == 'ALLOW'"
check "... the 60k-deep JSON line is an error line naming the depth" \
    json_lines "$OUT" "'nesting deeper than' in d[$N_SHELL + 1]['error']"

# Unmatched '{' were each rescanned to the end, in every alternative (fuzz_permissions timeout).
(ulimit -s "$STACK_KB" && exec timeout 5 "$BIN" eval -c "$TMP/shell.yaml" --stateless \
    "$TMP/braces.jsonl") >"$OUT" 2>"$ERR"
RC=$?
expect_rc "eval: 16k unmatched '{' before 6k nested brace groups, within 5 s" 0
check "... not allowed" json_lines "$OUT" "d[0]['result'] in ('ASK', 'DENY')"

# ---- hook ----
CONFIG=$ROOT/tests/data/hosts/config.yaml
mkdir -p "$TMP/state"
small_stack hook claude-code -c "$CONFIG" --state-dir "$TMP/state" <"$TMP/hook_cmd.json"
if [ "$RC" -lt 128 ] && grep -q '"permissionDecision":"\(ask\|deny\)"' "$OUT"; then
    pass "hook: a 60k-deep \$(rm -rf /) is asked about or denied"
else
    fail "hook: a 60k-deep \$(rm -rf /) (exit $RC)" "$(head -c 400 "$OUT" "$ERR")"
fi
small_stack hook claude-code -c "$CONFIG" --state-dir "$TMP/state" <"$TMP/hook_json.json"
if [ "$RC" -lt 128 ] && { [ "$RC" -eq 2 ] || grep -q '"permissionDecision":"deny"' "$OUT"; }; then
    pass "hook: a 60k-deep JSON payload is denied (exit $RC)"
else
    fail "hook: a 60k-deep JSON payload (exit $RC)" "$(head -c 400 "$OUT" "$ERR")"
fi

# ---- validate ----
for f in flow flowmap block; do
    small_stack validate "$TMP/$f.yaml"
    expect_rc "validate: 60k-deep YAML ($f) is an error" 1
    check "... naming the depth" grep -q "nesting deeper than 64 levels" "$OUT" "$ERR"
done
small_stack validate "$TMP/bomb.yaml"
expect_rc "validate: a billion-laughs alias bomb is an error" 1
check "... by node count" grep -q "document too large" "$OUT" "$ERR"
small_stack validate "$TMP/aliasdeep.yaml"
expect_rc "validate: aliases nested in anchors 3,000 levels deep are an error" 1
check "... naming the depth through the alias" grep -q "deeper than 64 levels (through alias" "$OUT" "$ERR"
small_stack validate "$TMP/celdeep.yaml"
expect_rc "validate: a cel_policy expression 30k parentheses deep is an error" 1
check "... naming the depth" grep -q "nested too deeply" "$OUT" "$ERR"

# ---- cel ----
small_stack cel -- "$(cat "$TMP/cel_paren.txt")"
expect_rc "cel: 49k parentheses" 2
check "... too deep" grep -q "nested too deeply" "$ERR"
small_stack cel --var "$(cat "$TMP/cel_var.txt")" -- 'x == x'
if [ "$RC" -ge 1 ] && [ "$RC" -le 2 ] && grep -q "nesting deeper than" "$ERR"; then
    pass "cel: a 60k-deep --var is refused (exit $RC)"
else
    fail "cel: a 60k-deep --var (exit $RC)" "$(head -c 400 "$ERR")"
fi
small_stack cel -- "$(cat "$TMP/cel_eq.txt")"
expect_rc "cel: comparing two 2^40-element shared lists" 1
check "... runs out of budget" grep -q "evaluation budget exceeded" "$ERR"
small_stack cel -- "$(cat "$TMP/cel_big.txt")"
expect_rc "cel: printing a 2^40-element shared list" 1
check "... is refused as too long" grep -q "too long to print" "$ERR"
echo '{"type":"tool_call","session_id":"s","target":"Bash","data":{"name":"Bash","arguments":{"command":"ls"}}}' >"$TMP/ls.jsonl"
small_stack eval -c "$TMP/celeq.yaml" --stateless "$TMP/ls.jsonl"
check "cel_policy: the 2^40 comparison is an evaluation error, denied by on_error" \
    json_lines "$OUT" "d[0]['result'] == 'DENY' and 'budget exceeded' in d[0]['reason']"
small_stack eval -c "$TMP/celstate.yaml" --stateless "$TMP/ls.jsonl"
check "cel_policy: a 2^40-element state update is refused, denied by on_error" \
    json_lines "$OUT" "d[0]['result'] == 'DENY' and 'too large' in d[0]['reason']"

# A reason quoting a 60 KB command is cut at 4 KiB (RP_REASON_MAX), at a character boundary, and
# says how much was left out: the host shows it, the audit stores it.
python3 - "$TMP/long.jsonl" <<'PY'
import json, sys
cmd = "rm -rf / " + "\u00e9" * 30000
open(sys.argv[1], "w").write(json.dumps({"type": "tool_call", "session_id": "s", "target": "Bash",
    "data": {"name": "Bash", "arguments": {"command": cmd}}}) + "\n")
PY
small_stack eval -c "$TMP/shell.yaml" --stateless "$TMP/long.jsonl"
check "a reason quoting a 60 KB command is cut to 4 KiB, whole characters, with what was left out" \
    json_lines "$OUT" "d[0]['result'] != 'ALLOW' and len(d[0]['reason'].encode()) <= 4096 + 40 and d[0]['reason'].endswith(' more bytes]') and '\u00e9' in d[0]['reason']"

e2e_finish
