/* IP fragment reassembly (RFC 791 §3.2, RFC 8200 §4.5): fragments of one
 * datagram share (src, dst, protocol, id); offsets are in bytes here (the
 * decoder multiplied the 8-octet units); every fragment but the last carries
 * a multiple of 8 bytes. The datagram handed out is rebuilt into bytes plus a
 * hole map and compared byte for byte. */
#include <stdlib.h>

#include "check.h"
#include "ipfrag.h"

#define DMAX 65536

struct done {
    uint32_t len, fragments;
    bool complete;
    uint32_t id;
    uint8_t proto, ipver;
    uint8_t b[DMAX], hole[DMAX];
};

static struct done dn[8];
static unsigned ndone;

static void on_dgram(void *ctx, const struct ipfrag_done *d)
{
    (void)ctx;
    if (ndone++ >= 8) return; /* counted, not kept */
    struct done *o = &dn[ndone - 1];
    memset(o, 0, sizeof *o);
    o->len = d->datagram.len;
    o->fragments = d->fragments;
    o->complete = d->complete;
    o->id = d->last->frag_id;
    o->proto = d->last->proto;
    o->ipver = d->last->ipver;
    uint32_t pos = 0;
    for (uint32_t i = 0; i < d->datagram.nspans; i++) {
        const struct ns_span *s = &d->datagram.spans[i];
        CHECK(s->len > 0);
        CHECK(pos + s->len <= DMAX);
        if (pos + s->len > DMAX) return;
        if (s->data) memcpy(o->b + pos, s->data, s->len);
        else memset(o->hole + pos, 1, s->len);
        pos += s->len;
    }
    CHECK_EQ_U(pos, d->datagram.len);
}

static uint8_t X[DMAX], Y[DMAX]; /* two different contents for the same offsets */

static struct net_pkt frag(uint32_t id, uint32_t off, uint32_t len, uint32_t caplen, bool mf, const uint8_t *content)
{
    struct net_pkt p;
    memset(&p, 0, sizeof p);
    p.ipver = 4;
    p.proto = 17;
    p.src.family = p.dst.family = 4;
    memcpy(p.src.a, "\x0a\x00\x00\x01", 4);
    memcpy(p.dst.a, "\x0a\x00\x00\x02", 4);
    p.frag_id = id;
    p.frag_offset = off;
    p.l4_len = len;
    p.l4_caplen = caplen;
    p.l4 = content + off;
    p.is_fragment = true;
    p.more_fragments = mf;
    return p;
}

struct env { struct memcap mc; struct ipfrag_table *t; };

static void env_init(struct env *e, uint64_t total)
{
    memcap_init(&e->mc, total);
    e->t = ipfrag_new(&e->mc, on_dgram, NULL);
    ndone = 0;
}

static void env_done(struct env *e)
{
    ipfrag_free(e->t);
    CHECK_EQ_U(e->mc.used[MEM_FRAGMENTS], 0);
}

/* [from, to) of datagram d is data equal to c, or a hole when c is NULL. */
static bool range_is(const struct done *d, uint32_t from, uint32_t to, const uint8_t *c)
{
    if (to > d->len) return false;
    for (uint32_t i = from; i < to; i++) {
        if (d->hole[i] != (c == NULL)) return false;
        if (c && d->b[i] != c[i]) return false;
    }
    return true;
}

/* A 3000-byte UDP datagram over a 1500 MTU: 1480 + 1480 + 40. */
static const uint32_t OFF[3] = {0, 1480, 2960}, LEN[3] = {1480, 1480, 40};

static void add(struct env *e, uint32_t id, int i, int64_t ts)
{
    struct net_pkt p = frag(id, OFF[i], LEN[i], LEN[i], i < 2, X);
    CHECK(ipfrag_add(e->t, &p, ts));
}

