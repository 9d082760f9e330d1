/* The analyzer: frames in, through link/IP decoding, flows, TCP reassembly
 * or UDP datagrams, to RPC messages; transactions out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analyzer_int.h"
#include "netdecode.h"
#include "rpc_msg.h"
#include "stats_int.h"
#include "xdr.h"

#define DEFAULT_MEMCAP (512ull << 20)
#define DEFAULT_CALL_TIMEOUT (120ll * 1000000000ll)
#define FRAG_TIMEOUT (30ll * 1000000000ll)
#define HOUSEKEEPING_EVERY (1000000000ll)
#define CLOSED_LINGER (5ll * 1000000000ll) /* closed TCP flows absorb late segments this long */
#define IDLE_TRIM (10ll * 1000000000ll) /* idle connections give back their buffers */
#define SWEEP_PER_TICK 1024 /* flows looked at per housekeeping tick */
#define PROBE_CHUNKS 16 /* chunks of an unknown TCP flow searched for RPC */

static void on_tcp_bytes(void *ctx, int dir, const uint8_t *data, uint32_t len, enum tcp_hole_kind kind,
                         uint64_t frame, int64_t ts);
static void on_record(void *ctx, int dir, const struct ns_msg *m, bool truncated);
static bool on_plausible(void *ctx, int dir, const uint8_t *p, uint32_t n, uint32_t len);
static void on_datagram(void *ctx, const struct ipfrag_done *d);
static void release_cb(void *ctx, struct flow *f);
static void trim_cb(void *ctx, struct flow *f);

static void on_txn_done(void *ctx, struct ns_txn *t, bool given_up)
{
    struct ns_analyzer *a = ctx;
    if (given_up && t->call_frame && !t->reply_frame) {
        a->st.rpc_unmatched_calls++;
    }
    a->st.txns++;
    analysis_on_txn_done(a, t, given_up);
    if (a->txn_fn) a->txn_fn(a->txn_ctx, t);
}

static void release_flow(struct ns_analyzer *a, struct flow *f)
{
    struct tcp_ctx tc = {&a->mc, &a->tcp_st, on_tcp_bytes, a};
    struct rec_ctx rc = {&a->mc, &a->rec_st, on_record, on_plausible, a};
    for (int d = 0; d < 2; d++) {
        tcp_reasm_release(&tc, &f->tcp[d]);
        rec_release(&rc, &f->rec[d]);
    }
}

static void on_flow_evict(void *ctx, struct flow *f)
{
    struct ns_analyzer *a = ctx;
    a->st.evicted_flows++;
    release_flow(a, f);
}

bool ns_linktype_supported(int linktype) { return net_linktype_supported(linktype); }

ns_analyzer *ns_analyzer_new(const struct ns_config *cfg)
{
    struct ns_analyzer *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    if (cfg) a->cfg = *cfg;
    if (!a->cfg.memcap) a->cfg.memcap = DEFAULT_MEMCAP;
    if (!a->cfg.call_timeout_ns) a->cfg.call_timeout_ns = DEFAULT_CALL_TIMEOUT;
    memcap_init(&a->mc, a->cfg.memcap);
    a->flows = flow_table_new(&a->mc, on_flow_evict, a);
    a->frags = ipfrag_new(&a->mc, on_datagram, a);
    a->txns = txn_table_new(&a->mc, on_txn_done, a);
    if (!a->flows || !a->frags || !a->txns || !analysis_init(a)) {
        ns_analyzer_free(a);
        return NULL;
    }
    return a;
}

static void release_cb(void *ctx, struct flow *f) { release_flow(ctx, f); }

static void trim_cb(void *ctx, struct flow *f)
{
    struct ns_analyzer *a = ctx;
    struct rec_ctx rc = {&a->mc, &a->rec_st, on_record, on_plausible, a};
    for (int d = 0; d < 2; d++) rec_trim(&rc, &f->rec[d]);
}

void ns_analyzer_free(ns_analyzer *a)
{
    if (!a) return;
    if (a->flows) flow_foreach(a->flows, release_cb, a);
    flow_table_free(a->flows);
    ipfrag_free(a->frags);
    txn_table_free(a->txns);
    analysis_free(a);
    stats_free(&a->st);
    free(a->conns);
    free(a);
}

void ns_analyzer_on_txn(ns_analyzer *a, ns_txn_fn fn, void *ctx)
{
    a->txn_fn = fn;
    a->txn_ctx = ctx;
}

