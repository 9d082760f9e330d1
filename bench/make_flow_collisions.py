#!/usr/bin/env python3
"""Flows crafted to share one chain of an unkeyed flow hash (issue 22): what
an attacker who knows the hash can put on the wire to slow the analysis.

    make_flow_collisions.py OUT.pcap [FLOWS] [ROUNDS] [--plain]

FLOWS (default 4000) IPv6 TCP connections to [fd00::1]:2049, each carrying
ROUNDS (default 10) NFSv3 NULL calls and their replies, sent round robin
(one message per connection in turn, so no lookup finds the flow it found
last). The clients' addresses are chosen so that every flow key hashes to
the same 64-bit value under the hash nfsscope used before its key was
seeded (stream/flow.c hash_key with a zero seed): all of them fall in one
bucket whatever the table's size. --plain writes the same traffic from
ordinary addresses (fd01::N), the baseline.

The key is hashed as five little-endian 64-bit words: (proto, family, the
two ports, pad), then the lower address, then the higher one. The server
address is lower, so the client's address is words 3 and 4: word 3 is
free, word 4 is solved for (each mixing step is invertible).
"""
import os
import struct
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "gen"))

import rpcbuild as R  # noqa: E402
from netbuild import ACK, IPPROTO_TCP, PSH, T0_NS, ipv6, tcp_header  # noqa: E402
from pcapwriter import LINKTYPE_RAW, PcapWriter, Record  # noqa: E402

M64 = (1 << 64) - 1
MUL = 0xff51afd7ed558ccd
MUL_INV = pow(MUL, -1, 1 << 64)
START = 0x9e3779b97f4a7c15
SERVER = bytes.fromhex("fd000000000000000000000000000001")
TARGET = 0x5eed5eed00000000  # the hash every crafted key gets


def mix(h, w):
    h = ((h ^ w) * MUL) & M64
    return h ^ (h >> 32)


def unmix_input(y):
    """The x with mix(0, x) == y: undo the xor-shift, then the multiply."""
    z = y ^ (y >> 32)
    return (z * MUL_INV) & M64


def colliding_client(i, cport):
    """A client address above SERVER whose flow key hashes to TARGET."""
    w0 = 6 | 6 << 8 | 2049 << 16 | cport << 32  # proto, family, port[0]=server, port[1]=client, pad
    sw = struct.unpack("<QQ", SERVER)
    h = START
    for w in (w0, sw[0], sw[1]):
        h = mix(h, w)
    w3 = struct.unpack("<Q", b"\xfe\x80" + struct.pack(">IH", i, 0))[0]  # fe80:....: above fd00::
    h = mix(h, w3)
    w4 = unmix_input(TARGET) ^ h
    addr = struct.pack("<QQ", w3, w4)
    assert addr > SERVER
    k = START
    for w in (w0, sw[0], sw[1], w3, w4):
        k = mix(k, w)
    assert k == TARGET
    return addr


def plain_client(i):
    return bytes.fromhex("fd01") + bytes(10) + struct.pack(">I", i + 1)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    plain = "--plain" in sys.argv
    if not args:
        sys.exit(__doc__)
    out = args[0]
    flows = int(args[1]) if len(args) > 1 else 4000
    rounds = int(args[2]) if len(args) > 2 else 10
    cport = 40000
    w = PcapWriter(LINKTYPE_RAW, snaplen=262144, nsec=True)
    clients = [plain_client(i) if plain else colliding_client(i, cport) for i in range(flows)]
    seq = [[0x11000000, 0x22000000] for _ in range(flows)]
    ts = T0_NS
    n = 0
    with open(out, "wb") as f:
        f.write(w.header())
        for r in range(rounds):
            for i, c in enumerate(clients):
                call = R.rpc_call(0x10000000 + r * flows + i, R.nfs3_call("NULL"))
                msgs = (R.record(call), R.record(R.rpc_reply(call, R.nfs3_res("NULL"))))
                for d in (0, 1):
                    src, dst = (c, SERVER) if d == 0 else (SERVER, c)
                    sp, dp = (cport, 2049) if d == 0 else (2049, cport)
                    s = seq[i]
                    seg = tcp_header(src, dst, sp, dp, s[d], s[d ^ 1], PSH | ACK, msgs[d])
                    s[d] = (s[d] + len(msgs[d])) & 0xFFFFFFFF
                    ts += 5_000
                    f.write(w.record_bytes(Record(ts, ipv6(src, dst, IPPROTO_TCP, seg))))
                    n += 1
    print("%s: %d frames, %d flows (%s)" % (out, n, flows, "plain" if plain else "one hash chain"))


if __name__ == "__main__":
    main()
