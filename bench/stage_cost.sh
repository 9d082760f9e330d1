#!/usr/bin/env bash
# What one frame's analysis is made of, stage by stage (issue 21): callgrind
# counts the instructions inside ns_analyzer_feed (exact and repeatable,
# unlike time on a shared machine) and this splits them along the pipeline.
#
#   bench/stage_cost.sh NFSSCOPE CAPTURE...
#
# NFSSCOPE should be a Release build (bench/profile.sh makes one with frame
# pointers in build-profile/). Each stage is a function's inclusive count
# less the next stage's, so the rows add up to the total:
#   link/IP decode     net_decode
#   dup check, flows   the rest of transport_frame and handle_tcp/udp
#   TCP reassembly     tcp_reasm_segment less what it delivers
#   record marking     rec_feed less the records it hands on
#   RPC header, XIDs   rpc_stage_message less NFS decoding and analysis
#   NFS decode         nfs_decode_call + nfs_decode_reply
#   analysis           emit.c on_call + on_reply: sessions, slots, findings,
#                      statistics, the front end's callbacks
# Needs valgrind (callgrind_annotate).
set -eu
BIN=${1:?usage: stage_cost.sh NFSSCOPE CAPTURE...}
shift
[ $# -gt 0 ] || { echo "usage: stage_cost.sh NFSSCOPE CAPTURE..." >&2; exit 2; }
command -v valgrind >/dev/null || { echo "stage_cost.sh: valgrind is needed" >&2; exit 1; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
for CAP in "$@"; do
    frames=$("$BIN" -r "$CAP" --format json --no-progress | python3 -c 'import json,sys; print(json.load(sys.stdin)["capture"]["packets"])')
    valgrind --tool=callgrind --toggle-collect=ns_analyzer_feed --callgrind-out-file="$D/cg.out" \
        "$BIN" -r "$CAP" -o /dev/null --no-progress >/dev/null 2>&1
    echo "== $CAP: $frames frames, instructions per frame (callgrind, inside ns_analyzer_feed)"
    callgrind_annotate --inclusive=yes --threshold=100 --auto=no "$D/cg.out" 2>/dev/null | awk -v n="$frames" '
        /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
        # "COUNT (PCT%)  FILE:FUNCTION[.lto_priv.N] [OBJECT]", a function once per
        # file it has code from: the largest is its inclusive count; recursive
        # copies (FN'"'"'2) are left out
        /^ *[0-9,]+ \(/ && !/PROGRAM TOTALS/ {
            c = $1; gsub(",", "", c)
            fn = $0; sub(/ \[.*/, "", fn); sub(/.*:/, "", fn); sub(/\.lto_priv\.[0-9]+$/, "", fn); sub(/\.part\.[0-9]+$/, "", fn)
            if (fn ~ /'"'"'/) next
            if (!(fn in inc) || c + 0 > inc[fn] + 0) inc[fn] = c + 0
        }
        END {
            net = inc["net_decode"]; tf = inc["transport_frame"]
            tcp = inc["tcp_reasm_segment"]; otb = inc["on_tcp_bytes"]
            rec = inc["rec_feed"]; orec = inc["on_record"]
            rpc = inc["rpc_stage_message"]
            nfs = inc["nfs_decode_call"] + inc["nfs_decode_reply"]
            ana = inc["on_call"] + inc["on_reply"]
            row("link/IP decode", net)
            row("dup check, flows", tf - net - tcp)
            row("TCP reassembly", tcp - otb)
            row("record marking", rec - orec)
            row("RPC header, XIDs", rpc - nfs - ana)
            row("NFS decode", nfs)
            row("analysis", ana)
            row("other (feed, housekeeping, UDP)", total - tf + (otb - rec) + (orec - rpc))
            printf "  %-34s %6.0f\n", "total", total / n
        }
        function row(name, v) { printf "  %-34s %6.0f  %4.1f%%\n", name, v / n, 100 * v / total }'
done
