#!/usr/bin/python3
"""Check generated captures with tshark (an independent dissector).

    check_tshark_clean.py [--tshark PATH] [--verbose] CAPTURE...

For each capture:
  1. tshark must read it without a malformed frame and without an expert item
     of severity Error (warnings such as "previous segment not captured" are
     expected in the damaged captures and are fine).  tshark's exit status
     must be 0, except for a capture whose NAME.meta.json says "cut": true
     (tshark then reports the cut-off last packet and exits 2).
  2. When NAME.meta.json says "tshark_compare": true and the capture is not
     "damaged", tshark's RPC messages -- (frame, rpc.xid, rpc.msgtyp) -- must
     be exactly the generator's list of RPC messages, and every call_frame /
     reply_frame of NAME.expected.jsonl must carry that xid as a call / reply.
     This is a self-check of the generator, not of nfsscope.
  3. A capture damaged on purpose (a frame whose IP or UDP length lies)
     lists in NAME.meta.json "tshark_errors_ok" the expert errors that
     damage raises (message prefixes): those, and a malformed mark in the
     same frame, are expected; any other error still fails.

tshark runs with tcp.reassemble_out_of_order on, so that it reassembles the
way the generator counts (a record completes in the frame that brought its
last missing byte).  Exit status: 0 all good, 1 a check failed, 77 no tshark.
"""
import json
import os
import shutil
import subprocess
import sys

SEV_ERROR = 0x00800000
# nfsscope's own plugin is left out: while a package test (e2e.deb) has it
# installed system-wide, another test run's tshark would load it and count
# its findings (expert errors by design) as the capture's fault.
TSHARK_OPTS = ["-n", "-o", "tcp.reassemble_out_of_order:TRUE", "-o", "tcp.check_checksum:TRUE",
               "-o", "udp.check_checksum:TRUE", "-o", "ip.check_checksum:TRUE", "--disable-protocol", "nfsscope"]


def meta_for(capture):
    base = os.path.splitext(capture)[0]
    try:
        with open(base + ".meta.json") as f:
            return json.load(f)
    except FileNotFoundError:
        return {}


def expected_for(capture):
    base = os.path.splitext(capture)[0]
    try:
        with open(base + ".expected.jsonl") as f:
            return [json.loads(line) for line in f if line.strip()]
    except FileNotFoundError:
        return None


def run_tshark(tshark, capture, extra):
    cmd = [tshark, "-r", capture] + TSHARK_OPTS + list(extra) + [
        "-T", "fields", "-E", "separator=\t", "-E", "occurrence=a", "-E", "aggregator=|",
        "-e", "frame.number", "-e", "_ws.malformed", "-e", "_ws.expert.severity",
        "-e", "_ws.expert.message", "-e", "rpc.xid", "-e", "rpc.msgtyp", "-e", "icmp.type",
        "-e", "icmpv6.type"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def check(tshark, capture, verbose=False):
    errs = []
    meta = meta_for(capture)
    rc, out, err = run_tshark(tshark, capture, meta.get("tshark_args", []))
    want_rc = 2 if meta.get("cut") else 0
    if rc != want_rc:
        errs.append("tshark exit status %d (want %d): %s" % (rc, want_rc, err.strip()[-300:]))
    msgs = set()
    nframes = 0
    errors_ok = tuple(meta.get("tshark_errors_ok", ()))
    for line in out.splitlines():
        f = line.split("\t")
        f += [""] * (8 - len(f))
        frame = int(f[0])
        nframes = max(nframes, frame)
        sev = [int(s, 0) for s in f[2].split("|") if s]
        text = f[3].split("|")
        expected = False
        for i, s in enumerate(sev):
            if s >= SEV_ERROR:
                t = text[i] if i < len(text) else "?"
                if errors_ok and t.startswith(errors_ok):
                    expected = True
                else:
                    errs.append("frame %d: expert error: %s" % (frame, t))
        if f[1] and not expected:
            errs.append("frame %d: malformed: %s" % (frame, f[1]))
        if f[6] or f[7]:
            continue               # RPC quoted inside ICMP: not a message
        xids = [int(v, 0) for v in f[4].split("|") if v]
        typs = [int(v, 0) for v in f[5].split("|") if v]
        for xid, typ in zip(xids, typs):
            msgs.add((frame, xid, typ))
    if "frames" in meta and nframes != meta["frames"]:
        errs.append("tshark saw %d frames, generator wrote %d" % (nframes, meta["frames"]))
    if meta.get("tshark_compare") and not meta.get("damaged"):
        want = set(tuple(m) for m in meta.get("rpc_msgs", []))
        for m in sorted(want - msgs):
            errs.append("generator sent RPC %s (frame %d xid 0x%08x) but tshark does not see it"
                        % ("call" if m[2] == 0 else "reply", m[0], m[1]))
        for m in sorted(msgs - want):
            errs.append("tshark sees RPC %s in frame %d xid 0x%08x the generator did not send"
                        % ("call" if m[2] == 0 else "reply", m[0], m[1]))
        for r in expected_for(capture) or []:
            for key, typ in (("call_frame", 0), ("reply_frame", 1)):
                if r.get(key) is not None and (r[key], r["xid"], typ) not in msgs:
                    errs.append("expected %s %d xid 0x%08x not seen by tshark" % (key, r[key], r["xid"]))
    if verbose:
        print("%s: %d frames, %d RPC messages" % (capture, nframes, len(msgs)))
    return errs


def main(argv):
    tshark = shutil.which("tshark")
    verbose = False
    files = []
    i = 1
    while i < len(argv):
        if argv[i] == "--tshark":
            tshark = argv[i + 1]
            i += 2
            continue
        if argv[i] == "--verbose":
            verbose = True
        else:
            files.append(argv[i])
        i += 1
    if not tshark:
        print("tshark not found: skipped")
        return 77
    if not files:
        print(__doc__, file=sys.stderr)
        return 2
    bad = 0
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=max(1, min(8, os.cpu_count() or 1))) as pool:
        results = list(pool.map(lambda c: check(tshark, c, verbose), files))
    for c, errs in zip(files, results):
        if errs:
            bad += 1
            print("FAIL %s" % c)
            for e in errs[:50]:
                print("  " + e)
            if len(errs) > 50:
                print("  ... %d more" % (len(errs) - 50))
        else:
            print("ok   %s" % c)
    print("%d of %d captures clean" % (len(files) - bad, len(files)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
