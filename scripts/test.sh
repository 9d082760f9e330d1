#!/usr/bin/env bash
# Install what is needed, build, and run the whole test suite (ctest).
#   scripts/test.sh             release build in build/
#   scripts/test.sh --sanitize  ASan+UBSan build in build-asan/
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
dir=build opts=(-DCMAKE_BUILD_TYPE=Release)
if [ "${1:-}" = --sanitize ]; then
  dir=build-asan opts=(-DCMAKE_BUILD_TYPE=Debug -DNFSSCOPE_SANITIZE=ON)
fi
cmake -S . -B "$dir" "${opts[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
ctest --test-dir "$dir" --output-on-failure -j"$(nproc)"
