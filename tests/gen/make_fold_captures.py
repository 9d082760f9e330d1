#!/usr/bin/python3
"""A capture whose findings must be folded to be read (issue 23: "info
findings drown the rest"), with its expectations.

    make_fold_captures.py OUTDIR        write fold-many-sessions.{pcap,findings.json,expected.jsonl,meta.json}
    make_fold_captures.py --list        print the capture names
    make_fold_captures.py --verify DIR  tshark's nfs.* fields agree with what was written
                                        (make_seed_captures.py --verify, on these captures)

fold-many-sessions: 46 NFSv4.1 clients, each with its own connection,
client ID and session, one after another 50 ms apart:

  * 40 "quiet" clients (q0..q39) ask 64 fore-channel slots; the server
    grants 10 + (17 i + 5) mod 40 (a permutation of 10..49, so each session
    has its own gap and the largest gaps are not the first sessions). Each
    sends nothing more: SLOT_LIMITED, info (the table never filled).
  * 5 "busy" clients (b0..b4) ask 32 slots and are granted 2 + j; they send
    as many SEQUENCE requests at once as they were granted (every granted
    slot busy): SLOT_LIMITED, warning.
  * 1 client (m) asks 8 slots, is granted 8, sends SEQUENCE slot 0 seq 1
    (answered) then slot 0 seq 3: the server answers NFS4ERR_SEQ_MISORDERED
    (SEQ_MISORDERED, error) and the call skipped a sequence ID (SLOT_SEQ_GAP,
    warning). Its session is not limited.

So 47 findings: 1 error, 6 warnings (5 SLOT_LIMITED, 1 SLOT_SEQ_GAP), 40
info SLOT_LIMITED. NAME.findings.json is seed_lib.derive() of what was
written (the rules of doc/findings.md, never nfsscope's output); each
session's asked and granted slots are in its "sessions" list, from which a
test derives which SLOT_LIMITED findings are the worst (most slots asked and
not granted).
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import make_seed_captures as seeds  # noqa: E402
from make_seed_captures import CRED, ROOT_ATTRS, mount, xc  # noqa: E402
from rpcbuild import SP4_NONE, op_putrootfh, op_getattr, res_getattr  # noqa: E402
from seed_lib import s_op, s_sequence, r_sequence, r_op, r_simple  # noqa: E402

QUIET, BUSY = 40, 5


def quiet_granted(i):
    return 10 + (17 * i + 5) % 40


def client(run, n, port, kind):
    """A connection from its own address, EXCHANGE_ID and CREATE_SESSION."""
    clientid = 0xf01d000000000000 + n
    sid = bytes.fromhex("f01d%012x00000001%08x" % (n, n))
    rt = run.connect(port, (0x50000000 + n * 0x10000, 0x60000000 + n * 0x10000),
                     caddr="10.77.%d.%d" % (1 + n // 200, 1 + n % 200))
    run.later(0.0002)
    return rt, clientid, sid, b"Linux NFSv4.1 %s.fold.example.net" % kind.encode()


def getattr_ops(sid, seq, slot, hs):
    return [s_sequence(sid, seq, slot, hs), s_op(op_putrootfh()), s_op(op_getattr())]


def getattr_res(sid, seq, slot, hs, target):
    return [r_sequence(sid, seq, slot, hs, target), r_simple("PUTROOTFH"),
            r_op(res_getattr(ROOT_ATTRS))]


@seeds.scenario("fold-many-sessions")
def fold_many_sessions(run):
    n = 0
    for i in range(QUIET):
        rt, cid, sid, owner = client(run, n, 52000 + n, "q%d" % i)
        mount(run, rt, rt, owner, cid, sid, SP4_NONE, 64, quiet_granted(i), null=False)
        rt.conn.ack(0)
        run.later(0.05)
        n += 1
    for j in range(BUSY):
        granted = 2 + j
        rt, cid, sid, owner = client(run, n, 52000 + n, "b%d" % j)
        mount(run, rt, rt, owner, cid, sid, SP4_NONE, 32, granted, null=False)
        # every granted slot in flight at once
        calls = []
        for s in range(granted):
            calls.append((s, run.call(rt, getattr_ops(sid, 1, s, granted - 1), CRED)))
            run.later(0.00005)
        run.later(0.0003)
        for s, rx in calls:
            run.reply(rx, getattr_res(sid, 1, s, granted - 1, granted - 1))
            run.later(0.00005)
        rt.conn.ack(0)
        run.later(0.05)
        n += 1
    rt, cid, sid, owner = client(run, n, 52000 + n, "m")
    mount(run, rt, rt, owner, cid, sid, SP4_NONE, 8, 8, null=False)
    xc(run, rt, getattr_ops(sid, 1, 0, 0), getattr_res(sid, 1, 0, 7, 7))
    xc(run, rt, getattr_ops(sid, 3, 0, 0),
       [r_sequence(sid, 3, 0, 7, 7, "NFS4ERR_SEQ_MISORDERED")], ack=True)


NAMES = ["fold-many-sessions"]


def main(argv):
    if len(argv) >= 2 and argv[1] == "--list":
        for name in NAMES:
            print(name + ".pcap")
        return 0
    if len(argv) == 3 and argv[1] == "--verify":
        return seeds.verify(argv[2], NAMES)
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    os.makedirs(argv[1], exist_ok=True)
    for name in NAMES:
        print(seeds.write(argv[1], name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
