#!/usr/bin/env bash
# nfsscope benchmark: see bench/README.md.
#
#   bench/run.sh [--quick] [--strict] [--keep]
#
# Environment (all optional):
#   BENCH_SIZE_MB   size of the 1x capture (default 400; --quick: 40)
#   BENCH_SCALE     length of the long capture in multiples of 1x (default 10)
#   BENCH_DIR       where the captures and logs go (default build-bench/data)
#   BENCH_REPEAT    runs per measurement, the fastest is kept (default 3)
#   BENCH_10X_ALL   1 = also run tshark and nfstrace on the long capture (slow)
#   BENCH_OTHERS    0 = run neither tshark nor nfstrace (nfsscope and the floors only)
#   BENCH_REUSE     1 = keep captures already in BENCH_DIR (made by a run with --keep)
#   BENCH_SMALL_FRAMES  frames of the small-COMPOUND 1x capture (default 1000000; --quick: 100000)
#   BENCH_ERR_FRAMES    frames of the error-heavy 1x capture (default 1000000; --quick: 100000)
#   BENCH_INPUTS    captures to replicate (default samples/*.pcap samples/*.pcapng)
#   NFSSCOPE        use this nfsscope binary instead of building build-bench/
#   TSHARK_TIMEOUT  seconds before a tshark run is abandoned (default 3600)
set -u
set -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$ROOT/build-bench
QUICK=0 STRICT=0 KEEP=0
for a in "$@"; do
    case $a in
    --quick) QUICK=1 ;;
    --strict) STRICT=1 ;;
    --keep) KEEP=1 ;;
    -h | --help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $a" >&2; exit 2 ;;
    esac
done
SIZE_MB=${BENCH_SIZE_MB:-$([ $QUICK = 1 ] && echo 40 || echo 400)}
SMALL_FRAMES=${BENCH_SMALL_FRAMES:-$([ $QUICK = 1 ] && echo 100000 || echo 1000000)}
ERR_FRAMES=${BENCH_ERR_FRAMES:-$([ $QUICK = 1 ] && echo 100000 || echo 1000000)}
SCALE=${BENCH_SCALE:-10}
DATA=${BENCH_DIR:-$BUILD/data}
REPEAT=${BENCH_REPEAT:-3}
TSHARK_TIMEOUT=${TSHARK_TIMEOUT:-3600}

say() { printf '%s\n' "$*" >&2; }
die() { say "run.sh: $*"; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }
[ -n "${EPOCHREALTIME:-}" ] || die "bash 5 or later is needed (EPOCHREALTIME)"

# ---------------------------------------------------------------- tools
TIME=/usr/bin/time
if ! "$TIME" -v true >/dev/null 2>&1; then
    say "GNU time missing: installing package 'time'"
    if have apt-get; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y time >/dev/null 2>&1 || true
    fi
    "$TIME" -v true >/dev/null 2>&1 || die "/usr/bin/time -v is needed (package 'time')"
fi
have cc || die "a C compiler (cc) is needed"
mkdir -p "$BUILD" "$DATA" || die "cannot create $BUILD / $DATA"

say "== building bench tools"
cc -O2 -Wall -Wextra -o "$BUILD/pcap_replicate" "$ROOT/bench/pcap_replicate.c" -lpcap ||
    die "cannot build pcap_replicate (libpcap development files?)"
cc -O2 -Wall -Wextra -o "$BUILD/pcap_floor" "$ROOT/bench/pcap_floor.c" -lpcap ||
    die "cannot build pcap_floor"

NFSSCOPE_BIN=${NFSSCOPE:-}
if [ -z "$NFSSCOPE_BIN" ]; then
    say "== building nfsscope (Release) in build-bench/"
    if cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >"$BUILD/cmake.log" 2>&1 &&
        cmake --build "$BUILD" --target nfsscope -j "$(nproc 2>/dev/null || echo 2)" >>"$BUILD/cmake.log" 2>&1 &&
        [ -x "$BUILD/analyzer/nfsscope" ]; then
        NFSSCOPE_BIN=$BUILD/analyzer/nfsscope
    else
        say "   nfsscope did not build (see $BUILD/cmake.log): its rows will be n/a"
    fi
fi
have tshark || say "   tshark not installed: its rows will be n/a"
have nfstrace || say "   nfstrace not installed: its row will be n/a"

# ---------------------------------------------------------------- inputs and disk
if [ -n "${BENCH_INPUTS:-}" ]; then
    read -r -a INPUTS <<<"$BENCH_INPUTS"
