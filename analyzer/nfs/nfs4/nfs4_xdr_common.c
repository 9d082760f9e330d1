/* XDR items shared by several NFSv4 operations (RFC 8881 s.3, s.18;
 * RFC 7862 s.4, s.15). */
#include "nfs4_xdr_common.h"

uint32_t nfs4x_bitmap(struct xdr *x, uint32_t *first, uint32_t nfirst)
{
    uint32_t n = xdr_count(x, 4);
    uint32_t i = 0;
    for (; i < n && i < nfirst; i++) first[i] = xdr_u32(x);
    xdr_skip(x, (n - i) * 4); /* n * 4 <= remaining: cannot overflow */
    return n;
}

void nfs4x_fattr(struct xdr *x)
{
    nfs4x_bitmap(x, NULL, 0);
    xdr_skip_opaque(x, NFS4_NOLIMIT);
}

void nfs4x_change_info(struct xdr *x)
{
    xdr_bool(x);
    xdr_skip(x, 16);
}

void nfs4x_fh(struct xdr *x, struct nfs4_fh *out)
{
    if (!out) {
        xdr_skip_opaque(x, NFS4_FHSIZE);
        return;
    }
    uint32_t n = xdr_opaque(x, out->data, NS_FH_MAX, NFS4_FHSIZE);
    out->len = (uint8_t)(n < NS_FH_MAX ? n : NS_FH_MAX);
    if (!xdr_ok(x)) out->len = 0;
}

void nfs4x_state_owner(struct xdr *x)
{
    xdr_skip(x, 8);
    xdr_skip_opaque(x, NFS4_OPAQUE_LIMIT);
}

void nfs4x_netaddr(struct xdr *x)
{
    nfs4x_utf8(x); /* na_r_netid */
    nfs4x_utf8(x); /* na_r_addr */
}

void nfs4x_nfsace(struct xdr *x)
{
    xdr_skip(x, 12); /* type, flag, access_mask */
    nfs4x_utf8(x);   /* who */
}

enum {
    OPEN_DELEGATE_NONE = 0, OPEN_DELEGATE_READ = 1, OPEN_DELEGATE_WRITE = 2,
    OPEN_DELEGATE_NONE_EXT = 3,
    /* RFC 9754 delegated timestamps: same bodies as READ / WRITE */
    OPEN_DELEGATE_READ_ATTRS_DELEG = 4, OPEN_DELEGATE_WRITE_ATTRS_DELEG = 5,
};
enum { WND4_CONTENTION = 1, WND4_RESOURCE = 2 };
enum { NFS_LIMIT_SIZE = 1, NFS_LIMIT_BLOCKS = 2 };

uint32_t nfs4x_open_delegation(struct xdr *x, uint8_t *stateid)
{
    uint32_t type = xdr_u32(x);
    switch (type) {
    case OPEN_DELEGATE_NONE:
        break;
    case OPEN_DELEGATE_READ:
    case OPEN_DELEGATE_READ_ATTRS_DELEG:
        if (stateid) xdr_bytes(x, stateid, NFS4_STATEID_LEN);
        else nfs4x_stateid(x);
        xdr_bool(x); /* recall */
        nfs4x_nfsace(x);
        break;
    case OPEN_DELEGATE_WRITE:
    case OPEN_DELEGATE_WRITE_ATTRS_DELEG: {
        if (stateid) xdr_bytes(x, stateid, NFS4_STATEID_LEN);
        else nfs4x_stateid(x);
        xdr_bool(x);
        uint32_t limitby = xdr_u32(x);
        if (limitby == NFS_LIMIT_SIZE) xdr_skip(x, 8);
        else if (limitby == NFS_LIMIT_BLOCKS) xdr_skip(x, 8);
        else xdr_fail(x, XDR_ERR_BAD);
        nfs4x_nfsace(x);
        break;
    }
    case OPEN_DELEGATE_NONE_EXT: {
        uint32_t why = xdr_u32(x);
        if (why == WND4_CONTENTION || why == WND4_RESOURCE) xdr_bool(x);
        break;
    }
    default:
        xdr_fail(x, XDR_ERR_BAD);
    }
    return type;
}

