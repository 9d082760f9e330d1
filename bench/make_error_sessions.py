#!/usr/bin/env python3
"""Error-heavy, session-heavy NFSv4.1 traffic for the benchmark (issue 21):
what a conformance suite run against a server puts on the wire.

    make_error_sessions.py OUT.pcap FRAMES [CLIENTS] [DT_US]

CLIENTS (default 48) TCP connections, each living through session after
session until FRAMES Ethernet frames are written (DT_US, default 250 us,
between frames: 1M frames span about 250 s of capture time):

  - EXCHANGE_ID and CREATE_SESSION (64 slots asked, 16 granted: SLOT_LIMITED
    for every session); thousands of sessions over the capture;
  - turns of 4 calls in flight: SEQUENCE PUTFH GETATTR, LOOKUP, ACCESS, READ,
    and long COMPOUNDs (SEQUENCE PUTFH then 20 to 98 LOOKUP/GETATTR/ACCESS
    operations); errors injected on a fixed pseudo-random schedule:
    NFS4ERR_SEQ_MISORDERED after a skipped sequence ID (SLOT_SEQ_GAP),
    NFS4ERR_CONN_NOT_BOUND_TO_SESSION, NFS4ERR_DELAY, slots above the grant
    answered NFS4ERR_BADSLOT (SLOT_ABOVE_GRANTED), retries (REPLAY), false
    retries (FALSE_RETRY), SEQUENCE not first (SEQUENCE_POS), a lowered
    target_highest_slotid (SLOT_TABLE_SHRUNK), NFS4ERR_DEADSESSION; bursts of
    them make the <K>_STORM findings;
  - the end of a session: DESTROY_SESSION and the client going on using it
    (NFS4ERR_BADSESSION, DEAD_SESSION_USE) before a new CREATE_SESSION; or a
    server restart: BADSESSION for a while, CREATE_SESSION on the old client
    ID answered NFS4ERR_STALE_CLIENTID, a new EXCHANGE_ID, then reclaims
    answered NFS4ERR_GRACE, NFS4ERR_NO_GRACE and NFS4ERR_RECLAIM_BAD until
    RECLAIM_COMPLETE; or a session ID never created (BADSESSION);
  - one client in 12 keeps its client ID and is answered NFS4ERR_GRACE
    all along, never sending RECLAIM_COMPLETE (GRACE_STUCK once the capture
    is past the 90 s grace period).

Deterministic (fixed seed). Records are built once per client and session
with the test generators' library (tests/gen) and patched per call (XID,
session ID, slot, sequence ID).
"""
import os
import random
import struct
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "gen"))

import rpcbuild as R  # noqa: E402
from make_flood_captures import Conn, Out  # noqa: E402
from netbuild import FIN, IPPROTO_TCP, SYN, ipv4, tcp_header  # noqa: E402
from pcapwriter import LINKTYPE_ETHERNET  # noqa: E402

R.NFS4_STATUS.setdefault("NFS4ERR_NO_GRACE", 10033)
R.NFS4_STATUS.setdefault("NFS4ERR_RECLAIM_BAD", 10034)

DEPTH = 4
SLOTS = 16
SIDP = b"\xa5SIDPLACEHOLDER\x5a"  # 16 bytes, replaced by the session ID
CRED = R.auth_sys()


class Tmpl:
    """A call and its reply built once with a placeholder session ID; the
    XID, session ID, sequence ID and slot are patched per use."""

    def __init__(self, ops, results, seq_first=True, status=None):
        seq = R.op_sequence(SIDP, 1, 0, SLOTS - 1)
        call_ops = [seq] + ops if seq_first else ops[:1] + [seq] + ops[1:]
        call = R.rpc_call(0, R.compound(call_ops), cred=CRED)
        self.call = bytearray(R.record(call))
        self.reply = bytearray(R.record(R.rpc_reply(call, R.compound_res(results, status=status))))
        self.csid = self.call.index(SIDP)
        self.rsid = self.reply.find(SIDP)  # -1: an error reply has no SEQUENCE body

    def frames(self, xid, sid, seqid, slot, target=SLOTS - 1):
        c, r = self.call, self.reply
        struct.pack_into(">I", c, 4, xid)
        c[self.csid:self.csid + 16] = sid
        struct.pack_into(">II", c, self.csid + 16, seqid, slot)
        struct.pack_into(">I", r, 4, xid)
        if self.rsid >= 0:
            r[self.rsid:self.rsid + 16] = sid
            struct.pack_into(">IIII", r, self.rsid + 16, seqid, slot, SLOTS - 1, target)
        return bytes(c), bytes(r)


