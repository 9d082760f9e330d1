#!/usr/bin/python3
"""Hand-made captures cut by the snapshot length (issue 20, "Snaplen: large
calls cut at the snapshot length"), with their expected transaction logs.

    make_snaplen_captures.py OUTDIR [NAME...]   write all (or the named) captures
    make_snaplen_captures.py --list             print the capture names
    make_snaplen_captures.py --same-as OUTDIR   determinism

Same files and rules as make_edge_captures.py (README.md). A message whose
bytes the snapshot length cut is the frame's that carried its first byte
(record mark and header): tshark, which cannot reassemble it, decodes it
there (netbuild.TcpStream.message_frame). Every record starts a segment, so
every header the analyzers need is inside the captured bytes; tshark's RPC
messages (frame, xid, type) must equal the generator's (check_tshark_clean),
and tests/e2e/check_snaplen_pairing.py checks nfsscope's calls and
call -> reply frames against tshark's.

| capture | exercises |
|---|---|
| snaplen_write_one_segment | `-s 200`, loopback-sized MSS: NFSv4.1 SEQUENCE+PUTFH+WRITE(5120)+GETATTR calls of 5,356 bytes, each one segment of which 134 payload bytes are captured (the RPC and COMPOUND head whole), one by one and four at a time; small GETATTR COMPOUNDs between |
| snaplen_multifrag_s96 | `-s 96`: NFSv3 32 KiB READ replies in four 8 KiB record fragments, whose later marks the snaplen cut |
| snaplen_read_32k_s96 | `-s 96` with TCP timestamps (30 bytes of payload per frame: a call's header up to its procedure, a reply's up to its accept status), NFSv3 over 1448-byte segments: GETATTR/LOOKUP/ACCESS, 32 KiB READs two at a time (each reply 23 segments), 32 KiB WRITEs (each call 23 segments), COMMIT |
"""
import os
import sys

sys.dont_write_bytecode = True          # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from make_edge_captures import C4, S4, FILE, ROOT, DIR, Xids, pattern, v3_read_call, v3_write_call  # noqa: E402
from netbuild import Capture, TcpConnection                 # noqa: E402
from rpcbuild import *                                      # noqa: E402,F401,F403
from scenario import Expect, RpcTcp, KEY_ORDER, generator_main  # noqa: E402

SCENARIOS = {}
SID = bytes.fromhex("5a11c0de00000001000000020000cafe")


def scenario(fn):
    SCENARIOS[fn.__name__] = fn
    return fn


class CutExpect(Expect):
    """Expect, plus values the snapshot length decides: `override` maps an
    XID to the keys whose bytes were not captured and what nfsscope must
    say for them (null: not known)."""

    def __init__(self, cap):
        super().__init__(cap)
        self.override = {}

    def records(self):
        out = []
        for r in super().records():
            r.update(self.override.get(r["xid"], {}))
            out.append({k: r[k] for k in KEY_ORDER if k in r})
        return out


@scenario
def snaplen_write_one_segment(out):
    """`-s 200` on a loopback-sized MSS: each NFSv4.1 WRITE call (5,356
    bytes) is one segment of which the record mark, the RPC header and the
    COMPOUND head are captured; the replies are whole. 16 WRITEs, the last
    eight four at a time; every call is a call and matches its reply."""
    cap = Capture(snaplen=200)
    exp = CutExpect(cap)
    x = Xids(0x5a000)
    c = TcpConnection(cap, C4, 40300, S4, mss=65483, timestamps=True)
    rt = RpcTcp(exp, c)
    c.handshake()
    cred = auth_sys(uid=0, gid=0, gids=())
    st = stateid4(1)
    seq = [0]

    def getattr_pair():
        seq[0] += 1
        call = rpc_call(x(), compound([op_sequence(SID, seq[0], 0, 3), op_putfh(fh4(3)), op_getattr()]),
                        cred=cred)
        return call, rpc_reply(call, compound_res([res_sequence(SID, seq[0], 0, 3, 3), res_simple("PUTFH"),
                                                   res_getattr(std_attrs(3, 5120 * 16))]))

    def write_pair(i, slot):
        seq[0] += 1
        call = rpc_call(x(), compound([op_sequence(SID, seq[0], slot, 3), op_putfh(fh4(3)),
                                       op_write(st, i * 5120, pattern(5120, i)), op_getattr()]), cred=cred)
        return call, rpc_reply(call, compound_res([res_sequence(SID, seq[0], slot, 3, 3), res_simple("PUTFH"),
                                                   res_write(5120), res_getattr(std_attrs(3, (i + 1) * 5120))]))

    for i in range(8):
        rt.exchange(*getattr_pair())
        rt.exchange(*write_pair(i, 0))
        c.ack(0)
    for b in range(2):
        pend = []
        for k in range(4):
            call, rep = write_pair(8 + 4 * b + k, k)
            pend.append((rt.call(call), rep))
            c.flush(0)
        for t, rep in pend:
            rt.reply(t, rep)
            c.flush(1)
        c.ack(0)
        rt.exchange(*getattr_pair())
    c.close()
    return exp


