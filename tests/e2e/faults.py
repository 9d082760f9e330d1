#!/usr/bin/env python3
"""Fault injection over the real sample captures: the damage production
captures carry, each checked against the run on the intact capture.

    faults.py NFSSCOPE OUTDIR FAULT SAMPLE.pcap...

FAULT is one of:
  dup      every 100th frame (index 50, 150, ...) captured twice in a row
           (tcpdump -i any, a mirror port): nothing lost, no RPC
           retransmission added, the same transactions;
  swap     every 100th pair of neighbours (index 30/31, 130/131, ...)
           swapped, each keeping its timestamp (a multi-queue NIC): nothing
           lost, no RPC retransmission added;
  drop     every 150th frame (index 75, 225, ...) missing: the messages lost
           are at most those whose bytes were in the dropped frames (tshark
           on the intact capture tells which: the RPC messages of the frame,
           the message its bytes were reassembled into, the datagram its IP
           fragment belonged to), and "Not analysed" says something was lost
           (JSON nothing: false, the text report not "nothing") whenever a
           dropped frame carried TCP payload.

The other faults production captures carry are checked elsewhere: a
timestamp a year late and an IPv4 length claiming 1,000 bytes the frame
lacks in check_bad_frames.py, cuts inside large messages in
check_midstream_cut.py.

Frame numbers of the faulted file are mapped back to the intact file's
before comparing.  Expected values come from the intact run of the same
binary and from tshark; the checker never reads an expected number from
nfsscope's output on the faulted capture.  pcapng samples are skipped
(their pcap twins are checked)."""
import json
import os
import shutil
import struct
import subprocess
import sys

FAILS = []


def fail(what):
    FAILS.append(what)
    print("FAIL: " + what)


# ---- pcap files ----

def read_pcap(path):
    with open(path, "rb") as f:
        data = f.read()
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        e = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        e = ">"
    else:
        return None
    linktype = struct.unpack(e + "I", data[20:24])[0] & 0x0fffffff
    recs, off = [], 24
    while off + 16 <= len(data):
        s, frac, cap, orig = struct.unpack(e + "IIII", data[off:off + 16])
        recs.append([s, frac, orig, bytearray(data[off + 16:off + 16 + cap])])
        off += 16 + cap
    return {"e": e, "head": data[:24], "linktype": linktype, "recs": recs}


def write_pcap(path, cap, recs):
    e = cap["e"]
    with open(path, "wb") as f:
        f.write(cap["head"])
        for s, frac, orig, data in recs:
            f.write(struct.pack(e + "IIII", s, frac, len(data), orig))
            f.write(data)


# ---- the faults: each returns (records, new index -> intact index, facts) ----

def fault_dup(cap):
    out, m = [], []
    for i, r in enumerate(cap["recs"]):
        out.append(r)
        m.append(i)
        if i % 100 == 50:
            out.append([r[0], r[1], r[2], bytearray(r[3])])
            m.append(i)
    return out, m, {}


def fault_swap(cap):
    recs = list(cap["recs"])
    m = list(range(len(recs)))
    for i in range(30, len(recs) - 1, 100):
        recs[i], recs[i + 1] = recs[i + 1], recs[i]
        m[i], m[i + 1] = m[i + 1], m[i]
    return recs, m, {}


def fault_drop(cap):
    keep = [i for i in range(len(cap["recs"])) if i % 150 != 75]
    return [cap["recs"][i] for i in keep], keep, {"dropped": [i for i in range(len(cap["recs"])) if i % 150 == 75]}


FAULTS = {"dup": fault_dup, "swap": fault_swap, "drop": fault_drop}


# ---- running ----

def analyse(nfsscope, path, txnlog):
    p = subprocess.run([nfsscope, "-r", path, "--format", "json", "--txn-log", txnlog],
                       capture_output=True, text=True)
    if p.returncode not in (0, 3):
        fail("%s: exit %d: %s" % (path, p.returncode, p.stderr.strip()))
        return None, []
    with open(txnlog) as f:
        txns = [json.loads(line) for line in f if line.strip()]
    return json.loads(p.stdout), txns


def text_report(nfsscope, path):
    p = subprocess.run([nfsscope, "-r", path, "-q"], capture_output=True, text=True)
    return p.stdout


def tshark_messages(path):
    """Per frame (1-based): RPC messages located in it, the frame its TCP
    bytes were reassembled in, the frame its IP fragment was reassembled in,
    TCP payload length."""
    p = subprocess.run(["tshark", "-2", "-n", "-r", path, "-o", "tcp.try_heuristic_first:TRUE", "-T", "fields",
                        "-E", "separator=|", "-e", "frame.number", "-e", "rpc.xid", "-e", "tcp.reassembled_in",
                        "-e", "ip.reassembled_in", "-e", "tcp.len"], capture_output=True, text=True)
    info = {}
    for line in p.stdout.splitlines():
        f = line.split("|")
        if len(f) < 5 or not f[0]:
            continue
        n = int(f[0])
        xids = [x for x in f[1].split(",") if x]
        info[n] = {"msgs": len(xids), "tcp_in": int(f[2]) if f[2] else None,
                   "ip_in": int(f[3]) if f[3] else None, "tcp_len": int(f[4]) if f[4] else 0}
    return info


