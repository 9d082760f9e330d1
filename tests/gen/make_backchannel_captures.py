#!/usr/bin/python3
"""NFSv4.1 back channels and SEQUENCE status flags (issue 24): callbacks on
a session's back channel, used well or badly, and the sr_status_flags a
server sets when its back channel or the client's state is in trouble.

    make_backchannel_captures.py OUTDIR [NAME...]   write all (or the named) captures
    make_backchannel_captures.py --list             print the capture names
    make_backchannel_captures.py --same-as OUTDIR   determinism: regenerate, compare bytes

Each capture NAME comes with NAME.expected.jsonl and NAME.meta.json as in
make_edge_captures.py; NAME.meta.json also has "backchannel": the finding
kinds that must fire (every other back-channel/status-flag kind must not)
and, per session, the figures the generator wrote (tests/e2e/check_back_channel.py).

| capture | what |
|---|---|
| cb_clean | one session, back channel on the fore connection (CONN_BACK_CHAN), 16 back slots asked / 2 granted; 4 callbacks (CB_SEQUENCE + CB_RECALL) on slots 0 and 1, all answered, a BACKCHANNEL_CTL; SEQUENCE replies without flags: no finding |
| cb_misordered | 1 back slot granted; callbacks on slot 0 with sequence IDs 1, 3 (skipped: the client answers NFS4ERR_SEQ_MISORDERED), 2 (behind the last call's 3); one on slot 1 (above the grant: NFS4ERR_BADSLOT) |
| cb_path_down | session A: a callback answered, the next never answered, then SEQUENCE replies carry CB_PATH_DOWN_SESSION (3) and CB_PATH_DOWN (1); the client binds a second connection BACK_OR_BOTH and the flag clears. Session B: CREATE_SESSION without CONN_BACK_CHAN and no BIND_CONN_TO_SESSION: CB_PATH_DOWN on 2 replies, no connection bound for the back channel |
| state_revoked_freed | RECALLABLE_STATE_REVOKED on 2 replies, then TEST_STATEID and FREE_STATEID, then replies without the flag |
| state_revoked_ignored | RECALLABLE_STATE_REVOKED and EXPIRED_SOME_STATE_REVOKED on 4 replies, the client sends neither TEST_STATEID nor FREE_STATEID |
| status_flags_misc | one reply each with CB_GSS_CONTEXTS_EXPIRING, CB_GSS_CONTEXTS_EXPIRED, BACKCHANNEL_FAULT, RESTART_RECLAIM_NEEDED, LEASE_MOVED, DEVID_CHANGED, DEVID_DELETED |
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import rpcbuild                                              # noqa: E402
from netbuild import Capture, TcpConnection                  # noqa: E402
from rpcbuild import (AUTH_NONE, Op, OpRes, array, auth_sys, cb_compound, cb_compound_res,  # noqa: E402
                      channel_attrs, compound, compound_res, fh4, op_bind_conn_to_session,
                      op_cb_recall, op_cb_sequence, op_create_session, op_exchange_id, op_getattr,
                      op_putfh, op_sequence, res_bind_conn_to_session, res_cb_sequence,
                      res_create_session, res_exchange_id, res_getattr, res_sequence, res_simple,
                      rpc_call, rpc_reply, stateid4, std_attrs, u32, CDFC4_BACK_OR_BOTH, CDFS4_BOTH)
from scenario import Expect, RpcTcp, generator_main          # noqa: E402

# operations this generator adds to the builders' tables (RFC 8881 s.18)
rpcbuild.NFS4_OPS.update({"BACKCHANNEL_CTL": 40, "FREE_STATEID": 45, "TEST_STATEID": 55})
rpcbuild.NFS4_STATUS.update({"NFS4ERR_DELEG_REVOKED": 10087})

C4, S4 = "10.77.24.1", "10.77.24.2"
BIT = {"CB_PATH_DOWN": 0x1, "CB_GSS_CONTEXTS_EXPIRING": 0x2, "CB_GSS_CONTEXTS_EXPIRED": 0x4,
       "EXPIRED_ALL_STATE_REVOKED": 0x8, "EXPIRED_SOME_STATE_REVOKED": 0x10, "ADMIN_STATE_REVOKED": 0x20,
       "RECALLABLE_STATE_REVOKED": 0x40, "LEASE_MOVED": 0x80, "RESTART_RECLAIM_NEEDED": 0x100,
       "CB_PATH_DOWN_SESSION": 0x200, "BACKCHANNEL_FAULT": 0x400, "DEVID_CHANGED": 0x800,
       "DEVID_DELETED": 0x1000}
SCENARIOS = {}


def scenario(fn):
    SCENARIOS[fn.__name__] = fn
    return fn


class Client:
    """One client and its sessions on one capture; SEQUENCE slot 0 only."""

    def __init__(self, name):
        self.cap = Capture()
        self.exp = Expect(self.cap)
        self.xid = 0x24000000
        self.cbxid = 0x64000000
        self.port = 45000
        self.sessions = {}      # sid -> {"seq": n, "cb": {...expected figures}}
        self.name = name

    def conn(self):
        self.port += 1
        c = TcpConnection(self.cap, C4, self.port, S4, isn=(0x11000000 + self.port * 0x100, 0x22000000 + self.port))
        c.handshake()
        return RpcTcp(self.exp, c)

    def call(self, rt, ops, results):
        self.xid += 1
        call = rpc_call(self.xid, compound(ops), cred=auth_sys())
        return rt.exchange(call, rpc_reply(call, compound_res(results)))

    def setup(self, rt, sid, clientid=0x2400000000000001, csa_seq=1, back_asked=16, back_granted=2,
              back_chan=True, exchange=True):
        if exchange:
            self.call(rt, [op_exchange_id()], [res_exchange_id(clientid, seq=1)])
        flags = rpcbuild.CREATE_SESSION4_FLAG_CONN_BACK_CHAN if back_chan else 0
        self.call(rt, [op_create_session(clientid, seq=csa_seq, flags=flags,
                                         back=channel_attrs(maxreqs=back_asked, maxreq=4096, maxresp=4096,
                                                            maxresp_cached=0, maxops=2))],
                  [res_create_session(sid, seq=csa_seq, flags=flags,
                                      back=channel_attrs(maxreqs=back_granted, maxreq=4096, maxresp=4096,
                                                         maxresp_cached=0, maxops=2))])
        self.sessions[sid] = {"seq": 0, "back_granted": back_granted}

    def seq(self, rt, sid, flags=0, extra=(), extra_res=()):
        s = self.sessions[sid]
        s["seq"] += 1
        ops = [op_sequence(sid, s["seq"], 0, 0)] + list(extra or [op_putfh(fh4(1)), op_getattr()])
        res = [res_sequence(sid, s["seq"], 0, 0, 15, flags=flags)] + list(
            extra_res or [res_simple("PUTFH"), res_getattr(std_attrs(1, 100))])
        return self.call(rt, ops, res)

    def callback(self, rt, sid, seqid, slot, status="NFS4_OK", answer=True, highest=0):
        self.cbxid += 1
        call = rpc_call(self.cbxid, cb_compound([op_cb_sequence(sid, seqid, slot, highest),
                                                 op_cb_recall(stateid4(1, b"deleg2400001"), fh4(1))], ident=1),
                        cred=AUTH_NONE, backchannel=True)
        if not answer:
            t = rt.call(call, backchannel=True)
            rt.conn.flush(1)
            return t
        hs = self.sessions[sid]["back_granted"] - 1   # the client's highest slot: as granted
        results = [res_cb_sequence(sid, seqid, slot, hs, hs, status=status)]
        if status == "NFS4_OK":
            results.append(res_simple("CB_RECALL"))
        return rt.exchange(call, rpc_reply(call, cb_compound_res(results)))

    def write(self, outdir, meta):
        self.exp.meta["backchannel"] = meta
        return self.exp.write(outdir, self.name)


SID_A = bytes.fromhex("24a0000000000000000000000000a001")
SID_B = bytes.fromhex("24b0000000000000000000000000b002")
ST = stateid4(1, b"deleg2400001")


def backchannel_ctl():
    return Op("BACKCHANNEL_CTL", u32(0x40000000) + array([u32(0)]))   # AUTH_NONE callback security


@scenario
def cb_clean(outdir):
    cl = Client("cb_clean")
    rt = cl.conn()
    cl.setup(rt, SID_A)
    cl.seq(rt, SID_A)
    cl.callback(rt, SID_A, 1, 0)
    cl.seq(rt, SID_A)
    cl.callback(rt, SID_A, 1, 1)
    cl.callback(rt, SID_A, 2, 0)
    cl.seq(rt, SID_A, extra=[backchannel_ctl()], extra_res=[res_simple("BACKCHANNEL_CTL")])
    cl.callback(rt, SID_A, 3, 0)
    cl.seq(rt, SID_A)
    rt.conn.close()
    return cl.write(outdir, {"findings": [], "sessions": {SID_A.hex(): {
        "slots_asked": 16, "slots_granted": 2, "calls": 4, "replies": 4, "unanswered": 0, "errors": 0,
        "highest_slot_used": 1, "backchannel_ctl": 1, "verdicts": {"new": 4}, "status_flags": {}}}})


@scenario
def cb_misordered(outdir):
    cl = Client("cb_misordered")
    rt = cl.conn()
    cl.setup(rt, SID_A, back_granted=1)
    cl.seq(rt, SID_A)
    cl.callback(rt, SID_A, 1, 0)
    cl.callback(rt, SID_A, 3, 0, status="NFS4ERR_SEQ_MISORDERED")
    cl.callback(rt, SID_A, 2, 0)
    cl.callback(rt, SID_A, 1, 1, status="NFS4ERR_BADSLOT")
    cl.seq(rt, SID_A)
    rt.conn.close()
    return cl.write(outdir, {"findings": ["CB_SEQ_MISORDERED", "CB_SLOT_ABOVE_GRANTED"], "sessions": {SID_A.hex(): {
        "slots_asked": 16, "slots_granted": 1, "calls": 4, "replies": 4, "unanswered": 0, "errors": 2,
        "highest_slot_used": 1, "backchannel_ctl": 0,
        # the fore channel's rule: judged against the slot's last call (3), so 2 goes backwards
        "verdicts": {"new": 1, "gap": 1, "backwards": 1, "above_granted": 1},
        "status_flags": {}}}})


@scenario
def cb_path_down(outdir):
    cl = Client("cb_path_down")
    rt = cl.conn()
    cl.setup(rt, SID_A)
    cl.seq(rt, SID_A)
    cl.callback(rt, SID_A, 1, 0)
    cl.callback(rt, SID_A, 2, 0, answer=False)
    cl.cap.tick(5_000_000_000)
    for flags in (BIT["CB_PATH_DOWN_SESSION"], BIT["CB_PATH_DOWN_SESSION"],
                  BIT["CB_PATH_DOWN_SESSION"] | BIT["CB_PATH_DOWN"]):
        cl.seq(rt, SID_A, flags=flags)
        cl.cap.tick(1_000_000_000)
    rt2 = cl.conn()
    cl.call(rt2, [op_bind_conn_to_session(SID_A, CDFC4_BACK_OR_BOTH)], [res_bind_conn_to_session(SID_A, CDFS4_BOTH)])
    cl.seq(rt, SID_A)
    # session B: no connection ever bound for its back channel
    rt3 = cl.conn()
    cl.setup(rt3, SID_B, csa_seq=2, back_chan=False, exchange=False)
    cl.seq(rt3, SID_B, flags=BIT["CB_PATH_DOWN"])
    cl.seq(rt3, SID_B, flags=BIT["CB_PATH_DOWN"])
    rt.conn.close()
    rt3.conn.close()
    return cl.write(outdir, {"findings": ["CB_PATH_DOWN", "CB_UNANSWERED"], "sessions": {
        SID_A.hex(): {"slots_asked": 16, "slots_granted": 2, "calls": 2, "replies": 1, "unanswered": 1,
                      "errors": 0, "highest_slot_used": 0, "backchannel_ctl": 0, "verdicts": {"new": 2},
                      "status_flags": {"CB_PATH_DOWN": 1, "CB_PATH_DOWN_SESSION": 3}},
        SID_B.hex(): {"slots_asked": 16, "slots_granted": 2, "calls": 0, "replies": 0, "unanswered": 0,
                      "errors": 0, "highest_slot_used": None, "backchannel_ctl": 0, "verdicts": {},
                      "status_flags": {"CB_PATH_DOWN": 2}}},
        "messages": {"CB_PATH_DOWN": ["1 callback in flight unanswered", "no connection bound for the back channel",
                                      "BIND_CONN_TO_SESSION 1 time", "the flag cleared 1 time"]}})


def test_stateid_ops():
    return ([Op("TEST_STATEID", array([ST]))], [OpRes("TEST_STATEID", "NFS4_OK", array([u32(10087)]))])


@scenario
def state_revoked_freed(outdir):
    cl = Client("state_revoked_freed")
    rt = cl.conn()
    cl.setup(rt, SID_A)
    cl.seq(rt, SID_A)
    cl.seq(rt, SID_A, flags=BIT["RECALLABLE_STATE_REVOKED"])
    cl.seq(rt, SID_A, flags=BIT["RECALLABLE_STATE_REVOKED"])
    ops, res = test_stateid_ops()
    cl.seq(rt, SID_A, flags=BIT["RECALLABLE_STATE_REVOKED"], extra=ops, extra_res=res)
    cl.seq(rt, SID_A, extra=[Op("FREE_STATEID", ST)], extra_res=[res_simple("FREE_STATEID")])
    cl.seq(rt, SID_A)
    rt.conn.close()
    return cl.write(outdir, {"findings": ["STATE_REVOKED"], "severity": {"STATE_REVOKED": "warning"},
                             "sessions": {SID_A.hex(): {
                                 "slots_asked": 16, "slots_granted": 2, "calls": 0, "replies": 0, "unanswered": 0,
                                 "errors": 0, "highest_slot_used": None, "backchannel_ctl": 0, "verdicts": {},
                                 "status_flags": {"RECALLABLE_STATE_REVOKED": 3}}},
                             "messages": {"STATE_REVOKED": ["TEST_STATEID 1 time and FREE_STATEID 1 time",
                                                            "the flag cleared"]}})


@scenario
def state_revoked_ignored(outdir):
    cl = Client("state_revoked_ignored")
    rt = cl.conn()
    cl.setup(rt, SID_A)
    cl.seq(rt, SID_A)
    for _ in range(4):
        cl.seq(rt, SID_A, flags=BIT["RECALLABLE_STATE_REVOKED"] | BIT["EXPIRED_SOME_STATE_REVOKED"])
    rt.conn.close()
    return cl.write(outdir, {"findings": ["STATE_REVOKED"], "severity": {"STATE_REVOKED": "error"},
                             "sessions": {SID_A.hex(): {
                                 "slots_asked": 16, "slots_granted": 2, "calls": 0, "replies": 0, "unanswered": 0,
                                 "errors": 0, "highest_slot_used": None, "backchannel_ctl": 0, "verdicts": {},
                                 "status_flags": {"RECALLABLE_STATE_REVOKED": 4, "EXPIRED_SOME_STATE_REVOKED": 4}}},
                             "messages": {"STATE_REVOKED": ["neither TEST_STATEID nor FREE_STATEID"]}})


@scenario
def status_flags_misc(outdir):
    cl = Client("status_flags_misc")
    rt = cl.conn()
    cl.setup(rt, SID_A)
    names = ["CB_GSS_CONTEXTS_EXPIRING", "CB_GSS_CONTEXTS_EXPIRED", "BACKCHANNEL_FAULT", "RESTART_RECLAIM_NEEDED",
             "LEASE_MOVED", "DEVID_CHANGED", "DEVID_DELETED"]
    for n in names:
        cl.seq(rt, SID_A, flags=BIT[n])
        cl.cap.tick(1_000_000_000)
    cl.seq(rt, SID_A)
    rt.conn.close()
    return cl.write(outdir, {"findings": ["CB_GSS_CONTEXTS_EXPIRING", "CB_GSS_CONTEXTS_EXPIRED", "BACKCHANNEL_FAULT",
                                          "RESTART_RECLAIM_NEEDED", "LEASE_MOVED", "DEVID_CHANGED"],
                             "sessions": {SID_A.hex(): {
                                 "slots_asked": 16, "slots_granted": 2, "calls": 0, "replies": 0, "unanswered": 0,
                                 "errors": 0, "highest_slot_used": None, "backchannel_ctl": 0, "verdicts": {},
                                 "status_flags": {n: 1 for n in names}}}})


def write(name, outdir):
    return SCENARIOS[name](outdir)


if __name__ == "__main__":
    sys.exit(generator_main(sys.argv, list(SCENARIOS), write, __doc__))
