#!/usr/bin/python3
"""Slow calls among many fast ones, and many calls outstanding at once: what
the table of outstanding calls keeps when memory runs short (issue 20, "Slow
calls reported as unanswered").

    make_slow_captures.py OUTDIR [NAME...]   write all (or the named) captures
    make_slow_captures.py --list             print the capture names
    make_slow_captures.py --same-as OUTDIR   determinism: regenerate, compare bytes

Each capture NAME comes with NAME.expected.jsonl and NAME.meta.json as in
make_edge_captures.py (same library, expectations derived from what was
written); NAME.meta.json also has "slow": the nfsscope arguments to run
with (a small --memcap) and the figures tests/e2e/check_slow_calls.py
checks, all from what the generator wrote.

| capture | what |
|---|---|
| slow_call_3000 | 4 TCP connections; a GETATTR on c1 answered after exactly 2 s while 3,000 fast GETATTRs (call, reply) go round the 4 connections behind it; run at `--memcap 8M`: no unmatched call, no orphan reply, the slow call's latency 2 s in the log and in the report's maximum |
| outstanding_many | 3 TCP connections; 6,000 GETATTR calls, all outstanding at once, then their replies in call order; at `--memcap 8M` memory truly runs short: calls let go are counted as evicted while waiting (not unmatched), their replies as late replies with their real latency while their tombstones last, orphans only past that |
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import json                                                 # noqa: E402

from netbuild import Capture, TcpConnection                 # noqa: E402
from rpcbuild import rpc_call, rpc_reply, nfs3_call, nfs3_res, nfs3_getattr_args, fattr3, fh3, \
    auth_sys, record                                       # noqa: E402
from scenario import KEY_ORDER, generator_main              # noqa: E402

C4, S4 = "10.77.9.1", "10.77.9.2"
SCENARIOS = {}


def scenario(fn):
    SCENARIOS[fn.__name__] = fn
    return fn


class Slow:
    """Captures of thousands of small in-order messages, one segment each: a
    message's frame is the frame that carried it (Expect's general
    derivation, which copes with loss and reordering, is quadratic)."""

    def __init__(self):
        self.cap = Capture()
        self.txns = []         # [call, reply, conn id, call frame, reply frame]
        self.meta = {"nfsscope_exit": 0, "tshark_compare": True, "tshark_args": [], "damaged": False}

    def conns(self, n):
        out = []
        for i in range(n):
            c = TcpConnection(self.cap, C4, 41000 + i, S4,
                              isn=(0x31000000 + i * 0x1000000, 0x52000000 + i * 0x1000000))
            c.handshake()
            out.append(c)
        return out

    def _send(self, c, d, msg):
        c.write(d, record(msg))
        c.flush(d)
        return self.cap.nframes            # one segment: the frame just written

    def call(self, c, msg, rep):
        t = [msg, rep, c.conn, self._send(c, 0, msg), None]
        self.txns.append(t)
        return t

    def reply(self, c, t):
        t[4] = self._send(c, 1, t[1])

    def write(self, outdir, name):
        path = os.path.join(outdir, name + ".pcap")
        self.cap.save(path)
        msgs = []
        with open(os.path.join(outdir, name + ".expected.jsonl"), "w") as f:
            for call, rep, conn, cf, rf in sorted(self.txns, key=lambda t: t[3]):
                rec = {"call_frame": cf, "reply_frame": rf, "conn": conn, "transport": "tcp", "xid": call.xid,
                       "prog": call.info["prog"], "vers": call.info["vers"], "proc": call.info["proc"],
                       "ops": call.info["ops"], "status": rep.info["status"] if rf else None, "sends": 1}
                f.write(json.dumps({k: rec[k] for k in KEY_ORDER if k in rec}, separators=(",", ":")) + "\n")
                msgs.append([cf, call.xid, 0])
                if rf:
                    msgs.append([rf, call.xid, 1])
        meta = dict(self.meta, name=name, capture=os.path.basename(path), frames=self.cap.nframes,
                    rpc_msgs=sorted(msgs))
        with open(os.path.join(outdir, name + ".meta.json"), "w") as f:
            json.dump(meta, f, indent=1, sort_keys=True)
            f.write("\n")
        return path


def getattr_pair(xid, fileid):
    call = rpc_call(xid, nfs3_call("GETATTR", nfs3_getattr_args(fh3(fileid))), cred=auth_sys())
    rep = rpc_reply(call, nfs3_res("GETATTR", "NFS3_OK", fattr3(fileid, size=4096)))
    return call, rep


@scenario
def slow_call_3000():
    g = Slow()
    cs = g.conns(4)
    slow_call, slow_rep = getattr_pair(0x5100, 7)
    t_call = g.cap.now
    slow = g.call(cs[0], slow_call, slow_rep)
    for i in range(3000):
        c = cs[i % 4]
        t = g.call(c, *getattr_pair(0x60000 + i, 100 + i % 50))
        g.reply(c, t)
    assert g.cap.now < t_call + 2_000_000_000
    g.cap.now = t_call + 2_000_000_000     # the reply 2 s after its call, to the nanosecond
    g.reply(cs[0], slow)
    for c in cs:
        c.close()
    g.meta["slow"] = {
        "args": ["--memcap", "8M"],
        "rpc": {"calls": 3001, "replies": 3001, "unmatched_calls": 0, "orphan_replies": 0},
        "evictions": {"outstanding_calls": 0},
        # the slow call is the slowest: the GETATTR row's maximum is its latency
        "max_us": {"GETATTR": 2_000_000},
    }
    return g


@scenario
def outstanding_many():
    g = Slow()
    cs = g.conns(3)
    n = 6000
    txns = []
    for i in range(n):
        c = cs[i % 3]
        txns.append((c, g.call(c, *getattr_pair(0x70000 + i, 100 + i % 50))))
    for c, t in txns:
        g.reply(c, t)
    for c in cs:
        c.close()
    g.meta["slow"] = {
        "args": ["--memcap", "8M"],
        "rpc": {"calls": n, "replies": n, "unmatched_calls": 0},
        "outstanding_evicted": True,     # memory ran short: calls let go while waiting, counted as such
    }
    return g


def write(name, outdir):
    return SCENARIOS[name]().write(outdir, name)


def main(argv):
    return generator_main(argv, list(SCENARIOS), write, __doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
