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

static void call(struct udp_timing *u, struct ns_txn *t, uint32_t xid, uint32_t proc, int64_t ts, uint64_t frame)
{
    memset(t, 0, sizeof *t);
    t->xid = xid;
    t->prog = 100003;
    t->vers = 3;
    t->proc = proc;
    t->conn_id = 1;
    t->call_frame = frame;
    t->call_ts_ns = t->last_send_ts_ns = t->send_ts_ns[0] = ts;
    t->send_frame[0] = frame;
    t->sends = 1;
    udp_timing_on_call(u, t, &conn, ts, frame, NULL);
}

static void resend(struct udp_timing *u, struct ns_txn *t, int64_t ts, uint64_t frame)
{
    if (t->sends < NS_TXN_SENDS_KEPT) { t->send_ts_ns[t->sends] = ts; t->send_frame[t->sends] = frame; }
    t->sends++;
    t->prev_send_ts_ns = t->last_send_ts_ns;
    t->last_send_ts_ns = ts;
    udp_timing_on_retransmit(u, t, &conn, ts, frame, NULL);
}

static void reply(struct udp_timing *u, struct ns_txn *t, int64_t ts, uint64_t frame, bool dup)
{
    if (!dup) { t->reply_frame = frame; t->reply_ts_ns = ts; }
    else t->dup_replies++;
    udp_timing_on_reply(u, t, &conn, dup, ts, frame, NULL);
}

static void test_events(void)
{
    struct memcap mc;
    memcap_init(&mc, 64 << 20);
    struct findings *f = findings_new(&mc);
    struct udp_timing *u = udp_timing_new(&mc, NULL, f); /* defaults: timeo 1.1 s, retrans 3, factor 8 */
    memset(&conn, 0, sizeof conn);
    conn.id = 1;
    conn.transport = NS_TRANSPORT_UDP;
    conn.client.addr.family = conn.server.addr.family = 4;
    memcpy(conn.client.addr.a, (uint8_t[]){10, 77, 0, 2}, 4);
    memcpy(conn.server.addr.a, (uint8_t[]){10, 77, 0, 1}, 4);
    conn.client.port = 40000;
    conn.server.port = 2049;
    struct ns_txn a, b, c, d;

    /* A: GETATTR answered after 10 ms, one send: Karn sample.
     * err = 10 - 900 = -890: srtt8 = 7200 - 890 = 6310 ms (SRTT 788.75);
     * 890 - 50 = 840: sdrtt4 = 1040 ms. RTO = 788.75 + 1040 = 1828.75 ms */
    call(u, &a, 1, 1, 0, 1);
    CHECK_EQ_U(a.udp_timeout_ns, 1100 * MS);
    reply(u, &a, 10 * MS, 2, false);
    const struct ns_udp_pair *p = udp_timing_pair(u, 0);
    CHECK_EQ_U(udp_timing_pair_count(u), 1);
    CHECK_EQ_U(p->cls[1].srtt_ns, 788750000);
    CHECK_EQ_U(p->cls[1].rttvar_ns, 260 * MS);
    CHECK_EQ_U(p->cls[1].rto_ns, 1828750000);

    /* B: armed 1828.75 ms; resent after exactly that (ratio 1), from a new
     * port (same pair); reply 4 ms after the resend: less than half the
     * smallest RTT (10 ms), so it answers the first send: spurious. */
    call(u, &b, 2, 1, 1 * S, 3);
    CHECK_EQ_U(b.udp_timeout_ns, 1828750000);
    conn.client.port = 40001;
    resend(u, &b, 1 * S + 1828750000, 4);
    CHECK_EQ_U(b.udp_retries, 1);
    CHECK_EQ_U(b.udp_timeout_ns, 3657500000); /* 1828.75 << 1 */
    reply(u, &b, 1 * S + 1832750000, 5, false);
    CHECK_EQ_U(p->cls[1].spurious, 1);
    CHECK_EQ_U(p->cls[1].rtt_samples, 1); /* Karn: no sample from B */
    CHECK(p->cls[1].timeout_ratio_max > 0.9999 && p->cls[1].timeout_ratio_max < 1.0001);

    /* C: ntimeouts is now 1 (B was sent twice): armed 1828.75 << 1 = 3657.5 ms.
     * Resent after 20 s: 20 / 1.82875 = 10.9 x the RTO > 8: inflated; and
     * 20 s >= 1.1 s << 3 = 8.8 s after the first send: a major timeout, the
     * estimator starts over (RTO = timeo, ntimeouts 0). Never answered. */
    call(u, &c, 3, 1, 10 * S, 6);
    CHECK_EQ_U(c.udp_timeout_ns, 3657500000);
    resend(u, &c, 30 * S, 7);
    CHECK_EQ_U(p->cls[1].inflated, 1);
    CHECK_EQ_U(p->cls[1].major_timeouts, 1);
    CHECK_EQ_U(p->major_timeouts, 1);
    CHECK_EQ_U(c.udp_retries, 0);
    CHECK_EQ_U(c.udp_timeout_ns, 1100 * MS);
    CHECK_EQ_U(p->cls[1].rto_ns, 1100 * MS);
    CHECK_EQ_U(p->cls[1].srtt_ns, 900 * MS);
    CHECK_EQ_U(p->cls[1].gap_max_ns, 20 * S);
    CHECK_EQ_U(p->cls[1].gap_min_ns, 1828750000);
    udp_timing_on_done(u, &c, &conn, true);
    CHECK_EQ_U(p->cls[1].unanswered, 1);

    /* D: READ whose reply lost a fragment: first fragment at 40.001 s, call
     * resent at 41.1 s, answered at 41.2 s; the incomplete datagram is given
     * up later (30 s). Its XID was resent after it: lost to fragments. */
    call(u, &d, 0x44, 6, 40 * S, 8);
    resend(u, &d, 41100 * MS, 30);
    reply(u, &d, 41200 * MS, 31, false);
    uint8_t hdr[16] = {0x08, 0x01, 0x9c, 0x40, 0, 0, 0, 0, 0, 0, 0, 0x44, 0, 0, 0, 1};
    struct ns_span sp[2] = {{hdr, sizeof hdr}, {NULL, 32784 - sizeof hdr}};
    struct net_pkt k;
    memset(&k, 0, sizeof k);
    k.src = conn.server.addr;
    k.dst = conn.client.addr;
    k.proto = 17;
    k.ipver = 4;
    struct ipfrag_done dn = {&k, {sp, 2, 32784}, 22, false, 40001 * MS, 1480};
    udp_timing_on_fragmented(u, &dn, 70 * S, 99);
    CHECK_EQ_U(p->cls[3].lost_to_fragments, 1);
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

    udp_timing_finish(u, 100 * S);
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
    struct ns_txn t;
    for (unsigned i = 0; i < UDP_PAIRS_MAX + 10; i++) {
        cn.client.addr.a[0] = 192;
        cn.client.addr.a[2] = (uint8_t)(i >> 8);
        cn.client.addr.a[3] = (uint8_t)i;
        memset(&t, 0, sizeof t);
        t.call_frame = i + 1;
        t.sends = 1;
        udp_timing_on_call(u, &t, &cn, (int64_t)i * MS, i + 1, NULL);
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

int main(void)
{
    test_pair_cap();
    test_init_and_samples();
    test_floor_and_rounding();
    test_ntimeo_and_backoff();
    test_classes();
    test_events();
    return check_done("test_udp_timing");
}
