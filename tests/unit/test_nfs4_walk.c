/* NFSv4 COMPOUND walks as a whole: every operation of RFC 8881/7862/8276 in
 * one compound, the NS_OPS_INLINE / NS_MAX_OPS limits and the overflow pool, unknown operations, truncation at every
 * length, impossible counts, uncaptured holes, and mutated input. */
#include "check.h"
#include "nfs4_build.h"
#include "nfs4_decode.h"
#include "nfsscope/names.h"

static int dcall(struct xdr *x, void *o) { return nfs4_decode_compound_call(x, o, NULL); }
static int dreply(struct xdr *x, void *o) { return nfs4_decode_compound_reply(x, o, NULL); }
static int dcbcall(struct xdr *x, void *o) { return nfs4_decode_cb_compound_call(x, o, NULL); }
static int dcbreply(struct xdr *x, void *o) { return nfs4_decode_cb_compound_reply(x, o, NULL); }

static struct xb b; /* large: keep it off the stack */

/* Opcodes 3..75 and ILLEGAL: 74 operations, more than NS_OPS_INLINE. */
static uint32_t all_ops(uint32_t *ops)
{
    uint32_t n = 0;
    for (uint32_t op = 3; op <= 75; op++) ops[n++] = op;
    ops[n++] = 10044;
    return n;
}

static void test_every_op_call(void)
{
    uint32_t ops[80], n = all_ops(ops);
    xb_init(&b);
    xb_call_hdr(&b, "all", 2, n);
    for (uint32_t i = 0; i < n; i++) CHECK(xb_op_args(&b, ops[i]));
    struct nfs4_call c;
    struct xb_run r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.err, XDR_OK);
    CHECK_EQ_U(r.remaining, 0);
    CHECK(c.walk_complete);
    CHECK(!c.unknown_op);
    CHECK_EQ_U(c.nops_wire, n);
    /* no overflow block offered: the list is cut after the inline part */
    CHECK_EQ_U(c.nops, NS_OPS_INLINE);
    CHECK(c.ops_cut);
    CHECK_EQ_U(c.nops_walked, n);
    for (uint32_t i = 0; i < NS_OPS_INLINE; i++) CHECK_EQ_U(c.op[i], ops[i]);
    CHECK_EQ_U(c.minor, 2);
    CHECK_EQ_U(c.tag_len, 3);
    CHECK(memcmp(c.tag, "all", 3) == 0);
    /* SEQUENCE is not first: not taken as the compound's sequence */
    CHECK(!c.has_seq);
    /* the first READ (op 25) comes after a PUTFH(22) and a PUTPUBFH(23),
     * PUTROOTFH(24): the current FH is unknown */
    CHECK(c.io.has_io);
    CHECK_EQ_U(c.io.op, 25);
    CHECK_EQ_U(c.io.count, 4096);
    CHECK_EQ_U(c.io.fh.len, 0);
    CHECK(c.setup.has_exchange_id && c.setup.has_create_session && c.setup.has_bind_conn);
    CHECK(c.setup.has_destroy_session && c.setup.has_destroy_clientid);
    CHECK(c.setup.has_reclaim_complete && c.setup.has_setclientid);
    CHECK(c.setup.has_setclientid_confirm);
    CHECK_EQ_U(c.setup.setclientid_confirm.clientid, 77);
}

static void test_every_op_reply(void)
{
    uint32_t ops[80], n = all_ops(ops);
    xb_init(&b);
    xb_reply_hdr(&b, 10044, "all", n);
    for (uint32_t i = 0; i < n; i++) CHECK(xb_op_res(&b, ops[i]));
    struct nfs4_reply p;
    struct xb_run r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK(p.walk_complete);
    CHECK_EQ_U(p.status, 10044);
    CHECK_EQ_U(p.nres_wire, n);
    CHECK_EQ_U(p.nres, NS_OPS_INLINE);
    CHECK(p.res_cut);
    CHECK_EQ_U(p.nres_walked, n);
    for (uint32_t i = 0; i < NS_OPS_INLINE; i++) {
        CHECK_EQ_U(p.resop[i], ops[i]);
        CHECK_EQ_U(p.res_status[i], 0);
    }
    CHECK(p.io.has_io);
    CHECK_EQ_U(p.io.count, 13); /* the first READ result */
    CHECK(!p.io.eof);
    CHECK(p.setup.has_exchange_id && p.setup.has_create_session && p.setup.has_bind_conn);
    CHECK(p.setup.has_setclientid);
    CHECK_EQ_U(p.setup.setclientid.clientid, 77);
}

