#!/usr/bin/env python3
"""Adversarial "flood" captures: valid input that tries to make nfsscope grow
without bound or slow down. Built with the same library as the edge-case
captures (netbuild, rpcbuild, pcapwriter) and streamed to disk, so a million
packets never sit in memory.

    make_flood_captures.py OUTDIR N [NAME...]     write NAME.pcap for each flood
    make_flood_captures.py --list                 flood names

N is the packet (or flow, or call) count of each flood; tests use 100000,
bench/floods.sh 1000000. Deterministic: fixed addresses, ISNs, XIDs, times.

| flood | what |
|---|---|
| syn_flood | N SYNs to port 2049, each from its own address:port (N flows) |
| unanswered_calls | one connection, N NFSv3 GETATTR calls, no reply ever |
| huge_record_marks | N segments whose record mark claims 2 GiB, each followed by a call |
| zero_fragments | N segments of zero-length non-last record fragments (endless record) |
| ip_fragments | N IPv4 fragments: never-completed trains, duplicates, overlaps |
| seq_wraparound | N/2 WRITE calls of 60 KB (snaplen 200) + replies: N = 1M wraps the sequence 7 times |
| time_backwards | N/2 calls + replies whose timestamps keep jumping backwards |
| xid_reuse | N calls, all with one XID but different procedures, some replies |
| session_many_conns | N/6 connections (handshake, SEQUENCE call + reply, FIN) on one session |
"""
import ipaddress
import os
import struct
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import rpcbuild as R  # noqa: E402
from netbuild import ACK, FIN, IPPROTO_TCP, IPPROTO_UDP, PSH, SYN, T0_NS, ipv4, tcp_header  # noqa: E402
from pcapwriter import LINKTYPE_ETHERNET, LINKTYPE_RAW, PcapWriter, Record, wrap_l3  # noqa: E402

SERVER = "10.88.0.1"
CLIENT = "10.88.1.2"


class Out:
    """A pcap written record by record (raw IP link type, or Ethernet)."""

    def __init__(self, path, snaplen=262144, linktype=LINKTYPE_RAW):
        self.linktype = linktype
        self.w = PcapWriter(linktype, snaplen=snaplen, nsec=True)
        self.f = open(path, "wb")
        self.f.write(self.w.header())
        self.ts = T0_NS
        self.n = 0

    def add(self, pkt, caplen=None, dt=10_000):
        self.ts += dt
        if self.linktype != LINKTYPE_RAW:
            pkt = wrap_l3(self.linktype, pkt)
        self.f.write(self.w.record_bytes(Record(self.ts, pkt, caplen)))
        self.n += 1

    def add_cut(self, head, wirelen, dt=10_000):
        """A frame of wirelen bytes of which only head was captured (raw IP only)."""
        assert self.linktype == LINKTYPE_RAW
        self.ts += dt
        sec, ns = divmod(self.ts, 1_000_000_000)
        self.f.write(struct.pack("<IIII", sec, ns, len(head), wirelen) + head)
        self.n += 1

    def close(self):
        self.f.close()


def ip_of(i, base=(10, 90)):
    return "%d.%d.%d.%d" % (base[0], base[1] + (i >> 16 & 0x3F), i >> 8 & 255, i & 255)


