/* Frames through the transport stages: link and IP decoding, IP fragment
 * reassembly, flows, TCP reassembly and record marking, or UDP datagrams,
 * down to RPC messages for the RPC stage. What a TCP segment means for its
 * connection is decided by the connection policy (stream/tcp_conn.h); this
 * file wires it to the reassembler and the RPC stage's connection records.
 * The flow being delivered travels with each callback (struct delivery),
 * never through the analyzer, and so do the frame and time of the bytes
 * delivered: the analyzer's clock (frame, now) stays the frame being fed. */
#include <string.h>

#include "analyzer_int.h"
#include "netdecode.h"
#include "rpc_msg.h"
#include "xdr.h"

#define FRAG_TIMEOUT (30ll * 1000000000ll)
#define HOUSEKEEPING_EVERY (1000000000ll)
#define IDLE_TRIM (10ll * 1000000000ll) /* idle connections give back their buffers */
/* A connection silent this long with no FIN seen is let go (its record stays
 * as a summary, bounded like closed ones): NFSv4 clients renew their lease
 * every lease/2 (45 s by default) and Linux closes an idle NFSv3 connection
 * after 5 minutes, so it is gone (its FIN not captured) or truly idle. A
 * later segment starts a new connection record. Memory then follows the
 * connections of the last minutes, not capture length. */
#define IDLE_RETIRE (600ll * 1000000000ll)
#define SWEEP_PER_TICK 1024 /* flows looked at per housekeeping tick */

/* Context of the stream callbacks: the analyzer and the flow delivering. */
struct delivery {
    struct ns_analyzer *a;
    struct flow *f;
};

static void on_tcp_bytes(void *ctx, int dir, const uint8_t *data, uint32_t len, enum tcp_hole_kind kind,
                         uint64_t frame, int64_t ts);
static void on_record(void *ctx, int dir, const struct ns_msg *m, bool truncated, uint64_t frame, int64_t ts);
static bool on_plausible(void *ctx, int dir, const uint8_t *p, uint32_t n, uint32_t len, bool expected);
static bool on_skippable(void *ctx, int dir, const struct ns_msg *trial);

static struct tcp_ctx tcp_ctx_of(struct delivery *d)
{
    return (struct tcp_ctx){&d->a->mc, &d->a->tcp_st, on_tcp_bytes, d};
}

/* Record marking's context for bytes of this frame and time. */
static struct rec_ctx rec_ctx_of(struct delivery *d, uint64_t frame, int64_t ts)
{
    return (struct rec_ctx){&d->a->mc, &d->a->rec_st, on_record, on_plausible, d, on_skippable, frame, ts};
}

static struct ns_conn *flow_conn_of(struct ns_analyzer *a, const struct flow *f)
{
    return f->rpc.conn_id ? rpc_stage_conn(a->rpc, f->rpc.conn_id) : NULL;
}

/* A TCP segment of a connection known to carry RPC: frames and bytes each way. */
static void count_segment(struct ns_conn *c, const struct flow *f, int side, uint32_t wire, uint8_t flags,
                          int64_t now)
{
    c->frames++;
    c->last_ts_ns = now;
    if (side == flow_server(f)) c->bytes_to_client += wire; else c->bytes_to_server += wire;
    if (flags & TH_FIN) c->closed = true; /* an RST closes it only when accepted */
}

/* Give back what reassembly and record marking hold (a partial message is dropped). */
static void release_buffers(struct ns_analyzer *a, struct flow *f)
{
    struct delivery dv = {a, f};
    struct tcp_ctx tc = tcp_ctx_of(&dv);
    struct rec_ctx rc = rec_ctx_of(&dv, a->frame, a->now);
    for (int d = 0; d < 2; d++) {
        tcp_reasm_release(&tc, &f->tcp[d]);
        rec_release(&rc, &f->rec[d]);
    }
}

