#!/usr/bin/env python3
"""Real captures cut to start inside a large message (issue 20).

    check_midstream_cut.py NFSSCOPE SAMPLE:FRAME|SAMPLE:mss [...]
    check_midstream_cut.py --rpc-port NFSSCOPE CAPTURE

(--rpc-port: CAPTURE is tests/gen's tcp_not_rpc_budget: its port 7777 flow is
given up (tcp_flows_not_rpc 1) by default, never with --rpc-port 7777.)

For each SAMPLE, editcap keeps FRAME (a frame inside a large RPC message,
so every connection open there is picked up mid-stream) and every frame
after it. SAMPLE:mss first re-segments the sample as a NIC without
segmentation offload puts it on the wire (every TCP segment over 1,448
bytes cut into 1,448-byte segments: the loopback/veth samples carry 32-64
KiB segments, a production capture 1,448) and cuts at the second segment
of the first message spanning more than 16 (a 32 KiB WRITE: its data first). Then:

- ours:    calls nfsscope finds in the cut file;
- whole:   calls the same nfsscope finds at or after FRAME in the whole file;
- cut:     connections the cut falls inside (calls on them before and after
           FRAME): each may lose the one message the cut fell into;
- tshark:  calls tshark decodes in the cut file (rpc.msgtyp == 0, one per
           frame and XID; heuristic dissectors first, as TSHARK-NOTES says).

It requires ours >= whole - cut and ours >= tshark. Exit 77 (skip) without
editcap or tshark."""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile


def txns(nfsscope, path):
    out = subprocess.run([nfsscope, "-r", path, "--txn-log", "-"], capture_output=True, text=True)
    if out.returncode not in (0, 2):
        raise SystemExit("FAIL: nfsscope -r %s exited %d: %s" % (path, out.returncode, out.stderr.strip()))
    return [json.loads(l) for l in out.stdout.splitlines() if l.strip()]


def tshark_calls(path):
    out = subprocess.run(["tshark", "-r", path, "-o", "tcp.try_heuristic_first:TRUE", "-Y", "rpc.msgtyp == 0",
                          "-T", "fields", "-e", "frame.number", "-e", "rpc.msgtyp", "-e", "rpc.xid"],
                         capture_output=True, text=True)
    calls = set()
    for line in out.stdout.splitlines():
        parts = line.split("\t")
        if len(parts) < 3:
            continue
        types, xids = parts[1].split(","), parts[2].split(",")
        for t, x in zip(types, xids):
            if t == "0":
                calls.add((parts[0], x))
    return len(calls)


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def resegment(src, dst, mss=1448):
    """Ethernet/IPv4/TCP segments longer than mss, fully captured, become
    mss-byte segments (same time stamp, seq advanced, checksums redone)."""
    with open(src, "rb") as f:
        data = f.read()
    magic = data[:4]
    end = "<" if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    if struct.unpack(end + "I", data[20:24])[0] != 1:
        raise SystemExit("FAIL: %s: only Ethernet captures are re-segmented" % src)
    out, pos = [data[:24]], 24
    while pos + 16 <= len(data):
        ts1, ts2, caplen, wirelen = struct.unpack(end + "IIII", data[pos:pos + 16])
        frame = data[pos + 16:pos + 16 + caplen]
        pos += 16 + caplen
        pieces = [frame]
        if caplen == wirelen and len(frame) > 34 and frame[12:14] == b"\x08\x00" and frame[23] == 6:
            ihl = (frame[14] & 15) * 4
            ip = frame[14:14 + struct.unpack("!H", frame[16:18])[0]]
            thl = (ip[ihl + 12] >> 4) * 4
            payload = ip[ihl + thl:]
            if len(payload) > mss and not ip[ihl + 13] & 0x07:  # no SYN/FIN/RST
                pieces = []
                seq = struct.unpack("!I", ip[ihl + 4:ihl + 8])[0]
                for off in range(0, len(payload), mss):
                    chunk = payload[off:off + mss]
                    tcp = bytearray(ip[ihl:ihl + thl] + chunk)
                    tcp[4:8] = struct.pack("!I", (seq + off) & 0xFFFFFFFF)
                    if off + mss < len(payload):
                        tcp[13] &= ~0x08  # PSH on the last piece only
                    tcp[16:18] = b"\0\0"
                    pseudo = ip[12:20] + struct.pack("!BBH", 0, 6, len(tcp))
                    tcp[16:18] = struct.pack("!H", csum(pseudo + bytes(tcp)))
                    iph = bytearray(ip[:ihl])
                    iph[2:4] = struct.pack("!H", ihl + len(tcp))
                    iph[10:12] = b"\0\0"
                    iph[10:12] = struct.pack("!H", csum(bytes(iph)))
                    pieces.append(frame[:14] + bytes(iph) + bytes(tcp))
        for pc in pieces:
            out.append(struct.pack(end + "IIII", ts1, ts2, len(pc), len(pc)) + pc)
    with open(dst, "wb") as f:
        f.write(b"".join(out))


