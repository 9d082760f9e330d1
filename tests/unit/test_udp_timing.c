/* The Linux SUNRPC RTT estimator (udp_rtt.c) and the UDP timing analysis
 * (udp_timing.c) on hand-worked numbers. Units: ms = 1000000 ns.
 *
 * Estimator (net/sunrpc/timer.c): srtt8 = 8 x SRTT, sdrtt4 = 4 x deviation;
 * init from timeo: srtt8 = (timeo - 200 ms) x 8, sdrtt4 = 200 ms;
 * sample m: err = m - srtt8/8, srtt8 += err, sdrtt4 += |err| - sdrtt4/4,
 * sdrtt4 >= 100 ms; RTO = (srtt8 + 7)/8 + sdrtt4, <= 60 s. */
#include <stdlib.h>

#include "check.h"
#include "finding_table.h"
#include "memcap.h"
#include "udp_rtt.h"
#include "txn_internal.h"
#include "udp_int.h"
#include "udp_model.h"

#define MS 1000000ll
#define S 1000000000ll

static void test_init_and_samples(void)
{
    struct udp_rtt r;
    udp_rtt_init(&r, 1100 * MS);
    /* srtt8 = 900 ms x 8 = 7200 ms, sdrtt4 = 200 ms: RTO = 900 + 200 = timeo */
    CHECK_EQ_U(udp_rtt_rto(&r, 3), 1100 * MS);
    CHECK_EQ_U(udp_rtt_srtt(&r, 3), 900 * MS);
    CHECK_EQ_U(udp_rtt_dev(&r, 3), 50 * MS);
    CHECK_EQ_U(udp_rtt_rto(&r, 0), 1100 * MS); /* class 0: fixed timeo */
    /* m = 100 ms: err = -800, srtt8 = 6400 (SRTT 800); |err| - 200/4 = 750,
     * sdrtt4 = 950: RTO = 800 + 950 = 1750 ms */
    udp_rtt_update(&r, 3, 100 * MS);
    CHECK_EQ_U(udp_rtt_srtt(&r, 3), 800 * MS);
    CHECK_EQ_U(r.sdrtt4[2], 950 * MS);
    CHECK_EQ_U(udp_rtt_rto(&r, 3), 1750 * MS);
    /* m = 100 ms: err = -700, srtt8 = 5700 (SRTT 712.5); 700 - 237.5 = 462.5,
     * sdrtt4 = 1412.5: RTO = 712.5 + 1412.5 = 2125 ms */
    udp_rtt_update(&r, 3, 100 * MS);
    CHECK_EQ_U(udp_rtt_srtt(&r, 3), 712500000);
    CHECK_EQ_U(r.sdrtt4[2], 1412500000);
    CHECK_EQ_U(udp_rtt_rto(&r, 3), 2125 * MS);
    /* other classes untouched, class 0 ignores samples */
    CHECK_EQ_U(udp_rtt_rto(&r, 1), 1100 * MS);
    udp_rtt_update(&r, 0, 5 * MS);
    CHECK_EQ_U(udp_rtt_rto(&r, 0), 1100 * MS);
    udp_rtt_update(&r, 1, -5); /* negative: ignored */
    CHECK_EQ_U(udp_rtt_rto(&r, 1), 1100 * MS);
}

static void test_floor_and_rounding(void)
{
    struct udp_rtt r;
    udp_rtt_init(&r, 200 * MS); /* timeo <= RTO_INIT: srtt8 = 0, sdrtt4 = 200 ms */
    CHECK_EQ_U(udp_rtt_rto(&r, 2), 200 * MS);
    /* m = 1 ms: err = 1000000, srtt8 = 1000000; |err| - 50 ms -> sdrtt4 = 151 ms */
    udp_rtt_update(&r, 2, 1 * MS);
    CHECK_EQ_U(r.srtt8[1], 1000000);
    CHECK_EQ_U(r.sdrtt4[1], 151 * MS);
    CHECK_EQ_U(udp_rtt_srtt(&r, 2), 125000); /* (1000000 + 7) >> 3 */
    /* m = 1 ms: err = 1000000 - 125000 = 875000, srtt8 = 1875000;
     * 875000 - 37750000 = -36875000, sdrtt4 = 114125000 */
    udp_rtt_update(&r, 2, 1 * MS);
    CHECK_EQ_U(r.srtt8[1], 1875000);
    CHECK_EQ_U(r.sdrtt4[1], 114125000);
    /* m = 1 ms: err = 1000000 - 234375 = 765625, srtt8 = 2640625;
     * 765625 - 28531250 -> sdrtt4 = 86359375, below the floor: 100 ms */
    udp_rtt_update(&r, 2, 1 * MS);
    CHECK_EQ_U(r.srtt8[1], 2640625);
    CHECK_EQ_U(r.sdrtt4[1], 100 * MS);
    CHECK_EQ_U(udp_rtt_rto(&r, 2), 330079 + 100 * MS); /* (2640625 + 7) >> 3 = 2640632 / 8 */
    /* m = 0 counts as 1 ns */
    struct udp_rtt z;
    udp_rtt_init(&z, 0);
    udp_rtt_update(&z, 1, 0);
    CHECK_EQ_U(z.srtt8[0], 1);
    /* cap: a 100 s sample */
    udp_rtt_update(&z, 1, 100 * S);
    CHECK_EQ_U(udp_rtt_rto(&z, 1), 60 * S);
}

