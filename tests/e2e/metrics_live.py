#!/usr/bin/env python3
"""nfsscope -i lo --metrics (issue 13), scraped by a real Prometheus.

Usage: metrics_live.py NFSSCOPE

As root (else 77): nfsscope captures lo (udp port 2049) serving
127.0.0.1:PORT/metrics, with --html and --metrics-file for the end. This
script sends exactly CALLS RPC NULL calls (NFSv3) over UDP to 127.0.0.1:2049
(nobody answers: loopback only), then checks
  - the endpoint: the calls counted, `promtool check metrics` passes;
    404 for another path, 405 for another method, 431 for an oversized
    request, a silent client closed at the deadline (5 s after accept), and a scrape
    served while that silent client holds its connection;
  - Prometheus (Debian package, scrape interval 1 s) scrapes it: `up` is 1
    and nfsscope_rpc_calls_total{op="NULL"} reads CALLS through its HTTP API;
  - SIGINT ends nfsscope with exit 0 and the page and the .prom file of the
    live capture written (the .prom passes promtool too).
"""
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

CALLS = 20
IDLE_S = 5  # METRICS_HTTP_DEADLINE_MS (from accept)


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def http(port, raw, timeout=5):
    """Send raw bytes, return (status line, body) of the answer."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.sendall(raw)
    data = b""
    while True:
        b = s.recv(65536)
        if not b:
            break
        data += b
    s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return head.split(b"\r\n")[0].decode(), body.decode()


def scrape(port):
    return http(port, b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/plain\r\n\r\n")


def value(text, name, **labels):
    for line in text.splitlines():
        if line.startswith(name + "{") or line.startswith(name + " "):
            if all('%s="%s"' % kv in line for kv in labels.items()):
                return float(line.rsplit(" ", 1)[1])
    return None


def wait_for(what, fn, deadline_s):
    end = time.time() + deadline_s
    last = None
    while time.time() < end:
        last = fn()
        if last:
            return last
        time.sleep(0.2)
    fail("%s: not within %d s (last: %r)" % (what, deadline_s, last))


def main():
    nfsscope = sys.argv[1]
    if os.geteuid() != 0:
        print("SKIP: live capture needs root")
        return 77
    for tool in ("promtool", "prometheus"):
        if not shutil.which(tool):
            print("SKIP: %s not installed (scripts/deps.sh installs the prometheus package)" % tool)
            return 77
    # LSan cannot ptrace a process that switched user (as root, live capture switches)
    os.environ["ASAN_OPTIONS"] = (os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
    t = tempfile.mkdtemp(prefix="nfsscope-metrics-")
    port, pport = free_port(), free_port()
    procs = []
    try:
        err = open(os.path.join(t, "err"), "w")
        ns = subprocess.Popen([nfsscope, "-i", "lo", "--batch", "--metrics", "127.0.0.1:%d" % port,
                               "--html", os.path.join(t, "live.html"), "--metrics-file", os.path.join(t, "live.prom"),
                               "-o", os.path.join(t, "report.txt"), "udp", "port", "2049"], stderr=err)
        procs.append(ns)
        wait_for("nfsscope listening",
                 lambda: "metrics at http://127.0.0.1:%d/metrics" % port in open(os.path.join(t, "err")).read(), 10)
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        for i in range(CALLS):
            s.sendto(struct.pack(">IIIIIIIIII", 0x13000000 + i, 0, 2, 100003, 3, 0, 0, 0, 0, 0), ("127.0.0.1", 2049))
            time.sleep(0.02)
        body = wait_for("%d NULL calls counted at /metrics" % CALLS,
                        lambda: (lambda st, b: b if value(b, "nfsscope_rpc_calls_total", op="NULL") == CALLS else None)(
                            *scrape(port)), 10)
        r = subprocess.run(["promtool", "check", "metrics"], input=body, capture_output=True, text=True)
        if r.returncode != 0:
            fail("promtool check metrics on the endpoint: %s%s" % (r.stdout, r.stderr))
        print("ok: /metrics counts %d NULL calls, promtool check metrics passes" % CALLS)

        for raw, want in ((b"GET / HTTP/1.1\r\n\r\n", "404"), (b"POST /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n", "405"),
                          (b"GET /metrics HTTP/1.1\r\nX: " + b"a" * 8000 + b"\r\n\r\n", "431")):
            try:
                st, _ = http(port, raw)
            except (ConnectionResetError, BrokenPipeError):
                st = "reset"
            if want not in st:
                fail("%r...: answered %r, expected %s" % (raw[:20], st, want))
        print("ok: 404 for another path, 405 for POST, 431 for an 8 KB header")

        idle = socket.create_connection(("127.0.0.1", port), timeout=IDLE_S + 4)
        t0 = time.time()
        st, b = scrape(port)  # served while the silent client holds a slot
        if "200" not in st or value(b, "nfsscope_rpc_calls_total", op="NULL") != CALLS:
            fail("scrape beside a silent client: %r" % st)
        if idle.recv(1) != b"":
            fail("the silent client got data")
        waited = time.time() - t0
        if not IDLE_S - 1 <= waited <= IDLE_S + 3:
            fail("silent client closed after %.1f s, expected about %d" % (waited, IDLE_S))
        print("ok: a silent client is closed after %.1f s and does not hold up scrapes" % waited)

        cfg = os.path.join(t, "prometheus.yml")
        with open(cfg, "w") as f:
            f.write("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n"
                    "  - job_name: nfsscope\n    static_configs:\n      - targets: ['127.0.0.1:%d']\n" % port)
        prom = subprocess.Popen(["prometheus", "--config.file=" + cfg, "--storage.tsdb.path=" + os.path.join(t, "db"),
                                 "--web.listen-address=127.0.0.1:%d" % pport], stdout=subprocess.DEVNULL,
                                stderr=open(os.path.join(t, "prometheus.log"), "w"))
        procs.append(prom)

        def query(q):
            url = "http://127.0.0.1:%d/api/v1/query?query=%s" % (pport, urllib.parse.quote(q))
            try:
                d = json.load(urllib.request.urlopen(url, timeout=2))
            except (urllib.error.URLError, ConnectionError, OSError):
                return None
            res = d.get("data", {}).get("result", [])
            return res[0]["value"][1] if res else None

        wait_for("Prometheus: up{job=\"nfsscope\"} == 1", lambda: query('up{job="nfsscope"}') == "1", 30)
        got = wait_for("Prometheus: the NULL calls", lambda: query('sum(nfsscope_rpc_calls_total{op="NULL"})'), 15)
        if float(got) != CALLS:
            fail("Prometheus reads %s NULL calls, sent %d" % (got, CALLS))
        drops = query('sum(nfsscope_capture_drops_total{job="nfsscope"})')
        hist = query('sum(nfsscope_memory_bytes{job="nfsscope"}) > 0')
        if drops is None or hist is None:
            fail("Prometheus lacks nfsscope_capture_drops_total or nfsscope_memory_bytes")
        # "Not analysed": every cause scraped, none lost on a clean loopback capture
        causes = query('count(nfsscope_not_analysed_total{job="nfsscope"})')
        lost = query('sum(nfsscope_not_analysed_total{job="nfsscope",lost="true"})')
        if causes is None or int(causes) < 20 or lost != "0":
            fail("Prometheus reads %s not-analysed causes, %s lost (want >= 20 causes, 0 lost)" % (causes, lost))
        print("ok: Prometheus scraped nfsscope: up 1, %s NULL calls, drops %s" % (got, drops))

        ns.send_signal(signal.SIGINT)
        rc = ns.wait(timeout=20)
        if rc != 0:
            fail("nfsscope exit %d after SIGINT: %s" % (rc, open(os.path.join(t, "err")).read()))
        page = open(os.path.join(t, "live.html")).read()
        # nobody answers: nothing to chart, the pair's sentence says so (doc/html-report.md)
        if "nfsscope post-mortem: lo" not in page or "%d calls, no reply timed" % CALLS not in page:
            fail("no page written at the end of the live capture (%s)" % os.path.join(t, "live.html"))
        p = open(os.path.join(t, "live.prom")).read()
        if value(p, "nfsscope_rpc_calls_total", op="NULL") != CALLS:
            fail("live.prom does not count the %d calls" % CALLS)
        r = subprocess.run(["promtool", "check", "metrics"], input=p, capture_output=True, text=True)
        if r.returncode != 0:
            fail("promtool check metrics on live.prom: %s" % r.stdout)
        print("ok: SIGINT: exit 0, page and .prom of the live capture written")
        print("PASS")
        return 0
    finally:
        for pr in procs:
            if pr.poll() is None:
                pr.kill()
                pr.wait()
        shutil.rmtree(t, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
