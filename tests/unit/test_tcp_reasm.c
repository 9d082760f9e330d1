/* TCP reassembly: the byte stream handed to the consumer (data and holes,
 * with their kinds) for every arrival order, overlap, loss and cap case.
 * Expected streams are written from TCP's sequence space (RFC 9293 §3.4):
 * the SYN takes one number, data starts at ISN+1, arithmetic is mod 2^32. */
#include <stdlib.h>

#include "check.h"
#include "tcp_reasm.h"

#define MAXS (5u << 20)
#define MAXEV 4096

/* What the consumer saw: per stream byte its kind, and the bytes. */
struct rec {
    uint8_t *bytes, *kind;
    uint32_t n;
    struct { uint8_t kind; uint32_t len; uint64_t frame; } ev[MAXEV];
    uint32_t nev;
};

static void on_bytes(void *ctx, int dir, const uint8_t *data, uint32_t len, enum tcp_hole_kind kind,
                     uint64_t frame, int64_t ts)
{
    struct rec *r = ctx;
    (void)dir;
    (void)ts;
    CHECK(len > 0); /* empty deliveries are never expected */
    if (r->n + len > MAXS) abort();
    CHECK((data != NULL) == (kind == TCP_DATA));
    if (data) memcpy(r->bytes + r->n, data, len);
    memset(r->kind + r->n, kind, len);
    r->n += len;
    if (r->nev && r->ev[r->nev - 1].kind == kind && kind != TCP_DATA) r->ev[r->nev - 1].len += len;
    else if (r->nev < MAXEV) { r->ev[r->nev].kind = (uint8_t)kind; r->ev[r->nev].len = len; r->ev[r->nev].frame = frame; r->nev++; }
}

static uint8_t *src; /* stream byte i (relative to ISN+1) is src[i] */

struct conn {
    struct memcap mc;
    struct tcp_reasm_stats st;
    struct tcp_ctx c;
    struct tcp_dir d[2];
    struct rec r;
    uint32_t isn;
};

static void conn_init(struct conn *k, uint64_t memtotal, uint32_t isn)
{
    static uint8_t bytes[MAXS], kind[MAXS];
    memset(k, 0, sizeof *k);
    memcap_init(&k->mc, memtotal);
    k->c = (struct tcp_ctx){&k->mc, &k->st, on_bytes, &k->r};
    k->r.bytes = bytes;
    k->r.kind = kind;
    k->isn = isn;
}

static void syn(struct conn *k)
{
    struct tcp_segment_in s = {.seq = k->isn, .ack = 0, .flags = TH_SYN, .payload = NULL, .caplen = 0, .len = 0, .frame = 0, .ts_ns = 0};
    tcp_reasm_segment(&k->c, &k->d[0], 0, &k->d[1], &s);
    struct tcp_segment_in sa = {.seq = 7777, .ack = k->isn + 1, .flags = TH_SYN | TH_ACK, .payload = NULL, .caplen = 0, .len = 0, .frame = 0, .ts_ns = 0};
    tcp_reasm_segment(&k->c, &k->d[1], 1, &k->d[0], &sa);
}

/* Client data covering stream bytes [off, off+len), caplen of them captured. */
static void data(struct conn *k, uint32_t off, uint32_t len, uint32_t caplen)
{
    struct tcp_segment_in s = {.seq = k->isn + 1 + off, .ack = 7778, .flags = TH_ACK, .payload = src + off, .caplen = caplen, .len = len, .frame = 0, .ts_ns = 0};
    tcp_reasm_segment(&k->c, &k->d[0], 0, &k->d[1], &s);
}

/* Server pure ACK: it received client stream bytes [0, upto). */
static void ack(struct conn *k, uint32_t upto)
{
    struct tcp_segment_in s = {.seq = 7778, .ack = k->isn + 1 + upto, .flags = TH_ACK, .payload = NULL, .caplen = 0, .len = 0, .frame = 0, .ts_ns = 0};
    tcp_reasm_segment(&k->c, &k->d[1], 1, &k->d[0], &s);
}

/* The stream is src[0..n) all captured. */
static int stream_is_data(const struct rec *r, uint32_t n)
{
    if (r->n != n) return 0;
    for (uint32_t i = 0; i < n; i++)
        if (r->kind[i] != TCP_DATA || r->bytes[i] != src[i]) return 0;
    return 1;
}

/* Bytes [from, to) have this kind (and are src's bytes if data). */
static int range_is(const struct rec *r, uint32_t from, uint32_t to, int kind)
{
    if (to > r->n) return 0;
    for (uint32_t i = from; i < to; i++) {
        if (r->kind[i] != kind) return 0;
        if (kind == TCP_DATA && r->bytes[i] != src[i]) return 0;
    }
    return 1;
}

static void test_in_order(void)
{
    struct conn k;
    conn_init(&k, 64u << 20, 1000);
    syn(&k);
    CHECK_EQ_U(k.d[0].next_seq, 1001); /* the SYN consumed 1000 */
    data(&k, 0, 100, 100);
    data(&k, 100, 150, 150);
    data(&k, 250, 150, 150);
    CHECK(stream_is_data(&k.r, 400));
    CHECK_EQ_U(k.r.nev, 3);
    CHECK_EQ_U(k.r.ev[0].len, 100);
    CHECK_EQ_U(k.r.ev[1].len, 150);
    CHECK_EQ_U(k.r.ev[2].len, 150);
    CHECK_EQ_U(k.st.segments, 5);
    CHECK_EQ_U(k.st.out_of_order, 0);
    CHECK_EQ_U(k.st.retransmitted, 0);
    CHECK_EQ_U(k.st.gaps, 0);
    CHECK_EQ_U(k.d[0].next_seq, 1401);
    tcp_reasm_flush(&k.c, &k.d[0], 0);
    CHECK_EQ_U(k.r.n, 400);
}

