/* Outstanding calls: matched by (scope, XID), handed out strictly in call
 * order whatever order the replies come in; calls left unanswered past the
 * timeout are given up; a full table gives up its oldest call. */
#include <stdlib.h>

#include "check.h"
#include "txn_table.h"

#define MAXOUT 4096
static struct { uint32_t xid; bool given_up; uint64_t frame; } out[MAXOUT];
static unsigned nout;

static void on_done(void *ctx, struct ns_txn *t, bool given_up)
{
    (void)ctx;
    if (nout < MAXOUT) { out[nout].xid = t->xid; out[nout].given_up = given_up; out[nout].frame = t->call_frame; }
    nout++;
}

static struct ns_txn *call(struct txn_table *t, uint64_t scope, uint32_t xid, int64_t ts)
{
    struct ns_txn *x = txn_new_call(t, scope, xid);
    CHECK(x != NULL);
    if (x) { x->call_ts_ns = ts; x->call_frame = xid; }
    return x;
}

static void reply_at(struct txn_table *t, uint64_t scope, uint32_t xid, int64_t now, int64_t linger)
{
    struct ns_txn *x = txn_find(t, scope, xid);
    CHECK(x != NULL);
    if (x) txn_mark_done(t, x, now, linger);
}

static void reply(struct txn_table *t, uint64_t scope, uint32_t xid) { reply_at(t, scope, xid, 0, 0); }

static void test_call_order(void)
{
    struct memcap mc;
    memcap_init(&mc, 64u << 20);
    struct txn_table *t = txn_table_new(&mc, on_done, NULL);
    nout = 0;
    call(t, 1, 101, 10);
    call(t, 1, 102, 20);
    call(t, 2, 101, 25);       /* same XID, other connection: another call */
    call(t, 1, 103, 30);
    CHECK_EQ_U(txn_outstanding(t), 4);
    CHECK(txn_find(t, 1, 104) == NULL);
    CHECK(txn_find(t, 1, 101) != txn_find(t, 2, 101));
    CHECK_EQ_U(txn_find(t, 2, 101)->call_ts_ns, 25);

    reply(t, 1, 103);
    txn_flush(t, 35, 1000);
    CHECK_EQ_U(nout, 0);       /* 101 is older and still waiting */
    reply(t, 1, 101);
    txn_flush(t, 36, 1000);
    CHECK_EQ_U(nout, 1);
    CHECK_EQ_U(out[0].xid, 101);
    CHECK(!out[0].given_up);
    CHECK(txn_find(t, 1, 101) == NULL);  /* handed out: no longer matched */
    CHECK(txn_find(t, 2, 101) != NULL);
    /* an orphan reply is a finished transaction in its place in line */
    struct ns_txn *o = txn_new_done(t);
    CHECK(o != NULL);
    if (o) o->xid = 999;
    reply(t, 2, 101);
    reply(t, 1, 102);
    txn_flush(t, 40, 1000);
    CHECK_EQ_U(nout, 5);
    CHECK(out[1].xid == 102 && out[2].xid == 101 && out[3].xid == 103 && out[4].xid == 999);
    for (unsigned i = 0; i < nout; i++) CHECK(!out[i].given_up);
    CHECK_EQ_U(txn_outstanding(t), 0);
    CHECK_EQ_U(txn_evicted(t), 0);
    txn_table_free(t);
    CHECK_EQ_U(mc.used[MEM_PENDING], 0);
}

static void test_timeout(void)
{
    struct memcap mc;
    memcap_init(&mc, 64u << 20);
    struct txn_table *t = txn_table_new(&mc, on_done, NULL);
    nout = 0;
    call(t, 1, 1, 0);
    call(t, 1, 2, 100);
    struct ns_txn *x3 = call(t, 1, 3, 150);
    call(t, 1, 4, 200);
    if (x3) x3->last_send_ts_ns = 400;  /* retransmitted: waits from its last send */
    reply(t, 1, 4);
    txn_flush(t, 200, 100);    /* 1 has waited 200 > 100; 2 exactly 100: not yet */
    CHECK_EQ_U(nout, 1);
    CHECK(out[0].xid == 1 && out[0].given_up);
    txn_flush(t, 201, 100);    /* 2: 101 > 100; 3: last send 400, waits */
    CHECK_EQ_U(nout, 2);
    CHECK(out[1].xid == 2 && out[1].given_up);
    txn_flush(t, 450, 100);
    CHECK_EQ_U(nout, 2);
    reply(t, 1, 3);
    txn_flush(t, 450, 100);
    CHECK_EQ_U(nout, 4);
    CHECK(out[2].xid == 3 && !out[2].given_up && out[3].xid == 4 && !out[3].given_up);
    /* end of capture: everything left is given up */
    call(t, 1, 5, 500);
    call(t, 1, 6, 501);
    reply(t, 1, 6);
    txn_flush(t, 502, -1);
    CHECK_EQ_U(nout, 6);
    CHECK(out[4].xid == 5 && out[4].given_up && out[5].xid == 6 && !out[5].given_up);
    CHECK_EQ_U(txn_outstanding(t), 0);
    CHECK_EQ_U(txn_evicted(t), 0);
    txn_table_free(t);
}

