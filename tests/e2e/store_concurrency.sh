#!/usr/bin/env bash
# store_concurrency.sh — two processes × 500 load → increment → save cycles on one session of one
# SQLite store must leave n == 1000: no update lost, none failed.
#
# usage: tests/e2e/store_concurrency.sh PATH/TO/store_hammer
set -u

hammer=${1:?usage: store_concurrency.sh PATH/TO/store_hammer}
iterations=500

if [[ ! -x "$hammer" ]]; then
    echo "store concurrency: $hammer is not an executable" >&2
    exit 2
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/rampart-store-concurrency-XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT

fail() {
    echo "store concurrency: FAIL: $*" >&2
    for log in "$dir"/hammer-*.log; do
        [[ -s "$log" ]] && sed "s|^|  $(basename "$log"): |" "$log" >&2
    done
    echo "store concurrency: 0 passed, 1 failed"
    exit 1
}

# The store does not exist yet: both workers also race on creating the directory, the database
# and its schema (the migration re-checks the version under the write lock).
"$hammer" "$dir/state" session-1 "$iterations" 2>"$dir/hammer-a.log" &
pid_a=$!
"$hammer" "$dir/state" session-1 "$iterations" 2>"$dir/hammer-b.log" &
pid_b=$!
wait "$pid_a"; status_a=$?
wait "$pid_b"; status_b=$?
[[ $status_a -eq 0 ]] || fail "worker a exited with status $status_a"
[[ $status_b -eq 0 ]] || fail "worker b exited with status $status_b"

state=$("$hammer" "$dir/state" session-1 --print 2>"$dir/hammer-print.log") ||
    fail "reading the final state"
expected="{\"n\":$((2 * iterations))}"
[[ "$state" == "$expected" ]] || fail "final state is $state, expected $expected"

echo "store concurrency: 1 passed, 0 failed"
