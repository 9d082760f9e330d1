/* RPC over UDP: per client/server pair and timer class, the RTT samples
 * (Karn: only calls answered after one transmission), the estimator a Linux
 * client would run (udp_rtt.c), each retransmission against the timeout that
 * client would have armed, spurious resends, and replies lost to missing IP
 * fragments.
 *
 * Rules (doc/findings.md, doc/json-report.md):
 * - pair = (client address, server address, server port): a client that
 *   rebinds its source port stays the same pair, as its XIDs match.
 * - timeout armed at a send = udp_rtt_timeout(class, retries of the current
 *   cycle), with the estimator state at that send. A resend at or after
 *   cycle start + min(timeo << retrans, 60 s) is a major timeout: the Linux
 *   client starts over (retries 0, estimator reset to timeo, rpc_init_rtt).
 * - a reply sets ntimeouts of its class from the call's sends (rpc_set_timeo).
 * - spurious: the call was resent, and either a second reply came (each
 *   transmission was answered), or the first reply came less than half the
 *   smallest RTT sample of the class (of the pair if the class has none)
 *   after the last resend (too soon to answer it), or the resend went out
 *   after the reply had arrived. Counted once per call.
 * - lost to fragments: a reply datagram whose fragments never all arrived,
 *   its RPC header (first fragment) seen, and its XID sent again by the client
 *   after the first fragment arrived.
 * - wait: union of [previous send, resend] intervals, merged in packet order
 *   (a lower bound when a long wait starts before an earlier short one ended).
 */
#include "udp_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nfsscope/nfsscope.h"
#include "udp_rtt.h"

#define FRAME_SET 8

/* Example frames of one finding kind, and the times of its first and last event. */
struct frame_set { uint8_t n; uint64_t f[FRAME_SET]; int64_t first_ts, last_ts; };

struct pair {
    struct ns_udp_pair v;          /* the public view */
    struct udp_rtt rtt;
    int64_t wait_end;              /* end of the merged wait intervals */
    uint8_t nconns;
    uint32_t conns[NS_FINDING_CONNS];
    struct frame_set inflated_frames, frag_frames, spurious_frames;
    int64_t inflated_gap_max, inflated_rto;  /* the worst inflated resend */
};

struct resend {
    struct ns_addr client, server;
    uint16_t sport;
    uint8_t timer;
    uint32_t xid;
    int64_t ts;
    uint64_t frame;
};

struct udp_timing {
    struct memcap *mc;
    struct udp_timing_cfg cfg;
    int64_t majortimeo;
    struct pair *p;
    size_t n, cap;
    size_t last;                   /* last pair found */
    struct findings *fs;
    struct analysis_amend amend;
    bool finished;
    uint64_t evicted_pairs, evicted_resends;
    struct resend *ring;
    size_t ring_n, ring_head;
    /* the fragmented datagram being delivered (frame), for its call/reply */
    uint64_t frag_frame;
    uint32_t frag_count, frag_max_len;
    uint8_t frag_ipver;
};

/* ---- timer classes ---- */

unsigned ns_udp_timer_class(uint32_t prog, uint32_t vers, uint32_t proc)
{
    if (prog != 100003) return NS_UDP_TIMER_OTHER;
    if (vers == 3) {
        /* fs/nfs/nfs3xdr.c PROC(..., timer) */
        static const uint8_t v3[22] = {0, 1, 0, 2, 1, 3, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 5};
        return proc < 22 ? v3[proc] : 0;
    }
    if (vers == 2) {
        /* fs/nfs/nfs2xdr.c: GETATTR 1, LOOKUP 2, READLINK/READ/READDIR 3, WRITE 4 */
        static const uint8_t v2[18] = {0, 1, 0, 0, 2, 3, 3, 0, 4, 0, 0, 0, 0, 0, 0, 0, 3, 0};
        return proc < 18 ? v2[proc] : 0;
    }
    return NS_UDP_TIMER_OTHER;
}

const char *ns_udp_timer_name(unsigned timer)
{
    static const char *const names[NS_UDP_TIMERS] = {"other", "getattr", "lookup", "read", "write", "commit"};
    return timer < NS_UDP_TIMERS ? names[timer] : "other";
}

