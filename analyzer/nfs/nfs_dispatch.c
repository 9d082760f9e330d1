#include "nfs_dispatch.h"

#include "mount_decode.h"
#include "nfs3_decode.h"
#include "nfs4_decode.h"
#include "op_stats.h"

#define PROG_NFS 100003
#define PROG_MOUNT 100005

static void note_result(int rc, const struct xdr *x, bool *truncated, bool *undecoded, struct ns_stats *st)
{
    if (rc == 0) return;
    if (x->err == XDR_ERR_TRUNC) {
        *truncated = true;
        st->decode_truncated++;
    } else {
        *undecoded = true;
        if (rc == -1) st->nfs4_unknown_ops++;
        else st->decode_invalid++;
    }
}

struct nfs_ops_ctx {
    struct nfs4_ops_pool *pool;
    struct ns_txn *t;
    struct ns_stats *st;
};

static struct ns_ops_more *more_for(void *ctx)
{
    struct nfs_ops_ctx *c = ctx;
    struct ns_ops_more *b = c->pool ? nfs4_ops_pool_get(c->pool, c->t) : NULL;
    if (!b && c->pool) c->st->nfs4_ops_refused++;
    return b;
}

enum ns_txn_kind nfs_kind_of(bool backchannel, uint32_t prog, uint32_t vers)
{
    if (backchannel) return NS_TXN_NFS4_CB;
    if (prog == PROG_NFS && vers == 3) return NS_TXN_NFS3;
    if (prog == PROG_NFS && vers == 4) return NS_TXN_NFS4;
    if (prog == PROG_MOUNT) return NS_TXN_MOUNT;
    return NS_TXN_OTHER;
}

enum ns_txn_kind nfs_call_kind(const struct ns_txn *t) { return nfs_kind_of(t->backchannel, t->prog, t->vers); }

void nfs_decode_call(struct ns_txn *t, struct xdr *x, struct ns_stats *st, struct memcap *mc,
                     struct nfs4_ops_pool *pool, const struct nfs_name_sink *names)
{
    int rc = 0;
    struct nfs_ops_ctx oc = {.pool = pool, .t = t, .st = st};
    struct nfs4_ops_room room = {.get = more_for, .ctx = &oc, .names = names, .state = &t->state4};
    t->kind = nfs_call_kind(t);
    if (names) names->begin(names->ctx, t, false);
    switch (t->kind) {
    case NS_TXN_NFS4_CB:
        if (t->proc == 1) rc = nfs4_decode_cb_compound_call(x, &t->u.v4.call, &room);
        break;
    case NS_TXN_NFS3:
        rc = nfs3_decode_call_named(x, t->proc, &t->u.v3.call, names);
        st->nfs_versions |= NS_VERS_BIT(3, 0);
        break;
    case NS_TXN_NFS4:
        if (t->proc == 1) {
            rc = nfs4_decode_compound_call(x, &t->u.v4.call, &room);
            if (rc == 0 || t->u.v4.call.nops_wire || xdr_ok(x))
                st->nfs_versions |= NS_VERS_BIT(4, t->u.v4.call.minor);
        }
        break;
    case NS_TXN_MOUNT: {
        struct mount3_call mcall;
        rc = mount_decode_call(x, t->vers, t->proc, &mcall);
        if (names && t->proc == MOUNTPROC3_MNT && mcall.path_len)
            nfs_name_tell(names, NN_MNT_PATH, 0, (const uint8_t *)mcall.path, mcall.path_len, NULL, 0);
        break;
    }
    default:
        if (t->prog == PROG_NFS && t->vers == 2) st->nfs_versions |= NS_VERS_BIT(2, 0);
        break;
    }
    note_result(rc, x, &t->call_truncated, &t->call_undecoded, st);
    if (t->kind == NS_TXN_NFS4 || t->kind == NS_TXN_NFS4_CB) {
        if (t->u.v4.call.ops_cut) st->nfs4_ops_cut++;
        op_stats_in_compound(st, mc, t, 0, ns_txn_nops(t));
    }
}

