#!/bin/sh
# Runs every benchmark program against a build directory. Figures go in docs/benchmarks.md.
set -eu
build=${1:-build}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
for b in "$build"/bench_json "$build"/bench_store; do
    [ -x "$b" ] && { echo "== $(basename "$b")"; "$b"; }
done
echo "== bench_eval"
"$build"/bench_eval
echo "== bench_hook"
"$build"/bench_hook "$build"/rampart examples/rampart.yaml 300
