#!/usr/bin/env python3
"""No chart of the HTML page is drawn empty, on any bundled sample (issue 23).

Usage: html_every_sample.py NFSSCOPE SAMPLES_DIR OUT_DIR

Writes the page of every samples/*.pcap and *.pcapng, puts their bodies
into one page (one headless Chromium run instead of one per capture) and
reads the DOM the browser built (--dump-dom): every chart drawn has data in
it (a series path of two points or more, a bar, a dot, a mark or a shaded
span), every chart kind left out has a sentence in its place, and the error
chart is left out, with "No error replies in this capture", exactly when
tshark finds no reply with an RPC, NFS or MOUNT error status. Prints, per
capture, the charts drawn and the sentences. Exit 77: no chromium or tshark.
"""
import glob
import html
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from html_reading import chromium, data_marks, dump_dom, fail, figures, tshark_error_replies  # noqa: E402


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    nfsscope, samples, out = sys.argv[1:4]
    exe = chromium()
    if not exe or not shutil.which("tshark"):
        print("SKIP: chromium or tshark not installed (scripts/deps.sh installs them)")
        return 77
    os.makedirs(out, exist_ok=True)
    caps = sorted(glob.glob(os.path.join(samples, "*.pcap")) + glob.glob(os.path.join(samples, "*.pcapng")))
    head, bodies = None, []
    for cap in caps:
        name = os.path.basename(cap)
        page = os.path.join(out, name + ".every.html")
        r = subprocess.run([nfsscope, "-r", cap, "--html", page, "-o", os.devnull, "-q"], capture_output=True, text=True)
        if r.returncode not in (0, 1):
            fail("%s: nfsscope exit %d: %s" % (name, r.returncode, r.stderr))
        src = open(page, encoding="utf-8").read()
        m = re.search(r"^(.*<body>)(.*)</body>", src, re.S)
        head = head or m.group(1)
        bodies.append('<section class="sample" id="sample-%s">%s</section>' % (html.escape(name), m.group(2)))
    every = os.path.abspath(os.path.join(out, "every-sample.html"))
    with open(every, "w", encoding="utf-8") as f:
        f.write(head + "\n".join(bodies) + "</body></html>\n")
    dom = dump_dom(exe, every, os.path.join(out, "chromium-profile-every"))
    parts = re.split(r'<section class="sample" id="sample-([^"]+)">', dom)[1:]
    if len(parts) != 2 * len(caps):
        fail("%d captures, %d pages in the browser's DOM" % (len(caps), len(parts) // 2))
    drawn = 0
    for name, part in zip(parts[0::2], parts[1::2]):
        figs = figures(part)
        for fid, fig in figs.items():
            if not data_marks(fig):
                fail("%s: chart %s drawn with nothing in it (axes alone)" % (name, fid))
        drawn += len(figs)
        omitted = dict(re.findall(r'<p class="nochart" id="([^"]+)">([^<]*)</p>', part))
        errors = tshark_error_replies(os.path.join(samples, html.unescape(name)))
        said = "No error replies in this capture" in omitted.get("errors", "")
        if (errors == 0) != said or (errors > 0) != ("errors" in figs):
            fail("%s: tshark finds %d error replies; the page %s the error chart%s" %
                 (name, errors, "draws" if "errors" in figs else "leaves out", " and says there are none" if said else ""))
        print("%s: %d charts with data (%s); left out: %s; error replies (tshark): %d" %
              (name, len(figs), ", ".join(sorted({re.sub(r"-[0-9a-f]{32}$|-\d+$", "-*", k) for k in figs})),
               "; ".join("%s: %s" % (k, html.unescape(v)) for k, v in sorted(omitted.items())) or "nothing", errors))
    print("PASS: %d captures, %d charts, each with data; every chart left out says why" % (len(caps), drawn))
    return 0


if __name__ == "__main__":
    sys.exit(main())