static void release_flow(struct ns_analyzer *a, struct flow *f)
{
    release_buffers(a, f);
    rpc_stage_flow_gone(a->rpc, f); /* its connection record may now be a closed summary */
}

void transport_on_flow_evict(void *ctx, struct flow *f)
{
    struct ns_analyzer *a = ctx;
    a->st.evicted_flows++;
    release_flow(a, f);
}

static void release_cb(void *ctx, struct flow *f) { release_flow(ctx, f); }

static void retire_cb(void *ctx, struct flow *f)
{
    struct ns_analyzer *a = ctx;
    if (f->rpc.conn_id) a->st.flows_retired_idle++; /* a connection; a flow never seen carrying RPC is none */
    release_flow(a, f);
}

static void trim_cb(void *ctx, struct flow *f)
{
    struct delivery dv = {ctx, f};
    struct rec_ctx rc = rec_ctx_of(&dv, dv.a->frame, dv.a->now);
    struct tcp_ctx tc = tcp_ctx_of(&dv);
    for (int d = 0; d < 2; d++) {
        /* bytes held for the other side's that never came: they go now */
        if (f->key.proto == 6 && !f->tcp_conn.not_rpc) tcp_reasm_release_hold(&tc, &f->tcp[d], d);
        rec_trim(&rc, &f->rec[d]);
    }
}

/* ---- TCP ---- */

static void on_tcp_bytes(void *ctx, int dir, const uint8_t *data, uint32_t len, enum tcp_hole_kind kind,
                         uint64_t frame, int64_t ts)
{
    struct delivery *dv = ctx;
    struct ns_analyzer *a = dv->a;
    struct flow *f = dv->f;
    if (f->tcp_conn.not_rpc) return;
    /* Bytes that waited in the queue keep their frame; their time is never
     * past the clock (which may have gone back to the capture's start). */
    struct rpc_at at = {frame, ts < a->now ? ts : a->now};
    const struct rpc_at *outer = a->delivering;
    a->delivering = &at;
    struct rec_ctx rc = rec_ctx_of(dv, at.frame, at.ts);
    struct ns_conn *c = kind != TCP_DATA ? flow_conn_of(a, f) : NULL;
    if (c) {
        c->missing_bytes += len;
        if (kind == TCP_HOLE_GAP) c->gaps++;
    }
    struct rec_dir *r = &f->rec[dir];
    if (data) {
        if (!tcp_conn_probe(f, dir, len, a->probe_budget)) { /* no RPC in the budget: stop looking */
            a->st.tcp_flows_not_rpc++;
            release_flow(a, f);
            a->delivering = outer;
            return;
        }
        rec_data(&rc, r, dir, data, len);
    } else if (kind == TCP_HOLE_TRUNCATED) {
        rec_hole_snaplen(&rc, r, dir, len);
    } else {
        rec_hole(&rc, r, dir, len);
    }
    /* Bytes skipped looking for a record count once the flow is RPC (or on
     * an RPC port); a flow given up as not RPC is counted as such instead. */
    if (r->unsynced && tcp_conn_counts_unsynced(f)) {
        a->st.tcp_bytes_unsynced += r->unsynced;
        r->unsynced = 0;
    }
    a->st.rpc_msgs_lost += a->rec_st.msgs_lost; /* rec_st.msgs_lost: since the last chunk */
    a->rec_st.msgs_lost = 0;
    a->delivering = outer;
}

/* A message out of record marking, dated by the bytes that make it (rec_msg_fn). */
static void on_record(void *ctx, int dir, const struct ns_msg *m, bool truncated, uint64_t frame, int64_t ts)
{
    struct delivery *dv = ctx;
    struct rpc_at at = {frame, ts};
    rpc_stage_message(dv->a->rpc, dv->f, dir, m, truncated, &at);
}

static bool on_plausible(void *ctx, int dir, const uint8_t *p, uint32_t n, uint32_t len, bool expected)
{
    struct delivery *dv = ctx;
    return rpc_stage_plausible(dv->a->rpc, dv->f, dir, p, n, len, expected);
}

