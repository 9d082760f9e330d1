"""Capture file writers (pcap, pcapng) and link-layer encapsulations.

Everything is built in memory and written with save(); timestamps are integer
nanoseconds since the epoch so that files are byte-for-byte deterministic.

    w = PcapWriter(LINKTYPE_ETHERNET, nsec=False, snaplen=65535)
    w.add(ts_ns, frame_bytes)                 # caplen = min(len, snaplen)
    w.add(ts_ns, frame_bytes, caplen=200)     # this packet truncated to 200
    w.save(path)                              # whole file
    w.save(path, cut=37)                      # file ends 37 bytes early

Link-layer helpers turn a network-layer packet into a frame for a link type:
ether(), sll(), sll2(), raw(), null(), loop(); wrap_l3(linktype, ...) picks
one from the IP version so scenarios can be written once and rendered on any
link type.
"""
import struct

LINKTYPE_NULL = 0
LINKTYPE_ETHERNET = 1
LINKTYPE_RAW = 101
LINKTYPE_LOOP = 108
LINKTYPE_LINUX_SLL = 113
LINKTYPE_LINUX_SLL2 = 276

ETH_P_IP = 0x0800
ETH_P_IPV6 = 0x86DD
ETH_P_8021Q = 0x8100
ETH_P_8021AD = 0x88A8

# BSD AF_ values used by DLT_NULL / DLT_LOOP.
AF_INET = 2
AF_INET6_BSD = 24      # NetBSD/OpenBSD; tshark also knows 28 and 30

PCAP_MAGIC_USEC = 0xA1B2C3D4
PCAP_MAGIC_NSEC = 0xA1B23C4D


class Record:
    """One packet record: timestamp (ns), the bytes on the wire, caplen."""
    __slots__ = ("ts_ns", "data", "caplen", "comment")

    def __init__(self, ts_ns, data, caplen=None, comment=None):
        self.ts_ns = int(ts_ns)
        self.data = bytes(data)
        self.caplen = len(self.data) if caplen is None else min(int(caplen), len(self.data))
        self.comment = comment

    @property
    def wirelen(self):
        return len(self.data)


class _Writer:
    def __init__(self, linktype, snaplen=262144):
        self.linktype = linktype
        self.snaplen = snaplen
        self.records = []

    def add(self, ts_ns, data, caplen=None, comment=None):
        """Append a packet; returns its 1-based frame number."""
        if caplen is None:
            caplen = min(len(data), self.snaplen)
        self.records.append(Record(ts_ns, data, caplen, comment))
        return len(self.records)

    def __len__(self):
        return len(self.records)

    def getvalue(self):
        raise NotImplementedError

    def save(self, path, cut=0):
        """Write the file; cut > 0 drops that many bytes from its end
        (a capture cut off in the middle of the last packet)."""
        b = self.getvalue()
        if cut:
            b = b[:-cut]
        with open(path, "wb") as f:
            f.write(b)


class PcapWriter(_Writer):
    """Classic libpcap format, little-endian, usec or nsec resolution."""

    def __init__(self, linktype, snaplen=262144, nsec=False):
        super().__init__(linktype, snaplen)
        self.nsec = nsec

    def header(self):
        magic = PCAP_MAGIC_NSEC if self.nsec else PCAP_MAGIC_USEC
        return struct.pack("<IHHiIII", magic, 2, 4, 0, 0, self.snaplen, self.linktype)

    def record_bytes(self, r):
        sec, ns = divmod(r.ts_ns, 1_000_000_000)
        frac = ns if self.nsec else ns // 1000
        return struct.pack("<IIII", sec, frac, r.caplen, r.wirelen) + r.data[:r.caplen]

    def record_offsets(self):
        """(start, end) byte offsets of each record in the file."""
        out, pos = [], 24
        for r in self.records:
            n = 16 + r.caplen
            out.append((pos, pos + n))
            pos += n
        return out

    def getvalue(self):
        return self.header() + b"".join(self.record_bytes(r) for r in self.records)


def _pad4(b):
    return b + b"\0" * (-len(b) % 4)


def _opt(code, value):
    return struct.pack("<HH", code, len(value)) + _pad4(value)


