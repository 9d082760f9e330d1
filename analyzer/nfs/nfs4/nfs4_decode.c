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

/* How a walk ended, in the fields a call and a reply both have. */
struct walk_end {
    bool *complete, *unknown_op;
    uint32_t *stopped_at_op, *walked;
};

/* One operation after its opcode, the i-th: false when no decoder claims it
 * (the walk cannot go on) or the reader failed. */
typedef bool (*walk_step_fn)(struct xdr *x, uint32_t op, uint32_t i, bool cb, const void *ctx);

/* The walk of a COMPOUND's n operations, for calls and replies alike: each
 * opcode read and known, then step decodes the rest. Inlined into each walk
 * (always_inline), where step becomes a direct call, inlined too: every
 * NFSv4 message runs this loop. */
static inline __attribute__((always_inline)) int walk_ops(struct xdr *x, uint32_t n, bool cb, walk_step_fn step,
                                                          const void *ctx, struct walk_end e)
{
    int rc = 0;
    uint32_t i = 0;
    for (; i < n; i++) {
        uint32_t op = xdr_u32(x);
        if (!xdr_ok(x)) { rc = -2; break; }
        if (!op_known(op, cb) || !step(x, op, i, cb, ctx) || !xdr_ok(x)) {
            /* the reader still fine: no decoder for op (-1); else it failed in op (-2) */
            *e.unknown_op = xdr_ok(x);
            *e.stopped_at_op = op;
            rc = xdr_ok(x) ? -1 : -2;
            break;
        }
    }
    *e.walked = i; /* the operations before the one it stopped at */
    *e.complete = rc == 0;
    return rc;
}

/* A step's state: pointers only, so that once inlined it lives in
 * registers (what they point to is passed on to the decoders). The steps
 * are inline: each is inlined into the one walk that calls it. */
struct call_walk {
    struct nfs4_call *out;
    struct nfs4_cctx *c;
    struct more_src *more;
};

static inline bool call_step(struct xdr *x, uint32_t op, uint32_t i, bool cb, const void *ctx)
{
    const struct call_walk *w = ctx;
    if (!w->out->ops_cut && !keep_op(w->out, w->more, op)) w->out->ops_cut = true;
    w->c->index = i;
    return args_dispatch(x, op, w->c, cb);
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
    c.names = room ? room->names : NULL;
    struct nfs4_state_facts scratch;
    c.st = room && room->state ? room->state : &scratch;
    memset(c.st, 0, sizeof *c.st); /* the call's facts first: the reply's are cleared below */
    c.st_strong = false;
    out->tag_wire_len = nfs4x_opaque_keep(x, (uint8_t *)out->tag, &out->tag_len, NS_TAG_MAX,
                                          NFS4_NOLIMIT);
    out->minor = xdr_u32(x);
    if (cb) out->cb_ident = xdr_u32(x);
    out->nops_wire = xdr_count(x, 4); /* every operation has at least its opcode */
    if (!xdr_ok(x)) return -2;
    struct call_walk w = {out, &c, &more};
    struct walk_end e = {&out->walk_complete, &out->unknown_op, &out->stopped_at_op, &out->nops_walked};
    return walk_ops(x, out->nops_wire, cb, call_step, &w, e);
}

struct reply_walk {
    struct nfs4_reply *out;
    struct nfs4_rctx *r;
    struct more_src *more;
};

static inline bool reply_step(struct xdr *x, uint32_t op, uint32_t i, bool cb, const void *ctx)
{
    const struct reply_walk *w = ctx;
    uint32_t st = xdr_u32(x);
    if (!xdr_ok(x)) return false;
    if (!w->out->res_cut && !keep_res(w->out, w->more, op, st)) w->out->res_cut = true;
    w->r->index = i;
    return res_dispatch(x, op, st, w->r, cb);
}

static int walk_reply(struct xdr *x, struct nfs4_reply *out, bool cb, const struct nfs4_ops_room *room)
{
    struct more_src more = {.room = room};
    memset(out, 0, sizeof *out);
    struct nfs4_state_facts scratch;
    struct nfs4_rctx r = {.out = out, .index = 0, .names = room ? room->names : NULL,
                          .st = room && room->state ? room->state : &scratch};
    r.st->deleg_type = 0;
    r.st->has_lease_time = false;
    r.st->lease_time_s = 0;
    out->status = xdr_u32(x);
    out->tag_wire_len = nfs4x_opaque_keep(x, (uint8_t *)out->tag, &out->tag_len, NS_TAG_MAX,
                                          NFS4_NOLIMIT);
    out->nres_wire = xdr_count(x, 8); /* every result has its opcode and status */
    if (!xdr_ok(x)) return -2;
    struct reply_walk w = {out, &r, &more};
    struct walk_end e = {&out->walk_complete, &out->unknown_op, &out->stopped_at_op, &out->nres_walked};
    return walk_ops(x, out->nres_wire, cb, reply_step, &w, e);
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
