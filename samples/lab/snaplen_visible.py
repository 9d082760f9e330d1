#!/usr/bin/env python3
"""Which RPC messages of a snaplen-cut capture can be found, from its full twin.

usage: samples/lab/snaplen_visible.py FULL.pcap CUT.pcap [--list]

FULL and CUT hold the same TCP traffic (recorded at once, samples/lab/
record-snaplen.sh): FULL with -s 0, CUT with a snapshot length. Independently
of nfsscope, this script rebuilds every TCP byte stream of FULL, walks its
record marks (RFC 5531 section 11) to list every RPC message (direction,
offset, XID, call or reply), then looks at which bytes CUT captured, and
applies the record-marking rule:

  A message can be found when its record mark and its XID and message type
  were captured, and its position is known: either the record before it in
  the same direction had its mark captured (its length says where the next
  one starts; the first record after a SYN starts the stream), or it can be
  recognised where it stands: a call with rpcvers, program and version
  captured (20 bytes after the mark), or a reply to a call that was found.

Prints calls, replies, matched (call and reply both found), calls without a
found reply, and replies without a found call. Ethernet + IPv4 + TCP only.
"""
import struct
import sys


def frames(path):
    with open(path, "rb") as f:
        gh = f.read(24)
        magic = struct.unpack("<I", gh[:4])[0]
        e = "<" if magic in (0xa1b2c3d4, 0xa1b23c4d) else ">"
        n = 0
        while True:
            h = f.read(16)
            if len(h) < 16:
                return
            _, _, incl, orig = struct.unpack(e + "IIII", h)
            n += 1
            yield n, f.read(incl), orig


def tcp_segments(path):
    """(frame, key, seq, flags, payload captured, payload length on the wire)"""
    for n, d, orig in frames(path):
        if len(d) < 34 or d[12:14] != b"\x08\x00":
            continue
        ihl = (d[14] & 15) * 4
        tot = struct.unpack(">H", d[16:18])[0]
        if d[23] != 6 or len(d) < 14 + ihl + 20:
            continue
        src, dst = d[26:30], d[30:34]
        t = 14 + ihl
        sp, dp, seq = struct.unpack(">HHI", d[t:t + 8])
        off = (d[t + 12] >> 4) * 4
        flags = d[t + 13]
        wire = tot - ihl - off
        pay = d[t + off:14 + tot]
        yield n, (src, sp, dst, dp), seq, flags, pay, wire


def streams(path):
    """key -> (start seq, bytes) for every direction, from a capture with every byte."""
    st = {}
    for _n, key, seq, flags, pay, wire in tcp_segments(path):
        s = st.setdefault(key, {"syn": None, "first": None, "data": {}})
        if flags & 2:
            s["syn"] = seq + 1
            seq += 1
        if wire <= 0:
            continue
        if len(pay) != wire:
            raise SystemExit("%s: frame cut by the snaplen; FULL must be a -s 0 capture" % path)
        if s["first"] is None:
            s["first"] = seq
        s["data"].setdefault(seq, pay)
    out = {}
    for key, s in st.items():
        if not s["data"]:
            continue
        base = s["syn"] if s["syn"] is not None else s["first"]
        buf = bytearray()
        for seq in sorted(s["data"], key=lambda q: (q - base) & 0xffffffff):
            rel = (seq - base) & 0xffffffff
            p = s["data"][seq]
            if rel + len(p) <= len(buf):
                continue
            if rel > len(buf):
                raise SystemExit("%s: a hole in the full capture" % path)
            buf += p[len(buf) - rel:]
        out[key] = (base, bytes(buf), s["syn"] is not None)
    return out


def messages(buf, from_syn):
    """[(offset, length, xid, type)] by walking the record marks; a stream
    picked up mid-way is walked from the first offset where marks then chain
    to its end."""
    def walk(at):
        msgs, pos, start, ln = [], at, at, 0
        while pos + 4 <= len(buf):
            v = struct.unpack(">I", buf[pos:pos + 4])[0]
            fl = v & 0x7fffffff
            pos += 4 + fl
            ln += fl
            if pos > len(buf):
                return msgs if msgs else None
            if v >> 31:
                if ln < 8:
                    return None
                xid, typ = struct.unpack(">II", buf[start + 4:start + 12])
                if typ > 1:
                    return None
                msgs.append((start, ln, xid, typ))
                start, ln = pos, 0
        return msgs if pos == len(buf) else None
    if from_syn:
        return walk(0) or []
    for at in range(min(len(buf), 1 << 20)):
        m = walk(at)
        if m:
            return m
    return []


def captured(path):
    """key -> list of (start seq, end seq) captured TCP payload ranges."""
    cap = {}
    for _n, key, seq, flags, pay, wire in tcp_segments(path):
        if flags & 2:
            seq += 1
        if pay:
            cap.setdefault(key, []).append((seq, seq + len(pay)))
    return cap


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        raise SystemExit(__doc__)
    full, cut = args
    cap = captured(cut)
    st = streams(full)
    calls_found, prev = {}, None
    while prev != (set(calls_found), ):  # a reply is recognised by a call found in the other direction
        prev = (set(calls_found), )
        calls_found, replies_found = scan(st, cap, calls_found)
    matched = len(set(calls_found) & set(replies_found))
    print("calls %d replies %d matched %d unmatched_calls %d orphan_replies %d" % (
        len(calls_found), len(replies_found), matched, len(calls_found) - matched, len(replies_found) - matched))


def scan(st, cap, calls_before):
    calls_found, replies_found = {}, {}
    for key, (base, buf, syn) in sorted(st.items()):
        ranges = cap.get(key, [])

        def have(off, n):
            a = (base + off) & 0xffffffff
            for s, e in ranges:
                if ((a - s) & 0xffffffff) < ((e - s) & 0xffffffff) and ((a + n - s) & 0xffffffff) <= ((e - s) & 0xffffffff):
                    return True
            return False
        conn = tuple(sorted([key[:2], key[2:]]))
        known = syn  # is the position of the next record known?
        for off, ln, xid, typ in messages(buf, syn):
            head = have(off, 12)
            found = False
            if head and known:
                found = True
            elif head and typ == 0 and have(off, 24):
                found = True
            elif head and typ == 1 and (conn, xid) in calls_before:
                found = True
            if found:
                (calls_found if typ == 0 else replies_found)[(conn, xid)] = key
            known = have(off, 4) and (found or known)
    return calls_found, replies_found


if __name__ == "__main__":
    main()
