#!/usr/bin/env python3
"""--metrics under hostile clients (issue 22), scraped by a real Prometheus.

Usage: metrics_hostile.py NFSSCOPE [SECONDS]

As root (else 77): nfsscope -i lo --batch --metrics :PORT. First a scrape
over 127.0.0.1 and one over [::1] (":PORT" is every address, both families).
Then Prometheus (Debian package, scrape interval 1 s, hence a 1 s scrape
timeout) scrapes both addresses for SECONDS (default 20) while this script
scrapes 4 times a second, alternating the families, and
  - first half: 8 clients trickle a request over IPv4, one byte every 2 s
    (the lockout of issue 22: every slot held, each byte resetting the
    idle timer), reconnecting when closed;
  - second half, on top: 2 more over IPv4 and 2 over IPv6 (more clients
    than the 8 slots); 2 clients per family connect and say nothing; a
    client sends a 64 KiB header line, another a 16 KiB request line; a
    client per family sends a whole request and never reads the answer
    (tiny receive buffer).
Checks: Prometheus's `up` is 1 for both targets at every scrape of the
window (min_over_time, and as many samples as seconds); every scrape of
this script answered 200; no trickling or silent client lives longer than
the request deadline (5 s from accept, METRICS_HTTP_DEADLINE_MS) plus
1.5 s; every huge request is refused with 431 (or 400) and closed. Prints
the longest time without a successful scrape (the lockout) in each half
whatever happens; exit 1 on any failed check, after all of them ran.
"""
import errno
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

DEADLINE_S = 5  # METRICS_HTTP_DEADLINE_MS
SLACK_S = 1.5   # the capture loop polls the endpoint at least every 200 ms
problems = []


def problem(msg):
    print("FAIL: " + msg)
    problems.append(msg)


