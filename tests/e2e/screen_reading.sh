#!/usr/bin/env bash
# The live screen read as a person reads it (issue 23): nfsscope -r SAMPLE
# --tui in a tmux pane (own socket), keys sent, the pane read back with
# capture-pane. One check per mode; expected values come from tshark or
# from what the sample was made to contain, never from nfsscope itself.
#   screen_reading.sh NFSSCOPE SAMPLES_DIR MODE
# Exit 77 (skipped) without tmux or tshark.
set -u
bin=$1 samples=$2 mode=$3
command -v tmux >/dev/null || { echo "SKIP: no tmux"; exit 77; }
command -v tshark >/dev/null || { echo "SKIP: no tshark"; exit 77; }
work=$(mktemp -d)
sock=nfsscope-reading-$$
T() { tmux -L "$sock" "$@"; }
# q before the server goes: a screen whose terminal is killed under it
# (SIGHUP) ends too, but an ASan build can then spin in LeakSanitizer's
# exit check for minutes, orphaned
close() {
  T has-session -t s 2>/dev/null || return 0
  T send-keys -t s q
  local end=$((SECONDS + 20))
  until [ "$(T display -p -t s '#{pane_current_command}' 2>/dev/null)" = sleep ]; do
    [ "$SECONDS" -ge "$end" ] && break
    sleep 0.1
  done
  T kill-session -t s
}
trap 'close; T kill-server 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL ($mode): $*"; echo "--- pane:"; cat "$work/pane" 2>/dev/null; exit 1; }
snap() { T capture-pane -p -t s > "$work/pane"; }

# Poll the pane until the extended regex matches (deadline in seconds).
wait_for() {
  local pat=$1 end=$((SECONDS + ${2:-20}))
  while :; do
    snap
    grep -qE -- "$pat" "$work/pane" && return 0
    [ "$SECONDS" -ge "$end" ] && fail "no '$pat' on the screen"
    sleep 0.1
  done
}
key() { T send-keys -t s "$@"; }
# End as xterm sends it (the pane's TERM): tmux's own End is another sequence
key_end() { T send-keys -t s -l $'\033OF'; }
# The screen on SAMPLE at COLSxROWS, replayed at full speed, left open at
# its end; extra environment (LANG ...) in $envs.
open() {
  local pcap=$samples/$1.pcap cols=${2:-132} rows=${3:-40}
  T new-session -d -s s -x "$cols" -y "$rows" \
    "env TERM=xterm-256color ${envs:-LANG=C.UTF-8} \"$bin\" -r \"$pcap\" --tui --speed ${speed:-max}; exec sleep 600"
  wait_for 'end of capture'
}
# Failed replies and latency per client port and per client address, as
# tshark decodes them: "ADDR:PORT errors p99_ns replies" and "ADDR ...". A
# failed reply: RPC denied or not SUCCESS, or a first NFS (the COMPOUND's)
# or MOUNT status other than OK. p99: nearest rank of rpc.time.
tshark_per_client() {
  tshark -r "$1" -Y 'rpc.msgtyp == 1' -T fields -E separator=/t -e ip.dst -e tcp.dstport -e udp.dstport \
    -e rpc.replystat -e rpc.state_accept -e nfs.status -e mount.status -e rpc.time 2>/dev/null | python3 -c '
import sys, math, collections
err, lat = collections.Counter(), collections.defaultdict(list)
for line in sys.stdin:
    f = line.rstrip("\n").split("\t")
    dst, port = f[0], f[1] or f[2]
    first = lambda v: v.split(",")[0]
    bad = first(f[3] or "0") != "0" or first(f[4] or "0") != "0" or first(f[5] or "0") != "0" or first(f[6] or "0") != "0"
    for k in (dst + ":" + port, dst):
        err[k] += bad
        if f[7]: lat[k].append(float(first(f[7])) * 1e9)
for k in sorted(set(err) | set(lat)):
    v = sorted(lat[k])
    p99 = v[max(1, math.ceil(len(v) * 0.99)) - 1] if v else -1
    print(k, err[k], int(p99), len(v))'
}
# A time cell ("850us", "12.1ms", "1.20s") in ns.
cell_ns() { awk -v c="$1" 'BEGIN { v = c + 0; if (c ~ /us$/) v *= 1e3; else if (c ~ /ms$/) v *= 1e6; else if (c ~ /s$/) v *= 1e9; printf "%.0f", v }'; }
# Column number of a title on the table's title line.
col_of() { awk -v name="$1" 'NR == 4 { for (i = 1; i <= NF; i++) if ($i == name || $i == name "*") { print i; exit } }' "$work/pane"; }
# Check one table's rows against tshark: KEYCOL names the client column
# (address or address:port), then errors and p99 per row. A p99 is right
# within the histogram's 1% and the cell's rounding (3%).
check_per_client() {
  local expect=$1 keycol errcol p99col checked=0
  keycol=$(col_of client) errcol=$(col_of errors) p99col=$(col_of p99)
  [ -n "$keycol" ] && [ -n "$errcol" ] && [ -n "$p99col" ] || fail "no client, errors or p99 column"
  while read -r key errs p99 _; do
    [ "$p99" -ge 0 ] || continue
    row=$(rows | awk -v k="$key" -v c="$keycol" '$c == k') || true
    [ -n "$row" ] || continue
    got_err=$(echo "$row" | awk -v c="$errcol" '{print $c}')
    got_p99=$(cell_ns "$(echo "$row" | awk -v c="$p99col" '{print $c}')")
    [ "$got_err" = "$errs" ] || fail "$key: errors $got_err, tshark counts $errs failed replies"
    awk -v a="$got_p99" -v b="$p99" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.03 * b + 1000) }' ||
      fail "$key: p99 $got_p99 ns, tshark's rpc.time gives $p99 ns"
    checked=$((checked + 1))
  done < "$expect"
  [ "$checked" -gt 0 ] || fail "no row to check against tshark"
  echo "checked $checked rows against tshark"
}
# The table's rows: the lines after the column titles (line 4) up to the
# first empty line, the findings' message rule or the footer (last line).
rows() { awk -v last="$(wc -l < "$work/pane")" 'NR > 4 && (/^$/ || /^---/ || NR == last) {exit} NR > 4' "$work/pane"; }