/* Four segments of different sizes in all 24 orders: always the same stream. */
static void test_permutations(void)
{
    static const uint32_t off[4] = {0, 100, 130, 400}, len[4] = {100, 30, 270, 55};
    int perms = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            for (int c = 0; c < 4; c++)
                for (int d = 0; d < 4; d++) {
                    if (a == b || a == c || a == d || b == c || b == d || c == d) continue;
                    int order[4] = {a, b, c, d};
                    struct conn k;
                    conn_init(&k, 64u << 20, 0x12345678);
                    syn(&k);
                    /* hand count: a segment is out of order when it arrives
                     * before all the bytes in front of it */
                    unsigned ooo = 0, seen = 0;
                    for (int i = 0; i < 4; i++) {
                        int s = order[i];
                        if ((seen & ((1u << s) - 1)) != ((1u << s) - 1)) ooo++;
                        seen |= 1u << s;
                        data(&k, off[s], len[s], len[s]);
                    }
                    CHECK(stream_is_data(&k.r, 455));
                    CHECK_EQ_U(k.st.out_of_order, ooo);
                    CHECK_EQ_U(k.st.gaps, 0);
                    CHECK_EQ_U(k.st.retransmitted, 0);
                    CHECK(k.d[0].ooo == NULL);
                    CHECK_EQ_U(k.mc.used[MEM_REASSEMBLY], 0);
                    perms++;
                }
    CHECK_EQ_U(perms, 24);
}

static void test_retransmission(void)
{
    struct conn k;
    conn_init(&k, 64u << 20, 5);
    syn(&k);
    data(&k, 0, 100, 100);
    data(&k, 0, 100, 100);     /* exact copy */
    data(&k, 100, 100, 100);
    data(&k, 0, 100, 100);     /* late copy */
    CHECK(stream_is_data(&k.r, 200));
    CHECK_EQ_U(k.st.retransmitted, 2);

    /* Different boundaries: [50,150) adds nothing, [150,300) straddles
     * next_seq (200) and adds [200,300) only. */
    conn_init(&k, 64u << 20, 5);
    syn(&k);
    data(&k, 0, 100, 100);
    data(&k, 100, 100, 100);
    data(&k, 50, 100, 100);
    CHECK_EQ_U(k.r.n, 200);
    data(&k, 150, 150, 150);
    CHECK(stream_is_data(&k.r, 300));
    CHECK_EQ_U(k.r.nev, 3);
    CHECK_EQ_U(k.r.ev[2].len, 100);
    CHECK_EQ_U(k.st.retransmitted, 2);
    CHECK_EQ_U(k.d[0].next_seq, 5 + 1 + 300);

    /* Overlapping out-of-order copies, then the straddling one fills and
     * releases them: [200,300) and [250,350) wait; [0,220) arrives. */
    conn_init(&k, 64u << 20, 5);
    syn(&k);
    data(&k, 200, 100, 100);
    data(&k, 250, 100, 100);
    data(&k, 0, 100, 100);
    CHECK(stream_is_data(&k.r, 100));
    data(&k, 90, 130, 130);    /* [90,220): 10 old bytes, 120 new */
    CHECK(stream_is_data(&k.r, 350));
    CHECK(k.d[0].ooo == NULL);
    CHECK_EQ_U(k.mc.used[MEM_REASSEMBLY], 0);
}

/* A segment the capture missed but the receiver acknowledged. */
static void test_acked_loss(void)
{
    struct conn k;
    conn_init(&k, 64u << 20, 0);
    syn(&k);
    data(&k, 0, 100, 100);
    /* [100,200) lost */
    data(&k, 200, 100, 100);
    CHECK_EQ_U(k.r.n, 100);
    ack(&k, 150);               /* acks part of the lost bytes, not the queued ones */
    CHECK_EQ_U(k.r.n, 100);
    ack(&k, 300);               /* the receiver has everything: [100,200) is lost for good */
    CHECK_EQ_U(k.r.n, 300);
    CHECK(range_is(&k.r, 0, 100, TCP_DATA));
    CHECK(range_is(&k.r, 100, 200, TCP_HOLE_GAP));
    CHECK(range_is(&k.r, 200, 300, TCP_DATA));
    CHECK_EQ_U(k.r.nev, 3);
    CHECK_EQ_U(k.r.ev[1].kind, TCP_HOLE_GAP);
    CHECK_EQ_U(k.r.ev[1].len, 100);
    CHECK_EQ_U(k.st.gaps, 1);
    CHECK_EQ_U(k.st.gap_bytes, 100);
    data(&k, 300, 50, 50);      /* later data continues in order */
    CHECK(range_is(&k.r, 300, 350, TCP_DATA));
    CHECK_EQ_U(k.r.n, 350);

    /* An ACK exactly at the queued segment's start also proves the loss. */
    conn_init(&k, 64u << 20, 0);
    syn(&k);
    data(&k, 0, 100, 100);
    data(&k, 200, 100, 100);
    ack(&k, 200);
    CHECK_EQ_U(k.r.n, 300);
    CHECK(range_is(&k.r, 100, 200, TCP_HOLE_GAP));
}

