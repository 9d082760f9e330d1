#!/usr/bin/python3
"""Write the seed-thread captures (../shared/seeds, issue 3) with their
expected findings, sessions, READ_PLUS statistics and transactions.

    make_seed_captures.py OUTDIR [NAME...]   write all (or the named) captures
    make_seed_captures.py --list             print the capture names
    make_seed_captures.py --same-as DIR      regenerate into a temp dir, compare with DIR
    make_seed_captures.py --verify DIR       tshark cross-check of DIR/seed-*.pcap

For every NAME this writes OUTDIR/NAME.pcap, NAME.findings.json (findings,
sessions, read_plus: see samples/README-seeds.md), NAME.expected.jsonl and
NAME.meta.json (the transaction expectations of tests/gen/README.md).

Everything expected is derived from what the generator wrote (seed_lib.derive
implements the rules of doc/findings.md), never from nfsscope.  --verify runs
tshark and checks that its nfs.* fields (nfs.session_id4, nfs.slotid,
nfs.seqid, nfs.maxreqs4, nfs.nfsstat4, nfs.exchange_id.state_protect,
nfs.bctsa_dir) are, frame by frame, what the generator wrote, and that the
expected findings' frames are the replies/calls tshark sees there.
"""
import json
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from rpcbuild import (auth_sys, op_putrootfh, op_getattr, op_getfh, op_lookup, op_access,  # noqa: E402
                      op_reclaim_complete, op_read, op_read_plus, res_getattr, res_getfh,
                      res_access, res_open, res_close, std_attrs, stateid4, fh4, SP4_NONE,
                      SP4_MACH_CRED, CDFC4_FORE_OR_BOTH, CDFS4_BOTH, CDFS4_FORE, NF4DIR,
                      NFS4_STATUS, rpcsec_gss)
from seed_lib import (Run, derive, s_op, s_sequence, s_exchange_id, s_create_session,  # noqa: E402
                      s_bind, s_open, s_close, s_putfh, r_sequence, r_exchange_id,
                      r_create_session, r_bind, r_op, r_simple, r_read, r_read_plus, TF_FIELDS)

CRED = auth_sys(machine="nconnect-client", uid=0, gid=0, gids=())
SCENARIOS = {}
READ_PLUS = {"seed-001-read-plus"}     # captures whose expectations include "read_plus"


def scenario(name):
    def deco(fn):
        SCENARIOS[name] = fn
        return fn
    return deco


def pattern(n, seed=0):
    return bytes(((i * 31 + seed) % 251) | 0x01 for i in range(n))


ROOT_ATTRS = std_attrs(1, 4096, NF4DIR, 0o755)
CLOSED = stateid4(0xFFFFFFFF, b"\0" * 12)     # RFC 8881 18.2.4: CLOSE returns the invalid special stateid


class Client:
    """The client side of one NFSv4.1 client ID: lowest-free-slot
    allocation, a per-slot sequence ID that advances on every use (as the
    client in thread 000 did, whatever the server answered), retired slots."""

    def __init__(self, run, sid, hs_req):
        self.run, self.sid, self.hs = run, sid, hs_req
        self.cseq = {}
        self.busy = set()
        self.retired = set()

    def slot(self):
        s = 0
        while s in self.busy or s in self.retired:
            s += 1
        return s

    def seq_op(self, slot, cachethis=False):
        n = self.cseq.get(slot, 0) + 1
        self.cseq[slot] = n
        return s_sequence(self.sid, n, slot, self.hs, cachethis)


class Server:
    """Server side of one session: per-slot expected sequence ID, bound
    connections (SP4_MACH_CRED: only CREATE_SESSION and BIND_CONN_TO_SESSION
    bind), highest slot and target it answers with."""

    def __init__(self, sid, granted, mach_cred, hs=None, target=None):
        self.sid, self.granted, self.mach_cred = sid, granted, mach_cred
        self.expect = {}
        self.bound = set()
        self.hs = granted - 1 if hs is None else hs
        self.target = self.hs if target is None else target
        self.rc_done = False

    def sequence(self, seqop, conn):
        """Result of the SEQUENCE op (status first, as a Linux server checks:
        slot, sequence ID, then the connection binding)."""
        p = seqop.p
        slot, seq = p["slot"], p["seq"]
        if slot > self.hs:
            return r_sequence(self.sid, seq, slot, self.hs, self.target, "NFS4ERR_BADSLOT")
        want = self.expect.get(slot, 1)
        if seq != want:
            return r_sequence(self.sid, seq, slot, self.hs, self.target, "NFS4ERR_SEQ_MISORDERED")
        if self.mach_cred and conn not in self.bound:
            return r_sequence(self.sid, seq, slot, self.hs, self.target,
                              "NFS4ERR_CONN_NOT_BOUND_TO_SESSION")
        self.expect[slot] = want + 1
        return r_sequence(self.sid, seq, slot, self.hs, self.target)


