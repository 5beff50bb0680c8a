#!/usr/bin/env bash
# cel_cli.sh BINARY SOURCE_DIR — end-to-end tests of `rampart cel`: results, --var JSON binding
# (1 is an int, 1.0 a double), compile errors with a caret under the column, evaluation errors,
# bad variables, --ast, --container and the exit statuses.
set -u
. "$(dirname "$0")/lib.sh"
e2e_init cel_cli "$1" "$2"

OUT=$TMP/out
ERR=$TMP/err

# expect_out DESCRIPTION WANT: stdout of the last run is exactly WANT (one line).
expect_out() {
    local got
    got=$(cat "$OUT")
    if [ "$got" = "$2" ]; then pass "$1"; else fail "$1: got '$got', expected '$2'" "$(cat "$ERR")"; fi
}

# expect_err_line DESCRIPTION N WANT: line N of stderr is exactly WANT.
expect_err_line() {
    local got
    got=$(sed -n "${2}p" "$ERR")
    if [ "$got" = "$3" ]; then pass "$1"; else fail "$1: line $2 is '$got', expected '$3'" "$(cat "$ERR")"; fi
}

# expect_err_match DESCRIPTION REGEX: stderr matches REGEX (grep -E).
expect_err_match() {
    if grep -Eq "$2" "$ERR"; then pass "$1"; else fail "$1: stderr does not match $2" "$(cat "$ERR")"; fi
}

EVENT='{"type":"tool_call","session_id":"s1","data":{"name":"Bash","arguments":{"command":"rm -rf /tmp/x"}},"context":{"usage":{"total_cost_usd":1.5}},"session_state":{"call_count":2}}'

# ---- results ----
run_rampart "$OUT" "$ERR" cel '1 + 2'
expect_rc "a constant expression" 0
expect_out "... prints its value" "3"

run_rampart "$OUT" "$ERR" cel --var "event=$EVENT" \
    'event.type == "tool_call" && event.data.name in ["Bash", "Shell"] && event.data.arguments.command.contains("rm")'
expect_rc "the benchmark expression on an event" 0
expect_out "... is true" "true"

run_rampart "$OUT" "$ERR" cel --var "event=$EVENT" 'event.session_state.call_count + 1'
expect_rc "a JSON integer is a CEL int" 0
expect_out "... so call_count + 1 works" "3"

run_rampart "$OUT" "$ERR" cel --var "event=$EVENT" 'event.context.usage.total_cost_usd * 2.0'
expect_rc "a JSON number with a fraction is a CEL double" 0
expect_out "... so cost * 2.0 works" "3.0"

run_rampart "$OUT" "$ERR" cel --var 'x={"i": 1, "d": 1.0}' 'type(x.i) == int && type(x.d) == double'
expect_rc "1 and 1.0 keep their types" 0
expect_out "... int and double" "true"

run_rampart "$OUT" "$ERR" cel '{"result": "DENY", "reason": "no"}'
expect_rc "a map result" 0
expect_out "... is printed in insertion order" '{"result": "DENY", "reason": "no"}'

run_rampart "$OUT" "$ERR" cel --var "event=$EVENT" 'event.type == "tool_call" ? {
  "result": "ALLOW",
  "state_updates": [
    {"key": "call_count", "action": "increment", "value": 1},
    {"key": "last_tool", "action": "set", "value": event.data.name}
  ]
} : {"result": "ALLOW"}'
expect_rc "the seed's count_tool_calls expression (multi-line)" 0
expect_out "... gives its state updates" \
    '{"result": "ALLOW", "state_updates": [{"key": "call_count", "action": "increment", "value": 1}, {"key": "last_tool", "action": "set", "value": "Bash"}]}'

run_rampart "$OUT" "$ERR" cel --var 'a=1' --var 'b=[2, 3]' 'a + b[1]'
expect_rc "several --var" 0
expect_out "... are all bound" "4"

run_rampart "$OUT" "$ERR" cel '"a" + "b"'
expect_out "a string result is quoted" '"ab"'

run_rampart "$OUT" "$ERR" cel 'math.greatest(1, 2.5, 2u)'
expect_out "the math extension is there" "2.5"

run_rampart "$OUT" "$ERR" cel 'optional.none().orValue(optional.of(7).value())'
expect_out "optionals are there" "7"

run_rampart "$OUT" "$ERR" cel '-1 + 3'
expect_rc "an expression starting with '-' is not an option" 0
expect_out "... and is evaluated" "2"