static void test_orders(void)
{
    static const int orders[6][3] = {{0, 1, 2}, {2, 1, 0}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}};
    for (int o = 0; o < 6; o++) {
        struct env e;
        env_init(&e, 64u << 20);
        add(&e, 77, orders[o][0], 1);
        add(&e, 77, orders[o][1], 2);
        CHECK_EQ_U(ndone, 0);
        add(&e, 77, orders[o][2], 3);
        CHECK_EQ_U(ndone, 1);
        if (ndone == 1) {
            CHECK(dn[0].complete);
            CHECK_EQ_U(dn[0].len, 3000);
            CHECK_EQ_U(dn[0].fragments, 3);
            CHECK_EQ_U(dn[0].id, 77);
            CHECK_EQ_U(dn[0].proto, 17);
            CHECK(range_is(&dn[0], 0, 3000, X));
        }
        CHECK_EQ_U(e.mc.used[MEM_FRAGMENTS], 0);
        ipfrag_expire(e.t, 100, -1);
        CHECK_EQ_U(ndone, 1);
        env_done(&e);
    }
}

static void test_duplicates_and_overlaps(void)
{
    struct env e;
    env_init(&e, 64u << 20);
    add(&e, 5, 0, 1);
    add(&e, 5, 0, 2);
    add(&e, 5, 1, 3);
    add(&e, 5, 1, 4);
    CHECK_EQ_U(ndone, 0);
    add(&e, 5, 2, 5);
    CHECK_EQ_U(ndone, 1);
    if (ndone == 1) CHECK(dn[0].complete && dn[0].len == 3000 && range_is(&dn[0], 0, 3000, X));
    env_done(&e);

    /* [0,1480) of X, then [1000,2960) of Y: the first copy of [1000,1480) wins */
    env_init(&e, 64u << 20);
    struct net_pkt a = frag(6, 0, 1480, 1480, true, X);
    struct net_pkt b = frag(6, 1000, 1960, 1960, true, Y);
    struct net_pkt c = frag(6, 2960, 40, 40, false, X);
    CHECK(ipfrag_add(e.t, &a, 1));
    CHECK(ipfrag_add(e.t, &b, 2));
    CHECK(ipfrag_add(e.t, &c, 3));
    CHECK_EQ_U(ndone, 1);
    if (ndone == 1) {
        CHECK(dn[0].complete);
        CHECK_EQ_U(dn[0].len, 3000);
        CHECK(range_is(&dn[0], 0, 1480, X));
        CHECK(range_is(&dn[0], 1480, 2960, Y));
        CHECK(range_is(&dn[0], 2960, 3000, X));
    }
    env_done(&e);

    /* the same fragments, the overlapping one first: now Y owns [1000,1480) */
    env_init(&e, 64u << 20);
    CHECK(ipfrag_add(e.t, &b, 1));
    CHECK(ipfrag_add(e.t, &c, 2));
    CHECK(ipfrag_add(e.t, &a, 3));
    CHECK_EQ_U(ndone, 1);
    if (ndone == 1) {
        CHECK(range_is(&dn[0], 0, 1000, X));
        CHECK(range_is(&dn[0], 1000, 2960, Y));
        CHECK(range_is(&dn[0], 2960, 3000, X));
    }
    env_done(&e);

    /* a fragment entirely inside another adds nothing */
    env_init(&e, 64u << 20);
    struct net_pkt in = frag(8, 8, 16, 16, true, Y);
    add(&e, 8, 0, 1);
    CHECK(ipfrag_add(e.t, &in, 2));
    add(&e, 8, 1, 3);
    add(&e, 8, 2, 4);
    CHECK_EQ_U(ndone, 1);
    if (ndone == 1) CHECK(range_is(&dn[0], 0, 3000, X));
    env_done(&e);
}