else
    shopt -s nullglob
    INPUTS=("$ROOT"/samples/*.pcap "$ROOT"/samples/*.pcapng)
    shopt -u nullglob
fi
[ ${#INPUTS[@]} -gt 0 ] || die "no input captures (samples/*.pcap)"

avail_mb=$(df -Pm "$DATA" | awk 'NR==2 {print $4}')
# the small-COMPOUND captures: about 250 bytes a frame
# and the error-heavy ones about 340 bytes a frame
need_mb=$((((SIZE_MB + SMALL_FRAMES / 4000 + ERR_FRAMES / 3000) * (1 + SCALE)) * 105 / 100 + 1024))
if [ "${avail_mb:-0}" -lt "$need_mb" ]; then
    new=$(((avail_mb - 1024) * 100 / 105 / (1 + SCALE) - SMALL_FRAMES / 4000 - ERR_FRAMES / 3000))
    [ "$new" -ge 20 ] || die "only ${avail_mb} MB free in $DATA; need about ${need_mb} MB"
    say "   only ${avail_mb} MB free in $DATA: 1x scaled down from ${SIZE_MB} MB to ${new} MB"
    SIZE_MB=$new
fi
F1=$DATA/bench-1x.pcap
F10=$DATA/bench-${SCALE}x.pcap
S1=$DATA/small-1x.pcap
S10=$DATA/small-${SCALE}x.pcap
E1=$DATA/errors-1x.pcap
E10=$DATA/errors-${SCALE}x.pcap
cleanup() {
    if [ "$KEEP" = 0 ]; then rm -f "$F1" "$F10" "$S1" "$S10" "$E1" "$E10" "$DATA"/*.time "$DATA"/*.out "$DATA"/nfstrace.log "$DATA"/bench-*.html "$DATA"/bench-*.prom; fi
}
trap cleanup EXIT

say "== making captures in $DATA"
reuse() { [ "${BENCH_REUSE:-0}" = 1 ] && [ -s "$1" ] && say "   reusing $1"; }
# mix: the bundled samples replicated (large READ/WRITE records, a bit of everything)
reuse "$F1" && reuse "$F10" || {
"$BUILD/pcap_replicate" -o "$F1" -S "$SIZE_MB" "${INPUTS[@]}" 2>"$DATA/replicate-1x.log" ||
    die "pcap_replicate failed: $(cat "$DATA/replicate-1x.log")"
tail -1 "$DATA/replicate-1x.log" >&2
copies=$(sed -n 's/.*: \([0-9]*\) copies of.*/\1/p' "$DATA/replicate-1x.log" | tail -1)
[ -n "$copies" ] || die "cannot read the copy count from $DATA/replicate-1x.log"
"$BUILD/pcap_replicate" -o "$F10" -n $((copies * SCALE)) "${INPUTS[@]}" 2>"$DATA/replicate-10x.log" ||
    die "pcap_replicate failed: $(cat "$DATA/replicate-10x.log")"
tail -1 "$DATA/replicate-10x.log" >&2
}
# small: NFSv4.1 small COMPOUNDs (~250 bytes a frame, a transaction every two frames)
have python3 || die "python3 is needed for bench/make_small_compounds.py"
reuse "$S1" || python3 "$ROOT/bench/make_small_compounds.py" "$S1" "$SMALL_FRAMES" || die "make_small_compounds.py failed"
reuse "$S10" || python3 "$ROOT/bench/make_small_compounds.py" "$S10" $((SMALL_FRAMES * SCALE)) ||
    die "make_small_compounds.py failed"
# errors: NFSv4.1 sessions created and destroyed, dead sessions reused, grace,
# every session finding kind (issue 21); 10x: the replicator's copies of it
reuse "$E1" || python3 "$ROOT/bench/make_error_sessions.py" "$E1" "$ERR_FRAMES" || die "make_error_sessions.py failed"
reuse "$E10" || {
    "$BUILD/pcap_replicate" -o "$E10" -n "$SCALE" "$E1" 2>"$DATA/replicate-e10x.log" ||
        die "pcap_replicate failed: $(cat "$DATA/replicate-e10x.log")"
    tail -1 "$DATA/replicate-e10x.log" >&2
}

