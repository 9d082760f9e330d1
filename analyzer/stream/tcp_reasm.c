#include "tcp_reasm.h"

#include <stdlib.h>
#include <string.h>

/* Bytes of out-of-order data one direction may hold before the first gap is
 * declared lost. Large enough for a 1 MiB NFS record arriving out of order. */
#define OOO_DIR_MAX (4u << 20)

struct tcp_seg {
    struct tcp_seg *next;
    uint64_t frame;
    int64_t ts_ns;
    uint32_t seq, len, caplen;
    uint8_t data[];
};

static inline int32_t seq_diff(uint32_t a, uint32_t b) { return (int32_t)(a - b); }

/* Deliver captured bytes then the uncaptured rest as a truncation hole.
 * frame/ts: the sender's frame that carried them. */
static void deliver(const struct tcp_ctx *c, struct tcp_dir *d, int dir, const uint8_t *p, uint32_t caplen,
                    uint32_t len, uint64_t frame, int64_t ts)
{
    d->last_frame = frame;
    d->last_ts = ts;
    if (caplen) c->fn(c->ctx, dir, p, caplen, TCP_DATA, frame, ts);
    if (len > caplen) {
        c->st->truncated_bytes += len - caplen;
        c->fn(c->ctx, dir, NULL, len - caplen, TCP_HOLE_TRUNCATED, frame, ts);
    }
}

/* Unlink the head of the queue. */
static struct tcp_seg *pop_head(struct tcp_dir *d)
{
    struct tcp_seg *s = d->ooo;
    d->ooo = s->next;
    if (!d->ooo) d->ooo_tail = NULL;
    return s;
}

static void free_seg(const struct tcp_ctx *c, struct tcp_dir *d, struct tcp_seg *s)
{
    d->ooo_bytes -= s->caplen;
    d->ooo_count--;
    memcap_give(c->mc, MEM_REASSEMBLY, sizeof *s + s->caplen);
    free(s);
}

/* Hand over queued segments that are now in order. */
/* own_frame: the bytes before them were declared lost, so queued bytes were
 * readable as soon as they arrived and keep their own frame; otherwise the
 * segment being processed (frame, ts) just filled the gap and makes them
 * readable. */
static void drain(const struct tcp_ctx *c, struct tcp_dir *d, int dir, bool own_frame, uint64_t frame, int64_t ts)
{
    if (d->holding) return; /* held bytes wait for the other side (hold_release) */
    while (d->ooo) {
        struct tcp_seg *s = d->ooo;
        int32_t rel = seq_diff(s->seq, d->next_seq);
        if (rel > 0) break;
        pop_head(d);
        uint32_t skip = d->next_seq - s->seq; /* not -rel: rel may be INT32_MIN */
        if (skip < s->len) {
            uint32_t cap = s->caplen > skip ? s->caplen - skip : 0;
            const uint8_t *p = cap ? s->data + skip : NULL;
            deliver(c, d, dir, p, cap, s->len - skip, own_frame ? s->frame : frame, own_frame ? s->ts_ns : ts);
            d->next_seq = s->seq + s->len;
        }
        free_seg(c, d, s);
    }
}

/* Declare the bytes up to seq lost: a gap hole, then whatever follows. The
 * queue is drained even without a gap: its head may lie behind next_seq (a
 * new SYN moved it), and callers loop until the queue is empty. The hole is
 * dated by the last frame this side sent before it (never by a frame of the
 * peer whose ACK revealed the loss), or by the first queued one after it,
 * or when this side sent none, by the segment being processed (frame, ts). */
