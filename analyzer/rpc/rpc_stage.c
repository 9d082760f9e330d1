/* One RPC message from a flow: a call opens a transaction, a reply completes
 * it. Connection ids, server side and backchannel are decided here. */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analyzer_int.h"
#include "nfs_dispatch.h"
#include "rpc_msg.h"
#include "stats_int.h"

#define PORT_NFS 2049
#define PORT_PORTMAP 111
/* UDP transactions stay findable this long after their reply, so duplicate
 * replies and late retransmissions are counted on them, not as orphans. */
#define UDP_LINGER_NS (5ll * 1000000000ll)

static bool server_port(uint16_t p) { return p == PORT_NFS || p == PORT_PORTMAP; }

/* Decide which side is the server if not known yet. */
static void decide_server(struct flow *f, int sender, bool is_call)
{
    if (f->server >= 0) return;
    bool s0 = server_port(f->key.port[0]), s1 = server_port(f->key.port[1]);
    if (s0 != s1) f->server = s0 ? 0 : 1;
    else f->server = (int8_t)(is_call ? sender ^ 1 : sender);
}

/* The connection record of a flow, created on its first RPC message. */
static struct ns_conn *flow_conn(struct ns_analyzer *a, struct flow *f)
{
    if (f->conn_id) return &a->conns[f->conn_id - 1];
    if (a->nconns == a->conns_cap) {
        uint32_t ncap = a->conns_cap ? a->conns_cap * 2 : 64;
        size_t grow = (size_t)(ncap - a->conns_cap) * sizeof(struct ns_conn);
        struct ns_conn *nc = NULL;
        if (memcap_take(&a->mc, MEM_FLOWS, grow)) {
            nc = realloc(a->conns, (size_t)ncap * sizeof *nc);
            if (!nc) memcap_give(&a->mc, MEM_FLOWS, grow);
        }
        if (!nc) { a->conns_over_cap++; return NULL; }
        a->conns = nc;
        a->conns_cap = ncap;
    }
    struct ns_conn *c = &a->conns[a->nconns++];
    memset(c, 0, sizeof *c);
    c->id = a->nconns;
    c->transport = f->key.proto;
    flow_endpoint(&f->key, f->server ^ 1, &c->client);
    flow_endpoint(&f->key, f->server, &c->server);
    c->first_ts_ns = c->last_ts_ns = a->now;
    c->mid_stream = f->mid_stream;
    f->conn_id = c->id;
    f->rpc = FLOW_RPC_YES;
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
        int s = f->server;
        h = 1469598103934665603ULL;
        const uint8_t *parts[2] = {f->key.addr[s ^ 1], f->key.addr[s]};
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < 16; i++) h = (h ^ parts[k][i]) * 1099511628211ULL;
        h = (h ^ f->key.port[s]) * 1099511628211ULL;
        h = (h << 2) | 4;
    }
    return h | (backchannel ? 1 : 0);
}

static void on_call(struct ns_analyzer *a, struct flow *f, struct ns_conn *c, int side, struct rpc_hdr *h,
                    const struct ns_msg *m, bool truncated)
{
    bool bc = side == f->server;
    uint64_t scope = scope_of(f, c->id, bc);
    a->st.rpc_calls++;
    c->calls++;
    if (bc) { c->backchannel_calls++; a->st.rpc_backchannel_calls++; }
    struct ns_txn *t = txn_find(a->txns, scope, h->xid);
    if (t && t->call_frame && (t->prog != h->prog || t->vers != h->vers || t->proc != h->proc)) {
        /* The XID is reused for another call, not resent: the old call is
         * superseded (handed out as it stands) and a new transaction starts. */
        txn_forget(a->txns, t);
        a->st.rpc_xid_reused++;
        t = NULL;
    }
    if (t && t->call_frame) {
        if (t->sends < NS_TXN_SENDS_KEPT) {
            t->send_ts_ns[t->sends] = a->now;
            t->send_frame[t->sends] = a->frame;
        }
        if (t->sends < UINT16_MAX) t->sends++;
        t->prev_send_ts_ns = t->last_send_ts_ns;
        t->last_send_ts_ns = a->now;
        a->st.rpc_retransmissions++;
        analysis_on_retransmit(a, t, c);
        return;
    }
    t = txn_new_call(a->txns, scope, h->xid);
    if (!t) return;
    t->call_frame = a->frame;
    t->call_ts_ns = t->last_send_ts_ns = t->send_ts_ns[0] = a->now;
    t->send_frame[0] = a->frame;
    t->conn_id = c->id;
    t->prog = h->prog;
    t->vers = h->vers;
    t->proc = h->proc;
    t->auth_flavor = h->cred_flavor;
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
            a->st.rpc_gss_privacy++;
            opaque = true;
        } else if (!rpc_unwrap_gss(h, h->gss_service)) {
            t->call_undecoded = true;
            a->st.decode_invalid++;
            opaque = true;
        }
        if (opaque) {
            analysis_on_call(a, t, c);
            return;
        }
    }
    nfs_decode_call(t, &h->body, &a->st);
    if (t->kind == NS_TXN_NFS3) c->nfs_versions |= NS_VERS_BIT(3, 0);
    if (t->kind == NS_TXN_NFS4 && t->proc == 1) c->nfs_versions |= NS_VERS_BIT(4, t->u.v4.call.minor);
    analysis_on_call(a, t, c);
}