/* ---- table ---- */

struct udp_timing *udp_timing_new(struct memcap *mc, const struct udp_timing_cfg *cfg, struct findings *fs)
{
    struct udp_timing *u = calloc(1, sizeof *u);
    if (!u) return NULL;
    u->mc = mc;
    u->fs = fs;
    if (cfg) u->cfg = *cfg;
    if (!(u->cfg.rto_factor > 0)) u->cfg.rto_factor = UDP_DEFAULT_RTO_FACTOR;
    if (u->cfg.timeo_ns <= 0) u->cfg.timeo_ns = UDP_DEFAULT_TIMEO_NS;
    if (u->cfg.retrans == 0) u->cfg.retrans = UDP_DEFAULT_RETRANS;
    /* xprt_calc_majortimeo: initval << retries, at most to_maxval */
    u->majortimeo = u->cfg.retrans >= 30 || u->cfg.timeo_ns > (UDP_RTO_MAX_NS >> u->cfg.retrans)
                        ? UDP_RTO_MAX_NS
                        : u->cfg.timeo_ns << u->cfg.retrans;
    return u;
}

void udp_timing_free(struct udp_timing *u)
{
    if (!u) return;
    memcap_give(u->mc, MEM_SESSIONS, u->cap * sizeof *u->p);
    free(u->p);
    if (u->ring) memcap_give(u->mc, MEM_SESSIONS, UDP_RESENDS_KEPT * sizeof *u->ring);
    free(u->ring);
    free(u);
}

static bool addr_eq(const struct ns_addr *a, const struct ns_addr *b)
{
    return a->family == b->family && memcmp(a->a, b->a, 16) == 0;
}

static void refresh(struct pair *p)
{
    for (unsigned k = 0; k < NS_UDP_TIMERS; k++) {
        p->v.cls[k].rto_ns = udp_rtt_rto(&p->rtt, k);
        p->v.cls[k].srtt_ns = udp_rtt_srtt(&p->rtt, k);
        p->v.cls[k].rttvar_ns = udp_rtt_dev(&p->rtt, k);
    }
}

static struct pair *find_pair(struct udp_timing *u, const struct ns_addr *cl, const struct ns_addr *sv, int port)
{
    if (u->last < u->n) {
        struct pair *p = &u->p[u->last];
        if ((port < 0 || p->v.server.port == port) && addr_eq(&p->v.client, cl) && addr_eq(&p->v.server.addr, sv))
            return p;
    }
    for (size_t i = 0; i < u->n; i++) {
        struct pair *p = &u->p[i];
        if ((port < 0 || p->v.server.port == port) && addr_eq(&p->v.client, cl) && addr_eq(&p->v.server.addr, sv)) {
            u->last = i;
            return p;
        }
    }
    return NULL;
}

/* The pair of a connection, created if new; NULL only without memory. */
static struct pair *get_pair(struct udp_timing *u, const struct ns_addr *cl, const struct ns_endpoint *sv, int64_t now)
{
    struct pair *p = find_pair(u, cl, &sv->addr, sv->port);
    if (p) return p;
    if (u->n == u->cap && u->cap < UDP_PAIRS_MAX) {
        size_t ncap = u->cap ? u->cap * 2 : 8;
        if (ncap > UDP_PAIRS_MAX) ncap = UDP_PAIRS_MAX;
        size_t grow = (ncap - u->cap) * sizeof *u->p;
        if (memcap_take(u->mc, MEM_SESSIONS, grow)) {
            struct pair *np = realloc(u->p, ncap * sizeof *np);
            if (np) { u->p = np; u->cap = ncap; }
            else memcap_give(u->mc, MEM_SESSIONS, grow);
        }
    }
    if (u->n == u->cap) {
        if (u->n == 0) return NULL;
        /* Evict the pair idle the longest (first in order on ties). */
        size_t old = 0;
        for (size_t i = 1; i < u->n; i++)
            if (u->p[i].v.last_ts_ns < u->p[old].v.last_ts_ns) old = i;
        memmove(&u->p[old], &u->p[old + 1], (u->n - old - 1) * sizeof *u->p);
        u->n--;
        u->evicted_pairs++;
    }
    p = &u->p[u->n];
    memset(p, 0, sizeof *p);
    p->v.client = *cl;
    p->v.server = *sv;
    p->v.first_ts_ns = p->v.last_ts_ns = now;
    for (unsigned k = 0; k < NS_UDP_TIMERS; k++) p->v.cls[k].rtt_min_ns = p->v.cls[k].gap_min_ns = -1;
    udp_rtt_init(&p->rtt, u->cfg.timeo_ns);
    refresh(p);
    u->last = u->n++;
    return p;
}

