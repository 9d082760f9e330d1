#!/usr/bin/env bash
# Text formatting and allocation inside the analysis (issue 21): callgrind
# collects only inside ns_analyzer_feed, on an error-heavy capture, and this
# prints the instructions per frame spent in libc's printf engine, malloc
# and strlen there (the report and the reading thread are left out).
#
#   bench/format_cost.sh NFSSCOPE [FRAMES]   # default 100000; needs valgrind
#
# On 100k frames, at 2ef03b6: printf engine 7.6 instructions per frame (a
# finding raised: its RFC reference; SLOT_LIMITED once per session),
# malloc 5.9, strlen 0, of 4,393 for the analysis; before (ff458fb): printf
# engine 316 of 6,017 (self cost of libc's formatting functions only).
set -eu
BIN=${1:?usage: format_cost.sh NFSSCOPE [FRAMES]}
N=${2:-100000}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
command -v valgrind >/dev/null || { echo "format_cost.sh: valgrind is needed" >&2; exit 1; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
python3 "$ROOT/bench/make_error_sessions.py" "$D/err.pcap" "$N" 2>/dev/null
frames=$("$BIN" -r "$D/err.pcap" --format json --no-progress | python3 -c 'import json,sys; print(json.load(sys.stdin)["capture"]["packets"])')
valgrind --tool=callgrind --toggle-collect=ns_analyzer_feed --callgrind-out-file="$D/cg.out" \
    "$BIN" -r "$D/err.pcap" -o /dev/null --no-progress >/dev/null 2>&1
callgrind_annotate --auto=no "$D/cg.out" 2>/dev/null | awk -v n="$frames" '
    /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
    /vfprintf-internal|vfprintf-process-arg|vsnprintf|snprintf\.c/ { gsub(",", "", $1); fmt += $1 }
    /malloc\.c/ { gsub(",", "", $1); mem += $1 }
    /strlen/ { gsub(",", "", $1); sl += $1 }
    END {
        printf "frames %d, analysis %.0f instructions per frame\n", n, total / n
        printf "  printf engine %.1f, malloc/free %.1f, strlen %.1f instructions per frame\n", fmt / n, mem / n, sl / n
    }'
