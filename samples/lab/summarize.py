#!/usr/bin/env python3
"""Summarize the sample captures with tshark (the oracle), for samples/README.md.

usage: samples/lab/summarize.py [FILE.pcap ...]   (default: every samples/*.pcap*)

Per capture: size, frames, link type, snap length, RPC calls/replies (RPC
messages, not frames; RPC quoted inside ICMP errors is not counted), tshark
expert errors and malformed frames, calls per program/procedure (NFSv4:
per COMPOUND operation, taken from the direct children of nfs.ops.count so that
the opcode bitmaps inside EXCHANGE_ID are not counted), and error statuses.
"""
import collections
import glob
import json
import os
import re
import subprocess
import sys

NFS3 = ["NULL", "GETATTR", "SETATTR", "LOOKUP", "ACCESS", "READLINK", "READ", "WRITE",
        "CREATE", "MKDIR", "SYMLINK", "MKNOD", "REMOVE", "RMDIR", "RENAME", "LINK",
        "READDIR", "READDIRPLUS", "FSSTAT", "FSINFO", "PATHCONF", "COMMIT"]
MNT3 = ["NULL", "MNT", "DUMP", "UMNT", "UMNTALL", "EXPORT"]
PMAP2 = ["NULL", "SET", "UNSET", "GETPORT", "DUMP", "CALLIT"]
RPCB34 = ["NULL", "SET", "UNSET", "GETADDR", "DUMP", "CALLIT", "GETTIME", "UADDR2TADDR",
          "TADDR2UADDR"]
NFS4OP = {3: "ACCESS", 4: "CLOSE", 5: "COMMIT", 6: "CREATE", 7: "DELEGPURGE",
          8: "DELEGRETURN", 9: "GETATTR", 10: "GETFH", 11: "LINK", 12: "LOCK",
          13: "LOCKT", 14: "LOCKU", 15: "LOOKUP", 16: "LOOKUPP", 17: "NVERIFY",
          18: "OPEN", 19: "OPENATTR", 20: "OPEN_CONFIRM", 21: "OPEN_DOWNGRADE",
          22: "PUTFH", 23: "PUTPUBFH", 24: "PUTROOTFH", 25: "READ", 26: "READDIR",
          27: "READLINK", 28: "REMOVE", 29: "RENAME", 30: "RENEW", 31: "RESTOREFH",
          32: "SAVEFH", 33: "SECINFO", 34: "SETATTR", 35: "SETCLIENTID",
          36: "SETCLIENTID_CONFIRM", 37: "VERIFY", 38: "WRITE", 39: "RELEASE_LOCKOWNER",
          40: "BACKCHANNEL_CTL", 41: "BIND_CONN_TO_SESSION", 42: "EXCHANGE_ID",
          43: "CREATE_SESSION", 44: "DESTROY_SESSION", 45: "FREE_STATEID",
          46: "GET_DIR_DELEGATION", 47: "GETDEVICEINFO", 48: "GETDEVICELIST",
          49: "LAYOUTCOMMIT", 50: "LAYOUTGET", 51: "LAYOUTRETURN", 52: "SECINFO_NO_NAME",
          53: "SEQUENCE", 54: "SET_SSV", 55: "TEST_STATEID", 56: "WANT_DELEGATION",
          57: "DESTROY_CLIENTID", 58: "RECLAIM_COMPLETE"}
NFS4ERR = {10001: "NFS4ERR_BADHANDLE", 10008: "NFS4ERR_DELAY", 10011: "NFS4ERR_EXPIRED",
           10013: "NFS4ERR_GRACE", 10022: "NFS4ERR_STALE_CLIENTID",
           10023: "NFS4ERR_STALE_STATEID", 10052: "NFS4ERR_BADSESSION",
           10063: "NFS4ERR_SEQ_MISORDERED", 2: "NFS4ERR_NOENT", 13: "NFS4ERR_ACCESS"}
NFS3ERR = {2: "NFS3ERR_NOENT", 13: "NFS3ERR_ACCES", 22: "NFS3ERR_INVAL", 70: "NFS3ERR_STALE"}
MNTERR = {13: "MNT3ERR_ACCES", 2: "MNT3ERR_NOENT"}


def tshark(*args):
    return subprocess.run(["tshark", *args], capture_output=True, text=True).stdout


def as_list(x):
    if x is None:
        return []
    return x if isinstance(x, list) else [x]


