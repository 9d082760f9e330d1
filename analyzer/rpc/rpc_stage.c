/* The RPC stage: a call opens a transaction, a reply completes it.
 * Connection ids, the server side and the backchannel are decided here. */
#include "rpc_stage.h"

#include <stdlib.h>
#include <string.h>

#include "nfs_dispatch.h"
#include "op_stats.h"
#include "rpc_msg.h"
#include "conn_table.h"
#include "rpc_skip.h"
#include "txn_table.h"
#include "txn_internal.h"

#define PORT_NFS 2049
#define PORT_PORTMAP 111
/* UDP transactions stay findable this long after their reply, so duplicate
 * replies and late retransmissions are counted on them, not as orphans. */
#define UDP_LINGER_NS (5ll * 1000000000ll)

struct rpc_stage {
    struct memcap *mc;
    struct ns_stats *st;
    struct rpc_sink sink;
    int64_t call_timeout_ns;
    struct txn_table *txns;
    struct nfs4_ops_pool *ops_pool; /* COMPOUND operations past NS_OPS_INLINE */
    uint64_t next_txn_id;
    struct conn_table *conns;
    uint64_t conns_over_cap;
};

static void on_txn_done(void *ctx, struct ns_txn *t, bool given_up)
{
    struct rpc_stage *r = ctx;
    if (given_up && t->call_frame && !t->reply_frame) {
        if (t->verdict == NS_VERDICT_EVICTED_WAITING) {
            /* still waiting when memory ran short: outstanding, not unanswered;
             * a tombstone lets its reply be known as a late one */
            r->st->rpc_calls_outstanding_evicted++;
            txn_tomb_put(r->txns, t, nfs_txn_opkey(t));
        } else {
            r->st->rpc_unmatched_calls++;
            if (t->verdict == NS_VERDICT_TIMED_OUT) r->st->rpc_calls_timed_out++;
        }
    }
    r->st->txns++;
    if (r->sink.on_done) r->sink.on_done(r->sink.ctx, t, given_up);
    nfs4_ops_pool_release(r->ops_pool, t);
    conn_table_txn_end(r->conns, t->conn_id); /* after the sink: the record lives through it */
}

struct rpc_stage *rpc_stage_new(struct memcap *mc, struct ns_stats *st, const struct rpc_sink *sink,
                                int64_t call_timeout_ns)
{
    struct rpc_stage *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->mc = mc;
    r->st = st;
    if (sink) r->sink = *sink;
    r->call_timeout_ns = call_timeout_ns;
    r->txns = txn_table_new(mc, on_txn_done, r);
    if (r->txns) txn_table_set_call_order(r->txns, !r->sink.completion_order);
    r->conns = conn_table_new(mc);
    r->ops_pool = nfs4_ops_pool_new(mc);
    if (!r->txns || !r->conns || !r->ops_pool) {
        txn_table_free(r->txns);
        conn_table_free(r->conns);
        nfs4_ops_pool_free(r->ops_pool);
        free(r);
        return NULL;
    }
    return r;
}

void rpc_stage_set_hash_seed(struct rpc_stage *r, uint64_t seed) { txn_table_set_seed(r->txns, seed); }

void rpc_stage_free(struct rpc_stage *r)
{
    if (!r) return;
    txn_table_free(r->txns);
    conn_table_free(r->conns);
    nfs4_ops_pool_free(r->ops_pool);
    free(r);
}

uint32_t rpc_stage_conn_count(const struct rpc_stage *r) { return conn_table_last_id(r->conns); }
struct ns_conn *rpc_stage_conn(const struct rpc_stage *r, uint32_t id) { return conn_table_get(r->conns, id); }
bool rpc_stage_conn_tcp(const struct rpc_stage *r, uint32_t id, struct ns_conn_tcp *out)
{
    return conn_table_tcp_get(r->conns, id, out);
}
void rpc_stage_conn_tcp_add(struct rpc_stage *r, uint32_t id, uint64_t retrans, uint64_t ooo)
{
    conn_table_tcp_add(r->conns, id, retrans, ooo);
}
void rpc_stage_flow_gone(struct rpc_stage *r, const struct flow *f)
{
    if (f->rpc.conn_id) conn_table_flow_gone(r->conns, f->rpc.conn_id);
}

