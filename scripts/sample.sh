#!/usr/bin/env bash
# Install what the program needs (not the test tools), build nfsscope, and
# run it on a bundled capture.
set -euo pipefail
cd "$(dirname "$0")/.."
# Progress on standard error, one line per step (the build takes a minute
# or two): the report alone goes to standard output.
say() { echo "sample.sh: $*" >&2; }
say "installing what nfsscope needs (scripts/deps.sh --run)"
scripts/deps.sh --run
say "configuring the build in build/"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
say "building nfsscope ($(nproc) jobs)"
cmake --build build -j"$(nproc)" --target nfsscope 2>&1 | sed -un 's/^\[ *\([0-9]*\)%\].*/\1/p' |
    awk '$1 >= next_pct { printf "sample.sh: built %d%%\n", $1 > "/dev/stderr"; next_pct = $1 + 20 }'
test "${PIPESTATUS[0]}" = 0 || { say "build failed: run cmake --build build to see why"; exit 1; }
say "reading ${1:-samples/nfsv41-proxy.pcap}"
build/analyzer/nfsscope -r "${1:-samples/nfsv41-proxy.pcap}"
