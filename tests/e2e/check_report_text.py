#!/usr/bin/python3
"""The text report as a person reads it (issue 12 items 9 and 10).

    check_report_text.py NFSSCOPE SAMPLES_DIR

For every sample: no line over 100 columns (default, -v, -q); each latency
table names one unit in its "mean" head and every percentile cell has at
most three significant digits (the histogram's buckets are ~1% wide),
unless three digits would print it past the row's min or max: then it is
exact, and in every case min <= percentile <= max as printed (issue 23).
The Operations heading and its in-cpd column follow the versions present:
"NFSv3 by procedure" and no in-cpd on NFSv3-only samples.
Mixed NFSv3/NFSv4 capture (cooked-any.pcap): v3 rows and their counts equal
tshark's NFSv3 replies per procedure, and a procedure of both versions is
listed once per version with its "vers"; JSON ops[] has the version key.
Other RPC programs: per program/version/procedure, calls and the maximum
latency equal tshark's (rpc.time of the replies), for every sample.
"""
import collections
import glob
import json
import math
import os
import re
import subprocess
import sys

N, S = sys.argv[1], sys.argv[2]
errors = []


def run(*args):
    r = subprocess.run([N, *args], capture_output=True, text=True)
    return r.stdout


def tshark(cap, flt, fields):
    r = subprocess.run(["tshark", "-r", cap, "-Y", flt, "-T", "fields", *sum((["-e", f] for f in fields), [])],
                       capture_output=True, text=True)
    return [l.split("\t") for l in r.stdout.splitlines() if l]


def sig_digits_ok(cell):
    v = float(cell)
    if v == 0:
        return True
    e = math.floor(math.log10(abs(v)))
    return abs(round(v, -e + 2) - v) <= abs(v) * 1e-9


def round3(v):
    """Three significant digits, halves away from zero as C's round() (the
    report's rounding), not Python's halves to even."""
    if v == 0:
        return 0.0
    scale = 10.0 ** (math.floor(math.log10(abs(v))) - 2)
    return math.floor(abs(v) / scale + 0.5) * scale * (1 if v > 0 else -1)


caps = sorted(glob.glob(os.path.join(S, "*.pcap")))
lines_checked = tables = 0
for cap in caps:
    name = os.path.basename(cap)
    mins = {}  # (table, row name, vers) -> min, from the -v run (the only one with a min column)
    for opts in (["-v"], [], ["-q"]):
        out = run("-r", cap, *opts)
        for l in out.splitlines():
            lines_checked += 1
            if len(l) > 100:
                errors.append("%s %s: line of %d columns: %s" % (name, " ".join(opts), len(l), l[:60]))
        # latency tables: head with "mean UNIT", rows below until a blank line
        rows = out.splitlines()
        for i, l in enumerate(rows):
            m = re.match(r"^  (operation|program) .* mean (us|ms|s) ", l + " ")
            if not m:
                continue
            tables += 1
            heads = l.split()
            if sum(h in ("us", "ms", "s") for h in heads) != 1:
                errors.append("%s: a latency table with more than one unit: %s" % (name, l))
            pcols = [k for k, h in enumerate(heads) if re.fullmatch(r"p[0-9.]+", h)]
            mcol = heads.index("min") if "min" in heads else None
            ncols = len(heads) - 1  # "mean us" is two words
            for r in rows[i + 1:]:
                if not r.strip():
                    break
                cells = r.split()
                if len(cells) != ncols or cells[-1] == "-":
                    continue
                key = (m.group(1), *cells[:3 if m.group(1) == "program" else 2])  # program rows: + procedure
                hi = float(cells[-1])
                if mcol is not None:
                    mins[key] = float(cells[mcol - 1])
                lo = mins.get(key)
                for k in pcols:
                    c = cells[k - 1]
                    v = float(c)
                    if v > hi or (lo is not None and v < lo):
                        errors.append("%s %s: percentile %s outside min %s .. max %s: %s" % (name, " ".join(opts), c, lo, hi, r))
                    exact_needed = round3(v) > hi or (lo is not None and round3(v) < lo)
                    if not sig_digits_ok(c) and not exact_needed:
                        errors.append("%s: percentile %s has more than 3 significant digits: %s" % (name, c, r))
        versions = re.search(r"^  NFS versions +(.*)$", out, re.M)
        head = re.search(r"^Operations \((.*)\)$", out, re.M)
        if versions and head and "v4" not in versions.group(1):
            if head.group(1) != "NFSv3 by procedure" or re.search(r"^  operation .*in-cpd", out, re.M):
                errors.append("%s %s: NFSv3-only, Operations headed '%s' (in-cpd column: %s)" % (
                    name, " ".join(opts), head.group(1), bool(re.search(r"^  operation .*in-cpd", out, re.M))))

