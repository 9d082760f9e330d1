"""Seed scenarios (make_seed_captures.py): a thin layer over netbuild /
rpcbuild / scenario that remembers, for every RPC it writes,

  * what tshark's nfs.* fields must show for it (nfs.session_id4, nfs.slotid,
    nfs.seqid, nfs.maxreqs4, nfs.nfsstat4, nfs.exchange_id.state_protect,
    nfs.bctsa_dir), as a correct XDR decoder of the bytes written reads them;
  * the NFSv4.1 facts (SEQUENCE arguments, CREATE_SESSION channel
    attributes, statuses, ...) from which derive() computes the findings and
    session summaries of doc/findings.md.

Nothing here looks at nfsscope's output: the expectations come from what was
written and from the rules of doc/findings.md, implemented in derive().
Where a rule leaves room for two readings (e.g. whether the request being
answered still counts as outstanding), derive() evaluates both and asserts
that the scenario gives the same answer under each, so the expected result
does not depend on the reading.
"""
import struct

from netbuild import Capture, TcpConnection, T0_NS
from rpcbuild import (NFS4_STATUS, compound, compound_res, rpc_call, rpc_reply, nfs4_null,
                      plain_res, op_sequence, res_sequence, op_exchange_id, res_exchange_id,
                      op_create_session, res_create_session, channel_attrs, op_bind_conn_to_session,
                      res_bind_conn_to_session, op_destroy_session, op_open, op_close, res_simple,
                      AUTH_NONE, Op, OpRes, op_putfh, res_read, res_read_plus)
from scenario import Expect, RpcTcp

# statuses rpcbuild does not list (added to its table here, nothing removed)
NFS4_STATUS.setdefault("NFS4ERR_SEQ_FALSE_RETRY", 10076)
NFS4_STATUS.setdefault("NFS4ERR_OP_NOT_IN_SESSION", 10071)

STORM_KINDS = {"NFS4ERR_CONN_NOT_BOUND_TO_SESSION": "CONN_NOT_BOUND",
               "NFS4ERR_SEQ_MISORDERED": "SEQ_MISORDERED",
               "NFS4ERR_BADSESSION": "BADSESSION", "NFS4ERR_DEADSESSION": "DEADSESSION",
               "NFS4ERR_BADSLOT": "BADSLOT", "NFS4ERR_DELAY": "DELAY"}
SESSIONLESS = {"EXCHANGE_ID", "CREATE_SESSION", "DESTROY_SESSION", "BIND_CONN_TO_SESSION",
               "DESTROY_CLIENTID"}
SEVERITY = {"SLOT_TABLE_SHRUNK": "warning", "CONN_NOT_BOUND": "error", "SEQ_MISORDERED": "error",
            "GRACE_STUCK": "critical", "SLOT_SEQ_GAP": "warning", "SLOT_ABOVE_GRANTED": "warning",
            "SEQUENCE_POS": "error", "REPLAY": "info", "FALSE_RETRY": "error"}
SEV_RANK = {"info": 0, "warning": 1, "error": 2, "critical": 3}

TF_FIELDS = ["nfs.session_id4", "nfs.slotid", "nfs.seqid", "nfs.maxreqs4", "nfs.nfsstat4",
             "nfs.exchange_id.state_protect", "nfs.bctsa_dir"]


# ----------------------------------------------------------------- operations
# Each returns an rpcbuild Op / OpRes with .tf (tshark fields it shows) and
# .p (facts for derive()).

def _tag(o, tf=None, **p):
    o.tf = tf or {}
    o.p = p
    return o


def s_op(op):
    """Any rpcbuild op without nfs.* fields of interest."""
    return _tag(op)


def s_sequence(sid, seq, slot, hs, cachethis=False):
    return _tag(op_sequence(sid, seq, slot, hs, cachethis),
                {"nfs.session_id4": [sid.hex()], "nfs.seqid": [seq], "nfs.slotid": [slot]},
                sid=sid, seq=seq, slot=slot)


def s_exchange_id(owner, sp):
    return _tag(op_exchange_id(owner=owner, sp=sp), {"nfs.exchange_id.state_protect": [sp]},
                sp=sp)


def s_create_session(clientid, seq, fore_req, back_req):
    return _tag(op_create_session(clientid, seq=seq, fore=channel_attrs(maxreqs=fore_req),
                                  back=channel_attrs(maxreqs=back_req, maxreq=4096, maxresp=4096,
                                                     maxresp_cached=0, maxops=2)),
                {"nfs.seqid": [seq], "nfs.maxreqs4": [fore_req, back_req]},
                clientid=clientid, fore=fore_req, back=back_req)


