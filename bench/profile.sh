#!/usr/bin/env bash
# Where the analysis spends its time, in figures a loaded machine cannot blur.
#
#   bench/profile.sh [FRAMES]     (default 100000 small-COMPOUND frames)
#
# Builds nfsscope (Release, frame pointers) in build-profile/, makes a
# small-COMPOUND capture (bench/make_small_compounds.py), then prints:
#   - instructions per frame of the analysis (ns_analyzer_feed, inclusive),
#     counted by valgrind's callgrind: exact and repeatable, unlike time;
#   - the top 15 functions of the analysis thread (perf record, cpu-clock,
#     --call-graph fp; the reading thread left out), as a share of its samples.
# Needs valgrind and perf (linux-perf).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
B=$ROOT/build-profile
N=${1:-100000}
command -v valgrind >/dev/null || { echo "profile.sh: valgrind is needed" >&2; exit 1; }
command -v perf >/dev/null || { echo "profile.sh: perf is needed (linux-perf)" >&2; exit 1; }
cmake -S "$ROOT" -B "$B" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="-fno-omit-frame-pointer -g" >/dev/null
cmake --build "$B" --target nfsscope -j2 >/dev/null
CAP=$B/small-$N.pcap
[ -f "$CAP" ] || python3 "$ROOT/bench/make_small_compounds.py" "$CAP" "$N" >&2
BIN=$B/analyzer/nfsscope
valgrind --tool=callgrind --callgrind-out-file="$B/callgrind.out" "$BIN" -r "$CAP" -o /dev/null --no-progress 2>/dev/null
frames=$("$BIN" -r "$CAP" --format json --no-progress | python3 -c 'import json,sys; print(json.load(sys.stdin)["capture"]["packets"])')
feed=$(callgrind_annotate --inclusive=yes --auto=no "$B/callgrind.out" 2>/dev/null |
    awk '/ns_analyzer_feed/ {gsub(",", "", $1); if ($1 + 0 > m + 0) m = $1 + 0} END {printf "%.0f\n", m}')
echo "capture: $CAP ($frames frames)"
echo "analysis (ns_analyzer_feed): $((feed / frames)) instructions per frame (callgrind)"
perf record -q -e cpu-clock -F 4000 --call-graph fp -o "$B/perf.data" "$BIN" -r "$CAP" -o /dev/null --no-progress 2>/dev/null
echo "analysis thread, top 15 (share of its samples, perf cpu-clock):"
perf report -i "$B/perf.data" --no-children -p run_batch -x --sort symbol --stdio -g none 2>/dev/null |
    awk '/%/ && !/^#/ {gsub("%", "", $1); n++; v[n] = $1; s[n] = $3; t += $1}
         END {for (i = 1; i <= n && i <= 15; i++) printf "  %5.1f%%  %s\n", 100 * v[i] / t, s[i]}'
