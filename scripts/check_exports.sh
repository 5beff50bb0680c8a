#!/bin/sh
# check_exports.sh ARCHIVE — the embed archive defines no global symbol but rampart_* (ctest
# layout.exports). An internal name that leaked would collide with an embedding program's.
set -eu
archive=$1
[ -f "$archive" ] || { echo "check_exports: $archive: no such file" >&2; exit 1; }
all=$(nm -g --defined-only "$archive" | awk 'NF == 3 { print $3 }')
count=$(printf '%s\n' "$all" | grep -c '^rampart_' || true)
leaked=$(printf '%s\n' "$all" | grep -v '^rampart_' | grep -v '^$' || true)
if [ -n "$leaked" ]; then
    echo "check_exports: $archive exports internal symbols:" >&2
    printf '%s\n' "$leaked" | head -20 >&2
    exit 1
fi
# The API of include/rampart.h must all be there.
for f in $(grep -o 'rampart_[a-z_]*(' "$(dirname "$0")/../include/rampart.h" | tr -d '(' | sort -u); do
    printf '%s\n' "$all" | grep -qx "$f" || { echo "check_exports: $f is not exported" >&2; exit 1; }
done
echo "check_exports: $count symbols, all rampart_*"
