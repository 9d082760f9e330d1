#!/usr/bin/env python3
"""The HTML page's charts read as a person reads them (issue 23).

Usage: html_reading.py NFSSCOPE CAPTURE OUT_DIR

Writes the page of CAPTURE, opens it in headless Chromium and checks what
a reader sees, from the DOM the browser built (--dump-dom) and, for text
laid out on the charts, from the sizes the browser gave it (a copy of the
page with a probe script that writes getBBox() of every label into the DOM):

  - lines of equal values do not hide one another: a later line drawn on an
    earlier one with the same points is narrower, a dot on an equal one
    smaller (latency over time, the latency histogram); every p99 point is
    drawn as every p50 point is (a lone interval as a ring); every y axis has
    at least three ticks;
  - the labels of shaded spans (storms, a session's findings) overlap no
    other label, stay inside the plot, and no line, bar or mark is drawn over
    them (the slot limit line struck through them); no text of a chart runs
    off it or lies on another (the browser's getBoundingClientRect());
  - every legend entry is drawn (its colour on a series, bar, dot, mark or
    span of the chart), and no value is pinned to the edge of a log axis
    (a value beyond the axis is drawn on its edge);
  - units: the operations table is in the text report's unit with its
    figures (not "15002700.0" microseconds where the text says ms); counts
    over time are per an interval named in µs, ms or s ("per 512 µs", not
    "per 0.000512 s") with whole-number ticks.

Exit 77: no chromium.
"""
import html
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
        dots = {}
        for cx, cy, r in re.findall(r'<circle class="dot" cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"', fig):
            if (cx, cy) in dots and not float(r) < dots[(cx, cy)]:
                fail("%s: a dot drawn over an equal one as large (r %s), hiding it" % (fid, r))
            dots[(cx, cy)] = float(r)
    lat = figs.get("latency", "")
    legend = re.findall(r'<g class="legend">.*?<text[^>]*>([^<]*)</text>', lat)
    p50 = [attr(t, "d") for t in re.findall(r'<path class="series p50"[^>]*>', lat)]
    # p99 exists wherever p50 does: as many points of each drawn (lines and lone dots or rings)
    def points(cls, dot):
        n = sum(len(re.findall(r"[ML]", attr(t, "d"))) for t in re.findall(r'<path class="series %s"[^>]*>' % cls, lat))
        return n + len(re.findall(r'<circle class="%s"' % dot, lat))
    if points("p50", "dot") != points("p99", "dot ring"):
        fail("latency: %d p50 points drawn, %d p99 points" % (points("p50", "dot"), points("p99", "dot ring")))
    print("equal lines: %d of %d latency p50 paths repeat an earlier one; legend: %s" %
          (len(p50) - len(set(p50)), len(p50), "; ".join(legend)))


def check_texts(texts):
    """No text of a chart leaves it or lies on another (ticks aside)."""
    for t in texts:
        if t.get("off"):
            fail("%s: %r runs off the chart" % (t["fig"], t["text"]))
        fail("%s: %r lies on %r" % (t["fig"], t["text"], t["meets"]))
    print("chart texts: none off its chart, none on another")


def check_legends_and_range(figs):
    """Legends list what is drawn; log axes hold their values."""
    entries = 0
    for fid, fig in figs.items():
        drawn = set()
        for tag in re.findall(r'<(?:path class="series|rect class="(?:bar|band)|circle class="dot|line class="mark)[^>]*>', fig):
            drawn.update(v for v in (attr(tag, "stroke"), attr(tag, "fill")) if v)
        for col, label in re.findall(r'<g class="legend"><line [^>]*stroke="([^"]+)"[^>]*>(?:</line>)?<text[^>]*>([^<]*)</text>', fig):
            entries += 1
            if col not in drawn:
                fail("%s: the legend lists %r, nothing of it is drawn" % (fid, html.unescape(label)))
        if "log scale" not in fig:
            continue
        plot = re.search(r'<rect class="plot" x="(\d+)" y="(\d+)" width="(\d+)" height="(\d+)"', fig)
        top, bottom = float(plot.group(2)), float(plot.group(2)) + float(plot.group(4))
        ys = [float(v) for d in re.findall(r'<path class="series[^"]*"[^>]* d="([^"]+)"', fig)
              for v in re.findall(r'(?:[ML][\d.]+ |V)([\d.]+)', d)]
        ys += [float(v) for v in re.findall(r'<circle class="dot" cx="[\d.]+" cy="([\d.]+)"', fig)]
        if "latency-hist" not in fid:  # the histogram's outlines go down to 0 replies
            pinned = [y for y in ys if abs(y - top) < 0.05 or abs(y - bottom) < 0.05]
            if pinned:
                fail("%s: %d values drawn on the edge of the log axis (beyond it)" % (fid, len(pinned)))
    print("legends: %d entries, each drawn; no value beyond a log axis" % entries)


def text_ops(nfsscope, capture):
    """The text report's Operations table: unit, {operation: [mean p50 p95 p99 max]}."""
    r = subprocess.run([nfsscope, "-r", capture], capture_output=True, text=True)
    lines = r.stdout.split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("Operations"))
    head = lines[start + 1].split()
    unit = head[head.index("mean") + 1]
    rows = {}
    for l in lines[start + 2:]:
        if not l.strip():
            break
        f = l.split()
        rows[f[0]] = f[-5:]
    return unit, rows


