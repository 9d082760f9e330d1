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

/* One delivery: data (captured bytes) or, when data is NULL, a hole of len.
 * frame/ts_ns: the frame that carried bytes handed over from the queue (they
 * keep the frame they arrived in); 0 for the segment being processed. */
typedef void (*tcp_deliver_fn)(void *ctx, int dir, const uint8_t *data, uint32_t len,
                               enum tcp_hole_kind kind, uint64_t frame, int64_t ts_ns);

struct tcp_seg;

struct tcp_dir {
    uint32_t next_seq;       /* next byte expected in order */
    uint32_t isn;
    bool have_seq, syn_seen, fin_seen;
    struct tcp_seg *ooo;     /* sorted by seq */
    uint32_t ooo_bytes;
    uint16_t ooo_count;
};

struct tcp_reasm_stats {
    uint64_t segments, out_of_order, retransmitted, gaps, gap_bytes, truncated_bytes;
    uint64_t evicted_ooo_bytes; /* bytes given up early because a cap left no room to wait */
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
/* Deliver everything queued, with holes for what is missing (flow end). */
void tcp_reasm_flush(const struct tcp_ctx *c, struct tcp_dir *d, int dir);
/* Free queued segments without delivering. */
void tcp_reasm_release(const struct tcp_ctx *c, struct tcp_dir *d);

#endif
