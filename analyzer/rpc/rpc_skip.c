/* Trial decodes for streaming: nfs_dispatch.c's decoder choice
 * (nfs_kind_of), into scratch results; the answer is whether a read fell in
 * a hole. */
#include "rpc_skip.h"

#include "mount_decode.h"
#include "nfs3_decode.h"
#include "nfs4_decode.h"
#include "nfs_dispatch.h"

/* room NULL: a trial keeps no operation past the inline ones, but walks them all */
union scratch {
    struct nfs3_call c3;
    struct nfs3_reply r3;
    struct nfs4_call c4;
    struct nfs4_reply r4;
    struct mount3_call cm;
    struct mount3_reply rm;
};

bool rpc_skip_call_ok(struct xdr *x, bool backchannel, uint32_t prog, uint32_t vers, uint32_t proc)
{
    union scratch s;
    switch (nfs_kind_of(backchannel, prog, vers)) {
    case NS_TXN_NFS4_CB:
        if (proc == 1) nfs4_decode_cb_compound_call(x, &s.c4, NULL);
        break;
    case NS_TXN_NFS3:
        nfs3_decode_call(x, proc, &s.c3);
        break;
    case NS_TXN_NFS4:
        if (proc == 1) nfs4_decode_compound_call(x, &s.c4, NULL);
        break;
    case NS_TXN_MOUNT:
        mount_decode_call(x, vers, proc, &s.cm);
        break;
    default:
        break;
    }
    return x->err != XDR_ERR_TRUNC;
}

bool rpc_skip_reply_ok(struct xdr *x, const struct ns_txn *t)
{
    union scratch s;
    switch (t->kind) {
    case NS_TXN_NFS3:
        nfs3_decode_reply(x, t->proc, &s.r3);
        break;
    case NS_TXN_NFS4:
        if (t->proc == 1) nfs4_decode_compound_reply(x, &s.r4, NULL);
        break;
    case NS_TXN_NFS4_CB:
        if (t->proc == 1) nfs4_decode_cb_compound_reply(x, &s.r4, NULL);
        break;
    case NS_TXN_MOUNT:
        mount_decode_reply(x, t->vers, t->proc, &s.rm);
        break;
    default:
        break;
    }
    return x->err != XDR_ERR_TRUNC;
}
