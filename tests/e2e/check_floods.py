#!/usr/bin/env python3
"""Run nfsscope on the flood captures of tests/gen/make_flood_captures.py and
check that each is handled: exit status 0, memory accounting under the cap,
peak RSS under the cap plus a fixed overhead, a bounded run time, and a
report that says what happened (evictions, bad marks, retransmissions...).

    check_floods.py NFSSCOPE OUTDIR N MEMCAP_MB [--no-limits] [NAME...]

Generates OUTDIR/NAME.pcap with N packets (if missing), runs
`nfsscope --memcap MEMCAP_MB M --format json`, prints one line per flood
(time, peak RSS, evictions). --no-limits skips the RSS and time limits
(sanitizer builds). Exit status 1 if any check failed."""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "..", "gen", "make_flood_captures.py")
RSS_OVERHEAD_MB = 16      # program, libpcap buffers, report: independent of the flood
SECONDS_PER_MILLION = 20  # a release build does any flood at well over 100k packets/s


TIME = "/usr/bin/time"  # GNU time: its own RSS is tiny, unlike a fork of this interpreter


def rusage_run(nfsscope, pcap, memcap_mb):
    """(exit status, report, stderr, seconds, peak RSS in KiB or None) of one run."""
    cmd = [nfsscope, "-r", pcap, "--memcap", "%dM" % memcap_mb, "--format", "json"]
    rssfile = pcap + ".rss"
    if os.access(TIME, os.X_OK):
        cmd = [TIME, "-q", "-f", "%M", "-o", rssfile] + cmd
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True)
    secs = time.monotonic() - t0
    rss = None
    if os.access(TIME, os.X_OK):
        with open(rssfile) as f:
            rss = int(f.read().split()[-1])
    return p.returncode, p.stdout, p.stderr, secs, rss


def expectations(name, n, r):
    """(description, ok) pairs: what the report must say about this flood."""
    rpc, na, ev = r["rpc"], r["not_analysed"], r["evictions"]
    ops = {o["name"]: o for o in r["ops"]}
    if name == "syn_flood":
        return [("flows evicted", ev["flows"] > 0), ("no RPC", rpc["calls"] == 0)]
    if name == "unanswered_calls":
        # memory runs short with every call waiting: those let go are counted
        # as evicted while waiting (not unanswered), the rest unmatched at the end
        return [("every call seen", rpc["calls"] == n),
                ("every call unmatched or evicted while waiting",
                 rpc["unmatched_calls"] + ev.get("outstanding_calls", 0) == n),
                ("calls evicted while waiting", ev.get("outstanding_calls", 0) > 0),
                ("pending calls evicted", ev["pending_calls"] > 0)]
    if name == "huge_record_marks":
        return [("2 GiB marks rejected", na["record_bad_marks"] == n),
                ("calls after them found", rpc["calls"] == n)]
    if name == "zero_fragments":
        return [("the call and reply before", rpc["calls"] == 1 and rpc["replies"] == 1),
                ("endless record given up", na["record_bad_marks"] + na["record_resyncs"] > 0)]
    if name == "ip_fragments":
        return [("every fragment counted", na["ip_fragments"] == n),
                ("incomplete datagrams counted", na["ip_datagrams_incomplete"] > 0),
                ("fragment trains evicted", ev["ip_fragments"] > 0)]
    if name == "seq_wraparound":
        return [("every call matched", rpc["calls"] == n // 2 and rpc["replies"] == n // 2
                 and rpc["unmatched_calls"] == 0),
                ("no gaps", na["tcp_gaps"] == 0),
                ("snaplen counted", na["tcp_truncated_bytes"] > 0)]
    if name == "time_backwards":
        return [("every call matched", rpc["calls"] == n // 2 and rpc["unmatched_calls"] == 0),
                ("latency never negative", all((o["max_us"] or 0) >= 0 and (o["mean_us"] or 0) >= 0
                                               for o in r["ops"]))]
    if name == "xid_reuse":
        calls = n - n // 10
        return [("every call seen", rpc["calls"] == calls),
                # each call reuses the XID of an outstanding call with another procedure
                ("reuse counted as new calls", rpc["xid_reused"] > 0 and rpc["transactions"] >= calls)]
    if name == "session_many_conns":
        conns = max(1, n // 6)
        seen = len(r["connections"]) if "connections" in r else 0
        # Every message of every connection is analysed; the records of closed
        # connections beyond the cap are dropped oldest first and added up.
        dropped = r.get("connections_dropped", {"count": 0, "calls": 0})
        listed_calls = sum(c["calls"] for c in r.get("connections", []))
        return [("every call and reply analysed", rpc["calls"] == conns and rpc["replies"] == conns),
                ("no message dropped for want of a connection record", ev["connection_messages"] == 0),
                ("listed + dropped connections = all", seen + dropped["count"] == conns
                 and ev.get("closed_connections", 0) == dropped["count"]),
                ("calls of listed + dropped connections = all", listed_calls + dropped["calls"] == conns),
                ("connections listed", seen > 0),
                ("NFSv4.1 seen", "v4.1" in r["capture"]["nfs_versions"]),
                ("SEQUENCE decoded", ops.get("SEQUENCE", {}).get("in_compounds", 0) > 0)]
    return [("known flood", False)]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    limits = "--no-limits" not in sys.argv
    nfsscope, outdir, n, memcap = args[0], args[1], int(args[2]), int(args[3])
    names = args[4:] or subprocess.run([sys.executable, GEN, "--list"], check=True, capture_output=True,
                                       text=True).stdout.split()
    os.makedirs(outdir, exist_ok=True)
    missing = [x for x in names if not os.path.exists(os.path.join(outdir, x + ".pcap"))]
    if missing:
        subprocess.run([sys.executable, GEN, outdir, str(n)] + missing, check=True)
    fail = False
    for name in names:
        pcap = os.path.join(outdir, name + ".pcap")
        code, out, err, secs, rss_kb = rusage_run(nfsscope, pcap, memcap)
        problems = []
        if code != 0:
            problems.append("exit %d (stderr: %s)" % (code, err.decode(errors="replace").strip()))
        if err:
            problems.append("stderr not empty: %s" % err.decode(errors="replace").strip())
        try:
            r = json.loads(out)
        except ValueError:
            r = None
            problems.append("report is not JSON")
        if r:
            if r["memory"]["peak_bytes"] > memcap << 20:
                problems.append("accounted memory %d over the cap" % r["memory"]["peak_bytes"])
            for what, ok in expectations(name, n, r):
                if not ok:
                    problems.append("report: " + what)
        if limits and rss_kb is not None and rss_kb > (memcap + RSS_OVERHEAD_MB) * 1024:
            problems.append("peak RSS %d KiB over %d MiB + %d MiB" % (rss_kb, memcap, RSS_OVERHEAD_MB))
        if limits and secs > 2 + SECONDS_PER_MILLION * n / 1e6:
            problems.append("took %.1f s" % secs)
        ev = r["evictions"] if r else {}
        print("%-20s %s %7.2f s  peak RSS %7.1f MiB  accounted %6.1f MiB  evictions %s" % (
            name, "FAIL" if problems else "ok  ", secs, (rss_kb or 0) / 1024,
            (r["memory"]["peak_bytes"] if r else 0) / 2**20,
            " ".join("%s=%d" % kv for kv in ev.items())))
        for p in problems:
            print("    " + p)
        fail |= bool(problems)
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