static void test_every_cb_op(void)
{
    uint32_t ops[] = {11, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15, 10044};
    uint32_t n = sizeof ops / sizeof ops[0];
    xb_init(&b);
    xb_cb_call_hdr(&b, "", 1, 42, n);
    for (uint32_t i = 0; i < n; i++) CHECK(xb_cb_op_args(&b, ops[i]));
    struct nfs4_call c;
    struct xb_run r = xb_decode(&b, b.len, dcbcall, &c);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK(c.walk_complete);
    CHECK_EQ_U(c.cb_ident, 42);
    CHECK_EQ_U(c.nops, n);
    CHECK(c.has_seq);
    CHECK_EQ_U(c.seq.sequenceid, 9);

    xb_init(&b);
    xb_reply_hdr(&b, 0, "", n);
    for (uint32_t i = 0; i < n; i++) CHECK(xb_cb_op_res(&b, ops[i]));
    struct nfs4_reply p;
    r = xb_decode(&b, b.len, dcbreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK(p.walk_complete);
    CHECK(p.has_seq);
    CHECK_EQ_U(p.seq.target_highest_slotid, 3);
    CHECK_EQ_U(p.seq.status_flags, 0);
    CHECK_EQ_U(p.nres, n);
}

static void test_unknown_op(void)
{
    xb_init(&b);
    xb_call_hdr(&b, "u", 1, 4);
    xb_op_args(&b, 53);
    xb_op_args(&b, 22);
    xb_u32(&b, 76); /* not an operation */
    xb_u32(&b, 0xdeadbeef);
    xb_op_args(&b, 10);
    struct nfs4_call c;
    struct xb_run r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.rc, (unsigned long long)-1);
    CHECK_EQ_U(r.err, XDR_OK);
    CHECK(c.unknown_op);
    CHECK(!c.walk_complete);
    CHECK_EQ_U(c.stopped_at_op, 76);
    CHECK_EQ_U(c.nops, 2);
    CHECK_EQ_U(c.nops_walked, 2);
    CHECK_EQ_U(c.op[0], 53);
    CHECK_EQ_U(c.op[1], 22);
    CHECK(c.has_seq);

    /* reply: an unknown result opcode */
    xb_init(&b);
    xb_reply_hdr(&b, 0, "u", 3);
    xb_op_res(&b, 53);
    xb_u32(&b, 0); /* opcode 0 is reserved */
    xb_u32(&b, 0);
    struct nfs4_reply p;
    r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.rc, (unsigned long long)-1);
    CHECK(p.unknown_op);
    CHECK_EQ_U(p.stopped_at_op, 0);
    CHECK_EQ_U(p.nres, 1);
    CHECK(p.has_seq);

    /* a forechannel-only op inside CB_COMPOUND is unknown there */
    xb_init(&b);
    xb_cb_call_hdr(&b, "", 1, 1, 2);
    xb_cb_op_args(&b, 11);
    xb_u32(&b, 16);
    struct nfs4_call cc;
    r = xb_decode(&b, b.len, dcbcall, &cc);
    CHECK_EQ_U(r.rc, (unsigned long long)-1);
    CHECK_EQ_U(cc.stopped_at_op, 16);
    CHECK_EQ_U(cc.nops, 1);
}

/* Every prefix of a valid message fails cleanly with -2 and a SHORT (or, when
 * the cut leaves a length or count larger than what remains, BAD) error. */
