/* Link and IP decoding of hand-built frames. Layouts: Ethernet II / 802.1Q /
 * 802.1ad (IEEE 802.1Q-2018), LLC/SNAP (RFC 1042), Linux cooked v1 and v2
 * (tcpdump.org link types 113, 276), raw IP (101, 12), BSD loopback (0: host
 * byte order AF, 108: network byte order AF), IPv4 (RFC 791) and IPv6 with
 * extension headers (RFC 8200). Every frame is also cut at every length
 * inside its headers: each must be NET_UNDECODABLE, read from the end of a
 * page with a guard page behind it. */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "netdecode.h"

static uint8_t *guarded(const uint8_t *src, size_t n)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    static uint8_t *base;
    if (!base) {
        base = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base == MAP_FAILED) abort();
        mprotect(base + pg, pg, PROT_NONE);
    }
    if (n > pg) abort();
    uint8_t *p = base + pg - n;
    if (n) memcpy(p, src, n);
    return p;
}

struct frame { uint8_t b[512]; uint32_t n; };

static void put(struct frame *f, const void *p, uint32_t n) { memcpy(f->b + f->n, p, n); f->n += n; }
static void put8(struct frame *f, uint8_t v) { f->b[f->n++] = v; }
static void put16(struct frame *f, uint16_t v) { put8(f, v >> 8); put8(f, (uint8_t)v); }
static void put32(struct frame *f, uint32_t v) { put16(f, v >> 16); put16(f, (uint16_t)v); }

static const uint8_t MAC2[12] = {0, 1, 2, 3, 4, 5, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15};
static const uint8_t UDP[20] = {0x03, 0x20, 0x08, 0x01, 0, 20, 0, 0, 'p', 'a', 'y', 'l', 'o', 'a', 'd', '-',
                                'u', 'd', 'p', '!'};
