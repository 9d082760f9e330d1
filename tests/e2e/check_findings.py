#!/usr/bin/python3
"""Compare nfsscope's findings, sessions and READ_PLUS statistics with a
generator's expectations (samples/seed-*.findings.json, written by
tests/gen/make_seed_captures.py; format in samples/README-seeds.md).

    check_findings.py NFSSCOPE CAPTURE EXPECTED [--verbose] [-- EXTRA NFSSCOPE ARGS]
    check_findings.py --self-test DIR     the comparison itself, on DIR/seed-*.findings.json

Runs `NFSSCOPE -r CAPTURE --format json` and checks:

  findings  every expected finding is there, matched by (kind, session,
            client); `count`, `frames` (the first <= 8, sorted),
            `connections`, `session`, and `severity` / `client` when the
            expected entry has them, compare exactly.  Several expected
            findings of one (kind, session, client) -- e.g. two storms --
            are matched in report order.  Any finding nfsscope reports that
            is not expected fails the check (an unexpected kind, or one more
            of an expected kind).
  sessions  when EXPECTED has "sessions": the same session ids, and for each
            `clientid`, `connections`, `fore_channel` / `back_channel`
            `requested_max_requests` and `granted_max_requests`,
            `slots.highest_used`, `slots.max_outstanding` exactly;
            expected `slots.saturated` true / false means nfsscope's
            `slots.saturated_fraction` > 0 / == 0.
  read_plus when EXPECTED has "read_plus": every expected key equal
            (recursively; `files` matched by `fh`, none missing, none extra).

Exit status: 0 all match, 1 a difference (each printed), 2 usage or nfsscope
failed to run / printed no JSON.
"""
import json
import subprocess
import sys


def canon(v):
    return json.dumps(v, sort_keys=True)


def hex_id(v, width):
    """Client IDs / session IDs as lowercase hex strings (ints accepted)."""
    if v is None:
        return None
    if isinstance(v, int):
        return "%0*x" % (width, v)
    return str(v).lower().replace(":", "")


def fkey(f):
    return (f.get("kind"), hex_id(f.get("session"), 32),
            hex_id(f.get("client"), 16) if "client" in f else None)


def compare_findings(exp, got, errs):
    # expected keyed by (kind, session, client-if-given); nfsscope's findings
    # are matched against them with the client only when the expected entry
    # names one
    with_client = {(e["kind"], hex_id(e.get("session"), 32)) for e in exp if "client" in e}
    groups = {}
    for g in got:
        k = (g.get("kind"), hex_id(g.get("session"), 32))
        if k in with_client:
            k = k + (hex_id(g.get("client"), 16),)
        else:
            k = k + (None,)
        groups.setdefault(k, []).append(g)
    used = {}
    for e in exp:
        k = fkey(e)
        lst = groups.get(k, [])
        i = used.get(k, 0)
        used[k] = i + 1
        name = "%s (session %s%s)" % (e["kind"], e.get("session"),
                                      ", client %s" % e["client"] if "client" in e else "")
        if i >= len(lst):
            errs.append("missing finding %s: expected count %d, frames %s" % (name, e["count"],
                                                                             e["frames"]))
            continue
        g = lst[i]
        for key in ("count", "frames", "connections", "severity"):
            if key in e and canon(e[key]) != canon(g.get(key)):
                errs.append("finding %s: %s is %s, expected %s" % (name, key, canon(g.get(key)),
                                                                  canon(e[key])))
    for k, lst in groups.items():
        extra = lst[used.get(k, 0):]
        for g in extra:
            errs.append("unexpected finding %s (session %s, client %s): count %s, frames %s"
                        % (g.get("kind"), g.get("session"), g.get("client"), g.get("count"),
                           g.get("frames")))


