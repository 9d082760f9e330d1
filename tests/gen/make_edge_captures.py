#!/usr/bin/python3
"""Write the hand-made edge-case captures and their expected transaction logs.

    make_edge_captures.py OUTDIR [NAME...]   write all (or the named) captures
    make_edge_captures.py --list             print the capture names

For every capture NAME this writes OUTDIR/NAME.pcap (or .pcapng),
OUTDIR/NAME.expected.jsonl (doc/txn-log.md lines, restricted to the keys the
generator can vouch for) and OUTDIR/NAME.meta.json (expected nfsscope exit
status, whether tshark's view must match, every RPC message's frame/xid/type).
See README.md for what each capture exercises.
"""
import os
import sys

sys.dont_write_bytecode = True          # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pcapwriter as pw                                     # noqa: E402
from netbuild import Capture, TcpConnection, UdpFlow, hop_by_hop, dest_opts, Ext, SYN, RST, PSH, ACK, \
    IPPROTO_IPV6_FRAG                                      # noqa: E402
from rpcbuild import *                                      # noqa: E402,F401,F403
import rpcbuild as rb                                       # noqa: E402
from scenario import Expect, RpcTcp, RpcUdp                 # noqa: E402

C4, S4 = "10.77.0.1", "10.77.0.2"
C4B = "10.77.1.1"
C6, S6 = "fd77::1", "fd77::2"

SCENARIOS = {}
PCAPNG = {"pcapng_nsec"}          # scenarios that write pcapng


def scenario(fn):
    SCENARIOS[fn.__name__] = fn
    return fn


class Xids:
    def __init__(self, base):
        self.n = base

    def __call__(self):
        self.n += 1
        return self.n


def pattern(n, seed=0):
    """Deterministic payload bytes that never look like an RPC header."""
    return bytes(((i * 31 + seed) % 251) | 0x01 for i in range(n))


# ------------------------------------------------------------------ workloads

ROOT, DIR, FILE = fh3(1), fh3(2), fh3(3)


def v3_mix(x, cred=None):
    """A representative NFSv3 exchange list: (call, reply) pairs."""
    cred = cred or auth_sys()
    A_DIR = fattr3(2, NF3DIR, 4096, 0o755)
    A_FILE = fattr3(3, size=8192)
    pairs = []

    def add(name, args, status, body=b"", c=None):
        call = rpc_call(x(), nfs3_call(name, args), cred=c or cred)
        pairs.append((call, rpc_reply(call, nfs3_res(name, status, body))))

    call = rpc_call(x(), nfs3_call("NULL"), cred=AUTH_NONE)
    pairs.append((call, rpc_reply(call, nfs3_res("NULL"))))
    add("FSINFO", nfs3_fsinfo_args(ROOT), "NFS3_OK", nfs3_fsinfo_res_ok(A_DIR))
    add("GETATTR", nfs3_getattr_args(ROOT), "NFS3_OK", fattr3(1, NF3DIR, 4096, 0o755))
    add("LOOKUP", nfs3_lookup_args(ROOT, "export"), "NFS3_OK",
        nfs3_lookup_res_ok(DIR, A_DIR, fattr3(1, NF3DIR, 4096, 0o755)))
    add("LOOKUP", nfs3_lookup_args(DIR, "missing.txt"), "NFS3ERR_NOENT",
        nfs3_lookup_res_fail(A_DIR))
    add("ACCESS", nfs3_access_args(DIR), "NFS3_OK", nfs3_access_res(A_DIR, 0x1F))
    add("CREATE", nfs3_create_args(DIR, "data.bin", mode=1), "NFS3_OK",
        nfs3_create_res_ok(FILE, fattr3(3), 4096, A_DIR))
    add("WRITE", nfs3_write_args(FILE, 0, pattern(1000)), "NFS3_OK",
        nfs3_write_res_ok(1000, UNSTABLE, before=0, after=fattr3(3, size=1000)))
    add("COMMIT", nfs3_commit_args(FILE), "NFS3_OK", nfs3_commit_res_ok(after=fattr3(3, size=1000)))
    add("READ", nfs3_read_args(FILE, 0, 1000), "NFS3_OK",
        nfs3_read_res_ok(A_FILE, pattern(1000), eof=True))
    add("READDIRPLUS", nfs3_readdirplus_args(DIR), "NFS3_OK",
        nfs3_readdirplus_res_ok(A_DIR, [(2, ".", 1, A_DIR, DIR), (1, "..", 2, None, None),
                                        (3, "data.bin", 3, A_FILE, FILE)]))
    add("GETATTR", nfs3_getattr_args(fh3(99)), "NFS3ERR_STALE")
    return pairs


def v3_write_call(x, fh, off, size, cred=None, seed=0):
    call = rpc_call(x(), nfs3_call("WRITE", nfs3_write_args(fh, off, pattern(size, seed))),
                    cred=cred or auth_sys())
    rep = rpc_reply(call, nfs3_res("WRITE", "NFS3_OK",
                                   nfs3_write_res_ok(size, before=off, after=fattr3(3, size=off + size))))
    return call, rep


def v3_read_call(x, fh, off, size, cred=None, seed=0, eof=False):
    call = rpc_call(x(), nfs3_call("READ", nfs3_read_args(fh, off, size)), cred=cred or auth_sys())
    rep = rpc_reply(call, nfs3_res("READ", "NFS3_OK",
                                   nfs3_read_res_ok(fattr3(3, size=1 << 20), pattern(size, seed), eof)))
    return call, rep


def tcp_v3_session(cap, exp, cport, caddr=C4, saddr=S4, x=None, cred=None, handshake=True,
                   close=True, isn=(0x11000000, 0x22000000), **ckw):
    c = TcpConnection(cap, caddr, cport, saddr, 2049, isn=isn, **ckw)
    rt = RpcTcp(exp, c)
    if handshake:
        c.handshake()
    for call, rep in v3_mix(x or Xids(0x1000), cred):
        rt.exchange(call, rep)
        c.ack(0)
    if close:
        c.close()
    return c, rt


# ------------------------------------------------------------------ TCP framing