static void frame_add(struct frame_set *s, uint64_t f, int64_t ts)
{
    if (!s->first_ts || ts < s->first_ts) s->first_ts = ts;
    if (ts > s->last_ts) s->last_ts = ts;
    unsigned i = 0;
    while (i < s->n && s->f[i] < f) i++;
    if (i < s->n && s->f[i] == f) return;
    if (s->n == FRAME_SET) { if (i == s->n) return; s->n--; }
    memmove(&s->f[i + 1], &s->f[i], (s->n - i) * sizeof s->f[0]);
    s->f[i] = f;
    s->n++;
}

static void conn_add(struct pair *p, uint32_t id)
{
    unsigned i = 0;
    while (i < p->nconns && p->conns[i] < id) i++;
    if (i < p->nconns && p->conns[i] == id) return;
    if (p->nconns == NS_FINDING_CONNS) { if (i == p->nconns) return; p->nconns--; }
    memmove(&p->conns[i + 1], &p->conns[i], (p->nconns - i) * sizeof p->conns[0]);
    p->conns[i] = id;
    p->nconns++;
}

static struct pair *txn_pair(struct udp_timing *u, const struct ns_txn *t, const struct ns_conn *c, int64_t now)
{
    if (!c || c->transport != NS_TRANSPORT_UDP || t->backchannel || !t->call_frame) return NULL;
    struct pair *p = get_pair(u, &c->client.addr, &c->server, now);
    if (p && now > p->v.last_ts_ns) p->v.last_ts_ns = now;
    return p;
}

/* Smallest RTT sample of the class, else of the pair; -1 if none. */
static int64_t rtt_min_ref(const struct pair *p, unsigned timer)
{
    if (p->v.cls[timer].rtt_samples) return p->v.cls[timer].rtt_min_ns;
    int64_t m = -1;
    for (unsigned k = 0; k < NS_UDP_TIMERS; k++)
        if (p->v.cls[k].rtt_samples && (m < 0 || p->v.cls[k].rtt_min_ns < m)) m = p->v.cls[k].rtt_min_ns;
    return m;
}

/* Mean RTT of the class, else of the pair; 0 if none. */
static double rtt_mean_ref(const struct pair *p, unsigned timer)
{
    const struct ns_udp_class *c = &p->v.cls[timer];
    if (c->rtt_samples) return (double)c->rtt_sum_ns / (double)c->rtt_samples;
    int64_t sum = 0;
    uint64_t n = 0;
    for (unsigned k = 0; k < NS_UDP_TIMERS; k++) { sum += p->v.cls[k].rtt_sum_ns; n += p->v.cls[k].rtt_samples; }
    return n ? (double)sum / (double)n : 0;
}

/* Take the fragment facts of the datagram being delivered in this frame. */
static void take_fragments(struct udp_timing *u, struct pair *p, struct ns_udp_class *c, uint64_t frame, bool reply)
{
    if (u->frag_frame != frame || !frame) return;
    u->frag_frame = 0;
    p->v.fragmented_datagrams++;
    if (reply) c->fragmented_replies++;
    if (u->frag_count > p->v.fragments_max) p->v.fragments_max = u->frag_count;
    if (u->frag_max_len > p->v.fragment_max_bytes) {
        p->v.fragment_max_bytes = u->frag_max_len;
        p->v.mtu = u->frag_max_len + (u->frag_ipver == 6 ? 48 : 20);
    }
}

