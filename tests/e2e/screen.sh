#!/usr/bin/env bash
# The live screen as a person sees it: nfsscope -r SAMPLE --tui --speed max
# in a tmux pane (own socket), read back with capture-pane, polled with a
# deadline. Expected values come from tshark and the hand-derived
# SAMPLE.findings.json, never from nfsscope itself.
#   screen.sh NFSSCOPE SAMPLES_DIR MAIN_C SAMPLE TERM          views, resize, q
#   screen.sh NFSSCOPE SAMPLES_DIR MAIN_C SAMPLE TERM sigterm  SIGTERM restores the terminal and prints the report
# Exit 77 (skipped) when tmux or tshark is missing or main.c does not yet
# send --tui to run_screen.
set -u
bin=$1 samples=$2 mainc=$3 sample=$4 term=$5 mode=${6:-views}
pcap=$samples/$sample.pcap
grep -q 'run_screen(' "$mainc" || { echo "SKIP: $mainc does not call run_screen yet"; exit 77; }
command -v tmux >/dev/null || { echo "SKIP: no tmux"; exit 77; }
command -v tshark >/dev/null || { echo "SKIP: no tshark"; exit 77; }
work=$(mktemp -d)
sock=nfsscope-screen-$$
T() { tmux -L "$sock" "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL ($sample, TERM=$term): $*"; echo "--- pane:"; cat "$work/pane" 2>/dev/null; exit 1; }

# Poll the pane until the extended regex matches (deadline in seconds).
wait_for() {
  local pat=$1 end=$((SECONDS + ${2:-20}))
  while :; do
    T capture-pane -p -t s > "$work/pane"
    grep -qE -- "$pat" "$work/pane" && return 0
    [ "$SECONDS" -ge "$end" ] && fail "no '$pat' on the screen"
    sleep 0.1
  done
}
wait_file() {
  local end=$((SECONDS + 20))
  until [ -s "$1" ]; do [ "$SECONDS" -ge "$end" ] && { T capture-pane -p -t s > "$work/pane"; fail "$1 never written"; }; sleep 0.1; done
}
key() { T send-keys -t s "$@"; }
# Any line wider than 80 characters (not bytes: a cut is marked with a UTF-8 ellipsis)?
too_wide() { python3 -c 'import sys; sys.exit(not any(len(l.rstrip("\n")) > 80 for l in open(sys.argv[1], encoding="utf-8")))' "$work/pane"; }

speed=max
[ "$mode" = sigterm ] && speed=1 # paced: still running when the signal comes
# read it from a path longer than the pane is wide (a CI checkout lives
# deep): the header must shorten the path, not the state after it
deep=$work/$(printf 'incident-%02d/' $(seq 1 16))
mkdir -p "$deep" && ln -s "$pcap" "$deep/$sample.pcap" && pcap=$deep/$sample.pcap
cd "$work"
if [ "$mode" = hangup ]; then
  # the terminal goes away under a running screen (ssh dropped): nfsscope
  # must end by itself with its report in the -o file, not spin or hang
  T new-session -d -s s -x 132 -y 40 "env TERM=$term \"$bin\" -r \"$pcap\" --tui --speed 1 -o \"$work/report.txt\""
  wait_for '1 Sessions'
  T kill-server
  end=$((SECONDS + 20))
  until grep -qE 'calls [0-9]+  replies [0-9]+' "$work/report.txt" 2>/dev/null; do
    [ "$SECONDS" -ge "$end" ] && fail "no report in the -o file after the terminal went away"
    sleep 0.1
  done
  for _ in $(seq 50); do pgrep -f -- "-o $work/report.txt" >/dev/null || break; sleep 0.1; done
  pgrep -f -- "-o $work/report.txt" >/dev/null && fail "nfsscope still running after its terminal went away"
  echo "ok: $sample TERM=$term hangup"
  exit 0
fi
if [ "$mode" = loss ]; then
  # frames missing from the capture: the header says so, with tshark's
  # count of gaps (frames after a segment not captured); the intact sample
  # (no gap, no IP fragment per tshark) reads "not analysed: nothing"
  lost=$work/$sample-drop.pcap
  editcap "$pcap" "$lost" $(seq 76 150 2000) >"$work/editcap.log" 2>&1 || fail "editcap: $(cat "$work/editcap.log")"
  gaps=$(tshark -r "$lost" -Y tcp.analysis.lost_segment 2>/dev/null | wc -l)
  [ "$gaps" -gt 0 ] || fail "no gap made in $sample"
  clean=$(tshark -r "$pcap" -Y 'tcp.analysis.lost_segment or ip.flags.mf == 1 or ip.frag_offset > 0' 2>/dev/null | wc -l)
  T new-session -d -s keep "sleep 600" # the server outlives kill-session: no race with the next new-session
  for f in "$pcap" "$lost"; do
    T new-session -d -s s -x 132 -y 40 "env TERM=$term \"$bin\" -r \"$f\" --tui --speed max; exec sleep 600"
    wait_for 'end of capture'
    if [ "$f" = "$lost" ]; then
      wait_for "not analysed: .*gaps $gaps([^0-9]|\$)"
      T resize-window -t s -x 80 -y 24
      wait_for '^1 Sess.*q quit'
      too_wide && fail "a line longer than 80 columns"
      grep -qE "lost: gaps $gaps( |\$)" "$work/pane" || fail "'lost: gaps $gaps' not readable at 80x24"
    elif [ "$clean" = 0 ]; then
      wait_for 'not analysed: nothing'
    fi
    key q # quit before the session goes (see screen_reading.sh: ASan's exit check can spin orphaned)
    for _ in $(seq 200); do [ "$(T display -p -t s '#{pane_current_command}')" = sleep ] && break; sleep 0.1; done
    T kill-session -t s
  done
  echo "ok: $sample TERM=$term loss (gaps $gaps)"
  exit 0
