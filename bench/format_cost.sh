#!/usr/bin/env bash
# Text formatting and allocation inside the analysis (issue 21): callgrind
# collects only inside ns_analyzer_feed, on a generated capture, and this
# prints per frame the instructions spent in libc's printf engine, malloc
# and strlen there, and the calls the program's own code (not libc's) makes
# to the printf family, the allocator and strlen: the calls api.feed_calls
# (tests/api/count_feed_calls.c) counts and bounds. The report and the
# reading thread are left out.
#
#   bench/format_cost.sh NFSSCOPE [FRAMES] [errors|udp]   # default 100000 errors; needs valgrind
#
# errors: bench/make_error_sessions.py (NFSv4.1 sessions, thousands of
# findings); udp: bench/make_udp_resends.py (NFSv3 over UDP, resends on
# every pair). On 100k frames, instructions per frame of the analysis and in
# printf / malloc / strlen, and calls by nfsscope per 1,000 frames:
#   errors  ff458fb  6,017; printf 316 (threshold 99%, see below)
#           2ef03b6  4,393; printf 7.6, malloc 5.9, strlen 0 (threshold 99%)
#           334a8fc  4,373; printf 12.5, malloc 9.6, strlen 0.5; calls: printf 32.3, alloc 31.3
#           508091e  4,345; printf 0, malloc 9.6, strlen 0; calls: printf 0, alloc 31.3
#   udp     334a8fc  4,887; printf 977, malloc 12.6, strlen 23; calls: printf 985, alloc 31.5
#           508091e  1,991; printf 0, malloc 0.3, strlen 0; calls: printf 0, alloc 0.3
# The figures before 334a8fc were taken with callgrind_annotate's default
# threshold, which lists only the functions making 99% of the cost and so
# left small costs out; every function is counted now.
set -eu
BIN=${1:?usage: format_cost.sh NFSSCOPE [FRAMES] [errors|udp]}
N=${2:-100000}
KIND=${3:-errors}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
case $KIND in
errors) GEN=make_error_sessions.py ;;
udp) GEN=make_udp_resends.py ;;
*) echo "format_cost.sh: capture kind errors or udp" >&2; exit 2 ;;
esac
command -v valgrind >/dev/null || { echo "format_cost.sh: valgrind is needed" >&2; exit 1; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
python3 "$ROOT/bench/$GEN" "$D/cap.pcap" "$N" 2>/dev/null
frames=$("$BIN" -r "$D/cap.pcap" --format json --no-progress | python3 -c 'import json,sys; print(json.load(sys.stdin)["capture"]["packets"])')
valgrind --tool=callgrind --toggle-collect=ns_analyzer_feed --callgrind-out-file="$D/cg.out" \
    "$BIN" -r "$D/cap.pcap" -o /dev/null --no-progress >/dev/null 2>&1
callgrind_annotate --auto=no --threshold=100 "$D/cg.out" 2>/dev/null | awk -v n="$frames" '
    /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
    /vfprintf-internal|vfprintf-process-arg|vsnprintf|snprintf\.c/ { gsub(",", "", $1); fmt += $1 }
    /malloc\.c/ { gsub(",", "", $1); mem += $1 }
    /strlen/ { gsub(",", "", $1); sl += $1 }
    END {
        printf "frames %d, analysis %.0f instructions per frame\n", n, total / n
        printf "  printf engine %.1f, malloc/free %.1f, strlen %.1f instructions per frame\n", fmt / n, mem / n, sl / n
    }'
# Calls made by the program's object (ob= the nfsscope binary) to those
# functions, from the call arcs callgrind kept while collecting.
awk -v n="$frames" -v bin="$(basename "$BIN")" '
    function name(s,   id) { # "(12) name" defines id 12; "(12)" names it again
        id = s; sub(/\).*/, "", id); sub(/^\(/, "", id)
        if (s ~ /\) /) { sub(/^\([0-9]+\) /, "", s); names[id] = s }
        return names[id]
    }
    function obj(s,   id) {
        id = s; sub(/\).*/, "", id); sub(/^\(/, "", id)
        if (s ~ /\) /) { sub(/^\([0-9]+\) /, "", s); objs[id] = s }
        return objs[id]
    }
    /^ob=/ { o = obj(substr($0, 4)); next }
    /^fn=/ { name(substr($0, 4)); mine = (o ~ ("/" bin "$")); next }
    /^cob=/ { obj(substr($0, 5)); next }
    /^cfn=/ { callee = name(substr($0, 5)); next }
    /^calls=/ {
        if (!mine) next
        split(substr($0, 7), c, " ")
        if (callee ~ /^(__)?v?s?n?printf(_chk)?$/) f += c[1]
        else if (callee ~ /^(malloc|calloc|realloc)$/) a += c[1]
        else if (callee ~ /strlen/) l += c[1]
    }
    END {
        printf "  calls by nfsscope per 1,000 frames: printf family %.2f, malloc/calloc/realloc %.2f, strlen %.2f\n",
               1000 * f / n, 1000 * a / n, 1000 * l / n
    }' "$D/cg.out"
