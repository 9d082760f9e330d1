#!/usr/bin/env bash
# Flood benchmark: every flood of tests/gen/make_flood_captures.py at N and
# N/4 packets (default N = 1,000,000), nfsscope --memcap MEMCAP (default 64M);
# prints time, peak RSS, accounted memory and evictions per flood, and the
# time ratio N / (N/4) (linear: about 4). Fails like the ctest e2e.floods.
#   bench/floods.sh [N] [MEMCAP_MB]
# Environment: NFSSCOPE (binary; default: build-bench/ release build),
#              FLOOD_DIR (captures; default build-bench/floods; ~1.5 GB at 1M)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
N=${1:-1000000}
CAP=${2:-64}
DIR=${FLOOD_DIR:-$ROOT/build-bench/floods}
if [ -z "${NFSSCOPE:-}" ]; then
  cmake -S "$ROOT" -B "$ROOT/build-bench" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$ROOT/build-bench" -j"$(nproc)" --target nfsscope >/dev/null
  NFSSCOPE=$ROOT/build-bench/analyzer/nfsscope
fi
export PYTHONDONTWRITEBYTECODE=1
for n in $((N / 4)) "$N"; do
  d=$DIR/$n
  mkdir -p "$d"
  echo "== $n packets per flood, --memcap ${CAP}M (captures in $d)"
  t0=$SECONDS
  [ -e "$d/.done" ] || { python3 "$ROOT/tests/gen/make_flood_captures.py" "$d" "$n"; touch "$d/.done"; }
  echo "generated in $((SECONDS - t0)) s"
  python3 "$ROOT/tests/e2e/check_floods.py" "$NFSSCOPE" "$d" "$n" "$CAP" | tee "$d/result.txt"
done
echo "== time ratio ${N} / $((N / 4)) packets (linear = 4)"
join <(awk '{print $1, $3}' "$DIR/$((N / 4))/result.txt" | sort) <(awk '{print $1, $3}' "$DIR/$N/result.txt" | sort) |
  awk '{ r = $2 > 0 ? $3 / $2 : 0; printf "%-20s %6.2f s -> %6.2f s  x%.1f\n", $1, $2, $3, r }'
