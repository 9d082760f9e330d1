#!/usr/bin/env bash
# What scrapes cost a live capture (issue 22; not a test): nfsscope -i
# --metrics at the replay's ceiling (tcpreplay --topspeed), without scrapes
# and with SCRAPES per second, for each NFSSCOPE given.
#   bench/metrics_scrape.sh [NFSSCOPE...]        as root; about 10 s a row
#   BENCH_SCRAPES=50 BENCH_REPEAT=3 BENCH_B=KiB (-B) BENCH_FRAMES=3000000
#   BENCH_PCAP=FILE (default samples/seed-000-nconnect-misbind.pcap, looped;
#     bench/make_small_compounds.py makes traffic that costs the analysis more)
#   BENCH_IDLE=1: replay first, then scrape 10 s with no traffic (what the
#     scrapes alone cost, and how fast they are answered on an idle link)
# Traffic: a veth pair whose other end is in a namespace this script makes
# (never a real interface); the scrapers (20 clients at once, as several
# Prometheus servers and curls would) run in that namespace and scrape
# 127.0.0.1 there. Prints per run the frames sent per second, captured,
# dropped by the kernel, CPU of nfsscope (seconds per 100k frames, or with
# BENCH_IDLE seconds in all), scrapes answered / asked within 2 s, their
# median and p99 time, and the body's size.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || set -- "$ROOT/build/analyzer/nfsscope"
[ "$(id -u)" = 0 ] || { echo "bench/metrics_scrape.sh: needs root (network namespace, capture)" >&2; exit 1; }
for t in tcpreplay capinfos python3; do
  command -v $t >/dev/null || { echo "bench/metrics_scrape.sh: $t missing (scripts/deps.sh)" >&2; exit 1; }
done
SCRAPES=${BENCH_SCRAPES:-50} REPEAT=${BENCH_REPEAT:-3} FRAMES=${BENCH_FRAMES:-3000000} IDLE=${BENCH_IDLE:-0}
NS=bms$$ A=bma$$ B=bmb$$ T=$(mktemp -d) pid= spid=
cleanup() {
  [ -n "$spid" ] && kill "$spid" 2>/dev/null
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
  ip link del "$A" 2>/dev/null; ip netns del "$NS" 2>/dev/null; rm -rf "$T"
}
trap cleanup EXIT
set -m # SIGINT reaches a background job only with job control on
ip netns add "$NS" && ip link add "$A" type veth peer name "$B" netns "$NS" || exit 1
sysctl -qw "net.ipv6.conf.$A.disable_ipv6=1"; ip netns exec "$NS" sysctl -qw "net.ipv6.conf.$B.disable_ipv6=1"
ip link set "$A" mtu 65535 up && ip -n "$NS" link set "$B" mtu 65535 up && ip -n "$NS" link set lo up
BOPT=(); [ -n "${BENCH_B:-}" ] && BOPT=(-B "$BENCH_B")
F=${BENCH_PCAP:-$ROOT/samples/seed-000-nconnect-misbind.pcap}
nf=$(capinfos -Mc "$F" | awk '/Number of packets/ {print $NF}')
loops=$(((FRAMES + nf - 1) / nf))
PORT=9464

# RATE scrapes a second by 20 clients until SIGTERM; then
# "asked answered body-bytes median-ms p99-ms" in OUT
cat >"$T/scrape.py" <<'PY'
import signal, socket, sys, threading, time
rate, port, out = float(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
res, size, stop = [], [0], threading.Event()
def worker(k, n):
    t = time.time() + k / rate
    while not stop.is_set():
        stop.wait(max(0, t - time.time()))
        t += n / rate
        a, ok = time.time(), False
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2)
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: b\r\n\r\n")
            data = b""
            while True:
                b = s.recv(65536)
                if not b: break
                data += b
            s.close()
            ok = data.startswith(b"HTTP/1.1 200")
            if ok: size[0] = len(data)
        except OSError:
            pass
        if not stop.is_set(): res.append((ok, time.time() - a))
def done(*_):
    stop.set()
    lat = sorted(r[1] for r in res if r[0]) or [0]
    open(out, "w").write("%d %d %d %.0f %.0f\n" % (len(res), sum(r[0] for r in res), size[0],
                         lat[len(lat) // 2] * 1e3, lat[int(len(lat) * .99)] * 1e3))
    sys.exit(0)
signal.signal(signal.SIGTERM, done)
for k in range(20): threading.Thread(target=worker, args=(k, 20), daemon=True).start()
while True: time.sleep(1)
PY

scrapers() { ip netns exec "$NS" python3 "$T/scrape.py" "$1" $PORT "$T/scr" & spid=$!; sleep 0.2; }
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
HZ=$(getconf CLK_TCK)
printf "%-28s %7s %9s %9s %8s %10s %9s %9s %7s\n" nfsscope scrapes "sent/s" captured dropped \
  "$([ "$IDLE" = 1 ] && echo "CPU s" || echo "CPU s/100k")" answered "ms p50/99" body
for n in "$@"; do
  for r in $(seq "$REPEAT"); do
    for s in 0 "$SCRAPES"; do
      [ "$IDLE" = 1 ] && [ "$s" = 0 ] && continue
      rm -f "$T/err" "$T/scr"
      ip netns exec "$NS" "$n" -i "$B" -Z root --batch -o /dev/null --metrics 127.0.0.1:$PORT "${BOPT[@]}" 'greater 0' 2>"$T/err" &
      pid=$!
      for _ in $(seq 200); do grep -q "listening on" "$T/err" 2>/dev/null && break; sleep 0.05; done
      sleep 0.3
      [ "$s" != 0 ] && [ "$IDLE" != 1 ] && scrapers "$s"
      c0=$(ticks)
      tcpreplay -q --topspeed --loop=$loops -i "$A" "$F" >"$T/rep" 2>&1
      sleep 0.5
      if [ "$IDLE" = 1 ]; then c0=$(ticks); scrapers "$s"; sleep 10; fi
      c1=$(ticks)
      if [ -n "$spid" ]; then kill "$spid"; wait "$spid" 2>/dev/null; spid=; fi
      kill -INT "$pid"; wait "$pid" 2>/dev/null; pid=
      read -r cap drop < <(awk '/packets captured$/ {c=$1} /dropped by kernel$/ {d=$1} END {print c+0, d+0}' "$T/err")
      sent=$(awk '/Rated:/ {for (i = 1; i <= NF; i++) if ($i == "pps") print int($(i-1))}' "$T/rep" | head -1)
      if [ "$IDLE" = 1 ]; then cpu=$(awk -v t=$((c1 - c0)) -v hz="$HZ" 'BEGIN {printf "%.2f", t / hz}')
      else cpu=$(awk -v t=$((c1 - c0)) -v hz="$HZ" -v n="$cap" 'BEGIN {printf "%.3f", n ? t / hz / n * 100000 : 0}'); fi
      ans=- lat=- body=-
      [ -f "$T/scr" ] && read -r asked okd body p50 p99 <"$T/scr" && ans="$okd/$asked" lat="$p50/$p99"
      printf "%-28s %7s %9s %9s %8s %10s %9s %9s %7s\n" "$n" "$s" "${sent:-?}" "$cap" "$drop" "$cpu" "$ans" "$lat" "$body"
    done
  done
done
