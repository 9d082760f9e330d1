#!/usr/bin/env bash
# The Debian package: build it with cpack, install it with
#   apt-get install ./nfsscope_*.deb
# run the installed /usr/bin/nfsscope --version and on a sample, check the
# man page and docs landed, then remove it. The package is removed on every
# exit path (trap), and the test refuses to touch a machine where nfsscope
# is already installed as a package.
#   deb.sh BUILD_DIR SAMPLES_DIR VERSION
# Exit 77 (skipped) when not root or without dpkg/apt-get.
set -u
B=$(realpath "$1") S=$(realpath "$2") V=$3
[ "$(id -u)" = 0 ] || { echo "skip: installing a package needs root"; exit 77; }
command -v apt-get >/dev/null && command -v dpkg-shlibdeps >/dev/null || { echo "skip: no apt-get/dpkg-dev"; exit 77; }
if dpkg-query -W -f='${Status}' nfsscope 2>/dev/null | grep -q "install ok installed"; then
  echo "FAIL: a package nfsscope is already installed here; not touching it"; exit 1
fi
T=$(mktemp -d)
installed=0
cleanup() {
  if [ $installed = 1 ] || dpkg-query -W nfsscope >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=120 purge -y -q nfsscope >"$T/purge.log" 2>&1 ||
      dpkg --purge nfsscope >/dev/null 2>&1
  fi
  rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
fail=0
bad() { echo "FAIL: $*"; fail=1; }
ok() { echo "ok: $*"; }

cpack --config "$B/CPackConfig.cmake" -G DEB -B "$T" >"$T/cpack.log" 2>&1 || { cat "$T/cpack.log"; echo "FAIL: cpack"; exit 1; }
deb=$(ls "$T"/nfsscope_"$V"_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { ls "$T"; echo "FAIL: no nfsscope_${V}_*.deb"; exit 1; }
ok "built $(basename "$deb")"
dpkg-deb -I "$deb" | grep -q "Depends:.*libpcap" && ok "Depends names libpcap" || bad "Depends lacks libpcap: $(dpkg-deb -I "$deb" | grep Depends)"
# the sample's RPC calls, as tshark counts them (a frame may carry several);
# counted before the package is installed: its plugin (built with the
# sanitizers in an ASan build) would then be loaded by tshark
want=$(tshark -r "$S/nfsv3-tcp.pcap" -Y rpc -T fields -e rpc.msgtyp 2>/dev/null | tr ',' '\n' | grep -c '^0$')
installed=1
(cd "$T" && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=120 install -y -q --no-install-recommends \
  "./$(basename "$deb")") >"$T/apt.log" 2>&1 || { tail -20 "$T/apt.log"; echo "FAIL: apt-get install"; exit 1; }
ok "apt-get install ./$(basename "$deb")"
v=$(/usr/bin/nfsscope --version)
[ "$v" = "nfsscope $V" ] && ok "/usr/bin/nfsscope --version: $v" || bad "/usr/bin/nfsscope --version: '$v'"
/usr/bin/nfsscope -r "$S/nfsv3-tcp.pcap" --format json -o "$T/r.json" || bad "installed nfsscope -r failed"
calls=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['rpc']['calls'])" "$T/r.json" 2>/dev/null)
[ -n "$calls" ] && [ "$calls" = "$want" ] && ok "installed nfsscope read the sample: $calls calls (tshark $want)" || bad "installed nfsscope: calls '$calls', tshark $want"
for f in /usr/share/man/man1/nfsscope.1 /usr/share/doc/nfsscope/README.md /usr/share/doc/nfsscope/findings.md \
         /usr/share/doc/nfsscope/json-report.md /usr/share/doc/nfsscope/txn-log.md; do
  [ -s "$f" ] || [ -s "$f.gz" ] || bad "not installed: $f"
done
man -l /usr/share/man/man1/nfsscope.1 2>/dev/null | grep -q "EXAMPLES" || [ ! -x /usr/bin/man ] || bad "man page has no EXAMPLES"
ok "man page and docs installed"
pv=$(pkg-config --modversion nfsscope 2>/dev/null)
[ "$pv" = "$V" ] && [ -s /usr/include/nfsscope/nfsscope.h ] && ok "core library: pkg-config --modversion nfsscope = $pv, headers in /usr/include/nfsscope" ||
  bad "core library not installed for pkg-config ('$pv')"
rl=$(pkg-config --libs nfsscope-report 2>/dev/null)
[ -s /usr/include/nfsscope/report.h ] && dpkg -L nfsscope | grep -q "/libnfsscope_report\.a$" && [ -n "$rl" ] &&
  ok "report library: /usr/include/nfsscope/report.h, pkg-config --libs nfsscope-report = $rl" ||
  bad "report library not installed (report.h, libnfsscope_report.a, nfsscope-report.pc: '$rl')"
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=120 purge -y -q nfsscope >"$T/purge.log" 2>&1 || bad "apt-get purge: $(tail -3 "$T/purge.log")"
installed=0
[ ! -e /usr/bin/nfsscope ] && ! dpkg-query -W nfsscope >/dev/null 2>&1 && ok "removed: no /usr/bin/nfsscope, no package" || bad "still installed after purge"
exit $fail
