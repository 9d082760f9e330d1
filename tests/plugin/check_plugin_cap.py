#!/usr/bin/python3
"""The plugin's per-frame table at its memory cap (preference
nfsscope.table_mib): with a cap of 0 no frame is recorded, the first frame
that wanted a record says so (expert warning, nfsscope.unrecorded) on every
pass, and the analysis itself stays whole: -z nfsscope,findings is the same
as without a cap.

    check_plugin_cap.py PLUGIN_SO CAPTURE [--preload LIB]
Exit 0 as described, 1 not, 2 a tool failed, 77 no tshark.
"""
import shutil
import sys

from tshark_user import Tshark, take_preload


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
    bad = []
    try:
        fields = ["-T", "fields", "-e", "frame.number", "-e", "nfsscope.conn", "-e", "nfsscope.finding",
                  "-e", "nfsscope.unrecorded"]
        capped = ["-o", "nfsscope.table_mib:0"]
        for passes in ([], ["-2"]):
            out = ts.run(["-r", ts.capture] + passes + capped + fields)
            rows = [l.split("\t") for l in out.splitlines()]
            shown = [r for r in rows if r[1] or r[2]]
            marked = [r for r in rows if r[3]]
            if shown:
                bad.append("%s: frames shown past the cap: %r" % (passes, shown[:3]))
            if len(marked) != 1:
                bad.append("%s: %d frames say the table is full, expected 1" % (passes, len(marked)))
        expert = ts.run(["-r", ts.capture, "-2", "-q", "-z", "expert"] + capped)
        if "per-frame table full" not in expert:
            bad.append("no table-full warning in -z expert")
        with_cap = ts.run(["-r", ts.capture, "-q", "-z", "nfsscope,findings"] + capped)
        without = ts.run(["-r", ts.capture, "-q", "-z", "nfsscope,findings"])
        if with_cap != without or "Findings (" not in without:
            bad.append("-z nfsscope,findings changed under the cap:\n%s\n---\n%s" % (with_cap, without))
    finally:
        ts.close()
    for b in bad:
        print("FAIL: " + b)
    if not bad:
        print("%s: nothing recorded at cap 0, one frame says so, findings unchanged" % cap)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
