/* Internals of the UDP timing analyzer shared by udp_timing.c (events),
 * udp_pairs.c (the pair table) and udp_findings.c (findings). */
#ifndef NFSSCOPE_UDP_INT_H
#define NFSSCOPE_UDP_INT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "udp_model.h"
#include "udp_rtt.h"

#define FRAME_SET 8
#define UDP_HASH_BUCKETS 512 /* power of two, twice UDP_PAIRS_MAX */
#define UDP_CHUNKS 6         /* pair storage grows 8, 8, 16, 32, 64, 128: 256 */

/* The pair's findings, one of each kind. */
enum udp_fk { UDP_FK_INFLATED, UDP_FK_FRAGMENT, UDP_FK_SPURIOUS, UDP_FK_KINDS };
#define UDP_FK_NONE UDP_FK_KINDS
#define UDP_FIDX_NONE SIZE_MAX          /* not raised yet */
#define UDP_FIDX_DROPPED (SIZE_MAX - 1) /* the store was full: counted there once */

/* Example frames of one finding kind, and the times of its first and last event. */
struct frame_set { uint8_t n; uint64_t f[FRAME_SET]; int64_t first_ts, last_ts; };

struct pair {
    struct ns_udp_pair v;          /* the public view */
    struct udp_rtt rtt;
    int64_t wait_end;              /* end of the merged wait intervals */
    uint8_t nconns;
    uint32_t conns[NS_FINDING_CONNS];
    struct frame_set sets[UDP_FK_KINDS];
    int64_t inflated_gap_max, inflated_rto;  /* the worst inflated resend */
    size_t fidx[UDP_FK_KINDS];     /* findings_get index, or UDP_FIDX_* */
    struct pair *hnext;            /* hash chain; free list when unused */
};

struct resend {
    struct ns_addr client, server;
    uint16_t sport;
    uint8_t timer;
    uint32_t xid;
    int64_t ts;
    uint64_t frame;
    uint64_t prev_frame;           /* the send before this one (0: not kept) */
};

struct udp_timing {
    struct memcap *mc;
    struct udp_timing_cfg cfg;
    int64_t majortimeo;
    /* Pairs never move while they live: chunks are never reallocated. */
    struct pair *chunk[UDP_CHUNKS];
    size_t nchunks, cap;
    struct pair *free;             /* unused slots */
    struct pair **order;           /* live pairs in order of first appearance */
    struct pair **bucket;          /* UDP_HASH_BUCKETS chains by key */
    size_t n;
    struct pair *last;             /* last pair found */
    struct findings *fs;
    struct analysis_amend amend;
    bool finished;
    int64_t span;                  /* capture span given at the last settle */
    int64_t ts_lo, ts_hi;          /* packet times seen here (ts_hi < ts_lo: none) */
    uint64_t evicted_pairs, evicted_resends;
    struct resend *ring;
    size_t ring_n, ring_head;
    /* the fragmented datagram being delivered (frame), for its call/reply */
    uint64_t frag_frame;
    uint32_t frag_count, frag_max_len;
    uint8_t frag_ipver;
};

bool udp_addr_eq(const struct ns_addr *a, const struct ns_addr *b);
/* The live pair of this key (port < 0: any server port, the last found
 * first, then in order of appearance), or NULL. */
struct pair *udp_pair_find(struct udp_timing *u, const struct ns_addr *cl, const struct ns_addr *sv, int port);
/* The pair of a key, created if new (evicting the pair idle longest when
 * the table is full); NULL only without memory. */
struct pair *udp_pair_get(struct udp_timing *u, const struct ns_addr *cl, const struct ns_endpoint *sv, int64_t now);
/* The public view's estimator figures from p->rtt. */
void udp_pair_refresh(struct pair *p);
void udp_pairs_free(struct udp_timing *u);

/* After an event changed what p's findings say: raise those whose rule now
 * holds, fold the occurrence of kind occ (UDP_FK_NONE: none) at frame, and
 * bring up to date the figures their messages say (rendered when read);
 * every change is touched. */
void udp_findings_update(struct udp_timing *u, struct pair *p, unsigned occ, uint64_t frame);
/* Bring the findings of every live pair up to date with this span. */
void udp_findings_settle(struct udp_timing *u, int64_t span);

#endif