cd "$work"
# a session that outlives the screens: killing the last one ends the tmux
# server, and the next new-session can reach the server while it exits
# ("server exited unexpectedly" under load)
T new-session -d -s keep "sleep 600"
case $mode in
sort-severity)
  # seed-slot-rules holds findings of three severities (error, warning,
  # info: its findings.json); sorted on the severity column they come by
  # rank, highest first, not by name (error, info, warning)
  open seed-slot-rules
  key 3
  wait_for 'severity +kind'
  key s
  wait_for '^severity\* '
  rank() { case $1 in critical) echo 3;; error) echo 2;; warning) echo 1;; info) echo 0;; *) echo -1;; esac; }
  prev=9 seen=""
  while read -r sev _; do
    r=$(rank "$sev")
    [ "$r" -ge 0 ] || fail "'$sev' is not a severity"
    [ "$r" -le "$prev" ] || fail "$sev listed after a lower severity"
    prev=$r
    case " $seen " in *" $sev "*) ;; *) seen="$seen $sev";; esac
  done < <(rows)
  [ "$(echo $seen)" = "error warning info" ] || fail "severities seen: '$seen', expected 'error warning info'"
  ;;
filter)
  # nfsv3-tcp: 28 TCP connections (tshark), more than the 19 rows a
  # 132x24 pane shows; after End, a filter on the NFS server's port must
  # show every connection to it from the first, not the last one alone
  pcap=$samples/nfsv3-tcp.pcap
  want=$(tshark -r "$pcap" -q -z conv,tcp 2>/dev/null | grep -cE ':2049 +<->|:2049 ')
  all=$(tshark -r "$pcap" -q -z conv,tcp 2>/dev/null | grep -c '<->')
  [ "$want" -ge 2 ] && [ "$all" -gt 19 ] || fail "nfsv3-tcp: $want connections to 2049 of $all"
  open nfsv3-tcp 132 24
  key 2
  wait_for '^conn +tr +client +server'
  key_end
  wait_for "^c$all "
  key / ; key -l ':2049' ; key Enter
  wait_for 'filter: :2049 '
  n=$(rows | grep -c ':2049 ')
  [ "$n" = "$want" ] || fail "$n of the $want connections to port 2049 shown after End and the filter"
  [ "$(rows | wc -l)" = "$want" ] || fail "rows other than those to port 2049 shown"
  # / opens empty (it is a new filter, not an edit of the old one) ...
  key /
  wait_for 'filter \(.*\): _$'
  # ... and Ctrl-U clears what was typed: one client port, one row
  port=$(tshark -r "$pcap" -T fields -e tcp.srcport -Y 'tcp.dstport == 2049' 2>/dev/null | head -1)
  key -l 'xyz' ; key C-u ; key -l ":$port" ; key Enter
  wait_for "filter: :$port "
  [ "$(rows | wc -l)" = 1 ] && rows | grep -q ":$port " || fail "not the one connection from port $port"
  # Enter on an empty prompt: no filter, every connection again
  key / ; key Enter
  wait_for '^arrows/jk move'
  [ "$(rows | wc -l)" = 19 ] || fail "the filter was not cleared"
  ;;
