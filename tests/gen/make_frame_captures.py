#!/usr/bin/python3
"""Hand-made captures with one damaged frame (issue 20: one bad frame must
not poison the rest), with their expected transaction logs.

    make_frame_captures.py OUTDIR [NAME...]   write all (or the named) captures
    make_frame_captures.py --list             print the capture names
    make_frame_captures.py --same-as OUTDIR   determinism

Same files and rules as make_edge_captures.py (whose workloads and helpers
it uses; see README.md): NAME.pcap, NAME.expected.jsonl (derived from what
was written), NAME.meta.json. Besides "counters" (tests/e2e/check_counters.py),
meta "time" gives tests/e2e/check_time_faults.py the reference capture whose
latencies must be kept, the frames allowed to differ and the expected span;
"tshark_errors_ok" the tshark expert errors the damage itself raises
(tests/gen/check_tshark_clean.py).
"""
import os
import struct
import sys

sys.dont_write_bytecode = True          # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from make_edge_captures import C4, S4, C6, S6, Xids, pattern, v3_mix  # noqa: E402
from netbuild import Capture, TcpConnection, UdpFlow, SYN, PSH, ACK, inet_cksum  # noqa: E402
from pcapwriter import Record                                # noqa: E402
from scenario import Expect, FrameRef, RpcTcp, RpcUdp, generator_main  # noqa: E402

SCENARIOS = {}


def scenario(fn):
    SCENARIOS[fn.__name__] = fn
    return fn


YEAR_NS = 365 * 86400 * 10**9


def _retime(cap, frame, ts_ns):
    """Stamp one captured frame with another time (a damaged capture)."""
    cap.writer.records[frame - 1].ts_ns = ts_ns


def _relength(cap, frame, extra):
    """Make one Ethernet frame's IPv4 total length (header checksum
    recomputed: only the length lies) or IPv6 payload length claim extra
    bytes more than the frame holds."""
    r = cap.writer.records[frame - 1]
    d = bytearray(r.data)
    ip = 14
    if d[ip] >> 4 == 4:
        ihl = (d[ip] & 15) * 4
        struct.pack_into("!H", d, ip + 2, struct.unpack_from("!H", d, ip + 2)[0] + extra)
        struct.pack_into("!H", d, ip + 10, 0)
        struct.pack_into("!H", d, ip + 10, inet_cksum(bytes(d[ip:ip + ihl])))
    else:
        struct.pack_into("!H", d, ip + 4, struct.unpack_from("!H", d, ip + 4)[0] + extra)
    r.data = bytes(d)
    r.caplen = len(r.data)