static void mark_spurious(struct pair *p, struct ns_txn *t, uint64_t frame, int64_t ts)
{
    if (t->udp_spurious) return;
    t->udp_spurious = true;
    p->v.cls[t->udp_timer].spurious++;
    frame_add(&p->spurious_frames, frame, ts);
}

/* ---- events ---- */

void udp_timing_set_amend(struct udp_timing *u, const struct analysis_amend *am) { u->amend = *am; }

void udp_timing_on_call(struct udp_timing *u, struct ns_txn *t, const struct ns_conn *c, int64_t now, uint64_t frame,
                        struct udp_frame_info *out)
{
    (void)out;
    struct pair *p = txn_pair(u, t, c, now);
    if (!p) return;
    unsigned timer = ns_udp_timer_class(t->prog, t->vers, t->proc);
    struct ns_udp_class *k = &p->v.cls[timer];
    t->udp_timer = (uint8_t)timer;
    t->udp_cycle_ns = now;
    t->udp_retries = 0;
    t->udp_timeout_ns = udp_rtt_timeout(&p->rtt, timer, 0, UDP_RTO_MAX_NS);
    k->calls++;
    conn_add(p, c->id);
    take_fragments(u, p, k, frame, false);
}

static void record_resend(struct udp_timing *u, const struct pair *p, const struct ns_txn *t, int64_t now,
                          uint64_t frame)
{
    if (!u->ring) {
        if (!memcap_take(u->mc, MEM_SESSIONS, UDP_RESENDS_KEPT * sizeof *u->ring)) { u->evicted_resends++; return; }
        u->ring = calloc(UDP_RESENDS_KEPT, sizeof *u->ring);
        if (!u->ring) {
            memcap_give(u->mc, MEM_SESSIONS, UDP_RESENDS_KEPT * sizeof *u->ring);
            u->evicted_resends++;
            return;
        }
    }
    struct resend *r;
    if (u->ring_n < UDP_RESENDS_KEPT) {
        r = &u->ring[(u->ring_head + u->ring_n++) % UDP_RESENDS_KEPT];
    } else {
        r = &u->ring[u->ring_head];
        u->ring_head = (u->ring_head + 1) % UDP_RESENDS_KEPT;
        u->evicted_resends++;
    }
    r->client = p->v.client;
    r->server = p->v.server.addr;
    r->sport = p->v.server.port;
    r->timer = t->udp_timer;
    r->xid = t->xid;
    r->ts = now;
    r->frame = frame;
}

