#!/usr/bin/env python3
""""Not analysed" says what was lost, the same way in every output.

    not_analysed.py NFSSCOPE SAMPLES_DIR OUTDIR

For each TCP sample, the intact capture and the same capture with frames
1+75, 1+225, ... removed (every 150th; tshark tells how many TCP gaps that
makes: frames flagged tcp.analysis.lost_segment):
- JSON: not_analysed.tcp_gaps equals tshark's count; not_analysed.nothing is
  true exactly when no lost=true cause is non-zero (intact samples: true);
- text (-q): "Not analysed" reads "nothing" exactly when JSON says so, and
  lists "TCP gaps (bytes never captured)" with tshark's count otherwise;
- metrics (--metrics-file): nfsscope_not_analysed_total has one sample per
  JSON key with the JSON value, and promtool accepts the file;
- HTML (--html): the gaps row with the same count, or "nothing";
- a finding a missing frame can raise (SLOT_SEQ_GAP, REPLAY ...) on a
  session whose connections had gaps says capture_gaps > 0 in JSON and
  "possibly caused by capture loss" in text.
Exit 77 without tshark."""
import json
import os
import re
import shutil
import struct
import subprocess
import sys

FAILS = []
LOSS_KINDS = {"SLOT_SEQ_GAP", "REPLAY", "SLOT_ABOVE_GRANTED", "SLOT_TABLE_SHRUNK", "FRAGMENT_LOSS",
              "RTO_INFLATED", "GRACE_STUCK"}


def fail(msg):
    FAILS.append(msg)
    print("FAIL: " + msg)


