#!/usr/bin/env python3
"""Sessions the server does not know and DEAD_SESSION_USE on generated captures.

    check_dead_sessions.py NFSSCOPE CAPTURE...

For every CAPTURE whose NAME.meta.json has "dead_sessions" (written by
tests/gen/make_edge_captures.py from the frames it wrote), nfsscope's JSON
report must list exactly those sessions (by id) with those values of
never_created, dead, dead_frame, badsession_replies, badsession_frames,
calls_after_dead, calls_after_dead_frames, recovered_frame and connections,
and exactly the findings of "findings" (kind, session, severity, count,
frames, connections), no other.  At least one capture must declare them."""
import json
import os
import subprocess
import sys

KEYS = ("never_created", "dead", "dead_frame", "badsession_replies", "badsession_frames", "calls_after_dead",
        "calls_after_dead_frames", "recovered_frame", "connections")
FKEYS = ("kind", "session", "severity", "count", "frames", "connections")


def main(argv):
    nfsscope, caps = argv[1], argv[2:]
    checked, errs = 0, []
    for cap in caps:
        with open(os.path.splitext(cap)[0] + ".meta.json") as f:
            meta = json.load(f)
        if "dead_sessions" not in meta:
            continue
        checked += 1
        out = subprocess.run([nfsscope, "-r", cap, "--format", "json"], capture_output=True, text=True)
        rep = json.loads(out.stdout)
        name = os.path.basename(cap)
        got = {s["sessionid"]: s for s in rep["sessions"]}
        want = {s["sessionid"]: s for s in meta["dead_sessions"]}
        if sorted(got) != sorted(want):
            errs.append("%s: sessions %s, expected %s" % (name, sorted(got), sorted(want)))
        for sid, w in sorted(want.items()):
            g = got.get(sid, {})
            for k in KEYS:
                if g.get(k) != w[k]:
                    errs.append("%s: session %s: %s is %s, expected %s" % (name, sid, k, g.get(k), w[k]))
        gf = sorted((tuple(json.dumps(f.get(k)) for k in FKEYS) for f in rep["findings"]))
        wf = sorted((tuple(json.dumps(f[k]) for k in FKEYS) for f in meta["findings"]))
        if gf != wf:
            errs.append("%s: findings\n    got      %s\n    expected %s" % (name, gf, wf))
        if not errs:
            print("ok   %s: %d sessions, %d findings" % (name, len(want), len(wf)))
    for e in errs:
        print("FAIL " + e)
    if not checked:
        print("no capture declares dead_sessions")
        return 1
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