def s_bind(sid, direction):
    return _tag(op_bind_conn_to_session(sid, direction),
                {"nfs.session_id4": [sid.hex()], "nfs.bctsa_dir": [direction]}, sid=sid)


def s_destroy_session(sid):
    return _tag(op_destroy_session(sid), {"nfs.session_id4": [sid.hex()]}, sid=sid)


def s_open(name, clientid, seqid=0, **kw):
    return _tag(op_open(name, clientid, seqid=seqid, **kw), {"nfs.seqid": [seqid]})


def s_close(stateid, seqid=0):
    return _tag(op_close(stateid, seqid), {"nfs.seqid": [seqid]})


def r_sequence(sid, seq, slot, hs, target, status="NFS4_OK"):
    r = res_sequence(sid, seq, slot, hs, target, status=status)
    if status != "NFS4_OK":
        return _tag(r)
    return _tag(r, {"nfs.session_id4": [sid.hex()], "nfs.seqid": [seq], "nfs.slotid": [slot]},
                hs=hs, target=target)


def r_exchange_id(clientid, seq, sp):
    return _tag(res_exchange_id(clientid, seq=seq, sp=sp),
                {"nfs.seqid": [seq], "nfs.exchange_id.state_protect": [sp]}, clientid=clientid,
                sp=sp)


def r_create_session(sid, seq, fore, back):
    return _tag(res_create_session(sid, seq=seq, fore=channel_attrs(maxreqs=fore),
                                   back=channel_attrs(maxreqs=back, maxreq=4096, maxresp=4096,
                                                      maxresp_cached=0, maxops=2)),
                {"nfs.session_id4": [sid.hex()], "nfs.seqid": [seq], "nfs.maxreqs4": [fore, back]},
                sid=sid, fore=fore, back=back)


def r_bind(sid, direction):
    return _tag(res_bind_conn_to_session(sid, direction), {"nfs.session_id4": [sid.hex()]})


def s_putfh(fh):
    return _tag(op_putfh(fh), fh=fh)


def r_read(data, eof=False):
    return _tag(res_read(data, eof=eof), count=len(data))


def r_read_plus(segments, eof=False):
    return _tag(res_read_plus(segments, eof=eof), segments=segments)


def r_op(res):
    return _tag(res)


def r_simple(name, status="NFS4_OK"):
    return _tag(res_simple(name, status))


# ----------------------------------------------------------------- the run

class RTxn:
    """One RPC of a seed scenario: the scenario.Txn plus the facts."""

    def __init__(self, run, rt, txn, ops, minor, body):
        self.run, self.rt, self.txn = run, rt, txn
        self.ops = ops                  # list of Op (None for NULL)
        self.minor = minor
        self.args = body                # COMPOUND argument bytes (replay comparison)
        self.results = None
        self.status = None
        self.null = ops is None

    @property
    def conn(self):
        return self.run.cap.conns[self.txn.flow_key]

    def call_frame(self):
        return self.txn.call_refs[0].frame()

    def reply_frame(self):
        return self.txn.reply_refs[0].frame() if self.txn.reply_refs else None