narrow)
  # 80 columns: nothing is cut silently. seed-000's findings name their
  # connections (findings.json, derived by hand); each row shows its whole
  # list or marks the cut, with an ellipsis on a UTF-8 terminal and "..."
  # on another; the tab bar keeps every view's key and a name to read.
  # Columns are counted in characters (python), not bytes.
  widest() { python3 -c 'import sys; print(max(len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")))' "$work/pane"; }
  lists=$(python3 -c 'import json,sys
for f in json.load(open(sys.argv[1]))["findings"]:
    if not f["kind"].endswith("_STORM"): print(f["kind"], ",".join(f["connections"]))' "$samples/seed-000-nconnect-misbind.findings.json")
  for loc in C.UTF-8 C; do
    mark=$([ $loc = C ] && echo '...' || echo '…')
    envs="LC_ALL=$loc" open seed-000-nconnect-misbind 80 24
    key 3
    wait_for 'severity +kind'
    [ "$(widest)" -le 80 ] || fail "LC_ALL=$loc: a line wider than 80 columns"
    grep -qE '^1 (Sessions|Sess) 2 (Connections|Conns) 3 (Findings|Finds) 4 (Operations|Ops) 5 Slots 6 UDP( 7 [A-Z][a-z]+)?  \? help  q quit' "$work/pane" ||
      fail "LC_ALL=$loc: tab bar not readable: $(sed -n 3p "$work/pane")"
    while read -r kind conns; do
      line=$(rows | grep -E "^[a-z]+ +$kind ") || fail "no row for $kind"
      case $line in
      *" $conns "* | *" $conns" | *"$mark") ;;
      *) fail "LC_ALL=$loc: $kind's connections $conns neither shown whole nor marked cut: '$line'";;
      esac
    done <<< "$lists"
    rows | grep -qF -- "$mark" || fail "LC_ALL=$loc: no cut marked with '$mark'"
    [ $loc = C ] && rows | grep -q '…' && fail "an ellipsis on a terminal that is not UTF-8"
    close
  done
  ;;
firstview)
  # NFSv3 only: the screen opens on Connections (latency and errors per
  # connection), not on an empty Sessions view
  tshark_per_client "$samples/nfsv3-tcp.pcap" > expect
  open nfsv3-tcp 132 40
  snap
  sed -n 4p "$work/pane" | grep -qE '^conn +tr +client +server +calls/s +p99 +errors' ||
    fail "NFSv3: not opened on the connections with p99 and errors"
  check_per_client expect
  # 7 Clients: one row per client address
  key 7
  wait_for '^client +conns'
  clients=$(tshark -r "$samples/nfsv3-tcp.pcap" -Y 'rpc.msgtyp == 0' -T fields -e ip.src 2>/dev/null | sort -u)
  for c in $clients; do
    rows | grep -qE "^$c " || fail "client $c not listed"
    conns=$(tshark -r "$samples/nfsv3-tcp.pcap" -q -z conv,tcp 2>/dev/null | grep -c "^$c:")
    rows | awk -v c="$c" -v n="$conns" '$1 == c && $2 == n {ok=1} END {exit !ok}' || fail "client $c: not $conns connections"
  done
  check_per_client expect
  # views with nothing to show say so, and why
  key 1
  wait_for 'no NFSv4.1 session in this capture'
  key 6
  wait_for 'no RPC over UDP in this capture'
  close
  # NFSv4.1: opens on its sessions; its connections have errors and p99 too
  tshark_per_client "$samples/seed-000-nconnect-misbind.pcap" > expect
  open seed-000-nconnect-misbind 132 40
  snap
  sed -n 4p "$work/pane" | grep -qE '^session +client' || fail "NFSv4.1: not opened on the sessions"
  key 2
  wait_for '^conn +tr +client +server +session +bind +calls/s +p99 +errors'
  check_per_client expect
  close
  # NFSv3 over UDP alone: connections too (UDP flows), and the UDP view has its pairs
  tshark_per_client "$samples/nfsv3-udp-loss5.pcap" > expect
  open nfsv3-udp-loss5 132 40
  snap
  sed -n 4p "$work/pane" | grep -qE '^conn ' || fail "NFSv3 over UDP: not opened on the connections"
  check_per_client expect
  ;;
detail)
  # A session's detail lists its findings and those of its client that
  # name no session (GRACE_STUCK: the client's grace), per seed-000's
  # findings.json (derived by hand)
  json=$samples/seed-000-nconnect-misbind.findings.json
  sid=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sessions"][0]["sessionid"])' "$json")
  kinds=$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1])); s = d["sessions"][0]