# ---------------------------------------------------------------- measuring
# measure NAME FILE CMD...   -> sets T (seconds, fastest of REPEAT) and R (max RSS KiB) or n/a
measure() {
    local name=$1 file=$2
    shift 2
    T=n/a R=n/a
    local best="" rss="" i
    cat "$file" >/dev/null # same page-cache state for everyone
    for ((i = 0; i < REPEAT; i++)); do
        local tf="$DATA/$name.time" of="$DATA/$name.out" t0 t1 rc
        # wall time from bash's microsecond clock (GNU time prints 10 ms steps)
        t0=$EPOCHREALTIME
        "$TIME" -v -o "$tf" "$@" >"$of" 2>&1
        rc=$?
        t1=$EPOCHREALTIME
        if [ $rc -ne 0 ]; then
            say "   $name: failed (exit status $rc), last lines:"
            tail -3 "$of" | sed 's/^/     /' >&2
            return 0
        fi
        local wall kb
        wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b-a}')
        kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tf")
        if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$wall; fi
        if [ -z "$rss" ] || [ "$kb" -gt "$rss" ]; then rss=$kb; fi
    done
    T=$best R=$rss
    say "   $name: ${T} s, max RSS $((R / 1024)) MiB"
}

declare -A TT RR
run_set() { # run_set TAG FILE ALL
    local tag=$1 file=$2 all=$3
    say "== timing on $(basename "$file") ($(du -m "$file" | cut -f1) MB)"
    measure "floor-$tag" "$file" "$BUILD/pcap_floor" "$file"
    TT[floor,$tag]=$T RR[floor,$tag]=$R
    measure "floorbuf-$tag" "$file" "$BUILD/pcap_floor" -b 1024 "$file"
    TT[floorbuf,$tag]=$T RR[floorbuf,$tag]=$R
    if [ -n "$NFSSCOPE_BIN" ]; then
        measure "nfsscope-$tag" "$file" "$NFSSCOPE_BIN" -r "$file" -o /dev/null --no-progress
        TT[nfsscope,$tag]=$T RR[nfsscope,$tag]=$R
        # the page and the metrics file on top of the same analysis (issue 13)
        measure "outputs-$tag" "$file" "$NFSSCOPE_BIN" -r "$file" -o /dev/null --no-progress \
            --html "$DATA/bench-$tag.html" --metrics-file "$DATA/bench-$tag.prom"
        TT[outputs,$tag]=$T RR[outputs,$tag]=$R
        [ -f "$DATA/bench-$tag.html" ] && say "   page $(du -k "$DATA/bench-$tag.html" | cut -f1) KiB, metrics $(du -k "$DATA/bench-$tag.prom" | cut -f1) KiB"
    fi
    [ "${BENCH_OTHERS:-1}" = 0 ] && all=0
    if [ "$all" = 1 ] && have tshark; then
        measure "tshark-v3-$tag" "$file" timeout "$TSHARK_TIMEOUT" tshark -n -r "$file" -q -z rpc,srt,100003,3
        TT[tshark3,$tag]=$T RR[tshark3,$tag]=$R
        measure "tshark-v4-$tag" "$file" timeout "$TSHARK_TIMEOUT" tshark -n -r "$file" -q -z rpc,srt,100003,4
        TT[tshark4,$tag]=$T RR[tshark4,$tag]=$R
    fi
    if [ "$all" = 1 ] && have nfstrace; then
        # plain stat mode (prints every procedure; output to a file). The
        # libbreakdown.so statistics plugin aborts (std::out_of_range) on
        # these captures, so it is not used.
        # run in $DATA: nfstrace (and its plugins) write files into the working directory
        measure "nfstrace-$tag" "$file" env -C "$DATA" nfstrace -m stat -I "$file" --log="$DATA/nfstrace.log"
        TT[nfstrace,$tag]=$T RR[nfstrace,$tag]=$R
    fi
}
run_set 1x "$F1" 1
run_set 10x "$F10" "${BENCH_10X_ALL:-0}"
run_set s1x "$S1" 1
run_set s10x "$S10" "${BENCH_10X_ALL:-0}"
run_set e1x "$E1" 1
run_set e10x "$E10" "${BENCH_10X_ALL:-0}"