static bool on_skippable(void *ctx, int dir, const struct ns_msg *trial)
{
    struct delivery *dv = ctx;
    return rpc_stage_skippable(dv->a->rpc, dv->f, dir, trial);
}

static bool well_known(uint16_t port) { return port == 2049 || port == 111; }

/* Is either port of a TCP flow known to carry RPC (tcp_conn_rpc_port, with
 * the ports the user names: ns_config.rpc_ports)? */
static bool rpc_port_tcp(const struct ns_analyzer *a, const struct flow_key *k)
{
    size_t n = sizeof a->cfg.rpc_ports / sizeof a->cfg.rpc_ports[0];
    return tcp_conn_rpc_port(k->port[0], a->cfg.rpc_ports, n) || tcp_conn_rpc_port(k->port[1], a->cfg.rpc_ports, n);
}

static void handle_tcp(struct ns_analyzer *a, const struct net_pkt *p, const struct ns_msg *seg)
{
    struct xdr x;
    xdr_init(&x, seg);
    uint16_t sport = xdr_u16(&x), dport = xdr_u16(&x);
    uint32_t seq = xdr_u32(&x), ack = xdr_u32(&x);
    uint8_t off = xdr_u8(&x);
    uint8_t flags = xdr_u8(&x);
    uint32_t hlen = (uint32_t)(off >> 4) * 4;
    if (!xdr_ok(&x) || hlen < 20 || hlen > seg->len) { a->st.frames_undecodable++; return; }
    xdr_skip(&x, hlen - 14);
    if (!xdr_ok(&x)) { a->st.frames_undecodable++; return; }

    struct flow_key k;
    int side;
    flow_key_make(&k, 6, &p->src, sport, &p->dst, dport, &side);
    bool created = false;
    /* A bare ACK never starts a flow: it carries nothing to analyse, and the
     * last ACKs after a FIN would otherwise bring a removed flow back. */
    struct flow *f = (flags & (TH_SYN | TH_FIN | TH_RST)) || seg->len > hlen
                         ? flow_lookup(a->flows, &k, a->now, &created)
                         : flow_find(a->flows, &k, a->now);
    if (!f) return;
    if (!created && tcp_conn_reused(f, side, flags, seq)) {
        /* Port reuse: a new connection on the same addresses and ports. */
        release_buffers(a, f);
        rpc_stage_flow_reused(a->rpc, f);
        tcp_conn_restart(f);
        created = true;
    }
    if (created) tcp_conn_start(f, flags & TH_SYN, rpc_port_tcp(a, &f->key));
    /* Every segment of the connection counts, the last ACK after both FINs
     * and an ignored RST included (as tshark's conversation counts them). */
    uint32_t wire = seg->len - hlen;
    struct ns_conn *c = flow_conn_of(a, f);
    if (c) count_segment(c, f, side, wire, flags, a->now);
    else tcp_conn_count_early(&f->tcp_conn, side, wire);
    if (!tcp_conn_takes(f, side, seq, wire, flags, a->now)) return;
    if (flags & TH_RST) {
        if (!tcp_conn_rst(f, side, seq, &a->tcp_st)) return; /* not at the next expected byte: ignored */
        if (c) c->closed = true;
    }

    /* Payload: the captured bytes right after the header (for a datagram
     * rebuilt from fragments with holes, its captured prefix). */
    uint32_t cap;
    const uint8_t *payload = xdr_captured_run(&x, &cap);
    if (cap > wire) cap = wire;
    if (!cap) payload = NULL;
    struct delivery dv = {a, f};
    struct tcp_ctx tc = tcp_ctx_of(&dv);
    struct tcp_segment_in in = {seq, ack, flags, payload, cap, wire, a->frame, a->now};
    uint64_t retrans = a->tcp_st.retransmitted, ooo = a->tcp_st.out_of_order;
    tcp_reasm_segment(&tc, &f->tcp[side], side, &f->tcp[side ^ 1], &in);
    /* the connection's own share of the totals (ns_analyzer_conn_tcp) */
    uint64_t d_re = a->tcp_st.retransmitted - retrans, d_oo = a->tcp_st.out_of_order - ooo;
    if (d_re || d_oo) {
        if (f->rpc.conn_id) rpc_stage_conn_tcp_add(a->rpc, f->rpc.conn_id, d_re, d_oo);
        else tcp_conn_count_early_tcp(&f->tcp_conn, d_re, d_oo);
    }
    /* The connection became known with this segment's RPC message: its
     * segments so far (handshake, the first message's) count in it too. */
    if (!c && (c = flow_conn_of(a, f)) != NULL) {
        struct tcp_conn_early e = tcp_conn_take_early(&f->tcp_conn);
        c->frames += e.frames;
        int srv = flow_server(f) == 0 ? 0 : 1; /* decided when the record was made */
        c->bytes_to_client += e.bytes[srv];
        c->bytes_to_server += e.bytes[srv ^ 1];
        if (e.retrans || e.ooo) rpc_stage_conn_tcp_add(a->rpc, f->rpc.conn_id, e.retrans, e.ooo);
    }
    if (tcp_conn_ended(f)) {
        /* Nothing more should come: hand over what waits and give back the
         * buffers now, so memory follows open connections, not capture
         * length. A message still arriving keeps its buffer (a late segment
         * may end it) until the flow lingers out (TCP_CONN_LINGER). */
        for (int d = 0; d < 2; d++) {
            tcp_reasm_flush(&tc, &f->tcp[d], d);
            struct rec_ctx rc = rec_ctx_of(&dv, a->frame, a->now);
            rec_trim(&rc, &f->rec[d]);
        }
        /* its connection record may now be a closed summary */
        if (tcp_conn_release(f, a->now)) rpc_stage_flow_gone(a->rpc, f);
    }
}