static void test_flush_fills(void)
{
    struct conn k;
    conn_init(&k, 64u << 20, 0);
    syn(&k);
    data(&k, 0, 100, 100);
    data(&k, 400, 100, 100);
    data(&k, 200, 100, 100);
    CHECK_EQ_U(k.r.n, 100);
    tcp_reasm_flush(&k.c, &k.d[0], 0);
    CHECK_EQ_U(k.r.n, 500);
    CHECK(range_is(&k.r, 0, 100, TCP_DATA));
    CHECK(range_is(&k.r, 100, 200, TCP_HOLE_GAP));
    CHECK(range_is(&k.r, 200, 300, TCP_DATA));
    CHECK(range_is(&k.r, 300, 400, TCP_HOLE_GAP));
    CHECK(range_is(&k.r, 400, 500, TCP_DATA));
    CHECK_EQ_U(k.r.nev, 5);
    CHECK_EQ_U(k.st.gaps, 2);
    CHECK_EQ_U(k.st.gap_bytes, 200);
    CHECK_EQ_U(k.mc.used[MEM_REASSEMBLY], 0);
}

/* Snaplen: caplen < len gives the captured bytes then a truncation hole. */
static void test_truncated(void)
{
    struct conn k;
    conn_init(&k, 64u << 20, 0);
    syn(&k);
    data(&k, 0, 1448, 100);
    data(&k, 2896, 1448, 100);  /* out of order, truncated */
    data(&k, 1448, 1448, 0);    /* nothing captured */
    CHECK_EQ_U(k.r.n, 3 * 1448);
    CHECK(range_is(&k.r, 0, 100, TCP_DATA));
    CHECK(range_is(&k.r, 100, 1448, TCP_HOLE_TRUNCATED));
    CHECK(range_is(&k.r, 1448, 2896, TCP_HOLE_TRUNCATED));
    CHECK(range_is(&k.r, 2896, 2996, TCP_DATA));
    CHECK(range_is(&k.r, 2996, 4344, TCP_HOLE_TRUNCATED));
    CHECK_EQ_U(k.st.truncated_bytes, 1348 + 1448 + 1348);
    CHECK_EQ_U(k.st.gaps, 0);
    /* a retransmission straddling next_seq, truncated inside the old part */
    data(&k, 4300, 100, 20);    /* [4300,4400): 44 old, 56 new; captured 20 are all old */
    CHECK_EQ_U(k.r.n, 4400);
    CHECK(range_is(&k.r, 4344, 4400, TCP_HOLE_TRUNCATED));
    data(&k, 4390, 30, 30);     /* 10 old, 20 new captured */
    CHECK(range_is(&k.r, 4400, 4420, TCP_DATA));
}

/* Sequence numbers wrap: ISN 2^32-100, data crosses 2^32, also out of order. */
static void test_wraparound(void)
{
    struct conn k;
    conn_init(&k, 64u << 20, 0xffffff9cu);
    syn(&k);
    CHECK_EQ_U(k.d[0].next_seq, 0xffffff9du);
    data(&k, 0, 60, 60);        /* 0xffffff9d..0xffffffd9 */
    data(&k, 160, 100, 100);    /* after the wrap: seq 0x3d */
    data(&k, 60, 100, 100);     /* crosses 2^32 */
    CHECK(stream_is_data(&k.r, 260));
    CHECK_EQ_U(k.d[0].next_seq, 0xffffff9du + 260u);
    CHECK_EQ_U(k.d[0].next_seq, 0xa1);
    data(&k, 30, 40, 40);       /* old bytes from before the wrap: a retransmission */
    CHECK_EQ_U(k.r.n, 260);
    CHECK_EQ_U(k.st.retransmitted, 1);
    /* a loss across the wrap, filled at flush */
    conn_init(&k, 64u << 20, 0xffffff9cu);
    syn(&k);
    data(&k, 0, 50, 50);
    data(&k, 150, 50, 50);
    data(&k, 250, 50, 50);
    data(&k, 200, 50, 50);
    tcp_reasm_flush(&k.c, &k.d[0], 0);
    CHECK_EQ_U(k.r.n, 300);
    CHECK(range_is(&k.r, 50, 150, TCP_HOLE_GAP));
    CHECK(range_is(&k.r, 150, 300, TCP_DATA));
}

static void test_syn(void)
{
    /* A SYN carrying data (TCP Fast Open): data starts at ISN+1. */
    struct conn k;
    conn_init(&k, 64u << 20, 4000);
    struct tcp_segment_in s = {.seq = 4000, .ack = 0, .flags = TH_SYN, .payload = src, .caplen = 30, .len = 30, .frame = 0, .ts_ns = 0};
    tcp_reasm_segment(&k.c, &k.d[0], 0, &k.d[1], &s);
    CHECK(stream_is_data(&k.r, 30));
    CHECK_EQ_U(k.d[0].next_seq, 4031);
    CHECK(k.d[0].syn_seen);
    CHECK_EQ_U(k.d[0].isn, 4000);
    data(&k, 30, 10, 10);
    CHECK(stream_is_data(&k.r, 40));

    /* A retransmitted SYN before any data changes nothing. */
    conn_init(&k, 64u << 20, 4000);
    syn(&k);
    syn(&k);
    data(&k, 0, 10, 10);
    CHECK(stream_is_data(&k.r, 10));
    /* FIN is noted, takes no data */
    struct tcp_segment_in f = {.seq = 4000 + 1 + 10, .ack = 7778, .flags = TH_FIN | TH_ACK, .payload = NULL, .caplen = 0, .len = 0, .frame = 0, .ts_ns = 0};
    tcp_reasm_segment(&k.c, &k.d[0], 0, &k.d[1], &f);
    CHECK(k.d[0].fin_seen);
    CHECK_EQ_U(k.r.n, 10);
}

