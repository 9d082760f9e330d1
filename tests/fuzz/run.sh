#!/usr/bin/env bash
# Build the libFuzzer targets (clang, ASan+UBSan) and run each for SECONDS
# (default 60), starting from seeds cut from the samples plus the kept
# regression inputs. Fails on any crash, leak, timeout or sanitizer report;
# the input that failed is left in $BUILD/fuzz-out/TARGET/ (crash-*, leak-*,
# timeout-*): copy it to tests/fuzz/regressions/TARGET/ and fix the bug.
#   tests/fuzz/run.sh [SECONDS] [TARGET...]     (TARGET: frame stream xdr pcap)
# Environment: BUILD (default build-fuzz), JOBS (targets run at once, default: number of CPUs).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(frame stream xdr pcap)
build=${BUILD:-build-fuzz}
case $build in /*) ;; *) build=$root/$build ;; esac
command -v clang >/dev/null || { echo "run.sh: clang not found (scripts/deps.sh installs it)" >&2; exit 1; }
CC=clang cmake -S . -B "$build" -DNFSSCOPE_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$(nproc)" --target fuzz_frame fuzz_stream fuzz_xdr fuzz_pcap >/dev/null
seeds=$build/fuzz-seeds
rm -rf "$seeds"
PYTHONDONTWRITEBYTECODE=1 python3 tests/fuzz/make_seeds.py samples "$seeds" >/dev/null

run_one() {
  local t=$1 out=$build/fuzz-out/$1
  rm -rf "$out"
  mkdir -p "$out/corpus"
  # -max_len: whole captures need room; frames and messages fit in 64 KiB
  # git keeps no empty directories: pass the regression inputs only if there are some
  local regress=()
  [ -d "$root/tests/fuzz/regressions/$t" ] && regress=("$root/tests/fuzz/regressions/$t")
  local maxlen=65536
  [ "$t" = pcap ] && maxlen=262144
  [ "$t" = stream ] && maxlen=131072
  set +e
  (cd "$out" && "$build/tests/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
      -max_len=$maxlen -print_final_stats=1 -detect_leaks=1 \
      corpus "$seeds/$t" "${regress[@]}" >"$out/log" 2>&1)
  local rc=$?
  set -e
  local execs rate
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$out/log" | tail -1)
  if [ $rc -ne 0 ] || grep -Eq "ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:" "$out/log"; then
    echo "FAIL fuzz_$t (exit $rc): $(grep -E 'ERROR:|runtime error:' "$out/log" | head -1)"
    ls "$out" | grep -E '^(crash|leak|timeout|oom)-' | sed "s|^|  input: $out/|"
    return 1
  fi
  echo "ok   fuzz_$t: ${secs}s, ${execs:-?} execs, ${rate:-?} execs/s, corpus $(ls "$out/corpus" | wc -l)"
}

jobs=${JOBS:-$(nproc)}
fail=0
pids=()
for t in "${targets[@]}"; do
  run_one "$t" >"$build/fuzz-$t.result" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$jobs" ]; then wait "${pids[0]}" || fail=1; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p" || fail=1; done
for t in "${targets[@]}"; do cat "$build/fuzz-$t.result"; done
exit $fail