class PcapngWriter(_Writer):
    """pcapng: one SHB, one IDB (if_tsresol 6 or 9), one EPB per packet."""

    def __init__(self, linktype, snaplen=262144, nsec=False, ifname=b"eth0", hardware=None):
        super().__init__(linktype, snaplen)
        self.nsec = nsec
        self.ifname = ifname
        self.hardware = hardware

    @staticmethod
    def _block(btype, body):
        total = 12 + len(body)
        return struct.pack("<II", btype, total) + body + struct.pack("<I", total)

    def header(self):
        opts = b""
        if self.hardware:
            opts += _opt(2, self.hardware)       # shb_hardware
        opts += _opt(4, b"nfsscope tests/gen")   # shb_userappl
        opts += struct.pack("<HH", 0, 0)
        shb = self._block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1) + opts)
        iopts = _opt(2, self.ifname)             # if_name
        iopts += _opt(9, bytes([9 if self.nsec else 6]))  # if_tsresol
        iopts += struct.pack("<HH", 0, 0)
        idb = self._block(0x00000001, struct.pack("<HHI", self.linktype, 0, self.snaplen) + iopts)
        return shb + idb

    def record_bytes(self, r):
        units = r.ts_ns if self.nsec else r.ts_ns // 1000
        body = struct.pack("<IIIII", 0, units >> 32, units & 0xFFFFFFFF, r.caplen, r.wirelen)
        body += _pad4(r.data[:r.caplen])
        if r.comment:
            body += _opt(1, r.comment.encode()) + struct.pack("<HH", 0, 0)
        return self._block(0x00000006, body)

    def getvalue(self):
        return self.header() + b"".join(self.record_bytes(r) for r in self.records)


# ---------------------------------------------------------------- link layers

MAC_CLIENT = bytes.fromhex("02774d000001")
MAC_SERVER = bytes.fromhex("02774d000002")


def ether(payload, ethertype, src=MAC_CLIENT, dst=MAC_SERVER, vlans=()):
    """Ethernet II frame.  vlans: sequence of (tpid, tci) from outer to inner,
    e.g. [(0x88a8, 100), (0x8100, 20)] for QinQ."""
    hdr = dst + src
    for tpid, tci in vlans:
        hdr += struct.pack(">HH", tpid, tci)
    return hdr + struct.pack(">H", ethertype) + payload


def sll(payload, proto, pkttype=0, addr=MAC_CLIENT, hatype=1):
    """Linux cooked v1 (LINKTYPE_LINUX_SLL, 16-byte header).
    pkttype: 0 to us, 4 outgoing."""
    a = addr[:8]
    return struct.pack(">HHH", pkttype, hatype, len(a)) + a.ljust(8, b"\0") + struct.pack(">H", proto) + payload


def sll2(payload, proto, pkttype=0, addr=MAC_CLIENT, ifindex=2, hatype=1):
    """Linux cooked v2 (LINKTYPE_LINUX_SLL2, 20-byte header)."""
    a = addr[:8]
    return (struct.pack(">HHIHBB", proto, 0, ifindex, hatype, pkttype, len(a))
            + a.ljust(8, b"\0") + payload)


def raw(payload):
    return payload


def null(payload, af, byteorder="<"):
    """DLT_NULL: 4-byte AF value in the *capturing host's* byte order."""
    return struct.pack(byteorder + "I", af) + payload


def loop(payload, af):
    """DLT_LOOP (OpenBSD): 4-byte AF value in network byte order."""
    return struct.pack(">I", af) + payload


def wrap_l3(linktype, l3, from_client=True, vlans=(), null_byteorder="<"):
    """Encapsulate an IPv4/IPv6 packet for the given link type."""
    v6 = (l3[0] >> 4) == 6
    proto = ETH_P_IPV6 if v6 else ETH_P_IP
    af = AF_INET6_BSD if v6 else AF_INET
    src, dst = (MAC_CLIENT, MAC_SERVER) if from_client else (MAC_SERVER, MAC_CLIENT)
    if linktype == LINKTYPE_ETHERNET:
        return ether(l3, proto, src=src, dst=dst, vlans=vlans)
    if linktype == LINKTYPE_LINUX_SLL:
        return sll(l3, proto, pkttype=4 if from_client else 0, addr=src)
    if linktype == LINKTYPE_LINUX_SLL2:
        return sll2(l3, proto, pkttype=4 if from_client else 0, addr=src)
    if linktype == LINKTYPE_RAW:
        return raw(l3)
    if linktype == LINKTYPE_NULL:
        return null(l3, af, null_byteorder)
    if linktype == LINKTYPE_LOOP:
        return loop(l3, af)
    raise ValueError("unsupported link type %r" % linktype)
