#!/usr/bin/env python3
"""Who and what (issue 25), against tshark and against nfsscope's own txn log.

  check_who_paths.py NFSSCOPE CAPTURE...

For every capture, and for the same capture cut after its first frames
(editcap -r: started after the mount, the LOOKUPs and MNT of the start
missing):
 1. paths: tshark's name snooping (nfs.file_name_snooping,
    nfs.file_full_name_snooping; nfs.full_name beside each nfs.fhandle)
    names handles; for every handle tshark names that nfsscope reports (as a
    file in the JSON files[] or as a transaction's fh in the txn log), the
    path agrees: equal once tshark's "server:" prefix is taken off when
    tshark's name is absolute, else nfsscope's ends with "/" + tshark's
    (tshark names NFSv4 handles by their last component only, and from the
    first LOOKUP it saw in a cut capture). Every handle tshark names in a
    call must be one nfsscope reports.
 2. sums: users[] and clients_by_address[] (calls, bytes, errors) equal the
    sums over the txn log's lines (uid/gid, client address).
 3. bytes: each file's read_bytes / write_bytes equal the READ / WRITE
    counts tshark decodes in the replies to calls carrying that handle.
Exit 77 without tshark/editcap.
"""
import json, os, re, shutil, subprocess, sys, tempfile
import xml.etree.ElementTree as ET

TS = ["-o", "nfs.file_name_snooping:TRUE", "-o", "nfs.file_full_name_snooping:TRUE"]


def tshark_names(cap):
    """{fh hex: set of tshark full names}, {fh hex: frames of calls it is in}"""
    p = subprocess.run(["tshark", "-r", cap, "-n"] + TS + ["-T", "pdml", "-Y", "nfs"],
                       capture_output=True, text=True)
    names, in_calls = {}, {}
    root = ET.fromstring(p.stdout) if p.stdout.strip() else None
    if root is None:
        return names, in_calls
    for pkt in root.iter("packet"):
        frame = int(pkt.find("proto[@name='geninfo']/field[@name='num']").get("show"))
        is_call = any(f.get("show") == "0" for f in pkt.iter("field") if f.get("name") == "rpc.msgtyp")
        for parent in pkt.iter():
            kids = list(parent)
            for i, k in enumerate(kids):
                if k.get("name") != "nfs.fhandle":
                    continue
                fh = k.get("value")
                if is_call:
                    in_calls.setdefault(fh, set()).add(frame)
                # the full name sits among the siblings just before the handle
                for j in range(i - 1, -1, -1):
                    n = kids[j].get("name")
                    if n == "nfs.full_name":
                        names.setdefault(fh, set()).add(kids[j].get("show"))
                        break
                    if n == "nfs.fh.length":
                        break
    return names, in_calls


def run_nfsscope(bin_, cap, d):
    js = os.path.join(d, "r.json")
    log = os.path.join(d, "t.jsonl")
    subprocess.run([bin_, "-r", cap, "--no-progress", "--format", "json", "-o", js, "--txn-log", log],
                   check=True, stdout=subprocess.DEVNULL)
    with open(js) as f:
        rep = json.load(f)
    with open(log) as f:
        lines = [json.loads(x) for x in f if x.strip()]
    return rep, lines


def agree(ours, theirs):
    t = theirs.rstrip("/") or "/"
    m = re.match(r"^[^/]*:(/.*)$", t)  # "10.77.0.1:/export/x": the server's name, then the path
    if m:
        t = m.group(1).rstrip("/") or "/"
        return ours == t
    if t.startswith("/"):
        return ours == t
    return ours.endswith("/" + t) or ours == t


def check_paths(cap, rep, lines, errs):
    names, in_calls = tshark_names(cap)
    ours = {}
    for f in rep.get("files", []):
        ours[f["fh"]] = f["path"]
    for l in lines:
        if l.get("fh"):
            ours.setdefault(l["fh"], l["path"])
    compared = 0
    for fh, theirs in sorted(names.items()):
        if fh not in ours:
            if fh in in_calls:
                errs.append(f"{cap}: tshark names handle {fh} ({sorted(theirs)}) in call frames "
                            f"{sorted(in_calls[fh])[:3]}, nfsscope reports no such file")
            continue
        p = ours[fh]
        if p is None:
            errs.append(f"{cap}: handle {fh}: tshark names it {sorted(theirs)}, nfsscope has no path")
            continue
        # tshark keeps every name a handle was ever given; one must agree (the last, after a RENAME)
        if not any(agree(p, t) for t in theirs):
            errs.append(f"{cap}: handle {fh}: nfsscope '{p}', tshark {sorted(theirs)}")
        compared += 1
    return compared, len(names)


def is_error(l):
    if l["reply_frame"] is None:
        return False
    if l["rpc_status"] not in (None, "SUCCESS"):
        return True
    return l["status"] not in (None, "OK", "NFS3_OK", "NFS4_OK", "MNT3_OK")


def check_sums(cap, rep, lines, errs):
    users, clients = {}, {}
    for l in lines:
        b = (l["call_bytes"] or 0) + (l["reply_bytes"] or 0)
        e = 1 if is_error(l) else 0
        addr = re.sub(r"^\[?(.*?)\]?:\d+$", r"\1", l["client"]) if l["client"] else None
        if addr:
            c = clients.setdefault(addr, [0, 0, 0])
            c[0] += 1; c[1] += b; c[2] += e
        if l["call_frame"] is not None and l["auth"] is not None:
            if l["uid"] is not None:
                key = ("sys", l["uid"], l["gid"])
            elif l["gss_context"]:
                key = ("gss", l["gss_context"])
            elif l["auth"] not in ("AUTH_SYS", "RPCSEC_GSS"):
                key = ("other",)
            else:
                continue  # a credential not captured whole: whose call it was is unknown
            u = users.setdefault(key, [0, 0, 0])
            u[0] += 1; u[1] += b; u[2] += e
    got_c = {c["address"]: [c["calls"], c["bytes"], c["errors"]] for c in rep["clients_by_address"]}
    got_u = {}
    for u in rep["users"]:
        key = ("sys", u["uid"], u["gid"]) if u["auth"] == "sys" else \
              ("gss", u["gss_context"]) if u["auth"] == "gss" else ("other",)
        got_u[key] = [u["calls"], u["bytes"], u["errors"]]
    if got_c != clients:
        errs.append(f"{cap}: clients_by_address {got_c} != txn log sums {clients}")
    if got_u != users:
        errs.append(f"{cap}: users {got_u} != txn log sums {users}")


