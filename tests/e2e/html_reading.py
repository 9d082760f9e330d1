#!/usr/bin/env python3
"""The HTML page's charts read as a person reads them (issue 23).

Usage: html_reading.py NFSSCOPE CAPTURE OUT_DIR

Writes the page of CAPTURE, opens it in headless Chromium and checks what
a reader sees, from the DOM the browser built (--dump-dom) and, for text
laid out on the charts, from the sizes the browser gave it (a copy of the
page with a probe script that writes getBBox() of every label into the DOM):

  - lines of equal values do not hide one another: a later line drawn on an
    earlier one with the same points is narrower, and the legend says so;
    every y axis has at least three ticks.

Exit 77: no chromium.
"""
import json
import os
import re
import shutil
import subprocess
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def dump_dom(exe, page, profile):
    r = subprocess.run([exe, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                        "--user-data-dir=" + profile, "--virtual-time-budget=5000", "--dump-dom", "file://" + page],
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        fail("chromium: exit %d: %s" % (r.returncode, r.stderr[-400:]))
    return r.stdout


def figures(dom):
    return {m.group(1): m.group(2)
            for m in re.finditer(r'<figure class="chart" id="([^"]+)">(.*?)</figure>', dom, re.S)}


def attr(tag, name):
    m = re.search(r'\s%s="([^"]*)"' % name, tag)
    return m.group(1) if m else None


def check_equal_lines(figs):
    """Equal lines stay visible, y axes have ticks enough."""
    for fid, fig in figs.items():
        ticks = re.findall(r'<text class="tick" x="66" y="[\d.]+" text-anchor="end">', fig)
        if 'class="plot"' in fig and not fid.startswith(("conns-", "read-plus", "findings-timeline")) and len(ticks) < 3:
            fail("%s: the y axis has %d ticks" % (fid, len(ticks)))
        seen = {}
        for tag in re.findall(r'<path class="series[^"]*"[^>]*>', fig):
            d, cls, w = attr(tag, "d"), attr(tag, "class"), float(attr(tag, "stroke-width"))
            key = (cls, d)
            if key in seen and not w < seen[key]:
                fail("%s: a %s line drawn over an equal one as wide (%g), hiding it" % (fid, cls, w))
            seen[key] = w
    lat = figs.get("latency", "")
    legend = re.findall(r'<g class="legend">.*?<text[^>]*>([^<]*)</text>', lat)
    p50 = [attr(t, "d") for t in re.findall(r'<path class="series p50"[^>]*>', lat)]
    print("equal lines: %d of %d latency p50 paths repeat an earlier one; legend: %s" %
          (len(p50) - len(set(p50)), len(p50), "; ".join(legend)))


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    nfsscope, capture, out = sys.argv[1:4]
    exe = chromium()
    if not exe:
        print("SKIP: chromium not installed (scripts/deps.sh installs it)")
        return 77
    os.makedirs(out, exist_ok=True)
    name = os.path.basename(capture).rsplit(".", 1)[0]
    page = os.path.abspath(os.path.join(out, name + ".reading.html"))
    r = subprocess.run([nfsscope, "-r", capture, "--html", page, "-o", os.devnull, "-q"], capture_output=True, text=True)
    if r.returncode not in (0, 1):
        fail("nfsscope exit %d: %s" % (r.returncode, r.stderr))
    profile = os.path.join(out, "chromium-profile-reading-" + name)
    figs = figures(dump_dom(exe, page, profile))
    if not figs:
        fail("no chart in the browser's DOM")
    print("charts:", ", ".join(sorted(figs)))
    check_equal_lines(figs)
    print("PASS: %s" % name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