/* A SYN inside the bytes already delivered (a corrupt or replayed segment,
 * seen in a real IPv6 capture: the segment before it again plus a few
 * bytes) is counted and ignored: its bytes past the next expected one are
 * not the stream's, and the real segment carrying those numbers is taken
 * whole. */
static void test_syn_stale(void)
{
    struct conn k;
    conn_init(&k, 64u << 20, 4000);
    syn(&k);
    data(&k, 0, 50, 50);
    data(&k, 50, 50, 50);
    uint8_t junk[56];
    memcpy(junk, src + 50, 50);
    memset(junk + 50, 0xee, 6);
    struct tcp_segment_in s = {.seq = 4000 + 1 + 50, .ack = 7778, .flags = TH_SYN | TH_ACK, .payload = junk,
                               .caplen = 56, .len = 56, .frame = 0, .ts_ns = 0};
    CHECK(tcp_reasm_syn_stale(&k.d[0], s.seq));
    tcp_reasm_segment(&k.c, &k.d[0], 0, &k.d[1], &s);
    CHECK_EQ_U(k.st.syn_ignored, 1);
    CHECK_EQ_U(k.r.n, 100);
    CHECK_EQ_U(k.d[0].next_seq, 4000 + 1 + 100);
    CHECK_EQ_U(k.d[0].isn, 4000);
    data(&k, 100, 40, 40);
    CHECK(stream_is_data(&k.r, 140));
    CHECK_EQ_U(k.st.retransmitted, 0);
    /* at the next expected number, with a FIN: still ignored, FIN included */
    s.seq = 4000 + 1 + 140;
    s.flags = TH_SYN | TH_FIN;
    tcp_reasm_segment(&k.c, &k.d[0], 0, &k.d[1], &s);
    CHECK_EQ_U(k.st.syn_ignored, 2);
    CHECK(!k.d[0].fin_seen);
    data(&k, 140, 10, 10);
    CHECK(stream_is_data(&k.r, 150));
    /* a SYN before any byte was delivered is a SYN */
    conn_init(&k, 64u << 20, 4000);
    syn(&k);
    CHECK(!tcp_reasm_syn_stale(&k.d[0], 4000));
}

/* Without a handshake the first segment seen starts the stream. */
static void test_mid_stream(void)
{
    struct conn k;
    conn_init(&k, 64u << 20, 0);
    struct tcp_segment_in s = {.seq = 5000, .ack = 1, .flags = TH_ACK, .payload = src, .caplen = 100, .len = 100, .frame = 0, .ts_ns = 0};
    tcp_reasm_segment(&k.c, &k.d[0], 0, &k.d[1], &s);
    CHECK(stream_is_data(&k.r, 100));
    CHECK(!k.d[0].syn_seen);
    CHECK_EQ_U(k.d[0].next_seq, 5100);
    struct tcp_segment_in old = {.seq = 4900, .ack = 1, .flags = TH_ACK, .payload = src, .caplen = 100, .len = 100, .frame = 0, .ts_ns = 0};
    tcp_reasm_segment(&k.c, &k.d[0], 0, &k.d[1], &old);
    CHECK_EQ_U(k.r.n, 100);
    struct tcp_segment_in next = {.seq = 5100, .ack = 1, .flags = TH_ACK, .payload = src + 100, .caplen = 50, .len = 50, .frame = 0, .ts_ns = 0};
    tcp_reasm_segment(&k.c, &k.d[0], 0, &k.d[1], &next);
    CHECK(stream_is_data(&k.r, 150));
    /* a pure ACK from the peer before the peer ever sent data */
    struct tcp_segment_in a = {.seq = 9000, .ack = 5150, .flags = TH_ACK, .payload = NULL, .caplen = 0, .len = 0, .frame = 0, .ts_ns = 0};
    tcp_reasm_segment(&k.c, &k.d[1], 1, &k.d[0], &a);
    CHECK_EQ_U(k.r.n, 150);
    CHECK_EQ_U(k.st.gaps, 0);
}

/* 4 MiB of out-of-order data per direction: the next segment declares the
 * first gap lost, releasing the queue. */
static void test_ooo_cap(void)
{
    struct conn k;
    conn_init(&k, 256u << 20, 0);
    syn(&k);
    /* [0,1000) lost; 64 segments of 64 KiB fill the 4 MiB queue exactly */
    for (uint32_t i = 0; i < 64; i++) data(&k, 1000 + i * 65536, 65536, 65536);
    CHECK_EQ_U(k.r.n, 0);
    CHECK_EQ_U(k.d[0].ooo_bytes, 4u << 20);
    CHECK_EQ_U(k.d[0].ooo_count, 64);
    /* one more does not fit */
    data(&k, 1000 + (4u << 20), 65536, 65536);
    uint32_t total = 1000 + (4u << 20) + 65536;
    CHECK_EQ_U(k.r.n, total);
    CHECK(range_is(&k.r, 0, 1000, TCP_HOLE_GAP));
    CHECK(range_is(&k.r, 1000, total, TCP_DATA));
    CHECK_EQ_U(k.st.gaps, 1);
    CHECK_EQ_U(k.st.gap_bytes, 1000);
    /* the cap gave up the 1000 missing bytes early */
    CHECK_EQ_U(k.st.evicted_ooo_bytes, 1000);
    CHECK_EQ_U(k.d[0].ooo_bytes, 0);
    CHECK_EQ_U(k.mc.used[MEM_REASSEMBLY], 0);

    /* A queue of several islands: only as many gaps as needed are given up. */
    conn_init(&k, 256u << 20, 0);
    syn(&k);
    for (uint32_t i = 0; i < 32; i++) data(&k, 1000 + i * 65536, 65536, 65536);     /* island A */
    for (uint32_t i = 0; i < 32; i++) data(&k, 3000000 + i * 65536, 65536, 65536);  /* island B */
    CHECK_EQ_U(k.d[0].ooo_bytes, 4u << 20);
    data(&k, 6000000, 100, 100);  /* over the cap by 100 bytes: island A goes */
    uint32_t a_end = 1000 + 32 * 65536;
    CHECK_EQ_U(k.r.n, a_end);
    CHECK(range_is(&k.r, 0, 1000, TCP_HOLE_GAP));
    CHECK(range_is(&k.r, 1000, a_end, TCP_DATA));
    CHECK_EQ_U(k.d[0].ooo_bytes, (2u << 20) + 100);
    CHECK_EQ_U(k.st.evicted_ooo_bytes, 1000);
    tcp_reasm_release(&k.c, &k.d[0]);
    CHECK_EQ_U(k.mc.used[MEM_REASSEMBLY], 0);
    CHECK_EQ_U(k.mc.total_used, 0);
}