void rpc_stage_flow_reused(struct rpc_stage *r, struct flow *f)
{
    rpc_stage_flow_gone(r, f);
    f->rpc = (struct flow_rpc){0};
}

uint64_t rpc_stage_conns_dropped(const struct rpc_stage *r) { return conn_table_dropped(r->conns); }
const struct ns_conn *rpc_stage_conns_dropped_sum(const struct rpc_stage *r) { return conn_table_dropped_sum(r->conns); }
uint32_t rpc_stage_conns_kept(const struct rpc_stage *r) { return conn_table_kept(r->conns); }

uint64_t rpc_stage_conns_over_cap(const struct rpc_stage *r) { return r->conns_over_cap; }
uint64_t rpc_stage_evicted_calls(const struct rpc_stage *r) { return txn_evicted(r->txns); }
uint32_t rpc_stage_outstanding(const struct rpc_stage *r) { return txn_outstanding(r->txns); }

void rpc_stage_flush(struct rpc_stage *r, int64_t now_ns, int64_t timeout_ns)
{
    txn_flush(r->txns, now_ns, timeout_ns ? timeout_ns : r->call_timeout_ns);
}

static bool server_port(uint16_t p) { return p == PORT_NFS || p == PORT_PORTMAP; }

/* The side of the server: known, else decided by the ports (NFS, portmap)
 * or by who sent this message (a call goes to the server). */
static int server_side(const struct flow *f, int sender, bool is_call)
{
    if (flow_server(f) >= 0) return flow_server(f);
    bool s0 = server_port(f->key.port[0]), s1 = server_port(f->key.port[1]);
    if (s0 != s1) return s0 ? 0 : 1;
    return is_call ? sender ^ 1 : sender;
}

/* Decide which side is the server if not known yet. */
static void decide_server(struct flow *f, int sender, bool is_call)
{
    if (!f->rpc.server1) f->rpc.server1 = (uint8_t)(server_side(f, sender, is_call) + 1);
}

/* The connection record of a flow, created on its first RPC message. */
static struct ns_conn *flow_conn(struct rpc_stage *r, struct flow *f, int64_t now)
{
    if (f->rpc.conn_id) return rpc_stage_conn(r, f->rpc.conn_id);
    struct ns_conn *c = conn_table_add(r->conns);
    if (!c) { r->conns_over_cap++; return NULL; }
    c->transport = f->key.proto;
    flow_endpoint(&f->key, flow_server(f) ^ 1, &c->client);
    flow_endpoint(&f->key, flow_server(f), &c->server);
    c->first_ts_ns = c->last_ts_ns = now;
    c->mid_stream = f->tcp_conn.mid_stream;
    f->rpc.conn_id = c->id;
    return c;
}

/* Matching scope: a TCP connection, or for UDP the (client address, server
 * address, server port) triple, so a client that changes its source port
 * still matches (as tshark does). Bit 0 tells the backchannel apart. */
static uint64_t scope_of(const struct flow *f, uint32_t conn_id, bool backchannel)
{
    uint64_t h;
    if (f->key.proto == 6) {
        h = (uint64_t)conn_id << 8 | 2;
    } else {
        int s = flow_server(f);
        h = 1469598103934665603ULL;
        const uint8_t *parts[2] = {f->key.addr[s ^ 1], f->key.addr[s]};
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < 16; i++) h = (h ^ parts[k][i]) * 1099511628211ULL;
        h = (h ^ f->key.port[s]) * 1099511628211ULL;
        h = (h << 2) | 4;
    }
    return h | (backchannel ? 1 : 0);
}

static void tell_call(struct rpc_stage *r, struct ns_txn *t, const struct ns_conn *c, const struct rpc_at *at)
{
    if (r->sink.on_call) r->sink.on_call(r->sink.ctx, t, c, at);
}