static void skip_to(const struct tcp_ctx *c, struct tcp_dir *d, int dir, uint32_t seq, uint64_t frame, int64_t ts)
{
    int32_t gap = seq_diff(seq, d->next_seq);
    if (gap > 0) {
        c->st->gaps++;
        c->st->gap_bytes += (uint32_t)gap;
        if (d->last_frame) { frame = d->last_frame; ts = d->last_ts; }
        else if (d->ooo) { frame = d->ooo->frame; ts = d->ooo->ts_ns; }
        c->fn(c->ctx, dir, NULL, (uint32_t)gap, TCP_HOLE_GAP, frame, ts);
        d->next_seq = seq;
    }
    drain(c, d, dir, true, 0, 0);
}

static bool enqueue(const struct tcp_ctx *c, struct tcp_dir *d, uint32_t seq, const uint8_t *p, uint32_t caplen,
                    uint32_t len, uint64_t frame, int64_t ts);

static void queue(const struct tcp_ctx *c, struct tcp_dir *d, int dir, uint32_t seq, const uint8_t *p, uint32_t caplen,
                  uint32_t len, uint64_t frame, int64_t ts)
{
    c->st->out_of_order++;
    /* Over the per-direction or global budget: the oldest gap is not going to
     * be filled in time; call it lost and make room. */
    while (d->ooo && (d->ooo_bytes + caplen > OOO_DIR_MAX || d->ooo_count >= TCP_OOO_SEGS_MAX ||
                      c->mc->used[MEM_REASSEMBLY] + caplen + sizeof(struct tcp_seg) > c->mc->cap[MEM_REASSEMBLY])) {
        if (d->holding) { /* no room to wait: what is held goes first */
            tcp_reasm_release_hold(c, d, dir);
            if (seq_diff(seq, d->next_seq) <= 0) break;
            continue;
        }
        int32_t lost = seq_diff(d->ooo->seq, d->next_seq);
        if (lost > 0) c->st->evicted_ooo_bytes += (uint32_t)lost;
        skip_to(c, d, dir, d->ooo->seq, frame, ts);
        if (seq_diff(seq, d->next_seq) <= 0) break;
    }
    int32_t rel = seq_diff(seq, d->next_seq);
    if (rel <= 0) { /* the queue drained up to us */
        uint32_t skip = d->next_seq - seq;
        if (skip < len) {
            uint32_t cap = caplen > skip ? caplen - skip : 0;
            deliver(c, d, dir, cap ? p + skip : NULL, cap, len - skip, frame, ts);
            d->next_seq = seq + len;
            drain(c, d, dir, false, frame, ts);
        }
        return;
    }
    if (!enqueue(c, d, seq, p, caplen, len, frame, ts)) {
        if (d->ooo) { /* allocation failed with a queue to wait on: drop this one */
            c->st->evicted_ooo_bytes += caplen;
            return;
        }
        /* Nothing queued and no room to queue: waiting would stall the
         * direction for good, so the missing bytes are lost now. */
        c->st->evicted_ooo_bytes += (uint32_t)rel;
        skip_to(c, d, dir, seq, frame, ts);
        deliver(c, d, dir, p, caplen, len, frame, ts);
        d->next_seq = seq + len;
    }
}

/* Copy a segment into the queue, sorted by seq; false when the memory cap or
 * the allocator refuses. */
static bool enqueue(const struct tcp_ctx *c, struct tcp_dir *d, uint32_t seq, const uint8_t *p, uint32_t caplen,
                    uint32_t len, uint64_t frame, int64_t ts)
{
    size_t need = sizeof(struct tcp_seg) + caplen;
    struct tcp_seg *s = NULL;
    if (memcap_take(c->mc, MEM_REASSEMBLY, need)) {
        s = malloc(need);
        if (!s) memcap_give(c->mc, MEM_REASSEMBLY, need);
    }
    if (!s) return false;
    s->frame = frame;
    s->ts_ns = ts;
    s->seq = seq;
    s->len = len;
    s->caplen = caplen;
    if (caplen) memcpy(s->data, p, caplen);
    /* Sorted by seq. Segments after a gap mostly come in order: append at
     * the tail in O(1); others walk the (bounded) list. */
    s->next = NULL;
    if (!d->ooo_tail || seq_diff(d->ooo_tail->seq, seq) <= 0) {
        if (d->ooo_tail) d->ooo_tail->next = s; else d->ooo = s;
        d->ooo_tail = s;
    } else {
        struct tcp_seg **pp = &d->ooo;
        while (*pp && seq_diff((*pp)->seq, seq) <= 0) pp = &(*pp)->next;
        s->next = *pp;
        *pp = s;
    }
    d->ooo_bytes += caplen;
    d->ooo_count++;
    return true;
}

