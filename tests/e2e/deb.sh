#!/usr/bin/env bash
# The Debian packages: build them with cpack, check what each depends on
# (dpkg-deb -f DEB Depends: the program's package must not pull in
# Wireshark), install each with
#   apt-get install ./nfsscope_*.deb ./nfsscope-wireshark_*.deb
# run the installed /usr/bin/nfsscope --version and on a sample, check the
# man page and docs landed (every link of the installed README resolves),
# what pkg-config prints, that tshark loads the plugin, then remove them. The
# packages are removed on every exit path (trap), and the test refuses to
# touch a machine where either is already installed as a package.
#   deb.sh BUILD_DIR SAMPLES_DIR VERSION [plugin]
# "plugin": the build has the Wireshark plugin, so nfsscope-wireshark too.
# Exit 77 (skipped) when not root or without dpkg/apt-get.
set -u
B=$(realpath "$1") S=$(realpath "$2") V=$3 P=${4:-}
D=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || { echo "skip: installing a package needs root"; exit 77; }
command -v apt-get >/dev/null && command -v dpkg-shlibdeps >/dev/null || { echo "skip: no apt-get/dpkg-dev"; exit 77; }
PKGS="nfsscope nfsscope-wireshark"
for p in $PKGS; do
  if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    echo "FAIL: a package $p is already installed here; not touching it"; exit 1
  fi
