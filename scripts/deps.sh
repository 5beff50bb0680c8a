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

# Node 20+ and npm run the real-host suite (tests/realhosts): the hosts are npm packages. Debian
# 12's own nodejs is 18, too old, so it is installed only from a configured repository that has
# 20+ (NodeSource's image does); otherwise this says so loudly, and fails in CI (CI=true) unless
# RAMPART_REALHOSTS_ALLOW_SKIP=1.
node_major() { node -e 'console.log(process.versions.node.split(".")[0])' 2>/dev/null || echo 0; }
node_ok() { command -v npm >/dev/null 2>&1 && [ "$(node_major)" -ge 20 ]; }
if ! node_ok; then
    candidate=$(apt-cache policy nodejs 2>/dev/null | sed -n 's/^ *Candidate: *\([0-9]*\).*/\1/p')
    if [ "${candidate:-0}" -ge 20 ] 2>/dev/null; then
        missing="$missing nodejs" # NodeSource's nodejs carries npm
    fi
fi
check_node() {
    node_ok && return 0
    echo "!!!!! deps: node 20+ with npm is needed for the real-host suite (tests/realhosts) and is" >&2
    echo "!!!!! not installed (node: $(node --version 2>/dev/null || echo none)); install Node 20 (NodeSource's nodejs" >&2
    echo "!!!!! package, say) or set RAMPART_REALHOSTS_ALLOW_SKIP=1" >&2
    if [ "${CI:-}" = true ] && [ "${RAMPART_REALHOSTS_ALLOW_SKIP:-}" != 1 ]; then exit 1; fi
}

if [ -z "$missing" ]; then
    check_node
    exit 0
fi

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

check_node
