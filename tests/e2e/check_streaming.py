#!/usr/bin/env python3
"""Large payloads stream through (issue 11): on bigio_1mib (1 MiB WRITE calls
and READ replies, NFSv4 COMPOUNDs with a GETATTR after the data, a large
READDIRPLUS reply) nfsscope's accounted memory stays under 1 MiB, less than
one message, and under `--memcap 1M` nothing is evicted from reassembly and
no message is cut; the transactions still match the generator's (with the
operations after the data).

    check_streaming.py NFSSCOPE CAPTURE EXPECTED"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def report(nfsscope, cap, *opts):
    p = subprocess.run([nfsscope, "-r", cap, "--format", "json"] + list(opts), capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("FAIL: nfsscope exit %d: %s" % (p.returncode, p.stderr.strip()))
    return json.loads(p.stdout)


def main(argv):
    nfsscope, cap, expected = argv[1:4]
    problems = []
    r = report(nfsscope, cap)
    peak = r["memory"]["peak_bytes"]
    if peak >= 1 << 20:
        problems.append("accounted peak %d bytes: a 1 MiB message was buffered whole" % peak)
    small = report(nfsscope, cap, "--memcap", "1M")
    if small["evictions"]["reassembly_bytes"]:
        problems.append("--memcap 1M: %d reassembly bytes evicted" % small["evictions"]["reassembly_bytes"])
    if small["not_analysed"]["messages_truncated"]:
        problems.append("--memcap 1M: %d messages cut" % small["not_analysed"]["messages_truncated"])
    if (small["rpc"]["calls"], small["rpc"]["replies"]) != (7, 7):
        problems.append("--memcap 1M: calls/replies %d/%d, want 7/7" % (small["rpc"]["calls"], small["rpc"]["replies"]))
    for opts in ([], ["--arg", "--memcap", "--arg", "1M"]):
        p = subprocess.run([sys.executable, os.path.join(HERE, "check_expected.py"), nfsscope, cap, expected] + opts,
                           capture_output=True, text=True)
        if p.returncode != 0:
            problems.append("transactions %s: %s" % (" ".join(opts[1::2]) or "default", p.stdout.strip()[-400:]))
    for x in problems:
        print("FAIL " + x)
    if not problems:
        print("ok   accounted peak %d bytes; --memcap 1M: nothing evicted, nothing cut, 7 transactions match" % peak)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