/* A memcap too small for any queued segment: no crash, the bytes that could
 * not wait are counted, and the stream keeps moving. */
static void test_tiny_memcap(void)
{
    struct conn k;
    conn_init(&k, 100, 0); /* reassembly pool: 35 bytes */
    syn(&k);
    data(&k, 0, 100, 100);
    /* [100,200) lost or late */
    data(&k, 200, 100, 100);   /* cannot be queued */
    data(&k, 300, 100, 100);
    data(&k, 100, 100, 100);   /* the late copy */
    data(&k, 400, 100, 100);
    tcp_reasm_flush(&k.c, &k.d[0], 0);
    CHECK_EQ_U(k.mc.used[MEM_REASSEMBLY], 0);
    /* Waiting for [100,200) needs memory there is none of: it is given up
     * when [200,300) arrives; everything after it is delivered. */
    CHECK_EQ_U(k.r.n, 500);
    CHECK(range_is(&k.r, 0, 100, TCP_DATA));
    CHECK(range_is(&k.r, 100, 200, TCP_HOLE_GAP));
    CHECK(range_is(&k.r, 200, 500, TCP_DATA));
    CHECK_EQ_U(k.st.evicted_ooo_bytes, 100);
    CHECK_EQ_U(k.st.gaps, 1);

    /* Heavy reordering under a zero cap never crashes and accounts for every byte. */
    conn_init(&k, 0, 0);
    syn(&k);
    for (uint32_t i = 0; i < 50; i++) {
        uint32_t o = ((i * 37) % 50) * 20;
        data(&k, o, 20, 20);
    }
    tcp_reasm_flush(&k.c, &k.d[0], 0);
    uint32_t d = 0, g = 0;
    for (uint32_t i = 0; i < k.r.n; i++) {
        if (k.r.kind[i] == TCP_DATA) { d++; CHECK(k.r.bytes[i] == src[i]); }
        else g++;
    }
    CHECK_EQ_U(d + g, k.r.n);
    CHECK_EQ_U(g, k.st.gap_bytes);
    CHECK_EQ_U(k.st.evicted_ooo_bytes, k.st.gap_bytes);
    CHECK_EQ_U(k.mc.used[MEM_REASSEMBLY], 0);
}

static void test_release(void)
{
    struct conn k;
    conn_init(&k, 64u << 20, 0);
    syn(&k);
    data(&k, 100, 100, 100);
    data(&k, 300, 1000, 50);
    data(&k, 2000, 10, 10);
    CHECK(k.mc.used[MEM_REASSEMBLY] > 160);
    CHECK_EQ_U(k.d[0].ooo_count, 3);
    CHECK_EQ_U(k.d[0].ooo_bytes, 160);
    tcp_reasm_release(&k.c, &k.d[0]);
    CHECK(k.d[0].ooo == NULL);
    CHECK_EQ_U(k.d[0].ooo_bytes, 0);
    CHECK_EQ_U(k.d[0].ooo_count, 0);
    CHECK_EQ_U(k.mc.used[MEM_REASSEMBLY], 0);
    CHECK_EQ_U(k.mc.total_used, 0);
    CHECK_EQ_U(k.r.n, 0); /* release delivers nothing */
}

/* Client data in frame fr. */
static void data_fr(struct conn *k, uint32_t off, uint32_t len, uint32_t caplen, uint64_t fr)
{
    struct tcp_segment_in s = {.seq = k->isn + 1 + off, .ack = 7778, .flags = TH_ACK, .payload = src + off, .caplen = caplen, .len = len, .frame = fr, .ts_ns = (int64_t)fr * 1000};
    tcp_reasm_segment(&k->c, &k->d[0], 0, &k->d[1], &s);
}

/* Server pure ACK in frame fr. */
static void ack_fr(struct conn *k, uint32_t upto, uint64_t fr)
{
    struct tcp_segment_in s = {.seq = 7778, .ack = k->isn + 1 + upto, .flags = TH_ACK, .payload = NULL, .caplen = 0, .len = 0, .frame = fr, .ts_ns = (int64_t)fr * 1000};
    tcp_reasm_segment(&k->c, &k->d[1], 1, &k->d[0], &s);
}

/* Segments that carry no captured byte (snaplen) after a gap: the queue is
 * bounded by segments too (it was only by captured bytes, so such segments
 * queued until the global memcap, and the 16-bit count wrapped). */