void udp_timing_on_retransmit(struct udp_timing *u, struct ns_txn *t, const struct ns_conn *c, int64_t now,
                              uint64_t frame, struct udp_frame_info *out)
{
    (void)out;
    struct pair *p = txn_pair(u, t, c, now);
    if (!p) return;
    unsigned timer = t->udp_timer;
    struct ns_udp_class *k = &p->v.cls[timer];
    conn_add(p, c->id);
    take_fragments(u, p, k, frame, false);
    k->retransmissions++;
    if (t->sends == 2) k->retransmitted_calls++;
    if (t->sends > k->sends_max) k->sends_max = t->sends;
    int64_t gap = now - t->prev_send_ts_ns;
    if (gap < 0) gap = 0;
    if (k->gap_min_ns < 0 || gap < k->gap_min_ns) k->gap_min_ns = gap;
    if (gap > k->gap_max_ns) k->gap_max_ns = gap;
    k->gap_sum_ns += gap;
    record_resend(u, p, t, now, frame);
    if (t->reply_frame) { /* the reply had already arrived */
        k->late_retransmissions++;
        mark_spurious(p, t, frame, now);
        return;
    }
    /* Backoff: this gap against the previous gap of the same call. */
    if (t->udp_prev_gap_ns > 0) {
        double r = (double)gap / (double)t->udp_prev_gap_ns;
        if (r >= 1.5 && r <= 2.5) k->backoff_doubling++;
        else k->backoff_other++;
    }
    t->udp_prev_gap_ns = gap;
    /* Against the timeout the client armed at the previous send. */
    if (t->udp_timeout_ns > 0) {
        double r = (double)gap / (double)t->udp_timeout_ns;
        k->timeout_ratio_sum += r;
        if (r > k->timeout_ratio_max) k->timeout_ratio_max = r;
    }
    int64_t rto = udp_rtt_rto(&p->rtt, timer);
    if (rto > 0) {
        double r = (double)gap / (double)rto;
        if (r > k->rto_ratio_max) k->rto_ratio_max = r;
        if ((double)gap > u->cfg.rto_factor * (double)rto) {
            k->inflated++;
            frame_add(&p->inflated_frames, frame, now);
            if (gap > p->inflated_gap_max) { p->inflated_gap_max = gap; p->inflated_rto = rto; }
        }
    }
    double mean = rtt_mean_ref(p, timer);
    if (mean > 0 && (double)gap / mean > k->rtt_ratio_max) k->rtt_ratio_max = (double)gap / mean;
    /* Time waiting on timeouts: merge [previous send, now]. */
    int64_t from = t->prev_send_ts_ns > p->wait_end ? t->prev_send_ts_ns : p->wait_end;
    if (now > from) p->v.wait_ns += now - from;
    if (now > p->wait_end) p->wait_end = now;
    /* Major timeout: the Linux client starts over with a fresh estimator. */
    if (now - t->udp_cycle_ns >= u->majortimeo) {
        k->major_timeouts++;
        p->v.major_timeouts++;
        t->udp_cycle_ns = now;
        t->udp_retries = 0;
        udp_rtt_init(&p->rtt, u->cfg.timeo_ns);
        refresh(p);
    } else if (t->udp_retries < UINT16_MAX) {
        t->udp_retries++;
    }
    t->udp_timeout_ns = udp_rtt_timeout(&p->rtt, timer, t->udp_retries, UDP_RTO_MAX_NS);
}

void udp_timing_on_reply(struct udp_timing *u, struct ns_txn *t, const struct ns_conn *c, bool dup, int64_t now,
                         uint64_t frame, struct udp_frame_info *out)
{
    (void)out;
    struct pair *p = txn_pair(u, t, c, now);
    if (!p) return;
    unsigned timer = t->udp_timer;
    struct ns_udp_class *k = &p->v.cls[timer];
    take_fragments(u, p, k, frame, true);
    if (dup) {
        k->dup_replies++;
        if (t->sends >= 2) mark_spurious(p, t, t->sends <= NS_TXN_SENDS_KEPT ? t->send_frame[t->sends - 1] : frame, now);
        return;
    }
    k->answered++;
    if (t->sends == 1) { /* Karn: unambiguous sample */
        int64_t m = now - t->call_ts_ns;
        if (m < 0) m = 0;
        k->rtt_samples++;
        k->rtt_sum_ns += m;
        if (k->rtt_min_ns < 0 || m < k->rtt_min_ns) k->rtt_min_ns = m;
        if (m > k->rtt_max_ns) k->rtt_max_ns = m;
        udp_rtt_update(&p->rtt, timer, m);
    } else {
        int64_t ref = rtt_min_ref(p, timer);
        if (ref >= 0 && (now - t->last_send_ts_ns) * 2 < ref)
            mark_spurious(p, t, t->sends <= NS_TXN_SENDS_KEPT ? t->send_frame[t->sends - 1] : frame, now);
    }
    udp_rtt_set_timeo(&p->rtt, timer, t->sends - 1);
    refresh(p);
}

void udp_timing_on_done(struct udp_timing *u, const struct ns_txn *t, const struct ns_conn *c, bool given_up)
{
    if (!given_up || t->reply_frame || !c || c->transport != NS_TRANSPORT_UDP || t->backchannel || !t->call_frame)
        return;
    struct pair *p = find_pair(u, &c->client.addr, &c->server.addr, c->server.port);
    if (p) p->v.cls[t->udp_timer].unanswered++;
}

