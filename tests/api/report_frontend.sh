#!/usr/bin/env bash
# The report library as another front end uses it (nfsscope/report.h), in an
# install (tests/e2e/install.sh runs this on its scratch prefix):
# tests/api/report_frontend.c compiled with only what pkg-config says of the
# installed nfsscope-report (the install's include directory and archives,
# nothing from the source tree) and libpcap, then run on every sample: its
# text and JSON reports and transaction log are byte for byte those of the
# installed `nfsscope -r`, and each section it prints alone
# (ns_report_section_text) stands in that report as printed there.
#   report_frontend.sh PREFIX SOURCE_DIR [CC_FLAGS]
# CC_FLAGS: what a sanitized build's archives need to link (-fsanitize=...).
set -u
shopt -s nullglob
P=$(realpath "$1") S=$(realpath "$2") X=${3:-}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
ok() { echo "ok: $*"; }
[ -s "$P/include/nfsscope/report.h" ] && ok "include/nfsscope/report.h installed" || bad "no include/nfsscope/report.h"
pc=$(find "$P" -name nfsscope-report.pc | head -1)
[ -n "$pc" ] || { bad "no nfsscope-report.pc"; exit 1; }
flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs nfsscope-report) || { bad "pkg-config nfsscope-report"; exit 1; }
pcap=$(pkg-config --cflags --libs libpcap 2>/dev/null || echo -lpcap)
# shellcheck disable=SC2086
if cc -std=c11 -Wall -Wextra -Werror $X -o "$T/fe" "$S/tests/api/report_frontend.c" $flags $pcap 2>"$T/cc.log"; then
  ok "a front end built with pkg-config --cflags --libs nfsscope-report ($flags)"
else
  bad "building against the installed report library: $(cat "$T/cc.log")"; exit 1
fi
N=$P/bin/nfsscope
n=0
for cap in "$S"/samples/*.pcap "$S"/samples/*.pcapng; do
  "$T/fe" "$cap" text >"$T/fe.txt" && "$N" -r "$cap" >"$T/n.txt" 2>/dev/null && cmp -s "$T/fe.txt" "$T/n.txt" ||
    bad "$(basename "$cap"): text report differs from nfsscope -r"
  "$T/fe" "$cap" json >"$T/fe.json" && "$N" -r "$cap" --format json >"$T/n.json" 2>/dev/null &&
    cmp -s "$T/fe.json" "$T/n.json" || bad "$(basename "$cap"): JSON report differs from nfsscope -r --format json"
  "$T/fe" "$cap" txn >"$T/fe.log" && "$N" -r "$cap" --txn-log - >"$T/n.log" 2>/dev/null &&
    cmp -s "$T/fe.log" "$T/n.log" || bad "$(basename "$cap"): transaction log differs from nfsscope --txn-log"
  for sec in rpc connections operations status clients sessions udp read_plus findings not_analysed; do
    "$T/fe" "$cap" "$sec" >"$T/sec.txt" || { bad "$(basename "$cap"): section $sec"; continue; }
    # shown in the report (its heading there): the same lines there
    head=$(sed -n '2p' "$T/sec.txt")
    grep -qxF -- "$head" "$T/n.txt" || continue
    python3 -c 'import sys; a, b = (open(p).read() for p in sys.argv[1:]); sys.exit(a not in b)' "$T/sec.txt" "$T/n.txt" ||
      bad "$(basename "$cap"): section $sec printed alone differs from the report's"
  done
  n=$((n + 1))
done
[ $fail = 0 ] && ok "$n samples: text, JSON, txn log as nfsscope prints them; each section as the report prints it"
exit $fail
