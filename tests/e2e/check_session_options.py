#!/usr/bin/python3
"""--storm-count, --storm-window, --grace-period and --fail-on on the thread-000 seed capture.

    check_session_options.py NFSSCOPE CAPTURE
"""
import json
import subprocess
import sys


def kinds(nfsscope, cap, *opts):
    p = subprocess.run([nfsscope, "-r", cap, "--format", "json"] + list(opts), stdout=subprocess.PIPE)
    return p.returncode, sorted((f["kind"], f["count"]) for f in json.loads(p.stdout)["findings"])


def main(nfsscope, cap):
    cases = [  # options, exit status, findings (kind, count) sorted
        ([], 0, [("CONN_NOT_BOUND", 31), ("CONN_NOT_BOUND_STORM", 29), ("GRACE_STUCK", 29), ("SEQ_MISORDERED", 31),
                 ("SEQ_MISORDERED_STORM", 29)]),
        (["--storm-count", "30"], 0, [("CONN_NOT_BOUND", 31), ("GRACE_STUCK", 29), ("SEQ_MISORDERED", 31)]),
        (["--storm-window", "1"], 0, [("CONN_NOT_BOUND", 31), ("GRACE_STUCK", 29), ("SEQ_MISORDERED", 31)]),
        # a 20 s window joins the two early errors (t = 0 s) to the workload's cluster (t = 14 s)
        (["--storm-window", "20"], 0, [("CONN_NOT_BOUND", 31), ("CONN_NOT_BOUND_STORM", 31), ("GRACE_STUCK", 29),
                                       ("SEQ_MISORDERED", 31), ("SEQ_MISORDERED_STORM", 31)]),
        (["--grace-period", "200", "--storm-count", "100"], 0, [("CONN_NOT_BOUND", 31), ("SEQ_MISORDERED", 31)]),
        (["--fail-on", "GRACE_STUCK"], 3, None),
        (["--fail-on", "SLOT_LIMITED"], 0, None),
    ]
    bad = 0
    for opts, rc, want in cases:
        got_rc, got = kinds(nfsscope, cap, *opts)
        if got_rc != rc or (want is not None and got != want):
            print("FAIL %s: exit %d, findings %s; expected exit %d, findings %s" % (" ".join(opts), got_rc, got, rc, want))
            bad += 1
    print("ok" if not bad else "%d failed" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]) if len(sys.argv) == 3 else 2)