static void test_ntimeo_and_backoff(void)
{
    struct udp_rtt r;
    udp_rtt_init(&r, 1100 * MS);
    udp_rtt_set_timeo(&r, 3, 2);
    CHECK_EQ_U(udp_rtt_ntimeo(&r, 3), 2);
    udp_rtt_set_timeo(&r, 3, 0); /* lower: one less */
    CHECK_EQ_U(udp_rtt_ntimeo(&r, 3), 1);
    udp_rtt_set_timeo(&r, 3, 0);
    CHECK_EQ_U(udp_rtt_ntimeo(&r, 3), 0);
    udp_rtt_set_timeo(&r, 3, 12); /* at most 8 */
    CHECK_EQ_U(udp_rtt_ntimeo(&r, 3), 8);
    udp_rtt_set_timeo(&r, 0, 5); /* class 0 has none */
    CHECK_EQ_U(udp_rtt_ntimeo(&r, 0), 0);
    /* class 0: timeo << retries, capped at to_maxval */
    CHECK_EQ_U(udp_rtt_timeout(&r, 0, 0, 60 * S), 1100 * MS);
    CHECK_EQ_U(udp_rtt_timeout(&r, 0, 2, 60 * S), 4400 * MS);
    CHECK_EQ_U(udp_rtt_timeout(&r, 0, 6, 60 * S), 60 * S); /* 70.4 s */
    /* class 3 with ntimeouts 8: 1100 ms << 8 = 281.6 s -> 60 s */
    CHECK_EQ_U(udp_rtt_timeout(&r, 3, 0, 60 * S), 60 * S);
    udp_rtt_set_timeo(&r, 4, 1);
    CHECK_EQ_U(udp_rtt_timeout(&r, 4, 1, 60 * S), 4400 * MS); /* 1100 << (1 + 1) */
}

static void test_classes(void)
{
    CHECK_EQ_U(ns_udp_timer_class(100003, 3, 1), NS_UDP_TIMER_GETATTR);
    CHECK_EQ_U(ns_udp_timer_class(100003, 3, 4), NS_UDP_TIMER_GETATTR);  /* ACCESS */
    CHECK_EQ_U(ns_udp_timer_class(100003, 3, 3), NS_UDP_TIMER_LOOKUP);
    CHECK_EQ_U(ns_udp_timer_class(100003, 3, 5), NS_UDP_TIMER_READ);     /* READLINK */
    CHECK_EQ_U(ns_udp_timer_class(100003, 3, 6), NS_UDP_TIMER_READ);
    CHECK_EQ_U(ns_udp_timer_class(100003, 3, 16), NS_UDP_TIMER_READ);    /* READDIR */
    CHECK_EQ_U(ns_udp_timer_class(100003, 3, 17), NS_UDP_TIMER_READ);    /* READDIRPLUS */
    CHECK_EQ_U(ns_udp_timer_class(100003, 3, 7), NS_UDP_TIMER_WRITE);
    CHECK_EQ_U(ns_udp_timer_class(100003, 3, 21), NS_UDP_TIMER_COMMIT);
    CHECK_EQ_U(ns_udp_timer_class(100003, 3, 8), NS_UDP_TIMER_OTHER);    /* CREATE */
    CHECK_EQ_U(ns_udp_timer_class(100003, 3, 0), NS_UDP_TIMER_OTHER);    /* NULL */
    CHECK_EQ_U(ns_udp_timer_class(100003, 3, 99), NS_UDP_TIMER_OTHER);
    CHECK_EQ_U(ns_udp_timer_class(100003, 2, 4), NS_UDP_TIMER_LOOKUP);
    CHECK_EQ_U(ns_udp_timer_class(100003, 2, 8), NS_UDP_TIMER_WRITE);
    CHECK_EQ_U(ns_udp_timer_class(100005, 3, 1), NS_UDP_TIMER_OTHER);    /* MOUNT */
    CHECK_EQ_U(ns_udp_timer_class(100003, 4, 1), NS_UDP_TIMER_OTHER);
    CHECK_EQ_S(ns_udp_timer_name(NS_UDP_TIMER_READ), "read");
    CHECK_EQ_S(ns_udp_timer_name(9), "other");
}

/* ---- the analysis, fed events the way rpc_dispatch.c does ---- */

static struct ns_conn conn;
static struct udp_frame_info info; /* what the last event said about its frame */

static void call(struct udp_timing *u, struct ns_txn *t, uint32_t xid, uint32_t proc, int64_t ts, uint64_t frame)
{
    memset(t, 0, sizeof *t);
    memset(txn_internal(t), 0, sizeof(struct txn_internal));
    t->xid = xid;
    t->prog = 100003;
    t->vers = 3;
    t->proc = proc;
    t->conn_id = 1;
    t->call_frame = frame;
    t->call_ts_ns = t->last_send_ts_ns = t->send_ts_ns[0] = ts;
    t->send_frame[0] = frame;
    t->sends = 1;
    udp_timing_on_call(u, t, &conn, ts, frame, &info);
}

static void resend(struct udp_timing *u, struct ns_txn *t, int64_t ts, uint64_t frame)
{
    if (t->sends < NS_TXN_SENDS_KEPT) { t->send_ts_ns[t->sends] = ts; t->send_frame[t->sends] = frame; }
    t->sends++;
    t->prev_send_ts_ns = t->last_send_ts_ns;
    t->last_send_ts_ns = ts;
    udp_timing_on_retransmit(u, t, &conn, ts, frame, &info);
}

static void reply(struct udp_timing *u, struct ns_txn *t, int64_t ts, uint64_t frame, bool dup)
{
    if (!dup) { t->reply_frame = frame; t->reply_ts_ns = ts; }
    else t->dup_replies++;
    udp_timing_on_reply(u, t, &conn, dup, ts, frame, &info);
}

