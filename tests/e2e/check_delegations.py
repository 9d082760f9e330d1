#!/usr/bin/python3
"""Delegations per client (issue 24) against tshark and the generator.

    check_delegations.py NFSSCOPE CAPTURE...

For every capture, from tshark's dissection (PDML, never nfsscope's output),
with the rules of doc/json-report.md (clients[].delegations) applied by hand:
every OPEN result granting a delegation (nfs.open.delegation_type 1, 2, 4, 5
and the stateid under it), every CB_RECALL's stateid, every DELEGRETURN's
stateid and status; granted, recalled, returned, revoked (NFS4ERR_DELEG_REVOKED
naming one), errors naming a recalled delegation, the most outstanding at
once, and each recall-to-return latency (CB_RECALL call to DELEGRETURN call).
nfsscope's JSON, summed over clients, must say the same (max latency to the
microsecond, p50 within the histogram's precision). Where the generator
wrote NAME.meta.json with "delegation", also: the lease, per client, and the
findings DELEG_RETURN_SLOW / RECALL_STORM: exactly the kinds listed fire,
with the severity and message parts it names. A capture without that key
(a real sample) must raise neither.
"""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tshark_diff  # noqa: E402

KINDS = {"DELEG_RETURN_SLOW", "RECALL_STORM", "LEASE_EXPIRED_GAP"}
OP_DELEGRETURN, OP_READ, OP_WRITE, OP_SETATTR, OP_TEST, OP_FREE, OP_OPEN, OP_WANT = 8, 25, 38, 34, 55, 45, 18, 56
CB_RECALL = 4
STATEID_OPS = (OP_READ, OP_WRITE, OP_SETATTR, OP_TEST, OP_FREE)
ERRS = {10025, 10087, 10011, 10024}   # BAD_STATEID, DELEG_REVOKED, EXPIRED, OLD_STATEID
errors = []


def err(cap, msg):
    errors.append("%s: %s" % (os.path.basename(cap), msg))


def first(elem, name):
    for f in elem.iter("field"):
        if f.get("name") == name:
            return f
    return None


def other_of(elem):
    f = first(elem, "nfs.stateid.other")
    return (f.get("value") or "").lower() if f is not None else None


