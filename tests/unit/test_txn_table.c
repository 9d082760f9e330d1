/* Outstanding calls: matched by (scope, XID), handed out strictly in call
 * order whatever order the replies come in; calls left unanswered past the
 * timeout are given up; a full table gives up its oldest call. */
#include <stdlib.h>

#include "check.h"
#include "txn_table.h"

#define MAXOUT 4096
static struct { uint32_t xid; bool given_up; uint64_t frame; uint8_t verdict; int64_t waited; } out[MAXOUT];
static unsigned nout;

static void on_done(void *ctx, struct ns_txn *t, bool given_up)
{
    (void)ctx;
    if (nout < MAXOUT) {
        out[nout].xid = t->xid;
        out[nout].given_up = given_up;
        out[nout].frame = t->call_frame;
        out[nout].verdict = t->verdict;
        out[nout].waited = t->waited_ns;
    }
    nout++;
}

static struct ns_txn *call(struct txn_table *t, uint64_t scope, uint32_t xid, int64_t ts)
{
    struct ns_txn *x = txn_new_call(t, scope, xid, ts);
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
    struct ns_txn *o = txn_new_done(t, 0);
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
    CHECK(mc.used[MEM_PENDING] <= base + chunk); /* fewer tombstones under a smaller cap */
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
        CHECK(txn_new_call(t, 1, 1, 0) == NULL);
        CHECK(txn_new_done(t, 0) == NULL);
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


/* Completion order: a transaction leaves as soon as it is done; a slow call
 * holds nothing behind it; memory holds only what is outstanding. */
static void test_completion_order(void)
{
    struct memcap mc;
    memcap_init(&mc, 64u << 20);
    struct txn_table *t = txn_table_new(&mc, on_done, NULL);
    txn_table_set_call_order(t, false);
    nout = 0;
    call(t, 1, 1, 0);                 /* the slow one */
    for (uint32_t i = 2; i <= 1000; i++) {
        call(t, 1 + i % 3, i, i);
        reply_at(t, 1 + i % 3, i, i, 0);
    }
    CHECK_EQ_U(nout, 999);            /* each handed out at its reply */
    CHECK_EQ_U(txn_outstanding(t), 1);
    CHECK(out[0].xid == 2 && out[998].xid == 1000);
    /* UDP: lingers, then goes */
    call(t, 9, 5000, 1000);
    reply_at(t, 9, 5000, 1001, 50);
    CHECK_EQ_U(nout, 999);
    CHECK(txn_find(t, 9, 5000) != NULL);
    txn_flush(t, 1050, 1000000);
    CHECK_EQ_U(nout, 999);
    txn_flush(t, 1051, 1000000);
    CHECK_EQ_U(nout, 1000);
    CHECK(txn_find(t, 9, 5000) == NULL);
    reply_at(t, 1, 1, 2000000000, 0); /* the slow one answered after 2 s */
    CHECK_EQ_U(nout, 1001);
    CHECK(out[1000].xid == 1 && !out[1000].given_up && out[1000].verdict == NS_VERDICT_NONE);
    /* an XID reused for another call: the old one goes at once, superseded */
    struct ns_txn *x = call(t, 4, 77, 10);
    if (x) txn_forget(t, x);
    CHECK_EQ_U(nout, 1002);
    CHECK(out[1001].xid == 77 && out[1001].given_up && out[1001].verdict == NS_VERDICT_SUPERSEDED);
    CHECK(txn_find(t, 4, 77) == NULL);
    /* an orphan reply goes once marked done */
    struct ns_txn *o = txn_new_done(t, 20);
    if (o) { o->xid = 999; txn_mark_done(t, o, 20, 0); }
    CHECK_EQ_U(nout, 1003);
    CHECK_EQ_U(txn_outstanding(t), 0);
    CHECK_EQ_U(txn_evicted(t), 0);
    txn_table_free(t);
    CHECK_EQ_U(mc.used[MEM_PENDING], 0);
}

/* The call timeout is each call's own age since its last send, wherever it
 * stands in line: a resent head does not shield an older call behind it. */
static void test_timeout_per_call(void)
{
    for (int order = 0; order < 2; order++) {
        struct memcap mc;
        memcap_init(&mc, 64u << 20);
        struct txn_table *t = txn_table_new(&mc, on_done, NULL);
        txn_table_set_call_order(t, order == 0);
        nout = 0;
        struct ns_txn *a = call(t, 1, 1, 0);
        call(t, 1, 2, 10);
        if (a) { a->last_send_ts_ns = 90; txn_resent(t, a); }   /* 1 resent at 90 */
        txn_flush(t, 111, 100);      /* 2 waited 101 > 100 from its send; 1 only 21 */
        if (order == 0) {
            CHECK_EQ_U(nout, 0);     /* call order: 2 is given up but waits for its turn */
            CHECK(txn_find(t, 1, 2) == NULL);
            CHECK(txn_find(t, 1, 1) != NULL);
            reply_at(t, 1, 1, 120, 0);
            txn_flush(t, 120, 100);
            CHECK_EQ_U(nout, 2);
            CHECK(out[0].xid == 1 && !out[0].given_up && out[1].xid == 2 && out[1].given_up);
            CHECK(out[1].verdict == NS_VERDICT_TIMED_OUT);
        } else {
            CHECK_EQ_U(nout, 1);
            CHECK(out[0].xid == 2 && out[0].given_up && out[0].verdict == NS_VERDICT_TIMED_OUT);
            CHECK(txn_find(t, 1, 1) != NULL);
        }
        txn_flush(t, 500, -1);       /* end of input */
        CHECK_EQ_U(txn_outstanding(t), 0);
        if (order == 1) CHECK(out[1].xid == 1 && out[1].verdict == NS_VERDICT_UNANSWERED_AT_END);
        txn_table_free(t);
    }
}

/* Memory short in call order: finished transactions queued behind a slow
 * call are handed out early (out of order), the slow call stays; only when
 * every entry is a waiting call does the longest waiting one go, as
 * evicted while waiting with its age, and a tombstone keeps its key. */
static void test_memory_short(void)
{
    struct memcap mc;
    memcap_init(&mc, 64u << 20);
    mc.cap[MEM_PENDING] = 1u << 20;         /* a few hundred entries */
    struct txn_table *t = txn_table_new(&mc, on_done, NULL);
    nout = 0;
    call(t, 7, 1, 0);                       /* the slow call */
    uint32_t n = 1;
    while (n < 3000) { n++; call(t, 7, n, n); reply_at(t, 7, n, n, 0); }
    CHECK(txn_evicted(t) > 0);
    CHECK_EQ_U(txn_evicted_waiting(t), 0);  /* never the slow call */
    CHECK(txn_find(t, 7, 1) != NULL);
    for (unsigned i = 0; i < nout && i < MAXOUT; i++) CHECK(!out[i].given_up);
    reply_at(t, 7, 1, 2000000000, 0);
    txn_flush(t, 2000000000, -1);
    CHECK_EQ_U(nout, 3000);
    CHECK_EQ_U(txn_outstanding(t), 0);

    /* every entry a waiting call: the oldest goes, with its age */
    nout = 0;
    uint64_t ev0 = txn_evicted(t);
    for (uint32_t i = 10000; i < 13000; i++) call(t, 8, i, (int64_t)i * 10);
    CHECK(txn_evicted_waiting(t) > 0);
    CHECK_EQ_U(txn_evicted(t) - ev0, txn_evicted_waiting(t));
    CHECK(nout > 0 && out[0].xid == 10000 && out[0].given_up);
    CHECK(out[0].verdict == NS_VERDICT_EVICTED_WAITING);
    CHECK(out[0].waited > 0);
    CHECK(txn_find(t, 8, 10000) == NULL);
    CHECK(txn_find(t, 8, 12999) != NULL);
    txn_flush(t, 2000000000, -1);
    txn_table_free(t);
    CHECK_EQ_U(mc.used[MEM_PENDING], 0);
}

static struct txn_table *tomb_table;
static void on_done_tomb(void *ctx, struct ns_txn *t, bool given_up)
{
    on_done(ctx, t, given_up);
    if (t->verdict == NS_VERDICT_EVICTED_WAITING) txn_tomb_put(tomb_table, t, 2001);
}

/* Tombstones: the late reply of an evicted call is recognised (its call's
 * frame and time kept); a new call with the same XID forgets it. */
static void test_tombstones(void)
{
    struct memcap mc;
    memcap_init(&mc, 64u << 20);
    mc.cap[MEM_PENDING] = 1u << 20;
    struct txn_table *t = tomb_table = txn_table_new(&mc, on_done_tomb, NULL);
    txn_table_set_call_order(t, false);
    nout = 0;
    for (uint32_t i = 1; i <= 500; i++) {
        struct ns_txn *x = call(t, 3, i, (int64_t)i * 1000);
        if (x) { x->id = i; x->last_send_ts_ns = (int64_t)i * 1000; x->prog = 100003; }
    }
    CHECK(txn_evicted_waiting(t) > 0);
    struct txn_tomb tb;
    CHECK(txn_tomb_find(t, 3, 1, &tb, false));
    CHECK(tb.call_frame == 1 && tb.call_ts_ns == 1000 && tb.txn_id == 1 && tb.opkey == 2001 && tb.prog == 100003);
    CHECK(!txn_tomb_find(t, 4, 1, NULL, false));     /* another scope */
    CHECK(txn_tomb_find(t, 3, 1, &tb, true));        /* taken once */
    CHECK(!txn_tomb_find(t, 3, 1, NULL, false));
    CHECK(txn_tomb_find(t, 3, 2, NULL, false));
    call(t, 3, 2, 100000);                           /* XID 2 names a new call now */
    CHECK(!txn_tomb_find(t, 3, 2, NULL, false));
    txn_flush(t, 200000, -1);
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
    test_completion_order();
    test_timeout_per_call();
    test_memory_short();
    test_tombstones();
    return check_done("test_txn_table");
}