/* What the findings store's listener was told. */
static struct heard {
    unsigned n;
    struct { char kind[NS_FINDING_KIND_MAX]; uint64_t frame; } v[64];
} heard;

static void on_touch(void *ctx, const struct ns_finding *x, uint64_t frame)
{
    struct heard *h = ctx;
    if (h->n == 64) return;
    snprintf(h->v[h->n].kind, sizeof h->v[h->n].kind, "%s", x->kind);
    h->v[h->n++].frame = frame;
}

/* Touches of kind for frame (any frame: UINT64_MAX). */
static unsigned heard_of(const char *kind, uint64_t frame)
{
    unsigned c = 0;
    for (unsigned i = 0; i < heard.n; i++)
        if (!strcmp(heard.v[i].kind, kind) && (frame == UINT64_MAX || heard.v[i].frame == frame)) c++;
    return c;
}

/* What the amendment hook was told. */
static struct amended {
    unsigned n;
    struct { uint64_t frame, by; uint8_t amend; bool txn; } v[16];
} amended;

static void on_amend(void *ctx, uint64_t frame, uint8_t amend, const struct ns_txn *t, uint64_t by_frame)
{
    struct amended *a = ctx;
    if (a->n == 16) return;
    a->v[a->n].frame = frame;
    a->v[a->n].amend = amend;
    a->v[a->n].by = by_frame;
    a->v[a->n++].txn = t != NULL;
}

static const struct ns_finding *finding_of(struct findings *f, const char *kind)
{
    const struct ns_finding *const *v;
    size_t n = findings_sorted(f, &v);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(v[i]->kind, kind)) return v[i];
    return NULL;
}

static void conn_init(void)
{
    memset(&conn, 0, sizeof conn);
    conn.id = 1;
    conn.transport = NS_TRANSPORT_UDP;
    conn.client.addr.family = conn.server.addr.family = 4;
    memcpy(conn.client.addr.a, (uint8_t[]){10, 77, 0, 2}, 4);
    memcpy(conn.server.addr.a, (uint8_t[]){10, 77, 0, 1}, 4);
    conn.client.port = 40000;
    conn.server.port = 2049;
}

/* An analyzer with defaults (timeo 1.1 s, retrans 3, factor 8), its store
 * listened to and its amendments recorded. */
static struct udp_timing *setup(struct memcap *mc, struct findings **f)
{
    static const struct analysis_amend am = {on_amend, &amended};
    memcap_init(mc, 64 << 20);
    *f = findings_new(mc);
    findings_set_listener(*f, on_touch, &heard);
    struct udp_timing *u = udp_timing_new(mc, NULL, *f);
    udp_timing_set_amend(u, &am);
    memset(&heard, 0, sizeof heard);
    memset(&amended, 0, sizeof amended);
    conn_init();
    return u;
}

