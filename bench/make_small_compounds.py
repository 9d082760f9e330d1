#!/usr/bin/env python3
"""Small-COMPOUND NFSv4.1 traffic for the benchmark: what a conformance suite
or a metadata-heavy workload puts on the wire (about 250 bytes per frame, a
new transaction every two frames), the hardest traffic for nfsscope per byte.

    make_small_compounds.py OUT.pcap FRAMES [CLIENTS]

CLIENTS (default 32) connections, each with its own client ID and session
(EXCHANGE_ID, CREATE_SESSION with 16 slots), then a mix of COMPOUNDs until
FRAMES frames are written (Ethernet frames):

    45%  SEQUENCE PUTFH GETATTR
    15%  SEQUENCE PUTFH LOOKUP GETFH GETATTR   (one in five: NFS4ERR_NOENT)
    10%  SEQUENCE PUTFH ACCESS GETATTR
    10%  SEQUENCE PUTFH OPEN GETFH GETATTR
    10%  SEQUENCE PUTFH CLOSE
    10%  SEQUENCE PUTFH READ (512 bytes)

Every client keeps four calls in flight on distinct slots, with correct
sequence IDs, so the analysis does the work of a healthy session (the only
finding is each session's SLOT_LIMITED information: 64 slots asked, 16
granted). Deterministic (fixed mix, addresses, times). Messages are built once
with the test generators' library (tests/gen) and patched per call (XID,
slot, sequence ID), so a million frames take seconds.
"""
import os
import struct
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "gen"))

import rpcbuild as R  # noqa: E402
from make_flood_captures import Conn, Out  # noqa: E402
from pcapwriter import LINKTYPE_ETHERNET  # noqa: E402

DEPTH = 4      # calls in flight per client
SLOTS = 16


def sid_of(c):
    return struct.pack(">IIII", 0x5eed5a11, c, 1, 16)


def session_setup(conn, c, xid):
    """EXCHANGE_ID and CREATE_SESSION, as a client mounts."""
    clientid = 0x5eed000000000000 + c
    sid = sid_of(c)
    owner = b"bench-client-%d" % c
    call = R.rpc_call(xid, R.compound([R.op_exchange_id(owner=owner)], minor=1), cred=R.auth_sys())
    conn.seg(0, R.record(call))
    conn.seg(1, R.record(R.rpc_reply(call, R.compound_res([R.res_exchange_id(clientid)]))))
    call = R.rpc_call(xid + 1, R.compound([R.op_create_session(clientid)], minor=1), cred=R.auth_sys())
    conn.seg(0, R.record(call))
    conn.seg(1, R.record(R.rpc_reply(call, R.compound_res([R.res_create_session(sid)]))))


class Shape:
    """One COMPOUND shape: call and reply records with the offsets where the
    XID, slot and sequence ID go."""

    def __init__(self, c, ops, results):
        sid = sid_of(c)
        seq = R.op_sequence(sid, 1, 0, SLOTS - 1)
        call = R.rpc_call(0, R.compound([seq] + ops), cred=R.auth_sys())
        res = R.rpc_reply(call, R.compound_res([R.res_sequence(sid, 1, 0, SLOTS - 1, SLOTS - 1)] + results))
        self.call, self.reply = bytearray(R.record(call)), bytearray(R.record(res))
        # the session id appears once in each: the sequence ID and slot follow it
        self.cseq = self.call.index(sid) + 16
        self.rseq = self.reply.index(sid) + 16

    def frames(self, xid, slot, seqid):
        struct.pack_into(">I", self.call, 4, xid)
        struct.pack_into(">II", self.call, self.cseq, seqid, slot)
        struct.pack_into(">I", self.reply, 4, xid)
        struct.pack_into(">II", self.reply, self.rseq, seqid, slot)
        return bytes(self.call), bytes(self.reply)


def shapes_for(c):
    fh, dfh = R.fh4(1000 + c), R.fh4(c)
    st = R.stateid4(1)
    attrs = R.std_attrs(1000 + c, size=4096)
    getattr_ = Shape(c, [R.op_putfh(fh), R.op_getattr()], [R.res_simple("PUTFH"), R.res_getattr(attrs)])
    lookup = Shape(c, [R.op_putfh(dfh), R.op_lookup("file-%d" % c), R.op_getfh(), R.op_getattr()],
                   [R.res_simple("PUTFH"), R.res_simple("LOOKUP"), R.res_getfh(fh), R.res_getattr(attrs)])
    noent = Shape(c, [R.op_putfh(dfh), R.op_lookup("missing-%d" % c), R.op_getfh(), R.op_getattr()],
                  [R.res_simple("PUTFH"), R.res_simple("LOOKUP", "NFS4ERR_NOENT")])
    access = Shape(c, [R.op_putfh(fh), R.op_access(), R.op_getattr()],
                   [R.res_simple("PUTFH"), R.res_access(), R.res_getattr(attrs)])
    open_ = Shape(c, [R.op_putfh(dfh), R.op_open("file-%d" % c, 0x5eed000000000000 + c), R.op_getfh(),
                      R.op_getattr()],
                  [R.res_simple("PUTFH"), R.res_open(st), R.res_getfh(fh), R.res_getattr(attrs)])
    close = Shape(c, [R.op_putfh(fh), R.op_close(st)], [R.res_simple("PUTFH"), R.res_close(st)])
    read = Shape(c, [R.op_putfh(fh), R.op_read(st, 0, 512)], [R.res_simple("PUTFH"), R.res_read(b"r" * 512)])
    # 20 entries: the mix of the module docstring
    return ([getattr_] * 9 + [lookup] * 2 + [noent] + [access] * 2 + [open_] * 2 + [close] * 2 + [read] * 2)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path, frames = sys.argv[1], int(sys.argv[2])
    clients = int(sys.argv[3]) if len(sys.argv) > 3 else 32
    out = Out(path, linktype=LINKTYPE_ETHERNET)  # Ethernet: what a capture on a NIC has (and nfstrace reads)
    conns, mixes, seqids = [], [], []
    for c in range(clients):
        conn = Conn(out, "10.99.%d.%d" % (1 + c // 250, 2 + c % 250), 800 + c, saddr="10.99.0.1",
                    isn=(0x1000 * (c + 1), 0x7000000 + c))
        conn.handshake()
        session_setup(conn, c, 0x10000 * (c + 1))
        conns.append(conn)
        mixes.append(shapes_for(c))
        seqids.append([0] * SLOTS)
    xid = [0x10000 * (c + 1) + 16 for c in range(clients)]
    turn = 0
    while out.n < frames:
        c = turn % clients
        conn, mix, seq = conns[c], mixes[c], seqids[c]
        replies = []
        for k in range(DEPTH):
            slot = (turn // clients * DEPTH + k) % SLOTS
            seq[slot] += 1
            shape = mix[(turn * DEPTH + k + c) % len(mix)]
            call, reply = shape.frames(xid[c], slot, seq[slot])
            xid[c] += 1
            conn.seg(0, call, dt=2_000)
            replies.append(reply)
        for reply in replies:
            conn.seg(1, reply, dt=3_000)
        turn += 1
    for conn in conns:
        conn.close()
    out.close()
    print("%s: %d frames, %d clients" % (path, out.n, clients), file=sys.stderr)


if __name__ == "__main__":
    main()
