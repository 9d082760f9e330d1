#!/usr/bin/env bash
# Live capture end to end (doc/nfsscope.1): nfsscope -i on a veth pair this
# script creates (one end in its own network namespace), fed by tcpreplay.
# Traffic goes only to that veth pair.
#   live.sh MODE NFSSCOPE SAMPLES_DIR
# MODE: replay   every Ethernet sample replayed; the live report equals the
#                report of the frames it saved (-w) and, for samples replayed
#                at their own timing, `-r sample` on everything not timing;
#                0 kernel drops
#       drops    a flood into -B 64: drops > 0 in JSON, on stderr, and the
#                text report's lower-bound notes
#       signals  SIGHUP and SIGTERM end the capture with a report, exit 0;
#                the default filter keeps what -r with that filter keeps
#       rotate   -w with -C (FILE, FILE1, ...) and -C -W (FILE0, FILE1):
#                readable files, frames total what was captured, -r on them
#                reproduces the report
#       pipe     -r - from a pipe that stays open, SIGINT/SIGTERM/SIGHUP:
#                report, exit 0; a pipe cut mid-frame: report, exit 2; a
#                closed stdout does not lose the -o report
#       batch    summary lines per --interval (live and -r --batch)
# Exit 77 (skipped) when not root, or without ip netns or tcpreplay.
set -u
MODE=$1 N=$2 S=$3
T=$(mktemp -d)
NS=nsl$$ A=nla$$ B=nlb$$ pid=
fail=0
cleanup() {
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
  ip link del "$A" 2>/dev/null; ip netns del "$NS" 2>/dev/null
  rm -rf "$T"
}
trap cleanup EXIT
set -m # a background job of a script ignores SIGINT without job control
bad() { echo "FAIL: $*"; fail=1; }
ok() { echo "ok: $*"; }
jq_() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
frames_in() { capinfos -Mc "$1" 2>/dev/null | awk '/Number of packets/ {print $NF}'; }

need_netns() {
  [ "$(id -u)" = 0 ] || { echo "skip: not root"; exit 77; }
  command -v tcpreplay >/dev/null || { echo "skip: tcpreplay not installed (scripts/deps.sh)"; exit 77; }
  ip netns add "$NS" 2>/dev/null || { echo "skip: ip netns unavailable"; exit 77; }
  ip link add "$A" type veth peer name "$B" netns "$NS" || { echo "skip: no veth"; exit 77; }
  # large MTU: loopback captures replay unchanged; IPv6 off: no router solicitations
  sysctl -qw "net.ipv6.conf.$A.disable_ipv6=1"
  ip netns exec "$NS" sysctl -qw "net.ipv6.conf.$B.disable_ipv6=1"
  ip link set "$A" mtu 65535 up && ip -n "$NS" link set "$B" mtu 65535 up
}

# listen ARGS...: nfsscope -i on the namespace's end, in the background,
# until it says it is listening.
listen() {
  rm -f "$T/err"
  ip netns exec "$NS" "$N" -i "$B" -Z root --batch "$@" 2>"$T/err" &
  pid=$!
  for _ in $(seq 100); do grep -q "^nfsscope: listening on" "$T/err" 2>/dev/null && return 0; sleep 0.05; done
  bad "nfsscope -i $B $* did not start: $(cat "$T/err")"; return 1
}
# finish SIG: signal nfsscope, wait for it; its exit status in $rc
finish() { kill -"$1" "$pid"; wait "$pid"; rc=$?; pid=; }
replay() { tcpreplay -q -i "$A" "$@" >"$T/replay.log" 2>&1 || bad "tcpreplay $*: $(tail -3 "$T/replay.log")"; }