def tshark_io(cap):
    """{fh hex: [read bytes, write bytes]}: the data of each successful READ /
    WRITE reply, on the handle current at that operation in its call (paired
    by stream and XID: a frame can carry several RPC messages)."""
    p = subprocess.run(["tshark", "-r", cap, "-n", "-T", "pdml", "-Y", "nfs"], capture_output=True, text=True)
    root = ET.fromstring(p.stdout) if p.stdout.strip() else None
    calls, out = {}, {}
    if root is None:
        return out
    for pkt in root.iter("packet"):
        stream = [f.get("show") for f in pkt.iter("field") if f.get("name") in ("tcp.stream", "udp.stream")][:1]
        xid = msgtyp = None
        for proto in pkt.findall("proto"):
            if proto.get("name") == "rpc":
                for f in proto.iter("field"):
                    if f.get("name") == "rpc.xid": xid = f.get("show")
                    if f.get("name") == "rpc.msgtyp": msgtyp = f.get("show")
                continue
            if proto.get("name") != "nfs" or xid is None:
                continue
            key = (tuple(stream), xid)
            fields = [(f.get("name"), f.get("show"), f.get("value")) for f in proto.iter("field")]
            proc = [s for n, s, v in fields if n == "nfs.procedure_v3"]
            if msgtyp == "0":
                fh = None
                for n, s, v in fields:
                    if n == "nfs.fhandle" and (fh is None or not proc):
                        fh = v  # NFSv3: the first handle; NFSv4: the last before the operation
                    if (proc and n == "nfs.procedure_v3" and s in ("6", "7")) or \
                       (not proc and n == "nfs.opcode" and s in ("25", "38", "68")):
                        calls[key] = (proc[0] if proc else s, fh)
                        if proc:
                            fh = None
                if proc and key in calls and calls[key][1] is None:
                    calls[key] = (proc[0], next((v for n, s, v in fields if n == "nfs.fhandle"), None))
                continue
            if key not in calls or calls[key][1] is None:
                continue
            what, fh = calls.pop(key)
            st = [s for n, s, v in fields if n in ("nfs.status3", "nfs.nfsstat4")]
            if st[:1] != ["0"]:
                continue
            r = out.setdefault(fh, [0, 0])
            if what == "6":
                r[0] += int(next((s for n, s, v in fields if n == "nfs.count3"), 0))
            elif what == "7":
                r[1] += int(next((s for n, s, v in fields if n == "nfs.count3"), 0))
            elif what in ("25", "68"):  # READ, READ_PLUS's data segments
                r[0] += sum(int(s) for n, s, v in fields if n == "nfs.read.data_length")
            elif what == "38":
                r[1] += sum(int(s) for n, s, v in fields if n == "nfs.count4")
    return out


def check_io(cap, rep, errs):
    theirs = tshark_io(cap)
    for f in rep["files"]:
        t = theirs.get(f["fh"], [0, 0])
        if [f["read_bytes"], f["write_bytes"]] != t:
            errs.append(f"{cap}: {f['path'] or f['fh']}: read/write {f['read_bytes']}/{f['write_bytes']}, "
                        f"tshark {t[0]}/{t[1]}")
    for fh, t in theirs.items():
        if t != [0, 0] and fh not in {f["fh"] for f in rep["files"]}:
            errs.append(f"{cap}: tshark: {t[0]}/{t[1]} bytes read/written on {fh}, not among nfsscope's files")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    if not shutil.which("tshark") or not shutil.which("editcap"):
        sys.exit(77)
    bin_ = sys.argv[1]
    errs, compared, named = [], 0, 0
    with tempfile.TemporaryDirectory() as d:
        for cap in sys.argv[2:]:
            frames = int(subprocess.run(["capinfos", "-c", "-M", "-T", cap], capture_output=True,
                                        text=True).stdout.split("\n")[1].split("\t")[1])
            caps = [cap]
            if frames > 40:
                cut = os.path.join(d, os.path.basename(cap) + ".cut.pcap")
                subprocess.run(["editcap", "-r", cap, cut, f"{frames // 4}-{frames}"], check=True)
                caps.append(cut)
            for c in caps:
                rep, lines = run_nfsscope(bin_, c, d)
                missing = [k for k in ("files", "users", "clients_by_address") if k not in rep] + \
                          [k for k in ("fh", "path", "uid", "gid", "gss_context") if lines and k not in lines[0]]
                if missing:
                    errs.append(f"{c}: no {', '.join(missing)} in the JSON report / txn log")
                    continue
                n, m = check_paths(c, rep, lines, errs)
                compared += n
                named += m
                check_sums(c, rep, lines, errs)
                if c == cap:
                    check_io(c, rep, errs)
    for e in errs:
        print("FAIL", e)
    print(f"{len(sys.argv) - 2} captures (and their cut copies): {compared} handles compared with tshark's "
          f"{named} named, {len(errs)} disagreements")
    sys.exit(1 if errs else 0)


if __name__ == "__main__":
    main()
