#!/usr/bin/python3
"""Findings a person can read when there are many (issue 23: "info findings
drown the rest"): folding, --min-severity, --fail-on SEVERITY.

    findings_fold.py NFSSCOPE DIR

DIR holds fold-many-sessions.{pcap,findings.json} (tests/gen/make_fold_captures.py).
Every expected value comes from findings.json, which the generator derived
from what it wrote (seed_lib.derive: kinds, severities, counts, frames,
connections, and each session's asked and granted slots), and from the
capture's own timestamps; none from nfsscope.

Checks, on the text report as printed (-q and default):
  * entries in severity rank order (critical, error, warning, info);
  * a kind and severity with more than 3 findings is one entry:
    "SEV KIND FIRST..LAST  xOCC in N findings", FIRST/LAST the earliest and
    latest frame of its findings, then the worst 3 by slots asked and not
    granted (SLOT_LIMITED) with "granted G of A", session, conns, frames,
    the worst one's message, "... and N-3 more (--all-findings or -v ...)";
  * 3 or fewer of a kind are listed one by one;
  * --all-findings and -v list every finding (each session id once);
  * --min-severity warning|error: those findings only, and the heading
    "Findings (K of 47: --min-severity S leaves out ...)" with the counts
    left out per severity; JSON: the same findings, never folded, with
    findings_min_severity and findings_below_min_severity;
  * --fail-on error/warning/critical, mixed with kinds: exit 3 exactly when
    a finding of that severity or worse (or of a kind named) exists, whatever
    --min-severity shows; no kind is named like a severity; a bad value is
    exit 1 naming the severities;
  * --batch lines name new findings by kind with a count, not one word per
    finding.
"""
import json
import os
import re
import struct
import subprocess
import sys
from datetime import datetime, timezone

RANK = {"info": 0, "warning": 1, "error": 2, "critical": 3}
FOLD_ABOVE = 3
ENTRY = re.compile(r"^  (critical|error|warning|info)\s+([A-Z_]+)\s+(\S+)\.\.(\S+)\s+x(\d+)(?: in (\d+) findings)?")
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)
    return cond


def run(n, *args):
    return subprocess.run([n] + list(args), capture_output=True, text=True)


def run_json(n, *args):
    r = run(n, *args)
    try:
        return json.loads(r.stdout)
    except ValueError:
        fails.append("%s: no JSON report (exit %d: %s)" % (" ".join(args), r.returncode, r.stderr.strip()[:200]))
        return {"findings": [], "findings_min_severity": "?", "findings_below_min_severity": -1}