for f in d["findings"]:
    if f["session"] == s["sessionid"] or (f["session"] is None and f.get("client") == s["clientid"]): print(f["kind"])' "$json")
  echo "$kinds" | grep -q GRACE_STUCK || fail "findings.json: no client finding to look for"
  open seed-000-nconnect-misbind 132 40
  key 1
  wait_for "^$sid "
  key Enter
  wait_for '^Recent findings'
  for k in $kinds; do
    sed -n '/^Recent findings/,$p' "$work/pane" | grep -qE "^[a-z]+ +$k " || fail "$k not among the session's recent findings"
  done
  sed -n '/^Recent findings/,$p' "$work/pane" | grep -qE '^[a-z]+ +GRACE_STUCK .* client 5eed000000000001' ||
    fail "GRACE_STUCK not marked as the client's"
  ;;
slots)
  # The Slots view: a column per second of packet time. seed-000 spans
  # 135 s; replayed at full speed it takes well under a second of wall
  # time, and its history must still be 135 packet seconds (the 100 the
  # pane has room for), each slot marked exactly in the seconds tshark
  # shows a call on it in flight (from its call to its reply)
  pcap=$samples/seed-000-nconnect-misbind.pcap
  tshark -r "$pcap" -T fields -E separator=/t -e frame.number -e frame.time_epoch -e rpc.msgtyp -e nfs.slotid \
    -e rpc.repframe 2>/dev/null > frames
  open seed-000-nconnect-misbind 132 50
  key 5
  wait_for '^slot +0 '
  python3 - frames "$work/pane" <<'PY' || fail "slot history is not per second of packet time"
import sys, math, collections
frames, pane = sys.argv[1], sys.argv[2]
when, calls = {}, []
for line in open(frames):
    f = line.rstrip("\n").split("\t")
    when[int(f[0])] = float(f[1])
    if f[2] == "0" and f[3]:
        calls.append((int(f[3].split(",")[0]), float(f[1]), int(f[4]) if f[4] else 0))
last = math.floor(max(when.values()))
busy = collections.defaultdict(set)
for slot, t, rep in calls:
    end = math.floor(when.get(rep, t))
    busy[slot].update(range(math.floor(t), end + 1))
rows = [l for l in open(pane, encoding="utf-8") if l.startswith("slot ")]
ok = True
for l in rows:
    parts = l.split()
    slot, hist = int(parts[1]), parts[2]
    width = len(hist)
    want_width = min(100, last - math.floor(min(when.values())) + 1)
    if width != want_width:
        print(f"slot {slot}: {width} columns of history, expected {want_width} (one per packet second)")
        ok = False
        break
    marked = {last - (width - 1 - c) for c, ch in enumerate(hist) if ch in "#+!"}
    want = {s for s in busy[slot] if s > last - width}
    if marked != want:
        print(f"slot {slot}: marked at seconds {sorted(marked)}, tshark has calls in flight at {sorted(want)}")
        ok = False
print(f"checked {len(rows)} slots")
sys.exit(not ok or not rows)
PY
  ;;
rates)
  # Header rates are printed as the rows print theirs: seed-000 (295
  # frames, 116 calls over 135 s) replayed at full speed comes in one
  # interval of packet time; frames/s and calls/s are tshark's counts over
  # the capture's span to 0.1, not "2" and "1" beside a row of 0.9
  pcap=$samples/seed-000-nconnect-misbind.pcap
  read -r frames calls span < <(tshark -r "$pcap" -T fields -e frame.time_epoch -e rpc.msgtyp 2>/dev/null |
    awk 'NR == 1 {a = $1} {b = $1; n++} $2 == "0" {c++} END {printf "%d %d %.6f\n", n, c, b - a}')
  open seed-000-nconnect-misbind 80 24
  key 1
  wait_for '^session '
  for what in frames calls; do
    want=$(awk -v n="${!what}" -v s="$span" 'BEGIN {printf "%.3f", n / s}')
    got=$(grep -oE "$what/s [0-9.]+k?" "$work/pane" | head -1 | awk '{print $2}')
    echo "$got" | grep -qE '^[0-9]+\.[0-9]$' || fail "header $what/s '$got': not to the rows' 0.1 (tshark: $want)"
    awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; exit !(d <= 0.051 && d >= -0.051) }' ||
      fail "header $what/s $got, tshark: $want"
  done
  # a session row: id, conns, slots g/r, out/max, calls/s
  rows | awk '$5 !~ /^[0-9]+\.[0-9]$/ {exit 1}' || fail "a session's calls/s not to 0.1"
  ;;
*)
  echo "unknown mode $mode"; exit 2;;
esac
echo "ok: $mode"