/* ---- TCP ---- */

static void on_tcp_bytes(void *ctx, int dir, const uint8_t *data, uint32_t len, enum tcp_hole_kind kind,
                         uint64_t frame, int64_t ts)
{
    struct ns_analyzer *a = ctx;
    if (frame) { /* bytes that waited in the out-of-order queue: their own frame */
        uint64_t keep_frame = a->frame;
        int64_t keep_now = a->now;
        a->frame = frame;
        a->now = ts < keep_now ? ts : keep_now;
        on_tcp_bytes(ctx, dir, data, len, kind, 0, 0);
        a->frame = keep_frame;
        a->now = keep_now;
        return;
    }
    struct flow *f = a->cur_flow;
    struct rec_ctx rc = {&a->mc, &a->rec_st, on_record, on_plausible, a};
    if (f->rpc == FLOW_RPC_NO) return;
    if (kind != TCP_DATA && f->conn_id) {
        struct ns_conn *c = &a->conns[f->conn_id - 1];
        c->missing_bytes += len;
        if (kind == TCP_HOLE_GAP) c->gaps++;
    }
    if (data) {
        if (f->rpc == FLOW_RPC_UNKNOWN && f->rec[dir].state == REC_SYNC && ++f->probe_tries > PROBE_CHUNKS) {
            f->rpc = FLOW_RPC_NO; /* not RPC: stop looking at it */
            release_flow(a, f);
            return;
        }
        rec_data(&rc, &f->rec[dir], dir, data, len);
    } else {
        rec_hole(&rc, &f->rec[dir], dir, len);
    }
}

static void on_record(void *ctx, int dir, const struct ns_msg *m, bool truncated)
{
    struct ns_analyzer *a = ctx;
    rpc_on_message(a, a->cur_flow, dir, m, truncated);
}

static bool on_plausible(void *ctx, int dir, const uint8_t *p, uint32_t n, uint32_t len)
{
    struct ns_analyzer *a = ctx;
    return rpc_plausible(a, a->cur_flow, dir, p, n, len);
}

static bool well_known(uint16_t port) { return port == 2049 || port == 111; }

static void start_flow(struct flow *f, bool syn)
{
    bool known = well_known(f->key.port[0]) || well_known(f->key.port[1]);
    f->mid_stream = !syn;
    for (int d = 0; d < 2; d++) rec_init(&f->rec[d], syn && known);
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
    bool syn_only = (flags & (TH_SYN | TH_ACK)) == TH_SYN;
    if (!created && syn_only && (f->closed || (f->tcp[side].syn_seen && f->tcp[side].isn != seq))) {
        /* Port reuse: a new connection on the same addresses and ports. */
        release_flow(a, f);
        struct flow_key keep = f->key;
        memset(&f->tcp, 0, sizeof f->tcp);
        memset(&f->rec, 0, sizeof f->rec);
        f->key = keep;
        f->conn_id = 0;
        f->server = -1;
        f->rpc = FLOW_RPC_UNKNOWN;
        f->closed = false;
        f->released = false;
        f->probe_tries = 0;
        created = true;
    }
    if (created) start_flow(f, flags & TH_SYN);
    if (f->rpc == FLOW_RPC_NO || f->released) return;
    if (flags & TH_RST) f->closed = true;

    /* Payload: the captured bytes right after the header (for a datagram
     * rebuilt from fragments with holes, its captured prefix). */
    uint32_t wire = seg->len - hlen;
    uint32_t cap = x.p ? (uint32_t)(x.end - x.p) : 0;
    if (cap > wire) cap = wire;
    const uint8_t *payload = cap ? x.p : NULL;
    if (f->conn_id) {
        struct ns_conn *c = &a->conns[f->conn_id - 1];
        c->frames++;
        c->last_ts_ns = a->now;
        if (side == f->server) c->bytes_to_client += wire; else c->bytes_to_server += wire;
        if (flags & (TH_FIN | TH_RST)) c->closed = true;
    }
    struct tcp_ctx tc = {&a->mc, &a->tcp_st, on_tcp_bytes, a};
    struct tcp_segment_in in = {seq, ack, flags, payload, cap, wire, a->frame, a->now};
    a->cur_flow = f;
    tcp_reasm_segment(&tc, &f->tcp[side], side, &f->tcp[side ^ 1], &in);
    if (f->tcp[0].fin_seen && f->tcp[1].fin_seen) f->closed = true;
    if (f->closed && !f->released) {
        /* Nothing more will come: hand over what waits and free the buffers
         * now, so memory follows open connections, not capture length. */
        for (int d = 0; d < 2; d++) tcp_reasm_flush(&tc, &f->tcp[d], d);
        release_flow(a, f);
        f->released = true;
    }
}