done
T=$(mktemp -d)
installed=0
purge() {
  local on=""
  for p in $PKGS; do dpkg-query -W "$p" >/dev/null 2>&1 && on="$on $p"; done
  [ -z "$on" ] && return 0
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=120 purge -y -q $on >"$T/purge.log" 2>&1 ||
    { dpkg --purge $on >/dev/null 2>&1; return 1; }
}
cleanup() {
  [ $installed = 1 ] && purge
  rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
fail=0
bad() { echo "FAIL: $*"; fail=1; }
ok() { echo "ok: $*"; }
apt_install() {
  (cd "$T" && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=120 install -y -q --no-install-recommends \
    "./$(basename "$1")") >"$T/apt.log" 2>&1 || { tail -20 "$T/apt.log"; echo "FAIL: apt-get install $1"; exit 1; }
  ok "apt-get install ./$(basename "$1")"
}

cpack --config "$B/CPackConfig.cmake" -G DEB -B "$T" >"$T/cpack.log" 2>&1 || { cat "$T/cpack.log"; echo "FAIL: cpack"; exit 1; }
deb=$(ls "$T"/nfsscope_"$V"_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { ls "$T"; echo "FAIL: no nfsscope_${V}_*.deb"; exit 1; }
ok "built $(basename "$deb")"
# what each package depends on, as dpkg-deb -f shows it
dep=$(dpkg-deb -f "$deb" Depends)
echo "   nfsscope Depends: $dep"
echo "$dep" | grep -q "libpcap" && ok "nfsscope depends on libpcap" || bad "nfsscope Depends lacks libpcap: $dep"
echo "$dep" | grep -Eq "wireshark|wiretap|glib" && bad "nfsscope depends on Wireshark's libraries: $dep" ||
  ok "nfsscope does not depend on Wireshark, wiretap or glib"
dpkg-deb -c "$deb" | grep -q "/wireshark/plugins/" && bad "nfsscope ships the Wireshark plugin" ||
  ok "nfsscope ships no Wireshark plugin"
wdeb=""
if [ "$P" = plugin ]; then
  wdeb=$(ls "$T"/nfsscope-wireshark_"$V"_*.deb 2>/dev/null | head -1)
  [ -n "$wdeb" ] || { ls "$T"; echo "FAIL: no nfsscope-wireshark_${V}_*.deb"; exit 1; }
  ok "built $(basename "$wdeb")"
  wdep=$(dpkg-deb -f "$wdeb" Depends)
  echo "   nfsscope-wireshark Depends: $wdep"
  echo "$wdep" | grep -q "libwireshark" && echo "$wdep" | grep -q "libwiretap" &&
    ok "nfsscope-wireshark depends on libwireshark and libwiretap" || bad "nfsscope-wireshark Depends: $wdep"
  dpkg-deb -c "$wdeb" | grep -q "/wireshark/plugins/4.0/epan/nfsscope.so$" &&
    ok "nfsscope-wireshark ships plugins/4.0/epan/nfsscope.so" || bad "nfsscope-wireshark lacks nfsscope.so"
fi
# the sample's RPC calls, as tshark counts them (a frame may carry several);
# counted before the packages are installed: the plugin (built with the
# sanitizers in an ASan build) would then be loaded by tshark
want=$(tshark -r "$S/nfsv3-tcp.pcap" -Y rpc -T fields -e rpc.msgtyp 2>/dev/null | tr ',' '\n' | grep -c '^0$')
installed=1
apt_install "$deb"
v=$(/usr/bin/nfsscope --version)
[ "$v" = "nfsscope $V" ] && ok "/usr/bin/nfsscope --version: $v" || bad "/usr/bin/nfsscope --version: '$v'"
/usr/bin/nfsscope -r "$S/nfsv3-tcp.pcap" --format json -o "$T/r.json" || bad "installed nfsscope -r failed"
calls=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['rpc']['calls'])" "$T/r.json" 2>/dev/null)
[ -n "$calls" ] && [ "$calls" = "$want" ] && ok "installed nfsscope read the sample: $calls calls (tshark $want)" || bad "installed nfsscope: calls '$calls', tshark $want"
for f in /usr/share/man/man1/nfsscope.1 /usr/share/doc/nfsscope/README.md /usr/share/doc/nfsscope/doc/findings.md \
         /usr/share/doc/nfsscope/doc/json-report.md /usr/share/doc/nfsscope/doc/txn-log.md; do
  [ -s "$f" ] || [ -s "$f.gz" ] || bad "not installed: $f"
done
man -l /usr/share/man/man1/nfsscope.1 2>/dev/null | grep -q "EXAMPLES" || [ ! -x /usr/bin/man ] || bad "man page has no EXAMPLES"
ok "man page and docs installed"
python3 "$D/doc_links.py" /usr/share/doc/nfsscope/README.md >"$T/links" &&
  ok "every link of the installed README resolves ($(grep -c '^ok' "$T/links") links)" ||
  bad "installed docs: $(grep FAIL "$T/links" | tr '\n' ' ')"
pv=$(pkg-config --modversion nfsscope 2>/dev/null)
[ "$pv" = "$V" ] && [ -s /usr/include/nfsscope/nfsscope.h ] && ok "core library: pkg-config --modversion nfsscope = $pv, headers in /usr/include/nfsscope" ||
  bad "core library not installed for pkg-config ('$pv')"
# what pkg-config prints: the system's own paths (which it leaves out),
# never a path through /usr/lib/pkgconfig/../..
pf=$(pkg-config --cflags --libs nfsscope 2>&1) pi=$(pkg-config --variable=includedir nfsscope 2>&1)
# shellcheck disable=SC2086
[ "$(echo $pf)" = "-lnfsscope_core" ] && [ "$pi" = /usr/include ] &&
  ok "pkg-config --cflags --libs nfsscope: $pf; includedir $pi" ||
  bad "pkg-config --cflags --libs nfsscope: '$pf', includedir '$pi' (want -lnfsscope_core, /usr/include)"
rl=$(pkg-config --libs nfsscope-report 2>/dev/null)
[ -s /usr/include/nfsscope/report.h ] && dpkg -L nfsscope | grep -q "/libnfsscope_report\.a$" && [ -n "$rl" ] &&
  ok "report library: /usr/include/nfsscope/report.h, pkg-config --libs nfsscope-report = $rl" ||
  bad "report library not installed (report.h, libnfsscope_report.a, nfsscope-report.pc: '$rl')"
case "$rl" in *..*) bad "pkg-config --libs nfsscope-report goes through '..': $rl" ;; esac
if [ -n "$wdeb" ]; then
  apt_install "$wdeb"
  so=$(dpkg -L nfsscope-wireshark | grep "/nfsscope\.so$")
  [ -s "$so" ] && ok "installed $so" || bad "nfsscope-wireshark installed no nfsscope.so"
  # tshark as root loads the global plugin folder (not a sanitized build's plugin:
  # tshark would need libasan preloaded)
  if ! ldd "$so" | grep -q libasan; then
    tshark -G plugins 2>/dev/null | grep -q "^nfsscope\.so" && ok "tshark -G plugins lists nfsscope.so" ||
      bad "tshark does not load the installed plugin"
  fi
fi
purge || bad "apt-get purge: $(tail -3 "$T/purge.log")"
installed=0
[ ! -e /usr/bin/nfsscope ] && ! dpkg-query -W nfsscope >/dev/null 2>&1 && ! dpkg-query -W nfsscope-wireshark >/dev/null 2>&1 &&
  ok "removed: no /usr/bin/nfsscope, no package" || bad "still installed after purge"
exit $fail
