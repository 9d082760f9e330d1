#!/usr/bin/python3
"""Session findings and sessions[] on the real sample captures.

    check_session_samples.py NFSSCOPE SAMPLES_DIR EXPECTED_JSON [--tshark] [--print-derived]

EXPECTED_JSON (tests/e2e/session_samples.json) lists, per capture, the exact
session findings (kinds of doc/findings.md sections "NFSv4.1 sessions";
other kinds, e.g. the UDP ones, are not looked at) and the sessions.  Every
capture named there must produce exactly those findings (kind, count,
frames, connections, session, severity) and sessions (id, client ID,
connections, requested/granted max_requests, highest slot used, max
outstanding, saturated or not; NFS4ERR_BADSESSION replies, how it died,
calls sent after that, the CREATE_SESSION that recovered it).

With --tshark the expectations themselves are re-derived from tshark's
dissection of each capture (RPC messages, nfs.opcode, nfs.status,
nfs.session_id4, nfs.slotid, nfs.seqid, nfs.maxreqs4, nfs.high_slotid,
nfs.target_high_slotid) by applying the rules of doc/findings.md
independently of nfsscope, and must equal EXPECTED_JSON: the file is what
tshark says, not what nfsscope printed.  Exit 77 when tshark is missing.
"""
import json
import shutil
import subprocess
import sys

SESSION_KINDS = {"SLOT_LIMITED", "SLOT_TABLE_SHRUNK", "CONN_NOT_BOUND", "SEQ_MISORDERED", "GRACE_STUCK",
                 "SLOT_SEQ_GAP", "SLOT_ABOVE_GRANTED", "SEQUENCE_POS", "REPLAY", "FALSE_RETRY", "DEAD_SESSION_USE"} | {
    k + "_STORM" for k in ("CONN_NOT_BOUND", "SEQ_MISORDERED", "BADSESSION", "DEADSESSION", "BADSLOT", "DELAY")}
STORM_CODES = {"CONN_NOT_BOUND": 10055, "SEQ_MISORDERED": 10063, "BADSESSION": 10052, "DEADSESSION": 10078,
               "BADSLOT": 10053, "DELAY": 10008}
SESSIONLESS = {42, 43, 44, 57, 41}   # EXCHANGE_ID, CREATE_SESSION, DESTROY_SESSION, DESTROY_CLIENTID, BIND_CONN
SEV = {"SLOT_LIMITED": None, "SLOT_TABLE_SHRUNK": "warning", "CONN_NOT_BOUND": "error", "SEQ_MISORDERED": "error",
       "GRACE_STUCK": "critical", "SLOT_SEQ_GAP": "warning", "SLOT_ABOVE_GRANTED": "warning",
       "SEQUENCE_POS": "error", "REPLAY": "info", "FALSE_RETRY": "error"}


