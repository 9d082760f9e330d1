#!/usr/bin/env python3
"""The "Not analysed" counters of generated captures.

    check_counters.py NFSSCOPE CAPTURE...

For every CAPTURE whose NAME.meta.json has "counters" (written by
tests/gen/make_edge_captures.py from what the generator sent), nfsscope's
JSON report must carry exactly those values under not_analysed.  Captures
without "counters" are skipped; at least one must have them."""
import json
import os
import subprocess
import sys


def main(argv):
    nfsscope, caps = argv[1], argv[2:]
    checked, bad = 0, 0
    for cap in caps:
        meta_path = os.path.splitext(cap)[0] + ".meta.json"
        with open(meta_path) as f:
            want = json.load(f).get("counters")
        if not want:
            continue
        checked += 1
        out = subprocess.run([nfsscope, "-r", cap, "--format", "json"], capture_output=True, text=True)
        got = json.loads(out.stdout)["not_analysed"]
        diff = {k: (got.get(k), v) for k, v in want.items() if got.get(k) != v}
        if diff:
            bad += 1
            print("FAIL %s: %s" % (os.path.basename(cap),
                                   ", ".join("%s got %s want %s" % (k, g, w) for k, (g, w) in sorted(diff.items()))))
        else:
            print("ok   %s: %s" % (os.path.basename(cap), want))
    if not checked:
        print("no capture declares counters")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
