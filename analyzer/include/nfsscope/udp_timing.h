/* RPC over UDP: round-trip times, the retransmit timeout a Linux client
 * would compute, retransmissions, spurious resends and replies lost to
 * missing IP fragments, per client/server pair and per timer class.
 * Read-only views; they live as nfsscope.h's "Lifetimes" says. */
#ifndef NFSSCOPE_UDP_TIMING_H
#define NFSSCOPE_UDP_TIMING_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nfsscope/stats.h"

/* Everything declared here is the library's public ABI (the rest is hidden). */
#pragma GCC visibility push(default)
#ifdef __cplusplus
extern "C" {
#endif

struct ns_analyzer;

/* Timer classes of the Linux NFS client (p_timer of fs/nfs/nfs3xdr.c and
 * nfs2xdr.c): each has its own RTT estimator; class 0 uses the fixed timeout. */
enum ns_udp_timer {
    NS_UDP_TIMER_OTHER = 0,
    NS_UDP_TIMER_GETATTR = 1, /* GETATTR, ACCESS */
    NS_UDP_TIMER_LOOKUP = 2,
    NS_UDP_TIMER_READ = 3,    /* READ, READDIR, READDIRPLUS, READLINK */
    NS_UDP_TIMER_WRITE = 4,
    NS_UDP_TIMER_COMMIT = 5,
    NS_UDP_TIMERS = 6,
};

/* Timer class of an RPC procedure (NFSv2/v3; everything else is 0). */
unsigned ns_udp_timer_class(uint32_t prog, uint32_t vers, uint32_t proc);
/* "other", "getattr", "lookup", "read", "write", "commit". */
const char *ns_udp_timer_name(unsigned timer);

/* One timer class of one pair. Times in nanoseconds. */
struct ns_udp_class {
    uint64_t calls;               /* first transmissions */
    uint64_t answered, unanswered;
    /* Karn: calls answered after exactly one transmission */
    uint64_t rtt_samples;
    int64_t rtt_min_ns, rtt_max_ns, rtt_sum_ns;
    /* the Linux estimator at the end (net/sunrpc/timer.c); for class 0 only
     * rto_ns (the fixed timeout) is meaningful */
    int64_t srtt_ns, rttvar_ns, rto_ns;
    /* retransmissions: the same XID sent again */
    uint64_t retransmissions, retransmitted_calls;
    uint32_t sends_max;           /* transmissions of the most resent call */
    int64_t gap_min_ns, gap_max_ns, gap_sum_ns; /* time since the previous send */
    double timeout_ratio_sum;     /* sum of gap / timeout a Linux client would have armed */
    double timeout_ratio_max;
    double rto_ratio_max;         /* gap / estimated RTO (no backoff) */
    double rtt_ratio_max;         /* gap / mean measured RTT (0: no RTT measured) */
    uint64_t backoff_doubling;    /* gap 1.5x..2.5x the previous gap of the call */
    uint64_t backoff_other;
    uint64_t major_timeouts;      /* resends where a Linux client starts over */
    uint64_t inflated;            /* resends with gap > rto_factor x RTO */
    uint64_t late_retransmissions;/* sent after the reply was seen */
    uint64_t spurious;            /* retransmitted calls whose resend was not needed */
    uint64_t dup_replies;
    uint64_t fragmented_replies;  /* replies sent as IP fragments (complete or not) */
    uint64_t lost_to_fragments;   /* replies lost to a missing fragment, call resent */
};

struct ns_udp_pair {
    struct ns_addr client;        /* any client port: clients rebind */
    struct ns_endpoint server;
    int64_t first_ts_ns, last_ts_ns;
    struct ns_udp_class cls[NS_UDP_TIMERS];
    uint64_t fragmented_datagrams;    /* both directions */
    uint64_t incomplete_datagrams;    /* fragments seen, never completed */
    uint64_t incomplete_no_header;    /* ... and the first fragment (RPC header) missing */
    uint64_t incomplete_not_resent;   /* incomplete reply whose call was not sent again */
    uint32_t mtu;                     /* estimated: largest fragment + minimal IP header */
    uint32_t fragment_max_bytes;      /* largest fragment payload (IP payload) */
    uint32_t fragments_max;           /* most fragments in one datagram */
    int64_t wait_ns;                  /* time at least one call waited on a timeout (lower bound) */
    uint64_t major_timeouts;
};

/* Pairs in order of first appearance. */
size_t ns_analyzer_udp_pair_count(const struct ns_analyzer *a);
const struct ns_udp_pair *ns_analyzer_udp_pair(const struct ns_analyzer *a, size_t i);
/* Pairs dropped by the table cap (oldest activity first), and retransmission
 * records overwritten before a late fragment loss could be matched to them. */
uint64_t ns_analyzer_udp_evicted_pairs(const struct ns_analyzer *a);
/* The pair of a client address and server endpoint, or NULL (not seen, or
 * evicted); the view stays at the same address until the pair is evicted. */
const struct ns_udp_pair *ns_analyzer_udp_pair_by_key(const struct ns_analyzer *a, const struct ns_addr *client,
                                                      const struct ns_endpoint *server);
uint64_t ns_analyzer_udp_evicted_resends(const struct ns_analyzer *a);

#ifdef __cplusplus
}
#endif
#pragma GCC visibility pop

#endif
