#!/usr/bin/env bash
# pricing_cli.sh BINARY SOURCE_DIR — end-to-end tests of `rampart pricing`: the table header
# with the shipped table's age (fixed clock), config overrides marked, MODEL resolution and its
# exit status, --json, the default config stack, config errors and usage errors. Behaviour is
# checked with made-up models from a config `pricing:` block, never with shipped prices.
set -u
. "$(dirname "$0")/lib.sh"
e2e_init pricing_cli "$1" "$2"

OUT=$TMP/out
ERR=$TMP/err

expect_out_line() {
    local got
    got=$(sed -n "${2}p" "$OUT")
    if [ "$got" = "$3" ]; then pass "$1"; else fail "$1: line $2 is '$got', expected '$3'" "$(cat "$OUT" "$ERR")"; fi
}

expect_match() {
    if grep -Eq -- "$3" "$2"; then pass "$1"; else fail "$1: no line matches $3" "$(cat "$2")"; fi
}

expect_no_match() {
    if grep -Eq -- "$3" "$2"; then fail "$1: a line matches $3" "$(cat "$2")"; else pass "$1"; fi
}

UPDATED=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["updated"])' "$ROOT/data/pricing.json")
# The date 10 days after the shipped table was updated, for the fixed clock.
LATER=$(python3 -c 'import datetime,sys; d=datetime.date.fromisoformat(sys.argv[1]); print((d+datetime.timedelta(days=10)).isoformat())' "$UPDATED")
N_SHIPPED=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["models"]))' "$ROOT/data/pricing.json")
FIRST=$(python3 -c 'import json,sys; print(next(iter(json.load(open(sys.argv[1]))["models"])))' "$ROOT/data/pricing.json")

cat >"$TMP/prices.yaml" <<EOF
pricing:
  acme-opus-4-5: {input: 5, output: 25}
  acme-nano: {input: 0.05, output: 0.4, cache_read: 0.005, cache_write: 0.05}
  $FIRST: {input: 0.5, output: 1}
EOF

# ---- the table ----
RAMPART_NOW="${LATER}T23:59:59Z" run_rampart "$OUT" "$ERR" pricing -c "$TMP/prices.yaml"
expect_rc "the table" 0
expect_out_line "... the header gives the update date and its age" 1 \
    "# shipped prices updated $UPDATED (10 days ago); USD per 1M tokens"
expect_match "... the column header" "$OUT" '^MODEL +INPUT +OUTPUT +CACHE READ +CACHE WRITE +RECORDED +SOURCE$'
expect_match "... an added model is marked, with its file as source" "$OUT" \
    "^acme-opus-4-5 \* +5\.00 +25\.00 +0\.50 +6\.25 +- +config: $TMP/prices.yaml$"
expect_match "... small prices keep their digits" "$OUT" '^acme-nano \* +0\.05 +0\.40 +0\.005 +0\.05 '
expect_match "... a replaced shipped model is marked in place" "$OUT" "^$FIRST \* +0\.50 +1\.00 +0\.05 +0\.625 +- +config: "
expect_match "... the marker is explained" "$OUT" '^# \* set by the configuration'
ROWS=$(grep -vc '^#\|^MODEL' "$OUT")
if [ "$ROWS" -eq $((N_SHIPPED + 2)) ]; then pass "... every shipped model plus the two added ones"; else fail "... $ROWS rows, expected $((N_SHIPPED + 2))"; fi
expect_match "... shipped rows have a date and an https source" "$OUT" \
    ' [0-9]{4}-[0-9]{2}-[0-9]{2}  https://'

RAMPART_NOW="${UPDATED}T00:00:00Z" run_rampart "$OUT" "$ERR" pricing
expect_rc "no config at all" 0
expect_out_line "... same day: 0 days ago" 1 "# shipped prices updated $UPDATED (0 days ago); USD per 1M tokens"
expect_no_match "... nothing marked" "$OUT" ' \* '

# ---- MODEL resolution ----
run_rampart "$OUT" "$ERR" pricing -c "$TMP/prices.yaml" acme-opus-4-5-20251101 'anthropic.acme-opus-4.5-20251101-v1:0' acme-nano
expect_rc "resolving priced models" 0
expect_out_line "... a dated id" 1 \
    "acme-opus-4-5-20251101 → acme-opus-4-5: \$5.00 in / \$25.00 out / \$0.50 cache read / \$6.25 cache write per 1M tokens (config: $TMP/prices.yaml)"
