"""Network and transport layers: IPv4/IPv6 (with extension headers and
fragmentation), UDP, TCP, plus the Capture timeline and the TcpConnection /
UdpFlow helpers that turn per-direction byte streams into captured packets
while remembering which frame carried which stream bytes.

Directions are 0 = client -> server and 1 = server -> client.

    cap = Capture(LINKTYPE_ETHERNET)
    c = TcpConnection(cap, "10.77.0.1", 40001, "10.77.0.2", 2049)
    c.handshake()
    off, end = c.write(0, record_bytes)   # queue stream bytes, nothing sent yet
    c.flush(0)                            # MSS-sized segments
    c.flush(0, sizes=[3, 1, 100])         # or chosen segment sizes
    c.emit(0, off, end)                   # (re)send any range: retransmission
    c.emit(0, off, end, drop=True)        # on the wire but not captured
    c.ack(1)                              # pure ACK from the server
    c.close()                             # FIN/ACK both ways
    c.stream(0).completion_frame(off, end)  # frame that completed [off,end)
"""
import ipaddress
import struct

from pcapwriter import (LINKTYPE_ETHERNET, PcapWriter, PcapngWriter, wrap_l3)

T0_NS = 1764669600 * 1_000_000_000

IPPROTO_HOPOPTS = 0
IPPROTO_TCP = 6
IPPROTO_UDP = 17
IPPROTO_IPV6_FRAG = 44
IPPROTO_DSTOPTS = 60
IPPROTO_NONE = 59

FIN, SYN, RST, PSH, ACK = 0x01, 0x02, 0x04, 0x08, 0x10


def inet_cksum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF


def _addr(a):
    return ipaddress.ip_address(a)


def is_v6(a):
    return _addr(a).version == 6


def pseudo_header(src, dst, proto, length):
    s, d = _addr(src), _addr(dst)
    if s.version == 4:
        return s.packed + d.packed + struct.pack("!BBH", 0, proto, length)
    return s.packed + d.packed + struct.pack("!IxxxB", length, proto)


# ------------------------------------------------------------------- L4

def tcp_header(src, dst, sport, dport, seq, ack, flags, payload=b"", window=65535,
               options=b""):
    options += b"\0" * (-len(options) % 4)
    off = (20 + len(options)) // 4
    hdr = struct.pack("!HHIIBBHHH", sport, dport, seq & 0xFFFFFFFF, ack & 0xFFFFFFFF,
                      off << 4, flags, window, 0, 0) + options
    seg = hdr + payload
    ck = inet_cksum(pseudo_header(src, dst, IPPROTO_TCP, len(seg)) + seg)
    return seg[:16] + struct.pack("!H", ck) + seg[18:]


def tcp_opt_mss(mss):
    return struct.pack("!BBH", 2, 4, mss)


def tcp_opt_ts(val, ecr):
    return struct.pack("!BBBBII", 1, 1, 8, 10, val, ecr)   # NOP NOP TS


def tcp_opt_syn(mss, ts=None, wscale=7):
    o = tcp_opt_mss(mss) + b"\x04\x02"          # MSS, SACK permitted
    if ts is not None:
        o += struct.pack("!BBII", 8, 10, ts[0], ts[1])
    else:
        o += b"\x01\x01"
    o += struct.pack("!BBBB", 1, 3, 3, wscale)  # NOP, window scale
    return o


def udp_datagram(src, dst, sport, dport, payload, checksum=True):
    length = 8 + len(payload)
    d = struct.pack("!HHHH", sport, dport, length, 0) + payload
    if checksum:
        ck = inet_cksum(pseudo_header(src, dst, IPPROTO_UDP, length) + d) or 0xFFFF
        d = d[:6] + struct.pack("!H", ck) + d[8:]
    return d


# ------------------------------------------------------------------- IPv4

def ipv4(src, dst, proto, payload, ident=0, ttl=64, df=False, mf=False, frag_off=0, tos=0,
         options=b""):
    """frag_off in bytes (multiple of 8)."""
    options += b"\0" * (-len(options) % 4)
    ihl = 5 + len(options) // 4
    flags = (0x4000 if df else 0) | (0x2000 if mf else 0) | (frag_off // 8)
    h = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, tos, ihl * 4 + len(payload), ident & 0xFFFF,
                    flags, ttl, proto, 0, _addr(src).packed, _addr(dst).packed) + options
    ck = inet_cksum(h)
    return h[:10] + struct.pack("!H", ck) + h[12:] + payload