def middle_of_large(path):
    """The second segment of the first message spanning more than 16
    segments (all its data, no header, comes first; the most traffic after
    it), else the middle of the one spanning most."""
    out = subprocess.run(["tshark", "-r", path, "-Y", "tcp.segment.count > 1", "-T", "fields",
                          "-e", "tcp.segment"], capture_output=True, text=True)
    best = []
    for line in out.stdout.splitlines():
        segs = [int(x) for x in line.replace("\t", ",").split(",") if x]
        if len(segs) > 16:
            return segs[1]
        if len(segs) > len(best):
            best = segs
    return best[len(best) // 2] if best else 1


def check(nfsscope, sample, frame, tmp):
    cut_path = os.path.join(tmp, "cut.pcap")
    subprocess.run(["editcap", "-r", sample, cut_path, "%d-2000000000" % frame], check=True,
                   capture_output=True)
    full = txns(nfsscope, sample)
    calls_full = [t for t in full if t.get("call_frame") is not None]
    whole = sum(1 for t in calls_full if t["call_frame"] >= frame)
    before = {t["conn"] for t in calls_full if t["call_frame"] < frame}
    after = {t["conn"] for t in calls_full if t["call_frame"] >= frame}
    cut_conns = len(before & after)
    ours = sum(1 for t in txns(nfsscope, cut_path) if t.get("call_frame") is not None)
    tsh = tshark_calls(cut_path)
    ok = ours >= whole - cut_conns and ours >= tsh
    print("%s %s:%d  calls after the cut: whole run %d (connections cut %d), cut file: nfsscope %d, tshark %d"
          % ("ok  " if ok else "FAIL", os.path.basename(sample), frame, whole, cut_conns, ours, tsh))
    return ok


def rpc_port(nfsscope, cap):
    ok = True
    for extra, want in (([], 1), (["--rpc-port", "7777"], 0), (["--rpc-port", "111,7777"], 0)):
        out = subprocess.run([nfsscope, "-r", cap, "--format", "json"] + extra, capture_output=True, text=True)
        got = json.loads(out.stdout)["not_analysed"].get("tcp_flows_not_rpc")
        print("%s %s: tcp_flows_not_rpc %s (want %d)" % ("ok  " if got == want else "FAIL", " ".join(extra) or
                                                         "no --rpc-port", got, want))
        ok &= got == want
    return 0 if ok else 1


def main(argv):
    if len(argv) == 4 and argv[1] == "--rpc-port":
        return rpc_port(argv[2], argv[3])
    if len(argv) < 3:
        print(__doc__)
        return 1
    if not shutil.which("editcap") or not shutil.which("tshark"):
        print("skip: editcap/tshark not installed")
        return 77
    nfsscope, bad = argv[1], 0
    with tempfile.TemporaryDirectory() as tmp:
        for spec in argv[2:]:
            sample, frame = spec.rsplit(":", 1)
            if frame == "mss":
                seg = os.path.join(tmp, os.path.basename(sample) + ".mss1448.pcap")
                resegment(sample, seg)
                sample, frame = seg, middle_of_large(seg)
            if not check(nfsscope, sample, int(frame), tmp):
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
