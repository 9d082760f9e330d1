#!/usr/bin/env bash
# --html with the live screen (issue 13): the screen takes the analyzer's
# events and passes them on to the page's series, so replaying a sample with
# --tui --speed max and quitting with q at the end writes the same page, byte
# for byte, as the batch run. Usage: html_screen.sh NFSSCOPE SAMPLE.pcap
# Exit 77 without tmux (scripts/deps.sh installs it).
set -u
N=$1 S=$2
command -v tmux >/dev/null || { echo "SKIP: no tmux"; exit 77; }
T=$(mktemp -d)
SOCK=nfsscope-html-$$
trap 'tmux -L "$SOCK" kill-server 2>/dev/null; rm -rf "$T"' EXIT
"$N" -r "$S" --html "$T/batch.html" -o /dev/null || { echo "FAIL: batch run"; exit 1; }
tmux -L "$SOCK" new-session -d -s s -x 132 -y 40 \
  "'$N' -r '$S' --tui --speed max --html '$T/screen.html' -o '$T/report.txt'; echo \$? > '$T/rc'"
for _ in $(seq 100); do
  tmux -L "$SOCK" capture-pane -p -t s 2>/dev/null | grep -q "end of capture" && break
  sleep 0.1
done
tmux -L "$SOCK" capture-pane -p -t s | grep -q "end of capture" || { echo "FAIL: the screen never showed the end of capture"; exit 1; }
tmux -L "$SOCK" send-keys -t s q
for _ in $(seq 100); do [ -s "$T/rc" ] && break; sleep 0.1; done
[ "$(cat "$T/rc" 2>/dev/null)" = 0 ] || { echo "FAIL: nfsscope --tui exit $(cat "$T/rc" 2>/dev/null)"; exit 1; }
grep -q '<path class="series outstanding"' "$T/screen.html" || { echo "FAIL: no session chart drawn via the screen"; exit 1; }
cmp "$T/batch.html" "$T/screen.html" || { echo "FAIL: the page via the screen differs from the batch page"; exit 1; }
echo "PASS: the page via --tui is the batch page ($(wc -c < "$T/screen.html") bytes)"
