#!/usr/bin/env python3
"""monitoring/ (issue 13): the alert rules and the Grafana dashboard.

Usage: monitoring_check.py NFSSCOPE SOURCE_DIR OUT_DIR

`promtool check rules` and `promtool test rules` (the rules' unit tests,
monitoring/nfsscope-alerts.test.yml) pass; every dashboard query parses as
PromQL (checked by promtool as recording rules, Grafana's variables
substituted); every metric the rules and the dashboard name is one nfsscope
writes (the .prom files of the samples). Exit 77 without promtool.
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


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        fail("%s: exit %d: %s%s" % (" ".join(cmd), r.returncode, r.stdout, r.stderr))
    return r.stdout


def main():
    nfsscope, src, out = sys.argv[1:4]
    if not shutil.which("promtool"):
        print("SKIP: promtool not installed (scripts/deps.sh installs the prometheus package)")
        return 77
    mon = os.path.join(src, "monitoring")
    os.makedirs(out, exist_ok=True)
    print(run(["promtool", "check", "rules", os.path.join(mon, "nfsscope-alerts.yml")]).strip())
    print(run(["promtool", "test", "rules", "nfsscope-alerts.test.yml"], cwd=mon).strip())
    rules_text = open(os.path.join(mon, "nfsscope-alerts.yml")).read()
    alerts = re.findall(r"^\s+- alert: (\w+)", rules_text, re.M)
    for a in ("NfsErrorStorm", "NfsGraceStuck", "NfsSessionSlotsSaturated", "NfsscopeCaptureDrops"):
        if a not in alerts:
            fail("alert %s missing (the issue asks for storms, GRACE_STUCK, slot saturation, drops)" % a)
        if not re.search(r"alertname: %s\b" % a, open(os.path.join(mon, "nfsscope-alerts.test.yml")).read()):
            fail("alert %s has no unit test" % a)

    dash = json.load(open(os.path.join(mon, "grafana-dashboard.json")))
    exprs = [t["expr"] for p in dash["panels"] for t in p.get("targets", [])]
    if len(exprs) < 10:
        fail("only %d dashboard queries" % len(exprs))
    rec = os.path.join(out, "dashboard-queries.yml")
    with open(rec, "w") as f:
        f.write("groups:\n  - name: dashboard\n    rules:\n")
        for i, e in enumerate(exprs):
            e = e.replace("$__rate_interval", "1m").replace("$__range", "1h").replace("$instance", ".*")
            f.write("      - record: dashboard:query%d\n        expr: %s\n" % (i, json.dumps(e)))
    run(["promtool", "check", "rules", rec])
    print("dashboard: %d panels, %d queries parse as PromQL" % (len(dash["panels"]), len(exprs)))

    written = set()
    for s in ("seed-000-nconnect-misbind", "seed-002-slots-64-granted-10", "nfsv3-udp-loss5"):
        prom = os.path.join(out, s + ".prom")
        run([nfsscope, "-r", os.path.join(src, "samples", s + ".pcap"), "--metrics-file", prom, "-o", os.devnull])
        for line in open(prom):
            m = re.match(r"# TYPE (\S+) (\S+)", line)
            if m:
                written.add(m.group(1))
                if m.group(2) == "histogram":
                    written.update(m.group(1) + x for x in ("_bucket", "_sum", "_count"))
    used = set(re.findall(r"\bnfsscope_[a-z_]+", " ".join(exprs) + rules_text))
    missing = sorted(used - written)
    if missing:
        fail("the dashboard or the rules name metrics nfsscope does not write: %s" % missing)
    print("metrics named by the rules and the dashboard, all written by nfsscope: %s" % ", ".join(sorted(used)))
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
