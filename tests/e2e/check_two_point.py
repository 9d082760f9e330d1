#!/usr/bin/env python3
"""Two captures of the same traffic (issue 26): nfsscope -r CLIENT --peer SERVER
against the truth the test makes and against tshark.

    check_two_point.py NFSSCOPE CLIENT.pcap SERVER.pcap [--jump | --cut | --delay]

The pair was recorded on one machine (samples/lab/record-two-point.sh): both
captures were stamped by the same clock, so the true offset is 0. The test
moves the server capture's clock by a known shift (editcap -t) and stretches
it by a known drift (its timestamps rewritten below, in nanoseconds, around
its first frame), for several (shift, drift) pairs; for each:
  - the true offset at the client capture's start, shift + drift * (client
    start - server start), lies within offset_bounds_us, and the estimate
    within them; the true drift within drift_bounds_ppm, the estimate too;
  - lost_between, only_client.frames and only_server.frames equal what the
    two captures' own frame lists say (tshark: each TCP segment by source,
    destination, tcp.seq_raw and tcp.len, counted per capture; a segment
    more often in one capture than in the other is there only; lost between
    when sent by the side whose capture holds it);
  - every transaction's server_us in the txn log is tshark's rpc.time of
    that reply in the server capture (whole microseconds), and network_us is
    the client capture's rpc.time minus it (within the 1 us of truncation).
--jump: the server capture's clock jumps 0.5 s forward halfway through
instead: no offset line, clock_jump true, TWO_POINT_CLOCK_JUMP.
--cut (a pair without loss): the server capture keeps its first 60% of
frames (editcap -r): every frame and call only in the client capture is
outside the server capture's span, none lost between or unexplained, and
the frames are as many as the frame lists say.
--delay (a pair without loss): 5 ms is added before every reply burst in the
client capture only (the network took 5 ms more: every operation with 5 or
more split transactions gets TWO_POINT_NETWORK_TIME and a network p50 of 5 ms
or more; the client's clock now jumps at each burst, so no offset line fits),
then in both captures (the server took 5 ms more: TWO_POINT_SERVER_TIME
instead, server p50 >= 5 ms); the pair as recorded (microseconds apart) gets
neither.
Exit status: 0 all agree, 1 a difference, 2 a tool failed, 77 no tshark/editcap.
"""
import collections
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

SERVER_PORTS = {2049, 111, 20048}
CASES = [(0.0, 0.0), (3600.123456, 0.0), (-2.5, 150e-6), (0.75, -80e-6)]


class ToolError(Exception):
    pass


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    if p.returncode not in (0, 2):
        raise ToolError("%s failed (rc %d): %s" % (cmd[0], p.returncode, p.stderr.decode()[-500:]))
    return p.stdout.decode()


def read_pcap(path):
    """(header fields, [(ts_ns, record bytes without header)]) of a classic pcap."""
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    if magic == 0xa1b2c3d4:
        scale = 1000
    elif magic == 0xa1b23c4d:
        scale = 1
    else:
        raise ToolError("%s: not a little-endian classic pcap" % path)
    _, vmaj, vmin, _, _, snap, link = struct.unpack("<IHHiIII", data[:24])
    out, off = [], 24
    while off + 16 <= len(data):
        sec, frac, incl, orig = struct.unpack("<IIII", data[off:off + 16])
        out.append((sec * 10**9 + frac * scale, orig, data[off + 16:off + 16 + incl]))
        off += 16 + incl
    return (snap, link), out


