/* NFSv4.1 client and session operations (RFC 8881 s.18.33-18.51):
 * EXCHANGE_ID, CREATE_SESSION, BIND_CONN_TO_SESSION, SEQUENCE, ... The first
 * of each in a COMPOUND fills the setup / seq fields of the call or reply. */
#include "nfs4_xdr_common.h"

#include <string.h>

enum { SP4_NONE = 0, SP4_MACH_CRED = 1, SP4_SSV = 2 };

/* state_protect_ops4: spo_must_enforce, spo_must_allow. */
static void state_protect_ops(struct xdr *x)
{
    nfs4x_bitmap(x, NULL, 0);
    nfs4x_bitmap(x, NULL, 0);
}

/* sec_oid4<> */
static void oid_list(struct xdr *x)
{
    uint32_t n = xdr_count(x, 4);
    for (uint32_t i = 0; i < n && xdr_ok(x); i++) xdr_skip_opaque(x, NFS4_NOLIMIT);
}

/* EXCHANGE_ID4args (s.18.35.1). */
static void exchange_id_args(struct xdr *x, struct nfs4_cctx *c)
{
    struct nfs4_setup_args *s = &c->out->setup;
    uint8_t verf[NFS4_VERIFIER_LEN], owner[NS_OWNER_MAX], kept;
    xdr_bytes(x, verf, sizeof verf);
    uint32_t wire = nfs4x_opaque_keep(x, owner, &kept, NS_OWNER_MAX, NFS4_OPAQUE_LIMIT);
    uint32_t flags = xdr_u32(x);
    uint32_t how = xdr_u32(x);
    switch (how) {
    case SP4_NONE:
        break;
    case SP4_MACH_CRED:
        state_protect_ops(x);
        break;
    case SP4_SSV: /* ssv_sp_parms4 */
        state_protect_ops(x);
        oid_list(x);     /* ssp_hash_algs */
        oid_list(x);     /* ssp_encr_algs */
        xdr_skip(x, 8);  /* ssp_window, ssp_num_gss_handles */
        break;
    default:
        xdr_fail(x, XDR_ERR_BAD);
    }
    nfs4x_impl_id_list(x);
    if (s->has_exchange_id || !xdr_ok(x)) return;
    s->has_exchange_id = true;
    memcpy(s->exchange_id.verifier, verf, sizeof verf);
    memcpy(s->exchange_id.owner, owner, kept);
    s->exchange_id.owner_len = kept;
    s->exchange_id.owner_wire_len = wire;
    s->exchange_id.flags = flags;
    s->exchange_id.state_protect = how;
}

static void create_session_args(struct xdr *x, struct nfs4_cctx *c)
{
    struct nfs4_setup_args *s = &c->out->setup;
    struct nfs4_setup_args tmp;
    tmp.create_session.clientid = xdr_u64(x);
    tmp.create_session.sequence = xdr_u32(x);
    tmp.create_session.flags = xdr_u32(x);
    nfs4x_chan_attrs(x, &tmp.create_session.fore);
    nfs4x_chan_attrs(x, &tmp.create_session.back);
    tmp.create_session.cb_program = xdr_u32(x);
    nfs4x_callback_sec_parms_list(x);
    if (s->has_create_session || !xdr_ok(x)) return;
    s->has_create_session = true;
    s->create_session = tmp.create_session;
}

static void bind_conn_args(struct xdr *x, struct nfs4_cctx *c)
{
    struct nfs4_bind_conn b;
    nfs4x_bind_conn(x, &b);
    if (c->out->setup.has_bind_conn || !xdr_ok(x)) return;
    c->out->setup.has_bind_conn = true;
    c->out->setup.bind_conn = b;
}

static void sequence_args(struct xdr *x, struct nfs4_cctx *c)
{
    struct nfs4_seq_args a;
    xdr_bytes(x, a.sessionid, sizeof a.sessionid);
    a.sequenceid = xdr_u32(x);
    a.slotid = xdr_u32(x);
    a.highest_slotid = xdr_u32(x);
    a.cachethis = xdr_bool(x);
    if (!xdr_ok(x)) return;
    if (c->index != 0) { /* out of place (RFC 8881 18.46.3): kept for the session analyzer */
        if (!c->out->has_seq && !c->out->seq_late) c->out->seq = a;
        c->out->seq_late = true;
        return;
    }
    c->out->has_seq = true;
    c->out->seq = a;
}

