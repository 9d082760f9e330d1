#!/usr/bin/env python3
"""Bounded labels (issue 13): sessions beyond METRICS_SESSIONS (16) are summed
under session="other" in --metrics-file.

Usage: metrics_fold.py NFSSCOPE OUT_DIR

Builds, with the seed generator (tests/gen), a capture of 20 NFSv4.1 clients
that each open one session (CREATE_SESSION asks 64 slots, session i is
granted 2 + i), one after the other. By hand: the 16 most recently active
sessions (4..19) keep their own label with their own figures; sessions 0..3
are folded: granted 2+3+4+5 = 14, requested 4 x 64 = 256, outstanding 0;
nfsscope_sessions is 20. promtool check metrics passes (77 without promtool).
"""
import os
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gen"))
import make_seed_captures as seeds  # noqa: E402
from seed_lib import Run  # noqa: E402
from rpcbuild import SP4_NONE  # noqa: E402

N = 20


def main():
    nfsscope, out = sys.argv[1:3]
    if not shutil.which("promtool"):
        print("SKIP: promtool not installed (scripts/deps.sh installs the prometheus package)")
        return 77
    os.makedirs(out, exist_ok=True)
    run = Run()
    sids = []
    for i in range(N):
        sid = bytes.fromhex("5eed0000000000130000000100%06x" % i)
        sids.append(sid.hex())
        rt = run.connect(52000 + i, (0x10000000 + i * 0x100000, 0x20000000 + i * 0x100000))
        run.later(0.001)
        seeds.mount(run, rt, rt, b"fold-client-%d" % i, 0x5eed001300000000 + i, sid, SP4_NONE, 64, 2 + i)
        run.later(0.01)
    run.exp.write(out, "metrics-fold")
    prom = os.path.join(out, "metrics-fold.prom")
    r = subprocess.run([nfsscope, "-r", os.path.join(out, "metrics-fold.pcap"), "-o", os.devnull,
                        "--metrics-file", prom], capture_output=True, text=True)
    if r.returncode != 0:
        print("FAIL: nfsscope exit %d: %s" % (r.returncode, r.stderr))
        return 1
    text = open(prom).read()
    r = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True, text=True)
    if r.returncode != 0:
        print("FAIL: promtool: " + r.stdout + r.stderr)
        return 1

    def get(name, session):
        m = re.search(r'^%s\{session="%s"\} (\S+)$' % (name, session), text, re.M)
        return float(m.group(1)) if m else None

    want = {}
    for i in range(4, N):
        want[sids[i]] = (2 + i, 64, 0)
    want["other"] = (14, 256, 0)
    bad = []
    for s, (g, q, o) in want.items():
        got = (get("nfsscope_session_fore_slots_granted", s), get("nfsscope_session_fore_slots_requested", s),
               get("nfsscope_session_outstanding", s))
        if got != (g, q, o):
            bad.append("%s: granted/requested/outstanding %s, expected %s" % (s, got, (g, q, o)))
    labels = set(re.findall(r'^nfsscope_session_fore_slots_granted\{session="([^"]+)"\}', text, re.M))
    if labels != set(want):
        bad.append("session labels %d, expected the 16 newest and other" % len(labels))
    if not re.search(r"^nfsscope_sessions 20$", text, re.M):
        bad.append("nfsscope_sessions is not 20")
    if bad:
        print("FAIL:\n  " + "\n  ".join(bad))
        return 1
    print("PASS: 20 sessions: 16 labelled, 4 folded into other (granted 14, requested 256)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