def mount(run, rt_exid, rt_cs, owner, clientid, sid, sp, fore_req, fore_grant, back_req=1,
          back_grant=1, csa_seq=1, minor=1, null=True, gap=0.0004):
    """NULL, EXCHANGE_ID on rt_exid, CREATE_SESSION on rt_cs."""
    if null:
        rx = run.null(rt_exid)
        run.later(gap)
        run.reply(rx)
        run.later(gap)
    rx = run.call(rt_exid, [s_exchange_id(owner, sp)], CRED, minor=minor)
    run.later(gap)
    run.reply(rx, [r_exchange_id(clientid, 1, sp)])
    run.later(gap)
    rx = run.call(rt_cs, [s_create_session(clientid, csa_seq, fore_req, back_req)], CRED,
                  minor=minor)
    run.later(gap)
    run.reply(rx, [r_create_session(sid, csa_seq, fore_grant, back_grant)])
    run.later(gap)


def xc(run, rt, ops, results, lat=0.0003, after=0.0003, minor=1, ack=False, cred=None):
    rx = run.call(rt, ops, cred or CRED, minor=minor)
    run.later(lat)
    run.reply(rx, results)
    if ack:
        run.later(0.00004)
        rt.conn.ack(0)
    run.later(after)
    return rx


# ===================================================================== 000