void nfs4x_call_stateid(struct xdr *x, struct nfs4_cctx *c, uint32_t op, bool strong)
{
    if (c->st_strong || (c->st->stateid_op && !strong)) {
        nfs4x_stateid(x);
        return;
    }
    xdr_bytes(x, c->st->call_stateid, NFS4_STATEID_LEN);
    c->st->stateid_op = xdr_ok(x) ? op : 0;
    c->st_strong = strong && xdr_ok(x);
}

void nfs4x_reply_delegation(struct xdr *x, struct nfs4_rctx *r)
{
    uint8_t sid[NFS4_STATEID_LEN];
    uint32_t type = nfs4x_open_delegation(x, sid);
    bool has_sid = type == OPEN_DELEGATE_READ || type == OPEN_DELEGATE_WRITE ||
                   type == OPEN_DELEGATE_READ_ATTRS_DELEG || type == OPEN_DELEGATE_WRITE_ATTRS_DELEG;
    if (!xdr_ok(x) || !has_sid || r->st->deleg_type) return;
    r->st->deleg_type = type;
    memcpy(r->st->deleg_stateid, sid, NFS4_STATEID_LEN);
}

void nfs4x_lock_denied(struct xdr *x)
{
    xdr_skip(x, 16); /* offset, length */
    xdr_u32(x);      /* locktype */
    nfs4x_state_owner(x);
}

void nfs4x_write_response(struct xdr *x)
{
    uint32_t n = xdr_count(x, NFS4_STATEID_LEN); /* wr_callback_id<1> */
    if (n > 1) xdr_fail(x, XDR_ERR_BAD);
    xdr_skip(x, n * NFS4_STATEID_LEN);
    xdr_skip(x, 8 + 4 + NFS4_VERIFIER_LEN); /* count, committed, writeverf */
}

enum { NL4_NAME = 1, NL4_URL = 2, NL4_NETADDR = 3 };

void nfs4x_netloc(struct xdr *x)
{
    switch (xdr_u32(x)) {
    case NL4_NAME:
    case NL4_URL:
        nfs4x_utf8(x);
        break;
    case NL4_NETADDR:
        nfs4x_netaddr(x);
        break;
    default:
        xdr_fail(x, XDR_ERR_BAD);
    }
}

enum { AUTH_NONE = 0, AUTH_SYS = 1, RPCSEC_GSS = 6 };

void nfs4x_callback_sec_parms_list(struct xdr *x)
{
    uint32_t n = xdr_count(x, 4);
    for (uint32_t i = 0; i < n && xdr_ok(x); i++) {
        switch (xdr_u32(x)) {
        case AUTH_NONE:
            break;
        case AUTH_SYS: { /* authsys_parms, RFC 5531 */
            xdr_u32(x);                 /* stamp */
            xdr_skip_opaque(x, 255);    /* machinename */
            xdr_skip(x, 8);             /* uid, gid */
            uint32_t g = xdr_count(x, 4);
            if (g > 16) xdr_fail(x, XDR_ERR_BAD);
            xdr_skip(x, g * 4);
            break;
        }
        case RPCSEC_GSS: /* gss_cb_handles4 */
            xdr_u32(x); /* service */
            xdr_skip_opaque(x, NFS4_NOLIMIT);
            xdr_skip_opaque(x, NFS4_NOLIMIT);
            break;
        default:
            xdr_fail(x, XDR_ERR_BAD);
        }
    }
}

void nfs4x_bind_conn(struct xdr *x, struct nfs4_bind_conn *out)
{
    xdr_bytes(x, out->sessionid, sizeof out->sessionid);
    out->dir = xdr_u32(x);
    out->use_rdma = xdr_bool(x);
}

void nfs4x_seq_res_head(struct xdr *x, struct nfs4_seq_res *out)
{
    xdr_bytes(x, out->sessionid, sizeof out->sessionid);
    out->sequenceid = xdr_u32(x);
    out->slotid = xdr_u32(x);
    out->highest_slotid = xdr_u32(x);
    out->target_highest_slotid = xdr_u32(x);
}

void nfs4x_chan_attrs(struct xdr *x, struct nfs4_chan_attrs *out)
{
    out->headerpadsize = xdr_u32(x);
    out->maxrequestsize = xdr_u32(x);
    out->maxresponsesize = xdr_u32(x);
    out->maxresponsesize_cached = xdr_u32(x);
    out->maxoperations = xdr_u32(x);
    out->maxrequests = xdr_u32(x);
    uint32_t n = xdr_count(x, 4); /* ca_rdma_ird<1> */
    if (n > 1) xdr_fail(x, XDR_ERR_BAD);
    xdr_skip(x, n * 4);
    out->rdma_ird_count = xdr_ok(x) ? n : 0;
}