/* Who sent the call, for the per-user table: AUTH_SYS uid/gid or the
 * RPCSEC_GSS context. */
static void txn_cred_set(struct ns_txn *t, const struct rpc_hdr *h)
{
    struct txn_internal *in = txn_internal(t);
    if (h->has_unix) {
        in->cred = TXN_CRED_SYS;
        in->uid = h->uid;
        in->gid = h->gid;
    } else if (h->cred_flavor == AUTH_RPCSEC_GSS && h->gss_handle_len) {
        in->cred = TXN_CRED_GSS;
        in->gss_handle_len = h->gss_handle_len;
        memcpy(in->gss_handle, h->gss_handle, h->gss_handle_len);
    } else if (h->cred_flavor != AUTH_SYS && h->cred_flavor != AUTH_RPCSEC_GSS) {
        in->cred = TXN_CRED_OTHER; /* AUTH_NONE and the rest: one row */
    } /* else a credential that did not parse: whose is unknown */
}

static void on_call(struct rpc_stage *r, struct flow *f, struct ns_conn *c, int side, struct rpc_hdr *h,
                    const struct ns_msg *m, bool truncated, const struct rpc_at *at)
{
    bool bc = side == flow_server(f);
    uint64_t scope = scope_of(f, c->id, bc);
    r->st->rpc_calls++;
    c->calls++;
    if (bc) { c->backchannel_calls++; r->st->rpc_backchannel_calls++; }
    struct ns_txn *t = txn_find(r->txns, scope, h->xid);
    if (t && t->call_frame && (t->prog != h->prog || t->vers != h->vers || t->proc != h->proc)) {
        /* The XID is reused for another call, not resent: the old call is
         * superseded (handed out as it stands) and a new transaction starts. */
        txn_forget(r->txns, t);
        r->st->rpc_xid_reused++;
        t = NULL;
    }
    if (t && t->call_frame) {
        if (t->sends < NS_TXN_SENDS_KEPT) {
            t->send_ts_ns[t->sends] = at->ts;
            t->send_frame[t->sends] = at->frame;
        }
        if (t->sends < UINT16_MAX) t->sends++;
        t->prev_send_ts_ns = t->last_send_ts_ns;
        t->last_send_ts_ns = at->ts;
        r->st->rpc_retransmissions++;
        txn_resent(r->txns, t);
        if (r->sink.on_resend) r->sink.on_resend(r->sink.ctx, t, c, at);
        return;
    }
    t = txn_new_call(r->txns, scope, h->xid, at->ts);
    if (!t) return;
    conn_table_txn_start(r->conns, c->id);
    t->id = ++r->next_txn_id;
    t->call_frame = at->frame;
    t->call_ts_ns = t->last_send_ts_ns = t->send_ts_ns[0] = at->ts;
    t->send_frame[0] = at->frame;
    t->conn_id = c->id;
    t->prog = h->prog;
    t->vers = h->vers;
    t->proc = h->proc;
    t->auth_flavor = h->cred_flavor;
    txn_cred_set(t, h);
    t->backchannel = bc;
    t->call_bytes = m->len;
    t->sends = 1;
    t->call_truncated = truncated;
    if (h->cred_flavor == AUTH_RPCSEC_GSS) {
        t->gss_proc = (uint8_t)(h->gss_proc < 255 ? h->gss_proc : 255);
        t->gss_service = (uint8_t)(h->gss_service <= 3 ? h->gss_service : 0);
        bool opaque = false;
        if (h->gss_proc != RPCSEC_GSS_DATA) {
            opaque = true; /* context setup: tokens, not NFS */
        } else if (h->gss_service == 3) {
            t->call_undecoded = true;
            r->st->rpc_gss_privacy++;
            opaque = true;
        } else if (!rpc_unwrap_gss(h, h->gss_service)) {
            t->call_undecoded = true;
            r->st->decode_invalid++;
            opaque = true;
        }
        if (opaque) {
            tell_call(r, t, c, at);
            return;
        }
    }
    if (h->prog == 100003 && h->vers == 2) r->st->nfs2_calls++; /* NFSv2 is named, not decoded */
    nfs_decode_call(t, &h->body, r->st, r->mc, r->ops_pool, r->sink.names);
    if (t->kind == NS_TXN_NFS3) c->nfs_versions |= NS_VERS_BIT(3, 0);
    if (t->kind == NS_TXN_NFS4 && t->proc == 1) c->nfs_versions |= NS_VERS_BIT(4, t->u.v4.call.minor);
    tell_call(r, t, c, at);
}

