#!/usr/bin/env python3
"""Connection figures against tshark: every TCP connection nfsscope lists
has tshark's frame count and payload bytes each way (tcp.len summed per
tcp.stream), handshake and first message included.

    check_conn_bytes.py NFSSCOPE CAPTURE...

Exit 77 without tshark."""
import json
import shutil
import subprocess
import sys


def tshark_streams(cap):
    out = subprocess.run(["tshark", "-r", cap, "-Y", "tcp", "-T", "fields", "-E", "separator=,",
                          "-e", "tcp.stream", "-e", "ip.src", "-e", "ipv6.src", "-e", "tcp.srcport",
                          "-e", "tcp.len"], capture_output=True, text=True, check=True).stdout
    streams = {}
    for line in out.splitlines():
        sid, src4, src6, sport, ln = line.split(",")
        s = streams.setdefault(sid, {"frames": 0, "bytes": {}})
        s["frames"] += 1
        key = "%s:%s" % (src4 or "[%s]" % src6, sport)
        s["bytes"][key] = s["bytes"].get(key, 0) + int(ln or 0)
    return streams


def main():
    if not shutil.which("tshark"):
        return 77
    nfsscope, caps = sys.argv[1], sys.argv[2:]
    bad = total = 0
    for cap in caps:
        rep = json.loads(subprocess.run([nfsscope, "-r", cap, "--format", "json", "--no-progress"],
                                        capture_output=True, text=True, check=True).stdout)
        streams = tshark_streams(cap)
        by_ends = {}
        for s in streams.values():
            by_ends.setdefault(frozenset(s["bytes"]), []).append(s)
        n = 0
        for c in rep["connections"]:
            if c["transport"] != "tcp":
                continue
            cands = by_ends.get(frozenset([c["client"], c["server"]]), [])
            if len(cands) != 1:
                continue  # port reuse: several tshark streams on these ends
            s = cands[0]
            got = (c["frames"], c["bytes_to_server"], c["bytes_to_client"])
            want = (s["frames"], s["bytes"].get(c["client"], 0), s["bytes"].get(c["server"], 0))
            n += 1
            if got != want:
                bad += 1
                print("FAIL %s %s: nfsscope frames/bytes>srv/bytes>cli %s, tshark %s" % (cap, c["id"], got, want))
        print("%s: %d TCP connections compared" % (cap, n))
        total += n
    if total == 0:
        print("FAIL: no TCP connection compared")
        bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
