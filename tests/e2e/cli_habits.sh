#!/usr/bin/env bash
# The command line as a tcpdump/tshark user types it (issue 12), one mode
# per item:  cli_habits.sh MODE NFSSCOPE SAMPLES_DIR
#   fail_on   --fail-on: unknown or empty kinds are an error listing the
#             valid ones; kinds match case-insensitively and fire (exit 3)
#   output    -o - is standard output; two outputs naming one file, or an
#             output naming the capture read, are an error
#   habits    -n, -nr bundling, -q/-v, -r twice refused, compressed files
#   memcap    --memcap with K/M/G/T, and the message for a size out of range
#   narrow    --client/--server/--session/--clientid/--from/--to: the RPC
#             counts of what matches equal tshark's counts of the same
#             calls; the report states the filter, the window and -c; an
#             empty result says so
#   bpf       a BPF filter on a file keeps the file's frame numbers: the
#             frames of each finding under 'tcp port 51103' are the frames
#             tshark numbers for those replies; -c counts frames that pass;
#             options go before or after the expression (tcpdump's habit);
#             the report names the expression
#   fragments the live default filter keeps every IP fragment (tshark counts
#             them); 'port 2049' alone does not, and the report then warns of
#             datagrams seen as a first fragment only
# Expected values: the seed captures' hand-derived findings
# (samples/seed-*.findings.json), tshark, and the usage rules themselves.
set -u
MODE=$1 N=$(realpath "$2") S=$(realpath "$3")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
ok() { echo "ok: $*"; }
# run WANT_STATUS ARGS...: status, stdout in $T/out, stderr in $T/err
run() {
  local want=$1; shift
  "$N" "$@" >"$T/out" 2>"$T/err"
  local got=$?
  [ "$got" = "$want" ] || { bad "nfsscope $* -> exit $got, want $want: $(head -c 400 "$T/err")"; return 1; }
}
err_is() { grep -Eq -- "$1" "$T/err" && [ "$(wc -l <"$T/err")" = 1 ] || { bad "stderr is not one line matching '$1': $(cat "$T/err")"; return 1; }; }
seed=$S/seed-000-nconnect-misbind.pcap
v3=$S/nfsv3-tcp.pcap
kinds_in_seed=$(python3 -c "import json,sys; print(' '.join(sorted({f['kind'] for f in json.load(open(sys.argv[1]))['findings']})))" "$S/seed-000-nconnect-misbind.findings.json")

case $MODE in
fail_on)
  for k in BOGUS grace_stuk; do
    run 1 -r "$v3" --fail-on "$k" && err_is "^nfsscope: --fail-on: unknown finding kind or severity '$k'; severities .*: info warning error critical; valid kinds: .*GRACE_STUCK.*SPURIOUS_RETRANSMIT" && ok "--fail-on $k: exit 1, severities and valid kinds listed"
  done
  run 1 -r "$v3" --fail-on '' && err_is "^nfsscope: --fail-on: empty finding kind" && ok "--fail-on '': exit 1"
  run 1 -r "$v3" --fail-on 'GRACE_STUCK,' && err_is "^nfsscope: --fail-on: empty finding kind" && ok "--fail-on 'GRACE_STUCK,': exit 1"
  # the seed has GRACE_STUCK (hand-derived findings); lower case and mixed case match
  case " $kinds_in_seed " in *" GRACE_STUCK "*) ;; *) bad "seed findings lack GRACE_STUCK: $kinds_in_seed" ;; esac
  for k in grace_stuck Grace_Stuck GRACE_STUCK "rto_inflated,grace_stuck"; do
    run 3 -r "$seed" --fail-on "$k" && ok "--fail-on $k on the seed: exit 3"
  done
  # a kind that exists but is not in the capture: exit 0
  run 0 -r "$seed" --fail-on rto_inflated && ok "--fail-on rto_inflated (not in the seed): exit 0"
  # every kind the seed has, each alone
  for k in $kinds_in_seed; do run 3 -r "$seed" --fail-on "$k" || bad "--fail-on $k did not fire"; done
  ;;