static void reply_stats(struct ns_analyzer *a, const struct ns_txn *t)
{
    if (t->reply_stat == NS_REPLY_DENIED) a->st.rpc_denied++;
    else if (t->rpc_status != NS_RPC_SUCCESS) a->st.rpc_not_success++;
    if (!t->call_frame) return;
    uint32_t key = nfs_txn_opkey(t);
    struct ns_op_stats *o = key == UINT32_MAX ? NULL : stats_op(&a->st, key);
    if (o) {
        o->count++;
        o->replies++;
        if (t->has_status && t->status != 0) o->errors++;
        int64_t lat = t->reply_ts_ns - t->call_ts_ns;
        ns_latency_add(&o->latency, lat > 0 ? (uint64_t)lat : 0);
    }
    if (t->has_status && (t->kind == NS_TXN_NFS3 || t->kind == NS_TXN_NFS4 || t->kind == NS_TXN_NFS4_CB))
        stats_status(&a->st, t->kind == NS_TXN_NFS3 ? 3 : 4, t->status);
}

static void on_reply(struct ns_analyzer *a, struct flow *f, struct ns_conn *c, int side, struct rpc_hdr *h,
                     const struct ns_msg *m, bool truncated)
{
    bool bc = side != f->server; /* a reply from the client answers a callback */
    uint64_t scope = scope_of(f, c->id, bc);
    a->st.rpc_replies++;
    c->replies++;
    struct ns_txn *t = txn_find(a->txns, scope, h->xid);
    if (t && t->reply_frame) {
        t->dup_replies++;
        a->st.rpc_dup_replies++;
        analysis_on_reply(a, t, c, true);
        return;
    }
    bool orphan = !t;
    if (orphan) {
        t = txn_new_done(a->txns);
        if (!t) return;
        a->st.rpc_orphan_replies++;
        t->xid = h->xid;
        t->conn_id = c->id;
        t->backchannel = bc;
    }
    t->reply_frame = a->frame;
    t->reply_ts_ns = a->now;
    t->reply_bytes = m->len;
    t->reply_truncated = truncated;
    t->reply_stat = h->reply_stat == 0 ? NS_REPLY_ACCEPTED : NS_REPLY_DENIED;
    t->rpc_status = h->stat;
    if (!orphan && h->reply_stat == 0 && h->stat == 0) {
        bool decodable = true;
        if (t->auth_flavor == AUTH_RPCSEC_GSS) {
            if (t->gss_proc != RPCSEC_GSS_DATA) decodable = false;
            else if (!rpc_unwrap_gss(h, t->gss_service)) { decodable = false; t->reply_undecoded = true; }
        }
        if (decodable) nfs_decode_reply(t, &h->body, &a->st);
    }
    reply_stats(a, t);
    analysis_on_reply(a, t, c, false);
    if (!orphan) txn_mark_done(a->txns, t, a->now, f->key.proto == 17 ? UDP_LINGER_NS : 0);
    txn_flush(a->txns, a->now, a->cfg.call_timeout_ns);
}

void rpc_on_message(struct ns_analyzer *a, struct flow *f, int side, const struct ns_msg *m, bool truncated)
{
    struct rpc_hdr h;
    if (rpc_parse_header(m, &h) < 0) {
        if (h.body.err == XDR_ERR_TRUNC) a->st.decode_truncated++;
        else a->st.decode_invalid++;
        return;
    }
    bool is_call = h.msgtype == RPC_CALL;
    decide_server(f, side, is_call);
    struct ns_conn *c = flow_conn(a, f);
    if (!c) return;
    c->last_ts_ns = a->now;
    if (is_call) on_call(a, f, c, side, &h, m, truncated);
    else on_reply(a, f, c, side, &h, m, truncated);
}

bool rpc_plausible(struct ns_analyzer *a, struct flow *f, int side, const uint8_t *p, uint32_t n, uint32_t len)
{
    bool is_reply;
    uint32_t xid;
    if (!rpc_looks_like(p, n, len, &is_reply, &xid)) return false;
    if (!is_reply) return true;
    /* Once the connection is known, a reply is only believed if its call is
     * outstanding: reply-shaped words occur inside calls (program numbers).
     * Before that (picked up mid-stream), a reply from the server port is. */
    if (f->conn_id) {
        bool bc = f->server >= 0 && side != f->server;
        return txn_find(a->txns, scope_of(f, f->conn_id, bc), xid) != NULL;
    }
    return server_port(f->key.port[side]);
}