static void test_events(void)
{
    struct memcap mc;
    struct findings *f;
    struct udp_timing *u = setup(&mc, &f);
    struct txn_slot a_, b_, c_, d_;

    /* A: GETATTR answered after 10 ms, one send: Karn sample.
     * err = 10 - 900 = -890: srtt8 = 7200 - 890 = 6310 ms (SRTT 788.75);
     * 890 - 50 = 840: sdrtt4 = 1040 ms. RTO = 788.75 + 1040 = 1828.75 ms */
    call(u, &a_.txn, 1, 1, 0, 1);
    CHECK_EQ_U(a_.in.udp_timeout_ns, 1100 * MS);
    reply(u, &a_.txn, 10 * MS, 2, false);
    const struct ns_udp_pair *p = udp_timing_pair(u, 0);
    CHECK_EQ_U(udp_timing_pair_count(u), 1);
    CHECK_EQ_U(p->cls[1].srtt_ns, 788750000);
    CHECK_EQ_U(p->cls[1].rttvar_ns, 260 * MS);
    CHECK_EQ_U(p->cls[1].rto_ns, 1828750000);

    /* B: armed 1828.75 ms; resent after exactly that (ratio 1), from a new
     * port (same pair); reply 4 ms after the resend: less than half the
     * smallest RTT (10 ms), so it answers the first send: spurious. */
    call(u, &b_.txn, 2, 1, 1 * S, 3);
    CHECK_EQ_U(b_.in.udp_timeout_ns, 1828750000);
    conn.client.port = 40001;
    resend(u, &b_.txn, 1 * S + 1828750000, 4);
    CHECK_EQ_U(b_.in.udp_retries, 1);
    CHECK_EQ_U(b_.in.udp_timeout_ns, 3657500000); /* 1828.75 << 1 */
    reply(u, &b_.txn, 1 * S + 1832750000, 5, false);
    CHECK_EQ_U(p->cls[1].spurious, 1);
    CHECK_EQ_U(p->cls[1].rtt_samples, 1); /* Karn: no sample from B */
    CHECK(p->cls[1].timeout_ratio_max > 0.9999 && p->cls[1].timeout_ratio_max < 1.0001);
    /* the resend (frame 4) amended as spurious by the reply; one spurious
     * call is below the finding's 3: nothing in the store yet */
    CHECK_EQ_U(amended.n, 1);
    CHECK_EQ_U(amended.v[0].frame, 4);
    CHECK_EQ_U(amended.v[0].amend, NS_AMEND_SPURIOUS_RESEND);
    CHECK_EQ_U(amended.v[0].by, 5);
    CHECK(amended.v[0].txn);
    CHECK_EQ_U(heard.n, 0);

    /* C: ntimeouts is now 1 (B was sent twice): armed 1828.75 << 1 = 3657.5 ms.
     * Resent after 20 s: 20 / 1.82875 = 10.9 x the RTO > 8: inflated; and
     * 20 s >= 1.1 s << 3 = 8.8 s after the first send: a major timeout, the
     * estimator starts over (RTO = timeo, ntimeouts 0). Never answered. */
    call(u, &c_.txn, 3, 1, 10 * S, 6);
    CHECK_EQ_U(c_.in.udp_timeout_ns, 3657500000);
    resend(u, &c_.txn, 30 * S, 7);
    CHECK_EQ_U(p->cls[1].inflated, 1);
    CHECK_EQ_U(p->cls[1].major_timeouts, 1);
    CHECK_EQ_U(p->major_timeouts, 1);
    CHECK_EQ_U(c_.in.udp_retries, 0);
    CHECK_EQ_U(c_.in.udp_timeout_ns, 1100 * MS);
    CHECK_EQ_U(p->cls[1].rto_ns, 1100 * MS);
    CHECK_EQ_U(p->cls[1].srtt_ns, 900 * MS);
    CHECK_EQ_U(p->cls[1].gap_max_ns, 20 * S);
    CHECK_EQ_U(p->cls[1].gap_min_ns, 1828750000);
    /* per frame: second send, 20 s gap, armed after the restart = timeo */
    CHECK_EQ_U(info.send_no, 2);
    CHECK_EQ_U(info.gap_ns, 20 * S);
    CHECK_EQ_U(info.armed_timeout_ns, 1100 * MS);
    CHECK_EQ_U(info.srtt_ns, 900 * MS);
    CHECK_EQ_U(info.rto_ns, 1100 * MS);
    /* RTO_INFLATED raised now, told with its frame. Retransmissions: B and
     * C; waits 1.82875 + 20 s over the 30 s seen so far = 72.76% */
    const struct ns_finding *x = finding_of(f, "RTO_INFLATED");
    CHECK(x != NULL);
    CHECK_EQ_U(heard.n, 1);
    CHECK_EQ_U(heard_of("RTO_INFLATED", 7), 1);
    if (x) {
        CHECK_EQ_U(x->count, 1);
        CHECK_EQ_U(x->frames[0], 7);
        CHECK(strstr(x->message, "1 of 2 retransmissions from 10.77.0.2 to 10.77.0.1:2049") != NULL);
        CHECK(strstr(x->message, "worst: 20000.0 ms") != NULL);
        CHECK(strstr(x->message, "72.8% of the capture") != NULL);
    }
    /* settle with a 100 s span: 21.8%, told once (frame 0); again: nothing */
    udp_timing_settle(u, 100 * S);
    CHECK_EQ_U(heard.n, 2);
    CHECK_EQ_U(heard.v[1].frame, 0);
    x = finding_of(f, "RTO_INFLATED");
    CHECK(x && strstr(x->message, "21.8% of the capture") != NULL);
    uint64_t gen = findings_generation(f);
    udp_timing_settle(u, 100 * S);
    CHECK_EQ_U(heard.n, 2);
    CHECK_EQ_U(findings_generation(f), gen);
    udp_timing_on_done(u, &c_.txn, &conn, true);
    CHECK_EQ_U(p->cls[1].unanswered, 1);

    /* D: READ whose reply lost a fragment: first fragment at 40.001 s, call
     * resent at 41.1 s, answered at 41.2 s; the incomplete datagram is given
     * up later (30 s). Its XID was resent after it: lost to fragments. */
    call(u, &d_.txn, 0x44, 6, 40 * S, 8);
    resend(u, &d_.txn, 41100 * MS, 30);
    reply(u, &d_.txn, 41200 * MS, 31, false);
    uint8_t hdr[16] = {0x08, 0x01, 0x9c, 0x40, 0, 0, 0, 0, 0, 0, 0, 0x44, 0, 0, 0, 1};
    struct ns_span sp[2] = {{hdr, sizeof hdr}, {NULL, 32784 - sizeof hdr}};
    struct net_pkt k;
    memset(&k, 0, sizeof k);
    k.src = conn.server.addr;
    k.dst = conn.client.addr;
    k.proto = 17;
    k.ipver = 4;
    struct ipfrag_done dn = {&k, {sp, 2, 32784}, 22, false, 40001 * MS, 1480};
    /* D's resend changed the retransmission count in RTO_INFLATED's message */
    CHECK_EQ_U(heard.n, 3);
    CHECK_EQ_U(heard_of("RTO_INFLATED", 0), 2);
    udp_timing_on_fragmented(u, &dn, 70 * S, 99);
    CHECK_EQ_U(p->cls[3].lost_to_fragments, 1);
    /* FRAGMENT_LOSS raised at once with the resend that followed (30);
     * the send whose reply was lost (8) amended, told by frame 99 */
    x = finding_of(f, "FRAGMENT_LOSS");
    CHECK(x && strstr(x->message, "1 of 1 fragmented replies from 10.77.0.1:2049 to 10.77.0.2 (100.0%)") != NULL);
    CHECK_EQ_U(heard.n, 4);
    CHECK_EQ_U(heard_of("FRAGMENT_LOSS", 30), 1);
    CHECK_EQ_U(amended.n, 2);
    CHECK_EQ_U(amended.v[1].frame, 8);
    CHECK_EQ_U(amended.v[1].amend, NS_AMEND_REPLY_LOST_TO_FRAGMENTS);
    CHECK_EQ_U(amended.v[1].by, 99);
    CHECK(!amended.v[1].txn);
    CHECK_EQ_U(p->cls[3].fragmented_replies, 1);
    CHECK_EQ_U(p->incomplete_datagrams, 1);
    CHECK_EQ_U(p->mtu, 1500);
    CHECK_EQ_U(p->fragments_max, 22);
    /* the same without its first fragment: no XID */
    struct ns_span sp2[1] = {{NULL, 32784}};
    struct ipfrag_done dn2 = {&k, {sp2, 1, 32784}, 21, false, 50 * S, 1480};
    udp_timing_on_fragmented(u, &dn2, 80 * S, 100);
    CHECK_EQ_U(p->incomplete_no_header, 1);
    CHECK_EQ_U(p->cls[3].lost_to_fragments, 1);

    /* Waits: B [1, 2.82875], C [10, 30], D [40, 41.1] = 1.82875 + 20 + 1.1 s */
    CHECK_EQ_U(p->wait_ns, 1828750000 + 20 * S + 1100 * MS);

    CHECK_EQ_U(heard.n, 4); /* nothing the findings say changed */

    /* Both findings were there before the end; the end changes nothing, twice */
    gen = findings_generation(f);
    udp_timing_finish(u, 100 * S);
    udp_timing_finish(u, 100 * S);
    CHECK_EQ_U(heard.n, 4);
    CHECK_EQ_U(findings_generation(f), gen);
    const struct ns_finding *const *v;
    size_t n = findings_sorted(f, &v);
    CHECK_EQ_U(n, 2); /* FRAGMENT_LOSS (error), RTO_INFLATED; 1 spurious < 3 */
    if (n == 2) {
        CHECK_EQ_S(v[0]->kind, "FRAGMENT_LOSS");
        CHECK_EQ_U(v[0]->count, 1);
        CHECK_EQ_U(v[0]->frames[0], 30);
        CHECK_EQ_S(v[1]->kind, "RTO_INFLATED");
        CHECK_EQ_U(v[1]->frames[0], 7);
        CHECK_EQ_U(v[1]->first_ts_ns, 30 * S);
    }
    findings_free(f);
    udp_timing_free(u);
    CHECK_EQ_U(mc.total_used, 0);
}