/* The end of what a side has delivered, its FIN (one sequence number)
 * included: how far the peer may acknowledge without a hold. */
static uint32_t delivered_end(const struct tcp_dir *d) { return d->next_seq + (d->fin_seen ? 1u : 0u); }

/* The hold ends: what waited goes, each segment with its own frame. */
static void hold_release(const struct tcp_ctx *c, struct tcp_dir *d, int dir)
{
    if (!d->holding) return;
    d->holding = false;
    drain(c, d, dir, true, 0, 0);
}

/* Hold a segment of this side (the first one starts the hold); false when
 * the hold's bound or the memory cap refuses it (it is then delivered as
 * any other, and the hold, if any, let go first). */
static bool hold_put(const struct tcp_ctx *c, struct tcp_dir *d, int dir, const struct tcp_segment_in *s,
                     uint32_t seq, uint32_t caplen, uint32_t len)
{
    if (d->ooo_bytes + caplen <= TCP_HOLD_BYTES && d->ooo_count < TCP_OOO_SEGS_MAX &&
        enqueue(c, d, seq, s->payload, caplen, len, s->frame, s->ts_ns)) {
        if (!d->holding) {
            d->holding = true;
            d->hold_ack = s->ack;
            d->hold_age = 0;
            d->hold_ts = s->ts_ns;
            c->st->held++;
        }
        return true;
    }
    c->st->hold_refused++;
    hold_release(c, d, dir);
    return false;
}

/* After each segment of the connection: a hold ends when the other side
 * has delivered the bytes it acknowledged, or, those lost to the capture,
 * after a few more segments or a short time. */
static void hold_check(const struct tcp_ctx *c, struct tcp_dir *d, int dir, const struct tcp_dir *peer, int64_t ts)
{
    if (!d->holding) return;
    if (seq_diff(delivered_end(peer), d->hold_ack) >= 0) {
        hold_release(c, d, dir);
    } else if (++d->hold_age > TCP_HOLD_SEGS || ts - d->hold_ts > TCP_HOLD_NS) {
        c->st->hold_expired++;
        hold_release(c, d, dir);
    }
}

void tcp_reasm_release_hold(const struct tcp_ctx *c, struct tcp_dir *d, int dir)
{
    if (d->holding) c->st->hold_expired++;
    hold_release(c, d, dir);
}

bool tcp_reasm_rst_acceptable(const struct tcp_dir *d, uint32_t seq)
{
    if (!d->have_seq || seq == d->next_seq) return true;
    if (d->fin_seen && seq == d->next_seq + 1) return true; /* after our FIN, which took one number */
    return d->ooo_tail && seq == d->ooo_tail->seq + d->ooo_tail->len;
}

bool tcp_reasm_syn_stale(const struct tcp_dir *d, uint32_t seq)
{
    if (!d->have_seq || d->next_seq == d->first_seq) return false; /* nothing delivered yet */
    return seq_diff(seq, d->first_seq - 1) >= 0 && seq_diff(seq, d->next_seq) <= 0;
}

