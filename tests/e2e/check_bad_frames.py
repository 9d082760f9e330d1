#!/usr/bin/env python3
"""One bad frame in a real capture (issue 20): the rest is analysed as if
the frame were good.

    check_bad_frames.py NFSSCOPE OUTDIR SAMPLE.pcap...

For each classic pcap SAMPLE (pcapng ones are skipped), two damaged copies
are written to OUTDIR (the pcap parsed and rewritten with struct, nothing
else changed) and run against the intact file with `nfsscope --format json`:
  late    the middle frame stamped a year late: every operation's count the
          same, its p50 and p99 within 3 % (or 2 us) of the intact run's, the
          same span, timestamp_outliers 1. The frame itself is analysed at
          the clock's time (the frame before it): each transaction's latency
          (--txn-log) is the intact one, but for the transactions that frame
          carries a message of, within the gap to the frame before; the
          operations of those are left out of the percentile check;
  badlen  the first IPv4 frame carrying TCP payload past the middle claims
          1,000 bytes more in its total length than it holds (the header
          checksum recomputed, so only the length lies): at most one RPC
          message (call or reply) fewer than the intact run, and
          ip_length_clamped 1. Samples without such a frame are skipped.
Exit status 1 if any check failed."""
import json
import os
import struct
import subprocess
import sys

YEAR_S = 365 * 86400
LINK_IP_OFFSET = {1: 14, 113: 16, 276: 20, 101: 0, 228: 0, 12: 0, 14: 0}


def read_pcap(path):
    with open(path, "rb") as f:
        b = f.read()
    magic = struct.unpack_from("<I", b, 0)[0]
    if magic in (0xA1B2C3D4, 0xA1B23C4D):
        e = "<"
    elif magic in (0xD4C3B2A1, 0x4D3CB2A1):
        e = ">"
    else:
        return None
    linktype = struct.unpack_from(e + "I", b, 20)[0] & 0xFFFF
    recs, pos = [], 24
    while pos + 16 <= len(b):
        caplen = struct.unpack_from(e + "I", b, pos + 8)[0]
        recs.append((pos, caplen))
        pos += 16 + caplen
    return b, e, linktype, recs


def ip_offset(b, linktype, pos):
    off = LINK_IP_OFFSET.get(linktype)
    if off is None:
        return None
    if linktype == 1:
        et = struct.unpack_from(">H", b, pos + 12)[0]
        while et in (0x8100, 0x88A8) and off < 22:
            et = struct.unpack_from(">H", b, pos + off)[0]
            off += 4
        if et != 0x0800:
            return None
    elif linktype == 113 and struct.unpack_from(">H", b, pos + 14)[0] != 0x0800:
        return None
    elif linktype == 276 and struct.unpack_from(">H", b, pos)[0] != 0x0800:
        return None
    return off