/* A call whose header the snaplen cut: a transaction with what was
 * captured of prog/vers/proc and the credential's flavor, no argument
 * decoded (a resend of a known call is a resend, as for a whole header).
 * With prog, vers, proc and a flavor that does not wrap the results
 * (anything but RPCSEC_GSS) captured, the reply decodes as for a whole call:
 * its status, an NFSv4 reply's operations (then named from the reply). */
static void on_call_cut(struct rpc_stage *r, struct flow *f, struct ns_conn *c, int side, const struct rpc_hdr *h,
                        const struct ns_msg *m, const struct rpc_at *at)
{
    bool bc = side == flow_server(f);
    uint64_t scope = scope_of(f, c->id, bc);
    struct ns_txn *t = txn_find(r->txns, scope, h->xid);
    if (t && t->call_frame) return; /* a cut copy of a call already seen */
    r->st->rpc_calls++;
    c->calls++;
    if (bc) { c->backchannel_calls++; r->st->rpc_backchannel_calls++; }
    t = txn_new_call(r->txns, scope, h->xid, at->ts);
    if (!t) return;
    conn_table_txn_start(r->conns, c->id);
    t->id = ++r->next_txn_id;
    t->call_frame = t->send_frame[0] = at->frame;
    t->call_ts_ns = t->last_send_ts_ns = t->send_ts_ns[0] = at->ts;
    t->conn_id = c->id;
    t->backchannel = bc;
    t->call_bytes = m->len;
    t->sends = 1;
    t->call_truncated = t->call_undecoded = t->call_header_cut = true;
    t->prog_known = h->call_words >= 2;
    t->vers_known = h->call_words >= 3;
    t->proc_known = h->call_words >= 4;
    t->prog = t->prog_known ? h->prog : 0;
    t->vers = t->vers_known ? h->vers : 0;
    t->proc = t->proc_known ? h->proc : 0;
    t->auth_known = h->call_words >= 5;
    t->auth_flavor = t->auth_known ? h->cred_flavor : 0;
    t->kind = NS_TXN_OTHER; /* no decoder: no operation, no status */
    if (t->proc_known && t->auth_known && h->cred_flavor != AUTH_RPCSEC_GSS) t->kind = nfs_call_kind(t);
    /* The flavor cut too (-s 96: 30 bytes of payload end inside it): the
     * procedure still names the operation, as tshark names it (a COMPOUND's
     * operations are not known: it stays unnamed); the reply is decoded
     * unless its verifier shows RPCSEC_GSS (results wrapped). */
    if (t->proc_known && !t->auth_known && !t->backchannel && (t->prog != 100003 || t->vers != 4 || t->proc == 0))
        t->kind = nfs_call_kind(t);
    if (t->kind == NS_TXN_NFS3) {
        c->nfs_versions |= NS_VERS_BIT(3, 0);
        r->st->nfs_versions |= NS_VERS_BIT(3, 0);
    }
    tell_call(r, t, c, at);
}

/* key: the operation key of the call (a late reply's, kept in its tombstone) */
static void reply_stats(struct rpc_stage *r, const struct ns_txn *t, uint32_t key)
{
    if (t->reply_stat == NS_REPLY_DENIED) r->st->rpc_denied++;
    else if (t->rpc_status != NS_RPC_SUCCESS) r->st->rpc_not_success++;
    if (!t->call_frame) return;
    op_stats_reply(r->st, r->mc, t, key);
}

