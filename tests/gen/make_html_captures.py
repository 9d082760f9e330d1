#!/usr/bin/python3
"""Captures for the HTML page's charts (tests/e2e/html_reading.py): values
a chart's axis cannot hold.

    make_html_captures.py OUTDIR [NAME...]   write all (or the named) captures
    make_html_captures.py --list             print the capture names

Besides NAME.pcap: NAME.expected.jsonl and NAME.meta.json, as
make_edge_captures.py writes them (check_expected.py, check_tshark_clean.py).
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from netbuild import Capture, UdpFlow                       # noqa: E402
from rpcbuild import auth_sys, fattr3, nfs3_call, nfs3_getattr_args, nfs3_res, rpc_call, rpc_reply  # noqa: E402
from scenario import Expect, RpcUdp                         # noqa: E402
from make_edge_captures import Xids, FILE                   # noqa: E402

US = 1_000
MS = 1_000_000
T0 = 1764669600 * 10**9
SCENARIOS = {}


def scenario(fn):
    SCENARIOS[fn.__name__] = fn
    return fn


@scenario
def udp_same_usec_replies():
    """NFSv3 GETATTRs over UDP on a microsecond capture (the pcap default)
    from a server a few hundred nanoseconds away: every third reply carries
    its call's timestamp, an RTT of 0, which a log axis cannot hold; the
    others take 0.3 to 2.2 ms."""
    cap = Capture(nsec=False, t0_ns=T0, step_ns=0)
    exp = Expect(cap)
    x = Xids(0x4800)
    ru = RpcUdp(exp, UdpFlow(cap, "10.77.5.2", 40200, "10.77.5.1"))
    rtts = [0, 350, 420, 0, 900, 1500, 0, 300, 2200, 0, 600, 800, 0, 450, 1200, 0, 700, 380]
    t = T0 + 10 * MS
    for i, rtt in enumerate(rtts):
        call = rpc_call(x(), nfs3_call("GETATTR", nfs3_getattr_args(FILE)), cred=auth_sys())
        cap.now = t
        tx = ru.call(call)
        cap.now = t + rtt * US
        ru.reply(tx, rpc_reply(call, nfs3_res("GETATTR", "NFS3_OK", fattr3(3))))
        t += 20 * MS
    exp.meta["damaged"] = False
    exp.meta["tshark_compare"] = True
    return exp


def main(argv):
    if len(argv) >= 2 and argv[1] == "--list":
        for name in SCENARIOS:
            print(name + ".pcap")
        return 0
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    os.makedirs(argv[1], exist_ok=True)
    for name in argv[2:] or list(SCENARIOS):
        print(SCENARIOS[name]().write(argv[1], name, "pcap"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