def loss_budget(info, frames):
    """Messages whose bytes were in these (1-based, intact) frames."""
    touched = set()
    for n in frames:
        i = info.get(n)
        if not i:
            continue
        for k in range(i["msgs"]):
            touched.add((n, k))
        for g in (i["tcp_in"], i["ip_in"]):
            if g and g != n:
                touched.add((g, "any"))
    return len(touched)


def mapped(txns, m):
    """Transactions with frames mapped to the intact capture's numbers."""
    out = []
    for t in txns:
        cf = m[t["call_frame"] - 1] + 1 if t["call_frame"] else 0
        rf = m[t["reply_frame"] - 1] + 1 if t["reply_frame"] else 0
        out.append((cf, rf, t["conn"], t["xid"], t["sends"], t["dup_replies"]))
    return out


def paired(txns):
    return sum(1 for t in txns if t["call_frame"] and t["reply_frame"])


RPC_KEYS = ("calls", "replies", "unmatched_calls", "orphan_replies", "retransmissions", "dup_replies",
            "transactions")


def check_sample(nfsscope, outdir, fault, sample):
    cap = read_pcap(sample)
    name = os.path.basename(sample)
    if cap is None:
        print("skip %s: not a pcap file" % name)
        return
    base, base_txns = analyse(nfsscope, sample, os.path.join(outdir, name + ".txn"))
    if base is None:
        return
    recs, m, facts = FAULTS[fault](cap)
    if recs is None:
        print("skip %s: no frame for the fault %s" % (name, fault))
        return
    path = os.path.join(outdir, "%s.%s.pcap" % (os.path.splitext(name)[0], fault))
    write_pcap(path, cap, recs)
    got, got_txns = analyse(nfsscope, path, path + ".txn")
    if got is None:
        return
    label = "%s %s" % (fault, name)
    na = got["not_analysed"]
    if fault in ("dup", "swap"):
        for k in RPC_KEYS:
            if got["rpc"][k] != base["rpc"][k]:
                fail("%s: rpc.%s %s, intact %s" % (label, k, got["rpc"][k], base["rpc"][k]))
        a, b = sorted(mapped(base_txns, list(range(len(cap["recs"]))))), sorted(mapped(got_txns, m))
        if fault == "swap":  # a message may complete in the other frame of a swapped pair
            a = sorted(x[2:] for x in a)
            b = sorted(x[2:] for x in b)
        if a != b:
            diff = sorted(set(a) ^ set(b))[:4]
            fail("%s: transactions differ from the intact run (%d vs %d), e.g. %s" % (label, len(b), len(a), diff))
        for k in ("messages_lost", "tcp_gaps", "record_resyncs", "messages_truncated"):
            if na.get(k, 0) != base["not_analysed"].get(k, 0):
                fail("%s: not_analysed.%s %s, intact %s" % (label, k, na.get(k), base["not_analysed"].get(k)))
    elif fault == "drop":
        frames = [i + 1 for i in facts["dropped"]]
        info = tshark_messages(sample)
        budget = loss_budget(info, frames)
        lost_msgs = (base["rpc"]["calls"] - got["rpc"]["calls"]) + (base["rpc"]["replies"] - got["rpc"]["replies"])
        lost_pairs = paired(base_txns) - paired(got_txns)
        if lost_msgs > budget:
            fail("%s: %d messages lost, the faulted frames held at most %d" % (label, lost_msgs, budget))
        if lost_pairs > budget:
            fail("%s: %d call/reply pairs lost, the faulted frames held at most %d messages" % (label, lost_pairs, budget))
        payload = any(info.get(n, {}).get("tcp_len", 0) > 0 for n in frames)
        if payload:
            if na.get("nothing", True):
                fail("%s: TCP payload dropped, yet not_analysed.nothing is true" % label)
            text = text_report(nfsscope, path)
            sect = text.split("\nNot analysed\n", 1)[-1]
            if sect.startswith("  nothing"):
                fail("%s: TCP payload dropped, yet the text report says 'Not analysed: nothing'" % label)
        print("%-8s %-36s lost %d messages / %d pairs (budget %d), nothing=%s" % (
            fault, name, lost_msgs, lost_pairs, budget, na.get("nothing")))
        return
    print("%-8s %-36s ok (calls %d, retransmissions %d)" % (fault, name, got["rpc"]["calls"],
                                                             got["rpc"]["retransmissions"]))


def main(argv):
    if len(argv) < 5 or argv[3] not in FAULTS:
        print(__doc__)
        return 2
    nfsscope, outdir, fault = argv[1], argv[2], argv[3]
    if not shutil.which("tshark"):
        print("SKIP: tshark not found")
        return 77
    os.makedirs(outdir, exist_ok=True)
    for s in argv[4:]:
        check_sample(nfsscope, outdir, fault, s)
    print("%s: %d problem%s" % (fault, len(FAILS), "" if len(FAILS) == 1 else "s"))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
