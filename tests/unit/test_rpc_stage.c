/* The RPC stage on hand-made RPC messages: XID matching per connection and,
 * for UDP, per (client address, server address, server port); resends, XID
 * reuse, duplicate and orphan replies, the backchannel, giving up, and
 * connection records that never move. Expected values follow RFC 5531 and
 * the matching rules in rpc_stage.c's header, not the program's output. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rpc_stage.h"
#include "stats_int.h"
#include "xdr_build.h"

#define MS 1000000ll

struct seen {
    char kind;              /* 'C'all 'S'resend 'R'eply 'D'up 'O'rphan 'G'iven up 'H'anded out */
    uint64_t txn_id, frame;
    uint32_t xid, conn;
};

static struct seen log_[64];
static unsigned nlog;

static void note(char k, const struct ns_txn *t, uint64_t frame)
{
    if (nlog < 64) log_[nlog++] = (struct seen){k, t->id, frame, t->xid, t->conn_id};
}
static void s_call(void *c, struct ns_txn *t, const struct ns_conn *cn, const struct rpc_at *at)
{
    (void)c, (void)cn;
    note('C', t, at->frame);
}
static void s_resend(void *c, struct ns_txn *t, const struct ns_conn *cn, const struct rpc_at *at)
{
    (void)c, (void)cn;
    note('S', t, at->frame);
}
static struct ns_txn last_reply; /* the transaction as its reply left it */
static void s_reply(void *c, struct ns_txn *t, const struct ns_conn *cn, bool dup, bool orphan, const struct rpc_at *at)
{
    (void)c, (void)cn;
    note(dup ? 'D' : orphan ? 'O' : 'R', t, at->frame);
    last_reply = *t;
}
static void s_done(void *c, struct ns_txn *t, bool given_up)
{
    (void)c;
    note(given_up ? 'G' : 'H', t, 0);
}

static void call_msg(struct xb *b, uint32_t xid, uint32_t prog, uint32_t vers, uint32_t proc)
{
    xb_init(b);
    xb_u32(b, xid);
    xb_u32(b, 0); /* CALL */
    xb_u32(b, 2); /* RPC version */
    xb_u32(b, prog);
    xb_u32(b, vers);
    xb_u32(b, proc);
    xb_u32(b, 0); xb_u32(b, 0); /* AUTH_NONE credential */
    xb_u32(b, 0); xb_u32(b, 0); /* AUTH_NONE verifier */
}

static void reply_msg(struct xb *b, uint32_t xid)
{
    xb_init(b);
    xb_u32(b, xid);
    xb_u32(b, 1); /* REPLY */
    xb_u32(b, 0); /* MSG_ACCEPTED */
    xb_u32(b, 0); xb_u32(b, 0); /* verifier */
    xb_u32(b, 0); /* SUCCESS */
}

static void send(struct rpc_stage *r, struct flow *f, int side, const struct xb *b, uint64_t frame)
{
    struct ns_span sp = {b->buf, b->len};
    struct ns_msg m = {&sp, 1, b->len};
    struct rpc_at at = {frame, (int64_t)frame * MS};
    rpc_stage_message(r, f, side, &m, false, &at);
}

/* A flow between 10.0.0.1:port and 10.0.0.2:dport; *client_side tells the side index of 10.0.0.1. */
static void make_flow(struct flow *f, uint8_t proto, uint16_t port, uint16_t dport, int *client_side)
{
    memset(f, 0, sizeof *f);
    struct ns_addr c = {4, {10, 0, 0, 1}}, s = {4, {10, 0, 0, 2}};
    flow_key_make(&f->key, proto, &c, port, &s, dport, client_side); /* all else zero: a new flow */
}

static struct rpc_stage *stage(struct memcap *mc, struct ns_stats *st)
{
    struct rpc_sink sink = {NULL, s_call, s_resend, s_reply, s_done, false, NULL};
    memset(st, 0, sizeof *st);
    nlog = 0;
    return rpc_stage_new(mc, st, &sink, 10000 * MS);
}

