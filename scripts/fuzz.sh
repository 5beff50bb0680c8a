#!/bin/sh
# Runs each libFuzzer target for SECONDS (default 60) from a scratch corpus; fails on a finding.
set -eu
build=${1:-build-fuzz}
seconds=${2:-60}
status=0
for f in "$build"/fuzz_*; do
    [ -x "$f" ] || continue
    name=$(basename "$f")
    corpus="$build/corpus-$name"
    mkdir -p "$corpus"
    seeds="fuzz/seeds/${name#fuzz_}"
    echo "== $name for ${seconds}s"
    if [ -d "$seeds" ]; then
        "$f" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
             -artifact_prefix="$build/$name-" "$corpus" "$seeds" || status=1
    else
        "$f" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
             -artifact_prefix="$build/$name-" "$corpus" || status=1
    fi
done
exit $status
