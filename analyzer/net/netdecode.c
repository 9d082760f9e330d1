/* Link layers: Ethernet (802.1Q/QinQ), Linux cooked v1/v2, raw IP, BSD
 * loopback. Then IPv4 or IPv6 with extension headers. All reads through the
 * bounded reader; a header cut short by the snaplen is NET_UNDECODABLE. */
#include "netdecode.h"

#include <string.h>

#include "xdr.h"

enum {
    LT_NULL = 0, LT_EN10MB = 1, LT_RAW_A = 12, LT_RAW_B = 14, LT_LOOP = 108,
    LT_RAW = 101, LT_SLL = 113, LT_IPV4 = 228, LT_IPV6 = 229, LT_SLL2 = 276,
};
enum { ET_IPV4 = 0x0800, ET_IPV6 = 0x86dd, ET_VLAN = 0x8100, ET_QINQ = 0x88a8, ET_QINQ_OLD = 0x9100 };

bool net_linktype_supported(int lt)
{
    switch (lt) {
    case LT_NULL: case LT_EN10MB: case LT_RAW_A: case LT_RAW_B: case LT_LOOP:
    case LT_RAW: case LT_SLL: case LT_IPV4: case LT_IPV6: case LT_SLL2:
        return true;
    default:
        return false;
    }
}

static enum net_result decode_ip(struct xdr *x, uint32_t caplen, uint32_t len, struct net_pkt *o);

/* BSD address families for IPv4 and the several for IPv6. */
static int af_to_ipver(uint32_t af)
{
    if (af == 2) return 4;
    if (af == 10 || af == 24 || af == 28 || af == 30) return 6;
    return 0;
}

static int ethertype_to_ipver(uint16_t et)
{
    return et == ET_IPV4 ? 4 : et == ET_IPV6 ? 6 : 0;
}

enum net_result net_decode(int lt, const uint8_t *p, uint32_t caplen, uint32_t len, struct net_pkt *o)
{
    struct xdr x;
    xdr_init_mem(&x, p, caplen);
    int ipver = 0;
    switch (lt) {
    case LT_EN10MB: {
        xdr_skip(&x, 12);
        uint16_t et = xdr_u16(&x);
        for (int tags = 0; tags < 4 && (et == ET_VLAN || et == ET_QINQ || et == ET_QINQ_OLD); tags++) {
            xdr_skip(&x, 2);
            et = xdr_u16(&x);
        }
        if (et < 0x600) { /* 802.3 length: LLC/SNAP */
            uint8_t dsap = xdr_u8(&x), ssap = xdr_u8(&x), ctl = xdr_u8(&x);
            if (dsap != 0xaa || ssap != 0xaa || ctl != 3) return xdr_ok(&x) ? NET_NOT_IP : NET_UNDECODABLE;
            xdr_skip(&x, 3);
            et = xdr_u16(&x);
        }
        ipver = ethertype_to_ipver(et);
        break;
    }
    case LT_SLL:
        xdr_skip(&x, 14);
        ipver = ethertype_to_ipver(xdr_u16(&x));
        break;
    case LT_SLL2:
        ipver = ethertype_to_ipver(xdr_u16(&x));
        xdr_skip(&x, 18);
        break;
    case LT_NULL: {
        uint32_t af = xdr_u32_le(&x);
        if (af > 0xffff) af = __builtin_bswap32(af); /* written by a big-endian host */
        ipver = af_to_ipver(af);
        break;
    }
    case LT_LOOP:
        ipver = af_to_ipver(xdr_u32(&x));
        break;
    case LT_RAW: case LT_RAW_A: case LT_RAW_B: case LT_IPV4: case LT_IPV6:
    {
        uint8_t vihl; /* the IP header's version nibble, without moving x */
        if (!xdr_peek_u8(&x, &vihl)) return NET_UNDECODABLE; /* the IP header was cut off */
        ipver = vihl >> 4;
        break;
    }
    default:
        return NET_UNDECODABLE;
    }
    if (!xdr_ok(&x)) return NET_UNDECODABLE;
    if (ipver != 4 && ipver != 6) return NET_NOT_IP;
    uint32_t hdr = xdr_pos(&x);
    /* On the wire the frame had len bytes, at least the ones captured (a
     * record claiming fewer is damaged). */
    uint32_t wire = len > caplen ? len : caplen;
    return decode_ip(&x, caplen - hdr, wire - hdr, o);
}

static void set_l4(struct xdr *x, uint32_t ip_payload_len, struct net_pkt *o)
{
    uint32_t avail = xdr_remaining(x);
    o->l4_len = ip_payload_len;
    o->l4_caplen = avail < ip_payload_len ? avail : ip_payload_len;
    o->l4 = o->l4_caplen ? xdr_peek_contig(x, o->l4_caplen) : NULL;
    if (!o->l4) o->l4_caplen = 0;
}

