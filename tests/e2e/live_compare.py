#!/usr/bin/python3
"""Compare a live capture's JSON report with another report of the same traffic.

    live_compare.py LIVE.json OTHER.json [--timing]

Always ignored: the capture header fields that name the source and the
capture itself (source, live, the BPF filter, drops, wall clock, span). With --timing (the
other report is of the original file, replayed by tcpreplay at its own
timing): also every value that depends on when frames arrived, i.e.
timestamps, latencies, durations, gaps between renewals and what is computed from them, and the
findings' messages (they quote such figures). Everything else -- counts,
frames, connections, findings' kinds/counts/frames -- must be equal.
Exit 0 equal, 1 different (each difference printed)."""
import json
import re
import sys

HEADER = {"source", "live", "bpf_filter", "kernel_drops", "interface_drops", "wall_start", "wall_stop", "lower_bounds",
          "first_ts", "last_ts", "duration_s"}
TIMING = re.compile(r"(^|_)ts$|_us$|_ms$|gap_s$|^duration|fraction|share|ratio|^srtt|^rttvar|^rto|^message$")


def strip(v, timing):
    if isinstance(v, dict):
        return {k: strip(x, timing) for k, x in v.items() if not (timing and TIMING.search(k))}
    if isinstance(v, list):
        return [strip(x, timing) for x in v]
    return v


def diff(a, b, path, out):
    if type(a) is not type(b):
        out.append("%s: %r != %r" % (path, a, b))
    elif isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append("%s.%s: only in %s" % (path, k, "live" if k in a else "other"))
            else:
                diff(a[k], b[k], path + "." + k, out)
    elif isinstance(a, list):
        if len(a) != len(b):
            out.append("%s: %d items != %d" % (path, len(a), len(b)))
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, "%s[%d]" % (path, i), out)
    elif a != b:
        out.append("%s: %r != %r" % (path, a, b))


def main():
    timing = "--timing" in sys.argv[3:]
    live, other = (json.load(open(p)) for p in sys.argv[1:3])
    for r in (live, other):
        for k in HEADER:
            r["capture"].pop(k, None)
    out = []
    diff(strip(live, timing), strip(other, timing), "", out)
    for line in out[:40]:
        print("  " + line)
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main())
