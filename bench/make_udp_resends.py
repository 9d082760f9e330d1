#!/usr/bin/env python3
"""NFSv3 over UDP with retransmissions on every pair (issue 21): the
traffic that keeps the UDP findings changing, one event after another.

    make_udp_resends.py OUT.pcap FRAMES [CLIENTS]

CLIENTS (default 4) clients, one server, calls one after the other on each
client in turn, in cycles of eight: five GETATTRs answered in 1 ms; a
GETATTR resent after 2 s and then answered (RTO_INFLATED); a READ resent
after 300 ms whose first transmission is answered after the resend, and the
resend too (SPURIOUS_RETRANSMIT, a duplicate reply); a 32 KiB READ whose
reply loses its sixth IP fragment (MTU 1500), resent after 1 s and answered
whole (FRAGMENT_LOSS). About 64 frames a cycle; each resend and each reply
of a resent call changes the pair's figures. Deterministic; the calls and
replies are built once and only their XIDs patched.
"""
import os
import struct
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "gen"))

from make_edge_captures import FILE, Xids, v3_read_call  # noqa: E402
from netbuild import Capture, UdpFlow  # noqa: E402
from rpcbuild import auth_sys, fattr3, nfs3_call, nfs3_getattr_args, nfs3_res, rpc_call, rpc_reply  # noqa: E402

MS = 1_000_000
T0 = 1764669600 * 10**9


class Msg:
    """A call and its reply built once; the XID patched per use."""

    def __init__(self, call, reply):
        self.call, self.reply = bytearray(call.data), bytearray(reply.data)

    def with_xid(self, xid):
        struct.pack_into(">I", self.call, 0, xid)
        struct.pack_into(">I", self.reply, 0, xid)
        return bytes(self.call), bytes(self.reply)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path, frames = sys.argv[1], int(sys.argv[2])
    nclients = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    cap = Capture(nsec=True, t0_ns=T0, step_ns=10_000)
    x = Xids(0x70000000)
    g = rpc_call(0, nfs3_call("GETATTR", nfs3_getattr_args(FILE)), cred=auth_sys())
    getattr_ = Msg(g, rpc_reply(g, nfs3_res("GETATTR", "NFS3_OK", fattr3(3))))
    read1k = Msg(*v3_read_call(x, FILE, 0, 1024))
    read32k = Msg(*v3_read_call(x, FILE, 0, 32768))
    flows = [UdpFlow(cap, "10.78.0.%d" % (2 + c), 800 + c, "10.78.0.1") for c in range(nclients)]
    t = T0
    i = 0

    def at(ts):
        cap.now = ts

    while cap.nframes < frames:
        fl = flows[i % nclients]
        kind = (i // nclients) % 8
        i += 1
        if kind < 5:
            call, rep = getattr_.with_xid(x())
            at(t)
            fl.send(0, call)
            at(t + MS)
            fl.send(1, rep)
        elif kind == 5:  # resent long after any RTO: RTO_INFLATED
            call, rep = getattr_.with_xid(x())
            at(t)
            fl.send(0, call)
            at(t + 2000 * MS)
            fl.send(0, call)
            at(t + 2001 * MS)
            fl.send(1, rep)
        elif kind == 6:  # the first send answered after the resend, then the resend: spurious
            call, rep = read1k.with_xid(x())
            at(t)
            fl.send(0, call)
            at(t + 300 * MS)
            fl.send(0, call)
            at(t + 305 * MS)
            fl.send(1, rep)
            at(t + 306 * MS)
            fl.send(1, rep)
        else:  # a reply fragment lost, the call resent: FRAGMENT_LOSS
            call, rep = read32k.with_xid(x())
            at(t)
            fl.send(0, call)
            at(t + 2 * MS)
            fl.send(1, rep, drop=(5,))
            at(t + 1000 * MS)
            fl.send(0, call)
            at(t + 1002 * MS)
            fl.send(1, rep)
        t = cap.now + MS
    cap.save(path)
    print("%s: %d frames, %d clients, %d calls" % (path, cap.nframes, nclients, i), file=sys.stderr)


if __name__ == "__main__":
    main()
