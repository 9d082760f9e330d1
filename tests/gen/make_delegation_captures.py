#!/usr/bin/python3
"""NFSv4.1 delegations (issue 24): granted by OPEN, recalled by CB_RECALL on
the session's back channel, returned by DELEGRETURN, or not.

    make_delegation_captures.py OUTDIR [NAME...]   write all (or the named) captures
    make_delegation_captures.py --list             print the capture names
    make_delegation_captures.py --same-as OUTDIR   determinism: regenerate, compare bytes

Each capture NAME comes with NAME.expected.jsonl and NAME.meta.json as in
make_backchannel_captures.py; NAME.meta.json also has "delegation": the
finding kinds that must fire (DELEG_RETURN_SLOW, RECALL_STORM: every other
one must not) and, per client ID, the figures the generator wrote
(tests/e2e/check_delegations.py).

| capture | what |
|---|---|
| deleg_clean | lease_time 90 s (GETATTR); OPEN grants a READ and a WRITE delegation; CB_RECALL of the READ one, DELEGRETURN 20 ms later; the WRITE one returned unasked: no finding |
| deleg_slow | lease_time 30 s (GETATTR); three delegations recalled: one returned after 20 s (more than half the lease), one after 40 s (past the lease), one never (the capture goes on 35 s): DELEG_RETURN_SLOW, error |
| recall_storm | 25 READ delegations, 25 CB_RECALLs 100 ms apart, each returned 10 ms later: RECALL_STORM (20 within 10 s), no DELEG_RETURN_SLOW |
| lease_gap | lease_time 30 s; 45 s without a SEQUENCE, then two replies NFS4ERR_EXPIRED: LEASE_EXPIRED_GAP, error |
| deleg_revoked | no lease_time asked (the default 90 s); a WRITE delegation recalled and not returned; 100 s later SEQUENCE replies carry RECALLABLE_STATE_REVOKED, a WRITE with its stateid is answered NFS4ERR_DELEG_REVOKED, the late DELEGRETURN NFS4ERR_BAD_STATEID: revoked 1, 2 errors after the recall, DELEG_RETURN_SLOW |
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import rpcbuild                                              # noqa: E402
from netbuild import Capture, TcpConnection                  # noqa: E402
from rpcbuild import (AUTH_NONE, Op, OpRes, auth_sys, boolean, cb_compound, cb_compound_res,  # noqa: E402
                      channel_attrs, compound, compound_res, fattr4, fh4, op_cb_recall, op_cb_sequence,
                      op_create_session, op_exchange_id, op_getattr, op_open, op_putfh, op_sequence,
                      op_write, res_cb_sequence, res_create_session, res_exchange_id, res_getattr,
                      res_sequence, res_simple, rpc_call, rpc_reply, stateid4, string, u32, u64)
from scenario import Expect, RpcTcp, generator_main          # noqa: E402

rpcbuild.NFS4_OPS.update({"DELEGRETURN": 8})
rpcbuild.NFS4_STATUS.update({"NFS4ERR_DELEG_REVOKED": 10087})

C4, S4 = "10.77.24.11", "10.77.24.12"
CLIENTID = 0x2400000000000d01
SID = bytes.fromhex("24d0000000000000000000000000d001")
FATTR4_LEASE_TIME = 10
RECALLABLE_STATE_REVOKED = 0x40
MS = 1_000_000
SEC = 1_000_000_000
SCENARIOS = {}


def scenario(fn):
    SCENARIOS[fn.__name__] = fn
    return fn


def deleg_sid(n):
    return stateid4(1, b"dlg-%08d" % n)


def open_res_deleg(open_sid, dtype, dsid):
    """OPEN4resok with a READ (1) or WRITE (2) open_delegation4 (RFC 8881 s.18.16)."""
    cinfo = boolean(True) + u64(1) + u64(2)
    ace = u32(0) + u32(0) + u32(0) + string("")               # nfsace4: ALLOW, no flags, no mask, who ""
    body = dsid + boolean(False)                                # stateid, recall
    if dtype == 2:
        body += u32(1) + u64(1 << 20)                           # space_limit: NFS_LIMIT_SIZE 1 MiB
    return OpRes("OPEN", "NFS4_OK", stateid4(1, b"open-0000000") + cinfo + u32(0x4)
                 + rpcbuild.bitmap([]) + u32(dtype) + body + ace)


class Client:
    def __init__(self, name):
        self.cap = Capture()
        self.exp = Expect(self.cap)
        self.xid = 0x24d00000
        self.cbxid = 0x64d00000
        self.seqid = 0
        self.cbseq = 0
        self.name = name
        c = TcpConnection(self.cap, C4, 46001, S4, isn=(0x1d000000, 0x2d000000))
        c.handshake()
        self.rt = RpcTcp(self.exp, c)
        self.call([op_exchange_id()], [res_exchange_id(CLIENTID, seq=1)])
        flags = rpcbuild.CREATE_SESSION4_FLAG_CONN_BACK_CHAN
        attrs = channel_attrs(maxreqs=4, maxreq=4096, maxresp=4096, maxresp_cached=0, maxops=2)
        self.call([op_create_session(CLIENTID, seq=1, flags=flags, back=attrs)],
                  [res_create_session(SID, seq=1, flags=flags, back=attrs)])

    def call(self, ops, results):
        self.xid += 1
        call = rpc_call(self.xid, compound(ops), cred=auth_sys())
        return self.rt.exchange(call, rpc_reply(call, compound_res(results)))

    def seq(self, ops, results, flags=0):
        self.seqid += 1
        return self.call([op_sequence(SID, self.seqid, 0, 0)] + ops,
                         [res_sequence(SID, self.seqid, 0, 0, 3, flags=flags)] + results)

    def lease(self, seconds):
        self.seq([op_putfh(fh4(1)), op_getattr([FATTR4_LEASE_TIME])],
                 [res_simple("PUTFH"), res_getattr(fattr4({FATTR4_LEASE_TIME: u32(seconds)}))])

    def open(self, n, dtype):
        self.seq([op_putfh(fh4(1)), op_open("f%d" % n, CLIENTID)],
                 [res_simple("PUTFH"), open_res_deleg(None, dtype, deleg_sid(n))])

    def recall(self, n):
        self.cbseq += 1
        self.cbxid += 1
        call = rpc_call(self.cbxid, cb_compound([op_cb_sequence(SID, self.cbseq, 0, 0),
                                                 op_cb_recall(deleg_sid(n), fh4(100 + n))], ident=1),
                        cred=AUTH_NONE, backchannel=True)
        self.rt.exchange(call, rpc_reply(call, cb_compound_res([res_cb_sequence(SID, self.cbseq, 0, 3, 3),
                                                                res_simple("CB_RECALL")])))

    def delegreturn(self, n, status="NFS4_OK"):
        self.seq([op_putfh(fh4(100 + n)), Op("DELEGRETURN", deleg_sid(n))],
                 [res_simple("PUTFH"), res_simple("DELEGRETURN", status)])

    def write(self, outdir, meta):
        self.rt.conn.close()
        self.exp.meta["delegation"] = meta
        return self.exp.write(outdir, self.name)


def figures(granted, recalled, returned, revoked, outstanding_max, lease, lat_ms, errors=0):
    """lat_ms: the recall-to-return latencies written (milliseconds)."""
    return {"%016x" % CLIENTID: {"granted": granted, "recalled": recalled, "returned": returned, "revoked": revoked,
                              "outstanding_max": outstanding_max, "lease_time_s": lease,
                              "latencies_ms": lat_ms, "errors_after_recall": errors}}


@scenario
def deleg_clean(outdir):
    cl = Client("deleg_clean")
    cl.lease(90)
    cl.open(1, 1)
    cl.open(2, 2)
    cl.cap.tick(1 * SEC)
    cl.recall(1)
    cl.cap.tick(20 * MS)
    cl.delegreturn(1)
    cl.delegreturn(2)
    cl.seq([], [])
    return cl.write(outdir, {"findings": [], "clients": figures(2, 1, 2, 0, 2, 90, [20])})


@scenario
def deleg_slow(outdir):
    cl = Client("deleg_slow")
    cl.lease(30)
    for n in (1, 2, 3):
        cl.open(n, 1)
    cl.recall(1)
    cl.recall(2)
    cl.recall(3)
    cl.cap.tick(20 * SEC)
    cl.delegreturn(1)
    cl.cap.tick(20 * SEC)
    cl.delegreturn(2)
    cl.cap.tick(35 * SEC)
    cl.seq([], [])
    # 35 s without a SEQUENCE at the end: longer than the lease too
    return cl.write(outdir, {"findings": ["DELEG_RETURN_SLOW", "LEASE_EXPIRED_GAP"],
                             "severity": {"DELEG_RETURN_SLOW": "error", "LEASE_EXPIRED_GAP": "warning"},
                             "messages": {"DELEG_RETURN_SLOW": ["lease 30 s", "2 returns", "1 of them after the lease",
                                                                "1 recall never answered"]},
                             "clients": figures(3, 3, 2, 0, 3, 30, None)})


@scenario
def recall_storm(outdir):
    cl = Client("recall_storm")
    cl.lease(90)
    for n in range(25):
        cl.open(n, 1)
    for n in range(25):
        cl.cap.tick(100 * MS)
        cl.recall(n)
        cl.cap.tick(10 * MS)
        cl.delegreturn(n)
    return cl.write(outdir, {"findings": ["RECALL_STORM"], "severity": {"RECALL_STORM": "warning"},
                             "messages": {"RECALL_STORM": ["CB_RECALL within 10 s", "threshold 20"]},
                             "clients": figures(25, 25, 25, 0, 25, 90, None)})


@scenario
def deleg_revoked(outdir):
    cl = Client("deleg_revoked")
    cl.open(1, 2)
    cl.recall(1)
    cl.cap.tick(100 * SEC)
    cl.seq([], [], flags=RECALLABLE_STATE_REVOKED)
    cl.seq([op_putfh(fh4(101)), op_write(deleg_sid(1), 0, b"x" * 16)],
           [res_simple("PUTFH"), res_simple("WRITE", "NFS4ERR_DELEG_REVOKED")], flags=RECALLABLE_STATE_REVOKED)
    cl.delegreturn(1, "NFS4ERR_BAD_STATEID")
    # 100 s without a SEQUENCE: longer than the lease too
    return cl.write(outdir, {"findings": ["DELEG_RETURN_SLOW", "LEASE_EXPIRED_GAP"],
                             "severity": {"DELEG_RETURN_SLOW": "error"},
                             "messages": {"DELEG_RETURN_SLOW": ["lease 90 s", "1 recall never answered",
                                                                "2 errors"]},
                             "clients": figures(1, 1, 0, 1, 1, 90, [], errors=2)})


@scenario
def lease_gap(outdir):
    cl = Client("lease_gap")
    cl.lease(30)
    cl.seq([], [])
    cl.cap.tick(45 * SEC)
    cl.seq([op_putfh(fh4(1))], [res_simple("PUTFH", "NFS4ERR_EXPIRED")])
    cl.seq([op_putfh(fh4(1))], [res_simple("PUTFH", "NFS4ERR_EXPIRED")])
    return cl.write(outdir, {"findings": ["LEASE_EXPIRED_GAP"], "severity": {"LEASE_EXPIRED_GAP": "error"},
                             "messages": {"LEASE_EXPIRED_GAP": ["its lease (30 s)", "longest gap 45 s",
                                                                "NFS4ERR_EXPIRED 2"]},
                             "clients": figures(0, 0, 0, 0, 0, 30, None)})


def write(name, outdir):
    return SCENARIOS[name](outdir)


if __name__ == "__main__":
    sys.exit(generator_main(sys.argv, list(SCENARIOS), write, __doc__))