@scenario("seed-000-nconnect-misbind")
def seed_000(run):
    """Thread 000: nconnect=4 under SP4_MACH_CRED.  The captured order of the
    thread (C1 NULL, C1 EXCHANGE_ID, C2 CREATE_SESSION, C1 RECLAIM_COMPLETE ->
    CONN_NOT_BOUND, C1 PUTROOTFH|GETATTR -> SEQ_MISORDERED, C2 SEQUENCE ok, C1
    -> CONN_NOT_BOUND, C1 + C2 BIND_CONN_TO_SESSION ok, C2 -> SEQ_MISORDERED),
    a few mount requests, then 14 s later the nconnect workload on c1..c4
    (c3 and c4 never bound: CONN_NOT_BOUND; slots whose sequence ID the
    client advanced anyway: SEQ_MISORDERED) and OPENs on c1 and c2 answered
    NFS4ERR_GRACE for two minutes (RECLAIM_COMPLETE failed, never retried).
    As in the thread (sec=sys, keytabs on both sides) the lease management
    operations -- EXCHANGE_ID, CREATE_SESSION, RECLAIM_COMPLETE,
    BIND_CONN_TO_SESSION -- go with RPCSEC_GSS krb5i, everything else AUTH_SYS."""
    gss_seq = [0x1000]

    def krb5i():
        gss_seq[0] += 1
        return rpcsec_gss(gss_seq[0], "integrity", handle=b"\x00\x00\x00\x07klimt-ctx")

    clientid = 0x5eed000000000001
    sid = bytes.fromhex("5eed0000000000010000000100000001")
    r1 = run.connect(51101, (0x10000000, 0x20000000))
    run.later(0.0002)
    rx = run.null(r1)
    run.later(0.0002)
    run.reply(rx)
    run.later(0.0003)
    rx = run.call(r1, [s_exchange_id(b"Linux NFSv4.1 klimt.example.net", SP4_MACH_CRED)], krb5i())
    run.later(0.0004)
    run.reply(rx, [r_exchange_id(clientid, 1, SP4_MACH_CRED)])
    run.later(0.0005)
    r2 = run.connect(51102, (0x11000000, 0x21000000))
    run.later(0.0002)
    rx = run.call(r2, [s_create_session(clientid, 1, 64, 1)], krb5i())
    run.later(0.0005)
    run.reply(rx, [r_create_session(sid, 1, 64, 1)])
    srv = Server(sid, 64, mach_cred=True)
    srv.bound.add(r2.conn.conn)
    cl = Client(run, sid, 0)
    run.later(0.0003)

    def conn_of(rt):
        return rt.conn.conn

    def req(rt, tail_ops, tail_results, lat=0.0003, after=0.0003, slot=None, ack=False, cred=None):
        """One SEQUENCE COMPOUND; server answers per its model."""
        s = cl.slot() if slot is None else slot
        op = cl.seq_op(s)
        r0 = srv.sequence(op, conn_of(rt))
        results = [r0] + (tail_results if r0.status == "NFS4_OK" else [])
        rx = xc(run, rt, [op] + tail_ops, results, lat=lat, after=after, ack=ack, cred=cred)
        if r0.status == "NFS4ERR_SEQ_MISORDERED":
            cl.retired.add(s)
        return rx

    getattr_ops = [s_op(op_putrootfh()), s_op(op_getattr())]
    getattr_res = [r_simple("PUTROOTFH"), r_op(res_getattr(ROOT_ATTRS))]
    # the thread's order
    rc = req(r1, [s_op(op_reclaim_complete())], [r_simple("RECLAIM_COMPLETE")], cred=krb5i())
    req(r1, getattr_ops, getattr_res)
    req(r2, [], [])
    req(r1, getattr_ops, getattr_res)
    xc(run, r1, [s_bind(sid, CDFC4_FORE_OR_BOTH)], [r_bind(sid, CDFS4_BOTH)], cred=krb5i())
    srv.bound.add(conn_of(r1))
    xc(run, r2, [s_bind(sid, CDFC4_FORE_OR_BOTH)], [r_bind(sid, CDFS4_FORE)], cred=krb5i())
    req(r2, getattr_ops, getattr_res, ack=True)
    assert rc.status == "NFS4ERR_CONN_NOT_BOUND_TO_SESSION"
    # the rest of the mount: simple requests on c1 and c2
    export_fh = fh4(2)
    run.later(0.002)
    req(r1, [s_op(op_putrootfh()), s_op(op_lookup("export")), s_op(op_getfh()), s_op(op_getattr())],
        [r_simple("PUTROOTFH"), r_simple("LOOKUP"), r_op(res_getfh(export_fh)),
         r_op(res_getattr(std_attrs(2, 4096, NF4DIR, 0o755)))])
    req(r2, [s_putfh(export_fh), s_op(op_access())], [r_simple("PUTFH"), r_op(res_access())])
    req(r1, [s_putfh(export_fh), s_op(op_getattr())],
        [r_simple("PUTFH"), r_op(res_getattr(std_attrs(2, 4096, NF4DIR, 0o755)))], ack=True)
    r2.conn.ack(0)

    # 14 s later: the workload; nconnect=4 brings up c3 and c4 (NULL ping each)
    run.at(14.0)
    r3 = run.connect(51103, (0x12000000, 0x22000000))
    run.later(0.0002)
    rx = run.null(r3)
    run.later(0.0002)
    run.reply(rx)
    run.later(0.0003)
    r4 = run.connect(51104, (0x13000000, 0x23000000))
    run.later(0.0002)
    rx = run.null(r4)
    run.later(0.0002)
    run.reply(rx)
    run.later(0.01)
    conns = [r1, r2, r3, r4]
    rr = 0
    files = [fh4(20 + i) for i in range(6)]
    t = 14.05
    for wave in range(26):
        run.at(t)
        sent = []
        for k in range(3):                      # three requests in flight, round robin
            rt = conns[rr % 4]
            rr += 1
            s = cl.slot()
            cl.busy.add(s)
            op = cl.seq_op(s)
            fh = files[(wave + k) % len(files)]
            kind = (wave * 3 + k) % 4           # mostly GETATTR, some ACCESS and LOOKUP
            tail = {0: [s_op(op_getattr())], 1: [s_op(op_access())], 2: [s_op(op_getattr())],
                    3: [s_op(op_lookup("f%d" % k)), s_op(op_getfh())]}[kind]
            rx = run.call(rt, [op, s_putfh(fh)] + tail, CRED)
            rx.kind = kind
            sent.append((rt, s, op, rx))
            run.later(0.00005)
        run.later(0.00025)
        for rt, s, op, rx in sent:
            r0 = srv.sequence(op, conn_of(rt))
            ok_tail = {0: [r_op(res_getattr(std_attrs(20, 1 << 20)))], 1: [r_op(res_access())],
                       2: [r_op(res_getattr(std_attrs(21, 4096)))],
                       3: [r_simple("LOOKUP"), r_op(res_getfh(fh4(60 + rx.kind)))]}[rx.kind]
            results = [r0] + ([r_simple("PUTFH")] + ok_tail if r0.status == "NFS4_OK" else [])
            run.reply(rx, results)
            cl.busy.discard(s)
            if r0.status == "NFS4ERR_SEQ_MISORDERED":
                cl.retired.add(s)
            run.later(0.00006)
        t += 0.12 + 0.01 * (wave % 3)
    run.later(0.04)
    for rt in conns:
        rt.conn.ack(0)
        run.later(0.00005)

    # OPENs on c1 and c2, NFS4ERR_GRACE for two minutes (client backoff
    # 0.1 s doubling to 15 s, as the Linux client's nfs4_delay)
    plan = []
    for who, (rt, start, name) in enumerate(((r1, 20.0, "iozone.tmp"), (r2, 20.05, "iozone.DUMMY.1"))):
        tt, d = start, 0.1
        while tt < start + 118:
            plan.append((tt, who, rt, name))
            tt += d
            d = min(d * 2, 15.0)
    plan.sort(key=lambda p: p[0])
    dirfh = export_fh
    for tt, who, rt, name in plan:
        run.at(tt)
        req(rt, [s_putfh(dirfh), s_open(name, clientid, create=True), s_op(op_getfh()),
                 s_op(op_access()), s_op(op_getattr())],
            [r_simple("PUTFH"), r_op(res_open(b"", status="NFS4ERR_GRACE"))],
            lat=0.0004, after=0.0, ack=False)
        run.later(0.02)
        rt.conn.ack(0)


