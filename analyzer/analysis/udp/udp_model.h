/* RPC over UDP timing analysis (issue 4): fed by analysis.c, read through
 * nfsscope/udp_timing.h. Times are packet times in nanoseconds. */
#ifndef NFSSCOPE_UDP_TIMING_INT_H
#define NFSSCOPE_UDP_TIMING_INT_H
#include <stdbool.h>
#include <stdint.h>

#include "analysis_events.h"
#include "finding_table.h"
#include "ipfrag.h"
#include "memcap.h"
#include "nfsscope/stats.h"
#include "nfsscope/txn.h"
#include "nfsscope/udp_timing.h"

#define UDP_DEFAULT_RTO_FACTOR 8.0
#define UDP_DEFAULT_TIMEO_NS (1100ll * 1000000ll) /* NFS_DEF_UDP_TIMEO: timeo=11 (1.1 s) */
#define UDP_DEFAULT_RETRANS 3                     /* NFS_DEF_UDP_RETRANS */
#define UDP_PAIRS_MAX 256                         /* client/server pairs tracked */
#define UDP_RESENDS_KEPT 1024                     /* recent resends kept for fragment losses */
#define UDP_SPURIOUS_MIN 3                        /* spurious resends of a pair for a finding */

struct udp_timing_cfg {
    double rto_factor;     /* RTO_INFLATED: gap > factor x RTO */
    int64_t timeo_ns;      /* the client's initial / fixed timeout */
    unsigned retrans;      /* retransmissions before a major timeout */
};

struct udp_timing;

/* NULL on out of memory. cfg values of 0 take the defaults above. fs: where
 * findings go (not owned). */
struct udp_timing *udp_timing_new(struct memcap *mc, const struct udp_timing_cfg *cfg, struct findings *fs);
/* Where amendments of earlier frames go (may be left unset). */
void udp_timing_set_amend(struct udp_timing *u, const struct analysis_amend *am);
void udp_timing_free(struct udp_timing *u);
/* out (may be NULL): this frame's send number, armed timeout, RTT. */
void udp_timing_on_call(struct udp_timing *u, struct ns_txn *t, const struct ns_conn *c, int64_t now, uint64_t frame,
                        struct udp_frame_info *out);
void udp_timing_on_retransmit(struct udp_timing *u, struct ns_txn *t, const struct ns_conn *c, int64_t now,
                              uint64_t frame, struct udp_frame_info *out);
void udp_timing_on_reply(struct udp_timing *u, struct ns_txn *t, const struct ns_conn *c, bool dup, int64_t now,
                         uint64_t frame, struct udp_frame_info *out);
void udp_timing_on_done(struct udp_timing *u, const struct ns_txn *t, const struct ns_conn *c, bool given_up);
void udp_timing_on_fragmented(struct udp_timing *u, const struct ipfrag_done *d, int64_t now, uint64_t frame);
/* Bring findings and views up to date (span = capture duration so far).
 * Idempotent; gives nothing up. */
void udp_timing_settle(struct udp_timing *u, int64_t span_ns);
/* End of input: settle, then what needs the end. Idempotent. */
void udp_timing_finish(struct udp_timing *u, int64_t span_ns);
/* The pair of this client address and server endpoint, or NULL. */
const struct ns_udp_pair *udp_timing_pair_by_key(const struct udp_timing *u, const struct ns_addr *client,
                                                 const struct ns_endpoint *server);

size_t udp_timing_pair_count(const struct udp_timing *u);
const struct ns_udp_pair *udp_timing_pair(const struct udp_timing *u, size_t i);
uint64_t udp_timing_evicted_pairs(const struct udp_timing *u);
uint64_t udp_timing_evicted_resends(const struct udp_timing *u);

#endif