output)
  # in the scratch directory, so that a file named '-' is created there if at all
  (cd "$T" && "$N" -r "$v3" -o - >"$T/out") && [ ! -e "$T/-" ] && grep -q "^Capture  $v3$" "$T/out" &&
    ok "-o -: report on standard output, no file '-'" || bad "-o -: no report on stdout, or a file named - created"
  run 1 -r "$v3" -o "$T/x" --txn-log "$T/x" && err_is "^nfsscope: -o and --txn-log name the same file \($T/x\)" && ok "-o X --txn-log X: exit 1"
  touch "$T/y"; ln "$T/y" "$T/y2"
  run 1 -r "$v3" -o "$T/y" --txn-log "$T/y2" && err_is "name the same file" && ok "-o and --txn-log on one inode (hard link): exit 1"
  run 1 -r "$v3" -o - --txn-log - && err_is "^nfsscope: -o and --txn-log both write to standard output" && ok "-o - --txn-log -: exit 1"
  cp "$v3" "$T/c.pcap"
  run 1 -r "$T/c.pcap" -o "$T/c.pcap" && err_is "^nfsscope: -o $T/c.pcap would overwrite the capture being read" && cmp -s "$v3" "$T/c.pcap" && ok "-o naming the capture read: exit 1, capture intact"
  # the documented split still works: --txn-log - alone puts the log on stdout, no report
  run 0 -r "$v3" --txn-log - && ! grep -q "^Capture" "$T/out" && [ "$(grep -c '^{"call_frame"' "$T/out")" -gt 0 ] && ok "--txn-log - alone: log on stdout, report left out"
  run 0 -r "$v3" --txn-log "$T/log" -o - && grep -q "^Capture" "$T/out" && [ -s "$T/log" ] && ok "--txn-log FILE -o -: both written"
  ;;
habits)
  run 0 -r "$v3" && cp "$T/out" "$T/plain"
  run 0 -nr "$v3" && cmp -s "$T/out" "$T/plain" && ok "-nr FILE = -r FILE"
  run 0 -n -r "$v3" && cmp -s "$T/out" "$T/plain" && ok "-n -r FILE = -r FILE"
  run 0 -q -r "$v3"
  heads=$(grep -E '^[A-Z]' "$T/out" | awk '{print $1}' | xargs)
  [ "$heads" = "Capture RPC Findings Not" ] && ok "-q: sections $heads" || bad "-q sections: $heads"
  run 0 -vr "$v3"
  grep -Eq '^  operation .* min +p50 +p90 +p95 +p99 +p99\.9 +max$' "$T/out" && ! grep -q "p99.9" "$T/plain" && ok "-v: min, p90 and p99.9 columns" || bad "-v: no extra latency columns"
  run 1 -r "$v3" -q --format json && err_is "^nfsscope: -v and -q change the text report only" && ok "-q --format json: exit 1"
  run 1 -r "$v3" -r "$S/nfsv3-udp.pcap" && err_is "^nfsscope: -r given twice .*mergecap -w - FILES \| nfsscope -r -$" && ok "-r a -r b: refused, mergecap suggested"
  gzip -c "$v3" >"$T/c.pcap.gz"
  run 1 -r "$T/c.pcap.gz" && err_is "^nfsscope: $T/c.pcap.gz: compressed: try zcat $T/c.pcap.gz \| nfsscope -r -$" && ok "gzip file: zcat suggested"
  # the suggestion works
  zcat "$T/c.pcap.gz" | "$N" -r - >"$T/z" && diff <(sed 1d "$T/z") <(sed 1d "$T/plain") >/dev/null && ok "zcat F | nfsscope -r - gives the report"
  run 0 --version && grep -Eq '^nfsscope [0-9]+\.[0-9]+\.[0-9]+$' "$T/out" && ok "--version: $(cat "$T/out")"
  ;;
memcap)
  for m in 1T 1t 64M 1048576 1024K 2G; do run 0 -r "$v3" --memcap "$m" --format json || bad "--memcap $m refused"; done
  ok "--memcap 1T 1t 64M 1048576 1024K 2G accepted"
  run 1 -r "$v3" --memcap 2T && err_is "^nfsscope: --memcap: expected a size from 1M to 1T, got 2T$" && ok "--memcap 2T: range named"
  run 1 -r "$v3" --memcap 1023K && err_is "^nfsscope: --memcap: expected a size from 1M to 1T, got 1023K$" && ok "--memcap 1023K: range named"
  run 1 -r "$v3" --memcap 12Q && err_is "^nfsscope: --memcap: expected a size with K/M/G/T suffix" && ok "--memcap 12Q: suffixes named"
  ;;