/* n bytes at offset off of a message, false if not all captured. */
static bool msg_read(const struct ns_msg *m, uint32_t off, uint8_t *out, uint32_t n)
{
    uint32_t pos = 0;
    for (uint32_t i = 0; i < m->nspans && n; i++) {
        const struct ns_span *s = &m->spans[i];
        if (off < pos + s->len) {
            if (!s->data) return false;
            uint32_t at = off - pos, take = s->len - at < n ? s->len - at : n;
            memcpy(out, s->data + at, take);
            out += take;
            off += take;
            n -= take;
        }
        pos += s->len;
    }
    return n == 0;
}

static uint32_t be32(const uint8_t *b) { return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]; }

void udp_timing_on_fragmented(struct udp_timing *u, const struct ipfrag_done *d, int64_t now, uint64_t frame)
{
    const struct net_pkt *k = d->last;
    if (k->proto != 17) return;
    if (d->complete) { /* counted when its call or reply is seen in this frame */
        u->frag_frame = frame;
        u->frag_count = d->fragments;
        u->frag_max_len = d->frag_max_len;
        u->frag_ipver = k->ipver;
        return;
    }
    uint8_t h[16];
    bool have = msg_read(&d->datagram, 0, h, sizeof h);
    uint16_t sport = (uint16_t)(h[0] << 8 | h[1]), dport = (uint16_t)(h[2] << 8 | h[3]);
    uint32_t xid = have ? be32(h + 8) : 0, type = have ? be32(h + 12) : 2;
    struct pair *p;
    if (type == 1) p = find_pair(u, &k->dst, &k->src, sport);
    else if (type == 0) p = find_pair(u, &k->src, &k->dst, dport);
    else if (!(p = find_pair(u, &k->dst, &k->src, -1))) p = find_pair(u, &k->src, &k->dst, -1);
    if (!p) return;
    (void)now;
    p->v.fragmented_datagrams++;
    p->v.incomplete_datagrams++;
    if (d->fragments > p->v.fragments_max) p->v.fragments_max = d->fragments;
    if (d->frag_max_len > p->v.fragment_max_bytes) {
        p->v.fragment_max_bytes = d->frag_max_len;
        p->v.mtu = d->frag_max_len + (k->ipver == 6 ? 48 : 20);
    }
    if (!have) { p->v.incomplete_no_header++; return; }
    if (type != 1) return;
    /* A lost reply: was its call sent again after the reply's first fragment? */
    for (size_t i = 0; i < u->ring_n; i++) {
        const struct resend *r = &u->ring[(u->ring_head + i) % UDP_RESENDS_KEPT];
        if (r->xid == xid && r->ts >= d->first_ts_ns && r->sport == p->v.server.port &&
            addr_eq(&r->client, &p->v.client) && addr_eq(&r->server, &p->v.server.addr)) {
            struct ns_udp_class *c = &p->v.cls[r->timer];
            c->lost_to_fragments++;
            c->fragmented_replies++;
            frame_add(&p->frag_frames, r->frame, r->ts);
            return;
        }
    }
    p->v.incomplete_not_resent++;
}

/* ---- findings ---- */

static void note_pair(struct ns_finding *x, const struct pair *p, const struct frame_set *fs, uint64_t count)
{
    x->count = count;
    x->first_ts_ns = fs->first_ts;
    x->last_ts_ns = fs->last_ts;
    for (unsigned i = 0; i < p->nconns; i++) finding_add_conn(x, p->conns[i]);
    for (unsigned i = 0; i < fs->n; i++) finding_add_frame(x, fs->f[i]);
}

static void pair_names(const struct pair *p, char *cl, char *sv)
{
    struct ns_endpoint e = {p->v.client, 0};
    ns_endpoint_str(&e, cl, NS_ENDPOINT_STRLEN);
    char *colon = strrchr(cl, ':'); /* drop the port: any client port */
    if (colon) *colon = 0;
    ns_endpoint_str(&p->v.server, sv, NS_ENDPOINT_STRLEN);
}

void udp_timing_settle(struct udp_timing *u, int64_t span_ns) { (void)u; (void)span_ns; }

