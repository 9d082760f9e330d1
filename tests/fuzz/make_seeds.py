#!/usr/bin/env python3
"""Seed corpora for the fuzz targets, cut from the sample captures.

    make_seeds.py SAMPLES_DIR OUTDIR

Writes OUTDIR/{frame,stream,xdr,pcap}/ with small inputs in each target's
input format (see the comment at the top of each fuzz_*.c). Deterministic;
nothing here is committed: ctest and run.sh regenerate it."""
import os
import struct
import sys

FRAME_LINKTYPES = [1, 101, 113, 276, 0, 108, 12, 14, 228, 229, 105]


def read_capture(path):
    """(linktype, [(ts, caplen, origlen, bytes)], raw file bytes)"""
    b = open(path, "rb").read()
    magic = b[:4]
    if magic == b"\x0a\x0d\x0d\x0a":
        return read_pcapng(b)
    for endian in "<>":
        m = struct.unpack(endian + "I", magic)[0]
        if m in (0xA1B2C3D4, 0xA1B23C4D):
            break
    else:
        raise ValueError("%s: not a capture" % path)
    lt = struct.unpack(endian + "I", b[20:24])[0] & 0x0FFFFFFF
    pkts, off = [], 24
    while off + 16 <= len(b):
        sec, frac, cap, orig = struct.unpack(endian + "IIII", b[off:off + 16])
        data = b[off + 16:off + 16 + cap]
        pkts.append((b[off:off + 16], cap, orig, data))
        off += 16 + cap
    return lt, pkts, b


def read_pcapng(b):
    endian = "<" if b[8:12] == b"\x4d\x3c\x2b\x1a" else ">"
    off, lt, pkts = 0, 1, []
    while off + 12 <= len(b):
        btype, blen = struct.unpack(endian + "II", b[off:off + 8])
        if blen < 12 or off + blen > len(b):
            break
        if btype == 1:
            lt = struct.unpack(endian + "H", b[off + 8:off + 10])[0]
        elif btype == 6:
            cap, orig = struct.unpack(endian + "II", b[off + 20:off + 28])
            pkts.append((None, cap, orig, b[off + 28:off + 28 + cap]))
        off += blen
    return lt, pkts, b


def l3_offset(lt, f):
    if lt == 1:
        off, et = 14, struct.unpack(">H", f[12:14])[0]
        while et in (0x8100, 0x88A8) and len(f) >= off + 4:
            et = struct.unpack(">H", f[off + 2:off + 4])[0]
            off += 4
        return off
    return {113: 16, 276: 20, 0: 4, 108: 4, 101: 0}.get(lt)


def transport(lt, f):
    """(proto, src, sport, dst, dport, payload, seq, flags) or None"""
    o = l3_offset(lt, f)
    if o is None or len(f) < o + 20:
        return None
    v = f[o] >> 4
    if v == 4:
        ihl = (f[o] & 15) * 4
        proto, src, dst = f[o + 9], f[o + 12:o + 16], f[o + 16:o + 20]
        if struct.unpack(">H", f[o + 6:o + 8])[0] & 0x3FFF:
            return None  # fragment
        l4 = o + ihl
        end = o + struct.unpack(">H", f[o + 2:o + 4])[0]
    elif v == 6 and len(f) >= o + 40:
        proto, src, dst = f[o + 6], f[o + 8:o + 24], f[o + 24:o + 40]
        l4 = o + 40
        end = l4 + struct.unpack(">H", f[o + 4:o + 6])[0]
    else:
        return None
    end = min(end, len(f))
    if proto == 6 and len(f) >= l4 + 20:
        sport, dport, seq = struct.unpack(">HHI", f[l4:l4 + 8])
        hl = (f[l4 + 12] >> 4) * 4
        return 6, src, sport, dst, dport, f[l4 + hl:end], seq, f[l4 + 13]
    if proto == 17 and len(f) >= l4 + 8:
        sport, dport = struct.unpack(">HH", f[l4:l4 + 4])
        return 17, src, sport, dst, dport, f[l4 + 8:end], 0, 0
    return None