void tcp_reasm_segment(const struct tcp_ctx *c, struct tcp_dir *d, int dir, struct tcp_dir *other,
                       const struct tcp_segment_in *s)
{
    c->st->segments++;
    uint32_t seq = s->seq;
    bool syn = s->flags & TH_SYN;
    if (syn && tcp_reasm_syn_stale(d, seq)) {
        /* Not a new connection, and no part of this one: a corrupt or
         * replayed segment (a real one repeated the segment before it plus
         * a few bytes). Its payload is not the stream's: taken as data,
         * its bytes past the next expected one would push the stream ahead
         * of the real segment that carries them, and cut the next record. */
        c->st->syn_ignored++;
        return;
    }
    if (syn) {
        d->isn = seq;
        d->next_seq = d->first_seq = seq + 1;
        d->have_seq = d->syn_seen = true;
        seq++;
    } else if (!d->have_seq) {
        d->next_seq = d->first_seq = seq; /* picked up mid-stream */
        d->have_seq = true;
    }
    /* The peer acknowledged bytes of the other direction we never saw: the
     * capture missed them and no retransmission will come. The ACK covers
     * every byte below it, so every missing range it covers goes at once. */
    if ((s->flags & TH_ACK) && other->have_seq) {
        /* (bytes the other side holds were received: they go first) */
        if (other->holding && seq_diff(s->ack, other->next_seq) > 0) hold_release(c, other, dir ^ 1);
        while (other->ooo && seq_diff(s->ack, other->next_seq) > 0 && seq_diff(s->ack, other->ooo->seq) >= 0)
            skip_to(c, other, dir ^ 1, other->ooo->seq, s->frame, s->ts_ns);
    }
    uint32_t len = s->len, caplen = s->caplen < s->len ? s->caplen : s->len;
    if (len) {
        int32_t rel = seq_diff(seq, d->next_seq);
        bool fresh = rel > 0 || (uint32_t)(d->next_seq - seq) < len; /* bytes not delivered yet */
        /* Bytes that acknowledge the other side's bytes not seen yet wait
         * for them (a reply captured before its call); so does everything
         * this side sends while it holds. */
        bool hold = fresh && (d->holding || (rel <= 0 && (s->flags & TH_ACK) && other->have_seq &&
                                             !other->holding && seq_diff(s->ack, delivered_end(other)) > 0));
        bool held = hold && hold_put(c, d, dir, s, seq, caplen, len);
        if (hold && !held) rel = seq_diff(seq, d->next_seq); /* the hold was let go: its bytes went first */
        if (held) {
            /* waits for the other side */
        } else if (rel < 0) { /* retransmission or overlap with delivered bytes */
            uint32_t skip = d->next_seq - seq;
            if (skip >= len) {
                c->st->retransmitted++;
            } else {
                c->st->retransmitted++;
                uint32_t cap = caplen > skip ? caplen - skip : 0;
                deliver(c, d, dir, cap ? s->payload + skip : NULL, cap, len - skip, s->frame, s->ts_ns);
                d->next_seq = seq + len;
                drain(c, d, dir, false, s->frame, s->ts_ns);
            }
        } else if (rel == 0) {
            deliver(c, d, dir, s->payload, caplen, len, s->frame, s->ts_ns);
            d->next_seq = seq + len;
            if (d->ooo) drain(c, d, dir, false, s->frame, s->ts_ns);
        } else {
            queue(c, d, dir, seq, s->payload, caplen, len, s->frame, s->ts_ns);
        }
    }
    if (s->flags & TH_FIN) d->fin_seen = true;
    hold_check(c, other, dir ^ 1, d, s->ts_ns);
    hold_check(c, d, dir, other, s->ts_ns);
}

void tcp_reasm_flush(const struct tcp_ctx *c, struct tcp_dir *d, int dir)
{
    tcp_reasm_release_hold(c, d, dir);
    while (d->ooo) skip_to(c, d, dir, d->ooo->seq, d->ooo->frame, d->ooo->ts_ns);
}

void tcp_reasm_release(const struct tcp_ctx *c, struct tcp_dir *d)
{
    while (d->ooo) free_seg(c, d, pop_head(d));
    d->holding = false;
}
