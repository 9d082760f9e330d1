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
trap 'T kill-server 2>/dev/null; rm -rf "$work"' EXIT
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
# The table's rows: the lines after the column titles (line 4) up to the
# first empty line, the findings' message rule or the footer (last line).
rows() { awk -v last="$(wc -l < "$work/pane")" 'NR > 4 && (/^$/ || /^---/ || NR == last) {exit} NR > 4' "$work/pane"; }

cd "$work"
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
    T kill-session -t s
  done
  ;;
*)
  echo "unknown mode $mode"; exit 2;;
esac
echo "ok: $mode"