static void tell_reply(struct rpc_stage *r, struct ns_txn *t, const struct ns_conn *c, bool dup, bool orphan,
                       const struct rpc_at *at)
{
    if (r->sink.on_reply) r->sink.on_reply(r->sink.ctx, t, c, dup, orphan, at);
}

/* A COMPOUND whose call was cut before its last operations: the reply's
 * results name them (each result carries its opcode), so ops and op_status
 * stay the same length; ops_from_reply says how many were not seen. They
 * count as occurrences in COMPOUNDs, as the call's own operations did.
 * Out of line: rare, and kept out of every reply's path. */
static __attribute__((noinline)) void name_ops_from_reply(struct rpc_stage *r, struct ns_txn *t)
{
    uint32_t seen = ns_txn_nops(t);
    t->ops_from_reply = nfs4_ops_from_reply(r->ops_pool, t);
    op_stats_in_compound(r->st, r->mc, t, seen, seen + t->ops_from_reply);
}

static void ops_from_reply(struct rpc_stage *r, struct ns_txn *t)
{
    if (t->kind != NS_TXN_NFS4 && t->kind != NS_TXN_NFS4_CB) return;
    if (t->proc != 1 || !t->call_truncated) return;
    name_ops_from_reply(r, t);
}

static void on_reply(struct rpc_stage *r, struct flow *f, struct ns_conn *c, int side, struct rpc_hdr *h,
                     const struct ns_msg *m, bool truncated, const struct rpc_at *at)
{
    bool bc = side != flow_server(f); /* a reply from the client answers a callback */
    uint64_t scope = scope_of(f, c->id, bc);
    r->st->rpc_replies++;
    c->replies++;
    struct ns_txn *t = txn_find(r->txns, scope, h->xid);
    if (t && t->reply_frame) {
        t->dup_replies++;
        r->st->rpc_dup_replies++;
        tell_reply(r, t, c, true, false, at);
        return;
    }
    /* No call waiting: the late reply of a call evicted while it waited
     * (within the call timeout), or an orphan. */
    struct txn_tomb tb = {0};
    bool late = !t && txn_tomb_find(r->txns, scope, h->xid, &tb, true) &&
                at->ts - tb.last_send_ts_ns <= r->call_timeout_ns;
    bool orphan = !t && !late;
    if (late) {
        t = txn_new_done(r->txns, at->ts);
        if (!t) return;
        conn_table_txn_start(r->conns, c->id);
        t->id = ++r->next_txn_id;
        r->st->rpc_late_replies++;
        t->late_reply = true;
        t->evicted_txn_id = tb.txn_id;
        t->xid = h->xid;
        t->conn_id = c->id;
        t->backchannel = tb.backchannel;
        t->call_frame = t->send_frame[0] = tb.call_frame;
        t->call_ts_ns = t->send_ts_ns[0] = tb.call_ts_ns;
        t->last_send_ts_ns = tb.last_send_ts_ns;
        t->sends = tb.sends;
        t->prog = tb.prog;
        t->vers = tb.vers;
        t->proc = tb.proc;
        t->kind = tb.kind;
        t->auth_flavor = tb.auth_flavor;
        t->gss_service = tb.gss_service;
        t->gss_proc = tb.gss_proc;
        t->call_truncated = tb.call_truncated;
        t->call_undecoded = true; /* its arguments were let go with it */
    } else if (orphan) {
        t = txn_new_done(r->txns, at->ts);
        if (!t) return;
        conn_table_txn_start(r->conns, c->id);
        t->id = ++r->next_txn_id;
        r->st->rpc_orphan_replies++;
        t->xid = h->xid;
        t->conn_id = c->id;
        t->backchannel = bc;
    }
    t->reply_frame = at->frame;
    t->reply_ts_ns = at->ts;
    t->reply_bytes = m->len;
    t->reply_truncated = truncated;
    t->reply_stat = h->reply_stat == 0 ? NS_REPLY_ACCEPTED : NS_REPLY_DENIED;
    t->rpc_status = h->stat;
    if (!orphan && h->reply_stat == 0 && h->stat == 0) {
        bool decodable = true;
        if (t->call_header_cut && !t->auth_known && h->verf_flavor == AUTH_RPCSEC_GSS) {
            decodable = false; /* the call's flavor was cut: the reply's verifier says GSS */
        } else if (t->auth_flavor == AUTH_RPCSEC_GSS) {
            if (t->gss_proc != RPCSEC_GSS_DATA) decodable = false;
            else if (!rpc_unwrap_gss(h, t->gss_service)) { decodable = false; t->reply_undecoded = true; }
        }
        if (decodable) nfs_decode_reply(t, &h->body, r->st, r->ops_pool, r->sink.names);
        if (!late) ops_from_reply(r, t);
        else if ((t->kind == NS_TXN_NFS4 || t->kind == NS_TXN_NFS4_CB) && t->proc == 1)
            t->ops_from_reply = nfs4_ops_from_reply(r->ops_pool, t); /* named, not counted again */
    }
    reply_stats(r, t, late ? tb.opkey : nfs_txn_opkey(t));
    tell_reply(r, t, c, false, orphan, at);
    /* UDP lingers, so duplicate replies and late resends still find it (an
     * orphan or a late reply is not matched: it goes at once) */
    txn_mark_done(r->txns, t, at->ts, f->key.proto == 17 && !orphan && !late ? UDP_LINGER_NS : 0);
    txn_flush(r->txns, at->ts, r->call_timeout_ns);
}