static void test_ooo_segment_bound(void)
{
    struct conn k;
    conn_init(&k, 256u << 20, 0);
    syn(&k);
    /* [0,1000) lost, then 70000 segments of 64 bytes, none captured */
    for (uint32_t i = 0; i < 70000; i++) {
        data(&k, 1000 + i * 64, 64, 0);
        CHECK(k.d[0].ooo_count <= 8192);
        if (k.d[0].ooo_count > 8192) break;
    }
    /* the bound gave the first gap up: everything after it is in order */
    uint32_t total = 1000 + 70000u * 64;
    CHECK_EQ_U(k.r.n, total);
    CHECK(range_is(&k.r, 0, 1000, TCP_HOLE_GAP));
    CHECK(range_is(&k.r, 1000, total, TCP_HOLE_TRUNCATED));
    CHECK_EQ_U(k.d[0].ooo_count, 0);
    CHECK_EQ_U(k.st.evicted_ooo_bytes, 1000);
    CHECK_EQ_U(k.st.gaps, 1);
    CHECK_EQ_U(k.mc.used[MEM_REASSEMBLY], 0);

    /* islands: every other segment missing; the queue stays at its bound */
    conn_init(&k, 256u << 20, 0);
    syn(&k);
    for (uint32_t i = 0; i < 10000; i++) data(&k, 1000 + i * 200, 100, 0);
    CHECK_EQ_U(k.d[0].ooo_count, 8192);
    tcp_reasm_release(&k.c, &k.d[0]);
    CHECK_EQ_U(k.mc.used[MEM_REASSEMBLY], 0);
}

/* One peer ACK covers every byte below it: all missing ranges it covers are
 * lost, not just the first (a client stream with several uncaptured ranges
 * otherwise falls one range behind per reply). */
static void test_ack_covers_all_gaps(void)
{
    struct conn k;
    conn_init(&k, 64u << 20, 0);
    syn(&k);
    data(&k, 0, 100, 100);
    data(&k, 200, 100, 100);   /* [100,200) lost */
    data(&k, 400, 100, 100);   /* [300,400) lost */
    data(&k, 600, 100, 100);   /* [500,600) lost */
    CHECK_EQ_U(k.r.n, 100);
    ack(&k, 700);
    CHECK_EQ_U(k.r.n, 700);
    CHECK(range_is(&k.r, 100, 200, TCP_HOLE_GAP));
    CHECK(range_is(&k.r, 200, 300, TCP_DATA));
    CHECK(range_is(&k.r, 300, 400, TCP_HOLE_GAP));
    CHECK(range_is(&k.r, 500, 600, TCP_HOLE_GAP));
    CHECK(range_is(&k.r, 600, 700, TCP_DATA));
    CHECK_EQ_U(k.st.gaps, 3);
    CHECK_EQ_U(k.d[0].ooo_count, 0);
    /* an ACK that covers only part of the queue stops there */
    conn_init(&k, 64u << 20, 0);
    syn(&k);
    data(&k, 200, 100, 100);
    data(&k, 400, 100, 100);
    ack(&k, 350);
    CHECK_EQ_U(k.r.n, 300);
    CHECK_EQ_U(k.d[0].ooo_count, 1);
    tcp_reasm_release(&k.c, &k.d[0]);
}

/* A hole declared by the peer's ACK is dated by the sender's last frame,
 * not by the peer's ACK frame; queued bytes keep their own frame. */
static void test_hole_frames(void)
{
    struct conn k;
    conn_init(&k, 64u << 20, 0);
    syn(&k);
    data_fr(&k, 0, 100, 100, 10);
    data_fr(&k, 200, 100, 100, 12); /* [100,200) lost */
    ack_fr(&k, 300, 13);
    CHECK_EQ_U(k.r.nev, 3);
    CHECK_EQ_U(k.r.ev[0].frame, 10);
    CHECK_EQ_U(k.r.ev[1].kind, TCP_HOLE_GAP);
    CHECK_EQ_U(k.r.ev[1].frame, 10);
    CHECK_EQ_U(k.r.ev[2].frame, 12);
    /* nothing delivered yet from the sender: the first queued frame after the hole */
    conn_init(&k, 64u << 20, 0);
    syn(&k);
    data_fr(&k, 100, 100, 100, 21);
    ack_fr(&k, 200, 22);
    CHECK_EQ_U(k.r.nev, 2);
    CHECK_EQ_U(k.r.ev[0].kind, TCP_HOLE_GAP);
    CHECK_EQ_U(k.r.ev[0].frame, 21);
}

/* A SYN whose sequence number lies in bytes already delivered (a corrupt
 * SYN+PSH inside an established connection) does not rewind the stream. */
static void test_stale_syn(void)
{
    struct conn k;
    conn_init(&k, 64u << 20, 1000);
    syn(&k);
    data(&k, 0, 300, 300);
    struct tcp_segment_in b = {.seq = 1000 + 1 + 100, .ack = 7778, .flags = TH_SYN | TH_ACK, .payload = src + 100, .caplen = 50, .len = 50, .frame = 0, .ts_ns = 0};
    CHECK(tcp_reasm_syn_stale(&k.d[0], b.seq));
    tcp_reasm_segment(&k.c, &k.d[0], 0, &k.d[1], &b);
    CHECK_EQ_U(k.d[0].next_seq, 1000 + 1 + 300);
    CHECK_EQ_U(k.st.syn_ignored, 1);
    data(&k, 300, 50, 50);
    CHECK(stream_is_data(&k.r, 350));
    /* before any data, or outside the delivered bytes, a SYN is a SYN */
    CHECK(!tcp_reasm_syn_stale(&k.d[0], 1000 + 1 + 400));
    CHECK(!tcp_reasm_syn_stale(&k.d[0], 500));
    conn_init(&k, 64u << 20, 1000);
    syn(&k);
    CHECK(!tcp_reasm_syn_stale(&k.d[0], 1000));
}

