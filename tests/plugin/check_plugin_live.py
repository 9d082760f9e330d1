#!/usr/bin/python3
"""The plugin on a live capture: tshark capturing from a pipe (`-i -`, through
dumpcap, frames arriving as they are written) prints, frame by frame and in
-z nfsscope,findings / sessions, exactly what it prints reading the same
capture as a file (`-r`, single pass): frames arrive in order in both.

    check_plugin_live.py PLUGIN_SO CAPTURE [--preload LIB]
Exit 0 same, 1 different, 2 a tool failed, 77 no tshark.
"""
import shutil
import subprocess
import sys

from tshark_user import Tshark, take_preload

FIELDS = ["frame.number", "nfsscope.conn", "nfsscope.txn", "nfsscope.event", "nfsscope.session",
          "nfsscope.slot", "nfsscope.slot.seqid", "nfsscope.slot.verdict", "nfsscope.udp.sends",
          "nfsscope.udp.rtt", "nfsscope.finding", "nfsscope.finding.count"]


def main():
    a = sys.argv[1:]
    preload = take_preload(a)
    if len(a) != 2:
        print(__doc__)
        return 2
    if not shutil.which("tshark"):
        return 77
    so, cap = a
    ts = Tshark(so, cap, preload)
    try:
        common = ["-T", "fields", "-z", "nfsscope,findings", "-z", "nfsscope,sessions"]
        for f in FIELDS:
            common += ["-e", f]
        from_file = ts.run(["-r", ts.capture] + common)
        with open(cap, "rb") as f:
            p = subprocess.run(ts.prefix + ts.env + ["tshark", "-i", "-"] + common, stdin=f,
                               capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            print("tshark -i - failed: " + p.stderr[-2000:])
            return 2
        live = p.stdout
    finally:
        ts.close()
    rows = [l.split("\t") for l in from_file.splitlines() if "\t" in l]
    if not any(len(r) > 1 and r[1] for r in rows) or "Findings (" not in from_file:
        print("no nfsscope output reading the file")
        return 1
    if live != from_file:
        fl, ll = from_file.splitlines(), live.splitlines()
        for i, (x, y) in enumerate(zip(fl, ll)):
            if x != y:
                print("line %d differs:\n  file: %r\n  live: %r" % (i + 1, x, y))
                break
        print("live capture and file differ (%d vs %d lines)" % (len(ll), len(fl)))
        return 1
    print("%s: live capture through a pipe prints the same %d lines as the file" % (cap, len(live.splitlines())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
