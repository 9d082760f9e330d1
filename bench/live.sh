#!/usr/bin/env bash
# Live capture benchmark (not a test): the highest replay rate at which a
# capture shows zero kernel drops, and its CPU cost, for nfsscope -i next to
# tcpdump -w /dev/null and tshark (decoding RPC, as nfsscope does).
#   bench/live.sh [NFSSCOPE]        as root; about 4 minutes
#   BENCH_TOOLS="nfsscope-screen"   only some of: nfsscope nfsscope-screen tcpdump tshark
# Traffic: tcpreplay into a veth pair whose other end is in a namespace this
# script creates (never a real interface). Frames: small (samples/seed-000,
# 181 bytes on average) and large (samples/twin-full, 7.8 KB: loopback-size
# frames). Rates: --pps steps, then --topspeed; each step ~3 s of traffic.
# CPU: utime+stime of the capturing process from /proc/PID/stat, reported
# as CPU seconds per 100k frames (= CPU share at 100k frames/s).
# Each tool with its default buffer (nfsscope 32 MiB, tcpdump/tshark 2 MiB);
# BENCH_B=KiB passes -B to all three.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
N=${1:-$ROOT/build/analyzer/nfsscope}
[ "$(id -u)" = 0 ] || { echo "bench/live.sh: needs root (network namespace, capture)" >&2; exit 1; }
for t in tcpreplay tcpdump tshark capinfos; do
  command -v $t >/dev/null || { echo "bench/live.sh: $t missing (scripts/deps.sh)" >&2; exit 1; }
done
[ -x "$N" ] || { echo "bench/live.sh: $N: not built" >&2; exit 1; }
NS=bnl$$ A=bla$$ B=blb$$ T=$(mktemp -d) pid=
cleanup() { [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; tmux -L "bench$$" kill-server 2>/dev/null; ip link del "$A" 2>/dev/null; ip netns del "$NS" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
set -m
ip netns add "$NS" && ip link add "$A" type veth peer name "$B" netns "$NS" || exit 1
sysctl -qw "net.ipv6.conf.$A.disable_ipv6=1"; ip netns exec "$NS" sysctl -qw "net.ipv6.conf.$B.disable_ipv6=1"
ip link set "$A" mtu 65535 up && ip -n "$NS" link set "$B" mtu 65535 up
BOPT=(); [ -n "${BENCH_B:-}" ] && BOPT=(-B "$BENCH_B")

# start TOOL: capture on B in the background until it is ready
start() {
  rm -f "$T/err"
  case $1 in
  nfsscope) ip netns exec "$NS" "$N" -i "$B" -Z root --batch -o /dev/null "${BOPT[@]}" 'greater 0' 2>"$T/err" & ;;
  nfsscope-screen) # the screen, in a tmux window of its own, redrawing every second
    tmux -L "bench$$" new-session -d -x 132 -y 40 \
      "TERM=xterm-256color ip netns exec $NS $N -i $B -Z root --tui -o /dev/null ${BOPT[*]} 'greater 0' 2>$T/err; sleep 600"
    pid=
    for _ in $(seq 100); do pid=$(pgrep -n -x nfsscope); [ -n "$pid" ] && break; sleep 0.05; done
    sleep 1
    return ;;
  tcpdump) ip netns exec "$NS" tcpdump -i "$B" -Z root -n -w /dev/null "${BOPT[@]}" 2>"$T/err" & ;;
  tshark) ip netns exec "$NS" tshark -i "$B" -n -q "${BOPT[@]}" -z rpc,srt,100003,3 >/dev/null 2>"$T/err" & ;;
  esac
  pid=$!
  for _ in $(seq 200); do grep -qi "listening on\|capturing on" "$T/err" 2>/dev/null && break; sleep 0.05; done
  sleep 0.3
}
# the capturing process: tshark leaves capture to dumpcap, count both
cpu_ticks() {
  local sum=0 p
  for p in $pid $(pgrep -P "$pid"); do
    sum=$((sum + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0)))
  done
  echo $sum
}
# stop: SIGINT, wait (not in a subshell: only this shell can wait); sets cap, drop
stop() {
  kill -INT "$pid"
  if [ "$tool" = nfsscope-screen ]; then # not our child: wait for its counters
    for _ in $(seq 100); do grep -q "dropped by kernel" "$T/err" 2>/dev/null && break; sleep 0.05; done
    tmux -L "bench$$" kill-server 2>/dev/null
  else wait "$pid" 2>/dev/null; fi
  pid=
  case $tool in
  nfsscope|nfsscope-screen|tcpdump) read -r cap drop < <(awk '/packets captured$/ {c=$1} /dropped by kernel$/ {d=$1} END {print c+0, d+0}' "$T/err") ;;
  tshark) read -r cap drop < <(awk '/packets? captured$/ {c=$1} /dropped/ {d+=$1} END {print c+0, d+0}' "$T/err") ;;
  esac
}

HZ=$(getconf CLK_TCK)
printf "%-6s %-9s %10s %10s %10s %10s %12s\n" frames tool "rate asked" "sent/s" captured dropped "CPU s/100k"
for size in small large; do
  f=$ROOT/samples/seed-000-nconnect-misbind.pcap; [ $size = large ] && f=$ROOT/samples/twin-full.pcap
  nf=$(capinfos -Mc "$f" | awk '/Number of packets/ {print $NF}')
  for tool in ${BENCH_TOOLS:-nfsscope nfsscope-screen tcpdump tshark}; do
    best=none
    for rate in 50000 100000 200000 400000 top; do
      r=${rate/top/400000}
      loops=$(( r * 3 / nf + 1 )) # ~3 s at the asked rate
      start $tool
      c0=$(cpu_ticks)
      if [ $rate = top ]; then tcpreplay -q --topspeed --loop=$loops -i "$A" "$f" >"$T/rep" 2>&1
      else tcpreplay -q --pps=$rate --loop=$loops -i "$A" "$f" >"$T/rep" 2>&1; fi
      sleep 0.5
      c1=$(cpu_ticks)
      stop
      sent=$(awk '/Rated:/ {for (i = 1; i <= NF; i++) if ($i == "pps") print int($(i-1))}' "$T/rep" | head -1)
      cpu=$(awk -v t=$((c1 - c0)) -v hz="$HZ" -v n="$cap" 'BEGIN {printf "%.3f", n ? t / hz / n * 100000 : 0}')
      printf "%-6s %-9s %10s %10s %10s %10s %12s\n" $size $tool $rate "${sent:-?}" "$cap" "$drop" "$cpu"
      [ "$drop" = 0 ] && [ "$cap" -gt 0 ] && best="$rate (sent ${sent:-?}/s)"
      [ "$drop" != 0 ] && break
    done
    echo "# $size frames, $tool: highest rate without kernel drops: $best"
  done
done