def packets(tshark, cap):
    """Yield (time, xid, msgtyp, [(kind, op, status, elem)]) per RPC message."""
    cmd = [tshark, "-n", "-r", cap, "-T", "pdml", "-Y", "rpc"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    for _ev, pkt in ET.iterparse(p.stdout):
        if pkt.tag != "packet":
            continue
        ts = float(first(pkt, "timestamp").get("value")) if first(pkt, "timestamp") is not None else None
        for proto in pkt.iter("proto"):
            if proto.get("name") != "rpc":
                continue
            fx, fm = first(proto, "rpc.xid"), first(proto, "rpc.msgtyp")
            if fx is None or fm is None:    # a fragment tshark did not dissect as a message
                continue
            yield ts, int(fx.get("value"), 16), int(fm.get("show")), pkt
        pkt.clear()
    p.wait()


def ops_of(pkt):
    out = []
    for proto in pkt.iter("proto"):
        if proto.get("name") not in ("nfs", "nfs.cb"):
            continue
        cont = tshark_diff._find_op_container(proto)
        if cont is None:
            continue
        status = first(proto, "nfs.nfsstat4")
        for c in cont:
            if c.tag == "field" and c.get("name") in ("nfs.opcode", "nfs.cb.operation"):
                st = tshark_diff._direct(c, "nfs.nfsstat4")
                out.append(("cb" if c.get("name") == "nfs.cb.operation" else "nfs4", int(c.get("show")),
                            int(st.get("show")) if st is not None else None, c))
        return out, int(status.get("show")) if status is not None else None
    return [], None


def from_tshark(tshark, cap):
    calls = {}
    state = {}          # other -> {"s": granted|recalled|returned|revoked, "recall": ts}
    fig = {"granted": 0, "recalled": 0, "returned": 0, "revoked": 0, "errors_after_recall": 0}
    lat, outstanding, omax = [], 0, 0
    for ts, xid, msgtyp, pkt in packets(tshark, cap):
        ops, cstatus = ops_of(pkt)
        if msgtyp == 0:
            calls[xid] = (ts, ops)
            for kind, op, _st, el in ops:
                if kind == "cb" and op == CB_RECALL:
                    o = other_of(el)
                    d = state.setdefault(o, {"s": "granted", "recall": None})
                    if d["s"] == "granted":
                        d["s"], d["recall"] = "recalled", ts
                        fig["recalled"] += 1
            continue
        call = calls.pop(xid, None)
        if call is None:
            continue
        cts, cops = call
        for kind, op, st, el in ops:           # grants
            if kind == "nfs4" and op in (OP_OPEN, OP_WANT) and st == 0:
                dt = first(el, "nfs.open.delegation_type")
                if dt is not None and int(dt.get("show")) in (1, 2, 4, 5):
                    o = other_of(dt)
                    d = state.get(o)
                    if d and d["s"] in ("granted", "recalled"):
                        break
                    state[o] = {"s": "granted", "recall": None}
                    fig["granted"] += 1
                    outstanding += 1
                    omax = max(omax, outstanding)
                break
        named = [(op, other_of(el)) for kind, op, _s, el in cops if kind == "nfs4" and op == OP_DELEGRETURN]
        named = named or [(op, other_of(el)) for kind, op, _s, el in cops if kind == "nfs4" and op in STATEID_OPS]
        if not named:
            continue
        op, o = named[0]
        d = state.get(o)
        if d is None:
            continue
        st = next((s for k, p, s, _e in ops if k == "nfs4" and p == op), cstatus)
        if op == OP_DELEGRETURN and st == 0:
            if d["s"] in ("granted", "recalled"):
                if d["s"] == "recalled":
                    lat.append(max(0.0, cts - d["recall"]) * 1000.0)
                d["s"] = "returned"
                fig["returned"] += 1
                outstanding -= 1
            continue
        if st not in ERRS:
            continue
        if d["recall"] is not None:
            fig["errors_after_recall"] += 1
        if st == 10087 and d["s"] in ("granted", "recalled"):
            d["s"] = "revoked"
            fig["revoked"] += 1
            outstanding -= 1
    fig["outstanding_max"] = omax
    return fig, lat


def check(nfsscope, tshark, cap):
    fig, lat = from_tshark(tshark, cap)
    out = subprocess.run([nfsscope, "-r", cap, "--format", "json"], capture_output=True, text=True)
    rep = json.loads(out.stdout)
    got = {k: 0 for k in fig}
    lat_max, counts, p50s = 0.0, 0, []
    for c in rep.get("clients", []):
        if "delegations" not in c:
            err(cap, "client %s: no delegations in the report" % c.get("clientid"))
            continue
        d = c["delegations"]
        for k in fig:
            got[k] += d[k] if k != "outstanding_max" else 0
        got["outstanding_max"] = max(got["outstanding_max"], d["outstanding_max"])
        r = d["recall_to_return_ms"]
        if r:
            lat_max = max(lat_max, r["max"])
            counts += r["count"]
            p50s.append(r["p50"])
    for k in fig:
        if fig[k] != got[k]:
            err(cap, "%s: tshark %s, nfsscope %s" % (k, fig[k], got[k]))
    if counts != len(lat):
        err(cap, "recall-to-return count: tshark %d, nfsscope %d" % (len(lat), counts))
    if lat and abs(max(lat) - lat_max) > 0.002:
        err(cap, "recall-to-return max: tshark %.3f ms, nfsscope %.3f ms" % (max(lat), lat_max))
    if lat and len(p50s) == 1:
        want = sorted(lat)[(len(lat) - 1) // 2]
        if abs(p50s[0] - want) > max(0.002, want * 0.02):
            err(cap, "recall-to-return p50: tshark %.3f ms, nfsscope %.3f ms" % (want, p50s[0]))
    found = {f["kind"]: f for f in rep.get("findings", []) if f["kind"] in KINDS}
    meta_path = cap[:-5] + ".meta.json" if cap.endswith(".pcap") else None
    meta = json.load(open(meta_path)).get("delegation") if meta_path and os.path.exists(meta_path) else None
    want = set(meta["findings"]) if meta else set()
    if set(found) != want:
        err(cap, "findings: nfsscope %s, expected %s" % (sorted(found), sorted(want)))
    if not meta:
        return
    for kind, sev in meta.get("severity", {}).items():
        if kind in found and found[kind]["severity"] != sev:
            err(cap, "%s severity %s, expected %s" % (kind, found[kind]["severity"], sev))
    for kind, parts in meta.get("messages", {}).items():
        msg = found.get(kind, {}).get("message", "")
        for p in parts:
            if p not in msg:
                err(cap, "%s message lacks %r: %s" % (kind, p, msg))
    by_id = {c["clientid"]: c for c in rep.get("clients", [])}
    for cid, w in meta["clients"].items():
        c = by_id.get(cid)
        if c is None or "delegations" not in c:
            err(cap, "client %s missing, or without delegations" % cid)
            continue
        d = c["delegations"]
        for k in ("granted", "recalled", "returned", "revoked", "outstanding_max", "errors_after_recall"):
            if d[k] != w[k]:
                err(cap, "client %s %s: generator %s, nfsscope %s" % (cid, k, w[k], d[k]))
        if c["lease"]["lease_time_s"] != w["lease_time_s"]:
            err(cap, "client %s lease %s, generator %s" % (cid, c["lease"]["lease_time_s"], w["lease_time_s"]))


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        tshark = tshark_diff.find_tshark()
    except tshark_diff.ToolError as e:
        print("SKIP: %s" % e)
        return 77
    for cap in argv[2:]:
        check(argv[1], tshark, cap)
    for e in errors:
        print(e)
    print("%d captures, %d problems" % (len(argv) - 2, len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