def compare_sessions(exp, got, errs):
    if got is None:
        errs.append("nfsscope's report has no sessions[]")
        return
    by_id = {}
    for s in got:
        by_id.setdefault(hex_id(s.get("sessionid"), 32), []).append(s)
    for sid, lst in by_id.items():
        if len(lst) > 1:
            errs.append("session %s reported %d times" % (sid, len(lst)))
    want_ids = [s["sessionid"] for s in exp]
    for sid in by_id:
        if sid not in want_ids:
            errs.append("unexpected session %s" % sid)
    for e in exp:
        sid = e["sessionid"]
        if sid not in by_id:
            errs.append("missing session %s" % sid)
            continue
        g = by_id[sid][0]

        def chk(path, want, have):
            if canon(want) != canon(have):
                errs.append("session %s: %s is %s, expected %s" % (sid, path, canon(have),
                                                                  canon(want)))
        chk("clientid", e["clientid"], hex_id(g.get("clientid"), 16))
        chk("connections", e["connections"], g.get("connections"))
        for ch in ("fore_channel", "back_channel"):
            for k in ("requested_max_requests", "granted_max_requests"):
                chk("%s.%s" % (ch, k), e[ch][k], (g.get(ch) or {}).get(k))
        gs = g.get("slots") or {}
        for k in ("highest_used", "max_outstanding"):
            chk("slots." + k, e["slots"][k], gs.get(k))
        if "saturated" in e["slots"]:
            frac = gs.get("saturated_fraction")
            if not isinstance(frac, (int, float)):
                errs.append("session %s: slots.saturated_fraction is %s" % (sid, canon(frac)))
            elif (frac > 0) != e["slots"]["saturated"]:
                errs.append("session %s: slots.saturated_fraction is %s, expected %s" % (
                    sid, frac, "> 0" if e["slots"]["saturated"] else "0"))


def compare_tree(path, want, have, errs):
    if isinstance(want, dict):
        if not isinstance(have, dict):
            errs.append("%s is %s, expected an object" % (path, canon(have)))
            return
        for k, v in want.items():
            if k == "files" and isinstance(v, list):
                gf = {x.get("fh"): x for x in have.get("files") or [] if isinstance(x, dict)}
                for f in v:
                    if f["fh"] not in gf:
                        errs.append("%s.files: file handle %s missing" % (path, f["fh"]))
                    else:
                        compare_tree("%s.files[%s]" % (path, f["fh"]), f, gf[f["fh"]], errs)
                for fh in gf:
                    if fh not in {f["fh"] for f in v}:
                        errs.append("%s.files: unexpected file handle %s" % (path, fh))
                continue
            compare_tree("%s.%s" % (path, k), v, have.get(k), errs)
        return
    if canon(want) != canon(have):
        errs.append("%s is %s, expected %s" % (path, canon(have), canon(want)))


def compare(exp, rep, returncode):
    errs = []
    want_exit = exp.get("nfsscope_exit", 0)
    if returncode != want_exit:
        errs.append("nfsscope exit status %d, expected %d" % (returncode, want_exit))
    got_f = rep.get("findings")
    if not isinstance(got_f, list):
        errs.append("nfsscope's report has no findings[]")
        got_f = []
    compare_findings(exp.get("findings", []), got_f, errs)
    if "sessions" in exp:
        compare_sessions(exp["sessions"], rep.get("sessions"), errs)
    if "read_plus" in exp:
        compare_tree("read_plus", exp["read_plus"], rep.get("read_plus"), errs)
    return errs


def report_from(exp):
    """A report nfsscope would print if it agreed with exp (for --self-test)."""
    rep = {"findings": [], "sessions": []}
    for f in exp.get("findings", []):
        g = dict(f, first_ts=1764669600.0, last_ts=1764669600.0, message="-", rfc=None)
        g.setdefault("client", None)
        rep["findings"].append(g)
    for s in exp.get("sessions", []):
        s = json.loads(json.dumps(s))
        s["slots"]["saturated_fraction"] = 0.5 if s["slots"].pop("saturated") else 0.0
        s["clientid"] = int(s["clientid"], 16)          # an integer client ID is accepted
        rep["sessions"].append(s)
    if "read_plus" in exp:
        rep["read_plus"] = json.loads(json.dumps(exp["read_plus"]))
    return rep