static void truncate_all(const struct xb *m, int (*fn)(struct xdr *, void *), void *out)
{
    unsigned bad = 0, shortn = 0;
    for (uint32_t n = 0; n < m->len; n++) {
        struct xb_run r = xb_decode(m, n, fn, out);
        if (r.rc != -2 || (r.err != XDR_ERR_SHORT && r.err != XDR_ERR_BAD)) {
            fprintf(stderr, "cut at %u: rc %d err %u\n", n, r.rc, r.err);
            bad++;
        }
        if (r.err == XDR_ERR_SHORT) shortn++;
    }
    CHECK_EQ_U(bad, 0);
    CHECK(shortn > 0);
    struct xb_run r = xb_decode(m, m->len, fn, out);
    CHECK_EQ_U(r.rc, 0);
}

static void test_truncation(void)
{
    uint32_t ops[80], n = all_ops(ops);
    struct nfs4_call c;
    struct nfs4_reply p;
    xb_init(&b);
    xb_call_hdr(&b, "trunc", 1, n);
    for (uint32_t i = 0; i < n; i++) xb_op_args(&b, ops[i]);
    truncate_all(&b, dcall, &c);
    xb_init(&b);
    xb_reply_hdr(&b, 0, "trunc", n);
    for (uint32_t i = 0; i < n; i++) xb_op_res(&b, ops[i]);
    truncate_all(&b, dreply, &p);

    uint32_t cbops[] = {11, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15, 10044};
    uint32_t k = sizeof cbops / sizeof cbops[0];
    xb_init(&b);
    xb_cb_call_hdr(&b, "cb", 1, 7, k);
    for (uint32_t i = 0; i < k; i++) xb_cb_op_args(&b, cbops[i]);
    truncate_all(&b, dcbcall, &c);
    xb_init(&b);
    xb_reply_hdr(&b, 0, "cb", k);
    for (uint32_t i = 0; i < k; i++) xb_cb_op_res(&b, cbops[i]);
    truncate_all(&b, dcbreply, &p);
}

/* Counts claiming more items than bytes remain: refused at once, no loop. */
static void test_huge_counts(void)
{
    struct nfs4_call c;
    struct nfs4_reply p;
    struct xb_run r;

    xb_init(&b);
    xb_call_hdr(&b, "", 1, 0xffffffff);
    xb_op_args(&b, 24);
    r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.rc, (unsigned long long)-2);
    CHECK_EQ_U(r.err, XDR_ERR_BAD);
    CHECK_EQ_U(c.nops, 0);

    xb_init(&b);
    xb_reply_hdr(&b, 0, "", 0x40000000);
    r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.err, XDR_ERR_BAD);

    /* GETATTR with a bitmap of 2^30 words */
    xb_init(&b);
    xb_call_hdr(&b, "", 1, 2);
    xb_op_args(&b, 24);
    xb_u32(&b, 9);
    xb_u32(&b, 0x40000000);
    xb_u32(&b, 1);
    r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.rc, (unsigned long long)-2);
    CHECK_EQ_U(r.err, XDR_ERR_BAD);
    CHECK_EQ_U(c.stopped_at_op, 9);
    CHECK_EQ_U(c.nops, 2);
    CHECK_EQ_U(c.nops_walked, 1);

    /* READ_PLUS with 0xffffffff segments */
    xb_init(&b);
    xb_reply_hdr(&b, 0, "", 1);
    xb_u32(&b, 68);
    xb_u32(&b, 0);
    xb_bool(&b, true);
    xb_u32(&b, 0xffffffff);
    xb_zeros(&b, 64);
    r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.err, XDR_ERR_BAD);
    CHECK(!p.io.has_io);

    /* TEST_STATEID with 2^28 stateids; READDIR name longer than the message */
    xb_init(&b);
    xb_call_hdr(&b, "", 1, 1);
    xb_u32(&b, 55);
    xb_u32(&b, 0x10000000);
    xb_stateid(&b, 1);
    r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.err, XDR_ERR_BAD);
    xb_init(&b);
    xb_reply_hdr(&b, 0, "", 1);
    xb_u32(&b, 26);
    xb_u32(&b, 0);
    xb_zeros(&b, 8);
    xb_bool(&b, true);
    xb_u64(&b, 1);
    xb_u32(&b, 0x7fffffff);
    r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.err, XDR_ERR_BAD);

    /* a tag longer than the message; a file handle over NFS4_FHSIZE */
    xb_init(&b);
    xb_u32(&b, 1000);
    xb_zeros(&b, 8);
    r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.err, XDR_ERR_BAD);
    xb_init(&b);
    xb_call_hdr(&b, "", 1, 1);
    xb_u32(&b, 22);
    xb_filled(&b, 129, 1);
    r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.err, XDR_ERR_BAD);
}

