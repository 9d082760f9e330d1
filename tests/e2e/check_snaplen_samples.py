#!/usr/bin/python3
"""Real snaplen-cut captures: RPC message counts (tests/e2e/snaplen_samples.json).

    check_snaplen_samples.py NFSSCOPE SAMPLES_DIR EXPECTED_JSON [--tshark]

For every capture listed, nfsscope's JSON report must give exactly the
"derived" counts (calls, replies, unmatched calls, orphan replies): the
messages whose record marks the cut capture holds, derived from the full twin
by samples/lab/snaplen_visible.py, never from nfsscope. The file's own
consistency is checked too (matched = calls - unmatched = replies - orphans;
derived >= tshark). With --tshark the "tshark" counts are re-counted from
tshark's dissection of the cut capture (RPC messages, not frames) and must be
the recorded ones. Exit 77 when tshark is missing and --tshark is given.
"""
import json
import os
import shutil
import subprocess
import sys


def tshark_counts(cap):
    out = subprocess.run(["tshark", "-n", "-r", cap, "-Y", "rpc", "-T", "fields", "-e", "rpc.msgtyp"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True).stdout.decode()
    words = out.replace(",", "\n").split()
    return {"calls": words.count("0"), "replies": words.count("1")}


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    use_tshark = "--tshark" in sys.argv
    if len(args) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    nfsscope, samples, expected = args
    if use_tshark and not shutil.which("tshark"):
        print("tshark not installed: skipped")
        return 77
    exp = json.load(open(expected))["captures"]
    bad = 0
    for name, want in sorted(exp.items()):
        d, t = want["derived"], want["tshark"]
        if not (d["calls"] - d["unmatched_calls"] == d["matched"] == d["replies"] - d["orphan_replies"]
                and d["calls"] >= t["calls"] and d["replies"] >= t["replies"]):
            print("%s: the expectation itself is inconsistent: %s" % (name, want))
            bad += 1
        cap = os.path.join(samples, name)
        if use_tshark:
            got = tshark_counts(cap)
            ok = got == t
            print("%s %s: tshark %s, recorded %s" % ("ok  " if ok else "FAIL", name, got, t))
            bad += not ok
            continue
        p = subprocess.run([nfsscope, "-r", cap, "--format", "json"], stdout=subprocess.PIPE)
        if p.returncode != 0:
            print("FAIL %s: nfsscope exit %d" % (name, p.returncode))
            bad += 1
            continue
        rpc = json.loads(p.stdout.decode())["rpc"]
        got = {k: rpc[k] for k in ("calls", "replies", "unmatched_calls", "orphan_replies")}
        want_n = {k: d[k] for k in got}
        ok = got == want_n
        print("%s %s: nfsscope %s, derived %s (tshark %d calls, %d replies)" % (
            "ok  " if ok else "FAIL", name, got, want_n, t["calls"], t["replies"]))
        bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