class Run:
    def __init__(self, step_ns=50_000):
        self.cap = Capture(step_ns=step_ns)
        self.exp = Expect(self.cap)
        self.txns = []
        self.tf_msgs = []               # (ref, xid, typ, tf)
        self.xid = 0x5eed0000

    # time, in seconds from the capture start
    def at(self, t):
        ns = T0_NS + int(round(t * 1e9))
        assert ns >= self.cap.now, "time goes backwards (%r)" % t
        self.cap.now = ns

    def later(self, dt):
        self.cap.now += int(round(dt * 1e9))

    @property
    def t(self):
        return (self.cap.now - T0_NS) / 1e9

    def next_xid(self):
        self.xid += 1
        return self.xid

    def connect(self, cport, isn, caddr="10.77.0.1", saddr="10.77.0.2", mss=1448):
        c = TcpConnection(self.cap, caddr, cport, saddr, 2049, isn=isn, timestamps=True, mss=mss)
        c.handshake()
        return RpcTcp(self.exp, c)

    # -- messages
    def null(self, rt, flush=True):
        call = rpc_call(self.next_xid(), nfs4_null(), cred=AUTH_NONE)
        t = rt.call(call)
        self.tf_msgs.append((t.call_refs[-1], call.xid, 0, {}))
        if flush:
            rt.conn.flush(0)
        rx = RTxn(self, rt, t, None, None, b"")
        rx.msg = call
        self.txns.append(rx)
        return rx

    def call(self, rt, ops, cred, minor=1, flush=True):
        body = compound(ops, minor=minor)
        call = rpc_call(self.next_xid(), body, cred=cred)
        t = rt.call(call)
        tf = {}
        for o in ops:
            for k, v in getattr(o, "tf", {}).items():
                tf.setdefault(k, []).extend(v)
        self.tf_msgs.append((t.call_refs[-1], call.xid, 0, tf))
        if flush:
            rt.conn.flush(0)
        rx = RTxn(self, rt, t, ops, minor, body.data)
        rx.msg = call
        self.txns.append(rx)
        return rx

    def reply(self, rx, results=None, flush=True, status=None):
        if rx.null:
            rep = rpc_reply(rx.msg, plain_res())
            tf = {}
        else:
            res = compound_res(results, status=status)
            rep = rpc_reply(rx.msg, res)
            rx.results = results
            rx.status = res.info["status"]
            tf = {"nfs.nfsstat4": [NFS4_STATUS[rx.status]] + [NFS4_STATUS[r.status] for r in results]}
            for r in results:
                for k, v in getattr(r, "tf", {}).items():
                    tf.setdefault(k, []).extend(v)
        rx.rt.reply(rx.txn, rep)
        self.tf_msgs.append((rx.txn.reply_refs[-1], rx.msg.xid, 1, tf))
        if flush:
            rx.rt.conn.flush(1)
        return rx

    # -- frame facts
    def ts_us(self, frame):
        return self.cap.writer.records[frame - 1].ts_ns // 1000

    def tshark_expect(self):
        """{frame: (xid, typ, tf)}; one RPC message per frame is asserted."""
        out = {}
        for ref, xid, typ, tf in self.tf_msgs:
            f = ref.frame()
            assert f is not None
            assert f not in out, "two RPC messages complete in frame %d" % f
            out[f] = (xid, typ, tf)
        return out


# ----------------------------------------------------------------- derivation

class _Finding:
    def __init__(self, kind, session=None, client=None, severity=None):
        self.kind, self.session, self.client = kind, session, client
        self.severity = severity or SEVERITY.get(kind)
        self.events = []            # (frame, conn, ts_us)

    def note(self, frame, conn, ts):
        self.events.append((frame, conn, ts))

    def out(self):
        frames = sorted(f for f, _, _ in self.events)[:8]
        conns = sorted({c for _, c, _ in self.events}, key=lambda c: int(c[1:]))
        d = {"kind": self.kind, "severity": self.severity, "count": len(self.events),
             "frames": frames, "connections": conns,
             "session": self.session.hex() if self.session is not None else None}
        if self.client is not None:
            d["client"] = "%016x" % self.client
        return d, min(ts for _, _, ts in self.events)


def _conn_key(c):
    return int(c[1:])