/* RFC 5961 3.2: only an RST at the next expected byte resets. */
static void test_rst_acceptable(void)
{
    struct conn k;
    conn_init(&k, 64u << 20, 1000);
    CHECK(tcp_reasm_rst_acceptable(&k.d[0], 12345)); /* nothing known */
    syn(&k);
    data(&k, 0, 100, 100);
    CHECK(tcp_reasm_rst_acceptable(&k.d[0], 1000 + 1 + 100));
    CHECK(!tcp_reasm_rst_acceptable(&k.d[0], 1000 + 1 + 50));
    CHECK(!tcp_reasm_rst_acceptable(&k.d[0], 1000 + 1 + 5000));
    data(&k, 200, 100, 100); /* [100,200) lost: the end of the queue is acceptable too */
    CHECK(tcp_reasm_rst_acceptable(&k.d[0], 1000 + 1 + 300));
    tcp_reasm_release(&k.c, &k.d[0]);
    /* after a FIN (which takes one number) the RST comes one further */
    conn_init(&k, 64u << 20, 1000);
    syn(&k);
    data(&k, 0, 100, 100);
    struct tcp_segment_in fin = {.seq = 1000 + 1 + 100, .ack = 7778, .flags = TH_FIN | TH_ACK, .payload = NULL, .caplen = 0, .len = 0, .frame = 0, .ts_ns = 0};
    tcp_reasm_segment(&k.c, &k.d[0], 0, &k.d[1], &fin);
    CHECK(tcp_reasm_rst_acceptable(&k.d[0], 1000 + 1 + 101));
}

/* ---- holds: a segment whose ACK covers the other side's bytes not seen yet ---- */

struct dlog {
    struct { int dir; uint64_t frame; uint32_t len; uint8_t kind; } ev[64];
    uint32_t n;
};

static void on_logged(void *ctx, int dir, const uint8_t *data, uint32_t len, enum tcp_hole_kind kind,
                      uint64_t frame, int64_t ts)
{
    struct dlog *l = ctx;
    (void)data;
    (void)ts;
    if (l->n < 64) {
        l->ev[l->n].dir = dir;
        l->ev[l->n].frame = frame;
        l->ev[l->n].len = len;
        l->ev[l->n].kind = (uint8_t)kind;
        l->n++;
    }
}

struct hconn {
    struct memcap mc;
    struct tcp_reasm_stats st;
    struct tcp_ctx c;
    struct tcp_dir d[2];
    struct dlog log;
};

#define HC_ISN 1000u  /* client: data byte i at 1001 + i */
#define HS_ISN 5000u  /* server: data byte i at 5001 + i */

static void hconn_init(struct hconn *k, uint64_t memtotal)
{
    memset(k, 0, sizeof *k);
    memcap_init(&k->mc, memtotal);
    k->c = (struct tcp_ctx){&k->mc, &k->st, on_logged, &k->log};
    struct tcp_segment_in s = {.seq = HC_ISN, .flags = TH_SYN, .frame = 1, .ts_ns = 1000};
    tcp_reasm_segment(&k->c, &k->d[0], 0, &k->d[1], &s);
    struct tcp_segment_in sa = {.seq = HS_ISN, .ack = HC_ISN + 1, .flags = TH_SYN | TH_ACK, .frame = 2, .ts_ns = 2000};
    tcp_reasm_segment(&k->c, &k->d[1], 1, &k->d[0], &sa);
}

/* Side dir sends its stream bytes [off, off+len) acknowledging the peer's
 * bytes [0, acked), in frame fr at ts_us microseconds. */
static void hseg(struct hconn *k, int dir, uint32_t off, uint32_t len, uint32_t acked, uint64_t fr, int64_t ts_us)
{
    uint32_t base = dir ? HS_ISN + 1 : HC_ISN + 1, peer = dir ? HC_ISN + 1 : HS_ISN + 1;
    struct tcp_segment_in s = {.seq = base + off, .ack = peer + acked, .flags = TH_ACK | (len ? 0x08 : 0),
                               .payload = len ? src + off : NULL, .caplen = len, .len = len, .frame = fr,
                               .ts_ns = ts_us * 1000};
    tcp_reasm_segment(&k->c, &k->d[dir], dir, &k->d[dir ^ 1], &s);
}

static void check_ev(const struct hconn *k, uint32_t i, int dir, uint64_t frame, uint32_t len)
{
    CHECK(i < k->log.n);
    if (i >= k->log.n) return;
    CHECK_EQ_U(k->log.ev[i].dir, dir);
    CHECK_EQ_U(k->log.ev[i].frame, frame);
    CHECK_EQ_U(k->log.ev[i].len, len);
    CHECK_EQ_U(k->log.ev[i].kind, TCP_DATA);
}

/* A reply captured before its call (a multi-queue NIC swapped them): it
 * waits for the call's bytes its ACK covers, then goes in its own frame;
 * so does a call whose ACK covers a reply not seen yet. */
