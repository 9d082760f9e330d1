#!/usr/bin/python3
"""The plugin as a tshark user reads it (issue 23), on one capture with
SEQ_MISORDERED findings (the thread-000 sample):

    check_plugin_reading.py NFSSCOPE PLUGIN_SO CAPTURE [--preload LIB]

  verdict   a reply that refused its call as misordered says so: its summary
            line reads "(misordered)", nfsscope.slot.verdict is
            "misordered" and no "Expected sequence ID" contradicts it
            (single pass and -2); the call it amends names it
  expert    `tshark -q -z expert` without -2 prints one row per finding
            (the expert text does not carry a running count)
  stats     -z nfsscope,findings and -z nfsscope,sessions start with a rule
            and a title, as tshark's own statistics
Exit 0 all match, 1 a difference (printed), 2 a tool failed, 77 no tshark.
"""
import json
import re
import shutil
import subprocess
import sys

from tshark_user import Tshark, take_preload

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def frames_text(out):
    """Frame number -> its lines of `tshark -O nfsscope` output."""
    frames, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"Frame (\d+): ", line)
        if m:
            cur = frames.setdefault(int(m.group(1)), [])
        elif cur is not None:
            cur.append(line)
    return frames


def check_verdicts(ts, report):
    misordered = next((f for f in report["findings"] if f["kind"] == "SEQ_MISORDERED"), None)
    if not misordered:
        fail("the capture has no SEQ_MISORDERED finding")
        return
    replies = misordered["frames"]
    flt = " || ".join("frame.number == %d" % n for n in replies)
    for label, extra in (("single pass", []), ("-2", ["-2"])):
        shown = frames_text(ts.run(["-r", ts.capture, "-Y", flt, "-O", "nfsscope"] + extra))
        for n in replies:
            lines = shown.get(n, [])
            top = next((l for l in lines if l.startswith("[nfsscope NFS analysis")), "")
            if "reply" not in top:
                continue  # the finding lists replies; anything else is not this check's
            if "(misordered)" not in top:
                fail("%s: frame %d's summary does not say misordered: %r" % (label, n, top))
            if not any(l.strip() == "[Slot verdict: misordered]" for l in lines):
                fail("%s: frame %d: slot verdict is not misordered: %r" %
                     (label, n, [l.strip() for l in lines if "verdict" in l]))
            exp = [l.strip() for l in lines if "Expected sequence ID" in l]
            if exp:
                fail("%s: frame %d refused as misordered still shows %s" % (label, n, exp))
        if label == "single pass":
            top16 = next((l for l in shown.get(replies[0], []) if l.startswith("[nfsscope")), "")
            print("frame %d: %s" % (replies[0], top16))
    # the calls amended misordered name the replies that show it
    out = ts.run(["-r", ts.capture, "-2", "-Y", 'nfsscope.amend == "misordered"', "-T", "fields",
                  "-e", "frame.number", "-e", "nfsscope.amend.by"])
    by = [int(l.split("\t")[1]) for l in out.splitlines() if l]
    if not set(replies) <= set(by):
        fail("calls amended misordered name %s, the finding lists %s" % (sorted(by), replies))


def check_expert(ts, report):
    out = ts.run(["-r", ts.capture, "-q", "-z", "expert"])
    rows = {}
    for line in out.splitlines():
        m = re.match(r"\s*(\d+)\s+\S+\s+nfsscope\s+([A-Z_]+): (.*)$", line)
        if m:
            rows.setdefault(m.group(2), []).append(line.strip())
    want = {}
    for f in report["findings"]:
        if f["frames"]:
            want[f["kind"]] = want.get(f["kind"], 0) + 1
    for kind, n in sorted(want.items()):
        got = len(rows.get(kind, []))
        if got != n:
            fail("tshark -q -z expert: %d rows for %s, %d finding(s): %s" % (got, kind, n, rows.get(kind, [])[:3]))
    print("tshark -q -z expert: %d nfsscope rows for %d findings" % (sum(len(v) for v in rows.values()),
                                                                      sum(want.values())))


def check_stats(ts):
    for stat, title in (("findings", "nfsscope findings"), ("sessions", "nfsscope sessions")):
        out = ts.run(["-r", ts.capture, "-q", "-z", "nfsscope," + stat])
        lines = out.split("\n")
        if len(lines) < 3 or not lines[0].startswith("=====") or not lines[1].startswith(title):
            fail("-z nfsscope,%s starts %r, want a rule, then '%s...'" % (stat, lines[:3], title))
        elif not lines[2].strip():
            fail("-z nfsscope,%s: a blank line under the title: %r" % (stat, lines[:3]))
        else:
            print("-z nfsscope,%s: %r" % (stat, lines[:3]))


def main():
    args = sys.argv[1:]
    preload = take_preload(args)
    if len(args) != 3:
        print(__doc__)
        return 2
    nfsscope, plugin_so, capture = args
    if not shutil.which("tshark"):
        print("no tshark")
        return 77
    rep = subprocess.run([nfsscope, "-r", capture, "--format", "json"], capture_output=True, text=True)
    if rep.returncode not in (0, 3) or not rep.stdout:
        print("nfsscope failed: " + rep.stderr)
        return 2
    report = json.loads(rep.stdout)
    ts = Tshark(plugin_so, capture, preload)
    try:
        check_verdicts(ts, report)
        check_expert(ts, report)
        check_stats(ts)
    finally:
        ts.close()
    print("ok" if not failures else "%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
