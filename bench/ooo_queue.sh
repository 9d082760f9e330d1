#!/usr/bin/env bash
# The out-of-order queue benchmark (bench/ooo_queue.c): builds the core in
# build-bench/ (CMake Release) and prints segments/s at each queue length.
#   bench/ooo_queue.sh [N...]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
B=$ROOT/build-bench
cmake -S "$ROOT" -B "$B" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$B" -j2 --target nfsscope_core >/dev/null
cc -O2 -std=c11 -D_DEFAULT_SOURCE -I"$ROOT/analyzer/include" "$ROOT/bench/ooo_queue.c" \
   "$B/analyzer/libnfsscope_core.a" -lm -o "$B/ooo_queue"
"$B/ooo_queue" "$@"