static void test_missing(void)
{
    struct env e;
    env_init(&e, 64u << 20);
    add(&e, 9, 0, 1000);
    add(&e, 9, 2, 2000);
    CHECK_EQ_U(ndone, 0);
    ipfrag_expire(e.t, 1000 + 30, 30);  /* exactly 30 old: not yet */
    CHECK_EQ_U(ndone, 0);
    ipfrag_expire(e.t, 1000 + 31, 30);
    CHECK_EQ_U(ndone, 1);
    if (ndone == 1) {
        CHECK(!dn[0].complete);
        CHECK_EQ_U(dn[0].len, 3000);
        CHECK_EQ_U(dn[0].fragments, 2);
        CHECK(range_is(&dn[0], 0, 1480, X));
        CHECK(range_is(&dn[0], 1480, 2960, NULL));
        CHECK(range_is(&dn[0], 2960, 3000, X));
    }
    CHECK_EQ_U(e.mc.used[MEM_FRAGMENTS], 0);
    env_done(&e);

    /* the first fragment missing: the datagram starts with a hole */
    env_init(&e, 64u << 20);
    add(&e, 10, 1, 1);
    add(&e, 10, 2, 1);
    ipfrag_expire(e.t, 2, -1);
    CHECK_EQ_U(ndone, 1);
    if (ndone == 1) {
        CHECK(!dn[0].complete);
        CHECK_EQ_U(dn[0].len, 3000);
        CHECK(range_is(&dn[0], 0, 1480, NULL));
        CHECK(range_is(&dn[0], 1480, 3000, X));
    }
    env_done(&e);

    /* the last fragment missing: only the known extent */
    env_init(&e, 64u << 20);
    add(&e, 11, 0, 1);
    add(&e, 11, 1, 1);
    ipfrag_expire(e.t, 2, -1);
    CHECK_EQ_U(ndone, 1);
    if (ndone == 1) CHECK(!dn[0].complete && dn[0].len == 2960 && range_is(&dn[0], 0, 2960, X));
    env_done(&e);
}

/* Snaplen: a fragment with only its first 100 bytes captured. */
static void test_truncated(void)
{
    struct env e;
    env_init(&e, 64u << 20);
    struct net_pkt a = frag(12, 0, 1480, 1480, true, X);
    struct net_pkt b = frag(12, 1480, 1480, 100, true, X);
    struct net_pkt c = frag(12, 2960, 40, 40, false, X);
    CHECK(ipfrag_add(e.t, &c, 1));
    CHECK(ipfrag_add(e.t, &b, 1));
    CHECK(ipfrag_add(e.t, &a, 1));
    CHECK_EQ_U(ndone, 1);
    if (ndone == 1) {
        CHECK(dn[0].complete); /* all of it was on the wire */
        CHECK_EQ_U(dn[0].len, 3000);
        CHECK(range_is(&dn[0], 0, 1580, X));
        CHECK(range_is(&dn[0], 1580, 2960, NULL));
        CHECK(range_is(&dn[0], 2960, 3000, X));
    }
    env_done(&e);
}

static void test_keys_and_invalid(void)
{
    struct env e;
    env_init(&e, 64u << 20);
    /* same id, other source: another datagram */
    struct net_pkt a = frag(13, 0, 16, 16, true, X);
    struct net_pkt a2 = frag(13, 0, 16, 16, true, Y);
    a2.src.a[3] = 9;
    struct net_pkt b = frag(13, 16, 4, 4, false, X);
    CHECK(ipfrag_add(e.t, &a, 1));
    CHECK(ipfrag_add(e.t, &a2, 1));
    CHECK(ipfrag_add(e.t, &b, 1));
    CHECK_EQ_U(ndone, 1);
    if (ndone == 1) CHECK(dn[0].complete && dn[0].len == 20 && range_is(&dn[0], 0, 20, X));
    /* IPv6 fragments with the same id and addresses are yet another datagram */
    struct net_pkt v6 = frag(13, 16, 4, 4, false, Y);
    v6.ipver = 6;
    CHECK(ipfrag_add(e.t, &v6, 1));
    CHECK_EQ_U(ndone, 1);
    /* invalid: a non-last fragment whose length is not a multiple of 8 */
    struct net_pkt odd = frag(14, 0, 100, 100, true, X);
    CHECK(!ipfrag_add(e.t, &odd, 1));
    /* invalid: past 65535 */
    struct net_pkt far = frag(15, 65528, 16, 16, false, X);
    CHECK(!ipfrag_add(e.t, &far, 1));
    /* invalid: two last fragments that disagree on the total */
    struct net_pkt l1 = frag(16, 8, 8, 8, false, X);
    struct net_pkt l2 = frag(16, 16, 8, 8, false, X);
    CHECK(ipfrag_add(e.t, &l1, 1));
    CHECK(!ipfrag_add(e.t, &l2, 1));
    ipfrag_expire(e.t, 10, -1);
    CHECK_EQ_U(ndone, 4); /* a2's train, v6's train, train 16 */
    env_done(&e);
}