def free_port():
    """A port free on both families (a dual-stack socket asks for it)."""
    s = socket.socket(socket.AF_INET6)
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    s.bind(("::", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def fam(host):
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def connect(host, port, timeout=2, rcvbuf=None):
    s = socket.socket(fam(host), socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(timeout)
    s.connect((host, port))
    return s


def exchange(host, port, raw, timeout=1.0):
    """Send raw, read to EOF: (status line, body, seconds). Raises OSError."""
    t0 = time.time()
    s = connect(host, port, timeout)
    try:
        try:
            s.sendall(raw)
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused mid-send: the answer may still be there
        data = b""
        while True:
            try:
                b = s.recv(65536)
            except ConnectionResetError:
                break
            if not b:
                break
            data += b
    finally:
        s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return head.split(b"\r\n")[0].decode(errors="replace"), body, time.time() - t0


SCRAPE = b"GET /metrics HTTP/1.1\r\nHost: nfsscope\r\nAccept: text/plain\r\n\r\n"


class Hostiles:
    def __init__(self, port):
        self.port = port
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.lifetimes = []   # (kind, family, seconds) of connections the server closed
        self.refused = []     # (kind, status, seconds to close)
        self.scrapes = []     # (time, host, ok, seconds, status)
        self.connect_errors = {}
        self.threads = []

    def note_connect_error(self, host, e):
        with self.lock:
            k = "%s %s" % (host, type(e).__name__)
            self.connect_errors[k] = self.connect_errors.get(k, 0) + 1
        self.stop.wait(0.2)

    def start(self, fn, *args):
        t = threading.Thread(target=fn, args=args, daemon=True)
        t.start()
        self.threads.append(t)

    def held(self, kind, host, trickle):
        """Connect, trickle a never-ending request (or nothing), until the server closes."""
        req = b"GET /metrics HTTP/1.1\r\nHost: nfsscope\r\nX-Slow: " + b"a" * 4000
        while not self.stop.is_set():
            try:
                s = connect(host, self.port)
            except OSError as e:
                self.note_connect_error(host, e)
                continue
            t0 = time.time()
            i, closed = 0, False
            while not self.stop.is_set() and not closed:
                if trickle:
                    try:
                        s.send(req[i:i + 1])
                        i = (i + 1) % len(req)
                    except OSError:
                        closed = True
                        break
                r, _, _ = select.select([s], [], [], 2.0 if trickle else 0.5)
                if r:
                    try:
                        closed = s.recv(4096) == b""  # data: an answer, then EOF
                        if not closed:
                            closed = True
                    except OSError:
                        closed = True
            if closed:
                with self.lock:
                    self.lifetimes.append((kind, host, time.time() - t0))
            s.close()
            self.stop.wait(0.1)

    def huge(self, kind, host, raw):
        while not self.stop.is_set():
            try:
                st, body, dt = exchange(host, self.port, raw, timeout=DEADLINE_S + 3)
            except socket.timeout:
                st, dt = "timeout", DEADLINE_S + 3
            except OSError as e:
                if e.errno == errno.ECONNREFUSED:
                    self.note_connect_error(host, e)
                    continue
                st, dt = type(e).__name__, 0
            with self.lock:
                self.refused.append((kind, st, dt))
            self.stop.wait(0.5)

    def deaf(self, host):
        """A whole request, then never read (the answer fills a tiny receive buffer)."""
        while not self.stop.is_set():
            try:
                s = connect(host, self.port, rcvbuf=1024)
                s.sendall(SCRAPE)
            except OSError as e:
                self.note_connect_error(host, e)
                continue
            self.stop.wait(DEADLINE_S + 1)
            s.close()

    def scraper(self, hosts):
        k = 0
        while not self.stop.is_set():
            host = hosts[k % len(hosts)]
            k += 1
            t = time.time()
            try:
                st, body, dt = exchange(host, self.port, SCRAPE, timeout=2.0)  # Prometheus holds the 1 s bar
                ok = st.startswith("HTTP/1.1 200") and b"nfsscope_capture_frames_total" in body
            except OSError as e:
                st, ok, dt = type(e).__name__, False, time.time() - t
            with self.lock:
                self.scrapes.append((t, host, ok, dt, st))
            self.stop.wait(max(0.0, 0.25 - (time.time() - t)))


def longest_gap(scrapes, t_start, t_end):
    """The longest time between t_start and t_end without a successful scrape
    ending (the lockout)."""
    last, gap = t_start, 0.0
    for t, _, ok, dt, _ in sorted(scrapes):
        if ok:
            gap = max(gap, t + dt - last)
            last = t + dt
    return max(gap, t_end - last)


def main():
    nfsscope = sys.argv[1]
    seconds = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    if os.geteuid() != 0:
        print("SKIP: live capture needs root")
        return 77
    if not shutil.which("prometheus"):
        print("SKIP: prometheus not installed (scripts/deps.sh installs the prometheus package)")
        return 77
    if not socket.has_ipv6 or not os.path.exists("/proc/net/if_inet6"):
        print("SKIP: no IPv6 on this host")
        return 77
    os.environ["ASAN_OPTIONS"] = (os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
    t = tempfile.mkdtemp(prefix="nfsscope-hostile-")
    port, pport = free_port(), free_port()
    procs = []
    try:
        errf = os.path.join(t, "err")
        ns = subprocess.Popen([nfsscope, "-i", "lo", "--batch", "--metrics", ":%d" % port, "-o", os.path.join(t, "report.txt"),
                               "udp", "port", "2049"], stderr=open(errf, "w"))
        procs.append(ns)
        end = time.time() + 10
        while "metrics at" not in open(errf).read():
            if time.time() > end or ns.poll() is not None:
                print("FAIL: nfsscope did not start: " + open(errf).read())
                return 1
            time.sleep(0.1)
        print([ln for ln in open(errf).read().splitlines() if "metrics at" in ln][0])

        for host in ("127.0.0.1", "::1"):
            try:
                st, body, dt = exchange(host, port, SCRAPE, timeout=2)
            except OSError as e:
                st = type(e).__name__
            if not st.startswith("HTTP/1.1 200"):
                problem("--metrics :%d, a scrape over %s: %s" % (port, host, st))
            else:
                print("ok: --metrics :PORT answers over %s" % host)

        cfg = os.path.join(t, "prometheus.yml")
        with open(cfg, "w") as f:
            f.write("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n"
                    "  - job_name: nfsscope\n    static_configs:\n"
                    "      - targets: ['127.0.0.1:%d', '[::1]:%d']\n" % (port, port))
        prom = subprocess.Popen(["prometheus", "--config.file=" + cfg, "--storage.tsdb.path=" + os.path.join(t, "db"),
                                 "--web.listen-address=127.0.0.1:%d" % pport], stdout=subprocess.DEVNULL,
                                stderr=open(os.path.join(t, "prometheus.log"), "w"))
        procs.append(prom)

        def query(q, at=None):
            args = {"query": q}
            if at:
                args["time"] = "%.3f" % at
            url = "http://127.0.0.1:%d/api/v1/query?%s" % (pport, urllib.parse.urlencode(args))
            try:
                d = json.load(urllib.request.urlopen(url, timeout=2))
            except (urllib.error.URLError, ConnectionError, OSError):
                return None
            return {r["metric"].get("instance", ""): float(r["value"][1]) for r in d.get("data", {}).get("result", [])}

        end = time.time() + 30
        while True:
            ups = query('up{job="nfsscope"}') or {}
            if len(ups) == 2 and all(v == 1 for v in ups.values()):
                break
            if time.time() > end:
                problem("Prometheus: up is not 1 for both targets before the test (%r)" % ups)
                break
            time.sleep(0.3)
        time.sleep(1.1)  # a whole scrape interval with up == 1 before the window

        h = Hostiles(port)
        t0 = time.time()
        h.start(h.scraper, ["127.0.0.1", "::1"])
        for i in range(8):
            h.start(h.held, "trickle", "127.0.0.1", True)
        time.sleep(seconds / 2)
        t_half = time.time()
        for i in range(2):
            h.start(h.held, "trickle", "127.0.0.1", True)
            h.start(h.held, "trickle", "::1", True)
            h.start(h.held, "silent", "::1", False)
            h.start(h.held, "silent", "127.0.0.1", False)
        h.start(h.huge, "64 KiB header", "127.0.0.1",
                b"GET /metrics HTTP/1.1\r\nHost: nfsscope\r\nX-Big: " + b"b" * 65536 + b"\r\n\r\n")
        h.start(h.huge, "16 KiB request line", "::1", b"GET /metrics?" + b"q" * 16384 + b" HTTP/1.1\r\n\r\n")
        h.start(h.deaf, "127.0.0.1")
        h.start(h.deaf, "::1")
        time.sleep(seconds - seconds / 2)
        t1 = time.time()
        h.stop.set()
        for th in h.threads:
            th.join(timeout=DEADLINE_S + 5)
        window = int(t1 - t0)

        # what this script saw
        ok = [s for s in h.scrapes if s[2]]
        print("scrapes by this script: %d, %d answered 200, slowest %.3f s" %
              (len(h.scrapes), len(ok), max([s[3] for s in ok] or [0])))
        for name, a, b in (("8 trickling clients", t0, t_half), ("everything", t_half, t1)):
            print("longest time without a successful scrape, %s (%.0f s): %.1f s" %
                  (name, b - a, longest_gap([x for x in h.scrapes if a <= x[0] < b], a, b)))
        bad = [s for s in h.scrapes if not s[2]]
        if bad:
            problem("%d of %d scrapes failed, first: %s over %s after %.1f s" %
                    (len(bad), len(h.scrapes), bad[0][4], bad[0][1], bad[0][0] - t0))
        if h.connect_errors:
            problem("connections refused or failed: %r" % h.connect_errors)
        for kind in ("trickle", "silent"):
            lt = [x[2] for x in h.lifetimes if x[0] == kind]
            print("%s clients closed by the server: %d, longest lived %.1f s" % (kind, len(lt), max(lt or [0])))
            if not lt:
                problem("no %s client was ever closed in %d s" % (kind, window))
            elif max(lt) > DEADLINE_S + SLACK_S:
                problem("a %s client lived %.1f s, deadline %d s" % (kind, max(lt), DEADLINE_S))
        for kind in ("64 KiB header", "16 KiB request line"):
            got = [x for x in h.refused if x[0] == kind]
            sts = sorted(set(x[1] for x in got))
            print("%s: %d requests, answers %s, closed within %.1f s" % (kind, len(got), sts, max([x[2] for x in got] or [0])))
            if not got or not all(("431" in x[1] or "400" in x[1]) and x[2] < 2 for x in got):
                problem("%s: answers %s, expected 431 (or 400) and a close within 2 s" % (kind, sts))

        # what Prometheus saw over the window
        time.sleep(1.5)  # the window's last scrapes stored
        rng = "[%ds]" % window
        mins = query('min_over_time(up{job="nfsscope"}%s)' % rng, t1) or {}
        counts = query('count_over_time(up{job="nfsscope"}%s)' % rng, t1) or {}
        durs = query('max_over_time(scrape_duration_seconds{job="nfsscope"}%s)' % rng, t1) or {}
        print("Prometheus over the last %d s: min(up) %r, scrapes %r, slowest %r" % (window, mins, counts, durs))
        for name, a, b in (("8 trickling clients", t0, t_half), ("everything", t_half, t1)):
            r = "[%ds]" % int(b - a)
            failed = query('count_over_time(up{job="nfsscope"}%s) - sum_over_time(up{job="nfsscope"}%s)' % (r, r), b)
            print("Prometheus's failed scrapes, %s (%d s): %r" % (name, int(b - a), failed))
        if len(mins) != 2 or any(v != 1 for v in mins.values()):
            problem("Prometheus: a failed scrape in the window (min_over_time(up) %r)" % mins)
        if len(counts) != 2 or any(v < window - 2 for v in counts.values()):
            problem("Prometheus: too few scrapes in %d s: %r" % (window, counts))

        ns.send_signal(signal.SIGINT)
        rc = ns.wait(timeout=20)
        if rc != 0:
            problem("nfsscope exit %d after SIGINT: %s" % (rc, open(errf).read()))
        if problems:
            print("FAILED: %d problem(s)" % len(problems))
            return 1
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