def check_units(dom, figs, nfsscope, capture):
    """Units a person reads: the text report's in the table, whole counts per named interval."""
    unit, rows = text_ops(nfsscope, capture)
    m = re.search(r"<p>Latency in ([^;<]+)[;<].*?</table>", dom, re.S)
    if not m:
        fail("no operations table")
    want = {"us": "\u00b5s"}.get(unit, unit)
    if m.group(1) != want:
        fail("operations table in %s, the text report in %s" % (m.group(1), unit))
    for tr in re.findall(r"<tr><td>([^<]+)</td>(.*?)</tr>", m.group(0)):
        cells = re.findall(r"<td[^>]*>([^<]*)</td>", tr[1])[-5:]
        if tr[0] in rows and cells != rows[tr[0]] and rows[tr[0]] != ["-"] * 5:
            fail("%s: the page prints %s, the text report %s (%s)" % (tr[0], cells, rows[tr[0]], unit))
    print("operations table: in %s, the text report's figures (%d operations)" % (m.group(1), len(rows)))
    for fid, fig in figs.items():
        labels = [html.unescape(t) for t in re.findall(r'<text class="axis"[^>]*>([^<]*)</text>', fig)]
        for t in labels:
            per = re.search(r"per ([\d.]+) (\S+)", t)
            if per and (float(per.group(1)) < 1 or per.group(2) not in ("\u00b5s", "ms", "s")):
                fail("%s: %r: an interval of %s %s" % (fid, t, per.group(1), per.group(2)))
        if fid == "errors" or fid == "latency-hist" or fid.startswith("session-"):
            ticks = re.findall(r'<text class="tick" x="66" y="[\d.]+" text-anchor="end">([^<]*)</text>', fig)
            frac = [t for t in ticks if "." in t]
            if frac:
                fail("%s: counts with fractional ticks %s" % (fid, frac))
    print("intervals: %s" % "; ".join(sorted({t for t in re.findall(r'per [\d.]+ [^\s<]+', dom)})))


# Run in a copy of the page only (the page itself has no script): the boxes
# the browser laid out, written into the DOM for --dump-dom.
PROBE = r"""<script>
function box(e){var b=e.getBBox();return [b.x,b.y,b.x+b.width,b.y+b.height];}
function meets(a,b){return a[0]<b[2]&&b[0]<a[2]&&a[1]<=b[3]&&b[1]<=a[3];}
var out=[];
document.querySelectorAll('figure.chart').forEach(function(fig){
  var plot=fig.querySelector('rect.plot'); if(!plot) return;
  var P=box(plot), labels=[].slice.call(fig.querySelectorAll('text.bandlabel'));
  var drawn=[].slice.call(fig.querySelectorAll('path.series,line.mark,rect.bar,circle.dot'));
  labels.forEach(function(l,i){
    var L=box(l), r={fig:fig.id,text:l.textContent,box:L,overlaps:[],under:[]};
    if(L[0]<P[0]-1||L[2]>P[2]+1&&L[0]<P[2]) r.outside=true;
    labels.forEach(function(m,j){if(j!=i&&meets(L,box(m))) r.overlaps.push(m.textContent);});
    drawn.forEach(function(d){
      if(l.compareDocumentPosition(d)&Node.DOCUMENT_POSITION_FOLLOWING&&meets(L,box(d))) r.under.push(d.getAttribute('class'));
    });
    out.push(r);
  });
});
function rc(e){var b=e.getBoundingClientRect();return [b.left,b.top,b.right,b.bottom];}
var texts=[];
document.querySelectorAll('figure.chart svg').forEach(function(svg){
  var S=rc(svg), t=[].slice.call(svg.querySelectorAll('text')).filter(function(e){return e.textContent.trim();});
  t.forEach(function(a,i){var A=rc(a);
    if(A[0]<S[0]-0.5||A[2]>S[2]+0.5) texts.push({fig:svg.parentNode.id,text:a.textContent,off:true});
    for(var j=i+1;j<t.length;j++){var B=rc(t[j]);
      /* the two axes' first ticks share the corner: their boxes touch */
      if(a.getAttribute('class')=='tick'&&t[j].getAttribute('class')=='tick') continue;
      if(A[0]<B[2]-0.5&&B[0]<A[2]-0.5&&A[1]<B[3]-0.5&&B[1]<A[3]-0.5) texts.push({fig:svg.parentNode.id,text:a.textContent,meets:t[j].textContent});}
  });
});
out={bands:out,texts:texts};
var pre=document.createElement('pre');pre.id='probe';pre.textContent=JSON.stringify(out);document.body.appendChild(pre);
</script>"""


def probe(exe, page, profile):
    src = open(page, encoding="utf-8").read()
    copy = page[:-5] + ".probe.html"
    open(copy, "w", encoding="utf-8").write(src.replace("</body>", PROBE + "</body>"))
    m = re.search(r'<pre id="probe">(.*?)</pre>', dump_dom(exe, copy, profile), re.S)
    if not m:
        fail("the probe script wrote nothing")
    return json.loads(html.unescape(m.group(1)))


def check_band_labels(labels):
    """Span labels readable: apart, inside the plot, on top."""
    for r in labels:
        where = "%s: label %r" % (r["fig"], r["text"])
        if r["overlaps"]:
            fail("%s overlaps %s" % (where, r["overlaps"]))
        if r.get("outside"):
            fail("%s lies outside the plot (%s)" % (where, r["box"]))
        if r["under"]:
            fail("%s has drawn over it: %s" % (where, sorted(set(r["under"]))))
    print("span labels: %d, apart, inside their plots, nothing drawn over them" % len(labels))


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
    dom = dump_dom(exe, page, profile)
    figs = figures(dom)
    if not figs:
        fail("no chart in the browser's DOM")
    print("charts:", ", ".join(sorted(figs)))
    check_equal_lines(figs)
    boxes = probe(exe, page, profile)
    check_band_labels(boxes["bands"])
    check_texts(boxes["texts"])
    check_legends_and_range(figs)
    check_units(dom, figs, nfsscope, capture)
    print("PASS: %s" % name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