void rpc_stage_message(struct rpc_stage *r, struct flow *f, int side, const struct ns_msg *m, bool truncated,
                       const struct rpc_at *at)
{
    struct rpc_hdr h;
    if (rpc_parse_header(m, &h) < 0) {
        if (h.body.err == XDR_ERR_TRUNC) r->st->decode_truncated++;
        else r->st->decode_invalid++;
        /* A call whose XID and type were captured, cut later by the snaplen
         * (rpcvers, when captured, is 2): still a call, matched by XID. */
        if (h.body.err == XDR_ERR_TRUNC && h.msgtype == RPC_CALL && (h.call_words == 0 || h.rpcvers == 2)) {
            decide_server(f, side, true);
            struct ns_conn *c = flow_conn(r, f, at->ts);
            if (!c) return;
            c->last_ts_ns = at->ts;
            on_call_cut(r, f, c, side, &h, m, at);
        }
        return;
    }
    bool is_call = h.msgtype == RPC_CALL;
    decide_server(f, side, is_call);
    struct ns_conn *c = flow_conn(r, f, at->ts);
    if (!c) return;
    c->last_ts_ns = at->ts;
    if (is_call) on_call(r, f, c, side, &h, m, truncated, at);
    else on_reply(r, f, c, side, &h, m, truncated, at);
}

/* Programs, versions and procedures a call found by scanning may carry. */
static bool known_call(uint32_t prog, uint32_t vers, uint32_t proc, bool have_proc)
{
    uint32_t maxproc;
    switch (prog) {
    case 100003: maxproc = vers == 2 ? 17 : vers == 3 ? 21 : vers == 4 ? 1 : 0; break;       /* NFS */
    case 100005: maxproc = vers >= 1 && vers <= 3 ? 5 : 0; break;                          /* MOUNT */
    case 100000: maxproc = vers >= 2 && vers <= 4 ? 15 : 0; break;                         /* portmap/rpcbind */
    case 100021: maxproc = vers >= 1 && vers <= 4 ? 23 : 0; break;                         /* NLM */
    case 100024: maxproc = vers == 1 ? 6 : 0; break;                                       /* NSM */
    case 100227: maxproc = vers == 2 || vers == 3 ? 3 : 0; break;                          /* NFS_ACL */
    case 100011: maxproc = vers == 1 || vers == 2 ? 4 : 0; break;                          /* rquota */
    default:
        /* an NFSv4 callback program (client-chosen, transient range) */
        if (prog < 0x40000000u || prog > 0x7fffffffu || (vers != 1 && vers != 4)) return false;
        maxproc = 1;
        break;
    }
    if (!maxproc) return false;
    return !have_proc || proc <= maxproc;
}