/* ---- UDP ---- */

static void handle_udp(struct ns_analyzer *a, const struct net_pkt *p, const struct ns_msg *dg)
{
    struct xdr x;
    xdr_init(&x, dg);
    uint16_t sport = xdr_u16(&x), dport = xdr_u16(&x);
    xdr_skip(&x, 4);
    if (!xdr_ok(&x)) { a->st.frames_undecodable++; return; }
    /* The RPC message: the datagram after the 8-byte header. */
    struct ns_span spans[2 * 64 + 2];
    uint32_t n = 0, pos = 0;
    for (uint32_t i = 0; i < dg->nspans && n < sizeof spans / sizeof spans[0]; i++) {
        const struct ns_span *s = &dg->spans[i];
        uint32_t start = pos, end = pos + s->len;
        pos = end;
        if (end <= 8) continue;
        uint32_t skip = start < 8 ? 8 - start : 0;
        spans[n++] = (struct ns_span){s->data ? s->data + skip : NULL, s->len - skip};
    }
    struct ns_msg m = {spans, n, dg->len > 8 ? dg->len - 8 : 0};
    if (m.len < 12) return;

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
    if (!looks && !(well_known(sport) || well_known(dport))) return;
    bool created;
    struct flow *f = flow_lookup(a->flows, &k, a->now, &created);
    if (!f) return;
    if (created) f->mid_stream = false;
    if (!f->conn_id && !looks) return;
    a->cur_flow = f;
    bool truncated = false;
    for (uint32_t i = 0; i < n; i++) if (!spans[i].data) truncated = true;
    rpc_on_message(a, f, side, &m, truncated);
    if (f->conn_id) {
        struct ns_conn *c = &a->conns[f->conn_id - 1];
        c->frames++;
        if (side == f->server) c->bytes_to_client += m.len; else c->bytes_to_server += m.len;
        if (truncated) c->missing_bytes += m.len;
    }
}

static void handle_transport(struct ns_analyzer *a, const struct net_pkt *p, const struct ns_msg *m)
{
    if (p->proto == 6) handle_tcp(a, p, m);
    else if (p->proto == 17) handle_udp(a, p, m);
    else a->st.frames_other_transport++;
}

static void on_datagram(void *ctx, const struct ipfrag_done *d)
{
    struct ns_analyzer *a = ctx;
    analysis_on_fragmented(a, d);
    if (!d->complete) { a->st.ip_fragments_incomplete++; return; }
    a->st.ip_datagrams_reassembled++;
    handle_transport(a, d->last, &d->datagram);
}

/* ---- frames ---- */

static void housekeeping(struct ns_analyzer *a)
{
    if (a->now - a->last_expire < HOUSEKEEPING_EVERY && a->now >= a->last_expire) return;
    a->last_expire = a->now;
    ipfrag_expire(a->frags, a->now, FRAG_TIMEOUT);
    txn_flush(a->txns, a->now, a->cfg.call_timeout_ns);
    flow_sweep(a->flows, a->now, SWEEP_PER_TICK, CLOSED_LINGER, IDLE_TRIM, release_cb, trim_cb, a);
}

void ns_analyzer_feed(ns_analyzer *a, const struct ns_frame *fr)
{
    struct ns_stats *st = &a->st;
    st->frames++;
    st->bytes += fr->len;
    /* Time never goes backwards inside the analyzer: a frame stamped before
     * its predecessor is taken as happening at the same time. */
    int64_t ts = fr->ts_ns;
    if (st->frames == 1) { st->first_ts_ns = ts; a->last_expire = ts; }
    else if (ts < a->now) ts = a->now;
    a->now = ts;
    st->last_ts_ns = ts;
    a->frame = fr->number;
    if (fr->caplen < fr->len) st->frames_truncated++;

    struct net_pkt p;
    enum net_result r = net_decode(fr->linktype, fr->data, fr->caplen, fr->len, &p);
    if (r == NET_NOT_IP) { st->frames_not_ip++; return; }
    if (r != NET_OK) { st->frames_undecodable++; return; }
    if (p.is_fragment) {
        st->ip_fragments++;
        if (!ipfrag_add(a->frags, &p, ts)) a->frags_dropped++;
    } else {
        struct ns_span sp[2] = {{p.l4, p.l4_caplen}, {NULL, p.l4_len - p.l4_caplen}};
        struct ns_msg m = {sp, p.l4_len > p.l4_caplen ? 2 : 1, p.l4_len};
        if (!p.l4) { sp[0] = sp[1]; sp[0].len = p.l4_len; m.nspans = 1; }
        handle_transport(a, &p, &m);
    }
    housekeeping(a);
}