case $MODE in
replay)
  need_netns
  for f in "$S"/*.pcap; do
    name=$(basename "$f")
    # tcpreplay cannot send cooked (SLL) captures: they have no Ethernet header
    [ "$(capinfos -Ea "$f" | awk -F': *' '/encapsulation/ {print $2}')" = Ethernet ] || continue
    dur=$(capinfos -Mu "$f" | awk '/duration/ {print int($(NF-1))}')
    timing=(--timing) speed=()
    if [ "$dur" -gt 6 ]; then timing=() speed=(--multiplier=$(( dur / 2 ))); fi # long ones compressed to ~2 s
    listen --format json -o "$T/live.json" -w "$T/saved.pcap" 'greater 0' || continue
    replay "${speed[@]}" "$f"
    # tcpreplay returns once it has sent; the last frames still cross the
    # veth into the namespace and are stamped there. A frame stamped after
    # the stop is rightly not counted, so let them land first (under ASan a
    # frame was once stamped after the SIGINT: 218 of 219)
    sleep 0.5
    finish INT
    "$N" -r "$f" --format json -o "$T/file.json"
    "$N" -r "$T/saved.pcap" --format json -o "$T/saved.json"
    want=$(frames_in "$f") got=$(jq_ "$T/live.json" "d['capture']['packets']")
    kd=$(jq_ "$T/live.json" "d['capture']['kernel_drops']")
    if [ "$rc" != 0 ]; then bad "$name: exit $rc: $(cat "$T/err")"
    elif [ "$got" != "$want" ] || [ "$kd" != 0 ]; then bad "$name: $got of $want frames, $kd kernel drops"
    elif ! python3 "$(dirname "$0")/live_compare.py" "$T/live.json" "$T/saved.json"; then bad "$name: live report != -r of its -w file"
    elif [ ${#timing[@]} = 0 ]; then ok "$name: $got frames (replayed ${speed[*]}), 0 drops, report = -r of the saved frames"
    elif [ "$(jq_ "$T/file.json" "d['capture']['truncated_frames']")" != 0 ]; then
      ok "$name: $got frames, 0 drops, report = -r of the saved frames (frames cut by its snapshot length replay shorter: not compared with -r $name)"
    elif ! python3 "$(dirname "$0")/live_compare.py" "$T/live.json" "$T/file.json" --timing; then bad "$name: live report != -r $name"
    else ok "$name: $got frames at its own timing, 0 drops, report = -r $name (timing values aside) = -r of the saved frames"
    fi
  done ;;
drops)
  need_netns
  for fmt in json text; do
    listen --format "$fmt" -o "$T/out.$fmt" -B 64 || exit 1
    replay --topspeed --loop=300 "$S/nfsv3-tcp.pcap"
    finish INT
    stderr_drops=$(awk '/packets dropped by kernel$/ {print $1}' "$T/err")
    if [ "$rc" != 0 ] || ! [ "${stderr_drops:-0}" -gt 0 ]; then bad "-B 64 flood ($fmt): exit $rc, stderr: $(tail -4 "$T/err")"; continue; fi
    if [ $fmt = json ]; then
      v=$(jq_ "$T/out.json" "d['capture']['kernel_drops'] + d['capture']['interface_drops'], d['capture']['lower_bounds']")
      [ "$v" = "$stderr_drops True" ] || { bad "JSON drops/lower_bounds '$v', stderr says $stderr_drops"; continue; }
      ok "-B 64 flood: $stderr_drops kernel drops on stderr and in JSON, lower_bounds true"
    else
      notes=$(grep -c "(lower bounds: the capture dropped" "$T/out.text")
      if ! grep -q "^Capture  $B (live)$" "$T/out.text" || ! grep -Eq "^  wall clock    .* UTC \.\. .* UTC$" "$T/out.text" ||
         [ "$(awk 'length($0) > 100' "$T/out.text" | wc -l)" != 0 ] ||
         ! grep -q "dropped       $stderr_drops by the kernel.*lower bounds" "$T/out.text" || [ "$notes" -lt 3 ]; then
        bad "text report: header/drops/lower-bound notes missing, or a line over 100 columns"; head -8 "$T/out.text"
      else ok "-B 64 flood: text header, drops line and $notes lower-bound notes, within 100 columns"; fi
    fi
  done ;;
signals)
  need_netns
  for sig in HUP TERM; do
    listen --format json -o "$T/out.json" || exit 1
    replay "$S/nfsv3-tcp.pcap"
    finish $sig
    got=$(jq_ "$T/out.json" "d['capture']['packets']" 2>/dev/null)
    # the default filter (from the listening line) leaves out the sample's ARP and ICMPv6
    filter=$(sed -n 's/^nfsscope: listening on .*, filter: //p' "$T/err")
    want=$("$N" -r "$S/nfsv3-tcp.pcap" --format json "$filter" | python3 -c "import json,sys; print(json.load(sys.stdin)['capture']['packets'])")
    if [ "$rc" = 0 ] && [ "$got" = "$want" ]; then ok "SIG$sig: exit 0, report of $got frames (the default filter's share of $(frames_in "$S/nfsv3-tcp.pcap"))"
    else bad "SIG$sig: exit $rc, report frames '$got': $(cat "$T/err")"; fi
  done ;;
rotate)
  need_netns
  listen --format json -o "$T/live.json" -w "$T/cap" -C 0.1 || exit 1
  replay --topspeed "$S/nfsv3-tcp.pcap"
  finish INT
  files=$(cd "$T" && ls cap* | sort -V | xargs)
  mergecap -a -F nsecpcap -w "$T/all.pcap" $(for x in $files; do echo "$T/$x"; done)
  "$N" -r "$T/all.pcap" --format json -o "$T/all.json"
  total=0; for x in $files; do total=$((total + $(frames_in "$T/$x"))); done
  got=$(jq_ "$T/live.json" "d['capture']['packets']")
  case "$files" in "cap cap1 cap2 cap3"*) names=ok ;; *) names=bad ;; esac
  if [ "$rc" != 0 ] || [ $names != ok ] || [ "$total" != "$got" ]; then bad "-C 0.1: exit $rc, files $files, $total frames saved of $got"
  elif ! python3 "$(dirname "$0")/live_compare.py" "$T/live.json" "$T/all.json"; then bad "-C 0.1: -r of the files != live report"
  else ok "-C 0.1: $files hold all $got frames; -r on them reproduces the report"; fi
  rm -f "$T"/cap*
  listen --format json -o "$T/live.json" -w "$T/cap" -C 0.1 -W 2 || exit 1
  replay --topspeed "$S/nfsv3-tcp.pcap"
  finish INT
  files=$(cd "$T" && ls cap* | xargs)
  if [ "$rc" != 0 ] || [ "$files" != "cap0 cap1" ] || ! "$N" -r "$T/cap0" >/dev/null || ! "$N" -r "$T/cap1" >/dev/null; then
    bad "-C 0.1 -W 2: exit $rc, files '$files'"
  else ok "-C 0.1 -W 2: cap0 cap1 (overwritten in turn), both readable"; fi ;;
pipe)
  want=$(frames_in "$S/nfsv3-udp.pcap")
  mkfifo "$T/fifo"
  for sig in INT TERM HUP; do
    rm -f "$T/out.json"
    { cat "$S/nfsv3-udp.pcap"; sleep 30; } >"$T/fifo" & # the writer keeps the pipe open
    wpid=$!
    "$N" -r - --format json -o "$T/out.json" <"$T/fifo" 2>"$T/err" &
    pid=$!
    sleep 1
    finish $sig
    kill -- -"$wpid" 2>/dev/null # its own process group (set -m)
    got=$(jq_ "$T/out.json" "d['capture']['packets']" 2>/dev/null)
    if [ "$rc" = 0 ] && [ "$got" = "$want" ]; then ok "-r - from an open pipe, SIG$sig: exit 0, report of all $got frames"
    else bad "-r - SIG$sig: exit $rc, $got of $want frames: $(cat "$T/err")"; fi
  done
  # the writer dies mid-frame (tcpdump killed): the report of what came, exit 2
  head -c 100000 "$S/nfsv3-tcp.pcap" | "$N" -r - -o "$T/out.txt" 2>"$T/err"
  rc=$?
  if [ "$rc" = 2 ] && grep -q "^  PARTIAL " "$T/out.txt" && grep -q "^nfsscope: standard input: capture cut off" "$T/err"; then
    ok "-r - cut mid-frame by the writer: exit 2, report says PARTIAL"
  else bad "-r - cut mid-frame: exit $rc: $(cat "$T/err")"; fi
  # stdout closed early (SIGPIPE/EPIPE): the -o report is still written
  rm -f "$T/out.json"
  "$N" -r "$S/nfsv3-tcp.pcap" --txn-log - -o "$T/out.json" --format json 2>"$T/err" | head -c 10 >/dev/null
  rc=${PIPESTATUS[0]}
  got=$(jq_ "$T/out.json" "d['capture']['packets']" 2>/dev/null)
  if [ "$rc" = 1 ] && [ "$got" = 401 ] && grep -q "^nfsscope: standard output: Broken pipe$" "$T/err"; then
    ok "stdout closed early: -o report written, 'standard output: Broken pipe', exit 1"
  else bad "stdout closed early: exit $rc, report frames '$got': $(cat "$T/err")"; fi ;;
batch)
  "$N" -r "$S/nfsv3-udp-loss5.pcap" --batch --interval 5 -o /dev/null 2>"$T/err"
  n=$(grep -c '^nfsscope: [0-9:.]* frames [0-9]* (+[0-9]*), [0-9.]* calls/s, [0-9.]* errors/s, findings [0-9]* (+[0-9]* new' "$T/err")
  if [ "$n" -ge 5 ] && grep -q "findings 2 (+2 new: RTO_INFLATED, FRAGMENT_LOSS)" "$T/err"; then ok "-r --batch --interval 5 on a 36 s capture: $n lines"
  else bad "-r --batch: $n lines: $(cat "$T/err")"; fi
  need_netns
  listen --interval 0.5 -o /dev/null || exit 1
  replay --multiplier=10 "$S/nfsv3-udp-loss5.pcap" # ~3.6 s
  finish INT
  n=$(grep -c '^nfsscope: [0-9:.]* frames [0-9]* (+[0-9]*), dropped 0 by kernel 0 by interface, [0-9.]* calls/s' "$T/err")
  if [ "$rc" = 0 ] && [ "$n" -ge 6 ]; then ok "-i --interval 0.5 over ~3.6 s: $n lines"
  else bad "-i --interval 0.5: exit $rc, $n lines: $(cat "$T/err")"; fi ;;
*) echo "usage: live.sh replay|drops|signals|rotate|pipe|batch NFSSCOPE SAMPLES"; exit 2 ;;
esac
exit $fail