/* ---- UDP ---- */

static void handle_udp(struct ns_analyzer *a, const struct net_pkt *p, const struct ns_msg *dg)
{
    struct xdr x;
    xdr_init(&x, dg);
    uint16_t sport = xdr_u16(&x), dport = xdr_u16(&x);
    uint32_t ulen = xdr_u16(&x);
    xdr_skip(&x, 2);
    if (!xdr_ok(&x)) { a->st.frames_undecodable++; return; }
    /* The datagram's length: its UDP length field, which belongs to the
     * whole datagram (reassembled from fragments here). Bytes after it
     * (trailers) are not the message; a field claiming more than the IP
     * payload is clamped to it; 0 (a jumbogram, offload) or below the
     * header says nothing. Either disagreement is counted. */
    uint32_t dlen = dg->len;
    if (ulen != dlen && !(ulen == 0 && dg->len > 0xffff)) {
        a->st.frames_udp_len_bad++;
        if (ulen >= 8 && ulen < dlen) dlen = ulen;
    }
    /* The RPC message: the datagram after the 8-byte header. */
    /* A datagram has at most IPFRAG_MAX_SPANS spans (2 for a frame). */
    struct ns_span spans[IPFRAG_MAX_SPANS];
    if (dg->nspans > IPFRAG_MAX_SPANS) { a->st.frames_undecodable++; return; }
    uint32_t n = 0, pos = 0;
    for (uint32_t i = 0; i < dg->nspans && pos < dlen; i++) {
        const struct ns_span *s = &dg->spans[i];
        uint32_t start = pos, end = pos + s->len;
        if (end > dlen) end = dlen; /* past the UDP length */
        pos = end;
        if (end <= 8) continue;
        uint32_t skip = start < 8 ? 8 - start : 0;
        spans[n++] = (struct ns_span){s->data ? s->data + skip : NULL, end - start - skip};
    }
    struct ns_msg m = {spans, n, dlen > 8 ? dlen - 8 : 0};
    bool rpc_port = well_known(sport) || well_known(dport);
    if (m.len < 12) { /* too short for any RPC message */
        if (rpc_port) a->st.udp_not_rpc++;
        return;
    }

    struct flow_key k;
    int side;
    flow_key_make(&k, 17, &p->src, sport, &p->dst, dport, &side);
    /* Only datagrams that look like RPC make a flow. */
    uint8_t head[32];
    uint32_t hn = 0;
    {
        struct xdr y;
        xdr_init(&y, &m);
        hn = m.len < sizeof head ? m.len : sizeof head;
        xdr_bytes(&y, head, hn);
        if (!xdr_ok(&y)) return;
    }
    bool is_reply;
    uint32_t xid;
    bool looks = rpc_looks_like(head, hn, m.len, &is_reply, &xid);
    if (!looks && !rpc_port) return;
    bool created;
    struct flow *f = flow_lookup(a->flows, &k, a->now, &created);
    if (!f) return;
    if (!f->rpc.conn_id && !looks) { a->st.udp_not_rpc++; return; } /* on an RPC port, not RPC */
    bool truncated = false;
    for (uint32_t i = 0; i < n; i++) if (!spans[i].data) truncated = true;
    struct rpc_at at = {a->frame, a->now};
    rpc_stage_message(a->rpc, f, side, &m, truncated, &at);
    struct ns_conn *c = flow_conn_of(a, f);
    if (c) {
        c->frames++;
        if (side == flow_server(f)) c->bytes_to_client += m.len; else c->bytes_to_server += m.len;
        if (truncated) c->missing_bytes += m.len;
    }
}

