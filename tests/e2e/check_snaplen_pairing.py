#!/usr/bin/env python3
"""Captures cut by the snapshot length: nfsscope's calls and call -> reply
pairs against tshark's (issue 20, "Snaplen").

    check_snaplen_pairing.py NFSSCOPE CAPTURE... [--exact]

tshark cannot reassemble a message whose bytes the snaplen cut: it decodes
it in the frame that carries its header, and names the call of a reply in
rpc.repframe. For every capture:
  - nfsscope counts at least as many calls as tshark (with --exact: as many);
  - every transaction tshark pairs (a call and a reply naming it) is in
    nfsscope's --txn-log with the same call frame, XID and reply frame.
tshark is read through tshark_diff.py (PDML, the same extraction as the
differential tests). Exit status: 0 all agree, 1 a difference, 2 a tool
failed, 77 tshark not installed.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import tshark_diff as td     # noqa: E402


def nfsscope_txns(nfsscope, capture):
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "txn.jsonl")
        p = subprocess.run([nfsscope, "-r", capture, "--txn-log", log], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
        if p.returncode not in (0, 2):
            raise td.ToolError("nfsscope failed (rc %d): %s" % (p.returncode, p.stderr.decode()[-500:]))
        with open(log) as f:
            return [json.loads(line) for line in f if line.strip()]


def check(nfsscope, tshark, capture, exact):
    msgs = td.tshark_messages(tshark, capture)
    ttxns, st = td.build_transactions(msgs)
    ntxns = nfsscope_txns(nfsscope, capture)
    by_call = {(n["call_frame"], n["xid"]): n for n in ntxns if n.get("call_frame") is not None}
    n_calls = len(by_call)
    pairs = [t for t in ttxns if t.call_frame is not None and t.reply_frame is not None]
    problems = []
    if n_calls < st["calls"] or (exact and n_calls != st["calls"]):
        problems.append("calls: nfsscope %d, tshark %d" % (n_calls, st["calls"]))
    same = 0
    for t in pairs:
        n = by_call.get((t.call_frame, t.xid))
        if n is None:
            problems.append("call frame %d xid 0x%08x: not a call in nfsscope's log" % (t.call_frame, t.xid))
        elif n.get("reply_frame") != t.reply_frame:
            problems.append("call frame %d xid 0x%08x: reply frame %s, tshark %d"
                            % (t.call_frame, t.xid, n.get("reply_frame"), t.reply_frame))
        else:
            same += 1
    print("%s %s: calls nfsscope %d tshark %d; call->reply pairs equal to tshark's %d of %d"
          % ("FAIL" if problems else "ok  ", os.path.basename(capture), n_calls, st["calls"], same, len(pairs)))
    for p in problems[:20]:
        print("    " + p)
    if len(problems) > 20:
        print("    ... %d more" % (len(problems) - 20))
    return not problems


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    exact = "--exact" in argv
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    tshark = td.find_tshark()
    if not tshark:
        print("tshark not installed: skipped")
        return 77
    nfsscope, captures = args[0], args[1:]
    ok = True
    try:
        for c in captures:
            ok = check(nfsscope, tshark, c, exact) and ok
    except td.ToolError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
