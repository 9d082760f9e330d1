#!/usr/bin/env python3
"""--metrics-file (issue 13): the Prometheus exposition of a capture file.

Usage: metrics_file.py NFSSCOPE SAMPLES_DIR SAMPLE OUT_DIR

The file passes `promtool check metrics`, is byte-identical on two runs, and
its numbers agree with tshark (calls, replies, resent calls) and with the
hand-derived samples/*.findings.json (finding kinds and counts, slots asked
and granted per session) or samples/README.md. Exit 77 without promtool or
tshark (scripts/deps.sh installs both).
"""
import json
import os
import re
import shutil
import subprocess
import sys

# samples/README.md, "nfsv3-udp-loss5.pcap": FRAGMENT_LOSS x6, RTO_INFLATED x1.
README_FINDINGS = {"nfsv3-udp-loss5": {"FRAGMENT_LOSS": (1, 6), "RTO_INFLATED": (1, 1)}}


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def parse(text):
    """{(name, ((label, value), ...)): value} of the samples."""
    out = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = re.match(r'([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$', line)
        if not m:
            fail("not an exposition line: %r" % line)
        labels = tuple(sorted(re.findall(r'([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"', m.group(2) or "")))
        out[(m.group(1), labels)] = float(m.group(3))
    return out


def total(samples, name, **want):
    return sum(v for (n, l), v in samples.items()
               if n == name and all(dict(l).get(k) == x for k, x in want.items()))


def tshark_count(pcap, flt):
    r = subprocess.run(["tshark", "-r", pcap, "-Y", flt, "-T", "fields", "-e", "frame.number"],
                       capture_output=True, text=True, check=True)
    return len(r.stdout.split())


def main():
    nfsscope, samples_dir, sample, out = sys.argv[1:5]
    if not shutil.which("promtool") or not shutil.which("tshark"):
        print("SKIP: promtool or tshark not installed (scripts/deps.sh installs them)")
        return 77
    os.makedirs(out, exist_ok=True)
    pcap = os.path.join(samples_dir, sample + ".pcap")
    files = []
    for run in (1, 2):
        prom = os.path.join(out, "%s.%d.prom" % (sample, run))
        r = subprocess.run([nfsscope, "-r", pcap, "--metrics-file", prom, "-o", os.devnull], capture_output=True, text=True)
        if r.returncode != 0:
            fail("nfsscope exit %d: %s" % (r.returncode, r.stderr))
        files.append(open(prom, "rb").read())
    if files[0] != files[1]:
        fail("two runs on the same capture wrote different files")
    text = files[0].decode()
    r = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True, text=True)
    if r.returncode != 0:
        fail("promtool check metrics: exit %d: %s%s" % (r.returncode, r.stdout, r.stderr))
    s = parse(text)

    checks = [
        ("calls (first transmissions)", total(s, "nfsscope_rpc_calls_total"),
         tshark_count(pcap, "rpc.msgtyp == 0 && !rpc.call.dup && !icmp && !icmpv6")),
        ("replies", total(s, "nfsscope_rpc_replies_total"),
         tshark_count(pcap, "rpc.msgtyp == 1 && !rpc.reply.dup && !icmp && !icmpv6")),
        ("resent calls", total(s, "nfsscope_rpc_retransmissions_total"),
         tshark_count(pcap, "rpc.call.dup && !icmp && !icmpv6")),
    ]
    if total(s, "nfsscope_udp_retransmissions_total") or "udp" in sample:
        checks.append(("UDP resent calls", total(s, "nfsscope_udp_retransmissions_total"),
                       tshark_count(pcap, "udp && rpc.call.dup && !icmp")))
    for what, got, want in checks:
        if got != want:
            fail("%s: %g in the metrics, tshark counts %d" % (what, got, want))
        print("%s: %d (tshark agrees)" % (what, want))

    # Histograms: cumulative buckets, +Inf = count.
    for (n, l), v in s.items():
        if n == "nfsscope_rpc_latency_seconds_count":
            op = dict(l)["op"]
            buckets = sorted(((float(dict(bl)["le"]), bv) for (bn, bl), bv in s.items()
                              if bn == "nfsscope_rpc_latency_seconds_bucket" and dict(bl)["op"] == op))
            if buckets[-1] != (float("inf"), v) or any(a[1] > b[1] for a, b in zip(buckets, buckets[1:])):
                fail("latency histogram of %s not cumulative or +Inf != count" % op)

    want = {}
    fj = os.path.join(samples_dir, sample + ".findings.json")
    sessions = []
    if os.path.exists(fj):
        d = json.load(open(fj))
        for f in d["findings"]:
            n, occ = want.get(f["kind"], (0, 0))
            want[f["kind"]] = (n + 1, occ + f["count"])
        sessions = d.get("sessions", [])
    want.update(README_FINDINGS.get(sample, {}))
    if not want and not os.path.exists(fj):
        fail("no expected findings for %s" % sample)
    if total(s, "nfsscope_findings_total") != sum(n for n, _ in want.values()):
        fail("%g findings in all, expected %d" % (total(s, "nfsscope_findings_total"), sum(n for n, _ in want.values())))
    for kind, (n, occ) in sorted(want.items()):
        got_n = total(s, "nfsscope_findings_total", kind=kind)
        got_occ = total(s, "nfsscope_finding_occurrences_total", kind=kind)
        if got_n != n or got_occ != occ:
            fail("%s: %g findings / %g occurrences, expected %d / %d" % (kind, got_n, got_occ, n, occ))
    print("findings by kind as hand-derived:", ", ".join("%s %d/%d" % (k, *v) for k, v in sorted(want.items())))
    for se in sessions:
        sid, fc = se["sessionid"], se["fore_channel"]
        g = total(s, "nfsscope_session_fore_slots_granted", session=sid)
        q = total(s, "nfsscope_session_fore_slots_requested", session=sid)
        if (q, g) != (fc["requested_max_requests"], fc["granted_max_requests"]):
            fail("session %s: requested/granted %g/%g, expected %d/%d" % (sid, q, g, fc["requested_max_requests"],
                                                                          fc["granted_max_requests"]))
        print("session %s: %d slots requested, %d granted" % (sid, q, g))
    for pool in ("flows", "reassembly", "pending_calls", "ip_fragments", "sessions"):
        if ("nfsscope_memory_bytes", (("pool", pool),)) not in s:
            fail("no nfsscope_memory_bytes for pool %s" % pool)
    # Bad input: one line naming the problem, exit 1, nothing analysed.
    for args, want in ((["--metrics", "127.0.0.1:9"], "nfsscope: --metrics serves a live capture (-i); for a file use --metrics-file"),
                       (["--metrics-file", "/nonexistent-dir/x.prom"], "nfsscope: /nonexistent-dir/x.prom: No such file or directory"),
                       (["--html", "/nonexistent-dir/x.html"], "nfsscope: /nonexistent-dir/x.html: No such file or directory")):
        r = subprocess.run([nfsscope, "-r", pcap, "-o", os.devnull] + args, capture_output=True, text=True)
        if r.returncode != 1 or r.stderr.strip() != want:
            fail("%s: exit %d, stderr %r; expected 1 and %r" % (" ".join(args), r.returncode, r.stderr, want))
    print("bad --metrics/--metrics-file/--html: one line, exit 1")
    print("PASS: %s" % sample)
    return 0


if __name__ == "__main__":
    sys.exit(main())