def _time_workload(cap, exp, x, port, rounds=3, between=None):
    """NFSv3 exchanges on one connection; between(i) runs before round i.
    Returns the TcpConnection and the frame numbers of each reply."""
    c = TcpConnection(cap, C4, port, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    replies = []
    for i in range(rounds):
        if between:
            between(i)
        for call, rep in v3_mix(x):
            t = rt.exchange(call, rep)
            replies.append(t.reply_refs[0].frame())
            c.ack(0)
    c.close()
    return c, replies


def _time_meta(exp, ref, tolerant, span_ns):
    exp.meta["time"] = {"same_latency_as": ref, "tolerant_frames": sorted(tolerant), "span_us": span_ns // 1000}


@scenario
def ts_reference(out):
    """The traffic of ts_year_late, ts_1970 and ts_clock_jump with good
    timestamps: their latencies are compared with this capture's
    (tests/e2e/check_time_faults.py)."""
    cap = Capture()
    exp = Expect(cap)
    _time_workload(cap, exp, Xids(0x6000), 40060)
    return exp


@scenario
def ts_year_late(out):
    """ts_reference with one reply frame stamped a year late (issue 20):
    the frame is analysed at the clock's time, the clock does not move, so
    every other latency and the capture's span are the reference's; counted
    in timestamp_outliers (before: every later latency 0, span one year)."""
    cap = Capture()
    exp = Expect(cap)
    _, replies = _time_workload(cap, exp, Xids(0x6000), 40060)
    f = replies[len(replies) // 2]
    _retime(cap, f, cap.writer.records[f - 1].ts_ns + YEAR_NS)
    recs = cap.writer.records
    _time_meta(exp, "ts_reference", [f], recs[-1].ts_ns - recs[0].ts_ns)
    exp.meta["counters"] = {"timestamp_outliers": 1, "timestamp_backwards": 0}
    return exp


@scenario
def ts_1970(out):
    """ts_reference with one call frame stamped in 1970: an outlier too
    (counted, out of the span), the clock not moved back."""
    cap = Capture()
    exp = Expect(cap)
    _time_workload(cap, exp, Xids(0x6000), 40060)
    f = exp.txns[len(exp.txns) // 3].call_refs[0].frame()
    _retime(cap, f, 86400 * 10**9)
    recs = cap.writer.records
    _time_meta(exp, "ts_reference", [f], recs[-1].ts_ns - recs[0].ts_ns)
    exp.meta["counters"] = {"timestamp_outliers": 1, "timestamp_backwards": 0}
    return exp


@scenario
def ts_clock_jump(out):
    """ts_reference's traffic with two real jumps of the capture's clock:
    a pause of two hours, later the clock stepped back an hour (every later
    frame consistent with the new time). Both are accepted after a few
    frames agree (no outlier counted); the latencies stay the reference's
    (the frames right after each jump, analysed before it is confirmed, may
    be off by a packet step); the span counts the time that passed (before:
    the step back froze the clock, every later latency 0)."""
    cap = Capture()
    exp = Expect(cap)
    marks = []

    def between(i):
        if i == 1:
            cap.tick(2 * 3600 * 10**9)
        elif i == 2:
            cap.tick(-3600 * 10**9)
        if i:
            marks.append(cap.nframes + 1)
    _time_workload(cap, exp, Xids(0x6000), 40060, between=between)
    recs = cap.writer.records
    span = sum(max(0, b.ts_ns - a.ts_ns) for a, b in zip(recs, recs[1:]))
    # the first frames after each jump wait for confirmation at the old time
    tolerant = [m + k for m in marks for k in range(4)]
    _time_meta(exp, "ts_reference", tolerant, span - 3 * cap.step_ns)
    exp.meta["counters"] = {"timestamp_outliers": 0, "timestamp_backwards": 0}
    return exp


@scenario
def ts_reordered(out):
    """Frames swapped with a neighbour, each keeping its own timestamp (a
    multi-queue NIC): small steps back, counted in timestamp_backwards and
    taken at the clock's time, no outlier, every transaction matched."""
    cap = Capture()
    exp = Expect(cap)
    _, replies = _time_workload(cap, exp, Xids(0x6100), 40061, rounds=1)
    recs = cap.writer.records
    n = 0
    for f in replies[2:5]:
        a, b = recs[f - 2], recs[f - 1]   # the frame before the reply and the reply
        a.ts_ns, b.ts_ns = b.ts_ns, a.ts_ns
        n += 1
    exp.meta["counters"] = {"timestamp_outliers": 0, "timestamp_backwards": n}
    return exp


def _ip_len_workload(cap, exp, x, caddr, saddr, port, bad_reply):
    c = TcpConnection(cap, caddr, port, saddr)
    rt = RpcTcp(exp, c)
    c.handshake()
    pairs = v3_mix(x)
    bad = None
    for i, (call, rep) in enumerate(pairs):
        t = rt.exchange(call, rep)
        if i == bad_reply:
            bad = t.reply_refs[0].frame()
        c.ack(0)
    c.close()
    _relength(cap, bad, 1000)
    return bad


@scenario
def ip_len_v4(out):
    """One IPv4 frame (a reply in one segment) whose total length claims
    1,000 bytes more than the frame holds (header checksum right): the
    length is clamped to the frame's, nothing is lost, ip_length_clamped 1
    (before: 1,000 bytes taken as cut by the snaplen, the stream pushed
    ahead, the next replies lost)."""
    cap = Capture()
    exp = Expect(cap)
    _ip_len_workload(cap, exp, Xids(0x6200), C4, S4, 40062, 4)
    exp.meta["damaged"] = True                 # tshark: IP length beyond the frame
    exp.meta["tshark_errors_ok"] = ["IPv4 total length exceeds packet length"]
    exp.meta["counters"] = {"ip_length_clamped": 1, "udp_length_bad": 0}
    return exp


@scenario
def ip_len_v6(out):
    """ip_len_v4 over IPv6: the payload length claims 1,000 bytes more."""
    cap = Capture()
    exp = Expect(cap)
    _ip_len_workload(cap, exp, Xids(0x6300), C6, S6, 40063, 4)
    exp.meta["damaged"] = True
    exp.meta["tshark_errors_ok"] = ["IPv6 payload length exceeds framing length"]
    exp.meta["counters"] = {"ip_length_clamped": 1, "udp_length_bad": 0}
    return exp


@scenario
def udp_len_trailer(out):
    """UDP datagrams whose IP payload holds bytes after the UDP length (a
    trailer): the message ends at the UDP length; one whose UDP length
    claims 100 bytes more than the IP payload: clamped to it. Both counted
    in udp_length_bad; Ethernet padding of short frames (past the IP length)
    is not. Every call is matched with its reply."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x6400)
    u = UdpFlow(cap, C4, 40064, S4)
    ru = RpcUdp(exp, u)
    pairs = v3_mix(x)
    # NULL call: a 40-byte message, its frame padded to Ethernet's 60 bytes
    ru.exchange(*pairs[0])
    for i, (call, rep) in enumerate(pairs[1:6]):
        t = ru.call(call)
        if i == 1:
            _udp_trailer(cap, cap.nframes, b"\x00\x00\x00\x02trailer!")
        f = ru.reply(t, rep)
        if i == 3:
            _udp_trailer(cap, f, b"\x80\x00\x00\x20" * 4)
        if i == 4:
            _udp_claim(cap, f, 100)
    exp.meta["damaged"] = True                 # tshark: UDP length != IP payload
    exp.meta["tshark_errors_ok"] = ["Bad length value"]
    exp.meta["counters"] = {"udp_length_bad": 3, "ip_length_clamped": 0}
    return exp


def _udp_rewrite(cap, frame, fn):
    """Rebuild one Ethernet/IPv4/UDP frame: fn(udp bytes) -> (udp bytes)."""
    r = cap.writer.records[frame - 1]
    d = bytes(r.data)
    ihl = (d[14] & 15) * 4
    ip = bytearray(d[14:14 + ihl])
    udp = fn(d[14 + ihl:14 + struct.unpack_from("!H", ip, 2)[0]])
    struct.pack_into("!H", ip, 2, ihl + len(udp))
    struct.pack_into("!H", ip, 10, 0)
    struct.pack_into("!H", ip, 10, inet_cksum(bytes(ip)))
    r.data = d[:14] + bytes(ip) + udp
    r.caplen = len(r.data)


def _udp_trailer(cap, frame, trailer):
    """Bytes after the UDP datagram inside the IP payload (UDP length and
    checksum unchanged: the checksum covers the UDP length only)."""
    _udp_rewrite(cap, frame, lambda u: u + trailer)


def _udp_claim(cap, frame, extra):
    """A UDP length claiming extra bytes more than the IP payload."""
    def fn(u):
        u = bytearray(u)
        struct.pack_into("!H", u, 4, struct.unpack_from("!H", u, 4)[0] + extra)
        struct.pack_into("!H", u, 6, 0)   # no checksum (IPv4): tshark cannot check it
        return bytes(u)
    _udp_rewrite(cap, frame, fn)


@scenario
def tcp_syn_data_ipv6(out):
    """Over IPv6, inside an established connection, a SYN carrying data at
    the sequence number of the server's segment before it: that segment's
    payload again plus 6 bytes (as in a real capture). Counted in
    tcp_syn_ignored, and ignored: the next reply, at the right sequence
    number, is matched (before: the SYN's extra bytes were taken as the
    stream's, the next reply's record mark was lost)."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x6500)
    c = TcpConnection(cap, C6, 40065, S6)
    rt = RpcTcp(exp, c)
    c.handshake()
    pairs = v3_mix(x)
    for call, rep in pairs[:4]:
        rt.exchange(call, rep)
        c.ack(0)
    s = c.stream(1)
    frame, off, end = s.segs[-1]
    c._packet(1, s.seq(off), c._ack_for(1), SYN | PSH | ACK, bytes(s.buf[off:end]) + pattern(6, 9))
    for call, rep in pairs[4:8]:
        rt.exchange(call, rep)
        c.ack(0)
    c.close()
    exp.meta["tshark_compare"] = False          # tshark takes the SYN as a new stream
    exp.meta["counters"] = {"tcp_syn_ignored": 1}
    return exp


def _capture_twice(cap, exp=None, xid=None, kind=None, dt_ns=3000):
    """The last frame captured again right after it (tcpdump -i any sees a
    packet on two interfaces; a mirror port): the same bytes, dt_ns later.
    A UDP copy is an RPC message to tshark (xid, kind: noted as such)."""
    r = cap.writer.records[-1]
    cap.writer.records.append(Record(r.ts_ns + dt_ns, r.data, r.caplen))
    if exp is not None:
        exp.note_msg(FrameRef(cap.nframes), xid, kind)


@scenario
def frames_captured_twice(out):
    """Frames captured twice in a row (the same IP packet 3 us apart): a UDP
    call, a UDP reply, a TCP call segment. Each copy is skipped and counted
    in frames_duplicate: the call was sent once (sends 1), no duplicate
    reply (before: the copied call counted as an RPC retransmission, the
    copied reply as a duplicate reply). A real UDP retransmission, a second
    later with a new IP ID, is still one (sends 2)."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x6900)
    u = UdpFlow(cap, C4, 40070, S4)
    ru = RpcUdp(exp, u)
    pairs = v3_mix(x)
    ru.exchange(*pairs[0])
    t = ru.call(pairs[1][0])
    _capture_twice(cap, exp, t.xid, "call")
    ru.reply(t, pairs[1][1])
    t = ru.call(pairs[2][0])
    ru.reply(t, pairs[2][1])
    _capture_twice(cap, exp, t.xid, "reply")
    t = ru.call(pairs[3][0])
    cap.tick(10**9)
    ru.resend(t)
    ru.reply(t, pairs[3][1])
    c = TcpConnection(cap, C4, 40071, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    for i, (call, rep) in enumerate(pairs[4:8]):
        t = rt.call(call)
        c.flush(0)
        if i == 1:
            _capture_twice(cap)
        rt.reply(t, rep)
        c.flush(1)
        c.ack(0)
    c.close()
    exp.meta["frames"] = cap.nframes
    exp.meta["counters"] = {"frames_duplicate": 3, "tcp_retransmitted_segments": 0}
    return exp


def _swap_frames(cap, conns, firsts):
    """Swap captured frames f and f+1 for each f in firsts, each keeping its
    own timestamp (a multi-queue NIC, tcpdump -i any): the records trade
    places, and the frame numbers the expectations are derived from (the
    TCP streams' segments) follow them."""
    recs = cap.writer.records
    move = {}
    for f in firsts:
        recs[f - 1], recs[f] = recs[f], recs[f - 1]
        move[f], move[f + 1] = f + 1, f
    for c in conns:
        for st in c.streams:
            st.segs = sorted(((move.get(fr, fr), a, b) for fr, a, b in st.segs), key=lambda x: x[0])
            st.cut = {move.get(fr, fr): v for fr, v in st.cut.items()}


def _close_workload(cap, exp, x, port, n=4):
    c = TcpConnection(cap, C4, port, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    pairs = v3_mix(x)
    for call, rep in pairs[:n]:
        rt.exchange(call, rep)
        c.ack(0)
    return c, rt, pairs[n]


@scenario
def tcp_rst_before_reply(out):
    """The client resets the connection right after the server sent its
    last reply, and the capture has the RST first (the two frames swapped,
    each keeping its timestamp, as in a real twin capture): the reply, which
    continues the server's stream, is still taken (before: the RST closed
    and released the flow, the reply was dropped and its call left
    unmatched)."""
    cap = Capture()
    exp = Expect(cap)
    c, rt, (call, rep) = _close_workload(cap, exp, Xids(0x6600), 40066)
    t = rt.exchange(call, rep)
    rst = c.rst(0)
    assert t.reply_refs[0].frame() == rst - 1
    _swap_frames(cap, [c], [rst - 1])
    exp.meta["counters"] = {"tcp_rst_ignored": 0, "messages_lost": 0}
    return exp


@scenario
def tcp_fin_before_reply(out):
    """The client half-closes with a call outstanding (FIN after its call);
    the server's reply and its FIN follow, captured FIN first: both FINs
    seen close the flow, and the reply after them, continuing the server's
    stream, is still taken (before: dropped, its call unmatched)."""
    cap = Capture()
    exp = Expect(cap)
    c, rt, (call, rep) = _close_workload(cap, exp, Xids(0x6700), 40067)
    t = rt.call(call)
    c.flush(0)
    c.fin(0)
    rt.reply(t, rep)
    c.flush(1)
    fin = c.fin(1)
    c.ack(0)
    assert t.reply_refs[0].frame() == fin - 1
    _swap_frames(cap, [c], [fin - 1])
    exp.meta["counters"] = {"messages_lost": 0}
    return exp


@scenario
def tcp_reply_before_call(out):
    """Calls and their replies captured reply first (neighbouring frames
    swapped, each keeping its timestamp: a multi-queue NIC), over IPv4 and
    IPv6, one of them the connection's first call: the reply, whose ACK
    covers the call's bytes not seen yet, waits for them and is matched with
    its call, in its own frame (before: an orphan reply and an unmatched
    call each time)."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x6800)
    for caddr, saddr, port in ((C4, S4, 40068), (C6, S6, 40069)):
        c = TcpConnection(cap, caddr, port, saddr)
        rt = RpcTcp(exp, c)
        c.handshake()
        swaps = []
        for i, (call, rep) in enumerate(v3_mix(x)[:8]):
            t = rt.exchange(call, rep)
            if i in (0, 3, 6):
                assert t.reply_refs[0].frame() == t.call_refs[0].frame() + 1
                swaps.append(t.call_refs[0].frame())
            c.ack(0)
        c.close()
        _swap_frames(cap, [c], swaps)
    exp.meta["tshark_compare"] = False          # tshark decodes no reply whose call it has not seen
    exp.meta["counters"] = {"messages_lost": 0, "tcp_gaps": 0}
    return exp


def main(argv):
    return generator_main(argv, list(SCENARIOS), lambda name, d: SCENARIOS[name](d).write(d, name, "pcap"), __doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
