#!/usr/bin/python3
"""Back channels and SEQUENCE status flags (issue 24) against tshark and the
generator.

    check_back_channel.py NFSSCOPE CAPTURE...

For every capture, from tshark's dissection (tshark_diff.py's PDML reading,
never nfsscope's output): per session named by CB_SEQUENCE, the CB_COMPOUND
calls, their replies, those never answered, replies with a CB_COMPOUND
status other than NFS4_OK, the highest slot used and each slot's last
sequence ID; per session named by SEQUENCE, the NFS4_OK replies carrying
each sr_status_flags bit; and the CB_COMPOUNDs in all. nfsscope's JSON
(sessions[].back_channel, sessions[].status_flags) must say the same.
Where the generator wrote NAME.meta.json with "backchannel", also: the
slots asked and granted, slot verdicts and BACKCHANNEL_CTL it wrote, and
the back-channel / status-flag findings: exactly the kinds listed fire
(every other kind of this family must not), with the severity and message
parts it names. A capture without that key (a real sample) must raise none.
"""
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tshark_diff  # noqa: E402

KINDS = {"CB_SEQ_MISORDERED", "CB_SLOT_ABOVE_GRANTED", "CB_UNANSWERED", "CB_PATH_DOWN", "STATE_REVOKED",
         "CB_GSS_CONTEXTS_EXPIRING", "CB_GSS_CONTEXTS_EXPIRED", "BACKCHANNEL_FAULT", "RESTART_RECLAIM_NEEDED",
         "LEASE_MOVED", "DEVID_CHANGED"}
FLAGS = ["CB_PATH_DOWN", "CB_GSS_CONTEXTS_EXPIRING", "CB_GSS_CONTEXTS_EXPIRED", "EXPIRED_ALL_STATE_REVOKED",
         "EXPIRED_SOME_STATE_REVOKED", "ADMIN_STATE_REVOKED", "RECALLABLE_STATE_REVOKED", "LEASE_MOVED",
         "RESTART_RECLAIM_NEEDED", "CB_PATH_DOWN_SESSION", "BACKCHANNEL_FAULT", "DEVID_CHANGED", "DEVID_DELETED"]
errors = []


def err(cap, msg):
    errors.append("%s: %s" % (os.path.basename(cap), msg))


def from_tshark(tshark, cap):
    msgs = tshark_diff.tshark_messages(tshark, cap)
    txns, _ = tshark_diff.build_transactions(msgs)
    cb, flags, total_cb = {}, {}, 0
    for t in txns:
        c = t.call
        if c is None or c.ops is None:
            continue
        if c.op_kind == "cb" and c.proc == 1:
            total_cb += 1
            if not c.seq or not c.seq.get("sessionid"):
                continue
            s = cb.setdefault(c.seq["sessionid"], {"calls": 0, "replies": 0, "unanswered": 0, "errors": 0,
                                                    "highest": None, "last_seqid": {}})
            s["calls"] += 1
            slot, seqid = c.seq.get("slotid"), c.seq.get("sequenceid")
            s["highest"] = slot if s["highest"] is None else max(s["highest"], slot)
            s["last_seqid"][slot] = seqid
            if t.reply is None:
                s["unanswered"] += 1
            else:
                s["replies"] += 1
                if t.reply.status not in (None, 0):
                    s["errors"] += 1
        elif c.op_kind == "nfs4" and c.seq and c.seq.get("sessionid") and t.reply is not None:
            r = t.reply
            if r.status == 0 and r.seq and r.seq.get("status_flags") is not None:
                f = flags.setdefault(c.seq["sessionid"], {})
                for bit, name in enumerate(FLAGS):
                    if r.seq["status_flags"] & (1 << bit):
                        f[name] = f.get(name, 0) + 1
    return cb, flags, total_cb


