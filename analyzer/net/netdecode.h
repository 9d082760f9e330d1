/* Link layer and IP decoding of one frame, down to the transport header. */
#ifndef NFSSCOPE_NETDECODE_H
#define NFSSCOPE_NETDECODE_H
#include <stdbool.h>
#include <stdint.h>

#include "nfsscope/stats.h"

enum net_result {
    NET_OK = 0,
    NET_NOT_IP,        /* ARP, LLDP, ...: not ours */
    NET_UNDECODABLE,   /* link or IP header cut short or invalid */
};

struct net_pkt {
    struct ns_addr src, dst;
    uint8_t ipver;      /* 4 or 6 */
    uint8_t proto;      /* transport protocol (6 TCP, 17 UDP, ...) */
    const uint8_t *l4;  /* transport header (or fragment payload) */
    uint32_t l4_caplen; /* bytes captured from l4 */
    uint32_t l4_len;    /* bytes on the wire from l4 (IP payload length) */
    /* fragment of a larger datagram (IPv4 MF/offset, IPv6 fragment header) */
    bool is_fragment;
    bool more_fragments;
    uint32_t frag_offset; /* bytes */
    uint32_t frag_id;
    /* The IPv4 total length / IPv6 payload length claimed more bytes than
     * the frame had on the wire (its original length): l4_len is clamped to
     * what the frame held (ns_stats.frames_ip_len_clamped). Not the snaplen:
     * bytes on the wire but not captured are l4_len - l4_caplen. */
    bool ip_len_clamped;
};

/* Decode frame bytes of a link type. */
enum net_result net_decode(int linktype, const uint8_t *p, uint32_t caplen, uint32_t len,
                           struct net_pkt *out);
bool net_linktype_supported(int linktype);
/* Copy n captured transport bytes from offset off of p's l4 (the bounded
 * reader's contract: false, out untouched past what was copied, when they
 * were not all captured). */
bool net_l4_copy(const struct net_pkt *p, uint32_t off, uint8_t *out, uint32_t n);

#endif