/* What each send and reply says about its frame. Estimator of class 1
 * (GETATTR) from timeo 1.1 s as in test_events: A's 10 ms sample gives SRTT
 * 788.75 ms, RTO 1828.75 ms. */
static void test_frame_info(void)
{
    struct memcap mc;
    struct findings *f;
    struct udp_timing *u = setup(&mc, &f);
    struct txn_slot a_, y_, z_, o_;

    /* first send: armed RTO = timeo; SRTT from init = (timeo - 200 ms) */
    call(u, &a_.txn, 1, 1, 0, 1);
    CHECK(info.udp);
    CHECK_EQ_U(info.send_no, 1);
    CHECK_EQ_U(info.gap_ns, 0);
    CHECK_EQ_U(info.armed_timeout_ns, 1100 * MS);
    CHECK_EQ_U(info.rtt_ns, (uint64_t)-1);
    CHECK_EQ_U(info.srtt_ns, 900 * MS);
    CHECK_EQ_U(info.rto_ns, 1100 * MS);
    reply(u, &a_.txn, 10 * MS, 2, false);
    CHECK_EQ_U(info.send_no, 1);
    CHECK_EQ_U(info.rtt_ns, 10 * MS);
    CHECK_EQ_U(info.armed_timeout_ns, 0);
    CHECK_EQ_U(info.srtt_ns, 788750000);
    CHECK_EQ_U(info.rto_ns, 1828750000);

    /* Y: armed 1828.75; resent after it (retries 1: 3657.5), again after
     * that (retries 2: 7315; 5.486 s into the cycle, below 8.8 s) */
    call(u, &y_.txn, 2, 1, 1 * S, 3);
    CHECK_EQ_U(info.armed_timeout_ns, 1828750000);
    resend(u, &y_.txn, 1 * S + 1828750000, 4);
    CHECK_EQ_U(info.send_no, 2);
    CHECK_EQ_U(info.gap_ns, 1828750000);
    CHECK_EQ_U(info.armed_timeout_ns, 3657500000);
    CHECK_EQ_U(info.rto_ns, 1828750000);
    resend(u, &y_.txn, 1 * S + 5486250000, 5);
    CHECK_EQ_U(info.send_no, 3);
    CHECK_EQ_U(info.gap_ns, 3657500000);
    CHECK_EQ_U(info.armed_timeout_ns, 7315 * MS);
    /* answered 300 ms later: three sends, no sample (Karn); not spurious
     * (600 ms >= 10 ms); ntimeouts of the class becomes 2 */
    reply(u, &y_.txn, 1 * S + 5786250000, 6, false);
    CHECK_EQ_U(info.send_no, 3);
    CHECK_EQ_U(info.rtt_ns, (uint64_t)-1);
    CHECK_EQ_U(info.srtt_ns, 788750000);
    CHECK_EQ_U(amended.n, 0);

    /* a CREATE (class 0): fixed timeout armed, nothing estimated */
    call(u, &o_.txn, 3, 8, 20 * S, 7);
    CHECK_EQ_U(info.armed_timeout_ns, 1100 * MS);
    CHECK_EQ_U(info.srtt_ns, 0);
    CHECK_EQ_U(info.rto_ns, 0);

    /* Z: armed 1828.75 << 2 = 7315 ms. 50 ms sample: err = 50 - 788.75 =
     * -738.75, srtt8 = 6310 - 738.75 = 5571.25 (SRTT 696.40625); sdrtt4 =
     * 1040 + 738.75 - 260 = 1518.75: RTO 2215.15625 ms */
    call(u, &z_.txn, 4, 1, 30 * S, 8);
    CHECK_EQ_U(info.armed_timeout_ns, 7315 * MS);
    reply(u, &z_.txn, 30 * S + 50 * MS, 9, false);
    CHECK_EQ_U(info.rtt_ns, 50 * MS);
    CHECK_EQ_U(info.srtt_ns, 696406250);
    CHECK_EQ_U(info.rto_ns, 2215156250);
    /* a second reply: no sample, one send: not spurious */
    reply(u, &z_.txn, 30 * S + 60 * MS, 10, true);
    CHECK_EQ_U(info.rtt_ns, (uint64_t)-1);
    CHECK_EQ_U(info.send_no, 1);
    CHECK_EQ_U(amended.n, 0);

    /* not UDP: said so, nothing else */
    conn.transport = NS_TRANSPORT_TCP;
    struct txn_slot tcp_;
    call(u, &tcp_.txn, 5, 1, 40 * S, 11);
    CHECK(!info.udp);
    CHECK_EQ_U(info.send_no, 0);
    CHECK_EQ_U(heard.n, 0);
    udp_timing_free(u);
    findings_free(f);
    CHECK_EQ_U(mc.total_used, 0);
}

