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
 * Findings are raised and kept up to date while feeding (udp_findings.c);
 * the pair table is udp_pairs.c.
 */
#include <stdlib.h>
#include <string.h>

#include "txn_internal.h"
#include "udp_int.h"
#include "xdr.h"

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

/* ---- life ---- */

struct udp_timing *udp_timing_new(struct memcap *mc, const struct udp_timing_cfg *cfg, struct findings *fs)
{
    struct udp_timing *u = calloc(1, sizeof *u);
    if (!u) return NULL;
    u->mc = mc;
    u->fs = fs;
    u->ts_lo = 1;
    u->ts_hi = 0;
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
    udp_pairs_free(u);
    if (u->ring) memcap_give(u->mc, MEM_SESSIONS, UDP_RESENDS_KEPT * sizeof *u->ring);
    free(u->ring);
    free(u);
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

/* true if the pair's set changed */
static bool conn_add(struct pair *p, uint32_t id)
{
    unsigned i = 0;
    while (i < p->nconns && p->conns[i] < id) i++;
    if (i < p->nconns && p->conns[i] == id) return false;
    if (p->nconns == NS_FINDING_CONNS) { if (i == p->nconns) return false; p->nconns--; }
    memmove(&p->conns[i + 1], &p->conns[i], (p->nconns - i) * sizeof p->conns[0]);
    p->conns[i] = id;
    p->nconns++;
    return true;
}

static void see_time(struct udp_timing *u, int64_t now)
{
    if (u->ts_hi < u->ts_lo) u->ts_lo = u->ts_hi = now;
    else if (now < u->ts_lo) u->ts_lo = now;
    else if (now > u->ts_hi) u->ts_hi = now;
}

static struct pair *txn_pair(struct udp_timing *u, const struct ns_txn *t, const struct ns_conn *c, int64_t now)
{
    if (!c || c->transport != NS_TRANSPORT_UDP || t->backchannel || !t->call_frame) return NULL;
    struct pair *p = udp_pair_get(u, &c->client.addr, &c->server, now);
    if (p && now > p->v.last_ts_ns) p->v.last_ts_ns = now;
    see_time(u, now);
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

/* Take the fragment facts of the datagram being delivered in this frame
 * (true if there were some). */
static bool take_fragments(struct udp_timing *u, struct pair *p, struct ns_udp_class *c, uint64_t frame, bool reply)
{
    if (u->frag_frame != frame || !frame) return false;
    u->frag_frame = 0;
    p->v.fragmented_datagrams++;
    if (reply) c->fragmented_replies++;
    if (u->frag_count > p->v.fragments_max) p->v.fragments_max = u->frag_count;
    if (u->frag_max_len > p->v.fragment_max_bytes) {
        p->v.fragment_max_bytes = u->frag_max_len;
        p->v.mtu = u->frag_max_len + (u->frag_ipver == 6 ? 48 : 20);
    }
    return true;
}

/* The last resend of the call (frame resend; 0: not kept, past
 * NS_TXN_SENDS_KEPT sends) was not needed, as frame by_frame showed. Without
 * its frame the finding keeps by_frame (as it always did) and no amendment is
 * told. true if newly marked (once per call). */
static bool mark_spurious(struct udp_timing *u, struct pair *p, struct ns_txn *t, int64_t ts, uint64_t resend,
                          uint64_t by_frame, uint64_t *occ_frame)
{
    struct txn_internal *in = txn_internal(t);
    if (in->udp_spurious) return false;
    in->udp_spurious = true;
    p->v.cls[in->udp_timer].spurious++;
    *occ_frame = resend ? resend : by_frame;
    frame_add(&p->sets[UDP_FK_SPURIOUS], *occ_frame, ts);
    if (resend) analysis_amend_tell(&u->amend, resend, NS_AMEND_SPURIOUS_RESEND, t, by_frame);
    return true;
}

/* The per-frame facts: send number, estimator of the call's class now. */
static uint64_t last_send_frame(const struct ns_txn *t)
{
    return t->sends && t->sends <= NS_TXN_SENDS_KEPT ? t->send_frame[t->sends - 1] : 0;
}

static void frame_info(struct udp_frame_info *out, const struct pair *p, const struct ns_txn *t)
{
    out->udp = true;
    out->send_no = t->sends ? t->sends : 1;
    if (!p) return;
    unsigned timer = txn_internal_const(t)->udp_timer;
    /* class 0 has only the fixed timeout: nothing estimated */
    out->srtt_ns = timer ? udp_rtt_srtt(&p->rtt, timer) : 0;
    out->rto_ns = timer ? udp_rtt_rto(&p->rtt, timer) : 0;
}

static bool info_start(struct udp_frame_info *out, const struct ns_txn *t, const struct ns_conn *c)
{
    if (out) *out = (struct udp_frame_info){.rtt_ns = -1};
    return out && c && c->transport == NS_TRANSPORT_UDP && !t->backchannel && t->call_frame;
}

/* ---- events ---- */

void udp_timing_set_amend(struct udp_timing *u, const struct analysis_amend *am) { u->amend = *am; }

void udp_timing_on_call(struct udp_timing *u, struct ns_txn *t, const struct ns_conn *c, int64_t now, uint64_t frame,
                        struct udp_frame_info *out)
{
    bool info = info_start(out, t, c);
    struct pair *p = txn_pair(u, t, c, now);
    if (!p) {
        if (info) frame_info(out, NULL, t);
        return;
    }
    unsigned timer = ns_udp_timer_class(t->prog, t->vers, t->proc);
    struct ns_udp_class *k = &p->v.cls[timer];
    struct txn_internal *in = txn_internal(t);
    in->udp_timer = (uint8_t)timer;
    in->udp_cycle_ns = now;
    in->udp_retries = 0;
    in->udp_timeout_ns = udp_rtt_timeout(&p->rtt, timer, 0, UDP_RTO_MAX_NS);
    k->calls++;
    bool changed = conn_add(p, c->id);
    changed |= take_fragments(u, p, k, frame, false);
    if (changed) udp_findings_update(u, p, UDP_FK_NONE, 0);
    if (info) {
        frame_info(out, p, t);
        out->armed_timeout_ns = in->udp_timeout_ns;
    }
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
    r->timer = txn_internal_const(t)->udp_timer;
    r->xid = t->xid;
    r->ts = now;
    r->frame = frame;
    r->prev_frame = t->sends >= 2 && t->sends - 2 < NS_TXN_SENDS_KEPT ? t->send_frame[t->sends - 2] : 0;
}

/* The resend against the estimator; true if it was inflated. */
static bool judge_resend(struct udp_timing *u, struct pair *p, struct ns_txn *t, int64_t now, int64_t gap,
                         uint64_t frame)
{
    struct txn_internal *in = txn_internal(t);
    unsigned timer = in->udp_timer;
    struct ns_udp_class *k = &p->v.cls[timer];
    bool inflated = false;
    /* Backoff: this gap against the previous gap of the same call. */
    if (in->udp_prev_gap_ns > 0) {
        double r = (double)gap / (double)in->udp_prev_gap_ns;
        if (r >= 1.5 && r <= 2.5) k->backoff_doubling++;
        else k->backoff_other++;
    }
    in->udp_prev_gap_ns = gap;
    /* Against the timeout the client armed at the previous send. */
    if (in->udp_timeout_ns > 0) {
        double r = (double)gap / (double)in->udp_timeout_ns;
        k->timeout_ratio_sum += r;
        if (r > k->timeout_ratio_max) k->timeout_ratio_max = r;
    }
    int64_t rto = udp_rtt_rto(&p->rtt, timer);
    if (rto > 0) {
        double r = (double)gap / (double)rto;
        if (r > k->rto_ratio_max) k->rto_ratio_max = r;
        if ((double)gap > u->cfg.rto_factor * (double)rto) {
            k->inflated++;
            frame_add(&p->sets[UDP_FK_INFLATED], frame, now);
            if (gap > p->inflated_gap_max) { p->inflated_gap_max = gap; p->inflated_rto = rto; }
            inflated = true;
        }
    }
    double mean = rtt_mean_ref(p, timer);
    if (mean > 0 && (double)gap / mean > k->rtt_ratio_max) k->rtt_ratio_max = (double)gap / mean;
    /* Time waiting on timeouts: merge [previous send, now]. */
    int64_t from = t->prev_send_ts_ns > p->wait_end ? t->prev_send_ts_ns : p->wait_end;
    if (now > from) p->v.wait_ns += now - from;
    if (now > p->wait_end) p->wait_end = now;
    /* Major timeout: the Linux client starts over with a fresh estimator. */
    if (now - in->udp_cycle_ns >= u->majortimeo) {
        k->major_timeouts++;
        p->v.major_timeouts++;
        in->udp_cycle_ns = now;
        in->udp_retries = 0;
        udp_rtt_init(&p->rtt, u->cfg.timeo_ns);
        udp_pair_refresh(p);
    } else if (in->udp_retries < UINT16_MAX) {
        in->udp_retries++;
    }
    in->udp_timeout_ns = udp_rtt_timeout(&p->rtt, timer, in->udp_retries, UDP_RTO_MAX_NS);
    return inflated;
}

void udp_timing_on_retransmit(struct udp_timing *u, struct ns_txn *t, const struct ns_conn *c, int64_t now,
                              uint64_t frame, struct udp_frame_info *out)
{
    bool info = info_start(out, t, c);
    struct pair *p = txn_pair(u, t, c, now);
    int64_t gap = now - t->prev_send_ts_ns;
    if (gap < 0) gap = 0;
    if (info) out->gap_ns = gap;
    if (!p) {
        if (info) frame_info(out, NULL, t);
        return;
    }
    unsigned timer = txn_internal(t)->udp_timer;
    struct ns_udp_class *k = &p->v.cls[timer];
    conn_add(p, c->id);
    take_fragments(u, p, k, frame, false);
    k->retransmissions++;
    if (t->sends == 2) k->retransmitted_calls++;
    if (t->sends > k->sends_max) k->sends_max = t->sends;
    if (k->gap_min_ns < 0 || gap < k->gap_min_ns) k->gap_min_ns = gap;
    if (gap > k->gap_max_ns) k->gap_max_ns = gap;
    k->gap_sum_ns += gap;
    record_resend(u, p, t, now, frame);
    unsigned occ = UDP_FK_NONE;
    uint64_t occ_frame = 0;
    if (t->reply_frame) { /* the reply had already arrived: a Linux client would not resend (armed: unknown) */
        k->late_retransmissions++;
        if (mark_spurious(u, p, t, now, frame, frame, &occ_frame)) occ = UDP_FK_SPURIOUS;
    } else {
        if (judge_resend(u, p, t, now, gap, frame)) { occ = UDP_FK_INFLATED; occ_frame = frame; }
        if (info) out->armed_timeout_ns = txn_internal(t)->udp_timeout_ns;
    }
    /* every resend changes the retransmission counts the messages give */
    udp_findings_update(u, p, occ, occ_frame);
    if (info) frame_info(out, p, t);
}

void udp_timing_on_reply(struct udp_timing *u, struct ns_txn *t, const struct ns_conn *c, bool dup, int64_t now,
                         uint64_t frame, struct udp_frame_info *out)
{
    bool info = info_start(out, t, c);
    struct pair *p = txn_pair(u, t, c, now);
    if (!p) {
        if (info) frame_info(out, NULL, t);
        return;
    }
    unsigned timer = txn_internal(t)->udp_timer;
    struct ns_udp_class *k = &p->v.cls[timer];
    bool changed = take_fragments(u, p, k, frame, true);
    unsigned occ = UDP_FK_NONE;
    uint64_t occ_frame = 0;
    if (dup) {
        k->dup_replies++;
        changed = true;
        if (t->sends >= 2 && mark_spurious(u, p, t, now, last_send_frame(t), frame, &occ_frame)) occ = UDP_FK_SPURIOUS;
    } else {
        k->answered++;
        if (t->sends == 1) { /* Karn: unambiguous sample */
            int64_t m = now - t->call_ts_ns;
            if (m < 0) m = 0;
            k->rtt_samples++;
            k->rtt_sum_ns += m;
            if (k->rtt_min_ns < 0 || m < k->rtt_min_ns) k->rtt_min_ns = m;
            if (m > k->rtt_max_ns) k->rtt_max_ns = m;
            udp_rtt_update(&p->rtt, timer, m);
            if (info) out->rtt_ns = m;
        } else {
            int64_t ref = rtt_min_ref(p, timer);
            if (ref >= 0 && (now - t->last_send_ts_ns) * 2 < ref &&
                mark_spurious(u, p, t, now, last_send_frame(t), frame, &occ_frame))
                occ = UDP_FK_SPURIOUS;
        }
        udp_rtt_set_timeo(&p->rtt, timer, t->sends - 1);
        udp_pair_refresh(p);
    }
    if (changed || occ != UDP_FK_NONE) udp_findings_update(u, p, occ, occ_frame);
    if (info) frame_info(out, p, t);
}

void udp_timing_on_done(struct udp_timing *u, const struct ns_txn *t, const struct ns_conn *c, bool given_up)
{
    if (!given_up || t->reply_frame || !c || c->transport != NS_TRANSPORT_UDP || t->backchannel || !t->call_frame)
        return;
    if (t->verdict == NS_VERDICT_EVICTED_WAITING) return; /* still waiting when memory ran short: not unanswered */
    struct pair *p = udp_pair_find(u, &c->client.addr, &c->server.addr, c->server.port);
    if (p) p->v.cls[txn_internal_const(t)->udp_timer].unanswered++;
}

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
    /* UDP ports, then the RPC XID and message type, through the bounded
     * reader: any of them may lie in a fragment that was never captured. */
    struct xdr x;
    xdr_init(&x, &d->datagram);
    uint16_t sport = xdr_u16(&x), dport = xdr_u16(&x);
    xdr_skip(&x, 4);
    uint32_t xid = xdr_u32(&x), type = xdr_u32(&x);
    bool have = xdr_ok(&x);
    if (!have) { xid = 0; type = 2; } /* ports unused then: the pair is looked up by address */
    struct pair *p;
    if (type == 1) p = udp_pair_find(u, &k->dst, &k->src, sport);
    else if (type == 0) p = udp_pair_find(u, &k->src, &k->dst, dport);
    else if (!(p = udp_pair_find(u, &k->dst, &k->src, -1))) p = udp_pair_find(u, &k->src, &k->dst, -1);
    if (!p) return;
    see_time(u, now);
    p->v.fragmented_datagrams++;
    p->v.incomplete_datagrams++;
    if (d->fragments > p->v.fragments_max) p->v.fragments_max = d->fragments;
    if (d->frag_max_len > p->v.fragment_max_bytes) {
        p->v.fragment_max_bytes = d->frag_max_len;
        p->v.mtu = d->frag_max_len + (k->ipver == 6 ? 48 : 20);
    }
    unsigned occ = UDP_FK_NONE;
    uint64_t occ_frame = 0;
    if (!have) {
        p->v.incomplete_no_header++;
    } else if (type == 1) {
        /* A lost reply: was its call sent again after the reply's first fragment? */
        const struct resend *r = NULL;
        for (size_t i = 0; i < u->ring_n && !r; i++) {
            const struct resend *q = &u->ring[(u->ring_head + i) % UDP_RESENDS_KEPT];
            if (q->xid == xid && q->ts >= d->first_ts_ns && q->sport == p->v.server.port &&
                udp_addr_eq(&q->client, &p->v.client) && udp_addr_eq(&q->server, &p->v.server.addr))
                r = q;
        }
        if (r) {
            struct ns_udp_class *c = &p->v.cls[r->timer];
            c->lost_to_fragments++;
            c->fragmented_replies++;
            frame_add(&p->sets[UDP_FK_FRAGMENT], r->frame, r->ts);
            occ = UDP_FK_FRAGMENT;
            occ_frame = r->frame;
            /* the reply lost answered the send before the resend (the call
             * may be gone by now: no transaction) */
            if (r->prev_frame)
                analysis_amend_tell(&u->amend, r->prev_frame, NS_AMEND_REPLY_LOST_TO_FRAGMENTS, NULL, frame);
        } else {
            p->v.incomplete_not_resent++;
        }
    }
    udp_findings_update(u, p, occ, occ_frame);
}

/* ---- end ---- */

void udp_timing_settle(struct udp_timing *u, int64_t span_ns) { udp_findings_settle(u, span_ns); }

void udp_timing_finish(struct udp_timing *u, int64_t span_ns)
{
    if (u->finished) return; /* twice = once */
    u->finished = true;
    udp_findings_settle(u, span_ns); /* nothing else needs the end */
}

uint64_t udp_timing_evicted_resends(const struct udp_timing *u) { return u->evicted_resends; }