class Conn:
    """A TCP connection that writes whole segments straight to the file."""

    def __init__(self, out, caddr, cport, saddr=SERVER, sport=2049, isn=(0x11000000, 0x22000000)):
        self.out = out
        self.addr = (caddr, saddr)
        self.port = (cport, sport)
        self.seq = [x & 0xFFFFFFFF for x in isn]
        self.packed = (ipaddress.ip_address(caddr).packed, ipaddress.ip_address(saddr).packed)

    def seg(self, d, payload=b"", flags=PSH | ACK, wire=None, caplen=None, dt=10_000):
        """Send payload from direction d (0 client, 1 server). wire: bytes on
        the wire when only the first len(payload) were captured."""
        n = len(payload) if wire is None else wire
        pkt = (template(flags, len(payload))[:12] + self.packed[d] + self.packed[d ^ 1]
               + struct.pack(">HHII", self.port[d], self.port[d ^ 1], self.seq[d], self.seq[d ^ 1])
               + template(flags, len(payload))[32:40] + payload)
        if wire is None:
            self.out.add(pkt, dt=dt)
        else:  # only the head was captured: the lengths say how long it was
            pkt = pkt[:2] + struct.pack(">H", len(pkt) + n - len(payload)) + pkt[4:]
            self.out.add_cut(pkt, len(pkt) + n - len(payload), dt=dt)
        self.seq[d] = (self.seq[d] + n + (1 if flags & (SYN | FIN) else 0)) & 0xFFFFFFFF

    def handshake(self):
        self.seg(0, flags=SYN)
        self.seg(1, flags=SYN | ACK)
        self.seg(0, flags=ACK)

    def close(self):
        self.seg(0, flags=FIN | ACK)
        self.seg(1, flags=FIN | ACK)


_TEMPLATES = {}


def template(flags, n):
    """An IPv4+TCP packet built by the library for a payload of n bytes; seg()
    patches addresses, ports, sequence numbers and payload into a copy. The
    checksums are those of the template (nfsscope does not verify them), which
    keeps a million packets a matter of seconds."""
    key = (flags, n)
    if key not in _TEMPLATES:
        l4 = tcp_header(SERVER, CLIENT, 1, 2, 0, 0, flags, b"\0" * n)
        _TEMPLATES[key] = ipv4(SERVER, CLIENT, IPPROTO_TCP, l4)
    return _TEMPLATES[key]


def getattr_call(xid, n=1):
    return R.record(R.rpc_call(xid, R.nfs3_call("GETATTR", R.nfs3_getattr_args(R.fh3(n)))))


def getattr_reply(xid):
    call = R.rpc_call(xid, R.nfs3_call("GETATTR", R.nfs3_getattr_args(R.fh3(1))))
    return R.record(R.rpc_reply(call, R.nfs3_res("GETATTR", body=R.fattr3(1))))


def with_xid(rec, xid):
    return rec[:4] + struct.pack(">I", xid & 0xFFFFFFFF) + rec[8:]


FLOODS = {}


def flood(fn):
    FLOODS[fn.__name__] = fn
    return fn


@flood
def syn_flood(out, n):
    for i in range(n):
        Conn(out, ip_of(i), 1024 + i % 60000, isn=(i * 7919, 0)).seg(0, flags=SYN, dt=1_000)


@flood
def unanswered_calls(out, n):
    c = Conn(out, CLIENT, 801)
    c.handshake()
    tmpl = getattr_call(0)
    for i in range(n):
        c.seg(0, with_xid(tmpl, 0x10000000 + i), dt=1_000)


@flood
def huge_record_marks(out, n):
    c = Conn(out, CLIENT, 802)
    c.handshake()
    call = getattr_call(0)
    for i in range(n):
        # last-fragment bit + 0x7fffffff: a record of 2 GiB, then a real call
        c.seg(0, struct.pack(">I", 0xFFFFFFFF) + with_xid(call, i), dt=1_000)


@flood
def zero_fragments(out, n):
    c = Conn(out, CLIENT, 803)
    c.handshake()
    c.seg(0, getattr_call(1))
    c.seg(1, getattr_reply(1))
    zeros = b"\0" * 256  # 64 empty, non-last fragments per segment
    for _ in range(n):
        c.seg(0, zeros, dt=1_000)