# ---------------------------------------------------------------- table
ratio() { # a/b with 2 decimals, n/a if either is missing or b is 0
    awk -v a="$1" -v b="$2" 'BEGIN{ if (a=="n/a" || b=="n/a" || b+0==0 || a=="" || b=="") print "n/a"; else printf "%.2f", a/b }'
}
mib() { [ "${1:-n/a}" = n/a ] && echo n/a || echo $(($1 / 1024)); }
row() { # row KEY LABEL P  (P: "" the sample mix, "s" small COMPOUNDs, "e" error-heavy sessions)
    local k=$1 label=$2 p=$3
    local t1=${TT[$k,${p}1x]:-n/a} t10=${TT[$k,${p}10x]:-n/a}
    local vs=""
    case $k in tshark3 | tshark4 | nfstrace) vs=$(ratio "$t1" "${TT[nfsscope,${p}1x]:-n/a}") ;; *) vs="" ;; esac
    printf '%-34s %9s %8s %10s %10s   %9s %8s %10s\n' "$label" "$t1" "$(ratio "$t1" "${TT[floor,${p}1x]}")" \
        "${vs:--}" "$(mib "${RR[$k,${p}1x]:-n/a}")" "$t10" "$(ratio "$t10" "${TT[floor,${p}10x]}")" \
        "$(mib "${RR[$k,${p}10x]:-n/a}")"
}
table() { # table P TITLE FILE1 FILE10
    local p=$1
    echo "$2"
    echo "1x: $(du -m "$3" | cut -f1) MB ($(basename "$3")), ${SCALE}x: $(du -m "$4" | cut -f1) MB"
    printf '%-34s %9s %8s %10s %10s   %9s %8s %10s\n' "" "1x s" "/floor" "/nfsscope" "RSS MiB" "${SCALE}x s" "/floor" "RSS MiB"
    row floor "libpcap floor (pcap_floor)" "$p"
    row floorbuf "floor, 1 MiB stdio buffer" "$p"
    row nfsscope "nfsscope -r FILE" "$p"
    row outputs "  ... --html --metrics-file" "$p"
    row tshark3 "tshark -q -z rpc,srt,100003,3" "$p"
    row tshark4 "tshark -q -z rpc,srt,100003,4" "$p"
    row nfstrace "nfstrace -m stat" "$p"
    echo
}
{
    echo
    echo "nfsscope benchmark  $(date -u +%Y-%m-%dT%H:%M:%SZ)  $(uname -m), $(nproc 2>/dev/null) CPUs"
    echo "fastest of $REPEAT run(s); RSS = max resident set size; /floor = time / libpcap floor (pcap_floor)"
    echo
    table "" "== the bundled samples, replicated" "$F1" "$F10"
    table s "== small NFSv4.1 COMPOUNDs (bench/make_small_compounds.py)" "$S1" "$S10"
    table e "== error-heavy NFSv4.1 sessions (bench/make_error_sessions.py)" "$E1" "$E10"
    echo "targets:"
    fail=0
    target() { # target TEXT VALUE OP LIMIT
        local text=$1 v=$2 op=$3 lim=$4 verdict
        if [ "$v" = n/a ]; then verdict="not measured"
        elif awk -v v="$v" -v l="$lim" -v op="$op" 'BEGIN{exit !((op=="<=" && v<=l) || (op==">=" && v>=l))}'; then verdict=met
        else verdict="MISSED"; fail=1; fi
        printf '  %-50s %8s  (target %s %s)  %s\n' "$text" "$v" "$op" "$lim" "$verdict"
    }
    for p in "" s e; do
        case $p in "") name=samples ;; s) name=small ;; *) name=errors ;; esac
        target "$name: nfsscope time / floor (1x)" "$(ratio "${TT[nfsscope,${p}1x]:-n/a}" "${TT[floor,${p}1x]}")" "<=" 1.5
        target "$name: nfsscope time / floor (${SCALE}x)" "$(ratio "${TT[nfsscope,${p}10x]:-n/a}" "${TT[floor,${p}10x]}")" "<=" 1.5
        target "$name: nfsscope RSS ${SCALE}x / RSS 1x" "$(ratio "${RR[nfsscope,${p}10x]:-n/a}" "${RR[nfsscope,${p}1x]:-n/a}")" "<=" 1.1
    done
    for k in tshark3 tshark4; do
        target "samples: $k time / nfsscope time (1x)" "$(ratio "${TT[$k,1x]:-n/a}" "${TT[nfsscope,1x]:-n/a}")" ">=" 30
    done
    target "samples: --html --metrics-file time / plain (1x)" "$(ratio "${TT[outputs,1x]:-n/a}" "${TT[nfsscope,1x]:-n/a}")" "<=" 1.10
    echo
} | tee "$DATA/bench-results.txt"
say "(table saved in $DATA/bench-results.txt)"
if [ "$STRICT" = 1 ] && grep -q MISSED "$DATA/bench-results.txt"; then exit 1; fi
exit 0