# ===================================================================== 002

def seed_002(run, granted, depth, nreads):
    run.cap.step_ns = 4000          # 40 GbE: packets microseconds apart
    clientid = 0x5eed000000000002
    sid = bytes.fromhex("5eed00000000000200000001000000%02x" % granted)
    r1 = run.connect(51201, (0x30000000, 0x40000000), mss=8948)
    run.later(0.0002)
    mount(run, r1, r1, b"Linux NFSv4.1 client-002.example.net", clientid, sid, SP4_NONE, 64,
          granted)
    cl = Client(run, sid, 0)
    cl.hs = 0
    xc(run, r1, [cl.seq_op(0), s_op(op_reclaim_complete())],
       [r_sequence(sid, 1, 0, granted - 1, granted - 1), r_simple("RECLAIM_COMPLETE")])
    xc(run, r1, [cl.seq_op(0), s_op(op_putrootfh()), s_op(op_getfh()), s_op(op_getattr())],
       [r_sequence(sid, 2, 0, granted - 1, granted - 1), r_simple("PUTROOTFH"),
        r_op(res_getfh(fh4(1))), r_op(res_getattr(ROOT_ATTRS))])
    fh = fh4(30)
    st = stateid4(1, b"open0020001a")
    xc(run, r1, [cl.seq_op(0), s_putfh(fh4(1)), s_open("bigfile", clientid), s_op(op_getfh())],
       [r_sequence(sid, 3, 0, granted - 1, granted - 1), r_simple("PUTFH"), r_op(res_open(st)),
        r_op(res_getfh(fh))], ack=True)
    run.later(0.01)
    # slot 0 is at sequence 3, the others start at 1
    seqs = read_load_002(run, r1, sid, granted, depth, fh, st, nreads, base_seq={0: 3})
    run.later(0.002)
    n = seqs[0] + 1
    xc(run, r1, [s_sequence(sid, n, 0, 0), s_putfh(fh), s_close(st)],
       [r_sequence(sid, n, 0, granted - 1, granted - 1), r_simple("PUTFH"),
        r_op(res_close(CLOSED))], ack=True)