/* SEQUENCE, PUTFH, WRITE of 64 KiB, GETATTR; the WRITE data is only partly
 * captured. The walk must cross the hole and finish. */
static void test_write_hole(void)
{
    xb_init(&b);
    xb_call_hdr(&b, "w", 1, 4);
    xb_op_args(&b, 53);
    xb_op_args(&b, 22);
    xb_u32(&b, 38);
    xb_stateid(&b, 1);
    xb_u64(&b, 1 << 20);
    xb_u32(&b, 1);
    uint32_t data_at = b.len + 4;
    xb_filled(&b, 40000, 0x5a);
    xb_op_args(&b, 9);
    struct nfs4_call c;
    /* holes at several places inside the data, including its very end */
    uint32_t offs[] = {data_at, data_at + 1, data_at + 100, data_at + 39000};
    for (unsigned i = 0; i < sizeof offs / sizeof offs[0]; i++) {
        uint32_t hole = data_at + 40000 - offs[i];
        struct xb_run r = xb_decode_hole(&b, offs[i], hole, dcall, &c);
        CHECK_EQ_U(r.rc, 0);
        CHECK_EQ_U(r.err, XDR_OK);
        CHECK_EQ_U(r.remaining, 0);
        CHECK(c.walk_complete);
        CHECK_EQ_U(c.nops, 4);
        CHECK_EQ_U(c.op[3], 9);
        CHECK(c.io.has_io);
        CHECK_EQ_U(c.io.op, 38);
        CHECK_EQ_U(c.io.count, 40000);
        CHECK_EQ_U(c.io.offset, 1 << 20);
        CHECK_EQ_U(c.io.stable, 1);
        CHECK_EQ_U(c.io.fh.len, 28);
    }
    /* a hole that swallows the next opcode is truncation, not invalid */
    struct xb_run r = xb_decode_hole(&b, data_at + 100, 40000 - 100 + 4, dcall, &c);
    CHECK_EQ_U(r.rc, (unsigned long long)-2);
    CHECK_EQ_U(r.err, XDR_ERR_TRUNC);
    CHECK(c.io.has_io);
    CHECK_EQ_U(c.nops, 3);

    /* READ reply whose data is a hole, then GETATTR */
    xb_init(&b);
    xb_reply_hdr(&b, 0, "r", 4);
    xb_op_res(&b, 53);
    xb_op_res(&b, 22);
    xb_u32(&b, 25);
    xb_u32(&b, 0);
    xb_bool(&b, true);
    data_at = b.len + 4;
    xb_filled(&b, 30001, 1);
    xb_op_res(&b, 9);
    struct nfs4_reply p;
    r = xb_decode_hole(&b, data_at, 30001, dreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK(p.walk_complete);
    CHECK(p.io.has_io);
    CHECK(p.io.eof);
    CHECK_EQ_U(p.io.count, 30001);
    CHECK_EQ_U(p.nres, 4);
}

/* Deterministic mutations of a valid compound: any result, no crash. */
static uint32_t rng_state = 12345;
static uint32_t rnd(void)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return rng_state >> 8;
}