run_rampart "$OUT" "$ERR" cel -- '--1'
expect_rc "-- ends the options" 0
expect_out "... double negation" "1"

run_rampart "$OUT" "$ERR" cel --container a.b --var 'a.b.c=5' 'c + 1'
expect_rc "--container resolves names inside it" 0
expect_out "... c is a.b.c" "6"

run_rampart "$OUT" "$ERR" cel --ast 'a + 1'
expect_rc "--ast" 0
expect_out "... prints the parsed expression" "_+_(a, 1)"

# ---- compile errors: message, the line, a caret under the column (in code points) ----
run_rampart "$OUT" "$ERR" cel '"é" + )'
expect_rc "a syntax error exits 2" 2
expect_err_match "... prints error: MESSAGE first" '^error: .+'
expect_err_line "... then the expression" 2 '"é" + )'
expect_err_line "... then a caret under column 7 (é is one column)" 3 '      ^'
check "... and nothing on stdout" test ! -s "$OUT"

run_rampart "$OUT" "$ERR" cel "$(printf '1 +\n  2 +\n    )')"
expect_rc "a syntax error on the third line" 2
expect_err_line "... shows that line" 2 '    )'
expect_err_line "... with the caret under it" 3 '    ^'

run_rampart "$OUT" "$ERR" cel 'if'
expect_rc "a reserved identifier is a compile error" 2
expect_err_match "... saying so" '^error: .*reserved'

run_rampart "$OUT" "$ERR" cel --ast '[1, 2].exists(x, x > 1)'
expect_rc "--ast shows macros expanded" 0
check "... as a comprehension over the list literal" grep -q '^__comprehension__(x, \[1, 2\], ' "$OUT"

# ---- evaluation errors ----
run_rampart "$OUT" "$ERR" cel '1 / 0'
expect_rc "division by zero exits 1" 1
expect_err_match "... with error: and the reason" '^error: .*divi'
check "... and nothing on stdout" test ! -s "$OUT"

# matches(): a constant pattern runs on PCRE2's JIT, which gives RE2's answer where the
# interpreter stopped at its step limit; a runaway pattern still ends at a limit (fail closed).
SPACES="\"$(printf '%100000s' '')x\""
run_rampart "$OUT" "$ERR" cel --var "s=$SPACES" "s.matches('\\\\s+\$')"
expect_rc "matches() of \\s+\$ over 100,000 spaces and an x" 0
expect_out "... is false (RE2's answer, not a step-limit error)" "false"

run_rampart "$OUT" "$ERR" cel --var "s=\"$(printf 'a%.0s' $(seq 60))!\"" "s.matches('^(a|aa)+\$')"
expect_rc "a catastrophic backtracking pattern is an evaluation error" 1
expect_err_match "... at the match limit" '^error: regex match limit exceeded'

run_rampart "$OUT" "$ERR" cel 'nope + 1'
expect_rc "an unbound variable is an evaluation error" 1
expect_err_match "... naming it" '^error: .*nope'

run_rampart "$OUT" "$ERR" cel 'math.abs(-9223372036854775808)'
expect_rc "math.abs overflow" 1
expect_err_match "... is an overflow error" '^error: .*overflow'

run_rampart "$OUT" "$ERR" cel --var 'event={"data":{}}' 'event.data.missing == 1'
expect_rc "a missing key" 1
expect_err_match "... is an error" '^error: .*missing'

# ---- bad variables and usage ----
run_rampart "$OUT" "$ERR" cel --var 'ev={"a": }' 'ev'
expect_rc "bad --var JSON exits 2" 2
expect_err_match "... naming the variable" 'ev'

run_rampart "$OUT" "$ERR" cel --var 'noequals' '1'
expect_rc "--var without = exits 2" 2

run_rampart "$OUT" "$ERR" cel --var '=1' '1'
expect_rc "--var without a name exits 2" 2

run_rampart "$OUT" "$ERR" cel
expect_rc "no expression exits 2" 2

run_rampart "$OUT" "$ERR" cel '1' '2'
expect_rc "two expressions exit 2" 2

run_rampart "$OUT" "$ERR" cel --frobnicate '1'
expect_rc "an unknown option exits 2" 2

run_rampart "$OUT" "$ERR" cel --help
expect_rc "--help" 0
check "... prints the usage" grep -q '^usage: rampart cel' "$OUT"

run_rampart "$OUT" "$ERR" --help
check "rampart --help lists cel" grep -Eq '^  cel ' "$OUT"

e2e_finish