def ipv4_fragments(src, dst, proto, l4, ident, sizes=None, mtu=1500, ttl=64):
    """Split an L4 datagram into IPv4 fragments, in offset order.

    sizes: payload bytes per fragment (all but the last a multiple of 8);
    default: as many (mtu - 20) & ~7 sized pieces as needed."""
    if sizes is None:
        step = (mtu - 20) & ~7
        sizes = [step] * (len(l4) // step)
        if len(l4) % step:
            sizes.append(len(l4) % step)
    if sum(sizes) != len(l4):
        sizes = list(sizes) + [len(l4) - sum(sizes)]
    out, off = [], 0
    for i, n in enumerate(sizes):
        last = i == len(sizes) - 1
        if not last and n % 8:
            raise ValueError("non-final fragment size must be a multiple of 8")
        out.append(ipv4(src, dst, proto, l4[off:off + n], ident=ident, ttl=ttl,
                        mf=not last, frag_off=off))
        off += n
    return out


# ------------------------------------------------------------------- IPv6

class Ext:
    """An IPv6 extension header.  kind: IPPROTO_HOPOPTS / IPPROTO_DSTOPTS
    (body = TLV options, padded with PadN) or IPPROTO_IPV6_FRAG."""

    def __init__(self, kind, options=b"", frag_off=0, more=False, ident=0):
        self.kind, self.options = kind, options
        self.frag_off, self.more, self.ident = frag_off, more, ident

    def encode(self, next_header):
        if self.kind == IPPROTO_IPV6_FRAG:
            return struct.pack("!BBHI", next_header, 0,
                               (self.frag_off & ~7) | (1 if self.more else 0), self.ident)
        body = self.options
        pad = -(2 + len(body)) % 8
        if pad == 1:
            body += b"\x00"                       # Pad1
        elif pad:
            body += bytes([1, pad - 2]) + b"\0" * (pad - 2)   # PadN
        return struct.pack("!BB", next_header, (2 + len(body)) // 8 - 1) + body


def hop_by_hop(options=None):
    # Router Alert (type 5, value 0) is a classic hop-by-hop option.
    return Ext(IPPROTO_HOPOPTS, b"\x05\x02\x00\x00" if options is None else options)


def dest_opts(options=None):
    # An unknown option whose top bits 00 say "skip": type 0x1e, 4 bytes.
    return Ext(IPPROTO_DSTOPTS, b"\x1e\x04nfss" if options is None else options)


def ipv6(src, dst, proto, payload, exts=(), hlim=64, flow=0):
    chain = b""
    kinds = [e.kind for e in exts] + [proto]
    for i, e in enumerate(exts):
        chain += e.encode(kinds[i + 1])
    nh = kinds[0]
    return struct.pack("!IHBB16s16s", (6 << 28) | flow, len(chain) + len(payload), nh, hlim,
                       _addr(src).packed, _addr(dst).packed) + chain + payload


def ipv6_fragments(src, dst, proto, l4, ident, sizes, exts_before=(), hlim=64):
    """Fragment an L4 datagram with IPv6 fragment headers.  exts_before are
    the unfragmentable headers (hop-by-hop) repeated in every fragment."""
    if sum(sizes) != len(l4):
        sizes = list(sizes) + [len(l4) - sum(sizes)]
    out, off = [], 0
    for i, n in enumerate(sizes):
        last = i == len(sizes) - 1
        fr = Ext(IPPROTO_IPV6_FRAG, frag_off=off, more=not last, ident=ident)
        out.append(ipv6(src, dst, proto, l4[off:off + n], exts=list(exts_before) + [fr], hlim=hlim))
        off += n
    return out


def ip_packet(src, dst, proto, l4, ident=0, df=True, exts=()):
    if is_v6(src):
        return ipv6(src, dst, proto, l4, exts=exts)
    return ipv4(src, dst, proto, l4, ident=ident, df=df)


# ------------------------------------------------------------------- capture

class Capture:
    """Timeline of captured packets plus the connection-id registry.

    Each emitted packet gets the current time, which then advances by `step_ns`
    (call tick() to add extra time).  fmt: 'pcap' or 'pcapng'."""

    def __init__(self, linktype=LINKTYPE_ETHERNET, fmt="pcap", nsec=False, snaplen=262144,
                 t0_ns=T0_NS, step_ns=100_000, vlans=(), null_byteorder="<"):
        w = PcapngWriter if fmt == "pcapng" else PcapWriter
        self.writer = w(linktype, snaplen=snaplen, nsec=nsec)
        self.linktype = linktype
        self.now = t0_ns
        self.step_ns = step_ns
        self.vlans = vlans
        self.null_byteorder = null_byteorder
        self.conns = {}            # conn key -> "cN"
        self.ipid = 0x1000
        self.cut = 0

    def tick(self, ns):
        self.now += ns

    def next_ipid(self):
        self.ipid = (self.ipid + 1) & 0xFFFF
        return self.ipid

    def conn_id(self, key):
        """Connection ids in order of the first captured packet."""
        if key not in self.conns:
            self.conns[key] = "c%d" % (len(self.conns) + 1)
        return self.conns[key]

    def emit(self, l3, from_client=True, caplen=None, conn_key=None, dt=None):
        """Capture one network-layer packet; returns its frame number."""
        if conn_key is not None:
            self.conn_id(conn_key)
        frame = wrap_l3(self.linktype, l3, from_client=from_client, vlans=self.vlans,
                        null_byteorder=self.null_byteorder)
        n = self.writer.add(self.now, frame, caplen=caplen)
        self.now += self.step_ns if dt is None else dt
        return n

    def skip(self, dt=None):
        """A packet that was on the wire but not captured: time passes."""
        self.now += self.step_ns if dt is None else dt

    @property
    def nframes(self):
        return len(self.writer)

    def save(self, path):
        self.writer.save(path, cut=self.cut)


# ------------------------------------------------------------------- TCP

class TcpStream:
    """One direction of one TCP incarnation: the bytes written so far and
    which captured frame carried which stream range."""

    def __init__(self, isn):
        self.isn = isn
        self.buf = bytearray()
        self.segs = []         # (frame, off, end) captured, in capture order
        self.wire = []         # (off, end) everything sent, captured or not
        self.sent_upto = 0     # highest end ever sent
        self.fin_sent = False
        self.cut = {}          # frame -> stream offset where its captured payload ends (snaplen)

    def write(self, data):
        off = len(self.buf)
        self.buf += data
        return off, len(self.buf)

    def seq(self, off):
        return (self.isn + 1 + off) & 0xFFFFFFFF

    def received_upto(self):
        """Contiguous prefix that reached the receiver (captured or not)."""
        upto = 0
        for a, b in sorted(self.wire):
            if a > upto:
                break
            upto = max(upto, b)
        return upto

    def own_frame(self, off, end):
        """Frame in which the last not-yet-seen byte of [off, end) arrived,
        or None if some byte was never captured."""
        missing = [(off, end)]
        for frame, a, b in self.segs:
            nxt = []
            for x, y in missing:
                if b <= x or a >= y:
                    nxt.append((x, y))
                    continue
                if x < a:
                    nxt.append((x, a))
                if b < y:
                    nxt.append((b, y))
            missing = nxt
            if not missing:
                return frame
        return None

    def completion_frame(self, off, end):
        """Frame in which [off, end) became available to an in-order reader:
        the later of own_frame() and the first arrival of the last earlier
        stream byte that is ever captured (bytes never captured -- loss,
        capture start -- hold nothing up).  None if a byte of [off, end)
        was never captured.  For data sent in order this is own_frame()."""
        own = self.own_frame(off, end)
        if own is None:
            return None
        latest, seen = own, []
        for frame, a, b in self.segs:
            a, b = a, min(b, off)
            if a >= b:
                continue
            # does this segment bring earlier bytes not seen before?
            new = [(a, b)]
            for x, y in seen:
                new = [p for q in new for p in ((q[0], min(q[1], x)), (max(q[0], y), q[1]))
                       if p[0] < p[1]]
            if new:
                latest = max(latest, frame)
                seen.append((a, b))
        return latest

    def message_frame(self, off, end):
        """Frame of the RPC message [off, end): completion_frame(), unless
        the snapshot length cut some of its bytes (on the wire, their content
        not captured): then the frame that brought its first byte, the one
        carrying its record mark and header (tshark cannot reassemble such a
        message and decodes it there; so does nfsscope)."""
        done = self.completion_frame(off, end)
        if done is None:
            return None
        for frame, a, b in self.segs:
            ce = self.cut.get(frame)
            if ce is not None and max(a, ce, off) < min(b, end):
                return self.completion_frame(off, off + 1)
        return done

    def first_frame(self, off, end):
        """First captured frame that carried any byte of [off, end)."""
        for frame, a, b in self.segs:
            if a < end and b > off:
                return frame
        return None


class TcpConnection:
    def __init__(self, cap, caddr, cport, saddr, sport=2049, isn=(0x11000000, 0x22000000),
                 mss=1448, window=0xFFFF, timestamps=False, exts=(), transport="tcp"):
        self.cap = cap
        self.addr = ((caddr, cport), (saddr, sport))
        self.mss = mss
        self.window = window
        self.timestamps = timestamps
        self.exts = exts                  # IPv6 extension headers on every packet
        self.isn = list(isn)
        self.incarnation = 0
        self._new_streams()

    # -- identity
    def key(self):
        """Connection identity: the 4-tuple and the incarnation (a new SYN
        after FIN on the same 4-tuple is a new connection, with a new id)."""
        (ca, cp), (sa, sp) = self.addr
        return ("tcp", ca, cp, sa, sp, self.incarnation)

    @property
    def conn(self):
        return self.cap.conn_id(self.key())

    def _new_streams(self):
        self.streams = [TcpStream(self.isn[0]), TcpStream(self.isn[1])]

    def stream(self, d):
        return self.streams[d]

    # -- packet emission
    def _packet(self, d, seq, ack, flags, payload=b"", options=b"", drop=False, caplen=None):
        src, dst = self.addr[d], self.addr[1 - d]
        if self.timestamps and not (flags & SYN):
            tsv = (self.cap.now // 1_000_000) & 0xFFFFFFFF
            options = tcp_opt_ts(tsv + (0 if d == 0 else 5000), tsv + (5000 if d == 0 else 0)) + options
        l4 = tcp_header(src[0], dst[0], src[1], dst[1], seq, ack, flags, payload,
                        window=self.window, options=options)
        l3 = ip_packet(src[0], dst[0], IPPROTO_TCP, l4, ident=self.cap.next_ipid(), exts=self.exts)
        if drop:
            self.cap.skip()
            return None
        return self.cap.emit(l3, from_client=(d == 0), caplen=caplen, conn_key=self.key())

    def _ack_for(self, d):
        """ACK number direction d puts in its packets (what it received)."""
        o = self.streams[1 - d]
        n = o.received_upto()
        if o.fin_sent and n == len(o.buf):
            n += 1
        return o.seq(n)

    def handshake(self, options=True):
        s0, s1 = self.streams
        ts = (1000, 0) if self.timestamps else None
        o = tcp_opt_syn(self.mss, ts) if options else b""
        self._packet(0, s0.isn, 0, SYN, options=o)
        o = tcp_opt_syn(self.mss, (2000, 1000) if ts else None) if options else b""
        self._packet(1, s1.isn, s0.seq(0), SYN | ACK, options=o)
        self._packet(0, s0.seq(0), s1.seq(0), ACK)

    def write(self, d, data):
        """Queue bytes on direction d; returns their (off, end) stream range."""
        return self.streams[d].write(data)

    def emit(self, d, off, end, flags=PSH | ACK, drop=False, caplen=None):
        """Send stream bytes [off, end) of direction d in one segment."""
        s = self.streams[d]
        payload = bytes(s.buf[off:end])
        s.wire.append((off, end))
        s.sent_upto = max(s.sent_upto, end)
        frame = self._packet(d, s.seq(off), self._ack_for(d), flags, payload, drop=drop,
                             caplen=caplen)
        if frame is not None:
            s.segs.append((frame, off, end))
            rec = self.cap.writer.records[frame - 1]
            lost = rec.wirelen - rec.caplen            # payload bytes the snaplen cut
            if lost > 0 and end > off:
                s.cut[frame] = off + max(0, (end - off) - lost)
        return frame

    def flush(self, d, sizes=None, cuts=None, mss=None, drop=(), order=None, psh_last=True):
        """Send everything queued but unsent on direction d.

        sizes: segment lengths (remaining bytes follow in MSS segments);
        cuts: stream offsets relative to the first unsent byte where a
        segment boundary goes; drop: indexes of segments not captured;
        order: permutation of segment indexes (out-of-order delivery).
        Returns the list of (off, end, frame) in emission order."""
        s = self.streams[d]
        start, total = s.sent_upto, len(s.buf)
        mss = mss or self.mss
        bounds = []
        if cuts is not None:
            pts = [start] + [start + c for c in cuts if 0 < c < total - start] + [total]
            bounds = list(zip(pts, pts[1:]))
        else:
            pos = start
            for n in sizes or ():
                if pos >= total:
                    break
                bounds.append((pos, min(pos + n, total)))
                pos = min(pos + n, total)
            while pos < total:
                bounds.append((pos, min(pos + mss, total)))
                pos = min(pos + mss, total)
        idx = list(range(len(bounds))) if order is None else list(order)
        out = []
        for i in idx:
            a, b = bounds[i]
            fl = ACK | (PSH if (b == total and psh_last) else 0)
            out.append((a, b, self.emit(d, a, b, flags=fl, drop=(i in drop))))
        return out

    def send(self, d, data, **kw):
        """write() + flush(); returns the (off, end) of data."""
        r = self.write(d, data)
        self.flush(d, **kw)
        return r

    def ack(self, d, drop=False):
        """Pure ACK from direction d."""
        s = self.streams[d]
        return self._packet(d, s.seq(s.sent_upto + (1 if s.fin_sent else 0)), self._ack_for(d), ACK,
                            drop=drop)

    def fin(self, d):
        s = self.streams[d]
        f = self._packet(d, s.seq(s.sent_upto), self._ack_for(d), FIN | ACK)
        s.fin_sent = True
        return f

    def rst(self, d):
        s = self.streams[d]
        return self._packet(d, s.seq(s.sent_upto), 0, RST)

    def close(self):
        """Orderly close: FIN from client, FIN from server, final ACK."""
        self.fin(0)
        self.fin(1)
        self.ack(0)

    def reopen(self, isn):
        """Port reuse: a new incarnation on the same 4-tuple (call
        handshake() next).  Old TcpStream objects stay valid for lookups."""
        self.isn = list(isn)
        self.incarnation += 1
        self._new_streams()


# ------------------------------------------------------------------- UDP

class UdpFlow:
    """Datagrams between one client addr:port and one server addr:port."""

    def __init__(self, cap, caddr, cport, saddr, sport=2049, mtu=1500, exts=()):
        self.cap = cap
        self.addr = ((caddr, cport), (saddr, sport))
        self.mtu = mtu
        self.exts = exts

    def key(self):
        (ca, cp), (sa, sp) = self.addr
        return ("udp", ca, cp, sa, sp)

    @property
    def conn(self):
        return self.cap.conn_id(self.key())

    def send(self, d, payload, frag_sizes=None, order=None, drop=(), caplen=None, df=False):
        """Send one datagram.  If it does not fit the MTU (or frag_sizes is
        given) it is IP-fragmented; order permutes the fragments, drop lists
        fragment indexes that are not captured.  Returns the frame in which
        the datagram became complete (None if a fragment was dropped)."""
        src, dst = self.addr[d], self.addr[1 - d]
        l4 = udp_datagram(src[0], dst[0], src[1], dst[1], payload)
        ident = self.cap.next_ipid()
        v6 = is_v6(src[0])
        hdr = 40 if v6 else 20
        if frag_sizes is None and hdr + len(l4) <= self.mtu:
            l3 = ip_packet(src[0], dst[0], IPPROTO_UDP, l4, ident=ident, df=df, exts=self.exts)
            if 0 in drop:
                self.cap.skip()
                return None
            return self.cap.emit(l3, from_client=(d == 0), caplen=caplen, conn_key=self.key())
        if v6:
            if frag_sizes is None:
                step = (self.mtu - 48 - sum(len(e.encode(0)) for e in self.exts)) & ~7
                frag_sizes = [step] * (len(l4) // step)
            frags = ipv6_fragments(src[0], dst[0], IPPROTO_UDP, l4, ident, frag_sizes,
                                   exts_before=self.exts)
        else:
            frags = ipv4_fragments(src[0], dst[0], IPPROTO_UDP, l4, ident, sizes=frag_sizes,
                                   mtu=self.mtu)
        idx = list(range(len(frags))) if order is None else list(order)
        last = None
        for i in idx:
            if i in drop:
                self.cap.skip()
                continue
            # the conn is registered by the first captured fragment
            last = self.cap.emit(frags[i], from_client=(d == 0), caplen=caplen,
                                 conn_key=self.key())
        return None if any(i in drop for i in range(len(frags))) else last