def ok_seq():
    return R.res_sequence(SIDP, 1, 0, SLOTS - 1, SLOTS - 1)


def templates(c):
    fh, dfh = R.fh4(1000 + c), R.fh4(c)
    st = R.stateid4(1)
    attrs = R.std_attrs(1000 + c, size=4096)
    t = {}
    t["getattr"] = Tmpl([R.op_putfh(fh), R.op_getattr()], [ok_seq(), R.res_simple("PUTFH"), R.res_getattr(attrs)])
    t["lookup"] = Tmpl([R.op_putfh(dfh), R.op_lookup("f%d" % c), R.op_getfh()],
                       [ok_seq(), R.res_simple("PUTFH"), R.res_simple("LOOKUP"), R.res_getfh(fh)])
    t["access"] = Tmpl([R.op_putfh(fh), R.op_access()], [ok_seq(), R.res_simple("PUTFH"), R.res_access()])
    t["read"] = Tmpl([R.op_putfh(fh), R.op_read(st, 0, 256)],
                     [ok_seq(), R.res_simple("PUTFH"), R.res_read(b"r" * 256)])
    for n in (20, 48, 98):  # long COMPOUNDs: SEQUENCE PUTFH + n operations
        ops, res = [R.op_putfh(dfh)], [ok_seq(), R.res_simple("PUTFH")]
        for i in range(n):
            k = i % 3
            ops.append([R.op_lookup("d%d" % i), R.op_getattr(), R.op_access()][k])
            res.append([R.res_simple("LOOKUP"), R.res_getattr(attrs), R.res_access()][k])
        t["long%d" % n] = Tmpl(ops, res)
    for name, st_ in (("misordered", "NFS4ERR_SEQ_MISORDERED"), ("notbound", "NFS4ERR_CONN_NOT_BOUND_TO_SESSION"),
                      ("badslot", "NFS4ERR_BADSLOT"), ("badsession", "NFS4ERR_BADSESSION"),
                      ("deadsession", "NFS4ERR_DEADSESSION")):
        t[name] = Tmpl([R.op_putfh(fh), R.op_getattr()], [R.res_sequence(SIDP, 0, 0, 0, 0, status=st_)])
    t["delay"] = Tmpl([R.op_putfh(fh), R.op_getattr()], [ok_seq(), R.res_simple("PUTFH", "NFS4ERR_DELAY")])
    t["falseretry"] = Tmpl([R.op_putfh(fh), R.op_access()], [ok_seq(), R.res_simple("PUTFH"), R.res_access()])
    t["seqpos"] = Tmpl([R.op_putfh(fh), R.op_getattr()], [R.res_simple("PUTFH"),
                                                          R.res_simple("SEQUENCE", "NFS4ERR_SEQUENCE_POS")],
                       seq_first=False)
    for name, st_ in (("grace", "NFS4ERR_GRACE"), ("nograce", "NFS4ERR_NO_GRACE"),
                      ("reclaimbad", "NFS4ERR_RECLAIM_BAD")):
        t[name] = Tmpl([R.op_putfh(dfh), R.op_open("f%d" % c, 0x5eed0000 + c)],
                       [ok_seq(), R.res_simple("PUTFH"), R.res_simple("OPEN", st_)])
    t["rc"] = Tmpl([R.op_reclaim_complete()], [ok_seq(), R.res_simple("RECLAIM_COMPLETE")])
    t["destroy"] = None  # built per session (no SEQUENCE)
    return t


NORMAL = ["getattr"] * 8 + ["lookup"] * 3 + ["access"] * 3 + ["read"] * 2 + ["long20", "long48", "long98"]