/* Peek at the first word of the results: the status of every NFS reply. */
static bool peek_status(struct xdr *x, uint32_t *status)
{
    struct xdr y = *x;
    *status = xdr_u32(&y);
    return xdr_ok(&y);
}

void nfs_decode_reply(struct ns_txn *t, struct xdr *x, struct ns_stats *st, struct nfs4_ops_pool *pool,
                      const struct nfs_name_sink *names)
{
    int rc = 0;
    struct nfs_ops_ctx oc = {.pool = pool, .t = t, .st = st};
    struct nfs4_ops_room room = {.get = more_for, .ctx = &oc, .names = names, .state = &t->state4};
    if (names) names->begin(names->ctx, t, true);
    switch (t->kind) {
    case NS_TXN_NFS3:
        if (t->proc != 0) t->has_status = peek_status(x, &t->status);
        rc = nfs3_decode_reply_named(x, t->proc, &t->u.v3.reply, names);
        break;
    case NS_TXN_NFS4:
        if (t->proc == 1) {
            t->has_status = peek_status(x, &t->status);
            rc = nfs4_decode_compound_reply(x, &t->u.v4.reply, &room);
        }
        break;
    case NS_TXN_NFS4_CB:
        if (t->proc == 1) {
            t->has_status = peek_status(x, &t->status);
            rc = nfs4_decode_cb_compound_reply(x, &t->u.v4.reply, &room);
        }
        break;
    case NS_TXN_MOUNT: {
        struct mount3_reply mr;
        if (t->proc == 1) t->has_status = peek_status(x, &t->status);
        rc = mount_decode_reply(x, t->vers, t->proc, &mr);
        if (names && t->proc == MOUNTPROC3_MNT && mr.fh_len)
            nfs_name_tell(names, NN_MNT_FH, 0, mr.fh, mr.fh_len, NULL, 0);
        break;
    }
    default:
        break;
    }
    note_result(rc, x, &t->reply_truncated, &t->reply_undecoded, st);
    if ((t->kind == NS_TXN_NFS4 || t->kind == NS_TXN_NFS4_CB) && t->u.v4.reply.res_cut) st->nfs4_ops_cut++;
}

/* The operation a COMPOUND is about: the first that is not bookkeeping
 * (SEQUENCE, PUTFH and friends, GETFH, SAVEFH/RESTOREFH, GETATTR), else its
 * first GETATTR, else its first operation. */
static uint32_t main_op(const struct ns_txn *t, bool cb)
{
    int64_t getattr = -1;
    uint32_t n = ns_txn_nops(t);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t op = ns_txn_op(t, i);
        if (cb) {
            if (op != 11) return op; /* CB_SEQUENCE */
            continue;
        }
        switch (op) {
        case 53: case 22: case 23: case 24: case 10: case 32: case 31: /* SEQUENCE PUTFH PUTPUBFH PUTROOTFH GETFH SAVEFH RESTOREFH */
            continue;
        case 9: /* GETATTR */
            if (getattr < 0) getattr = i;
            continue;
        default:
            return op;
        }
    }
    if (getattr >= 0) return ns_txn_op(t, (uint32_t)getattr);
    return n ? ns_txn_op(t, 0) : UINT32_MAX;
}

uint32_t nfs_txn_opkey(const struct ns_txn *t)
{
    switch (t->kind) {
    case NS_TXN_NFS3:
        return NS_OPKEY_V3(t->proc < 22 ? t->proc : 22);
    case NS_TXN_NFS4:
        if (t->proc == 0) return NS_OPKEY_V4NULL;
        {
            uint32_t op = main_op(t, false);
            return op == UINT32_MAX ? UINT32_MAX : NS_OPKEY_V4(op);
        }
    case NS_TXN_NFS4_CB:
        if (t->proc == 0) return NS_OPKEY_CBNULL;
        {
            uint32_t op = main_op(t, true);
            return op == UINT32_MAX ? UINT32_MAX : NS_OPKEY_CB(op);
        }
    default:
        return UINT32_MAX;
    }
}
