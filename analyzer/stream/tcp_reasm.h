/* Per-direction TCP stream reassembly. Hands the consumer in-order bytes:
 * captured bytes, then holes for bytes that were on the wire but are not in
 * the capture (snaplen) or never seen at all (loss the receiver acked, or a
 * gap that could not be filled). Out-of-order segments wait in a bounded
 * per-direction queue. */
#ifndef NFSSCOPE_TCP_REASM_H
#define NFSSCOPE_TCP_REASM_H
#include <stdbool.h>
#include <stdint.h>

#include "memcap.h"

enum tcp_hole_kind { TCP_DATA = 0, TCP_HOLE_TRUNCATED, TCP_HOLE_GAP };

/* One delivery: data (captured bytes) or, when data is NULL, a hole of len,
 * with the frame number and time it belongs to (tcp_segment_in.frame/ts_ns
 * of a segment): bytes that come in order, the segment's; bytes that waited
 * in the queue for a gap, the segment's that filled it; queued bytes after
 * bytes declared lost, or held ones let go, their own; a gap, the last
 * frame this side sent before it (else the first queued after it, else the
 * segment being processed). */
typedef void (*tcp_deliver_fn)(void *ctx, int dir, const uint8_t *data, uint32_t len,
                               enum tcp_hole_kind kind, uint64_t frame, int64_t ts_ns);

struct tcp_seg;

struct tcp_dir {
    uint32_t next_seq;       /* next byte expected in order */
    uint32_t first_seq;      /* first data byte of the stream (ISN+1, or where it was picked up) */
    uint32_t isn;
    bool have_seq, syn_seen, fin_seen;
    struct tcp_seg *ooo;     /* sorted by seq */
    struct tcp_seg *ooo_tail; /* last of ooo: in-order arrivals after a gap append in O(1) */
    uint32_t ooo_bytes;      /* captured bytes queued */
    uint32_t ooo_count;      /* segments queued (at most TCP_OOO_SEGS_MAX) */
    uint64_t last_frame;     /* frame (and time) of the last bytes handed over in order: */
    int64_t last_ts;         /* a hole declared later is dated by what this side sent */
    /* A hold: this side's next bytes acknowledged bytes of the other side not
     * seen yet (a capture that put a reply before its call, a multi-queue
     * NIC). They wait in the queue, and everything after them, until the
     * other side has delivered up to hold_ack, or TCP_HOLD_SEGS more
     * segments of the connection or TCP_HOLD_NS have passed (the call was
     * lost to the capture), then go with their own frames. */
    bool holding;
    uint8_t hold_age;        /* segments of the connection since the hold began */
    uint32_t hold_ack;
    int64_t hold_ts;
};

#define TCP_HOLD_SEGS 4u
#define TCP_HOLD_BYTES (256u << 10)   /* captured bytes one side may hold */
#define TCP_HOLD_NS (5ll * 1000000ll)

/* Segments one direction may hold out of order: bounds the queue when
 * segments carry no captured bytes (snaplen), which the byte bound misses. */
#define TCP_OOO_SEGS_MAX 8192u

struct tcp_reasm_stats {
    uint64_t segments, out_of_order, retransmitted, gaps, gap_bytes, truncated_bytes;
    uint64_t evicted_ooo_bytes; /* bytes given up early because a cap left no room to wait */
    uint64_t syn_ignored;       /* SYNs inside an established stream's delivered bytes */
    uint64_t rst_ignored;       /* RSTs not at the next expected sequence (RFC 5961 3.2) */
    uint64_t held;              /* segments held for the other side's bytes they acknowledge */
    uint64_t hold_expired;      /* holds let go before those bytes came (lost to the capture) */
    uint64_t hold_refused;      /* segments not held (bound or memory): delivered at once */
};

struct tcp_ctx {
    struct memcap *mc;
    struct tcp_reasm_stats *st;
    tcp_deliver_fn fn;
    void *ctx;
};

struct tcp_segment_in {
    uint32_t seq, ack;
    uint8_t flags;            /* TH_* bits */
    const uint8_t *payload;
    uint32_t caplen, len;     /* captured and wire payload bytes */
    uint64_t frame;           /* frame number and time, handed back on delivery */
    int64_t ts_ns;
};

#define TH_FIN 0x01
#define TH_SYN 0x02
#define TH_RST 0x04
#define TH_ACK 0x10

/* Process one segment sent in direction dir; other is the opposite
 * direction's state (its ACK tells which of our bytes the peer received). */
void tcp_reasm_segment(const struct tcp_ctx *c, struct tcp_dir *d, int dir,
                       struct tcp_dir *other, const struct tcp_segment_in *s);
/* Does an RST with this sequence number end the connection? Only at the
 * next expected byte (RFC 5961 3.2; after a FIN, the number after it), or at the end of what is queued (the
 * bytes before it were lost from the capture), or when nothing is known. */
bool tcp_reasm_rst_acceptable(const struct tcp_dir *d, uint32_t seq);
/* A SYN whose sequence number lies in bytes this direction already
 * delivered belongs to no new connection (a corrupt or replayed segment):
 * tcp_reasm_segment counts it and ignores it, payload, ACK and FIN included. */
bool tcp_reasm_syn_stale(const struct tcp_dir *d, uint32_t seq);
/* Let a hold go now (an idle connection): its bytes go with their frames. */
void tcp_reasm_release_hold(const struct tcp_ctx *c, struct tcp_dir *d, int dir);
/* Deliver everything queued, with holes for what is missing (flow end). */
void tcp_reasm_flush(const struct tcp_ctx *c, struct tcp_dir *d, int dir);
/* Free queued segments without delivering. */
void tcp_reasm_release(const struct tcp_ctx *c, struct tcp_dir *d);

#endif