/* SPURIOUS_RETRANSMIT at the third spurious call of the pair, with the two
 * before it; each spurious resend amended. */
static void test_spurious(void)
{
    struct memcap mc;
    struct findings *f;
    struct udp_timing *u = setup(&mc, &f);
    struct txn_slot x_, w_, v_, t_, s_;

    /* X: resent at 1.1 s, answered at 1.15 s (no RTT known: not judged),
     * answered again at 1.2 s: spurious 1, its resend (2) amended by 4 */
    call(u, &x_.txn, 10, 1, 0, 1);
    resend(u, &x_.txn, 1100 * MS, 2);
    reply(u, &x_.txn, 1150 * MS, 3, false);
    CHECK_EQ_U(amended.n, 0);
    reply(u, &x_.txn, 1200 * MS, 4, true);
    CHECK_EQ_U(amended.n, 1);
    CHECK_EQ_U(amended.v[0].frame, 2);
    CHECK_EQ_U(amended.v[0].by, 4);
    /* W: a 100 ms sample. V: resent at 5 s, answered 10 ms later: 20 ms <
     * 100 ms, too soon for the resend: spurious 2, frame 8 amended by 9 */
    call(u, &w_.txn, 11, 1, 2 * S, 5);
    reply(u, &w_.txn, 2100 * MS, 6, false);
    call(u, &v_.txn, 12, 1, 3 * S, 7);
    resend(u, &v_.txn, 5 * S, 8);
    reply(u, &v_.txn, 5010 * MS, 9, false);
    CHECK_EQ_U(amended.n, 2);
    CHECK_EQ_U(amended.v[1].frame, 8);
    CHECK_EQ_U(amended.v[1].by, 9);
    CHECK_EQ_U(heard.n, 0);
    CHECK(finding_of(f, "SPURIOUS_RETRANSMIT") == NULL);
    /* T: answered at 6.05 s, resent at 7 s after the reply: spurious 3,
     * shown by the resend itself (armed: none, a client would not resend) */
    call(u, &t_.txn, 13, 1, 6 * S, 10);
    reply(u, &t_.txn, 6050 * MS, 11, false);
    resend(u, &t_.txn, 7 * S, 12);
    CHECK_EQ_U(info.send_no, 2);
    CHECK_EQ_U(info.gap_ns, 1 * S);
    CHECK_EQ_U(info.armed_timeout_ns, 0);
    CHECK_EQ_U(amended.n, 3);
    CHECK_EQ_U(amended.v[2].frame, 12);
    CHECK_EQ_U(amended.v[2].by, 12);
    const struct ns_finding *fx = finding_of(f, "SPURIOUS_RETRANSMIT");
    CHECK(fx != NULL);
    CHECK_EQ_U(heard.n, 3); /* the three resends, lowest first */
    CHECK_EQ_U(heard.v[0].frame, 2);
    CHECK_EQ_U(heard.v[1].frame, 8);
    CHECK_EQ_U(heard.v[2].frame, 12);
    if (fx) {
        CHECK_EQ_U(fx->count, 3);
        CHECK_EQ_U(fx->nframes, 3);
        CHECK_EQ_U(fx->first_ts_ns, 1200 * MS); /* the time X was shown spurious */
        CHECK_EQ_U(fx->last_ts_ns, 7 * S);
        CHECK_EQ_U(fx->nconns, 1);
        CHECK(strstr(fx->message, "3 calls from 10.77.0.2 to 10.77.0.1:2049 were resent") != NULL);
        CHECK(strstr(fx->message, "1 duplicate replies, 3 retransmissions") != NULL);
    }
    /* S: resent at 9 s (a retransmission more: message, frame 0), answered
     * at 9.5 s (1 s >= 50 ms: not judged spurious), again at 9.6 s: spurious
     * 4, folded with its resend (14, earlier than the frame showing it) */
    call(u, &s_.txn, 14, 1, 8 * S, 13);
    resend(u, &s_.txn, 9 * S, 14);
    CHECK_EQ_U(heard.n, 4);
    CHECK_EQ_U(heard.v[3].frame, 0);
    reply(u, &s_.txn, 9500 * MS, 15, false);
    CHECK_EQ_U(heard.n, 4);
    reply(u, &s_.txn, 9600 * MS, 16, true);
    CHECK_EQ_U(heard.n, 5);
    CHECK_EQ_U(heard.v[4].frame, 14);
    CHECK_EQ_U(amended.n, 4);
    CHECK_EQ_U(amended.v[3].frame, 14);
    CHECK_EQ_U(amended.v[3].by, 16);
    /* a third reply to X: counted once already, only the message changes */
    reply(u, &x_.txn, 10 * S, 17, true);
    CHECK_EQ_U(heard.n, 6);
    CHECK_EQ_U(heard.v[5].frame, 0);
    CHECK_EQ_U(amended.n, 4);
    fx = finding_of(f, "SPURIOUS_RETRANSMIT");
    if (fx) {
        CHECK_EQ_U(fx->count, 4);
        CHECK_EQ_U(fx->frames[3], 14);
        CHECK_EQ_U(fx->last_ts_ns, 9600 * MS);
        CHECK(strstr(fx->message, "4 calls from") != NULL);
        CHECK(strstr(fx->message, "3 duplicate replies, 4 retransmissions") != NULL);
    }
    CHECK_EQ_U(heard_of("SPURIOUS_RETRANSMIT", UINT64_MAX), 6);
    /* the end: nothing more */
    uint64_t gen = findings_generation(f);
    udp_timing_settle(u, 10 * S);
    udp_timing_finish(u, 10 * S);
    udp_timing_finish(u, 10 * S);
    CHECK_EQ_U(heard.n, 6);
    CHECK_EQ_U(findings_generation(f), gen);
    udp_timing_free(u);
    findings_free(f);
    CHECK_EQ_U(mc.total_used, 0);
}