fi
T new-session -d -s s -x 132 -y 40 \
  "env TERM=$term sh -c 'stty -g > before; \"$bin\" -r \"$pcap\" --tui --speed $speed; echo \$? > rc; stty -g > after; echo nfsscope exited \$(cat rc); exec sleep 600'"

if [ "$mode" = sigterm ]; then
  wait_for '1 Sessions'
  pid=$(pgrep -P "$(T display -p -t s '#{pane_pid}')" -x nfsscope | head -1) # the pane's sh runs it
  [ -n "$pid" ] || fail "nfsscope's pid not found"
  kill -TERM "$pid"
  wait_file rc
  [ "$(cat rc)" = 0 ] || fail "exit status $(cat rc), expected 0 (SIGTERM ends the capture with its report)"
  wait_for 'calls [0-9]+  replies [0-9]+' # the report of what was read, on the restored terminal
else
  wait_for 'end of capture'
  # 1 Sessions: every session id tshark sees
  sids=$(tshark -r "$pcap" -T fields -e nfs.session_id4 2>/dev/null | tr ',' '\n' | grep -E '^[0-9a-f]{32}$' | sort -u)
  for sid in $sids; do wait_for "$sid"; done
  # 3 Findings: every kind the hand-derived expectations list (storms fold into their kind)
  if [ -f "$samples/$sample.findings.json" ]; then
    key 3
    wait_for 'severity +kind'
    for k in $(grep -oE '"kind": *"[A-Z_]+"' "$samples/$sample.findings.json" | grep -oE '[A-Z_]+"$' | tr -d '"' | sed 's/_STORM$//' | sort -u); do
      wait_for " $k "
    done
  fi
  # 6 UDP: each client/server pair of NFS calls, with an RTO
  pairs=$(tshark -r "$pcap" -T fields -e ip.src -e ip.dst -e udp.dstport -Y 'rpc.msgtyp == 0 && nfs && udp' 2>/dev/null | sort -u)
  if [ -n "$pairs" ]; then
    key 6
    wait_for 'client +server +class'
    while read -r cl sv port; do
      wait_for "^$cl +$sv:$port "
      awk -v c="$cl" -v s="$sv:$port" '$1 == c && $2 == s && $6 ~ /^[0-9.]+(us|ms|s)$/ {ok=1} END {exit !ok}' "$work/pane" ||
        fail "no RTO for $cl -> $sv:$port"
    done <<< "$pairs"
  fi
  # 80x24: header, tabs with their keys and the active view still readable
  key 1
  wait_for 'session +client|session +.*slots g/r'
  T resize-window -t s -x 80 -y 24
  wait_for '^1 Sess.*q quit'
  [ "$(wc -l < "$work/pane")" -le 24 ] || fail "more than 24 lines"
  too_wide && fail "a line longer than 80 columns"
  for want in "^nfsscope ${sample:0:12}" 'end of capture' 'crit [0-9]+ +err [0-9]+ +warn [0-9]+ +info [0-9]+' 'frames/s' 'sessions [0-9]' '1 Sess' '6 UDP' '\? help' 'q quit' 'slots g/r' 'calls/s' 'p99'; do
    grep -qE -- "$want" "$work/pane" || fail "'$want' not readable at 80x24"
  done
  for sid in $sids; do grep -q "${sid:0:20}" "$work/pane" || fail "session ${sid:0:20} not readable at 80x24"; done
  key q
  wait_file rc
  [ "$(cat rc)" = 0 ] || fail "exit status $(cat rc) after q"
fi
# the terminal is given back: same tty modes, main screen, the shell's output visible
wait_file after
cmp -s before after || fail "tty modes not restored ($(cat before) -> $(cat after))"
[ "$(T display -p -t s '#{alternate_on}')" = 0 ] || fail "still on the alternate screen"
wait_for "nfsscope exited $(cat rc)"
echo "ok: $sample TERM=$term $mode"
