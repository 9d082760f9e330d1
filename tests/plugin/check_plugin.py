#!/usr/bin/python3
"""The Wireshark plugin inside tshark, against `nfsscope -r` on one capture.

    check_plugin.py NFSSCOPE PLUGIN_SO CAPTURE [--preload LIB]

tshark ignores plugin folders when run as root (uid or gid 0), so as root
this runs tshark as `nobody` (runuser), with a HOME, the plugin and a copy
of the capture in a private directory that user can read; as anyone else it
runs tshark directly. --preload puts LIB in LD_PRELOAD (libasan, for the
sanitizer build of the plugin) and makes any sanitizer report fatal.

Checks, each against `NFSSCOPE -r CAPTURE --format json` / the text report:
  loaded     tshark lists the nfsscope fields (the plugin loaded)
  sessions   the session ids on frames (nfsscope.session, tshark -2) are
             the report's sessions[].sessionid
  kinds      the finding kinds on frames (nfsscope.finding, -2) are the
             report's finding kinds (those that list frames; findings
             raised at the end of the capture arrive on the second pass)
  frames     every frame a finding lists carries its kind (-2)
  passes     single-pass output equals -2 output frame by frame, except
             that a single pass may not yet show what is decided later (a
             finding raised later, a later verdict: nfsscope.amend; on a
             frame cut by the snaplen, a message it starts), see
             doc/wireshark-plugin.md; what it shows -2 shows too
  expert     every finding kind on frames is in `tshark -2 -z expert`, and
             each frame carrying a kind has an expert item for it
  stats      -z nfsscope,findings and -z nfsscope,sessions print exactly
             the report's Findings and Sessions sections (so they name
             every finding), single pass and -2
Exit 0 all match, 1 a difference (printed), 2 a tool failed, 77 no tshark.
"""
import json
import os
import shutil
import subprocess
import sys

from tshark_user import Tshark, take_preload

FIELDS = ["frame.number", "nfsscope.conn", "nfsscope.txn", "nfsscope.event", "nfsscope.session",
          "nfsscope.bind", "nfsscope.slot", "nfsscope.slot.seqid", "nfsscope.slot.expected",
          "nfsscope.slot.verdict", "nfsscope.slot.outstanding", "nfsscope.slot.granted",
          "nfsscope.udp.sends", "nfsscope.udp.rtt", "nfsscope.udp.rto", "nfsscope.amend",
          "nfsscope.finding", "_ws.expert.message", "frame.cap_len", "frame.len"]
CAPLEN = FIELDS.index("frame.cap_len")
FINDING = FIELDS.index("nfsscope.finding")
AMEND = FIELDS.index("nfsscope.amend")
EXPERT = FIELDS.index("_ws.expert.message")
SESSION = FIELDS.index("nfsscope.session")

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def fields(ts, two_pass):
        """Frame number -> field values (several occurrences joined by US),
        and what the statistics printed after the frames."""
        args = ["-r", ts.capture, "-T", "fields", "-E", "separator=\t", "-E", "occurrence=a",
                "-E", "aggregator=\x1f", "-z", "nfsscope,findings", "-z", "nfsscope,sessions"]
        if two_pass:
            args += ["-2", "-z", "expert"]
        for f in FIELDS:
            args += ["-e", f]
        rows = {}
        lines = ts.run(args).split("\n")
        for i, line in enumerate(lines):
            if not line or line.startswith("====="):  # the statistics (a rule, or -z expert's blank line)
                return rows, "\n".join(lines[i:])
            cols = line.split("\t")
            if len(cols) != len(FIELDS):
                print("bad tshark line: %r" % line)
                sys.exit(2)
            rows[int(cols[0])] = cols
        return rows, ""



def kinds_of(row):
    return set(k for k in row[FINDING].split("\x1f") if k)


def cut_by_snaplen(row):
    """A frame cut by the snapshot length: an RPC message whose header it
    carries is its frame (as tshark decodes it there) but is known only when
    the message's last, uncaptured, byte has gone by, in a later frame; a
    single pass may not show it yet (doc/wireshark-plugin.md)."""
    return row[CAPLEN] != "" and row[CAPLEN + 1] != "" and int(row[CAPLEN]) < int(row[CAPLEN + 1])


def later(col):
    return set(v for v in col.split("\x1f") if v)