def nfsscope_report(nfsscope, cap):
    p = subprocess.run([nfsscope, "-r", cap, "--format", "json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return json.loads(p.stdout.decode())


def got_of(rep):
    fs = sorted(({"kind": f["kind"], "severity": f["severity"], "count": f["count"], "frames": f["frames"],
                  "connections": f["connections"], "session": f["session"], "client": f["client"]}
                 for f in rep["findings"] if f["kind"] in SESSION_KINDS),
                key=lambda f: (f["kind"], f["session"] or "", f["client"] or "", f["frames"]))
    ss = [{"sessionid": s["sessionid"], "clientid": s["clientid"], "connections": s["connections"],
           "fore_requested": s["fore_channel"]["requested_max_requests"],
           "fore_granted": s["fore_channel"]["granted_max_requests"],
           "back_requested": s["back_channel"]["requested_max_requests"],
           "back_granted": s["back_channel"]["granted_max_requests"],
           "highest_used": s["slots"]["highest_used"], "max_outstanding": s["slots"]["max_outstanding"],
           "saturated": s["slots"]["saturated_fraction"] > 0, "mid_capture": s["mid_capture"],
           "never_created": s["never_created"], "dead": s["dead"], "badsession_replies": s["badsession_replies"],
           "calls_after_dead": s["calls_after_dead"], "recovered_frame": s["recovered_frame"]}
          for s in rep["sessions"]]
    return {"findings": fs, "sessions": sorted(ss, key=lambda s: s["sessionid"])}


# ---------------------------------------------------------------- tshark

FIELDS = ["frame.number", "frame.time_epoch", "tcp.stream", "rpc.msgtyp", "rpc.xid", "rpc.program",
          "rpc.procedure", "nfs.minorversion", "nfs.opcode", "nfs.status", "nfs.session_id4", "nfs.slotid",
          "nfs.seqid", "nfs.maxreqs4", "nfs.high_slotid", "nfs.target_high_slotid", "nfs.clientid", "ip.src",
          "ipv6.src"]


def ints(v):
    return [int(x, 0) for x in v.split(",")] if v else []


def tshark_msgs(cap):
    out = subprocess.run(["tshark", "-r", cap, "-Y", "rpc && tcp", "-T", "fields", "-E", "occurrence=a"] +
                         sum((["-e", f] for f in FIELDS), []), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         check=True).stdout.decode()
    msgs = []
    for line in out.splitlines():
        v = dict(zip(FIELDS, line.split("\t")))
        if "," in v["rpc.xid"]:
            if not any(x not in ("", "0") for x in v["nfs.minorversion"].split(",")):
                continue        # several NFSv3 / NFSv4.0 messages: nothing for the session rules
            raise SystemExit("%s: frame %s holds several RPC messages; derivation not supported" % (cap, v["frame.number"]))
        msgs.append(v)
    return msgs


class Finding:
    def __init__(self, kind, session=None, client=None):
        self.kind, self.session, self.client = kind, session, client
        self.count, self.frames, self.conns, self.sev = 0, [], set(), SEV.get(kind)

    def note(self, frame, conn):
        self.count += 1
        self.frames.append(frame)
        self.conns.add(conn)

    def out(self):
        return {"kind": self.kind, "severity": self.sev, "count": self.count, "frames": sorted(self.frames)[:8],
                "connections": ["c%d" % c for c in sorted(self.conns)], "session": self.session,
                "client": self.client}


def derive(cap, storm_n=20, storm_w=10.0, grace=90.0):
    msgs = tshark_msgs(cap)
    conn_of, calls = {}, {}
    for m in msgs:           # connection ids: order of the first RPC message on a TCP stream
        conn_of.setdefault(m["tcp.stream"], len(conn_of) + 1)
    F = {}

    def fnd(kind, session=None, client=None):
        return F.setdefault((kind, session, client), Finding(kind, session, client))

    sess = {}                # id -> dict
    slots = {}               # (sid, slot) -> {"last": seqid, "ops": [...]} calls
    inflight = {}            # sid -> {slot: call frame}
    errors = {}              # (kind, sid) -> [(ts, frame, conn)]
    for m in msgs:
        conn = conn_of[m["tcp.stream"]]
        frame, ts = int(m["frame.number"]), float(m["frame.time_epoch"])
        if m["rpc.program"] != "100003" or m["rpc.procedure"] != "1":
            continue
        ops, st = ints(m["nfs.opcode"]), ints(m["nfs.status"])
        key = (m["tcp.stream"], m["rpc.xid"])
        if m["rpc.msgtyp"] == "0":
            minor = int(m["nfs.minorversion"] or 0)
            c = {"frame": frame, "ops": ops, "sid": None, "conn": conn, "minor": minor, "ts": ts,
                 "addr": m["ip.src"] or m["ipv6.src"]}
            calls[key] = c
            if minor < 1 or not ops:
                continue
            if 53 in ops[1:] or (ops[0] != 53 and ops[0] not in SESSIONLESS):
                fnd("SEQUENCE_POS").note(frame, conn)
            if ops[0] == 43:
                c["maxreqs"] = ints(m["nfs.maxreqs4"])
                c["clientid"] = "%016x" % int(m["nfs.clientid"], 0)
            if ops[0] != 53:
                continue
            sid, slot, seqid = m["nfs.session_id4"].split(",")[0], ints(m["nfs.slotid"])[0], ints(m["nfs.seqid"])[0]
            c.update(sid=sid, slot=slot)
            s = sess.setdefault(sid, {"sessionid": sid, "clientid": None, "connections": set(), "fore_requested": None,
                                      "fore_granted": None, "back_requested": None, "back_granted": None,
                                      "highest_used": None, "max_outstanding": 0, "saturated": False,
                                      "mid_capture": True, "granted": 0, "hs": None, "target": None,
                                      "addr": c["addr"]})
            s["connections"].add(conn)
            s["highest_used"] = slot if s["highest_used"] is None else max(s["highest_used"], slot)
            hg = s["hs"] if s["hs"] is not None else (s["fore_granted"] - 1 if s["fore_granted"] else None)
            if hg is not None and slot > hg:
                fnd("SLOT_ABOVE_GRANTED", sid).note(frame, conn)
            sl = slots.get((sid, slot))
            tail = ops[1:]
            if sl is not None:
                if seqid == sl["last"]:
                    fnd("REPLAY" if tail == sl["ops"] else "FALSE_RETRY", sid).note(frame, conn)
                elif seqid != (sl["last"] + 1) % 2**32:
                    fnd("SLOT_SEQ_GAP", sid).note(frame, conn)
            elif not s["mid_capture"] and seqid != 1:
                fnd("SLOT_SEQ_GAP", sid).note(frame, conn)
            slots[(sid, slot)] = {"last": seqid, "ops": tail}
            fl = inflight.setdefault(sid, {})
            fl[slot] = frame
            s["max_outstanding"] = max(s["max_outstanding"], len(fl))
            if s["granted"] and len(fl) >= s["granted"]:
                s["saturated"] = True
            continue
        c = calls.get(key)
        if not c or c["minor"] < 1 or not st:
            continue
        if c["ops"] and c["ops"][0] == 43 and st[0] == 0:
            sid = m["nfs.session_id4"].split(",")[0]
            got = ints(m["nfs.maxreqs4"])
            s = sess.setdefault(sid, {"sessionid": sid, "connections": set(), "highest_used": None,
                                      "max_outstanding": 0, "saturated": False, "hs": None, "target": None})
            s.update(clientid=c["clientid"], fore_requested=c["maxreqs"][0], back_requested=c["maxreqs"][1],
                     fore_granted=got[0], back_granted=got[1], mid_capture=False, granted=got[0])
            s["connections"].add(conn)
            s.setdefault("addr", c["addr"])
            for d in sess.values():     # dead sessions of this client (ID, or address after a restart) recovered
                if d.get("dead") and not d.get("recovered_frame") and ts > d["dead_ts"] and \
                        (d.get("clientid") == c["clientid"] or d.get("addr") == c["addr"]):
                    d["recovered_frame"] = frame
            if got[0] < c["maxreqs"][0]:
                f = fnd("SLOT_LIMITED", sid)
                f.note(c["frame"], conn)
                f.frames.append(frame)
                s["limited"] = f
        sid = c["sid"]
        if sid is None:
            continue
        s = sess[sid]
        if len(st) > 1 and st[1] == 0:                   # SEQUENCE answered NFS4_OK
            hs, tg = ints(m["nfs.high_slotid"]), ints(m["nfs.target_high_slotid"])
            if hs:
                if s["target"] is not None and tg[0] < s["target"] and len(inflight[sid]) > tg[0] + 1:
                    fnd("SLOT_TABLE_SHRUNK", sid).note(frame, conn)
                s["hs"], s["target"], s["granted"] = hs[0], tg[0], hs[0] + 1
        # NFS4ERR_BADSESSION (COMPOUND status): dead from the first; calls first sent after it counted
        if s.get("dead") and c["ts"] > s["dead_ts"]:
            s["calls_after_dead"] = s.get("calls_after_dead", 0) + 1
            s.setdefault("after", []).append((c["frame"], frame, c["conn"]))
        if st[0] == 10052:
            s["badsession_replies"] = s.get("badsession_replies", 0) + 1
            if not s.get("dead"):
                s.update(dead="BADSESSION", dead_ts=ts, dead_frame=frame, recovered_frame=None)
        else:
            s["served"] = True
        if inflight[sid].get(c["slot"]) == c["frame"]:
            del inflight[sid][c["slot"]]
        codes = set(st)
        if 10055 in codes:
            fnd("CONN_NOT_BOUND", sid).note(frame, conn)
        if 10063 in codes:
            fnd("SEQ_MISORDERED", sid).note(frame, conn)
        for k, code in STORM_CODES.items():
            if code in codes:
                errors.setdefault((k, sid), []).append((ts, frame, conn))
        if 10013 in codes:
            s.setdefault("grace", []).append(ts)
    for (k, sid), lst in errors.items():     # storms: clusters with N errors inside W seconds
        cl = []
        for e in lst + [None]:
            if e is None or (cl and e[0] - cl[-1][0] > storm_w):
                if any(cl[i + storm_n - 1][0] - cl[i][0] <= storm_w for i in range(len(cl) - storm_n + 1)):
                    f = Finding(k + "_STORM", sid)
                    f.sev = "critical"
                    for x in cl:
                        f.note(x[1], x[2])
                    F[(k + "_STORM", sid, len(F))] = f
                cl = []
            if e is not None:
                cl.append(e)
    for s in sess.values():
        if "limited" in s:
            s["limited"].sev = "warning" if s["saturated"] else "info"
        g = s.get("grace", [])
        if g and g[-1] - g[0] > grace:
            raise SystemExit("%s: GRACE for %.0f s: GRACE_STUCK derivation needs RECLAIM_COMPLETE tracking" % (cap, g[-1] - g[0]))
    for sid, s in sess.items():          # DEAD_SESSION_USE: 2 or more calls after the death
        a = s.get("after", [])
        if len(a) >= 2:
            f = fnd("DEAD_SESSION_USE", sid)
            f.sev = "warning" if s.get("recovered_frame") else "error"
            f.count = len(a)
            f.frames = [s["dead_frame"], a[0][0]] + [x for c_, r, _ in a[1:] for x in (c_, r)]
            f.conns = {x[2] for x in a[1:]}
    fs = sorted((f.out() for f in F.values()), key=lambda f: (f["kind"], f["session"] or "", f["client"] or "", f["frames"]))
    ss = []
    for s in sess.values():
        ss.append({k: s.get(k) for k in ("sessionid", "clientid", "fore_requested", "fore_granted", "back_requested",
                                          "back_granted", "highest_used", "max_outstanding", "saturated",
                                          "mid_capture", "dead", "recovered_frame")})
        ss[-1]["badsession_replies"] = s.get("badsession_replies", 0)
        ss[-1]["calls_after_dead"] = s.get("calls_after_dead", 0)
        ss[-1]["never_created"] = s["mid_capture"] and not s.get("served") and s.get("badsession_replies", 0) > 0
        ss[-1]["connections"] = ["c%d" % c for c in sorted(s["connections"])]
    return {"findings": fs, "sessions": sorted(ss, key=lambda s: s["sessionid"])}


def strip_client(d):
    """The derivation names sessions, not clients: compare findings without `client`."""
    return {"findings": [{k: v for k, v in f.items() if k != "client"} for f in d["findings"]],
            "sessions": d["sessions"]}


def diff(name, what, want, have, errs):
    if json.dumps(want, sort_keys=True) != json.dumps(have, sort_keys=True):
        errs.append("%s: %s differ\n    expected %s\n    got      %s" % (
            name, what, json.dumps(want, sort_keys=True), json.dumps(have, sort_keys=True)))


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    if len(args) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    nfsscope, sdir, expf = args
    with open(expf) as f:
        exp = json.load(f)
    use_tshark = "--tshark" in argv
    if use_tshark and not shutil.which("tshark"):
        print("tshark not found")
        return 77
    errs = []
    for cap, want in sorted(exp["captures"].items()):
        path = "%s/%s" % (sdir, cap)
        want = {"findings": sorted(want["findings"], key=lambda f: (f["kind"], f["session"] or "", f.get("client") or "",
                                                                    f["frames"])),
                "sessions": sorted(want["sessions"], key=lambda s: s["sessionid"])}
        if use_tshark:
            d = derive(path)
            if "--print-derived" in argv:
                print(cap, json.dumps(d, indent=1, sort_keys=True))
            diff(cap, "expectations and tshark's derivation", strip_client(want), strip_client(d), errs)
            continue
        have = got_of(nfsscope_report(nfsscope, path))
        diff(cap, "findings", want["findings"], have["findings"], errs)
        diff(cap, "sessions", want["sessions"], have["sessions"], errs)
    for e in errs:
        print("FAIL " + e)
    if not errs:
        print("ok: %d captures%s" % (len(exp["captures"]), " (tshark derivation)" if use_tshark else ""))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