static const uint8_t SRC6[16] = {0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
static const uint8_t DST6[16] = {0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};

/* IPv4 header (ihl words, options after the 20 fixed bytes) + the UDP bytes. */
static void ip4(struct frame *f, uint8_t ihl, uint16_t total, uint16_t id, uint16_t frag)
{
    put8(f, (uint8_t)(0x40 | ihl));
    put8(f, 0);
    put16(f, total);
    put16(f, id);
    put16(f, frag);
    put8(f, 64);
    put8(f, 17);
    put16(f, 0);
    put32(f, 0xc0a80001);
    put32(f, 0xc0a80002);
    for (int i = 20; i < ihl * 4; i += 4) put32(f, i == 20 ? 0x94040000u : 0x01010100u); /* router alert, NOPs+EOL */
}

/* What every test frame carries: 192.168.0.1 -> .2, UDP, 20 bytes. */
static void expect_v4(const struct net_pkt *p, const uint8_t *l4)
{
    CHECK_EQ_U(p->ipver, 4);
    CHECK_EQ_U(p->proto, 17);
    CHECK_EQ_U(p->src.family, 4);
    CHECK(memcmp(p->src.a, "\xc0\xa8\x00\x01", 4) == 0);
    CHECK(memcmp(p->dst.a, "\xc0\xa8\x00\x02", 4) == 0);
    CHECK_EQ_U(p->l4_len, 20);
    CHECK_EQ_U(p->l4_caplen, 20);
    CHECK(p->l4 == l4);
    CHECK(!p->is_fragment);
}

static void expect_v6(const struct net_pkt *p, const uint8_t *l4)
{
    CHECK_EQ_U(p->ipver, 6);
    CHECK_EQ_U(p->proto, 17);
    CHECK_EQ_U(p->src.family, 6);
    CHECK(memcmp(p->src.a, SRC6, 16) == 0);
    CHECK(memcmp(p->dst.a, DST6, 16) == 0);
    CHECK_EQ_U(p->l4_len, 20);
    CHECK_EQ_U(p->l4_caplen, 20);
    CHECK(p->l4 == l4);
}

/* Decode the whole frame (l4 expected at hdr), then every cut inside the
 * headers (UNDECODABLE) and the cut right after them (OK, nothing captured). */
static void run(int lt, const struct frame *f, uint32_t hdr, int ipver, const char *what)
{
    struct net_pkt p;
    const uint8_t *g = guarded(f->b, f->n);
    enum net_result r = net_decode(lt, g, f->n, f->n, &p);
    CHECK_EQ_U(r, NET_OK);
    if (r != NET_OK) { fprintf(stderr, "  (%s)\n", what); return; }
    if (ipver == 4) expect_v4(&p, g + hdr);
    else expect_v6(&p, g + hdr);
    CHECK(!p.ip_len_clamped);
    unsigned bad = 0;
    for (uint32_t cut = 0; cut < hdr; cut++) {
        g = guarded(f->b, cut);
        if (net_decode(lt, g, cut, f->n, &p) != NET_UNDECODABLE) {
            bad++;
            fprintf(stderr, "%s cut at %u: not UNDECODABLE\n", what, cut);
        }
    }
    CHECK_EQ_U(bad, 0);
    g = guarded(f->b, hdr);
    r = net_decode(lt, g, hdr, f->n, &p);
    CHECK_EQ_U(r, NET_OK);
    CHECK_EQ_U(p.l4_caplen, 0);
    CHECK_EQ_U(p.l4_len, 20);
    /* snaplen inside the payload: 5 of 20 bytes */
    g = guarded(f->b, hdr + 5);
    r = net_decode(lt, g, hdr + 5, f->n, &p);
    CHECK_EQ_U(r, NET_OK);
    CHECK_EQ_U(p.l4_caplen, 5);
    CHECK(p.l4 == g + hdr);
}

static void v4_body(struct frame *f)
{
    ip4(f, 5, 40, 0x1234, 0x4000);
    put(f, UDP, 20);
}

static void v6_body(struct frame *f)
{
    put32(f, 0x60000000);
    put16(f, 20);
    put8(f, 17);
    put8(f, 64);
    put(f, SRC6, 16);
    put(f, DST6, 16);
    put(f, UDP, 20);
}

static void test_ethernet(void)
{
    struct frame f = {.n = 0};
    put(&f, MAC2, 12);
    put16(&f, 0x0800);
    v4_body(&f);
    run(1, &f, 34, 4, "ethernet");

    /* padded to the 60-byte minimum: IP total length rules */
    f.n = 0;
    put(&f, MAC2, 12);
    put16(&f, 0x0800);
    ip4(&f, 5, 28, 1, 0);
    put(&f, UDP, 8);
    while (f.n < 60) put8(&f, 0);
    struct net_pkt p;
    CHECK_EQ_U(net_decode(1, guarded(f.b, f.n), f.n, f.n, &p), NET_OK);
    CHECK_EQ_U(p.l4_len, 8);
    CHECK_EQ_U(p.l4_caplen, 8);

    f.n = 0;
    put(&f, MAC2, 12);
    put16(&f, 0x8100);
    put16(&f, 0x0064);  /* VLAN 100 */
    put16(&f, 0x0800);
    v4_body(&f);
    run(1, &f, 38, 4, "802.1Q");

    f.n = 0;
    put(&f, MAC2, 12);
    put16(&f, 0x88a8);
    put16(&f, 0x00c8);  /* S-tag 200 */
    put16(&f, 0x8100);
    put16(&f, 0x0064);  /* C-tag 100 */
    put16(&f, 0x86dd);
    v6_body(&f);
    run(1, &f, 62, 6, "QinQ");

    f.n = 0;
    put(&f, MAC2, 12);
    put16(&f, 48);      /* 802.3 length */
    static const uint8_t snap[8] = {0xaa, 0xaa, 0x03, 0, 0, 0, 0x08, 0x00};
    put(&f, snap, 8);
    v4_body(&f);
    run(1, &f, 42, 4, "LLC/SNAP");

    /* not IP: ARP, and LLC that is not SNAP (spanning tree) */
    f.n = 0;
    put(&f, MAC2, 12);
    put16(&f, 0x0806);
    for (int i = 0; i < 28; i++) put8(&f, 0);
    CHECK_EQ_U(net_decode(1, guarded(f.b, f.n), f.n, f.n, &p), NET_NOT_IP);
    f.n = 0;
    put(&f, MAC2, 12);
    put16(&f, 38);
    static const uint8_t stp[3] = {0x42, 0x42, 0x03};
    put(&f, stp, 3);
    for (int i = 0; i < 35; i++) put8(&f, 0);
    CHECK_EQ_U(net_decode(1, guarded(f.b, f.n), f.n, f.n, &p), NET_NOT_IP);
}

static void test_cooked(void)
{
    struct frame f = {.n = 0};
    put16(&f, 0);       /* packet type: to us */
    put16(&f, 1);       /* ARPHRD_ETHER */
    put16(&f, 6);
    put(&f, MAC2, 6);
    put16(&f, 0);       /* address padded to 8 */
    put16(&f, 0x0800);
    v4_body(&f);
    run(113, &f, 36, 4, "SLL");

    f.n = 0;
    put16(&f, 0x86dd);  /* protocol */
    put16(&f, 0);       /* reserved */
    put32(&f, 3);       /* interface index */
    put16(&f, 1);       /* ARPHRD_ETHER */
    put8(&f, 4);        /* outgoing */
    put8(&f, 6);
    put(&f, MAC2, 6);
    put16(&f, 0);
    v6_body(&f);
    run(276, &f, 60, 6, "SLL2");
}

static void test_raw_and_loopback(void)
{
    struct frame f = {.n = 0};
    v4_body(&f);
    run(101, &f, 20, 4, "RAW 101");
    run(12, &f, 20, 4, "RAW 12");
    f.n = 0;
    v6_body(&f);
    run(101, &f, 40, 6, "RAW 101 v6");

    /* DLT_NULL: AF_INET = 2 in the writer's byte order */
    f.n = 0;
    put32(&f, 0x02000000); /* little-endian host */
    v4_body(&f);
    run(0, &f, 24, 4, "NULL le");
    f.n = 0;
    put32(&f, 2);          /* big-endian host */
    v4_body(&f);
    run(0, &f, 24, 4, "NULL be");
    /* IPv6: AF_INET6 is 24 (NetBSD/OpenBSD), 28 (FreeBSD), 30 (macOS) */
    static const uint32_t af6[3] = {24, 28, 30};
    for (int i = 0; i < 3; i++) {
        f.n = 0;
        put32(&f, __builtin_bswap32(af6[i]));
        v6_body(&f);
        run(0, &f, 44, 6, "NULL v6 le");
        f.n = 0;
        put32(&f, af6[i]);
        v6_body(&f);
        run(0, &f, 44, 6, "NULL v6 be");
    }
    /* DLT_LOOP: network byte order always */
    f.n = 0;
    put32(&f, 2);
    v4_body(&f);
    run(108, &f, 24, 4, "LOOP");
    f.n = 0;
    put32(&f, 30);
    v6_body(&f);
    run(108, &f, 44, 6, "LOOP v6");
    /* an unknown family is not IP */
    f.n = 0;
    put32(&f, 7);
    v4_body(&f);
    struct net_pkt p;
    CHECK_EQ_U(net_decode(108, guarded(f.b, f.n), f.n, f.n, &p), NET_NOT_IP);
    CHECK(!net_linktype_supported(105));
    CHECK_EQ_U(net_decode(105, guarded(f.b, f.n), f.n, f.n, &p), NET_UNDECODABLE);
}

static void test_ipv4(void)
{
    /* options: IHL 7 (router alert + NOPs/EOL), l4 after 28 bytes */
    struct frame f = {.n = 0};
    ip4(&f, 7, 48, 0x4321, 0);
    put(&f, UDP, 20);
    run(101, &f, 28, 4, "IPv4 options");

    /* a fragment: MF, offset 185 units = 1480 bytes */
    f.n = 0;
    ip4(&f, 5, 40, 0xbeef, 0x2000 | 185);
    put(&f, UDP, 20);
    struct net_pkt p;
    const uint8_t *g = guarded(f.b, f.n);
    CHECK_EQ_U(net_decode(101, g, f.n, f.n, &p), NET_OK);
    CHECK(p.is_fragment);
    CHECK(p.more_fragments);
    CHECK_EQ_U(p.frag_offset, 1480);
    CHECK_EQ_U(p.frag_id, 0xbeef);
    CHECK_EQ_U(p.l4_len, 20);
    /* the last fragment: offset only */
    f.n = 0;
    ip4(&f, 5, 40, 0xbeef, 370);
    put(&f, UDP, 20);
    CHECK_EQ_U(net_decode(101, guarded(f.b, f.n), f.n, f.n, &p), NET_OK);
    CHECK(p.is_fragment && !p.more_fragments && p.frag_offset == 2960);

    /* total length 0 (segmentation offload): the frame's length rules */
    f.n = 0;
    ip4(&f, 5, 0, 1, 0);
    put(&f, UDP, 20);
    CHECK_EQ_U(net_decode(101, guarded(f.b, f.n), f.n, f.n, &p), NET_OK);
    CHECK_EQ_U(p.l4_len, 20);
    /* captured 30 bytes of a 1000-byte offloaded frame */
    CHECK_EQ_U(net_decode(101, guarded(f.b, 30), 30, 1000, &p), NET_OK);
    CHECK_EQ_U(p.l4_len, 980);
    CHECK_EQ_U(p.l4_caplen, 10);

    /* invalid: IHL below 5, total shorter than the header, version 5 */
    f.n = 0;
    ip4(&f, 4, 40, 1, 0);
    put(&f, UDP, 20);
    CHECK_EQ_U(net_decode(101, guarded(f.b, f.n), f.n, f.n, &p), NET_UNDECODABLE);
    f.n = 0;
    ip4(&f, 5, 16, 1, 0);
    put(&f, UDP, 20);
    CHECK_EQ_U(net_decode(101, guarded(f.b, f.n), f.n, f.n, &p), NET_UNDECODABLE);
    f.n = 0;
    ip4(&f, 5, 40, 1, 0);
    put(&f, UDP, 20);
    f.b[0] = 0x55;
    /* Ethernet says IPv4 but the header is version 5: not decodable */
    struct frame e = {.n = 0};
    put(&e, MAC2, 12);
    put16(&e, 0x0800);
    put(&e, f.b, f.n);
    CHECK_EQ_U(net_decode(1, guarded(e.b, e.n), e.n, e.n, &p), NET_UNDECODABLE);
}

static void test_ipv6_ext(void)
{
    /* hop-by-hop (8) + destination options (16) + fragment (8) + UDP (20) */
    struct frame f = {.n = 0};
    put32(&f, 0x60000000);
    put16(&f, 8 + 16 + 8 + 20);
    put8(&f, 0);                /* next: hop-by-hop */
    put8(&f, 64);
    put(&f, SRC6, 16);
    put(&f, DST6, 16);
    put8(&f, 60);               /* next: destination options */
    put8(&f, 0);                /* 8 bytes */
    static const uint8_t padn4[6] = {1, 4, 0, 0, 0, 0};
    put(&f, padn4, 6);
    put8(&f, 44);               /* next: fragment */
    put8(&f, 1);                /* 16 bytes */
    static const uint8_t padn12[14] = {1, 12};
    put(&f, padn12, 14);
    put8(&f, 17);               /* next: UDP */
    put8(&f, 0);
    put16(&f, (185 << 3) | 1);  /* offset 1480 bytes, M */
    put32(&f, 0xdeadbeef);
    put(&f, UDP, 20);
    CHECK_EQ_U(f.n, 40 + 32 + 20);
    run(101, &f, 72, 6, "IPv6 ext");
    struct net_pkt p;
    CHECK_EQ_U(net_decode(101, guarded(f.b, f.n), f.n, f.n, &p), NET_OK);
    CHECK(p.is_fragment);
    CHECK(p.more_fragments);
    CHECK_EQ_U(p.frag_offset, 1480);
    CHECK_EQ_U(p.frag_id, 0xdeadbeef);

    /* AH (51): length in 4-octet units minus 2; 3 -> 20 bytes */
    f.n = 0;
    put32(&f, 0x60000000);
    put16(&f, 20 + 20);
    put8(&f, 51);
    put8(&f, 64);
    put(&f, SRC6, 16);
    put(&f, DST6, 16);
    put8(&f, 17);
    put8(&f, 3);
    for (int i = 0; i < 18; i++) put8(&f, 0);
    put(&f, UDP, 20);
    run(101, &f, 60, 6, "IPv6 AH");

    /* extension headers longer than the payload length: invalid */
    f.n = 0;
    put32(&f, 0x60000000);
    put16(&f, 4);
    put8(&f, 0);
    put8(&f, 64);
    put(&f, SRC6, 16);
    put(&f, DST6, 16);
    put8(&f, 17);
    put8(&f, 0);
    for (int i = 0; i < 6; i++) put8(&f, 0);
    put(&f, UDP, 20);
    CHECK_EQ_U(net_decode(101, guarded(f.b, f.n), f.n, f.n, &p), NET_UNDECODABLE);
}

/* An IP length beyond what the frame held on the wire is clamped to it and
 * flagged; the snaplen (caplen < len) and link padding are not. */
static void test_ip_len_clamp(void)
{
    struct net_pkt p;
    struct frame f = {.n = 0};
    /* IPv4 claiming 1,000 bytes more than its 40-byte frame */
    ip4(&f, 5, 1040, 1, 0);
    put(&f, UDP, 20);
    CHECK_EQ_U(net_decode(101, guarded(f.b, f.n), f.n, f.n, &p), NET_OK);
    CHECK(p.ip_len_clamped);
    CHECK_EQ_U(p.l4_len, 20);
    CHECK_EQ_U(p.l4_caplen, 20);
    /* the same cut by a 30-byte snaplen: still clamped to the wire length */
    CHECK_EQ_U(net_decode(101, guarded(f.b, 30), 30, f.n, &p), NET_OK);
    CHECK(p.ip_len_clamped);
    CHECK_EQ_U(p.l4_len, 20);
    CHECK_EQ_U(p.l4_caplen, 10);
    /* a right length cut by the snaplen: not clamped, the rest uncaptured */
    f.n = 0;
    ip4(&f, 5, 40, 1, 0);
    put(&f, UDP, 20);
    CHECK_EQ_U(net_decode(101, guarded(f.b, 30), 30, f.n, &p), NET_OK);
    CHECK(!p.ip_len_clamped);
    CHECK_EQ_U(p.l4_len, 20);
    CHECK_EQ_U(p.l4_caplen, 10);
    /* a record claiming fewer bytes on the wire than captured: the captured count */
    CHECK_EQ_U(net_decode(101, guarded(f.b, f.n), f.n, 25, &p), NET_OK);
    CHECK(!p.ip_len_clamped);
    CHECK_EQ_U(p.l4_len, 20);
    /* Ethernet padding past a right total length: not the IP's, not flagged */
    struct frame e = {.n = 0};
    put(&e, MAC2, 12);
    put16(&e, 0x0800);
    ip4(&e, 5, 40, 1, 0);
    put(&e, UDP, 20);
    while (e.n < 60) put8(&e, 0);
    CHECK_EQ_U(net_decode(1, guarded(e.b, e.n), e.n, e.n, &p), NET_OK);
    CHECK(!p.ip_len_clamped);
    CHECK_EQ_U(p.l4_len, 20);
    /* Ethernet, IPv4 claiming 1,000 more: clamped to the frame less its link header */
    e.b[16] = (uint8_t)(1040 >> 8);
    e.b[17] = (uint8_t)(1040 & 0xff);
    CHECK_EQ_U(net_decode(1, guarded(e.b, e.n), e.n, e.n, &p), NET_OK);
    CHECK(p.ip_len_clamped);
    CHECK_EQ_U(p.l4_len, 60 - 14 - 20);
    /* IPv6 payload length 1,020 in a 60-byte packet */
    f.n = 0;
    v6_body(&f);
    f.b[4] = (uint8_t)(1020 >> 8);
    f.b[5] = (uint8_t)(1020 & 0xff);
    CHECK_EQ_U(net_decode(101, guarded(f.b, f.n), f.n, f.n, &p), NET_OK);
    CHECK(p.ip_len_clamped);
    CHECK_EQ_U(p.l4_len, 20);
    CHECK_EQ_U(p.l4_caplen, 20);
    /* and right, under a snaplen */
    f.b[4] = 0;
    f.b[5] = 20;
    CHECK_EQ_U(net_decode(101, guarded(f.b, 45), 45, f.n, &p), NET_OK);
    CHECK(!p.ip_len_clamped);
    CHECK_EQ_U(p.l4_len, 20);
    CHECK_EQ_U(p.l4_caplen, 5);
}

int main(void)
{
    test_ip_len_clamp();
    test_ethernet();
    test_cooked();
    test_raw_and_loopback();
    test_ipv4();
    test_ipv6_ext();
    return check_done("test_netdecode");
}
