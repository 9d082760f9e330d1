#!/usr/bin/env python3
"""--min-severity on the HTML page, as a person reads it (issue 23): the page
lists and charts only findings of the minimum severity or worse and says how
many less severe ones it left out, like the text report does.

On fold-many-sessions.pcap (tests/gen/make_fold_captures.py), whose
hand-derived findings.json holds 1 error, 6 warnings and 40 info findings,
the page is read through Chromium's DOM at every minimum: the finding
entries by severity, the timeline's bars, and the sentence counting what was
left out.

    html_min_severity.py NFSSCOPE FOLD_DIR OUT_DIR
Exit 77: no chromium."""
import collections
import json
import os
import re
import subprocess
import sys

from html_reading import chromium, dump_dom, fail  # the same browser run as the page's other checks

RANK = ["info", "warning", "error", "critical"]
TIMELINE_MAX = 40  # HTML_TIMELINE: findings in the timeline


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    nfsscope, fold_dir, out = sys.argv[1:4]
    exe = chromium()
    if not exe:
        print("SKIP: chromium not installed (scripts/deps.sh installs it)")
        return 77
    cap = os.path.join(fold_dir, "fold-many-sessions.pcap")
    with open(os.path.join(fold_dir, "fold-many-sessions.findings.json")) as f:
        expected = collections.Counter(x["severity"] for x in json.load(f)["findings"])
    os.makedirs(out, exist_ok=True)
    for m in [None] + RANK:
        name = "min-" + (m or "default")
        page = os.path.abspath(os.path.join(out, name + ".html"))
        args = [nfsscope, "-r", cap, "--html", page, "-o", os.devnull, "-q"] + (["--min-severity", m] if m else [])
        r = subprocess.run(args, capture_output=True, text=True)
        if r.returncode != 0:
            fail("%s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr))
        dom = dump_dom(exe, page, os.path.join(out, "chromium-profile-" + name))
        floor = RANK.index(m or "info")
        want = {s: n for s, n in expected.items() if RANK.index(s) >= floor}
        left = sum(n for s, n in expected.items() if RANK.index(s) < floor)
        got = collections.Counter(re.findall(r'<div class="finding sev-([a-z]+)"', dom))
        if dict(got) != want:
            fail("%s: finding entries by severity %s, want %s" % (name, dict(got), want))
        note = re.search(r'<p class="min-severity">([^<]*)</p>', dom)
        if left:
            if not note or not note.group(1).startswith("%d less severe finding" % left) or m not in note.group(1):
                fail("%s: want the sentence '%d less severe findings left out (--min-severity %s)', page has %r"
                     % (name, left, m, note and note.group(1)))
        elif note:
            fail("%s: nothing left out, but the page says %r" % (name, note.group(1)))
        tl = re.search(r'<figure class="chart" id="findings-timeline">(.*?)</figure>', dom, re.S)
        shown = sum(want.values())
        bars = len(re.findall(r'<a href="#finding-\d+">', tl.group(1))) if tl else 0
        if bars != min(shown, TIMELINE_MAX):
            fail("%s: %d bars in the findings timeline, want %d" % (name, bars, min(shown, TIMELINE_MAX)))
        if not shown and "No findings of the minimum severity" not in dom:
            fail("%s: no finding shown and no sentence saying why" % name)
        print("ok: %s: entries %s, %d left out, %d timeline bars" % (name, dict(got), left, bars))
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
