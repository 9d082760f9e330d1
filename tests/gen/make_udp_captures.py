#!/usr/bin/python3
"""Write NFSv3-over-UDP captures of a client that follows the Linux SUNRPC
retransmit algorithm, with the RTT/RTO values nfsscope must report.

    make_udp_captures.py OUTDIR [NAME...]   write all (or the named) captures
    make_udp_captures.py --list             print the capture names
    make_udp_captures.py --same-as OUTDIR   determinism check

Besides NAME.pcap, NAME.expected.jsonl and NAME.meta.json (as
make_edge_captures.py), each capture gets NAME.udp.json: the udp[] rows and
findings nfsscope must print, computed here from the same formulas the
client model used (net/sunrpc/timer.c, written again in Python below), never
from nfsscope. Times are pcap nanoseconds, so every value is exact.
"""
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from netbuild import Capture, UdpFlow                       # noqa: E402
from rpcbuild import *                                      # noqa: E402,F401,F403
from scenario import Expect, RpcUdp, FrameRef               # noqa: E402
from make_edge_captures import Xids, pattern, FILE, DIR, v3_read_call, v3_write_call  # noqa: E402

CLI, SRV = "10.77.4.2", "10.77.4.1"
MS = 1_000_000
US = 1_000
T0 = 1764669600 * 10**9

# ------------------------------------------------------------ Linux model
RTO_MAX, RTO_INIT, RTO_MIN = 60_000 * MS, 200 * MS, 100 * MS
TIMEO, RETRANS = 1100 * MS, 3
MAJORTIMEO = min(TIMEO << RETRANS, RTO_MAX)
CLASS = {"NULL": 0, "GETATTR": 1, "ACCESS": 1, "LOOKUP": 2, "READ": 3, "READDIRPLUS": 3,
         "WRITE": 4, "COMMIT": 5, "FSINFO": 0, "CREATE": 0}
CLASS_NAME = ["other", "getattr", "lookup", "read", "write", "commit"]


class LinuxRtt:
    """struct rpc_rtt: srtt8 = 8 x SRTT, sdrtt4 = 4 x mean deviation (ns)."""

    def __init__(self, timeo=TIMEO):
        self.init(timeo)

    def init(self, timeo):                      # rpc_init_rtt
        self.timeo = timeo
        init = (timeo - RTO_INIT) * 8 if timeo > RTO_INIT else 0
        self.srtt8 = [init] * 5
        self.sdrtt4 = [RTO_INIT] * 5
        self.ntimeouts = [0] * 5

    def update(self, timer, m):                 # rpc_update_rtt
        if timer == 0 or m < 0:
            return
        i = timer - 1
        m = max(m, 1)
        err = m - (self.srtt8[i] >> 3)
        self.srtt8[i] += err
        err = abs(err) - (self.sdrtt4[i] >> 2)
        self.sdrtt4[i] = max(self.sdrtt4[i] + err, RTO_MIN)

    def rto(self, timer):                       # rpc_calc_rto
        if timer == 0:
            return self.timeo
        i = timer - 1
        return min(((self.srtt8[i] + 7) >> 3) + self.sdrtt4[i], RTO_MAX)

    def set_timeo(self, timer, ntimeo):         # rpc_set_timeo
        if timer == 0:
            return
        i = timer - 1
        if ntimeo < self.ntimeouts[i]:
            self.ntimeouts[i] = max(self.ntimeouts[i] - 1, 0)
        else:
            self.ntimeouts[i] = min(ntimeo, 8)

    def timeout(self, timer, retries):          # xprt_wait_for_reply_request_rtt
        t = self.rto(timer) << ((self.ntimeouts[timer - 1] if timer else 0) + retries)
        return RTO_MAX if t > RTO_MAX or t == 0 else t


