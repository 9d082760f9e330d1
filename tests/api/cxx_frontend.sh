#!/usr/bin/env bash
# A C++ front end against the installed libraries: cmake --install into a
# scratch prefix, tests/api/cxx_frontend.cpp compiled with g++ and only what
# pkg-config says of the installed nfsscope-report (the core comes with it)
# and libpcap, then run on TCP samples: its figures are tshark's (frames,
# RPC calls and replies by message type, the TCP streams that carry RPC,
# transactions = distinct calls by stream and XID, none resent), and the
# report's RPC section it prints is the installed nfsscope's.
#   cxx_frontend.sh BUILD_DIR SOURCE_DIR [FLAGS]
# FLAGS: what a sanitized build's archives need to link (-fsanitize=...).
set -u
B=$(realpath "$1") S=$(realpath "$2") X=${3:-}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
ok() { echo "ok: $*"; }
cmake --install "$B" --prefix "$T/p" >"$T/log" 2>&1 || { cat "$T/log"; echo "FAIL: cmake --install"; exit 1; }
# every installed header gives C++ its C names
n=0
for h in "$T/p/include/nfsscope/"*.h; do
  grep -q 'extern "C"' "$h" && n=$((n + 1)) || bad "$(basename "$h") has no extern \"C\" block"
done
[ "$n" -gt 0 ] && ok "$n installed headers declare extern \"C\" under C++"
pc=$(find "$T/p" -name nfsscope-report.pc | head -1)
[ -n "$pc" ] || { bad "no nfsscope-report.pc"; exit 1; }
flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs nfsscope-report) || { bad "pkg-config nfsscope-report"; exit 1; }
pcap=$(pkg-config --cflags --libs libpcap 2>/dev/null || echo -lpcap)
# shellcheck disable=SC2086
if g++ -std=c++17 -Wall -Wextra -pedantic -Werror $X -o "$T/fe" "$S/tests/api/cxx_frontend.cpp" $flags $pcap 2>"$T/cc.log"; then
  ok "g++ -std=c++17 -Wall -Wextra -pedantic -Werror with pkg-config --cflags --libs nfsscope-report ($flags)"
else
  bad "a C++ front end against the installed headers: $(head -c 3000 "$T/cc.log")"; exit 1
fi
# tshark's count of RPC messages of one type (0 call, 1 reply), ICMP quotes left out
msgs() { tshark -r "$1" -Y 'rpc && !icmp' -T fields -e rpc.msgtyp 2>/dev/null | tr ',' '\n' | grep -cx "$2"; }
for cap in "$S/samples/nfsv3-tcp.pcap" "$S/samples/nfsv40-tcp.pcap"; do
  name=$(basename "$cap")
  "$T/fe" "$cap" >"$T/out" 2>"$T/err" || { bad "$name: cxx_frontend: $(cat "$T/err")"; continue; }
  fig() { sed -n "s/^$1 \([0-9]*\)\$/\1/p" "$T/out"; }
  frames=$(tshark -r "$cap" 2>/dev/null | wc -l)
  calls=$(msgs "$cap" 0) replies=$(msgs "$cap" 1)
  streams=$(tshark -r "$cap" -Y 'rpc' -T fields -e tcp.stream 2>/dev/null | sort -u | wc -l)
  # one transaction per call: (stream, XID) of every call message
  distinct=$(tshark -r "$cap" -Y 'rpc.msgtyp == 0' -T fields -e tcp.stream -e rpc.xid -e rpc.msgtyp 2>/dev/null |
    python3 -c 'import sys
s = set()
for l in sys.stdin:
    st, xids, types = (l.rstrip("\n").split("\t") + ["", ""])[:3]
    s.update((st, x) for x, t in zip(xids.split(","), types.split(",")) if t == "0")
print(len(s))')
  for pair in "frames $frames" "rpc_calls $calls" "rpc_replies $replies" "connections $streams" "txns $distinct"; do
    set -- $pair
    got=$(fig "$1")
    [ -n "$2" ] && [ "$2" -gt 0 ] && [ "$got" = "$2" ] && ok "$name: $1 $got (tshark: $2)" || bad "$name: $1 '$got', tshark says '$2'"
  done
  [ "$(sed -n 's/^event call //p' "$T/out")" = "$distinct" ] && ok "$name: call events $distinct" ||
    bad "$name: call events '$(sed -n 's/^event call //p' "$T/out")', tshark's distinct calls $distinct"
  # the RPC section printed through the report library is the program's
  sed '1,/^--- RPC section$/d' "$T/out" >"$T/sec"
  "$T/p/bin/nfsscope" -r "$cap" >"$T/n.txt" 2>/dev/null
  grep -q '^RPC$' "$T/sec" && python3 -c 'import sys; a, b = (open(p).read() for p in sys.argv[1:]); sys.exit(a not in b)' "$T/sec" "$T/n.txt" &&
    ok "$name: RPC section as nfsscope -r prints it" || bad "$name: RPC section differs from nfsscope -r's"
done
exit $fail