static enum net_result decode_ipv4(struct xdr *x, uint32_t wire_len, struct net_pkt *o)
{
    uint8_t vihl = xdr_u8(x);
    xdr_skip(x, 1);
    uint32_t total = xdr_u16(x);
    uint16_t id = xdr_u16(x);
    uint16_t frag = xdr_u16(x);
    xdr_skip(x, 1);
    o->proto = xdr_u8(x);
    xdr_skip(x, 2);
    o->src.family = o->dst.family = 4;
    xdr_bytes(x, o->src.a, 4);
    xdr_bytes(x, o->dst.a, 4);
    uint32_t ihl = (uint32_t)(vihl & 15) * 4;
    if (!xdr_ok(x) || ihl < 20) return NET_UNDECODABLE;
    xdr_skip(x, ihl - 20);
    if (!xdr_ok(x)) return NET_UNDECODABLE;
    /* Segmentation offload hands captures IP lengths of 0: trust the frame. */
    if (total == 0) total = wire_len;
    if (total < ihl) return NET_UNDECODABLE;
    /* A length beyond the frame's own (a damaged header) would take bytes
     * the frame never had from the stream: clamp to what it held (tcpdump's
     * "truncated-ip"). Link padding past the total length is not the IP's. */
    if (total > wire_len) {
        if (wire_len < ihl) return NET_UNDECODABLE;
        total = wire_len;
        o->ip_len_clamped = true;
    }
    o->ipver = 4;
    o->frag_id = id;
    /* from locals: reading back the fields just stored would stall */
    uint32_t frag_offset = (uint32_t)(frag & 0x1fff) * 8;
    bool more = (frag & 0x2000) != 0;
    o->frag_offset = frag_offset;
    o->more_fragments = more;
    o->is_fragment = more || frag_offset;
    set_l4(x, total - ihl, o);
    return NET_OK;
}

static enum net_result decode_ipv6(struct xdr *x, uint32_t wire_len, struct net_pkt *o)
{
    xdr_skip(x, 4);
    uint32_t plen = xdr_u16(x);
    uint8_t nh = xdr_u8(x);
    xdr_skip(x, 1);
    o->src.family = o->dst.family = 6;
    xdr_bytes(x, o->src.a, 16);
    xdr_bytes(x, o->dst.a, 16);
    if (!xdr_ok(x)) return NET_UNDECODABLE;
    if (plen == 0 && wire_len > 40) plen = wire_len - 40; /* jumbogram or offload */
    if (wire_len >= 40 && plen > wire_len - 40) { /* (the header was captured: wire_len >= 40) */
        plen = wire_len - 40;
        o->ip_len_clamped = true;
    }
    uint32_t start = xdr_pos(x);
    o->ipver = 6;
    /* Walk extension headers; each is bounded by the reader. */
    for (int i = 0; i < 16; i++) {
        if (nh == 0 || nh == 43 || nh == 60 || nh == 135 || nh == 139 || nh == 140) {
            nh = xdr_u8(x);
            uint32_t hl = xdr_u8(x);
            xdr_skip(x, hl * 8 + 6);
        } else if (nh == 51) { /* AH: length in 4-byte units minus 2 */
            nh = xdr_u8(x);
            uint32_t hl = xdr_u8(x);
            xdr_skip(x, (hl + 2) * 4 - 2);
        } else if (nh == 44) {
            nh = xdr_u8(x);
            xdr_skip(x, 1);
            uint16_t off = xdr_u16(x);
            o->frag_id = xdr_u32(x);
            o->frag_offset = (uint32_t)(off & 0xfff8);
            o->more_fragments = off & 1;
            o->is_fragment = true;
        } else {
            break;
        }
        if (!xdr_ok(x)) return NET_UNDECODABLE;
    }
    uint32_t ext = xdr_pos(x) - start;
    if (ext > plen) return NET_UNDECODABLE;
    o->proto = nh;
    set_l4(x, plen - ext, o);
    return NET_OK;
}

static enum net_result decode_ip(struct xdr *x, uint32_t caplen, uint32_t len, struct net_pkt *o)
{
    memset(o, 0, sizeof *o);
    (void)caplen;
    uint8_t vihl;
    if (!xdr_peek_u8(x, &vihl)) return NET_UNDECODABLE;
    uint8_t v = vihl >> 4;
    if (v == 4) return decode_ipv4(x, len, o);
    if (v == 6) return decode_ipv6(x, len, o);
    return NET_UNDECODABLE;
}

bool net_l4_copy(const struct net_pkt *p, uint32_t off, uint8_t *out, uint32_t n)
{
    struct xdr x;
    xdr_init_mem(&x, p->l4, p->l4 ? p->l4_caplen : 0);
    xdr_skip(&x, off);
    xdr_bytes(&x, out, n);
    return xdr_ok(&x);
}
