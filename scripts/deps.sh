#!/bin/sh
# Installs the Debian packages rampart needs to build and test, only when something is missing.
# Idempotent: on a machine that has everything it does nothing and asks no mirror.
set -eu

PACKAGES="build-essential cmake pkg-config clang libclang-rt-14-dev libyaml-dev libsqlite3-dev
libcmocka-dev libpcre2-dev libvectorscan-dev python3"

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

echo "deps: installing:$missing" >&2
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "deps: missing packages:$missing; run as root or install sudo, then retry" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "deps: no apt-get here; install these packages by hand:$missing" >&2
    exit 1
fi
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