static void handle_transport(struct ns_analyzer *a, const struct net_pkt *p, const struct ns_msg *m)
{
    if (p->proto == 6) handle_tcp(a, p, m);
    else if (p->proto == 17) handle_udp(a, p, m);
    else a->st.frames_other_transport++;
}

void transport_on_datagram(void *ctx, const struct ipfrag_done *d)
{
    struct ns_analyzer *a = ctx;
    analysis_on_fragmented(&a->an, d, a->frame, a->now);
    if (!d->complete) { a->st.ip_fragments_incomplete++; return; }
    a->st.ip_datagrams_reassembled++;
    handle_transport(a, d->last, &d->datagram);
}

/* ---- frames ---- */

void transport_housekeeping(struct ns_analyzer *a, bool force)
{
    if (!force && a->now - a->last_expire < HOUSEKEEPING_EVERY && a->now >= a->last_expire) return;
    a->last_expire = a->now;
    ipfrag_expire(a->frags, a->now, FRAG_TIMEOUT);
    rpc_stage_flush(a->rpc, a->now, 0);
    struct flow_sweep_rules rules = {TCP_CONN_LINGER, IDLE_TRIM, IDLE_RETIRE, release_cb, trim_cb, retire_cb, a};
    flow_sweep(a->flows, a->now, SWEEP_PER_TICK, &rules);
}

static uint64_t fp_mix(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

static uint64_t fp_bytes(uint64_t h, const uint8_t *p, uint32_t n)
{
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = fp_mix(h, w);
    }
    /* the last 0-7 bytes in at most three loads, not a byte loop: this runs
     * on every frame */
    uint64_t w = (uint64_t)n << 56;
    unsigned s = 0;
    if (n & 4) { uint32_t x; memcpy(&x, p, 4); w |= x; p += 4; s = 32; }
    if (n & 2) { uint16_t x; memcpy(&x, p, 2); w |= (uint64_t)x << s; p += 2; s += 16; }
    if (n & 1) w |= (uint64_t)*p << s;
    return fp_mix(h, w);
}

/* The fingerprint of an IP packet for is_capture_dup: never 0. The link
 * header is left out: tcpdump -i any sees one packet on two interfaces. */
