#!/bin/sh
# Runs every benchmark program of a build directory. Figures go in docs/benchmarks.md.
set -eu
build=${1:-build}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
for b in "$build"/bench_*; do
    [ -x "$b" ] || continue
    name=$(basename "$b")
    echo "== $name"
    case $name in
        bench_hook) "$b" "$build"/rampart examples/rampart.yaml 200 ;;
        bench_cost) "$b" "$build"/rampart 300 ;;
        bench_hook_inproc) "$b" 200 tests/data/hosts tests/data/hosts/config.yaml ;;
        *) "$b" ;;
    esac
done