static void test_mutations(void)
{
    uint32_t ops[80], n = all_ops(ops);
    static struct xb orig;
    xb_init(&orig);
    xb_call_hdr(&orig, "m", 1, n);
    for (uint32_t i = 0; i < n; i++) xb_op_args(&orig, ops[i]);
    static struct xb orig_r;
    xb_init(&orig_r);
    xb_reply_hdr(&orig_r, 0, "m", n);
    for (uint32_t i = 0; i < n; i++) xb_op_res(&orig_r, ops[i]);
    unsigned done = 0;
    for (int iter = 0; iter < 3000; iter++) {
        const struct xb *src = (iter & 1) ? &orig_r : &orig;
        b = *src;
        int flips = 1 + (int)(rnd() % 4);
        for (int k = 0; k < flips; k++) {
            uint32_t at = rnd() % b.len;
            uint32_t kind = rnd() % 3;
            if (kind == 0) b.buf[at] ^= (uint8_t)(1u << (rnd() % 8));
            else if (kind == 1) b.buf[at] = 0xff;
            else b.buf[at] = (uint8_t)rnd();
        }
        uint32_t len = (rnd() % 4 == 0) ? rnd() % b.len : b.len;
        struct nfs4_call c;
        struct nfs4_reply p;
        struct xb_run r = (iter & 1) ? xb_decode(&b, len, dreply, &p) : xb_decode(&b, len, dcall, &c);
        CHECK(r.rc == 0 || r.rc == -1 || r.rc == -2);
        if (r.rc == -2) CHECK(r.err != XDR_OK);
        if (r.rc == 0) CHECK(r.err == XDR_OK);
        done++;
    }
    CHECK_EQ_U(done, 3000);
}

/* ---- operations past NS_OPS_INLINE: the overflow pool ---- */

static struct nfs4_ops_pool *pool;
static struct ns_ops_more *get_block(void *ctx) { return nfs4_ops_pool_get(pool, ctx); }

/* A COMPOUND of n operations (PUTROOTFH, then GETATTR... ) decoded into t. */
static void decode_long(struct ns_txn *t, uint32_t n, bool reply)
{
    struct nfs4_ops_room room = {.get = get_block, .ctx = t};
    xb_init(&b);
    if (reply) xb_reply_hdr(&b, 0, "", n);
    else xb_call_hdr(&b, "", 1, n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t op = i == 0 ? 24 : (i % 2 ? 9 : 10); /* PUTROOTFH GETATTR GETFH ... */
        CHECK(reply ? xb_op_res(&b, op) : xb_op_args(&b, op));
    }
    struct xdr x;
    xdr_init_mem(&x, b.buf, b.len);
    int rc = reply ? nfs4_decode_compound_reply(&x, &t->u.v4.reply, &room)
                   : nfs4_decode_compound_call(&x, &t->u.v4.call, &room);
    CHECK_EQ_U(rc, 0);
}

static uint32_t long_op(uint32_t i) { return i == 0 ? 24 : (i % 2 ? 9 : 10); }

static void test_94_ops_kept(void)
{
    struct memcap mc;
    memcap_init(&mc, 64u << 20);
    pool = nfs4_ops_pool_new(&mc);
    static struct ns_txn t;
    memset(&t, 0, sizeof t);
    t.id = 7;
    t.kind = NS_TXN_NFS4;
    decode_long(&t, 94, false);
    decode_long(&t, 94, true);
    CHECK_EQ_U(ns_txn_nops(&t), 94);
    CHECK_EQ_U(ns_txn_nres(&t), 94);
    CHECK(!t.u.v4.call.ops_cut && !t.u.v4.reply.res_cut);
    CHECK(t.ops_more != NULL);
    for (uint32_t i = 0; i < 94; i++) {
        uint32_t op = 0, st = 1;
        CHECK_EQ_U(ns_txn_op(&t, i), long_op(i));
        CHECK(ns_txn_res(&t, i, &op, &st));
        CHECK_EQ_U(op, long_op(i));
        CHECK_EQ_U(st, 0);
    }
    CHECK_EQ_U(ns_txn_op(&t, 94), UINT32_MAX);
    CHECK_EQ_U(nfs4_ops_pool_blocks(pool), 1);
    CHECK(mc.used[MEM_PENDING] >= sizeof(struct ns_ops_more));
    /* handed out: the block goes back and is reused; the old txn sees only its inline part */
    nfs4_ops_pool_release(pool, &t);
    static struct ns_txn u;
    memset(&u, 0, sizeof u);
    u.id = 8;
    u.kind = NS_TXN_NFS4;
    decode_long(&u, 70, false);
    CHECK_EQ_U(nfs4_ops_pool_blocks(pool), 1);
    CHECK(u.ops_more == t.ops_more);
    CHECK_EQ_U(ns_txn_op(&t, 63), long_op(63));
    CHECK_EQ_U(ns_txn_op(&t, 64), UINT32_MAX);
    CHECK_EQ_U(ns_txn_op(&u, 69), long_op(69));
    nfs4_ops_pool_release(pool, &u);
    nfs4_ops_pool_free(pool);
    CHECK_EQ_U(mc.used[MEM_PENDING], 0);
}