def check(nfsscope, tshark, cap):
    r = subprocess.run([nfsscope, "-r", cap, "--format", "json"], capture_output=True, text=True)
    if r.returncode != 0:
        err(cap, "nfsscope exit %d: %s" % (r.returncode, r.stderr[-300:]))
        return
    rep = json.loads(r.stdout)
    sessions = {s["sessionid"]: s for s in rep["sessions"]}
    cb, flags, total_cb = from_tshark(tshark, cap)
    got_total = sum(s["back_channel"].get("calls", 0) for s in rep["sessions"])
    if got_total != total_cb:
        err(cap, "CB_COMPOUNDs with a session: nfsscope %d, tshark %d CB_COMPOUNDs" % (got_total, total_cb))
    for sid, s in sessions.items():
        b = s["back_channel"]
        w = cb.get(sid, {"calls": 0, "replies": 0, "unanswered": 0, "errors": 0, "highest": None, "last_seqid": {}})
        for k, tk in (("calls", "calls"), ("replies", "replies"), ("unanswered", "unanswered"), ("errors", "errors"),
                      ("highest_slot_used", "highest")):
            if b.get(k) != w[tk]:
                err(cap, "session %s back_channel.%s: nfsscope %s, tshark %s" % (sid, k, b.get(k), w[tk]))
        table = {e["slot"]: e["last_call_seqid"] for e in b.get("table", [])}
        if table != w["last_seqid"]:
            err(cap, "session %s back-channel slots' last sequence IDs: nfsscope %s, tshark %s" % (sid, table,
                                                                                                   w["last_seqid"]))
        if s.get("status_flags") != flags.get(sid, {}):
            err(cap, "session %s status_flags: nfsscope %s, tshark %s" % (sid, s.get("status_flags"),
                                                                          flags.get(sid, {})))
    for sid in set(cb) | set(flags):
        if sid not in sessions:
            err(cap, "session %s (tshark) missing from nfsscope's sessions" % sid)
    meta_path = os.path.splitext(cap)[0] + ".meta.json"
    meta = json.load(open(meta_path)).get("backchannel") if os.path.exists(meta_path) else None
    found = [f for f in rep["findings"] if f["kind"] in KINDS]
    want = set(meta["findings"]) if meta else set()
    if {f["kind"] for f in found} != want:
        err(cap, "back-channel/flag findings: nfsscope %s, expected %s" % (sorted({f["kind"] for f in found}),
                                                                          sorted(want)))
    if not meta:
        return
    for kind, sev in meta.get("severity", {}).items():
        for f in found:
            if f["kind"] == kind and f["severity"] != sev:
                err(cap, "%s severity %s, expected %s" % (kind, f["severity"], sev))
    for kind, parts in meta.get("messages", {}).items():
        text = " | ".join(f["message"] for f in found if f["kind"] == kind)
        for p in parts:
            if p not in text:
                err(cap, "%s message lacks %r: %s" % (kind, p, text))
    for sid, w in meta["sessions"].items():
        s = sessions.get(sid)
        if not s:
            err(cap, "session %s missing" % sid)
            continue
        b = s["back_channel"]
        for k in ("slots_asked", "slots_granted", "calls", "replies", "unanswered", "errors", "highest_slot_used",
                  "backchannel_ctl", "verdicts"):
            if b.get(k) != w[k]:
                err(cap, "session %s back_channel.%s: nfsscope %s, generator %s" % (sid, k, b.get(k), w[k]))
        if s.get("status_flags") != w["status_flags"]:
            err(cap, "session %s status_flags: nfsscope %s, generator %s" % (sid, s.get("status_flags"),
                                                                             w["status_flags"]))


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        tshark = tshark_diff.find_tshark()
    except tshark_diff.ToolError as e:
        print("SKIP: %s" % e)
        return 77
    if not tshark:
        print("SKIP: tshark not installed")
        return 77
    for cap in argv[2:]:
        check(argv[1], tshark, cap)
    for e in errors:
        print("FAIL " + e)
    print("%d captures, %d problems" % (len(argv) - 2, len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