@flood
def ip_fragments(out, n):
    call = R.rpc_call(7, R.nfs3_call("WRITE", R.nfs3_write_args(R.fh3(1), 0, b"w" * 400)))
    udp = struct.pack(">HHHH", 803, 2049, 8 + len(call.data), 0) + call.data
    kinds = [
        ipv4(CLIENT, SERVER, IPPROTO_UDP, udp[:296], mf=True),  # head of a train never completed
        ipv4(CLIENT, SERVER, IPPROTO_UDP, udp[:296], mf=True),  # the same again (duplicate)
        ipv4(CLIENT, SERVER, IPPROTO_UDP, udp[8:304], mf=True, frag_off=8),  # overlapping it
        ipv4(CLIENT, SERVER, IPPROTO_UDP, udp[296:400], mf=True, frag_off=296),  # headless middle
    ]
    for i in range(n):
        k = i % 4
        ident = (i // 4 + (0x8000 if k == 3 else 0)) & 0xFFFF
        pkt = kinds[k]
        out.add(pkt[:4] + struct.pack(">H", ident) + pkt[6:], dt=1_000)


@flood
def seq_wraparound(out, n):
    c = Conn(out, CLIENT, 804, isn=(0xFFFF0000, 0xFFFFFF00))
    c.handshake()
    data = b"x" * 60000
    call = R.rpc_call(0, R.nfs3_call("WRITE", R.nfs3_write_args(R.fh3(1), 0, data)))
    rec = R.record(call)
    head = rec[:160]  # with the IP and TCP headers: a 200-byte snaplen
    res = R.record(R.rpc_reply(call, R.nfs3_res("WRITE", body=R.nfs3_write_res_ok(len(data)))))
    for i in range(n // 2):
        c.seg(0, with_xid(head, i), wire=len(rec), dt=1_000)
        c.seg(1, with_xid(res, i), dt=1_000)


@flood
def time_backwards(out, n):
    c = Conn(out, CLIENT, 805)
    c.handshake()
    call, res = getattr_call(0), getattr_reply(0)
    for i in range(n // 2):
        # every other pair steps an hour back, the others 1 ms forward
        c.seg(0, with_xid(call, i), dt=-3_600_000_000_000 if i % 2 else 1_000_000)
        c.seg(1, with_xid(res, i), dt=-7 if i % 3 else 3)


@flood
def xid_reuse(out, n):
    c = Conn(out, CLIENT, 806)
    c.handshake()
    procs = ["GETATTR", "ACCESS", "LOOKUP", "READ", "COMMIT", "FSINFO"]
    fh = R.fh3(1)
    args = {"GETATTR": R.nfs3_getattr_args(fh), "ACCESS": R.nfs3_access_args(fh),
            "LOOKUP": R.nfs3_lookup_args(fh, "name"), "READ": R.nfs3_read_args(fh, 0, 4096),
            "COMMIT": R.nfs3_commit_args(fh), "FSINFO": R.nfs3_fsinfo_args(fh)}
    calls = [R.record(R.rpc_call(0x5eed, R.nfs3_call(p, args[p]))) for p in procs]
    reply = getattr_reply(0x5eed)
    for i in range(n):
        if i % 10 == 9:
            c.seg(1, reply, dt=1_000)
        else:
            c.seg(0, calls[i % len(calls)], dt=1_000)


@flood
def session_many_conns(out, n):
    sid = bytes.fromhex("0a0000002cf10f6b0100000000000000")
    call = R.rpc_call(0, R.compound([R.op_sequence(sid, 1, 0, 15), R.op_putrootfh(), R.op_getattr()]))
    res = R.rpc_reply(call, R.compound_res([
        R.OpRes("SEQUENCE", data=sid + R.u32(1) + R.u32(0) + R.u32(15) + R.u32(15) + R.u32(0),
                seqres=(15, 15)),
        R.OpRes("PUTROOTFH"), R.OpRes("GETATTR", data=R.std_attrs(1))]))
    crec, rrec = R.record(call), R.record(res)
    for i in range(max(1, n // 6)):
        c = Conn(out, ip_of(i, (10, 91)), 700 + i % 300, isn=(i * 104729, i * 7))
        c.handshake()
        c.seg(0, with_xid(crec, i))
        c.seg(1, with_xid(rrec, i))
        # no close for one in four: those connections stay open
        if i % 4:
            c.close()


def main():
    if sys.argv[1:] == ["--list"]:
        print("\n".join(FLOODS))
        return
    outdir, n = sys.argv[1], int(sys.argv[2])
    names = sys.argv[3:] or list(FLOODS)
    os.makedirs(outdir, exist_ok=True)
    for name in names:
        out = Out(os.path.join(outdir, name + ".pcap"))
        FLOODS[name](out, n)
        out.close()


if __name__ == "__main__":
    main()