expect_out_line "... a Bedrock id with dots" 2 \
    "anthropic.acme-opus-4.5-20251101-v1:0 → acme-opus-4-5: \$5.00 in / \$25.00 out / \$0.50 cache read / \$6.25 cache write per 1M tokens (config: $TMP/prices.yaml)"

run_rampart "$OUT" "$ERR" pricing -c "$TMP/prices.yaml" acme-nano acme-opus-4-5-foo
expect_rc "an unpriced model fails" 1
expect_out_line "... the priced one still resolves" 1 \
    "acme-nano → acme-nano: \$0.05 in / \$0.40 out / \$0.005 cache read / \$0.05 cache write per 1M tokens (config: $TMP/prices.yaml)"
expect_out_line "... no prefix matching" 2 "acme-opus-4-5-foo → unpriced"

# ---- --json ----
RAMPART_NOW="${LATER}T12:00:00Z" run_rampart "$OUT" "$ERR" pricing -c "$TMP/prices.yaml" --json
expect_rc "--json table" 0
check "... one object with updated, age and every model" json_lines "$OUT" \
    "len(d) == 1 and d[0]['updated'] == '$UPDATED' and d[0]['age_days'] == 10 and len(d[0]['models']) == $N_SHIPPED + 2"
check "... an added model" json_lines "$OUT" \
    "[m for m in d[0]['models'] if m['model'] == 'acme-opus-4-5'] == [{'model': 'acme-opus-4-5', 'input': 5.0, 'output': 25.0, 'cache_read': 0.5, 'cache_write': 6.25, 'recorded': None, 'source': 'config: $TMP/prices.yaml', 'from_config': True}]"
check "... shipped models carry recorded and source" json_lines "$OUT" \
    "all(m['recorded'] and m['source'].startswith('https://') for m in d[0]['models'] if not m['from_config'])"

run_rampart "$OUT" "$ERR" pricing -c "$TMP/prices.yaml" --json ACME-NANO nope
expect_rc "--json lookups with an unpriced one" 1
check "... lookups in order, null price when unpriced" json_lines "$OUT" \
    "[(x['id'], x['price'] and x['price']['model']) for x in d[0]['lookups']] == [('ACME-NANO', 'acme-nano'), ('nope', None)]"

# ---- the default stack ----
mkdir -p "$XDG_CONFIG_HOME/rampart"
printf 'pricing:\n  acme-user: {input: 1, output: 2}\n' >"$XDG_CONFIG_HOME/rampart/config.yaml"
run_rampart "$OUT" "$ERR" pricing acme-user
expect_rc "without -c the user config is read" 0
expect_match "... its price is used" "$OUT" '^acme-user → acme-user: \$1\.00 in / \$2\.00 out / \$0\.10 cache read / \$1\.25 cache write'
rm "$XDG_CONFIG_HOME/rampart/config.yaml"

# ---- errors ----
printf 'pricing:\n  acme: {input: -1, output: 1}\n  acme-2: {input: 1}\n' >"$TMP/bad.yaml"
run_rampart "$OUT" "$ERR" pricing -c "$TMP/bad.yaml"
expect_rc "a bad pricing block" 2
expect_match "... names file:line:col and the field" "$ERR" \
    "^$TMP/bad.yaml:2:17: key 'pricing.acme.input': must be a number >= 0 \(USD per 1M tokens\), got -1$"
expect_match "... and a missing price" "$ERR" \
    "^$TMP/bad.yaml:3:3: key 'pricing.acme-2.output': missing: give the price in USD per 1M output tokens$"

run_rampart "$OUT" "$ERR" pricing --bogus
expect_rc "an unknown option" 2
run_rampart "$OUT" "$ERR" pricing -c
expect_rc "-c without a file" 2
RAMPART_NOW=yesterday run_rampart "$OUT" "$ERR" pricing
expect_rc "a malformed RAMPART_NOW" 2
run_rampart "$OUT" "$ERR" help pricing
expect_rc "rampart help pricing" 0
expect_match "... prints the usage" "$OUT" '^usage: rampart pricing \[-c FILE\]\.\.\. \[--json\] \[MODEL\.\.\.\]$'
run_rampart "$OUT" "$ERR" pricing --help
expect_rc "rampart pricing --help" 0
expect_match "... the same usage" "$OUT" '^usage: rampart pricing'

e2e_finish