static void test_tcp_matching(void)
{
    struct memcap mc;
    memcap_init(&mc, 64 << 20);
    struct ns_stats st;
    struct rpc_stage *r = stage(&mc, &st);
    struct flow f;
    int cs;
    make_flow(&f, 6, 900, 2049, &cs);
    struct xb b;
    call_msg(&b, 7, 100003, 3, 0);
    send(r, &f, cs, &b, 1);                 /* call */
    send(r, &f, cs, &b, 2);                 /* same XID, same procedure: resend */
    reply_msg(&b, 7);
    send(r, &f, cs ^ 1, &b, 3);             /* reply: on TCP the call is handed out at once */
    send(r, &f, cs ^ 1, &b, 4);             /* again: on TCP nothing lingers, an orphan */
    reply_msg(&b, 99);
    send(r, &f, cs ^ 1, &b, 5);             /* no such call: orphan */
    call_msg(&b, 8, 100003, 3, 0);
    send(r, &f, cs, &b, 6);                 /* never answered */
    call_msg(&b, 8, 100005, 3, 0);
    send(r, &f, cs, &b, 7);                 /* XID 8 reused for MOUNT: a new call */
    rpc_stage_flush(r, 8 * MS, -1);

    CHECK_EQ_U(flow_server(&f), cs ^ 1);   /* port 2049 is the server */
    CHECK_EQ_U(rpc_stage_conn_count(r), 1);
    const struct ns_conn *c = rpc_stage_conn(r, 1);
    CHECK(c && c->calls == 4 && c->replies == 3);
    CHECK_EQ_U(st.rpc_retransmissions, 1);
    CHECK_EQ_U(st.rpc_dup_replies, 0);
    CHECK_EQ_U(st.rpc_orphan_replies, 2);
    CHECK_EQ_U(st.rpc_xid_reused, 1);
    CHECK_EQ_U(st.rpc_unmatched_calls, 2);  /* the superseded NFS call and the MOUNT call */
    CHECK_EQ_U(st.txns, 5);
    /* txn 1 answered and handed out, orphans 2 and 3, txn 4 superseded by 5, both given up at the end */
    const char *want = "CSRHOHOHCCGG";
    char got[64] = {0};
    for (unsigned i = 0; i < nlog && i < 63; i++) got[i] = log_[i].kind;
    CHECK_EQ_S(got, want);
    static const uint64_t ids[] = {1, 1, 1, 1, 2, 2, 3, 3, 4, 5, 4, 5};
    for (unsigned i = 0; i < nlog && i < 12; i++) CHECK_EQ_U(log_[i].txn_id, ids[i]);
    rpc_stage_free(r);
    stats_free(&st, &mc);
    CHECK_EQ_U(mc.total_used, 0);
}

static void test_backchannel_scope(void)
{
    struct memcap mc;
    memcap_init(&mc, 64 << 20);
    struct ns_stats st;
    struct rpc_stage *r = stage(&mc, &st);
    struct flow f;
    int cs;
    make_flow(&f, 6, 900, 2049, &cs);
    struct xb b;
    call_msg(&b, 5, 100003, 4, 1);
    send(r, &f, cs, &b, 1);                 /* fore channel call, XID 5 */
    call_msg(&b, 5, 0x40000000, 1, 0);
    send(r, &f, cs ^ 1, &b, 2);             /* callback from the server, same XID */
    reply_msg(&b, 5);
    send(r, &f, cs, &b, 3);                 /* the client answers the callback */
    send(r, &f, cs ^ 1, &b, 4);             /* the server answers the call */
    CHECK_EQ_U(st.rpc_backchannel_calls, 1);
    CHECK_EQ_U(st.rpc_orphan_replies, 0);
    CHECK_EQ_U(st.rpc_retransmissions, 0);
    /* the callback's reply (frame 3) matched the callback (txn 2), frame 4 the call (txn 1) */
    bool ok3 = false, ok4 = false;
    for (unsigned i = 0; i < nlog; i++) {
        if (log_[i].kind == 'R' && log_[i].frame == 3) ok3 = log_[i].txn_id == 2;
        if (log_[i].kind == 'R' && log_[i].frame == 4) ok4 = log_[i].txn_id == 1;
    }
    CHECK(ok3 && ok4);
    rpc_stage_free(r);
    stats_free(&st, &mc);
}

