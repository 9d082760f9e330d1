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

/* The block for operations past NS_OPS_INLINE, asked for once per walk. */
struct more_src {
    const struct nfs4_ops_room *room;
    struct ns_ops_more *got;
    bool asked;
};

static struct ns_ops_more *more_block(struct more_src *m)
{
    if (!m->asked) {
        m->asked = true;
        m->got = m->room && m->room->get ? m->room->get(m->room->ctx) : NULL;
    }
    return m->got;
}

/* Record operation number n of the call; false: not recorded (cut). */
static bool keep_op(struct nfs4_call *out, struct more_src *m, uint32_t op)
{
    uint16_t n = out->nops;
    if (n < NS_OPS_INLINE) {
        out->op[n] = (uint16_t)op;
    } else {
        struct ns_ops_more *b = n < NS_MAX_OPS ? more_block(m) : NULL;
        if (!b) return false;
        b->op[n - NS_OPS_INLINE] = (uint16_t)op;
    }
    out->nops++;
    return true;
}

static bool keep_res(struct nfs4_reply *out, struct more_src *m, uint32_t op, uint32_t st)
{
    uint16_t n = out->nres;
    if (n < NS_OPS_INLINE) {
        out->resop[n] = (uint16_t)op;
        out->res_status[n] = st;
    } else {
        struct ns_ops_more *b = n < NS_MAX_OPS ? more_block(m) : NULL;
        if (!b) return false;
        b->resop[n - NS_OPS_INLINE] = (uint16_t)op;
        b->res_status[n - NS_OPS_INLINE] = st;
    }
    out->nres++;
    return true;
}

static int walk_call(struct xdr *x, struct nfs4_call *out, bool cb, const struct nfs4_ops_room *room)
{
    struct more_src more = {.room = room};
    memset(out, 0, sizeof *out);
    /* file handles hold len bytes: the 2 x 129-byte context is not cleared */
    struct nfs4_cctx c;
    c.out = out;
    c.index = 0;
    c.cur.len = c.saved.len = 0;
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
        if (!out->ops_cut && !keep_op(out, &more, op)) out->ops_cut = true;
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

static int walk_reply(struct xdr *x, struct nfs4_reply *out, bool cb, const struct nfs4_ops_room *room)
{
    struct more_src more = {.room = room};
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
        if (!out->res_cut && !keep_res(out, &more, op, st)) out->res_cut = true;
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

int nfs4_decode_compound_call(struct xdr *x, struct nfs4_call *out, const struct nfs4_ops_room *room)
{
    return walk_call(x, out, false, room);
}

int nfs4_decode_compound_reply(struct xdr *x, struct nfs4_reply *out, const struct nfs4_ops_room *room)
{
    return walk_reply(x, out, false, room);
}

int nfs4_decode_cb_compound_call(struct xdr *x, struct nfs4_call *out, const struct nfs4_ops_room *room)
{
    return walk_call(x, out, true, room);
}

int nfs4_decode_cb_compound_reply(struct xdr *x, struct nfs4_reply *out, const struct nfs4_ops_room *room)
{
    return walk_reply(x, out, true, room);
}
