#!/usr/bin/env python3
"""The HTML post-mortem page in a real browser (issue 13).

Usage: html_page.py NFSSCOPE SAMPLES_DIR SAMPLE OUT_DIR [SCREENSHOT.png]

Writes the page of SAMPLE twice (byte-identical: no wall clock), checks it
is self-contained, opens it in headless Chromium (--dump-dom: the DOM as the
browser built it) and checks what a reader needs is there: every chart has
data drawn, the session ids tshark sees, the finding kinds the hand-derived
samples/*.findings.json (or samples/README.md) lists, each finding linked to
a chart that exists, and per-sample figures from those same sources.
Takes a screenshot (kept when a path is given). Exit 77: no chromium or
tshark (CI installs both with scripts/deps.sh).
"""
import html
import json
import os
import re
import shutil
import subprocess
import sys

# Hand-derived expectations that samples/*.findings.json does not hold
# (samples/README.md, "nfsv3-udp-loss5.pcap"): 8 resent calls, the READ sent
# 6 times (5 resends > --udp-retrans 3: at least one major timeout),
# FRAGMENT_LOSS and RTO_INFLATED.
README_FACTS = {
    "nfsv3-udp-loss5": {"kinds": ["FRAGMENT_LOSS", "RTO_INFLATED"], "resends": 8},
}


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def browser(exe, args, timeout=90):
    cmd = [exe, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
           "--user-data-dir=" + os.environ["HTML_TEST_PROFILE"]] + args
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        fail("chromium %s: exit %d: %s" % (" ".join(args[:1]), r.returncode, r.stderr[-500:]))
    return r.stdout


def tshark_sessions(pcap):
    r = subprocess.run(["tshark", "-r", pcap, "-T", "fields", "-e", "nfs.session_id4"],
                       capture_output=True, text=True, check=True)
    ids = set()
    for line in r.stdout.split():
        for x in line.split(","):
            if x:
                ids.add(x.replace(":", "").lower())
    return ids


def tshark_resends(pcap):
    r = subprocess.run(["tshark", "-r", pcap, "-Y", "rpc.call.dup", "-T", "fields", "-e", "frame.number"],
                       capture_output=True, text=True, check=True)
    return len(r.stdout.split())


def figures(dom):
    """id -> inner markup of each chart figure."""
    out = {}
    for m in re.finditer(r'<figure class="chart" id="([^"]+)">(.*?)</figure>', dom, re.S):
        out[m.group(1)] = m.group(2)
    return out


def data_marks(fig):
    """Drawn data: series paths with at least two points, bars, dots, marks."""
    paths = [d for d in re.findall(r'<path class="series[^"]*"[^>]* d="([^"]+)"', fig)
             if len(re.findall(r"[MLHV]", d)) >= 2]
    return {
        "paths": len(paths),
        "bars": len(re.findall(r'<rect class="bar"', fig)),
        "dots": len(re.findall(r'<circle class="dot"', fig)),
        "marks": len(re.findall(r'<line class="mark"', fig)),
    }