static void flush_flow(void *ctx, struct flow *f)
{
    struct ns_analyzer *a = ctx;
    struct tcp_ctx tc = {&a->mc, &a->tcp_st, on_tcp_bytes, a};
    a->cur_flow = f;
    if (f->key.proto == 6 && f->rpc != FLOW_RPC_NO)
        for (int d = 0; d < 2; d++) tcp_reasm_flush(&tc, &f->tcp[d], d);
}

void ns_analyzer_finish(ns_analyzer *a)
{
    flow_foreach(a->flows, flush_flow, a);
    ipfrag_expire(a->frags, a->now, -1);
    txn_flush(a->txns, a->now, -1);
    analysis_finish(a);
}

size_t ns_analyzer_findings(ns_analyzer *a, const struct ns_finding *const **out)
{
    return findings_sorted(a->findings, out);
}

uint64_t ns_analyzer_findings_dropped(const ns_analyzer *a) { return findings_dropped(a->findings); }

const struct ns_stats *ns_analyzer_stats(const ns_analyzer *ca)
{
    struct ns_analyzer *a = (struct ns_analyzer *)ca;
    struct ns_stats *st = &a->st;
    st->tcp_segments = a->tcp_st.segments;
    st->tcp_out_of_order = a->tcp_st.out_of_order;
    st->tcp_retransmitted = a->tcp_st.retransmitted;
    st->tcp_gaps = a->tcp_st.gaps;
    st->tcp_gap_bytes = a->tcp_st.gap_bytes;
    st->tcp_truncated_bytes = a->tcp_st.truncated_bytes;
    st->tcp_resyncs = a->rec_st.resyncs;
    st->records_bad_mark = a->rec_st.bad_marks;
    st->evicted_ooo_bytes = a->tcp_st.evicted_ooo_bytes + a->rec_st.dropped_bytes;
    st->evicted_pending_calls = txn_evicted(a->txns);
    st->evicted_conn_messages = a->conns_over_cap;
    st->evicted_fragments = a->frags_dropped + ipfrag_evicted(a->frags); /* dropped + trains evicted */
    st->peak_memory = a->mc.peak;
    return st;
}

size_t ns_analyzer_conn_count(const ns_analyzer *a) { return a->nconns; }

const struct ns_conn *ns_analyzer_conn(const ns_analyzer *a, uint32_t id)
{
    return id >= 1 && id <= a->nconns ? &a->conns[id - 1] : NULL;
}

void ns_endpoint_str(const struct ns_endpoint *e, char *buf, size_t n)
{
    const uint8_t *b = e->addr.a;
    if (e->addr.family == 4) {
        snprintf(buf, n, "%u.%u.%u.%u:%u", b[0], b[1], b[2], b[3], e->port);
        return;
    }
    /* RFC 5952: lowercase, longest run of zero groups as "::" */
    uint16_t g[8];
    for (int i = 0; i < 8; i++) g[i] = (uint16_t)(b[2 * i] << 8 | b[2 * i + 1]);
    int best = -1, bestlen = 1;
    for (int i = 0; i < 8;) {
        int j = i;
        while (j < 8 && g[j] == 0) j++;
        if (j - i > bestlen) { best = i; bestlen = j - i; }
        i = j > i ? j : i + 1;
    }
    char s[48];
    size_t o = 0;
    for (int i = 0; i < 8; i++) {
        if (i == best) { o += (size_t)snprintf(s + o, sizeof s - o, "::"); i += bestlen - 1; continue; }
        if (o && s[o - 1] != ':') s[o++] = ':';
        o += (size_t)snprintf(s + o, sizeof s - o, "%x", g[i]);
    }
    s[o] = 0;
    snprintf(buf, n, "[%s]:%u", s, e->port);
}