@scenario
def tcp_multifrag_record(out):
    """Records made of several fragments (RFC 5531 section 11): a 3-fragment
    WRITE record whose fragment and segment boundaries differ, a 2-fragment
    reply, a READ reply with one fragment per segment, small records in 2 and
    4 fragments (every fragment at least as long as an RPC reply header)."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x2000)
    c = TcpConnection(cap, C4, 40010, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    call, rep = v3_write_call(x, FILE, 0, 3000)
    t = rt.call(call, frags=[100, 1500])          # 3 fragments: 100, 1500, rest
    c.flush(0, sizes=[60, 1000, 700])             # boundaries inside fragments/marks
    rt.reply(t, rep, frags=[40])                  # 2 fragments
    c.flush(1)
    c.ack(0)
    call, rep = v3_read_call(x, FILE, 0, 4000)
    t = rt.call(call, frags=[60])
    c.flush(0)
    rt.reply(t, rep, frags=[1448 - 4, 1448 - 4])  # a fragment per segment
    c.flush(1)
    c.ack(0)
    call = rpc_call(x(), nfs3_call("NULL"))
    t = rt.call(call, frags=[24])
    c.flush(0)
    rt.reply(t, rpc_reply(call, nfs3_res("NULL")))
    c.flush(1)
    call = rpc_call(x(), nfs3_call("GETATTR", nfs3_getattr_args(FILE)), cred=auth_sys())
    t = rt.call(call, frags=[40, 30, 24])
    c.flush(0)
    rt.reply(t, rpc_reply(call, nfs3_res("GETATTR", "NFS3_OK", fattr3(3, size=4000))),
             frags=[28, 28, 28])
    c.flush(1, sizes=[50])
    # a 3-fragment record with each fragment in its own segment, and a
    # 3-fragment reply spread over 3 segments at other offsets
    call, rep = v3_write_call(x, FILE, 3000, 2500, seed=2)
    t = rt.call(call, frags=[800, 900])
    c.flush(0, cuts=[804, 804 + 904])
    rt.reply(t, rep, frags=[50, 50])
    c.flush(1, cuts=[30, 90])
    c.close()
    return exp


@scenario
def tcp_tiny_fragments(out):
    """Record fragments smaller than an RPC header (8 bytes, 1 byte) and a
    zero-length first fragment -- legal per RFC 5531, never sent by Linux.
    tshark cannot reassemble these (it wants the RPC header in the first
    fragment), so there is no tshark comparison."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x2100)
    c = TcpConnection(cap, C4, 40011, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    call, rep = v3_read_call(x, FILE, 0, 4000)
    t = rt.call(call, frags=[8, 8, 8, 8])         # 5 fragments in one segment
    c.flush(0)
    rt.reply(t, rep, frags=[1, 2, 3])
    c.flush(1)
    call = rpc_call(x(), nfs3_call("GETATTR", nfs3_getattr_args(FILE)), cred=auth_sys())
    t = rt.call(call, frags=[0, 44])              # empty first fragment
    c.flush(0)
    rt.reply(t, rpc_reply(call, nfs3_res("GETATTR", "NFS3_OK", fattr3(3, size=4000))), frags=[4, 4])
    c.flush(1)
    call = rpc_call(x(), nfs3_call("NULL"))
    t = rt.call(call, frags=[4] * 10)             # 10 fragments of 4 bytes
    c.flush(0, mss=7)
    rt.reply(t, rpc_reply(call, nfs3_res("NULL")), frags=[12, 0])   # empty last fragment
    c.flush(1)
    c.close()
    exp.meta["tshark_compare"] = False
    return exp


@scenario
def tcp_out_of_order(out):
    """Segments delivered out of order, within one record and across records."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x3000)
    c = TcpConnection(cap, C4, 40020, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    # one WRITE over 4 segments sent 0,2,1,3 and another sent 3,2,1,0
    call, rep = v3_write_call(x, FILE, 0, 5000)
    t = rt.call(call)
    c.flush(0, order=[0, 2, 1, 3])
    rt.reply(t, rep)
    c.flush(1)
    call, rep = v3_write_call(x, FILE, 5000, 5000, seed=3)
    t = rt.call(call)
    c.flush(0, order=[3, 2, 1, 0])
    rt.reply(t, rep)
    c.flush(1)
    # two whole records, the second one's segment first (aligned to records)
    c1, r1 = v3_read_call(x, FILE, 0, 200)
    c2, r2 = v3_read_call(x, FILE, 200, 200, seed=1)
    t1 = rt.call(c1)
    t2 = rt.call(c2)
    c.flush(0, cuts=[len(c1) + 4], order=[1, 0])
    # replies: reply 2 then reply 1, reply 1's segment pair swapped
    rt.reply(t2, r2)
    c.flush(1)
    rt.reply(t1, r1)
    c.flush(1, cuts=[100], order=[1, 0])
    c.ack(0)
    c.close()
    return exp


@scenario
def tcp_retrans_overlap(out):
    """Exact retransmissions, retransmissions with different boundaries that
    overlap earlier segments, and a duplicate of a whole record."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x4000)
    c = TcpConnection(cap, C4, 40030, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    # exact retransmission of a complete call segment
    call, rep = v3_read_call(x, FILE, 0, 512)
    t = rt.call(call)
    segs = c.flush(0)
    a, b, _ = segs[0]
    c.emit(0, a, b)                            # identical copy
    rt.reply(t, rep)
    c.flush(1)
    # WRITE in 3 segments; then a retransmission covering the tail of segment 1
    # and the head of segment 2 (new boundaries), and one overlapping everything
    call, rep = v3_write_call(x, FILE, 0, 3500)
    t = rt.call(call)
    segs = c.flush(0)
    (a0, b0, _), (a1, b1, _), (a2, b2, _) = segs
    c.emit(0, a0 + 700, b1 - 300)
    c.emit(0, a0 + 10, b2)
    rt.reply(t, rep)
    c.flush(1)
    # a segment lost on the wire before the capture point is retransmitted
    # later with a different boundary: the record completes at the retransmission
    call, rep = v3_write_call(x, FILE, 3500, 2500, seed=5)
    t = rt.call(call)
    segs = c.flush(0, drop=(0,))
    (a0, b0, _), (a1, b1, _) = segs
    c.emit(0, a0, a0 + 900)
    c.emit(0, a0 + 900, b1)                    # overlaps the already captured segment 2
    rt.reply(t, rep)
    c.flush(1)
    # the reply sent twice (TCP retransmission of the whole reply segment)
    call, rep = v3_read_call(x, FILE, 512, 100)
    t = rt.call(call)
    c.flush(0)
    rt.reply(t, rep)
    (a, b, _), = c.flush(1)
    c.emit(1, a, b)
    c.ack(0)
    c.close()
    return exp


@scenario
def tcp_loss_resync(out):
    """A segment the capture missed while the receiver ACKs past it.  The loss
    swallows one record entirely and the head of the next, so the analyzer must
    find the following record mark by itself; later RPCs must all be found."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x5000)
    c = TcpConnection(cap, C4, 40040, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    call, rep = v3_read_call(x, FILE, 0, 300)
    rt.exchange(call, rep)
    # aligned loss: one whole call record lost (its reply becomes an orphan)
    call, rep = v3_read_call(x, FILE, 300, 300)
    t = rt.call(call)
    c.flush(0, drop=(0,))
    rt.reply(t, rep)
    c.flush(1)                                  # server ACKs the lost bytes
    # unaligned loss: records A (GETATTR), B (WRITE 2000), C (WRITE 3000),
    # D (ACCESS), E (READ) written back to back; the lost segment covers all
    # of B and the head of C (its record mark and RPC header included)
    A = rpc_call(x(), nfs3_call("GETATTR", nfs3_getattr_args(FILE)), cred=auth_sys())
    Bc, Br = v3_write_call(x, FILE, 0, 2000, seed=7)
    Cc, Cr = v3_write_call(x, FILE, 2000, 3000, seed=9)
    D = rpc_call(x(), nfs3_call("ACCESS", nfs3_access_args(FILE)), cred=auth_sys())
    E, Er = v3_read_call(x, FILE, 0, 64)
    tA, tB, tC, tD, tE = (rt.call(m) for m in (A, Bc, Cc, D, E))
    lA, lB, lC = len(A) + 4, len(Bc) + 4, len(Cc) + 4
    # segment 0: A; segment 1: B + first 600 bytes of C (lost); the server
    # ACKs past the lost bytes; segment 2: C's data up to 1200 bytes before its
    # end; segment 3: C's tail + D + E
    o = c.stream(0).sent_upto
    cuts = [o, o + lA, o + lA + lB + 600, o + lA + lB + lC - 1200, len(c.stream(0).buf)]
    c.emit(0, cuts[0], cuts[1])
    c.emit(0, cuts[1], cuts[2], drop=True)
    c.ack(1)
    c.emit(0, cuts[2], cuts[3])
    c.emit(0, cuts[3], cuts[4])
    rt.reply(tA, rpc_reply(A, nfs3_res("GETATTR", "NFS3_OK", fattr3(3))))
    rt.reply(tB, Br)
    rt.reply(tC, Cr)
    rt.reply(tD, rpc_reply(D, nfs3_res("ACCESS", "NFS3_OK", nfs3_access_res(fattr3(3), 0x0F))))
    rt.reply(tE, Er)
    c.flush(1)
    c.ack(0)
    # more traffic after the resync point
    for call, rep in v3_mix(x)[1:5]:
        rt.exchange(call, rep)
    c.close()
    exp.meta["damaged"] = True
    return exp


@scenario
def tcp_coalesce(out):
    """Several RPC records in one segment (6 calls; replies packed into
    600-byte segments, so records straddle segments), and one WRITE carried
    by 30 small segments whose boundaries fall inside the RPC header."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x6000)
    c = TcpConnection(cap, C4, 40050, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    pairs = v3_mix(x)
    ts = [rt.call(call) for call, _ in pairs[:6]]
    c.flush(0)                                  # 6 calls in one segment
    for t, (_, rep) in zip(ts, pairs[:6]):
        rt.reply(t, rep)
    c.flush(1, mss=600)                         # replies packed into 600-byte segments
    c.ack(0)
    ts = [rt.call(call) for call, _ in pairs[6:]]
    c.flush(0, mss=700)
    for t, (_, rep) in zip(ts, pairs[6:]):
        rt.reply(t, rep)
    c.flush(1)                                  # all the replies in one segment
    c.ack(0)
    call, rep = v3_write_call(x, FILE, 0, 600, seed=11)
    t = rt.call(call)
    c.flush(0, sizes=[4] + [5] * 28)            # 4-byte mark alone, then 5-byte pieces
    rt.reply(t, rep)
    c.flush(1, sizes=[4, 8, 8, 8])
    c.close()
    return exp


@scenario
def tcp_loss_many_ranges(out):
    """Several client segments missing before one server segment whose ACK
    covers them all: calls A1 B1 A2 B2 A3 B3 A4 each in its own segment, the
    B segments not captured (nor their replies), then the replies to A1..A4
    in one segment.  Its ACK proves every missing range lost at once, so A2,
    A3 and A4 are released before the replies and match them (skipping one
    range per ACK left A3 and A4 behind their replies)."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x5800)
    c = TcpConnection(cap, C4, 40045, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    for call, rep in v3_mix(x)[:2]:
        rt.exchange(call, rep)
    kept = []
    for i in range(7):
        call = rpc_call(x(), nfs3_call("GETATTR", nfs3_getattr_args(FILE)), cred=auth_sys())
        t = rt.call(call)
        c.flush(0, drop=(0,) if i % 2 else ())
        if i % 2 == 0:
            kept.append((t, call))
    for t, call in kept:
        rt.reply(t, rpc_reply(call, nfs3_res("GETATTR", "NFS3_OK", fattr3(3))))
    c.flush(1)                                  # one segment, one ACK
    c.ack(0)
    for call, rep in v3_mix(x)[2:5]:
        rt.exchange(call, rep)
    c.close()
    exp.meta["damaged"] = True
    return exp


@scenario
def tcp_rst_out_of_window(out):
    """An RST|ACK carrying 268 bytes with a sequence number far from the next
    expected byte (RFC 5961 3.2: ignored, not a reset): the connection goes
    on, and the calls after it are matched with their replies."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x5900)
    c = TcpConnection(cap, C4, 40046, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    for call, rep in v3_mix(x)[:3]:
        rt.exchange(call, rep)
    s = c.stream(0)
    c._packet(0, s.seq(s.sent_upto + 100000), c._ack_for(0), RST | ACK, pattern(268, 5))
    for call, rep in v3_mix(x)[3:6]:
        rt.exchange(call, rep)
    c.close()
    exp.meta["counters"] = {"tcp_rst_ignored": 1}
    return exp


@scenario
def tcp_syn_inside_stream(out):
    """A SYN+PSH inside an established connection whose sequence number lies
    in bytes already delivered (seen in a real IPv6 capture with a bad
    checksum): not a new connection, the stream is not rewound, the next
    reply is matched."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x5a00)
    c = TcpConnection(cap, C4, 40047, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    for call, rep in v3_mix(x)[:3]:
        rt.exchange(call, rep)
    s = c.stream(0)
    c._packet(0, s.seq(100) - 1, 0, SYN | PSH, bytes(s.buf[100:150]))
    for call, rep in v3_mix(x)[3:6]:
        rt.exchange(call, rep)
    c.close()
    exp.meta["tshark_compare"] = False          # tshark rewinds the stream and loses them
    exp.meta["counters"] = {"tcp_syn_ignored": 1}
    return exp


@scenario
def tcp_silent_11_minutes(out):
    """A connection silent for 11 minutes of capture time, no FIN (an idle
    NFSv3 mount), while a second one calls every minute, then used again:
    housekeeping (once a second of capture time, after a frame) lets the
    silent flow go after 10 minutes (memory follows the connections of the
    last minutes, not the capture's length) and counts it; the later calls
    are picked up as a new connection. Every call is matched with its reply.
    A TCP flow that never carried RPC (port 7777), silent as long, is let go
    too but is no connection: it is not counted."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x5d00)
    c = TcpConnection(cap, C4, 40049, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    for call, rep in v3_mix(x)[:3]:
        rt.exchange(call, rep)
    other = TcpConnection(cap, C4, 40051, S4, sport=7777)
    other.handshake()
    off, end = other.write(0, pattern(300, 7))
    other.emit(0, off, end)
    del cap.conns[other.key()]  # not RPC: nfsscope numbers no connection for it
    busy = TcpConnection(cap, C4, 40050, S4)
    rb = RpcTcp(exp, busy)
    busy.handshake()
    for minute in range(11):
        cap.tick(60 * 10**9)
        call, rep = v3_mix(x)[minute % 6]
        rb.exchange(call, rep)
    c.incarnation += 1      # same bytes stream, a new connection record for nfsscope
    for call, rep in v3_mix(x)[3:6]:
        rt.exchange(call, rep)
    c.close()
    busy.close()
    exp.meta["counters"] = {"flows_retired_idle": 1}
    return exp


@scenario
def write_cut_by_end(out):
    """The capture ends in the middle of a 32 KiB WRITE call (7960 of its
    bytes captured): the earlier calls are complete; the WRITE is counted in
    "Not analysed" as a call cut off by the end of the capture."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x5b00)
    c = TcpConnection(cap, C4, 40048, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    for call, rep in v3_mix(x)[:3]:
        rt.exchange(call, rep)
    call, _ = v3_write_call(x, FILE, 0, 32768, seed=3)
    off, end = c.write(0, record(call))
    c.emit(0, off, off + 7960)
    exp.meta["counters"] = {"calls_cut_by_end": 1}
    return exp


@scenario
def udp_nfs2_not_rpc(out):
    """NFSv2 over UDP (GETATTR: named, not decoded, counted in "Not
    analysed") and two datagrams to port 2049 that are not RPC (a short one
    and one of 64 bytes of text), besides an NFSv3 exchange."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x5c00)
    f = UdpFlow(cap, C4, 51010, S4)
    ru = RpcUdp(exp, f)
    for call, rep in v3_mix(x)[1:3]:
        ru.exchange(call, rep)
    call = rpc_call(x(), proc_call(PROG_NFS, 2, 1, bytes(range(32))), cred=auth_sys())
    t = ru.call(call)
    ru.reply(t, rpc_reply(call, plain_res(bytes(4 + 68))))
    t.omit.update({"status", "op_status"})
    g = UdpFlow(cap, C4, 51011, S4)
    g.send(0, b"hello")
    g.send(0, b"this is not an ONC RPC message, only text sent to the NFS port")
    exp.meta["counters"] = {"nfs2_calls": 1, "udp_not_rpc": 2}
    exp.meta["tshark_compare"] = False           # tshark shows the text datagrams as NFS
    return exp


@scenario
def mount_v1_v2(out):
    """MOUNT v1 and v2 over UDP (RFC 1094 appendix A): MNT answered with an
    fhstatus (status, then a fixed 32-byte handle), an MNT error, v2
    PATHCONF, then MOUNT v3 MNT: each decoded by its own version."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x5d00)
    f = UdpFlow(cap, C4, 51020, S4, sport=20048)
    ru = RpcUdp(exp, f)
    for vers in (1, 2):
        call = rpc_call(x(), proc_call(PROG_MOUNT, vers, 1, string("/export"), ops=["MNT"]), cred=auth_sys())
        ru.exchange(call, rpc_reply(call, plain_res(u32(0) + bytes(range(32)), "MNT_OK")))
    call = rpc_call(x(), proc_call(PROG_MOUNT, 1, 1, string("/nope"), ops=["MNT"]), cred=auth_sys())
    ru.exchange(call, rpc_reply(call, plain_res(u32(13), "MNT3ERR_ACCES")))
    call = rpc_call(x(), proc_call(PROG_MOUNT, 2, 7, string("/export"), ops=["PATHCONF"]), cred=auth_sys())
    t = ru.exchange(call, rpc_reply(call, plain_res(b"".join(u32(i) for i in range(10)), None)))
    t.omit.add("status")
    call = rpc_call(x(), proc_call(PROG_MOUNT, 3, 1, string("/export"), ops=["MNT"]), cred=auth_sys())
    ru.exchange(call, rpc_reply(call, plain_res(u32(0) + opaque(bytes(range(32))) + u32(1) + u32(1), "MNT3_OK")))
    exp.meta["counters"] = {"messages_invalid": 0, "messages_truncated": 0}
    return exp


@scenario
def nfs4_call_cut_ops(out):
    """An NFSv4.0 COMPOUND (PUTROOTFH, GETFH, GETATTR, then 10 more GETFH)
    whose call segment was cut by the snapshot length after its first two
    operations: its ops are named from the reply's results (as many as in
    op_status), ops_from_reply tells how many."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x5e00)
    c = TcpConnection(cap, C4, 40049, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    cred = auth_sys()
    ops = [op_putrootfh(), op_getfh(), op_getattr()] + [op_getfh() for _ in range(10)]
    res = [res_simple("PUTROOTFH"), res_getfh(fh4(1)), res_getattr(std_attrs(1, 4096, NF4DIR))] + \
        [res_getfh(fh4(1)) for _ in range(10)]
    call = rpc_call(x(), compound(ops, minor=0), cred=cred)
    t = rt.call(call)
    off, end = c.stream(0).sent_upto, len(c.stream(0).buf)
    hdr = len(record(call)) - len(ops) * 4 + 4   # through the first op (opcodes only: no args)
    c.emit(0, off, end, caplen=14 + 20 + 20 + hdr + 4)
    rt.reply(t, rpc_reply(call, compound_res(res)))
    c.flush(1)
    c.ack(0)
    c.close()
    exp.meta["tshark_compare"] = False           # tshark cannot name the ops it did not see
    return exp


@scenario
def nfs4_compound_94_ops(out):
    """One NFSv4.0 COMPOUND of 94 operations (PUTROOTFH, then GETATTR and
    GETFH in turn), as a conformance test sends, all answered NFS4_OK: every
    operation and every result status is listed (more than the 64 kept
    inside a transaction; the rest in the overflow pool).  tshark lists the
    same 94 (e2e.tshark.generated)."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x5f00)
    c = TcpConnection(cap, C4, 40050, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    ops, res = [op_putrootfh()], [res_simple("PUTROOTFH")]
    for i in range(93):
        if i % 2 == 0:
            ops.append(op_getattr())
            res.append(res_getattr(std_attrs(1, 4096, NF4DIR)))
        else:
            ops.append(op_getfh())
            res.append(res_getfh(fh4(1)))
    call = rpc_call(x(), compound(ops, minor=0), cred=auth_sys())
    rt.exchange(call, rpc_reply(call, compound_res(res)))
    c.close()
    exp.meta["counters"] = {"nfs4_ops_cut": 0}
    return exp


@scenario
def nfs4_compound_over_limit(out):
    """A COMPOUND of 1030 operations (PUTROOTFH, then GETFH), over the
    documented limit of 1024 kept: the first 1024 operations and result
    statuses are listed, the list is flagged cut (txn log ops_cut; the call
    and the reply each count once in not_analysed.nfs4_ops_cut).  tshark 4.0
    stops at its own limit of 128 operations; tshark_diff compares that
    prefix."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x5f80)
    c = TcpConnection(cap, C4, 40052, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    ops = [op_putrootfh()] + [op_getfh() for _ in range(1029)]
    res = [res_simple("PUTROOTFH")] + [res_getfh(fh4(1)) for _ in range(1029)]
    call = rpc_call(x(), compound(ops, minor=0), cred=auth_sys())
    rep = rpc_reply(call, compound_res(res))
    call.info["ops"] = call.info["ops"][:1024]            # what is kept
    rep.info["op_status"] = rep.info["op_status"][:1024]
    rt.exchange(call, rep)
    c.close()
    exp.meta["counters"] = {"nfs4_ops_cut": 2}
    return exp


@scenario
def nfs4_dead_sessions(out):
    """Sessions the server does not know, and their use after that (NFSv4.1,
    three clients, one connection each).
    c1 (10.77.0.1): SEQUENCE on session X, never created in the capture:
    NFS4ERR_BADSESSION; then BIND_CONN_TO_SESSION(X) and three more SEQUENCEs
    on X, all NFS4ERR_BADSESSION, no CREATE_SESSION: DEAD_SESSION_USE (4 calls
    after the death, error: never recovered).
    c2 (10.77.1.1): SEQUENCE on Y (never created): NFS4ERR_BADSESSION once,
    then EXCHANGE_ID and CREATE_SESSION (new session Z) and SEQUENCE on Z: a
    client that recovers at once: Y listed, no finding.
    c3 (10.77.2.1): CREATE_SESSION W, SEQUENCE, DESTROY_SESSION(W) answered
    NFS4_OK, then two SEQUENCEs on W (NFS4ERR_BADSESSION), then CREATE_SESSION
    V: DEAD_SESSION_USE on W (2 calls after the death, warning: recovered).
    Expected sessions and findings (meta "dead_sessions", "findings") come
    from the frames the generator wrote; e2e.gen.dead_sessions checks them."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x7100)
    cred = auth_sys()
    X, Y, Z = bytes([0xd1] * 16), bytes([0xd2] * 16), bytes([0xd3] * 16)
    W, V = bytes([0xd4] * 16), bytes([0xd5] * 16)
    CB_ID, CC_ID = 0x7777000000000002, 0x7777000000000003
    bad = "NFS4ERR_BADSESSION"
    fore16 = channel_attrs(maxreqs=16)      # granted as asked: no SLOT_LIMITED

    def conn(addr, port):
        c = TcpConnection(cap, addr, port, S4)
        c.handshake()
        return c, RpcTcp(exp, c)

    def xc(rt, ops, results):
        call = rpc_call(x(), compound(ops, minor=1), cred=cred)
        return rt.exchange(call, rpc_reply(call, compound_res(results)))

    def seq_bad(rt, sid, seqid, more=()):
        return xc(rt, [op_sequence(sid, seqid, 0, 0)] + list(more), [res_sequence(sid, seqid, 0, 0, 0, status=bad)])

    def cf(t):
        return t.call_refs[0].frame()

    def rf(t):
        return t.reply_refs[0].frame()

    ca, ra = conn(C4, 40160)
    a = [seq_bad(ra, X, 1, [op_putrootfh(), op_getattr()])]
    a.append(xc(ra, [op_bind_conn_to_session(X)], [res_bind_conn_to_session(X, status=bad)]))
    for seqid in (2, 3, 4):
        a.append(seq_bad(ra, X, seqid, [op_putrootfh()]))
    ca.close()

    cb, rb_ = conn(C4B, 40161)
    b1 = seq_bad(rb_, Y, 1, [op_putrootfh()])
    xc(rb_, [op_exchange_id(owner=b"dead-sessions-b")], [res_exchange_id(CB_ID)])
    b3 = xc(rb_, [op_create_session(CB_ID, fore=fore16)], [res_create_session(Z)])
    xc(rb_, [op_sequence(Z, 1, 0, 0), op_putrootfh(), op_getattr()],
       [res_sequence(Z, 1, 0, 0, 0), res_simple("PUTROOTFH"), res_getattr(std_attrs(1, 4096, NF4DIR))])
    cb.close()

    cc, rc = conn("10.77.2.1", 40162)
    xc(rc, [op_exchange_id(owner=b"dead-sessions-c")], [res_exchange_id(CC_ID)])
    xc(rc, [op_create_session(CC_ID, fore=fore16)], [res_create_session(W)])
    xc(rc, [op_sequence(W, 1, 0, 0), op_putrootfh()], [res_sequence(W, 1, 0, 0, 0), res_simple("PUTROOTFH")])
    c4 = xc(rc, [op_destroy_session(W)], [res_simple("DESTROY_SESSION")])
    c5 = seq_bad(rc, W, 2, [op_putrootfh()])
    c6 = seq_bad(rc, W, 3, [op_putrootfh()])
    c7 = xc(rc, [op_create_session(CC_ID, seq=2, fore=fore16)], [res_create_session(V, seq=2)])
    xc(rc, [op_sequence(V, 1, 0, 0), op_putrootfh()], [res_sequence(V, 1, 0, 0, 0), res_simple("PUTROOTFH")])
    cc.close()

    def sess(sid, never, dead, dead_frame, bads, after, recovered, conns):
        return {"sessionid": sid.hex(), "never_created": never, "dead": dead, "dead_frame": dead_frame,
                "badsession_replies": len(bads), "badsession_frames": [rf(bads[0]), rf(bads[-1])] if bads else [],
                "calls_after_dead": len(after),
                "calls_after_dead_frames": [cf(after[0]), cf(after[-1])] if after else [],
                "recovered_frame": recovered, "connections": conns}
    exp.meta["dead_sessions"] = [
        sess(X, True, "BADSESSION", rf(a[0]), a, a[1:], None, ["c1"]),
        sess(Y, True, "BADSESSION", rf(b1), [b1], [], rf(b3), ["c2"]),
        sess(Z, False, None, None, [], [], None, ["c2"]),
        sess(W, False, "DESTROYED", rf(c4), [c5, c6], [c5, c6], rf(c7), ["c3"]),
        sess(V, False, None, None, [], [], None, ["c3"]),
    ]

    def frames(death, after):     # the death reply, then each call after it and its reply (first 8)
        return sorted([death] + [f for t in after for f in (cf(t), rf(t))])[:8]
    exp.meta["findings"] = [
        {"kind": "DEAD_SESSION_USE", "session": X.hex(), "severity": "error", "count": 4,
         "frames": frames(rf(a[0]), a[1:]), "connections": ["c1"]},
        {"kind": "DEAD_SESSION_USE", "session": W.hex(), "severity": "warning", "count": 2,
         "frames": frames(rf(c4), [c5, c6]), "connections": ["c3"]},
    ]
    return exp


@scenario
def tcp_split_recmark(out):
    """The 4-byte record mark split across segments at each offset (1|3,
    2|2, 3|1) in calls and replies, a call sent one byte per segment for its
    first 40 bytes, and a record mark straddling the end of a segment that
    holds a whole earlier record.  tshark cannot do this (packet-rpc.c gives up
    on a record mark split across segments), so there is no tshark comparison."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x6100)
    c = TcpConnection(cap, C4, 40051, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    for k in (1, 2, 3):
        call, rep = v3_read_call(x, FILE, k * 100, 100, seed=k)
        t = rt.call(call)
        c.flush(0, cuts=[k])
        rt.reply(t, rep)
        c.flush(1, cuts=[k, 4 + 24])            # reply: mark split and header split
    call, rep = v3_write_call(x, FILE, 0, 200, seed=11)
    t = rt.call(call)
    c.flush(0, cuts=list(range(1, 41)))
    rt.reply(t, rep)
    c.flush(1)
    for k in (1, 2, 3):
        c1, r1 = v3_read_call(x, FILE, 0, 10)
        c2, r2 = v3_read_call(x, FILE, 10, 10)
        t1, t2 = rt.call(c1), rt.call(c2)
        c.flush(0, cuts=[len(c1) + 4 + k])
        rt.reply(t1, r1)
        rt.reply(t2, r2)
        c.flush(1, cuts=[len(r1) + 4 + k])
    c.close()
    exp.meta["tshark_compare"] = False
    return exp


@scenario
def tcp_midstream(out):
    """Capture starts in the middle of a connection: no handshake, the first
    client segment begins inside a WRITE record, the first server segment with
    the reply to a call never seen; everything afterwards must be found."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x7000)
    c = TcpConnection(cap, C4, 40060, S4, isn=(0x7fffff00, 0xfffff000))   # seq wraps
    rt = RpcTcp(exp, c)
    # before capture: a READ call whose reply is the first captured packet,
    # and a WRITE whose first segment is not captured
    rc, rr = v3_read_call(x, FILE, 0, 1000)
    tr = rt.call(rc)
    c.flush(0, drop=(0,))
    wc, wr = v3_write_call(x, FILE, 0, 4000)
    tw = rt.call(wc)
    rt.reply(tr, rr)
    c.flush(1)                                  # frame 1: orphan READ reply
    c.flush(0, drop=(0,))                       # WRITE: first segment missed
    rt.reply(tw, wr)
    c.flush(1)                                  # orphan WRITE reply
    c.ack(0)
    for call, rep in v3_mix(x)[1:]:
        rt.exchange(call, rep)
    c.close()
    exp.meta["damaged"] = True
    return exp


@scenario
def midstream_big_write(out):
    """The capture starts inside a large WRITE (issue 20): its first segment,
    with the record mark and the RPC header, was not captured; 17 client
    segments of 1,448 bytes of file data come first, then the WRITE's reply
    (an orphan) and 40 ordinary calls on the same connection. Every one of
    them must be found, however many chunks the search for a record takes."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x7100)
    c = TcpConnection(cap, C4, 40062, S4, isn=(0x31000000, 0x32000000))
    rt = RpcTcp(exp, c)
    wc, wr = v3_write_call(x, FILE, 0, 18 * 1448 - 200)
    tw = rt.call(wc)
    segs = c.flush(0, drop=(0,))                # header segment missed
    assert len(segs) == 18, len(segs)
    rt.reply(tw, wr)
    c.flush(1)                                  # orphan WRITE reply
    pairs = []
    while len(pairs) < 40:
        pairs += v3_mix(x)                      # fresh XIDs each round
    for call, rep in pairs[:40]:
        rt.exchange(call, rep)
    c.close()
    exp.meta["damaged"] = True
    return exp


@scenario
def midstream_split_header(out):
    """Picked up mid-stream, and the first record boundary falls across two
    segments: the end of a WRITE's data, then the next call's record mark and
    8 bytes of its RPC header in one segment, the rest of the header in the
    next. The call must be found (carried across the segments), and the
    calls after it."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x7200)
    c = TcpConnection(cap, C4, 40064, S4, isn=(0x41000000, 0x42000000))
    rt = RpcTcp(exp, c)
    wc, wr = v3_write_call(x, FILE, 0, 3000)
    tw = rt.call(wc)
    gc, gr = v3_read_call(x, FILE, 0, 64)
    tg = rt.call(gc)
    wlen = len(record(wc))
    # segment 0: the WRITE's head (not captured); 1: the rest of its data and
    # the READ's mark + 8 header bytes; 2: the rest of the READ call
    c.flush(0, cuts=[1000, wlen + 4 + 8], drop=(0,))
    rt.reply(tw, wr)
    rt.reply(tg, gr)
    c.flush(1)
    for call, rep in v3_mix(x)[1:]:
        rt.exchange(call, rep)
    c.close()
    exp.meta["damaged"] = True
    return exp


@scenario
def tcp_not_rpc_budget(out):
    """A TCP flow on port 7777, picked up mid-stream, carrying more than the
    longest RPC record (8 MiB) of binary data and no RPC: searched, then given
    up and counted (tcp_flows_not_rpc); an NFS connection beside it is
    analysed as usual."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x7300)
    c = TcpConnection(cap, C4, 40066, S4, isn=(0x51000000, 0x52000000))
    rt = RpcTcp(exp, c)
    c.handshake()
    other = TcpConnection(cap, C4, 40067, S4, sport=7777, mss=60000, isn=(0x53000000, 0x54000000))
    blob = pattern(60000, 11)
    for i in range(150):                        # 9,000,000 bytes > 8 MiB + 64 KiB
        other.write(0, blob)
        other.flush(0)
        if i % 50 == 49:
            call, rep = v3_mix(x)[(i // 50) % 6]
            rt.exchange(call, rep)
    del cap.conns[other.key()]  # not RPC: nfsscope numbers no connection for it
    c.close()
    exp.meta["counters"] = {"tcp_flows_not_rpc": 1}
    return exp


@scenario
def tcp_port_reuse(out):
    """The same 4-tuple carries two TCP connections one after another (FIN,
    then a new SYN): two connections, c1 and c2.  XIDs restart in the second
    incarnation, and the last call of the first one is never answered there but
    its XID is reused (and answered) in the second: XID matching must not pair
    a call of one incarnation with a reply of the other."""
    cap = Capture()
    exp = Expect(cap)
    c = TcpConnection(cap, C4, 40070, S4, isn=(0x10000000, 0x20000000))
    rt = RpcTcp(exp, c)
    c.handshake()
    pairs = v3_mix(Xids(0x8000))
    for call, rep in pairs[:4]:
        rt.exchange(call, rep)
    # last call of the first incarnation gets no reply before the close
    lc, _ = v3_read_call(Xids(0x8100), FILE, 0, 10)
    rt.call(lc)
    c.flush(0)
    c.close()
    c.reopen((0x30000000, 0x40000000))
    c.handshake()
    # same xids again, different procedures
    pairs2 = v3_mix(Xids(0x8000))
    for call, rep in pairs2[5:10]:
        rt.exchange(call, rep)
    # and the xid of the unanswered call, now answered in this incarnation
    lc2, lr2 = v3_read_call(Xids(0x8100), FILE, 512, 20)
    rt.exchange(lc2, lr2)
    c.close()
    return exp


# ------------------------------------------------------------------ L2/L3

@scenario
def ipv6_exthdr(out):
    """NFSv3 over TCP/IPv6 with hop-by-hop + destination options headers on
    every packet, and over UDP/IPv6 with an atomic fragment header (RFC 6946)
    behind a hop-by-hop header."""
    cap = Capture()
    exp = Expect(cap)
    tcp_v3_session(cap, exp, 40080, caddr=C6, saddr=S6, x=Xids(0x9000),
                   exts=(hop_by_hop(), dest_opts()))
    f = UdpFlow(cap, C6, 51012, S6, 2049,
                exts=(hop_by_hop(), Ext(IPPROTO_IPV6_FRAG, frag_off=0, more=False, ident=0x77)))
    ru = RpcUdp(exp, f)
    for call, rep in v3_mix(Xids(0x9100))[:4]:
        ru.exchange(call, rep)
    return exp


@scenario
def ipv6_frag_udp(out):
    """NFSv3 over UDP/IPv6 with 32 KiB READ replies split by IPv6 fragment
    headers (each fragment also carries a hop-by-hop header, which is part
    of the unfragmentable part): one train in order, one reversed, one of
    chosen fragment sizes, then an unfragmented call/reply."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x9200)
    f = UdpFlow(cap, C6, 51013, S6, 2049, mtu=1500, exts=(hop_by_hop(),))
    ru = RpcUdp(exp, f)
    call, rep = v3_read_call(x, FILE, 0, 32768)
    ru.exchange(call, rep)
    call, rep = v3_read_call(x, FILE, 32768, 32768, seed=1)
    t = ru.call(call)
    ru.reply(t, rep, order=list(reversed(range(23))))
    call, rep = v3_read_call(x, FILE, 65536, 8000, seed=2)
    t = ru.call(call)
    ru.reply(t, rep, frag_sizes=[1400, 1400, 1400, 1400, 1400])
    call = rpc_call(x(), nfs3_call("GETATTR", nfs3_getattr_args(FILE)), cred=auth_sys())
    ru.exchange(call, rpc_reply(call, nfs3_res("GETATTR", "NFS3_OK", fattr3(3))))
    return exp


def _vlan(vlans, base):
    cap = Capture(vlans=vlans)
    exp = Expect(cap)
    tcp_v3_session(cap, exp, 40090, x=Xids(base))
    f = UdpFlow(cap, C4, 51023, S4)
    ru = RpcUdp(exp, f)
    for call, rep in v3_mix(Xids(base + 0x100))[:4]:
        ru.exchange(call, rep)
    return exp


@scenario
def vlan_8021q(out):
    """Ethernet with one 802.1Q tag (VLAN 77, PCP 3)."""
    return _vlan([(pw.ETH_P_8021Q, (3 << 13) | 77)], 0xa000)


@scenario
def vlan_qinq(out):
    """QinQ: an 802.1ad S-tag (0x88a8, VLAN 100) over an 802.1Q C-tag (VLAN 20)."""
    return _vlan([(pw.ETH_P_8021AD, 100), (pw.ETH_P_8021Q, 20)], 0xb000)


@scenario
def udp_ipfrag_read(out):
    """NFSv3 over UDP with 32 KiB READs: each reply is an IPv4 datagram in 23
    fragments (MTU 1500).  One train in order, one with shuffled fragments
    (the last fragment arrives fifth), one reversed, one reply loses a fragment
    (invisible: the call looks unanswered) and the retransmitted call (same
    XID, sends=2) gets a complete reply; a small GETATTR call is fragmented
    into 48+40+24 bytes."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0xc000)
    f = UdpFlow(cap, C4, 50001, S4, mtu=1500)
    ru = RpcUdp(exp, f)
    call, rep = v3_read_call(x, FILE, 0, 32768)
    ru.exchange(call, rep)
    call, rep = v3_read_call(x, FILE, 32768, 32768, seed=1)
    t = ru.call(call)
    n = 23
    ru.reply(t, rep, order=[0, 5, 1, 2, 22, 3, 4] + list(range(6, 22)))
    call, rep = v3_read_call(x, FILE, 65536, 32768, seed=2)
    t = ru.call(call)
    ru.reply(t, rep, order=list(reversed(range(n))))
    # a lost fragment: the reply never completes; the retransmission of the
    # call (same xid) gets a complete reply
    call, rep = v3_read_call(x, FILE, 98304, 32768, seed=3)
    t = ru.call(call)
    ru.reply(t, rep, drop=(7,))
    ru.resend(t)
    ru.reply(t, rep)
    # a small NFSv3 GETATTR in between, fragmented on purpose into 8-byte pieces
    call = rpc_call(x(), nfs3_call("GETATTR", nfs3_getattr_args(FILE)), cred=auth_sys())
    t = ru.call(call, frag_sizes=[48, 40, 24])
    ru.reply(t, rpc_reply(call, nfs3_res("GETATTR", "NFS3_OK", fattr3(3))))
    exp.meta["tshark_note"] = "datagram with a lost fragment is invisible to tshark"
    return exp


def _linktype(linktype, base, **capkw):
    cap = Capture(linktype=linktype, **capkw)
    exp = Expect(cap)
    tcp_v3_session(cap, exp, 40100, x=Xids(base))
    f = UdpFlow(cap, C4, 51000, S4)
    ru = RpcUdp(exp, f)
    for call, rep in v3_mix(Xids(base + 0x100))[1:4]:
        ru.exchange(call, rep)
    tcp_v3_session(cap, exp, 40101, caddr=C6, saddr=S6, x=Xids(base + 0x200))
    return exp


@scenario
def link_sll(out):
    """LINKTYPE_LINUX_SLL (113), IPv4 and IPv6."""
    return _linktype(pw.LINKTYPE_LINUX_SLL, 0xd000)


@scenario
def link_sll2(out):
    """LINKTYPE_LINUX_SLL2 (276), IPv4 and IPv6."""
    return _linktype(pw.LINKTYPE_LINUX_SLL2, 0xd100)


@scenario
def link_raw(out):
    """LINKTYPE_RAW (101): packets start with the IP header."""
    return _linktype(pw.LINKTYPE_RAW, 0xd200)


@scenario
def link_null(out):
    """LINKTYPE_NULL (0): AF value in host (here little-endian) byte order."""
    return _linktype(pw.LINKTYPE_NULL, 0xd300)


@scenario
def link_null_be(out):
    """LINKTYPE_NULL (0) written by a big-endian host: AF value big-endian."""
    return _linktype(pw.LINKTYPE_NULL, 0xd400, null_byteorder=">")


@scenario
def link_loop(out):
    """LINKTYPE_LOOP (108): AF value in network byte order."""
    return _linktype(pw.LINKTYPE_LOOP, 0xd500)


# ------------------------------------------------------------------ RPC level

@scenario
def udp_retrans_dupreply(out):
    """NFSv3 over UDP: a call sent twice with the same XID (sends=2, one
    reply), a call answered twice (duplicate reply), a call sent three times,
    and one never answered."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0xe000)
    f = UdpFlow(cap, C4, 51002, S4)
    ru = RpcUdp(exp, f)
    call, rep = v3_read_call(x, FILE, 0, 512)
    t = ru.call(call)
    cap.tick(1_100_000_000)
    ru.resend(t)
    ru.reply(t, rep)
    call, rep = v3_write_call(x, FILE, 0, 512)
    t = ru.call(call)
    ru.reply(t, rep)
    ru.reply(t, rep)                    # duplicate reply
    call = rpc_call(x(), nfs3_call("GETATTR", nfs3_getattr_args(FILE)), cred=auth_sys())
    t = ru.call(call)
    cap.tick(1_100_000_000)
    ru.resend(t)
    cap.tick(2_200_000_000)
    ru.resend(t)
    ru.reply(t, rpc_reply(call, nfs3_res("GETATTR", "NFS3_OK", fattr3(3))))
    call = rpc_call(x(), nfs3_call("ACCESS", nfs3_access_args(FILE)), cred=auth_sys())
    ru.call(call)                       # never answered
    cap.tick(1_000_000)
    for call, rep in v3_mix(x)[1:3]:
        ru.exchange(call, rep)
    return exp


@scenario
def gss_krb5(out):
    """RPCSEC_GSS data calls: krb5 (service none), krb5i (args inside
    rpc_gss_integ_data: seq_num + args, then checksum) and krb5p (opaque
    rpc_gss_priv_data: only the RPC header is readable)."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0xf000)
    c = TcpConnection(cap, C4, 40110, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    seq = [100]

    def gss(service):
        seq[0] += 1
        return rpcsec_gss(seq[0], service)

    for service in ("none", "integrity", "privacy"):
        call = rpc_call(x(), nfs3_call("GETATTR", nfs3_getattr_args(FILE)), cred=gss(service))
        rt.exchange(call, rpc_reply(call, nfs3_res("GETATTR", "NFS3_OK", fattr3(3))))
        call = rpc_call(x(), nfs3_call("LOOKUP", nfs3_lookup_args(DIR, "nope")), cred=gss(service))
        rt.exchange(call, rpc_reply(call, nfs3_res("LOOKUP", "NFS3ERR_NOENT",
                                                   nfs3_lookup_res_fail(fattr3(2, NF3DIR)))))
        call, rep = v3_write_call(x, FILE, 0, 3000, cred=gss(service))
        rt.exchange(call, rep)
        call, rep = v3_read_call(x, FILE, 0, 2000, cred=gss(service))
        rt.exchange(call, rep)
        c.ack(0)
    # an NFSv4.1 COMPOUND under krb5i
    sid = bytes.fromhex("77000000000000010000000100000001")
    call = rpc_call(x(), compound([op_sequence(sid, 1, 0, 0), op_putrootfh(), op_getattr()]),
                    cred=gss("integrity"))
    rt.exchange(call, rpc_reply(call, compound_res([
        res_sequence(sid, 1, 0, 0, 15), res_simple("PUTROOTFH"),
        res_getattr(std_attrs(1, 4096, NF4DIR, 0o755))])))
    c.close()
    return exp


@scenario
def rpc_errors(out):
    """Every accept_stat (SUCCESS, PROG_UNAVAIL, PROG_MISMATCH, PROC_UNAVAIL,
    GARBAGE_ARGS, SYSTEM_ERR) and both denied replies (RPC_MISMATCH,
    AUTH_ERROR), over TCP and UDP."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x10000)
    c = TcpConnection(cap, C4, 40120, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    f = UdpFlow(cap, C4, 51003, S4)
    ru = RpcUdp(exp, f)
    for r in (rt, ru):
        call = rpc_call(x(), nfs3_call("GETATTR", nfs3_getattr_args(FILE)), cred=auth_sys())
        r.exchange(call, rpc_reply(call, nfs3_res("GETATTR", "NFS3_OK", fattr3(3))))
        # NFS_ACL v3 GETACL: program not offered
        call = rpc_call(x(), proc_call(100227, 3, 1, nfs_fh3(FILE) + u32(0x0F)), cred=auth_sys())
        r.exchange(call, rpc_reply(call, accept_stat="PROG_UNAVAIL"))
        # NFSv4 COMPOUND to an NFSv3-only server
        call = rpc_call(x(), compound([op_putrootfh(), op_getfh()], minor=0), cred=auth_sys())
        r.exchange(call, rpc_reply(call, accept_stat="PROG_MISMATCH", mismatch=(3, 3)))
        # NFSv3 procedure 22 does not exist
        call = rpc_call(x(), proc_call(100003, 3, 22, nfs_fh3(FILE)), cred=auth_sys())
        r.exchange(call, rpc_reply(call, accept_stat="PROC_UNAVAIL"))
        call = rpc_call(x(), nfs3_call("READ", nfs3_read_args(FILE, 0, 100)), cred=auth_sys())
        r.exchange(call, rpc_reply(call, accept_stat="GARBAGE_ARGS"))
        call = rpc_call(x(), nfs3_call("WRITE", nfs3_write_args(FILE, 0, pattern(100))),
                        cred=auth_sys())
        r.exchange(call, rpc_reply(call, accept_stat="SYSTEM_ERR"))
        call = rpc_call(x(), nfs3_call("FSINFO", nfs3_fsinfo_args(ROOT)), cred=auth_sys())
        r.exchange(call, rpc_denied(call, "RPC_MISMATCH", mismatch=(2, 2)))
        call = rpc_call(x(), nfs3_call("ACCESS", nfs3_access_args(FILE)), cred=AUTH_NONE)
        r.exchange(call, rpc_denied(call, "AUTH_ERROR", auth_stat="AUTH_TOOWEAK"))
        call = rpc_call(x(), nfs3_call("LOOKUP", nfs3_lookup_args(DIR, "x")),
                        cred=rpcsec_gss(9, "integrity"))
        r.exchange(call, rpc_denied(call, "AUTH_ERROR", auth_stat="RPCSEC_GSS_CTXPROBLEM"))
    c.close()
    return exp


# ------------------------------------------------------------------ NFSv4.1

SID = bytes.fromhex("5f7700000000a1b2000000010000000e")
CLIENTID = 0x5f770000a1b20001


@scenario
def nfs41_session(out):
    """NFSv4.1 life cycle on two connections: EXCHANGE_ID (SP4_MACH_CRED),
    CREATE_SESSION (back channel on c1), RECLAIM_COMPLETE during grace
    (NFS4ERR_GRACE), OPEN/READ/WRITE/READ_PLUS/CLOSE under SEQUENCE on several
    slots, a SEQ_MISORDERED retry, a second connection that is refused
    (CONN_NOT_BOUND_TO_SESSION) until BIND_CONN_TO_SESSION, a CB_COMPOUND
    (CB_SEQUENCE + CB_RECALL) from the server on c1, DESTROY_SESSION."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x20000)
    c = TcpConnection(cap, C4, 40130, S4, timestamps=True)
    rt = RpcTcp(exp, c)
    c.handshake()
    cred = auth_sys(uid=0, gid=0, gids=())

    def xc(ops, results, conn_rt=rt, minor=1):
        call = rpc_call(x(), compound(ops, minor=minor), cred=cred)
        return conn_rt.exchange(call, rpc_reply(call, compound_res(results)))

    call = rpc_call(x(), nfs4_null(), cred=AUTH_NONE)
    rt.exchange(call, rpc_reply(call, plain_res()))
    xc([op_exchange_id(sp=SP4_MACH_CRED)], [res_exchange_id(CLIENTID, sp=SP4_MACH_CRED)])
    xc([op_create_session(CLIENTID)], [res_create_session(SID)])
    xc([op_sequence(SID, 1, 0, 0), op_reclaim_complete()],
       [res_sequence(SID, 1, 0, 0, 15), res_simple("RECLAIM_COMPLETE", "NFS4ERR_GRACE")])
    xc([op_sequence(SID, 2, 0, 0), op_putrootfh(), op_getfh(), op_getattr()],
       [res_sequence(SID, 2, 0, 0, 15), res_simple("PUTROOTFH"), res_getfh(fh4(1)),
        res_getattr(std_attrs(1, 4096, NF4DIR, 0o755))])
    xc([op_sequence(SID, 3, 0, 0), op_putfh(fh4(1)), op_lookup("export"), op_access(),
        op_getfh()],
       [res_sequence(SID, 3, 0, 0, 15), res_simple("PUTFH"), res_simple("LOOKUP"),
        res_access(), res_getfh(fh4(2))])
    st = stateid4(1, b"open77000001")
    xc([op_sequence(SID, 4, 0, 0), op_putfh(fh4(2)), op_open("f.dat", CLIENTID, create=True),
        op_getfh()],
       [res_sequence(SID, 4, 0, 0, 15), res_simple("PUTFH"), res_open(st), res_getfh(fh4(3))])
    # two slots in flight, replies out of order
    c1 = rpc_call(x(), compound([op_sequence(SID, 1, 1, 1), op_putfh(fh4(3)),
                                 op_write(st, 0, pattern(2000))]), cred=cred)
    c2 = rpc_call(x(), compound([op_sequence(SID, 5, 0, 1), op_putfh(fh4(3)),
                                 op_read(st, 0, 1000)]), cred=cred)
    t1, t2 = rt.call(c1), rt.call(c2)
    c.flush(0)
    rt.reply(t2, rpc_reply(c2, compound_res([res_sequence(SID, 5, 0, 1, 15), res_simple("PUTFH"),
                                             res_read(pattern(1000), eof=False)])))
    rt.reply(t1, rpc_reply(c1, compound_res([res_sequence(SID, 1, 1, 1, 15), res_simple("PUTFH"),
                                             res_write(2000)])))
    c.flush(1)
    # misordered sequence id on slot 1
    xc([op_sequence(SID, 3, 1, 1), op_putfh(fh4(3)), op_getattr()],
       [res_sequence(SID, 3, 1, 1, 15, status="NFS4ERR_SEQ_MISORDERED")])
    xc([op_sequence(SID, 6, 0, 0), op_putfh(fh4(3)), op_read_plus(st, 0, 65536)],
       [res_sequence(SID, 6, 0, 0, 15), res_simple("PUTFH"),
        res_read_plus([("data", 0, pattern(512)), ("hole", 512, 60000),
                       ("data", 60512, pattern(100, 3))], eof=True)])
    # second connection: refused until bound
    c2c = TcpConnection(cap, C4, 40131, S4, isn=(0x51000000, 0x52000000), timestamps=True)
    rt2 = RpcTcp(exp, c2c)
    c2c.handshake()
    xc([op_sequence(SID, 7, 0, 0), op_putfh(fh4(3)), op_getattr()],
       [res_sequence(SID, 7, 0, 0, 15, status="NFS4ERR_CONN_NOT_BOUND_TO_SESSION")], conn_rt=rt2)
    xc([op_bind_conn_to_session(SID, CDFC4_FORE_OR_BOTH)],
       [res_bind_conn_to_session(SID, CDFS4_FORE)], conn_rt=rt2)
    xc([op_sequence(SID, 7, 0, 0), op_putfh(fh4(3)), op_getattr()],
       [res_sequence(SID, 7, 0, 0, 15), res_simple("PUTFH"), res_getattr(std_attrs(3, 2000))],
       conn_rt=rt2)
    # backchannel: server recalls a delegation on c1
    cb = rpc_call(x() | 0x40000000, cb_compound([op_cb_sequence(SID, 1, 0, 0),
                                                 op_cb_recall(stateid4(1, b"deleg7700001"), fh4(3))],
                                                ident=1), cred=AUTH_NONE, backchannel=True)
    rt.exchange(cb, rpc_reply(cb, cb_compound_res([res_cb_sequence(SID, 1, 0, 0, 0),
                                                   res_simple("CB_RECALL")])))
    xc([op_sequence(SID, 8, 0, 0), op_putfh(fh4(3)), op_close(st)],
       [res_sequence(SID, 8, 0, 0, 15), res_simple("PUTFH"), res_close(stateid4(2, b"open77000001"))])
    xc([op_destroy_session(SID)], [res_simple("DESTROY_SESSION")], conn_rt=rt2)
    c.ack(0)
    c2c.close()
    c.close()
    return exp


@scenario
def nfs41_cb_program(out):
    """The backchannel program is whatever CREATE_SESSION's cb_program says
    (here 0x40000077, callback security AUTH_SYS): CB_NULL and CB_COMPOUND
    (CB_SEQUENCE + CB_RECALL) use it.  The session's back channel is moved to
    a second connection with BIND_CONN_TO_SESSION(CDFC4_BACK_OR_BOTH), and the
    next callback arrives there.  tshark does not know program 0x40000077, so
    there is no tshark comparison."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x20800)
    sid = bytes.fromhex("5f7700000000a1b2000000020000000f")
    prog = 0x40000077
    c = TcpConnection(cap, C4, 40132, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    cred = auth_sys(uid=0, gid=0, gids=())
    cbcred = auth_sys(machine="server77", uid=0, gid=0, gids=())

    def xc(r, ops, results):
        call = rpc_call(x(), compound(ops), cred=cred)
        return r.exchange(call, rpc_reply(call, compound_res(results)))

    def cb(r, ops, results, cbseq):
        call = rpc_call(0x77000000 + cbseq, cb_compound(ops, ident=7, prog=prog), cred=cbcred,
                        backchannel=True)
        return r.exchange(call, rpc_reply(call, cb_compound_res(results)))

    xc(rt, [op_exchange_id(owner=b"cbprog-client")], [res_exchange_id(CLIENTID + 2)])
    xc(rt, [op_create_session(CLIENTID + 2, cb_program=prog, cb_sec=AUTH_SYS_FLAVOR)],
       [res_create_session(sid)])
    call = rpc_call(0x77000000, proc_call(prog, 1, 0, b"", ops=["CB_NULL"]), cred=cbcred,
                    backchannel=True)
    rt.exchange(call, rpc_reply(call, plain_res()))
    st = stateid4(1, b"deleg7700002")
    cb(rt, [op_cb_sequence(sid, 1, 0, 0), op_cb_recall(st, fh4(5))],
       [res_cb_sequence(sid, 1, 0, 0, 0), res_simple("CB_RECALL")], 1)
    c2 = TcpConnection(cap, C4, 40133, S4, isn=(0x61000000, 0x62000000))
    rt2 = RpcTcp(exp, c2)
    c2.handshake()
    xc(rt2, [op_bind_conn_to_session(sid, CDFC4_BACK_OR_BOTH)],
       [res_bind_conn_to_session(sid, CDFS4_BOTH)])
    xc(rt2, [op_sequence(sid, 1, 0, 0), op_putfh(fh4(5)), op_getattr()],
       [res_sequence(sid, 1, 0, 0, 15), res_simple("PUTFH"), res_getattr(std_attrs(5))])
    cb(rt2, [op_cb_sequence(sid, 2, 0, 0, referring=[(sid, [(1, 0)])]), op_cb_recall(st, fh4(5), True)],
       [res_cb_sequence(sid, 2, 0, 0, 0), res_simple("CB_RECALL", "NFS4ERR_BAD_STATEID")], 2)
    c2.close()
    c.close()
    exp.meta["tshark_compare"] = False
    return exp


@scenario
def nfs40_compound(out):
    """NFSv4.0 COMPOUNDs (minor 0, no SEQUENCE) and an NFSv4.2 one with an
    EXCHANGE_ID (SP4_NONE); a COMPOUND tag; a failing LOOKUP (NFS4ERR_NOENT)."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x21000)
    c = TcpConnection(cap, C4, 40140, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    cred = auth_sys()
    call = rpc_call(x(), compound([op_putrootfh(), op_getfh(), op_getattr()], minor=0, tag=b"lookup root"),
                    cred=cred)
    rt.exchange(call, rpc_reply(call, compound_res([res_simple("PUTROOTFH"), res_getfh(fh4(1)),
                                                    res_getattr(std_attrs(1, 4096, NF4DIR))],
                                                   tag=b"lookup root")))
    call = rpc_call(x(), compound([op_putfh(fh4(1)), op_lookup("gone")], minor=0), cred=cred)
    rt.exchange(call, rpc_reply(call, compound_res([res_simple("PUTFH"),
                                                    res_simple("LOOKUP", "NFS4ERR_NOENT")])))
    call = rpc_call(x(), compound([op_exchange_id(owner=b"v42-client", sp=SP4_NONE)], minor=2),
                    cred=cred)
    rt.exchange(call, rpc_reply(call, compound_res([res_exchange_id(CLIENTID + 1)])))
    c.close()
    return exp


@scenario
def bigio_1mib(out):
    """1 MiB payloads that stream through the record layer (issue 11): NFSv3
    WRITE calls and READ replies of 1 MiB, each record split over hundreds of
    segments; NFSv4.0 COMPOUNDs with a 1 MiB WRITE followed by a GETATTR (an
    operation after the data: must still be decoded) and a 1 MiB READ result
    followed by a GETATTR result; a READDIRPLUS reply of 600 entries (over
    60 KiB of entries the decoder walks: kept whole)."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x25000)
    c = TcpConnection(cap, C4, 40180, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    mib = 1 << 20
    for i in range(2):
        call, rep = v3_write_call(x, FILE, i * mib, mib, seed=i)
        rt.exchange(call, rep)
        call, rep = v3_read_call(x, FILE, i * mib, mib, seed=i + 5)
        rt.exchange(call, rep)
        c.ack(0)
    ents = [(100 + k, "file-%04d.dat" % k, k + 1, fattr3(100 + k, size=k), fh3(100 + k)) for k in range(600)]
    call = rpc_call(x(), nfs3_call("READDIRPLUS", nfs3_readdirplus_args(DIR, maxcount=1 << 20)),
                    cred=auth_sys())
    rt.exchange(call, rpc_reply(call, nfs3_res("READDIRPLUS", "NFS3_OK",
                                              nfs3_readdirplus_res_ok(fattr3(2, NF3DIR, 4096, 0o755), ents))))
    cred = auth_sys()
    st = stateid4(1, b"open77000025")
    call = rpc_call(x(), compound([op_putfh(fh4(3)), op_write(st, 0, pattern(mib, 7)), op_getattr()],
                                  minor=0), cred=cred)
    rt.exchange(call, rpc_reply(call, compound_res([res_simple("PUTFH"), res_write(mib),
                                                    res_getattr(std_attrs(3, mib))])))
    call = rpc_call(x(), compound([op_putfh(fh4(3)), op_read(st, 0, mib), op_getattr()], minor=0),
                    cred=cred)
    rt.exchange(call, rpc_reply(call, compound_res([res_simple("PUTFH"), res_read(pattern(mib, 8)),
                                                    res_getattr(std_attrs(3, mib))])))
    c.ack(0)
    c.close()
    return exp


# ------------------------------------------------------------------ file formats

@scenario
def pcapng_nsec(out):
    """pcapng with nanosecond timestamps (if_tsresol 9): an NFSv3 TCP session
    with a timestamp step that is not a whole microsecond."""
    cap = Capture(fmt="pcapng", nsec=True, step_ns=100_123)
    exp = Expect(cap)
    tcp_v3_session(cap, exp, 40150, x=Xids(0x22000))
    return exp


@scenario
def pcap_nsec(out):
    """Classic pcap with the nanosecond magic (0xa1b23c4d)."""
    cap = Capture(nsec=True, step_ns=100_007)
    exp = Expect(cap)
    tcp_v3_session(cap, exp, 40160, x=Xids(0x23000))
    return exp


@scenario
def snaplen_bigio(out):
    """A `-s 200` capture of 256 KiB WRITEs and READs: the payload of most
    segments is not captured, yet every record starts a segment, so every RPC
    header and every reply status is inside the captured 200 bytes."""
    cap = Capture(snaplen=200)
    exp = Expect(cap)
    x = Xids(0x24000)
    c = TcpConnection(cap, C4, 40170, S4, mss=8948)        # jumbo frames
    rt = RpcTcp(exp, c)
    c.handshake()
    for i in range(3):
        call, rep = v3_write_call(x, FILE, i * 262144, 262144, seed=i)
        rt.exchange(call, rep)
        call, rep = v3_read_call(x, FILE, i * 262144, 262144, seed=i)
        rt.exchange(call, rep)
        c.ack(0)
    call = rpc_call(x(), nfs3_call("COMMIT", nfs3_commit_args(FILE)), cred=auth_sys())
    rt.exchange(call, rpc_reply(call, nfs3_res("COMMIT", "NFS3_OK", nfs3_commit_res_ok())))
    c.close()
    exp.meta["damaged"] = True
    return exp


@scenario
def cut_midpacket(out):
    """The file ends in the middle of the last packet (a READ reply): the
    transactions before it are complete; the cut READ has no reply.  nfsscope
    exits 2 (partial)."""
    cap = Capture()
    exp = Expect(cap)
    x = Xids(0x25000)
    c = TcpConnection(cap, C4, 40180, S4)
    rt = RpcTcp(exp, c)
    c.handshake()
    for call, rep in v3_mix(x)[:6]:
        rt.exchange(call, rep)
    call, rep = v3_read_call(x, FILE, 0, 1000)
    t = rt.call(call)
    c.flush(0)
    rt.reply(t, rep)
    (a, b, frame), = c.flush(1)
    # the last record in the file is cut 300 bytes before its end; the frame
    # is not in the file as far as any reader is concerned
    cap.cut = 300
    c.stream(1).segs = [s for s in c.stream(1).segs if s[0] != frame]
    exp.meta.update(nfsscope_exit=2, damaged=True, cut=True, frames=frame - 1)
    return exp


def main(argv):
    if len(argv) >= 2 and argv[1] == "--list":
        # file names; pcapng for the scenarios that write pcapng
        for name in SCENARIOS:
            print(name + (".pcapng" if name in PCAPNG else ".pcap"))
        return 0
    if len(argv) >= 3 and argv[1] == "--same-as":
        # determinism: regenerate into a temporary directory, compare bytes
        import filecmp
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            for name in SCENARIOS:
                SCENARIOS[name](tmp).write(tmp, name, "pcapng" if name in PCAPNG else "pcap")
            files = sorted(os.listdir(tmp))
            _, mismatch, errors = filecmp.cmpfiles(argv[2], tmp, files, shallow=False)
        for f in mismatch + errors:
            print("differs or missing: %s" % f)
        print("%d files compared, %d differ" % (len(files), len(mismatch) + len(errors)))
        return 1 if mismatch or errors else 0
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    outdir = argv[1]
    names = argv[2:] or list(SCENARIOS)
    os.makedirs(outdir, exist_ok=True)
    for name in names:
        exp = SCENARIOS[name](outdir)
        ext = "pcapng" if name in PCAPNG else "pcap"
        assert (exp.cap.writer.__class__.__name__ == "PcapngWriter") == (ext == "pcapng")
        path = exp.write(outdir, name, ext)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