/* A cap on trains: the oldest train is given up (delivered incomplete) and counted. */
static void test_cap(void)
{
    struct env e;
    env_init(&e, 64u << 20);
    /* room for two trains (each: a 64 KiB buffer and a small header) */
    e.mc.cap[MEM_FRAGMENTS] = 2 * (65536 + 4096);
    add(&e, 21, 0, 20);
    add(&e, 22, 0, 10);
    add(&e, 23, 0, 30);      /* evicts 22, the oldest by packet time */
    CHECK_EQ_U(ipfrag_evicted(e.t), 1);
    CHECK_EQ_U(ndone, 1);
    if (ndone == 1) CHECK(dn[0].id == 22 && !dn[0].complete && dn[0].len == 1480);
    add(&e, 21, 1, 40);
    add(&e, 21, 2, 41);
    CHECK_EQ_U(ndone, 2);
    if (ndone == 2) CHECK(dn[1].id == 21 && dn[1].complete && range_is(&dn[1], 0, 3000, X));
    ipfrag_expire(e.t, 50, -1);
    CHECK_EQ_U(ndone, 3);
    if (ndone == 3) CHECK(dn[2].id == 23 && !dn[2].complete);
    CHECK_EQ_U(ipfrag_evicted(e.t), 1);
    env_done(&e);

    /* a memcap too small for even one train: fragments are refused, no crash */
    env_init(&e, 1000);
    struct net_pkt p = frag(24, 0, 1480, 1480, true, X);
    CHECK(!ipfrag_add(e.t, &p, 1));
    CHECK_EQ_U(ndone, 0);
    env_done(&e);

    /* the table holds 256 trains: the 257th evicts the oldest */
    env_init(&e, 64u << 20);
    e.mc.cap[MEM_FRAGMENTS] = 1ull << 40;
    for (uint32_t i = 0; i < 257; i++) {
        struct net_pkt q = frag(1000 + i, 0, 8, 8, true, X);
        CHECK(ipfrag_add(e.t, &q, 100 + i));
    }
    CHECK_EQ_U(ipfrag_evicted(e.t), 1);
    CHECK_EQ_U(ndone, 1);
    if (ndone == 1) CHECK(dn[0].id == 1000 && !dn[0].complete);
    ndone = 0;
    ipfrag_expire(e.t, 1000, -1);
    CHECK_EQ_U(ndone, 256);
    env_done(&e);
}

/* The most spans a train can need: 64 fragments, each with only half its
 * payload captured and a gap before the next (UBSan once saw index 129 out
 * of bounds here: hole, data, hole per fragment). */
static void test_many_cut_fragments(void)
{
    struct env e;
    env_init(&e, 64u << 20);
    for (uint32_t i = 0; i < 64; i++) {
        struct net_pkt p = frag(30, i * 16, 8, 4, i < 63, X); /* [16i, 16i+8), 4 captured */
        CHECK(ipfrag_add(e.t, &p, 1));
    }
    CHECK_EQ_U(ndone, 0);
    ipfrag_expire(e.t, 2, -1);
    CHECK_EQ_U(ndone, 1);
    if (ndone == 1) {
        CHECK(!dn[0].complete);
        CHECK_EQ_U(dn[0].fragments, 64);
        CHECK_EQ_U(dn[0].len, 63 * 16 + 8);
        for (uint32_t i = 0; i < 64; i++) {
            CHECK(range_is(&dn[0], i * 16, i * 16 + 4, X));
            CHECK(range_is(&dn[0], i * 16 + 4, i == 63 ? i * 16 + 8 : i * 16 + 16, NULL));
        }
    }
    env_done(&e);
}

int main(void)
{
    for (uint32_t i = 0; i < DMAX; i++) { X[i] = (uint8_t)(i * 13 + (i >> 8)); Y[i] = (uint8_t)~X[i]; }
    test_orders();
    test_duplicates_and_overlaps();
    test_missing();
    test_truncated();
    test_keys_and_invalid();
    test_cap();
    test_many_cut_fragments();
    return check_done("test_ipfrag");
}