def derive(run, storm_count=20, storm_window_s=10.0, grace_period_s=90.0):
    """Findings, sessions and READ_PLUS statistics from what was written."""
    events = []
    for i, rx in enumerate(run.txns):
        cf = rx.call_frame()
        if cf is not None:
            events.append((cf, 0, i, rx))
        rf = rx.reply_frame()
        if rf is not None and rx.results is not None or (rf is not None and rx.null):
            events.append((rf, 1, i, rx))
    frames = [e[0] for e in events]
    assert len(frames) == len(set(frames)), "several RPC events in one frame"
    events.sort(key=lambda e: e[0])

    findings = {}                      # (kind, key) -> _Finding

    def fnd(kind, session=None, client=None, severity=None):
        k = (kind, session, client)
        if k not in findings:
            findings[k] = _Finding(kind, session, client, severity)
        return findings[k]

    clients = {}                       # clientid -> dict
    sessions = {}                      # sid -> dict
    cs_pending = {}                    # RTxn id -> requested
    errors = {}                        # (K, sid, client) -> [(ts, frame, conn)]
    rp = {"files": {}}

    def sess(sid):
        return sessions[sid]

    for frame, typ, _, rx in events:
        ts = run.ts_us(frame)
        conn = rx.conn
        if rx.null:
            continue
        ops = rx.ops
        names = [o.name for o in ops]
        first = ops[0] if ops else None
        if typ == 0:
            # ---------------------------------------------------------- call
            if rx.minor >= 1:
                seq_pos = [i for i, n in enumerate(names) if n == "SEQUENCE"]
                if seq_pos and seq_pos[0] != 0:
                    fnd("SEQUENCE_POS", ops[seq_pos[0]].p["sid"]).note(frame, conn, ts)
                elif not seq_pos and not (len(ops) == 1 and names[0] in SESSIONLESS):
                    fnd("SEQUENCE_POS").note(frame, conn, ts)
            for o in ops:
                if o.name in ("BIND_CONN_TO_SESSION", "DESTROY_SESSION") and o.p["sid"] in sessions:
                    sess(o.p["sid"])["conns"].add(conn)
            if first is not None and first.name == "SEQUENCE" and first.p["sid"] in sessions:
                s = sess(first.p["sid"])
                slot, seq = first.p["slot"], first.p["seq"]
                s["conns"].add(conn)
                if slot > s["limit"]:
                    fnd("SLOT_ABOVE_GRANTED", s["sid"]).note(frame, conn, ts)
                last = s["slots"].get(slot)
                if last is not None and seq == last[0]:
                    kind = "REPLAY" if last[1] == rx.args else "FALSE_RETRY"
                    fnd(kind, s["sid"]).note(frame, conn, ts)
                else:
                    prev = 0 if last is None else last[0]
                    if seq != (prev + 1) & 0xFFFFFFFF:
                        fnd("SLOT_SEQ_GAP", s["sid"]).note(frame, conn, ts)
                s["slots"][slot] = (seq, rx.args)
                s["highest_used"] = max(s["highest_used"], slot)
                s["out"].add(id(rx))
                s["max_out"] = max(s["max_out"], len(s["out"]))
                if len(s["out"]) >= s["granted"]:
                    s["saturated"] = True
            if names and names[0] == "CREATE_SESSION":
                cs_pending[id(rx)] = ops[0].p
            continue
        # ---------------------------------------------------------- reply
        res = rx.results
        st = rx.status
        sid = first.p["sid"] if first is not None and first.name == "SEQUENCE" else None
        s = sessions.get(sid)
        client = s["client"] if s else None
        if s is not None:
            was = len(s["out"])
            s["out"].discard(id(rx))
            now = len(s["out"])
            r0 = res[0] if res else None
            if r0 is not None and r0.name == "SEQUENCE" and r0.status == "NFS4_OK":
                target = r0.p["target"]
                if s["target"] is not None and target < s["target"]:
                    a, b = was > target + 1, now > target + 1
                    assert a == b, "frame %d: shrink verdict depends on counting the answered request" % frame
                    if a:
                        fnd("SLOT_TABLE_SHRUNK", sid).note(frame, conn, ts)
                s["target"] = target
                s["limit"] = r0.p["hs"]
        if names[0] == "EXCHANGE_ID" and st == "NFS4_OK":
            cid = res[0].p["clientid"]
            clients.setdefault(cid, {"rc_fail": None, "rc_ok": False, "grace": []})
        if names[0] == "CREATE_SESSION" and st == "NFS4_OK":
            req = cs_pending[id(rx)]
            rs = res[0].p
            sessions[rs["sid"]] = {
                "sid": rs["sid"], "client": req["clientid"], "conns": {conn},
                "req_fore": req["fore"], "req_back": req["back"], "granted": rs["fore"],
                "granted_back": rs["back"], "limit": rs["fore"] - 1, "slots": {},
                "highest_used": None, "max_out": 0, "out": set(), "saturated": False,
                "target": None, "cs_frames": (rx.call_frame(), frame), "cs_conn": conn,
                "cs_ts": ts}
            sessions[rs["sid"]]["highest_used"] = -1
        if "RECLAIM_COMPLETE" in names and client is not None:
            c = clients[client]
            if st == "NFS4_OK":
                c["rc_ok"] = True
            elif c["rc_fail"] is None:
                c["rc_fail"] = (frame, conn, ts)
        if st in STORM_KINDS:
            key = (STORM_KINDS[st], sid if s else None, client if not s else None)
            errors.setdefault(key, []).append((ts, frame, conn))
            if st == "NFS4ERR_CONN_NOT_BOUND_TO_SESSION":
                fnd("CONN_NOT_BOUND", sid if s else None, None if s else client).note(frame, conn, ts)
            if st == "NFS4ERR_SEQ_MISORDERED":
                fnd("SEQ_MISORDERED", sid if s else None, None if s else client).note(frame, conn, ts)
        if st == "NFS4ERR_GRACE" and client is not None:
            clients[client]["grace"].append((ts, frame, conn))
        # READ_PLUS / READ statistics (successful ops, file handle = current FH)
        fh = None
        for o, r in zip(ops, res):
            if r.status != "NFS4_OK":
                break
            if o.name == "PUTFH":
                fh = o.p.get("fh")
            if o.name in ("READ", "READ_PLUS") and fh is not None:
                f = rp["files"].setdefault(fh.hex(), {"read_plus_replies": 0, "data_segments": 0,
                                                      "data_bytes": 0, "hole_segments": 0,
                                                      "hole_bytes": 0, "read_replies": 0,
                                                      "read_bytes": 0})
                if o.name == "READ":
                    f["read_replies"] += 1
                    f["read_bytes"] += r.p["count"]
                else:
                    f["read_plus_replies"] += 1
                    for seg in r.p["segments"]:
                        if seg[0] == "data":
                            f["data_segments"] += 1
                            f["data_bytes"] += len(seg[2])
                        else:
                            f["hole_segments"] += 1
                            f["hole_bytes"] += seg[2]

    # -- per-session findings
    for sid, s in sessions.items():
        if s["granted"] < s["req_fore"]:
            f = fnd("SLOT_LIMITED", sid, severity="warning" if s["saturated"] else "info")
            f.note(s["cs_frames"][0], s["cs_conn"], s["cs_ts"])
            f.note(s["cs_frames"][1], s["cs_conn"], s["cs_ts"])
            f.count_override = 1
    # -- storms
    W = int(storm_window_s * 1e6)
    for (kind, sid, client), errs in errors.items():
        clusters, cur = [], []
        for e in errs:
            if cur:
                gap = e[0] - cur[-1][0]
                assert abs(gap - W) > 500_000, "%s error gap %d us too close to the window" % (kind, gap)
            if cur and e[0] - cur[-1][0] > W:
                clusters.append(cur)
                cur = []
            cur.append(e)
        if cur:
            clusters.append(cur)
        for cl in clusters:
            def peak(w):
                return max(sum(1 for y in cl if 0 <= y[0] - x[0] <= w) for x in cl)
            verdicts = {peak(W - 500_000) >= storm_count, peak(W + 500_000) >= storm_count}
            assert len(verdicts) == 1, "%s storm verdict depends on the window edge" % kind
            if verdicts.pop():
                f = _Finding(kind + "_STORM", sid, client, "critical")
                for ts, frame, conn in cl:
                    f.note(frame, conn, ts)
                findings[(kind + "_STORM", sid, client, cl[0][1])] = f
    # -- grace
    G = int(grace_period_s * 1e6)
    for cid, c in clients.items():
        g = c["grace"]
        if not g or c["rc_ok"]:
            continue
        span = g[-1][0] - g[0][0]
        assert abs(span - G) > 2_000_000, "GRACE span too close to the grace period"
        if span > G:
            f = fnd("GRACE_STUCK", None, cid, "critical")
            for ts, frame, conn in g:
                f.note(frame, conn, ts)
            if c["rc_fail"] is not None:
                f.rc = c["rc_fail"]
    out = []
    for f in findings.values():
        d, first_ts = f.out()
        if getattr(f, "count_override", None):
            d["count"] = f.count_override
        if getattr(f, "rc", None):
            frame, conn, ts = f.rc
            d["frames"] = sorted([frame] + [e[0] for e in sorted(f.events)][:7])
            d["connections"] = sorted(set(d["connections"]) | {conn}, key=_conn_key)
        out.append((-SEV_RANK[d["severity"]], first_ts, d["kind"], d))
    out.sort(key=lambda x: x[:3])
    sess_out = []
    for sid in sorted(sessions, key=lambda k: sessions[k]["cs_frames"][1]):
        s = sessions[sid]
        sess_out.append({
            "sessionid": sid.hex(), "clientid": "%016x" % s["client"],
            "connections": sorted(s["conns"], key=_conn_key),
            "fore_channel": {"requested_max_requests": s["req_fore"],
                             "granted_max_requests": s["granted"]},
            "back_channel": {"requested_max_requests": s["req_back"],
                             "granted_max_requests": s["granted_back"]},
            "slots": {"highest_used": s["highest_used"] if s["highest_used"] >= 0 else None,
                      "max_outstanding": s["max_out"], "saturated": s["saturated"]}})
    result = {"findings": [x[3] for x in out], "sessions": sess_out}
    if rp["files"]:
        tot = {}
        for f in rp["files"].values():
            for k, v in f.items():
                tot[k] = tot.get(k, 0) + v
        tot["files"] = [dict(fh=k, **rp["files"][k]) for k in sorted(rp["files"])]
        result["read_plus"] = tot
    return result
