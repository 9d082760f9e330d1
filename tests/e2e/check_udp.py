#!/usr/bin/python3
"""Check nfsscope's UDP transport analysis of one capture.

    check_udp.py NFSSCOPE CAPTURE [EXPECTED.udp.json]

1. With EXPECTED (written by tests/gen/make_udp_captures.py from its Linux
   client model): every key of every expected udp[] row must equal nfsscope's
   (ms values to the nanosecond, ratios to 1e-4), the pair's wait_ms too, and
   each expected finding kind must be reported with that count.
2. With tshark (skipped, exit 77, when absent and no EXPECTED is given):
   - the calls tshark marks as retransmissions (rpc.call.dup) are exactly
     the later transmissions nfsscope lists (--txn-log send_frames[1:]),
     and their number is rpc.retransmissions and the sum of udp[].retransmissions;
   - duplicate replies (rpc.reply.dup) = rpc.dup_replies;
   - replies lost to a missing fragment: with -o ip.defragment:FALSE, reply
     headers in first fragments whose datagram (source, IP id) tshark never
     reassembled, whose XID the client then sent again = sum of
     udp[].lost_to_fragments.
Prints what it compared; exits 1 on a mismatch.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile


def run_nfsscope(nfsscope, cap):
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "txn.jsonl")
        out = subprocess.run([nfsscope, "-r", cap, "--format", "json", "--txn-log", log, "-o",
                              os.path.join(tmp, "r.json")], capture_output=True, text=True)
        if out.returncode not in (0, 2):
            sys.exit("nfsscope failed (%d): %s" % (out.returncode, out.stderr))
        with open(os.path.join(tmp, "r.json")) as f:
            rep = json.load(f)
        with open(log) as f:
            txns = [json.loads(line) for line in f]
    return rep, txns


def num_eq(a, b):
    if a is None or b is None:
        return a is None and b is None
    if isinstance(b, str) and isinstance(a, (int, float)):   # exact ms with 6 decimals
        return abs(float(a) - float(b)) < 5e-7
    if isinstance(b, float):
        return abs(float(a) - b) < 1.5e-4
    return a == b


def check_expected(rep, exp, errors):
    rows = {(r["client"], r["server"], r["timer_class"]): r for r in rep.get("udp", [])}
    for e in exp["udp"]:
        key = (e["client"], e["server"], e["timer_class"])
        got = rows.get(key)
        if got is None:
            errors.append("no udp[] row %s" % (key,))
            continue
        for k, v in e.items():
            if k not in got:
                errors.append("%s: key %s missing" % (key, k))
            elif not num_eq(got[k], v):
                errors.append("%s: %s = %r, expected %r" % (key, k, got[k], v))
    print("udp[] rows compared: %d" % len(exp["udp"]))
    pairs = rep.get("udp_pairs", [])
    if "wait_ms" in exp and pairs and not num_eq(pairs[0]["wait_ms"], exp["wait_ms"]):
        errors.append("wait_ms = %r, expected %s" % (pairs[0]["wait_ms"], exp["wait_ms"]))
    found = {}
    for f in rep["findings"]:
        if f["kind"] in ("RTO_INFLATED", "FRAGMENT_LOSS", "SPURIOUS_RETRANSMIT"):
            found[f["kind"]] = found.get(f["kind"], 0) + f["count"]
    want = {k: v for k, v in exp["findings"].items() if not k.startswith("_")}
    if found != want:
        errors.append("UDP findings %r, expected %r" % (found, want))
    print("UDP findings: %r" % found)


def tshark(args):
    out = subprocess.run(["tshark"] + args, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("tshark failed: %s" % out.stderr)
    return [line.split("\t") for line in out.stdout.splitlines() if line.strip()]


def check_tshark(cap, rep, txns, errors):
    # retransmitted calls
    dup_calls = {int(r[0]) for r in tshark(["-r", cap, "-Y", "rpc.msgtyp==0 && rpc.call.dup && !icmp",
                                             "-T", "fields", "-e", "frame.number"])}
    ours = set()
    for t in txns:
        if t["transport"] == "udp":
            ours.update(t.get("send_frames", [])[1:])
    if dup_calls != ours:
        errors.append("resent call frames: tshark only %s, nfsscope only %s"
                      % (sorted(dup_calls - ours)[:10], sorted(ours - dup_calls)[:10]))
    udp_re = sum(r["retransmissions"] for r in rep.get("udp", []))
    if udp_re != len(dup_calls) or rep["rpc"]["retransmissions"] != len(dup_calls):
        errors.append("retransmissions: tshark %d, udp[] %d, rpc %d"
                      % (len(dup_calls), udp_re, rep["rpc"]["retransmissions"]))
    print("retransmitted calls (tshark rpc.call.dup): %d" % len(dup_calls))
    dup_rep = tshark(["-r", cap, "-Y", "rpc.msgtyp==1 && rpc.reply.dup && !icmp", "-T", "fields",
                      "-e", "frame.number"])
    if len(dup_rep) != rep["rpc"]["dup_replies"]:
        errors.append("duplicate replies: tshark %d, nfsscope %d" % (len(dup_rep), rep["rpc"]["dup_replies"]))
    print("duplicate replies (tshark rpc.reply.dup): %d" % len(dup_rep))
    # replies lost to fragments
    heads = tshark(["-r", cap, "-o", "ip.defragment:FALSE", "-Y",
                    "rpc.msgtyp==1 && ip.flags.mf==1 && ip.frag_offset==0 && !icmp",
                    "-T", "fields", "-e", "frame.number", "-e", "ip.src", "-e", "ip.id", "-e", "rpc.xid"])
    whole = {(r[0], r[1]) for r in tshark(["-r", cap, "-Y", "rpc.msgtyp==1 && ip.fragments && !icmp",
                                           "-T", "fields", "-e", "ip.src", "-e", "ip.id"])}
    calls = tshark(["-r", cap, "-Y", "rpc.msgtyp==0 && !icmp", "-T", "fields", "-e", "frame.number",
                    "-e", "rpc.xid"])
    lost = 0
    for frame, src, ipid, xid in heads:
        if (src, ipid) in whole:
            continue
        if any(c[1] == xid and int(c[0]) > int(frame) for c in calls):
            lost += 1
    ours_lost = sum(r["lost_to_fragments"] for r in rep.get("udp", []))
    if lost != ours_lost:
        errors.append("replies lost to fragments: tshark %d, nfsscope %d" % (lost, ours_lost))
    print("replies lost to fragments (tshark, defragment off): %d" % lost)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    nfsscope, cap = argv[1], argv[2]
    exp = None
    if len(argv) > 3:
        with open(argv[3]) as f:
            exp = json.load(f)
    rep, txns = run_nfsscope(nfsscope, cap)
    errors = []
    if exp is not None:
        check_expected(rep, exp, errors)
    if shutil.which("tshark"):
        check_tshark(cap, rep, txns, errors)
    elif exp is None:
        print("tshark not found: skipped")
        return 77
    for e in errors:
        print("FAIL " + e)
    print("%s: %s" % (os.path.basename(cap), "FAIL" if errors else "ok"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
