/* NFSv4.1 callback operations (RFC 8881 s.20) and CB_OFFLOAD (RFC 7862
 * s.16.1), as carried by CB_COMPOUND. CB_SEQUENCE as the first operation
 * fills the seq fields. */
#include "nfs4_xdr_common.h"

enum { LAYOUTRECALL4_FILE = 1, LAYOUTRECALL4_FSID = 2, LAYOUTRECALL4_ALL = 3 };

/* notify4<>: bitmap4 notify_mask + opaque notify_vals. */
static void notify_list(struct xdr *x)
{
    uint32_t n = xdr_count(x, 8);
    for (uint32_t i = 0; i < n && xdr_ok(x); i++) {
        nfs4x_bitmap(x, NULL, 0);
        xdr_skip_opaque(x, NFS4_NOLIMIT);
    }
}

static void layoutrecall_args(struct xdr *x)
{
    xdr_skip(x, 8); /* layout type, iomode */
    xdr_bool(x);    /* changed */
    switch (xdr_u32(x)) {
    case LAYOUTRECALL4_FILE:
        nfs4x_fh(x, NULL);
        xdr_skip(x, 16); /* offset, length */
        nfs4x_stateid(x);
        break;
    case LAYOUTRECALL4_FSID:
        xdr_skip(x, 16); /* fsid4 */
        break;
    case LAYOUTRECALL4_ALL:
        break;
    default:
        xdr_fail(x, XDR_ERR_BAD);
    }
}

static void cb_sequence_args(struct xdr *x, struct nfs4_cctx *c)
{
    struct nfs4_seq_args a;
    xdr_bytes(x, a.sessionid, sizeof a.sessionid);
    a.sequenceid = xdr_u32(x);
    a.slotid = xdr_u32(x);
    a.highest_slotid = xdr_u32(x);
    a.cachethis = xdr_bool(x);
    uint32_t n = xdr_count(x, NS_SESSIONID_LEN + 4); /* referring_call_list4<> */
    for (uint32_t i = 0; i < n && xdr_ok(x); i++) {
        xdr_skip(x, NS_SESSIONID_LEN);
        uint32_t k = xdr_count(x, 8); /* referring_call4<> */
        xdr_skip(x, k * 8);
    }
    if (c->index != 0 || !xdr_ok(x)) return;
    c->out->has_seq = true;
    c->out->seq = a;
}

bool nfs4_args_cb(struct xdr *x, uint32_t op, struct nfs4_cctx *c)
{
    switch (op) {
    case NFS4_CB_GETATTR:
        nfs4x_fh(x, NULL);
        nfs4x_bitmap(x, NULL, 0);
        break;
    case NFS4_CB_RECALL:
        nfs4x_call_stateid(x, c, op, true);
        xdr_bool(x); /* truncate */
        nfs4x_fh(x, NULL);
        break;
    case NFS4_CB_LAYOUTRECALL:
        layoutrecall_args(x);
        break;
    case NFS4_CB_NOTIFY:
        nfs4x_stateid(x);
        nfs4x_fh(x, NULL);
        notify_list(x);
        break;
    case NFS4_CB_PUSH_DELEG:
        nfs4x_fh(x, NULL);
        nfs4x_open_delegation(x, NULL);
        break;
    case NFS4_CB_RECALL_ANY:
    case NFS4_CB_RECALLABLE_OBJ_AVAIL:
        xdr_u32(x); /* objects_to_keep */
        nfs4x_bitmap(x, NULL, 0); /* type_mask */
        break;
    case NFS4_CB_RECALL_SLOT:
        xdr_u32(x); /* target_highest_slotid */
        break;
    case NFS4_CB_SEQUENCE:
        cb_sequence_args(x, c);
        break;
    case NFS4_CB_WANTS_CANCELLED:
        xdr_bool(x);
        xdr_bool(x);
        break;
    case NFS4_CB_NOTIFY_LOCK:
        nfs4x_fh(x, NULL);
        nfs4x_state_owner(x);
        break;
    case NFS4_CB_NOTIFY_DEVICEID:
        notify_list(x);
        break;
    case NFS4_CB_OFFLOAD:
        nfs4x_fh(x, NULL);
        nfs4x_stateid(x);
        if (xdr_u32(x) == NFS4_OK) nfs4x_write_response(x); /* offload_info4 */
        else xdr_skip(x, 8); /* coa_bytes_copied */
        break;
    default:
        return false;
    }
    return true;
}

static void cb_sequence_res(struct xdr *x, struct nfs4_rctx *r)
{
    struct nfs4_seq_res q = {0};
    nfs4x_seq_res_head(x, &q); /* CB_SEQUENCE4resok has no status flags */
    if (r->index != 0 || !xdr_ok(x)) return;
    r->out->has_seq = true;
    r->out->seq = q;
}

bool nfs4_res_cb(struct xdr *x, uint32_t op, uint32_t status, struct nfs4_rctx *r)
{
    bool ok = status == NFS4_OK;
    switch (op) {
    case NFS4_CB_GETATTR:
        if (ok) nfs4x_fattr(x);
        break;
    case NFS4_CB_SEQUENCE:
        if (ok) cb_sequence_res(x, r);
        break;
    case NFS4_CB_RECALL:
    case NFS4_CB_LAYOUTRECALL:
    case NFS4_CB_NOTIFY:
    case NFS4_CB_PUSH_DELEG:
    case NFS4_CB_RECALL_ANY:
    case NFS4_CB_RECALLABLE_OBJ_AVAIL:
    case NFS4_CB_RECALL_SLOT:
    case NFS4_CB_WANTS_CANCELLED:
    case NFS4_CB_NOTIFY_LOCK:
    case NFS4_CB_NOTIFY_DEVICEID:
    case NFS4_CB_OFFLOAD:
        break;
    default:
        return false;
    }
    return true;
}
