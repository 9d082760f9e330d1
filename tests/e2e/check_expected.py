#!/usr/bin/python3
"""Compare nfsscope's transaction log with a generator's expected log.

    check_expected.py NFSSCOPE CAPTURE EXPECTED [--exit N] [--verbose] [--arg A]...

Runs `NFSSCOPE -r CAPTURE --txn-log -` and reads the JSON Lines transaction
log (doc/txn-log.md) from its standard output (each --arg A is added to
the command line, e.g. `--arg --memcap --arg 1M`) (lines that are not JSON
objects with a "call_frame" key are ignored, so a report on the same stream
does no harm).

Every line of EXPECTED is one transaction.  It is matched with nfsscope's
transaction of the same call_frame and xid (orphan replies: call_frame null,
same reply_frame and xid).  Only the keys present in the expected line are
compared, exactly (JSON types included: 1 is not true).  The check fails on
a missing transaction, a differing key, a transaction nfsscope reports twice,
or one it reports that is not expected.

The exit status nfsscope must return is 0, or N given with --exit, or the
"nfsscope_exit" of EXPECTED's sibling NAME.meta.json (2 for a capture that is
cut off mid-packet: partial analysis).
"""
import json
import os
import subprocess
import sys


def canon(v):
    return json.dumps(v, sort_keys=True, separators=(",", ":"))


def key_of(r):
    if r.get("call_frame") is not None:
        return ("call", r["call_frame"], r.get("xid"))
    return ("orphan", r.get("reply_frame"), r.get("xid"))


def describe(k):
    kind, frame, xid = k
    xs = "0x%08x" % xid if isinstance(xid, int) else repr(xid)
    if kind == "call":
        return "call_frame %s xid %s" % (frame, xs)
    return "orphan reply_frame %s xid %s" % (frame, xs)


def default_exit(expected_path):
    base = expected_path
    if base.endswith(".expected.jsonl"):
        base = base[:-len(".expected.jsonl")]
    try:
        with open(base + ".meta.json") as f:
            return int(json.load(f).get("nfsscope_exit", 0))
    except (FileNotFoundError, ValueError):
        return 0


def main(argv):
    args, want_exit, verbose, extra = [], None, False, []
    i = 1
    while i < len(argv):
        if argv[i] == "--arg":
            extra.append(argv[i + 1])
            i += 2
            continue
        if argv[i] == "--exit":
            want_exit = int(argv[i + 1])
            i += 2
            continue
        if argv[i] == "--verbose":
            verbose = True
        else:
            args.append(argv[i])
        i += 1
    if len(args) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    nfsscope, capture, expected_path = args
    if want_exit is None:
        want_exit = default_exit(expected_path)

    with open(expected_path) as f:
        expected = [json.loads(line) for line in f if line.strip()]

    cmd = [nfsscope, "-r", capture, "--txn-log", "-"] + extra
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        print("FAIL: cannot run %s: %s" % (" ".join(cmd), e))
        return 1
    problems = []
    if p.returncode != want_exit:
        problems.append("nfsscope exit status %d, want %d; stderr: %s"
                        % (p.returncode, want_exit, p.stderr.decode(errors="replace").strip()[-500:]))

    actual, bad_lines = {}, 0
    dups = []
    for line in p.stdout.decode(errors="replace").splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            r = json.loads(line)
        except ValueError:
            bad_lines += 1
            continue
        if not isinstance(r, dict) or "call_frame" not in r:
            continue
        k = key_of(r)
        if k in actual:
            dups.append(k)
        actual[k] = r
    if bad_lines:
        problems.append("%d output lines look like JSON but do not parse" % bad_lines)
    for k in dups:
        problems.append("%s: reported more than once" % describe(k))

    matched = set()
    for e in expected:
        k = key_of(e)
        a = actual.get(k)
        if a is None:
            problems.append("%s: missing (expected %s)" % (describe(k), canon(e)))
            continue
        matched.add(k)
        diffs = []
        for key, want in e.items():
            if key not in a:
                diffs.append("%s: absent, want %s" % (key, canon(want)))
            elif canon(a[key]) != canon(want):
                diffs.append("%s: got %s, want %s" % (key, canon(a[key]), canon(want)))
        if diffs:
            problems.append("%s: %s" % (describe(k), "; ".join(diffs)))
    for k in sorted(set(actual) - matched, key=lambda k: (k[1] or 0, str(k))):
        problems.append("%s: not expected (got %s)" % (describe(k), canon(actual[k])))

    name = os.path.basename(capture)
    if problems:
        print("FAIL %s: %d problem(s), %d expected, %d reported" % (name, len(problems), len(expected),
                                                                  len(actual)))
        for pr in problems:
            print("  " + pr)
        return 1
    print("ok %s: %d transactions match" % (name, len(expected)))
    if verbose:
        for e in expected:
            print("  " + describe(key_of(e)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
