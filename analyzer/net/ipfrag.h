/* IPv4/IPv6 fragment reassembly with a bounded number of trains. */
#ifndef NFSSCOPE_IPFRAG_H
#define NFSSCOPE_IPFRAG_H
#include <stdint.h>

#include "memcap.h"
#include "netdecode.h"
#include "nfsscope/msg.h"

struct ipfrag_table;

/* Most spans (captured runs and holes) a reassembled datagram can have. */
#define IPFRAG_MAX_SPANS (3 * 64 + 1)

struct ipfrag_done {
    const struct net_pkt *last;  /* addresses, proto of the datagram */
    struct ns_msg datagram;      /* transport header + payload, holes for uncaptured bytes */
    uint32_t fragments;
    bool complete;               /* false: given up (timeout or eviction) */
    int64_t first_ts_ns;         /* time of the first fragment seen */
    uint32_t frag_max_len;       /* largest fragment payload (bytes after the IP header) */
};
typedef void (*ipfrag_fn)(void *ctx, const struct ipfrag_done *d);

struct ipfrag_table *ipfrag_new(struct memcap *mc, ipfrag_fn fn, void *ctx);
void ipfrag_free(struct ipfrag_table *t);
/* Add one fragment; calls fn when its datagram is complete. Returns false if
 * the fragment was dropped (invalid or over the memory cap). */
bool ipfrag_add(struct ipfrag_table *t, const struct net_pkt *p, int64_t ts_ns);
/* Give up trains older than max_age_ns (all of them with max_age_ns < 0). */
void ipfrag_expire(struct ipfrag_table *t, int64_t now_ns, int64_t max_age_ns);
uint64_t ipfrag_evicted(const struct ipfrag_table *t);

#endif