void nfs4x_impl_id_list(struct xdr *x)
{
    uint32_t n = xdr_count(x, 20); /* nfs_impl_id4<1> */
    if (n > 1) xdr_fail(x, XDR_ERR_BAD);
    if (n == 1 && xdr_ok(x)) {
        nfs4x_utf8(x);   /* nii_domain */
        nfs4x_utf8(x);   /* nii_name */
        nfs4x_nfstime(x); /* nii_date */
    }
}

uint32_t nfs4x_opaque_keep(struct xdr *x, uint8_t *out, uint8_t *kept, uint32_t cap, uint32_t max)
{
    uint32_t n = xdr_opaque(x, out, cap, max);
    *kept = (uint8_t)(xdr_ok(x) ? (n < cap ? n : cap) : 0);
    return n;
}

#define NFS4_NAME_KEEP 255u /* NAME_MAX: a longer component is told cut */

void nfs4x_name_step(struct xdr *x, const struct nfs_name_sink *names, uint8_t step, uint32_t index)
{
    if (!names) {
        nfs4x_utf8(x);
        return;
    }
    uint8_t buf[NFS4_NAME_KEEP];
    uint32_t n = xdr_opaque(x, buf, sizeof buf, NFS4_NOLIMIT);
    if (xdr_ok(x)) nfs_name_tell(names, step, index, buf, n < sizeof buf ? n : sizeof buf, NULL, 0);
}

/* The attributes before FATTR4_FILEHANDLE (19), in bit order: their sizes
 * (RFC 8881 s.5.6): 0 a bitmap, 12 an ACL, the rest fixed. */
static void skip_attr(struct xdr *x, uint32_t bit)
{
    static const uint8_t size[19] = {0, 4, 4, 8, 8, 4, 4, 4, 16, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4};
    if (bit == 0) {
        nfs4x_bitmap(x, NULL, 0);
    } else if (bit == 12) {
        uint32_t n = xdr_count(x, 16);
        for (uint32_t i = 0; i < n && xdr_ok(x); i++) nfs4x_nfsace(x);
    } else {
        xdr_skip(x, size[bit]);
    }
}

void nfs4x_fattr_lease(struct xdr *x, struct nfs4_state_facts *st)
{
    uint32_t bm[1] = {0};
    uint32_t words = nfs4x_bitmap(x, bm, 1);
    if (words && (bm[0] & (1u << 10)) && !st->has_lease_time) {
        struct xdr y = *x, a; /* a look inside the attrlist4, as nfs4x_fattr_fh */
        uint32_t len = xdr_u32(&y);
        if (xdr_ok(&y) && len <= xdr_remaining(&y)) {
            xdr_sub(&y, len, &a);
            for (uint32_t bit = 0; bit < 10 && xdr_ok(&a); bit++)
                if (bm[0] & (1u << bit)) skip_attr(&a, bit);
            uint32_t lease = xdr_u32(&a);
            if (xdr_ok(&a)) {
                st->has_lease_time = true;
                st->lease_time_s = lease;
            }
        }
    }
    xdr_skip_opaque(x, NFS4_NOLIMIT);
}

void nfs4x_fattr_fh(struct xdr *x, struct nfs4_fh *fh)
{
    uint32_t bm[1] = {0};
    fh->len = 0;
    uint32_t words = nfs4x_bitmap(x, bm, 1);
    if (words && (bm[0] & (1u << 19))) {
        /* a look inside the attrlist4; x itself moves as nfs4x_fattr's would */
        struct xdr y = *x, a;
        uint32_t len = xdr_u32(&y);
        if (xdr_ok(&y) && len <= xdr_remaining(&y)) {
            xdr_sub(&y, len, &a);
            for (uint32_t bit = 0; bit < 19 && xdr_ok(&a); bit++)
                if (bm[0] & (1u << bit)) skip_attr(&a, bit);
            if (xdr_ok(&a)) nfs4x_fh(&a, fh);
        }
    }
    xdr_skip_opaque(x, NFS4_NOLIMIT);
}