def main():
    if len(sys.argv) < 5:
        print(__doc__)
        return 2
    nfsscope, samples, sample, out = sys.argv[1:5]
    shot = sys.argv[5] if len(sys.argv) > 5 else None
    exe = chromium()
    if not exe or not shutil.which("tshark"):
        print("SKIP: chromium or tshark not installed (scripts/deps.sh installs them)")
        return 77
    os.makedirs(out, exist_ok=True)
    os.environ["HTML_TEST_PROFILE"] = os.path.join(out, "chromium-profile-" + sample)
    pcap = os.path.join(samples, sample + ".pcap")
    pages = []
    for run in (1, 2):
        page = os.path.join(out, "%s.%d.html" % (sample, run))
        r = subprocess.run([nfsscope, "-r", pcap, "--html", page, "-o", os.devnull], capture_output=True, text=True)
        if r.returncode != 0:
            fail("nfsscope exit %d: %s" % (r.returncode, r.stderr))
        pages.append(open(page, "rb").read())
    if pages[0] != pages[1]:
        fail("two runs on the same capture wrote different pages")
    src = pages[0].decode("utf-8")
    if len(src) > 4 << 20:
        fail("page of %d bytes" % len(src))
    # Self-contained: nothing fetched when opened (the SVG namespace is a name, not a fetch).
    ext = re.findall(r'(?:src|href)\s*=\s*"(?!#)[^"]*"|@import|url\(|<script|<link', src)
    if ext:
        fail("page refers outside itself: %s" % ext[:3])

    page = os.path.abspath(os.path.join(out, sample + ".1.html"))
    dom = browser(exe, ["--dump-dom", "file://" + page])
    if "<svg" not in dom or "nfsscope post-mortem" not in dom:
        fail("the browser's DOM has no page: %r" % dom[:200])
    text = html.unescape(re.sub(r"<[^>]+>", " ", dom))
    figs = figures(dom)
    print("charts:", ", ".join(sorted(figs)))

    # Every chart that is drawn has data in it (the page leaves out charts it
    # has nothing for, the error chart of a capture without error replies too).
    for fid, fig in figs.items():
        m = data_marks(fig)
        if not any(m.values()):
            fail("chart %s drawn without data: %s" % (fid, m))
        if "<text class=\"axis\"" not in fig or "class=\"legend\"" not in fig and fid != "findings-timeline":
            fail("chart %s lacks axes or legend" % fid)

    expected_kinds, sessions_json = [], []
    fj = os.path.join(samples, sample + ".findings.json")
    if os.path.exists(fj):
        d = json.load(open(fj))
        expected_kinds = [f["kind"] for f in d["findings"]]
        sessions_json = d.get("sessions", [])
    facts = README_FACTS.get(sample, {})
    expected_kinds += facts.get("kinds", [])
    if not expected_kinds:
        fail("no expected finding kinds for %s" % sample)
    for k in sorted(set(expected_kinds)):
        if not re.search(r'<span class="kind">%s</span>' % re.escape(k), dom):
            fail("finding kind %s not on the page" % k)
    print("finding kinds on the page:", ", ".join(sorted(set(expected_kinds))))

    # Every finding links to a chart on the page, and lists its example frames.
    links = re.findall(r'<div class="finding[^"]*" id="finding-\d+">.*?<a href="#([^"]+)">chart</a>', dom, re.S)
    if len(links) < len(set(expected_kinds)):
        fail("%d findings linked to charts, expected at least %d" % (len(links), len(set(expected_kinds))))
    for target in links:
        if target not in figs:
            fail("a finding links to #%s, which is not a chart on the page" % target)
    if "example frames" not in text:
        fail("no example frames listed")

    sids = tshark_sessions(pcap)
    for sid in sorted(sids):
        if sid not in dom:
            fail("session %s (tshark) not on the page" % sid)
        chart = figs.get("session-" + sid)
        if chart is None or data_marks(chart)["paths"] < 2:
            fail("session %s has no outstanding/granted chart with data" % sid)
    print("sessions (tshark) on the page with their slot charts:", ", ".join(sorted(sids)) or "none")

    for s in sessions_json:
        sid = s["sessionid"]
        fc = s["fore_channel"]
        want = "Asked for %d slots, granted %d now" % (fc["requested_max_requests"], fc["granted_max_requests"])
        if want not in text:
            fail("session %s: %r not under its chart" % (sid, want))
        conns = figs.get("conns-" + sid)
        if conns is None or data_marks(conns)["bars"] != 2 * len(s["connections"]):
            fail("session %s: expected a calls bar and a bytes bar per connection (%d)" % (sid, len(s["connections"])))
        for c in s["connections"]:
            if ">%s</text>" % c not in conns:
                fail("session %s: connection %s not labelled in its share chart" % (sid, c))

    if "resends" in facts:
        want = facts["resends"]
        got_tshark = tshark_resends(pcap)
        if got_tshark != want:
            fail("tshark counts %d resent calls, samples/README.md says %d" % (got_tshark, want))
        drawn = 0
        majors = 0
        for fid, fig in figs.items():
            if fid.startswith("udp-"):
                drawn += sum(int(n) for n in re.findall(r"<title>(\d+) retransmission\(s\)", fig))
                majors += sum(int(n) for n in re.findall(r"<title>(\d+) major timeout\(s\)", fig))
                if data_marks(fig)["dots"] == 0:
                    fail("%s: no RTT samples drawn" % fid)
        if drawn != want:
            fail("UDP charts mark %d retransmissions, tshark counts %d" % (drawn, want))
        if majors < 1:
            fail("no major timeout marked (a READ was sent 6 times with retrans 3)")
        print("UDP: %d retransmissions marked (tshark: %d), %d major timeouts" % (drawn, got_tshark, majors))

    png = shot or os.path.join(out, sample + ".png")
    if os.path.exists(png):
        os.remove(png)
    browser(exe, ["--hide-scrollbars", "--window-size=1100,2600", "--screenshot=" + os.path.abspath(png),
                  "file://" + page])
    data = open(png, "rb").read()
    if not data.startswith(b"\x89PNG") or len(data) < 20000:
        fail("screenshot %s missing or blank (%d bytes)" % (png, len(data)))
    print("PASS: %s (%d bytes page, %d charts, screenshot %s)" % (sample, len(src), len(figs), png))
    return 0


if __name__ == "__main__":
    sys.exit(main())