def section(text, title):
    """The lines of one report section: from its heading to the next blank line."""
    lines = text.splitlines()
    for i, l in enumerate(lines):
        if l == title or l.startswith(title + " ("):
            out = []
            for m in lines[i:]:
                if not m.strip() or m.startswith("====="):
                    break
                out.append(m)
            return out
    return None


def check_stats(label, stat_out, report_text, title, required):
    want = section(report_text, title)
    got = section(stat_out, title)
    if want is None and not required:
        return
    if got != want:
        fail("%s: -z %s differs from the report's section\n  report: %r\n  tshark: %r" %
             (label, title, want, got))


def main():
    args = sys.argv[1:]
    preload = take_preload(args)
    if len(args) != 3:
        print(__doc__)
        return 2
    nfsscope, plugin_so, capture = args
    if not shutil.which("tshark"):
        print("no tshark")
        return 77
    rep = subprocess.run([nfsscope, "-r", capture, "--format", "json"], capture_output=True, text=True)
    txt = subprocess.run([nfsscope, "-r", capture], capture_output=True, text=True)
    if rep.returncode not in (0, 3) or not rep.stdout:
        print("nfsscope failed: " + rep.stderr)
        return 2
    report = json.loads(rep.stdout)
    ts = Tshark(plugin_so, capture, preload)
    try:
        # (tshark refuses an unknown field: the plugin did not load)
        one, stats1 = fields(ts, False)
        two, stats2 = fields(ts, True)
    finally:
        ts.close()

    name = os.path.basename(capture)
    # sessions
    want_sessions = sorted(s["sessionid"] for s in report.get("sessions", []))
    got_sessions = sorted(set(r[SESSION] for r in two.values() if r[SESSION]))
    if want_sessions != got_sessions:
        fail("%s: sessions on frames %s, report %s" % (name, got_sessions, want_sessions))
    # kinds and frames
    findings = report.get("findings", [])
    on_frames = set()
    for r in two.values():
        on_frames |= kinds_of(r)
    with_frames = set(f["kind"] for f in findings if f["frames"])
    all_kinds = set(f["kind"] for f in findings)
    if on_frames - all_kinds:
        fail("%s: kinds on frames not in the report: %s" % (name, sorted(on_frames - all_kinds)))
    if with_frames - on_frames:
        fail("%s: report's kinds never on a frame: %s" % (name, sorted(with_frames - on_frames)))
    for f in findings:
        for n in f["frames"]:
            if n not in two or f["kind"] not in kinds_of(two[n]):
                fail("%s: frame %d is listed by %s but does not carry it" % (name, n, f["kind"]))
    # passes
    if sorted(one) != sorted(two):
        fail("%s: single pass and -2 print different frames" % name)
    diffs = 0
    for n in sorted(set(one) & set(two)):
        a, b = one[n], two[n]
        if cut_by_snaplen(a) and all(later(x) <= later(y) for x, y in zip(a[1:AMEND], b[1:AMEND])):
            a = b[:AMEND] + a[AMEND:]  # a message the snaplen cut: known when its last byte went by
        if a[:AMEND] != b[:AMEND] or not kinds_of(a) <= kinds_of(b) or not later(a[AMEND]) <= later(b[AMEND]):
            diffs += 1
            if diffs <= 5:
                fail("%s: frame %d single pass %r, -2 %r" % (name, n, a, b))
    # expert info
    for k in on_frames:
        if (" " + k + ": ") not in stats2:
            fail("%s: %s not in tshark -z expert" % (name, k))
    for n, r in two.items():
        for k in kinds_of(r):
            if not any(m.startswith(k + ": ") for m in r[EXPERT].split("\x1f")):
                fail("%s: frame %d carries %s without an expert item for it" % (name, n, k))
    # statistics: the report's own sections
    for label, out in (("single pass", stats1), ("-2", stats2)):
        check_stats(name + " " + label, out, txt.stdout, "Findings", True)
        check_stats(name + " " + label, out, txt.stdout, "Sessions", False)
    for k in all_kinds:
        if k not in stats1:
            fail("%s: -z nfsscope,findings does not name %s" % (name, k))

    nrec = sum(1 for r in two.values() if r[1])
    print("%s: %d frames with nfsscope, %d sessions, findings %s, on frames %s: %s" %
          (name, nrec, len(want_sessions), sorted(all_kinds), sorted(on_frames),
           "ok" if not failures else "%d failures" % len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
