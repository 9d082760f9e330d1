#!/usr/bin/env python3
"""Damaged capture files (the simple cases, not-a-capture, empty file,
directory, cut file header, are in cli_errors.sh):

- a capture cut at every byte offset of its last two packets (pcap and
  pcapng): exit 2 with one stderr line naming the frame after which the damage
  starts, and a report identical to that of the intact capture of the frames
  before; a cut that falls exactly between records is a shorter, valid
  capture (exit 0);
- a corrupted record header (captured length larger than the snapshot length,
  or absurdly large): exit 2, one line, the report of the frames before;
- a pcapng file with blocks of unknown types between the packets: analysed as
  if they were not there (exit 0, empty stderr).

    damaged_captures.py NFSSCOPE SAMPLES_DIR"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

FAIL = []


def check(cond, what):
    if not cond:
        FAIL.append(what)
        print("FAIL: " + what)


def run(nfsscope, path):
    p = subprocess.run([nfsscope, "-r", path, "--format", "json"], capture_output=True)
    rep = None
    try:
        rep = json.loads(p.stdout)
    except ValueError:
        pass
    return p.returncode, p.stderr.decode(errors="replace"), rep


def comparable(rep):
    """The report without what legitimately differs between a damaged file
    and the intact shorter one."""
    rep = json.loads(json.dumps(rep))
    for k in ("source", "partial", "partial_reason"):
        rep["capture"].pop(k, None)
    return rep


def pcap_records(b, n):
    """Offsets of the first n records (and the end of the n-th) of a pcap."""
    offs, off = [], 24
    while len(offs) < n and off + 16 <= len(b):
        offs.append(off)
        off += 16 + struct.unpack("<I", b[off + 8:off + 12])[0]
    return offs, off


def pcapng_blocks(b, n):
    offs, off = [], 0
    while len(offs) < n and off + 12 <= len(b):
        offs.append(off)
        off += struct.unpack("<I", b[off + 4:off + 8])[0]
    return offs, off


def cut_every_offset(nfsscope, tmp, name, data, starts, end, header_blocks):
    """data: an intact capture whose records start at starts (frames: the
    records after the first header_blocks ones), ending at end. Cut it at
    every byte offset of the last two records."""
    frames_before = {}
    for i, s in enumerate(starts):
        frames_before[s] = i - header_blocks
    frames_before[end] = len(starts) - header_blocks
    intact = {}
    runs = bad = 0
    first = starts[-2]
    for cut in range(first, end):
        # frames fully present before the cut
        k = max(f for s, f in frames_before.items() if s <= cut)
        path = os.path.join(tmp, "%s-cut.%s" % (name, "pcapng" if header_blocks else "pcap"))
        with open(path, "wb") as f:
            f.write(data[:cut])
        code, err, rep = run(nfsscope, path)
        runs += 1
        if k not in intact:
            whole = os.path.join(tmp, "%s-intact-%d" % (name, k))
            boundary = [s for s, f in frames_before.items() if f == k][0]
            with open(whole, "wb") as f:
                f.write(data[:boundary])
            c2, e2, r2 = run(nfsscope, whole)
            check(c2 == 0 and not e2, "%s: intact capture of %d frames: exit %d %s" % (name, k, c2, e2))
            intact[k] = comparable(r2) if r2 else None
        if cut in frames_before:  # between two records: a valid shorter file
            ok = code == 0 and err == "" and rep and comparable(rep) == intact[k]
        else:
            lines = err.splitlines()
            ok = (code == 2 and len(lines) == 1 and
                  re.match(r"^nfsscope: %s: capture cut off or damaged after frame %d: " % (re.escape(path), k),
                           lines[0]) is not None and rep is not None and rep["capture"]["partial"] is True
                  and comparable(rep) == intact[k])
        if not ok:
            bad += 1
            if bad <= 3:
                check(False, "%s cut at byte %d (%d whole frames before): exit %d, stderr %r" % (
                    name, cut, k, code, err))
    print("%s: %d cuts checked, %d wrong" % (name, runs, bad))


def main():
    nfsscope, samples = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="nfsscope-damaged-")
    # pcap: the first 30 frames of an NFSv4.1 capture
    raw = open(os.path.join(samples, "nfsv41-proxy.pcap"), "rb").read()
    starts, end = pcap_records(raw, 30)
    data = raw[:end]
    cut_every_offset(nfsscope, tmp, "pcap", data, starts, end, 0)
    # pcapng: section header, interface description, then 24 packets
    rawng = open(os.path.join(samples, "nfsv40-tcp.pcapng"), "rb").read()
    bstarts, bend = pcapng_blocks(rawng, 26)
    cut_every_offset(nfsscope, tmp, "pcapng", rawng[:bend], bstarts, bend, 2)

    # corrupted record header: the 11th record's captured length
    for caplen, what in ((0xFFFFFFF0, "huge"), (300000, "over the snapshot length")):
        d = bytearray(data)
        d[starts[10] + 8:starts[10] + 12] = struct.pack("<I", caplen)
        path = os.path.join(tmp, "badrec.pcap")
        open(path, "wb").write(d)
        code, err, rep = run(nfsscope, path)
        lines = err.splitlines()
        check(code == 2 and len(lines) == 1 and "after frame 10:" in lines[0] and rep
              and rep["capture"]["packets"] == 10,
              "record header with a %s captured length: exit %d, stderr %r" % (what, code, err))
        print("corrupted record header (%s caplen): exit %d: %s" % (what, code, err.strip()))

    # pcapng with unknown blocks (a made-up type and a custom block) between packets
    endian = "<"
    unknown = b""
    for btype, body in ((0x0BADB10C, b"hello unknown block!"), (0x00000BAD, struct.pack("<I", 32473) + b"custom\0\0")):
        body += b"\0" * (-len(body) % 4)
        n = 12 + len(body)
        unknown += struct.pack(endian + "II", btype, n) + body + struct.pack(endian + "I", n)
    ng = rawng[:bend]
    mixed = ng[:bstarts[2]] + unknown + b"".join(
        ng[bstarts[i]:(bstarts[i + 1] if i + 1 < len(bstarts) else bend)] + unknown for i in range(2, len(bstarts)))
    p1, p2 = os.path.join(tmp, "plain.pcapng"), os.path.join(tmp, "unknown.pcapng")
    open(p1, "wb").write(ng)
    open(p2, "wb").write(mixed)
    c1, e1, r1 = run(nfsscope, p1)
    c2, e2, r2 = run(nfsscope, p2)
    check(c2 == 0 and e2 == "" and r1 and r2 and comparable(r1) == comparable(r2)
          and r2["rpc"]["calls"] > 0,
          "pcapng with unknown blocks: exit %d, stderr %r, same report: %s" % (
              c2, e2, r1 and r2 and comparable(r1) == comparable(r2)))
    print("pcapng with unknown blocks: exit %d, %d calls" % (c2, r2["rpc"]["calls"] if r2 else -1))
    subprocess.run(["rm", "-rf", tmp])
    return 1 if FAIL else 0


if __name__ == "__main__":
    sys.exit(main())