narrow)
  js() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($1)" "$T/out"; }
  sid=5eed0000000000010000000100000001
  # tshark: transactions (XIDs) whose call or reply names the session
  want=$(tshark -r "$seed" -Y rpc -T fields -e rpc.xid -e nfs.session_id4 2>/dev/null | python3 -c "
import sys
xs = {l.split('\t')[0] for l in sys.stdin if any(s.replace(':', '').startswith('$sid') for s in l.rstrip('\n').split('\t')[1].split(','))}
print(len(xs))")
  run 0 -r "$seed" --session $sid --format json
  got=$(js "d['rpc']['calls'], d['capture']['filter']['transactions_matched'], len(d['sessions']), d['sessions'][0]['sessionid']")
  [ "$got" = "$want $want 1 $sid" ] && ok "--session: $want calls (tshark: $want transactions name it), one session listed" || bad "--session: '$got', tshark $want"
  run 0 -r "$seed" --session 5eed0000 --format json
  [ "$(js "d['rpc']['calls']")" = "$want" ] && ok "--session with an 8-digit prefix: the same $want calls" || bad "--session prefix: $(js "d['rpc']['calls']")"
  # the client ID: the session's client, plus EXCHANGE_ID (its reply names it)
  run 0 -r "$seed" --clientid 5eed000000000001 --format json
  wantc=$(tshark -r "$seed" -Y rpc -T fields -e rpc.xid -e nfs.session_id4 -e nfs.clientid 2>/dev/null | python3 -c "
import sys
n = set()
for l in sys.stdin:
    f = (l.rstrip('\n').split('\t') + ['', ''])[:3]
    if any(s.replace(':', '').startswith('$sid') for s in f[1].split(',')) or '0x5eed000000000001' in f[2].split(','):
        n.add(f[0])
print(len(n))")
  [ "$(js "d['rpc']['calls']")" = "$wantc" ] && ok "--clientid: $wantc calls (tshark: $wantc)" || bad "--clientid: $(js "d['rpc']['calls']") calls, tshark $wantc"
  # a time window: calls at or after 100 s from the start
  want=$(tshark -r "$seed" -Y "rpc.msgtyp == 0 && frame.time_relative >= 100" 2>/dev/null | wc -l)
  run 0 -r "$seed" --from +100 --format json
  [ "$(js "d['rpc']['calls']")" = "$want" ] && ok "--from +100: $want calls (tshark: $want)" || bad "--from +100: $(js "d['rpc']['calls']"), tshark $want"
  want=$(tshark -r "$seed" -Y 'rpc.msgtyp == 0 && frame.time >= "2025-12-02 10:00:14Z" && frame.time <= "2025-12-02 10:00:20Z"' 2>/dev/null | wc -l)
  for w in "--from 10:00:14 --to 10:00:20" "--from 14 --to +20" "--from 2025-12-02T10:00:14 --to 2025-12-02T10:00:20"; do
    # shellcheck disable=SC2086
    run 0 -r "$seed" $w --format json
    [ "$(js "d['rpc']['calls']")" = "$want" ] && ok "$w: $want calls (tshark: $want)" || bad "$w: $(js "d['rpc']['calls']"), tshark $want"
  done
  run 0 -r "$seed" --from "2025-12-02 10:00:14" --to "2025-12-02 10:00:20.000000" --format json
  [ "$(js "d['rpc']['calls']")" = "$want" ] && ok "--from/--to 'YYYY-MM-DD HH:MM:SS': $want calls" || bad "--from/--to with a space: $(js "d['rpc']['calls']")"
  secs=$("$N" -r "$seed" --from "2025-12-02 10:00:00" --to "2025-12-02 10:00:20" --format json | python3 -c "import json,sys; print(json.load(sys.stdin)['rpc']['calls'])")
  run 0 -r "$seed" --from "2025-12-02 10:00" --to "2025-12-02 10:00:20" --format json
  [ "$(js "d['rpc']['calls']")" = "$secs" ] && ok "--from 'YYYY-MM-DD HH:MM' (no seconds) = HH:MM:00: $secs calls" || bad "--from without seconds: $(js "d['rpc']['calls']"), with :00 $secs"
  # a date alone is its midnight (UTC): the whole capture is before 2026-01-01 and after 2025-12-02
  all=$("$N" -r "$seed" --format json | python3 -c "import json,sys; print(json.load(sys.stdin)['rpc']['calls'])")
  run 0 -r "$seed" --from 2025-12-02 --to 2026-01-01 --format json
  [ "$(js "d['rpc']['calls']")" = "$all" ] && ok "--from 2025-12-02 --to 2026-01-01 (dates): all $all calls" || bad "--to a date: $(js "d['rpc']['calls']") of $all"
  # findings are whole: under a window the report says their figures are the whole capture's
  run 0 -r "$seed" --from 10:00:14 --to +20
  grep -q "^  those overlapping the window; their counts, times and frames are of the whole capture$" "$T/out" &&
    ok "findings under a window: the report says their figures are of the whole capture" || bad "findings under a window: no note"
  # addresses: calls (retransmissions included) to the NFS server's port
  udp=$S/nfsv3-udp-loss5.pcap
  want=$(tshark -r "$udp" -Y "rpc.msgtyp == 0 && ip.dst == 10.77.0.1 && udp.dstport == 2049" 2>/dev/null | wc -l)
  run 0 -r "$udp" --server 10.77.0.1:2049 --client 10.77.0.2 --format json
  got=$(js "d['rpc']['calls'], [p['server'] for p in d['udp_pairs']], [p['program'] for p in d['programs']]")
  [ "$got" = "$want ['10.77.0.1:2049'] []" ] && ok "--server ADDR:PORT --client: $want calls (tshark: $want), one UDP pair, no MOUNT/portmap" || bad "--server: '$got', tshark $want"
  want=$(tshark -r "$udp" -Y "rpc.msgtyp == 0 && mount" 2>/dev/null | wc -l)
  run 0 -r "$udp" --server 10.77.0.1:20048 --format json
  [ "$(js "sum(p['calls'] for p in d['programs'])")" = "$want" ] && ok "--server mountd: $want MOUNT calls in programs[] (tshark: $want)" || bad "--server mountd: $(js "d['programs']"), tshark $want"
  # the text report states filter, window and -c; the rest is the filtered figures
  run 0 -r "$seed" -c 200 --session $sid --from 10:00:14 --to +20
  grep -q "^  frame limit   -c 200$" "$T/out" && grep -q "^  filter        session $sid, from 10:00:14, to +20$" "$T/out" &&
    grep -q "^  window        2025-12-02 10:00:14.000000 UTC .. 2025-12-02 10:00:20.000000 UTC$" "$T/out" &&
    grep -Eq "^  matched       [0-9]+ of [0-9]+ RPC transactions" "$T/out" && ok "text report states -c, the filter and the window" ||
    { bad "text report lacks -c/filter/window lines"; head -12 "$T/out"; }
  # a filter that keeps everything gives the analyzer's own figures: the
  # front end counts matching transactions by the analyzer's rules
  for f in "$S"/*.pcap; do
    "$N" -r "$f" --format json >"$T/all.json" 2>/dev/null
    "$N" -r "$f" --format json --from 0 >"$T/from0.json" 2>/dev/null
    python3 - "$T/all.json" "$T/from0.json" <<'PY' || bad "$(basename "$f"): --from 0 differs from no filter"
import json, sys
a, b = (json.load(open(x)) for x in sys.argv[1:3])
keys = ("rpc", "ops", "status", "programs", "connections", "clients", "sessions", "findings", "udp", "udp_pairs")
bad = [k for k in keys if a[k] != b[k]]
if bad:
    print("differ:", bad)
    sys.exit(1)
PY
  done
  ok "--from 0 (keeps everything) = no filter on every sample: rpc, ops, status, programs, sessions, findings, udp"
  # nothing matches: said, no empty sections
  run 0 -r "$v3" --client 192.0.2.1
  grep -q "^  nothing matches the filter: no report$" "$T/out" && ! grep -q "^RPC$" "$T/out" && ok "empty result: said so, no sections" || bad "empty result: $(cat "$T/out")"
  run 1 -r "$v3" --session zz && err_is "^nfsscope: --session: expected 8 to 32 hex digits" && ok "--session zz: exit 1"
  run 1 -r "$v3" --client 10.1 && err_is "^nfsscope: --client: expected an IPv4 or IPv6 address" && ok "--client 10.1: exit 1"
  run 1 -r "$v3" --from +20 --to +10 && err_is "^nfsscope: --from \+20 is after --to \+10$" && ok "--from after --to: exit 1"
  run 1 -r "$v3" --to yesterday && err_is "^nfsscope: --to: expected seconds" && ok "--to yesterday: exit 1"
  ;;
fragments)
  filter=$("$N" --help | sed -n '/^Live capture without a BPF expression uses:$/{n;s/^  //p}')
  [ -n "$filter" ] || { bad "no default filter in --help"; exit 1; }
  for f in nfsv3-udp.pcap nfsv3-udp-loss.pcap nfsv3-udp-loss5.pcap; do
    # (ICMP errors quote a fragment's header: tshark's field matches them, they are no fragments)
    want=$(tshark -r "$S/$f" -o ip.defragment:FALSE -Y "(ip.flags.mf == 1 or ip.frag_offset > 0) and not icmp" 2>/dev/null | wc -l)
    later=$(tshark -r "$S/$f" -o ip.defragment:FALSE -Y "ip.frag_offset > 0 and not icmp" 2>/dev/null | wc -l)
    got=$("$N" -r "$S/$f" --format json "$filter" | python3 -c "import json,sys; print(json.load(sys.stdin)['not_analysed']['ip_fragments'])")
    narrow=$("$N" -r "$S/$f" --format json port 2049 | python3 -c "import json,sys; print(json.load(sys.stdin)['not_analysed']['ip_fragments'])")
    if [ "$want" -gt 0 ] && [ "$got" = "$want" ] && [ "$later" -gt 0 ] && [ "$narrow" -lt "$want" ]; then
      ok "$f: default filter keeps all $got fragments (tshark $want); 'port 2049' keeps $narrow (loses $later non-first)"
    else bad "$f: default filter $got fragments, tshark $want, port 2049 $narrow"; fi
    # 'port 2049' keeps first fragments only: the report warns, counting the fragmented datagrams (tshark)
    firsts=$(tshark -r "$S/$f" -o ip.defragment:FALSE -Y "ip.flags.mf == 1 and ip.frag_offset == 0 and not icmp" 2>/dev/null | wc -l)
    warned=$("$N" -r "$S/$f" --format json port 2049 | python3 -c "import json,sys; print(json.load(sys.stdin)['not_analysed']['ip_datagrams_first_fragment_only'])")
    "$N" -r "$S/$f" port 2049 >"$T/narrow.txt"
    "$N" -r "$S/$f" "$filter" >"$T/default.txt"
    if [ "$warned" = "$firsts" ] && grep -q "^  WARNING: $firsts IP datagrams arrived as a first fragment only" "$T/narrow.txt" &&
       ! grep -q "first fragment only" "$T/default.txt"; then
      ok "$f with 'port 2049': warns of $firsts datagrams seen as a first fragment only (tshark: $firsts); none with the default filter"
    else bad "$f: first-fragment-only warning: JSON $warned, tshark $firsts: $(grep WARNING "$T/narrow.txt")"; fi
  done
  ;;
bpf)
  # tshark's frame numbers of the refused replies on c1 (NFS4ERR_CONN_NOT_BOUND_TO_SESSION 10055, SEQ_MISORDERED 10063)
  for pair in CONN_NOT_BOUND:10055 SEQ_MISORDERED:10063; do
    kind=${pair%%:*} st=${pair#*:}
    want=$(tshark -n -r "$seed" -Y "tcp.port==51103 && nfs.nfsstat4==$st" -T fields -e frame.number 2>/dev/null | head -8 | tr '\n' ' ' | sed 's/ $//')
    for order in before after; do
      if [ $order = before ]; then run 0 -r "$seed" -n --format json 'tcp port 51103' || continue
      else run 0 -r "$seed" 'tcp port 51103' --format json -n || continue; fi
      got=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(' '.join(str(x) for f in d['findings'] if f['kind']==sys.argv[2] for x in f['frames']))" "$T/out" "$kind")
      filt=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['capture']['bpf_filter'])" "$T/out")
      if [ -n "$want" ] && [ "$got" = "$want" ] && [ "$filt" = "tcp port 51103" ]; then
        ok "$kind under 'tcp port 51103' (options $order the expression): frames $got = tshark's"
      else bad "$kind under 'tcp port 51103' (options $order): frames '$got', tshark '$want', bpf_filter '$filt'"; fi
    done
  done
  run 0 -r "$seed" 'tcp port 51103' -q && grep -q "^  bpf filter    tcp port 51103 (frames keep their numbers in the file)$" "$T/out" &&
    ok "the text report names the filter" || bad "the text report does not name the filter: $(head -8 "$T/out")"
  # -c counts frames that pass the filter: the 10th of them, not the file's 10th
  tenth=$(tshark -n -r "$seed" -Y "tcp.port==51103" -T fields -e frame.number 2>/dev/null | sed -n 10p)
  run 0 -r "$seed" -c 10 --format json 'tcp port 51103' &&
    n=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['capture']['packets'])" "$T/out") &&
    [ "$n" = 10 ] && ok "-c 10 with a filter: 10 frames analysed (the 10th is file frame $tenth)" || bad "-c 10 with a filter: $n frames"
  ;;
*) echo "unknown mode $MODE"; exit 2 ;;
esac
exit $fail