@scenario
def snaplen_read_32k_s96(out):
    """`-s 96` with TCP timestamps: 30 bytes of TCP payload per frame. NFSv3
    over 1448-byte segments: small calls, 32 KiB READs two at a time (each
    reply 23 segments; its header, XID and accept status in the first), 32
    KiB WRITEs (each call 23 segments), COMMIT. A call keeps its procedure
    (its credential's flavor is cut: auth null), no reply keeps its NFS
    status; each message is the frame of its header."""
    cap = Capture(snaplen=96)
    exp = CutExpect(cap)
    x = Xids(0x5b000)
    c = TcpConnection(cap, C4, 40310, S4, mss=1448, timestamps=True)
    rt = RpcTcp(exp, c)
    c.handshake()
    cred = auth_sys()
    A_DIR = fattr3(2, NF3DIR, 4096, 0o755)

    def cut(call):
        exp.override[call.xid] = {"auth": None, "status": None}

    def small(name, args, body):
        call = rpc_call(x(), nfs3_call(name, args), cred=cred)
        cut(call)
        rt.exchange(call, rpc_reply(call, nfs3_res(name, "NFS3_OK", body)))
        c.ack(0)

    small("GETATTR", nfs3_getattr_args(ROOT), fattr3(1, NF3DIR, 4096, 0o755))
    small("LOOKUP", nfs3_lookup_args(ROOT, "export"), nfs3_lookup_res_ok(DIR, A_DIR, A_DIR))
    small("ACCESS", nfs3_access_args(FILE), nfs3_access_res(fattr3(3, size=1 << 20), 0x1F))
    n = 0
    for b in range(6):
        pend = []
        for k in range(2):
            call, rep = v3_read_call(x, FILE, n * 32768, 32768, cred=cred, seed=n)
            n += 1
            cut(call)
            pend.append((rt.call(call), rep))
            c.flush(0)
        for t, rep in pend:
            rt.reply(t, rep)
            c.flush(1)
            c.ack(0)
    for i in range(2):
        call, rep = v3_write_call(x, FILE, i * 32768, 32768, cred=cred, seed=100 + i)
        cut(call)
        rt.exchange(call, rep)
        c.ack(1)
    call = rpc_call(x(), nfs3_call("COMMIT", nfs3_commit_args(FILE)), cred=cred)
    cut(call)
    rt.exchange(call, rpc_reply(call, nfs3_res("COMMIT", "NFS3_OK", nfs3_commit_res_ok())))
    c.close()
    return exp


@scenario
def snaplen_multifrag_s96(out):
    """`-s 96` with TCP timestamps: NFSv3 32 KiB READ replies written as
    four record fragments of 8 KiB (RFC 5531 section 11), two READs at a
    time. The marks of the later fragments are in bytes the snaplen cut:
    each reply is still its header's frame and matches its call, as tshark
    pairs it (the record is handed over as far as its fragments are known,
    then the next record is found)."""
    cap = Capture(snaplen=96)
    exp = CutExpect(cap)
    x = Xids(0x5c000)
    c = TcpConnection(cap, C4, 40320, S4, mss=1448, timestamps=True)
    rt = RpcTcp(exp, c)
    c.handshake()
    cred = auth_sys()
    n = 0
    for b in range(4):
        pend = []
        for k in range(2):
            call, rep = v3_read_call(x, FILE, n * 32768, 32768, cred=cred, seed=n)
            n += 1
            exp.override[call.xid] = {"auth": None, "status": None}
            pend.append((rt.call(call), rep))
            c.flush(0)
        for t, rep in pend:
            rt.reply(t, rep, frags=[8192, 8192, 8192])
            c.flush(1)
            c.ack(0)
    c.close()
    return exp


def main(argv):
    return generator_main(argv, list(SCENARIOS), lambda name, d: SCENARIOS[name](d).write(d, name), __doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
