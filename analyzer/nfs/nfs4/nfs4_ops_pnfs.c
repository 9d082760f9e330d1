/* pNFS operations (RFC 8881 s.18.40-18.44) and the RFC 7862 layout
 * statistics operations (LAYOUTERROR, LAYOUTSTATS). Layout, device address
 * and layout-update bodies are type-specific opaques and are skipped. */
#include "nfs4_xdr_common.h"

enum { LAYOUTRETURN4_FILE = 1 };

/* layoutupdate4 / device_addr4 / layout_content4: type + opaque body. */
static void typed_body(struct xdr *x)
{
    xdr_u32(x);
    xdr_skip_opaque(x, NFS4_NOLIMIT);
}

static void layoutcommit_args(struct xdr *x)
{
    xdr_skip(x, 16); /* offset, length */
    xdr_bool(x);     /* reclaim */
    nfs4x_stateid(x);
    if (xdr_bool(x)) xdr_skip(x, 8); /* newoffset4 */
    if (xdr_bool(x)) nfs4x_nfstime(x); /* newtime4 */
    typed_body(x);   /* layoutupdate4 */
}

static void layoutreturn_args(struct xdr *x)
{
    xdr_bool(x);     /* reclaim */
    xdr_skip(x, 8);  /* layout_type, iomode */
    if (xdr_u32(x) == LAYOUTRETURN4_FILE) { /* layoutreturn_file4; others void */
        xdr_skip(x, 16); /* offset, length */
        nfs4x_stateid(x);
        xdr_skip_opaque(x, NFS4_NOLIMIT); /* lrf_body */
    }
}

bool nfs4_args_pnfs(struct xdr *x, uint32_t op, struct nfs4_cctx *c)
{
    (void)c;
    switch (op) {
    case NFS4_OP_GETDEVICEINFO:
        xdr_skip(x, NFS4_DEVICEID_LEN + 8); /* deviceid, layout_type, maxcount */
        nfs4x_bitmap(x, NULL, 0);           /* notify_types */
        break;
    case NFS4_OP_GETDEVICELIST:
        xdr_skip(x, 8 + 8 + NFS4_VERIFIER_LEN); /* type, maxdevices, cookie, cookieverf */
        break;
    case NFS4_OP_LAYOUTCOMMIT:
        layoutcommit_args(x);
        break;
    case NFS4_OP_LAYOUTGET:
        xdr_bool(x);     /* signal_layout_avail */
        xdr_skip(x, 8 + 24); /* layout_type, iomode, offset, length, minlength */
        nfs4x_stateid(x);
        xdr_u32(x);      /* maxcount */
        break;
    case NFS4_OP_LAYOUTRETURN:
        layoutreturn_args(x);
        break;
    case NFS4_OP_LAYOUTERROR: {
        xdr_skip(x, 16); /* offset, length */
        nfs4x_stateid(x);
        uint32_t n = xdr_count(x, 24); /* device_error4: deviceid, status, opnum */
        xdr_skip(x, n * 24);
        break;
    }
    case NFS4_OP_LAYOUTSTATS:
        xdr_skip(x, 16); /* offset, length */
        nfs4x_stateid(x);
        xdr_skip(x, 16 + 16 + NFS4_DEVICEID_LEN); /* io_info4 read, write; deviceid */
        typed_body(x);   /* layoutupdate4 */
        break;
    default:
        return false;
    }
    return true;
}

/* LAYOUTGET4resok: return_on_close, stateid, layout4<>. */
static void layoutget_res(struct xdr *x)
{
    xdr_bool(x);
    nfs4x_stateid(x);
    uint32_t n = xdr_count(x, 28);
    for (uint32_t i = 0; i < n && xdr_ok(x); i++) {
        xdr_skip(x, 16);  /* lo_offset, lo_length */
        xdr_u32(x);       /* lo_iomode */
        typed_body(x);    /* lo_content */
    }
}

static void getdevicelist_res(struct xdr *x)
{
    xdr_skip(x, 8 + NFS4_VERIFIER_LEN); /* cookie, cookieverf */
    uint32_t n = xdr_count(x, NFS4_DEVICEID_LEN);
    xdr_skip(x, n * NFS4_DEVICEID_LEN);
    xdr_bool(x); /* eof */
}

bool nfs4_res_pnfs(struct xdr *x, uint32_t op, uint32_t status, struct nfs4_rctx *r)
{
    (void)r;
    bool ok = status == NFS4_OK;
    switch (op) {
    case NFS4_OP_GETDEVICEINFO:
        if (ok) {
            typed_body(x);            /* device_addr4 */
            nfs4x_bitmap(x, NULL, 0); /* notification */
        } else if (status == NFS4ERR_TOOSMALL) {
            xdr_u32(x); /* mincount */
        }
        break;
    case NFS4_OP_GETDEVICELIST:
        if (ok) getdevicelist_res(x);
        break;
    case NFS4_OP_LAYOUTCOMMIT:
        if (ok && xdr_bool(x)) xdr_skip(x, 8); /* newsize4 */
        break;
    case NFS4_OP_LAYOUTGET:
        if (ok) layoutget_res(x);
        else if (status == NFS4ERR_LAYOUTTRYLATER) xdr_bool(x);
        break;
    case NFS4_OP_LAYOUTRETURN:
        if (ok && xdr_bool(x)) nfs4x_stateid(x); /* layoutreturn_stateid */
        break;
    case NFS4_OP_LAYOUTERROR:
    case NFS4_OP_LAYOUTSTATS:
        break;
    default:
        return false;
    }
    return true;
}