def frame_times(path):
    """{frame: 'HH:MM:SS.ffffff'} from the pcap's record headers."""
    out = {}
    with open(path, "rb") as f:
        hdr = f.read(24)
        nsec = hdr[:4] in (b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d")
        endian = "<" if hdr[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
        i = 0
        while True:
            rec = f.read(16)
            if len(rec) < 16:
                break
            sec, frac, incl, _ = struct.unpack(endian + "IIII", rec)
            f.read(incl)
            i += 1
            us = frac // 1000 if nsec else frac
            t = datetime.fromtimestamp(sec, timezone.utc)
            out[i] = "%s.%06d" % (t.strftime("%H:%M:%S"), us)
    return out


def findings_section(text):
    m = re.search(r"^(Findings \([^\n]*\))\n(.*?)(?=^\S|\Z)", text, re.M | re.S)
    return (m.group(1), m.group(2)) if m else ("", "")


def entries(body):
    return [m for m in (ENTRY.match(line) for line in body.splitlines()) if m]


def main():
    n, d = sys.argv[1], sys.argv[2]
    cap = os.path.join(d, "fold-many-sessions.pcap")
    exp = json.load(open(os.path.join(d, "fold-many-sessions.findings.json")))
    want = exp["findings"]
    sessions = {s["sessionid"]: s for s in exp["sessions"]}
    ts = frame_times(cap)
    groups = {}
    for f in want:
        groups.setdefault((f["severity"], f["kind"]), []).append(f)
    total = len(want)

    # ---- the default text report, and -q
    for args in ([], ["-q"]):
        r = run(n, "-r", cap, *args)
        check(r.returncode == 0, "%s: exit %d" % (args, r.returncode))
        head, body = findings_section(r.stdout)
        check(head == "Findings (%d)" % total, "%s: heading %r, want 'Findings (%d)'" % (args, head, total))
        es = entries(body)
        ranks = [RANK[m.group(1)] for m in es]
        check(ranks == sorted(ranks, reverse=True), "%s: entries not in severity rank order: %s" %
              (args, [m.group(1) for m in es]))
        want_entries = sum(1 if len(g) > FOLD_ABOVE else len(g) for g in groups.values())
        check(len(es) == want_entries, "%s: %d entries, want %d (groups of more than %d folded)" %
              (args, len(es), want_entries, FOLD_ABOVE))
        for (sev, kind), g in sorted(groups.items()):
            mine = [m for m in es if m.group(1) == sev and m.group(2) == kind]
            if len(g) <= FOLD_ABOVE:
                check(len(mine) == len(g) and all(m.group(6) is None for m in mine),
                      "%s: %s %s: %d entries, want %d listed one by one" % (args, sev, kind, len(mine), len(g)))
                continue
            if not check(len(mine) == 1 and mine[0].group(6), "%s: %s %s (%d findings) not folded into one entry"
                         % (args, sev, kind, len(g))):
                continue
            m = mine[0]
            occ = sum(f["count"] for f in g)
            first = min(ts[min(f["frames"])] for f in g)
            last = max(ts[max(f["frames"])] for f in g)
            check(int(m.group(6)) == len(g) and int(m.group(5)) == occ,
                  "%s: %s %s: 'x%s in %s findings', want x%d in %d" % (args, sev, kind, m.group(5), m.group(6), occ, len(g)))
            check((m.group(3), m.group(4)) == (first, last), "%s: %s %s span %s..%s, want %s..%s" %
                  (args, sev, kind, m.group(3), m.group(4), first, last))
            block = re.split(r"\n  (?=\S)", body[body.index(m.group(0)):], maxsplit=1)[0]
            flat = " ".join(block.split())  # the text as read, whatever the wrapping
            worst = sorted(g, key=lambda f: -(sessions[f["session"]]["fore_channel"]["requested_max_requests"] -
                                              sessions[f["session"]]["fore_channel"]["granted_max_requests"]))
            check("the worst 3, by fore-channel slots asked and not granted:" in flat,
                  "%s: %s %s: no 'the worst 3, by ...' line" % (args, sev, kind))
            lines = [ln.strip() for ln in block.splitlines() if ln.strip().startswith("granted ")]
            for i, f in enumerate(worst[:3]):
                fc = sessions[f["session"]]["fore_channel"]
                line = "granted %d of %d  session %s  conns %s  frames %s" % (
                    fc["granted_max_requests"], fc["requested_max_requests"], f["session"],
                    ",".join(f["connections"]), " ".join(map(str, f["frames"])))
                check(i < len(lines) and lines[i] == line, "%s: %s %s example %d: %r, want %r" %
                      (args, sev, kind, i + 1, lines[i] if i < len(lines) else None, line))
            fc = sessions[worst[0]["session"]]["fore_channel"]
            check(re.search(r"the worst one: CREATE_SESSION asked %d fore-channel slots and the server granted %d\."
                            % (fc["requested_max_requests"], fc["granted_max_requests"]), flat),
                  "%s: %s %s: the worst one's message missing" % (args, sev, kind))
            check("... and %d more (--all-findings or -v lists every one)" % (len(g) - 3) in flat,
                  "%s: %s %s: no '... and %d more' line" % (args, sev, kind, len(g) - 3))

    # ---- every finding: --all-findings, -v
    for args in (["-q", "--all-findings"], ["-v"]):
        r = run(n, "-r", cap, *args)
        head, body = findings_section(r.stdout)
        es = entries(body)
        check(len(es) == total and not any(m.group(6) for m in es),
              "%s: %d entries, want every one of %d unfolded" % (args, len(es), total))
        for f in want:
            check(f["session"] in body, "%s: session %s not listed" % (args, f["session"]))

    # ---- --min-severity
    for floor in ("warning", "error", "critical"):
        keep = [f for f in want if RANK[f["severity"]] >= RANK[floor]]
        out = {}
        for f in want:
            if RANK[f["severity"]] < RANK[floor]:
                out[f["severity"]] = out.get(f["severity"], 0) + 1
        left = ", ".join("%d %s" % (out[s], s) for s in ("critical", "error", "warning", "info") if s in out)
        r = run(n, "-r", cap, "-q", "--min-severity", floor)
        head, body = findings_section(r.stdout)
        check(head == "Findings (%d of %d: --min-severity %s leaves out %s)" % (len(keep), total, floor, left),
              "--min-severity %s: heading %r" % (floor, head))
        es = entries(body)
        check(all(RANK[m.group(1)] >= RANK[floor] for m in es), "--min-severity %s: a less severe entry shown" % floor)
        check(sum(int(m.group(6) or 1) for m in es) == len(keep),
              "--min-severity %s: entries cover %d findings, want %d" % (floor, sum(int(m.group(6) or 1) for m in es), len(keep)))
        if not keep:
            check("  none" in body, "--min-severity %s: no 'none' line" % floor)
        j = run_json(n, "-r", cap, "--format", "json", "--min-severity", floor)
        check(len(j["findings"]) == len(keep) and j["findings_min_severity"] == floor and
              j["findings_below_min_severity"] == total - len(keep),
              "JSON --min-severity %s: %d findings, %r, %r; want %d, %s, %d" %
              (floor, len(j["findings"]), j["findings_min_severity"], j["findings_below_min_severity"], len(keep),
               floor, total - len(keep)))
    j = run_json(n, "-r", cap, "--format", "json")
    check(len(j["findings"]) == total and j.get("findings_min_severity", "?") is None and
          j.get("findings_below_min_severity") == 0,
          "JSON: %d findings (never folded), want %d; min severity %r" % (len(j["findings"]), total,
                                                                          j.get("findings_min_severity", "?")))
    r = run(n, "-r", cap, "--min-severity", "loud")
    check(r.returncode == 1 and "info, warning, error or critical" in r.stderr,
          "--min-severity loud: exit %d, %r" % (r.returncode, r.stderr))

    # ---- --fail-on severities and kinds
    worst = max(RANK[f["severity"]] for f in want)
    kinds = {f["kind"] for f in want}
    cases = [("error", worst >= 2), ("warning", worst >= 1), ("critical", worst >= 3), ("INFO", True),
             ("critical,SLOT_LIMITED", True), ("critical,GRACE_STUCK", "GRACE_STUCK" in kinds),
             ("Error,grace_stuck", True)]
    for arg, hit in cases:
        for extra in ([], ["--min-severity", "critical"]):
            r = run(n, "-r", cap, "-q", "--fail-on", arg, *extra)
            check(r.returncode == (3 if hit else 0), "--fail-on %s %s: exit %d, want %d" %
                  (arg, " ".join(extra), r.returncode, 3 if hit else 0))
    r = run(n, "-r", cap, "--fail-on", "loud")
    m = re.search(r"severities \(that one or worse\): ([a-z ]+); valid kinds: (.*)$", r.stderr.strip())
    if check(r.returncode == 1 and m, "--fail-on loud: exit %d, %r" % (r.returncode, r.stderr)):
        sevs = set(m.group(1).split())
        check(sevs == set(RANK), "--fail-on names severities %s" % sorted(sevs))
        clash = {k for k in m.group(2).split() if k.lower() in RANK}
        check(not clash, "finding kinds named like a severity: %s" % sorted(clash))

    # ---- --batch lines: new findings by kind, with a count
    r = run(n, "-r", cap, "--batch", "--interval", "1", "-o", os.devnull)
    line1 = r.stderr.splitlines()[0] if r.stderr else ""
    t0 = ts[1]
    start = datetime.strptime(t0, "%H:%M:%S.%f")
    first_sec = sum(1 for f in want if f["kind"] == "SLOT_LIMITED" and
                    (datetime.strptime(ts[max(f["frames"])], "%H:%M:%S.%f") - start).total_seconds() < 1)
    check("(+%d new: SLOT_LIMITED x%d)" % (first_sec, first_sec) in line1,
          "--batch: first line %r, want '(+%d new: SLOT_LIMITED x%d)'" % (line1, first_sec, first_sec))

    for f in fails:
        print("FAIL: " + f)
    if not fails:
        print("ok: %d findings, %d kinds and severities; folding, --all-findings, -v, --min-severity, --fail-on, "
              "--batch lines" % (total, len(groups)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