# mixed versions
mixed = os.path.join(S, "cooked-any.pcap")
d = json.loads(run("-r", mixed, "--format", "json"))
if any("version" not in o for o in d["ops"]):
    errors.append("ops[] without a version key")
ours = {o["name"]: o["count"] for o in d["ops"] if o["version"] == 3 and o["count"]}
names3 = {0: "NULL", 1: "GETATTR", 3: "LOOKUP", 4: "ACCESS", 6: "READ", 19: "FSINFO", 17: "READDIRPLUS", 7: "WRITE"}
want = collections.Counter()
for proc, _ in tshark(mixed, "rpc.msgtyp == 1 && rpc.program == 100003 && rpc.programversion == 3",
                      ["rpc.procedure", "rpc.time"]):
    want[names3.get(int(proc), proc)] += 1
if dict(want) != ours:
    errors.append("cooked-any v3 rows %s, tshark NFSv3 replies %s" % (ours, dict(want)))
both = {o["name"] for o in d["ops"] if o["version"] == 3} & {o["name"] for o in d["ops"] if o["version"] == 4}
text = run("-r", mixed)
for nm in sorted(both):
    for v in ("v3", "v4"):
        if not re.search(r"^  %s +%s +\d" % (nm, v), text, re.M):
            errors.append("text report has no row '%s %s'" % (nm, v))
print("mixed capture: v3 rows = tshark %s; listed under both versions: %s" % (dict(want), " ".join(sorted(both))))

# other programs against tshark
progs_checked = 0
for cap in caps:
    d = json.loads(run("-r", cap, "--format", "json"))
    calls = collections.Counter()
    for prog, vers, proc in tshark(cap, "rpc.msgtyp == 0 && rpc.program != 100003", ["rpc.program", "rpc.programversion", "rpc.procedure"]):
        calls[(int(prog), int(vers.split(",")[0]), int(proc))] += 1
    lat = collections.defaultdict(list)
    for prog, vers, proc, t in tshark(cap, "rpc.msgtyp == 1 && rpc.program != 100003 && rpc.time",
                                      ["rpc.program", "rpc.programversion", "rpc.procedure", "rpc.time"]):
        lat[(int(prog), int(vers.split(",")[0]), int(proc))].append(round(float(t) * 1e9))
    ours = {(p["prog"], p["vers"], p["proc"]): p for p in d["programs"]}
    if set(ours) != set(calls):
        errors.append("%s: programs %s, tshark %s" % (os.path.basename(cap), sorted(ours), sorted(calls)))
        continue
    for k, p in ours.items():
        progs_checked += 1
        if p["calls"] != calls[k]:
            errors.append("%s %s: calls %d, tshark %d" % (os.path.basename(cap), k, p["calls"], calls[k]))
        if lat[k] and p["max_us"] != max(lat[k]) // 1000:
            errors.append("%s %s: max_us %s, tshark %d" % (os.path.basename(cap), k, p["max_us"], max(lat[k]) // 1000))
        if lat[k] and abs(p["mean_us"] - sum(lat[k]) / len(lat[k]) / 1000) > 0.0006:
            errors.append("%s %s: mean_us %s, tshark %.3f" % (os.path.basename(cap), k, p["mean_us"], sum(lat[k]) / len(lat[k]) / 1000))

print("%d lines of %d reports within 100 columns; %d latency tables with one unit; %d program rows = tshark"
      % (lines_checked, 3 * len(caps), tables, progs_checked))
for e in errors:
    print("FAIL: " + e)
sys.exit(1 if errors else 0)
