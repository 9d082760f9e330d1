#!/usr/bin/env bash
# Bad input: one clear line on stderr naming the file and the reason, and the
# documented exit status. Usage: cli_errors.sh NFSSCOPE SAMPLES_DIR
set -u
N=$1 S=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0

# expect STATUS REGEX -- ARGS...: exit status and the single stderr line
expect() {
  local want=$1 re=$2; shift 3
  "$N" "$@" >"$T/out" 2>"$T/err"
  local got=$?
  local lines; lines=$(wc -l <"$T/err")
  if [ "$got" != "$want" ] || ! grep -Eq -- "$re" "$T/err" || [ "$lines" != 1 ]; then
    echo "FAIL: nfsscope $* -> exit $got (want $want), stderr ($lines lines):"; cat "$T/err"; fail=1
  else
    echo "ok: nfsscope $* -> $got: $(cat "$T/err")"
  fi
}

echo hello >"$T/notcap"
: >"$T/empty"
head -c 10 "$S/nfsv3-tcp.pcap" >"$T/hdr.pcap"
head -c 100000 "$S/nfsv3-tcp.pcap" >"$T/cut.pcap"
# a pcap header with link type 105 (802.11)
printf '\xd4\xc3\xb2\xa1\x02\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\xff\xff\x00\x00\x69\x00\x00\x00' >"$T/wifi.pcap"

expect 1 "^nfsscope: $T/missing: No such file or directory$" -- -r "$T/missing"
expect 1 "^nfsscope: $T/notcap: not a pcap or pcapng capture file$" -- -r "$T/notcap"
expect 1 "^nfsscope: $T/empty: empty file, not a capture$" -- -r "$T/empty"
# the capture given with --peer is judged in the same words
expect 1 "^nfsscope: --peer: $T/missing: No such file or directory$" -- -r "$S/nfsv3-tcp.pcap" --peer "$T/missing"
expect 1 "^nfsscope: --peer: $T/notcap: not a pcap or pcapng capture file$" -- -r "$S/nfsv3-tcp.pcap" --peer "$T/notcap"
expect 1 "^nfsscope: --peer: $T/empty: empty file, not a capture$" -- -r "$S/nfsv3-tcp.pcap" --peer "$T/empty"
# a capture format libpcap does not read is named, with the way to convert it
printf 'snoop\0\0\0\0\0\0\x02\0\0\0\x04' >"$T/trace.snoop"
expect 1 "^nfsscope: $T/trace.snoop: a Solaris snoop capture, which libpcap does not read: convert it with editcap -F pcap $T/trace.snoop OUT.pcap$" -- -r "$T/trace.snoop"
if command -v editcap >/dev/null; then
  editcap -F pcap "$T/trace.snoop" "$T/converted.pcap" 2>/dev/null && "$N" -r "$T/converted.pcap" >/dev/null 2>&1 &&
    echo "ok: the snoop capture converted as the message says is read" ||
    { echo "FAIL: editcap -F pcap did not give nfsscope a readable capture"; fail=1; }
fi
expect 1 "^nfsscope: $T: is a directory$" -- -r "$T"
expect 1 "^nfsscope: $T/hdr.pcap: capture file header is cut off$" -- -r "$T/hdr.pcap"
expect 1 "^nfsscope: $T/wifi.pcap: unsupported link type IEEE802_11 \(105\)" -- -r "$T/wifi.pcap"
expect 1 "^nfsscope: nosuchif0: no such interface$" -- -i nosuchif0
expect 1 "^nfsscope: .*nfsv3-tcp.pcap: filter 'port \(\(': " -- -r "$S/nfsv3-tcp.pcap" 'port (('
expect 1 "^nfsscope: --format: expected text or json" -- -r "$S/nfsv3-tcp.pcap" --format xml
expect 1 "^nfsscope: --memcap: " -- -r "$S/nfsv3-tcp.pcap" --memcap 12Q
expect 1 "^nfsscope: --rpc-port: expected ports from 1 to 65535" -- -r "$S/nfsv3-tcp.pcap" --rpc-port abc
expect 1 "^nfsscope: --rpc-port: expected ports from 1 to 65535" -- -r "$S/nfsv3-tcp.pcap" --rpc-port 70000
expect 1 "^nfsscope: give exactly one of -r FILE or -i INTERFACE" --
# a file or directory named once in the message (libpcap's own message names it too)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  cp "$S/nfsv3-tcp.pcap" "$T/noread.pcap"; chmod 000 "$T/noread.pcap"; chmod 755 "$T"
  setpriv --reuid=65534 --regid=65534 --clear-groups "$N" -r "$T/noread.pcap" >"$T/out" 2>"$T/err"
  if [ $? = 1 ] && grep -qx "nfsscope: $T/noread.pcap: Permission denied" "$T/err"; then echo "ok: unreadable file named once"
  else echo "FAIL: unreadable file: $(cat "$T/err")"; fail=1; fi
  expect 1 "^nfsscope: lo: -w $T/nodir/x: No such file or directory$" -- -i lo -w "$T/nodir/x" -c 1
fi
# cut off mid-packet: analysed up to the cut, exit 2, report says PARTIAL
expect 2 "^nfsscope: $T/cut.pcap: capture cut off or damaged after frame [0-9]+: truncated dump file" -- -r "$T/cut.pcap"
grep -q "PARTIAL" "$T/out" || { echo "FAIL: cut capture report does not say PARTIAL"; fail=1; }
grep -Eq "^  frames +[1-9]" "$T/out" || { echo "FAIL: cut capture report has no frames"; fail=1; }

# standard input gives the same report as the file (but for the source name)
"$N" -r "$S/nfsv40-tcp.pcap" --format json | sed 's/"source":"[^"]*"//' >"$T/a"
"$N" -r - --format json <"$S/nfsv40-tcp.pcap" | sed 's/"source":"[^"]*"//' >"$T/b"
cmp -s "$T/a" "$T/b" || { echo "FAIL: -r - differs from -r FILE"; fail=1; }
# a BPF filter that matches nothing: no RPC, exit 0
"$N" -r "$S/nfsv3-tcp.pcap" --format json port 9 >"$T/f" || { echo "FAIL: filter run failed"; fail=1; }
grep -q '"calls":0' "$T/f" || { echo "FAIL: filter 'port 9' still saw calls"; fail=1; }
# same input, same bytes out
"$N" -r "$S/nfsv41-restart.pcap" --format json --txn-log "$T/l1" >"$T/r1"
"$N" -r "$S/nfsv41-restart.pcap" --format json --txn-log "$T/l2" >"$T/r2"
cmp -s "$T/r1" "$T/r2" && cmp -s "$T/l1" "$T/l2" || { echo "FAIL: two runs differ"; fail=1; }
# progress is never written when stderr is not a terminal
"$N" -r "$S/nfsv3-tcp.pcap" >/dev/null 2>"$T/e"
[ ! -s "$T/e" ] || { echo "FAIL: stderr not empty on a clean run"; fail=1; }
exit $fail