def ms_str(ns):
    return "%d.%06d" % (ns // MS, ns % MS)


class Row:
    def __init__(self):
        self.calls = self.answered = self.unanswered = self.rtt_samples = 0
        self.retransmissions = self.major_timeouts = self.spurious = self.dup_replies = 0
        self.lost_to_fragments = self.fragmented_replies = 0
        self.ratios = []
        self.gaps = []


class Client:
    """A Linux-like NFSv3/UDP client on one pair: sends calls one after the
    other (or overlapped, with explicit times), resends on the armed timeout,
    and keeps the model numbers the analyzer must find."""

    def __init__(self, cap, exp, x, cport=40100):
        self.cap, self.exp, self.x = cap, exp, x
        self.flow = UdpFlow(cap, CLI, cport, SRV)
        self.ru = RpcUdp(exp, self.flow)
        self.rtt = LinuxRtt()
        self.rows = {}
        self.min_rtt = {}
        self.wait = []               # (from, to) waits on timeouts
        self.findings = {}

    def row(self, timer):
        return self.rows.setdefault(timer, Row())

    def at(self, t):
        self.cap.now = t

    def send_on(self, flow, t, data, **kw):
        self.at(t)
        return flow.send(0, data, **kw)

    def op(self, t, call, reply, name, rtt, lost=0, reply_drop=(), rebind=None, server_delay=None,
           dup_reply=False):
        """Call at time t; the first `lost` transmissions get no reply (or,
        with reply_drop, a reply that loses those IP fragments); the last one
        is answered after rtt.  rebind: a UdpFlow for the resends (new source
        port).  Returns the time of the (last) reply."""
        timer = CLASS[name]
        r = self.row(timer)
        r.calls += 1
        tx = self.exp.new_txn(self.flow, "udp", call)
        sends = []
        cycle, retries = t, 0
        armed = self.rtt.timeout(timer, 0)
        send_t = t
        for i in range(lost + 1):
            flow = self.flow if (i == 0 or rebind is None) else rebind
            if i:
                gap = send_t - sends[-1]
                r.retransmissions += 1
                r.ratios.append(gap / armed)
                r.gaps.append(gap)
                self.wait.append((sends[-1], send_t))
                if send_t - cycle >= MAJORTIMEO:
                    r.major_timeouts += 1
                    self.rtt.init(TIMEO)
                    cycle, retries = send_t, 0
                else:
                    retries += 1
                armed = self.rtt.timeout(timer, retries)
            f = self.send_on(flow, send_t, call.data)
            ref = FrameRef(f)
            tx.call_refs.append(ref)
            self.exp.note_msg(ref, call.xid, "call")
            sends.append(send_t)
            if i < lost:
                if reply_drop:
                    # the server answered, one fragment of its reply was lost
                    self._reply(tx, reply, send_t + rtt, drop=reply_drop)
                    if 0 not in reply_drop:
                        r.lost_to_fragments += 1
                        r.fragmented_replies += 1
                send_t = send_t + armed
        rt = send_t + rtt
        fr = self._reply(tx, reply, rt)
        # the client has the reply when its last IP fragment arrived
        rtt = self.cap.now - self.cap.step_ns - send_t
        if len(reply.data) + 28 > 1500:
            r.fragmented_replies += 1
        r.answered += 1
        if lost == 0:
            r.rtt_samples += 1
            self.rtt.update(timer, rtt)
            self.min_rtt[timer] = min(self.min_rtt.get(timer, rtt), rtt)
        self.rtt.set_timeo(timer, len(sends) - 1)
        if dup_reply:
            self._reply(tx, reply, rt + 50 * US)
            r.dup_replies += 1
        return rt, tx, fr

    def _reply(self, tx, reply, t, **kw):
        self.at(t)
        return self.ru.reply(tx, reply, **kw)

    def unanswered(self, t, call, name, sends):
        """A call resent on its timeouts `sends - 1` times, never answered."""
        timer = CLASS[name]
        r = self.row(timer)
        r.calls += 1
        r.unanswered += 1
        tx = self.exp.new_txn(self.flow, "udp", call)
        cycle, retries = t, 0
        armed = self.rtt.timeout(timer, 0)
        prev = None
        for i in range(sends):
            if i:
                r.retransmissions += 1
                r.ratios.append((t - prev) / armed)
                r.gaps.append(t - prev)
                self.wait.append((prev, t))
                if t - cycle >= MAJORTIMEO:
                    r.major_timeouts += 1
                    self.rtt.init(TIMEO)
                    cycle, retries = t, 0
                else:
                    retries += 1
                armed = self.rtt.timeout(timer, retries)
            f = self.send_on(self.flow, t, call.data)
            ref = FrameRef(f)
            tx.call_refs.append(ref)
            self.exp.note_msg(ref, call.xid, "call")
            prev = t
            t += armed
        return prev

    def expected(self):
        rows = []
        for timer in sorted(self.rows):
            r = self.rows[timer]
            row = {"client": CLI, "server": SRV + ":2049", "timer_class": CLASS_NAME[timer],
                   "calls": r.calls, "answered": r.answered, "unanswered": r.unanswered,
                   "rtt_samples": r.rtt_samples,
                   "srtt_ms": ms_str((self.rtt.srtt8[timer - 1] + 7) >> 3) if timer else None,
                   "rttvar_ms": ms_str(self.rtt.sdrtt4[timer - 1] // 4) if timer else None,
                   "rto_ms": ms_str(self.rtt.rto(timer)),
                   "retransmissions": r.retransmissions, "major_timeouts": r.major_timeouts,
                   "lost_to_fragments": r.lost_to_fragments,
                   "fragmented_replies": r.fragmented_replies}
            if r.ratios:
                row["timeout_ratio_mean"] = round(sum(r.ratios) / len(r.ratios), 4)
                row["gap_max_ms"] = ms_str(max(r.gaps))
                row["gap_min_ms"] = ms_str(min(r.gaps))
            rows.append(row)
        return rows

    def wait_ns(self):
        """Union of the wait intervals, merged in order of their end (the
        analyzer's rule: a lower bound)."""
        total, end = 0, 0
        for a, b in sorted(self.wait, key=lambda w: w[1]):
            a = max(a, end)
            if b > a:
                total += b - a
            end = max(end, b)
        return total


def call_for(x, name, i):
    cred = auth_sys()
    if name == "GETATTR":
        c = rpc_call(x(), nfs3_call("GETATTR", nfs3_getattr_args(FILE)), cred=cred)
        return c, rpc_reply(c, nfs3_res("GETATTR", "NFS3_OK", fattr3(3)))
    if name == "ACCESS":
        c = rpc_call(x(), nfs3_call("ACCESS", nfs3_access_args(FILE)), cred=cred)
        return c, rpc_reply(c, nfs3_res("ACCESS", "NFS3_OK", nfs3_access_res(fattr3(3), 0x1F)))
    if name == "LOOKUP":
        c = rpc_call(x(), nfs3_call("LOOKUP", nfs3_lookup_args(DIR, "f%d" % i)), cred=cred)
        return c, rpc_reply(c, nfs3_res("LOOKUP", "NFS3_OK", nfs3_lookup_res_ok(FILE, fattr3(3), fattr3(2, NF3DIR))))
    if name == "READ":
        return v3_read_call(x, FILE, i * 1024, 1024, seed=i)
    if name == "READ32K":
        return v3_read_call(x, FILE, i * 32768, 32768, seed=i)
    if name == "WRITE":
        return v3_write_call(x, FILE, i * 1024, 1024, seed=i)
    if name == "COMMIT":
        c = rpc_call(x(), nfs3_call("COMMIT", nfs3_commit_args(FILE)), cred=cred)
        return c, rpc_reply(c, nfs3_res("COMMIT", "NFS3_OK", nfs3_commit_res_ok()))
    if name == "NULL":
        c = rpc_call(x(), nfs3_call("NULL"), cred=AUTH_NONE)
        return c, rpc_reply(c, nfs3_res("NULL"))
    raise ValueError(name)


SCENARIOS = {}


def scenario(fn):
    SCENARIOS[fn.__name__] = fn
    return fn


def new_capture():
    cap = Capture(nsec=True, t0_ns=T0, step_ns=10 * US)
    return cap, Expect(cap)


def finish(exp, cl, findings):
    exp.udp = {"udp": cl.expected(), "wait_ms": ms_str(cl.wait_ns()), "findings": findings}
    return exp


@scenario
def udp_linux_rtt(out):
    """A client following the Linux algorithm: every timer class, RTTs from
    0.4 ms to 40 ms, lost round trips (resends on the armed timeout, doubling,
    ntimeouts carried to the next call of the class), resends from a new
    source port, a major timeout (estimator reset), a call never answered."""
    cap, exp = new_capture()
    x = Xids(0x4000)
    cl = Client(cap, exp, x)
    rebind = UdpFlow(cap, CLI, 40177, SRV)
    rtts = [400, 650, 900, 1200, 2500, 700, 40000, 800, 550, 3000, 1000, 450]
    plan = ["NULL", "GETATTR", "LOOKUP", "ACCESS", "READ", "WRITE", "COMMIT", "GETATTR", "READ",
            "LOOKUP", "WRITE", "READ", "GETATTR", "COMMIT", "READ", "ACCESS", "WRITE", "LOOKUP"]
    losses = {4: 1, 8: 2, 12: 1, 16: 1, 22: 3, 27: 1}
    rebinds = {8, 22}
    t = T0 + 10 * MS
    i = 0
    for rnd in range(2):
        for name in plan:
            call, rep = call_for(x, name, i)
            rtt = rtts[i % len(rtts)] * US
            rt, _, _ = cl.op(t, call, rep, name, rtt, lost=losses.get(i, 0),
                             rebind=rebind if i in rebinds else None)
            t = rt + 3 * MS
            i += 1
        if rnd == 0:
            # a major timeout: READ losing 5 transmissions (timeout doubling
            # from its RTO; a resend 8.8 s or more after the cycle began
            # starts over with a fresh estimator), then answered
            call, rep = call_for(x, "READ", i)
            rt, _, _ = cl.op(t, call, rep, "READ", 700 * US, lost=5)
            t = rt + 3 * MS
            i += 1
    for name in ["GETATTR", "READ", "WRITE"]:
        call, rep = call_for(x, name, i)
        rt, _, _ = cl.op(t, call, rep, name, 600 * US)
        t = rt + 3 * MS
        i += 1
    call, _ = call_for(x, "GETATTR", i)
    cl.unanswered(t, call, "GETATTR", 2)
    exp.meta["damaged"] = False
    return finish(exp, cl, {})


@scenario
def udp_frag_loss(out):
    """32 KiB READ replies as 23 IPv4 fragments at MTU 1500: some lose one
    chosen fragment (the reply is lost, the call resent on its timeout), one
    loses its first fragment (RPC header unknown), the rest arrive."""
    cap, exp = new_capture()
    x = Xids(0x5000)
    cl = Client(cap, exp, x)
    t = T0 + 10 * MS
    drops = {2: (5,), 5: (22,), 7: (11,), 9: (0,)}
    for i in range(12):
        call, rep = call_for(x, "READ32K", i)
        rt, _, _ = cl.op(t, call, rep, "READ", 2 * MS, lost=1 if i in drops else 0,
                         reply_drop=drops.get(i, ()))
        t = rt + 5 * MS
    exp.meta["damaged"] = True   # incomplete datagrams: nothing for tshark to compare there
    exp.meta["tshark_compare"] = True
    rows = cl.expected()
    lost = sum(r["lost_to_fragments"] for r in rows)
    frag = sum(r["fragmented_replies"] for r in rows)
    return finish(exp, cl, {"FRAGMENT_LOSS": lost, "_fragmented_replies": frag})


@scenario
def udp_spurious(out):
    """A slow server: replies come after the client's timeout, so the client
    resends and the server answers both transmissions (a duplicate reply),
    and one reply arrives 0.1 ms after a resend (too soon to answer it)."""
    cap, exp = new_capture()
    x = Xids(0x6000)
    cl = Client(cap, exp, x)
    t = T0 + 10 * MS
    # warm up: fast GETATTRs (1 ms) so the RTO falls
    for i in range(6):
        call, rep = call_for(x, "GETATTR", i)
        rt, _, _ = cl.op(t, call, rep, "GETATTR", 1 * MS)
        t = rt + 2 * MS
    spurious = 0
    for i in range(6, 10):
        call, rep = call_for(x, "READ", i)
        timer = CLASS["READ"]
        r = cl.row(timer)
        r.calls += 1
        tx = exp.new_txn(cl.flow, "udp", call)
        armed = cl.rtt.timeout(timer, 0)
        t1 = t + armed                       # the resend
        for st in (t, t1):
            f = cl.send_on(cl.flow, st, call.data)
            ref = FrameRef(f)
            tx.call_refs.append(ref)
            exp.note_msg(ref, call.xid, "call")
        r.retransmissions += 1
        r.ratios.append(1.0)
        r.gaps.append(armed)
        cl.wait.append((t, t1))
        r.answered += 1
        if i < 9:
            # answers the first send 20 ms after the resend, then the resend
            cl._reply(tx, rep, t1 + 20 * MS)
            cl._reply(tx, rep, t1 + 21 * MS)
            r.dup_replies += 1
            end = t1 + 21 * MS
        else:
            # 0.1 ms after the resend: less than half the 1 ms RTT
            cl._reply(tx, rep, t1 + 100 * US)
            end = t1 + 100 * US
        spurious += 1
        r.spurious += 1
        cl.rtt.set_timeo(timer, 1)
        t = end + 5 * MS
    rows = cl.expected()
    for row in rows:
        rr = cl.rows[CLASS_NAME.index(row["timer_class"])]
        row["spurious"], row["dup_replies"] = rr.spurious, rr.dup_replies
    exp.udp = {"udp": rows, "wait_ms": ms_str(cl.wait_ns()), "findings": {"SPURIOUS_RETRANSMIT": spurious}}
    return exp


def write(name, outdir):
    exp = SCENARIOS[name](outdir)
    path = exp.write(outdir, name, "pcap")
    with open(os.path.join(outdir, name + ".udp.json"), "w") as f:
        json.dump(exp.udp, f, indent=1, sort_keys=True)
        f.write("\n")
    return path


def main(argv):
    if len(argv) >= 2 and argv[1] == "--list":
        for name in SCENARIOS:
            print(name + ".pcap")
        return 0
    if len(argv) >= 3 and argv[1] == "--same-as":
        import filecmp
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            for name in SCENARIOS:
                write(name, tmp)
            files = sorted(os.listdir(tmp))
            _, mismatch, errors = filecmp.cmpfiles(argv[2], tmp, files, shallow=False)
        for f in mismatch + errors:
            print("differs or missing: %s" % f)
        print("%d files compared, %d differ" % (len(files), len(mismatch) + len(errors)))
        return 1 if mismatch or errors else 0
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    os.makedirs(argv[1], exist_ok=True)
    for name in argv[2:] or list(SCENARIOS):
        print(write(name, argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
