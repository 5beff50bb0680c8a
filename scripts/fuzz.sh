#!/usr/bin/env bash
# fuzz.sh [BUILD [SECONDS]] — runs each libFuzzer target of BUILD (default build-fuzz) for
# SECONDS (default 60) from its persistent corpus BUILD/corpus-NAME plus fuzz/seeds/NAME, then
# prints a summary: per target its run count (libFuzzer's "Done N runs in S second(s)") and
# whether it found something. Exit status 1 when any target failed. See fuzz/README.md.
#
# Environment:
#   FUZZ_JOBS=N        run N targets at once (default 1; each target is one process)
#   FUZZ_TARGETS="fuzz_shell fuzz_json"   only these targets (default: every BUILD/fuzz_*)
#   FUZZ_FLAGS="..."   more libFuzzer flags for every target (e.g. -max_len=65536)
# A target's output goes to BUILD/fuzz-logs/NAME.log; a finding to BUILD/NAME-crash-<sha1>
# (or -leak-, -timeout-, -oom-).
set -eu
build=${1:-build-fuzz}
seconds=${2:-60}
jobs=${FUZZ_JOBS:-1}
case $jobs in '' | *[!0-9]* | 0) echo "fuzz.sh: FUZZ_JOBS must be a positive number" >&2; exit 2 ;; esac
logs=$build/fuzz-logs
mkdir -p "$logs"

targets=()
if [ -n "${FUZZ_TARGETS:-}" ]; then
    for name in $FUZZ_TARGETS; do
        if [ ! -x "$build/$name" ]; then
            echo "fuzz.sh: no target $build/$name" >&2
            exit 2
        fi
        targets+=("$name")
    done
else
    for f in "$build"/fuzz_*; do
        [ -x "$f" ] && [ -f "$f" ] && targets+=("$(basename "$f")")
    done
fi
if [ ${#targets[@]} -eq 0 ]; then
    echo "fuzz.sh: no fuzz targets in $build (configure with -DRAMPART_FUZZ=ON)" >&2
    exit 2
fi

# run_one NAME: one target for $seconds; its exit status in $logs/NAME.rc.
run_one() {
    local name=$1 corpus="$build/corpus-$1" seeds="fuzz/seeds/${1#fuzz_}"
    mkdir -p "$corpus"
    local dirs=("$corpus")
    [ -d "$seeds" ] && dirs+=("$seeds")
    local rc=0
    # shellcheck disable=SC2086 # FUZZ_FLAGS is a list of flags
    "$build/$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$build/$name-" ${FUZZ_FLAGS:-} "${dirs[@]}" \
        >"$logs/$name.log" 2>&1 || rc=$?
    echo "$rc" >"$logs/$name.rc"
}

running=0
for name in "${targets[@]}"; do
    if [ "$running" -ge "$jobs" ]; then
        wait -n || true
        running=$((running - 1))
    fi
    echo "== $name for ${seconds}s (log: $logs/$name.log)"
    rm -f "$logs/$name.rc"
    run_one "$name" &
    running=$((running + 1))
done
wait || true

status=0
echo
echo "== fuzz summary (${seconds}s per target, $jobs at a time)"
printf '%-28s %-8s %s\n' target result "runs"
for name in "${targets[@]}"; do
    rc=$(cat "$logs/$name.rc" 2>/dev/null || echo "?")
    done_line=$(grep -a -o 'Done [0-9]* runs in [0-9]* second(s)' "$logs/$name.log" | tail -n 1 || true)
    runs=${done_line:-"(no \"Done\" line: stopped early)"}
    if [ "$rc" = 0 ]; then
        result=ok
    else
        result="FAILED($rc)"
        status=1
    fi
    printf '%-28s %-8s %s\n' "$name" "$result" "$runs"
    if [ "$rc" != 0 ]; then
        grep -a -E 'ERROR: |SUMMARY: |Test unit written to' "$logs/$name.log" | sed 's/^/    /' | head -n 6
    fi
done
exit $status
