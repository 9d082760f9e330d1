#!/usr/bin/env bash
# Install what the program needs (not the test tools), build nfsscope, and
# run it on a bundled capture.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --run
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
build/analyzer/nfsscope -r "${1:-samples/nfsv41-proxy.pcap}"