static void test_past_max_ops_cut(void)
{
    struct memcap mc;
    memcap_init(&mc, 64u << 20);
    pool = nfs4_ops_pool_new(&mc);
    static struct ns_txn t;
    memset(&t, 0, sizeof t);
    t.id = 1;
    t.kind = NS_TXN_NFS4;
    decode_long(&t, NS_MAX_OPS + 10, false);
    CHECK_EQ_U(ns_txn_nops(&t), NS_MAX_OPS);
    CHECK(t.u.v4.call.ops_cut);
    CHECK_EQ_U(t.u.v4.call.nops_walked, NS_MAX_OPS + 10);
    CHECK_EQ_U(ns_txn_op(&t, NS_MAX_OPS - 1), long_op(NS_MAX_OPS - 1));
    /* exactly NS_MAX_OPS: all kept, not cut */
    nfs4_ops_pool_release(pool, &t);
    t.id = 2;
    decode_long(&t, NS_MAX_OPS, false);
    CHECK_EQ_U(ns_txn_nops(&t), NS_MAX_OPS);
    CHECK(!t.u.v4.call.ops_cut);
    nfs4_ops_pool_free(pool);
}

/* The pool is bounded: past NFS4_OPS_POOL_BLOCKS live blocks (or the memory
 * cap) a long list is cut at NS_OPS_INLINE, refused and counted. */
static void test_pool_bounded(void)
{
    struct memcap mc;
    memcap_init(&mc, 64u << 20);
    pool = nfs4_ops_pool_new(&mc);
    static struct ns_txn t[NFS4_OPS_POOL_BLOCKS + 1];
    memset(t, 0, sizeof t);
    for (uint32_t i = 0; i <= NFS4_OPS_POOL_BLOCKS; i++) {
        t[i].id = i + 1;
        t[i].kind = NS_TXN_NFS4;
        decode_long(&t[i], 65, false);
    }
    CHECK_EQ_U(nfs4_ops_pool_blocks(pool), NFS4_OPS_POOL_BLOCKS);
    CHECK_EQ_U(nfs4_ops_pool_refused(pool), 1);
    CHECK_EQ_U(ns_txn_nops(&t[NFS4_OPS_POOL_BLOCKS]), NS_OPS_INLINE);
    CHECK(t[NFS4_OPS_POOL_BLOCKS].u.v4.call.ops_cut);
    CHECK_EQ_U(ns_txn_nops(&t[0]), 65);
    nfs4_ops_pool_free(pool);
    /* a memory cap too small for one block */
    memcap_init(&mc, 1000);
    pool = nfs4_ops_pool_new(&mc);
    memset(&t[0], 0, sizeof t[0]);
    t[0].id = 1;
    t[0].kind = NS_TXN_NFS4;
    decode_long(&t[0], 65, false);
    CHECK_EQ_U(ns_txn_nops(&t[0]), NS_OPS_INLINE);
    CHECK(t[0].u.v4.call.ops_cut);
    CHECK_EQ_U(nfs4_ops_pool_refused(pool), 1);
    CHECK_EQ_U(mc.used[MEM_PENDING], 0);
    nfs4_ops_pool_free(pool);
}

int main(void)
{
    test_94_ops_kept();
    test_past_max_ops_cut();
    test_pool_bounded();
    test_every_op_call();
    test_every_op_reply();
    test_every_cb_op();
    test_unknown_op();
    test_truncation();
    test_huge_counts();
    test_write_hole();
    test_mutations();
    return check_done("test_nfs4_walk");
}
