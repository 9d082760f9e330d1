#!/usr/bin/python3
"""The plugin's "min_severity" preference, as a tshark user sees it (issue
23): `tshark -o nfsscope.min_severity:warning -q -z expert` lists only
nfsscope findings of warning and worse.

    check_plugin_min_severity.py PLUGIN_SO CAPTURE FINDINGS_JSON [--preload LIB]

FINDINGS_JSON is the generator's expectation for CAPTURE (derived from what
it wrote: tests/gen/make_fold_captures.py), never nfsscope's output.

  -2 (final severities): for no preference and for each of info, warning,
        error, critical, `-z expert` has one nfsscope row per expected
        finding of that severity or worse, each under tshark's severity
        (critical and error: Errors, warning: Warns, info: Notes), and none
        other;
  single pass: no nfsscope row under a severity below the preference;
  the tree: a finding below the preference is still in the frame's
        nfsscope tree (nfsscope.finding.severity), only its expert item goes.
Exit 0 all match, 1 a difference (printed), 2 a tool failed, 77 no tshark.
"""
import json
import re
import shutil
import sys

from tshark_user import Tshark, take_preload

RANK = {"info": 0, "warning": 1, "error": 2, "critical": 3}
SECTION = {"critical": "Errors", "error": "Errors", "warning": "Warns", "info": "Notes"}
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def expert_rows(out):
    """[(section, kind, severity word of the text)] of nfsscope's rows."""
    rows, section = [], None
    for line in out.splitlines():
        m = re.match(r"(Errors|Warns|Notes|Chats|Comments) \(\d+\)", line)
        if m:
            section = m.group(1)
            continue
        m = re.match(r"\s*\d+\s+\S+\s+nfsscope\s+([A-Z_]+): nfsscope finding \d+ \((\w+)\)", line)
        if m:
            rows.append((section, m.group(1), m.group(2)))
    return rows


def main():
    args = sys.argv[1:]
    preload = take_preload(args)
    if len(args) != 3:
        print(__doc__)
        return 2
    plugin_so, capture, exp_path = args
    if not shutil.which("tshark"):
        print("no tshark")
        return 77
    want_all = json.load(open(exp_path))["findings"]
    ts = Tshark(plugin_so, capture, preload)
    try:
        for pref in (None, "info", "warning", "error", "critical"):
            floor = RANK[pref or "info"]
            opt = ["-o", "nfsscope.min_severity:" + pref] if pref else []
            name = pref or "(default)"
            want = sorted((SECTION[f["severity"]], f["kind"], f["severity"]) for f in want_all
                          if RANK[f["severity"]] >= floor)
            got = sorted(expert_rows(ts.run(["-r", ts.capture, "-2", "-q", "-z", "expert"] + opt)))
            if got != want:
                fail("-2 min_severity %s: %d nfsscope rows, want %d; first differences %s" %
                     (name, len(got), len(want), sorted(set(got) ^ set(want))[:4]))
            else:
                print("-2 min_severity %s: %d nfsscope expert rows, as expected" % (name, len(got)))
            single = expert_rows(ts.run(["-r", ts.capture, "-q", "-z", "expert"] + opt))
            below = [r for r in single if RANK[r[2]] < floor]
            if below:
                fail("single pass min_severity %s: rows below it: %s" % (name, below[:3]))
        # the tree keeps what the expert items leave out
        info = [f for f in want_all if f["severity"] == "info"]
        if info:
            frames = {fr for f in info for fr in f["frames"]}
            out = ts.run(["-r", ts.capture, "-2", "-o", "nfsscope.min_severity:critical", "-Y",
                          'nfsscope.finding.severity == "info"', "-T", "fields", "-e", "frame.number"])
            shown = {int(x) for x in out.split()}
            if not frames <= shown:
                fail("min_severity critical: the info findings' frames %s lost their nfsscope tree" %
                     sorted(frames - shown)[:5])
            else:
                print("min_severity critical: the %d frames of info findings keep them in the tree" % len(frames))
    finally:
        ts.close()
    print("ok" if not failures else "%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