def write_pcap_ns(path, hdr, recs):
    snap, link = hdr
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b23c4d, 2, 4, 0, 0, snap, link))
        for ts, orig, b in recs:
            f.write(struct.pack("<IIII", ts // 10**9, ts % 10**9, len(b), orig))
            f.write(b)


def stretch(src, dst, drift):
    """t -> t0 + (t - t0) * (1 + drift), t0 the first frame's time, to the ns."""
    hdr, recs = read_pcap(src)
    t0 = recs[0][0]
    write_pcap_ns(dst, hdr, [(t0 + (t - t0) + round((t - t0) * drift), o, b) for t, o, b in recs])
    return t0


def jump(src, dst, step_ns):
    hdr, recs = read_pcap(src)
    half = len(recs) // 2
    write_pcap_ns(dst, hdr, [(t + (step_ns if i >= half else 0), o, b) for i, (t, o, b) in enumerate(recs)])


def first_ts(path):
    return read_pcap(path)[1][0][0]


def segments(tshark, path):
    out = run([tshark, "-r", path, "-n", "-Y", "tcp", "-T", "fields", "-E", "separator=/t",
               "-e", "ip.src", "-e", "tcp.srcport", "-e", "ip.dst", "-e", "tcp.dstport",
               "-e", "tcp.seq_raw", "-e", "tcp.len"])
    c = collections.Counter()
    for line in out.splitlines():
        if line.strip():
            c[tuple(line.split("\t"))] += 1
    return c


def expected_frames(tshark, client, server):
    sc, ss = segments(tshark, client), segments(tshark, server)
    e = dict(only_client=0, only_server=0, to_server=0, to_client=0)
    for k in set(sc) | set(ss):
        from_client = int(k[3]) in SERVER_PORTS
        d = sc.get(k, 0) - ss.get(k, 0)
        if d > 0:
            e["only_client"] += d
            e["to_server"] += d if from_client else 0
        elif d < 0:
            e["only_server"] += -d
            e["to_client"] += -d if not from_client else 0
    return e


def rpc_times(tshark, path):
    """{(client port, xid): rpc.time in ns} of the replies of a capture."""
    out = run([tshark, "-r", path, "-n", "-Y", "rpc.msgtyp == 1 && rpc.time", "-T", "fields",
               "-E", "separator=/t", "-e", "tcp.dstport", "-e", "rpc.xid", "-e", "rpc.time"])
    t = {}
    for line in out.splitlines():
        if not line.strip():
            continue
        port, xids, times = line.split("\t")
        for x, s in zip(xids.split(","), times.split(",")):
            t[(int(port), int(x, 16) if x.startswith("0x") else int(x))] = round(float(s) * 1e9)
    return t


def nfsscope(exe, client, server, tmp):
    log = os.path.join(tmp, "txn.jsonl")
    js = run([exe, "-r", client, "--peer", server, "--format", "json", "--txn-log", log, "-o",
              os.path.join(tmp, "report.json")])
    del js
    with open(os.path.join(tmp, "report.json")) as f:
        rep = json.load(f)
    with open(log) as f:
        txns = [json.loads(line) for line in f if line.strip()]
    return rep["two_point"], txns


def check_case(exe, tshark, client, server, shift, drift, tmp, fail):
    name = "shift %+.6f s drift %+.0f ppm" % (shift, drift * 1e6)
    shifted = os.path.join(tmp, "shifted.pcap")
    moved = os.path.join(tmp, "server-moved.pcap")
    run(["editcap", "-F", "pcap", "-t", "%.6f" % shift, server, shifted])
    s0 = stretch(shifted, moved, drift)
    c0 = first_ts(client)
    tp, txns = nfsscope(exe, client, moved, tmp)
    # the truth: server' = server + shift + drift * (server + shift - s0), server = client
    true_off_us = (shift * 1e9 + drift * (c0 + shift * 1e9 - s0)) / 1000.0
    lo, hi = tp["offset_bounds_us"]
    if not (lo <= true_off_us <= hi):
        fail("%s: true offset %.3f us outside the bounds [%.3f, %.3f]" % (name, true_off_us, lo, hi))
    if not (lo <= tp["offset_us"] <= hi):
        fail("%s: estimate %.3f us outside its bounds [%.3f, %.3f]" % (name, tp["offset_us"], lo, hi))
    dlo, dhi = tp["drift_bounds_ppm"]
    dlo = -1e9 if dlo is None else dlo
    dhi = 1e9 if dhi is None else dhi
    if not (dlo <= drift * 1e6 <= dhi) or not (dlo <= tp["drift_ppm"] <= dhi):
        fail("%s: drift %.3f ppm (estimate %.3f) vs bounds [%s, %s]" % (name, drift * 1e6, tp["drift_ppm"], dlo, dhi))
    e = expected_frames(tshark, client, moved)
    got = dict(only_client=tp["only_client"]["frames"], only_server=tp["only_server"]["frames"],
               to_server=tp["lost_between"]["to_server"], to_client=tp["lost_between"]["to_client"])
    if got != e:
        fail("%s: frames %s, the captures' frame lists say %s" % (name, got, e))
    srv, cli = rpc_times(tshark, moved), rpc_times(tshark, client)
    checked = 0
    for t in txns:
        if t["server_us"] is None:
            continue
        port = int(t["client"].rsplit(":", 1)[1])
        key = (port, t["xid"])
        if key not in srv or key not in cli:
            fail("%s: xid %#x on port %d: tshark has no rpc.time" % (name, t["xid"], port))
            continue
        if t["server_us"] != srv[key] // 1000:
            fail("%s: xid %#x server_us %d, tshark's rpc.time in the server capture %d ns"
                 % (name, t["xid"], t["server_us"], srv[key]))
        if abs(t["network_us"] - (cli[key] - srv[key]) / 1000.0) > 1:
            fail("%s: xid %#x network_us %d, tshark %.3f us" % (name, t["xid"], t["network_us"],
                                                                (cli[key] - srv[key]) / 1000.0))
        checked += 1
    if checked != tp["split_calls"] or not checked:
        fail("%s: %d transactions split in the log, %d in the report" % (name, checked, tp["split_calls"]))
    print("%s: offset %.3f us in [%.3f, %.3f] (true %.3f), drift %.3f ppm in [%s, %s]; frames %s; %d server times"
          % (name, tp["offset_us"], lo, hi, true_off_us, tp["drift_ppm"], tp["drift_bounds_ppm"][0],
             tp["drift_bounds_ppm"][1], got, checked))


def check_jump(exe, client, server, tmp, fail):
    moved = os.path.join(tmp, "server-jump.pcap")
    jump(server, moved, 500 * 10**6)
    tp, _ = nfsscope(exe, client, moved, tmp)
    if tp["offset_us"] is not None or not tp["clock_jump"]:
        fail("jump: offset %s, clock_jump %s" % (tp["offset_us"], tp["clock_jump"]))
    if not any(f["kind"] == "TWO_POINT_CLOCK_JUMP" for f in tp["findings"]):
        fail("jump: no TWO_POINT_CLOCK_JUMP finding: %s" % tp["findings"])
    print("jump: clock_jump %s at %s, findings %s" % (tp["clock_jump"], tp["clock_jump_at"],
                                                      [f["kind"] for f in tp["findings"]]))


def check_cut(exe, tshark, client, server, tmp, fail):
    n = len(read_pcap(server)[1])
    cut = os.path.join(tmp, "server-cut.pcap")
    run(["editcap", "-F", "pcap", "-r", server, cut, "1-%d" % (n * 6 // 10)])
    tp, _ = nfsscope(exe, client, cut, tmp)
    oc = tp["only_client"]
    e = expected_frames(tshark, client, cut)
    if oc["frames"] != e["only_client"] or oc["frames_outside_span"] != oc["frames"] or not oc["frames"]:
        fail("cut: only_client %s, the frame lists say %d" % (oc, e["only_client"]))
    if oc["calls"] != tp["client_calls"] - tp["matched_calls"] or oc["calls_outside_span"] != oc["calls"]:
        fail("cut: only_client calls %s of %d, %d matched" % (oc, tp["client_calls"], tp["matched_calls"]))
    if tp["lost_between"]["to_server"] or tp["lost_between"]["to_client"]:
        fail("cut: frames lost between %s" % tp["lost_between"])
    print("cut: %d of %d calls matched; only in the client capture %s" % (tp["matched_calls"], tp["client_calls"], oc))


def delay_server_frames(src, dst, d_ns):
    """Time stretched by d_ns before each burst of data frames a server port
    sends (a frame with TCP payload from a server port whose previous frame
    was not one): every reply arrives d_ns later than it would have, and the
    frames keep their order (so TCP stays whole)."""
    hdr, recs = read_pcap(src)
    out, shift, prev = [], 0, False
    for t, o, b in recs:
        ihl = (b[14] & 15) * 4
        tot = struct.unpack(">H", b[16:18])[0]
        sport = struct.unpack(">H", b[14 + ihl:16 + ihl])[0]
        payload = tot - ihl - (b[14 + ihl + 12] >> 4) * 4
        data = sport in SERVER_PORTS and payload > 0
        if data and not prev:
            shift += d_ns
        prev = data
        out.append((t + shift, o, b))
    write_pcap_ns(dst, hdr, out)


def time_findings(tp):
    return {(f["kind"], f["program"], f["version"], f["op"]) for f in tp["findings"]
            if f["kind"] in ("TWO_POINT_NETWORK_TIME", "TWO_POINT_SERVER_TIME")}


def check_delay(exe, client, server, tmp, fail):
    d = 5 * 10**6
    tp0, _ = nfsscope(exe, client, server, tmp)
    if time_findings(tp0):
        fail("delay: the pair as recorded has %s" % time_findings(tp0))
    busy = {(o["program"], o["version"], o["op"]) for o in tp0["ops"]
            if o["client_us"]["p50"] is not None and o["count"] >= 5}
    if not busy:
        fail("delay: no operation with 5 split transactions")
    late_c = os.path.join(tmp, "client-late.pcap")
    late_s = os.path.join(tmp, "server-late.pcap")
    delay_server_frames(client, late_c, d)
    delay_server_frames(server, late_s, d)
    for name, srv, kind, part in (("network", server, "TWO_POINT_NETWORK_TIME", "network_us"),
                                  ("server", late_s, "TWO_POINT_SERVER_TIME", "server_us")):
        tp, _ = nfsscope(exe, late_c, srv, tmp)
        want = {(kind,) + op for op in busy}
        if time_findings(tp) != want:
            fail("delay %s: findings %s, expected %s" % (name, sorted(time_findings(tp)), sorted(want)))
        for o in tp["ops"]:
            if (o["program"], o["version"], o["op"]) in busy and (o[part]["p50"] or 0) < d / 1000:
                fail("delay %s: %s %s p50 %.3f us < 5 ms" % (name, o["op"], part, o[part]["p50"]))
        print("delay %s: %s" % (name, sorted(time_findings(tp))))


def main():
    args = sys.argv[1:]
    want_jump = "--jump" in args
    want_cut = "--cut" in args
    want_delay = "--delay" in args
    args = [a for a in args if a not in ("--jump", "--cut", "--delay")]
    if len(args) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    exe, client, server = args
    tshark = shutil.which("tshark")
    if not tshark or not shutil.which("editcap"):
        print("tshark or editcap not installed", file=sys.stderr)
        return 77
    failures = []

    def fail(msg):
        failures.append(msg)
        print("FAIL: " + msg, file=sys.stderr)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            if want_jump:
                check_jump(exe, client, server, tmp, fail)
            elif want_delay:
                check_delay(exe, client, server, tmp, fail)
            elif want_cut:
                check_cut(exe, tshark, client, server, tmp, fail)
            else:
                for shift, drift in CASES:
                    check_case(exe, tshark, client, server, shift, drift, tmp, fail)
    except ToolError as e:
        print(str(e), file=sys.stderr)
        return 2
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
