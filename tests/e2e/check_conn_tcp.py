#!/usr/bin/env python3
"""TCP trouble in the text report (issue 23): a capture with retransmitted
or out-of-order segments or gaps says so in the Capture section and lists
the connections that had them; one without says nothing more.

    check_conn_tcp.py NFSSCOPE CAPTURE...

Per capture: JSON connections' tcp_retransmitted_segments and
tcp_out_of_order add up to not_analysed's totals (every segment is a
connection's, the handshake's included); where tshark's
tcp.analysis.retransmission count equals ours in total (same definition:
bytes all seen before), it equals ours per tcp.stream; the text report's
"TCP" line carries the totals, and its per-connection table lists exactly
the connections with trouble, with the JSON figures."""
import json
import re
import shutil
import subprocess
import sys


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True, check=True).stdout


def main():
    nfsscope, caps = sys.argv[1], sys.argv[2:]
    bad = troubled = 0
    for cap in caps:
        rep = json.loads(run(nfsscope, "-r", cap, "--format", "json", "--no-progress"))
        text = run(nfsscope, "-r", cap, "--no-progress")
        na = rep["not_analysed"]
        tot_re, tot_oo = na.get("tcp_retransmitted_segments", 0), na.get("tcp_out_of_order", 0)
        tot_gaps = na.get("tcp_gaps", 0)
        conns = [c for c in rep["connections"] if c["transport"] == "tcp"]
        sum_re = sum(c["tcp_retransmitted_segments"] for c in conns)
        sum_oo = sum(c["tcp_out_of_order"] for c in conns)
        if (sum_re, sum_oo) != (tot_re, tot_oo):
            bad += 1
            print("FAIL %s: connections' retransmitted/out of order %d/%d, totals %d/%d" % (cap, sum_re, sum_oo, tot_re, tot_oo))
        line = re.search(r"^  TCP +(\d+) segments: (\d+) retransmitted, (\d+) out of order, (\d+) gaps? ", text, re.M)
        trouble = tot_re or tot_oo or tot_gaps
        if bool(line) != bool(trouble):
            bad += 1
            print("FAIL %s: TCP line %s with retransmitted %d, out of order %d, gaps %d" % (cap, bool(line), tot_re, tot_oo, tot_gaps))
        elif line and tuple(int(x) for x in line.groups()[1:]) != (tot_re, tot_oo, tot_gaps):
            bad += 1
            print("FAIL %s: TCP line %s, JSON %d/%d/%d" % (cap, line.group(0), tot_re, tot_oo, tot_gaps))
        rows = {m.group(1): tuple(int(x) for x in m.groups()[1:])
                for m in re.finditer(r"^  (c\d+) +(\d+) +(\d+) +(\d+) +(\d+)$", text.split("TCP  retransmitted")[-1] if "TCP  retransmitted" in text else "", re.M)}
        want = {c["id"]: (c["tcp_retransmitted_segments"], c["tcp_out_of_order"], c["gaps"], c["missing_bytes"])
                for c in conns if c["tcp_retransmitted_segments"] or c["tcp_out_of_order"] or c["gaps"]}
        if rows != want:
            bad += 1
            print("FAIL %s: per-connection TCP rows %s, JSON %s" % (cap, rows, want))
        troubled += bool(want)
        if shutil.which("tshark"):
            ts = run("tshark", "-n", "-r", cap, "-Y", "tcp.analysis.retransmission", "-T", "fields", "-e", "tcp.srcport", "-e", "tcp.dstport")
            if len(ts.splitlines()) == tot_re and tot_re:
                per = {}
                for l in ts.splitlines():
                    a, b = sorted(int(x) for x in l.split())
                    per[(a, b)] = per.get((a, b), 0) + 1
                ours = {tuple(sorted(int(e.rsplit(":", 1)[1]) for e in (c["client"], c["server"]))): c["tcp_retransmitted_segments"]
                        for c in conns if c["tcp_retransmitted_segments"]}
                if ours != per:
                    bad += 1
                    print("FAIL %s: retransmitted per connection %s, tshark per stream %s" % (cap, ours, per))
                else:
                    print("%s: retransmitted per connection = tshark's %s" % (cap, per))
        print("%s: TCP line %s, %d connection(s) with trouble" % (cap, "yes" if line else "no", len(want)))
    if not troubled:
        print("FAIL: no capture had TCP trouble: the test compared nothing")
        bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