bool nfs4_args_session(struct xdr *x, uint32_t op, struct nfs4_cctx *c)
{
    struct nfs4_setup_args *s = &c->out->setup;
    switch (op) {
    case NFS4_OP_BACKCHANNEL_CTL:
        xdr_u32(x); /* bca_cb_program */
        nfs4x_callback_sec_parms_list(x);
        break;
    case NFS4_OP_BIND_CONN_TO_SESSION:
        bind_conn_args(x, c);
        break;
    case NFS4_OP_EXCHANGE_ID:
        exchange_id_args(x, c);
        break;
    case NFS4_OP_CREATE_SESSION:
        create_session_args(x, c);
        break;
    case NFS4_OP_DESTROY_SESSION: {
        uint8_t sid[NS_SESSIONID_LEN];
        xdr_bytes(x, sid, sizeof sid);
        if (!s->has_destroy_session && xdr_ok(x)) {
            s->has_destroy_session = true;
            memcpy(s->destroy_session_id, sid, sizeof sid);
        }
        break;
    }
    case NFS4_OP_SEQUENCE:
        sequence_args(x, c);
        break;
    case NFS4_OP_SET_SSV:
        xdr_skip_opaque(x, NFS4_NOLIMIT); /* ssa_ssv */
        xdr_skip_opaque(x, NFS4_NOLIMIT); /* ssa_digest */
        break;
    case NFS4_OP_DESTROY_CLIENTID: {
        uint64_t id = xdr_u64(x);
        if (!s->has_destroy_clientid && xdr_ok(x)) {
            s->has_destroy_clientid = true;
            s->destroy_clientid = id;
        }
        break;
    }
    case NFS4_OP_RECLAIM_COMPLETE: {
        bool one_fs = xdr_bool(x);
        if (!s->has_reclaim_complete && xdr_ok(x)) {
            s->has_reclaim_complete = true;
            s->reclaim_one_fs = one_fs;
        }
        break;
    }
    default:
        return false;
    }
    return true;
}

/* EXCHANGE_ID4resok (s.18.35.2). */
static void exchange_id_res(struct xdr *x, struct nfs4_rctx *r)
{
    struct nfs4_setup_res *s = &r->out->setup;
    struct nfs4_setup_res tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.exchange_id.clientid = xdr_u64(x);
    tmp.exchange_id.sequenceid = xdr_u32(x);
    tmp.exchange_id.flags = xdr_u32(x);
    tmp.exchange_id.state_protect = xdr_u32(x);
    switch (tmp.exchange_id.state_protect) {
    case SP4_NONE:
        break;
    case SP4_MACH_CRED:
        state_protect_ops(x);
        break;
    case SP4_SSV: { /* ssv_prot_info4 */
        state_protect_ops(x);
        xdr_skip(x, 16); /* hash_alg, encr_alg, ssv_len, window */
        uint32_t n = xdr_count(x, 4); /* spi_handles<> */
        for (uint32_t i = 0; i < n && xdr_ok(x); i++) xdr_skip_opaque(x, NFS4_NOLIMIT);
        break;
    }
    default:
        xdr_fail(x, XDR_ERR_BAD);
    }
    tmp.exchange_id.server_minor_id = xdr_u64(x);
    nfs4x_opaque_keep(x, tmp.exchange_id.server_major, &tmp.exchange_id.server_major_len,
                      NS_OWNER_MAX, NFS4_OPAQUE_LIMIT);
    nfs4x_opaque_keep(x, tmp.exchange_id.scope, &tmp.exchange_id.scope_len, NS_OWNER_MAX,
                      NFS4_OPAQUE_LIMIT);
    nfs4x_impl_id_list(x);
    if (s->has_exchange_id || !xdr_ok(x)) return;
    s->has_exchange_id = true;
    s->exchange_id = tmp.exchange_id;
}

static void create_session_res(struct xdr *x, struct nfs4_rctx *r)
{
    struct nfs4_setup_res *s = &r->out->setup;
    struct nfs4_setup_res tmp;
    xdr_bytes(x, tmp.create_session.sessionid, NS_SESSIONID_LEN);
    tmp.create_session.sequence = xdr_u32(x);
    tmp.create_session.flags = xdr_u32(x);
    nfs4x_chan_attrs(x, &tmp.create_session.fore);
    nfs4x_chan_attrs(x, &tmp.create_session.back);
    if (s->has_create_session || !xdr_ok(x)) return;
    s->has_create_session = true;
    s->create_session = tmp.create_session;
}

static void bind_conn_res(struct xdr *x, struct nfs4_rctx *r)
{
    struct nfs4_bind_conn b;
    nfs4x_bind_conn(x, &b);
    if (r->out->setup.has_bind_conn || !xdr_ok(x)) return;
    r->out->setup.has_bind_conn = true;
    r->out->setup.bind_conn = b;
}

static void sequence_res(struct xdr *x, struct nfs4_rctx *r)
{
    struct nfs4_seq_res q;
    nfs4x_seq_res_head(x, &q);
    q.status_flags = xdr_u32(x);
    if (r->index != 0 || !xdr_ok(x)) return;
    r->out->has_seq = true;
    r->out->seq = q;
}

bool nfs4_res_session(struct xdr *x, uint32_t op, uint32_t status, struct nfs4_rctx *r)
{
    bool ok = status == NFS4_OK;
    switch (op) {
    case NFS4_OP_BACKCHANNEL_CTL:
    case NFS4_OP_DESTROY_SESSION:
    case NFS4_OP_DESTROY_CLIENTID:
    case NFS4_OP_RECLAIM_COMPLETE:
        break;
    case NFS4_OP_BIND_CONN_TO_SESSION:
        if (ok) bind_conn_res(x, r);
        break;
    case NFS4_OP_EXCHANGE_ID:
        if (ok) exchange_id_res(x, r);
        break;
    case NFS4_OP_CREATE_SESSION:
        if (ok) create_session_res(x, r);
        break;
    case NFS4_OP_SEQUENCE:
        if (ok) sequence_res(x, r);
        break;
    case NFS4_OP_SET_SSV:
        if (ok) xdr_skip_opaque(x, NFS4_NOLIMIT); /* ssr_digest */
        break;
    default:
        return false;
    }
    return true;
}