static void test_udp_scope(void)
{
    struct memcap mc;
    memcap_init(&mc, 64 << 20);
    struct ns_stats st;
    struct rpc_stage *r = stage(&mc, &st);
    struct flow f1, f2;
    int c1, c2;
    make_flow(&f1, 17, 800, 2049, &c1);
    make_flow(&f2, 17, 801, 2049, &c2);     /* the client rebinds its source port */
    struct xb b;
    call_msg(&b, 42, 100003, 3, 0);
    send(r, &f1, c1, &b, 1);
    send(r, &f2, c2, &b, 2);                /* resend from the new port: same transaction */
    reply_msg(&b, 42);
    send(r, &f2, c2 ^ 1, &b, 3);
    send(r, &f1, c1 ^ 1, &b, 4);            /* answer to the first send: UDP calls linger, a duplicate */
    CHECK_EQ_U(rpc_stage_conn_count(r), 2); /* two flows, two connection records */
    CHECK_EQ_U(st.rpc_retransmissions, 1);
    CHECK_EQ_U(st.rpc_dup_replies, 1);
    char got[8] = {0};
    for (unsigned i = 0; i < nlog && i < 7; i++) got[i] = log_[i].kind;
    CHECK_EQ_S(got, "CSRD");                /* not handed out yet: it lingers 5 s */
    rpc_stage_flush(r, 10000 * MS, 0);
    CHECK(nlog == 5 && log_[4].kind == 'H');
    CHECK_EQ_U(st.rpc_orphan_replies, 0);
    CHECK_EQ_U(st.rpc_unmatched_calls, 0);
    rpc_stage_free(r);
    stats_free(&st, &mc);
}

static void test_conns_never_move(void)
{
    struct memcap mc;
    memcap_init(&mc, 256 << 20);
    struct ns_stats st;
    struct rpc_stage *r = stage(&mc, &st);
    static struct flow f[1000];
    struct xb b;
    call_msg(&b, 1, 100003, 3, 0);
    const struct ns_conn *first = NULL;
    for (unsigned i = 0; i < 1000; i++) {
        int cs;
        make_flow(&f[i], 6, (uint16_t)(1000 + i), 2049, &cs);
        send(r, &f[i], cs, &b, i + 1);
        if (i == 0) first = rpc_stage_conn(r, 1);
    }
    CHECK_EQ_U(rpc_stage_conn_count(r), 1000);
    CHECK(first == rpc_stage_conn(r, 1));   /* same address after 999 more */
    CHECK_EQ_U(rpc_stage_conn(r, 1000)->id, 1000);
    CHECK(rpc_stage_conn(r, 0) == NULL && rpc_stage_conn(r, 1001) == NULL);
    CHECK_EQ_U(f[999].rpc.conn_id, 1000);
    rpc_stage_free(r);
    stats_free(&st, &mc);
    CHECK_EQ_U(mc.total_used, 0);
}

static void test_conn_cap(void)
{
    struct memcap mc;
    memcap_init(&mc, 1 << 20);              /* flows pool: 20% of 1 MiB, a few chunks */
    struct ns_stats st;
    struct rpc_stage *r = stage(&mc, &st);
    static struct flow f[5000];
    struct xb b;
    call_msg(&b, 1, 100003, 3, 0);
    for (unsigned i = 0; i < 5000; i++) {
        int cs;
        make_flow(&f[i], 6, (uint16_t)(1000 + i), 2049, &cs);
        send(r, &f[i], cs, &b, i + 1);
    }
    CHECK(rpc_stage_conn_count(r) < 5000);
    CHECK_EQ_U(rpc_stage_conns_over_cap(r), 5000 - rpc_stage_conn_count(r));
    CHECK(mc.used[MEM_FLOWS] <= mc.cap[MEM_FLOWS]);
    rpc_stage_free(r);
    stats_free(&st, &mc);
    CHECK_EQ_U(mc.total_used, 0);
}