class CkConn(Conn):
    """Conn with true IP and TCP checksums (tshark checks them in
    tests/gen/check_tshark_clean.py)."""

    def seg(self, d, payload=b"", flags=0x18, wire=None, caplen=None, dt=None):
        src, dst = self.addr[d], self.addr[d ^ 1]
        l4 = tcp_header(src, dst, self.port[d], self.port[d ^ 1], self.seq[d], self.seq[d ^ 1], flags, payload)
        self.out.add(ipv4(src, dst, IPPROTO_TCP, l4, df=True))
        self.seq[d] = (self.seq[d] + len(payload) + (1 if flags & (SYN | FIN) else 0)) & 0xFFFFFFFF


class Client:
    def __init__(self, out, c, rnd):
        self.c, self.rnd = c, rnd
        self.conn = CkConn(out, "10.98.%d.%d" % (1 + c // 250, 2 + c % 250), 700 + c, saddr="10.98.0.1",
                         isn=(0x2000 * (c + 1), 0x9000000 + c))
        self.conn.handshake()
        self.t = templates(c)
        self.xid = 0x1000000 * (c + 1)
        self.stuck = c % 12 == 5  # in grace all along (GRACE_STUCK)
        self.clientid = 0x5e550000_00000000 + (c << 24)
        self.cs_seq = 1
        self.nsess = 0
        self.state = "setup"

    def nx(self):
        self.xid += 1
        return self.xid

    def pair(self, call, reply):
        self.conn.seg(0, call)
        self.conn.seg(1, reply)

    def rpc(self, ops, results):
        call = R.rpc_call(self.nx(), R.compound(ops), cred=CRED)
        self.pair(R.record(call), R.record(R.rpc_reply(call, R.compound_res(results))))

    def exchange_id(self):
        if not self.stuck:
            self.clientid += 1
        self.cs_seq = 1
        self.rpc([R.op_exchange_id(owner=b"errbench-%d" % self.c)], [R.res_exchange_id(self.clientid)])

    def create_session(self):
        self.nsess += 1
        self.sid = struct.pack(">IIII", 0xe77b0000 + self.c, self.nsess, self.clientid & 0xFFFFFFFF, 16)
        fore = R.channel_attrs(maxreqs=64, maxops=128)
        self.rpc([R.op_create_session(self.clientid, seq=self.cs_seq, fore=fore)],
                 [R.res_create_session(self.sid, seq=self.cs_seq, fore=R.channel_attrs(maxreqs=16, maxops=128))])
        self.cs_seq += 1
        self.seq = [0] * SLOTS
        self.turns = self.rnd.randrange(15, 60)

    def stale_create(self):
        call = R.rpc_call(self.nx(), R.compound([R.op_create_session(self.clientid, seq=self.cs_seq)]), cred=CRED)
        self.pair(R.record(call), R.record(R.rpc_reply(call, R.compound_res(
            [R.res_create_session(None, status="NFS4ERR_STALE_CLIENTID")]))))

    def destroy(self):
        call = R.rpc_call(self.nx(), R.compound([R.op_destroy_session(self.sid)]), cred=CRED)
        self.pair(R.record(call), R.record(R.rpc_reply(call, R.compound_res([R.res_simple("DESTROY_SESSION")]))))

    def use(self, name, slot, seqid=None, target=SLOTS - 1, sid=None):
        """One call and its reply on slot (the sequence ID advanced unless given)."""
        if seqid is None:
            self.seq[slot % SLOTS] += 1
            seqid = self.seq[slot % SLOTS]
        return self.t[name].frames(self.nx(), sid or self.sid, seqid, slot, target)

    def burst(self, pairs):
        for call, _ in pairs:
            self.conn.seg(0, call)
        for _, reply in pairs:
            self.conn.seg(1, reply)

    def dead_reuse(self, n, sid=None):
        """n calls on a dead (or unknown) session, answered BADSESSION."""
        for i in range(0, n, DEPTH):
            self.burst([self.use("badsession", k, seqid=self.seq[k] + 1, sid=sid)
                        for k in range(min(DEPTH, n - i))])

    def turn(self):
        """Called once per round; does one step of the client's life."""
        r = self.rnd
        if self.state == "setup":
            self.exchange_id()
            self.create_session()
            self.state = "reclaim" if self.nsess > 1 and r.random() < 0.5 else "run"
            return
        if self.state == "reclaim":
            self.burst([self.use("grace", 0), self.use("grace", 1), self.use("nograce", 2),
                        self.use("reclaimbad", 3)])
            if self.stuck:  # never completes its reclaim
                self.state = "run"
            elif r.random() < 0.4:
                self.burst([self.use("rc", 4)])
                self.state = "run"
            return
        if self.state == "run":
            self.turns -= 1
            if self.turns <= 0:
                self.end_session()
                return
            pairs = []
            slot0 = r.randrange(SLOTS - DEPTH + 1)
            for k in range(DEPTH):
                slot = slot0 + k
                x = r.random()
                if x < 0.04:  # skipped sequence ID, refused
                    pairs.append(self.use("misordered", slot, seqid=self.seq[slot] + 2))
                elif x < 0.06:
                    pairs.append(self.use("notbound", slot, seqid=self.seq[slot] + 1))
                elif x < 0.10:
                    pairs.append(self.use("delay", slot))
                elif x < 0.12:  # above the grant
                    pairs.append(self.use("badslot", SLOTS + 4 + k, seqid=1))
                elif x < 0.14 and self.seq[slot]:  # a retry: same slot, sequence ID, operations
                    pairs.append(self.use("getattr", slot, seqid=self.seq[slot]))
                elif x < 0.15 and self.seq[slot]:
                    pairs.append(self.use("falseretry", slot, seqid=self.seq[slot]))
                elif x < 0.16:
                    pairs.append(self.use("seqpos", slot, seqid=self.seq[slot] + 1))
                elif x < 0.17:
                    pairs.append(self.use("getattr", slot, target=1))  # lowered target: SLOT_TABLE_SHRUNK
                elif x < 0.18:
                    pairs.append(self.use("deadsession", slot, seqid=self.seq[slot] + 1))
                else:
                    pairs.append(self.use(NORMAL[r.randrange(len(NORMAL))], slot))
            if self.stuck:
                pairs[-1] = self.use("grace", slot0 + DEPTH - 1)
            if r.random() < 0.01:  # a burst of one error: a storm
                name = ["misordered", "notbound", "delay", "deadsession", "badslot"][r.randrange(5)]
                for _ in range(6):
                    self.burst([self.use(name, k, seqid=self.seq[k] + 2) if name != "badslot"
                                else self.use(name, SLOTS + k, seqid=1) for k in range(DEPTH)])
            self.burst(pairs)
            if self.stuck and r.random() < 0.1:
                self.burst([self.use("reclaimbad", 0)])
            return

    def end_session(self):
        r = self.rnd
        x = r.random()
        if x < 0.45:  # destroyed, used again, then a new session
            self.destroy()
            self.dead_reuse(r.choice([2, 3, 5, 8, 24]))
            self.state = "setup" if r.random() < 0.3 else "run"
            if self.state == "run":
                self.create_session()
        elif x < 0.85:  # server restart: the session and the client ID are gone
            self.dead_reuse(r.choice([2, 4, 6, 12, 28]))
            self.stale_create()
            self.exchange_id()
            self.create_session()
            self.state = "reclaim"
        else:  # a session never created
            self.dead_reuse(r.choice([2, 3, 22]), sid=struct.pack(">IIII", 0xbad5e551, self.c, self.nsess, 0))
            self.create_session()
            self.state = "run"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path, frames = sys.argv[1], int(sys.argv[2])
    nclients = int(sys.argv[3]) if len(sys.argv) > 3 else 48
    dt_us = float(sys.argv[4]) if len(sys.argv) > 4 else 250
    out = Out(path, linktype=LINKTYPE_ETHERNET)
    pace = int(dt_us * 1000)
    add = out.add
    out.add = lambda pkt, caplen=None, dt=None: add(pkt, caplen, pace)  # the capture's pace
    rnd = random.Random(2126)
    clients = [Client(out, c, random.Random(rnd.getrandbits(32))) for c in range(nclients)]
    sessions = 0
    while out.n < frames:
        for cl in clients:
            cl.turn()
    for cl in clients:
        sessions += cl.nsess
        cl.conn.close()
    out.close()
    print("%s: %d frames, %d clients, %d sessions" % (path, out.n, nclients, sessions), file=sys.stderr)


if __name__ == "__main__":
    main()