static void pair_conn(struct ns_conn *cn, unsigned i)
{
    memset(cn, 0, sizeof *cn);
    cn->id = i + 1;
    cn->transport = NS_TRANSPORT_UDP;
    cn->client.addr.family = cn->server.addr.family = 4;
    cn->client.addr.a[0] = 192;
    cn->client.addr.a[2] = (uint8_t)(i >> 8);
    cn->client.addr.a[3] = (uint8_t)i;
    cn->server.addr.a[0] = 10;
    cn->server.port = 2049;
}

static const struct ns_udp_pair *pair_of(struct udp_timing *u, unsigned i)
{
    struct ns_conn cn;
    pair_conn(&cn, i);
    return udp_timing_pair_by_key(u, &cn.client.addr, &cn.server);
}

static void pair_call(struct udp_timing *u, struct ns_txn *t, unsigned i, uint32_t proc, int64_t ts, uint64_t frame)
{
    struct ns_conn cn;
    pair_conn(&cn, i);
    memset(t, 0, sizeof *t);
    memset(txn_internal(t), 0, sizeof(struct txn_internal));
    t->prog = 100003;
    t->vers = 3;
    t->proc = proc;
    t->call_frame = t->send_frame[0] = frame;
    t->call_ts_ns = t->last_send_ts_ns = t->send_ts_ns[0] = ts;
    t->sends = 1;
    udp_timing_on_call(u, t, &cn, ts, frame, NULL);
}

/* Pairs stay where they are while they live; lookups by key find the live
 * ones only; a finding outlives its evicted pair. */
static void test_pair_stability(void)
{
    struct memcap mc;
    struct findings *f;
    struct udp_timing *u = setup(&mc, &f);
    struct txn_slot t_;
    for (unsigned i = 0; i < UDP_PAIRS_MAX; i++) pair_call(u, &t_.txn, i, 1, (int64_t)i * MS, i + 1);
    const struct ns_udp_pair *p100 = pair_of(u, 100), *p200 = pair_of(u, 200);
    CHECK(p100 != NULL && p100 == udp_timing_pair(u, 100));
    /* pair 100: a CREATE (class 0, fixed 1.1 s) resent after 10 s > 8 x
     * 1.1 s: RTO_INFLATED; it is now the most recently active */
    struct ns_conn cn;
    pair_conn(&cn, 100);
    pair_call(u, &t_.txn, 100, 8, 1 * S, 1000);
    t_.txn.sends = 2;
    t_.txn.send_frame[1] = 1001;
    t_.txn.send_ts_ns[1] = t_.txn.last_send_ts_ns = 11 * S;
    t_.txn.prev_send_ts_ns = 1 * S;
    udp_timing_on_retransmit(u, &t_.txn, &cn, 11 * S, 1001, NULL);
    CHECK(finding_of(f, "RTO_INFLATED") != NULL);
    /* ten new pairs push out the ten idle longest: pairs 0..9 */
    for (unsigned i = UDP_PAIRS_MAX; i < UDP_PAIRS_MAX + 10; i++)
        pair_call(u, &t_.txn, i, 1, 12 * S + (int64_t)i * MS, 2000 + i);
    CHECK_EQ_U(udp_timing_evicted_pairs(u), 10);
    CHECK_EQ_U(udp_timing_pair_count(u), UDP_PAIRS_MAX);
    CHECK(pair_of(u, 0) == NULL);
    CHECK(pair_of(u, 9) == NULL);
    CHECK(pair_of(u, 10) != NULL);
    CHECK(pair_of(u, 100) == p100);
    CHECK(pair_of(u, 200) == p200);
    CHECK_EQ_U(p100->client.a[3], 100);
    CHECK_EQ_U(p100->cls[0].calls, 1);
    CHECK_EQ_U(p100->cls[1].calls, 1);
    CHECK_EQ_U(p100->cls[0].inflated, 1);
    CHECK_EQ_U(p200->client.a[3], 200);
    /* order of first appearance: 10..255, then the new ones */
    CHECK(udp_timing_pair(u, 90) == p100);
    CHECK_EQ_U(udp_timing_pair(u, 0)->client.a[3], 10);
    CHECK_EQ_U(udp_timing_pair(u, UDP_PAIRS_MAX - 1)->client.a[2], 1);
    CHECK_EQ_U(udp_timing_pair(u, UDP_PAIRS_MAX - 1)->client.a[3], 9);
    /* a whole table of newer pairs: 100 goes too, its finding stays */
    for (unsigned i = 0; i < UDP_PAIRS_MAX; i++) pair_call(u, &t_.txn, 1000 + i, 1, 20 * S + (int64_t)i * MS, 3000 + i);
    CHECK_EQ_U(udp_timing_evicted_pairs(u), 10 + UDP_PAIRS_MAX);
    CHECK(pair_of(u, 100) == NULL);
    CHECK(pair_of(u, 200) == NULL);
    CHECK(pair_of(u, 1000) != NULL);
    CHECK(finding_of(f, "RTO_INFLATED") != NULL);
    udp_timing_finish(u, 30 * S);
    udp_timing_free(u);
    findings_free(f);
    CHECK_EQ_U(mc.total_used, 0);
}