def drop_every_150th(src, dst):
    with open(src, "rb") as f:
        data = f.read()
    e = "<" if data[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    out, off, i = [data[:24]], 24, 0
    while off + 16 <= len(data):
        cap = struct.unpack(e + "I", data[off + 8:off + 12])[0]
        if i % 150 != 75:
            out.append(data[off:off + 16 + cap])
        off += 16 + cap
        i += 1
    with open(dst, "wb") as f:
        f.write(b"".join(out))


def run(args):
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode not in (0, 3):
        fail("%s: exit %d %s" % (" ".join(args), p.returncode, p.stderr.strip()))
    return p.stdout


def tshark_gaps(path):
    p = subprocess.run(["tshark", "-n", "-r", path, "-Y", "tcp.analysis.lost_segment", "-T", "fields",
                        "-e", "frame.number"], capture_output=True, text=True)
    return len([l for l in p.stdout.splitlines() if l.strip()])


def check(nfsscope, path, outdir, promtool):
    name = os.path.basename(path)
    rep = json.loads(run([nfsscope, "-r", path, "--format", "json"]))
    na = rep["not_analysed"]
    gaps = tshark_gaps(path)
    if na["tcp_gaps"] != gaps:
        fail("%s: JSON tcp_gaps %d, tshark's lost segments %d" % (name, na["tcp_gaps"], gaps))
    text = run([nfsscope, "-r", path, "-q"])
    sect = text.split("\nNot analysed\n", 1)[1] if "\nNot analysed\n" in text else ""
    says_nothing = sect.startswith("  nothing\n")
    if says_nothing != na["nothing"]:
        fail("%s: text says nothing=%s, JSON nothing=%s" % (name, says_nothing, na["nothing"]))
    if gaps:
        if na["nothing"]:
            fail("%s: %d TCP gaps, yet JSON nothing is true" % (name, gaps))
        m = re.search(r"^  TCP gaps \(bytes never captured\) +(\d+)$", sect, re.M)
        if not m or int(m.group(1)) != gaps:
            fail("%s: text gaps line %r, want %d" % (name, m and m.group(0), gaps))
    metrics = os.path.join(outdir, name + ".prom")
    run([nfsscope, "-r", path, "-q", "--metrics-file", metrics])
    with open(metrics) as f:
        prom = f.read()
    for k, v in na.items():
        if isinstance(v, bool) or k == "ip_datagrams_first_fragment_only":
            continue
        fam = "nfsscope_not_analysed_bytes_total" if k.endswith("bytes") else "nfsscope_not_analysed_total"
        m = re.search(r'^%s\{cause="%s",lost="(true|false)"\} (\d+)$' % (fam, k), prom, re.M)
        if not m or int(m.group(2)) != v:
            fail("%s: metrics %s{cause=%s} %s, JSON %d" % (name, fam, k, m and m.group(2), v))
    lost_nonzero = [l for l in prom.splitlines()
                    if l.startswith("nfsscope_not_analysed") and 'lost="true"' in l and not l.endswith(" 0")]
    if bool(lost_nonzero) == na["nothing"]:
        fail("%s: metrics lost causes %s, JSON nothing=%s" % (name, lost_nonzero, na["nothing"]))
    if promtool:
        p = subprocess.run([promtool, "check", "metrics"], input=prom, capture_output=True, text=True)
        if p.returncode != 0:
            fail("%s: promtool: %s" % (name, (p.stdout + p.stderr).strip()))
    html = os.path.join(outdir, name + ".html")
    run([nfsscope, "-r", path, "-q", "--html", html])
    with open(html) as f:
        page = f.read()
    sec = page.split("<h2>Not analysed</h2>", 1)[-1]
    charts = "<tr><th>charts: " in sec  # the page's own chart limits, not the capture's
    if (na["nothing"] and not charts) != ("<tr><td>nothing</td></tr>" in sec):
        fail("%s: HTML 'nothing' row present=%s, JSON nothing=%s" % (name, "<tr><td>nothing" in sec, na["nothing"]))
    if gaps and not re.search(r"TCP gaps \(bytes never captured\)</t[dh]><td[^>]*>%d<" % gaps, sec):
        fail("%s: HTML has no gaps row with %d" % (name, gaps))
    flagged = 0
    for fd in rep["findings"]:
        if fd["kind"] not in LOSS_KINDS or not fd["session"]:
            continue
        sess = [s for s in rep["sessions"] if s["sessionid"] == fd["session"]]
        conns = set(sess[0]["connections"]) if sess else set()
        conns |= set(fd["connections"])
        want = sum(c["gaps"] for c in rep["connections"] if c["id"] in conns)
        if fd["capture_gaps"] != want or fd["capture_loss_possible"] != (want > 0):
            fail("%s: %s capture_gaps %d (possible %s), its session's connections had %d gaps" % (
                name, fd["kind"], fd["capture_gaps"], fd["capture_loss_possible"], want))
        flagged += want > 0
    if flagged and text.count("possibly caused by capture loss") < flagged:
        fail("%s: %d findings on connections with gaps, text marks %d" % (
            name, flagged, text.count("possibly caused by capture loss")))
    print("%-40s gaps %d (tshark %d) nothing=%s findings marked %d" % (name, na["tcp_gaps"], gaps, na["nothing"],
                                                                     flagged))
    return flagged


def main(argv):
    nfsscope, samples, outdir = argv[1:4]
    if not shutil.which("tshark"):
        print("skip: no tshark")
        return 77
    promtool = shutil.which("promtool")
    os.makedirs(outdir, exist_ok=True)
    flagged = 0
    for s in ("nfsv3-tcp", "nfsv40-tcp", "nfsv41-proxy", "nfsv41-restart", "seed-002-slots-64-granted-10",
              "seed-slot-rules"):
        src = os.path.join(samples, s + ".pcap")
        check(nfsscope, src, outdir, promtool)
        dst = os.path.join(outdir, s + ".drop150.pcap")
        drop_every_150th(src, dst)
        flagged += check(nfsscope, dst, outdir, promtool)
    if not flagged:
        fail("no finding on a connection with gaps: the capture-loss mark was never exercised")
    print("%d problem%s" % (len(FAILS), "" if len(FAILS) == 1 else "s"))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