bool rpc_stage_plausible(struct rpc_stage *r, const struct flow *f, int side, const uint8_t *p, uint32_t n,
                         uint32_t len, bool expected)
{
    struct xdr x;
    xdr_init_mem(&x, p, n);
    xdr_u32(&x); /* xid */
    uint32_t type = xdr_u32(&x), w2 = xdr_u32(&x);
    if (!xdr_ok(&x)) return false;
    if (expected) /* where a record must start: is it shaped like one? */
        return (type == RPC_CALL && w2 == 2) || (type == RPC_REPLY && w2 <= 1);
    bool is_reply;
    uint32_t xid;
    if (!rpc_looks_like(p, n, len, &is_reply, &xid)) return false;
    if (!is_reply) {
        uint32_t prog = xdr_u32(&x), vers = xdr_u32(&x), proc = xdr_u32(&x);
        bool have_proc = xdr_ok(&x);
        return known_call(prog, vers, proc, have_proc);
    }
    if (w2 == 0) { /* accepted: verifier, then accept_stat */
        xdr_u32(&x);
        uint32_t vlen = xdr_u32(&x);
        if (vlen == 0) {
            uint32_t accept = xdr_u32(&x);
            if (xdr_ok(&x) && accept > 5) return false;
        }
    }
    /* Once the connection is known and this direction has been in sync, a
     * reply is only believed if its call is outstanding: reply-shaped words
     * occur inside calls (program numbers). Before that (picked up
     * mid-stream: its call may have been before the capture), a reply from
     * the server (its port, or the side the connection's calls went to) is. */
    if (f->rpc.conn_id) {
        bool bc = flow_server(f) >= 0 && side != flow_server(f);
        if (txn_find(r->txns, scope_of(f, f->rpc.conn_id, bc), xid)) return true;
        if (f->rec[side].synced_once) return false;
        if (flow_server(f) >= 0 && side == flow_server(f)) return true;
    }
    return server_port(f->key.port[side]);
}

bool rpc_stage_skippable(struct rpc_stage *r, const struct flow *f, int side, const struct ns_msg *m)
{
    struct rpc_hdr h;
    if (rpc_parse_header(m, &h) < 0) return false;
    if (h.msgtype == RPC_CALL) {
        int server = server_side(f, side, true); /* as rpc_stage_message will decide */
        if (h.cred_flavor == AUTH_RPCSEC_GSS) {
            if (h.gss_proc != RPCSEC_GSS_DATA || h.gss_service == 3) return true; /* opaque: not decoded */
            if (!rpc_unwrap_gss(&h, h.gss_service)) return false;
        }
        return rpc_skip_call_ok(&h.body, side == server, h.prog, h.vers, h.proc);
    }
    if (!f->rpc.conn_id || flow_server(f) < 0) return true; /* no call known: an orphan, results not decoded */
    bool bc = side != flow_server(f);
    const struct ns_txn *t = txn_find(r->txns, scope_of(f, f->rpc.conn_id, bc), h.xid);
    if (!t && txn_tomb_find(r->txns, scope_of(f, f->rpc.conn_id, bc), h.xid, NULL, false))
        return false; /* the late reply of an evicted call: its results are decoded without the call's state */
    if (!t || t->reply_frame || h.reply_stat != 0 || h.stat != 0) return true; /* results not decoded */
    if (t->auth_flavor == AUTH_RPCSEC_GSS) {
        if (t->gss_proc != RPCSEC_GSS_DATA || t->gss_service == 3) return true;
        if (!rpc_unwrap_gss(&h, t->gss_service)) return false;
    }
    return rpc_skip_reply_ok(&h.body, t);
}