/* Short-lived connections: a record outlives its flow as a closed summary;
 * closed summaries are bounded, the oldest closed dropped first (counted and
 * added up), never a live one nor one with a call outstanding, so every
 * message on a new connection is still analysed. */
static void test_closed_conns_bounded(void)
{
    struct memcap mc;
    memcap_init(&mc, 1 << 20);              /* flows pool: 20% of 1 MiB, about 1400 records */
    struct ns_stats st;
    struct rpc_stage *r = stage(&mc, &st);
    static struct flow f[5000];
    struct xb b;
    for (unsigned i = 0; i < 5000; i++) {
        int cs;
        make_flow(&f[i], 6, (uint16_t)(1000 + i), 2049, &cs);
        call_msg(&b, i + 1, 100003, 3, 0);
        send(r, &f[i], cs, &b, i + 1);      /* under the 10 s call timeout throughout */
        reply_msg(&b, i + 1);
        send(r, &f[i], cs ^ 1, &b, i + 1);
        if (i == 0) continue;               /* c1 stays open */
        rpc_stage_flow_gone(r, &f[i]);
        rpc_stage_flow_gone(r, &f[i]);      /* twice is once */
    }
    CHECK_EQ_U(rpc_stage_conns_over_cap(r), 0); /* every connection got a record */
    CHECK_EQ_U(st.rpc_calls, 5000);
    CHECK_EQ_U(st.rpc_replies, 5000);
    CHECK_EQ_U(st.rpc_orphan_replies, 0);
    CHECK_EQ_U(rpc_stage_conn_count(r), 5000);
    uint64_t dropped = rpc_stage_conns_dropped(r);
    CHECK_EQ_U(dropped + rpc_stage_conns_kept(r), 5000);
    CHECK(dropped > 3000);
    CHECK(rpc_stage_conns_kept(r) < 1000);  /* closed ones use at most a quarter of the pool */
    CHECK(rpc_stage_conn(r, 1) != NULL);    /* open: kept */
    CHECK(rpc_stage_conn(r, 2) == NULL);    /* oldest closed: dropped */
    CHECK_EQ_U(rpc_stage_conn(r, 5000)->id, 5000); /* newest closed: kept */
    const struct ns_conn *sum = rpc_stage_conns_dropped_sum(r);
    CHECK_EQ_U(sum->calls, dropped);
    CHECK_EQ_U(sum->replies, dropped);
    CHECK_EQ_U(sum->first_ts_ns, 2 * MS);   /* c2's call, frame 2 */
    CHECK_EQ_U(sum->last_ts_ns, (int64_t)(dropped + 1) * MS);
    uint32_t kept_before = rpc_stage_conns_kept(r);
    /* ids are never reused: a new connection is c5001 */
    struct flow g;
    int cs;
    make_flow(&g, 6, 7000, 2049, &cs);
    call_msg(&b, 9999, 100003, 3, 0);
    send(r, &g, cs, &b, 6000);
    CHECK_EQ_U(g.rpc.conn_id, 5001);
    CHECK_EQ_U(rpc_stage_conns_kept(r), kept_before + 1);
    CHECK(mc.used[MEM_FLOWS] <= mc.cap[MEM_FLOWS]);
    rpc_stage_free(r);
    stats_free(&st, &mc);
    CHECK_EQ_U(mc.total_used, 0);
}

/* A call cut by the snaplen inside its header (captured: the first
 * `captured` bytes of an NFSv3 GETATTR with a 24-byte AUTH_SYS credential,
 * or RPCSEC_GSS's flavor number), answered NFS3ERR_STALE (RFC 1813: GETATTR3resfail
 * is the status alone). */