static uint64_t packet_print(const struct net_pkt *p)
{
    uint32_t n = p->l4_caplen < DUP_PREFIX ? p->l4_caplen : DUP_PREFIX;
    uint32_t alen = p->ipver == 4 ? 4 : 16;
    uint64_t h = fp_mix(0, (uint64_t)p->l4_len << 32 | p->frag_id);
    h = fp_mix(h, (uint64_t)p->frag_offset << 32 | (uint64_t)p->ipver << 24 | (uint64_t)p->proto << 16 |
                      (uint64_t)p->more_fragments << 8);
    if (alen == 4) { /* both IPv4 addresses in one word */
        uint32_t sa, da;
        memcpy(&sa, p->src.a, 4);
        memcpy(&da, p->dst.a, 4);
        h = fp_mix(h, (uint64_t)sa << 32 | da);
    } else {
        h = fp_bytes(h, p->src.a, alen);
        h = fp_bytes(h, p->dst.a, alen);
    }
    if (n && p->l4) h = fp_bytes(h, p->l4, n);
    return h ? h : 1;
}

/* Was this IP packet seen within the last DUP_FRAMES frames and
 * DUP_WINDOW_NS (analyzer_int.h)? Remembers it either way. */
static bool is_capture_dup(struct ns_analyzer *a, const struct net_pkt *p)
{
    uint64_t h = packet_print(p);
    for (uint32_t i = 0; i < DUP_FRAMES; i++) {
        const struct dup_seen *d = &a->dup[i];
        if (d->print != h) continue;
        int64_t dt = a->now - d->ts;
        if (dt <= DUP_WINDOW_NS && dt >= -DUP_WINDOW_NS) return true; /* the copy: the first is remembered */
    }
    struct dup_seen *d = &a->dup[a->dup_next];
    a->dup_next = (a->dup_next + 1) % DUP_FRAMES;
    d->print = h;
    d->ts = a->now;
    return false;
}

void transport_frame(struct ns_analyzer *a, int linktype, const uint8_t *data, uint32_t caplen, uint32_t len)
{
    struct ns_stats *st = &a->st;
    struct net_pkt p;
    enum net_result r = net_decode(linktype, data, caplen, len, &p);
    if (r == NET_NOT_IP) { st->frames_not_ip++; return; }
    if (r != NET_OK) { st->frames_undecodable++; return; }
    /* A packet captured twice is analysed once: its copy is neither an RPC
     * retransmission nor a duplicate reply. */
    if (is_capture_dup(a, &p)) {
        st->frames_duplicate++;
        if (p.is_fragment) st->ip_fragments++; /* every fragment seen counts (not reassembled twice) */
        return;
    }
    if (p.ip_len_clamped) st->frames_ip_len_clamped++;
    if (p.is_fragment) {
        st->ip_fragments++;
        if (!ipfrag_add(a->frags, &p, a->now)) a->frags_dropped++;
    } else {
        struct ns_span sp[2] = {{p.l4, p.l4_caplen}, {NULL, p.l4_len - p.l4_caplen}};
        struct ns_msg m = {sp, p.l4_len > p.l4_caplen ? 2 : 1, p.l4_len};
        if (!p.l4) { sp[0] = sp[1]; sp[0].len = p.l4_len; m.nspans = 1; }
        handle_transport(a, &p, &m);
    }
}

static void flush_flow(void *ctx, struct flow *f)
{
    struct delivery dv = {ctx, f};
    struct tcp_ctx tc = tcp_ctx_of(&dv);
    if (f->key.proto == 6 && !f->tcp_conn.not_rpc && !f->tcp_conn.released) {
        for (int d = 0; d < 2; d++) {
            tcp_reasm_flush(&tc, &f->tcp[d], d);
            /* a call whose record was still arriving when the capture ended */
            if (rec_pending_msgtype(&f->rec[d]) == 0) dv.a->st.rpc_calls_cut_by_end++;
        }
    }
}

void transport_flush_all(struct ns_analyzer *a) { flow_foreach(a->flows, flush_flow, a); }

void transport_release_all(struct ns_analyzer *a) { flow_foreach(a->flows, release_cb, a); }