/* A reply may linger (UDP duplicates still find their call) before it is
 * handed out; the end of the capture hands out everything. */
static void test_linger(void)
{
    struct memcap mc;
    memcap_init(&mc, 64u << 20);
    struct txn_table *t = txn_table_new(&mc, on_done, NULL);
    nout = 0;
    call(t, 1, 1, 0);
    call(t, 1, 2, 10);
    reply_at(t, 1, 1, 100, 50);   /* may go from 150 on */
    txn_flush(t, 149, 1000);
    CHECK_EQ_U(nout, 0);
    CHECK(txn_find(t, 1, 1) != NULL);
    txn_flush(t, 150, 1000);
    CHECK_EQ_U(nout, 1);
    CHECK(out[0].xid == 1 && !out[0].given_up);
    reply_at(t, 1, 2, 200, 1000);
    txn_flush(t, 201, -1);
    CHECK_EQ_U(nout, 2);
    CHECK(out[1].xid == 2 && !out[1].given_up);
    txn_table_free(t);
}

/* A memcap with room for one chunk of entries: the oldest call gives way. */
static void test_eviction(void)
{
    struct memcap mc;
    memcap_init(&mc, 64u << 20);
    struct txn_table *t = txn_table_new(&mc, on_done, NULL);
    uint64_t base = mc.used[MEM_PENDING];
    call(t, 1, 1, 0);
    uint64_t chunk = mc.used[MEM_PENDING] - base;  /* entries come in chunks */
    CHECK(chunk > 0);
    txn_table_free(t);

    memcap_init(&mc, 64u << 20);
    mc.cap[MEM_PENDING] = base + chunk;
    t = txn_table_new(&mc, on_done, NULL);
    nout = 0;
    uint32_t n = 0;
    while (txn_evicted(t) == 0 && n < 100000) { n++; call(t, 7, n, n); }
    /* the call that did not fit gave up call 1 */
    CHECK_EQ_U(txn_evicted(t), 1);
    CHECK_EQ_U(nout, 1);
    CHECK(out[0].xid == 1 && out[0].given_up);
    CHECK(txn_find(t, 7, 1) == NULL);
    CHECK(txn_find(t, 7, n) != NULL);
    CHECK_EQ_U(txn_outstanding(t), n - 1);
    CHECK_EQ_U(mc.used[MEM_PENDING], base + chunk);
    /* the oldest now has its reply: it is handed out as answered */
    reply(t, 7, 2);
    n++;
    call(t, 7, n, n);
    CHECK_EQ_U(txn_evicted(t), 2);
    CHECK(nout == 2 && out[1].xid == 2 && !out[1].given_up);
    /* handing out frees room without eviction */
    reply(t, 7, 3);
    txn_flush(t, n, 1000000);
    CHECK_EQ_U(nout, 3);
    n++;
    call(t, 7, n, n);
    CHECK_EQ_U(txn_evicted(t), 2);
    /* call order is kept to the end */
    txn_flush(t, n, -1);
    bool inorder = nout == n;
    for (unsigned i = 1; i < nout && i < MAXOUT; i++) inorder &= out[i].xid == out[i - 1].xid + 1;
    CHECK(inorder);
    txn_table_free(t);
    CHECK_EQ_U(mc.used[MEM_PENDING], 0);

    /* no room at all: NULL, never a crash */
    memcap_init(&mc, 0);
    t = txn_table_new(&mc, on_done, NULL);
    CHECK(t != NULL);
    if (t) {
        CHECK(txn_new_call(t, 1, 1) == NULL);
        CHECK(txn_new_done(t) == NULL);
        CHECK(txn_find(t, 1, 1) == NULL);
        txn_flush(t, 0, -1);
        txn_table_free(t);
    }
}

/* Many outstanding calls: the hash grows, every call is still found. */
static void test_many(void)
{
    struct memcap mc;
    memcap_init(&mc, 1ull << 32);
    struct txn_table *t = txn_table_new(&mc, on_done, NULL);
    nout = 0;
    for (uint32_t i = 0; i < 20000; i++) call(t, i % 3, 0x80000000u + i, i);
    unsigned found = 0;
    for (uint32_t i = 0; i < 20000; i++) found += txn_find(t, i % 3, 0x80000000u + i) != NULL;
    CHECK_EQ_U(found, 20000);
    CHECK(txn_find(t, 1, 0x80000000u) == NULL);  /* xid of scope 0 */
    for (uint32_t i = 20000; i-- > 0;) reply(t, i % 3, 0x80000000u + i);
    txn_flush(t, 20000, 10);
    CHECK_EQ_U(nout, 20000);
    bool inorder = true;
    for (unsigned i = 0; i < MAXOUT; i++) inorder &= out[i].xid == 0x80000000u + i && !out[i].given_up;
    CHECK(inorder);
    CHECK_EQ_U(txn_evicted(t), 0);
    txn_table_free(t);
    CHECK_EQ_U(mc.used[MEM_PENDING], 0);
}

int main(void)
{
    test_call_order();
    test_timeout();
    test_linger();
    test_eviction();
    test_many();
    return check_done("test_txn_table");
}