static void test_hold_reply_before_call(void)
{
    struct hconn k;
    hconn_init(&k, 64u << 20);
    hseg(&k, 1, 0, 28, 44, 11, 110);    /* reply to [0,44), captured first */
    CHECK_EQ_U(k.log.n, 0);
    CHECK_EQ_U(k.st.held, 1);
    hseg(&k, 0, 0, 44, 0, 12, 100);     /* the call */
    CHECK_EQ_U(k.log.n, 2);
    check_ev(&k, 0, 0, 12, 44);
    check_ev(&k, 1, 1, 11, 28);        /* the reply, in its own frame */
    CHECK(!k.d[1].holding);
    /* the next call acknowledges a reply not seen yet: it waits for it */
    hseg(&k, 0, 44, 60, 28 + 100, 14, 300);
    CHECK_EQ_U(k.log.n, 2);
    hseg(&k, 1, 28, 100, 44, 13, 290);  /* the reply before it */
    CHECK_EQ_U(k.log.n, 4);
    check_ev(&k, 2, 1, 13, 100);
    check_ev(&k, 3, 0, 14, 60);
    /* in order: nothing waits */
    hseg(&k, 1, 128, 50, 104, 15, 400);
    CHECK_EQ_U(k.log.n, 5);
    check_ev(&k, 4, 1, 15, 50);
    CHECK_EQ_U(k.st.held, 2);
    CHECK_EQ_U(k.st.hold_expired, 0);
    CHECK_EQ_U(k.st.out_of_order, 0);
    CHECK_EQ_U(k.st.retransmitted, 0);
    CHECK_EQ_U(k.mc.used[MEM_REASSEMBLY], 0);
}

/* While a side holds, what it sends after waits behind (in order); the
 * call lost to the capture, the hold ends after TCP_HOLD_SEGS more segments
 * of the connection, or TCP_HOLD_NS, or at the flush. */
static void test_hold_expires(void)
{
    struct hconn k;
    hconn_init(&k, 64u << 20);
    hseg(&k, 1, 0, 28, 44, 11, 110);   /* its call [0,44) never captured */
    hseg(&k, 1, 28, 30, 44, 12, 120);  /* more from the server: behind the hold */
    for (uint32_t i = 0; i + 2 < TCP_HOLD_SEGS; i++) hseg(&k, 1, 58, 0, 44, 13 + i, 130 + i);
    CHECK_EQ_U(k.log.n, 0);
    hseg(&k, 1, 58, 0, 44, 20, 200);   /* the TCP_HOLD_SEGS-th after it: given up */
    CHECK_EQ_U(k.log.n, 2);
    check_ev(&k, 0, 1, 11, 28);
    check_ev(&k, 1, 1, 12, 30);
    CHECK_EQ_U(k.st.hold_expired, 1);
    /* by time */
    hseg(&k, 1, 58, 10, 100, 21, 300);
    CHECK_EQ_U(k.log.n, 2);
    hseg(&k, 0, 500, 0, 58, 22, 300 + TCP_HOLD_NS / 1000 + 1);
    CHECK_EQ_U(k.log.n, 3);
    check_ev(&k, 2, 1, 21, 10);
    /* at the flush (the connection closed, the capture ended) */
    hseg(&k, 1, 68, 10, 200, 23, 10000);
    CHECK_EQ_U(k.log.n, 3);
    tcp_reasm_flush(&k.c, &k.d[1], 1);
    CHECK_EQ_U(k.log.n, 4);
    check_ev(&k, 3, 1, 23, 10);
    CHECK_EQ_U(k.st.hold_expired, 3);
    CHECK_EQ_U(k.mc.used[MEM_REASSEMBLY], 0);
}

/* An ACK of the other side's FIN (one sequence number past its data) is no
 * reason to hold; a hold the memory cap cannot take is refused (counted)
 * and the segment goes at once. */
static void test_hold_fin_and_cap(void)
{
    struct hconn k;
    hconn_init(&k, 64u << 20);
    hseg(&k, 0, 0, 44, 0, 11, 110);
    struct tcp_segment_in fin = {.seq = HC_ISN + 1 + 44, .ack = HS_ISN + 1, .flags = TH_FIN | TH_ACK, .frame = 12, .ts_ns = 120000};
    tcp_reasm_segment(&k.c, &k.d[0], 0, &k.d[1], &fin);
    hseg(&k, 1, 0, 28, 45, 13, 130);   /* acknowledges the FIN */
    CHECK_EQ_U(k.log.n, 2);
    check_ev(&k, 1, 1, 13, 28);
    CHECK_EQ_U(k.st.held, 0);
    hconn_init(&k, 64);                /* no room for a segment */
    hseg(&k, 1, 0, 28, 44, 11, 110);
    CHECK_EQ_U(k.log.n, 1);
    check_ev(&k, 0, 1, 11, 28);
    CHECK_EQ_U(k.st.held, 0);
    CHECK_EQ_U(k.st.hold_refused, 1);
}

int main(void)
{
    src = malloc(MAXS);
    if (!src) return 2;
    for (uint32_t i = 0; i < MAXS; i++) src[i] = (uint8_t)(i * 7 + (i >> 8) * 13 + 3);
    test_in_order();
    test_permutations();
    test_retransmission();
    test_acked_loss();
    test_flush_fills();
    test_truncated();
    test_wraparound();
    test_syn();
    test_syn_stale();
    test_mid_stream();
    test_ooo_cap();
    test_tiny_memcap();
    test_release();
    test_ooo_segment_bound();
    test_ack_covers_all_gaps();
    test_hole_frames();
    test_stale_syn();
    test_rst_acceptable();
    test_hold_reply_before_call();
    test_hold_expires();
    test_hold_fin_and_cap();
    free(src);
    return check_done("test_tcp_reasm");
}
