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
  - no chart is drawn empty (axes with nothing in them): a chart kind with
    nothing to show on the capture is left out, and a sentence in its place
    says why; the error chart is left out exactly when tshark finds no error
    reply ("No error replies in this capture");
  - units: the operations table is in the text report's unit with its
    figures (not "15002700.0" microseconds where the text says ms); counts
    over time are per an interval named in µs, ms or s ("per 512 µs", not
    "per 0.000512 s") with whole-number ticks.

Exit 77: no chromium.
"""
import html
import json
import math
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


def data_marks(fig):
    """What a chart draws from data: series paths of two points or more, bars, dots, marks, spans."""
    paths = [d for d in re.findall(r'<path class="series[^"]*"[^>]* d="([^"]+)"', fig)
             if len(re.findall(r"[MLHV]", d)) >= 2]
    return len(paths) + sum(len(re.findall(r'<%s class="%s' % k, fig))
                            for k in (("rect", "bar"), ("rect", "band"), ("circle", "dot"), ("line", "mark")))


# Replies whose RPC or NFS/MOUNT status is not success, as tshark dissects them.
ERROR_REPLIES = ("rpc.msgtyp == 1 && (rpc.replystat > 0 || rpc.state_accept > 0 || nfs.status2 > 0"
                 " || nfs.status3 > 0 || nfs.nfsstat4 > 0 || mount.status > 0)")


def tshark_error_replies(capture):
    if not shutil.which("tshark"):
        return None
    r = subprocess.run(["tshark", "-r", capture, "-Y", ERROR_REPLIES, "-T", "fields", "-e", "frame.number"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        fail("tshark: %s" % r.stderr[-300:])
    return len(r.stdout.split())


def check_no_empty_chart(dom, figs, capture):
    """Nothing but axes is never a chart: left out, with a sentence that says why."""
    for fid, fig in figs.items():
        if not data_marks(fig):
            fail("%s: a chart drawn with nothing in it (axes alone)" % fid)
    omitted = dict(re.findall(r'<p class="nochart" id="([^"]+)">([^<]*)</p>', dom))
    for fid, why in omitted.items():
        if fid in figs or len(why) < 10:
            fail("%s: left out without a sentence, or both left out and drawn" % fid)
    errors = tshark_error_replies(capture)
    if errors is not None:
        said = "No error replies in this capture" in omitted.get("errors", "")
        if (errors == 0) != said or (errors > 0) != ("errors" in figs):
            fail("tshark finds %d error replies; the page %s the error chart%s" %
                 (errors, "draws" if "errors" in figs else "leaves out",
                  ", saying so" if said else ", without saying there are none" if not errors else ""))
    print("charts left out: %s; error replies (tshark): %s" %
          ("; ".join("%s (%s)" % (k, html.unescape(v)) for k, v in sorted(omitted.items())) or "none", errors))


def check_texts(texts):
    """No text of a chart leaves it or lies on another (ticks aside)."""
    for t in texts:
        if t.get("off"):
            fail("%s: %r runs off the chart" % (t["fig"], t["text"]))
        fail("%s: %r lies on %r" % (t["fig"], t["text"], t["meets"]))
    print("chart texts: none off its chart, none on another")


def points(fig):
    """(x, y) of every point drawn from data: series path vertices, dots and rings."""
    out = []
    for d in re.findall(r'<path class="series[^"]*"[^>]* d="([^"]+)"', fig):
        x = y = None
        for cmd, a, b in re.findall(r"([MLHV])\s*([-\d.]+)(?:\s+([-\d.]+))?", d):
            if cmd in "ML":
                x, y = float(a), float(b)
            elif cmd == "H":
                x = float(a)
                continue  # the vertex comes with the V that follows
            else:
                y = float(a)
            out.append((x, y))
    out += [(float(x), float(y)) for x, y in re.findall(r'<circle class="dot[^"]*" cx="([\d.]+)" cy="([\d.]+)"', fig)]
    return out


def y_axis(fig):
    """The y axis as its tick labels give it: value at a pixel (log or linear)."""
    ticks = sorted((float(y) + -4, float(v)) for y, v in
                   re.findall(r'<text class="tick" x="66" y="([\d.]+)" text-anchor="end">([-\d.e+]+)</text>', fig))
    (ya, va), (yb, vb) = ticks[-1], ticks[0]  # bottom, top
    if "log scale" in fig.split('<text class="axis"', 2)[-1]:
        return lambda py: 10 ** (math.log10(va) + (py - ya) * (math.log10(vb) - math.log10(va)) / (yb - ya)), va, vb
    return lambda py: va + (py - ya) * (vb - va) / (yb - ya), va, vb


def check_legends_and_range(figs):
    """Legends list what is drawn; no value is pinned to an axis's edge
    silently: one beyond the axis is a triangle on the edge, with its value,
    and the caption counts them."""
    entries = marked = 0
    for fid, fig in figs.items():
        drawn = set()
        for tag in re.findall(r'<(?:path class="(?:series|clipped)|rect class="(?:bar|band)|circle class="dot|line class="mark)[^>]*>', fig):
            drawn.update(v for v in (attr(tag, "stroke"), attr(tag, "fill")) if v)
        for col, label in re.findall(r'<g class="legend"><line [^>]*stroke="([^"]+)"[^>]*>(?:</line>)?<text[^>]*>([^<]*)</text>', fig):
            entries += 1
            if col not in drawn:
                fail("%s: the legend lists %r, nothing of it is drawn" % (fid, html.unescape(label)))
        plot = re.search(r'<rect class="plot" x="(\d+)" y="(\d+)" width="(\d+)" height="(\d+)"', fig)
        if not plot or fid.startswith(("conns-", "read-plus", "findings-timeline")):
            continue  # categories on y
        top, bottom = float(plot.group(2)), float(plot.group(2)) + float(plot.group(4))
        log = "log scale" in fig.split('<text class="axis"', 2)[-1]
        # triangles: tip on the edge, the value on hover beyond the axis
        value_at, lo, hi = y_axis(fig)
        tips = []
        for cls, d, title in re.findall(r'<path class="clipped (above|below)"[^>]* d="M[\d.]+ [\d.]+ L([\d.]+ [\d.]+)[^"]*"[^>]*><title>([^<]*)</title>', fig):
            x, y = (float(v) for v in d.split())
            v = float(html.unescape(title).split()[0].replace(",", ""))
            if abs(y - (top if cls == "above" else bottom)) > 0.05 or (v <= hi if cls == "above" else v >= lo and v > 0):
                fail("%s: a triangle %s the axis (%g..%g) at y %g for %r" % (fid, cls, lo, hi, y, title))
            tips.append((x, cls))
        cap = re.search(r"<figcaption>([^<]*)</figcaption>", fig)
        cap = html.unescape(cap.group(1)) if cap else ""
        for side, words in (("above", "above the axis's top"), ("below", "below the")):
            n = sum(1 for _, c in tips if c == side)
            m = re.search(r"(\d+) points? (?:of 0 \S+, )?%s" % words, cap)
            if n and (not m or int(m.group(1)) < n):
                fail("%s: %d triangles %s the axis, the caption says %r" % (fid, n, side, cap))
        marked += len(tips)
        # a point on the top edge, or on a log axis's bottom, stands for a value beyond it: marked there
        for x, y in points(fig):
            edge = "above" if abs(y - top) < 0.05 else "below" if log and abs(y - bottom) < 0.05 else None
            if edge and "latency-hist" not in fid and not any(abs(x - tx) < 1 and c == edge for tx, c in tips):
                fail("%s: a value drawn on the axis's edge at x %g, y %g (%s it) with no mark" % (fid, x, y, edge))
    print("legends: %d entries, each drawn; values beyond an axis: %d, each marked on its edge and counted" % (entries, marked))


def check_latency_reach(dom, figs):
    """Each operation's latency line reaches its slowest replies: its highest
    point is at least the operations table's p99 (within the bins' 20%, and
    never past its max): a 31 s READ is not drawn at 14 s."""
    lat = figs.get("latency")
    m = re.search(r"<p>Latency in ([^;<]+)[;<].*?</table>", dom, re.S)
    if not lat or not m:
        return
    scale = {"\u00b5s": 1e-3, "ms": 1, "s": 1e3}[m.group(1)]
    table = {tr[0]: re.findall(r"<td[^>]*>([^<]*)</td>", tr[1])[-5:]
             for tr in re.findall(r"<tr><td>([^<]+)</td>(.*?)</tr>", m.group(0))}
    value_at, _, _ = y_axis(lat)
    checked = []
    for col, label in re.findall(r'<g class="legend"><line [^>]*stroke="([^"]+)"[^>]*>(?:</line>)?<text[^>]*>([^<]*)</text>', lat):
        op = html.unescape(label).split()[0]
        if op not in table or table[op][3] == "-":
            continue
        ys = [float(y) for tag in re.findall(r'<path class="series p(?:50|99)"[^>]*>', lat) if attr(tag, "stroke") == col
              for _, y in points(tag)]
        ys += [float(y) for tag in re.findall(r'<circle class="dot[^"]*"[^>]*>', lat)
               if col in (attr(tag, "fill"), attr(tag, "stroke")) for y in [attr(tag, "cy")]]
        if not ys:
            continue
        high = value_at(min(ys))
        p99, mx = float(table[op][3]) * scale, float(table[op][4]) * scale
        if not (p99 / 1.5 <= high <= mx * 1.5):
            fail("latency: %s drawn up to %.4g ms, its p99 is %.4g ms and max %.4g ms (operations table)" % (op, high, p99, mx))
        checked.append("%s %.4g ms (p99 %.4g)" % (op, high, p99))
    print("latency lines reach their p99: %s" % "; ".join(checked))


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
    check_no_empty_chart(dom, figs, capture)
    check_equal_lines(figs)
    boxes = probe(exe, page, profile)
    check_band_labels(boxes["bands"])
    check_texts(boxes["texts"])
    check_legends_and_range(figs)
    check_latency_reach(dom, figs)
    check_units(dom, figs, nfsscope, capture)
    print("PASS: %s" % name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
