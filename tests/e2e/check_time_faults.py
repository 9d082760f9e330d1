#!/usr/bin/env python3
"""Bad timestamps in generated captures (issue 20): latencies and span.

    check_time_faults.py NFSSCOPE CAPTURE...

For every CAPTURE whose NAME.meta.json has "time" (written by
tests/gen/make_frame_captures.py from what the generator wrote):
  - each transaction's latency_us in `nfsscope --txn-log -` equals the one of
    the same transaction (conn, xid) in the reference capture
    ("same_latency_as", the same traffic with good timestamps), except a
    transaction whose call or reply frame is in "tolerant_frames" (a frame
    with a bad timestamp, or right after a real jump of the clock, analysed
    at the clock's time): within 1 ms, and never negative;
  - the report's span (capture.duration_s) is "span_us" within 1 ms: an
    outlier does not stretch it, a real jump does.
Captures without "time" are skipped; at least one must have it."""
import json
import os
import subprocess
import sys

TOLERANCE_US = 1000


def txn_latencies(nfsscope, cap):
    out = subprocess.run([nfsscope, "-r", cap, "--txn-log", "-"], capture_output=True, text=True, check=True)
    lat = {}
    for line in out.stdout.splitlines():
        t = json.loads(line)
        lat[(t["conn"], t["xid"])] = (t["latency_us"], t["call_frame"], t["reply_frame"])
    return lat


def span_us(nfsscope, cap):
    out = subprocess.run([nfsscope, "-r", cap, "--format", "json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["capture"]["duration_s"] * 1e6


def check(nfsscope, cap, tm):
    errs = []
    ref = os.path.join(os.path.dirname(cap), tm["same_latency_as"] + ".pcap")
    want, got = txn_latencies(nfsscope, ref), txn_latencies(nfsscope, cap)
    tolerant = set(tm["tolerant_frames"])
    if set(want) != set(got):
        errs.append("transactions differ from %s: %d vs %d" % (tm["same_latency_as"], len(got), len(want)))
    for k in sorted(set(want) & set(got)):
        w, g = want[k][0], got[k][0]
        if w is None or g is None:
            if w != g:
                errs.append("%s xid 0x%08x: latency %s, reference %s" % (k[0], k[1], g, w))
            continue
        loose = got[k][1] in tolerant or got[k][2] in tolerant
        if g < 0 or (g != w and not loose) or abs(g - w) > TOLERANCE_US:
            errs.append("%s xid 0x%08x (frames %s/%s): latency %d us, reference %d us"
                        % (k[0], k[1], got[k][1], got[k][2], g, w))
    s = span_us(nfsscope, cap)
    if abs(s - tm["span_us"]) > TOLERANCE_US:
        errs.append("span %.0f us, want %d us" % (s, tm["span_us"]))
    return errs


def main(argv):
    nfsscope, caps = argv[1], argv[2:]
    checked, bad = 0, 0
    for cap in caps:
        with open(os.path.splitext(cap)[0] + ".meta.json") as f:
            tm = json.load(f).get("time")
        if not tm:
            continue
        checked += 1
        errs = check(nfsscope, cap, tm)
        print("%s %s" % ("FAIL" if errs else "ok  ", os.path.basename(cap)))
        for e in errs[:20]:
            print("  " + e)
        if len(errs) > 20:
            print("  ... %d more" % (len(errs) - 20))
        bad += bool(errs)
    if not checked:
        print("no capture declares time checks")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