def self_test(directory):
    import glob
    import os
    files = sorted(glob.glob(os.path.join(directory, "seed-*.findings.json")))
    if not files:
        print("no seed-*.findings.json in %s" % directory)
        return 2
    bad = 0

    def mutations(exp):
        if exp["findings"]:
            yield "extra kind", lambda r: r["findings"].append(
                {"kind": "DELAY_STORM", "session": None, "client": None, "count": 20,
                 "frames": [1], "connections": ["c1"]})
            yield "extra of an expected kind", lambda r: r["findings"].append(
                dict(r["findings"][0]))
            yield "missing finding", lambda r: r["findings"].pop()
            yield "count", lambda r: r["findings"][0].update(count=r["findings"][0]["count"] + 1)
            yield "frames", lambda r: r["findings"][0].update(frames=r["findings"][0]["frames"][1:])
            yield "connections", lambda r: r["findings"][0].update(connections=["c9"])
            yield "session", lambda r: r["findings"][0].update(session="00" * 16)
            yield "severity", lambda r: r["findings"][0].update(severity="info" if r["findings"][0]["severity"] != "info" else "warning")
        else:
            yield "a finding on a clean capture", lambda r: r["findings"].append(
                {"kind": "REPLAY", "session": None, "client": None, "count": 1, "frames": [1],
                 "connections": ["c1"]})
        yield "no sessions", lambda r: r.pop("sessions")
        yield "extra session", lambda r: r["sessions"].append(dict(r["sessions"][0], sessionid="11" * 16))
        yield "granted", lambda r: r["sessions"][0]["fore_channel"].update(granted_max_requests=1)
        yield "highest_used", lambda r: r["sessions"][0]["slots"].update(highest_used=99)
        yield "max_outstanding", lambda r: r["sessions"][0]["slots"].update(max_outstanding=0)
        yield "saturation", lambda r: r["sessions"][0]["slots"].update(
            saturated_fraction=0.0 if r["sessions"][0]["slots"]["saturated_fraction"] else 0.25)
        yield "session connections", lambda r: r["sessions"][0].update(connections=[])
        if "read_plus" in exp:
            yield "read_plus total", lambda r: r["read_plus"].update(hole_bytes=0)
            yield "read_plus file", lambda r: r["read_plus"]["files"][0].update(data_segments=99)
            yield "read_plus file missing", lambda r: r["read_plus"]["files"].pop()
            yield "no read_plus", lambda r: r.pop("read_plus")

    for path in files:
        with open(path) as f:
            exp = json.load(f)
        errs = compare(exp, report_from(exp), 0)
        if errs:
            bad += 1
            print("FAIL %s: a matching report is rejected: %s" % (path, errs[:3]))
        if not compare(exp, report_from(exp), 3):
            bad += 1
            print("FAIL %s: a wrong exit status is accepted" % path)
        for name, mutate in mutations(exp):
            rep = report_from(exp)
            mutate(rep)
            if not compare(exp, rep, 0):
                bad += 1
                print("FAIL %s: mutation '%s' not detected" % (path, name))
    print("%s: %d expectation files, %s" % ("self-test", len(files), "FAIL" if bad else "ok"))
    return 1 if bad else 0


def main(argv):
    if len(argv) == 3 and argv[1] == "--self-test":
        return self_test(argv[2])
    args, extra, verbose = [], [], False
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--":
            extra = argv[i + 1:]
            break
        if a == "--verbose":
            verbose = True
        else:
            args.append(a)
        i += 1
    if len(args) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    nfsscope, capture, expected = args
    with open(expected) as f:
        exp = json.load(f)
    cmd = [nfsscope, "-r", capture, "--format", "json"] + extra
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        rep = json.loads(p.stdout.decode("utf-8", "replace"))
    except ValueError:
        print("FAIL %s: nfsscope (exit %d) printed no JSON report: %s" % (
            capture, p.returncode, p.stderr.decode("utf-8", "replace").strip()[-300:]))
        return 2
    errs = compare(exp, rep, p.returncode)
    got_f = rep.get("findings") if isinstance(rep.get("findings"), list) else []
    name = capture.rsplit("/", 1)[-1]
    if errs:
        print("FAIL %s" % name)
        for e in errs:
            print("  " + e)
        return 1
    print("ok %s: %d findings, %d sessions%s match" % (
        name, len(exp.get("findings", [])), len(exp.get("sessions", [])),
        ", read_plus" if "read_plus" in exp else ""))
    if verbose:
        for f in got_f:
            print("  %s %s x%s frames %s" % (f.get("severity"), f.get("kind"), f.get("count"),
                                             f.get("frames")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