def rpc_parse(msg):
    """(xid, msgtype, prog, vers, proc, body offset) or None"""
    try:
        xid, mt = struct.unpack(">II", msg[:8])
        if mt == 0:
            _, prog, vers, proc = struct.unpack(">IIII", msg[8:24])
            off = 24
            for _ in range(2):  # cred, verf
                ln = struct.unpack(">I", msg[off + 4:off + 8])[0]
                off += 8 + (ln + 3) // 4 * 4
            return xid, 0, prog, vers, proc, off
        if mt == 1:
            stat = struct.unpack(">I", msg[8:12])[0]
            if stat != 0:
                return xid, 1, 0, 0, 0, len(msg)
            ln = struct.unpack(">I", msg[16:20])[0]
            return xid, 1, 0, 0, 0, 20 + (ln + 3) // 4 * 4 + 4
    except struct.error:
        return None
    return None


def records(stream):
    out, off, cur = [], 0, b""
    while off + 4 <= len(stream):
        mark = struct.unpack(">I", stream[off:off + 4])[0]
        n = mark & 0x7FFFFFFF
        if off + 4 + n > len(stream):
            break
        cur += stream[off + 4:off + 4 + n]
        off += 4 + n
        if mark & 0x80000000:
            out.append(cur)
            cur = b""
    return out