def cksum(h):
    s = sum(struct.unpack("!%dH" % (len(h) // 2), h))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def late(b, e, recs):
    pos, _ = recs[len(recs) // 2]
    d = bytearray(b)
    struct.pack_into(e + "I", d, pos, struct.unpack_from(e + "I", d, pos)[0] + YEAR_S)
    return bytes(d), len(recs) // 2 + 1


def gap_us(b, e, recs, frame):
    """Time between frame (1-based) and the one before, in us (rounded up)."""
    nsec = struct.unpack_from(e + "I", b, 0)[0] in (0xA1B23C4D, 0x4D3CB2A1)
    def ts(i):
        sec, frac = struct.unpack_from(e + "II", b, recs[i][0])
        return sec * 10**9 + frac * (1 if nsec else 1000)
    return -(-(ts(frame - 1) - ts(frame - 2)) // 1000)


def txn_log(nfsscope, path):
    p = subprocess.run([nfsscope, "-r", path, "--txn-log", "-"], capture_output=True, text=True, check=True)
    out = {}
    for line in p.stdout.splitlines():
        t = json.loads(line)
        out[(t["conn"], t["xid"], t["call_frame"])] = t
    return out


def badlen(b, e, linktype, recs):
    for i in range(len(recs) // 2, len(recs)):
        pos, caplen = recs[i]
        data = pos + 16
        off = ip_offset(b, linktype, data)
        if off is None or caplen < off + 20 or b[data + off] >> 4 != 4:
            continue
        ip = data + off
        ihl = (b[ip] & 15) * 4
        total = struct.unpack_from(">H", b, ip + 2)[0]
        if b[ip + 9] != 6 or caplen < off + ihl + 20 or total > caplen - off:
            continue
        tcp_hl = (b[ip + ihl + 12] >> 4) * 4
        if total - ihl - tcp_hl <= 0:
            continue
        d = bytearray(b)
        struct.pack_into(">H", d, ip + 2, total + 1000)
        struct.pack_into(">H", d, ip + 10, 0)
        struct.pack_into(">H", d, ip + 10, cksum(bytes(d[ip:ip + ihl])))
        return bytes(d), i + 1
    return None, None


def report(nfsscope, path):
    p = subprocess.run([nfsscope, "-r", path, "--format", "json"], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (path, p.returncode, p.stderr.strip()[-200:]))
    return json.loads(p.stdout)


def ops(r):
    return {(o["name"], o["version"]): o for o in r["ops"]}


def close(a, b):
    if a is None or b is None:
        return a == b
    return abs(a - b) <= max(2, 0.03 * max(a, b))


def check_late(intact, bad, ti, tb, frame, gap):
    errs = []
    touched = set()
    for k, t in ti.items():
        mine = frame in (t["call_frame"], t["reply_frame"]) or frame in t["send_frames"]
        if mine:
            touched.update(t["ops"] or ())
        u = tb.get(k)
        if not u:
            errs.append("%s xid 0x%08x: transaction missing" % (k[0], k[1]))
            continue
        a, b = t["latency_us"], u["latency_us"]
        if (a is None) != (b is None) or (a is not None and (b < 0 or abs(a - b) > (gap + 1 if mine else 0))):
            errs.append("%s xid 0x%08x: latency %s us, intact %s us%s" % (k[0], k[1], b, a,
                        " (the frame's own, gap %d us)" % gap if mine else ""))
    oi, ob = ops(intact), ops(bad)
    for k, o in oi.items():
        p = ob.get(k)
        if not p or p["count"] != o["count"]:
            errs.append("%s v%d: count %s, intact %d" % (k[0], k[1], p and p["count"], o["count"]))
            continue
        if k[0] in touched:
            continue
        for q in ("p50_us", "p99_us"):
            if not close(p[q], o[q]):
                errs.append("%s v%d: %s %s, intact %s" % (k[0], k[1], q, p[q], o[q]))
    if abs(bad["capture"]["duration_s"] - intact["capture"]["duration_s"]) > 1e-6:
        errs.append("span %s s, intact %s s" % (bad["capture"]["duration_s"], intact["capture"]["duration_s"]))
    if bad["not_analysed"].get("timestamp_outliers") != 1:
        errs.append("timestamp_outliers %s, want 1" % bad["not_analysed"].get("timestamp_outliers"))
    return errs


def check_badlen(intact, bad):
    errs = []
    msgs = lambda r: r["rpc"]["calls"] + r["rpc"]["replies"]  # noqa: E731
    lost = msgs(intact) - msgs(bad)
    if lost > 1:
        errs.append("%d RPC messages lost (calls %d/%d, replies %d/%d)" % (
            lost, bad["rpc"]["calls"], intact["rpc"]["calls"], bad["rpc"]["replies"], intact["rpc"]["replies"]))
    if bad["not_analysed"].get("ip_length_clamped") != 1:
        errs.append("ip_length_clamped %s, want 1" % bad["not_analysed"].get("ip_length_clamped"))
    return errs


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    nfsscope, outdir, samples = argv[1], argv[2], argv[3:]
    os.makedirs(outdir, exist_ok=True)
    bad_runs = checked = 0
    for s in samples:
        name = os.path.splitext(os.path.basename(s))[0]
        pc = read_pcap(s)
        if not pc:
            print("skip %s: not a classic pcap" % name)
            continue
        b, e, linktype, recs = pc
        if len(recs) < 3:
            continue
        intact = report(nfsscope, s)
        for fault in ("late", "badlen"):
            data, frame = late(b, e, recs) if fault == "late" else badlen(b, e, linktype, recs)
            if data is None:
                print("skip %s %s: no IPv4 frame with TCP payload past the middle" % (name, fault))
                continue
            path = os.path.join(outdir, "%s-%s.pcap" % (name, fault))
            with open(path, "wb") as f:
                f.write(data)
            r = report(nfsscope, path)
            if fault == "late":
                errs = check_late(intact, r, txn_log(nfsscope, s), txn_log(nfsscope, path), frame,
                                  gap_us(b, e, recs, frame))
            else:
                errs = check_badlen(intact, r)
            checked += 1
            bad_runs += bool(errs)
            print("%s %s %s (frame %d)" % ("FAIL" if errs else "ok  ", name, fault, frame))
            for x in errs[:10]:
                print("  " + x)
    if not checked:
        print("nothing checked")
        return 1
    return 1 if bad_runs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