void udp_timing_finish(struct udp_timing *u, int64_t span_ns)
{
    if (u->finished) return;
    u->finished = true;
    struct findings *f = u->fs;
    for (size_t i = 0; i < u->n; i++) {
        struct pair *p = &u->p[i];
        char cl[NS_ENDPOINT_STRLEN], sv[NS_ENDPOINT_STRLEN];
        pair_names(p, cl, sv);
        uint64_t inflated = 0, retrans = 0, lost = 0, fragrep = 0, spurious = 0, dups = 0;
        int64_t srtt = 0;
        for (unsigned k = 0; k < NS_UDP_TIMERS; k++) {
            const struct ns_udp_class *c = &p->v.cls[k];
            inflated += c->inflated;
            retrans += c->retransmissions;
            lost += c->lost_to_fragments;
            fragrep += c->fragmented_replies;
            spurious += c->spurious;
            dups += c->dup_replies;
        }
        double share = span_ns > 0 ? 100.0 * (double)p->v.wait_ns / (double)span_ns : 0;
        if (inflated) {
            struct ns_finding *x = findings_add(f, "RTO_INFLATED", NS_SEV_WARNING, p->v.first_ts_ns);
            if (x) {
                note_pair(x, p, &p->inflated_frames, inflated);
                srtt = p->inflated_rto;
                snprintf(x->message, sizeof x->message,
                         "%llu of %llu retransmissions from %s to %s waited more than %g x the RTO a Linux client "
                         "would compute from the measured RTT (worst: %.1f ms against an RTO of %.1f ms); calls waited on retransmit "
                         "timeouts %.3f s, %.1f%% of the capture",
                         (unsigned long long)inflated, (unsigned long long)retrans, cl, sv, u->cfg.rto_factor,
                         (double)p->inflated_gap_max / 1e6, (double)srtt / 1e6, (double)p->v.wait_ns / 1e9,
                         share);
            }
        }
        if (lost) {
            struct ns_finding *x = findings_add(f, "FRAGMENT_LOSS", NS_SEV_ERROR, p->v.first_ts_ns);
            if (x) {
                note_pair(x, p, &p->frag_frames, lost);
                snprintf(x->message, sizeof x->message,
                         "%llu of %llu fragmented replies from %s to %s (%.1f%%) were lost to a missing IP "
                         "fragment (up to %u fragments per datagram, MTU about %u) and cost a retransmit "
                         "timeout each: use a smaller rsize/wsize or NFS over TCP",
                         (unsigned long long)lost, (unsigned long long)fragrep, sv, cl,
                         fragrep ? 100.0 * (double)lost / (double)fragrep : 0.0, p->v.fragments_max, p->v.mtu);
            }
        }
        if (spurious >= UDP_SPURIOUS_MIN) {
            struct ns_finding *x = findings_add(f, "SPURIOUS_RETRANSMIT", NS_SEV_WARNING, p->v.first_ts_ns);
            if (x) {
                note_pair(x, p, &p->spurious_frames, spurious);
                snprintf(x->message, sizeof x->message,
                         "%llu calls from %s to %s were resent although the server answered (the reply to an "
                         "earlier transmission came after the resend; %llu duplicate replies, %llu "
                         "retransmissions): the client resends faster than the server answers",
                         (unsigned long long)spurious, cl, sv, (unsigned long long)dups,
                         (unsigned long long)retrans);
            }
        }
    }
}

const struct ns_udp_pair *udp_timing_pair_by_key(const struct udp_timing *u, const struct ns_addr *client,
                                                 const struct ns_endpoint *server)
{
    for (size_t i = 0; i < u->n; i++) {
        const struct ns_udp_pair *v = &u->p[i].v;
        if (addr_eq(&v->client, client) && addr_eq(&v->server.addr, &server->addr) && v->server.port == server->port)
            return v;
    }
    return NULL;
}

size_t udp_timing_pair_count(const struct udp_timing *u) { return u->n; }
const struct ns_udp_pair *udp_timing_pair(const struct udp_timing *u, size_t i) { return i < u->n ? &u->p[i].v : NULL; }
uint64_t udp_timing_evicted_pairs(const struct udp_timing *u) { return u->evicted_pairs; }
uint64_t udp_timing_evicted_resends(const struct udp_timing *u) { return u->evicted_resends; }