def xdr_seeds(msgs, calls, put):
    """msgs: RPC messages in order; writes decoder seeds."""
    for m in msgs:
        r = rpc_parse(m)
        if not r:
            continue
        xid, mt, prog, vers, proc, off = r
        put("xdr", bytes([10 + mt, 0, 0, 0]) + m)
        if mt == 0:
            calls[xid] = (prog, vers, proc)
        else:
            prog, vers, proc = calls.get(xid, (0, 0, 0))
        body = m[off:]
        if prog == 100003 and vers == 3:
            which = 0 + mt
        elif prog == 100003 and vers == 4:
            which = 2 + mt
        elif prog == 100005:
            which = 6 + mt
        elif prog >= 0x40000000:
            which = 4 + mt
        else:
            continue
        put("xdr", bytes([which, proc & 255, 0, 0]) + body)
        put("xdr", bytes([which, proc & 255, len(body) // 2 & 255, 2]) + body)


FRAME_SEED_MAX = 60000


def frame_seed(sel, frames):
    """fuzz_frame input: link type index, then (u16 caplen, u16 wire extra,
    u8 time step, bytes) per frame, cut to FRAME_SEED_MAX bytes in all."""
    out = bytes([sel])
    for data, orig in frames:
        if len(out) + 5 + len(data) > FRAME_SEED_MAX:
            data = data[:max(0, FRAME_SEED_MAX - len(out) - 5)]
        extra = min(max(orig - len(data), 0), 0xFFFF)
        out += struct.pack(">HHB", len(data), extra, 0) + data
        if len(out) >= FRAME_SEED_MAX:
            break
    return out


def tcp_payload(lt, f):
    t = transport(lt, f)
    return bool(t and t[0] == 6 and t[5])


def ipv4_frag(ident, off, payload, mf, src=b"\x0a\x00\x00\x01", dst=b"\x0a\x00\x00\x02"):
    frag = (off // 8) | (0x2000 if mf else 0)
    return struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), ident, frag, 64, 17, 0, src, dst) + payload


def ipv6_frag(ident, off, payload, mf):
    src, dst = b"\xfd" + b"\x00" * 14 + b"\x01", b"\xfd" + b"\x00" * 14 + b"\x02"
    fh = struct.pack(">BBHI", 17, 0, off | (1 if mf else 0), ident)
    return struct.pack(">IHBB16s16s", 0x60000000, len(fh) + len(payload), 44, 64, src, dst) + fh + payload


def fragment_train_seeds(rpc):
    """Raw IP (link type 101, index 1) fragment trains of a UDP datagram to
    port 2049: in order, reversed, 64 fragments with half of each captured
    and every other one missing, overlapping, IPv6."""
    rpc = rpc + bytes(2100 - len(rpc)) if len(rpc) < 2100 else rpc  # room for 128 fragments of 16
    dgram = struct.pack(">HHHH", 800, 2049, 8 + len(rpc), 0) + rpc
    seeds = []
    def train(size, make=ipv4_frag):
        out = []
        for off in range(0, len(dgram), size):
            part = dgram[off:off + size]
            out.append((make(0x4242, off, part, off + size < len(dgram)), off))
        return out
    t = train(16)
    seeds.append(frame_seed(1, [(f, len(f)) for f, _ in t]))
    seeds.append(frame_seed(1, [(f, len(f)) for f, _ in reversed(t)]))
    cut = [(f[:20 + 8], len(f)) for i, (f, _) in enumerate(t[:128]) if i % 2 == 0]
    seeds.append(frame_seed(1, cut[:64] + [(t[-1][0], len(t[-1][0]))]))
    over = train(24)
    seeds.append(frame_seed(1, [(f, len(f)) for f, _ in over] + [(f, len(f)) for f, _ in t[::3]]))
    v6 = train(64, ipv6_frag)
    seeds.append(frame_seed(1, [(f, len(f)) for f, _ in v6]))
    seeds.append(frame_seed(1, [(f[:40 + 8 + 8], len(f)) for f, _ in v6[::2]]))
    return seeds


def main():
    samples, outdir = sys.argv[1], sys.argv[2]
    counts = {}

    def put(kind, data):
        d = os.path.join(outdir, kind)
        os.makedirs(d, exist_ok=True)
        i = counts.get(kind, 0)
        counts[kind] = i + 1
        with open(os.path.join(d, "seed-%04d" % i), "wb") as f:
            f.write(data)

    names = sorted(n for n in os.listdir(samples) if n.endswith((".pcap", ".pcapng")))
    first_udp = None
    for name in names:
        lt, pkts, raw = read_capture(os.path.join(samples, name))
        sel = FRAME_LINKTYPES.index(lt) if lt in FRAME_LINKTYPES else 0
        # frames: single frames (the first 24 and every 40th), then sequences:
        # runs of frames as captured, with TCP segments missing (holes), and
        # cut to 200 bytes (snaplen)
        for i, (_, cap, orig, data) in enumerate(pkts):
            if i < 24 or i % 40 == 0:
                put("frame", frame_seed(sel, [(data, orig)]))
        frames = [(data, orig) for _, cap, orig, data in pkts]
        for start in range(0, len(frames), 100):
            put("frame", frame_seed(sel, frames[start:start + 40]))
        holes = [f for i, f in enumerate(frames[:90]) if not (i % 3 == 2 and tcp_payload(lt, f[0]))]
        put("frame", frame_seed(sel, holes))
        put("frame", frame_seed(sel, [(d[:200], o) for d, o in frames[:60]]))
        if first_udp is None:
            first_udp = next((t[5] for t in (transport(lt, d) for d, _ in frames) if t and t[0] == 17 and len(t[5]) > 40), None)
        # whole small captures: the first 12 frames
        if raw[:4] == b"\x0a\x0d\x0d\x0a":
            off, nblk = 0, 0
            endian = "<" if raw[8:12] == b"\x4d\x3c\x2b\x1a" else ">"
            while off + 8 <= len(raw) and nblk < 14:
                off += struct.unpack(endian + "I", raw[off + 4:off + 8])[0]
                nblk += 1
            put("pcap", raw[:off])
        else:
            put("pcap", raw[:24] + b"".join(h + d for h, _, _, d in pkts[:12]))
        # streams: per TCP flow to 2049, client and server bytes in order
        flows, udp_msgs, calls = {}, [], {}
        for _, cap, orig, data in pkts:
            t = transport(lt, data)
            if not t:
                continue
            proto, src, sport, dst, dport, payload, seq, flags = t
            if proto == 17:
                udp_msgs.append(payload)
                continue
            if 2049 not in (sport, dport) or cap < orig:
                continue
            key = (min((src, sport), (dst, dport)), max((src, sport), (dst, dport)))
            d = 0 if dport == 2049 else 1
            fl = flows.setdefault(key, [b"", b"", []])
            if payload:
                fl[2].append((d, len(fl[d]), len(payload)))
                fl[d] += payload
        xdr_seeds(udp_msgs[:20], calls, put)
        for key in sorted(flows)[:3]:
            cs, ss, segs = flows[key]
            xdr_seeds(records(cs)[:12] + records(ss)[:12], calls, put)
            limit = 6000
            cs, ss = cs[:limit], ss[:limit]
            ops = b""
            for d, off, ln in segs:
                if off >= (limit if d == 0 else limit) or len(ops) >= 6 * 255:
                    continue
                ops += struct.pack(">BHHB", 0x20 | d, off, min(ln, limit - off), 255)
            put("stream", bytes([1, len(ops) // 6, len(cs) >> 8, len(cs) & 255]) + ops + cs + ss)
            put("stream", bytes([2, 0, len(cs) >> 8, len(cs) & 255]) + cs + ss)
    for seed in fragment_train_seeds(first_udp or bytes(range(256)) * 4):
        put("frame", seed)
    for k in sorted(counts):
        print("%s: %d seeds" % (k, counts[k]))


if __name__ == "__main__":
    main()
