/* COMPOUND and CB_COMPOUND walks (RFC 8881 s.16.2, s.20.2): header, then each
 * operation dispatched to its family decoder (nfs4_ops_*.c, nfs4_cb_decode.c)
 * until the array ends, an unknown operation stops the walk, or the reader
 * fails. */
#include "nfs4_decode.h"

#include <string.h>

#include "nfs4_xdr_common.h"
#include "nfsscope/names.h"

static bool op_known(uint32_t op, bool cb)
{
    return cb ? ns_nfs4_cb_op_known(op) : ns_nfs4_op_known(op);
}

/* Decode the arguments of a known operation; false if no family claims it. */
static bool args_dispatch(struct xdr *x, uint32_t op, struct nfs4_cctx *c, bool cb)
{
    if (op == NFS4_OP_ILLEGAL) return true; /* ILLEGAL / CB_ILLEGAL: no arguments */
    if (cb) return nfs4_args_cb(x, op, c);
    return nfs4_args_fs(x, op, c) || nfs4_args_state(x, op, c) ||
           nfs4_args_session(x, op, c) || nfs4_args_io(x, op, c) || nfs4_args_pnfs(x, op, c);
}

static bool res_dispatch(struct xdr *x, uint32_t op, uint32_t st, struct nfs4_rctx *r, bool cb)
{
    if (op == NFS4_OP_ILLEGAL) return true; /* status only */
    if (cb) return nfs4_res_cb(x, op, st, r);
    return nfs4_res_fs(x, op, st, r) || nfs4_res_state(x, op, st, r) ||
           nfs4_res_session(x, op, st, r) || nfs4_res_io(x, op, st, r) ||
           nfs4_res_pnfs(x, op, st, r);
}

static int walk_call(struct xdr *x, struct nfs4_call *out, bool cb)
{
    memset(out, 0, sizeof *out);
    struct nfs4_cctx c;
    memset(&c, 0, sizeof c);
    c.out = out;
    out->tag_wire_len = nfs4x_opaque_keep(x, (uint8_t *)out->tag, &out->tag_len, NS_TAG_MAX,
                                          NFS4_NOLIMIT);
    out->minor = xdr_u32(x);
    if (cb) out->cb_ident = xdr_u32(x);
    out->nops_wire = xdr_count(x, 4); /* every operation has at least its opcode */
    if (!xdr_ok(x)) return -2;
    for (uint32_t i = 0; i < out->nops_wire; i++) {
        uint32_t op = xdr_u32(x);
        if (!xdr_ok(x)) return -2;
        if (!op_known(op, cb)) {
            out->unknown_op = true;
            out->stopped_at_op = op;
            return -1;
        }
        if (out->nops < NS_MAX_OPS) out->op[out->nops++] = (uint16_t)op;
        c.index = i;
        if (!args_dispatch(x, op, &c, cb)) { /* known name, no decoder: cannot go on */
            out->unknown_op = true;
            out->stopped_at_op = op;
            return -1;
        }
        if (!xdr_ok(x)) {
            out->stopped_at_op = op;
            return -2;
        }
        out->nops_walked++;
    }
    out->walk_complete = true;
    return 0;
}

static int walk_reply(struct xdr *x, struct nfs4_reply *out, bool cb)
{
    memset(out, 0, sizeof *out);
    struct nfs4_rctx r = {.out = out, .index = 0};
    out->status = xdr_u32(x);
    out->tag_wire_len = nfs4x_opaque_keep(x, (uint8_t *)out->tag, &out->tag_len, NS_TAG_MAX,
                                          NFS4_NOLIMIT);
    out->nres_wire = xdr_count(x, 8); /* every result has its opcode and status */
    if (!xdr_ok(x)) return -2;
    for (uint32_t i = 0; i < out->nres_wire; i++) {
        uint32_t op = xdr_u32(x);
        if (!xdr_ok(x)) return -2;
        if (!op_known(op, cb)) {
            out->unknown_op = true;
            out->stopped_at_op = op;
            return -1;
        }
        uint32_t st = xdr_u32(x);
        if (!xdr_ok(x)) {
            out->stopped_at_op = op;
            return -2;
        }
        if (out->nres < NS_MAX_OPS) {
            out->resop[out->nres] = (uint16_t)op;
            out->res_status[out->nres] = st;
            out->nres++;
        }
        r.index = i;
        if (!res_dispatch(x, op, st, &r, cb)) {
            out->unknown_op = true;
            out->stopped_at_op = op;
            return -1;
        }
        if (!xdr_ok(x)) {
            out->stopped_at_op = op;
            return -2;
        }
        out->nres_walked++;
    }
    out->walk_complete = true;
    return 0;
}

int nfs4_decode_compound_call(struct xdr *x, struct nfs4_call *out)
{
    return walk_call(x, out, false);
}

int nfs4_decode_compound_reply(struct xdr *x, struct nfs4_reply *out)
{
    return walk_reply(x, out, false);
}

int nfs4_decode_cb_compound_call(struct xdr *x, struct nfs4_call *out)
{
    return walk_call(x, out, true);
}

int nfs4_decode_cb_compound_reply(struct xdr *x, struct nfs4_reply *out)
{
    return walk_reply(x, out, true);
}