/* The pair table within its memory: room for the index and the first two
 * chunks (8 + 8 pairs) only; past that the idle longest is evicted. */
static void test_pair_memcap(void)
{
    struct memcap mc;
    memcap_init(&mc, 64 << 20);
    size_t room = UDP_PAIRS_MAX * sizeof(void *) + UDP_HASH_BUCKETS * sizeof(void *) + 16 * sizeof(struct pair);
    mc.cap[MEM_SESSIONS] = room;
    struct udp_timing *u = udp_timing_new(&mc, NULL, NULL);
    struct txn_slot t_;
    for (unsigned i = 0; i < 20; i++) pair_call(u, &t_.txn, i, 1, (int64_t)i * MS, i + 1);
    CHECK_EQ_U(udp_timing_pair_count(u), 16);
    CHECK_EQ_U(udp_timing_evicted_pairs(u), 4);
    CHECK_EQ_U(mc.used[MEM_SESSIONS], room);
    CHECK(pair_of(u, 3) == NULL);
    CHECK(pair_of(u, 4) != NULL);
    CHECK(pair_of(u, 19) != NULL);
    udp_timing_free(u);
    CHECK_EQ_U(mc.total_used, 0);
}

/* The pair table holds UDP_PAIRS_MAX pairs; the one idle longest goes. */
static void test_pair_cap(void)
{
    struct memcap mc;
    memcap_init(&mc, 64 << 20);
    struct findings *fs = findings_new(&mc);
    struct udp_timing *u = udp_timing_new(&mc, NULL, fs);
    struct ns_conn cn;
    memset(&cn, 0, sizeof cn);
    cn.id = 1;
    cn.transport = NS_TRANSPORT_UDP;
    cn.client.addr.family = cn.server.addr.family = 4;
    cn.server.addr.a[0] = 10;
    cn.server.port = 2049;
    struct txn_slot t_;
    for (unsigned i = 0; i < UDP_PAIRS_MAX + 10; i++) {
        cn.client.addr.a[0] = 192;
        cn.client.addr.a[2] = (uint8_t)(i >> 8);
        cn.client.addr.a[3] = (uint8_t)i;
        memset(&t_, 0, sizeof t_);
        t_.txn.call_frame = i + 1;
        t_.txn.sends = 1;
        udp_timing_on_call(u, &t_.txn, &cn, (int64_t)i * MS, i + 1, NULL);
    }
    CHECK_EQ_U(udp_timing_pair_count(u), UDP_PAIRS_MAX);
    CHECK_EQ_U(udp_timing_evicted_pairs(u), 10);
    /* the first ten (idle longest) went; order of first sighting kept */
    CHECK_EQ_U(udp_timing_pair(u, 0)->client.a[3], 10);
    CHECK_EQ_U(udp_timing_pair(u, UDP_PAIRS_MAX - 1)->client.a[3], (UDP_PAIRS_MAX + 9) & 0xff);
    CHECK(mc.used[MEM_SESSIONS] > 0);
    udp_timing_free(u);
    findings_free(fs);
    CHECK_EQ_U(mc.total_used, 0);
}

/* The sorted view of the findings is taken from the memory cap like the
 * findings themselves, with them (a full pool at the end of the capture must
 * not leave the report without findings), and given back. */
static void test_findings_view_memcap(void)
{
    struct memcap mc;
    memcap_init(&mc, 64 << 20);
    struct findings *f = findings_new(&mc);
    CHECK(findings_add(f, "RTO_INFLATED", 1, 5) != NULL);
    uint64_t before = mc.used[MEM_SESSIONS];
    CHECK(before >= 16 * (sizeof(struct ns_finding) + sizeof(void *)));
    const struct ns_finding *const *v;
    CHECK_EQ_U(findings_sorted(f, &v), 1);
    CHECK_EQ_U(mc.used[MEM_SESSIONS], before);
    findings_free(f);
    CHECK_EQ_U(mc.total_used, 0);
}

int main(void)
{
    test_pair_cap();
    test_init_and_samples();
    test_floor_and_rounding();
    test_ntimeo_and_backoff();
    test_classes();
    test_events();
    test_frame_info();
    test_spurious();
    test_pair_stability();
    test_pair_memcap();
    test_findings_view_memcap();
    return check_done("test_udp_timing");
}
