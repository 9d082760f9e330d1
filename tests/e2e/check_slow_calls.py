#!/usr/bin/python3
"""Slow calls and calls outstanding when memory runs short (issue 20).

    check_slow_calls.py NFSSCOPE CAPTURE...

For each CAPTURE written by tests/gen/make_slow_captures.py, runs
`NFSSCOPE -r CAPTURE --format json` with the arguments NAME.meta.json's
"slow" names (a small --memcap) and checks, from what the generator wrote:
"rpc" and "evictions" values exactly, "max_us" the maximum latency of an
operation row; with "outstanding_evicted": memory ran short, the calls let
go while waiting are counted as such (evictions.outstanding_calls > 0), none
as unmatched, every one's reply is either a late reply counted in the
latency statistics or (its tombstone gone) an orphan, and some are late
replies."""
import json
import os
import subprocess
import sys


def check(nfsscope, cap):
    with open(os.path.splitext(cap)[0] + ".meta.json") as f:
        want = json.load(f)["slow"]
    p = subprocess.run([nfsscope, "-r", cap, "--format", "json"] + want["args"], capture_output=True, text=True)
    if p.returncode != 0:
        return ["exit %d: %s" % (p.returncode, p.stderr.strip())]
    r = json.loads(p.stdout)
    bad = []
    for sec in ("rpc", "evictions"):
        for k, v in want.get(sec, {}).items():
            if r[sec].get(k) != v:
                bad.append("%s.%s %s, want %s" % (sec, k, r[sec].get(k), v))
    ops = {o["name"]: o for o in r["ops"]}
    for name, v in want.get("max_us", {}).items():
        got = ops.get(name, {}).get("max_us")
        if got != v:
            bad.append("%s max_us %s, want %s" % (name, got, v))
    if want.get("outstanding_evicted"):
        rpc, ev = r["rpc"], r["evictions"]
        evicted, orphans = ev.get("outstanding_calls", 0), rpc["orphan_replies"]
        answered = sum(o["latency_samples"] for o in r["ops"])
        late = answered - (rpc["calls"] - evicted)
        if evicted <= 0:
            bad.append("no call counted as evicted while waiting")
        if late <= 0:
            bad.append("no late reply counted in the latency statistics")
        if late + orphans != evicted:
            bad.append("late replies %d + orphans %d != calls evicted while waiting %d" % (late, orphans, evicted))
    return bad


def main(argv):
    nfsscope, caps = argv[1], argv[2:]
    failed = 0
    for cap in caps:
        bad = check(nfsscope, cap)
        print("%s %s%s" % ("FAIL" if bad else "ok  ", os.path.basename(cap), (": " + "; ".join(bad)) if bad else ""))
        failed += bool(bad)
    return 1 if failed or not caps else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