def read_load_002(run, rt, sid, granted, depth, fh, st, nreads, base_seq, size=8192,
                  rtt=0.00018, gap=0.000006):
    import heapq
    seqs = dict(base_seq)
    free = list(range(depth))
    heap = []
    state = {"off": 0, "sent": 0, "n": 0}

    def send(t):
        free.sort()
        s = free.pop(0)
        seqs[s] = seqs.get(s, 0) + 1
        if run.t < t:
            run.at(t)
        op = s_sequence(sid, seqs[s], s, depth - 1)
        off = state["off"]
        rx = run.call(rt, [op, s_putfh(fh), s_op(op_read(st, off, size))], CRED)
        heapq.heappush(heap, (run.t + rtt, state["n"], s, seqs[s], rx, off))
        state["n"] += 1
        state["off"] += size
        state["sent"] += 1

    t0 = run.t
    for i in range(min(depth, nreads)):
        send(t0 + i * 0.00001)
    replies = 0
    while heap:
        t, _, s, seq, rx, o = heapq.heappop(heap)
        if run.t < t:
            run.at(t)
        run.reply(rx, [r_sequence(sid, seq, s, granted - 1, granted - 1), r_simple("PUTFH"),
                       r_read(pattern(size, o // size), eof=False)])
        replies += 1
        if replies % 2 == 0:
            rt.conn.ack(0)
        free.append(s)
        if state["sent"] < nreads:
            send(run.t + gap)
    if replies % 2:
        rt.conn.ack(0)
    return seqs


@scenario("seed-002-slots-64-granted-10")
def seed_002_10(run):
    """Thread 002 before the fix: CREATE_SESSION asks 64 fore-channel slots,
    the server grants 10; a read-ahead of 8 KiB READs that would go deeper
    stays at 10 in flight (slots 0-9, never above), all slots busy most of
    the time: SLOT_LIMITED (warning)."""
    seed_002(run, 10, 10, 80)


@scenario("seed-002-slots-64-granted-31")
def seed_002_31(run):
    """Thread 002 after the fix: 64 asked, 31 granted; the same reads 16 deep
    (slots 0-15): the table never fills: SLOT_LIMITED (info)."""
    seed_002(run, 31, 16, 80)


# ===================================================================== 001

@scenario("seed-001-read-plus")
def seed_001(run):
    """Thread 001: NFSv4.2 READ_PLUS replies with data and hole segments on
    two files (mixed.img: data and holes; hole.img: all hole), plain READs of
    a third file and one of mixed.img.  No findings."""
    clientid = 0x5eed000000000003
    sid = bytes.fromhex("5eed0000000000030000000100000001")
    r1 = run.connect(51301, (0x50000000, 0x60000000))
    run.later(0.0002)
    mount(run, r1, r1, b"Linux NFSv4.2 client-001.example.net", clientid, sid, SP4_NONE, 64, 64,
          minor=2)
    cl = Client(run, sid, 0)

    def q(ops, results, ack=False):
        s = 0
        op = cl.seq_op(s)
        return xc(run, r1, [op] + ops, [r_sequence(sid, op.p["seq"], 0, 63, 63)] + results,
                  minor=2, ack=ack)

    q([s_op(op_reclaim_complete())], [r_simple("RECLAIM_COMPLETE")])
    q([s_op(op_putrootfh()), s_op(op_getfh())], [r_simple("PUTROOTFH"), r_op(res_getfh(fh4(1)))])
    files = {"mixed.img": fh4(41), "hole.img": fh4(42), "plain.bin": fh4(43)}
    sts = {}
    for i, (name, fh) in enumerate(files.items()):
        st = stateid4(1, b"open001%05d" % i)
        sts[name] = st
        q([s_putfh(fh4(1)), s_open(name, clientid, access=1), s_op(op_getfh())],
          [r_simple("PUTFH"), r_op(res_open(st)), r_op(res_getfh(fh))], ack=True)
    run.later(0.01)
    K = 65536
    mixed = [
        [("data", 0, pattern(4096, 1)), ("hole", 4096, K - 4096)],
        [("hole", K, K)],
        [("data", 2 * K, pattern(8192, 2)), ("hole", 2 * K + 8192, 16384),
         ("data", 2 * K + 24576, pattern(4096, 3)), ("hole", 2 * K + 28672, K - 28672)],
        [("hole", 3 * K, 32768), ("data", 3 * K + 32768, pattern(2048, 4))],
    ]
    for i, segs in enumerate(mixed):
        q([s_putfh(files["mixed.img"]), s_op(op_read_plus(sts["mixed.img"], i * K, K))],
          [r_simple("PUTFH"), r_read_plus(segs, eof=(i == len(mixed) - 1))], ack=True)
    M = 1 << 20
    for i in range(2):
        q([s_putfh(files["hole.img"]), s_op(op_read_plus(sts["hole.img"], i * M, M))],
          [r_simple("PUTFH"), r_read_plus([("hole", i * M, M)], eof=(i == 1))], ack=True)
    for i in range(3):
        q([s_putfh(files["plain.bin"]), s_op(op_read(sts["plain.bin"], i * 8192, 8192))],
          [r_simple("PUTFH"), r_read(pattern(8192 if i < 2 else 3000, 10 + i), eof=(i == 2))],
          ack=True)
    q([s_putfh(files["mixed.img"]), s_op(op_read(sts["mixed.img"], 0, 4096))],
      [r_simple("PUTFH"), r_read(pattern(4096, 1))], ack=True)
    for name, fh in files.items():
        q([s_putfh(fh), s_close(sts[name])],
          [r_simple("PUTFH"), r_op(res_close(CLOSED))])
    r1.conn.ack(0)


# ===================================================================== slot rules

@scenario("seed-slot-rules")
def seed_slot_rules(run):
    """Slot-rule violations a server need not complain about, on three
    sessions of one client (SP4_NONE), each created on its own connection.
    Session A (c1, 8 slots): REPLAY x2, FALSE_RETRY x1, SLOT_SEQ_GAP x3 (two of
    them answered SEQ_MISORDERED), SEQUENCE_POS x2.  Session B (c2, 4 slots):
    SLOT_ABOVE_GRANTED x3 (two above the CREATE_SESSION grant, one above a
    lowered sr_highest_slotid).  Session C (c3, 16 slots): SLOT_TABLE_SHRUNK
    x2 (target_highest_slotid cut under load), and one cut with nothing
    outstanding that must not count."""
    clientid = 0x5eed000000000004
    sa = bytes.fromhex("5eed000000000004000000010000000a")
    sb = bytes.fromhex("5eed000000000004000000020000000b")
    sc = bytes.fromhex("5eed000000000004000000030000000c")
    r1 = run.connect(51401, (0x70000000, 0x71000000))
    run.later(0.0002)
    mount(run, r1, r1, b"Linux NFSv4.1 client-rules.example.net", clientid, sa, SP4_NONE, 8, 8)

    def seqx(rt, sid, slot, seq, ops, results, hs=7, target=7, status="NFS4_OK", cache=False,
             raw_first=None, after=0.0003):
        op = s_sequence(sid, seq, slot, 0, cache)
        r0 = r_sequence(sid, seq, slot, hs, target, status)
        return xc(run, rt, [op] + ops, [r0] + (results if status == "NFS4_OK" else []),
                  after=after)

    ga = [s_op(op_putrootfh()), s_op(op_getattr())]
    gr = [r_simple("PUTROOTFH"), r_op(res_getattr(ROOT_ATTRS))]
    # --- session A
    seqx(r1, sa, 0, 1, [s_op(op_reclaim_complete())], [r_simple("RECLAIM_COMPLETE")])
    # six in flight: slots 0..5 (slot 0 at 2)
    pend = []
    for slot in range(6):
        seq = 2 if slot == 0 else 1
        op = s_sequence(sa, seq, slot, 5)
        pend.append((op, run.call(r1, [op] + ga, CRED)))
        run.later(0.00005)
    run.later(0.0002)
    for op, rx in pend:
        run.reply(rx, [r_sequence(sa, op.p["seq"], op.p["slot"], 7, 7)] + gr)
        run.later(0.00005)
    r1.conn.ack(0)
    run.later(0.01)
    rd = [s_putfh(fh4(50)), s_op(op_read(stateid4(1, b"anon00000000"), 0, 512))]
    rdr = [r_simple("PUTFH"), r_read(pattern(512, 5))]
    seqx(r1, sa, 0, 3, ga, gr, cache=True)
    run.later(0.05)
    seqx(r1, sa, 0, 3, ga, gr, cache=True)                 # REPLAY 1 (cached reply)
    seqx(r1, sa, 0, 4, ga, gr)
    seqx(r1, sa, 1, 2, rd, rdr, cache=True)
    run.later(0.05)
    seqx(r1, sa, 1, 2, rd, rdr, cache=True)                # REPLAY 2
    seqx(r1, sa, 1, 3, ga, gr)
    seqx(r1, sa, 1, 3, rd, rdr, status="NFS4ERR_SEQ_FALSE_RETRY")   # FALSE_RETRY
    seqx(r1, sa, 1, 4, ga, gr)
    seqx(r1, sa, 2, 2, ga, gr)
    seqx(r1, sa, 2, 4, ga, gr, status="NFS4ERR_SEQ_MISORDERED")     # GAP 1 (+2)
    seqx(r1, sa, 2, 3, ga, gr)                                      # GAP 2 (back)
    seqx(r1, sa, 3, 2, ga, gr)
    seqx(r1, sa, 3, 7, ga, gr, status="NFS4ERR_SEQ_MISORDERED")     # GAP 3 (+5)
    # SEQUENCE not first: refused with OP_NOT_IN_SESSION for the first op
    xc(run, r1, [s_op(op_putrootfh()), s_sequence(sa, 2, 4, 0), s_op(op_getattr())],
       [r_simple("PUTROOTFH", "NFS4ERR_OP_NOT_IN_SESSION")])
    xc(run, r1, [s_putfh(fh4(50)), s_sequence(sa, 2, 5, 0), s_op(op_getattr())],
       [r_simple("PUTFH", "NFS4ERR_OP_NOT_IN_SESSION")], ack=True)

    # --- session B: 4 slots
    run.later(0.2)
    r2 = run.connect(51402, (0x72000000, 0x73000000))
    run.later(0.0002)
    rx = run.call(r2, [s_create_session(clientid, 2, 4, 1)], CRED)
    run.later(0.0004)
    run.reply(rx, [r_create_session(sb, 2, 4, 1)])
    run.later(0.0003)
    pend = []
    for slot in range(4):
        op = s_sequence(sb, 1, slot, 3)
        pend.append((op, run.call(r2, [op] + ga, CRED)))
        run.later(0.00005)
    run.later(0.0002)
    for op, rx in pend:
        run.reply(rx, [r_sequence(sb, 1, op.p["slot"], 3, 3)] + gr)
        run.later(0.00005)
    r2.conn.ack(0)
    run.later(0.01)
    seqx(r2, sb, 4, 1, ga, gr, status="NFS4ERR_BADSLOT")            # ABOVE 1
    seqx(r2, sb, 6, 1, ga, gr, status="NFS4ERR_BADSLOT")            # ABOVE 2
    seqx(r2, sb, 0, 2, ga, gr, hs=1, target=1)                      # server lowers to slot 1
    seqx(r2, sb, 3, 2, ga, gr, status="NFS4ERR_BADSLOT")            # ABOVE 3
    seqx(r2, sb, 1, 2, ga, gr, hs=1, target=1)
    r2.conn.ack(0)

    # --- session C: 16 slots, target cut under load
    run.later(0.2)
    r3 = run.connect(51403, (0x74000000, 0x75000000))
    run.later(0.0002)
    rx = run.call(r3, [s_create_session(clientid, 3, 16, 1)], CRED)
    run.later(0.0004)
    run.reply(rx, [r_create_session(sc, 3, 16, 1)])
    run.later(0.0003)
    seqc = {}

    def burst(n, targets):
        pend = []
        for slot in range(n):
            seqc[slot] = seqc.get(slot, 0) + 1
            op = s_sequence(sc, seqc[slot], slot, n - 1)
            pend.append((op, run.call(r3, [op] + ga, CRED)))
            run.later(0.00005)
        run.later(0.0003)
        for (op, rx), tg in zip(pend, targets):
            run.reply(rx, [r_sequence(sc, op.p["seq"], op.p["slot"], 15, tg)] + gr)
            run.later(0.00005)
        r3.conn.ack(0)
        run.later(0.02)

    burst(12, [15] + [3] * 11)          # SHRUNK 1 (second reply: 10 still outstanding)
    burst(4, [15] * 4)                  # grows back
    burst(10, [15, 5] + [5] * 8)        # SHRUNK 2 (second reply: 8 still outstanding)
    burst(1, [2])                       # cut with nothing else outstanding: not counted


# ===================================================================== driver

def build(name):
    run = Run()
    SCENARIOS[name](run)
    return run


def write(outdir, name):
    run = build(name)
    path = run.exp.write(outdir, name)
    exp = derive(run)
    if name not in READ_PLUS:
        exp.pop("read_plus", None)
    exp = {"capture": name + ".pcap", "frames": run.cap.nframes, **exp}
    with open(os.path.join(outdir, name + ".findings.json"), "w") as f:
        json.dump(exp, f, indent=1)
        f.write("\n")
    return path


def tshark_fields(tshark, capture):
    cmd = [tshark, "-r", capture, "-n", "-o", "tcp.reassemble_out_of_order:TRUE", "-Y", "rpc",
           "-T", "fields", "-E", "separator=\t", "-E", "occurrence=a", "-E", "aggregator=|",
           "-e", "frame.number", "-e", "rpc.xid", "-e", "rpc.msgtyp"]
    for f in TF_FIELDS:
        cmd += ["-e", f]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise RuntimeError("tshark failed: %s" % p.stderr[-300:])
    out = {}
    for line in p.stdout.splitlines():
        c = line.split("\t")
        c += [""] * (3 + len(TF_FIELDS) - len(c))
        vals = {}
        for k, v in zip(TF_FIELDS, c[3:]):
            items = [x for x in v.split("|") if x != ""]
            if k == "nfs.session_id4":
                vals[k] = [x.replace(":", "").lower() for x in items]
            else:
                vals[k] = [int(x, 0) for x in items]
        out[int(c[0])] = ([int(x, 0) for x in c[1].split("|") if x],
                          [int(x, 0) for x in c[2].split("|") if x], vals)
    return out


def verify(outdir, names):
    tshark = shutil.which("tshark")
    if not tshark:
        print("tshark not found: skipped")
        return 77
    bad = 0
    for name in names:
        errs = []
        cap = os.path.join(outdir, name + ".pcap")
        # the generator's view, rebuilt in memory (deterministic)
        want = {k: {"xid": v[0], "msgtyp": v[1], "fields": v[2]}
                for k, v in build(name).tshark_expect().items()}
        with open(os.path.join(outdir, name + ".findings.json")) as f:
            fj = json.load(f)
        got = tshark_fields(tshark, cap)
        for fr in sorted(set(want) | set(got)):
            if fr not in got:
                errs.append("frame %d: tshark shows no RPC" % fr)
                continue
            if fr not in want:
                errs.append("frame %d: tshark shows an RPC the generator did not write" % fr)
                continue
            w = want[fr]
            xids, typs, vals = got[fr]
            if xids != [w["xid"]] or typs != [w["msgtyp"]]:
                errs.append("frame %d: xid/msgtyp %s/%s, want 0x%08x/%d" % (fr, xids, typs, w["xid"],
                                                                           w["msgtyp"]))
            for k in TF_FIELDS:
                wv = w["fields"].get(k, [])
                if vals[k] != wv:
                    errs.append("frame %d: %s = %s, want %s" % (fr, k, vals[k], wv))
        # findings' frames: replies carry the error status tshark decodes
        st_want = {"CONN_NOT_BOUND": NFS4_STATUS["NFS4ERR_CONN_NOT_BOUND_TO_SESSION"],
                   "CONN_NOT_BOUND_STORM": NFS4_STATUS["NFS4ERR_CONN_NOT_BOUND_TO_SESSION"],
                   "SEQ_MISORDERED": NFS4_STATUS["NFS4ERR_SEQ_MISORDERED"],
                   "SEQ_MISORDERED_STORM": NFS4_STATUS["NFS4ERR_SEQ_MISORDERED"]}
        for fd in fj["findings"]:
            for fr in fd["frames"]:
                if fr not in got:
                    errs.append("%s frame %d: not an RPC frame for tshark" % (fd["kind"], fr))
                    continue
                st = got[fr][2]["nfs.nfsstat4"]
                if fd["kind"] in st_want and (not st or st[0] != st_want[fd["kind"]]):
                    errs.append("%s frame %d: tshark status %s" % (fd["kind"], fr, st))
                if fd["kind"] == "GRACE_STUCK" and fr != fd["frames"][0] and \
                        (not st or st[0] != NFS4_STATUS["NFS4ERR_GRACE"]):
                    errs.append("GRACE_STUCK frame %d: tshark status %s" % (fr, st))
                if fd["kind"] in ("SLOT_SEQ_GAP", "SLOT_ABOVE_GRANTED", "REPLAY", "FALSE_RETRY",
                                  "SEQUENCE_POS") and got[fr][1] != [0]:
                    errs.append("%s frame %d: not a call for tshark" % (fd["kind"], fr))
                if fd["kind"] == "SLOT_TABLE_SHRUNK" and got[fr][1] != [1]:
                    errs.append("%s frame %d: not a reply for tshark" % (fd["kind"], fr))
                sess_frames = {"REPLAY": None, "FALSE_RETRY": None, "SLOT_SEQ_GAP": None,
                               "SLOT_ABOVE_GRANTED": None, "SLOT_TABLE_SHRUNK": None,
                               "SLOT_LIMITED": fd["frames"][-1]}
                if fd["kind"] in sess_frames and sess_frames[fd["kind"]] in (None, fr) and \
                        fd["session"] not in got[fr][2]["nfs.session_id4"]:
                    errs.append("%s frame %d: session %s not in tshark's view" % (fd["kind"], fr,
                                                                                  fd["session"]))
        # counts of the per-reply findings, counted independently from tshark's
        # view: replies whose COMPOUND status is the error (one session per capture
        # carries them all)
        for kind, code in (("CONN_NOT_BOUND", "NFS4ERR_CONN_NOT_BOUND_TO_SESSION"),
                           ("SEQ_MISORDERED", "NFS4ERR_SEQ_MISORDERED"),
                           ("GRACE_STUCK", "NFS4ERR_GRACE")):
            n = sum(1 for v in got.values() if v[1] == [1] and v[2]["nfs.nfsstat4"][:1] ==
                    [NFS4_STATUS[code]])
            want_n = sum(fd["count"] for fd in fj["findings"] if fd["kind"] == kind)
            if n and want_n != n:
                errs.append("%s: expected count %d, tshark shows %d such replies" % (kind, want_n, n))
        # sessions: granted/requested maxreqs as tshark decodes CREATE_SESSION
        for s in fj["sessions"]:
            hits = [(fr, v) for fr, v in got.items() if v[2]["nfs.maxreqs4"] and
                    s["sessionid"] in v[2]["nfs.session_id4"]]
            ok = any(v[2]["nfs.maxreqs4"] == [s["fore_channel"]["granted_max_requests"],
                                              s["back_channel"]["granted_max_requests"]] for _, v in hits)
            if not ok:
                errs.append("session %s: tshark's CREATE_SESSION reply maxreqs differ" % s["sessionid"])
        if errs:
            bad += 1
            print("FAIL %s" % name)
            for e in errs[:40]:
                print("  " + e)
        else:
            print("ok   %s: %d RPC frames agree with tshark's nfs.* fields" % (name, len(want)))
    return 1 if bad else 0


def main(argv):
    if len(argv) >= 2 and argv[1] == "--list":
        for n in SCENARIOS:
            print(n + ".pcap")
        return 0
    if len(argv) >= 3 and argv[1] == "--verify":
        names = argv[3:] or list(SCENARIOS)
        return verify(argv[2], names)
    if len(argv) >= 3 and argv[1] == "--same-as":
        import filecmp
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            for n in SCENARIOS:
                write(tmp, n)
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
    os.makedirs(outdir, exist_ok=True)
    for n in argv[2:] or list(SCENARIOS):
        print(write(outdir, n))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
