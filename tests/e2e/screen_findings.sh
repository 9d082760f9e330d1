#!/usr/bin/env bash
# The screen's Findings view with many findings (issue 23: "info findings
# drown the rest"): nfsscope -r fold-many-sessions.pcap --tui in a tmux pane
# (own socket), keys sent, the pane read back with capture-pane. Expected
# rows come from fold-many-sessions.findings.json, which the generator
# derived from what it wrote (tests/gen/make_fold_captures.py), never from
# nfsscope.
#   screen_findings.sh NFSSCOPE DIR
# Checks:
#   * more than 3 findings of a kind and severity are one row ("N findings
#     folded"), its count the sum of theirs; fewer are a row each;
#   * f: a row per finding, every session id on screen; f again folds;
#   * m cycles the minimum severity (warning, error, critical, info): only
#     those rows, the footer says "m: SEV and worse (N hidden)", and with
#     nothing left the view says how many less severe findings there are;
#   * --min-severity warning opens the view at warning.
# Exit 77 (skipped) without tmux.
set -u
bin=$1 dir=$2
command -v tmux >/dev/null || { echo "SKIP: no tmux"; exit 77; }
cap=$dir/fold-many-sessions.pcap exp=$dir/fold-many-sessions.findings.json
[ -f "$cap" ] && [ -f "$exp" ] || { echo "FAIL: no $cap or $exp"; exit 1; }
work=$(mktemp -d)
sock=nfsscope-findings-$$
T() { tmux -L "$sock" "$@"; }
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
fail() { echo "FAIL: $*"; echo "--- pane:"; cat "$work/pane" 2>/dev/null; exit 1; }
snap() { T capture-pane -p -t s > "$work/pane"; }
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
# The table's rows: after the column titles (line 4) up to the first empty
# line or the message rule.
rows() { awk 'NR > 4 && (/^$/ || /^---/) {exit} NR > 4' "$work/pane"; }

# What the rows must be at minimum severity $1, folded ($2 = fold) or not:
# "severity kind count where-or-folded" per row, sorted (the screen's order
# is newest first; the comparison is of the set of rows).
expected() {
  python3 - "$exp" "$1" "$2" <<'EOF'
import json, sys
rank = {"info": 0, "warning": 1, "error": 2, "critical": 3}
fs = [f for f in json.load(open(sys.argv[1]))["findings"] if rank[f["severity"]] >= rank[sys.argv[2]]]
groups = {}
for f in fs:
    groups.setdefault((f["severity"], f["kind"]), []).append(f)
out = []
for (sev, kind), g in groups.items():
    if sys.argv[3] == "fold" and len(g) > 3:
        out.append("%s %s %d %d findings folded (f: a row each)" % (sev, kind, sum(f["count"] for f in g), len(g)))
    else:
        out += ["%s %s %d %s %s" % (sev, kind, f["count"], ",".join(f["connections"]), f["session"]) for f in g]
print("\n".join(sorted(out)))
print("HIDDEN %d" % (len(json.load(open(sys.argv[1]))["findings"]) - len(fs)))
EOF
}
# The rows on screen in the same form (the new and storm columns are empty here).
on_screen() {
  rows | sed -E 's/^(\S+) +(\S+) +([0-9]+) +[0-9:.]+ +/\1 \2 \3 /' | sort
}
check_rows() { # MINSEV fold|each
  expected "$1" "$2" > "$work/want"
  grep -v '^HIDDEN' "$work/want" > "$work/want_rows"
  hidden=$(sed -n 's/^HIDDEN //p' "$work/want")
  on_screen > "$work/got"
  diff -u "$work/want_rows" "$work/got" > "$work/diff" || { cat "$work/diff"; fail "rows at $1 ($2) differ"; }
  if [ "$hidden" -gt 0 ]; then
    grep -qF "m: $1 and worse ($hidden hidden)" "$work/pane" || fail "footer does not say 'm: $1 and worse ($hidden hidden)'"
  else
    grep -qF "m: $1 and worse  f:" "$work/pane" || fail "footer does not say 'm: $1 and worse'"
  fi
  echo "ok: $(wc -l < "$work/got") rows at $1 and worse ($2), $hidden hidden"
}

cd "$work"
T new-session -d -s keep "sleep 600"
# tall enough for a row per finding (47) with the message below
T new-session -d -s s -x 132 -y 64 \
  "env TERM=xterm-256color LANG=C.UTF-8 \"$bin\" -r \"$cap\" --tui --speed max; exec sleep 600"
wait_for 'end of capture'
key 3
wait_for 'severity +kind'
check_rows info fold
key f
wait_for 'f: fold'
check_rows info each
key f
wait_for 'f: unfold'
for sev in warning error; do
  key m
  wait_for "m: $sev and worse"
  check_rows $sev fold
done
key m
wait_for "m: critical and worse"
all=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$exp")
grep -qF "(no finding at critical or worse; $all less severe: m shows more)" "$work/pane" ||
  fail "an empty view at critical does not say '$all less severe'"
echo "ok: critical: the view says $all less severe findings"
key m
wait_for "m: info and worse  f:"
check_rows info fold
close

# --min-severity opens the view there
T new-session -d -s s -x 132 -y 64 \
  "env TERM=xterm-256color LANG=C.UTF-8 \"$bin\" -r \"$cap\" --tui --speed max --min-severity warning; exec sleep 600"
wait_for 'end of capture'
key 3
wait_for 'severity +kind'
check_rows warning fold
echo "PASS"
