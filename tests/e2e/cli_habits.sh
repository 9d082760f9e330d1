#!/usr/bin/env bash
# The command line as a tcpdump/tshark user types it (issue 12), one mode
# per item:  cli_habits.sh MODE NFSSCOPE SAMPLES_DIR
#   fail_on   --fail-on: unknown or empty kinds are an error listing the
#             valid ones; kinds match case-insensitively and fire (exit 3)
#   output    -o - is standard output; two outputs naming one file, or an
#             output naming the capture read, are an error
#   habits    -n, -nr bundling, -q/-v, -r twice refused, compressed files
#   memcap    --memcap with K/M/G/T, and the message for a size out of range
#   fragments the live default filter keeps every IP fragment (tshark counts
#             them); 'port 2049' alone does not
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
    run 1 -r "$v3" --fail-on "$k" && err_is "^nfsscope: --fail-on: unknown finding kind '$k'; valid kinds: .*GRACE_STUCK.*SPURIOUS_RETRANSMIT" && ok "--fail-on $k: exit 1, valid kinds listed"
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
  run 0 -r "$v3" -o - && [ ! -e ./- ] && grep -q "^Capture  $v3$" "$T/out" && ok "-o -: report on standard output, no file '-'"
  (cd "$T" && "$N" -r "$v3" -o - >/dev/null) && [ ! -e "$T/-" ] || bad "-o - created a file named -"
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
  done
  ;;
*) echo "unknown mode $MODE"; exit 2 ;;
esac
exit $fail