static void cut_call_then_reply(uint32_t flavor, uint32_t captured, uint32_t reply_verf)
{
    struct memcap mc;
    memcap_init(&mc, 64 << 20);
    struct ns_stats st;
    struct rpc_stage *r = stage(&mc, &st);
    struct flow f;
    int cs;
    make_flow(&f, 6, 900, 2049, &cs);
    struct xb b;
    xb_init(&b);
    xb_u32(&b, 0x51); xb_u32(&b, 0); xb_u32(&b, 2);
    xb_u32(&b, 100003); xb_u32(&b, 3); xb_u32(&b, 1);           /* NFSv3 GETATTR */
    xb_u32(&b, flavor); xb_u32(&b, 24);                         /* credential */
    for (int i = 0; i < 6; i++) xb_u32(&b, 0);
    xb_u32(&b, 0); xb_u32(&b, 0);                               /* verifier */
    xb_u32(&b, 8); xb_u32(&b, 1); xb_u32(&b, 2);                /* fhandle3, 8 bytes */
    struct ns_span sp[2] = {{b.buf, captured}, {NULL, b.len - captured}}; /* the rest: a hole */
    struct ns_msg m = {sp, 2, b.len};
    struct rpc_at at = {1, MS};
    rpc_stage_message(r, &f, cs, &m, true, &at);
    xb_init(&b);
    xb_u32(&b, 0x51); xb_u32(&b, 1); xb_u32(&b, 0);             /* REPLY, MSG_ACCEPTED */
    xb_u32(&b, reply_verf); xb_u32(&b, 0);                      /* verifier */
    xb_u32(&b, 0);                                              /* SUCCESS */
    xb_u32(&b, 70);                                             /* NFS3ERR_STALE */
    send(r, &f, cs ^ 1, &b, 2);
    CHECK_EQ_U(st.rpc_calls, 1);
    CHECK_EQ_U(st.rpc_orphan_replies, 0);
    CHECK(last_reply.call_header_cut);
    CHECK(last_reply.proc_known && last_reply.proc == 1);
    bool flavor_seen = captured >= 28;
    CHECK_EQ_U(last_reply.auth_known, flavor_seen);
    CHECK_EQ_U(last_reply.auth_flavor, flavor_seen ? flavor : 0);
    /* RPCSEC_GSS may wrap the results: the call's flavor tells, or when it
     * was cut (-s 96) the reply's verifier; the procedure is named either way */
    bool decoded = flavor_seen ? flavor != 6 : reply_verf != 6;
    CHECK_EQ_U(last_reply.kind, flavor_seen && flavor == 6 ? NS_TXN_OTHER : NS_TXN_NFS3);
    CHECK_EQ_U(st.nfs_versions & NS_VERS_BIT(3, 0), flavor_seen && flavor == 6 ? 0 : NS_VERS_BIT(3, 0));
    CHECK_EQ_U(last_reply.has_status, decoded);
    CHECK_EQ_U(last_reply.status, decoded ? 70 : 0);
    rpc_stage_free(r);
    stats_free(&st, &mc);
    CHECK_EQ_U(mc.total_used, 0);
}

static void test_cut_call_headers(void)
{
    cut_call_then_reply(1, 36, 0);  /* AUTH_SYS, cut inside the credential (-s 128 on Linux) */
    cut_call_then_reply(1, 28, 0);  /* flavor captured, its length not */
    cut_call_then_reply(1, 24, 0);  /* up to the procedure (-s 96): the flavor is not known, */
    cut_call_then_reply(1, 26, 0);  /* (2 bytes of it: 30 bytes of TCP payload) the reply decodes */
    cut_call_then_reply(1, 24, 6);  /* ... unless its verifier is RPCSEC_GSS: matched, not decoded */
    cut_call_then_reply(6, 36, 6);  /* RPCSEC_GSS: matched, not decoded */
}

int main(void)
{
    test_cut_call_headers();
    test_tcp_matching();
    test_backchannel_scope();
    test_udp_scope();
    test_conns_never_move();
    test_conn_cap();
    test_closed_conns_bounded();
    return check_done("test_rpc_stage");
}