def find_key(node, key):
    """Yield every value stored under `key` anywhere below node."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k == key:
                yield v
            yield from find_key(v, key)
    elif isinstance(node, list):
        for v in node:
            yield from find_key(v, key)


def proc_name(prog, vers, proc):
    if prog == 100003 and vers == 3:
        return "NFSv3 " + (NFS3[proc] if proc < len(NFS3) else str(proc))
    if prog == 100003 and vers == 4:
        return "NFSv4 " + ("NULL" if proc == 0 else "COMPOUND")
    if prog == 100005:
        return "MOUNTv%d %s" % (vers, MNT3[proc] if proc < len(MNT3) else proc)
    if prog == 100000:
        names = PMAP2 if vers == 2 else RPCB34
        return "PORTMAPv%d %s" % (vers, names[proc] if proc < len(names) else proc)
    return "prog %d v%d proc %d" % (prog, vers, proc)


def summarize(path):
    out = []
    info = subprocess.run(["capinfos", "-c", "-E", "-l", "-M", path],
                          capture_output=True, text=True).stdout
    frames = re.search(r"Number of packets:\s+(\d+)", info).group(1)
    encap = re.search(r"File encapsulation:\s+(.*)", info).group(1).strip()
    snap = re.search(r"Packet size limit:\s+(.*)", info)
    snap = snap.group(1).strip() if snap else "?"
    expert = tshark("-r", path, "-q", "-z", "expert,error")
    malformed = len(tshark("-r", path, "-Y", "_ws.malformed").splitlines())
    errors = [l.strip() for l in expert.splitlines() if re.match(r"\s+\d+\s+\S+\s+\S+\s", l)]

    data = json.loads(tshark("-r", path, "-Y", "rpc && !icmp && !icmpv6", "-T", "json",
                             "-J", "rpc nfs mount portmap", "--no-duplicate-keys") or "[]")
    calls = replies = 0
    procs = collections.Counter()
    ops4 = collections.Counter()
    status = collections.Counter()
    minor = set()
    for pkt in data:
        layers = pkt["_source"]["layers"]
        rpcs = as_list(layers.get("rpc"))
        nfss = as_list(layers.get("nfs"))
        for r in rpcs:
            t = r.get("rpc.msgtyp")
            if t == "0":
                calls += 1
                try:
                    procs[proc_name(int(r["rpc.program"]), int(r["rpc.programversion"]),
                                    int(r["rpc.procedure"]))] += 1
                except KeyError:   # header cut by the snap length
                    procs["(truncated header)"] += 1
            elif t == "1":
                replies += 1
        for n in nfss:
            for mv in as_list(n.get("nfs.minorversion")):
                minor.add(mv)
            # reply status: the top-level one (COMPOUND status for NFSv4)
            for v in as_list(n.get("nfs.status3")):
                if v != "0":
                    status[NFS3ERR.get(int(v), "NFS3 status " + v)] += 1
            for v in as_list(n.get("nfs.nfsstat4")):
                if v != "0":
                    status[NFS4ERR.get(int(v), "NFS4 status " + v)] += 1
        for m in as_list(layers.get("mount")):
            for v in find_key(m, "mount.status"):
                for x in as_list(v):
                    if x != "0":
                        status[MNTERR.get(int(x), "MOUNT status " + x)] += 1
    # Operation counts of COMPOUND calls: a separate pass restricted to calls.
    calls4 = json.loads(tshark("-r", path, "-Y", "nfs && rpc.msgtyp==0 && !icmp && !icmpv6",
                               "-T", "json", "-J", "nfs", "--no-duplicate-keys") or "[]")
    for pkt in calls4:
        for n in as_list(pkt["_source"]["layers"].get("nfs")):
            for tree in as_list(n.get("nfs.ops.count_tree")):
                for op in as_list(tree.get("nfs.opcode")):
                    ops4[NFS4OP.get(int(op), op)] += 1

    out.append("### %s" % os.path.basename(path))
    out.append("")
    out.append("- size %d bytes, %s frames, %s, snaplen %s" %
               (os.path.getsize(path), frames, encap, snap))
    out.append("- RPC calls %d, replies %d (messages, tshark); NFSv4 minor versions: %s" %
               (calls, replies, ",".join(sorted(minor)) or "-"))
    out.append("- tshark expert errors: %s; malformed frames: %d" %
               ("; ".join(errors) if errors else "none", malformed))
    out.append("- calls: " + ", ".join("%s %d" % kv for kv in sorted(procs.items())))
    if ops4:
        out.append("- NFSv4 COMPOUND operations (in calls): " +
                   ", ".join("%s %d" % kv for kv in sorted(ops4.items())))
    if status:
        out.append("- error statuses in replies: " +
                   ", ".join("%s %d" % kv for kv in sorted(status.items())))
    return "\n".join(out)


def main():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(here, "*.pcap")) +
                                   glob.glob(os.path.join(here, "*.pcapng")))
    for f in files:
        print(summarize(f))
        print()


if __name__ == "__main__":
    main()
